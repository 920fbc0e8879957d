// Helpers for the importer tests: fixtures under tests/data/import, and reading one config key.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/import/import.h"
#include "test_support.h"

namespace trainmem::testing {

inline InputFile Fixture(const std::string& name) {
  std::ifstream in(std::string(TRAINMEM_SOURCE_DIR) + "/tests/data/import/" + name,
                   std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  EXPECT_FALSE(ss.str().empty()) << "missing fixture " << name;
  return {name, ss.str()};
}

inline ImportResult MustImport(const std::vector<InputFile>& files,
                               const std::string& function = "") {
  ImportOptions options;
  options.function = function;
  Result<ImportResult> r = ImportFiles(files, options, TestPresets());
  if (!r.ok()) {
    std::string all;
    for (const Error& e : r.errors()) all += FormatError(e) + "\n";
    ADD_FAILURE() << "import failed:\n" << all;
    return {};
  }
  return r.value();
}

// A dotted key of the imported config ("parallelism.tensor_parallel_degree"), or null.
inline nlohmann::json At(const nlohmann::json& config, const std::string& dotted) {
  const nlohmann::json* node = &config;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = dotted.find('.', start);
    const std::string part = dotted.substr(start, dot - start);
    if (!node->is_object() || !node->contains(part)) return nullptr;
    node = &(*node)[part];
    if (dot == std::string::npos) return *node;
    start = dot + 1;
  }
}

inline bool Missing(const ImportResult& r, const std::string& key) {
  for (const ImportMissing& m : r.report.missing)
    if (m.key == key) return true;
  return false;
}

// True when one of the report's lines (problems, notes) contains `needle`.
inline bool AnyContains(const std::vector<std::string>& list, const std::string& needle) {
  for (const std::string& s : list)
    if (s.find(needle) != std::string::npos) return true;
  return false;
}

inline int ReadLine(const ImportResult& r, const std::string& key) {
  for (const ImportRead& x : r.report.read)
    if (x.key == key) return x.line;
  return -1;
}

}  // namespace trainmem::testing
