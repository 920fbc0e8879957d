// Table readers: torch.cuda.memory_summary() / torch_npu's, nvidia-smi and npu-smi.
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/compare/log_reader_detail.h"
#include "core/compare/text_scan.h"

namespace trainmem::compare::detail {

using scan::Contains;
using scan::kGiB;
using scan::kKiB;
using scan::kMiB;
using scan::NumberProblem;
using scan::StartsWith;
using scan::Trim;

namespace {

// What a device-level figure (nvidia-smi, npu-smi) holds besides the framework's allocator.
constexpr char kWholeDeviceNote[] =
    "nvidia-smi and npu-smi count the whole device: the runtime context, communication buffers "
    "and other processes besides the framework's allocator.";

std::vector<std::string_view> SplitBars(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t bar = line.find('|', start);
    if (bar == std::string_view::npos) {
      fields.push_back(line.substr(start));
      return fields;
    }
    fields.push_back(line.substr(start, bar - start));
    start = bar + 1;
  }
}

// A small non-negative integer at the start of `s` (after spaces), or -1.
int LeadingInt(std::string_view s) {
  s = Trim(s);
  long value = 0;
  std::size_t i = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && value < 100000) {
    value = value * 10 + (s[i] - '0');
    ++i;
  }
  return i == 0 ? -1 : static_cast<int>(value);
}

// memory_summary's size units. torch/cuda/memory.py _format_size uses "B", "KiB", "MiB",
// "GiB", "TiB", "PiB", each 1024 times the last (older releases and torch_npu printed "KB",
// "MB", "GB" for the same powers of 1024).
std::int64_t SummaryUnit(std::string_view unit) {
  unit = Trim(unit);
  if (unit == "B") return 1;
  if (unit == "KiB" || unit == "KB") return kKiB;
  if (unit == "MiB" || unit == "MB") return kMiB;
  if (unit == "GiB" || unit == "GB") return kGiB;
  if (unit == "TiB" || unit == "TB") return kGiB * 1024;
  return 0;
}

// A PCI bus id as nvidia-smi ("00000000:18:00.0") and npu-smi ("0000:C1:00.0") print it.
bool LooksLikeBusId(std::string_view s) {
  s = Trim(s);
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon < 4 || colon > 8) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  const std::size_t dot = s.find('.', colon);
  return dot != std::string_view::npos && dot == colon + 6 && s[colon + 3] == ':';
}

bool HasLetter(std::string_view s) {
  for (char c : s) {
    if (std::isalpha(static_cast<unsigned char>(c))) return true;
  }
  return false;
}

}  // namespace

// torch/cuda/memory.py, memory_summary(): a table headed "PyTorch CUDA memory summary, device
// ID {n}" whose rows are " {name:<21} | {current} | {peak} | {total allocated} | {total
// freed} " framed by '|'. Sizes come from _format_size(sz, pref_sz): the unit steps up (sz
// floor-divided by 1024) while the row's "all" figure of that column is at least 768 × 1024
// of the current unit, printed "{sz:6d} {unit}" with unit "B  ", "KiB", "MiB", "GiB", "TiB",
// "PiB" — so 60 GiB prints as "61440 MiB". Rows read here: "Allocated memory" (peak =
// max_memory_allocated), "Active memory" (peak active), "GPU reserved memory" ("NPU reserved
// memory" in torch_npu; peak = max_memory_reserved). "Requested memory" (bytes asked for,
// before the allocator's rounding) and "Non-releasable memory" are not compared.
bool LogReader::MemorySummary(std::string_view line) {
  const std::size_t header = line.find("memory summary, device ID");
  if (header != std::string_view::npos) {
    summary_device_ = LeadingInt(line.substr(header + 25));
    Format("memory_summary");
    return true;
  }
  const std::string_view trimmed = Trim(line);
  if (!StartsWith(trimmed, "|")) return false;
  const std::vector<std::string_view> fields = SplitBars(trimmed);
  if (fields.size() < 4) return false;
  const std::string_view name = Trim(fields[1]);
  Metric metric;
  if (name == "Allocated memory") {
    metric = Metric::kMaxAllocated;
  } else if (name == "Active memory") {
    metric = Metric::kActive;
  } else if (name.size() > 16 && name.substr(name.size() - 15) == "reserved memory" &&
             name.find(' ') == name.size() - 16) {
    metric = Metric::kReserved;  // "GPU reserved memory", "NPU reserved memory"
  } else {
    return false;
  }
  Format("memory_summary");
  const std::string_view peak = fields[3];
  double value = 0;
  std::size_t used = 0;
  const std::string what = "memory_summary '" + std::string(name) + "' peak";
  const NumberProblem problem = scan::ReadNumber(peak, value, used);
  if (problem != NumberProblem::kNone) {
    Skip(NumberWhy(problem, what));
    return true;
  }
  const std::int64_t unit = SummaryUnit(peak.substr(used));
  if (unit == 0) {
    Skip(what + " has no size unit (B, KiB, MiB, GiB)");
    return true;
  }
  Figure f;
  f.metric = metric;
  f.value = value;
  f.unit = unit;
  f.rounding = unit;  // floor division: the true figure is up to one unit above
  f.source = "memory_summary() '" + std::string(name) + "' peak column" +
             (summary_device_ >= 0 ? ", device " + std::to_string(summary_device_) : "");
  Record(f);
  return true;
}

