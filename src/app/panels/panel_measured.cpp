// "Measured in a run": a pasted or dropped training log / memory profile, read by the core's
// compare readers, beside the estimate of the same metric (reserved ↔ total, max allocated ↔
// peak allocated, …) and per component when a profile gives a breakdown. The measurement rides
// in the share link as `m=…` so a teammate who opens the link sees both.
//
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // ClearActiveID: a large paste leaves the text area
#include <misc/cpp/imgui_stdlib.h>

#include "app/app_actions.h"
#include "app/app_explorer.h"
#include "app/draw/memory_bar.h"
#include "app/draw/widgets.h"
#include "app/measured_actions.h"
#include "app/measured_hook.h"
#include "app/panels/panels.h"
#include "core/report/report.h"
#include "platform/platform.h"

namespace app {

namespace compare = trainmem::compare;

namespace {

struct MetricLabel {
  Str name;
  Str help;
};

MetricLabel LabelOf(compare::Metric metric) {
  switch (metric) {
    case compare::Metric::kReserved:
      return {Str::kMetricReserved, Str::kMetricReservedHelp};
    case compare::Metric::kMaxAllocated:
      return {Str::kMetricMaxAllocated, Str::kMetricMaxAllocatedHelp};
    case compare::Metric::kActive:
      return {Str::kMetricActive, Str::kMetricActiveHelp};
    case compare::Metric::kAllocated:
      return {Str::kMetricAllocated, Str::kMetricAllocatedHelp};
    case compare::Metric::kDeviceUsed:
      return {Str::kMetricDeviceUsed, Str::kMetricDeviceUsedHelp};
  }
  return {Str::kMetricReserved, Str::kMetricReservedHelp};
}

void RatioCell(std::int64_t measured, std::int64_t estimate) {
  ImGui::TableNextColumn();
  if (estimate <= 0) return;
  const double ratio = static_cast<double>(measured) / static_cast<double>(estimate);
  const std::string text = compare::FormatRatio(ratio);
  // Above the estimate by more than 10 %: the run may not fit where the estimate said it does.
  if (ratio > 1.10) ImGui::PushStyleColor(ImGuiCol_Text, ErrorTextColor());
  TextRight(text.c_str());
  if (ratio > 1.10) ImGui::PopStyleColor();
}

bool BeginComparisonTable(const char* id, Str first_column) {
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoSavedSettings;
  if (!ImGui::BeginTable(id, 4, flags)) return false;
  ImGui::TableSetupColumn(Tr(first_column), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn(Tr(Str::kColumnEstimate), ImGuiTableColumnFlags_WidthFixed, Em(6.5f));
  ImGui::TableSetupColumn(Tr(Str::kColumnMeasured), ImGuiTableColumnFlags_WidthFixed, Em(6.5f));
  ImGui::TableSetupColumn(Tr(Str::kColumnRatio), ImGuiTableColumnFlags_WidthFixed, Em(4.0f));
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int column = 0; column < 4; ++column) {
    ImGui::TableSetColumnIndex(column);
    if (column == 0) {
      ImGui::TableHeader(ImGui::TableGetColumnName(column));
    } else {
      TextRight(ImGui::TableGetColumnName(column));
    }
    if (column == 3) Tooltip(Tr(Str::kColumnRatioHelp));
  }
  return true;
}

// The metric's cell wraps its name and puts "rank 0 → stage 0" beside it where there is room,
// below it where there is not: on a phone the cell is what the three figures leave, and
// "峰值预留（max reserved）" was cut to "峰值预留（r".
void DrawMetricRows(AppState& state, const compare::Comparison& c) {
  if (c.metrics.empty() || !BeginComparisonTable("measured_metrics", Str::kColumnMeasuredMetric))
    return;
  for (const compare::MetricRow& row : c.metrics) {
    const MetricLabel label = LabelOf(row.metric);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const float cell = ImGui::GetContentRegionAvail().x;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(WrapForCjk(Tr(label.name), cell).c_str());
    if (&row == &c.metrics.front())
      RecordRect(state, "measured_metric_name", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    std::string help = std::string(Tr(label.help)) + "\n\n" + row.source + "\n" +
                       row.estimate_basis + "; " + row.stage_basis;
    Tooltip(help.c_str());
    if (row.rank >= 0) {
      const std::string rank = TrFormat(Str::kMeasuredRankTemplate, row.rank, row.stage);
      const float beside = ImGui::GetItemRectSize().x + ImGui::GetStyle().ItemSpacing.x +
                           ImGui::CalcTextSize(rank.c_str()).x;
      if (beside <= cell) ImGui::SameLine();
      ImGui::TextDisabled("%s", rank.c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::TableNextColumn();
    if (&row == &c.metrics.front()) {  // where the figures start: the name must end before
      const ImVec2 at = ImGui::GetCursorScreenPos();
      RecordRect(state, "measured_estimate_cell", at, ImVec2(at.x + 1, at.y + 1));
    }
    TextRight(trainmem::FormatGiB(row.estimate_bytes).c_str());
    ImGui::TableNextColumn();
    TextRight(trainmem::FormatGiB(row.measured_bytes).c_str());
    RatioCell(row.measured_bytes, row.estimate_bytes);
  }
  ImGui::EndTable();
}

void DrawComponentRows(const compare::Comparison& c) {
  if (c.components.empty()) return;
  SectionTitle(Str::kMeasuredComponentsTitle);
  if (!BeginComparisonTable("measured_components", Str::kColumnComponent)) return;
  static constexpr Component kOrder[] = {Component::kParameters, Component::kGradients,
                                         Component::kOptimizer, Component::kActivations,
                                         Component::kTemporary};
  for (std::size_t i = 0; i < c.components.size() && i < 5; ++i) {
    const compare::ComponentRow& row = c.components[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ColorSwatch(ComponentColor(kOrder[i]));
    ImGui::SameLine(0, Em(0.4f));
    ImGui::TextUnformatted(ComponentName(kOrder[i]));
    ImGui::TableNextColumn();
    TextRight(trainmem::FormatGiB(row.estimate_bytes).c_str());
    ImGui::TableNextColumn();
    TextRight(trainmem::FormatGiB(row.measured_bytes).c_str());
    RatioCell(row.measured_bytes, row.estimate_bytes);
  }
  ImGui::EndTable();
  TextMuted(c.components_source.c_str());
}

// The config changed since the measurement: say how, offer the way back, grey the ratios.
bool DrawConfigChanges(AppState& state) {
  const std::vector<std::string>& changes = state.measured.config_changes;
  if (changes.empty()) return false;
  std::string list;
  for (const std::string& change : changes) list += (list.empty() ? "" : ", ") + change;
  ImGui::PushTextWrapPos(0.0f);
  TextColored(WarningColors().text,
              TrFormat(Str::kMeasuredConfigChangedTemplate, list.c_str()).c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::Button(Tr(Str::kMeasuredRestoreConfig))) RestoreMeasuredConfig(state);
  RecordRect(state, "measured_restore", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  return true;
}

void DrawComparison(AppState& state) {
  const bool changed = DrawConfigChanges(state);
  const MeasuredView& v = state.measured;
  const compare::Comparison& c = v.comparison;
  ImGui::BeginDisabled(changed);
  DrawMetricRows(state, c);
  DrawComponentRows(c);
  if (!c.sentence.empty()) {
    ImGui::Spacing();
    TextWrapped(TrCore(c.sentence).c_str());  // between Chinese characters, not at "72.|82"
  }
  ImGui::EndDisabled();
  if (c.snapshot.present) {
    const compare::SnapshotFacts& s = c.snapshot;
    const std::string text = TrFormat(
        Str::kMeasuredSnapshotTemplate, s.device, trainmem::FormatGiB(s.reserved_bytes).c_str(),
        trainmem::FormatGiB(s.allocated_bytes).c_str(), 100.0 * s.free_in_segments_fraction,
        trainmem::FormatGiB(s.largest_free_block).c_str());
    TextMuted(text.c_str());
  }
  std::string inputs, formats;
  // Names are kept as read (the language may change later): translated when drawn.
  for (const std::string& name : v.input_names) {
    inputs += (inputs.empty() ? "" : ", ") + TrCore(name);
  }
  for (const std::string& f : c.formats) formats += (formats.empty() ? "" : ", ") + TrCore(f);
  TextMuted(TrFormat(Str::kMeasuredFromTemplate, inputs.c_str(), formats.c_str()).c_str());
  for (const std::string& note : c.notes) TextMuted(TrCore(note).c_str());
  if (c.skipped_count > 0) {
    TextMuted(
        TrFormat(Str::kMeasuredSkippedTemplate, static_cast<long long>(c.skipped_count)).c_str());
    for (const trainmem::Error& e : c.skipped) TextMuted(trainmem::FormatError(e).c_str());
  }
}

constexpr std::size_t kReadAtOnceBytes = std::size_t{1} << 20;  // 1 MiB

void DrawPasteArea(AppState& state) {
  MeasuredView& v = state.measured;
  TextMuted(Tr(Str::kMeasuredIntro));
  ImGui::InputTextMultiline("##measured_paste", &v.paste, ImVec2(-FLT_MIN, Em(5)),
                            ImGuiInputTextFlags_AllowTabInput);
  RecordRect(state, "measured_paste", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  // A paste this large is a log file's worth, not text to edit: it is read at once and leaves
  // the text area, which lays out every line each frame while it holds the text (a 10 MB log
  // made the page sluggish and the Compare click easy to miss).
  if (v.paste.size() > kReadAtOnceBytes) {
    std::string text = std::move(v.paste);
    v.paste.clear();
    ImGui::ClearActiveID();
    OnMeasurementFiles(state, {platform::File{"pasted text", std::move(text)}});
  }
  ImGui::BeginDisabled(v.paste.empty());
  if (ImGui::Button(Tr(Str::kMeasuredCompare))) {
    OnMeasurementFiles(state, {platform::File{"pasted text", v.paste}});  // TrCore when drawn
  }
  RecordRect(state, "measured_compare", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(Tr(Str::kPasteFromClipboard))) {
    // The read completes later, from a browser promise: store the text and ask for frames.
    platform::ReadClipboard([&state](const std::string& text) {
      if (!text.empty()) state.measured.paste = text;
      RequestFrames(state);
    });
  }
  if (v.has_measurement || !v.errors.empty()) {
    ImGui::SameLine();
    if (ImGui::Button(Tr(Str::kMeasuredClear))) ClearMeasurement(state);
  }
}

}  // namespace

void DrawMeasuredPanel(AppState& state) {
  ReadLinkMeasurement(state);
  RefreshMeasuredComparison(state);
  PublishMeasuredMirror(state);
  MeasuredView& v = state.measured;
  BeginCard("measured");
  SectionTitle(Str::kSectionMeasured);
  if (v.has_measurement) DrawComparison(state);
  for (const trainmem::Error& e : v.errors) {
    TextColored(ErrorTextColor(), trainmem::FormatError(e).c_str());
  }
  if (v.has_measurement) {
    if (v.open_requested) ImGui::SetNextItemOpen(false);
    if (ImGui::TreeNode(Tr(Str::kMeasuredPasteAnother))) {
      DrawPasteArea(state);
      ImGui::TreePop();
    }
  } else {
    DrawPasteArea(state);
  }
  v.open_requested = false;
  EndCard();
}

}  // namespace app
