// Parallelism: every degree, with the -1 "ranks left over" shown resolved (dp_shard = -1 → 8),
// the pipeline options when pp > 1, ZeRO for DeepSpeed/Megatron, and the resolved layout.
#include <string>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"

namespace app {
namespace {

using trainmem::Parallelism;

struct DegreeField {
  Str label;
  const char* key;
  Str help;
  std::int64_t Parallelism::*member;
  std::int64_t trainmem::Layout::*resolved;
  bool moe_only;
  bool allows_auto;  // -1 = the ranks the other degrees leave over
};

constexpr DegreeField kDegrees[] = {
    {Str::kDpReplicate, "parallelism.data_parallel_replicate_degree", Str::kDpReplicateHelp,
     &Parallelism::dp_replicate, &trainmem::Layout::dp_replicate, false, false},
    {Str::kDpShard, "parallelism.data_parallel_shard_degree", Str::kDpShardHelp,
     &Parallelism::dp_shard, &trainmem::Layout::dp_shard, false, true},
    {Str::kTensorParallel, "parallelism.tensor_parallel_degree", Str::kTensorParallelHelp,
     &Parallelism::tp, &trainmem::Layout::tp, false, false},
    {Str::kPipelineParallel, "parallelism.pipeline_parallel_degree", Str::kPipelineParallelHelp,
     &Parallelism::pp, &trainmem::Layout::pp, false, false},
    {Str::kContextParallel, "parallelism.context_parallel_degree", Str::kContextParallelHelp,
     &Parallelism::cp, &trainmem::Layout::cp, false, false},
    {Str::kExpertParallel, "parallelism.expert_parallel_degree", Str::kExpertParallelHelp,
     &Parallelism::ep, &trainmem::Layout::ep, true, false},
    {Str::kExpertTensorParallel, "parallelism.expert_tensor_parallel_degree",
     Str::kExpertTensorParallelHelp, &Parallelism::etp, &trainmem::Layout::etp, true, false},
};

void DrawDegree(AppState& state, const DegreeField& field,
                const trainmem::Result<trainmem::Layout>& layout) {
  // Megatron and DeepSpeed have one data-parallel group: no FSDP shard degree to name; the
  // sharding is the distributed optimizer's / ZeRO stage's.
  const auto fw = state.draft.framework;
  const bool one_group =
      field.member == &Parallelism::dp_shard &&
      (fw == trainmem::Framework::kMegatron || fw == trainmem::Framework::kDeepspeed);
  FormRow(one_group ? Str::kDataParallelOne : field.label, field.key,
          one_group ? Str::kDataParallelOneHelp : field.help);
  std::int64_t value = state.draft.parallelism.*field.member;
  // -1 is "the devices the other degrees leave over": said in words, with what it resolves to.
  std::string words;
  if (value < 0) {
    words = layout.ok() ? TrFormat(Str::kTheRestTemplate,
                                   static_cast<long long>(layout.value().*field.resolved))
                        : std::string(Tr(Str::kTheRest));
  }
  const Step step = field.allows_auto ? Step::kDoubleOrAuto : Step::kDouble;
  if (InputCount(field.key, &value, step, nullptr, words.empty() ? nullptr : words.c_str())) {
    EditField(state, field.key, [&](trainmem::Config& c) { c.parallelism.*field.member = value; });
  }
  FieldErrors(state, field.key);
}

void DrawPipelineOptions(AppState& state) {
  Parallelism& p = state.draft.parallelism;
  FormRow(Str::kPpMicrobatch, "parallelism.pipeline_parallel_microbatch_size",
          Str::kPpMicrobatchHelp);
  std::int64_t microbatch = p.pp_microbatch_size;
  if (InputCount("pp_microbatch", &microbatch, Step::kDouble)) {
    EditField(state, "parallelism.pipeline_parallel_microbatch_size",
              [&](trainmem::Config& c) { c.parallelism.pp_microbatch_size = microbatch; });
  }
  FieldErrors(state, "parallelism.pipeline_parallel_microbatch_size");
  FormRow(Str::kPpSchedule, "parallelism.pipeline_parallel_schedule", Str::kPpScheduleHelp);
  trainmem::PpSchedule schedule = p.pp_schedule;
  if (EnumCombo("##pp_schedule", &schedule, kPpScheduleOptions)) {
    EditDraft(state, [&](trainmem::Config& c) { c.parallelism.pp_schedule = schedule; });
  }
  FieldErrors(state, "parallelism.pipeline_parallel_schedule");
  FormRow(Str::kPpLayersPerStage, "parallelism.pipeline_parallel_layers_per_stage",
          Str::kPpLayersPerStageHelp);
  std::int64_t layers = p.pp_layers_per_stage;
  if (InputCount("pp_layers", &layers, Step::kOne, nullptr,
                 layers == 0 ? Tr(Str::kEvenSplit) : nullptr)) {
    EditField(state, "parallelism.pipeline_parallel_layers_per_stage",
              [&](trainmem::Config& c) { c.parallelism.pp_layers_per_stage = layers; });
  }
  FieldErrors(state, "parallelism.pipeline_parallel_layers_per_stage");
  // Megatron's option of the interleaved schedule; shown wherever it is set, too.
  if (p.pp_schedule != trainmem::PpSchedule::kInterleaved1F1B && p.vp_microbatch_group == 0) return;
  FormRow(Str::kVpMicrobatchGroup, "parallelism.microbatch_group_size_per_vp_stage",
          Str::kVpMicrobatchGroupHelp);
  std::int64_t group = p.vp_microbatch_group;
  if (InputCount("vp_group", &group, Step::kOne, nullptr,
                 group == 0 ? Tr(Str::kVpMicrobatchGroupDefault) : nullptr)) {
    EditField(state, "parallelism.microbatch_group_size_per_vp_stage",
              [&](trainmem::Config& c) { c.parallelism.vp_microbatch_group = group; });
  }
  FieldErrors(state, "parallelism.microbatch_group_size_per_vp_stage");
}

// torchtitan's EP token dispatcher: shown for an MoE model under torchtitan / torchtitan-npu once
// EP is on, and wherever it is set (so a link or import that sets it shows it).
void DrawEpDispatcher(AppState& state) {
  const Parallelism& p = state.draft.parallelism;
  const bool titan = trainmem::IsTorchtitanFramework(state.draft.framework);
  const bool moe = state.draft.model.num_experts > 0;
  if (p.ep_comm_backend == trainmem::EpCommBackend::kStandard && !(titan && moe && p.ep > 1))
    return;
  FormRow(Str::kEpComm, "parallelism.expert_parallel_comm_backend", Str::kEpCommHelp);
  trainmem::EpCommBackend backend = p.ep_comm_backend;
  if (EnumCombo("##ep_comm", &backend, kEpCommOptions))
    EditDraft(state, [&](trainmem::Config& c) { c.parallelism.ep_comm_backend = backend; });
  FieldErrors(state, "parallelism.expert_parallel_comm_backend");
}

void DrawZeroStage(AppState& state) {
  static const char* const kStages[] = {"0", "1", "2", "3"};
  FormRow(Str::kZeroStage, "parallelism.zero_stage", Str::kZeroStageHelp);
  const auto& stage = state.draft.parallelism.zero_stage;
  const char* preview = stage ? kStages[*stage & 3] : Tr(Str::kFrameworkDefault);
  if (ImGui::BeginCombo("##zero", preview)) {
    if (ImGui::Selectable(Tr(Str::kFrameworkDefault), !stage)) {
      EditDraft(state, [](trainmem::Config& c) { c.parallelism.zero_stage.reset(); });
    }
    for (int i = 0; i < 4; ++i) {
      if (ImGui::Selectable(kStages[i], stage && *stage == i)) {
        EditDraft(state, [i](trainmem::Config& c) { c.parallelism.zero_stage = i; });
      }
    }
    ImGui::EndCombo();
  }
  FieldErrors(state, "parallelism.zero_stage");
}

// "dp_replicate 1 × dp_shard 8 × cp 1 × tp 1 × pp 1 = 8 ranks". While the draft is invalid the
// last valid layout's line stays, greyed, so the rows below do not move under the pointer.
void DrawResolvedLayout(const AppState& state, const trainmem::Result<trainmem::Layout>& layout) {
  const bool stale = !layout.ok();
  const trainmem::Config& config = stale ? state.config : state.draft;
  const auto shown = stale ? trainmem::ResolveLayout(config) : layout;
  if (!shown.ok()) return;
  const trainmem::Layout& l = shown.value();
  const bool one_group = config.framework == trainmem::Framework::kMegatron ||
                         config.framework == trainmem::Framework::kDeepspeed;
  std::string text =
      one_group ? TrFormat(Str::kLayoutLineOneGroupTemplate,
                           static_cast<long long>(l.dp_replicate * l.dp_shard),
                           static_cast<long long>(l.cp), static_cast<long long>(l.tp),
                           static_cast<long long>(l.pp), static_cast<long long>(config.world_size))
                : TrFormat(Str::kLayoutLineTemplate, static_cast<long long>(l.dp_replicate),
                           static_cast<long long>(l.dp_shard), static_cast<long long>(l.cp),
                           static_cast<long long>(l.tp), static_cast<long long>(l.pp),
                           static_cast<long long>(config.world_size));
  if (config.model.num_experts > 0) {
    text += TrFormat(Str::kLayoutMoeTemplate, static_cast<long long>(l.ep),
                     static_cast<long long>(l.etp));
  }
  if (stale) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.45f);
  TextMuted(text.c_str());
  if (stale) ImGui::PopStyleVar();
}

// Why more PP can need more memory: torchtitan does not reshard a stage's parameters after
// forward when PP is on (estimate_params.cpp, reshard_after_forward = not pp), so each device
// holds its whole stage's weights unsharded through all microbatches.
void DrawPipelineNote(const AppState& state, const trainmem::Result<trainmem::Layout>& layout) {
  const auto framework = state.draft.framework;
  if (state.draft.parallelism.pp <= 1 || !layout.ok() || layout.value().dp_shard <= 1) return;
  if (state.draft.parallelism.fsdp_reshard_after_forward != trainmem::ReshardPolicy::kDefault &&
      state.draft.parallelism.fsdp_reshard_after_forward != trainmem::ReshardPolicy::kNever)
    return;  // "always" reshards even with PP
  if (framework != trainmem::Framework::kTorchtitan &&
      framework != trainmem::Framework::kTorchtitanNpu)
    return;
  TextMuted(Tr(Str::kPpGatheredNote));
}

}  // namespace

