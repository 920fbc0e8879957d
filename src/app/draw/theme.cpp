#include "app/draw/theme.h"

#include "app/draw/fonts_cjk.h"

#include <string>
#include <utility>
#include <vector>

namespace trainmem {
// Generated from assets/fonts/*.ttf by cmake/embed_files.cmake (src/app/CMakeLists.txt).
std::vector<std::pair<std::string, std::string>> EmbeddedFontFiles();
}  // namespace trainmem

namespace app {
namespace {

constexpr float kBodyPx = 14.0f;  // CSS pixels
constexpr float kHeadingPx = 19.0f;
constexpr float kHeadlinePx = 30.0f;

// The headline font holds only what a figure needs ("34.32 GiB", "−12.1 %"): a 30 px bold
// Latin-1 set would double the atlas (and the first frame's upload) for nothing.
constexpr ImWchar kHeadlineRanges[] = {0x0020, 0x007E, 0x00A0, 0x00A0, 0x00D7, 0x00D7,
                                       0x2009, 0x2009, 0x2013, 0x2014, 0x2212, 0x2212,
                                       0x2248, 0x2248, 0x2264, 0x2265, 0};

// Latin-1 plus the few symbols the UI draws; keep in sync with assets/fonts/make_subset.sh.
constexpr ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF, 0x2013, 0x2014, 0x2022, 0x2022, 0x2026, 0x2026, 0x2190, 0x2193, 0x2197,
    0x2197, 0x2212, 0x2212, 0x2248, 0x2248, 0x2260, 0x2260, 0x2264, 0x2265, 0x25A0, 0x25A0,
    0x25B2, 0x25B2, 0x25B6, 0x25B6, 0x25BC, 0x25BC, 0x25C0, 0x25C0, 0x25CB, 0x25CB, 0x25CF,
    0x25CF, 0x26A0, 0x26A0, 0x2713, 0x2713, 0x2717, 0x2717, 0};

ImFont* g_fonts[4] = {nullptr, nullptr, nullptr, nullptr};
bool g_dark = false;

constexpr ImU32 Rgb(unsigned hex, unsigned alpha = 255) {
  return IM_COL32((hex >> 16) & 0xFF, (hex >> 8) & 0xFF, hex & 0xFF, alpha);
}
ImVec4 Rgb4(unsigned hex, float alpha = 1.0f) {
  return ImVec4(((hex >> 16) & 0xFF) / 255.0f, ((hex >> 8) & 0xFF) / 255.0f, (hex & 0xFF) / 255.0f,
                alpha);
}

const std::string* FindFont(const char* suffix) {
  static const auto files = trainmem::EmbeddedFontFiles();
  const std::string wanted = suffix;
  for (const auto& [path, data] : files) {
    if (path.size() >= wanted.size() &&
        path.compare(path.size() - wanted.size(), wanted.size(), wanted) == 0) {
      return &data;
    }
  }
  return nullptr;
}

ImFont* AddFont(const char* suffix, float pixels, const ImWchar* ranges = kGlyphRanges) {
  ImGuiIO& io = ImGui::GetIO();
  const std::string* data = FindFont(suffix);
  if (data == nullptr) {
    ImFontConfig fallback;
    fallback.SizePixels = pixels;
    return io.Fonts->AddFontDefault(&fallback);
  }
  ImFontConfig config;
  config.FontDataOwnedByAtlas = false;  // the bytes live in a static vector
  config.OversampleH = 2;
  config.OversampleV = 1;
  config.PixelSnapH = false;
  return io.Fonts->AddFontFromMemoryTTF(const_cast<char*>(data->data()),
                                        static_cast<int>(data->size()), pixels, &config, ranges);
}

// One palette per scheme. Light: GitHub-like greys; secondary text #57606A is 5.9:1 on the
// page (#F6F7F9) and 6.4:1 on white cards. Dark: #E6EDF3 on #0D1117, secondary #9BA4AE (7.0:1
// on the page, 6.2:1 on #161B22 cards).
struct Palette {
  unsigned text, muted, page, card, border, frame, frame_hover, frame_active, button, button_hover,
      button_active, header, accent, accent_active, row_alt, table_head, scroll_grab, highlight,
      tab;
};
constexpr Palette kLight = {0x1F2328, 0x57606A, 0xF6F7F9, 0xFFFFFF, 0xD0D7DE, 0xFFFFFF, 0xF3F6FA,
                            0xEAF1FB, 0xF0F2F5, 0xE3E8EE, 0xD3DAE2, 0xEEF1F5, 0x2F6FEB, 0x1F5ACC,
                            0xF8F9FB, 0xF0F2F5, 0xC9D1D9, 0xEAF1FB, 0xD6E4FA};
constexpr Palette kDark = {0xE6EDF3, 0x9BA4AE, 0x0D1117, 0x161B22, 0x30363D, 0x0D1117, 0x1C2330,
                           0x1F2A3A, 0x21262D, 0x2D333B, 0x373E47, 0x21262D, 0x4493F8, 0x2F81F7,
                           0x1A2029, 0x1C2128, 0x484F58, 0x1F2A3A, 0x1F3A5F};
const Palette& P() { return g_dark ? kDark : kLight; }

void ApplyColors(ImGuiStyle& style) {
  const Palette& p = P();
  if (g_dark)
    ImGui::StyleColorsDark(&style);
  else
    ImGui::StyleColorsLight(&style);
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = Rgb4(p.text);
  c[ImGuiCol_TextDisabled] = Rgb4(p.muted);
  c[ImGuiCol_WindowBg] = Rgb4(p.page);
  c[ImGuiCol_ChildBg] = Rgb4(p.card);
  c[ImGuiCol_PopupBg] = Rgb4(p.card);
  c[ImGuiCol_Border] = Rgb4(p.border);
  c[ImGuiCol_FrameBg] = Rgb4(p.frame);
  c[ImGuiCol_FrameBgHovered] = Rgb4(p.frame_hover);
  c[ImGuiCol_FrameBgActive] = Rgb4(p.frame_active);
  c[ImGuiCol_Button] = Rgb4(p.button);
  c[ImGuiCol_ButtonHovered] = Rgb4(p.button_hover);
  c[ImGuiCol_ButtonActive] = Rgb4(p.button_active);
  c[ImGuiCol_Header] = Rgb4(p.header);
  c[ImGuiCol_HeaderHovered] = Rgb4(p.button_hover);
  c[ImGuiCol_HeaderActive] = Rgb4(p.button_active);
  c[ImGuiCol_Tab] = Rgb4(p.button_hover);
  c[ImGuiCol_TabHovered] = Rgb4(p.button_active);
  c[ImGuiCol_TabActive] = Rgb4(p.tab);
  c[ImGuiCol_CheckMark] = Rgb4(p.accent);
  c[ImGuiCol_SliderGrab] = Rgb4(p.accent);
  c[ImGuiCol_SliderGrabActive] = Rgb4(p.accent_active);
  c[ImGuiCol_Separator] = Rgb4(p.border);
  c[ImGuiCol_TableHeaderBg] = Rgb4(p.table_head);
  c[ImGuiCol_TableBorderStrong] = Rgb4(p.border);
  c[ImGuiCol_TableBorderLight] = Rgb4(p.border, 0.6f);
  c[ImGuiCol_TableRowBgAlt] = Rgb4(p.row_alt);
  c[ImGuiCol_TextSelectedBg] = Rgb4(p.accent, 0.3f);
  c[ImGuiCol_NavHighlight] = Rgb4(p.accent);
  c[ImGuiCol_ScrollbarBg] = Rgb4(p.page);
  c[ImGuiCol_ScrollbarGrab] = Rgb4(p.scroll_grab);
  c[ImGuiCol_ModalWindowDimBg] = Rgb4(0x000000, 0.3f);
}

}  // namespace

