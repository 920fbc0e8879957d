// The YAML reader under MindSpeed-LLM's FSDP2 importer: typing, lines, and its caps.
#include "core/import/yaml_reader.h"

#include <gtest/gtest.h>

namespace trainmem::import_detail {
namespace {

TEST(YamlReader, TypesScalarsAsAJobFileMeansThem) {
  const auto r = ReadYaml(
      "model:\n"
      "  model_id: qwen3_moe\n"
      "  trust_remote_code: True\n"
      "parallel:\n"
      "  fsdp_size: 16\n"
      "  recompute: true\n"
      "  cp_type: ulysses\n"
      "  fsdp_modules:\n"
      "    - model.layers.{*}\n"
      "    - lm_head\n"
      "training:\n"
      "  lr: 1e-05\n"
      "  warmup_ratio: 0.0\n"
      "  output_dir: \"16\"\n"
      "  resume: ~\n");
  ASSERT_TRUE(r.ok()) << FormatError(r.errors()[0]);
  const nlohmann::json& v = r.value().value;
  EXPECT_EQ(v["model"]["model_id"], "qwen3_moe");
  EXPECT_EQ(v["model"]["trust_remote_code"], true);
  EXPECT_EQ(v["parallel"]["fsdp_size"], 16);
  EXPECT_TRUE(v["parallel"]["fsdp_size"].is_number_integer());
  EXPECT_EQ(v["parallel"]["recompute"], true);
  EXPECT_EQ(v["parallel"]["fsdp_modules"], nlohmann::json({"model.layers.{*}", "lm_head"}));
  EXPECT_DOUBLE_EQ(v["training"]["lr"].get<double>(), 1e-05);
  EXPECT_TRUE(v["training"]["output_dir"].is_string());  // quoted: stays a string
  EXPECT_TRUE(v["training"]["resume"].is_null());
  // Lines are 1-based and point at the key's value.
  EXPECT_EQ(r.value().lines.at("model.model_id"), 2);
  EXPECT_EQ(r.value().lines.at("parallel.fsdp_size"), 5);
  EXPECT_EQ(r.value().lines.at("training.lr"), 12);
}

TEST(YamlReader, SyntaxErrorNamesItsLine) {
  const auto r = ReadYaml("parallel:\n  fsdp_size: 16\n  ep_size: [1, 2\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].path.find("line "), std::string::npos) << r.errors()[0].path;
  EXPECT_NE(r.errors()[0].message.find("not valid YAML"), std::string::npos);
}

TEST(YamlReader, AliasBombIsRefusedNotExpanded) {
  // Nine levels of nine aliases each expand to 9^9 ≈ 387 million values.
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 9; ++k) text += (k ? ", " : "") + prev;
    text += "]\n";
  }
  const auto r = ReadYaml(text);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("aliases"), std::string::npos);
}

TEST(YamlReader, DeepNestingIsRefused) {
  const std::string text = std::string(200, '[') + std::string(200, ']');
  const auto r = ReadYaml(text);
  EXPECT_FALSE(r.ok());
}

TEST(YamlReader, FilesOverTheSizeLimitAreRefusedBeforeParsing) {
  std::string text = "parallel:\n";
  while (text.size() <= kMaxYamlBytes) text += "  key: value\n";
  const auto r = ReadYaml(text);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("not read"), std::string::npos);
}

TEST(YamlReader, EmptyDocumentIsNull) {
  const auto r = ReadYaml("# only a comment\n");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value().value.is_null());
}

}  // namespace
}  // namespace trainmem::import_detail
