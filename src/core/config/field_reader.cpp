// FieldReader (field_reader.h): the one typed reader of JSON fields.
#include "core/config/field_reader.h"

#include <algorithm>
#include <cmath>

namespace trainmem {
namespace detail {

std::string ReadInt(const json& value, std::int64_t& out) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  if (value.is_number_unsigned()) {
    const std::uint64_t u = value.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(kMax)) return "is too large (" + Dump(value) + ")";
    out = static_cast<std::int64_t>(u);
    return "";
  }
  if (value.is_number_integer()) {
    out = value.get<std::int64_t>();
    return "";
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) return "expected an integer, got " + Dump(value);
    if (std::fabs(d) >= 9.0e18) return "is too large (" + Dump(value) + ")";
    out = static_cast<std::int64_t>(d);
    return "";
  }
  return "expected an integer, got " + JsonTypeName(value);
}

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

namespace {

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

FieldReader::FieldReader(const json* object, std::string path, std::vector<Error>& errors,
                         Null null)
    : object_(object), path_(std::move(path)), errors_(errors), null_(null) {
  if (object_ != nullptr && !object_->is_object()) {
    errors_.push_back({path_, "expected an object, got " + JsonTypeName(*object_)});
    object_ = nullptr;
  }
}

const json* FieldReader::Find(std::string_view key) const {
  if (object_ == nullptr) return nullptr;
  auto it = object_->find(std::string(key));
  if (it == object_->end() || (null_ == Null::kAbsent && it->is_null())) return nullptr;
  return &*it;
}

const json* FieldReader::Get(std::string_view key) {
  if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
  return Find(key);
}

bool FieldReader::Has(std::string_view key) const { return Find(key) != nullptr; }

std::string FieldReader::FirstPresent(std::initializer_list<std::string_view> keys) const {
  for (std::string_view key : keys) {
    if (Has(key)) return std::string(key);
  }
  return "";
}

void FieldReader::Fail(std::string_view key, std::string message) {
  errors_.push_back({Path(key), std::move(message)});
}

std::optional<std::int64_t> FieldReader::Int(std::string_view key, std::int64_t min,
                                             std::int64_t max, std::string_view too_large_reason) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  std::int64_t value = 0;
  const std::string problem = ReadInt(*v, value);
  if (!problem.empty()) {
    Fail(key, problem);
    return std::nullopt;
  }
  if (value < min || value > max) {
    Fail(key, RangeMessage(value, min, max, too_large_reason));
    return std::nullopt;
  }
  return value;
}

std::int64_t FieldReader::RequiredInt(std::string_view key, std::int64_t min, std::int64_t max,
                                      std::string_view too_large_reason) {
  if (!Has(key)) {
    Get(key);
    FailMissing(key);
    return 0;
  }
  return Int(key, min, max, too_large_reason).value_or(0);
}

std::optional<double> FieldReader::Number(std::string_view key, double min, double max) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number()) {
    Fail(key, "expected a number, got " + JsonTypeName(*v));
    return std::nullopt;
  }
  const double d = v->get<double>();
  if (!std::isfinite(d)) {
    Fail(key, "expected a finite number, got " + Dump(*v));
    return std::nullopt;
  }
  if (d < min || d > max) {
    Fail(key, "must be between " + Dump(json(min)) + " and " + Dump(json(max)) + " (got " +
                  Dump(*v) + ")");
    return std::nullopt;
  }
  return d;
}

std::optional<bool> FieldReader::Bool(std::string_view key) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_boolean()) {
    Fail(key, "expected true or false, got " + JsonTypeName(*v));
    return std::nullopt;
  }
  return v->get<bool>();
}

std::optional<std::string> FieldReader::String(std::string_view key) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    Fail(key, "expected a string, got " + JsonTypeName(*v));
    return std::nullopt;
  }
  // A JSON object built in code (not parsed from text) may hold any bytes.
  return SanitizeUtf8(v->get_ref<const std::string&>());
}

std::optional<std::vector<std::int64_t>> FieldReader::IntList(std::string_view key,
                                                              std::int64_t min, std::int64_t max) {
  const json* v = Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_array()) {
    Fail(key, "expected a list of integers, got " + JsonTypeName(*v));
    return std::nullopt;
  }
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const std::string item_key = std::string(key) + "[" + std::to_string(i) + "]";
    std::int64_t value = 0;
    const std::string problem = ReadInt((*v)[i], value);
    if (!problem.empty()) {
      Fail(item_key, problem);
      return std::nullopt;
    }
    if (value < min || value > max) {
      Fail(item_key, RangeMessage(value, min, max, ""));
      return std::nullopt;
    }
    out.push_back(value);
  }
  return out;
}

void FieldReader::Int(std::string_view key, std::int64_t& out) {
  constexpr std::int64_t kLowest = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kHighest = std::numeric_limits<std::int64_t>::max();
  if (std::optional<std::int64_t> v = Int(key, kLowest, kHighest)) out = *v;
}

void FieldReader::Number(std::string_view key, double& out) {
  constexpr double kLowest = std::numeric_limits<double>::lowest();
  constexpr double kHighest = std::numeric_limits<double>::max();
  if (std::optional<double> v = Number(key, kLowest, kHighest)) out = *v;
}

void FieldReader::Bool(std::string_view key, bool& out) {
  if (std::optional<bool> v = Bool(key)) out = *v;
}

void FieldReader::String(std::string_view key, std::string& out) {
  if (std::optional<std::string> v = String(key)) out = std::move(*v);
}

void FieldReader::OptionalNumber(std::string_view key, std::optional<double>& out) {
  const json* v = Get(key);
  if (v == nullptr) return;
  if (v->is_null()) {
    out.reset();
    return;
  }
  double number = 0;
  const std::size_t errors_before = errors_.size();
  Number(key, number);
  if (errors_.size() == errors_before) out = number;
}

std::vector<std::string> FieldReader::UnreadKeys() const {
  std::vector<std::string> unread;
  if (object_ == nullptr) return unread;
  for (auto it = object_->begin(); it != object_->end(); ++it) {
    if (std::find(known_.begin(), known_.end(), it.key()) == known_.end())
      unread.push_back(it.key());
  }
  return unread;
}

void FieldReader::ReportUnknownKeys() {
  if (object_ == nullptr) return;
  for (auto it = object_->begin(); it != object_->end(); ++it) {
    if (std::find(known_.begin(), known_.end(), it.key()) != known_.end()) continue;
    const std::vector<std::string> close = ClosestNames(it.key(), known_, 1);
    if (close.empty()) {
      Fail(it.key(), "unknown key; valid keys: " + JoinNames(known_, ", "));
    } else {
      Fail(it.key(), "unknown key; did you mean " + close.front() + "?");
    }
  }
}

}  // namespace detail
}  // namespace trainmem
