// Megatron-Bridge / NeMo 2 launch lines and override YAMLs. The fixtures are notes/bridge17
// samples verbatim with their source headers; the expected numbers come from the Bridge source
// cited on each test (recipe rows: notes/bridge17/results/recipes_*.tsv).
#include "core/import/bridge_recipes.h"
#include "core/import/bridge_tree.h"
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

using import_detail::DotItem;
using import_detail::FindBridgeRecipe;
using import_detail::ParseDotItem;

const ImportRead* ReadOf(const ImportResult& r, const std::string& key) {
  for (const ImportRead& x : r.report.read)
    if (x.key == key) return &x;
  return nullptr;
}

bool MissingWith(const ImportResult& r, const std::string& key, const std::string& part) {
  for (const ImportMissing& m : r.report.missing)
    if (m.key == key && m.why.find(part) != std::string::npos) return true;
  return false;
}

bool IgnoredWith(const ImportResult& r, const std::string& key_part, const std::string& reason) {
  for (const ImportIgnored& i : r.report.ignored)
    if (i.key.find(key_part) != std::string::npos && i.reason.find(reason) != std::string::npos)
      return true;
  return false;
}

std::string ErrorsOf(const std::vector<InputFile>& files) {
  Result<ImportResult> r = ImportFiles(files, {}, TestPresets());
  EXPECT_FALSE(r.ok());
  std::string all;
  if (!r.ok())
    for (const Error& e : r.errors()) all += FormatError(e) + "\n";
  return all;
}

// --- The recipe table ---------------------------------------------------------------------------

// HEAD h100/qwen3_moe.py:146-178: cfg = the 8-GPU recipe, then TP 1, PP 1, CP 1, EP 16, ETP 1,
// SP False, GBS 1024, MBS 1, seq 4096. v0.2.0 qwen3_moe.py:127-139: TP 4, PP 2, EP 4, SP True,
// recompute on, GBS 32 / MBS 2 from _qwen3_moe_common.
TEST(BridgeRecipes, HardwareNamedAndLegacyNames) {
  const auto head = FindBridgeRecipe("qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config", true);
  ASSERT_NE(head.recipe, nullptr);
  EXPECT_STREQ(head.recipe->preset, "qwen3-30b-a3b");
  EXPECT_EQ(head.recipe->gpus, 16);
  EXPECT_EQ(head.recipe->tp, 1);
  EXPECT_EQ(head.recipe->ep, 16);
  EXPECT_EQ(head.recipe->etp, 1);
  EXPECT_EQ(head.recipe->gbs, 1024);
  EXPECT_EQ(head.recipe->mbs, 1);
  EXPECT_EQ(head.recipe->seq, 4096);
  // The 2025 name is its own recipe at v0.2.0 and HEAD's alias of the 16-GPU one.
  const auto v020 = FindBridgeRecipe("qwen3_30b_a3b_pretrain_config", false);
  ASSERT_NE(v020.recipe, nullptr);
  EXPECT_EQ(v020.recipe->tp, 4);
  EXPECT_EQ(v020.recipe->pp, 2);
  EXPECT_EQ(v020.recipe->ep, 4);
  EXPECT_STREQ(v020.recipe->recompute, "full");
  const auto alias = FindBridgeRecipe("qwen3_30b_a3b_pretrain_config", true);
  ASSERT_NE(alias.recipe, nullptr);
  EXPECT_STREQ(alias.recipe->name, "qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config");
  EXPECT_NE(alias.note.find("alias"), std::string::npos);
  // A recipe whose model trainmem has no preset for says so (empty preset).
  const auto super = FindBridgeRecipe("nemotron_3_super_pretrain_16gpu_h100_bf16_config", true);
  ASSERT_NE(super.recipe, nullptr);
  EXPECT_STREQ(super.recipe->preset, "");
  EXPECT_EQ(FindBridgeRecipe("llama3_8b_sft_2gpu_h100_bf16_config", true).recipe, nullptr);
}

