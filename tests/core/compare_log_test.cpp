// Training-log readers. Each log below is written in the format the framework's printing code
// produces (the reader's comments cite it); expected bytes are the printed value × the unit.
#include <string>

#include <gtest/gtest.h>

#include "core/compare/measurement.h"

namespace trainmem::compare {
namespace {

constexpr std::int64_t kGiB = 1LL << 30;
constexpr std::int64_t kMiB = 1LL << 20;

Measurement MustRead(const std::string& text) {
  Result<Measurement> r = ReadMeasurement(text, "test.log");
  if (!r.ok()) {
    ADD_FAILURE() << FormatError(r.errors().front());
    return {};
  }
  return r.value();
}

bool SkippedMentions(const Measurement& m, const std::string& part) {
  for (const Error& e : m.skipped) {
    if (e.message.find(part) != std::string::npos) return true;
  }
  return false;
}

// torchtitan/components/metrics.py: "memory: {max_reserved_gib:5.2f}GiB({pct:.2f}%)", with the
// colour codes of utils.Color around each field (the default: disable_color_printing = False).
TEST(CompareLogTest, TorchtitanStepLinesGiveMaxReservedInGiB) {
  const std::string log =
      "[rank0]:[titan] 2025-06-01 10:00:05,282 - root - INFO - CUDA memory usage for model: "
      "3.87GiB(4.89%)\n"
      "[rank0]:[titan] 2025-06-01 10:00:20,105 - root - INFO - \x1b[31mstep:  1  \x1b[32mloss: "
      "12.2451  \x1b[33mgrad_norm:  4.1234  \x1b[36mmemory: 61.07GiB(77.20%)  \x1b[34mtps: 1,024  "
      "\x1b[36mtflops: 59.30  \x1b[35mmfu: 6.00%\x1b[39m\n"
      "[rank0]:[titan] 2025-06-01 10:00:30,105 - root - INFO - step: 10  loss:  9.4939  "
      "grad_norm: 18.2500  memory: 72.82GiB(91.97%)  tps: 55,314  tflops: 412.06  mfu: 41.66%\n"
      "[rank0]:[titan] 2025-06-01 10:00:40,105 - root - INFO - validate step: 10  loss:  9.5000  "
      "memory: 70.00GiB(88.40%)  tps: 60,000\n";
  const Measurement m = MustRead(log);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 78189879624);  // 72.82 GiB × 2^30, rounded to the byte
  EXPECT_EQ(reserved->rank, 0);             // torchrun's "[rank0]:" prefix
  EXPECT_EQ(reserved->line, 3);
  EXPECT_FALSE(reserved->at_init);
  EXPECT_EQ(reserved->rounding, kGiB / 200);  // printed to 0.01 GiB
  // The model-init line is kept apart: it is not the training peak.
  bool init_seen = false;
  for (const Peak& p : m.peaks) {
    if (p.at_init) {
      init_seen = true;
      EXPECT_EQ(p.bytes, 4155380859);  // 3.87 × 2^30 = 4155380858.88
    }
  }
  EXPECT_TRUE(init_seen);
  EXPECT_EQ(m.formats, std::vector<std::string>{"torchtitan"});
  EXPECT_EQ(m.skipped_count, 0);
}

// torchtitan-npu runs the same MetricsProcessor on torch_npu: "NPU memory usage for model".
TEST(CompareLogTest, TorchtitanNpuLinesAndVisibleEscapes) {
  const std::string log =
      "[titan] 2026-01-09 19:01:15,282 - root - INFO - NPU memory usage for model: "
      "12.50GiB(20.50%)\n"
      "[titan] 2026-01-09 19:02:58,105 - root - INFO - \xE2\x90\x9B[31mstep:  5  loss:  7.1  "
      "memory: 48.00GiB(78.73%)  tps: 1,200\xE2\x90\x9B[39m\n";
  const Measurement m = MustRead(log);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 48 * kGiB);
  EXPECT_EQ(reserved->rank, -1);  // no launcher prefix: the rank is unknown
}

