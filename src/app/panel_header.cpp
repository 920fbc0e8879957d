// The header (name, share and export buttons, brief feedback) and the dismissible banner that
// lists what a share link contained but could not be read.
#include <string>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/app_explorer.h"
#include "app/panels.h"
#include "app/widgets.h"

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

// Right-aligned: [feedback] [Copy link] [Copy embed snippet] [Export ▾].
void DrawActions(AppState& state) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* labels[] = {Tr(Str::kCopyLink), Tr(Str::kCopyEmbedSnippet), Tr(Str::kExportMenu)};
  float width = 0;
  for (const char* label : labels)
    width += ImGui::CalcTextSize(label).x + 2 * style.FramePadding.x + style.ItemSpacing.x;
  const bool show_feedback = !state.feedback.empty() && ImGui::GetTime() < state.feedback_until;
  const float feedback_width =
      show_feedback ? ImGui::CalcTextSize(state.feedback.c_str()).x + Em(1) : 0.0f;
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

void DrawHeaderPanel(AppState& state) {
  ImGui::PushFont(GetFont(FontRole::kHeading));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(Tr(Str::kAppName));
  ImGui::PopFont();
  ImGui::SameLine(0, Em(0.8f));
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", Tr(Str::kAppTagline));
  ImGui::SameLine(0, Em(0.8f));
  // The other language's name, in that language: "中文" on the English page (its two glyphs
  // are always in the atlas), "English" on the Chinese one.
  const bool switch_language = ImGui::SmallButton(Tr(Str::kLanguageSwitch));
  RecordRect(state, "language_switch", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (switch_language) {
    ShowLanguage(state,
                 CurrentLanguage() == Language::kChinese ? Language::kEnglish : Language::kChinese);
  }
  Tooltip(Tr(Str::kLanguageSwitchHelp));
  DrawActions(state);
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
