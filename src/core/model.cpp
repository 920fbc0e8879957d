// Exact parameter counts from a ModelArch.
//
// Every formula follows the module layout of the Hugging Face modeling file of the family
// (modeling_llama.py, modeling_qwen2.py, modeling_qwen3(_moe).py, modeling_mixtral.py,
// modeling_deepseek_v3.py, modeling_gpt_oss.py, modeling_glm4_moe.py, modeling_gemma2/3.py,
// modeling_gpt2.py, modeling_starcoder2.py) and DeepSeek's own inference/model.py for the
// V3.2 indexer. tests/core/model_test.cpp checks the totals against the published
// safetensors totals of every model in tests/data/reference_models.jsonl.
//
// Active parameters (our convention): everything a token touches — embeddings, output head,
// final norm, attention, norms, dense MLPs, shared experts, routers — plus experts_per_token
// routed experts per MoE block. Vendors differ (DeepSeek's 37B includes embeddings; OpenAI's
// 5.13B leaves out the input embedding; Z.ai's 32B leaves out both); the tests convert.
#include "core/model.h"

#include <limits>

#include "core/model_detail.h"

namespace trainmem {
namespace model_detail {

std::int64_t ParamMath::Mul(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) {
    overflowed_ = true;
    return std::numeric_limits<std::int64_t>::max();
  }
  return out;
}

std::int64_t ParamMath::Add(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) {
    overflowed_ = true;
    return std::numeric_limits<std::int64_t>::max();
  }
  return out;
}