// Hydra's override grammar (Bridge v0.2.0 pretrain_llama3_8b.py docstring lines 41-47).
TEST(BridgeRecipes, DotListWords) {
  std::string error;
  auto item = ParseDotItem("+model.new_key=[1, 2]", error);
  ASSERT_TRUE(item);
  EXPECT_EQ(item->op, DotItem::Op::kAdd);
  EXPECT_EQ(item->key, "model.new_key");
  EXPECT_EQ(item->value, nlohmann::json({1, 2}));
  item = ParseDotItem("~model.recompute_granularity", error);
  ASSERT_TRUE(item);
  EXPECT_EQ(item->op, DotItem::Op::kDelete);
  EXPECT_EQ(ParseDotItem("optimizer.lr=3e-4", error)->value, 3e-4);
  EXPECT_EQ(ParseDotItem("model.sequence_parallel=True", error)->value, true);
  EXPECT_EQ(ParseDotItem("checkpoint.save=null", error)->value, nullptr);
  EXPECT_EQ(ParseDotItem("model.hybrid_override_pattern=\"MEME*ME\"", error)->value, "MEME*ME");
  EXPECT_EQ(ParseDotItem("model.pipeline_dtype=torch.float16", error)->value, "torch.float16");
  EXPECT_FALSE(ParseDotItem("model..x=1", error));
  EXPECT_FALSE(ParseDotItem("model.x", error));
}

// --- 2026 layout: train.sh / run_recipe.py
// --------------------------------------------------------

// notes/bridge17 sample 10: train.sh --nodes 2 --gpus-per-node 8 --recipe
// qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config → TP1 EP16 ETP1 MBS1 seq4096 on 16 GPUs.
TEST(ImportBridgeLaunch, TrainShRecipeQwen3Moe16Gpus) {
  const InputFile f = Fixture("bridge_train_sh_qwen3_30b_a3b.sh");
  const ImportResult r = MustImport({f});
  ASSERT_TRUE(r.config_valid) << r.config.dump();
  EXPECT_EQ(r.config["model"], "qwen3-30b-a3b");
  EXPECT_EQ(r.config["world_size"], 16);
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 16);
  EXPECT_EQ(At(r.config, "parallelism.expert_tensor_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "parallelism.sequence_parallel"), false);
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 1);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 1);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "none");
  // Where each came from: the --recipe line, the --nodes line.
  const ImportRead* ep = ReadOf(r, "parallelism.expert_parallel_degree");
  ASSERT_NE(ep, nullptr);
  EXPECT_EQ(ep->line, 7);
  EXPECT_NE(ep->source.find("recipe qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config"),
            std::string::npos);
  const ImportRead* world = ReadOf(r, "world_size");
  ASSERT_NE(world, nullptr);
  EXPECT_EQ(world->source, "--nodes 2 × --gpus-per-node 8");
  EXPECT_EQ(world->line, 4);
  EXPECT_TRUE(IgnoredWith(r, "--account", "launcher option"));
}

// run_recipe.py _apply_benchmark_weak_scaling (HEAD): GBS × DP / DP of the recipe's 16 GPUs,
// unless -gb or train.global_batch_size is given. PP 2 makes the batch visible: local batch =
// GBS / (MBS · DP) microbatches.
TEST(ImportBridgeLaunch, TrainShWeakScalesTheBatch) {
  const std::string head =
      "./scripts/training/train.sh --nodes 4 --gpus-per-node 8 \\\n"
      "  --recipe qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config";
  // 32 GPUs, TP1 PP1: DP 32 against the recipe's 16 → GBS 2048.
  ImportResult r = MustImport({{"a.sh", head + "\n"}});
  EXPECT_EQ(r.config["world_size"], 32);
  EXPECT_TRUE(AnyContains(r.report.notes, "weak-scaled to 2048"));
  // PP 2 over 16 GPUs: DP 8 → GBS 512 → 512 / 8 = 64 microbatches of 1.
  r = MustImport({{"b.sh",
                   "./scripts/training/train.sh --nodes 2 --gpus-per-node 8 --recipe "
                   "qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config "
                   "model.pipeline_model_parallel_size=2\n"}});
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 64);
  // -gb given: not scaled (1024 / 8 = 128).
  r = MustImport({{"c.sh",
                   "./scripts/training/train.sh --nodes 2 --gpus-per-node 8 --recipe "
                   "qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config -gb 1024 "
                   "model.pipeline_model_parallel_size=2\n"}});
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 128);
  EXPECT_FALSE(AnyContains(r.report.notes, "weak-scaled"));
}

// run_recipe.py: recipe, then the convenience flags, then KEY=VALUE, which wins (its docstring,
// lines 20-30 @HEAD).
TEST(ImportBridgeLaunch, ConvenienceFlagsUnderTheDotList) {
  const std::string launch =
      "torchrun --nproc_per_node=8 scripts/training/run_recipe.py "
      "--recipe llama3_8b_pretrain_2gpu_h100_bf16_config -tp 2";
  ImportResult r = MustImport({{"a.sh", launch + "\n"}});
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "parallelism.context_parallel_degree"), 2);  // the recipe's
  EXPECT_EQ(r.config["model"], "llama3-8b");
  EXPECT_EQ(ReadOf(r, "parallelism.tensor_parallel_degree")->source,
            "-tp 2 → --tensor-model-parallel-size 2");
  r = MustImport({{"b.sh", launch + " model.tensor_model_parallel_size=4\n"}});
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 4);
}

