// Megatron-LM / MindSpeed-LLM launch scripts.
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

TEST(ImportMegatron, LaunchScriptWithVariablesArraysAndIf) {
  const ImportResult r = MustImport({Fixture("megatron_llama_fp8.sh")});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["framework"], "megatron");
  EXPECT_EQ(r.config["world_size"], 16);  // --nproc_per_node ${GPUS_PER_NODE:-8} × --nnodes 2
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 2);  // ${TP:-2}
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 1);  // --use-distributed-optimizer
  EXPECT_EQ(At(r.config, "parallelism.sequence_parallel"), true);
  // GBS = $((MBS * 64)) = 64; DP = 16 / (2 × 2) = 4; microbatches = 64 / (1 × 4) = 16.
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_microbatch_size"), 1);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 16);
  EXPECT_EQ(At(r.config, "training.seq_len"), 8192);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(r.config, "training.fp8"), true);  // the `if [[ "$DTYPE" == "fp8" ]]` branch
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 32);
  EXPECT_EQ(At(r.config, "model.num_key_value_heads"), 8);  // comment inside the array skipped
  EXPECT_EQ(At(r.config, "model.vocab_size"), 128256);      // 128256 = 1002 × 128: no padding
  // The value's line is where the argument is written, not the torchrun line.
  EXPECT_EQ(ReadLine(r, "parallelism.tensor_parallel_degree"), 33);
  bool took_branch = false;
  for (const std::string& n : r.report.notes)
    took_branch = took_branch || n.find("took this branch") != std::string::npos;
  EXPECT_TRUE(took_branch);
  // The estimate matches the Llama 3 8B parameter count exactly (untied, GQA 8, SwiGLU 14336).
  const Config c = MustParse(r.config.dump());
  EXPECT_EQ(CountParams(c.model, false).total, 8030261248);
}

// MindSpeed-LLM LoRA: --lora-r is the rank; the other --lora-* flags do not change memory.
TEST(ImportMegatron, LoraRankIsRead) {
  const std::string script =
      "torchrun --nproc_per_node 8 posttrain_gpt.py --num-layers 32 --hidden-size 4096 "
      "--ffn-hidden-size 14336 --num-attention-heads 32 --group-query-attention "
      "--num-query-groups 8 --seq-length 4096 --micro-batch-size 1 --padded-vocab-size 128256 "
      "--swiglu --normalization RMSNorm --untie-embeddings-and-output-weights "
      "--disable-bias-linear --position-embedding-type rope --bf16 --finetune "
      "--lora-r 16 --lora-alpha 32 --lora-target-modules linear_qkv linear_proj\n";
  const ImportResult r = MustImport({{"tune_lora.sh", script}});
  EXPECT_EQ(At(r.config, "training.lora_rank"), 16);
  bool alpha_named = false;
  for (const ImportIgnored& i : r.report.ignored)
    alpha_named =
        alpha_named || (i.key.find("--lora-alpha") != std::string::npos &&
                        i.reason.find("does not change device memory") != std::string::npos);
  EXPECT_TRUE(alpha_named);
}