// megatron/training/utils.py report_memory: MB = 1024 × 1024 bytes, two decimals, one line per
// model-parallel rank (data-parallel rank 0 prints).
TEST(CompareLogTest, MegatronKeepsEveryRankAndTheLargest) {
  const std::string log =
      " iteration        1/      50 | consumed samples:            8 | lm loss: 1.0E+01 |\n"
      "[Rank 0] (after 1 iterations) memory (MB) | allocated: 20480.50 | max allocated: "
      "40960.25 | reserved: 43008.00 | max reserved: 45056.00\n"
      "[Rank 2] (after 1 iterations) memory (MB) | allocated: 20480.50 | max allocated: "
      "51200.75 | reserved: 47104.00 | max reserved: 48128.50\n"
      "[Rank 1] (after 1 iterations) memory (MB) | allocated: 20000.00 | max allocated: "
      "45000.00 | reserved: 46000.00 | max reserved: 47000.00 | total device memory used: "
      "49000.00\n";
  const Measurement m = MustRead(log);
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, 53687877632);  // 51200.75 MiB × 2^20
  EXPECT_EQ(max_allocated->rank, 2);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 50466390016);  // rank 2's max reserved 48128.50 MiB
  int ranks_with_max_allocated = 0;
  for (const Peak& p : m.peaks) ranks_with_max_allocated += p.metric == Metric::kMaxAllocated;
  EXPECT_EQ(ranks_with_max_allocated, 3);
  const Peak* device = LargestPeak(m, Metric::kDeviceUsed);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->bytes, 49000 * kMiB);
  EXPECT_EQ(m.formats, std::vector<std::string>{"megatron"});
}

// deepspeed/runtime/utils.py see_memory_usage: "GB" is 1024**3 bytes; Max_CA is round()ed to
// a whole GiB, so the current CA (two decimals) can exceed it.
TEST(CompareLogTest, DeepSpeedGigabytesAreBinary) {
  const std::string log =
      "[2024-05-01 12:00:00,100] [INFO] [utils.py:791:see_memory_usage] After forward\n"
      "[2024-05-01 12:00:00,123] [INFO] [utils.py:792:see_memory_usage] MA 14.96 GB         "
      "Max_MA 30.12 GB         CA 31.4 GB         Max_CA 31 GB \n"
      "[2024-05-01 12:00:00,124] [INFO] [utils.py:799:see_memory_usage] CPU Virtual Memory:  "
      "used = 101.2 GB, percent = 20.1%\n";
  const Measurement m = MustRead(log);
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, 32341103739);  // 30.12 × 2^30 = 32341103738.88
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 33715493274);  // CA 31.4 GiB > Max_CA 31 (rounded) GiB
  const Peak* allocated = LargestPeak(m, Metric::kAllocated);
  ASSERT_NE(allocated, nullptr);
  EXPECT_EQ(allocated->bytes, 16063177687);  // 14.96 × 2^30 = 16063177687.04
}

// torch/cuda/memory.py memory_summary(): the peak column, units chosen per row by _format_size.
TEST(CompareLogTest, MemorySummaryTableReadsThePeakColumn) {
  const std::string log =
      "|===========================================================================|\n"
      "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
      "|---------------------------------------------------------------------------|\n"
      "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"
      "|===========================================================================|\n"
      "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
      "|---------------------------------------------------------------------------|\n"
      "| Allocated memory      |  10240 MiB |  61440 MiB |   1234 GiB |   1224 GiB |\n"
      "|       from large pool |  10000 MiB |  61000 MiB |   1200 GiB |   1190 GiB |\n"
      "|       from small pool |    240 MiB |    440 MiB |     34 GiB |     34 GiB |\n"
      "|---------------------------------------------------------------------------|\n"
      "| Active memory         |  10240 MiB |  61952 MiB |   1234 GiB |   1224 GiB |\n"
      "|---------------------------------------------------------------------------|\n"
      "| Requested memory      |  10200 MiB |  61000 MiB |   1230 GiB |   1220 GiB |\n"
      "|---------------------------------------------------------------------------|\n"
      "| GPU reserved memory   |  63488 MiB |  65536 MiB |  65536 MiB |   2048 MiB |\n"
      "|---------------------------------------------------------------------------|\n"
      "| Non-releasable memory |   1024 MiB |   4096 MiB |    900 GiB |    899 GiB |\n";
  const Measurement m = MustRead(log);
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, 61440 * kMiB);  // not the "from large pool" row
  EXPECT_EQ(max_allocated->rounding, kMiB);       // floor-divided to whole MiB
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 64 * kGiB);  // 65536 MiB
  const Peak* active = LargestPeak(m, Metric::kActive);
  ASSERT_NE(active, nullptr);
  EXPECT_EQ(active->bytes, 61952 * kMiB);
}

