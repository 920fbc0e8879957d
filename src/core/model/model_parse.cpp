// ParseModelArch: Hugging Face config.json fields → ModelArch.
//
// Read by fields: every field that is present is honoured whatever the model_type (a
// DeepSeek-V3 architecture published under another model_type keeps its first_k_dense_replace);
// the model_type — or, when it is unknown, the `architectures` class name — only decides the
// defaults of fields the config leaves out. An unknown model_type is read as a Llama-like decoder
// and says so in a warning.
//
// model_type and architecture names → Family: model_families.cpp.
//
// [SECTION] family defaults   what model_type implies (from each family's HF Config/modeling file)
// [SECTION] field groups      sizes, attention, MLP/norms, MoE layout, overrides
// [SECTION] ParseModelArch    the entry point, nested/multimodal configs, cross-field checks
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/config/config_detail.h"
#include "core/model/model.h"
#include "core/model/model_detail.h"

namespace trainmem {
namespace model_detail {

// GPT-2's wpe; OPT's embed_positions (OPTLearnedPositionalEmbedding: max_position_embeddings + 2
// rows, positions are offset by 2).
bool DefaultLearnedPositions(Family f) { return f == Family::kGpt2 || f == Family::kOpt; }

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] family defaults
// ---------------------------------------------------------------------------------------------

constexpr std::string_view kTooLarge =
    "larger values are not a real model and could overflow 64-bit parameter counts";

bool IsGemma(Family f) { return f == Family::kGemma2 || f == Family::kGemma3; }
bool IsGptStyle(Family f) { return f == Family::kGpt2 || f == Family::kStarcoder2; }
// Blocks with a LayerNorm (weight + bias) and a plain two-matrix MLP besides GPT-2/StarCoder2:
// GPTNeoXLayer, FalconDecoderLayer, NemotronDecoderLayer (NemotronLayerNorm1P is nn.LayerNorm).
// OPTDecoderLayer and GPTJBlock likewise (fc1/fc2, fc_in/fc_out); MptBlock's LayerNorms lose
// their bias with no_bias (ReadNormKind).
bool IsPlainLayerNorm(Family f) {
  return IsGptStyle(f) || f == Family::kGptNeox || f == Family::kFalcon || f == Family::kNemotron ||
         f == Family::kOpt || f == Family::kGptJ || f == Family::kMpt;
}

// The key that puts a bias on every linear: Falcon's `bias`; ERNIE's and StarCoder2's use_bias,
// Megatron's and ChatGLM's add_bias_linear. Empty when the config has none.
std::string AllLinearBiasKey(FieldReader& f, Family family) {
  return family == Family::kFalcon ? f.FirstPresent({"bias"})
                                   : f.FirstPresent({"use_bias", "add_bias_linear"});
}
// FalconConfig.new_decoder_architecture; Falcon-40B's original RefinedWeb code always used it.
bool FalconNewDecoder(FieldReader& f, std::string_view model_type) {
  return f.Bool("new_decoder_architecture").value_or(model_type == "RefinedWeb");
}
// Qwen3-family decoders whose attention always has per-head q/k norms (Qwen3Attention).
bool IsQwen3Moe(std::string_view t) {
  return t == "qwen3_moe" || t == "qwen3_vl_moe" || t == "qwen3_vl_moe_text";
}

// tie_word_embeddings when config.json leaves it out: the default of each HF Config class
// (LlamaConfig, Qwen2Config, MixtralConfig, DeepseekV3Config, Olmo2Config, Llama4TextConfig,
// GPTNeoXConfig, NemotronConfig … False; GemmaConfig, Gemma2Config, Gemma3TextConfig,
// GPT2Config, GPTBigCodeConfig, Starcoder2Config, CohereConfig, Ernie4_5Config, HunYuan*Config,
// FalconConfig (PretrainedConfig's True; FalconForCausalLM ties lm_head) True). ChatGLM's
// output_layer is its own Linear.
// OPTForCausalLM and MptForCausalLM tie lm_head to the token table (PretrainedConfig's True);
// GPTJConfig, QWenConfig, StableLmConfig and JambaConfig say False; MambaConfig and
// FalconMambaConfig True.
bool DefaultTie(Family f, std::string_view model_type) {
  // VaultGemmaConfig, Zamba2Config, MiniCPMConfig and MiniCPM3Config default to tied too
  // (MiniCPM-2B's config.json leaves the key out and its checkpoint has no lm_head).
  return IsGemma(f) || IsGptStyle(f) || f == Family::kCohere || f == Family::kErnie ||
         f == Family::kHunyuan || f == Family::kFalcon || f == Family::kOpt || f == Family::kMpt ||
         f == Family::kMamba || model_type == "vaultgemma" || model_type == "zamba2" ||
         model_type == "minicpm" || model_type == "minicpm3" || model_type == "recurrent_gemma";
}

// DeepseekV3Config and Glm4MoeConfig defaults (3 and 1); DeepseekV2Config uses 0.
std::int64_t DefaultFirstDense(Family f, std::string_view model_type) {
  if (f == Family::kGlmMoe) return 1;
  if (model_type == "deepseek_v3" || model_type == "deepseek_v32") return 3;
  if (model_type == "lfm2_moe") return 2;  // Lfm2MoeConfig.num_dense_layers
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

std::optional<std::int64_t> OptionalAlias(FieldReader& f,
                                          std::initializer_list<std::string_view> keys,
                                          std::int64_t min, std::int64_t max) {
  const std::string key = f.FirstPresent(keys);
  if (key.empty()) return std::nullopt;
  return f.Int(key, min, max, kTooLarge);
}

// Key/value heads when config.json has no num_key_value_heads: Falcon (FalconAttention) uses
// num_kv_heads with new_decoder_architecture, else one head when multi_query (default True),
// else num_attention_heads; GPTBigCode one head when multi_query (default True); ChatGLM
// (SelfAttention) multi_query_group_num only when multi_query_attention.
std::optional<std::int64_t> FamilyKvHeads(FieldReader& f, Family family, const ModelArch& a) {
  const std::int64_t heads = a.num_heads;
  if (family == Family::kFalcon) {
    if (FalconNewDecoder(f, a.model_type)) {
      return OptionalAlias(f, {"num_kv_heads", "n_head_kv"}, 1, kMaxHeads).value_or(heads);
    }
    return f.Bool("multi_query").value_or(true) ? 1 : heads;
  }
  if (a.model_type == "gpt_bigcode") return f.Bool("multi_query").value_or(true) ? 1 : heads;
  if (family == Family::kChatGlm && !f.Bool("multi_query_attention").value_or(false)) return heads;
  return std::nullopt;
}

// LFM2 (Lfm2Config, Lfm2MLP in modeling_lfm2.py): block_ff_dim overrides intermediate_size;
// with block_auto_adjust_ff_dim (default true) the SwiGLU width is int(2f/3), times
// block_ffn_dim_multiplier, rounded up to a multiple of block_multiple_of (256). LFM2-1.2B:
// 12,288 → 8,192; LFM2-350M: 6,656 → 4,437 → 4,608.
void ReadLfm2MlpWidth(FieldReader& f, ModelArch& a) {
  std::int64_t width = f.Int("block_ff_dim", 1, kMaxWidth, kTooLarge).value_or(a.intermediate_size);
  if (f.Bool("block_auto_adjust_ff_dim").value_or(true)) {
    width = 2 * width / 3;
    if (std::optional<double> m = f.Number("block_ffn_dim_multiplier", 0.01, 100)) {
      width = static_cast<std::int64_t>(*m * static_cast<double>(width));
    }
    const std::int64_t multiple = f.Int("block_multiple_of", 1, kMaxWidth).value_or(256);
    width = RoundUpToMultiple(width, multiple);
  }
  a.intermediate_size = std::clamp<std::int64_t>(width, 1, kMaxWidth);
}

std::optional<std::int64_t> IntOrUniformList(FieldReader& f, std::string_view key, std::int64_t min,
                                             std::int64_t max,
                                             std::string_view too_large_reason = kTooLarge);

void ReadSizes(FieldReader& f, Family family, ModelArch& a) {
  // GPT-2 names its sizes n_embd / n_layer / n_head / n_positions / n_inner (GPT2Config);
  // Bloom uses n_embed; DBRX / MPT d_model / n_layers / n_heads / max_seq_len; ChatGLM and
  // EXAONE num_layers.
  a.hidden_size = RequiredAlias(f, {"hidden_size", "n_embd", "n_embed", "d_model"}, kMaxWidth);
  a.num_layers =
      RequiredAlias(f, {"num_hidden_layers", "num_layers", "n_layer", "n_layers"}, kMaxLayers);
  // Mamba / Falcon-Mamba have no attention: one nominal head, whose count nothing divides.
  a.num_heads = family == Family::kMamba
                    ? OptionalAlias(f, {"num_attention_heads"}, 1, kMaxHeads).value_or(1)
                    : RequiredAlias(f, {"num_attention_heads", "n_head", "n_heads"}, kMaxHeads);
  // ChatGLM's embedding and output layer are padded_vocab_size rows (ChatGLMConfig).
  const std::string vocab_key = f.FirstPresent({"padded_vocab_size", "vocab_size"});
  if (vocab_key.empty()) {
    f.FailMissing("vocab_size");
  } else {
    a.vocab_size = f.Int(vocab_key, 1, kMaxVocab, kTooLarge).value_or(0);
  }
  // An explicit num_key_value_heads wins; then the family's own rule; then the other spellings
  // (ChatGLM: multi_query_group_num; Megatron: num_query_groups; Falcon-H1 / RefinedWeb:
  // num_kv_heads / n_head_kv).
  const std::optional<std::int64_t> explicit_kv =
      OptionalAlias(f, {"num_key_value_heads"}, 1, kMaxHeads);
  const std::optional<std::int64_t> family_kv =
      explicit_kv ? std::nullopt : FamilyKvHeads(f, family, a);
  a.num_kv_heads =
      explicit_kv ? *explicit_kv
      : family_kv
          ? *family_kv
          : OptionalAlias(f,
                          {"num_kv_heads", "n_kv_heads", "n_head_kv", "multi_query_group_num",
                           "num_query_groups", "num_attention_groups"},
                          1, kMaxHeads)
                .value_or(a.num_heads);
  a.head_dim =
      OptionalAlias(f, {"head_dim", "kv_channels", "attention_head_dim"}, 1, kMaxWidth).value_or(0);
  const std::string inter_key =
      f.FirstPresent({"intermediate_size", "n_inner", "ffn_hidden_size", "ffn_dim"});
  if (!inter_key.empty()) {
    // Gemma 3n writes intermediate_size per layer (one value repeated).
    a.intermediate_size = IntOrUniformList(f, inter_key, 1, kMaxWidth).value_or(0);
  }
  if (inter_key.empty() && (family == Family::kGpt2 || family == Family::kFalcon ||
                            family == Family::kGptJ || a.model_type == "bloom")) {
    // GPT-2 / GPTBigCode / GPT-J n_inner = null → 4·n_embd; Falcon ffn_hidden_size = None → 4·h;
    // Bloom 4·h
    a.intermediate_size = 4 * a.hidden_size;
  }
  // MPT (MptConfig / MPTConfig): the MLP is expansion_ratio · d_model wide (default 4).
  if (inter_key.empty() && family == Family::kMpt) {
    a.intermediate_size = a.hidden_size * f.Int("expansion_ratio", 1, 1000).value_or(4);
  }
  // Qwen-1 (QWenConfig): w1, w2 and c_proj are intermediate_size / 2 wide (QWenMLP:
  // ff_dim_in = config.intermediate_size // 2); Qwen-7B's 22016 is an 11008-wide SwiGLU.
  if (inter_key == "intermediate_size" && family == Family::kQwen1) a.intermediate_size /= 2;
  // RecurrentGemmaMlp: gate_proj, up_proj and down_proj are intermediate_size // 2 wide.
  if (inter_key == "intermediate_size" && a.model_type == "recurrent_gemma")
    a.intermediate_size /= 2;
  // Llama 4: dense blocks are intermediate_size_mlp wide; intermediate_size is the expert width
  // (Llama4TextConfig), read in ReadMoe.
  if (std::optional<std::int64_t> mlp = f.Int("intermediate_size_mlp", 1, kMaxWidth, kTooLarge)) {
    a.intermediate_size = *mlp;
  }
  if (a.model_type == "lfm2") ReadLfm2MlpWidth(f, a);
  const std::string pos_key =
      f.FirstPresent({"max_position_embeddings", "n_positions", "max_seq_len", "seq_length"});
  if (!pos_key.empty()) {
    a.max_position_embeddings = f.Int(pos_key, 1, kMaxPositions, kTooLarge).value_or(0);
  }
  a.tie_embeddings = f.Bool("tie_word_embeddings").value_or(DefaultTie(family, a.model_type));
  // Lfm2Config, Lfm2MoeConfig: tie_word_embeddings = tie_embedding when given (default true).
  if (a.model_type == "lfm2" || a.model_type == "lfm2_moe") {
    a.tie_embeddings =
        f.Bool("tie_embedding").value_or(f.Bool("tie_word_embeddings").value_or(true));
  }
  // FalconConfig names it `activation`.
  const std::string act_key =
      family == Family::kFalcon
          ? f.FirstPresent({"hidden_act", "activation"})
          : f.FirstPresent({"hidden_act", "hidden_activation", "activation_function"});
  std::string default_act = "silu";
  if (IsGemma(family) || family == Family::kStarcoder2) default_act = "gelu_pytorch_tanh";
  if (family == Family::kGpt2 || family == Family::kPhi || family == Family::kGptJ)
    default_act = "gelu_new";
  if (family == Family::kGptNeox || family == Family::kFalcon || family == Family::kMpt)
    default_act = "gelu";
  if (family == Family::kOpt) default_act = "relu";  // OPTConfig.activation_function
  if (family == Family::kNemotron || a.model_type == "arcee" || a.model_type == "nemotron_h")
    default_act = "relu2";
  if (a.model_type == "apertus") default_act = "xielu";
  a.hidden_act = act_key.empty() ? default_act : f.String(act_key).value_or(default_act);
  // DeepSeek / GLM / ERNIE: num_nextn_predict_layers; Qwen3.5: mtp_num_hidden_layers. Qwen3-Next
  // checkpoints ship one mtp.* layer without saying so in config.json (the published
  // 81,324,862,720 is the main model plus exactly one such layer).
  const std::int64_t default_mtp = family == Family::kQwen3Next ? 1 : 0;
  a.num_mtp_layers = OptionalAlias(f, {"num_nextn_predict_layers", "mtp_num_hidden_layers"}, 0, 100)
                         .value_or(default_mtp);
  // Step-3.5 (modeling_step3p5.py, vLLM step3p5_mtp.py): each MTP layer (checkpoint layers
  // num_hidden_layers…) has enorm, hnorm, eh_proj, a decoder block whose MLP is dense
  // (intermediate_size: the MTP layers are not in moe_layers_enum), and its own shared_head
  // norm and output head; it reads the main embed_tokens.
  const bool step = a.model_type == "step3p5";
  // GLM-5 (glm_moe_dsa): the checkpoint's MTP layer reads the main embedding and head; GLM-5.3's
  // published total (753,329,940,480) is exact only without a copy of either.
  // DeepSeek-V4's MTP layer reads the main embedding and head (the published totals of V4-Flash
  // and V4-Pro hold neither twice).
  // Nemotron-H (NemotronHForCausalLM, mtp_hybrid_override_pattern): the MTP block is eh_proj,
  // enorm / hnorm, its blocks and a final norm; Nemotron-3-Super's published total
  // (123,611,012,096) holds no embedding or head in it.
  // Ling / Ring 2.0 (modeling_bailing_moe_v2.py BailingMoeV2MTPLayer: enorm, hnorm, eh_proj, an
  // attention + MoE block, final_layernorm) read the model's word_embeddings and lm_head too;
  // their configs say model_type "bailing_moe" (BailingMoeV2ForCausalLM) or "bailing_moe_v2".
  static constexpr std::string_view kMtpSharesTheTables[] = {
      "mimo",         "step3p5",        "glm_moe_dsa", "nemotron_h",  "deepseek_v4",
      "deepseek_ref", "bailing_hybrid", "hy_v3",       "bailing_moe", "bailing_moe_v2"};
  a.mtp_embedding_copies = family != Family::kQwen3Next;
  for (std::string_view t : kMtpSharesTheTables)
    if (a.model_type == t) a.mtp_embedding_copies = false;
  a.mtp_head_copy = step;
  a.mtp_dense = step;
}

// GLM-5 (GlmMoeDsaConfig indexer_types): per layer "full" (the layer owns its indexer) or
// "shared" (it reuses the top-k positions an earlier layer's indexer chose and stores no indexer
// weights). GLM-5.3 has 21 full and 57 shared of 78; with them its count is the published
// safetensors total to the unit.
void ReadIndexerTypes(FieldReader& f, ModelArch& a) {
  const json* types = f.Get("indexer_types");
  if (types == nullptr || types->is_null()) return;
  if (!types->is_array() || types->size() != static_cast<std::size_t>(a.num_layers)) {
    f.Fail("indexer_types", "expected a list of " + std::to_string(a.num_layers) +
                                " entries (\"full\" or \"shared\", one per layer), got " +
                                detail::Dump(*types).substr(0, 80));
    return;
  }
  std::vector<bool> shared(types->size(), false);
  bool any = false;
  for (std::size_t i = 0; i < types->size(); ++i) {
    const json& t = (*types)[i];
    if (!t.is_string() || (t != "full" && t != "shared")) {
      f.Fail("indexer_types[" + std::to_string(i) + "]",
             "expected \"full\" or \"shared\", got " + detail::Dump(t).substr(0, 40));
      return;
    }
    shared[i] = t == "shared";
    any = any || shared[i];
  }
  if (shared[0]) {
    f.Fail("indexer_types[0]", "the first layer has no earlier indexer to share");
    return;
  }
  if (any) a.layer_shares_indexer = std::move(shared);
}

// The lightning indexer's sizes (DeepSeek-V3.2, GLM-5, DeepSeek-V4): both or neither of
// index_n_heads and index_head_dim. False when the config has no indexer or only half of one.
bool ReadIndexerSizes(FieldReader& f, ModelArch& a) {
  const bool has_heads = f.Has("index_n_heads");
  const bool has_dim = f.Has("index_head_dim");
  if (has_heads != has_dim) {
    f.Fail(has_heads ? "index_head_dim" : "index_n_heads",
           "missing required field (the V3.2 indexer needs both index_n_heads and index_head_dim)");
    return false;
  }
  if (!has_heads) return false;
  a.index_n_heads = f.Int("index_n_heads", 1, kMaxHeads, kTooLarge).value_or(0);
  a.index_head_dim = f.Int("index_head_dim", 1, kMaxWidth, kTooLarge).value_or(0);
  a.index_topk = f.Int("index_topk", 1, kMaxPositions, kTooLarge).value_or(0);
  return true;
}

// DeepSeek-V4's attention, compressors and hyper-connections (ModelArch::o_groups), read
// whenever their fields are present.
void ReadDeepseekV4(FieldReader& f, ModelArch& a) {
  if (!f.Has("o_groups") && !f.Has("hc_mult") && !f.Has("compress_ratios")) return;
  a.hyper_connections = f.Int("hc_mult", 1, 64).value_or(0);
  if (!f.Has("o_groups")) return;
  a.o_groups = f.Int("o_groups", 1, kMaxHeads).value_or(0);
  a.o_lora_rank = f.RequiredInt("o_lora_rank", 1, kMaxWidth, kTooLarge);
  a.q_lora_rank = f.RequiredInt("q_lora_rank", 1, kMaxWidth, kTooLarge);
  a.attention_sinks = true;
  if (a.o_groups > 0 && a.num_heads % a.o_groups != 0) {
    f.Fail("o_groups", std::to_string(a.o_groups) + " output groups do not divide the " +
                           std::to_string(a.num_heads) + " heads");
    return;
  }
  ReadIndexerSizes(f, a);
  const json* ratios = f.Get("compress_ratios");
  if (ratios == nullptr || ratios->is_null()) return;
  // One entry per layer, then one per MTP layer (whose attention is sliding-window only).
  const auto n = static_cast<std::size_t>(a.num_layers);
  if (!ratios->is_array() || ratios->size() < n) {
    f.Fail("compress_ratios", "expected a list of at least " + std::to_string(n) +
                                  " entries (one per layer), got " +
                                  detail::Dump(*ratios).substr(0, 60));
    return;
  }
  std::vector<std::int64_t> per_layer(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const json& r = (*ratios)[i];
    if (!r.is_number_integer() || r.get<std::int64_t>() < 0 ||
        r.get<std::int64_t>() > kMaxPositions) {
      f.Fail(
          "compress_ratios[" + std::to_string(i) + "]",
          "expected a whole number from 0 (no compression), got " + detail::Dump(r).substr(0, 40));
      return;
    }
    per_layer[i] = r.get<std::int64_t>();
    if (per_layer[i] == 4 && a.index_n_heads == 0) {
      f.Fail("index_n_heads", "missing required field (compress ratio 4 layers have an indexer)");
      return;
    }
  }
  a.layer_compress_ratio = std::move(per_layer);
}

void ReadMla(FieldReader& f, ModelArch& a) {
  a.attention = AttentionKind::kMla;
  a.q_lora_rank = f.Int("q_lora_rank", 1, kMaxWidth, kTooLarge).value_or(0);  // null: q_proj
  a.kv_lora_rank = f.RequiredInt("kv_lora_rank", 1, kMaxWidth, kTooLarge);
  a.qk_nope_head_dim = f.RequiredInt("qk_nope_head_dim", 1, kMaxWidth, kTooLarge);
  a.qk_rope_head_dim = f.RequiredInt("qk_rope_head_dim", 1, kMaxWidth, kTooLarge);
  // MiniCPM3Config has no v_head_dim: its values are hidden_size / heads wide.
  if (a.model_type == "minicpm3" && !f.Has("v_head_dim")) {
    a.v_head_dim = a.hidden_size / std::max<std::int64_t>(a.num_heads, 1);
  } else {
    a.v_head_dim = f.RequiredInt("v_head_dim", 1, kMaxWidth, kTooLarge);
  }
  if (!ReadIndexerSizes(f, a)) return;
  if (a.index_n_heads > 0 && a.q_lora_rank == 0) {
    f.Fail("index_n_heads",
           "the indexer's wq_b reads the MLA query latent, so q_lora_rank must be set");
  }
  ReadIndexerTypes(f, a);
}

// q/k norms: Qwen3 / Gemma 3 always (per head); GLM, Hunyuan, Cohere, MiniMax-M2, OLMo 2 and
// Megatron configs say so (use_qk_norm, qk_layernorm). Llama 4's use_qk_norm is a weightless L2
// norm (Llama4TextL2Norm): no parameters. qk_norm_type "per_layer" (MiniMax-M2), OLMo 2's
// Olmo2Attention and Cohere's per-head LayerNorm weights span all heads.
void ReadQkNorm(FieldReader& f, Family family, ModelArch& a) {
  a.qk_norm = family == Family::kQwen3 || family == Family::kGemma3 ||
              family == Family::kQwen3Next || family == Family::kOlmo2 ||
              IsQwen3Moe(a.model_type) || a.model_type == "apertus" || a.model_type == "lfm2" ||
              a.model_type == "lfm2_moe" || a.model_type == "afmoe" || a.model_type == "exaone4" ||
              a.model_type == "olmoe" || a.model_type == "dots1" || a.model_type == "laguna";
  const std::string key = f.FirstPresent({"use_qk_norm", "qk_layernorm", "qk_norm"});
  if (!key.empty()) a.qk_norm = f.Bool(key).value_or(a.qk_norm);
  if (family == Family::kLlama4) a.qk_norm = false;
  // StableLmLayerNormPerHead: one LayerNorm(head_dim) per head, for q and for k.
  a.qk_norm_full = family == Family::kOlmo2 || family == Family::kCohere ||
                   family == Family::kMiniMaxM2 || family == Family::kStableLm ||
                   a.model_type == "olmoe";
  if (std::optional<std::string> type = f.String("qk_norm_type")) {
    a.qk_norm_full = *type == "per_layer";
  }
}

void ReadAttention(FieldReader& f, Family family, ModelArch& a) {
  // attention_bias: q/k/v/o (LlamaAttention, Qwen3Attention, GptOssAttention); use_bias (ERNIE,
  // StarCoder2), Megatron's and ChatGLM's add_bias_linear, Falcon's bias: every linear;
  // qkv_bias / add_qkv_bias (ChatGLM) / use_qkv_bias (StableLM): q/k/v.
  std::optional<bool> all_linear;
  const std::string all_key = AllLinearBiasKey(f, family);
  if (!all_key.empty()) all_linear = f.Bool(all_key);
  // GptOssConfig.attention_bias defaults to True, GPTNeoXConfig.attention_bias too; PhiAttention
  // always builds q/k/v/dense with bias=True (modeling_phi.py; PhiConfig has no such field).
  const bool default_bias =
      family == Family::kGptOss || family == Family::kPhi || family == Family::kGptNeox;
  const bool attention_bias = f.Bool("attention_bias").value_or(all_linear.value_or(default_bias));
  a.qkv_bias = attention_bias;
  a.o_bias = attention_bias;
  if (family == Family::kQwen2 || a.model_type == "qwen2_moe") {
    a.qkv_bias = true;  // Qwen2Attention: q/k/v bias=True, o_proj bias=False, always
    a.o_bias = false;
  }
  // Glm4MoeAttention, GlmAttention, Glm4Attention: o_proj bias=False.
  if (family == Family::kGlmMoe || a.model_type == "glm" || a.model_type == "glm4")
    a.o_bias = false;
  if (family == Family::kGpt2 || a.model_type == "bloom") a.qkv_bias = a.o_bias = true;
  // OPTAttention: q/k/v/out_proj bias = enable_bias (default True). GPTJAttention: no biases.
  // MptAttention: Wqkv and out_proj bias = not no_bias (default no_bias True). QWenAttention:
  // c_attn always has a bias, c_proj only without no_bias (default True).
  if (family == Family::kOpt) a.qkv_bias = a.o_bias = f.Bool("enable_bias").value_or(true);
  if (family == Family::kGptJ) a.qkv_bias = a.o_bias = false;
  if (family == Family::kMpt) a.qkv_bias = a.o_bias = !f.Bool("no_bias").value_or(true);
  if (family == Family::kQwen1) {
    a.qkv_bias = true;
    a.o_bias = !f.Bool("no_bias").value_or(true);
  }
  if (a.model_type == "recurrent_gemma") a.o_bias = true;  // RecurrentGemmaSdpaAttention o_proj
  // InternLM (v1) InternLMAttention: q/k/v/o_proj bias = config.bias (InternLMConfig default True).
  if (a.model_type == "internlm") a.qkv_bias = a.o_bias = f.Bool("bias").value_or(true);
  if (family == Family::kStarcoder2 && a.model_type != "bloom") {
    a.qkv_bias = a.o_bias = all_linear.value_or(true);  // Starcoder2Config.use_bias
  }
  const std::string qkv_key = f.FirstPresent({"qkv_bias", "add_qkv_bias", "use_qkv_bias"});
  if (!qkv_key.empty()) a.qkv_bias = f.Bool(qkv_key).value_or(a.qkv_bias);
  // Seed-OSS (SeedOssConfig): attention_out_bias decides o_proj's bias apart from q/k/v.
  a.o_bias = f.Bool("attention_out_bias").value_or(a.o_bias);
  ReadQkNorm(f, family, a);
  a.attention_sinks = family == Family::kGptOss;
  a.clamped_swiglu = family == Family::kGptOss;
  a.final_logit_softcapping = f.Number("final_logit_softcapping", 0, 1e6).value_or(0);
  // Qwen3-Next / Qwen3.5 gated attention (attn_output_gate, default true in Qwen3NextConfig).
  // AFMoE's gate_proj is a separate h → heads·head_dim linear: the same count.
  a.attention_output_gate =
      f.Bool("attn_output_gate").value_or(family == Family::kQwen3Next || a.model_type == "afmoe");
  a.head_gate = f.Bool("use_head_wise_attn_gate").value_or(false) ||
                f.String("gated_attention_proj_granularity_type").value_or("") == "head_wise";
  // DeepSeek-VL2's language model (modeling_deepseek.py, ATTENTION_CLASSES): use_mla false
  // builds plain multi-head attention (q/k/v/o h × h) although the MLA fields are written.
  if (f.Has("kv_lora_rank") && !f.Bool("use_mla").value_or(true)) {
    for (const char* unused :
         {"kv_lora_rank", "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"})
      f.Get(unused);
  } else if (f.Has("kv_lora_rank")) {
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

void ReadNormKind(FieldReader& f, Family family, ModelArch& a) {
  a.norm = IsPlainLayerNorm(family) ? NormKind::kLayerNorm : NormKind::kRmsNorm;
  // ChatGLM: RMSNorm unless rmsnorm is false (then LayerNorm with bias).
  if (family == Family::kChatGlm && !f.Bool("rmsnorm").value_or(true))
    a.norm = NormKind::kLayerNorm;
  // CohereLayerNorm and DBRX's LayerNorm(bias=False) have a weight only.
  if (family == Family::kCohere || family == Family::kDbrx) a.norm = NormKind::kLayerNormNoBias;
  // MptBlock: norm_1 / norm_2 / norm_f are LayerNorms whose bias is dropped with no_bias (default
  // True); StableLmDecoderLayer: nn.LayerNorm with bias.
  if (family == Family::kMpt && f.Bool("no_bias").value_or(true))
    a.norm = NormKind::kLayerNormNoBias;
  if (family == Family::kStableLm) a.norm = NormKind::kLayerNorm;
  // Megatron's --normalization (LayerNorm | RMSNorm) as written in its configs.
  if (std::optional<std::string> n = f.String("normalization")) {
    std::string lower;
    for (char c : *n) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "layernorm") a.norm = NormKind::kLayerNorm;
    if (lower == "rmsnorm") a.norm = NormKind::kRmsNorm;
  }
  // Gemma: pre/post attention + pre/post MLP; Cohere: one norm feeding attention and MLP in
  // parallel (CohereDecoderLayer); OLMo 2: post-attention and post-feedforward norms only.
  // Phi (PhiDecoderLayer): one input_layernorm (LayerNorm with bias) feeding the parallel
  // attention and MLP; final_layernorm likewise.
  // Gemma 1 (GemmaDecoderLayer) has only input_layernorm and post_attention_layernorm.
  a.norms_per_layer = (IsGemma(family) && a.model_type != "gemma") || a.model_type == "glm4" ||
                              a.model_type == "afmoe" || a.model_type == "pangu_ultra_moe"
                          ? 4
                          : 2;
  // GPTJBlock: ln_1 feeds the parallel attention and MLP; StableLM with use_parallel_residual
  // likewise (no post_attention_layernorm).
  // MambaBlock: one norm before the mixer.
  if (family == Family::kCohere || family == Family::kPhi || family == Family::kGptJ ||
      family == Family::kMamba || a.model_type == "nemotron_h")
    a.norms_per_layer = 1;
  if (family == Family::kStableLm && f.Bool("use_parallel_residual").value_or(false))
    a.norms_per_layer = 1;
  // FalconDecoderLayer: ln_attn + ln_mlp with new_decoder_architecture (num_ln_in_parallel_attn,
  // default 2); else input_layernorm, plus post_attention_layernorm when not parallel_attn.
  if (family == Family::kFalcon) {
    if (FalconNewDecoder(f, a.model_type)) {
      a.norms_per_layer = static_cast<int>(f.Int("num_ln_in_parallel_attn", 1, 2).value_or(2));
    } else {
      a.norms_per_layer = f.Bool("parallel_attn").value_or(true) ? 1 : 2;
    }
  }
  // Phi-3.5-MoE: PhimoeDecoderLayer's and PhimoeModel's norms are nn.LayerNorm with
  // elementwise_affine=True (weight + bias), not RMSNorm (modeling_phimoe.py).
  if (family == Family::kPhi || a.model_type == "phimoe") a.norm = NormKind::kLayerNorm;
}

void ReadMlpAndNorms(FieldReader& f, Family family, ModelArch& a) {
  // Plain up/down MLPs: GPT-2 style, GPTNeoXMLP, FalconMLP, NemotronMLP, ArceeMLP (ReLU²) and
  // ApertusMLP (xIELU); ChatGLM's dense_h_to_4h emits 2 × ffn_hidden_size for SwiGLU (gated).
  // xIELU's two learnable scalars per layer (alpha_p, alpha_n: 64 values in Apertus-8B, 160 in
  // 70B) are not counted.
  a.mlp = IsPlainLayerNorm(family) || a.model_type == "arcee" || a.model_type == "nemotron_h" ||
                  a.model_type == "apertus"
              ? MlpKind::kPlain
              : MlpKind::kGated;
  ReadNormKind(f, family, a);
  const std::string all_key = AllLinearBiasKey(f, family);
  const bool all_linear = all_key.empty() ? false : f.Bool(all_key).value_or(false);
  a.mlp_bias = f.Bool("mlp_bias").value_or(all_linear);  // LlamaConfig.mlp_bias
  if (IsGptStyle(family)) a.mlp_bias = a.qkv_bias;       // GPT-2/Bloom always; StarCoder2 use_bias
  if (family == Family::kGptNeox) a.mlp_bias = true;     // GPTNeoXMLP: nn.Linear with bias, always
  // OPT fc1/fc2: enable_bias; GPTJMLP fc_in/fc_out: bias always; MPT up/down_proj and Qwen-1's
  // w1/w2/c_proj: not no_bias.
  if (family == Family::kOpt) a.mlp_bias = f.Bool("enable_bias").value_or(true);
  if (family == Family::kGptJ || a.model_type == "recurrent_gemma") a.mlp_bias = true;
  if (family == Family::kMpt || family == Family::kQwen1) {
    a.mlp_bias = !f.Bool("no_bias").value_or(true);
  }
  // PhiMLP: fc1 (h → intermediate_size) and fc2, both with bias, GELU between (not gated). A
  // module dump of microsoft/phi-2 shows the whole block (liuutin9/FPGA-Acceleration-of-TinyLLaVA-
  // Inference-via-HLS: phi-2_structure.py), and its lm_head's bias (head_bias, below).
  if (family == Family::kPhi) {
    a.mlp = MlpKind::kPlain;
    a.mlp_bias = true;
  }
  // GPT-2 learns a position table (wpe); StarCoder2 uses RoPE. Megatron GPT configs say which
  // with position_embedding_type (Megatron's argument name); it defaults to RoPE here.
  a.learned_positions = DefaultLearnedPositions(family);
  a.alibi = a.model_type == "bloom";  // BloomAttention adds its ALiBi bias to every score
  if (family == Family::kOpt) a.position_offset = 2;
  if (std::optional<std::string> type = f.String("position_embedding_type")) {
    if (*type == "learned_absolute" || *type == "absolute") {  // absolute: BertConfig's name
      a.learned_positions = true;
    } else if (type->rfind("rope", 0) == 0 || type->rfind("rotary", 0) == 0 || *type == "none" ||
               *type == "alibi" || *type == "nope") {
      // "nope": Granite 4.0 (GraniteMoeHybridConfig) uses no position embedding at all. Cohere's
      // cohere2 configs keep the original "rope_gptj" (interleaved RoPE), which transformers
      // ignores: rotary variants hold no parameters.
      a.learned_positions = false;
      a.alibi = *type == "alibi";
    } else {
      f.Fail(
          "position_embedding_type",
          "unknown value \"" + *type +
              "\" (expected learned_absolute, absolute, rope or a rope_* variant, alibi, none or "
              "nope)");
    }
  }
  if (a.learned_positions && a.max_position_embeddings == 0) {
    f.Fail("max_position_embeddings",
           "missing required field (learned absolute positions need the table size)");
  }
  // OPT (OPTDecoder): the token table and lm_head are word_embed_proj_dim wide, with project_in /
  // project_out when that differs from hidden_size (OPT-350m: 512 vs 1024); the final LayerNorm
  // exists only with do_layer_norm_before and without _remove_final_layer_norm (OPT-350m has
  // none).
  if (std::optional<std::int64_t> word = f.Int("word_embed_proj_dim", 1, kMaxWidth, kTooLarge)) {
    a.word_embedding_dim = *word == a.hidden_size ? 0 : *word;
  }
  if (a.model_type == "olmo") {  // OlmoLayerNorm: no weight, no bias (ReadNormKind)
    a.norms_per_layer = 0;
    a.final_norm = false;
  }
  if (family == Family::kOpt) {
    a.final_norm = f.Bool("do_layer_norm_before").value_or(true) &&
                   !f.Bool("_remove_final_layer_norm").value_or(false);
  }
  // GPTJForCausalLM and PhiForCausalLM: lm_head = nn.Linear(hidden, vocab_size), bias included;
  // PhimoeForCausalLM's lm_head has one when lm_head_bias (PhimoeConfig, default False).
  a.head_bias = family == Family::kGptJ || family == Family::kPhi ||
                (a.model_type == "phimoe" && f.Bool("lm_head_bias").value_or(false));
  a.embedding_norm = a.model_type == "bloom";
}

// A field that is one integer or a per-layer list (Hunyuan writes moe_topk, num_shared_expert,
// moe_intermediate_size as lists). A list must hold one value: trainmem's blocks share widths.
std::optional<std::int64_t> IntOrUniformList(FieldReader& f, std::string_view key, std::int64_t min,
                                             std::int64_t max, std::string_view too_large_reason) {
  const json* v = f.Get(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_array()) return f.Int(key, min, max, too_large_reason);
  std::optional<std::vector<std::int64_t>> list = f.IntList(key, min, max);
  if (!list || list->empty()) return std::nullopt;
  for (std::int64_t x : *list) {
    if (x != list->front()) {
      f.Fail(key, "per-layer values differ (" + std::to_string(list->front()) + " and " +
                      std::to_string(x) + "); trainmem needs one value for every layer");
      return std::nullopt;
    }
  }
  return list->front();
}

std::int64_t ReadExpertCount(FieldReader& f) {
  // DeepSeek/GLM: n_routed_experts; Mixtral/gpt-oss/Llama 4/MiniMax: num_local_experts;
  // Qwen-MoE/Hunyuan: num_experts; ERNIE / DBRX: moe_num_experts.
  const std::string key =
      f.FirstPresent({"n_routed_experts", "num_local_experts", "num_experts", "moe_num_experts"});
  if (key.empty()) return 0;
  return IntOrUniformList(f, key, 0, kMaxExperts).value_or(0);
}

void ReadSharedExperts(FieldReader& f, Family family, ModelArch& a) {
  // DeepSeek: n_shared_experts; ERNIE: moe_num_shared_experts; Hunyuan: num_shared_expert
  // (a list); Llama 4 always has one shared expert as wide as the routed ones (Llama4TextMoe).
  const std::string key = f.FirstPresent(
      {"n_shared_experts", "num_shared_experts", "moe_num_shared_experts", "num_shared_expert"});
  // Aria (AriaTextConfig.moe_num_shared_experts): 2 unless told.
  const std::int64_t default_shared =
      family == Family::kLlama4 ? 1 : (a.model_type == "aria_text" ? 2 : 0);
  a.num_shared_experts =
      key.empty() ? default_shared : IntOrUniformList(f, key, 0, 1000, "").value_or(0);
  // Hunyuan-Large's remote code (model_type "hunyuan") has the same switch.
  if ((family == Family::kHunyuan || a.model_type == "hunyuan") &&
      !f.Bool("use_mixed_mlp_moe").value_or(true)) {
    a.num_shared_experts = 0;  // HunYuanMoE builds shared_mlp only with use_mixed_mlp_moe
  }
  // Qwen2-MoE / Qwen3-Next: one shared expert of this width, scaled by a sigmoid gate (h → 1);
  // Granite/MiniMax write shared_intermediate_size (0 = none).
  const std::string width_key =
      f.FirstPresent({"shared_expert_intermediate_size", "shared_intermediate_size",
                      "moe_shared_expert_intermediate_size", "share_expert_dim"});
  if (!width_key.empty()) {
    const std::int64_t width = f.Int(width_key, 0, kMaxWidth, kTooLarge).value_or(0);
    if (width > 0) {
      a.shared_expert_intermediate_size = width;
      if (a.num_shared_experts == 0) a.num_shared_experts = 1;
    }
  }
  a.shared_expert_gate = a.shared_expert_intermediate_size > 0 &&
                         (a.model_type == "qwen2_moe" || family == Family::kQwen3Next);
}

void MarkDenseList(FieldReader& f, std::string_view key, ModelArch& a) {
  const std::vector<std::int64_t> dense_layers =
      f.IntList(key, 0, std::max<std::int64_t>(a.num_layers - 1, 0))
          .value_or(std::vector<std::int64_t>{});
  for (std::int64_t i : dense_layers) a.layer_is_moe[static_cast<std::size_t>(i)] = false;
}

// Which blocks are MoE. Every convention present is applied (they only ever remove MoE blocks):
//   first_k_dense_replace, moe_layer_freq (DeepseekV3DecoderLayer, Glm4MoeDecoderLayer);
//   decoder_sparse_step, mlp_only_layers (Qwen2/3-MoE, Qwen3-Next: (i + 1) % step == 0);
//   interleave_moe_layer_step or moe_layers (Llama 4: MoE at step-1, 2·step-1, …);
//   moe_layer_start_index / _end_index / _interval (ERNIE 4.5: (i + 1) % interval == 0);
//   mlp_layer_types ("dense" / "sparse"). Mixtral, gpt-oss, MiniMax, DBRX route every block.
void ReadMoeLayout(FieldReader& f, Family family, ModelArch& a) {
  const auto n = static_cast<std::size_t>(a.num_layers);
  a.layer_is_moe.assign(n, true);
  // LFM2-MoE (Lfm2MoeDecoderLayer) names it num_dense_layers.
  const std::string first_key = f.FirstPresent({"first_k_dense_replace", "num_dense_layers"});
  const std::int64_t first_dense =
      (first_key.empty() ? std::nullopt : f.Int(first_key, 0, a.num_layers))
          .value_or(DefaultFirstDense(family, a.model_type));
  // moe_layer_freq may also be a 0/1 list, one entry per layer (MiMo-V2-Flash, MiniMax-M3;
  // MiMoV2FlashConfig reads a 1 as a sparse layer): read below, after the integer rules.
  const json* freq_value = f.Get("moe_layer_freq");
  const bool freq_list = freq_value != nullptr && freq_value->is_array();
  const std::int64_t freq = freq_list ? 1 : f.Int("moe_layer_freq", 1, kMaxLayers).value_or(1);
  // ArcticConfig's moe_layer_frequency: MoE where (i + 1) % frequency == 0, like Qwen-MoE's step.
  const std::int64_t step =
      f.Int(f.Has("decoder_sparse_step") ? "decoder_sparse_step" : "moe_layer_frequency", 1,
            kMaxLayers)
          .value_or(1);
  const std::int64_t interleave = f.Int("interleave_moe_layer_step", 1, kMaxLayers).value_or(1);
  const std::int64_t start = f.Int("moe_layer_start_index", 0, kMaxLayers).value_or(0);
  std::int64_t end = f.Int("moe_layer_end_index", -1, kMaxLayers).value_or(-1);
  if (end < 0) end = a.num_layers - 1;  // Ernie4_5_MoeConfig: -1 = the last layer
  const std::int64_t interval = f.Int("moe_layer_interval", 1, kMaxLayers).value_or(1);
  // JambaConfig: MoE where i % expert_layer_period == expert_layer_offset (defaults 2 and 1).
  const bool jamba = family == Family::kJamba;
  const std::int64_t period = f.Int("expert_layer_period", 1, kMaxLayers).value_or(jamba ? 2 : 1);
  const std::int64_t offset = f.Int("expert_layer_offset", 0, kMaxLayers).value_or(jamba ? 1 : 0);
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    a.layer_is_moe[static_cast<std::size_t>(i)] =
        i >= first_dense && i % freq == 0 && (i + 1) % step == 0 && (i + 1) % interleave == 0 &&
        i >= start && i <= end && (i + 1) % interval == 0 && i % period == offset;
  }
  if (freq_list) {
    if (freq_value->size() != n) {
      f.Fail("moe_layer_freq", "expected an integer or a list of " + std::to_string(n) +
                                   " entries (1 = MoE, 0 = dense, one per layer), got a list of " +
                                   std::to_string(freq_value->size()));
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        const json& v = (*freq_value)[i];
        if (!v.is_number_integer() || (v.get<std::int64_t>() != 0 && v.get<std::int64_t>() != 1)) {
          f.Fail("moe_layer_freq[" + std::to_string(i) + "]",
                 "expected 0 (dense) or 1 (MoE), got " + detail::Dump(v).substr(0, 40));
          break;
        }
        a.layer_is_moe[i] = a.layer_is_moe[i] && v.get<std::int64_t>() == 1;
      }
    }
  }
  if (f.Has("moe_layers")) {
    // Llama4TextConfig.moe_layers: the MoE layer indices, when given, decide alone.
    const std::optional<std::vector<std::int64_t>> moe =
        f.IntList("moe_layers", 0, std::max<std::int64_t>(a.num_layers - 1, 0));
    if (moe) {
      a.layer_is_moe.assign(n, false);
      for (std::int64_t i : *moe) a.layer_is_moe[static_cast<std::size_t>(i)] = true;
    }
  }
  // Step-3.5: moe_layers_enum, the MoE layer indices as a comma-separated string ("3,4,…,44"),
  // decides alone like Llama 4's moe_layers.
  if (const json* e = f.Get("moe_layers_enum")) {
    std::vector<bool> moe(n, false);
    bool ok = e->is_string();
    if (ok) {
      const std::string& text = e->get_ref<const std::string&>();
      std::size_t pos = 0;
      while (ok && pos <= text.size()) {
        std::size_t end = text.find(',', pos);
        if (end == std::string::npos) end = text.size();
        std::string item = text.substr(pos, end - pos);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        std::int64_t index = -1;
        ok = !item.empty() && item.size() <= 9 &&
             item.find_first_not_of("0123456789") == std::string::npos;
        if (ok) index = std::stoll(item);
        ok = ok && index < a.num_layers;
        if (ok) moe[static_cast<std::size_t>(index)] = true;
        pos = end + 1;
      }
    }
    if (!ok) {
      f.Fail("moe_layers_enum", "expected the MoE layers' indices (0 to " +
                                    std::to_string(a.num_layers - 1) +
                                    ") as a comma-separated string");
    } else {
      a.layer_is_moe = moe;
    }
  }
  MarkDenseList(f, "mlp_only_layers", a);
  // K-EXAONE (remote code): is_moe_layer, one boolean per layer, decides where it is given.
  if (const json* flags = f.Get("is_moe_layer")) {
    if (!flags->is_array() || flags->size() != n) {
      f.Fail("is_moe_layer", "expected a list of " + std::to_string(n) + " booleans");
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        if ((*flags)[i].is_boolean()) a.layer_is_moe[i] = (*flags)[i].get<bool>();
      }
    }
  }
  if (const json* types = f.Get("mlp_layer_types")) {
    if (!types->is_array() || types->size() != n) {
      f.Fail("mlp_layer_types", "expected a list of " + std::to_string(n) +
                                    " strings (\"dense\" or \"sparse\"), got " +
                                    detail::JsonTypeName(*types));
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        const json& t = (*types)[i];
        if (t.is_string() && t.get_ref<const std::string&>() == "dense") a.layer_is_moe[i] = false;
      }
    }
  }
}

