// Shared by the importers: the config being built with its report, and model lookups.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/import/bash_reader.h"
#include "core/import/import.h"
#include "core/model/presets.h"

namespace trainmem::import_detail {

using nlohmann::json;

// Where a value came from.
struct Source {
  std::string file;
  int line = 0;
  std::string text;  // the key or argument as written
};

// The schema-v1 config under construction plus its report. Later Set calls win (a derived
// recipe overrides its base), and the report keeps only the last read of each key.
class Builder {
 public:
  explicit Builder(ImportReport& report) : report_(report) {}

  json config = json::object();
  // The files state the world size and the framework refuses any other (Megatron's
  // initialize_model_parallel): a layout that does not fit it is reported, and the config left
  // to fail its check, rather than estimated on a cluster the job does not run on.
  bool keep_world_size = false;
  // The caller knows the files launch a training job (a Megatron-Bridge recipe, whose settings
  // need not include Megatron's batch or layout): the Megatron path does not refuse it for
  // stating none.
  bool training_job = false;

  void Set(const std::string& dotted_key, json value, const Source& source);
  bool Has(const std::string& dotted_key) const;
  const json* Get(const std::string& dotted_key) const;
  void Erase(const std::string& dotted_key);
  void Ignore(const Source& source, std::string reason);
  // A value the files do not give; `assumed` (if not null) is put in the config meanwhile.
  // `hinted`: the files hint at `assumed` (ImportMissing::hinted).
  void Missing(const std::string& dotted_key, std::string why, json assumed, bool hinted = false);
  void Problem(std::string text) { report_.problems.push_back(std::move(text)); }
  // A file the job names that was not given (ImportReport::wanted_files).
  void Wants(const std::string& path) {
    auto& wanted = report_.wanted_files;
    if (!path.empty() && std::find(wanted.begin(), wanted.end(), path) == wanted.end())
      wanted.push_back(path);
  }
  void Note(std::string text) { report_.notes.push_back(std::move(text)); }
  ImportReport& report() { return report_; }
  // A file another file pointed at and that was read (a YAML a launch script names).
  void UseFile(const std::string& name) { used_files_.push_back(name); }
  bool Used(const std::string& name) const {
    for (const std::string& n : used_files_)
      if (n == name) return true;
    return false;
  }

