// Errors are values at the edges (STYLE.md rule 3): parsers return Result<T>, nothing throws
// across the core API.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace trainmem {

// One problem with an input: `path` names where it is ("parallelism.tensor_parallel_degree",
// "model.hidden_size", "#tp"), `message` says why, in words a user can act on.
struct Error {
  std::string path;
  std::string message;
};

inline std::string FormatError(const Error& e) {
  return e.path.empty() ? e.message : e.path + ": " + e.message;
}

template <class T>
class Result {
 public:
  static Result Success(T value) {
    Result r;
    r.value_ = std::move(value);
    return r;
  }
  static Result Failure(std::vector<Error> errors) {
    Result r;
    r.errors_ = std::move(errors);
    if (r.errors_.empty()) r.errors_.push_back({"", "unknown error"});
    return r;
  }
  static Result Failure(std::string path, std::string message) {
    return Failure(std::vector<Error>{{std::move(path), std::move(message)}});
  }

  bool ok() const { return value_.has_value(); }
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const std::vector<Error>& errors() const { return errors_; }

 private:
  std::optional<T> value_;
  std::vector<Error> errors_;
};

}  // namespace trainmem
