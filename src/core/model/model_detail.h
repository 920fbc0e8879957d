// Helpers shared by model.cpp, model_parse.cpp, model_json.cpp and presets.cpp. Not a public
// API: front-ends use model.h and presets.h.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/field_reader.h"
#include "core/model/model.h"
#include "core/result.h"

namespace trainmem {
namespace model_detail {

using nlohmann::json;

// Sane upper bounds for architecture fields. The largest published models are far below them
// (hidden 16384, vocab 262144, 126 layers, 384 experts); anything larger is a typo, and the
// bounds keep every product in CountParams inside int64 (see ParamMath).
constexpr std::int64_t kMaxWidth = 1000000;    // hidden, intermediate, head_dim, ranks
constexpr std::int64_t kMaxVocab = 100000000;  // 1e8 tokens
constexpr std::int64_t kMaxLayers = 10000;
constexpr std::int64_t kMaxHeads = 100000;
constexpr std::int64_t kMaxExperts = 100000;
constexpr std::int64_t kMaxPositions = 1000000000;        // 1e9 positions (Llama 4 Scout: 1e7)
constexpr std::int64_t kMaxVisionParams = 1000000000000;  // 1e12 (InternViT-6B: 5.9e9)

// `value` rounded up to a multiple of `multiple` (> 0): padded vocabularies, MLP widths rounded
// to 256 (LFM2, DeciLM). Callers keep both within the bounds above, so nothing overflows.
constexpr std::int64_t RoundUpToMultiple(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// Model families: the HF model_type decides defaults the config.json does not spell out
// (biases, norms, tie, MLP shape). Every field that is present is read whatever the family
// (ParseModelArch); the family only fills what is absent. An unknown model_type is looked up by
// its `architectures` class name, and otherwise read as a Llama-like decoder with a warning.
enum class Family {
  kLlama,       // llama, mistral, phi3 (fused qkv / gate_up: same count), and unknown types
  kQwen2,       // qwen2: q/k/v bias always on (Qwen2Attention)
  kQwen3,       // qwen3: per-head q_norm/k_norm
  kMixtral,     // mixtral: num_local_experts, experts as wide as intermediate_size
  kQwenMoe,     // qwen2_moe, qwen3_moe: num_experts, decoder_sparse_step, mlp_only_layers
  kDeepSeek,    // deepseek_v2, deepseek_v3, deepseek_v32 (+ MLA, MTP, indexer)
  kGlmMoe,      // glm4_moe: DeepSeek-style routing, GQA attention
  kGptOss,      // gpt_oss: biases everywhere, sinks, expert biases
  kGemma2,      // gemma, gemma2: 4 norms per layer, tied
  kGemma3,      // gemma3_text: gemma2 + qk norm
  kGpt2,        // gpt2: learned positions, LayerNorm, plain GELU MLP, n_embd names
  kStarcoder2,  // starcoder2 / bloom / Megatron GPT: LayerNorm, plain MLP, use_bias
  kLlama4,      // llama4_text: interleaved MoE + shared expert, intermediate_size_mlp, L2 qk norm
  kQwen3Next,   // qwen3_next, qwen3_5: Gated DeltaNet / gated attention hybrid, MTP
  kMiniMax,     // minimax (Text-01, M1): lightning / softmax hybrid (attn_type_list)
  kMiniMaxM2,   // minimax_m2: full-width qk norm, routing bias
  kHunyuan,     // hunyuan_v1_moe / _dense: per-layer lists, per-head qk norm, tied
  kDbrx,        // dbrx: d_model / n_layers, nested attn_config / ffn_config, bias-free LayerNorm
  kErnie,       // ernie4_5(_moe): moe_k, moe_layer_start_index, use_bias, tied
  kCohere,      // cohere, cohere2 (Command-R): parallel block, one bias-free LayerNorm, tied
  kOlmo2,       // olmo2, olmo3: post-norms only, full-width q/k norms
  kPhi,         // phi (Phi-1/1.5/2): parallel block, one LayerNorm, biases, plain GELU MLP
  kGptNeox,     // gpt_neox (Pythia, GPT-NeoX-20B): LayerNorm, plain GELU MLP, biases, untied
  kFalcon,      // falcon / RefinedWeb(Model): multi-query or num_kv_heads, `bias`, 1–2 LayerNorms
  kChatGlm,     // chatglm (ChatGLM2/3, GLM-4 remote code): num_layers, padded_vocab_size, SwiGLU
  kNemotron,    // nemotron (Nemotron-4 / Minitron): LayerNorm1P with bias, plain ReLU² MLP
  kOpt,         // opt: learned positions (+2 rows), LayerNorm, plain ReLU MLP, enable_bias, tied
  kGptJ,        // gptj: parallel block, one LayerNorm, bias-free attention, lm_head bias
  kMpt,         // mpt: d_model / expansion_ratio, no_bias, ALiBi, tied
  kQwen1,       // qwen (Qwen-1): c_attn with bias, MLP intermediate_size / 2 wide, untied
  kStableLm,    // stablelm: LayerNorm with bias, gated MLP, optional per-head qk LayerNorms
  kMamba,       // mamba, falcon_mamba (mamba2): every block one RMSNorm and a Mamba-1 (Mamba-2)
                // mixer, no MLP
  kJamba,       // jamba: Mamba-1 and attention layers (attn_layer_period), MoE every other layer
};
Family FamilyOf(std::string_view model_type);
// Whether model_type names a family above (else FamilyOf falls back to Llama).
bool KnownModelType(std::string_view model_type);
// The model_type of a Hugging Face architecture class ("DeepseekV3ForCausalLM" → "deepseek_v3"),
// or "" when it is not one we know.
std::string ModelTypeOfArchitecture(std::string_view architecture);
// Whether the family learns an absolute position table (GPT-2, OPT) unless a config says not.
bool DefaultLearnedPositions(Family f);

// int64 arithmetic that records overflow instead of wrapping (signed overflow is undefined).
// Results saturate at INT64_MAX so a missed check still shows an absurd number, not a negative.
class ParamMath {
 public:
  std::int64_t Mul(std::int64_t a, std::int64_t b);
  std::int64_t Mul(std::int64_t a, std::int64_t b, std::int64_t c) { return Mul(Mul(a, b), c); }
  std::int64_t Add(std::int64_t a, std::int64_t b);
  bool overflowed() const { return overflowed_; }

 private:
  bool overflowed_ = false;
};

// Whether block `layer` routes to experts (every block when layer_is_moe is empty).
bool LayerIsMoe(const ModelArch& arch, std::int64_t layer);

// Counting with overflow detection; the public Count* functions wrap these.
std::vector<LayerParams> CountLayerParamsChecked(const ModelArch& arch, ParamMath& math);
std::int64_t MtpModuleParamsChecked(const ModelArch& arch, bool with_embedding_copies,
                                    ParamMath& math);
ParamCounts CountParamsChecked(const ModelArch& arch, bool as_stored, ParamMath& math);
// The same from the blocks' counts CountLayerParamsChecked gave.
ParamCounts CountParamsOfLayersChecked(const ModelArch& arch,
                                       const std::vector<LayerParams>& layers, bool as_stored,
                                       ParamMath& math);
std::vector<ParamTensor> ParamTensorsChecked(const ModelArch& arch, ParamMath& math);

using detail::FieldReader;  // core/config/field_reader.h: the one JSON field reader

// Parts of ParseModelArch kept in model_parse_layers.cpp.
// Which layers use sliding-window attention and which token mixer each layer has (layer_types,
// attn_type_list, full_attention_interval, or the family's pattern).
void ReadLayerKinds(FieldReader& fields, Family family, ModelArch& arch);
// trainmem's own keys that override what model_type implies (see ModelArchToJson).
void ReadOverrides(FieldReader& fields, ModelArch& arch);
// Attention shapes read by field (model_parse_attention.cpp): sliding-window layers shaped unlike
// the others (MiMo-V2-Flash's swa_* keys, hybrid_layer_pattern, v_head_dim narrower than
// head_dim, sinks on the sliding layers) and a low-rank query (Step3's share_q_dim).
void ReadSlidingWindowShapes(FieldReader& fields, ModelArch& arch);
void ReadLowRankQuery(FieldReader& fields, ModelArch& arch);

// Where a multimodal config describes its vision tower: vision_config, or Phi-3-vision's
// img_processor (its key in `key`); nullptr when it describes none (null counts as absent).
const json* TowerConfigOf(const json& config, std::string* key = nullptr);

// A multimodal checkpoint's vision tower and projector (model_vision.cpp), counted from its
// TowerConfigOf object and the top-level `config`; `text_hidden` is the language model's width
// the projector writes. `name` empty = not counted: no tower, a tower trainmem does not know
// (`unread` empty) or a field it cannot read (`unread` says which and why).
struct VisionTower {
  std::int64_t params = 0;
  std::string name;    // "SigLIP", "CLIP ViT", … for the note
  std::string unread;  // why a known tower was not counted
  std::string note;    // what the count leaves out beside the tower, when something
};
VisionTower CountVisionTower(const json& config, std::int64_t text_hidden, const std::string& path);

}  // namespace model_detail
}  // namespace trainmem
