// trainmem import FILE... [--config NAME] [--json]   the schema-v1 config on stdout, the report
//                                                    on stderr
// trainmem export CONFIG --format torchtitan|toml|megatron|deepspeed
//                                                    the fragment on stdout, what does not map
//                                                    on stderr
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/import/import.h"

namespace trainmem::cli {

using nlohmann::json;

namespace {

void PrintImportErrors(const std::vector<Error>& errors, std::ostream& err) {
  for (const Error& e : errors) err << "trainmem: " << FormatError(e) << "\n";
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
  Result<ImportResult> result = ImportFiles(files, options, presets);
  if (!result.ok()) {
    PrintImportErrors(result.errors(), io.err);
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
  Result<ImportResult> result = ImportFiles(files, {}, presets);
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
