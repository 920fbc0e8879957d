// Export back: the same job as a torchtitan recipe (current Python schema), a torchtitan TOML job
// file (v0.2.2 keys), Megatron-LM arguments, or a DeepSpeed JSON — what maps, plus a list of
// what has no place in that format. The fragments are written so the importers read them back
// to the same config (tests/core/import_roundtrip_test.cpp).
#include <cinttypes>
#include <sstream>

#include "core/import/import.h"
#include "core/import/import_detail.h"
#include "core/model/model.h"

namespace trainmem {

// The model's Megatron-LM arguments (also the Megatron-Bridge importer's recipe models).
void import_detail::MegatronModelArgs(const ModelArch& m, std::ostringstream& o,
                                      std::vector<std::string>& u) {
  o << "    --num-layers " << m.num_layers << " \\\n";
  o << "    --hidden-size " << m.hidden_size << " \\\n";
  o << "    --ffn-hidden-size " << m.intermediate_size << " \\\n";
  o << "    --num-attention-heads " << m.num_heads << " \\\n";
  if (m.attention == AttentionKind::kMla) {
    o << "    --multi-latent-attention \\\n";
    if (m.q_lora_rank > 0) o << "    --q-lora-rank " << m.q_lora_rank << " \\\n";
    o << "    --kv-lora-rank " << m.kv_lora_rank << " \\\n";
    o << "    --qk-head-dim " << m.qk_nope_head_dim << " \\\n";
    o << "    --qk-pos-emb-head-dim " << m.qk_rope_head_dim << " \\\n";
    o << "    --v-head-dim " << m.v_head_dim << " \\\n";
  } else {
    if (m.num_kv_heads != m.num_heads)
      o << "    --group-query-attention \\\n    --num-query-groups " << m.num_kv_heads << " \\\n";
    if (m.num_heads > 0 && m.head_dim != m.hidden_size / m.num_heads)
      o << "    --kv-channels " << m.head_dim << " \\\n";
  }
  if (m.mlp == MlpKind::kGated) o << "    --swiglu \\\n";
  o << "    --normalization " << (m.norm == NormKind::kRmsNorm ? "RMSNorm" : "LayerNorm")
    << " \\\n";
  if (!m.o_bias && !m.mlp_bias) o << "    --disable-bias-linear \\\n";
  if (m.qkv_bias && !m.o_bias) o << "    --add-qkv-bias \\\n";
  if (m.qk_norm) o << "    --qk-layernorm \\\n";
  if (!m.tie_embeddings) o << "    --untie-embeddings-and-output-weights \\\n";
  o << "    --position-embedding-type " << (m.learned_positions ? "learned_absolute" : "rope")
    << " \\\n";
  o << "    --max-position-embeddings " << m.max_position_embeddings << " \\\n";
  o << "    --vocab-size " << m.vocab_size << " \\\n";
  o << "    --make-vocab-size-divisible-by 1 \\\n";
  if (m.num_experts > 0) {
    o << "    --num-experts " << m.num_experts << " \\\n";
    o << "    --moe-router-topk " << m.experts_per_token << " \\\n";
    o << "    --moe-ffn-hidden-size " << m.moe_intermediate_size << " \\\n";
    if (m.num_shared_experts > 0) {
      const std::int64_t width = m.shared_expert_intermediate_size > 0
                                     ? m.shared_expert_intermediate_size
                                     : m.moe_intermediate_size;
      o << "    --moe-shared-expert-intermediate-size " << width * m.num_shared_experts << " \\\n";
    }
    if (m.router_bias) o << "    --moe-router-enable-expert-bias \\\n";
    // The per-layer pattern as Megatron's list expression ([0]*k+[1]*n …), run-length encoded.
    std::string pattern;
    for (std::size_t i = 0; i < m.layer_is_moe.size();) {
      std::size_t j = i;
      while (j < m.layer_is_moe.size() && m.layer_is_moe[j] == m.layer_is_moe[i]) ++j;
      pattern += (pattern.empty() ? "" : "+") + std::string(m.layer_is_moe[i] ? "[1]*" : "[0]*") +
                 std::to_string(j - i);
      i = j;
    }
    if (!pattern.empty()) o << "    --moe-layer-freq \"" << pattern << "\" \\\n";
  }
  if (m.sliding_window > 0) u.push_back("sliding-window attention layers");
  if (m.num_mtp_layers > 0) o << "    --mtp-num-layers " << m.num_mtp_layers << " \\\n";
}

namespace {

using nlohmann::json;

struct Flavor {
  const char* preset;
  const char* family;
  const char* flavor;
};

// Inverse of the importer's flavor table (import_common.cpp).
constexpr Flavor kFlavors[] = {
    {"llama3.2-1b", "llama3", "1B"},
    {"llama3.2-3b", "llama3", "3B"},
    {"llama3.1-8b", "llama3", "8B"},
    {"llama3-8b", "llama3", "8B"},
    {"llama3.1-70b", "llama3", "70B"},
    {"llama3-70b", "llama3", "70B"},
    {"llama3.1-405b", "llama3", "405B"},
    {"llama3-405b", "llama3", "405B"},
    {"qwen3-8b", "qwen3", "8B"},
    {"qwen3-32b", "qwen3", "32B"},
    {"qwen3-30b-a3b", "qwen3", "30B-A3B"},
    {"deepseek-v3", "deepseek_v3", "671B"},
    {"deepseek-v3.2", "deepseek_v32", "671B"},
    {"deepseek-v2-lite", "deepseek_v3", "16B"},
    {"gpt-oss-120b", "gpt_oss", "120b"},
};

const Flavor* FlavorOf(const Config& c) {
  for (const Flavor& f : kFlavors)
    if (c.model_id == f.preset) return &f;
  return nullptr;
}

std::string DeviceComment(const Config& c) {
  const bool npu = c.device.id.rfind("ascend", 0) == 0;
  return std::to_string(c.world_size) + (npu ? " NPUs" : " GPUs") + " (" + c.device.name + ")";
}

bool SelectiveEveryK(const Config& c) {
  return c.activation_checkpoint.mode == AcMode::kSelective &&
         c.activation_checkpoint.selective_ac_option != "op";
}

std::int64_t DataParallel(const Config& c) {
  const std::int64_t fixed =
      std::max<std::int64_t>(1, c.parallelism.tp * c.parallelism.pp * c.parallelism.cp);
  return std::max<std::int64_t>(1, c.world_size / fixed);
}

// `target`: the framework the file is for; swap_optimizer / optimizer offload it lacks
// (frameworks.cpp) are listed here rather than written.
void CommonUnmapped(const Config& c, Framework target, std::vector<std::string>& u) {
  const std::string name = FrameworkName(target);
  if (c.optimizer.swap_optimizer && !FrameworkHasSwapOptimizer(target))
    u.push_back("optimizer.swap_optimizer: " + name + " has no swap_optimizer");
  if (c.optimizer.offload && !FrameworkHasOptimizerOffload(target))
    u.push_back("optimizer.offload: " + name + " has no optimizer offload");
  if (c.training.attention == AttentionImpl::kEager)
    u.push_back("training.attention = eager: choose the eager attention backend in the framework");
  const bool torchtitan = IsTorchtitanFramework(target);
  if (c.training.attention == AttentionImpl::kFlex && !torchtitan)
    u.push_back("training.attention = flex: torchtitan's FlexAttention, estimated as flash here");
  if (c.training.dtype != DType::kFloat32 && !torchtitan)
    u.push_back("training.dtype = " + std::string(DTypeName(c.training.dtype)) + ": " + name +
                " keeps its own master weights");
  if (c.training.loss_chunks > 1)
    u.push_back("training.loss_chunks = " + std::to_string(c.training.loss_chunks));
  if (c.overhead.temporary_fraction != 0.10 || c.overhead.budget_fraction != 0.95)
    u.push_back("overhead.*: trainmem's own margins");
  if (c.mode == Mode::kTemplate) u.push_back("mode = template: trainmem's own method");
}

ExportResult ToTorchtitanPython(const Config& c) {
  ExportResult r;
  std::ostringstream o;
  const Flavor* f = FlavorOf(c);
  const bool npu = c.framework == Framework::kTorchtitanNpu;
  const Framework target = npu ? Framework::kTorchtitanNpu : Framework::kTorchtitan;
  const std::string family = f ? f->family : "custom";
  o << "# torchtitan recipe written by trainmem export: " << DeviceComment(c) << "\n";
  o << "def " << family << "_trainmem() -> Trainer.Config:\n";
  o << "    return Trainer.Config(\n";
  if (f) {
    o << "        model_spec=model_registry(\"" << f->flavor << "\"";
    // Always written: the importer otherwise takes the family's default (flex since 2026-06).
    const char* backend = c.training.attention == AttentionImpl::kFlex   ? "flex"
                          : c.training.attention == AttentionImpl::kSdpa ? "sdpa"
                                                                         : "varlen";
    o << ", attn_backend=\"" << backend << "\"";
    if (c.parallelism.ep_comm_backend != EpCommBackend::kStandard)
      o << ", moe_comm_backend=\"" << EpCommBackendName(c.parallelism.ep_comm_backend) << "\"";
    if (c.training.fp8) o << ", converters=[Float8LinearConverter.Config()]";
    o << "),\n";
  } else {
    r.unmapped.push_back("model " + c.model_name +
                         ": no torchtitan flavor holds it; register a flavor with its config");
  }
  const Parallelism& p = c.parallelism;
  const std::int64_t micro = SequencesPerMicrobatch(c, p.pp);
  o << "        training=TrainingConfig(\n";
  o << "            num_tokens_per_microbatch_per_dp_rank=" << micro << " * " << c.training.seq_len
    << ",\n";
  o << "            max_context_length=" << c.training.seq_len << ",\n";
  o << "            mixed_precision_param=\"" << DTypeName(c.training.mixed_precision_param)
    << "\",\n";
  if (c.training.dtype != DType::kFloat32)
    o << "            dtype=\"" << DTypeName(c.training.dtype) << "\",\n";
  o << "        ),\n";
  o << "        parallelism=ParallelismConfig(\n";
  o << "            data_parallel_replicate_degree=" << p.dp_replicate << ",\n";
  o << "            data_parallel_shard_degree=" << p.dp_shard << ",\n";
  o << "            tensor_parallel_degree=" << p.tp << ",\n";
  o << "            enable_sequence_parallel=" << (p.sequence_parallel ? "True" : "False") << ",\n";
  o << "            pipeline_parallel_degree=" << p.pp << ",\n";
  if (p.pp > 1) {
    o << "            pipeline_parallel_schedule=\"" << PpScheduleName(p.pp_schedule) << "\",\n";
    o << "            num_pp_microbatches="
      << c.training.local_batch_size / std::max<std::int64_t>(1, p.pp_microbatch_size) << ",\n";
    if (p.pp_layers_per_stage > 0)
      o << "            pipeline_parallel_layers_per_stage=" << p.pp_layers_per_stage << ",\n";
  }
  if (p.fsdp_reshard_after_forward != ReshardPolicy::kDefault)
    o << "            fsdp_reshard_after_forward=\""
      << ReshardPolicyName(p.fsdp_reshard_after_forward) << "\",\n";
  o << "            context_parallel_degree=" << p.cp << ",\n";
  o << "            expert_parallel_degree=" << p.ep << ",\n";
  if (npu && p.etp > 1) o << "            expert_tensor_parallel_degree=" << p.etp << ",\n";
  o << "        ),\n";
  if (!npu && p.etp > 1)
    r.unmapped.push_back("expert_tensor_parallel_degree: the current torchtitan has no ETP");
  const AcMode ac = c.activation_checkpoint.mode;
  o << "        activation_checkpoint="
    << (ac == AcMode::kFull   ? "FullAC.Config()"
        : ac == AcMode::kNone ? "None"
                              : "SelectiveAC.Config()")
    << ",\n";
  if (SelectiveEveryK(c))
    r.unmapped.push_back("selective_ac_option = " + c.activation_checkpoint.selective_ac_option +
                         ": the class-based config has op-level SelectiveAC only");
  if (c.activation_checkpoint.offload) r.unmapped.push_back("activation_checkpoint.offload");
  if (c.compile.enable || !c.compile.model || !c.compile.loss) {
    o << "        compile=CompileConfig(enable=" << (c.compile.enable ? "True" : "False")
      << ", components=[";
    if (c.compile.model) o << "\"model\"" << (c.compile.loss ? ", " : "");
    if (c.compile.loss) o << "\"loss\"";
    o << "]),\n";
  }
  if (FrameworkHasSwapOptimizer(target)) {
    o << "        optimizer=OptimizerConfig(name=\"" << OptimizerName(c.optimizer.name)
      << "\", swap_optimizer=" << (c.optimizer.swap_optimizer ? "True" : "False")
      << ", swap_optimizer_times=" << c.optimizer.swap_optimizer_times << "),\n";
  } else if (c.optimizer.early_step_in_backward) {
    o << "        optimizer=OptimizersInBackwardContainer.Config(),\n";
  } else if (c.optimizer.name != OptimizerKind::kAdamW) {
    r.unmapped.push_back(std::string("optimizer ") + OptimizerName(c.optimizer.name) +
                         ": the recipe uses default_adamw");
  }
  if (c.optimizer.state_dtype != DType::kFloat32) r.unmapped.push_back("optimizer.state_dtype");
  if (c.training.mtp) r.unmapped.push_back("training.mtp: set num_mtp_layers on model_registry");
  o << "    )\n";
  CommonUnmapped(c, target, r.unmapped);
  r.text = o.str();
  return r;
}

ExportResult ToToml(const Config& c) {
  ExportResult r;
  std::ostringstream o;
  const Flavor* f = FlavorOf(c);
  const bool npu = c.framework == Framework::kTorchtitanNpu;
  const Framework target = npu ? Framework::kTorchtitanNpu : Framework::kTorchtitan;
  const Parallelism& p = c.parallelism;
  o << "# torchtitan job file written by trainmem export: " << DeviceComment(c) << "\n\n";
  o << "[job]\ndescription = \"" << c.model_name << "\"\n";
  if (npu) o << "custom_config_module = \"torchtitan_npu.config.custom_config\"\n";
  o << "\n[model]\n";
  if (f) {
    o << "name = \"" << f->family << "\"\nflavor = \"" << f->flavor << "\"\n";
  } else {
    r.unmapped.push_back("model " + c.model_name + ": no torchtitan flavor holds it");
  }
  if (c.training.fp8) o << "converters = [\"float8\"]\n";
  o << "\n[optimizer]\nname = \"" << OptimizerName(c.optimizer.name) << "\"\n";
  if (FrameworkHasSwapOptimizer(target)) {
    o << "swap_optimizer = " << (c.optimizer.swap_optimizer ? "true" : "false") << "\n";
    o << "swap_optimizer_times = " << c.optimizer.swap_optimizer_times << "\n";
  }
  if (c.optimizer.early_step_in_backward) o << "early_step_in_backward = true\n";
  o << "\n[training]\nlocal_batch_size = " << c.training.local_batch_size << "\n";
  o << "seq_len = " << c.training.seq_len << "\n";
  o << "mixed_precision_param = \"" << DTypeName(c.training.mixed_precision_param) << "\"\n";
  if (c.training.dtype != DType::kFloat32)
    o << "dtype = \"" << DTypeName(c.training.dtype) << "\"\n";
  if (c.training.attention == AttentionImpl::kFlex)
    r.unmapped.push_back(
        "training.attention = flex: a TOML job file picks FlexAttention through its model flavor");
  o << "\n[parallelism]\n";
  o << "data_parallel_replicate_degree = " << p.dp_replicate << "\n";
  o << "data_parallel_shard_degree = " << p.dp_shard << "\n";
  o << "tensor_parallel_degree = " << p.tp << "\n";
  o << "pipeline_parallel_degree = " << p.pp << "\n";
  if (p.pp > 1) {
    o << "pipeline_parallel_microbatch_size = " << p.pp_microbatch_size << "\n";
    o << "pipeline_parallel_schedule = \"" << PpScheduleName(p.pp_schedule) << "\"\n";
    if (p.pp_layers_per_stage > 0)
      o << "pipeline_parallel_layers_per_stage = " << p.pp_layers_per_stage << "\n";
  }
  if (p.fsdp_reshard_after_forward != ReshardPolicy::kDefault)
    o << "fsdp_reshard_after_forward = \"" << ReshardPolicyName(p.fsdp_reshard_after_forward)
      << "\"\n";
  o << "context_parallel_degree = " << p.cp << "\n";
  o << "expert_parallel_degree = " << p.ep << "\n";
  o << "expert_tensor_parallel_degree = " << p.etp << "\n";
  if (p.ep_comm_backend != EpCommBackend::kStandard)
    o << "expert_parallel_comm_backend = \"" << EpCommBackendName(p.ep_comm_backend) << "\"\n";
  if (!p.sequence_parallel && p.tp > 1)
    r.unmapped.push_back("sequence_parallel = false: v0.2.2 always shards sequences under TP");
  o << "\n[activation_checkpoint]\nmode = \"" << AcModeName(c.activation_checkpoint.mode) << "\"\n";
  if (c.activation_checkpoint.mode == AcMode::kSelective)
    o << "selective_ac_option = \"" << c.activation_checkpoint.selective_ac_option << "\"\n";
  if (c.activation_checkpoint.offload) r.unmapped.push_back("activation_checkpoint.offload");
  o << "\n[compile]\nenable = " << (c.compile.enable ? "true" : "false") << "\ncomponents = [";
  if (c.compile.model) o << "\"model\"" << (c.compile.loss ? ", " : "");
  if (c.compile.loss) o << "\"loss\"";
  o << "]\n";
  if (c.optimizer.state_dtype != DType::kFloat32) r.unmapped.push_back("optimizer.state_dtype");
  if (c.training.mtp) r.unmapped.push_back("training.mtp");
  CommonUnmapped(c, target, r.unmapped);
  r.text = o.str();
  return r;
}

ExportResult ToMegatron(const Config& c) {
  ExportResult r;
  std::ostringstream o;
  const Parallelism& p = c.parallelism;
  const bool npu = c.device.id.rfind("ascend", 0) == 0;
  const std::int64_t per_node = std::min<std::int64_t>(c.world_size, c.device.devices_per_node);
  const std::int64_t nodes =
      std::max<std::int64_t>(1, c.world_size / std::max<std::int64_t>(1, per_node));
  o << "#!/bin/bash\n# Megatron-LM launch written by trainmem export: " << DeviceComment(c) << "\n";
  o << (npu ? "NPUS_PER_NODE=" : "GPUS_PER_NODE=") << per_node << "\nNNODES=" << nodes << "\n\n";
  o << "torchrun --nproc_per_node " << (npu ? "$NPUS_PER_NODE" : "$GPUS_PER_NODE")
    << " --nnodes $NNODES pretrain_gpt.py \\\n";
  import_detail::MegatronModelArgs(c.model, o, r.unmapped);
  o << "    --tensor-model-parallel-size " << p.tp << " \\\n";
  o << "    --pipeline-model-parallel-size " << p.pp << " \\\n";
  o << "    --context-parallel-size " << p.cp << " \\\n";
  if (p.ep > 1) o << "    --expert-model-parallel-size " << p.ep << " \\\n";
  if (p.etp > 1) o << "    --expert-tensor-parallel-size " << p.etp << " \\\n";
  if (p.sequence_parallel && p.tp > 1) o << "    --sequence-parallel \\\n";
  if (p.zero_stage.value_or(0) >= 1) o << "    --use-distributed-optimizer \\\n";
  if (p.zero_stage.value_or(0) >= 2)
    r.unmapped.push_back("ZeRO stage " + std::to_string(*p.zero_stage) +
                         ": Megatron's distributed optimizer shards the optimizer only");
  if (p.pp > 1 && p.pp_schedule == PpSchedule::kInterleaved1F1B) {
    const std::int64_t per_stage = p.pp_layers_per_stage > 0
                                       ? p.pp_layers_per_stage
                                       : std::max<std::int64_t>(1, c.model.num_layers / (2 * p.pp));
    o << "    --num-layers-per-virtual-pipeline-stage " << per_stage << " \\\n";
  }
  if (p.dp_replicate > 1) r.unmapped.push_back("data_parallel_replicate_degree (HSDP)");
  const std::int64_t micro = SequencesPerMicrobatch(c, p.pp);
  o << "    --micro-batch-size " << micro << " \\\n";
  o << "    --global-batch-size " << c.training.local_batch_size * DataParallel(c) << " \\\n";
  o << "    --seq-length " << c.training.seq_len << " \\\n";
  if (c.activation_checkpoint.mode == AcMode::kFull)
    o << "    --recompute-granularity full \\\n    --recompute-method uniform \\\n"
         "    --recompute-num-layers 1 \\\n";
  else if (c.activation_checkpoint.mode == AcMode::kSelective)
    o << "    --recompute-granularity selective \\\n";
  if (c.training.mixed_precision_param == DType::kBFloat16) o << "    --bf16 \\\n";
  if (c.training.mixed_precision_param == DType::kFloat16) o << "    --fp16 \\\n";
  if (c.training.fp8) o << "    --fp8-format hybrid \\\n";
  if (c.training.dropout)
    o << "    --hidden-dropout " << *c.training.dropout << " \\\n    --attention-dropout "
      << *c.training.dropout << " \\\n";
  // MindSpeed's --swap-optimizer; Megatron-Core's --optimizer-cpu-offload, which its
  // arguments.py accepts only with --use-precision-aware-optimizer (frameworks.cpp).
  if (c.optimizer.swap_optimizer) o << "    --swap-optimizer \\\n";
  if (c.optimizer.offload)
    o << "    --optimizer-cpu-offload \\\n    --use-precision-aware-optimizer \\\n";
  if (c.compile.enable) r.unmapped.push_back("compile: Megatron does not use torch.compile");
  o << "    --use-flash-attn\n";
  CommonUnmapped(c, Framework::kMegatron, r.unmapped);
  r.text = o.str();
  return r;
}

ExportResult ToDeepspeed(const Config& c) {
  ExportResult r;
  const Parallelism& p = c.parallelism;
  json ds;
  ds["train_micro_batch_size_per_gpu"] = c.training.local_batch_size;
  ds["gradient_accumulation_steps"] = 1;
  ds["train_batch_size"] =
      c.training.local_batch_size *
      std::max<std::int64_t>(1, c.world_size / std::max<std::int64_t>(1, p.tp));
  json zero = {{"stage", p.zero_stage.value_or(0)}};
  if (c.optimizer.offload) zero["offload_optimizer"] = {{"device", "cpu"}, {"pin_memory", true}};
  ds["zero_optimization"] = zero;
  if (c.training.mixed_precision_param == DType::kBFloat16) ds["bf16"] = {{"enabled", true}};
  if (c.training.mixed_precision_param == DType::kFloat16) ds["fp16"] = {{"enabled", true}};
  if (c.activation_checkpoint.mode == AcMode::kFull) {
    ds["activation_checkpointing"] = {{"partition_activations", false},
                                      {"cpu_checkpointing", c.activation_checkpoint.offload}};
  } else if (c.activation_checkpoint.mode == AcMode::kSelective) {
    r.unmapped.push_back(
        "selective activation checkpointing: DeepSpeed checkpoints what the "
        "model code wraps");
  }
  if (p.tp > 1) ds["tensor_parallel"] = {{"autotp_size", p.tp}};
  ds["optimizer"] = {{"type", OptimizerName(c.optimizer.name)}};
  r.unmapped.push_back("model " + c.model_name +
                       ": DeepSpeed's JSON names none; give the "
                       "model's config.json beside it");
  r.unmapped.push_back("seq_len " + std::to_string(c.training.seq_len) +
                       ": set by the data "
                       "pipeline, not the DeepSpeed JSON");
  if (p.pp > 1) r.unmapped.push_back("pipeline_parallel_degree (DeepSpeed's PipelineModule)");
  if (p.cp > 1) r.unmapped.push_back("context_parallel_degree");
  if (p.ep > 1) r.unmapped.push_back("expert_parallel_degree (moe layer arguments)");
  if (c.training.fp8) r.unmapped.push_back("training.fp8");
  if (c.compile.enable) r.unmapped.push_back("compile");
  CommonUnmapped(c, Framework::kDeepspeed, r.unmapped);
  r.text = ds.dump(2) + "\n";
  return r;
}

}  // namespace

bool ParseExportFormat(std::string_view name, ExportFormat& out) {
  if (name == "torchtitan" || name == "python")
    out = ExportFormat::kTorchtitanPython;
  else if (name == "toml")
    out = ExportFormat::kTorchtitanToml;
  else if (name == "megatron")
    out = ExportFormat::kMegatron;
  else if (name == "deepspeed")
    out = ExportFormat::kDeepspeed;
  else
    return false;
  return true;
}

ExportResult ExportConfig(const Config& config, ExportFormat format) {
  switch (format) {
    case ExportFormat::kTorchtitanPython:
      return ToTorchtitanPython(config);
    case ExportFormat::kTorchtitanToml:
      return ToToml(config);
    case ExportFormat::kMegatron:
      return ToMegatron(config);
    case ExportFormat::kDeepspeed:
      return ToDeepspeed(config);
  }
  return {};
}

}  // namespace trainmem
