// Share links (DESIGN.md "Share link"): short, only what differs from the defaults, and opening
// one reproduces the config; a broken link keeps what it can read and says what it could not.
#include "core/link/share_link.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::TestPresets;
using testing::With;

bool HasErrorAt(const DecodedLink& link, const std::string& path) {
  for (const Error& e : link.errors) {
    if (e.path == path) return true;
  }
  return false;
}

std::string Describe(const std::vector<Error>& errors) {
  std::string all;
  for (const Error& e : errors) all += "\n  " + FormatError(e);
  return all;
}

// The default config is the model plus the one default that changed since v1 froze its table:
// selective AC's option, per-op since torchtitan dropped block-interval SAC.
TEST(ShareLinkTest, DefaultConfigIsJustTheModel) {
  EXPECT_EQ(EncodeShareFragment(MustParse(R"({"model": "llama3-8b"})")),
            "v1&model=llama3-8b&acopt=op");
  // Not written where it means nothing: full checkpointing.
  EXPECT_EQ(EncodeShareFragment(MustParse(R"({"model": "llama3-8b",
      "activation_checkpoint": {"mode": "full"}})")),
            "v1&model=llama3-8b&ac=full");
}

TEST(ShareLinkTest, OnlyChangedKeysAppearWithShortNames) {
  Config c = With(MustParse(R"({"model": "llama3-8b"})"), {{"ws", "8"},
                                                           {"tp", "8"},
                                                           {"b", "2"},
                                                           {"fp8", "true"},
                                                           {"sp", "false"},
                                                           {"optimizer.momentum", "0.5"}});
  EXPECT_EQ(EncodeShareFragment(c),
            "v1&model=llama3-8b&ws=8&b=2&fp8=1&tp=8&sp=0&acopt=op&optimizer.momentum=0.5");
}

TEST(ShareLinkTest, ListsAreCommaJoined) {
  Config c = With(MustParse(R"({"model": "llama3-8b"})"), {{"compile.components", "loss"}});
  EXPECT_EQ(EncodeShareFragment(c), "v1&model=llama3-8b&acopt=op&compile.components=loss");
  c = With(c, {{"compile.components", "[]"}});
  EXPECT_EQ(EncodeShareFragment(c), "v1&model=llama3-8b&acopt=op&compile.components=");
  DecodedLink back = DecodeShareFragment(EncodeShareFragment(c), TestPresets());
  EXPECT_FALSE(back.config.compile.model);
  EXPECT_FALSE(back.config.compile.loss);
}

