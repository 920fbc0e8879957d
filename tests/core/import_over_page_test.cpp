// Importing over the job a page shows (KeepPageValues): what the files do not state keeps the
// page's value; what they state replaces it. The CLI (ImportFiles alone) keeps its assumptions.
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

const KeptValue* Kept(const std::vector<KeptValue>& kept, const std::string& key) {
  for (const KeptValue& k : kept)
    if (k.key == key) return &k;
  return nullptr;
}

const ImportMissing* MissingEntry(const ImportResult& r, const std::string& key) {
  for (const ImportMissing& m : r.report.missing)
    if (m.key == key) return &m;
  return nullptr;
}

nlohmann::json PageJson(const std::string& config_json) {
  return ConfigToJson(MustParse(config_json));
}

const char* kZero2 = R"({
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 8,
  "fp16": {"enabled": true, "loss_scale": 0},
  "zero_optimization": {"stage": 2, "overlap_comm": true, "contiguous_gradients": true},
  "optimizer": {"type": "AdamW", "params": {"lr": 2e-5}}
})";

// The review's repro A: a plain ZeRO-2 JSON over Qwen2.5 7B on 16 × A100 at s 4096 used to give
// Llama 3 8B on 1 × H100 at s 2048 (does not fit).
TEST(ImportOverPage, DeepspeedJsonKeepsThePagesModelDeviceClusterAndSequence) {
  ImportResult r = MustImport({{"ds_z2.json", kZero2}});
  // Alone (the CLI), the file's gaps hold the import's assumptions.
  EXPECT_EQ(r.config["model"], kDefaultModelId);
  EXPECT_EQ(r.config["world_size"], 1);
  const nlohmann::json page = PageJson(
      R"({"model": "qwen2.5-7b", "device": "a100-80gb", "world_size": 16,
          "training": {"local_batch_size": 2, "seq_len": 4096},
          "activation_checkpoint": {"mode": "full"}})");
  const std::vector<KeptValue> kept = KeepPageValues(r, page, TestPresets());
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["model"], "qwen2.5-7b");
  EXPECT_EQ(r.config["device"], "a100-80gb");
  EXPECT_EQ(r.config["world_size"], 16);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  // What the file states replaces the page's value.
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 2);
  EXPECT_EQ(r.config["framework"], "deepspeed");
  EXPECT_EQ(Kept(kept, "training.local_batch_size"), nullptr);
  EXPECT_EQ(Kept(kept, "framework"), nullptr);
  // Each kept value is named, with what the import alone would have used.
  ASSERT_NE(Kept(kept, "model"), nullptr);
  EXPECT_EQ(Kept(kept, "model")->instead, kDefaultModelId);
  ASSERT_NE(Kept(kept, "world_size"), nullptr);
  EXPECT_EQ(Kept(kept, "world_size")->value, 16);
  ASSERT_NE(Kept(kept, "training.seq_len"), nullptr);
  ASSERT_NE(Kept(kept, "device"), nullptr);
  // The missing list still offers a field for them, now holding the page's value.
  ASSERT_NE(MissingEntry(r, "world_size"), nullptr);
  EXPECT_EQ(MissingEntry(r, "world_size")->assumed, 16);
  ASSERT_NE(MissingEntry(r, "model"), nullptr);
  EXPECT_EQ(MissingEntry(r, "model")->assumed, "qwen2.5-7b");
  // The result estimates what the page showed, not a 1-GPU job.
  Result<Config> config = ConfigFromJson(r.config, TestPresets());
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config.value().world_size, 16);
}