// Tableau 10: distinguishable, print-friendly, colour-blind-aware enough for five series.
ImU32 ComponentColor(Component component) {
  switch (component) {
    case Component::kParameters:
      return Rgb(0x4E79A7);
    case Component::kGradients:
      return Rgb(0xF28E2B);
    case Component::kOptimizer:
      return Rgb(0x59A14F);
    case Component::kActivations:
      return Rgb(0xB07AA1);
    case Component::kTemporary:
      return Rgb(0x76B7B2);
    default:
      return Rgb(0x999999);
  }
}

// Status text on its own fill, >= 4.5:1 in both schemes (light 1A7F37/DAFBE1 4.6:1,
// CF222E/FFEBE9 4.7:1, 7D4E00/FFF8C5 7.3:1; dark 56D364/12261E 7.9:1, FF7B72/3C1618 6.2:1,
// E3B341/2E2410 8.0:1). On cards the text colours alone are >= 4.5:1 as well.
StatusColors FitsColors() {
  return g_dark ? StatusColors{Rgb(0x56D364), Rgb(0x12261E)}
                : StatusColors{Rgb(0x1A7F37), Rgb(0xDAFBE1)};
}
StatusColors DoesNotFitColors() {
  return g_dark ? StatusColors{Rgb(0xFF7B72), Rgb(0x3C1618)}
                : StatusColors{Rgb(0xCF222E), Rgb(0xFFEBE9)};
}
StatusColors WarningColors() {
  return g_dark ? StatusColors{Rgb(0xE3B341), Rgb(0x2E2410)}
                : StatusColors{Rgb(0x7D4E00), Rgb(0xFFF8C5)};
}
ImU32 MutedTextColor() { return Rgb(P().muted); }
ImU32 BorderColor() { return Rgb(P().border); }
ImU32 ErrorTextColor() { return DoesNotFitColors().text; }
ImU32 AccentColor() { return Rgb(P().accent); }
ImU32 HighlightRowColor() { return Rgb(P().highlight); }
ImU32 TextColor() { return Rgb(P().text); }
ImU32 BarTrackColor() { return g_dark ? Rgb(0x262C36) : Rgb(0xEEF1F5); }
ImU32 BarOverflowColor() { return DoesNotFitColors().fill; }
bool IsDarkTheme() { return g_dark; }

