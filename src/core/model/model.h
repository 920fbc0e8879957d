// Model architecture, read from Hugging Face config.json field names, and exact parameter counts.
//
// A user's own config.json is a model: ParseModelArch accepts the HF fields of the families we
// know (Llama/Mistral/Qwen2/Qwen3, Mixtral/Qwen3-MoE, DeepSeek-V2/V3/V3.2, gpt-oss, GLM-4.5,
// Gemma 2/3 text, GPT-2/StarCoder2/Megatron-GPT style non-gated MLPs, GPT-NeoX, Falcon, ChatGLM,
// OPT, GPT-J, MPT, Qwen (v1), StableLM …: model_detail::Family lists them) and derives the rest.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/result.h"

namespace trainmem {

enum class MlpKind { kGated, kPlain };  // SwiGLU/GeGLU (3 matrices) vs GELU/ReLU² (2 matrices)
// RMSNorm: weight; LayerNorm: weight + bias; LayerNorm without bias (Cohere, DBRX, OLMo-1.7).
enum class NormKind { kRmsNorm, kLayerNorm, kLayerNormNoBias };
enum class AttentionKind { kGqa, kMla };  // MHA/MQA/GQA vs DeepSeek multi-head latent attention
// The token mixer of one block. Softmax attention keeps a KV cache and (eager) seq × seq scores;
// the two linear-attention kinds keep neither: they carry a dk × dv state per head instead.
enum class MixerKind {
  kAttention,      // softmax attention (full, sliding or chunked; MLA included)
  kGatedDeltaNet,  // Qwen3-Next / Qwen3.5 linear_attention layers (Yang et al. 2024, Gated
                   // DeltaNet)
  kLightning,      // MiniMax-01 / M1 lightning attention (attn_type_list 0)
  kMamba2,         // Mamba-2 state-space mixer (Granite 4.0-H layer_types "mamba"; Dao & Gu 2024)
  kMamba1,  // Mamba (selective scan; Gu & Dao 2023): Mamba, Falcon-Mamba, Jamba's mamba layers
  kNone,    // no token mixer: an MLP-only block (Nemotron-H's "-" and "E")
  // Softmax attention and a Mamba-2 mixer side by side on the same normed input, their outputs
  // summed (Falcon-H1's FalconH1DecoderLayer, layer type "hybrid").
  kAttentionMamba2,
  // LFM2's gated short convolution (Lfm2ShortConv): in_proj h → 3h (B, C, x), a depthwise conv
  // over B·x, C gating, out_proj h → h (layer type "conv").
  kShortConv,
  // Zamba2 hybrid layers (layers_block_type "hybrid"): a Mamba-2 block that also runs a shared
  // transformer block through its own adapters and an h × h linear. kZambaShared is a hybrid
  // layer that holds one of the num_mem_blocks shared blocks' weights (the first ones); later
  // hybrid layers (kZambaHybrid) reuse them.
  kZambaHybrid,
  kZambaShared,
  // Kimi Delta Attention (Kimi Linear's kda_layers; KimiDeltaAttention in modeling_kimi.py):
  // Gated DeltaNet with a per-channel forget gate and a low-rank output gate; its sizes are the
  // linear_* fields (key and value heads alike).
  // RecurrentGemma's recurrent block (Griffin, De et al. 2024; RecurrentGemmaRecurrentBlock):
  // linear_y and linear_x h → lru_width, a depthwise conv1d over the x branch, the RG-LRU
  // (per-head block-diagonal input and recurrence gates), linear_out back to h; all with biases.
  kRgLru,
  kKimiDelta,  // keep last: model.cpp's kMixerKinds counts up to it
};

// One parameter tensor shape of the model, with how many times it occurs; what optimizers that
// keep per-matrix state (Adafactor, Muon, Shampoo, SOAP, 8-bit blockwise) need. cols == 0 means
// a 1-D tensor (norm weight, bias). Routed experts are listed per expert (E matrices per block).
struct ParamTensor {
  enum Group : std::uint8_t { kBlock, kExpert, kEmbedding, kHead, kFinalNorm, kMtp };
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t count = 0;
  Group group = kBlock;
  std::int64_t elements() const { return rows * (cols > 0 ? cols : 1) * count; }
};

struct ModelArch {
  std::string model_type;  // HF "model_type", e.g. "llama", "deepseek_v3"

