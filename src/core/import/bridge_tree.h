// A Megatron-Bridge ConfigContainer as a job puts it together, layer over layer: the recipe's
// defaults, the override YAML (`--config-file`, merged as OmegaConf.merge does), the launcher's
// convenience flags (run_recipe.py -tp/-gb/…), then the Hydra dot-list (`model.x=4`, `+a.b=1`,
// `~a.b`), which wins (Bridge v0.2.0 examples/recipes/llama/pretrain_llama3_8b.py docstring
// lines 37-47; HEAD scripts/training/run_recipe.py lines 20-60). Each leaf keeps where it came
// from, so the report names the line and the text that set it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/import/import.h"
#include "core/import/yaml_reader.h"

namespace trainmem::import_detail {

struct BridgeOrigin {
  std::string file;
  int line = 0;
  std::string text;  // as written: "model.tensor_model_parallel_size=4", "-tp 4", a YAML key
};

class BridgeTree {
 public:
  nlohmann::json value = nlohmann::json::object();

  // Sets a dotted key, creating the mappings on the way (a scalar in the way is replaced).
  void Set(const std::string& dotted, nlohmann::json v, BridgeOrigin origin);
  bool Has(const std::string& dotted) const;
  // Deletes a key and everything under it; false when it was not there.
  bool Erase(const std::string& dotted);
  // OmegaConf.merge of a YAML document over the tree: mappings merge key by key, any other
  // value replaces. Each leaf's origin is the YAML line (text = the dotted key).
  void Merge(const YamlDocument& doc, const std::string& file);
  // Where a key's value came from; for a section, its first leaf's origin. nullptr if unknown.
  const BridgeOrigin* OriginOf(const std::string& dotted) const;

 private:
  void MergeNode(const nlohmann::json& node, const std::string& prefix, const YamlDocument& doc,
                 const std::string& file, nlohmann::json& into);
  // Drops the origins of the keys under `dotted` (its section's leaves), not its own.
  void ForgetUnder(const std::string& dotted);
  std::map<std::string, BridgeOrigin> origins_;  // dotted leaf key → origin
};

// One Hydra override word: `a.b=v` (set), `+a.b=v` (add), `++a.b=v` (add or set), `~a.b` or
// `~a.b=v` (delete). Values are typed as Hydra's grammar types them: null, true/false (any
// case), integers, floats, [lists], 'quoted' / "quoted" strings; anything else is a string
// (torch.float16, an enum name).
struct DotItem {
  enum class Op { kSet, kAdd, kForceAdd, kDelete };
  Op op = Op::kSet;
  std::string key;
  nlohmann::json value;
};
// True for a word shaped like an override (a dotted or plain identifier path before '=', or '~'
// before one); a flag (`--x`) or a path is not.
bool LooksLikeDotItem(std::string_view word);
// nullopt with `error` set when the word is malformed ("model.=4", "=4", "model..x=1").
std::optional<DotItem> ParseDotItem(std::string_view word, std::string& error);
nlohmann::json HydraValue(std::string_view text);

// Integer fields of the ConfigContainer a memory estimate depends on: each must be a whole
// number in range (null where Bridge allows None). Adds one error per bad value, naming the
// key, its text and where it was written.
void CheckBridgeNumbers(const BridgeTree& tree, std::vector<Error>& errors);

}  // namespace trainmem::import_detail
