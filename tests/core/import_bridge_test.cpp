// Megatron-Bridge's resolved config (run_config.yaml): read as the Megatron arguments its keys
// set. The fixture is sample 01 of notes/bridge17 verbatim: a Llama-3.2-1B dump printed by
// ConfigContainer.print_yaml (Bridge b30bded5), with its source header in comments.
#include <algorithm>

#include "import_test_support.h"

namespace trainmem::testing {
namespace {

std::string Replaced(std::string text,
                     const std::vector<std::pair<std::string, std::string>>& edits) {
  for (const auto& [from, to] : edits) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  return text;
}

const ImportRead* ReadOf(const ImportResult& r, const std::string& key) {
  for (const ImportRead& x : r.report.read)
    if (x.key == key) return &x;
  return nullptr;
}

bool IgnoredWith(const ImportResult& r, const std::string& key, const std::string& reason_part) {
  for (const ImportIgnored& i : r.report.ignored)
    if (i.key == key && i.reason.find(reason_part) != std::string::npos) return true;
  return false;
}

// Its header comments quote the run's memory lines ("memory (MB) | allocated"): the
// ConfigContainer target wins over the log heuristics.
TEST(ImportBridge, DetectedBeforeTheLogHeuristics) {
  const InputFile f = Fixture("bridge_llama32_1b_run_config.yaml");
  EXPECT_EQ(DetectInputKind(f.name, f.text), InputKind::kMegatronBridgeYaml);
  EXPECT_EQ(DetectInputKind("pasted", f.text), InputKind::kMegatronBridgeYaml);
}

// Values derived by hand from the YAML: model.num_layers 16, hidden_size 2048,
// num_attention_heads 32, num_query_groups 8, ffn_hidden_size 8192 with gated_linear_unit +
// silu, vocab_size 128256 with should_pad_vocab false, tied embeddings; TP = PP = CP = EP = 1;
// train.micro_batch_size 1; dataset.sequence_length 1024 (model.seq_length 131072 is the
// model's maximum); optimizer.use_distributed_optimizer true; recompute_granularity null (the
// dumped recompute_modules [core_attn] is the post-init default); bf16.
TEST(ImportBridge, LlamaResolvedDump) {
  const ImportResult r = MustImport({Fixture("bridge_llama32_1b_run_config.yaml")});
  ASSERT_TRUE(r.config_valid) << r.config.dump();
  ASSERT_EQ(r.report.kinds.size(), 1u);
  EXPECT_EQ(r.report.kinds[0], InputKind::kMegatronBridgeYaml);
  EXPECT_EQ(r.config["framework"], "megatron");
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 16);
  EXPECT_EQ(At(r.config, "model.hidden_size"), 2048);
  EXPECT_EQ(At(r.config, "model.num_attention_heads"), 32);
  EXPECT_EQ(At(r.config, "model.num_key_value_heads"), 8);
  EXPECT_EQ(At(r.config, "model.intermediate_size"), 8192);
  EXPECT_EQ(At(r.config, "model.vocab_size"), 128256);
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "parallelism.context_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 1);
  EXPECT_EQ(At(r.config, "training.seq_len"), 1024);
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 1);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "none");
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  // Llama-3.2-1B: 1,235,814,400 parameters (tied embeddings).
  const Config c = MustParse(r.config.dump());
  EXPECT_EQ(CountParams(c.model, false).total, 1235814400);
  // Each value names its YAML key and line, and the flag it became.
  const ImportRead* layers = ReadOf(r, "parallelism.tensor_parallel_degree");
  ASSERT_NE(layers, nullptr);
  EXPECT_EQ(layers->source, "model.tensor_model_parallel_size → --tensor-model-parallel-size 1");
  EXPECT_EQ(layers->line, 490);
  const ImportRead* seq = ReadOf(r, "training.seq_len");
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->source, "dataset.sequence_length → --seq-length 1024");
  EXPECT_EQ(seq->line, 75);
  // The world size is not in the file.
  EXPECT_TRUE(Missing(r, "world_size"));
  // Keys not mapped are listed with a reason; dense-model and recompute defaults say why.
  EXPECT_TRUE(IgnoredWith(r, "model.moe_router_topk", "dense model"));
  EXPECT_TRUE(IgnoredWith(r, "model.recompute_modules", "recompute_granularity is null"));
  EXPECT_TRUE(IgnoredWith(r, "optimizer.lr", "does not change device memory"));
  EXPECT_TRUE(IgnoredWith(r, "checkpoint", "does not change device memory"));
  // Every flag the translation wrote was read by the Megatron path.
  for (const ImportIgnored& i : r.report.ignored)
    EXPECT_EQ(i.key.find(" → --"), std::string::npos) << i.key << ": " << i.reason;
}

