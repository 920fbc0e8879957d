// EstimateMemory: assembles the per-stage breakdown from the recipe (estimate_params.cpp) and the
// activations (estimate_activations.cpp), finds the peak phase, applies the allocator reserve and
// checks the budget. Template mode (estimate_template.cpp) is the seed's formulas verbatim.
//
// Phases, not sums (reference/README.md): the device peak is either at the start of backward
// (saved activations + loss, gradients not yet produced) or at the optimizer step (all gradients
// + optimizer temporaries, activations freed). A caching allocator keeps freed blocks reserved:
// torchtitan frees gradients with zero_grad(set_to_none=True) but their blocks stay reserved, so
// they count toward `total` (max reserved) though not toward `peak_allocated`.
#include "core/estimate/estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/estimate/estimate_internal.h"
#include "core/estimate/optimizer_states.h"
#include "core/estimate/template_mode.h"

namespace trainmem {
namespace detail {

std::int64_t ToBytes(double bytes) {
  if (!(bytes > 0)) return 0;  // also NaN
  if (bytes >= 9.0e18) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(bytes + 0.5);  // round half up; bytes > 0 here
}

}  // namespace detail

namespace {

using detail::ToBytes;

ParamCounts TrainedParams(const Config& config, const ParamCounts& main_model) {
  ParamCounts p = main_model;
  if (config.training.mtp && config.model.num_mtp_layers > 0) {
    std::int64_t mtp = config.model.num_mtp_layers * MtpModuleParams(config.model, false);
    p.mtp = mtp;
    p.total += mtp;
    p.dense += mtp;  // counted as dense: its routed experts are a small share (1 of 61 blocks)
  }
  if (config.training.vision_tower == VisionTower::kTrained && config.model.vision_params > 0) {
    // A vision tower trained with the model (SplitStages puts it on the first stage).
    p.vision = config.model.vision_params;
    p.total += p.vision;
    p.dense += p.vision;
  }
  return p;
}

StageEstimate DetailedStage(const Config& config, const Layout& layout,
                            const detail::StageParams& sp, int index, double workspaces,
                            double& host_optimizer) {
  StageEstimate st;
  st.stage = index;
  st.first_layer = sp.first_layer;
  st.num_layers = sp.num_layers;
  st.has_embedding = sp.has_embedding;
  st.has_head = sp.has_head;
  const detail::StateBytes state = detail::ComputeStateBytes(config, layout, sp);
  host_optimizer = state.host_optimizer;
  const detail::StageActivations act = detail::ComputeActivations(config, layout, sp, index);
  st.activations = act.breakdown;

  const double persistent = state.parameters + state.optimizer_states + workspaces;
  const double gathered_in_step = layout.pp > 1 ? state.gathered_params : 0;
  const double live_grads_a = state.grads_freed_before_forward ? 0 : state.gradients;
  const double transient_a = state.gathered_params + state.unsharded_grads + state.grad_buckets;
  const double phase_a = persistent + live_grads_a + act.peak_bytes + transient_a;
  const double phase_b = persistent + state.gradients + state.optimizer_step_temp +
                         gathered_in_step + state.grad_buckets;
  const double cached_a = state.grads_freed_before_forward ? state.gradients : 0;
  // Gradients freed by zero_grad come back block by block during backward while the saved
  // activations go: the backward's other end (the first block) holds every sharded gradient,
  // that block's recompute and gradient temporaries, its gathered parameters and its unsharded
  // gradients. With full checkpointing and large optimizer state this end is the peak.
  const double transient_c =
      state.gathered_at_backward_end + state.unsharded_grads_at_backward_end + state.grad_buckets;
  const double phase_c =
      state.grads_freed_before_forward
          ? persistent + state.gradients + act.end_of_backward_bytes + transient_c
          : 0;
  const bool end_peak = phase_c > phase_a + cached_a && phase_c > phase_b;
  const bool backward_peak = !end_peak && phase_a + cached_a >= phase_b;
  const double allocated = std::max({phase_a, phase_b, phase_c});
  const double reserved_base = std::max({phase_a + cached_a, phase_b, phase_c});
  // Reserved over allocated: PyTorch's caching allocator rounds large requests up to 2 MiB
  // multiples, carves them from cudaMalloc'd segments it never merges, and keeps every freed
  // block (c10/cuda/CUDACachingAllocator.cpp), so max_memory_reserved exceeds the allocated
  // peak by the fragmentation of the large blocks. overhead.temporary_fraction (0.10) is that
  // share: the DeepSeek-V3-16B EP4 run logs 40.78 GiB reserved for 36.17 GiB active (12.7%),
  // and the FSDP calibration runs sit 10–15% above allocated-plus-cached-gradients.
  const double fraction = config.overhead.temporary_fraction * reserved_base;

  MemoryBreakdown& m = st.bytes;
  TemporaryBreakdown& t = st.temporary;
  m.parameters = ToBytes(state.parameters);
  m.gradients = ToBytes(state.gradients);
  m.optimizer_states = ToBytes(state.optimizer_states);
  if (end_peak) {
    st.peak_phase = "backward end";
    m.activations = ToBytes(act.end_of_backward_bytes);
    t.gathered_params = ToBytes(state.gathered_at_backward_end);
    t.unsharded_grads = ToBytes(state.unsharded_grads_at_backward_end);
  } else if (backward_peak) {
    st.peak_phase = "backward start";
    m.activations = ToBytes(act.peak_bytes);
    t.gathered_params = ToBytes(state.gathered_params);
    t.unsharded_grads = ToBytes(state.unsharded_grads);
  } else {
    st.peak_phase = "optimizer step";
    t.gathered_params = ToBytes(gathered_in_step);
    t.optimizer_step = ToBytes(state.optimizer_step_temp);
  }
  t.grad_buckets = ToBytes(state.grad_buckets);
  t.workspaces = ToBytes(workspaces);
  t.fraction = ToBytes(fraction);
  m.temporary = t.gathered_params + t.unsharded_grads + t.grad_buckets + t.workspaces +
                t.optimizer_step + t.fraction;
  m.total = m.parameters + m.gradients + m.optimizer_states + m.activations + m.temporary;
  m.peak_allocated = std::min(m.total, ToBytes(allocated));
  t.allocator_reserve = m.total - m.peak_allocated;
  // The first iteration: the same phases without the states its optimizer step creates.
  const double lazy = state.lazy_states;
  m.first_iteration_peak_allocated =
      std::min(m.peak_allocated,
               ToBytes(std::max({phase_a - lazy, phase_b, phase_c > 0 ? phase_c - lazy : 0.0})));
  return st;
}

// swap_optimizer / optimizer offload where the framework has no such option: the estimate keeps
// the states on the device (frameworks.cpp) and says so, naming what the framework has instead.
void WarnOptionsTheFrameworkLacks(const Config& c, std::vector<std::string>& warnings) {
  if (!c.optimizer.swap_optimizer && !c.optimizer.offload) return;  // no string built per estimate
  const OptimizerOffDeviceOptions has = FrameworkOptimizerOptions(c.framework);
  const std::string framework = FrameworkName(c.framework);
  if (c.optimizer.swap_optimizer && has.swap_optimizer == nullptr)
    warnings.push_back(
        "optimizer.swap_optimizer has no effect with " + framework + " (it has no swap_optimizer)" +
        (has.offload ? std::string("; optimizer.offload is its ") + has.offload : std::string()));
  if (c.optimizer.offload && has.offload == nullptr)
    warnings.push_back(
        "optimizer.offload has no effect with " + framework + " (it has no optimizer offload)" +
        (has.swap_optimizer ? std::string("; optimizer.swap_optimizer is its ") + has.swap_optimizer
                            : std::string()));
}

// "12.00 GiB", for the warnings (report.cpp's FormatGiB sits above the estimate).
std::string GiBText(std::int64_t bytes) {
  char text[48];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / 1073741824.0);
  return text;
}

void AddWarnings(Estimate& e) {
  const Config& c = e.config;
  // What reading the model's config.json assumed (model.h ModelArch::warnings).
  e.warnings.insert(e.warnings.end(), c.model.warnings.begin(), c.model.warnings.end());
  for (std::string& w : detail::OptimizerWarnings(c)) e.warnings.push_back(std::move(w));
  if (c.optimizer.implementation != OptimizerImpl::kFused) {
    // Megatron steps with its own fused Adam (apex / Transformer Engine FusedAdam,
    // megatron/core/optimizer/__init__.py); StepImplementationTemp covers Adam and AdamW.
    if (c.framework == Framework::kMegatron)
      e.warnings.push_back(std::string("optimizer.implementation ") +
                           OptimizerImplName(c.optimizer.implementation) +
                           " has no effect with megatron: its Adam is a fused kernel");
    else if (!IsTorchAdam(c.optimizer.name))
      e.warnings.push_back(std::string("optimizer.implementation ") +
                           OptimizerImplName(c.optimizer.implementation) + " is counted for " +
                           "Adam and AdamW only; " + OptimizerName(c.optimizer.name) +
                           "'s step temporaries are not counted");
  }
  if (c.training.seq_len % std::max<std::int64_t>(1, c.parallelism.tp) != 0 &&
      SequenceParallelOn(c, c.parallelism.tp)) {
    // Megatron's _split_along_first_dim asserts equal parts at the scatter into the
    // sequence-parallel region; its RL sequence packing pads each packed batch to a multiple.
    e.warnings.push_back("seq_len " + std::to_string(c.training.seq_len) +
                         " is not a multiple of tensor_parallel_degree " +
                         std::to_string(c.parallelism.tp) +
                         ": sequence parallelism splits the sequence into equal parts, so the "
                         "framework must pad each batch (Megatron's RL sequence packing does); the "
                         "estimate takes the length as given");
  }
  if (c.training.base_quantization != BaseQuantization::kNone) {
    const std::string q = BaseQuantizationName(c.training.base_quantization);
    if (c.training.lora_rank <= 0)
      e.warnings.push_back("training.base_quantization " + q +
                           " has no effect without training.lora_rank: a quantized base trains "
                           "only through its adapters");
    else if (!FrameworkHasQuantizedBase(c.framework))
      e.warnings.push_back("training.base_quantization " + q + " has no effect with " +
                           FrameworkName(c.framework) +
                           " (QLoRA runs on the Hugging Face Trainer, framework deepspeed, and "
                           "torchtune)");
    else if (c.framework == Framework::kDeepspeed &&
             c.training.base_quantization == BaseQuantization::kInt8 &&
             c.parallelism.zero_stage.value_or(0) >= 3)
      // LLaMA-Factory (model/model_utils/quantization.py) refuses it; bitsandbytes' Int8Params
      // cannot be sharded.
      e.warnings.push_back(
          "int8 base weights with ZeRO-3 / FSDP: only 4-bit bitsandbytes weights can be sharded "
          "(LLaMA-Factory refuses this combination); the estimate shards them anyway");
    else if (c.framework == Framework::kDeepspeed)
      // peft utils/other.py prepare_model_for_kbit_training: every fp16/bf16 parameter that is
      // not Params4bit / Int8 is cast to fp32.
      e.warnings.push_back(
          "QLoRA: the embedding, head and norms are counted in the compute dtype; peft's "
          "prepare_model_for_kbit_training (TRL, axolotl, FastChat) casts them to fp32, 2 bytes "
          "a parameter more (LLaMA-Factory does not)");
  }
  if (c.training.attention == AttentionImpl::kEager)
    e.warnings.push_back("eager attention keeps seq_len × seq_len scores per head for backward");
  // training.vision_tower: what the estimate holds of a multimodal model's tower.
  if (c.training.vision_tower != VisionTower::kNone) {
    if (c.model.vision_params <= 0)
      e.warnings.push_back(std::string("training.vision_tower is ") +
                           VisionTowerName(c.training.vision_tower) +
                           ", but the model counts no vision tower: nothing is added");
    else if (c.training.vision_tower == VisionTower::kFrozen)
      e.warnings.push_back(
          "the vision tower is loaded frozen: its weights are in the estimate, with no gradients "
          "or optimizer states; its image-token activations are not modelled");
    else
      e.warnings.push_back(
          "the vision tower trains with the model: its weights, gradients and optimizer states "
          "are in the estimate; its image-token activations are not modelled");
  }
  if (e.host_optimizer_bytes > 0) {
    e.warnings.push_back("optimizer states on the host: each rank needs " +
                         GiBText(e.host_optimizer_bytes) + " of pinned host memory");
  }
  if (c.mode == Mode::kDetailed)
    e.warnings.push_back(
        "NCCL/HCCL communication buffers and the runtime context live outside "
        "the caching allocator; the budget margin covers them");
  WarnOptionsTheFrameworkLacks(c, e.warnings);
  // Megatron builds num_layers / pp blocks per pipeline rank and asserts that they divide
  // (megatron/core/transformer/transformer_block.py get_num_layers_to_build) unless the first /
  // last stage's count is given (--decoder-first/last-pipeline-num-layers), the embedding and
  // loss count as layers (--account-for-embedding/loss-in-pipeline-split), or a layout is given;
  // MindSpeed-LLM takes --num-layer-list. The importer writes any of those as
  // parallelism.pp_layer_list. Hybrid (Mamba / linear-attention) stacks split by their own
  // pattern and are left out.
  const std::int64_t stack = c.model.num_layers;
  const bool plain_stack = std::all_of(c.model.layer_mixer.begin(), c.model.layer_mixer.end(),
                                       [](MixerKind k) { return k == MixerKind::kAttention; });
  if (c.mode == Mode::kDetailed && c.framework == Framework::kMegatron && e.layout.pp > 1 &&
      c.parallelism.pp_layer_list.empty() && plain_stack && stack % e.layout.pp != 0) {
    e.warnings.push_back(
        std::to_string(stack) + " layers do not divide into " + std::to_string(e.layout.pp) +
        " pipeline stages: Megatron stops at its check unless the first/last stage's layer count "
        "is given (--decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers; "
        "MindSpeed: --num-layer-list), which parallelism.pp_layer_list states; estimated with "
        "the layers spread as evenly as they go");
  }
  if (c.optimizer.swap_optimizer && c.framework == Framework::kMegatron &&
      c.parallelism.zero_stage.value_or(0) < 1)
    e.warnings.push_back(
        "MindSpeed's swap_optimizer extends the distributed optimizer: it needs zero_stage 1 "
        "(--use-distributed-optimizer)");
  if (c.optimizer.reuse_fp32_param && (c.framework != Framework::kMegatron ||
                                       c.training.mixed_precision_param != DType::kBFloat16 ||
                                       c.parallelism.zero_stage.value_or(0) < 1))
    // estimate_params.cpp MegatronRecipe: MindSpeed reuses the bf16 parameter buffer for the
    // fp32 master shard only in that combination (mindspeed/core/memory/reuse_param/adaptor.py).
    e.warnings.push_back(
        "optimizer.reuse_fp32_param has no effect here: MindSpeed's --reuse-fp32-param needs a "
        "Megatron-based job with bfloat16 parameters and the distributed optimizer (zero_stage 1)");
  if (c.activation_checkpoint.swap_attention && c.framework != Framework::kMegatron)
    // estimate_activations.cpp BlockUnderPolicy: MindSpeed's swap is a Megatron-family option.
    e.warnings.push_back(
        "activation_checkpoint.swap_attention has no effect here: MindSpeed's --swap-attention "
        "needs a Megatron-based job");
  // Keys that only Megatron-LM reads (estimate_params.cpp MegatronRecipe,
  // estimate_activations.cpp DeferredWgradBytes), each with the flag it mirrors.
  const struct {
    bool set;
    const char* key;
    const char* flag;
  } megatron_only[] = {
      {c.parallelism.dist_opt_instances > 1, "parallelism.num_distributed_optimizer_instances",
       "--num-distributed-optimizer-instances"},
      {c.training.grad_reduce_in_bf16, "training.grad_reduce_in_bf16", "--grad-reduce-in-bf16"},
      {c.training.defer_embedding_wgrad_compute, "training.defer_embedding_wgrad_compute",
       "--defer-embedding-wgrad-compute"},
  };
  for (const auto& m : megatron_only)
    if (m.set && c.framework != Framework::kMegatron)
      e.warnings.push_back(std::string(m.key) + " has no effect here: it is Megatron-LM's " +
                           m.flag);
  if (c.framework == Framework::kDeepspeed && e.layout.tp > 1 && c.parallelism.sequence_parallel)
    e.warnings.push_back(
        "DeepSpeed's AutoTP has no sequence parallelism: norm and dropout activations are "
        "replicated on every tensor-parallel rank (sequence_parallel does not apply)");
  const bool torchtitan = IsTorchtitanFramework(c.framework);
  // estimate_params.cpp FsdpRecipe / DeepspeedRecipe: torchtitan's trainer and the Trainer
  // without DeepSpeed read training.dtype.
  const bool full_bf16_applies = FrameworkHasFullBf16(c.framework);
  if (c.training.dtype != DType::kFloat32 && !full_bf16_applies)
    e.warnings.push_back(
        "training.dtype has no effect here: it is torchtitan's full-bf16 switch; this "
        "framework's own precision options decide its master weights");
  if (c.training.dtype != DType::kFloat32 && full_bf16_applies && c.mode == Mode::kTemplate)
    e.warnings.push_back(
        "training.dtype is applied in detailed mode only: the template's formulas keep fp32 "
        "masters");
  if (c.mode == Mode::kDetailed && torchtitan && c.training.loss_chunks <= 1 && !e.stages.empty()) {
    // torchtitan's model configs compute the loss with ChunkedLossWrapper (num_chunks = 8) since
    // 2026-04 (components/loss.py); a job that does holds a fraction of these logits.
    const StageEstimate& worst = e.stages[static_cast<std::size_t>(e.worst_stage)];
    const std::int64_t loss = worst.activations.logits_and_loss;
    if (loss > worst.bytes.total / 5)
      e.warnings.push_back("the whole-sequence loss holds " + std::to_string(loss >> 30) +
                           " GiB of fp32 logits here; torchtitan's current model configs chunk it "
                           "(ChunkedLossWrapper, 8 chunks): set training.loss_chunks = 8 if your "
                           "job does");
  }
  const EpCommBackend dispatcher = c.parallelism.ep_comm_backend;
  if (dispatcher != EpCommBackend::kStandard && !torchtitan)
    e.warnings.push_back(std::string("parallelism.expert_parallel_comm_backend ") +
                         EpCommBackendName(dispatcher) + " is torchtitan's switch; " +
                         FrameworkName(c.framework) + " is estimated with its own dispatcher");
  if (e.budget.outside_allocator_bytes > 0)
    e.warnings.push_back(
        "MinimalAsyncEP's two receive buffers (EP × tokens per rank × min(top-k, local experts) × "
        "dim) take " +
        GiBText(e.budget.outside_allocator_bytes) +
        " of symmetric memory outside the caching allocator: not in the total (torchtitan's "
        "memory line does not show them either), taken from the usable memory");
  if (c.mode == Mode::kDetailed && torchtitan && e.layout.ep > 1 &&
      (dispatcher == EpCommBackend::kDeepEp || dispatcher == EpCommBackend::kHybridEp))
    // torchtitan models/common/token_dispatcher.py: AllToAllTokenDispatcher ("standard") is
    // what estimate_activations.cpp counts. DeepEP / HybridEP (moe_comm_backend) preallocate
    // their own buffers and save what their dispatch returns; a fork's DeepEP runs of
    // Qwen3-30B-A3B at EP 8 (NousResearch/torchtitan#19) peaked 21–71% above this estimate.
    e.warnings.push_back(
        "expert parallelism is estimated with torchtitan's standard all-to-all token dispatcher; "
        "DeepEP/HybridEP dispatch keeps other buffers and is not modelled");
  if (c.mode == Mode::kDetailed && torchtitan && e.layout.ep >= 8 &&
      c.activation_checkpoint.mode == AcMode::kFull)
    // tests/data/torchtitan_runs.jsonl: GPT-OSS-120B EP 8 full AC gains 15.6 GiB per 8192-token
    // sample (bs 1 → 3) where the estimate gains 5.1; the DeepEP Qwen3-30B-A3B runs above gain
    // 13.7 GiB per 4096-token sample against 8.5. Routing imbalance is part of it (a
    // balanced-routing run peaked 7.6 GiB lower); the rest is not found, so it is said, not added.
    // DeepSeek-V3 16B at EP 4 with full AC shows no such excess (batch 4 and 16, standard and
    // MinimalAsyncEP dispatch: −3.6…+7.1% reserved), so the warning is for EP 8 and beyond.
    e.warnings.push_back(
        "expert parallelism with full checkpointing: measured EP 8 runs held 5–10 GiB more per "
        "sample of 4–8k tokens than this estimate counts (routing imbalance and dispatch "
        "buffers); leave headroom that grows with the local batch");
  if (c.mode == Mode::kDetailed && c.training.fp8)
    e.warnings.push_back(
        "fp8 is estimated like bf16: float8/MXFP8 linears cast their inputs inside the matmul "
        "and keep fp32 masters, bf16 gathers and bf16 activations between layers (torchtitan "
        "components/quantization); measured float8/MXFP8 peaks are within a few percent of "
        "bf16 (NVFP4 blocks are training.nvfp4_layers)");
  if (c.mode == Mode::kDetailed && c.training.nvfp4_layers != 0) {
    // estimate_activations.cpp BlockUnderPolicy: NVFP4 changes what per-op SAC keeps. Full AC
    // keeps block inputs either way. With no AC (or a non-checkpointed block) each NVFP4Linear
    // saves FP4 codes of its input and of its weight (nvfp4_mm_triton.forward) where a bf16
    // linear saves its input, which the estimate does not subtract.
    if (!torchtitan)
      e.warnings.push_back("training.nvfp4_layers is torchtitan's NVFP4 converter; with " +
                           std::string(FrameworkName(c.framework)) +
                           " those blocks are estimated as bf16");
    else if (c.activation_checkpoint.mode == AcMode::kNone ||
             (c.activation_checkpoint.mode == AcMode::kSelective &&
              c.activation_checkpoint.selective_ac_option != "op"))
      e.warnings.push_back(
          "NVFP4 blocks are estimated as bf16 without per-op selective AC: their linears then "
          "save FP4 copies of their inputs and weights in place of bf16 inputs, which is not "
          "subtracted (the estimate is high)");
  }
  if (c.model.num_mtp_layers > 0 && !c.training.mtp)
    e.warnings.push_back("the model has MTP modules; they are not trained (training.mtp = false)");
  if (c.training.lora_rank > 0) {
    if (c.mode == Mode::kTemplate) {
      e.warnings.push_back(
          "training.lora_rank is applied in detailed mode only: the template's formulas train "
          "every weight");
    } else {
      const auto adapters = static_cast<std::int64_t>(
          std::llround(detail::LoraAdapterParams(c.model, c.training.lora_rank)));
      e.warnings.push_back("LoRA rank " + std::to_string(c.training.lora_rank) + ": " +
                           std::to_string(adapters) +
                           " adapter parameters train (every 2-D weight of the blocks); the base "
                           "weights are frozen, without gradients, optimizer states or fp32 "
                           "master");
      // The Hugging Face stacks (framework deepspeed): LLaMA-Factory's lora_target all
      // (model_utils/misc.py find_all_linear_modules) and PEFT's all-linear match every
      // nn.Linear but the head, the experts' too while transformers builds them as separate
      // linears (4.x); transformers 5 fuses them into 3-D tensors these targets leave out.
      const auto experts = static_cast<std::int64_t>(
          std::llround(detail::LoraExpertAdapterParams(c.model, c.training.lora_rank)));
      if (c.framework == Framework::kDeepspeed && experts > 0)
        e.warnings.push_back(
            "LoRA on the routed experts is not counted: " + std::to_string(experts) +
            " more adapter parameters at rank " + std::to_string(c.training.lora_rank) +
            " if the targets wrap every expert's projections (lora_target all / all-linear "
            "with transformers 4.x, where experts are separate linears; each trains with about "
            "16 bytes of weights, gradients and AdamW states before sharding)");
    }
  }
}

}  // namespace