// Opening a link gives back exactly the config it was made from.
TEST(ShareLinkTest, RoundTripReproducesTheConfig) {
  const char* configs[] = {
      R"({"model": "llama3-8b"})",
      R"({"model": "llama3-70b", "device": "h100-80gb", "world_size": 64, "mode": "template",
          "training": {"local_batch_size": 2, "seq_len": 8192, "dropout": 0.1, "attention": "eager"},
          "parallelism": {"tensor_parallel_degree": 8, "pipeline_parallel_degree": 2,
                          "pipeline_parallel_schedule": "Interleaved1F1B", "zero_stage": 1},
          "activation_checkpoint": {"mode": "full", "selective_ac_option": "op"},
          "optimizer": {"name": "Adafactor", "state_dtype": "bfloat16", "offload": true},
          "overhead": {"temporary_fraction": 0.05, "budget_fraction": 0.9}})",
      R"({"model": "mixtral-8x7b", "framework": "megatron", "world_size": 8,
          "parallelism": {"tensor_parallel_degree": 4, "expert_parallel_degree": 2,
                          "expert_tensor_parallel_degree": 4, "data_parallel_shard_degree": 2},
          "compile": {"enable": true, "components": ["loss"]}})",
      R"({"model": {"model_type": "llama", "hidden_size": 3072, "num_hidden_layers": 28,
          "num_attention_heads": 24, "num_key_value_heads": 8, "intermediate_size": 8192,
          "vocab_size": 128256, "tie_word_embeddings": true},
          "device": {"name": "Ascend 910B (64 GB) & friends", "memory_gib": 61.5, "devices_per_node": 16},
          "world_size": 8})",
      R"({"model": "deepseek-v3", "world_size": 64, "training": {"mtp": true},
          "parallelism": {"expert_parallel_degree": 64}})",
      // Keys added after v1's frozen defaults, written only when off their default.
      R"({"model": "mixtral-8x7b", "framework": "megatron", "world_size": 8,
          "training": {"create_attention_mask_in_dataloader": false, "moe_grouped_gemm": true,
                       "cross_entropy_fusion": true},
          "parallelism": {"tensor_parallel_degree": 2, "context_parallel_degree": 4,
                          "ulysses_degree_in_cp": 2, "zero_stage": 1},
          "optimizer": {"reuse_fp32_param": true}})",
      R"({"model": "deepseek-v3.2", "framework": "megatron", "world_size": 64,
          "training": {"dsa_fused_kernels": true}, "parallelism": {"expert_parallel_degree": 64}})",
      R"({"model": "qwen3-30b-a3b", "world_size": 8,
          "training": {"dtype": "bfloat16", "attention": "flex"}})",
      // A custom model with a nested field (Step-3.5's attention_other_setting) and per-layer
      // lists.
      R"({"model": {"model_type": "step3p5", "hidden_size": 512, "num_hidden_layers": 4,
          "num_attention_heads": 8, "num_attention_groups": 2, "head_dim": 64,
          "intermediate_size": 1024, "vocab_size": 1000, "sliding_window": 128,
          "layer_types": ["full_attention", "sliding_attention", "sliding_attention",
                          "sliding_attention", "sliding_attention"],
          "num_nextn_predict_layers": 1, "use_head_wise_attn_gate": true,
          "attention_other_setting": {"attention_type": "sliding_attention",
                                      "num_attention_heads": 12, "num_attention_groups": 2}},
          "world_size": 2, "parallelism": {"tensor_parallel_degree": 2}})",
  };
  for (const char* text : configs) {
    const Config c = MustParse(text);
    const std::string fragment = EncodeShareFragment(c);
    DecodedLink back = DecodeShareFragment(fragment, TestPresets());
    EXPECT_TRUE(back.errors.empty()) << fragment << Describe(back.errors);
    EXPECT_EQ(ConfigToJson(back.config), ConfigToJson(c)) << fragment;
  }
}

TEST(ShareLinkTest, CustomModelAndDeviceAreSpelledOut) {
  Config c = MustParse(R"({"model": {"model_type": "llama", "hidden_size": 2048,
      "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8,
      "intermediate_size": 8192, "vocab_size": 128256},
      "device": {"name": "NPU", "memory_gib": 80}})");
  const std::string fragment = EncodeShareFragment(c);
  EXPECT_EQ(fragment.rfind("v1&model=custom&m.", 0), 0u) << fragment;
  EXPECT_NE(fragment.find("&m.hidden_size=2048"), std::string::npos) << fragment;
  EXPECT_NE(fragment.find("&device=custom&dev.name=NPU&dev.gib=80"), std::string::npos) << fragment;
}

TEST(ShareLinkTest, FieldsAfterAPresetEditACopyOfIt) {
  DecodedLink link =
      DecodeShareFragment("v1&model=llama3-8b&m.num_hidden_layers=16&dev.gib=40", TestPresets());
  EXPECT_TRUE(link.errors.empty()) << Describe(link.errors);
  EXPECT_TRUE(link.config.model_id.empty());
  EXPECT_EQ(link.config.model.num_layers, 16);
  EXPECT_EQ(link.config.model.hidden_size, 4096);
  EXPECT_EQ(link.config.device.memory_bytes, std::int64_t{40} << 30);
}

TEST(ShareLinkTest, DeviceNameIsPercentEncoded) {
  Config c =
      MustParse(R"({"model": "llama3-8b", "device": {"name": "My GPU & co", "memory_gib": 64}})");
  const std::string fragment = EncodeShareFragment(c);
  EXPECT_NE(fragment.find("dev.name=My%20GPU%20%26%20co"), std::string::npos) << fragment;
  DecodedLink back = DecodeShareFragment(fragment, TestPresets());
  EXPECT_TRUE(back.errors.empty()) << Describe(back.errors);
  EXPECT_EQ(back.config.device.name, "My GPU & co");
  EXPECT_EQ(back.config.device.memory_bytes, std::int64_t{64} << 30);
}

