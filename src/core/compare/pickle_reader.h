// A data-only pickle reader: builds dicts, lists, tuples, numbers, strings and booleans from
// the opcodes of protocols 2–5 and refuses every opcode that would import or call anything
// (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, NEWOBJ, INST, OBJ, PERSID, EXT…), naming the opcode and
// its byte offset. Enough for torch.cuda.memory._dump_snapshot, which pickles plain containers.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace trainmem::compare {

// One value. Containers point at other values of the same document (pickles share objects
// through the memo, so a value can appear in several containers).
struct PickleValue {
  enum class Kind { kNone, kBool, kInt, kFloat, kString, kList, kTuple, kDict };
  Kind kind = Kind::kNone;
  bool integer_overflow = false;  // a Python int beyond 64 bits (`integer` is clamped)
  std::int64_t integer = 0;       // also 0/1 for bools
  double number = 0;
  std::string text;                       // str, and bytes as raw characters
  std::vector<const PickleValue*> items;  // list/tuple elements; a dict's keys and values in turn

  // The value of a dict entry with a string key, or nullptr.
  const PickleValue* Get(std::string_view key) const;
  bool IsInt() const { return kind == Kind::kInt && !integer_overflow; }
  bool IsSequence() const { return kind == Kind::kList || kind == Kind::kTuple; }
};

// Owns every value flat (no recursive destruction however deep the nesting).
struct PickleDocument {
  std::deque<PickleValue> values;
  const PickleValue* root = nullptr;
};

struct PickleLimits {
  std::int64_t max_values = 20'000'000;  // refuse rather than exhaust memory
  std::size_t max_stack = 1'000'000;
};

Result<std::shared_ptr<const PickleDocument>> ReadPickle(std::string_view bytes,
                                                         PickleLimits limits = {});

}  // namespace trainmem::compare