  std::int64_t hidden_size = 0;
  std::int64_t num_layers = 0;         // num_hidden_layers (main model, MTP excluded)
  std::int64_t num_heads = 0;          // num_attention_heads
  std::int64_t num_kv_heads = 0;       // num_key_value_heads (defaults to num_heads)
  std::int64_t head_dim = 0;           // head_dim (defaults to hidden_size / num_heads);
                                       // MLA: qk_nope_head_dim + qk_rope_head_dim
  std::int64_t intermediate_size = 0;  // dense MLP width
  std::int64_t vocab_size = 0;
  bool tie_embeddings = false;
  std::int64_t max_position_embeddings = 0;
  bool learned_positions = false;    // GPT-2 / Megatron GPT absolute position table
  std::int64_t position_offset = 0;  // extra rows of that table (OPT: max_position_embeddings + 2)
  // OPT's word_embed_proj_dim when it differs from hidden_size (OPT-350m): the token table and
  // the head are this wide, with project_in / project_out (no bias) to and from hidden_size.
  std::int64_t word_embedding_dim = 0;
  bool final_norm = true;       // OPT with do_layer_norm_before = false has no final LayerNorm
  bool head_bias = false;       // GPT-J's lm_head is an nn.Linear with bias (vocab_size values)
  bool embedding_norm = false;  // BLOOM's word_embeddings_layernorm (LayerNorm after the table)

  AttentionKind attention = AttentionKind::kGqa;
  bool qkv_bias = false;
  bool o_bias = false;
  bool qk_norm = false;  // Qwen3 / Gemma 3 per-head q_norm, k_norm
  bool qk_norm_full =
      false;  // the q/k norms span all heads (heads·head_dim; kv_heads·head_dim):
              // OLMo 2, MiniMax-M2 qk_norm_type "per_layer", Cohere per-head weights
  bool attention_output_gate = false;  // Qwen3-Next gated attention: q_proj also emits a gate
  bool attention_sinks = false;        // gpt-oss: one learned logit per head
  // gpt-oss's experts: interleaved gate/up rows, both clamped to ±swiglu_limit, then
  // gate·σ(1.702·gate)·(up + 1) (transformers GptOssExperts, torchtitan gpt_oss moe.py swiglu):
  // more element-wise steps than SiLU(gate)·up, each keeping its input for backward in eager.
  bool clamped_swiglu = false;
  // final_logit_softcapping (Gemma 2): logits = cap · tanh(logits / cap) before the loss; 0 = none.
  double final_logit_softcapping = 0;
  // ALiBi position biases instead of RoPE or a table (BLOOM; position_embedding_type "alibi",
  // Megatron/MindSpeed --position-embedding-type alibi): no parameters; MindSpeed-LLM's flash
  // attention takes them as a per-head s × s bias tensor (estimate_activations.cpp).
  bool alibi = false;
  std::int64_t sliding_window = 0;       // 0 = none
  std::vector<bool> layer_uses_sliding;  // per layer; empty = no sliding layers

  MlpKind mlp = MlpKind::kGated;
  bool mlp_bias = false;
  std::string hidden_act = "silu";
  NormKind norm = NormKind::kRmsNorm;
  int norms_per_layer = 2;  // Gemma 2/3 have 4 (pre/post attention and MLP)

  // MoE. num_experts == 0 means dense.
  std::int64_t num_experts = 0;
  std::int64_t experts_per_token = 0;  // top-k
  std::int64_t moe_intermediate_size = 0;
  std::int64_t num_shared_experts = 0;
  std::int64_t shared_expert_intermediate_size = 0;  // per shared expert; defaults to moe width
  std::vector<bool> layer_is_moe;                    // per layer (from first_k_dense_replace,
                                   // decoder_sparse_step, mlp_only_layers, moe_layer_freq)
  bool router_bias = false;         // gpt-oss router bias, DeepSeek e_score_correction_bias
  bool expert_bias = false;         // gpt-oss expert biases
  bool shared_expert_gate = false;  // Qwen2-MoE: sigmoid gate (hidden → 1) on the shared expert

  // MLA (DeepSeek). q_lora_rank == 0 means a plain q_proj.
  std::int64_t q_lora_rank = 0;
  std::int64_t kv_lora_rank = 0;
  std::int64_t qk_nope_head_dim = 0;
  std::int64_t qk_rope_head_dim = 0;
  std::int64_t v_head_dim = 0;

