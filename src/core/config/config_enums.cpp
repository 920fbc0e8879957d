// Enum names as written in JSON, and the lenient readers for them. Each enum has one table:
// the first entry per value is the canonical name, the rest are accepted spellings.

#include <cctype>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "core/config/config.h"
#include "core/config/config_detail.h"

namespace trainmem {
namespace {

template <class E>
struct NamedValue {
  const char* name;
  E value;
};

constexpr NamedValue<Mode> kModes[] = {{"template", Mode::kTemplate},
                                       {"detailed", Mode::kDetailed}};

constexpr NamedValue<Framework> kFrameworks[] = {{"torchtitan", Framework::kTorchtitan},
                                                 {"torchtitan-npu", Framework::kTorchtitanNpu},
                                                 {"megatron", Framework::kMegatron},
                                                 {"deepspeed", Framework::kDeepspeed},
                                                 {"torchtune", Framework::kTorchtune}};

constexpr NamedValue<DType> kDTypes[] = {
    {"float32", DType::kFloat32}, {"bfloat16", DType::kBFloat16}, {"float16", DType::kFloat16},
    {"int8", DType::kInt8},       {"float8", DType::kFp8},        {"fp32", DType::kFloat32},
    {"bf16", DType::kBFloat16},   {"fp16", DType::kFloat16},      {"fp8", DType::kFp8}};

// "flex" is FlexAttention (torchtitan's default backend for its llama3, qwen3, qwen3_5 and
// deepseek_v3 models since 2026); "varlen" (torchtitan's varlen_attn, gpt_oss's default) saves
// what flash attention saves.
constexpr NamedValue<AttentionImpl> kAttention[] = {{"flash", AttentionImpl::kFlash},
                                                    {"sdpa", AttentionImpl::kSdpa},
                                                    {"eager", AttentionImpl::kEager},
                                                    {"flex", AttentionImpl::kFlex},
                                                    {"varlen", AttentionImpl::kFlash}};

constexpr NamedValue<VisionTower> kVisionTowers[] = {{"none", VisionTower::kNone},
                                                     {"frozen", VisionTower::kFrozen},
                                                     {"trained", VisionTower::kTrained}};
constexpr NamedValue<BaseQuantization> kBaseQuantizations[] = {
    {"none", BaseQuantization::kNone},
    {"int8", BaseQuantization::kInt8},
    {"nf4", BaseQuantization::kNf4},
    {"nf4_double_quant", BaseQuantization::kNf4DoubleQuant}};

constexpr NamedValue<AcMode> kAcModes[] = {
    {"none", AcMode::kNone}, {"selective", AcMode::kSelective}, {"full", AcMode::kFull}};

// Matched after lower-casing and dropping '-', '_' and spaces, so "interleaved-1F1B" and
// "Interleaved1F1B" are the same. torchtitan's two zero-bubble variants share one memory model.
constexpr NamedValue<PpSchedule> kSchedules[] = {
    {"1F1B", PpSchedule::k1F1B},
    {"Interleaved1F1B", PpSchedule::kInterleaved1F1B},
    {"GPipe", PpSchedule::kGPipe},
    {"ZeroBubble", PpSchedule::kZeroBubble},
    {"InterleavedZeroBubble", PpSchedule::kZeroBubble},
    {"ZBVZeroBubble", PpSchedule::kZeroBubble},
    {"interleaved", PpSchedule::kInterleaved1F1B}};  // Megatron's "interleaved schedule"

// Names as libraries spell them (torch.optim, bitsandbytes.optim, torchao.optim, the Muon,
// Distributed Shampoo and SOAP references); matched without case and separators, so
// "adamw_8bit", "AdamW8bit" and "adamw-8bit" are one name. Aliases follow each canonical name.
constexpr NamedValue<OptimizerKind> kOptimizers[] = {
    {"AdamW", OptimizerKind::kAdamW},
    {"Adam", OptimizerKind::kAdam},
    {"SGD", OptimizerKind::kSgd},
    {"Lion", OptimizerKind::kLion},
    {"Adafactor", OptimizerKind::kAdafactor},
    {"AdamW8bit", OptimizerKind::kAdamW8bit},
    {"PagedAdamW8bit", OptimizerKind::kPagedAdamW8bit},
    {"PagedAdamW", OptimizerKind::kPagedAdamW},
    {"AdamW4bit", OptimizerKind::kAdamW4bit},
    {"Lion8bit", OptimizerKind::kLion8bit},
    {"Muon", OptimizerKind::kMuon},
    {"Shampoo", OptimizerKind::kShampoo},
    {"SOAP", OptimizerKind::kSoap},
    {"Adam8bit", OptimizerKind::kAdamW8bit},  // the same states as AdamW8bit
    {"PagedAdam8bit", OptimizerKind::kPagedAdamW8bit},
    {"PagedAdam", OptimizerKind::kPagedAdamW},
    {"Adam4bit", OptimizerKind::kAdamW4bit},
    {"PagedLion8bit", OptimizerKind::kLion8bit},
    {"DistributedShampoo", OptimizerKind::kShampoo},
};

constexpr NamedValue<EpCommBackend> kEpCommBackends[] = {
    {"standard", EpCommBackend::kStandard},
    {"deepep", EpCommBackend::kDeepEp},
    {"hybridep", EpCommBackend::kHybridEp},
    {"minimal_async_ep", EpCommBackend::kMinimalAsyncEp}};
constexpr NamedValue<ReshardPolicy> kReshardPolicies[] = {{"default", ReshardPolicy::kDefault},
                                                          {"always", ReshardPolicy::kAlways},
                                                          {"never", ReshardPolicy::kNever}};
// torchtitan's spelling first (config/configs.py Optimizer.implementation); "for_loop" also read.
constexpr NamedValue<OptimizerImpl> kOptimizerImpls[] = {{"fused", OptimizerImpl::kFused},
                                                         {"foreach", OptimizerImpl::kForeach},
                                                         {"for-loop", OptimizerImpl::kForLoop},
                                                         {"for_loop", OptimizerImpl::kForLoop}};

// Lower case without separators: the form every enum is compared in.
std::string Normalize(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '-' || c == '_' || c == ' ') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// Real configs write notes after the name: "AdamW (torch, bf16 states)",
// "interleaved-1F1B (1 layer per virtual stage)". The name is the text before the first
// space, '(' or ',' .
std::string_view LeadingWord(std::string_view text) {
  std::size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  text.remove_prefix(start);
  return text.substr(0, text.find_first_of(" \t(,;"));
}

template <class E, std::size_t N>
bool Lookup(const NamedValue<E> (&table)[N], std::string_view text, E& out) {
  const std::string wanted = Normalize(text);
  if (wanted.empty()) return false;
  for (const auto& entry : table) {
    if (Normalize(entry.name) == wanted) {
      out = entry.value;
      return true;
    }
  }
  return false;
}

template <class E, std::size_t N>
const char* CanonicalName(const NamedValue<E> (&table)[N], E value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

// Canonical names only (the first entry for each value), as "a, b, c".
template <class E, std::size_t N>
std::string Choices(const NamedValue<E> (&table)[N]) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (CanonicalName(table, table[i].value) != table[i].name) continue;
    if (!out.empty()) out += ", ";
    out += table[i].name;
  }
  return out;
}

}  // namespace

