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
#include "core/model/model.h"

#include <limits>
#include <optional>

#include "core/model/model_detail.h"

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

// Where BlockParams records tensor shapes (ParamTensors); null when only counting.
struct Recorder {
  std::vector<ParamTensor>* out = nullptr;
  ParamTensor::Group group = ParamTensor::kBlock;
  std::int64_t repeat = 1;  // blocks of this kind
};

std::int64_t Mat(ParamMath& m, Recorder* r, std::int64_t rows, std::int64_t cols,
                 std::int64_t times = 1) {
  if (rows <= 0 || cols <= 0 || times <= 0) return 0;
  if (r != nullptr && r->out != nullptr) {
    r->out->push_back({rows, cols, m.Mul(times, r->repeat), r->group});
  }
  return m.Mul(rows, cols, times);
}

std::int64_t Vec(ParamMath& m, Recorder* r, std::int64_t n, std::int64_t times = 1) {
  if (n <= 0 || times <= 0) return 0;
  if (r != nullptr && r->out != nullptr) {
    r->out->push_back({n, 0, m.Mul(times, r->repeat), r->group});
  }
  return m.Mul(n, times);
}

std::int64_t NormParams(const ModelArch& arch, std::int64_t width, ParamMath& m,
                        Recorder* r = nullptr, std::int64_t times = 1) {
  // RMSNorm and bias-free LayerNorm have a weight; LayerNorm a weight and a bias.
  const std::int64_t tensors = arch.norm == NormKind::kLayerNorm ? 2 : 1;
  return Vec(m, r, width, m.Mul(tensors, times));
}

// The token table (+ OPT's project_in, word_embedding_dim → hidden, no bias) and the learned
// position table (GPT-2 wpe; OPT's has position_offset extra rows).
std::int64_t EmbeddingParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t word = a.word_embedding_dim > 0 ? a.word_embedding_dim : a.hidden_size;
  std::int64_t params = Mat(m, r, a.vocab_size, word);
  if (a.word_embedding_dim > 0) params = m.Add(params, Mat(m, r, a.hidden_size, word));
  // BloomModel.word_embeddings_layernorm: LayerNorm(hidden) on the embedded tokens
  // (modeling_bloom.py).
  if (a.embedding_norm) params = m.Add(params, NormParams(a, a.hidden_size, m, r));
  if (a.learned_positions) {
    params = m.Add(params,
                   Mat(m, r, m.Add(a.max_position_embeddings, a.position_offset), a.hidden_size));
  }
  if (a.per_layer_input_width > 0) {
    // Per-layer embeddings (Gemma 3n / 4): embed_tokens_per_layer, per_layer_model_projection
    // (h → layers · width, no bias) and per_layer_projection_norm (width), all at the input.
    const std::int64_t width = m.Mul(a.num_layers, a.per_layer_input_width);
    const std::int64_t rows = a.per_layer_input_vocab > 0 ? a.per_layer_input_vocab : a.vocab_size;
    params = m.Add(params, Mat(m, r, rows, width));
    params = m.Add(params, Mat(m, r, width, a.hidden_size));
    params = m.Add(params, NormParams(a, a.per_layer_input_width, m, r));
  }
  if (a.altup_inputs > 1) {
    // Gemma 3n's altup_projections and altup_unembed_projections: (n − 1) h × h each, no bias
    // (the unembedding ones run before the head; counted here with the input side).
    params = m.Add(params, Mat(m, r, a.hidden_size, a.hidden_size, m.Mul(2, a.altup_inputs - 1)));
  }
  return params;
}

// The output head (none when tied) with GPT-J's bias, and OPT's project_out (hidden →
// word_embedding_dim, no bias), which exists tied or not.
std::int64_t HeadParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t word = a.word_embedding_dim > 0 ? a.word_embedding_dim : a.hidden_size;
  std::int64_t params = 0;
  if (a.word_embedding_dim > 0) params = Mat(m, r, word, a.hidden_size);
  if (!a.tie_embeddings) params = m.Add(params, Mat(m, r, a.vocab_size, word));
  if (a.head_bias) params = m.Add(params, Vec(m, r, a.vocab_size));
  return params;
}

// q/k/v/o of MHA/MQA/GQA with optional biases, qk norms, gpt-oss sinks and Qwen3-Next's output
// gate (Qwen3NextAttention: q_proj emits heads·head_dim·2, the second half gates the output).
// JetMoE's mixture of attention (modeling_jetmoe.py: JetMoeMoA + JetMoeAttention.kv_proj), with
// kv = head_dim · kv_heads (kv_channels · num_key_value_heads): input_linear E × (kv × h) makes
// each routed expert's queries, output_linear E × (h × kv) maps them back, then an h-wide bias; the
// router (JetMoeTopKGating.layer) is E × h without bias; kv_proj h → 2 · kv has no bias. The
// top experts_per_token experts' queries are the num_attention_heads = top-k · kv_heads heads.
// JetMoE-8B (h 2048, 16 × 128, E 8): 67,108,864 + 2,048 + 16,384 + 8,388,608 = 75,515,904.
std::int64_t AttentionExpertParams(const ModelArch& a, ParamMath& m, Recorder* r,
                                   std::int64_t& idle) {
  const std::int64_t kv = m.Mul(a.num_kv_heads, a.head_dim);
  const std::int64_t pair = m.Add(Mat(m, r, kv, a.hidden_size, a.num_experts),
                                  Mat(m, r, a.hidden_size, kv, a.num_experts));
  const std::int64_t experts = std::max<std::int64_t>(a.num_experts, 1);
  idle = m.Mul(pair / experts, std::max<std::int64_t>(a.num_experts - a.experts_per_token, 0));
  std::int64_t params = m.Add(pair, Vec(m, r, a.hidden_size));
  params = m.Add(params, Mat(m, r, a.num_experts, a.hidden_size));
  return m.Add(params, Mat(m, r, m.Mul(2, kv), a.hidden_size));
}

