#include "app/theme.h"

#include "app/fonts_cjk.h"

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

// Latin-1 plus the few symbols the UI draws; keep in sync with assets/fonts/make_subset.sh.
constexpr ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF, 0x2013, 0x2014, 0x2022, 0x2022, 0x2026, 0x2026, 0x2190, 0x2193, 0x2197,
    0x2197, 0x2212, 0x2212, 0x2248, 0x2248, 0x2260, 0x2260, 0x2264, 0x2265, 0x25A0, 0x25A0,
    0x25B2, 0x25B2, 0x25B6, 0x25B6, 0x25BC, 0x25BC, 0x25C0, 0x25C0, 0x25CB, 0x25CB, 0x25CF,
    0x25CF, 0x26A0, 0x26A0, 0x2713, 0x2713, 0x2717, 0x2717, 0};

ImFont* g_fonts[3] = {nullptr, nullptr, nullptr};

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

ImFont* AddFont(const char* suffix, float pixels) {
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
                                        static_cast<int>(data->size()), pixels, &config,
                                        kGlyphRanges);
}

void ApplyColors(ImGuiStyle& style) {
  ImGui::StyleColorsLight(&style);
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = Rgb4(0x1F2328);
  c[ImGuiCol_TextDisabled] = Rgb4(0x6E7781);
  c[ImGuiCol_WindowBg] = Rgb4(0xF6F7F9);
  c[ImGuiCol_ChildBg] = Rgb4(0xFFFFFF);
  c[ImGuiCol_PopupBg] = Rgb4(0xFFFFFF);
  c[ImGuiCol_Border] = Rgb4(0xD8DEE4);
  c[ImGuiCol_FrameBg] = Rgb4(0xFFFFFF);
  c[ImGuiCol_FrameBgHovered] = Rgb4(0xF3F6FA);
  c[ImGuiCol_FrameBgActive] = Rgb4(0xEAF1FB);
  c[ImGuiCol_Button] = Rgb4(0xF0F2F5);
  c[ImGuiCol_ButtonHovered] = Rgb4(0xE3E8EE);
  c[ImGuiCol_ButtonActive] = Rgb4(0xD3DAE2);
  c[ImGuiCol_Header] = Rgb4(0xEEF1F5);
  c[ImGuiCol_HeaderHovered] = Rgb4(0xE3E8EE);
  c[ImGuiCol_HeaderActive] = Rgb4(0xD3DAE2);
  c[ImGuiCol_CheckMark] = Rgb4(0x2F6FEB);
  c[ImGuiCol_SliderGrab] = Rgb4(0x2F6FEB);
  c[ImGuiCol_SliderGrabActive] = Rgb4(0x1F5ACC);
  c[ImGuiCol_Separator] = Rgb4(0xD8DEE4);
  c[ImGuiCol_TableHeaderBg] = Rgb4(0xF0F2F5);
  c[ImGuiCol_TableBorderStrong] = Rgb4(0xD8DEE4);
  c[ImGuiCol_TableBorderLight] = Rgb4(0xE7EBEF);
  c[ImGuiCol_TableRowBgAlt] = Rgb4(0xF8F9FB);
  c[ImGuiCol_TextSelectedBg] = Rgb4(0x2F6FEB, 0.25f);
  c[ImGuiCol_NavHighlight] = Rgb4(0x2F6FEB);
  c[ImGuiCol_ScrollbarBg] = Rgb4(0xF6F7F9);
  c[ImGuiCol_ScrollbarGrab] = Rgb4(0xC9D1D9);
  c[ImGuiCol_ModalWindowDimBg] = Rgb4(0x1F2328, 0.25f);
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

StatusColors FitsColors() { return {Rgb(0x1A7F37), Rgb(0xDAFBE1)}; }
StatusColors DoesNotFitColors() { return {Rgb(0xCF222E), Rgb(0xFFEBE9)}; }
StatusColors WarningColors() { return {Rgb(0x7D4E00), Rgb(0xFFF8C5)}; }
ImU32 MutedTextColor() { return Rgb(0x6E7781); }
ImU32 BorderColor() { return Rgb(0xD8DEE4); }
ImU32 ErrorTextColor() { return Rgb(0xCF222E); }
ImU32 AccentColor() { return Rgb(0x2F6FEB); }
ImU32 HighlightRowColor() { return Rgb(0xEAF1FB); }

void ApplyStyle(float device_pixel_ratio) {
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
  io.Fonts->Build();
  io.FontDefault = g_fonts[0];
}

ImFont* GetFont(FontRole role) { return g_fonts[static_cast<int>(role)]; }

}  // namespace app
