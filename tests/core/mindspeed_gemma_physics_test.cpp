// What Gemma's features cost in activations, as MindSpeed-LLM runs them on Ascend and as any
// framework runs the architecture: GELU-gated MLPs left unfused, the sandwich norms, logit
// soft-capping and the per-layer sliding-window masks. Every expected figure is derived by hand
// in the comment above it (estimate_activations.cpp cites the sources).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "core/estimate/estimate.h"
#include "import_test_support.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;

// h = 1024, 8 heads of 128 (MHA), a gated MLP of I = 512, 2 layers, vocabulary 1024; Megatron
// with TP 1 (no sequence parallelism), flash attention, no dropout, no checkpointing; 1 × 4096
// tokens.
Config Job(const std::string& device, const nlohmann::json& extra_model) {
  nlohmann::json model = {{"model_type", "llama"},    {"hidden_size", 1024},
                          {"num_hidden_layers", 2},   {"num_attention_heads", 8},
                          {"num_key_value_heads", 8}, {"intermediate_size", 512},
                          {"vocab_size", 1024},       {"tie_word_embeddings", false}};
  for (const auto& [key, value] : extra_model.items()) model[key] = value;
  const nlohmann::json c = {
      {"framework", "megatron"},
      {"device", device},
      {"world_size", 1},
      {"model", model},
      {"training",
       {{"local_batch_size", 1}, {"seq_len", 4096}, {"dropout", 0.0}, {"attention", "flash"}}},
      {"activation_checkpoint", {{"mode", "none"}}}};
  return MustParse(c.dump());
}

const ActivationBreakdown& Act(const Estimate& e) { return e.stages.front().activations; }
double PerTokenPerLayer(const Config& c) {
  return Act(EstimateMemory(c)).bytes_per_token_per_layer;
}

// MindSpeed-LLM runs GELU-gated MLPs unfused. --gelu-tanh's tensor-op GELU keeps fc1's [gate, up]
// output and five I-wide tensors (tanh's output, both factors of 0.5·x·(1 + tanh), gelu's output,
// fc2's input): 7I against fused SwiGLU's 3I, 4 × 2 B × 512 = 4,096 B more per token per layer.
// --geglu's F.gelu keeps 4I: 1,024 B more. Megatron-LM on GPUs fuses GeGLU like SwiGLU.
TEST(MindSpeedGemma, UnfusedGeluGatedMlpKeepsEveryOperand) {
  const double silu = PerTokenPerLayer(Job("ascend-910b", {{"hidden_act", "silu"}}));
  EXPECT_NEAR(PerTokenPerLayer(Job("ascend-910b", {{"hidden_act", "gelu_pytorch_tanh"}})) - silu,
              4096.0, 0.5);
  EXPECT_NEAR(PerTokenPerLayer(Job("ascend-910b", {{"hidden_act", "gelu"}})) - silu, 1024.0, 0.5);
  EXPECT_NEAR(PerTokenPerLayer(Job("h100-80gb", {{"hidden_act", "gelu_pytorch_tanh"}})),
              PerTokenPerLayer(Job("h100-80gb", {{"hidden_act", "silu"}})), 0.5);
}

// Gemma 2's sandwich norms (norms_per_layer 4): the post-attention and post-MLP norms each keep
// their input and an fp32 statistic, 2 × (2 B × 1024 + 4) = 4,104 B per token per layer.
TEST(MindSpeedGemma, SandwichNormsKeepTheirInputs) {
  for (const char* device : {"ascend-910b", "h100-80gb"}) {
    EXPECT_NEAR(PerTokenPerLayer(Job(device, {{"norms_per_layer", 4}})) -
                    PerTokenPerLayer(Job(device, nlohmann::json::object())),
                4104.0, 0.5)
        << device;
  }
}