// --recompute-method block --recompute-num-layers N recomputes the first N blocks of each chunk
// (transformer_block.py _checkpointed_forward): 16 layers on PP 2 are chunks of 8, so N = 2 is
// partial; N = 8, or the uniform method, recomputes every block.
TEST(ImportMegatron, BlockRecomputeOfPartOfEachStage) {
  auto import = [](const std::string& recompute) {
    return MustImport({{"pretrain.sh",
                        "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 16 "
                        "--hidden-size 1024 --num-attention-heads 16 --seq-length 2048 "
                        "--micro-batch-size 1 --global-batch-size 16 --vocab-size 32000 "
                        "--pipeline-model-parallel-size 2 --recompute-granularity full " +
                            recompute + "\n"}});
  };
  const ImportResult partial = import("--recompute-method block --recompute-num-layers 2");
  EXPECT_EQ(At(partial.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(partial.config, "activation_checkpoint.recompute_num_layers"), 2);
  EXPECT_EQ(At(import("--recompute-method block --recompute-num-layers 8").config,
               "activation_checkpoint.recompute_num_layers"),
            nullptr);
  EXPECT_EQ(At(import("--recompute-method uniform --recompute-num-layers 1").config,
               "activation_checkpoint.recompute_num_layers"),
            nullptr);
}

// Flags the importer does not read are named with a reason taken from the whole words of their
// name. Only hyper-parameters, I/O and logging are called harmless: an unknown flag, or one
// whose words speak of memory (offload, grads, mem, sharding), is "not modelled".
TEST(ImportMegatron, LeftOutFlagsAreNotCalledHarmlessByAccident) {
  const std::string script =
      "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 4 --hidden-size 512 "
      "--num-attention-heads 8 --seq-length 1024 --max-position-embeddings 1024 "
      "--micro-batch-size 1 --bf16 --seed 1234 --save /ckpt --min-lr 1e-5 "
      "--accumulate-allreduce-grads-in-fp32 --cpu-offloading-num-layers 2 "
      "--mtp-mem-efficient-logits --data-parallel-sharding-strategy optim_grads_params "
      "--some-future-flag 3\n";
  const ImportResult r = MustImport({{"run.sh", script}});
  auto reason = [&](const std::string& flag) {
    for (const ImportIgnored& i : r.report.ignored)
      if (i.key.rfind(flag, 0) == 0) return i.reason;
    return std::string("(not listed)");
  };
  const std::string harmless = "does not change device memory";
  EXPECT_NE(reason("--seed").find(harmless), std::string::npos) << reason("--seed");
  EXPECT_NE(reason("--save").find(harmless), std::string::npos) << reason("--save");
  EXPECT_NE(reason("--min-lr").find(harmless), std::string::npos) << reason("--min-lr");
  for (const char* flag :
       {"--accumulate-allreduce-grads-in-fp32", "--cpu-offloading-num-layers",
        "--mtp-mem-efficient-logits", "--data-parallel-sharding-strategy", "--some-future-flag"})
    EXPECT_EQ(reason(flag).rfind("not modelled", 0), 0u) << flag << ": " << reason(flag);
}

// The precision-aware optimizer's moment dtypes and CPU activation offloading.
TEST(ImportMegatron, MomentDtypesAndActivationOffload) {
  const std::string base =
      "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 4 --hidden-size 512 "
      "--num-attention-heads 8 --seq-length 1024 --max-position-embeddings 1024 "
      "--micro-batch-size 4 --use-distributed-optimizer --bf16";
  const ImportResult bf16 =
      MustImport({{"run.sh", base + " --use-precision-aware-optimizer --exp-avg-dtype bf16 "
                                    "--exp-avg-sq-dtype bf16\n"}});
  EXPECT_EQ(At(bf16.config, "optimizer.state_dtype"), "bfloat16");
  // Differing moments: the wider one, with a note.
  const ImportResult mixed =
      MustImport({{"run.sh", base + " --use-precision-aware-optimizer --exp-avg-dtype fp8 "
                                    "--exp-avg-sq-dtype bf16\n"}});
  EXPECT_EQ(At(mixed.config, "optimizer.state_dtype"), "bfloat16");
  EXPECT_FALSE(mixed.report.notes.empty());
  // Offloading 3 of 4 layers' activations (the most Megatron allows) is the offload key; one
  // layer is not.
  const ImportResult off =
      MustImport({{"run.sh", base + " --cpu-offloading --cpu-offloading-num-layers 3\n"}});
  EXPECT_EQ(At(off.config, "activation_checkpoint.offload"), true);
  const ImportResult one =
      MustImport({{"run.sh", base + " --cpu-offloading --cpu-offloading-num-layers 1\n"}});
  EXPECT_TRUE(At(one.config, "activation_checkpoint.offload").is_null());
}

// --pipeline-model-parallel-layout as DeepSeek-V3 recipes write it: "Et*3|(tt|)*29,m|L" is 32
// virtual stages (the embedding and 3 layers, 29 of 2 layers, the MTP layer, the loss). Over
// PP 16 stage s runs on rank s mod 16: rank 0 holds 3 + 2 = 5 layers, ranks 1–13 hold 2 + 2,
// rank 14 holds 2 and the MTP stage, rank 15 holds 2 and the loss: 61 in all.
TEST(ImportMegatron, PipelineLayoutStringGivesEachRanksLayers) {
  const std::string script =
      "torchrun --nproc_per_node 8 --nnodes 16 pretrain_gpt.py --num-layers 61 --hidden-size "
      "1024 --num-attention-heads 8 --seq-length 1024 --max-position-embeddings 1024 "
      "--micro-batch-size 1 --global-batch-size 256 --pipeline-model-parallel-size 16 "
      "--pipeline-model-parallel-layout \"Et*3|(tt|)*29,m|L\" --bf16\n";
  const ImportResult r = MustImport({{"run.sh", script}});
  nlohmann::json expected = {5};
  for (int i = 0; i < 13; ++i) expected.push_back(4);
  expected.push_back(2);
  expected.push_back(2);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_layer_list"), expected);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_schedule"), "Interleaved1F1B");
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_layers_per_stage"), 3);
  bool mtp_noted = false;
  for (const std::string& n : r.report.notes) mtp_noted |= n.find("rank 14") != std::string::npos;
  EXPECT_TRUE(mtp_noted);
  // A layout whose decoder layers do not add up to --num-layers is named and left out.
  std::string wrong = script;
  wrong.replace(wrong.find("*29"), 3, "*28");
  const ImportResult bad = MustImport({{"run.sh", wrong}});
  EXPECT_TRUE(At(bad.config, "parallelism.pipeline_parallel_layer_list").is_null());
}

// DeepSeek-V3.2's indexer from MindSpeed-LLM's flags (defaults 64 heads of 128, top-k 2048 in
// dsa_indexer_feature.py); the fused kernels only when both the indexer and the loss or sparse
// attention are fused.
TEST(ImportMegatron, DsaIndexerFlagsAreRead) {
  const std::string base =
      "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 4 --hidden-size 7168 "
      "--ffn-hidden-size 18432 --num-attention-heads 128 --multi-latent-attention "
      "--q-lora-rank 1536 --kv-lora-rank 512 --qk-head-dim 128 --qk-pos-emb-head-dim 64 "
      "--v-head-dim 128 --seq-length 4096 --micro-batch-size 1 --padded-vocab-size 129280 "
      "--swiglu --normalization RMSNorm --untie-embeddings-and-output-weights "
      "--disable-bias-linear --position-embedding-type rope --bf16 --use-flash-attn "
      "--enable-dsa-indexer --index-topk 1024";
  const ImportResult r = MustImport({{"dsa.sh", base + "\n"}});
  EXPECT_EQ(At(r.config, "model.index_n_heads"), 64);
  EXPECT_EQ(At(r.config, "model.index_head_dim"), 128);
  EXPECT_EQ(At(r.config, "model.index_topk"), 1024);
  EXPECT_TRUE(At(r.config, "training.dsa_fused_kernels").is_null());
  const ImportResult half = MustImport({{"dsa.sh", base + " --use-fused-lightning-indexer\n"}});
  EXPECT_TRUE(At(half.config, "training.dsa_fused_kernels").is_null());
  const ImportResult fused =
      MustImport({{"dsa.sh", base + " --use-fused-lightning-indexer --use-sparse-flash-attn\n"}});
  EXPECT_EQ(At(fused.config, "training.dsa_fused_kernels"), true);
  // Without the switch the indexer flags describe nothing.
  const ImportResult off =
      MustImport({{"plain.sh", base.substr(0, base.find("--enable-dsa-indexer")) + "\n"}});
  EXPECT_TRUE(At(off.config, "model.index_n_heads").is_null());
}

