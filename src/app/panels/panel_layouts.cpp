// Layouts: every parallel layout of the current job that fits (trainmem::SearchLayouts), as a
// sortable table; clicking a row makes that layout the calculator's config (and the share link).
#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/app_explorer.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

using trainmem::LayoutResult;

enum Column {
  kRank,
  kDpr,
  kDp,
  kTp,
  kPp,
  kCp,
  kEp,
  kEtp,
  kAc,
  kPlacement,
  kTotal,
  kHeadroom,
  kCost,
  kColumnCount
};

struct ColumnSpec {
  Str label;
  Str help;
  float width_em;
};
constexpr ColumnSpec kColumns[kColumnCount] = {
    {Str::kColumnRank, Str::kColumnRankHelp, 2.2f},
    {Str::kColumnDpr, Str::kDpReplicateHelp, 4.4f},
    {Str::kColumnDp, Str::kDpShardHelp, 3.8f},
    {Str::kColumnTp, Str::kTensorParallelHelp, 2.4f},
    {Str::kColumnPp, Str::kPipelineParallelHelp, 2.4f},
    {Str::kColumnCp, Str::kContextParallelHelp, 2.4f},
    {Str::kColumnEp, Str::kExpertParallelHelp, 2.4f},
    {Str::kColumnEtp, Str::kExpertTensorParallelHelp, 3.0f},
    {Str::kColumnAc, Str::kAcModeHelp, 8.4f},
    {Str::kColumnPlacement, Str::kColumnPlacementHelp, 6.0f},
    {Str::kRowTotal, Str::kEmpty, 5.6f},
    {Str::kColumnHeadroom, Str::kColumnHeadroomHelp, 5.6f},
    {Str::kColumnCost, Str::kColumnCostHelp, 3.6f},
};

// The value a column sorts by (rank = the search's own order: cost, then total, …).
double SortValue(const LayoutResult& row, int index, int column) {
  const auto& p = row.config.parallelism;
  switch (column) {
    case kDpr:
      return static_cast<double>(p.dp_replicate);
    case kDp:
      return static_cast<double>(p.dp_shard);
    case kTp:
      return static_cast<double>(p.tp);
    case kPp:
      return static_cast<double>(p.pp);
    case kCp:
      return static_cast<double>(p.cp);
    case kEp:
      return static_cast<double>(p.ep);
    case kEtp:
      return static_cast<double>(p.etp);
    case kAc:
      return static_cast<double>(row.config.activation_checkpoint.mode);
    case kPlacement:
      return row.config.optimizer.swap_optimizer ? 1.0 : row.config.optimizer.offload ? 2.0 : 0.0;
    case kTotal:
      return static_cast<double>(row.per_device.total);
    case kHeadroom:
      return static_cast<double>(row.headroom_bytes);
    case kCost:
      return row.cost;
    default:
      return static_cast<double>(index);
  }
}

void SortRows(LayoutsView& view, const ImGuiTableSortSpecs* specs) {
  const auto& rows = view.result.layouts;
  view.order.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) view.order[i] = static_cast<int>(i);
  if (specs == nullptr || specs->SpecsCount == 0) return;
  const int column = specs->Specs[0].ColumnIndex;
  const bool descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
  std::stable_sort(view.order.begin(), view.order.end(), [&](int a, int b) {
    const double va = SortValue(rows[static_cast<std::size_t>(a)], a, column);
    const double vb = SortValue(rows[static_cast<std::size_t>(b)], b, column);
    return descending ? va > vb : va < vb;
  });
}

std::string AcText(const trainmem::ActivationCheckpoint& ac) {
  const Str mode = ac.mode == trainmem::AcMode::kNone   ? Str::kAcNone
                   : ac.mode == trainmem::AcMode::kFull ? Str::kAcFull
                                                        : Str::kAcSelective;
  if (ac.mode != trainmem::AcMode::kSelective) return Tr(mode);
  return TrFormat(Str::kAcSelectiveTemplate, Tr(mode), ac.selective_ac_option.c_str());
}

const char* PlacementText(const trainmem::Optimizer& optimizer) {
  if (optimizer.swap_optimizer) return Tr(Str::kPlacementSwap);
  if (optimizer.offload) return Tr(Str::kPlacementOffload);
  return Tr(Str::kPlacementDevice);
}

// The row the calculator is on now: same degrees, checkpointing and optimizer placement.
bool IsCurrent(const LayoutResult& row, const trainmem::Config& config,
               const trainmem::Layout& current) {
  const auto& p = row.config.parallelism;
  const auto& a = row.config.activation_checkpoint;
  return p.dp_replicate == current.dp_replicate && p.dp_shard == current.dp_shard &&
         p.tp == current.tp && p.pp == current.pp && p.cp == current.cp && p.ep == current.ep &&
         p.etp == current.etp && a.mode == config.activation_checkpoint.mode &&
         a.selective_ac_option == config.activation_checkpoint.selective_ac_option &&
         row.config.optimizer.swap_optimizer == config.optimizer.swap_optimizer &&
         row.config.optimizer.offload == config.optimizer.offload;
}

