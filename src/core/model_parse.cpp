// ParseModelArch: Hugging Face config.json fields → ModelArch.
//
// [SECTION] family defaults   what model_type implies (from each family's HF Config/modeling file)
// [SECTION] field groups      sizes, attention, MLP/norms, MoE layout, sliding windows, overrides
// [SECTION] ParseModelArch    the entry point and the cross-field checks
#include <algorithm>

#include "core/config_detail.h"
#include "core/model.h"
#include "core/model_detail.h"

namespace trainmem {
namespace model_detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] family defaults
// ---------------------------------------------------------------------------------------------

Family FamilyOf(std::string_view t) {
  if (t == "qwen2") return Family::kQwen2;
  if (t == "qwen3") return Family::kQwen3;
  if (t == "mixtral") return Family::kMixtral;
  if (t == "qwen2_moe" || t == "qwen3_moe") return Family::kQwenMoe;
  if (t == "deepseek_v2" || t == "deepseek_v3" || t == "deepseek_v32") return Family::kDeepSeek;
  if (t == "glm4_moe") return Family::kGlmMoe;
  if (t == "gpt_oss") return Family::kGptOss;
  if (t == "gemma" || t == "gemma2") return Family::kGemma2;
  if (t == "gemma3" || t == "gemma3_text") return Family::kGemma3;
  if (t == "gpt2") return Family::kGpt2;
  if (t == "starcoder2" || t == "bloom") return Family::kStarcoder2;
  return Family::kLlama;
}

