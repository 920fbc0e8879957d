// LoRA (training.lora_rank): frozen base weights keep only their stored copy; the adapters train
// with the recipe's full state. Llama 3 8B, rank 8 on every 2-D block weight (q, k, v, o, gate,
// up, down): per block 8 · [(4096 + 4096) + 2·(4096 + 1024) + (4096 + 4096) + 3·(4096 + 14336)]
// = 8 · 81,920 = 655,360; × 32 blocks = A = 20,971,520 adapter parameters (the count PEFT
// prints for this model and target set).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/estimate/estimate.h"
#include "core/link/share_link.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::With;

constexpr std::int64_t kLlama8B = 8'030'261'248;
constexpr std::int64_t kAdapters = 20'971'520;

Config Llama(const std::vector<std::pair<std::string, std::string>>& settings) {
  return With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb"})"), settings);
}

bool Warns(const Estimate& e, const std::string& words) {
  for (const std::string& w : e.warnings)
    if (w.find(words) != std::string::npos) return true;
  return false;
}

// torchtitan FSDP2 over 8 ranks: the frozen base and the adapters are fp32 shards (4 B · (P + A)
// / 8); only the adapters have fp32 gradients (4 B · A / 8) and AdamW m + v (8 B · A / 8).
TEST(Lora, TorchtitanKeepsStateForTheAdaptersOnly) {
  const Estimate e = EstimateMemory(Llama({{"ws", "8"}, {"b", "1"}, {"lora", "8"}}));
  EXPECT_EQ(e.per_device.parameters, (kLlama8B + kAdapters) * 4 / 8);
  EXPECT_EQ(e.per_device.gradients, kAdapters * 4 / 8);
  EXPECT_EQ(e.per_device.optimizer_states, kAdapters * 8 / 8);
  EXPECT_TRUE(Warns(e, "LoRA rank 8: 20971520 adapter parameters train"));
}

// Megatron, TP 4 × DP 2, distributed optimizer: bf16 base weights per TP shard as in full
// training; the adapters (split by TP with their linears) add 2 B each, and only they have fp32
// main grads (4 B) and fp32 master + m + v (12 B) sharded over DP 2.
TEST(Lora, MegatronFreezesTheBaseWeights) {
  const Config full = Llama({{"fw", "megatron"}, {"ws", "8"}, {"tp", "4"}, {"zero", "1"}});
  Config lora = full;
  lora.training.lora_rank = 8;
  const Estimate f = EstimateMemory(full);
  const Estimate l = EstimateMemory(lora);
  const double a = static_cast<double>(kAdapters) / 4;
  EXPECT_NEAR(static_cast<double>(l.per_device.parameters - f.per_device.parameters), a * 2, 2);
  EXPECT_NEAR(static_cast<double>(l.per_device.gradients), a * 4, 2);
  EXPECT_NEAR(static_cast<double>(l.per_device.optimizer_states), a * 12 / 2, 2);
  // Activations are counted as for full training.
  EXPECT_EQ(l.per_device.activations, f.per_device.activations);
}

// Template mode keeps the seed's formulas (every weight trains) and says LoRA is not applied.
TEST(Lora, TemplateModeSaysItIsNotApplied) {
  const Config full = Llama({{"mode", "template"}, {"ws", "8"}});
  Config lora = full;
  lora.training.lora_rank = 16;
  const Estimate f = EstimateMemory(full);
  const Estimate l = EstimateMemory(lora);
  EXPECT_EQ(l.per_device.total, f.per_device.total);
  EXPECT_TRUE(Warns(l, "applied in detailed mode only"));
}

// The share link carries the rank (`lora`), and a rank out of range is named with its range
// while the rest of the link is kept.
TEST(Lora, ShareLinkCarriesTheRank) {
  const std::string fragment =
      EncodeShareFragment(Llama({{"lora", "32"}, {"ws", "8"}, {"tp", "2"}}));
  EXPECT_NE(fragment.find("lora=32"), std::string::npos) << fragment;
  const DecodedLink back = DecodeShareFragment(fragment, testing::TestPresets());
  EXPECT_TRUE(back.errors.empty());
  EXPECT_EQ(back.config.training.lora_rank, 32);
  const DecodedLink bad =
      DecodeShareFragment("v1&model=llama3-8b&ws=8&lora=-2&tp=2", testing::TestPresets());
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_EQ(bad.errors.front().path, "lora");
  EXPECT_NE(bad.errors.front().message.find("65536"), std::string::npos)
      << bad.errors.front().message;
  EXPECT_EQ(bad.config.parallelism.tp, 2);
}

