// The Python reader's evaluator (python_reader.h): statements of `def` bodies and expressions.
#include "core/import/python_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/import/python_lexer.h"

namespace trainmem::py {

// A dict literal's repeated keys ({**base, "k": v} or {"k": 1, "k": 2}): the last value wins, in
// the position of the key's first appearance, as in Python. Linear in the number of keys.
static void KeepLastOfEachKey(Value& dict) {
  std::unordered_map<std::string, std::size_t> slot;
  std::vector<std::pair<std::string, Ref>> kept;
  kept.reserve(dict.attrs.size());
  for (auto& [key, value] : dict.attrs) {
    auto [it, fresh] = slot.emplace(key, kept.size());
    if (fresh) {
      kept.emplace_back(key, value);
    } else {
      kept[it->second].second = value;
    }
  }
  dict.attrs = std::move(kept);
}

Ref Value::Attr(const std::string& name) const {
  for (const auto& [key, value] : attrs)
    if (key == name) return value;
  return nullptr;
}

namespace {

constexpr int kMaxCallDepth = 48;
// Nesting (brackets, operators, calls) counted across every call active on the stack, not per
// line: the reader recurses once per level, and a recipe calling recipes 48 deep, each line
// nested 120 deep, overflowed the stack (found by fuzz_import_deepspeed). 400 levels need
// ~0.5 MB of stack natively; real recipes nest under 20.
constexpr int kMaxNesting = 400;
// The evaluation budget of one Program::Call, in tokens of the logical lines run (a line costs its
// tokens + 1: each run re-reads its expression). Real registries run a few hundred tokens per
// recipe (tests/data/import: under 200); recipes that call one another two or three times per
// line up to kMaxCallDepth deep grow exponentially, and at 2,000,000 lines such a file held the
// page for seconds (found by fuzz_import_python: 2.5 s natively). 200,000 tokens take ~20 ms.
constexpr long long kMaxEvaluatedTokens = 200000;
constexpr std::size_t kMaxListItems = 100000;
// A string built by '+' beyond this is opaque: `s = s + s`, line after line, doubles it (at the
// 30th line 16 GiB; the reader once ran out of memory on a 2 MB file). Recipe strings are names.
constexpr std::size_t kMaxStringBytes = 1 << 20;

Ref Make(Value::Kind kind, int line) {
  auto v = std::make_shared<Value>();
  v->kind = kind;
  v->line = line;
  return v;
}

Ref Opaque(std::string text, int line) {
  Ref v = Make(Value::Kind::kOpaque, line);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  v->s = std::move(text);
  return v;
}

struct FunctionBody {
  Function info;
  std::vector<LogicalLine> lines;
};

}  // namespace

struct Program::Impl {
  Program& owner;
  std::map<std::string, FunctionBody> functions;
  std::map<std::string, Ref> globals;
  std::set<std::string> external;
  long long steps = 0;
  int call_depth = 0;
  int nesting = 0;                              // see kMaxNesting
  std::set<std::pair<std::string, int>> noted;  // (file, line) of diagnostics already given

  explicit Impl(Program& p) : owner(p) {}

  void Diag(const std::string& file, int line, std::string message) {
    if (!noted.insert({file, line}).second) return;
    owner.diagnostics_.push_back({file, line, std::move(message)});
  }

  Ref Invoke(const std::string& name, const std::vector<Ref>& args,
             const std::vector<std::pair<std::string, Ref>>& kwargs, int line,
             const std::string& file);
  Ref RunBody(const FunctionBody& fn, std::map<std::string, Ref>& locals);
};

namespace {

// An expression parser that evaluates as it goes (there is no control flow to defer).
// One level of nesting (kMaxNesting), undone when the level's parse returns, on every path.
class NestingGuard {
 public:
  explicit NestingGuard(int& nesting) : nesting_(++nesting) {}
  ~NestingGuard() { --nesting_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
  bool too_deep() const { return nesting_ > kMaxNesting; }

 private:
  int& nesting_;
};

class Expr {
 public:
  Expr(Program::Impl& impl, std::map<std::string, Ref>& locals, const LogicalLine& line,
       std::size_t begin, std::size_t end)
      : impl_(impl), locals_(locals), line_(line), pos_(begin), end_(end) {}

  // Evaluates the whole range; sets `error` when it is not an expression we read.
  Ref Parse(std::string& error) {
    Ref v = Tuple();
    if (error_.empty() && pos_ != end_) error_ = "unexpected '" + Peek().text + "'";
    error = error_;
    return error_.empty() ? v : nullptr;
  }

