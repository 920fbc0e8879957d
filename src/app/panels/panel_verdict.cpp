// The verdict, one story: what was estimated, does it fit and by how much, what to change (the
// first advice step that fits, or how many devices would), then the stacked bar. Mid-edit and
// invalid, the last valid estimate is shown greyed and labelled; a link read only in part shows
// no verdict as the reader's. Also the warnings.
#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/app_explorer.h"
#include "app/draw/memory_bar.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

// A neutral pill for a verdict that is not the reader's: a link read only in part.
StatusColors NeutralColors() {
  StatusColors colors = WarningColors();
  colors.text = MutedTextColor();
  return colors;
}

// A headline template ("%s of %s usable per device: %s to spare") with its first value, the
// per-device total, in the headline font: the largest text on the page. The words before it and
// after it are in the heading font, the words after beside the figure when they fit, else on
// the next line (phones), baseline-aligned with the figure.
void DrawHeadlineFigure(const std::string& format, const std::string& total,
                        std::initializer_list<std::string> rest) {
  const std::size_t at = format.find("%s");
  const std::string before = at == std::string::npos ? "" : format.substr(0, at);
  std::string after = at == std::string::npos ? format : format.substr(at + 2);
  std::size_t from = 0;
  for (const std::string& value : rest) {
    const std::size_t next = after.find("%s", from);
    if (next == std::string::npos) break;
    after.replace(next, 2, value);
    from = next + value.size();
  }
  ImFont* headline = GetFont(FontRole::kHeadline);
  ImFont* words = GetFont(FontRole::kHeading);
  const float top = ImGui::GetCursorPosY();
  const float baseline_shift = headline->Ascent - words->Ascent;
  ImGui::PushFont(words);
  if (!before.empty()) {
    ImGui::SetCursorPosY(top + baseline_shift);
    ImGui::TextUnformatted(before.c_str());
    ImGui::SameLine(0, 0);
    ImGui::SetCursorPosY(top);
  }
  ImGui::PushFont(headline);
  ImGui::TextUnformatted(total.c_str());
  ImGui::PopFont();
  const float room =
      ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x - ImGui::GetItemRectMax().x;
  const bool beside = ImGui::CalcTextSize(after.c_str()).x <= room;
  if (beside) {
    ImGui::SameLine(0, 0);
    ImGui::SetCursorPosY(top + baseline_shift);
  } else {
    while (!after.empty() && after.front() == ' ') after.erase(0, 1);
  }
  TextWrapped(after.c_str());  // at spaces, or between Chinese characters
  if (beside) {  // the line is as tall as the figure, not the figure plus the baseline shift
    ImGui::SetCursorPosY(top +
                         std::max(headline->FontSize, baseline_shift + ImGui::GetItemRectSize().y) +
                         ImGui::GetStyle().ItemSpacing.y);
  }
  ImGui::PopFont();
}

// The answer first: does it fit, by how much, and what to change.
void DrawHeadline(const AppState& state) {
  const trainmem::Estimate& e = state.estimate;
  const std::int64_t headroom = e.budget.headroom_bytes;
  ImGui::PushFont(GetFont(FontRole::kHeading));
  if (state.link_fallback) {
    Pill(Tr(Str::kVerdictLinkPartly), NeutralColors());
  } else {
    Pill(VerdictWords(e), VerdictColors(e));
  }
  ImGui::PopFont();
  ImGui::SameLine(0, Em(0.8f));
  ImGui::BeginGroup();
  DrawHeadlineFigure(
      Tr(headroom >= 0 ? Str::kHeadlineSpareTemplate : Str::kHeadlineOverTemplate),
      trainmem::FormatGiB(e.per_device.total),
      {trainmem::FormatGiB(e.budget.usable_bytes), trainmem::FormatGiB(std::llabs(headroom))});
  ImGui::EndGroup();
  // Symmetric-memory buffers the config sizes (MinimalAsyncEP) come out of the usable memory.
  const std::string device =
      trainmem::FormatGiB(e.budget.device_bytes) +
      (e.budget.outside_allocator_bytes > 0
           ? TrFormat(Str::kBudgetLessBuffersTemplate,
                      trainmem::FormatGiB(e.budget.outside_allocator_bytes).c_str())
           : std::string());
  const std::string detail =
      TrFormat(Str::kBudgetLineTemplate,
               static_cast<int>(state.config.overhead.budget_fraction * 100.0 + 0.5),
               device.c_str(), trainmem::FormatGiB(e.per_device.peak_allocated).c_str());
  TextMuted(detail.c_str());  // wraps: narrow windows must not clip it
  if (!state.link_fallback) TextMuted(AccuracyLine(e).c_str());
}

