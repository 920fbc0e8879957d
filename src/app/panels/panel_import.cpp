// Import: open, paste or drop job files; the report of what was read (with its line), what is
// missing (a field each, with the value assumed meanwhile), the inconsistencies, and what was
// ignored and why. The imported config becomes the current one (app_import.cpp).
#include <cstdio>
#include <string>

#include <imgui.h>
#include <misc/cpp/imgui_stdlib.h>

#include "app/app_actions.h"
#include "app/app_import.h"
#include "app/draw/widgets.h"
#include "app/page_input.h"
#include "app/panels/panels.h"
#include "platform/files.h"
#include "platform/platform.h"

namespace app {
namespace {

std::string Where(const std::string& file, int line) {
  if (file.empty()) return "";
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

void DrawButtons(AppState& state) {
  if (ImGui::Button(Tr(Str::kImportOpenFiles))) platform::OpenFilePicker();
  Tooltip(Tr(Str::kImportOpenFilesHelp));
  ImGui::SameLine();
  if (ImGui::Button(Tr(Str::kImportPaste))) {
    platform::ReadClipboard([&state](const std::string& text) {
      if (text.empty()) return;
      ReceiveFiles(state, {platform::File{"pasted text", text}});
    });
  }
  Tooltip(Tr(Str::kImportPasteHelp));
  if (!state.import_panel.files.empty()) {
    ImGui::SameLine();
    if (ImGui::Button(Tr(Str::kImportClear))) ClearImport(state);
  }
}

void DrawFiles(AppState& state) {
  const ImportPanelState& panel = state.import_panel;
  for (std::size_t i = 0; i < panel.files.size(); ++i) {
    const trainmem::InputKind kind = i < panel.result.report.kinds.size()
                                         ? panel.result.report.kinds[i]
                                         : trainmem::InputKind::kUnknown;
    const std::string line =
        panel.files[i].name +
        (panel.has_result ? std::string(" \xE2\x80\x94 ") + TrCore(trainmem::InputKindName(kind))
                          : std::string());
    TextMuted(line.c_str());
  }
}

void DrawRecipeChoice(AppState& state) {
  ImportPanelState& panel = state.import_panel;
  const std::vector<std::string>& functions = panel.result.report.functions;
  if (functions.size() < 2) return;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##recipe", panel.function.c_str())) {
    for (const std::string& f : functions) {
      if (ImGui::Selectable(f.c_str(), f == panel.function) && f != panel.function) {
        panel.function = f;
        RunImport(state);
      }
    }
    ImGui::EndCombo();
  }
  Tooltip(Tr(Str::kImportRecipeHelp));
}

void DrawMissing(AppState& state) {
  ImportPanelState& panel = state.import_panel;
  const auto& missing = panel.result.report.missing;
  if (missing.empty()) return;
  SectionTitle(Str::kImportMissing);
  for (const trainmem::ImportMissing& m : missing) {
    ImGui::PushID(m.key.c_str());
    ImGui::TextUnformatted(m.key.c_str());
    // Why it is missing, in full: a phone has no hover for a tooltip.
    TextMuted(TrCore(m.why).c_str());
    std::string& typed = panel.typed[m.key];
    const std::string assumed =
        m.assumed.is_string() ? m.assumed.get<std::string>() : m.assumed.dump();
    const std::string hint = m.assumed.is_null()
                                 ? std::string()
                                 : TrFormat(Str::kImportAssumedTemplate, assumed.c_str());
    ImGui::SetNextItemWidth(-1);
    ImGui::InputTextWithHint("##value", hint.c_str(), &typed);
    Tooltip(m.why.c_str());
    ImGui::PopID();
  }
  if (ImGui::Button(Tr(Str::kImportApply))) ApplyMissingValues(state);
  Tooltip(Tr(Str::kImportApplyHelp));
}

void DrawReadTable(const trainmem::ImportReport& report) {
  if (!ImGui::BeginTable("import_read", 2,
                         ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg |
                             ImGuiTableFlags_NoSavedSettings))
    return;
  for (const trainmem::ImportRead& r : report.read) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    // A config.json read whole is one value: named, not dumped (its text would wrap anywhere).
    std::string value = r.value.is_object() ? std::string("{\xE2\x80\xA6}") : r.value.dump();
    if (value.size() > 40) value = value.substr(0, 37) + "...";
    const std::string left = r.key + " = " + value;
    ImGui::TextWrapped("%s", left.c_str());
    ImGui::TableNextColumn();
    const std::string where = Where(r.file, r.line);
    TextMuted(where.c_str());
    if (!r.source.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.source.c_str());
  }
  ImGui::EndTable();
}

// "Kept from the page (…): Qwen2.5 7B · A100 80GB · 16 devices · sequence length 4096". The
// kept values are the config's now (or still, when the import did not apply).
std::string KeptLine(const AppState& state) {
  std::string values;
  for (const trainmem::KeptValue& k : state.import_panel.kept) {
    std::string words;
    if (k.key == "model") {
      words = ModelDisplayName(state.config);
    } else if (k.key == "device") {
      words = state.config.device.name;
    } else if (k.key == "activation_checkpoint") {
      words = AcWords(state.config);
    } else if (k.value.is_string()) {
      words = k.value.get<std::string>();
    } else {
      words = ChangeWords(k.key, k.value.dump());
    }
    values += (values.empty() ? "" : " \xC2\xB7 ") + words;
  }
  return TrFormat(Str::kImportKeptTemplate, values.c_str());
}

void DrawReport(AppState& state) {
  const ImportPanelState& panel = state.import_panel;
  const trainmem::ImportReport& report = panel.result.report;
  const std::string summary =
      TrFormat(Str::kImportSummaryTemplate, static_cast<int>(report.read.size()),
               static_cast<int>(report.ignored.size()), static_cast<int>(report.missing.size()));
  ImGui::TextUnformatted(summary.c_str());
  if (!panel.kept.empty()) TextMuted(KeptLine(state).c_str());
  if (panel.result.config_valid) {
    TextColored(FitsColors().text, Tr(Str::kImportApplied));
  } else {
    TextColored(ErrorTextColor(), Tr(Str::kImportNotApplied));
    for (const std::string& line : ImportConfigErrorLines(panel))
      TextColored(ErrorTextColor(), line.c_str());
  }
  const std::string wanted = ImportWantedLine(panel);
  if (!wanted.empty()) TextColored(WarningColors().text, wanted.c_str());
  const std::vector<std::string> problems = ImportProblemsShown(panel);
  if (!problems.empty()) {
    SectionTitle(Str::kImportProblems);
    for (const std::string& p : problems) TextColored(WarningColors().text, p.c_str());
  }
  const std::string read_title =
      TrFormat(Str::kImportReadTemplate, static_cast<int>(report.read.size()));
  if (ImGui::TreeNodeEx("import_read_node", ImGuiTreeNodeFlags_DefaultOpen, "%s",
                        read_title.c_str())) {
    DrawReadTable(report);
    ImGui::TreePop();
  }
  const std::string notes_title =
      TrFormat(Str::kImportNotesTemplate, static_cast<int>(report.notes.size()));
  if (!report.notes.empty() &&
      ImGui::TreeNodeEx("import_notes_node", 0, "%s", notes_title.c_str())) {
    for (const std::string& n : report.notes) TextMuted(TrCore(n).c_str());
    ImGui::TreePop();
  }
  const std::string ignored_title =
      TrFormat(Str::kImportIgnoredTemplate, static_cast<int>(report.ignored.size()));
  if (!report.ignored.empty() &&
      ImGui::TreeNodeEx("import_ignored_node", 0, "%s", ignored_title.c_str())) {
    for (const trainmem::ImportIgnored& i : report.ignored) {
      const std::string where = Where(i.file, i.line);
      const std::string line =
          i.key + (where.empty() ? "" : " (" + where + ")") + ": " + TrCore(i.reason);
      TextMuted(line.c_str());
    }
    ImGui::TreePop();
  }
}

}  // namespace

