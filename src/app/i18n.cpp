#include "app/i18n.h"

#include <cstdarg>
#include <cstdio>
#include <utility>

namespace app {
namespace {

#define TRAINMEM_STR(id, english) english,
constexpr const char* kEnglish[] = {
#include "app/i18n_table.h"
};
#undef TRAINMEM_STR
static_assert(sizeof(kEnglish) / sizeof(kEnglish[0]) == static_cast<int>(Str::kCount),
              "i18n_table.h and the Str enum must list the same strings");

// Chinese is filled in by a later issue (with a CJK font subset, TOOLCHAIN §7). Entries are
// (id, text); ids without an entry fall back to English.
constexpr std::pair<Str, const char*> kChinese[] = {
    {Str::kAppName, "trainmem"},
};

Language g_language = Language::kEnglish;

}  // namespace

void SetLanguage(Language language) { g_language = language; }
Language CurrentLanguage() { return g_language; }

const char* Tr(Str id) {
  const int index = static_cast<int>(id);
  if (index < 0 || index >= static_cast<int>(Str::kCount)) return "";
  if (g_language == Language::kChinese) {
    for (const auto& entry : kChinese) {
      if (entry.first == id) return entry.second;
    }
  }
  return kEnglish[index];
}

std::string TrFormat(Str id, ...) {
  char buffer[1024];
  std::va_list args;
  va_start(args, id);
  std::vsnprintf(buffer, sizeof(buffer), Tr(id), args);
  va_end(args);
  return buffer;
}

}  // namespace app
