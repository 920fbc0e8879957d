// Training-log readers. Each log below is written in the format the framework's printing code
// produces (the reader's comments cite it); expected bytes are the printed value × the unit.
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "core/compare/measurement.h"

namespace trainmem::compare {
namespace {

constexpr std::int64_t kGiB = 1LL << 30;
constexpr std::int64_t kMiB = 1LL << 20;
constexpr std::int64_t kKiB = 1LL << 10;

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
  EXPECT_TRUE(SkippedMentions(m, "no decimal point"));  // "reserved: 31" lost its decimals
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

// Megatron before January 2026 printed '{}'.format(bytes / 2**20): Python's float repr, any
// number of decimals and an exponent for tiny figures. torchrun's "[rank3]:" tag comes before
// Megatron's own "[Rank 3]". The theoretical-memory line is an estimate, not a measurement.
TEST(CompareLogTest, MegatronOlderReprFiguresAndExponents) {
  const std::string log =
      "[rank0]:Theoretical memory footprints: weight and optimizer=4016.54 MB, "
      "activation=2050.25 MB, total=6066.79 MB\n"
      "[rank3]:[Rank 3] (after 10 iterations) memory (MB) | allocated: 3381.9326171875 | max "
      "allocated: 5607.19287109375 | reserved: 6166.0 | max reserved: 6166.0\n"
      "[rank3]:[Rank 3] (after 20 iterations) memory (MB) | allocated: 4.76837158203125e-05 | "
      "max allocated: 5000.0 | reserved: 6500.5 | max reserved: 6500.5\n";
  const Measurement m = MustRead(log);
  EXPECT_EQ(m.skipped_count, 0);
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, 5879567872);  // 5607.19287109375 × 2^20, exact
  EXPECT_EQ(max_allocated->rank, 3);
  EXPECT_EQ(max_allocated->line, 2);
  EXPECT_EQ(max_allocated->rounding, 0);  // 11 decimals of a MiB: below a byte
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 6816268288);    // 6500.5 × 2^20
  EXPECT_EQ(reserved->rounding, kMiB / 20);  // one decimal: ±0.05 MiB
  // 'reserved' and 'max reserved' print the same figure: the peak is named by the peak.
  EXPECT_NE(reserved->source.find("max reserved"), std::string::npos) << reserved->source;
  const Peak* allocated = LargestPeak(m, Metric::kAllocated);
  ASSERT_NE(allocated, nullptr);
  // What stays allocated between steps is the latest figure (iteration 20's), not the
  // largest: 4.76837158203125e-05 MiB = 50 bytes, read with its exponent (without it, 4.77 MiB).
  EXPECT_EQ(allocated->bytes, 50);
  EXPECT_EQ(allocated->line, 3);
  EXPECT_EQ(m.formats, std::vector<std::string>{"megatron"});
  // The exponent itself: a line holding only the tiny figure.
  const Measurement tiny = MustRead(
      "[Rank 0] (after 1 iterations) memory (MB) | allocated: 4.76837158203125e-05 | max "
      "allocated: 1.0 | reserved: 2.0 | max reserved: 2.0\n");
  const Peak* tiny_allocated = LargestPeak(tiny, Metric::kAllocated);
  ASSERT_NE(tiny_allocated, nullptr);
  EXPECT_EQ(tiny_allocated->bytes, 50);
}

// Ranks print concurrently, so two reports can share a line when one rank's newline lands
// after the other's text; each report keeps its own rank.
TEST(CompareLogTest, MegatronReportsSharingOneLine) {
  const std::string log =
      "[Rank 4] (after 1 iterations) memory (MB) | allocated: 18598.7529296875 | max "
      "allocated: 20931.01220703125 | reserved: 21534.0 | max reserved: 21534.0[Rank 0] (after "
      "1 iterations) memory (MB) | allocated: 20034.7529296875 | max allocated: 30227.5 | "
      "reserved: 31000.0 | max reserved: 31000.0\n";
  const Measurement m = MustRead(log);
  EXPECT_EQ(m.skipped_count, 0);
  std::map<int, std::int64_t> max_allocated;
  for (const Peak& p : m.peaks) {
    if (p.metric == Metric::kMaxAllocated) max_allocated[p.rank] = p.bytes;
  }
  ASSERT_EQ(max_allocated.size(), 2u);
  EXPECT_EQ(max_allocated[4], 21947757056);  // 20931.01220703125 × 2^20, exact
  EXPECT_EQ(max_allocated[0], 31695831040);  // 30227.5 × 2^20
}

