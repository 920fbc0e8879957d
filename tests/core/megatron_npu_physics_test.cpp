// Megatron-family activation terms that depend on the kernels and the data loader: the attention
// mask Megatron builds per microbatch, torch_npu's flash-attention statistics and fused RoPE
// (MindSpeed-LLM on Ascend), and MindSpeed's ring context parallelism. Every expected figure
// is derived by hand in the comment above it (estimate_activations.cpp cites the sources).
#include <gtest/gtest.h>

#include "core/estimate/estimate.h"
#include "import_test_support.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::With;

// A small dense model where attention dominates the per-block transients:
// h = 1024, 8 heads of 128 (MHA: q 1024, k + v 2048), SwiGLU I = 512, 2 layers.
constexpr const char* kSmallModel = R"({"hidden_size": 1024, "num_hidden_layers": 2,
    "num_attention_heads": 8, "num_key_value_heads": 8, "intermediate_size": 512,
    "vocab_size": 1024, "model_type": "llama"})";

Config Megatron(const std::string& device, const std::string& model,
                const std::vector<std::pair<std::string, std::string>>& settings) {
  const std::string text = R"({"framework": "megatron", "device": ")" + device + R"(", "model": )" +
                           model +
                           R"(, "training": {"dropout": 0.0},
      "activation_checkpoint": {"mode": "none"}})";
  return With(MustParse(text), settings);
}

const ActivationBreakdown& Act(const Estimate& e) { return e.stages.front().activations; }

// Megatron's data loader mask: [mbs, 1, s, s] bool per microbatch, query rows split by CP.
// b = 2, s = 4096: 2 × 4096 × 4096 = 33,554,432 B; with CP 2: 2 × 2048 × 4096 = 16,777,216 B.
TEST(MegatronAttentionMask, DataLoaderMaskIsMbsBySeqSquaredOverCp) {
  const Config base = Megatron("h100-80gb", "\"llama3-8b\"", {{"b", "2"}, {"s", "4096"}});
  EXPECT_EQ(Act(EstimateMemory(base)).attention_mask, 33'554'432);
  const Config cp2 = With(base, {{"ws", "2"}, {"parallelism.context_parallel_degree", "2"}});
  EXPECT_EQ(Act(EstimateMemory(cp2)).attention_mask, 16'777'216);
  // --no-create-attention-mask-in-dataloader: no mask with flash attention.
  const Config off = With(base, {{"training.create_attention_mask_in_dataloader", "false"}});
  EXPECT_EQ(Act(EstimateMemory(off)).attention_mask, 0);
  // The mask is part of the activation peak: the totals differ by exactly the mask.
  EXPECT_EQ(
      EstimateMemory(base).per_device.activations - EstimateMemory(off).per_device.activations,
      33'554'432);
  // torchtitan has no such mask.
  const Config tt = With(base, {{"framework", "torchtitan"}});
  EXPECT_EQ(Act(EstimateMemory(tt)).attention_mask, 0);
}

// Pipeline parallel 4, microbatch 1, s = 4096: the mask is 1 × 4096 × 4096 = 16,777,216 B on
// the stages that get a batch. Megatron-LM gives middle stages none (pretrain_gpt.py get_batch);
// MindSpeed-LLM broadcasts the mask to every stage.
TEST(MegatronAttentionMask, MiddlePipelineStagesGetNoBatchOnMegatronLm) {
  const std::vector<std::pair<std::string, std::string>> s = {
      {"ws", "4"}, {"pp", "4"}, {"b", "4"}, {"s", "4096"}};
  const Estimate gpu = EstimateMemory(Megatron("h100-80gb", "\"llama3-8b\"", s));
  const Estimate npu = EstimateMemory(Megatron("ascend-910b", "\"llama3-8b\"", s));
  ASSERT_EQ(gpu.stages.size(), 4u);
  ASSERT_EQ(npu.stages.size(), 4u);
  const std::int64_t expected_gpu[] = {16'777'216, 0, 0, 16'777'216};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(gpu.stages[i].activations.attention_mask, expected_gpu[i]) << i;
    EXPECT_EQ(npu.stages[i].activations.attention_mask, 16'777'216) << i;
  }
}

// MindSpeed without flash attention and without a loader mask builds its own global
// [mbs, 1, s, s] bool mask (generate_attention_mask): 2 × 4096² = 33,554,432 B on Ascend.
TEST(MegatronAttentionMask, MindSpeedUnfusedAttentionBuildsAGlobalMask) {
  const Config c = Megatron("ascend-910b", "\"llama3-8b\"",
                            {{"b", "2"},
                             {"s", "4096"},
                             {"training.attention", "eager"},
                             {"training.create_attention_mask_in_dataloader", "false"}});
  EXPECT_EQ(Act(EstimateMemory(c)).attention_mask, 33'554'432);
  // On a GPU, Megatron's unfused causal softmax needs no mask tensor.
  const Config gpu = With(c, {{"device", "h100-80gb"}});
  EXPECT_EQ(Act(EstimateMemory(gpu)).attention_mask, 0);
}

