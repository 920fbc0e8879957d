#include "app/words/labels.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace app {

std::string ModelDisplayName(const trainmem::Config& config) {
  if (!config.model_name.empty()) return config.model_name;
  if (!config.model_id.empty()) return config.model_id;
  return Tr(Str::kCustomModelName);
}

std::string NominalSize(std::int64_t params) {
  const double p = static_cast<double>(params);
  const char* unit = p >= 1e12 ? "T" : p >= 1e9 ? "B" : p >= 1e6 ? "M" : "K";
  const double scaled = p / (p >= 1e12 ? 1e12 : p >= 1e9 ? 1e9 : p >= 1e6 ? 1e6 : 1e3);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g%s", scaled, unit);  // 3 significant digits at most
  return buffer;
}

Str FrameworkLabel(trainmem::Framework framework) {
  for (const auto& option : kFrameworkOptions) {
    if (option.value == framework) return option.label;
  }
  return Str::kEmpty;
}

// Per framework, what each parameter costs in which dtype (estimate_params.cpp's recipes):
// torchtitan's FSDP2 keeps fp32 sharded masters and gradients and casts gathered layers to the
// compute dtype; Megatron keeps half-precision weights with fp32 main gradients and an fp32
// master copy in the optimizer; DeepSpeed half-precision weights and gradients with the fp32
// master beside the optimizer states; torchtune everything in the parameter dtype.
Str PrecisionNote(const trainmem::Config& config) {
  const bool half = config.training.mixed_precision_param != trainmem::DType::kFloat32;
  switch (config.framework) {
    case trainmem::Framework::kTorchtitan:
    case trainmem::Framework::kTorchtitanNpu:
      if (config.training.dtype == trainmem::DType::kBFloat16) return Str::kPrecisionNoteFullBf16;
      return half ? Str::kPrecisionNoteFsdp : Str::kPrecisionNoteFp32;
    case trainmem::Framework::kMegatron:
      return half ? Str::kPrecisionNoteMegatron : Str::kPrecisionNoteFp32;
    case trainmem::Framework::kDeepspeed:
      if (config.training.dtype == trainmem::DType::kBFloat16) return Str::kPrecisionNoteFullBf16;
      return half ? Str::kPrecisionNoteDeepspeed : Str::kPrecisionNoteFp32;
    case trainmem::Framework::kTorchtune:
      return Str::kPrecisionNoteTorchtune;
  }
  return Str::kEmpty;
}

std::string AdviceSentence(const trainmem::Recommendation& r) {
  const auto from = static_cast<long long>(r.from);
  const auto to = static_cast<long long>(r.to);
  switch (r.kind) {
    case trainmem::AdviceKind::kSelectiveAc:
      return Tr(Str::kAdviceSelectiveAc);
    case trainmem::AdviceKind::kFullAc:
      return Tr(Str::kAdviceFullAc);
    case trainmem::AdviceKind::kFusedOptimizerStep:
      return Tr(Str::kAdviceFusedStep);
    case trainmem::AdviceKind::kDistributedOptimizer:
      return Tr(Str::kAdviceDistributedOptimizer);
    case trainmem::AdviceKind::kSwapOptimizer:
      return Tr(Str::kAdviceSwapOptimizer);
    case trainmem::AdviceKind::kOffloadOptimizer:
      return Tr(Str::kAdviceOffloadOptimizer);
    case trainmem::AdviceKind::kTensorParallel:
      return TrFormat(Str::kAdviceTensorParallel, from, to);
    case trainmem::AdviceKind::kPipelineParallel:
      return TrFormat(Str::kAdvicePipelineParallel, from, to);
    case trainmem::AdviceKind::kExpertParallel:
      return TrFormat(Str::kAdviceExpertParallel, from, to);
    case trainmem::AdviceKind::kContextParallel:
      return TrFormat(Str::kAdviceContextParallel, from, to);
    case trainmem::AdviceKind::kBatchSize:
      return TrFormat(Str::kAdviceBatchSize, from, to);
    case trainmem::AdviceKind::kZeroStage:
      return TrFormat(to >= 3   ? Str::kAdviceZeroStageParameters
                      : to == 2 ? Str::kAdviceZeroStageGradients
                                : Str::kAdviceZeroStageOptimizer,
                      from, to);
    case trainmem::AdviceKind::kSeqLen:
      return TrFormat(Str::kAdviceSeqLen, from, to);
    case trainmem::AdviceKind::kCombination:
      break;
  }
  return Tr(Str::kAdviceCombination);
}

