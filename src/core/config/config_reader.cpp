// ObjectReader: typed, error-collecting access to one object of the config JSON.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/config/config_detail.h"

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
    // JSON written by scripts often carries 1e6 or 8.0 for an integer; accept exact ones.
    const double d = value.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) return "expected an integer, got " + Dump(value);
    if (std::fabs(d) >= 9.0e18) return "is too large (" + Dump(value) + ")";
    out = static_cast<std::int64_t>(d);
    return "";
  }
  return "expected an integer, got " + JsonTypeName(value);
}

ObjectReader::ObjectReader(const json* object, std::string path, std::vector<Error>& errors)
    : object_(object), path_(std::move(path)), errors_(errors) {
  if (object_ != nullptr && !object_->is_object()) {
    errors_.push_back({path_, "expected an object, got " + JsonTypeName(*object_)});
    object_ = nullptr;
  }
}

const json* ObjectReader::Get(const char* key) {
  known_.push_back(key);
  if (object_ == nullptr) return nullptr;
  auto it = object_->find(key);
  return it == object_->end() ? nullptr : &*it;
}

std::string ObjectReader::Path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void ObjectReader::Fail(std::string_view key, std::string message) {
  errors_.push_back({Path(key), std::move(message)});
}

void ObjectReader::Int(const char* key, std::int64_t& out) {
  const json* value = Get(key);
  if (value == nullptr) return;
  const std::string problem = ReadInt(*value, out);
  if (!problem.empty()) Fail(key, problem);
}

void ObjectReader::Number(const char* key, double& out) {
  const json* value = Get(key);
  if (value == nullptr) return;
  if (!value->is_number() || !std::isfinite(value->get<double>())) {
    Fail(key, "expected a number, got " + JsonTypeName(*value));
    return;
  }
  out = value->get<double>();
}

void ObjectReader::OptionalNumber(const char* key, std::optional<double>& out) {
  const json* value = Get(key);
  if (value == nullptr) return;
  if (value->is_null()) {
    out.reset();
    return;
  }
  double number = 0;
  known_.pop_back();  // Number() marks the key again
  Number(key, number);
  if (value->is_number()) out = number;
}

void ObjectReader::Bool(const char* key, bool& out) {
  const json* value = Get(key);
  if (value == nullptr) return;
  if (!value->is_boolean()) {
    Fail(key, "expected true or false, got " + JsonTypeName(*value));
    return;
  }
  out = value->get<bool>();
}

void ObjectReader::String(const char* key, std::string& out) {
  const json* value = Get(key);
  if (value == nullptr) return;
  if (!value->is_string()) {
    Fail(key, "expected a string, got " + JsonTypeName(*value));
    return;
  }
  // A JSON object built in code (not parsed from text) may hold any bytes.
  out = SanitizeUtf8(value->get_ref<const std::string&>());
}

void ObjectReader::ReportUnknownKeys() {
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
