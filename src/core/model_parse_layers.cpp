// Parts of ParseModelArch: per-layer sliding windows and trainmem's override keys.
#include "core/config_detail.h"
#include "core/model.h"
#include "core/model_detail.h"

namespace trainmem {
namespace model_detail {

namespace {

// The family's pattern when config.json has no layer_types list:
//   Gemma 2: every other layer, starting with layer 0 (Gemma2DecoderLayer: not layer_idx % 2);
//   Gemma 3: all but every sliding_window_pattern-th layer (default 6, Gemma3TextConfig);
//   gpt-oss: alternating, starting with sliding (GptOssConfig default layer_types);
//   Qwen2/Qwen3 with use_sliding_window: layers from max_window_layers on;
//   Mistral/Mixtral/StarCoder2 and the rest: every layer when sliding_window is set.
bool FamilySlides(FieldReader& f, Family family, std::int64_t layer, std::int64_t num_layers) {
  switch (family) {
    case Family::kGemma2:
    case Family::kGptOss:
      return layer % 2 == 0;
    case Family::kGemma3: {
      const std::int64_t pattern = f.Int("sliding_window_pattern", 1, num_layers).value_or(6);
      return (layer + 1) % pattern != 0;
    }
    case Family::kQwen2:
    case Family::kQwen3:
    case Family::kQwenMoe:
      return layer >= f.Int("max_window_layers", 0, num_layers).value_or(0);
    default:
      return true;
  }
}

bool IsQwen(Family f) {
  return f == Family::kQwen2 || f == Family::kQwen3 || f == Family::kQwenMoe;
}

std::optional<std::vector<bool>> ReadLayerTypes(FieldReader& f, std::int64_t num_layers) {
  const json* types = f.Get("layer_types");
  if (types == nullptr) return std::nullopt;
  if (!types->is_array() || types->size() != static_cast<std::size_t>(num_layers)) {
    f.Fail("layer_types", "expected a list of " + std::to_string(num_layers) +
                              " strings (one per layer), got " + detail::JsonTypeName(*types) +
                              (types->is_array() ? " of " + std::to_string(types->size()) : ""));
    return std::nullopt;
  }
  std::vector<bool> sliding;
  for (std::size_t i = 0; i < types->size(); ++i) {
    const json& t = (*types)[i];
    if (t == "sliding_attention") {
      sliding.push_back(true);
    } else if (t == "full_attention") {
      sliding.push_back(false);
    } else {
      f.Fail("layer_types[" + std::to_string(i) + "]",
             "unsupported layer type " + t.dump() +
                 " (expected \"sliding_attention\" or \"full_attention\")");
      return std::nullopt;
    }
  }
  return sliding;
}

}  // namespace

void ReadSlidingWindows(FieldReader& f, Family family, ModelArch& a) {
  const bool gemma = family == Family::kGemma2 || family == Family::kGemma3;
  a.sliding_window = f.Int("sliding_window", 0, kMaxPositions).value_or(gemma ? 4096 : 0);
  // Qwen configs carry a sliding_window that is only used with use_sliding_window = true.
  if (IsQwen(family) && !f.Bool("use_sliding_window").value_or(false)) a.sliding_window = 0;
  a.layer_uses_sliding.clear();
  std::optional<std::vector<bool>> from_list = ReadLayerTypes(f, a.num_layers);
  if (a.sliding_window == 0) return;
  if (from_list) {
    a.layer_uses_sliding = *from_list;
  } else {
    for (std::int64_t i = 0; i < a.num_layers; ++i) {
      a.layer_uses_sliding.push_back(FamilySlides(f, family, i, a.num_layers));
    }
  }
  bool any = false;
  for (bool s : a.layer_uses_sliding) any = any || s;
  if (!any) a.layer_uses_sliding.clear();
}

// Keys of our own (not in any HF config) so that every ModelArch survives ModelArchToJson →
// ParseModelArch, even one whose flags differ from what its model_type implies. ModelArchToJson
// writes them only when they differ.
void ReadOverrides(FieldReader& f, ModelArch& a) {
  a.qkv_bias = f.Bool("qkv_bias").value_or(a.qkv_bias);
  a.o_bias = f.Bool("o_bias").value_or(a.o_bias);
  a.qk_norm = f.Bool("qk_norm").value_or(a.qk_norm);
  a.attention_sinks = f.Bool("attention_sinks").value_or(a.attention_sinks);
  a.mlp_bias = f.Bool("mlp_bias").value_or(a.mlp_bias);
  a.router_bias = f.Bool("router_bias").value_or(a.router_bias);
  a.expert_bias = f.Bool("expert_bias").value_or(a.expert_bias);
  a.shared_expert_gate = f.Bool("shared_expert_gate").value_or(a.shared_expert_gate);
  a.norms_per_layer = static_cast<int>(f.Int("norms_per_layer", 1, 8).value_or(a.norms_per_layer));
  if (std::optional<std::string> kind = f.String("mlp_kind")) {
    if (*kind == "gated" || *kind == "plain") {
      a.mlp = *kind == "gated" ? MlpKind::kGated : MlpKind::kPlain;
    } else {
      f.Fail("mlp_kind", "unknown value \"" + *kind + "\" (expected gated or plain)");
    }
  }
  if (std::optional<std::string> kind = f.String("norm_kind")) {
    if (*kind == "rmsnorm" || *kind == "layernorm") {
      a.norm = *kind == "rmsnorm" ? NormKind::kRmsNorm : NormKind::kLayerNorm;
    } else {
      f.Fail("norm_kind", "unknown value \"" + *kind + "\" (expected rmsnorm or layernorm)");
    }
  }
}

}  // namespace model_detail
}  // namespace trainmem