// DeepSeek-V4's attention (ModelArch::o_groups; modular_deepseek_v4.py DeepseekV4Attention,
// DeepseekV4CSACompressor, DeepseekV4HCACompressor, DeepseekV4Indexer), d = head_dim:
//   q_a_proj h × q_lora, q_norm q_lora, q_b_proj q_lora × heads·d, kv_proj h × d, kv_norm d,
//   o_a_proj o_groups × (heads·d / o_groups → o_lora), o_b_proj o_groups·o_lora × h, sinks heads;
//   CSA (ratio 4): kv_proj and gate_proj h × 2d, position_bias ratio × 2d, kv_norm d, and its
//   indexer: the same compressor at index_head_dim i (h × 2i twice, ratio × 2i, norm i),
//   q_b_proj q_lora × index_heads·i, weights_proj h × index_heads;
//   HCA (another ratio): kv_proj and gate_proj h × d, position_bias ratio × d, kv_norm d.
// DeepSeek-V4-Flash (h 4,096, 64 heads × 512, q_lora 1,024, 8 groups × 1,024): 106,956,352, and
// 19,142,272 (CSA) or 4,260,352 (HCA) more.
std::int64_t DeepseekV4AttentionParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t d = a.head_dim;
  const std::int64_t q_out = m.Mul(a.num_heads, d);
  const std::int64_t groups = std::max<std::int64_t>(a.o_groups, 1);
  std::int64_t p = Mat(m, r, a.q_lora_rank, a.hidden_size);
  p = m.Add(p, Vec(m, r, a.q_lora_rank));
  p = m.Add(p, Mat(m, r, q_out, a.q_lora_rank));
  p = m.Add(p, Mat(m, r, d, a.hidden_size));
  p = m.Add(p, Vec(m, r, d));
  p = m.Add(p, Mat(m, r, a.o_lora_rank, q_out / groups, groups));
  p = m.Add(p, Mat(m, r, a.hidden_size, m.Mul(groups, a.o_lora_rank)));
  if (a.attention_sinks) p = m.Add(p, Vec(m, r, a.num_heads));
  const std::int64_t ratio = a.compress_ratio;
  if (ratio <= 0) return p;
  auto compressor = [&](std::int64_t width, std::int64_t norm) {
    std::int64_t c = Mat(m, r, width, a.hidden_size, 2);
    c = m.Add(c, Mat(m, r, ratio, width));
    return m.Add(c, Vec(m, r, norm));
  };
  if (ratio != 4) return m.Add(p, compressor(d, d));
  const std::int64_t i = a.index_head_dim;
  p = m.Add(p, compressor(m.Mul(2, d), d));
  p = m.Add(p, compressor(m.Mul(2, i), i));
  p = m.Add(p, Mat(m, r, m.Mul(a.index_n_heads, i), a.q_lora_rank));
  return m.Add(p, Mat(m, r, a.index_n_heads, a.hidden_size));
}

// DeepseekV4HyperConnection: fn (2 + n)·n × n·h, base (2 + n)·n, scale 3, for n = hc_mult
// streams; DeepseekV4HyperHead: n × n·h, base n, scale 1.
std::int64_t HyperConnectionParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t n = a.hyper_connections;
  const std::int64_t mix = m.Mul(n + 2, n);
  std::int64_t p = Mat(m, r, mix, m.Mul(n, a.hidden_size));
  p = m.Add(p, Vec(m, r, mix));
  return m.Add(p, Vec(m, r, 3));
}

std::int64_t HyperHeadParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  if (a.hyper_connections <= 0) return 0;
  const std::int64_t n = a.hyper_connections;
  std::int64_t p = Mat(m, r, n, m.Mul(n, a.hidden_size));
  p = m.Add(p, Vec(m, r, n));
  return m.Add(p, Vec(m, r, 1));
}

std::int64_t GqaAttentionParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t q_out = m.Mul(a.num_heads, a.head_dim);
  const std::int64_t kv_out = m.Mul(a.num_kv_heads, a.head_dim);
  const std::int64_t q_proj_out = a.attention_output_gate ? m.Mul(2, q_out) : q_out;
  // Gemma 4 views (kv_projections): full layers with attention_k_eq_v have k_proj only, the
  // KV-shared layers neither k_proj nor v_proj (nor k_norm).
  const int kv = a.kv_projections;
  std::int64_t params = 0;
  if (a.query_rank > 0) {
    params = Mat(m, r, a.query_rank, a.hidden_size);
    params = m.Add(params, NormParams(a, a.query_rank, m, r));
    params = m.Add(params, Mat(m, r, q_proj_out, a.query_rank));
  } else {
    params = Mat(m, r, q_proj_out, a.hidden_size);
  }
  if (a.value_head_dim > 0 && kv == 2) {
    // MiMo-V2-Flash: v_proj (and o_proj's input) value_head_dim per head, k_proj head_dim.
    const std::int64_t v_out = m.Mul(a.num_kv_heads, a.value_head_dim);
    params =
        m.Add(params, m.Add(Mat(m, r, kv_out, a.hidden_size), Mat(m, r, v_out, a.hidden_size)));
    params = m.Add(params, Mat(m, r, a.hidden_size, m.Mul(a.num_heads, a.value_head_dim)));
    if (a.qkv_bias) {
      params =
          m.Add(params, m.Add(Vec(m, r, q_proj_out), m.Add(Vec(m, r, kv_out), Vec(m, r, v_out))));
    }
  } else {
    params = m.Add(params, Mat(m, r, kv_out, a.hidden_size, kv));
    params = m.Add(params, Mat(m, r, a.hidden_size, q_out));
    if (a.qkv_bias) {
      params = m.Add(params, m.Add(Vec(m, r, q_proj_out), Vec(m, r, kv_out, kv)));
    }
  }
  if (a.o_bias) params = m.Add(params, Vec(m, r, a.hidden_size));
  // Qwen3Attention / Gemma3Attention / Glm4MoeAttention: q_norm and k_norm over head_dim, shared
  // by all heads. OLMo 2 / MiniMax-M2 / Cohere (use_qk_norm) normalise all heads at once.
  // Hunyuan's cross-layer-attention layers keep key_layernorm without k_proj.
  const bool k_norm = kv > 0 || a.cla_share_factor > 1;
  if (a.qk_norm && a.qk_norm_full) {
    params = m.Add(params, NormParams(a, q_out, m, r));
    if (k_norm) params = m.Add(params, NormParams(a, kv_out, m, r));
  } else if (a.qk_norm) {
    params = m.Add(params, NormParams(a, a.head_dim, m, r, k_norm ? 2 : 1));
  }
  if (a.attention_sinks) params = m.Add(params, Vec(m, r, a.num_heads));  // GptOssAttention.sinks
  // Step3p5Attention (use_head_wise_attn_gate): g_proj, h → one gate per query head, no bias.
  if (a.head_gate) params = m.Add(params, Mat(m, r, a.num_heads, a.hidden_size));
  return params;
}

