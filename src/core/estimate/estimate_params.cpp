// Parameters, gradients and optimizer states per device, by framework recipe; pipeline split.
//
// Sources (each recipe cites its own below):
// - seed/README.md ①②③: P·bytes/(TP·PP), experts /(TP·EP·PP), AdamW m+v fp32, FSDP shards over DP.
// - ZeRO: Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion
//   Parameter Models", §3 (2Ψ + 2Ψ + KΨ with K = 12 for mixed-precision Adam).
// - torchtitan: torchtitan/distributed/parallelize (fully_shard with MixedPrecisionPolicy
//   param_dtype bf16, reduce_dtype fp32: sharded fp32 master params/grads; the root module is not
//   resharded after forward); config [optimizer] implementation = "fused" by default.
// - Megatron-LM: megatron/core/distributed/param_and_grad_buffer.py (fp32 main-grad buffer for
//   bf16), megatron/core/optimizer/distrib_optimizer.py (fp32 master + m + v sharded over DP).
// - MindSpeed --swap-optimizer (mindspeed/core/optimizer/swap_optimizer/swap_optimizer.py,
//   SwapDistributedOptimizer): the fp32 master shard ('param'), exp_avg and exp_avg_sq live in
//   pinned host memory (12 bytes per element, the file's own "swap_num * 12") and come back in
//   swap_optimizer_times slices during the step. torchtitan-npu's swap optimizer moves only the
//   states (exp_avg, exp_avg_sq): its parameters are the FSDP fp32 shards themselves.
// - DeepSpeed MoE (deepspeed/utils/groups.py, deepspeed/moe/utils.py): expert parameters form
//   their own ZeRO groups over the expert-data-parallel ranks, dp / ep.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/estimate/accuracy.h"
#include "core/estimate/estimate_internal.h"
#include "core/estimate/optimizer_states.h"

namespace trainmem::detail {
namespace {

// Even split of L blocks over pp (or pp × virtual) chunks; the remainder goes to the middle
// stages, because the first and last stages already carry the embedding and the head.
std::vector<std::int64_t> LayersPerStage(std::int64_t layers, std::int64_t pp) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(pp), layers / pp);
  std::int64_t extra = layers % pp;
  for (std::int64_t i = 0; extra > 0; ++i, --extra) {
    std::int64_t middle = (pp - 1) / 2;
    std::int64_t offset = (i % 2 == 0) ? i / 2 : -(i + 1) / 2;
    std::int64_t idx = std::clamp<std::int64_t>(middle + offset, 0, pp - 1);
    counts[static_cast<std::size_t>(idx)] += 1;
  }
  return counts;
}

// The largest single weight matrices after TP / ETP, in elements, as Megatron lays them out:
// one fused QKV matrix (megatron/core/transformer/attention.py linear_qkv) and one fused
// [gate; up] fc1 for gated MLPs (mlp.py linear_fc1, 2·ffn wide), per expert for the experts
// (TEGroupedMLP keeps one weight per local expert). Used for per-tensor optimizer temporaries.
struct LargestMatrices {
  double block = 0;   // attention or dense/shared MLP matrix
  double expert = 0;  // one routed expert's fc1
};

LargestMatrices LargestMatricesOf(const ModelArch& m, double tp, double etp) {
  const double h = static_cast<double>(m.hidden_size);
  const double gate = m.mlp == MlpKind::kGated ? 2.0 : 1.0;
  double qkv = 0, out = 0;
  if (m.attention == AttentionKind::kMla) {
    const double heads = static_cast<double>(m.num_heads);
    const double qk = static_cast<double>(m.qk_nope_head_dim + m.qk_rope_head_dim);
    const double q_in = m.q_lora_rank > 0 ? static_cast<double>(m.q_lora_rank) : h;
    qkv = std::max(q_in * heads * qk, static_cast<double>(m.kv_lora_rank) * heads *
                                          static_cast<double>(m.qk_nope_head_dim + m.v_head_dim));
    out = heads * static_cast<double>(m.v_head_dim) * h;
  } else {
    const double d = static_cast<double>(m.head_dim);
    qkv = static_cast<double>(m.num_heads + 2 * m.num_kv_heads) * d * h;
    out = static_cast<double>(m.num_heads) * d * h;
  }
  const double shared =
      static_cast<double>(m.num_shared_experts * m.shared_expert_intermediate_size);
  const double mlp = gate * std::max(static_cast<double>(m.intermediate_size), shared) * h;
  LargestMatrices l;
  l.block = std::max({qkv, out, mlp}) / tp;
  l.expert = gate * static_cast<double>(m.moe_intermediate_size) * h / etp;
  return l;
}

// LoRA adapter parameters per block (Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large
// Language Models", §4: W0 + B·A with B ∈ R^(d×r), A ∈ R^(r×k)): r·(rows + cols) for every 2-D
// weight of the blocks — attention, dense MLP, shared experts, router — as MindSpeed-LLM's
// --lora-target-modules linear_qkv linear_proj linear_fc1 linear_fc2 and torchtune's
// lora_attn_modules + apply_lora_to_mlp adapt them. Routed experts, the embedding and the head
// keep none. Averaged over the blocks (hybrid models' blocks differ).
// Adapters of rank `rank` on every 2-D weight of `group`: rank × (rows + cols) each.
double LoraAdaptersOn(const ModelArch& arch, std::int64_t rank, ParamTensor::Group group) {
  if (rank <= 0) return 0;
  std::vector<ParamTensor> built;
  const std::vector<ParamTensor>* tensors = arch.tensors.get();
  if (tensors == nullptr) {
    built = ParamTensors(arch);
    tensors = &built;
  }
  double adapters = 0;
  for (const ParamTensor& t : *tensors) {
    if (t.group != group || t.cols == 0) continue;
    adapters += static_cast<double>(rank) * static_cast<double>(t.rows + t.cols) *
                static_cast<double>(t.count);
  }
  return adapters;
}

double LoraAdapterParamsPerLayer(const ModelArch& arch, std::int64_t rank) {
  if (arch.num_layers <= 0) return 0;
  return LoraAdaptersOn(arch, rank, ParamTensor::kBlock) / static_cast<double>(arch.num_layers);
}

}  // namespace