// The mask key is written only when off, so share links and configs that never mention it are
// unchanged, and it round-trips.
TEST(MegatronAttentionMask, KeyRoundTripsAndIsWrittenOnlyWhenOff) {
  const Config base = Megatron("h100-80gb", "\"llama3-8b\"", {});
  EXPECT_FALSE(ConfigToJson(base)["training"].contains("create_attention_mask_in_dataloader"));
  const Config off = With(base, {{"training.create_attention_mask_in_dataloader", "false"}});
  const nlohmann::json j = ConfigToJson(off);
  EXPECT_EQ(j["training"]["create_attention_mask_in_dataloader"], false);
  EXPECT_FALSE(MustParse(j.dump()).training.create_attention_mask_in_dataloader);
}

// Llama 3 8B, b = 1, s = 2048, TP 1, no mask, flash: on Ascend each block also saves
// (a) npu_fusion_attention's softmax_max and softmax_sum, [b, 32, s, 8] fp32 each: 64 B per
//     head per token instead of CUDA's 4 B logsumexp → 60 × 32 = 1,920 B per token;
// (b) the QKV output held by npu_rotary_mul's saved inputs: q 4096 + k 1024 + v 1024 = 6,144
//     elements × 2 B = 12,288 B per token.
// Saved layers differ by (1,920 + 12,288) × 2,048 tokens × 32 layers = 931,135,488 B.
TEST(MegatronNpuAttention, FusionAttentionStatsAndFusedRopeInputs) {
  const std::vector<std::pair<std::string, std::string>> s = {
      {"b", "1"}, {"s", "2048"}, {"training.create_attention_mask_in_dataloader", "false"}};
  const Estimate gpu = EstimateMemory(Megatron("h100-80gb", "\"llama3-8b\"", s));
  const Estimate npu = EstimateMemory(Megatron("ascend-910b", "\"llama3-8b\"", s));
  EXPECT_NEAR(static_cast<double>(Act(npu).saved_layers - Act(gpu).saved_layers), 931'135'488.0,
              2.0);
  // Per block per token: the same 14,208 B.
  EXPECT_NEAR(Act(npu).bytes_per_token_per_layer - Act(gpu).bytes_per_token_per_layer, 14'208.0,
              1e-6);
}

// Context parallel 2 on the small model (b = 1, s = 4096 → 2,048 local tokens, TP 1, bf16),
// no checkpointing: the block's transient is attention's working set, which includes CP's.
// Attention working without CP: 2 B × (q + k + v 3,072 + 2 h 2,048) = 10,240 B per token
// (the MLP's, 2 × (3 × 512 + 2,048) = 7,168, is smaller).
// - Megatron-LM ring (TE p2p): forward 2 KV blocks + 2 steps of (out + fp32 LSE):
//   2 × 2 × 2,048 + 2 × (2 × 1,024 + 4 × 8) = 12,352; backward 2 × (KV + dKV) + dQ:
//   4 × 2 × 2,048 + 2 × 1,024 = 18,432 → 18,432. Total 28,672 B × 2,048 = 58,720,256 B.
// - MindSpeed ring on Ascend: forward 3 KV blocks + one step's out + 64 B stats per head:
//   2 × (3 × 2,048 + 1,024) + 64 × 8 = 14,848; backward 6 KV + 2 Q: 2 × (12,288 + 2,048) =
//   28,672 → 28,672. Total 38,912 B × 2,048 = 79,691,776 B.
TEST(MegatronNpuAttention, MindSpeedRingKeepsThreeKvBuffers) {
  const std::vector<std::pair<std::string, std::string>> s = {
      {"ws", "2"},
      {"b", "1"},
      {"s", "4096"},
      {"parallelism.context_parallel_degree", "2"},
      {"training.create_attention_mask_in_dataloader", "false"}};
  const Estimate gpu = EstimateMemory(Megatron("h100-80gb", kSmallModel, s));
  const Estimate npu = EstimateMemory(Megatron("ascend-910b", kSmallModel, s));
  ASSERT_FALSE(gpu.stages.empty());
  ASSERT_FALSE(npu.stages.empty());
  EXPECT_EQ(Act(gpu).recompute_layer, 58'720'256);
  EXPECT_EQ(Act(npu).recompute_layer, 79'691'776);
}

