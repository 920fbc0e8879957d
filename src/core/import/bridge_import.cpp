// Megatron-Bridge's YAML files read alone: the resolved config ConfigContainer.to_yaml writes (a
// checkpoint's iter_N/run_config.yaml, logger.save_config_filepath, the log's "Task
// Configuration": a yaml.safe_dump of to_dict() with `_target_` on every dataclass, Bridge v0.2.0
// training/utils/config_utils.py), and the override YAMLs the example scripts merge over their
// recipe (a partial ConfigContainer, notes/bridge17 samples 02-07). Also the common end of every
// Bridge import, RunBridgeJob: the tree read through the Megatron importer, then the model.
//
// [SECTION] index
//   Detection      — the dump's top-level _target_; an override YAML's sections
//   Job            — numbers checked, the tree read, the recipe's model or why none
//   YAML alone     — ImportMegatronBridgeYaml
#include <algorithm>
#include <set>
#include <sstream>

#include "core/config/config_detail.h"
#include "core/import/arg_values.h"
#include "core/import/bridge_translate.h"
#include "core/import/import_detail.h"
#include "core/import/yaml_reader.h"

namespace trainmem::import_detail {

// [SECTION] Detection ----------------------------------------------------------------------------
bool IsMegatronBridgeYamlText(std::string_view text) {
  // safe_dump writes the top-level keys sorted, unindented: "_target_" comes first.
  static constexpr std::string_view kTop =
      "_target_: megatron.bridge.training.config.ConfigContainer";
  for (std::size_t at = text.find(kTop); at != std::string_view::npos;
       at = text.find(kTop, at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    const std::size_t end = at + kTop.size();
    if (end == text.size() || text[end] == '\n' || text[end] == '\r' || text[end] == ' ')
      return true;
  }
  return false;
}

namespace {

// ConfigContainer's fields (B:training/config.py:1106-1129 @v0.2.0; HEAD adds env_vars,
// validation and optimizer_config_override_provider, config.py:962-1010).
bool ContainerSection(const std::string& key) {
  static const std::set<std::string> kSections{"rng",
                                               "rerun_state_machine",
                                               "train",
                                               "model",
                                               "optimizer",
                                               "ddp",
                                               "scheduler",
                                               "dataset",
                                               "logger",
                                               "tokenizer",
                                               "checkpoint",
                                               "dist",
                                               "ft",
                                               "straggler",
                                               "nvrx_straggler",
                                               "profiling",
                                               "peft",
                                               "comm_overlap",
                                               "mixed_precision",
                                               "tensor_inspect",
                                               "inprocess_restart",
                                               "env_vars",
                                               "validation",
                                               "optimizer_config_override_provider"};
  return kSections.count(key) != 0;
}

// The unindented `key:` lines of a YAML text (comments, blank lines and list items skipped).
std::vector<std::string> TopLevelKeys(std::string_view text) {
  std::vector<std::string> keys;
  std::size_t start = 0;
  while (start < text.size() && keys.size() < 64) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' ||
        line[0] == '\r')
      continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      keys.push_back(std::string(line));  // not a mapping key: not a ConfigContainer either
      continue;
    }
    keys.push_back(Trim(line.substr(0, colon)));
  }
  return keys;
}

}  // namespace

// An override YAML is a partial ConfigContainer (examples/recipes/*/conf/*.yaml): only its
// sections at the top, `train:` among them (the Trainer's and the FSDP2 trainer's YAMLs have
// `training:`, flat keys or other sections), and no top-level `_target_` (a dump names
// ConfigContainer there; another class is another framework's file).
bool IsBridgeOverrideYamlText(std::string_view text) {
  const std::vector<std::string> keys = TopLevelKeys(text);
  if (keys.size() < 2) return false;
  bool train = false;
  for (const std::string& k : keys) {
    if (!ContainerSection(k)) return false;
    train = train || k == "train";
  }
  return train;
}