// mindspeed_llm/fsdp2/utils/train_monitor.py: "max_memory_allocated(GB): {:.2f} |
// max_memory_reserved(GB): {:.2f} |", bytes / 1024**3, the maximum over ranks.
TEST(CompareLogTest, MindSpeedFsdp2IterationLineIsGiB) {
  const std::string log =
      "INFO [2026-06-22 19:25:37] >>  iteration        1/    2000 | consumed samples:          "
      "8 | consumed tokens:        564 | elapsed time per iteration (ms): 7827.39 | learning "
      "rate: 1.666667E-07 | global batch size:     8 | lm loss: 3.316887E+00 | mtp loss: "
      "0.000000E+00 | grad norm: 70.959 | max_memory_allocated(GB): 19.07 | "
      "max_memory_reserved(GB): 20.90 |\n"
      "INFO [2026-06-22 19:25:38] >>  iteration        2/    2000 | consumed samples:         "
      "16 | consumed tokens:       1357 | elapsed time per iteration (ms): 1331.74 | learning "
      "rate: 3.333333E-07 | global batch size:     8 | lm loss: 2.443476E+00 | mtp loss: "
      "0.000000E+00 | grad norm: 41.986 | max_memory_allocated(GB): 19.65 | "
      "max_memory_reserved(GB): 22.43 | cpu_used_memory(GB): 120.50 | "
      "cpu_available_memory(GB): 800.00 | cpu_memory_usage(%): 13.1 |\n";
  const Measurement m = MustRead(log);
  EXPECT_EQ(m.skipped_count, 0);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 24084029112);  // 22.43 × 2^30 = 24084029112.32
  EXPECT_EQ(reserved->line, 2);
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, 21099026842);  // 19.65 × 2^30 = 21099026841.6
  EXPECT_EQ(max_allocated->rounding, kGiB / 200);
  EXPECT_EQ(m.formats, std::vector<std::string>{"mindspeed-llm"});
}

// DeepSpeed's see_memory_usage prints with print() (no logger prefix; the f-string's line
// continuations leave runs of spaces), and memory_status prints "RANK=n MEMSTATS …" with four
// decimals and signed deltas. The CPU line is host memory and is not read.
TEST(CompareLogTest, DeepSpeedPrintVariantsAndMemStats) {
  const std::string log =
      "[rank0]:Before initializing optimizer states\n"
      "[rank0]:MA 1.5 GB         Max_MA 3.5 GB         CA 4.25 GB         Max_CA 4 GB \n"
      "[rank0]:CPU Virtual Memory:  used = 301.52 GB, percent = 15.2%\n"
      "RANK=1 MEMSTATS after backward device=cuda:1 current alloc=2.0312GB (delta=-0.5000GB "
      "max=3.2500GB) current cache=4.0000GB (delta=0.0000GB max=4.5000GB)\n";
  const Measurement m = MustRead(log);
  EXPECT_EQ(m.skipped_count, 0);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 4831838208);  // MEMSTATS cache max 4.5 GiB on rank 1
  EXPECT_EQ(reserved->rank, 1);
  bool rank0_reserved = false;
  for (const Peak& p : m.peaks) {
    if (p.metric == Metric::kReserved && p.rank == 0) {
      rank0_reserved = true;
      EXPECT_EQ(p.bytes, 4563402752);  // CA 4.25 GiB beats Max_CA 4 (whole GiB)
    }
    EXPECT_LT(p.bytes, 100 * kGiB) << p.source;  // not the CPU's 301.52 GB
  }
  EXPECT_TRUE(rank0_reserved);
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, 3758096384);  // Max_MA 3.5 GiB > MEMSTATS max 3.25 GiB
  EXPECT_EQ(max_allocated->rank, 0);
  EXPECT_EQ(m.formats, std::vector<std::string>{"deepspeed"});
}

// memory_summary() printed under torchrun: every row carries "[rank1]:". _format_size picks
// the unit from the row's "all" figure (the B unit is "B  "); the peak column is read.
TEST(CompareLogTest, MemorySummaryUnderLauncherPrefixAndSmallUnits) {
  const std::string log =
      "[rank1]:|===========================================================================|\n"
      "[rank1]:|                  PyTorch CUDA memory summary, device ID 1                 |\n"
      "[rank1]:|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
      "[rank1]:|---------------------------------------------------------------------------|\n"
      "[rank1]:| Allocated memory      |    512 B   | 786431 KiB |   1536 KiB |   1024 KiB |\n"
      "[rank1]:| Active memory         |    512 B   |    700 B   |   1536 KiB |   1024 KiB |\n"
      "[rank1]:| GPU reserved memory   |   2048 KiB |   2048 MiB |   2048 MiB |      0 B   |\n";
  const Measurement m = MustRead(log);
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, 786431 * kKiB);
  EXPECT_EQ(max_allocated->rank, 1);
  EXPECT_EQ(max_allocated->rounding, kKiB);  // floor division: up to one KiB more
  const Peak* active = LargestPeak(m, Metric::kActive);
  ASSERT_NE(active, nullptr);
  EXPECT_EQ(active->bytes, 700);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 2 * kGiB);
  EXPECT_NE(reserved->source.find("device 1"), std::string::npos) << reserved->source;
}

