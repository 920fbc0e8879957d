// The config builder, text helpers and model/device lookups shared by every importer.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

#include "core/config/config_detail.h"
#include "core/config/field_reader.h"
#include "core/import/import_detail.h"
#include "core/model/model.h"

namespace trainmem::import_detail {
namespace {

std::vector<std::string> SplitDotted(const std::string& key) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string Normalized(std::string_view s) { return detail::AlphanumericLower(s); }

}  // namespace

// --- Builder ----------------------------------------------------------------------------------

void Builder::Set(const std::string& dotted_key, json value, const Source& source) {
  json* node = &config;
  const std::vector<std::string> parts = SplitDotted(dotted_key);
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    json& next = (*node)[parts[i]];
    if (!next.is_object()) next = json::object();
    node = &next;
  }
  (*node)[parts.back()] = value;
  auto same = [&](const ImportRead& r) { return r.key == dotted_key; };
  report_.read.erase(std::remove_if(report_.read.begin(), report_.read.end(), same),
                     report_.read.end());
  // A value given now is no longer missing.
  auto was_missing = [&](const ImportMissing& m) { return m.key == dotted_key; };
  report_.missing.erase(std::remove_if(report_.missing.begin(), report_.missing.end(), was_missing),
                        report_.missing.end());
  report_.read.push_back({dotted_key, std::move(value), source.text, source.file, source.line});
}

const json* Builder::Get(const std::string& dotted_key) const {
  return detail::FindJsonPath(config, dotted_key);
}

bool Builder::Has(const std::string& dotted_key) const { return Get(dotted_key) != nullptr; }

void Builder::Erase(const std::string& dotted_key) {
  const std::vector<std::string> parts = SplitDotted(dotted_key);
  json* node = &config;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!node->is_object() || !node->contains(parts[i])) return;
    node = &(*node)[parts[i]];
  }
  if (node->is_object()) node->erase(parts.back());
  auto same = [&](const ImportRead& r) { return r.key == dotted_key; };
  report_.read.erase(std::remove_if(report_.read.begin(), report_.read.end(), same),
                     report_.read.end());
}

void Builder::Ignore(const Source& source, std::string reason) {
  report_.ignored.push_back({source.text, source.file, source.line, std::move(reason)});
}

void Builder::Missing(const std::string& dotted_key, std::string why, json assumed, bool hinted) {
  for (const ImportMissing& m : report_.missing)
    if (m.key == dotted_key) return;
  if (!assumed.is_null()) {
    json* node = &config;
    const std::vector<std::string> parts = SplitDotted(dotted_key);
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      json& next = (*node)[parts[i]];
      if (!next.is_object()) next = json::object();
      node = &next;
    }
    (*node)[parts.back()] = assumed;
  }
  report_.missing.push_back({dotted_key, std::move(why), std::move(assumed), hinted});
}

// --- Text helpers -----------------------------------------------------------------------------

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Trim(std::string_view s) {
  const std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos) return "";
  const std::size_t b = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(a, b - a + 1));
}

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

std::string BaseName(std::string_view path) {
  const std::size_t slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

int LineOf(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

std::optional<long long> JsonInteger(const json& v) {
  if (v.is_string()) return ParseInteger(v.get<std::string>());
  std::int64_t out = 0;
  if (v.is_number() && detail::ReadInt(v, out).empty()) return out;
  return std::nullopt;
}

long long PositiveProduct(long long a, long long b) {
  if (a <= 0 || b <= 0 || a > std::numeric_limits<long long>::max() / b) return 0;
  return a * b;
}

std::optional<long long> ParseInteger(std::string_view s) {
  const std::string t = Trim(s);
  if (t.empty() || t.size() > 19) return std::nullopt;
  std::size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  if (i == t.size()) return std::nullopt;
  for (std::size_t k = i; k < t.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(t[k])) && t[k] != '_') return std::nullopt;
  std::string digits;
  for (char c : t)
    if (c != '_') digits += c;
  return std::strtoll(digits.c_str(), nullptr, 10);
}

std::optional<double> ParseNumber(std::string_view s) {
  const std::string t = Trim(s);
  if (t.empty() || t.size() > 40) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !(v == v)) return std::nullopt;
  return v;
}

std::optional<bool> ParseBool(std::string_view s) {
  const std::string t = Lower(Trim(s));
  if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off") return false;
  return std::nullopt;
}

// --- Models and devices -------------------------------------------------------------------------

