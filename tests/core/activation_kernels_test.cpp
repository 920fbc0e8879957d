// What a block saves for backward depending on the kernels its framework runs: gpt-oss's clamped
// SwiGLU run eagerly, MindSpeed-LLM's ALiBi bias for flash attention. Figures derived by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/estimate/estimate.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::With;

double BytesPerTokenPerLayer(const Config& c) {
  return EstimateMemory(c).stages.at(0).activations.bytes_per_token_per_layer;
}

// gpt-oss-20b (hidden 2880, experts 2880 wide, top-4), no checkpointing, torchtitan. Eager, each
// routed copy keeps 7 expert-wide bf16 tensors (the biased up-projection 2F, the clamped gate,
// its sigmoid, the gated product, up + 1, the down-projection input) and the fp32 output copy
// (4h); compiled, the partitioner keeps the two up-projections and the product (3F) and the
// bf16 output (2h). Per token per layer the two differ by 4 × (4 × 2 × 2880 + 2 × 2880) =
// 115,200 B; a SiLU(gate)·up expert (4F eager) would differ by 4 × (2 × 2880 + 2 × 2880) =
// 46,080 B.
TEST(ActivationKernels, GptOssClampedSwigluKeepsSevenTensorsEagerly) {
  const Config base = With(MustParse(R"({"model": "gpt-oss-20b", "device": "b200"})"),
                           {{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "none"}});
  const double eager = BytesPerTokenPerLayer(base);
  const double compiled = BytesPerTokenPerLayer(With(base, {{"compile", "true"}}));
  EXPECT_NEAR(eager - compiled, 115200.0, 0.5);
}

// MindSpeed-LLM (Megatron on Ascend) with ALiBi and flash attention passes
// npu_fusion_attention a scaled [mbs, heads/tp, s, s] bf16 bias per layer, and keeps the
// unscaled one on the module with the [heads/tp, s, s] square bias it was built from. 32 heads
// over TP 8 at s = 4096: 4 × 4096 × 2 = 32,768 B per token per layer, and (2 + 1) × 4 × 4096² ×
// 2 = 402,653,184 B of bias for the microbatch of 2.
TEST(ActivationKernels, MindSpeedAlibiBiasIsAPerLayerScoreTensor) {
  nlohmann::json model = {{"model_type", "llama"},
                          {"hidden_size", 4096},
                          {"num_hidden_layers", 4},
                          {"num_attention_heads", 32},
                          {"num_key_value_heads", 32},
                          {"intermediate_size", 11008},
                          {"vocab_size", 32000},
                          {"tie_word_embeddings", false},
                          {"max_position_embeddings", 4096}};
  auto job = [&](const std::string& positions) {
    nlohmann::json m = model;
    m["position_embedding_type"] = positions;
    nlohmann::json c = {{"model", m},
                        {"framework", "megatron"},
                        {"device", "ascend-910b"},
                        {"world_size", 8},
                        {"parallelism", {{"tensor_parallel_degree", 8}, {"zero_stage", 0}}},
                        {"training",
                         {{"local_batch_size", 2},
                          {"seq_len", 4096},
                          {"attention", "flash"},
                          {"dropout", 0.0},
                          {"create_attention_mask_in_dataloader", false}}},
                        {"activation_checkpoint", {{"mode", "none"}}}};
    return MustParse(c.dump());
  };
  const Config alibi = job("alibi"), rope = job("rope");
  EXPECT_NEAR(BytesPerTokenPerLayer(alibi) - BytesPerTokenPerLayer(rope), 32768.0, 0.5);
  EXPECT_EQ(EstimateMemory(alibi).stages.at(0).activations.attention_mask, 402653184);
  EXPECT_EQ(EstimateMemory(rope).stages.at(0).activations.attention_mask, 0);
  // On GPUs Megatron-LM has no ALiBi path: nothing is added.
  Config gpu_alibi = With(alibi, {{"device", "h100-80gb"}});
  Config gpu_rope = With(rope, {{"device", "h100-80gb"}});
  EXPECT_NEAR(BytesPerTokenPerLayer(gpu_alibi), BytesPerTokenPerLayer(gpu_rope), 0.5);
}

