// Layout search and heatmap timings (issue #5). Targets, in the browser: a 1024-device search
// under 50 ms, a 64 × 64 heatmap under 16 ms (one frame). The same cases run as WASM through
// bench/wasm_timing.cc.
//
//   trainmem_bench --benchmark_filter='Search|Heatmap|Estimate'
//
// Counters: `valid` candidates (layout × AC × optimizer placement), `evaluated` = EstimateMemory
// calls, `fit` = layouts returned. "full" returns every fitting layout; "top20" is what the
// page's table shows (the search stops estimating once the 20 cheapest are known).
#include <string>

#include <benchmark/benchmark.h>

#include "core/advice/advice.h"
#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/search/search.h"
#include "data/builtin_presets.h"

namespace {

using trainmem::Config;

const trainmem::Presets& Presets() {
  static const trainmem::Presets presets = trainmem::BuiltinPresets();
  return presets;
}

Config Job(const std::string& model, std::int64_t world) {
  const std::string text = R"({"model": ")" + model +
                           R"(", "device": "h100-80gb", "world_size": )" + std::to_string(world) +
                           "}";
  trainmem::Result<Config> r = trainmem::ParseConfig(text, Presets());
  return r.ok() ? r.value() : Config{};
}

void RunSearch(benchmark::State& state, const std::string& model, std::size_t limit) {
  const Config base = Job(model, state.range(0));
  trainmem::SearchOptions options;
  options.limit = limit;
  trainmem::SearchResult r;
  for (auto _ : state) {
    r = trainmem::SearchLayouts(base, options);
    benchmark::DoNotOptimize(r.layouts.data());
  }
  state.counters["valid"] = static_cast<double>(r.valid);
  state.counters["evaluated"] = static_cast<double>(r.evaluated);
  state.counters["fit"] = static_cast<double>(r.layouts.size());
}

void BM_SearchLlama70bFull(benchmark::State& s) { RunSearch(s, "llama3-70b", 0); }
void BM_SearchLlama70bTop20(benchmark::State& s) { RunSearch(s, "llama3-70b", 20); }
void BM_SearchDeepseekV3Full(benchmark::State& s) { RunSearch(s, "deepseek-v3", 0); }
void BM_SearchDeepseekV3Top20(benchmark::State& s) { RunSearch(s, "deepseek-v3", 20); }

BENCHMARK(BM_SearchLlama70bFull)
    ->Arg(8)
    ->Arg(64)
    ->Arg(1024)
    ->Arg(8192)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchLlama70bTop20)
    ->Arg(8)
    ->Arg(64)
    ->Arg(1024)
    ->Arg(8192)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchDeepseekV3Full)
    ->Arg(8)
    ->Arg(64)
    ->Arg(1024)
    ->Arg(8192)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchDeepseekV3Top20)
    ->Arg(8)
    ->Arg(64)
    ->Arg(1024)
    ->Arg(8192)
    ->Unit(benchmark::kMillisecond);

// 64 × 64: local_batch_size 1..64 × seq_len 512..32768.
void BM_HeatmapBatchBySeq64(benchmark::State& state) {
  const Config base = Job(state.range(0) == 0 ? "llama3-70b" : "deepseek-v3", 1024);
  trainmem::HeatmapAxis x{"b", {}}, y{"s", {}};
  for (std::int64_t i = 1; i <= 64; ++i) {
    x.values.push_back(i);
    y.values.push_back(512 * i);
  }
  for (auto _ : state) {
    trainmem::Heatmap map = trainmem::ComputeHeatmap(base, x, y);
    benchmark::DoNotOptimize(map.cells.data());
  }
  state.SetLabel(state.range(0) == 0 ? "llama3-70b" : "deepseek-v3");
}
BENCHMARK(BM_HeatmapBatchBySeq64)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The unit of work both are made of: one EstimateMemory (tp 8, pp 4, 1024 devices).
void BM_EstimateMemory(benchmark::State& state) {
  Config base = Job(state.range(0) == 0 ? "llama3-70b" : "deepseek-v3", 1024);
  base.parallelism.tp = 8;
  base.parallelism.pp = 4;
  for (auto _ : state) benchmark::DoNotOptimize(trainmem::EstimateMemory(base).per_device.total);
  state.SetLabel(state.range(0) == 0 ? "llama3-70b" : "deepseek-v3");
}
BENCHMARK(BM_EstimateMemory)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// What the page runs after every edit of a config that does not fit: the estimate, the advice
// ladder and the cheapest combination (thousands of estimates over AC × optimizer × TP × PP × EP
// × CP × batch), and the device count when nothing fits clear. 16 devices, batch 2 × 8192.
void BM_EstimateWithAdvice(benchmark::State& state) {
  Config base = Job(state.range(0) == 0 ? "llama3-70b" : "deepseek-v3", 16);
  base.training.local_batch_size = 2;
  base.training.seq_len = 8192;
  for (auto _ : state)
    benchmark::DoNotOptimize(trainmem::EstimateWithAdvice(base).recommendations.size());
  state.SetLabel(state.range(0) == 0 ? "llama3-70b" : "deepseek-v3");
}
BENCHMARK(BM_EstimateWithAdvice)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