// DeepSeek-V3.2 lightning indexer, from DeepSeek-V3.2-Exp inference/model.py (class Indexer,
// deepseek-ai/DeepSeek-V3.2-Exp@6d8cb70d):
//   wq_b = Linear(q_lora_rank, index_n_heads * index_head_dim)   (reads the MLA q latent)
//   wk = Linear(dim, index_head_dim); k_norm = LayerNorm(index_head_dim) (weight + bias)
//   weights_proj = Linear(dim, index_n_heads); no biases on the linears.
// For V3.2 (1536, 64 heads, 128, dim 7168): 12,582,912 + 917,504 + 256 + 458,752 = 13,959,424
// per layer.
std::int64_t IndexerParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  if (a.index_n_heads == 0) return 0;
  std::int64_t params = Mat(m, r, m.Mul(a.index_n_heads, a.index_head_dim), a.q_lora_rank);
  params = m.Add(params, Mat(m, r, a.index_head_dim, a.hidden_size));
  params = m.Add(params, Vec(m, r, a.index_head_dim, 2));
  return m.Add(params, Mat(m, r, a.index_n_heads, a.hidden_size));
}

// Multi-head latent attention as in modeling_deepseek_v3.py (DeepseekV3Attention):
// q_a_proj h×q_lora + q_a_layernorm + q_b_proj q_lora×heads·(nope+rope), or q_proj
// h×heads·(nope+rope) when q_lora_rank is null; kv_a_proj_with_mqa h×(kv_lora+rope) +
// kv_a_layernorm; kv_b_proj kv_lora×heads·(nope+v); o_proj heads·v×h. attention_bias adds biases on
// q_a_proj, kv_a_proj_with_mqa and o_proj only.
std::int64_t MlaAttentionParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t qk_head = m.Add(a.qk_nope_head_dim, a.qk_rope_head_dim);
  const std::int64_t q_out = m.Mul(a.num_heads, qk_head);
  const std::int64_t kv_a_out = m.Add(a.kv_lora_rank, a.qk_rope_head_dim);
  std::int64_t params = 0;
  if (a.q_lora_rank > 0) {
    params = m.Add(Mat(m, r, a.q_lora_rank, a.hidden_size), Mat(m, r, q_out, a.q_lora_rank));
    params = m.Add(params, NormParams(a, a.q_lora_rank, m, r));
    if (a.qkv_bias) params = m.Add(params, Vec(m, r, a.q_lora_rank));
  } else {
    params = Mat(m, r, q_out, a.hidden_size);
  }
  params = m.Add(params, Mat(m, r, kv_a_out, a.hidden_size));
  params = m.Add(params, NormParams(a, a.kv_lora_rank, m, r));
  params = m.Add(params, Mat(m, r, m.Mul(a.num_heads, m.Add(a.qk_nope_head_dim, a.v_head_dim)),
                             a.kv_lora_rank));
  params = m.Add(params, Mat(m, r, a.hidden_size, m.Mul(a.num_heads, a.v_head_dim)));
  if (a.qkv_bias) params = m.Add(params, Vec(m, r, kv_a_out));
  if (a.o_bias) params = m.Add(params, Vec(m, r, a.hidden_size));
  // Ling 3.0's head-wise output gate (gated_attention_proj_granularity_type "head_wise"): g_proj,
  // h → one gate per head, no bias.
  if (a.head_gate) params = m.Add(params, Mat(m, r, a.num_heads, a.hidden_size));
  return m.Add(params, IndexerParams(a, m, r));
}

// Gated DeltaNet as in modeling_qwen3_next.py (Qwen3NextGatedDeltaNet), key_dim = nk·dk and
// value_dim = nv·dv: in_proj_qkvz h → 2·key_dim + 2·value_dim; in_proj_ba h → 2·nv; a depthwise
// conv1d over the 2·key_dim + value_dim channels (kernel linear_conv_kernel_dim, no bias);
// dt_bias and A_log (nv each); a gated RMSNorm over dv; out_proj value_dim → h. Qwen3.5 splits
// in_proj into qkv / z / b / a with the same sizes. Qwen3-Next-80B: 33,718,464 per layer.
std::int64_t GatedDeltaNetParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t key_dim = m.Mul(a.linear_num_key_heads, a.linear_key_head_dim);
  const std::int64_t value_dim = m.Mul(a.linear_num_value_heads, a.linear_value_head_dim);
  const std::int64_t conv_dim = m.Add(m.Mul(2, key_dim), value_dim);
  std::int64_t params = Mat(m, r, m.Add(m.Mul(2, key_dim), m.Mul(2, value_dim)), a.hidden_size);
  params = m.Add(params, Mat(m, r, m.Mul(2, a.linear_num_value_heads), a.hidden_size));
  params = m.Add(params, Mat(m, r, conv_dim, a.linear_conv_kernel));
  params = m.Add(params, Vec(m, r, a.linear_num_value_heads, 2));  // dt_bias, A_log
  params = m.Add(params, NormParams(a, a.linear_value_head_dim, m, r));
  return m.Add(params, Mat(m, r, a.hidden_size, value_dim));
}

// Kimi Delta Attention as in Kimi Linear's modeling_kimi.py (KimiDeltaAttention), with H heads
// of width d and D = H·d: q/k/v projections h → D each; a depthwise short conv (kernel
// short_conv_kernel_size, no bias) over each of q, k, v; A_log (H) and dt_bias (D); the
// per-channel forget gate's low-rank pair f_a_proj h → d, f_b_proj d → D; b_proj h → H (beta);
// the output gate's pair g_a_proj h → d, g_b_proj d → D; o_norm (d, a gated RMSNorm shared by
// the heads); o_proj D → h. No biases. Kimi-Linear-48B-A3B (h 2,304, 32 × 128, kernel 4):
// 39,514,272 per layer; with its 7 MLA layers and MoE the total is the published
// 49,122,681,728.
std::int64_t KimiDeltaParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t heads = a.linear_num_value_heads;
  const std::int64_t d = a.linear_value_head_dim;
  const std::int64_t width = m.Mul(heads, d);
  std::int64_t params = Mat(m, r, width, a.hidden_size, 3);           // q, k, v
  params = m.Add(params, Mat(m, r, width, a.linear_conv_kernel, 3));  // short convs
  params = m.Add(params, Vec(m, r, heads));                           // A_log
  params = m.Add(params, Vec(m, r, width));                           // dt_bias
  if (a.kda_full_rank) {
    params = m.Add(params, Mat(m, r, width, a.hidden_size, 2));  // f_proj, g_proj
  } else {
    params = m.Add(params, Mat(m, r, d, a.hidden_size, 2));  // f_a_proj, g_a_proj
    params = m.Add(params, Mat(m, r, width, d, 2));          // f_b_proj, g_b_proj
  }
  params = m.Add(params, Mat(m, r, heads, a.hidden_size));  // b_proj
  params = m.Add(params, NormParams(a, d, m, r));           // o_norm
  return m.Add(params, Mat(m, r, a.hidden_size, width));    // o_proj
}

