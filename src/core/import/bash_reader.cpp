// The launch-script reader (bash_reader.h).
#include "core/import/bash_reader.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>

#include "core/import/import_detail.h"

namespace trainmem::bash {
namespace {

using import_detail::BaseName;
using import_detail::EndsWith;
using import_detail::ParseInteger;

constexpr int kMaxFrames = 256;
constexpr int kMaxExpansionDepth = 16;
constexpr int kMaxSourceDepth = 4;
constexpr std::size_t kMaxValueBytes = 1 << 20;
// All variable expansions of one read together: a script that keeps doubling a variable
// (A=$A$A, line after line) would otherwise copy up to kMaxValueBytes per line, minutes for a
// few hundred kilobytes of script. Real launch scripts expand a few kilobytes in all.
constexpr std::size_t kMaxExpandedBytes = std::size_t{64} << 20;

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsValidName(std::string_view s) {
  if (s.empty() || !IsNameStart(s[0])) return false;
  for (char c : s)
    if (!IsNameChar(c)) return false;
  return true;
}

struct RawWord {
  std::string text;
  int line = 0;
  bool quoted = false;
  bool assignment = false;  // NAME=value / NAME+=value (text holds the value)
  bool append = false;
  bool array = false;  // NAME=( … ): items
  std::string name;
  std::vector<std::string> items;
  bool redirect = false;  // > file, 2>&1, <<EOF
};

RawWord Plain(std::string text, int line, bool quoted) {
  RawWord w;
  w.text = std::move(text);
  w.line = line;
  w.quoted = quoted;
  return w;
}

struct Command {
  std::vector<RawWord> words;
  std::string separator;  // "\n", ";", "&&", "||", "|", "&", "" at the end
  int line = 0;
  bool heredoc = false;      // a here-document follows the command
  std::string heredoc_body;  // its text, backslash-newlines kept
  std::string output_file;   // `> FILE` / `>> FILE`, expanded
};

struct Cursor {
  std::string_view text;
  std::size_t pos = 0;
  int line = 1;
  std::string file;
  std::string heredoc;  // delimiter pending at the next newline
};

enum class FrameKind { kIf, kLoop, kCase, kFunction };
struct Frame {
  FrameKind kind = FrameKind::kIf;
  bool parent_active = true;
  bool any_taken = false;
  int braces = 0;
  bool saw_brace = false;
  // case: the word matched, and whether a branch's commands are being read (after its
  // "pattern)" and before its ";;").
  std::string case_word;
  bool in_branch = false;
  std::vector<std::string> case_patterns;
};

// A case pattern against a word: '*' any run, '?' any one character, anything else literal.
bool GlobMatch(std::string_view pattern, std::string_view word) {
  std::size_t p = 0, w = 0, star = std::string_view::npos, mark = 0;
  while (w < word.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == word[w])) {
      ++p;
      ++w;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = w;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      w = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

class Reader {
 public:
  Reader(Script& out, const std::vector<InputFile>& others) : out_(out), others_(others) {}

  void Run(const InputFile& file, int depth) {
    Cursor c{file.text, 0, 1, file.name, ""};
    const std::size_t frames_at_start = frames_.size();
    while (out_.error.empty()) {
      Command cmd = NextCommand(c);
      if (!cmd.words.empty()) Execute(cmd, c, depth);
      if (cmd.separator == ";;" && !frames_.empty() && frames_.back().kind == FrameKind::kCase) {
        frames_.back().in_branch = false;  // the branch ends
        active_ = false;
      }
      if (cmd.separator.empty() && c.pos >= c.text.size()) break;
    }
    while (frames_.size() > frames_at_start) {
      active_ = frames_.back().parent_active;
      frames_.pop_back();
    }
  }

 private:
  Script& out_;
  const std::vector<InputFile>& others_;
  std::vector<Frame> frames_;
  bool active_ = true;
  std::map<std::string, bool> noted_defaults_;
  std::size_t expanded_bytes_ = 0;  // text produced by expansions so far (kMaxExpandedBytes)
  bool budget_spent_ = false;

  void Note(const Cursor& c, int line, std::string message) {
    out_.notes.push_back({c.file, line, std::move(message)});
  }

  // ---- Expansion ------------------------------------------------------------------------

  std::optional<std::string> Lookup(const std::string& name) const {
    auto it = out_.variables.find(name);
    if (it == out_.variables.end()) return std::nullopt;
    return it->second.value;
  }

  void Assign(const std::string& name, const std::string& value, const Cursor& c, int line,
              bool append) {
    Variable& v = out_.variables[name];
    if (append && !v.is_array) {
      v.value += value;
    } else if (append) {
      v.items.push_back(value);
      v.value += (v.value.empty() ? "" : " ") + value;
    } else {
      const bool exported = v.exported;  // the attribute outlives a new value
      v = Variable{};
      v.value = value;
      v.exported = exported;
    }
    if (v.value.size() > kMaxValueBytes) v.value.resize(kMaxValueBytes);
    v.line = line;
    v.file = c.file;
  }

  void AssignArray(const std::string& name, const std::vector<std::string>& items, const Cursor& c,
                   int line, bool append) {
    Variable& v = out_.variables[name];
    if (!append || !v.is_array) {
      const std::string keep = append ? v.value : "";
      const bool exported = v.exported;
      v = Variable{};
      v.exported = exported;
      if (!keep.empty()) v.items.push_back(keep);
    }
    v.is_array = true;
    // The joined value grows with the new items only (rebuilding it from every item made
    // A+=(x), line after line, quadratic), capped like any value.
    if (!append || v.items.size() <= 1) {
      v.value.clear();
      for (const std::string& item : v.items)
        if (v.value.size() <= kMaxValueBytes) v.value += (v.value.empty() ? "" : " ") + item;
    }
    for (const std::string& item : items) {
      if (v.items.size() >= 100000) break;
      v.items.push_back(item);
      if (v.value.size() <= kMaxValueBytes) v.value += (v.value.empty() ? "" : " ") + item;
    }
    if (v.value.size() > kMaxValueBytes) v.value.resize(kMaxValueBytes);
    v.line = line;
    v.file = c.file;
  }

  // Expands a string that is not split into words (a default value, arithmetic text).
  std::string ExpandText(std::string_view s, const Cursor& where, int depth) {
    Cursor c{s, 0, where.line, where.file, ""};
    std::string out;
    while (c.pos < s.size()) {
      const char ch = s[c.pos];
      if (ch == '\\' && c.pos + 1 < s.size()) {
        out += s[c.pos + 1];
        c.pos += 2;
      } else if (ch == '\'') {
        const std::size_t end = s.find('\'', c.pos + 1);
        const std::size_t stop = end == std::string_view::npos ? s.size() : end;
        out += s.substr(c.pos + 1, stop - c.pos - 1);
        c.pos = stop + 1;
      } else if (ch == '"') {
        ++c.pos;
      } else if (ch == '$') {
        std::vector<std::string> items;
        bool is_list = false;
        out += Expansion(c, depth + 1, items, is_list);
      } else {
        out += ch;
        ++c.pos;
      }
    }
    return out;
  }

  // $… at c.pos. Returns the text; arrays expanded with [@] also fill `items`.
  std::string Expansion(Cursor& c, int depth, std::vector<std::string>& items, bool& is_list) {
    const bool had_budget = expanded_bytes_ <= kMaxExpandedBytes;
    budget_spent_ = !had_budget;  // variables then read as empty, without copying them
    std::string text = ExpandOne(c, depth, items, is_list);
    expanded_bytes_ += text.size();
    for (const std::string& item : items) expanded_bytes_ += item.size();
    if (expanded_bytes_ <= kMaxExpandedBytes) return text;
    if (had_budget)
      Note(c, c.line,
           "variable expansions passed " + std::to_string(kMaxExpandedBytes >> 20) +
               " MiB in all (a variable doubled line after line?); the rest are taken as empty");
    items.clear();
    is_list = false;
    return "";
  }

  std::string ExpandOne(Cursor& c, int depth, std::vector<std::string>& items, bool& is_list) {
    const std::string_view s = c.text;
    is_list = false;
    if (depth > kMaxExpansionDepth) {
      ++c.pos;
      return "";
    }
    std::size_t p = c.pos + 1;
    if (p >= s.size()) {
      c.pos = p;
      return "$";
    }
    if (s.compare(p, 2, "((") == 0) {  // $(( arithmetic ))
      std::size_t q = p + 2;
      int d = 2;
      while (q < s.size() && d > 0) {
        if (s[q] == '(') ++d;
        if (s[q] == ')') --d;
        if (s[q] == '\n') ++c.line;
        ++q;
      }
      const std::string_view inner = s.substr(p + 2, q >= p + 4 ? q - p - 4 : 0);
      c.pos = q;
      const std::optional<long long> v = Arithmetic(ExpandText(inner, c, depth), c, depth);
      return v ? std::to_string(*v) : "";
    }
    if (s[p] == '(' || s[p] == '`') {  // $( command ) — never run
      std::size_t q = p + 1;
      int d = 1;
      while (q < s.size() && d > 0) {
        if (s[q] == '(') ++d;
        if (s[q] == ')') --d;
        if (s[q] == '\n') ++c.line;
        ++q;
      }
      Note(c, c.line,
           "command substitution $(" +
               std::string(s.substr(p + 1, std::min<std::size_t>(q - p - 2, 60))) +
               ") is not run; taken as empty");
      c.pos = q;
      return "";
    }
    if (s[p] == '\'') {  // $'…'
      const std::size_t end = s.find('\'', p + 1);
      const std::size_t stop = end == std::string_view::npos ? s.size() : end;
      c.pos = stop + 1;
      return std::string(s.substr(p + 1, stop - p - 1));
    }
    if (s[p] == '{') {
      std::size_t q = p + 1;
      int d = 1;
      while (q < s.size() && d > 0) {
        if (s[q] == '{') ++d;
        if (s[q] == '}') --d;
        if (s[q] == '\n') ++c.line;
        if (d > 0) ++q;
      }
      const std::string_view inner = s.substr(p + 1, q - p - 1);
      c.pos = q < s.size() ? q + 1 : q;
      return Braced(inner, c, depth, items, is_list);
    }
    if (std::isdigit(static_cast<unsigned char>(s[p])) || s[p] == '@' || s[p] == '*' ||
        s[p] == '#' || s[p] == '?' || s[p] == '$' || s[p] == '!' || s[p] == '-') {
      c.pos = p + 1;
      return s[p] == '#' || s[p] == '?' ? "0" : "";
    }
    if (IsNameStart(s[p])) {
      std::size_t q = p;
      while (q < s.size() && IsNameChar(s[q])) ++q;
      const std::string name(s.substr(p, q - p));
      c.pos = q;
      auto it = out_.variables.find(name);
      if (it == out_.variables.end() || budget_spent_) return "";
      return it->second.is_array && !it->second.items.empty() ? it->second.items.front()
                                                              : it->second.value;
    }
    c.pos = p;
    return "$";
  }

  std::string Braced(std::string_view inner, Cursor& c, int depth, std::vector<std::string>& items,
                     bool& is_list) {
    if (budget_spent_) return "";
    if (!inner.empty() && inner[0] == '#') {  // ${#NAME}
      auto v = out_.variables.find(std::string(inner.substr(1)));
      if (v == out_.variables.end()) return "0";
      return std::to_string(v->second.is_array ? v->second.items.size() : v->second.value.size());
    }
    if (!inner.empty() && inner[0] == '!') return "";
    std::size_t n = 0;
    while (n < inner.size() && (IsNameChar(inner[n]))) ++n;
    const std::string name(inner.substr(0, n));
    std::string_view rest = inner.substr(n);
    auto it = out_.variables.find(name);
    const bool set = it != out_.variables.end();
    if (!rest.empty() && rest[0] == '[') {
      const std::size_t close = rest.find(']');
      const std::string index(rest.substr(1, close == std::string_view::npos ? 0 : close - 1));
      rest = close == std::string_view::npos ? std::string_view() : rest.substr(close + 1);
      if (!set) return "";
      if (index == "@" || index == "*") {
        is_list = true;
        items = it->second.is_array ? it->second.items : std::vector<std::string>{it->second.value};
        return it->second.value;
      }
      const std::optional<long long> i = ParseInteger(ExpandText(index, c, depth));
      if (!i || *i < 0) return "";
      if (!it->second.is_array) return *i == 0 ? it->second.value : "";
      return static_cast<std::size_t>(*i) < it->second.items.size() ? it->second.items[*i] : "";
    }
    const std::string value = set ? it->second.value : "";
    if (rest.empty()) return value;
    const bool colon = rest[0] == ':';
    const std::string_view op_text = colon ? rest.substr(1) : rest;
    if (op_text.empty()) return value;
    const char op = op_text[0];
    const std::string_view word = op_text.substr(1);
    const bool use_default = colon ? value.empty() : !set;
    if (op == '-' || op == '=') {
      if (!use_default) return value;
      const std::string def = ExpandText(word, c, depth);
      if (!noted_defaults_[name] && active_) {
        noted_defaults_[name] = true;
        Note(c, c.line,
             (std::isdigit(static_cast<unsigned char>(name[0])) ? "argument $" : "") + name +
                 (std::isdigit(static_cast<unsigned char>(name[0])) ? "" : " is not set") +
                 ": its default '" + def + "' is used");
      }
      if (op == '=' && active_ && IsValidName(name)) Assign(name, def, c, c.line, false);
      return def;
    }
    if (op == '+') return use_default ? "" : ExpandText(word, c, depth);
    if (op == '?') return value;
    if (colon && (std::isdigit(static_cast<unsigned char>(op)) || op == ' ')) return value;
    // ${X%pat}, ${X#pat}, ${X/a/b}, ${X^^}: pattern edits are not applied.
    Note(c, c.line, "${" + std::string(inner.substr(0, 40)) + "}: the edit is not applied");
    return value;
  }

  // Integer arithmetic: + - * / % ** ( ) and names (their values).
  std::optional<long long> Arithmetic(const std::string& text, const Cursor& c, int depth) {
    std::size_t p = 0;
    bool ok = true;
    std::function<long long(int)> expr;
    auto skip = [&] {
      while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
    };
    std::function<long long(int)> atom = [&](int d) -> long long {
      skip();
      if (d > 64 || p >= text.size()) {
        ok = false;
        return 0;
      }
      if (text[p] == '(') {
        ++p;
        const long long v = expr(d + 1);
        skip();
        if (p < text.size() && text[p] == ')')
          ++p;
        else
          ok = false;
        return v;
      }
      if (text[p] == '-' || text[p] == '+') {
        const char sign = text[p++];
        const long long v = atom(d + 1);
        return sign == '-' ? -v : v;
      }
      if (std::isdigit(static_cast<unsigned char>(text[p]))) {
        std::size_t q = p;
        while (q < text.size() && std::isalnum(static_cast<unsigned char>(text[q]))) ++q;
        const std::optional<long long> v = ParseInteger(text.substr(p, q - p));
        p = q;
        if (!v) ok = false;
        return v.value_or(0);
      }
      if (IsNameStart(text[p])) {
        std::size_t q = p;
        while (q < text.size() && IsNameChar(text[q])) ++q;
        const std::optional<std::string> v = Lookup(text.substr(p, q - p));
        p = q;
        if (!v || v->empty()) return 0;
        const std::optional<long long> i = ParseInteger(*v);
        if (!i) {
          const std::optional<long long> nested =
              depth < kMaxExpansionDepth ? Arithmetic(*v, c, depth + 1) : std::nullopt;
          if (!nested) ok = false;
          return nested.value_or(0);
        }
        return *i;
      }
      ok = false;
      return 0;
    };
    auto term = [&](int d) -> long long {
      long long v = atom(d);
      while (true) {
        skip();
        if (p + 1 < text.size() && text[p] == '*' && text[p + 1] == '*') {
          p += 2;
          const long long e = atom(d);
          long long r = 1;
          for (long long k = 0; k < e && k < 64; ++k)
            if (__builtin_mul_overflow(r, v, &r)) ok = false;
          v = r;
        } else if (p < text.size() && (text[p] == '*' || text[p] == '/' || text[p] == '%')) {
          const char op = text[p++];
          const long long r = atom(d);
          if (op == '*') {
            if (__builtin_mul_overflow(v, r, &v)) ok = false;
          } else if (r == 0) {
            ok = false;
          } else {
            v = op == '/' ? v / r : v % r;
          }
        } else {
          return v;
        }
      }
    };
    expr = [&](int d) -> long long {
      long long v = term(d);
      while (true) {
        skip();
        if (p < text.size() && (text[p] == '+' || text[p] == '-')) {
          const char op = text[p++];
          const long long r = term(d);
          if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
            ok = false;
        } else {
          return v;
        }
      }
    };
    const long long v = expr(0);
    skip();
    if (!ok || p != text.size()) return std::nullopt;
    return v;
  }

  // ---- Scanning ------------------------------------------------------------------------------

  // "$@", "${@…}" or "${NAME[@]}" at s[pos]: an expansion into a list of words.
  static bool ListExpansionAt(std::string_view s, std::size_t pos) {
    if (s.substr(pos, 2) == "$@" || s.substr(pos, 3) == "${@") return true;
    if (s.substr(pos, 2) != "${") return false;
    const std::size_t close = s.find('}', pos);
    return close != std::string_view::npos && close >= pos + 5 && s.substr(close - 3, 3) == "[@]";
  }

  // Appends expanded text to the word being built, splitting on blanks when unquoted.
  struct Fields {
    std::vector<std::string> done;
    std::string current;
    bool has = false;
    void Add(const std::string& text, bool split) {
      if (!split) {
        current += text;
        has = true;
        return;
      }
      for (char ch : text) {
        if (ch == ' ' || ch == '\t' || ch == '\n') {
          if (has) done.push_back(current);
          current.clear();
          has = false;
        } else {
          current += ch;
          has = true;
        }
      }
    }
    void AddList(const std::vector<std::string>& items, bool split) {
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0 && !split) {
          done.push_back(current);
          current.clear();
        }
        if (i > 0 && split) Add(" ", true);
        Add(items[i], split);
      }
    }
  };

