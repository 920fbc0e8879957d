// Megatron-Bridge and NeMo 2 launch lines (notes/bridge17/REPORT.md (a) and §NeMo 2):
//   2025  torchrun … pretrain_llama3_8b.py [--config-file X.yaml] model.x=4 train.y=512 …
//         (Bridge v0.2.0 examples/recipes/<family>/<pretrain|finetune>_<model>.py: the recipe,
//         then the YAML, then the Hydra dot-list; docstring lines 37-47)
//   2026  [torchrun …] scripts/training/run_recipe.py --recipe NAME [-tp N -gb N …] KEY=VALUE …
//         scripts/training/train.sh --nodes N --gpus-per-node G --recipe NAME …
//         (HEAD run_recipe.py lines 20-60 and 170-259: recipe, dataset preset, convenience
//         flags, then KEY=VALUE; a hardware-named recipe's batch is weak-scaled to the world)
//   perf  scripts/performance/setup_experiment.py --model_recipe_name R --num_gpus N --gpu G
//         --compute_dtype D (the layout is the harness's workload table, not read here)
//   NeMo 2  nemo llm pretrain --factory "llama3_8b(num_nodes=N)" trainer.strategy.…=… data.…=…
//
// This file: the parts (bridge_launch.h); bridge_launch_entry.cpp puts them together.
//
// [SECTION] index
//   Launch words   — which layout; options, convenience flags and overrides apart
//   Overrides      — the dot-list into the tree; NeMo 2's paths as Bridge's
//   Recipe         — the recipe a launch names, the YAML it merges, weak scaling
#include <algorithm>
#include <cctype>
#include <map>

#include "core/config/config_detail.h"
#include "core/import/arg_values.h"
#include "core/import/bridge_launch.h"
#include "core/import/bridge_translate.h"
#include "core/import/import_detail.h"
#include "core/import/yaml_reader.h"

namespace trainmem::import_detail::bridge_launch {

// [SECTION] Launch words -------------------------------------------------------------------------

namespace {

// ConfigContainer sections a 2025 example script's overrides start with.
bool SectionWord(const std::string& word) {
  static const char* kSections[] = {"model.",     "train.",     "dataset.",     "optimizer.",
                                    "ddp.",       "dist.",      "checkpoint.",  "scheduler.",
                                    "logger.",    "tokenizer.", "rng.",         "mixed_precision",
                                    "profiling.", "peft",       "comm_overlap", "validation."};
  std::string w = word;
  while (!w.empty() && (w[0] == '+' || w[0] == '~')) w.erase(0, 1);
  for (const char* s : kSections)
    if (StartsWith(w, s)) return LooksLikeDotItem(word);
  return false;
}

}  // namespace

Layout LayoutOf(const bash::Script& script) {
  const std::string program = Lower(BaseName(script.program));
  if (program == "run_recipe.py") return Layout::kRunRecipe;
  if (program == "train.sh") return Layout::kTrainSh;
  if (StartsWith(program, "nemo llm ")) return Layout::kNemo2;
  bool recipe_option = false, dotlist = false, config_file = false;
  for (const bash::Word& w : script.args) {
    recipe_option = recipe_option || w.text == "--model_recipe_name" || w.text == "--recipe";
    dotlist = dotlist || SectionWord(w.text);
    config_file =
        config_file || StartsWith(w.text, "--config-file") || StartsWith(w.text, "--config_file");
  }
  if (program == "setup_experiment.py" && recipe_option) return Layout::kPerfHarness;
  if (!script.found_launch || program.size() < 4) return Layout::kNone;
  if (recipe_option) return Layout::kRunRecipe;
  // A recipe script: its overrides are the dot-list (Megatron's own flags are --hyphenated).
  for (const bash::Word& w : script.args)
    if (StartsWith(w.text, "--num-layers") || StartsWith(w.text, "--tensor-model-parallel-size"))
      return Layout::kNone;
  // Other Hydra-style trainers (verl's `data.*`, `trainer.*`, `model.partial_pretrain=…`) are
  // not Bridge: a recipe script's name, or ConfigContainer's own `train.` section, says so.
  const bool recipe_script = EndsWith(program, ".py") &&
                             (StartsWith(program, "pretrain_") || StartsWith(program, "finetune_"));
  bool train_section = false;
  for (const bash::Word& w : script.args)
    train_section = train_section || (StartsWith(w.text, "train.") && SectionWord(w.text));
  return (recipe_script && (dotlist || config_file)) || (EndsWith(program, ".py") && train_section)
             ? Layout::kRecipeScript
             : Layout::kNone;
}

namespace {

// Switches that take no value (run_recipe.py, setup_experiment.py, nemo's CLI).
bool NoValue(const std::string& flag) {
  static const char* kSwitches[] = {"--dry-run",       "--dry_run",     "--deterministic",
                                    "--dump-env",      "--dump_env",    "--detach",
                                    "--no-confirm",    "--yes",         "-y",
                                    "--use_tokendrop", "--enable_nsys", "--no-gpu-resource-request",
                                    "--standalone"};
  for (const char* s : kSwitches)
    if (flag == s) return true;
  return false;
}

}  // namespace

LaunchWords SplitWords(const bash::Script& script) {
  LaunchWords out;
  const std::vector<bash::Word>& w = script.args;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string& t = w[i].text;
    const Source at{w[i].file, w[i].line, t};
    if (t.size() > 1 && t[0] == '-' && !(t[1] >= '0' && t[1] <= '9')) {
      const std::size_t eq = t.find('=');
      if (eq != std::string::npos) {
        out.options[t.substr(0, eq)] = {w[i].file, w[i].line, t.substr(eq + 1)};
      } else if (!NoValue(t) && i + 1 < w.size() && w[i + 1].text.rfind('-', 0) != 0 &&
                 !LooksLikeDotItem(w[i + 1].text)) {
        out.options[t] = {w[i].file, w[i].line, w[i + 1].text};
        ++i;
      } else {
        out.options[t] = {w[i].file, w[i].line, ""};
      }
    } else if (LooksLikeDotItem(t)) {
      out.overrides.push_back(at);
    } else {
      out.others.push_back(at);
    }
  }
  return out;
}