// A 2026 launcher reads a legacy name as HEAD's alias; a 2025 recipe script as the v0.2.0 recipe.
TEST(ImportBridgeLaunch, LegacyNameFollowsTheLayout) {
  ImportResult r =
      MustImport({{"a.sh",
                   "torchrun --nproc_per_node=8 --nnodes=2 scripts/training/run_recipe.py --recipe "
                   "qwen3_30b_a3b_pretrain_config\n"}});
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 16);
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 1);
  r = MustImport(
      {{"b.sh", "torchrun --nproc_per_node=8 pretrain_qwen3_30b_a3b.py train.train_iters=10\n"}});
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 4);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 4);
  EXPECT_EQ(At(r.config, "parallelism.sequence_parallel"), true);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  // ~key deletes what the recipe set.
  r = MustImport({{"c.sh",
                   "torchrun --nproc_per_node=8 pretrain_qwen3_30b_a3b.py "
                   "~model.recompute_granularity\n"}});
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "none");
}

// Other Hydra-style trainers are not Bridge: verl's SFT trainer takes `model.*` and `data.*`
// overrides too, but no ConfigContainer `train.` section and no recipe script.
TEST(ImportBridgeLaunch, OtherHydraTrainersAreNotBridge) {
  Result<ImportResult> r =
      ImportFiles({{"verl.sh",
                    "torchrun --nproc_per_node=8 -m verl.trainer.fsdp_sft_trainer "
                    "model.partial_pretrain=Qwen/Qwen2.5-0.5B data.train_batch_size=256\n"}},
                  {}, TestPresets());
  EXPECT_TRUE(!r.ok() || !AnyContains(r.value().report.notes, "recipe"));
}

// Sample 11: two commands; the reader takes the train.sh one (legacy llama32_1b name → HEAD's
// llama32_1b_pretrain_1gpu_h100_bf16_config: TP1, seq 8192) with -ms 10 -gb 8 -mb 1. A legacy
// name carries no GPU count: no weak scaling.
TEST(ImportBridgeLaunch, RunRecipeSampleWithShortFlags) {
  const ImportResult r = MustImport({Fixture("bridge_run_recipe_torchrun.sh")});
  ASSERT_TRUE(r.config_valid) << r.config.dump();
  EXPECT_EQ(r.config["model"], "llama3.2-1b");
  EXPECT_EQ(r.config["world_size"], 8);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 1);
  EXPECT_EQ(At(r.config, "training.seq_len"), 8192);
  EXPECT_EQ(ReadOf(r, "training.local_batch_size")->source, "-mb 1 → --micro-batch-size 1");
  EXPECT_FALSE(AnyContains(r.report.notes, "weak-scaled"));
}

// A recipe whose model trainmem has no preset for: its layout is read, the model is missing.
TEST(ImportBridgeLaunch, RecipeWithoutPresetLeavesTheModelMissing) {
  Result<ImportResult> r = ImportFiles(
      {{"a.sh",
        "torchrun --nproc_per_node=8 --nnodes=2 scripts/training/run_recipe.py --recipe "
        "nemotron_3_super_pretrain_16gpu_h100_bf16_config\n"}},
      {}, TestPresets());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(MissingWith(r.value(), "model", "Nemotron-3-Super"));
  EXPECT_FALSE(r.value().config.contains("model"));
  EXPECT_EQ(At(r.value().config, "parallelism.tensor_parallel_degree"), 8);
  EXPECT_EQ(At(r.value().config, "parallelism.expert_parallel_degree"), 16);
  EXPECT_EQ(At(r.value().config, "training.seq_len"), 8192);
}

// --- 2025 layout: recipe script + --config-file + dot-list
// ------------------------------------------