// Drivers before the "NVIDIA " name prefix print "A100-SXM4-80GB"; the bus id marks the GPU
// row. A memory row whose GPU row is missing is not credited to the previous GPU.
TEST(CompareLogTest, NvidiaSmiOlderDriverNamesAndQueryOutput) {
  const std::string log =
      "| NVIDIA-SMI 470.57.02    Driver Version: 470.57.02    CUDA Version: 11.4     |\n"
      "|-------------------------------+----------------------+----------------------+\n"
      "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
      "| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n"
      "|===============================+======================+======================|\n"
      "|   0  A100-SXM4-80GB      On   | 00000000:07:00.0 Off |                    0 |\n"
      "| N/A   33C    P0    64W / 400W |  70123MiB / 81251MiB |      0%      Default |\n"
      "|                               |                      |             Disabled |\n"
      "+-------------------------------+----------------------+----------------------+\n"
      "| N/A   35C    P0    66W / 400W |  75000MiB / 81251MiB |      0%      Default |\n";
  const Measurement m = MustRead(log);
  ASSERT_EQ(m.peaks.size(), 1u);
  EXPECT_EQ(m.peaks[0].bytes, 75000 * kMiB);
  EXPECT_EQ(m.peaks[0].source.find("GPU 0"), std::string::npos) << m.peaks[0].source;
  const Measurement first = MustRead(log.substr(0, log.rfind("| N/A   35C")));
  ASSERT_EQ(first.peaks.size(), 1u);
  EXPECT_EQ(first.peaks[0].bytes, 70123 * kMiB);
  EXPECT_NE(first.peaks[0].source.find("GPU 0"), std::string::npos) << first.peaks[0].source;

  // nvidia-smi -q: the FB section's Used, not BAR1's.
  const std::string query =
      "GPU 00000000:18:00.0\n"
      "    Product Name                          : NVIDIA H100 80GB HBM3\n"
      "    FB Memory Usage\n"
      "        Total                             : 81559 MiB\n"
      "        Reserved                          : 579 MiB\n"
      "        Used                              : 78543 MiB\n"
      "        Free                              : 2436 MiB\n"
      "    BAR1 Memory Usage\n"
      "        Total                             : 131072 MiB\n"
      "        Used                              : 99999 MiB\n"
      "        Free                              : 31073 MiB\n";
  const Measurement q = MustRead(query);
  ASSERT_EQ(q.peaks.size(), 1u);
  EXPECT_EQ(q.peaks[0].metric, Metric::kDeviceUsed);
  EXPECT_EQ(q.peaks[0].bytes, 78543 * kMiB);
}

// MIG: the instance rows hold the instance's memory; the row under each (empty first cell)
// is BAR1-Usage, not device memory. nvidia-smi -q -x: <used> inside <fb_memory_usage> only.
TEST(CompareLogTest, NvidiaSmiMigTableAndXml) {
  const std::string mig =
      "| MIG devices:                                                                |\n"
      "+------------------+----------------------+-----------+-----------------------+\n"
      "| GPU  GI  CI  MIG |         Memory-Usage |        Vol|         Shared        |\n"
      "|      ID  ID  Dev |           BAR1-Usage | SM     Unc| CE  ENC  DEC  OFA  JPG|\n"
      "|==================+======================+===========+=======================|\n"
      "|  1    3   0   0  |  14366MiB / 19968MiB | 28      0 |  2   0    1    0    0 |\n"
      "|                  |  16000MiB / 32767MiB |           |                       |\n"
      "+------------------+----------------------+-----------+-----------------------+\n"
      "|  1    5   0   1  |   9826MiB / 19968MiB | 28      0 |  2   0    1    0    0 |\n"
      "|                  |      2MiB / 32767MiB |           |                       |\n";
  const Measurement m = MustRead(mig);
  ASSERT_EQ(m.peaks.size(), 1u);
  EXPECT_EQ(m.peaks[0].bytes, 14366 * kMiB);  // not BAR1's 16000
  EXPECT_NE(m.peaks[0].source.find("MIG"), std::string::npos) << m.peaks[0].source;

  const std::string xml =
      "<gpu id=\"00000000:29:00.0\">\n"
      "\t\t<fb_memory_usage>\n"
      "\t\t\t<total>6064 MiB</total>\n"
      "\t\t\t<used>912 MiB</used>\n"
      "\t\t\t<free>5152 MiB</free>\n"
      "\t\t</fb_memory_usage>\n"
      "\t\t<bar1_memory_usage>\n"
      "\t\t\t<total>8192 MiB</total>\n"
      "\t\t\t<used>5000 MiB</used>\n"
      "\t\t</bar1_memory_usage>\n";
  const Measurement x = MustRead(xml);
  ASSERT_EQ(x.peaks.size(), 1u);
  EXPECT_EQ(x.peaks[0].bytes, 912 * kMiB);
}

// npu-smi on Atlas A3 (910_93): each NPU has two chips, each with its own bus id row.
TEST(CompareLogTest, NpuSmiTwoChipsPerNpu) {
  const std::string log =
      "| NPU   Name                | Health        | Power(W)    Temp(C)           "
      "Hugepages-Usage(page)|\n"
      "| Chip  Phy-ID              | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)   "
      "     |\n"
      "| 0     Ascend910           | OK            | 172.5       38                0    / 0        "
      "     |\n"
      "| 0     0                   | 0000:9D:00.0  | 0           0    / 0          3392 / 65536    "
      "     |\n"
      "| 0     Ascend910           | OK            | -           37                0    / 0        "
      "     |\n"
      "| 1     1                   | 0000:9F:00.0  | 0           0    / 0          61000/ 65536    "
      "     |\n";
  const Measurement m = MustRead(log);
  const Peak* used = LargestPeak(m, Metric::kDeviceUsed);
  ASSERT_NE(used, nullptr);
  EXPECT_EQ(used->bytes, 61000 * kMiB);
  EXPECT_EQ(m.formats, std::vector<std::string>{"npu-smi"});
}