void ReadMoe(FieldReader& f, Family family, ModelArch& a) {
  a.num_experts = ReadExpertCount(f);
  if (a.num_experts == 0) return;
  const std::string k_key =
      f.FirstPresent({"num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_k",
                      "moe_topk", "moe_top_k", "top_k_experts"});
  if (k_key.empty()) {
    f.Fail("num_experts_per_tok", "missing required field (the config has " +
                                      std::to_string(a.num_experts) + " routed experts)");
  } else {
    a.experts_per_token = IntOrUniformList(f, k_key, 1, a.num_experts, "").value_or(0);
  }
  // moe_intermediate_size when given (any family); else Mixtral, gpt-oss, MiniMax, DBRX and
  // unknown types build experts as wide as intermediate_size (Llama 4: intermediate_size, the
  // dense blocks use intermediate_size_mlp); DeepSeek/Qwen/GLM/ERNIE/Hunyuan need the field.
  const bool needs_own_width = family == Family::kDeepSeek || family == Family::kGlmMoe ||
                               family == Family::kQwenMoe || family == Family::kQwen3Next ||
                               family == Family::kErnie || family == Family::kHunyuan;
  if (f.Has("moe_intermediate_size") || needs_own_width) {
    if (!f.Has("moe_intermediate_size")) {
      f.FailMissing("moe_intermediate_size");
    } else {
      a.moe_intermediate_size =
          IntOrUniformList(f, "moe_intermediate_size", 1, kMaxWidth).value_or(0);
    }
  } else if (family == Family::kLlama4 && f.Has("intermediate_size")) {
    a.moe_intermediate_size = f.Int("intermediate_size", 1, kMaxWidth, kTooLarge).value_or(0);
  } else {
    a.moe_intermediate_size = a.intermediate_size;
  }
  ReadSharedExperts(f, family, a);
  // Nemotron-3-Super's latent MoE (moe_latent_size; null or absent = none).
  a.moe_latent_size = f.Int("moe_latent_size", 1, kMaxWidth, kTooLarge).value_or(0);
  // LongCat-Flash's identity experts (zero_expert_num): router rows, no weights.
  a.zero_experts = f.Int("zero_expert_num", 0, kMaxExperts).value_or(0);
  // Router biases stored in the checkpoint: gpt-oss GptOssTopKRouter.bias; DeepSeek-V3 noaux_tc,
  // GLM-4.5, ERNIE 4.5 (moe_statics) and MiniMax-M2 (use_routing_bias): e_score_correction_bias.
  a.router_bias = family == Family::kGptOss || family == Family::kGlmMoe ||
                  family == Family::kErnie || family == Family::kMiniMaxM2;
  // DeepseekV3Config's topk_method default is noaux_tc; DeepSeek-V2 ("greedy") and DeepSeekMoE
  // (softmax gate, no bias) have no correction bias.
  const bool greedy_deepseek = a.model_type == "deepseek_v2" || a.model_type == "deepseek";
  const std::string default_method =
      family == Family::kDeepSeek && !greedy_deepseek ? "noaux_tc" : "";
  if (std::optional<std::string> method = f.String("topk_method")) {
    a.router_bias = *method == "noaux_tc";
  } else if (default_method == "noaux_tc") {
    a.router_bias = true;
  }
  // LFM2-MoE: use_expert_bias (default true), a persistent buffer in the checkpoint; AFMoE's
  // router keeps an expert_bias likewise.
  if (a.model_type == "lfm2_moe" || a.model_type == "afmoe" || a.model_type == "laguna")
    a.router_bias = true;  // LagunaTopKRouter's e_score_correction_bias too
  // Ling 3.0 (BailingMoeV3): the router's expert_bias is stored whether or not the config spells
  // moe_router_enable_expert_bias (Ling-3.0-flash's published total holds 512 per MoE layer).
  if (a.model_type == "bailing_hybrid") a.router_bias = true;
  // Arctic's parallel_attn_mlp_res (ArcticDecoderLayer): residual_layernorm + residual_mlp, a
  // dense MLP hidden_size wide beside the experts, counted as one shared expert of that width.
  if (a.model_type == "arctic" && f.Bool("parallel_attn_mlp_res").value_or(false)) {
    a.num_shared_experts = 1;
    a.shared_expert_intermediate_size = a.hidden_size;
    a.norms_per_layer = 3;
  }
  const std::string bias_key = f.FirstPresent({"use_routing_bias", "moe_router_enable_expert_bias",
                                               "use_expert_bias", "use_moe_router_bias"});
  if (!bias_key.empty()) a.router_bias = f.Bool(bias_key).value_or(a.router_bias);
  a.expert_bias = family == Family::kGptOss;
  ReadMoeLayout(f, family, a);
}