double LoraAdapterParams(const ModelArch& arch, std::int64_t rank) {
  return LoraAdapterParamsPerLayer(arch, rank) * static_cast<double>(arch.num_layers);
}

double LoraExpertAdapterParams(const ModelArch& arch, std::int64_t rank) {
  return LoraAdaptersOn(arch, rank, ParamTensor::kExpert);
}

std::vector<StageParams> SplitStages(const Config& config, const Layout& layout,
                                     const ModelArch& arch, const std::vector<LayerParams>& layers,
                                     const ParamCounts& counts) {
  const double tp = static_cast<double>(layout.tp);
  const double expert_shard = static_cast<double>(layout.ep * layout.etp);
  const std::int64_t pp = layout.pp;
  std::vector<std::int64_t> per_stage =
      static_cast<std::int64_t>(config.parallelism.pp_layer_list.size()) == pp
          ? config.parallelism.pp_layer_list
          : LayersPerStage(arch.num_layers, pp);
  if (pp > 1 && config.parallelism.pp_layer_list.empty() &&
      IsTorchtitanFramework(config.framework)) {
    // torchtitan gives the embedding's and the output's stages a layer fewer (frameworks.cpp).
    PipelineSplit split =
        TorchtitanPipelineSplit(arch.num_layers, pp, config.parallelism.pp_schedule,
                                config.parallelism.pp_layers_per_stage);
    if (split.error.empty()) per_stage = std::move(split.rank_layers);
  }
  const LargestMatrices largest = LargestMatricesOf(arch, tp, static_cast<double>(layout.etp));
  const std::int64_t fullest = *std::max_element(per_stage.begin(), per_stage.end());
  // Adapters are split by TP with the linears they adapt.
  const double lora_per_layer = LoraAdapterParamsPerLayer(arch, config.training.lora_rank) / tp;

  std::vector<StageParams> stages;
  stages.reserve(static_cast<std::size_t>(pp));
  std::int64_t next_layer = 0;
  for (std::int64_t s = 0; s < pp; ++s) {
    StageParams st;
    st.first_layer = next_layer;
    st.num_layers = per_stage[static_cast<std::size_t>(s)];
    st.fullest_stage_layers = fullest;
    st.has_embedding = (s == 0);
    st.has_head = (s == pp - 1);
    for (std::int64_t l = st.first_layer; l < st.first_layer + st.num_layers; ++l) {
      const LayerParams& lp = layers[static_cast<std::size_t>(l)];
      // Attention and MLP matrices are split by TP; norms and the router are replicated.
      double dense = static_cast<double>(lp.attention + lp.dense_mlp) / tp +
                     static_cast<double>(lp.norms + lp.router);
      double expert = static_cast<double>(lp.routed_experts) / expert_shard;
      st.dense_per_device += dense;
      st.expert_per_device += expert;
      st.max_layer_dense = std::max(st.max_layer_dense, dense);
      st.max_layer_expert = std::max(st.max_layer_expert, expert);
      st.largest_tensor = std::max(st.largest_tensor, largest.block);
      if (lp.routed_experts > 0)
        st.largest_expert_tensor = std::max(st.largest_expert_tensor, largest.expert);
    }
    next_layer += st.num_layers;
    // A vision tower the job trains with the model (training.vision_tower "trained": torchtitan's
    // qwen3_5 and kimi_k2_7 multimodal models) belongs to the first stage ("vision encoder
    // assigned to first stage", torchtitan/models/qwen3_5/README.md) and is its own FSDP unit,
    // sharded and stepped like the blocks; it is counted whole per TP rank (not split by TP).
    // Gathered only while it runs, at the start of forward and the end of backward, it adds no
    // transient at the peak.
    if (st.has_embedding && config.training.vision_tower == VisionTower::kTrained)
      st.dense_per_device += static_cast<double>(arch.vision_params);
    st.lora_per_device = lora_per_layer * static_cast<double>(st.num_layers);
    st.max_layer_lora = lora_per_layer;
    // The embedding and head are vocab-parallel under TP (Megatron VocabParallelEmbedding,
    // torchtitan loss_parallel); with tied weights the last stage keeps its own copy when pp > 1
    // (Megatron shares the word embedding between the first and last stage).
    double embedding = static_cast<double>(counts.embedding) / tp;
    double head = static_cast<double>(counts.output_head) / tp;
    // A tied head is the token table alone: not the position table, nor Gemma's per-layer
    // embedding tables that EmbeddingParams counts with it.
    const double token_table =
        static_cast<double>(arch.vocab_size) *
        static_cast<double>(arch.word_embedding_dim > 0 ? arch.word_embedding_dim
                                                        : arch.hidden_size) /
        tp;
    if (arch.tie_embeddings && pp > 1 && st.has_head) head = token_table;
    if (st.has_embedding) {
      st.root_params += embedding;
      st.embedding_params = embedding;
    }
    if (st.has_embedding || st.has_head) st.largest_tensor = std::max(st.largest_tensor, embedding);
    if (st.has_head) {
      st.root_params += head + static_cast<double>(counts.final_norm);
      st.head_params = arch.tie_embeddings ? token_table : head;
    }
    if (st.has_head && config.training.mtp && arch.num_mtp_layers > 0) {
      // MTP modules run after the last block and share embedding and head (DeepSeek-V3 §2.2).
      // The stage running them embeds the next tokens itself: Megatron builds the word
      // embedding wherever MTP runs (megatron/core/models/gpt/gpt_model.py, `if
      // self.pre_process or self.mtp_process: self.embedding = LanguageModelEmbedding(...)`),
      // so with PP the last stage keeps its own copy, kept in sync with the first stage's
      // (MindSpeed-LLM CI, DeepSeek-V3 TP1 PP2 EP4 with MTP: the last stage's memory after the
      // step is 7.4 GiB above the count without that copy: the 927M-parameter table at
      // 2 + 4 + 10/4 bytes, bf16 weight, fp32 gradient, reused fp32 master and Adam over DP 4).
      // MindSpeed's dualpipev skips that copy because its first rank holds both ends, which is
      // what this stage then stands for.
      if (pp > 1 && !arch.tie_embeddings) st.root_params += embedding;
      double mtp = static_cast<double>(arch.num_mtp_layers * MtpModuleParams(arch, false));
      double mtp_expert = 0;
      if (!layers.empty()) {
        const LayerParams& last = layers.back();
        mtp_expert = static_cast<double>(arch.num_mtp_layers * last.routed_experts);
      }
      st.dense_per_device += (mtp - mtp_expert) / tp;
      st.expert_per_device += mtp_expert / expert_shard;
    }
    st.dense_per_device += st.root_params;
    stages.push_back(st);
  }
  return stages;
}

