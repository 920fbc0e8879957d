// A Megatron-Bridge or NeMo 2 launch read into one job (layouts in bridge_launch_parts.cpp):
// the recipe's settings, the YAML it merges, the convenience flags, the dot-list, in that order
// (the later wins), then the world size, device and precision the launcher's own options state.
//
// [SECTION] index
//   Fallback       — a launch the shell reader cannot see (inside a here-document)
//   Launcher       — world size, device and precision from the launcher's options
//   Entry          — IsBridgeLaunch, ImportBridgeLaunch
#include <set>

#include "core/config/config_detail.h"
#include "core/import/arg_values.h"
#include "core/import/bridge_launch.h"
#include "core/import/bridge_translate.h"

namespace trainmem::import_detail {
namespace {

using bridge_launch::LaunchWords;
using bridge_launch::Layout;
using bridge_launch::NamedRecipe;

// [SECTION] Fallback -----------------------------------------------------------------------------
// A command the shell reader does not run through (`worker_command=$(cat <<EOM … EOM)` in
// notes/bridge17 sample 12): the first line running a .py file, with its backslash
// continuations, split at blanks (quotes dropped). Only used when it carries overrides.
bash::Script FallbackLaunch(const InputFile& file) {
  bash::Script out;
  std::vector<bash::Word> words;
  int line = 0;
  bool continued = false, found = false;
  std::size_t start = 0;
  while (start < file.text.size() && words.size() < 4096) {
    std::size_t end = file.text.find('\n', start);
    if (end == std::string::npos) end = file.text.size();
    std::string row = file.text.substr(start, end - start);
    start = end + 1;
    ++line;
    if (!found && row.find(".py") == std::string::npos) continue;
    if (found && !continued) break;
    const std::string trimmed = Trim(row);
    continued = !trimmed.empty() && trimmed.back() == '\\';
    std::string cur;
    for (char c : trimmed + " ") {
      if (c == ' ' || c == '\t' || c == '\\') {
        if (!cur.empty()) words.push_back({cur, line, file.name});
        cur.clear();
      } else if (c != '"' && c != '\'') {
        cur += c;
      }
    }
    if (!found) {
      auto py = std::find_if(words.begin(), words.end(),
                             [](const bash::Word& w) { return EndsWith(w.text, ".py"); });
      if (py == words.end() || StartsWith(Trim(row), "#")) {
        words.clear();
        continue;
      }
      found = true;
      out.launch_line = line;
      out.program = BaseName(py->text);
      for (auto it = words.begin(); it != py; ++it)
        out.launcher += (out.launcher.empty() ? "" : " ") + it->text;
      words.erase(words.begin(), py + 1);
    }
  }
  if (!found) return out;
  out.found_launch = true;
  out.launch_file = file.name;
  out.args = words;
  out.notes.push_back({file.name, out.launch_line,
                       "the launch line is read from the text (it runs inside a command "
                       "substitution or here-document the shell reader does not follow)"});
  return out;
}

// [SECTION] Launcher -----------------------------------------------------------------------------
// The world size a launcher's own options state; 0 when they do not (torchrun's are read by the
// Megatron path from the launcher words).
long long LauncherWorld(Layout layout, const LaunchWords& words, const NamedRecipe& named,
                        Source& at) {
  auto option = [&](const char* flag) -> const Source* {
    auto it = words.options.find(flag);
    return it != words.options.end() ? &it->second : nullptr;
  };
  auto number = [](const Source* s) { return s ? ParseInteger(s->text).value_or(0) : 0LL; };
  if (layout == Layout::kTrainSh) {
    const Source* nodes = option("--nodes");
    const Source* per_node = option("--gpus-per-node");
    if (per_node == nullptr) per_node = option("--gpus_per_node");
    if (number(per_node) <= 0) return 0;
    at = {per_node->file, per_node->line,
          (nodes ? "--nodes " + nodes->text + " × " : std::string()) + "--gpus-per-node " +
              per_node->text};
    return PositiveProduct(std::max(1LL, number(nodes)), number(per_node));
  }
  if (layout == Layout::kPerfHarness) {
    const Source* gpus = option("--num_gpus");
    if (number(gpus) <= 0) return 0;
    at = {gpus->file, gpus->line, "--num_gpus " + gpus->text};
    return number(gpus);
  }
  if (layout == Layout::kNemo2) {
    // trainer.devices × trainer.num_nodes (the recipe factory's num_nodes / num_gpus_per_node
    // when the overrides do not set them).
    long long devices = bridge_launch::FactoryInt(named.at.text, "num_gpus_per_node");
    long long nodes = std::max(1LL, bridge_launch::FactoryInt(named.at.text, "num_nodes"));
    at = named.at;
    for (const Source& w : words.overrides) {
      const std::size_t eq = w.text.find('=');
      const std::string key = w.text.substr(0, eq);
      const long long v =
          eq == std::string::npos ? 0 : ParseInteger(w.text.substr(eq + 1)).value_or(0);
      if (key == "trainer.devices" && v > 0) {
        devices = v;
        at = w;
      }
      if (key == "trainer.num_nodes" && v > 0) nodes = v;
    }
    if (devices <= 0) return 0;
    at.text =
        "trainer.devices " + std::to_string(devices) + " × num_nodes " + std::to_string(nodes);
    return PositiveProduct(devices, nodes);
  }
  return 0;
}

// The performance harness's --gpu and --compute_dtype (scripts/performance/setup_experiment.py):
// the device, and the precision recipe the dtype names.
void PerfHarnessSettings(const LaunchWords& words, BridgeTree& tree, Builder& b,
                         const Presets& presets) {
  if (auto it = words.options.find("--gpu"); it != words.options.end()) {
    const std::string gpu = Lower(it->second.text);
    const std::string id = gpu == "h100" ? "h100-80gb" : gpu == "h200" ? "h200-141gb" : gpu;
    if (presets.FindDevice(id) != nullptr)
      b.Set("device", id, {it->second.file, it->second.line, "--gpu " + it->second.text});
    else
      b.Note("--gpu " + it->second.text + ": trainmem has no device preset for it; pick one");
  }
  if (auto it = words.options.find("--compute_dtype"); it != words.options.end()) {
    static const std::pair<const char*, const char*> kDtypes[] = {
        {"bf16", "bf16_mixed"},
        {"fp8_cs", "bf16_with_fp8_current_scaling_mixed"},
        {"fp8_mx", "bf16_with_mxfp8_mixed"},
        {"fp8_ds", "bf16_with_fp8_delayed_scaling_mixed"},
        {"nvfp4", "bf16_with_nvfp4_mixed"}};
    for (const auto& [dtype, recipe] : kDtypes)
      if (Lower(it->second.text) == dtype)
        tree.Set("mixed_precision", recipe,
                 {it->second.file, it->second.line, "--compute_dtype " + it->second.text});
  }
  b.Note(
      "performance harness: its parallelism and batch come from scripts/performance/configs/"
      "<family>/*workload_base_configs.py for (model, GPU, dtype), which trainmem does not "
      "read; give them as overrides (model.tensor_model_parallel_size=…, train.*=…) or the "
      "resolved run_config.yaml");
}

}  // namespace

// [SECTION] Entry --------------------------------------------------------------------------------
bool IsBridgeLaunch(const bash::Script& script, const InputFile& file) {
  const bash::Script& s = script.found_launch ? script : FallbackLaunch(file);
  return bridge_launch::LayoutOf(s) != Layout::kNone;
}

void ImportBridgeLaunch(const InputFile& file, const bash::Script& given,
                        const std::vector<InputFile>& all, Builder& b, const Presets& presets,
                        std::vector<Error>& fatal) {
  const bash::Script script = given.found_launch ? given : FallbackLaunch(file);
  const Layout layout = bridge_launch::LayoutOf(script);
  const LaunchWords words = bridge_launch::SplitWords(script);
  BridgeJob job;
  job.script = script;
  const NamedRecipe named = bridge_launch::RecipeOf(layout, script, words);
  const std::string where =
      named.at.file + (named.at.line > 0 ? ":" + std::to_string(named.at.line) : "");
  if (named.stated && (named.name.empty() || named.name == "_pretrain_config")) {
    fatal.push_back({where, script.program + " names no recipe (--recipe NAME or --model STEM)"});
    return;
  }
  const RecipeLookup found = FindBridgeRecipe(named.name, named.head);
  if (found.recipe != nullptr) {
    job.recipe = found.recipe;
    job.recipe_origin = {named.at.file, named.at.line, "recipe " + named.name};
    if (!found.note.empty() && named.defaults) b.Note(found.note);
    if (named.defaults)
      AddRecipeDefaults(*found.recipe, job.recipe_origin, job.tree);
    else
      b.Note(named.at.text + ": the model of " + found.recipe->name +
             "; the recipe's parallelism and batch are not this launcher's (not applied)");
  } else if (named.stated) {
    fatal.push_back({where, "recipe '" + named.name + "': " + UnknownRecipeReason(named.name)});
    return;
  } else {
    job.no_model_why =
        named.at.text +
        (named.name.empty() ? " names no recipe trainmem can tell"
                            : " runs " + named.name + ", which is not in trainmem's recipe table") +
        ": its model and defaults are not applied; give the model in the overrides or pick a "
        "preset";
    b.Note(job.no_model_why);
  }
  if (layout == Layout::kRecipeScript)
    bridge_launch::MergeConfigFile(named, words, all, job.tree, b, fatal);
  if (!fatal.empty()) return;
  bool gbs_explicit = false;
  if (layout == Layout::kRunRecipe || layout == Layout::kTrainSh)
    bridge_launch::ApplyConvenience(words, job.tree, gbs_explicit);
  if (layout == Layout::kPerfHarness) PerfHarnessSettings(words, job.tree, b, presets);
  if (!bridge_launch::ApplyOverrides(words.overrides, layout, job.tree, b, fatal)) return;
  job.world = LauncherWorld(layout, words, named, job.world_source);
  // The batch is explicit when an override set it (weak scaling then leaves it).
  const BridgeOrigin* gbs_at = job.tree.OriginOf("train.global_batch_size");
  gbs_explicit = gbs_explicit || (gbs_at && gbs_at->text != job.recipe_origin.text);
  if (job.recipe != nullptr && named.head && named.name.find("gpu_") != std::string::npos &&
      !gbs_explicit) {
    Source at;
    const long long world = job.world > 0 ? job.world : LaunchWorldSize(file, script, at);
    if (world > 0) bridge_launch::WeakScale(*job.recipe, world, named.at, job.tree, b);
  }
  // The launcher's options that are not the job's: named, with why.
  static const std::set<std::string> kRead{"--recipe",
                                           "--model",
                                           "--mode",
                                           "--config-file",
                                           "--config_file",
                                           "--nodes",
                                           "--gpus-per-node",
                                           "--gpus_per_node",
                                           "--num_gpus",
                                           "--gpu",
                                           "--compute_dtype",
                                           "--model_recipe_name",
                                           "--factory",
                                           "-ms",
                                           "--max_steps",
                                           "-gb",
                                           "--global_batch_size",
                                           "-mb",
                                           "--micro_batch_size",
                                           "-sl",
                                           "--seq_length",
                                           "-tp",
                                           "--tensor_model_parallel_size",
                                           "-pp",
                                           "--pipeline_model_parallel_size",
                                           "-cp",
                                           "--context_parallel_size",
                                           "-vp",
                                           "--virtual_pipeline_model_parallel_size",
                                           "-ep",
                                           "--expert_model_parallel_size",
                                           "-etp",
                                           "--expert_tensor_parallel_size",
                                           "--lr",
                                           "--min_lr",
                                           "--warmup_iters",
                                           "--pretrained_checkpoint",
                                           "--save_dir",
                                           "--load_dir",
                                           "--save_interval"};
  for (const auto& [flag, at] : words.options)
    if (kRead.count(flag) == 0)
      b.Ignore({at.file, at.line, flag + (at.text.empty() ? "" : " " + at.text)},
               "launcher option (cluster, container, data or run control): does not change "
               "device memory");
  for (const Source& w : words.others)
    b.Ignore(w, "a word of the launch line that is neither an option nor a KEY=VALUE override");
  RunBridgeJob(job, file, b, presets, fatal);
  if (layout != Layout::kPerfHarness || !fatal.empty()) return;
  const char* why = "set by the performance harness's workload table (not read); give it";
  for (const auto& [key, flag] :
       {std::pair{"parallelism.tensor_parallel_degree", "model.tensor_model_parallel_size"},
        std::pair{"parallelism.pipeline_parallel_degree", "model.pipeline_model_parallel_size"},
        std::pair{"parallelism.expert_parallel_degree", "model.expert_model_parallel_size"}})
    if (!job.tree.Has(flag)) b.Missing(key, why, 1);
}

}  // namespace trainmem::import_detail
