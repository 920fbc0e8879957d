// Parts of ParseModelArch: per-layer sliding windows and trainmem's override keys.
#include <algorithm>
#include <cmath>

#include "core/config/config_detail.h"
#include "core/model/model.h"
#include "core/model/model_detail.h"

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
  return f == Family::kQwen2 || f == Family::kQwen3 || f == Family::kQwenMoe ||
         f == Family::kQwen3Next;
}

// One layer as layer_types / attn_type_list describe it.
struct LayerKind {
  bool sliding = false;
  bool linear = false;
  bool mamba = false;   // "mamba": a Mamba-2 mixer (Granite 4.0-H), Mamba-1 in Jamba
  bool hybrid = false;  // "hybrid": attention and Mamba-2 side by side (Falcon-H1)
  bool conv = false;    // "conv": LFM2's gated short convolution
};

// layer_types (HF: "full_attention", "sliding_attention", "linear_attention", Llama 4's
// "chunked_attention", Granite's "attention" and "mamba"), or MiniMax's attn_type_list (0 =
// lightning / linear, 1 = softmax). Step-3.5's lists go on past num_hidden_layers with one entry
// per MTP layer (num_nextn_predict_layers): those entries describe the MTP blocks, returned in
// `mtp_kinds`, and the first num_layers the model's.
std::optional<std::vector<LayerKind>> ReadLayerTypes(FieldReader& f, std::int64_t num_layers,
                                                     std::int64_t mtp_layers,
                                                     std::vector<LayerKind>* mtp_kinds) {
  const char* key = f.Has("layer_types") ? "layer_types" : "attn_type_list";
  const json* types = f.Get(key);
  if (types == nullptr) return std::nullopt;
  const auto n = static_cast<std::size_t>(num_layers);
  const bool with_mtp = types->is_array() && mtp_layers > 0 &&
                        types->size() == n + static_cast<std::size_t>(mtp_layers);
  if (!types->is_array() || (types->size() != n && !with_mtp)) {
    f.Fail(key, "expected a list of " + std::to_string(num_layers) + " entries (one per layer" +
                    (mtp_layers > 0 ? ", or " + std::to_string(num_layers + mtp_layers) +
                                          " with the MTP layers"
                                    : std::string()) +
                    "), got " + detail::JsonTypeName(*types) +
                    (types->is_array() ? " of " + std::to_string(types->size()) : ""));
    return std::nullopt;
  }
  std::vector<LayerKind> kinds;
  for (std::size_t i = 0; i < types->size(); ++i) {
    const json& t = (*types)[i];
    const std::string name = t.is_string() ? t.get<std::string>() : "";
    const bool number = t.is_number_integer();
    LayerKind k;
    if (name == "sliding_attention") {
      k.sliding = true;
    } else if (name == "linear_attention" || (number && t.get<std::int64_t>() == 0)) {
      k.linear = true;
    } else if (name == "mamba") {
      k.mamba = true;
    } else if (name == "hybrid") {
      k.hybrid = true;
    } else if (name == "conv") {
      k.conv = true;
    } else if (name == "full_attention" || name == "chunked_attention" || name == "attention" ||
               name == "deepseek_sparse_attention" || (number && t.get<std::int64_t>() == 1)) {
      // softmax attention (Llama 4's chunked layers attend within a chunk: no parameters;
      // GlmMoeDsaConfig in transformers 5 names its DSA layers deepseek_sparse_attention, whose
      // indexer the index_* fields and indexer_types describe)
    } else {
      f.Fail(std::string(key) + "[" + std::to_string(i) + "]",
             "unsupported layer type " + detail::Dump(t) +
                 " (trainmem models full_attention, sliding_attention, linear_attention, "
                 "mamba, hybrid and conv layers)");
      return std::nullopt;
    }
    kinds.push_back(k);
  }
  if (with_mtp && mtp_kinds != nullptr)
    mtp_kinds->assign(kinds.begin() + static_cast<std::ptrdiff_t>(n), kinds.end());
  kinds.resize(n);
  return kinds;
}

// A list of layer indices that are softmax attention, every other layer being `other` (Bamba's
// attn_layer_indices: Mamba-2; LFM2's full_attn_idxs: short convolution).
std::optional<std::vector<LayerKind>> ReadAttentionIndices(FieldReader& f, const char* key,
                                                           std::int64_t num_layers,
                                                           LayerKind other) {
  const json* list = f.Get(key);
  if (list == nullptr || !list->is_array()) {
    f.Fail(key, "expected a list of layer indices");
    return std::nullopt;
  }
  std::vector<LayerKind> kinds(static_cast<std::size_t>(num_layers), other);
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& v = (*list)[i];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 ||
        v.get<std::int64_t>() >= num_layers) {
      f.Fail(std::string(key) + "[" + std::to_string(i) + "]", "expected a layer index from 0 to " +
                                                                   std::to_string(num_layers - 1) +
                                                                   ", got " + detail::Dump(v));
      return std::nullopt;
    }
    kinds[static_cast<std::size_t>(v.get<std::int64_t>())] = LayerKind{};
  }
  return kinds;
}

// Gated DeltaNet sizes, with Qwen3NextConfig's defaults for any that are absent.
void ReadGatedDeltaNet(FieldReader& f, ModelArch& a) {
  a.linear_num_key_heads = f.Int("linear_num_key_heads", 1, kMaxHeads).value_or(16);
  a.linear_num_value_heads = f.Int("linear_num_value_heads", 1, kMaxHeads).value_or(32);
  a.linear_key_head_dim = f.Int("linear_key_head_dim", 1, kMaxWidth).value_or(128);
  a.linear_value_head_dim = f.Int("linear_value_head_dim", 1, kMaxWidth).value_or(128);
  a.linear_conv_kernel = f.Int("linear_conv_kernel_dim", 1, 1024).value_or(4);
}

