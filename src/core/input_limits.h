// Size and nesting limits on text from strangers (pasted configs, share links, config.json
// files, measurement files), checked before any parser sees the text, so an oversized or
// pathologically nested input is refused with a message instead of exhausting memory or the
// stack. nlohmann::json's parser is iterative, but copying, comparing and dumping a parsed value
// recurse once per nesting level: the depth limit keeps every later pass shallow.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/result.h"

namespace trainmem {

// A pasted or uploaded JSON document: a config, a preset, a Hugging Face config.json. The largest
// real config.json files (multimodal checkpoints with long per-layer lists) are under 100 kB.
inline constexpr std::size_t kMaxJsonTextBytes = std::size_t{10} << 20;  // 10 MiB
// A share-link fragment. Links made by EncodeShareFragment are a few hundred bytes; one carrying
// an inline model with per-layer lists a few kB.
inline constexpr std::size_t kMaxFragmentBytes = std::size_t{1} << 20;  // 1 MiB
// A measurement file (training log, memory timeline, allocator snapshot): long runs print a lot.
inline constexpr std::size_t kMaxMeasurementBytes = std::size_t{512} << 20;  // 512 MiB
// Arrays and objects nested inside one another. A config nests 3 deep, a config.json 4
// (text_config → rope_scaling → list), a memory timeline 3.
inline constexpr int kMaxJsonDepth = 64;

// An error naming `what` and the limit when `text` is longer than max_bytes; nullopt otherwise.
std::optional<Error> CheckInputSize(std::string_view text, std::size_t max_bytes,
                                    std::string_view what);

// The deepest nesting of arrays and objects in JSON text, brackets inside strings ignored.
// One linear pass; stops counting once `stop_at` is exceeded (returns stop_at + 1).
int JsonNestingDepth(std::string_view text, int stop_at = kMaxJsonDepth);

// Size, then nesting depth: an error naming `what` and the exceeded limit, or nullopt.
std::optional<Error> CheckJsonInput(std::string_view text, std::size_t max_bytes,
                                    std::string_view what);

// nlohmann's parser without exceptions (discarded on failure), also accepting the NaN, Infinity
// and -Infinity that Python's json.dumps writes for non-finite floats (a NemotronH config.json's
// "time_step_limit": [0.0, Infinity]): those read as null.
nlohmann::json ParseJsonAllowingPythonFloats(std::string_view text);
// The text with those bare tokens (outside strings) replaced by null; nullopt when it has none.
std::optional<std::string> WithoutPythonFloats(std::string_view text);

// CheckJsonInput, then ParseJsonAllowingPythonFloats. On failure `out` is discarded and the
// error names `what` (path) and the limit or "not valid JSON".
std::optional<Error> ParseJsonLimited(std::string_view text, std::size_t max_bytes,
                                      std::string_view what, nlohmann::json& out);

// "10 MiB", "512 kiB", "300 bytes": a limit or a size in a message.
std::string FormatLimitBytes(std::size_t bytes);

}  // namespace trainmem
