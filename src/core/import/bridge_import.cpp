// Megatron-Bridge's resolved config: the YAML ConfigContainer.to_yaml writes (a checkpoint's
// iter_N/run_config.yaml, logger.save_config_filepath, the log's "Task Configuration"), a
// yaml.safe_dump of to_dict() with `_target_` on every dataclass (Bridge v0.2.0
// training/utils/config_utils.py; notes/bridge17/REPORT.md (b)).
//
// Bridge builds Megatron-Core's TransformerConfig / OptimizerConfig / DDP config from these keys,
// the same objects Megatron-LM's launch flags build. So the keys are translated into the flags
// they correspond to and read by the Megatron importer: one mapping of Megatron's semantics, not
// two. The report names each YAML key with the flag it became.
//
// [SECTION] index
//   Translator     — YAML key → Megatron argument words, with the keys it used
//   Model keys     — shape, attention, vocabulary; MoE, MLA, MTP, Mamba layers
//   Job keys       — parallelism, recompute, precision, optimizer, batch, sequence
//   Report         — flag names back to YAML keys; keys left unread
#include <algorithm>
#include <map>
#include <set>

#include "core/config/config_detail.h"
#include "core/import/arg_values.h"
#include "core/import/import_detail.h"
#include "core/import/yaml_reader.h"

namespace trainmem::import_detail {

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

// [SECTION] Translator ---------------------------------------------------------------------------
class Translator {
 public:
  Translator(const InputFile& file, const YamlDocument& doc) : file_(file), doc_(doc) {}

  // The value at a dotted key, or null (absent and null are alike: a null states nothing).
  const json& At(const std::string& dotted) const {
    static const json kNull;
    const json* value = detail::FindJsonPath(doc_.value, dotted);
    return value != nullptr ? *value : kNull;
  }
  // A TransformerConfig field: flat under model (the provider classes), or under
  // model.transformer (Bridge's nested GPTModelConfig since 2026).
  std::string Model(const std::string& key) const {
    const json& nested = At("model.transformer");
    return nested.is_object() && nested.contains(key) ? "model.transformer." + key : "model." + key;
  }
  bool IsTrue(const std::string& key) const { return ArgBool(At(key)).value_or(false); }
  bool Set(const std::string& key) const { return !At(key).is_null(); }

  void Use(const std::string& key) { used_.insert(key); }
  bool Used(const std::string& key) const { return used_.count(key) != 0; }

  // `flag` with `values`, as the YAML key states it.
  void Emit(const std::string& key, const std::string& flag,
            const std::vector<std::string>& values = {}) {
    Use(key);
    const int line = doc_.LineOf(key);
    words_.push_back({flag, line, file_.name});
    for (const std::string& v : values) words_.push_back({v, line, file_.name});
    if (flag_keys_.count(flag) == 0) flag_keys_[flag] = key;
  }
  // The key's value as the flag's argument, when it holds one.
  void Value(const std::string& key, const std::string& flag) {
    Use(key);
    if (Set(key)) Emit(key, flag, {ArgText(At(key))});
  }
  // A switch: true gives the flag; false is Megatron's default without it.
  void Switch(const std::string& key, const std::string& flag) {
    Use(key);
    if (IsTrue(key)) Emit(key, flag);
  }
  // A key read but not used, with the reason (reported as ignored when it holds a value).
  void Unused(const std::string& key, std::string reason) {
    if (Used(key)) return;
    Use(key);
    if (Set(key)) reasons_[key] = std::move(reason);
  }

  const std::vector<bash::Word>& words() const { return words_; }
  const std::map<std::string, std::string>& flag_keys() const { return flag_keys_; }
  const std::map<std::string, std::string>& reasons() const { return reasons_; }

