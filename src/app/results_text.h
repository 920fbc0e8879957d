// The results as real text for the page below the canvas (platform::SetResultText): the
// verdict, the five components and the advice, in the page's language, so a reader can select,
// copy and find them (Ctrl+F) — the canvas is opaque to all three.
#pragma once

#include <string>

#include "app/app_state.h"

namespace app {

// {"title", "lines": [verdict, subject], "tables": [components], "lists": [advice, warnings]}.
std::string ResultTextJson(const AppState& state, const std::string& summary_line);

}  // namespace app
