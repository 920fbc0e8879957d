// The page's measurement (panel_measured.cpp): what was pasted, dropped or carried by the
// link's `m=…`, read by the core's compare readers and compared with the current estimate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/compare/compare.h"
#include "core/compare/measurement.h"
#include "core/result.h"

namespace app {

struct MeasuredView {
  std::string paste;  // the "Paste a log" text area
  bool has_measurement = false;
  trainmem::compare::Measurement measurement;
  std::vector<std::string> input_names;  // files or "pasted text", "share link"
  std::vector<trainmem::Error> errors;   // why the last input was not read
  trainmem::compare::Comparison comparison;
  std::uint64_t compared_for = 0;  // config_version of `comparison`; 0 = stale
  std::string link_value_read;     // the link's m=… last decoded (to read a new one once)
  // The config's share link when the measurement came in: the job that was measured. Once the
  // config differs the comparison is greyed, the changes are named and links leave m=… out.
  std::string config_link;
  // How the config differs from config_link, a "key old → new" per changed link key ("b 2 → 8");
  // empty when it is the same config. Computed with `comparison`.
  std::vector<std::string> config_changes;
  std::string published;        // what #measured's data-json holds now
  bool open_requested = false;  // open the section on the next frame
};

}  // namespace app
