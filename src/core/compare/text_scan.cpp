#include "core/compare/text_scan.h"

#include <cmath>
#include <cstdlib>

namespace trainmem::compare::scan {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

namespace {

constexpr std::string_view kVisibleEscape = "\xE2\x90\x9B";  // U+241B "␛" in UTF-8

// Skips an escape sequence's parameters up to and including its final letter.
std::size_t SkipCsi(std::string_view line, std::size_t i) {
  while (i < line.size() && !(line[i] >= '@' && line[i] <= '~')) ++i;
  return i < line.size() ? i + 1 : i;
}

}  // namespace

std::string_view StripAnsi(std::string_view line, std::string& storage) {
  if (line.find('\x1b') == std::string_view::npos && !Contains(line, kVisibleEscape)) {
    return line;
  }
  storage.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      i = SkipCsi(line, i + 2);
    } else if (line.substr(i, kVisibleEscape.size()) == kVisibleEscape &&
               i + kVisibleEscape.size() < line.size() && line[i + kVisibleEscape.size()] == '[') {
      i = SkipCsi(line, i + kVisibleEscape.size() + 1);
    } else {
      storage.push_back(line[i++]);
    }
  }
  return storage;
}

NumberProblem ReadNumber(std::string_view s, double& value, std::size_t& used) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i < s.size() && s[i] == '-') return NumberProblem::kNegative;
  if (i < s.size() && s[i] == '+') ++i;
  auto lower = [&](std::size_t k) { return k < s.size() ? (s[k] | 0x20) : 0; };
  if ((lower(i) == 'n' && lower(i + 1) == 'a' && lower(i + 2) == 'n') ||
      (lower(i) == 'i' && lower(i + 1) == 'n' && lower(i + 2) == 'f')) {
    return NumberProblem::kNotFinite;
  }
  char buffer[64];
  std::size_t n = 0;
  bool digits = false, dot = false;
  for (; i < s.size() && n + 1 < sizeof buffer; ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      buffer[n++] = c;
      digits = true;
    } else if (c == '.' && !dot) {
      buffer[n++] = c;
      dot = true;
    } else if (c == ',' && digits && !dot && i + 1 < s.size() && s[i + 1] >= '0' &&
               s[i + 1] <= '9') {
      continue;  // a thousands separator, "7,234"
    } else {
      break;
    }
  }
  if (!digits) return NumberProblem::kMissing;
  // An exponent, as Python's repr() prints small and large floats ("4.76837158203125e-05",
  // "1.0E+01"): taken only when digits follow, so "5e" before a unit stays outside.
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t k = i + 1;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
    if (k < s.size() && s[k] >= '0' && s[k] <= '9' && n + (k - i) + 4 < sizeof buffer) {
      for (std::size_t j = i; j < k; ++j) buffer[n++] = s[j];
      for (i = k; i < s.size() && s[i] >= '0' && s[i] <= '9' && n + 1 < sizeof buffer; ++i) {
        buffer[n++] = s[i];
      }
    }
  }
  buffer[n] = '\0';
  value = std::strtod(buffer, nullptr);
  if (!std::isfinite(value)) return NumberProblem::kNotFinite;
  used = i;
  return NumberProblem::kNone;
}

bool ToBytes(double value, std::int64_t unit, std::int64_t& bytes) {
  const double b = std::round(value * static_cast<double>(unit));
  // 2^62 bytes is four exbibytes: anything larger is a misread, not a device.
  if (!std::isfinite(b) || b < 0 || b > 4.6e18) return false;
  bytes = static_cast<std::int64_t>(b);
  return true;
}

int PrintedDecimals(std::string_view number) {
  number = Trim(number);
  const std::size_t dot = number.find('.');
  if (dot == std::string_view::npos) return 0;
  int decimals = 0;
  for (std::size_t i = dot + 1; i < number.size() && number[i] >= '0' && number[i] <= '9'; ++i) {
    ++decimals;
  }
  return decimals;
}

int PrintedPlaces(std::string_view number) {
  number = Trim(number);
  int places = PrintedDecimals(number);
  std::size_t e = number.find_first_of("eE");
  if (e == std::string_view::npos) return places;
  ++e;
  const bool negative = e < number.size() && number[e] == '-';
  if (e < number.size() && (number[e] == '-' || number[e] == '+')) ++e;
  int exponent = 0;
  for (; e < number.size() && number[e] >= '0' && number[e] <= '9' && exponent < 1000; ++e) {
    exponent = exponent * 10 + (number[e] - '0');
  }
  return negative ? places + exponent : places - exponent;
}

std::int64_t HalfLastDigit(std::int64_t unit, int decimals) {
  double half = static_cast<double>(unit) / 2;
  for (int d = 0; d < decimals && half >= 1; ++d) half /= 10;
  // A last digit left of the point (a value printed as 4.717e+04): tens, hundreds, …
  for (int d = decimals; d < 0 && half < 1e15; ++d) half *= 10;
  return static_cast<std::int64_t>(half);
}

std::string_view StripLauncherPrefix(std::string_view line) {
  std::string_view rest = Trim(line);
  // torchrun's "[rank3]:" / "[default3]:" (possibly several, e.g. "[rank3]:[titan] …" keeps
  // "[titan]"), srun --label's "3: ".
  for (std::string_view tag : {std::string_view("[rank"), std::string_view("[default")}) {
    if (!StartsWith(rest, tag)) continue;
    std::size_t i = tag.size();
    while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9') ++i;
    if (i > tag.size() && i + 1 < rest.size() && rest[i] == ']' && rest[i + 1] == ':') {
      return rest.substr(i + 2);
    }
  }
  std::size_t i = 0;
  while (i < rest.size() && i < 7 && rest[i] >= '0' && rest[i] <= '9') ++i;
  if (i > 0 && i + 1 < rest.size() && rest[i] == ':' && rest[i + 1] == ' ') {
    return rest.substr(i + 2);
  }
  return rest;
}

int LeadingRank(std::string_view line) {
  line = Trim(line);
  // srun --label: "3: …".
  {
    std::size_t i = 0;
    long rank = 0;
    while (i < line.size() && i < 7 && line[i] >= '0' && line[i] <= '9') {
      rank = rank * 10 + (line[i] - '0');
      ++i;
    }
    if (i > 0 && i + 1 < line.size() && line[i] == ':' && line[i + 1] == ' ') {
      return static_cast<int>(rank);
    }
  }
  // torchrun --tee / --local-ranks-filter: "[rank3]:" ; older elastic agents: "[default3]:";
  // XTuner v1's logger on every rank: "[XTuner][RANK 3][2025-08-27 10:00:00][INFO] …".
  for (std::string_view tag : {std::string_view("[rank"), std::string_view("[default"),
                               std::string_view("[Rank "), std::string_view("[XTuner][RANK ")}) {
    if (!StartsWith(line, tag)) continue;
    std::size_t i = tag.size();
    long rank = 0;
    bool any = false;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9' && rank < 10000000) {
      rank = rank * 10 + (line[i] - '0');
      ++i;
      any = true;
    }
    if (any && i < line.size() && line[i] == ']') return static_cast<int>(rank);
  }
  return -1;
}

}  // namespace trainmem::compare::scan
