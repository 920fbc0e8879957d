// The recipe table (bridge_recipes.h). Rows come from an AST read of the recipe functions, nothing
// imported or run: notes/bridge17/results/recipes_v0.2.0.tsv (Bridge 7af9601c, v0.2.0,
// B:recipes/<family>/*.py: the kwargs each `*_pretrain_config` passes to its `_common`) and
// recipes_HEAD_h100.tsv (Bridge 067f987d, B:recipes/<family>/h100/*.py: the `cfg.x = v`
// assignments over `_pretrain_common()` or another recipe). Cells a function does not set are
// its base's: `_pretrain_common` (B:recipes/common.py:37-133 @HEAD) GBS 32, MBS 2, seq 4096,
// bf16_mixed; TP/PP/CP 1. Resolved by hand:
// - _llama3_8b_pretrain_2gpu_h100_low_precision (h100/llama3.py:600-656 @HEAD): TP1 PP1 CP2,
//   GBS 768, MBS 1, seq 8192; the fp8mx / fp8cs / nvfp4 rows name its precision recipe;
// - nemotron_3_nano sets EP 8, ETP 1, seq 8192 through its provider (h100/nemotron_3_nano.py
//   118-131 @HEAD);
// - v0.2.0 precision None is bf16_mixed() (qwen3_moe.py:272); enable_recompute is full, uniform,
//   1 layer (qwen3.py:283-286, qwen3_moe.py:282-285); DeepSeek-V3 passes
//   MixedPrecisionConfig(bf16=True, grad_reduce_in_fp32=False) (deepseek_v3.py:106 @v0.2.0).
// Columns: name, source, preset, model, gpus, TP, PP, VPP, CP, EP, ETP, SP, GBS, MBS, seq,
// precision, recompute, recompute_modules, grad_reduce_in_bf16.
#include "core/import/bridge_recipes.h"

#include "core/import/import_detail.h"