// MiniMax-01 lightning attention as in modeling_minimax.py (MiniMaxLightningAttention), with
// d = heads·head_dim: qkv_proj h → 3d, output_gate h → d, RMSNorm(d), out_proj d → h, no
// biases. MiniMax-Text-01 (h 6144, 64 × 128): 251,666,432 per layer.
std::int64_t LightningParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t d = m.Mul(a.num_heads, a.head_dim);
  std::int64_t params = Mat(m, r, m.Mul(3, d), a.hidden_size);
  params = m.Add(params, Mat(m, r, d, a.hidden_size));
  params = m.Add(params, NormParams(a, d, m, r));
  // Ring-linear's BailingMoELinearAttention has the same projections (query_key_value, g_proj,
  // g_norm, dense) plus per-head q/k norms with use_qk_norm; MiniMax-01 has none.
  if (a.qk_norm) params = m.Add(params, NormParams(a, a.head_dim, m, r, 2));
  return m.Add(params, Mat(m, r, a.hidden_size, d));
}

// Mamba-2 mixer as in modeling_granitemoehybrid.py (GraniteMoeHybridMambaLayer, the Mamba2Mixer of
// modeling_mamba2.py), with d_inner = heads · head_dim, G groups and state N: in_proj
// h → 2·d_inner + 2·G·N + heads (bias: mamba_proj_bias); a depthwise conv1d over d_inner + 2·G·N
// channels (kernel mamba_d_conv, bias: mamba_conv_bias); dt_bias, A_log and D (heads each); a
// gated RMSNorm over d_inner; out_proj d_inner → h (bias: mamba_proj_bias). Granite 4.0-H Small
// (h 4096, 128 heads × 64, G 1, N 128, kernel 4): 102,286,976 per layer.
std::int64_t Mamba2Params(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t d_inner = m.Mul(a.mamba_heads, a.mamba_head_dim);
  const std::int64_t bc = m.Mul(2, m.Mul(a.mamba_groups, a.mamba_state));
  const std::int64_t in_out = m.Add(m.Add(m.Mul(2, d_inner), bc), a.mamba_heads);
  const std::int64_t conv_dim = m.Add(d_inner, bc);
  std::int64_t params = Mat(m, r, in_out, a.hidden_size);
  params = m.Add(params, Mat(m, r, conv_dim, a.mamba_conv_kernel));
  if (a.mamba_conv_bias) params = m.Add(params, Vec(m, r, conv_dim));
  params = m.Add(params, Vec(m, r, a.mamba_heads, 3));           // dt_bias, A_log, D
  if (a.mamba_norm) params = m.Add(params, Vec(m, r, d_inner));  // gated RMSNorm weight
  params = m.Add(params, Mat(m, r, a.hidden_size, d_inner));
  if (a.mamba_proj_bias) params = m.Add(params, m.Add(Vec(m, r, in_out), Vec(m, r, a.hidden_size)));
  return params;
}

// Zamba2's hybrid layer (modeling_zamba2.py Zamba2HybridLayer): its Mamba-2 mixer, the h × h
// `linear` after the shared block, and its adapters: the MLP's gate_up LoRA h → rank → 2·ffn
// (use_shared_mlp_adapter) and q/k/v LoRAs 2h → rank → 2h (use_shared_attention_adapter). With
// `shared`, also one shared block (Zamba2AttentionDecoderLayer): attention over the 2h-wide
// concatenation of the hidden state and the original embeddings (q, k, v 2h → heads · head_dim,
// o_proj → h, no biases), input_layernorm (2h) and pre_ff_layernorm (h); its gated MLP is the
// block's dense MLP. Zamba2-2.7B: 39,888,240 per Mamba-2 block, 170,401,280 per shared block.
std::int64_t ZambaHybridParams(const ModelArch& a, bool shared, ParamMath& m, Recorder* r) {
  const std::int64_t h = a.hidden_size;
  const std::int64_t wide = m.Mul(2, h);
  std::int64_t params = m.Add(Mamba2Params(a, m, r), Mat(m, r, h, h));
  const std::int64_t rank = a.zamba_adapter_rank;
  if (a.zamba_mlp_adapter && rank > 0) {
    params = m.Add(params, Mat(m, r, rank, h));
    params = m.Add(params, Mat(m, r, m.Mul(2, a.intermediate_size), rank));
  }
  if (a.zamba_attention_adapter && rank > 0) {
    params = m.Add(params, Mat(m, r, rank, wide, 3));
    params = m.Add(params, Mat(m, r, wide, rank, 3));
  }
  if (!shared) return params;
  const std::int64_t q_out = m.Mul(a.num_heads, a.head_dim);
  params = m.Add(params, Mat(m, r, q_out, wide));
  params = m.Add(params, Mat(m, r, m.Mul(a.num_kv_heads, a.head_dim), wide, 2));
  params = m.Add(params, Mat(m, r, h, q_out));
  return m.Add(params, m.Add(NormParams(a, wide, m, r), NormParams(a, h, m, r)));
}

// Mamba-1 mixer as in modeling_mamba.py (MambaMixer) with d_inner D, state N, dt rank R, kernel
// K: in_proj h → 2D (bias: use_bias / mamba_proj_bias), a depthwise conv1d D × K (+ D bias:
// use_conv_bias), x_proj D → R + 2N (no bias), dt_proj R → D with bias, A_log D × N, D (the skip
// weight) D, out_proj D → h (bias as in_proj); Jamba (JambaMambaMixer) adds RMSNorms of R, N, N.
// Falcon-Mamba's b/c/dt norms have no weights. Mamba 2.8B (h 2560, D 5120, N 16, R 160, K 4):
// 41,241,600 per mixer.
std::int64_t Mamba1Params(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t d = a.mamba_inner;
  const std::int64_t n = a.mamba_state;
  std::int64_t params = Mat(m, r, m.Mul(2, d), a.hidden_size);
  params = m.Add(params, Mat(m, r, d, a.mamba_conv_kernel));
  if (a.mamba_conv_bias) params = m.Add(params, Vec(m, r, d));
  params = m.Add(params, Mat(m, r, m.Add(a.mamba_dt_rank, m.Mul(2, n)), d));
  params = m.Add(params, m.Add(Mat(m, r, d, a.mamba_dt_rank), Vec(m, r, d)));
  params = m.Add(params, m.Add(Mat(m, r, d, n), Vec(m, r, d)));  // A_log, D
  params = m.Add(params, Mat(m, r, a.hidden_size, d));
  if (a.mamba_proj_bias)
    params = m.Add(params, m.Add(Vec(m, r, m.Mul(2, d)), Vec(m, r, a.hidden_size)));
  if (a.mamba_inner_norms) {
    params = m.Add(params, m.Add(NormParams(a, a.mamba_dt_rank, m, r), NormParams(a, n, m, r, 2)));
  }
  return params;
}