 private:
  Program::Impl& impl_;
  // Building a list or string costs evaluation budget by its size (one token per 64 items or
  // bytes): `y = x + x` on a 50,000-item list, line after line, copied 10^9 items in 25 s
  // within the token budget alone.
  void ChargeCopy(std::size_t size) { impl_.steps += static_cast<long long>(size / 64); }
  // Checked within a line too: past the budget a list or string is not built at all.
  bool OverBudget() const { return impl_.steps > kMaxEvaluatedTokens; }
  std::map<std::string, Ref>& locals_;
  const LogicalLine& line_;
  std::size_t pos_, end_;
  std::string error_;

  const Token& Peek() const {
    static const Token kEnd{Token::Kind::kOp, "<end>", 0, false};
    return pos_ < end_ ? line_.tokens[pos_] : kEnd;
  }
  bool IsOp(const char* op) const {
    return pos_ < end_ && line_.tokens[pos_].kind == Token::Kind::kOp &&
           line_.tokens[pos_].text == op;
  }
  bool IsName(const char* name) const {
    return pos_ < end_ && line_.tokens[pos_].kind == Token::Kind::kName &&
           line_.tokens[pos_].text == name;
  }
  bool Accept(const char* op) {
    if (!IsOp(op)) return false;
    ++pos_;
    return true;
  }
  int Line() const { return pos_ < end_ ? line_.tokens[pos_].line : line_.line; }
  Ref Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    pos_ = end_;
    return Opaque("?", Line());
  }

  // Skips to the matching close bracket of one already consumed.
  void SkipBalanced() {
    int d = 1;
    while (pos_ < end_ && d > 0) {
      const Token& t = line_.tokens[pos_++];
      if (t.kind != Token::Kind::kOp) continue;
      if (t.text == "(" || t.text == "[" || t.text == "{") ++d;
      if (t.text == ")" || t.text == "]" || t.text == "}") --d;
    }
  }

  // a, b, c (a tuple without brackets) — read as a list.
  Ref Tuple() {
    Ref first = Ternary();
    if (!IsOp(",")) return first;
    Ref list = Make(Value::Kind::kList, first->line);
    list->items.push_back(first);
    while (Accept(",")) {
      if (pos_ >= end_ || IsOp(")") || IsOp("]") || IsOp("=")) break;
      list->items.push_back(Ternary());
    }
    return list;
  }

  Ref Ternary() {
    NestingGuard nest(impl_.nesting);
    if (nest.too_deep()) return Fail("expression nested too deeply");
    if (IsName("lambda")) {
      const int line = Line();
      while (pos_ < end_ && !IsOp(":")) ++pos_;
      Accept(":");
      Ternary();
      return Opaque("lambda", line);
    }
    Ref v = Or();
    if (IsName("if")) {
      ++pos_;
      Ref cond = Or();
      if (!IsName("else")) return Fail("'if' without 'else' in an expression");
      ++pos_;
      Ref other = Ternary();
      std::optional<bool> truth = Truth(cond);
      v = !truth ? Opaque("conditional expression", v->line) : (*truth ? v : other);
    }
    return v;
  }

  static std::optional<bool> Truth(const Ref& v) {
    switch (v->kind) {
      case Value::Kind::kNone:
        return false;
      case Value::Kind::kBool:
        return v->b;
      case Value::Kind::kInt:
        return v->i != 0;
      case Value::Kind::kFloat:
        return v->f != 0;
      case Value::Kind::kStr:
        return !v->s.empty();
      case Value::Kind::kList:
        return !v->items.empty();
      case Value::Kind::kObject:
        return true;
      case Value::Kind::kOpaque:
        break;
    }
    return std::nullopt;
  }

  Ref Or() {
    Ref v = And();
    while (IsName("or")) {
      ++pos_;
      Ref rhs = And();
      const std::optional<bool> t = Truth(v);
      v = !t ? Opaque("or", v->line) : (*t ? v : rhs);
    }
    return v;
  }
  Ref And() {
    Ref v = Not();
    while (IsName("and")) {
      ++pos_;
      Ref rhs = Not();
      const std::optional<bool> t = Truth(v);
      v = !t ? Opaque("and", v->line) : (*t ? rhs : v);
    }
    return v;
  }
  Ref Not() {
    if (IsName("not")) {
      ++pos_;
      Ref v;
      {
        NestingGuard nest(impl_.nesting);
        if (nest.too_deep()) return Fail("expression nested too deeply");
        v = Not();
      }
      const std::optional<bool> t = Truth(v);
      if (!t) return Opaque("not", v->line);
      Ref b = Make(Value::Kind::kBool, v->line);
      b->b = !*t;
      return b;
    }
    return Comparison();
  }
  Ref Comparison() {
    Ref v = Arith();
    bool compared = false;
    while (IsOp("==") || IsOp("!=") || IsOp("<") || IsOp(">") || IsOp("<=") || IsOp(">=") ||
           IsName("in") || IsName("is") || (IsName("not") && pos_ + 1 < end_)) {
      const std::string op = Peek().text;
      ++pos_;
      if ((op == "is" && IsName("not")) || (op == "not" && IsName("in"))) ++pos_;
      Ref rhs = Arith();
      if (op == "==" || op == "!=") {
        const bool numeric = (v->kind == Value::Kind::kInt || v->kind == Value::Kind::kFloat) &&
                             (rhs->kind == Value::Kind::kInt || rhs->kind == Value::Kind::kFloat);
        const bool strings = v->kind == Value::Kind::kStr && rhs->kind == Value::Kind::kStr;
        if (numeric || strings) {
          const bool eq = strings ? v->s == rhs->s : AsDouble(v) == AsDouble(rhs);
          Ref b = Make(Value::Kind::kBool, v->line);
          b->b = op == "==" ? eq : !eq;
          v = b;
          continue;
        }
      }
      compared = true;
      v = Opaque("comparison", v->line);
    }
    (void)compared;
    return v;
  }

