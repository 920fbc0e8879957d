// torchtune recipe configs (recipes/configs/**.yaml, and the copies people edit): a YAML whose
// sections name their classes with `_component_` (torchtune/config/_instantiate.py). Read as
// framework "torchtune":
//   model._component_        the model builder, e.g. torchtune.models.llama3_1.lora_llama3_1_8b;
//                            lora_* builders train rank-lora_rank adapters, qlora_* ones over an
//                            NF4 base (training.base_quantization); the preset is found by the
//                            builder's name, else by checkpointer.checkpoint_dir
//   batch_size               per device
//   tokenizer.max_seq_len    the sequence length (null: each sample keeps its own; asked for)
//   dataset.packed           packing fills every sample to max_seq_len
//   enable_activation_checkpointing / enable_activation_offloading
//   dtype                    bf16: weights, gradients and optimizer states all bf16 (the recipes
//                            cast the model and build the optimizer over it); fp32: all fp32
//   optimizer._component_    torch.optim.AdamW, bitsandbytes PagedAdamW8bit, torchao AdamW8bit /
//                            AdamW4bit, …; torchao's CPUOffloadOptimizer keeps the states on the
//                            host (optimizer.offload)
//   loss._component_         CEWithChunkedOutputLoss: 8 output chunks (num_output_chunks)
//   compile                  torch.compile of the model and loss
//   optimizer_in_bwd         optimizer.early_step_in_backward (each gradient freed when stepped)
//   fsdp_cpu_offload         optimizer.offload (the parameter shards' offload said, not modelled)
// The world size and recipe come from a `tune run [torchrun options] RECIPE --config …` line
// (the bash reader's launch; --nproc_per_node × --nnodes as for torchrun), in a script given
// beside the YAML or in the YAML's header comments (the recipes document their own launch
// there); a *_single_device recipe runs on one device.
#include <string>

#include "core/import/bash_reader.h"
#include "core/import/import_detail.h"
#include "core/import/yaml_reader.h"