namespace trainmem::import_detail {
namespace {

// clang-format off
constexpr BridgeRecipe kRecipes[] = {
    {"llama32_1b_pretrain_config", "llama3.py:137 @v0.2.0", "llama3.2-1b", "meta-llama/Llama-3.2-1B", 0, 1, 1, 0, 1, 0, 0, 0, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama32_3b_pretrain_config", "llama3.py:153 @v0.2.0", "llama3.2-3b", "meta-llama/Llama-3.2-3B", 0, 1, 1, 0, 1, 0, 0, 0, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama3_8b_pretrain_config", "llama3.py:170 @v0.2.0", "llama3-8b", "meta-llama/Meta-Llama-3-8B", 0, 1, 1, 0, 2, 0, 0, 0, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama3_8b_16k_pretrain_config", "llama3.py:186 @v0.2.0", "llama3-8b", "meta-llama/Meta-Llama-3-8B", 0, 4, 2, 0, 2, 0, 0, 1, 512, 1, 16384, "bf16_mixed", "", "", false},
    {"llama3_8b_64k_pretrain_config", "llama3.py:204 @v0.2.0", "llama3-8b", "meta-llama/Meta-Llama-3-8B", 0, 4, 2, 0, 4, 0, 0, 1, 512, 1, 65536, "bf16_mixed", "", "", false},
    {"llama3_8b_128k_pretrain_config", "llama3.py:222 @v0.2.0", "llama3-8b", "meta-llama/Meta-Llama-3-8B", 0, 4, 2, 0, 8, 0, 0, 1, 512, 1, 131072, "bf16_mixed", "", "", false},
    {"llama3_8b_low_precision_pretrain_config", "llama3.py:240 @v0.2.0", "llama3-8b", "meta-llama/Meta-Llama-3-8B", 0, 1, 1, 0, 2, 0, 0, 0, 768, 1, 8192, "", "", "", false},
    {"llama3_70b_pretrain_config", "llama3.py:288 @v0.2.0", "llama3-70b", "meta-llama/Meta-Llama-3-70B", 0, 4, 4, 5, 2, 0, 0, 1, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama3_70b_16k_pretrain_config", "llama3.py:311 @v0.2.0", "llama3-70b", "meta-llama/Meta-Llama-3-70B", 0, 8, 2, 0, 2, 0, 0, 1, 512, 1, 16384, "bf16_mixed", "", "", false},
    {"llama3_70b_64k_pretrain_config", "llama3.py:335 @v0.2.0", "llama3-70b", "meta-llama/Meta-Llama-3-70B", 0, 8, 4, 0, 8, 0, 0, 1, 512, 1, 65536, "bf16_mixed", "", "", false},
    {"llama31_8b_pretrain_config", "llama3.py:360 @v0.2.0", "llama3.1-8b", "meta-llama/Meta-Llama-3.1-8B", 0, 1, 1, 0, 2, 0, 0, 0, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama31_70b_pretrain_config", "llama3.py:376 @v0.2.0", "llama3.1-70b", "meta-llama/Meta-Llama-3.1-70B", 0, 4, 4, 5, 2, 0, 0, 1, 512, 1, 131072, "bf16_mixed", "", "", false},
    {"llama31_405b_pretrain_config", "llama3.py:400 @v0.2.0", "llama3.1-405b", "meta-llama/Meta-Llama-3.1-405B", 0, 8, 8, 2, 4, 0, 0, 1, 512, 1, 131072, "bf16_mixed", "", "", false},
    {"qwen2_500m_pretrain_config", "qwen2.py:82 @v0.2.0", "qwen2-0.5b", "Qwen/Qwen2-0.5B", 0, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen2_1p5b_pretrain_config", "qwen2.py:97 @v0.2.0", "qwen2-1.5b", "Qwen/Qwen2-1.5B", 0, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen2_7b_pretrain_config", "qwen2.py:112 @v0.2.0", "qwen2-7b", "Qwen/Qwen2-7B", 0, 2, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen2_72b_pretrain_config", "qwen2.py:128 @v0.2.0", "qwen2-72b", "Qwen/Qwen2-72B", 0, 8, 4, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_500m_pretrain_config", "qwen2.py:145 @v0.2.0", "qwen2.5-0.5b", "Qwen/Qwen2.5-0.5B", 0, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_1p5b_pretrain_config", "qwen2.py:161 @v0.2.0", "qwen2.5-1.5b", "Qwen/Qwen2.5-1.5B", 0, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_7b_pretrain_config", "qwen2.py:177 @v0.2.0", "qwen2.5-7b", "Qwen/Qwen2.5-7B", 0, 2, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_14b_pretrain_config", "qwen2.py:193 @v0.2.0", "qwen2.5-14b", "Qwen/Qwen2.5-14B", 0, 4, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_32b_pretrain_config", "qwen2.py:210 @v0.2.0", "qwen2.5-32b", "Qwen/Qwen2.5-32B", 0, 8, 2, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_72b_pretrain_config", "qwen2.py:227 @v0.2.0", "qwen2.5-72b", "Qwen/Qwen2.5-72B", 0, 8, 4, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_600m_pretrain_config", "qwen3.py:97 @v0.2.0", "qwen3-0.6b", "Qwen/Qwen3-0.6B", 0, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_1p7b_pretrain_config", "qwen3.py:112 @v0.2.0", "qwen3-1.7b", "Qwen/Qwen3-1.7B", 0, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_4b_pretrain_config", "qwen3.py:127 @v0.2.0", "qwen3-4b", "Qwen/Qwen3-4B", 0, 2, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_8b_pretrain_config", "qwen3.py:142 @v0.2.0", "qwen3-8b", "Qwen/Qwen3-8B", 0, 4, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_14b_pretrain_config", "qwen3.py:157 @v0.2.0", "qwen3-14b", "Qwen/Qwen3-14B", 0, 8, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_32b_pretrain_config", "qwen3.py:172 @v0.2.0", "qwen3-32b", "Qwen/Qwen3-32B", 0, 8, 2, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "full", "", false},
    {"qwen3_30b_a3b_pretrain_config", "qwen3_moe.py:127 @v0.2.0", "qwen3-30b-a3b", "Qwen/Qwen3-30B-A3B", 0, 4, 2, 0, 1, 4, 1, 1, 32, 2, 4096, "bf16_mixed", "full", "", false},
    {"qwen3_235b_a22b_pretrain_config", "qwen3_moe.py:146 @v0.2.0", "qwen3-235b-a22b", "Qwen/Qwen3-235B-A22B", 0, 4, 16, 0, 2, 8, 1, 1, 32, 1, 4096, "bf16_mixed", "", "", false},
    {"deepseek_v2_lite_pretrain_config", "deepseek_v2.py:85 @v0.2.0", "deepseek-v2-lite", "deepseek-ai/DeepSeek-V2-Lite", 0, 1, 1, 0, 1, 8, 0, 0, 512, 1, 4096, "bf16_mixed", "full", "", false},
    {"deepseek_v2_pretrain_config", "deepseek_v2.py:105 @v0.2.0", "deepseek-v2", "deepseek-ai/DeepSeek-V2", 0, 1, 4, 0, 1, 32, 0, 0, 512, 1, 4096, "bf16_mixed", "full", "", false},
    {"deepseek_v3_pretrain_config", "deepseek_v3.py:93 @v0.2.0", "deepseek-v3", "deepseek-ai/DeepSeek-V3", 0, 2, 16, 0, 1, 64, 0, 1, 4096, 1, 4096, "bf16_mixed", "selective", "", true},
    {"gpt_oss_20b_pretrain_config", "gpt_oss.py:132 @v0.2.0", "gpt-oss-20b", "openai/gpt-oss-20b", 0, 1, 4, 0, 1, 2, 0, 0, 512, 1, 4096, "bf16_mixed", "", "", false},
    {"gpt_oss_120b_pretrain_config", "gpt_oss.py:146 @v0.2.0", "gpt-oss-120b", "openai/gpt-oss-120b", 0, 1, 4, 0, 1, 8, 0, 0, 512, 1, 4096, "bf16_mixed", "", "", false},
    {"nemotronh_4b_pretrain_config", "nemotronh.py:85 @v0.2.0", "", "Nemotron-H 4B", 0, 1, 1, 0, 1, 0, 0, 0, 768, 1, 8192, "bf16_mixed", "", "", false},
    {"nemotronh_8b_pretrain_config", "nemotronh.py:105 @v0.2.0", "", "Nemotron-H 8B", 0, 2, 1, 0, 1, 0, 0, 1, 768, 1, 8192, "bf16_mixed", "", "", false},
    {"nemotronh_47b_pretrain_config", "nemotronh.py:125 @v0.2.0", "", "Nemotron-H 47B", 0, 8, 1, 0, 1, 0, 0, 1, 768, 1, 8192, "nemotron_h_bf16_with_fp8_current_scaling_mixed", "", "", false},
    {"nemotronh_56b_pretrain_config", "nemotronh.py:148 @v0.2.0", "", "Nemotron-H 56B", 0, 8, 1, 0, 1, 0, 0, 1, 768, 1, 8192, "nemotron_h_bf16_with_fp8_current_scaling_mixed", "", "", false},
    {"nemotron_nano_9b_v2_pretrain_config", "nemotron_nano_v2.py:81 @v0.2.0", "", "Nemotron Nano 9B v2", 0, 2, 1, 0, 1, 0, 0, 1, 768, 1, 8192, "bf16_mixed", "", "", false},
    {"nemotron_nano_12b_v2_pretrain_config", "nemotron_nano_v2.py:101 @v0.2.0", "", "Nemotron Nano 12B v2", 0, 4, 1, 0, 1, 0, 0, 1, 768, 1, 8192, "nanov2_bf16_with_fp8_current_scaling_mixed", "", "", false},
    {"llama32_1b_pretrain_1gpu_h100_bf16_config", "llama3.py:44 @HEAD", "llama3.2-1b", "meta-llama/Llama-3.2-1B", 1, 1, 1, 0, 1, 0, 0, 0, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama32_3b_pretrain_1gpu_h100_bf16_config", "llama3.py:145 @HEAD", "llama3.2-3b", "meta-llama/Llama-3.2-3B", 1, 1, 1, 0, 1, 0, 0, 0, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama3_8b_pretrain_2gpu_h100_bf16_config", "llama3.py:235 @HEAD", "llama3-8b", "meta-llama/Meta-Llama-3-8B", 2, 1, 1, 0, 2, 0, 0, 0, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama3_8b_pretrain_16gpu_h100_bf16_16k_config", "llama3.py:320 @HEAD", "llama3-8b", "meta-llama/Meta-Llama-3-8B", 16, 4, 2, 0, 2, 0, 0, 1, 512, 1, 16384, "bf16_mixed", "", "", false},
    {"llama3_8b_pretrain_32gpu_h100_bf16_64k_config", "llama3.py:405 @HEAD", "llama3-8b", "meta-llama/Meta-Llama-3-8B", 32, 4, 2, 0, 4, 0, 0, 1, 512, 1, 65536, "bf16_mixed", "", "", false},
    {"llama3_8b_pretrain_64gpu_h100_bf16_128k_config", "llama3.py:490 @HEAD", "llama3-8b", "meta-llama/Meta-Llama-3-8B", 64, 4, 2, 0, 8, 0, 0, 1, 512, 1, 131072, "bf16_mixed", "", "", false},
    {"llama3_8b_pretrain_2gpu_h100_fp8mx_config", "llama3.py:679 @HEAD", "llama3-8b", "", 2, 1, 1, 0, 2, 0, 0, 0, 768, 1, 8192, "bf16_with_mxfp8_mixed", "", "", false},
    {"llama3_8b_pretrain_2gpu_h100_fp8cs_config", "llama3.py:690 @HEAD", "llama3-8b", "", 2, 1, 1, 0, 2, 0, 0, 0, 768, 1, 8192, "bf16_with_fp8_current_scaling_mixed", "", "", false},
    {"llama3_8b_pretrain_2gpu_h100_nvfp4_config", "llama3.py:701 @HEAD", "llama3-8b", "", 2, 1, 1, 0, 2, 0, 0, 0, 768, 1, 8192, "bf16_with_nvfp4_mixed", "", "", false},
    {"llama3_70b_pretrain_32gpu_h100_bf16_config", "llama3.py:717 @HEAD", "llama3-70b", "meta-llama/Meta-Llama-3-70B", 32, 4, 4, 5, 2, 0, 0, 1, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama3_70b_pretrain_32gpu_h100_bf16_deterministic_config", "llama3.py:811 @HEAD", "llama3-70b", "", 32, 4, 4, 5, 2, 0, 0, 1, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama3_70b_pretrain_32gpu_h100_bf16_16k_config", "llama3.py:829 @HEAD", "llama3-70b", "meta-llama/Meta-Llama-3-70B", 32, 8, 2, 0, 2, 0, 0, 1, 512, 1, 16384, "bf16_mixed", "", "", false},
    {"llama3_70b_pretrain_256gpu_h100_bf16_64k_config", "llama3.py:922 @HEAD", "llama3-70b", "meta-llama/Meta-Llama-3-70B", 256, 8, 4, 0, 8, 0, 0, 1, 512, 1, 65536, "bf16_mixed", "", "", false},
    {"llama31_8b_pretrain_2gpu_h100_bf16_config", "llama3.py:1020 @HEAD", "llama3.1-8b", "meta-llama/Meta-Llama-3.1-8B", 2, 1, 1, 0, 2, 0, 0, 0, 512, 1, 8192, "bf16_mixed", "", "", false},
    {"llama31_70b_pretrain_32gpu_h100_bf16_config", "llama3.py:1107 @HEAD", "llama3.1-70b", "meta-llama/Meta-Llama-3.1-70B", 32, 4, 4, 5, 2, 0, 0, 1, 512, 1, 131072, "bf16_mixed", "", "", false},
    {"llama31_405b_pretrain_256gpu_h100_bf16_config", "llama3.py:1200 @HEAD", "llama3.1-405b", "meta-llama/Meta-Llama-3.1-405B", 256, 8, 8, 2, 4, 0, 0, 1, 512, 1, 131072, "bf16_mixed", "", "", false},
    {"llama31_405b_pretrain_256gpu_h100_bf16_deterministic_config", "llama3.py:1297 @HEAD", "llama3.1-405b", "", 256, 8, 8, 2, 4, 0, 0, 1, 512, 1, 131072, "bf16_mixed", "", "", false},
    {"qwen2_500m_pretrain_1gpu_h100_bf16_config", "qwen2.py:32 @HEAD", "qwen2-0.5b", "Qwen/Qwen2-0.5B", 1, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen2_1p5b_pretrain_1gpu_h100_bf16_config", "qwen2.py:123 @HEAD", "qwen2-1.5b", "Qwen/Qwen2-1.5B", 1, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen2_7b_pretrain_2gpu_h100_bf16_config", "qwen2.py:213 @HEAD", "qwen2-7b", "Qwen/Qwen2-7B", 2, 2, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen2_72b_pretrain_32gpu_h100_bf16_config", "qwen2.py:302 @HEAD", "qwen2-72b", "Qwen/Qwen2-72B", 32, 8, 4, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_500m_pretrain_1gpu_h100_bf16_config", "qwen2.py:397 @HEAD", "qwen2.5-0.5b", "Qwen/Qwen2.5-0.5B", 1, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_1p5b_pretrain_1gpu_h100_bf16_config", "qwen2.py:482 @HEAD", "qwen2.5-1.5b", "Qwen/Qwen2.5-1.5B", 1, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_7b_pretrain_2gpu_h100_bf16_config", "qwen2.py:567 @HEAD", "qwen2.5-7b", "Qwen/Qwen2.5-7B", 2, 2, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_14b_pretrain_4gpu_h100_bf16_config", "qwen2.py:652 @HEAD", "qwen2.5-14b", "Qwen/Qwen2.5-14B", 4, 4, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_32b_pretrain_16gpu_h100_bf16_config", "qwen2.py:742 @HEAD", "qwen2.5-32b", "Qwen/Qwen2.5-32B", 16, 8, 2, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen25_72b_pretrain_32gpu_h100_bf16_config", "qwen2.py:827 @HEAD", "qwen2.5-72b", "Qwen/Qwen2.5-72B", 32, 8, 4, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_600m_pretrain_1gpu_h100_bf16_config", "qwen3.py:32 @HEAD", "qwen3-0.6b", "Qwen/Qwen3-0.6B", 1, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_1p7b_pretrain_1gpu_h100_bf16_config", "qwen3.py:117 @HEAD", "qwen3-1.7b", "Qwen/Qwen3-1.7B", 1, 1, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_4b_pretrain_2gpu_h100_bf16_config", "qwen3.py:202 @HEAD", "qwen3-4b", "Qwen/Qwen3-4B", 2, 2, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_8b_pretrain_4gpu_h100_bf16_config", "qwen3.py:287 @HEAD", "qwen3-8b", "", 4, 4, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_8b_pretrain_16gpu_h100_bf16_config", "qwen3.py:375 @HEAD", "qwen3-8b", "", 16, 1, 1, 0, 1, 0, 0, 0, 1024, 1, 4096, "bf16_mixed", "", "", false},
    {"qwen3_14b_pretrain_8gpu_h100_bf16_config", "qwen3.py:430 @HEAD", "qwen3-14b", "Qwen/Qwen3-14B", 8, 8, 1, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "", "", false},
    {"qwen3_32b_pretrain_16gpu_h100_bf16_config", "qwen3.py:515 @HEAD", "qwen3-32b", "Qwen/Qwen3-32B", 16, 8, 2, 0, 1, 0, 0, 0, 32, 2, 4096, "bf16_mixed", "full", "", false},
    {"qwen3_30b_a3b_pretrain_8gpu_h100_bf16_config", "qwen3_moe.py:32 @HEAD", "qwen3-30b-a3b", "", 8, 4, 2, 0, 1, 4, 1, 1, 32, 2, 4096, "bf16_mixed", "full", "", false},
    {"qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config", "qwen3_moe.py:146 @HEAD", "qwen3-30b-a3b", "", 16, 1, 1, 0, 1, 16, 1, 0, 1024, 1, 4096, "bf16_mixed", "", "", false},
    {"qwen3_235b_a22b_pretrain_256gpu_h100_bf16_config", "qwen3_moe.py:228 @HEAD", "qwen3-235b-a22b", "Qwen/Qwen3-235B-A22B", 256, 4, 16, 0, 2, 8, 1, 1, 32, 1, 4096, "bf16_mixed", "", "", false},
    {"deepseek_v2_lite_pretrain_8gpu_h100_bf16_config", "deepseek_v2.py:25 @HEAD", "deepseek-v2-lite", "deepseek-ai/DeepSeek-V2-Lite", 8, 1, 1, 0, 1, 8, 0, 0, 512, 1, 4096, "bf16_mixed", "full", "", false},
    {"deepseek_v2_pretrain_128gpu_h100_bf16_config", "deepseek_v2.py:147 @HEAD", "deepseek-v2", "deepseek-ai/DeepSeek-V2", 128, 1, 4, 0, 1, 32, 0, 0, 512, 1, 4096, "bf16_mixed", "full", "", false},
    {"deepseek_v3_pretrain_1024gpu_h100_bf16_config", "deepseek_v3.py:105 @HEAD", "deepseek-v3", "deepseek-ai/DeepSeek-V3", 1024, 2, 16, 0, 1, 64, 1, 1, 4096, 1, 4096, "bf16_mixed", "", "", true},
    {"deepseek_v3_pretrain_256gpu_h100_bf16_32nodes_config", "deepseek_v3.py:272 @HEAD", "deepseek-v3", "deepseek-ai/DeepSeek-V3", 256, 2, 8, 0, 1, 32, 1, 1, 4096, 1, 4096, "bf16_mixed", "full", "", true},
    {"gpt_oss_20b_pretrain_16gpu_h100_bf16_config", "gpt_oss.py:37 @HEAD", "gpt-oss-20b", "openai/gpt-oss-20b", 16, 2, 4, 0, 1, 4, 1, 1, 512, 1, 4096, "bf16_mixed", "", "", false},
    {"gpt_oss_120b_pretrain_64gpu_h100_bf16_config", "gpt_oss.py:162 @HEAD", "gpt-oss-120b", "openai/gpt-oss-120b", 64, 2, 4, 0, 1, 16, 1, 1, 512, 1, 4096, "bf16_mixed", "", "", false},
    {"nemotron_3_nano_pretrain_8gpu_h100_bf16_config", "nemotron_3_nano.py:65 @HEAD", "nemotron-3-nano-30b-a3b", "", 8, 1, 1, 0, 1, 8, 1, 0, 1024, 1, 8192, "bf16_mixed", "selective", "moe,layernorm", true},
    {"nemotron_3_5_lightning_pretrain_config", "nemotron_3_nano.py:256 @HEAD", "", "Nemotron 3.5 Lightning", 0, 1, 1, 0, 2, 8, 1, 0, 512, 1, 8192, "bf16_mixed", "selective", "moe,layernorm,core_attn", false},
    {"nemotron_3_super_pretrain_16gpu_h100_bf16_config", "nemotron_3_super.py:32 @HEAD", "", "Nemotron-3-Super", 16, 8, 1, 0, 1, 16, 1, 1, 1024, 1, 8192, "bf16_mixed", "", "", false},
};

struct Alias {
  const char* legacy;
  const char* target;
  const char* source;  // B:recipes/<file>:<line> @HEAD
};

// HEAD's compatibility names (`from …h100.llama3 import X as legacy_name`).
constexpr Alias kAliases[] = {
    {"deepseek_v2_lite_pretrain_config", "deepseek_v2_lite_pretrain_8gpu_h100_bf16_config", "deepseek/deepseek_v2.py:20"},
    {"deepseek_v2_pretrain_config", "deepseek_v2_pretrain_128gpu_h100_bf16_config", "deepseek/deepseek_v2.py:23"},
    {"deepseek_v3_pretrain_config_32nodes", "deepseek_v3_pretrain_256gpu_h100_bf16_32nodes_config", "deepseek/deepseek_v3.py:24"},
    {"deepseek_v3_pretrain_config", "deepseek_v3_pretrain_1024gpu_h100_bf16_config", "deepseek/deepseek_v3.py:27"},
    {"gpt_oss_20b_pretrain_config", "gpt_oss_20b_pretrain_16gpu_h100_bf16_config", "gpt_oss/gpt_oss.py:33"},
    {"gpt_oss_120b_pretrain_config", "gpt_oss_120b_pretrain_64gpu_h100_bf16_config", "gpt_oss/gpt_oss.py:60"},
    {"llama3_8b_pretrain_config", "llama3_8b_pretrain_2gpu_h100_bf16_config", "llama/llama3.py:23"},
    {"llama3_8b_low_precision_pretrain_config", "llama3_8b_pretrain_2gpu_h100_fp8cs_config", "llama/llama3.py:26"},
    {"llama3_8b_16k_pretrain_config", "llama3_8b_pretrain_16gpu_h100_bf16_16k_config", "llama/llama3.py:29"},
    {"llama3_8b_64k_pretrain_config", "llama3_8b_pretrain_32gpu_h100_bf16_64k_config", "llama/llama3.py:32"},
    {"llama3_8b_128k_pretrain_config", "llama3_8b_pretrain_64gpu_h100_bf16_128k_config", "llama/llama3.py:35"},
    {"llama3_70b_16k_pretrain_config", "llama3_70b_pretrain_32gpu_h100_bf16_16k_config", "llama/llama3.py:44"},
    {"llama3_70b_pretrain_config", "llama3_70b_pretrain_32gpu_h100_bf16_config", "llama/llama3.py:47"},
    {"llama3_70b_pretrain_deterministic_config", "llama3_70b_pretrain_32gpu_h100_bf16_deterministic_config", "llama/llama3.py:50"},
    {"llama3_70b_64k_pretrain_config", "llama3_70b_pretrain_256gpu_h100_bf16_64k_config", "llama/llama3.py:53"},
    {"llama31_8b_pretrain_config", "llama31_8b_pretrain_2gpu_h100_bf16_config", "llama/llama3.py:62"},
    {"llama31_70b_pretrain_config", "llama31_70b_pretrain_32gpu_h100_bf16_config", "llama/llama3.py:71"},
    {"llama31_405b_pretrain_config", "llama31_405b_pretrain_256gpu_h100_bf16_config", "llama/llama3.py:80"},
    {"llama31_405b_pretrain_deterministic_config", "llama31_405b_pretrain_256gpu_h100_bf16_deterministic_config", "llama/llama3.py:83"},
    {"llama32_1b_pretrain_config", "llama32_1b_pretrain_1gpu_h100_bf16_config", "llama/llama3.py:92"},
    {"llama32_3b_pretrain_config", "llama32_3b_pretrain_1gpu_h100_bf16_config", "llama/llama3.py:101"},
    {"nemotron_3_nano_pretrain_config", "nemotron_3_nano_pretrain_8gpu_h100_bf16_config", "nemotronh/nemotron_3_nano.py:29"},
    {"qwen2_1p5b_pretrain_config", "qwen2_1p5b_pretrain_1gpu_h100_bf16_config", "qwen/qwen2.py:23"},
    {"qwen2_7b_pretrain_config", "qwen2_7b_pretrain_2gpu_h100_bf16_config", "qwen/qwen2.py:32"},
    {"qwen2_72b_pretrain_config", "qwen2_72b_pretrain_32gpu_h100_bf16_config", "qwen/qwen2.py:41"},
    {"qwen2_500m_pretrain_config", "qwen2_500m_pretrain_1gpu_h100_bf16_config", "qwen/qwen2.py:50"},
    {"qwen25_1p5b_pretrain_config", "qwen25_1p5b_pretrain_1gpu_h100_bf16_config", "qwen/qwen2.py:59"},
    {"qwen25_7b_pretrain_config", "qwen25_7b_pretrain_2gpu_h100_bf16_config", "qwen/qwen2.py:68"},
    {"qwen25_14b_pretrain_config", "qwen25_14b_pretrain_4gpu_h100_bf16_config", "qwen/qwen2.py:77"},
    {"qwen25_32b_pretrain_config", "qwen25_32b_pretrain_16gpu_h100_bf16_config", "qwen/qwen2.py:86"},
    {"qwen25_72b_pretrain_config", "qwen25_72b_pretrain_32gpu_h100_bf16_config", "qwen/qwen2.py:95"},
    {"qwen25_500m_pretrain_config", "qwen25_500m_pretrain_1gpu_h100_bf16_config", "qwen/qwen2.py:104"},
    {"qwen3_1p7b_pretrain_config", "qwen3_1p7b_pretrain_1gpu_h100_bf16_config", "qwen/qwen3.py:23"},
    {"qwen3_4b_pretrain_config", "qwen3_4b_pretrain_2gpu_h100_bf16_config", "qwen/qwen3.py:32"},
    {"qwen3_8b_pretrain_config", "qwen3_8b_pretrain_16gpu_h100_bf16_config", "qwen/qwen3.py:41"},
    {"qwen3_14b_pretrain_config", "qwen3_14b_pretrain_8gpu_h100_bf16_config", "qwen/qwen3.py:53"},
    {"qwen3_32b_pretrain_config", "qwen3_32b_pretrain_16gpu_h100_bf16_config", "qwen/qwen3.py:62"},
    {"qwen3_600m_pretrain_config", "qwen3_600m_pretrain_1gpu_h100_bf16_config", "qwen/qwen3.py:71"},
    {"qwen3_30b_a3b_pretrain_config", "qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config", "qwen/qwen3_moe.py:23"},
    {"qwen3_235b_a22b_pretrain_config", "qwen3_235b_a22b_pretrain_256gpu_h100_bf16_config", "qwen/qwen3_moe.py:32"},
};
// clang-format on

const BridgeRecipe* ByName(std::string_view name) {
  for (const BridgeRecipe& r : kRecipes)
    if (name == r.name) return &r;
  return nullptr;
}

}  // namespace

RecipeLookup FindBridgeRecipe(std::string_view name, bool head_layout) {
  RecipeLookup out;
  const BridgeRecipe* own = ByName(name);
  const Alias* alias = nullptr;
  for (const Alias& a : kAliases)
    if (name == a.legacy) alias = &a;
  // A 2025 name means the v0.2.0 function, unless a 2026 launcher resolves it through HEAD's
  // alias.
  if (alias != nullptr && (head_layout || own == nullptr)) {
    out.recipe = ByName(alias->target);
    out.note = std::string(name) + " is HEAD's alias of " + alias->target + " (" + alias->source +
               ")" +
               (own != nullptr && head_layout
                    ? "; at v0.2.0 it was its own recipe (" + std::string(own->source) + ")"
                    : "");
    return out;
  }
  out.recipe = own;
  if (own != nullptr && alias != nullptr)
    out.note = std::string(name) + " is the v0.2.0 recipe (" + own->source + "); at HEAD it is " +
               "an alias of " + alias->target;
  return out;
}

std::string UnknownRecipeReason(std::string_view name) {
  const std::string n(name);
  for (const char* mode : {"_finetune_", "_sft_", "_peft_", "_lora_", "_dora_"})
    if (n.find(mode) != std::string::npos)
      return "trainmem's recipe table holds pretraining recipes only (finetune, SFT and PEFT "
             "recipes set their layout from the PEFT scheme); give the layout as overrides or "
             "the resolved run_config.yaml";
  return "not a pretraining recipe trainmem knows (its table: Megatron-Bridge v0.2.0 and the "
         "HEAD H100 recipes); check the name, or give the resolved run_config.yaml "
         "(run_recipe.py --dry-run logger.save_config_filepath=…)";
}

void AddRecipeDefaults(const BridgeRecipe& r, const BridgeOrigin& origin, BridgeTree& tree) {
  auto set = [&](const char* key, json v) { tree.Set(key, std::move(v), origin); };
  set("model.tensor_model_parallel_size", r.tp > 0 ? r.tp : 1);
  set("model.pipeline_model_parallel_size", r.pp > 0 ? r.pp : 1);
  if (r.vpp > 0) set("model.virtual_pipeline_model_parallel_size", r.vpp);
  set("model.context_parallel_size", r.cp > 0 ? r.cp : 1);
  if (r.ep > 0) set("model.expert_model_parallel_size", r.ep);
  if (r.etp > 0) set("model.expert_tensor_parallel_size", r.etp);
  set("model.sequence_parallel", r.sp != 0);
  set("train.global_batch_size", r.gbs);
  set("train.micro_batch_size", r.mbs);
  // GPTDatasetConfig's field was sequence_length until HEAD moved every dataset to seq_length
  // (B:training/config.py:231 @HEAD), which the 2026 recipes set.
  const bool v020 = std::string(r.source).find("@v0.2.0") != std::string::npos;
  set(v020 ? "dataset.sequence_length" : "dataset.seq_length", r.seq);
  set("model.seq_length", r.seq);
  if (r.precision[0] != '\0') set("mixed_precision", r.precision);
  if (r.grad_reduce_in_bf16) set("ddp.grad_reduce_in_fp32", false);
  // Every recipe builds its optimizer with distributed_fused_adam_with_cosine_annealing
  // (B:recipes/utils/optimizer_utils.py:62): the distributed optimizer.
  set("optimizer.use_distributed_optimizer", true);
  const std::string recompute = r.recompute;
  if (recompute == "full") {
    set("model.recompute_granularity", "full");
    set("model.recompute_method", "uniform");
    set("model.recompute_num_layers", 1);
  } else if (recompute == "selective") {
    set("model.recompute_granularity", "selective");
    json modules = json::array();
    std::string m = r.recompute_modules[0] != '\0' ? r.recompute_modules : "core_attn";
    for (std::size_t start = 0; start <= m.size();) {
      const std::size_t comma = std::min(m.find(',', start), m.size());
      modules.push_back(m.substr(start, comma - start));
      start = comma + 1;
    }
    set("model.recompute_modules", modules);
  }
}

}  // namespace trainmem::import_detail
