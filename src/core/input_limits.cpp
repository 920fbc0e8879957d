#include "core/input_limits.h"

#include <nlohmann/json.hpp>

namespace trainmem {

std::string FormatLimitBytes(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) {
    return std::to_string(bytes >> 20) + " MiB";
  }
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " kiB";
  return std::to_string(bytes) + " bytes";
}

std::optional<Error> CheckInputSize(std::string_view text, std::size_t max_bytes,
                                    std::string_view what) {
  if (text.size() <= max_bytes) return std::nullopt;
  return Error{std::string(what), "is " + FormatLimitBytes(text.size()) + ", over the limit of " +
                                      FormatLimitBytes(max_bytes) + "; nothing was read"};
}

int JsonNestingDepth(std::string_view text, int stop_at) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char ch : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stop_at) return deepest;
      }
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::optional<Error> CheckJsonInput(std::string_view text, std::size_t max_bytes,
                                    std::string_view what) {
  if (auto too_large = CheckInputSize(text, max_bytes, what)) return too_large;
  if (JsonNestingDepth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    return Error{std::string(what), "nests arrays and objects more than " +
                                        std::to_string(kMaxJsonDepth) +
                                        " levels deep; nothing was read"};
  }
  return std::nullopt;
}

std::optional<Error> ParseJsonLimited(std::string_view text, std::size_t max_bytes,
                                      std::string_view what, nlohmann::json& out) {
  out = nlohmann::json(nlohmann::json::value_t::discarded);
  if (auto refused = CheckJsonInput(text, max_bytes, what)) return refused;
  out = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (out.is_discarded()) return Error{std::string(what), "not valid JSON"};
  return std::nullopt;
}

}  // namespace trainmem