void DrawImportPanel(AppState& state) {
  ProcessPendingFiles(state);
  platform::SetTextInputActive(ImGui::GetIO().WantTextInput);
  platform::SetKeyboardNavActive(KeyboardNavVisible());
  ImportPanelState& panel = state.import_panel;
  if (panel.open) {  // files just arrived: show their report even if the section was closed
    ImGui::SetNextItemOpen(true);
    panel.open = false;
  }
  if (!ImGui::CollapsingHeader(Tr(Str::kSectionImport), ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushID("import");
  if (panel.files.empty() && panel.errors.empty()) TextMuted(Tr(Str::kImportHint));
  DrawButtons(state);
  if (!panel.pending.empty()) {
    const std::string reading =
        TrFormat(Str::kImportReadingTemplate, static_cast<int>(panel.pending.size()));
    TextMuted(reading.c_str());
  }
  if (!panel.measurement_note.empty()) TextMuted(panel.measurement_note.c_str());
  DrawFiles(state);
  for (const trainmem::Error& e : panel.errors)
    TextColored(ErrorTextColor(), trainmem::FormatError(e).c_str());
  if (panel.has_result) {
    DrawRecipeChoice(state);
    DrawMissing(state);
    DrawReport(state);
  }
  ImGui::PopID();
  ImGui::Spacing();
}

}  // namespace app