namespace {

std::int64_t NormParams(const ModelArch& arch, std::int64_t width) {
  // RMSNorm has a weight; LayerNorm a weight and a bias.
  return arch.norm == NormKind::kLayerNorm ? 2 * width : width;
}

// q/k/v/o of MHA/MQA/GQA with optional biases, per-head qk norms and gpt-oss sinks.
std::int64_t GqaAttentionParams(const ModelArch& a, ParamMath& m) {
  const std::int64_t q_out = m.Mul(a.num_heads, a.head_dim);
  const std::int64_t kv_out = m.Mul(a.num_kv_heads, a.head_dim);
  std::int64_t params = m.Mul(a.hidden_size, m.Add(m.Add(q_out, q_out), m.Mul(2, kv_out)));
  if (a.qkv_bias) params = m.Add(params, m.Add(q_out, m.Mul(2, kv_out)));
  if (a.o_bias) params = m.Add(params, a.hidden_size);
  // Qwen3Attention / Gemma3Attention / Glm4MoeAttention: q_norm and k_norm over head_dim,
  // shared by all heads.
  if (a.qk_norm) params = m.Add(params, m.Mul(2, NormParams(a, a.head_dim)));
  if (a.attention_sinks) params = m.Add(params, a.num_heads);  // GptOssAttention.sinks
  return params;
}

// DeepSeek-V3.2 lightning indexer, from DeepSeek-V3.2-Exp inference/model.py (class Indexer,
// deepseek-ai/DeepSeek-V3.2-Exp@6d8cb70d):
//   wq_b = Linear(q_lora_rank, index_n_heads * index_head_dim)   (reads the MLA q latent)
//   wk = Linear(dim, index_head_dim); k_norm = LayerNorm(index_head_dim) (weight + bias)
//   weights_proj = Linear(dim, index_n_heads); no biases on the linears.
// For V3.2 (1536, 64 heads, 128, dim 7168): 12,582,912 + 917,504 + 256 + 458,752 = 13,959,424
// per layer.
std::int64_t IndexerParams(const ModelArch& a, ParamMath& m) {
  if (a.index_n_heads == 0) return 0;
  std::int64_t params = m.Mul(a.q_lora_rank, a.index_n_heads, a.index_head_dim);
  params = m.Add(params, m.Mul(a.hidden_size, a.index_head_dim));
  params = m.Add(params, m.Mul(2, a.index_head_dim));
  return m.Add(params, m.Mul(a.hidden_size, a.index_n_heads));
}

// Multi-head latent attention as in modeling_deepseek_v3.py (DeepseekV3Attention):
// q_a_proj h×q_lora + q_a_layernorm + q_b_proj q_lora×heads·(nope+rope), or q_proj
// h×heads·(nope+rope) when q_lora_rank is null; kv_a_proj_with_mqa h×(kv_lora+rope) +
// kv_a_layernorm; kv_b_proj kv_lora×heads·(nope+v); o_proj heads·v×h. attention_bias adds biases on
// q_a_proj, kv_a_proj_with_mqa and o_proj only.
std::int64_t MlaAttentionParams(const ModelArch& a, ParamMath& m) {
  const std::int64_t qk_head = m.Add(a.qk_nope_head_dim, a.qk_rope_head_dim);
  const std::int64_t q_out = m.Mul(a.num_heads, qk_head);
  const std::int64_t kv_a_out = m.Add(a.kv_lora_rank, a.qk_rope_head_dim);
  std::int64_t params = 0;
  if (a.q_lora_rank > 0) {
    params = m.Add(m.Mul(a.hidden_size, a.q_lora_rank), m.Mul(a.q_lora_rank, q_out));
    params = m.Add(params, NormParams(a, a.q_lora_rank));
    if (a.qkv_bias) params = m.Add(params, a.q_lora_rank);
  } else {
    params = m.Mul(a.hidden_size, q_out);
  }
  params = m.Add(params, m.Mul(a.hidden_size, kv_a_out));
  params = m.Add(params, NormParams(a, a.kv_lora_rank));
  params =
      m.Add(params, m.Mul(a.kv_lora_rank, a.num_heads, m.Add(a.qk_nope_head_dim, a.v_head_dim)));
  params = m.Add(params, m.Mul(a.num_heads, a.v_head_dim, a.hidden_size));
  if (a.qkv_bias) params = m.Add(params, kv_a_out);
  if (a.o_bias) params = m.Add(params, a.hidden_size);
  return m.Add(params, IndexerParams(a, m));
}

// One MLP of width `width`: gated (gate/up/down, SwiGLU/GeGLU) or plain (up/down, GELU/ReLU²).
std::int64_t MlpParams(const ModelArch& a, std::int64_t width, bool bias, ParamMath& m) {
  const bool gated = a.mlp == MlpKind::kGated;
  std::int64_t params = m.Mul(gated ? 3 : 2, a.hidden_size, width);
  if (bias) params = m.Add(params, m.Add(m.Mul(gated ? 2 : 1, width), a.hidden_size));
  return params;
}

LayerParams BlockParams(const ModelArch& a, bool moe, ParamMath& m) {
  LayerParams p;
  p.attention =
      a.attention == AttentionKind::kMla ? MlaAttentionParams(a, m) : GqaAttentionParams(a, m);
  p.norms = m.Mul(a.norms_per_layer, NormParams(a, a.hidden_size));
  if (!moe) {
    p.dense_mlp = MlpParams(a, a.intermediate_size, a.mlp_bias, m);
    return p;
  }
  // Shared experts: DeepSeek/GLM build one MLP n_shared × moe width wide, which has the same
  // count as n_shared experts; Qwen2-MoE adds a 1-wide sigmoid gate (shared_expert_gate).
  const std::int64_t shared_width = a.shared_expert_intermediate_size > 0
                                        ? a.shared_expert_intermediate_size
                                        : a.moe_intermediate_size;
  p.dense_mlp = m.Mul(a.num_shared_experts, MlpParams(a, shared_width, a.mlp_bias, m));
  if (a.shared_expert_gate) p.dense_mlp = m.Add(p.dense_mlp, a.hidden_size);
  // Router: E×h, plus gpt-oss's router bias or DeepSeek/GLM e_score_correction_bias (noaux_tc),
  // both E wide and stored in the checkpoint.
  p.router = m.Mul(a.num_experts, a.hidden_size);
  if (a.router_bias) p.router = m.Add(p.router, a.num_experts);
  const std::int64_t expert = MlpParams(a, a.moe_intermediate_size, a.expert_bias, m);
  p.routed_experts = m.Mul(a.num_experts, expert);
  p.active_routed = m.Mul(a.experts_per_token, expert);
  return p;
}

bool LayerIsMoe(const ModelArch& a, std::int64_t layer) {
  if (a.num_experts == 0) return false;
  if (a.layer_is_moe.empty()) return true;
  return a.layer_is_moe[static_cast<std::size_t>(layer)];
}

}  // namespace