namespace {

constexpr std::string_view kTooLarge =
    "larger values are not a real model and could overflow 64-bit parameter counts";

bool IsGemma(Family f) { return f == Family::kGemma2 || f == Family::kGemma3; }
bool IsGptStyle(Family f) { return f == Family::kGpt2 || f == Family::kStarcoder2; }

// tie_word_embeddings when config.json leaves it out: the default of each HF Config class
// (LlamaConfig, Qwen2Config, MixtralConfig, DeepseekV3Config, … False; GemmaConfig,
// Gemma2Config, Gemma3TextConfig, GPT2Config, Starcoder2Config True).
bool DefaultTie(Family f) { return IsGemma(f) || IsGptStyle(f); }

// DeepseekV3Config and Glm4MoeConfig defaults (3 and 1); DeepseekV2Config uses 0.
std::int64_t DefaultFirstDense(Family f, std::string_view model_type) {
  if (f == Family::kGlmMoe) return 1;
  if (model_type == "deepseek_v3" || model_type == "deepseek_v32") return 3;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] field groups
// ---------------------------------------------------------------------------------------------

std::int64_t RequiredAlias(FieldReader& f, std::initializer_list<std::string_view> keys,
                           std::int64_t max) {
  const std::string key = f.FirstPresent(keys);
  if (key.empty()) {
    f.FailMissing(*keys.begin());
    return 0;
  }
  return f.Int(key, 1, max, kTooLarge).value_or(0);
}

void ReadSizes(FieldReader& f, Family family, ModelArch& a) {
  // GPT-2 names its sizes n_embd / n_layer / n_head / n_positions / n_inner (GPT2Config);
  // Bloom uses n_embed.
  a.hidden_size = RequiredAlias(f, {"hidden_size", "n_embd", "n_embed"}, kMaxWidth);
  a.num_layers = RequiredAlias(f, {"num_hidden_layers", "n_layer"}, kMaxLayers);
  a.num_heads = RequiredAlias(f, {"num_attention_heads", "n_head"}, kMaxHeads);
  a.vocab_size = f.RequiredInt("vocab_size", 1, kMaxVocab, kTooLarge);
  a.num_kv_heads = f.Int("num_key_value_heads", 1, kMaxHeads, kTooLarge).value_or(a.num_heads);
  a.head_dim = f.Int("head_dim", 1, kMaxWidth, kTooLarge).value_or(0);
  const std::string inter_key = f.FirstPresent({"intermediate_size", "n_inner"});
  if (!inter_key.empty())
    a.intermediate_size = f.Int(inter_key, 1, kMaxWidth, kTooLarge).value_or(0);
  if (inter_key.empty() && (family == Family::kGpt2 || a.model_type == "bloom")) {
    a.intermediate_size = 4 * a.hidden_size;  // GPT-2 n_inner = null → 4·n_embd; Bloom 4·h
  }
  const std::string pos_key = f.FirstPresent({"max_position_embeddings", "n_positions"});
  if (!pos_key.empty()) {
    a.max_position_embeddings = f.Int(pos_key, 1, kMaxPositions, kTooLarge).value_or(0);
  }
  a.tie_embeddings = f.Bool("tie_word_embeddings").value_or(DefaultTie(family));
  const std::string act_key =
      f.FirstPresent({"hidden_act", "hidden_activation", "activation_function"});
  std::string default_act = "silu";
  if (IsGemma(family) || family == Family::kStarcoder2) default_act = "gelu_pytorch_tanh";
  if (family == Family::kGpt2) default_act = "gelu_new";
  a.hidden_act = act_key.empty() ? default_act : f.String(act_key).value_or(default_act);
  a.num_mtp_layers = f.Int("num_nextn_predict_layers", 0, 100).value_or(0);
}

void ReadMla(FieldReader& f, ModelArch& a) {
  a.attention = AttentionKind::kMla;
  a.q_lora_rank = f.Int("q_lora_rank", 1, kMaxWidth, kTooLarge).value_or(0);  // null: q_proj
  a.kv_lora_rank = f.RequiredInt("kv_lora_rank", 1, kMaxWidth, kTooLarge);
  a.qk_nope_head_dim = f.RequiredInt("qk_nope_head_dim", 1, kMaxWidth, kTooLarge);
  a.qk_rope_head_dim = f.RequiredInt("qk_rope_head_dim", 1, kMaxWidth, kTooLarge);
  a.v_head_dim = f.RequiredInt("v_head_dim", 1, kMaxWidth, kTooLarge);
  const bool has_heads = f.Has("index_n_heads");
  const bool has_dim = f.Has("index_head_dim");
  if (has_heads != has_dim) {
    f.Fail(has_heads ? "index_head_dim" : "index_n_heads",
           "missing required field (the V3.2 indexer needs both index_n_heads and index_head_dim)");
    return;
  }
  if (!has_heads) return;
  a.index_n_heads = f.Int("index_n_heads", 1, kMaxHeads, kTooLarge).value_or(0);
  a.index_head_dim = f.Int("index_head_dim", 1, kMaxWidth, kTooLarge).value_or(0);
  a.index_topk = f.Int("index_topk", 1, kMaxPositions, kTooLarge).value_or(0);
  if (a.index_n_heads > 0 && a.q_lora_rank == 0) {
    f.Fail("index_n_heads",
           "the indexer's wq_b reads the MLA query latent, so q_lora_rank must be set");
  }
}

void ReadAttention(FieldReader& f, Family family, ModelArch& a) {
  const bool attention_bias = f.Bool("attention_bias").value_or(false);
  a.qkv_bias = attention_bias;
  a.o_bias = attention_bias;  // LlamaAttention, Qwen3Attention, GptOssAttention: all four
  if (family == Family::kQwen2 || a.model_type == "qwen2_moe") {
    a.qkv_bias = true;  // Qwen2Attention: q/k/v bias=True, o_proj bias=False, always
    a.o_bias = false;
  }
  if (family == Family::kGlmMoe) a.o_bias = false;  // Glm4MoeAttention: o_proj bias=False
  if (family == Family::kGpt2 || a.model_type == "bloom") a.qkv_bias = a.o_bias = true;
  if (family == Family::kStarcoder2 && a.model_type != "bloom") {
    a.qkv_bias = a.o_bias = f.Bool("use_bias").value_or(true);  // Starcoder2Config.use_bias
  }
  a.qk_norm = family == Family::kQwen3 || family == Family::kGemma3 || a.model_type == "qwen3_moe";
  if (family == Family::kGlmMoe) a.qk_norm = f.Bool("use_qk_norm").value_or(false);
  a.attention_sinks = family == Family::kGptOss;
  if (f.Has("kv_lora_rank")) {
    // MLA heads are qk_nope + qk_rope wide for q and k (v: v_head_dim); hidden / heads means
    // nothing there, and the HF config's head_dim (when given) is the rotary width.
    ReadMla(f, a);
    a.head_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
    return;
  }
  if (a.head_dim == 0 && a.num_heads > 0) {
    if (a.hidden_size % a.num_heads == 0) {
      a.head_dim = a.hidden_size / a.num_heads;
    } else {
      f.Fail("head_dim", "missing required field: hidden_size (" + std::to_string(a.hidden_size) +
                             ") is not divisible by num_attention_heads (" +
                             std::to_string(a.num_heads) + ")");
    }
  }
}

void ReadMlpAndNorms(FieldReader& f, Family family, ModelArch& a) {
  a.mlp = IsGptStyle(family) ? MlpKind::kPlain : MlpKind::kGated;
  a.norm = IsGptStyle(family) ? NormKind::kLayerNorm : NormKind::kRmsNorm;
  a.norms_per_layer = IsGemma(family) ? 4 : 2;      // Gemma: pre/post attention + pre/post MLP
  a.mlp_bias = f.Bool("mlp_bias").value_or(false);  // LlamaConfig.mlp_bias
  if (IsGptStyle(family)) a.mlp_bias = a.qkv_bias;  // GPT-2/Bloom always; StarCoder2 use_bias
  // GPT-2 learns a position table (wpe); StarCoder2 uses RoPE. Megatron GPT configs say which
  // with position_embedding_type (Megatron's argument name); it defaults to RoPE here.
  a.learned_positions = family == Family::kGpt2;
  if (std::optional<std::string> type = f.String("position_embedding_type")) {
    if (*type == "learned_absolute") {
      a.learned_positions = true;
    } else if (*type == "rope" || *type == "none" || *type == "alibi") {
      a.learned_positions = false;
    } else {
      f.Fail("position_embedding_type",
             "unknown value \"" + *type + "\" (expected learned_absolute, rope, alibi or none)");
    }
  }
  if (a.learned_positions && a.max_position_embeddings == 0) {
    f.Fail("max_position_embeddings",
           "missing required field (learned absolute positions need the table size)");
  }
}

std::int64_t ReadExpertCount(FieldReader& f) {
  // DeepSeek/GLM: n_routed_experts; Mixtral/gpt-oss: num_local_experts; Qwen-MoE: num_experts.
  const std::string key = f.FirstPresent({"n_routed_experts", "num_local_experts", "num_experts"});
  return key.empty() ? 0 : f.Int(key, 0, kMaxExperts, kTooLarge).value_or(0);
}

void ReadSharedExperts(FieldReader& f, ModelArch& a) {
  a.num_shared_experts = f.Int("n_shared_experts", 0, 1000).value_or(0);
  if (std::optional<std::int64_t> width =
          f.Int("shared_expert_intermediate_size", 1, kMaxWidth, kTooLarge)) {
    // Qwen2-MoE: one shared expert of this width, scaled by a sigmoid gate (h → 1).
    a.shared_expert_intermediate_size = *width;
    if (a.num_shared_experts == 0) a.num_shared_experts = 1;
    a.shared_expert_gate = a.model_type == "qwen2_moe";
  }
}

// Which blocks are MoE: DeepseekV3DecoderLayer / Glm4MoeDecoderLayer use first_k_dense_replace
// and moe_layer_freq; Qwen2/3-MoE use decoder_sparse_step and mlp_only_layers; Mixtral and
// gpt-oss route every block. mlp_only_layers is honoured for every family (round trip).
void ReadMoeLayout(FieldReader& f, Family family, ModelArch& a) {
  std::int64_t first_dense = 0;
  std::int64_t freq = 1;
  std::int64_t step = 1;
  if (family == Family::kDeepSeek || family == Family::kGlmMoe) {
    first_dense = f.Int("first_k_dense_replace", 0, a.num_layers)
                      .value_or(DefaultFirstDense(family, a.model_type));
    freq = f.Int("moe_layer_freq", 1, kMaxLayers).value_or(1);
  }
  if (family == Family::kQwenMoe) step = f.Int("decoder_sparse_step", 1, kMaxLayers).value_or(1);
  const std::vector<std::int64_t> dense_layers =
      f.IntList("mlp_only_layers", 0, std::max<std::int64_t>(a.num_layers - 1, 0))
          .value_or(std::vector<std::int64_t>{});
  a.layer_is_moe.assign(static_cast<std::size_t>(a.num_layers), false);
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    const bool listed =
        std::find(dense_layers.begin(), dense_layers.end(), i) != dense_layers.end();
    a.layer_is_moe[static_cast<std::size_t>(i)] =
        !listed && i >= first_dense && i % freq == 0 && (i + 1) % step == 0;
  }
}

