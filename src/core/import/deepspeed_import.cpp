// DeepSpeed ds_config JSON → schema v1. Keys from DeepSpeed's config reference
// (deepspeed/runtime/config.py, zero/config.py, zero/offload_config.py): zero_optimization.stage,
// offload_optimizer / offload_param {device: cpu|nvme|none, ratio}, the legacy cpu_offload,
// train_micro_batch_size_per_gpu, gradient_accumulation_steps, train_batch_size (= micro ×
// accumulation × data-parallel size), bf16 / bfloat16 / fp16 {enabled}, activation_checkpointing,
// tensor_parallel.autotp_size. "auto" (filled in by the HF Trainer) stays unknown and is asked
// for — never coerced.
#include "core/import/import_detail.h"

namespace trainmem::import_detail {
namespace {

struct Ctx {
  const InputFile& file;
  Builder& b;
  Source At(const std::string& key) const {
    // The line of the key's last path part.
    const std::string last = key.substr(key.find_last_of('.') + 1);
    const std::size_t at = file.text.find("\"" + last + "\"");
    return {file.name, at == std::string::npos ? 0 : LineOf(file.text, at), key};
  }
};

bool IsAuto(const json& v) { return v.is_string() && Lower(v.get<std::string>()) == "auto"; }

std::optional<long long> Int(const json& v) {
  if (v.is_number_float()) return std::nullopt;  // DeepSpeed sizes are integers
  return JsonInteger(v);
}

bool Enabled(const json& section) {
  if (section.is_boolean()) return section.get<bool>();
  if (!section.is_object()) return false;
  auto it = section.find("enabled");
  if (it == section.end()) return true;  // a present section without "enabled"
  if (it->is_boolean()) return it->get<bool>();
  if (it->is_string()) return ParseBool(it->get<std::string>()).value_or(false);
  return false;
}

std::string OffloadDevice(const json& section) {
  if (!section.is_object()) return "";
  auto it = section.find("device");
  return it != section.end() && it->is_string() ? Lower(it->get<std::string>()) : "";
}

}  // namespace

void ImportDeepspeedJson(const InputFile& file, const json& ds, Builder& b) {
  const Ctx c{file, b};
  b.Set("framework", "deepspeed", {file.name, 0, "DeepSpeed config"});
  b.Set("parallelism.data_parallel_shard_degree", -1, {file.name, 0, "(data parallel: the rest)"});
  long long micro = 0, accumulation = 0, total = 0;
  for (const auto& [key, v] : ds.items()) {
    if (key == "train_micro_batch_size_per_gpu") {
      if (IsAuto(v)) {
        b.Missing("training.local_batch_size",
                  "train_micro_batch_size_per_gpu is \"auto\" (set by the HF Trainer from "
                  "per_device_train_batch_size): give it",
                  1);
      } else if (auto i = Int(v); i && *i >= 1) {
        micro = *i;
        b.Set("training.local_batch_size", *i, c.At(key));
      } else {
        b.Ignore(c.At(key), "not a positive whole number");
      }
    } else if (key == "gradient_accumulation_steps") {
      if (auto i = Int(v)) accumulation = *i;
      b.Ignore(c.At(key), IsAuto(v) ? "\"auto\"; gradient accumulation does not change the peak"
                                    : "gradient accumulation does not change the per-device peak");
    } else if (key == "train_batch_size") {
      if (auto i = Int(v)) total = *i;
      if (IsAuto(v)) b.Ignore(c.At(key), "\"auto\": the global batch is set by the HF Trainer");
    } else if (key == "zero_optimization") {
      if (!v.is_object()) {
        b.Ignore(c.At(key), "not an object");
        continue;
      }
      for (const auto& [zk, zv] : v.items()) {
        const std::string path = "zero_optimization." + zk;
        if (zk == "stage") {
          if (IsAuto(zv)) {
            b.Missing("parallelism.zero_stage", "zero_optimization.stage is \"auto\": give it", 0);
          } else if (auto s = Int(zv); s && *s >= 0 && *s <= 3) {
            b.Set("parallelism.zero_stage", *s, c.At(path));
          } else {
            b.Ignore(c.At(path), "ZeRO stage must be 0..3");
          }
        } else if (zk == "offload_optimizer" || zk == "cpu_offload") {
          const bool on = zk == "cpu_offload"
                              ? zv.is_boolean() && zv.get<bool>()
                              : OffloadDevice(zv) == "cpu" || OffloadDevice(zv) == "nvme";
          b.Set("optimizer.offload", on, c.At(path));
          if (zv.is_object() && zv.contains("ratio"))
            b.Note(path + ".ratio: partial offload is modelled as full optimizer offload");
          if (OffloadDevice(zv) == "nvme")
            b.Note(path + ": NVMe offload keeps the states off the device, as CPU offload does");
        } else if (zk == "offload_param" || zk == "cpu_offload_params") {
          const bool on = zk == "cpu_offload_params"
                              ? zv.is_boolean() && zv.get<bool>()
                              : OffloadDevice(zv) == "cpu" || OffloadDevice(zv) == "nvme";
          if (on)
            b.Ignore(c.At(path),
                     "ZeRO-3 parameter offload is not modelled: the estimate keeps "
                     "the parameter shards on the device (an upper bound)");
        } else if (zk == "sub_group_size") {
          // stage3.py steps the partition in sub-groups of this many elements, each with its
          // fp32 gradient copy (estimate_params.cpp DeepspeedStepTemp takes the default, 1e9).
          b.Ignore(c.At(path),
                   "ZeRO-3 steps the partition in sub-groups of this many elements; the estimate "
                   "sizes the step's fp32 gradient copy with the default 1e9 (a smaller value "
                   "lowers it)");
        } else if (zk == "stage3_max_live_parameters" || zk == "stage3_prefetch_bucket_size") {
          b.Ignore(c.At(path),
                   "caps the parameters ZeRO-3 keeps gathered: the estimate counts two layers "
                   "gathered and DeepSpeed's default prefetch bucket");
        } else {
          b.Ignore(c.At(path), "communication / bucketing setting");
        }
      }
    } else if (key == "bf16" || key == "bfloat16") {
      if (Enabled(v))
        b.Set("training.mixed_precision_param", "bfloat16", c.At(key));
      else if (v.is_object() && v.contains("enabled") && IsAuto(v["enabled"]))
        b.Missing("training.mixed_precision_param", key + ".enabled is \"auto\": give it",
                  "bfloat16");
    } else if (key == "fp16") {
      if (Enabled(v))
        b.Set("training.mixed_precision_param", "float16", c.At(key));
      else if (v.is_object() && v.contains("enabled") && IsAuto(v["enabled"]))
        b.Missing("training.mixed_precision_param", "fp16.enabled is \"auto\": give it",
                  "bfloat16");
    } else if (key == "activation_checkpointing") {
      // DeepSpeed's activation checkpointing is driven by the model code calling
      // deepspeed.checkpointing.checkpoint; the section only configures it.
      b.Set("activation_checkpoint.mode", "full", c.At(key));
      if (v.is_object() && v.contains("cpu_checkpointing") && v["cpu_checkpointing"] == true)
        b.Set("activation_checkpoint.offload", true,
              c.At("activation_checkpointing.cpu_checkpointing"));
      b.Note("activation_checkpointing present: the model is assumed to checkpoint every block");
    } else if (key == "tensor_parallel") {
      const json* tp = v.is_object() && v.contains("autotp_size") ? &v["autotp_size"] : nullptr;
      if (tp && Int(*tp) && *Int(*tp) >= 1)
        b.Set("parallelism.tensor_parallel_degree", *Int(*tp), c.At("tensor_parallel.autotp_size"));
      else
        b.Ignore(c.At(key), "no autotp_size");
    } else if (key == "optimizer") {
      std::string type = v.is_object() && v.contains("type") && v["type"].is_string()
                             ? v["type"].get<std::string>()
                             : "";
      const std::string t = Lower(type);
      if (t == "adamw" || t == "adam" || t == "cpuadam" || t == "fusedadam" || t == "onebitadam") {
        b.Set("optimizer.name", t == "adam" ? "Adam" : "AdamW", c.At("optimizer.type"));
        // engine.py _configure_basic_optimizer: Adam/AdamW are DeepSpeed's FusedAdam (one
        // multi-tensor kernel, no step temporaries) unless params.torch_adam asks for
        // torch.optim's, whose default path is foreach.
        const bool torch_adam = v.contains("params") && v["params"].is_object() &&
                                v["params"].contains("torch_adam") &&
                                v["params"]["torch_adam"] == true;
        b.Set("optimizer.implementation", torch_adam ? "foreach" : "fused",
              c.At(torch_adam ? "optimizer.params.torch_adam" : "optimizer.type"));
      } else if (t == "sgd")
        b.Set("optimizer.name", "SGD", c.At("optimizer.type"));
      else if (t == "lion")
        b.Set("optimizer.name", "Lion", c.At("optimizer.type"));
      else
        b.Ignore(c.At(key), "optimizer '" + type + "' not modelled; AdamW assumed");
    } else {
      b.Ignore(c.At(key), "does not change device memory");
    }
  }
  if (!b.Has("model"))
    b.Missing("model", "a DeepSpeed JSON names no model: give its config.json or pick a preset",
              kDefaultModelId);
  // train_batch_size = micro × accumulation × data-parallel size (DeepSpeed's batch check).
  if (micro > 0 && accumulation > 0 && total > 0) {
    // Products of numbers from the file: 0 when they overflow (then not a divisor of total).
    const long long per_rank = PositiveProduct(micro, accumulation);
    const json* tp = b.Get("parallelism.tensor_parallel_degree");
    const long long tp_degree = tp && tp->is_number_integer() ? tp->get<long long>() : 1;
    const long long world =
        per_rank > 0 && total % per_rank == 0 ? PositiveProduct(total / per_rank, tp_degree) : 0;
    if (world > 0) {
      Source s = c.At("train_batch_size");
      s.text = "train_batch_size / (micro × accumulation)";
      b.Set("world_size", world, s);
    } else {
      b.Problem("train_batch_size " + std::to_string(total) + " is not micro × accumulation (" +
                std::to_string(micro) + " × " + std::to_string(accumulation) +
                ") × data-parallel "
                "size");
    }
  }
}

}  // namespace trainmem::import_detail