  static double AsDouble(const Ref& v) {
    return v->kind == Value::Kind::kInt ? static_cast<double>(v->i) : v->f;
  }

  Ref Binary(const std::string& op, const Ref& a, const Ref& b) {
    const bool ints = a->kind == Value::Kind::kInt && b->kind == Value::Kind::kInt;
    const bool nums = (a->kind == Value::Kind::kInt || a->kind == Value::Kind::kFloat) &&
                      (b->kind == Value::Kind::kInt || b->kind == Value::Kind::kFloat);
    if (ints && op != "/" && op != "**") {
      const long long x = a->i, y = b->i;
      long long r = 0;
      bool ok = true;
      if (op == "+")
        ok = !__builtin_add_overflow(x, y, &r);
      else if (op == "-")
        ok = !__builtin_sub_overflow(x, y, &r);
      else if (op == "*")
        ok = !__builtin_mul_overflow(x, y, &r);
      else if (op == "//" || op == "%") {
        if (y == 0) return Opaque("division by zero", a->line);
        long long q = x / y;
        if ((x % y != 0) && ((x < 0) != (y < 0))) --q;  // Python floors
        r = op == "//" ? q : x - q * y;
      } else
        ok = false;
      if (!ok)
        return Opaque(op == "+" || op == "-" || op == "*" ? "integer overflow" : op, a->line);
      Ref v = Make(Value::Kind::kInt, a->line);
      v->i = r;
      return v;
    }
    if (nums) {
      const double x = AsDouble(a), y = AsDouble(b);
      double r = 0;
      if (op == "+")
        r = x + y;
      else if (op == "-")
        r = x - y;
      else if (op == "*")
        r = x * y;
      else if (op == "/" && y != 0)
        r = x / y;
      else if (op == "//" && y != 0)
        r = std::floor(x / y);
      else if (op == "**") {
        if (ints && b->i >= 0 && b->i < 64) {
          long long acc = 1;
          for (long long k = 0; k < b->i; ++k)
            if (__builtin_mul_overflow(acc, a->i, &acc)) return Opaque("integer overflow", a->line);
          Ref v = Make(Value::Kind::kInt, a->line);
          v->i = acc;
          return v;
        }
        r = std::pow(x, y);
      } else
        return Opaque(op, a->line);
      if (!std::isfinite(r)) return Opaque(op, a->line);
      Ref v = Make(Value::Kind::kFloat, a->line);
      v->f = r;
      return v;
    }
    const bool sequences =
        (a->kind == Value::Kind::kStr || a->kind == Value::Kind::kList) && (op == "+" || op == "*");
    if (sequences && OverBudget()) return Opaque("too much to evaluate", a->line);
    if (op == "+" && a->kind == Value::Kind::kStr && b->kind == Value::Kind::kStr) {
      if (a->s.size() + b->s.size() > kMaxStringBytes) return Opaque("long string", a->line);
      Ref v = Make(Value::Kind::kStr, a->line);
      v->s = a->s + b->s;
      ChargeCopy(v->s.size());
      return v;
    }
    if (op == "+" && a->kind == Value::Kind::kList && b->kind == Value::Kind::kList) {
      Ref v = Make(Value::Kind::kList, a->line);
      v->items = a->items;
      if (a->items.size() + b->items.size() > kMaxListItems) return Opaque("list", a->line);
      v->items.insert(v->items.end(), b->items.begin(), b->items.end());
      ChargeCopy(v->items.size());
      return v;
    }
    if (op == "*" && a->kind == Value::Kind::kList && b->kind == Value::Kind::kInt) {
      if (b->i < 0 || a->items.size() * static_cast<std::size_t>(b->i) > kMaxListItems)
        return Opaque("list", a->line);
      Ref v = Make(Value::Kind::kList, a->line);
      for (long long k = 0; k < b->i; ++k)
        v->items.insert(v->items.end(), a->items.begin(), a->items.end());
      ChargeCopy(v->items.size());
      return v;
    }
    return Opaque("expression with " + op, a->line);
  }