// Mamba-2 sizes under GraniteMoeHybridConfig's names (mamba_n_heads, mamba_d_head, …; d_inner =
// mamba_expand · hidden_size must equal heads · head_dim) or Mamba2Config's (num_heads, head_dim,
// n_groups, state_size, conv_kernel, use_conv_bias, use_bias). Defaults: GraniteMoeHybridConfig.
void ReadMamba2(FieldReader& f, ModelArch& a, bool d_inner_from_expand = true,
                bool mamba2_names = false) {
  auto size = [&](std::initializer_list<std::string_view> keys, std::int64_t fallback) {
    const std::string key = f.FirstPresent(keys);
    const json* v = key.empty() ? nullptr : f.Get(key);
    if (v == nullptr || (v->is_string() && v->get_ref<const std::string&>() == "auto")) {
      return fallback;  // mamba_d_head "auto": d_inner / heads
    }
    return f.Int(key, 1, kMaxWidth).value_or(fallback);
  };
  // Mamba2Config (a model of Mamba-2 blocks only) names them num_heads and head_dim.
  // Zamba2Config: n_mamba_heads, mamba_headdim, mamba_ngroups.
  a.mamba_heads = mamba2_names ? size({"mamba_n_heads", "num_heads"}, 128)
                               : size({"mamba_n_heads", "mamba_num_heads", "n_mamba_heads"}, 128);
  a.mamba_head_dim = mamba2_names ? size({"mamba_d_head", "head_dim"}, 64)
                                  : size({"mamba_d_head", "mamba_head_dim", "mamba_headdim"}, 0);
  a.mamba_groups = size({"mamba_n_groups", "n_groups", "mamba_num_groups", "mamba_ngroups"}, 1);
  a.mamba_state = size({"mamba_d_state", "ssm_state_size", "state_size"}, 256);
  a.mamba_conv_kernel = size({"mamba_d_conv", "conv_kernel"}, 4);
  a.mamba_chunk = size({"chunk_size", "mamba_chunk_size"}, 256);
  const std::int64_t expand = size({"mamba_expand", "expand"}, 2);
  if (a.mamba_head_dim == 0) {
    // mamba_d_head "auto" or absent: d_inner / heads (GraniteMoeHybridConfig).
    a.mamba_head_dim = expand * a.hidden_size / std::max<std::int64_t>(a.mamba_heads, 1);
    if (a.mamba_head_dim < 1) {
      f.Fail("mamba_n_heads", "mamba_expand × hidden_size (" +
                                  std::to_string(expand * a.hidden_size) +
                                  ") is smaller than mamba_n_heads (" +
                                  std::to_string(a.mamba_heads) + "): each head would be 0 wide");
    } else if (a.mamba_head_dim > kMaxWidth) {
      f.Fail("mamba_expand",
             "mamba_expand × hidden_size / mamba_n_heads = " + std::to_string(a.mamba_head_dim) +
                 " is past the largest head width trainmem reads (1,000,000)");
    }
  }
  // NemotronHMamba2Mixer takes d_inner = mamba_num_heads · mamba_head_dim whatever expand says;
  // a mamba_d_ssm, when given, decides d_inner instead (checked below).
  if (d_inner_from_expand && !f.Has("mamba_d_ssm") &&
      a.mamba_heads * a.mamba_head_dim != expand * a.hidden_size) {
    f.Fail("mamba_n_heads", "mamba_n_heads × mamba_d_head (" +
                                std::to_string(a.mamba_heads * a.mamba_head_dim) +
                                ") must equal mamba_expand × hidden_size (" +
                                std::to_string(expand * a.hidden_size) + ")");
  }
  // FalconH1Config: d_ssm = mamba_d_ssm, or mamba_expand · hidden when null; an "auto" head is
  // d_ssm / heads, and heads · head must equal d_ssm. Its gated norm exists only with
  // mamba_rms_norm (FalconH1Mixer), which the other families' mixers always build.
  if (std::optional<std::int64_t> d_ssm = f.Int("mamba_d_ssm", 1, kMaxWidth)) {
    const json* head = f.Get("mamba_d_head");
    if (head == nullptr || head->is_string()) {
      a.mamba_head_dim =
          std::max<std::int64_t>(1, *d_ssm / std::max<std::int64_t>(a.mamba_heads, 1));
    }
    if (a.mamba_heads * a.mamba_head_dim != *d_ssm) {
      f.Fail("mamba_d_ssm", "mamba_n_heads × mamba_d_head (" +
                                std::to_string(a.mamba_heads * a.mamba_head_dim) +
                                ") must equal mamba_d_ssm (" + std::to_string(*d_ssm) + ")");
    }
  }
  a.mamba_norm = f.Bool("mamba_rms_norm").value_or(a.model_type != "falcon_h1");
  // FalconH1Mixer: in_proj's bias is mamba_proj_bias, out_proj's projectors_bias; trainmem gives
  // both the first (every published Falcon-H1 has neither).
  if (f.Bool("projectors_bias").value_or(false) && !f.Bool("mamba_proj_bias").value_or(false)) {
    a.warnings.push_back("projectors_bias (the Mamba out_proj's " + std::to_string(a.hidden_size) +
                         " bias values a block) is not counted without mamba_proj_bias");
  }
  const std::string conv_bias = f.FirstPresent({"mamba_conv_bias", "use_conv_bias"});
  a.mamba_conv_bias = conv_bias.empty() || f.Bool(conv_bias).value_or(true);
  const std::string proj_bias = mamba2_names ? f.FirstPresent({"mamba_proj_bias", "use_bias"})
                                             : f.FirstPresent({"mamba_proj_bias"});
  a.mamba_proj_bias = !proj_bias.empty() && f.Bool(proj_bias).value_or(false);
}