TEST(ImportMegatron, ReportListsEachModelFieldWithItsFlagAndLine) {
  const ImportResult r = MustImport({Fixture("megatron_llama_fp8.sh")});
  // megatron_llama_fp8.sh: line 17 "--num-layers 32", line 18 "--hidden-size 4096
  // --ffn-hidden-size 14336", line 22 "--num-query-groups 8".
  EXPECT_EQ(ReadLine(r, "model.num_hidden_layers"), 17);
  EXPECT_EQ(ReadLine(r, "model.hidden_size"), 18);
  EXPECT_EQ(ReadLine(r, "model.intermediate_size"), 18);
  EXPECT_EQ(ReadLine(r, "model.num_key_value_heads"), 22);
  EXPECT_EQ(ReadLine(r, "model"), -1);  // not one opaque entry for the whole shape
  // No flag gives qk_norm: listed as a default, with no line.
  EXPECT_EQ(ReadLine(r, "model.qk_norm"), 0);
}

TEST(ImportMegatron, SourcedModelFileAndMindSpeedFlags) {
  const ImportResult r = MustImport({Fixture("mindspeed_moe_A3.sh"), Fixture("model_args_moe.sh")});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["world_size"], 64);         // 16 NPUs × 4 nodes
  EXPECT_EQ(r.config["device"], "ascend-910c");  // "_A3" in the name
  EXPECT_EQ(At(r.config, "optimizer.swap_optimizer"), true);
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 16);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_schedule"), "Interleaved1F1B");
  EXPECT_EQ(At(r.config, "model.n_routed_experts"), 64);
  EXPECT_EQ(At(r.config, "model.n_shared_experts"), 2);
  EXPECT_EQ(At(r.config, "model.kv_lora_rank"), 512);
  // --moe-layer-freq [0]*1+[1]*15: layer 0 dense.
  EXPECT_EQ(At(r.config, "model.mlp_only_layers"), nlohmann::json::array({0}));
  // DP = 64 / 4 = 16; GBS 256 / (1 × 16) = 16 microbatches.
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 16);
}

TEST(ImportMegatron, SourcedFileNotGivenIsNamed) {
  const ImportResult r = MustImport({Fixture("mindspeed_moe_A3.sh")});
  EXPECT_TRUE(Missing(r, "model"));
  bool named = false;
  for (const ImportMissing& m : r.report.missing)
    named = named || m.why.find("model_args_moe.sh") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(ImportMegatron, SequenceParallelWithTp1IsAProblem) {
  const std::string script =
      "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 256 "
      "--num-attention-heads 4 --seq-length 128 --micro-batch-size 2 --vocab-size 1000 "
      "--tensor-model-parallel-size 1 --sequence-parallel\n";
  const ImportResult r = MustImport({{"run.sh", script}});
  ASSERT_FALSE(r.report.problems.empty());
  EXPECT_NE(r.report.problems[0].find("--sequence-parallel"), std::string::npos);
  // --vocab-size 1000 padded to a multiple of 128 × TP 1 = 1024 (vocab_utils.py).
  EXPECT_EQ(At(r.config, "model.vocab_size"), 1024);
  // No --swiglu: 4 × hidden; no --disable-bias-linear: biases; learned positions by default.
  EXPECT_EQ(At(r.config, "model.intermediate_size"), 1024);
  EXPECT_EQ(At(r.config, "model.o_bias"), true);
  EXPECT_EQ(At(r.config, "model.position_embedding_type"), "learned_absolute");
}

// Megatron starts only when TP·PP·CP divides the world (megatron/core/parallel_state.py
// initialize_model_parallel at d98e8a64: RuntimeError "world_size (6) is not divisible by 4"):
// the stated world is kept and the contradiction named, not a 4-device job estimated instead.
TEST(ImportMegatron, LayoutThatDoesNotFitTheWorldSizeIsNamed) {
  const std::string script =
      "NNODES=1\nGPUS_PER_NODE=6\n"
      "torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py --num-layers 4 "
      "--hidden-size 512 --num-attention-heads 8 --seq-length 256 --vocab-size 1024 "
      "--tensor-model-parallel-size 4\n";
  const ImportResult r = MustImport({{"run.sh", script}});
  EXPECT_TRUE(AnyContains(r.report.problems, "world size 6"))
      << ::testing::PrintToString(r.report.problems);
  EXPECT_TRUE(AnyContains(r.report.problems, "TP·PP·CP = 4·1·1 = 4"));
  EXPECT_FALSE(r.config_valid);
  EXPECT_EQ(r.config["world_size"], 6);
}

// The same assertion for the expert layers' decomposition of the ranks (MoE parallel folding:
// EP borrows from the data-parallel ranks, so the world must be divisible by ETP·EP·PP, ETP = TP
// by default; parallel_state.py initialize_model_parallel at d98e8a64). 32 nodes × 8 = 256
// devices hold TP 2 · PP 16 (DP 8) but not ETP 2 · EP 64 · PP 16 = 2048: Megatron refuses to
// start, and the import keeps the 256 devices rather than estimating a cluster 8× larger.
TEST(ImportMegatron, ExpertLayoutThatDoesNotFitTheWorldSizeFailsTheCheck) {
  const std::string script = R"(NNODES=32
GPUS_PER_NODE=8
torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py \
    --num-layers 16 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 \
    --micro-batch-size 1 --global-batch-size 64 --vocab-size 32000 --swiglu \
    --num-experts 64 --moe-router-topk 8 --moe-ffn-hidden-size 512 \
    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 16 \
    --expert-model-parallel-size 64 --use-distributed-optimizer --bf16
)";
  const ImportResult r = MustImport({{"run.sh", script}});
  EXPECT_EQ(r.config["world_size"], 256);
  EXPECT_FALSE(r.config_valid);
  EXPECT_TRUE(AnyContains(r.report.problems, "ETP·EP·PP = 2·64·16 = 2048"))
      << ::testing::PrintToString(r.report.problems);
  bool named = false;  // the config's own check names the degrees too
  for (const Error& e : r.config_errors)
    named = named || e.message.find("2·64·16") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(ImportMegatron, VocabularyOnlyFromATokenizerIsAskedFor) {
  const std::string script =
      "python pretrain_gpt.py --num-layers 2 --hidden-size 256 --num-attention-heads 4 "
      "--seq-length 128 --tokenizer-type SentencePieceTokenizer --tokenizer-model "
      "/data/tok.model\n";
  const ImportResult r = MustImport({{"run.sh", script}});
  EXPECT_TRUE(Missing(r, "model.vocab_size"));
}

// `case WORD in pattern) … ;; esac`: the branch whose pattern matches runs (bash's first match;
// '*' the default), as an `if` does, and the report says which.
TEST(ImportMegatron, CaseStatementTakesTheMatchingBranch) {
  const std::string script = R"(#!/bin/bash
SIZE="${SIZE:-small}"
case "${SIZE}" in
    "small")
        LAYERS=12
        HIDDEN=768
        ;;
    large|huge)
        LAYERS=48
        HIDDEN=4096
        ;;
    *)
        echo "unknown size"; exit 1 ;;
