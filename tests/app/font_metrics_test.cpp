// The CJK font merged into the page's Latin font gets the Latin em (src/app/draw/font_metrics.h):
// merged at the same pixel size, Droid Sans Fallback's characters came out at 0.89 of the
// Latin em (UX review 17: "small CJK glyphs" beside Latin text in the zh embed view).
#include "app/draw/font_metrics.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::vector<unsigned char> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::string kDejaVu = std::string(TRAINMEM_SOURCE_DIR) + "/assets/fonts/DejaVuSans-ui.ttf";
// The font the page's CJK subsets are cut from (assets/fonts/make_cjk_subset.py).
const char* kDroid = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf";

TEST(FontMetrics, HeightInEmsReadsHheaOverUnitsPerEm) {
  const auto dejavu = ReadFile(kDejaVu);
  ASSERT_FALSE(dejavu.empty());
  // DejaVu Sans: hhea ascender 1901, descender −483, unitsPerEm 2048.
  EXPECT_DOUBLE_EQ(app::HeightInEms(dejavu.data(), dejavu.size()), (1901.0 + 483.0) / 2048.0);
}

TEST(FontMetrics, MergedCjkFontGetsTheLatinEm) {
  const auto dejavu = ReadFile(kDejaVu);
  const auto droid = ReadFile(kDroid);
  if (droid.empty()) GTEST_SKIP() << kDroid << " missing (fonts-droid-fallback)";
  // Droid Sans Fallback: ascender 267, descender −68, unitsPerEm 256 (1.309 em high).
  EXPECT_DOUBLE_EQ(app::HeightInEms(droid.data(), droid.size()), (267.0 + 68.0) / 256.0);
  const float body = 14.0f;
  const float cjk =
      app::MatchingEmPixels(dejavu.data(), dejavu.size(), droid.data(), droid.size(), body);
  // ImGui scales a font so that its ascender − descender spans the pixel size: the em in
  // pixels is pixels / HeightInEms. Both ems are equal, so the CJK size is about 15.7 px.
  const double latin_em = body / app::HeightInEms(dejavu.data(), dejavu.size());
  const double cjk_em = cjk / app::HeightInEms(droid.data(), droid.size());
  EXPECT_NEAR(cjk_em, latin_em, 1e-4);
  EXPECT_NEAR(cjk, 15.74f, 0.01f);
}

TEST(FontMetrics, UnreadableFontKeepsThePixelSize) {
  const unsigned char junk[16] = {1, 2, 3};
  EXPECT_EQ(app::HeightInEms(junk, sizeof junk), 0.0);
  EXPECT_EQ(app::MatchingEmPixels(junk, sizeof junk, nullptr, 0, 14.0f), 14.0f);
}

}  // namespace