// Gemma 4 (Gemma4TextConfig; modeling_gemma4.py Gemma4TextAttention / Gemma4TextDecoderLayer),
// by its fields whatever the model_type:
// - global_head_dim: the head width of full-attention layers; with attention_k_eq_v those layers
//   have num_global_key_value_heads KV heads and no v_proj (the keys serve as values);
// - num_kv_shared_layers: the last layers reuse earlier layers' keys and values (no k_proj,
//   v_proj or k_norm); use_double_wide_mlp makes their MLPs 2 · intermediate_size wide;
// - hidden_size_per_layer_input / vocab_size_per_layer_input: per-layer embeddings (E2B, E4B);
// - enable_moe_block (26B-A4B): the dense MLP runs beside the routed experts in every layer
//   (counted as a shared expert intermediate_size wide) with three more norms, and the router
//   keeps an h-wide input scale and a per-expert output scale (E values, counted as a bias).
// Every Gemma 4 block also has a learned layer_scalar. Gemma 3n shares the per-layer
// embeddings and adds AltUp (altup_num_inputs) and LAuReL (laurel_rank).
void ReadGemma3nAnd4(FieldReader& f, ModelArch& a) {
  const bool gemma4 = a.model_type == "gemma4" || a.model_type == "gemma4_text";
  a.layer_scalar = gemma4;
  a.global_head_dim = f.Int("global_head_dim", 1, kMaxWidth, kTooLarge).value_or(0);
  a.attention_k_eq_v = f.Bool("attention_k_eq_v").value_or(false);
  a.global_kv_heads = f.Int("num_global_key_value_heads", 1, kMaxHeads).value_or(0);
  // Gemma 3n's KV-shared layers keep k_proj / v_proj (unused); Gemma 4's have none.
  const std::int64_t kv_shared = f.Int("num_kv_shared_layers", 0, a.num_layers).value_or(0);
  const bool gemma3n = a.model_type == "gemma3n" || a.model_type == "gemma3n_text";
  a.kv_shared_layers = gemma3n ? 0 : kv_shared;
  if (a.kv_shared_layers > 0) {
    a.warnings.push_back("the checkpoint also stores k_proj, v_proj and k_norm for the last " +
                         std::to_string(a.kv_shared_layers) +
                         " (KV-shared) layers, which the model does not build: counted in the "
                         "stored total, not trained");
  }
  a.altup_inputs = f.Int("altup_num_inputs", 1, 64).value_or(0);
  a.laurel_rank = f.Int("laurel_rank", 0, kMaxWidth).value_or(0);
  a.double_wide_mlp = f.Bool("use_double_wide_mlp").value_or(false);
  a.per_layer_input_width = f.Int("hidden_size_per_layer_input", 0, kMaxWidth).value_or(0);
  a.per_layer_input_vocab = f.Int("vocab_size_per_layer_input", 1, kMaxVocab).value_or(0);
  if (a.global_kv_heads > 0 && a.num_heads % a.global_kv_heads != 0) {
    f.Fail("num_global_key_value_heads", "must divide num_attention_heads (" +
                                             std::to_string(a.num_heads) + "), got " +
                                             std::to_string(a.global_kv_heads));
  }
  if (f.Bool("enable_moe_block").value_or(false) && a.num_experts > 0) {
    a.num_shared_experts = 1;
    a.shared_expert_intermediate_size = a.intermediate_size;
    a.norms_per_layer += 3;
    a.router_scale = true;
    a.router_bias = true;
  }
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
  bool any_dense = false;
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    any_dense = any_dense || (!LayerIsMoe(a, i) && a.HasMlp(i));
  }
  const bool needs_width = any_dense || (a.num_experts > 0 && a.moe_intermediate_size == 0);
  if (needs_width && a.intermediate_size == 0) f.FailMissing("intermediate_size");
}