TEST(CompareLogTest, NvidiaSmiTableIsDeviceUsedInMiB) {
  const std::string log =
      "+---------------------------------------------------------------------------------------+\n"
      "| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
      "|-----------------------------------------+----------------------+----------------------+\n"
      "| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
      "| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |\n"
      "|=========================================+======================+======================|\n"
      "|   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |\n"
      "| N/A   34C    P0             118W / 700W |  78543MiB / 81559MiB |     97%      Default |\n"
      "+-----------------------------------------+----------------------+----------------------+\n"
      "|   1  NVIDIA H100 80GB HBM3          On  | 00000000:2A:00.0 Off |                    0 |\n"
      "| N/A   36C    P0             121W / 700W |  80011MiB / 81559MiB |     98%      Default |\n"
      "+-----------------------------------------+----------------------+----------------------+\n"
      "|    0   N/A  N/A    123456      C   /usr/bin/python                         78530MiB |\n";
  const Measurement m = MustRead(log);
  const Peak* used = LargestPeak(m, Metric::kDeviceUsed);
  ASSERT_NE(used, nullptr);
  EXPECT_EQ(used->bytes, 80011 * kMiB);
  EXPECT_NE(used->source.find("GPU 1"), std::string::npos) << used->source;
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes.front().find("runtime context"), std::string::npos);
}

TEST(CompareLogTest, NvidiaSmiCsvQuery) {
  const std::string log =
      "index, name, memory.used [MiB], memory.total [MiB]\n"
      "0, NVIDIA A100-SXM4-80GB, 70000 MiB, 81920 MiB\n"
      "1, NVIDIA A100-SXM4-80GB, 71234 MiB, 81920 MiB\n";
  const Measurement m = MustRead(log);
  const Peak* used = LargestPeak(m, Metric::kDeviceUsed);
  ASSERT_NE(used, nullptr);
  EXPECT_EQ(used->bytes, 74694262784);  // 71234 MiB
}

// npu-smi info: the chip row's last "used / total" pair is HBM, in MB = MiB (65536 on 64 GB).
TEST(CompareLogTest, NpuSmiHbmUsage) {
  const std::string log =
      "+-------------------------------------------------------------------------------------------"
      "-----+\n"
      "| npu-smi 23.0.rc3                 Version: 23.0.rc3                                        "
      "     |\n"
      "+---------------------------+---------------+-----------------------------------------------"
      "-----+\n"
      "| NPU   Name                | Health        | Power(W)    Temp(C)           "
      "Hugepages-Usage(page)|\n"
      "| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)   "
      "     |\n"
      "+===========================+===============+==============================================="
      "=====+\n"
      "| 0     910B3               | OK            | 93.6        40                0    / 0        "
      "     |\n"
      "| 0                         | 0000:C1:00.0  | 0           0    / 0          3161 / 65536    "
      "     |\n"
      "+===========================+===============+==============================================="
      "=====+\n"
      "| 1     910B3               | OK            | 95.1        41                0    / 0        "
      "     |\n"
      "| 0                         | 0000:C2:00.0  | 87          0    / 0          58215/ 65536    "
      "     |\n"
      "+===========================+===============+==============================================="
      "=====+\n";
  const Measurement m = MustRead(log);
  const Peak* used = LargestPeak(m, Metric::kDeviceUsed);
  ASSERT_NE(used, nullptr);
  EXPECT_EQ(used->bytes, 61042851840);  // 58215 MiB
  EXPECT_NE(used->source.find("NPU 1"), std::string::npos) << used->source;
}

