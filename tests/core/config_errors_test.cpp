// What a user sees for a bad config: each mistake gives its key path and a message that says
// why, with the numbers; all mistakes at once, never just the first.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/config/config.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::TestPresets;

std::vector<Error> ErrorsOf(const std::string& json_text) {
  Result<Config> r = ParseConfig(json_text, TestPresets());
  return r.ok() ? std::vector<Error>{} : r.errors();
}

std::string Describe(const std::vector<Error>& errors) {
  std::string all;
  for (const Error& e : errors) all += "\n  " + FormatError(e);
  return all.empty() ? " (no errors)" : all;
}

// True when some error has exactly this path and a message containing `message`.
bool HasError(const std::vector<Error>& errors, const std::string& path,
              const std::string& message) {
  for (const Error& e : errors) {
    if (e.path == path && e.message.find(message) != std::string::npos) return true;
  }
  return false;
}

struct BadInput {
  std::string json;
  const char* path;
  const char* message;
};

void ExpectErrors(const std::vector<BadInput>& cases) {
  for (const BadInput& c : cases) {
    const std::vector<Error> errors = ErrorsOf(c.json);
    EXPECT_TRUE(HasError(errors, c.path, c.message))
        << c.json << "\nwanted " << c.path << ": " << c.message << "\ngot" << Describe(errors);
  }
}

// {"model": "llama3-8b", <rest>}: 32 heads, 8 key/value heads, 32 layers, dense.
std::string Llama8b(const std::string& rest) { return R"({"model": "llama3-8b", )" + rest + "}"; }

constexpr const char* kHeads12 =
    R"({"model": {"model_type": "llama", "hidden_size": 768, "num_hidden_layers": 12,
       "num_attention_heads": 12, "num_key_value_heads": 12, "intermediate_size": 3072,
       "vocab_size": 32000}, )";
constexpr const char* kHeads24Kv8 =
    R"({"model": {"model_type": "llama", "hidden_size": 3072, "num_hidden_layers": 28,
       "num_attention_heads": 24, "num_key_value_heads": 8, "intermediate_size": 8192,
       "vocab_size": 128256}, )";

TEST(ConfigErrorsTest, UnknownKeysAndWrongTypes) {
  ExpectErrors({
      {Llama8b(R"("parallelism": {"tensor_paralel_degree": 2})"),
       "parallelism.tensor_paralel_degree", "unknown key; did you mean tensor_parallel_degree?"},
      {Llama8b(R"("trainig": {})"), "trainig", "unknown key; did you mean training?"},
      {Llama8b(R"("world_size": "8")"), "world_size", "expected an integer, got a string"},
      {Llama8b(R"("training": {"fp8": 1})"), "training.fp8",
       "expected true or false, got an integer"},
      {Llama8b(R"("training": {"seq_len": 2048.5})"), "training.seq_len",
       "expected an integer, got 2048.5"},
      {Llama8b(R"("world_size": 1e30)"), "world_size", "is too large"},
      {Llama8b(R"("training": 5)"), "training", "expected an object, got an integer"},
      {R"({"model": 8})", "model",
       "expected a preset id (a string) or an object of HF config.json fields, got an integer"},
      {R"({"world_size": 8})", "model", "required"},
      {Llama8b(R"("version": 2)"), "version", "unsupported config version 2"},
      {R"([1, 2])", "", "expected a JSON object, got a list"},
  });
}

TEST(ConfigErrorsTest, UnknownNamesListTheValidOnes) {
  ExpectErrors({
      {R"({"model": "llama3-7b"})", "model", "unknown model preset 'llama3-7b'; close ids: "},
      {Llama8b(R"("device": "h200")"), "device", "unknown device preset 'h200'"},
      {Llama8b(R"("mode": "fast")"), "mode",
       "unknown value 'fast'; valid values: template, detailed"},
      {Llama8b(R"("optimizer": {"name": "Adagrad"})"), "optimizer.name",
       "unknown value 'Adagrad'; valid values: AdamW, Adam, SGD, Lion, Adafactor"},
      {Llama8b(R"("parallelism": {"pipeline_parallel_schedule": "Looped"})"),
       "parallelism.pipeline_parallel_schedule",
       "valid values: 1F1B, Interleaved1F1B, GPipe, ZeroBubble"},
      {Llama8b(R"("activation_checkpoint": {"selective_ac_option": "every"})"),
       "activation_checkpoint.selective_ac_option", "expected \"op\" or a positive integer"},
      {Llama8b(R"("compile": {"components": ["model", "graph"]})"), "compile.components[1]",
       "unknown component graph; valid values: model, loss"},
  });
}

