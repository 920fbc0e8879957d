// Jobs run by the Hugging Face Trainer: DeepSpeed launch scripts with TrainingArguments,
// LLaMA-Factory's YAML, accelerate configs.
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

const char* kDeepspeedLaunch = R"(#!/bin/bash
# Full fine-tuning with ZeRO-3 through the Hugging Face Trainer.
deepspeed --num_gpus 8 --num_nodes 2 train.py \
  --deepspeed configs/ds_z3.json \
  --model_name_or_path meta-llama/Llama-3.1-8B \
  --per_device_train_batch_size 2 \
  --gradient_accumulation_steps 8 \
  --model_max_length 4096 \
  --bf16 True \
  --gradient_checkpointing \
  --optim adamw_torch_fused \
  --output_dir out
)";

// The "auto" values the Trainer fills in (train_micro_batch_size_per_gpu, bf16.enabled).
const char* kZero3Auto = R"({
  "bf16": {"enabled": "auto"},
  "zero_optimization": {"stage": 3, "overlap_comm": true},
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto"
})";

TEST(ImportHfTrainer, DeepspeedLaunchFillsTheJsonsAutoValues) {
  const ImportResult r = MustImport({{"sft.sh", kDeepspeedLaunch}, {"ds_z3.json", kZero3Auto}});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(r.config["framework"], "deepspeed");
  EXPECT_EQ(r.config["world_size"], 16);  // --num_gpus 8 × --num_nodes 2
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);  // "auto" ← the Trainer's argument
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);  // --model_max_length
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(r.config, "optimizer.name"), "AdamW");
  EXPECT_EQ(r.config["model"], "llama3.1-8b");
  EXPECT_EQ(ReadLine(r, "training.local_batch_size"), 6);
  EXPECT_TRUE(r.report.missing.size() <= 1) << ImportReportToText(r.report);  // the device only
  for (const ImportMissing& m : r.report.missing) EXPECT_EQ(m.key, "device");
  // The JSON was read once, as the Trainer's DeepSpeed config.
  int frameworks = 0;
  for (const ImportRead& x : r.report.read) frameworks += x.key == "framework";
  EXPECT_EQ(frameworks, 1);
}

// How the optimizer steps: transformers' adamw_torch is torch.optim.AdamW's foreach path,
// adamw_torch_fused one kernel; a DeepSpeed "optimizer"
// block is DeepSpeed's FusedAdam whatever --optim says (the block wins), unless it asks for
// torch_adam.
TEST(ImportHfTrainer, OptimizerImplementationFollowsTheOptimizerThatSteps) {
  auto launch = [](const std::string& optim) {
    return "torchrun --nproc_per_node 8 train.py --deepspeed ds.json --model_name_or_path "
           "Qwen/Qwen3-8B --max_seq_length 1024 --bf16 true --optim " +
           optim + "\n";
  };
  const ImportResult foreach_run =
      MustImport({{"run.sh", launch("adamw_torch")}, {"ds.json", kZero3Auto}});
  EXPECT_EQ(At(foreach_run.config, "optimizer.implementation"), "foreach");
  const ImportResult fused_run =
      MustImport({{"run.sh", launch("adamw_torch_fused")}, {"ds.json", kZero3Auto}});
  EXPECT_EQ(At(fused_run.config, "optimizer.implementation"), "fused");
  const ImportResult block = MustImport(
      {{"run.sh", launch("adamw_torch")},
       {"ds.json", R"({"zero_optimization": {"stage": 2}, "optimizer": {"type": "AdamW"}})"}});
  EXPECT_EQ(At(block.config, "optimizer.implementation"), "fused");
  const ImportResult torch_adam = MustImport({{"run.sh", launch("adamw_torch_fused")},
                                              {"ds.json",
                                               R"({"zero_optimization": {"stage": 2},
            "optimizer": {"type": "AdamW", "params": {"torch_adam": true}}})"}});
  EXPECT_EQ(At(torch_adam.config, "optimizer.implementation"), "foreach");
}

TEST(ImportHfTrainer, TrainerDefaultsWhenTheArgumentsAreAbsent) {
  // No batch, no bf16, no checkpointing: TrainingArguments' defaults (8, fp32, off).
  const ImportResult r = MustImport({{"run.sh",
                                      "torchrun --nproc_per_node 4 finetune.py --deepspeed ds.json "
                                      "--model_name_or_path Qwen/Qwen3-8B --max_seq_length 1024\n"},
                                     {"ds.json", kZero3Auto}});
  EXPECT_EQ(r.config["world_size"], 4);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 8);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "float32");  // bf16 "auto" → off
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "none");
  EXPECT_EQ(r.config["model"], "qwen3-8b");
}

