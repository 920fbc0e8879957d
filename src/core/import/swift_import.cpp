// ms-swift's launches (modelscope/ms-swift, read at 3602360a5): the world size of `swift …` /
// `megatron …` without torchrun, and Megatron-SWIFT's arguments as Megatron-LM's flags. The
// Trainer side (`swift sft|pt|rlhf`) is read by hf_trainer_import.cpp ReadSwift.
#include <optional>
#include <string>
#include <vector>

#include "core/import/arg_values.h"
#include "core/import/import_detail.h"
#include "core/import/yaml_reader.h"

namespace trainmem::import_detail {
namespace {

// Devices a comma-separated visible-devices list names ("0,1,2,3" → 4), 0 when none.
long long ListedDevices(const std::string& list) {
  long long n = 0;
  bool item = false;
  for (char c : list + ",") {
    if (c == ',') {
      n += item ? 1 : 0;
      item = false;
    } else if (c != ' ') {
      item = true;
    }
  }
  return n;
}

// Megatron-SWIFT's arguments whose defaults differ from Megatron-LM's and change device memory
// (swift/megatron/arguments/megatron_args.py): these flags are on unless the script says false.
constexpr const char* kOnByDefault[] = {"use_distributed_optimizer", "cross_entropy_loss_fusion",
                                        "moe_grouped_gemm"};

// ms-swift's own keys that are no Megatron-LM flag and hold no memory setting: data, saving,
// logging and naming (dropped rather than listed as ignored Megatron flags).
bool SwiftOnlyKey(const std::string& key) {
  for (const char* k : {"dataset",
                        "val_dataset",
                        "model_author",
                        "model_name",
                        "system",
                        "split_dataset_ratio",
                        "load_from_cache_file",
                        "dataset_num_proc",
                        "dataloader_num_workers",
                        "output_dir",
                        "save",
                        "template",
                        "model_type",
                        "no_save_optim",
                        "no_save_rng",
                        "finetune",
                        "save_safetensors",
                        "report_to",
                        "add_version",
                        "streaming",
                        "num_workers",
                        "use_hf"})
    if (key == k) return true;
  return key.rfind("eval_", 0) == 0 || key.rfind("log_", 0) == 0 || key.rfind("logging_", 0) == 0 ||
         key.rfind("save_", 0) == 0 || key.rfind("wandb_", 0) == 0 || key.rfind("swanlab_", 0) == 0;
}

std::string Flag(std::string key) {
  for (char& c : key)
    if (c == '_') c = '-';
  return "--" + key;
}

// ms-swift's arguments held in a file (swift/cli/main.py parse_yaml_args): the launch's first
// argument when it ends in .json, .yaml or .yml, read when it is among `all`. Null otherwise.
const InputFile* SwiftArgsFile(const bash::Script& script, const std::vector<InputFile>& all) {
  if (script.args.empty()) return nullptr;
  const std::string first = Lower(script.args.front().text);
  if (!EndsWith(first, ".json") && !EndsWith(first, ".yaml") && !EndsWith(first, ".yml"))
    return nullptr;
  for (const InputFile& f : all)
    if (BaseName(f.name) == BaseName(script.args.front().text)) return &f;
  return nullptr;
}

// The file's ENV block: ms-swift sets each variable the shell left unset (parse_yaml_args).
json SwiftFileEnv(const InputFile* f) {
  if (f == nullptr) return json::object();
  Result<YamlDocument> doc = ReadYamlFile(*f);
  if (!doc.ok() || !doc.value().value.is_object()) return json::object();
  const json env = doc.value().value.value("ENV", json::object());
  return env.is_object() ? env : json::object();
}

// The processes ms-swift starts (swift/cli/main.py use_torchrun, get_torchrun_args): torchrun
// when NPROC_PER_NODE or NNODES is in the command's environment (the shell's exported
// variables, else the arguments file's ENV block), with NPROC_PER_NODE processes a node
// (torchrun's default, 1, without it) on NNODES nodes; otherwise one Python process. Other
// variables (GPUS_PER_NODE) are the script's own. per_node 0 when a variable holds no number
// (an unset ${VAR}).
struct SwiftProcesses {
  long long per_node = 1, nodes = 1;
  Source at;
};

SwiftProcesses ReadSwiftProcesses(const InputFile& file, const bash::Script& script,
                                  const std::vector<InputFile>& all) {
  const InputFile* args_file = SwiftArgsFile(script, all);
  const json env = SwiftFileEnv(args_file);
  struct Found {
    std::string value;
    std::string file;
    int line = 0;
  };
  auto lookup = [&](const char* name) -> std::optional<Found> {
    auto it = script.launch_variables.find(name);
    if (it != script.launch_variables.end() && it->second.exported)
      return Found{it->second.value, it->second.file.empty() ? file.name : it->second.file,
                   it->second.line};
    if (env.contains(name)) return Found{ArgText(env.at(name)), args_file->name, 0};
    return std::nullopt;
  };
  const std::optional<Found> nproc = lookup("NPROC_PER_NODE");
  const std::optional<Found> nodes = lookup("NNODES");
  SwiftProcesses out;
  if (!nproc && !nodes) {
    out.at = {file.name, script.launch_line,
              "no NPROC_PER_NODE / NNODES in its environment: ms-swift runs one process"};
    return out;
  }
  const Found& first = nproc ? *nproc : *nodes;
  out.at = {
      first.file, first.line,
      std::string(nproc ? "NPROC_PER_NODE" : "torchrun's 1 a node") + (nodes ? " × NNODES" : "")};
  const std::optional<long long> per_node =
      nproc ? JsonInteger(json(nproc->value)) : std::optional<long long>(1);
  const std::optional<long long> count =
      nodes ? JsonInteger(json(nodes->value)) : std::optional<long long>(1);
  out.per_node = per_node && count && *per_node >= 1 && *count >= 1 ? *per_node : 0;
  out.nodes = count && *count >= 1 ? *count : 1;
  return out;
}

}  // namespace

bool PairwiseStage(const std::string& stage) {
  return stage == "dpo" || stage == "rm" || stage == "orpo" || stage == "simpo" || stage == "cpo";
}

bool CompletionStage(const std::string& stage) {
  return stage == "grpo" || stage == "ppo" || stage == "gkd";
}

const char* SwiftMixedPrecision(const std::string& torch_dtype) {
  const std::string d = Lower(torch_dtype);
  if (d == "float16" || d == "fp16" || d == "float32" || d == "fp32") return "fp16";
  if (d == "bfloat16" || d == "bf16" || d.empty()) return "bf16";
  return "";
}

// ms-swift's task_type (model_args.py): causal_lm (the default) ends in the vocabulary's
// logits; seq_cls, embedding, reranker and generative_reranker end in a narrow head or pool.
void SwiftTaskNote(const std::string& task, Builder& b) {
  if (task.empty() || task == "causal_lm") return;
  b.Note("task_type " + task +
         ": the model ends in a narrow head, not the vocabulary; the estimate keeps the "
         "vocabulary's logits and loss (an over-estimate)");
}

// The processes an ms-swift launch starts on all nodes (ReadSwiftProcesses).
long long SwiftWorldSize(const InputFile& file, const bash::Script& script,
                         const std::vector<InputFile>& all, Source& at) {
  const SwiftProcesses p = ReadSwiftProcesses(file, script, all);
  at = p.at;
  return p.per_node > 0 ? PositiveProduct(p.per_node, p.nodes) : 0;
}

// A process that sees more devices than the launch gives it (CUDA_VISIBLE_DEVICES=0,1,2,3 with
// NPROC_PER_NODE 2, or none) spreads its model over them layer by layer (device_map,
// swift/utils/env.py, swift/model/utils.py): like pipeline stages that hold their layers'
// weights and run the whole batch one stage at a time, which is what it is estimated as
// (pipeline stages with one microbatch of the whole batch). ms-swift refuses device_map with
// DeepSpeed or FSDP (sft_args.py) and visible devices that NPROC_PER_NODE does not divide.
void SwiftDeviceMap(const InputFile& file, const bash::Script& script,
                    const std::vector<InputFile>& all, Builder& b) {
  const SwiftProcesses p = ReadSwiftProcesses(file, script, all);
  const long long processes = p.per_node > 0 ? PositiveProduct(p.per_node, p.nodes) : 0;
  if (processes > 0) {
    b.Set("world_size", processes, p.at);
  } else {
    b.Erase("world_size");
    b.Missing("world_size", "NPROC_PER_NODE holds no number: give the processes a node", 1);
    return;
  }
  long long devices = 0;
  int line = 0;
  std::string name;
  for (const char* var : {"CUDA_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES",
                          "NPU_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES"}) {
    auto it = script.launch_variables.find(var);
    if (it == script.launch_variables.end() || !it->second.exported || devices > 0) continue;
    devices = ListedDevices(it->second.value);
    line = it->second.line;
    name = var;
  }
  // The visible devices are one node's; the processes are all nodes'.
  const long long per_node = p.per_node;
  if (devices <= per_node) return;
  bool sharded = false;
  for (const bash::Word& w : script.args)
    sharded = sharded || w.text == "--deepspeed" || w.text.rfind("--deepspeed=", 0) == 0 ||
              w.text == "--fsdp" || w.text.rfind("--fsdp=", 0) == 0;
  if (sharded) {
    b.Problem(name + " lists " + std::to_string(devices) + " devices for " +
              std::to_string(per_node) +
              " process(es) a node: ms-swift refuses device_map with DeepSpeed or FSDP; set "
              "NPROC_PER_NODE to the device count");
    return;
  }
  if (devices % per_node != 0) {
    b.Problem(name + " lists " + std::to_string(devices) + " devices, which " +
              std::to_string(per_node) +
              " processes a node do not share evenly: ms-swift stops (swift/utils/env.py)");
    return;
  }
  const long long per_process = devices / per_node;
  const Source at{file.name, line, name + " lists " + std::to_string(devices) + " devices"};
  b.Set("world_size", PositiveProduct(processes, per_process), at);
  b.Set("parallelism.pipeline_parallel_degree", per_process, at);
  if (const json* mbs = b.Get("training.local_batch_size"); mbs && mbs->is_number_integer())
    b.Set("parallelism.pipeline_parallel_microbatch_size", *mbs, at);
  b.Note(name + " lists " + std::to_string(devices) + " devices for " + std::to_string(per_node) +
         " process" + (per_node > 1 ? "es" : "") + ": each spreads its model over " +
         std::to_string(per_process) +
         " of them layer by layer (device_map), estimated as that many pipeline stages running "
         "the whole batch as one microbatch");
}

// Megatron-SWIFT (`megatron sft|pt|rlhf`; swift/megatron/arguments at 3602360a5) takes
// Megatron-LM's arguments in snake case, booleans as true / false, with its own defaults:
// micro_batch_size 1, global_batch_size 16, recompute_granularity selective (core attention),
// the distributed optimizer, the cross-entropy fusion and grouped GEMM on, padding_free on
// (samples joined without padding), max_length for the sequence, torch_dtype for the
// precision (default the checkpoint's, bf16 for current models), tuner_type full (lora with
// lora_rank 8), the model named by --model (a hub id, converted with mcore-bridge).
std::vector<bash::Word> MegatronSwiftWords(const bash::Script& script,
                                           const std::vector<InputFile>& all, Builder& b) {
  ArgValues values;
  // Arguments in a file first (the command line after it wins, as argparse reads them).
  const InputFile* args_file = SwiftArgsFile(script, all);
  if (args_file != nullptr) {
    Result<YamlDocument> doc = ReadYamlFile(*args_file);
    if (doc.ok() && doc.value().value.is_object()) {
      b.UseFile(args_file->name);
      for (const auto& [k, v] : doc.value().value.items())
        if (!v.is_null() && k != "ENV")
          values[k] = {v, {args_file->name, doc.value().LineOf(k), k}};
    } else {
      b.Problem(args_file->name + ": not a mapping of ms-swift arguments");
    }
  } else if (!script.args.empty() && script.args.front().text.rfind("--", 0) != 0) {
    b.Wants(script.args.front().text);
    b.Problem("the arguments are in " + script.args.front().text +
              ", which was not given: only the command line is read (give the file too)");
  }
  AddCommandLineArgs(script.args, 0, values);
  std::vector<bash::Word> out;
  auto word = [&](const std::string& text, const Source& at) {
    out.push_back({text, at.line, at.file});
  };
  const Source launch{script.launch_file, script.launch_line, script.program};
  auto text = [&](const char* key) {
    auto it = values.find(key);
    return it == values.end() ? std::string() : Lower(ArgText(it->second.value));
  };
  std::vector<std::string> defaults;
  for (const auto& [key, v] : values) {
    if (SwiftOnlyKey(key) || key == "tuner_type" || key == "train_type" || key == "lora_rank" ||
        key == "torch_dtype" || key == "rlhf_type" || key == "max_completion_length" ||
        key == "packing" || key == "task_type" || key == "num_labels" || key == "adapters" ||
        key == "packing_length" || key == "max_length" || key == "micro_batch_size")
      continue;  // read below
    if (key == "recompute_granularity" && Lower(ArgText(v.value)) == "none") continue;
    // The vision tower's freezing stays a value (read with the model: frozen by default).
    if (key == "freeze_vit") continue;
    // Booleans, written true / false on the command line or typed in a YAML file.
    const std::string value =
        v.value.is_string() ? Lower(v.value.get<std::string>()) : v.value.dump();
    if (v.value.is_boolean() || value == "true" || value == "false") {
      if (value == "true") word(Flag(key), v.source);
      continue;
    }
    word(Flag(key), v.source);
    for (const std::string& item : ArgList(v.value)) word(item, v.source);
  }
  const bool rlhf = EndsWith(script.program, "rlhf");
  const std::string type = !rlhf ? "" : text("rlhf_type").empty() ? "dpo" : text("rlhf_type");
  // The sequence: packing_length, else max_length (megatron_base_args.py: seq_length =
  // packing_length or max_length); in grpo / ppo / gkd that is the prompt's, and a completion
  // of up to max_completion_length (512) follows (docs: Command-line-parameters, max_length).
  const char* seq_key = values.count("packing_length") ? "packing_length"
                        : values.count("max_length")   ? "max_length"
                                                       : nullptr;
  long long completion = 0;
  if (CompletionStage(type))
    completion = values.count("max_completion_length")
                     ? JsonInteger(values.at("max_completion_length").value).value_or(512)
                     : 512;
  if (seq_key != nullptr) {
    const ArgValue& len = values.at(seq_key);
    const std::optional<long long> prompt = JsonInteger(len.value);
    word("--seq-length", len.source);
    word(prompt && *prompt > 0 ? std::to_string(*prompt + completion) : ArgText(len.value),
         len.source);
  }
  // The micro batch (default 1): in the pairwise types each pair is a chosen and a rejected
  // sequence, so the forward runs twice the pairs.
  const long long pairs = values.count("micro_batch_size")
                              ? JsonInteger(values.at("micro_batch_size").value).value_or(1)
                              : 1;
  const bool pairwise = PairwiseStage(type);
  if (pairwise && !values.count("micro_batch_size")) defaults.push_back("micro_batch_size 1");
  if (values.count("micro_batch_size") || pairwise) {
    const Source at =
        values.count("micro_batch_size") ? values.at("micro_batch_size").source : launch;
    word("--micro-batch-size", at);
    word(pairwise ? std::to_string(2 * pairs) : ArgText(values.at("micro_batch_size").value), at);
  }
  // freeze_vit (default true): a multimodal model's vision tower is frozen unless it says false.
  {
    const auto it = values.find("freeze_vit");
    const bool trained = it != values.end() && Lower(ArgText(it->second.value)) == "false";
    word("--freeze-vit", it != values.end() ? it->second.source : launch);
    word(trained ? "false" : "true", it != values.end() ? it->second.source : launch);
  }
  auto fallback = [&](const char* key, const std::string& value) {
    if (values.count(key)) return;
    word(Flag(key), launch);
    if (!value.empty()) word(value, launch);
    defaults.push_back(std::string(key) + (value.empty() ? "" : " " + value));
  };
  if (!pairwise) fallback("micro_batch_size", "1");
  fallback("global_batch_size", "16");
  fallback("recompute_granularity", "selective");
  // Megatron-SWIFT's expert_tensor_parallel_size defaults to 1, Megatron-LM's to TP.
  fallback("expert_tensor_parallel_size", "1");
  for (const char* key : kOnByDefault) fallback(key, "");
  // Precision: torch_dtype, else the checkpoint's (bf16 assumed).
  if (!values.count("bf16") && !values.count("fp16")) {
    const std::string dtype = text("torch_dtype");
    const std::string precision = SwiftMixedPrecision(dtype);
    if (!precision.empty())
      word("--" + precision, dtype.empty() ? launch : values.at("torch_dtype").source);
    if (dtype.empty())
      defaults.push_back("bf16 (torch_dtype not given: the checkpoint's, bf16 assumed)");
  }
  // LoRA: tuner_type lora (Megatron-SWIFT's default is full) with lora_rank; adapters to resume
  // turn full into lora (megatron_args.py).
  std::string tuner = text("tuner_type").empty() ? text("train_type") : text("tuner_type");
  if ((tuner.empty() || tuner == "full") && values.count("adapters")) tuner = "lora";
  if (tuner == "lora" || tuner == "lora_llm") {
    const std::string rank = text("lora_rank").empty() ? "8" : text("lora_rank");
    word("--lora-r", values.count("lora_rank") ? values.at("lora_rank").source : launch);
    word(rank, values.count("lora_rank") ? values.at("lora_rank").source : launch);
  }
  if (!defaults.empty()) {
    std::string list;
    for (const std::string& d : defaults) list += (list.empty() ? "" : ", ") + d;
    b.Note("Megatron-SWIFT's defaults where the script is silent: " + list);
  }
  if (text("packing") == "true")
    b.Note("packing: samples are packed up to max_length, the estimate's sequence length");
  SwiftTaskNote(text("task_type"), b);
  if (!values.count("padding_free") || text("padding_free") == "true")
    b.Note(
        "padding_free (Megatron-SWIFT's default): a micro batch's samples are joined "
        "without padding; the estimate takes micro_batch_size × max_length tokens, the most "
        "it holds");
  // `megatron rlhf`: pairs, reference and rollout models as in the Trainer's RLHF.
  if (rlhf) {
    if (type != "dpo" && type != "kto" && type != "grpo" && type != "gkd" && type != "rm")
      b.Problem("rlhf_type " + type +
                ": Megatron-SWIFT trains dpo, kto, grpo, gkd and rm (megatron/arguments)");
    if (type == "rm") SwiftTaskNote("seq_cls", b);
    if (pairwise)
      b.Note("rlhf_type " + type + ": each of the " + std::to_string(pairs) +
             " pairs in a micro batch is a chosen and a rejected sequence, so the forward runs " +
             std::to_string(2 * pairs));
    if ((type == "dpo" || type == "kto") && tuner != "lora" && tuner != "lora_llm")
      b.Problem("rlhf_type " + type +
                " keeps a frozen reference copy of the model beside the trained one: its "
                "weights are not counted (an under-estimate)");
    if (CompletionStage(type))
      b.Problem("rlhf_type " + type +
                ": the policy's training is estimated at prompt (max_length) + completion "
                "(max_completion_length) tokens; a reference copy, a colocated vLLM engine "
                "(vllm_gpu_memory_utilization of the device while it generates) or a teacher "
                "model are not counted");
  }
  return out;
}

}  // namespace trainmem::import_detail