namespace {

// run_recipe.py's convenience flags (COMMON_OVERRIDE_FIELDS, lines 135-153 @HEAD).
struct Convenience {
  const char* short_flag;
  const char* long_flag;
  const char* key;
};
constexpr Convenience kConvenience[] = {
    {"-ms", "--max_steps", "train.train_iters"},
    {"-gb", "--global_batch_size", "train.global_batch_size"},
    {"-mb", "--micro_batch_size", "train.micro_batch_size"},
    {"-sl", "--seq_length", "dataset.seq_length"},
    {"-tp", "--tensor_model_parallel_size", "model.tensor_model_parallel_size"},
    {"-pp", "--pipeline_model_parallel_size", "model.pipeline_model_parallel_size"},
    {"-cp", "--context_parallel_size", "model.context_parallel_size"},
    {"-vp", "--virtual_pipeline_model_parallel_size", "model.virtual_pipeline_model_parallel_size"},
    {"-ep", "--expert_model_parallel_size", "model.expert_model_parallel_size"},
    {"-etp", "--expert_tensor_parallel_size", "model.expert_tensor_parallel_size"},
    {nullptr, "--lr", "optimizer.lr"},
    {nullptr, "--min_lr", "optimizer.min_lr"},
    {nullptr, "--warmup_iters", "scheduler.lr_warmup_iters"},
    {nullptr, "--pretrained_checkpoint", "checkpoint.pretrained_checkpoint"},
    {nullptr, "--save_dir", "checkpoint.save"},
    {nullptr, "--load_dir", "checkpoint.load"},
    {nullptr, "--save_interval", "checkpoint.save_interval"},
};

}  // namespace

// [SECTION] Overrides ----------------------------------------------------------------------------
namespace {

// NeMo 2's paths (nemo.collections.llm recipes, a run.Partial tree) as Bridge's keys (Bridge
// docs/nemo2-migration-guide.md lines 494-500 and 762-781 @HEAD); "" for paths with no Bridge
// key (NeMo-Run, Lightning trainer and logging settings).
std::string BridgeKeyOfNemo(const std::string& key) {
  static const std::pair<const char*, const char*> kPrefixes[] = {
      {"trainer.strategy.ddp.", "ddp."},
      {"trainer.strategy.", "model."},
      {"model.config.", "model."},
      {"optim.config.", "optimizer."},
  };
  for (const auto& [from, to] : kPrefixes)
    if (StartsWith(key, from)) return to + key.substr(std::string(from).size());
  static const std::pair<const char*, const char*> kKeys[] = {
      {"data.global_batch_size", "train.global_batch_size"},
      {"data.micro_batch_size", "train.micro_batch_size"},
      {"data.seq_length", "dataset.seq_length"},
      {"trainer.max_steps", "train.train_iters"},
  };
  for (const auto& [from, to] : kKeys)
    if (key == from) return to;
  return "";
}

}  // namespace