namespace {

double StateBytesPerElement(const Config& config) {
  // bitsandbytes' 32-bit optimizers keep both states in fp32 whatever the parameters' dtype
  // (bitsandbytes/optim/optimizer.py Optimizer2State.init_state: optim_bits 32 → float32).
  if (config.optimizer.name == OptimizerKind::kPagedAdamW) return 4.0;
  // torchtune's single-device recipe builds the optimizer on bf16 parameters, so torch
  // allocates states with zeros_like(param): they follow the parameter dtype.
  if (config.framework == Framework::kTorchtune && config.optimizer.state_dtype != DType::kInt8)
    return static_cast<double>(DTypeBytes(config.training.mixed_precision_param));
  // torchtitan full bf16 training (training.dtype bfloat16): the same, on bf16 parameters.
  if (FullBf16States(config)) return 2.0;
  return static_cast<double>(DTypeBytes(config.optimizer.state_dtype));
}

struct Shards {
  double dense = 1;   // data-parallel shards of dense parameters' state
  double expert = 1;  // of routed-expert state (expert data parallel)
};

// FSDP shards over dp_shard × cp (torchtitan's dp_shard_cp mesh); routed experts are sharded over
// ep × etp × efsdp, which together span dp_shard × cp × tp (torchtitan MoE parallelize).
Shards FsdpShards(const Layout& l) {
  Shards s;
  s.dense = static_cast<double>(l.dp_shard * l.cp);
  s.expert = static_cast<double>(l.dp_shard * l.cp * l.tp) / static_cast<double>(l.ep * l.etp);
  s.expert = std::max(1.0, s.expert);
  return s;
}

// Megatron's data-parallel group includes CP ranks (the distributed optimizer shards over
// dp × cp); the expert data-parallel size is world / (pp × ep × etp) (MoE parallel folding,
// parallel_state.py). dp_replicate and dp_shard are one group here (their product).
// With --num-distributed-optimizer-instances k each instance shards over its own 1/k of the
// data-parallel ranks (dense and expert alike; parallel_state.py intra_partial_data_parallel and
// intra_expt_dp groups).
Shards MegatronShards(const Layout& l, std::int64_t instances) {
  const double k = static_cast<double>(std::max<std::int64_t>(1, instances));
  Shards s;
  s.dense = std::max(1.0, static_cast<double>(l.dp_replicate * l.dp_shard * l.cp) / k);
  s.expert = std::max(1.0, static_cast<double>(l.dp_replicate * l.dp_shard * l.cp * l.tp) /
                               static_cast<double>(l.ep * l.etp) / k);
  return s;
}

void ApplySwapAndOffload(const Config& config, StateBytes& out) {
  // An option the framework lacks has no effect (frameworks.cpp; EstimateMemory warns).
  const OptimizerPlacement placement = EffectiveOptimizerPlacement(config);
  if (placement == OptimizerPlacement::kOffloaded) {
    out.host_optimizer += out.optimizer_states;
    out.optimizer_states = 0;
    out.optimizer_step_temp = 0;
    out.lazy_states = 0;
    return;
  }
  if (placement != OptimizerPlacement::kSwapped) return;
  // MindSpeed's SwapDistributedOptimizer (Megatron) swaps the fp32 master copy with exp_avg and
  // exp_avg_sq (all of optimizer_states); torchtitan-npu's swap optimizer only exp_avg and
  // exp_avg_sq.
  const double swapped =
      config.framework == Framework::kMegatron ? out.optimizer_states : out.lazy_states;
  out.host_optimizer += swapped;
  out.optimizer_states -= swapped;
  out.lazy_states = std::max(0.0, out.lazy_states - swapped);
  // One 1/swap_optimizer_times slice of the swapped tensors is on the device during the step.
  out.optimizer_step_temp += swapped / static_cast<double>(config.optimizer.swap_optimizer_times);
}

}  // namespace

