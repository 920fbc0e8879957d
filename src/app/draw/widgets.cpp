#include "app/draw/widgets.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include <imgui_internal.h>  // ImGuiWindowFlags_Tooltip: the error box floats above the page

#include "app/app_actions.h"

namespace app {
namespace {

// The value cell of the current form row (FormRow → FieldErrors), so a field's errors can be
// drawn around and below that cell without taking layout space.
struct RowCell {
  bool valid = false;
  ImVec2 top_left;
  float width = 0;
  bool field_active = false;  // an InputCount of this row is being edited
};
RowCell g_row;
bool g_has_error_field = false;  // FieldErrors outlined a field this frame (the first one)
ImRect g_error_field;

}  // namespace

// ---- Forms ----------------------------------------------------------------------------------

bool BeginForm(const char* id) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoSavedSettings))
    return false;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, Em(9.5f));
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  return true;
}

void EndForm() {
  ImGui::EndTable();
  g_row.valid = false;
}

void FormRow(Str label, const char* config_key, Str help) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(Tr(label));
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(Em(24));
    if (config_key != nullptr && config_key[0] != '\0') {
      ImGui::PushStyleColor(ImGuiCol_Text, MutedTextColor());
      ImGui::TextUnformatted(config_key);
      ImGui::PopStyleColor();
    }
    if (help != Str::kEmpty) ImGui::TextUnformatted(WrapForCjk(Tr(help), Em(24)).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::TableSetColumnIndex(1);
  g_row = {true, ImGui::GetCursorScreenPos(), ImGui::GetContentRegionAvail().x, false};
  ImGui::SetNextItemWidth(-FLT_MIN);
}

