// One reader of typed JSON fields (core/config/field_reader.h) behind the config, HF config.json
// models and preset files: the same mistake reads the same way in each, named by its path.
#include "core/config/field_reader.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/model/model.h"
#include "core/model/presets.h"
#include "test_support.h"

namespace trainmem {
namespace {

using detail::FieldReader;
using nlohmann::json;

// The message for `value` under a config key, a model key and a device preset key.
struct ThreeReaders {
  std::string config, model, preset;
};

std::string OnlyMessage(const std::vector<Error>& errors, const std::string& path) {
  for (const Error& e : errors)
    if (e.path == path) return e.message;
  return "(no error at " + path + ")";
}

ThreeReaders MessagesFor(const json& value) {
  ThreeReaders out;
  json config = {{"model", "llama3-8b"}, {"training", {{"seq_len", value}}}};
  Result<Config> c = ConfigFromJson(config, testing::TestPresets());
  out.config = c.ok() ? "(accepted)" : OnlyMessage(c.errors(), "training.seq_len");
  json hf = ModelArchToJson(testing::TestPresets().FindModel("llama3-8b")->arch);
  hf["hidden_size"] = value;
  Result<ModelArch> m = ParseModelArch(hf, "model");
  out.model = m.ok() ? "(accepted)" : OnlyMessage(m.errors(), "model.hidden_size");
  json device = {{"id", "card"}, {"name", "Card"}, {"memory_gib", 80}, {"devices_per_node", value}};
  Result<DevicePreset> d = ParseDevicePreset(device.dump());
  out.preset = d.ok() ? "(accepted)" : OnlyMessage(d.errors(), "devices_per_node");
  return out;
}

// A fractional, a string and an out-of-range number for an integer field: one message each,
// whichever file it came from (the model reader used to say "expected a whole number in the
// 64-bit range" where the config reader said "expected an integer").
TEST(FieldReaderTest, SameMistakeSameWordsInEveryReader) {
  const struct {
    json value;
    std::string message;
  } cases[] = {{4096.5, "expected an integer, got 4096.5"},
               {"8", "expected an integer, got a string"},
               {1e30, "is too large (1e+30)"}};
  for (const auto& c : cases) {
    const ThreeReaders m = MessagesFor(c.value);
    EXPECT_EQ(m.config, c.message) << c.value;
    EXPECT_EQ(m.model, c.message) << c.value;
    EXPECT_EQ(m.preset, c.message) << c.value;
  }
}

// A preset's misspelt key gets the config's "did you mean" hint (the preset reader used to list
// every key instead).
TEST(FieldReaderTest, PresetTypoGetsAHint) {
  Result<DevicePreset> d = ParseDevicePreset(
      R"({"id": "card", "name": "Card", "memory_gib": 80, "devces_per_node": 4})");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(OnlyMessage(d.errors(), "devces_per_node"),
            "unknown key; did you mean devices_per_node?");
}

// The reader itself: paths, ranges, null as "not given" or as a wrong type, in-place reads that
// keep the default, and unknown keys.
TEST(FieldReaderTest, PathsRangesNullsAndUnknownKeys) {
  const json j = json::parse(R"({"tp": 9, "layers": [1, -2], "mode": null, "bias": true,
                                  "tpp": 1})");
  std::vector<Error> errors;
  FieldReader lenient(&j, "parallelism", errors, FieldReader::Null::kAbsent);
  EXPECT_FALSE(lenient.Int("tp", 1, 8));
  EXPECT_FALSE(lenient.IntList("layers", 0, 10));
  EXPECT_FALSE(lenient.Has("mode"));  // null: not given
  EXPECT_EQ(lenient.Bool("bias"), true);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].path, "parallelism.tp");
  EXPECT_EQ(errors[0].message, "must be at most 8 (got 9)");
  EXPECT_EQ(errors[1].path, "parallelism.layers[1]");
  EXPECT_EQ(errors[1].message, "must be at least 0 (got -2)");

  errors.clear();
  FieldReader strict(&j, "parallelism", errors);
  std::string mode = "default";
  strict.String("mode", mode);  // null is a wrong type here, and the default stays
  EXPECT_EQ(mode, "default");
  std::int64_t tp = 1;
  strict.Int("tp", tp);
  EXPECT_EQ(tp, 9);
  strict.ReportUnknownKeys();  // layers, bias and tpp were never asked for
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[0].path, "parallelism.mode");
  EXPECT_EQ(errors[0].message, "expected a string, got null");
  EXPECT_EQ(errors[3].path, "parallelism.tpp");
  EXPECT_EQ(errors[3].message, "unknown key; did you mean tp?");
}

}  // namespace
}  // namespace trainmem