// LFM2's short convolution as in modeling_lfm2.py (Lfm2ShortConv): in_proj h → 3h, a depthwise
// conv1d over h channels (kernel conv_L_cache), out_proj h → h; biases on all three when
// conv_bias. LFM2-1.2B (h 2,048, kernel 3): 16,783,360 per layer.
std::int64_t ShortConvParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t h = a.hidden_size;
  std::int64_t params = Mat(m, r, m.Mul(3, h), h);
  params = m.Add(params, Mat(m, r, h, a.short_conv_kernel));
  params = m.Add(params, Mat(m, r, h, h));
  if (a.short_conv_bias) params = m.Add(params, Vec(m, r, m.Mul(5, h)));
  return params;
}

// RecurrentGemma's recurrent block (modeling_recurrent_gemma.py RecurrentGemmaRecurrentBlock):
// linear_y and linear_x (h → lru, bias), linear_out (lru → h, bias), a depthwise conv_1d over
// lru channels (conv1d_width taps, bias) and the RG-LRU: recurrent_param (lru) and, per head of
// bw = lru / heads, input and recurrence gate weights (bw × bw) with biases (bw).
// recurrentgemma-2b (h = lru = 2,560, 10 heads, width 4): 20,999,680 per block.
std::int64_t RgLruParams(const ModelArch& a, ParamMath& m, Recorder* r) {
  const std::int64_t h = a.hidden_size, lru = a.rglru_width;
  const std::int64_t heads = std::max<std::int64_t>(1, a.num_heads);
  const std::int64_t bw = lru / heads;
  std::int64_t params = m.Add(Mat(m, r, lru, h, 2), Vec(m, r, lru, 2));  // linear_y, linear_x
  params = m.Add(params, m.Add(Mat(m, r, h, lru), Vec(m, r, h)));        // linear_out
  params = m.Add(params, m.Add(Mat(m, r, lru, a.rglru_conv), Vec(m, r, lru)));  // conv_1d
  params = m.Add(params, Vec(m, r, lru));                                       // recurrent_param
  params = m.Add(params, Mat(m, r, bw, bw, m.Mul(2, heads)));  // input / recurrent gate weights
  params = m.Add(params, Vec(m, r, bw, m.Mul(2, heads)));      // and their biases
  return params;
}

// One MLP of width `width`: gated (gate/up/down, SwiGLU/GeGLU) or plain (up/down, GELU/ReLU²).
// Phi-3's fused gate_up_proj has the same count as separate gate and up projections.
// `model_width` is the width the MLP reads and writes: hidden_size, or a latent MoE's
// moe_latent_size for its routed experts.
std::int64_t MlpParams(const ModelArch& a, std::int64_t width, bool bias, ParamMath& m, Recorder* r,
                       std::int64_t times = 1, std::int64_t model_width = 0) {
  const bool gated = a.mlp == MlpKind::kGated;
  const std::int64_t h = model_width > 0 ? model_width : a.hidden_size;
  std::int64_t params = Mat(m, r, width, h, m.Mul(gated ? 2 : 1, times));
  params = m.Add(params, Mat(m, r, h, width, times));
  if (bias) {
    params = m.Add(params, Vec(m, r, width, m.Mul(gated ? 2 : 1, times)));
    params = m.Add(params, Vec(m, r, h, times));
  }
  return params;
}

