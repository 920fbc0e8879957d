// The stacked horizontal bar of the five components against the usable-budget line
// (device × budget_fraction) and the device capacity, with its legend. Used by the results
// panel and the embed card, so the picture is the same in both.
#pragma once

#include <cstdint>

#include "app/draw/theme.h"
#include "core/estimate/estimate.h"

namespace app {

struct ComponentValue {
  Component component;
  std::int64_t bytes;
};

// The five components of a breakdown, in drawing order.
void ComponentValues(const trainmem::MemoryBreakdown& bytes, ComponentValue out[5]);
const char* ComponentName(Component component);  // translated

void DrawMemoryBar(const trainmem::Estimate& estimate, float height_em);
void DrawMemoryLegend(const trainmem::Estimate& estimate);

}  // namespace app