// nvidia-smi's default table: under a GPU row "|   3  NVIDIA H100 80GB HBM3   On | …" the
// next row holds "| N/A 34C P0 118W / 700W |  78543MiB / 81559MiB | …". MiB = 2^20 bytes. The
// figure is everything on the device: the CUDA context, NCCL buffers and other processes
// besides PyTorch's allocator.
//
// With MIG, a "MIG devices:" table follows: per instance a row "| gpu gi ci mig | used / total
// | …" and under it a row with an empty first cell holding BAR1-Usage ("4MiB / 32767MiB"),
// which is not device memory and is passed over. "Processes:" ends that table.
bool LogReader::NvidiaSmiTable(std::string_view line) {
  const std::string_view trimmed = Trim(line);
  if (Contains(trimmed, "MIG devices")) {
    smi_mig_ = true;
    Format("nvidia-smi");
    return true;
  }
  if (Contains(trimmed, "Processes:")) smi_mig_ = false;
  if (!StartsWith(trimmed, "|")) return false;
  const std::vector<std::string_view> fields = SplitBars(trimmed);
  if (fields.size() < 3) return false;
  const std::string_view memory = Trim(fields[2]);
  if (smi_mig_ && Trim(fields[1]).empty() && Contains(memory, "MiB")) return true;  // BAR1
  if (!Contains(memory, "MiB") || !Contains(memory, "/")) {
    // A GPU row: "index  name  persistence | bus id  display | ECC". Names vary with the
    // driver ("NVIDIA H100 80GB HBM3", "Tesla V100-SXM2-32GB", "A100-SXM4-80GB"): the bus id
    // in the second cell identifies the row (npu-smi's chip rows have no name, only digits).
    const std::string_view first = Trim(fields[1]);
    const int index = LeadingInt(first);
    if (index >= 0 && fields.size() >= 4 && LooksLikeBusId(fields[2]) && HasLetter(first)) {
      smi_gpu_ = index;
      Format("nvidia-smi");
      return true;
    }
    return false;
  }
  double mib = 0;
  std::size_t used = 0;
  const NumberProblem problem = scan::ReadNumber(memory, mib, used);
  if (problem != NumberProblem::kNone || Trim(memory.substr(used)).substr(0, 3) != "MiB") {
    Skip(NumberWhy(problem == NumberProblem::kNone ? NumberProblem::kMissing : problem,
                   "nvidia-smi memory usage"));
    return true;
  }
  Format("nvidia-smi");
  Figure f;
  f.metric = Metric::kDeviceUsed;
  f.value = mib;
  f.unit = kMiB;
  f.rounding = kMiB / 2;
  f.source = std::string(smi_mig_ ? "nvidia-smi MIG device memory used (MiB)"
                                  : "nvidia-smi memory used (MiB)") +
             (smi_gpu_ >= 0 ? ", GPU " + std::to_string(smi_gpu_) : std::string());
  smi_gpu_ = -1;  // the next memory row belongs to the next GPU row
  Record(f);
  Note(kWholeDeviceNote);
  return true;
}

