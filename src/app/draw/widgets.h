// Small building blocks shared by the panels: the label | widget form, counts with ½/×2
// buttons, enum combos, right-aligned numbers, pills and auto-height cards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include <imgui.h>

#include "app/app_state.h"
#include "app/draw/theme.h"
#include "app/words/i18n.h"
#include "app/words/labels.h"

namespace app {

// ---- Forms: a two-column table, label on the left, widget filling the right ------------------
bool BeginForm(const char* id);
void EndForm();
// Starts a row; hovering the label shows the config key (e.g. parallelism.tensor_parallel_degree)
// and `help`. The next widget gets the whole cell width.
void FormRow(Str label, const char* config_key, Str help = Str::kEmpty);
// Red, wrapped messages for every draft error under `config_key`, in the current cell.
// They never move the fields: the field gets a red outline and the messages float below it
// while it is hovered or edited.
void FieldErrors(const AppState& state, const char* config_key, bool sub_paths = true);
// The first field FieldErrors outlined since the last call (for the #explorer mirror).
bool TakeFieldErrorRect(ImVec2* min, ImVec2* max);

// ---- Inputs ---------------------------------------------------------------------------------
enum class Step {
  kNone,
  kOne,
  kDouble,
  kDoubleOrAuto
};  // kDoubleOrAuto: ½ of 1 is -1 ("left over")

// Whole rows: label, an integer (InputCount) or a checkbox, the field's errors; `set` writes the
// edited value into the draft (through EditDraft).
void CountRow(AppState& state, Str label, const char* key, Str help, std::int64_t value, Step step,
              const std::function<void(trainmem::Config&, std::int64_t)>& set);
void CheckboxRow(AppState& state, Str label, const char* key, Str help, bool value,
                 const std::function<void(trainmem::Config&, bool)>& set);

// An integer field with −/+ buttons (±1 or ÷2/×2). `suffix` is text drawn after the buttons,
// such as the resolved "→ 8"; `words`, when given, is shown in the field instead of the number
// (a sentinel: "the rest", "even split"). Returns true when the value changed.
bool InputCount(const char* id, std::int64_t* value, Step step, const char* suffix = nullptr,
                const char* words = nullptr);
// A fraction edited as a percentage (0.95 ↔ "95 %").
bool InputPercent(const char* id, double* fraction, double min_percent, double max_percent);

template <class E, std::size_t N>
bool EnumCombo(const char* id, E* value, const EnumOption<E> (&options)[N]) {
  const char* preview = "";
  for (const auto& option : options) {
    if (option.value == *value) preview = Tr(option.label);
  }
  bool changed = false;
  if (ImGui::BeginCombo(id, preview)) {
    for (const auto& option : options) {
      const bool selected = option.value == *value;
      if (ImGui::Selectable(Tr(option.label), selected) && !selected) {
        *value = option.value;
        changed = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

// ---- Text -------------------------------------------------------------------------------------
// Lines of at most `width`, broken at spaces or between CJK characters (ImGui 1.86 breaks only
// at spaces); text without CJK comes back unchanged.
std::string WrapForCjk(const char* text, float width);
void TextWrapped(const char* text);                // wrapped to the cell, CJK-aware
void TextRight(const char* text);                  // right-aligned in the current cell/column
void TextColored(ImU32 color, const char* text);   // wrapped
void TextMuted(const char* text);                  // wrapped, muted colour
void HelpMarker(const char* text);                 // a muted "(?)" with a wrapped tooltip
void Tooltip(const char* text);                    // wrapped tooltip on the last item, if hovered
void Pill(const char* text, StatusColors colors);  // a rounded badge, e.g. FITS
void ColorSwatch(ImU32 color);                     // a small square in the text line
void SectionTitle(Str title);                      // bold heading with a little space above

// ---- Cards: bordered, padded child regions whose height follows their content ----------------
// ImGui 1.86 children cannot size themselves to their content, so the height measured at the
// end of one frame is used for the next (every change draws several frames, so it settles).
void BeginCard(const char* id);
void EndCard();
// True once after a card changed height: the main loop draws another frame so it settles.
bool TakeCardLayoutChanged();

}  // namespace app
