// [SECTION] index
//   Colormap
//   Shader program (sources embedded from shaders/ at build time)
//   Textures and the offscreen target
//   Rendering, with the GL state ImGui relies on saved and restored
#include "app/draw/heatmap_renderer.h"

#include <GLES3/gl3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace trainmem {
// Generated from shaders/* by cmake/embed_files.cmake (src/app/CMakeLists.txt).
std::vector<std::pair<std::string, std::string>> EmbeddedShaderFiles();
}  // namespace trainmem

namespace app {
namespace {

constexpr float kInvalidCell = -1e31f;  // below heatmap.frag's kInvalid
constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

// ---- Colormap ------------------------------------------------------------------------------

// A degree-6 polynomial fit of matplotlib's viridis (Matt Zucker, "Optimal polynomial colormaps",
// shadertoy WlfXRN, CC0): perceptually uniform, readable in greyscale and by most colour-blind
// readers.
ImVec4 Viridis(float t) {
  static constexpr float c[7][3] = {{0.2777273272f, 0.0054073445f, 0.3340998053f},
                                    {0.1050930431f, 1.4046135299f, 1.3845901626f},
                                    {-0.3308618287f, 0.2148475595f, 0.0950951630f},
                                    {-4.6342304990f, -5.7991009734f, -19.3324409563f},
                                    {6.2282699363f, 14.1799333668f, 56.6905526007f},
                                    {4.7763849977f, -13.7451453777f, -65.3530326334f},
                                    {-5.4354558559f, 4.6458526122f, 26.3124352496f}};
  float rgb[3];
  for (int channel = 0; channel < 3; ++channel) {
    float v = c[6][channel];
    for (int k = 5; k >= 0; --k) v = c[k][channel] + t * v;
    rgb[channel] = std::clamp(v, 0.0f, 1.0f);
  }
  return ImVec4(rgb[0], rgb[1], rgb[2], 1.0f);
}

// ---- Shader program ------------------------------------------------------------------------

const std::string* ShaderSource(const char* name) {
  static const auto files = trainmem::EmbeddedShaderFiles();
  for (const auto& [path, text] : files) {
    if (path == name) return &text;
  }
  return nullptr;
}

GLuint CompileShader(GLenum type, const char* name, std::string& error) {
  const std::string* source = ShaderSource(name);
  if (source == nullptr) {
    error = std::string(name) + " is not embedded";
    return 0;
  }
  const GLuint shader = glCreateShader(type);
  const char* text = source->c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return shader;
  char log[1024] = "";
  glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
  error = std::string(name) + ": " + log;
  glDeleteShader(shader);
  return 0;
}

bool EnsureProgram(HeatmapGpu& gpu) {
  if (gpu.program != 0) return true;
  if (!gpu.error.empty()) return false;  // failed before: do not retry every frame
  const GLuint vertex = CompileShader(GL_VERTEX_SHADER, "shaders/heatmap.vert", gpu.error);
  const GLuint fragment =
      vertex ? CompileShader(GL_FRAGMENT_SHADER, "shaders/heatmap.frag", gpu.error) : 0;
  if (vertex == 0 || fragment == 0) {
    if (vertex) glDeleteShader(vertex);
    std::fprintf(stderr, "trainmem heatmap shader: %s\n", gpu.error.c_str());
    return false;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vertex);
  glAttachShader(program, fragment);
  glLinkProgram(program);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[1024] = "";
    glGetProgramInfoLog(program, sizeof(log), nullptr, log);
    gpu.error = std::string("link: ") + log;
    std::fprintf(stderr, "trainmem heatmap shader: %s\n", gpu.error.c_str());
    glDeleteProgram(program);
    return false;
  }
  gpu.program = program;
  glGenVertexArrays(1, &gpu.vertex_array);  // no attributes: WebGL2 still wants one bound
  return true;
}

// ---- Textures and the offscreen target -----------------------------------------------------

GLuint NewTexture(GLint filter) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return texture;
}

// Per cell: log(total GiB), because the axes are powers of two and totals span orders of
// magnitude (a few GiB to many TiB), and the core's own fits flag, so the contour separates
// exactly the cells whose tooltips say "fits" from the others.
void UploadCells(HeatmapGpu& gpu, const trainmem::Heatmap& map) {
  const int width = static_cast<int>(map.x.values.size());
  const int height = static_cast<int>(map.y.values.size());
  std::vector<float> texels(map.cells.size() * 2, 0.0f);
  for (std::size_t i = 0; i < map.cells.size(); ++i) {
    const trainmem::HeatmapCell& cell = map.cells[i];
    const bool valid = cell.valid && cell.total_bytes > 0;
    texels[2 * i] =
        valid ? static_cast<float>(std::log(cell.total_bytes / kBytesPerGiB)) : kInvalidCell;
    texels[2 * i + 1] = cell.fits ? 1.0f : 0.0f;
  }
  if (gpu.cells_texture == 0)
    gpu.cells_texture = NewTexture(GL_NEAREST);  // float textures: no filtering
  glBindTexture(GL_TEXTURE_2D, gpu.cells_texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32F, width, height, 0, GL_RG, GL_FLOAT, texels.data());
}

