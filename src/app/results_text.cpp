#include "app/results_text.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "app/app_actions.h"
#include "app/draw/memory_bar.h"
#include "app/words/i18n.h"
#include "app/words/labels.h"
#include "core/report/report.h"

namespace app {

std::string ResultTextJson(const AppState& state, const std::string& summary_line) {
  const trainmem::Estimate& e = state.estimate;
  nlohmann::json rows = nlohmann::json::array();
  ComponentValue values[5];
  ComponentValues(e.per_device, values);
  const auto share = [&](std::int64_t bytes) {
    const double total = static_cast<double>(e.per_device.total);
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", total > 0 ? 100.0 * bytes / total : 0.0);
    return std::string(text);
  };
  for (const ComponentValue& v : values) {
    rows.push_back({ComponentName(v.component), trainmem::FormatGiB(v.bytes),
                    trainmem::FormatGB(v.bytes), share(v.bytes)});
  }
  rows.push_back({Tr(Str::kRowTotal), trainmem::FormatGiB(e.per_device.total),
                  trainmem::FormatGB(e.per_device.total), share(e.per_device.total)});

  nlohmann::json advice = nlohmann::json::array();
  // A link not fully read has no verdict (panel_verdict.cpp), so no advice either; nor has an
  // invalid field, whose estimate on screen is the last valid one (panel_advice.cpp).
  const bool withheld = state.link_fallback || !state.draft_errors.empty();
  if (state.link_fallback) {
    advice.push_back(Tr(Str::kAdviceLinkPartly));
  } else if (!state.draft_errors.empty()) {
    advice.push_back(Tr(Str::kAdviceFieldInvalid));
  }
  for (const trainmem::Recommendation& rec : e.recommendations) {
    if (withheld) break;
    advice.push_back(AdviceWithChanges(rec) + ": " + trainmem::FormatGiB(rec.total_bytes) + " (" +
                     Tr(VerdictPhrase(rec.verdict)) + ")");
  }
  // The core writes its warnings in English; the page shows them in its language.
  nlohmann::json warnings = nlohmann::json::array();
  for (const std::string& w : e.warnings) warnings.push_back(TrCore(w));
  const std::string subject = ModelDisplayName(state.config) + " · " + state.config.device.name +
                              " × " + std::to_string(state.config.world_size);
  const nlohmann::json text = {
      {"title", Tr(Str::kAppName)},
      {"lines", {summary_line, subject, AccuracyLine(e)}},
      {"tables",
       {{{"caption", Tr(Str::kSectionBreakdown)},
         {"head",
          {Tr(Str::kColumnComponent), Tr(Str::kColumnGiB), Tr(Str::kColumnGB),
           Tr(Str::kColumnShare)}},
         {"rows", rows}}}},
      {"lists",
       {{{"caption", Tr(Str::kSectionAdvice)}, {"items", advice}},
        {{"caption", Tr(Str::kSectionWarnings)}, {"items", warnings}}}},
  };
  return text.dump();
}

}  // namespace app