TEST(ImportHfTrainer, LlamaFactoryYamlWithTheDeepspeedConfigItNames) {
  const std::string yaml =
      "### model\n"
      "model_name_or_path: Qwen/Qwen3-8B\n"
      "### method\n"
      "stage: sft\n"
      "do_train: true\n"
      "deepspeed: examples/deepspeed/ds_z2_offload_config.json\n"
      "### dataset\n"
      "cutoff_len: 8192\n"
      "### train\n"
      "per_device_train_batch_size: 4\n"
      "bf16: true\n";
  // Without the JSON: ZeRO-2 and the optimizer offload from its name, said so.
  const ImportResult named = MustImport({{"qwen3_lora_sft.yaml", yaml}});
  ASSERT_TRUE(named.config_valid) << ImportReportToText(named.report);
  EXPECT_EQ(named.report.kinds.front(), InputKind::kHfTrainerYaml);
  EXPECT_EQ(At(named.config, "parallelism.zero_stage"), 2);
  EXPECT_EQ(At(named.config, "optimizer.offload"), true);
  EXPECT_TRUE(AnyContains(named.report.problems, "was not given"));
  // LLaMA-Factory's defaults: LoRA of rank 8, every layer checkpointed.
  EXPECT_EQ(At(named.config, "training.lora_rank"), 8);
  EXPECT_EQ(At(named.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(named.config, "training.seq_len"), 8192);
  EXPECT_EQ(At(named.config, "training.local_batch_size"), 4);
  // With the JSON (stage 1 inside, whatever the name says): the file decides.
  const ImportResult given =
      MustImport({{"qwen3_lora_sft.yaml", yaml},
                  {"ds_z2_offload_config.json", R"({"zero_optimization": {"stage": 1}})"}});
  EXPECT_EQ(At(given.config, "parallelism.zero_stage"), 1);
  EXPECT_FALSE(AnyContains(given.report.problems, "was not given"));
}

// A multimodal model (the qwen3-vl-4b preset: a 415,347,712-parameter tower) in a LLaMA-Factory
// job: the tower is loaded frozen unless freeze_vision_tower is false; a plain Trainer script
// trains every parameter; a text-only model gets no vision setting.
TEST(ImportHfTrainer, LlamaFactoryVisionTowerFrozenOrTrained) {
  const std::string vl =
      "model_name_or_path: Qwen/Qwen3-VL-4B-Instruct\n"
      "stage: sft\n"
      "finetuning_type: full\n"
      "cutoff_len: 2048\n"
      "per_device_train_batch_size: 1\n"
      "bf16: true\n";
  const ImportResult by_default = MustImport({{"qwen3vl_full_sft.yaml", vl}});
  EXPECT_EQ(by_default.config["model"], "qwen3-vl-4b");
  EXPECT_EQ(At(by_default.config, "training.vision_tower"), "frozen");
  const ImportResult unfrozen =
      MustImport({{"qwen3vl_full_sft.yaml", vl + "freeze_vision_tower: false\n"}});
  EXPECT_EQ(At(unfrozen.config, "training.vision_tower"), "trained");
  const ImportResult trainer = MustImport(
      {{"run.sh",
        "torchrun --nproc_per_node 8 train.py --model_name_or_path Qwen/Qwen3-VL-8B-Instruct "
        "--per_device_train_batch_size 1 --bf16 True\n"}});
  EXPECT_EQ(trainer.config["model"], "qwen3-vl-8b");
  EXPECT_EQ(At(trainer.config, "training.vision_tower"), "trained");
  const ImportResult text =
      MustImport({{"sft.yaml",
                   "model_name_or_path: Qwen/Qwen3-8B\nstage: sft\nfreeze_vision_tower: "
                   "false\n"}});
  EXPECT_EQ(At(text.config, "training.vision_tower"), nullptr);
  // A checkpoint name that maps to a torchtitan flavor with a built-in encoder (Qwen3.5) is
  // frozen by LLaMA-Factory's flags, and no note says it trains.
  const ImportResult q35 =
      MustImport({{"q35.yaml", "model_name_or_path: Qwen/Qwen3.5-27B\nstage: sft\nbf16: true\n"}});
  EXPECT_EQ(At(q35.config, "training.vision_tower"), "frozen");
  EXPECT_FALSE(AnyContains(q35.report.notes, "trains"));
}

TEST(ImportHfTrainer, WithoutDeepspeedTheTrainersFsdpOrDdp) {
  const ImportResult fsdp =
      MustImport({{"run.sh",
                   "torchrun --nproc_per_node 8 train.py --fsdp \"full_shard auto_wrap\" --bf16 "
                   "--per_device_train_batch_size 1 --block_size 2048 --model_name_or_path "
                   "meta-llama/Llama-3.1-8B\n"}});
  EXPECT_EQ(fsdp.config["framework"], "deepspeed");
  EXPECT_EQ(At(fsdp.config, "parallelism.zero_stage"), 3);
  EXPECT_TRUE(AnyContains(fsdp.report.notes, "estimated as DeepSpeed ZeRO-3"));
  const ImportResult ddp = MustImport(
      {{"run.sh",
        "torchrun --nproc_per_node 8 train.py --per_device_train_batch_size 1 --block_size 2048 "
        "--model_name_or_path meta-llama/Llama-3.1-8B\n"}});
  EXPECT_EQ(At(ddp.config, "parallelism.zero_stage"), 0);
}

TEST(ImportHfTrainer, AccelerateConfigGivesTheWorldAndSharding) {
  const std::string accelerate =
      "compute_environment: LOCAL_MACHINE\n"
      "distributed_type: DEEPSPEED\n"
      "deepspeed_config:\n"
      "  zero_stage: 3\n"
      "  offload_optimizer_device: cpu\n"
      "mixed_precision: bf16\n"
      "num_machines: 4\n"
      "num_processes: 32\n";
  const ImportResult r = MustImport(
      {{"launch.sh",
        "accelerate launch --config_file zero3.yaml sft.py --per_device_train_batch_size 1 "
        "--max_seq_length 4096 --model_name_or_path meta-llama/Llama-3.1-70B\n"},
       {"zero3.yaml", accelerate}});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(r.config["world_size"], 32);  // accelerate's num_processes counts every machine's
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(r.config, "optimizer.offload"), true);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(r.config["model"], "llama3.1-70b");
}

