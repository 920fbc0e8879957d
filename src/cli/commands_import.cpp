// trainmem import FILE... [--config NAME] [--json]   the schema-v1 config on stdout, the report
//                                                    on stderr
// trainmem export CONFIG --format torchtitan|toml|megatron|deepspeed
//                                                    the fragment on stdout, what does not map
//                                                    on stderr
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/import/import.h"

namespace trainmem::cli {

using nlohmann::json;

namespace {

void PrintImportErrors(const std::vector<Error>& errors, std::ostream& err) {
  for (const Error& e : errors) err << "trainmem: " << FormatError(e) << "\n";
}

// Where a file the job names may be on disk: as written (from the working directory, where
// the launch runs), then beside each given file and up to four directories above it (a
// LLaMA-Factory YAML under examples/train_full/ names examples/deepspeed/… from the repo root).
std::string FindNamedFile(const std::string& named, const std::vector<InputFile>& given) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto usable = [&](const fs::path& p) { return fs::is_regular_file(p, ec); };
  const fs::path wanted(named);
  if (usable(wanted)) return wanted.string();
  if (wanted.is_absolute()) return "";
  for (const InputFile& f : given) {
    fs::path dir = fs::path(f.name).parent_path();
    for (int up = 0; up <= 4; ++up) {
      const fs::path candidate = (dir.empty() ? fs::path(".") : dir) / wanted;
      if (usable(candidate)) return candidate.lexically_normal().string();
      if (dir.empty() || dir == dir.parent_path()) break;
      dir = dir.parent_path();
    }
  }
  return "";
}

// Imports `files`; when the job names files that were not given and they are on disk, reads
// them too (saying so on `err`) and imports again, once.
Result<ImportResult> ImportWithNamedFiles(std::vector<InputFile>& files,
                                          const ImportOptions& options, const Presets& presets,
                                          std::ostream& err) {
  Result<ImportResult> result = ImportFiles(files, options, presets);
  if (!result.ok()) return result;
  bool added = false;
  for (const std::string& named : result.value().report.wanted_files) {
    const std::string path = FindNamedFile(named, files);
    if (path.empty()) continue;
    const bool already = std::any_of(files.begin(), files.end(), [&](const InputFile& f) {
      return std::filesystem::path(f.name).filename() == std::filesystem::path(path).filename();
    });
    if (already) continue;
    InputFile f;
    f.name = path;
    if (!ReadFile(path, f.text, err)) continue;
    err << "trainmem: read " << path << " (named by the job as " << named << ")\n";
    files.push_back(std::move(f));
    added = true;
  }
  return added ? ImportFiles(files, options, presets) : result;
}

}  // namespace

int RunImport(const ImportRequest& request, const Presets& presets, Output io) {
  std::vector<InputFile> files;
  for (const std::string& path : request.files) {
    InputFile f;
    f.name = path;
    if (!ReadFile(path, f.text, io.err)) return 2;
    files.push_back(std::move(f));
  }
  if (files.empty()) {
    io.err << "trainmem: import needs at least one file\n";
    return 2;
  }
  ImportOptions options;
  options.function = request.function;
  Result<ImportResult> result = ImportWithNamedFiles(files, options, presets, io.err);
  if (!result.ok()) {
    PrintImportErrors(result.errors(), io.err);
    // --json promises one JSON object on stdout, a refused file included: what each file was
    // taken for and why it was refused.
    if (request.json) {
      json out = {{"config", nullptr},       {"valid", false},        {"kinds", json::array()},
                  {"errors", json::array()}, {"read", json::array()}, {"missing", json::array()}};
      for (const InputFile& f : files)
        out["kinds"].push_back(InputKindName(DetectInputKind(f.name, f.text)));
      for (const Error& e : result.errors())
        out["errors"].push_back({{"path", e.path}, {"message", e.message}});
      io.out << out.dump(2) << "\n";
    }
    return 2;
  }
  const ImportResult& r = result.value();
  io.err << ImportReportToText(r.report);
  for (const InputFile& m : r.measurements)
    io.err << "measurement file (not a job): " << m.name << "\n";
  if (request.json) {
    json out = ImportReportToJson(r.report);
    out["config"] = r.config;
    out["valid"] = r.config_valid;
    io.out << out.dump(2) << "\n";
  } else {
    io.out << r.config.dump(2) << "\n";
  }
  return r.config_valid ? 0 : 2;
}

// For `estimate`/`link`/`search FILE`: a job file of another kind becomes its imported config.
// Returns false (having printed why) when the file is a job file that does not import.
bool ImportIfForeign(const std::string& path, const std::vector<std::string>& extra_paths,
                     std::string& text, const Presets& presets, std::ostream& err) {
  const InputKind kind = DetectInputKind(path, text);
  if (kind == InputKind::kTrainmemConfig || kind == InputKind::kUnknown) {
    if (extra_paths.empty()) return true;
    err << "trainmem: unexpected argument '" << extra_paths.front() << "'\n";
    return false;
  }
  std::vector<InputFile> files{InputFile{path, text}};
  for (const std::string& extra : extra_paths) {
    InputFile f;
    f.name = extra;
    if (!ReadFile(extra, f.text, err)) return false;
    files.push_back(std::move(f));
  }
  Result<ImportResult> result = ImportWithNamedFiles(files, {}, presets, err);
  if (!result.ok()) {
    PrintImportErrors(result.errors(), err);
    return false;
  }
  const ImportResult& r = result.value();
  err << "trainmem: read " << path << " as a " << InputKindName(kind) << " ("
      << r.report.read.size() << " values read, " << r.report.missing.size() << " missing";
  for (const ImportMissing& m : r.report.missing)
    err << (&m == &r.report.missing.front() ? ": " : ", ") << m.key
        << (m.assumed.is_null() ? "" : " = " + m.assumed.dump() + " assumed");
  err << "; `trainmem import " << path << "` shows the full report)\n";
  for (const std::string& p : r.report.problems) err << "trainmem: " << path << ": " << p << "\n";
  text = r.config.dump();
  return true;
}

int RunExport(const ExportRequest& request, const Presets& presets, Output io) {
  ExportFormat format;
  if (!ParseExportFormat(request.format, format)) {
    io.err << "trainmem: export needs --format torchtitan|toml|megatron|deepspeed"
           << (request.format.empty() ? "" : ", not '" + request.format + "'") << "\n";
    return 2;
  }
  Options o;
  o.config_path = request.config_path;
  bool reported = false;
  Result<Config> config = LoadConfig(o, presets, io.err, reported);
  if (!config.ok()) {
    if (!reported) PrintErrors(config.errors(), o.config_path, io.err);
    return 2;
  }
  const ExportResult r = ExportConfig(config.value(), format);
  io.out << r.text;
  for (const std::string& u : r.unmapped) io.err << "not mapped: " << u << "\n";
  return 0;
}

}  // namespace trainmem::cli
