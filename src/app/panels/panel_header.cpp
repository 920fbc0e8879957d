// The header (name, share and export buttons, brief feedback) and the dismissible banner that
// lists what a share link contained but could not be read.
#include <string>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/app_explorer.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"

namespace app {
namespace {

struct ExportChoice {
  ExportFormat format;
  Str label;
};
constexpr ExportChoice kExports[] = {
    {ExportFormat::kMarkdown, Str::kExportMarkdown},
    {ExportFormat::kCsv, Str::kExportCsv},
    {ExportFormat::kJson, Str::kExportJson},
};

void DrawExportPopup(AppState& state) {
  if (!ImGui::BeginPopup("export")) return;
  if (ImGui::BeginTable("exports", 3,
                        ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoSavedSettings)) {
    for (const ExportChoice& choice : kExports) {
      ImGui::PushID(static_cast<int>(choice.format));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(Tr(choice.label));
      ImGui::TableNextColumn();
      if (ImGui::Button(Tr(Str::kCopy))) {
        CopyExport(state, choice.format);
        ImGui::CloseCurrentPopup();
      }
      if (choice.format == ExportFormat::kMarkdown)
        RecordRect(state, "export_markdown_copy", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      ImGui::TableNextColumn();
      if (ImGui::Button(Tr(Str::kDownload))) {
        DownloadExport(state, choice.format);
        ImGui::CloseCurrentPopup();
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  ImGui::EndPopup();
}

float ActionsWidth() {
  const ImGuiStyle& style = ImGui::GetStyle();
  float width = 0;
  for (Str label : {Str::kCopyLink, Str::kCopyEmbedSnippet, Str::kExportMenu})
    width += ImGui::CalcTextSize(Tr(label)).x + 2 * style.FramePadding.x + style.ItemSpacing.x;
  return width;
}

// Right-aligned: [feedback] [Copy link] [Copy embed snippet] [Export ▾]; on their own line,
// left-aligned, when `own_line` (a phone: beside the title they would cover it).
void DrawActions(AppState& state, bool own_line) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* labels[] = {Tr(Str::kCopyLink), Tr(Str::kCopyEmbedSnippet), Tr(Str::kExportMenu)};
  const float width = ActionsWidth();
  const bool show_feedback = !state.feedback.empty() && ImGui::GetTime() < state.feedback_until;
  const float feedback_width =
      show_feedback ? ImGui::CalcTextSize(state.feedback.c_str()).x + Em(1) : 0.0f;
  if (!own_line)
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - width - feedback_width +
                    style.ItemSpacing.x);
  if (show_feedback) {
    ImGui::AlignTextToFramePadding();
    ImGui::PushStyleColor(ImGuiCol_Text, FitsColors().text);
    ImGui::TextUnformatted(state.feedback.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine(0, Em(1));
  }
  // Each button's rectangle goes to the #explorer mirror, so tests can click them.
  if (ImGui::Button(labels[0])) CopyShareLink(state);
  RecordRect(state, "copy_link", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  Tooltip(Tr(Str::kCopyLinkHelp));
  ImGui::SameLine();
  if (ImGui::Button(labels[1])) CopyEmbedSnippet(state);
  RecordRect(state, "copy_embed", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  Tooltip(Tr(Str::kCopyEmbedSnippetHelp));
  ImGui::SameLine();
  if (ImGui::Button(labels[2])) ImGui::OpenPopup("export");
  RecordRect(state, "export", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  DrawExportPopup(state);
}

}  // namespace

// The title, the tagline when there is room for it, and the actions: beside the title when
// they fit, else on a line of their own.
void DrawHeaderPanel(AppState& state) {
  const float available = ImGui::GetContentRegionAvail().x;
  ImGui::PushFont(GetFont(FontRole::kHeading));
  const float title_width = ImGui::CalcTextSize(Tr(Str::kAppName)).x;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(Tr(Str::kAppName));
  ImGui::PopFont();
  const float gap = Em(0.8f);
  // The other language's name, in that language: "中文" on the English page (its two glyphs
  // are always in the atlas), "English" on the Chinese one.
  const float switch_width =
      ImGui::CalcTextSize(Tr(Str::kLanguageSwitch)).x + 2 * ImGui::GetStyle().FramePadding.x + gap;
  const float tagline_width = ImGui::CalcTextSize(Tr(Str::kAppTagline)).x + gap;
  const float actions_width = ActionsWidth() + Em(8);  // room for the "Link copied" feedback
  const bool actions_own_line = title_width + switch_width + actions_width > available;
  if (title_width + switch_width + tagline_width + (actions_own_line ? 0.0f : actions_width) <=
      available) {
    ImGui::SameLine(0, gap);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", Tr(Str::kAppTagline));
  }
  ImGui::SameLine(0, gap);
  const bool switch_language = ImGui::SmallButton(Tr(Str::kLanguageSwitch));
  RecordRect(state, "language_switch", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (switch_language) {
    state.language_chosen = true;
    ShowLanguage(state,
                 CurrentLanguage() == Language::kChinese ? Language::kEnglish : Language::kChinese);
  }
  Tooltip(Tr(Str::kLanguageSwitchHelp));
  DrawActions(state, actions_own_line);
  DrawBannerPanel(state);
}

void DrawBannerPanel(AppState& state) {
  if (state.banner_lines.empty()) return;
  const StatusColors colors = WarningColors();
  ImGui::PushStyleColor(ImGuiCol_ChildBg, colors.fill);
  ImGui::PushStyleColor(ImGuiCol_Border, colors.text);
  BeginCard("banner");
  // The button first, top right; then the text from the top left, so the card's measured
  // height is the text's.
  const ImVec2 start = ImGui::GetCursorPos();
  const float close_width =
      ImGui::CalcTextSize(Tr(Str::kDismiss)).x + 2 * ImGui::GetStyle().FramePadding.x;
  ImGui::SetCursorPosX(ImGui::GetContentRegionMax().x - close_width);
  if (ImGui::SmallButton(Tr(Str::kDismiss))) {
    state.banner_lines.clear();
    state.link_messages.clear();
    RequestFrames(state);
  }
  ImGui::SetCursorPos(start);
  ImGui::PushStyleColor(ImGuiCol_Text, colors.text);
  const float wrap = ImGui::GetContentRegionMax().x - close_width - Em(1);
  ImGui::PushTextWrapPos(wrap);
  for (const std::string& line : state.banner_lines)
    ImGui::TextUnformatted(WrapForCjk(line.c_str(), wrap - ImGui::GetCursorPosX()).c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  EndCard();
  ImGui::PopStyleColor(2);
}

}  // namespace app
