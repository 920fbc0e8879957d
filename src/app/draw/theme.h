// Look and feel: one colour per memory component everywhere (table, bar, legend, stage rows),
// a calm light style and its dark twin (prefers-color-scheme), and the fonts. Text colours meet
// WCAG AA (>= 4.5:1) on the backgrounds they are drawn on, in both schemes. Sizes are in "em"
// (multiples of the font size), and the font size already includes the device pixel ratio, so every
// layout scales with DPI.
#pragma once

#include <imgui.h>

namespace app {

enum class Component { kParameters, kGradients, kOptimizer, kActivations, kTemporary, kCount };

ImU32 ComponentColor(Component component);

// Status colours: a verdict is green/red, a warning amber; text and fill variants.
struct StatusColors {
  ImU32 text;
  ImU32 fill;
};
StatusColors FitsColors();
StatusColors DoesNotFitColors();
StatusColors WarningColors();
ImU32 MutedTextColor();
ImU32 BorderColor();
ImU32 ErrorTextColor();
ImU32 AccentColor();
ImU32 HighlightRowColor();  // the row the headline figures come from
ImU32 TextColor();          // body text
ImU32 BarTrackColor();      // the memory bar's empty track
ImU32 BarOverflowColor();   // the part of the bar beyond the device
bool IsDarkTheme();

// The style for a given device pixel ratio (ImGui works in device pixels here: the canvas is
// CSS size × DPR, see main.cpp), light or dark.
void ApplyStyle(float device_pixel_ratio, bool dark);

// (Re)builds the font atlas for `device_pixel_ratio`: the body font, a bold one, a larger bold
// one for headings and the verdict pill, and the headline size for the verdict's GiB figure
// (the largest text on the page). The caller re-uploads the texture.
void BuildFonts(float device_pixel_ratio);

enum class FontRole { kBody, kBold, kHeading, kHeadline };
ImFont* GetFont(FontRole role);

// n × the current font size.
inline float Em(float n) { return n * ImGui::GetFontSize(); }

}  // namespace app
