// The defaults v1 share links were written against, frozen. A v1 link carries only the keys
// that differ from these; opening it starts from these, whatever the schema's defaults become
// (DefaultConfigJson may change; this table may not). It is DefaultConfigJson() as it was when
// v1 shipped and has been since (git log -p src/core/config/config.h
// src/core/config/config_json.cpp). A key the schema gains later is not in this table: links always
// carry such keys (share_link.cpp), so their meaning cannot move with a default either. The one
// exception is a key whose frozen value is the behaviour every earlier link already had:
// parallelism.fsdp_reshard_after_forward "default" is what the estimate did before the key
// existed, so a v1 link without it means "default" now and always. Likewise
// training.create_attention_mask_in_dataloader is written only when false: true is what
// Megatron and MindSpeed-LLM do unless told otherwise, so it is the job every earlier link
// describes, and a link without the key means true now and always. training.moe_grouped_gemm
// and training.cross_entropy_fusion are written only when true: false is what every earlier
// link's estimate counted; training.dsa_fused_kernels likewise: false names the frameworks'
// default (unfused) indexer path, what an earlier link's config described;
// training.defer_embedding_wgrad_compute (false), training.wgrad_deferral_limit (0) and
// training.grad_reduce_in_bf16 (false), training.dtype ("float32"), training.vision_tower
// ("none": the language model alone, what every earlier estimate counted) and
// training.base_quantization ("none": the base weights as the framework stores them) too. And
// parallelism.ulysses_degree_in_cp is written only when non-zero: 0 is the framework's own
// context-parallel algorithm, what every earlier link's estimate used. optimizer.implementation
// is written only when not "fused": a step without temporaries is what every earlier link's
// estimate counted.
#include <nlohmann/json.hpp>

#include "core/config/config.h"
#include "core/link/share_link_detail.h"

namespace trainmem {
namespace detail {

const nlohmann::json& V1LinkDefaults() {
  static const nlohmann::json defaults = nlohmann::json::parse(R"({
    "version": 1,
    "mode": "detailed",
    "framework": "torchtitan",
    "model": "llama3-8b",
    "device": "h100-80gb",
    "world_size": 1,
    "training": {"local_batch_size": 8, "seq_len": 2048, "mixed_precision_param": "bfloat16",
                 "fp8": false, "attention": "flash", "dropout": null, "loss_chunks": 1,
                 "mtp": false},
    "compile": {"enable": false, "components": ["model", "loss"]},
    "parallelism": {"data_parallel_replicate_degree": 1, "data_parallel_shard_degree": -1,
                    "tensor_parallel_degree": 1, "pipeline_parallel_degree": 1,
                    "context_parallel_degree": 1, "expert_parallel_degree": 1,
                    "expert_tensor_parallel_degree": 1, "pipeline_parallel_microbatch_size": 1,
                    "pipeline_parallel_schedule": "1F1B", "pipeline_parallel_layers_per_stage": 0,
                    "sequence_parallel": true, "zero_stage": null,
                    "fsdp_reshard_after_forward": "default"},
    "activation_checkpoint": {"mode": "selective", "selective_ac_option": "2", "offload": false},
    "optimizer": {"name": "AdamW", "state_dtype": "float32", "momentum": 0.9,
                  "swap_optimizer": false, "swap_optimizer_times": 16,
                  "early_step_in_backward": false, "offload": false},
    "overhead": {"temporary_fraction": 0.1, "budget_fraction": 0.95}
  })");
  return defaults;
}

const nlohmann::json& V1LaterKeys() {
  static const nlohmann::json later = nlohmann::json::parse(R"({
    "training": {"create_attention_mask_in_dataloader": true, "moe_grouped_gemm": false,
                 "cross_entropy_fusion": false, "lora_rank": 0, "nvfp4_layers": 0, "dsa_fused_kernels": false,
                 "defer_embedding_wgrad_compute": false, "wgrad_deferral_limit": 0,
                 "grad_reduce_in_bf16": false, "dtype": "float32", "vision_tower": "none",
                 "base_quantization": "none"},
    "parallelism": {"ulysses_degree_in_cp": 0, "microbatch_group_size_per_vp_stage": 0,
                    "num_distributed_optimizer_instances": 1,
                    "expert_parallel_comm_backend": "standard"},
    "activation_checkpoint": {"swap_attention": false, "recompute_modules": [],
                              "recompute_num_layers": 0},
    "optimizer": {"reuse_fp32_param": false, "implementation": "fused"}
  })");
  return later;
}

namespace {

void Overlay(nlohmann::json& target, const nlohmann::json& frozen) {
  for (auto it = frozen.begin(); it != frozen.end(); ++it) {
    auto found = target.find(it.key());
    if (it->is_object() && found != target.end() && found->is_object()) {
      Overlay(*found, *it);
    } else {
      target[it.key()] = *it;
    }
  }
}

}  // namespace

nlohmann::json V1LinkBase() {
  nlohmann::json base = DefaultConfigJson();
  Overlay(base, V1LinkDefaults());
  return base;
}

}  // namespace detail
}  // namespace trainmem