TEST(ImportHfTrainer, PreferenceStagesAndQuantizationAreNamed) {
  const ImportResult full =
      MustImport({{"dpo.yaml",
                   "model_name_or_path: Qwen/Qwen3-8B\nstage: dpo\nfinetuning_type: full\n"
                   "per_device_train_batch_size: 1\ncutoff_len: 2048\nbf16: true\n"}});
  EXPECT_TRUE(AnyContains(full.report.problems, "reference copy"));
  EXPECT_TRUE(At(full.config, "training.lora_rank").is_null());
  const ImportResult qlora = MustImport(
      {{"dpo.yaml",
        "model_name_or_path: Qwen/Qwen3-8B\nstage: dpo\nlora_rank: 64\nquantization_bit: 4\n"
        "per_device_train_batch_size: 1\ncutoff_len: 2048\n"}});
  EXPECT_EQ(At(qlora.config, "training.lora_rank"), 64);
  EXPECT_TRUE(AnyContains(qlora.report.notes, "LoRA adapters off"));
  // quantization_bit 4 with LLaMA-Factory's defaults (bnb, nf4, double_quantization true).
  EXPECT_EQ(At(qlora.config, "training.base_quantization"), "nf4_double_quant");
}

// QLoRA as each tool writes it: LLaMA-Factory's quantization_bit 8 and double_quantization
// false, TRL's load_in_4bit with use_bnb_nested_quant, a plain load_in_8bit, FastChat's q_lora;
// a method bitsandbytes is not (hqq) is named and left unquantized.
TEST(ImportHfTrainer, QuantizedBaseFromEachToolsKeys) {
  auto quant = [](const std::string& keys) {
    const ImportResult r = MustImport({{"job.yaml",
                                        "model_name_or_path: Qwen/Qwen3-8B\nfinetuning_type: lora\n"
                                        "per_device_train_batch_size: 1\ncutoff_len: 2048\n" +
                                            keys}});
    return std::make_pair(At(r.config, "training.base_quantization"), r.report.problems);
  };
  EXPECT_EQ(quant("quantization_bit: 8\n").first, "int8");
  EXPECT_EQ(quant("quantization_bit: 4\ndouble_quantization: false\n").first, "nf4");
  EXPECT_EQ(quant("load_in_4bit: true\nuse_bnb_nested_quant: true\n").first, "nf4_double_quant");
  EXPECT_EQ(quant("load_in_4bit: true\n").first, "nf4");
  EXPECT_EQ(quant("load_in_8bit: true\n").first, "int8");
  const auto hqq = quant("quantization_bit: 4\nquantization_method: hqq\n");
  EXPECT_TRUE(hqq.first.is_null());
  EXPECT_TRUE(AnyContains(hqq.second, "quantization_method hqq"));
  const ImportResult fastchat =
      MustImport({{"run.sh",
                   "deepspeed fastchat/train/train_lora.py --model_name_or_path "
                   "meta-llama/Llama-3.1-8B --lora_r 8 --q_lora True "
                   "--per_device_train_batch_size 1 --model_max_length 2048 --bf16 True\n"}});
  EXPECT_EQ(At(fastchat.config, "training.base_quantization"), "nf4_double_quant");
}