namespace {

// The step's temporaries from how torch.optim runs it (optimizer.implementation), for Adam and
// AdamW (torch/optim/adam.py; the other optimizers' steps are counted without temporaries):
// - fused (_fused_adam): one kernel per group, no temporaries;
// - foreach (_multi_tensor_adam): _foreach_sqrt(exp_avg_sqs) builds a copy of every second
//   moment of the step at once, divided and added to in place: one state-sized temporary;
// - for-loop (_single_tensor_adam): `(exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)`
//   holds the square root and the quotient of one tensor at a time: twice the largest.
// `elements` is what one step call covers, `largest` its largest tensor, in state elements.
double StepImplementationTemp(const Config& config, double elements, double largest,
                              double state_bytes) {
  if (!IsTorchAdam(config.optimizer.name)) return 0;
  switch (config.optimizer.implementation) {
    case OptimizerImpl::kFused:
      return 0;
    case OptimizerImpl::kForeach:
      return elements * state_bytes;
    case OptimizerImpl::kForLoop:
      return 2 * largest * state_bytes;
  }
  return 0;
}

struct LocalParams {
  double dense = 0;   // this device's dense params (after TP), before DP sharding
  double expert = 0;  // routed experts after EP × ETP, before expert-DP sharding
  double total() const { return dense + expert; }
  double Sharded(const Shards& s) const { return dense / s.dense + expert / s.expert; }
};

// FSDP2 parameters gathered at the start of backward (the activation peak), in elements.
// torchtitan/distributed/fsdp.py apply_fsdp_to_decoder: every block is its own fully_shard unit
// with reshard_after_forward from get_fsdp_reshard_after_forward_policy ("default" = not pp,
// "always", "never"); tok_embeddings is its own unit with the same policy; [norm, lm_head] is one
// unit resharded after forward only under "always" (FSDP would prefetch it straight back); with
// tied weights [tok_embeddings, norm, lm_head] is one unit, likewise resharded only under
// "always". A resharded block is gathered again for its backward, and FSDP2 prefetches the
// next one: two blocks at a time.
double FsdpGatheredAtBackward(const Config& config, const Layout& layout,
                              const StageParams& stage) {
  const ReshardPolicy policy = config.parallelism.fsdp_reshard_after_forward;
  const bool blocks_reshard =
      policy == ReshardPolicy::kAlways || (policy == ReshardPolicy::kDefault && layout.pp <= 1);
  const double blocks = stage.dense_per_device + stage.expert_per_device - stage.root_params;
  const double layer = stage.max_layer_dense + stage.max_layer_expert;
  double gathered = blocks_reshard ? std::min(2 * layer, blocks) : blocks;
  if (!IsTorchtitanFramework(config.framework))
    return gathered + stage.root_params;  // torchtune: one root unit
  const bool always = policy == ReshardPolicy::kAlways;
  if (config.model.tie_embeddings) return gathered + (always ? 0.0 : stage.root_params);
  gathered += always ? 0.0 : stage.root_params - stage.embedding_params;  // norm + lm_head
  if (!blocks_reshard) gathered += stage.embedding_params;
  return gathered;
}

// torchtitan (and torchtune with more than one device): FSDP2 fully_shard with
// MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32). The sharded parameters are the fp32
// masters (bf16 under training.dtype bfloat16: `master_bytes`); gradients are sharded in the
// same dtype; the optimizer steps on the shards. Since torchtitan
// #2900 (2026-04, "replace amp and replicate with fully_shard") fully_shard is applied even at
// dp_shard = 1 (TP-only, PP-only, one device, dp_replicate): the same recipe with shards of 1;
// torch.autocast (maybe_enable_amp) is gone.
StateBytes FsdpRecipe(const Config& config, const Layout& layout, const StageParams& stage,
                      double master_bytes, double state_bytes) {
  StateBytes out;
  const Shards shards = FsdpShards(layout);
  const LocalParams local{stage.dense_per_device, stage.expert_per_device};
  const double compute_bytes =
      static_cast<double>(DTypeBytes(config.training.mixed_precision_param));
  const double sharded = local.Sharded(shards);
  // MixedPrecisionPolicy reduce_dtype: torchtitan's [training] mixed_precision_reduce is
  // float32 only (config/configs.py).
  const double reduce_bytes = 4.0;
  out.parameters = sharded * master_bytes;
  out.gradients = sharded * master_bytes;
  out.optimizer_states =
      OptimizerStateBytes(config, stage, shards.dense, shards.expert, state_bytes);
  out.lazy_states = out.optimizer_states;  // torch.optim creates states in the first step
  // torchtitan's [optimizer] implementation defaults to "fused": no step temporaries.
  out.optimizer_step_temp = StepImplementationTemp(
      config, sharded,
      std::max(stage.largest_tensor / shards.dense, stage.largest_expert_tensor / shards.expert),
      state_bytes);
  const double layer = stage.max_layer_dense + stage.max_layer_expert;
  out.gathered_params = FsdpGatheredAtBackward(config, layout, stage) * compute_bytes;
  if (layout.pp > 1) {
    // torch/distributed/pipelining/stage.py turns gradient sync off until the stage's last
    // microbatch; FSDP2 then keeps the unsharded gradients and upcasts them to reduce_dtype to
    // accumulate (torch/distributed/fsdp/_fully_shard/_fsdp_param.py,
    // to_accumulated_grad_if_needed): the stage's fp32 unsharded gradients, plus one block's
    // fresh bf16 gradients before they are added in.
    out.unsharded_grads = local.total() * reduce_bytes + layer * compute_bytes;
  } else {
    // One block's bf16 gradients plus its fp32 reduce-scatter input (foreach_reduce copies into
    // a reduce_dtype buffer); the head's unsharded gradient is produced first in backward.
    out.unsharded_grads =
        layer * (compute_bytes + reduce_bytes) + stage.head_params * compute_bytes;
    if (IsTorchtitanFramework(config.framework) && config.training.loss_chunks > 1 &&
        stage.has_head) {
      // ChunkedLossWrapper (components/loss.py) turns the lm_head's gradient sync off for all
      // chunks but the last, so FSDP2 accumulates its unsharded gradient in reduce_dtype.
      out.unsharded_grads += stage.head_params * reduce_bytes;
    }
  }
  // The backward's far end: the first block and the embedding unit (gathered again for its
  // backward) are gathered; the head unit was resharded and reduced after its own backward
  // (reshard_after_backward defaults to true). With PP the stage stays gathered.
  if (layout.pp > 1) {
    // The last microbatch's backward reduce-scatters each unit as it finishes: by the first
    // block the accumulated fp32 gradients of the others have become sharded gradients.
    out.gathered_at_backward_end = out.gathered_params;
    out.unsharded_grads_at_backward_end = layer * (compute_bytes + reduce_bytes);
  } else {
    // The first block (with the next unit, the embedding or a block, prefetched), then the
    // embedding's own backward: the larger of the two units is what is held.
    const double last_unit = std::max(layer, stage.embedding_params);
    out.gathered_at_backward_end =
        std::min(out.gathered_params, (layer + last_unit) * compute_bytes);
    out.unsharded_grads_at_backward_end = last_unit * (compute_bytes + reduce_bytes);
  }
  if (!IsTorchtitanFramework(config.framework) && shards.dense <= 1 && shards.expert <= 1) {
    // torchtune with TP only: the fp32 model under torch.autocast. Autocast caches one bf16 copy
    // of each weight per forward and the matmuls save it for backward, so the whole local model
    // exists in bf16 at the start of backward; gradients land directly in fp32.
    out.gathered_params = master_bytes == compute_bytes ? 0 : local.total() * compute_bytes;
    out.unsharded_grads = 0;
    out.gathered_at_backward_end = out.gathered_params;
    out.unsharded_grads_at_backward_end = 0;
  }
  out.grads_freed_before_forward = true;  // zero_grad(set_to_none=True) at the top of each step
  return out;
}

// Megatron-LM: bf16/fp16 params replicated over DP, a main-grad buffer, fp32 master copy plus
// Adam states in the (distributed) optimizer. zero_stage ≥ 1 = --use-distributed-optimizer.
// - Grad buffer dtype (megatron/core/distributed/param_and_grad_buffer.py; arguments.py forces
//   accumulate_allreduce_grads_in_fp32 for --bf16 only): fp32 with bf16, the parameter dtype
//   with fp16. With fp16, the optimizer's _copy_model_grads_to_main_grads gives each fp32 master
//   shard a `.float()` copy of its gradient for the step (a no-op on an fp32 buffer).
// - The fp32 master shard is cloned when the optimizer is built; exp_avg / exp_avg_sq are
//   created by the first step (torch.optim / Apex / TE FusedAdam initialise state lazily).
// - The step runs tensor by tensor on Ascend (torch_npu fused AdamW per parameter), keeping one
//   fp32 temporary of the tensor being updated: MindSpeed-LLM's CI logs show the step peak
//   exceeding the static memory by exactly the largest tensor in fp32 (the fused [gate; up]
//   fc1 on middle stages, the embedding/head on the first/last). We count it for every Megatron
//   run: on GPUs the multi-tensor FusedAdam needs less, an over-count of one tensor. With the
//   distributed optimizer a rank steps only its fp32 shards of each parameter (the
//   shard_fp32_from_float16_groups of megatron/core/optimizer/distrib_optimizer.py), so the
//   temporary is the largest tensor's shard: its elements / DP·CP (expert tensors / expert-DP).
//   MindSpeed-LLM CI, one-layer Qwen3-8B, TP 2 CP 4 (tests/st pretrain_qwen3_8b_general_cp_ring):
//   the step lifts max allocated 0.19 GiB above the memory after the step; the 311M-element
//   embedding shard in fp32 is 1.16 GiB whole and 0.29 GiB over DP·CP = 4.
StateBytes MegatronRecipe(const Config& config, const Layout& layout, const StageParams& stage,
                          double state_bytes) {
  StateBytes out;
  const DType precision = config.training.mixed_precision_param;
  const double param_bytes = static_cast<double>(DTypeBytes(precision));
  const bool half = param_bytes < 4;
  const LocalParams local{stage.dense_per_device, stage.expert_per_device};
  const bool distributed = config.parallelism.zero_stage.value_or(0) >= 1;
  const Shards shards =
      distributed ? MegatronShards(layout, config.parallelism.dist_opt_instances) : Shards{};
  // fp16 keeps fp16 gradients; bf16 keeps fp32 ones unless --grad-reduce-in-bf16.
  const bool half_grads = precision == DType::kFloat16 ||
                          (precision == DType::kBFloat16 && config.training.grad_reduce_in_bf16);
  const double grad_bytes = half_grads ? 2.0 : 4.0;
  const double sharded = local.Sharded(shards);
  const double states =
      OptimizerStateBytes(config, stage, shards.dense, shards.expert, state_bytes);
  // Megatron-FSDP (--use-megatron-fsdp, --data-parallel-sharding-strategy optim_grads = 2,
  // optim_grads_params = 3; megatron/core/distributed/fsdp): the gradient buffer and then the
  // parameters are sharded over the data-parallel ranks as the optimizer states are; a sharded
  // module's parameters are all-gathered for its forward and backward, the next one prefetched.
  const int zero = config.parallelism.zero_stage.value_or(0);
  out.parameters = (zero >= 3 ? sharded : local.total()) * param_bytes;
  out.gradients = (zero >= 2 ? sharded : local.total()) * grad_bytes;
  if (zero >= 3)
    out.gathered_params = 2 * (stage.max_layer_dense + stage.max_layer_expert) * param_bytes;
  // MindSpeed --reuse-fp32-param (mindspeed/core/memory/reuse_param/adaptor.py): with the
  // distributed optimizer the fp32 master shard is an int32 view into the bf16 parameter buffer
  // (its high halves are the bf16 parameters) plus a bf16 remainder buffer of numel / DP
  // (reuse_buffer_dis; with one data-parallel rank, reuse_buffer_single keeps parameters and
  // remainders in one 2 × numel bf16 buffer). The master shard costs 2 bytes a parameter, not
  // 4. MindSpeed-LLM CI, TP2 CP4 Llama 2 7B: 'allocated memory' after iteration 1 is
  // 2 · 3.37e9 / (DP·CP = 4) bytes = 1.57 GiB below the copy-keeping count, as measured.
  const bool reuse =
      config.optimizer.reuse_fp32_param && precision == DType::kBFloat16 && distributed;
  const double master_bytes = half ? (reuse ? 2.0 : 4.0) : 0.0;
  out.optimizer_states = sharded * master_bytes + states;
  out.lazy_states = states;
  out.optimizer_step_temp =
      std::max(stage.largest_tensor / shards.dense, stage.largest_expert_tensor / shards.expert) *
      4.0;
  // With half-precision gradients the step makes fp32 copies of this rank's gradient shards
  // (distrib_optimizer.py / optimizer.py _copy_model_grads_to_main_grads: .float()), freed by
  // the next zero_grad.
  if (half_grads) out.optimizer_step_temp += sharded * 4.0;
  return out;
}

// What DeepSpeed's step holds beyond the counted gradients, in bytes. Without optimizer offload
// (ApplySwapAndOffload zeroes it with offload) the step works on fp32 copies of the gradients:
// - ZeRO-0 with fp16/bf16 (engine.py _do_optimizer_sanity_check → FP16_Optimizer,
//   fp16/fused_optimizer.py step): every gradient is cast to fp32 in a list that is then
//   flattened, 4 + 4 bytes a parameter at once;
// - ZeRO-1/2 (zero/stage_1_and_2.py step): per parameter group, the rank's flat gradient
//   partition `.to(fp32)` becomes the fp32 master's .grad for that group's step, then is freed;
//   ZeRO-1 first frees the gradients outside its partition (free_grad_in_param_list);
// - ZeRO-3 (zero/stage3.py _prepare_fp32_grad_for_sub_group): per sub-group of at most
//   sub_group_size (1e9 elements by default, zero/config.py) partition elements, the gradients
//   are flattened (a 16-bit copy) and cast to fp32.
// Each group's step adds the optimizer's own temporaries (StepImplementationTemp) over that
// group: DeepSpeed's FusedAdam (an "optimizer" block in its JSON) is fused; the Hugging Face
// Trainer's optimizer is torch's (adamw_torch_fused by default with torch ≥ 2.8, adamw_torch
// = foreach before). Parameter groups: dense and routed-expert parameters are stepped apart
// (deepspeed/moe/utils.py split_params_into_different_moe_groups_for_optimizer), so the larger
// of the two is the group. `master` is 0 for training.dtype bfloat16 (the Trainer without
// DeepSpeed: torch's optimizer on the bf16 parameters themselves).
double DeepspeedStepTemp(const Config& config, const StageParams& stage, const LocalParams& local,
                         const Shards& shards, double param_bytes, double master,
                         double state_bytes) {
  const int zero = config.parallelism.zero_stage.value_or(0);
  // The larger parameter group's share of this rank's partition.
  const double group = std::max(local.dense / shards.dense, local.expert / shards.expert);
  if (master == 0 || param_bytes >= 4) {
    // torch's optimizer on the parameters as they are (fp32 ZeRO partitions are stepped as
    // they are: `.to(fp32)` of fp32 is the tensor itself). ZeRO flattens each group.
    if (zero >= 1) return StepImplementationTemp(config, group, group, state_bytes);
    return StepImplementationTemp(config, local.total(),
                                  std::max(stage.largest_tensor, stage.largest_expert_tensor),
                                  state_bytes);
  }
  if (zero == 0) {
    const double all = local.total();
    return std::max(8.0 * all, 4.0 * all + StepImplementationTemp(config, all, all, state_bytes) -
                                   param_bytes * all);
  }
  if (zero >= 3) {
    constexpr double kSubGroupSize = 1e9;
    const double sub = std::min(group, kSubGroupSize);
    return std::max((param_bytes + 4.0) * sub,
                    4.0 * sub + StepImplementationTemp(config, sub, sub, state_bytes));
  }
  const double step = 4.0 * group + StepImplementationTemp(config, group, group, state_bytes);
  if (zero == 2) return step;
  // ZeRO-1: the gradients outside the partition are freed before the copy.
  const double freed = param_bytes * (local.total() - local.Sharded(shards));
  return std::max(0.0, step - freed);
}

// DeepSpeed ZeRO stages 0–3 (ZeRO paper §3): fp16/bf16 params and grads (2Ψ + 2Ψ), fp32
// master + Adam states (12Ψ); stage 1 shards the optimizer, 2 also grads, 3 also params.
// Dense parameters are partitioned over the data-parallel ranks (dp·cp: Ulysses sequence
// parallel ranks hold the same parameters); routed experts, already split over ep (and tp when
// etp = tp), over the expert-data-parallel ranks dp·cp / ep (deepspeed/utils/groups.py
// _create_expert_and_data_parallel; the MoE param groups of deepspeed/moe/utils.py are
// partitioned over that group by stage_1_and_2.py / stage3.py). ZeRO builds its optimizer
// states eagerly (stage_1_and_2.py initialize_optimizer_states), so none are created later.
StateBytes DeepspeedRecipe(const Config& config, const Layout& layout, const StageParams& stage,
                           double state_bytes) {
  StateBytes out;
  const int stage_no = config.parallelism.zero_stage.value_or(0);
  const double dp = static_cast<double>(layout.dp_replicate * layout.dp_shard * layout.cp);
  const double expert_dp = std::max(1.0, dp / static_cast<double>(layout.ep));
  const double param_bytes = static_cast<double>(DTypeBytes(config.training.mixed_precision_param));
  const LocalParams local{stage.dense_per_device, stage.expert_per_device};
  auto over = [&](int from_stage) {
    return stage_no >= from_stage ? local.Sharded(Shards{dp, expert_dp}) : local.total();
  };
  // training.dtype bfloat16 here is the Trainer without DeepSpeed training a model loaded in
  // bf16 as it is (ms-swift's full fine-tuning: swift/pipelines/train/tuner.py only sets
  // requires_grad; DDP or FSDP2 without a mixed-precision policy): bf16 parameters and
  // gradients, AdamW's states created in bf16 like them (StateBytesPerElement), no fp32 master.
  // DeepSpeed itself always keeps the fp32 master for bf16 / fp16 (bf16_optimizer, ZeRO).
  const double master = param_bytes < 4 && config.training.dtype != DType::kBFloat16 ? 4.0 : 0.0;
  out.parameters = over(3) * param_bytes;
  out.gradients = over(2) * param_bytes;
  const double dense_shards = stage_no >= 1 ? dp : 1.0;
  const double expert_shards = stage_no >= 1 ? expert_dp : 1.0;
  out.optimizer_states = over(1) * master + OptimizerStateBytes(config, stage, dense_shards,
                                                                expert_shards, state_bytes);
  out.optimizer_step_temp = DeepspeedStepTemp(config, stage, local, Shards{dp, expert_dp},
                                              param_bytes, master, state_bytes);
  // deepspeed/runtime/zero/config.py defaults: reduce_bucket_size = allgather_bucket_size = 5e8
  // elements (stage 3: prefetch bucket 5e7 plus the gathered layers, like FSDP).
  const double bucket = std::min(5e8, local.total()) * param_bytes;
  if (stage_no >= 3) {
    out.gathered_params = 2 * (stage.max_layer_dense + stage.max_layer_expert) * param_bytes +
                          std::min(5e7, local.total()) * param_bytes;
    out.grad_buckets = bucket;
  } else {
    out.grad_buckets = stage_no >= 1 ? 2 * bucket : bucket;
  }
  return out;
}

// torchtune full finetune on one device: parameters, gradients and optimizer states all in the
// parameter dtype (bf16), no fp32 master (torchtune recipes/full_finetune_single_device.py).
StateBytes TorchtuneRecipe(const Config& config, const Layout& layout, const StageParams& stage,
                           double state_bytes) {
  const double param_bytes = static_cast<double>(DTypeBytes(config.training.mixed_precision_param));
  if (layout.dp_shard * layout.cp > 1 || layout.tp > 1)
    return FsdpRecipe(config, layout, stage, param_bytes, state_bytes);
  StateBytes out;
  const double local = stage.dense_per_device + stage.expert_per_device;
  out.parameters = local * param_bytes;
  out.gradients = local * param_bytes;
  out.optimizer_states = OptimizerStateBytes(config, stage, 1, 1, state_bytes);
  out.lazy_states = out.optimizer_states;
  // torchtune's configs build torch.optim.AdamW with fused=True: no step temporaries unless
  // optimizer.implementation says otherwise.
  out.optimizer_step_temp = StepImplementationTemp(
      config, local, std::max(stage.largest_tensor, stage.largest_expert_tensor), state_bytes);
  out.grads_freed_before_forward = true;
  return out;
}

bool NameHas(const Device& d, const char* needle) {
  // A preset's id, else a custom device's name.
  return ContainsIgnoringCase(d.id.empty() ? d.name : d.id, needle);
}

}  // namespace