// Repro B: a torchtitan TOML with dp_shard -1 over an Ascend 910B torchtitan-npu page on 16
// devices used to switch to H100, torchtitan and 8 devices.
TEST(ImportOverPage, TorchtitanTomlKeepsTheNpuDeviceFrameworkAndWorldSize) {
  ImportResult r = MustImport(
      {{"titan.toml",
        "[model]\nname = \"qwen3\"\nflavor = \"30B-A3B\"\n[training]\nlocal_batch_size = 4\n"
        "seq_len = 4096\n[parallelism]\ndata_parallel_shard_degree = -1\n"
        "tensor_parallel_degree = 1\nexpert_parallel_degree = 8\n"}});
  EXPECT_EQ(r.config["world_size"], 8);  // the smallest the layout allows
  const nlohmann::json page = PageJson(
      R"({"model": "llama3-8b", "device": "ascend-910b", "framework": "torchtitan-npu",
          "world_size": 16, "training": {"local_batch_size": 2}})");
  const std::vector<KeptValue> kept = KeepPageValues(r, page, TestPresets());
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["device"], "ascend-910b");
  EXPECT_EQ(r.config["framework"], "torchtitan-npu");
  EXPECT_EQ(r.config["world_size"], 16);
  // The file names its model, batch and sequence: those are the file's.
  EXPECT_EQ(Kept(kept, "model"), nullptr);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
}

// Checkpointing the files state is theirs, whole: a TOML's selective "op" over a page on full.
TEST(ImportOverPage, StatedCheckpointingIsTheFiles) {
  ImportResult r =
      MustImport({{"titan.toml",
                   "[model]\nname = \"llama3\"\nflavor = \"8B\"\n[activation_checkpoint]\n"
                   "mode = \"selective\"\nselective_ac_option = \"op\"\n"}});
  const nlohmann::json page =
      PageJson(R"({"model": "llama3-8b", "activation_checkpoint": {"mode": "full"}})");
  const std::vector<KeptValue> kept = KeepPageValues(r, page, TestPresets());
  EXPECT_EQ(Kept(kept, "activation_checkpoint"), nullptr);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "selective");
  EXPECT_EQ(At(r.config, "activation_checkpoint.selective_ac_option"), "op");
}

// A page value the files' layout cannot take is not kept (TP 8 over 4 devices), and a device the
// files hint at is theirs.
TEST(ImportOverPage, KeepsOnlyValuesTheFilesCanTake) {
  ImportResult r = MustImport({{"titan.toml",
                                "[model]\nname = \"llama3\"\nflavor = "
                                "\"8B\"\n[parallelism]\ntensor_parallel_degree = 8\n"}});
  const nlohmann::json page =
      PageJson(R"({"model": "llama3-8b", "device": "a100-80gb", "world_size": 4})");
  const std::vector<KeptValue> kept = KeepPageValues(r, page, TestPresets());
  EXPECT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["world_size"], 8);
  EXPECT_EQ(Kept(kept, "world_size"), nullptr);
  EXPECT_EQ(r.config["device"], "a100-80gb");

  ImportResult npu =
      MustImport({{"run.sh",
                   "export HCCL_CONNECT_TIMEOUT=1200\nsource /usr/local/Ascend/set_env.sh\n"
                   "torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 "
                   "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 "
                   "--micro-batch-size 1 --ffn-hidden-size 14336 --max-position-embeddings 4096 "
                   "--padded-vocab-size 128256\n"}});
  ASSERT_NE(MissingEntry(npu, "device"), nullptr);
  const nlohmann::json assumed = MissingEntry(npu, "device")->assumed;
  ASSERT_NE(assumed, kDefaultDeviceId);
  KeepPageValues(npu, page, TestPresets());
  EXPECT_EQ(npu.config["device"], assumed);
}

