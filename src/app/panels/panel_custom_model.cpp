// Custom model: the architecture's numeric and boolean HF config.json fields as a form, and a
// box to paste a whole config.json. Both go through the core (ParseModelArch, ApplySetting
// "model"), so whatever the core accepts from a file it accepts here.
#include <algorithm>
#include <string>
#include <vector>

#include <imgui.h>
#include <misc/cpp/imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include "app/app_actions.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "platform/platform.h"

namespace app {
namespace {

using nlohmann::json;

// The fields people change first, in the order config.json files usually list them; any other
// number or boolean the model has follows alphabetically.
constexpr const char* kLeadingFields[] = {
    "hidden_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "intermediate_size",
    "vocab_size",
    "max_position_embeddings",
    "tie_word_embeddings",
    "num_local_experts",
    "n_routed_experts",
    "num_experts",
    "num_experts_per_tok",
    "moe_intermediate_size",
    "n_shared_experts",
    "shared_expert_intermediate_size",
};

std::vector<std::string> FieldOrder(const json& arch) {
  std::vector<std::string> keys;
  for (const char* key : kLeadingFields) {
    if (arch.contains(key)) keys.emplace_back(key);
  }
  for (const auto& item : arch.items()) {
    const bool editable = item.value().is_number() || item.value().is_boolean();
    if (editable && std::find(keys.begin(), keys.end(), item.key()) == keys.end())
      keys.push_back(item.key());
  }
  return keys;
}

// One field; returns true when the user changed it.
bool DrawField(const std::string& key, json& value) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(key.c_str());
  ImGui::TableSetColumnIndex(1);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const std::string id = "##" + key;
  if (value.is_boolean()) {
    bool flag = value.get<bool>();
    if (!ImGui::Checkbox(id.c_str(), &flag)) return false;
    value = flag;
  } else if (value.is_number_integer()) {
    long long number = value.get<long long>();
    if (!ImGui::InputScalar(id.c_str(), ImGuiDataType_S64, &number, nullptr, nullptr, "%lld"))
      return false;
    value = number;
  } else {
    double number = value.get<double>();
    if (!ImGui::InputDouble(id.c_str(), &number, 0.0, 0.0, "%g")) return false;
    value = number;
  }
  return true;
}

void DrawArchitectureForm(AppState& state) {
  CustomModelEditor& editor = state.custom_model;
  json arch = json::parse(editor.edited_json, nullptr, false);
  if (arch.is_discarded() || !arch.is_object()) arch = json::object();
  if (!ImGui::BeginTable("arch", 2,
                         ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoSavedSettings))
    return;
  ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, Em(13));
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  bool changed = false;
  for (const std::string& key : FieldOrder(arch)) changed |= DrawField(key, arch[key]);
  ImGui::EndTable();
  if (changed) {
    editor.edited_json = arch.dump();
    UseCustomModel(state, editor.edited_json, &editor.edit_errors);
  }
  for (const auto& error : editor.edit_errors)
    TextColored(ErrorTextColor(), trainmem::FormatError(error).c_str());
}

void UsePastedConfig(AppState& state) {
  CustomModelEditor& editor = state.custom_model;
  editor.pasted_name.clear();  // a new paste names itself (or is a "Custom model")
  if (UseCustomModel(state, editor.hf_json_text, &editor.hf_errors)) {
    editor.edited_json = trainmem::ModelArchToJson(state.draft.model).dump();
    editor.edit_errors.clear();
    ShowFeedback(state, Tr(Str::kFeedbackConfigUsed));
  }
}

void DrawPasteBox(AppState& state) {
  CustomModelEditor& editor = state.custom_model;
  TextMuted(Tr(Str::kPasteConfigHelp));
  ImGui::InputTextMultiline("##hfjson", &editor.hf_json_text, ImVec2(-FLT_MIN, Em(6)),
                            ImGuiInputTextFlags_AllowTabInput);
  ImGui::BeginDisabled(editor.hf_json_text.empty());
  if (ImGui::Button(Tr(Str::kUseConfigJson))) UsePastedConfig(state);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(Tr(Str::kPasteFromClipboard))) {
    // The read completes later, from a browser promise: store the text and ask for frames.
    platform::ReadClipboard([&state](const std::string& text) {
      if (!text.empty()) state.custom_model.hf_json_text = text;
      RequestFrames(state);
    });
  }
  for (const auto& error : editor.hf_errors)
    TextColored(ErrorTextColor(), trainmem::FormatError(error).c_str());
}

}  // namespace

void DrawCustomModelPanel(AppState& state) {
  ImGui::PushID("custom_model");
  if (state.custom_model.edited_json.empty()) {
    state.custom_model.edited_json = trainmem::ModelArchToJson(state.draft.model).dump();
  }
  if (ImGui::TreeNodeEx(Tr(Str::kPasteConfigJson), ImGuiTreeNodeFlags_DefaultOpen)) {
    DrawPasteBox(state);
    ImGui::TreePop();
  }
  if (ImGui::TreeNodeEx(Tr(Str::kArchitectureFields), ImGuiTreeNodeFlags_DefaultOpen)) {
    DrawArchitectureForm(state);
    ImGui::TreePop();
  }
  if (ImGui::SmallButton(Tr(Str::kBackToPresets))) {
    state.custom_model.open = false;
    const std::string id = state.config.model_id.empty() ? "llama3-8b" : state.config.model_id;
    SelectModelPreset(state, id);
  }
  ImGui::PopID();
}

}  // namespace app
