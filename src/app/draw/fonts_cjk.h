// Chinese glyphs for the page's fonts. The full subset (fonts/cjk-ui.ttf, every character the
// Chinese strings use) is fetched only when Chinese is to be shown and merged into each font
// of the ImGui atlas; until then only the language switch's "中文" is there, from a tiny
// embedded subset. Both are built from Debian's fonts-droid-fallback (src/app/CMakeLists.txt).
#pragma once

#include <string>
#include <vector>

namespace app {

// Merges the CJK glyphs into the font just added to the atlas (ImFontConfig::MergeMode), at
// `pixels`: the full set once loaded, else "中文" alone. Called by BuildFonts after each font.
void MergeCjkGlyphs(float pixels);

// The fetched font's bytes (empty when the fetch failed); the atlas is rebuilt on the next
// frame (TakeFontsChanged).
void SetCjkFontData(std::vector<unsigned char> data);
bool CjkFontLoaded();
// True once after SetCjkFontData: the main loop rebuilds the font atlas and its texture.
bool TakeFontsChanged();

}  // namespace app