// Strings that read like other JSON values (a device named "910", a hidden_act of "0.1", "true",
// padded text) are written quoted in m.* / dev.* fields and come back as the same strings
// (found by fuzz_link: "0.1" came back a number and the link no longer opened).
TEST(ShareLinkTest, StringsThatLookLikeNumbersRoundTrip) {
  Config c = MustParse(R"({"model": {"model_type": "llama", "hidden_size": 256,
      "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 512,
      "vocab_size": 1000, "hidden_act": "0.1"}, "device": {"name": "910", "memory_gib": 64}})");
  for (const char* name : {"910", "true", " padded "}) {
    c.device.name = name;
    const std::string fragment = EncodeShareFragment(c);
    const DecodedLink back = DecodeShareFragment(fragment, TestPresets());
    EXPECT_TRUE(back.errors.empty()) << Describe(back.errors) << " in " << fragment;
    EXPECT_EQ(back.config.device.name, name) << fragment;
    EXPECT_EQ(back.config.model.hidden_act, "0.1") << fragment;
  }
}

// A URL can carry any bytes; the config (and everything that prints it) gets valid UTF-8: bytes
// that are not text keep their escapes, as the link wrote them.
TEST(ShareLinkTest, InvalidUtf8IsReplacedNotThrown) {
  DecodedLink link =
      DecodeShareFragment("v1&device=custom&dev.name=GPU%FF%C3&dev.gib=64&%FE=1", TestPresets());
  EXPECT_EQ(link.config.device.name, "GPU%FF%C3");
  EXPECT_NO_THROW(ConfigToJson(link.config).dump());
  EXPECT_EQ(link.errors.size(), 1u) << Describe(link.errors);
}

TEST(ShareLinkTest, BrokenKeysAreReportedAndTheRestKept) {
  DecodedLink link = DecodeShareFragment("v1&tp=abc&b=4&bogus=1", TestPresets());
  EXPECT_EQ(link.config.training.local_batch_size, 4);
  EXPECT_EQ(link.config.parallelism.tp, 1);
  EXPECT_EQ(link.config.model_id, kDefaultModelId);
  EXPECT_EQ(link.errors.size(), 2u) << Describe(link.errors);
  EXPECT_TRUE(HasErrorAt(link, "tp")) << Describe(link.errors);
  EXPECT_TRUE(HasErrorAt(link, "bogus")) << Describe(link.errors);
}

// 300 copies of one unknown key: the keys past 256 are dropped (one line says so), and the
// same fault on the same key is one line, not 255; b=5, first, is kept.
TEST(ShareLinkTest, RepeatedFaultsAreReportedOnce) {
  std::string fragment = "v1&b=5";
  for (int i = 0; i < 300; ++i) fragment += "&zz=1";
  DecodedLink link = DecodeShareFragment(fragment, TestPresets());
  EXPECT_EQ(link.config.training.local_batch_size, 5);
  EXPECT_EQ(link.errors.size(), 2u) << Describe(link.errors);
  EXPECT_TRUE(HasErrorAt(link, "zz")) << Describe(link.errors);
  EXPECT_TRUE(HasErrorAt(link, "")) << Describe(link.errors);
}

// training.vision_tower travels as vt; a value it does not know is named and the rest kept.
TEST(ShareLinkTest, VisionTowerRoleRoundTrips) {
  const Config c = With(MustParse(R"({"model": "qwen3-vl-8b"})"), {{"vt", "frozen"}});
  EXPECT_EQ(EncodeShareFragment(c), "v1&model=qwen3-vl-8b&vt=frozen&acopt=op");
  DecodedLink back = DecodeShareFragment(EncodeShareFragment(c), TestPresets());
  EXPECT_TRUE(back.errors.empty()) << Describe(back.errors);
  EXPECT_EQ(back.config.training.vision_tower, VisionTower::kFrozen);
  DecodedLink bad = DecodeShareFragment("v1&model=qwen3-vl-8b&vt=melted&b=3", TestPresets());
  EXPECT_TRUE(HasErrorAt(bad, "vt")) << Describe(bad.errors);
  EXPECT_EQ(bad.config.training.vision_tower, VisionTower::kNone);
  EXPECT_EQ(bad.config.training.local_batch_size, 3);
}

