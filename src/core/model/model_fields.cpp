// Typed JSON field reads with errors that name the key path (model_detail.h).
// No exceptions: nlohmann accessors are only called after the type has been checked, so the
// core behaves the same under Emscripten, where exception catching is off by default.
#include <cmath>
#include <limits>

#include "core/config/config_detail.h"
#include "core/model/model_detail.h"

namespace trainmem {
namespace model_detail {

std::string JoinPath(const std::string& prefix, std::string_view key) {
  if (prefix.empty()) return std::string(key);
  std::string out = prefix;
  out += '.';
  out += key;
  return out;
}

std::string WithThousands(std::int64_t value) {
  const std::uint64_t magnitude =
      value < 0 ? 0ULL - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  const std::string digits = std::to_string(magnitude);
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

const json* FieldReader::Get(std::string_view key) const {
  if (!object_.is_object()) return nullptr;
  auto it = object_.find(std::string(key));
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

bool FieldReader::Has(std::string_view key) const { return Get(key) != nullptr; }

std::string FieldReader::FirstPresent(std::initializer_list<std::string_view> keys) const {
  for (std::string_view key : keys) {
    if (Has(key)) return std::string(key);
  }
  return "";
}

void FieldReader::Fail(std::string_view key, std::string message) {
  errors_->push_back({PathOf(key), std::move(message)});
}

namespace {

// An integral JSON number as int64, or nullopt (fractional, non-finite, out of int64 range).
std::optional<std::int64_t> AsInt64(const json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return std::nullopt;
    }
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float()) {
    // 8e9 in a preset is a float in JSON; accept it when it is a whole number.
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) >= 9.2e18) return std::nullopt;
    return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

std::string RangeMessage(std::int64_t got, std::int64_t min, std::int64_t max,
                         std::string_view too_large_reason) {
  if (got < min) {
    return "must be at least " + WithThousands(min) + " (got " + WithThousands(got) + ")";
  }
  std::string message =
      "must be at most " + WithThousands(max) + " (got " + WithThousands(got) + ")";
  if (!too_large_reason.empty()) message += "; " + std::string(too_large_reason);
  return message;
}

}  // namespace

std::optional<std::int64_t> FieldReader::Int(std::string_view key, std::int64_t min,
                                             std::int64_t max, std::string_view too_large_reason) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number()) {
    Fail(key, "expected an integer, got " + detail::JsonTypeName(*v));
    return std::nullopt;
  }
  std::optional<std::int64_t> value = AsInt64(*v);
  if (!value) {
    Fail(key, "expected a whole number in the 64-bit range, got " + v->dump());
    return std::nullopt;
  }
  if (*value < min || *value > max) {
    Fail(key, RangeMessage(*value, min, max, too_large_reason));
    return std::nullopt;
  }
  return value;
}

std::int64_t FieldReader::RequiredInt(std::string_view key, std::int64_t min, std::int64_t max,
                                      std::string_view too_large_reason) {
  if (!Has(key)) {
    FailMissing(key);
    return 0;
  }
  return Int(key, min, max, too_large_reason).value_or(0);
}

std::optional<double> FieldReader::Number(std::string_view key, double min, double max) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number()) {
    Fail(key, "expected a number, got " + detail::JsonTypeName(*v));
    return std::nullopt;
  }
  const double d = v->get<double>();
  if (!std::isfinite(d) || d < min || d > max) {
    Fail(key, "must be between " + json(min).dump() + " and " + json(max).dump() + " (got " +
                  v->dump() + ")");
    return std::nullopt;
  }
  return d;
}

std::optional<bool> FieldReader::Bool(std::string_view key) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_boolean()) {
    Fail(key, "expected true or false, got " + detail::JsonTypeName(*v));
    return std::nullopt;
  }
  return v->get<bool>();
}

std::optional<std::string> FieldReader::String(std::string_view key) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    Fail(key, "expected a string, got " + detail::JsonTypeName(*v));
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<std::vector<std::int64_t>> FieldReader::IntList(std::string_view key,
                                                              std::int64_t min, std::int64_t max) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_array()) {
    Fail(key, "expected a list of integers, got " + detail::JsonTypeName(*v));
    return std::nullopt;
  }
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& item = (*v)[i];
    std::optional<std::int64_t> value = AsInt64(item);
    const std::string item_key = std::string(key) + "[" + std::to_string(i) + "]";
    if (!item.is_number() || !value) {
      Fail(item_key, "expected an integer, got " + detail::JsonTypeName(item));
      return std::nullopt;
    }
    if (*value < min || *value > max) {
      Fail(item_key, RangeMessage(*value, min, max, ""));
      return std::nullopt;
    }
    out.push_back(*value);
  }
  return out;
}

}  // namespace model_detail
}  // namespace trainmem
