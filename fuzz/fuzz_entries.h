// One entry point per fuzz target: the text a stranger can hand a parser goes in, the parser
// and everything downstream of it (estimate, advice, layout search, reports) runs on what it
// accepts, and properties that must hold for every accepted input are checked (a failed check
// aborts, which libFuzzer reports as a crash). The libFuzzer binaries (fuzz/fuzz_main.cpp) and
// the regression replay in the core test suite (tests/core/fuzz_regressions_test.cpp) both call
// these, so a saved crasher replays through exactly the code that found it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace trainmem::fuzz {

using Entry = void (*)(const std::uint8_t* data, std::size_t size);

struct Target {
  const char* name;  // fuzz/regressions/<name>/, fuzz/seeds/<name>/, build/fuzz/fuzz_<name>
  Entry entry;
};

// The importers' targets (fuzz_entries_import.cpp), appended to Targets().
void AppendImportTargets(std::vector<Target>& targets);

// Every target, in the order scripts/fuzz.sh runs them.
const std::vector<Target>& Targets();
// nullptr when no target has that name.
Entry FindEntry(std::string_view name);

}  // namespace trainmem::fuzz