// The EP dispatcher travels as epcomm (only when not "standard", the dispatcher every earlier
// link's estimate counted); a link with an unknown one keeps the rest.
TEST(ShareLinkTest, EpDispatcherRoundTrips) {
  const Config c = With(MustParse(R"({"model": "qwen3-30b-a3b"})"),
                        {{"ws", "8"}, {"ep", "8"}, {"epcomm", "deepep"}});
  const std::string link = EncodeShareFragment(c);
  EXPECT_NE(link.find("&epcomm=deepep"), std::string::npos) << link;
  DecodedLink back = DecodeShareFragment(link, TestPresets());
  EXPECT_TRUE(back.errors.empty()) << Describe(back.errors);
  EXPECT_EQ(back.config.parallelism.ep_comm_backend, EpCommBackend::kDeepEp);
  EXPECT_EQ(EncodeShareFragment(With(c, {{"epcomm", "standard"}})).find("epcomm"),
            std::string::npos);
  DecodedLink bad =
      DecodeShareFragment("v1&model=qwen3-30b-a3b&ws=8&ep=8&epcomm=smoke&b=3", TestPresets());
  EXPECT_TRUE(HasErrorAt(bad, "epcomm")) << Describe(bad.errors);
  EXPECT_EQ(bad.config.parallelism.ep_comm_backend, EpCommBackend::kStandard);
  EXPECT_EQ(bad.config.training.local_batch_size, 3);
}

TEST(ShareLinkTest, KeysMayComeInAnyOrder) {
  DecodedLink link = DecodeShareFragment("v1&model=llama3-8b&tp=8&ws=8", TestPresets());
  EXPECT_TRUE(link.errors.empty()) << Describe(link.errors);
  EXPECT_EQ(link.config.parallelism.tp, 8);
  EXPECT_EQ(link.config.world_size, 8);
}

TEST(ShareLinkTest, InvalidCombinationDropsTheConflictingKey) {
  DecodedLink link = DecodeShareFragment("v1&model=llama3-8b&ws=8&b=4&tp=3", TestPresets());
  EXPECT_TRUE(HasErrorAt(link, "tp")) << Describe(link.errors);
  EXPECT_EQ(link.config.world_size, 8);
  EXPECT_EQ(link.config.training.local_batch_size, 4);
  EXPECT_EQ(link.config.parallelism.tp, 1);
  EXPECT_TRUE(ValidateConfig(link.config).empty());
}

// Several keys that do not fit: each is reported with its own reason, not the first one found.
TEST(ShareLinkTest, EachDroppedKeyGivesItsOwnReason) {
  DecodedLink link =
      DecodeShareFragment("v1&model=llama3-8b&ws=8&tp=3&s=1000000000", TestPresets());
  std::string tp, s;
  for (const Error& e : link.errors) (e.path == "tp" ? tp : e.path == "s" ? s : tp) += e.message;
  EXPECT_NE(tp.find("not divisible"), std::string::npos) << Describe(link.errors);
  EXPECT_NE(s.find("1000000000"), std::string::npos) << Describe(link.errors);
  EXPECT_EQ(s.find("not divisible"), std::string::npos) << Describe(link.errors);
  EXPECT_TRUE(ValidateConfig(link.config).empty());
}

TEST(ShareLinkTest, UnknownModelFallsBackToTheDefault) {
  DecodedLink link = DecodeShareFragment("v1&model=llama9-1t&b=2", TestPresets());
  EXPECT_TRUE(HasErrorAt(link, "model")) << Describe(link.errors);
  EXPECT_EQ(link.config.model_id, kDefaultModelId);
  EXPECT_EQ(link.config.training.local_batch_size, 2);
}

TEST(ShareLinkTest, OtherVersionsAreReportedButStillRead) {
  DecodedLink v2 = DecodeShareFragment("v2&ws=2&tp=2", TestPresets());
  ASSERT_TRUE(HasErrorAt(v2, "")) << Describe(v2.errors);
  EXPECT_EQ(FormatError(v2.errors.front()),
            "this link is version 'v2', this page reads v1; the keys it knows were read");
  EXPECT_EQ(v2.config.parallelism.tp, 2);
  DecodedLink none = DecodeShareFragment("model=llama3-70b", TestPresets());
  EXPECT_TRUE(HasErrorAt(none, ""));
  EXPECT_EQ(none.config.model_id, "llama3-70b");
}

