// The line-by-line log reader shared by log_reader.cpp (framework lines) and
// log_reader_tables.cpp (memory_summary, nvidia-smi, npu-smi tables).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/compare/measurement.h"
#include "core/compare/text_scan.h"

namespace trainmem::compare::detail {

// One figure as printed: value × unit bytes.
struct Figure {
  Metric metric = Metric::kReserved;
  double value = 0;
  std::int64_t unit = 1;
  std::int64_t rounding = 0;
  int rank = -1;  // -1: the line's launcher prefix decides
  bool at_init = false;
  std::string source;
};

class LogReader {
 public:
  void Line(std::string_view raw);
  Result<Measurement> Finish();

 private:
  static constexpr std::size_t kMaxPeaks = 1 << 16;
  static constexpr std::size_t kMaxSkippedKept = 20;
  static constexpr std::size_t kMaxLineBytes = 1 << 16;

  void Record(const Figure& figure);
  void RecordSmiUsed(std::string_view rest, const char* what, const char* source);
  bool RecordPrinted(std::string_view rest, const std::string& what, Metric metric, double unit,
                     int rank, const char* source);
  void Skip(const std::string& why);
  void Format(const char* name);
  void Note(const std::string& note);
  void Count();
  static std::string NumberWhy(scan::NumberProblem problem, std::string_view what);

  bool Mmengine(std::string_view line);
  bool Torchtitan(std::string_view line);
  bool TorchtitanFigure(std::string_view rest, bool at_init);
  bool TorchtitanMetricNames(std::string_view line);
  bool Megatron(std::string_view line);
  void MegatronReport(std::string_view report);
  bool MindSpeedFsdp(std::string_view line);
  bool DeepSpeed(std::string_view line);
  bool DeepSpeedMemStats(std::string_view line);
  bool KeyedFigures(std::string_view line);
  bool OutOfMemory(std::string_view line);
  bool MemorySummary(std::string_view line);
  bool NvidiaSmiTable(std::string_view line);
  bool NvidiaSmiCsv(std::string_view line);
  bool NvidiaSmiQuery(std::string_view line);
  bool NpuSmi(std::string_view line);

  std::map<std::tuple<int, int, bool>, Peak> peaks_;  // (metric, rank, at_init)
  std::vector<std::string> formats_;
  std::vector<std::string> notes_;
  std::vector<Error> skipped_;
  std::int64_t skipped_count_ = 0;
  std::int64_t line_number_ = 0;
  std::int64_t lines_used_ = 0;
  bool used_line_ = false;
  int rank_ = -1;       // the current line's launcher rank
  std::string clean_;   // the current line without colour codes, when it had some
  std::string unbold_;  // the current line without markdown bold (**…**), when it had some

  // Table state carried from one line to the next.
  int summary_device_ = -1;      // "memory summary, device ID N"
  int smi_gpu_ = -1;             // nvidia-smi: the GPU row above the memory row
  bool smi_fb_section_ = false;  // nvidia-smi -q: inside "FB Memory Usage"
  bool smi_fb_xml_ = false;      // nvidia-smi -q -x: inside <fb_memory_usage>
  bool smi_mig_ = false;         // nvidia-smi: inside the "MIG devices:" table
  int csv_column_ = -1;          // nvidia-smi --query-gpu csv: the memory.used column
  std::int64_t csv_unit_ = 0;    // from the header, "memory.used [MiB]"
  int csv_row_ = 0;
  bool npu_header_ = false;  // npu-smi: the "HBM-Usage(MB)" header was seen
  int npu_id_ = -1;
  bool oom_noted_ = false;        // the out-of-memory note is given once
  std::int64_t oom_needed_ = -1;  // allocated + request, largest over the errors; -1: no error
};

}  // namespace trainmem::compare::detail