// GEMM workspaces of a Megatron-LM job on NVIDIA GPUs: persistent buffers taken from the caching
// allocator the first time a GEMM runs, so they are in every allocated figure from then on.
// - PyTorch keeps one cuBLAS workspace per (handle, stream) (aten/src/ATen/cuda/
//   CublasHandlePool.cpp getCurrentCUDABlasHandle → getNewWorkspace, allocated through
//   CUDACachingAllocator): 32 MiB on Hopper (4096 KiB × 8, also what the CI's
//   CUBLAS_WORKSPACE_CONFIG=:4096:8 asks for), 8 MiB + 128 KiB before it. Handles are
//   thread-local and autograd runs backward on its own device thread: two workspaces (forward on
//   the main thread, backward on the autograd thread; both use torch GEMMs: the output layer
//   and, without Transformer Engine, every linear). cuBLASLt shares it (unified workspace).
// - Transformer Engine (Megatron's default --transformer-impl) allocates its own cuBLAS workspace
//   with torch.empty on first use (transformer_engine/pytorch/cpp_extensions/gemm.py
//   get_cublas_workspace): 32 MiB + 1 KiB from compute capability 9, 4 MiB before. Its grouped
//   GEMM (--moe-grouped-gemm, training.moe_grouped_gemm) takes one more per compute stream (4
//   streams, common/util/multi_stream.cpp get_num_compute_streams). --tp-comm-overlap takes
//   three more for the userbuffer streams; the config does not say it, so they are not counted
//   (Megatron's CI row with it sits 96 MiB higher).
// Megatron's functional tests on H100 log, between iterations, 94–100 MiB above parameters,
// gradients and optimizer states on every dense TE case: the 3 × 32 MiB here.
// MindSpeed-LLM on Ascend (torch_npu, its own matmul workspaces) is left out.