// "Show layouts on N devices": the Layouts tab at the world size that fits.
void ShowLayoutsButton(AppState& state, std::int64_t devices) {
  const bool pressed = ImGui::SmallButton(
      TrFormat(Str::kShowLayoutsTemplate, static_cast<long long>(devices)).c_str());
  RecordRect(state, "show_layouts", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (pressed) ShowLayoutsOn(state, devices);
}

// "What to change": the first advice step that fits, else the device count that would.
void DrawWhatToChange(AppState& state) {
  const trainmem::Estimate& e = state.estimate;
  if ((e.budget.fits && e.budget.verdict == trainmem::Verdict::kFits) || state.link_fallback)
    return;
  // The first step that fits outside the error band, else the first that fits at all.
  const trainmem::Recommendation* first_fit = nullptr;
  for (const trainmem::Recommendation& r : e.recommendations) {
    if (!r.fits) continue;
    if (first_fit == nullptr ||
        (r.verdict == trainmem::Verdict::kFits && first_fit->verdict != trainmem::Verdict::kFits))
      first_fit = &r;
  }
  if (first_fit != nullptr) {
    // The step's own verdict, as its advice badge says it: a step only close to the limit is
    // not called a fit, and then the device count that fits clear of the band follows.
    const trainmem::Recommendation& r = *first_fit;
    const bool clear = r.verdict == trainmem::Verdict::kFits;
    const std::string line =
        TrFormat(Str::kWhatToChangeTemplate, AdviceWithChanges(r).c_str(),
                 trainmem::FormatGiB(r.total_bytes).c_str(), Tr(VerdictPhrase(r.verdict)));
    ImGui::PushFont(GetFont(FontRole::kBold));
    TextColored(clear ? FitsColors().text : WarningColors().text, line.c_str());
    ImGui::PopFont();
    if (clear || e.devices_needed <= 0) return;
    TextWrapped(
        TrFormat(Str::kClearFitNeedsDevicesTemplate, static_cast<long long>(e.devices_needed))
            .c_str());
    ShowLayoutsButton(state, e.devices_needed);
    return;
  }
  if (e.budget.fits) return;  // close to the limit, and no step here lowers it clear of the band
  if (e.devices_needed > 0) {
    const std::string line =
        TrFormat(Str::kDevicesNeededTemplate, static_cast<long long>(e.devices_needed));
    ImGui::PushFont(GetFont(FontRole::kBold));
    TextColored(DoesNotFitColors().text, line.c_str());
    ImGui::PopFont();
    ShowLayoutsButton(state, e.devices_needed);
  } else {
    TextColored(DoesNotFitColors().text, Tr(Str::kNothingFitsAtAll));
  }
}

// "What is being estimated", so a screenshot is self-explaining: model, device × count,
// framework, layout, batch × sequence, checkpointing (and the method when it is the rough rule).
void DrawSubject(const AppState& state) {
  std::string subject = EstimatedWhat(state.config, state.estimate.layout);
  if (state.config.mode == trainmem::Mode::kTemplate)
    subject += std::string(" \xC2\xB7 ") + Tr(Str::kModeTemplateShort);
  TextMuted(subject.c_str());
}

// swap_optimizer / offload move bytes to the host: the host must have them, per rank.
void DrawHostMemory(const trainmem::Estimate& e) {
  if (e.host_optimizer_bytes <= 0 && e.host_activation_bytes <= 0) return;
  std::string line = Tr(Str::kHostLineLead);
  if (e.host_optimizer_bytes > 0)
    line += TrFormat(Str::kHostOptimizerPart, trainmem::FormatGiB(e.host_optimizer_bytes).c_str());
  if (e.host_optimizer_bytes > 0 && e.host_activation_bytes > 0) line += Tr(Str::kListSeparator);
  if (e.host_activation_bytes > 0)
    line +=
        TrFormat(Str::kHostActivationsPart, trainmem::FormatGiB(e.host_activation_bytes).c_str());
  TextMuted(line.c_str());
}

}  // namespace

// While an input is invalid the last valid estimate stays, greyed and labelled as such; the
// error itself is at the field edited (app_actions.cpp), so nothing above the verdict moves.
void DrawVerdictPanel(AppState& state) {
  const bool stale = !state.draft_errors.empty();
  const bool greyed = stale || state.link_fallback;
  BeginCard("verdict");
  if (stale) {
    TextColored(WarningColors().text, Tr(Str::kLastValidEstimate));
  } else if (state.link_fallback) {
    TextColored(WarningColors().text, Tr(Str::kLinkFallbackNote));
  }
  if (greyed) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.45f);
  DrawSubject(state);
  DrawHeadline(state);
  if (!stale) DrawWhatToChange(state);
  ImGui::Spacing();
  DrawMemoryBar(state.estimate, 1.9f);
  DrawMemoryLegend(state.estimate);
  DrawHostMemory(state.estimate);
  if (greyed) ImGui::PopStyleVar();
  EndCard();
}

void DrawWarningsPanel(AppState& state) {
  if (state.estimate.warnings.empty()) return;
  BeginCard("warnings");
  SectionTitle(Str::kSectionWarnings);
  const StatusColors colors = WarningColors();
  for (const std::string& warning : state.estimate.warnings) {
    TextColored(colors.text, (std::string("\xE2\x9A\xA0 ") + TrCore(warning)).c_str());
  }
  EndCard();
}

}  // namespace app