// One block. Nemotron-H's blocks (modeling_nemotron_h.py NemotronHBlock: one norm and one
// mixer) hold a token mixer or an MLP, not both: mixer kNone has no mixer, has_mlp false no MLP.
LayerParams BlockParams(const ModelArch& a, MixerKind mixer, bool moe, ParamMath& m,
                        Recorder* r = nullptr, bool has_mlp = true) {
  LayerParams p;
  switch (mixer) {
    case MixerKind::kNone:
      break;
    case MixerKind::kAttention:
      // DeciLM replace_with_linear: one h × h linear (no bias) instead of attention.
      if (a.num_kv_heads == ModelArch::kLinearPart) {
        p.attention = Mat(m, r, a.hidden_size, a.hidden_size);
        break;
      }
      if (a.attention_experts) {
        p.attention = AttentionExpertParams(a, m, r, p.idle_attention);
        break;
      }
      if (a.o_groups > 0) {
        p.attention = DeepseekV4AttentionParams(a, m, r);
        break;
      }
      p.attention = a.attention == AttentionKind::kMla ? MlaAttentionParams(a, m, r)
                                                       : GqaAttentionParams(a, m, r);
      break;
    case MixerKind::kGatedDeltaNet:
      p.attention = GatedDeltaNetParams(a, m, r);
      break;
    case MixerKind::kLightning:
      p.attention = LightningParams(a, m, r);
      break;
    case MixerKind::kKimiDelta:
      p.attention = KimiDeltaParams(a, m, r);
      break;
    case MixerKind::kZambaHybrid:
    case MixerKind::kZambaShared:
      p.attention = ZambaHybridParams(a, mixer == MixerKind::kZambaShared, m, r);
      break;
    case MixerKind::kMamba2:
      p.attention = Mamba2Params(a, m, r);
      break;
    case MixerKind::kMamba1:
      p.attention = Mamba1Params(a, m, r);
      break;
    case MixerKind::kAttentionMamba2:
      p.attention = m.Add(GqaAttentionParams(a, m, r), Mamba2Params(a, m, r));
      break;
    case MixerKind::kShortConv:
      p.attention = ShortConvParams(a, m, r);
      break;
    case MixerKind::kRgLru:
      p.attention = RgLruParams(a, m, r);
      break;
  }
  p.norms = NormParams(a, a.hidden_size, m, r, a.norms_per_layer);
  // DeepSeek-V4: two hyper-connections per block (around attention and around the MoE).
  if (a.hyper_connections > 0) {
    p.norms = m.Add(p.norms, HyperConnectionParams(a, m, r));
    p.norms = m.Add(p.norms, HyperConnectionParams(a, m, r));
  }
  // Gemma 4's layer_scalar, and the per-layer-embedding gate (h → width), projection (width → h)
  // and post_per_layer_input_norm: small and replicated, counted with the norms.
  if (a.layer_scalar) p.norms = m.Add(p.norms, Vec(m, r, 1));
  if (a.per_layer_input_width > 0) {
    p.norms = m.Add(p.norms, Mat(m, r, a.per_layer_input_width, a.hidden_size));
    p.norms = m.Add(p.norms, Mat(m, r, a.hidden_size, a.per_layer_input_width));
    p.norms = m.Add(p.norms, NormParams(a, a.hidden_size, m, r));
  }
  if (a.altup_inputs > 1) {
    const std::int64_t n = a.altup_inputs;
    p.norms = m.Add(p.norms, Vec(m, r, a.hidden_size, 2));  // scale, router_norm
    p.norms = m.Add(p.norms, Mat(m, r, n, n));              // correction_coefs
    p.norms = m.Add(p.norms, Mat(m, r, m.Mul(n, n), n));    // prediction_coefs
    p.norms = m.Add(p.norms, Mat(m, r, n, a.hidden_size));  // modality_router
  }
  if (a.laurel_rank > 0) {
    p.norms = m.Add(p.norms, Mat(m, r, a.laurel_rank, a.hidden_size));  // linear_left
    p.norms = m.Add(p.norms, Mat(m, r, a.hidden_size, a.laurel_rank));  // linear_right
    p.norms = m.Add(p.norms, NormParams(a, a.hidden_size, m, r));       // post_laurel_norm
  }
  // A Zamba2 hybrid layer runs a shared block's MLP but stores none of its own.
  if (!has_mlp || mixer == MixerKind::kZambaHybrid) return p;
  if (!moe) {
    p.dense_mlp = a.intermediate_size == ModelArch::kLinearPart
                      ? Mat(m, r, a.hidden_size, a.hidden_size)
                      : MlpParams(a, a.intermediate_size, a.mlp_bias, m, r);
    return p;
  }
  // Shared experts: DeepSeek/GLM build one MLP n_shared × moe width wide, which has the same
  // count as n_shared experts; Qwen2-MoE / Qwen3-Next add a 1-wide sigmoid gate.
  const std::int64_t shared_width = a.shared_expert_intermediate_size > 0
                                        ? a.shared_expert_intermediate_size
                                        : a.moe_intermediate_size;
  p.dense_mlp = MlpParams(a, shared_width, a.mlp_bias, m, r, a.num_shared_experts);
  if (a.shared_expert_gate) p.dense_mlp = m.Add(p.dense_mlp, Mat(m, r, 1, a.hidden_size));
  // Latent MoE: fc1_latent_proj and fc2_latent_proj (no bias), beside the shared expert.
  if (a.moe_latent_size > 0) {
    p.dense_mlp = m.Add(p.dense_mlp, Mat(m, r, a.moe_latent_size, a.hidden_size));
    p.dense_mlp = m.Add(p.dense_mlp, Mat(m, r, a.hidden_size, a.moe_latent_size));
  }
  // Router: E×h, plus gpt-oss's router bias or DeepSeek/GLM e_score_correction_bias (noaux_tc),
  // both E wide and stored in the checkpoint.
  // LongCat-Flash's router (LongcatFlashTopkRouter) also scores its zero_expert_num identity
  // experts: classifier and e_score_correction_bias are E + zero_experts wide.
  const std::int64_t scored = m.Add(a.num_experts, a.zero_experts);
  p.router = Mat(m, r, scored, a.hidden_size);
  if (a.router_bias) p.router = m.Add(p.router, Vec(m, r, scored));
  if (a.router_scale) p.router = m.Add(p.router, Vec(m, r, a.hidden_size));
  // JetMoeMoE.bias: one h-wide bias added after the experts are combined.
  if (a.attention_experts) p.router = m.Add(p.router, Vec(m, r, a.hidden_size));
  Recorder experts;
  // MTP modules keep their experts in their own group (trained only with training.mtp).
  if (r != nullptr) {
    experts = {r->out, r->group == ParamTensor::kMtp ? ParamTensor::kMtp : ParamTensor::kExpert,
               r->repeat};
  }
  const std::int64_t expert =
      MlpParams(a, a.moe_intermediate_size, a.expert_bias, m, r != nullptr ? &experts : nullptr,
                a.num_experts, a.moe_latent_size);
  p.routed_experts = expert;
  p.active_routed = a.num_experts > 0 ? m.Mul(a.experts_per_token, expert / a.num_experts) : 0;
  if (a.vision_experts > 0) {
    // ERNIE-4.5-VL's vision pool: its router (and correction-bias row) and experts; not active
    // for a text token.
    p.router = m.Add(p.router, Mat(m, r, a.vision_experts, a.hidden_size));
    if (a.router_bias) p.router = m.Add(p.router, Vec(m, r, a.vision_experts));
    p.routed_experts =
        m.Add(p.routed_experts, MlpParams(a, a.vision_expert_width, a.expert_bias, m,
                                          r != nullptr ? &experts : nullptr, a.vision_experts));
  }
  return p;
}

bool LayoutValid(const ModelArch& arch) {
  if (arch.num_layers <= 0 || arch.num_layers > kMaxLayers) return false;
  const auto n = static_cast<std::size_t>(arch.num_layers);
  if (!arch.layer_is_moe.empty() && arch.layer_is_moe.size() != n) return false;
  if (!arch.layer_has_mlp.empty() && arch.layer_has_mlp.size() != n) return false;
  if (!arch.layer_kv_heads.empty() && arch.layer_kv_heads.size() != n) return false;
  if (!arch.layer_mlp_width.empty() && arch.layer_mlp_width.size() != n) return false;
  return arch.layer_mixer.empty() || arch.layer_mixer.size() == n;
}

// MixerKind's values, which index the per-kind tables below: its last member plus one.
constexpr int kMixerKinds = static_cast<int>(MixerKind::kKimiDelta) + 1;

}  // namespace

bool LayerIsMoe(const ModelArch& a, std::int64_t layer) {
  if (a.num_experts == 0) return false;
  if (a.layer_is_moe.empty()) return true;
  return a.layer_is_moe[static_cast<std::size_t>(layer)];
}

// One layer of a heterogeneous model (DeciLM block_configs) seen as a uniform one: its KV heads,
// its MLP width and one norm for each part it has (DeciLMDecoderLayer builds input_layernorm only
// with attention and post_attention_layernorm only with an FFN). `view` is a copy of the model
// whose per-layer lists are cleared.
// Gemma 4's layers likewise: their head width, KV heads, k/v projections and MLP width.
void SetLayerView(const ModelArch& arch, std::int64_t layer, ModelArch& view) {
  view.num_heads = arch.HeadsOf(layer);
  view.num_kv_heads = arch.KvHeadsOf(layer);
  view.intermediate_size = arch.MlpWidthOf(layer);
  view.head_dim = arch.HeadDimOf(layer);
  view.kv_projections = arch.KvProjectionsOf(layer);
  // GLM-5's "shared" indexer layers reuse an earlier layer's top-k choice: no indexer weights.
  view.index_n_heads = arch.SharesIndexer(layer) ? 0 : arch.index_n_heads;
  view.compress_ratio = arch.CompressRatioOf(layer);
  view.attention_sinks = arch.SinksOf(layer);
  if (arch.Heterogeneous()) {
    view.norms_per_layer =
        (arch.MixerOf(layer) != MixerKind::kNone ? 1 : 0) + (arch.HasMlp(layer) ? 1 : 0);
  }
}