// torchtitan variants: 24-bit colour codes (Color.orange/turquoise), codes whose ESC byte was
// lost in a copy ("[36mmemory: …"), srun --label's "5: " prefix, and "-0.00GiB" — what
// metrics.py prints when memory_stats() lacks reserved_bytes.all.peak (it falls back to -1).
TEST(CompareLogTest, TorchtitanColourCopiesSrunLabelsAndMissingStatistics) {
  const std::string log =
      "5: [titan] 2026-01-09 19:02:58,105 - root - INFO - \x1b[31mstep:  5  \x1b[32mloss:  "
      "7.10000  \x1b[38;2;180;60;0mgrad_norm:  1.0000  \x1b[38;2;54;234;195mmemory: "
      "61.07GiB(77.20%)  \x1b[34mtps: 1,200  \x1b[36mtflops: 1,234.50  \x1b[35mmfu: "
      "40.00%\x1b[39m\n"
      "[titan] 2026-01-09 19:03:58,105 - root - INFO - [31mstep: 10  [32mloss:  7.00000  "
      "[36mmemory: 60.00GiB(75.00%)  [34mtps: 1,200[39m\n"
      "[titan] 2026-01-09 19:04:58,105 - root - INFO - step: 15  loss:  7.00000  grad_norm:  "
      "1.0000  memory: -0.00GiB(-0.00%)  tps: 1,200  tflops: 1.00  mfu: N/A\n";
  const Measurement m = MustRead(log);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 65573413192);  // 61.07 × 2^30 = 65573413191.68
  EXPECT_EQ(reserved->rank, 5);
  bool unranked = false;
  for (const Peak& p : m.peaks) {
    if (p.rank == -1) {
      unranked = true;
      EXPECT_EQ(p.bytes, 60 * kGiB);
    }
  }
  EXPECT_TRUE(unranked);
  EXPECT_EQ(m.skipped_count, 1);
  EXPECT_TRUE(SkippedMentions(m, "reserved_bytes.all.peak"));
}

// MetricsProcessor.log's metric names as W&B's run summary prints them and as
// wandb-summary.json stores them (full float digits): max reserved and max active, in GiB.
TEST(CompareLogTest, TorchtitanMetricNamesFromWandbSummaries) {
  const std::string summary =
      "wandb: Run summary:\n"
      "wandb:          memory/max_active(GiB) 55.21\n"
      "wandb:            memory/max_active(%) 69.8\n"
      "wandb:        memory/max_reserved(GiB) 61.07\n"
      "wandb:         memory/num_alloc_retries 0\n";
  const Measurement m = MustRead(summary);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 65573413192);  // 61.07 × 2^30 = 65573413191.68
  const Peak* active = LargestPeak(m, Metric::kActive);
  ASSERT_NE(active, nullptr);
  EXPECT_EQ(active->bytes, 59281286103);  // 55.21 × 2^30 = 59281286103.04
  EXPECT_EQ(m.skipped_count, 0);

  const Measurement json = MustRead(
      "{\"loss_metrics/global_avg_loss\": 7.1, \"memory/max_active(GiB)\": 55.2109375, "
      "\"memory/max_reserved(GiB)\": 61.0703125, \"memory/max_reserved(%)\": 77.2}");
  const Peak* json_reserved = LargestPeak(json, Metric::kReserved);
  ASSERT_NE(json_reserved, nullptr);
  EXPECT_EQ(json_reserved->bytes, 65573748736);  // 61.0703125 × 2^30, exact
  const Peak* json_active = LargestPeak(json, Metric::kActive);
  ASSERT_NE(json_active, nullptr);
  EXPECT_EQ(json_active->bytes, 59282292736);  // 55.2109375 × 2^30, exact
}

// c10/cuda/CUDACachingAllocator.cpp's out-of-memory error, as a dying job leaves it. Since
// PyTorch 2.1: allocated A (private pools included) and unallocated U, reserved = A + U, and
// the process's memory in use; sizes by format_size (two decimals of KiB/MiB/GiB).
TEST(CompareLogTest, OutOfMemoryErrorsGiveWhatTheRunHeld) {
  const std::string log =
      "[rank3]:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB. GPU 3 has "
      "a total capacity of 79.11 GiB of which 1.18 GiB is free. Including non-PyTorch memory, "
      "this process has 77.91 GiB memory in use. Of the allocated memory 75.12 GiB is allocated "
      "by PyTorch, with 2.00 GiB allocated in private pools (e.g., CUDA Graphs), and 1.98 GiB is "
      "reserved by PyTorch but unallocated. If reserved but unallocated memory is large try "
      "setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
      "documentation for Memory Management  "
      "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";
  const Measurement m = MustRead(log);
  EXPECT_EQ(m.skipped_count, 0);
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, 80659485819);  // 75.12 GiB
  EXPECT_EQ(max_allocated->rank, 3);
  EXPECT_EQ(max_allocated->rounding, kGiB / 200);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 82785494631);  // 75.12 GiB + 1.98 GiB, each rounded to the byte
  const Peak* process = LargestPeak(m, Metric::kDeviceUsed);
  ASSERT_NE(process, nullptr);
  EXPECT_EQ(process->bytes, 83655225508);  // 77.91 GiB
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes.front().find("at least 76.37 GiB"), std::string::npos) << m.notes.front();

  // Before PyTorch 2.1 (and torch_npu today): "(GPU n; C total capacity; A already allocated;
  // [X current active; ]F free; R reserved in total by PyTorch)".
  const Measurement old = MustRead(
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total "
      "capacity; 14.56 GiB already allocated; 11.19 MiB free; 14.68 GiB reserved in total by "
      "PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to "
      "avoid fragmentation.\n");
  ASSERT_NE(LargestPeak(old, Metric::kMaxAllocated), nullptr);
  EXPECT_EQ(LargestPeak(old, Metric::kMaxAllocated)->bytes, 15633680957);  // 14.56 GiB
  ASSERT_NE(LargestPeak(old, Metric::kReserved), nullptr);
  EXPECT_EQ(LargestPeak(old, Metric::kReserved)->bytes, 15762529976);  // 14.68 GiB
  EXPECT_EQ(LargestPeak(old, Metric::kDeviceUsed), nullptr);

  const Measurement npu = MustRead(
      "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total "
      "capacity; 56.11 GiB already allocated; 56.11 GiB current active; 1.25 GiB free; 58.67 "
      "GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting "
      "max_split_size_mb to avoid fragmentation.\n");
  ASSERT_NE(LargestPeak(npu, Metric::kReserved), nullptr);
  EXPECT_EQ(LargestPeak(npu, Metric::kReserved)->bytes, 62996432814);  // 58.67 GiB
  EXPECT_NE(LargestPeak(npu, Metric::kReserved)->source.find("NPU"), std::string::npos);
  ASSERT_NE(LargestPeak(npu, Metric::kMaxAllocated), nullptr);
  EXPECT_EQ(LargestPeak(npu, Metric::kMaxAllocated)->bytes, 60247653745);  // 56.11 GiB
}