// Bridge v0.2.0 pretrain_llama3_8b.py docstring lines 37-40: recipe < YAML < dot-list. Recipe
// llama3_8b_pretrain_config (llama3.py:170): TP1 PP1 CP2, GBS 512, MBS 1, seq 8192; the YAML
// (sample 02): GBS 8, MBS 1, sequence_length 4096. With PP 2 on 8 GPUs DP = 8 / (2·2) = 2 and the
// local batch is GBS / DP microbatches of 1: 64 / 2 = 32 when the dot-list's 64 wins, 8 / 2 = 4
// when the YAML's does, 256 if the recipe's did.
TEST(ImportBridgeLaunch, DotListBeatsYamlBeatsRecipe) {
  InputFile yaml = Fixture("bridge_llama3_8b_pretrain_override_example.yaml");
  yaml.name = "conf/override.yaml";
  const std::string launch =
      "torchrun --nproc_per_node=8 pretrain_llama3_8b.py --config-file conf/override.yaml \\\n"
      "  model.pipeline_model_parallel_size=2";
  ImportResult r = MustImport({{"run.sh", launch + " train.global_batch_size=64\n"}, yaml});
  ASSERT_TRUE(r.config_valid) << r.config.dump();
  EXPECT_EQ(r.config["model"], "llama3-8b");
  EXPECT_EQ(r.config["world_size"], 8);
  EXPECT_EQ(At(r.config, "parallelism.context_parallel_degree"), 2);  // recipe
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);                  // YAML over recipe
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 32);           // dot-list over YAML
  const ImportRead* seq = ReadOf(r, "training.seq_len");
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->file, "conf/override.yaml");
  EXPECT_EQ(seq->line, 52);
  r = MustImport({{"run.sh", launch + "\n"}, yaml});
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);  // YAML over recipe
  // A YAML given beside a launch that does not name it is not merged.
  r = MustImport({{"run.sh",
                   "torchrun --nproc_per_node=8 pretrain_llama3_8b.py "
                   "model.pipeline_model_parallel_size=2\n"},
                  yaml});
  EXPECT_TRUE(AnyContains(r.report.problems, "conf/override.yaml: not read"));
}

// Sample 08: the first command names conf/my_config.yaml, which is not given: it is wanted and
// the recipe's values stand (seq 8192, CP 2).
TEST(ImportBridgeLaunch, RecipeScriptWithoutItsYaml) {
  const ImportResult r = MustImport({Fixture("bridge_launch_pretrain_llama3_8b.sh")});
  ASSERT_TRUE(r.config_valid) << r.config.dump();
  EXPECT_EQ(r.config["model"], "llama3-8b");
  EXPECT_EQ(r.config["world_size"], 8);
  EXPECT_EQ(At(r.config, "parallelism.context_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "training.seq_len"), 8192);
  ASSERT_EQ(r.report.wanted_files.size(), 1u);
  EXPECT_EQ(r.report.wanted_files[0], "conf/my_config.yaml");
}

// Sample 09: the overrides restate Llama 3 8B's shape over the recipe's model (layers 32,
// hidden 4096, heads 32): the preset's other fields (8 KV heads, SwiGLU 14336, vocab 128256)
// stay, and the trained length is dataset.sequence_length 4096.
TEST(ImportBridgeLaunch, ArchitectureOverridesOverTheRecipeModel) {
  const ImportResult r = MustImport({Fixture("bridge_launch_mlm_migration.sh")});
  ASSERT_TRUE(r.config_valid) << r.config.dump();
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 32);
  EXPECT_EQ(At(r.config, "model.num_key_value_heads"), 8);
  EXPECT_EQ(At(r.config, "model.intermediate_size"), 14336);
  EXPECT_EQ(At(r.config, "model.vocab_size"), 128256);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);
  const Config c = MustParse(r.config.dump());
  EXPECT_EQ(CountParams(c.model, false).total, 8030261248);  // Llama 3 8B
}

// Sample 13 (issue #2974): pretrain_nemotron_3_super.py's recipe is not in the table; the
// dot-list describes the whole tiny hybrid model.
TEST(ImportBridgeLaunch, ScriptRecipeNotInTableUsesTheOverrides) {
  const ImportResult r = MustImport({Fixture("bridge_issue2974_nemotron3_super_tiny.sh")});
  ASSERT_TRUE(r.config_valid) << r.config.dump();
  EXPECT_EQ(r.config["world_size"], 1);
  EXPECT_EQ(At(r.config, "model.hybrid_override_pattern"), "MEME*ME");
  EXPECT_EQ(At(r.config, "model.hidden_size"), 128);
  EXPECT_EQ(At(r.config, "training.seq_len"), 16);
  EXPECT_TRUE(AnyContains(r.report.notes, "not in trainmem's recipe table"));
}