// torchtitan's NVFP4 blocks under per-op SAC keep none of their linear outputs (TorchAO's
// nvfp4_mm_triton runs scaled_mm, outside SelectiveAC's save set). Llama 3.1 8B, compiled, flash:
// a bf16 block keeps wq's and wv's outputs (4096 + 1024 wide) and w1's (14336), 2 B each, so an
// NVFP4 block keeps 2 × (4096 + 1024 + 14336) = 38,912 B less per token; averaged over 32 blocks
// with the first 27 NVFP4, 27/32 of that. The block input, attention output and LSE stay.
TEST(ActivationKernels, Nvfp4BlocksKeepNoLinearOutputsUnderPerOpSac) {
  const Config bf16 =
      With(MustParse(R"({"model": "llama3.1-8b", "device": "b200"})"), {{"ws", "4"},
                                                                        {"b", "2"},
                                                                        {"s", "2048"},
                                                                        {"ac", "selective"},
                                                                        {"acopt", "op"},
                                                                        {"compile", "true"}});
  const double per_layer = BytesPerTokenPerLayer(bf16);
  EXPECT_NEAR(per_layer - BytesPerTokenPerLayer(With(bf16, {{"fp4", "27"}})), 38912.0 * 27 / 32,
              0.5);
  EXPECT_NEAR(per_layer - BytesPerTokenPerLayer(With(bf16, {{"fp4", "-1"}})), 38912.0, 0.5);
  // Full AC keeps the block inputs either way.
  const Config full = With(bf16, {{"ac", "full"}});
  EXPECT_EQ(BytesPerTokenPerLayer(full), BytesPerTokenPerLayer(With(full, {{"fp4", "-1"}})));
}

// MindSpeed-LLM's pure-PyTorch Mamba-2 (state_space_duality.py) on Ascend. Mamba-2 8B (hidden
// 4096, d_inner 8192 = 128 heads of 64, 8 groups, state 128, chunk 128) over TP 8 with sequence
// parallelism: d = 1024, H = 16, G·N = 128 per rank. Per token per layer the mixer keeps
// 28d + 8GN + 8HN + 10HQ + 18H + 4HPN/Q + 4 = 28,672 + 1,024 + 16,384 + 20,480 + 288 + 4,096 + 4
// = 70,948 B, and the block its norm's input and rstd and in_proj's input, (4h + 4)/8 = 2,048.5.
TEST(ActivationKernels, MindSpeedMamba2KeepsThePurePytorchScan) {
  const nlohmann::json model = {{"model_type", "mamba2"},  {"hidden_size", 4096},
                                {"num_hidden_layers", 56}, {"num_heads", 128},
                                {"head_dim", 64},          {"state_size", 128},
                                {"n_groups", 8},           {"expand", 2},
                                {"chunk_size", 128},       {"vocab_size", 32000}};
  nlohmann::json c = {{"model", model},
                      {"framework", "megatron"},
                      {"device", "ascend-910b"},
                      {"world_size", 8},
                      {"parallelism", {{"tensor_parallel_degree", 8}, {"sequence_parallel", true}}},
                      {"training", {{"local_batch_size", 1}, {"seq_len", 4096}, {"dropout", 0.0}}},
                      {"activation_checkpoint", {{"mode", "none"}}}};
  EXPECT_NEAR(BytesPerTokenPerLayer(MustParse(c.dump())), 70948.0 + 2048.5, 0.5);
}

// Values narrower than keys (config.json v_head_dim below head_dim on a GQA model, as
// MiMo-V2-Flash declares): v_proj's output and the attention output o_proj reads are
// v_head_dim wide. 32 query and 8 KV heads of 128, values of 64, torchtitan with FSDP over 8, no
// checkpointing: per token per layer the block keeps 2 × (8 + 32) × (128 − 64) = 5,120 B less
// than with 128-wide values. q and k, the norm and the MLP are unchanged.
TEST(ActivationKernels, NarrowValueHeadsShrinkVAndTheAttentionOutput) {
  nlohmann::json model = {
      {"model_type", "llama"},      {"hidden_size", 4096},      {"num_hidden_layers", 4},
      {"num_attention_heads", 32},  {"num_key_value_heads", 8}, {"head_dim", 128},
      {"intermediate_size", 14336}, {"vocab_size", 32000},      {"tie_word_embeddings", false}};
  auto job = [&](int value_width) {
    nlohmann::json m = model;
    if (value_width > 0) m["v_head_dim"] = value_width;
    nlohmann::json c = {{"model", m},
                        {"framework", "torchtitan"},
                        {"device", "h100-80gb"},
                        {"world_size", 8},
                        {"training", {{"local_batch_size", 1}, {"seq_len", 4096}}},
                        {"activation_checkpoint", {{"mode", "none"}}}};
    return MustParse(c.dump());
  };
  const Config narrow = job(64);
  ASSERT_EQ(narrow.model.value_head_dim, 64);
  EXPECT_NEAR(BytesPerTokenPerLayer(job(0)) - BytesPerTokenPerLayer(narrow), 5120.0, 0.5);
  EXPECT_NEAR(BytesPerTokenPerLayer(job(128)), BytesPerTokenPerLayer(job(0)), 0.5);
}

}  // namespace
}  // namespace trainmem