// QLoRA on the Hugging Face Trainer (framework deepspeed, one device, ZeRO 0, bf16): the block
// linears are stored as NF4 with double-quantized scales, 0.5 + 1/64 + 4/16,384 =
// 0.515869140625 bytes a weight; the embedding, head and final norm stay bf16. Llama 3 8B:
// tables 2 · 128,256 · 4,096 + 4,096 = 1,050,677,248 parameters, blocks 8,030,261,248 − that =
// 6,979,584,000. Base bytes 2 · 1,050,677,248 + 0.515869140625 · 6,979,584,000 = 2,101,354,496
// + 3,600,552,000 = 5,701,906,496, against 2 · 8,030,261,248 = 16,060,522,496 unquantized:
// 10,358,616,000 fewer. Plain NF4 (fp32 scales, 0.5625 B): 6,979,584,000 · 0.5625 =
// 3,926,016,000. LLM.int8 (1 + 4/4,096 B): 6,979,584,000 + 6,816,000. The adapters and their
// state are the same in each. Each matmul's dequantized weight, the widest 4,096 × 14,336 in
// bf16 (117,440,512 B), is one more temporary.
TEST(Lora, QuantizedBaseStoresTheBlockLinearsInFourOrEightBits) {
  const Config lora = Llama({{"fw", "deepspeed"}, {"ws", "1"}, {"zero", "0"}, {"lora", "16"}});
  const Estimate plain = EstimateMemory(lora);
  auto with = [&](BaseQuantization q) {
    Config c = lora;
    c.training.base_quantization = q;
    return EstimateMemory(c);
  };
  const Estimate dq = with(BaseQuantization::kNf4DoubleQuant);
  const Estimate nf4 = with(BaseQuantization::kNf4);
  const Estimate int8 = with(BaseQuantization::kInt8);
  EXPECT_NEAR(static_cast<double>(plain.per_device.parameters - dq.per_device.parameters),
              10'358'616'000.0, 2);
  EXPECT_NEAR(static_cast<double>(dq.per_device.parameters - nf4.per_device.parameters),
              3'600'552'000.0 - 3'926'016'000.0, 2);
  EXPECT_NEAR(static_cast<double>(int8.per_device.parameters - plain.per_device.parameters),
              6'979'584'000.0 + 6'816'000.0 - 2 * 6'979'584'000.0, 2);
  EXPECT_EQ(dq.per_device.gradients, plain.per_device.gradients);
  EXPECT_EQ(dq.per_device.optimizer_states, plain.per_device.optimizer_states);
  EXPECT_TRUE(Warns(dq, "prepare_model_for_kbit_training"));
  EXPECT_NEAR(static_cast<double>(dq.stages[0].temporary.gathered_params -
                                  plain.stages[0].temporary.gathered_params),
              117'440'512.0, 2);
  // A MoE's routed experts stay 16-bit (transformers v5 fuses them into 3-D parameters that
  // bitsandbytes does not replace): Mixtral 8x7B, dense 1,605,636,096 less the tables and final
  // norm 262,148,096 = 1,343,488,000 quantized weights, 1.4375 bytes each fewer as NF4:
  // 1,931,264,000 bytes; its 45,097,156,608 expert weights keep 2 bytes.
  Config moe = Llama({{"fw", "deepspeed"}, {"ws", "1"}, {"zero", "0"}, {"lora", "16"}});
  moe.model = testing::TestPresets().FindModel("mixtral-8x7b")->arch;
  Config moe_nf4 = moe;
  moe_nf4.training.base_quantization = BaseQuantization::kNf4;
  EXPECT_NEAR(static_cast<double>(EstimateMemory(moe).per_device.parameters -
                                  EstimateMemory(moe_nf4).per_device.parameters),
              1'931'264'000.0, 2);
  // Without adapters, or on a framework with no QLoRA, it changes nothing and says so.
  Config full = lora;
  full.training.lora_rank = 0;
  full.training.base_quantization = BaseQuantization::kNf4;
  Config no_lora = full;
  no_lora.training.base_quantization = BaseQuantization::kNone;
  EXPECT_EQ(EstimateMemory(full).per_device.total, EstimateMemory(no_lora).per_device.total);
  EXPECT_TRUE(Warns(EstimateMemory(full), "has no effect without training.lora_rank"));
  Config titan = Llama({{"ws", "8"}, {"lora", "16"}});
  titan.training.base_quantization = BaseQuantization::kNf4;
  EXPECT_TRUE(Warns(EstimateMemory(titan), "has no effect with torchtitan"));
  // The share link carries it (bq).
  const std::string fragment = EncodeShareFragment(with(BaseQuantization::kNf4).config);
  EXPECT_NE(fragment.find("bq=nf4"), std::string::npos) << fragment;
  EXPECT_EQ(DecodeShareFragment(fragment, testing::TestPresets()).config.training.base_quantization,
            BaseQuantization::kNf4);
}

}  // namespace
}  // namespace trainmem