// MindSpeed Ulysses and hybrid CP (parallelism.ulysses_degree_in_cp) on a GQA model: h = 1024,
// 8 query heads and 2 KV heads of 128 (q 1024, k + v 512), SwiGLU I = 512, 2 layers, Ascend,
// TP 1, b = 1, s = 4096, no mask, no checkpointing. Per local token (bf16):
// - attention's own working set 2 × (q + k + v 1,536 + 2 h 2,048) = 7,168 B; the MLP's,
//   2 × (3 × 512 + 2,048) = 7,168 B;
// - Ulysses: K and V repeated to the query heads before the all-to-all (k + v → 2,048), so it
//   saves 2 × (2,048 − 512) more for K and V plus the attention output twice (2 × 1,024):
//   5,120 B more per token per layer than the ring; its all-to-all buffers 2 × (1,024 +
//   2,048) = 6,144 B;
// - ring (MindSpeed, 2 ranks) on the repeated KV (2,048): forward 2 × (3 × 2,048 + 1,024) +
//   64 × 8 = 14,848, backward 2 × (6 × 2,048 + 2 × 1,024) = 28,672;
//   on the plain KV (512): forward 2 × (3 × 512 + 1,024) + 512 = 5,632, backward
//   2 × (6 × 512 + 2 × 1,024) = 10,240.
// cp 2, Ulysses 2 (2,048 local tokens): (7,168 + 6,144) × 2,048 = 27,262,976 B.
// cp 2, ring only: (7,168 + 10,240) × 2,048 = 35,651,584 B.
// cp 4, Ulysses 2 × ring 2 (1,024 local tokens): (7,168 + 28,672) × 1,024 = 36,700,160 B.
TEST(MegatronNpuAttention, MindSpeedUlyssesAndHybridContextParallel) {
  const std::string gqa = R"({"hidden_size": 1024, "num_hidden_layers": 2,
      "num_attention_heads": 8, "num_key_value_heads": 2, "intermediate_size": 512,
      "vocab_size": 1024, "model_type": "llama"})";
  auto run = [&](const char* cp, const char* ulysses) {
    return EstimateMemory(Megatron("ascend-910b", gqa,
                                   {{"ws", cp},
                                    {"b", "1"},
                                    {"s", "4096"},
                                    {"parallelism.context_parallel_degree", cp},
                                    {"parallelism.ulysses_degree_in_cp", ulysses},
                                    {"training.create_attention_mask_in_dataloader", "false"}}));
  };
  const Estimate ulysses = run("2", "2"), ring = run("2", "1"), hybrid = run("4", "2");
  ASSERT_FALSE(ulysses.stages.empty());
  ASSERT_FALSE(ring.stages.empty());
  ASSERT_FALSE(hybrid.stages.empty());
  EXPECT_EQ(Act(ulysses).recompute_layer, 27'262'976);
  EXPECT_EQ(Act(ring).recompute_layer, 35'651'584);
  EXPECT_EQ(Act(hybrid).recompute_layer, 36'700'160);
  EXPECT_NEAR(Act(ulysses).bytes_per_token_per_layer - Act(ring).bytes_per_token_per_layer, 5'120.0,
              1e-6);
  // 0 is the framework's own algorithm: MindSpeed's ring.
  EXPECT_EQ(Act(run("2", "0")).recompute_layer, 35'651'584);
}

// The Ulysses degree must divide the CP degree, and the heads of each TP rank must split evenly.
TEST(MegatronNpuAttention, UlyssesDegreeIsValidated) {
  const Result<Config> bad = ApplySettings(Megatron("ascend-910b", kSmallModel, {}),
                                           {{"ws", "4"},
                                            {"parallelism.context_parallel_degree", "4"},
                                            {"parallelism.ulysses_degree_in_cp", "3"}},
                                           testing::TestPresets());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors().front().path, "parallelism.ulysses_degree_in_cp");
  EXPECT_NE(bad.errors().front().message.find("does not divide"), std::string::npos);
}

// Launch scripts say which attention runs and whether the loader builds the mask.
TEST(MegatronNpuAttention, ImporterReadsAttentionKernelAndMaskFlags) {
  const std::string model =
      " --num-layers 2 --hidden-size 256 --num-attention-heads 4 --seq-length 128"
      " --micro-batch-size 1 --vocab-size 1024";
  auto attention = [&](const std::string& head, const std::string& flags) {
    const ImportResult r =
        testing::MustImport({{"run.sh", head + "pretrain_gpt.py" + model + flags + "\n"}});
    return testing::At(r.config, "training.attention");
  };
  const std::string gpu = "torchrun --nproc_per_node 8 ";
  const std::string npu = "NPUS_PER_NODE=8\ntorchrun --nproc_per_node $NPUS_PER_NODE ";
  EXPECT_EQ(attention(gpu, " --use-flash-attn"), "flash");
  EXPECT_EQ(attention(gpu, " --attention-backend unfused"), "eager");
  EXPECT_EQ(attention(gpu, " --transformer-impl local"), "eager");
  EXPECT_EQ(attention(gpu, " --use-legacy-models"), "eager");
  // Megatron-Core with TE picks a fused kernel: left at the schema default (flash).
  EXPECT_TRUE(attention(gpu, "").is_null());
  // MindSpeed-LLM: legacy model unless --use-mcore-models; unfused without --use-flash-attn.
  EXPECT_EQ(attention(npu, ""), "eager");
  EXPECT_EQ(attention(npu, " --use-mcore-models --use-flash-attn"), "flash");
  const ImportResult r =
      testing::MustImport({{"run.sh", gpu + "pretrain_gpt.py" + model +
                                          " --no-create-attention-mask-in-dataloader\n"}});
  EXPECT_EQ(testing::At(r.config, "training.create_attention_mask_in_dataloader"), false);
  // MindSpeed's CP algorithm → the Ulysses degree inside CP.
  auto ulysses = [&](const std::string& flags) {
    const ImportResult u = testing::MustImport(
        {{"run.sh", npu + "pretrain_gpt.py" + model + " --use-mcore-models --use-flash-attn" +
                        " --context-parallel-size 4" + flags + "\n"}});
    return testing::At(u.config, "parallelism.ulysses_degree_in_cp");
  };
  EXPECT_EQ(ulysses(" --context-parallel-algo megatron_cp_algo"), 1);
  EXPECT_EQ(ulysses(" --context-parallel-algo ulysses_cp_algo"), 4);
  EXPECT_EQ(ulysses(" --context-parallel-algo hybrid_cp_algo --ulysses-degree-in-cp 2"), 2);
  EXPECT_TRUE(ulysses("").is_null());
}