TEST(CompareLogTest, NegativeNanAndCutLinesAreSkippedAndReported) {
  const std::string log =
      "step: 1  loss: 9.0  memory: -5.00GiB(1.00%)  tps: 10\n"
      "step: 2  loss: 9.0  memory: nanGiB(nan%)  tps: 10\n"
      "step: 3  loss: 9.0  memory: 40.00GiB(50.00%)  tps: 10\n"
      "step: 4  loss: 9.0  memory: 41.5\n"
      "[Rank 0] (after 1 iterations) memory (MB) | allocated: 100.00 | max allocated: -1.00 | "
      "reserved: 200.00 | max reserved: inf\n"
      "[Rank 1] (after 1 iterations) memory (MB) | allocated: 100.00 | max allocated: 3000.00 | "
      "reserved: 31\n";
  const Measurement m = MustRead(log);
  EXPECT_TRUE(SkippedMentions(m, "negative"));
  EXPECT_TRUE(SkippedMentions(m, "not a number"));
  EXPECT_TRUE(SkippedMentions(m, "cut short"));
  EXPECT_TRUE(SkippedMentions(m, "two decimals"));  // "reserved: 31" lost its decimals
  EXPECT_EQ(m.skipped.front().path, "line 1");
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  // 40 GiB from step 3; rank 0's "reserved: 200.00" MiB is another rank's figure.
  EXPECT_EQ(reserved->bytes, 40 * kGiB);
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, 3000 * kMiB);
  EXPECT_EQ(max_allocated->rank, 1);
}

TEST(CompareLogTest, TextWithoutFiguresIsAClearError) {
  Result<Measurement> r = ReadMeasurement("hello\nworld\n", "notes.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors().front().path, "notes.txt");
  EXPECT_NE(r.errors().front().message.find("no memory figure found"), std::string::npos);
  EXPECT_FALSE(ReadMeasurement("", "empty.log").ok());
  Result<Measurement> gz = ReadMeasurement(std::string("\x1f\x8b\x08\x00", 4), "t.json.gz");
  ASSERT_FALSE(gz.ok());
  EXPECT_NE(gz.errors().front().message.find("gunzip"), std::string::npos);
}

// A 50 MB log: one pass, the peak found at its line, and the result holds one peak per
// (metric, rank) however many lines there are (the time it takes is in compare_bench).
TEST(CompareLogTest, FiftyMegabyteLogKeepsOnlyPeaks) {
  std::string log;
  log.reserve(52u << 20);
  const std::string head = "[rank3]:[titan] 2025-06-01 10:00:30,105 - root - INFO - step: ";
  std::int64_t lines = 0;
  while (log.size() < (50u << 20)) {
    ++lines;
    const bool peak = lines == 200000;
    log += head + std::to_string(lines) +
           "  loss:  9.4939  grad_norm: 18.2500  memory: " + (peak ? "79.99" : "70.00") +
           "GiB(91.97%)  tps: 55,314  tflops: 412.06  mfu: 41.66%\n";
  }
  const Measurement m = MustRead(log);
  ASSERT_EQ(m.peaks.size(), 1u);
  EXPECT_EQ(m.peaks[0].bytes, 85888608502);  // 79.99 × 2^30 = 85888608501.76
  EXPECT_EQ(m.peaks[0].line, 200000);
  EXPECT_EQ(m.peaks[0].rank, 3);
  EXPECT_EQ(m.lines_read, lines);
  EXPECT_EQ(m.lines_used, lines);
}

TEST(CompareLogTest, MergeKeepsTheLargestPerRank) {
  const Measurement a = MustRead("step: 1 loss: 1 memory: 10.00GiB(1%)\n");
  const Measurement b = MustRead("step: 9 loss: 1 memory: 12.00GiB(1%)\n");
  const Measurement merged = MergeMeasurements({a, b});
  ASSERT_EQ(merged.peaks.size(), 1u);
  EXPECT_EQ(merged.peaks[0].bytes, 12 * kGiB);
}

TEST(CompareLogTest, ParseByteSizeUnits) {
  std::int64_t bytes = 0;
  ASSERT_TRUE(ParseByteSize("84.5GiB", bytes));
  EXPECT_EQ(bytes, 90731184128);  // 84.5 × 2^30
  ASSERT_TRUE(ParseByteSize("512 MiB", bytes));
  EXPECT_EQ(bytes, 512 * kMiB);
  ASSERT_TRUE(ParseByteSize("2GB", bytes));
  EXPECT_EQ(bytes, 2000000000);
  EXPECT_FALSE(ParseByteSize("-1GiB", bytes));
  EXPECT_FALSE(ParseByteSize("nanGiB", bytes));
  EXPECT_FALSE(ParseByteSize("12 parsecs", bytes));
}

}  // namespace
}  // namespace trainmem::compare
