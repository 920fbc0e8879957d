// A YAML document read into JSON, with the line of every leaf: the job files of MindSpeed-LLM's
// FSDP2 trainer (train_fsdp2.py) are YAML. Parsing is yaml-cpp's (Debian source package, see
// third_party/README.md); this file only converts its nodes and bounds what a hostile file costs.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/import/import.h"
#include "core/result.h"

namespace trainmem::import_detail {

struct YamlDocument {
  nlohmann::json value;              // the first document; null for an empty file
  std::map<std::string, int> lines;  // "section.key" (mapping keys joined by '.') → 1-based line
  int LineOf(const std::string& key) const {  // 0 when the key is not there
    auto it = lines.find(key);
    return it == lines.end() ? 0 : it->second;
  }
};

// Plain scalars are typed by YAML 1.1's rules as PyYAML applies them (true/True/yes/on → true,
// ~/null/empty → null, whole numbers → integer), except that any number strtod reads is a
// number ("1e-05" too, which PyYAML leaves a string and the trainer's dataclass casts).
// Quoted scalars stay strings. Aliases are expanded, so the
// output is capped (kMaxYamlNodes) against "billion laughs" documents; nesting is capped too.
// A syntax error names its line and column.
inline constexpr std::size_t kMaxYamlNodes = 100000;
// yaml-cpp builds a node graph of ~100 bytes a character before anything can be capped: a 10 MiB
// YAML took 1.7–3.9 s and 0.4–1.3 GB. Job files are a few kilobytes; larger ones are refused.
inline constexpr std::size_t kMaxYamlBytes = 1u << 20;
inline constexpr int kMaxYamlDepth = 64;
Result<YamlDocument> ReadYaml(std::string_view text);
// ReadYaml of a file, its errors placed as "name line L, column C".
Result<YamlDocument> ReadYamlFile(const InputFile& file);

}  // namespace trainmem::import_detail