std::int64_t DTypeBytes(DType t) {
  switch (t) {
    case DType::kFloat32:
      return 4;
    case DType::kBFloat16:
    case DType::kFloat16:
      return 2;
    case DType::kInt8:
    case DType::kFp8:
      return 1;
  }
  return 4;
}

const char* ModeName(Mode m) { return CanonicalName(kModes, m); }
const char* FrameworkName(Framework f) { return CanonicalName(kFrameworks, f); }
const char* DTypeName(DType t) { return CanonicalName(kDTypes, t); }
const char* AttentionName(AttentionImpl a) { return CanonicalName(kAttention, a); }
const char* AcModeName(AcMode m) { return CanonicalName(kAcModes, m); }
const char* PpScheduleName(PpSchedule s) { return CanonicalName(kSchedules, s); }
const char* OptimizerName(OptimizerKind o) { return CanonicalName(kOptimizers, o); }
const char* ReshardPolicyName(ReshardPolicy r) { return CanonicalName(kReshardPolicies, r); }
const char* EpCommBackendName(EpCommBackend b) { return CanonicalName(kEpCommBackends, b); }
const char* OptimizerImplName(OptimizerImpl i) { return CanonicalName(kOptimizerImpls, i); }
const char* VisionTowerName(VisionTower v) { return CanonicalName(kVisionTowers, v); }
const char* BaseQuantizationName(BaseQuantization q) {
  return CanonicalName(kBaseQuantizations, q);
}

