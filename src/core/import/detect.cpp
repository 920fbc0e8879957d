// What a file is, from its content first and its name second. Looks at a bounded prefix so a
// 10 MB paste is classified in constant time.
#include <cctype>

#include "core/import/import_detail.h"

namespace trainmem {
namespace {

using import_detail::EndsWith;
using import_detail::Lower;

constexpr std::size_t kSniffBytes = 256 * 1024;

bool Has(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}

// A "[section]" header at the start of a line, as TOML writes them.
bool HasTomlSection(std::string_view text, std::string_view section) {
  for (std::size_t at = text.find(section); at != std::string_view::npos;
       at = text.find(section, at + 1)) {
    std::size_t b = at;
    while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
    if (b == 0 || text[b - 1] == '\n') return true;
  }
  return false;
}

// A key at the start of a line ("parallel:"), as a YAML section is written.
bool HasYamlSection(std::string_view text, std::string_view section) {
  for (std::size_t at = text.find(section); at != std::string_view::npos;
       at = text.find(section, at + 1)) {
    if ((at == 0 || text[at - 1] == '\n') && at + section.size() < text.size() &&
        text[at + section.size()] == ':')
      return true;
  }
  return false;
}

bool LooksLikeLog(std::string_view t) {
  // torchtitan: "step:  10  loss:  7.1  memory: 41.23GiB(52.12%)"; Megatron: "memory (MB) |
  // allocated: …"; DeepSpeed see_memory_usage: "MA 1.2 GB         Max_MA 3.4 GB".
  return (Has(t, "memory:") && Has(t, "GiB(")) || Has(t, "memory (MB) | allocated") ||
         (Has(t, "Max_MA") && Has(t, " GB")) || Has(t, "max_memory_allocated") ||
         (Has(t, "max reserved") && Has(t, "MB"));
}

InputKind JsonKind(std::string_view t) {
  if (Has(t, "\"segments\"") || Has(t, "\"device_traces\"") || Has(t, "\"traceEvents\"") ||
      Has(t, "\"allocated_bytes") || Has(t, "\"memory_timeline\""))
    return InputKind::kMemoryProfile;
  // TrainingArguments as JSON (HfArgumentParser.parse_json_file: Firefly's train_args/*.json),
  // which also name gradient_accumulation_steps, and the DeepSpeed config they use.
  if ((Has(t, "\"per_device_train_batch_size\"") || Has(t, "\"model_name_or_path\"")) &&
      !Has(t, "\"zero_optimization\""))
    return InputKind::kHfTrainerJson;
  if (Has(t, "\"zero_optimization\"") || Has(t, "\"train_micro_batch_size_per_gpu\"") ||
      Has(t, "\"train_batch_size\"") || Has(t, "\"zero_allow_untested_optimizer\"") ||
      Has(t, "\"gradient_accumulation_steps\"") || Has(t, "\"activation_checkpointing\""))
    return InputKind::kDeepspeedJson;
  // torchtitan's resolved config carries sections trainmem's schema does not have.
  if (Has(t, "\"hf_assets_path\"") || Has(t, "\"dump_folder\"") || Has(t, "\"lr_scheduler\"") ||
      Has(t, "\"model_spec\"") || Has(t, "\"num_tokens_per_microbatch_per_dp_rank\"") ||
      Has(t, "\"metrics\"") || Has(t, "\"checkpoint\"") || Has(t, "\"job\""))
    return InputKind::kTorchtitanJson;
  if ((Has(t, "\"version\"") || Has(t, "\"world_size\"") || Has(t, "\"device\"") ||
       Has(t, "\"framework\"") || Has(t, "\"overhead\"")) &&
      Has(t, "\"model\""))
    return InputKind::kTrainmemConfig;
  // trainmem's own config still without a model (what `trainmem import` prints when the job
  // names none): its schema version beside its framework or world size. Read as a torchtitan
  // resolved config it would lose its world size.
  if (Has(t, "\"version\"") && (Has(t, "\"framework\"") || Has(t, "\"world_size\"")))
    return InputKind::kTrainmemConfig;
  if (Has(t, "\"activation_checkpoint\"") && Has(t, "\"training\"") && Has(t, "\"parallelism\""))
    return InputKind::kTorchtitanJson;
  if (Has(t, "\"model_type\"") || Has(t, "\"architectures\"") || Has(t, "\"num_hidden_layers\"") ||
      Has(t, "\"n_layer\""))
    return InputKind::kHfConfig;
  if (Has(t, "\"model\"")) return InputKind::kTrainmemConfig;
  return InputKind::kUnknown;
}

}  // namespace

const char* InputKindName(InputKind kind) {
  switch (kind) {
    case InputKind::kTrainmemConfig:
      return "trainmem config";
    case InputKind::kHfConfig:
      return "Hugging Face config.json";
    case InputKind::kTorchtitanToml:
      return "torchtitan TOML";
    case InputKind::kTorchtitanPython:
      return "torchtitan Python config registry";
    case InputKind::kTorchtitanJson:
      return "torchtitan resolved config (JSON)";
    case InputKind::kMegatronScript:
      return "launch script (Megatron, MindSpeed, DeepSpeed, Trainer, ms-swift)";
    case InputKind::kDeepspeedJson:
      return "DeepSpeed config (JSON)";
    case InputKind::kFsdp2Yaml:
      return "MindSpeed-LLM FSDP2 YAML";
    case InputKind::kTorchtuneYaml:
      return "torchtune recipe config (YAML)";
    case InputKind::kMegatronBridgeYaml:
      return "Megatron-Bridge config (YAML: resolved run_config.yaml or override)";
    case InputKind::kHfTrainerYaml:
      return "Hugging Face Trainer YAML (LLaMA-Factory, axolotl, TRL)";
    case InputKind::kHfTrainerJson:
      return "Hugging Face Trainer arguments (JSON)";
    case InputKind::kTrainingLog:
      return "training log";
    case InputKind::kMemoryProfile:
      return "memory profile";
    case InputKind::kUnknown:
      break;
  }
  return "unknown";
}

bool IsMeasurementKind(InputKind kind) {
  return kind == InputKind::kTrainingLog || kind == InputKind::kMemoryProfile;
}

namespace {

// Text holding a command line that launches training (anywhere: after VAR=value prefixes, in a
// backslash-continued line), or a shell's #! line: the words a launch script is made of.
bool ShellLaunch(std::string_view t) {
  if (t.rfind("#!", 0) == 0 && Has(t.substr(0, t.find('\n')), "sh")) return true;
  static const char* kLaunches[] = {"swift sft",
                                    "swift pt",
                                    "swift rlhf",
                                    "megatron sft",
                                    "megatron pt",
                                    "megatron rlhf",
                                    "deepspeed ",
                                    "accelerate launch",
                                    "llamafactory-cli train",
                                    "tune run ",
                                    "python -m ",
                                    "python3 -m ",
                                    "run_train.sh",
                                    "torchtitan.train",
                                    "run_recipe.py",
                                    "training/train.sh",
                                    "setup_experiment.py",
                                    "nemo llm "};
  for (const char* l : kLaunches)
    if (Has(t, l)) return true;
  return Has(t, "--per_device_train_batch_size") || Has(t, "--deepspeed ");
}

}  // namespace

InputKind DetectInputKind(std::string_view name, std::string_view text) {
  const std::string lower_name = Lower(name);
  // A pickle (torch.cuda.memory._dump_snapshot) starts with PROTO: 0x80 then 2..5.
  if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x80 && text[1] >= 2 &&
      text[1] <= 5)
    return InputKind::kMemoryProfile;
  if (EndsWith(lower_name, ".pickle") || EndsWith(lower_name, ".pkl"))
    return InputKind::kMemoryProfile;
  const std::string_view t = text.substr(0, kSniffBytes);
  std::size_t first = 0;
  while (first < t.size() && std::isspace(static_cast<unsigned char>(t[first]))) ++first;
  // '[' opens a JSON array, or a TOML table header ("[job]", "[[array]]"): in JSON the
  // brackets are followed by a value, never by a bare name.
  bool toml_header = false;
  if (first < t.size() && t[first] == '[') {
    std::size_t next = first;
    while (next < t.size() &&
           (t[next] == '[' || t[next] == ' ' || t[next] == '\t' || t[next] == '\r'))
      ++next;
    toml_header =
        next < t.size() && (std::isalpha(static_cast<unsigned char>(t[next])) || t[next] == '_') &&
        t.substr(next, 4) != "true" && t.substr(next, 4) != "null" && t.substr(next, 5) != "false";
  }
  if (first < t.size() && (t[first] == '{' || t[first] == '[') && !toml_header) {
    const InputKind kind = JsonKind(t);
    if (kind != InputKind::kUnknown) return kind;
  }
  // Before the log heuristics: a dump captured from a log keeps memory figures in its comments.
  if (import_detail::IsMegatronBridgeYamlText(t) || import_detail::IsBridgeOverrideYamlText(t))
    return InputKind::kMegatronBridgeYaml;
  if (LooksLikeLog(t)) return InputKind::kTrainingLog;
  // YAML: Hugging Face Trainer arguments (LLaMA-Factory) and accelerate configs keep their keys
  // flat at the start of a line; MindSpeed-LLM FSDP2 jobs nest them under parallel: and
  // training: sections (and any other YAML is read as one, to say what it lacks).
  const bool yaml_name = EndsWith(lower_name, ".yaml") || EndsWith(lower_name, ".yml");
  // torchtune's recipe configs name their classes: model: _component_: torchtune.models.…
  if (import_detail::IsTorchtuneYamlText(t) &&
      (HasYamlSection(t, "model") || HasYamlSection(t, "policy_model")))
    return InputKind::kTorchtuneYaml;
  const bool trainer_keys =
      HasYamlSection(t, "per_device_train_batch_size") || HasYamlSection(t, "finetuning_type") ||
      HasYamlSection(t, "deepspeed") || HasYamlSection(t, "distributed_type") ||
      HasYamlSection(t, "cutoff_len") ||
      (HasYamlSection(t, "stage") && HasYamlSection(t, "model_name_or_path")) ||
      // axolotl: base_model beside its batch or sequence keys.
      (HasYamlSection(t, "base_model") &&
       (HasYamlSection(t, "micro_batch_size") || HasYamlSection(t, "sequence_len") ||
        HasYamlSection(t, "batch_size")));
  if (trainer_keys && !HasYamlSection(t, "parallel")) return InputKind::kHfTrainerYaml;
  if (yaml_name || (HasYamlSection(t, "parallel") && HasYamlSection(t, "training")))
    return InputKind::kFsdp2Yaml;
  const bool toml_name = EndsWith(lower_name, ".toml");
  if (toml_name || HasTomlSection(t, "[training]") || HasTomlSection(t, "[parallelism]") ||
      (HasTomlSection(t, "[model]") && HasTomlSection(t, "[job]")))
    return InputKind::kTorchtitanToml;
  const bool py_name = EndsWith(lower_name, ".py");
  if (Has(t, "def ") &&
      (py_name || Has(t, "Trainer.Config") || Has(t, "TrainerConfig") ||
       Has(t, "TrainingConfig(") || Has(t, "ParallelismConfig(") || Has(t, "model_registry(")))
    return InputKind::kTorchtitanPython;
  // A launch script (pasted text has no name): Megatron's flags, a launcher (torchrun,
  // deepspeed, accelerate launch), a training tool's command (ms-swift's swift / megatron sft,
  // llamafactory-cli train, tune run) or the Trainer's arguments, or a shell's #! line.
  if (Has(t, "pretrain_") || Has(t, "--num-layers") || Has(t, "--tensor-model-parallel-size") ||
      Has(t, "--hidden-size") || Has(t, "--micro-batch-size") || Has(t, "torchrun") ||
      Has(t, "torch.distributed.launch") || EndsWith(lower_name, ".sh") ||
      EndsWith(lower_name, ".bash") || ShellLaunch(t))
    return InputKind::kMegatronScript;
  if (EndsWith(lower_name, ".json")) return JsonKind(t);
  if (EndsWith(lower_name, ".log") || EndsWith(lower_name, ".txt")) return InputKind::kTrainingLog;
  return InputKind::kUnknown;
}

}  // namespace trainmem