esac
case $SIZE in
    big*) TP=8 ;;
    *) TP=2 ;;
esac
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers $LAYERS --hidden-size $HIDDEN --num-attention-heads 12 \
    --tensor-model-parallel-size $TP --seq-length 1024 --micro-batch-size 2 --vocab-size 50304
)";
  const ImportResult r = MustImport({{"run.sh", script}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 12);  // the "small" branch
  EXPECT_EQ(At(r.config, "model.hidden_size"), 768);
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 2);  // "small" matches only '*'
  bool said = false;
  for (const std::string& n : r.report.notes)
    said = said || n.find("case 'small' → took the branch small)") != std::string::npos;
  EXPECT_TRUE(said);
}

// A script that runs a data converter holds no job: a clear error naming the file and the
// program, not a config guessed from its name.
TEST(ImportMegatron, DataConversionScriptIsNotAJob) {
  const std::string script = R"(source /usr/local/Ascend/ascend-toolkit/set_env.sh
python ./preprocess_data.py \
  --input ./dataset/train.parquet \
  --tokenizer-name-or-path ./model_from_hf/qwen3_8b/ \
  --output-prefix ./dataset/enwiki --workers 4
)";
  const Result<ImportResult> r =
      ImportFiles({{"data_convert_qwen3_8b.sh", script}}, {}, TestPresets());
  ASSERT_FALSE(r.ok());
  const std::string e = FormatError(r.errors().front());
  EXPECT_NE(e.find("data_convert_qwen3_8b.sh"), std::string::npos) << e;
  EXPECT_NE(e.find("preprocess_data.py"), std::string::npos) << e;
}

// A hybrid model (megatron/core/models/hybrid; examples/mamba/train.sh) has one block a symbol
// of --hybrid-layer-pattern, which sets the layer count ('|' marks pipeline stages, '/' starts
// the MTP part). "M-*-" at hidden 256, 4 heads / 2 KV × 64, MLP 512, vocab 1024, untied, no
// biases, by hand:
//   M: mamba_mixer.py with d_inner 2·256 = 512, 8 heads of 64, 8 groups, state 128: in_proj
//      256·(2·512 + 2·8·128 + 8) = 788,480; conv1d (512 + 2·8·128 = 2,560 channels) × 4 + bias
//      2,560 = 12,800; dt_bias, A_log, D 24; gated norm 512; out_proj 512·256 = 131,072;
//      block norm 256 → 933,144.
//   -: 256·512 + 512·256 + norm 256 = 262,400 (twice).   *: q, o 2·256·256 + k, v 2·256·128
//      + norm 256 = 196,864.
//   Blocks 1,654,808 + embedding and output 2·1024·256 + final norm 256 = 2,179,352.
TEST(ImportMegatron, HybridLayerPatternIsTheModel) {
  const std::string script = R"(torchrun --nproc_per_node 8 pretrain_mamba.py \
       --hybrid-layer-pattern "M-|*-/M-" \
       --num-layers 52 \
       --hidden-size 256 --num-attention-heads 4 \
       --group-query-attention --num-query-groups 2 \
       --ffn-hidden-size 512 --seq-length 1024 --micro-batch-size 2 \
       --vocab-size 1024 --disable-bias-linear --normalization RMSNorm \
       --untie-embeddings-and-output-weights --position-embedding-type none --bf16
)";
  const ImportResult r = MustImport({{"train.sh", script}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "model.hybrid_override_pattern"), "M-*-");
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 4);  // the pattern's, not --num-layers
  EXPECT_EQ(Total(r.config["model"]), 2179352);
}

