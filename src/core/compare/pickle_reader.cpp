// Opcodes follow CPython's Lib/pickletools.py descriptions (protocols 0–5). Only the
// data-building subset is executed; the reader never imports, constructs or calls anything.
#include "core/compare/pickle_reader.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace trainmem::compare {

const PickleValue* PickleValue::Get(std::string_view key) const {
  if (kind != Kind::kDict) return nullptr;
  for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
    const PickleValue* k = items[i];
    if (k->kind == Kind::kString && k->text == key) return items[i + 1];
  }
  return nullptr;
}

namespace {

using Kind = PickleValue::Kind;

// Opcodes outside the subset, named for the message (pickletools names).
const char* RefusedName(unsigned char op) {
  switch (op) {
    case 'c':
      return "GLOBAL";
    case 0x93:
      return "STACK_GLOBAL";
    case 'R':
      return "REDUCE";
    case 'b':
      return "BUILD";
    case 0x81:
      return "NEWOBJ";
    case 0x92:
      return "NEWOBJ_EX";
    case 'i':
      return "INST";
    case 'o':
      return "OBJ";
    case 'P':
      return "PERSID";
    case 'Q':
      return "BINPERSID";
    case 0x82:
      return "EXT1";
    case 0x83:
      return "EXT2";
    case 0x84:
      return "EXT4";
    case 0x96:
      return "BYTEARRAY8";
    case 0x97:
      return "NEXT_BUFFER";
    case 0x98:
      return "READONLY_BUFFER";
    case 'I':
      return "INT (protocol 0)";
    case 'L':
      return "LONG (protocol 0)";
    case 'F':
      return "FLOAT (protocol 0)";
    case 'S':
      return "STRING (protocol 0)";
    case 'V':
      return "UNICODE (protocol 0)";
    case 'p':
      return "PUT (protocol 0)";
    case 'g':
      return "GET (protocol 0)";
    case 'l':
      return "LIST (protocol 0)";
    case 'd':
      return "DICT (protocol 0)";
    default:
      return nullptr;
  }
}

std::string Hex(unsigned char op) {
  static const char* digits = "0123456789abcdef";
  return std::string("0x") + digits[op >> 4] + digits[op & 15];
}

class Reader {
 public:
  Reader(std::string_view bytes, PickleLimits limits, PickleDocument& doc)
      : in_(bytes), limits_(limits), doc_(doc) {}

  // Empty on success; otherwise the message.
  std::string Run() {
    while (true) {
      if (pos_ >= in_.size()) return "the pickle ends before its STOP opcode (file cut short?)";
      const std::size_t at = pos_;
      const unsigned char op = static_cast<unsigned char>(in_[pos_++]);
      std::string problem = Step(op, at);
      if (problem == "stop") {
        if (stack_.empty()) return "STOP with nothing on the stack";
        doc_.root = stack_.back();
        return "";
      }
      if (!problem.empty()) {
        const char* name = RefusedName(op);
        return "opcode " + Hex(op) + (name != nullptr ? std::string(" ") + name : std::string()) +
               " at byte " + std::to_string(at) + ": " + problem;
      }
    }
  }

 private:
  PickleValue* New(Kind kind) {
    if (static_cast<std::int64_t>(doc_.values.size()) >= limits_.max_values) return nullptr;
    doc_.values.emplace_back();
    doc_.values.back().kind = kind;
    return &doc_.values.back();
  }

  bool Take(std::size_t n, std::string_view& out) {
    if (in_.size() - pos_ < n) return false;
    out = in_.substr(pos_, n);
    pos_ += n;
    return true;
  }

  bool Unsigned(std::size_t n, std::uint64_t& value) {
    std::string_view b;
    if (!Take(n, b)) return false;
    value = 0;
    for (std::size_t i = 0; i < n; ++i)
      value |= std::uint64_t(static_cast<unsigned char>(b[i])) << (8 * i);
    return true;
  }

  std::string Push(PickleValue* v) {
    if (v == nullptr)
      return "more values than the reader allows (" + std::to_string(limits_.max_values) + ")";
    if (stack_.size() >= limits_.max_stack) return "stack deeper than the reader allows";
    stack_.push_back(v);
    return "";
  }

  std::string PushInt(std::int64_t value, bool overflow = false) {
    PickleValue* v = New(Kind::kInt);
    if (v != nullptr) {
      v->integer = value;
      v->integer_overflow = overflow;
    }
    return Push(v);
  }