// DeepSpeed-Chat: a bare --deepspeed flag, the stage and offload as the script's own arguments.
TEST(ImportHfTrainer, BareDeepspeedFlagWithZeroStage) {
  const ImportResult r =
      MustImport({{"run.sh",
                   "deepspeed main.py --model_name_or_path meta-llama/Llama-3.1-8B "
                   "--per_device_train_batch_size 4 --max_seq_len 512 --zero_stage 2 --offload "
                   "--gradient_checkpointing --deepspeed --output_dir out\n"}});
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 2);
  EXPECT_EQ(At(r.config, "optimizer.offload"), true);
  EXPECT_EQ(At(r.config, "training.seq_len"), 512);
  EXPECT_FALSE(AnyContains(r.report.problems, "was not given"));
}

// DeepSpeed-Chat's main.py defaults (--dtype fp16, batch 16, --max_seq_len 512) and step 3's
// per-model arguments.
TEST(ImportHfTrainer, DeepspeedChatDefaultsAndStep3) {
  const ImportResult step1 =
      MustImport({{"run.sh",
                   "deepspeed main.py --model_name_or_path facebook/opt-1.3b --zero_stage 2 "
                   "--deepspeed --output_dir out\n"}});
  EXPECT_EQ(At(step1.config, "training.mixed_precision_param"), "float16");
  EXPECT_EQ(At(step1.config, "training.local_batch_size"), 16);
  EXPECT_EQ(At(step1.config, "training.seq_len"), 512);
  const ImportResult step3 = MustImport(
      {{"run.sh",
        "deepspeed --master_port 12346 main.py --actor_model_name_or_path "
        "meta-llama/Llama-2-7b-hf --critic_model_name_or_path x --actor_zero_stage 3 "
        "--critic_zero_stage 3 --per_device_training_batch_size 1 --max_prompt_seq_len 256 "
        "--max_answer_seq_len 256 --actor_gradient_checkpointing --deepspeed\n"}});
  EXPECT_EQ(At(step3.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(step3.config, "training.local_batch_size"), 1);
  EXPECT_EQ(At(step3.config, "training.seq_len"), 512);  // prompt 256 + answer 256
  EXPECT_EQ(At(step3.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(step3.config["model"], "llama2-7b");
  EXPECT_TRUE(AnyContains(step3.report.problems, "the critic, the reference and the reward"));
  EXPECT_TRUE(AnyContains(step1.report.notes, "pads every sample to max_seq_len"));
  // Step 2 (DeepSpeedExamples' committed reward-model run, opt-350m on 16 × V100): its
  // --num_padding_at_beginning marks the reward model, whose batch holds each pair's chosen and
  // rejected answers: 4 pairs run 8 sequences of 512.
  const ImportResult step2 = MustImport(
      {{"run.sh",
        "deepspeed main.py --data_path Dahoas/rm-static --model_name_or_path facebook/opt-350m "
        "--num_padding_at_beginning 1 --per_device_train_batch_size 4 --max_seq_len 512 "
        "--zero_stage 0 --deepspeed --output_dir ./output\n"}});
  EXPECT_EQ(At(step2.config, "training.local_batch_size"), 8);
  EXPECT_EQ(At(step2.config, "training.seq_len"), 512);
  EXPECT_TRUE(AnyContains(step2.report.notes, "one-wide value head"));
  EXPECT_FALSE(AnyContains(step1.report.notes, "value head"));
}

// Arguments in a file the launch names: accelerate + TRL's --config, LLaMA-Factory's positional
// YAML, HfArgumentParser's JSON (Firefly's --train_args_file).
TEST(ImportHfTrainer, ArgumentsFileNamedByTheLaunch) {
  const std::string recipe =
      "model_name_or_path: mistralai/Mistral-7B-v0.1\n"
      "bf16: true\ngradient_checkpointing: true\nmax_seq_length: 2048\n"
      "per_device_train_batch_size: 16\n";
  const std::string zero3 =
      "distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\nnum_processes: 8\n";
  const ImportResult trl = MustImport(
      {{"run.sh",
        "ACCELERATE_LOG_LEVEL=info accelerate launch --config_file zero3.yaml scripts/sft.py "
        "--config config_full.yaml\n"},
       {"zero3.yaml", zero3},
       {"config_full.yaml", recipe}});
  ASSERT_TRUE(trl.config_valid) << ImportReportToText(trl.report);
  EXPECT_EQ(trl.config["world_size"], 8);
  EXPECT_EQ(At(trl.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(trl.config, "training.local_batch_size"), 16);
  EXPECT_EQ(At(trl.config, "training.seq_len"), 2048);
  EXPECT_EQ(trl.config["model"], "mistral-7b-v0.1");
  EXPECT_TRUE(trl.report.problems.empty()) << ImportReportToText(trl.report);
  // llamafactory-cli with the arguments on the command line; Qwen3-4B-Instruct-2507 is the
  // Qwen3 4B preset's shape (36 layers of 2560, tied embeddings), found by name.
  const ImportResult cli = MustImport(
      {{"run.sh",
        "llamafactory-cli train --model_name_or_path Qwen/Qwen3-4B-Instruct-2507 --stage sft "
        "--finetuning_type lora --lora_rank 16 --cutoff_len 1024 --per_device_train_batch_size 2 "
        "--bf16\n"}});
  ASSERT_TRUE(cli.config_valid) << ImportReportToText(cli.report);
  EXPECT_EQ(At(cli.config, "training.lora_rank"), 16);
  EXPECT_EQ(cli.config["model"], "qwen3-4b");
  // A TrainingArguments JSON is not a DeepSpeed config, though it has
  // gradient_accumulation_steps; its own "deepspeed" names the one that is.
  const ImportResult json =
      MustImport({{"run.sh", "deepspeed --num_gpus 8 train.py --train_args_file args/sft.json\n"},
                  {"sft.json",
                   R"({"model_name_or_path": "Qwen/Qwen3-8B", "deepspeed": "./ds_z3.json",
            "per_device_train_batch_size": 1, "gradient_accumulation_steps": 16,
            "max_seq_length": 1024, "fp16": true, "use_lora": true, "lora_r": 64})"},
                  {"ds_z3.json", kZero3Auto}});
  EXPECT_EQ(json.report.kinds[1], InputKind::kHfTrainerJson);
  EXPECT_EQ(json.config["model"], "qwen3-8b");
  EXPECT_EQ(At(json.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(json.config, "training.mixed_precision_param"), "float16");
  EXPECT_EQ(At(json.config, "training.lora_rank"), 64);
  EXPECT_EQ(At(json.config, "training.seq_len"), 1024);
}

TEST(ImportHfTrainer, OffloadBareDeepspeedAndPreferencePairs) {
  const ImportResult fsdp =
      MustImport({{"run.sh",
                   "torchrun --nproc_per_node 8 train.py --fsdp \"full_shard auto_wrap offload\" "
                   "--model_name_or_path meta-llama/Llama-3.1-8B --per_device_train_batch_size 1 "
                   "--model_max_length 2048 --bf16 True\n"}});
  EXPECT_EQ(At(fsdp.config, "optimizer.offload"), true);
  // --deepspeed with no path ($VAR unset): the one DeepSpeed JSON given is the config.
  const ImportResult bare = MustImport(
      {{"run.sh",
        "torchrun --nproc_per_node 4 train.py --deepspeed --model_name_or_path Qwen/Qwen3-8B "
        "--per_device_train_batch_size 2 --model_max_length 1024\n"},
       {"zero2.json", R"({"zero_optimization": {"stage": 2}})"}});
  EXPECT_EQ(At(bare.config, "parallelism.zero_stage"), 2);
  EXPECT_FALSE(AnyContains(bare.report.problems, "true"));
  // LLaMA-Factory DPO: 2 pairs a device are 4 sequences in the forward.
  const ImportResult dpo =
      MustImport({{"dpo.yaml",
                   "model_name_or_path: Qwen/Qwen3-8B\nstage: dpo\nper_device_train_batch_size: 2\n"
                   "cutoff_len: 2048\nbf16: true\n"}});
  EXPECT_EQ(At(dpo.config, "training.local_batch_size"), 4);
}

// OpenRLHF keeps its arguments in a here-document read into a variable, launched with
// `deepspeed --module` inside `if [[ ${1} != "slurm" ]]` (an unset $1: the branch is taken).
TEST(ImportHfTrainer, OpenRlhfHeredocArguments) {
  const std::string script = R"(set -x
read -r -d '' training_commands <<EOF
openrlhf.cli.train_dpo \
   --data.max_len 4096 \
   --train.micro_batch_size 2 \
   --model.model_name_or_path meta-llama/Meta-Llama-3-8B-Instruct \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16 \
   --model.gradient_checkpointing_enable
EOF

if [[ ${1} != "slurm" ]]; then
    deepspeed --num_gpus 8 --module $training_commands
fi
)";
  const ImportResult r = MustImport({{"train_dpo.sh", script}});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(r.config["world_size"], 8);
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);  // 2 pairs: chosen + rejected
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(r.config["model"], "llama3-8b");
  EXPECT_TRUE(AnyContains(r.report.problems, "reference copy"));
}

// A DeepSpeed config the script writes itself with `cat > FILE <<EOF`, its $VARIABLES expanded.
TEST(ImportHfTrainer, DeepspeedConfigWrittenByTheScript) {
  const std::string script = R"(MICRO=4
STAGE=2
cat > ds_config.json <<EOT
{
  "train_micro_batch_size_per_gpu": $MICRO,
  "zero_optimization": {"stage": $STAGE, "offload_optimizer": {"device": "cpu"}},
  "bf16": {"enabled": true}
}
EOT
torchrun --nproc_per_node 8 train.py --deepspeed ds_config.json \
  --model_name_or_path Qwen/Qwen3-8B --model_max_length 2048
)";
  const ImportResult r = MustImport({{"run.sh", script}});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 2);
  EXPECT_EQ(At(r.config, "optimizer.offload"), true);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_FALSE(AnyContains(r.report.problems, "was not given"));
}

