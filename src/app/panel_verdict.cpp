// The verdict: FITS / DOES NOT FIT with the headroom, the stacked bar, and — when the inputs
// are mid-edit and invalid — a notice that the last valid estimate is shown. Also the warnings.
#include <algorithm>
#include <cstdlib>
#include <string>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/memory_bar.h"
#include "app/panels.h"
#include "app/widgets.h"
#include "core/report.h"

namespace app {
namespace {

// "<total> of <usable> usable per device" with the total in the headline font, the largest
// text on the page: the template is split at its first %s; the rest follows in bold, beside
// the figure when it fits, else on the next line (phones), bottom-aligned with the figure.
void DrawHeadlineFigure(const std::string& format, const std::string& total,
                        const std::string& usable) {
  const std::size_t at = format.find("%s");
  const std::string before = at == std::string::npos ? "" : format.substr(0, at);
  std::string after = at == std::string::npos ? format : format.substr(at + 2);
  const std::size_t next = after.find("%s");
  if (next != std::string::npos) after.replace(next, 2, usable);
  ImFont* headline = GetFont(FontRole::kHeadline);
  ImFont* bold = GetFont(FontRole::kBold);
  const float top = ImGui::GetCursorPosY();
  const float baseline_shift = headline->Ascent - bold->Ascent;
  ImGui::PushFont(bold);
  if (!before.empty()) {
    ImGui::SetCursorPosY(top + baseline_shift);
    ImGui::TextUnformatted(before.c_str());
    ImGui::SameLine(0, 0);
    ImGui::SetCursorPosY(top);
  }
  ImGui::PushFont(headline);
  ImGui::TextUnformatted(total.c_str());
  ImGui::PopFont();
  const float after_width = ImGui::CalcTextSize(after.c_str()).x;
  const bool beside = after_width <= ImGui::GetContentRegionAvail().x - ImGui::GetItemRectMax().x +
                                         ImGui::GetCursorScreenPos().x;
  if (beside) {
    ImGui::SameLine(0, 0);
    ImGui::SetCursorPosY(top + baseline_shift);
  } else {
    while (!after.empty() && after.front() == ' ') after.erase(0, 1);
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(after.c_str());
  ImGui::PopTextWrapPos();
  if (beside) {  // the line is as tall as the figure, not the figure plus the baseline shift
    const float figure = headline->FontSize;
    ImGui::SetCursorPosY(top + std::max(figure, baseline_shift + ImGui::GetItemRectSize().y) +
                         ImGui::GetStyle().ItemSpacing.y);
  }
  ImGui::PopFont();
}

void DrawHeadline(const AppState& state) {
  const trainmem::Estimate& e = state.estimate;
  const bool fits = e.budget.fits;
  ImGui::PushFont(GetFont(FontRole::kHeading));
  Pill(Tr(fits ? Str::kVerdictFits : Str::kVerdictDoesNotFit),
       fits ? FitsColors() : DoesNotFitColors());
  ImGui::PopFont();
  ImGui::SameLine(0, Em(0.8f));
  ImGui::BeginGroup();
  DrawHeadlineFigure(Tr(Str::kVerdictTotalTemplate), trainmem::FormatGiB(e.per_device.total),
                     trainmem::FormatGiB(e.budget.usable_bytes));
  const std::int64_t headroom = e.budget.headroom_bytes;
  const std::string detail =
      TrFormat(headroom >= 0 ? Str::kHeadroomTemplate : Str::kOverBudgetTemplate,
               trainmem::FormatGiB(std::llabs(headroom)).c_str(),
               static_cast<int>(state.config.overhead.budget_fraction * 100.0 + 0.5),
               trainmem::FormatGiB(e.budget.device_bytes).c_str(),
               trainmem::FormatGiB(e.per_device.peak_allocated).c_str());
  TextMuted(detail.c_str());  // wraps: narrow windows must not clip it
  ImGui::EndGroup();
}

// "What is being estimated": model on device, ranks and mode, so a screenshot is self-explaining.
void DrawSubject(const AppState& state) {
  const auto& c = state.config;
  const std::string subject =
      TrFormat(Str::kSubjectTemplate, ModelDisplayName(c).c_str(), c.device.name.c_str(),
               static_cast<long long>(c.world_size),
               Tr(c.mode == trainmem::Mode::kTemplate ? Str::kModeTemplate : Str::kModeDetailed));
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

void DrawInputProblems(const AppState& state) {
  if (state.draft_errors.empty()) return;
  const StatusColors colors = WarningColors();
  ImGui::PushStyleColor(ImGuiCol_ChildBg, colors.fill);
  ImGui::PushStyleColor(ImGuiCol_Border, colors.text);
  BeginCard("input_problems");
  TextColored(colors.text, Tr(Str::kInputProblemsTitle));
  for (const auto& error : state.draft_errors) {
    ImGui::Bullet();
    ImGui::SameLine();
    TextColored(colors.text, trainmem::FormatError(error).c_str());
  }
  EndCard();
  ImGui::PopStyleColor(2);
}

}  // namespace

void DrawVerdictPanel(AppState& state) {
  DrawInputProblems(state);
  BeginCard("verdict");
  DrawSubject(state);
  DrawHeadline(state);
  ImGui::Spacing();
  DrawMemoryBar(state.estimate, 1.9f);
  DrawMemoryLegend(state.estimate);
  DrawHostMemory(state.estimate);
  EndCard();
}

void DrawWarningsPanel(AppState& state) {
  if (state.estimate.warnings.empty()) return;
  BeginCard("warnings");
  SectionTitle(Str::kSectionWarnings);
  const StatusColors colors = WarningColors();
  for (const std::string& warning : state.estimate.warnings) {
    TextColored(colors.text, (std::string("\xE2\x9A\xA0 ") + warning).c_str());
  }
  EndCard();
}

}  // namespace app
