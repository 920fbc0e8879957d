// Training-log readers: one pass over the lines, no regular expressions, memory bounded by the
// number of ranks (a peak per metric and rank, not a row per line).
//
// [SECTION] Lines and peaks      — the shared bookkeeping
// [SECTION] torchtitan           — step line and "memory usage for model"
// [SECTION] Megatron-LM          — report_memory, also printed by MindSpeed-LLM
// [SECTION] DeepSpeed            — see_memory_usage
// [SECTION] Keyed figures        — torchtune, NeMo 2, Colossal-AI, Trainer callbacks, DS timer
// [SECTION] memory_summary       — torch.cuda / torch_npu memory_summary() tables
// [SECTION] nvidia-smi, npu-smi  — device tables (whole process, runtime context included)
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>

#include "core/compare/log_reader_detail.h"
#include "core/compare/measurement.h"
#include "core/compare/text_scan.h"
#include "core/config/config_detail.h"
#include "core/report/report.h"

namespace trainmem::compare {

using scan::Contains;
using scan::kGiB;
using scan::kKiB;
using scan::kMiB;
using scan::NumberProblem;
using scan::StartsWith;
using scan::Trim;

namespace detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] Lines and peaks
// ---------------------------------------------------------------------------------------------

void LogReader::Record(const Figure& f) {
  std::int64_t bytes = 0;
  if (!scan::ToBytes(f.value, f.unit, bytes)) {
    Skip("figure out of range");
    return;
  }
  // A figure of 0 after a step cannot be measured on a working device: the backend reported no
  // statistics (a Megatron port on an accelerator without torch.cuda memory stats prints
  // "max allocated: 0.0 | … | max reserved: 0.0"). It is no measurement.
  if (bytes == 0) {
    Skip(f.source + " is 0: the device reported no memory statistics, not a measurement");
    return;
  }
  const int rank = f.rank >= 0 ? f.rank : rank_;
  auto key = std::make_tuple(static_cast<int>(f.metric), rank, f.at_init);
  auto it = peaks_.find(key);
  if (it == peaks_.end()) {
    if (peaks_.size() >= kMaxPeaks) return;  // bounded: more ranks than any job has
    Peak p;
    p.metric = f.metric;
    p.rank = rank;
    p.at_init = f.at_init;
    p.bytes = -1;
    it = peaks_.emplace(key, p).first;
  }
  // Peaks keep their largest figure. "Allocated" is what stays allocated between steps: the
  // latest figure wins, so a reading taken before ZeRO-3 partitions the model (DeepSpeed prints
  // see_memory_usage through initialization) gives way to the steady one.
  if (bytes > it->second.bytes || f.metric == Metric::kAllocated) {
    it->second.bytes = bytes;
    it->second.source = trainmem::detail::SanitizeUtf8(f.source);  // may quote the line: any bytes
    it->second.line = line_number_;
    it->second.rounding = f.rounding;
  }
  used_line_ = true;
}

void LogReader::Skip(const std::string& why) {
  ++skipped_count_;
  if (skipped_.size() < kMaxSkippedKept) {
    // `why` may quote the line, which may hold any bytes: the JSON report needs UTF-8.
    skipped_.push_back(
        {"line " + std::to_string(line_number_), trainmem::detail::SanitizeUtf8(why)});
  }
}

void LogReader::Format(const char* name) {
  if (std::find(formats_.begin(), formats_.end(), name) == formats_.end()) {
    formats_.push_back(name);
  }
}

void LogReader::Note(const std::string& text) {
  const std::string note = trainmem::detail::SanitizeUtf8(text);
  if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
}

std::string LogReader::NumberWhy(NumberProblem problem, std::string_view what) {
  switch (problem) {
    case NumberProblem::kNegative:
      return std::string(what) + " is negative";
    case NumberProblem::kNotFinite:
      return std::string(what) + " is not a number (NaN or infinite)";
    default:
      return std::string(what) + " has no number (the line may be cut short)";
  }
}

void LogReader::Line(std::string_view raw) {
  ++line_number_;
  used_line_ = false;
  std::string_view line = scan::StripAnsi(raw, clean_);
  if (line.size() > kMaxLineBytes) line = line.substr(0, kMaxLineBytes);
  // A log pasted into markdown may have a figure in bold ("| **max allocated: 71306.04** |").
  if (Contains(line, "**")) {
    unbold_.clear();
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '*' && i + 1 < line.size() && line[i + 1] == '*') {
        ++i;
        continue;
      }
      unbold_ += line[i];
    }
    line = unbold_;
  }
  rank_ = scan::LeadingRank(line);
  // Cheapest tests first: most log lines are about something else.
  if (Contains(line, "memory")) {
    if (Megatron(line) || MindSpeedFsdp(line) || Mmengine(line) || Torchtitan(line) ||
        TorchtitanMetricNames(line)) {
      return Count();
    }
  }
  if (Contains(line, "Max_MA") && DeepSpeed(line)) return Count();
  if (Contains(line, "MEMSTATS") && DeepSpeedMemStats(line)) return Count();
  if (Contains(line, "Tried to allocate") && OutOfMemory(line)) return Count();
  if ((Contains(line, "emory") || Contains(line, "MemAllocated") || Contains(line, "Peak Mem.") ||
       Contains(line, "Max Allocated / Max Reserved") || Contains(line, "vram_")) &&
      KeyedFigures(line)) {
    return Count();
  }
  // Tables: every row may carry the launcher's rank tag ("[rank0]:| Allocated memory | …").
  const std::string_view row = scan::StripLauncherPrefix(line);
  if (Contains(row, "|") && (MemorySummary(row) || NvidiaSmiTable(row) || NpuSmi(row))) {
    return Count();
  }
  if (NvidiaSmiQuery(row) || NvidiaSmiCsv(row)) return Count();
}

void LogReader::Count() {
  if (used_line_) ++lines_used_;
}

