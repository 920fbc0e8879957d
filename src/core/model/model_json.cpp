// ModelArchToJson: ModelArch → HF config.json fields that ParseModelArch reads back to an equal
// architecture. Family-native keys come first (what a person expects to read); trainmem's
// override keys are added only where the architecture differs from what those keys imply.
#include "core/model/model.h"
#include "core/model/model_detail.h"

namespace trainmem {
namespace model_detail {
namespace {

const char* ExpertCountKey(Family f) {
  switch (f) {
    case Family::kDeepSeek:
    case Family::kGlmMoe:
      return "n_routed_experts";
    case Family::kQwenMoe:
    case Family::kQwen3Next:
    case Family::kHunyuan:
      return "num_experts";
    case Family::kErnie:
      return "moe_num_experts";
    default:
      return "num_local_experts";  // Mixtral, gpt-oss, Llama 4, MiniMax, DBRX
  }
}

// The DeepSeek-V3.2 / GLM-5 / DeepSeek-V4 lightning indexer's sizes and GLM-5's shared layers.
void WriteIndexer(const ModelArch& a, json& j) {
  if (a.index_n_heads <= 0) return;
  j["index_n_heads"] = a.index_n_heads;
  j["index_head_dim"] = a.index_head_dim;
  if (a.index_topk > 0) j["index_topk"] = a.index_topk;
  if (!a.layer_shares_indexer.empty()) {
    json types = json::array();
    for (bool shared : a.layer_shares_indexer) types.push_back(shared ? "shared" : "full");
    j["indexer_types"] = std::move(types);
  }
}

void WriteAttention(const ModelArch& a, Family family, json& j) {
  if (family == Family::kStarcoder2 && a.model_type != "bloom") {
    j["use_bias"] = a.qkv_bias;
  } else {
    j["attention_bias"] = a.qkv_bias;
  }
  if (family == Family::kGlmMoe) j["use_qk_norm"] = a.qk_norm;
  if (a.mlp_bias) j["mlp_bias"] = true;
  if (a.attention == AttentionKind::kMla) {
    j["q_lora_rank"] = a.q_lora_rank > 0 ? json(a.q_lora_rank) : json(nullptr);
    j["kv_lora_rank"] = a.kv_lora_rank;
    j["qk_nope_head_dim"] = a.qk_nope_head_dim;
    j["qk_rope_head_dim"] = a.qk_rope_head_dim;
    j["v_head_dim"] = a.v_head_dim;
    WriteIndexer(a, j);
  }
  if (a.o_groups > 0) {  // DeepSeek-V4
    j["o_groups"] = a.o_groups;
    j["o_lora_rank"] = a.o_lora_rank;
    j["q_lora_rank"] = a.q_lora_rank;
    WriteIndexer(a, j);
    if (!a.layer_compress_ratio.empty()) j["compress_ratios"] = a.layer_compress_ratio;
  }
  if (a.hyper_connections > 0) j["hc_mult"] = a.hyper_connections;
  if (a.cla_share_factor > 1) {
    j["use_cla"] = true;
    j["cla_share_factor"] = a.cla_share_factor;
  }
}

void WriteMoe(const ModelArch& a, Family family, json& j) {
  if (a.num_experts == 0) return;
  j[ExpertCountKey(family)] = a.num_experts;
  j["num_experts_per_tok"] = a.experts_per_token;
  j["moe_intermediate_size"] = a.moe_intermediate_size;
  j["n_shared_experts"] = a.num_shared_experts;
  if (a.zero_experts > 0) j["zero_expert_num"] = a.zero_experts;
  if (a.moe_latent_size > 0) j["moe_latent_size"] = a.moe_latent_size;
  if (a.shared_expert_intermediate_size > 0) {
    j["shared_expert_intermediate_size"] = a.shared_expert_intermediate_size;
  }
  if (family == Family::kDeepSeek) j["topk_method"] = a.router_bias ? "noaux_tc" : "greedy";
  // Leading dense blocks as DeepSeek/GLM's first_k_dense_replace, any others as mlp_only_layers.
  std::int64_t first_dense = 0;
  // LFM2-MoE reads a missing count as 2 dense layers (Lfm2MoeConfig.num_dense_layers): written
  // always, like DeepSeek's and GLM's.
  const bool deepseek_style =
      family == Family::kDeepSeek || family == Family::kGlmMoe || a.model_type == "lfm2_moe";
  while (deepseek_style && first_dense < a.num_layers && !a.layer_is_moe.empty() &&
         !a.layer_is_moe[static_cast<std::size_t>(first_dense)]) {
    ++first_dense;
  }
  if (deepseek_style) {
    j["first_k_dense_replace"] = first_dense;
    j["moe_layer_freq"] = 1;
  }
  if (family == Family::kQwenMoe) j["decoder_sparse_step"] = 1;
  if (family == Family::kJamba) {  // mlp_only_layers below names the dense blocks
    j["expert_layer_period"] = 1;
    j["expert_layer_offset"] = 0;
  }
  json dense_layers = json::array();
  for (std::size_t i = static_cast<std::size_t>(first_dense); i < a.layer_is_moe.size(); ++i) {
    if (!a.layer_is_moe[i]) dense_layers.push_back(i);
  }
  if (!dense_layers.empty() || family == Family::kQwenMoe) j["mlp_only_layers"] = dense_layers;
}

void WriteMamba(const ModelArch& a, json& j) {
  if (a.mamba_heads <= 0) return;
  j["mamba_n_heads"] = a.mamba_heads;
  j["mamba_d_head"] = a.mamba_head_dim;
  j["mamba_n_groups"] = a.mamba_groups;
  j["mamba_d_state"] = a.mamba_state;
  j["mamba_d_conv"] = a.mamba_conv_kernel;
  if (a.mamba_chunk != 256) j["mamba_chunk_size"] = a.mamba_chunk;  // HF's default otherwise
  // Granite reads d_inner as mamba_expand · hidden and requires it to equal heads · head_dim;
  // Nemotron-H takes heads · head_dim whatever expand says, and its d_inner need not be a
  // multiple of hidden (then no expand is written: 0 is not a valid one).
  const std::int64_t d_inner = a.mamba_heads * a.mamba_head_dim;
  if (a.hidden_size > 0 && d_inner % a.hidden_size == 0 && d_inner >= a.hidden_size) {
    j["mamba_expand"] = d_inner / a.hidden_size;
  } else {
    j["mamba_d_ssm"] = d_inner;  // read as d_inner whatever the default expand says
  }
  j["mamba_conv_bias"] = a.mamba_conv_bias;
  j["mamba_proj_bias"] = a.mamba_proj_bias;
  j["mamba_rms_norm"] = a.mamba_norm;  // Falcon-H1 reads a missing one as false, others true
}

void WriteMamba1(const ModelArch& a, json& j) {
  j["mamba_d_inner"] = a.mamba_inner;
  j["mamba_d_state"] = a.mamba_state;
  j["mamba_d_conv"] = a.mamba_conv_kernel;
  j["mamba_dt_rank"] = a.mamba_dt_rank;
  j["mamba_conv_bias"] = a.mamba_conv_bias;
  j["mamba_proj_bias"] = a.mamba_proj_bias;
  j["mamba_inner_norms"] = a.mamba_inner_norms;
}

bool HasMamba1(const ModelArch& a) {
  for (MixerKind m : a.layer_mixer) {
    if (m == MixerKind::kMamba1) return true;
  }
  return false;
}

// Blocks with a token mixer or an MLP, not both: Nemotron-H's hybrid_override_pattern.
bool WriteHybridPattern(const ModelArch& a, json& j) {
  bool mixer_only_or_mlp_only = false;
  for (std::int64_t i = 0; i < a.num_layers; ++i)
    mixer_only_or_mlp_only =
        mixer_only_or_mlp_only || !a.HasMlp(i) || a.MixerOf(i) == MixerKind::kNone;
  if (!mixer_only_or_mlp_only) return false;
  std::string pattern;
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    const char mixer = a.MixerOf(i) == MixerKind::kMamba2 ? 'M' : '*';
    pattern += a.HasMlp(i) ? (LayerIsMoe(a, i) ? 'E' : '-') : mixer;
  }
  j["hybrid_override_pattern"] = pattern;
  WriteMamba(a, j);
  return true;
}

// DeciLM block_configs, with each block's KV heads and MLP width as numbers (ReadBlockConfigs
// reads them before n_heads_in_group / ffn_mult).
void WriteBlockConfigs(const ModelArch& a, json& j) {
  json blocks = json::array();
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    json attention, ffn;
    if (a.MixerOf(i) == MixerKind::kNone) {
      attention["no_op"] = true;
    } else if (a.KvHeadsOf(i) == ModelArch::kLinearPart) {
      attention["replace_with_linear"] = true;
    } else {
      attention["num_key_value_heads"] = a.KvHeadsOf(i);
    }
    if (!a.HasMlp(i)) {
      ffn["no_op"] = true;
    } else if (a.MlpWidthOf(i) == ModelArch::kLinearPart) {
      ffn["replace_with_linear"] = true;
    } else {
      ffn["intermediate_size"] = a.MlpWidthOf(i);
    }
    blocks.push_back({{"attention", attention}, {"ffn", ffn}});
  }
  j["block_configs"] = std::move(blocks);
}

// Kimi Linear's linear_attn_config (model_parse_layers.cpp ReadKimiLinear): 1-based layer
// numbers. False when no layer is a Kimi Delta Attention layer.
bool WriteKimiLinear(const ModelArch& a, json& j) {
  json kda = json::array(), full = json::array();
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    (a.MixerOf(i) == MixerKind::kKimiDelta ? kda : full).push_back(i + 1);
  }
  if (kda.empty()) return false;
  j["linear_attn_config"] = {{"kda_layers", std::move(kda)},
                             {"full_attn_layers", std::move(full)},
                             {"num_heads", a.linear_num_value_heads},
                             {"head_dim", a.linear_value_head_dim},
                             {"short_conv_kernel_size", a.linear_conv_kernel}};
  if (a.kda_full_rank) j["no_kda_lora"] = true;
  return true;
}