TEST(ShareLinkTest, EmbedFlagAndLeadingHash) {
  DecodedLink link = DecodeShareFragment("#v1&model=llama3-8b&embed=1", TestPresets());
  EXPECT_TRUE(link.embed);
  EXPECT_TRUE(link.errors.empty()) << Describe(link.errors);
  EXPECT_FALSE(DecodeShareFragment("v1&model=llama3-8b", TestPresets()).embed);
}

// An empty link is v1's defaults: Llama 3 8B on one H100 with torchtitan (share_link_v1.cpp).
TEST(ShareLinkTest, EmptyLinkGivesTheV1Defaults) {
  DecodedLink link = DecodeShareFragment("", TestPresets());
  EXPECT_EQ(link.config.model_id, "llama3-8b");
  EXPECT_EQ(link.config.device.id, "h100-80gb");
  EXPECT_EQ(link.config.framework, Framework::kTorchtitan);
  EXPECT_EQ(link.config.world_size, 1);
  EXPECT_EQ(link.config.training.local_batch_size, 8);
  EXPECT_EQ(link.config.training.seq_len, 2048);
}

// Broken links are reported in the link's own words: the key as written in the link, config
// names turned into link keys, what the key expects, and no "#" or "#:" anywhere.
TEST(ShareLinkTest, BrokenLinkMessagesUseTheLinksVocabulary) {
  DecodedLink link = DecodeShareFragment("v1&ws=8&tp=3&b=abc&zz=1&s", TestPresets());
  ASSERT_TRUE(HasErrorAt(link, "tp")) << Describe(link.errors);
  ASSERT_TRUE(HasErrorAt(link, "b")) << Describe(link.errors);
  ASSERT_TRUE(HasErrorAt(link, "zz")) << Describe(link.errors);
  ASSERT_TRUE(HasErrorAt(link, "s")) << Describe(link.errors);
  for (const Error& e : link.errors) {
    const std::string text = FormatError(e);
    EXPECT_EQ(text.find('#'), std::string::npos) << text;
    for (const char* config_word : {"tensor_parallel_degree", "local_batch_size", "world_size",
                                    "seq_len", "parallelism.", "training."})
      EXPECT_EQ(text.find(config_word), std::string::npos) << text;
  }
  for (const Error& e : link.errors) {
    if (e.path == "tp") {
      EXPECT_NE(e.message.find("tp expects the tensor-parallel degree"), std::string::npos)
          << e.message;
    }
    if (e.path == "b") {
      EXPECT_NE(e.message.find("b expects the local batch size per device"), std::string::npos)
          << e.message;
    }
    if (e.path == "s") EXPECT_NE(e.message.find("has no value (write s=…)"), std::string::npos);
  }
  // What could be read is kept; what could not keeps its v1 default.
  EXPECT_EQ(link.config.world_size, 8);
  EXPECT_EQ(link.config.parallelism.tp, 1);
  EXPECT_EQ(link.config.training.local_batch_size, 8);
}

// A link whose default the schema changed still opens to v1's value: the decoder starts from
// v1's frozen table, not DefaultConfigJson. The encoder leaves out exactly the v1 defaults.
TEST(ShareLinkTest, V1DefaultsAreFrozen) {
  Config c = MustParse(R"({"model": "llama3-8b"})");
  c.training.local_batch_size = 8;  // v1's default
  c.world_size = 1;
  c.activation_checkpoint.selective_ac_option = "2";  // v1's default (now "op")
  EXPECT_EQ(EncodeShareFragment(c), "v1&model=llama3-8b");
  c.framework = Framework::kTorchtitanNpu;
  c.device = MustParse(R"({"model": "llama3-8b", "device": "ascend-910b"})").device;
  EXPECT_EQ(EncodeShareFragment(c), "v1&model=llama3-8b&device=ascend-910b&fw=torchtitan-npu");
  // A link without acopt opens with v1's "2", whatever the default is now.
  EXPECT_EQ(DecodeShareFragment("v1&model=llama3-8b", TestPresets())
                .config.activation_checkpoint.selective_ac_option,
            "2");
}