Result<Measurement> LogReader::Finish() {
  Measurement m;
  m.formats = formats_;
  m.notes = notes_;
  m.skipped = skipped_;
  m.skipped_count = skipped_count_;
  m.lines_read = line_number_;
  m.lines_used = lines_used_;
  m.out_of_memory = oom_needed_ >= 0;
  m.oom_needed_bytes = std::max<std::int64_t>(0, oom_needed_);
  for (const auto& [key, peak] : peaks_) {
    if (peak.bytes >= 0) m.peaks.push_back(peak);
  }
  if (m.peaks.empty()) {
    std::string message =
        "no memory figure found: expected a torchtitan step line (memory: …GiB), a "
        "Megatron-LM/MindSpeed-LLM line ([Rank N] … memory (MB) | allocated: …), DeepSpeed "
        "see_memory_usage (MA … GB Max_MA … GB …) or its throughput timer "
        "(MaxMemAllocated=…GB), a torchtune step line (peak_memory_reserved:…), NeMo 2 "
        "(max_memory_reserved: <bytes>), Colossal-AI (max memory usage: … MB), a Trainer memory "
        "callback ('total_peak_memory_reserved_MB': …), prime-rl (Peak Mem.: …/… GiB), verl "
        "(perf/max_memory_reserved_gb:…), axolotl ('memory/device_reserved (GiB)': …), ms-swift "
        "('memory(GiB)': …), XTuner (max_memory: … GB), mmengine (memory: <MiB>), Nanotron "
        "(Peak reserved: …MiB), a notebook's 'Peak reserved memory = … GB.', LLaMA-Factory's "
        "trainer_log (\"vram_reserved\": …), a "
        "PyTorch out-of-memory error (… Tried to allocate …), a torch.cuda.memory_summary() "
        "table, nvidia-smi or npu-smi output";
    std::vector<Error> errors{{"", message}};
    errors.insert(errors.end(), skipped_.begin(), skipped_.end());
    return Result<Measurement>::Failure(errors);
  }
  return Result<Measurement>::Success(std::move(m));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] torchtitan
// ---------------------------------------------------------------------------------------------

// torchtitan/components/metrics.py, MetricsProcessor.log: the step line prints
// `memory: {max_reserved_gib:5.2f}GiB({max_reserved_pct:.2f}%)` where max_reserved_gib is
// memory_stats()["reserved_bytes.all.peak"] / 1024**3 (DeviceMemoryMonitor._to_gib), the peak
// since the previous log line (reset_peak_stats after each). log_validation prints the same
// field after "validate step:". torchtitan-npu runs the same code on torch_npu.
// torchtitan/train.py prints `{CUDA|NPU} memory usage for model: {gib:.2f}GiB({pct:.2f}%)`
// once after the model is built: parameters and buffers, before optimizer states exist.
bool LogReader::Torchtitan(std::string_view line) {
  const std::size_t init = line.find("memory usage for model:");
  if (init != std::string_view::npos) {
    return TorchtitanFigure(line.substr(init + 23), true);
  }
  const std::size_t at = line.find("memory:");
  if (at == std::string_view::npos || !Contains(line, "step:")) return false;
  return TorchtitanFigure(line.substr(at + 7), false);
}

// mmengine's LogProcessor (XTuner 0.x and the other OpenMMLab trainers): "… - mmengine - INFO
// - Iter(train) [  10/720]  lr: …  time: 2.6851  data_time: 0.0077  memory: 12762  loss: …",
// the memory a whole number of MiB with no unit: get_max_cuda_memory's max_memory_allocated //
// 2**20, reset after each line (mmengine/device/utils.py). Only a line naming mmengine's
// Iter( / Epoch( progress is read, so torchtitan's "memory: 49.66GiB" never is.
bool LogReader::Mmengine(std::string_view line) {
  if (!Contains(line, "mmengine") || !(Contains(line, "Iter(") || Contains(line, "Epoch("))) {
    return false;
  }
  const std::size_t at = line.find("  memory: ");
  if (at == std::string_view::npos) return false;
  Format("mmengine");
  const std::string_view rest = line.substr(at + 10);
  double mib = 0;
  std::size_t used = 0;
  const NumberProblem problem = scan::ReadNumber(rest, mib, used);
  if (problem != NumberProblem::kNone) {
    Skip(NumberWhy(problem, "mmengine 'memory'"));
    return true;
  }
  Figure f;
  f.metric = Metric::kMaxAllocated;
  f.value = mib;
  f.unit = kMiB;
  f.rounding = kMiB;  // floored to a whole MiB
  f.source = "mmengine 'memory' (max_memory_allocated since the last line, whole MiB)";
  Record(f);
  return true;
}

bool LogReader::TorchtitanFigure(std::string_view rest, bool at_init) {
  double gib = 0;
  std::size_t used = 0;
  const NumberProblem problem = scan::ReadNumber(rest, gib, used);
  const char* what = at_init ? "torchtitan 'memory usage for model'" : "torchtitan step memory";
  if (problem == NumberProblem::kNegative && StartsWith(Trim(rest), "-0.00GiB")) {
    // DeviceMemoryMonitor.get_peak_stats falls back to -1 bytes when memory_stats() lacks
    // "reserved_bytes.all.peak" (a device or backend without allocator statistics).
    Skip(std::string(what) +
         " is -0.00GiB: the device reported no reserved_bytes.all.peak statistic");
    return true;
  }
  if (problem != NumberProblem::kNone) {
    Skip(NumberWhy(problem, what));
    return true;
  }
  if (!StartsWith(rest.substr(used), "GiB")) {
    Skip(std::string(what) + " has no 'GiB' after the number (the line may be cut short)");
    return true;
  }
  Format("torchtitan");
  Figure f;
  f.metric = Metric::kReserved;
  f.value = gib;
  f.unit = kGiB;
  f.rounding = scan::HalfLastDigit(kGiB, scan::PrintedDecimals(rest.substr(0, used)));
  f.at_init = at_init;
  f.source = at_init ? "torchtitan 'memory usage for model' (max reserved after model init, GiB)"
                     : "torchtitan step line 'memory: …GiB' (max reserved, GiB)";
  Record(f);
  return true;
}