// Applies the dot-list in order. Returns false (with `fatal` filled) on a malformed word.
bool ApplyOverrides(const std::vector<Source>& words, Layout layout, BridgeTree& tree, Builder& b,
                    std::vector<Error>& fatal) {
  for (const Source& w : words) {
    std::string error;
    const std::optional<DotItem> item = ParseDotItem(w.text, error);
    const std::string where = w.file + (w.line > 0 ? ":" + std::to_string(w.line) : "");
    if (!item) {
      fatal.push_back({where, error});
      return false;
    }
    std::string key = item->key;
    if (layout == Layout::kNemo2) {
      if (key == "trainer.devices" || key == "trainer.num_nodes") continue;  // the world size
      const std::string bridge = BridgeKeyOfNemo(key);
      if (bridge.empty()) {
        b.Ignore({w.file, w.line, w.text},
                 "NeMo 2 setting with no Megatron-Bridge key that changes device memory "
                 "(logging, checkpointing, trainer loop)");
        continue;
      }
      key = bridge;
    }
    // A field of a precision recipe given by name (mixed_precision=bf16_with_fp8_…): Bridge
    // sets it on the recipe's MixedPrecisionConfig; here the name is what is read.
    const json* recipe_precision = detail::FindJsonPath(tree.value, "mixed_precision");
    if (StartsWith(key, "mixed_precision.") && recipe_precision != nullptr &&
        recipe_precision->is_string()) {
      b.Ignore({w.file, w.line, w.text},
               "a field of the precision recipe " + recipe_precision->get<std::string>() +
                   ", which is read by its name; this field is not modelled");
      continue;
    }
    if (item->op == DotItem::Op::kDelete) {
      if (!tree.Erase(key)) b.Note(where + ": " + w.text + " deletes a key the job does not set");
      continue;
    }
    tree.Set(key, item->value, {w.file, w.line, w.text});
    // run_recipe.py synchronizes model.seq_length from the dataset's after the overrides.
    if ((layout == Layout::kRunRecipe || layout == Layout::kTrainSh) && key == "dataset.seq_length")
      tree.Set("model.seq_length", item->value, {w.file, w.line, w.text});
  }
  return true;
}

void ApplyConvenience(const LaunchWords& words, BridgeTree& tree, bool& gbs_explicit) {
  for (const Convenience& c : kConvenience) {
    const char* used = nullptr;
    for (const char* flag : {c.short_flag, c.long_flag})
      if (flag != nullptr && words.options.count(flag)) used = flag;
    if (used == nullptr) continue;
    const Source& at = words.options.at(used);
    const BridgeOrigin origin{at.file, at.line, std::string(used) + " " + at.text};
    tree.Set(c.key, HydraValue(at.text), origin);
    if (std::string(c.key) == "dataset.seq_length")
      tree.Set("model.seq_length", HydraValue(at.text), origin);
    gbs_explicit = gbs_explicit || std::string(c.key) == "train.global_batch_size";
  }
}

// [SECTION] Recipe -------------------------------------------------------------------------------

NamedRecipe RecipeOf(Layout layout, const bash::Script& script, const LaunchWords& words) {
  NamedRecipe out;
  auto option = [&](const char* flag) {
    auto it = words.options.find(flag);
    return it != words.options.end() ? it->second : Source{};
  };
  const Source launch{script.launch_file, script.launch_line, script.program};
  if (layout == Layout::kRecipeScript) {
    // examples/recipes/llama/pretrain_llama3_8b.py runs llama3_8b_pretrain_config.
    const std::string program = Lower(BaseName(script.program));
    for (const char* mode : {"pretrain_", "finetune_"})
      if (StartsWith(program, mode) && EndsWith(program, ".py"))
        out.name = program.substr(std::string(mode).size(),
                                  program.size() - std::string(mode).size() - 3) +
                   "_" + std::string(mode) + "config";
    out.at = launch;
    out.defaults = true;
  } else if (layout == Layout::kRunRecipe || layout == Layout::kTrainSh) {
    const Source recipe = option("--recipe"), model = option("--model");
    std::string mode = option("--mode").text;
    if (mode.empty() || mode == "pretrain") mode = "pretrain";
    out.name = !recipe.text.empty()  ? recipe.text
               : !model.text.empty() ? model.text + "_" + mode + "_config"
                                     : "";
    out.at = !recipe.text.empty() ? recipe : model;
    out.at.text = !recipe.text.empty() ? "--recipe " + recipe.text : "--model " + model.text;
    out.stated = out.defaults = out.head = true;
  } else if (layout == Layout::kPerfHarness) {
    out.at = option("--model_recipe_name");
    out.name = out.at.text + "_pretrain_config";
    out.at.text = "--model_recipe_name " + out.at.text;
  } else if (layout == Layout::kNemo2) {
    out.at = option("--factory");
    const std::string factory = out.at.text;
    out.name = Trim(factory.substr(0, factory.find('('))) + "_pretrain_config";
    out.at.text = "--factory " + factory;
  }
  if (out.at.file.empty()) out.at = {launch.file, launch.line, out.at.text};
  return out;
}