  std::string PushText(std::size_t length_bytes, Kind kind) {
    std::uint64_t n = 0;
    if (!Unsigned(length_bytes, n)) return "cut short in a string length";
    std::string_view text;
    if (n > in_.size() || !Take(static_cast<std::size_t>(n), text)) return "cut short in a string";
    PickleValue* v = New(kind);
    if (v != nullptr) v->text.assign(text.data(), text.size());
    return Push(v);
  }

  // LONG1/LONG4: little-endian two's complement of n bytes.
  std::string PushLong(std::size_t length_bytes) {
    std::uint64_t n = 0;
    if (!Unsigned(length_bytes, n)) return "cut short in a long length";
    std::string_view b;
    if (n > in_.size() || !Take(static_cast<std::size_t>(n), b)) return "cut short in a long";
    if (n == 0) return PushInt(0);
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(b[i]); };
    const bool negative = (byte(n - 1) & 0x80) != 0;
    const unsigned char fill = negative ? 0xff : 0x00;
    // Fits in 64 bits when every byte past the eighth only repeats the sign and the eighth
    // byte's top bit agrees with it.
    bool overflow = false;
    if (n > 8) {
      for (std::size_t i = 8; i < n; ++i) overflow = overflow || byte(i) != fill;
      overflow = overflow || ((byte(7) & 0x80) != 0) != negative;
    }
    std::uint64_t u = 0;
    for (std::size_t i = 0; i < 8; ++i) {
      u |= std::uint64_t(i < n ? byte(i) : fill) << (8 * i);
    }
    std::int64_t value;
    std::memcpy(&value, &u, sizeof value);
    if (overflow) value = negative ? INT64_MIN : INT64_MAX;
    return PushInt(value, overflow);
  }

  bool PopMark(std::size_t& mark) {
    if (marks_.empty()) return false;
    mark = marks_.back();
    marks_.pop_back();
    return mark <= stack_.size();
  }

  std::string Tuple(std::size_t count) {
    if (stack_.size() < count) return "TUPLE with too few values on the stack";
    PickleValue* t = New(Kind::kTuple);
    if (t == nullptr) return Push(nullptr);
    t->items.assign(stack_.end() - count, stack_.end());
    stack_.resize(stack_.size() - count);
    return Push(t);
  }

  std::string Memo(std::uint64_t index) {
    if (stack_.empty()) return "memo store with an empty stack";
    if (memo_.size() >= static_cast<std::size_t>(limits_.max_values)) return "memo too large";
    memo_[index] = stack_.back();
    return "";
  }

  std::string Recall(std::uint64_t index) {
    auto it = memo_.find(index);
    if (it == memo_.end()) return "memo index " + std::to_string(index) + " was never stored";
    if (stack_.size() >= limits_.max_stack) return "stack deeper than the reader allows";
    stack_.push_back(it->second);
    return "";
  }

  // APPEND/APPENDS/SETITEM(S)/ADDITEMS onto the container below `first`.
  std::string Fill(std::size_t first, Kind want) {
    if (first == 0 || first > stack_.size()) return "no container below the items";
    PickleValue* target = stack_[first - 1];
    if (target->kind != want)
      return "items added to something that is not a " +
             std::string(want == Kind::kDict ? "dict" : "list");
    const std::size_t count = stack_.size() - first;
    if (want == Kind::kDict && count % 2 != 0) return "SETITEMS with an odd number of values";
    target->items.insert(target->items.end(), stack_.begin() + first, stack_.end());
    stack_.resize(first);
    return "";
  }