// [SECTION] Job ----------------------------------------------------------------------------------
namespace {

// model.* keys that describe the architecture (the rest are layout, recompute, precision).
constexpr const char* kArchitectureKeys[] = {"num_layers",
                                             "hidden_size",
                                             "ffn_hidden_size",
                                             "num_attention_heads",
                                             "num_query_groups",
                                             "kv_channels",
                                             "num_moe_experts",
                                             "moe_ffn_hidden_size",
                                             "moe_router_topk",
                                             "moe_shared_expert_intermediate_size",
                                             "moe_layer_freq",
                                             "vocab_size",
                                             "hybrid_override_pattern",
                                             "mamba_num_heads",
                                             "mamba_head_dim",
                                             "mamba_state_dim",
                                             "multi_latent_attention",
                                             "q_lora_rank",
                                             "kv_lora_rank",
                                             "normalization",
                                             "gated_linear_unit",
                                             "share_embeddings_and_output_weights",
                                             "add_bias_linear",
                                             "add_qkv_bias",
                                             "qk_layernorm",
                                             "mtp_num_layers"};

// The preset's architecture as Megatron arguments (what export writes), placed before the
// tree's words so the overrides win (a later flag wins, as argparse does).
std::vector<bash::Word> PresetWords(const ModelPreset& preset, const BridgeOrigin& at) {
  std::ostringstream text;
  std::vector<std::string> unmapped;
  MegatronModelArgs(preset.arch, text, unmapped);
  std::vector<bash::Word> words;
  std::string cur;
  for (char c : text.str() + " ") {
    if (c == ' ' || c == '\n') {
      if (cur.size() >= 2 && cur.front() == '"' && cur.back() == '"')
        cur = cur.substr(1, cur.size() - 2);
      if (!cur.empty() && cur != "\\") words.push_back({cur, at.line, at.file});
      cur.clear();
    } else {
      cur += c;
    }
  }
  return words;
}

void EraseMissing(Builder& b, const std::string& key) {
  auto& missing = b.report().missing;
  missing.erase(std::remove_if(missing.begin(), missing.end(),
                               [&](const ImportMissing& m) { return m.key == key; }),
                missing.end());
}

void TakeRecipeModel(const BridgeJob& job, const ModelPreset* preset, bool overridden, Builder& b) {
  const BridgeRecipe& r = *job.recipe;
  const json* model = b.Get("model");
  const bool inline_model = model != nullptr && model->is_object();
  const Source at{job.recipe_origin.file, job.recipe_origin.line,
                  "recipe " + std::string(r.name) + " (" + r.source + ") trains " +
                      (r.model_name[0] != '\0' ? r.model_name : r.preset)};
  if (preset != nullptr && !overridden) {
    b.Set("model", r.preset, at);
    EraseMissing(b, "model");
  } else if (preset == nullptr && !inline_model) {
    if (model != nullptr) b.Erase("model");
    EraseMissing(b, "model");
    b.Missing("model",
              "recipe " + std::string(r.name) + " trains " + r.model_name +
                  ", which trainmem has no preset for: pick a preset or give its config.json",
              nullptr);
  } else if (preset == nullptr) {
    b.Note("the overrides describe the whole model; the recipe's " + std::string(r.model_name) +
           " has no trainmem preset to start from (Megatron's defaults fill the rest)");
  }
}

}  // namespace

void RunBridgeJob(BridgeJob& job, const InputFile& file, Builder& b, const Presets& presets,
                  std::vector<Error>& fatal) {
  std::vector<Error> bad;
  CheckBridgeNumbers(job.tree, bad);
  if (!bad.empty()) {
    fatal.insert(fatal.end(), bad.begin(), bad.end());
    return;
  }
  const ModelPreset* preset = job.recipe != nullptr && job.recipe->preset[0] != '\0'
                                  ? presets.FindModel(job.recipe->preset)
                                  : nullptr;
  std::string overrides;
  for (const char* key : kArchitectureKeys) {
    const json* v = detail::FindJsonPath(job.tree.value, std::string("model.") + key);
    if (v != nullptr && !v->is_null())
      overrides += (overrides.empty() ? "" : ", ") + std::string(key);
  }
  std::vector<bash::Word> prefix;
  if (preset != nullptr && !overrides.empty()) {
    prefix = PresetWords(*preset, job.recipe_origin);
    b.Note("model: " + preset->name + " (the recipe's) with the overrides of " + overrides +
           "; the preset's architecture is read as Megatron arguments, the overrides win");
  }
  // A launcher that states the world size in its own options (train.sh --nodes ×
  // --gpus-per-node, setup_experiment.py --num_gpus): given to the Megatron path as torchrun's,
  // which checks the layout against it; the report then names the options as written.
  if (job.world > 0) job.script.launcher = "--nproc_per_node " + std::to_string(job.world);
  ImportBridgeTree(job.tree, file, job.script, prefix, b, presets, fatal);
  if (!fatal.empty()) return;
  if (job.world > 0)
    for (ImportRead& r : b.report().read)
      if (r.key == "world_size") {
        r.source = job.world_source.text;
        r.file = job.world_source.file;
        r.line = job.world_source.line;
      }
  // A job that states no precision runs its recipe's, bf16_mixed in every recipe table row but
  // one; Bridge's own default (mixed_precision None) would be fp32.
  bool precision = false;
  for (const char* key : {"mixed_precision", "model.bf16", "model.fp16", "model.params_dtype"})
    precision = precision || job.tree.Has(key);
  if (!precision) {
    b.Erase("training.mixed_precision_param");
    b.Missing("training.mixed_precision_param",
              "the files do not state the precision (the recipe's mixed_precision): bf16_mixed, "
              "the recipes' default, is assumed",
              "bfloat16");
  }
  // Likewise the distributed optimizer, which every recipe turns on
  // (distributed_fused_adam_with_cosine_annealing, B:recipes/utils/optimizer_utils.py:62) and
  // OptimizerConfig's default leaves off.
  auto is_true = [&](const char* key) {
    const json* v = detail::FindJsonPath(job.tree.value, key);
    return v != nullptr && ArgBool(*v).value_or(false);
  };
  if (!job.tree.Has("optimizer.use_distributed_optimizer") &&
      !job.tree.Has("ddp.use_distributed_optimizer") && !is_true("dist.use_megatron_fsdp") &&
      !is_true("ddp.use_megatron_fsdp")) {
    b.Erase("parallelism.zero_stage");
    b.Missing("parallelism.zero_stage",
              "the files do not say whether the distributed optimizer is on "
              "(optimizer.use_distributed_optimizer): the recipes turn it on, assumed",
              1);
  }
  if (job.recipe != nullptr) {
    TakeRecipeModel(job, preset, !overrides.empty(), b);
    return;
  }
  // No recipe: a model named only by a file name is a guess; one the tokenizer names is stated.
  const json* model = b.Get("model");
  if (model == nullptr || model->is_object()) {
    if (model == nullptr && !job.no_model_why.empty()) {
      EraseMissing(b, "model");
      b.Missing("model", job.no_model_why, nullptr);
    }
    return;
  }
  const json* tokenizer = detail::FindJsonPath(job.tree.value, "tokenizer.tokenizer_model");
  if (tokenizer != nullptr && !PresetFromText(ArgText(*tokenizer), presets).empty()) return;
  b.Erase("model");
  EraseMissing(b, "model");
  b.Missing("model", job.no_model_why, nullptr);
}

