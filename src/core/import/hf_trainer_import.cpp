// Jobs run by the Hugging Face Trainer, the way most DeepSpeed training is launched: a script
// (`deepspeed --num_gpus 8 train.py --deepspeed ds_z3.json --per_device_train_batch_size 2 …`,
// torchrun, accelerate launch) or a flat YAML of the same arguments (LLaMA-Factory's
// `llamafactory-cli train job.yaml`), with the DeepSpeed JSON that `deepspeed` names and an
// accelerate config.
//
// Keys and defaults (transformers TrainingArguments, training_args.py):
//   per_device_train_batch_size 8, gradient_accumulation_steps 1, bf16 / fp16 False (fp32
//   training), gradient_checkpointing False (True checkpoints every decoder layer), optim
//   "adamw_torch", deepspeed (a path or an inline JSON), fsdp ("full_shard auto_wrap", …),
//   torch_compile False.
// The sequence length belongs to the training script, under one of the names in kSeqKeys.
// LLaMA-Factory (src/llamafactory/hparams): finetuning_type "lora" by default with lora_rank 8,
// cutoff_len 2048, pure_bf16, flash_attn, quantization_bit, stage (sft, pt, rm, dpo, kto, ppo).
// TRL's ModelConfig: use_peft with lora_r (16).
//
// The job is estimated as framework "deepspeed": its ZeRO stage from the JSON (or, when the JSON
// is not given, from its name: ds_z3_config.json). Without DeepSpeed the Trainer runs DDP or
// PyTorch FSDP; those are estimated as the ZeRO stage that shards the same states (DDP 0,
// SHARD_GRAD_OP 2, FULL_SHARD 3), which the report says.
#include <algorithm>
#include <cctype>

#include "core/import/arg_values.h"
#include "core/import/import_detail.h"
#include "core/import/yaml_reader.h"