  Ref Arith() {
    Ref v = Term();
    while (IsOp("+") || IsOp("-") || IsOp("|") || IsOp("&") || IsOp("^") || IsOp("<<") ||
           IsOp(">>")) {
      const std::string op = Peek().text;
      ++pos_;
      v = Binary(op, v, Term());
    }
    return v;
  }
  Ref Term() {
    Ref v = Factor();
    while (IsOp("*") || IsOp("/") || IsOp("//") || IsOp("%") || IsOp("@")) {
      const std::string op = Peek().text;
      ++pos_;
      v = Binary(op, v, Factor());
    }
    return v;
  }
  Ref Factor() {
    if (IsOp("-") || IsOp("+") || IsOp("~")) {
      const std::string op = Peek().text;
      ++pos_;
      Ref v;
      {
        NestingGuard nest(impl_.nesting);
        if (nest.too_deep()) return Fail("expression nested too deeply");
        v = Factor();
      }
      if (op == "+") return v;
      if (op == "-" && v->kind == Value::Kind::kInt && v->i != LLONG_MIN) {
        Ref r = Make(Value::Kind::kInt, v->line);
        r->i = -v->i;
        return r;
      }
      if (op == "-" && v->kind == Value::Kind::kFloat) {
        Ref r = Make(Value::Kind::kFloat, v->line);
        r->f = -v->f;
        return r;
      }
      return Opaque(op, v->line);
    }
    Ref v = Postfix();
    if (Accept("**")) {
      Ref e;
      {
        NestingGuard nest(impl_.nesting);
        if (nest.too_deep()) return Fail("expression nested too deeply");
        e = Factor();
      }
      v = Binary("**", v, e);
    }
    return v;
  }

  // Call arguments after '(' up to ')'.
  void Arguments(std::vector<Ref>& args, std::vector<std::pair<std::string, Ref>>& kwargs) {
    while (!IsOp(")") && pos_ < end_) {
      if (Accept("*") || Accept("**")) {
        Ternary();  // *args / **kwargs: contents unknown
      } else if (Peek().kind == Token::Kind::kName && pos_ + 1 < end_ &&
                 line_.tokens[pos_ + 1].kind == Token::Kind::kOp &&
                 line_.tokens[pos_ + 1].text == "=") {
        const std::string key = Peek().text;
        pos_ += 2;
        kwargs.emplace_back(key, Ternary());
      } else {
        Ref a = Ternary();
        if (IsName("for")) {  // a generator expression: skip it
          while (pos_ < end_ && !IsOp(")")) ++pos_;
          a = Opaque("generator", a->line);
        }
        args.push_back(a);
      }
      if (!Accept(",")) break;
    }
    if (!Accept(")")) Fail("expected ')'");
  }

  Ref Postfix() {
    NestingGuard nest(impl_.nesting);
    if (nest.too_deep()) return Fail("expression nested too deeply");
    std::string dotted;
    Ref v = Atom(dotted);
    while (pos_ < end_) {
      const int here = Line();  // a call's line is its '(' line, not its first argument's
      if (Accept(".")) {
        if (Peek().kind != Token::Kind::kName) return Fail("expected a name after '.'");
        const std::string name = Peek().text;
        ++pos_;
        dotted = dotted.empty() ? "" : dotted + "." + name;
        v = v && v->kind == Value::Kind::kObject ? v->Attr(name) : nullptr;
      } else if (Accept("(")) {
        const int line = here;
        std::vector<Ref> args;
        std::vector<std::pair<std::string, Ref>> kwargs;
        Arguments(args, kwargs);
        if (!dotted.empty() && impl_.functions.count(dotted) != 0 && !locals_.count(dotted)) {
          v = impl_.Invoke(dotted, args, kwargs, line, line_.file);
        } else if (!dotted.empty()) {
          if (v == nullptr && dotted.find('.') == std::string::npos &&
              dotted.find("Config") == std::string::npos && dotted != "model_registry" &&
              !dotted.empty() && std::islower(static_cast<unsigned char>(dotted[0])))
            impl_.external.insert(dotted);
          Ref obj = Make(Value::Kind::kObject, line);
          obj->s = dotted;
          obj->file = line_.file;
          obj->items = std::move(args);
          obj->attrs = std::move(kwargs);
          v = obj;
        } else {
          v = Opaque("call", line);
        }
        dotted.clear();
      } else if (Accept("[")) {
        const int line = Line();
        const std::size_t start = pos_;
        SkipBalanced();
        (void)start;
        v = Opaque((dotted.empty() ? std::string("value") : dotted) + "[...]", line);
        dotted.clear();
      } else {
        break;
      }
    }
    if (v == nullptr) return Opaque(dotted.empty() ? "?" : dotted, Line());
    return v;
  }

