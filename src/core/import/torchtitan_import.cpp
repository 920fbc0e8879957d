// torchtitan's three file generations → the shared section reader (torchtitan_sections.cpp):
// TOML job files through toml++, the resolved JSON, and Python registries through the reader in
// python_reader.cpp. Comments such as "# this toml config is a preset for 64 A100 GPUs" give
// the world size and device, which the files do not otherwise state.
#include <cstdio>
#include <functional>
#include <optional>
#include <string_view>

// toml++ checks its parser's invariants with TOML_ASSERT_ASSUME: assert() in debug builds and,
// under NDEBUG, __builtin_assume on clang (Emscripten's compiler), which makes a violated
// invariant undefined behaviour. One is violated by invalid input ('[' followed by '*', found by
// fuzz_import_toml: toml++ 3.3 asserts in parse_key before reporting the error it then reports).
// Its own error handling is what we rely on, so the checks are no-ops here: NDEBUG is lifted
// while toml++ is read, so the assume form is never chosen, and TOML_ASSERT does nothing.
#pragma push_macro("NDEBUG")
#undef NDEBUG
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>
#pragma pop_macro("NDEBUG")

#include "core/config/config_detail.h"
#include "core/import/import_detail.h"
#include "core/import/python_reader.h"

namespace trainmem::import_detail {
namespace {

constexpr int kMaxDepth = 64;

json TomlToJson(const toml::node& node, const std::string& path, std::map<std::string, int>& lines,
                int depth) {
  if (depth > kMaxDepth) return json("<nested too deeply>");
  lines[path] = static_cast<int>(node.source().begin.line);
  if (const toml::table* t = node.as_table()) {
    json out = json::object();
    for (const auto& [key, value] : *t) {
      const std::string k(key.str());
      out[k] = TomlToJson(value, path.empty() ? k : path + "." + k, lines, depth + 1);
    }
    return out;
  }
  if (const toml::array* a = node.as_array()) {
    json out = json::array();
    for (std::size_t i = 0; i < a->size(); ++i)
      out.push_back(TomlToJson(*a->get(i), path + "[" + std::to_string(i) + "]", lines, depth + 1));
    return out;
  }
  if (auto v = node.value<std::int64_t>(); v && node.is_integer()) return *v;
  if (node.is_floating_point()) return *node.value<double>();
  if (node.is_boolean()) return *node.value<bool>();
  if (node.is_string()) return *node.value<std::string>();
  std::ostringstream text;
  if (node.is_date())
    text << *node.as_date();
  else if (node.is_time())
    text << *node.as_time();
  else if (node.is_date_time())
    text << *node.as_date_time();
  return text.str();
}

// A comment describes where the file was written for ("this toml config is a preset for 64
// A100 GPUs"), not where it will run: its device count and accelerator are the assumptions
// for what the job file leaves out, reported as such for the reader to confirm.
void ApplyCommentHints(std::string_view text, char comment, const std::string& file, Builder& b) {
  const CommentHints hints = HintsFromComments(text, comment);
  if (hints.world_size > 0 && !b.Has("world_size"))
    b.Missing("world_size",
              "the job file does not set the number of devices; a comment (" + file + ":" +
                  std::to_string(hints.world_size_line) + ") says " +
                  std::to_string(hints.world_size),
              hints.world_size, true);
  if (!hints.device.empty() && !b.Has("device"))
    b.Missing("device",
              "the job file does not name the accelerator; a comment (" + file + ":" +
                  std::to_string(hints.device_line) + ") names it",
              hints.device, true);
}

// Lines of "key" occurrences for the resolved JSON: the first "section" then the key after it.
std::map<std::string, int> JsonLines(std::string_view text, const json& sections) {
  std::map<std::string, int> lines;
  if (!sections.is_object()) return lines;
  for (const auto& [section, body] : sections.items()) {
    const std::size_t at = text.find("\"" + section + "\"");
    if (at == std::string_view::npos) continue;
    lines[section] = LineOf(text, at);
    if (!body.is_object()) continue;
    for (const auto& [key, value] : body.items()) {
      const std::size_t k = text.find("\"" + key + "\"", at);
      if (k != std::string_view::npos) lines[section + "." + key] = LineOf(text, k);
    }
  }
  return lines;
}

// Values the recipe built share sub-objects (`b = Cfg(x=a, y=a)`), so the value is a graph
// whose tree can be exponentially larger than the file: 80 such lines made 2^80 nodes (the
// import ran out of memory). The conversion spends `budget` nodes at most (a real recipe has a
// few hundred).
constexpr long long kMaxConvertedNodes = 20000;

// `files` names the file of each line that is not the recipe's own (a recipe read from another
// file given with it: a base recipe, or one a converter wraps).
json PyToJson(const py::Ref& v, const std::string& path, std::map<std::string, int>& lines,
              std::map<std::string, std::string>& files, int depth, long long& budget) {
  if (!v) return nullptr;
  if (depth > kMaxDepth) return json{{"__opaque__", "nested too deeply"}};
  if (--budget < 0) return json{{"__opaque__", "too large to read"}};
  if (!path.empty() && v->line > 0) {
    lines[path] = v->line;
    files[path] = v->file;
  }
  switch (v->kind) {
    case py::Value::Kind::kNone:
      return nullptr;
    case py::Value::Kind::kBool:
      return v->b;
    case py::Value::Kind::kInt:
      return v->i;
    case py::Value::Kind::kFloat:
      return v->f;
    case py::Value::Kind::kStr:
      return v->s;
    case py::Value::Kind::kOpaque:
      return json{{"__opaque__", v->s}};
    case py::Value::Kind::kList: {
      json out = json::array();
      for (std::size_t i = 0; i < v->items.size(); ++i)
        out.push_back(PyToJson(v->items[i], path + "[" + std::to_string(i) + "]", lines, files,
                               depth + 1, budget));
      return out;
    }
    case py::Value::Kind::kObject: {
      json out = json::object();
      out["__class__"] = v->s;
      if (!v->items.empty()) {
        json args = json::array();
        for (const py::Ref& a : v->items)
          args.push_back(PyToJson(a, "", lines, files, depth + 1, budget));
        out["__args__"] = args;
      }
      for (const auto& [key, value] : v->attrs) {
        const std::string at = path.empty() ? key : path + "." + key;
        out[key] = PyToJson(value, at, lines, files, depth + 1, budget);
        // A literal carries no file of its own: it is in the file of the call it is passed to.
        if (const auto f = files.find(at); f != files.end() && f->second.empty())
          f->second = v->file;
      }
      return out;
    }
  }
  return nullptr;
}

// toml++ 3.3.0 (Debian 12) classifies a character it meets between tokens with
// impl::is_non_ascii_horizontal_whitespace (impl/unicode_autogenerated.h), whose generated
// switch has no case for U+00A1–U+0499 or U+FB36–U+FEFE and ends in TOML_UNREACHABLE: an 'é'
// after a value (`steps = 10 é`) is undefined behaviour natively and a trap that stops the page
// in WebAssembly (found by fuzz_import_toml). TOML 1.0 allows nothing but ASCII outside strings
// and comments, so such a character is an error either way: this pass finds the first one and
// the import reports it as toml++ would, before toml++ sees the text. It tracks only what decides
// "inside a string or comment" (# comments, "…" and '…' strings, their triple-quoted multi-line
// forms, backslash escapes in basic strings); for valid TOML that agrees with toml++, and on
// invalid TOML toml++ stops at the first error, so a disagreement after it is never examined.
// The characters the classifier does have cases for (U+00A0, U+1680, U+180E, U+2000–U+200B,
// U+202F, U+205F, U+2060, U+3000, U+FEFF: a leading byte-order mark among them) are left to
// toml++, which skips a byte-order mark and reports the others with its own message.
struct TomlCharacterProblem {
  int line = 0;
  std::string description;
};

bool TomlClassifierHandles(char32_t c) {
  return c == 0xA0 || c == 0x1680 || c == 0x180E || (c >= 0x2000 && c <= 0x200B) || c == 0x202F ||
         c == 0x205F || c == 0x2060 || c == 0x3000 || c == 0xFEFF;
}

std::optional<TomlCharacterProblem> FindCharacterOutsideStrings(std::string_view text) {
  enum class In { kValue, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral };
  In in = In::kValue;
  int line = 1;
  const auto starts = [&](std::size_t i, std::string_view s) {
    return text.compare(i, s.size(), s) == 0;
  };
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    if (ch == '\n') {
      ++line;
      if (in != In::kMultiBasic && in != In::kMultiLiteral) in = In::kValue;
      ++i;
      continue;
    }
    switch (in) {
      case In::kComment:
        ++i;
        continue;
      case In::kBasic:
      case In::kMultiBasic:
        if (ch == '\\') {
          i += (i + 1 < text.size() && text[i + 1] != '\n') ? 2 : 1;
          continue;
        }
        if (in == In::kBasic && ch == '"') in = In::kValue;
        if (in == In::kMultiBasic && starts(i, "\"\"\"")) {
          while (i < text.size() && text[i] == '"') ++i;  // up to two quotes end the content
          in = In::kValue;
          continue;
        }
        ++i;
        continue;
      case In::kLiteral:
      case In::kMultiLiteral:
        if (in == In::kLiteral && ch == '\'') in = In::kValue;
        if (in == In::kMultiLiteral && starts(i, "\'\'\'")) {
          while (i < text.size() && text[i] == '\'') ++i;
          in = In::kValue;
          continue;
        }
        ++i;
        continue;
      case In::kValue:
        break;
    }
    if (ch == '#') {
      in = In::kComment;
    } else if (ch == '"') {
      in = starts(i, "\"\"\"") ? In::kMultiBasic : In::kBasic;
      i += in == In::kMultiBasic ? 3 : 1;
      continue;
    } else if (ch == '\'') {
      in = starts(i, "\'\'\'") ? In::kMultiLiteral : In::kLiteral;
      i += in == In::kMultiLiteral ? 3 : 1;
      continue;
    } else if (static_cast<unsigned char>(ch) >= 0x80) {
      char32_t c = 0;
      const std::size_t length = trainmem::detail::Utf8SequenceAt(text, i, c);
      if (length == 0 || !TomlClassifierHandles(c)) {
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
        return TomlCharacterProblem{
            line, length == 0 ? std::string("a byte that is not UTF-8 outside a string or comment")
                              : "unexpected character '" + std::string(text.substr(i, length)) +
                                    "' (" + code + ") outside a string or comment"};
      }
      i += length;
      continue;
    }
    ++i;
  }
  return std::nullopt;
}

// toml++'s parse errors in a practitioner's words: "Error while parsing table header: expected
// ']', saw '\n'" becomes "in a table header: expected ']', found the end of the line". The
// phrases rewritten are toml++'s own (toml++ impl/parser.inl: "Error while parsing ",
// "saw '…'", "encountered end-of-file"); anything else is kept as toml++ wrote it. A basic string
// left open runs into the line's end, which toml++ reports as a forbidden control character.
std::string PlainTomlError(std::string text) {
  const auto replace_all = [&](std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  constexpr std::string_view kPrefix = "Error while parsing ";
  if (text.rfind(kPrefix, 0) == 0) {
    const std::size_t colon = text.find(':', kPrefix.size());
    if (colon != std::string::npos) {
      const std::string what = text.substr(kPrefix.size(), colon - kPrefix.size());
      const bool vowel =
          !what.empty() && std::string_view("aeiou").find(what[0]) != std::string_view::npos;
      const std::string article = what == "root table" ? "the " : vowel ? "an " : "a ";
      text = "in " + article + what + text.substr(colon);
    }
  }
  replace_all("saw '\\n'", "found the end of the line");
  replace_all("saw '\\r'", "found the end of the line");
  replace_all("saw end-of-file", "found the end of the file");
  replace_all("encountered end-of-file", "the file ends first");
  replace_all("saw '", "found '");
  if (text.find("in a string") == 0 && text.find("control characters") != std::string::npos)
    text += " (is a closing quote missing?)";
  return text;
}

bool IsTrainerClass(const std::string& cls) {
  return cls == "Trainer.Config" || cls == "TrainerConfig" || cls == "JobConfig" ||
         (cls.size() > 7 && cls.compare(cls.size() - 7, 7, ".Config") == 0 &&
          cls.find("Trainer") != std::string::npos);
}

}  // namespace

void ImportTorchtitanToml(const InputFile& file, Builder& b, const Presets& presets,
                          std::vector<Error>& fatal) {
  // A file that does not parse states nothing: its error is the import's, not an inconsistency
  // beside a config made of assumptions.
  if (const auto bad = FindCharacterOutsideStrings(file.text)) {
    fatal.push_back(
        {file.name + ":" + std::to_string(bad->line), "not valid TOML: " + bad->description});
    return;
  }
  toml::table table;
  try {
    table = toml::parse(std::string_view(file.text), file.name);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    fatal.push_back({file.name + ":" + std::to_string(where.line),
                     "not valid TOML: " + PlainTomlError(std::string(e.description()))});
    return;
  }
  std::map<std::string, int> lines;
  const json sections = TomlToJson(table, "", lines, 0);
  ApplyCommentHints(file.text, '#', file.name, b);
  ApplyTorchtitanSections(sections, lines, file.name, b, presets);
}

void ImportTorchtitanJson(const InputFile& file, const json& parsed, Builder& b,
                          const Presets& presets) {
  json sections = parsed;
  // print_config/save_config_file may wrap the config: {"config": {...}} / {"job_config": {...}}.
  for (const char* wrapper : {"config", "job_config", "trainer_config"})
    if (sections.is_object() && sections.contains(wrapper) && sections[wrapper].is_object() &&
        sections.size() == 1)
      sections = sections[wrapper];
  ApplyTorchtitanSections(sections, JsonLines(file.text, sections), file.name, b, presets);
}

void ImportTorchtitanPython(const std::vector<const InputFile*>& files,
                            const ImportOptions& options, Builder& b, const Presets& presets,
                            std::vector<Error>& fatal) {
  py::Program program;
  for (const InputFile* f : files) program.AddFile(f->name, f->text);
  ImportReport& report = b.report();
  std::string chosen = options.function;
  for (const py::Function& fn : program.functions())
    if (fn.is_recipe) report.functions.push_back(fn.name);
  if (chosen.empty()) {
    if (report.functions.empty()) {
      fatal.push_back({files.front()->name,
                       "no function returning a trainer config "
                       "(def name() -> Trainer.Config) in the file"});
      return;
    }
    chosen = report.functions.front();
    if (report.functions.size() > 1)
      b.Note(std::to_string(report.functions.size()) + " recipes found; imported the first, '" +
             chosen + "' (choose another with --config NAME)");
  } else {
    bool found = false;
    for (const py::Function& fn : program.functions()) found = found || fn.name == chosen;
    if (!found) {
      std::string names;
      for (const std::string& n : report.functions) names += (names.empty() ? "" : ", ") + n;
      fatal.push_back({"--config", "no function '" + chosen + "' in the files" +
                                       (names.empty() ? "" : "; recipes found: " + names)});
      return;
    }
  }
  report.function = chosen;
  const py::Ref root = program.Call(chosen);
  std::string file_name = files.front()->name;
  for (const py::Function& fn : program.functions())
    if (fn.name == chosen) file_name = fn.file;
  for (const py::Diagnostic& d : program.diagnostics())
    b.Ignore({d.file, d.line, "line " + std::to_string(d.line)}, d.message);
  if (!root || root->kind != py::Value::Kind::kObject) {
    std::string why;
    for (const py::Diagnostic& d : program.diagnostics())
      why += "; line " + std::to_string(d.line) + ": " + d.message;
    fatal.push_back({file_name, "recipe '" + chosen + "' does not return a config object" + why});
    return;
  }
  std::map<std::string, int> lines;
  std::map<std::string, std::string> line_files;
  long long budget = kMaxConvertedNodes;
  json sections = PyToJson(root, "", lines, line_files, 0, budget);
  // A recipe that passes another recipe's config through a converter
  // (graph_trainer: `config = to_graph_trainer_config(qwen3_14b(), model_registry)`, then
  // `config.compile = ...`): the inner config's settings, with what the wrapper's result sets
  // on top.
  if (const auto args = sections.find("__args__");
      !IsTrainerClass(sections["__class__"].get<std::string>()) && args != sections.end() &&
      args->is_array() && !args->empty() && (*args)[0].is_object() &&
      (*args)[0].contains("__class__") && (*args)[0]["__class__"].is_string() &&
      IsTrainerClass((*args)[0]["__class__"].get<std::string>())) {
    json inner = (*args)[0];
    const std::string wrapper = sections["__class__"].get<std::string>();
    for (const auto& [key, value] : sections.items())
      if (key != "__args__" && key != "__class__") inner[key] = value;
    sections = std::move(inner);
    b.Note("recipe '" + chosen + "' converts another recipe's config with " + wrapper +
           "(...): that recipe's settings are read, then what '" + chosen + "' sets");
    if (wrapper.find("graph_trainer") != std::string::npos)
      b.Note(
          "GraphTrainer (torchtitan experiments/graph_trainer) traces the whole training "
          "step; it is estimated as torchtitan's trainer with these settings (measured "
          "GraphTrainer runs of DeepSeek-V3 16B sat within −5…+16% of such estimates)");
  }
  const std::string cls = sections["__class__"].get<std::string>();
  std::string hints = chosen;
  for (const std::string& import : program.imports()) hints += " " + import;
  if (!IsTrainerClass(cls)) {
    b.Note("recipe '" + chosen + "' derives from '" + cls +
           "', defined in none of the files given: settings it does not override are "
           "torchtitan's defaults here (add the file that defines it to read them)");
    hints = cls + " " + hints;
  }
  for (const std::string& ext : program.external_calls()) hints += " " + ext;
  sections["__hints__"] = hints;
  // The module each imported name comes from: which family's model_registry a recipe calls when
  // a file imports several ("from torchtitan.models.gpt_oss import model_registry as
  // gpt_oss_model_registry").
  // The recipe's own file binds first; names only other files bind come after.
  json aliases = json::object();
  const auto& per_file = program.imported_names();
  if (const auto own = per_file.find(file_name); own != per_file.end())
    for (const auto& [bound, qualified] : own->second) aliases[bound] = qualified;
  for (const auto& [file, names] : per_file)
    for (const auto& [bound, qualified] : names)
      if (!aliases.contains(bound)) aliases[bound] = qualified;
  sections["__aliases__"] = aliases;
  if (IsTrainerClass(cls) && !sections.contains("activation_checkpoint")) {
    bool class_based = false;
    for (const InputFile* f : files)
      class_based = class_based || f->text.find("SelectiveAC") != std::string::npos ||
                    f->text.find("FullAC") != std::string::npos ||
                    f->text.find("num_tokens_per_microbatch") != std::string::npos;
    if (class_based) {
      const Source src{file_name, 0, "(not set: Trainer.Config defaults to SelectiveAC.Config)"};
      b.Set("activation_checkpoint.mode", "selective", src);
      b.Set("activation_checkpoint.selective_ac_option", "op", src);
    }
  }
  for (const InputFile* f : files) {
    if (f->text.find("torchtitan_npu") != std::string::npos)
      b.Set("framework", "torchtitan-npu", {f->name, 0, "imports torchtitan_npu"});
    // A registry holds many recipes: a comment about hardware speaks for the recipe it sits in
    // (deepseek_v3's mxfp8 recipe mentions B200 for its kernel), so only the file's header
    // (before its first def) and the chosen recipe's own lines are read for hints.
    int first_def = 0, begin = 0, end = 0;
    for (const py::Function& fn : program.functions()) {
      if (fn.file != f->name) continue;
      if (first_def == 0 || fn.line < first_def) first_def = fn.line;
      if (fn.name == chosen) begin = fn.line;
    }
    for (const py::Function& fn : program.functions())
      if (fn.file == f->name && begin > 0 && fn.line > begin && (end == 0 || fn.line < end))
        end = fn.line;
    std::string kept;
    int line = 1;
    for (std::size_t start = 0; start <= f->text.size();) {
      std::size_t stop = f->text.find('\n', start);
      if (stop == std::string::npos) stop = f->text.size();
      const bool header = first_def == 0 || line < first_def;
      const bool recipe = begin > 0 && line >= begin && (end == 0 || line < end);
      if (header || recipe) kept.append(f->text, start, stop - start);
      kept += '\n';
      start = stop + 1;
      ++line;
    }
    ApplyCommentHints(kept, '#', f->name, b);
  }
  ApplyTorchtitanSections(sections, lines, file_name, b, presets, /*overrides=*/false, &line_files);
}

}  // namespace trainmem::import_detail
