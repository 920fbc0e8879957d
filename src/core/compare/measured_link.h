// The measurement in a share link: the page key `m` (share_link_detail.h kPageLinkKeys), e.g.
// `&m=reserved:72.82GiB,max_allocated:39.27GiB@r0,act:20GiB`. Items are `name:size[@rN]`:
// a metric (reserved, max_allocated, allocated, active, device_used) with the rank that measured
// it, or a component of a profile's peak (params, grads, optim, act, temp). Sizes are GiB with
// up to three decimals (±0.5 MiB), so a teammate who opens the link sees the same comparison.
#pragma once

#include <string>
#include <string_view>

#include "core/compare/measurement.h"
#include "core/result.h"

namespace trainmem::compare {

// Empty when there is nothing to carry.
std::string EncodeMeasuredLinkValue(const Measurement& measurement);

// Reads the value back (sources say "share link"). Errors name the item that could not be read.
Result<Measurement> DecodeMeasuredLinkValue(std::string_view value);

}  // namespace trainmem::compare