// [SECTION] YAML alone ---------------------------------------------------------------------------
void ImportMegatronBridgeYaml(const InputFile& file, Builder& b, const Presets& presets,
                              std::vector<Error>& fatal) {
  Result<YamlDocument> parsed = ReadYamlFile(file);
  if (!parsed.ok()) {
    fatal.insert(fatal.end(), parsed.errors().begin(), parsed.errors().end());
    return;
  }
  const YamlDocument& doc = parsed.value();
  if (!doc.value.is_object()) {
    fatal.push_back({file.name, "expected a mapping (Megatron-Bridge's ConfigContainer)"});
    return;
  }
  BridgeJob job;
  job.tree.Merge(doc, file.name);
  const bool dump = IsMegatronBridgeYamlText(file.text);
  job.script.program = "Megatron-Bridge ConfigContainer";
  job.script.launch_file = file.name;
  job.script.launch_line = doc.LineOf(dump ? "_target_" : "train");
  if (dump) {
    b.Note(file.name +
           ": Megatron-Bridge config read as the Megatron-LM arguments its keys set (the report "
           "names each as `yaml.key → --flag`); the world size is not in it");
    job.no_model_why =
        "the config states no model (model.num_layers, model.hidden_size); pick a preset";
  } else {
    // The recipe it overrides is named by the script that merges it, not here; a file name
    // such as llama3_8b_pretrain_override_example.yaml only suggests it.
    std::string hint;
    const std::string base = BaseName(file.name);
    for (const std::string& mode : {std::string("_pretrain"), std::string("-pretrain")}) {
      const std::size_t at = base.find(mode);
      if (at == std::string::npos || !hint.empty()) continue;
      std::string stem = base.substr(0, at);
      std::replace(stem.begin(), stem.end(), '-', '_');
      for (std::size_t cut = 0; cut <= stem.size() && hint.empty(); ++cut) {
        if (cut > 0 && stem[cut - 1] != '_') continue;
        const std::string name = stem.substr(cut) + "_pretrain_config";
        if (FindBridgeRecipe(name, false).recipe != nullptr) hint = name;
      }
    }
    b.Note(file.name +
           ": a Megatron-Bridge override YAML (a partial ConfigContainer) read alone: what it "
           "states is read, each key as the Megatron-LM argument it sets; the recipe it is "
           "merged over is named by the launch (give the script that passes it as "
           "--config-file)");
    job.no_model_why =
        "the override YAML states no model: it overrides a recipe's" +
        (hint.empty() ? std::string() : " (its name suggests " + hint + ", not assumed)") +
        "; give the launch script that names it, or pick a preset";
  }
  RunBridgeJob(job, file, b, presets, fatal);
}

}  // namespace trainmem::import_detail