// '|' ends a pipeline segment; segment s runs on rank s mod PP as virtual stage s / PP
// (hybrid_layer_allocation.py select_pipeline_segment), and Megatron sets
// virtual_pipeline_model_parallel_size = segments / PP (megatron/training/arguments.py at
// d98e8a64). The functional test hybrid_mr_mcore_te_tp1_pp2_vpp2: 4 segments of 11 over PP 2 =
// 2 virtual stages of 11 layers on each rank.
TEST(ImportMegatron, HybridPatternSegmentsAreVirtualPipelineStages) {
  const std::string head =
      "torchrun --nproc_per_node 8 pretrain_mamba.py --hidden-size 256 --num-attention-heads 4 "
      "--ffn-hidden-size 512 --seq-length 1024 --micro-batch-size 2 --global-batch-size 32 "
      "--vocab-size 1024 --position-embedding-type none ";
  const ImportResult vpp =
      MustImport({{"train.sh", head + "--pipeline-model-parallel-size 2 --hybrid-layer-pattern "
                                      "'M-M-M-M*-M-|M-M-M*-M-M-|M-M*-M-M-M-|M*-M-M-M-M-'\n"}});
  ASSERT_TRUE(vpp.config_valid);
  EXPECT_EQ(At(vpp.config, "model.num_hidden_layers"), 44);
  EXPECT_EQ(At(vpp.config, "parallelism.pipeline_parallel_schedule"), "Interleaved1F1B");
  EXPECT_EQ(At(vpp.config, "parallelism.pipeline_parallel_layers_per_stage"), 11);
  EXPECT_TRUE(At(vpp.config, "parallelism.pipeline_parallel_layer_list").is_null());  // even
  // As many segments as ranks: each rank's own layers, no interleaving (6 and 2 layers).
  const ImportResult uneven = MustImport(
      {{"train.sh",
        head + "--pipeline-model-parallel-size 2 --hybrid-layer-pattern 'M-M-M-|*-'\n"}});
  EXPECT_EQ(At(uneven.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json::parse("[6, 2]"));
  EXPECT_TRUE(At(uneven.config, "parallelism.pipeline_parallel_layers_per_stage").is_null());
  // 3 segments over PP 2: Megatron asserts that PP divides them.
  const ImportResult odd =
      MustImport({{"train.sh",
                   head + "--pipeline-model-parallel-size 2 --hybrid-layer-pattern 'M-|M-|*-'\n"}});
  EXPECT_TRUE(AnyContains(odd.report.problems, "3 pipeline segments"));
}

// MindSpeed-LLM's pretrain_mamba.py (tests/st/shell_scripts/mamba2_8b_tp8_pp1_4k_ptd.sh at
// 113b39e030): MambaModel of --num-layers Mamba-2 layers (no --hybrid-*-ratio: ratios 0), with
// the mixer sized by --mamba-d-state / --mamba-headdim / --mamba-ngroups / --mamba-expand /
// --mamba-d-conv (features_manager/models/mamba.py and core/ssm/mamba_mixer.py
// mamba_mixer_init_wrapper at 113b39e030). Megatron's MambaMixer shapes (megatron/core/ssm/
// mamba_mixer.py at d98e8a64), at hidden 256, expand 2 (d_inner 512), head dim 32 (16 heads),
// 2 groups, state 16, d_conv 4:
//   in_proj 256 · (2·512 + 2·2·16 + 16) = 282,624; conv1d (512 + 2·2·16 = 576 channels) · 4 +
//   bias 576 = 2,880; dt_bias, A_log, D 3 · 16 = 48; gated RMSNorm 512; out_proj 512 · 256 =
//   131,072; the layer's norm 256 → 417,392 a layer.
//   2 layers 834,784 + embedding and output 2 · 1000 · 256 + final norm 256 = 1,347,040.
TEST(ImportMegatron, PretrainMambaIsAMamba2Model) {
  const std::string script = R"(NPUS_PER_NODE=8
torchrun --nproc_per_node $NPUS_PER_NODE $basepath/pretrain_mamba.py \
    --spec mindspeed_llm.tasks.models.spec.mamba_spec layer_spec \
    --use-mcore-models --tensor-model-parallel-size 2 --sequence-parallel \
    --num-layers 2 --num-attention-heads 8 --group-query-attention --num-query-groups 2 \
    --mamba-ngroups 2 --mamba-chunk-size 128 --mamba-d-state 16 --mamba-d-conv 4 \
    --mamba-expand 2 --mamba-headdim 32 --hidden-size 256 --seq-length 1024 \
    --micro-batch-size 2 --global-batch-size 8 --padded-vocab-size 1000 \
    --untie-embeddings-and-output-weights --disable-bias-linear \
    --position-embedding-type none --normalization RMSNorm --swiglu --bf16
)";
  const ImportResult r = MustImport({{"mamba.sh", script}});
  ASSERT_TRUE(r.config_valid) << ::testing::PrintToString(r.report.problems);
  EXPECT_EQ(At(r.config, "model.model_type"), "mamba2");
  EXPECT_EQ(At(r.config, "model.num_heads"), 16);
  EXPECT_EQ(At(r.config, "model.head_dim"), 32);
  EXPECT_EQ(Total(r.config["model"]), 1347040);
  // Megatron's spellings (--mamba-state-dim, --mamba-head-dim, --mamba-num-groups) and the
  // deprecated ratios: pattern_from_ratios(8, 0.25, 0.25) (hybrid_layer_allocation.py at
  // d98e8a64) spaces round(8 · 0.25) = 2 attention layers between Mamba runs, then turns 2 of
  // the Mamba layers into MLPs: "MM*-M*M-".
  const std::string hybrid = R"(torchrun --nproc_per_node 8 pretrain_mamba.py \
    --num-layers 8 --hidden-size 256 --num-attention-heads 4 --ffn-hidden-size 512 \
    --mamba-state-dim 16 --mamba-head-dim 32 --mamba-num-groups 2 \
    --hybrid-attention-ratio 0.25 --hybrid-mlp-ratio 0.25 \
    --seq-length 1024 --micro-batch-size 1 --padded-vocab-size 1000 --bf16
)";
  const ImportResult h = MustImport({{"hybrid.sh", hybrid}});
  ASSERT_TRUE(h.config_valid) << ::testing::PrintToString(h.report.problems);
  EXPECT_EQ(At(h.config, "model.model_type"), "nemotron_h");
  EXPECT_EQ(At(h.config, "model.hybrid_override_pattern"), "MM*-M*M-");
  EXPECT_EQ(At(h.config, "model.mamba_num_heads"), 16);  // expand 2 (Megatron's) · 256 / 32
  EXPECT_EQ(At(h.config, "model.ssm_state_size"), 16);
  EXPECT_EQ(At(h.config, "model.n_groups"), 2);
}