namespace {

// Everything but the config copy, the template comparison and the warnings: the part the
// layout search and the heatmap need, thousands of times per interaction.
struct StagesResult {
  std::vector<StageEstimate> stages;
  std::int64_t host_optimizer_bytes = 0;
  std::int64_t host_activation_bytes = 0;
  int worst_stage = 0;
};

StagesResult ComputeStages(const Config& config, const Layout& layout, const ModelCounts& counts,
                           const TemplateComparison* comparison) {
  const ParamCounts& main_model = counts.main_model;
  StagesResult r;
  if (config.mode == Mode::kTemplate) {
    const TemplateComparison t =
        comparison != nullptr ? *comparison : TemplateComparisonFor(config, layout, main_model);
    r.stages = TemplateStages(config, layout, t);
    r.host_optimizer_bytes = TemplateHostOptimizerBytes(config, layout);
  } else {
    const std::vector<detail::StageParams> split =
        detail::SplitStages(config, layout, config.model, counts.layers, main_model);
    r.stages.reserve(split.size());
    const double workspaces = detail::GemmWorkspaceBytes(config);
    for (std::size_t i = 0; i < split.size(); ++i) {
      double host_optimizer = 0;
      r.stages.push_back(
          DetailedStage(config, layout, split[i], static_cast<int>(i), workspaces, host_optimizer));
      r.host_optimizer_bytes = std::max(r.host_optimizer_bytes, ToBytes(host_optimizer));
      r.host_activation_bytes =
          std::max(r.host_activation_bytes, r.stages.back().activations.offloaded_to_host);
    }
  }
  for (std::size_t i = 0; i < r.stages.size(); ++i) {
    if (config.mode == Mode::kTemplate)
      r.stages[i].bytes.first_iteration_peak_allocated = r.stages[i].bytes.peak_allocated;
    if (r.stages[i].bytes.total > r.stages[static_cast<std::size_t>(r.worst_stage)].bytes.total)
      r.worst_stage = static_cast<int>(i);
  }
  return r;
}

// MinimalAsyncEP's receive buffers (torchtitan distributed/minimal_async_ep/api.py init_buffer):
// _HIDDEN_RECV_BUFFER_COUNT = 2 buffers of max_routed_tokens = ep · num_max_tokens_per_rank ·
// min(top_k, local experts) rows × dim, in the parameters' compute dtype, from symm_mem.empty:
// outside PyTorch's caching allocator, so in no torch memory statistic, yet on the device.
// num_max_tokens_per_rank = tokens per microbatch / (cp · tp) (models/common/token_dispatcher.py
// update_ep_token_dispatcher_config: CP and TP/SP shard the token axis before the MoE).
std::int64_t EpDispatchBufferBytes(const Config& c, const Layout& l) {
  if (c.mode != Mode::kDetailed || !IsTorchtitanFramework(c.framework) ||
      c.parallelism.ep_comm_backend != EpCommBackend::kMinimalAsyncEp || l.ep <= 1 ||
      c.model.num_experts == 0)
    return 0;
  const double sequences = static_cast<double>(SequencesPerMicrobatch(c, l.pp));
  const double tokens =
      sequences * static_cast<double>(c.training.seq_len) / static_cast<double>(l.cp * l.tp);
  const double local_experts = static_cast<double>(c.model.num_experts) / static_cast<double>(l.ep);
  const double rows = static_cast<double>(l.ep) * tokens *
                      std::min(static_cast<double>(c.model.experts_per_token), local_experts);
  return ToBytes(2.0 * rows * static_cast<double>(c.model.hidden_size) *
                 static_cast<double>(DTypeBytes(c.training.mixed_precision_param)));
}

Budget BudgetFor(const Config& c, const Layout& l, std::int64_t total, const ErrorBand& band) {
  Budget b;
  b.device_bytes = c.device.memory_bytes;
  b.outside_allocator_bytes = EpDispatchBufferBytes(c, l);
  b.usable_bytes =
      ToBytes(static_cast<double>(c.device.memory_bytes) * c.overhead.budget_fraction) -
      b.outside_allocator_bytes;
  b.fits = total <= b.usable_bytes;
  b.headroom_bytes = b.usable_bytes - total;
  b.error_band = band.band;
  b.verdict = VerdictFor(total, b.usable_bytes, band.band, band.below);
  return b;
}

}  // namespace