// A skipped line is quoted in the report; a log may hold any bytes (a binary chunk, a cut
// multi-byte character), and the report's JSON must still be UTF-8 (found by fuzz_log: the
// page's mirror and `trainmem compare --json` threw on it).
TEST(CompareLogTest, AnyBytesInAQuotedLineStillMakeUtf8) {
  const std::string log =
      "index, memory.used \xfe\xff [M\xff"
      "B]\n"  // an nvidia-smi csv header, unit garbled
      "step: 10  loss: 2.0  memory: 40.00GiB(50.00%)\n";
  const Measurement m = MustRead(log);
  ASSERT_EQ(m.skipped_count, 1);
  const std::string& quoted = m.skipped.front().message;
  EXPECT_EQ(quoted.find('\xfe'), std::string::npos) << quoted;
  EXPECT_NE(quoted.find("\xEF\xBF\xBD"), std::string::npos) << quoted;  // U+FFFD in its place
}

// export_memory_timeline("x.html") writes a page with a PNG: refused with what to do instead.
TEST(CompareLogTest, HtmlTimelineIsRefusedWithAHint) {
  Result<Measurement> r = ReadMeasurement(
      "<html>\n<head><meta charset=\"utf-8\" /><title>GPU Memory Timeline HTML</title></head>\n"
      "<body>\n  <img src='data:image/png;base64,iVBORw0KGgo='>\n</body>\n</html>",
      "timeline.html");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors().front().message.find(".json"), std::string::npos);
}