namespace {

std::string Unquoted(const std::string& value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
    return value.substr(1, value.size() - 2);
  return value;
}

const char* AcModeWords(const std::string& mode) {
  if (mode == "full") return Tr(Str::kAcWordsFull);
  if (mode == "selective") return Tr(Str::kAcWordsSelective);
  return Tr(Str::kAcWordsNone);
}

}  // namespace

Str VerdictPill(trainmem::Verdict verdict) {
  switch (verdict) {
    case trainmem::Verdict::kFits:
      return Str::kPillFits;
    case trainmem::Verdict::kCloseToLimit:
      return Str::kPillClose;
    case trainmem::Verdict::kDoesNotFit:
      break;
  }
  return Str::kPillNoFit;
}

Str VerdictPhrase(trainmem::Verdict verdict) {
  switch (verdict) {
    case trainmem::Verdict::kFits:
      return Str::kSummaryFits;
    case trainmem::Verdict::kCloseToLimit:
      return Str::kSummaryClose;
    case trainmem::Verdict::kDoesNotFit:
      break;
  }
  return Str::kSummaryDoesNotFit;
}

std::string AdviceWithChanges(const trainmem::Recommendation& r) {
  std::string sentence = AdviceSentence(r);
  // The data-parallel degree follows the others (-1: the rest) and goes without saying.
  std::vector<std::pair<std::string, std::string>> said;
  // The selective policy goes without saying too when the step checkpoints whole blocks.
  bool full = false;
  for (const auto& change : r.changes)
    full =
        full || (change.first == "activation_checkpoint.mode" && Unquoted(change.second) == "full");
  for (const auto& change : r.changes)
    if (change.first != "parallelism.data_parallel_shard_degree" &&
        !(full && change.first == "activation_checkpoint.selective_ac_option"))
      said.push_back(change);
  if (said.size() <= 1) return sentence;
  std::string all;
  for (const auto& [key, value] : said)
    all += (all.empty() ? "" : " \xC2\xB7 ") + ChangeWords(key, value);
  return sentence + " (" + all + ")";
}

std::string ChangeWords(const std::string& key, const std::string& raw) {
  const std::string value = Unquoted(raw);
  const long long number = std::atoll(value.c_str());
  if (key == "activation_checkpoint.mode") return AcModeWords(value);
  if (key == "activation_checkpoint.selective_ac_option")
    return value == "op" ? Tr(Str::kChangeAcOp) : TrFormat(Str::kChangeAcEvery, number);
  if (key == "optimizer.swap_optimizer") return Tr(Str::kChangeSwap);
  if (key == "optimizer.offload") return Tr(Str::kChangeOffload);
  if (key == "optimizer.implementation") return Tr(Str::kChangeFusedStep);
  if (key == "parallelism.zero_stage")
    return number == 1 ? Tr(Str::kChangeDistributedOptimizer)
                       : TrFormat(Str::kChangeZeroStage, number);
  if (key == "parallelism.data_parallel_shard_degree")
    return number < 0 ? Tr(Str::kChangeFsdpRest) : TrFormat(Str::kChangeFsdp, number);
  if (key == "parallelism.tensor_parallel_degree") return TrFormat(Str::kChangeTp, number);
  if (key == "parallelism.pipeline_parallel_degree") return TrFormat(Str::kChangePp, number);
  if (key == "parallelism.expert_parallel_degree") return TrFormat(Str::kChangeEp, number);
  if (key == "parallelism.context_parallel_degree") return TrFormat(Str::kChangeCp, number);
  if (key == "training.local_batch_size") return TrFormat(Str::kChangeBatch, number);
  if (key == "training.seq_len") return TrFormat(Str::kChangeSeq, number);
  if (key == "world_size") return TrFormat(Str::kChangeDevices, number);
  return key + " = " + value;  // not produced by the advice today
}

