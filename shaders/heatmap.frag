#version 300 es
// The memory map: one block per grid cell coloured by its total (log scale through a
// perceptual colormap), invalid cells hatched grey, and the budget contour — the boundary
// between cells that fit (total ≤ device × budget_fraction) and cells that do not — drawn as a
// line of constant pixel width along the cell edges.
//
// Why edges and not an interpolated iso-line: the grid's values are discrete (powers of two), and
// a line through a cell would cut a fitting cell in two; on the edges every cell is on exactly
// one side, the side its tooltip states.
//
// The target is the plot area in device pixels; gl_FragCoord (0,0) is the bottom-left corner,
// which holds cell (0,0): the smallest x and y values, as on a chart.
precision highp float;
precision highp int;

uniform highp sampler2D u_cells;   // RG32F, nx × ny: R = log(total GiB), G = 1 fits / 0 not;
                                   // R < -1e30 marks an invalid cell
uniform sampler2D u_colormap;      // 256 × 1 RGBA8 LUT (viridis), low → high
uniform vec2 u_size;               // render target size in pixels
uniform vec2 u_log_range;          // log(min GiB), log(max GiB) over the valid cells
uniform float u_pixel_ratio;       // devicePixelRatio: line widths are in CSS pixels

out vec4 o_color;

const float kInvalid = -1e30;
const vec3 kGap = vec3(1.0);                      // cell separators: the card's background
const vec3 kHatchLight = vec3(0.855, 0.867, 0.882);
const vec3 kHatchDark = vec3(0.725, 0.741, 0.761);
const vec3 kContour = vec3(1.0, 0.33, 0.22);     // no colour of viridis is near red
const vec3 kContourHalo = vec3(0.09, 0.09, 0.11);
const float kFar = 1e9;

// (log total, fits); cells outside the grid read as invalid.
vec2 Cell(ivec2 cell, ivec2 grid) {
  if (any(lessThan(cell, ivec2(0))) || any(greaterThanEqual(cell, grid))) return vec2(2.0 * kInvalid, 0.0);
  return texelFetch(u_cells, cell, 0).rg;
}

vec3 Colormap(float value) {
  float span = max(u_log_range.y - u_log_range.x, 1e-6);
  float t = clamp((value - u_log_range.x) / span, 0.0, 1.0);
  // Texel centres: t = 0 and t = 1 hit the first and last entries exactly.
  return texture(u_colormap, vec2(t * (255.0 / 256.0) + 0.5 / 256.0, 0.5)).rgb;
}

// True when both cells are valid and one fits and the other does not.
bool Crosses(vec2 a, vec2 b) {
  return a.r > kInvalid && b.r > kInvalid && (a.g > 0.5) != (b.g > 0.5);
}

// Distance in pixels from this fragment to the nearest cell edge (or corner) that separates a
// fitting cell from one that does not fit. fwidth(cell_pos) is cells per pixel, so the line keeps
// its pixel width whatever the cell size.
float ContourDistance(vec2 cell_pos, ivec2 cell, ivec2 grid) {
  vec2 here = Cell(cell, grid);
  vec2 per_px = max(fwidth(cell_pos), vec2(1e-6));
  vec2 f = fract(cell_pos);
  vec2 low = f / per_px;            // pixels to the left / bottom edge
  vec2 high = (1.0 - f) / per_px;   // pixels to the right / top edge
  float d = kFar;
  if (Crosses(here, Cell(cell + ivec2(-1, 0), grid))) d = min(d, low.x);
  if (Crosses(here, Cell(cell + ivec2(1, 0), grid))) d = min(d, high.x);
  if (Crosses(here, Cell(cell + ivec2(0, -1), grid))) d = min(d, low.y);
  if (Crosses(here, Cell(cell + ivec2(0, 1), grid))) d = min(d, high.y);
  // Diagonal neighbours close the corners where the boundary turns.
  for (int k = 0; k < 4; ++k) {
    ivec2 step = ivec2(k & 1, k >> 1) * 2 - 1;
    if (Crosses(here, Cell(cell + step, grid))) {
      vec2 to_corner = vec2(step.x < 0 ? low.x : high.x, step.y < 0 ? low.y : high.y);
      d = min(d, length(to_corner));
    }
  }
  return d;
}

void main() {
  ivec2 grid = textureSize(u_cells, 0);
  vec2 cell_pos = gl_FragCoord.xy / u_size * vec2(grid);
  ivec2 cell = ivec2(min(floor(cell_pos), vec2(grid - 1)));
  vec2 value = Cell(cell, grid);

  vec3 color;
  if (value.r <= kInvalid) {
    float stripe = mod(gl_FragCoord.x + gl_FragCoord.y, 8.0 * u_pixel_ratio);
    color = stripe < 3.0 * u_pixel_ratio ? kHatchDark : kHatchLight;
  } else {
    color = Colormap(value.r);
  }

  // Separators between cells, half a CSS pixel on each side of the boundary.
  vec2 cell_px = u_size / vec2(grid);
  vec2 from_edge = min(fract(cell_pos), 1.0 - fract(cell_pos)) * cell_px;
  if (min(from_edge.x, from_edge.y) < 0.5 * u_pixel_ratio) color = kGap;

  // The contour straddles the edge: each side draws its half, a red core in a dark halo so it
  // reads on every colour of the map and differs from the white current-config outline.
  float distance_px = ContourDistance(cell_pos, cell, grid);
  float halo = 1.0 - smoothstep(2.4 * u_pixel_ratio, 3.2 * u_pixel_ratio, distance_px);
  float core = 1.0 - smoothstep(1.3 * u_pixel_ratio, 2.0 * u_pixel_ratio, distance_px);
  color = mix(color, kContourHalo, halo * 0.85);
  color = mix(color, kContour, core);
  o_color = vec4(color, 1.0);
}
