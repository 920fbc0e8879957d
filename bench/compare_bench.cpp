// Reading measurements (issue #11): a 50 MB training log in one pass, a Megatron log with a
// line per rank, and an allocator snapshot pickle. Bytes per second is the figure to watch:
// the page reads a dropped log on the main thread.
//
//   trainmem_bench --benchmark_filter='Read'
#include <string>

#include <benchmark/benchmark.h>

#include "core/compare/measurement.h"

namespace {

std::string TorchtitanLog(std::size_t bytes) {
  std::string log;
  log.reserve(bytes + 256);
  for (long step = 1; log.size() < bytes; ++step) {
    log += "[rank0]:[titan] 2025-06-01 10:00:30,105 - root - INFO - step: " + std::to_string(step) +
           "  loss:  9.4939  grad_norm: 18.2500  memory: 72.82GiB(91.97%)  tps: 55,314  "
           "tflops: 412.06  mfu: 41.66%\n";
    log +=
        "[rank0]:[titan] 2025-06-01 10:00:30,106 - root - INFO - [GC] Peforming periodic GC "
        "collection took 0.02 seconds\n";
  }
  return log;
}

std::string MegatronLog(std::size_t bytes) {
  std::string log;
  log.reserve(bytes + 256);
  for (long i = 0; log.size() < bytes; ++i) {
    log += " iteration " + std::to_string(i) +
           "/  500000 | consumed samples: 1024 | elapsed time per iteration (ms): 9123.4 | lm "
           "loss: 1.089741E+01 |\n";
    log += "[Rank " + std::to_string(i % 64) +
           "] (after 1 iterations) memory (MB) | allocated: 11436.27 | max allocated: 40211.52 | "
           "reserved: 43808.00 | max reserved: 43808.00\n";
  }
  return log;
}

void BM_ReadTorchtitanLog50MB(benchmark::State& state) {
  const std::string log = TorchtitanLog(50u << 20);
  for (auto _ : state) {
    auto m = trainmem::compare::ReadMeasurement(log);
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.size()));
}
BENCHMARK(BM_ReadTorchtitanLog50MB)->Unit(benchmark::kMillisecond);

void BM_ReadMegatronLog50MB(benchmark::State& state) {
  const std::string log = MegatronLog(50u << 20);
  for (auto _ : state) {
    auto m = trainmem::compare::ReadMeasurement(log);
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.size()));
}
BENCHMARK(BM_ReadMegatronLog50MB)->Unit(benchmark::kMillisecond);

}  // namespace
