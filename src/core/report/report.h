// Serialising an Estimate: the JSON output schema (trainmem.estimate/v1), a plain-text table,
// Markdown and CSV. Shared by the CLI, the page's exports and the DOM mirror.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/estimate/estimate.h"

namespace trainmem {

nlohmann::json EstimateToJson(const Estimate& estimate);
// The `per_device_bytes` object of the schema (also used by the search and heatmap JSON).
nlohmann::json BreakdownToJson(const MemoryBreakdown& bytes);
std::string EstimateToText(const Estimate& estimate);  // aligned table, units shown
std::string EstimateToMarkdown(const Estimate& estimate);
std::string EstimateToCsv(const Estimate& estimate);

// "12.34 GiB" (binary) and "13.25 GB" (decimal); never a bare "G".
std::string FormatGiB(std::int64_t bytes);
std::string FormatGB(std::int64_t bytes);
std::string FormatCount(std::int64_t count);  // 8.03B, 671.0B, 1.24M

}  // namespace trainmem