// Zamba2's layers_block_type and shared-block settings (model_parse_layers.cpp ReadZamba2).
// False when no layer is a Zamba2 hybrid layer.
bool WriteZamba2(const ModelArch& a, json& j) {
  json types = json::array();
  bool any = false;
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    const MixerKind m = a.MixerOf(i);
    const bool hybrid = m == MixerKind::kZambaHybrid || m == MixerKind::kZambaShared;
    any = any || hybrid;
    types.push_back(hybrid ? "hybrid" : "mamba");
  }
  if (!any) return false;
  j["layers_block_type"] = std::move(types);
  j["num_mem_blocks"] = a.zamba_mem_blocks;
  j["adapter_rank"] = a.zamba_adapter_rank;
  j["use_shared_mlp_adapter"] = a.zamba_mlp_adapter;
  j["use_shared_attention_adapter"] = a.zamba_attention_adapter;
  WriteMamba(a, j);
  return true;
}

// RecurrentGemma: the whole per-layer list as block_types (the reader repeats the list over the
// layers, so a full list reads back as itself).
bool WriteRecurrentGemma(const ModelArch& a, json& j) {
  if (a.rglru_width <= 0) return false;
  json types = json::array();
  for (std::int64_t i = 0; i < a.num_layers; ++i)
    types.push_back(a.MixerOf(i) == MixerKind::kRgLru ? "recurrent" : "attention");
  j["_block_types"] = std::move(types);
  j["lru_width"] = a.rglru_width;
  j["conv1d_width"] = a.rglru_conv;
  return true;
}

