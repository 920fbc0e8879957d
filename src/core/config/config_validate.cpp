// ValidateConfig and ResolveLayout: ranges, the parallel layout and what it requires of the
// model. Divisibility rules follow torchtitan's ParallelDims and its model parallelize code;
// the expert layout follows each framework (CheckExperts). Megatron-LM, MindSpeed-LLM and
// DeepSpeed have one data-parallel group: a user may write its degree as
// data_parallel_replicate_degree or data_parallel_shard_degree (or split it over both); the
// estimator uses their product, and sharding comes from zero_stage (the distributed optimizer).

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/config/config.h"

namespace trainmem {
namespace {

std::string Str(std::int64_t v) { return std::to_string(v); }

std::string Str(double v) {
  std::string s = std::to_string(v);
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// The product of positive factors, or cap + 1 once it passes `cap` (never overflows).
std::int64_t CappedProduct(std::initializer_list<std::int64_t> factors, std::int64_t cap) {
  std::int64_t product = 1;
  for (std::int64_t f : factors) {
    if (f <= 0) return 0;
    if (product > cap / f) return cap + 1;
    product *= f;
  }
  return product;
}

// The path is only turned into a string on failure: validation runs for every estimate, and
// the layout search and heatmap estimate thousands of configs.
void CheckInt(std::vector<Error>& errors, const char* path, std::int64_t v, std::int64_t lo,
              std::int64_t hi) {
  if (v < lo)
    errors.push_back({path, "must be at least " + Str(lo) + ", got " + Str(v)});
  else if (v > hi)
    errors.push_back({path, "must be at most " + Str(hi) + ", got " + Str(v)});
}

// lo ≤ v < hi (or ≤ hi when hi_inclusive); written so NaN fails too.
void CheckFraction(std::vector<Error>& errors, const char* path, double v, double lo,
                   bool lo_inclusive, double hi, bool hi_inclusive) {
  const bool above_lo = lo_inclusive ? v >= lo : v > lo;
  const bool below_hi = hi_inclusive ? v <= hi : v < hi;
  if (above_lo && below_hi) return;
  errors.push_back({path, std::string("must be in ") + (lo_inclusive ? "[" : "(") + Str(lo) + ", " +
                              Str(hi) + (hi_inclusive ? "]" : ")") + ", got " + Str(v)});
}

std::vector<Error> ResolveDegrees(const Config& c, Layout& layout) {
  std::vector<Error> errors;
  const Parallelism& p = c.parallelism;
  CheckInt(errors, "world_size", c.world_size, 1, kMaxWorldSize);
  CheckInt(errors, "parallelism.data_parallel_replicate_degree", p.dp_replicate, 1, kMaxWorldSize);
  if (p.dp_shard != -1) {
    CheckInt(errors, "parallelism.data_parallel_shard_degree", p.dp_shard, 1, kMaxWorldSize);
  }
  CheckInt(errors, "parallelism.tensor_parallel_degree", p.tp, 1, kMaxWorldSize);
  CheckInt(errors, "parallelism.pipeline_parallel_degree", p.pp, 1, kMaxWorldSize);
  CheckInt(errors, "parallelism.context_parallel_degree", p.cp, 1, kMaxWorldSize);
  CheckInt(errors, "parallelism.expert_parallel_degree", p.ep, 1, kMaxWorldSize);
  CheckInt(errors, "parallelism.expert_tensor_parallel_degree", p.etp, 1, kMaxWorldSize);
  if (!errors.empty()) return errors;

  const std::int64_t others = CappedProduct({p.dp_replicate, p.cp, p.tp, p.pp}, kMaxWorldSize);
  auto others_text = [&] {
    return others > kMaxWorldSize ? "more than " + Str(kMaxWorldSize) : Str(others);
  };
  std::int64_t dp_shard = p.dp_shard;
  if (dp_shard == -1) {
    // torchtitan: data_parallel_shard_degree = -1 takes the ranks the other degrees leave.
    if (c.world_size % others != 0 || others > c.world_size) {
      errors.push_back(
          {"world_size", "world_size " + Str(c.world_size) +
                             " is not divisible by tp·pp·cp·dp_replicate = " + others_text()});
      return errors;
    }
    dp_shard = c.world_size / others;
  } else if (CappedProduct({others, dp_shard}, kMaxWorldSize) != c.world_size) {
    const std::int64_t product = CappedProduct({others, dp_shard}, kMaxWorldSize);
    errors.push_back(
        {"world_size",
         "dp_replicate·dp_shard·cp·tp·pp = " + Str(p.dp_replicate) + "·" + Str(dp_shard) + "·" +
             Str(p.cp) + "·" + Str(p.tp) + "·" + Str(p.pp) + " = " +
             (product > kMaxWorldSize ? "more than " + Str(kMaxWorldSize) : Str(product)) +
             ", but world_size is " + Str(c.world_size)});
    return errors;
  }
  layout = Layout{p.dp_replicate, dp_shard, p.tp, p.pp, p.cp, p.ep, p.etp};
  return errors;
}

// Whether `kv` key/value heads split over `tp` ranks: evenly, or — Megatron-Core only — with
// fewer heads than ranks when tp is a multiple of them: each rank computes one KV head's
// activations and its share of the query heads (attention.py, "QKV activation sub-sharding",
// NVIDIA/Megatron-LM#2565, December 2025).
bool KvHeadsSplit(std::int64_t kv, std::int64_t tp, Framework framework) {
  return kv % tp == 0 || (framework == Framework::kMegatron && kv < tp && tp % kv == 0);
}

void CheckAttentionSharding(const ModelArch& m, std::int64_t tp, Framework framework,
                            std::vector<Error>& errors) {
  const char* path = "parallelism.tensor_parallel_degree";
  if (!m.HasAttentionLayers()) {
    // Mamba models: tensor parallelism splits the mixer's d_inner channels (Megatron MambaMixer).
    if (m.MambaChannels() > 0 && m.MambaChannels() % tp != 0) {
      errors.push_back({path, "the model's " + Str(m.MambaChannels()) +
                                  " Mamba channels (d_inner) are not divisible by "
                                  "tensor_parallel_degree " +
                                  Str(tp)});
    }
    return;
  }
  if (tp > m.num_heads) {
    errors.push_back({path, "tensor_parallel_degree " + Str(tp) + " exceeds the model's " +
                                Str(m.num_heads) + " attention heads"});
  } else if (m.num_heads % tp != 0) {
    errors.push_back({path, "the model's " + Str(m.num_heads) +
                                " attention heads are not divisible by tensor_parallel_degree " +
                                Str(tp)});
  }
  // Step-3.5: the sliding-window layers' own query heads are split too.
  if (m.sliding_heads > 0 && m.sliding_heads % tp != 0) {
    errors.push_back({path, "the model's " + Str(m.sliding_heads) +
                                " sliding-window attention heads are not divisible by "
                                "tensor_parallel_degree " +
                                Str(tp)});
  }
  // MLA has no separate key/value heads: its latent is replicated, heads are split.
  if (m.attention == AttentionKind::kGqa && m.num_kv_heads > 0 &&
      !KvHeadsSplit(m.num_kv_heads, tp, framework)) {
    errors.push_back({path, "the model's " + Str(m.num_kv_heads) +
                                " key/value heads are not divisible by tensor_parallel_degree " +
                                Str(tp)});
  }
  // A model whose layers differ (DeciLM block_configs, Gemma 4's global layers): every layer's
  // own KV heads.
  for (std::int64_t i = 0; i < m.num_layers && m.ShapesVaryByLayer(); ++i) {
    const std::int64_t kv = m.KvHeadsOf(i);
    if (kv > 0 && kv != m.num_kv_heads && !KvHeadsSplit(kv, tp, framework)) {
      errors.push_back({path, "layer " + Str(i) + "'s " + Str(kv) +
                                  " key/value heads are not divisible by tensor_parallel_degree " +
                                  Str(tp)});
      break;
    }
  }
}

// Expert layouts differ by framework:
// - Megatron-LM / MindSpeed-LLM (MoE parallel folding, megatron/core/parallel_state.py
//   initialize_model_parallel): the expert layers get their own decomposition of the same ranks,
//   expert_tensor × expert × expert-data × pipeline, so etp is any degree (it need not equal tp)
//   and world_size must be divisible by etp·ep·pp; expert-data-parallel = world / (etp·ep·pp).
// - DeepSpeed (deepspeed/utils/groups.py, _create_expert_and_data_parallel and
//   _create_expert_data_and_model_parallel): expert-parallel groups are carved out of the
//   data-parallel ranks, so ep divides dp (·cp, Ulysses sequence-data-parallel); experts are either
//   replicated over the model-parallel ranks or sliced with them (etp 1 or tp).
// - torchtitan / torchtitan-npu (ParallelDims): EP borrows from dp_shard·cp, and from tp too
//   when experts are not tensor-parallel (etp = 1); etp is 1 or tp.
void CheckExperts(const Config& c, const Layout& l, std::vector<Error>& errors) {
  const ModelArch& m = c.model;
  const char* ep_path = "parallelism.expert_parallel_degree";
  const char* etp_path = "parallelism.expert_tensor_parallel_degree";
  if (m.num_experts == 0) {
    if (l.ep > 1) {
      errors.push_back({ep_path, "expert_parallel_degree " + Str(l.ep) +
                                     " needs a mixture-of-experts model; this model is dense"});
    }
    if (l.etp > 1) {
      errors.push_back({etp_path, "expert_tensor_parallel_degree " + Str(l.etp) +
                                      " needs a mixture-of-experts model; this model is dense"});
    }
    return;
  }
  // torchtitan's update_ep_token_dispatcher_config (models/common/token_dispatcher.py): the
  // DeepEP, HybridEP and MinimalAsyncEP dispatchers raise "requires expert parallelism".
  if (IsTorchtitanFramework(c.framework) &&
      c.parallelism.ep_comm_backend != EpCommBackend::kStandard && l.ep == 1) {
    errors.push_back({"parallelism.expert_parallel_comm_backend",
                      std::string("the ") + EpCommBackendName(c.parallelism.ep_comm_backend) +
                          " dispatcher needs expert_parallel_degree > 1 (torchtitan refuses it "
                          "at EP 1); set ep, or the standard dispatcher"});
  }
  if (m.num_experts % l.ep != 0) {
    errors.push_back({ep_path, "the model's " + Str(m.num_experts) +
                                   " routed experts are not divisible by expert_parallel_degree " +
                                   Str(l.ep)});
  }
  if (c.framework == Framework::kMegatron) {
    const std::int64_t folded = CappedProduct({l.etp, l.ep, l.pp}, kMaxWorldSize);
    if (c.world_size % folded != 0 || folded > c.world_size) {
      errors.push_back({ep_path, "Megatron's expert layout etp·ep·pp = " + Str(l.etp) + "·" +
                                     Str(l.ep) + "·" + Str(l.pp) + " must divide world_size " +
                                     Str(c.world_size)});
    }
    return;
  }
  if (l.etp != 1 && l.etp != l.tp) {
    errors.push_back({etp_path, "must be 1 or tensor_parallel_degree (" + Str(l.tp) + "), got " +
                                    Str(l.etp) + " (" + FrameworkName(c.framework) +
                                    "; Megatron's MoE parallel folding allows any degree)"});
    return;
  }
  if (c.framework == Framework::kDeepspeed) {
    const std::int64_t dp = l.dp_replicate * l.dp_shard * l.cp;
    if (l.ep > 1 && dp % l.ep != 0) {
      errors.push_back(
          {ep_path, "expert_parallel_degree " + Str(l.ep) +
                        " must divide DeepSpeed's data-parallel size dp·cp = " + Str(dp)});
    }
    return;
  }
  const std::int64_t pool = l.dp_shard * l.cp * (l.etp == 1 ? l.tp : 1);
  if (l.ep > 1 && pool % l.ep != 0) {
    errors.push_back({ep_path, "expert_parallel_degree " + Str(l.ep) + " must divide " +
                                   (l.etp == 1 ? "dp_shard·cp·tp = " : "dp_shard·cp = ") +
                                   Str(pool)});
  }
}

void CheckSequence(const Config& c, const Layout& l, std::vector<Error>& errors) {
  const Training& t = c.training;
  CheckInt(errors, "training.local_batch_size", t.local_batch_size, 1, kMaxLocalBatchSize);
  CheckInt(errors, "training.seq_len", t.seq_len, 1, kMaxSeqLen);
  // The checks below multiply these: out of range (already named above) they stop here.
  if (t.seq_len < 1 || t.local_batch_size < 1 || t.seq_len > kMaxSeqLen ||
      t.local_batch_size > kMaxLocalBatchSize)
    return;
  CheckInt(errors, "training.loss_chunks", t.loss_chunks, 1, t.seq_len);
  CheckInt(errors, "training.lora_rank", t.lora_rank, 0, kMaxLoraRank);
  if (t.nvfp4_layers < -1 || t.nvfp4_layers > c.model.num_layers)
    errors.push_back({"training.nvfp4_layers",
                      "the decoder blocks, counted from the first, whose linears run NVFP4: 0 to " +
                          Str(c.model.num_layers) + " (the model's blocks), or -1 for all; got " +
                          Str(t.nvfp4_layers)});
  CheckInt(errors, "training.wgrad_deferral_limit", t.wgrad_deferral_limit, 0, kMaxLocalBatchSize);
  // torchtitan's TrainingConfig.dtype is Literal["bfloat16", "float32"].
  if (t.dtype != DType::kFloat32 && t.dtype != DType::kBFloat16)
    errors.push_back({"training.dtype", std::string("training dtype ") + DTypeName(t.dtype) +
                                            " is not one torchtitan trains in: float32 (bf16 "
                                            "mixed precision, fp32 masters) or bfloat16"});
  // Megatron refuses --defer-embedding-wgrad-compute without pipeline parallelism
  // (model_parallel_config.py __post_init__): the deferred GEMMs run in the pipeline flush.
  if (t.defer_embedding_wgrad_compute && c.framework == Framework::kMegatron && l.pp == 1) {
    errors.push_back({"training.defer_embedding_wgrad_compute",
                      "Megatron runs the deferred output-layer weight gradients in the pipeline "
                      "flush: it needs pipeline_parallel_degree > 1"});
  }
  // Load-balanced ring attention cuts each sequence into 2·cp chunks; Ulysses alone
  // (ulysses_degree_in_cp = cp) into cp. The Hugging Face Trainer's Ulysses (DeepSpeed's,
  // ms-swift's swift/sequence_parallel) pads each sequence to a multiple itself.
  const std::int64_t uly = c.parallelism.ulysses_degree_in_cp;
  const std::int64_t cp_chunks = uly > 0 && uly == l.cp ? l.cp : 2 * l.cp;
  if (l.cp > 1 && c.framework != Framework::kDeepspeed && t.seq_len % cp_chunks != 0) {
    errors.push_back({"training.seq_len", "seq_len " + Str(t.seq_len) + " is not divisible by " +
                                              (cp_chunks == l.cp ? "" : "2·") +
                                              "context_parallel_degree = " + Str(cp_chunks)});
  }
  CheckInt(errors, "parallelism.ulysses_degree_in_cp", uly, 0, kMaxWorldSize);
  if (uly > 0 && l.cp % uly != 0) {
    errors.push_back({"parallelism.ulysses_degree_in_cp",
                      Str(uly) + " does not divide context_parallel_degree " + Str(l.cp) +
                          " (the ring runs over cp / ulysses_degree_in_cp ranks)"});
  } else if (uly > 1 && c.model.num_heads > 0 && (c.model.num_heads / l.tp) % uly != 0) {
    errors.push_back({"parallelism.ulysses_degree_in_cp",
                      "the all-to-all splits the " + Str(c.model.num_heads / l.tp) +
                          " attention heads of each tensor-parallel rank " + Str(uly) +
                          " ways: they must divide evenly"});
  }
  // seq_len not a multiple of TP under sequence parallelism is a warning (estimate.cpp): the
  // scatter needs equal parts, but Megatron's RL packing pads to them (examples/rl's Nemotron
  // configs run --seq-length 8191 at TP 8), so the config is valid.
  const std::int64_t tokens = t.local_batch_size * t.seq_len;  // ≤ 1e14 after the caps above
  for (auto [name, width] :
       {std::pair<const char*, std::int64_t>{"hidden_size", c.model.hidden_size},
        {"vocab_size", c.model.vocab_size}}) {
    if (CappedProduct({tokens, std::max<std::int64_t>(width, 1)}, kMaxTokenElements) >
        kMaxTokenElements) {
      errors.push_back(
          {"training.local_batch_size", "local_batch_size × seq_len × " + std::string(name) +
                                            " is beyond what trainmem models (2^47 elements)"});
      return;
    }
  }
}

// Pipeline splits as torchtitan's pipeline_module_split: layers per stage (or an even split),
// one stage per rank for 1F1B and GPipe, several for the interleaved schedules.
void CheckPipeline(const Config& c, std::vector<Error>& errors) {
  const Parallelism& p = c.parallelism;
  const std::int64_t layers = c.model.num_layers;
  CheckInt(errors, "parallelism.pipeline_parallel_microbatch_size", p.pp_microbatch_size, 1,
           kMaxLocalBatchSize);
  CheckInt(errors, "parallelism.pipeline_parallel_layers_per_stage", p.pp_layers_per_stage, 0,
           kMaxSeqLen);
  CheckInt(errors, "parallelism.num_distributed_optimizer_instances", p.dist_opt_instances, 1,
           kMaxWorldSize);
  CheckInt(errors, "parallelism.microbatch_group_size_per_vp_stage", p.vp_microbatch_group, 0,
           kMaxLocalBatchSize);
  if (!p.pp_layer_list.empty()) {
    const char* path = "parallelism.pipeline_parallel_layer_list";
    std::int64_t sum = 0;
    for (std::int64_t n : p.pp_layer_list) sum = n > layers - sum ? layers + 1 : sum + n;
    if (static_cast<std::int64_t>(p.pp_layer_list.size()) != p.pp) {
      errors.push_back({path, "lists " + Str(static_cast<std::int64_t>(p.pp_layer_list.size())) +
                                  " pipeline ranks, but pipeline_parallel_degree is " + Str(p.pp)});
    } else if (sum != layers) {
      errors.push_back({path, "its layer counts add up to " +
                                  (sum > layers ? "more than " + Str(layers) : Str(sum)) +
                                  ", but the model has " + Str(layers) + " layers"});
    }
  }
  if (p.pp <= 1 || p.pp_microbatch_size < 1 || p.pp_layers_per_stage < 0) return;
  if (c.training.local_batch_size % p.pp_microbatch_size != 0) {
    errors.push_back({"parallelism.pipeline_parallel_microbatch_size",
                      "local_batch_size " + Str(c.training.local_batch_size) +
                          " is not divisible by pipeline_parallel_microbatch_size " +
                          Str(p.pp_microbatch_size)});
  }
  if (!p.pp_layer_list.empty()) return;  // the list fixes each rank's layers (checked above)
  if (IsTorchtitanFramework(c.framework)) {
    // torchtitan weighs the embedding and the output as a layer each (frameworks.cpp).
    const PipelineSplit split =
        TorchtitanPipelineSplit(layers, p.pp, p.pp_schedule, p.pp_layers_per_stage);
    if (!split.error.empty())
      errors.push_back({p.pp_layers_per_stage > 0 ? "parallelism.pipeline_parallel_layers_per_stage"
                                                  : "parallelism.pipeline_parallel_degree",
                        split.error});
    return;
  }
  const bool one_stage_per_rank =
      p.pp_schedule == PpSchedule::k1F1B || p.pp_schedule == PpSchedule::kGPipe;
  if (p.pp_layers_per_stage > 0) {
    const std::int64_t per_stage = p.pp_layers_per_stage;
    const std::int64_t stages = (layers + per_stage - 1) / per_stage;
    const std::string split =
        Str(layers) + " layers at " + Str(per_stage) + " per stage make " + Str(stages) + " stages";
    if (stages % p.pp != 0) {
      errors.push_back({"parallelism.pipeline_parallel_layers_per_stage",
                        split + ", not a multiple of pipeline_parallel_degree " + Str(p.pp)});
    } else if (one_stage_per_rank && stages != p.pp) {
      errors.push_back({"parallelism.pipeline_parallel_layers_per_stage",
                        split + ", but " + PpScheduleName(p.pp_schedule) +
                            " runs one stage per rank (pipeline_parallel_degree " + Str(p.pp) +
                            ")"});
    }
    return;
  }
  // Even split; the interleaved schedule then runs 2 virtual stages per rank.
  const std::int64_t min_layers = p.pp * (p.pp_schedule == PpSchedule::kInterleaved1F1B ? 2 : 1);
  if (layers < min_layers) {
    errors.push_back({"parallelism.pipeline_parallel_degree",
                      "the model's " + Str(layers) + " layers cannot fill " + Str(min_layers) +
                          " pipeline stages (pipeline_parallel_degree " + Str(p.pp) + ")"});
  }
}

bool IsPositiveIntegerText(const std::string& text) {
  if (text.empty() || text.size() > 9 || text[0] == '0') return false;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return false;
  }
  return true;
}

void CheckOtherRanges(const Config& c, std::vector<Error>& errors) {
  CheckFraction(errors, "device.memory_gib", c.device.memory_gib, 0, false, kMaxDeviceMemoryGib,
                true);
  CheckInt(errors, "device.devices_per_node", c.device.devices_per_node, 1, kMaxWorldSize);
  if (c.training.dropout) {
    CheckFraction(errors, "training.dropout", *c.training.dropout, 0, true, 1, false);
  }
  const std::string& option = c.activation_checkpoint.selective_ac_option;
  if (option != "op" && !IsPositiveIntegerText(option)) {
    errors.push_back({"activation_checkpoint.selective_ac_option",
                      "expected \"op\" or a positive integer k, got \"" + option + "\""});
  }
  CheckInt(errors, "activation_checkpoint.recompute_num_layers",
           c.activation_checkpoint.recompute_num_layers, 0, c.model.num_layers);
  CheckFraction(errors, "optimizer.momentum", c.optimizer.momentum, 0, true, 1, true);
  CheckInt(errors, "optimizer.max_preconditioner_dim", c.optimizer.max_preconditioner_dim, 0,
           1000000);
  CheckInt(errors, "optimizer.swap_optimizer_times", c.optimizer.swap_optimizer_times, 1,
           kMaxWorldSize);
  if (c.parallelism.zero_stage) {
    CheckInt(errors, "parallelism.zero_stage", *c.parallelism.zero_stage, 0, 3);
  }
  CheckFraction(errors, "overhead.temporary_fraction", c.overhead.temporary_fraction, 0, true, 1,
                false);
  CheckFraction(errors, "overhead.budget_fraction", c.overhead.budget_fraction, 0, false, 1, true);
}

}  // namespace

Result<Layout> ResolveLayout(const Config& config) {
  Layout layout;
  std::vector<Error> errors = ResolveDegrees(config, layout);
  if (!errors.empty()) return Result<Layout>::Failure(std::move(errors));
  return Result<Layout>::Success(layout);
}

std::vector<Error> ValidateConfig(const Config& c) {
  std::vector<Error> errors;
  if (c.version != 1)
    errors.push_back({"version", "unsupported config version " + Str(std::int64_t{c.version})});
  CheckOtherRanges(c, errors);
  const ModelArch& m = c.model;
  const bool has_model = m.hidden_size > 0 && m.num_layers > 0 && m.num_heads > 0;
  if (!has_model) {
    errors.push_back({"model", "no model architecture: give a preset id or HF config.json fields"});
  }
  Layout layout;
  std::vector<Error> layout_errors = ResolveDegrees(c, layout);
  errors.insert(errors.end(), layout_errors.begin(), layout_errors.end());
  if (!layout_errors.empty() || !has_model) return errors;
  CheckAttentionSharding(m, layout.tp, c.framework, errors);
  CheckExperts(c, layout, errors);
  CheckSequence(c, layout, errors);
  CheckPipeline(c, errors);
  // Megatron: the instances split the data-parallel ranks evenly and only the distributed
  // optimizer has them (distributed_data_parallel.py: 'Partial DistOpt cannot be used without
  // DistOpt'; parallel_state.py asserts the division).
  const std::int64_t instances = c.parallelism.dist_opt_instances;
  if (instances > 1 && c.framework == Framework::kMegatron) {
    const std::int64_t dp = layout.dp_replicate * layout.dp_shard * layout.cp;
    if (c.parallelism.zero_stage.value_or(0) < 1) {
      errors.push_back({"parallelism.num_distributed_optimizer_instances",
                        "several optimizer instances need the distributed optimizer (zero_stage "
                        "1, --use-distributed-optimizer)"});
    } else if (dp % instances != 0) {
      errors.push_back({"parallelism.num_distributed_optimizer_instances",
                        Str(instances) + " instances do not split the " + Str(dp) +
                            " data-parallel ranks (dp·cp) evenly"});
    }
  }
  if (c.training.mtp && m.num_mtp_layers == 0) {
    errors.push_back(
        {"training.mtp", "the model has no MTP modules (num_nextn_predict_layers is 0)"});
  }
  return errors;
}

}  // namespace trainmem