TEST(ImportHfTrainer, UnknownModelIsAskedForNotAssumed) {
  const ImportResult r = MustImport(
      {{"run.sh",
        "deepspeed --num_gpus 8 train.py --deepspeed ds.json --model_name_or_path "
        "/data/my-own-model --per_device_train_batch_size 1 --model_max_length 2048 --bf16\n"},
       {"ds.json", kZero3Auto}});
  EXPECT_FALSE(r.config_valid);
  EXPECT_TRUE(Missing(r, "model"));
  EXPECT_TRUE(At(r.config, "model").is_null());  // not the DeepSpeed reader's stand-in
}

}  // namespace
}  // namespace trainmem::testing

namespace trainmem::testing {
namespace {

// axolotl's YAML (`axolotl train job.yml`): its names for the Trainer's arguments and its own
// defaults (utils/schemas/*.py, loaders/model.py). A QLoRA job: micro_batch_size 2,
// sequence_len 4096 packed, bf16 auto, paged 8-bit AdamW, lora_r 32 over an NF4 base with
// double quantization (axolotl's qlora BitsAndBytesConfig), flash attention, ZeRO-2 by name.
TEST(ImportHfTrainer, AxolotlQloraJob) {
  const ImportResult r = MustImport(
      {{"qlora.yml",
        "base_model: meta-llama/Llama-3.1-8B\nload_in_8bit: false\nload_in_4bit: true\n"
        "datasets:\n  - path: data.jsonl\n    type: alpaca\nadapter: qlora\nlora_r: 32\n"
        "lora_alpha: 16\nlora_target_linear: true\nsequence_len: 4096\nsample_packing: true\n"
        "gradient_accumulation_steps: 4\nmicro_batch_size: 2\noptimizer: paged_adamw_8bit\n"
        "bf16: auto\ngradient_checkpointing: true\nflash_attention: true\n"
        "deepspeed: deepspeed_configs/zero2.json\n"}});
  EXPECT_EQ(r.report.kinds.front(), InputKind::kHfTrainerYaml);
  EXPECT_EQ(r.config["model"], "llama3.1-8b");
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "training.attention"), "flash");
  EXPECT_EQ(At(r.config, "optimizer.name"), "PagedAdamW8bit");
  EXPECT_EQ(At(r.config, "training.lora_rank"), 32);
  EXPECT_EQ(At(r.config, "training.base_quantization"), "nf4_double_quant");
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 2);
  EXPECT_TRUE(AnyContains(r.report.notes, "packing fills each sample"));
}