void WriteLayerKinds(const ModelArch& a, Family family, json& j) {
  if (WriteRecurrentGemma(a, j)) return;
  if (a.Heterogeneous()) {
    WriteBlockConfigs(a, j);
    return;
  }
  if (family == Family::kMamba) {  // every block a Mamba-1 (mamba2: Mamba-2) mixer
    if (HasMamba1(a)) {
      WriteMamba1(a, j);
    } else {
      WriteMamba(a, j);
    }
    return;
  }
  if (WriteZamba2(a, j)) return;
  if (!HasMamba1(a) && WriteHybridPattern(a, j)) return;
  if (WriteKimiLinear(a, j)) return;
  const bool gemma = family == Family::kGemma2 || family == Family::kGemma3;
  if (a.sliding_window > 0 || gemma) j["sliding_window"] = a.sliding_window;
  const bool sliding = !a.layer_uses_sliding.empty() && a.sliding_window > 0;
  bool delta_net = false;
  for (MixerKind m : a.layer_mixer) delta_net = delta_net || m == MixerKind::kGatedDeltaNet;
  // Qwen3-Next reads a missing layer_types as full_attention_interval 4: always write it.
  if (!sliding && a.layer_mixer.empty() && family != Family::kQwen3Next) return;
  if (sliding && (family == Family::kQwen2 || family == Family::kQwen3 ||
                  family == Family::kQwenMoe || family == Family::kQwen3Next)) {
    j["use_sliding_window"] = true;
  }
  json types = json::array();
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    const bool s = sliding && a.layer_uses_sliding[static_cast<std::size_t>(i)];
    const MixerKind mixer = a.MixerOf(i);
    if (mixer == MixerKind::kMamba2 || mixer == MixerKind::kMamba1) {
      types.push_back("mamba");
    } else if (mixer == MixerKind::kAttentionMamba2) {
      types.push_back("hybrid");
    } else if (mixer == MixerKind::kShortConv) {
      types.push_back("conv");
    } else {
      const bool linear = mixer != MixerKind::kAttention;
      types.push_back(linear ? "linear_attention" : (s ? "sliding_attention" : "full_attention"));
    }
  }
  j["layer_types"] = std::move(types);
  WriteMamba(a, j);
  if (a.short_conv_kernel > 0) {
    j["conv_L_cache"] = a.short_conv_kernel;
    j["conv_bias"] = a.short_conv_bias;
  }
  if (HasMamba1(a)) WriteMamba1(a, j);
  if (delta_net) {
    j["linear_num_key_heads"] = a.linear_num_key_heads;
    j["linear_num_value_heads"] = a.linear_num_value_heads;
    j["linear_key_head_dim"] = a.linear_key_head_dim;
    j["linear_value_head_dim"] = a.linear_value_head_dim;
    j["linear_conv_kernel_dim"] = a.linear_conv_kernel;
  }
}

