// Every user-visible string of the page goes through Tr(Str::kX). The table lives in
// i18n_table.h (one line per string, English); Chinese is i18n_zh.h, keyed by the same ids,
// falling back to English where a translation is missing. The core's own sentences (validation
// errors, warnings) are English; the page translates them by template with TrCore.
#pragma once

#include <string>
#include <vector>

namespace app {

#define TRAINMEM_STR(id, english) id,
enum class Str : int {
#include "app/words/i18n_table.h"
  kCount
};
#undef TRAINMEM_STR

enum class Language { kEnglish, kChinese };

void SetLanguage(Language language);
Language CurrentLanguage();

// The text for `id` in the current language.
const char* Tr(Str id);

// printf-style formatting of a translated template (the templates are ours, never user text).
std::string TrFormat(Str id, ...);

// A core message (error, warning) in the current language: matched against the English
// templates the core builds its messages from; unmatched messages stay as written.
std::string TrCore(const std::string& message);

// Every Chinese text the page can show (for the CJK glyph ranges).
std::vector<std::string> ChineseTexts();

}  // namespace app