// Megatron's all-to-all dispatcher all-gathers the routed tokens over the expert-TP group before
// the experts and reduce-scatters after (token_dispatcher.py, group=expt_tp). Mixtral 8x7B
// (h = 4096, top-2, SwiGLU I = 14336, every layer MoE), TP 2 with sequence parallel, so each rank
// routes top_k / 2 copies per token. Per copy, Megatron saves the permuted input (2 B × h ×
// etp), fc1's [gate, up] and fc2's input (3 × 2 B × etp × I / etp) and the output it weights
// (2 B × h):
//   etp 1: (2h + 6I + 2h) per copy;  etp 2: (4h + 6I + 2h) per copy.
// The intermediates are the same per rank (etp × the copies, I / etp each); the gathered input
// adds 2 B × h per copy: (top_k / 2) × 2 × 4096 = 8,192 B per token per layer.
TEST(MegatronMoe, ExpertTensorParallelGathersTheRoutedTokens) {
  auto per_token = [](const char* etp) {
    const Config c = With(MustParse(R"({"framework": "megatron",
        "model": "mixtral-8x7b", "device": "h100-80gb", "training": {"dropout": 0.0},
        "activation_checkpoint": {"mode": "none"}})"),
                          {{"ws", "4"},
                           {"tp", "2"},
                           {"parallelism.expert_tensor_parallel_degree", etp},
                           {"b", "1"},
                           {"s", "1024"}});
    const Estimate e = EstimateMemory(c);
    EXPECT_FALSE(e.stages.empty());
    return e.stages.empty() ? 0.0 : e.stages.front().activations.bytes_per_token_per_layer;
  };
  EXPECT_NEAR(per_token("2") - per_token("1"), 8'192.0, 1e-6);
}