// A comment that names the H100 is a hint like any other: "sized for 32 H100 GPUs" over an A100
// page gave A100s, because an H100 assumption was taken for the import's default.
TEST(ImportOverPage, ACommentsH100IsTheFiles) {
  ImportResult r =
      MustImport({{"job.toml",
                   "# sized for 32 H100 GPUs\n[model]\nname = \"llama3\"\nflavor = \"8B\"\n"
                   "[parallelism]\ndata_parallel_shard_degree = -1\n"}});
  ASSERT_NE(MissingEntry(r, "device"), nullptr);
  EXPECT_TRUE(MissingEntry(r, "device")->hinted);
  const nlohmann::json page = PageJson(R"({"model": "llama3-8b", "device": "a100-80gb"})");
  const std::vector<KeptValue> kept = KeepPageValues(r, page, TestPresets());
  EXPECT_EQ(r.config["device"], kDefaultDeviceId);
  EXPECT_EQ(Kept(kept, "device"), nullptr);
}

// The device count the comment states is the files' as well: "sized for 32 H100 GPUs" over a
// page on 8 devices estimates 32, not the page's 8 (which had been kept, though the H100 was
// not). A job file with no comment still takes the page's count.
TEST(ImportOverPage, ACommentsDeviceCountIsTheFiles) {
  const std::string job =
      "[model]\nname = \"llama3\"\nflavor = \"8B\"\n"
      "[parallelism]\ndata_parallel_shard_degree = -1\n";
  const nlohmann::json page = PageJson(R"({"model": "llama3-8b", "world_size": 8})");
  ImportResult commented = MustImport({{"job.toml", "# sized for 32 H100 GPUs\n" + job}});
  ASSERT_NE(MissingEntry(commented, "world_size"), nullptr);
  EXPECT_TRUE(MissingEntry(commented, "world_size")->hinted);
  const std::vector<KeptValue> kept = KeepPageValues(commented, page, TestPresets());
  EXPECT_EQ(commented.config["world_size"], 32);
  EXPECT_EQ(Kept(kept, "world_size"), nullptr);
  ImportResult bare = MustImport({{"job.toml", job}});
  KeepPageValues(bare, page, TestPresets());
  EXPECT_EQ(bare.config["world_size"], 8);
}

// A Megatron launch that sources its model flags from a file not given: the import alone lists
// "config: model: required"; over a page whose model is kept, that error is gone and the list
// names the kept config's own (EP 16 over a dense model), once.
TEST(ImportOverPage, ProblemsNameTheKeptConfigsErrors) {
  const std::string script =
      "NPUS_PER_NODE=16\nNNODES=4\nsource ./examples/model_args_moe.sh\n"
      "torchrun --nproc_per_node $NPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py "
      "--tensor-model-parallel-size 1 --pipeline-model-parallel-size 4 "
      "--expert-model-parallel-size 16 --micro-batch-size 1 --global-batch-size 256 "
      "--seq-length 4096 --bf16 $MODEL_ARGS\n";
  const auto config_problems = [](const ImportResult& r) {
    std::vector<std::string> out;
    for (const std::string& p : r.report.problems)
      if (p.rfind(kConfigProblemPrefix, 0) == 0) out.push_back(p);
    return out;
  };
  ImportResult dense = MustImport({{"run.sh", script}});
  ASSERT_FALSE(config_problems(dense).empty());
  EXPECT_NE(config_problems(dense)[0].find("model"), std::string::npos);
  KeepPageValues(dense, PageJson(R"({"model": "llama3-8b", "world_size": 8})"), TestPresets());
  ASSERT_FALSE(dense.config_valid);
  ASSERT_EQ(config_problems(dense).size(), dense.config_errors.size());
  for (const std::string& p : config_problems(dense))
    EXPECT_EQ(p.find("model: required"), std::string::npos) << p;
  EXPECT_NE(config_problems(dense)[0].find("expert_parallel_degree"), std::string::npos);

  ImportResult moe = MustImport({{"run.sh", script}});
  KeepPageValues(moe, PageJson(R"({"model": "qwen3-30b-a3b", "world_size": 8})"), TestPresets());
  EXPECT_TRUE(moe.config_valid);
  EXPECT_TRUE(config_problems(moe).empty());
}

}  // namespace
}  // namespace trainmem::testing