void EnsureColormap(HeatmapGpu& gpu) {
  if (gpu.colormap_texture != 0) return;
  std::vector<unsigned char> lut(256 * 4);
  for (int i = 0; i < 256; ++i) {
    const ImVec4 c = Viridis(static_cast<float>(i) / 255.0f);
    lut[i * 4 + 0] = static_cast<unsigned char>(std::lround(c.x * 255.0f));
    lut[i * 4 + 1] = static_cast<unsigned char>(std::lround(c.y * 255.0f));
    lut[i * 4 + 2] = static_cast<unsigned char>(std::lround(c.z * 255.0f));
    lut[i * 4 + 3] = 255;
  }
  gpu.colormap_texture = NewTexture(GL_LINEAR);  // smooth when stretched into the legend
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, lut.data());
}

void EnsureTarget(HeatmapGpu& gpu, int width, int height) {
  if (gpu.target_texture != 0 && gpu.target_width == width && gpu.target_height == height) return;
  if (gpu.target_texture == 0) gpu.target_texture = NewTexture(GL_NEAREST);  // shown 1:1
  glBindTexture(GL_TEXTURE_2D, gpu.target_texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  if (gpu.framebuffer == 0) glGenFramebuffers(1, &gpu.framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, gpu.framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, gpu.target_texture,
                         0);
  gpu.target_width = width;
  gpu.target_height = height;
}

// ---- Rendering -----------------------------------------------------------------------------

// What this file changes and ImGui's backend or main.cpp's Present expect as it was.
struct SavedGlState {
  GLint framebuffer, program, vertex_array, active_texture, texture0, texture1, viewport[4];
  GLboolean blend, scissor, depth, cull;

  SavedGlState() {
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vertex_array);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active_texture);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture0);
    glActiveTexture(GL_TEXTURE1);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture1);
    glGetIntegerv(GL_VIEWPORT, viewport);
    blend = glIsEnabled(GL_BLEND);
    scissor = glIsEnabled(GL_SCISSOR_TEST);
    depth = glIsEnabled(GL_DEPTH_TEST);
    cull = glIsEnabled(GL_CULL_FACE);
  }
  ~SavedGlState() {
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(framebuffer));
    glUseProgram(static_cast<GLuint>(program));
    glBindVertexArray(static_cast<GLuint>(vertex_array));
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(texture1));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(texture0));
    glActiveTexture(static_cast<GLenum>(active_texture));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    Set(GL_BLEND, blend);
    Set(GL_SCISSOR_TEST, scissor);
    Set(GL_DEPTH_TEST, depth);
    Set(GL_CULL_FACE, cull);
  }
  static void Set(GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); }
};

void SetUniforms(const HeatmapGpu& gpu, const trainmem::Heatmap& map, int width, int height,
                 float pixel_ratio) {
  const auto log_gib = [](std::int64_t bytes) {
    return static_cast<float>(std::log(std::max<double>(bytes, 1.0) / kBytesPerGiB));
  };
  glUniform1i(glGetUniformLocation(gpu.program, "u_cells"), 0);
  glUniform1i(glGetUniformLocation(gpu.program, "u_colormap"), 1);
  glUniform2f(glGetUniformLocation(gpu.program, "u_size"), static_cast<float>(width),
              static_cast<float>(height));
  glUniform2f(glGetUniformLocation(gpu.program, "u_log_range"), log_gib(map.min_total_bytes),
              log_gib(map.max_total_bytes));
  glUniform1f(glGetUniformLocation(gpu.program, "u_pixel_ratio"), pixel_ratio);
}

}  // namespace

ImVec4 ColormapColor(float t) { return Viridis(std::clamp(t, 0.0f, 1.0f)); }

bool RenderHeatmap(HeatmapGpu& gpu, const trainmem::Heatmap& map, std::uint64_t version, int width,
                   int height, float pixel_ratio) {
  if (map.cells.empty() || width <= 0 || height <= 0) return false;
  if (version == gpu.rendered_version && width == gpu.target_width && height == gpu.target_height)
    return true;
  const SavedGlState saved;
  if (!EnsureProgram(gpu)) return false;
  glActiveTexture(GL_TEXTURE0);
  if (version != gpu.rendered_version) UploadCells(gpu, map);
  EnsureColormap(gpu);
  EnsureTarget(gpu, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, gpu.framebuffer);
  glViewport(0, 0, width, height);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glUseProgram(gpu.program);
  glBindVertexArray(gpu.vertex_array);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, gpu.cells_texture);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, gpu.colormap_texture);
  SetUniforms(gpu, map, width, height, pixel_ratio);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  gpu.rendered_version = version;
  return true;
}

ImTextureID HeatmapTexture(const HeatmapGpu& gpu) {
  return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(gpu.target_texture));
}

ImTextureID ColormapTexture(HeatmapGpu& gpu) {
  if (gpu.colormap_texture == 0) {
    GLint previous = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
    EnsureColormap(gpu);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  }
  return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(gpu.colormap_texture));
}

}  // namespace app
