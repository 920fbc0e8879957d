// ms-swift's launches: `swift sft|pt|rlhf` (the Hugging Face Trainer under ms-swift's names and
// defaults: swift/arguments, swift/trainers/arguments.py at 3602360a5) and `megatron sft|…`
// (Megatron-SWIFT: Megatron-LM's arguments in snake case with its own defaults,
// swift/megatron/arguments/megatron_args.py). Each expectation is a value the script states or
// the default the cited source gives.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/estimate/estimate.h"
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

// A LoRA job on eight Ascend NPUs with ms-swift's ZeRO-3 preset: ms-swift's defaults fill what
// the script leaves out (LoRA rank 8, gradient checkpointing on, batch 1 unless given).
TEST(ImportSwift, SftLoraOnDeepspeedPresetWithMsSwiftDefaults) {
  const ImportResult r = MustImport({{"qwen3_lora.sh", R"(nproc_per_node=8
ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
NPROC_PER_NODE=$nproc_per_node \
swift sft \
    --model 'Qwen/Qwen3-32B' \
    --tuner_type lora \
    --dataset 'swift/self-cognition#1000' \
    --torch_dtype bfloat16 \
    --target_modules all-linear \
    --gradient_accumulation_steps $(expr 16 / $nproc_per_node) \
    --max_length 2048 \
    --deepspeed zero3
)"}});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(r.config["framework"], "deepspeed");
  EXPECT_EQ(r.config["model"], "qwen3-32b");
  EXPECT_EQ(r.config["world_size"], 8);
  EXPECT_EQ(r.config["device"], "ascend-910b");  // ASCEND_RT_VISIBLE_DEVICES
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(r.config, "optimizer.offload"), false);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 1);
  EXPECT_EQ(At(r.config, "training.seq_len"), 2048);
  EXPECT_EQ(At(r.config, "training.lora_rank"), 8);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_TRUE(At(r.config, "training.dtype").is_null());  // DeepSpeed keeps its fp32 master
  // The command substitution is not run: the accumulation steps are unknown, which is no
  // problem since they do not change the peak.
  EXPECT_TRUE(r.report.problems.empty()) << ImportReportToText(r.report);
}

