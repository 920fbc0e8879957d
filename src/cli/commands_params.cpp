// `trainmem params`: exact parameter counts of a config.json (HF) or a trainmem config.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/input_limits.h"
#include "core/model/model.h"
#include "core/report/report.h"

namespace trainmem::cli {

int RunParams(const Options& o, const Presets& presets, Output io) {
  ModelArch arch;
  std::string name;
  if (!o.model.empty()) {
    const ModelPreset* preset = presets.FindModel(o.model);
    if (preset == nullptr) {
      io.err << "trainmem: model: unknown preset '" << o.model << "' (see `trainmem presets`)\n";
      return 2;
    }
    arch = preset->arch;
    name = preset->name;
  } else {
    if (o.config_path.empty()) {
      io.err << "trainmem: params needs a config.json or --model ID\n";
      return 2;
    }
    std::string text;
    if (!ReadFile(o.config_path, text, io.err)) return 2;
    if (auto refused = CheckJsonInput(text, kMaxJsonTextBytes, "")) {
      io.err << "trainmem: " << o.config_path << ": " << refused->message << "\n";
      return 2;
    }
    nlohmann::json j = ParseJsonAllowingPythonFloats(text);
    if (j.is_discarded()) {
      io.err << "trainmem: " << o.config_path << ": not valid JSON\n";
      return 2;
    }
    if (!j.is_object()) {
      io.err << "trainmem: " << o.config_path << ": not a JSON object\n";
      return 2;
    }
    if (j.contains("model")) {  // a trainmem config: count its model
      bool reported = false;
      Result<Config> config = LoadConfig(o, presets, io.err, reported);
      if (!config.ok()) {
        if (!reported) PrintErrors(config.errors(), o.config_path, io.err);
        return 2;
      }
      arch = config.value().model;
      name = config.value().model_name;
    } else {  // a Hugging Face config.json
      Result<ModelArch> parsed = ParseModelArch(j, "");
      if (!parsed.ok()) {
        PrintErrors(parsed.errors(), o.config_path, io.err);
        return 2;
      }
      arch = parsed.value();
    }
  }
  // What the config describes, as the checkpoint stores it: MTP modules included when it lists
  // them (DESIGN: the hub's DeepSeek-V3 total, 684.5B, includes its MTP layer), a multimodal
  // config's vision tower too.
  const ParamCounts p = CountParams(arch, true);
  for (const std::string& warning : arch.warnings) io.err << "note: " << warning << "\n";
  if (o.format == "json") {
    nlohmann::json j = {{"total_params", p.total},
                        {"active_params", p.active},
                        {"dense_params", p.dense},
                        {"expert_params", p.expert},
                        {"embedding_params", p.embedding},
                        {"output_head_params", p.output_head},
                        {"mtp_params", p.mtp},
                        {"vision_params", p.vision},
                        {"stored_unused_params", p.stored_unused}};
    io.out << j.dump(2) << "\n";
    return 0;
  }
  if (!name.empty()) io.out << name << "\n";
  auto row = [&](const char* label, std::int64_t value) {
    io.out << fmt::format("  {:<18} {:>20}  ({})\n", label, value, FormatCount(value));
  };
  const std::pair<const char*, std::int64_t> rows[] = {
      {"total", p.total},           {"active per token", p.active}, {"dense", p.dense},
      {"routed experts", p.expert}, {"embedding", p.embedding},     {"output head", p.output_head},
      {"MTP modules", p.mtp}};
  for (const auto& [label, value] : rows) row(label, value);
  if (p.vision > 0) row("vision tower", p.vision);                     // multimodal models only
  if (p.stored_unused > 0) row("stored, not built", p.stored_unused);  // Gemma 4's shared k/v
  io.out << "  active = dense parameters + top-k routed experts per token, embeddings and head "
            "included"
         << (p.vision > 0 ? ", the vision tower not" : "") << "\n";
  return 0;
}

}  // namespace trainmem::cli