// Mamba-1 sizes under MambaConfig / FalconMambaConfig names (intermediate_size = d_inner,
// state_size, conv_kernel, time_step_rank, use_conv_bias, use_bias) or JambaConfig's (mamba_expand,
// mamba_d_state, mamba_d_conv, mamba_dt_rank, mamba_conv_bias, mamba_proj_bias); a dt rank of
// "auto" is ceil(hidden / 16), as both configs define it. mamba_d_inner is trainmem's own key.
void ReadMamba1(FieldReader& f, Family family, ModelArch& a) {
  auto size = [&](std::initializer_list<std::string_view> keys, std::int64_t fallback) {
    const std::string key = f.FirstPresent(keys);
    const json* v = key.empty() ? nullptr : f.Get(key);
    if (v == nullptr || (v->is_string() && v->get_ref<const std::string&>() == "auto")) {
      return fallback;
    }
    return f.Int(key, 1, kMaxWidth).value_or(fallback);
  };
  const std::int64_t expand = size({"mamba_expand", "expand"}, 2);
  a.mamba_inner = size({"mamba_d_inner"}, 0);
  if (a.mamba_inner == 0 && family == Family::kMamba) a.mamba_inner = a.intermediate_size;
  if (a.mamba_inner == 0) {
    a.mamba_inner = expand * a.hidden_size;
    if (a.mamba_inner > kMaxWidth) {
      f.Fail("mamba_expand", "mamba_expand × hidden_size = " + std::to_string(a.mamba_inner) +
                                 " is past the largest width trainmem reads (1,000,000)");
    }
  }
  a.mamba_state = size({"mamba_d_state", "state_size"}, 16);
  a.mamba_conv_kernel = size({"mamba_d_conv", "conv_kernel"}, 4);
  a.mamba_dt_rank = size({"mamba_dt_rank", "time_step_rank"}, (a.hidden_size + 15) / 16);
  const std::string conv_bias = f.FirstPresent({"mamba_conv_bias", "use_conv_bias"});
  a.mamba_conv_bias = conv_bias.empty() || f.Bool(conv_bias).value_or(true);
  const std::string proj_bias = f.FirstPresent({"mamba_proj_bias", "use_bias"});
  a.mamba_proj_bias = !proj_bias.empty() && f.Bool(proj_bias).value_or(false);
  a.mamba_inner_norms = f.Bool("mamba_inner_norms").value_or(family == Family::kJamba);
  // A Mamba model's intermediate_size is the mixer's width; its blocks have no MLP.
  if (family == Family::kMamba) a.intermediate_size = 0;
}

constexpr const char* kMamba1Note =
    " layers are Mamba (selective-scan) mixers: no KV cache and no seq × seq scores; they save "
    "what "
    "mamba_ssm's fused mamba_inner_fn keeps (in_proj output, x_proj output, B, C, the scan "
    "output), the conv output and dt are recomputed in backward";

// Nemotron-H (NemotronHConfig.hybrid_override_pattern; modeling_nemotron_h.py NemotronHBlock):
// one character per block, each block one norm and one part: "M" a Mamba-2 mixer, "*"
// attention, "-" an MLP, "E" an MoE. A block holds a token mixer or an MLP, never both.
// NemotronHConfig as transformers 5 writes it spells the blocks out instead: layers_block_type,
// one of "mamba", "attention", "mlp", "moe" per block (num_hidden_layers is its length).
void ReadHybridPattern(FieldReader& f, ModelArch& a) {
  std::optional<std::string> pattern = f.String("hybrid_override_pattern");
  std::string key = "hybrid_override_pattern";
  if (!pattern) {
    const json* types = f.Get("layers_block_type");
    if (types == nullptr) return;
    key = "layers_block_type";
    if (!types->is_array()) {
      f.Fail(key, "expected a list of block types, got " + detail::JsonTypeName(*types));
      return;
    }
    static constexpr std::pair<std::string_view, char> kTypes[] = {
        {"mamba", 'M'}, {"attention", '*'}, {"mlp", '-'}, {"moe", 'E'}};
    std::string letters;
    for (std::size_t i = 0; i < types->size(); ++i) {
      const json& t = (*types)[i];
      char letter = 0;
      for (const auto& [name, c] : kTypes) {
        if (t.is_string() && t.get_ref<const std::string&>() == name) letter = c;
      }
      if (letter == 0) {
        f.Fail(key + "[" + std::to_string(i) + "]",
               "expected mamba, attention, mlp or moe, got " + detail::Dump(t).substr(0, 40));
        return;
      }
      letters += letter;
    }
    pattern = letters;
  }
  const auto n = static_cast<std::size_t>(a.num_layers);
  if (pattern->size() != n) {
    f.Fail(key, "has " + std::to_string(pattern->size()) + " entries; num_hidden_layers is " +
                    std::to_string(a.num_layers) + " (one per block)");
    return;
  }
  std::vector<MixerKind> mixers(n, MixerKind::kNone);
  std::vector<bool> has_mlp(n, false);
  std::vector<bool> moe(n, false);
  std::int64_t count[4] = {0, 0, 0, 0};  // M, *, -, E
  for (std::size_t i = 0; i < n; ++i) {
    switch ((*pattern)[i]) {
      case 'M':
        mixers[i] = MixerKind::kMamba2;
        ++count[0];
        break;
      case '*':
        mixers[i] = MixerKind::kAttention;
        ++count[1];
        break;
      case '-':
        has_mlp[i] = true;
        ++count[2];
        break;
      case 'E':
        has_mlp[i] = moe[i] = true;
        ++count[3];
        break;
      default:
        f.Fail("hybrid_override_pattern",
               "character " + std::to_string(i + 1) + " is '" + std::string(1, (*pattern)[i]) +
                   "'; expected M (Mamba-2), * (attention), - (MLP) or E (MoE)");
        return;
    }
  }
  if (count[3] > 0 && a.num_experts == 0) {
    f.Fail("hybrid_override_pattern",
           "has MoE blocks (E) but the config names no routed experts (n_routed_experts)");
    return;
  }
  if (count[0] > 0) ReadMamba2(f, a, false);
  a.layer_mixer = std::move(mixers);
  a.layer_has_mlp = std::move(has_mlp);
  if (a.num_experts > 0) a.layer_is_moe = std::move(moe);
  a.warnings.push_back(
      "hybrid_override_pattern: " + std::to_string(count[0]) + " Mamba-2, " +
      std::to_string(count[1]) + " attention, " + std::to_string(count[2]) + " MLP and " +
      std::to_string(count[3]) +
      " MoE blocks, each one norm and one part (Nemotron-H); Mamba-2 blocks keep no KV cache "
      "and no seq × seq scores");
}

}  // namespace

