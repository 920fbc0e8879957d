// Megatron-Bridge's ConfigContainer keys → the Megatron-LM arguments they set. Bridge builds
// Megatron-Core's TransformerConfig / OptimizerConfig / DDP config from these keys, the same
// objects Megatron-LM's launch flags build. So the keys are translated into the flags they
// correspond to and read by the Megatron importer: one mapping of Megatron's semantics, not two.
// The report names each key (as written: a YAML key, a dot-list word, a recipe) with the flag it
// became. Key meanings and defaults: notes/bridge17/REPORT.md (b).
//
// The Translator (bridge_translator.h) and the model keys (bridge_translate_model.cpp) are in
// their own files.
//
// [SECTION] index
//   Job keys       — parallelism, recompute, precision, optimizer, batch, sequence
//   Report         — flag names back to the keys; keys left unread
//   Entry          — ImportBridgeTree
#include <algorithm>
#include <map>
#include <set>

#include "core/config/config_detail.h"
#include "core/import/arg_values.h"
#include "core/import/bridge_translate.h"
#include "core/import/bridge_translator.h"
#include "core/import/import_detail.h"

namespace trainmem::import_detail {
namespace {

using bridge_translate::DtypeName;
using bridge_translate::TargetOf;
using bridge_translate::TranslateLayerVariants;
using bridge_translate::TranslateModel;
using bridge_translate::Translator;

// [SECTION] Job keys -----------------------------------------------------------------------------
void TranslateLayout(Translator& t) {
  auto m = [&](const char* key) { return t.Model(key); };
  t.Value(m("tensor_model_parallel_size"), "--tensor-model-parallel-size");
  t.Value(m("pipeline_model_parallel_size"), "--pipeline-model-parallel-size");
  t.Value(m("context_parallel_size"), "--context-parallel-size");
  t.Value(m("expert_model_parallel_size"), "--expert-model-parallel-size");
  t.Value(m("expert_tensor_parallel_size"), "--expert-tensor-parallel-size");
  t.Switch(m("sequence_parallel"), "--sequence-parallel");
  t.Value(m("virtual_pipeline_model_parallel_size"), "--num-virtual-stages-per-pipeline-rank");
  if (t.Set(m("virtual_pipeline_model_parallel_size")))
    t.Value(m("microbatch_group_size_per_vp_stage"),
            "--microbatch-group-size-per-virtual-pipeline-stage");
  else
    t.Unused(m("microbatch_group_size_per_vp_stage"), "no virtual pipeline stages");
  t.Value(m("num_layers_in_first_pipeline_stage"), "--decoder-first-pipeline-num-layers");
  t.Value(m("num_layers_in_last_pipeline_stage"), "--decoder-last-pipeline-num-layers");
  if (t.At(m("pipeline_model_parallel_layout")).is_string())
    t.Value(m("pipeline_model_parallel_layout"), "--pipeline-model-parallel-layout");
  else
    t.Unused(m("pipeline_model_parallel_layout"),
             "a layout given as a list is not read: the even split is estimated");
  t.Switch(m("account_for_embedding_in_pipeline_split"),
           "--account-for-embedding-in-pipeline-split");
  t.Switch(m("account_for_loss_in_pipeline_split"), "--account-for-loss-in-pipeline-split");
  // Recompute: TransformerConfig's __post_init__ fills recompute_modules ["core_attn"] whatever
  // the granularity, so the dump holds it with granularity null (sample 01): used only when
  // selective; method and num_layers only with full.
  const std::string granularity = ArgText(t.At(m("recompute_granularity")));
  t.Value(m("recompute_granularity"), "--recompute-granularity");
  if (granularity == "full") {
    t.Value(m("recompute_method"), "--recompute-method");
    t.Value(m("recompute_num_layers"), "--recompute-num-layers");
  }
  if (granularity == "selective" && t.At(m("recompute_modules")).is_array()) {
    std::vector<std::string> modules;
    for (const json& v : t.At(m("recompute_modules"))) modules.push_back(ArgText(v));
    t.Emit(m("recompute_modules"), "--recompute-modules", modules);
  }
  const std::string why = "recompute_granularity is " +
                          (granularity.empty() ? std::string("null") : granularity) +
                          ": unused (the dump carries the default)";
  for (const char* key : {"recompute_method", "recompute_num_layers", "recompute_modules"})
    t.Unused(m(key), why);
  // Activation offload to the host.
  if (t.IsTrue(m("cpu_offloading"))) {
    t.Emit(m("cpu_offloading"), "--cpu-offloading");
    t.Value(m("cpu_offloading_num_layers"), "--cpu-offloading-num-layers");
    t.Value(m("cpu_offloading_activations"), "--cpu-offloading-activations");
  } else {
    t.Use(m("cpu_offloading"));
    for (const char* key : {"cpu_offloading_num_layers", "cpu_offloading_activations",
                            "cpu_offloading_weights", "cpu_offloading_double_buffering"})
      t.Unused(m(key), "cpu_offloading is false: unused");
  }
}

void TranslatePrecision(Translator& t, Builder& b) {
  const json& mp = t.At("mixed_precision");
  std::string fp8;
  bool bf16 = false, fp16 = false;
  if (mp.is_string()) {
    // A recipe name (training/mixed_precision.py @v0.2.0): bf16_mixed, fp16_mixed,
    // bf16_with_fp8_delayed_scaling_mixed (fp8 "hybrid"), bf16_with_mxfp8_mixed ("e4m3"), …
    std::string name = Lower(mp.get<std::string>());
    std::replace(name.begin(), name.end(), '-', '_');
    bf16 = StartsWith(name, "bf16") || name.find("_bf16_") != std::string::npos;
    fp16 = !bf16 && StartsWith(name, "fp16");
    if (name.find("mxfp8") != std::string::npos)
      fp8 = "e4m3";
    else if (name.find("fp8") != std::string::npos)
      fp8 = "hybrid";
    const char* flag = bf16 ? "--bf16" : fp16 ? "--fp16" : nullptr;
    if (flag) t.Emit("mixed_precision", flag);
    if (!fp8.empty()) t.Emit("mixed_precision", "--fp8-format", {fp8});
    if (name.find("fp4") != std::string::npos)
      b.Problem("mixed_precision " + name +
                ": NVFP4 training is not read from a Megatron-Bridge config; estimated without it");
    if (!flag) t.Unused("mixed_precision", "recipe name not recognised: fp32 estimated");
    if (bf16 && t.Set("ddp.grad_reduce_in_fp32") && !t.IsTrue("ddp.grad_reduce_in_fp32"))
      t.Emit("ddp.grad_reduce_in_fp32", "--grad-reduce-in-bf16");
    t.Use("ddp.grad_reduce_in_fp32");
    return;
  }
  // The MixedPrecisionConfig dict, or (without one) the values the model carries.
  auto key = [&](const char* name) {
    return mp.is_object() ? "mixed_precision." + std::string(name) : t.Model(name);
  };
  t.Switch(key("bf16"), "--bf16");
  if (!t.IsTrue(key("bf16"))) t.Switch(key("fp16"), "--fp16");
  t.Use(key("fp16"));
  t.Value(key("fp8"), "--fp8-format");
  t.Unused(key("fp4"), "NVFP4 training is not read from a Megatron-Bridge config");
  // ddp.grad_reduce_in_fp32 false keeps bf16 gradient buffers; true is Megatron's default with
  // --bf16 (arguments.py: accumulate_allreduce_grads_in_fp32).
  if (t.Set("ddp.grad_reduce_in_fp32") && !t.IsTrue("ddp.grad_reduce_in_fp32") &&
      t.IsTrue(key("bf16")))
    t.Emit("ddp.grad_reduce_in_fp32", "--grad-reduce-in-bf16");
  t.Use("ddp.grad_reduce_in_fp32");
  if (mp.is_object()) {
    t.Unused("mixed_precision.grad_reduce_in_fp32",
             "applied to ddp.grad_reduce_in_fp32, read there");
    // The model's copies of what mixed_precision applied (MixedPrecisionConfig.setup).
    for (const char* name :
         {"bf16", "fp16", "fp8", "fp4", "params_dtype", "pipeline_dtype", "autocast_dtype"})
      t.Unused(t.Model(name), "the model's copy of mixed_precision, read there");
  }
}

void TranslateOptimizer(Translator& t, Builder& b) {
  t.Value("optimizer.optimizer", "--optimizer");
  t.Switch("optimizer.use_distributed_optimizer", "--use-distributed-optimizer");
  if (t.Set("ddp.use_distributed_optimizer") &&
      t.IsTrue("ddp.use_distributed_optimizer") != t.IsTrue("optimizer.use_distributed_optimizer"))
    b.Problem(
        "ddp.use_distributed_optimizer and optimizer.use_distributed_optimizer differ; the "
        "optimizer's is read");
  t.Use("ddp.use_distributed_optimizer");
  if (t.IsTrue("optimizer.optimizer_cpu_offload")) {
    t.Emit("optimizer.optimizer_cpu_offload", "--optimizer-cpu-offload");
    t.Value("optimizer.optimizer_offload_fraction", "--optimizer-offload-fraction");
  } else {
    t.Use("optimizer.optimizer_cpu_offload");
    t.Unused("optimizer.optimizer_offload_fraction", "optimizer_cpu_offload is false: unused");
  }
  // Moment dtypes take effect only with the precision-aware optimizer (optimizer_config.py).
  if (t.IsTrue("optimizer.use_precision_aware_optimizer")) {
    t.Emit("optimizer.use_precision_aware_optimizer", "--use-precision-aware-optimizer");
    for (const auto& [key, flag] : {std::pair{"optimizer.exp_avg_dtype", "--exp-avg-dtype"},
                                    std::pair{"optimizer.exp_avg_sq_dtype", "--exp-avg-sq-dtype"}})
      if (const std::string d = DtypeName(t.At(key)); !d.empty()) t.Emit(key, flag, {d});
  } else {
    t.Use("optimizer.use_precision_aware_optimizer");
    for (const char* key : {"optimizer.exp_avg_dtype", "optimizer.exp_avg_sq_dtype",
                            "optimizer.main_params_dtype", "optimizer.main_grads_dtype"})
      t.Unused(key, "use_precision_aware_optimizer is false: Megatron keeps fp32 states");
  }
  t.Value("ddp.num_distributed_optimizer_instances", "--num-distributed-optimizer-instances");
  // Megatron-FSDP is on with use_megatron_fsdp (in ddp or dist); the sharding strategy means
  // nothing without it (HEAD recipes set optim_grads_params unconditionally).
  const char* fsdp_key = t.IsTrue("dist.use_megatron_fsdp")  ? "dist.use_megatron_fsdp"
                         : t.IsTrue("ddp.use_megatron_fsdp") ? "ddp.use_megatron_fsdp"
                                                             : nullptr;
  t.Use("dist.use_megatron_fsdp");
  t.Use("ddp.use_megatron_fsdp");
  if (fsdp_key) {
    t.Emit(fsdp_key, "--use-megatron-fsdp");
    t.Value("ddp.data_parallel_sharding_strategy", "--data-parallel-sharding-strategy");
  } else {
    t.Unused("ddp.data_parallel_sharding_strategy",
             "use_megatron_fsdp is false: the sharding strategy is unused");
  }
  if (t.IsTrue("dist.use_torch_fsdp2"))
    b.Problem(
        "dist.use_torch_fsdp2: PyTorch FSDP2 under Megatron-Bridge is not read; "
        "estimated as data parallel with the distributed optimizer setting");
}

void TranslateBatch(Translator& t, Builder& b) {
  t.Value("train.micro_batch_size", "--micro-batch-size");
  t.Value("train.global_batch_size", "--global-batch-size");
  // The trained length is the dataset's: model.seq_length is the model's maximum (131072 for
  // Llama 3.2 beside a dataset's 1024 in sample 01). GPTDatasetConfig wrote sequence_length
  // until Bridge moved every dataset to seq_length (config.py 231 / 286-295 at HEAD).
  const char* seq = t.Set("dataset.seq_length")        ? "dataset.seq_length"
                    : t.Set("dataset.sequence_length") ? "dataset.sequence_length"
                                                       : nullptr;
  if (seq) {
    t.Value(seq, "--seq-length");
    t.Use("dataset.seq_length");
    t.Use("dataset.sequence_length");
    if (t.Set("model.seq_length") && t.At("model.seq_length") != t.At(seq))
      b.Note(std::string(seq) + " " + ArgText(t.At(seq)) +
             " is the trained length; model.seq_length " + ArgText(t.At("model.seq_length")) +
             " is the model's maximum");
  } else if (t.Set("model.seq_length")) {
    t.Emit("model.seq_length", "--seq-length", {ArgText(t.At("model.seq_length"))});
    b.Note("no dataset.seq_length / sequence_length: the trained length is model.seq_length");
  }
}

void TranslateAdapters(Translator& t) {
  // LoRA / DoRA (megatron.bridge.peft): the rank is `dim`; the base weights are frozen.
  const std::string peft = Lower(TargetOf(t.At("peft")));
  if (t.At("peft").is_object() &&
      (peft.find("lora") != std::string::npos || peft.find("dora") != std::string::npos) &&
      t.Set("peft.dim")) {
    t.Value("peft.dim", "--lora-r");
    t.Use("peft._target_");
  }
  t.Value("tokenizer.tokenizer_model", "--tokenizer-model");
}

// [SECTION] Report -------------------------------------------------------------------------------
// Sections whose keys do not change device memory: one entry each.
bool HarmlessSection(const std::string& name) {
  static const std::set<std::string> kHarmless{"checkpoint",
                                               "logger",
                                               "scheduler",
                                               "rng",
                                               "rerun_state_machine",
                                               "profiling",
                                               "ft",
                                               "straggler",
                                               "nvrx_straggler",
                                               "inprocess_restart",
                                               "tokenizer",
                                               "env_vars",
                                               "tensor_inspect",
                                               "validation",
                                               "dataset"};
  return kHarmless.count(name) != 0;
}

void ReportUnread(const Translator& t, const BridgeTree& tree, const std::string& file,
                  Builder& b) {
  std::map<std::string, std::string> reasons = t.reasons();
  auto leaf = [&](const std::string& key) {
    if (t.Used(key) || EndsWith(key, "._target_") || t.At(key).is_null()) return;
    std::string reason = UnreadMegatronSettingReason(key.substr(key.rfind('.') + 1));
    reasons.emplace(key, reason);
  };
  for (const auto& [section, value] : tree.value.items()) {
    if (section == "_target_" || value.is_null()) continue;
    if (!value.is_object()) {
      leaf(section);
      continue;
    }
    if (HarmlessSection(section)) {
      bool read = false;
      for (const auto& [key, v] : value.items()) read = read || t.Used(section + "." + key);
      reasons.emplace(section, std::string(read ? "the rest of the section: " : "") +
                                   "I/O, logging, schedule or data setting: does not change "
                                   "device memory");
      continue;
    }
    for (const auto& [key, v] : value.items()) {
      if (section == "model" && key == "transformer" && v.is_object()) {
        for (const auto& [inner, unused] : v.items()) leaf("model.transformer." + inner);
        continue;
      }
      leaf(section + "." + key);
    }
  }
  for (const auto& [key, reason] : reasons) {
    const BridgeOrigin* at = tree.OriginOf(key);
    b.Ignore(
        {at ? at->file : file, at ? at->line : 0,
         at && !at->text.empty() && !StartsWith(at->text, key) ? key + " (" + at->text + ")" : key},
        reason);
  }
}

// The Megatron importer speaks of flags: each one it read or ignored names its YAML key.
void NameYamlKeys(const Translator& t, ImportReport& report, std::size_t first_read,
                  std::size_t first_ignored, std::size_t first_note) {
  auto rename = [&](std::string& text) {
    if (!StartsWith(text, "--")) return;
    const std::string flag = text.substr(0, text.find_first_of(" ="));
    const auto it = t.flag_keys().find(flag);
    if (it != t.flag_keys().end()) text = it->second + " → " + text;
  };
  for (std::size_t i = first_read; i < report.read.size(); ++i) rename(report.read[i].source);
  for (std::size_t i = first_ignored; i < report.ignored.size(); ++i) rename(report.ignored[i].key);
  for (std::size_t i = first_note; i < report.notes.size(); ++i) rename(report.notes[i]);
}

}  // namespace

void ImportBridgeTree(const BridgeTree& tree, const InputFile& file, bash::Script script,
                      const std::vector<bash::Word>& prefix, Builder& b, const Presets& presets,
                      std::vector<Error>& fatal) {
  Translator t(tree, file.name);
  TranslateModel(t, b);
  TranslateLayerVariants(t);
  TranslateLayout(t);
  TranslatePrecision(t, b);
  TranslateOptimizer(t, b);
  TranslateBatch(t, b);
  TranslateAdapters(t);
  script.found_launch = true;
  script.args = prefix;
  script.args.insert(script.args.end(), t.words().begin(), t.words().end());
  const std::size_t first_read = b.report().read.size();
  const std::size_t first_ignored = b.report().ignored.size();
  const std::size_t first_note = b.report().notes.size();
  // No other file: the Megatron path would look for each flag's line in the files given.
  b.training_job = true;
  ImportMegatronLaunch(file, script, {}, b, presets, fatal);
  b.training_job = false;
  NameYamlKeys(t, b.report(), first_read, first_ignored, first_note);
  ReportUnread(t, tree, file.name, b);
}

}  // namespace trainmem::import_detail
