// Python tokens in logical lines (see python_reader.h for what is read and why).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/import/python_reader.h"

namespace trainmem::py {

struct Token {
  enum class Kind { kName, kNumber, kString, kOp };
  Kind kind = Kind::kOp;
  std::string text;  // strings: the value without quotes (escapes kept as written)
  int line = 0;
  bool fstring = false;
};

struct LogicalLine {
  int indent = 0;
  int line = 0;
  std::string file;
  std::vector<Token> tokens;
};

struct LexResult {
  std::vector<LogicalLine> lines;
  std::vector<Diagnostic> diagnostics;
  bool fatal = false;  // nesting limit: nothing after it is read
};

LexResult Lex(std::string_view text, const std::string& file);

}  // namespace trainmem::py