json WriteHfFields(const ModelArch& a) {
  const Family family = FamilyOf(a.model_type);
  json j = json::object();
  if (!a.model_type.empty()) j["model_type"] = a.model_type;
  j["hidden_size"] = a.hidden_size;
  j["num_hidden_layers"] = a.num_layers;
  j["num_attention_heads"] = a.num_heads;
  // A heterogeneous model (DeciLM) has its KV heads and MLP widths per block in block_configs:
  // a model-wide field would be one nothing reads (and the page would offer it for editing).
  if (!a.Heterogeneous()) j["num_key_value_heads"] = a.num_kv_heads;
  // MLA derives head_dim from qk_nope_head_dim + qk_rope_head_dim.
  if (a.head_dim > 0 && a.attention == AttentionKind::kGqa) j["head_dim"] = a.head_dim;
  // QWenConfig's intermediate_size is twice the MLP's width (ReadSizes halves it).
  if (a.intermediate_size > 0 && !a.Heterogeneous()) {
    const bool halved = family == Family::kQwen1 || a.model_type == "recurrent_gemma";
    j["intermediate_size"] = halved ? 2 * a.intermediate_size : a.intermediate_size;
  }
  // LFM2 adjusts its width by default (ReadLfm2MlpWidth): the width written is the final one.
  if (a.model_type == "lfm2") j["block_auto_adjust_ff_dim"] = false;
  if (a.word_embedding_dim > 0) j["word_embed_proj_dim"] = a.word_embedding_dim;
  j["vocab_size"] = a.vocab_size;
  j["tie_word_embeddings"] = a.tie_embeddings;
  if (a.max_position_embeddings > 0) j["max_position_embeddings"] = a.max_position_embeddings;
  j["hidden_act"] = a.hidden_act;
  if (a.num_mtp_layers > 0 || family == Family::kQwen3Next) {
    j["num_nextn_predict_layers"] = a.num_mtp_layers;
  }
  WriteAttention(a, family, j);
  WriteMoe(a, family, j);
  WriteLayerKinds(a, family, j);
  // Gemma 4's per-layer shapes and per-layer embeddings, under Gemma4TextConfig's names.
  if (a.global_head_dim > 0) j["global_head_dim"] = a.global_head_dim;
  if (a.global_kv_heads > 0) j["num_global_key_value_heads"] = a.global_kv_heads;
  // Step-3.5's sliding-window layers' query heads and its head-wise output gate.
  if (a.sliding_heads > 0) {
    j["attention_other_setting"] = {{"attention_type", "sliding_attention"},
                                    {"num_attention_heads", a.sliding_heads},
                                    {"num_attention_groups", a.num_kv_heads},
                                    {"head_dim", a.head_dim}};
  }
  if (a.head_gate) j["use_head_wise_attn_gate"] = true;
  // MiMo-V2-Flash's narrower values, sliding-window KV heads and sinks, under its hub keys.
  if (a.value_head_dim > 0) j["v_head_dim"] = a.value_head_dim;
  if (a.query_rank > 0) j["share_q_dim"] = a.query_rank;
  if (a.sliding_kv_heads > 0) j["swa_num_key_value_heads"] = a.sliding_kv_heads;
  if (a.sinks_sliding_only || a.model_type == "mimo_v2_flash" || a.model_type == "mimo_v2") {
    j["add_full_attention_sink_bias"] = a.attention_sinks && !a.sinks_sliding_only;
    j["add_swa_attention_sink_bias"] = a.attention_sinks;
  }
  if (a.attention_k_eq_v) j["attention_k_eq_v"] = true;
  if (a.kv_shared_layers > 0) j["num_kv_shared_layers"] = a.kv_shared_layers;
  if (a.double_wide_mlp) j["use_double_wide_mlp"] = true;
  if (a.altup_inputs > 0) j["altup_num_inputs"] = a.altup_inputs;
  if (a.laurel_rank > 0) j["laurel_rank"] = a.laurel_rank;
  if (a.per_layer_input_width > 0) {
    j["hidden_size_per_layer_input"] = a.per_layer_input_width;
    j["vocab_size_per_layer_input"] =
        a.per_layer_input_vocab > 0 ? a.per_layer_input_vocab : a.vocab_size;
  }
  if (a.vision_params > 0) j["vision_params"] = a.vision_params;
  if (a.vision_experts > 0) {
    j["vision_experts"] = a.vision_experts;
    j["vision_expert_intermediate_size"] = a.vision_expert_width;
  }
  return j;
}