std::vector<LayerParams> CountLayerParamsChecked(const ModelArch& arch, ParamMath& math) {
  std::vector<LayerParams> layers;
  if (arch.num_layers <= 0 || arch.num_layers > kMaxLayers) return layers;
  if (!arch.layer_is_moe.empty() &&
      arch.layer_is_moe.size() != static_cast<std::size_t>(arch.num_layers)) {
    return layers;
  }
  layers.reserve(static_cast<std::size_t>(arch.num_layers));
  // Blocks repeat: compute the dense and the MoE block once each.
  const LayerParams dense_block = BlockParams(arch, false, math);
  const LayerParams moe_block =
      arch.num_experts > 0 ? BlockParams(arch, true, math) : LayerParams{};
  for (std::int64_t i = 0; i < arch.num_layers; ++i) {
    layers.push_back(LayerIsMoe(arch, i) ? moe_block : dense_block);
  }
  return layers;
}

// DeepSeek-V3 MTP module (modeling_deepseek_v3 checkpoint layout of layer 61): enorm, hnorm,
// eh_proj (2h → h, no bias), one decoder block (MoE when the model is), shared_head.norm, and
// — only in the checkpoint — copies of embed_tokens and shared_head.head.
std::int64_t MtpModuleParamsChecked(const ModelArch& arch, bool with_embedding_copies,
                                    ParamMath& m) {
  const LayerParams block = BlockParams(arch, arch.num_experts > 0, m);
  std::int64_t params = m.Add(block.total(), m.Mul(3, NormParams(arch, arch.hidden_size)));
  params = m.Add(params, m.Mul(2, arch.hidden_size, arch.hidden_size));
  if (with_embedding_copies) {
    const std::int64_t table = m.Mul(arch.vocab_size, arch.hidden_size);
    params = m.Add(params, arch.tie_embeddings ? table : m.Mul(2, table));
  }
  return params;
}

ParamCounts CountParamsChecked(const ModelArch& arch, bool include_mtp, ParamMath& m) {
  ParamCounts c;
  c.embedding = m.Mul(arch.vocab_size, arch.hidden_size);
  if (arch.learned_positions) {
    c.embedding = m.Add(c.embedding, m.Mul(arch.max_position_embeddings, arch.hidden_size));
  }
  c.output_head = arch.tie_embeddings ? 0 : m.Mul(arch.vocab_size, arch.hidden_size);
  c.final_norm = NormParams(arch, arch.hidden_size);
  std::int64_t blocks = 0;
  std::int64_t active_routed = 0;
  for (const LayerParams& layer : CountLayerParamsChecked(arch, m)) {
    blocks = m.Add(blocks, layer.total());
    c.expert = m.Add(c.expert, layer.routed_experts);
    active_routed = m.Add(active_routed, layer.active_routed);
  }
  c.total = m.Add(m.Add(c.embedding, c.output_head), m.Add(c.final_norm, blocks));
  if (include_mtp && arch.num_mtp_layers > 0) {
    const LayerParams block = BlockParams(arch, arch.num_experts > 0, m);
    c.mtp = m.Mul(arch.num_mtp_layers, MtpModuleParamsChecked(arch, true, m));
    c.total = m.Add(c.total, c.mtp);
    c.expert = m.Add(c.expert, m.Mul(arch.num_mtp_layers, block.routed_experts));
    active_routed = m.Add(active_routed, m.Mul(arch.num_mtp_layers, block.active_routed));
  }
  c.dense = c.total - c.expert;
  c.active = m.Add(c.dense, active_routed);
  return c;
}

}  // namespace model_detail

std::vector<LayerParams> CountLayerParams(const ModelArch& arch) {
  model_detail::ParamMath math;  // ParseModelArch has rejected architectures that overflow
  return model_detail::CountLayerParamsChecked(arch, math);
}

std::int64_t MtpModuleParams(const ModelArch& arch, bool with_embedding_copies) {
  model_detail::ParamMath math;
  return model_detail::MtpModuleParamsChecked(arch, with_embedding_copies, math);
}

ParamCounts CountParams(const ModelArch& arch, bool include_mtp) {
  model_detail::ParamMath math;
  return model_detail::CountParamsChecked(arch, include_mtp, math);
}

}  // namespace trainmem
