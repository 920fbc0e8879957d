// trainmem — the command-line front-end over the estimator core.
//
//   trainmem estimate [CONFIG.json] [--model ID] [--device ID] [--set key=value]...
//   [--json|--markdown|--csv] trainmem params   CONFIG_OR_HF_CONFIG.json | --model ID [--json]
//   trainmem presets  [--json]
//   trainmem link     [CONFIG.json] [--set key=value]... [--base URL]
//
// Errors go to stderr with exit code 2; results to stdout with exit code 0.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "data/builtin_presets.h"

namespace {

void PrintUsage(std::ostream& out) {
  out << "usage:\n"
         "  trainmem estimate [CONFIG.json] [--model ID] [--device ID] [--set key=value]...\n"
         "                    [--json | --markdown | --csv]\n"
         "  trainmem params   CONFIG_OR_HF_CONFIG.json | --model ID [--json]\n"
         "  trainmem presets  [--json]\n"
         "  trainmem link     [CONFIG.json] [--model ID] [--set key=value]... [--base URL]\n"
         "  trainmem search   [CONFIG.json] [--model ID] [--set key=value]... [--json] [--limit "
         "N]\n"
         "  trainmem compare  CONFIG.json LOG... [--json] [--append calibration.jsonl [--id ID]]\n"
         "  trainmem import   FILE... [--config NAME] [--json]\n"
         "  trainmem export   CONFIG --format torchtitan|toml|megatron|deepspeed\n"
         "\n"
         "FILE may be a torchtitan TOML / Python registry / resolved JSON, a Megatron or\n"
         "MindSpeed launch script (+ the model file it sources), a DeepSpeed JSON (+ "
         "config.json);\n"
         "estimate, link and search accept these too.\n"
         "\n"
         "keys for --set are the config's dotted keys (parallelism.tensor_parallel_degree=8)\n"
         "or their short forms (tp=8, b=2, s=8192, ac=full, mode=template).\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    PrintUsage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  const trainmem::Presets presets = trainmem::BuiltinPresets();
  trainmem::cli::Output out{std::cout, std::cerr};
  if (command == "estimate") return trainmem::cli::RunEstimate(args, presets, out);
  if (command == "params") return trainmem::cli::RunParams(args, presets, out);
  if (command == "presets") return trainmem::cli::RunPresets(args, presets, out);
  if (command == "link") return trainmem::cli::RunLink(args, presets, out);
  if (command == "search") return trainmem::cli::RunSearch(args, presets, out);
  if (command == "compare") return trainmem::cli::RunCompare(args, presets, out);
  if (command == "import") return trainmem::cli::RunImport(args, presets, out);
  if (command == "export") return trainmem::cli::RunExport(args, presets, out);
  std::cerr << "trainmem: unknown command '" << command << "'\n";
  PrintUsage(std::cerr);
  return 2;
}
