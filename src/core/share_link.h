// Share links: the URL fragment carries the config, `#v1&model=llama3-8b&tp=8&…`.
// Short (aliases for common keys), readable, versioned, only keys that differ from the
// defaults; parsed here in the core so it is tested natively.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "core/result.h"

namespace trainmem {

struct Presets;

// "v1&model=llama3-8b&tp=8" (no leading '#').
std::string EncodeShareFragment(const Config& config);

struct DecodedLink {
  Config config;              // best effort: every readable key applied over the defaults
  std::vector<Error> errors;  // what could not be read, each naming the key
  bool embed = false;         // `embed=1`
};

// Accepts the fragment with or without '#'. Never fails: a broken link yields the defaults
// plus errors (DESIGN.md: "old or broken links show what could not be read and keep the rest").
DecodedLink DecodeShareFragment(std::string_view fragment, const Presets& presets);

// base + '#' + fragment; base defaults to "index.html".
std::string ShareUrl(const Config& config, std::string_view base);

}  // namespace trainmem
