// Model: a searchable preset combo (name, family, size), the architecture at a glance, and the
// entry to the custom-model editor.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <imgui.h>
#include <misc/cpp/imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include "app/app_actions.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

using trainmem::ModelPreset;

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text;
}

// Every space-separated word of the filter must appear in the id, name or family.
bool MatchesFilter(const ModelPreset& preset, const std::string& filter) {
  const std::string haystack = Lower(preset.id + " " + preset.name + " " + preset.family);
  std::size_t start = 0;
  const std::string needle = Lower(filter);
  while (start < needle.size()) {
    std::size_t end = needle.find(' ', start);
    if (end == std::string::npos) end = needle.size();
    if (end > start && haystack.find(needle.substr(start, end - start)) == std::string::npos)
      return false;
    start = end + 1;
  }
  return true;
}

// Family first, then size, so "Llama 3 8B" sits next to "Llama 3 70B".
std::vector<const ModelPreset*> SortedModels(const trainmem::Presets& presets) {
  std::vector<const ModelPreset*> models;
  for (const auto& entry : presets.models) models.push_back(&entry.second);
  std::sort(models.begin(), models.end(), [](const ModelPreset* a, const ModelPreset* b) {
    if (a->family != b->family) return a->family < b->family;
    if (a->nominal_params != b->nominal_params) return a->nominal_params < b->nominal_params;
    return a->name < b->name;
  });
  return models;
}

std::string PresetDetail(const ModelPreset& preset) {
  std::string size = preset.nominal_params > 0 ? NominalSize(preset.nominal_params) : "";
  if (preset.family.empty()) return size;
  return size.empty() ? preset.family : preset.family + " \xC2\xB7 " + size;
}

void OpenCustomEditor(AppState& state) {
  state.custom_model.open = true;
  state.custom_model.edited_json = trainmem::ModelArchToJson(state.draft.model).dump();
  state.custom_model.edit_errors.clear();
  RequestFrames(state);
}

// The list inside the open combo: filter box, matching presets, then "Custom model…".
void DrawModelList(AppState& state) {
  if (ImGui::IsWindowAppearing()) {
    state.model_filter.clear();
    ImGui::SetKeyboardFocusHere();
  }
  ImGui::SetNextItemWidth(-FLT_MIN);
  const bool enter =
      ImGui::InputTextWithHint("##filter", Tr(Str::kSearchModels), &state.model_filter,
                               ImGuiInputTextFlags_EnterReturnsTrue);
  const float detail_right = ImGui::GetContentRegionMax().x;
  for (const ModelPreset* preset : SortedModels(state.presets)) {
    if (!MatchesFilter(*preset, state.model_filter)) continue;
    const bool selected = !state.custom_model.open && preset->id == state.draft.model_id;
    ImGui::PushID(preset->id.c_str());
    if (ImGui::Selectable(preset->name.c_str(), selected) || enter) {
      SelectModelPreset(state, preset->id);
      ImGui::CloseCurrentPopup();
      ImGui::PopID();
      return;
    }
    if (selected) ImGui::SetItemDefaultFocus();
    const std::string detail = PresetDetail(*preset);
    ImGui::SameLine(detail_right - ImGui::CalcTextSize(detail.c_str()).x);
    ImGui::TextDisabled("%s", detail.c_str());
    ImGui::PopID();
  }
  ImGui::Separator();
  if (ImGui::Selectable(Tr(Str::kCustomModelItem), state.custom_model.open))
    OpenCustomEditor(state);
}

// "32 layers · hidden 4096 · 32 heads (8 KV) · vocab 128256 · 8 experts, top 2".
std::string ArchitectureLine(const trainmem::ModelArch& arch) {
  std::string line =
      TrFormat(Str::kArchLineTemplate, static_cast<long long>(arch.num_layers),
               static_cast<long long>(arch.hidden_size), static_cast<long long>(arch.num_heads),
               static_cast<long long>(arch.num_kv_heads), static_cast<long long>(arch.vocab_size));
  // Step-3.5: its sliding-window layers have their own query-head count.
  if (arch.sliding_heads > 0)
    line += TrFormat(Str::kArchSlidingHeadsTemplate, static_cast<long long>(arch.sliding_heads));
  if (arch.num_experts > 0) {
    line += TrFormat(Str::kArchMoeTemplate, static_cast<long long>(arch.num_experts),
                     static_cast<long long>(arch.experts_per_token));
  }
  return line;
}

}  // namespace

void DrawModelPanel(AppState& state) {
  if (!ImGui::CollapsingHeader(Tr(Str::kSectionModel), ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushID("model");
  const bool custom = state.custom_model.open || state.draft.model_id.empty();
  const std::string preview = ModelDisplayName(state.draft);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::BeginCombo("##model", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
    DrawModelList(state);
    ImGui::EndCombo();
  }
  Tooltip(Tr(Str::kModelComboHelp));
  FieldErrors(state, "model");
  if (state.draft.model.num_layers > 0) TextMuted(ArchitectureLine(state.draft.model).c_str());
  if (custom) {
    DrawCustomModelPanel(state);
  } else if (ImGui::SmallButton(Tr(Str::kEditArchitecture))) {
    OpenCustomEditor(state);
  }
  ImGui::PopID();
  ImGui::Spacing();
}

}  // namespace app