namespace trainmem::import_detail {
namespace {

// The sequence length under the names training scripts give it: LLaMA-Factory, FastChat /
// Alpaca (model_max_length), TRL's SFTConfig (max_seq_length, later max_length), run_clm.py
// (block_size), and others.
constexpr const char* kSeqKeys[] = {"cutoff_len",  "model_max_length", "max_seq_length",
                                    "max_length",  "block_size",       "seq_length",
                                    "max_seq_len", "seq_len",          "max_len"};

// QLoRA: how the frozen base is quantized (training.base_quantization), from
// - LLaMA-Factory (hparams/model_args.py QuantizationArguments): quantization_bit 4 or 8 with
//   quantization_method "bnb" (the default), quantization_type nf4 / fp4 (the same storage) and
//   double_quantization (default true);
// - transformers / TRL (BitsAndBytesConfig, TRL's ModelConfig): load_in_4bit with
//   bnb_4bit_use_double_quant (TRL's use_bnb_nested_quant; default false), load_in_8bit;
// - FastChat's and others' q_lora flag: BitsAndBytesConfig(load_in_4bit, nf4, double quant);
// - a checkpoint stored quantized, whatever the arguments say, for a LoRA job: unsloth's
//   *-bnb-4bit (bitsandbytes NF4 with double quantization), a GPTQ / AWQ / Int4 repository
//   (int4 in groups of 128 with a 16-bit scale and a 4-bit zero each, 0.5195 bytes a weight,
//   within 1% of NF4's 0.5159, which stands for it), a GPTQ-Int8 one (8-bit).
// Other methods (quantization_method hqq, eetq) are named, not modelled.
void ReadBaseQuantization(ArgReader& r, Builder& b) {
  r.Str("quantization_type");    // nf4 or fp4: the same storage
  r.Str("bnb_4bit_quant_type");  // likewise
  const auto bits = r.Int("quantization_bit");
  const std::string method = Lower(r.Str("quantization_method"));
  if (bits && (method.empty() || method == "bnb" || method == "bitsandbytes")) {
    if (*bits == 4) {
      const bool dq = r.Flag("double_quantization").value_or(true);
      b.Set("training.base_quantization", dq ? "nf4_double_quant" : "nf4",
            r.SourceOf("quantization_bit"));
    } else if (*bits == 8) {
      b.Set("training.base_quantization", "int8", r.SourceOf("quantization_bit"));
    } else {
      b.Problem("quantization_bit " + std::to_string(*bits) +
                ": bitsandbytes quantizes to 4 or 8 bits; the base is estimated unquantized");
    }
    return;
  }
  if (bits) {
    b.Problem("quantization_method " + method +
              ": the frozen base weights are quantized by a method trainmem does not model; the "
              "estimate keeps them in 16 bits (an over-estimate)");
    return;
  }
  r.Find("load_in_8bit");  // read with load_in_4bit: whichever is true
  if (r.Flag("load_in_4bit").value_or(false)) {
    const bool dq = r.Flag("bnb_4bit_use_double_quant").value_or(false) ||
                    r.Flag("use_bnb_nested_quant").value_or(false);
    b.Set("training.base_quantization", dq ? "nf4_double_quant" : "nf4",
          r.SourceOf("load_in_4bit"));
  } else if (r.Flag("load_in_8bit").value_or(false)) {
    b.Set("training.base_quantization", "int8", r.SourceOf("load_in_8bit"));
  } else if (r.Flag("q_lora").value_or(false)) {
    b.Set("training.base_quantization", "nf4_double_quant", r.SourceOf("q_lora"));
  } else if (b.Has("training.lora_rank")) {
    const std::string name = Lower(r.Str("model_name_or_path"));
    const bool bnb = name.find("bnb-4bit") != std::string::npos;
    const bool int8 = name.find("int8") != std::string::npos;  // Qwen's *-GPTQ-Int8
    const bool int4 =
        !int8 && (name.find("gptq") != std::string::npos || name.find("awq") != std::string::npos ||
                  name.find("int4") != std::string::npos);
    if (int8 && name.find("gptq") != std::string::npos) {
      b.Set("training.base_quantization", "int8", r.SourceOf("model_name_or_path"));
      b.Note("the checkpoint is stored in 8 bits (GPTQ int8): estimated as LLM.int8's bytes");
    } else if (bnb || int4) {
      b.Set("training.base_quantization", "nf4_double_quant", r.SourceOf("model_name_or_path"));
      if (int4)
        b.Note(
            "the checkpoint is stored in 4 bits (GPTQ / AWQ int4): estimated as NF4 with "
            "double quantization, within 1% of its bytes");
    }
  }
}

// Keys of the arguments that say the job is the Hugging Face Trainer's.
bool HasTrainerKeys(const ArgValues& v) {
  for (const char* k :
       {"per_device_train_batch_size", "deepspeed", "gradient_checkpointing", "finetuning_type",
        "gradient_accumulation_steps", "cutoff_len", "stage", "micro_train_batch_size",
        "train.micro_batch_size", "ds.zero_stage", "zero_stage", "actor_zero_stage"})
    if (v.count(k)) return true;
  // axolotl: base_model beside its batch or sequence keys.
  return v.count("base_model") &&
         (v.count("micro_batch_size") || v.count("sequence_len") || v.count("batch_size"));
}

// "ds_z3_offload_config.json", "zero2.json", "ds_config_zero3.json", "zero_stage_1.json": the
// ZeRO stage in a DeepSpeed config's name, or -1.
int StageInName(const std::string& path) {
  const std::string name = Lower(BaseName(path));
  for (std::size_t i = 0; i + 1 < name.size(); ++i) {
    if (name[i] != 'z') continue;
    std::size_t j = i + 1;
    if (name.compare(i, 4, "zero") == 0) j = i + 4;
    while (j < name.size() && (name[j] == '_' || name[j] == '-')) ++j;
    if (name.compare(j, 5, "stage") == 0) j += 5;
    while (j < name.size() && (name[j] == '_' || name[j] == '-')) ++j;
    if (j < name.size() && name[j] >= '0' && name[j] <= '3' &&
        (j + 1 == name.size() || !std::isdigit(static_cast<unsigned char>(name[j + 1]))))
      return name[j] - '0';
  }
  return -1;
}

// The DeepSpeed recipe: one data-parallel group over every rank; SetZero with its ZeRO stage.
void SetDeepspeed(Builder& b, const Source& at) {
  b.Set("framework", "deepspeed", at);
  b.Set("parallelism.data_parallel_shard_degree", -1, {at.file, 0, "(data parallel: the rest)"});
}
void SetZero(Builder& b, const Source& framework_at, int stage, const Source& stage_at) {
  SetDeepspeed(b, framework_at);
  b.Set("parallelism.zero_stage", stage, stage_at);
}

// Trainer arguments held flat in a YAML or JSON mapping, key → value (nulls: the default).
void AddFlatArgs(const InputFile& f, const YamlDocument& doc, ArgValues& values) {
  for (const auto& [k, v] : doc.value.items())
    if (!v.is_null()) values[k] = {v, {f.name, doc.LineOf(k), k}};
}

// The DeepSpeed config the Trainer is given: inline JSON, a file given alongside (matched by
// base name), or only its name.
void ReadDeepspeed(ArgReader& r, const std::vector<InputFile>& all, Builder& b,
                   std::vector<Error>& fatal) {
  std::string ds = Trim(r.Str("deepspeed"));
  Source at = r.SourceOf("deepspeed");
  // deepspeed.add_config_arguments: a bare --deepspeed flag with --deepspeed_config PATH.
  if (ds.empty() || ArgBool(json(ds)).value_or(false)) {
    if (r.Has("deepspeed_config")) {
      ds = Trim(r.Str("deepspeed_config"));
      at = r.SourceOf("deepspeed_config");
    } else {
      // No path (a bare flag, or an unset $VAR): the one DeepSpeed JSON given, if any.
      const InputFile* only = nullptr;
      int count = 0;
      for (const InputFile& f : all)
        if (!b.Used(f.name) && DetectInputKind(f.name, f.text) == InputKind::kDeepspeedJson) {
          only = &f;
          ++count;
        }
      if (count != 1) {
        SetDeepspeed(b, at);
        b.Missing("parallelism.zero_stage",
                  "--deepspeed names no config file: give the DeepSpeed JSON", 0);
        return;
      }
      b.Note("--deepspeed names no file: read " + only->name + ", the DeepSpeed JSON given");
      ds = only->name;
    }
  }
  if (!ds.empty() && ds.front() == '{') {
    const InputFile inline_file{at.file + " --deepspeed", ds};
    Result<json> parsed = ParseJsonInput(inline_file);
    if (!parsed.ok() || !parsed.value().is_object()) {
      fatal.push_back({at.file, "--deepspeed holds JSON that does not parse"});
      return;
    }
    ImportDeepspeedJson(inline_file, parsed.value(), b);
    return;
  }
  for (const InputFile& f : all) {
    if (BaseName(f.name) != BaseName(ds)) continue;
    b.UseFile(f.name);
    Result<json> parsed = ParseJsonInput(f);
    if (!parsed.ok()) {
      fatal.insert(fatal.end(), parsed.errors().begin(), parsed.errors().end());
      return;
    }
    if (!parsed.value().is_object()) {
      fatal.push_back({f.name, "expected a JSON object"});
      return;
    }
    ImportDeepspeedJson(f, parsed.value(), b);
    return;
  }
  SetDeepspeed(b, at);
  const int stage = StageInName(ds);
  if (stage >= 0) {
    Source s = at;
    s.text = "the ZeRO stage in the name " + BaseName(ds);
    b.Set("parallelism.zero_stage", stage, s);
    if (Lower(BaseName(ds)).find("offload") != std::string::npos) {
      b.Set("optimizer.offload", true, s);
      b.Note(BaseName(ds) +
             ": \"offload\" in the name is read as optimizer offload; give the "
             "file to read its settings");
    }
  } else {
    b.Missing("parallelism.zero_stage",
              "the DeepSpeed config " + ds + " was not given and its name has no stage", 0);
  }
  b.Wants(ds);
  b.Problem(ds + " (the --deepspeed config) was not given: " +
            (stage >= 0 ? "ZeRO stage " + std::to_string(stage) + " is read from its name"
                        : std::string("give it to read its ZeRO stage")));
}

// An accelerate config (`accelerate launch --config_file`): distributed_type, num_processes,
// mixed_precision, deepspeed_config.zero_stage / offload_optimizer_device, fsdp_config's
// sharding strategy (accelerate/commands/config).
void ReadAccelerate(const InputFile& file, const YamlDocument& doc, Builder& b) {
  b.UseFile(file.name);
  const json& c = doc.value;
  auto src = [&](const std::string& key) { return Source{file.name, doc.LineOf(key), key}; };
  const std::string type = c.contains("distributed_type") && c["distributed_type"].is_string()
                               ? Lower(c["distributed_type"].get<std::string>())
                               : "";
  if (const auto n = c.contains("num_processes") ? JsonInteger(c["num_processes"]) : std::nullopt;
      n && *n > 0)
    b.Set("world_size", *n, src("num_processes"));
  const std::string mp = c.contains("mixed_precision") && c["mixed_precision"].is_string()
                             ? Lower(c["mixed_precision"].get<std::string>())
                             : "";
  if (mp == "bf16" || mp == "fp16")
    b.Set("training.mixed_precision_param", mp == "bf16" ? "bfloat16" : "float16",
          src("mixed_precision"));
  if (type == "deepspeed" && c.contains("deepspeed_config") && c["deepspeed_config"].is_object()) {
    const json& d = c["deepspeed_config"];
    b.Set("framework", "deepspeed", src("distributed_type"));
    if (const auto z = d.contains("zero_stage") ? JsonInteger(d["zero_stage"]) : std::nullopt;
        z && *z >= 0 && *z <= 3)
      b.Set("parallelism.zero_stage", *z, src("deepspeed_config.zero_stage"));
    if (d.contains("offload_optimizer_device") && d["offload_optimizer_device"].is_string() &&
        Lower(d["offload_optimizer_device"].get<std::string>()) != "none")
      b.Set("optimizer.offload", true, src("deepspeed_config.offload_optimizer_device"));
  } else if (type == "fsdp") {
    std::string strategy;
    if (c.contains("fsdp_config") && c["fsdp_config"].is_object()) {
      const json& f = c["fsdp_config"];
      for (const char* k : {"fsdp_sharding_strategy", "fsdp_reshard_after_forward"})
        if (f.contains(k)) strategy = Lower(ArgText(f[k]));
    }
    // FULL_SHARD (or 1, or reshard_after_forward true in FSDP2 configs) shards parameters too;
    // SHARD_GRAD_OP (2) keeps them whole between forward and backward.
    const bool grad_op = strategy == "shard_grad_op" || strategy == "2" || strategy == "false";
    b.Set("framework", "deepspeed", src("distributed_type"));
    b.Set("parallelism.zero_stage", grad_op ? 2 : 3, src("fsdp_config.fsdp_sharding_strategy"));
    b.Note("accelerate's PyTorch FSDP is estimated as DeepSpeed ZeRO-" +
           std::string(grad_op ? "2" : "3") +
           ", which shards the same states (fp32 master weights and Adam moments)");
  } else if (type == "multi_gpu" || type == "no") {
    b.Set("framework", "deepspeed", src("distributed_type"));
    b.Set("parallelism.zero_stage", 0, src("distributed_type"));
    b.Note("accelerate's DDP is estimated as DeepSpeed ZeRO-0 (replicated states)");
  }
}

// The accelerate configs among `all` (`accelerate launch --config_file`), other than `except`
// and files already read. False, with the errors in `fatal`, when one does not parse.
bool ReadAccelerateConfigs(const InputFile& except, const std::vector<InputFile>& all, Builder& b,
                           std::vector<Error>& fatal) {
  for (const InputFile& f : all) {
    if (&f == &except || b.Used(f.name) ||
        DetectInputKind(f.name, f.text) != InputKind::kHfTrainerYaml)
      continue;
    Result<YamlDocument> doc = ReadYamlFile(f);
    if (!doc.ok()) {
      fatal.insert(fatal.end(), doc.errors().begin(), doc.errors().end());
      return false;
    }
    if (doc.value().value.is_object() && doc.value().value.contains("distributed_type"))
      ReadAccelerate(f, doc.value(), b);
  }
  return true;
}

std::string IgnoredReason(const std::string& key) {
  if (key.find("lr") != std::string::npos || key.find("learning_rate") != std::string::npos ||
      key.find("warmup") != std::string::npos || key.find("weight_decay") != std::string::npos ||
      key.find("epoch") != std::string::npos || key.find("steps") != std::string::npos ||
      key.find("save") != std::string::npos || key.find("logging") != std::string::npos ||
      key.find("report") != std::string::npos || key.find("dir") != std::string::npos ||
      key.find("eval") != std::string::npos || key.find("seed") != std::string::npos)
    return "optimizer hyperparameter, schedule, checkpointing or logging: not device memory";
  if (key == "lora_alpha" || key == "lora_dropout" || key.find("wandb") != std::string::npos)
    return "a hyperparameter or logging setting: not device memory";
  if (key == "target_modules" || key == "lora_target" || key == "lora_target_modules")
    return "the weights that get adapters: the estimate puts them on every linear of the blocks "
           "(adapters are small beside the base)";
  if (key == "system" || key == "model_author" || key == "model_name" || key == "run_name")
    return "a name or prompt text: not device memory";
  if (key == "do_train" || key == "do_predict" || key == "plot_loss" || key == "val_size" ||
      key == "trust_remote_code" || key == "max_samples" || key == "ddp_timeout" ||
      key.rfind("overwrite", 0) == 0 || key.rfind("push_to_hub", 0) == 0)
    return "a run, logging or data switch: not device memory";
  if (key.find("data") != std::string::npos || key == "template" || key == "dataset" ||
      key.find("preprocessing") != std::string::npos || key.find("cache") != std::string::npos)
    return "data loading: not device memory";
  return "not modelled: if it changes device memory, the estimate does not count it";
}

std::string OptimizerFor(const std::string& optim) {
  // transformers OptimizerNames → the config's names (optimizer_states.cpp has their states).
  const std::string o = Lower(optim);
  // The 8-bit and 4-bit names first: "adamw_torch_8bit" also starts with "adamw_torch".
  if (o == "adamw_bnb_8bit" || o == "adamw_8bit" || o == "adamw_torch_8bit" ||
      o == "adamw_torchao_8bit")
    return "AdamW8bit";
  if (o == "adamw_torch_4bit" || o == "adamw_torchao_4bit") return "AdamW4bit";
  if (o.rfind("adamw_torch", 0) == 0 || o == "adamw_hf" || o == "adamw_apex_fused" || o == "adamw")
    return "AdamW";
  if (o == "paged_adamw_8bit") return "PagedAdamW8bit";
  if (o == "paged_adamw_32bit" || o == "paged_adamw") return "PagedAdamW";
  if (o == "adafactor") return "Adafactor";
  if (o == "sgd") return "SGD";
  if (o == "lion_32bit" || o == "paged_lion_32bit") return "Lion";
  if (o == "lion_8bit" || o == "paged_lion_8bit") return "Lion8bit";
  return "";
}

// How transformers' optimizer of that name runs its step (trainer.py get_optimizer_cls_and_kwargs):
// adamw_torch is torch.optim.AdamW with its default, foreach; adamw_torch_fused / _npu_fused and
// apex's fused AdamW are one kernel; adamw_hf (transformers' own AdamW, removed in 4.5x) loops
// over the parameters. nullptr: the name's own kernels (bitsandbytes, torchao) or not Adam.
const char* StepImplementationFor(const std::string& optim) {
  const std::string o = Lower(optim);
  if (o == "adamw_torch" || o == "adamw") return "foreach";
  if (o == "adamw_torch_fused" || o == "adamw_torch_npu_fused" || o == "adamw_apex_fused")
    return "fused";
  if (o == "adamw_hf") return "for-loop";
  return nullptr;
}

// `from` read under the name `to` (unless the files give `to` itself), `from` marked read.
void AliasKey(ArgValues& values, ArgReader& r, const char* from, const char* to) {
  if (values.count(from) && !values.count(to)) values[to] = values.at(from);
  r.Find(from);
}

// axolotl (axolotl-ai-cloud/axolotl, utils/schemas/config.py, training.py, peft.py;
// loaders/model.py) writes the Trainer's arguments under its own names, with its own defaults:
//   base_model (the model), micro_batch_size (per device, default 1; else batch_size /
//   gradient_accumulation_steps), sequence_len (default 512), optimizer (the Trainer's optim
//   names, default adamw_torch_fused), bf16 (default "auto": bf16 on Ampere and newer),
//   gradient_checkpointing (true, or "offload" / "offload_disk": checkpoints moved to the
//   host), flash_attention / sdp_attention / eager_attention, sample_packing (samples packed
//   to sequence_len), adapter lora / qlora with lora_r (peft's default 8), load_in_8bit /
//   load_in_4bit (qlora's BitsAndBytesConfig: nf4 with double quantization), deepspeed (a
//   path), fsdp (a list of options) / fsdp_config (fsdp_version 2: reshard_after_forward;
//   version 1: fsdp_sharding_strategy).
// They become the Trainer's keys here, so the rest of Apply reads them as it reads any job.
void ReadAxolotl(ArgValues& values, ArgReader& r, const std::string& file, Builder& b) {
  auto alias = [&](const char* from, const char* to) { AliasKey(values, r, from, to); };
  alias("base_model", "model_name_or_path");
  alias("micro_batch_size", "per_device_train_batch_size");
  alias("sequence_len", "max_seq_length");
  alias("optimizer", "optim");
  if (!values.count("per_device_train_batch_size")) {
    const auto total = r.Int("batch_size");
    const auto ga = r.Int("gradient_accumulation_steps");
    if (total && ga && *ga > 0 && *total / *ga > 0)
      values["per_device_train_batch_size"] = {*total / *ga, r.SourceOf("batch_size")};
    else
      values["per_device_train_batch_size"] = {1,
                                               {file, 0, "axolotl's micro_batch_size default, 1"}};
  }
  if (!values.count("max_seq_length"))
    values["max_seq_length"] = {512, {file, 0, "axolotl's sequence_len default, 512"}};
  if (!values.count("optim"))
    values["optim"] = {"adamw_torch_fused", {file, 0, "axolotl's optimizer default"}};
  // bf16 "auto" (the default): bf16 where the GPU has it (Ampere and newer), fp16 if asked.
  const std::string bf16 = values.count("bf16") ? Lower(ArgText(values.at("bf16").value)) : "auto";
  if (bf16 == "auto" && !r.Flag("fp16").value_or(false))
    values["bf16"] = {true, values.count("bf16") ? values.at("bf16").source
                                                 : Source{file, 0, "axolotl's bf16 default, auto"}};
  // gradient_checkpointing "offload": torch's checkpoint with the saved inputs moved to the
  // host (axolotl's offload patch).
  const std::string gc = values.count("gradient_checkpointing")
                             ? Lower(ArgText(values.at("gradient_checkpointing").value))
                             : "";
  if (gc == "offload" || gc == "offload_disk") {
    b.Set("activation_checkpoint.offload", true, r.SourceOf("gradient_checkpointing"));
    values["gradient_checkpointing"].value = true;
  }
  if (r.Flag("flash_attention").value_or(false) || r.Flag("xformers_attention").value_or(false))
    b.Set("training.attention", "flash",
          r.SourceOr("flash_attention", r.SourceOf("xformers_attention")));
  else if (r.Flag("sdp_attention").value_or(false))
    b.Set("training.attention", "sdpa", r.SourceOf("sdp_attention"));
  else if (r.Flag("eager_attention").value_or(false))
    b.Set("training.attention", "eager", r.SourceOf("eager_attention"));
  if (r.Flag("sample_packing").value_or(false) && !values.count("packing"))
    values["packing"] = {true, r.SourceOf("sample_packing")};
  // adapter lora / qlora: LoRA of lora_r; qlora with load_in_4bit is nf4 with double
  // quantization (loaders/model.py), lora with load_in_8bit LLM.int8.
  const std::string adapter = Lower(r.Str("adapter"));
  if (adapter == "lora" || adapter == "qlora") {
    if (!values.count("lora_r"))
      values["lora_r"] = {8, {file, 0, "adapter without lora_r: peft's LoraConfig default, 8"}};
    if (!values.count("use_peft")) values["use_peft"] = {true, r.SourceOf("adapter")};
    if (adapter == "qlora" && r.Flag("load_in_4bit").value_or(false)) {
      values["bnb_4bit_use_double_quant"] = {true, r.SourceOf("adapter")};
    }
  } else if (!adapter.empty()) {
    b.Problem("adapter " + adapter + " is not LoRA: estimated as full fine-tuning");
  }
  // FSDP: fsdp (["full_shard", "auto_wrap"]) and fsdp_config.
  if (values.count("fsdp_config") || values.count("fsdp")) {
    std::string fsdp;
    if (values.count("fsdp"))
      for (const std::string& o : ArgList(values.at("fsdp").value)) fsdp += Lower(o) + " ";
    const json* cfg = values.count("fsdp_config") && values.at("fsdp_config").value.is_object()
                          ? &values.at("fsdp_config").value
                          : nullptr;
    const Source at = r.SourceOr("fsdp_config", r.SourceOf("fsdp"));
    std::string strategy =
        fsdp.find("shard_grad_op") != std::string::npos ? "shard_grad_op" : "full_shard";
    if (cfg != nullptr) {
      for (const char* k : {"fsdp_sharding_strategy", "sharding_strategy"})
        if (cfg->contains(k) && (*cfg)[k].is_string())
          strategy = Lower((*cfg)[k].get<std::string>());
      for (const char* k : {"reshard_after_forward", "fsdp_reshard_after_forward"})
        if (cfg->contains(k) && ArgBool((*cfg)[k]) == false) strategy = "shard_grad_op";
      for (const char* k : {"offload_params", "fsdp_offload_params"})
        if (cfg->contains(k) && ArgBool((*cfg)[k]).value_or(false)) strategy += " offload";
    }
    r.Find("fsdp_config");
    values["fsdp"] = {strategy, at};
    // FSDP's own activation checkpointing (fsdp_config.activation_checkpointing, v1's
    // fsdp_activation_checkpointing) checkpoints every decoder layer, whatever
    // gradient_checkpointing says (axolotl's examples set it false beside it).
    if (cfg != nullptr)
      for (const char* k : {"activation_checkpointing", "fsdp_activation_checkpointing"})
        if (cfg->contains(k) && ArgBool((*cfg)[k]).value_or(false))
          values["gradient_checkpointing"] = {true, at};
  }
  // ND parallelism (axolotl's dp_shard_size, tensor_parallel_size, context_parallel_size) and
  // activation offloading (activations moved to the host in backward order).
  if (const auto tp = r.Int("tensor_parallel_size"); tp && *tp > 1)
    b.Set("parallelism.tensor_parallel_degree", *tp, r.SourceOf("tensor_parallel_size"));
  if (const auto cp = r.Int("context_parallel_size"); cp && *cp > 1)
    b.Set("parallelism.context_parallel_degree", *cp, r.SourceOf("context_parallel_size"));
  if (const auto dp = r.Int("dp_shard_size"); dp && *dp > 0)
    b.Set("parallelism.data_parallel_shard_degree", *dp, r.SourceOf("dp_shard_size"));
  if (r.Flag("activation_offloading").value_or(false))
    b.Set("activation_checkpoint.offload", true, r.SourceOf("activation_offloading"));
  if (r.Flag("fp8").value_or(false)) b.Set("training.fp8", true, r.SourceOf("fp8"));
  if (r.Flag("liger_fused_linear_cross_entropy").value_or(false))
    values["use_liger_kernel"] = {true, r.SourceOf("liger_fused_linear_cross_entropy")};
}

struct Launch {
  std::string file;  // the file the job is read from
  long long world = 0;
  Source world_source;
  std::string program;  // what the launch runs ("train.py", "openrlhf.cli.train_dpo")
};

// ms-swift's DeepSpeed presets (`--deepspeed zero3`; swift/arguments/sft_args.py
// _init_deepspeed maps the name to swift/config/<name>.json): the stage and where the optimizer
// and the parameters live, as those files set them; batch and precision are "auto" (the
// Trainer's). Empty when `name` is not one of them.
std::string SwiftDeepspeedPreset(const std::string& name) {
  struct Preset {
    const char* name;
    int stage;
    bool offload_optimizer;
    bool offload_param;
  };
  static constexpr Preset kPresets[] = {
      {"zero0", 0, false, false}, {"zero1", 1, false, false},
      {"zero2", 2, false, false}, {"zero2_offload", 2, true, false},
      {"zero3", 3, false, false}, {"zero3_offload", 3, true, true}};
  for (const Preset& p : kPresets) {
    if (name != p.name) continue;
    json zero = {{"stage", p.stage}};
    if (p.stage >= 1)
      zero["offload_optimizer"] = {{"device", p.offload_optimizer ? "cpu" : "none"}};
    if (p.stage == 3) zero["offload_param"] = {{"device", p.offload_param ? "cpu" : "none"}};
    return json{{"zero_optimization", zero},
                {"bf16", {{"enabled", "auto"}}},
                {"fp16", {{"enabled", "auto"}}},
                {"train_micro_batch_size_per_gpu", "auto"},
                {"gradient_accumulation_steps", "auto"}}
        .dump();
  }
  return "";
}

// ms-swift (modelscope/ms-swift at 3602360a5: swift/arguments/base_args, sft_args.py,
// rlhf_args.py, tuner_args.py and swift/trainers/arguments.py) runs the Trainer under its own
// names and defaults, which become the Trainer's keys here:
//   model (a hub id or path); tuner_type (train_type before 4.0), default lora, with lora_rank
//   8; per_device_train_batch_size 1; gradient_checkpointing true; torch_dtype (default the
//   checkpoint's): bfloat16 trains with bf16 autocast, float16 and float32 with fp16
//   (model_args.py _init_mixed_precision); max_length (no default: the model's context);
//   attn_impl; packing / padding_free; quant_method bnb with quant_bits 4 or 8
//   (bnb_4bit_use_double_quant default true); freeze_vit (default true); deepspeed zero0…zero3,
//   zero2_offload, zero3_offload (its presets) or a JSON; fsdp "fsdp2" (swift/config/fsdp2.json:
//   full_shard with FSDP's activation checkpointing) or a JSON holding {fsdp, fsdp_config};
//   `swift rlhf`'s rlhf_type (default dpo), where in grpo, ppo and gkd max_length is the
//   prompt's and each completion adds up to max_completion_length (512).
void ReadSwift(ArgValues& values, ArgReader& r, const Launch& launch,
               const std::vector<InputFile>& all, Builder& b) {
  auto alias = [&](const char* from, const char* to) { AliasKey(values, r, from, to); };
  auto fallback = [&](const char* key, json value, const std::string& why) {
    if (!values.count(key)) values[key] = {std::move(value), {launch.file, 0, why}};
  };
  alias("model", "model_name_or_path");
  alias("train_type", "tuner_type");
  // ms-swift 2.x names: sft_type, model_id_or_path (or a model_type that names the model),
  // batch_size.
  alias("sft_type", "tuner_type");
  alias("model_id_or_path", "model_name_or_path");
  if (!values.count("model_name_or_path")) alias("model_type", "model_name_or_path");
  alias("batch_size", "per_device_train_batch_size");
  alias("attn_impl", "attn_implementation");
  alias("freeze_vit", "freeze_vision_tower");
  alias("quant_bits", "quantization_bit");
  alias("quant_method", "quantization_method");
  alias("bnb_4bit_use_double_quant", "double_quantization");
  SwiftTaskNote(Lower(r.Str("task_type")), b);
  r.Find("ENV");  // the arguments file's environment: the world size (swift_import.cpp)
  r.Find("num_labels");
  fallback("per_device_train_batch_size", 1, "per_device_train_batch_size (ms-swift's default, 1)");
  fallback("gradient_checkpointing", true, "gradient_checkpointing (ms-swift's default, true)");
  // Mixed precision from torch_dtype, unless --bf16 / --fp16 say it.
  if (!values.count("bf16") && !values.count("fp16")) {
    const std::string dtype = Lower(r.Str("torch_dtype"));
    if (std::string(SwiftMixedPrecision(dtype)) == "fp16") {
      values["fp16"] = {true, r.SourceOf("torch_dtype")};
    } else if (dtype.empty()) {
      values["bf16"] = {true,
                        {launch.file, 0, "torch_dtype (default: the checkpoint's; bf16 assumed)"}};
    } else {
      values["bf16"] = {true, r.SourceOf("torch_dtype")};
    }
  }
  // What is trained.
  const std::string tuner = Lower(r.Str("tuner_type"));
  const Source tuner_at = r.SourceOr("tuner_type", {launch.file, 0, "tuner_type (default lora)"});
  if (tuner == "full") {
    r.Find("lora_rank");
    values.erase("lora_rank");
    // Without DeepSpeed the bf16-loaded model trains as it is: the Trainer's DDP or FSDP2
    // keeps bf16 parameters, gradients and AdamW states, no fp32 master
    // (swift/pipelines/train/tuner.py: full tuning only sets requires_grad).
    const auto bf16 = values.find("bf16");
    if (!values.count("deepspeed") && bf16 != values.end() &&
        ArgBool(bf16->second.value).value_or(false))
      b.Set("training.dtype", "bfloat16",
            {launch.file, 0,
             "tuner_type full without DeepSpeed: the model trains in the bf16 it is loaded in"});
  } else {
    values["use_lora"] = {true, tuner_at};
    fallback("lora_rank", 8, "lora_rank (ms-swift's default, 8)");
    if (!tuner.empty() && tuner != "lora" && tuner != "longlora" && tuner != "adalora" &&
        tuner != "lora_llm")
      b.Problem("tuner_type " + tuner +
                ": its adapters are estimated as LoRA of the same rank (the frozen base and the "
                "activations dominate)");
  }
  // Packing fills each pack up to packing_length (default max_length).
  if (values.count("packing_length") && r.Flag("packing").value_or(false))
    values["max_length"] = values.at("packing_length");
  r.Find("packing_length");
  if (r.Flag("padding_free").value_or(false))
    b.Note(
        "padding_free: a batch's samples are joined without padding; the estimate takes "
        "batch × max_length tokens, the most it holds");
  // DeepSpeed presets by name; FSDP2 by its preset or a JSON of {fsdp, fsdp_config}.
  if (const std::string ds = Trim(r.Str("deepspeed")); !ds.empty()) {
    if (const std::string preset = SwiftDeepspeedPreset(ds); !preset.empty()) {
      Source at = r.SourceOf("deepspeed");
      at.text = "ms-swift's " + ds + " preset (swift/config/" + ds + ".json)";
      values["deepspeed"] = {preset, at};
    }
  }
  if (const std::string fsdp = Trim(r.Str("fsdp")); !fsdp.empty()) {
    json options;
    if (fsdp == "fsdp2") {
      options = {
          {"fsdp", "full_shard auto_wrap"},
          {"fsdp_config", {{"reshard_after_forward", true}, {"activation_checkpointing", true}}}};
    } else {
      for (const InputFile& f : all)
        if (BaseName(f.name) == BaseName(fsdp) && EndsWith(Lower(f.name), ".json")) {
          Result<json> parsed = ParseJsonInput(f);
          if (parsed.ok() && parsed.value().is_object()) options = parsed.value();
          b.UseFile(f.name);
        }
      if (options.is_null()) {
        b.Wants(fsdp);
        b.Problem("--fsdp " + fsdp + " was not given: FSDP full_shard assumed (give the file)");
      }
    }
    const Source at = r.SourceOf("fsdp");
    const json cfg = options.is_object() ? options.value("fsdp_config", json::object()) : json();
    std::string strategy = options.is_object() && options.contains("fsdp")
                               ? ArgText(options["fsdp"])
                               : std::string("full_shard auto_wrap");
    // reshard_after_forward false keeps the parameters gathered: ZeRO-2's states.
    if (cfg.is_object() && cfg.value("reshard_after_forward", true) == false &&
        strategy.find("full_shard") != std::string::npos)
      strategy = "shard_grad_op auto_wrap";
    values["fsdp"] = {strategy, at};
    if (cfg.is_object() && cfg.value("activation_checkpointing", false) == true)
      values["gradient_checkpointing"] = {true, at};
    // activation_cpu_offload (ms-swift's FSDP2 configs): saved activations go to the host.
    if (cfg.is_object() && cfg.value("activation_cpu_offload", false) == true)
      b.Set("activation_checkpoint.offload", true, at);
  }
  // Ulysses sequence parallelism (swift/sequence_parallel): each rank of a group of
  // sequence_parallel_size holds 1/n of every sequence between its attention all-to-alls.
  if (const auto sp = r.Int("sequence_parallel_size"); sp && *sp > 1) {
    b.Set("parallelism.context_parallel_degree", *sp, r.SourceOf("sequence_parallel_size"));
    b.Set("parallelism.ulysses_degree_in_cp", *sp, r.SourceOf("sequence_parallel_size"));
  }
  // Methods that train less state than the estimate counts (tuner_args.py / trainers).
  if (r.Flag("use_galore").value_or(false))
    b.Problem(
        "use_galore: GaLore keeps optimizer states for low-rank projections of the "
        "gradients; the estimate counts full AdamW states (an over-estimate)");
  if (const auto lisa = r.Int("lisa_activated_layers"); lisa && *lisa > 0)
    b.Problem("lisa_activated_layers " + std::to_string(*lisa) + ": LISA trains " +
              std::to_string(*lisa) +
              " layers at a time; the estimate counts gradients and optimizer states for every "
              "layer (an over-estimate)");
  if (const std::string opt = r.Str("optimizer"); !opt.empty())
    b.Problem("optimizer " + opt +
              " (ms-swift's optimizer plugin) is not modelled: the Trainer's optim is estimated");
  // `swift rlhf`: the stage, and the completion that grpo / ppo / gkd add to each prompt.
  if (EndsWith(launch.program, "rlhf")) {
    const std::string type = Lower(r.Str("rlhf_type"));
    values["stage"] = {type.empty() ? "dpo" : type,
                       r.SourceOr("rlhf_type", {launch.file, 0, "rlhf_type (default dpo)"})};
    if (type == "rm") SwiftTaskNote("seq_cls", b);  // rlhf_args.py: a reward model's head
    if (CompletionStage(type)) {
      const long long completion = r.Int("max_completion_length").value_or(512);
      if (const auto prompt = r.Int("max_length"); prompt && *prompt > 0) {
        values["max_length"] = {*prompt + completion, r.SourceOf("max_length")};
        b.Note("rlhf_type " + type + ": max_length is the prompt's (" + std::to_string(*prompt) +
               ") and each completion adds up to max_completion_length (" +
               std::to_string(completion) + ")");
      }
    }
  }
}

void Apply(ArgValues& values, const Launch& launch, const std::vector<InputFile>& all, Builder& b,
           const Presets& presets, std::vector<Error>& fatal) {
  ArgReader r(values, b);
  // ms-swift (`swift sft|pt|rlhf`): its own keys, read by ReadSwift into the Trainer's.
  const bool swift = StartsWith(launch.program, "swift ");
  const bool llamafactory = !swift && (values.count("finetuning_type") || values.count("stage") ||
                                       values.count("cutoff_len") || values.count("template"));
  // Tools that build their DeepSpeed config in code from their own arguments, with their own
  // defaults:
  // - DeepSpeed-Chat (DeepSpeedExamples applications/DeepSpeed-Chat/training/step*/main.py):
  //   --dtype fp16, --per_device_train_batch_size 16, --max_seq_len 512, --zero_stage 0; step 3
  //   names them per model (--actor_zero_stage, --per_device_training_batch_size,
  //   --max_prompt_seq_len + --max_answer_seq_len, 256 + 256).
  // - OpenRLHF (openrlhf/cli/train_*.py): --micro_train_batch_size 8, --max_len 2048,
  //   --zero_stage 2, --bf16, --pretrain MODEL, --adam_offload; since 2026 the same under
  //   dotted groups (--train.micro_batch_size, --data.max_len, --ds.zero_stage,
  //   --ds.param_dtype bf16, --model.model_name_or_path, --ds.lora.rank).
  bool openrlhf = !swift && (values.count("micro_train_batch_size") || values.count("pretrain"));
  for (const auto& [k, v] : values)
    openrlhf = openrlhf || (!swift && (k.rfind("ds.", 0) == 0 || k.rfind("train.", 0) == 0));
  const bool rlhf =
      !swift && (values.count("actor_zero_stage") || values.count("actor_model_name_or_path"));
  // axolotl's YAML (`axolotl train job.yml`): its own names for the Trainer's arguments.
  // (base_model or adapter: LLaMA-Factory's v1 YAML also writes micro_batch_size.)
  const bool axolotl =
      !swift && !openrlhf && (values.count("base_model") || values.count("adapter"));
  const bool ds_chat =
      !swift && !openrlhf &&
      (rlhf || values.count("zero_stage") || values.count("lora_dim") || values.count("dtype"));
  if (swift) ReadSwift(values, r, launch, all, b);
  auto alias = [&](const char* from, const char* to) { AliasKey(values, r, from, to); };
  if (openrlhf) {
    for (const auto& [from, to] :
         {std::pair<const char*, const char*>{"train.micro_batch_size", "micro_train_batch_size"},
          {"micro_train_batch_size", "per_device_train_batch_size"},
          {"data.max_len", "max_len"},
          {"ds.zero_stage", "zero_stage"},
          {"model.model_name_or_path", "model_name_or_path"},
          {"pretrain", "model_name_or_path"},
          {"model.gradient_checkpointing_enable", "gradient_checkpointing"},
          {"ds.lora.rank", "lora_rank"},
          {"ds.adam_offload", "adam_offload"},
          {"ds.attn_implementation", "attn_implementation"}})
      alias(from, to);
    if (Lower(r.Str("ds.param_dtype")) == "bf16" && !values.count("bf16"))
      values["bf16"] = {true, r.SourceOf("ds.param_dtype")};
    if (!values.count("per_device_train_batch_size"))
      values["per_device_train_batch_size"] = {8, {launch.file, 0, "OpenRLHF's default, 8"}};
    if (!values.count("max_len"))
      values["max_len"] = {2048, {launch.file, 0, "OpenRLHF's default, 2048"}};
    const auto z = r.Int("zero_stage");
    SetZero(b, {launch.file, 0, "OpenRLHF"}, z && *z >= 0 && *z <= 3 ? static_cast<int>(*z) : 2,
            r.SourceOr("zero_stage", {launch.file, 0, "OpenRLHF's --zero_stage default, 2"}));
    if (r.Flag("adam_offload").value_or(false))
      b.Set("optimizer.offload", true, r.SourceOf("adam_offload"));
  }
  if (axolotl) ReadAxolotl(values, r, launch.file, b);
  if (rlhf) {
    for (const auto& [from, to] :
         {std::pair<const char*, const char*>{"actor_zero_stage", "zero_stage"},
          {"per_device_training_batch_size", "per_device_train_batch_size"},
          {"actor_gradient_checkpointing", "gradient_checkpointing"},
          {"actor_lora_dim", "lora_dim"},
          {"actor_model_name_or_path", "model_name_or_path"}})
      alias(from, to);
    const long long prompt = r.Int("max_prompt_seq_len").value_or(256);
    const long long answer = r.Int("max_answer_seq_len").value_or(256);
    if (!values.count("max_seq_len"))
      values["max_seq_len"] = {
          prompt + answer,
          r.SourceOr("max_prompt_seq_len",
                     {launch.file, 0, "max_prompt_seq_len + max_answer_seq_len (256 + 256)"})};
    b.Problem(
        "DeepSpeed-Chat step 3 (RLHF) keeps the actor, the critic, the reference and the reward "
        "model on the device: the estimate counts the actor's training only (an under-estimate)");
  }
  if (ds_chat) {
    if (!values.count("per_device_train_batch_size"))
      values["per_device_train_batch_size"] = {16,
                                               {launch.file, 0, "DeepSpeed-Chat's default, 16"}};
    if (!values.count("max_seq_len") && !values.count("max_seq_length"))
      values["max_seq_len"] = {512, {launch.file, 0, "DeepSpeed-Chat's default, 512"}};
    const std::string dtype = Lower(r.Str("dtype"));
    const char* mp = dtype == "bf16" ? "bfloat16" : dtype == "fp32" ? "float32" : "float16";
    b.Set("training.mixed_precision_param", mp,
          r.SourceOr("dtype", {launch.file, 0, "DeepSpeed-Chat's --dtype default, fp16"}));
    const auto z = r.Int("zero_stage");
    SetZero(b, {launch.file, 0, "DeepSpeed-Chat"},
            z && *z >= 0 && *z <= 3 ? static_cast<int>(*z) : 0,
            r.SourceOr("zero_stage", {launch.file, 0, "DeepSpeed-Chat's --zero_stage default, 0"}));
    if (r.Flag("offload").value_or(false)) b.Set("optimizer.offload", true, r.SourceOf("offload"));
    r.Find("deepspeed");  // a bare flag: main.py builds its DeepSpeed config in code
  }
  // --- Sharding: DeepSpeed, or the Trainer's own DDP / FSDP ------------------------------------
  if (ds_chat || openrlhf) {
    // read above
  } else if (r.Has("deepspeed")) {
    ReadDeepspeed(r, all, b, fatal);
    if (!fatal.empty()) return;
  } else if (!b.Has("framework")) {
    const std::string fsdp = Lower(r.Str("fsdp"));
    const int stage = fsdp.find("full_shard") != std::string::npos ||
                              fsdp.find("hybrid_shard") != std::string::npos
                          ? 3
                          : (fsdp.find("shard_grad_op") != std::string::npos ? 2 : 0);
    SetZero(b, r.SourceOr("fsdp", {launch.file, 0, "no --deepspeed"}), stage,
            r.SourceOr("fsdp", {launch.file, 0, "no --deepspeed and no --fsdp: DDP"}));
    // "offload" in --fsdp: FSDP's CPUOffload keeps parameters, gradients and the optimizer
    // step on the host; the estimate moves the optimizer states (parameters are not modelled).
    if (fsdp.find("offload") != std::string::npos) {
      b.Set("optimizer.offload", true, r.SourceOf("fsdp"));
      b.Note(
          "--fsdp offload: the optimizer states and step are on the host; FSDP also offloads "
          "the parameter shards, which the estimate keeps on the device (an over-estimate)");
    }
    b.Note(std::string("the Hugging Face Trainer without DeepSpeed runs ") +
           (stage == 0 ? "DDP" : "PyTorch FSDP (" + fsdp + ")") + ": estimated as DeepSpeed ZeRO-" +
           std::to_string(stage) +
           ", which keeps the same states (fp32 master weights, gradients and Adam moments)");
  }
  if (launch.world > 0) b.Set("world_size", launch.world, launch.world_source);
  // --- Batch and sequence ------------------------------------------------------------------
  // A DeepSpeed JSON's "auto" is missing until the Trainer's argument (or its default) fills it.
  auto unknown = [&](const std::string& key) {
    if (!b.Has(key) || b.Get(key)->is_null()) return true;
    for (const ImportMissing& m : b.report().missing)
      if (m.key == key) return true;
    return false;
  };
  if (const auto mbs = r.Int("per_device_train_batch_size")) {
    b.Set("training.local_batch_size", *mbs, r.SourceOf("per_device_train_batch_size"));
  } else if (unknown("training.local_batch_size")) {
    b.Set("training.local_batch_size", 8,
          {launch.file, 0, "per_device_train_batch_size (the Trainer's default, 8)"});
  }
  // Read without a problem when it is no number: only a note depends on it (a script's
  // $(expr 16 / $N) is not run).
  if (const ArgValue* ga = r.Find("gradient_accumulation_steps"))
    if (const auto n = JsonInteger(ga->value); n && *n > 1)
      b.Note("gradient_accumulation_steps " + std::to_string(*n) +
             " does not change the per-device peak");
  bool seq_found = false;
  for (const char* k : kSeqKeys) {
    if (seq_found || !values.count(k)) continue;
    if (const auto s = r.Int(k); s && *s > 0) {
      b.Set("training.seq_len", *s, r.SourceOf(k));
      seq_found = true;
    }
  }
  if (!seq_found)
    b.Missing("training.seq_len",
              llamafactory ? "no cutoff_len: LLaMA-Factory's default is 2048"
              : swift      ? "no --max_length: ms-swift keeps samples up to the model's whole "
                             "context; give the longest sample your data holds"
                           : "the script's sequence length is not among its arguments "
                             "(model_max_length, max_seq_length, cutoff_len, block_size, …)",
              2048);
  if (r.Flag("packing").value_or(false) || r.Flag("neat_packing").value_or(false) ||
      Lower(ArgText(values.count("stage") ? values.at("stage").value : json())) == "pt") {
    b.Note("packing fills each sample to the full length: the estimate's sequence length");
  } else if (ds_chat) {
    // DeepSpeed-Chat's data_utils tokenizes with padding="max_length" (steps 1 and 2).
    b.Note("DeepSpeed-Chat pads every sample to max_seq_len: the estimate's sequence length");
  } else if (seq_found && !r.Flag("padding_free").value_or(false)) {
    b.Note(
        "samples are padded to the longest in each batch: the sequence length is the most "
        "a batch holds, and the estimate takes it");
  }
  // --- Precision ---------------------------------------------------------------------------
  const bool bf16 = r.Flag("bf16").value_or(false);
  const bool fp16 = r.Flag("fp16").value_or(false);
  if (bf16 || fp16) {
    b.Set("training.mixed_precision_param", bf16 ? "bfloat16" : "float16",
          r.SourceOf(bf16 ? "bf16" : "fp16"));
  } else if (unknown("training.mixed_precision_param")) {
    b.Set("training.mixed_precision_param", "float32",
          {launch.file, 0, "no bf16 / fp16: the Trainer trains in fp32"});
  }
  if (r.Flag("pure_bf16").value_or(false)) {
    b.Set("training.mixed_precision_param", "bfloat16", r.SourceOf("pure_bf16"));
    b.Note(
        "pure_bf16: LLaMA-Factory trains without fp32 master weights; the estimate keeps "
        "DeepSpeed's fp32 copy (an over-estimate)");
  }
  // --- Checkpointing, attention, compile ------------------------------------------------------
  if (const auto gc = r.Flag("gradient_checkpointing")) {
    b.Set("activation_checkpoint.mode", *gc ? "full" : "none",
          r.SourceOf("gradient_checkpointing"));
  } else if (llamafactory && !r.Flag("disable_gradient_checkpointing").value_or(false)) {
    // LLaMA-Factory turns gradient checkpointing on unless disable_gradient_checkpointing
    // (model/model_utils/checkpointing.py prepare_model_for_training).
    b.Set("activation_checkpoint.mode", "full",
          {launch.file, 0, "LLaMA-Factory checkpoints every layer by default"});
  } else if (!b.Has("activation_checkpoint.mode")) {
    b.Set("activation_checkpoint.mode", "none",
          {launch.file, 0, "gradient_checkpointing (default False)"});
  }
  const std::string attn = Lower(r.Str("attn_implementation") + r.Str("flash_attn"));
  if (attn == "eager" || attn == "disabled")
    b.Set("training.attention", "eager",
          r.SourceOr("attn_implementation", r.SourceOf("flash_attn")));
  if (r.Flag("torch_compile").value_or(false))
    b.Set("compile.enable", true, r.SourceOf("torch_compile"));
  if (r.Flag("use_liger_kernel").value_or(false) || r.Flag("enable_liger_kernel").value_or(false))
    b.Note(
        "Liger kernels fuse the head with the loss and never hold the whole logits; the "
        "estimate keeps them (an over-estimate)");
  // --- Optimizer -----------------------------------------------------------------------------
  if (const std::string optim = r.Str("optim"); !optim.empty()) {
    const std::string name = OptimizerFor(optim);
    if (name.empty()) {
      b.Problem("optim " + optim + " is not one trainmem models: AdamW assumed");
    } else if (!b.Has("optimizer.name")) {  // a DeepSpeed "optimizer" block wins
      b.Set("optimizer.name", name, r.SourceOf("optim"));
      if (const char* impl = StepImplementationFor(optim))
        b.Set("optimizer.implementation", impl, r.SourceOf("optim"));
    }
  }
  // --- What is trained -------------------------------------------------------------------------
  const std::string tuning = Lower(r.Str("finetuning_type"));
  // TRL's ModelConfig use_peft (lora_r 16); Qwen's finetune.py and others use_lora / q_lora;
  // DeepSpeed-Chat's --lora_dim N (0 = off).
  const bool peft = r.Flag("use_peft").value_or(false);
  const bool use_lora = r.Flag("use_lora").value_or(false) || r.Flag("q_lora").value_or(false);
  const auto lora_dim = r.Int("lora_dim");
  const char* rank_key = values.count("lora_rank") ? "lora_rank"
                         : values.count("lora_r")  ? "lora_r"
                         : lora_dim                ? "lora_dim"
                                                   : nullptr;
  if ((llamafactory && (tuning.empty() || tuning == "lora")) || peft || use_lora ||
      (lora_dim && *lora_dim > 0) || (rank_key && tuning != "full" && !lora_dim)) {
    const auto rank = rank_key ? r.Int(rank_key) : std::nullopt;
    if (rank && *rank > 0) {
      b.Set("training.lora_rank", *rank, r.SourceOf(rank_key));
    } else if (peft || use_lora) {
      b.Missing("training.lora_rank",
                std::string(peft ? "use_peft" : "use_lora") +
                    " without a rank: the script's own default applies (TRL's lora_r 16, "
                    "Qwen's finetune.py 64, peft's LoraConfig 8); give it",
                peft ? 16 : 8);
    } else {
      b.Set(
          "training.lora_rank", 8,
          r.SourceOr("finetuning_type",
                     {launch.file, 0, "finetuning_type (LLaMA-Factory's default, lora, rank 8)"}));
    }
  } else if (tuning == "freeze" || tuning == "oft") {
    b.Problem("finetuning_type " + tuning +
              " trains part of the model: estimated as full fine-tuning (an over-estimate)");
  }
  ReadBaseQuantization(r, b);
  // Preference stages run more models than the one trained (LLaMA-Factory train/dpo, kto,
  // ppo): a LoRA job's reference is its base with the adapters off, a full one's is a copy.
  std::string stage = Lower(r.Str("stage"));
  if (stage.empty() && openrlhf) {
    const std::string program = Lower(launch.program);
    if (EndsWith(program, "train_dpo")) stage = "dpo";
    if (EndsWith(program, "train_rm")) stage = "rm";
    if (EndsWith(program, "train_ppo") || program.find("ppo_ray") != std::string::npos)
      stage = "ppo";
  }
  // DeepSpeed-Chat step 2 (training/step2_reward_model_finetuning/main.py, the only step with
  // --num_padding_at_beginning besides step 3): a reward model trained on chosen / rejected
  // pairs, both in each batch (DataCollatorReward concatenates them).
  const bool ds_chat_rm = ds_chat && !rlhf &&
                          (values.count("num_padding_at_beginning") ||
                           Lower(launch.program).find("step2") != std::string::npos ||
                           Lower(launch.file).find("step2") != std::string::npos);
  if (stage.empty() && ds_chat_rm) stage = "rm";
  r.Find("num_padding_at_beginning");
  const bool lora = b.Has("training.lora_rank");
  if ((stage == "dpo" || stage == "kto") && !lora) {
    b.Problem("stage " + stage +
              " runs a frozen reference copy of the model beside the trained one: its weights "
              "are not counted (an under-estimate)");
  } else if (stage == "dpo" || stage == "kto") {
    b.Note("stage " + stage +
           ": the reference model is the base with the LoRA adapters off, no second copy");
  }
  if (PairwiseStage(stage) && b.Get("training.local_batch_size") &&
      b.Get("training.local_batch_size")->is_number_integer()) {
    // PairwiseDataCollatorWithPadding puts each pair's chosen and rejected answers in one batch.
    const long long pairs = b.Get("training.local_batch_size")->get<long long>();
    b.Set("training.local_batch_size", 2 * pairs,
          r.SourceOr("per_device_train_batch_size",
                     {launch.file, 0, "per_device_train_batch_size (default 8)"}));
    b.Note("stage " + stage + ": each of the " + std::to_string(pairs) +
           " pairs is a chosen and a rejected sequence, so the forward runs " +
           std::to_string(2 * pairs));
  }
  if (ds_chat_rm) {
    // DeepSpeed-Chat's RewardModel wraps the base transformer without its LM head.
    b.Note(
        "DeepSpeed-Chat step 2: the reward model scores each sequence with a one-wide value "
        "head; the vocabulary logits and loss the estimate counts are not formed (an "
        "over-estimate)");
  }
  if (stage == "grpo" || stage == "gkd") {
    // ms-swift's GRPO (rlhf_args.py): a reference model unless beta is 0 (a LoRA job's is its
    // base with the adapters off), and with use_vllm in colocate mode a vLLM engine on each
    // device holding vllm_gpu_memory_utilization of it while it generates; GKD a teacher.
    b.Problem(stage == "gkd"
                  ? std::string("rlhf_type gkd also runs a teacher model: not counted (an "
                                "under-estimate)")
                  : std::string("rlhf_type grpo: the policy's training is estimated; a full "
                                "job's reference copy (beta > 0) and a colocated vLLM engine "
                                "(use_vllm, vllm_mode colocate: vllm_gpu_memory_utilization of "
                                "the device while it generates, less with sleep_level) are not "
                                "counted"));
    r.Find("beta");
    r.Find("use_vllm");
    r.Find("vllm_mode");
    r.Find("vllm_gpu_memory_utilization");
    r.Find("sleep_level");
  }
  if (stage == "ppo") {
    b.Problem(
        "stage ppo also runs a reward model and a value head: not counted (an "
        "under-estimate)");
  }
  // --- Model ----------------------------------------------------------------------------------
  const std::string model = r.Str("model_name_or_path");
  const FlavorModel named = ModelFromCheckpointName(model, "", presets);
  if (!named.preset.empty() || !named.inline_model.is_null()) {
    b.Set("model", named.preset.empty() ? named.inline_model : json(named.preset),
          r.SourceOf("model_name_or_path"));
    if (!named.note.empty()) b.Note("model: " + named.note + " (from " + model + ")");
    // A multimodal model's vision tower is loaded with it (AutoModelForImageTextToText): the
    // Trainer trains every parameter; LLaMA-Factory freezes the tower unless
    // freeze_vision_tower is false (hparams/finetuning_args.py; model/adapter.py).
    const ModelPreset* preset = named.preset.empty() ? nullptr : presets.FindModel(named.preset);
    const std::int64_t tower = preset != nullptr
                                   ? preset->arch.vision_params
                                   : named.inline_model.value("vision_params", std::int64_t{0});
    if (tower > 0) {
      const std::optional<bool> freeze = r.Flag("freeze_vision_tower");
      const bool frozen = freeze.value_or(llamafactory || swift);
      b.Set("training.vision_tower", frozen ? "frozen" : "trained",
            freeze ? r.SourceOf("freeze_vision_tower")
                   : Source{launch.file, 0,
                            llamafactory ? "freeze_vision_tower (LLaMA-Factory's default true)"
                            : swift      ? "freeze_vit (ms-swift's default true)"
                                         : "the Trainer trains every parameter, the vision tower "
                                           "too"});
    }
  } else if (unknown("model")) {
    // Not the DeepSpeed reader's stand-in model: the page asks for this one.
    b.Erase("model");
    auto& missing = b.report().missing;
    missing.erase(std::remove_if(missing.begin(), missing.end(),
                                 [](const ImportMissing& m) { return m.key == "model"; }),
                  missing.end());
    b.Missing("model",
              model.empty()
                  ? std::string("the model is not named: give its config.json or pick a "
                                "preset")
                  : "the model " + model + " is no preset: give its config.json or pick one",
              nullptr);
  }
  r.ReportUnused(IgnoredReason);
}

}  // namespace

namespace {

// The file a launch takes its arguments from: the first argument when it is a YAML or JSON
// (HfArgumentParser.parse_yaml_file / parse_json_file: LLaMA-Factory's `train.py job.yaml`,
// Firefly's `train.py --train_args_file args.json`), or TRL's `--config recipe.yaml`.
std::string ArgumentsFile(const bash::Script& script) {
  auto file_like = [](const std::string& w) {
    const std::string l = Lower(w);
    return EndsWith(l, ".yaml") || EndsWith(l, ".yml") || EndsWith(l, ".json");
  };
  if (!script.args.empty() && file_like(script.args.front().text) &&
      script.args.front().text.rfind("--", 0) != 0)
    return script.args.front().text;
  for (std::size_t i = 0; i + 1 < script.args.size(); ++i) {
    const std::string& w = script.args[i].text;
    if ((w == "--config" || w == "--train_args_file") && file_like(script.args[i + 1].text))
      return script.args[i + 1].text;
    for (const char* flag : {"--config=", "--train_args_file="})
      if (w.rfind(flag, 0) == 0 && file_like(w.substr(std::string(flag).size())))
        return w.substr(std::string(flag).size());
  }
  return "";
}

// Trainer arguments in a YAML or JSON file, as key → value.
bool AddArgumentsFile(const InputFile& f, ArgValues& values, Builder& b,
                      std::vector<Error>& fatal) {
  Result<YamlDocument> doc = ReadYamlFile(f);  // JSON is YAML too
  if (!doc.ok()) {
    fatal.insert(fatal.end(), doc.errors().begin(), doc.errors().end());
    return false;
  }
  if (!doc.value().value.is_object()) {
    fatal.push_back({f.name, "not a mapping of Trainer arguments"});
    return false;
  }
  b.UseFile(f.name);
  AddFlatArgs(f, doc.value(), values);
  return true;
}

}  // namespace

bool IsHfTrainerLaunch(const bash::Script& script, const std::vector<InputFile>& all) {
  ArgValues values;
  AddCommandLineArgs(script.args, 0, values);
  if (HasTrainerKeys(values)) return true;
  // A launch whose arguments are in a file: given, and holding Trainer arguments, or (not
  // given) the launch is accelerate's or DeepSpeed's, which run no Megatron job here.
  const std::string args_file = ArgumentsFile(script);
  if (args_file.empty()) return false;
  for (const InputFile& f : all)
    if (BaseName(f.name) == BaseName(args_file)) {
      const InputKind kind = DetectInputKind(f.name, f.text);
      return kind == InputKind::kHfTrainerYaml || kind == InputKind::kHfTrainerJson;
    }
  const std::string launcher = Lower(script.launcher);
  return launcher.find("accelerate") != std::string::npos ||
         launcher.find("deepspeed") != std::string::npos;
}

void ImportHfTrainerLaunch(const InputFile& file, const bash::Script& script,
                           const std::vector<InputFile>& all, Builder& b, const Presets& presets,
                           std::vector<Error>& fatal) {
  ArgValues values;
  const std::string args_file = ArgumentsFile(script);
  const bool positional = !script.args.empty() && script.args.front().text == args_file;
  if (!args_file.empty()) {
    const InputFile* found = nullptr;
    for (const InputFile& f : all)
      if (&f != &file && BaseName(f.name) == BaseName(args_file)) found = &f;
    if (found == nullptr) {
      b.Wants(args_file);
      b.Problem(file.name + " takes its Trainer arguments from " + args_file +
                ", which was not given: only the command line is read (give the file too)");
    } else if (!AddArgumentsFile(*found, values, b, fatal)) {
      return;
    }
  }
  if (!ReadAccelerateConfigs(file, all, b, fatal)) return;
  AddCommandLineArgs(script.args, positional ? 1 : 0, values);
  values.erase("config");
  values.erase("train_args_file");
  Launch launch{file.name, 0, {}, script.program};
  launch.world = LaunchWorldSize(file, script, launch.world_source);
  // A DeepSpeed config the script writes itself (cat > ds_config.json <<EOF) counts as given.
  Apply(values, launch, WithWrittenFiles(all, script), b, presets, fatal);
}

void ImportHfTrainerYaml(const InputFile& file, const std::vector<InputFile>& all, Builder& b,
                         const Presets& presets, std::vector<Error>& fatal) {
  Result<YamlDocument> doc = ReadYamlFile(file);
  if (!doc.ok()) {
    fatal.insert(fatal.end(), doc.errors().begin(), doc.errors().end());
    return;
  }
  if (!doc.value().value.is_object()) {
    fatal.push_back({file.name, "not a YAML mapping of Trainer arguments"});
    return;
  }
  if (doc.value().value.contains("distributed_type")) {
    if (b.Used(file.name)) return;  // read beside a job already
    ReadAccelerate(file, doc.value(), b);
    return;
  }
  ArgValues values;
  AddFlatArgs(file, doc.value(), values);
  // An accelerate config given beside the arguments sets the sharding first.
  if (!ReadAccelerateConfigs(file, all, b, fatal)) return;
  if (!HasTrainerKeys(values)) {
    fatal.push_back({file.name,
                     "a YAML file trainmem does not read: it reads MindSpeed-LLM FSDP2 jobs "
                     "(model/data/parallel/training sections), Hugging Face Trainer arguments "
                     "(LLaMA-Factory's and TRL's flat YAML, axolotl's) and accelerate configs"});
    return;
  }
  Launch launch{file.name, 0, {}, ""};
  Apply(values, launch, all, b, presets, fatal);
}

}  // namespace trainmem::import_detail