// The family a config is read with, and the warning when it had to be assumed.
Family ResolveFamily(FieldReader& f, ModelArch& a) {
  std::string architecture;
  if (const json* archs = f.Get("architectures")) {
    if (archs->is_array() && !archs->empty() && (*archs)[0].is_string()) {
      architecture = (*archs)[0].get<std::string>();
    }
  }
  if (KnownModelType(a.model_type)) return FamilyOf(a.model_type);
  const std::string from_architecture = ModelTypeOfArchitecture(architecture);
  if (!from_architecture.empty()) {
    if (!a.model_type.empty()) {
      a.warnings.push_back("model_type \"" + a.model_type +
                           "\" is not one trainmem knows; read with the defaults of \"" +
                           from_architecture + "\" (from architectures: " + architecture +
                           "), every field trainmem knows honoured");
    }
    // The architecture stands for the model from here on: ModelArchToJson writes no
    // `architectures`, so a model_type it could not resolve would be read back as a Llama.
    a.model_type = from_architecture;
    return FamilyOf(from_architecture);
  }
  if (!a.model_type.empty()) {
    a.warnings.push_back(
        "model_type \"" + a.model_type + "\"" +
        (architecture.empty() ? "" : " (" + architecture + ")") +
        " is not one trainmem knows; read as a Llama-style decoder: RMSNorm, gated SiLU MLP, no "
        "biases unless attention_bias / mlp_bias say so, untied unless tie_word_embeddings; every "
        "field trainmem knows honoured");
  }
  return Family::kLlama;
}

