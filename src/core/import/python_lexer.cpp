// Python tokens grouped into logical lines (brackets and backslashes join physical lines), with
// each line's indentation. One pass over the text; bracket nesting is capped.
#include "core/import/python_lexer.h"

#include <cctype>
#include <cstring>

namespace trainmem::py {
namespace {

constexpr int kMaxBracketDepth = 100;

bool IsNameStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool IsNameChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

const char* const kOps3[] = {"**=", "//=", "...", ">>=", "<<="};
const char* const kOps2[] = {"**", "//", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=",
                             "/=", ":=", "%=", "&=", "|=", "^=", "<<", ">>", "@="};

}  // namespace

LexResult Lex(std::string_view text, const std::string& file) {
  LexResult out;
  LogicalLine current;
  int depth = 0;
  int line = 1;
  bool at_line_start = true;
  std::size_t i = 0;
  const std::size_t n = text.size();
  auto finish_line = [&] {
    if (!current.tokens.empty()) {
      current.file = file;
      out.lines.push_back(std::move(current));
    }
    current = LogicalLine{};
    at_line_start = true;
  };
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (at_line_start && depth == 0) {
      int indent = 0;
      while (i < n && (text[i] == ' ' || text[i] == '\t')) {
        indent += text[i] == '\t' ? 8 : 1;
        ++i;
      }
      if (i >= n) break;
      if (text[i] == '\n' || text[i] == '\r' || text[i] == '#') {
        // Blank or comment-only line: indentation does not count.
        while (i < n && text[i] != '\n') ++i;
        if (i < n) {
          ++i;
          ++line;
        }
        continue;
      }
      current.indent = indent;
      current.line = line;
      at_line_start = false;
      continue;
    }
    if (c == '\n') {
      ++i;
      ++line;
      if (depth == 0) finish_line();
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < n && text[i] != '\n') ++i;
      continue;
    }
    if (c == '\\' && i + 1 < n && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      i += text[i + 1] == '\r' && i + 2 < n && text[i + 2] == '\n' ? 3 : 2;
      ++line;
      continue;
    }
    Token tok;
    tok.line = line;
    // String literal, with an optional prefix (r, b, u, f and pairs).
    std::size_t q = i;
    while (q < n && q - i < 2 && std::strchr("rRbBuUfF", text[q]) != nullptr && text[q] != '\0')
      ++q;
    if (q < n && (text[q] == '"' || text[q] == '\'') &&
        (q == i || IsNameStart(static_cast<unsigned char>(text[i])))) {
      const char quote = text[q];
      const bool triple = q + 2 < n && text[q + 1] == quote && text[q + 2] == quote;
      const bool raw =
          std::string_view(text.data() + i, q - i).find_first_of("rR") != std::string_view::npos;
      std::size_t p = q + (triple ? 3 : 1);
      std::string value;
      bool closed = false;
      const int start_line = line;
      while (p < n) {
        const char ch = text[p];
        if (ch == '\\' && p + 1 < n) {
          if (text[p + 1] == '\n') ++line;
          if (raw) value += ch;
          value += text[p + 1];
          p += 2;
          continue;
        }
        if (triple) {
          if (ch == quote && p + 2 < n && text[p + 1] == quote && text[p + 2] == quote) {
            p += 3;
            closed = true;
            break;
          }
        } else if (ch == quote) {
          ++p;
          closed = true;
          break;
        } else if (ch == '\n') {
          break;
        }
        if (ch == '\n') ++line;
        value += ch;
        ++p;
      }
      if (!closed) {
        out.diagnostics.push_back({file, start_line, "unterminated string starting here"});
        // Skip the rest of this physical line and carry on.
        i = p;
        current.tokens.clear();
        depth = 0;
        continue;
      }
      tok.kind = Token::Kind::kString;
      tok.text = std::move(value);
      tok.fstring =
          std::string_view(text.data() + i, q - i).find_first_of("fF") != std::string_view::npos;
      current.tokens.push_back(std::move(tok));
      i = p;
      continue;
    }
    if (IsNameStart(c)) {
      std::size_t p = i;
      while (p < n && IsNameChar(static_cast<unsigned char>(text[p]))) ++p;
      tok.kind = Token::Kind::kName;
      tok.text = std::string(text.substr(i, p - i));
      current.tokens.push_back(std::move(tok));
      i = p;
      continue;
    }
    if (std::isdigit(c) || (c == '.' && i + 1 < n && std::isdigit((unsigned char)text[i + 1]))) {
      std::size_t p = i;
      while (p < n) {
        const unsigned char d = static_cast<unsigned char>(text[p]);
        if (std::isalnum(d) || d == '_' || d == '.') {
          ++p;
        } else if ((d == '+' || d == '-') && (text[p - 1] == 'e' || text[p - 1] == 'E') &&
                   !(text[i] == '0' && p > i + 1 && (text[i + 1] == 'x' || text[i + 1] == 'X'))) {
          ++p;
        } else {
          break;
        }
      }
      tok.kind = Token::Kind::kNumber;
      tok.text = std::string(text.substr(i, p - i));
      current.tokens.push_back(std::move(tok));
      i = p;
      continue;
    }
    tok.kind = Token::Kind::kOp;
    std::size_t len = 1;
    for (const char* op : kOps3)
      if (text.substr(i, 3) == op) len = 3;
    if (len == 1)
      for (const char* op : kOps2)
        if (text.substr(i, 2) == op) len = 2;
    tok.text = std::string(text.substr(i, len));
    if (len == 1 && (c == '(' || c == '[' || c == '{')) {
      if (++depth > kMaxBracketDepth) {
        out.diagnostics.push_back({file, line, "brackets nested too deeply (over 100 levels)"});
        out.fatal = true;
        return out;
      }
    } else if (len == 1 && (c == ')' || c == ']' || c == '}')) {
      if (depth > 0) --depth;
    }
    current.tokens.push_back(std::move(tok));
    i += len;
  }
  if (depth > 0)
    out.diagnostics.push_back({file, current.line, "a bracket opened here is never closed"});
  finish_line();
  return out;
}

}  // namespace trainmem::py