  // DeepSeek-V3.2 lightning indexer (0 = none).
  std::int64_t index_n_heads = 0;
  std::int64_t index_head_dim = 0;
  std::int64_t index_topk = 0;

  std::int64_t num_mtp_layers = 0;   // num_nextn_predict_layers: described, trained only on request
  bool mtp_embedding_copies = true;  // the checkpoint stores embed + head per MTP module (DeepSeek,
                                     // GLM); Qwen3-Next's mtp.* has no copies
  // Step-3.5 (modeling_step3p5.py, vLLM step3p5_mtp.py): each MTP module has its own output head
  // (shared_head.output) but reads the main embedding; its block has a dense MLP
  // (intermediate_size) and, with mtp_sliding, sliding-window attention (sliding_heads).
  bool mtp_head_copy = false;
  bool mtp_dense = false;
  bool mtp_sliding = false;

  // Per-layer token mixer (layer_types "linear_attention", attn_type_list 0,
  // full_attention_interval). Empty = softmax attention in every layer.
  std::vector<MixerKind> layer_mixer;
  // Per-layer: whether the block has an MLP (dense or MoE). Empty = every block has one.
  // Nemotron-H's mixer-only blocks ("M", "*" in hybrid_override_pattern) have none.
  std::vector<bool> layer_has_mlp;
  // Gated DeltaNet sizes (Qwen3-Next linear_* fields).
  std::int64_t linear_num_key_heads = 0;
  std::int64_t linear_num_value_heads = 0;
  std::int64_t linear_key_head_dim = 0;
  std::int64_t linear_value_head_dim = 0;
  std::int64_t linear_conv_kernel = 0;
  // Mamba-2 sizes (GraniteMoeHybridConfig mamba_* fields): d_inner = mamba_heads · head_dim.
  std::int64_t mamba_heads = 0;
  std::int64_t mamba_head_dim = 0;
  std::int64_t mamba_groups = 0;
  std::int64_t mamba_state = 0;
  std::int64_t mamba_conv_kernel = 0;
  // The SSD scan's chunk length (Mamba2Config chunk_size, Megatron --mamba-chunk-size): no
  // weights; the chunked scan's Q × Q matrices are as wide (estimate_activations.cpp).
  std::int64_t mamba_chunk = 256;
  bool mamba_conv_bias = true;
  bool mamba_proj_bias = false;
  // Mamba-1 sizes (MambaConfig intermediate_size / time_step_rank; JambaConfig mamba_expand /
  // mamba_dt_rank); mamba_state and mamba_conv_kernel above are shared. Jamba's mixer adds
  // RMSNorms over dt, B and C (mamba_inner_norms).
  std::int64_t mamba_inner = 0;
  std::int64_t mamba_dt_rank = 0;
  bool mamba_inner_norms = false;
  // The Mamba-2 mixer's gated RMSNorm over d_inner (Falcon-H1 builds it only with
  // mamba_rms_norm; Granite, Bamba and Nemotron-H always).
  bool mamba_norm = true;
  // Heterogeneous blocks (DeciLM / Nemotron-NAS block_configs): each layer's KV heads and MLP
  // width. Empty = num_kv_heads / intermediate_size in every layer. A no-op attention is
  // MixerKind::kNone, a no-op MLP layer_has_mlp false; kLinearPart marks a part replaced by one
  // h × h linear (replace_with_linear).
  static constexpr std::int64_t kLinearPart = -1;
  std::vector<std::int64_t> layer_kv_heads;
  std::vector<std::int64_t> layer_mlp_width;
  // Gemma 4 (Gemma4TextConfig, modeling_gemma4.py): full-attention layers (layer_uses_sliding
  // false) are global_head_dim wide and, with attention_k_eq_v, have num_global_key_value_heads
  // KV heads and no v_proj (keys serve as values); the last kv_shared_layers layers reuse an
  // earlier layer's keys and values (no k_proj, v_proj or k_norm) and, with double_wide_mlp,
  // have MLPs twice intermediate_size wide. 0 / false: every layer alike.
  std::int64_t global_head_dim = 0;
  std::int64_t global_kv_heads = 0;
  // Step-3.5 (attention_other_setting): query heads of the sliding-window layers when they differ
  // from num_attention_heads (0 = the same). use_head_wise_attn_gate: g_proj, h → one gate per
  // query head, no bias (output = attention · sigmoid(g) per head).
  std::int64_t sliding_heads = 0;
  bool head_gate = false;
  // MiMo-V2-Flash (modeling_mimo_v2_flash.py MiMoV2FlashAttention): values narrower than queries
  // and keys (v_proj kv_heads · value_head_dim, o_proj heads · value_head_dim; 0 = head_dim),
  // sliding-window layers with their own KV head count (0 = num_kv_heads) and attention sinks on
  // the sliding-window layers only (sinks_sliding_only, with attention_sinks).
  std::int64_t value_head_dim = 0;
  std::int64_t sliding_kv_heads = 0;
  bool sinks_sliding_only = false;
  // Step3's multi-matrix factorization attention (modeling_step3.py Step3vAttention, share_q_dim):
  // the query goes h → query_rank (q_proj), an RMSNorm (inter_norm), query_rank → heads · head_dim
  // (wq). 0 = one q_proj h → heads · head_dim.
  std::int64_t query_rank = 0;
  bool attention_k_eq_v = false;
  std::int64_t kv_shared_layers = 0;
  bool double_wide_mlp = false;
  // Per-layer embeddings (Gemma 3n / Gemma 4 E2B, E4B: hidden_size_per_layer_input): a second
  // token table of per_layer_input_vocab rows, num_layers · per_layer_input_width wide, with a
  // projection h → num_layers · width and its norm (width); in each block a gate h → width, a
  // projection width → h and a norm (h). 0 = none.
  std::int64_t per_layer_input_width = 0;
  std::int64_t per_layer_input_vocab = 0;
  bool layer_scalar = false;  // Gemma 4: one learned residual scale per block
  bool router_scale = false;  // Gemma 4 MoE: an h-wide scale on the router's input
  // Gemma 3n (Gemma3nTextConfig): AltUp with altup_num_inputs streams n (per block
  // correct_output_scale h, correction_coefs n², prediction_coefs n³, modality_router h·n and
  // router_norm h; altup_projections and altup_unembed_projections, (n − 1) h × h each, at the
  // ends) and LAuReL of laurel_rank r (per block left h·r, right r·h, post_laurel_norm h).
  // 0 = none.
  std::int64_t altup_inputs = 0;
  std::int64_t laurel_rank = 0;
  // Zamba2 (Zamba2Config): num_mem_blocks shared transformer blocks and, per hybrid layer, LoRA
  // adapters of adapter_rank on the shared MLP's gate_up (use_shared_mlp_adapter) and on its
  // q/k/v (use_shared_attention_adapter).
  std::int64_t zamba_mem_blocks = 0;
  std::int64_t zamba_adapter_rank = 0;
  bool zamba_mlp_adapter = false;
  bool zamba_attention_adapter = false;
  // How many of k_proj and v_proj a layer has (2; 1 for Gemma 4's attention_k_eq_v full layers;
  // 0 for its KV-shared layers and for cross-layer-attention layers). Set only on the per-layer
  // views the counter builds.
  int kv_projections = 2;
  // Cross-layer attention (Hunyuan-Large's use_cla, cla_share_factor n): only layers i with
  // i % n == 0 own k_proj and v_proj; the others attend with the keys and values of the layer
  // before them but keep their key_layernorm. 0 or 1 = every layer owns its own.
  std::int64_t cla_share_factor = 0;
  // JetMoE's mixture of attention heads (JetMoeMoA, modeling_jetmoe.py): num_experts query/output
  // expert pairs (h → head_dim · kv_heads and back, top experts_per_token per token), a shared
  // kv_proj (h → 2 · head_dim · kv_heads), an h-wide output bias and an E × h router; its MoE MLP
  // also adds an h-wide output bias after the experts. False = ordinary attention.
  bool attention_experts = false;
  // DeepSeek-V3.2-style indexers a layer shares with an earlier layer instead of owning one
  // (GLM-5's indexer_types "shared"): per layer, true = no indexer weights. Empty = each owns one.
  std::vector<bool> layer_shares_indexer;
  // LongCat-Flash's zero-computation (identity) experts: rows of the router and of its
  // e_score_correction_bias beside the routed experts, with no weights of their own.
  std::int64_t zero_experts = 0;
  // Latent MoE (Nemotron-3-Super's moe_latent_size; NemotronHMoE in modeling_nemotron_h.py): the
  // routed experts read and write this width instead of hidden_size, behind fc1_latent_proj
  // (h → latent) and fc2_latent_proj (latent → h); the shared expert stays h wide. 0 = none.
  std::int64_t moe_latent_size = 0;
  // ERNIE-4.5-VL's modality-isolated experts (modeling_ernie4_5_vl_moe.py
  // Ernie4_5_VLMoeMoeBlock: moe_num_experts and moe_intermediate_size as [text, vision] lists):
  // beside the text pool (num_experts × moe_intermediate_size) each MoE layer holds a vision pool
  // of vision_experts experts vision_expert_width wide with its own router (and correction-bias
  // row). A text token routes to text experts only, so `active` leaves the vision pool out.
  // 0 = none.
  std::int64_t vision_experts = 0;
  std::int64_t vision_expert_width = 0;
  // Kimi Delta Attention with full-rank forget and output gates (Ling 3.0's no_kda_lora):
  // f_proj and g_proj heads·head_dim × h instead of the rank-head_dim pairs.
  bool kda_full_rank = false;
  // DeepSeek-V4 (DeepseekV4Config; modular_deepseek_v4.py DeepseekV4Attention): queries through
  // q_lora_rank (q_a_proj, q_norm, q_b_proj), one shared key = value head (kv_proj h → head_dim,
  // kv_norm), a grouped low-rank output (o_a_proj: o_groups groups of heads·head_dim / o_groups →
  // o_lora_rank; o_b_proj o_groups·o_lora_rank → h) and one sink per head; beside it a KV
  // compressor by the layer's compress_ratios entry (4: CSA with its lightning indexer of
  // index_n_heads × index_head_dim; another ratio: HCA; 0: sliding window only). Manifold
  // hyper-connections (hc_mult streams): two DeepseekV4HyperConnection per block, one
  // DeepseekV4HyperHead before the final norm. 0 / empty: none of these.
  std::int64_t o_groups = 0;
  std::int64_t o_lora_rank = 0;
  std::int64_t hyper_connections = 0;
  std::vector<std::int64_t> layer_compress_ratio;
  std::int64_t compress_ratio = 0;  // set only on the per-layer views the counter builds
  // LFM2 short convolution: kernel (conv_L_cache) and whether its linears and conv have biases.
  std::int64_t short_conv_kernel = 0;
  bool short_conv_bias = false;
  // RecurrentGemma's recurrent blocks (MixerKind::kRgLru): lru_width and conv1d_width; the gates
  // are num_attention_heads blocks of lru_width / heads.
  std::int64_t rglru_width = 0;
  std::int64_t rglru_conv = 0;

