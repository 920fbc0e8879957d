// Display names for the core's enums and values, as translated strings. The JSON names come
// from the core (FrameworkName, …); these are what a person reads.
#pragma once

#include <string>

#include "app/words/i18n.h"
#include "core/config/config.h"
#include "core/estimate/estimate.h"

namespace app {

template <class E>
struct EnumOption {
  E value;
  Str label;
};

inline constexpr EnumOption<trainmem::Framework> kFrameworkOptions[] = {
    {trainmem::Framework::kTorchtitan, Str::kFrameworkTorchtitan},
    {trainmem::Framework::kTorchtitanNpu, Str::kFrameworkTorchtitanNpu},
    {trainmem::Framework::kMegatron, Str::kFrameworkMegatron},
    {trainmem::Framework::kDeepspeed, Str::kFrameworkDeepspeed},
    {trainmem::Framework::kTorchtune, Str::kFrameworkTorchtune},
};

inline constexpr EnumOption<trainmem::DType> kParamDTypeOptions[] = {
    {trainmem::DType::kBFloat16, Str::kDTypeBf16},
    {trainmem::DType::kFloat16, Str::kDTypeFp16},
    {trainmem::DType::kFloat32, Str::kDTypeFp32},
};

inline constexpr EnumOption<trainmem::DType> kStateDTypeOptions[] = {
    {trainmem::DType::kFloat32, Str::kDTypeFp32},
    {trainmem::DType::kBFloat16, Str::kDTypeBf16},
    {trainmem::DType::kInt8, Str::kDTypeInt8},
};

inline constexpr EnumOption<trainmem::AttentionImpl> kAttentionOptions[] = {
    {trainmem::AttentionImpl::kFlash, Str::kAttentionFlash},
    {trainmem::AttentionImpl::kSdpa, Str::kAttentionSdpa},
    {trainmem::AttentionImpl::kEager, Str::kAttentionEager},
    {trainmem::AttentionImpl::kFlex, Str::kAttentionFlex},
};

inline constexpr EnumOption<trainmem::VisionTower> kVisionTowerOptions[] = {
    {trainmem::VisionTower::kNone, Str::kVisionTowerNone},
    {trainmem::VisionTower::kFrozen, Str::kVisionTowerFrozen},
    {trainmem::VisionTower::kTrained, Str::kVisionTowerTrained},
};

inline constexpr EnumOption<trainmem::BaseQuantization> kBaseQuantOptions[] = {
    {trainmem::BaseQuantization::kNone, Str::kBaseQuantNone},
    {trainmem::BaseQuantization::kInt8, Str::kBaseQuantInt8},
    {trainmem::BaseQuantization::kNf4, Str::kBaseQuantNf4},
    {trainmem::BaseQuantization::kNf4DoubleQuant, Str::kBaseQuantNf4Double},
};

inline constexpr EnumOption<trainmem::AcMode> kAcModeOptions[] = {
    {trainmem::AcMode::kNone, Str::kAcNone},
    {trainmem::AcMode::kSelective, Str::kAcSelective},
    {trainmem::AcMode::kFull, Str::kAcFull},
};

inline constexpr EnumOption<trainmem::PpSchedule> kPpScheduleOptions[] = {
    {trainmem::PpSchedule::k1F1B, Str::kSchedule1F1B},
    {trainmem::PpSchedule::kInterleaved1F1B, Str::kScheduleInterleaved},
    {trainmem::PpSchedule::kGPipe, Str::kScheduleGPipe},
    {trainmem::PpSchedule::kZeroBubble, Str::kScheduleZeroBubble},
};

inline constexpr EnumOption<trainmem::EpCommBackend> kEpCommOptions[] = {
    {trainmem::EpCommBackend::kStandard, Str::kEpCommStandard},
    {trainmem::EpCommBackend::kDeepEp, Str::kEpCommDeepEp},
    {trainmem::EpCommBackend::kHybridEp, Str::kEpCommHybridEp},
    {trainmem::EpCommBackend::kMinimalAsyncEp, Str::kEpCommMinimalAsyncEp},
};

inline constexpr EnumOption<trainmem::OptimizerImpl> kStepImplOptions[] = {
    {trainmem::OptimizerImpl::kFused, Str::kStepImplFused},
    {trainmem::OptimizerImpl::kForeach, Str::kStepImplForeach},
    {trainmem::OptimizerImpl::kForLoop, Str::kStepImplForLoop},
};

inline constexpr EnumOption<trainmem::OptimizerKind> kOptimizerOptions[] = {
    {trainmem::OptimizerKind::kAdamW, Str::kOptimizerAdamW},
    {trainmem::OptimizerKind::kAdam, Str::kOptimizerAdam},
    {trainmem::OptimizerKind::kSgd, Str::kOptimizerSgd},
    {trainmem::OptimizerKind::kLion, Str::kOptimizerLion},
    {trainmem::OptimizerKind::kAdafactor, Str::kOptimizerAdafactor},
    {trainmem::OptimizerKind::kAdamW8bit, Str::kOptimizerAdamW8bit},
    {trainmem::OptimizerKind::kPagedAdamW8bit, Str::kOptimizerPagedAdamW8bit},
    {trainmem::OptimizerKind::kPagedAdamW, Str::kOptimizerPagedAdamW},
    {trainmem::OptimizerKind::kAdamW4bit, Str::kOptimizerAdamW4bit},
    {trainmem::OptimizerKind::kLion8bit, Str::kOptimizerLion8bit},
    {trainmem::OptimizerKind::kMuon, Str::kOptimizerMuon},
    {trainmem::OptimizerKind::kShampoo, Str::kOptimizerShampoo},
    {trainmem::OptimizerKind::kSoap, Str::kOptimizerSoap},
};

// "Llama 3 8B"; a custom model without a name reads "Custom model".
std::string ModelDisplayName(const trainmem::Config& config);

Str FrameworkLabel(trainmem::Framework framework);

// The size in a model's name, as the name writes it: "12B", "1.5B", "671B" (not "12.00B",
// which claims a precision the name does not have: Gemma 3 12B counts 11.77B).
std::string NominalSize(std::int64_t params);

// What the chosen precision means for this framework's bytes per parameter ("fp32 master
// weights, bf16 compute"): the parameter dtype alone does not say what a parameter costs.
Str PrecisionNote(const trainmem::Config& config);

// The verdict's three words, one mapping for the badge, the headline and every export: a total
// within the estimate's error band of the budget, on either side, is "close".
Str VerdictPill(trainmem::Verdict verdict);    // fits / close / no fit
Str VerdictPhrase(trainmem::Verdict verdict);  // fits / close to the limit / does not fit

// An advice step in the reader's language ("Raise tensor parallelism from 1 to 8").
std::string AdviceSentence(const trainmem::Recommendation& recommendation);
// The sentence with everything the step sets when that is more than its own change (the ladder
// is cumulative: "Raise tensor parallelism from 1 to 2 (checkpointing: full · TP 2)").
std::string AdviceWithChanges(const trainmem::Recommendation& recommendation);
// One config change in words ("data parallelism takes the remaining devices", "checkpointing:
// full"), never a raw key.
std::string ChangeWords(const std::string& key, const std::string& value);

// "Llama 3 8B on 8 × NVIDIA H100 … · torchtitan · FSDP 8 · batch 2 × 2,048 tokens · selective
// checkpointing": what was estimated, for the verdict, the embed card and the title.
std::string EstimatedWhat(const trainmem::Config& config, const trainmem::Layout& layout);
// "batch 2 × 4096 tokens", or with pipeline microbatches "micro-batch 1 × 4096 tokens, 512 per
// step".
std::string BatchWords(const trainmem::Config& config, const trainmem::Layout& layout);
std::string LayoutWords(const trainmem::Config& config, const trainmem::Layout& layout);
std::string AcWords(const trainmem::Config& config);

}  // namespace app