// The newer readers refuse NaN, negative and cut figures the same way, naming the field.
TEST(CompareLogTest, HostileFiguresInNewerFormatsAreSkippedAndNamed) {
  const std::string log =
      " iteration 1/ 10 | max_memory_allocated(GB): nan | max_memory_reserved(GB): -3.00 |\n"
      "RANK=0 MEMSTATS x device=cuda:0 current alloc=inf (delta=0.0000GB max=1.0000GB) current "
      "cache=2.0000GB (delta=0.0000GB max=\n"
      "wandb:        memory/max_reserved(GiB) -1.5\n"
      "[Rank 0] (after 1 iterations) memory (MB) | allocated: 1.0 | max allocated: 2.0 | "
      "reserved: 3.0 | max reserved: 4.0[Rank 1] (after 1 iterations) memory (MB) | allocated: "
      "NaN\n";
  const Measurement m = MustRead(log);
  EXPECT_TRUE(SkippedMentions(m, "MindSpeed-LLM 'max_memory_allocated(GB)' is not a number"));
  EXPECT_TRUE(SkippedMentions(m, "MindSpeed-LLM 'max_memory_reserved(GB)' is negative"));
  EXPECT_TRUE(SkippedMentions(m, "DeepSpeed MEMSTATS 'current alloc=' is not a number"));
  EXPECT_TRUE(SkippedMentions(m, "torchtitan 'memory/max_reserved(GiB)' is negative"));
  EXPECT_TRUE(SkippedMentions(m, "Megatron 'allocated:' is not a number"));
  // What could be read is kept: MEMSTATS max 1 GiB allocated and 2 GiB cache; rank 0's
  // Megatron figures (max reserved 4 MiB).
  const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
  ASSERT_NE(max_allocated, nullptr);
  EXPECT_EQ(max_allocated->bytes, kGiB);
  const Peak* reserved = LargestPeak(m, Metric::kReserved);
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->bytes, 2 * kGiB);
  for (const Peak& p : m.peaks) EXPECT_GE(p.bytes, 0) << p.source;
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
// Lines that carry a memory figure as `key value [unit]` (the December 2026 sweep of public
// logs found each of these unread). Every unit is binary; the bytes are the printed figure
// times its unit.
TEST(CompareLogTest, KeyedFiguresOfOtherFrameworks) {
  // DeepSpeed's ThroughputTimer, as HF Trainer + DeepSpeed and DeepSpeed-Chat print it.
  const Measurement ds = MustRead(
      "[2022-03-11 02:06:58,985] [INFO] [timer.py:189:stop] 0/40, "
      "SamplesPerSec=83.48609168106144, MemAllocated=0.26GB, MaxMemAllocated=9.02GB\n");
  ASSERT_NE(LargestPeak(ds, Metric::kMaxAllocated), nullptr);
  EXPECT_NEAR(LargestPeak(ds, Metric::kMaxAllocated)->bytes, 9.02 * 1073741824.0, 1);
  ASSERT_NE(LargestPeak(ds, Metric::kAllocated), nullptr);  // not taken from "MaxMemAllocated"
  EXPECT_NEAR(LargestPeak(ds, Metric::kAllocated)->bytes, 0.26 * 1073741824.0, 1);
  // torchtune's step line: GiB without a unit.
  const Measurement tune = MustRead(
      "Step 6 | loss:1.046566128730774 lr:2e-05 tokens_per_second_per_gpu:55.77537155151367 "
      "peak_memory_active:47.32488775253296 peak_memory_alloc:57.90928649902344 "
      "peak_memory_reserved:57.90928649902344 \n");
  EXPECT_EQ(tune.formats, std::vector<std::string>{"torchtune"});
  EXPECT_NEAR(LargestPeak(tune, Metric::kReserved)->bytes, 57.90928649902344 * 1073741824.0, 1);
  EXPECT_NEAR(LargestPeak(tune, Metric::kActive)->bytes, 47.32488775253296 * 1073741824.0, 1);
  // torchtune after model init: an init figure, not a training peak.
  const Measurement tune_init = MustRead(
      "2025-01-17 17:19:44,333 - torchtune.utils._logging - INFO - Memory stats after model "
      "init:\n\tGPU peak memory allocation: 4.98 GiB\n\tGPU peak memory reserved: 5.12 GiB\n"
      "\tGPU peak memory active: 4.98 GiB\n");
  ASSERT_NE(LargestPeak(tune_init, Metric::kReserved), nullptr);
  EXPECT_TRUE(LargestPeak(tune_init, Metric::kReserved)->at_init);
  EXPECT_NEAR(LargestPeak(tune_init, Metric::kReserved)->bytes, 5.12 * 1073741824.0, 1);
  // NeMo 2's step line: raw bytes, srun's "0:" prefix names the rank.
  const Measurement nemo = MustRead(
      " 0: Training epoch 0, iteration 11/29 | lr: 7.186e-06 | global_batch_size: 512 | "
      "global_step: 11 | max_memory_reserved: 57675874304 | max_memory_allocated: 53930270720 "
      "| reduced_train_loss: 9.924\n");
  EXPECT_EQ(LargestPeak(nemo, Metric::kReserved)->bytes, 57675874304);
  EXPECT_EQ(LargestPeak(nemo, Metric::kMaxAllocated)->bytes, 53930270720);
  EXPECT_EQ(LargestPeak(nemo, Metric::kReserved)->rank, 0);
  // Colossal-AI's benchmark summary: max_memory_allocated / 1024**2 as "MB".
  const Measurement colossal = MustRead(
      "max memory usage:  58500.20 MB, throughput:  5.29 samples/s, TFLOPS/GPU:  176.84.\n");
  EXPECT_NEAR(LargestPeak(colossal, Metric::kMaxAllocated)->bytes, 58500.20 * 1048576.0, 1);
  // Trainer log dicts: Liger's EfficiencyCallback (MiB) and optimum-habana (GB = 2^30).
  const Measurement liger = MustRead(
      "{'loss': 75.1831, 'step_peak_memory_allocated_MB': 26279.24, "
      "'total_peak_memory_allocated_MB': 26279.24, 'step_peak_memory_reserved_MB': 47172.0, "
      "'total_peak_memory_reserved_MB': 47172.0, 'epoch': 0.01}\n");
  EXPECT_EQ(LargestPeak(liger, Metric::kReserved)->bytes, 47172LL << 20);
  EXPECT_NEAR(LargestPeak(liger, Metric::kMaxAllocated)->bytes, 26279.24 * 1048576.0, 1);
  const Measurement habana = MustRead(
      "{'loss': 0.6188, 'learning_rate': 2.91e-05, 'epoch': 0.09, 'memory_allocated (GB)': 3.82, "
      "'max_memory_allocated (GB)': 6.32, 'total_memory_available (GB)': 29.85}\n");
  EXPECT_NEAR(LargestPeak(habana, Metric::kMaxAllocated)->bytes, 6.32 * 1073741824.0, 1);
  EXPECT_NEAR(LargestPeak(habana, Metric::kAllocated)->bytes, 3.82 * 1073741824.0, 1);
  // prime-rl's step line: the peak against the device's 23.7 GiB; the largest of the two steps.
  const Measurement prime = MustRead(
      "12:51:09 SUCCESS Step 1 | Time: 1.35s | Loss: 12.3125 | MFU: 0.4% | Peak Mem.: 5.2/23.7 "
      "GiB (22.1%) | Max Vio: 0.9891\n12:54:25 SUCCESS Step 1 | Time: 0.58s | Loss: 12.3125 | "
      "Peak Mem.: 7.8/23.7 GiB (32.9%) | Max Vio: 0.9892\n");
  EXPECT_EQ(prime.formats, std::vector<std::string>{"prime-rl"});
  EXPECT_NEAR(LargestPeak(prime, Metric::kReserved)->bytes, 7.8 * 1073741824.0, 1);
  // Two figures under one key, MB = 2^20 B; a line with one of them says so.
  const Measurement pair = MustRead("    Max Allocated / Max Reserved: 18706.66MB / 23816.00MB\n");
  EXPECT_NEAR(LargestPeak(pair, Metric::kMaxAllocated)->bytes, 18706.66 * 1048576.0, 1);
  EXPECT_NEAR(LargestPeak(pair, Metric::kReserved)->bytes, 23816.0 * 1048576.0, 1);
  const Measurement half = MustRead(
      "Max Allocated / Max Reserved: 18706.66MB\nMax Allocated / Max Reserved: 100MB / 200MB\n");
  EXPECT_NEAR(LargestPeak(half, Metric::kMaxAllocated)->bytes, 18706.66 * 1048576.0, 1);
  EXPECT_EQ(LargestPeak(half, Metric::kReserved)->bytes, 200LL << 20);
  bool told = false;
  for (const Error& why : half.skipped)
    told = told || why.message.find("holds one figure where it names two") != std::string::npos;
  EXPECT_TRUE(told);
}