  Ref Atom(std::string& dotted) {
    const Token& t = Peek();
    const int line = t.line;
    if (pos_ >= end_) return Fail("expected a value");
    if (t.kind == Token::Kind::kNumber) {
      ++pos_;
      std::string digits;
      for (char c : t.text)
        if (c != '_') digits += c;
      const bool is_float = digits.find_first_of(".eE") != std::string::npos &&
                            digits.rfind("0x", 0) != 0 && digits.rfind("0X", 0) != 0;
      if (!is_float) {
        errno = 0;
        const long long i = std::strtoll(digits.c_str(), nullptr, 0);
        if (errno == 0) {
          Ref v = Make(Value::Kind::kInt, line);
          v->i = i;
          return v;
        }
        return Opaque(t.text, line);
      }
      const double f = std::strtod(digits.c_str(), nullptr);
      if (!std::isfinite(f)) return Opaque(t.text, line);
      Ref v = Make(Value::Kind::kFloat, line);
      v->f = f;
      return v;
    }
    if (t.kind == Token::Kind::kString) {
      Ref v = Make(Value::Kind::kStr, line);
      bool fstring = false;
      while (pos_ < end_ && Peek().kind == Token::Kind::kString) {
        fstring = fstring || Peek().fstring;
        v->s += Peek().text;
        ++pos_;
      }
      if (fstring) return Opaque("f\"" + v->s + "\"", line);
      return v;
    }
    if (t.kind == Token::Kind::kName) {
      ++pos_;
      if (t.text == "None") return Make(Value::Kind::kNone, line);
      if (t.text == "True" || t.text == "False") {
        Ref v = Make(Value::Kind::kBool, line);
        v->b = t.text == "True";
        return v;
      }
      dotted = t.text;
      if (auto it = locals_.find(t.text); it != locals_.end()) return it->second;
      if (auto it = impl_.globals.find(t.text); it != impl_.globals.end()) return it->second;
      return nullptr;  // a name from elsewhere: its dotted text names it
    }
    if (Accept("(")) {
      if (Accept(")")) return Make(Value::Kind::kList, line);
      Ref v = Tuple();
      if (IsName("for")) {
        while (pos_ < end_ && !IsOp(")")) ++pos_;
        v = Opaque("generator", line);
      }
      if (!Accept(")")) return Fail("expected ')'");
      return v;
    }
    if (Accept("[")) {
      Ref list = Make(Value::Kind::kList, line);
      bool unknown = false;  // an unpacked value we could not read
      while (!IsOp("]") && pos_ < end_) {
        if (Accept("*")) {
          // [*base, x]: base's items are spliced in when base is a list read here.
          Ref base = Ternary();
          if (base != nullptr && base->kind == Value::Kind::kList &&
              list->items.size() + base->items.size() <= kMaxListItems) {
            list->items.insert(list->items.end(), base->items.begin(), base->items.end());
            ChargeCopy(base->items.size());
          } else {
            unknown = true;
          }
          if (!Accept(",")) break;
          continue;
        }
        Ref item = Ternary();
        if (IsName("for")) {  // a list comprehension: contents unknown
          while (pos_ < end_ && !IsOp("]")) {
            if (Accept("[") || Accept("(") || Accept("{"))
              SkipBalanced();
            else
              ++pos_;
          }
          Accept("]");
          return Opaque("list comprehension", line);
        }
        if (list->items.size() < kMaxListItems) list->items.push_back(item);
        if (!Accept(",")) break;
      }
      if (!Accept("]")) return Fail("expected ']'");
      return unknown ? Opaque("list with unpacked values", line) : list;
    }
    if (Accept("{")) {
      // A dict or set: string keys become attributes of an object named "dict".
      Ref obj = Make(Value::Kind::kObject, line);
      obj->s = "dict";
      while (!IsOp("}") && pos_ < end_) {
        if (Accept("**")) {
          // {**base, "k": v}: base's keys first, later keys win as in Python.
          Ref base = Ternary();
          if (base != nullptr && base->kind == Value::Kind::kObject) {
            obj->attrs.insert(obj->attrs.end(), base->attrs.begin(), base->attrs.end());
            ChargeCopy(base->attrs.size());
          }
        } else {
          Ref key = Ternary();
          if (Accept(":")) {
            Ref value = Ternary();
            if (key != nullptr && key->kind == Value::Kind::kStr)
              obj->attrs.emplace_back(key->s, value);
          } else if (IsName("for")) {
            while (pos_ < end_ && !IsOp("}")) {
              if (Accept("[") || Accept("(") || Accept("{"))
                SkipBalanced();
              else
                ++pos_;
            }
          }
        }
        if (!Accept(",")) break;
      }
      if (!Accept("}")) return Fail("expected '}'");
      KeepLastOfEachKey(*obj);
      return obj;
    }
    if (Accept("...")) return Opaque("...", line);
    return Fail("unexpected '" + t.text + "'");
  }
};

bool IsOpToken(const Token& t, const char* op) {
  return t.kind == Token::Kind::kOp && t.text == op;
}

// The index of the top-level '=' (or augmented '+=' …) of an assignment, or npos.
std::size_t AssignmentAt(const LogicalLine& line) {
  int depth = 0;
  for (std::size_t i = 0; i < line.tokens.size(); ++i) {
    const Token& t = line.tokens[i];
    if (t.kind != Token::Kind::kOp) continue;
    if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
    if (t.text == ")" || t.text == "]" || t.text == "}") --depth;
    if (depth != 0) continue;
    if (t.text == "=" || t.text == "+=" || t.text == "-=" || t.text == "*=" || t.text == "//=" ||
        t.text == "/=")
      return i;
  }
  return std::string::npos;
}

std::string LineText(const LogicalLine& line, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end && i < line.tokens.size() && out.size() < 80; ++i) {
    if (!out.empty() && line.tokens[i].kind != Token::Kind::kOp &&
        line.tokens[i - 1].kind != Token::Kind::kOp)
      out += ' ';
    out += line.tokens[i].kind == Token::Kind::kString ? "\"" + line.tokens[i].text + "\""
                                                       : line.tokens[i].text;
  }
  return out;
}

bool IsBlockHeader(const LogicalLine& line) {
  static const char* kKeywords[] = {"if",     "elif",    "else", "for",   "while", "with", "try",
                                    "except", "finally", "def",  "class", "async", "match"};
  const Token& first = line.tokens.front();
  if (first.kind != Token::Kind::kName) return false;
  for (const char* k : kKeywords)
    if (first.text == k) return true;
  return false;
}

}  // namespace