// Sample 12 (issue #3500): the command sits in a here-document inside $( … ): read from the
// text; EP 64 with SP at TP 1 (named), no model (the recipe is not in the table).
TEST(ImportBridgeLaunch, LaunchInsideAHereDocument) {
  Result<ImportResult> r =
      ImportFiles({Fixture("bridge_issue3500_nemotron3_super.sh")}, {}, TestPresets());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(At(r.value().config, "parallelism.expert_parallel_degree"), 64);
  EXPECT_EQ(At(r.value().config, "parallelism.tensor_parallel_degree"), 1);
  EXPECT_TRUE(Missing(r.value(), "model"));
  EXPECT_TRUE(AnyContains(r.value().report.problems, "--sequence-parallel with tensor parallel"));
}

// --- Performance harness and NeMo 2
// ----------------------------------------------------------------

// Sample 14 (issue #3597): the model, world, GPU and dtype are the command's; the layout is the
// harness's workload table, left missing.
TEST(ImportBridgeLaunch, PerfHarnessGivesModelWorldDevice) {
  Result<ImportResult> r =
      ImportFiles({Fixture("bridge_issue3597_perf_llama31_405b.sh")}, {}, TestPresets());
  ASSERT_TRUE(r.ok());
  const ImportResult& x = r.value();
  EXPECT_EQ(x.config["model"], "llama3.1-405b");
  EXPECT_EQ(x.config["world_size"], 256);
  EXPECT_EQ(x.config["device"], "gb200");
  EXPECT_TRUE(Missing(x, "parallelism.tensor_parallel_degree"));
  EXPECT_TRUE(AnyContains(x.report.problems, "NVFP4"));
  EXPECT_TRUE(IgnoredWith(x, "mixed_precision.fp4_param_gather", "precision recipe"));
  // Sample 15: a model without a preset and a GPU without a device preset.
  r = ImportFiles({Fixture("bridge_perf_harness_nemotron3_super.sh")}, {}, TestPresets());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().config["world_size"], 64);
  EXPECT_TRUE(MissingWith(r.value(), "model", "nemotron_3_super"));
}

// Sample 16: nemo llm pretrain --factory "llama3_8b(num_nodes=1)": NeMo 2's paths as Bridge's
// (trainer.strategy.* → model.*, data.* → train.* / dataset.*, model.config.* → model.*), the
// world trainer.devices × num_nodes, the shape overrides over Llama 3 8B.
TEST(ImportBridgeLaunch, Nemo2Factory) {
  const ImportResult r = MustImport({Fixture("nemo2_llm_pretrain_llama3_8b.sh")});
  ASSERT_TRUE(r.config_valid) << r.config.dump();
  EXPECT_EQ(r.config["world_size"], 1);
  EXPECT_EQ(At(r.config, "training.seq_len"), 128);
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "parallelism.context_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 1);
  EXPECT_EQ(At(r.config, "model.hidden_size"), 256);
  EXPECT_EQ(At(r.config, "model.intermediate_size"), 512);
  EXPECT_EQ(At(r.config, "model.num_key_value_heads"), 8);
  EXPECT_EQ(At(r.config, "model.vocab_size"), 128256);
  EXPECT_TRUE(Missing(r, "training.mixed_precision_param"));
  EXPECT_TRUE(IgnoredWith(r, "log.ckpt.save_optim_on_train_end", "NeMo 2 setting"));
}

// --- Override YAMLs
// ---------------------------------------------------------------------------------

// Samples 02-07 are partial ConfigContainers: Bridge configs, not FSDP2 or Trainer YAMLs; the
// other frameworks' YAMLs keep their kinds.
TEST(ImportBridgeYaml, OverrideYamlsAreBridgeConfigs) {
  for (const char* name :
       {"bridge_llama3_8b_pretrain_override_example.yaml",
        "bridge_llama32_1b_pretrain_tutorial.yaml", "bridge_quantized_llama3_8b_override.yaml",
        "bridge_qwen25_vl_pretrain_override.yaml"}) {
    const InputFile f = Fixture(name);
    EXPECT_EQ(DetectInputKind(f.name, f.text), InputKind::kMegatronBridgeYaml) << name;
    EXPECT_EQ(DetectInputKind("pasted", f.text), InputKind::kMegatronBridgeYaml) << name;
  }
  EXPECT_EQ(DetectInputKind("x.yaml", Fixture("fsdp2_moe_A3.yaml").text), InputKind::kFsdp2Yaml);
  EXPECT_EQ(DetectInputKind("x.yaml", Fixture("llamafactory_sft.yaml").text),
            InputKind::kHfTrainerYaml);
  EXPECT_EQ(DetectInputKind("x.yaml", Fixture("torchtune_8B_full.yaml").text),
            InputKind::kTorchtuneYaml);
}

