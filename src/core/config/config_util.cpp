// Small text and JSON helpers behind the config reader, ApplySetting and share links.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config_detail.h"
#include "core/input_limits.h"
#include "core/model/model.h"
#include "core/model/presets.h"

namespace trainmem {
namespace detail {
namespace {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

}  // namespace

json PresetFields(std::string_view section, const std::string& id, const Presets& presets) {
  if (section == "model") {
    const ModelPreset* preset = presets.FindModel(id);
    return preset != nullptr ? ModelArchToJson(preset->arch) : json();
  }
  if (section == "device") {
    const DevicePreset* preset = presets.FindDevice(id);
    if (preset == nullptr) return json();
    return json{{"name", preset->name},
                {"memory_gib", preset->memory_gib},
                {"devices_per_node", preset->devices_per_node}};
  }
  return json();
}

std::string JsonTypeName(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::string:
      return "a string";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    case json::value_t::number_float:
      return "a number";
    case json::value_t::array:
      return "a list";
    case json::value_t::object:
      return "an object";
    default:
      return "an unsupported value";
  }
}

std::string Dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

void SanitizeJsonStrings(json& value) {
  if (value.is_string()) {
    value = SanitizeUtf8(value.get_ref<const std::string&>());
  } else if (value.is_array()) {
    for (json& item : value) SanitizeJsonStrings(item);
  } else if (value.is_object()) {
    json clean = json::object();
    for (auto& [key, item] : value.items()) {
      SanitizeJsonStrings(item);
      clean[SanitizeUtf8(key)] = std::move(item);
    }
    value = std::move(clean);
  }
}

std::size_t Utf8SequenceAt(std::string_view text, std::size_t i, char32_t& code_point) {
  const auto lead = static_cast<unsigned char>(text[i]);
  // Sequence length from the lead byte; overlong and surrogate forms are rejected below.
  const std::size_t length = lead < 0x80           ? 1
                             : (lead >> 5) == 0x6  ? 2
                             : (lead >> 4) == 0xE  ? 3
                             : (lead >> 3) == 0x1E ? 4
                                                   : 0;
  bool valid = length > 0 && i + length <= text.size();
  for (std::size_t k = 1; valid && k < length; ++k) {
    valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
  }
  if (valid && length > 1) {
    const auto second = static_cast<unsigned char>(text[i + 1]);
    valid = !(lead == 0xC0 || lead == 0xC1 || (lead == 0xE0 && second < 0xA0) ||
              (lead == 0xED && second >= 0xA0) || (lead == 0xF0 && second < 0x90) ||
              (lead == 0xF4 && second >= 0x90) || lead > 0xF4);
  }
  if (!valid) return 0;
  const unsigned char lead_bits[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  code_point = lead & lead_bits[length];
  for (std::size_t k = 1; k < length; ++k)
    code_point = (code_point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  return length;
}

std::string SanitizeUtf8(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    char32_t code_point = 0;
    const std::size_t length = Utf8SequenceAt(text, i, code_point);
    if (length > 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    }
  }
  return out;
}

std::string AlphanumericLower(std::string_view text) {
  std::string out;
  for (char c : text)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> ClosestNames(std::string_view wanted,
                                      const std::vector<std::string>& names,
                                      std::size_t max_count) {
  const std::string lower = Lower(wanted);
  // Substring matches rank first ("llama3" → "llama3-8b"), then by edit distance; a name
  // needing more edits than about a third of its length is not a plausible typo.
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const std::string& name : names) {
    const bool contains = !lower.empty() && Lower(name).find(lower) != std::string::npos;
    const std::size_t limit = std::max<std::size_t>(2, std::max(wanted.size(), name.size()) / 3);
    // The distance is at least the length difference: skip the O(|wanted|·|name|) table when
    // that alone rules the name out (a 1 MB value against 30 names took minutes).
    const std::size_t gap =
        std::max(wanted.size(), name.size()) - std::min(wanted.size(), name.size());
    if (contains) {
      scored.push_back({0, name});
    } else if (gap <= limit) {
      const std::size_t distance = EditDistance(wanted, name);
      if (distance <= limit) scored.push_back({distance + 1, name});
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& entry : scored) {
    if (out.size() == max_count) break;
    out.push_back(entry.second);
  }
  return out;
}

std::string JoinNames(const std::vector<std::string>& names, std::string_view separator) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += separator;
    out += name;
  }
  return out;
}

json ValueFromText(std::string_view raw_text, const json& current) {
  const std::string valid_text = SanitizeUtf8(raw_text);
  const std::string_view text = valid_text;
  const std::string_view trimmed = Trim(text);
  if (current.is_boolean()) {
    const std::string word = Lower(trimmed);
    if (word == "1" || word == "true" || word == "on" || word == "yes") return true;
    if (word == "0" || word == "false" || word == "off" || word == "no") return false;
  }
  // Text nested past the limit is not parsed (it stays a string and fails the key's type check).
  json parsed = JsonNestingDepth(trimmed) > kMaxJsonDepth
                    ? json(json::value_t::discarded)
                    : json::parse(trimmed.begin(), trimmed.end(), nullptr, false);
  const bool parses = !trimmed.empty() && !parsed.is_discarded();
  if (current.is_array() && !(parses && parsed.is_array())) {
    json list = json::array();
    std::size_t start = 0;
    while (!trimmed.empty() && start <= trimmed.size()) {
      const std::size_t comma = std::min(trimmed.find(',', start), trimmed.size());
      list.push_back(ValueFromText(trimmed.substr(start, comma - start), json()));
      start = comma + 1;
    }
    return list;
  }
  if (!parses) return std::string(text);
  // A string key keeps "2" or "true" as typed (selective_ac_option "2", a device named "910").
  if (current.is_string() && !parsed.is_string() && !parsed.is_object() && !parsed.is_array()) {
    return std::string(trimmed);
  }
  return parsed;
}

const json* FindJsonPath(const json& root, std::string_view path) {
  const json* node = &root;
  while (true) {
    const std::size_t dot = path.find('.');
    const std::string part(path.substr(0, dot));
    if (!node->is_object()) return nullptr;
    auto it = node->find(part);
    if (it == node->end()) return nullptr;
    node = &*it;
    if (dot == std::string_view::npos) return node;
    path.remove_prefix(dot + 1);
  }
}

std::string SetJsonPath(json& root, std::string_view path, json value, const Presets& presets) {
  if (!root.is_object()) return "the config is not a JSON object";
  json* node = &root;
  std::string walked;
  std::string_view rest = path;
  while (true) {
    const std::size_t dot = rest.find('.');
    const std::string part(rest.substr(0, dot));
    if (part.empty()) return "empty key segment in '" + std::string(path) + "'";
    if (dot == std::string_view::npos) {
      (*node)[part] = std::move(value);
      return "";
    }
    json& child = (*node)[part];
    walked += walked.empty() ? part : "." + part;
    if (child.is_null()) child = json::object();
    // A preset id becomes its fields, so "model.hidden_size=…" edits a copy of the preset.
    if (child.is_string() && walked == part) {
      json fields = PresetFields(part, child.get<std::string>(), presets);
      if (fields.is_object()) child = std::move(fields);
    }
    if (!child.is_object()) return "'" + walked + "' is " + JsonTypeName(child) + ", not an object";
    node = &child;
    rest.remove_prefix(dot + 1);
  }
}

}  // namespace detail
}  // namespace trainmem