  // A multimodal checkpoint's vision tower and projector as the checkpoint stores them (counted
  // from vision_config by ParseModelArch; trainmem's own key "vision_params" carries it through
  // ModelArchToJson). In CountParams' checkpoint total; what the job does with it (not loaded,
  // frozen, trained) is training.vision_tower. 0 = none, or a tower trainmem does not count.
  std::int64_t vision_params = 0;

  // What ParseModelArch assumed or left out, in words for the user (unknown model_type, vision
  // tower not counted, linear attention approximations). Not written back by ModelArchToJson.
  std::vector<std::string> warnings;
  // Every parameter tensor shape, derived once by ParseModelArch (ParamTensors) so optimizers
  // with per-matrix state need no per-estimate work. Null for a hand-built ModelArch.
  std::shared_ptr<const std::vector<ParamTensor>> tensors;

  bool Heterogeneous() const { return !layer_kv_heads.empty() || !layer_mlp_width.empty(); }
  // Whether layers differ in attention or MLP shape (DeciLM block_configs, Gemma 4's global and
  // KV-shared layers).
  bool ShapesVaryByLayer() const {
    return Heterogeneous() || global_head_dim > 0 || kv_shared_layers > 0 || sliding_heads > 0 ||
           sliding_kv_heads > 0 || sinks_sliding_only || cla_share_factor > 1 ||
           !layer_shares_indexer.empty() || !layer_compress_ratio.empty();
  }
  std::int64_t CompressRatioOf(std::int64_t layer) const {
    if (layer < 0 || static_cast<std::size_t>(layer) >= layer_compress_ratio.size()) return 0;
    return layer_compress_ratio[static_cast<std::size_t>(layer)];
  }
  bool FullAttentionLayer(std::int64_t layer) const {
    return layer_uses_sliding.empty() || layer < 0 ||
           static_cast<std::size_t>(layer) >= layer_uses_sliding.size() ||
           !layer_uses_sliding[static_cast<std::size_t>(layer)];
  }
  bool KvSharedLayer(std::int64_t layer) const {
    return kv_shared_layers > 0 && layer >= num_layers - kv_shared_layers;
  }
  std::int64_t KvHeadsOf(std::int64_t layer) const {
    if (layer < 0 || static_cast<std::size_t>(layer) >= layer_kv_heads.size()) {
      if (attention_k_eq_v && global_kv_heads > 0 && FullAttentionLayer(layer))
        return global_kv_heads;
      if (sliding_kv_heads > 0 && !FullAttentionLayer(layer)) return sliding_kv_heads;
      return num_kv_heads;
    }
    return layer_kv_heads[static_cast<std::size_t>(layer)];
  }
  std::int64_t HeadsOf(std::int64_t layer) const {
    return sliding_heads > 0 && !FullAttentionLayer(layer) ? sliding_heads : num_heads;
  }
  // The MTP blocks' query heads (Step-3.5's are sliding-window layers: mtp_sliding).
  std::int64_t MtpHeads() const {
    return mtp_sliding && sliding_heads > 0 ? sliding_heads : num_heads;
  }
  std::int64_t MtpKvHeads() const {
    return mtp_sliding && sliding_kv_heads > 0 ? sliding_kv_heads : num_kv_heads;
  }
  bool SinksOf(std::int64_t layer) const {
    return attention_sinks && (!sinks_sliding_only || !FullAttentionLayer(layer));
  }
  bool MtpSinks() const { return attention_sinks && (!sinks_sliding_only || mtp_sliding); }
  std::int64_t HeadDimOf(std::int64_t layer) const {
    return global_head_dim > 0 && FullAttentionLayer(layer) ? global_head_dim : head_dim;
  }
  int KvProjectionsOf(std::int64_t layer) const {
    if (KvSharedLayer(layer)) return 0;
    if (cla_share_factor > 1 && layer % cla_share_factor != 0) return 0;
    return attention_k_eq_v && FullAttentionLayer(layer) ? 1 : 2;
  }
  bool SharesIndexer(std::int64_t layer) const {
    return layer >= 0 && static_cast<std::size_t>(layer) < layer_shares_indexer.size() &&
           layer_shares_indexer[static_cast<std::size_t>(layer)];
  }
  std::int64_t MlpWidthOf(std::int64_t layer) const {
    if (layer < 0 || static_cast<std::size_t>(layer) >= layer_mlp_width.size())
      return double_wide_mlp && KvSharedLayer(layer) ? 2 * intermediate_size : intermediate_size;
    return layer_mlp_width[static_cast<std::size_t>(layer)];
  }
  bool HasMlp(std::int64_t layer) const {
    if (layer < 0 || static_cast<std::size_t>(layer) >= layer_has_mlp.size()) return true;
    return layer_has_mlp[static_cast<std::size_t>(layer)];
  }
  // Whether any block has softmax attention (a Mamba or Falcon-Mamba model has none: its
  // attention-head count means nothing).
  // The channels tensor parallelism splits in a Mamba mixer (d_inner).
  std::int64_t MambaChannels() const {
    return mamba_inner > 0 ? mamba_inner : mamba_heads * mamba_head_dim;
  }
  bool HasAttentionLayers() const {
    for (std::int64_t i = 0; i < num_layers; ++i) {
      const MixerKind m = MixerOf(i);
      if (m == MixerKind::kAttention || m == MixerKind::kAttentionMamba2 ||
          m == MixerKind::kZambaHybrid || m == MixerKind::kZambaShared)
        return true;
    }
    return num_layers == 0;
  }
  MixerKind MixerOf(std::int64_t layer) const {
    if (layer < 0 || static_cast<std::size_t>(layer) >= layer_mixer.size())
      return MixerKind::kAttention;
    return layer_mixer[static_cast<std::size_t>(layer)];
  }
};

// Parameters of one transformer block, split the way parallelism shards them.
struct LayerParams {
  std::int64_t attention =
      0;                   // q/k/v/o (or MLA projections), their biases, qk norms, sinks, indexer
  std::int64_t norms = 0;  // the block's norms (replicated under TP)
  std::int64_t dense_mlp = 0;       // dense MLP, or the shared experts of an MoE block
  std::int64_t router = 0;          // gate weight (+ bias)
  std::int64_t routed_experts = 0;  // all routed experts of this block (EP-sharded)
  std::int64_t active_routed = 0;   // experts_per_token experts' worth
  // Attention weights a token does not use (JetMoE: the attention experts it is not routed to);
  // part of `attention`, left out of the active count.
  std::int64_t idle_attention = 0;

