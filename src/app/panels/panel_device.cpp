// Device: a preset combo (name and visible memory) or a custom name + memory, and the world size.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"

namespace app {
namespace {

using trainmem::DevicePreset;

std::vector<const DevicePreset*> SortedDevices(const trainmem::Presets& presets) {
  std::vector<const DevicePreset*> devices;
  for (const auto& entry : presets.devices) devices.push_back(&entry.second);
  std::sort(devices.begin(), devices.end(), [](const DevicePreset* a, const DevicePreset* b) {
    if (a->vendor != b->vendor) return a->vendor < b->vendor;
    if (a->memory_gib != b->memory_gib) return a->memory_gib < b->memory_gib;
    return a->name < b->name;
  });
  return devices;
}

std::string GiBText(double gib) { return TrFormat(Str::kGiBOneDecimal, gib); }

// A trailing "(64 GB)" / "(80GB, HBM3)" / "(custom)" group that names a size or says custom.
std::string WithoutMemoryInName(std::string name) {
  while (!name.empty() && name.back() == ' ') name.pop_back();
  const std::size_t open = name.rfind(" (");
  if (open != std::string::npos && name.back() == ')') {
    const std::string group = name.substr(open);
    if (group.find("GB") != std::string::npos || group.find("custom") != std::string::npos ||
        group.find(Tr(Str::kCustomWord)) != std::string::npos)
      name.erase(open);
  }
  // "NVIDIA H100 80GB …": a size word inside the name goes too.
  std::string out, word;
  auto flush = [&] {
    const std::size_t digits = word.find_first_not_of("0123456789");
    const bool size_word = digits > 0 && digits != std::string::npos && word.substr(digits) == "GB";
    if (!word.empty() && !size_word) out += (out.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : name) {
    if (c == ' ') {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

void DrawDeviceList(AppState& state) {
  const float right = ImGui::GetContentRegionMax().x;
  for (const DevicePreset* device : SortedDevices(state.presets)) {
    const bool selected = !state.custom_device.open && device->id == state.draft.device.id;
    ImGui::PushID(device->id.c_str());
    if (ImGui::Selectable(device->name.c_str(), selected)) SelectDevicePreset(state, device->id);
    if (selected) ImGui::SetItemDefaultFocus();
    const std::string memory = GiBText(device->memory_gib);
    ImGui::SameLine(right - ImGui::CalcTextSize(memory.c_str()).x);
    ImGui::TextDisabled("%s", memory.c_str());
    ImGui::PopID();
  }
  ImGui::Separator();
  if (ImGui::Selectable(Tr(Str::kCustomDeviceItem), state.custom_device.open)) {
    CustomDeviceEditor& editor = state.custom_device;
    editor.open = true;
    // "Huawei Ascend 910B (64 GB)" → "Huawei Ascend 910B (custom)": the memory is edited
    // below, so a size in the name would soon be wrong.
    const std::string name = TrFormat(Str::kCustomDeviceNameTemplate,
                                      WithoutMemoryInName(state.draft.device.name).c_str());
    std::snprintf(editor.name, sizeof(editor.name), "%s", name.c_str());
    editor.memory_gib = state.draft.device.memory_gib;
    RequestFrames(state);
  }
}

void DrawCustomDevice(AppState& state) {
  CustomDeviceEditor& editor = state.custom_device;
  bool changed = false;
  FormRow(Str::kDeviceName, "device.name");
  changed |= ImGui::InputText("##device_name", editor.name, sizeof(editor.name));
  FormRow(Str::kDeviceMemory, "device.memory_gib", Str::kDeviceMemoryHelp);
  changed |=
      ImGui::InputDouble("##device_memory", &editor.memory_gib, 0.0, 0.0, Tr(Str::kGiBOneDecimal));
  if (changed) UseCustomDevice(state, editor.name, editor.memory_gib);
}

// "Sold as 64 GB · 60.8 GiB visible to the framework".
void DrawDeviceNote(const AppState& state) {
  const DevicePreset* preset = state.presets.FindDevice(state.draft.device.id);
  if (preset == nullptr || state.custom_device.open) return;
  const std::string line =
      TrFormat(Str::kDeviceNoteTemplate, preset->nominal_memory_gb, preset->memory_gib);
  ImGui::PushStyleColor(ImGuiCol_Text, MutedTextColor());
  ImGui::TextUnformatted(line.c_str());
  ImGui::PopStyleColor();
  if (!preset->note.empty()) {  // the sources behind the figure: long, so on hover
    ImGui::SameLine();
    HelpMarker(preset->note.c_str());
  }
}

}  // namespace

void DrawDevicePanel(AppState& state) {
  if (!ImGui::CollapsingHeader(Tr(Str::kSectionDevice), ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushID("device");
  // The name and the memory the estimate uses: a custom device's name says "(custom)" itself.
  const std::string preview =
      state.draft.device.name + "  (" + GiBText(state.draft.device.memory_gib) + ")";
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::BeginCombo("##device", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
    DrawDeviceList(state);
    ImGui::EndCombo();
  }
  FieldErrors(state, "device");
  DrawDeviceNote(state);
  if (!state.framework_note.empty())
    TextColored(WarningColors().text, state.framework_note.c_str());
  if (BeginForm("device_form")) {
    if (state.custom_device.open) DrawCustomDevice(state);
    FormRow(Str::kWorldSize, "world_size", Str::kWorldSizeHelp);
    std::int64_t world = state.draft.world_size;
    if (InputCount("world_size", &world, Step::kDouble))
      EditField(state, "world_size", [&](auto& c) { c.world_size = world; });
    FieldErrors(state, "world_size");
    EndForm();
  }
  ImGui::PopID();
  ImGui::Spacing();
}

}  // namespace app