// Vision-language and omni checkpoints whose language model is a known family's blocks under
// another name: GLM-4.1V's Glm4vTextDecoderLayer is Glm4's (four norms, q/k/v bias, o_proj
// without), GLM-4.5V's Glm4vMoeText layers are Glm4Moe's (modeling_glm4v.py,
// modeling_glm4v_moe.py).
std::string CanonicalModelType(std::string model_type) {
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"glm4v", "glm4"},
      {"glm4v_text", "glm4"},
      {"glm4v_moe", "glm4_moe"},
      {"glm4v_moe_text", "glm4_moe"},
      // Qwen-Omni thinkers' language models (Qwen3OmniMoeTextConfig, Qwen2_5OmniTextConfig).
      {"qwen3_omni_moe_text", "qwen3_moe"},
      {"qwen2_5_omni_text", "qwen2"},
  };
  for (const auto& [alias, canonical] : kAliases) {
    if (model_type == alias) return std::string(canonical);
  }
  return model_type;
}

// The config.json fields of an unknown model_type that trainmem did not read and that may shape
// the model (sizes, counts, layer lists, flags), for the warning: a renamed field (Step-3.5's
// num_attention_groups, Pangu's num_routed_experts before it was known) would otherwise be lost
// without a word. Training, tokenizer, RoPE and numerics settings are left out.
std::vector<std::string> UnreadShapeKeys(const FieldReader& f) {
  static constexpr std::string_view kIgnored[] = {"architectures",
                                                  "auto_map",
                                                  "_name_or_path",
                                                  "torch_dtype",
                                                  "dtype",
                                                  "transformers_version",
                                                  "use_cache",
                                                  "initializer_range",
                                                  "tokenizer_class",
                                                  "quantization",
                                                  "quantization_config",
                                                  "rope_scaling",
                                                  "rope_parameters",
                                                  "routed_scaling_factor",
                                                  "norm_topk_prob",
                                                  "scoring_func",
                                                  "score_function",
                                                  "topk_group",
                                                  "n_group",
                                                  "num_expert_group",
                                                  "topk_method",
                                                  "max_window_layers",
                                                  "use_sliding_window",
                                                  "sliding_window_pattern",
                                                  "output_router_logits",
                                                  "router_aux_loss_coef",
                                                  "router_jitter_noise",
                                                  "aux_loss_alpha",
                                                  "seq_aux",
                                                  "num_logits_to_keep",
                                                  "pretraining_tp",
                                                  "query_pre_attn_scalar",
                                                  "model_type",
                                                  "moe_router_activation_func",
                                                  "use_grouped_topk",
                                                  "router_dtype",
                                                  "moe_renormalize",
                                                  "attention_softmax_in_fp32",
                                                  "use_flash_attn",
                                                  "is_encoder_decoder",
                                                  "layer_types",
                                                  "attn_implementation",
                                                  "_attn_implementation",
                                                  "bos_token_id",
                                                  "eos_token_id",
                                                  "pad_token_id",
                                                  "chunk_size",
                                                  "time_step_min",
                                                  "time_step_max",
                                                  "time_step_floor",
                                                  "time_step_limit",
                                                  "use_mem_eff_path",
                                                  "use_long_context",
                                                  "tie_word_embeddings",
                                                  "clip_qkv",
                                                  "scale_emb",
                                                  "scale_depth",
                                                  "dim_model_base",
                                                  "embeddings_scale_by_sqrt_dim",
                                                  "attention_window_size",
                                                  "mamba_chunk_size"};
  static constexpr std::string_view kIgnoredEnds[] = {
      "_eps",   "_epsilon", "_dropout", "_token_id",    "_factor",     "_coef", "_coeff",
      "_theta", "_range",   "_scale",   "_softcapping", "_multiplier", "_clip", "_std",
      "_prob",  "_rate",    "_scaling", "_cap",         "_dtype"};
  std::vector<std::string> keys;
  for (const std::string& key : f.UnreadKeys()) {
    // "_comment"-style keys are notes, not fields.
    bool ignored = key.rfind("rope", 0) == 0 || key.rfind('_', 0) == 0 ||
                   key.find("dropout") != std::string::npos;
    for (std::string_view k : kIgnored) ignored = ignored || key == k;
    for (std::string_view end : kIgnoredEnds) {
      ignored = ignored || (key.size() > end.size() &&
                            key.compare(key.size() - end.size(), end.size(), end) == 0);
    }
    if (!ignored) keys.push_back(key);
  }
  return keys;
}