// axolotl's defaults where the YAML is silent: micro batch from batch_size / accumulation,
// sequence_len 512, bf16 (auto), adamw_torch_fused; gradient_checkpointing "offload" moves the
// checkpoints to the host; fsdp_config version 2 with reshard_after_forward shards like ZeRO-3.
TEST(ImportHfTrainer, AxolotlDefaultsOffloadAndFsdp) {
  const ImportResult r =
      MustImport({{"full.yml",
                   "base_model: Qwen/Qwen3-8B\nbatch_size: 16\ngradient_accumulation_steps: 4\n"
                   "gradient_checkpointing: offload\nfsdp_version: 2\nfsdp_config:\n"
                   "  reshard_after_forward: true\n  offload_params: false\n"}});
  EXPECT_EQ(r.config["model"], "qwen3-8b");
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);
  EXPECT_EQ(At(r.config, "training.seq_len"), 512);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "optimizer.name"), "AdamW");
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(r.config, "activation_checkpoint.offload"), true);
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 3);
  EXPECT_TRUE(At(r.config, "training.lora_rank").is_null());
  const ImportResult grad_op =
      MustImport({{"g.yml",
                   "base_model: Qwen/Qwen3-8B\nmicro_batch_size: 1\nsequence_len: 2048\n"
                   "fsdp:\n  - shard_grad_op\n  - auto_wrap\n"}});
  EXPECT_EQ(At(grad_op.config, "parallelism.zero_stage"), 2);
}

}  // namespace
}  // namespace trainmem::testing