void ReadMoe(FieldReader& f, Family family, ModelArch& a) {
  a.num_experts = ReadExpertCount(f);
  if (a.num_experts == 0) return;
  const std::string k_key =
      f.FirstPresent({"num_experts_per_tok", "experts_per_token", "num_experts_per_token"});
  if (k_key.empty()) {
    f.Fail("num_experts_per_tok", "missing required field (the config has " +
                                      std::to_string(a.num_experts) + " routed experts)");
  } else {
    a.experts_per_token = f.Int(k_key, 1, a.num_experts).value_or(0);
  }
  // Mixtral and gpt-oss experts are intermediate_size wide; the others name their own width.
  const bool experts_use_dense_width =
      family == Family::kMixtral || family == Family::kGptOss || family == Family::kLlama;
  if (f.Has("moe_intermediate_size") || !experts_use_dense_width) {
    a.moe_intermediate_size = f.RequiredInt("moe_intermediate_size", 1, kMaxWidth, kTooLarge);
  } else {
    a.moe_intermediate_size = a.intermediate_size;
  }
  ReadSharedExperts(f, a);
  // gpt-oss: GptOssTopKRouter.bias and per-expert biases; DeepSeek-V3 noaux_tc and GLM-4.5:
  // gate.e_score_correction_bias (stored in the checkpoint).
  a.router_bias = family == Family::kGptOss || family == Family::kGlmMoe;
  if (family == Family::kDeepSeek) {
    const std::string default_method = a.model_type == "deepseek_v2" ? "greedy" : "noaux_tc";
    a.router_bias = f.String("topk_method").value_or(default_method) == "noaux_tc";
  }
  a.expert_bias = family == Family::kGptOss;
  ReadMoeLayout(f, family, a);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] ParseModelArch
