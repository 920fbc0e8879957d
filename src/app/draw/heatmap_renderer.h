// The memory map's pixels: the grid of totals goes to the GPU as an RG32F texture and
// shaders/heatmap.frag turns it into colour blocks, hatching and the budget contour, rendered
// into an offscreen texture that the panel shows with ImGui::Image. Rendering happens only when
// the grid or the plot size changed; in between the texture is simply drawn again.
#pragma once

#include <cstdint>
#include <string>

#include <imgui.h>

#include "core/search/search.h"

namespace app {

// GL object names (0 = not created). Owned by AppState so the page has one of each.
struct HeatmapGpu {
  unsigned program = 0;
  unsigned vertex_array = 0;
  unsigned cells_texture = 0;     // RG32F, one texel per cell: log total, fits
  unsigned colormap_texture = 0;  // 256 × 1 RGBA8, also drawn as the legend
  unsigned framebuffer = 0;
  unsigned target_texture = 0;  // what ImGui::Image shows
  int target_width = 0;
  int target_height = 0;
  std::uint64_t rendered_version = 0;  // HeatmapView::version last rendered
  std::string error;                   // shader compile/link log: the panel shows it instead
};

// The colormap (viridis) at t ∈ [0, 1]; the LUT texture is built from it, and the panel uses
// it to pick readable text colours over cells.
ImVec4 ColormapColor(float t);

// Renders `map` into gpu.target_texture at width × height device pixels, unless `version` and
// the size are what was rendered last. Returns false when the shader is unavailable.
bool RenderHeatmap(HeatmapGpu& gpu, const trainmem::Heatmap& map, std::uint64_t version, int width,
                   int height, float pixel_ratio);

// Texture ids for ImGui::Image (the target is upside down: draw it with uv (0,1)–(1,0)).
ImTextureID HeatmapTexture(const HeatmapGpu& gpu);
ImTextureID ColormapTexture(HeatmapGpu& gpu);  // created on first use

}  // namespace app