// MindSpeed-LLM's MiniMax-M2.7 (tests/pipeline/st/minimax-m2.7/
// pretrain_minimax27_4K_A3_ptd_l1tp1pp1ep4.sh at 8eff0c32) passes --q-lora-rank and
// --kv-lora-rank without --multi-latent-attention: its minimax_spec builds MinimaxAttention, a
// GQA linear_qkv with q / k norms over all heads (q_layernorm kv_channels · heads, k_layernorm
// kv_channels · query groups). At hidden 256, 8 heads / 2 groups × 64, 4 experts of 128, top 2:
//   input norm 256; linear_qkv 256 · (8·64 + 2·2·64) = 196,608; q / k norms 512 + 128;
//   linear_proj 512 · 256 = 131,072; pre-MLP norm 256; router 4 · 256 = 1,024; experts
//   4 · (256 · 2 · 128 + 128 · 256) = 393,216 → 723,072 a layer.
//   2 layers 1,446,144 + embedding and output 2 · 1000 · 256 + final norm 256 = 1,958,400.
// With MindSpeed-LLM's MLA switch (--multi-head-latent-attention, deprecated_args.py at
// c77308a1) the same ranks build MLA.
TEST(ImportMegatron, LoraRanksWithoutTheMlaSwitchAreGroupedQueryAttention) {
  const std::string script =
      "NPUS_PER_NODE=8\n"
      "torchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py "
      "--spec mindspeed_llm.tasks.models.spec.minimax_spec layer_spec --use-mcore-models "
      "--kv-channels 64 --qk-layernorm --q-lora-rank 512 --kv-lora-rank 128 --num-layers 2 "
      "--hidden-size 256 --ffn-hidden-size 128 --num-attention-heads 8 "
      "--group-query-attention --num-query-groups 2 --num-experts 4 --moe-router-topk 2 "
      "--moe-ffn-hidden-size 128 --padded-vocab-size 1000 --untie-embeddings-and-output-weights "
      "--disable-bias-linear --position-embedding-type rope --normalization RMSNorm --swiglu "
      "--seq-length 1024 --micro-batch-size 1 --expert-model-parallel-size 4 --bf16";
  const ImportResult r = MustImport({{"minimax.sh", script + "\n"}});
  ASSERT_TRUE(r.config_valid) << ::testing::PrintToString(r.report.problems);
  EXPECT_EQ(At(r.config, "model.model_type"), "qwen3_moe");
  EXPECT_TRUE(At(r.config, "model.kv_lora_rank").is_null());
  EXPECT_EQ(At(r.config, "model.head_dim"), 64);
  EXPECT_EQ(Total(r.config["model"]), 1958400);
  const ImportResult mla =
      MustImport({{"mla.sh", script + " --multi-head-latent-attention --v-head-dim 64\n"}});
  EXPECT_EQ(At(mla.config, "model.model_type"), "deepseek_v3");
  EXPECT_EQ(At(mla.config, "model.kv_lora_rank"), 128);
}

// GPTSentencePieceTokenizer with Megatron's release-test tokenizer nemotron_2_256k.model
// (tests/functional_tests/test_cases/gpt/gpt3_15b_8t_release at d98e8a64): 256,000 pieces,
// padded to a multiple of --make-vocab-size-divisible-by × TP (vocab_utils.py): 128 × 8 = 1024
// divides 256000; 3232 × 2 = 6464 (the deepseekv3_proxy release case) rounds it up to 40 ×
// 6464 = 258,560.
TEST(ImportMegatron, Nemotron256kTokenizerVocabulary) {
  const std::string head =
      "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 512 "
      "--num-attention-heads 8 --seq-length 1024 --micro-batch-size 1 "
      "--tokenizer-type GPTSentencePieceTokenizer "
      "--tokenizer-model /mnt/artifacts/utils/nemotron_2_256k.model ";
  const ImportResult tp8 = MustImport({{"run.sh", head + "--tensor-model-parallel-size 8\n"}});
  EXPECT_EQ(At(tp8.config, "model.vocab_size"), 256000);
  EXPECT_FALSE(Missing(tp8, "model.vocab_size"));
  const ImportResult odd = MustImport(
      {{"run.sh", head + "--tensor-model-parallel-size 2 --make-vocab-size-divisible-by 3232\n"}});
  EXPECT_EQ(At(odd.config, "model.vocab_size"), 258560);
}

