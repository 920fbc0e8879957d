// The CLI's subcommands. Each returns the process exit code: 0 ok, 2 bad input.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/model/presets.h"
#include "core/result.h"

namespace trainmem::cli {

struct Output {
  std::ostream& out;
  std::ostream& err;
};

// Flags shared by the subcommands.
struct Options {
  std::string config_path;
  std::vector<std::string> extra_paths;  // files a job file needs (a sourced model-args file, …)
  std::string model, device, base = "index.html", format = "text";
  std::vector<std::pair<std::string, std::string>> settings;
  long limit = 20;
  std::string error;
};

Options ParseOptions(const std::vector<std::string>& args);  // sets .error on bad flags
int FailOptions(const Options& o, std::ostream& err);
void PrintErrors(const std::vector<Error>& errors, const std::string& where, std::ostream& err);
bool ReadFile(const std::string& path, std::string& text, std::ostream& err);

// The config from the file (or the defaults), then --model, --device and each --set in order.
// `reported` is set when the error was already printed.
Result<Config> LoadConfig(const Options& o, const Presets& presets, std::ostream& err,
                          bool& reported);

int RunEstimate(const std::vector<std::string>& args, const Presets& presets, Output io);
int RunParams(const std::vector<std::string>& args, const Presets& presets, Output io);
int RunPresets(const std::vector<std::string>& args, const Presets& presets, Output io);
int RunLink(const std::vector<std::string>& args, const Presets& presets, Output io);
int RunSearch(const std::vector<std::string>& args, const Presets& presets, Output io);
int RunCompare(const std::vector<std::string>& args, const Presets& presets, Output io);
int RunImport(const std::vector<std::string>& args, const Presets& presets, Output io);
int RunExport(const std::vector<std::string>& args, const Presets& presets, Output io);

// A torchtitan/Megatron/DeepSpeed job file (or an HF config.json) becomes its imported config
// text (commands_import.cpp); a trainmem config is left as is. False when it does not import.
bool ImportIfForeign(const std::string& path, const std::vector<std::string>& extra_paths,
                     std::string& text, const Presets& presets, std::ostream& err);

}  // namespace trainmem::cli
