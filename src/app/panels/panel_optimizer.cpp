// Optimizer: kind, state dtype, SGD momentum, swap_optimizer (+ slices), reuse_fp32_param,
// step-in-backward, offload.
#include <imgui.h>

#include "app/app_actions.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"

namespace app {
namespace {

using trainmem::Config;

void DrawKindAndDtype(AppState& state) {
  const auto& o = state.draft.optimizer;
  FormRow(Str::kOptimizer, "optimizer.name", Str::kOptimizerHelp);
  trainmem::OptimizerKind kind = o.name;
  if (EnumCombo("##optimizer", &kind, kOptimizerOptions))
    EditDraft(state, [&](Config& c) { c.optimizer.name = kind; });
  FieldErrors(state, "optimizer.name");
  FormRow(Str::kStateDtype, "optimizer.state_dtype", Str::kStateDtypeHelp);
  trainmem::DType dtype = o.state_dtype;
  if (EnumCombo("##state_dtype", &dtype, kStateDTypeOptions)) {
    EditDraft(state, [&](Config& c) { c.optimizer.state_dtype = dtype; });
  }
  FieldErrors(state, "optimizer.state_dtype");
  // estimate_params.cpp StateBytesPerElement: full bf16 torchtitan states follow the parameters.
  if (trainmem::FullBf16States(state.draft)) TextMuted(Tr(Str::kStateDtypeFullBf16));
  if (o.name == trainmem::OptimizerKind::kSgd) {
    FormRow(Str::kMomentum, "optimizer.momentum", Str::kMomentumHelp);
    float momentum = static_cast<float>(o.momentum);
    if (ImGui::SliderFloat("##momentum", &momentum, 0.0f, 0.99f, "%.2f")) {
      EditDraft(state, [&](Config& c) { c.optimizer.momentum = static_cast<double>(momentum); });
    }
    FieldErrors(state, "optimizer.momentum");
  }
  // torch.optim's step kernel (estimate_params.cpp StepImplementationTemp): Adam and AdamW on
  // the frameworks that step with torch.optim; Megatron has its own fused Adam. A value a link
  // or config set elsewhere stays visible.
  if (trainmem::StepKernelApplies(state.draft) ||
      o.implementation != trainmem::OptimizerImpl::kFused) {
    FormRow(Str::kStepImpl, "optimizer.implementation", Str::kStepImplHelp);
    trainmem::OptimizerImpl impl = o.implementation;
    if (EnumCombo("##step_impl", &impl, kStepImplOptions))
      EditDraft(state, [&](Config& c) { c.optimizer.implementation = impl; });
    FieldErrors(state, "optimizer.implementation");
  }
}

// swap_optimizer and optimizer offload are offered only where the framework has them
// (frameworks.cpp); one a link or config turned on elsewhere stays visible, with a note.
void DrawPlacement(AppState& state) {
  const auto& o = state.draft.optimizer;
  const auto framework = state.draft.framework;
  // MindSpeed's options (swap_optimizer, reuse_fp32_param) are Megatron's on Ascend only:
  // Megatron-LM on a GPU has neither.
  const bool mindspeed = trainmem::IsMindSpeed(framework, state.draft.device);
  const bool has_swap = trainmem::FrameworkHasSwapOptimizer(framework) &&
                        (framework != trainmem::Framework::kMegatron || mindspeed);
  const bool has_offload = trainmem::FrameworkHasOptimizerOffload(framework);
  if (has_swap || o.swap_optimizer) {
    CheckboxRow(state, Str::kSwapOptimizer, "optimizer.swap_optimizer", Str::kSwapOptimizerHelp,
                o.swap_optimizer, [](Config& c, bool v) { c.optimizer.swap_optimizer = v; });
    if (!has_swap)
      TextColored(WarningColors().text,
                  TrFormat(Str::kNotInFramework, Tr(FrameworkLabel(framework))).c_str());
  }
  if (o.swap_optimizer) {
    CountRow(state, Str::kSwapTimes, "optimizer.swap_optimizer_times", Str::kSwapTimesHelp,
             o.swap_optimizer_times, Step::kDouble,
             [](Config& c, std::int64_t v) { c.optimizer.swap_optimizer_times = v; });
  }
  // MindSpeed's --reuse-fp32-param: Megatron-based jobs only (estimate_params.cpp MegatronRecipe).
  if (mindspeed || o.reuse_fp32_param) {
    CheckboxRow(state, Str::kReuseFp32Param, "optimizer.reuse_fp32_param", Str::kReuseFp32ParamHelp,
                o.reuse_fp32_param, [](Config& c, bool v) { c.optimizer.reuse_fp32_param = v; });
    if (!mindspeed)
      TextColored(WarningColors().text,
                  TrFormat(Str::kNotInFramework, Tr(FrameworkLabel(framework))).c_str());
  }
  CheckboxRow(state, Str::kEarlyStep, "optimizer.early_step_in_backward", Str::kEarlyStepHelp,
              o.early_step_in_backward,
              [](Config& c, bool v) { c.optimizer.early_step_in_backward = v; });
  if (has_offload || o.offload) {
    CheckboxRow(state, Str::kOptimizerOffload, "optimizer.offload", Str::kOptimizerOffloadHelp,
                o.offload, [](Config& c, bool v) { c.optimizer.offload = v; });
    if (!has_offload)
      TextColored(WarningColors().text,
                  TrFormat(Str::kNotInFramework, Tr(FrameworkLabel(framework))).c_str());
  }
}

}  // namespace

void DrawOptimizerPanel(AppState& state) {
  if (!ImGui::CollapsingHeader(Tr(Str::kSectionOptimizer), ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushID("optimizer");
  if (BeginForm("optimizer_form")) {
    DrawKindAndDtype(state);
    DrawPlacement(state);
    EndForm();
  }
  FieldErrors(state, "optimizer", false);
  ImGui::PopID();
  ImGui::Spacing();
}

}  // namespace app
