// Training: batch, sequence, precision, attention, loss chunks, dropout, MTP; activation
// checkpointing; torch.compile.
#include <functional>
#include <string>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"

namespace app {
namespace {

using trainmem::Config;

void DrawBatchAndSequence(AppState& state) {
  auto& t = state.draft.training;
  CountRow(state, Str::kLocalBatchSize, "training.local_batch_size", Str::kLocalBatchSizeHelp,
           t.local_batch_size, Step::kDouble,
           [](Config& c, std::int64_t v) { c.training.local_batch_size = v; });
  CountRow(state, Str::kSeqLen, "training.seq_len", Str::kSeqLenHelp, t.seq_len, Step::kDouble,
           [](Config& c, std::int64_t v) { c.training.seq_len = v; });
  CountRow(state, Str::kLossChunks, "training.loss_chunks", Str::kLossChunksHelp, t.loss_chunks,
           Step::kDouble, [](Config& c, std::int64_t v) { c.training.loss_chunks = v; });
  CountRow(state, Str::kLoraRank, "training.lora_rank", Str::kLoraRankHelp, t.lora_rank,
           Step::kDouble, [](Config& c, std::int64_t v) { c.training.lora_rank = v; });
  // QLoRA's base storage: shown for a LoRA job (or when a link or import set it).
  if (t.lora_rank > 0 || t.base_quantization != trainmem::BaseQuantization::kNone) {
    FormRow(Str::kBaseQuant, "training.base_quantization", Str::kBaseQuantHelp);
    trainmem::BaseQuantization quant = t.base_quantization;
    if (EnumCombo("##base_quantization", &quant, kBaseQuantOptions))
      EditDraft(state, [&](Config& c) { c.training.base_quantization = quant; });
    FieldErrors(state, "training.base_quantization");
  }
}

void DrawPrecision(AppState& state) {
  auto& t = state.draft.training;
  FormRow(Str::kPrecision, "training.mixed_precision_param", Str::kPrecisionHelp);
  trainmem::DType dtype = t.mixed_precision_param;
  if (EnumCombo("##precision", &dtype, kParamDTypeOptions)) {
    EditDraft(state, [&](Config& c) { c.training.mixed_precision_param = dtype; });
  }
  FieldErrors(state, "training.mixed_precision_param");
  TextMuted(Tr(PrecisionNote(state.draft)));
  CheckboxRow(state, Str::kFp8, "training.fp8", Str::kFp8Help, t.fp8,
              [](Config& c, bool v) { c.training.fp8 = v; });
  // torchtitan's NVFP4 converter (Blackwell only); shown wherever it is set, too.
  if (state.draft.framework == trainmem::Framework::kTorchtitan || t.nvfp4_layers != 0) {
    FormRow(Str::kNvfp4Layers, "training.nvfp4_layers", Str::kNvfp4LayersHelp);
    std::int64_t blocks = t.nvfp4_layers;
    const char* words = blocks == 0  ? Tr(Str::kNvfp4None)
                        : blocks < 0 ? Tr(Str::kNvfp4All)
                                     : nullptr;
    if (InputCount("nvfp4_layers", &blocks, Step::kOne, nullptr, words))
      EditField(state, "training.nvfp4_layers",
                [&](Config& c) { c.training.nvfp4_layers = blocks; });
    FieldErrors(state, "training.nvfp4_layers");
  }
  // training.dtype where a framework reads it (torchtitan; the Trainer without DeepSpeed); the
  // others keep their own master weights.
  if (trainmem::FrameworkHasFullBf16(state.draft.framework) || t.dtype != trainmem::DType::kFloat32)
    CheckboxRow(state, Str::kFullBf16, "training.dtype", Str::kFullBf16Help,
                t.dtype == trainmem::DType::kBFloat16, [](Config& c, bool v) {
                  c.training.dtype = v ? trainmem::DType::kBFloat16 : trainmem::DType::kFloat32;
                });
  FormRow(Str::kAttention, "training.attention", Str::kAttentionHelp);
  trainmem::AttentionImpl attention = t.attention;
  if (EnumCombo("##attention", &attention, kAttentionOptions)) {
    EditDraft(state, [&](Config& c) { c.training.attention = attention; });
  }
  FieldErrors(state, "training.attention");
  // A multimodal model's vision tower: shown when the model counts one (or a link set it).
  if (state.draft.model.vision_params > 0 || t.vision_tower != trainmem::VisionTower::kNone) {
    FormRow(Str::kVisionTower, "training.vision_tower", Str::kVisionTowerHelp);
    trainmem::VisionTower tower = t.vision_tower;
    if (EnumCombo("##vision_tower", &tower, kVisionTowerOptions))
      EditDraft(state, [&](Config& c) { c.training.vision_tower = tower; });
    FieldErrors(state, "training.vision_tower");
  }
  // DeepSeek-V3.2's indexer: its unfused scores are modelled for Megatron / MindSpeed only.
  if (state.draft.model.index_n_heads > 0 &&
      state.draft.framework == trainmem::Framework::kMegatron)
    CheckboxRow(state, Str::kDsaFused, "training.dsa_fused_kernels", Str::kDsaFusedHelp,
                t.dsa_fused_kernels, [](Config& c, bool v) { c.training.dsa_fused_kernels = v; });
}

// Dropout: unset means the framework's default (Megatron 0.1, the others none).
void DrawDropout(AppState& state) {
  auto& t = state.draft.training;
  FormRow(Str::kDropout, "training.dropout", Str::kDropoutHelp);
  bool use_default = !t.dropout.has_value();
  if (ImGui::Checkbox(Tr(Str::kFrameworkDefault), &use_default)) {
    EditDraft(state, [&](Config& c) {
      if (use_default)
        c.training.dropout.reset();
      else
        c.training.dropout = 0.1;
    });
  }
  if (t.dropout) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-FLT_MIN);
    float p = static_cast<float>(*t.dropout);
    if (ImGui::SliderFloat("##dropout", &p, 0.0f, 0.5f, "%.2f")) {
      EditDraft(state, [&](Config& c) { c.training.dropout = static_cast<double>(p); });
    }
  }
  FieldErrors(state, "training.dropout");
}