// nvidia-smi -q: per GPU a section "    FB Memory Usage" with lines "        Total  : 81559 MiB",
// "Reserved : …", "Used : 78543 MiB", "Free : …"; "BAR1 Memory Usage" and "Conf Compute
// Protected Memory Usage" sections follow with their own "Used" lines, which are not the
// device's memory.
//
// nvidia-smi -q -x writes the same as XML: <fb_memory_usage> … <used>78543 MiB</used> …
// </fb_memory_usage> (bar1_memory_usage has its own <used>).
// nvidia-smi -q's "Used : N MiB" and -q -x's "<used>N MiB</used>": whole MiB, the device's
// memory in use.
void LogReader::RecordSmiUsed(std::string_view rest, const char* what, const char* source) {
  double mib = 0;
  std::size_t used = 0;
  const NumberProblem problem = scan::ReadNumber(rest, mib, used);
  if (problem != NumberProblem::kNone || !StartsWith(Trim(rest.substr(used)), "MiB")) {
    Skip(NumberWhy(problem == NumberProblem::kNone ? NumberProblem::kMissing : problem, what));
    return;
  }
  Figure f;
  f.metric = Metric::kDeviceUsed;
  f.value = mib;
  f.unit = kMiB;
  f.rounding = kMiB / 2;
  f.source = source;
  Record(f);
  Note(kWholeDeviceNote);
}

bool LogReader::NvidiaSmiQuery(std::string_view line) {
  const std::string_view trimmed = Trim(line);
  if (StartsWith(trimmed, "<")) {
    if (StartsWith(trimmed, "<fb_memory_usage>")) {
      smi_fb_xml_ = true;
      Format("nvidia-smi");
      return true;
    }
    if (StartsWith(trimmed, "</fb_memory_usage>")) smi_fb_xml_ = false;
    if (!smi_fb_xml_ || !StartsWith(trimmed, "<used>")) return false;
    RecordSmiUsed(trimmed.substr(6), "nvidia-smi -q -x <fb_memory_usage><used>",
                  "nvidia-smi -q -x fb_memory_usage used (MiB)");
    return true;
  }
  if (Contains(trimmed, "Memory Usage")) {
    smi_fb_section_ = StartsWith(trimmed, "FB Memory Usage");
    if (smi_fb_section_) Format("nvidia-smi");
    return smi_fb_section_;
  }
  if (!smi_fb_section_) return false;
  if (!StartsWith(trimmed, "Used")) {
    // Another key of the section, or the section ended.
    if (!(StartsWith(trimmed, "Total") || StartsWith(trimmed, "Reserved") ||
          StartsWith(trimmed, "Free"))) {
      smi_fb_section_ = false;
    }
    return false;
  }
  smi_fb_section_ = false;
  const std::size_t colon = trimmed.find(':');
  if (colon == std::string_view::npos) return false;
  RecordSmiUsed(trimmed.substr(colon + 1), "nvidia-smi -q FB Memory Usage 'Used'",
                "nvidia-smi -q FB Memory Usage 'Used' (MiB)");
  return true;
}

