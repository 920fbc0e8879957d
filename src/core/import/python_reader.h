// A reader for the Python that config registries are written in — not an interpreter. It
// understands top-level `def` blocks, assignments (to names and to attribute chains), `return`,
// calls with keyword arguments, literals, lists, tuples and integer/float arithmetic; a call to
// a function defined in the files is followed (derived recipes), any other call becomes an
// object holding its arguments (`TrainingConfig(seq_len=8192)`). Everything else (imports,
// `if`/`for` bodies, lambdas, subscripts, f-strings) is skipped or becomes an opaque value,
// reported with its line. Nothing is executed; the work is bounded by limits on nesting, call
// depth and the tokens evaluated per call (kMaxEvaluatedTokens).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trainmem::py {

struct Value;
using Ref = std::shared_ptr<Value>;

struct Value {
  enum class Kind { kNone, kBool, kInt, kFloat, kStr, kList, kObject, kOpaque };
  Kind kind = Kind::kOpaque;
  bool b = false;
  long long i = 0;
  double f = 0;
  std::string s;  // string value; kObject: the callee ("TrainingConfig"); kOpaque: source text
  std::vector<Ref> items;                          // list items; kObject: positional arguments
  std::vector<std::pair<std::string, Ref>> attrs;  // kObject: keyword arguments / attributes
  int line = 0;
  std::string file;

  Ref Attr(const std::string& name) const;  // nullptr when absent
};

struct Diagnostic {
  std::string file;
  int line = 0;
  std::string message;
};

struct Function {
  std::string name;
  std::string file;
  int line = 0;
  std::vector<std::pair<std::string, std::string>> params;  // name, default expression text
  bool is_recipe = false;  // annotated/returning a trainer config, or returning a call
};

// A module: the functions and globals of one or more files.
class Program {
 public:
  // Adds a file; syntax problems are recorded as diagnostics, never thrown.
  void AddFile(const std::string& name, std::string_view text);
  const std::vector<Function>& functions() const { return functions_; }
  // Calls a function with no arguments; nullptr if it does not exist or fails (see diagnostics).
  Ref Call(const std::string& name);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::vector<std::string>& imports() const { return imports_; }  // "from X import ..." X
  // Per file, the names bound by "from X import N [as A]": A (or N) → "X.N". Module paths past
  // kMaxImportModule characters and names past kMaxImportedNames a file are not recorded (a
  // hostile file must not cost module length × names).
  static constexpr std::size_t kMaxImportModule = 256;
  static constexpr std::size_t kMaxImportedNames = 1024;
  const std::map<std::string, std::map<std::string, std::string>>& imported_names() const {
    return imported_names_;
  }
  // Names called but defined in none of the files (bases of derived recipes, helpers).
  const std::vector<std::string>& external_calls() const { return external_calls_; }

  struct Impl;

 private:
  std::vector<Function> functions_;
  std::vector<Diagnostic> diagnostics_;
  std::vector<std::string> imports_;
  std::map<std::string, std::map<std::string, std::string>> imported_names_;
  std::vector<std::string> external_calls_;
  std::shared_ptr<Impl> impl_;
  friend struct Impl;
};

}  // namespace trainmem::py