// ---------------------------------------------------------------------------------------------

// Checks that need several fields; run only when every field read cleanly.
void CheckCombination(FieldReader& f, ModelArch& a) {
  if (a.attention == AttentionKind::kGqa) {
    if (a.num_kv_heads > a.num_heads || a.num_heads % a.num_kv_heads != 0) {
      f.Fail("num_key_value_heads", "must divide num_attention_heads (" +
                                        std::to_string(a.num_heads) + "), got " +
                                        std::to_string(a.num_kv_heads));
    }
  }
  bool any_dense = a.num_experts == 0;
  for (bool moe : a.layer_is_moe) any_dense = any_dense || !moe;
  const bool needs_width = any_dense || (a.num_experts > 0 && a.moe_intermediate_size == 0);
  if (needs_width && a.intermediate_size == 0) f.FailMissing("intermediate_size");
}

Result<ModelArch> ParseFlat(const json& config, const std::string& path) {
  std::vector<Error> errors;
  FieldReader f(config, path, &errors);
  ModelArch a;
  a.model_type = f.String("model_type").value_or("");
  const Family family = FamilyOf(a.model_type);
  ReadSizes(f, family, a);
  if (!errors.empty()) return Result<ModelArch>::Failure(std::move(errors));
  ReadAttention(f, family, a);
  ReadMlpAndNorms(f, family, a);
  ReadMoe(f, family, a);
  if (a.num_experts > 0 && a.moe_intermediate_size == 0)
    a.moe_intermediate_size = a.intermediate_size;
  ReadSlidingWindows(f, family, a);
  ReadOverrides(f, a);
  if (errors.empty()) CheckCombination(f, a);
  if (!errors.empty()) return Result<ModelArch>::Failure(std::move(errors));
  ParamMath math;
  CountParamsChecked(a, true, math);
  if (math.overflowed()) {
    return Result<ModelArch>::Failure(
        path.empty() ? "model" : path,
        "the parameter count overflows 64-bit integers; check the sizes for a typo");
  }
  return Result<ModelArch>::Success(std::move(a));
}

}  // namespace
}  // namespace model_detail

Result<ModelArch> ParseModelArch(const nlohmann::json& hf_config, const std::string& path) {
  using model_detail::FieldReader;
  if (!hf_config.is_object()) {
    return Result<ModelArch>::Failure(
        path.empty() ? "model" : path,
        "expected an object of config.json fields, got " + detail::JsonTypeName(hf_config));
  }
  // Multimodal checkpoints (Gemma 3, Llama 4, …) keep the language model under text_config.
  std::vector<Error> unused;
  FieldReader top(hf_config, path, &unused);
  const nlohmann::json* text_config = top.Get("text_config");
  if (top.FirstPresent({"hidden_size", "n_embd", "n_embed"}).empty() && text_config != nullptr &&
      text_config->is_object()) {
    return model_detail::ParseFlat(*text_config, top.PathOf("text_config"));
  }
  return model_detail::ParseFlat(hf_config, path);
}

}  // namespace trainmem
