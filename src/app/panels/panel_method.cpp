// Method: the framework recipe, template vs detailed mode, and the two overhead fractions.
#include <imgui.h>

#include "app/app_actions.h"
#include "app/app_explorer.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"

namespace app {
namespace {

using trainmem::Config;

void DrawFramework(AppState& state) {
  FormRow(Str::kFramework, "framework", Str::kFrameworkHelp);
  trainmem::Framework framework = state.draft.framework;
  const bool picked = EnumCombo("##framework", &framework, kFrameworkOptions);
  if (!ImGui::IsPopupOpen("##framework"))
    RecordRect(state, "framework_combo", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (picked) SelectFramework(state, framework);
  FieldErrors(state, "framework");
}

void DrawMode(AppState& state) {
  FormRow(Str::kMode, "mode", Str::kModeHelp);
  const bool detailed = state.draft.mode == trainmem::Mode::kDetailed;
  if (ImGui::RadioButton(Tr(Str::kModeDetailed), detailed) && !detailed) {
    EditDraft(state, [](Config& c) { c.mode = trainmem::Mode::kDetailed; });
  }
  Tooltip(Tr(Str::kModeDetailedHelp));
  ImGui::SameLine();
  if (ImGui::RadioButton(Tr(Str::kModeTemplate), !detailed) && detailed) {
    EditDraft(state, [](Config& c) { c.mode = trainmem::Mode::kTemplate; });
  }
  Tooltip(Tr(Str::kModeTemplateHelp));
  FieldErrors(state, "mode");
}

void DrawOverheads(AppState& state) {
  const auto& overhead = state.draft.overhead;
  FormRow(Str::kTemporaryFraction, "overhead.temporary_fraction", Str::kTemporaryFractionHelp);
  double temporary = overhead.temporary_fraction;
  if (InputPercent("##temporary", &temporary, 0, 50)) {
    EditDraft(state, [&](Config& c) { c.overhead.temporary_fraction = temporary; });
  }
  FieldErrors(state, "overhead.temporary_fraction");
  FormRow(Str::kBudgetFraction, "overhead.budget_fraction", Str::kBudgetFractionHelp);
  double budget = overhead.budget_fraction;
  if (InputPercent("##budget", &budget, 50, 100)) {
    EditDraft(state, [&](Config& c) { c.overhead.budget_fraction = budget; });
  }
  FieldErrors(state, "overhead.budget_fraction");
}

}  // namespace

void DrawMethodPanel(AppState& state) {
  if (!ImGui::CollapsingHeader(Tr(Str::kSectionMethod), ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushID("method");
  if (BeginForm("method_form")) {
    DrawFramework(state);
    DrawMode(state);
    DrawOverheads(state);
    EndForm();
  }
  FieldErrors(state, "overhead", false);
  ImGui::PopID();
  ImGui::Spacing();
}

}  // namespace app
