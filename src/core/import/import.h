// Importers: the files people run training jobs from, read (never executed) into a schema-v1
// config, with a report of what was read, ignored and is still missing.
//
//   torchtitan / torchtitan-npu: Python config registries (config_registry.py, torchtitan_recipes/)
//                                TOML job files (<= v0.2.2), the resolved config JSON it writes
//   Megatron-LM / MindSpeed-LLM: bash launch scripts (+ the model-args file they `source`)
//   DeepSpeed:                   the ds_config JSON (+ a Hugging Face config.json for the model)
//   MindSpeed-LLM FSDP2 trainer: the YAML job file (+ the script launching train_fsdp2.py)
//   Hugging Face Trainer:        a launch script with TrainingArguments or LLaMA-Factory's YAML
//                                (+ the DeepSpeed JSON it names, an accelerate config)
//   Megatron-Bridge / NeMo 2:    the resolved ConfigContainer YAML (run_config.yaml), an
//                                override YAML, a recipe launch with Hydra overrides
//                                (run_recipe.py, train.sh, recipe scripts, nemo llm pretrain)
//
// Every importer is a reader of text: no file is run, no path in a file is opened. Inputs are
// bounded (kMaxImportBytes, nesting depth) and every parser is linear in the input size.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config/config.h"
#include "core/model/presets.h"
#include "core/result.h"