// The page's own keys are kept for the page: the language and measurements.
TEST(ShareLinkTest, PageKeysAreKept) {
  DecodedLink link = DecodeShareFragment("v1&model=llama3-8b&lang=zh&m=abc%20def", TestPresets());
  EXPECT_TRUE(link.errors.empty()) << Describe(link.errors);
  EXPECT_EQ(link.lang, "zh");
  ASSERT_EQ(link.page_keys.size(), 1u);
  EXPECT_EQ(link.page_keys[0], (std::pair<std::string, std::string>{"m", "abc def"}));
}

// Every shape v1 links have had (tests/data/links_v1.jsonl, one per line with the config it
// must open to) opens to that config. The file was written by the v1 decoder; lines are never
// edited, only added. A config key the schema gained since is not in a line: only the keys a
// line holds are compared.
void ExpectContains(const nlohmann::json& actual, const nlohmann::json& golden,
                    const std::string& where) {
  if (golden.is_object()) {
    ASSERT_TRUE(actual.is_object()) << where;
    for (auto it = golden.begin(); it != golden.end(); ++it) {
      ASSERT_TRUE(actual.contains(it.key())) << where << "." << it.key();
      ExpectContains(actual[it.key()], *it, where + "." + it.key());
    }
    return;
  }
  EXPECT_EQ(actual, golden) << where;
}

TEST(ShareLinkTest, GoldenV1LinksOpenToTheirConfigs) {
  std::ifstream file(TRAINMEM_SOURCE_DIR "/tests/data/links_v1.jsonl");
  ASSERT_TRUE(file) << "tests/data/links_v1.jsonl";
  std::string line;
  int count = 0;
  while (std::getline(file, line)) {
    if (line.empty()) continue;
    const nlohmann::json golden = nlohmann::json::parse(line);
    const std::string link = golden["link"];
    DecodedLink decoded = DecodeShareFragment(link, TestPresets());
    EXPECT_TRUE(decoded.errors.empty()) << link << Describe(decoded.errors);
    EXPECT_EQ(decoded.embed, golden.value("embed", false)) << link;
    ExpectContains(ConfigToJson(decoded.config), golden["config"], link);
    ++count;
  }
  EXPECT_GE(count, 20);
}

TEST(ShareLinkTest, ShareUrlAppendsTheFragment) {
  const Config c = MustParse(R"({"model": "llama3-8b"})");
  EXPECT_EQ(ShareUrl(c, ""), "index.html#v1&model=llama3-8b&acopt=op");
  EXPECT_EQ(ShareUrl(c, "https://example.org/trainmem/"),
            "https://example.org/trainmem/#v1&model=llama3-8b&acopt=op");
  EXPECT_EQ(ShareUrl(c, "https://example.org/#v1&tp=2"),
            "https://example.org/#v1&model=llama3-8b&acopt=op");
}

}  // namespace
}  // namespace trainmem