std::string AcWords(const trainmem::Config& config) {
  const auto& ac = config.activation_checkpoint;
  switch (ac.mode) {
    case trainmem::AcMode::kNone:
      return Tr(Str::kAcWordsNone);
    case trainmem::AcMode::kFull:
      return Tr(Str::kAcWordsFull);
    case trainmem::AcMode::kSelective:
      break;
  }
  // Megatron's selective recompute is its core attention (or --recompute-modules), whatever
  // torchtitan's selective_ac_option says.
  if (config.framework == trainmem::Framework::kMegatron)
    return Tr(ac.recompute_modules != 0 ? Str::kAcWordsSelectiveModules
                                        : Str::kAcWordsSelectiveMegatron);
  if (ac.selective_ac_option == "op") return Tr(Str::kAcWordsSelectiveOp);
  return TrFormat(Str::kAcWordsSelectiveEvery, ac.selective_ac_option.c_str());
}

// "FSDP 8", "TP 8 · PP 4 · FSDP 2", "DP 2 · FSDP 4 · EP 8" (Megatron: "DP 8 · TP 2"): the degrees
// above 1.
std::string LayoutWords(const trainmem::Config& config, const trainmem::Layout& l) {
  std::string out;
  auto add = [&out](const char* name, std::int64_t degree) {
    if (degree <= 1) return;
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%s %lld", name, static_cast<long long>(degree));
    out += (out.empty() ? "" : " \xC2\xB7 ") + std::string(buffer);
  };
  // Megatron and DeepSpeed have one data-parallel group (sharding is the distributed
  // optimizer's or ZeRO's): "FSDP" would name a wrapper they do not use.
  const bool fsdp = trainmem::IsTorchtitanFramework(config.framework) ||
                    config.framework == trainmem::Framework::kTorchtune;
  if (fsdp) {
    add("DP", l.dp_replicate);
    add("FSDP", l.dp_shard);
  } else {
    add("DP", l.dp_replicate * l.dp_shard);
  }
  add("TP", l.tp);
  add("PP", l.pp);
  add("CP", l.cp);
  if (config.model.num_experts > 0) {
    add("EP", l.ep);
    add("ETP", l.etp);
  }
  return out.empty() ? Tr(Str::kLayoutSingle) : out;
}

std::string BatchWords(const trainmem::Config& c, const trainmem::Layout& layout) {
  // With pipeline parallelism the local batch is cut into microbatches of
  // pp_microbatch_size (Megatron's --micro-batch-size), which is what a stage holds at once.
  const long long local = c.training.local_batch_size;
  const long long micro = c.parallelism.pp_microbatch_size;
  if (layout.pp > 1 && micro > 0 && micro < local)
    return TrFormat(Str::kMicroBatchWords, micro, static_cast<long long>(c.training.seq_len),
                    local);
  return TrFormat(Str::kBatchWords, local, static_cast<long long>(c.training.seq_len));
}

std::string EstimatedWhat(const trainmem::Config& c, const trainmem::Layout& layout) {
  std::string what = TrFormat(Str::kEstimatedWhatTemplate, ModelDisplayName(c).c_str(),
                              static_cast<long long>(c.world_size), c.device.name.c_str(),
                              Tr(FrameworkLabel(c.framework)), LayoutWords(c, layout).c_str(),
                              BatchWords(c, layout).c_str(), AcWords(c).c_str());
  // A LoRA job is a different job: say so where the page names what it estimated.
  if (c.training.lora_rank > 0)
    what += " \xC2\xB7 " + TrFormat(Str::kLoraWords, static_cast<long long>(c.training.lora_rank));
  if (c.training.lora_rank > 0 && c.training.base_quantization != trainmem::BaseQuantization::kNone)
    what += ", " + TrFormat(Str::kBaseQuantWords,
                            Tr(c.training.base_quantization == trainmem::BaseQuantization::kInt8
                                   ? Str::kBaseQuantInt8
                               : c.training.base_quantization == trainmem::BaseQuantization::kNf4
                                   ? Str::kBaseQuantNf4
                                   : Str::kBaseQuantNf4Double));
  return what;
}

}  // namespace app