namespace trainmem {

// One file as the user gave it: its name (used to detect the kind and to match `source`
// lines) and its text.
struct InputFile {
  std::string name;
  std::string text;
};

enum class InputKind {
  kUnknown,
  kTrainmemConfig,      // schema v1 (our own JSON)
  kHfConfig,            // a Hugging Face config.json: the model
  kTorchtitanToml,      // [job] [model] [training] [parallelism] ... job file
  kTorchtitanPython,    // config_registry.py / torchtitan_recipes: def f() -> Trainer.Config
  kTorchtitanJson,      // the resolved config torchtitan prints or saves as JSON
  kMegatronScript,      // bash launching pretrain_*.py / torchrun with Megatron arguments
  kDeepspeedJson,       // ds_config.json
  kFsdp2Yaml,           // MindSpeed-LLM FSDP2 trainer (train_fsdp2.py) YAML job file
  kTorchtuneYaml,       // torchtune recipe config (_component_ sections)
  kMegatronBridgeYaml,  // Megatron-Bridge's resolved ConfigContainer (run_config.yaml) or an
                        // override YAML (a partial one)
  kHfTrainerYaml,       // Hugging Face Trainer arguments as flat YAML (LLaMA-Factory), or an
                        // accelerate config
  kHfTrainerJson,       // Hugging Face Trainer arguments as JSON (HfArgumentParser's JSON file)
  kTrainingLog,         // a training log with memory lines (torchtitan, Megatron, DeepSpeed)
  kMemoryProfile,       // a JSON memory timeline or a pickled torch memory snapshot
};

const char* InputKindName(InputKind kind);  // "torchtitan TOML", "Megatron launch script", …
// True for kinds that describe a measurement (logs, profiles) rather than a job.
bool IsMeasurementKind(InputKind kind);

// Decides what a file is from its content first and its name second.
InputKind DetectInputKind(std::string_view name, std::string_view text);

// Files above this size are refused with an error (the page stays responsive on a 10 MB paste:
// detection looks at a bounded prefix, parsers are linear).
inline constexpr std::size_t kMaxImportBytes = 16u << 20;  // 16 MiB

// --- The report -----------------------------------------------------------------------------
struct ImportRead {      // a value taken from a file
  std::string key;       // the config key it set ("parallelism.tensor_parallel_degree")
  nlohmann::json value;  // as set in the config
  std::string source;    // as written in the file ("--tensor-model-parallel-size 8")
  std::string file;
  int line = 0;  // 1-based; 0 = not tied to one line
};

struct ImportIgnored {  // a key or argument seen and not used
  std::string key;
  std::string file;
  int line = 0;
  std::string reason;
};

struct ImportMissing {  // a value the files do not give: the page shows a field for it
  std::string key;      // config key ("model", "world_size", "model.vocab_size")
  std::string why;
  nlohmann::json assumed;  // the value used meanwhile so the config estimates (null = none)
  // `assumed` is what the files hint at (a comment names the accelerator), not a default: over
  // a page the hint is the files' (KeepPageValues), even when it is the default device.
  bool hinted = false;
};

struct ImportReport {
  std::vector<InputKind> kinds;  // per input file
  std::vector<ImportRead> read;
  std::vector<ImportIgnored> ignored;
  std::vector<ImportMissing> missing;
  std::vector<std::string> problems;   // inconsistencies: named, not trusted
  std::vector<std::string> notes;      // decisions taken (an `if` branch, a derived recipe, …)
  std::vector<std::string> functions;  // Python registries: the recipe functions found
  std::string function;                // the one imported
  // Files the job names that were not given, as written ("examples/deepspeed/ds_z3_config.json"):
  // a caller that can read files (the CLI) looks for them and imports again.
  std::vector<std::string> wanted_files;
};

// The prefix of a report problem that is one of the config's errors ("config: model: required…").
inline constexpr const char* kConfigProblemPrefix = "config: ";

struct ImportResult {
  nlohmann::json config;  // schema v1; missing values hold their `assumed` value
  ImportReport report;
  bool config_valid = false;            // ConfigFromJson accepted it
  std::vector<Error> config_errors;     // why not (also listed in report.problems, each after
                                        // kConfigProblemPrefix)
  std::vector<InputFile> measurements;  // logs/profiles given with the job (not imported here)
};

struct ImportOptions {
  std::string function;  // Python registries: the recipe to import (torchtitan's --config NAME)
};

// Reads one job from one or several files (a launch script + the model-args file it sources,
// a DeepSpeed JSON + a config.json, a recipe file + the registry it derives from). Fails only
// when no file holds a job or a file cannot be read at all; everything else is in the report.
Result<ImportResult> ImportFiles(const std::vector<InputFile>& files, const ImportOptions& options,
                                 const Presets& presets);

// --- Importing over the job a page shows ---------------------------------------------------
// A file often states only part of a job (a DeepSpeed JSON has no model, device or cluster size;
// a TOML with `data_parallel_shard_degree = -1` no world size). The page imports over the job it
// already shows, so what the files do not state keeps the page's value, not the import's
// assumption: the model, device, world size, local batch size, sequence length and activation
// checkpointing (and the torchtitan-npu framework, which reads torchtitan's files). A device the
// files hint at (a comment, torch_npu) is still the files'; a page value the rest of the files'
// layout cannot take (16 devices for TP 32) is not kept. The CLI has no page: it keeps its
// assumptions.
struct KeptValue {
  std::string key;         // config key ("world_size")
  nlohmann::json value;    // the page's value, now in result.config
  nlohmann::json instead;  // what the import alone used (its assumption, or null: the default)
};
// `page` is the page's config as JSON (ConfigToJson). Updates result.config, config_valid,
// config_errors (and the problems that list them), and each kept key's `missing` entry
// (assumed = the page's value).
std::vector<KeptValue> KeepPageValues(ImportResult& result, const nlohmann::json& page,
                                      const Presets& presets);

std::string ImportReportToText(const ImportReport& report);
nlohmann::json ImportReportToJson(const ImportReport& report);  // {"read", "ignored", "missing", …}

// --- Export back -----------------------------------------------------------------------------
enum class ExportFormat { kTorchtitanPython, kTorchtitanToml, kMegatron, kDeepspeed };
bool ParseExportFormat(std::string_view name,
                       ExportFormat& out);  // torchtitan|toml|megatron|deepspeed

struct ExportResult {
  std::string text;                   // the fragment
  std::vector<std::string> unmapped;  // settings the format has no place for, and why
};
ExportResult ExportConfig(const Config& config, ExportFormat format);

}  // namespace trainmem