// Adds override keys for the flags the family-native keys do not reproduce.
void AddOverrides(const ModelArch& a, const ModelArch* implied, json& j) {
  auto flag = [&](const char* key, bool wanted, bool got) {
    if (implied == nullptr || wanted != got) j[key] = wanted;
  };
  const ModelArch none;
  const ModelArch& b = implied != nullptr ? *implied : none;
  flag("qkv_bias", a.qkv_bias, b.qkv_bias);
  flag("o_bias", a.o_bias, b.o_bias);
  flag("qk_norm", a.qk_norm, b.qk_norm);
  flag("attention_sinks", a.attention_sinks, b.attention_sinks);
  flag("mlp_bias", a.mlp_bias, b.mlp_bias);
  flag("router_bias", a.router_bias, b.router_bias);
  flag("expert_bias", a.expert_bias, b.expert_bias);
  flag("shared_expert_gate", a.shared_expert_gate, b.shared_expert_gate);
  flag("qk_norm_full", a.qk_norm_full, b.qk_norm_full);
  flag("attention_output_gate", a.attention_output_gate, b.attention_output_gate);
  flag("mtp_embedding_copies", a.mtp_embedding_copies, b.mtp_embedding_copies);
  flag("mtp_head_copy", a.mtp_head_copy, b.mtp_head_copy);
  flag("mtp_dense", a.mtp_dense, b.mtp_dense);
  flag("mtp_sliding", a.mtp_sliding, b.mtp_sliding);
  flag("final_norm", a.final_norm, b.final_norm);
  flag("head_bias", a.head_bias, b.head_bias);
  flag("embedding_norm", a.embedding_norm, b.embedding_norm);
  flag("layer_scalar", a.layer_scalar, b.layer_scalar);
  flag("router_scale", a.router_scale, b.router_scale);
  if ((implied == nullptr && a.final_logit_softcapping > 0) ||
      (implied != nullptr && a.final_logit_softcapping != b.final_logit_softcapping)) {
    j["final_logit_softcapping"] = a.final_logit_softcapping;
  }
  if (implied == nullptr || a.norms_per_layer != b.norms_per_layer) {
    j["norms_per_layer"] = a.norms_per_layer;
  }
  if (implied == nullptr || a.mlp != b.mlp) {
    j["mlp_kind"] = a.mlp == MlpKind::kGated ? "gated" : "plain";
  }
  if (implied == nullptr || a.norm != b.norm) {
    j["norm_kind"] = a.norm == NormKind::kRmsNorm     ? "rmsnorm"
                     : a.norm == NormKind::kLayerNorm ? "layernorm"
                                                      : "layernorm_no_bias";
  }
}

}  // namespace
}  // namespace model_detail

nlohmann::json ModelArchToJson(const ModelArch& arch) {
  using namespace model_detail;
  nlohmann::json j = WriteHfFields(arch);
  // Position table: Megatron's key, written when it differs from the family default.
  if (arch.learned_positions != DefaultLearnedPositions(FamilyOf(arch.model_type))) {
    j["position_embedding_type"] = arch.learned_positions ? "learned_absolute" : "rope";
  }
  if (arch.alibi && arch.model_type != "bloom") j["position_embedding_type"] = "alibi";
  Result<ModelArch> implied = ParseModelArch(j, "");
  AddOverrides(arch, implied.ok() ? &implied.value() : nullptr, j);
  return j;
}

}  // namespace trainmem
