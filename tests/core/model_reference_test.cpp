// Parameter counts against the published totals in tests/data/reference_models.jsonl
// (HF safetensors totals; `notes`, `compare_basis`, `active_basis` say how to compare).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/model/model.h"

namespace trainmem {
namespace {

using nlohmann::json;

std::vector<json> ReferenceRows() {
  std::ifstream in(TRAINMEM_SOURCE_DIR "/tests/data/reference_models.jsonl");
  std::vector<json> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) rows.push_back(json::parse(line));
  }
  return rows;
}

ModelArch ArchOf(const json& row) {
  json config = row.at("config");
  // GLM-4.5: fields no source showed but that the totals imply (see the row's notes).
  if (row.contains("inferred_config")) config.update(row.at("inferred_config"));
  Result<ModelArch> arch = ParseModelArch(config, "model");
  EXPECT_TRUE(arch.ok()) << row.at("id") << ": " << FormatError(arch.errors().front());
  return arch.ok() ? arch.value() : ModelArch{};
}

const json* FindRow(const std::vector<json>& rows, const std::string& id) {
  for (const json& row : rows) {
    if (row.at("id") == id) return &row;
  }
  return nullptr;
}

TEST(ModelReference, EveryPublishedTotalMatches) {
  const std::vector<json> rows = ReferenceRows();
  ASSERT_GE(rows.size(), 23u);
  int compared = 0;
  for (const json& row : rows) {
    const std::string id = row.at("id");
    if (row.at("official_total_params").is_null()) continue;  // deepseek-v3.2: own test
    const ModelArch arch = ArchOf(row);
    // Count what the config describes, MTP layers included as the checkpoint stores them.
    std::int64_t computed = CountParams(arch, true).total;
    if (row.value("compare_basis", "") == "total_plus_buffers") {
      // Llama 2 checkpoints also store rotary_emb.inv_freq: head_dim / 2 entries per layer.
      computed += arch.num_layers * arch.head_dim / 2;
    }
    if (row.value("known_basis_mismatch", false)) {
      // Gemma 3 12B: the published figure includes the SigLIP vision tower; the notes give the
      // text-only count, which we must match exactly.
      EXPECT_EQ(computed, 11766034176) << id;
      continue;
    }
    const std::int64_t published = row.at("official_total_params");
    const double error = std::fabs(static_cast<double>(computed - published)) / published;
    EXPECT_LE(error, 0.005) << id << ": computed " << computed << " published " << published;
    if (row.value("official_is_exact", false)) EXPECT_EQ(computed, published) << id;
    ++compared;
  }
  EXPECT_EQ(compared, 21);
}

// Published active counts are rounded (37B, 5.13B, 3.3B), so 3%. Each vendor counts
// differently; active_basis says which of our figures to compare (model.cpp header).
TEST(ModelReference, PublishedActiveCountsMatchTheirBasis) {
  int compared = 0;
  for (const json& row : ReferenceRows()) {
    if (row.at("official_active_params").is_null()) continue;
    const std::string id = row.at("id");
    const ParamCounts main = CountParams(ArchOf(row), false);
    const std::string basis = row.value("active_basis", "");
    std::int64_t active = main.active;  // no basis given, or "main_active": ours as is
    if (basis == "active_no_emb_in") active -= main.embedding;                  // gpt-oss
    if (basis == "active_no_emb") active -= main.embedding + main.output_head;  // GLM-4.5
    const double published = row.at("official_active_params");
    EXPECT_NEAR(active / published, 1.0, 0.03) << id << ": computed " << active;
    ++compared;
  }
  EXPECT_EQ(compared, 6);  // qwen3-30b-a3b, mixtral, deepseek-v3, gpt-oss, glm-4.5, glm-4.5-air
}

TEST(ModelReference, DeepSeekV3MainModelAndMtp) {
  const std::vector<json> rows = ReferenceRows();
  const json* row = FindRow(rows, "deepseek-v3");
  ASSERT_NE(row, nullptr);
  const ModelArch arch = ArchOf(*row);
  // The hub total includes layer 61 (MTP) with its own copies of embed_tokens and
  // shared_head.head; the main model is the paper's 671B.
  EXPECT_EQ(CountParams(arch, true).total, 684489845504);
  EXPECT_EQ(CountParams(arch, false).total, 671026419200);
  // MTP module = 684,489,845,504 - 671,026,419,200 = 13,463,426,304 with the two 129280×7168
  // tables (926,679,040 each); 11,610,068,224 without them (the seed's "≈ 11.6B more").
  EXPECT_EQ(MtpModuleParams(arch, true), 13463426304);
  EXPECT_EQ(MtpModuleParams(arch, false), 11610068224);
  // Seed note: 58 MoE layers × 256 experts × 3 × 7168 × 2048 = 653,908,770,816 routed.
  EXPECT_EQ(CountParams(arch, false).expert, 653908770816);
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[2].routed_experts, 0);  // first_k_dense_replace = 3
  EXPECT_GT(layers[3].routed_experts, 0);
  // e_score_correction_bias (noaux_tc): router = 256 × 7168 + 256.
  EXPECT_EQ(layers[3].router, 256 * 7168 + 256);
}

TEST(ModelReference, DeepSeekV32IsV3PlusTheIndexer) {
  const std::vector<json> rows = ReferenceRows();
  const json* v3 = FindRow(rows, "deepseek-v3");
  const json* v32 = FindRow(rows, "deepseek-v3.2");
  ASSERT_NE(v3, nullptr);
  ASSERT_NE(v32, nullptr);
  // No published total. DeepSeek-V3.2-Exp inference/model.py, class Indexer:
  //   wq_b: q_lora_rank 1536 → 64 heads × 128       = 12,582,912
  //   wk: dim 7168 → 128                             =    917,504
  //   k_norm: LayerNorm(128), weight + bias          =        256
  //   weights_proj: 7168 → 64 heads                  =    458,752
  //                                          per layer 13,959,424 × 61 layers = 851,524,864
  const std::int64_t indexer_per_layer = 1536 * 64 * 128 + 7168 * 128 + 2 * 128 + 7168 * 64;
  EXPECT_EQ(indexer_per_layer, 13959424);
  const ModelArch a3 = ArchOf(*v3);
  const ModelArch a32 = ArchOf(*v32);
  EXPECT_EQ(CountParams(a32, false).total, 671026419200 + 61 * indexer_per_layer);
  EXPECT_EQ(CountParams(a32, false).total, 671877944064);
  EXPECT_EQ(CountLayerParams(a32)[0].attention - CountLayerParams(a3)[0].attention,
            indexer_per_layer);
  // The MTP block has an indexer too.
  EXPECT_EQ(MtpModuleParams(a32, true) - MtpModuleParams(a3, true), indexer_per_layer);
}

}  // namespace
}  // namespace trainmem
