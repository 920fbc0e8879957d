// model_type and architecture names → Family (ParseModelArch's first key; model_detail.h).
// Every model_type trainmem reads by name, and the `architectures` class names that stand for one
// when a config.json carries an unknown model_type.
#include <string>
#include <string_view>

#include "core/model/model_detail.h"

namespace trainmem {
namespace model_detail {

namespace {

struct NamedFamily {
  const char* model_type;
  Family family;
};

constexpr NamedFamily kFamilies[] = {
    {"llama", Family::kLlama},
    {"mistral", Family::kLlama},
    // Ministral (MinistralConfig: Mistral blocks with layer_types) and Ministral 3
    // (Ministral3Config, the text_config of Ministral 3 and the model_type of Devstral 2): Mistral
    // blocks; YaRN and llama_4_scaling_beta scale activations only (modeling_ministral3.py).
    {"ministral", Family::kLlama},
    {"ministral3", Family::kLlama},
    {"phi3", Family::kLlama},  // fused qkv_proj / gate_up_proj: the same count as split ones
    // Phi-3 / 3.5-vision: Phi-3's language model; its CLIP tower (img_processor, embd_layer) is
    // counted by model_vision.cpp.
    {"phi3_v", Family::kLlama},
    // GraniteConfig: Llama blocks; its embedding/attention/residual multipliers and
    // logits_scaling scale activations and hold no parameters (modeling_granite.py).
    {"granite", Family::kLlama},
    // SmolLM3: Llama blocks; no_rope_layers only switches RoPE off (modeling_smollm3.py).
    {"smollm3", Family::kLlama},
    // Seed-OSS: Llama blocks with q/k/v biases (attention_bias) and none on o_proj
    // (attention_out_bias), as its config.json says.
    {"seed_oss", Family::kLlama},
    // Granite 4.0 (-H): Llama-style attention (no RoPE: no parameters), "mamba" layers
    // (ReadLayerKinds), Mixtral-style experts as wide as intermediate_size plus a shared MLP
    // shared_intermediate_size wide (modeling_granitemoehybrid.py).
    {"granitemoehybrid", Family::kLlama},
    // Granite 3.x MoE (GraniteMoeConfig) and its shared-expert variant: Mixtral-style experts
    // as wide as intermediate_size, plus shared_intermediate_size for the shared MLP.
    {"granitemoe", Family::kLlama},
    {"granitemoeshared", Family::kLlama},
    // InternLM 2 / 2.5 / 3 (remote code): Llama blocks; InternLM 2's fused wqkv holds the same
    // q/k/v rows.
    {"internlm", Family::kLlama},
    {"internlm2", Family::kLlama},
    {"internlm3", Family::kLlama},
    // MiniCPM 1/2/4 (remote configuration_minicpm.py): Llama blocks; scale_emb, dim_model_base
    // and scale_depth scale activations and hold no parameters. Tied unless told (DefaultTie).
    {"minicpm", Family::kLlama},
    // OLMo (OlmoConfig, modeling_olmo.py): Llama blocks whose LayerNorms have no parameters
    // (OlmoLayerNorm is F.layer_norm without weight or bias; ReadNormKind).
    {"olmo", Family::kLlama},
    // Helium (HeliumConfig): Llama blocks.
    {"helium", Family::kLlama},
    // Aria's language model (AriaTextConfig, modular_aria.py): Llama attention; every layer
    // routes to experts as wide as intermediate_size, beside moe_num_shared_experts (default
    // 2) shared ones of that width (ReadSharedExperts).
    {"aria_text", Family::kLlama},
    // RecurrentGemma (Griffin): recurrent RG-LRU blocks and local attention in a repeating
    // pattern (ReadRecurrentGemma); MLPs intermediate_size / 2 wide with biases, o_proj with a
    // bias, Gemma's tied embedding.
    {"recurrent_gemma", Family::kLlama},
    {"qwen2", Family::kQwen2},
    {"qwen3", Family::kQwen3},
    {"mixtral", Family::kMixtral},
    // Phi-3.5-MoE: Mixtral's routed experts, LayerNorms with bias (ReadNormKind).
    {"phimoe", Family::kMixtral},
    {"qwen2_moe", Family::kQwenMoe},
    {"qwen3_moe", Family::kQwenMoe},
    // DeepSeekMoE 16B (remote-code DeepseekForCausalLM): MHA attention, the DeepSeek MoE layout.
    {"deepseek", Family::kDeepSeek},
    {"deepseek_v2", Family::kDeepSeek},
    {"deepseek_v3", Family::kDeepSeek},
    {"deepseek_v32", Family::kDeepSeek},
    // DeepSeek-V4 (ModelArch::o_groups): its MoE is DeepSeek-V3's (n_routed_experts,
    // e_score_correction_bias), its attention its own. sgl-project's V4 FP8 configs call it
    // deepseek_ref.
    {"deepseek_v4", Family::kDeepSeek},
    {"deepseek_ref", Family::kDeepSeek},
    {"glm4_moe", Family::kGlmMoe},
    // GLM-4.7-Flash: GLM-4.5's MoE (first dense block, e_score_correction_bias) with MLA
    // attention, read by its kv_lora_rank / q_lora_rank fields.
    {"glm4_moe_lite", Family::kGlmMoe},
    // GLM-5 (glm_moe_dsa): GLM-4.5's MoE with MLA and DeepSeek-V3.2's sparse-attention indexer,
    // read by the same fields (kv_lora_rank, index_n_heads / index_head_dim).
    {"glm_moe_dsa", Family::kGlmMoe},
    {"gpt_oss", Family::kGptOss},
    {"gemma", Family::kGemma2},
    {"gemma2", Family::kGemma2},
    {"gemma3", Family::kGemma3},
    {"gemma3_text", Family::kGemma3},
    // Gemma 3n (Gemma3nTextConfig): Gemma 3's blocks plus AltUp, LAuReL and per-layer
    // embeddings (ReadGemma3nAnd4); its KV-shared layers keep their k/v weights.
    {"gemma3n", Family::kGemma3},
    {"gemma3n_text", Family::kGemma3},
    // Gemma 4 (Gemma4TextConfig): Gemma 3's blocks (per-head q/k norms, four norms, tied) plus a
    // layer_scalar, global-layer shapes, KV sharing, per-layer embeddings and the MoE block
    // (ReadGemma3nAnd4).
    {"gemma4", Family::kGemma3},
    {"gemma4_text", Family::kGemma3},
    {"gpt2", Family::kGpt2},
    {"starcoder2", Family::kStarcoder2},
    {"bloom", Family::kStarcoder2},
    {"llama4", Family::kLlama4},
    {"llama4_text", Family::kLlama4},
    {"qwen3_next", Family::kQwen3Next},
    {"qwen3_5", Family::kQwen3Next},
    {"qwen3_5_text", Family::kQwen3Next},
    {"qwen3_5_moe", Family::kQwen3Next},
    {"qwen3_5_moe_text", Family::kQwen3Next},
    {"minimax", Family::kMiniMax},
    {"minimax_text_01", Family::kMiniMax},
    {"minimax_m1", Family::kMiniMax},
    {"minimax_m2", Family::kMiniMaxM2},
    {"hunyuan_v1_moe", Family::kHunyuan},
    {"hunyuan_v1_dense", Family::kHunyuan},
    // Tencent Hy3 (HYV3ForCausalLM): Llama attention with q/k norms (qk_norm), DeepSeek-style
    // MoE fields (first_k_dense_replace, num_shared_experts, the sigmoid router's expert bias,
    // moe_router_enable_expert_bias) and one MTP layer that reads the trunk's embedding and
    // head (the ports' HYV3MTP: enorm, hnorm, eh_proj, a MoE block, final_layernorm). Its
    // published total, 298,786,155,776, holds no second embedding or head.
    {"hy_v3", Family::kLlama},
    {"dbrx", Family::kDbrx},
    {"ernie4_5", Family::kErnie},
    {"ernie4_5_moe", Family::kErnie},
    // ERNIE-4.5-VL (the PT checkpoints' ernie4_5_moe_vl; transformers' ernie4_5_vl_moe): the
    // language model of ERNIE 4.5 MoE with a second, vision expert pool (ErnieVlExperts).
    {"ernie4_5_moe_vl", Family::kErnie},
    {"ernie4_5_vl_moe", Family::kErnie},
    {"cohere", Family::kCohere},
    {"cohere2", Family::kCohere},
    {"olmo2", Family::kOlmo2},
    {"olmo3", Family::kOlmo2},
    // FlexOlmo (FlexOlmoConfig): OLMo 2 blocks (post norms, full-width q/k norms) whose MLP is
    // Mixtral-style routed experts (num_experts, num_experts_per_tok).
    {"flex_olmo", Family::kOlmo2},
    {"phi", Family::kPhi},
    {"gpt_neox", Family::kGptNeox},
    {"falcon", Family::kFalcon},
    {"RefinedWeb", Family::kFalcon},       // Falcon-40B's original remote code
    {"RefinedWebModel", Family::kFalcon},  // Falcon-7B's original remote code
    {"chatglm", Family::kChatGlm},
    {"nemotron", Family::kNemotron},
    // StarCoder / SantaCoder (GPTBigCodeConfig): GPT-2 names and blocks, multi-query attention.
    {"gpt_bigcode", Family::kGpt2},
    // Arcee AFM (ArceeConfig): Llama blocks with a plain up/down ReLU² MLP (ArceeMLP).
    {"arcee", Family::kLlama},
    // Apertus (ApertusConfig, modular_apertus.py): Llama attention with per-head q/k RMSNorms
    // always, a plain up/down MLP (NemotronMLP's shape) with the xIELU activation, untied.
    {"apertus", Family::kLlama},
    // Falcon-H1 (FalconH1Config): attention and a Mamba-2 mixer side by side in every block, then
    // a gated MLP (model_parse_layers.cpp ReadLayerKinds).
    {"falcon_h1", Family::kLlama},
    // Bamba (BambaConfig): Mamba-2 blocks with softmax attention at attn_layer_indices, a gated
    // MLP in every block.
    {"bamba", Family::kLlama},
    // LFM2 (Lfm2Config): gated short-convolution blocks with attention at full_attn_idxs,
    // per-head q/k norms, a SwiGLU MLP whose width block_ff_dim sets, tied.
    {"lfm2", Family::kLlama},
    // LFM2-MoE (Lfm2MoeConfig): LFM2's blocks with num_dense_layers dense MLPs (intermediate_size,
    // not adjusted) and then routed experts (num_experts, moe_intermediate_size; the sigmoid
    // router's expert_bias, a buffer stored in the checkpoint, is counted like DeepSeek's).
    {"lfm2_moe", Family::kLlama},
    // DeciLM / Nemotron-NAS (Llama-3.3-Nemotron-Super-49B, -Ultra-253B): Llama blocks whose
    // attention and MLP vary per layer (block_configs; model_parse_layers.cpp ReadBlockConfigs).
    {"nemotron-nas", Family::kLlama},
    {"deci", Family::kLlama},
    // Nemotron-H (NemotronHConfig): RMSNorm, plain ReLU² MLPs, untied; its blocks are spelled by
    // hybrid_override_pattern (model_parse_layers.cpp ReadHybridPattern), one norm each.
    {"nemotron_h", Family::kLlama},
    // GLM-4 dense, transformers-native (GlmConfig, Glm4Config): Llama blocks, q/k/v bias
    // (attention_bias) and none on o_proj; glm4 adds post-attention and post-MLP norms.
    {"glm", Family::kLlama},
    {"glm4", Family::kLlama},
    // Qwen2-VL / Qwen2.5-VL / Qwen3-VL language models: the Qwen2 / Qwen3 / Qwen3-MoE decoders.
    {"qwen2_vl", Family::kQwen2},
    {"qwen2_vl_text", Family::kQwen2},
    {"qwen2_5_vl", Family::kQwen2},
    {"qwen2_5_vl_text", Family::kQwen2},
    {"qwen3_vl", Family::kQwen3},
    {"qwen3_vl_text", Family::kQwen3},
    {"qwen3_vl_moe", Family::kQwenMoe},
    {"qwen3_vl_moe_text", Family::kQwenMoe},
    {"opt", Family::kOpt},
    {"gptj", Family::kGptJ},
    {"mpt", Family::kMpt},
    {"qwen", Family::kQwen1},
    {"stablelm", Family::kStableLm},
    {"mamba", Family::kMamba},
    {"falcon_mamba", Family::kMamba},
    {"mamba2", Family::kMamba},  // Mamba-2 mixers (Mamba2Model, e.g. Mamba-Codestral)
    {"jamba", Family::kJamba},
    // JetMoE (modeling_jetmoe.py): Mixtral-style routed MLP experts as wide as
    // intermediate_size (num_local_experts), plus a mixture of attention heads
    // (ModelArch::attention_experts).
    {"jetmoe", Family::kMixtral},
    // Baichuan 2 (BaichuanForCausalLM, remote code): W_pack (q/k/v fused, no bias), o_proj, SwiGLU,
    // RMSNorm, untied NormHead: Llama's count field for field.
    {"baichuan", Family::kLlama},
    // Xiaomi MiMo (MiMoConfig, remote code): Qwen2's decoder (q/k/v bias only) plus
    // num_nextn_predict_layers MTP layers (MiMoMTPLayers) that share the model's embed_tokens and
    // lm_head: the checkpoint's mtp_layers.* hold no copies of them.
    {"mimo", Family::kQwen2},
    // Snowflake Arctic (ArcticConfig, remote code): Mixtral-style routed experts as wide as
    // intermediate_size (num_local_experts) and, with parallel_attn_mlp_res, a dense residual
    // MLP as wide as hidden_size beside them with its own norm (ReadMoe).
    {"arctic", Family::kMixtral},
    // Arcee AFMoE (Trinity; AfmoeConfig, modular_afmoe.py): gated attention (a separate
    // gate_proj h → heads·head_dim), per-head q/k RMSNorms, four norms a block (pre/post
    // attention and MLP), num_dense_layers dense MLPs, then routed + shared experts with the
    // sigmoid router's expert_bias buffer.
    {"afmoe", Family::kLlama},
    // poolside Laguna (LagunaConfig, modular_laguna.py): AFMoE-style attention with per-head
    // q/k RMSNorms, more query heads on the sliding-window layers (num_attention_heads_per_layer)
    // and a softplus output gate per head (g_proj, gating); sigmoid-routed experts with the
    // router's e_score_correction_bias and an ungated shared expert; mlp_layer_types.
    {"laguna", Family::kLlama},
    // MiMo-V2-Flash (MiMoV2FlashConfig; the hub's remote-code model_type mimo_v2): Llama blocks
    // with narrower values, sliding-window layers with their own KV heads and sinks
    // (model_parse_attention.cpp), DeepSeek-V3's sigmoid router without shared experts.
    {"mimo_v2_flash", Family::kLlama},
    // Step3's text model (Step3TextConfig, modeling_step3.py): Llama blocks with a low-rank query
    // (share_q_dim: model_parse_attention.cpp), num_attention_groups KV heads, MoE layers
    // moe_layers_enum of moe_num_experts (top moe_top_k) beside a share_expert_dim shared expert.
    {"step3_text", Family::kLlama},
    {"mimo_v2", Family::kLlama},
    // EXAONE 4.0 (Exaone4Config): Llama blocks with per-head q/k RMSNorms.
    {"exaone4", Family::kLlama},
    // OLMoE (OlmoeConfig): Llama attention with q/k RMSNorms over all heads (q_norm: hidden_size
    // wide), num_experts routed experts as wide as intermediate_size, no shared expert.
    {"olmoe", Family::kLlama},
    // Llama 3.2 Vision's text model (MllamaTextModel): Llama 3 blocks, of which the
    // cross_attention_layers attend to the image instead of the text with the same q/k/v/o
    // shapes (plus per-head q/k norms and two gate scalars, and 8 extra embedding rows: 34,832
    // parameters in 11B, not counted; AddVisionTower's note says so).
    {"mllama_text_model", Family::kLlama},
    // dots.llm1 (Dots1Config): DeepSeek-V3's MoE (first_k_dense_replace, shared experts, noaux_tc
    // router with e_score_correction_bias) under Qwen3's GQA attention with per-head q/k norms.
    {"dots1", Family::kDeepSeek},
    // Kimi Linear (KimiLinearConfig): DeepSeek-V3's MoE (num_experts, first_k_dense_replace, a
    // shared expert, the sigmoid router's e_score_correction_bias) with MLA in full_attn_layers
    // and Kimi Delta Attention in kda_layers (linear_attn_config; model_parse_layers.cpp).
    {"kimi_linear", Family::kDeepSeek},
    // LongCat-Flash (LongcatFlashConfig): MLA and DeepSeek-style routing; its layers are read as
    // pairs of blocks (LongcatAsBlocks).
    {"longcat_flash", Family::kDeepSeek},
    // Persimmon (PersimmonConfig): GPT-NeoX's shape — LayerNorms with bias, a plain
    // dense_h_to_4h / dense_4h_to_h MLP (relu2) with biases, biased query_key_value and dense —
    // plus per-head q/k LayerNorms (qk_layernorm).
    {"persimmon", Family::kGptNeox},
    // VaultGemma (VaultGemmaConfig): Gemma's embedding and tying (tie_word_embeddings defaults to
    // true) with two norms a block (input and pre-feedforward), not Gemma 2's four.
    {"vaultgemma", Family::kLlama},
    // Step-3.5 (Step3p5ForCausalLM, modeling_step3p5.py): GQA over num_attention_groups KV heads,
    // per-head q/k norms (use_qk_norm), a head-wise output gate, more query heads on the
    // sliding-window layers (attention_other_setting), zero-centred RMSNorms (x̂·(1 + w): the
    // same weights), MoE on the moe_layers_enum layers with a shared expert share_expert_dim
    // wide and an fp32 router bias, dense MTP layers with their own output head.
    {"step3p5", Family::kLlama},
    // Zamba2 (Zamba2Config): Mamba-2 blocks with shared attention + MLP blocks at its hybrid
    // layers (model_parse_layers.cpp ReadZamba2), gated GELU MLPs, tied.
    {"zamba2", Family::kLlama},
    // MiniCPM3 (MiniCPM3Config): MLA (q_lora_rank, kv_lora_rank) over Llama blocks, tied by
    // default, v_head_dim derived when absent (ReadMla).
    {"minicpm3", Family::kLlama},
    // openPangu-Ultra-MoE (OpenPanguMoEConfig): DeepSeek-V3's MLA, MoE and MTP under its own key
    // names (PanguAliases) with sandwich norms (four a block).
    {"pangu_ultra_moe", Family::kDeepSeek},
    // Ring-linear (BailingMoeLinearV2Config): Ling 2.0's MoE with every layer_group_size-th layer
    // softmax attention and the others linear attention shaped like MiniMax-01's lightning layer
    // (model_parse_layers.cpp).
    {"bailing_moe_linear", Family::kLlama},
    // Ling / Ring 2.5-3.0 (BailingMoeV3, model_type bailing_hybrid): MLA every
    // layer_group_size-th layer with a head-wise output gate, Kimi Delta Attention elsewhere
    // (full-rank gates with no_kda_lora), Ling 2.0's MoE (model_parse_layers.cpp).
    {"bailing_hybrid", Family::kLlama},
};

// Hugging Face architecture classes (config.json "architectures") of the families above.
struct NamedArchitecture {
  const char* architecture;
  const char* model_type;
};

constexpr NamedArchitecture kArchitectures[] = {
    {"LlamaForCausalLM", "llama"},
    {"MistralForCausalLM", "mistral"},
    {"MinistralForCausalLM", "ministral"},
    {"Ministral3ForCausalLM", "ministral3"},
    {"Phi3ForCausalLM", "phi3"},
    {"Phi3VForCausalLM", "phi3_v"},
    {"GraniteForCausalLM", "granite"},
    {"SmolLM3ForCausalLM", "smollm3"},
    {"Qwen2ForCausalLM", "qwen2"},
    {"Qwen3ForCausalLM", "qwen3"},
    {"MixtralForCausalLM", "mixtral"},
    {"PhimoeForCausalLM", "phimoe"},
    {"PhiMoEForCausalLM", "phimoe"},  // the spelling in Phi-3.5-MoE's config.json
    {"SeedOssForCausalLM", "seed_oss"},
    {"GraniteMoeHybridForCausalLM", "granitemoehybrid"},
    {"Qwen2MoeForCausalLM", "qwen2_moe"},
    {"Qwen3MoeForCausalLM", "qwen3_moe"},
    {"DeepseekForCausalLM", "deepseek"},
    {"DeepseekV2ForCausalLM", "deepseek_v2"},
    {"DeepseekV4ForCausalLM", "deepseek_v4"},
    {"DeepseekV3ForCausalLM", "deepseek_v3"},
    {"DeepseekV32ForCausalLM", "deepseek_v32"},
    {"Glm4MoeForCausalLM", "glm4_moe"},
    {"Glm4MoeLiteForCausalLM", "glm4_moe_lite"},
    {"GlmMoeDsaForCausalLM", "glm_moe_dsa"},
    {"GptOssForCausalLM", "gpt_oss"},
    {"GemmaForCausalLM", "gemma"},
    {"Gemma2ForCausalLM", "gemma2"},
    {"Gemma3ForCausalLM", "gemma3_text"},
    {"Gemma3ForConditionalGeneration", "gemma3"},
    {"Gemma3nForCausalLM", "gemma3n_text"},
    {"Gemma3nForConditionalGeneration", "gemma3n"},
    {"Gemma4ForCausalLM", "gemma4_text"},
    {"Gemma4ForConditionalGeneration", "gemma4"},
    {"GPT2LMHeadModel", "gpt2"},
    {"Starcoder2ForCausalLM", "starcoder2"},
    {"BloomForCausalLM", "bloom"},
    {"Llama4ForCausalLM", "llama4_text"},
    {"Llama4ForConditionalGeneration", "llama4"},
    {"Qwen3NextForCausalLM", "qwen3_next"},
    {"Qwen3_5ForCausalLM", "qwen3_5_text"},
    {"Qwen3_5ForConditionalGeneration", "qwen3_5"},
    {"Qwen3_5MoeForCausalLM", "qwen3_5_moe_text"},
    {"Qwen3_5MoeForConditionalGeneration", "qwen3_5_moe"},
    {"MiniMaxForCausalLM", "minimax"},
    {"MiniMaxText01ForCausalLM", "minimax"},
    {"MiniMaxM1ForCausalLM", "minimax"},
    {"MiniMaxM2ForCausalLM", "minimax_m2"},
    {"HunYuanMoEV1ForCausalLM", "hunyuan_v1_moe"},
    {"HunYuanDenseV1ForCausalLM", "hunyuan_v1_dense"},
    {"DbrxForCausalLM", "dbrx"},
    {"Ernie4_5ForCausalLM", "ernie4_5"},
    {"Ernie4_5_MoeForCausalLM", "ernie4_5_moe"},
    {"Ernie4_5_VLMoeForConditionalGeneration", "ernie4_5_moe_vl"},
    {"CohereForCausalLM", "cohere"},
    {"Cohere2ForCausalLM", "cohere2"},
    {"Olmo2ForCausalLM", "olmo2"},
    {"Olmo3ForCausalLM", "olmo3"},
    {"PhiForCausalLM", "phi"},
    {"GPTNeoXForCausalLM", "gpt_neox"},
    {"FalconForCausalLM", "falcon"},
    {"RWForCausalLM", "falcon"},
    {"ChatGLMModel", "chatglm"},
    {"ChatGLMForConditionalGeneration", "chatglm"},
    {"NemotronForCausalLM", "nemotron"},
    {"GPTBigCodeForCausalLM", "gpt_bigcode"},
    {"ArceeForCausalLM", "arcee"},
    {"ApertusForCausalLM", "apertus"},
    {"FalconH1ForCausalLM", "falcon_h1"},
    {"HYV3ForCausalLM", "hy_v3"},
    {"BambaForCausalLM", "bamba"},
    {"Lfm2ForCausalLM", "lfm2"},
    {"Lfm2MoeForCausalLM", "lfm2_moe"},
    {"DeciLMForCausalLM", "nemotron-nas"},
    {"NemotronHForCausalLM", "nemotron_h"},
    {"GlmForCausalLM", "glm"},
    {"Glm4ForCausalLM", "glm4"},
    {"Qwen2VLForConditionalGeneration", "qwen2_vl"},
    {"Qwen2_5_VLForConditionalGeneration", "qwen2_5_vl"},
    {"Qwen3VLForConditionalGeneration", "qwen3_vl"},
    {"Qwen3VLMoeForConditionalGeneration", "qwen3_vl_moe"},
    {"MiMoForCausalLM", "mimo"},
    {"Exaone4ForCausalLM", "exaone4"},
    {"OlmoeForCausalLM", "olmoe"},
    {"Dots1ForCausalLM", "dots1"},
    {"KimiLinearForCausalLM", "kimi_linear"},
    {"LongcatFlashForCausalLM", "longcat_flash"},
    {"PersimmonForCausalLM", "persimmon"},
    {"VaultGemmaForCausalLM", "vaultgemma"},
    {"Zamba2ForCausalLM", "zamba2"},
    {"MiniCPM3ForCausalLM", "minicpm3"},
    {"MiniCPMForCausalLM", "minicpm"},
    {"RecurrentGemmaForCausalLM", "recurrent_gemma"},  // MiniCPM-2B's config.json has no model_type
    {"OlmoForCausalLM", "olmo"},
    {"FlexOlmoForCausalLM", "flex_olmo"},
    {"InternLMForCausalLM", "internlm"},
    {"InternLM2ForCausalLM", "internlm2"},
    {"InternLM3ForCausalLM", "internlm3"},
    {"HeliumForCausalLM", "helium"},
    {"GraniteMoeForCausalLM", "granitemoe"},
    {"GraniteMoeSharedForCausalLM", "granitemoeshared"},
    {"PanguUltraMoEForCausalLM", "pangu_ultra_moe"},
    {"BailingMoeLinearV2ForCausalLM", "bailing_moe_linear"},
    {"ArcticForCausalLM", "arctic"},
    {"AfmoeForCausalLM", "afmoe"},
    {"LagunaForCausalLM", "laguna"},
    {"MiMoV2FlashForCausalLM", "mimo_v2_flash"},
    {"Step3TextForCausalLM", "step3_text"},
    {"MiMoV2ForCausalLM", "mimo_v2"},
    {"OPTForCausalLM", "opt"},
    {"GPTJForCausalLM", "gptj"},
    {"MPTForCausalLM", "mpt"},
    {"MptForCausalLM", "mpt"},
    {"QWenLMHeadModel", "qwen"},
    {"StableLmForCausalLM", "stablelm"},
    {"MambaForCausalLM", "mamba"},
    {"FalconMambaForCausalLM", "falcon_mamba"},
    {"Mamba2ForCausalLM", "mamba2"},
    {"JambaForCausalLM", "jamba"},
    {"JetMoeForCausalLM", "jetmoe"},
    {"BailingMoeV3ForCausalLM", "bailing_hybrid"},
    {"BaichuanForCausalLM", "baichuan"},
};

}  // namespace

Family FamilyOf(std::string_view t) {
  for (const NamedFamily& f : kFamilies) {
    if (t == f.model_type) return f.family;
  }
  return Family::kLlama;
}

bool KnownModelType(std::string_view t) {
  for (const NamedFamily& f : kFamilies) {
    if (t == f.model_type) return true;
  }
  return false;
}

std::string ModelTypeOfArchitecture(std::string_view architecture) {
  for (const NamedArchitecture& a : kArchitectures) {
    if (architecture == a.architecture) return a.model_type;
  }
  return "";
}

}  // namespace model_detail
}  // namespace trainmem