namespace trainmem::import_detail {
namespace {

std::string Component(const json& section) {
  if (!section.is_object()) return "";
  const auto it = section.find("_component_");
  return it != section.end() && it->is_string() ? it->get<std::string>() : "";
}

bool Flag(const json& section, const char* key) {
  if (!section.is_object()) return false;
  const auto it = section.find(key);
  return it != section.end() && it->is_boolean() && it->get<bool>();
}

std::string LastPart(const std::string& dotted) {
  const std::size_t dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

// A `tune run` launch read by the bash reader (variables, continuations): its recipe and the
// world size torchrun's options give (--nproc_per_node × --nnodes), 0 when they give none.
struct TuneRun {
  long long world = 0;
  std::string recipe;
  Source source;
};

TuneRun TuneRunIn(const InputFile& f, const std::vector<InputFile>& all) {
  TuneRun run;
  if (f.text.find("tune run") == std::string::npos) return run;
  const bash::Script script = bash::ReadScript(f, all);
  if (!script.found_launch || script.launcher.find("tune run") == std::string::npos) return run;
  run.recipe = script.program;
  run.world = LaunchWorldSize(f, script, run.source);
  if (run.world <= 0) run.source = {script.launch_file, script.launch_line, "tune run"};
  return run;
}

// The recipes document their own launch in their header comments
// ("#   tune run --nproc_per_node 8 full_finetune_distributed --config llama3_1/8B_full"): those
// lines uncommented, the others left empty so that line numbers stay the file's.
TuneRun TuneRunInComments(const InputFile& yaml) {
  std::string lines;
  std::size_t start = 0;
  while (start <= yaml.text.size()) {
    std::size_t end = yaml.text.find('\n', start);
    if (end == std::string::npos) end = yaml.text.size();
    const std::string row = yaml.text.substr(start, end - start);
    const std::size_t hash = row.find('#');
    if (hash != std::string::npos && row.find("tune run", hash) != std::string::npos)
      lines += row.substr(hash + 1);
    lines += '\n';
    start = end + 1;
  }
  return TuneRunIn({yaml.name, lines}, {});
}

}  // namespace

bool IsTorchtuneYamlText(std::string_view text) {
  return text.find("_component_") != std::string_view::npos &&
         text.find("torchtune.") != std::string_view::npos;
}

void ImportTorchtuneYaml(const InputFile& file, const std::vector<InputFile>& all, Builder& b,
                         const Presets& presets, std::vector<Error>& fatal) {
  Result<YamlDocument> doc = ReadYamlFile(file);
  if (!doc.ok()) {
    fatal.insert(fatal.end(), doc.errors().begin(), doc.errors().end());
    return;
  }
  const json& root = doc.value().value;
  // PPO recipes (full_ppo_*) train policy_model beside a reward-and-value model and frozen
  // copies of both: the policy is the model trained here.
  const bool ppo = root.is_object() && !root.contains("model") && root.contains("policy_model");
  const std::string model_key = ppo ? "policy_model" : "model";
  const std::string model_component =
      root.is_object() && root.contains(model_key) ? Component(root[model_key]) : "";
  if (model_component.empty()) {
    fatal.push_back({file.name,
                     "a torchtune config without a model._component_: nothing says which model "
                     "it trains"});
    return;
  }
  b.UseFile(file.name);
  auto at = [&](const std::string& key) { return Source{file.name, doc.value().LineOf(key), key}; };
  const Source component_at = at(model_key + "._component_");
  b.Set("framework", "torchtune", component_at);
  if (ppo)
    b.Problem(
        "PPO keeps the policy, its reference copy, the reward-and-value model and its reference "
        "on the device: the estimate counts the policy's training only (an under-estimate)");
  // --- Launch: world size and recipe ---------------------------------------------------------
  TuneRun run;
  for (const InputFile& f : all) {
    if (&f == &file || f.name == file.name) continue;
    run = TuneRunIn(f, all);
    if (!run.recipe.empty()) {
      b.UseFile(f.name);
      break;
    }
  }
  if (run.recipe.empty()) run = TuneRunInComments(file);
  const bool single = run.recipe.find("single_device") != std::string::npos;
  if (run.world > 0) {
    b.Set("world_size", run.world, run.source);
  } else if (single) {
    b.Set("world_size", 1, {run.source.file, run.source.line, run.recipe + " (one device)"});
  } else {
    b.Missing("world_size",
              "no `tune run --nproc_per_node N` line says how many devices the recipe runs on", 8);
  }
  if (!single) b.Set("parallelism.data_parallel_shard_degree", -1, component_at);
  if (!single && root.contains("tensor_parallel_dim")) {
    if (const auto tp = JsonInteger(root["tensor_parallel_dim"]); tp && *tp > 0)
      b.Set("parallelism.tensor_parallel_degree", *tp, at("tensor_parallel_dim"));
  }
  // --- Model ---------------------------------------------------------------------------------
  const std::string builder = LastPart(model_component);
  const bool qlora = builder.rfind("qlora_", 0) == 0;
  const bool lora = qlora || builder.rfind("lora_", 0) == 0;
  std::string base = builder;
  if (lora) base = builder.substr(builder.find('_') + 1);
  FlavorModel named = ModelFromCheckpointName(base, "", presets);
  Source model_at = component_at;
  if (named.preset.empty() && named.inline_model.is_null() && root.contains("checkpointer") &&
      root["checkpointer"].is_object() && root["checkpointer"].contains("checkpoint_dir") &&
      root["checkpointer"]["checkpoint_dir"].is_string()) {
    named = ModelFromCheckpointName(root["checkpointer"]["checkpoint_dir"].get<std::string>(), "",
                                    presets);
    model_at = at("checkpointer.checkpoint_dir");
  }
  if (!named.preset.empty()) {
    b.Set("model", named.preset, model_at);
  } else if (!named.inline_model.is_null()) {
    b.Set("model", named.inline_model, model_at);
  } else {
    b.Missing("model",
              "the model builder " + builder + " is no preset: give its config.json or pick one",
              nullptr);
  }
  if (lora) {
    const json& m = root[model_key];
    const auto rank = m.contains("lora_rank") ? JsonInteger(m["lora_rank"]) : std::nullopt;
    if (rank && *rank > 0) {
      b.Set("training.lora_rank", *rank, at(model_key + ".lora_rank"));
    } else {
      b.Missing("training.lora_rank", "the LoRA builder's lora_rank is not given", 8);
    }
    if (m.contains("apply_lora_to_mlp") && m["apply_lora_to_mlp"].is_boolean() &&
        !m["apply_lora_to_mlp"].get<bool>())
      b.Note(
          "apply_lora_to_mlp is false: the estimate puts adapters on every matrix (a few "
          "more adapter states)");
  }
  // qlora_* builders wrap each adapted linear's frozen weight in torchao's NF4Tensor
  // (modules/peft/lora.py to_nf4): blocks of 64 with uint8 scalers and a factor per 256
  // of them, double-quantized NF4.
  if (qlora) b.Set("training.base_quantization", "nf4_double_quant", component_at);
  // --- Batch and sequence --------------------------------------------------------------------
  // PPO (recipes/ppo_full_finetune_single_device.py): batch_size trajectories are generated,
  // then trained on in ppo_batch_size minibatches split into gradient_accumulation_steps
  // backward passes of ppo_backward_batch_size each.
  const auto ppo_batch =
      ppo && root.contains("ppo_batch_size") ? JsonInteger(root["ppo_batch_size"]) : std::nullopt;
  if (ppo_batch && *ppo_batch > 0) {
    const long long ga = root.contains("gradient_accumulation_steps")
                             ? JsonInteger(root["gradient_accumulation_steps"]).value_or(1)
                             : 1;
    b.Set("training.local_batch_size", std::max(1LL, *ppo_batch / std::max(1LL, ga)),
          at("ppo_batch_size"));
  } else if (root.contains("batch_size")) {
    if (const auto n = JsonInteger(root["batch_size"]); n && *n > 0)
      b.Set("training.local_batch_size", *n, at("batch_size"));
  } else {
    b.Missing("training.local_batch_size", "no batch_size", 2);
  }
  const json* tokenizer =
      root.contains("tokenizer") && root["tokenizer"].is_object() ? &root["tokenizer"] : nullptr;
  const auto seq = tokenizer != nullptr && tokenizer->contains("max_seq_len")
                       ? JsonInteger((*tokenizer)["max_seq_len"])
                       : std::nullopt;
  const long long prompt = seq.value_or(0);
  const long long generated = ppo && root.contains("max_generated_tokens")
                                  ? JsonInteger(root["max_generated_tokens"]).value_or(0)
                                  : 0;
  if (prompt > 0 && generated > 0) {
    // A trajectory is the prompt (up to max_seq_len) and its generated tokens.
    b.Set("training.seq_len", prompt + generated, at("max_generated_tokens"));
    b.Note("PPO trains on the prompt and the max_generated_tokens after it: " +
           std::to_string(prompt) + " + " + std::to_string(generated) + " tokens");
  } else if (prompt > 0) {
    b.Set("training.seq_len", prompt, at("tokenizer.max_seq_len"));
  } else {
    b.Missing("training.seq_len",
              "tokenizer.max_seq_len is null or absent: samples keep their own length; give the "
              "longest",
              2048);
  }
  const bool packed = root.contains("dataset") && Flag(root["dataset"], "packed");
  b.Note(packed ? "dataset.packed: every sample is filled to max_seq_len"
                : "samples are padded to the longest in each batch: the sequence length is the "
                  "most a batch holds, and the estimate takes it");
  // --- Precision and optimizer ---------------------------------------------------------------
  const std::string dtype = root.contains("dtype") && root["dtype"].is_string()
                                ? root["dtype"].get<std::string>()
                                : "bf16";
  const bool bf16 = dtype == "bf16" || dtype == "bfloat16";
  const Source dtype_at = root.contains("dtype") ? at("dtype") : Source{file.name, 0, "dtype"};
  b.Set("training.mixed_precision_param", bf16 ? "bfloat16" : "float32", dtype_at);
  std::string optimizer = root.contains("optimizer") ? Component(root["optimizer"]) : "";
  const bool offload = optimizer.find("CPUOffloadOptimizer") != std::string::npos;
  if (offload) {
    b.Set("optimizer.offload", true, at("optimizer._component_"));
    const json& o = root["optimizer"];
    optimizer = o.contains("optimizer_class") && o["optimizer_class"].is_string()
                    ? o["optimizer_class"].get<std::string>()
                    : "torch.optim.AdamW";
  }
  const std::string name = optimizer.empty() ? "AdamW" : LastPart(optimizer);
  b.Set("optimizer.name", name, at("optimizer._component_"));
  // torch.optim's Adam/AdamW step: `fused: True` (most recipes) is one kernel; without it torch
  // takes its foreach path (one state-sized temporary at the step).
  if (!offload && optimizer.rfind("torch.optim.", 0) == 0 && root["optimizer"].is_object()) {
    const json& o = root["optimizer"];
    const bool fused = o.contains("fused") && o["fused"] == true;
    const bool foreach_off = o.contains("foreach") && o["foreach"] == false;
    b.Set("optimizer.implementation",
          fused         ? "fused"
          : foreach_off ? "for-loop"
                        : "foreach",
          o.contains("fused") ? at("optimizer.fused") : at("optimizer._component_"));
  }
  // The recipes cast the model to `dtype` and build the optimizer over its parameters: a bf16
  // run keeps bf16 AdamW states (torch.optim's states take the parameter's dtype). bitsandbytes
  // and torchao keep their own state dtypes (fp32, or 8/4-bit blocks).
  if (bf16 && optimizer.rfind("bitsandbytes.", 0) != 0 && optimizer.rfind("torchao.", 0) != 0)
    b.Set("optimizer.state_dtype", "bfloat16", dtype_at);
  // --- Memory switches -----------------------------------------------------------------------
  if (root.contains("enable_activation_checkpointing") &&
      root["enable_activation_checkpointing"].is_boolean()) {
    b.Set("activation_checkpoint.mode",
          root["enable_activation_checkpointing"].get<bool>() ? "full" : "none",
          at("enable_activation_checkpointing"));
  } else {
    b.Set("activation_checkpoint.mode", "none",
          {file.name, 0, "enable_activation_checkpointing absent: off"});
  }
  if (Flag(root, "enable_activation_offloading"))
    b.Set("activation_checkpoint.offload", true, at("enable_activation_offloading"));
  const std::string loss = root.contains("loss") ? Component(root["loss"]) : "";
  if (loss.find("Chunked") != std::string::npos) {
    // CEWithChunkedOutputLoss(num_output_chunks=8) unless the config says otherwise.
    long long chunks = 8;
    const json& l = root["loss"];
    if (l.contains("num_output_chunks")) chunks = JsonInteger(l["num_output_chunks"]).value_or(8);
    b.Set("training.loss_chunks", chunks > 0 ? chunks : 8, at("loss._component_"));
  }
  if (Flag(root, "compile")) b.Set("compile.enable", true, at("compile"));
  // optimizer_in_bwd: the recipes register a per-parameter optimizer step as a post-accumulate-
  // grad hook (training/_optimizer_in_bwd or the recipe's _setup_optimizer), which frees each
  // gradient as it is made: optimizer.early_step_in_backward.
  if (Flag(root, "optimizer_in_bwd"))
    b.Set("optimizer.early_step_in_backward", true, at("optimizer_in_bwd"));
  // fsdp_cpu_offload: FSDP2's CPUOffloadPolicy keeps the parameter and gradient shards and the
  // optimizer step on the host; the estimate moves the optimizer states and says the rest.
  if (Flag(root, "fsdp_cpu_offload")) {
    b.Set("optimizer.offload", true, at("fsdp_cpu_offload"));
    b.Note(
        "fsdp_cpu_offload also keeps the parameter and gradient shards on the host, which the "
        "estimate holds on the device (an over-estimate)");
  }
}

}  // namespace trainmem::import_detail