// UX review 17: "device=a10g" listed the first eight device ids alphabetically, stopping at
// h100-80gb; the device presets are few enough to list whole. The models are not: eight of
// them, then how many more.
TEST(ConfigErrorsTest, UnknownDeviceListsEveryDeviceId) {
  const std::vector<Error> device = ErrorsOf(Llama8b(R"("device": "a10g")"));
  ASSERT_EQ(device.size(), 1u) << Describe(device);
  for (const auto& entry : TestPresets().devices)
    EXPECT_NE(device[0].message.find(entry.first), std::string::npos)
        << entry.first << " missing from: " << device[0].message;
  EXPECT_EQ(device[0].message.find("include"), std::string::npos) << device[0].message;
  ASSERT_GT(TestPresets().models.size(), 24u);
  const std::vector<Error> model = ErrorsOf(R"({"model": "zzzzzzzzzzzzzzzz"})");
  ASSERT_EQ(model.size(), 1u) << Describe(model);
  const std::string& models = model[0].message;
  EXPECT_EQ(models.substr(models.size() - 5), " more") << models;
}

TEST(ConfigErrorsTest, LayoutMustFitTheWorldAndTheModel) {
  ExpectErrors({
      {Llama8b(R"("world_size": 8, "parallelism": {"tensor_parallel_degree": 3})"), "world_size",
       "world_size 8 is not divisible by tp·pp·cp·dp_replicate = 3"},
      {Llama8b(R"("world_size": 8, "parallelism": {"data_parallel_shard_degree": 2,
                  "tensor_parallel_degree": 2})"),
       "world_size", "dp_replicate·dp_shard·cp·tp·pp = 1·2·1·2·1 = 4, but world_size is 8"},
      {kHeads12 + std::string(R"("world_size": 8, "parallelism": {"tensor_parallel_degree": 8}})"),
       "parallelism.tensor_parallel_degree",
       "the model's 12 attention heads are not divisible by tensor_parallel_degree 8"},
      {kHeads24Kv8 +
           std::string(R"("world_size": 3, "parallelism": {"tensor_parallel_degree": 3}})"),
       "parallelism.tensor_parallel_degree",
       "the model's 8 key/value heads are not divisible by tensor_parallel_degree 3"},
      {Llama8b(R"("world_size": 64, "parallelism": {"tensor_parallel_degree": 64})"),
       "parallelism.tensor_parallel_degree",
       "tensor_parallel_degree 64 exceeds the model's 32 attention heads"},
      {Llama8b(R"("world_size": 8, "parallelism": {"expert_parallel_degree": 2})"),
       "parallelism.expert_parallel_degree",
       "expert_parallel_degree 2 needs a mixture-of-experts model; this model is dense"},
      {Llama8b(R"("world_size": 8, "parallelism": {"tensor_parallel_degree": 8,
                  "expert_tensor_parallel_degree": 8})"),
       "parallelism.expert_tensor_parallel_degree",
       "expert_tensor_parallel_degree 8 needs a mixture-of-experts model; this model is dense"},
      {Llama8b(R"("world_size": 8, "training": {"seq_len": 1020},
                  "parallelism": {"context_parallel_degree": 4})"),
       "training.seq_len", "seq_len 1020 is not divisible by 2·context_parallel_degree = 8"},
      // Ulysses alone cuts each sequence into cp parts, not 2·cp.
      {Llama8b(R"("framework": "megatron", "world_size": 8, "training": {"seq_len": 1022},
                  "parallelism": {"context_parallel_degree": 4, "ulysses_degree_in_cp": 4})"),
       "training.seq_len", "seq_len 1022 is not divisible by context_parallel_degree = 4"},
      {R"({"model": "llama3.2-1b", "world_size": 32,
           "parallelism": {"pipeline_parallel_degree": 32}})",
       "parallelism.pipeline_parallel_degree",
       "32 pipeline stages cannot be filled by 16 layers and the embedding and output"},
      {Llama8b(R"("world_size": 2, "training": {"local_batch_size": 3},
                  "parallelism": {"pipeline_parallel_degree": 2,
                                  "pipeline_parallel_microbatch_size": 2})"),
       "parallelism.pipeline_parallel_microbatch_size",
       "local_batch_size 3 is not divisible by pipeline_parallel_microbatch_size 2"},
      {Llama8b(R"("training": {"mtp": true})"), "training.mtp", "no MTP modules"},
  });
}