std::string PresetFromText(std::string_view text, const Presets& presets) {
  const ModelPreset* preset = presets.FindModelNamedIn(text);
  return preset == nullptr ? std::string() : preset->id;
}

namespace {

// torchtitan's debug models are defined in code, not on the hub: their fields, from
// torchtitan/models/llama3/__init__.py (_debugmodel: dim 256, 6 layers, 16 heads, vocab 2048,
// ffn = compute_ffn_hidden_dim(256, multiple_of=256) = 768) and
// torchtitan/models/deepseek_v3/__init__.py ("debugmodel": dim 256, inter 1024, moe_inter 256,
// 6 layers with 1 dense, 16 heads, 8 routed + 2 shared experts, top-3, kv_lora_rank 512).
json LlamaDebugModel() {
  return {{"model_type", "llama"},
          {"hidden_size", 256},
          {"num_hidden_layers", 6},
          {"num_attention_heads", 16},
          {"num_key_value_heads", 16},
          {"intermediate_size", 768},
          {"vocab_size", 2048},
          {"tie_word_embeddings", false},
          {"max_position_embeddings", 131072}};
}

// A DeepSeek-V3-shaped model (MLA with kv_lora_rank 512 and 128/64/128 head dims, routed +
// shared experts): the fields that differ between the code-defined flavors below.
struct DeepseekShape {
  int dim, inter, moe_inter, layers, dense_layers, heads, experts, shared, top_k;
  int q_lora;  // 0 = null (a plain q_proj)
  int vocab, max_positions;
  bool noaux_tc;  // DeepSeek-V3's e_score_correction_bias router
};

json DeepseekModel(const DeepseekShape& d) {
  json m = {{"model_type", "deepseek_v3"},
            {"hidden_size", d.dim},
            {"intermediate_size", d.inter},
            {"moe_intermediate_size", d.moe_inter},
            {"num_hidden_layers", d.layers},
            {"first_k_dense_replace", d.dense_layers},
            {"num_attention_heads", d.heads},
            {"num_key_value_heads", d.heads},
            {"n_routed_experts", d.experts},
            {"n_shared_experts", d.shared},
            {"num_experts_per_tok", d.top_k},
            {"q_lora_rank", d.q_lora > 0 ? json(d.q_lora) : json(nullptr)},
            {"kv_lora_rank", 512},
            {"qk_nope_head_dim", 128},
            {"qk_rope_head_dim", 64},
            {"v_head_dim", 128},
            {"vocab_size", d.vocab},
            {"tie_word_embeddings", false},
            {"max_position_embeddings", d.max_positions}};
  if (d.noaux_tc) m["topk_method"] = "noaux_tc";
  return m;
}

json DeepseekDebugModel() {
  return DeepseekModel({256, 1024, 256, 6, 1, 16, 8, 2, 3, 0, 2048, 4096, false});
}

// Qwen3 flavors torchtitan defines in code and no preset holds (torchtitan
// torchtitan/models/qwen3/__init__.py qwen3_args, v0.2.2): dim, n_layers, n_heads, n_kv_heads,
// hidden_dim, vocab, weight tying; MoE flavors add experts, top-k and moe_inter_dim. head_dim 128
// and qk_norm throughout.
struct Qwen3Flavor {
  const char* flavor;  // normalized
  int dim, layers, heads, kv_heads, hidden, vocab;
  bool tied;
  int experts, top_k, moe_inter;  // 0 = dense
};
constexpr Qwen3Flavor kQwen3Flavors[] = {
    {"debugmodel", 256, 8, 16, 8, 3072, 2048, true, 0, 0, 0},
    {"06b", 1024, 28, 16, 8, 3072, 151936, true, 0, 0, 0},
    {"17b", 2048, 28, 16, 8, 6144, 151936, true, 0, 0, 0},
    {"4b", 2560, 36, 32, 8, 9728, 151936, true, 0, 0, 0},
    {"14b", 5120, 40, 40, 8, 17408, 151936, false, 0, 0, 0},
    {"debugmodelmoe", 256, 8, 16, 8, 3072, 2048, false, 64, 8, 768},
    {"235ba22b", 4096, 94, 64, 4, 12288, 151936, false, 128, 8, 1536},
};

// The config.json fields every code-defined decoder flavor spells out.
json DecoderFields(const char* model_type, int dim, int layers, int heads, int kv_heads,
                   int head_dim, int vocab, bool tied, int max_positions) {
  return {{"model_type", model_type},
          {"hidden_size", dim},
          {"num_hidden_layers", layers},
          {"num_attention_heads", heads},
          {"num_key_value_heads", kv_heads},
          {"head_dim", head_dim},
          {"vocab_size", vocab},
          {"tie_word_embeddings", tied},
          {"max_position_embeddings", max_positions},
          {"hidden_act", "silu"}};
}

json Qwen3FlavorModel(const Qwen3Flavor& q) {
  json m = DecoderFields(q.experts > 0 ? "qwen3_moe" : "qwen3", q.dim, q.layers, q.heads,
                         q.kv_heads, 128, q.vocab, q.tied, 4096);
  m["intermediate_size"] = q.hidden;
  if (q.experts > 0) {
    m["num_experts"] = q.experts;
    m["num_experts_per_tok"] = q.top_k;
    m["moe_intermediate_size"] = q.moe_inter;
    m["decoder_sparse_step"] = 1;
    m["mlp_only_layers"] = json::array();
  }
  return m;
}

// Qwen3.5 flavors torchtitan defines in code (torchtitan/models/qwen3_5/__init__.py,
// qwen3_5_configs): Gated DeltaNet layers with every 4th layer full gated attention (head_dim
// 256, q_proj emitting the output gate), DeltaNet key/value heads of 128 (64 in the debug
// models), an untied lm_head ("Torchtitan doesn't support tied embeddings yet"), no MTP module;
// MoE flavors add routed experts, top-k and one sigmoid-gated shared expert. Each flavor also
// builds a Qwen3.5 vision encoder (_qwen35_vision_encoder_config: width, MLP, layers, position
// rows; patch 16, 2 frames, merge 2, out = the model's dim) that trains with the model.
struct Qwen35Flavor {
  const char* flavor;  // normalized
  int dim, layers, heads, kv_heads, head_dim, hidden;
  int linear_key_heads, linear_value_heads, linear_head_dim;
  int experts, top_k, moe_inter, shared_inter;  // 0 = dense
  int vision_dim, vision_mlp, vision_layers, vision_positions;
};
constexpr Qwen35Flavor kQwen35Flavors[] = {
    {"debugmodel", 256, 8, 4, 2, 64, 512, 2, 4, 64, 0, 0, 0, 0, 256, 512, 4, 1024},
    {"debugmodelmoe", 256, 4, 4, 2, 64, 0, 2, 4, 64, 8, 2, 256, 256, 256, 512, 2, 1024},
    {"08b", 1024, 24, 8, 2, 256, 3584, 16, 16, 128, 0, 0, 0, 0, 768, 3072, 12, 2304},
    {"2b", 2048, 24, 8, 2, 256, 6144, 16, 16, 128, 0, 0, 0, 0, 1024, 4096, 24, 2304},
    {"4b", 2560, 32, 16, 4, 256, 9216, 16, 32, 128, 0, 0, 0, 0, 1024, 4096, 24, 2304},
    {"9b", 4096, 32, 16, 4, 256, 12288, 16, 32, 128, 0, 0, 0, 0, 1152, 4304, 27, 2304},
    {"27b", 5120, 64, 24, 4, 256, 17408, 16, 48, 128, 0, 0, 0, 0, 1152, 4304, 27, 2304},
    {"35ba3b", 2048, 40, 16, 2, 256, 0, 16, 32, 128, 256, 8, 512, 512, 1152, 4304, 27, 2304},
    {"122ba10b", 3072, 48, 32, 2, 256, 0, 16, 64, 128, 256, 8, 1024, 1024, 1152, 4304, 27, 2304},
    {"397ba17b", 4096, 60, 32, 2, 256, 0, 16, 64, 128, 512, 10, 1024, 1024, 1152, 4304, 27, 2304},
};

json Qwen35FlavorModel(const Qwen35Flavor& q) {
  json m = DecoderFields(q.experts > 0 ? "qwen3_5_moe_text" : "qwen3_5_text", q.dim, q.layers,
                         q.heads, q.kv_heads, q.head_dim, 248320, false, 262144);
  m["full_attention_interval"] = 4;
  m["linear_num_key_heads"] = q.linear_key_heads;
  m["linear_num_value_heads"] = q.linear_value_heads;
  m["linear_key_head_dim"] = q.linear_head_dim;
  m["linear_value_head_dim"] = q.linear_head_dim;
  m["linear_conv_kernel_dim"] = 4;
  m["attn_output_gate"] = true;
  m["mtp_num_hidden_layers"] = 0;
  if (q.experts > 0) {
    m["num_experts"] = q.experts;
    m["num_experts_per_tok"] = q.top_k;
    m["moe_intermediate_size"] = q.moe_inter;
    m["shared_expert_intermediate_size"] = q.shared_inter;
  } else {
    m["intermediate_size"] = q.hidden;
  }
  // The vision encoder trains with the model (FlavorModel::vision_trained); counted by the
  // Qwen3.5 tower formula (model_vision.cpp), which torchtitan's encoder shares tensor for
  // tensor (numerical parity with transformers, models/qwen3_5/README.md).
  const json vision = {{"model_type", "qwen3_5"},
                       {"vision_config",
                        {{"depth", q.vision_layers},
                         {"hidden_size", q.vision_dim},
                         {"intermediate_size", q.vision_mlp},
                         {"out_hidden_size", q.dim},
                         {"num_position_embeddings", q.vision_positions},
                         {"patch_size", 16},
                         {"temporal_patch_size", 2},
                         {"spatial_merge_size", 2}}}};
  m["vision_params"] = CountVisionParams(vision, q.dim);
  return m;
}

// torchtitan's kimi_k2_7 MoonViT encoders (_vision_encoder_config: 1152 wide, MLP 4304, 27
// layers, patch 14, a 64 × 64 position table, 2 × 2 merge, projected to the text dim), trained
// with the model: Kimi-VL-A3B's 2-D tower and Kimi-K2.5's 3-D one have the same tensors.
json WithMoonVit(json m, std::int64_t text_dim) {
  const json vision = {{"model_type", "kimi_vl"},
                       {"vision_config",
                        {{"hidden_size", 1152},
                         {"intermediate_size", 4304},
                         {"num_hidden_layers", 27},
                         {"patch_size", 14},
                         {"init_pos_emb_height", 64},
                         {"init_pos_emb_width", 64},
                         {"merge_kernel_size", {2, 2}}}}};
  m["vision_params"] = CountVisionParams(vision, text_dim);
  return m;
}

// torchtitan's kimi_k2_7 flavors (torchtitan/models/kimi_k2_7/__init__.py), on the deepseek_v3
// model: "moonlight-16B-A3B" and the text tower of "Kimi-VL-A3B" are Moonlight-16B-A3B (27
// layers, 1 dense, dim 2048, 64 routed experts of 1408 + 2 shared, top-6, MLA without q-LoRA,
// vocab 163840); "Kimi-K2.5" (shared by K2.6 and K2.7-Code) is Kimi K2's text shape (61
// layers, dim 7168, 384 experts of 2048 + 1 shared, top-8, q_lora_rank 1536).
json MoonlightModel() {
  return DeepseekModel({2048, 11264, 1408, 27, 1, 16, 64, 2, 6, 0, 163840, 8192, true});
}

json KimiK2Model() {
  return DeepseekModel({7168, 18432, 2048, 61, 1, 64, 384, 1, 8, 1536, 163840, 131072, true});
}

// A code-defined flavor of a table: the exact entry, else the longest debug entry the flavor
// starts with (kernel-only variants such as "debugmodel_flex_flash" or "debugmodel_varlen_attn"
// share their base's shape); nullptr when neither.
template <typename Flavor, std::size_t N>
const Flavor* CodeDefinedFlavor(const Flavor (&table)[N], const std::string& f) {
  const Flavor* match = nullptr;
  for (const Flavor& q : table) {
    const std::string qf = q.flavor;
    const bool debug_base = qf.rfind("debugmodel", 0) == 0 && f.rfind(qf, 0) == 0;
    if ((f == qf || debug_base) &&
        (match == nullptr || qf.size() > std::string(match->flavor).size()))
      match = &q;
  }
  return match;
}

// Sets `out` from a table's code-defined flavor (CodeDefinedFlavor); false when there is none.
template <typename Flavor, std::size_t N>
bool SetCodeDefinedFlavor(const Flavor (&table)[N], json (*build)(const Flavor&),
                          const std::string& family, std::string_view flavor, const std::string& f,
                          const std::string& tail, FlavorModel& out) {
  const Flavor* q = CodeDefinedFlavor(table, f);
  if (q == nullptr) return false;
  out.inline_model = build(*q);
  out.note = "torchtitan's " + family + " " + std::string(flavor) +
             (f != q->flavor ? ": the shape of its " + std::string(q->flavor) : "") +
             " (defined in code, torchtitan/models/" + family + ": " + std::to_string(q->layers) +
             " layers, dim " + std::to_string(q->dim) + ")" + tail;
  return true;
}

struct FlavorEntry {
  const char* family;  // normalized torchtitan model name prefix
  const char* flavor;  // normalized flavor
  const char* preset;
};

// torchtitan model names and flavors (torchtitan/models/*/__init__.py) → presets. deepseek_v3
// "16B" is DeepSeek-MoE-16B's shape, which DeepSeek-V2-Lite shares (dim 2048, 27 layers, 64
// routed + 2 shared experts of 1408, top-6, MLA with kv_lora_rank 512, vocab 102400).
constexpr FlavorEntry kFlavors[] = {
    {"llama3", "1b", "llama3.2-1b"},
    {"llama3", "3b", "llama3.2-3b"},
    {"llama3", "8b", "llama3.1-8b"},
    {"llama3", "70b", "llama3.1-70b"},
    {"llama3", "405b", "llama3.1-405b"},
    {"llama2", "7b", "llama2-7b"},
    {"llama2", "70b", "llama2-70b"},
    {"qwen3", "8b", "qwen3-8b"},
    {"qwen3", "32b", "qwen3-32b"},
    {"qwen3", "30ba3b", "qwen3-30b-a3b"},
    {"deepseekv32", "671b", "deepseek-v3.2"},
    {"deepseekv3", "671b", "deepseek-v3"},
    {"deepseekv3", "16b", "deepseek-v2-lite"},
    // torchtitan-npu's "671B_debug_128die" is the full 671B shape (torchtitan_npu/models/
    // deepseek_v3/__init__.py, deepseek_v32/__init__.py: 61 layers, 256 experts).
    {"deepseekv32", "671bdebug128die", "deepseek-v3.2"},
    {"deepseekv3", "671bdebug128die", "deepseek-v3"},
    // torchtitan-npu's deepseek_v4 "285B_*" flavors are DeepSeek-V4-Flash's shape
    // (torchtitan_npu/models/deepseek_v4/__init__.py), cut to the layers their names say.
    {"deepseekv4", "285b", "deepseek-v4-flash"},
    {"gptoss", "120b", "gpt-oss-120b"},
    // torchtitan models/llama4/__init__.py: "17bx16e" is Llama 4 Scout, "17bx128e" Maverick.
    {"llama4", "17bx16e", "llama4-scout"},
    {"llama4", "17bx128e", "llama4-maverick"},
    // torchtitan models/muse_glimmer/__init__.py: "30B" (text); "30B_mm" adds a vision encoder
    // and adapter, which ModelForFlavor says are not counted.
    {"museglimmer", "30b", "muse-glimmer-30b"},
};

}  // namespace

