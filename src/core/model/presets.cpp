// Model and device presets: JSON files under presets/ (format in presets.h).
#include "core/model/presets.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <nlohmann/json.hpp>

#include "core/config/config_detail.h"
#include "core/input_limits.h"
#include "core/model/model_detail.h"

namespace trainmem {
namespace {

using model_detail::FieldReader;
using nlohmann::json;

// Ids appear in share links and file names: lowercase letters, digits, '.', '-'
// ("llama3.1-8b", "h100-80gb"), starting and ending with a letter or digit.
bool IsValidId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(id.front()) || !alnum(id.back())) return false;
  return std::all_of(id.begin(), id.end(),
                     [&](char c) { return alnum(c) || c == '-' || c == '.'; });
}

// The text as a JSON object, or an error; never throws (exceptions are off under Emscripten).
bool ParseObject(std::string_view text, json& out, std::vector<Error>& errors) {
  if (auto refused = CheckJsonInput(text, kMaxJsonTextBytes, "")) {
    errors.push_back(*refused);
    return false;
  }
  out = json::parse(text.begin(), text.end(), nullptr, false);
  if (out.is_discarded()) {
    errors.push_back({"", "not valid JSON"});
    return false;
  }
  if (!out.is_object()) {
    errors.push_back({"", "expected a JSON object, got " + detail::JsonTypeName(out)});
    return false;
  }
  return true;
}

std::string ReadId(FieldReader& f) {
  if (!f.Has("id")) {
    f.FailMissing("id");
    return "";
  }
  std::string id = f.String("id").value_or("");
  if (!id.empty() && !IsValidId(id)) {
    f.Fail("id", "\"" + id + "\" is not a valid id (lowercase letters, digits, '.' and '-')");
  }
  return id;
}

std::string RequiredString(FieldReader& f, std::string_view key) {
  if (!f.Has(key)) f.FailMissing(key);
  return f.String(key).value_or("");
}

// "presets/models/llama3-8b.json" → ("models", "llama3-8b"); empty parts when it does not fit.
std::pair<std::string, std::string> FolderAndStem(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash);
  const std::size_t dir_slash = dir.rfind('/');
  const std::string folder = dir_slash == std::string::npos ? dir : dir.substr(dir_slash + 1);
  const std::string ext = ".json";
  if (file.size() <= ext.size() || file.compare(file.size() - ext.size(), ext.size(), ext) != 0) {
    return {folder, ""};
  }
  return {folder, file.substr(0, file.size() - ext.size())};
}

template <class Preset>
void AddOne(const std::string& file, const std::string& stem, Result<Preset> parsed,
            std::map<std::string, Preset>& into, std::vector<Error>& errors) {
  if (!parsed.ok()) {
    for (const Error& e : parsed.errors()) {
      errors.push_back({e.path.empty() ? file : file + ":" + e.path, e.message});
    }
    return;
  }
  Preset preset = std::move(parsed).value();
  if (preset.id != stem) {
    errors.push_back({file + ":id", "id \"" + preset.id + "\" does not match the file name \"" +
                                        stem + ".json\""});
  } else if (into.count(preset.id) > 0) {
    errors.push_back({file + ":id", "duplicate id \"" + preset.id + "\""});
  } else {
    into.emplace(preset.id, std::move(preset));
  }
}

}  // namespace

const ModelPreset* Presets::FindModel(std::string_view id) const {
  auto it = models.find(std::string(id));
  return it == models.end() ? nullptr : &it->second;
}