Ref Program::Impl::Invoke(const std::string& name, const std::vector<Ref>& args,
                          const std::vector<std::pair<std::string, Ref>>& kwargs, int line,
                          const std::string& file) {
  const FunctionBody& fn = functions.at(name);
  if (call_depth >= kMaxCallDepth) {
    Diag(file, line, "calls nested too deeply (a recipe that calls itself?): " + name);
    return Opaque(name + "()", line);
  }
  std::map<std::string, Ref> locals;
  for (std::size_t i = 0; i < fn.info.params.size(); ++i) {
    const auto& [param, default_text] = fn.info.params[i];
    Ref value;
    if (i < args.size()) value = args[i];
    for (const auto& [key, v] : kwargs)
      if (key == param) value = v;
    if (!value && !default_text.empty()) {
      LexResult lexed = Lex(default_text, fn.info.file);
      if (!lexed.lines.empty()) {
        std::map<std::string, Ref> none;
        std::string error;
        value = Expr(*this, none, lexed.lines[0], 0, lexed.lines[0].tokens.size()).Parse(error);
      }
    }
    locals[param] = value ? value : Opaque(param, line);
  }
  ++call_depth;
  Ref result = RunBody(fn, locals);
  --call_depth;
  return result ? result : Make(Value::Kind::kNone, line);
}