// MindSpeed --reuse-fp32-param with the distributed optimizer (bf16): the fp32 master shard is
// an int32 view into the bf16 parameter buffer plus a bf16 remainder of numel / DP
// (mindspeed/core/memory/reuse_param/adaptor.py reuse_buffer_dis), so the master costs 2 bytes
// a parameter instead of 4 over the DP·CP shard. Small model, world 4 = DP 4, zero 1:
// parameters N = CountParams; the optimizer states drop by exactly 2·N / 4, nothing else moves.
TEST(MegatronReuseFp32Param, MasterShardCostsTwoBytesAParameter) {
  const Config base = Megatron(
      "ascend-910b", kSmallModel,
      {{"ws", "4"}, {"dp", "4"}, {"zero", "1"}, {"training.mixed_precision_param", "bfloat16"}});
  const Config reuse = With(base, {{"optimizer.reuse_fp32_param", "true"}});
  const Estimate a = EstimateMemory(base);
  const Estimate b = EstimateMemory(reuse);
  const std::int64_t n = CountParams(base.model, false).total;
  EXPECT_EQ(a.per_device.optimizer_states - b.per_device.optimizer_states, 2 * n / 4);
  EXPECT_EQ(a.per_device.parameters, b.per_device.parameters);
  EXPECT_EQ(a.per_device.gradients, b.per_device.gradients);
  // Without the distributed optimizer (a different MindSpeed code path) or with fp16 (the
  // remainder buffers are bf16), nothing changes.
  const Config no_dist = With(reuse, {{"zero", "0"}});
  EXPECT_EQ(EstimateMemory(no_dist).per_device.optimizer_states,
            EstimateMemory(With(base, {{"zero", "0"}})).per_device.optimizer_states);
  const Config fp16 = With(reuse, {{"training.mixed_precision_param", "float16"}});
  EXPECT_EQ(EstimateMemory(fp16).per_device.optimizer_states,
            EstimateMemory(With(base, {{"training.mixed_precision_param", "float16"}}))
                .per_device.optimizer_states);
  // Where it changes nothing the estimate says so; where it applies it does not.
  const auto says = [](const Estimate& e) {
    for (const std::string& w : e.warnings)
      if (w.find("reuse_fp32_param has no effect") != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(says(EstimateMemory(no_dist)));
  EXPECT_TRUE(says(EstimateMemory(fp16)));
  EXPECT_FALSE(says(b));
}

// The importer reads --reuse-fp32-param into optimizer.reuse_fp32_param.
TEST(MegatronReuseFp32Param, ImporterReadsTheFlag) {
  const std::string script = R"(torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 2 --hidden-size 256 --num-attention-heads 4 --seq-length 128 \
    --micro-batch-size 1 --vocab-size 1024 --bf16 --use-distributed-optimizer --reuse-fp32-param
)";
  const ImportResult r = testing::MustImport({{"reuse.sh", script}});
  EXPECT_EQ(testing::At(r.config, "optimizer.reuse_fp32_param"), true);
}

// MindSpeed --swap-attention: each layer's attention side (input norm, attention, post-attention
// norm) moves to the host and the MLP side stays; two layers' attention side are on the device
// at a time (the copy in flight, the layer prefetched ahead). Llama 3 8B on a 910B, one
// sequence of 4096, no recompute, 32 layers: with a = the per-layer bytes that move
// (per_layer without the swap minus per_layer with it), the host holds 30·a and the device the
// 32 MLP sides plus 2·a.
TEST(MindSpeedSwapAttention, AttentionSideGoesToTheHostButTwoLayers) {
  const Config off = Megatron("ascend-910b", "\"llama3-8b\"", {{"b", "1"}, {"s", "4096"}});
  Config on = off;
  on.activation_checkpoint.swap_attention = true;
  const ActivationBreakdown without = Act(EstimateMemory(off));
  const ActivationBreakdown with = Act(EstimateMemory(on));
  const double a = static_cast<double>(without.per_layer - with.per_layer);
  ASSERT_GT(a, 0);
  EXPECT_NEAR(static_cast<double>(with.offloaded_to_host), 30 * a, 32);
  EXPECT_NEAR(static_cast<double>(with.saved_layers), 32.0 * with.per_layer + 2 * a, 32);
  // Nothing is lost or made: what left the device is on the host.
  EXPECT_NEAR(static_cast<double>(with.saved_layers + with.offloaded_to_host),
              static_cast<double>(without.saved_layers), 2);
  // Full recompute keeps only each block's input: nothing to swap.
  Config full = on;
  full.activation_checkpoint.mode = AcMode::kFull;
  EXPECT_EQ(Act(EstimateMemory(full)).offloaded_to_host, 0);
  // Another framework has no such option: no effect, and a warning says so.
  Config titan = on;
  titan.framework = Framework::kTorchtitan;
  const Estimate e = EstimateMemory(titan);
  EXPECT_EQ(Act(e).offloaded_to_host, 0);
  bool warned = false;
  for (const std::string& w : e.warnings)
    warned |= w.find("swap_attention has no effect") != std::string::npos;
  EXPECT_TRUE(warned);
}

// The importer sets it for every layer, and leaves it out (an over-estimate, said so) where
// --recompute-method block swaps only the first --recompute-num-layers of a rank.
TEST(MindSpeedSwapAttention, ImporterReadsTheFlag) {
  const std::string script =
      "torchrun pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
      "--pipeline-model-parallel-size 4 --swap-attention --recompute-activation-function ";
  const ImportResult all = testing::MustImport({{"run.sh", script + "\n"}});
  EXPECT_EQ(testing::At(all.config, "activation_checkpoint.swap_attention"), true);
  const ImportResult some = testing::MustImport(
      {{"run.sh", script + "--recompute-method block --recompute-num-layers 2\n"}});
  EXPECT_EQ(testing::At(some.config, "activation_checkpoint.swap_attention"), nullptr);
  bool named = false;
  for (const ImportIgnored& i : some.report.ignored)
    named |= i.key == "--swap-attention" && i.reason.find("over-estimate") != std::string::npos;
  EXPECT_TRUE(named);
}

// DeepSeek-V3.2's lightning indexer in training, MindSpeed-LLM's unfused path (dsa_indexer.py).
// A small MLA model: h = 1024, 16 heads (qk 64 + 32, v 64), q_lora 256, kv_lora 128, SwiGLU
// I = 2048, 2 layers, indexer 8 heads of 64; TP 1, mbs 1, s = 2048 (tokens = keys = 2048), full
// recompute. Per query token of one layer:
//   kept (ReLU output saved, fp32):          4 × 8 × 2048           =  65,536 B
//   main scores (bf16 + fp32 cast + fp32):  (2 + 4 + 4) × 16 × 2048 = 327,680 B
//   indexer backward (two fp32 gradients):  2 × 4 × 8 × 2048        = 131,072 B
//   DSA working = max(327,680, 131,072)                             = 327,680 B
// A block's gradient temporaries are the larger of its attention's and its MLP's: attention
// 2 × (q 1536 + k 1536 + v 1024 + 2 × 1024) = 12,288 B, MLP 2 × (3 × 2048 + 2 × 1024) =
// 16,384 B. With the indexer the attention's is 12,288 + 327,680 = 339,968 B, so the block's
// rises by 323,584 B. The recomputed layer grows by (65,536 + 323,584) × 2048 tokens =
// 796,917,760 B. The persistent baddbmm buffer is mbs × heads × s² × 2 = 16 × 2048² × 2 =
// 134,217,728 B, once per device.
constexpr const char* kSmallDsaModel = R"({"model_type": "deepseek_v32", "hidden_size": 1024,
    "num_hidden_layers": 2, "num_attention_heads": 16, "num_key_value_heads": 16,
    "q_lora_rank": 256, "kv_lora_rank": 128, "qk_nope_head_dim": 64, "qk_rope_head_dim": 32,
    "v_head_dim": 64, "intermediate_size": 2048, "vocab_size": 4096,
    "index_n_heads": 8, "index_head_dim": 64, "index_topk": 256})";