  // Reads one word (maybe several after splitting) starting at c.pos.
  void ReadWord(Cursor& c, std::vector<RawWord>& words, bool in_array) {
    const std::string_view s = c.text;
    const int line = c.line;
    Fields f;
    bool quoted = false;
    bool assignment = false, append = false;
    std::string name;
    // NAME= / NAME+= at the start of a word (not inside an array literal).
    if (!in_array && IsNameStart(s[c.pos])) {
      std::size_t q = c.pos;
      while (q < s.size() && IsNameChar(s[q])) ++q;
      std::size_t eq = q;
      if (eq < s.size() && s[eq] == '+' && eq + 1 < s.size() && s[eq + 1] == '=') {
        append = true;
        ++eq;
      }
      if (eq < s.size() && s[eq] == '=') {
        assignment = true;
        name = std::string(s.substr(c.pos, q - c.pos));
        c.pos = eq + 1;
        if (c.pos < s.size() && s[c.pos] == '(') {  // NAME=( … )
          ++c.pos;
          RawWord w;
          w.line = line;
          w.assignment = w.array = true;
          w.append = append;
          w.name = name;
          std::vector<RawWord> elements;
          while (c.pos < s.size()) {
            SkipBlanks(c, true);
            if (c.pos >= s.size()) break;
            if (s[c.pos] == ')') {
              ++c.pos;
              break;
            }
            if (s[c.pos] == '#') {
              while (c.pos < s.size() && s[c.pos] != '\n') ++c.pos;
              continue;
            }
            // A character no word starts with (';', '|', '&', '<', '>', '(' — a syntax error in
            // bash's array literal) would end the word before it began: skip it, or the loop
            // never advances (found by fuzz_import_python: "A=( $;{TP} )" hung).
            const std::size_t before = c.pos;
            ReadWord(c, elements, true);
            if (c.pos == before) ++c.pos;
          }
          for (const RawWord& e : elements) w.items.push_back(e.text);
          words.push_back(std::move(w));
          return;
        }
      }
    }
    const bool split = !assignment;
    while (c.pos < s.size()) {
      const char ch = s[c.pos];
      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == ';' || ch == '&' ||
          ch == '|' || ch == '<' || ch == '>' || (ch == ')' && (in_array || !f.has)) ||
          (ch == '(' && !f.has))
        break;
      if (ch == '\\') {
        if (c.pos + 1 < s.size() && s[c.pos + 1] == '\n') {
          c.pos += 2;
          ++c.line;
          break;  // a continuation ends the word
        }
        if (c.pos + 1 < s.size()) f.Add(std::string(1, s[c.pos + 1]), false);
        c.pos += 2;
        continue;
      }
      if (ch == '\'') {
        quoted = true;
        const std::size_t end = s.find('\'', c.pos + 1);
        const std::size_t stop = end == std::string_view::npos ? s.size() : end;
        const std::string_view body = s.substr(c.pos + 1, stop - c.pos - 1);
        for (char b : body)
          if (b == '\n') ++c.line;
        f.Add(std::string(body), false);
        c.pos = stop + 1;
        continue;
      }
      if (ch == '"') {
        quoted = true;
        // "$@", "${@:2}" and "${ARGS[@]}" that expand to no items make no word at all, not an
        // empty one (a script read on its own has no positional parameters): `… --flag True
        // "$@"` passes nothing after True. "" alone is still an empty word.
        const bool had = f.has;
        bool lists = false, other = false;
        f.has = true;
        ++c.pos;
        while (c.pos < s.size() && s[c.pos] != '"') {
          const char d = s[c.pos];
          other = other || d != '$';
          if (d == '\\' && c.pos + 1 < s.size()) {
            const char e = s[c.pos + 1];
            if (e == '\n') {
              ++c.line;
            } else if (e == '$' || e == '`' || e == '"' || e == '\\') {
              f.Add(std::string(1, e), false);
            } else {
              f.Add(std::string(1, '\\') + e, false);
            }
            c.pos += 2;
          } else if (d == '$') {
            const bool list = ListExpansionAt(s, c.pos);
            std::vector<std::string> items;
            bool is_list = false;
            const std::string v = Expansion(c, 0, items, is_list);
            if (list && (is_list ? items.empty() : v.empty()))
              lists = true;
            else
              other = true;
            if (is_list && split)
              f.AddList(items, false);
            else
              f.Add(v, false);
          } else if (d == '`') {
            const std::size_t end = s.find('`', c.pos + 1);
            c.pos = end == std::string_view::npos ? s.size() : end + 1;
          } else {
            if (d == '\n') ++c.line;
            f.Add(std::string(1, d), false);
            ++c.pos;
          }
        }
        ++c.pos;
        if (split && lists && !other && !had && f.current.empty()) f.has = false;
        continue;
      }
      if (ch == '$') {
        std::vector<std::string> items;
        bool is_list = false;
        const std::string v = Expansion(c, 0, items, is_list);
        if (is_list)
          f.AddList(items, split);
        else
          f.Add(v, split);
        continue;
      }
      if (ch == '`') {
        const std::size_t end = s.find('`', c.pos + 1);
        c.pos = end == std::string_view::npos ? s.size() : end + 1;
        Note(c, line, "a `command` substitution is not run; taken as empty");
        continue;
      }
      f.Add(std::string(1, ch), false);
      ++c.pos;
    }
    if (assignment) {
      RawWord w;
      w.line = line;
      w.assignment = true;
      w.append = append;
      w.name = name;
      w.text = f.current;
      for (const std::string& d : f.done) w.text = d + " " + w.text;
      words.push_back(std::move(w));
      return;
    }
    for (std::string& d : f.done) words.push_back(Plain(std::move(d), line, quoted));
    if (f.has) words.push_back(Plain(std::move(f.current), line, quoted));
  }