// Sample 02 alone: what it states (MBS 1, sequence_length 4096), the rest missing: the model
// (its name suggests a recipe, not assumed), the precision and distributed optimizer the
// recipe would set.
TEST(ImportBridgeYaml, OverrideYamlAloneGivesWhatItStates) {
  Result<ImportResult> r =
      ImportFiles({Fixture("bridge_llama3_8b_pretrain_override_example.yaml")}, {}, TestPresets());
  ASSERT_TRUE(r.ok());
  const ImportResult& x = r.value();
  EXPECT_EQ(At(x.config, "training.local_batch_size"), 1);
  EXPECT_EQ(At(x.config, "training.seq_len"), 4096);
  EXPECT_EQ(ReadOf(x, "training.seq_len")->line, 52);
  EXPECT_TRUE(MissingWith(x, "model", "llama3_8b_pretrain_config"));
  EXPECT_FALSE(x.config.contains("model"));
  EXPECT_TRUE(Missing(x, "training.mixed_precision_param"));
  EXPECT_TRUE(Missing(x, "parallelism.zero_stage"));
  EXPECT_TRUE(Missing(x, "world_size"));
  // Sample 05 (HEAD tutorial): TP/PP/CP and dataset.seq_length as stated.
  r = ImportFiles({Fixture("bridge_llama32_1b_pretrain_tutorial.yaml")}, {}, TestPresets());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(At(r.value().config, "parallelism.tensor_parallel_degree"), 1);
  EXPECT_EQ(At(r.value().config, "training.seq_len"), 4096);
  EXPECT_EQ(ReadOf(r.value(), "training.seq_len")->line, 26);
}

// A resolved dump is the whole job: an override YAML beside it is named, not merged.
TEST(ImportBridgeYaml, DumpBeatsAnOverrideBesideIt) {
  const ImportResult r = MustImport({Fixture("bridge_llama32_1b_run_config.yaml"),
                                     Fixture("bridge_llama3_8b_pretrain_override_example.yaml")});
  EXPECT_EQ(At(r.config, "training.seq_len"), 1024);
  EXPECT_TRUE(AnyContains(r.report.problems, "already holds what it overrides"));
}

// --- Bad input: clear errors naming the key and line, never a crash
// --------------------------------
TEST(ImportBridgeLaunch, BadOverridesAreErrorsWithTheirLine) {
  const std::string run = "torchrun --nproc_per_node=8 pretrain_llama3_8b.py \\\n  ";
  std::string e = ErrorsOf({{"a.sh", run + "model.tensor_model_parallel_size=abc\n"}});
  EXPECT_NE(e.find("a.sh:2"), std::string::npos) << e;
  EXPECT_NE(e.find("model.tensor_model_parallel_size=abc"), std::string::npos) << e;
  e = ErrorsOf({{"b.sh", run + "train.global_batch_size=99999999999999\n"}});
  EXPECT_NE(e.find("train.global_batch_size"), std::string::npos) << e;
  e = ErrorsOf({{"c.sh", run + "model..num_layers=2\n"}});
  EXPECT_NE(e.find("not a Hydra override"), std::string::npos) << e;
  e = ErrorsOf(
      {{"d.sh", "python scripts/training/run_recipe.py --recipe llama3_8b_nope_config\n"}});
  EXPECT_NE(e.find("llama3_8b_nope_config"), std::string::npos) << e;
  e = ErrorsOf({{"e.sh",
                 "python scripts/training/run_recipe.py --recipe "
                 "llama3_8b_pretrain_2gpu_h100_bf16_config -tp abc\n"}});
  EXPECT_NE(e.find("-tp abc"), std::string::npos) << e;
  e = ErrorsOf({{"f.sh",
                 "python scripts/training/run_recipe.py --recipe "
                 "llama3_8b_sft_2gpu_h100_bf16_config\n"}});
  EXPECT_NE(e.find("pretraining recipes only"), std::string::npos) << e;
  // A bad number in an override YAML names its file and line.
  e = ErrorsOf({{"o.yaml", "train:\n  micro_batch_size: -1\nmodel:\n  seq_length: 4096\n"}});
  EXPECT_NE(e.find("o.yaml:2"), std::string::npos) << e;
}

}  // namespace
}  // namespace trainmem::testing