FlavorModel ModelForFlavor(std::string_view name, std::string_view flavor, std::string_view hints,
                           const Presets& presets) {
  FlavorModel out;
  const std::string family = Normalized(name);
  const std::string f = Normalized(flavor);
  if (f.rfind("debugmodel", 0) == 0) {
    if (family.rfind("llama3", 0) == 0 && f.find("moe") == std::string::npos) {
      out.inline_model = LlamaDebugModel();
      out.note = "torchtitan's llama3 debugmodel (defined in code: 6 layers, dim 256)";
      return out;
    }
    if (family == "deepseekv3") {  // not deepseek_v32's debugmodel: another shape
      out.inline_model = DeepseekDebugModel();
      out.note =
          "torchtitan's deepseek_v3 debugmodel (defined in code: 6 layers, dim 256, 8 experts)";
      return out;
    }
  }
  // torchtitan-npu's deepseek_v3 debug flavors (torchtitan_npu/models/deepseek_v3/__init__.py):
  // "671B_debug" is 4 layers (3 dense) of dim 128 with 8 experts + 1 shared, top-8, MLA with
  // q_lora_rank 1536; "671B_debug_16die" is the 671B shape with 32 routed experts.
  // torchtitan-npu's deepseek_v32 "debugmodel" (torchtitan_npu/models/deepseek_v32/__init__.py):
  // the deepseek_v3 671B_debug shape below with a 1024-wide dense MLP, sigmoid routing with its
  // expert_bias as a buffer (not a parameter) and the lightning indexer (64 heads of 128,
  // top-2048).
  if (family == "deepseekv32" && f == "debugmodel") {
    json m = DeepseekModel({128, 1024, 128, 4, 3, 128, 8, 1, 8, 1536, 129280, 4096, false});
    m["model_type"] = "deepseek_v32";
    m["index_n_heads"] = 64;
    m["index_head_dim"] = 128;
    m["index_topk"] = 2048;
    out.inline_model = m;
    out.note =
        "torchtitan-npu's deepseek_v32 debugmodel (defined in code: 4 layers, dim 128, 8 "
        "experts, the lightning indexer)";
    return out;
  }
  if (family == "deepseekv3" && f == "671bdebug") {
    out.inline_model =
        DeepseekModel({128, 512, 128, 4, 3, 128, 8, 1, 8, 1536, 129280, 4096, false});
    out.note =
        "torchtitan-npu's deepseek_v3 671B_debug (defined in code: 4 layers, dim 128, 8 "
        "experts)";
    return out;
  }
  if (family == "deepseekv3" && f == "671bdebug16die") {
    if (const ModelPreset* p = presets.FindModel("deepseek-v3")) {
      json m = ModelArchToJson(p->arch);
      m["n_routed_experts"] = 32;
      out.inline_model = m;
      out.note =
          "torchtitan-npu's deepseek_v3 671B_debug_16die: DeepSeek-V3 with 32 routed experts";
      return out;
    }
  }
  // gpt-oss "20b" (torchtitan models/gpt_oss/__init__.py _20b): the 120b shape with 24 layers
  // and 32 experts (dim 2880, expert FFN 2880, top-4, vocab 201088, sliding window on even
  // layers). "debugmodel" (_debugmodel): the 120b layer (64 heads of 64, 8 KV heads, sliding
  // window on even layers, experts 2880 wide) at dim 256, 4 layers, 8 experts top-4, vocabulary
  // 2048.
  if (family == "gptoss" && (f == "20b" || f == "debugmodel")) {
    if (const ModelPreset* p = presets.FindModel("gpt-oss-120b")) {
      const bool debug = f == "debugmodel";
      const std::size_t layers = debug ? 4 : 24;
      json m = ModelArchToJson(p->arch);
      m["num_hidden_layers"] = layers;
      if (m.contains("num_local_experts")) m["num_local_experts"] = debug ? 8 : 32;
      if (debug) {
        m["hidden_size"] = 256;
        m["vocab_size"] = 2048;
        m["num_experts_per_tok"] = 4;
      }
      if (m.contains("layer_types") && m["layer_types"].is_array() &&
          m["layer_types"].size() >= layers) {
        json types = json::array();
        for (std::size_t i = 0; i < layers; ++i) types.push_back(m["layer_types"][i]);
        m["layer_types"] = types;
      }
      out.inline_model = m;
      out.note = debug ? "torchtitan's gpt_oss debugmodel (defined in code: 4 layers, dim 256, 8 "
                         "experts of 2880)"
                       : "torchtitan's gpt_oss 20b (defined in code: the 120b shape with 24 "
                         "layers, 32 experts)";
      return out;
    }
  }
  if (family == "qwen3" &&
      SetCodeDefinedFlavor(kQwen3Flavors, Qwen3FlavorModel, "qwen3", flavor, f, "", out))
    return out;
  if (family == "deepseekv3" || family.rfind("kimik2", 0) == 0) {
    if (f == "moonlight16ba3b" || f == "kimivla3b") {
      const bool vl = f == "kimivla3b";
      out.inline_model = vl ? WithMoonVit(MoonlightModel(), 2048) : MoonlightModel();
      out.vision_trained = vl;
      out.note = "torchtitan's " + std::string(flavor) +
                 ": Moonlight-16B-A3B's text shape (torchtitan/models/kimi_k2_7)" +
                 (vl ? " with its MoonViT vision encoder" : "");
      return out;
    }
    if (f == "kimik25") {
      out.inline_model = WithMoonVit(KimiK2Model(), 7168);
      out.vision_trained = true;
      out.note = "torchtitan's " + std::string(flavor) +
                 ": Kimi K2's text shape (torchtitan/models/kimi_k2_7) with its MoonViT vision "
                 "encoder";
      return out;
    }
  }
  if (family == "qwen35" && SetCodeDefinedFlavor(kQwen35Flavors, Qwen35FlavorModel, "qwen3_5",
                                                 flavor, f, " with its vision encoder", out)) {
    out.vision_trained = true;
    return out;
  }
  // The longest family prefix that matches (deepseek_v32 before deepseek_v3), then the flavor's
  // leading size ("671B_debug_128die" → 671b).
  std::string size;
  for (char c : f) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != 'a' && c != 'b') break;
    size += c;
  }
  const FlavorEntry* best = nullptr;
  std::size_t best_family = 0;
  for (const FlavorEntry& e : kFlavors) {
    const std::string ef = e.family;
    if (family.rfind(ef, 0) != 0 || ef.size() < best_family) continue;
    // A debug flavor is a cut-down shape ("671B_debug": 4 layers of dim 128 in torchtitan-npu;
    // "671B_debug_16die": 32 experts): only an exact name maps, never its size prefix. Cut
    // layer counts ("671B_debug_4_layers") are handled by the caller from the size match.
    const bool debug = f.find("debug") != std::string::npos;
    const bool layer_cut = f.find("layer") != std::string::npos;
    if (f == e.flavor || (size == e.flavor && (!debug || layer_cut))) {
      best = &e;
      best_family = ef.size();
    }
  }
  if (best != nullptr && presets.FindModel(best->preset) != nullptr) {
    out.preset = best->preset;
    out.note =
        "torchtitan " + std::string(name) + " " + std::string(flavor) + " → preset " + out.preset;
    if (family == "museglimmer" && f.find("mm") != std::string::npos)
      out.note += " (its vision encoder and adapter, trained with it, are not counted)";
    return out;
  }
  // The assets path often names the checkpoint ("./assets/hf/Llama-3.1-8B"); a tokenizer's
  // path names only the family, and a debug flavor is a cut-down shape: neither is the model.
  if (f.find("debug") != std::string::npos || Lower(hints).find("tokenizer") != std::string::npos)
    return out;
  const std::string from_hints = PresetFromText(hints, presets);
  if (!from_hints.empty()) {
    out.preset = from_hints;
    out.note = "model named by '" + std::string(hints) + "' → preset " + from_hints;
  }
  return out;
}