  void SkipBlanks(Cursor& c, bool newlines) {
    const std::string_view s = c.text;
    while (c.pos < s.size()) {
      if (s[c.pos] == ' ' || s[c.pos] == '\t' || s[c.pos] == '\r') {
        ++c.pos;
      } else if (s[c.pos] == '\\' && c.pos + 1 < s.size() && s[c.pos + 1] == '\n') {
        c.pos += 2;
        ++c.line;
      } else if (newlines && s[c.pos] == '\n') {
        ++c.pos;
        ++c.line;
      } else {
        break;
      }
    }
  }

  Command NextCommand(Cursor& c) {
    Command cmd;
    const std::string_view s = c.text;
    SkipBlanks(c, false);
    cmd.line = c.line;
    while (c.pos < s.size()) {
      SkipBlanks(c, false);
      if (c.pos >= s.size()) break;
      const char ch = s[c.pos];
      if (ch == '#' && (c.pos == 0 || s[c.pos - 1] == ' ' || s[c.pos - 1] == '\t' ||
                        s[c.pos - 1] == '\n' || s[c.pos - 1] == ';')) {
        while (c.pos < s.size() && s[c.pos] != '\n') ++c.pos;
        continue;
      }
      if (ch == '\n') {
        ++c.pos;
        ++c.line;
        if (!c.heredoc.empty()) {
          cmd.heredoc = true;
          cmd.heredoc_body = ReadHeredoc(c);
        }
        cmd.separator = "\n";
        return cmd;
      }
      if (ch == ';' || ch == '&' || ch == '|') {
        std::size_t len = 1;
        if (c.pos + 1 < s.size() && (s[c.pos + 1] == ch || (ch == '|' && s[c.pos + 1] == '&')))
          len = 2;
        if (ch == '&' && c.pos + 1 < s.size() && s[c.pos + 1] == '>') {  // &> file
          c.pos += 2;
          SkipBlanks(c, false);
          std::vector<RawWord> target;
          if (c.pos < s.size()) ReadWord(c, target, false);
          continue;
        }
        cmd.separator = std::string(s.substr(c.pos, len));  // ";;" ends a case branch
        c.pos += len;
        return cmd;
      }
      if (ch == '<' || ch == '>') {  // a redirection and its target
        std::size_t q = c.pos;
        while (q < s.size() && (s[q] == '<' || s[q] == '>' || s[q] == '&' || s[q] == '-' ||
                                std::isdigit(static_cast<unsigned char>(s[q]))))
          ++q;
        const std::string op(s.substr(c.pos, q - c.pos));
        if (!cmd.words.empty() && !cmd.words.back().quoted && ParseInteger(cmd.words.back().text) &&
            cmd.words.back().text.size() == 1)
          cmd.words.pop_back();  // the "2" of 2>&1
        c.pos = q;
        if (op.find('&') != std::string::npos && op.back() != '&') continue;  // >&2
        SkipBlanks(c, false);
        std::vector<RawWord> target;
        if (c.pos < s.size() && s[c.pos] != '\n') ReadWord(c, target, false);
        if (op.rfind("<<", 0) == 0 && op != "<<<" && !target.empty()) c.heredoc = target[0].text;
        if ((op == ">" || op == ">>") && !target.empty()) cmd.output_file = target[0].text;
        continue;
      }
      if (ch == '(' || ch == ')' ||
          ((ch == '{' || ch == '}') &&
           (c.pos + 1 >= s.size() || std::isspace((unsigned char)s[c.pos + 1]) ||
            s[c.pos + 1] == ';'))) {
        cmd.words.push_back(Plain(std::string(1, ch), c.line, false));
        ++c.pos;
        continue;
      }
      ReadWord(c, cmd.words, false);
    }
    return cmd;
  }