// Sequence lengths context parallelism accepts: Ulysses alone needs cp parts (1020 = 4 · 255,
// not a multiple of 8); the Hugging Face Trainer's Ulysses (framework deepspeed: DeepSpeed's,
// ms-swift's) pads each sequence itself.
TEST(ConfigErrorsTest, UlyssesAndTheTrainersSequenceParallelSplitsAsTheyDo) {
  EXPECT_TRUE(ValidateConfig(testing::MustParse(Llama8b(
                                 R"("framework": "megatron", "world_size": 8,
                                    "training": {"seq_len": 1020},
                                    "parallelism": {"context_parallel_degree": 4,
                                                    "ulysses_degree_in_cp": 4})")))
                  .empty());
  EXPECT_TRUE(ValidateConfig(testing::MustParse(Llama8b(
                                 R"("framework": "deepspeed", "world_size": 8,
                                    "training": {"seq_len": 65535},
                                    "parallelism": {"context_parallel_degree": 4,
                                                    "ulysses_degree_in_cp": 4})")))
                  .empty());
}

// Mixtral 8x7B: 8 routed experts, 32 heads.
TEST(ConfigErrorsTest, ExpertLayoutFollowsTorchtitan) {
  ExpectErrors({
      {R"({"model": "mixtral-8x7b", "world_size": 16,
           "parallelism": {"expert_parallel_degree": 16}})",
       "parallelism.expert_parallel_degree",
       "the model's 8 routed experts are not divisible by expert_parallel_degree 16"},
      {R"({"model": "mixtral-8x7b", "world_size": 8, "parallelism": {
           "tensor_parallel_degree": 4, "expert_tensor_parallel_degree": 2}})",
       "parallelism.expert_tensor_parallel_degree",
       "must be 1 or tensor_parallel_degree (4), got 2"},
      {R"({"model": "mixtral-8x7b", "world_size": 8, "parallelism": {"tensor_parallel_degree": 8,
           "expert_tensor_parallel_degree": 8, "expert_parallel_degree": 2}})",
       "parallelism.expert_parallel_degree",
       "expert_parallel_degree 2 must divide dp_shard·cp = 1"},
  });
}

TEST(ConfigErrorsTest, NumbersOutOfRange) {
  ExpectErrors({
      {Llama8b(R"("training": {"local_batch_size": -1})"), "training.local_batch_size",
       "must be at least 1, got -1"},
      {Llama8b(R"("world_size": 0)"), "world_size", "must be at least 1, got 0"},
      {Llama8b(R"("world_size": 2000000)"), "world_size", "must be at most 1048576, got 2000000"},
      {Llama8b(R"("training": {"seq_len": 1000000000})"), "training.seq_len",
       "must be at most 100000000"},
      {Llama8b(R"("training": {"local_batch_size": 1000000, "seq_len": 10000000})"),
       "training.local_batch_size", "beyond what trainmem models"},
      // Past its range the batch is not multiplied by seq_len afterwards (that overflowed:
      // undefined behaviour, caught by the ASan + UBSan run of an import test).
      {Llama8b(R"("training": {"local_batch_size": 4611686018427387904})"),
       "training.local_batch_size", "must be at most 1000000"},
      {Llama8b(R"("training": {"loss_chunks": 0})"), "training.loss_chunks",
       "must be at least 1, got 0"},
      {Llama8b(R"("parallelism": {"data_parallel_shard_degree": 0})"),
       "parallelism.data_parallel_shard_degree", "must be at least 1, got 0"},
      {Llama8b(R"("device": {"name": "x", "memory_gib": 0})"), "device.memory_gib",
       "must be in (0, 100000], got 0"},
      {Llama8b(R"("device": {"name": "x"})"), "device.memory_gib", "required for a custom device"},
      {Llama8b(R"("overhead": {"budget_fraction": 1.5})"), "overhead.budget_fraction",
       "must be in (0, 1], got 1.5"},
      {Llama8b(R"("overhead": {"temporary_fraction": 1})"), "overhead.temporary_fraction",
       "must be in [0, 1), got 1"},
      {Llama8b(R"("optimizer": {"swap_optimizer_times": 0})"), "optimizer.swap_optimizer_times",
       "must be at least 1, got 0"},
      {Llama8b(R"("parallelism": {"zero_stage": 4})"), "parallelism.zero_stage",
       "must be 0, 1, 2 or 3"},
  });
}

