// The parts of a Megatron-Bridge / NeMo 2 launch (bridge_launch_parts.cpp), put together by
// ImportBridgeLaunch (bridge_launch_entry.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/import/bash_reader.h"
#include "core/import/bridge_recipes.h"
#include "core/import/bridge_tree.h"
#include "core/import/import_detail.h"

namespace trainmem::import_detail::bridge_launch {

// Which launch: a 2025 recipe script with a dot-list, run_recipe.py, train.sh, the performance
// harness, NeMo 2's CLI; kNone for anything else.
enum class Layout { kNone, kRecipeScript, kRunRecipe, kTrainSh, kPerfHarness, kNemo2 };
Layout LayoutOf(const bash::Script& script);

// The launch's words apart: options (`--recipe NAME`, `-tp 4`, `--nodes=2`), overrides
// (KEY=VALUE, +KEY=VALUE, ~KEY) and the rest.
struct LaunchWords {
  std::map<std::string, Source> options;  // "--recipe" → value (text) at its line
  std::vector<Source> overrides;          // dot-list words, in order
  std::vector<Source> others;             // positional words not read
};
LaunchWords SplitWords(const bash::Script& script);

// run_recipe.py's -tp / -gb / --lr … into their keys; `gbs_explicit` when -gb is one.
void ApplyConvenience(const LaunchWords& words, BridgeTree& tree, bool& gbs_explicit);
// The dot-list in order (NeMo 2's paths as Bridge's keys); false with `fatal` set on a
// malformed word.
bool ApplyOverrides(const std::vector<Source>& words, Layout layout, BridgeTree& tree, Builder& b,
                    std::vector<Error>& fatal);

// The recipe a launch names and how.
struct NamedRecipe {
  std::string name;
  Source at;
  bool stated = false;    // named by the user (--recipe, --model): an unknown one is an error
  bool defaults = false;  // the launch runs the recipe's settings (not only its model)
  bool head = false;      // a 2026 launcher: legacy names are HEAD's aliases
};
NamedRecipe RecipeOf(Layout layout, const bash::Script& script, const LaunchWords& words);
// `name=N` in a NeMo factory call ("llama3_8b(num_nodes=2)"), 0 when absent.
long long FactoryInt(const std::string& factory, const std::string& name);
void MergeConfigFile(const NamedRecipe& named, const LaunchWords& words,
                     const std::vector<InputFile>& all, BridgeTree& tree, Builder& b,
                     std::vector<Error>& fatal);
void WeakScale(const BridgeRecipe& recipe, long long world, const Source& launch, BridgeTree& tree,
               Builder& b);

}  // namespace trainmem::import_detail::bridge_launch