// The same statistics under MetricsProcessor.log's metric names, as TensorBoard/W&B record
// them: "memory/max_reserved(GiB)" (reserved_bytes.all.peak / 1024**3) and
// "memory/max_active(GiB)" (active_bytes.all.peak / 1024**3), also prefixed
// "validation_metrics/". They reach a text paste as W&B's end-of-run summary ("wandb:
// memory/max_active(GiB) 55.21") or a wandb-summary.json ("\"memory/max_active(GiB)\":
// 55.2109375"), with every digit of the float.
bool LogReader::TorchtitanMetricNames(std::string_view line) {
  struct Field {
    std::string_view key;
    Metric metric;
    const char* source;
  };
  static constexpr Field kFields[] = {
      {"memory/max_reserved(GiB)", Metric::kReserved,
       "torchtitan metric memory/max_reserved(GiB) (reserved_bytes.all.peak, GiB)"},
      {"memory/max_active(GiB)", Metric::kActive,
       "torchtitan metric memory/max_active(GiB) (active_bytes.all.peak, GiB)"},
  };
  bool any = false;
  for (const Field& field : kFields) {
    const std::size_t at = line.find(field.key);
    if (at == std::string_view::npos) continue;
    any = true;
    Format("torchtitan");
    std::string_view rest = line.substr(at + field.key.size());
    // Past the separator: `": ` in JSON, spaces in W&B's summary, "=" or "," elsewhere.
    std::size_t i = 0;
    while (i < rest.size() && i < 8 &&
           (rest[i] == '"' || rest[i] == ':' || rest[i] == '=' || rest[i] == ',' ||
            rest[i] == ' ' || rest[i] == '\t')) {
      ++i;
    }
    rest = rest.substr(i);
    double gib = 0;
    std::size_t used = 0;
    const std::string what = "torchtitan '" + std::string(field.key) + "'";
    const NumberProblem problem = scan::ReadNumber(rest, gib, used);
    if (problem != NumberProblem::kNone) {
      Skip(NumberWhy(problem, what));
      continue;
    }
    Figure f;
    f.metric = field.metric;
    f.value = gib;
    f.unit = kGiB;
    f.rounding = scan::HalfLastDigit(kGiB, scan::PrintedDecimals(rest.substr(0, used)));
    f.source = field.source;
    Record(f);
  }
  return any;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Megatron-LM
// ---------------------------------------------------------------------------------------------

// megatron/training/utils/common_utils.py (megatron/training/utils.py before), report_memory
// (name): "[Rank {rank}] {name} memory (MB) | allocated: {memory_allocated/2**20:.2f} | max
// allocated: {max_memory_allocated/2**20:.2f} | reserved: {…:.2f} | max reserved: {…:.2f}"
// and, with --log-device-memory-used, " | total device memory used: {…:.2f}". Until the
// "Improve memory logging" change (January 2026) the figures were '{}'.format(bytes / 2**20):
// Python's repr of the float, e.g. "3381.9326171875", "6166.0", "4.76837158203125e-05" — the
// form older Megatron and the Megatron MindSpeed-LLM pins print. Either way a figure has a
// decimal point, so one without was cut mid-number. training_log calls it with name "(after
// {iteration} iterations)" (also around save_checkpoint) on data-parallel rank 0 of every
// TP/PP rank, so a log holds one line per model-parallel rank. MindSpeed-LLM
// (mindspeed_llm/training/training.py) imports and calls the same function.
bool LogReader::Megatron(std::string_view line) {
  std::size_t at = line.find("memory (MB)");
  if (at == std::string_view::npos) return false;
  Format("megatron");
  // Ranks print concurrently: two reports can share one line when a flush lands between
  // them ("… max reserved: 21534.0[Rank 0] (after 1 iterations) memory (MB) | …"). Each
  // report runs from its "[Rank N]" to the next one.
  std::size_t begin = 0;
  while (at != std::string_view::npos) {
    const std::size_t next_report = line.find("memory (MB)", at + 11);
    std::size_t end = line.size();
    if (next_report != std::string_view::npos) {
      const std::size_t next_tag = line.rfind("[Rank ", next_report);
      end = next_tag != std::string_view::npos && next_tag > at ? next_tag : next_report;
    }
    MegatronReport(line.substr(begin, end - begin));
    begin = end;
    at = next_report;
  }
  return true;
}

// One figure printed with a fixed number of decimals at the start of `rest` (Megatron's and
// MindSpeed-LLM's memory lines): recorded with half its last printed digit as the rounding;
// a bad number, or one with no decimal point (a line cut mid-number), is skipped with `what`.
bool LogReader::RecordPrinted(std::string_view rest, const std::string& what, Metric metric,
                              double unit, int rank, const char* source) {
  double value = 0;
  std::size_t used = 0;
  const NumberProblem problem = scan::ReadNumber(rest, value, used);
  if (problem != NumberProblem::kNone) {
    Skip(NumberWhy(problem, what));
    return false;
  }
  const int decimals = scan::PrintedDecimals(rest.substr(0, used));
  if (decimals == 0) {
    Skip(what + " has no decimal point (the line is cut mid-number)");
    return false;
  }
  Figure f;
  f.metric = metric;
  f.value = value;
  f.unit = unit;
  f.rounding = scan::HalfLastDigit(unit, decimals);
  f.rank = rank;
  f.source = source;
  Record(f);
  return true;
}

void LogReader::MegatronReport(std::string_view line) {
  const std::size_t at = line.find("memory (MB)");
  int rank = rank_;
  const std::size_t tag = line.rfind("[Rank ", at);
  if (tag != std::string_view::npos) rank = scan::LeadingRank(line.substr(tag));
  struct Field {
    std::string_view key;
    Metric metric;
    const char* source;
  };
  static constexpr Field kFields[] = {
      {"| allocated:", Metric::kAllocated, "Megatron report_memory 'allocated' (MB = 2^20 B)"},
      {"| max allocated:", Metric::kMaxAllocated,
       "Megatron report_memory 'max allocated' (MB = 2^20 B)"},
      // 'max reserved' first: when the current figure equals it, the peak names the peak.
      {"| max reserved:", Metric::kReserved, "Megatron report_memory 'max reserved' (MB = 2^20 B)"},
      {"| reserved:", Metric::kReserved, "Megatron report_memory 'reserved' (MB = 2^20 B)"},
      {"| total device memory used:", Metric::kDeviceUsed,
       "Megatron report_memory 'total device memory used' (MB = 2^20 B)"},
  };
  std::string_view body = line.substr(at);
  int found = 0;
  for (const Field& field : kFields) {
    const std::size_t k = body.find(field.key);
    if (k == std::string_view::npos) continue;
    const std::string what = "Megatron '" + std::string(Trim(field.key.substr(1))) + "'";
    if (RecordPrinted(body.substr(k + field.key.size()), what, field.metric, kMiB, rank,
                      field.source))
      ++found;
  }
  if (found == 0) Skip("Megatron memory line without any readable figure");
  if (!Contains(body, "| max reserved:") && found > 0) {
    Skip(
        "Megatron memory line ends before 'max reserved' (cut short); used the figures before "
        "the cut");
  }
}

// mindspeed_llm/fsdp2/utils/train_monitor.py (MindSpeed-LLM's FSDP2 backend): the iteration
// line ends with " max_memory_allocated(GB): {:.2f} | max_memory_reserved(GB): {:.2f} |" where
// each figure is max_memory_allocated() / max_memory_reserved() divided by 1024**3 (so "GB" is
// GiB) after an all_reduce(max) over every rank: the largest rank's peak, printed by rank 0.
bool LogReader::MindSpeedFsdp(std::string_view line) {
  struct Field {
    std::string_view key;
    Metric metric;
    const char* source;
  };
  static constexpr Field kFields[] = {
      {"max_memory_allocated(GB):", Metric::kMaxAllocated,
       "MindSpeed-LLM FSDP2 'max_memory_allocated(GB)' (GB = 2^30 B, max over ranks)"},
      {"max_memory_reserved(GB):", Metric::kReserved,
       "MindSpeed-LLM FSDP2 'max_memory_reserved(GB)' (GB = 2^30 B, max over ranks)"},
  };
  if (!Contains(line, "max_memory_allocated(GB):") && !Contains(line, "max_memory_reserved(GB):")) {
    return false;
  }
  Format("mindspeed-llm");
  for (const Field& field : kFields) {
    const std::size_t at = line.find(field.key);
    const std::string what =
        "MindSpeed-LLM '" + std::string(field.key.substr(0, field.key.size() - 1)) + "'";
    if (at == std::string_view::npos) {
      Skip(what + " is missing (the line may be cut short)");
      continue;
    }
    RecordPrinted(line.substr(at + field.key.size()), what, field.metric, kGiB, -1, field.source);
  }
  Note(
      "MindSpeed-LLM's FSDP2 iteration line prints the maximum over all ranks (all_reduce max); "
      "it is compared with the estimate's largest stage.");
  return true;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] DeepSpeed
// ---------------------------------------------------------------------------------------------

namespace {

// Position of a whole word (not preceded by a letter, digit or '_').
std::size_t FindWord(std::string_view line, std::string_view word, std::size_t from = 0) {
  for (std::size_t at = line.find(word, from); at != std::string_view::npos;
       at = line.find(word, at + 1)) {
    const bool start_ok =
        at == 0 || !(std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '_');
    const std::size_t end = at + word.size();
    const bool end_ok = end < line.size() && line[end] == ' ';
    if (start_ok && end_ok) return at;
  }
  return std::string_view::npos;
}

// see_memory_usage's unit names, all binary: it divides by 1024**3 and prints "GB"
// (variants of the function in DeepSpeed's forks use scale_name "MB"/"KB" with 1024**2/1024).
std::int64_t DeepSpeedUnit(std::string_view rest) {
  rest = Trim(rest);
  if (StartsWith(rest, "GB")) return kGiB;
  if (StartsWith(rest, "MB")) return kMiB;
  if (StartsWith(rest, "KB")) return kKiB;
  if (StartsWith(rest, "B")) return 1;
  return 0;
}

}  // namespace

// deepspeed/runtime/utils.py, see_memory_usage(message, force): on rank 0 only,
// "MA {round(memory_allocated/(1024*1024*1024), 2)} GB  Max_MA {round(max_memory_allocated/…,
// 2)} GB  CA {round(memory_reserved/…, 2)} GB  Max_CA {round(max_memory_reserved/…)} GB" —
// "GB" is 2^30 bytes, and Max_CA is rounded to a whole GiB (round() without digits), so the
// current CA, printed to 0.01, can be the better figure for the reserved peak. Peaks are reset
// after each call: the largest over the log is the run's peak.
bool LogReader::DeepSpeed(std::string_view line) {
  struct Field {
    std::string_view word;
    Metric metric;
    std::int64_t rounding_divisor;  // printed precision: 1/100 or whole units
    const char* source;
  };
  static constexpr Field kFields[] = {
      {"MA", Metric::kAllocated, 200, "DeepSpeed see_memory_usage 'MA' (GB = 2^30 B)"},
      {"Max_MA", Metric::kMaxAllocated, 200, "DeepSpeed see_memory_usage 'Max_MA' (GB = 2^30 B)"},
      {"CA", Metric::kReserved, 200, "DeepSpeed see_memory_usage 'CA' (GB = 2^30 B)"},
      {"Max_CA", Metric::kReserved, 2,
       "DeepSpeed see_memory_usage 'Max_CA' (GB = 2^30 B, whole GiB)"},
  };
  if (FindWord(line, "Max_MA") == std::string_view::npos) return false;
  Format("deepspeed");
  for (const Field& field : kFields) {
    const std::size_t at = FindWord(line, field.word);
    const std::string what = "DeepSpeed '" + std::string(field.word) + "'";
    if (at == std::string_view::npos) {
      Skip(what + " is missing (the line may be cut short)");
      continue;
    }
    std::string_view rest = line.substr(at + field.word.size());
    double value = 0;
    std::size_t used = 0;
    const NumberProblem problem = scan::ReadNumber(rest, value, used);
    if (problem != NumberProblem::kNone) {
      Skip(NumberWhy(problem, what));
      continue;
    }
    const std::int64_t unit = DeepSpeedUnit(rest.substr(used));
    if (unit == 0) {
      Skip(what + " has no unit after the number (the line may be cut short)");
      continue;
    }
    Figure f;
    f.metric = field.metric;
    f.value = value;
    f.unit = unit;
    f.rounding = unit / field.rounding_divisor;
    f.source = field.source;
    Record(f);
  }
  Note(
      "DeepSpeed prints Max_CA rounded to a whole GiB; the reserved peak is the larger of "
      "Max_CA and the current CA.");
  return true;
}

// deepspeed/runtime/utils.py, memory_status(msg, print_rank, reset_max): "RANK={rank} MEMSTATS
// {msg} device={device} current alloc={:0.4f}GB (delta={:0.4f}GB max={:0.4f}GB) current
// cache={:0.4f}GB (delta={:0.4f}GB max={:0.4f}GB)", every figure divided by 1024**3 (GiB).
// "max" after "current alloc" is max_memory_allocated, after "current cache" max_memory_cached
// (= max reserved). The deltas can be negative and are not used.
bool LogReader::DeepSpeedMemStats(std::string_view line) {
  const std::size_t tag = line.find("MEMSTATS");
  const std::size_t alloc = line.find("current alloc=");
  const std::size_t cache = line.find("current cache=");
  if (tag == std::string_view::npos || alloc == std::string_view::npos) return false;
  Format("deepspeed");
  int rank = -1;
  const std::size_t rank_at = line.rfind("RANK=", tag);
  if (rank_at != std::string_view::npos) {
    double r = 0;
    std::size_t used = 0;
    if (scan::ReadNumber(line.substr(rank_at + 5), r, used) == NumberProblem::kNone && r < 1e7) {
      rank = static_cast<int>(r);
    }
  }
  struct Field {
    std::size_t from;  // where the field's part of the line starts
    std::string_view key;
    Metric metric;
    const char* source;
  };
  const Field fields[] = {
      {alloc, "current alloc=", Metric::kAllocated,
       "DeepSpeed memory_status 'current alloc' (GB = 2^30 B)"},
      {alloc, "max=", Metric::kMaxAllocated,
       "DeepSpeed memory_status 'max' allocated (GB = 2^30 B)"},
      {cache, "current cache=", Metric::kReserved,
       "DeepSpeed memory_status 'current cache' (GB = 2^30 B)"},
      {cache, "max=", Metric::kReserved, "DeepSpeed memory_status 'max' cache (GB = 2^30 B)"},
  };
  for (const Field& field : fields) {
    const std::string what = "DeepSpeed MEMSTATS '" + std::string(field.key) + "'";
    std::size_t at =
        field.from == std::string_view::npos ? field.from : line.find(field.key, field.from);
    // "max=" of the alloc part must come before "current cache".
    if (at != std::string_view::npos && field.from == alloc && cache != std::string_view::npos &&
        at > cache) {
      at = std::string_view::npos;
    }
    if (at == std::string_view::npos) {
      Skip(what + " is missing (the line may be cut short)");
      continue;
    }
    std::string_view rest = line.substr(at + field.key.size());
    double gib = 0;
    std::size_t used = 0;
    const NumberProblem problem = scan::ReadNumber(rest, gib, used);
    if (problem != NumberProblem::kNone) {
      Skip(NumberWhy(problem, what));
      continue;
    }
    if (!StartsWith(rest.substr(used), "GB")) {
      Skip(what + " has no 'GB' after the number (the line may be cut short)");
      continue;
    }
    Figure f;
    f.metric = field.metric;
    f.value = gib;
    f.unit = kGiB;
    f.rounding = scan::HalfLastDigit(kGiB, scan::PrintedDecimals(rest.substr(0, used)));
    f.rank = rank;
    f.source = field.source;
    Record(f);
  }
  return true;
}

namespace {

// The text after a key up to its number: spaces, then the quote of a value printed as a string
// ('7.89', newer transformers' log dicts) or numpy 2's np.float64( wrapper (verl).
std::string_view ValueAfterKey(std::string_view rest) {
  rest = Trim(rest);
  if (StartsWith(rest, "np.float64(")) rest.remove_prefix(11);
  if (StartsWith(rest, "'") || StartsWith(rest, "\"")) rest.remove_prefix(1);
  return rest;
}

// Bytes per unit of a word that starts with a binary unit ("GiB", "GB", "MiB", "MB", "KiB",
// "KB"; frameworks print 2^30 as GB), or 0.
std::int64_t UnitOf(std::string_view word) {
  return StartsWith(word, "GiB") || StartsWith(word, "GB")   ? kGiB
         : StartsWith(word, "MiB") || StartsWith(word, "MB") ? kMiB
         : StartsWith(word, "KiB") || StartsWith(word, "KB") ? kKiB
                                                             : 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Keyed figures
//
// Frameworks that print a memory figure as `key value [unit]` inside a line about something
// else. Each key is matched as printed (a letter or '_' before it means another key, so
// "MemAllocated=" is not found inside "MaxMemAllocated="); every unit is binary:
// - DeepSpeed's ThroughputTimer (deepspeed/utils/timer.py, every steps_per_print):
//   "MemAllocated={:.2f}GB, MaxMemAllocated={:.2f}GB", memory_allocated() / 1024**3.
// - torchtune (training/memory.py get_memory_stats, logged each step by its recipes):
//   "peak_memory_active:… peak_memory_alloc:… peak_memory_reserved:…", in GiB without a unit;
//   after model init log_memory_stats prints "GPU peak memory allocation: 4.98 GiB" (older
//   releases "GB", also 2^30).
// - NeMo 2 (the performance scripts' step line): "max_memory_reserved: <bytes> |
//   max_memory_allocated: <bytes>", raw bytes.
// - Colossal-AI's examples: "max memory usage: {:.2f} MB" / "Max CUDA memory usage: … MB",
//   max_memory_allocated() / 1024**2; "Booster init max CUDA memory: … MB" after init.
// - Trainer callbacks in the log dict: Liger-Kernel's EfficiencyCallback
//   ('step_/total_peak_memory_allocated_MB', '…_reserved_MB', 2^20) and optimum-habana's
//   GaudiTrainer ('memory_allocated (GB)', 'max_memory_allocated (GB)', to_gb_rounded: 2^30).
// - prime-rl's trainer step line (a torchtitan-derived RL trainer): "Peak Mem.: 7.8/23.7 GiB
//   (32.9%)", the peak against the device's total; max_memory_reserved since its PR #1126
//   (max_memory_allocated before), GiB.
// - A pair under one key, "Max Allocated / Max Reserved: 18706.66MB / 23816.00MB" (DeepSpeed's
//   see_memory_usage style printed by training scripts): the second figure is `second`.
// - verl's console step line ("step:N - … - perf/max_memory_allocated_gb:X -
//   perf/max_memory_reserved_gb:Y", verl/workers/fsdp_workers.py and megatron_workers.py:
//   max_memory_allocated() / 1024**3 after the actor update, never reset, the largest over the
//   actor ranks by reduce_metrics; numpy 2 prints the value as np.float64(Y)). In a colocated
//   run it also holds what the rollout engine allocated through torch.
// - axolotl's Trainer log dict (axolotl/utils/bench.py, rank 0, GiB): 'memory/max_active
//   (GiB)', 'memory/max_allocated (GiB)', 'memory/device_reserved (GiB)' (max_memory_reserved)
//   since 2025-08-27, reset after each log line; 'memory/max_mem_active(gib)', … and
//   'memory/max_memory_active', … in August 2025. On Ascend and MPS axolotl fills these keys
//   with other quantities (reserved printed as 0, no measurement here).
// - ms-swift's Trainer and Megatron-SWIFT dicts: 'memory(GiB)', the running maximum of
//   max_memory_reserved() / 1024**3 (swift/trainers/patcher.py; the Megatron one the largest
//   over the model-parallel group).
// - XTuner v1's step line, on every rank ("[XTuner][RANK r]… max_memory: 15.90 GB
//   reserved_memory: 17.87 GB"): max_memory_allocated / max_memory_reserved of that step, GiB
//   (xtuner/v1/train/trainer.py resets the peaks each step). Read only on an [XTuner] line.
// - Nanotron's log_memory ("Memory usage: aMiB. Peak allocated bMiB. Peak reserved: cMiB", and
//   "Peak allocated: bMiB" after model building), MiB, reset after each.
// - Notebooks' end-of-training cell (Unsloth's, copied by TRL's examples): "Peak reserved memory
//   = 6.576 GB." is max_memory_reserved() / 1024**3; "… for training =" is a difference and is
//   not read.
// - LLaMA-Factory's trainer_log.jsonl with RECORD_VRAM=1: "vram_allocated" / "vram_reserved",
//   max_memory_allocated / max_memory_reserved, GiB (extras/misc.py get_peak_memory).
// A value may be quoted: newer transformers' ProgressCallback prints every float of the log dict
// as a string of 4 significant digits ('total_peak_memory_reserved_MB': '4.717e+04'), whose
// rounding is then that of the 4th digit.
bool LogReader::KeyedFigures(std::string_view line) {
  struct Field {
    std::string_view key;
    Metric metric;
    std::int64_t unit;  // bytes per printed unit; 0: a unit word follows the number
    bool at_init;
    const char* format;
    const char* source;
    bool pair = false;  // a second figure, `second`, follows " / " under the same key
    Metric second = Metric::kReserved;
    std::string_view context = "";  // read only on a line holding this (a common key)
  };
  static constexpr Field kFields[] = {
      {"MaxMemAllocated=", Metric::kMaxAllocated, 0, false, "deepspeed",
       "DeepSpeed throughput timer 'MaxMemAllocated' (GB = 2^30 B)"},
      {"MemAllocated=", Metric::kAllocated, 0, false, "deepspeed",
       "DeepSpeed throughput timer 'MemAllocated' (GB = 2^30 B)"},
      {"peak_memory_reserved:", Metric::kReserved, kGiB, false, "torchtune",
       "torchtune step 'peak_memory_reserved' (GiB)"},
      {"peak_memory_alloc:", Metric::kMaxAllocated, kGiB, false, "torchtune",
       "torchtune step 'peak_memory_alloc' (GiB)"},
      {"peak_memory_active:", Metric::kActive, kGiB, false, "torchtune",
       "torchtune step 'peak_memory_active' (GiB)"},
      {"GPU peak memory reserved:", Metric::kReserved, 0, true, "torchtune",
       "torchtune 'GPU peak memory reserved' after model init"},
      {"GPU peak memory allocation:", Metric::kMaxAllocated, 0, true, "torchtune",
       "torchtune 'GPU peak memory allocation' after model init"},
      {"GPU peak memory active:", Metric::kActive, 0, true, "torchtune",
       "torchtune 'GPU peak memory active' after model init"},
      {"max_memory_reserved:", Metric::kReserved, 1, false, "nemo",
       "NeMo 2 step line 'max_memory_reserved' (bytes)"},
      {"max_memory_allocated:", Metric::kMaxAllocated, 1, false, "nemo",
       "NeMo 2 step line 'max_memory_allocated' (bytes)"},
      {"max memory usage:", Metric::kMaxAllocated, 0, false, "colossalai",
       "Colossal-AI 'max memory usage' (max_memory_allocated, MB = 2^20 B)"},
      {"Max CUDA memory usage:", Metric::kMaxAllocated, 0, false, "colossalai",
       "Colossal-AI 'Max CUDA memory usage' (max_memory_allocated, MB = 2^20 B)"},
      {"Booster init max CUDA memory:", Metric::kMaxAllocated, 0, true, "colossalai",
       "Colossal-AI 'Booster init max CUDA memory' (MB = 2^20 B)"},
      {"'total_peak_memory_reserved_MB':", Metric::kReserved, kMiB, false, "hf-trainer",
       "Trainer log 'total_peak_memory_reserved_MB' (Liger EfficiencyCallback, MiB)"},
      {"'step_peak_memory_reserved_MB':", Metric::kReserved, kMiB, false, "hf-trainer",
       "Trainer log 'step_peak_memory_reserved_MB' (Liger EfficiencyCallback, MiB)"},
      {"'total_peak_memory_allocated_MB':", Metric::kMaxAllocated, kMiB, false, "hf-trainer",
       "Trainer log 'total_peak_memory_allocated_MB' (Liger EfficiencyCallback, MiB)"},
      {"'step_peak_memory_allocated_MB':", Metric::kMaxAllocated, kMiB, false, "hf-trainer",
       "Trainer log 'step_peak_memory_allocated_MB' (Liger EfficiencyCallback, MiB)"},
      {"'max_memory_allocated (GB)':", Metric::kMaxAllocated, kGiB, false, "hf-trainer",
       "Trainer log 'max_memory_allocated (GB)' (optimum-habana, GB = 2^30 B)"},
      {"'memory_allocated (GB)':", Metric::kAllocated, kGiB, false, "hf-trainer",
       "Trainer log 'memory_allocated (GB)' (optimum-habana, GB = 2^30 B)"},
      {"Peak Mem.:", Metric::kReserved, 0, false, "prime-rl",
       "prime-rl step 'Peak Mem.' (max_memory_reserved since its PR #1126, GiB)"},
      {"Max Allocated / Max Reserved:", Metric::kMaxAllocated, 0, false, "script",
       "'Max Allocated / Max Reserved' (max_memory_allocated / max_memory_reserved, MB = 2^20 B)",
       true, Metric::kReserved},
      {"perf/max_memory_reserved_gb:", Metric::kReserved, kGiB, false, "verl",
       "verl step 'perf/max_memory_reserved_gb' (max_memory_reserved, largest actor rank, GiB)"},
      {"perf/max_memory_allocated_gb:", Metric::kMaxAllocated, kGiB, false, "verl",
       "verl step 'perf/max_memory_allocated_gb' (max_memory_allocated, largest actor rank, "
       "GiB)"},
      {"'memory/device_reserved (GiB)':", Metric::kReserved, kGiB, false, "axolotl",
       "axolotl log 'memory/device_reserved (GiB)' (max_memory_reserved, GiB)"},
      {"'memory/max_allocated (GiB)':", Metric::kMaxAllocated, kGiB, false, "axolotl",
       "axolotl log 'memory/max_allocated (GiB)' (max_memory_allocated, GiB)"},
      {"'memory/max_active (GiB)':", Metric::kActive, kGiB, false, "axolotl",
       "axolotl log 'memory/max_active (GiB)' (active_bytes.all.peak, GiB)"},
      {"'memory/device_mem_reserved(gib)':", Metric::kReserved, kGiB, false, "axolotl",
       "axolotl log 'memory/device_mem_reserved(gib)' (max_memory_reserved, GiB)"},
      {"'memory/max_mem_allocated(gib)':", Metric::kMaxAllocated, kGiB, false, "axolotl",
       "axolotl log 'memory/max_mem_allocated(gib)' (max_memory_allocated, GiB)"},
      {"'memory/max_mem_active(gib)':", Metric::kActive, kGiB, false, "axolotl",
       "axolotl log 'memory/max_mem_active(gib)' (active_bytes.all.peak, GiB)"},
      {"'memory/device_memory_reserved':", Metric::kReserved, kGiB, false, "axolotl",
       "axolotl log 'memory/device_memory_reserved' (max_memory_reserved, GiB)"},
      {"'memory/max_memory_allocated':", Metric::kMaxAllocated, kGiB, false, "axolotl",
       "axolotl log 'memory/max_memory_allocated' (max_memory_allocated, GiB)"},
      {"'memory/max_memory_active':", Metric::kActive, kGiB, false, "axolotl",
       "axolotl log 'memory/max_memory_active' (active_bytes.all.peak, GiB)"},
      {"'memory(GiB)':", Metric::kReserved, kGiB, false, "ms-swift",
       "ms-swift log 'memory(GiB)' (running max of max_memory_reserved, GiB; a device_map run "
       "sums or takes the largest of its devices, by version)"},
      {"max_memory:", Metric::kMaxAllocated, 0, false, "xtuner",
       "XTuner step 'max_memory' (max_memory_allocated of the step, GB = 2^30 B)", false,
       Metric::kReserved, "[XTuner]"},
      {"reserved_memory:", Metric::kReserved, 0, false, "xtuner",
       "XTuner step 'reserved_memory' (max_memory_reserved of the step, GB = 2^30 B)", false,
       Metric::kReserved, "[XTuner]"},
      {"Peak allocated:", Metric::kMaxAllocated, 0, false, "nanotron",
       "Nanotron 'Peak allocated' (max_memory_allocated, MiB)", false, Metric::kReserved,
       "Memory usage:"},
      {"Peak allocated ", Metric::kMaxAllocated, 0, false, "nanotron",
       "Nanotron 'Peak allocated' (max_memory_allocated, MiB)", false, Metric::kReserved,
       "Memory usage:"},
      {"Peak reserved:", Metric::kReserved, 0, false, "nanotron",
       "Nanotron 'Peak reserved' (max_memory_reserved, MiB)", false, Metric::kReserved,
       "Memory usage:"},
      {"Peak reserved memory =", Metric::kReserved, 0, false, "notebook",
       "notebook 'Peak reserved memory =' (max_memory_reserved, GB = 2^30 B)"},
      {"\"vram_reserved\":", Metric::kReserved, kGiB, false, "llamafactory",
       "LLaMA-Factory trainer_log 'vram_reserved' (max_memory_reserved, GiB)"},
      {"\"vram_allocated\":", Metric::kMaxAllocated, kGiB, false, "llamafactory",
       "LLaMA-Factory trainer_log 'vram_allocated' (max_memory_allocated, GiB)"},
  };
  bool found = false;
  for (const Field& field : kFields) {
    std::size_t at = line.find(field.key);
    while (at != std::string_view::npos && at > 0 &&
           (std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '_')) {
      at = line.find(field.key, at + 1);
    }
    if (at == std::string_view::npos) continue;
    if (!field.context.empty() && !Contains(line, field.context)) continue;
    found = true;
    Format(field.format);
    const std::string what = "'" + std::string(field.key) + "'";
    const std::string_view raw = Trim(line.substr(at + field.key.size()));
    const bool quoted = StartsWith(raw, "'") || StartsWith(raw, "\"");
    const std::string_view rest = ValueAfterKey(raw);
    double value = 0;
    std::size_t used = 0;
    const NumberProblem problem = scan::ReadNumber(rest, value, used);
    if (problem != NumberProblem::kNone) {
      Skip(NumberWhy(problem, what));
      continue;
    }
    std::int64_t unit = field.unit;
    std::string_view after = Trim(rest.substr(used));
    if (unit == 0) {
      // "7.8/23.7 GiB": the unit follows the device total the peak is set against.
      std::string_view word = after;
      double total = 0;
      std::size_t total_used = 0;
      if (!field.pair && StartsWith(word, "/") &&
          scan::ReadNumber(word.substr(1), total, total_used) == NumberProblem::kNone) {
        word = Trim(word.substr(1 + total_used));
      }
      unit = UnitOf(word);
      if (unit == 0) {
        Skip(what + " has no unit after the number (the line may be cut short)");
        continue;
      }
    }
    Figure f;
    f.metric = field.metric;
    f.value = value;
    f.unit = unit;
    // A quoted value in exponent form is transformers' f"{v:.4g}", which drops trailing zeros
    // ('5e+04' is 50,000 to 4 significant digits): its last digit is the 4th.
    const std::string_view printed = rest.substr(0, used);
    int places = scan::PrintedPlaces(printed);
    if (quoted && printed.find_first_of("eE") != std::string_view::npos)
      places += 3 - scan::PrintedDecimals(printed);
    f.rounding = scan::HalfLastDigit(unit, places);
    f.at_init = field.at_init;
    f.source = field.source;
    Record(f);
    if (!field.pair) continue;
    // The pair's second figure: past the first one's unit and the " / ".
    const std::size_t slash = after.find('/');
    double second = 0;
    std::size_t second_used = 0;
    const std::string_view tail =
        slash == std::string_view::npos ? "" : Trim(after.substr(slash + 1));
    const bool read = slash != std::string_view::npos &&
                      scan::ReadNumber(tail, second, second_used) == NumberProblem::kNone;
    const std::int64_t second_unit = read ? UnitOf(Trim(tail.substr(second_used))) : 0;
    if (second_unit == 0) {
      Skip(what + " holds one figure where it names two");
      continue;
    }
    Figure g = f;
    g.metric = field.second;
    g.value = second;
    g.unit = second_unit;
    g.rounding = scan::HalfLastDigit(g.unit, scan::PrintedDecimals(tail.substr(0, second_used)));
    Record(g);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Out-of-memory errors
// ---------------------------------------------------------------------------------------------

namespace {

// A size as c10's format_size prints it (c10/cuda/CUDACachingAllocator.cpp, also torch_npu's
// NPUCachingAllocator): "{n} bytes" up to 1024, else two decimals of "KiB" / "MiB" / "GiB".
bool ReadFormatSize(std::string_view rest, double& value, std::int64_t& unit, int& decimals) {
  std::size_t used = 0;
  if (scan::ReadNumber(rest, value, used) != NumberProblem::kNone) return false;
  decimals = scan::PrintedDecimals(rest.substr(0, used));
  const std::string_view u = Trim(rest.substr(used));
  if (StartsWith(u, "bytes")) {
    unit = 1;
  } else if (StartsWith(u, "KiB")) {
    unit = kKiB;
  } else if (StartsWith(u, "MiB")) {
    unit = kMiB;
  } else if (StartsWith(u, "GiB")) {
    unit = kGiB;
  } else {
    return false;
  }
  return true;
}

}  // namespace

// The caching allocator's out-of-memory error (c10/cuda/CUDACachingAllocator.cpp, malloc):
// since PyTorch 2.1 "CUDA out of memory. Tried to allocate {T}. GPU {n} has a total capacity
// of {C} of which {F} is free. [Including non-PyTorch memory, this process has {P} memory in
// use. ]Of the allocated memory {A} is allocated by PyTorch, [with {G} allocated in private
// pools (e.g., CUDA Graphs), ]and {U} is reserved by PyTorch but unallocated." — A counts the
// private pools, so reserved = A + U. Before 2.1, and in torch_npu ("NPU out of memory"):
// "Tried to allocate {T} (GPU {n}; {C} total capacity; {A} already allocated; [{X} current
// active; ]{F} free; {R} reserved in total by PyTorch)". Sizes are format_size's.
// The figures are what the run held when it failed: allocated A is the highest allocation it
// reached (compared as max allocated), R its reserved, P the whole process on the device.
bool LogReader::OutOfMemory(std::string_view line) {
  const std::size_t tried = line.find("Tried to allocate");
  if (tried == std::string_view::npos ||
      !(Contains(line, "out of memory") || Contains(line, "Out of memory"))) {
    return false;
  }
  Format("out-of-memory");
  // The size after `key`, or (before = true) the size just before it, which starts after the
  // previous ';', '(' or "and ".
  auto size_after = [&](std::string_view key, std::int64_t& bytes, std::int64_t& rounding,
                        bool before = false) {
    const std::size_t at = line.find(key, tried);
    if (at == std::string_view::npos) return false;
    double value = 0;
    std::int64_t unit = 0;
    int decimals = 0;
    if (before) {
      // "{A} already allocated": the size ends where the key starts; find its start.
      std::size_t start = line.find_last_of(";(", at);
      const std::size_t word = line.rfind("and ", at);
      if (word != std::string_view::npos && (start == std::string_view::npos || word > start)) {
        start = word + 3;
      }
      if (start == std::string_view::npos) return false;
      if (!ReadFormatSize(line.substr(start + 1, at - start - 1), value, unit, decimals)) {
        return false;
      }
    } else if (!ReadFormatSize(line.substr(at + key.size()), value, unit, decimals)) {
      return false;
    }
    rounding = unit == 1 ? 0 : scan::HalfLastDigit(unit, decimals);
    return scan::ToBytes(value, unit, bytes);
  };
  std::int64_t asked = 0, asked_rounding = 0;
  size_after("Tried to allocate", asked, asked_rounding);
  std::int64_t allocated = 0, allocated_rounding = 0, unallocated = 0, unallocated_rounding = 0;
  std::int64_t reserved = 0, reserved_rounding = 0, process = 0, process_rounding = 0;
  bool have_allocated = false, have_reserved = false, have_process = false;
  if (size_after("Of the allocated memory", allocated, allocated_rounding)) {
    have_allocated = true;
    // "… is allocated by PyTorch, [with … in private pools (e.g., CUDA Graphs), ]and {U} is
    // reserved by PyTorch but unallocated": U is the size before that last phrase.
    if (size_after(" is reserved by PyTorch but unallocated", unallocated, unallocated_rounding,
                   true)) {
      have_reserved = true;
      reserved = allocated + unallocated;
      reserved_rounding = allocated_rounding + unallocated_rounding;
    }
  } else if (size_after(" already allocated", allocated, allocated_rounding, true)) {
    have_allocated = true;
    have_reserved = size_after(" reserved in total by PyTorch", reserved, reserved_rounding, true);
  }
  have_process = size_after("this process has", process, process_rounding);
  if (!have_allocated && !have_reserved && !have_process) {
    Skip("out-of-memory error without readable figures (the line may be cut short)");
    return true;
  }
  // ToBytes refuses sizes past 4.6e18 bytes, so the sum stays below 2^63.
  const std::int64_t needed = have_allocated && asked > 0 ? allocated + asked : 0;
  oom_needed_ = std::max(oom_needed_, needed);
  const std::string device = Contains(line, "NPU out of memory") ? "NPU" : "GPU";
  auto record = [&](Metric metric, std::int64_t bytes, std::int64_t rounding, const char* what) {
    Figure f;
    f.metric = metric;
    f.value = static_cast<double>(bytes);
    f.unit = 1;
    f.rounding = rounding;
    f.source = std::string("out-of-memory error: ") + what + " when " + device + " memory ran out";
    Record(f);
  };
  if (have_allocated) record(Metric::kMaxAllocated, allocated, allocated_rounding, "allocated");
  if (have_reserved) record(Metric::kReserved, reserved, reserved_rounding, "reserved");
  if (have_process) {
    record(Metric::kDeviceUsed, process, process_rounding, "memory in use by the process");
  }
  if (!oom_noted_) {
    oom_noted_ = true;
    Note("The run ran out of device memory (line " + std::to_string(line_number_) +
         "): the figures are what it held when it failed, so it needed more" +
         (have_allocated && asked > 0
              ? ": at least " + FormatGiB(allocated + asked) + " allocated (" +
                    FormatGiB(allocated) + " held plus the " + FormatGiB(asked) +
                    " request that failed)."
              : "."));
  }
  return true;
}

}  // namespace detail

Result<Measurement> ReadLogText(std::string_view text) {
  detail::LogReader reader;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    reader.Line(text.substr(start, end - start));
    start = end + 1;
  }
  return reader.Finish();
}

}  // namespace trainmem::compare