TEST(DsaIndexer, MindSpeedMaterialisesScoresAndKeepsABuffer) {
  const std::vector<std::pair<std::string, std::string>> s = {
      {"b", "1"}, {"s", "2048"}, {"activation_checkpoint.mode", "full"}};
  const Config with = Megatron("ascend-910b", kSmallDsaModel, s);
  Config without = with;
  without.model.index_n_heads = 0;
  const Estimate a = EstimateMemory(with), b = EstimateMemory(without);
  EXPECT_EQ(Act(a).recompute_layer - Act(b).recompute_layer, 796'917'760);
  EXPECT_EQ(Act(a).dsa_scores_buffer, 134'217'728);
  EXPECT_EQ(Act(b).dsa_scores_buffer, 0);
  // Both are in the activation peak (the backward of the first recomputed block).
  EXPECT_EQ(a.per_device.activations - b.per_device.activations, 796'917'760 + 134'217'728);
  // Fused kernels (npu_lightning_indexer + sparse flash attention) hold none of it.
  const Config fused = With(with, {{"training.dsa_fused_kernels", "true"}});
  EXPECT_EQ(Act(EstimateMemory(fused)).recompute_layer, Act(b).recompute_layer);
  EXPECT_EQ(Act(EstimateMemory(fused)).dsa_scores_buffer, 0);
  // On GPUs (Megatron-LM's DSAttention) the scores are formed too, without MindSpeed's buffer.
  const Estimate gpu = EstimateMemory(Megatron("h100-80gb", kSmallDsaModel, s));
  EXPECT_EQ(Act(gpu).dsa_scores_buffer, 0);
  Config gpu_without = Megatron("h100-80gb", kSmallDsaModel, s);
  gpu_without.model.index_n_heads = 0;
  EXPECT_EQ(Act(gpu).recompute_layer - Act(EstimateMemory(gpu_without)).recompute_layer,
            796'917'760);
  // Other frameworks' indexers are not modelled: no term at all.
  const Config tt = With(with, {{"framework", "torchtitan"}});
  const Config tt_without = With(without, {{"framework", "torchtitan"}});
  EXPECT_EQ(Act(EstimateMemory(tt)).recompute_layer,
            Act(EstimateMemory(tt_without)).recompute_layer);
}

// TP 2 (no sequence parallelism): the main heads split (8 per rank), the indexer does not
// (LinearNoTP). Main scores (2 + 4 + 4) × 8 × 2048 = 163,840 B, indexer backward 131,072 B, kept
// 65,536 B. Attention's own temporaries 2 × (4096 / 2 + 2 × 1024) = 8,192 B, the MLP's
// 2 × (3 × 1024 + 2 × 1024) = 10,240 B; with the indexer 8,192 + 163,840 = 172,032 B, so the
// block's rise by 161,792 B: (65,536 + 161,792) × 2048 = 465,567,744 B. The buffer halves to
// 67,108,864 B.
TEST(DsaIndexer, TensorParallelSplitsTheMainHeadsOnly) {
  const Config with = Megatron("ascend-910b", kSmallDsaModel,
                               {{"ws", "2"},
                                {"tp", "2"},
                                {"b", "1"},
                                {"s", "2048"},
                                {"activation_checkpoint.mode", "full"}});
  Config without = with;
  without.model.index_n_heads = 0;
  EXPECT_EQ(
      Act(EstimateMemory(with)).recompute_layer - Act(EstimateMemory(without)).recompute_layer,
      465'567'744);
  EXPECT_EQ(Act(EstimateMemory(with)).dsa_scores_buffer, 67'108'864);
}