// DeciLM / Nemotron-NAS (Llama-3.3-Nemotron-Super-49B, Llama-3.1-Nemotron-Ultra-253B):
// block_configs, one {"attention": {...}, "ffn": {...}} per layer (modeling_decilm.py
// DeciLMDecoderLayer). Attention: no_op (no attention, no input norm), replace_with_linear (one
// h × h linear) or GQA with num_attention_heads / n_heads_in_group KV heads. FFN: no_op,
// replace_with_linear, or a gated SiLU MLP of _ffn_mult_to_intermediate_size(ffn_mult, h) =
// int(2·ffn_mult·h/3) rounded up to a multiple of 256. trainmem writes a block's width and KV
// heads back as num_key_value_heads / intermediate_size, which win when present.
void ReadBlockConfigs(FieldReader& f, ModelArch& a) {
  const json* blocks = f.Get("block_configs");
  const auto n = static_cast<std::size_t>(a.num_layers);
  if (blocks == nullptr || !blocks->is_array() || blocks->size() != n) {
    f.Fail("block_configs",
           "expected a list of " + std::to_string(a.num_layers) + " blocks (one per layer)");
    return;
  }
  a.layer_mixer.assign(n, MixerKind::kAttention);
  a.layer_has_mlp.assign(n, true);
  a.layer_kv_heads.assign(n, a.num_kv_heads);
  a.layer_mlp_width.assign(n, a.intermediate_size);
  std::int64_t first_kv = 0, widest = 0, no_attention = 0, no_ffn = 0;
  auto flag = [](const json& part, const char* key) {
    return part.is_object() && part.contains(key) && part[key].is_boolean() &&
           part[key].get<bool>();
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::string where = "block_configs[" + std::to_string(i) + "]";
    const json& block = (*blocks)[i];
    if (!block.is_object()) {
      f.Fail(where, "expected an object with attention and ffn");
      return;
    }
    const json attention = block.value("attention", json::object());
    const json ffn = block.value("ffn", json::object());
    if (flag(attention, "no_op")) {
      a.layer_mixer[i] = MixerKind::kNone;
      a.layer_kv_heads[i] = 0;
      ++no_attention;
    } else if (flag(attention, "replace_with_linear")) {
      a.layer_kv_heads[i] = ModelArch::kLinearPart;
    } else {
      std::int64_t kv = 0;
      if (attention.contains("num_key_value_heads") &&
          attention["num_key_value_heads"].is_number_integer()) {
        kv = attention["num_key_value_heads"].get<std::int64_t>();
      } else if (attention.contains("n_heads_in_group") &&
                 attention["n_heads_in_group"].is_number_integer()) {
        const std::int64_t group = attention["n_heads_in_group"].get<std::int64_t>();
        kv = group > 0 && a.num_heads % group == 0 ? a.num_heads / group : 0;
      }
      if (kv <= 0 || kv > a.num_heads || a.num_heads % kv != 0) {
        f.Fail(where + ".attention", "n_heads_in_group must divide num_attention_heads (" +
                                         std::to_string(a.num_heads) + ")");
        return;
      }
      a.layer_kv_heads[i] = kv;
      if (first_kv == 0) first_kv = kv;
    }
    if (flag(ffn, "no_op")) {
      a.layer_has_mlp[i] = false;
      a.layer_mlp_width[i] = 0;
      ++no_ffn;
    } else if (flag(ffn, "replace_with_linear")) {
      a.layer_mlp_width[i] = ModelArch::kLinearPart;
    } else {
      std::int64_t width = 0;
      if (ffn.contains("intermediate_size") && ffn["intermediate_size"].is_number_integer()) {
        width = ffn["intermediate_size"].get<std::int64_t>();
      } else if (ffn.contains("ffn_mult") && ffn["ffn_mult"].is_number()) {
        const double mult = ffn["ffn_mult"].get<double>();
        if (std::isfinite(mult) && mult > 0 && mult < 1000) {
          width = RoundUpToMultiple(
              static_cast<std::int64_t>(2 * mult * static_cast<double>(a.hidden_size) / 3), 256);
        }
      }
      if (width <= 0 || width > kMaxWidth) {
        f.Fail(where + ".ffn",
               "expected ffn_mult (a positive number) giving a width up to 1,000,000");
        return;
      }
      a.layer_mlp_width[i] = width;
      widest = std::max(widest, width);
    }
  }
  // The model-wide figures (shown for the model, used by the rough rule) are the first attention
  // layer's KV heads and the widest MLP.
  if (first_kv > 0) a.num_kv_heads = first_kv;
  if (widest > 0) a.intermediate_size = widest;
  a.warnings.push_back("heterogeneous blocks (block_configs): " + std::to_string(no_attention) +
                       " of " + std::to_string(a.num_layers) + " layers without attention, " +
                       std::to_string(no_ffn) +
                       " without an MLP; each layer counted with its own KV heads and MLP width");
}

