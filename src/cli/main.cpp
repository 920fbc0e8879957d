// trainmem — the command-line front-end over the estimator core. `trainmem --help` lists the
// commands, `trainmem COMMAND --help` a command's options (command_line.cpp).
//
// Results go to stdout with exit code 0; errors to stderr with exit code 2.
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "data/builtin_presets.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const trainmem::Presets presets = trainmem::BuiltinPresets();
  return trainmem::cli::RunCommandLine(args, presets, {std::cout, std::cerr});
}
