// Small, allocation-free helpers for reading log lines (compare/*.cpp). No regular
// expressions: logs reach tens of megabytes and every line is looked at once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace trainmem::compare::scan {

inline constexpr std::int64_t kKiB = 1024;
inline constexpr std::int64_t kMiB = 1024 * kKiB;
inline constexpr std::int64_t kGiB = 1024 * kMiB;

std::string_view Trim(std::string_view s);
bool StartsWith(std::string_view s, std::string_view prefix);
bool Contains(std::string_view s, std::string_view part);

// Terminal colour codes (ESC [ … letter) and their visible form "␛[…m" that some log viewers
// copy out. Returns the line unchanged (no copy into `storage`) when it has none.
std::string_view StripAnsi(std::string_view line, std::string& storage);

// Why a number could not be read.
enum class NumberProblem { kNone, kMissing, kNotFinite, kNegative };

// Reads a decimal number at the start of `s` (after spaces), e.g. "78.52GiB(…": `used` is how
// many characters it took. Thousands separators (1,234.5) are accepted. "nan"/"inf" are
// reported as kNotFinite, a leading '-' as kNegative.
NumberProblem ReadNumber(std::string_view s, double& value, std::size_t& used);

// Digits printed after the decimal point of a number as ReadNumber took it ("61.07" → 2,
// "6166.0" → 1, "31" → 0, "4.7e-05" → 1).
int PrintedDecimals(std::string_view number);
// The same net of a printed exponent ("4.717e+04" → 3 − 4 = −1: the last digit is tens), so
// HalfLastDigit gives the rounding of a value in scientific notation.
int PrintedPlaces(std::string_view number);

// Half of the last printed digit in bytes: the most a value printed with `decimals` decimals of
// `unit` can be off by rounding (round-half-even or round-half-up alike). A negative `decimals`
// (a last digit left of the point) scales up to 1e15 bytes at most.
std::int64_t HalfLastDigit(std::int64_t unit, int decimals);

// The line without a launcher's rank tag: torchrun's "[rank3]:" / "[default3]:", srun
// --label's "3: ". Tables printed under a launcher carry the tag on every row.
std::string_view StripLauncherPrefix(std::string_view line);

// Bytes from a value in a binary unit, rounded to the nearest byte; false when out of range.
bool ToBytes(double value, std::int64_t unit, std::int64_t& bytes);

// A rank named by the launcher or the framework at the start of a line: torchrun's
// "[rank3]:" / "[default3]:", srun --label's "3: ", Megatron's "[Rank 3]", or -1.
int LeadingRank(std::string_view line);

}  // namespace trainmem::compare::scan
