// Share link decoding. A link may be old, hand-edited or cut short: every key that can be read
// is kept, every key that cannot is reported under its own link key ("tp", "dev.gib") in the
// link's words, with what the key expects, and the result is always a valid config. A v1 link
// starts from v1's frozen defaults (share_link_v1.cpp).
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

#include "core/config/config_detail.h"
#include "core/input_limits.h"
#include "core/link/share_link.h"
#include "core/link/share_link_detail.h"
#include "core/model/presets.h"

namespace trainmem {
namespace {

using nlohmann::json;

// Bounds on the work a hostile link can cause.
constexpr std::size_t kMaxLinkKeys = 256;
constexpr int kMaxSettleValidations = 2000;

struct Param {
  std::string key;        // percent-decoded (PercentDecodeText)
  std::string raw_value;  // still percent-encoded
  std::string token;      // "key=value" as written, for a key that cannot be named
  bool has_value = false;
  bool bad_encoding = false;  // the key's escapes do not decode to text, or a '%' is stray
};

struct AppliedKey {
  std::string key;
  std::string path;
  json value;
  std::string raw;  // as written in the link, percent-encoded
};

std::vector<Param> SplitParams(std::string_view fragment) {
  std::vector<Param> params;
  while (!fragment.empty()) {
    const std::size_t amp = fragment.find('&');
    const std::string_view token = fragment.substr(0, amp);
    if (!token.empty()) {
      const std::size_t eq = token.find('=');
      Param p;
      const std::string_view raw_key = token.substr(0, eq);
      p.key = detail::PercentDecodeText(raw_key);
      // Decoding text leaves '%' only where the link's escapes were not text.
      p.bad_encoding = p.key.find('%') != std::string::npos;
      p.token = detail::PercentDecodeText(token);
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

// The link key that carries a config path, for error messages ("tp", "m.hidden_size").
std::string LinkKeyForPath(const std::string& path) {
  if (path.rfind("model.", 0) == 0) return std::string(detail::kModelFieldPrefix) + path.substr(6);
  for (const auto& [link_key, field] : detail::kDeviceLinkKeys) {
    if (path == std::string("device.") + field) return link_key;
  }
  return ShortSettingKey(path);
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.';
}

// Replaces whole words `from` by `to` ("tensor_parallel_degree 3" → "tp 3").
void ReplaceWord(std::string& text, const std::string& from, const std::string& to) {
  std::size_t at = 0;
  while ((at = text.find(from, at)) != std::string::npos) {
    const bool starts = at == 0 || !IsNameChar(text[at - 1]);
    const std::size_t end = at + from.size();
    const bool ends = end == text.size() || !IsNameChar(text[end]) ||
                      (text[end] == '.' && (end + 1 == text.size() || text[end + 1] == ' '));
    if (starts && ends) {
      text.replace(at, from.size(), to);
      at += to.size();
    } else {
      at = end;
    }
  }
}

// "tp=7: …; tp expects …". An enum's own message already lists the values it takes.
std::string WithExpectation(const std::string& key, const std::string& message) {
  const std::string expects = LinkKeyExpects(key);
  std::string out = InLinkWords(message);
  if (!expects.empty() && out.find("valid values") == std::string::npos)
    out += " (" + key + " expects " + expects + ")";
  return out;
}

// The short keys, for a link that names an unknown one.
std::string KnownKeys() {
  std::string out;
  for (const SettingAlias& a : SettingAliases())
    out += (out.empty() ? "" : ", ") + std::string(a.alias);
  return "links have " + out + ", dev.*, m.*, embed and lang";
}

std::string Section(const std::string& path) {
  const std::string section = path.substr(0, path.find('.'));
  return section == "world_size" ? "parallelism" : section;  // the layout spans both
}

class LinkDecoder {
 public:
  LinkDecoder(const Presets& presets, DecodedLink& link)
      : presets_(presets), link_(link), config_(detail::V1LinkBase()) {}

  void Run(std::string_view fragment) {
    if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
    std::vector<Param> params = SplitParams(fragment);
    CheckVersion(params);
    if (params.size() > kMaxLinkKeys) {
      Report("", "the link has more than " + std::to_string(kMaxLinkKeys) +
                     " keys; the rest are ignored");
      params.resize(kMaxLinkKeys);
    }
    std::vector<Param> settings = SortOut(params);
    ApplyPart("model", model_, model_fields_);
    ApplyPart("device", device_, device_fields_);
    base_ = config_;
    for (const Param& p : settings) ApplyKey(p);
    KeepTheCurrentSelectiveOption(settings);
    Settle();
  }

 private:
  // The encoder leaves acopt out where it means nothing (AC not selective): such a link gets
  // today's default option rather than v1's "2", so it opens to the config it came from and
  // switching to selective on the page starts from the current default.
  void KeepTheCurrentSelectiveOption(const std::vector<Param>& settings) {
    for (const Param& p : settings)
      if (ResolveSettingKey(p.key) == "activation_checkpoint.selective_ac_option") return;
    json& ac = config_["activation_checkpoint"];
    if (ac.value("mode", "") != "selective")
      ac["selective_ac_option"] = ActivationCheckpoint{}.selective_ac_option;
  }

  // `key` is the link's key, empty for the link as a whole.
  // A key repeated with the same fault is reported once: a link of 256 copies of one unknown
  // key gives one line, not 256 (at most kMaxLinkKeys reports, so the scan stays small).
  // `about` is the key whose expectation the message ends with, when not `key` itself (a key
  // dropped because of another degree: "pp: 8 was not applied …: ep 64 must divide …" ends with
  // what ep expects).
  void Report(std::string key, const std::string& message, const std::string& about = "") {
    std::string text =
        key.empty() ? message : WithExpectation(about.empty() ? key : about, message);
    for (const Error& e : link_.errors) {
      if (e.path == key && e.message == text) return;
    }
    link_.errors.push_back({std::move(key), std::move(text)});
  }

  // Read as the link says, but worth knowing (a key given twice): the verdict stands.
  void Warn(const std::string& key, const std::string& message) {
    for (const Error& e : link_.warnings) {
      if (e.path == key && e.message == message) return;
    }
    link_.warnings.push_back({key, message});
  }

  void CheckVersion(std::vector<Param>& params) {
    if (!params.empty() && IsVersionToken(params.front())) {
      const std::string version = params.front().key;
      params.erase(params.begin());
      if (version == "v1") return;
      Report("", "this link is version '" + version +
                     "', this page reads v1; the keys it knows were read");
      return;
    }
    Report("", "the link does not start with v1 (its version); the keys it knows were read");
  }

  // Takes out embed, the model and device keys and their fields; returns the other settings.
  std::vector<Param> SortOut(const std::vector<Param>& params) {
    std::vector<Param> settings;
    // Each key's first value, by what it sets: a key given twice is named ("b=2&b=4"), and the
    // last value is used, as the page would when a key is appended to its link.
    std::vector<std::pair<std::string, std::string>> seen;
    for (const Param& p : params) {
      const std::string value = detail::PercentDecodeText(p.raw_value);
      if (p.key.empty()) {
        Report("", "\"" + p.token + "\" has no key name (links write key=value)");
        continue;
      }
      if (p.has_value && !p.bad_encoding && p.key != "m") {
        const std::string what = ResolveSettingKey(p.key);
        bool repeated = false;
        for (auto& [path, first] : seen) {
          if (path != what) continue;
          repeated = true;
          Warn(p.key,
               "given twice (" + first + ", then " + value + "); the last, " + value + ", is used");
          first = value;
        }
        if (!repeated) seen.emplace_back(what, value);
      }
      if (p.key == "embed") {
        link_.embed = !p.has_value || (value != "0" && value != "false");
      } else if (p.key == "lang") {
        link_.lang = value;
      } else if (p.key == "m") {
        link_.page_keys.emplace_back(p.key, value);
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
    const std::string link_key = key;
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
    const std::string& link_key = p.key;
    if (p.bad_encoding)
      return Report(link_key, "is not valid percent-encoding, and not a key of trainmem links");
    const std::string path = ResolveSettingKey(p.key);
    const json* current = detail::FindJsonPath(config_, path);
    if (current == nullptr) current = detail::FindJsonPath(detail::V1LaterKeys(), path);
    if (current == nullptr ||
        (path == p.key && path.find('.') == std::string::npos && current->is_object())) {
      return Report(link_key, "is not a key of trainmem links (" + KnownKeys() + ")");
    }
    if (!p.has_value) return Report(link_key, "has no value (write " + p.key + "=…)");
    json value = detail::ValueFromText(detail::PercentDecodeText(p.raw_value),
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
    applied_.push_back({p.key, path, std::move(value), p.raw_value});
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
    // Each dropped key is reported with its own reason: what fails when it alone is added back
    // to the keys kept (the error naming its setting, else its section, else the first); if
    // none was dropped (nothing to drop), the reasons themselves.
    const std::vector<bool> keep = DropUntilValid(full.errors());
    auto reason_for = [&](std::size_t i) {
      std::vector<bool> with = keep;
      with[i] = true;
      std::vector<Error> problems = Problems(with);
      if (problems.empty()) problems = full.errors();
      for (const Error& e : problems)
        if (e.path == applied_[i].path) return e;
      for (const Error& e : problems)
        if (Section(e.path) == Section(applied_[i].path)) return e;
      return problems.front();
    };
    // The hint names the degree the reason is about: the key itself, unless the reason is
    // another key's (world_size's divisibility is the key's own).
    auto hint_for = [&](std::size_t i, const Error& reason) {
      if (reason.path.empty() || reason.path == applied_[i].path || reason.path == "world_size")
        return std::string();
      return LinkKeyForPath(reason.path);
    };
    bool dropped = false;
    for (std::size_t i = 0; i < applied_.size(); ++i) {
      if (keep[i]) continue;
      dropped = true;
      const Error reason = reason_for(i);
      Report(applied_[i].key,
             detail::PercentDecodeText(applied_[i].raw) +
                 " was not applied, it does not fit the rest of the link: " + reason.message,
             hint_for(i, reason));
    }
    if (!dropped) {
      for (const Error& e : full.errors()) Report(LinkKeyForPath(e.path), e.message);
    }
    Result<Config> settled = detail::ReadConfigJson(Rebuild(keep), presets_, true);
    if (!settled.ok()) settled = detail::ReadConfigJson(detail::V1LinkBase(), presets_, true);
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

// A core message in the link's vocabulary (share_link.h): config key names become the link's
// short keys ("parallelism.tensor_parallel_degree" and "tensor_parallel_degree" → "tp"). Only
// leaf names that say what they are (with an underscore) and belong to one alias are replaced,
// so "mode" or "offload" stay words.
std::string InLinkWords(std::string message) {
  const std::vector<SettingAlias>& aliases = SettingAliases();
  for (const SettingAlias& a : aliases) {
    if (std::string_view(a.path).find('.') != std::string_view::npos)
      ReplaceWord(message, a.path, a.alias);
  }
  for (const SettingAlias& a : aliases) {
    const std::string path = a.path;
    const std::string leaf = path.substr(path.rfind('.') + 1);
    if (leaf.find('_') == std::string::npos || leaf == a.alias) continue;
    int owners = 0;
    for (const SettingAlias& b : aliases) {
      const std::string other = b.path;
      if (other.substr(other.rfind('.') + 1) == leaf) ++owners;
    }
    if (owners == 1) ReplaceWord(message, leaf, a.alias);
  }
  // Short forms the core's messages use for two degrees.
  ReplaceWord(message, "dp_replicate", "dpr");
  ReplaceWord(message, "dp_shard", "dp");
  return message;
}

std::string LinkKeyExpects(std::string_view key) {
  // One line per key a v1 link can hold, in the link's words.
  static const std::pair<const char*, const char*> kExpects[] = {
      {"model", "a model preset id such as llama3-8b, or custom with m.* fields"},
      {"device", "a device preset id such as h100-80gb, or custom with dev.name and dev.gib"},
      {"mode", "detailed or template"},
      {"fw", "torchtitan, torchtitan-npu, megatron, deepspeed or torchtune"},
      {"ws", "the number of devices, a whole number from 1 to 1048576"},
      {"b", "the local batch size per device, a whole number from 1"},
      {"s", "the sequence length in tokens, a whole number from 1"},
      {"prec", "bfloat16, float16 or float32"},
      {"fp8", "1 or 0"},
      {"fp4", "the decoder blocks (from the first) with NVFP4 linears: 0, up to the layers, or -1"},
      {"attn", "flash, sdpa or eager"},
      {"dropout", "a probability from 0 to 1, or null for the framework's default"},
      {"chunks", "the number of loss chunks, a whole number from 1 up to s"},
      {"mtp", "1 or 0"},
      {"lora", "the LoRA rank, a whole number from 0 (every weight trains) to 65536"},
      {"compile", "1 or 0"},
      {"compile.components", "a comma-separated list of model and loss"},
      {"dpr", "the data-parallel replicas, a whole number from 1"},
      {"dp", "the FSDP degree, a whole number from 1, or -1 for the devices left over"},
      {"tp", "the tensor-parallel degree, a whole number from 1 that divides ws and the heads"},
      {"pp", "the pipeline-parallel degree, a whole number from 1 up to the layers"},
      {"cp", "the context-parallel degree, a whole number from 1"},
      {"ep", "the expert-parallel degree, a whole number that divides the experts"},
      {"etp", "the expert tensor-parallel degree, 1 or tp"},
      {"mbs", "the pipeline microbatch size, a whole number that divides b"},
      {"sched", "1F1B, Interleaved1F1B, GPipe or ZeroBubble"},
      {"lps", "the layers per pipeline stage, 0 for an even split"},
      {"sp", "1 or 0"},
      {"zero", "a ZeRO stage from 0 to 3, or null"},
      {"reshard", "default, always or never (FSDP reshard after forward)"},
      {"epcomm", "standard, deepep, hybridep or minimal_async_ep (torchtitan's EP dispatcher)"},
      {"ac", "none, selective or full"},
      {"acopt", "op, or a whole number k (every k-th block)"},
      {"rnl", "with ac=full, the blocks recomputed per pipeline stage: 0 (all) up to the layers"},
      {"acoff", "1 or 0"},
      {"opt",
       "AdamW, Adam, SGD, Lion, Adafactor, AdamW8bit, PagedAdamW8bit, PagedAdamW, AdamW4bit, "
       "Lion8bit, Muon, Shampoo or SOAP"},
      {"osd", "float32, bfloat16 or int8"},
      {"optimizer.momentum", "a number from 0 to 1"},
      {"swap", "1 or 0"},
      {"swapn", "the number of swap slices, a whole number from 1"},
      {"ebw", "1 or 0"},
      {"ooff", "1 or 0"},
      {"tmp", "a share from 0 to 1 (0.1 = 10 %)"},
      {"budget", "a share above 0, at most 1 (0.95 = 95 %)"},
      {"dev.name", "the custom device's name"},
      {"dev.gib", "the custom device's memory in GiB, a number above 0"},
      {"dev.per_node", "devices per node, a whole number from 1"},
      {"embed", "1 for the compact card, 0 for the full page"},
      {"lang", "en or zh"},
  };
  for (const auto& [link_key, expects] : kExpects) {
    if (key == link_key) return expects;
  }
  if (key.rfind(detail::kModelFieldPrefix, 0) == 0)
    return "a value for the custom model's Hugging Face config.json field " +
           std::string(key.substr(detail::kModelFieldPrefix.size()));
  return "";
}

std::string LinkKeyConfigPath(std::string_view key) {
  if (key.rfind(detail::kModelFieldPrefix, 0) == 0)
    return "model." + std::string(key.substr(detail::kModelFieldPrefix.size()));
  for (const auto& [link_key, field] : detail::kDeviceLinkKeys) {
    if (key == link_key) return std::string("device.") + field;
  }
  return ResolveSettingKey(key);
}

DecodedLink DecodeShareFragment(std::string_view fragment, const Presets& presets) {
  DecodedLink link;
  // An oversized link is refused whole (before percent-decoding): the defaults, and why.
  const std::optional<Error> too_large = CheckInputSize(fragment, kMaxFragmentBytes, "");
  LinkDecoder(presets, link).Run(too_large ? std::string_view("v1") : fragment);
  if (too_large) {
    link.errors.push_back({"", "the link " + too_large->message});
    link.refused = true;
  }
  return link;
}

}  // namespace trainmem
