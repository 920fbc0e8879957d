// Replays every input the fuzzers ever crashed on (fuzz/regressions/<target>/) through the same
// entry point (fuzz/fuzz_entries.cpp), and checks the input limits (src/core/input_limits.h) on
// inputs of the sizes the limits name.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compare/measurement.h"
#include "core/input_limits.h"
#include "core/link/share_link.h"
#include "core/model/model.h"
#include "fuzz_entries.h"
#include "test_support.h"

namespace trainmem {
namespace {

namespace fs = std::filesystem;
using testing::TestPresets;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(FuzzRegressions, EverySavedInputReplaysWithoutACrash) {
  const fs::path root = fs::path(TRAINMEM_SOURCE_DIR) / "fuzz" / "regressions";
  std::size_t replayed = 0;
  for (const fuzz::Target& target : fuzz::Targets()) {
    const fs::path dir = root / target.name;
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      SCOPED_TRACE(file.string());
      const std::string bytes = ReadAll(file);
      // An abort here (a broken promise or a sanitizer report) fails the whole test binary.
      target.entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++replayed;
    }
  }
  // Every subfolder of fuzz/regressions must name a target, or its inputs would never replay.
  if (fs::is_directory(root)) {
    for (const auto& entry : fs::directory_iterator(root)) {
      EXPECT_NE(fuzz::FindEntry(entry.path().filename().string()), nullptr)
          << entry.path() << " names no fuzz target";
    }
  }
  RecordProperty("replayed", static_cast<int>(replayed));
}

TEST(FuzzRegressions, EveryTargetListedForTheFuzzBuildHasAnEntry) {
  std::ifstream in(std::string(TRAINMEM_SOURCE_DIR) + "/fuzz/targets.txt");
  std::string name;
  std::size_t listed = 0;
  while (std::getline(in, name)) {
    if (name.empty()) continue;
    ++listed;
    EXPECT_NE(fuzz::FindEntry(name), nullptr) << name;
  }
  EXPECT_EQ(listed, fuzz::Targets().size());
}

// --- input limits -------------------------------------------------------------------------

TEST(InputLimits, NestingDepthIgnoresBracketsInsideStrings) {
  EXPECT_EQ(JsonNestingDepth(R"({"a": [1, {"b": "[[[[{{"}]})"), 3);
  EXPECT_EQ(JsonNestingDepth(R"(["\"[", "\\", [[]]])"), 3);  // escaped quote, escaped backslash
  EXPECT_EQ(JsonNestingDepth("42"), 0);
}

TEST(InputLimits, ConfigNestedPastTheLimitIsRefusedWithTheLimit) {
  // 65 levels: the outer object plus 64 arrays.
  const std::string deep =
      R"({"model": "llama3-8b", "x": )" + std::string(64, '[') + std::string(64, ']') + "}";
  const Result<Config> r = ParseConfig(deep, TestPresets());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors().front().message.find("more than 64 levels"), std::string::npos)
      << r.errors().front().message;
  // 64 levels are read (and fail only for the unknown key).
  const std::string ok =
      R"({"model": "llama3-8b", "x": )" + std::string(63, '[') + std::string(63, ']') + "}";
  const Result<Config> r2 = ParseConfig(ok, TestPresets());
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.errors().front().path, "x");
}

TEST(InputLimits, TenMegabytePasteIsReadAndOneByteMoreIsRefused) {
  // A config padded with whitespace to exactly the limit parses; one byte more is refused
  // before parsing, with both sizes in the message.
  const std::string config = R"({"model": "llama3-8b", "world_size": 8})";
  std::string paste = config + std::string(kMaxJsonTextBytes - config.size(), ' ');
  const Result<Config> at_limit = ParseConfig(paste, TestPresets());
  ASSERT_TRUE(at_limit.ok()) << FormatError(at_limit.errors().front());
  EXPECT_EQ(at_limit.value().world_size, 8);
  paste.push_back(' ');
  const Result<Config> over = ParseConfig(paste, TestPresets());
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.errors().front().message,
            "is 10485761 bytes, over the limit of 10 MiB; nothing was read");
}

TEST(InputLimits, OneMegabyteFragmentOpensAndLargerIsRefusedWhole) {
  // 1 MiB of one key repeated: the decoder reads the first kMaxLinkKeys keys and says so.
  std::string fragment = "v1&tp=2&ws=2";
  while (fragment.size() + 5 <= kMaxFragmentBytes) fragment += "&b=4";
  const DecodedLink link = DecodeShareFragment(fragment, TestPresets());
  EXPECT_EQ(link.config.parallelism.tp, 2);
  EXPECT_EQ(link.config.training.local_batch_size, 4);
  fragment.append(kMaxFragmentBytes + 1 - fragment.size(), 'x');
  const DecodedLink refused = DecodeShareFragment(fragment, TestPresets());
  ASSERT_EQ(refused.errors.size(), 1u);
  EXPECT_EQ(refused.errors.front().message,
            "the link is 1048577 bytes, over the limit of 1 MiB; nothing was read");
  EXPECT_EQ(refused.config.parallelism.tp, 1);  // the defaults
  EXPECT_TRUE(refused.refused);                 // the page keeps its own config (e2e limits)
  EXPECT_FALSE(link.refused);
}

TEST(InputLimits, OneMegabyteValuesAreReportedWithoutASuggestionSearch) {
  // Found by fuzz_link: a 1 MiB model id was compared by edit distance with every preset id,
  // O(value × id) per id; it took minutes. Now the length difference rules the ids out first.
  std::string fragment = "v1&model=";
  fragment.append(kMaxFragmentBytes - fragment.size(), 'x');
  const DecodedLink link = DecodeShareFragment(fragment, TestPresets());
  ASSERT_FALSE(link.errors.empty());
  EXPECT_EQ(link.errors.front().path, "model");
  EXPECT_EQ(link.config.model_id, kDefaultModelId);
  // The same through a 10 MiB paste: an unknown key and an unknown model id of 5 MiB each.
  const std::string big(std::size_t{5} << 20, 'y');
  const Result<Config> r =
      ParseConfig(R"({"model": ")" + big + R"(", ")" + big + R"(": 1})", TestPresets());
  ASSERT_FALSE(r.ok());
}

TEST(InputLimits, DeepModelValueInASettingStaysText) {
  // `--set model=[[[[…` past the depth limit is not parsed: it fails as a model id would.
  const Config base = testing::MustParse(R"({"model": "llama3-8b"})");
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  const Result<Config> r = ApplySetting(base, "model", deep, TestPresets());
  EXPECT_FALSE(r.ok());
}

TEST(InputLimits, MemoryTimelineNestedPastTheLimitIsRefused) {
  const std::string deep = std::string(70, '[') + std::string(70, ']');
  const Result<compare::Measurement> r = compare::ReadMemoryTimeline(deep);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors().front().path, "memory timeline");
  EXPECT_NE(r.errors().front().message.find("64 levels"), std::string::npos);
}

TEST(InputLimits, ParseJsonLimitedNamesWhatItRefused) {
  nlohmann::json j;
  const auto refused = ParseJsonLimited(std::string(65, '{'), kMaxJsonTextBytes, "config.json", j);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->path, "config.json");
  EXPECT_TRUE(j.is_discarded());
  EXPECT_FALSE(ParseJsonLimited(R"({"hidden_size": 8})", kMaxJsonTextBytes, "config.json", j));
  EXPECT_EQ(j["hidden_size"], 8);
}

}  // namespace
}  // namespace trainmem