// Errors never move the fields: the field gets a red outline, and its messages float in a box
// just below it (over the next row) while the field is hovered or being edited. Inserting them
// as lines would push every field below down under the pointer.
void FieldErrors(const AppState& state, const char* config_key, bool sub_paths) {
  const std::vector<const trainmem::Error*> errors = ErrorsFor(state, config_key, sub_paths);
  const bool in_row = g_row.valid;
  const bool active = in_row && g_row.field_active;
  g_row.valid = false;
  if (errors.empty()) return;
  ImRect field(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (in_row) field = ImRect(g_row.top_left, ImVec2(g_row.top_left.x + g_row.width, field.Max.y));
  if (!g_has_error_field) {
    g_has_error_field = true;
    g_error_field = field;
  }
  const ImU32 red = ErrorTextColor();
  ImGui::GetWindowDrawList()->AddRect(ImVec2(field.Min.x - 1, field.Min.y - 1),
                                      ImVec2(field.Max.x + 1, field.Max.y + 1), red,
                                      ImGui::GetStyle().FrameRounding, 0, 2.0f);
  if (!active && !ImGui::IsMouseHoveringRect(field.Min, field.Max)) return;
  const std::string name = std::string("##field_errors_") + config_key;
  ImGui::SetNextWindowPos(ImVec2(field.Min.x, field.Max.y + 2));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(std::max(field.GetWidth(), Em(16)), FLT_MAX));
  ImGui::PushStyleColor(ImGuiCol_Border, red);
  ImGui::Begin(name.c_str(), nullptr,
               ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_NoInputs |
                   ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav);
  const float wrap = std::max(field.GetWidth(), Em(16)) - ImGui::GetStyle().WindowPadding.x;
  ImGui::PushTextWrapPos(wrap);
  for (const trainmem::Error* error : errors) {
    ImGui::PushStyleColor(ImGuiCol_Text, red);
    ImGui::TextUnformatted(WrapForCjk(TrCore(error->message).c_str(), wrap).c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  ImGui::End();
  ImGui::PopStyleColor();
}

bool TakeFieldErrorRect(ImVec2* min, ImVec2* max) {
  if (!g_has_error_field) return false;
  g_has_error_field = false;
  *min = g_error_field.Min;
  *max = g_error_field.Max;
  return true;
}

void CountRow(AppState& state, Str label, const char* key, Str help, std::int64_t value, Step step,
              const std::function<void(trainmem::Config&, std::int64_t)>& set) {
  FormRow(label, key, help);
  std::int64_t edited = value;
  if (InputCount(key, &edited, step))
    EditField(state, key, [&](trainmem::Config& c) { set(c, edited); });
  FieldErrors(state, key);
}

void CheckboxRow(AppState& state, Str label, const char* key, Str help, bool value,
                 const std::function<void(trainmem::Config&, bool)>& set) {
  FormRow(label, key, help);
  bool edited = value;
  const std::string id = std::string("##") + key;
  if (ImGui::Checkbox(id.c_str(), &edited))
    EditField(state, key, [&](trainmem::Config& c) { set(c, edited); });
  FieldErrors(state, key);
}

// ---- Inputs ---------------------------------------------------------------------------------

namespace {

bool SmallButton(const char* label, const char* tooltip, float size) {
  const bool pressed = ImGui::Button(label, ImVec2(size, size));
  Tooltip(tooltip);
  return pressed;
}

// What the focused field's text says, when ImGui read it wrong: its sscanf("%lld") (musl's, in
// the browser) stores a number beyond the 64-bit range as -1, so a world size typed with twenty
// 9s was shown back as "-1" with "must be at least 1, got -1". strtoll saturates instead: the
// field then says the number is too large.
std::int64_t TypedValue(std::int64_t parsed) {
  const ImGuiInputTextState* typing = ImGui::GetInputTextState(ImGui::GetItemID());
  if (typing == nullptr || !typing->TextAIsValid || typing->TextA.Data == nullptr) return parsed;
  const char* text = typing->TextA.Data;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != ERANGE || end == text) return parsed;
  return static_cast<std::int64_t>(value);
}

std::int64_t Halve(std::int64_t v, bool allow_auto) {
  if (v > 1) return v / 2;
  return allow_auto ? -1 : 1;
}

}  // namespace

bool InputCount(const char* id, std::int64_t* value, Step step, const char* suffix,
                const char* words) {
  ImGui::PushID(id);
  const float button = ImGui::GetFrameHeight();
  const float spacing = ImGui::GetStyle().ItemInnerSpacing.x;
  const float suffix_width =
      suffix ? ImGui::CalcTextSize(suffix).x + ImGui::GetStyle().ItemSpacing.x : 0.0f;
  const float buttons = step == Step::kNone ? 0.0f : 2 * (button + spacing);
  ImGui::SetNextItemWidth(
      std::max(Em(3), ImGui::GetContentRegionAvail().x - buttons - suffix_width));
  // `words` replaces a sentinel's number in the field ("the rest"): ImGui prints a format without
  // a conversion as is, and text that does not parse leaves the value unchanged.
  std::string format = "%lld";
  if (words != nullptr) {
    format.clear();
    for (const char* c = words; *c != '\0'; ++c) format += *c == '%' ? "%%" : std::string(1, *c);
  }
  bool changed =
      ImGui::InputScalar("##value", ImGuiDataType_S64, value, nullptr, nullptr, format.c_str());
  if (changed) *value = TypedValue(*value);
  if (ImGui::IsItemActive()) g_row.field_active = true;
  if (step != Step::kNone) {
    const bool doubling = step != Step::kOne;
    const bool allow_auto = step == Step::kDoubleOrAuto;
    ImGui::SameLine(0, spacing);
    if (SmallButton("\xE2\x88\x92", Tr(doubling ? Str::kHalve : Str::kDecrease), button)) {
      *value = doubling ? Halve(*value, allow_auto) : std::max<std::int64_t>(*value - 1, 0);
      changed = true;
    }
    ImGui::SameLine(0, spacing);
    if (SmallButton("+", Tr(doubling ? Str::kDouble : Str::kIncrease), button)) {
      *value = doubling ? (*value < 1 ? 1 : *value * 2) : *value + 1;
      changed = true;
    }
  }
  if (suffix) {
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::PushStyleColor(ImGuiCol_Text, MutedTextColor());
    ImGui::TextUnformatted(suffix);
    ImGui::PopStyleColor();
  }
  ImGui::PopID();
  return changed;
}

bool InputPercent(const char* id, double* fraction, double min_percent, double max_percent) {
  double percent = *fraction * 100.0;
  const bool changed = ImGui::SliderScalar(id, ImGuiDataType_Double, &percent, &min_percent,
                                           &max_percent, "%.0f %%");
  if (changed) *fraction = std::round(percent) / 100.0;
  return changed;
}

// ---- Text -------------------------------------------------------------------------------------

void TextRight(const char* text) {
  const float width = ImGui::CalcTextSize(text).x;
  const float avail = ImGui::GetContentRegionAvail().x;
  if (avail > width) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - width);
  ImGui::TextUnformatted(text);
}

namespace {

// The length of the UTF-8 character starting at `c`, and its code point.
int DecodeUtf8(const char* c, unsigned* code) {
  const auto b = static_cast<unsigned char>(c[0]);
  if (b < 0x80) {
    *code = b;
    return 1;
  }
  int n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
  unsigned value = b & (0xFF >> (n + 1));
  for (int i = 1; i < n; ++i) {
    if ((static_cast<unsigned char>(c[i]) & 0xC0) != 0x80) {
      *code = 0xFFFD;
      return i;
    }
    value = (value << 6) | (static_cast<unsigned char>(c[i]) & 0x3F);
  }
  *code = value;
  return n;
}

bool IsCjk(unsigned code) { return code >= 0x2E80 && code <= 0xFFEF; }
// Closing punctuation stays with the character before it (no line starts with "，").
bool IsClosingPunctuation(unsigned code) {
  return code == 0x3001 || code == 0x3002 || code == 0xFF0C || code == 0xFF1A || code == 0xFF1B ||
         code == 0xFF09 || code == 0x300D || code == 0xFF01 || code == 0xFF1F;
}

}  // namespace