// Kimi Linear (KimiLinearConfig.linear_attn_config): kda_layers lists the Kimi Delta Attention
// layers by 1-based number (full_attn_layers the MLA ones, everything not listed as KDA); their
// heads, head width and short-conv kernel are num_heads, head_dim and short_conv_kernel_size
// (modeling_kimi.py: is_kda_layer(layer_idx) tests layer_idx + 1 in kda_layers).
namespace {

// What Kimi Delta Attention layers keep (Kimi Linear, Ling 3.0), for the warnings.
std::string KimiDeltaNote(std::int64_t kda_layers, std::int64_t layers) {
  return std::to_string(kda_layers) + " of " + std::to_string(layers) +
         " layers use Kimi Delta Attention (linear): no KV cache and no seq × seq scores; their "
         "saved activations follow fla's chunked kernel (64-token chunks), the d × d state per "
         "head is recomputed in backward";
}

}  // namespace

void ReadKimiLinear(FieldReader& f, ModelArch& a) {
  const json* cfg = f.Get("linear_attn_config");
  if (cfg == nullptr || !cfg->is_object()) {
    f.Fail("linear_attn_config", "expected an object with kda_layers, num_heads and head_dim");
    return;
  }
  auto size = [&](const char* key, std::int64_t max) -> std::int64_t {
    const std::string where = std::string("linear_attn_config.") + key;
    if (!cfg->contains(key)) {
      f.Fail(where, "missing required field");
      return 0;
    }
    const json& v = (*cfg)[key];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > max) {
      f.Fail(where,
             "expected an integer from 1 to " + std::to_string(max) + ", got " + detail::Dump(v));
      return 0;
    }
    return v.get<std::int64_t>();
  };
  const std::int64_t heads = size("num_heads", kMaxHeads);
  const std::int64_t dim = size("head_dim", kMaxWidth);
  const std::int64_t kernel =
      cfg->contains("short_conv_kernel_size") ? size("short_conv_kernel_size", 1024) : 4;
  const json* kda = cfg->contains("kda_layers") ? &(*cfg)["kda_layers"] : nullptr;
  if (kda == nullptr || !kda->is_array()) {
    f.Fail("linear_attn_config.kda_layers", "expected a list of 1-based layer numbers");
    return;
  }
  if (heads == 0 || dim == 0 || kernel == 0) return;
  const auto n = static_cast<std::size_t>(a.num_layers);
  a.layer_mixer.assign(n, MixerKind::kAttention);
  std::int64_t kda_layers = 0;
  for (std::size_t i = 0; i < kda->size(); ++i) {
    const json& v = (*kda)[i];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 ||
        v.get<std::int64_t>() > a.num_layers) {
      f.Fail("linear_attn_config.kda_layers[" + std::to_string(i) + "]",
             "expected a layer number from 1 to " + std::to_string(a.num_layers) + ", got " +
                 detail::Dump(v));
      a.layer_mixer.clear();
      return;
    }
    MixerKind& mixer = a.layer_mixer[static_cast<std::size_t>(v.get<std::int64_t>() - 1)];
    kda_layers += mixer == MixerKind::kKimiDelta ? 0 : 1;
    mixer = MixerKind::kKimiDelta;
  }
  a.linear_num_key_heads = a.linear_num_value_heads = heads;
  a.linear_key_head_dim = a.linear_value_head_dim = dim;
  a.linear_conv_kernel = kernel;
  a.kda_full_rank = f.Bool("no_kda_lora").value_or(false);
  a.warnings.push_back(KimiDeltaNote(kda_layers, a.num_layers));
}

// Zamba2 (Zamba2Config, modeling_zamba2.py): layers_block_type lists "mamba" and "hybrid"
// layers. Every layer is a Mamba-2 block (input norm + mixer); a hybrid layer then runs one of
// num_mem_blocks shared transformer blocks (round robin) through its own adapters and an h × h
// linear. The shared blocks' weights exist num_mem_blocks times: the first hybrid layers hold
// them (kZambaShared), the others reuse them (kZambaHybrid). The shared attention's heads are
// attention_head_dim wide (default 2h / heads: it reads the 2h-wide concatenation).
void ReadZamba2(FieldReader& f, ModelArch& a) {
  const json* types = f.Get("layers_block_type");
  const auto n = static_cast<std::size_t>(a.num_layers);
  if (types == nullptr || !types->is_array() || types->size() != n) {
    f.Fail("layers_block_type", "expected a list of " + std::to_string(a.num_layers) +
                                    " entries (\"mamba\" or \"hybrid\")");
    return;
  }
  ReadMamba2(f, a);
  a.zamba_mem_blocks = f.Int("num_mem_blocks", 1, kMaxLayers).value_or(1);
  a.zamba_adapter_rank = f.Int("adapter_rank", 1, kMaxWidth).value_or(128);
  a.zamba_mlp_adapter = f.Bool("use_shared_mlp_adapter").value_or(false);
  a.zamba_attention_adapter = f.Bool("use_shared_attention_adapter").value_or(false);
  if (!f.Has("head_dim")) {
    a.head_dim = f.Int("attention_head_dim", 1, kMaxWidth)
                     .value_or(2 * a.hidden_size / std::max<std::int64_t>(a.num_heads, 1));
  }
  a.norms_per_layer = 1;
  std::int64_t hybrid = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const json& t = (*types)[i];
    const std::string name = t.is_string() ? t.get<std::string>() : "";
    if (name == "mamba") {
      a.layer_mixer.push_back(MixerKind::kMamba2);
      a.layer_has_mlp.push_back(false);
    } else if (name == "hybrid") {
      a.layer_mixer.push_back(hybrid < a.zamba_mem_blocks ? MixerKind::kZambaShared
                                                          : MixerKind::kZambaHybrid);
      a.layer_has_mlp.push_back(true);
      ++hybrid;
    } else {
      f.Fail("layers_block_type[" + std::to_string(i) + "]",
             "expected \"mamba\" or \"hybrid\", got " + detail::Dump(t));
      a.layer_mixer.clear();
      a.layer_has_mlp.clear();
      return;
    }
  }
  a.warnings.push_back(
      std::to_string(a.num_layers) + " Mamba-2 blocks, " + std::to_string(hybrid) +
      " of which also run one of " + std::to_string(a.zamba_mem_blocks) +
      " shared attention + MLP blocks (their weights counted once each, their activations in "
      "every hybrid layer)");
}