double GemmWorkspaceBytes(const Config& config) {
  if (config.framework != Framework::kMegatron || DeviceIsAscend(config.device)) return 0;
  constexpr double kMiB = 1024.0 * 1024.0;
  const bool before_hopper = NameHas(config.device, "a100") || NameHas(config.device, "a800") ||
                             NameHas(config.device, "v100") || NameHas(config.device, "l40") ||
                             NameHas(config.device, "4090") || NameHas(config.device, "a10");
  const double torch_workspace = before_hopper ? 8 * kMiB + 128 * 1024.0 : 32 * kMiB;
  const double te_workspace = before_hopper ? 4 * kMiB : 32 * kMiB + 1024.0;
  // TE's grouped GEMM: one workspace per compute stream (get_num_compute_streams() = 4).
  const double grouped =
      config.training.moe_grouped_gemm && config.model.num_experts > 0 ? 4 * te_workspace : 0;
  return 2 * torch_workspace + te_workspace + grouped;
}

namespace {

StateBytes RecipeStateBytes(const Config& config, const Layout& layout, const StageParams& stage) {
  const double state_bytes = StateBytesPerElement(config);
  StateBytes out;
  switch (config.framework) {
    case Framework::kTorchtitan:
    case Framework::kTorchtitanNpu:
      // training.dtype bfloat16: parameters and gradients are bf16, no fp32 copy.
      out = FsdpRecipe(config, layout, stage,
                       static_cast<double>(DTypeBytes(config.training.dtype)), state_bytes);
      break;
    case Framework::kMegatron:
      out = MegatronRecipe(config, layout, stage, state_bytes);
      break;
    case Framework::kDeepspeed:
      out = DeepspeedRecipe(config, layout, stage, state_bytes);
      break;
    case Framework::kTorchtune:
      out = TorchtuneRecipe(config, layout, stage, state_bytes);
      break;
  }
  ApplySwapAndOffload(config, out);
  if (config.optimizer.early_step_in_backward) {
    // The optimizer steps each parameter as soon as its gradient is ready and frees it
    // (torchtune optimizer_in_bwd): only about one block's gradients exist at a time.
    const double layer = stage.max_layer_dense + stage.max_layer_expert;
    const double per_device_params = stage.dense_per_device + stage.expert_per_device;
    if (per_device_params > 0)
      out.gradients =
          out.gradients * std::min(1.0, std::max(layer, stage.head_params) / per_device_params);
    out.optimizer_step_temp = 0;
  }
  return out;
}

// A frozen vision tower (training.vision_tower "frozen"; LLaMA-Factory's freeze_vision_tower):
// on the first stage its weights are stored as the recipe stores parameters (sharded by ZeRO-3
// and FSDP, whole under Megatron and ZeRO-1/2), with no gradient, optimizer state or master
// copy, as LoRA's frozen base weights (ComputeTrainedStateBytes).
double FrozenVisionBytes(const Config& config, const Layout& layout, const StageParams& stage) {
  if (config.training.vision_tower != VisionTower::kFrozen || !stage.has_embedding ||
      config.model.vision_params <= 0)
    return 0;
  StageParams tower;
  tower.has_embedding = true;
  tower.dense_per_device = static_cast<double>(config.model.vision_params);
  return RecipeStateBytes(config, layout, tower).parameters;
}

// LoRA (training.lora_rank > 0): the frozen base weights are stored, and gathered, as the
// recipe stores parameters, but hold no gradient, no optimizer state and no fp32 master; the
// adapters train with the recipe's full state. Megatron's grad buffers and distributed optimizer
// take only requires_grad parameters (param_and_grad_buffer.py, distrib_optimizer.py); FSDP2
// gives a frozen parameter no gradient and the optimizer is built on the adapters (torchtitan
// components/lora.py requires_grad_(False); torchtune get_adapter_params). Activations are
// counted as for full training: the adapters' rank-r intermediates are negligible, and the
// frozen linears' inputs are still saved for the adapters beside them (an over-count of the
// few activations only a frozen weight's gradient would need).
//
// QLoRA (training.base_quantization; the Hugging Face Trainer, framework "deepspeed", and
// torchtune): the frozen block linears are stored quantized, the embedding, head and norms as
// the recipe stores parameters. transformers' replace_with_bnb_linear turns the blocks'
// nn.Linear into bitsandbytes' Linear8bitLt / Linear4bit and leaves lm_head out
// (get_keys_to_not_convert); embeddings and norms are not linears. Bytes per weight
// (QuantizedBaseBytesPerParam, bitsandbytes functional.py quantize_4bit / Int8Params):
//  - int8: the int8 weight and an fp32 scale per output row (SCB): 1 + 4 / hidden_size.
//  - nf4 / fp4: two weights a byte and an fp32 absmax per block of 64: 0.5 + 4 / 64 = 0.5625.
//  - with double quantization (compress_statistics: the absmax quantized to uint8 in blocks of
//    256, each with an fp32 scale): 0.5 + 1 / 64 + 4 / (64 · 256) = 0.5159. torchao's
//    NF4Tensor (torchtune's qlora_* models) stores nearly the same: uint8 scalers per 64 and a
//    factor per 256 scalers in the weight's dtype (0.5157).
// Each matmul dequantizes its weight to the compute dtype for the forward and again for the
// input gradient (MatMul4Bit / MatMul8bitLt): one block's largest weight in 16 bits exists at
// a time, counted with the gathered parameters.
double QuantizedBaseBytesPerParam(const Config& config) {
  switch (config.training.base_quantization) {
    case BaseQuantization::kInt8:
      return 1.0 + 4.0 / static_cast<double>(std::max<std::int64_t>(1, config.model.hidden_size));
    case BaseQuantization::kNf4:
      return 0.5 + 4.0 / 64.0;
    case BaseQuantization::kNf4DoubleQuant:
      return 0.5 + 1.0 / 64.0 + 4.0 / (64.0 * 256.0);
    case BaseQuantization::kNone:
      break;
  }
  return 0;
}

bool QuantizedBaseApplies(const Config& config) {
  return config.training.lora_rank > 0 &&
         config.training.base_quantization != BaseQuantization::kNone &&
         FrameworkHasQuantizedBase(config.framework);
}

StateBytes ComputeTrainedStateBytes(const Config& config, const Layout& layout,
                                    const StageParams& stage) {
  if (config.training.lora_rank <= 0) return RecipeStateBytes(config, layout, stage);
  StateBytes base = RecipeStateBytes(config, layout, stage);
  if (QuantizedBaseApplies(config)) {
    // The recipe's bytes for what stays 16-bit — the embedding, head and final norm, a trained
    // vision tower (bitsandbytes' skip list and LLaMA-Factory leave towers alone, and Gemma 3n's
    // is convolutional), and the routed experts: from transformers v5 a MoE's experts are one
    // 3-D nn.Parameter per projection, which replace_with_bnb_linear (nn.Linear only) leaves in
    // full precision (bitsandbytes issue #1849; axolotl quantizes them only with
    // quantize_moe_experts) — kept as the recipe keeps them; the rest, the dense block weights,
    // rescaled from the parameter dtype to the quantized storage. The gathered units (ZeRO-3 /
    // FSDP) likewise: the root unit and the experts at their bytes, the blocks quantized.
    StageParams kept = stage;
    kept.dense_per_device = stage.root_params;
    if (stage.has_embedding && config.training.vision_tower == VisionTower::kTrained)
      kept.dense_per_device += static_cast<double>(config.model.vision_params);
    kept.max_layer_dense = 0;
    kept.largest_tensor = 0;
    const StateBytes unquantized = RecipeStateBytes(config, layout, kept);
    const double ratio = QuantizedBaseBytesPerParam(config) /
                         static_cast<double>(DTypeBytes(config.training.mixed_precision_param));
    auto scale = [&](double all, double keep) { return keep + (all - keep) * ratio; };
    base.parameters = scale(base.parameters, unquantized.parameters);
    base.gathered_params = scale(base.gathered_params, unquantized.gathered_params);
    base.gathered_at_backward_end =
        scale(base.gathered_at_backward_end, unquantized.gathered_at_backward_end);
    // The dequantized weight: a block's largest linear (the stage's largest tensor may be the
    // embedding, which is not quantized).
    const ModelArch& m = config.model;
    const double tp = static_cast<double>(std::max<std::int64_t>(1, layout.tp));
    const double widest =
        static_cast<double>(std::max(m.intermediate_size, m.num_heads * m.head_dim));
    base.gathered_params += static_cast<double>(m.hidden_size) * widest / tp *
                            static_cast<double>(DTypeBytes(config.training.mixed_precision_param));
  }
  StageParams adapters = stage;
  adapters.dense_per_device = stage.lora_per_device;
  adapters.expert_per_device = 0;
  adapters.max_layer_dense = stage.max_layer_lora;
  adapters.max_layer_expert = 0;
  adapters.root_params = 0;
  adapters.head_params = 0;
  adapters.embedding_params = 0;
  adapters.largest_tensor = stage.max_layer_lora;
  adapters.largest_expert_tensor = 0;
  StateBytes out = RecipeStateBytes(config, layout, adapters);
  out.parameters += base.parameters;
  out.gathered_params = base.gathered_params;
  out.gathered_at_backward_end = base.gathered_at_backward_end;
  return out;
}

}  // namespace

StateBytes ComputeStateBytes(const Config& config, const Layout& layout, const StageParams& stage) {
  StateBytes out = ComputeTrainedStateBytes(config, layout, stage);
  out.parameters += FrozenVisionBytes(config, layout, stage);
  return out;
}

}  // namespace trainmem::detail