// "Qwen3-30B-A3B" → "30B-A3B", "Qwen3-14B/" → "14B": the size in a checkpoint directory's name.
std::string SizeInName(const std::string& path) {
  const std::string name = BaseName(Trim(path).substr(0, Trim(path).find_last_not_of('/') + 1));
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i])) ||
        (i > 0 && name[i - 1] != '-' && name[i - 1] != '_'))
      continue;
    std::size_t j = i;
    while (j < name.size() && (std::isdigit(static_cast<unsigned char>(name[j])) || name[j] == '.'))
      ++j;
    if (j >= name.size() || (name[j] != 'B' && name[j] != 'b')) continue;
    std::string size = name.substr(i, j + 1 - i);
    // An active-parameter suffix: "-A3B".
    if (j + 2 < name.size() && name[j + 1] == '-' && (name[j + 2] == 'A' || name[j + 2] == 'a')) {
      std::size_t k = j + 3;
      while (k < name.size() &&
             (std::isdigit(static_cast<unsigned char>(name[k])) || name[k] == '.'))
        ++k;
      if (k < name.size() && (name[k] == 'B' || name[k] == 'b')) size = name.substr(i, k + 1 - i);
    }
    return size;
  }
  return "";
}

std::vector<InputFile> WithWrittenFiles(const std::vector<InputFile>& all,
                                        const bash::Script& script) {
  std::vector<InputFile> out = all;
  out.insert(out.end(), script.written_files.begin(), script.written_files.end());
  return out;
}