// MindSpeed-LLM's Qwen3-Next (tests/pipeline/st/qwen3-next/qwen3_next_80b_4K_A3_ptd.sh at
// 2d52b04172): --full-attention-interval 4 makes layer l (1-based) full attention when
// l % 4 == 0 and Gated DeltaNet otherwise (core/transformer/transformer_block.py build_layer).
// Shapes at hidden 256, 4 layers:
//   Gated DeltaNet (qwen3_next_gated_deltanet_attention.py), 2 key heads × 32, 4 value heads ×
//   32 (key_dim 64, value_dim 128): in_proj_qkvz 256 · (2·64 + 2·128) = 98,304; in_proj_ba
//   256 · 2·4 = 2,048; conv1d (2·64 + 128) · 4, no bias = 1,024; dt_bias, A_log 8; gated norm
//   32; out_proj 128 · 256 = 32,768 → 134,184.
//   Gated full attention (qwen3_next_full_attention.py), 4 heads / 2 groups × 64: q_proj
//   256 · 4·64·2 = 131,072; k_proj, v_proj 2 · 256 · 128 = 65,536; q / k norms 64 + 64;
//   linear_proj 256 · 256 = 65,536 → 262,272.
//   MoE: router 4 · 256 = 1,024; experts 4 · (256·2·64 + 64·256) = 196,608; one shared expert
//   of 64 (shared_expert.py: n_shared_experts · moe_ffn_hidden_size) 49,152 with its gate
//   (--shared-expert-gate) 256 → 247,040. Two norms a layer 512.
//   3 · (134,184 + 247,040 + 512) + (262,272 + 247,040 + 512) = 1,655,032; embedding and
//   output 2 · 1000 · 256 + final norm 256 → 2,167,288 (no MTP without --mtp-num-layers).
TEST(ImportMegatron, Qwen3NextFlagsBuildLinearAttentionLayers) {
  const std::string script = R"(NPUS_PER_NODE=8
torchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py \
    --use-mcore-models --spec mindspeed_llm.tasks.models.spec.qwen3_next_spec layer_spec \
    --qk-layernorm --full-attention-interval 4 --mamba-d-conv 4 --mamba-expand 1 \
    --kv-channels 64 --linear-key-head-dim 32 --linear-num-key-heads 2 \
    --linear-num-value-heads 4 --linear-value-head-dim 32 --partial-rotary-factor 0.25 \
    --num-layers 4 --hidden-size 256 --ffn-hidden-size 512 --num-attention-heads 4 \
    --group-query-attention --num-query-groups 2 --padded-vocab-size 1000 \
    --untie-embeddings-and-output-weights --disable-bias-linear --position-embedding-type rope \
    --normalization RMSNorm --swiglu --num-experts 4 --moe-router-topk 2 --n-shared-experts 1 \
    --shared-expert-gate --moe-ffn-hidden-size 64 --expert-model-parallel-size 4 \
    --seq-length 1024 --micro-batch-size 1 --bf16
)";
  const ImportResult r = MustImport({{"qwen3_next.sh", script}});
  ASSERT_TRUE(r.config_valid) << ::testing::PrintToString(r.report.problems);
  EXPECT_EQ(At(r.config, "model.model_type"), "qwen3_next");
  EXPECT_EQ(At(r.config, "model.full_attention_interval"), 4);
  EXPECT_EQ(At(r.config, "model.linear_num_value_heads"), 4);
  EXPECT_EQ(Total(r.config["model"]), 2167288);
}

// Megatron-DeepSpeed writes its DeepSpeed JSON with a here-document and passes it as
// --deepspeed_config; the JSON's ZeRO stage is the job's (2: optimizer states and gradients
// sharded over the data-parallel ranks).
TEST(ImportMegatron, MegatronDeepspeedZeroStageFromTheJsonTheScriptWrites) {
  const std::string script = R"(DS_CONFIG=./tmp/deepspeed.json
ZERO_STAGE=2
cat <<EOT > $DS_CONFIG
{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": $ZERO_STAGE}}
EOT
ds_args=" --deepspeed --deepspeed_config=$DS_CONFIG"
torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-layers 2 \
  --hidden-size 256 --num-attention-heads 4 --seq-length 128 --micro-batch-size 1 \
  --global-batch-size 4 --vocab-size 1024 --bf16 $ds_args
)";
  const ImportResult r = MustImport({{"ds_pretrain.sh", script}});
  EXPECT_EQ(r.config["framework"], "megatron");
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 2);
  bool written = false;
  for (const std::string& n : r.report.notes)
    written = written || n.find("writes ./tmp/deepspeed.json") != std::string::npos;
  EXPECT_TRUE(written);
}

// Megatron-Core MoE without --expert-tensor-parallel-size splits experts over TP (validate_args
// sets it to --tensor-model-parallel-size); an explicit value is kept; MindSpeed-LLM's legacy
// (non-mcore) MoE keeps the schema default.
TEST(ImportMegatron, ExpertTensorParallelDefaultsToTensorParallel) {
  const std::string base = R"(NPUS_PER_NODE=8
torchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py \
    --tensor-model-parallel-size 4 --expert-model-parallel-size 2 --num-experts 8 \
    --num-layers 2 --hidden-size 256 --num-attention-heads 4 --seq-length 128 \
    --micro-batch-size 1 --global-batch-size 2 --vocab-size 1024 --sequence-parallel)";
  const ImportResult mcore = MustImport({{"moe.sh", base + " --use-mcore-models\n"}});
  EXPECT_EQ(At(mcore.config, "parallelism.expert_tensor_parallel_degree"), 4);
  const ImportResult given =
      MustImport({{"moe.sh", base + " --use-mcore-models --expert-tensor-parallel-size 1\n"}});
  EXPECT_EQ(At(given.config, "parallelism.expert_tensor_parallel_degree"), 1);
  const ImportResult legacy = MustImport({{"moe.sh", base + "\n"}});
  EXPECT_TRUE(At(legacy.config, "parallelism.expert_tensor_parallel_degree").is_null());
}