std::string JoinFieldNames(const std::vector<std::string>& keys) {
  if (keys.empty()) return "";
  std::string out;
  const std::size_t shown = std::min<std::size_t>(keys.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) out += (i > 0 ? ", " : "") + keys[i];
  if (keys.size() > shown) out += " (+" + std::to_string(keys.size() - shown) + " more)";
  return out;
}

// An unknown model_type that carries state-space fields (mamba_*, ssm_*) trainmem did not read
// and whose layers were all read as attention has Mamba layers trainmem could not place (PLaMo
// 2's mamba_step 2: every other layer): counted as attention blocks it would be wrong by an
// unknown amount, so it is refused, naming the fields. When its Mamba layers were placed (by
// layers_block_type, attn_layer_indices, …) an unread field only gets the unread-fields note.
// Known hybrids (falcon_h1, bamba, nemotron_h, granitemoehybrid, …) never get here.
void RefuseUnplacedStateSpaceLayers(FieldReader& f, const ModelArch& a,
                                    const std::vector<std::string>& unread) {
  for (std::int64_t i = 0; i < a.num_layers; ++i)
    if (a.MixerOf(i) != MixerKind::kAttention) return;
  std::vector<std::string> ssm;
  for (const std::string& key : unread) {
    if (key.rfind("mamba", 0) == 0 || key.rfind("ssm_", 0) == 0) ssm.push_back(key);
  }
  if (ssm.empty()) return;
  f.Fail("model_type", "\"" + a.model_type + "\" has state-space (Mamba) layers that trainmem " +
                           "cannot place from this config (" + JoinFieldNames(ssm) +
                           "); counted as attention blocks the total would be wrong");
}

// What was read, in a few words, for the warning about an unknown model_type.
std::string Structure(const ModelArch& a) {
  std::string out = a.attention == AttentionKind::kMla
                        ? "multi-head latent attention"
                        : std::to_string(a.num_heads) + " heads / " +
                              std::to_string(a.num_kv_heads) + " KV heads";
  std::int64_t linear = 0;
  for (MixerKind m : a.layer_mixer) linear += m != MixerKind::kAttention ? 1 : 0;
  if (linear > 0) out += ", " + std::to_string(linear) + " linear-attention layers";
  if (a.num_experts > 0) {
    std::int64_t moe = 0;
    for (bool b : a.layer_is_moe) moe += b ? 1 : 0;
    out += ", " + std::to_string(a.num_experts) + " routed experts (top-" +
           std::to_string(a.experts_per_token) + ") in " + std::to_string(moe) + " of " +
           std::to_string(a.num_layers) + " layers";
    if (a.num_shared_experts > 0) out += " + " + std::to_string(a.num_shared_experts) + " shared";
  }
  if (a.num_mtp_layers > 0) out += ", " + std::to_string(a.num_mtp_layers) + " MTP layers";
  return out;
}

// Step-3.5's attention_other_setting: the sliding-window layers' attention, where it differs
// from the full layers' (Step3p5Attention takes num_attention_heads from it for
// sliding_attention layers). Only the query heads may differ: its KV heads and head width must
// match the model's, which is all Step-3.5 does.
void ReadOtherAttention(FieldReader& f, ModelArch& a) {
  const json* other = f.Get("attention_other_setting");
  if (other == nullptr || other->is_null()) return;
  const std::string key = "attention_other_setting";
  if (!other->is_object()) {
    f.Fail(key, "expected an object, got " + detail::JsonTypeName(*other));
    return;
  }
  auto int_field = [&](const char* name) -> std::optional<std::int64_t> {
    const auto it = other->find(name);
    if (it == other->end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 ||
        it->get<std::int64_t>() > kMaxHeads) {
      f.Fail(key + "." + name, "expected a whole number from 1, got " + detail::Dump(*it));
      return std::nullopt;
    }
    return it->get<std::int64_t>();
  };
  const auto type = other->find("attention_type");
  if (type != other->end() && !(type->is_string() && *type == "sliding_attention")) {
    f.Fail(key + ".attention_type",
           "unsupported value " + detail::Dump(*type) + " (trainmem reads sliding_attention)");
    return;
  }
  const std::optional<std::int64_t> heads = int_field("num_attention_heads");
  const std::optional<std::int64_t> groups = int_field("num_attention_groups");
  const std::optional<std::int64_t> width = int_field("head_dim");
  if (groups && *groups != a.num_kv_heads) {
    f.Fail(key + ".num_attention_groups",
           std::to_string(*groups) + " key/value heads on the sliding-window layers and " +
               std::to_string(a.num_kv_heads) +
               " on the others: trainmem models one key/value head count for both");
    return;
  }
  if (width && a.attention == AttentionKind::kGqa && *width != a.head_dim) {
    f.Fail(key + ".head_dim", "a head width of " + std::to_string(*width) +
                                  " on the sliding-window layers and " +
                                  std::to_string(a.head_dim) +
                                  " on the others: trainmem models one head width for both");
    return;
  }
  if (!heads || *heads == a.num_heads) return;
  if (a.num_kv_heads > 0 && *heads % a.num_kv_heads != 0) {
    f.Fail(key + ".num_attention_heads", std::to_string(*heads) +
                                             " query heads are not a multiple of the " +
                                             std::to_string(a.num_kv_heads) + " key/value heads");
    return;
  }
  // Without sliding-window layers the setting describes none of the model's layers.
  if (!a.layer_uses_sliding.empty()) a.sliding_heads = *heads;
}

// Laguna's attention (modular_laguna.py LagunaAttention): num_attention_heads_per_layer gives
// each layer's query heads (q_proj, o_proj and g_proj follow them); the published models give
// the full-attention layers num_attention_heads and every sliding-window layer one other count,
// which is ModelArch::sliding_heads. `gating` true / "per-head" (or every gating_types entry
// per_head) builds g_proj, h → one gate per query head, no bias (head_gate); "per-element" a
// gate per query channel, h → heads · head_dim (attention_output_gate's count).
void ReadLagunaAttention(FieldReader& f, ModelArch& a) {
  if (const json* heads = f.Get("num_attention_heads_per_layer")) {
    const std::string key = "num_attention_heads_per_layer";
    if (!heads->is_array() || static_cast<std::int64_t>(heads->size()) != a.num_layers) {
      f.Fail(key, "expected a list of " + std::to_string(a.num_layers) + " head counts");
      return;
    }
    std::int64_t full = a.num_heads, sliding = 0;
    for (std::int64_t i = 0; i < a.num_layers; ++i) {
      const json& h = (*heads)[static_cast<std::size_t>(i)];
      if (!h.is_number_integer() || h.get<std::int64_t>() < 1 ||
          h.get<std::int64_t>() > kMaxHeads) {
        f.Fail(key, "entry " + std::to_string(i) + ": expected a whole number from 1, got " +
                        detail::Dump(h));
        return;
      }
      const std::int64_t n = h.get<std::int64_t>();
      std::int64_t& expected = a.FullAttentionLayer(i) ? full : sliding;
      if (expected == 0) expected = n;
      if (n != expected) {
        f.Fail(key, "layer " + std::to_string(i) + " has " + std::to_string(n) +
                        " query heads: trainmem models num_attention_heads (" +
                        std::to_string(a.num_heads) +
                        ") on full-attention layers and one count on sliding-window layers");
        return;
      }
      if (a.num_kv_heads > 0 && n % a.num_kv_heads != 0) {
        f.Fail(key, "layer " + std::to_string(i) + ": " + std::to_string(n) +
                        " query heads are not a multiple of the " + std::to_string(a.num_kv_heads) +
                        " key/value heads");
        return;
      }
    }
    if (sliding > 0 && sliding != a.num_heads) a.sliding_heads = sliding;
  }
  std::string gating;
  if (const json* g = f.Get("gating"); g != nullptr && !g->is_null()) {
    if (g->is_boolean()) {
      gating = g->get<bool>() ? "per_head" : "";
    } else if (g->is_string()) {
      gating = g->get<std::string>();
      std::replace(gating.begin(), gating.end(), '-', '_');
    } else {
      f.Fail("gating", "expected true, false, \"per-head\" or \"per-element\"");
    }
  }
  if (const json* types = f.Get("gating_types"); types != nullptr && types->is_array()) {
    std::string common;
    for (const json& t : *types) {
      std::string type = t.is_string() ? t.get<std::string>() : "";
      std::replace(type.begin(), type.end(), '-', '_');
      if (common.empty()) common = type;
      if (type != common) {
        f.Fail("gating_types", "layers gate differently (" + common + ", " + type +
                                   "): trainmem models one gate kind for every layer");
        return;
      }
    }
    if (!common.empty()) gating = common;
  }
  if (gating == "per_head") {
    a.head_gate = true;
  } else if (gating == "per_element") {
    a.attention_output_gate = true;
  } else if (!gating.empty() && gating != "none") {
    f.Fail("gating", "unknown value \"" + gating + "\" (expected per-head or per-element)");
  }
}