  std::int64_t dense() const { return attention + norms + dense_mlp + router; }
  std::int64_t total() const { return dense() + routed_experts; }
};

struct ParamCounts {
  std::int64_t total = 0;  // everything described (MTP included when counted)
  std::int64_t active =
      0;                   // per token: dense + top-k routed experts (embeddings and head included)
  std::int64_t dense = 0;  // total - expert
  std::int64_t expert = 0;       // routed experts only (shared experts are dense)
  std::int64_t embedding = 0;    // input embedding (+ learned positions)
  std::int64_t output_head = 0;  // lm head (0 when tied)
  std::int64_t final_norm = 0;
  std::int64_t mtp = 0;     // MTP modules, included in total only when counted
  std::int64_t vision = 0;  // vision tower + projector, included in total when as stored
  // weights the checkpoint stores that the model does not build (Gemma 4's KV-shared layers'
  // k/v), included in total when as stored, never active
  std::int64_t stored_unused = 0;
};

// Reads HF config.json fields. `path` prefixes error paths (e.g. "model").
// Unknown HF fields are ignored (config.json files carry many); missing required ones are errors.
// model_type picks the family defaults (biases, norms, tie, MLP shape); unknown model types are
// read as Llama-like decoders. A config with only a text_config object (multimodal checkpoints)
// is read from there. Besides HF names (and GPT-2's n_embd/n_layer/n_head/n_positions/n_inner)
// it reads Megatron's "position_embedding_type" ("learned_absolute" | "rope" | "alibi" | "none";
// default rope, learned for gpt2) and trainmem's own override keys, which ModelArchToJson writes
// when an architecture differs from its model_type's defaults: "qkv_bias", "o_bias", "qk_norm",
// "attention_sinks", "mlp_bias", "router_bias", "expert_bias", "shared_expert_gate",
// "norms_per_layer", "mlp_kind" ("gated" | "plain"), "norm_kind" ("rmsnorm" | "layernorm").
// Sizes are bounded (hidden/intermediate/head widths 1e6, vocab 1e8, layers 1e4, heads and
// experts 1e5) and a count that would overflow int64 is an error, so Count* never overflow.
Result<ModelArch> ParseModelArch(const nlohmann::json& hf_config, const std::string& path);

// The vision tower and projector a multimodal config describes: its model_type and
// vision_config (and the top-level fields its projector reads), with the language model
// text_hidden wide. 0 when trainmem does not count that tower or cannot read a field
// (ParseModelArch says which in a note).
std::int64_t CountVisionParams(const nlohmann::json& multimodal_config, std::int64_t text_hidden);

// The inverse of ParseModelArch: HF field names, enough to parse back to an equal ModelArch.
nlohmann::json ModelArchToJson(const ModelArch& arch);

// Per-block parameters, index = layer.
std::vector<LayerParams> CountLayerParams(const ModelArch& arch);

// One MTP module's parameters (DeepSeek-V3: enorm, hnorm, eh_proj, one block). In training the
// embedding and output head are shared with the main model; the HF checkpoint stores copies of
// both per module (with_embedding_copies = true reproduces the hub total).
std::int64_t MtpModuleParams(const ModelArch& arch, bool with_embedding_copies);

// Exact counts. as_stored: the whole checkpoint, as `trainmem params` reports it for a
// config.json: num_mtp_layers MTP modules with their embedding copies and the vision tower
// (vision_params; not in `active`). false: the main language model the estimator trains.
ParamCounts CountParams(const ModelArch& arch, bool as_stored);
// CountParams(arch, false) from the blocks' counts CountLayerParams(arch) gave (the estimator
// needs both: the blocks are counted once).
ParamCounts CountParamsOfLayers(const ModelArch& arch, const std::vector<LayerParams>& layers);

// Every parameter tensor of the main model (MTP modules as they are trained: no embedding
// copies), grouped; the elements add up to CountParams(arch, false).total plus the trained MTP
// modules (group kMtp). Uses arch.tensors when ParseModelArch filled it.
std::vector<ParamTensor> ParamTensors(const ModelArch& arch);

}  // namespace trainmem