void DrawActivationCheckpoint(AppState& state) {
  auto& ac = state.draft.activation_checkpoint;
  FormRow(Str::kAcMode, "activation_checkpoint.mode", Str::kAcModeHelp);
  trainmem::AcMode mode = ac.mode;
  if (EnumCombo("##ac_mode", &mode, kAcModeOptions))
    EditDraft(state, [&](Config& c) { c.activation_checkpoint.mode = mode; });
  FieldErrors(state, "activation_checkpoint.mode");
  // Megatron's selective recompute is core attention (or --recompute-modules), with no layer
  // stride: the option is torchtitan's.
  if (ac.mode == trainmem::AcMode::kSelective &&
      state.draft.framework != trainmem::Framework::kMegatron) {
    static const char* const kOptions[] = {"op", "1", "2", "3", "4", "8"};
    FormRow(Str::kAcOption, "activation_checkpoint.selective_ac_option", Str::kAcOptionHelp);
    if (ImGui::BeginCombo("##ac_option", ac.selective_ac_option.c_str())) {
      for (const char* option : kOptions) {
        const std::string label =
            option[0] == 'o' ? TrFormat(Str::kAcOptionOp) : TrFormat(Str::kAcOptionEvery, option);
        if (ImGui::Selectable(label.c_str(), ac.selective_ac_option == option)) {
          EditDraft(state,
                    [option](Config& c) { c.activation_checkpoint.selective_ac_option = option; });
        }
      }
      ImGui::EndCombo();
    }
    FieldErrors(state, "activation_checkpoint.selective_ac_option");
  }
  // Megatron's --recompute-method block --recompute-num-layers: shown with full recompute.
  if (ac.mode == trainmem::AcMode::kFull) {
    FormRow(Str::kRecomputeNumLayers, "activation_checkpoint.recompute_num_layers",
            Str::kRecomputeNumLayersHelp);
    std::int64_t blocks = ac.recompute_num_layers;
    if (InputCount("recompute_num_layers", &blocks, Step::kOne, nullptr,
                   blocks == 0 ? Tr(Str::kNvfp4All) : nullptr))
      EditField(state, "activation_checkpoint.recompute_num_layers",
                [&](Config& c) { c.activation_checkpoint.recompute_num_layers = blocks; });
    FieldErrors(state, "activation_checkpoint.recompute_num_layers");
  }
  CheckboxRow(state, Str::kAcOffload, "activation_checkpoint.offload", Str::kAcOffloadHelp,
              ac.offload, [](Config& c, bool v) { c.activation_checkpoint.offload = v; });
  // MindSpeed's option: shown for Megatron on Ascend (MindSpeed-LLM), or wherever it is on (an
  // import or a link set it), so it can be turned off.
  if (trainmem::IsMindSpeed(state.draft.framework, state.draft.device) || ac.swap_attention)
    CheckboxRow(state, Str::kSwapAttention, "activation_checkpoint.swap_attention",
                Str::kSwapAttentionHelp, ac.swap_attention,
                [](Config& c, bool v) { c.activation_checkpoint.swap_attention = v; });
}

void DrawCompile(AppState& state) {
  const auto& compile = state.draft.compile;
  CheckboxRow(state, Str::kCompile, "compile.enable", Str::kCompileHelp, compile.enable,
              [](Config& c, bool v) { c.compile.enable = v; });
  if (!compile.enable) return;
  FormRow(Str::kCompileComponents, "compile.components", Str::kCompileComponentsHelp);
  bool model = compile.model;
  bool loss = compile.loss;
  if (ImGui::Checkbox(Tr(Str::kCompileModel), &model))
    EditDraft(state, [&](Config& c) { c.compile.model = model; });
  ImGui::SameLine();
  if (ImGui::Checkbox(Tr(Str::kCompileLoss), &loss))
    EditDraft(state, [&](Config& c) { c.compile.loss = loss; });
  FieldErrors(state, "compile");
}

}  // namespace

void DrawTrainingPanel(AppState& state) {
  if (!ImGui::CollapsingHeader(Tr(Str::kSectionTraining), ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushID("training");
  if (BeginForm("training_form")) {
    DrawBatchAndSequence(state);
    DrawPrecision(state);
    DrawDropout(state);
    if (state.draft.model.num_mtp_layers > 0) {
      CheckboxRow(state, Str::kMtp, "training.mtp", Str::kMtpHelp, state.draft.training.mtp,
                  [](Config& c, bool v) { c.training.mtp = v; });
    }
    EndForm();
  }
  ImGui::Spacing();
  SectionTitle(Str::kSectionActivationCheckpoint);
  if (BeginForm("ac_form")) {
    DrawActivationCheckpoint(state);
    DrawCompile(state);
    EndForm();
  }
  ImGui::PopID();
  ImGui::Spacing();
}

}  // namespace app
