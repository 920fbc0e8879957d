// Largest accepted inputs (issue #12 §4): a 10 MiB paste and a 1 MiB share-link fragment must
// be read in well under a second (no quadratic path), and a refused one costs one scan.
//
//   trainmem_bench --benchmark_filter='Paste|Fragment|Refuse'
#include <string>

#include <benchmark/benchmark.h>

#include "core/config/config.h"
#include "core/input_limits.h"
#include "core/link/share_link.h"
#include "data/builtin_presets.h"

namespace {

const trainmem::Presets& Presets() {
  static const trainmem::Presets presets = trainmem::BuiltinPresets();
  return presets;
}

// A config whose one string value fills the paste to the limit: the parser, the UTF-8 check
// and the error message for the unknown value all see the full 10 MiB.
void BM_Paste10MiBConfig(benchmark::State& state) {
  const std::string head = R"({"model": "llama3-8b", "optimizer": {"name": ")";
  const std::string tail = R"("}})";
  const std::string paste =
      head + std::string(trainmem::kMaxJsonTextBytes - head.size() - tail.size(), 'a') + tail;
  for (auto _ : state) benchmark::DoNotOptimize(trainmem::ParseConfig(paste, Presets()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * paste.size()));
}
BENCHMARK(BM_Paste10MiBConfig)->Unit(benchmark::kMillisecond);

// An unknown model id of 10 MiB: its error looks for close preset ids (edit distance).
void BM_Paste10MiBModelId(benchmark::State& state) {
  const std::string head = R"({"model": ")";
  const std::string tail = R"("})";
  const std::string paste =
      head + std::string(trainmem::kMaxJsonTextBytes - head.size() - tail.size(), 'x') + tail;
  for (auto _ : state) benchmark::DoNotOptimize(trainmem::ParseConfig(paste, Presets()));
}
BENCHMARK(BM_Paste10MiBModelId)->Unit(benchmark::kMillisecond);

// 10 MiB of whitespace-padded numbers in a list the config does not know.
void BM_Paste10MiBArray(benchmark::State& state) {
  std::string paste = R"({"model": "llama3-8b", "x": [)";
  while (paste.size() + 8 < trainmem::kMaxJsonTextBytes) paste += "123456,";
  paste += "1]}";
  for (auto _ : state) benchmark::DoNotOptimize(trainmem::ParseConfig(paste, Presets()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * paste.size()));
}
BENCHMARK(BM_Paste10MiBArray)->Unit(benchmark::kMillisecond);

// 1 MiB fragments: many keys (the decoder keeps the first 256), and one huge value.
void BM_Fragment1MiBKeys(benchmark::State& state) {
  std::string fragment = "v1&tp=2&ws=2";
  while (fragment.size() + 5 <= trainmem::kMaxFragmentBytes) fragment += "&b=4";
  for (auto _ : state) benchmark::DoNotOptimize(trainmem::DecodeShareFragment(fragment, Presets()));
}
BENCHMARK(BM_Fragment1MiBKeys)->Unit(benchmark::kMillisecond);

void BM_Fragment1MiBValue(benchmark::State& state) {
  std::string fragment = "v1&model=";
  fragment.append(trainmem::kMaxFragmentBytes - fragment.size(), 'x');
  for (auto _ : state) benchmark::DoNotOptimize(trainmem::DecodeShareFragment(fragment, Presets()));
}
BENCHMARK(BM_Fragment1MiBValue)->Unit(benchmark::kMillisecond);

void BM_Fragment1MiBPercent(benchmark::State& state) {
  std::string fragment = "v1&m.hidden_size=";
  while (fragment.size() + 3 <= trainmem::kMaxFragmentBytes) fragment += "%5B";
  for (auto _ : state) benchmark::DoNotOptimize(trainmem::DecodeShareFragment(fragment, Presets()));
}
BENCHMARK(BM_Fragment1MiBPercent)->Unit(benchmark::kMillisecond);

// Over the limit by one byte, and nested past the depth limit: refused after one scan.
void BM_RefuseOversizedPaste(benchmark::State& state) {
  const std::string paste(trainmem::kMaxJsonTextBytes + 1, ' ');
  for (auto _ : state) benchmark::DoNotOptimize(trainmem::ParseConfig(paste, Presets()));
}
BENCHMARK(BM_RefuseOversizedPaste)->Unit(benchmark::kMillisecond);

void BM_RefuseDeepPaste(benchmark::State& state) {
  const std::string paste(trainmem::kMaxJsonTextBytes, '[');
  for (auto _ : state) benchmark::DoNotOptimize(trainmem::ParseConfig(paste, Presets()));
}
BENCHMARK(BM_RefuseDeepPaste)->Unit(benchmark::kMillisecond);

}  // namespace
