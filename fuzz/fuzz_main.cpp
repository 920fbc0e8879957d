// libFuzzer driver: TRAINMEM_FUZZ_TARGET names the entry in fuzz_entries.cpp.
#include <cstdio>
#include <cstdlib>

#include "fuzz_entries.h"

namespace {
trainmem::fuzz::Entry Entry() {
  static const trainmem::fuzz::Entry entry = trainmem::fuzz::FindEntry(TRAINMEM_FUZZ_TARGET);
  if (entry == nullptr) {
    std::fprintf(stderr, "no fuzz target named %s\n", TRAINMEM_FUZZ_TARGET);
    std::abort();
  }
  return entry;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Entry()(data, size);
  return 0;
}