// The memory lines of verl, axolotl, ms-swift, XTuner (v1 per rank, 0.x through mmengine),
// Nanotron, notebooks and LLaMA-Factory's trainer_log, each with the metric and unit its source
// computes (log_reader.cpp, Keyed figures); a value newer transformers prints as a quoted string
// of 4 significant digits is read with that rounding.
TEST(CompareLogTest, RlAndFineTuningFrameworksMemoryLines) {
  // verl: GiB, the largest over the actor ranks; numpy 2's np.float64(…) around the value.
  const Measurement verl = MustRead(
      "(TaskRunner pid=4012) step:3 - actor/pg_loss:-0.01 - perf/max_memory_allocated_gb:18.5 - "
      "perf/max_memory_reserved_gb:23.25 - perf/cpu_memory_used_gb:90.1\n"
      "(TaskRunner pid=4012) step:4 - perf/max_memory_allocated_gb:np.float64(19.5) - "
      "perf/max_memory_reserved_gb:np.float64(25.5)\n");
  EXPECT_EQ(verl.formats, std::vector<std::string>{"verl"});
  EXPECT_EQ(LargestPeak(verl, Metric::kReserved)->bytes, 25.5 * kGiB);
  EXPECT_EQ(LargestPeak(verl, Metric::kMaxAllocated)->bytes, 19.5 * kGiB);
  // axolotl: three generations of keys, GiB, quoted or not; the peak of each logging interval,
  // so the largest line wins.
  const Measurement axolotl = MustRead(
      "{'loss': '1.2', 'memory/max_active (GiB)': '6.5', 'memory/max_allocated (GiB)': '6.75', "
      "'memory/device_reserved (GiB)': '7.5', 'epoch': '0.1'}\n"
      "{'loss': 1.1, 'memory/device_reserved (GiB)': 8.25, 'epoch': 0.2}\n"
      "{'loss': 1.0, 'memory/device_mem_reserved(gib)': 8.0, 'memory/max_mem_active(gib)': 7.0}\n");
  EXPECT_EQ(LargestPeak(axolotl, Metric::kReserved)->bytes, 8.25 * kGiB);
  EXPECT_EQ(LargestPeak(axolotl, Metric::kActive)->bytes, 7 * kGiB);
  EXPECT_EQ(LargestPeak(axolotl, Metric::kMaxAllocated)->bytes, 6.75 * kGiB);
  // ms-swift: the dict glued to the progress bar; a running max of max_memory_reserved.
  const Measurement swift = MustRead(
      "Train:   2%|▏         | 1/60 [00:40<40:00, 40.0s/it]{'loss': '1.5', 'memory(GiB)': "
      "'14.25', 'train_speed(iter/s)': '0.02'}\n");
  EXPECT_EQ(swift.formats, std::vector<std::string>{"ms-swift"});
  EXPECT_EQ(LargestPeak(swift, Metric::kReserved)->bytes, 14.25 * kGiB);
  // '4.717e+04' MiB: 47,170 MiB, its last printed digit tens of MiB (±5 MiB).
  const Measurement quoted = MustRead("{'total_peak_memory_reserved_MB': '4.717e+04'}\n");
  EXPECT_EQ(LargestPeak(quoted, Metric::kReserved)->bytes, 47170 * kMiB);
  EXPECT_EQ(LargestPeak(quoted, Metric::kReserved)->rounding, 5 * kMiB);
  // f"{50000.0:.4g}" is '5e+04': still 4 significant digits, ±5 MiB.
  const Measurement zeros = MustRead("{'total_peak_memory_reserved_MB': '5e+04'}\n");
  EXPECT_EQ(LargestPeak(zeros, Metric::kReserved)->bytes, 50000 * kMiB);
  EXPECT_EQ(LargestPeak(zeros, Metric::kReserved)->rounding, 5 * kMiB);
  // XTuner v1: every rank prints its step's peaks, "GB" = 2^30 B; the key is read only on an
  // [XTuner] line.
  const Measurement xtuner = MustRead(
      "[XTuner][RANK 3][2026-01-01 10:00:00][INFO] Step 2/100 data_time: 0.01 lr: 0.0001 time: "
      "3.2 grad_norm: 1.1 max_memory: 15.5 GB reserved_memory: 17.75 GB tgs: 3000\n"
      "[XTuner][RANK 0][2026-01-01 10:00:00][INFO] Step 2/100 max_memory: 14.0 GB "
      "reserved_memory: 16.0 GB\n");
  EXPECT_EQ(LargestPeak(xtuner, Metric::kReserved)->bytes, 17.75 * kGiB);
  EXPECT_EQ(LargestPeak(xtuner, Metric::kReserved)->rank, 3);
  EXPECT_EQ(LargestPeak(xtuner, Metric::kMaxAllocated)->bytes, 15.5 * kGiB);
  EXPECT_FALSE(ReadMeasurement("cache stats max_memory: 15.5 GB\n", "test.log").ok());
  // mmengine (XTuner 0.x): a whole number of MiB, max allocated; torchtitan's "memory:" beside
  // it is still GiB.
  const Measurement mm = MustRead(
      "12/01 10:00:00 - mmengine - INFO - Iter(train) [  10/720]  lr: 9.0e-05  eta: 0:31:46  "
      "time: 2.6851  data_time: 0.0077  memory: 12000  loss: 2.69\n"
      "[titan] step:  2  loss: 11.6  memory: 49.66GiB(52.28%)  tps: 5,000\n");
  EXPECT_EQ(LargestPeak(mm, Metric::kMaxAllocated)->bytes, 12000 * kMiB);
  EXPECT_NEAR(LargestPeak(mm, Metric::kReserved)->bytes, 49.66 * kGiB, 1);
  // Nanotron's log_memory: MiB; the current usage is not a peak and is not read.
  const Measurement nanotron =
      MustRead("Memory usage: 1000.00MiB. Peak allocated 2000.50MiB. Peak reserved: 3000.00MiB\n");
  EXPECT_EQ(LargestPeak(nanotron, Metric::kReserved)->bytes, 3000 * kMiB);
  EXPECT_EQ(LargestPeak(nanotron, Metric::kMaxAllocated)->bytes, 2000.5 * kMiB);
  // A notebook's end-of-training cell: only the peak, not the "for training" difference.
  const Measurement notebook = MustRead(
      "Peak reserved memory = 6.5 GB.\nPeak reserved memory for training = 1.25 GB.\n"
      "Peak reserved memory % of max memory = 43.3 %.\n");
  EXPECT_EQ(LargestPeak(notebook, Metric::kReserved)->bytes, 6.5 * kGiB);
  // LLaMA-Factory's trainer_log.jsonl with RECORD_VRAM=1.
  const Measurement llamafactory = MustRead(
      "{\"current_steps\": 10, \"total_steps\": 300, \"loss\": 1.2, \"vram_allocated\": 17.5, "
      "\"vram_reserved\": 21.25}\n");
  EXPECT_EQ(LargestPeak(llamafactory, Metric::kReserved)->bytes, 21.25 * kGiB);
  EXPECT_EQ(LargestPeak(llamafactory, Metric::kMaxAllocated)->bytes, 17.5 * kGiB);
}