// `name=value` inside a NeMo factory call ("llama3_8b(name='x', num_nodes=2)"), or 0.
long long FactoryInt(const std::string& factory, const std::string& name) {
  const std::size_t at = factory.find(name + "=");
  if (at == std::string::npos ||
      (at > 0 && std::isalnum(static_cast<unsigned char>(factory[at - 1]))))
    return 0;
  std::string digits;
  for (std::size_t i = at + name.size() + 1;
       i < factory.size() && std::isdigit(static_cast<unsigned char>(factory[i])); ++i)
    digits += factory[i];
  return ParseInteger(digits).value_or(0);
}

// The YAML a 2025 recipe script merges (--config-file, else its default next to the script:
// conf/<model>_<mode>_override_example.yaml, pretrain_llama3_8b.py's argparse default).
void MergeConfigFile(const NamedRecipe& named, const LaunchWords& words,
                     const std::vector<InputFile>& all, BridgeTree& tree, Builder& b,
                     std::vector<Error>& fatal) {
  Source at;
  for (const char* flag : {"--config-file", "--config_file"})
    if (words.options.count(flag)) at = words.options.at(flag);
  const bool stated = !at.text.empty();
  std::string path = at.text;
  if (!stated && EndsWith(named.name, "_config")) {
    path = "conf/" + named.name.substr(0, named.name.size() - 7) + "_override_example.yaml";
    std::replace(path.begin(), path.end(), ' ', '_');
  }
  if (path.empty()) return;
  for (const InputFile& f : all) {
    if (BaseName(f.name) != BaseName(path)) continue;
    b.UseFile(f.name);
    Result<YamlDocument> doc = ReadYamlFile(f);
    if (!doc.ok()) {
      fatal.insert(fatal.end(), doc.errors().begin(), doc.errors().end());
      return;
    }
    tree.Merge(doc.value(), f.name);
    b.Note(f.name + ": merged over the recipe as " +
           (stated ? "--config-file"
                   : "the script's "
                     "default --config-file") +
           ", under the command line's overrides");
    return;
  }
  b.Wants(path);
  b.Note((stated ? "--config-file " + path : "the script's default --config-file " + path) +
         " was not given: its values (merged over the recipe, under the command line's "
         "overrides) are not read; give it too");
}

// A hardware-named recipe keeps its samples per data-parallel rank on another world size
// (run_recipe.py _apply_benchmark_weak_scaling, scripts/common/benchmark_parallelism.py:126
// @HEAD): GBS × DP / DP of the recipe's own GPU count, unless the batch is given.
void WeakScale(const BridgeRecipe& r, long long world, const Source& launch, BridgeTree& tree,
               Builder& b) {
  auto degree = [&](const char* key) {
    const json* v = detail::FindJsonPath(tree.value, key);
    return v != nullptr ? JsonInteger(*v).value_or(1) : 1LL;
  };
  const long long canonical =
      PositiveProduct(PositiveProduct(std::max(r.tp, 1), std::max(r.pp, 1)), std::max(r.cp, 1));
  const long long now =
      PositiveProduct(PositiveProduct(degree("model.tensor_model_parallel_size"),
                                      degree("model.pipeline_model_parallel_size")),
                      degree("model.context_parallel_size"));
  if (canonical <= 0 || now <= 0 || r.gpus % canonical != 0 || world % now != 0) return;
  const long long dp_canonical = r.gpus / canonical, dp = world / now;
  if (dp == dp_canonical || PositiveProduct(r.gbs, dp) % dp_canonical != 0) return;
  const long long gbs = PositiveProduct(r.gbs, dp) / dp_canonical;
  tree.Set("train.global_batch_size", gbs,
           {launch.file, launch.line,
            "weak scaling of " + std::string(r.name) + " (GBS " + std::to_string(r.gbs) +
                " at DP " + std::to_string(dp_canonical) + " → DP " + std::to_string(dp) + ")"});
  b.Note("global batch " + std::to_string(r.gbs) + " weak-scaled to " + std::to_string(gbs) +
         " for DP " + std::to_string(dp) + " (the recipe is written for " + std::to_string(r.gpus) +
         " GPUs at DP " + std::to_string(dp_canonical) +
         "; run_recipe.py keeps the samples per DP rank unless -gb / train.global_batch_size "
         "is given)");
}

}  // namespace trainmem::import_detail::bridge_launch