// nvidia-smi --query-gpu=…,memory.used --format=csv: a header naming "memory.used [MiB]"
// (absent with noheader: then MiB, nvidia-smi's unit), then one row per GPU.
bool LogReader::NvidiaSmiCsv(std::string_view line) {
  auto split = [](std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = s.find(',', start);
      out.push_back(
          Trim(s.substr(start, comma == std::string_view::npos ? s.npos : comma - start)));
      if (comma == std::string_view::npos) return out;
      start = comma + 1;
    }
  };
  if (Contains(line, "memory.used")) {
    const std::vector<std::string_view> columns = split(line);
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (!StartsWith(columns[i], "memory.used")) continue;
      csv_column_ = static_cast<int>(i);
      csv_unit_ = Contains(columns[i], "[MiB]") || !Contains(columns[i], "[") ? kMiB : 0;
      csv_row_ = 0;
      if (csv_unit_ == 0) Skip("nvidia-smi csv: unknown unit in '" + std::string(columns[i]) + "'");
      Format("nvidia-smi");
      return true;
    }
    return false;
  }
  if (csv_column_ < 0 || csv_unit_ == 0) return false;
  const std::vector<std::string_view> cells = split(line);
  if (static_cast<int>(cells.size()) <= csv_column_) {
    csv_column_ = -1;  // the table ended
    return false;
  }
  double mib = 0;
  std::size_t used = 0;
  const NumberProblem problem = scan::ReadNumber(cells[csv_column_], mib, used);
  if (problem != NumberProblem::kNone) {
    if (problem == NumberProblem::kMissing) {
      csv_column_ = -1;
      return false;
    }
    Skip(NumberWhy(problem, "nvidia-smi csv memory.used"));
    return true;
  }
  Figure f;
  f.metric = Metric::kDeviceUsed;
  f.value = mib;
  f.unit = csv_unit_;
  f.rounding = kMiB / 2;
  f.source = "nvidia-smi --query-gpu memory.used (MiB), row " + std::to_string(csv_row_++);
  Record(f);
  Note(kWholeDeviceNote);
  return true;
}

// `npu-smi info`: the header "| Chip | Bus-Id | AICore(%) Memory-Usage(MB) HBM-Usage(MB) |",
// then per NPU a row "| 0  910B3 | OK | power temp hugepages |" and a chip row
// "| 0 | 0000:C1:00.0 | 0   0 / 0   3161 / 65536 |" whose last "used / total" pair is the
// HBM. Its "MB" are MiB: a 64 GB 910B shows 65536 (presets/devices/ascend-910b.json). Like
// nvidia-smi it counts the CANN runtime and HCCL buffers besides torch_npu's allocator.
bool LogReader::NpuSmi(std::string_view line) {
  if (Contains(line, "HBM-Usage(MB)") ||
      (Contains(line, "Memory-Usage(MB)") && Contains(line, "Bus-Id"))) {
    npu_header_ = true;
    Format("npu-smi");
    return true;
  }
  if (!npu_header_) return false;
  const std::string_view trimmed = Trim(line);
  if (!StartsWith(trimmed, "|")) return false;
  const std::vector<std::string_view> fields = SplitBars(trimmed);
  if (fields.size() < 4) return false;
  const bool chip_row = LooksLikeBusId(fields[2]);
  if (!chip_row) {
    const int id = LeadingInt(fields[1]);
    if (id >= 0) npu_id_ = id;
    return false;
  }
  const std::string_view usage = fields[3];
  const std::size_t slash = usage.rfind('/');
  if (slash == std::string_view::npos) {
    Skip("npu-smi chip row without a 'used / total' memory pair");
    return true;
  }
  std::size_t begin = usage.find_last_not_of(' ', slash == 0 ? 0 : slash - 1);
  while (begin != std::string_view::npos && begin > 0 && usage[begin - 1] != ' ') --begin;
  double mb = 0;
  std::size_t used = 0;
  const NumberProblem problem = begin == std::string_view::npos
                                    ? NumberProblem::kMissing
                                    : scan::ReadNumber(usage.substr(begin), mb, used);
  if (problem != NumberProblem::kNone) {
    Skip(NumberWhy(problem, "npu-smi HBM usage"));
    return true;
  }
  Figure f;
  f.metric = Metric::kDeviceUsed;
  f.value = mb;
  f.unit = kMiB;
  f.rounding = kMiB / 2;
  f.source = "npu-smi info HBM-Usage (MB = 2^20 B)" +
             (npu_id_ >= 0 ? ", NPU " + std::to_string(npu_id_) : std::string());
  Record(f);
  Note(kWholeDeviceNote);
  return true;
}

}  // namespace trainmem::compare::detail
