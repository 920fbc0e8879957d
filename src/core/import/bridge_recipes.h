// Megatron-Bridge recipe functions by name: the model each trains and the parallelism, batch,
// sequence length and precision it sets, for the 2025 names (v0.2.0 `*_pretrain_config`) and the
// 2026 hardware-named ones (`<model>_pretrain_<N>gpu_<gpu>_<dtype>_config`), with the legacy
// aliases HEAD keeps (recipes/<family>/<family>.py). Pretraining recipes only: the finetune,
// SFT and PEFT recipes set their layout from the PEFT scheme (`4 if is_full_sft else 1`).
#pragma once

#include <string>
#include <string_view>

#include "core/import/bridge_tree.h"

namespace trainmem::import_detail {

struct BridgeRecipe {
  const char* name;
  const char* source;            // "qwen3_moe.py:146 @HEAD" (B:recipes/<family>/[h100/]file:line)
  const char* preset;            // trainmem's model preset, "" when it has none
  const char* model_name;        // what the recipe trains (HF id or provider), for the report
  int gpus;                      // the GPU count in a 2026 name (0 for 2025 names)
  int tp, pp, vpp, cp, ep, etp;  // 0: not set (Bridge's default: 1, None → TP for ETP)
  int sp;                        // sequence_parallel
  int gbs, mbs, seq;
  const char* precision;          // mixed_precision recipe name; "" = an argument of the recipe
  const char* recompute;          // "", "full" (uniform, 1 layer), "selective"
  const char* recompute_modules;  // "moe,layernorm"; "" = TransformerConfig's ["core_attn"]
  bool grad_reduce_in_bf16;       // MixedPrecisionConfig(grad_reduce_in_fp32=False)
};

// Which Bridge a job runs decides what a legacy name means: `qwen3_30b_a3b_pretrain_config` is
// TP4 PP2 EP4 at v0.2.0 (qwen3_moe.py:127) and an alias of the 16-GPU TP1 EP16 recipe at HEAD
// (recipes/qwen/qwen3_moe.py:23). `head_layout`: the launch is the 2026 one (run_recipe.py,
// scripts/training/train.sh).
struct RecipeLookup {
  const BridgeRecipe* recipe = nullptr;
  std::string note;  // how the name was resolved (an alias), or empty
};
RecipeLookup FindBridgeRecipe(std::string_view name, bool head_layout);

// A name that looks like a recipe but is not a pretraining one in the table: why (for errors).
std::string UnknownRecipeReason(std::string_view name);

// The recipe's settings as the ConfigContainer keys they set, each with `origin`.
void AddRecipeDefaults(const BridgeRecipe& recipe, const BridgeOrigin& origin, BridgeTree& tree);

}  // namespace trainmem::import_detail