// Soft-capped logits, cap · tanh(logits / cap): tanh keeps its output, one more bf16 logit per
// vocabulary entry per token: 2 B × 1024 × 4096 tokens = 8,388,608 B on the last stage.
TEST(MindSpeedGemma, SoftCappedLogitsKeepTanhsOutput) {
  const Estimate capped = EstimateMemory(Job("ascend-910b", {{"final_logit_softcapping", 30.0}}));
  const Estimate plain = EstimateMemory(Job("ascend-910b", nlohmann::json::object()));
  EXPECT_EQ(Act(capped).logits_and_loss - Act(plain).logits_and_loss, 8'388'608);
}

// With the data loader's [1, 1, 4096, 4096] bool mask (16,777,216 B), each sliding-window layer
// of MindSpeed-LLM builds and keeps its own mask of that shape: layers [sliding, full] keep
// 2 × 16,777,216 = 33,554,432 B on Ascend. Megatron-LM on GPUs keeps the loader's one.
TEST(MindSpeedGemma, EverySlidingLayerKeepsItsOwnMask) {
  const nlohmann::json sliding = {{"sliding_window", 1024},
                                  {"layer_types", {"sliding_attention", "full_attention"}}};
  EXPECT_EQ(Act(EstimateMemory(Job("ascend-910b", sliding))).attention_mask, 33'554'432);
  EXPECT_EQ(Act(EstimateMemory(Job("ascend-910b", nlohmann::json::object()))).attention_mask,
            16'777'216);
  EXPECT_EQ(Act(EstimateMemory(Job("h100-80gb", sliding))).attention_mask, 16'777'216);
}

// MindSpeed-LLM's Gemma 2 flags, as the CI script gemma2_tp8_pp1_ptd.sh passes them.
TEST(MindSpeedGemma, ImporterReadsGemma2Flags) {
  const ImportResult r = testing::MustImport(
      {{"run.sh",
        "NPUS_PER_NODE=8\ntorchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py "
        "--tensor-model-parallel-size 8 --sequence-parallel --use-mcore-models --gelu-tanh "
        "--post-norm --output-logit-softcapping 30.0 --interleave-sliding-window 4096 "
        "--num-layers 4 --hidden-size 3584 --ffn-hidden-size 14336 --num-attention-heads 16 "
        "--kv-channels 256 --group-query-attention --num-query-groups 8 --seq-length 8192 "
        "--max-position-embeddings 8192 --micro-batch-size 1 --vocab-size 256000 "
        "--normalization RMSNorm --use-flash-attn --bf16\n"}});
  EXPECT_EQ(testing::At(r.config, "model.hidden_act"), "gelu_pytorch_tanh");
  EXPECT_EQ(testing::At(r.config, "model.norms_per_layer"), 4);
  EXPECT_EQ(testing::At(r.config, "model.final_logit_softcapping"), 30.0);
  EXPECT_EQ(testing::At(r.config, "model.sliding_window"), 4096);
  EXPECT_EQ(testing::At(r.config, "model.layer_types"),
            nlohmann::json(
                {"sliding_attention", "full_attention", "sliding_attention", "full_attention"}));
  const Result<Config> parsed = ConfigFromJson(r.config, testing::TestPresets());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed.value().model.final_logit_softcapping, 30.0);
  EXPECT_EQ(parsed.value().model.norms_per_layer, 4);
  EXPECT_TRUE(parsed.value().model.FullAttentionLayer(1));
  EXPECT_FALSE(parsed.value().model.FullAttentionLayer(0));
}

// Gemma 2's config.json names its cap; it survives the model's JSON round trip.
TEST(MindSpeedGemma, ConfigJsonSoftCapRoundTrips) {
  const Config c = Job("h100-80gb", {{"final_logit_softcapping", 30.0}});
  EXPECT_EQ(c.model.final_logit_softcapping, 30.0);
  const Result<Config> again = ConfigFromJson(ConfigToJson(c), testing::TestPresets());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value().model.final_logit_softcapping, 30.0);
}

}  // namespace
}  // namespace trainmem
