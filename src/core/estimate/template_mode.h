// Template mode: the seed's formulas exactly (seed/README.md "Peak training memory per device"),
// with the nominal parameter counts of the model's name and, for comparison, the exact counts.
#pragma once

#include <vector>

#include "core/config/config.h"
#include "core/estimate/estimate.h"

namespace trainmem {

// The seed's K for "no checkpointing" activations: the midpoint of its "K ≈ 10–15".
inline constexpr double kTemplateActivationK = 12.5;

// `exact` = CountParams(config.model, false), passed in so one estimate counts once.
TemplateComparison TemplateComparisonFor(const Config& config, const Layout& layout,
                                         const ParamCounts& exact);

// One entry per pipeline stage; the seed divides everything evenly by PP, so they are equal.
std::vector<StageEstimate> TemplateStages(const Config& config, const Layout& layout,
                                          const TemplateComparison& comparison);

// What swap_optimizer / offload moves to the host (the seed's ③ without the swap).
std::int64_t TemplateHostOptimizerBytes(const Config& config, const Layout& layout);

}  // namespace trainmem