Ref Program::Impl::RunBody(const FunctionBody& fn, std::map<std::string, Ref>& locals) {
  if (fn.lines.empty()) return nullptr;
  const int base = fn.lines.front().indent;
  for (std::size_t k = 0; k < fn.lines.size(); ++k) {
    const LogicalLine& line = fn.lines[k];
    steps += 1 + static_cast<long long>(line.tokens.size());
    if (steps > kMaxEvaluatedTokens) {
      Diag(line.file, line.line, "stopped: too much to evaluate");
      return nullptr;
    }
    if (line.indent > base) continue;  // inside a nested block (see the header's note)
    const Token& first = line.tokens.front();
    if (IsBlockHeader(line)) {
      if (first.text != "def" && first.text != "class" && first.text != "try" &&
          first.text != "with")
        Diag(line.file, line.line,
             "the body of this '" + first.text + "' block is not evaluated (read, not run)");
      continue;
    }
    if (first.kind == Token::Kind::kString) continue;  // docstring
    if (first.kind == Token::Kind::kName &&
        (first.text == "assert" || first.text == "pass" || first.text == "raise" ||
         first.text == "del" || first.text == "global" || first.text == "nonlocal" ||
         first.text == "import" || first.text == "from" || first.text == "print"))
      continue;
    std::string error;
    if (first.kind == Token::Kind::kName && first.text == "return") {
      if (line.tokens.size() == 1) return Make(Value::Kind::kNone, line.line);
      Ref v = Expr(*this, locals, line, 1, line.tokens.size()).Parse(error);
      if (!v) Diag(line.file, line.line, "could not read this return value: " + error);
      return v;
    }
    const std::size_t eq = AssignmentAt(line);
    if (eq == std::string::npos) {
      Expr(*this, locals, line, 0, line.tokens.size()).Parse(error);  // a call for its effect
      if (!error.empty()) Diag(line.file, line.line, "statement not read: " + error);
      continue;
    }
    // Target: NAME, NAME[: annotation], or NAME(.NAME)+.
    std::size_t target_end = eq;
    for (std::size_t i = 0; i < eq; ++i)
      if (IsOpToken(line.tokens[i], ":")) target_end = i;
    std::vector<std::string> path;
    bool simple = true;
    for (std::size_t i = 0; i < target_end; ++i) {
      const Token& t = line.tokens[i];
      if (i % 2 == 0 && t.kind == Token::Kind::kName)
        path.push_back(t.text);
      else if (i % 2 == 1 && IsOpToken(t, "."))
        continue;
      else
        simple = false;
    }
    if (!simple || path.empty() || target_end % 2 == 0) {
      Diag(line.file, line.line, "assignment not read: " + LineText(line, 0, eq));
      continue;
    }
    if (eq + 1 >= line.tokens.size()) continue;  // "x: int" without a value
    Ref value = Expr(*this, locals, line, eq + 1, line.tokens.size()).Parse(error);
    if (!value) {
      Diag(line.file, line.line, "value not read: " + error);
      value = Opaque(LineText(line, eq + 1, line.tokens.size()), line.line);
    }
    const std::string op = line.tokens[eq].text;
    if (path.size() == 1) {
      locals[path[0]] = op == "=" ? value : Opaque(path[0], line.line);
      continue;
    }
    // Attribute assignment: walk (creating empty objects on the way), then set.
    auto it = locals.find(path[0]);
    Ref node = it != locals.end() ? it->second : nullptr;
    if (!node) {
      auto g = globals.find(path[0]);
      node = g != globals.end() ? g->second : nullptr;
    }
    if (!node || node->kind != Value::Kind::kObject) {
      Diag(line.file, line.line, "'" + path[0] + "' is not a config object here");
      continue;
    }
    for (std::size_t i = 1; i + 1 < path.size(); ++i) {
      Ref next = node->Attr(path[i]);
      if (!next || next->kind != Value::Kind::kObject) {
        next = Make(Value::Kind::kObject, line.line);
        next->file = line.file;
        bool replaced = false;
        for (auto& [key, v] : node->attrs)
          if (key == path[i]) {
            v = next;
            replaced = true;
          }
        if (!replaced) node->attrs.emplace_back(path[i], next);
      }
      node = next;
    }
    if (op != "=") {
      Ref old = node->Attr(path.back());
      const std::string arith = op.substr(0, op.size() - 1);
      if (old && (old->kind == Value::Kind::kInt || old->kind == Value::Kind::kFloat) &&
          (value->kind == Value::Kind::kInt || value->kind == Value::Kind::kFloat)) {
        const double a = old->kind == Value::Kind::kInt ? old->i : old->f;
        const double b = value->kind == Value::Kind::kInt ? value->i : value->f;
        Ref r =
            Make(old->kind == Value::Kind::kInt && value->kind == Value::Kind::kInt && arith != "/"
                     ? Value::Kind::kInt
                     : Value::Kind::kFloat,
                 line.line);
        const double res = arith == "+"   ? a + b
                           : arith == "-" ? a - b
                           : arith == "*" ? a * b
                           : b != 0       ? a / b
                                          : 0;
        if (r->kind == Value::Kind::kInt)
          r->i = static_cast<long long>(res);
        else
          r->f = res;
        value = r;
      } else {
        value = Opaque(LineText(line, 0, line.tokens.size()), line.line);
      }
    }
    value->line = line.line;
    value->file = line.file;
    bool replaced = false;
    for (auto& [key, v] : node->attrs)
      if (key == path.back()) {
        v = value;
        replaced = true;
      }
    if (!replaced) node->attrs.emplace_back(path.back(), value);
  }
  return nullptr;
}