void DrawParallelismPanel(AppState& state) {
  if (!ImGui::CollapsingHeader(Tr(Str::kSectionParallelism), ImGuiTreeNodeFlags_DefaultOpen))
    return;
  ImGui::PushID("parallelism");
  const auto layout = trainmem::ResolveLayout(state.draft);
  const bool moe = state.draft.model.num_experts > 0;
  if (BeginForm("parallelism_form")) {
    // Megatron and DeepSpeed have one data-parallel group, shown as the shard row: a replicate
    // degree of 1 goes without a row (one set elsewhere stays visible).
    const bool one_group = state.draft.framework == trainmem::Framework::kMegatron ||
                           state.draft.framework == trainmem::Framework::kDeepspeed;
    for (const DegreeField& field : kDegrees) {
      const bool unused =
          (field.moe_only && !moe) || (one_group && field.member == &Parallelism::dp_replicate);
      if (!unused || state.draft.parallelism.*field.member != 1) DrawDegree(state, field, layout);
    }
    if (state.draft.parallelism.tp > 1) {
      FormRow(Str::kSequenceParallel, "parallelism.sequence_parallel", Str::kSequenceParallelHelp);
      bool sp = state.draft.parallelism.sequence_parallel;
      if (ImGui::Checkbox("##sp", &sp))
        EditDraft(state, [&](trainmem::Config& c) { c.parallelism.sequence_parallel = sp; });
    }
    if (state.draft.parallelism.pp > 1) DrawPipelineOptions(state);
    DrawEpDispatcher(state);
    const auto framework = state.draft.framework;
    if (framework == trainmem::Framework::kDeepspeed ||
        framework == trainmem::Framework::kMegatron) {
      DrawZeroStage(state);
    }
    EndForm();
  }
  FieldErrors(state, "parallelism", false);
  DrawResolvedLayout(state, layout);
  DrawPipelineNote(state, layout);
  ImGui::PopID();
  ImGui::Spacing();
}

}  // namespace app