namespace trainmem {
namespace {

// Garbage keys are quoted as the link writes them: escapes that do not decode to text stay
// escapes ("%E0%A4%A", not "??%A"), and a value with no key name is named by its text.
TEST(ShareLinkGarbage, EveryMessageNamesItsKeyAsWritten) {
  const DecodedLink link = DecodeShareFragment("#%E0%A4%A&&&=&==x", TestPresets());
  ASSERT_FALSE(link.errors.empty());
  bool escaped = false, empty_key = false, value_only = false;
  for (const Error& e : link.errors) {
    const std::string text = FormatError(e);
    EXPECT_EQ(text.find("\xEF\xBF\xBD"), std::string::npos) << text;  // no U+FFFD
    EXPECT_EQ(text.find('?'), std::string::npos) << text;
    // A line that is about one key starts with it (FormatError: "key: …").
    EXPECT_NE(text.rfind(": ", 0), 0u) << text;
    escaped |= e.path == "%E0%A4%A";
    empty_key |= e.path.empty() && e.message.find("\"=\" has no key name") != std::string::npos;
    value_only |= e.path.empty() && e.message.find("\"==x\" has no key name") != std::string::npos;
  }
  EXPECT_TRUE(escaped) << Describe(link.errors);
  EXPECT_TRUE(empty_key) << Describe(link.errors);
  EXPECT_TRUE(value_only) << Describe(link.errors);
  // Valid escapes still decode: an unknown key in UTF-8 is shown as text.
  const DecodedLink utf8 = DecodeShareFragment("v1&%C3%A9t%C3%A9=1", TestPresets());
  ASSERT_EQ(utf8.errors.size(), 1u) << Describe(utf8.errors);
  EXPECT_EQ(utf8.errors[0].path, "\xC3\xA9t\xC3\xA9");
  // A value that is not text is quoted escaped too.
  const DecodedLink value = DecodeShareFragment("v1&model=llama%FF", TestPresets());
  ASSERT_FALSE(value.errors.empty());
  EXPECT_NE(value.errors[0].message.find("llama%FF"), std::string::npos) << value.errors[0].message;
}

// A key given twice: the last value is used (as when a key is appended to a link by hand), and
// the reader is told, under that key; the link still counts as read.
TEST(ShareLinkGarbage, RepeatedKeyIsNamedAndTheLastValueUsed) {
  const DecodedLink link = DecodeShareFragment("v1&model=llama3-8b&ws=8&b=2&b=4", TestPresets());
  EXPECT_TRUE(link.errors.empty()) << Describe(link.errors);
  EXPECT_EQ(link.config.training.local_batch_size, 4);
  ASSERT_EQ(link.warnings.size(), 1u) << Describe(link.warnings);
  EXPECT_EQ(link.warnings[0].path, "b");
  EXPECT_NE(link.warnings[0].message.find("given twice (2, then 4)"), std::string::npos)
      << link.warnings[0].message;
  // The alias and the dotted key set the same thing.
  const DecodedLink both = DecodeShareFragment(
      "v1&model=llama3-8b&ws=8&tp=2&parallelism.tensor_parallel_degree=4", TestPresets());
  EXPECT_EQ(both.config.parallelism.tp, 4);
  ASSERT_EQ(both.warnings.size(), 1u) << Describe(both.warnings);
  // A plain link has no warnings.
  EXPECT_TRUE(DecodeShareFragment("v1&model=llama3-8b&ws=8&b=2", TestPresets()).warnings.empty());
}

// A key dropped because of another degree ends with what that degree expects: pp 8 leaves 32
// ranks for EP 64, so the hint is EP's, not "pp expects … up to the layers".
TEST(ShareLinkGarbage, DroppedKeysHintNamesTheOffendingDegree) {
  const DecodedLink link =
      DecodeShareFragment("v1&model=deepseek-v3&ws=256&ep=64&pp=8", TestPresets());
  ASSERT_TRUE(HasErrorAt(link, "pp")) << Describe(link.errors);
  for (const Error& e : link.errors) {
    if (e.path != "pp") continue;
    EXPECT_EQ(e.message.find("pp expects"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("ep expects"), std::string::npos) << e.message;
  }
  // A key dropped for its own reason keeps its own hint.
  const DecodedLink tp = DecodeShareFragment("v1&model=llama3-8b&ws=8&b=2&tp=3", TestPresets());
  ASSERT_TRUE(HasErrorAt(tp, "tp")) << Describe(tp.errors);
  for (const Error& e : tp.errors)
    if (e.path == "tp") EXPECT_NE(e.message.find("tp expects"), std::string::npos) << e.message;
}

// The config key behind a link key (the page outlines that field), and what a link means when it
// leaves a key out (the Measured card's "b 2 → 8").
TEST(ShareLinkGarbage, LinkKeysConfigPathAndDefault) {
  EXPECT_EQ(LinkKeyConfigPath("tp"), "parallelism.tensor_parallel_degree");
  EXPECT_EQ(LinkKeyConfigPath("ws"), "world_size");
  EXPECT_EQ(LinkKeyConfigPath("m.hidden_size"), "model.hidden_size");
  EXPECT_EQ(LinkKeyConfigPath("dev.gib"), "device.memory_gib");
  EXPECT_EQ(LinkKeyConfigPath("model"), "model");
  EXPECT_EQ(LinkKeyDefault("b"), "8");
  EXPECT_EQ(LinkKeyDefault("s"), "2048");
  EXPECT_EQ(LinkKeyDefault("ws"), "1");
  EXPECT_EQ(LinkKeyDefault("device"), "h100-80gb");
  EXPECT_EQ(LinkKeyDefault("fp8"), "0");
  EXPECT_EQ(LinkKeyDefault("nonsense"), "");
}

}  // namespace
}  // namespace trainmem
