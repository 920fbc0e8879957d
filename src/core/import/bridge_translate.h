// Megatron-Bridge ConfigContainer keys read as the Megatron-LM arguments they set
// (bridge_translate.cpp), for every Bridge input: the resolved run_config.yaml, an override
// YAML, a launch line's recipe + overrides.
#pragma once

#include <vector>

#include "core/import/bash_reader.h"
#include "core/import/bridge_recipes.h"
#include "core/import/bridge_tree.h"
#include "core/import/import_detail.h"

namespace trainmem::import_detail {

// Reads `tree` through ImportMegatronLaunch: its keys become the Megatron flags they set, and
// the report names each key as written with the flag it became; keys not read are listed as
// ignored. `script` says what was launched (program, launcher words, line); `prefix` holds
// words read before the tree's (a recipe model's architecture, which the tree's keys override).
void ImportBridgeTree(const BridgeTree& tree, const InputFile& file, bash::Script script,
                      const std::vector<bash::Word>& prefix, Builder& b, const Presets& presets,
                      std::vector<Error>& fatal);

// One Bridge job as the files state it: the merged tree, the recipe it starts from (if named
// and known) and its launch.
struct BridgeJob {
  BridgeTree tree;
  const BridgeRecipe* recipe = nullptr;
  BridgeOrigin recipe_origin;  // where the recipe is named
  // Without a recipe (a YAML alone, a script whose recipe is not in the table): why the model
  // is missing.
  std::string no_model_why;
  bash::Script script;  // program, launcher words (torchrun's world size), launch line
  long long world = 0;  // a world size the launcher states in its own options (train.sh)
  Source world_source;  // … and where
};

// The common end of every Bridge input: checks the numbers, reads the tree (ImportBridgeTree),
// then takes the recipe's model, or says why the model is missing (bridge_import.cpp).
void RunBridgeJob(BridgeJob& job, const InputFile& file, Builder& b, const Presets& presets,
                  std::vector<Error>& fatal);

}  // namespace trainmem::import_detail
