// Share link decoding. A link may be old, hand-edited or cut short: every key that can be read
// is kept, every key that cannot is reported under "#key", and the result is always a valid
// config.
//
// How an invalid combination is settled (each key may be fine alone, e.g. `tp=8` without `ws=8`):
//   1. the model and device are applied first, each kept only if the defaults stay valid with it;
//   2. every other key is applied in link order onto the running config JSON, kept if it reads
//      (right type, known value), reported and skipped if not;
//   3. the combination is validated once. If it fails, its errors are reported, then keys are
//      dropped until it validates: first a single key, trying the keys the errors point at (same
//      section; world_size and parallelism count as one) from the last to the first, then the
//      others; when no single key fixes it, the latest key pointed at is dropped and the search
//      repeats. Each dropped key is reported. Later keys go first because a link is usually
//      edited by appending.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/config_detail.h"
#include "core/presets.h"
#include "core/share_link.h"
#include "core/share_link_detail.h"

namespace trainmem {
namespace {

using nlohmann::json;

// Bounds on the work a hostile link can cause.
constexpr std::size_t kMaxLinkKeys = 256;
constexpr int kMaxSettleValidations = 2000;

struct Param {
  std::string key;
  std::string raw_value;  // still percent-encoded
  bool has_value = false;
};

struct AppliedKey {
  std::string key;
  std::string path;
  json value;
};

std::vector<Param> SplitParams(std::string_view fragment) {
  std::vector<Param> params;
  while (!fragment.empty()) {
    const std::size_t amp = fragment.find('&');
    const std::string_view token = fragment.substr(0, amp);
    if (!token.empty()) {
      const std::size_t eq = token.find('=');
      Param p;
      p.key = detail::SanitizeUtf8(detail::PercentDecode(token.substr(0, eq)));
      p.has_value = eq != std::string_view::npos;
      if (p.has_value) p.raw_value = std::string(token.substr(eq + 1));
      params.push_back(std::move(p));
    }
    if (amp == std::string_view::npos) break;
    fragment.remove_prefix(amp + 1);
  }
  return params;
}

bool IsVersionToken(const Param& p) {
  if (p.has_value || p.key.size() < 2 || p.key[0] != 'v') return false;
  return p.key.find_first_not_of("0123456789", 1) == std::string::npos;
}

// The link key that carries a config path, for error messages ("#tp", "#m.hidden_size").
std::string LinkKeyForPath(const std::string& path) {
  if (path.rfind("model.", 0) == 0)
    return "#" + std::string(detail::kModelFieldPrefix) + path.substr(6);
  for (const auto& [link_key, field] : detail::kDeviceLinkKeys) {
    if (path == std::string("device.") + field) return std::string("#") + link_key;
  }
  return "#" + ShortSettingKey(path);
}

std::string Section(const std::string& path) {
  const std::string section = path.substr(0, path.find('.'));
  return section == "world_size" ? "parallelism" : section;  // the layout spans both
}

class LinkDecoder {
 public:
  LinkDecoder(const Presets& presets, DecodedLink& link)
      : presets_(presets), link_(link), config_(DefaultConfigJson()) {}

  void Run(std::string_view fragment) {
    if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
    std::vector<Param> params = SplitParams(fragment);
    CheckVersion(params);
    if (params.size() > kMaxLinkKeys) {
      Report("#", "the link has more than " + std::to_string(kMaxLinkKeys) +
                      " keys; the rest are ignored");
      params.resize(kMaxLinkKeys);
    }
    std::vector<Param> settings = SortOut(params);
    ApplyPart("model", model_, model_fields_);
    ApplyPart("device", device_, device_fields_);
    base_ = config_;
    for (const Param& p : settings) ApplyKey(p);
    Settle();
  }

 private:
  void Report(std::string path, std::string message) {
    link_.errors.push_back({std::move(path), std::move(message)});
  }

  void CheckVersion(std::vector<Param>& params) {
    if (!params.empty() && IsVersionToken(params.front())) {
      const std::string version = params.front().key;
      params.erase(params.begin());
      if (version == "v1") return;
      Report("#", "unsupported link version '" + version +
                      "' (this build reads v1); reading the keys it knows");
      return;
    }
    Report("#",
           "unsupported link version: the link does not start with v1; reading the keys "
           "it knows");
  }

  // Takes out embed, the model and device keys and their fields; returns the other settings.
  std::vector<Param> SortOut(const std::vector<Param>& params) {
    std::vector<Param> settings;
    for (const Param& p : params) {
      const std::string value = detail::SanitizeUtf8(detail::PercentDecode(p.raw_value));
      if (p.key == "embed") {
        link_.embed = !p.has_value || (value != "0" && value != "false");
      } else if (p.key == "model") {
        model_ = value;
      } else if (p.key == "device") {
        device_ = value;
      } else if (p.key.rfind(detail::kModelFieldPrefix, 0) == 0) {
        model_fields_.emplace_back(p.key.substr(detail::kModelFieldPrefix.size()), value);
      } else if (!DeviceField(p.key, value)) {
        settings.push_back(p);
      }
    }
    return settings;
  }

  bool DeviceField(const std::string& key, const std::string& value) {
    for (const auto& [link_key, field] : detail::kDeviceLinkKeys) {
      if (key != link_key) continue;
      device_fields_.emplace_back(field, value);
      return true;
    }
    return false;
  }