  // The here-document's lines up to its delimiter (the body is capped like a value).
  std::string ReadHeredoc(Cursor& c) {
    const std::string delimiter = c.heredoc;
    c.heredoc.clear();
    const std::string_view s = c.text;
    std::string body;
    while (c.pos < s.size()) {
      std::size_t end = s.find('\n', c.pos);
      if (end == std::string_view::npos) end = s.size();
      const std::string_view raw = s.substr(c.pos, end - c.pos);
      const std::string row = import_detail::Trim(raw);
      c.pos = end < s.size() ? end + 1 : end;
      ++c.line;
      if (row == delimiter) break;
      if (body.size() < kMaxValueBytes) body.append(raw).append("\n");
    }
    return body;
  }

  // A here-document's text as the shell hands it over (unquoted delimiter): backslash-newlines
  // joined, $VARIABLES expanded; quotes are literal text there, so they are kept.
  std::string HeredocText(const std::string& body, const Cursor& c, int depth) {
    std::string joined;
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (body[i] == '\\' && i + 1 < body.size() && body[i + 1] == '\n') {
        ++i;
        continue;
      }
      joined += body[i];
    }
    std::string out;
    std::size_t start = 0;
    // Expand outside quotes only: split at quote characters and keep them verbatim.
    for (std::size_t i = 0; i <= joined.size(); ++i) {
      if (i == joined.size() || joined[i] == '"' || joined[i] == '\'') {
        out += ExpandText(std::string_view(joined).substr(start, i - start), c, depth);
        if (i < joined.size()) out += joined[i];
        start = i + 1;
      }
    }
    return out;
  }

  // ---- Execution -------------------------------------------------------------------------

  static std::string Joined(const std::vector<RawWord>& words, std::size_t from) {
    std::string out;
    for (std::size_t i = from; i < words.size() && out.size() < 120; ++i)
      out += (out.empty() ? "" : " ") + words[i].text;
    return out;
  }

  // [ … ], [[ … ]], test …: nullopt when it cannot be decided from the script alone.
  std::optional<bool> Test(std::vector<std::string> w, std::string& why) {
    if (!w.empty() && (w.front() == "[" || w.front() == "[[" || w.front() == "test"))
      w.erase(w.begin());
    if (!w.empty() && (w.back() == "]" || w.back() == "]]")) w.pop_back();
    bool negate = false;
    while (!w.empty() && w.front() == "!") {
      negate = !negate;
      w.erase(w.begin());
    }
    // An unset variable expanded unquoted leaves no word: `[[ ${1} != slurm ]]` arrives as
    // "!= slurm". [[ ]] does not split words, so it compares the empty string; so does this.
    if (w.size() == 2 && (w[0] == "!=" || w[0] == "==" || w[0] == "=")) w.insert(w.begin(), "");
    for (std::size_t i = 0; i < w.size(); ++i) {  // -a / -o inside [ ]
      if (w[i] == "-o" || w[i] == "-a") {
        std::vector<std::string> left(w.begin(), w.begin() + i), right(w.begin() + i + 1, w.end());
        const std::optional<bool> l = Test(left, why), r = Test(right, why);
        if (!l || !r) return std::nullopt;
        const bool v = w[i] == "-o" ? (*l || *r) : (*l && *r);
        return negate ? !v : v;
      }
    }
    std::optional<bool> v;
    if (w.empty()) {
      v = false;
    } else if (w.size() == 1) {
      v = !w[0].empty();
    } else if (w.size() == 2) {
      const std::string& op = w[0];
      if (op == "-z")
        v = w[1].empty();
      else if (op == "-n")
        v = !w[1].empty();
      else if (op == "-v")
        v = out_.variables.count(w[1]) != 0;
      else if (op == "-f" || op == "-e" || op == "-d" || op == "-s" || op == "-r" || op == "-x" ||
               op == "-w" || op == "-L" || op == "-h") {
        v = true;
        why = "files the script checks are assumed to exist";
      }
    } else if (w.size() == 3) {
      const std::string &a = w[0], &op = w[1], &b = w[2];
      if (op == "=" || op == "==")
        v = Glob(b, a);
      else if (op == "!=")
        v = !Glob(b, a);
      else if (op == "<")
        v = a < b;
      else if (op == ">")
        v = a > b;
      else if (op == "-eq" || op == "-ne" || op == "-gt" || op == "-ge" || op == "-lt" ||
               op == "-le") {
        const std::optional<long long> x = ParseInteger(a.empty() ? "0" : a),
                                       y = ParseInteger(b.empty() ? "0" : b);
        if (x && y) {
          v = op == "-eq"   ? *x == *y
              : op == "-ne" ? *x != *y
              : op == "-gt" ? *x > *y
              : op == "-ge" ? *x >= *y
              : op == "-lt" ? *x < *y
                            : *x <= *y;
        }
      }
    }
    if (!v) return std::nullopt;
    return negate ? !*v : *v;
  }

  // [[ a == pattern ]] with * and ? wildcards (linear two-pointer match).
  static bool Glob(const std::string& pattern, const std::string& text) {
    std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
    while (t < text.size()) {
      if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
        ++p;
        ++t;
      } else if (p < pattern.size() && pattern[p] == '*') {
        star = p++;
        mark = t;
      } else if (star != std::string::npos) {
        p = star + 1;
        t = ++mark;
      } else {
        return false;
      }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
  }

  // The condition of if/elif: commands up to `then`, joined by && and ||.
  bool Condition(Command first, Cursor& c, std::string& text) {
    std::optional<bool> result;
    std::string pending_op;
    bool unknown = false;
    std::string why;
    Command cmd = std::move(first);
    for (int guard = 0; guard < 10000; ++guard) {
      std::vector<std::string> words;
      bool then_seen = false;
      for (const RawWord& w : cmd.words) {
        if (w.text == "then" && !w.quoted) {
          then_seen = true;
          break;
        }
        words.push_back(w.text);
      }
      if (!words.empty()) {
        text += (text.empty() ? "" : " " + pending_op + " ") + Joined(cmd.words, 0);
        std::optional<bool> v = Test(words, why);
        if (!v) {
          unknown = true;
          v = false;
        }
        if (!result)
          result = v;
        else if (pending_op == "||")
          result = *result || *v;
        else
          result = *result && *v;
      }
      if (then_seen || (cmd.separator.empty() && c.pos >= c.text.size())) break;
      pending_op = cmd.separator == "&&" || cmd.separator == "||" ? cmd.separator : pending_op;
      cmd = NextCommand(c);
      if (!cmd.words.empty() && cmd.words.front().text == "then" && !cmd.words.front().quoted) {
        cmd.words.erase(cmd.words.begin());
        if (!cmd.words.empty()) pending_then_.push_back(cmd);
        break;
      }
    }
    if (unknown)
      text += " (not decidable from the script: taken as false)";
    else if (!why.empty())
      text += " (" + why + ")";
    return result.value_or(false);
  }

  std::vector<Command> pending_then_;

  void Push(FrameKind kind) {
    if (frames_.size() >= kMaxFrames) {
      out_.error = "blocks nested too deeply (over 256 levels)";
      return;
    }
    Frame f;
    f.kind = kind;
    f.parent_active = active_;
    frames_.push_back(std::move(f));
  }

  void Pop(FrameKind kind) {
    while (!frames_.empty()) {
      const Frame f = frames_.back();
      frames_.pop_back();
      active_ = f.parent_active;
      if (f.kind == kind) return;
    }
  }

  void Execute(Command cmd, Cursor& c, int depth) {
    std::vector<RawWord>& w = cmd.words;
    auto keyword = [&](const char* k) { return !w.empty() && !w[0].quoted && w[0].text == k; };
    // Leading `then` / `do` / `else` keep the rest of the command.
    if (keyword("then") || keyword("do")) {
      w.erase(w.begin());
      if (w.empty()) return;
    }
    if (!frames_.empty() && frames_.back().kind == FrameKind::kFunction) {
      for (const RawWord& word : w) {
        if (word.text == "{" && !word.quoted) {
          ++frames_.back().braces;
          frames_.back().saw_brace = true;
        }
        if (word.text == "}" && !word.quoted) --frames_.back().braces;
      }
      if (frames_.back().saw_brace && frames_.back().braces <= 0) Pop(FrameKind::kFunction);
      return;
    }
    if (keyword("if")) {
      w.erase(w.begin());
      Push(FrameKind::kIf);
      std::string text;
      const bool cond = Condition(cmd, c, text);
      if (frames_.back().parent_active) {
        Note(c, cmd.line,
             "if " + text + " → " + (cond ? "took this branch" : "skipped this branch"));
      }
      frames_.back().any_taken = cond;
      active_ = frames_.back().parent_active && cond;
      RunPendingThen(c, depth);
      return;
    }
    if (keyword("elif")) {
      w.erase(w.begin());
      if (frames_.empty() || frames_.back().kind != FrameKind::kIf) return;
      std::string text;
      const bool cond = Condition(cmd, c, text);
      Frame& f = frames_.back();
      const bool take = !f.any_taken && cond;
      if (f.parent_active && !f.any_taken)
        Note(c, cmd.line,
             "elif " + text + " → " + (take ? "took this branch" : "skipped this branch"));
      f.any_taken = f.any_taken || cond;
      active_ = f.parent_active && take;
      RunPendingThen(c, depth);
      return;
    }
    if (keyword("else")) {
      if (!frames_.empty() && frames_.back().kind == FrameKind::kIf) {
        active_ = frames_.back().parent_active && !frames_.back().any_taken;
      }
      w.erase(w.begin());
      if (w.empty()) return;
    }
    if (keyword("fi")) {
      Pop(FrameKind::kIf);
      return;
    }
    if (keyword("for") || keyword("while") || keyword("until") || keyword("select")) {
      if (active_) Note(c, cmd.line, "the body of this '" + w[0].text + "' loop is not run");
      Push(FrameKind::kLoop);
      active_ = false;
      return;
    }
    if (keyword("done")) {
      Pop(FrameKind::kLoop);
      return;
    }
    // case WORD in PATTERN) … ;; esac: the first branch whose pattern matches the word runs,
    // as in bash; a word the script does not set matches only '*'.
    if (keyword("case")) {
      Push(FrameKind::kCase);
      if (w.size() >= 2) frames_.back().case_word = w[1].text;
      active_ = false;
      return;
    }
    if (!frames_.empty() && frames_.back().kind == FrameKind::kCase && !frames_.back().in_branch &&
        !keyword("esac")) {
      Frame& f = frames_.back();
      std::size_t close = 0;
      while (close < w.size() && !(w[close].text == ")" && !w[close].quoted)) ++close;
      if (close >= w.size()) {  // the reader keeps ')' on its word: "800M)" / "*)"
        for (std::size_t k = 0; k < w.size(); ++k)
          if (w[k].text.size() > 1 && w[k].text.back() == ')') {
            w[k].text.pop_back();
            w.insert(w.begin() + static_cast<std::ptrdiff_t>(k + 1), Plain(")", w[k].line, false));
            close = k + 1;
            break;
          }
      }
      for (std::size_t k = 0; k < close && k < w.size(); ++k)
        if (!(w[k].text == "(" && !w[k].quoted)) f.case_patterns.push_back(w[k].text);
      if (close >= w.size()) return;  // "a|b)" arrives as "a" | "b )": keep collecting
      bool match = false;
      std::string matched;
      for (const std::string& pat : f.case_patterns)
        if (!match && GlobMatch(pat, f.case_word)) {
          match = true;
          matched = pat;
        }
      f.case_patterns.clear();
      f.in_branch = true;
      const bool take = match && !f.any_taken;
      if (f.parent_active && take)
        Note(c, cmd.line, "case '" + f.case_word + "' → took the branch " + matched + ")");
      f.any_taken = f.any_taken || match;
      active_ = f.parent_active && take;
      w.erase(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(close + 1));
      if (w.empty()) return;
    }
    if (keyword("esac")) {
      Pop(FrameKind::kCase);
      return;
    }
    const bool function_def =
        keyword("function") || (w.size() >= 3 && w[1].text == "(" && w[2].text == ")");
    if (function_def) {
      Push(FrameKind::kFunction);
      active_ = false;
      for (const RawWord& word : w)
        if (word.text == "{" && !word.quoted) {
          ++frames_.back().braces;
          frames_.back().saw_brace = true;
        }
      return;
    }
    if (!active_) return;
    // Assignments (also after export/declare/local/readonly).
    std::size_t i = 0;
    const bool exporting = keyword("export") || ((keyword("declare") || keyword("typeset")) &&
                                                 w.size() > 1 && w[1].text.rfind("-", 0) == 0 &&
                                                 w[1].text.find('x') != std::string::npos);
    const bool declaring = keyword("export") || keyword("declare") || keyword("typeset") ||
                           keyword("local") || keyword("readonly");
    if (declaring) {
      i = 1;
      while (i < w.size() && !w[i].assignment && !w[i].text.empty() && w[i].text[0] == '-') ++i;
    }
    while (i < w.size() && w[i].assignment) {
      if (w[i].array)
        AssignArray(w[i].name, w[i].items, c, w[i].line, w[i].append);
      else
        Assign(w[i].name, w[i].text, c, w[i].line, w[i].append);
      ++i;
    }
    // What the next command sees in its environment: exported names, and the assignments
    // written before it on its own line.
    if (exporting) {
      for (std::size_t k = 1; k < w.size(); ++k) {
        const std::string& name = w[k].assignment ? w[k].name : w[k].text;
        if (!name.empty() && name[0] != '-' && name.size() <= 128)
          out_.variables[name].exported = true;
      }
    } else if (!declaring && i < w.size()) {
      for (std::size_t k = 0; k < i; ++k) out_.variables[w[k].name].exported = true;
    }
    if (declaring || i >= w.size()) return;
    const std::string& head = w[i].text;
    if ((head == "source" || head == ".") && i + 1 < w.size()) {
      Source(w[i + 1].text, c, cmd.line, depth);
      return;
    }
    // `read -r -d '' NAME <<EOF … EOF`: the variable holds the here-document (OpenRLHF keeps
    // its training arguments so); `cat > FILE <<EOF`: the script writes a file (a DeepSpeed
    // config), kept so the importers can read it as if it were given.
    if (head == "read" && cmd.heredoc) {
      std::string name;
      for (std::size_t k = i + 1; k < w.size(); ++k) {
        if (w[k].text == "-d" || w[k].text == "-p" || w[k].text == "-a") {
          ++k;
          continue;
        }
        if (!w[k].text.empty() && w[k].text[0] != '-') name = w[k].text;
      }
      if (!name.empty()) {
        Assign(name, HeredocText(cmd.heredoc_body, c, depth), c, cmd.line, false);
        Note(c, cmd.line, "read " + name + " from the here-document that follows");
      }
      return;
    }
    if (head == "cat" && cmd.heredoc && !cmd.output_file.empty()) {
      if (out_.written_files.size() < 16) {
        out_.written_files.push_back({cmd.output_file, HeredocText(cmd.heredoc_body, c, depth)});
        Note(c, cmd.line, "the script writes " + cmd.output_file + " from a here-document: read");
      }
      return;
    }
    if (head == "exit" || head == "return") {
      Note(c, cmd.line, "'" + head + "' is ignored: the rest of the script is still read");
      return;
    }
    DetectLaunch(w, i, c, cmd.line);
  }

  void RunPendingThen(Cursor& c, int depth) {
    std::vector<Command> pending;
    pending.swap(pending_then_);
    for (Command& p : pending) Execute(std::move(p), c, depth);
  }

  void Source(const std::string& path, const Cursor& c, int line, int depth) {
    const std::string base = BaseName(path);
    for (const InputFile& f : others_) {
      if (BaseName(f.name) != base || base.empty()) continue;
      if (depth >= kMaxSourceDepth) {
        Note(c, line, "source " + path + ": sourced too deeply; not read");
        return;
      }
      Note(c, line, "source " + path + " → read " + f.name);
      Run(f, depth + 1);
      return;
    }
    out_.missing_sources.push_back(path);
    Note(c, line, "source " + path + ": that file was not given (add it to read its settings)");
  }

  // ms-swift's commands (swift/cli/main.py ROUTE_MAPPING); sft, pt and rlhf train.
  static bool SwiftCommand(const std::string& word) {
    for (const char* k : {"sft", "pt", "rlhf", "infer", "export", "deploy", "rollout", "eval",
                          "app", "sample", "merge-lora", "web-ui"})
      if (word == k) return true;
    return false;
  }

  // "swift sft" for a path ending in swift/cli/sft.py, "megatron sft" for
  // swift/cli/_megatron/sft.py (pt and rlhf likewise); "" for any other word.
  static std::string SwiftCliScript(const std::string& word) {
    for (const char* command : {"sft", "pt", "rlhf"}) {
      for (const auto& [dir, tool] :
           {std::pair<const char*, const char*>{"swift/cli/_megatron/", "megatron"},
            {"swift/cli/", "swift"}}) {
        const std::string tail = std::string(dir) + command + ".py";
        if (word.size() >= tail.size() &&
            word.compare(word.size() - tail.size(), tail.size(), tail) == 0)
          return std::string(tool) + " " + command;
      }
    }
    return "";
  }

  // A program that trains: a training script or module, or a training command of a tool.
  static bool TrainingProgram(const std::string& program) {
    if (program.find("train") != std::string::npos) return true;
    for (const char* k :
         {"swift sft", "swift pt", "swift rlhf", "megatron sft", "megatron pt", "megatron rlhf"})
      if (program == k) return true;
    return false;
  }

  // A Python module name that runs training ("openrlhf.cli.train_sft"), not a tool (`-m pip`).
  static bool TrainingModule(const std::string& module) {
    for (const char* k : {"train", "sft", "tune", "dpo", "ppo", "rlhf"})
      if (module.find(k) != std::string::npos) return true;
    return false;
  }

  void DetectLaunch(const std::vector<RawWord>& w, std::size_t from, const Cursor& c, int line) {
    static const char* kNotLaunchers[] = {"echo", "printf", "cat",  "ls",   "cp",    "mv",
                                          "rm",   "mkdir",  "wget", "curl", "git",   "cd",
                                          "pip",  "pip3",   "tee",  "grep", "chmod", "touch"};
    for (const char* k : kNotLaunchers)
      if (w[from].text == k) return;
    for (std::size_t k = from; k < w.size(); ++k) {
      const std::string& t = w[k].text;
      std::string program;
      bool tool_command = false;  // the program is a tool and its command: two words
      bool nemo_command = false;  // `nemo llm pretrain`: three words
      // A training module run as the program (`python -m pkg.train_sft`, `deepspeed --module
      // openrlhf.cli.train_sft`; not `python -m pip`, not a launcher module); LLaMA-Factory's
      // `llamafactory-cli train` (or `lmf train`).
      if ((t == "-m" || t == "--module") && k + 1 < w.size() && TrainingModule(w[k + 1].text) &&
          w[k + 1].text.rfind("torch.distributed", 0) != 0 && w[k + 1].text[0] != '-') {
        ++k;
        program = w[k].text;
      } else if ((t == "llamafactory-cli" || t == "lmf") && k + 1 < w.size() &&
                 w[k + 1].text == "train") {
        ++k;
        program = t + " train";
        tool_command = true;
      } else if (const std::string tool = t.substr(t.find_last_of('/') + 1);
                 (tool == "swift" || tool == "megatron") && k + 1 < w.size() &&
                 SwiftCommand(w[k + 1].text)) {
        // ms-swift's entry points (also by path: ~/env/bin/swift): `swift sft|pt|rlhf` (the
        // Trainer) and `megatron sft|pt|rlhf` (Megatron-SWIFT); `swift infer` and the other
        // commands train nothing.
        ++k;
        program = tool + " " + w[k].text;
        tool_command = true;
      } else if (const std::string cli = SwiftCliScript(t); !cli.empty()) {
        // The same entry points run as scripts: swift/cli/sft.py, swift/cli/_megatron/sft.py.
        program = cli;
      } else if (t == "tune" && k + 1 < w.size() && w[k + 1].text == "run") {
        // torchtune's `tune run [torchrun options] RECIPE --config FILE [key=value …]`: the
        // recipe is the first word after the options, each of which (but --standalone) takes
        // a value unless it carries one after '='. The options stay in the launcher, where
        // the world size is read as torchrun's.
        std::size_t j = k + 2;
        while (j < w.size() && w[j].text.rfind("--", 0) == 0)
          j += w[j].text.find('=') == std::string::npos && w[j].text != "--standalone" ? 2 : 1;
        if (j >= w.size()) continue;
        k = j;
        program = w[k].text;
      } else if (t == "nemo" && k + 2 < w.size() && w[k + 1].text == "llm") {
        // NeMo 2's CLI: `nemo llm pretrain|finetune --factory RECIPE key=value …`
        // (bridge_launch.cpp reads it).
        k += 2;
        program = "nemo llm " + w[k].text;
        nemo_command = true;
      } else if (BaseName(t) == "train.sh" &&
                 (EndsWith(t, "training/train.sh") ||
                  std::any_of(w.begin() + k, w.end(),
                              [](const RawWord& x) { return x.text == "--recipe"; }))) {
        // Megatron-Bridge's Slurm launcher (scripts/training/train.sh --recipe NAME …), whose
        // options and overrides bridge_launch.cpp reads.
        program = "train.sh";
      } else if (BaseName(t) == "run_train.sh") {
        // torchtitan's launcher script (it runs torchrun -m torchtitan.train with the words
        // after it): CONFIG_FILE / MODULE + CONFIG and the overrides (torchtitan_launch.cpp).
        program = "run_train.sh";
      } else if (t.size() < 4 || t.compare(t.size() - 3, 3, ".py") != 0 || t[0] == '-') {
        continue;
      } else {
        program = BaseName(t);
      }
      const bool better =
          !out_.found_launch || (!TrainingProgram(out_.program) && TrainingProgram(program));
      if (!better) return;
      out_.found_launch = true;
      out_.launch_variables = out_.variables;
      out_.program = program;
      out_.launch_line = line;
      out_.launch_file = c.file;
      out_.launcher.clear();
      // Words of the program before w[k]: `-m` / `--module`, or a tool before its command.
      const std::size_t program_words =
          nemo_command ? 2
          : tool_command || (k > from && (w[k - 1].text == "-m" || w[k - 1].text == "--module"))
              ? 1
              : 0;
      for (std::size_t j = from; j + program_words < k; ++j)
        out_.launcher += (j > from ? " " : "") + w[j].text;
      out_.args.clear();
      for (std::size_t j = k + 1; j < w.size(); ++j)
        out_.args.push_back({w[j].text, w[j].line, c.file});
      return;
    }
  }
};

}  // namespace

Script ReadScript(const InputFile& main, const std::vector<InputFile>& others) {
  Script out;
  Reader reader(out, others);
  reader.Run(main, 0);
  return out;
}

}  // namespace trainmem::bash