// A Megatron port whose device reports no statistics prints zeros: no measurement, said so.
// A bolded field in a markdown paste is read; what stays allocated is the latest figure.
TEST(CompareLogTest, ZerosBoldAndTheLatestAllocated) {
  Result<Measurement> zeros = ReadMeasurement(
      "[Rank 5] (after 1 iterations) memory (MB) | allocated: 0.0 | max allocated: 0.0 | "
      "reserved: 0.0 | max reserved: 0.0\n",
      "test.log");
  ASSERT_FALSE(zeros.ok());
  bool said = false;
  for (const Error& e : zeros.errors())
    said = said || e.message.find("no memory statistics") != std::string::npos;
  EXPECT_TRUE(said);
  const Measurement bold = MustRead(
      "6: [Rank 6] (after 2 iterations) memory (MB) | allocated: 53199.095703125 | **max "
      "allocated: 84019.3681640625** | reserved: 84732.0 | max reserved: 84732.0\n");
  ASSERT_NE(LargestPeak(bold, Metric::kMaxAllocated), nullptr);
  EXPECT_NEAR(LargestPeak(bold, Metric::kMaxAllocated)->bytes, 84019.3681640625 * 1048576.0, 1);
  // DeepSpeed ZeRO-3 offload: 26.38 GB before the model is partitioned, 0.58 GB after.
  const Measurement offload = MustRead(
      "[INFO] [utils.py:781:see_memory_usage] MA 26.38 GB         Max_MA 26.38 GB         CA "
      "26.71 GB         Max_CA 27 GB \n"
      "[INFO] [utils.py:781:see_memory_usage] MA 0.58 GB         Max_MA 26.38 GB         CA "
      "26.71 GB         Max_CA 27 GB \n");
  EXPECT_NEAR(LargestPeak(offload, Metric::kAllocated)->bytes, 0.58 * 1073741824.0, 1);
  EXPECT_NEAR(LargestPeak(offload, Metric::kMaxAllocated)->bytes, 26.38 * 1073741824.0, 1);
}

}  // namespace trainmem::compare