namespace detail {

bool EnumFromText(std::string_view text, Mode& out) { return Lookup(kModes, text, out); }
bool EnumFromText(std::string_view text, Framework& out) { return Lookup(kFrameworks, text, out); }
bool EnumFromText(std::string_view text, DType& out) { return Lookup(kDTypes, text, out); }
bool EnumFromText(std::string_view text, AttentionImpl& out) {
  return Lookup(kAttention, text, out);
}
bool EnumFromText(std::string_view text, AcMode& out) { return Lookup(kAcModes, text, out); }

bool EnumFromText(std::string_view text, PpSchedule& out) {
  return Lookup(kSchedules, text, out) || Lookup(kSchedules, LeadingWord(text), out);
}

bool EnumFromText(std::string_view text, OptimizerKind& out) {
  return Lookup(kOptimizers, LeadingWord(text), out);
}

std::string EnumChoices(Mode) { return Choices(kModes); }
std::string EnumChoices(Framework) { return Choices(kFrameworks); }
std::string EnumChoices(DType) { return Choices(kDTypes); }
std::string EnumChoices(AttentionImpl) { return Choices(kAttention); }
std::string EnumChoices(AcMode) { return Choices(kAcModes); }
std::string EnumChoices(PpSchedule) {
  return "1F1B, Interleaved1F1B, GPipe, ZeroBubble (also InterleavedZeroBubble, ZBVZeroBubble)";
}
std::string EnumChoices(OptimizerKind) { return Choices(kOptimizers); }
bool EnumFromText(std::string_view text, ReshardPolicy& out) {
  return Lookup(kReshardPolicies, text, out);
}
std::string EnumChoices(ReshardPolicy) { return Choices(kReshardPolicies); }
bool EnumFromText(std::string_view text, EpCommBackend& out) {
  return Lookup(kEpCommBackends, text, out);
}
std::string EnumChoices(EpCommBackend) { return Choices(kEpCommBackends); }
bool EnumFromText(std::string_view text, OptimizerImpl& out) {
  return Lookup(kOptimizerImpls, text, out);
}
std::string EnumChoices(OptimizerImpl) { return Choices(kOptimizerImpls); }
bool EnumFromText(std::string_view text, VisionTower& out) {
  return Lookup(kVisionTowers, text, out);
}
std::string EnumChoices(VisionTower) { return Choices(kVisionTowers); }
bool EnumFromText(std::string_view text, BaseQuantization& out) {
  return Lookup(kBaseQuantizations, text, out);
}
std::string EnumChoices(BaseQuantization) { return Choices(kBaseQuantizations); }

std::int64_t LayersPerStageFromScheduleText(std::string_view text) {
  // Looks for "<N> layer(s) per virtual stage" (Megatron's num_layers_per_virtual_pipeline_stage).
  const std::string lower = [&] {
    std::string s(text);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }();
  const std::size_t at = lower.find(" per virtual stage");
  if (at == std::string::npos) return 0;
  std::size_t end = lower.rfind("layer", at);
  if (end == std::string::npos) return 0;
  const std::string noun = lower.substr(end, at - end);
  if (noun != "layer" && noun != "layers") return 0;
  while (end > 0 && lower[end - 1] == ' ') --end;
  std::size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(lower[begin - 1]))) --begin;
  if (begin == end || end - begin > 6) return 0;
  return std::stoll(lower.substr(begin, end - begin));
}

}  // namespace detail
const char* const kRecomputeModuleNames[7] = {"core_attn", "layernorm", "mla_up_proj",   "mlp",
                                              "moe_act",   "moe",       "shared_experts"};

std::uint32_t RecomputeModuleBit(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kRecomputeModuleNames); ++i)
    if (name == kRecomputeModuleNames[i]) return 1u << i;
  return 0;
}

}  // namespace trainmem