// RecurrentGemma (RecurrentGemmaConfig): block_types, written to config.json as _block_types
// (default ["recurrent", "recurrent", "attention"]), repeats over the layers
// (layers_block_type = (block_types · 100)[:num_hidden_layers]); the recurrent blocks are
// lru_width wide (default hidden_size) with a conv1d_width-tap convolution (default 4).
void ReadRecurrentGemma(FieldReader& f, ModelArch& a) {
  std::vector<std::string> pattern = {"recurrent", "recurrent", "attention"};
  const std::string key = f.FirstPresent({"_block_types", "block_types"});
  if (const json* types = key.empty() ? nullptr : f.Get(key)) {
    std::vector<std::string> read;
    const bool list = types->is_array() && !types->empty() && types->size() <= 4096;
    for (std::size_t i = 0; list && i < types->size(); ++i) {
      const json& t = (*types)[i];
      const std::string name = t.is_string() ? t.get<std::string>() : "";
      if (name != "recurrent" && name != "attention") {
        read.clear();
        break;
      }
      read.push_back(name);
    }
    if (read.empty()) {
      f.Fail(key, "expected a list of \"recurrent\" and \"attention\" entries");
      return;
    }
    pattern = std::move(read);
  }
  a.rglru_width = f.Int("lru_width", 1, kMaxWidth).value_or(a.hidden_size);
  a.rglru_conv = f.Int("conv1d_width", 1, 1024).value_or(4);
  if (a.num_heads > 0 && a.rglru_width % a.num_heads != 0) {
    f.Fail("lru_width", std::to_string(a.rglru_width) + " does not split into " +
                            std::to_string(a.num_heads) + " RG-LRU gate blocks");
    return;
  }
  std::int64_t recurrent = 0;
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    const bool rec = pattern[static_cast<std::size_t>(i) % pattern.size()] == "recurrent";
    a.layer_mixer.push_back(rec ? MixerKind::kRgLru : MixerKind::kAttention);
    recurrent += rec ? 1 : 0;
  }
  a.warnings.push_back(std::to_string(recurrent) + " of " + std::to_string(a.num_layers) +
                       " layers are RG-LRU recurrent blocks: no KV cache and no seq × seq scores");
}

