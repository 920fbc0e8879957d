// Sizes for fonts merged into one ImGui font. Dear ImGui (stb_truetype's ScaleForPixelHeight)
// maps a font's pixel size to its hhea ascender − descender, not to its em; fonts differ in
// that height per em (DejaVu Sans 1.164, Droid Sans Fallback 1.309), so a CJK font merged at
// the Latin font's pixel size draws its characters at 0.89 of the Latin em, visibly small beside
// Latin text on the same line. Header only: pure byte reading, tested natively
// (tests/app/font_metrics_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace app {

// The font's hhea ascender − descender in ems (head.unitsPerEm); 0 when the bytes are not a
// TrueType/OpenType font with those tables.
inline double HeightInEms(const unsigned char* ttf, std::size_t size) {
  if (ttf == nullptr || size < 12) return 0.0;
  auto u16 = [&](std::size_t at) { return static_cast<unsigned>(ttf[at] << 8 | ttf[at + 1]); };
  auto u32 = [&](std::size_t at) {
    return static_cast<std::size_t>(u16(at)) << 16 | static_cast<std::size_t>(u16(at + 2));
  };
  const std::size_t tables = u16(4);
  std::size_t head = 0, hhea = 0;
  for (std::size_t i = 0; i < tables && 12 + 16 * (i + 1) <= size; ++i) {
    const std::size_t record = 12 + 16 * i;
    const std::size_t offset = u32(record + 8);
    if (ttf[record] == 'h' && ttf[record + 1] == 'e' && ttf[record + 2] == 'a' &&
        ttf[record + 3] == 'd')
      head = offset;
    if (ttf[record] == 'h' && ttf[record + 1] == 'h' && ttf[record + 2] == 'e' &&
        ttf[record + 3] == 'a')
      hhea = offset;
  }
  if (head == 0 || hhea == 0 || head + 20 > size || hhea + 8 > size) return 0.0;
  const unsigned units_per_em = u16(head + 18);
  const auto ascender = static_cast<std::int16_t>(u16(hhea + 4));
  const auto descender = static_cast<std::int16_t>(u16(hhea + 6));
  if (units_per_em == 0 || ascender <= descender) return 0.0;
  return static_cast<double>(ascender - descender) / units_per_em;
}

// The pixel size to give `merged` so that its em is the em of `base` at `base_pixels`;
// `base_pixels` when either font's metrics cannot be read.
inline float MatchingEmPixels(const unsigned char* base, std::size_t base_size,
                              const unsigned char* merged, std::size_t merged_size,
                              float base_pixels) {
  const double base_height = HeightInEms(base, base_size);
  const double merged_height = HeightInEms(merged, merged_size);
  if (base_height <= 0.0 || merged_height <= 0.0) return base_pixels;
  return static_cast<float>(base_pixels * merged_height / base_height);
}

}  // namespace app