// --geglu / --gelu-tanh (MindSpeed-LLM's Gemma scripts) make the MLP gated, like --swiglu.
TEST(ImportMegatron, GegluIsAGatedMlp) {
  const std::string script = R"(torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 256 --ffn-hidden-size 1024 --num-attention-heads 4 \
    --seq-length 128 --micro-batch-size 1 --vocab-size 1024 --make-vocab-size-divisible-by 1 \
    --disable-bias-linear --normalization RMSNorm --position-embedding-type rope --geglu
)";
  const ImportResult r = MustImport({{"gemma.sh", script}});
  EXPECT_EQ(At(r.config, "model.mlp_kind"), "gated");
  // Per layer: attention 4 · 256² = 262144, gated MLP 3 · 256 · 1024 = 786432, two RMSNorms
  // 512 → 1049088; two layers 2098176; tied embedding 1024 · 256 = 262144; final norm 256.
  const Config c = MustParse(r.config.dump());
  EXPECT_EQ(CountParams(c.model, false).total, 2098176 + 262144 + 256);
  std::string gemma2 = script;
  gemma2.replace(gemma2.find("--geglu"), 7, "--gelu-tanh");
  const ImportResult tanh = MustImport({{"gemma2.sh", gemma2}});
  EXPECT_EQ(At(tanh.config, "model.mlp_kind"), "gated");
  EXPECT_EQ(At(tanh.config, "model.hidden_act"), "gelu_pytorch_tanh");
}

// An older Slurm launch: the world from the #SBATCH header, the flags in a variable of any name
// run through `srun … sh -c "${run_cmd}"`, pre-2022 --activations-checkpoint-method (full
// layers), and a GPT-2 BPE vocabulary implied by --merge-file.
TEST(ImportMegatron, SlurmLaunchWithFlagsInAStringAndLegacyCheckpointing) {
  const std::string script = R"(#!/bin/bash
#SBATCH --nodes=4 --exclusive --ntasks-per-node=8 --job-name=gpt

options=" \
    --tensor-model-parallel-size 4 \
    --pipeline-model-parallel-size 2 \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 2 --global-batch-size 256 \
    --vocab-file gpt2-vocab.json --merge-file gpt2-merges.txt \
    --fp16 \
    --activations-checkpoint-method uniform "
run_cmd="python -u ${DIR}/pretrain_gpt.py $@ ${options}"
srun -l --container-image "nvcr.io/nvidia/pytorch:20.12-py3" sh -c "${run_cmd}"
)";
  const ImportResult r = MustImport({{"gpt_slurm.sh", script}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["world_size"], 32);  // 4 nodes × 8 tasks
  EXPECT_EQ(ReadLine(r, "world_size"), 2);
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 4);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  // DP = 32 / (4 × 2) = 4; GBS 256 / (2 × 4) = 32 microbatches of 2 → local batch 64.
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 64);
  // GPT-2 BPE: 50257 padded to a multiple of 128 × TP 4 = 512 → 50688.
  EXPECT_EQ(At(r.config, "model.vocab_size"), 50688);
  EXPECT_FALSE(Missing(r, "model.vocab_size"));
}

// No --seq-length (Retro loads it from its project directory): asked for, 2048 meanwhile.
TEST(ImportMegatron, SequenceLengthNotInTheScriptIsAskedFor) {
  const ImportResult r =
      MustImport({{"retro.sh",
                   "torchrun --nproc_per_node 8 pretrain_retro.py --num-layers 2 "
                   "--hidden-size 256 --num-attention-heads 4 --micro-batch-size 1 "
                   "--vocab-size 1024\n"}});
  EXPECT_TRUE(Missing(r, "training.seq_len"));
  EXPECT_EQ(At(r.config, "training.seq_len"), 2048);
}

// A template script whose model flags read variables it never sets (Megatron-LM's
// examples/academic_paper_scripts/sc21/CONFIG.sh: --num-layers ${NLS} --hidden-size ${HS}) has
// no model: it is asked for, not written as a model of zero layers and width 0.
TEST(ImportMegatron, ModelFlagsWithoutNumbersAskForTheModel) {
  const ImportResult r =
      MustImport({{"CONFIG.sh",
                   "export MEGATRON_PARAMS=\" --tensor-model-parallel-size ${TP} "
                   "--num-layers ${NLS} --hidden-size ${HS} --num-attention-heads ${NAH} "
                   "--micro-batch-size 1 --seq-length 2048 --fp16\"\n"}});
  EXPECT_TRUE(Missing(r, "model"));
  bool told = false;
  for (const ImportMissing& m : r.report.missing)
    told = told || m.why.find("--num-layers holds no number") != std::string::npos;
  EXPECT_TRUE(told);
  EXPECT_FALSE(AnyContains(r.report.problems, "must be at least 1 (got 0)"));
  // A flag that is simply absent is named as absent, the other one not at all.
  const ImportResult half = MustImport(
      {{"run.sh",
        "torchrun pretrain_gpt.py --num-layers 32 --micro-batch-size 1 --seq-length 2048\n"}});
  bool absent = false, blamed = false;
  for (const ImportMissing& m : half.report.missing) {
    absent = absent || m.why.find("no --hidden-size in the script") != std::string::npos;
    blamed = blamed || m.why.find("--num-layers") != std::string::npos;
  }
  EXPECT_TRUE(absent);
  EXPECT_FALSE(blamed);
}

}  // namespace
}  // namespace trainmem::testing