void Program::AddFile(const std::string& name, std::string_view text) {
  if (!impl_) impl_ = std::make_shared<Impl>(*this);
  LexResult lexed = Lex(text, name);
  diagnostics_.insert(diagnostics_.end(), lexed.diagnostics.begin(), lexed.diagnostics.end());
  const std::vector<LogicalLine>& lines = lexed.lines;
  for (std::size_t i = 0; i < lines.size();) {
    const LogicalLine& line = lines[i];
    const Token& first = line.tokens.front();
    std::size_t next = i + 1;
    while (next < lines.size() && lines[next].indent > line.indent) ++next;
    if (line.indent != 0) {  // stray indented code
      i = next;
      continue;
    }
    if (first.kind == Token::Kind::kName && first.text == "from" && line.tokens.size() > 1) {
      std::string module;
      std::size_t k = 1;
      for (; k < line.tokens.size() && line.tokens[k].text != "import"; ++k)
        module += line.tokens[k].text;
      imports_.push_back(module);
      // "import a, b as c" / "import (a, b)": each bound name → "module.name".
      std::map<std::string, std::string>& bound_names = imported_names_[name];
      for (++k; k < line.tokens.size() && module.size() <= kMaxImportModule; ++k) {
        if (line.tokens[k].text == ";") break;  // "from a import b; x = 1"
        if (line.tokens[k].kind != Token::Kind::kName) continue;
        const std::string imported = line.tokens[k].text;
        std::string bound = imported;
        if (k + 2 < line.tokens.size() && line.tokens[k + 1].text == "as" &&
            line.tokens[k + 2].kind == Token::Kind::kName) {
          bound = line.tokens[k + 2].text;
          k += 2;
        }
        if (bound_names.size() >= kMaxImportedNames && bound_names.count(bound) == 0) break;
        bound_names[bound] = module + "." + imported;
      }
    } else if (first.kind == Token::Kind::kName && first.text == "import") {
      imports_.push_back(LineText(line, 1, line.tokens.size()));
    } else if (first.kind == Token::Kind::kName && first.text == "def" && line.tokens.size() > 2 &&
               line.tokens[1].kind == Token::Kind::kName) {
      FunctionBody fn;
      fn.info.name = line.tokens[1].text;
      fn.info.file = name;
      fn.info.line = line.line;
      // Parameters: NAME [: annotation] [= default], separated by top-level commas.
      std::size_t k = 3;
      int depth = 0;
      std::string param, default_text;
      bool in_default = false, in_annotation = false;
      for (; k < line.tokens.size(); ++k) {
        const Token& t = line.tokens[k];
        if (t.kind == Token::Kind::kOp && (t.text == "(" || t.text == "[" || t.text == "{"))
          ++depth;
        if (t.kind == Token::Kind::kOp && (t.text == ")" || t.text == "]" || t.text == "}")) {
          if (depth == 0) break;
          --depth;
        }
        if (depth == 0 && IsOpToken(t, ",")) {
          if (!param.empty()) fn.info.params.emplace_back(param, default_text);
          param.clear();
          default_text.clear();
          in_default = in_annotation = false;
          continue;
        }
        if (depth == 0 && IsOpToken(t, "=")) {
          in_default = true;
          continue;
        }
        if (depth == 0 && IsOpToken(t, ":")) {
          in_annotation = true;
          continue;
        }
        if (in_default) {
          default_text += (t.kind == Token::Kind::kString ? "\"" + t.text + "\"" : t.text) + " ";
        } else if (!in_annotation && t.kind == Token::Kind::kName && param.empty()) {
          param = t.text;
        }
      }
      if (!param.empty()) fn.info.params.emplace_back(param, default_text);
      const std::string annotation = LineText(line, k, line.tokens.size());
      fn.lines.assign(lines.begin() + static_cast<long>(i) + 1,
                      lines.begin() + static_cast<long>(next));
      bool mentions_trainer = annotation.find("Config") != std::string::npos;
      if (annotation.find("->") == std::string::npos) {
        for (const LogicalLine& body : fn.lines)
          for (const Token& t : body.tokens)
            if (t.text == "Trainer" || t.text == "TrainerConfig" || t.text == "JobConfig")
              mentions_trainer = true;
      }
      fn.info.is_recipe = mentions_trainer && fn.info.name[0] != '_' && fn.info.params.empty() &&
                          annotation.find("None") == std::string::npos;
      functions_.push_back(fn.info);
      impl_->functions[fn.info.name] = std::move(fn);
    } else if (first.kind == Token::Kind::kName && !IsBlockHeader(line)) {
      const std::size_t eq = AssignmentAt(line);
      if (eq == 1 && line.tokens[1].text == "=" && eq + 1 < line.tokens.size()) {
        std::map<std::string, Ref> none;
        std::string error;
        Ref v = Expr(*impl_, none, line, 2, line.tokens.size()).Parse(error);
        if (v) impl_->globals[first.text] = v;
      }
    }
    i = next;
  }
  if (lexed.fatal) return;
}

Ref Program::Call(const std::string& name) {
  if (!impl_ || impl_->functions.count(name) == 0) return nullptr;
  impl_->steps = 0;
  Ref r = impl_->Invoke(name, {}, {}, impl_->functions.at(name).info.line,
                        impl_->functions.at(name).info.file);
  external_calls_.assign(impl_->external.begin(), impl_->external.end());
  return r;
}

}  // namespace trainmem::py
