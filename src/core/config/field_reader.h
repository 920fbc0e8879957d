// FieldReader: typed reads from one JSON object, each error naming the key's full path and what
// was expected. The one reader of config sections (config_parse.cpp), model config.json fields
// (model_parse*.cpp) and preset files (presets.cpp).
// No exceptions: nlohmann accessors are only called after the type has been checked, so the
// core behaves the same under Emscripten, where exception catching is off by default.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config_detail.h"

namespace trainmem {
namespace detail {

// An integer from JSON (integral floats such as 1e6 or 8.0, which scripts write, are accepted).
// Empty string, or why not: "expected an integer, got 2048.5", "is too large (1e+30)".
std::string ReadInt(const json& value, std::int64_t& out);

// "model" + "hidden_size" → "model.hidden_size"; an empty prefix gives just the key.
std::string JoinPath(const std::string& prefix, std::string_view key);

// 1234567 → "1,234,567" for error messages about limits.
std::string WithThousands(std::int64_t value);

class FieldReader {
 public:
  // What a JSON null under a key means: not given (HF config.json writes null for unset optional
  // fields), or a value of the wrong type (trainmem's own config, where null is never a default).
  enum class Null { kAbsent, kWrongType };

  // `object` may be nullptr (a section not given: every key absent); anything but an object is
  // an error at `path`, and then every key reads as absent.
  FieldReader(const json* object, std::string path, std::vector<Error>& errors,
              Null null = Null::kWrongType);

  // The value under `key`, or nullptr when absent (or null, with Null::kAbsent). Marks the key as
  // known for ReportUnknownKeys.
  const json* Get(std::string_view key);
  bool Has(std::string_view key) const;
  // The first of `keys` that is present (aliases such as hidden_size / n_embd), or "".
  std::string FirstPresent(std::initializer_list<std::string_view> keys) const;
  std::string Path(std::string_view key) const { return JoinPath(path_, key); }
  const std::string& path() const { return path_; }
  void Fail(std::string_view key, std::string message);
  void FailMissing(std::string_view key) { Fail(key, "missing required field"); }

  // Optional reads: nullopt when absent or wrong (the error is recorded). Out-of-range values
  // give "must be at least 1 (got 0)" / "must be at most 8 (got 9)[; too_large_reason]".
  std::optional<std::int64_t> Int(std::string_view key, std::int64_t min, std::int64_t max,
                                  std::string_view too_large_reason = "");
  std::int64_t RequiredInt(std::string_view key, std::int64_t min, std::int64_t max,
                           std::string_view too_large_reason = "");
  std::optional<double> Number(std::string_view key, double min, double max);
  std::optional<bool> Bool(std::string_view key);
  std::optional<std::string> String(std::string_view key);  // invalid UTF-8 replaced
  // Integer list, each in [min, max]; errors name the item ("moe_layers[3]").
  std::optional<std::vector<std::int64_t>> IntList(std::string_view key, std::int64_t min,
                                                   std::int64_t max);

  // In-place reads: `out` keeps its value (the default) unless the key holds a good one. The
  // checks and messages are those of the optional reads above.
  void Int(std::string_view key, std::int64_t& out);
  void Number(std::string_view key, double& out);
  void Bool(std::string_view key, bool& out);
  void String(std::string_view key, std::string& out);
  void OptionalNumber(std::string_view key, std::optional<double>& out);  // null = unset
  // An enum by its text (EnumFromText); false when absent or unknown (the error lists choices).
  template <class E>
  bool Enum(std::string_view key, E& out) {
    const json* value = Get(key);
    if (value == nullptr) return false;
    if (!value->is_string()) {
      Fail(key, "expected a string, got " + JsonTypeName(*value));
      return false;
    }
    const std::string& text = value->get_ref<const std::string&>();
    if (EnumFromText(text, out)) return true;
    Fail(key, "unknown value '" + text + "'; valid values: " + EnumChoices(out));
    return false;
  }

  // Every key no read asked for is an error, with a "did you mean" hint or the valid keys.
  void ReportUnknownKeys();
  // The keys no read asked for, in the object's order.
  std::vector<std::string> UnreadKeys() const;

 private:
  const json* Find(std::string_view key) const;

  const json* object_;
  std::string path_;
  std::vector<Error>& errors_;
  Null null_;
  std::vector<std::string> known_;
};

}  // namespace detail
}  // namespace trainmem
