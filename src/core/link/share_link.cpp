// Share links: `v1&model=llama3-8b&tp=8&…`, the config as a URL fragment. Encoding is here,
// decoding in share_link_decode.cpp.
//
// [SECTION] Text: percent-encoding, link values
// [SECTION] Encode: keys that differ from v1's frozen defaults, aliases first
//
// A custom model is `model=custom&m.<HF field>=…`, a custom device
// `device=custom&dev.name=…&dev.gib=…[&dev.per_node=…]`. Config booleans are 1/0 and config
// lists comma-joined (the schema says which keys are which); m.* fields have no schema here, so
// their booleans stay true/false and their lists JSON, which read back unambiguously.

#include "core/link/share_link.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/config/config_detail.h"
#include "core/link/share_link_detail.h"

namespace trainmem {
namespace {

using nlohmann::json;

// [SECTION] Text ------------------------------------------------------------------------------

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

std::string LinkValue(const json& value, bool config_key) {
  if (value.is_boolean() && config_key) return value.get<bool>() ? "1" : "0";
  if (value.is_string()) {
    // An m.* / dev.* field has no schema to say it is a string: text the decoder would read
    // back as something else (hidden_act "0.1" as a number, "true", "[1]", " x " trimmed) is
    // written JSON-quoted, which reads back as the string (found by fuzz_link's round trip).
    // The decoder's own ValueFromText decides, so the two cannot disagree.
    const std::string& text = value.get_ref<const std::string&>();
    const bool ambiguous = !config_key && detail::ValueFromText(text, json()) != value;
    return detail::PercentEncode(ambiguous ? detail::Dump(value) : text);
  }
  if (value.is_array() && config_key) {
    std::string out;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const json& item = value[i];
      if (i > 0) out += ',';
      out += detail::PercentEncode(item.is_string() ? item.get<std::string>() : detail::Dump(item));
    }
    return out;
  }
  return detail::PercentEncode(detail::Dump(value));
}

void Flatten(const json& object, const std::string& prefix,
             std::vector<std::pair<std::string, json>>& out) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object() && !it->empty()) {
      Flatten(*it, key, out);
    } else {
      out.emplace_back(key, *it);
    }
  }
}

// [SECTION] Encode ----------------------------------------------------------------------------

void AppendModel(const json& model, std::string& out) {
  if (model.is_string()) {
    out += "&model=" + detail::PercentEncode(model.get_ref<const std::string&>());
    return;
  }
  out += "&model=custom";
  std::vector<std::pair<std::string, json>> fields;
  Flatten(model, "", fields);
  for (const auto& [key, value] : fields) {
    out += "&" + std::string(detail::kModelFieldPrefix) + detail::PercentEncode(key) + "=" +
           LinkValue(value, false);
  }
}

void AppendDevice(const json& device, const json& default_device, std::string& out) {
  if (device == default_device) return;
  if (device.is_string()) {
    out += "&device=" + detail::PercentEncode(device.get_ref<const std::string&>());
    return;
  }
  out += "&device=custom";
  for (const auto& [link_key, field] : detail::kDeviceLinkKeys) {
    auto it = device.find(field);
    if (it == device.end()) continue;
    // Most nodes hold 8 devices: the common case stays out of the link.
    if (std::string_view(field) == "devices_per_node" && *it == 8) continue;
    out += std::string("&") + link_key + "=" + LinkValue(*it, false);
  }
}

// Aliased keys in the alias table's order, then the rest by path: stable, readable links.
std::size_t LinkOrder(const std::string& path) {
  const std::vector<SettingAlias>& aliases = SettingAliases();
  for (std::size_t i = 0; i < aliases.size(); ++i) {
    if (path == aliases[i].path) return i;
  }
  return aliases.size();
}

}  // namespace

namespace detail {

std::string PercentEncode(std::string_view text) {
  std::string out;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c)) {
      out += ch;
    } else {
      char buffer[4];
      std::snprintf(buffer, sizeof buffer, "%%%02X", static_cast<unsigned>(c));
      out += buffer;
    }
  }
  return out;
}

std::string PercentEncodePageValue(std::string_view text) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ':' && text[i] != ',' && text[i] != '@') continue;
    out += PercentEncode(text.substr(start, i - start));
    if (i < text.size()) out += text[i];
    start = i + 1;
  }
  return out;
}

std::string PercentDecode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexValue(text[i + 1]) >= 0 &&
        HexValue(text[i + 2]) >= 0) {
      out += static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string PercentDecodeText(std::string_view text) {
  const std::string bytes = PercentDecode(text);
  std::string out;
  std::size_t i = 0;
  while (i < bytes.size()) {
    char32_t code_point = 0;
    const std::size_t length = Utf8SequenceAt(bytes, i, code_point);
    if (length > 0) {
      out.append(bytes, i, length);
      i += length;
      continue;
    }
    // Not UTF-8: written as an escape, as the link had it (a raw byte becomes one).
    char buffer[4];
    std::snprintf(buffer, sizeof buffer, "%%%02X", static_cast<unsigned char>(bytes[i]));
    out += buffer;
    ++i;
  }
  return out;
}

}  // namespace detail

std::string EncodeShareFragment(const Config& config) {
  json current = ConfigToJson(config);
  // Frozen: a key v1 knew is left out only when it has v1's default; a key v1 did not know is
  // always written (its default may still change).
  json defaults = detail::V1LinkDefaults();
  std::string out = "v1";
  AppendModel(current["model"], out);
  AppendDevice(current["device"], defaults["device"], out);
  for (const char* key : {"model", "device", "version"}) {
    current.erase(key);
    defaults.erase(key);
  }
  // The selective option means something only for selective AC: elsewhere it is left out, so
  // links of full or no checkpointing do not carry the option whose default changed after v1
  // ("2" → "op").
  if (current["activation_checkpoint"]["mode"] != "selective")
    current["activation_checkpoint"]["selective_ac_option"] =
        defaults["activation_checkpoint"]["selective_ac_option"];
  std::vector<std::pair<std::string, json>> values;
  Flatten(current, "", values);
  std::stable_sort(values.begin(), values.end(), [](const auto& a, const auto& b) {
    return LinkOrder(a.first) < LinkOrder(b.first);
  });
  for (const auto& [path, value] : values) {
    const json* default_value = detail::FindJsonPath(defaults, path);
    if (default_value != nullptr && *default_value == value) continue;
    out += "&" + ShortSettingKey(path) + "=" + LinkValue(value, true);
  }
  return out;
}

std::string LinkKeyDefault(std::string_view key) {
  const json defaults = detail::V1LinkDefaults();
  if (key == "model" || key == "device") {
    const json& value = defaults[std::string(key)];
    if (value.is_string()) return value.get<std::string>();
    return key == "model" ? kDefaultModelId : kDefaultDeviceId;
  }
  const std::string path = LinkKeyConfigPath(key);
  const json* value = detail::FindJsonPath(defaults, path);
  if (value == nullptr) value = detail::FindJsonPath(detail::V1LaterKeys(), path);
  if (value == nullptr || value->is_object()) return "";
  return LinkValue(*value, path.rfind("model.", 0) != 0 && path.rfind("device.", 0) != 0);
}

std::string ShareUrl(const Config& config, std::string_view base) {
  std::string url(base.empty() ? std::string_view("index.html") : base);
  const std::size_t hash = url.find('#');
  if (hash != std::string::npos) url.erase(hash);
  return url + "#" + EncodeShareFragment(config);
}

}  // namespace trainmem