FlavorModel ModelFromCheckpointName(const std::string& path, const std::string& family_hint,
                                    const Presets& presets) {
  FlavorModel out;
  out.preset = PresetFromText(path, presets);
  if (!out.preset.empty()) return out;
  const std::string trimmed = Trim(path);
  const std::string name = BaseName(trimmed.substr(0, trimmed.find_last_not_of('/') + 1));
  const std::string family =
      family_hint.empty() ? Lower(name.substr(0, name.find_first_of("-_"))) : family_hint;
  const std::string size = SizeInName(path);
  if (family.empty() || size.empty()) return out;
  return ModelForFlavor(family, size, "", presets);
}

std::string DeviceFromText(std::string_view text) {
  const std::string t = Lower(text);
  auto has_word = [&](const std::string& w) {
    for (std::size_t at = t.find(w); at != std::string::npos; at = t.find(w, at + 1)) {
      const bool before = at == 0 || !std::isalnum(static_cast<unsigned char>(t[at - 1]));
      const std::size_t end = at + w.size();
      const bool after = end >= t.size() || !std::isalnum(static_cast<unsigned char>(t[end])) ||
                         t.compare(end, 2, "gb") == 0 || t.compare(end, 3, "sxm") == 0;
      if (before && after) return true;
    }
    return false;
  };
  if (has_word("a100")) return t.find("40g") != std::string::npos ? "a100-40gb" : "a100-80gb";
  if (has_word("h100")) return "h100-80gb";
  if (has_word("h200")) return "h200-141gb";
  if (has_word("h800")) return "h800";
  if (has_word("h20")) return "h20";
  if (has_word("gb200")) return "gb200";
  if (has_word("b200")) return "b200";
  if (has_word("mi355x")) return "mi355x";
  if (has_word("mi325x")) return "mi325x";
  if (has_word("mi300x")) return "mi300x";
  if (has_word("l40s")) return "l40s";
  if (has_word("4090")) return "rtx-4090";
  if (has_word("gaudi3")) return "gaudi3";
  if (has_word("910c") || has_word("a3")) return "ascend-910c";
  if (has_word("910b") || has_word("a2")) return "ascend-910b";
  return "";
}