ModelArch UniformView(const ModelArch& arch) {
  ModelArch view = arch;
  view.layer_kv_heads.clear();
  view.layer_mlp_width.clear();
  view.tensors.reset();
  return view;
}

std::vector<LayerParams> CountLayerParamsChecked(const ModelArch& arch, ParamMath& math) {
  std::vector<LayerParams> layers;
  if (!LayoutValid(arch)) return layers;
  const auto n = static_cast<std::size_t>(arch.num_layers);
  layers.resize(n);
  if (arch.ShapesVaryByLayer()) {
    // Each distinct (KV heads, MLP width, head width, k/v projections, mixer, MLP?, MoE?) is
    // computed once.
    struct Kind {
      std::int64_t heads, kv, width, head_dim;
      int kv_projections;
      MixerKind mixer;
      bool mlp, moe, shares_indexer, sinks;
      std::int64_t compress_ratio;
      LayerParams params;
    };
    std::vector<Kind> kinds;
    ModelArch view = UniformView(arch);
    for (std::size_t i = 0; i < n; ++i) {
      const auto layer = static_cast<std::int64_t>(i);
      const Kind key{arch.HeadsOf(layer),   arch.KvHeadsOf(layer),       arch.MlpWidthOf(layer),
                     arch.HeadDimOf(layer), arch.KvProjectionsOf(layer), arch.MixerOf(layer),
                     arch.HasMlp(layer),    LayerIsMoe(arch, layer),     arch.SharesIndexer(layer),
                     arch.SinksOf(layer),   arch.CompressRatioOf(layer), {}};
      const Kind* found = nullptr;
      for (const Kind& k : kinds) {
        if (k.heads == key.heads && k.kv == key.kv && k.width == key.width &&
            k.head_dim == key.head_dim && k.kv_projections == key.kv_projections &&
            k.mixer == key.mixer && k.mlp == key.mlp && k.moe == key.moe &&
            k.shares_indexer == key.shares_indexer && k.sinks == key.sinks &&
            k.compress_ratio == key.compress_ratio)
          found = &k;
      }
      if (found == nullptr) {
        SetLayerView(arch, layer, view);
        kinds.push_back(key);
        kinds.back().params = BlockParams(view, key.mixer, key.moe, math, nullptr, key.mlp);
        found = &kinds.back();
      }
      layers[i] = found->params;
    }
    return layers;
  }
  // Blocks repeat: compute each (mixer, MoE) combination once. This runs for every estimate, so
  // the common all-attention case takes the short path.
  if (arch.layer_mixer.empty()) {
    const LayerParams dense = BlockParams(arch, MixerKind::kAttention, false, math);
    const LayerParams moe =
        arch.num_experts > 0 ? BlockParams(arch, MixerKind::kAttention, true, math) : LayerParams{};
    for (std::size_t i = 0; i < n; ++i) {
      layers[i] = LayerIsMoe(arch, static_cast<std::int64_t>(i)) ? moe : dense;
    }
    return layers;
  }
  std::optional<LayerParams> kinds[kMixerKinds][2][2];
  for (std::size_t i = 0; i < n; ++i) {
    const MixerKind mixer = arch.layer_mixer[i];
    const bool moe = LayerIsMoe(arch, static_cast<std::int64_t>(i));
    const bool mlp = arch.HasMlp(static_cast<std::int64_t>(i));
    std::optional<LayerParams>& block = kinds[static_cast<int>(mixer)][moe ? 1 : 0][mlp ? 1 : 0];
    if (!block) block = BlockParams(arch, mixer, moe, math, nullptr, mlp);
    layers[i] = *block;
  }
  return layers;
}

// MTP module (DeepSeek-V3 checkpoint layer 61; Qwen3-Next mtp.*): two norms on the embedding and
// the hidden state, a 2h → h projection (eh_proj / fc, no bias), one softmax-attention decoder
// block (MoE when the model is), a final norm, and — in DeepSeek/GLM checkpoints only — copies
// of embed_tokens and shared_head.head.
// Step-3.5's MTP block is dense (mtp_dense) and, with mtp_sliding, has the sliding layers' query
// heads (layer_types' entries past num_hidden_layers).
// One MTP module's attention + MLP. Where the model's blocks hold one part each (Nemotron-H:
// one norm and a mixer or an MLP), the module's "*E" is two such blocks: two norms.
LayerParams MtpBlockParams(const ModelArch& arch, ParamMath& m, Recorder* r = nullptr) {
  const bool moe = arch.num_experts > 0 && !arch.mtp_dense;
  const bool single_part_blocks = !arch.layer_has_mlp.empty() && arch.norms_per_layer == 1;
  if (arch.MtpHeads() == arch.num_heads && arch.MtpKvHeads() == arch.num_kv_heads &&
      arch.MtpSinks() == arch.attention_sinks && !single_part_blocks)
    return BlockParams(arch, MixerKind::kAttention, moe, m, r);
  ModelArch view = UniformView(arch);
  view.num_heads = arch.MtpHeads();
  view.num_kv_heads = arch.MtpKvHeads();
  view.attention_sinks = arch.MtpSinks();
  if (single_part_blocks) view.norms_per_layer = 2;
  return BlockParams(view, MixerKind::kAttention, moe, m, r);
}

std::int64_t MtpModuleParamsChecked(const ModelArch& arch, bool with_embedding_copies,
                                    ParamMath& m) {
  const LayerParams block = MtpBlockParams(arch, m);
  std::int64_t params = m.Add(block.total(), NormParams(arch, arch.hidden_size, m, nullptr, 3));
  params = m.Add(params, m.Mul(2, arch.hidden_size, arch.hidden_size));
  params = m.Add(params, HyperHeadParams(arch, m, nullptr));  // DeepSeek-V4's MTP has its own
  const std::int64_t table = m.Mul(arch.vocab_size, arch.hidden_size);
  if (with_embedding_copies && arch.mtp_embedding_copies) {
    params = m.Add(params, arch.tie_embeddings ? table : m.Mul(2, table));
  } else if (arch.mtp_head_copy) {
    // Step-3.5's shared_head.output: the module's own head, trained with it (not a copy of
    // lm_head); the embedding is the main one.
    params = m.Add(params, table);
  }
  return params;
}