TEST(ConfigErrorsTest, UnknownModelListsCloseIds) {
  const std::vector<Error> errors = ErrorsOf(R"({"model": "llama3-7b"})");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("llama3-8b"), std::string::npos) << errors[0].message;
}

TEST(ConfigErrorsTest, MalformedJsonSaysWhere) {
  const std::vector<Error> errors = ErrorsOf("{\n  \"model\": \"llama3-8b\",\n}");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("invalid JSON"), std::string::npos) << errors[0].message;
  EXPECT_NE(errors[0].message.find("line 3, column 1"), std::string::npos) << errors[0].message;
  EXPECT_FALSE(ErrorsOf("").empty());
}

TEST(ConfigErrorsTest, AllMistakesAreReportedTogether) {
  const std::vector<Error> errors = ErrorsOf(R"({"model": "llama3-8b", "world_size": "8",
      "training": {"fp8": "yes", "seq_lenn": 4096}, "optimizer": {"name": "Nadam"}})");
  EXPECT_EQ(errors.size(), 4u) << Describe(errors);
  EXPECT_TRUE(HasError(errors, "world_size", "expected an integer"));
  EXPECT_TRUE(HasError(errors, "training.fp8", "expected true or false"));
  EXPECT_TRUE(HasError(errors, "training.seq_lenn", "did you mean seq_len?"));
  EXPECT_TRUE(HasError(errors, "optimizer.name", "unknown value 'Nadam'"));
}

TEST(ConfigErrorsTest, LayoutMistakesAreAllReported) {
  const std::vector<Error> errors = ErrorsOf(R"({"model": "llama3-8b", "world_size": 16,
      "parallelism": {"tensor_parallel_degree": 16, "expert_parallel_degree": 2}})");
  EXPECT_TRUE(HasError(errors, "parallelism.tensor_parallel_degree", "key/value heads"));
  EXPECT_TRUE(HasError(errors, "parallelism.expert_parallel_degree", "dense"));
}

// A sequence that sequence parallelism cannot split evenly over TP is valid (Megatron's RL
// packing pads it; its examples/rl Nemotron configs run --seq-length 8191 at TP 8): estimated
// as given, with a warning that names the padding.
TEST(ConfigErrorsTest, SequenceNotAMultipleOfTpIsAWarningNotAnError) {
  const Config c = testing::MustParse(R"({"model": "llama3-8b", "world_size": 8,
      "framework": "megatron", "training": {"seq_len": 8191},
      "parallelism": {"tensor_parallel_degree": 8, "sequence_parallel": true}})");
  EXPECT_TRUE(ValidateConfig(c).empty());
  const Estimate e = EstimateMemory(c);
  bool warned = false;
  for (const std::string& w : e.warnings)
    warned = warned || w.find("seq_len 8191 is not a multiple of tensor_parallel_degree 8") !=
                           std::string::npos;
  EXPECT_TRUE(warned);
  // DeepSpeed's AutoTP has no sequence parallelism: nothing to pad, no warning, whatever the
  // flag says.
  const Config ds = testing::MustParse(R"({"model": "llama3-8b", "world_size": 8,
      "framework": "deepspeed", "training": {"seq_len": 8191},
      "parallelism": {"tensor_parallel_degree": 8, "sequence_parallel": true}})");
  for (const std::string& w : EstimateMemory(ds).warnings)
    EXPECT_EQ(w.find("is not a multiple of tensor_parallel_degree"), std::string::npos) << w;
}

TEST(ConfigErrorsTest, ValidateConfigChecksABuiltConfig) {
  Config c = testing::MustParse(R"({"model": "llama3-8b"})");
  EXPECT_TRUE(ValidateConfig(c).empty());
  c.world_size = 8;
  c.parallelism.tp = 3;
  const std::vector<Error> errors = ValidateConfig(c);
  EXPECT_TRUE(HasError(errors, "world_size", "world_size 8 is not divisible")) << Describe(errors);
  EXPECT_FALSE(ResolveLayout(c).ok());
}

}  // namespace
}  // namespace trainmem
