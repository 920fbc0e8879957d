// torchtune recipe configs: the YAML with its _component_ sections, the `tune run` line in its
// header comments or in a script beside it.
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

// recipes/configs/llama3_1/8B_full.yaml as torchtune ships it: 8 devices from the header's
// `tune run --nproc_per_node 8 full_finetune_distributed`, FSDP over them, bf16 weights and
// AdamW states, full checkpointing, the chunked loss's 8 chunks, and max_seq_len null asked for.
TEST(ImportTorchtune, DistributedFullFinetune) {
  const ImportResult r = MustImport({Fixture("torchtune_8B_full.yaml")});
  ASSERT_FALSE(r.report.kinds.empty());
  EXPECT_EQ(r.report.kinds.front(), InputKind::kTorchtuneYaml);
  EXPECT_EQ(r.config["framework"], "torchtune");
  EXPECT_EQ(r.config["model"], "llama3.1-8b");
  EXPECT_EQ(r.config["world_size"], 8);
  EXPECT_EQ(At(r.config, "parallelism.data_parallel_shard_degree"), -1);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "optimizer.state_dtype"), "bfloat16");
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(r.config, "training.loss_chunks"), 8);
  EXPECT_TRUE(Missing(r, "training.seq_len"));
  EXPECT_TRUE(r.report.problems.empty()) << ImportReportToText(r.report);
  EXPECT_TRUE(At(r.config, "optimizer.early_step_in_backward").is_null());
  // optimizer_in_bwd: True steps each parameter in backward (early_step_in_backward);
  // fsdp_cpu_offload: True puts the optimizer on the host and says the shards go there too.
  std::string text = Fixture("torchtune_8B_full.yaml").text;
  text.replace(text.find("optimizer_in_bwd: False"), 23, "optimizer_in_bwd: True");
  text.replace(text.find("fsdp_cpu_offload: False"), 23, "fsdp_cpu_offload: True");
  const ImportResult bwd = MustImport({{"8B_full.yaml", text}});
  EXPECT_EQ(At(bwd.config, "optimizer.early_step_in_backward"), true);
  EXPECT_EQ(At(bwd.config, "optimizer.offload"), true);
  EXPECT_TRUE(AnyContains(bwd.report.notes, "parameter and gradient shards on the host"));
}

// recipes/configs/llama3_1/8B_lora_single_device.yaml: one device, rank-8 adapters, packed
// samples of 4096; QLoRA's NF4 base and torchao's CPUOffloadOptimizer said or read.
TEST(ImportTorchtune, LoraSingleDeviceQloraAndOffload) {
  const InputFile lora = Fixture("torchtune_8B_lora_single_device.yaml");
  const ImportResult r = MustImport({lora});
  EXPECT_EQ(r.config["world_size"], 1);
  EXPECT_EQ(At(r.config, "training.lora_rank"), 8);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
  EXPECT_TRUE(AnyContains(r.report.notes, "filled to max_seq_len"));
  EXPECT_TRUE(r.config_valid) << ImportReportToText(r.report);
  std::string qlora = lora.text;
  qlora.replace(qlora.find("lora_llama3_1_8b"), 16, "qlora_llama3_1_8b");
  qlora.replace(qlora.find("torch.optim.AdamW"), 17,
                "torchao.prototype.low_bit_optim.CPUOffloadOptimizer\n  optimizer_class: "
                "torch.optim.AdamW");
  const ImportResult q = MustImport({{"q.yaml", qlora}});
  EXPECT_EQ(q.config["model"], "llama3.1-8b");
  EXPECT_EQ(At(q.config, "training.base_quantization"), "nf4_double_quant");
  EXPECT_EQ(At(q.config, "optimizer.offload"), true);
  EXPECT_EQ(At(q.config, "optimizer.name"), "AdamW");
}

// torchtune's PPO recipes train policy_model beside a reward-and-value model: the policy is
// the model, its minibatch is ppo_batch_size / gradient_accumulation_steps, its sequences the
// prompt plus max_generated_tokens; the models the estimate leaves out are named.
TEST(ImportTorchtune, PpoTrainsThePolicyModel) {
  const ImportResult r =
      MustImport({{"ppo.yaml",
                   "# tune run ppo_full_finetune_single_device --config ppo.yaml\n"
                   "tokenizer:\n  _component_: torchtune.models.llama3_1.llama3_tokenizer\n"
                   "  max_seq_len: 512\n"
                   "policy_model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\n"
                   "reward_and_value_model:\n  _component_: torchtune.modules.classifier_model\n"
                   "batch_size: 64\nppo_batch_size: 32\ngradient_accumulation_steps: 4\n"
                   "max_generated_tokens: 58\ndtype: bf16\n"}});
  EXPECT_EQ(r.config["model"], "llama3.1-8b");
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 8);
  EXPECT_EQ(At(r.config, "training.seq_len"), 570);
  EXPECT_TRUE(AnyContains(r.report.problems, "counts the policy's training only"));
}

// A launch script beside the YAML gives the world size (and is read there, not as a Megatron
// script); a YAML without a model builder, or with a syntax error, is refused at its place.
TEST(ImportTorchtune, LaunchScriptAndRefusals) {
  const ImportResult r =
      MustImport({Fixture("torchtune_8B_full.yaml"),
                  {"run.sh",
                   "#!/bin/bash\ntune run --nnodes 1 --nproc_per_node 4 full_finetune_distributed "
                   "--config ./torchtune_8B_full.yaml\n"}});
  EXPECT_EQ(r.config["world_size"], 4);
  // The script is read by the bash reader: variables, a continued line, two nodes.
  const ImportResult nodes =
      MustImport({Fixture("torchtune_8B_full.yaml"),
                  {"run.sh",
                   "NPROC=4\ntune run --nnodes 2 --nproc_per_node $NPROC \\\n"
                   "  full_finetune_distributed --config ./torchtune_8B_full.yaml\n"}});
  EXPECT_EQ(nodes.config["world_size"], 8);
  // The launch alone asks for the recipe config it names.
  const Result<ImportResult> alone = ImportFiles(
      {{"run.sh", "tune run lora_finetune_single_device --config x.yaml\n"}}, {}, TestPresets());
  ASSERT_FALSE(alone.ok());
  EXPECT_NE(alone.errors().front().message.find("give the recipe config"), std::string::npos);
  const Result<ImportResult> none =
      ImportFiles({{"x.yaml",
                    "tokenizer:\n  _component_: torchtune.models.llama3.llama3_tokenizer\n"
                    "model:\n  name: llama\n"}},
                  {}, TestPresets());
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.errors().front().message.find("model._component_"), std::string::npos);
  const Result<ImportResult> broken = ImportFiles(
      {{"b.yaml", "model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\n  x: [1, 2\n"}},
      {}, TestPresets());
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.errors().front().path.find("b.yaml"), std::string::npos);
}

}  // namespace
}  // namespace trainmem::testing
