// py::Program (src/core/import/python_reader.cpp): the evaluation budget of one call.
#include <gtest/gtest.h>

#include <string>

#include "core/import/python_reader.h"

namespace trainmem::py {
namespace {

// f0() calls f1() twice in one line, f1 calls f2 twice, ..., f<depth> returns 1: 2^(depth+1) - 1
// calls, and f0 returns 2^depth.
std::string DoublingRecipes(int depth) {
  std::string text;
  for (int i = 0; i < depth; ++i) {
    const std::string next = "f" + std::to_string(i + 1) + "()";
    text +=
        "def f" + std::to_string(i) + "():\n    a = " + next + " + " + next + "\n    return a\n";
  }
  text += "def f" + std::to_string(depth) + "():\n    return 1\n";
  return text;
}

bool Says(const Program& p, const std::string& words) {
  for (const Diagnostic& d : p.diagnostics())
    if (d.message.find(words) != std::string::npos) return true;
  return false;
}

TEST(PythonReader, CallsThatMultiplyStopAtTheTokenBudget) {
  // Depth 17: 262,143 calls of two logical lines each (524,286 lines, ~14 tokens per call with
  // the line costs: "a = f1 ( ) + f1 ( )" 9 tokens + 1, "return a" 2 + 1) = ~3.4 million
  // tokens, over the 200,000-token budget, so the reader stops and says so. A budget counted in
  // lines (2,000,000) let this run to the end: the fuzzer's worst case held the page 2.5 s.
  Program p;
  p.AddFile("r.py", DoublingRecipes(17));
  (void)p.Call("f0");
  EXPECT_TRUE(Says(p, "too much to evaluate"));
}

TEST(PythonReader, RecipesWithinTheBudgetAreEvaluated) {
  // Depth 10: 2,047 calls, ~13 tokens each = ~27,000 tokens: within the budget; f0 = 2^10.
  Program p;
  p.AddFile("r.py", DoublingRecipes(10));
  const Ref r = p.Call("f0");
  EXPECT_FALSE(Says(p, "too much to evaluate"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->kind, Value::Kind::kInt);
  EXPECT_EQ(r->i, 1024);
}

TEST(PythonReader, NestingIsCountedAcrossCalls) {
  // g0 returns ((((((((((g1())))))))))), ..., g39 returns 1: each line nests ~13 levels (ten
  // brackets, the call, the expression's entry), 40 calls deep = ~520 levels on the stack at
  // once, over the 400 allowed. Counted per line (the old rule: 120 each) every line passed,
  // and 48 such calls with 120-deep lines overflowed the stack under ASan.
  std::string text;
  const int calls = 40;
  for (int i = 0; i < calls; ++i)
    text += "def g" + std::to_string(i) + "():\n    return " + std::string(10, '(') + "g" +
            std::to_string(i + 1) + "()" + std::string(10, ')') + "\n";
  text += "def g" + std::to_string(calls) + "():\n    return 1\n";
  Program deep;
  deep.AddFile("r.py", text);
  (void)deep.Call("g0");
  EXPECT_TRUE(Says(deep, "nested too deeply"));
  // The same recipes entered 10 calls from the end (~130 levels) are read to their value.
  Program shallow;
  shallow.AddFile("r.py", text);
  const Ref r = shallow.Call("g30");
  EXPECT_FALSE(Says(shallow, "nested too deeply"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->i, 1);
}

// `s = s + s`, line after line, doubled a string until memory ran out (a 2 MB registry file
// took 23 GB and was killed). A string past 1 MiB is opaque; the 17th doubling of 16 bytes
// (2 MiB) is the first one refused, so s keeps 1 MiB.
TEST(PythonReader, StringDoublingStopsAtOneMebibyte) {
  // f() doubles a 16-byte string `doublings` times and returns it.
  const auto doubled = [](int doublings) {
    std::string text = "def f():\n    s = \"xxxxxxxxxxxxxxxx\"\n";
    for (int i = 0; i < doublings; ++i) text += "    s = s + s\n";
    Program p;
    p.AddFile("r.py", text + "    return s\n");
    return p.Call("f");
  };
  const Ref r = doubled(100);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->kind, Value::Kind::kOpaque);
  const Ref one_mib = doubled(16);
  ASSERT_NE(one_mib, nullptr);
  ASSERT_EQ(one_mib->kind, Value::Kind::kStr);
  EXPECT_EQ(one_mib->s.size(), std::size_t{1} << 20);
}

// Copying big lists costs budget by their size: `y = x + x` on a 50,000-item list 40,000 times
// (within the token budget alone) copied 4·10^9 items in 25 s. At one token per 64 items each
// copy costs 1,562 tokens, so the reader stops after ~128 of them and says so.
TEST(PythonReader, CopyingBigListsSpendsTheBudget) {
  std::string text = "def f():\n    x = [1] * 50000\n";
  for (int i = 0; i < 40000; ++i) text += "    y = x + x\n";
  text += "    return 1\n";
  Program p;
  p.AddFile("r.py", text);
  (void)p.Call("f");
  EXPECT_TRUE(Says(p, "too much to evaluate"));
}

// Unpacking in literals, as current torchtitan registries write their override lists:
// [*base, x] splices base's items in; {**base, "k": v} takes base's keys and lets later keys win
// (Python's rule), keeping each key where it first appeared.
TEST(PythonReader, UnpackingInListAndDictLiterals) {
  Program p;
  p.AddFile("r.py",
            "BASE = [1, 2]\n"
            "DEFAULTS = {\"a\": 1, \"b\": 2}\n"
            "def spliced():\n    return [*BASE, 3]\n"
            "def merged():\n    return {**DEFAULTS, \"b\": 5, \"c\": 6}\n"
            "def unknown():\n    return [*elsewhere, 3]\n");
  const Ref list = p.Call("spliced");
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->kind, Value::Kind::kList);
  ASSERT_EQ(list->items.size(), 3u);
  EXPECT_EQ(list->items[0]->i, 1);
  EXPECT_EQ(list->items[2]->i, 3);
  const Ref dict = p.Call("merged");
  ASSERT_NE(dict, nullptr);
  ASSERT_EQ(dict->attrs.size(), 3u);
  EXPECT_EQ(dict->attrs[0].first, "a");
  EXPECT_EQ(dict->Attr("b")->i, 5);
  EXPECT_EQ(dict->Attr("c")->i, 6);
  // A list whose unpacked part is not readable is not read as a shorter list.
  const Ref opaque = p.Call("unknown");
  ASSERT_NE(opaque, nullptr);
  EXPECT_NE(opaque->kind, Value::Kind::kList);
}

// "from M import a as b, c" binds b → M.a and c → M.c in that file; a ';' ends the import. A
// hostile import (a 300 KB module path, 20,000 names) records nothing past the caps instead of
// module length × names bytes.
TEST(PythonReader, ImportedNamesAreBoundPerFileAndCapped) {
  Program p;
  p.AddFile("reg.py",
            "from torchtitan.models.gpt_oss import model_registry as gpt_oss_model_registry, "
            "other\nfrom torchtitan.models.qwen3 import (\n    model_registry,\n)\n"
            "from x.y import z; w = 1\n");
  const auto& names = p.imported_names().at("reg.py");
  EXPECT_EQ(names.at("gpt_oss_model_registry"), "torchtitan.models.gpt_oss.model_registry");
  EXPECT_EQ(names.at("other"), "torchtitan.models.gpt_oss.other");
  EXPECT_EQ(names.at("model_registry"), "torchtitan.models.qwen3.model_registry");
  EXPECT_EQ(names.at("z"), "x.y.z");
  EXPECT_EQ(names.count("w"), 0u);
  std::string hostile = "from " + std::string(300000, 'a') + " import ";
  for (int i = 0; i < 20000; ++i) hostile += "n" + std::to_string(i) + ", ";
  hostile += "last\nfrom m import ";
  for (int i = 0; i < 20000; ++i) hostile += "k" + std::to_string(i) + ", ";
  hostile += "last\n";
  Program h;
  h.AddFile("h.py", hostile);
  const auto& bound = h.imported_names().at("h.py");
  EXPECT_EQ(bound.count("n0"), 0u);  // the 300 KB module path is over the cap
  EXPECT_EQ(bound.size(), Program::kMaxImportedNames);
  EXPECT_EQ(bound.at("k0"), "m.k0");
}

}  // namespace
}  // namespace trainmem::py
