// The command line: CLI11 subcommands over the Run* functions of commands*.cpp.
//
// Mistakes in the command line itself (an unknown command or option, a missing or malformed
// value) go to stderr with exit code 2, like every other bad input, and name the option;
// `trainmem --help` and `trainmem COMMAND --help` go to stdout with exit code 0.
#include <algorithm>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.h"

namespace trainmem::cli {
namespace {

constexpr const char* kFilesNote =
    "FILE may be a trainmem config, a torchtitan TOML / Python registry / resolved JSON, a\n"
    "Megatron or MindSpeed launch script (+ the model file it sources), a MindSpeed-LLM FSDP2\n"
    "YAML (+ the script launching train_fsdp2.py), a Hugging Face Trainer / DeepSpeed launch\n"
    "script or LLaMA-Factory YAML (+ the DeepSpeed JSON it names, an accelerate config), an\n"
    "ms-swift script (`swift sft|pt|rlhf`, `megatron sft|pt|rlhf`), a torchtune recipe\n"
    "config (+ the script running `tune run`), or a DeepSpeed JSON (+ config.json); '-'\n"
    "reads standard input.\n";
constexpr const char* kSetNote =
    "Without a FILE the config is the defaults of --model (llama3-8b without --model).\n"
    "--set takes the config's dotted keys (parallelism.tensor_parallel_degree=8) or short forms\n"
    "(tp=8, b=2, s=8192, ac=full, mode=template; README lists them); settings apply together.\n";

// What the subcommands read. Only one subcommand runs, so they bind the same fields.
struct Flags {
  std::vector<std::string> paths, settings;
  std::string config;  // params and export read one file: a second is an unexpected argument
  std::string model, device, base = "index.html", append, id, source, function, format;
  bool json = false, markdown = false, csv = false;
  long limit = 20;
};

// A single-valued option: given twice, the last one counts (as a script that appends an
// override expects).
CLI::Option* AddValue(CLI::App* app, const std::string& name, std::string& into,
                      const std::string& type, const std::string& what) {
  return app->add_option(name, into, what)
      ->type_name(type)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

void AddConfigOptions(CLI::App* app, Flags& f, bool with_device) {
  AddValue(app, "--model", f.model, "ID", "model preset (trainmem presets)");
  if (with_device) AddValue(app, "--device", f.device, "ID", "device preset (trainmem presets)");
  app->add_option("--set", f.settings, "override one config key; repeatable")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false)  // one value per --set: a later word stays a FILE
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void AddFiles(CLI::App* app, Flags& f, const std::string& name, const std::string& what) {
  app->add_option(name, f.paths, what)->type_name("");
}

CLI::App* AddCommand(CLI::App& app, const std::string& name, const std::string& what) {
  CLI::App* sub = app.add_subcommand(name, what);
  sub->allow_extras();  // unknown options are reported below, in the old words
  return sub;
}

void BuildCommands(CLI::App& app, Flags& f) {
  CLI::App* estimate = AddCommand(app, "estimate", "per-device memory of a config, with advice");
  AddFiles(estimate, f, "FILE", "config or job file (+ the files it needs); '-': stdin");
  AddConfigOptions(estimate, f, true);
  estimate->add_flag("--json", f.json, "trainmem.estimate/v1 JSON");
  estimate->add_flag("--markdown", f.markdown, "a Markdown table to paste in a doc");
  estimate->add_flag("--csv", f.csv, "CSV, one row per stage and component");
  estimate->footer(std::string(kFilesNote) + kSetNote);

  CLI::App* params = AddCommand(app, "params", "exact parameter counts of a model");
  params->add_option("CONFIG", f.config, "a Hugging Face config.json or a trainmem config")
      ->type_name("");
  AddValue(params, "--model", f.model, "ID", "a model preset instead of a file");
  params->add_flag("--json", f.json, "JSON");

  CLI::App* presets = AddCommand(app, "presets", "list the model and device presets");
  presets->add_flag("--json", f.json, "JSON");

  CLI::App* link = AddCommand(app, "link", "the page's share link for a config");
  AddFiles(link, f, "FILE", "config or job file (+ the files it needs); '-': stdin");
  AddConfigOptions(link, f, true);
  AddValue(link, "--base", f.base, "URL", "where the page lives (default index.html)");
  link->footer(std::string(kFilesNote) + kSetNote);

  CLI::App* search = AddCommand(app, "search", "every parallel layout that fits, cheapest first");
  AddFiles(search, f, "FILE", "config or job file (+ the files it needs); '-': stdin");
  AddConfigOptions(search, f, true);
  search->add_flag("--json", f.json, "JSON instead of the table");
  search->add_option("--limit", f.limit, "show the N cheapest layouts (0: all; default 20)")
      ->type_name("N")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  search->footer(std::string(kFilesNote) + kSetNote);

  CLI::App* compare = AddCommand(app, "compare", "measured peaks of a run beside the estimate");
  AddFiles(compare, f, "FILE", "the run's CONFIG (none with --model), then its LOG files");
  AddConfigOptions(compare, f, true);
  compare->add_flag("--json", f.json, "trainmem.compare/v1 JSON");
  AddValue(compare, "--append", f.append, "FILE.jsonl", "add the pair as a calibration row");
  AddValue(compare, "--id", f.id, "ID", "the row's id (default compare-<first log's name>)");
  AddValue(compare, "--source", f.source, "TEXT", "the row's source (default the log paths)");
  compare->footer(
      "A LOG is a training log, nvidia-smi / npu-smi output, a torch.profiler memory timeline\n"
      "(.json) or an allocator snapshot (.pickle); README lists what is read from each.\n" +
      std::string(kSetNote));

  CLI::App* import = AddCommand(app, "import", "a job file's trainmem config (report on stderr)");
  AddFiles(import, f, "FILE", "job file(s) of one job; '-': stdin");
  AddValue(import, "--config,--function", f.function, "NAME",
           "the recipe of a torchtitan Python registry");
  import->add_flag("--json", f.json, "the config and the import report as JSON");
  import->footer(kFilesNote);

  CLI::App* export_ = AddCommand(app, "export", "a config as another framework's job fragment");
  export_->add_option("CONFIG", f.config, "a trainmem config; '-': stdin")->type_name("");
  AddValue(export_, "--format", f.format, "FORMAT", "torchtitan|toml|megatron|deepspeed");
}

// CLI11's words for a missing or unreadable value ("--model: 1 required ID missing", "Could not
// convert: --limit = many") in plainer ones; any other message as is. (Plain string search, not
// <regex>: libstdc++ 12's regex trips -Wmaybe-uninitialized in the sanitizer build.)
std::string Plain(const CLI::ParseError& e) {
  const std::string what = e.what();
  const std::string required = ": 1 required ", missing = " missing",
                    convert = "Could not convert: ";
  const std::size_t r = what.find(required);
  if (r != std::string::npos && what.size() >= r + required.size() + missing.size() &&
      what.compare(what.size() - missing.size(), missing.size(), missing) == 0) {
    const std::size_t type = r + required.size();
    return what.substr(0, r) + " needs a value (" +
           what.substr(type, what.size() - missing.size() - type) + ")";
  }
  const std::size_t eq = what.find(" = ");
  if (what.rfind(convert, 0) == 0 && eq != std::string::npos)
    return what.substr(convert.size(), eq - convert.size()) + " takes a whole number, not '" +
           what.substr(eq + 3) + "'";
  return what;
}

int Fail(const std::string& message, const std::string& command, std::ostream& err) {
  err << "trainmem: " << message << "\n"
      << "see `trainmem " << (command.empty() ? "" : command + " ") << "--help`\n";
  return 2;
}

// --set key=value pairs; "" when they all split, else the error.
std::string SplitSettings(const Flags& f, Options& o) {
  for (const std::string& kv : f.settings) {
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return "--set expects key=value, got '" + kv + "'";
    o.settings.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return "";
}

// Runs the parsed subcommand `name`. Errors in the arguments' values are reported here;
// errors in the files and the config by the Run* functions.
int Dispatch(const std::string& name, const Flags& f, const Presets& presets, Output io) {
  Options o;
  o.model = f.model;
  o.device = f.device;
  o.base = f.base;
  o.limit = f.limit;
  const std::string set_error = SplitSettings(f, o);
  if (!set_error.empty()) return Fail(set_error, name, io.err);
  if (f.json + f.markdown + f.csv > 1)
    return Fail("choose one of --json, --markdown and --csv", name, io.err);
  o.format = f.json ? "json" : f.markdown ? "markdown" : f.csv ? "csv" : "text";
  if (name == "compare") {
    CompareRequest r;
    r.logs = f.paths;
    if (f.model.empty() && !r.logs.empty()) {  // with --model every FILE is a log
      o.config_path = r.logs.front();
      r.logs.erase(r.logs.begin());
    }
    if (r.logs.empty())
      return Fail("compare needs a config and at least one log: trainmem compare CONFIG LOG...",
                  name, io.err);
    r.config = o;
    r.json = f.json;
    r.append = f.append;
    r.id = f.id;
    r.source = f.source;
    return RunCompare(r, presets, io);
  }
  if (name == "import") return RunImport({f.paths, f.function, f.json}, presets, io);
  if (name == "export") return RunExport({f.config, f.format}, presets, io);
  o.config_path = f.config;
  if (!f.paths.empty()) {
    o.config_path = f.paths.front();
    o.extra_paths.assign(f.paths.begin() + 1, f.paths.end());
  }
  if (name == "estimate") return RunEstimate(o, presets, io);
  if (name == "params") return RunParams(o, presets, io);
  if (name == "presets") return RunPresets(o, presets, io);
  if (name == "link") return RunLink(o, presets, io);
  return RunSearch(o, presets, io);
}

}  // namespace

int RunCommandLine(const std::vector<std::string>& args, const Presets& presets, Output io) {
  CLI::App app("trainmem: per-device memory of an LLM training job, before it runs", "trainmem");
  app.allow_extras();
  app.footer(std::string("\n") + kFilesNote + kSetNote +
             "Results go to stdout (exit code 0), errors to stderr (exit code 2).\n"
             "`trainmem COMMAND --help` lists a command's options.");
  Flags flags;
  BuildCommands(app, flags);

  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  const bool known = !args.empty() && std::count(names.begin(), names.end(), args[0]) > 0;
  if (args.empty()) {
    io.err << app.help();
    return 2;
  }
  if (args[0] == "help") {  // `trainmem help [COMMAND]`
    const bool about = args.size() > 1 && std::count(names.begin(), names.end(), args[1]) > 0;
    io.out << (about ? app.get_subcommand(args[1])->help("trainmem") : app.help());
    return 0;
  }
  if (!known && !args[0].empty() && args[0][0] != '-') {
    io.err << "trainmem: unknown command '" << args[0] << "'\n" << app.help();
    return 2;
  }

  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    io.out << app.help();  // the chosen subcommand's help when there is one
    return 0;
  } catch (const CLI::ParseError& e) {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    return Fail(Plain(e), chosen.empty() ? "" : chosen.front()->get_name(), io.err);
  }
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  const std::string name = chosen.empty() ? "" : chosen.front()->get_name();
  std::vector<std::string> extras = app.remaining();
  if (!chosen.empty()) {
    const std::vector<std::string> sub_extras = chosen.front()->remaining();
    extras.insert(extras.end(), sub_extras.begin(), sub_extras.end());
  }
  if (!extras.empty()) {
    const std::string& x = extras.front();
    return Fail(
        (x.size() > 1 && x[0] == '-' ? "unknown option '" : "unexpected argument '") + x + "'",
        name, io.err);
  }
  if (chosen.empty()) {
    io.err << app.help();
    return 2;
  }
  return Dispatch(name, flags, presets, io);
}

}  // namespace trainmem::cli
