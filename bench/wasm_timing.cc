// Timing run of the core as the page runs it: compiled with Emscripten, executed by node.
// Prints milliseconds per call (best and median of repeated runs) for one full estimate with
// advice, the layout search at 8, 64, 1024 and 8192 devices, and a 64 × 64 heatmap.
//
//   cmake --build --preset web-release --target trainmem_wasm_timing
//   node build/web-release/trainmem_wasm_timing.js
//
// (Native figures come from trainmem_bench, Google Benchmark.) Not a test: it asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "core/advice/advice.h"
#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/search/search.h"
#include "data/builtin_presets.h"

namespace {

using Clock = std::chrono::steady_clock;

void Time(const char* name, int repeats, const std::function<std::size_t()>& run) {
  std::vector<double> ms;
  std::size_t sink = 0;
  for (int i = 0; i < repeats; ++i) {
    auto start = Clock::now();
    sink += run();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  fmt::print("{:<44} best {:9.3f} ms   median {:9.3f} ms   ({} runs, {})\n", name, ms.front(),
             ms[ms.size() / 2], repeats, sink / static_cast<std::size_t>(repeats));
}

trainmem::Config Parse(const trainmem::Presets& presets, const std::string& text) {
  auto r = trainmem::ParseConfig(text, presets);
  if (!r.ok()) {
    fmt::print(stderr, "bad config: {}\n", trainmem::FormatError(r.errors().front()));
    std::exit(2);
  }
  return r.value();
}

}  // namespace

int main() {
  const trainmem::Presets presets = trainmem::BuiltinPresets();
  const trainmem::Config seed = Parse(presets, R"({"model": "llama3-8b", "device": "ascend-910b",
      "framework": "torchtitan-npu", "world_size": 8, "training": {"local_batch_size": 2,
      "seq_len": 2048}, "optimizer": {"swap_optimizer": true}})");
  Time("estimate (seed example)", 200, [&] {
    return static_cast<std::size_t>(trainmem::EstimateMemory(seed).per_device.total > 0);
  });
  const trainmem::Config over = Parse(presets, R"({"model": "llama3-70b", "device": "h100-80gb",
      "world_size": 16, "training": {"local_batch_size": 2, "seq_len": 8192},
      "activation_checkpoint": {"mode": "none"}})");
  Time("estimate + advice (70B, does not fit)", 20,
       [&] { return trainmem::EstimateWithAdvice(over).recommendations.size(); });
  for (int world : {8, 64, 1024, 8192}) {
    const trainmem::Config base =
        Parse(presets, R"({"model": "llama3-70b", "device": "h100-80gb", "world_size": )" +
                           std::to_string(world) +
                           R"(, "training": {"local_batch_size": 1, "seq_len": 8192}})");
    Time(("search llama3-70b, " + std::to_string(world) + " devices").c_str(),
         world >= 1024 ? 5 : 20, [&] { return trainmem::SearchLayouts(base, {}).layouts.size(); });
  }
  const trainmem::Config moe =
      Parse(presets, R"({"model": "deepseek-v3", "device": "h100-80gb", "world_size": 1024,
      "training": {"local_batch_size": 1, "seq_len": 4096}})");
  Time("search deepseek-v3, 1024 devices", 5,
       [&] { return trainmem::SearchLayouts(moe, {}).layouts.size(); });
  trainmem::HeatmapAxis x{"b", {}}, y{"s", {}};
  for (int i = 1; i <= 64; ++i) x.values.push_back(i);
  for (int i = 1; i <= 64; ++i) y.values.push_back(512 * i);
  Time("heatmap 64 x 64 (b x s, seed example)", 10,
       [&] { return trainmem::ComputeHeatmap(seed, x, y).cells.size(); });
  return 0;
}
