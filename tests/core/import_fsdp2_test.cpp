// MindSpeed-LLM's FSDP2 trainer (train_fsdp2.py): its YAML job file and the launch script's
// --section.key overrides.
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

TEST(ImportFsdp2, LaunchScriptWithItsYaml) {
  const ImportResult r = MustImport({Fixture("fsdp2_moe_A3.sh"), Fixture("fsdp2_moe_A3.yaml")});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(r.config["framework"], "torchtitan-npu");
  EXPECT_EQ(r.config["world_size"], 32);          // NPUS_PER_NODE 16 × NNODES 2
  EXPECT_EQ(r.config["model"], "qwen3-30b-a3b");  // model_name_or_path /ckpt/Qwen3-30B-A3B/
  EXPECT_EQ(r.config["device"], "ascend-910c");   // "_A3" in the file name
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 8);
  EXPECT_EQ(At(r.config, "parallelism.data_parallel_shard_degree"), -1);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);
  // --data.cutoff_len=8192 on the command line wins over the YAML's 4096, at its own line.
  EXPECT_EQ(At(r.config, "training.seq_len"), 8192);
  EXPECT_EQ(ReadLine(r, "training.seq_len"), 10);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(r.config, "parallelism.fsdp_reshard_after_forward"), "never");
  EXPECT_EQ(At(r.config, "training.attention"), "flash");   // a bare boolean flag is true
  EXPECT_EQ(ReadLine(r, "training.local_batch_size"), 24);  // the YAML's line
  // ep 8 × ep_fsdp 4 = 32 ranks = the world: experts are not replicated, no problem.
  EXPECT_TRUE(r.report.problems.empty()) << ImportReportToText(r.report);
  EXPECT_TRUE(AnyContains(r.report.notes, "gradient_accumulation_steps 4"));
  EXPECT_TRUE(AnyContains(r.report.notes, "reduce_dtype bf16"));
  bool lr_ignored = false;
  for (const ImportIgnored& i : r.report.ignored) lr_ignored |= i.key == "training: lr";
  EXPECT_TRUE(lr_ignored);
}

TEST(ImportFsdp2, YamlAloneTakesTheWorldFromFsdpSizeAndTheTrainersDefaults) {
  const ImportResult r = MustImport({{"job.yaml",
                                      "model:\n"
                                      "  model_name_or_path: ./weights/Qwen3-14B/\n"
                                      "parallel:\n"
                                      "  fsdp_size: 8\n"
                                      "training:\n"
                                      "  stage: pt\n"}});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(r.report.kinds.front(), InputKind::kFsdp2Yaml);
  EXPECT_EQ(r.config["world_size"], 8);  // train_fsdp2.py requires fsdp_size = world size
  // TrainingArguments' per_device_train_batch_size is 8; DataArguments' cutoff_len 2048.
  EXPECT_TRUE(Missing(r, "training.local_batch_size"));
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 8);
  EXPECT_TRUE(Missing(r, "training.seq_len"));
  EXPECT_EQ(At(r.config, "training.seq_len"), 2048);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "none");  // recompute defaults False
  // reshard_after_forward defaults True for every unit, the head's included.
  EXPECT_EQ(At(r.config, "parallelism.fsdp_reshard_after_forward"), "always");
  EXPECT_EQ(At(r.config, "training.attention"), "sdpa");  // use_flash_attn False
  // Qwen3-14B from the directory's name: 40 layers of dim 5120 (40 heads, 8 KV heads of 128,
  // q/k norms), SwiGLU 17408, vocab 151936 untied:
  //   layer = 2·5120·5120 + 2·5120·1024 + 2·128 + 3·5120·17408 + 2·5120 = 330,311,936
  //   total = 40·layer + 2·151936·5120 + 5120 = 14,768,307,200 (the published count).
  const Config c = MustParse(r.config.dump());
  EXPECT_EQ(CountParams(c.model, false).total, 14768307200);
}

TEST(ImportFsdp2, NamesWhatTheTrainerRefusesOrTheEstimateMisses) {
  const std::string yaml =
      "parallel:\n  fsdp_size: 16\n  ep_size: 4\n  recompute: true\n"
      "training:\n  per_device_train_batch_size: 1\n"
      "model:\n  model_name_or_path: /w/Qwen3-30B-A3B\n";
  const std::string script =
      "torchrun --nproc_per_node 16 --nnodes 2 train_fsdp2.py cfg/moe.yaml "
      "--parallel.recompute=f\n";
  const ImportResult r = MustImport({{"run.sh", script}, {"moe.yaml", yaml}});
  // fsdp_size 16 on 32 devices: the trainer stops.
  EXPECT_TRUE(AnyContains(r.report.problems, "fsdp_size = world size"));
  // ep 4 × ep_fsdp 1 = 4 of 32 ranks: each expert shard is kept by 8 ranks.
  EXPECT_TRUE(AnyContains(r.report.problems, "replicated 8 times"));
  // "--parallel.recompute=f" overrides the YAML's true.
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "none");
}

