// The CLI's subcommands. command_line.cpp reads the command line (CLI11) into the requests
// below; each Run* returns the process exit code: 0 ok, 2 bad input.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/config/config.h"
#include "core/model/presets.h"
#include "core/result.h"

namespace trainmem::cli {

struct Output {
  std::ostream& out;
  std::ostream& err;
};

// What estimate, params, presets, link and search read; compare reads it for its config.
struct Options {
  std::string config_path;               // "" = the defaults of --model (or llama3-8b); "-" = stdin
  std::vector<std::string> extra_paths;  // files a job file needs (a sourced model-args file, …)
  std::string model, device, base = "index.html", format = "text";
  std::vector<std::pair<std::string, std::string>> settings;  // --set key=value, in order
  long limit = 20;
};

struct CompareRequest {
  Options config;
  std::vector<std::string> logs;
  bool json = false;
  std::string append, id, source;  // --append FILE.jsonl, its row's id and source
};

struct ImportRequest {
  std::vector<std::string> files;
  std::string function;  // --config NAME: the recipe of a torchtitan Python registry
  bool json = false;
};

struct ExportRequest {
  std::string config_path, format;
};

// The whole command line after the program name: parses it and runs the subcommand.
int RunCommandLine(const std::vector<std::string>& args, const Presets& presets, Output io);

void PrintErrors(const std::vector<Error>& errors, const std::string& where, std::ostream& err);
// Reads a file, or standard input for "-" (once per process).
bool ReadFile(const std::string& path, std::string& text, std::ostream& err);

// The config from the file (or the defaults), then --model, --device and each --set in order.
// `reported` is set when the error was already printed.
Result<Config> LoadConfig(const Options& o, const Presets& presets, std::ostream& err,
                          bool& reported);

int RunEstimate(const Options& o, const Presets& presets, Output io);
int RunParams(const Options& o, const Presets& presets, Output io);
int RunPresets(const Options& o, const Presets& presets, Output io);
int RunLink(const Options& o, const Presets& presets, Output io);
int RunSearch(const Options& o, const Presets& presets, Output io);
int RunCompare(const CompareRequest& r, const Presets& presets, Output io);
int RunImport(const ImportRequest& r, const Presets& presets, Output io);
int RunExport(const ExportRequest& r, const Presets& presets, Output io);

// A torchtitan/Megatron/DeepSpeed job file (or an HF config.json) becomes its imported config
// text (commands_import.cpp); a trainmem config is left as is. False when it does not import.
bool ImportIfForeign(const std::string& path, const std::vector<std::string>& extra_paths,
                     std::string& text, const Presets& presets, std::ostream& err);

}  // namespace trainmem::cli
