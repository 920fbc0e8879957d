#include "app/draw/fonts_cjk.h"

#include <imgui.h>

#include <cstddef>
#include <string>
#include <utility>

#include "app/draw/font_metrics.h"
#include "app/words/i18n.h"

namespace trainmem {
std::vector<std::pair<std::string, std::string>> EmbeddedFontFiles();
}  // namespace trainmem

namespace app {
namespace {

std::vector<unsigned char> g_cjk;  // the fetched subset; outlives the atlas that points into it
bool g_fonts_changed = false;

// The glyph ranges ImGui rasterises: exactly the characters of `texts`. Kept alive for the
// atlas (ImFontConfig keeps a pointer).
const ImWchar* RangesFor(const std::vector<std::string>& texts, ImVector<ImWchar>& storage) {
  ImFontGlyphRangesBuilder builder;
  for (const std::string& text : texts) builder.AddText(text.c_str());
  storage.clear();
  builder.BuildRanges(&storage);
  return storage.Data;
}

const std::string* SwitchFont() {
  static const auto files = trainmem::EmbeddedFontFiles();
  const std::string suffix = "cjk-switch.ttf";
  for (const auto& [path, data] : files) {
    if (path.size() >= suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
      return &data;
  }
  return nullptr;
}

// The size that gives the CJK font the em of the font it merges into (the atlas's last font
// added, theme.cpp BuildFonts), so its characters stand as tall as the Latin text around them.
float CjkPixels(const ImFontAtlas& atlas, const void* cjk, std::size_t cjk_size, float pixels) {
  if (atlas.ConfigData.empty()) return pixels;
  const ImFontConfig& base = atlas.ConfigData.back();
  return MatchingEmPixels(static_cast<const unsigned char*>(base.FontData),
                          static_cast<std::size_t>(base.FontDataSize),
                          static_cast<const unsigned char*>(cjk), cjk_size, pixels);
}

}  // namespace

void MergeCjkGlyphs(float pixels) {
  ImFontConfig config;
  config.MergeMode = true;
  config.FontDataOwnedByAtlas = false;
  config.OversampleH = 1;
  config.OversampleV = 1;
  config.PixelSnapH = true;
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  if (!g_cjk.empty()) {
    static ImVector<ImWchar> ranges;
    if (ranges.empty()) RangesFor(ChineseTexts(), ranges);
    atlas->AddFontFromMemoryTTF(g_cjk.data(), static_cast<int>(g_cjk.size()),
                                CjkPixels(*atlas, g_cjk.data(), g_cjk.size(), pixels), &config,
                                ranges.Data);
    return;
  }
  const std::string* data = SwitchFont();
  if (data == nullptr) return;
  static ImVector<ImWchar> switch_ranges;
  if (switch_ranges.empty()) RangesFor({"\xE4\xB8\xAD\xE6\x96\x87"}, switch_ranges);
  atlas->AddFontFromMemoryTTF(const_cast<char*>(data->data()), static_cast<int>(data->size()),
                              CjkPixels(*atlas, data->data(), data->size(), pixels), &config,
                              switch_ranges.Data);
}

void SetCjkFontData(std::vector<unsigned char> data) {
  if (data.empty()) return;
  g_cjk = std::move(data);
  g_fonts_changed = true;
}

bool CjkFontLoaded() { return !g_cjk.empty(); }

bool TakeFontsChanged() {
  const bool changed = g_fonts_changed;
  g_fonts_changed = false;
  return changed;
}

}  // namespace app