// The same dump with full block recompute of 2 layers, TP 2, PP 2, CP 2: 16 layers over PP 2
// are stages of 8, so 2 recomputed blocks per stage is partial recompute.
TEST(ImportBridge, RecomputeAndLayout) {
  InputFile f = Fixture("bridge_llama32_1b_run_config.yaml");
  f.text =
      Replaced(f.text, {{"  recompute_granularity: null", "  recompute_granularity: full"},
                        {"  recompute_method: null", "  recompute_method: block"},
                        {"  recompute_num_layers: null", "  recompute_num_layers: 2"},
                        {"  tensor_model_parallel_size: 1", "  tensor_model_parallel_size: 2"},
                        {"  pipeline_model_parallel_size: 1", "  pipeline_model_parallel_size: 2"},
                        {"  context_parallel_size: 1", "  context_parallel_size: 2"},
                        {"  sequence_parallel: false", "  sequence_parallel: true"}});
  const ImportResult r = MustImport({f});
  ASSERT_TRUE(r.config_valid) << r.config.dump();
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "parallelism.context_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "parallelism.sequence_parallel"), true);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(r.config, "activation_checkpoint.recompute_num_layers"), 2);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_microbatch_size"), 1);
  const ImportRead* mode = ReadOf(r, "activation_checkpoint.mode");
  ASSERT_NE(mode, nullptr);
  EXPECT_EQ(mode->source, "model.recompute_granularity → --recompute-granularity full");
  EXPECT_EQ(mode->line, 471);
  // The vocabulary stays unpadded (should_pad_vocab false), whatever TP is.
  EXPECT_EQ(At(r.config, "model.vocab_size"), 128256);
}

// The 2026 shape: TransformerConfig fields under model.transformer; a recipe name for
// mixed_precision; dataset.seq_length; a MoE with selective recompute of two modules.
TEST(ImportBridge, NestedModelConfigMoeSelective) {
  const std::string yaml =
      "_target_: megatron.bridge.training.config.ConfigContainer\n"
      "dataset:\n  seq_length: 4096\n"
      "mixed_precision: bf16_mixed\n"
      "model:\n"
      "  _target_: megatron.bridge.models.gpt.model_config.GPTModelConfig\n"
      "  seq_length: 40960\n  vocab_size: 151936\n  should_pad_vocab: false\n"
      "  share_embeddings_and_output_weights: false\n"
      "  position_embedding_type: rope\n"
      "  transformer:\n"
      "    num_layers: 48\n    hidden_size: 2048\n    num_attention_heads: 32\n"
      "    num_query_groups: 4\n    kv_channels: 128\n    ffn_hidden_size: 6144\n"
      "    gated_linear_unit: true\n"
      "    activation_func: {_call_: false, _target_: torch.nn.functional.silu}\n"
      "    add_bias_linear: false\n    qk_layernorm: true\n    normalization: RMSNorm\n"
      "    num_moe_experts: 128\n    moe_router_topk: 8\n    moe_ffn_hidden_size: 768\n"
      "    tensor_model_parallel_size: 1\n    expert_model_parallel_size: 8\n"
      "    recompute_granularity: selective\n    recompute_modules: [moe_act, layernorm]\n"
      "optimizer:\n  optimizer: adam\n  use_distributed_optimizer: true\n"
      "train:\n  micro_batch_size: 2\n  global_batch_size: 64\n";
  const ImportResult r = MustImport({{"run_config.yaml", yaml}});
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 48);
  EXPECT_EQ(At(r.config, "model.n_routed_experts"), 128);
  EXPECT_EQ(At(r.config, "model.num_experts_per_tok"), 8);
  EXPECT_EQ(At(r.config, "model.moe_intermediate_size"), 768);
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 8);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "selective");
  EXPECT_EQ(At(r.config, "activation_checkpoint.recompute_modules"),
            nlohmann::json({"moe_act", "layernorm"}));
}

// A YAML whose top-level _target_ is another class (NeMo-tron's old container, whose keys are
// model_config, train_config, …) or whose ConfigContainer target is nested is not read as
// Bridge's: its model.num_layers does not become a 16-layer model.
TEST(ImportBridge, OtherTargetIsNotMisread) {
  const std::string body =
      "model:\n  num_layers: 16\n  hidden_size: 2048\n  num_attention_heads: 32\n"
      "train:\n  micro_batch_size: 1\n";
  for (const std::string& text :
       {"_target_: nemo.tron.config.ConfigContainer\n" + body,
        "_target_: megatron.bridge.training.config.ConfigContainerV2\n" + body,
        "outer:\n  _target_: megatron.bridge.training.config.ConfigContainer\n" + body}) {
    EXPECT_NE(DetectInputKind("run_config.yaml", text), InputKind::kMegatronBridgeYaml) << text;
    Result<ImportResult> r = ImportFiles({{"run_config.yaml", text}}, {}, TestPresets());
    if (r.ok()) {
      EXPECT_NE(At(r.value().config, "model.num_hidden_layers"), 16) << text;
      EXPECT_NE(r.value().config.value("framework", ""), "megatron") << text;
    }
  }
}

}  // namespace
}  // namespace trainmem::testing