Estimate EstimateMemory(const Config& config) {
  Estimate e;
  e.config = config;
  std::vector<Error> errors = ValidateConfig(config);
  if (!errors.empty()) {
    for (const Error& err : errors) e.warnings.push_back("invalid config: " + FormatError(err));
    return e;
  }
  Result<Layout> layout = ResolveLayout(config);
  if (!layout.ok()) return e;
  e.layout = layout.value();
  const ModelCounts counts = CountModel(config.model);
  e.params = TrainedParams(config, counts.main_model);
  e.template_comparison = TemplateComparisonFor(config, e.layout, counts.main_model);
  StagesResult r = ComputeStages(config, e.layout, counts, &e.template_comparison);
  e.stages = std::move(r.stages);
  e.host_optimizer_bytes = r.host_optimizer_bytes;
  e.host_activation_bytes = r.host_activation_bytes;
  e.worst_stage = r.worst_stage;
  if (!e.stages.empty()) e.per_device = e.stages[static_cast<std::size_t>(e.worst_stage)].bytes;
  e.accuracy = ErrorBandFor(config);
  e.budget = BudgetFor(config, e.layout, e.per_device.total, e.accuracy);
  AddWarnings(e);
  return e;
}

ModelCounts CountModel(const ModelArch& arch) {
  ModelCounts counts;
  counts.layers = CountLayerParams(arch);
  counts.main_model = CountParamsOfLayers(arch, counts.layers);
  return counts;
}

TotalsEstimate EstimateTotals(const Config& config) {
  return EstimateTotals(config, CountModel(config.model));
}

TotalsEstimate EstimateTotals(const Config& config, const ModelCounts& counts) {
  TotalsEstimate t;
  Result<Layout> layout = ResolveLayout(config);
  if (!layout.ok()) return t;
  StagesResult r = ComputeStages(config, layout.value(), counts, nullptr);
  if (r.stages.empty()) return t;
  t.valid = true;
  t.per_device = r.stages[static_cast<std::size_t>(r.worst_stage)].bytes;
  t.budget = BudgetFor(config, layout.value(), t.per_device.total, ErrorBandFor(config));
  return t;
}

}  // namespace trainmem
