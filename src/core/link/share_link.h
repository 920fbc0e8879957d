// Share links: the URL fragment carries the config, `#v1&model=llama3-8b&tp=8&…`.
// Short (aliases for common keys), readable, versioned; parsed here in the core so it is tested
// natively. A v1 link carries the keys that differ from v1's frozen defaults
// (share_link_v1.cpp), so a link opens to the same config forever: changing a schema default
// never changes an old link. tests/data/links_v1.jsonl holds every shape v1 links have had.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/config/config.h"
#include "core/result.h"

namespace trainmem {

struct Presets;

// "v1&model=llama3-8b&tp=8" (no leading '#').
std::string EncodeShareFragment(const Config& config);

struct DecodedLink {
  Config config;  // best effort: every readable key applied over v1's defaults
  // What could not be read. `path` is the link's own key ("tp", "dev.gib", "m.hidden_size"),
  // empty for the link as a whole; the message uses the link's key names and says what the key
  // expects.
  std::vector<Error> errors;
  // What was read, but not as plainly as the page writes it: a key given twice (`b=2&b=4`, the
  // last value is used). Named in the same words as errors; the link still counts as read.
  std::vector<Error> warnings;
  bool embed = false;  // `embed=1`
  std::string lang;    // `lang=zh`: the page's language, empty when the link names none
  // Page keys other than lang (`m=…` measurements), percent-decoded, in link order.
  std::vector<std::pair<std::string, std::string>> page_keys;
  // Nothing of the link was read (it is over kMaxFragmentBytes): `config` is v1's defaults, not
  // the link's, and a page that has a config keeps it.
  bool refused = false;
};

// Accepts the fragment with or without '#'. Never fails: a broken link yields the defaults
// plus errors (DESIGN.md: "old or broken links show what could not be read and keep the rest").
DecodedLink DecodeShareFragment(std::string_view fragment, const Presets& presets);

// What a link key expects, in the link's words ("tp: tensor-parallel degree, a whole number
// ≥ 1 dividing ws"), or empty for a key links do not have.
std::string LinkKeyExpects(std::string_view key);

// The config key a link key sets ("tp" → "parallelism.tensor_parallel_degree", "m.hidden_size"
// → "model.hidden_size", "dev.gib" → "device.memory_gib"); other keys are returned as they are.
std::string LinkKeyConfigPath(std::string_view key);

// What a v1 link means when it leaves `key` out, written as a link writes it ("b" → "8",
// "device" → "h100-80gb", "fp8" → "0"); empty for a key links do not have.
std::string LinkKeyDefault(std::string_view key);

// A core message in the link's words: config key names become the link's short keys
// ("parallelism.tensor_parallel_degree" and "tensor_parallel_degree" → "tp", "dp_shard" → "dp"),
// as a broken link's banner states its reasons.
std::string InLinkWords(std::string message);

// base + '#' + fragment; base defaults to "index.html".
std::string ShareUrl(const Config& config, std::string_view base);

}  // namespace trainmem