// ERNIE-4.5-VL writes its MoE fields per modality: moe_num_experts and moe_intermediate_size as
// [text, vision], moe_layer_start_index / moe_layer_end_index as one range each
// (convert_ernie4_5_vl_moe_to_hf.py: layer i is sparse when (i + 1) % moe_layer_interval == 0
// and it lies in the range). Returns the config with the text pool's values in those fields and
// the vision pool in trainmem's vision_experts / vision_expert_intermediate_size; ranges that
// cover different layers of the model are an error (trainmem puts both pools on the same
// layers). Other configs: nullopt, read as they are.
std::optional<json> ErnieVlExperts(const json& config, std::vector<Error>& errors,
                                   const std::string& path) {
  const auto type = config.find("model_type");
  if (type == config.end() || !type->is_string() ||
      (*type != "ernie4_5_moe_vl" && *type != "ernie4_5_vl_moe")) {
    return std::nullopt;
  }
  auto pair = [&](const char* key) -> const json* {
    const auto it = config.find(key);
    if (it == config.end() || !it->is_array()) return nullptr;
    if (it->size() != 2 || !(*it)[0].is_number_integer() || !(*it)[1].is_number_integer()) {
      errors.push_back({detail::JoinPath(path, key),
                        "expected [text, vision]: two whole numbers, got " + detail::Dump(*it)});
      return nullptr;
    }
    return &*it;
  };
  json out = config;
  if (const json* experts = pair("moe_num_experts")) {
    out["moe_num_experts"] = (*experts)[0];
    out["vision_experts"] = (*experts)[1];
  }
  if (const json* width = pair("moe_intermediate_size")) {
    out["moe_intermediate_size"] = (*width)[0];
    out["vision_expert_intermediate_size"] = (*width)[1];
  }
  const auto layers = config.find("num_hidden_layers");
  const std::int64_t last =
      layers != config.end() && layers->is_number_integer() ? layers->get<std::int64_t>() - 1 : -1;
  const json* start = pair("moe_layer_start_index");
  const json* end = pair("moe_layer_end_index");
  auto clamp_end = [&](const json& v) {
    const std::int64_t e = v.get<std::int64_t>();
    return e < 0 || e > last ? last : e;
  };
  if (start != nullptr) out["moe_layer_start_index"] = (*start)[0];
  if (end != nullptr) out["moe_layer_end_index"] = clamp_end((*end)[0]);
  if ((start != nullptr && (*start)[0] != (*start)[1]) ||
      (end != nullptr && clamp_end((*end)[0]) != clamp_end((*end)[1]))) {
    errors.push_back(
        {detail::JoinPath(path, start != nullptr ? "moe_layer_start_index" : "moe_layer_end_index"),
         "the text and vision experts cover different layers; trainmem puts both "
         "pools on the same layers"});
  }
  return out;
}

// MiniCPM-V (openbmb remote code, model_type "minicpmv") keeps its language model's fields at the
// top and names the model by `version`: Llama3-V 2.5 runs Llama 3, MiniCPM-V 2.6 Qwen2 (q/k/v
// biases: modeling_minicpmv.py builds Qwen2ForCausalLM), MiniCPM-V 4.5 Qwen3 (per-head q/k
// norms). Returns the config under that model_type, with a note; other versions and configs:
// nullopt.
std::optional<json> MiniCpmVLanguageModel(const json& config, std::vector<std::string>& warnings) {
  const auto type = config.find("model_type");
  const auto version = config.find("version");
  if (type == config.end() || *type != "minicpmv" || version == config.end() ||
      !version->is_number())
    return std::nullopt;
  const double v = version->get<double>();
  const char* text = std::fabs(v - 2.5) < 1e-6   ? "llama"
                     : std::fabs(v - 2.6) < 1e-6 ? "qwen2"
                     : std::fabs(v - 4.5) < 1e-6 ? "qwen3"
                                                 : nullptr;
  if (text == nullptr) return std::nullopt;
  json out = config;
  out["model_type"] = text;
  warnings.push_back(std::string("MiniCPM-V ") + detail::Dump(*version) +
                     ": its language model is read as " + text);
  return out;
}

Result<ModelArch> ParseFlat(const json& given, const std::string& path,
                            std::vector<std::string> warnings) {
  std::vector<Error> errors;
  std::optional<json> rewritten = ErnieVlExperts(given, errors, path);
  if (!errors.empty()) return Result<ModelArch>::Failure(std::move(errors));
  if (!rewritten) rewritten = MiniCpmVLanguageModel(given, warnings);
  const json& config = rewritten ? *rewritten : given;
  FieldReader f(&config, path, errors, FieldReader::Null::kAbsent);
  ModelArch a;
  a.warnings = std::move(warnings);
  a.model_type = CanonicalModelType(f.String("model_type").value_or(""));
  const Family family = ResolveFamily(f, a);
  ReadSizes(f, family, a);
  if (!errors.empty()) return Result<ModelArch>::Failure(std::move(errors));
  ReadAttention(f, family, a);
  ReadMlpAndNorms(f, family, a);
  ReadMoe(f, family, a);
  ReadGemma3nAnd4(f, a);
  if (a.num_experts > 0 && a.moe_intermediate_size == 0)
    a.moe_intermediate_size = a.intermediate_size;
  // GraniteMoeHybridDecoderLayer always builds shared_mlp (GraniteMoeHybridMLP,
  // shared_intermediate_size wide) and the routed experts only when num_local_experts > 0: a dense
  // Granite 4.0 model's MLP is the shared one.
  if (a.model_type == "granitemoehybrid" && a.num_experts == 0) {
    a.intermediate_size =
        f.Int("shared_intermediate_size", 1, kMaxWidth).value_or(a.intermediate_size);
  }
  ReadDeepseekV4(f, a);
  // JetMoE's attention is a mixture of experts routed like its MLP (num_local_experts, top
  // num_experts_per_tok): modeling_jetmoe.py builds the MoA and both output biases always.
  a.attention_experts = a.model_type == "jetmoe" && a.num_experts > 0;
  if (a.model_type == "jetmoe") f.Bool("bias");  // JetMoE's biases are unconditional
  // Cross-layer attention (Hunyuan-Large: use_cla, cla_share_factor; its decoder layers with
  // layer_idx % cla_share_factor != 0 build q_proj and o_proj only).
  if (f.Bool("use_cla").value_or(false)) {
    a.cla_share_factor = f.Int("cla_share_factor", 1, kMaxLayers).value_or(1);
  } else {
    f.Int("cla_share_factor", 0, kMaxLayers);
  }
  const std::size_t family_warning = a.warnings.size();
  ReadLayerKinds(f, family, a);
  ReadOtherAttention(f, a);
  if (a.model_type == "laguna") ReadLagunaAttention(f, a);
  ReadSlidingWindowShapes(f, a);
  ReadLowRankQuery(f, a);
  ReadOverrides(f, a);
  // LongcatFlashConfig's router_bias is the classifier's own bias (false in LongCat-Flash-Chat);
  // its e_score_correction_bias is always stored (LongcatFlashTopkRouter).
  if (a.model_type == "longcat_flash" && a.num_experts > 0) a.router_bias = true;
  if (family_warning > 0 && !KnownModelType(a.model_type)) {
    a.warnings[family_warning - 1] += "; found: " + Structure(a);
    const std::vector<std::string> unread = UnreadShapeKeys(f);
    if (!unread.empty()) {
      a.warnings.push_back("config.json fields trainmem did not read: " + JoinFieldNames(unread) +
                           "; if they change the model's shape, its count is off");
    }
    RefuseUnplacedStateSpaceLayers(f, a, unread);
  }
  if (errors.empty()) CheckCombination(f, a);
  if (!errors.empty()) return Result<ModelArch>::Failure(std::move(errors));
  ParamMath math;
  CountParamsChecked(a, true, math);
  auto tensors = std::make_shared<std::vector<ParamTensor>>(ParamTensorsChecked(a, math));
  if (math.overflowed()) {
    return Result<ModelArch>::Failure(
        path.empty() ? "model" : path,
        "the parameter count overflows 64-bit integers; check the sizes for a typo");
  }
  a.tensors = std::move(tensors);
  return Result<ModelArch>::Success(std::move(a));
}

// DBRX nests its attention and MoE sizes (DbrxConfig attn_config / ffn_config): lift them to the
// flat HF names the readers use. Keys already at the top level win.
json FlattenNested(const json& config) {
  json flat = config;
  auto lift = [&](const char* section, const char* key, const char* as) {
    auto s = config.find(section);
    if (s == config.end() || !s->is_object()) return;
    auto v = s->find(key);
    if (v == s->end() || flat.contains(as)) return;
    flat[as] = *v;
  };
  lift("attn_config", "kv_n_heads", "num_key_value_heads");
  lift("ffn_config", "moe_num_experts", "num_local_experts");
  lift("ffn_config", "moe_top_k", "num_experts_per_tok");
  lift("ffn_config", "ffn_hidden_size", "moe_intermediate_size");
  lift("ffn_config", "ffn_hidden_size", "intermediate_size");
  return flat;
}

// openPangu-Ultra-MoE's names for DeepSeek-V3's fields (OpenPanguMoEConfig), lifted to the
// names the readers use when those are absent: num_routed_experts, attention_{q,kv}_lora_dim,
// attention_qk_dim (the no-RoPE part), attention_qk_rope_dim, attention_v_dim, num_mtp_layers
// (num_dense_layers is read as it is).
json PanguAliases(const json& config) {
  static constexpr std::pair<const char*, const char*> kAliases[] = {
      {"num_routed_experts", "n_routed_experts"},     {"attention_q_lora_dim", "q_lora_rank"},
      {"attention_kv_lora_dim", "kv_lora_rank"},      {"attention_qk_dim", "qk_nope_head_dim"},
      {"attention_qk_rope_dim", "qk_rope_head_dim"},  {"attention_v_dim", "v_head_dim"},
      {"num_mtp_layers", "num_nextn_predict_layers"},
  };
  json out = config;
  for (const auto& [from, to] : kAliases) {
    if (config.contains(from) && !config.contains(to)) out[to] = config[from];
  }
  return out;
}