void ReadLayerKinds(FieldReader& f, Family family, ModelArch& a) {
  const bool gemma = family == Family::kGemma2 || family == Family::kGemma3;
  a.sliding_window = f.Int("sliding_window", 0, kMaxPositions).value_or(gemma ? 4096 : 0);
  // Qwen configs carry a sliding_window that is only used with use_sliding_window = true.
  if (IsQwen(family) && !f.Bool("use_sliding_window").value_or(false)) a.sliding_window = 0;
  a.layer_uses_sliding.clear();
  a.layer_mixer.clear();
  a.layer_has_mlp.clear();
  if (f.Has("hybrid_override_pattern") ||
      (a.model_type == "nemotron_h" && f.Has("layers_block_type"))) {
    ReadHybridPattern(f, a);
    return;
  }
  if (f.Has("block_configs")) {
    ReadBlockConfigs(f, a);
    return;
  }
  if (f.Has("linear_attn_config")) {
    ReadKimiLinear(f, a);
    return;
  }
  if (f.Has("layers_block_type")) {
    ReadZamba2(f, a);
    return;
  }
  const auto n = static_cast<std::size_t>(a.num_layers);
  if (family == Family::kMamba && a.model_type == "mamba2") {
    // Mamba2Model: every block a norm and a Mamba-2 mixer (Mamba2Mixer, as in Granite 4.0-H).
    ReadMamba2(f, a, true, true);
    a.intermediate_size = 0;
    a.layer_mixer.assign(n, MixerKind::kMamba2);
    a.layer_has_mlp.assign(n, false);
    a.warnings.push_back("all " + std::to_string(a.num_layers) +
                         " layers are Mamba-2 state-space mixers: no KV cache and no seq × seq "
                         "scores; they save what mamba_ssm's fused scan keeps");
    return;
  }
  if (family == Family::kMamba) {
    // MambaModel / FalconMambaModel: every block a norm and a Mamba-1 mixer, nothing else.
    ReadMamba1(f, family, a);
    a.layer_mixer.assign(n, MixerKind::kMamba1);
    a.layer_has_mlp.assign(n, false);
    a.warnings.push_back("all " + std::to_string(a.num_layers) + kMamba1Note);
    return;
  }
  if (a.model_type == "recurrent_gemma") {
    ReadRecurrentGemma(f, a);
    return;
  }
  std::vector<LayerKind> mtp_kinds;
  std::optional<std::vector<LayerKind>> from_list =
      ReadLayerTypes(f, a.num_layers, a.num_mtp_layers, &mtp_kinds);
  // The MTP blocks' attention when the lists describe them (Step-3.5: sliding_attention).
  a.mtp_sliding = !mtp_kinds.empty() && a.sliding_window > 0;
  for (const LayerKind& k : mtp_kinds) a.mtp_sliding = a.mtp_sliding && k.sliding;
  if (!from_list && a.model_type == "falcon_h1") {
    // FalconH1Config: every block "hybrid" (its attn_layer_indices are not read by transformers).
    LayerKind hybrid;
    hybrid.hybrid = true;
    from_list = std::vector<LayerKind>(n, hybrid);
  } else if (!from_list && f.Has("full_attn_idxs")) {
    LayerKind conv;
    conv.conv = true;
    from_list = ReadAttentionIndices(f, "full_attn_idxs", a.num_layers, conv);
  } else if (!from_list && f.Has("attn_layer_indices")) {
    LayerKind mamba;
    mamba.mamba = true;
    from_list = ReadAttentionIndices(f, "attn_layer_indices", a.num_layers, mamba);
  }
  // Softmax attention in every k-th layer ((i + 1) % k == 0), linear attention elsewhere.
  auto full_every = [&](std::int64_t k) {
    std::vector<LayerKind> kinds(n);
    for (std::int64_t i = 0; i < a.num_layers; ++i) {
      kinds[static_cast<std::size_t>(i)].linear = (i + 1) % k != 0;
    }
    return kinds;
  };
  // Ring-linear (BailingMoeLinearV2Config) without layer_types: every layer_group_size-th.
  if (!from_list && f.Has("layer_group_size")) {
    from_list = full_every(f.Int("layer_group_size", 1, kMaxLayers).value_or(1));
  }
  // JambaConfig without layer_types: attention where i % attn_layer_period ==
  // attn_layer_offset (defaults 8 and 4), Mamba-1 elsewhere.
  if (!from_list && (family == Family::kJamba || f.Has("attn_layer_period"))) {
    const std::int64_t period = f.Int("attn_layer_period", 1, kMaxLayers).value_or(8);
    const std::int64_t offset = f.Int("attn_layer_offset", 0, kMaxLayers).value_or(4);
    std::vector<LayerKind> kinds(n);
    for (std::int64_t i = 0; i < a.num_layers; ++i) {
      kinds[static_cast<std::size_t>(i)].mamba = i % period != offset;
    }
    from_list = kinds;
  }
  // Qwen3-Next without layer_types: full attention every full_attention_interval-th layer
  // (Qwen3NextConfig: (i + 1) % interval == 0, default 4), linear attention elsewhere.
  const std::optional<std::int64_t> interval =
      f.Int("full_attention_interval", 1, std::max<std::int64_t>(a.num_layers, 1));
  if (!from_list && (interval || family == Family::kQwen3Next)) {
    from_list = full_every(interval.value_or(4));
  }
  bool any_linear = false;
  std::int64_t mamba_layers = 0, hybrid_layers = 0, conv_layers = 0;
  if (from_list) {
    for (const LayerKind& k : *from_list) {
      any_linear = any_linear || k.linear;
      mamba_layers += k.mamba ? 1 : 0;
      hybrid_layers += k.hybrid ? 1 : 0;
      conv_layers += k.conv ? 1 : 0;
    }
  }
  const bool mamba1 = family == Family::kJamba;
  if ((hybrid_layers > 0 || conv_layers > 0) && (any_linear || mamba_layers > 0)) {
    f.Fail("layer_types",
           "mixes hybrid or conv layers with mamba or linear_attention layers, which trainmem "
           "does not model");
    return;
  }
  if (hybrid_layers > 0 || conv_layers > 0) {
    if (hybrid_layers > 0) ReadMamba2(f, a, false);
    if (conv_layers > 0) {
      a.short_conv_kernel = f.Int("conv_L_cache", 1, 1024).value_or(3);
      a.short_conv_bias = f.Bool("conv_bias").value_or(false);
    }
    for (const LayerKind& k : *from_list) {
      a.layer_mixer.push_back(k.hybrid ? MixerKind::kAttentionMamba2
                              : k.conv ? MixerKind::kShortConv
                                       : MixerKind::kAttention);
    }
    if (hybrid_layers > 0) {
      a.warnings.push_back(
          std::to_string(hybrid_layers) + " of " + std::to_string(a.num_layers) +
          " blocks run attention and a Mamba-2 mixer side by side: both are counted and both "
          "save their activations; the mixer keeps no seq × seq scores");
    }
    if (conv_layers > 0) {
      a.warnings.push_back(std::to_string(conv_layers) + " of " + std::to_string(a.num_layers) +
                           " blocks are gated short convolutions (kernel " +
                           std::to_string(a.short_conv_kernel) +
                           "): no KV cache and no seq × seq scores");
    }
  } else if (mamba_layers > 0 && !any_linear && mamba1) {
    ReadMamba1(f, family, a);
    for (const LayerKind& k : *from_list) {
      a.layer_mixer.push_back(k.mamba ? MixerKind::kMamba1 : MixerKind::kAttention);
    }
    a.warnings.push_back(std::to_string(mamba_layers) + " of " + std::to_string(a.num_layers) +
                         kMamba1Note);
  } else if (mamba_layers > 0 && !any_linear) {
    ReadMamba2(f, a);
    for (const LayerKind& k : *from_list) {
      a.layer_mixer.push_back(k.mamba ? MixerKind::kMamba2 : MixerKind::kAttention);
    }
    a.warnings.push_back(
        std::to_string(mamba_layers) + " of " + std::to_string(a.num_layers) +
        " layers are Mamba-2 state-space mixers: no KV cache and no seq × seq scores; they save "
        "what mamba_ssm's fused scan keeps (in_proj output, scan output, norm statistics), the "
        "conv output and the chunk states are recomputed in backward");
  } else if (mamba_layers > 0) {
    f.Fail("layer_types", "mixes mamba and linear_attention layers, which trainmem does not model");
  }
  if (any_linear && a.model_type == "bailing_hybrid") {
    // Ling 3.0 (BailingMoeV3): the linear layers are Kimi Delta Attention over all heads, each
    // head_dim wide (128; MLA makes the model's head_dim nope + rope), short convolutions of
    // short_conv_kernel_size, and full-rank f/g gates with no_kda_lora. Ling-3.0-tiny's: q, k,
    // v, f, g 5 × 2,048 × 1,536, convs 3 × 2,048 × 4, b_proj 16 × 1,536, A_log 16, dt_bias 2,048,
    // o_norm 128, o_proj 1,536 × 2,048 = 18,925,712.
    a.linear_num_key_heads = a.linear_num_value_heads = a.num_heads;
    a.linear_key_head_dim = a.linear_value_head_dim = f.Int("head_dim", 1, kMaxWidth).value_or(128);
    a.linear_conv_kernel = f.Int("short_conv_kernel_size", 1, 1024).value_or(4);
    a.kda_full_rank = f.Bool("no_kda_lora").value_or(false);
    std::int64_t kda_layers = 0;
    for (const LayerKind& k : *from_list) {
      a.layer_mixer.push_back(k.linear ? MixerKind::kKimiDelta : MixerKind::kAttention);
      kda_layers += k.linear ? 1 : 0;
    }
    a.warnings.push_back(KimiDeltaNote(kda_layers, a.num_layers));
  } else if (any_linear) {
    // Gated DeltaNet when its linear_* sizes are given or the family is Qwen3-Next; otherwise
    // MiniMax-01 lightning attention (its layer_types also say "linear_attention").
    const bool delta_net = family == Family::kQwen3Next || f.Has("linear_num_value_heads") ||
                           f.Has("linear_key_head_dim");
    if (delta_net) ReadGatedDeltaNet(f, a);
    if (!delta_net && family != Family::kMiniMax) {
      a.warnings.push_back(
          "linear-attention layers without linear_* sizes are read as MiniMax-01 lightning "
          "attention (qkv, output gate and out projections of heads × head_dim)");
    }
    const MixerKind linear = delta_net ? MixerKind::kGatedDeltaNet : MixerKind::kLightning;
    std::int64_t linear_layers = 0;
    for (const LayerKind& k : *from_list) {
      a.layer_mixer.push_back(k.linear ? linear : MixerKind::kAttention);
      linear_layers += k.linear ? 1 : 0;
    }
    a.warnings.push_back(
        std::to_string(linear_layers) + " of " + std::to_string(a.num_layers) + " layers use " +
        (delta_net ? "Gated DeltaNet" : "lightning") +
        " linear attention: no KV cache and no seq × seq scores; their saved activations follow " +
        (delta_net ? "fla's chunked kernel (64-token chunks)" : "MiniMax-01's 256-token blocks") +
        ", the dk × dv state per head is recomputed in backward");
  }
  if (a.sliding_window == 0) return;
  for (std::int64_t i = 0; i < a.num_layers; ++i) {
    a.layer_uses_sliding.push_back(from_list ? (*from_list)[static_cast<std::size_t>(i)].sliding
                                             : FamilySlides(f, family, i, a.num_layers));
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
  a.norms_per_layer = static_cast<int>(f.Int("norms_per_layer", 0, 8).value_or(a.norms_per_layer));
  if (std::optional<std::string> kind = f.String("mlp_kind")) {
    if (*kind == "gated" || *kind == "plain") {
      a.mlp = *kind == "gated" ? MlpKind::kGated : MlpKind::kPlain;
    } else {
      f.Fail("mlp_kind", "unknown value \"" + *kind + "\" (expected gated or plain)");
    }
  }
  if (std::optional<std::string> kind = f.String("norm_kind")) {
    if (*kind == "rmsnorm") {
      a.norm = NormKind::kRmsNorm;
    } else if (*kind == "layernorm") {
      a.norm = NormKind::kLayerNorm;
    } else if (*kind == "layernorm_no_bias") {
      a.norm = NormKind::kLayerNormNoBias;
    } else {
      f.Fail("norm_kind",
             "unknown value \"" + *kind + "\" (expected rmsnorm, layernorm or layernorm_no_bias)");
    }
  }
  a.qk_norm_full = f.Bool("qk_norm_full").value_or(a.qk_norm_full);
  a.attention_output_gate = f.Bool("attention_output_gate").value_or(a.attention_output_gate);
  a.mtp_embedding_copies = f.Bool("mtp_embedding_copies").value_or(a.mtp_embedding_copies);
  a.mtp_head_copy = f.Bool("mtp_head_copy").value_or(a.mtp_head_copy);
  a.mtp_dense = f.Bool("mtp_dense").value_or(a.mtp_dense);
  a.mtp_sliding = f.Bool("mtp_sliding").value_or(a.mtp_sliding);
  a.final_norm = f.Bool("final_norm").value_or(a.final_norm);
  a.head_bias = f.Bool("head_bias").value_or(a.head_bias);
  a.embedding_norm = f.Bool("embedding_norm").value_or(a.embedding_norm);
  a.layer_scalar = f.Bool("layer_scalar").value_or(a.layer_scalar);
  a.router_scale = f.Bool("router_scale").value_or(a.router_scale);
  // A vision tower counted from a multimodal config (model_vision.cpp), carried as a number.
  a.vision_params = f.Int("vision_params", 0, kMaxVisionParams).value_or(a.vision_params);
  // ERNIE-4.5-VL's vision expert pool (ErnieVlExperts writes these from the [text, vision]
  // lists).
  if (a.num_experts > 0) {
    a.vision_experts = f.Int("vision_experts", 0, kMaxExperts).value_or(a.vision_experts);
    if (a.vision_experts > 0) {
      a.vision_expert_width =
          f.Int("vision_expert_intermediate_size", 1, kMaxWidth).value_or(a.moe_intermediate_size);
    }
  }
}

}  // namespace model_detail
}  // namespace trainmem