void ApplyStyle(float device_pixel_ratio, bool dark) {
  g_dark = dark;
  ImGuiStyle style;
  ApplyColors(style);
  style.WindowPadding = ImVec2(12, 10);
  style.FramePadding = ImVec2(6, 3);
  style.ItemSpacing = ImVec2(8, 5);
  style.ItemInnerSpacing = ImVec2(5, 4);
  style.CellPadding = ImVec2(6, 3);
  style.IndentSpacing = 14;
  style.ScrollbarSize = 11;
  style.GrabMinSize = 10;
  style.WindowRounding = 0;
  style.ChildRounding = 6;
  style.FrameRounding = 4;
  style.PopupRounding = 6;
  style.ScrollbarRounding = 6;
  style.GrabRounding = 4;
  style.WindowBorderSize = 0;
  style.ChildBorderSize = 1;
  style.FrameBorderSize = 1;
  style.PopupBorderSize = 1;
  style.SelectableTextAlign = ImVec2(0, 0.5f);
  style.ScaleAllSizes(device_pixel_ratio);
  ImGui::GetStyle() = style;
}

void BuildFonts(float device_pixel_ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  // Each font gets the CJK glyphs merged in (fonts_cjk.h): "中文" always, the rest once the
  // Chinese subset has been fetched.
  g_fonts[0] = AddFont("DejaVuSans-ui.ttf", kBodyPx * device_pixel_ratio);
  MergeCjkGlyphs(kBodyPx * device_pixel_ratio);
  g_fonts[1] = AddFont("DejaVuSans-Bold-ui.ttf", kBodyPx * device_pixel_ratio);
  MergeCjkGlyphs(kBodyPx * device_pixel_ratio);
  g_fonts[2] = AddFont("DejaVuSans-Bold-ui.ttf", kHeadingPx * device_pixel_ratio);
  MergeCjkGlyphs(kHeadingPx * device_pixel_ratio);
  g_fonts[3] = AddFont("DejaVuSans-Bold-ui.ttf", kHeadlinePx * device_pixel_ratio, kHeadlineRanges);
  io.Fonts->Build();
  io.FontDefault = g_fonts[0];
}

ImFont* GetFont(FontRole role) { return g_fonts[static_cast<int>(role)]; }

}  // namespace app
