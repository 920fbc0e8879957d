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

std::optional<std::string> WithoutPythonFloats(std::string_view text) {
  if (text.find("NaN") == std::string_view::npos && text.find("Infinity") == std::string_view::npos)
    return std::nullopt;
  std::string copy;
  copy.reserve(text.size());
  bool in_string = false;
  bool replaced = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      copy += c;
      if (c == '\\' && i + 1 < text.size()) {
        copy += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    const std::string_view rest = text.substr(i);
    std::size_t token = 0;
    if (rest.substr(0, 3) == "NaN") token = 3;
    if (rest.substr(0, 8) == "Infinity") token = 8;
    if (rest.substr(0, 9) == "-Infinity") token = 9;
    if (token > 0) {
      copy += "null";
      i += token - 1;
      replaced = true;
      continue;
    }
    copy += c;
  }
  if (!replaced) return std::nullopt;
  return copy;
}

nlohmann::json ParseJsonAllowingPythonFloats(std::string_view text) {
  nlohmann::json out = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (!out.is_discarded()) return out;
  const std::optional<std::string> rewritten = WithoutPythonFloats(text);
  if (!rewritten) return out;
  return nlohmann::json::parse(rewritten->begin(), rewritten->end(), nullptr, false);
}

std::optional<Error> ParseJsonLimited(std::string_view text, std::size_t max_bytes,
                                      std::string_view what, nlohmann::json& out) {
  out = nlohmann::json(nlohmann::json::value_t::discarded);
  if (auto refused = CheckJsonInput(text, max_bytes, what)) return refused;
  out = ParseJsonAllowingPythonFloats(text);
  if (out.is_discarded()) return Error{std::string(what), "not valid JSON"};
  return std::nullopt;
}

}  // namespace trainmem
