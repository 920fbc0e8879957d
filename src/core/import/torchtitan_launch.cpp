// torchtitan started from a shell: `./run_train.sh` with CONFIG_FILE=… (a TOML job file, to
// early 2026) or MODULE=… CONFIG=… (a model's config registry and recipe, 2026), or
// `torchrun … -m torchtitan.train` with --job.config_file / --module --config. The TOML or
// recipe is the job; the command line's --section.key overrides apply on top of it, as
// torchtitan's config manager applies them (config/manager.py: the file, then the CLI).
#include <string>
#include <vector>

#include "core/import/bash_reader.h"
#include "core/import/import_detail.h"

namespace trainmem::import_detail {
namespace {

std::string LaunchVariable(const bash::Script& script, const char* name) {
  const auto it = script.launch_variables.find(name);
  return it == script.launch_variables.end() ? "" : it->second.value;
}

// "8" → 8, "0.5" → 0.5, "true"/"false" → a bool; a comma list for the list-valued keys;
// anything else as written.
json OverrideValue(const std::string& key, const std::string& text) {
  if (key == "components" || key == "converters" || key == "filter_fqns") {
    json list = json::array();
    std::string item;
    for (char ch : text + ",") {
      if (ch == ',') {
        if (!item.empty()) list.push_back(item);
        item.clear();
      } else if (ch != '[' && ch != ']' && ch != '"' && ch != '\'' && ch != ' ') {
        item += ch;
      }
    }
    return list;
  }
  if (const auto i = ParseInteger(text)) return *i;
  if (const auto d = ParseNumber(text)) return *d;
  if (const auto b = ParseBool(text)) return *b;
  return text;
}

struct Launch {
  std::string config_file;  // a TOML job file
  std::string module;       // a model family whose config_registry.py holds the recipe
  std::string recipe;       // the recipe function
  json overrides = json::object();
  std::map<std::string, int> lines;  // "section.key" → line of the launch
};

Launch ReadLaunch(const bash::Script& script) {
  Launch l;
  l.config_file = LaunchVariable(script, "CONFIG_FILE");
  l.module = LaunchVariable(script, "MODULE");
  l.recipe = LaunchVariable(script, "CONFIG");
  const std::vector<bash::Word>& args = script.args;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i].text;
    if (word.rfind("--", 0) != 0) continue;
    std::string flag = word.substr(2), value;
    bool has_value = false;
    if (const std::size_t eq = flag.find('='); eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
      has_value = true;
    } else if (i + 1 < args.size() && args[i + 1].text.rfind("--", 0) != 0) {
      value = args[++i].text;
      has_value = true;
    }
    for (char& ch : flag)
      if (ch == '-') ch = '_';  // tyro accepts --training.local-batch-size too
    if (flag == "job.config_file") {
      l.config_file = value;
      continue;
    }
    if (flag == "module") {
      l.module = value;
      continue;
    }
    if (flag == "config") {
      l.recipe = value;
      continue;
    }
    const std::size_t dot = flag.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == flag.size()) continue;
    const std::string section = flag.substr(0, dot);
    std::string key = flag.substr(dot + 1);
    json v = true;  // a bare flag: --compile.enable
    if (has_value) {
      v = OverrideValue(key, value);
    } else if (key.rfind("no_", 0) == 0) {  // tyro's negation: --compile.no-enable
      key = key.substr(3);
      v = false;
    }
    l.overrides[section][key] = v;
    l.lines[section + "." + key] = args[i].line;
  }
  return l;
}

}  // namespace

bool IsTorchtitanLaunch(const bash::Script& script) {
  if (!script.found_launch) return false;
  const std::string& program = script.program;
  if (program == "run_train.sh" || program == "torchtitan.train") return true;
  // torchtitan/train.py run as a script: the path names the package.
  for (const bash::Word& w : script.args)
    if (w.text.rfind("--job.config_file", 0) == 0) return true;
  return EndsWith(program, "train.py") && script.launcher.find("torchtitan") != std::string::npos;
}

void ImportTorchtitanLaunch(const InputFile& file, const bash::Script& script,
                            const InputFile* toml, const std::vector<const InputFile*>& python,
                            const ImportOptions& options, Builder& b, const Presets& presets,
                            std::vector<Error>& fatal) {
  const Launch l = ReadLaunch(script);
  const Source at{file.name, script.launch_line,
                  (script.launcher.empty() ? "" : script.launcher + " ") + script.program};
  // The job file: the TOML the launch names (matched by base name), else the one given; the
  // registry recipe CONFIG names, in the registry files given.
  if (toml != nullptr) {
    if (!l.config_file.empty() && BaseName(toml->name) != BaseName(l.config_file))
      b.Note(file.name + " names " + l.config_file + "; " + toml->name +
             " was given with it and is read as the job file");
    ImportTorchtitanToml(*toml, b, presets, fatal);
  } else if (!python.empty()) {
    ImportOptions recipe = options;
    if (!l.recipe.empty()) recipe.function = l.recipe;
    ImportTorchtitanPython(python, recipe, b, presets, fatal);
  } else {
    const std::string named = !l.config_file.empty() ? l.config_file
                              : !l.module.empty()
                                  ? "torchtitan/models/" + l.module + "/config_registry.py"
                                  : "";
    if (!named.empty()) b.Wants(named);
    b.Problem(file.name + ": the torchtitan job " + (named.empty() ? std::string("file") : named) +
              " was not given: only the command line's overrides are read (give it too)");
  }
  if (!l.overrides.empty())
    ApplyTorchtitanSections(l.overrides, l.lines, file.name, b, presets, /*overrides=*/true);
  // run_train.sh starts torchrun --nproc_per_node=${NGPU:-8} on one node.
  if (!b.Has("world_size")) {
    Source world_at;
    const long long launched = LaunchWorldSize(file, script, world_at);
    const std::string ngpu = LaunchVariable(script, "NGPU");
    if (launched > 0) {
      b.Set("world_size", launched, world_at);
    } else if (const auto n = ParseInteger(ngpu); n && *n > 0) {
      b.Set("world_size", *n, {file.name, script.launch_line, "NGPU=" + ngpu});
    } else if (script.program == "run_train.sh") {
      b.Set("world_size", 8, {file.name, script.launch_line, "run_train.sh: NGPU defaults to 8"});
    }
  }
  if (!b.Has("model"))
    b.Missing("model", "the torchtitan job file or recipe was not given; give it or pick a model",
              kDefaultModelId);
  if (!b.Has("framework")) b.Set("framework", "torchtitan", at);
  b.UseFile(file.name);
}

}  // namespace trainmem::import_detail
