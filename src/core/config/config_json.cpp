// Config → JSON (every key written), the schema defaults, the alias table and ApplySetting.

#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.h"
#include "core/config/config_detail.h"
#include "core/model/model.h"
#include "core/model/presets.h"

namespace trainmem {

using nlohmann::json;

namespace {

json DeviceToJson(const Device& device) {
  if (!device.id.empty()) return device.id;
  return json{{"name", device.name},
              {"memory_gib", device.memory_gib},
              {"devices_per_node", device.devices_per_node}};
}

json TrainingToJson(const Training& t) {
  json j{{"local_batch_size", t.local_batch_size},
         {"seq_len", t.seq_len},
         {"mixed_precision_param", DTypeName(t.mixed_precision_param)},
         {"fp8", t.fp8},
         {"attention", AttentionName(t.attention)},
         {"dropout", t.dropout ? json(*t.dropout) : json(nullptr)},
         {"loss_chunks", t.loss_chunks},
         {"mtp", t.mtp}};
  // Written only when off: v1 share links diff against frozen defaults that predate the key, and
  // its default (on) is what Megatron did for every job an earlier link describes.
  if (!t.create_attention_mask_in_dataloader) j["create_attention_mask_in_dataloader"] = false;
  // Written only when on, for the same reason: off is what every earlier link's estimate did.
  if (t.moe_grouped_gemm) j["moe_grouped_gemm"] = true;
  if (t.cross_entropy_fusion) j["cross_entropy_fusion"] = true;
  if (t.lora_rank > 0) j["lora_rank"] = t.lora_rank;  // 0 (off): what every earlier link did
  if (t.nvfp4_layers != 0) j["nvfp4_layers"] = t.nvfp4_layers;  // 0 (none): every earlier link
  if (t.dsa_fused_kernels) j["dsa_fused_kernels"] = true;       // off: the frameworks' default path
  // Off (and limit 0) is what every earlier link's estimate did.
  if (t.defer_embedding_wgrad_compute) j["defer_embedding_wgrad_compute"] = true;
  if (t.wgrad_deferral_limit != 0) j["wgrad_deferral_limit"] = t.wgrad_deferral_limit;
  if (t.grad_reduce_in_bf16) j["grad_reduce_in_bf16"] = true;  // off: fp32, every earlier link
  // none (the language model alone) is what every earlier link's estimate counted.
  if (t.vision_tower != VisionTower::kNone) j["vision_tower"] = VisionTowerName(t.vision_tower);
  if (t.base_quantization != BaseQuantization::kNone)
    j["base_quantization"] = BaseQuantizationName(t.base_quantization);
  // float32 (fp32 masters) is what every earlier link's estimate counted.
  if (t.dtype != DType::kFloat32) j["dtype"] = DTypeName(t.dtype);
  return j;
}

json CompileToJson(const Compile& c) {
  json components = json::array();
  if (c.model) components.push_back("model");
  if (c.loss) components.push_back("loss");
  return json{{"enable", c.enable}, {"components", components}};
}

json ParallelismToJson(const Parallelism& p) {
  json j{{"data_parallel_replicate_degree", p.dp_replicate},
         {"data_parallel_shard_degree", p.dp_shard},
         {"tensor_parallel_degree", p.tp},
         {"pipeline_parallel_degree", p.pp},
         {"context_parallel_degree", p.cp},
         {"expert_parallel_degree", p.ep},
         {"expert_tensor_parallel_degree", p.etp},
         {"pipeline_parallel_microbatch_size", p.pp_microbatch_size},
         {"pipeline_parallel_schedule", PpScheduleName(p.pp_schedule)},
         {"pipeline_parallel_layers_per_stage", p.pp_layers_per_stage},
         {"sequence_parallel", p.sequence_parallel},
         {"fsdp_reshard_after_forward", ReshardPolicyName(p.fsdp_reshard_after_forward)},
         {"zero_stage", p.zero_stage ? json(*p.zero_stage) : json(nullptr)}};
  // Written only when set: v1 share links diff against frozen defaults that predate the key.
  if (!p.pp_layer_list.empty()) j["pipeline_parallel_layer_list"] = p.pp_layer_list;
  if (p.ulysses_degree_in_cp != 0) j["ulysses_degree_in_cp"] = p.ulysses_degree_in_cp;
  // 1 (one optimizer over the data-parallel group) is what every earlier link described.
  if (p.dist_opt_instances != 1) j["num_distributed_optimizer_instances"] = p.dist_opt_instances;
  if (p.vp_microbatch_group != 0) j["microbatch_group_size_per_vp_stage"] = p.vp_microbatch_group;
  // "standard" is the dispatcher every earlier link's estimate counted.
  if (p.ep_comm_backend != EpCommBackend::kStandard)
    j["expert_parallel_comm_backend"] = EpCommBackendName(p.ep_comm_backend);
  return j;
}

json OptimizerToJson(const Optimizer& o) {
  json j{{"name", OptimizerName(o.name)},
         {"state_dtype", DTypeName(o.state_dtype)},
         {"momentum", o.momentum},
         {"swap_optimizer", o.swap_optimizer},
         {"swap_optimizer_times", o.swap_optimizer_times},
         {"early_step_in_backward", o.early_step_in_backward},
         {"offload", o.offload}};
  // Options of one optimizer each (Adafactor, Shampoo / SOAP): written only when set, so that
  // configs and share links of every other optimizer do not carry them.
  if (o.first_moment) j["first_moment"] = true;
  if (o.max_preconditioner_dim > 0) j["max_preconditioner_dim"] = o.max_preconditioner_dim;
  if (o.reuse_fp32_param) j["reuse_fp32_param"] = true;
  // "fused" (no step temporaries) is what every config without the key describes.
  if (o.implementation != OptimizerImpl::kFused)
    j["implementation"] = OptimizerImplName(o.implementation);
  return j;
}

// The one alias table (config.h): used by `--set`, the share link encoder and its decoder.
const std::vector<SettingAlias> kAliases = {
    {"model", "model"},
    {"device", "device"},
    {"mode", "mode"},
    {"fw", "framework"},
    {"ws", "world_size"},
    {"b", "training.local_batch_size"},
    {"s", "training.seq_len"},
    {"prec", "training.mixed_precision_param"},
    {"fp8", "training.fp8"},
    {"fp4", "training.nvfp4_layers"},
    {"attn", "training.attention"},
    {"dropout", "training.dropout"},
    {"chunks", "training.loss_chunks"},
    {"mtp", "training.mtp"},
    {"lora", "training.lora_rank"},
    {"vt", "training.vision_tower"},
    {"bq", "training.base_quantization"},
    {"compile", "compile.enable"},
    {"dpr", "parallelism.data_parallel_replicate_degree"},
    {"dp", "parallelism.data_parallel_shard_degree"},
    {"tp", "parallelism.tensor_parallel_degree"},
    {"pp", "parallelism.pipeline_parallel_degree"},
    {"cp", "parallelism.context_parallel_degree"},
    {"ep", "parallelism.expert_parallel_degree"},
    {"etp", "parallelism.expert_tensor_parallel_degree"},
    {"mbs", "parallelism.pipeline_parallel_microbatch_size"},
    {"sched", "parallelism.pipeline_parallel_schedule"},
    {"lps", "parallelism.pipeline_parallel_layers_per_stage"},
    {"mbg", "parallelism.microbatch_group_size_per_vp_stage"},
    {"sp", "parallelism.sequence_parallel"},
    {"zero", "parallelism.zero_stage"},
    {"reshard", "parallelism.fsdp_reshard_after_forward"},
    {"epcomm", "parallelism.expert_parallel_comm_backend"},
    {"ac", "activation_checkpoint.mode"},
    {"acopt", "activation_checkpoint.selective_ac_option"},
    {"rnl", "activation_checkpoint.recompute_num_layers"},
    {"acoff", "activation_checkpoint.offload"},
    {"swapattn", "activation_checkpoint.swap_attention"},
    {"opt", "optimizer.name"},
    {"osd", "optimizer.state_dtype"},
    {"swap", "optimizer.swap_optimizer"},
    {"swapn", "optimizer.swap_optimizer_times"},
    {"ebw", "optimizer.early_step_in_backward"},
    {"ooff", "optimizer.offload"},
    {"r32", "optimizer.reuse_fp32_param"},
    {"oimpl", "optimizer.implementation"},
    {"tmp", "overhead.temporary_fraction"},
    {"budget", "overhead.budget_fraction"},
};

}  // namespace

const std::vector<SettingAlias>& SettingAliases() { return kAliases; }

std::string ResolveSettingKey(std::string_view key) {
  for (const SettingAlias& a : kAliases) {
    if (key == a.alias) return a.path;
  }
  return std::string(key);
}

std::string ShortSettingKey(std::string_view path) {
  for (const SettingAlias& a : kAliases) {
    if (path == a.path) return a.alias;
  }
  return std::string(path);
}

json ConfigToJson(const Config& c) {
  json j = json::object();
  j["version"] = c.version;
  j["mode"] = ModeName(c.mode);
  j["framework"] = FrameworkName(c.framework);
  j["model"] = c.model_id.empty() ? ModelArchToJson(c.model) : json(c.model_id);
  j["device"] = DeviceToJson(c.device);
  j["world_size"] = c.world_size;
  j["training"] = TrainingToJson(c.training);
  j["compile"] = CompileToJson(c.compile);
  j["parallelism"] = ParallelismToJson(c.parallelism);
  j["activation_checkpoint"] =
      json{{"mode", AcModeName(c.activation_checkpoint.mode)},
           {"selective_ac_option", c.activation_checkpoint.selective_ac_option},
           {"offload", c.activation_checkpoint.offload}};
  // Written only when set: v1 share links diff against frozen defaults that predate the key.
  if (c.activation_checkpoint.swap_attention) j["activation_checkpoint"]["swap_attention"] = true;
  if (c.activation_checkpoint.recompute_num_layers != 0)  // 0 (every block): every earlier link
    j["activation_checkpoint"]["recompute_num_layers"] =
        c.activation_checkpoint.recompute_num_layers;
  // Written only when set: an empty list is Megatron's default (core attention), what every
  // earlier link described.
  if (c.activation_checkpoint.recompute_modules != 0) {
    json names = json::array();
    for (std::size_t i = 0; i < std::size(kRecomputeModuleNames); ++i)
      if (c.activation_checkpoint.recompute_modules & (1u << i))
        names.push_back(kRecomputeModuleNames[i]);
    j["activation_checkpoint"]["recompute_modules"] = std::move(names);
  }
  j["optimizer"] = OptimizerToJson(c.optimizer);
  j["overhead"] = json{{"temporary_fraction", c.overhead.temporary_fraction},
                       {"budget_fraction", c.overhead.budget_fraction}};
  return j;
}

json DefaultConfigJson() {
  Config defaults;
  defaults.model_id = kDefaultModelId;
  defaults.device.id = kDefaultDeviceId;
  return ConfigToJson(defaults);
}

Result<Config> ApplySetting(const Config& config, std::string_view key, std::string_view value,
                            const Presets& presets) {
  const std::string path = ResolveSettingKey(key);
  if (path.empty()) return Result<Config>::Failure("", "empty key (expected key=value)");
  json j = ConfigToJson(config);
  const json* current = detail::FindJsonPath(j, path);
  json parsed = detail::ValueFromText(value, current != nullptr ? *current : json());
  const std::string problem = detail::SetJsonPath(j, path, std::move(parsed), presets);
  if (!problem.empty()) return Result<Config>::Failure(path, problem);
  return ConfigFromJson(j, presets);
}

}  // namespace trainmem