namespace trainmem::testing {
namespace {

// Review fixes: FSDP's own activation checkpointing in axolotl's fsdp_config wins over
// gradient_checkpointing: false; axolotl's tensor / context parallel sizes, activation
// offloading and fp8 are read; the 8-bit and 4-bit torch AdamW names are not plain AdamW; a
// GPTQ / bnb-4bit checkpoint under LoRA is a 4-bit base (a GPTQ-Int8 one 8-bit); LLaMA-Factory's
// v1 YAML (micro_batch_size, no base_model) is not read as axolotl's.
TEST(ImportHfTrainer, AxolotlFsdpCheckpointingParallelismAndQuantizedCheckpoints) {
  const ImportResult fsdp = MustImport(
      {{"f.yml",
        "base_model: Qwen/Qwen3-8B\nmicro_batch_size: 1\nsequence_len: 8192\n"
        "gradient_checkpointing: false\ntensor_parallel_size: 2\ncontext_parallel_size: 2\n"
        "activation_offloading: true\nfp8: true\noptimizer: adamw_torch_8bit\n"
        "fsdp:\n  - full_shard\n  - auto_wrap\nfsdp_config:\n"
        "  fsdp_activation_checkpointing: true\n"}});
  EXPECT_EQ(At(fsdp.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(fsdp.config, "parallelism.tensor_parallel_degree"), 2);
  EXPECT_EQ(At(fsdp.config, "parallelism.context_parallel_degree"), 2);
  EXPECT_EQ(At(fsdp.config, "activation_checkpoint.offload"), true);
  EXPECT_EQ(At(fsdp.config, "training.fp8"), true);
  EXPECT_EQ(At(fsdp.config, "optimizer.name"), "AdamW8bit");
  auto base = [](const std::string& model) {
    const ImportResult r = MustImport(
        {{"j.yaml", "model_name_or_path: " + model +
                        "\nper_device_train_batch_size: 1\ncutoff_len: 1024\nfinetuning_type: "
                        "lora\n"}});
    return At(r.config, "training.base_quantization");
  };
  EXPECT_EQ(base("TechxGenus/Meta-Llama-3-8B-Instruct-GPTQ"), "nf4_double_quant");
  EXPECT_EQ(base("unsloth/Meta-Llama-3.1-8B-bnb-4bit"), "nf4_double_quant");
  EXPECT_EQ(base("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8"), "int8");
  EXPECT_TRUE(base("meta-llama/Llama-3.1-8B").is_null());
  const ImportResult v1 =
      MustImport({{"v1.yaml",
                   "model_name_or_path: Qwen/Qwen3-8B\nmicro_batch_size: 2\ncutoff_len: 1024\n"
                   "finetuning_type: lora\n"}});
  EXPECT_FALSE(AnyContains(v1.report.notes, "axolotl"));
  for (const ImportRead& x : v1.report.read)
    EXPECT_EQ(x.source.find("axolotl"), std::string::npos) << x.key;
}

// A hub id glued to more letters is another model: GLM-4.6V is not GLM-4.6, recurrentgemma-2b
// and t5gemma-2b are not Gemma 2B; the plain ids still resolve.
TEST(ImportHfTrainer, HubIdsGluedToMoreLettersAreOtherModels) {
  auto model = [](const std::string& id) {
    const ImportResult r =
        MustImport({{"j.yaml", "model_name_or_path: " + id +
                                   "\nper_device_train_batch_size: 1\ncutoff_len: 1024\n"}});
    return r.config.contains("model") ? r.config["model"] : nlohmann::json();
  };
  EXPECT_TRUE(model("zai-org/GLM-4.6V").is_null());
  EXPECT_TRUE(model("zai-org/GLM-4.5V-Flash").is_null());
  EXPECT_TRUE(model("google/recurrentgemma-2b").is_null());
  EXPECT_TRUE(model("google/t5gemma-2b-2b-ul2").is_null());
  EXPECT_EQ(model("zai-org/GLM-4.6"), "glm-4.6");
  EXPECT_EQ(model("google/gemma-2b-it"), "gemma-2b");
  EXPECT_EQ(model("TinyLlama/TinyLlama-1.1B-Chat-v1.0"), "tinyllama-1.1b");
}

}  // namespace
}  // namespace trainmem::testing