// Full fine-tuning on one GPU without DeepSpeed: the model trains in the bf16 it is loaded in,
// so parameters, gradients and AdamW's m and v are 2 bytes each and there is no fp32 master.
// Qwen2.5-7B has 7,615,616,512 parameters: 2Ψ + 2Ψ + 4Ψ.
TEST(ImportSwift, FullFineTuneWithoutDeepspeedTrainsTheBf16Model) {
  const ImportResult r = MustImport({{"full.sh", R"(CUDA_VISIBLE_DEVICES=0 \
swift sft \
    --model Qwen/Qwen2.5-7B-Instruct \
    --tuner_type full \
    --torch_dtype bfloat16 \
    --per_device_train_batch_size 1 \
    --max_length 2048
)"}});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(r.config["world_size"], 1);
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 0);
  EXPECT_EQ(At(r.config, "training.dtype"), "bfloat16");
  EXPECT_TRUE(At(r.config, "training.lora_rank").is_null());
  const Estimate e = EstimateMemory(MustParse(r.config.dump()));
  constexpr std::int64_t kParams = 7'615'616'512;
  EXPECT_EQ(e.per_device.parameters, 2 * kParams);
  EXPECT_EQ(e.per_device.gradients, 2 * kParams);
  EXPECT_EQ(e.per_device.optimizer_states, 4 * kParams);
  // With a DeepSpeed config the same job keeps the fp32 master: 4Ψ more beside 8Ψ of states.
  const ImportResult ds = MustImport({{"full_ds.sh", R"(NPROC_PER_NODE=1 swift sft \
    --model Qwen/Qwen2.5-7B-Instruct --tuner_type full --max_length 2048 --deepspeed zero2
)"}});
  EXPECT_TRUE(At(ds.config, "training.dtype").is_null());
  EXPECT_EQ(EstimateMemory(MustParse(ds.config.dump())).per_device.optimizer_states, 12 * kParams);
}

// Several visible devices without NPROC_PER_NODE: one process spreads the model over them layer
// by layer (device_map), estimated as pipeline stages running the whole batch at once. With
// NPROC_PER_NODE 2 over four devices each process takes two. A later command's prefix
// (`NPROC_PER_NODE=1 swift infer` after training) does not change the launch's world size.
TEST(ImportSwift, DeviceMapAndTheLaunchsOwnVariables) {
  const ImportResult one = MustImport({{"dm.sh", R"(CUDA_VISIBLE_DEVICES=0,1,2,3 \
swift sft --model Qwen/Qwen2.5-7B-Instruct --per_device_train_batch_size 4 --max_length 1024
)"}});
  ASSERT_TRUE(one.config_valid) << ImportReportToText(one.report);
  EXPECT_EQ(one.config["world_size"], 4);
  EXPECT_EQ(At(one.config, "parallelism.pipeline_parallel_degree"), 4);
  EXPECT_EQ(At(one.config, "parallelism.pipeline_parallel_microbatch_size"), 4);
  EXPECT_TRUE(AnyContains(one.report.notes, "device_map"));
  const ImportResult two = MustImport({{"ddp_dm.sh", R"(NPROC_PER_NODE=2 \
CUDA_VISIBLE_DEVICES=0,1,2,3 \
swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 1024

CUDA_VISIBLE_DEVICES=0 NPROC_PER_NODE=1 swift infer --adapters output/checkpoint-100
)"}});
  EXPECT_EQ(two.config["world_size"], 4);
  EXPECT_EQ(At(two.config, "parallelism.pipeline_parallel_degree"), 2);
  // Sharded jobs never use device_map (ms-swift refuses it with DeepSpeed or FSDP).
  const ImportResult zero = MustImport({{"z.sh", R"(NPROC_PER_NODE=2 \
CUDA_VISIBLE_DEVICES=0,1,2,3 \
swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 1024 --deepspeed zero3_offload
)"}});
  EXPECT_EQ(zero.config["world_size"], 2);
  EXPECT_TRUE(At(zero.config, "parallelism.pipeline_parallel_degree").is_null());
  EXPECT_EQ(At(zero.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(zero.config, "optimizer.offload"), true);  // zero3_offload: optimizer on the CPU
}

// Review of real commands from ms-swift's issues: only NPROC_PER_NODE / NNODES in the
// command's environment start torchrun (swift/cli/main.py); a variable set without export is
// the script's own, and GPUS_PER_NODE is not ms-swift's. NNODES alone runs torchrun's one
// process a node. `swift` may be called by its path. device_map with DeepSpeed is refused.
TEST(ImportSwift, OnlyTheEnvironmentStartsProcesses) {
  const ImportResult gpus = MustImport({{"a.sh", R"(GPUS_PER_NODE=4
CUDA_VISIBLE_DEVICES=0,1,2,3 swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 1024
)"}});
  EXPECT_EQ(gpus.config["world_size"], 4);
  EXPECT_EQ(At(gpus.config, "parallelism.pipeline_parallel_degree"), 4);  // one process
  const ImportResult plain = MustImport({{"b.sh", R"(NPROC_PER_NODE=4
export CUDA_VISIBLE_DEVICES=0,1,2,3
swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 1024
)"}});
  EXPECT_EQ(At(plain.config, "parallelism.pipeline_parallel_degree"), 4);
  const ImportResult exported = MustImport({{"c.sh", R"(export NPROC_PER_NODE=4
export CUDA_VISIBLE_DEVICES=0,1,2,3
/opt/conda/envs/swift/bin/swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 1024
)"}});
  EXPECT_EQ(exported.config["world_size"], 4);
  EXPECT_TRUE(At(exported.config, "parallelism.pipeline_parallel_degree").is_null());
  const ImportResult nodes = MustImport(
      {{"d.sh",
        R"(NNODES=2 NODE_RANK=0 MASTER_ADDR=10.0.0.1 swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 1024 --deepspeed zero3
)"}});
  EXPECT_EQ(nodes.config["world_size"], 2);
  const ImportResult refused = MustImport(
      {{"e.sh",
        R"(CUDA_VISIBLE_DEVICES=0,1 swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 1024 --deepspeed zero0
)"}});
  EXPECT_EQ(refused.config["world_size"], 1);
  EXPECT_TRUE(AnyContains(refused.report.problems, "refuses device_map with DeepSpeed"));
}

// Arguments in a YAML file (swift/cli/main.py parse_yaml_args: the first argument): its keys
// are the command line's, booleans typed; its ENV block sets the variables the shell left
// unset (NPROC_PER_NODE here). A multimodal model's vision tower is frozen (freeze_vit true).
TEST(ImportSwift, ArgumentsFileWithItsEnvironment) {
  const ImportResult m = MustImport(
      {{"sft.sh", "CUDA_VISIBLE_DEVICES=0,1,2,3 megatron sft examples/yaml/megatron/sft.yaml\n"},
       {"sft.yaml", R"(ENV:
  NPROC_PER_NODE: 4
model: Qwen/Qwen3-VL-30B-A3B-Instruct
tuner_type: lora
max_length: 2048
use_distributed_optimizer: false
sequence_parallel: true
tensor_model_parallel_size: 2
expert_model_parallel_size: 2
recompute_granularity: full
)"}});
  ASSERT_TRUE(m.config_valid) << ImportReportToText(m.report);
  EXPECT_EQ(m.config["world_size"], 4);
  EXPECT_EQ(m.config["model"], "qwen3-vl-30b-a3b");
  EXPECT_EQ(At(m.config, "parallelism.zero_stage"), 0);  // false, typed in the YAML
  EXPECT_EQ(At(m.config, "parallelism.sequence_parallel"), true);
  EXPECT_EQ(At(m.config, "parallelism.tensor_parallel_degree"), 2);
  EXPECT_EQ(At(m.config, "training.lora_rank"), 8);
  EXPECT_EQ(At(m.config, "training.vision_tower"), "frozen");
  EXPECT_EQ(At(m.config, "activation_checkpoint.mode"), "full");
  // The shell's own export wins over ENV.
  const ImportResult shell = MustImport(
      {{"sft.sh", "NPROC_PER_NODE=2 swift sft sft.yaml\n"},
       {"sft.yaml",
        "ENV:\n  NPROC_PER_NODE: 8\nmodel: Qwen/Qwen2.5-7B-Instruct\nmax_length: 1024\n"}});
  EXPECT_EQ(shell.config["world_size"], 2);
  const ImportResult env = MustImport(
      {{"sft.sh", "swift sft sft.yaml\n"},
       {"sft.yaml",
        "ENV:\n  NPROC_PER_NODE: 8\nmodel: Qwen/Qwen2.5-7B-Instruct\nmax_length: 1024\n"}});
  EXPECT_EQ(env.config["world_size"], 8);
}

// Pasted text has no file name (the page calls it "pasted text"): a launch is known by its
// words, whichever tool runs it.
TEST(ImportSwift, PastedLaunchLinesAreScripts) {
  for (const char* text :
       {"NPROC_PER_NODE=8 swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 4096",
        "megatron sft --model Qwen/Qwen3-8B --max_length 4096",
        "deepspeed --num_gpus 8 train.py --deepspeed ds_z3.json --model_name_or_path x",
        "accelerate launch --num_processes 8 sft.py --per_device_train_batch_size 2",
        "#!/bin/bash\nset -e\n"})
    EXPECT_EQ(DetectInputKind("pasted text", text), InputKind::kMegatronScript) << text;
  // Not every text is a script: a log line stays a log line.
  EXPECT_EQ(DetectInputKind("pasted text", "step: 10  loss: 2.3  memory: 61.07GiB(77.18%)"),
            InputKind::kTrainingLog);
}

// A comment naming the accelerator sets the device (issue commands note "4 * RTX 4090",
// "8*GB200"): each name the device presets hold.
TEST(ImportSwift, CommentsNameTheDevice) {
  const std::string launch =
      "NPROC_PER_NODE=4 swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 1024\n";
  for (const auto& [comment, device] :
       std::vector<std::pair<std::string, std::string>>{{"# 4 * RTX 4090 (24GB)\n", "rtx-4090"},
                                                        {"# 4 x GB200\n", "gb200"},
                                                        {"# 4 B200 GPUs\n", "b200"},
                                                        {"# L40S x4\n", "l40s"},
                                                        {"# 4*H800\n", "h800"},
                                                        {"# MI355X\n", "mi355x"}}) {
    const ImportResult r = MustImport({{"c.sh", comment + launch}});
    EXPECT_EQ(r.config["device"], device) << comment;
  }
}

// A comment that only guesses ("likely H20", "A100 or H100?") does not set the device: the
// device is missing, with the guess as what is assumed.
TEST(ImportSwift, AHedgedCommentOnlySuggestsTheDevice) {
  const std::string launch =
      "NPROC_PER_NODE=4 swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 1024\n";
  for (const std::string comment : {"# 8 cards, likely H20\n", "# H800?\n"}) {
    const ImportResult r = MustImport({{"c.sh", comment + launch}});
    bool missing = false;
    for (const ImportMissing& m : r.report.missing) missing = missing || m.key == "device";
    EXPECT_TRUE(missing) << comment;
    EXPECT_EQ(r.config["device"], comment.find("H20") != std::string::npos ? "h20" : "h800")
        << comment;
  }
}

// packing_length sets the packed sequence (default max_length), on both paths; Megatron-SWIFT
// trains float32 checkpoints with fp16 as the Trainer does, and --adapters turns full into LoRA;
// ms-swift 2.x's sft_type; Megatron's --optimizer-offload-fraction below 1 is named.
TEST(ImportSwift, PackingLengthPrecisionAdaptersAndOlderNames) {
  const ImportResult packed = MustImport(
      {{"p.sh",
        R"(swift sft --model Qwen/Qwen2.5-7B-Instruct     --packing true --max_length 2048 --packing_length 8192
)"}});
  EXPECT_EQ(At(packed.config, "training.seq_len"), 8192);
  const ImportResult mpacked = MustImport(
      {{"mp.sh",
        R"(NPROC_PER_NODE=2 megatron sft     --model Qwen/Qwen2.5-7B-Instruct --packing true --max_length 2048 --packing_length 8192     --torch_dtype float32 --adapters output/checkpoint-10     --optimizer_cpu_offload true --optimizer_offload_fraction 0.2
)"}});
  EXPECT_EQ(At(mpacked.config, "training.seq_len"), 8192);
  EXPECT_EQ(At(mpacked.config, "training.mixed_precision_param"), "float16");
  EXPECT_EQ(At(mpacked.config, "training.lora_rank"), 8);
  EXPECT_TRUE(AnyContains(mpacked.report.problems, "--optimizer-offload-fraction 0.2"));
  const ImportResult old = MustImport(
      {{"o.sh",
        R"(NPROC_PER_NODE=2 swift rlhf --rlhf_type dpo     --model_id_or_path Qwen/Qwen2.5-7B-Instruct --sft_type full --batch_size 2 --max_length 2048
)"}});
  EXPECT_EQ(old.config["model"], "qwen2.5-7b");
  EXPECT_TRUE(At(old.config, "training.lora_rank").is_null());
  EXPECT_EQ(At(old.config, "training.local_batch_size"), 4);  // 2 pairs
  EXPECT_TRUE(AnyContains(old.report.problems, "reference copy"));
}

// QLoRA from quant_method / quant_bits (bnb_4bit_use_double_quant defaults to true in
// ms-swift); other methods are named; FSDP2 by ms-swift's preset shards like ZeRO-3 with FSDP's
// activation checkpointing; Ulysses sequence parallelism splits each sequence.
TEST(ImportSwift, QuantizationFsdpPresetAndSequenceParallel) {
  const ImportResult q = MustImport({{"q.sh", R"(swift sft --model Qwen/Qwen2.5-7B-Instruct \
    --tuner_type lora --quant_method bnb --quant_bits 4 --max_length 2048
)"}});
  EXPECT_EQ(At(q.config, "training.base_quantization"), "nf4_double_quant");
  const ImportResult q8 = MustImport({{"q8.sh", R"(swift sft --model Qwen/Qwen2.5-7B-Instruct \
    --quant_method bnb --quant_bits 8 --max_length 2048
)"}});
  EXPECT_EQ(At(q8.config, "training.base_quantization"), "int8");
  const ImportResult hqq = MustImport({{"h.sh", R"(swift sft --model Qwen/Qwen2.5-7B-Instruct \
    --quant_method hqq --quant_bits 4 --max_length 2048
)"}});
  EXPECT_TRUE(At(hqq.config, "training.base_quantization").is_null());
  EXPECT_TRUE(AnyContains(hqq.report.problems, "quantization_method hqq"));
  const ImportResult fsdp = MustImport({{"f.sh", R"(NPROC_PER_NODE=8 swift sft \
    --model Qwen/Qwen2.5-7B-Instruct --tuner_type full --fsdp fsdp2 --max_length 4096 \
    --gradient_checkpointing false
)"}});
  EXPECT_EQ(At(fsdp.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(fsdp.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(fsdp.config, "training.dtype"), "bfloat16");  // FSDP2 on the bf16 model
  // An FSDP2 JSON of ms-swift's form, given beside the script: reshard_after_forward false is
  // ZeRO-2's sharding; activation_cpu_offload moves the saved activations to the host.
  const ImportResult fsdp_json = MustImport(
      {{"t.sh", R"(NPROC_PER_NODE=2 swift sft --model Qwen/Qwen3-8B --max_length 4096 \
    --gradient_checkpointing false --fsdp ./examples/fsdp2.json
)"},
       {"fsdp2.json", R"({"fsdp": "full_shard auto_wrap", "fsdp_config": {"fsdp_version": 2,
         "reshard_after_forward": false, "activation_checkpointing": false,
         "activation_cpu_offload": true}})"}});
  EXPECT_EQ(At(fsdp_json.config, "parallelism.zero_stage"), 2);
  EXPECT_EQ(At(fsdp_json.config, "activation_checkpoint.mode"), "none");
  EXPECT_EQ(At(fsdp_json.config, "activation_checkpoint.offload"), true);
  const ImportResult sp = MustImport({{"sp.sh", R"(NPROC_PER_NODE=8 swift sft \
    --model Qwen/Qwen2.5-7B-Instruct --sequence_parallel_size 4 --max_length 65535 \
    --deepspeed zero2
)"}});
  ASSERT_TRUE(sp.config_valid) << ImportReportToText(sp.report);  // padded, not refused
  EXPECT_EQ(At(sp.config, "parallelism.context_parallel_degree"), 4);
  EXPECT_EQ(At(sp.config, "parallelism.ulysses_degree_in_cp"), 4);
}

// `swift rlhf`: DPO (the default rlhf_type) runs each pair's chosen and rejected sequences; in
// GRPO max_length is the prompt's and a completion of up to max_completion_length follows it.
TEST(ImportSwift, RlhfPairsAndGrpoLengths) {
  const ImportResult dpo = MustImport({{"dpo.sh", R"(NPROC_PER_NODE=4 swift rlhf \
    --model Qwen/Qwen2.5-7B-Instruct --per_device_train_batch_size 2 --max_length 4096
)"}});
  EXPECT_EQ(At(dpo.config, "training.local_batch_size"), 4);
  EXPECT_EQ(At(dpo.config, "training.lora_rank"), 8);
  const ImportResult grpo = MustImport({{"grpo.sh", R"(NPROC_PER_NODE=8 swift rlhf \
    --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --use_vllm true --vllm_mode colocate \
    --max_length 1024 --max_completion_length 2048 --per_device_train_batch_size 4
)"}});
  EXPECT_EQ(At(grpo.config, "training.seq_len"), 1024 + 2048);
  EXPECT_EQ(At(grpo.config, "training.local_batch_size"), 4);
  EXPECT_TRUE(AnyContains(grpo.report.problems, "vLLM"));
  // Other ms-swift commands train nothing.
  ImportOptions options;
  Result<ImportResult> infer = ImportFiles(
      {{"infer.sh", "CUDA_VISIBLE_DEVICES=0 swift infer --adapters out/checkpoint-1\n"}}, options,
      TestPresets());
  ASSERT_FALSE(infer.ok());
  EXPECT_NE(FormatError(infer.errors().front()).find("swift infer"), std::string::npos);
}

// Megatron-SWIFT: snake-case Megatron flags, booleans as true / false, and its defaults (the
// distributed optimizer on, expert tensor parallelism 1 where Megatron-LM takes TP, selective
// recompute, micro batch 1); the model from --model; LoRA from tuner_type.
TEST(ImportSwift, MegatronSwiftArgumentsAndDefaults) {
  const ImportResult r =
      MustImport({{"moe.sh", R"(PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True' \
NPROC_PER_NODE=8 \
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
megatron sft \
    --model Qwen/Qwen3-30B-A3B-Instruct-2507 \
    --tuner_type lora \
    --lora_rank 16 \
    --tensor_model_parallel_size 2 \
    --expert_model_parallel_size 4 \
    --sequence_parallel true \
    --moe_permute_fusion true \
    --max_length 4096 \
    --packing true \
    --cross_entropy_loss_fusion false
)"}});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(r.config["framework"], "megatron");
  EXPECT_EQ(r.config["model"], "qwen3-30b-a3b");
  EXPECT_EQ(r.config["world_size"], 8);
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 4);
  EXPECT_EQ(At(r.config, "parallelism.expert_tensor_parallel_degree"), 1);
  EXPECT_EQ(At(r.config, "parallelism.sequence_parallel"), true);
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 1);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "selective");
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 1);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
  EXPECT_EQ(At(r.config, "training.lora_rank"), 16);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "training.moe_grouped_gemm"), true);      // Megatron-SWIFT's default
  EXPECT_NE(At(r.config, "training.cross_entropy_fusion"), true);  // said false
  const ImportResult off = MustImport({{"dense.sh", R"(NPROC_PER_NODE=2 megatron sft \
    --model Qwen/Qwen2.5-7B-Instruct --use_distributed_optimizer false \
    --recompute_granularity none --micro_batch_size 2 --max_length 2048 --torch_dtype float16
)"}});
  EXPECT_EQ(At(off.config, "parallelism.zero_stage"), 0);
  EXPECT_EQ(At(off.config, "activation_checkpoint.mode"), "none");
  EXPECT_EQ(At(off.config, "training.local_batch_size"), 2);
  EXPECT_EQ(At(off.config, "training.mixed_precision_param"), "float16");
  EXPECT_TRUE(At(off.config, "training.lora_rank").is_null());  // tuner_type full by default
}

}  // namespace
}  // namespace trainmem::testing