  // The model or device: a preset id, or "custom" plus fields, or a preset edited by fields.
  // Kept only if the config stays valid with it, so later keys see a sound base.
  void ApplyPart(const char* key, const std::optional<std::string>& id,
                 const std::vector<std::pair<std::string, std::string>>& fields) {
    if (!id && fields.empty()) return;
    const std::string link_key = std::string("#") + key;
    json value = id ? json(*id) : json();
    if (!fields.empty()) {
      const bool custom = !id || *id == "custom";
      json object = custom ? json::object() : detail::PresetFields(key, *id, presets_);
      // A non-object here is an unknown preset id: reading `value` below reports it.
      if (object.is_object()) {
        for (const auto& [field, text] : fields) {
          const json* current = detail::FindJsonPath(object, field);
          json field_value = detail::ValueFromText(text, current ? *current : json());
          detail::SetJsonPath(object, field, std::move(field_value), presets_);
        }
        value = std::move(object);
      }
    } else if (*id == "custom") {
      Report(link_key, std::string(key) + "=custom needs its fields in the link");
      return;
    }
    json candidate = config_;
    candidate[key] = std::move(value);
    Result<Config> read = detail::ReadConfigJson(candidate, presets_, true);
    if (!read.ok()) {
      for (const Error& e : read.errors()) Report(LinkKeyForPath(e.path), e.message);
      return;
    }
    config_ = std::move(candidate);
  }

  void ApplyKey(const Param& p) {
    const std::string link_key = "#" + p.key;
    if (!p.has_value) return Report(link_key, "missing value (expected key=value)");
    const std::string path = ResolveSettingKey(p.key);
    const json* current = detail::FindJsonPath(config_, path);
    json value = detail::ValueFromText(detail::PercentDecode(p.raw_value),
                                       current != nullptr ? *current : json());
    json candidate = config_;
    const std::string problem = detail::SetJsonPath(candidate, path, value, presets_);
    if (!problem.empty()) return Report(link_key, problem);
    Result<Config> read = detail::ReadConfigJson(candidate, presets_, false);
    if (!read.ok()) {
      for (const Error& e : read.errors()) {
        Report(link_key, e.path == path ? e.message : FormatError(e));
      }
      return;
    }
    config_ = std::move(candidate);
    // A repeated key overrides the earlier one, which then has no part in the result.
    for (auto it = applied_.begin(); it != applied_.end(); ++it) {
      if (it->path != path) continue;
      applied_.erase(it);
      break;
    }
    applied_.push_back({p.key, path, std::move(value)});
  }

  json Rebuild(const std::vector<bool>& keep) const {
    json j = base_;
    for (std::size_t i = 0; i < applied_.size(); ++i) {
      if (keep[i]) detail::SetJsonPath(j, applied_[i].path, applied_[i].value, presets_);
    }
    return j;
  }

  std::vector<Error> Problems(const std::vector<bool>& keep) const {
    Result<Config> read = detail::ReadConfigJson(Rebuild(keep), presets_, true);
    return read.ok() ? std::vector<Error>{} : read.errors();
  }

  // Greedy, latest key first; `budget` caps the validations a hostile link can cause, after
  // which every key the errors point at goes at once.
  std::vector<bool> DropUntilValid(std::vector<Error> problems) const {
    std::vector<bool> keep(applied_.size(), true);
    int budget = kMaxSettleValidations;
    while (!problems.empty()) {
      std::vector<std::size_t> pointed_at, others;
      for (std::size_t i = applied_.size(); i-- > 0;) {
        if (!keep[i]) continue;
        bool hit = false;
        for (const Error& e : problems) hit = hit || Section(e.path) == Section(applied_[i].path);
        (hit ? pointed_at : others).push_back(i);
      }
      if (pointed_at.empty() && others.empty()) break;
      for (const auto* group : {&pointed_at, &others}) {
        for (std::size_t i : *group) {
          if (budget-- <= 0) break;
          keep[i] = false;
          if (Problems(keep).empty()) return keep;
          keep[i] = true;
        }
      }
      // No single key fixes it: drop the latest key the errors point at and look again.
      if (pointed_at.empty()) pointed_at.push_back(others.front());
      if (budget > 0) pointed_at.resize(1);
      for (std::size_t i : pointed_at) keep[i] = false;
      problems = Problems(keep);
    }
    return keep;
  }

  void Settle() {
    Result<Config> full = detail::ReadConfigJson(config_, presets_, true);
    if (full.ok()) {
      link_.config = std::move(full).value();
      return;
    }
    for (const Error& e : full.errors()) Report(LinkKeyForPath(e.path), e.message);
    const std::vector<bool> keep = DropUntilValid(full.errors());
    for (std::size_t i = 0; i < applied_.size(); ++i) {
      if (!keep[i])
        Report("#" + applied_[i].key, "not applied: it conflicts with the rest of the link");
    }
    Result<Config> settled = detail::ReadConfigJson(Rebuild(keep), presets_, true);
    if (!settled.ok()) settled = detail::ReadConfigJson(DefaultConfigJson(), presets_, true);
    link_.config = settled.ok() ? std::move(settled).value() : Config{};
  }

  const Presets& presets_;
  DecodedLink& link_;
  json config_;  // the running config: always reads, and validates until step 3
  json base_;    // defaults + model + device, what the dropped-key search rebuilds from
  std::optional<std::string> model_, device_;
  std::vector<std::pair<std::string, std::string>> model_fields_, device_fields_;
  std::vector<AppliedKey> applied_;
};

}  // namespace

DecodedLink DecodeShareFragment(std::string_view fragment, const Presets& presets) {
  DecodedLink link;
  LinkDecoder(presets, link).Run(fragment);
  return link;
}

}  // namespace trainmem