CommentHints HintsFromComments(std::string_view text, char comment_char) {
  CommentHints hints;
  std::size_t line_start = 0;
  int line = 1;
  static const char* kCountWords[] = {"gpus", "gpu",   "npus",    "npu",  "dies",
                                      "die",  "cards", "devices", "ranks"};
  while (line_start < text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view row = text.substr(line_start, line_end - line_start);
    const std::size_t hash = row.find(comment_char);
    if (hash != std::string_view::npos) {
      const std::string comment = Lower(row.substr(hash + 1));
      // "<N> [x] [device words] gpus": a number followed, within three words, by a count word.
      for (std::size_t i = 0; i < comment.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(comment[i])) ||
            (i > 0 && std::isalnum(static_cast<unsigned char>(comment[i - 1]))))
          continue;
        std::size_t j = i;
        while (j < comment.size() && std::isdigit(static_cast<unsigned char>(comment[j]))) ++j;
        const long long n = std::atoll(comment.substr(i, j - i).c_str());
        std::size_t k = j;
        for (int words = 0; words < 3 && k < comment.size(); ++words) {
          while (k < comment.size() && (comment[k] == ' ' || comment[k] == 'x')) ++k;
          std::size_t w = k;
          while (w < comment.size() && std::isalnum(static_cast<unsigned char>(comment[w]))) ++w;
          const std::string word = comment.substr(k, w - k);
          bool count_word = false;
          for (const char* cw : kCountWords) count_word = count_word || word == cw;
          if (count_word && n > 0 && n <= kMaxWorldSize && hints.world_size == 0) {
            hints.world_size = n;
            hints.world_size_line = line;
          }
          if (count_word) break;
          k = w;
        }
        i = j;
      }
      // A hedged comment guesses; it does not say what the job ran on.
      const bool hedged = comment.find("likely") != std::string::npos ||
                          comment.find("maybe") != std::string::npos ||
                          comment.find("probably") != std::string::npos ||
                          comment.find("perhaps") != std::string::npos ||
                          comment.find("assum") != std::string::npos ||
                          comment.find('?') != std::string::npos;
      if (hedged && hints.guessed_device.empty()) {
        hints.guessed_device = DeviceFromText(comment);
      } else if (!hedged && hints.device.empty()) {
        hints.device = DeviceFromText(comment);
        if (!hints.device.empty()) hints.device_line = line;
      }
    }
    line_start = line_end + 1;
    ++line;
  }
  return hints;
}

long long WorldSizeFromName(std::string_view name) {
  const std::string n = Lower(name);
  static const char* kUnits[] = {"dies", "die", "gpus", "gpu", "npus", "npu", "cards", "p"};
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(n[i]))) continue;
    if (i > 0 && n[i - 1] != '_' && n[i - 1] != '-' && n[i - 1] != '.') {
      while (i < n.size() && std::isdigit(static_cast<unsigned char>(n[i]))) ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n.size() && std::isdigit(static_cast<unsigned char>(n[j]))) ++j;
    for (const char* unit : kUnits) {
      const std::string u = unit;
      if (n.compare(j, u.size(), u) != 0) continue;
      const std::size_t end = j + u.size();
      if (end < n.size() && std::isalnum(static_cast<unsigned char>(n[end]))) continue;
      const std::optional<long long> v = ParseInteger(n.substr(i, j - i));
      if (v && *v > 0 && *v <= kMaxWorldSize) return *v;
    }
    i = j;
  }
  return 0;
}

}  // namespace trainmem::import_detail
