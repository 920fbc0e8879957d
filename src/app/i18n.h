// Every user-visible string of the page goes through Tr(Str::kX). The table lives in
// i18n_table.h (one line per string, English); other languages are sparse tables in i18n.cpp
// keyed by the same ids, falling back to English where a translation is missing.
#pragma once

#include <string>

namespace app {

#define TRAINMEM_STR(id, english) id,
enum class Str : int {
#include "app/i18n_table.h"
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

}  // namespace app