// ImGui 1.86 wraps at spaces and after '.' and ',' (which splits numbers: "60." / "97 GiB"),
// and Chinese has no spaces: a line of Chinese would run past the edge or break at the one
// space it has. This breaks lines at spaces or between CJK characters only, so that none is
// wider than `width` (a single word wider than that is left to ImGui's own wrapping).
std::string WrapForCjk(const char* text, float width) {
  if (width <= 0) return text;
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  auto measure = [&](const char* begin, const char* end) {
    return font->CalcTextSizeA(size, FLT_MAX, 0.0f, begin, end).x;
  };
  std::string out;
  float line = 0;
  const char* c = text;
  while (*c != '\0') {
    if (*c == '\n') {
      out += '\n';
      line = 0;
      ++c;
      continue;
    }
    // One token: a CJK character (with any closing punctuation after it), a space, or a run of
    // other characters.
    const char* begin = c;
    unsigned code = 0;
    int n = DecodeUtf8(c, &code);
    if (IsCjk(code) || code == ' ') {
      c += n;
      while (*c != '\0') {
        unsigned next = 0;
        const int m = DecodeUtf8(c, &next);
        if (!IsClosingPunctuation(next)) break;
        c += m;
      }
    } else {
      while (*c != '\0' && *c != '\n' && *c != ' ') {
        unsigned next = 0;
        const int m = DecodeUtf8(c, &next);
        if (IsCjk(next)) break;
        c += m;
      }
    }
    const float token = measure(begin, c);
    if (line > 0 && line + token > width) {
      out += '\n';
      line = 0;
      if (*begin == ' ') continue;  // no line starts with a space
    }
    out.append(begin, c);
    line += token;
  }
  return out;
}

void TextWrapped(const char* text) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(WrapForCjk(text, ImGui::GetContentRegionAvail().x).c_str());
  ImGui::PopTextWrapPos();
}

void TextColored(ImU32 color, const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  TextWrapped(text);
  ImGui::PopStyleColor();
}

void TextMuted(const char* text) { TextColored(MutedTextColor(), text); }

void Tooltip(const char* text) {
  if (!ImGui::IsItemHovered() || text == nullptr || text[0] == '\0') return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(Em(26));
  ImGui::TextUnformatted(WrapForCjk(text, Em(26)).c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void HelpMarker(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, MutedTextColor());
  ImGui::TextUnformatted(Tr(Str::kHelpMarker));
  ImGui::PopStyleColor();
  Tooltip(text);
}

void Pill(const char* text, StatusColors colors) {
  const ImVec2 pad(Em(0.5f), Em(0.15f));
  const ImVec2 size = ImGui::CalcTextSize(text);
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 end(pos.x + size.x + 2 * pad.x, pos.y + size.y + 2 * pad.y);
  draw->AddRectFilled(pos, end, colors.fill, Em(0.6f));
  draw->AddText(ImVec2(pos.x + pad.x, pos.y + pad.y), colors.text, text);
  ImGui::Dummy(ImVec2(end.x - pos.x, end.y - pos.y));
}

void ColorSwatch(ImU32 color) {
  const float side = Em(0.75f);
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const float top = pos.y + (ImGui::GetTextLineHeight() - side) * 0.5f;
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(pos.x, top), ImVec2(pos.x + side, top + side),
                                            color, Em(0.15f));
  ImGui::Dummy(ImVec2(side, ImGui::GetTextLineHeight()));
}

void SectionTitle(Str title) {
  ImGui::PushFont(GetFont(FontRole::kBold));
  ImGui::TextUnformatted(Tr(title));
  ImGui::PopFont();
}

// ---- Cards -----------------------------------------------------------------------------------

namespace {
std::unordered_map<ImGuiID, float>& CardHeights() {
  static std::unordered_map<ImGuiID, float> heights;
  return heights;
}
struct OpenCard {
  ImGuiID key;
  bool visible;  // ImGui skips the items of a child that is scrolled out of view
};
std::vector<OpenCard>& CardStack() {
  static std::vector<OpenCard> stack;
  return stack;
}
bool& CardLayoutChanged() {
  static bool changed = false;
  return changed;
}
}  // namespace

bool TakeCardLayoutChanged() {
  const bool changed = CardLayoutChanged();
  CardLayoutChanged() = false;
  return changed;
}

void BeginCard(const char* id) {
  const ImGuiID key = ImGui::GetID(id);
  auto it = CardHeights().find(key);
  const float height = it != CardHeights().end() ? it->second : Em(8);
  const bool visible =
      ImGui::BeginChild(id, ImVec2(0, height), true,
                        ImGuiWindowFlags_AlwaysUseWindowPadding | ImGuiWindowFlags_NoScrollbar |
                            ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NavFlattened);
  CardStack().push_back({key, visible});
}

void EndCard() {
  const OpenCard card = CardStack().back();
  CardStack().pop_back();
  // A skipped (clipped) child laid nothing out: keep the last real measurement.
  if (!card.visible) {
    ImGui::EndChild();
    return;
  }
  // Content height plus the bottom padding; ItemSpacing.y after the last item is not content.
  const float content = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y;
  const float height = std::ceil(content + ImGui::GetStyle().WindowPadding.y);
  float& stored = CardHeights()[card.key];
  if (std::fabs(stored - height) > 0.5f) {
    stored = height;
    CardLayoutChanged() = true;
  }
  ImGui::EndChild();
}

}  // namespace app