void DrawRow(AppState& state, int index, bool current, bool first) {
  const LayoutResult& row = state.layouts.result.layouts[static_cast<std::size_t>(index)];
  const auto& p = row.config.parallelism;
  ImGui::TableNextRow();
  if (current) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, HighlightRowColor());
  ImGui::TableNextColumn();
  ImGui::PushID(index);
  const std::string rank = std::to_string(index + 1);
  if (ImGui::Selectable(rank.c_str(), false, ImGuiSelectableFlags_SpanAllColumns))
    ApplyLayout(state, index);
  if (first) RecordRect(state, "first_row", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (ImGui::IsItemHovered()) {
    const std::string tip = row.cost_note + "\n" + Tr(Str::kLayoutRowHelp);
    ImGui::SetTooltip("%s", tip.c_str());
  }
  ImGui::PopID();
  for (std::int64_t degree : {p.dp_replicate, p.dp_shard, p.tp, p.pp, p.cp, p.ep, p.etp}) {
    ImGui::TableNextColumn();
    TextRight(std::to_string(degree).c_str());
  }
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(AcText(row.config.activation_checkpoint).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(PlacementText(row.config.optimizer));
  ImGui::TableNextColumn();
  TextRight(trainmem::FormatGiB(row.per_device.total).c_str());
  ImGui::TableNextColumn();
  // A layout within the error band of the limit is "close to the limit", as its headline says.
  const bool close = row.verdict != trainmem::Verdict::kFits;
  if (close) ImGui::PushStyleColor(ImGuiCol_Text, WarningColors().text);
  TextRight(trainmem::FormatGiB(row.headroom_bytes).c_str());
  if (close) ImGui::PopStyleColor();
  if (close && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr(Str::kSummaryClose));
  ImGui::TableNextColumn();
  TextRight(TrFormat(Str::kCostTemplate, row.cost).c_str());
}

void SetupColumns() {
  ImGui::TableSetupScrollFreeze(1, 1);
  for (int c = 0; c < kColumnCount; ++c) {
    ImGuiTableColumnFlags flags =
        ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_PreferSortAscending;
    if (c == kRank) flags |= ImGuiTableColumnFlags_DefaultSort;
    ImGui::TableSetupColumn(Tr(kColumns[c].label), flags, Em(kColumns[c].width_em));
  }
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < kColumnCount; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    if (kColumns[c].help != Str::kEmpty) Tooltip(Tr(kColumns[c].help));
  }
}

void DrawTable(AppState& state) {
  LayoutsView& view = state.layouts;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_NoSavedSettings;
  if (!ImGui::BeginTable("layout_table", kColumnCount, flags,
                         ImVec2(0, std::max(Em(10), ImGui::GetContentRegionAvail().y))))
    return;
  SetupColumns();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
    if (specs->SpecsDirty || view.sort_dirty || view.order.size() != view.result.layouts.size()) {
      SortRows(view, specs);
      specs->SpecsDirty = false;
      view.sort_dirty = false;
    }
  }
  const auto current = trainmem::ResolveLayout(state.config);
  const trainmem::Layout now = current.ok() ? current.value() : trainmem::Layout{};
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(view.order.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const int index = view.order[static_cast<std::size_t>(i)];
      DrawRow(state, index,
              IsCurrent(view.result.layouts[static_cast<std::size_t>(index)], state.config, now),
              i == 0);
    }
  }
  ImGui::EndTable();
}

// Options (changing one searches again), the Search button and what the last search found.
void DrawControls(AppState& state, bool current) {
  LayoutsView& view = state.layouts;
  bool changed = ImGui::Checkbox(Tr(Str::kLayoutsVaryAc), &view.vary_ac);
  Tooltip(Tr(Str::kLayoutsVaryAcHelp));
  ImGui::SameLine(0, Em(1));
  changed |= ImGui::Checkbox(Tr(Str::kLayoutsVarySwap), &view.vary_swap);
  Tooltip(Tr(Str::kLayoutsVarySwapHelp));
  ImGui::SameLine(0, Em(1));
  changed |= ImGui::Button(Tr(Str::kSearch));
  Tooltip(Tr(Str::kSearchHelp));
  if (changed) view.computed_for = 0;
  ImGui::SameLine(0, Em(1));
  ImGui::AlignTextToFramePadding();
  if (!current) {
    ImGui::TextDisabled("%s", Tr(Str::kSearching));
  } else {
    const auto& r = view.result;
    ImGui::TextDisabled(
        "%s", TrFormat(Str::kLayoutsCountsTemplate, static_cast<long long>(r.layouts.size()),
                       static_cast<long long>(r.valid), static_cast<long long>(r.evaluated),
                       view.compute_ms)
                  .c_str());
  }
  if (view.computed_for == 0) return;
  const bool any = !view.result.layouts.empty();
  TextColored(any ? FitsColors().text : DoesNotFitColors().text, view.result.message.c_str());
}

}  // namespace

void DrawLayoutsPanel(AppState& state) {
  const bool current = RefreshLayouts(state);
  ImGui::BeginChild("layouts", ImVec2(0, 0), true, ImGuiWindowFlags_AlwaysUseWindowPadding);
  SectionTitle(Str::kSectionLayouts);
  TextMuted(TrFormat(Str::kLayoutsIntroTemplate, static_cast<long long>(state.config.world_size),
                     state.config.device.name.c_str())
                .c_str());
  DrawControls(state, current);
  if (state.layouts.computed_for != 0 && !state.layouts.result.layouts.empty()) DrawTable(state);
  ImGui::EndChild();
}

}  // namespace app
