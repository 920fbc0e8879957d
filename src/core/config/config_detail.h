// Helpers shared by config_*.cpp and share_link.cpp. Not a public API: front-ends use config.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.h"
#include "core/result.h"

namespace trainmem {
namespace detail {

using nlohmann::json;

// "a string", "an integer", … for "expected X, got Y" messages.
std::string JsonTypeName(const json& value);

// json::dump() that never throws: invalid UTF-8 in a string is replaced, not an exception.
std::string Dump(const json& value);

// The well-formed UTF-8 sequence at text[i]: its length (1–4), with its code point in
// `code_point`; 0 when the bytes there do not start one (truncated, overlong, a surrogate, past
// U+10FFFF).
std::size_t Utf8SequenceAt(std::string_view text, std::size_t i, char32_t& code_point);
// Text from outside (a URL, a command line) may hold any bytes; JSON strings must be UTF-8.
// Invalid sequences become U+FFFD.
std::string SanitizeUtf8(std::string_view text);
// Lowercase letters and digits only: "Qwen2.5-7B" → "qwen257b" (names compared loosely).
std::string AlphanumericLower(std::string_view text);
// SanitizeUtf8 on every string and object key inside `value`, so json::dump() cannot throw.
void SanitizeJsonStrings(json& value);

// Up to `max_count` names closest to `wanted` (substring matches first, then edit distance),
// for "did you mean" hints. Names too far away are left out.
std::vector<std::string> ClosestNames(std::string_view wanted,
                                      const std::vector<std::string>& names, std::size_t max_count);
std::string JoinNames(const std::vector<std::string>& names, std::string_view separator);

// Reads the config without ValidateConfig when `validate` is false: share links check each key
// for readability on its own, then validate the combination once.
Result<Config> ReadConfigJson(const json& j, const Presets& presets, bool validate);

// Text as a user typed it (`--set`, a link value) into JSON. `current` is the value now at the
// key and settles the ambiguous cases: a string key keeps "2" as text, a boolean key reads 1/0,
// a list key splits on commas. Otherwise the text is JSON when it parses, else a string.
// Invalid UTF-8 is replaced (SanitizeUtf8).
json ValueFromText(std::string_view text, const json& current);

// The value at a dotted path, or nullptr.
const json* FindJsonPath(const json& root, std::string_view path);

// A "model" or "device" preset as the fields of an inline one (HF config.json fields, or
// name/memory_gib/devices_per_node); null when `id` is not a preset.
json PresetFields(std::string_view section, const std::string& id, const Presets& presets);

// Sets a dotted path, creating objects on the way. When the path goes inside "model" or
// "device" and that is a preset id, the preset is expanded to its fields first so it can be
// edited. Returns an empty string on success, else why not.
std::string SetJsonPath(json& root, std::string_view path, json value, const Presets& presets);

// Enum text (canonical names, abbreviations, and the free text real configs carry) to values.
bool EnumFromText(std::string_view text, Mode& out);
bool EnumFromText(std::string_view text, Framework& out);
bool EnumFromText(std::string_view text, DType& out);
bool EnumFromText(std::string_view text, AttentionImpl& out);
bool EnumFromText(std::string_view text, AcMode& out);
bool EnumFromText(std::string_view text, PpSchedule& out);
bool EnumFromText(std::string_view text, OptimizerKind& out);
bool EnumFromText(std::string_view text, ReshardPolicy& out);
bool EnumFromText(std::string_view text, EpCommBackend& out);
bool EnumFromText(std::string_view text, OptimizerImpl& out);
bool EnumFromText(std::string_view text, VisionTower& out);
bool EnumFromText(std::string_view text, BaseQuantization& out);
// The valid values, for error messages ("template, detailed"). The argument only picks the enum.
std::string EnumChoices(Mode);
std::string EnumChoices(Framework);
std::string EnumChoices(DType);
std::string EnumChoices(AttentionImpl);
std::string EnumChoices(AcMode);
std::string EnumChoices(PpSchedule);
std::string EnumChoices(OptimizerKind);
std::string EnumChoices(ReshardPolicy);
std::string EnumChoices(EpCommBackend);
std::string EnumChoices(OptimizerImpl);
std::string EnumChoices(VisionTower);
std::string EnumChoices(BaseQuantization);

// Megatron-style schedule notes such as "interleaved-1F1B (1 layer per virtual stage …)" carry
// the layers per virtual stage; 0 when the text does not say.
std::int64_t LayersPerStageFromScheduleText(std::string_view text);

}  // namespace detail
}  // namespace trainmem