const ModelPreset* Presets::FindModelNamedIn(std::string_view text) const {
  // Separators are dropped, but where one stood is kept: "qwen3_8b_4k" holds "qwen3-8b" since
  // a separator follows its "8b".
  std::string haystack;
  std::vector<bool> separator_after;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      haystack += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      separator_after.push_back(false);
    } else if (!separator_after.empty()) {
      separator_after.back() = true;
    }
  }
  const ModelPreset* best = nullptr;
  std::size_t best_length = 0;
  for (const auto& [id, preset] : models) {
    for (const std::string& needle :
         {detail::AlphanumericLower(id), detail::AlphanumericLower(preset.name)}) {
      if (needle.size() < 4 || needle.size() <= best_length) continue;
      for (std::size_t at = haystack.find(needle); at != std::string::npos;
           at = haystack.find(needle, at + 1)) {
        const std::size_t end = at + needle.size();
        const bool glued_after = end < haystack.size() && !separator_after[end - 1];
        const bool glued_before = at > 0 && !separator_after[at - 1];
        const bool digit_after =
            glued_after && std::isdigit(static_cast<unsigned char>(haystack[end]));
        const bool digit_before = at > 0 &&
                                  std::isdigit(static_cast<unsigned char>(haystack[at - 1])) &&
                                  std::isdigit(static_cast<unsigned char>(needle[0]));
        // A name glued to more letters is another model: "GLM-4.6V" is not glm-4.6 (a version
        // number followed by a letter), "recurrentgemma-2b" / "t5gemma-2b" are not gemma-2b.
        const bool letter_after = glued_after &&
                                  std::isdigit(static_cast<unsigned char>(needle.back())) &&
                                  std::isalpha(static_cast<unsigned char>(haystack[end]));
        const bool word_before =
            glued_before && std::isalpha(static_cast<unsigned char>(needle[0]));
        if (!digit_after && !digit_before && !letter_after && !word_before) {
          best = &preset;
          best_length = needle.size();
          break;
        }
      }
    }
  }
  return best;
}

const DevicePreset* Presets::FindDevice(std::string_view id) const {
  auto it = devices.find(std::string(id));
  return it == devices.end() ? nullptr : &it->second;
}

Result<ModelPreset> ParseModelPreset(std::string_view json_text) {
  std::vector<Error> errors;
  json j;
  if (!ParseObject(json_text, j, errors)) return Result<ModelPreset>::Failure(std::move(errors));
  // Unknown keys are errors (ReportUnknownKeys below): a typo would otherwise be ignored.
  FieldReader f(&j, "", errors, FieldReader::Null::kAbsent);
  ModelPreset p;
  p.id = ReadId(f);
  p.name = RequiredString(f, "name");
  p.family = f.String("family").value_or("");
  p.source = f.String("source").value_or("");
  constexpr std::int64_t kMaxNominal = 1000000000000000;  // 1e15 parameters
  p.nominal_params = f.Int("nominal_params", 0, kMaxNominal).value_or(0);
  p.nominal_expert_params = f.Int("nominal_expert_params", 0, p.nominal_params).value_or(0);
  const json* config = f.Get("config");
  if (config == nullptr) {
    f.FailMissing("config");
  } else {
    Result<ModelArch> arch = ParseModelArch(*config, "config");
    if (arch.ok()) {
      p.arch = std::move(arch).value();
    } else {
      errors.insert(errors.end(), arch.errors().begin(), arch.errors().end());
    }
  }
  f.ReportUnknownKeys();
  if (!errors.empty()) return Result<ModelPreset>::Failure(std::move(errors));
  return Result<ModelPreset>::Success(std::move(p));
}

Result<DevicePreset> ParseDevicePreset(std::string_view json_text) {
  std::vector<Error> errors;
  json j;
  if (!ParseObject(json_text, j, errors)) return Result<DevicePreset>::Failure(std::move(errors));
  FieldReader f(&j, "", errors, FieldReader::Null::kAbsent);
  DevicePreset d;
  d.id = ReadId(f);
  d.name = RequiredString(f, "name");
  d.vendor = f.String("vendor").value_or("");
  d.note = f.String("note").value_or("");
  if (!f.Has("memory_gib")) f.FailMissing("memory_gib");
  d.memory_gib = f.Number("memory_gib", 0.001, 1e6).value_or(0);
  d.nominal_memory_gb = f.Number("nominal_memory_gb", 0, 1e6).value_or(0);
  d.devices_per_node = f.Int("devices_per_node", 1, 1024).value_or(8);
  f.ReportUnknownKeys();
  if (!errors.empty()) return Result<DevicePreset>::Failure(std::move(errors));
  return Result<DevicePreset>::Success(std::move(d));
}

std::vector<Error> AddPresetFiles(Presets& presets,
                                  const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<Error> errors;
  for (const auto& [file, text] : files) {
    const auto [folder, stem] = FolderAndStem(file);
    if (stem.empty() || (folder != "models" && folder != "devices")) {
      errors.push_back({file,
                        "not a preset: expected presets/models/<id>.json or "
                        "presets/devices/<id>.json"});
    } else if (folder == "models") {
      AddOne(file, stem, ParseModelPreset(text), presets.models, errors);
    } else {
      AddOne(file, stem, ParseDevicePreset(text), presets.devices, errors);
    }
  }
  return errors;
}

}  // namespace trainmem