ParamCounts CountParamsChecked(const ModelArch& arch, bool as_stored, ParamMath& m) {
  return CountParamsOfLayersChecked(arch, CountLayerParamsChecked(arch, m), as_stored, m);
}

// The k_proj / v_proj (one projection where keys serve as values) and k_norm a KV-shared layer
// would have, per layer at its own head count and head_dim.
std::int64_t StoredSharedKvParams(const ModelArch& arch, ParamMath& m) {
  std::int64_t n = 0;
  for (std::int64_t layer = arch.num_layers - arch.kv_shared_layers; layer < arch.num_layers;
       ++layer) {
    const std::int64_t head_dim = arch.HeadDimOf(layer);
    const int projections = arch.attention_k_eq_v && arch.FullAttentionLayer(layer) ? 1 : 2;
    n = m.Add(n, m.Add(m.Mul(projections, m.Mul(arch.hidden_size, arch.KvHeadsOf(layer), head_dim)),
                       head_dim));
  }
  return n;
}

ParamCounts CountParamsOfLayersChecked(const ModelArch& arch,
                                       const std::vector<LayerParams>& layers, bool as_stored,
                                       ParamMath& m) {
  ParamCounts c;
  c.embedding = EmbeddingParams(arch, m, nullptr);
  c.output_head = HeadParams(arch, m, nullptr);
  c.final_norm = arch.final_norm ? NormParams(arch, arch.hidden_size, m) : 0;
  c.final_norm = m.Add(c.final_norm, HyperHeadParams(arch, m, nullptr));  // DeepSeek-V4
  std::int64_t blocks = 0;
  std::int64_t active_routed = 0;
  std::int64_t idle = 0;
  for (const LayerParams& layer : layers) {
    blocks = m.Add(blocks, layer.total());
    c.expert = m.Add(c.expert, layer.routed_experts);
    active_routed = m.Add(active_routed, layer.active_routed);
    idle = m.Add(idle, layer.idle_attention);
  }
  c.total = m.Add(m.Add(c.embedding, c.output_head), m.Add(c.final_norm, blocks));
  if (as_stored && arch.num_mtp_layers > 0) {
    const LayerParams block = MtpBlockParams(arch, m);
    c.mtp = m.Mul(arch.num_mtp_layers, MtpModuleParamsChecked(arch, true, m));
    c.total = m.Add(c.total, c.mtp);
    c.expert = m.Add(c.expert, m.Mul(arch.num_mtp_layers, block.routed_experts));
    active_routed = m.Add(active_routed, m.Mul(arch.num_mtp_layers, block.active_routed));
  }
  // Gemma 4 E2B / E4B: the KV-shared layers build no k_proj / v_proj / k_norm (they read an
  // earlier layer's keys and values), but the checkpoint stores them: google/gemma-4-E2B-it's
  // tensor dump has them for layers 15–34, 18,880,512 parameters, and its published total holds
  // them. In the stored total, never active and never trained.
  if (as_stored && arch.kv_shared_layers > 0) {
    c.stored_unused = StoredSharedKvParams(arch, m);
    c.total = m.Add(c.total, c.stored_unused);
    idle = m.Add(idle, c.stored_unused);
  }
  if (as_stored && arch.vision_params > 0) {
    c.vision = arch.vision_params;
    c.total = m.Add(c.total, c.vision);
  }
  c.dense = c.total - c.expert;
  c.active = m.Add(c.dense - c.vision - idle, active_routed);  // per text token
  return c;
}

std::vector<ParamTensor> ParamTensorsChecked(const ModelArch& arch, ParamMath& m) {
  std::vector<ParamTensor> out;
  if (!LayoutValid(arch)) return out;
  Recorder r{&out, ParamTensor::kEmbedding, 1};
  EmbeddingParams(arch, m, &r);
  r.group = ParamTensor::kHead;
  HeadParams(arch, m, &r);
  r.group = ParamTensor::kFinalNorm;
  if (arch.final_norm) NormParams(arch, arch.hidden_size, m, &r);
  HyperHeadParams(arch, m, &r);
  r.group = ParamTensor::kBlock;
  if (arch.ShapesVaryByLayer()) {
    // Every layer its own sizes (DeciLM, Gemma 4): recorded one by one.
    ModelArch view = UniformView(arch);
    for (std::int64_t i = 0; i < arch.num_layers; ++i) {
      SetLayerView(arch, i, view);
      BlockParams(view, arch.MixerOf(i), LayerIsMoe(arch, i), m, &r, arch.HasMlp(i));
    }
  } else {
    // Blocks repeat: each (mixer, MoE, MLP) kind once, with its layer count as the repeat.
    std::int64_t layers_of[kMixerKinds][2][2] = {};
    for (std::int64_t i = 0; i < arch.num_layers; ++i) {
      ++layers_of[static_cast<int>(arch.MixerOf(i))][LayerIsMoe(arch, i) ? 1 : 0]
                 [arch.HasMlp(i) ? 1 : 0];
    }
    for (int mixer = 0; mixer < kMixerKinds; ++mixer) {
      for (int moe = 0; moe < 2; ++moe) {
        for (int mlp = 0; mlp < 2; ++mlp) {
          r.repeat = layers_of[mixer][moe][mlp];
          if (r.repeat > 0)
            BlockParams(arch, static_cast<MixerKind>(mixer), moe == 1, m, &r, mlp == 1);
        }
      }
    }
  }
  if (arch.num_mtp_layers > 0) {
    // As trained (embedding and head shared): the block, three norms and eh_proj; Step-3.5's
    // own output head.
    r = {&out, ParamTensor::kMtp, arch.num_mtp_layers};
    MtpBlockParams(arch, m, &r);
    NormParams(arch, arch.hidden_size, m, &r, 3);
    Mat(m, &r, arch.hidden_size, m.Mul(2, arch.hidden_size));
    if (arch.mtp_head_copy) Mat(m, &r, arch.vocab_size, arch.hidden_size);
    HyperHeadParams(arch, m, &r);
  }
  return out;
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

ParamCounts CountParams(const ModelArch& arch, bool as_stored) {
  model_detail::ParamMath math;
  return model_detail::CountParamsChecked(arch, as_stored, math);
}

ParamCounts CountParamsOfLayers(const ModelArch& arch, const std::vector<LayerParams>& layers) {
  model_detail::ParamMath math;
  return model_detail::CountParamsOfLayersChecked(arch, layers, false, math);
}

std::vector<ParamTensor> ParamTensors(const ModelArch& arch) {
  if (arch.tensors != nullptr) return *arch.tensors;
  model_detail::ParamMath math;
  return model_detail::ParamTensorsChecked(arch, math);
}

}  // namespace trainmem
