// Fuzz entries for the importers (src/core/import): each feeds the text as one file of its kind
// (the name selects the reader when the content is ambiguous) and checks that a config the
// importer calls valid is one ConfigFromJson accepts, estimates and exports back to every format.

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/import/bash_reader.h"
#include "core/import/import.h"
#include "core/import/python_lexer.h"
#include "data/builtin_presets.h"
#include "fuzz_entries.h"

namespace trainmem::fuzz {
namespace {

const Presets& ImportPresets() {
  static const Presets presets = BuiltinPresets();
  return presets;
}

void Import(const char* name, const std::uint8_t* data, std::size_t size,
            const std::vector<InputFile>& others = {}) {
  std::vector<InputFile> files = {{name, std::string(reinterpret_cast<const char*>(data), size)}};
  files.insert(files.end(), others.begin(), others.end());
  (void)DetectInputKind(files[0].name, files[0].text);
  const Result<ImportResult> r = ImportFiles(files, {}, ImportPresets());
  if (!r.ok()) return;
  (void)ImportReportToText(r.value().report);
  (void)ImportReportToJson(r.value().report).dump();
  (void)r.value().config.dump();
  if (!r.value().config_valid) return;
  const Result<Config> config = ConfigFromJson(r.value().config, ImportPresets());
  if (!config.ok()) {
    std::fprintf(stderr, "fuzz: broken promise: config_valid but ConfigFromJson refuses it\n");
    std::abort();
  }
  (void)EstimateMemory(config.value());
  for (ExportFormat f : {ExportFormat::kTorchtitanPython, ExportFormat::kTorchtitanToml,
                         ExportFormat::kMegatron, ExportFormat::kDeepspeed}) {
    (void)ExportConfig(config.value(), f);
  }
}

void FuzzImportToml(const std::uint8_t* d, std::size_t n) { Import("job.toml", d, n); }
void FuzzImportPython(const std::uint8_t* d, std::size_t n) {
  const std::string text(reinterpret_cast<const char*>(d), n);
  (void)py::Lex(text, "config_registry.py");
  Import("config_registry.py", d, n);
}
void FuzzImportShell(const std::uint8_t* d, std::size_t n) {
  const InputFile file{"pretrain_gpt.sh", std::string(reinterpret_cast<const char*>(d), n)};
  (void)bash::ReadScript(file, {});
  Import("pretrain_gpt.sh", d, n);
}
void FuzzImportDeepspeed(const std::uint8_t* d, std::size_t n) { Import("ds_config.json", d, n); }
// MindSpeed-LLM FSDP2 YAML: alone, and as the job file a train_fsdp2.py launch names.
void FuzzImportYaml(const std::uint8_t* d, std::size_t n) {
  Import("job.yaml", d, n);
  Import("job.yaml", d, n,
         {{"run.sh",
           "torchrun --nproc_per_node 8 train_fsdp2.py cfg/job.yaml --data.cutoff_len 64\n"}});
}

}  // namespace

void AppendImportTargets(std::vector<Target>& targets) {
  targets.push_back({"import_toml", FuzzImportToml});
  targets.push_back({"import_python", FuzzImportPython});
  targets.push_back({"import_shell", FuzzImportShell});
  targets.push_back({"import_deepspeed", FuzzImportDeepspeed});
  targets.push_back({"import_yaml", FuzzImportYaml});
}

}  // namespace trainmem::fuzz