TEST(ImportFsdp2, YamlNotGivenIsNamedAndTheCommandLineIsStillRead) {
  const ImportResult r =
      MustImport({{"run.sh",
                   "torchrun --nproc_per_node 8 train_fsdp2.py examples/fsdp2/job.yaml "
                   "--parallel.fsdp_size 8 --training.per_device_train_batch_size 4 "
                   "--model.model_name_or_path /m/Qwen3-8B\n"}});
  EXPECT_TRUE(AnyContains(r.report.problems, "examples/fsdp2/job.yaml, which was not given"));
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);
  EXPECT_EQ(r.config["model"], "qwen3-8b");
}

// MindSpeed-LLM's FSDP2 launch scripts end the argument list with "$@": with no positional
// parameters bash passes no word there, so the flag before it keeps its one value (it read as
// ["True", ""], "not true or false", and the attention fell back to sdpa).
TEST(ImportFsdp2, QuotedAllArgumentsAddsNoWord) {
  const ImportResult r =
      MustImport({{"run.sh",
                   "torchrun --nproc_per_node 8 train_fsdp2.py \\\n"
                   "    --parallel.fsdp_size 8 --model.model_name_or_path /m/Qwen3-8B \\\n"
                   "    --optimization.use_flash_attn True \\\n"
                   "    \"$@\" \\\n"
                   "    2>&1 | tee log.txt\n"}});
  EXPECT_EQ(At(r.config, "training.attention"), "flash");
  EXPECT_FALSE(AnyContains(r.report.problems, "not true or false")) << ImportReportToText(r.report);
  // The other spellings of an empty list: a redirection straight after it, a slice, an array
  // built from "$@". "$@x" is the word x, so the flag then holds two values.
  for (const char* tail : {"\"$@\">log.txt", "\"${@:2}\"", "\"${ARGS[@]}\""}) {
    const ImportResult v = MustImport(
        {{"run.sh", std::string("ARGS=(\"$@\")\ntorchrun --nproc_per_node 8 train_fsdp2.py "
                                "--parallel.fsdp_size 8 --model.model_name_or_path /m/Qwen3-8B "
                                "--optimization.use_flash_attn True ") +
                        tail + "\n"}});
    EXPECT_EQ(At(v.config, "training.attention"), "flash") << tail;
  }
  const ImportResult x =
      MustImport({{"run.sh",
                   "torchrun --nproc_per_node 8 train_fsdp2.py --parallel.fsdp_size 8 "
                   "--model.model_name_or_path /m/Qwen3-8B --optimization.use_flash_attn True "
                   "\"$@x\"\n"}});
  EXPECT_TRUE(AnyContains(x.report.problems, "not true or false"));
}

TEST(ImportFsdp2, ABrokenYamlStopsTheImportAndAnUnnamedOneIsReported) {
  const InputFile script{"run.sh",
                         "torchrun --nproc_per_node 8 train_fsdp2.py cfg/job.yaml "
                         "--parallel.fsdp_size 8 --model.model_name_or_path /m/Qwen3-8B\n"};
  // The YAML the script names does not parse: nothing is imported, and the error says where.
  Result<ImportResult> broken = ImportFiles(
      {script, {"job.yaml", "parallel:\n  recompute: true\n  fsdp_size: [8\n"}}, {}, TestPresets());
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.errors()[0].path.rfind("job.yaml line ", 0), 0u) << broken.errors()[0].path;
  // A second YAML beside it is not the job's: said so, not merged.
  const ImportResult r =
      MustImport({script,
                  {"job.yaml", "training:\n  per_device_train_batch_size: 2\n"},
                  {"other.yaml", "training:\n  per_device_train_batch_size: 64\n"}});
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);
  EXPECT_TRUE(AnyContains(r.report.problems, "other.yaml: not read"));
  EXPECT_FALSE(AnyContains(r.report.problems, "job.yaml: not read"));
}

TEST(ImportFsdp2, InferenceAndOtherYamlAreRefusedClearly) {
  Result<ImportResult> chat = ImportFiles(
      {{"chat.sh",
        "torchrun --nproc_per_node 8 inference_fsdp2.py x.yaml --parallel.fsdp_size 8\n"}},
      {}, TestPresets());
  ASSERT_FALSE(chat.ok());
  EXPECT_NE(chat.errors()[0].message.find("holds no training job"), std::string::npos);
  Result<ImportResult> flat =
      ImportFiles({{"compose.yaml", "services:\n  web:\n    image: nginx\n"}}, {}, TestPresets());
  ASSERT_FALSE(flat.ok());
  EXPECT_NE(flat.errors()[0].message.find("MindSpeed-LLM's FSDP2"), std::string::npos);
  EXPECT_NE(flat.errors()[0].message.find("LLaMA-Factory"), std::string::npos);
  Result<ImportResult> broken =
      ImportFiles({{"bad.yaml", "parallel:\n  fsdp_size: [8\n"}}, {}, TestPresets());
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.errors()[0].path.find("line"), std::string::npos);
}

}  // namespace
}  // namespace trainmem::testing