// --defer-embedding-wgrad-compute, Llama 3 8B (vocab 128256, h 4096), TP 2 with sequence
// parallelism, PP 2, 8 microbatches of 1 × 4096 tokens. Each deferred microbatch keeps the
// logits gradient [4096, 1, 128256 / 2] and the output layer's sequence-sharded input
// [4096 / 2, 1, 4096], bf16: 4096 × 2 × (64128 + 2048) = 542,113,792 B. At the last
// microbatch's loss backward the 7 earlier ones are held: 3,794,796,544 B; with
// --wgrad-deferral-limit 3, three: 1,626,341,376 B. The first stage has no output layer.
TEST(MegatronDeferredWgrad, LastStageHoldsTheDeferredMicrobatches) {
  const std::vector<std::pair<std::string, std::string>> s = {
      {"ws", "4"}, {"tp", "2"}, {"pp", "2"}, {"b", "8"}, {"s", "4096"}};
  const Config off = Megatron("h100-80gb", "\"llama3-8b\"", s);
  const Config all = With(off, {{"training.defer_embedding_wgrad_compute", "true"}});
  const Config three = With(all, {{"training.wgrad_deferral_limit", "3"}});
  const Estimate e_off = EstimateMemory(off), e_all = EstimateMemory(all),
                 e_three = EstimateMemory(three);
  EXPECT_EQ(e_all.stages.back().activations.deferred_wgrad_buffers, 3'794'796'544);
  EXPECT_EQ(e_three.stages.back().activations.deferred_wgrad_buffers, 1'626'341'376);
  EXPECT_EQ(e_off.stages.back().activations.deferred_wgrad_buffers, 0);
  EXPECT_EQ(e_all.stages.front().activations.deferred_wgrad_buffers, 0);
  // The buffers join the last stage's activation peak.
  EXPECT_EQ(e_three.stages.back().bytes.activations - e_off.stages.back().bytes.activations,
            1'626'341'376);
  // A limit above the microbatches defers them all.
  const Config many = With(all, {{"training.wgrad_deferral_limit", "100"}});
  EXPECT_EQ(EstimateMemory(many).stages.back().activations.deferred_wgrad_buffers, 3'794'796'544);
  // Megatron refuses the flag without pipeline parallelism; other frameworks ignore it, saying so.
  const Result<Config> no_pp = ApplySettings(all, {{"pp", "1"}}, testing::TestPresets());
  ASSERT_FALSE(no_pp.ok());
  EXPECT_EQ(no_pp.errors().front().path, "training.defer_embedding_wgrad_compute");
  const Estimate tt = EstimateMemory(With(all, {{"framework", "torchtitan"}}));
  EXPECT_EQ(tt.stages.back().activations.deferred_wgrad_buffers, 0);
  bool warned = false;
  for (const std::string& w : tt.warnings)
    warned = warned || w.find("defer_embedding_wgrad_compute has no effect") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(MegatronDeferredWgrad, ImporterReadsTheFlagAndItsLimit) {
  const std::string base =
      "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 4 --hidden-size 512 "
      "--num-attention-heads 8 --seq-length 1024 --max-position-embeddings 1024 "
      "--micro-batch-size 4 --global-batch-size 32 --pipeline-model-parallel-size 2 "
      "--tensor-model-parallel-size 2 --bf16";
  const ImportResult off = testing::MustImport({{"run.sh", base + "\n"}});
  EXPECT_TRUE(testing::At(off.config, "training.defer_embedding_wgrad_compute").is_null());
  const ImportResult on = testing::MustImport(
      {{"run.sh", base + " --defer-embedding-wgrad-compute --wgrad-deferral-limit 2\n"}});
  EXPECT_EQ(testing::At(on.config, "training.defer_embedding_wgrad_compute"), true);
  EXPECT_EQ(testing::At(on.config, "training.wgrad_deferral_limit"), 2);
}

// Megatron CI gpt3_mcore_te_tp1_pp4_vp2_account_for_embedding_loss_in_pipeline_split: 6 layers,
// the embedding and the loss each take a slot, 8 slots over PP 4 × 2 virtual stages of 1.
// Rank 0's first virtual stage is the embedding alone, rank 3's last the loss alone, so the
// ranks build 1, 2, 2, 1 layers.
TEST(MegatronPipelineSplit, EmbeddingAndLossTakeALayerSlot) {
  const std::string head =
      "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 6 --hidden-size 512 "
      "--num-attention-heads 8 --seq-length 1024 --max-position-embeddings 1024 "
      "--micro-batch-size 4 --global-batch-size 32 --pipeline-model-parallel-size 4 --bf16 "
      "--account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split";
  const ImportResult vpp =
      testing::MustImport({{"run.sh", head + " --num-virtual-stages-per-pipeline-rank 2\n"}});
  EXPECT_EQ(testing::At(vpp.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json({1, 2, 2, 1}));
  EXPECT_EQ(testing::At(vpp.config, "parallelism.pipeline_parallel_layers_per_stage"), 1);
  EXPECT_EQ(testing::At(vpp.config, "parallelism.pipeline_parallel_schedule"), "Interleaved1F1B");
  // Without virtual stages: 8 slots over 4 ranks of 2, the first and last one short.
  const ImportResult plain = testing::MustImport({{"run.sh", head + "\n"}});
  EXPECT_EQ(testing::At(plain.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json({1, 2, 2, 1}));
  EXPECT_TRUE(testing::At(plain.config, "parallelism.pipeline_parallel_schedule").is_null());
}

// Interleaved 1F1B on that split, 4 microbatches of 4 × 1024 tokens. The last rank's warmup is
// (v − 1) · PP = 4 forwards of its first virtual stage (one layer each), then one of its last
// (the loss, no layer): 4 layers in flight, not 5 forwards × the rank's average of half a layer.
// The first rank runs 8 forwards, four of its embedding-only stage and four of its one-layer
// stage: 4 layers as well.
TEST(MegatronPipelineSplit, ShortVirtualStagesSitAtTheModelsEnds) {
  const Config c = MustParse(R"({"framework": "megatron", "device": "h100-80gb",
      "model": {"hidden_size": 1024, "num_hidden_layers": 6, "num_attention_heads": 8,
                "num_key_value_heads": 8, "intermediate_size": 512, "vocab_size": 1024,
                "model_type": "llama"},
      "world_size": 8, "activation_checkpoint": {"mode": "none"},
      "training": {"local_batch_size": 16, "seq_len": 1024, "dropout": 0.0},
      "parallelism": {"pipeline_parallel_degree": 4, "pipeline_parallel_microbatch_size": 4,
                      "pipeline_parallel_schedule": "Interleaved1F1B",
                      "pipeline_parallel_layers_per_stage": 1,
                      "pipeline_parallel_layer_list": [1, 2, 2, 1]}})");
  const Estimate e = EstimateMemory(c);
  ASSERT_EQ(e.stages.size(), 4u);
  EXPECT_EQ(e.stages.back().activations.layers_kept, 4);
  EXPECT_EQ(e.stages.back().activations.saved_layers, 4 * e.stages.back().activations.per_layer);
  EXPECT_EQ(e.stages.front().activations.layers_kept, 4);
}

// --num-distributed-optimizer-instances 2 on DP 4 (8 GPUs, TP 2): each instance shards the fp32
// master and Adam moments over 2 ranks instead of 4, so those states double; parameters and
// gradients do not move. Without the distributed optimizer Megatron refuses it, and 3 instances
// cannot split 4 ranks.
TEST(MegatronDistOptInstances, EachInstanceShardsOverItsShareOfDataParallel) {
  const std::vector<std::pair<std::string, std::string>> s = {
      {"ws", "8"}, {"tp", "2"}, {"b", "1"}, {"s", "1024"}, {"parallelism.zero_stage", "1"}};
  const Config one = Megatron("h100-80gb", "\"llama3-8b\"", s);
  const Config two = With(one, {{"parallelism.num_distributed_optimizer_instances", "2"}});
  const MemoryBreakdown a = EstimateMemory(one).per_device, b = EstimateMemory(two).per_device;
  EXPECT_NEAR(static_cast<double>(b.optimizer_states),
              2.0 * static_cast<double>(a.optimizer_states), 2.0);
  EXPECT_EQ(b.parameters, a.parameters);
  EXPECT_EQ(b.gradients, a.gradients);
  const Result<Config> no_dist =
      ApplySettings(two, {{"parallelism.zero_stage", "0"}}, testing::TestPresets());
  ASSERT_FALSE(no_dist.ok());
  EXPECT_EQ(no_dist.errors().front().path, "parallelism.num_distributed_optimizer_instances");
  EXPECT_FALSE(ApplySettings(two, {{"parallelism.num_distributed_optimizer_instances", "3"}},
                             testing::TestPresets())
                   .ok());
  const ImportResult r = testing::MustImport(
      {{"run.sh",
        "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 4 --hidden-size 512 "
        "--num-attention-heads 8 --seq-length 1024 --max-position-embeddings 1024 "
        "--micro-batch-size 4 --tensor-model-parallel-size 2 --use-distributed-optimizer "
        "--num-distributed-optimizer-instances 2 --bf16\n"}});
  EXPECT_EQ(testing::At(r.config, "parallelism.num_distributed_optimizer_instances"), 2);
}

// --grad-reduce-in-bf16: Megatron's gradient buffer in bf16, 2 bytes a parameter instead of 4
// (the parameters stay bf16, the distributed optimizer's fp32 master and moments unchanged).
TEST(MegatronGradReduce, Bf16GradientBufferHalvesTheGradients) {
  const std::vector<std::pair<std::string, std::string>> s = {
      {"ws", "8"}, {"tp", "2"}, {"b", "1"}, {"s", "1024"}, {"parallelism.zero_stage", "1"}};
  const Config fp32 = Megatron("h100-80gb", "\"llama3-8b\"", s);
  const Config bf16 = With(fp32, {{"training.grad_reduce_in_bf16", "true"}});
  const MemoryBreakdown a = EstimateMemory(fp32).per_device, b = EstimateMemory(bf16).per_device;
  EXPECT_EQ(a.gradients, 2 * a.parameters);  // fp32 main_grad vs bf16 weights
  EXPECT_EQ(b.gradients, b.parameters);
  EXPECT_EQ(b.optimizer_states, a.optimizer_states);
  const ImportResult r = testing::MustImport(
      {{"run.sh",
        "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 4 --hidden-size 512 "
        "--num-attention-heads 8 --seq-length 1024 --max-position-embeddings 1024 "
        "--micro-batch-size 4 --use-distributed-optimizer --grad-reduce-in-bf16 --bf16\n"}});
  EXPECT_EQ(testing::At(r.config, "training.grad_reduce_in_bf16"), true);
}

// Megatron-FSDP on 8 GPUs (DP 8), Llama 3 8B: optim_grads (zero_stage 2) shards the fp32 gradient
// buffer as the distributed optimizer shards the states, optim_grads_params (3) the bf16
// parameters too, with two layers gathered at a time.
TEST(MegatronFsdp, ShardingStrategiesShardGradientsThenParameters) {
  const std::vector<std::pair<std::string, std::string>> s = {
      {"ws", "8"}, {"b", "1"}, {"s", "1024"}, {"parallelism.zero_stage", "1"}};
  const Config z1 = Megatron("h100-80gb", "\"llama3-8b\"", s);
  const MemoryBreakdown one = EstimateMemory(z1).per_device;
  const MemoryBreakdown two =
      EstimateMemory(With(z1, {{"parallelism.zero_stage", "2"}})).per_device;
  const MemoryBreakdown three =
      EstimateMemory(With(z1, {{"parallelism.zero_stage", "3"}})).per_device;
  EXPECT_NEAR(static_cast<double>(two.gradients), one.gradients / 8.0, 8.0);
  EXPECT_EQ(two.parameters, one.parameters);
  EXPECT_NEAR(static_cast<double>(three.parameters), one.parameters / 8.0, 8.0);
  EXPECT_EQ(three.optimizer_states, one.optimizer_states);
  const ImportResult r = testing::MustImport(
      {{"run.sh",
        "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 4 --hidden-size 512 "
        "--num-attention-heads 8 --seq-length 1024 --max-position-embeddings 1024 "
        "--micro-batch-size 4 --use-megatron-fsdp --data-parallel-sharding-strategy "
        "optim_grads_params --use-distributed-optimizer --bf16\n"}});
  EXPECT_EQ(testing::At(r.config, "parallelism.zero_stage"), 3);
}

}  // namespace
}  // namespace trainmem