  std::string Step(unsigned char op, std::size_t at) {
    std::uint64_t u = 0;
    std::size_t mark = 0;
    switch (op) {
      case 0x80:  // PROTO
        return Unsigned(1, u)
                   ? (u <= 5 ? "" : "pickle protocol " + std::to_string(u) + " is newer than 5")
                   : "cut short after PROTO";
      case 0x95:  // FRAME: a length hint only
        return Unsigned(8, u) ? "" : "cut short in FRAME";
      case '.':
        return "stop";
      case '(':
        marks_.push_back(stack_.size());
        return "";
      case '0':  // POP
        if (stack_.empty()) return "POP with an empty stack";
        stack_.pop_back();
        return "";
      case '1':  // DUP
        if (stack_.empty()) return "DUP with an empty stack";
        return Push(stack_.back());
      case '2':  // POP_MARK
        if (!PopMark(mark)) return "POP_MARK without MARK";
        stack_.resize(mark);
        return "";
      case 'N':
        return Push(New(Kind::kNone));
      case 0x88:
      case 0x89: {
        PickleValue* v = New(Kind::kBool);
        if (v != nullptr) v->integer = op == 0x88;
        return Push(v);
      }
      case 'K':
        return Unsigned(1, u) ? PushInt(static_cast<std::int64_t>(u)) : "cut short in BININT1";
      case 'M':
        return Unsigned(2, u) ? PushInt(static_cast<std::int64_t>(u)) : "cut short in BININT2";
      case 'J': {
        if (!Unsigned(4, u)) return "cut short in BININT";
        return PushInt(static_cast<std::int32_t>(static_cast<std::uint32_t>(u)));
      }
      case 0x8a:
        return PushLong(1);
      case 0x8b:
        return PushLong(4);
      case 'G': {  // BINFLOAT: big-endian IEEE double
        std::string_view b;
        if (!Take(8, b)) return "cut short in BINFLOAT";
        std::uint64_t bits = 0;
        for (char c : b) bits = (bits << 8) | static_cast<unsigned char>(c);
        PickleValue* v = New(Kind::kFloat);
        if (v != nullptr) std::memcpy(&v->number, &bits, sizeof bits);
        return Push(v);
      }
      case 0x8c:
        return PushText(1, Kind::kString);  // SHORT_BINUNICODE
      case 'X':
        return PushText(4, Kind::kString);  // BINUNICODE
      case 0x8d:
        return PushText(8, Kind::kString);  // BINUNICODE8
      case 'U':
      case 'C':
        return PushText(1, Kind::kString);  // SHORT_BINSTRING, SHORT_BINBYTES
      case 'T':
      case 'B':
        return PushText(4, Kind::kString);  // BINSTRING, BINBYTES
      case 0x8e:
        return PushText(8, Kind::kString);  // BINBYTES8
      case ']':
        return Push(New(Kind::kList));
      case '}':
        return Push(New(Kind::kDict));
      case 0x8f:
        return Push(New(Kind::kList));  // EMPTY_SET, read as a list
      case ')':
        return Tuple(0);
      case 0x85:
        return Tuple(1);
      case 0x86:
        return Tuple(2);
      case 0x87:
        return Tuple(3);
      case 't':
        if (!PopMark(mark)) return "TUPLE without MARK";
        return Tuple(stack_.size() - mark);
      case 0x91: {  // FROZENSET
        if (!PopMark(mark)) return "FROZENSET without MARK";
        std::string problem = Tuple(stack_.size() - mark);
        if (problem.empty()) stack_.back()->kind = Kind::kList;
        return problem;
      }
      case 'a':
        return stack_.size() < 2 ? "APPEND with too few values"
                                 : Fill(stack_.size() - 1, Kind::kList);
      case 's':
        return stack_.size() < 3 ? "SETITEM with too few values"
                                 : Fill(stack_.size() - 2, Kind::kDict);
      case 'e':
      case 0x90:
        if (!PopMark(mark)) return "APPENDS without MARK";
        return Fill(mark, Kind::kList);
      case 'u':
        if (!PopMark(mark)) return "SETITEMS without MARK";
        return Fill(mark, Kind::kDict);
      case 0x94:
        return Memo(memo_.size());  // MEMOIZE
      case 'q':
        return Unsigned(1, u) ? Memo(u) : "cut short in BINPUT";
      case 'r':
        return Unsigned(4, u) ? Memo(u) : "cut short in LONG_BINPUT";
      case 'h':
        return Unsigned(1, u) ? Recall(u) : "cut short in BINGET";
      case 'j':
        return Unsigned(4, u) ? Recall(u) : "cut short in LONG_BINGET";
      default:
        break;
    }
    (void)at;
    if (RefusedName(op) != nullptr) {
      return "refused: it would import or build Python objects, or it is outside the data-only "
             "subset this reader accepts (a memory snapshot needs neither)";
    }
    return "unknown opcode (not one of pickle protocols 0-5)";
  }

  std::string_view in_;
  PickleLimits limits_;
  PickleDocument& doc_;
  std::size_t pos_ = 0;
  std::vector<PickleValue*> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint64_t, PickleValue*> memo_;
};

}  // namespace

Result<std::shared_ptr<const PickleDocument>> ReadPickle(std::string_view bytes,
                                                         PickleLimits limits) {
  auto doc = std::make_shared<PickleDocument>();
  Reader reader(bytes, limits, *doc);
  const std::string problem = reader.Run();
  if (!problem.empty())
    return Result<std::shared_ptr<const PickleDocument>>::Failure("pickle", problem);
  return Result<std::shared_ptr<const PickleDocument>>::Success(doc);
}

}  // namespace trainmem::compare
