#include "app/draw/memory_bar.h"

#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/draw/widgets.h"
#include "app/words/i18n.h"
#include "core/report/report.h"

namespace app {
namespace {

// A vertical dashed line: the usable budget is a soft limit, the device a hard one.
void DashedLine(ImDrawList* draw, float x, float top, float bottom, ImU32 color, float thickness) {
  const float dash = Em(0.3f);
  for (float y = top; y < bottom; y += 2 * dash) {
    draw->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + dash, bottom)), color, thickness);
  }
}

void SegmentTooltip(const ComponentValue& value, std::int64_t total) {
  const double share =
      total > 0 ? 100.0 * static_cast<double>(value.bytes) / static_cast<double>(total) : 0.0;
  ImGui::BeginTooltip();
  ColorSwatch(ComponentColor(value.component));
  ImGui::SameLine();
  ImGui::TextUnformatted(ComponentName(value.component));
  ImGui::Text("%s  \xC2\xB7  %s  \xC2\xB7  %.1f %%", trainmem::FormatGiB(value.bytes).c_str(),
              trainmem::FormatGB(value.bytes).c_str(), share);
  ImGui::EndTooltip();
}

}  // namespace

void ComponentValues(const trainmem::MemoryBreakdown& bytes, ComponentValue out[5]) {
  out[0] = {Component::kParameters, bytes.parameters};
  out[1] = {Component::kGradients, bytes.gradients};
  out[2] = {Component::kOptimizer, bytes.optimizer_states};
  out[3] = {Component::kActivations, bytes.activations};
  out[4] = {Component::kTemporary, bytes.temporary};
}

const char* ComponentName(Component component) {
  switch (component) {
    case Component::kParameters:
      return Tr(Str::kComponentParameters);
    case Component::kGradients:
      return Tr(Str::kComponentGradients);
    case Component::kOptimizer:
      return Tr(Str::kComponentOptimizer);
    case Component::kActivations:
      return Tr(Str::kComponentActivations);
    case Component::kTemporary:
      return Tr(Str::kComponentTemporary);
    default:
      return "";
  }
}

void DrawMemoryBar(const trainmem::Estimate& estimate, float height_em) {
  const trainmem::MemoryBreakdown& bytes = estimate.per_device;
  const std::int64_t device = estimate.budget.device_bytes;
  const std::int64_t usable = estimate.budget.usable_bytes;
  const double scale_max =
      static_cast<double>(std::max({bytes.total, device, std::int64_t{1}})) * 1.02;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, Em(10));
  const float height = Em(height_em);
  auto x_of = [&](double value) {
    return origin.x + static_cast<float>(value / scale_max) * width;
  };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 end(origin.x + width, origin.y + height);
  draw->AddRectFilled(origin, end, BarTrackColor(), Em(0.2f));
  if (bytes.total > device && device > 0)
    draw->AddRectFilled(ImVec2(x_of(device), origin.y), end, BarOverflowColor());

  ImGui::InvisibleButton("memory_bar", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  const float mouse_x = ImGui::GetIO().MousePos.x;
  ComponentValue values[5];
  ComponentValues(bytes, values);
  double start = 0;
  for (const ComponentValue& value : values) {
    const float x0 = x_of(start);
    const float x1 = x_of(start + static_cast<double>(value.bytes));
    if (x1 - x0 >= 0.5f)
      draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x1, end.y), ComponentColor(value.component));
    if (hovered && mouse_x >= x0 && mouse_x < x1) SegmentTooltip(value, bytes.total);
    start += static_cast<double>(value.bytes);
  }
  const float pad = Em(0.15f);
  if (usable > 0)
    DashedLine(draw, x_of(usable), origin.y - pad, end.y + pad, MutedTextColor(), Em(0.12f));
  if (device > 0)
    draw->AddLine(ImVec2(x_of(device), origin.y - pad), ImVec2(x_of(device), end.y + pad),
                  TextColor(), Em(0.15f));
}

// "■ Parameters 14.96 GiB  ■ Gradients …   ┆ usable 60.8 GiB  │ device 64.0 GiB".
void DrawMemoryLegend(const trainmem::Estimate& estimate) {
  ComponentValue values[5];
  ComponentValues(estimate.per_device, values);
  const float right_edge = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  bool first = true;
  auto place = [&](float item_width) {
    if (!first) {
      ImGui::SameLine(0, Em(1.0f));
      if (ImGui::GetCursorScreenPos().x + item_width > right_edge) ImGui::NewLine();
    }
    first = false;
  };
  for (const ComponentValue& value : values) {
    const std::string text =
        std::string(ComponentName(value.component)) + " " + trainmem::FormatGiB(value.bytes);
    place(Em(1.0f) + ImGui::CalcTextSize(text.c_str()).x);
    ColorSwatch(ComponentColor(value.component));
    ImGui::SameLine(0, Em(0.3f));
    ImGui::TextUnformatted(text.c_str());
  }
  const std::string usable =
      TrFormat(Str::kLegendUsable, trainmem::FormatGiB(estimate.budget.usable_bytes).c_str());
  const std::string device =
      TrFormat(Str::kLegendDevice, trainmem::FormatGiB(estimate.budget.device_bytes).c_str());
  place(ImGui::CalcTextSize(usable.c_str()).x);
  ImGui::TextDisabled("%s", usable.c_str());
  place(ImGui::CalcTextSize(device.c_str()).x);
  ImGui::TextDisabled("%s", device.c_str());
}

}  // namespace app