 private:
  const InputFile& file_;
  const YamlDocument& doc_;
  std::vector<bash::Word> words_;
  std::set<std::string> used_;
  std::map<std::string, std::string> flag_keys_;  // "--num-layers" → "model.num_layers"
  std::map<std::string, std::string> reasons_;
};

// "torch.nn.functional.silu" from {_call_: false, _target_: torch.nn.functional.silu}.
std::string TargetOf(const json& v) {
  return v.is_object() && v.contains("_target_") ? ArgText(v["_target_"]) : ArgText(v);
}

// torch dtypes as Megatron's --exp-avg-dtype names them; "" for others.
std::string DtypeName(const json& v) {
  const std::string t = TargetOf(v);
  if (t == "torch.float32") return "fp32";
  if (t == "torch.bfloat16") return "bf16";
  if (t == "torch.float16") return "fp16";
  if (t == "torch.uint8" || t.find("float8") != std::string::npos) return "fp8";
  return "";
}

// [SECTION] Model keys ---------------------------------------------------------------------------
void TranslateModel(Translator& t, Builder& b) {
  auto m = [&](const char* key) { return t.Model(key); };
  t.Use("model._target_");
  t.Use("model.transformer._target_");
  t.Use("model._builder_");
  if (t.Set("model._target_"))
    b.Note("model class " + ArgText(t.At("model._target_")) +
           ": the architecture is read from the model.* numbers, not from the class");
  t.Value(m("num_layers"), "--num-layers");
  t.Value(m("hidden_size"), "--hidden-size");
  t.Value(m("ffn_hidden_size"), "--ffn-hidden-size");
  t.Value(m("num_attention_heads"), "--num-attention-heads");
  if (t.Set(m("num_query_groups"))) {
    t.Emit(m("num_query_groups"), "--group-query-attention");
    t.Value(m("num_query_groups"), "--num-query-groups");
  }
  t.Value(m("kv_channels"), "--kv-channels");
  t.Value(m("normalization"), "--normalization");
  t.Value(m("position_embedding_type"), "--position-embedding-type");
  if (t.Set(m("add_bias_linear")) && !t.IsTrue(m("add_bias_linear")))
    t.Emit(m("add_bias_linear"), "--disable-bias-linear");
  t.Use(m("add_bias_linear"));
  t.Switch(m("add_qkv_bias"), "--add-qkv-bias");
  t.Switch(m("qk_layernorm"), "--qk-layernorm");
  // gated_linear_unit with activation_func: SwiGLU (silu) or GeGLU (gelu); Megatron's default
  // without either is the GELU MLP (TransformerConfig: gated_linear_unit False, gelu).
  const std::string act = TargetOf(t.At(m("activation_func")));
  if (t.IsTrue(m("gated_linear_unit"))) {
    if (act.find("silu") != std::string::npos) {
      t.Emit(m("gated_linear_unit"), "--swiglu");
      t.Use(m("activation_func"));
    } else if (act.find("gelu") != std::string::npos) {
      t.Emit(m("gated_linear_unit"), "--geglu");
      t.Use(m("activation_func"));
    } else {
      t.Unused(m("activation_func"),
               "gated activation '" + act + "' not read: the MLP is estimated as SwiGLU's");
      t.Emit(m("gated_linear_unit"), "--swiglu");
    }
  } else {
    t.Use(m("gated_linear_unit"));
    if (act.empty() || act.find("gelu") != std::string::npos) t.Use(m("activation_func"));
    t.Unused(m("activation_func"), "activation '" + act + "' not read: GELU's is estimated");
  }
  if (t.Set("model.share_embeddings_and_output_weights") &&
      !t.IsTrue("model.share_embeddings_and_output_weights"))
    t.Emit("model.share_embeddings_and_output_weights", "--untie-embeddings-and-output-weights");
  t.Use("model.share_embeddings_and_output_weights");
  // Vocabulary: padded to divisible_by × TP only with should_pad_vocab (gpt_provider.py
  // 234-239 @v0.2.0); a null vocab_size is the tokenizer's, and setup then pads it
  // (training/setup.py 447-450).
  t.Use("model.should_pad_vocab");
  t.Use("model.make_vocab_size_divisible_by");
  if (t.Set("model.vocab_size") && !t.IsTrue("model.should_pad_vocab")) {
    t.Value("model.vocab_size", "--padded-vocab-size");
    t.Unused("model.make_vocab_size_divisible_by",
             "should_pad_vocab is false: the vocabulary is not padded");
  } else {
    const std::string vocab =
        t.Set("model.vocab_size") ? "model.vocab_size" : "tokenizer.vocab_size";
    t.Value(vocab, "--vocab-size");
    if (t.Set(vocab))
      t.Value("model.make_vocab_size_divisible_by", "--make-vocab-size-divisible-by");
  }
  // The model's position table (learned_absolute) is seq_length long; the trained length is
  // the dataset's (TranslateJob).
  t.Value("model.seq_length", "--max-position-embeddings");
  t.Value(m("transformer_impl"), "--transformer-impl");
  t.Switch(m("cross_entropy_loss_fusion"), "--cross-entropy-loss-fusion");
  t.Value(m("cross_entropy_fusion_impl"), "--cross-entropy-fusion-impl");
}

// MoE, MLA, MTP and Mamba layers: read only with the key that switches each on, since the dump
// carries every default of TransformerConfig.
void TranslateLayerVariants(Translator& t) {
  auto m = [&](const char* key) { return t.Model(key); };
  // MoE: Bridge dumps TransformerConfig's MoE defaults (moe_router_topk 2) for dense models.
  const bool moe = t.Set(m("num_moe_experts"));
  const char* moe_keys[][2] = {
      {"moe_router_topk", "--moe-router-topk"},
      {"moe_ffn_hidden_size", "--moe-ffn-hidden-size"},
      {"moe_shared_expert_intermediate_size", "--moe-shared-expert-intermediate-size"}};
  if (moe) {
    t.Value(m("num_moe_experts"), "--num-experts");
    for (const auto& [key, flag] : moe_keys) t.Value(m(key), flag);
    // An int k (every k-th layer) or a per-layer 0/1 list, which Megatron's flag writes as a
    // Python list.
    const json& freq = t.At(m("moe_layer_freq"));
    if (freq.is_array()) {
      std::string list = "[";
      for (const json& v : freq) list += (list.size() > 1 ? "," : "") + ArgText(v);
      t.Emit(m("moe_layer_freq"), "--moe-layer-freq", {list + "]"});
    } else {
      t.Value(m("moe_layer_freq"), "--moe-layer-freq");
    }
    t.Switch(m("moe_grouped_gemm"), "--moe-grouped-gemm");
    t.Switch(m("moe_router_enable_expert_bias"), "--moe-router-enable-expert-bias");
  } else {
    for (const auto& [key, flag] : moe_keys)
      t.Unused(m(key), "dense model (num_moe_experts is null): the dump's MoE default is unused");
    t.Unused(m("moe_layer_freq"), "dense model (num_moe_experts is null)");
  }
  // MLA (MLATransformerConfig), only with its switch.
  const char* mla_keys[][2] = {{"q_lora_rank", "--q-lora-rank"},
                               {"kv_lora_rank", "--kv-lora-rank"},
                               {"qk_head_dim", "--qk-head-dim"},
                               {"qk_pos_emb_head_dim", "--qk-pos-emb-head-dim"},
                               {"v_head_dim", "--v-head-dim"}};
  if (t.IsTrue(m("multi_latent_attention"))) {
    t.Emit(m("multi_latent_attention"), "--multi-latent-attention");
    for (const auto& [key, flag] : mla_keys) t.Value(m(key), flag);
  } else {
    t.Use(m("multi_latent_attention"));
    for (const auto& [key, flag] : mla_keys)
      t.Unused(m(key), "multi_latent_attention is false: MLA dimensions unused");
  }
  t.Value(m("mtp_num_layers"), "--mtp-num-layers");
  // Mamba / hybrid (Nemotron-H): the layer pattern and the mixer's dimensions.
  const char* mamba_keys[][2] = {{"mamba_state_dim", "--mamba-state-dim"},
                                 {"mamba_head_dim", "--mamba-head-dim"},
                                 {"mamba_num_groups", "--mamba-num-groups"},
                                 {"mamba_num_heads", "--mamba-num-heads"}};
  t.Use(m("is_hybrid_model"));
  if (t.Set(m("hybrid_override_pattern"))) {
    t.Value(m("hybrid_override_pattern"), "--hybrid-override-pattern");
    for (const auto& [key, flag] : mamba_keys) t.Value(m(key), flag);
  } else {
    for (const auto& [key, flag] : mamba_keys)
      t.Unused(m(key), "no hybrid_override_pattern: no Mamba layers, their default unused");
  }
}

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

void ReportUnread(const Translator& t, const InputFile& file, const YamlDocument& doc, Builder& b) {
  std::map<std::string, std::string> reasons = t.reasons();
  auto leaf = [&](const std::string& key) {
    if (t.Used(key) || EndsWith(key, "._target_") || t.At(key).is_null()) return;
    std::string reason = UnreadMegatronSettingReason(key.substr(key.rfind('.') + 1));
    reasons.emplace(key, reason);
  };
  for (const auto& [section, value] : doc.value.items()) {
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
  for (const auto& [key, reason] : reasons) b.Ignore({file.name, doc.LineOf(key), key}, reason);
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
  Translator t(file, doc);
  TranslateModel(t, b);
  TranslateLayerVariants(t);
  TranslateLayout(t);
  TranslatePrecision(t, b);
  TranslateOptimizer(t, b);
  TranslateBatch(t, b);
  TranslateAdapters(t);
  b.Note(file.name +
         ": Megatron-Bridge config read as the Megatron-LM arguments its keys set (the report "
         "names each as `yaml.key → --flag`); the world size is not in it");
  // A launch with no launcher: the world size comes from nowhere in the file, so it stays
  // missing rather than guessed from torchrun's default of one process.
  bash::Script script;
  script.found_launch = true;
  script.program = "Megatron-Bridge ConfigContainer";
  script.launch_file = file.name;
  script.launch_line = doc.LineOf("_target_");
  script.args = t.words();
  const std::size_t first_read = b.report().read.size();
  const std::size_t first_ignored = b.report().ignored.size();
  const std::size_t first_note = b.report().notes.size();
  // No other file: the Megatron path would look for each flag's line in the files given.
  ImportMegatronLaunch(file, script, {}, b, presets, fatal);
  NameYamlKeys(t, b.report(), first_read, first_ignored, first_note);
  ReportUnread(t, file, doc, b);
}

}  // namespace trainmem::import_detail
