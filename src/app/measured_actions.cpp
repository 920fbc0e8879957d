// Reading a run's measurement into the page and keeping it beside the estimate: files and
// pasted text through the core's readers, the link's `m=…`, the #measured DOM mirror.
#include "app/measured_actions.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/app_actions.h"
#include "app/words/i18n.h"
#include "core/compare/measured_link.h"
#include "core/link/share_link.h"
#include "platform/platform.h"

namespace app {

namespace compare = trainmem::compare;

namespace {

constexpr const char* kLinkKey = "m";

// Writes the link with the page keys as they are now (the URL and localStorage, after the
// frame, as every other edit does).
void RewriteLink(AppState& state) {
  const std::string fragment = LinkFragment(state);
  const std::string url_fragment = state.embed ? fragment + "&embed=1" : fragment;
  state.pending_fragment = url_fragment == state.written_fragment ? "" : url_fragment;
  if (!state.embed) state.pending_storage = fragment;
}

void SetLinkValue(AppState& state, const std::string& value) {
  auto& keys = state.link_page_keys;
  for (auto it = keys.begin(); it != keys.end();) {
    it = it->first == kLinkKey ? keys.erase(it) : it + 1;
  }
  if (!value.empty()) keys.emplace_back(kLinkKey, value);
  state.measured.link_value_read = value;
}

}  // namespace

void PublishMeasuredMirror(AppState& state) {
  MeasuredView& v = state.measured;
  nlohmann::json mirror = {{"measured", v.has_measurement}, {"inputs", v.input_names}};
  nlohmann::json errors = nlohmann::json::array();
  for (const trainmem::Error& e : v.errors) errors.push_back(trainmem::FormatError(e));
  mirror["errors"] = errors;
  mirror["link"] = v.link_value_read;
  mirror["config_changes"] = v.has_measurement ? v.config_changes : std::vector<std::string>{};
  if (v.has_measurement && v.compared_for != 0) {
    mirror["comparison"] = compare::ComparisonToJson(v.comparison);
    // The sentence and notes as the card shows them, in the page's language.
    nlohmann::json notes = nlohmann::json::array();
    for (const std::string& n : v.comparison.notes) notes.push_back(TrCore(n));
    mirror["shown"] = {{"sentence", TrCore(v.comparison.sentence)}, {"notes", notes}};
  }
  std::string text = mirror.dump();
  if (text == v.published) return;
  v.published = std::move(text);
  platform::SetMeasuredMirror(v.published);
}

namespace {

void UseMeasurement(AppState& state, compare::Measurement measurement,
                    std::vector<std::string> names, bool from_link) {
  MeasuredView& v = state.measured;
  v.measurement = std::move(measurement);
  v.has_measurement = true;
  v.input_names = std::move(names);
  v.compared_for = 0;
  v.open_requested = true;
  // Measured with the config on the page (a link's measurement: the link's config, set by
  // LoadFragment).
  if (!from_link) v.config_link = trainmem::EncodeShareFragment(state.config);
  if (!from_link) {
    SetLinkValue(state, compare::EncodeMeasuredLinkValue(v.measurement));
    RewriteLink(state);
    ShowFeedback(state, Tr(Str::kFeedbackMeasured));
  }
  RequestFrames(state);
}

}  // namespace

void ClearMeasurement(AppState& state) {
  MeasuredView& v = state.measured;
  v.has_measurement = false;
  v.measurement = {};
  v.comparison = {};
  v.errors.clear();
  v.input_names.clear();
  v.paste.clear();
  SetLinkValue(state, "");
  RewriteLink(state);
  PublishMeasuredMirror(state);
  RequestFrames(state);
}

// A link opened with `m=…` (or a new one via hashchange) shows its measurement once.
void ReadLinkMeasurement(AppState& state) {
  MeasuredView& v = state.measured;
  std::string value;
  for (const auto& [key, text] : state.link_page_keys) {
    if (key == kLinkKey) value = text;
  }
  if (value == v.link_value_read) return;
  v.link_value_read = value;
  if (value.empty()) return;
  trainmem::Result<compare::Measurement> read = compare::DecodeMeasuredLinkValue(value);
  if (!read.ok()) {
    v.errors = read.errors();
    return;
  }
  v.errors = read.value().skipped;
  UseMeasurement(state, std::move(read).value(), {"the link"}, true);
}

namespace {

// "v1&model=llama3-8b&ws=8&b=2" → its key=value pairs after the version.
std::vector<std::pair<std::string, std::string>> LinkPairs(const std::string& link) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::size_t start = link.find('&');
  while (start != std::string::npos) {
    const std::size_t end = link.find('&', start + 1);
    const std::string item =
        link.substr(start + 1, end == std::string::npos ? end : end - start - 1);
    const std::size_t eq = item.find('=');
    if (eq != std::string::npos) pairs.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    start = end;
  }
  return pairs;
}

std::string ValueOf(const std::vector<std::pair<std::string, std::string>>& pairs,
                    const std::string& key) {
  for (const auto& [k, v] : pairs)
    if (k == key) return v;
  return "";
}

// How `now` differs from the measured config's link, a "key old → new" per changed link key.
std::vector<std::string> ConfigChanges(const std::string& measured, const std::string& now) {
  std::vector<std::string> changes;
  if (measured.empty() || now == measured) return changes;
  const std::string& config_link = measured;
  const auto before = LinkPairs(config_link);
  const auto after = LinkPairs(now);
  std::vector<std::string> keys;
  for (const auto* side : {&before, &after})
    for (const auto& [k, value] : *side)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  // A key a link leaves out holds v1's default ("b 2 → 8" when b is back at the default 8); a
  // key with no default to name is shown as "·".
  for (const std::string& k : keys) {
    const std::string a = ValueOf(before, k), b = ValueOf(after, k);
    if (a == b) continue;
    const std::string fallback = trainmem::LinkKeyDefault(k);
    const auto shown = [&](const std::string& v) {
      return !v.empty() ? v : !fallback.empty() ? fallback : std::string("·");
    };
    changes.push_back(k + " " + shown(a) + " → " + shown(b));
  }
  return changes;
}

}  // namespace

void RestoreMeasuredConfig(AppState& state) {
  const auto decoded = trainmem::DecodeShareFragment(state.measured.config_link, state.presets);
  if (!decoded.errors.empty()) return;
  UseConfig(state, decoded.config);
}

void RefreshMeasuredComparison(AppState& state) {
  MeasuredView& v = state.measured;
  if (!v.has_measurement || v.compared_for == state.config_version) return;
  v.comparison = compare::CompareWithEstimate(state.estimate, v.measurement);
  v.config_changes = ConfigChanges(v.config_link, trainmem::EncodeShareFragment(state.config));
  v.compared_for = state.config_version;
}

void ReadMeasurementFiles(AppState& state, const std::vector<platform::File>& files) {
  std::vector<compare::Measurement> parts;
  std::vector<std::string> names;
  std::vector<trainmem::Error> errors;
  for (const platform::File& file : files) {
    trainmem::Result<compare::Measurement> read = compare::ReadMeasurement(file.text, file.name);
    if (!read.ok()) {
      errors.insert(errors.end(), read.errors().begin(), read.errors().end());
      continue;
    }
    parts.push_back(std::move(read).value());
    names.push_back(file.name);
  }
  if (!parts.empty()) {
    UseMeasurement(state, compare::MergeMeasurements(parts), std::move(names), false);
  }
  state.measured.errors = std::move(errors);
  state.measured.open_requested = true;
  RefreshMeasuredComparison(state);
  PublishMeasuredMirror(state);
  RequestFrames(state);
}

}  // namespace app