 private:
  ImportReport& report_;
  std::vector<std::string> used_files_;
};

// Text helpers.
std::string Lower(std::string_view s);
std::string Trim(std::string_view s);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
std::string BaseName(std::string_view path);            // after the last '/' or '\'
int LineOf(std::string_view text, std::size_t offset);  // 1-based
// Reads a whole number ("8", "1e3" is not), with optional sign; nullopt if it is not one.
std::optional<long long> ParseInteger(std::string_view s);
// A JSON number that is a whole number within int64 (1e3 and 8.0 are; 2e26 and 8.5 are not),
// or a string ParseInteger reads; config_detail's ReadInt decides for numbers.
std::optional<long long> JsonInteger(const json& v);
// a · b for counts read from a file (degrees, batch sizes), or 0 when either is not positive or
// the product overflows: the caller then derives nothing from them (a script may say
// `--context-parallel-size 0` or a 19-digit batch; found by the import fuzzers).
long long PositiveProduct(long long a, long long b);
std::optional<double> ParseNumber(std::string_view s);
std::optional<bool> ParseBool(std::string_view s);  // true/false/True/False/1/0/yes/no

// A preset whose id or name occurs in free text ("/data/Qwen3-8B/", "Llama-3.1-70B"): the
// longest match whose next character is not a digit. Empty if none.
std::string PresetFromText(std::string_view text, const Presets& presets);

// torchtitan's model name + flavor ("llama3", "8B") → a preset id, or an inline HF model for
// the flavors torchtitan defines in code (debug models), or empty with `why` set.
struct FlavorModel {
  std::string preset;  // preset id, or empty
  json inline_model;   // HF fields when no preset holds this flavor (null otherwise)
  std::string note;    // how it was mapped
  // torchtitan builds this flavor's vision encoder into the model and trains it (qwen3_5,
  // kimi_k2_7's Kimi-VL and K2.5): its importer sets training.vision_tower "trained"; other
  // importers that map a checkpoint name to the flavor decide by the job's own flags.
  bool vision_trained = false;
};
FlavorModel ModelForFlavor(std::string_view name, std::string_view flavor, std::string_view hints,
                           const Presets& presets);

// "Qwen3-30B-A3B" → "30B-A3B", "Qwen3-14B/" → "14B": the size in a checkpoint directory's or
// hub id's name, or empty.
std::string SizeInName(const std::string& path);
// The model a checkpoint path or hub id names ("Qwen/Qwen3-4B-Instruct-2507",
// "./weights/Qwen3-14B/"): a preset named in it, else the torchtitan flavor of its family
// (`family_hint`, or the name before its size) and size; neither set when it names none.
FlavorModel ModelFromCheckpointName(const std::string& path, const std::string& family_hint,
                                    const Presets& presets);

// A device preset named in free text ("64 A100 GPUs", "910B", "H100"), or empty.
std::string DeviceFromText(std::string_view text);

// Importers, one per kind. Each adds to the builder; `files` holds every input (for `source`
// lines and registries split over files).
// A TOML that does not parse is not a job: its error (file:line, what) goes to `fatal`.
void ImportTorchtitanToml(const InputFile& file, Builder& b, const Presets& presets,
                          std::vector<Error>& fatal);
void ImportTorchtitanJson(const InputFile& file, const json& parsed, Builder& b,
                          const Presets& presets);
void ImportTorchtitanPython(const std::vector<const InputFile*>& files,
                            const ImportOptions& options, Builder& b, const Presets& presets,
                            std::vector<Error>& fatal);
// Adds to `fatal` when the script launches no training job (a data-conversion or checkpoint
// script): nothing to estimate.
void ImportMegatronScript(const InputFile& file, const std::vector<InputFile>& all, Builder& b,
                          const Presets& presets, std::vector<Error>& fatal);
// The Megatron importer from a launch already read into `script` (ImportMegatronScript reads
// the bash file first). Megatron-Bridge's YAML comes here as the Megatron arguments its keys set.
void ImportMegatronLaunch(const InputFile& file, const bash::Script& script,
                          const std::vector<InputFile>& all, Builder& b, const Presets& presets,
                          std::vector<Error>& fatal);
// Why a Megatron setting that was not read (a flag, or a snake_case config key) is left out:
// a hyper-parameter, I/O or logging setting, a kernel fusion, or "not modelled".
std::string UnreadMegatronSettingReason(const std::string& name);
// Megatron-Bridge (bridge_import.cpp): the resolved config `ConfigContainer.to_yaml` writes (a
// checkpoint's run_config.yaml, the log's "Task Configuration"), or an override YAML (a partial
// ConfigContainer: `model:`, `train:`, … sections), read alone: what it states.
bool IsMegatronBridgeYamlText(std::string_view text);
bool IsBridgeOverrideYamlText(std::string_view text);
void ImportMegatronBridgeYaml(const InputFile& file, Builder& b, const Presets& presets,
                              std::vector<Error>& fatal);
// A launch of a Megatron-Bridge or NeMo 2 job (bridge_launch.cpp): a recipe script or
// run_recipe.py with Hydra overrides, scripts/training/train.sh, the performance harness's
// setup_experiment.py, `nemo llm pretrain --factory`. The YAML it names (--config-file) is read
// from `all`.
bool IsBridgeLaunch(const bash::Script& script, const InputFile& file);
void ImportBridgeLaunch(const InputFile& file, const bash::Script& script,
                        const std::vector<InputFile>& all, Builder& b, const Presets& presets,
                        std::vector<Error>& fatal);
// A model's Megatron-LM arguments, one "    --flag value \\\n" line each (export.cpp).
void MegatronModelArgs(const ModelArch& m, std::ostringstream& o, std::vector<std::string>& u);
void ImportDeepspeedJson(const InputFile& file, const json& parsed, Builder& b);
// MindSpeed-LLM's FSDP2 trainer (train_fsdp2.py): from the script that launches it (the YAML it
// names is looked up in `all` by base name), or from the YAML alone.
void ImportFsdp2Launch(const InputFile& file, const bash::Script& script,
                       const std::vector<InputFile>& all, Builder& b, const Presets& presets,
                       std::vector<Error>& fatal);
void ImportFsdp2Yaml(const InputFile& file, Builder& b, const Presets& presets,
                     std::vector<Error>& fatal);
// The Hugging Face Trainer's jobs (DeepSpeed, or its own DDP / FSDP): a launch whose arguments
// are TrainingArguments (IsHfTrainerLaunch), or a flat YAML of them (LLaMA-Factory) or an
// accelerate config; the DeepSpeed JSON and accelerate config they name are read from `all`.
bool IsHfTrainerLaunch(const bash::Script& script, const std::vector<InputFile>& all);
void ImportHfTrainerLaunch(const InputFile& file, const bash::Script& script,
                           const std::vector<InputFile>& all, Builder& b, const Presets& presets,
                           std::vector<Error>& fatal);
void ImportHfTrainerYaml(const InputFile& file, const std::vector<InputFile>& all, Builder& b,
                         const Presets& presets, std::vector<Error>& fatal);
// torchtune recipe configs (torchtune_import.cpp); a `tune run` line in another given file, or
// in the YAML's own comments, gives the world size and recipe.
bool IsTorchtuneYamlText(std::string_view text);
void ImportTorchtuneYaml(const InputFile& file, const std::vector<InputFile>& all, Builder& b,
                         const Presets& presets, std::vector<Error>& fatal);
// A JSON file parsed with the importers' depth limit; errors name the file and line.
Result<json> ParseJsonInput(const InputFile& file);
// The files given, plus those the script writes from here-documents (a DeepSpeed JSON written
// with `cat > ds_config.json <<EOF`), which count as given.
std::vector<InputFile> WithWrittenFiles(const std::vector<InputFile>& all,
                                        const bash::Script& script);
// ms-swift (swift_import.cpp): a `swift …` launch without NPROC_PER_NODE runs one process; a
// process given several visible devices spreads its model over them (device_map), estimated as
// pipeline stages; Megatron-SWIFT's snake-case arguments and defaults as Megatron-LM's flags.
void SwiftDeviceMap(const InputFile& file, const bash::Script& script,
                    const std::vector<InputFile>& all, Builder& b);
// The processes an ms-swift launch starts: NPROC_PER_NODE (torchrun's 1 without it) × NNODES
// when either is in its environment (or its arguments file's ENV block), else 1; 0 when
// NPROC_PER_NODE holds no number.
long long SwiftWorldSize(const InputFile& file, const bash::Script& script,
                         const std::vector<InputFile>& all, Source& at);
std::vector<bash::Word> MegatronSwiftWords(const bash::Script& script,
                                           const std::vector<InputFile>& all, Builder& b);
// A note for ms-swift's task_type other than causal_lm (a narrow head, no vocabulary logits).
void SwiftTaskNote(const std::string& task, Builder& b);
// Preference stages (LLaMA-Factory's stage, ms-swift's rlhf_type) whose batches hold each
// pair's chosen and rejected sequences (TRL's concatenated forward): dpo, rm, orpo, simpo, cpo.
bool PairwiseStage(const std::string& stage);
// ms-swift's RL types that generate a completion after each prompt: grpo, ppo, gkd.
bool CompletionStage(const std::string& stage);
// ms-swift's mixed precision from torch_dtype (model_args.py _init_mixed_precision): "fp16" for
// float16 and float32, "bf16" for bfloat16 or none given (the checkpoint's, bf16 assumed), ""
// for anything else.
const char* SwiftMixedPrecision(const std::string& torch_dtype);
// The devices a launch script starts: torchrun's --nproc_per_node × --nnodes, else variables
// such as NPUS_PER_NODE × NNODES or WORLD_SIZE, else #SBATCH headers. 0 when none says.
long long LaunchWorldSize(const InputFile& file, const bash::Script& script, Source& source);

// The torchtitan job sections (TOML, resolved JSON and evaluated Python share them):
// {"model": {...}, "training": {...}, "parallelism": {...}, ...}. `lines` maps
// "section.key" to a line of `file` (0 when unknown).
// `overrides`: the sections are a command line's --section.key values over a job already read
// (the model is read only when they name it). `line_files`, when given, names the file of a
// line that is not in `file` (a Python recipe built from another file's recipe).
void ApplyTorchtitanSections(const json& sections, const std::map<std::string, int>& lines,
                             const std::string& file, Builder& b, const Presets& presets,
                             bool overrides = false,
                             const std::map<std::string, std::string>* line_files = nullptr);
// torchtitan launched from a shell (torchtitan_launch.cpp): run_train.sh, -m torchtitan.train.
bool IsTorchtitanLaunch(const bash::Script& script);
// The TOML or registry recipe the launch names (given among the files), then its overrides.
void ImportTorchtitanLaunch(const InputFile& file, const bash::Script& script,
                            const InputFile* toml, const std::vector<const InputFile*>& python,
                            const ImportOptions& options, Builder& b, const Presets& presets,
                            std::vector<Error>& fatal);

// Reads comments such as "preset for 64 A100 GPUs" / "128die" for the world size and device.
struct CommentHints {
  long long world_size = 0;
  int world_size_line = 0;
  std::string device;
  int device_line = 0;
  // A device a comment only guesses at ("likely H20", "A100 or H100?"): offered as the
  // assumption for the missing device, not read as the job's.
  std::string guessed_device;
};
CommentHints HintsFromComments(std::string_view text, char comment_char);
// A device count in a name: "128die", "16p", "64gpus", "8npu" (after '_', '-', '.' or the
// start, before a separator or the end). 0 when none.
long long WorldSizeFromName(std::string_view name);

}  // namespace trainmem::import_detail