// A multimodal checkpoint's text_config may name only its model_type and a few fields and leave
// the shape to the config class's defaults (llava-hf/llava-1.5-7b-hf: model_type "llama",
// vocab_size, max_position_embeddings). transformers fills them from the class's __init__
// defaults; so does this, for the classes such sub-configs name, with a note saying which.
//   LlamaConfig:   hidden 4096, intermediate 11008, 32 layers, 32 heads (KV = heads)
//   MistralConfig: hidden 4096, intermediate 14336, 32 layers, 32 heads, 8 KV heads
//   Qwen2Config:   hidden 4096, intermediate 22016, 32 layers, 32 heads, 32 KV heads
//   Gemma3TextConfig: hidden 2304, intermediate 9216, 26 layers, 8 heads, 4 KV heads, head_dim
//                  256 (gemma-3-4b-it's text_config gives only hidden, MLP and layers)
// vocab_size defaults (32000 / 32000 / 151936 / 262208) apply when absent too.
void FillSubConfigDefaults(json& text, const std::string& key, std::vector<std::string>& warnings) {
  struct Defaults {
    const char* model_type;
    const char* config_class;
    std::int64_t hidden, intermediate, layers, heads, kv_heads, vocab;
    std::int64_t head_dim;  // 0: hidden / heads, not written
  };
  static constexpr Defaults kDefaults[] = {
      {"llama", "LlamaConfig", 4096, 11008, 32, 32, 32, 32000, 0},
      {"mistral", "MistralConfig", 4096, 14336, 32, 32, 8, 32000, 0},
      {"qwen2", "Qwen2Config", 4096, 22016, 32, 32, 32, 151936, 0},
      {"gemma3_text", "Gemma3TextConfig", 2304, 9216, 26, 8, 4, 262208, 256},
  };
  const auto type_it = text.find("model_type");
  if (type_it == text.end() || !type_it->is_string()) return;  // a wrong type is reported later
  const std::string type = type_it->get<std::string>();
  for (const Defaults& d : kDefaults) {
    if (type != d.model_type) continue;
    const std::pair<const char*, std::int64_t> fields[] = {{"hidden_size", d.hidden},
                                                           {"intermediate_size", d.intermediate},
                                                           {"num_hidden_layers", d.layers},
                                                           {"num_attention_heads", d.heads},
                                                           {"num_key_value_heads", d.kv_heads},
                                                           {"vocab_size", d.vocab},
                                                           {"head_dim", d.head_dim}};
    std::string filled;
    for (const auto& [name, value] : fields) {
      if (value == 0 || (text.contains(name) && !text[name].is_null())) continue;
      text[name] = value;
      filled += (filled.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(value);
    }
    if (!filled.empty()) {
      warnings.push_back(key + " leaves its shape to " + d.config_class +
                         "'s defaults, as transformers does: " + filled);
    }
    return;
  }
}

// LongCat-Flash (modeling_longcat_flash.py, LongcatFlashDecoderLayer): each of num_layers layers
// runs two MLA + dense-MLP sublayers (self_attn[0..1], mlps[0..1], ffn_hidden_size wide, four
// RMSNorms) and one shortcut-connected MoE (n_routed_experts of expert_ffn_hidden_size, top
// moe_topk) fed from the first sublayer. Read as 2 · num_layers blocks: the even block holds the
// MoE and its dense MLP (as a shared expert ffn_hidden_size wide), the odd block the second
// dense MLP. The router also scores zero_expert_num identity experts (ModelArch::zero_experts).
// The checkpoint's MTP layer, which config.json does not announce, is not counted (1.2B, 0.21%).
// Returns the config unchanged unless it spells num_layers, with no num_hidden_layers (the
// checkpoint's config.json), with num_hidden_layers = 2 · num_layers (LongcatFlashConfig as
// transformers saves it) or with num_hidden_layers = num_layers (both names for the same 28); a
// config written back by trainmem already holds the blocks and spells no num_layers.
json LongcatAsBlocks(const json& config, std::vector<std::string>& warnings) {
  const auto layers = config.find("num_layers");
  if (layers == config.end() || !layers->is_number_integer() || layers->get<std::int64_t>() < 1 ||
      layers->get<std::int64_t>() > kMaxLayers / 2) {
    return config;
  }
  if (const auto hidden = config.find("num_hidden_layers");
      hidden != config.end() && !(hidden->is_number_integer() &&
                                  (hidden->get<std::int64_t>() == 2 * layers->get<std::int64_t>() ||
                                   hidden->get<std::int64_t>() == layers->get<std::int64_t>()))) {
    return config;
  }
  json blocks = config;
  blocks.erase("num_layers");
  blocks["num_hidden_layers"] = 2 * layers->get<std::int64_t>();
  auto copy = [&](const char* from, const char* to) {
    if (config.contains(from) && !config.contains(to)) blocks[to] = config[from];
  };
  copy("ffn_hidden_size", "intermediate_size");
  copy("expert_ffn_hidden_size", "moe_intermediate_size");
  copy("ffn_hidden_size", "shared_expert_intermediate_size");
  if (!config.contains("moe_layer_freq")) blocks["moe_layer_freq"] = 2;
  warnings.push_back("LongCat-Flash: each of the " + std::to_string(layers->get<std::int64_t>()) +
                     " layers is counted as two attention + MLP blocks with the MoE beside the "
                     "first (pipeline stages split these blocks); the router's zero-computation "
                     "experts hold router rows only");
  return blocks;
}

// Counts a multimodal config's vision tower into arch.vision_params and says what was counted
// (the published total includes the tower; training.vision_tower decides what an estimate holds).
void AddVisionTower(const json& config, const std::string& path, ModelArch& arch) {
  const VisionTower tower = CountVisionTower(config, arch.hidden_size, path);
  std::string note;
  if (!tower.name.empty()) {
    arch.vision_params = tower.params;
    note = "multimodal config: the checkpoint also holds the " + tower.name +
           " vision tower and its projector (" + detail::WithThousands(tower.params) +
           " parameters, counted from its config); training.vision_tower says whether the job "
           "loads it frozen or trains it (default: not loaded, the language model alone)";
  } else if (!tower.unread.empty()) {
    note = "multimodal config: the language model is counted; the vision tower is not (" +
           tower.unread + "), so the published total is larger";
  } else {
    note =
        "multimodal config: the language model is counted; this vision tower (vision_config) "
        "and its projector are not, so the published total is larger";
  }
  arch.warnings.insert(arch.warnings.begin(), std::move(note));
  if (!tower.note.empty()) arch.warnings.push_back(tower.note);
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
  // Multimodal checkpoints (Gemma 3, Llama 4, Qwen3.5, …) keep the language model under
  // text_config (InternVL: llm_config; DeepSeek-VL2: language_config); their vision tower is not
  // described in a way trainmem counts.
  std::vector<Error> unused;
  FieldReader top(&hf_config, path, unused, FieldReader::Null::kAbsent);
  // Qwen2.5-Omni / Qwen3-Omni: the language model is the thinker's text_config; the talker,
  // code2wav and the audio and vision towers are not counted.
  const nlohmann::json* thinker = top.Get("thinker_config");
  if (top.FirstPresent({"hidden_size", "n_embd", "n_embed", "d_model", "text_config"}).empty() &&
      thinker != nullptr && thinker->is_object()) {
    Result<ModelArch> inner = ParseModelArch(*thinker, top.Path("thinker_config"));
    if (inner.ok()) {
      ModelArch arch = inner.value();
      arch.warnings.insert(arch.warnings.begin(),
                           "omni config: the thinker's language model is counted; the talker, "
                           "the audio and vision towers and the speech decoder are not");
      return Result<ModelArch>::Success(std::move(arch));
    }
    return inner;
  }
  // Encoder-decoder models (T5, BART, Whisper: is_encoder_decoder) are not what trainmem models:
  // said plainly instead of a missing-field error about decoder names they do not use.
  if (const auto enc_dec = hf_config.find("is_encoder_decoder");
      enc_dec != hf_config.end() && enc_dec->is_boolean() && enc_dec->get<bool>()) {
    const auto type = hf_config.find("model_type");
    const std::string name =
        type != hf_config.end() && type->is_string() ? type->get<std::string>() : "this model";
    return Result<ModelArch>::Failure(
        top.Path("is_encoder_decoder"),
        name +
            " is an encoder-decoder model; trainmem estimates decoder-only language models "
            "(and multimodal ones built on them)");
  }
  // DeepSeek-VL2 and Janus: language_config.
  const std::string text_key = top.FirstPresent({"text_config", "llm_config", "language_config"});
  const nlohmann::json* text_config = text_key.empty() ? nullptr : top.Get(text_key);
  const bool vision = model_detail::TowerConfigOf(hf_config) != nullptr;
  if (top.FirstPresent({"hidden_size", "n_embd", "n_embed", "d_model"}).empty() &&
      text_config != nullptr && text_config->is_object()) {
    std::vector<std::string> warnings;
    nlohmann::json text = *text_config;
    // The text model's own architectures/model_type win; else the top level's name it.
    if (!text.contains("model_type") && hf_config.contains("model_type")) {
      text["model_type"] = hf_config["model_type"];
    }
    if (!text.contains("architectures") && hf_config.contains("architectures")) {
      text["architectures"] = hf_config["architectures"];
    }
    if (!text.contains("tie_word_embeddings") && hf_config.contains("tie_word_embeddings")) {
      text["tie_word_embeddings"] = hf_config["tie_word_embeddings"];
    }
    model_detail::FillSubConfigDefaults(text, text_key, warnings);
    Result<ModelArch> arch = model_detail::ParseFlat(model_detail::FlattenNested(text),
                                                     top.Path(text_key), std::move(warnings));
    if (vision && arch.ok()) model_detail::AddVisionTower(hf_config, path, arch.value());
    return arch;
  }
  if (vision) {
    // Qwen2-VL / Qwen2.5-VL (transformers < 4.53) and ERNIE-4.5-VL write the language model's
    // fields at the top.
    Result<ModelArch> arch = model_detail::ParseFlat(hf_config, path, {});
    if (arch.ok()) model_detail::AddVisionTower(hf_config, path, arch.value());
    return arch;
  }
  if (hf_config.contains("attention_kv_lora_dim") || hf_config.contains("num_routed_experts")) {
    return model_detail::ParseFlat(model_detail::PanguAliases(hf_config), path, {});
  }
  // NemotronHConfig (transformers 5) derives num_hidden_layers from layers_block_type.
  if (hf_config.value("model_type", nlohmann::json()) == "nemotron_h" &&
      !hf_config.contains("num_hidden_layers") && hf_config.contains("layers_block_type") &&
      hf_config["layers_block_type"].is_array()) {
    nlohmann::json counted = hf_config;
    counted["num_hidden_layers"] = hf_config["layers_block_type"].size();
    return model_detail::ParseFlat(counted, path, {});
  }
  if (hf_config.value("model_type", nlohmann::json()) == "longcat_flash") {
    std::vector<std::string> warnings;
    const nlohmann::json blocks = model_detail::LongcatAsBlocks(hf_config, warnings);
    return model_detail::ParseFlat(blocks, path, std::move(warnings));
  }
  if (hf_config.contains("attn_config") || hf_config.contains("ffn_config")) {
    return model_detail::ParseFlat(model_detail::FlattenNested(hf_config), path, {});
  }
  return model_detail::ParseFlat(hf_config, path, {});
}

}  // namespace trainmem
