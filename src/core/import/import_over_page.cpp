// Importing over the job a page shows (import.h, KeepPageValues): what the files do not state
// keeps the page's value.
#include <algorithm>
#include <string>
#include <vector>

#include "core/config/config_detail.h"
#include "core/import/import.h"

namespace trainmem {
namespace {

using nlohmann::json;

// The keys a page keeps, in the order they are tried: the model first (the layout's divisors
// depend on it), then where it runs, then the job's size, then its checkpointing (kept whole
// unless the files state any of it).
constexpr const char* kKeptKeys[] = {"model",
                                     "device",
                                     "framework",
                                     "world_size",
                                     "training.local_batch_size",
                                     "training.seq_len",
                                     "activation_checkpoint"};

// The files state `key` (or a field below it: "model.hidden_size"); a value the importer filled
// in itself ("(default)") is not stated.
bool Stated(const ImportReport& report, const std::string& key) {
  for (const ImportRead& r : report.read) {
    const bool same = r.key == key || (r.key.size() > key.size() && r.key.rfind(key, 0) == 0 &&
                                       r.key[key.size()] == '.');
    if (same && !(r.file.empty() && r.source == "(default)")) return true;
  }
  return false;
}

ImportMissing* MissingEntry(ImportReport& report, const std::string& key) {
  for (ImportMissing& m : report.missing)
    if (m.key == key) return &m;
  return nullptr;
}

// The import listed the config's errors among its problems (import.cpp); a value kept from the
// page may have cured them (the model of a script that sources its model flags from a file not
// given), so the list names the errors of the config kept, not those it had before.
void RelistConfigErrors(ImportReport& report, const std::vector<Error>& errors) {
  std::vector<std::string>& problems = report.problems;
  problems.erase(
      std::remove_if(problems.begin(), problems.end(),
                     [](const std::string& p) { return p.rfind(kConfigProblemPrefix, 0) == 0; }),
      problems.end());
  for (const Error& e : errors) problems.push_back(kConfigProblemPrefix + FormatError(e));
}

}  // namespace

std::vector<KeptValue> KeepPageValues(ImportResult& result, const json& page,
                                      const Presets& presets) {
  std::vector<KeptValue> kept;
  if (!page.is_object()) return kept;
  ImportReport& report = result.report;
  json config = result.config;
  std::size_t errors = 0;
  {
    const Result<Config> parsed = ConfigFromJson(config, presets);
    errors = parsed.ok() ? 0 : parsed.errors().size();
  }
  for (const std::string key : kKeptKeys) {
    if (Stated(report, key)) continue;
    const json* mine = detail::FindJsonPath(page, key);
    if (mine == nullptr || mine->is_null()) continue;
    const json* theirs = detail::FindJsonPath(config, key);
    if (theirs != nullptr && *theirs == *mine) continue;
    ImportMissing* missing = MissingEntry(report, key);
    if (key == "framework") {
      // torchtitan-npu runs torchtitan's job files: a page on it stays on it. Any other
      // framework the files did not name is torchtitan's files' own.
      if (!(theirs != nullptr && *theirs == "torchtitan" && *mine == "torchtitan-npu")) continue;
    }
    // The files hint at the value (a comment's "for 32 H100 GPUs", torch_npu): theirs. A
    // comment's "H100" is a hint too, though it names the default device.
    if (missing != nullptr && missing->hinted) continue;
    if (key == "device" && missing != nullptr && missing->assumed.is_string() &&
        missing->assumed != kDefaultDeviceId)
      continue;
    json candidate = config;
    if (!detail::SetJsonPath(candidate, key, *mine, presets).empty()) continue;
    const Result<Config> parsed = ConfigFromJson(candidate, presets);
    const std::size_t candidate_errors = parsed.ok() ? 0 : parsed.errors().size();
    if (candidate_errors > errors) continue;  // the files' layout cannot take the page's value
    kept.push_back({key, *mine, theirs != nullptr ? *theirs : json()});
    config = std::move(candidate);
    errors = candidate_errors;
    if (missing != nullptr) {
      missing->assumed = *mine;
      missing->why = "not stated in the files; the page's value is kept";
    }
  }
  if (kept.empty()) return kept;
  result.config = std::move(config);
  const Result<Config> parsed = ConfigFromJson(result.config, presets);
  result.config_valid = parsed.ok();
  result.config_errors = parsed.ok() ? std::vector<Error>{} : parsed.errors();
  RelistConfigErrors(report, result.config_errors);
  return kept;
}

}  // namespace trainmem
