// The page's words: the Chinese table keeps every template's conversions, core messages are
// translated by template with their numbers, advice changes are words (never raw keys), and
// model sizes are written as their names write them.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "../core/import_test_support.h"
#include "../core/test_support.h"
#include "app/words/i18n.h"
#include "app/words/labels.h"
#include "core/advice/advice.h"
#include "core/compare/compare.h"
#include "core/compare/measurement.h"
#include "core/estimate/estimate.h"
#include "core/import/import.h"
#include "core/link/share_link.h"

namespace app {
namespace {

using trainmem::testing::MustParse;
using trainmem::testing::With;

// printf conversions in order ("%s", "%lld", "%.1f", "%%").
std::vector<std::string> Conversions(const std::string& text) {
  static const std::regex conversion("%[-+ #0]*[0-9]*(\\.[0-9]+)?(ll|l)?[a-zA-Z%]");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), conversion);
       it != std::sregex_iterator(); ++it)
    out.push_back(it->str());
  return out;
}

// The estimate's warning that mentions `needle`, in the current language ("" when none does).
std::string TranslatedWarning(const trainmem::Config& c, const std::string& needle) {
  std::string translated;
  for (const std::string& w : trainmem::EstimateMemory(c).warnings)
    if (w.find(needle) != std::string::npos) translated = TrCore(w);
  return translated;
}

class Chinese : public ::testing::Test {
 protected:
  void SetUp() override { SetLanguage(Language::kChinese); }
  void TearDown() override { SetLanguage(Language::kEnglish); }
};

// TrFormat passes the same arguments whatever the language: a translation with other
// conversions would read garbage (or crash) from the argument list.
TEST(WordsTest, EveryTranslationKeepsTheTemplatesConversions) {
  for (int i = 0; i < static_cast<int>(Str::kCount); ++i) {
    const Str id = static_cast<Str>(i);
    SetLanguage(Language::kEnglish);
    const std::string english = Tr(id);
    SetLanguage(Language::kChinese);
    const std::string chinese = Tr(id);
    EXPECT_EQ(Conversions(chinese), Conversions(english)) << "string #" << i << ": " << chinese;
  }
  SetLanguage(Language::kEnglish);
}

// The error a reader gets for TP 7 on 8 devices, translated with its numbers.
TEST_F(Chinese, CoreMessagesAreTranslatedWithTheirNumbers) {
  const trainmem::Config c = With(MustParse(R"({"model": "llama3-8b"})"), {{"ws", "8"}});
  trainmem::Config bad = c;
  bad.parallelism.tp = 7;
  const std::vector<trainmem::Error> errors = trainmem::ValidateConfig(bad);
  ASSERT_FALSE(errors.empty());
  const std::string message = TrCore(errors.front().message);
  EXPECT_NE(message.find("卡数 8"), std::string::npos) << message;
  EXPECT_NE(message.find("= 7"), std::string::npos) << message;
  // A message no template knows is shown as written.
  EXPECT_EQ(TrCore("something new"), "something new");
}

// What a config.json was read as (hybrid blocks, Mamba layers, multimodal, unknown model_type)
// is shown in Chinese whole, its numbers carried over: no English sentence is left.
// What a garbled link, a repeated key and an import over the page's job say, in Chinese: each
// sentence is translated, the key and values carried over as written.
TEST_F(Chinese, LinkAndImportMessagesOfReview17AreTranslated) {
  const trainmem::DecodedLink garbage =
      trainmem::DecodeShareFragment("v1&%E0%A4%A=1&=x&b=2&b=4", trainmem::testing::TestPresets());
  std::vector<std::string> messages;
  for (const auto* list : {&garbage.errors, &garbage.warnings})
    for (const trainmem::Error& e : *list) messages.push_back(e.message);
  ASSERT_EQ(messages.size(), 3u);
  for (const std::string& m : messages) {
    const std::string zh = TrCore(m);
    EXPECT_NE(zh, m) << m;
    EXPECT_EQ(zh.find("given"), std::string::npos) << zh;
    EXPECT_EQ(zh.find("has no key"), std::string::npos) << zh;
    EXPECT_EQ(zh.find("percent"), std::string::npos) << zh;
  }
  EXPECT_NE(TrCore(garbage.warnings[0].message).find("2，然后 4"), std::string::npos)
      << TrCore(garbage.warnings[0].message);
  // An import over the page's job: the kept value's reason.
  trainmem::Result<trainmem::ImportResult> imported = trainmem::ImportFiles(
      {{"ds.json", R"({"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}})"}},
      {}, trainmem::testing::TestPresets());
  ASSERT_TRUE(imported.ok());
  trainmem::ImportResult r = imported.value();
  trainmem::KeepPageValues(
      r, trainmem::ConfigToJson(trainmem::testing::MustParse(R"({"model": "qwen2.5-7b",
          "world_size": 16})")),
      trainmem::testing::TestPresets());
  bool kept = false;
  for (const trainmem::ImportMissing& m : r.report.missing) {
    if (m.key != "world_size") continue;
    kept = true;
    EXPECT_EQ(TrCore(m.why), "文件中未写明；沿用页面上的值");
  }
  EXPECT_TRUE(kept);
  // The words that changed with them.
  EXPECT_EQ(std::string(Tr(Str::kImportKeptTemplate)).find("Kept"), std::string::npos);
  EXPECT_EQ(std::string(Tr(Str::kAdviceLinkPartly)).find("link"), std::string::npos);
  EXPECT_NE(std::string(Tr(Str::kMicroBatchWords)).find("样本"), std::string::npos);
  EXPECT_EQ(std::string(Tr(Str::kRoughRuleSaysTemplate)).find("不按 FSDP"), std::string::npos);
}

// What the import panel shows on a Chinese page: why each value is missing, the problems, and
// why a setting was left out. Job files of tests/data/import alone, and scripts written to miss
// what they can: each reason and problem (the config's own errors aside, translated elsewhere)
// reads in Chinese, with no English sentence left in it.
TEST_F(Chinese, ImportReasonsAndProblemsAreTranslated) {
  using trainmem::testing::Fixture;
  std::vector<std::vector<trainmem::InputFile>> jobs;
  for (const char* name :
       {"ds_hf_auto.json", "ds_zero3_offload.json", "hf_deepspeed_sft.sh", "llamafactory_sft.yaml",
        "megatron_llama_fp8.sh", "mindspeed_moe_A3.sh", "fsdp2_moe_A3.sh", "fsdp2_moe_A3.yaml",
        "tt_llama3_8b_job.toml", "torchtune_8B_full.yaml", "bridge_llama32_1b_run_config.yaml",
        "bridge_llama3_8b_pretrain_override_example.yaml", "bridge_perf_harness_nemotron3_super.sh",
        "bridge_issue3500_nemotron3_super.sh"})
    jobs.push_back({Fixture(name)});
  // Model flags that are variables the script never sets, a tokenizer file for the vocabulary,
  // no batch size or sequence length, sequence parallelism without TP, a world size the layout
  // does not divide.
  jobs.push_back({{"pretrain.sh",
                   "torchrun --nproc_per_node 6 pretrain_gpt.py --num-layers $LAYERS "
                   "--hidden-size $HIDDEN --num-attention-heads 32 --sequence-parallel "
                   "--tensor-model-parallel-size 1 --pipeline-model-parallel-size 4 "
                   "--tokenizer-type Llama2Tokenizer --tokenizer-model /data/tok.model\n"}});
  jobs.push_back({{"train.sh",
                   "deepspeed train.py --model_name_or_path /ckpt/unknown-model "
                   "--deepspeed ds_config.json --per_device_train_batch_size 2\n"}});
  std::size_t checked = 0;
  const std::regex english("[a-z]{2,} [a-z]{2,} [a-z]{2,}");
  for (const auto& files : jobs) {
    trainmem::Result<trainmem::ImportResult> r =
        trainmem::ImportFiles(files, {}, trainmem::testing::TestPresets());
    if (!r.ok()) continue;
    std::vector<std::string> texts = r.value().report.problems;
    for (const trainmem::ImportMissing& m : r.value().report.missing) texts.push_back(m.why);
    for (const trainmem::ImportIgnored& i : r.value().report.ignored) texts.push_back(i.reason);
    for (const std::string& text : texts) {
      if (text.rfind(trainmem::kConfigProblemPrefix, 0) == 0) continue;
      const std::string zh = TrCore(text);
      ++checked;
      EXPECT_NE(zh, text) << files[0].name << ": " << text;
      EXPECT_FALSE(std::regex_search(zh, english)) << files[0].name << ": " << zh;
    }
  }
  EXPECT_GE(checked, 60u);
  // The shell reader's notes on a script's variables.
  EXPECT_EQ(TrCore("run.sh:6: GPUS_PER_NODE is not set: its default '8' is used"),
            "run.sh:6：GPUS_PER_NODE 未设置：使用其默认值 '8'");
  // A reason joined from parts is translated part by part, or left whole in English.
  EXPECT_EQ(
      TrCore("no --num-layers in the script; --hidden-size holds no number (a variable "
             "the script does not set?); or pick a preset / give a config.json"),
      "脚本中没有 --num-layers；--hidden-size 不是数字（是脚本没有设置的变量？）；或选一个预设 / "
      "提供 config.json");
  EXPECT_EQ(TrCore("world size 6 (launcher: torchrun --nproc_per_node 6) is not divisible by "
                   "TP·PP·CP = 1·4·1 = 4: Megatron refuses to start (parallel_state.py "
                   "initialize_model_parallel); the world size is kept"),
            "总卡数 6（launcher: torchrun --nproc_per_node 6） 不能被 TP·PP·CP = 1·4·1 = 4 "
            "整除：Megatron "
            "会拒绝启动（parallel_state.py initialize_model_parallel）；保留该总卡数");
  EXPECT_EQ(TrCore("no --num-layers in the script; something new"),
            "脚本中没有 --num-layers; something new");
}

TEST_F(Chinese, ModelReadingNotesAreTranslated) {
  const nlohmann::json hybrid = {{"model_type", "falcon_h1"}, {"hidden_size", 1024},
                                 {"num_hidden_layers", 4},    {"num_attention_heads", 8},
                                 {"vocab_size", 1000},        {"intermediate_size", 2048},
                                 {"mamba_d_ssm", 1536},       {"mamba_n_heads", 24}};
  nlohmann::json conv = {{"model_type", "lfm2"},   {"hidden_size", 1024},
                         {"num_hidden_layers", 4}, {"num_attention_heads", 8},
                         {"vocab_size", 1000},     {"block_ff_dim", 3072},
                         {"full_attn_idxs", {1}}};
  nlohmann::json mamba = {{"model_type", "mamba"},
                          {"hidden_size", 768},
                          {"num_hidden_layers", 4},
                          {"vocab_size", 1000},
                          {"intermediate_size", 1536}};
  nlohmann::json unknown = {{"model_type", "newmodel"}, {"hidden_size", 1024},
                            {"num_hidden_layers", 4},   {"num_attention_heads", 8},
                            {"vocab_size", 1000},       {"intermediate_size", 2048},
                            {"cross_layer_step", 2}};
  nlohmann::json deci = {
      {"model_type", "nemotron-nas"},
      {"hidden_size", 256},
      {"num_attention_heads", 4},
      {"num_hidden_layers", 1},
      {"vocab_size", 1000},
      {"block_configs", {{{"attention", {{"no_op", true}}}, {"ffn", {{"ffn_mult", 1.5}}}}}}};
  nlohmann::json omni = {
      {"model_type", "qwen3_omni_moe"},
      {"thinker_config", {{"text_config", unknown}, {"vision_config", nlohmann::json::object()}}}};
  nlohmann::json vision = {{"model_type", "newvlm"},
                           {"text_config", hybrid},
                           {"vision_config", nlohmann::json::object()}};
  nlohmann::json kimi = {
      {"model_type", "kimi_linear"},
      {"hidden_size", 256},
      {"num_hidden_layers", 2},
      {"num_attention_heads", 4},
      {"vocab_size", 1000},
      {"intermediate_size", 512},
      {"linear_attn_config", {{"kda_layers", {1}}, {"num_heads", 4}, {"head_dim", 64}}}};
  nlohmann::json longcat = {{"model_type", "longcat_flash"},
                            {"hidden_size", 256},
                            {"num_layers", 2},
                            {"num_attention_heads", 4},
                            {"vocab_size", 1000},
                            {"ffn_hidden_size", 512},
                            {"expert_ffn_hidden_size", 128},
                            {"n_routed_experts", 8},
                            {"moe_topk", 2},
                            {"kv_lora_rank", 64},
                            {"qk_nope_head_dim", 32},
                            {"qk_rope_head_dim", 16},
                            {"v_head_dim", 32}};
  nlohmann::json zamba = {{"model_type", "zamba2"},
                          {"hidden_size", 256},
                          {"num_hidden_layers", 2},
                          {"num_attention_heads", 4},
                          {"vocab_size", 1000},
                          {"intermediate_size", 512},
                          {"n_mamba_heads", 8},
                          {"mamba_headdim", 64},
                          {"layers_block_type", {"mamba", "hybrid"}}};
  std::size_t notes = 0;
  for (const nlohmann::json& config :
       {hybrid, conv, mamba, unknown, deci, vision, omni, kimi, longcat, zamba}) {
    const trainmem::ModelArch arch = trainmem::testing::MustParseModel(config);
    for (const std::string& w : arch.warnings) {
      const std::string zh = TrCore(w);
      ++notes;
      EXPECT_NE(zh, w) << w;
      EXPECT_EQ(zh.find(" layers "), std::string::npos) << zh;
      EXPECT_EQ(zh.find(" blocks "), std::string::npos) << zh;
    }
  }
  // vision: the multimodal note and its text model's hybrid note; omni: the omni and multimodal
  // notes and its text model's unknown-model_type note.
  EXPECT_EQ(notes, 15u);
  EXPECT_EQ(TrCore(trainmem::testing::MustParseModel(hybrid).warnings.front()).rfind("4 / 4", 0),
            0u);
}

// The refusal of an unknown type with Mamba fields it cannot place reads in Chinese, with the
// model_type and the field names kept.
TEST_F(Chinese, UnplacedMambaLayersRefusalIsTranslated) {
  nlohmann::json plamo = {{"model_type", "plamo2"}, {"hidden_size", 1024},
                          {"num_hidden_layers", 4}, {"num_attention_heads", 8},
                          {"vocab_size", 1000},     {"intermediate_size", 2048},
                          {"mamba_step", 2}};
  const trainmem::Result<trainmem::ModelArch> r = trainmem::ParseModelArch(plamo, "model");
  ASSERT_FALSE(r.ok());
  const std::string zh = TrCore(r.errors()[0].message);
  EXPECT_NE(zh, r.errors()[0].message);
  EXPECT_NE(zh.find("\"plamo2\""), std::string::npos) << zh;
  EXPECT_NE(zh.find("（mamba_step）"), std::string::npos) << zh;
}

// The warning for an optimizer option the framework lacks (frameworks.cpp), with the framework
// and what it has instead carried over.
TEST_F(Chinese, OptionTheFrameworkLacksIsTranslated) {
  trainmem::Config c = With(MustParse(R"({"model": "llama3-8b", "framework": "deepspeed"})"),
                            {{"ws", "8"}, {"swap", "true"}});
  EXPECT_EQ(TranslatedWarning(c, "has no effect"),
            "optimizer.swap_optimizer 对 deepspeed 无效（它没有 swap_optimizer）；它的 "
            "optimizer.offload 即 zero_optimization.offload_optimizer");
}

// The December warnings read in Chinese with their numbers: Megatron's uneven pipeline split,
// MinimalAsyncEP's buffers outside the allocator, and the EP dispatcher on another framework.
TEST_F(Chinese, PipelineSplitAndDispatcherWarningsAreTranslated) {
  const trainmem::Config uneven = With(
      MustParse(R"({"model": "llama3-8b", "framework": "megatron"})"), {{"ws", "12"}, {"pp", "3"}});
  const std::string split = TranslatedWarning(uneven, "pipeline stages");
  EXPECT_EQ(split.rfind("32 层无法均分到 3 个流水线阶段", 0), 0u) << split;
  const trainmem::Config minimal =
      With(MustParse(R"({"model": "deepseek-v2-lite", "device": "h100-80gb"})"),
           {{"ws", "8"}, {"ep", "4"}, {"b", "16"}, {"s", "4096"}, {"epcomm", "minimal_async_ep"}});
  const std::string buffers = TranslatedWarning(minimal, "MinimalAsyncEP");
  EXPECT_NE(buffers.find("12.00 GiB 对称内存"), std::string::npos) << buffers;
  const trainmem::Config megatron =
      With(MustParse(R"({"model": "qwen3-30b-a3b", "framework": "megatron"})"),
           {{"ws", "8"}, {"ep", "8"}, {"epcomm", "deepep"}});
  EXPECT_EQ(TranslatedWarning(megatron, "expert_parallel_comm_backend"),
            "parallelism.expert_parallel_comm_backend deepep 是 torchtitan 的开关；megatron "
            "按其自身的分发器估算");
}

// optimizer.implementation on Megatron, whose Adam is its own fused kernel.
TEST_F(Chinese, StepKernelOnMegatronIsTranslated) {
  trainmem::Config c = With(MustParse(R"({"model": "llama3-8b", "framework": "megatron"})"),
                            {{"ws", "8"}, {"oimpl", "foreach"}});
  EXPECT_EQ(TranslatedWarning(c, "optimizer.implementation"),
            "optimizer.implementation foreach 对 megatron 无效：它的 Adam 是融合内核");
}

// The comparison's sentence reads in Chinese for every shape it takes: a measured peak above,
// below and within 10 % of the estimate, a profile's components, an out-of-memory error against
// an estimate that fits and one that does not. No English sentence is left (figures, metric
// names and "×" stay).
TEST_F(Chinese, ComparisonSentencesAreTranslated) {
  namespace cmp = trainmem::compare;
  const trainmem::Estimate fits = trainmem::EstimateMemory(MustParse(R"({"model": "llama3-8b",
      "world_size": 8})"));
  const trainmem::Estimate over = trainmem::EstimateMemory(MustParse(R"({"model": "llama3-8b",
      "world_size": 1, "activation_checkpoint": {"mode": "none"}})"));
  auto peak = [&](double ratio) {
    cmp::Measurement m;
    cmp::Peak p;
    p.metric = cmp::Metric::kReserved;
    p.bytes = static_cast<std::int64_t>(static_cast<double>(fits.per_device.total) * ratio);
    m.peaks.push_back(p);
    return m;
  };
  cmp::Measurement components = peak(1.0);
  components.components.present = true;
  components.components.parameters = fits.per_device.parameters * 2;  // the largest gap
  components.components.gradients = fits.per_device.gradients;
  components.components.optimizer_states = fits.per_device.optimizer_states;
  components.components.activations = fits.per_device.activations;
  components.components.temporary = fits.per_device.temporary;
  const auto oom = cmp::ReadMeasurement(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB. GPU 0 has a total "
      "capacity of 79.11 GiB of which 1.18 GiB is free. Of the allocated memory 75.12 GiB is "
      "allocated by PyTorch, and 1.98 GiB is reserved by PyTorch but unallocated.\n");
  ASSERT_TRUE(oom.ok());
  const std::pair<const trainmem::Estimate*, cmp::Measurement> cases[] = {
      {&fits, peak(1.5)},  {&fits, peak(0.5)},   {&fits, peak(1.05)},
      {&fits, components}, {&fits, oom.value()}, {&over, oom.value()}};
  for (const auto& [estimate, measured] : cases) {
    const std::string english = cmp::CompareWithEstimate(*estimate, measured).sentence;
    const std::string chinese = TrCore(english);
    EXPECT_NE(chinese, english);
    EXPECT_NE(chinese.find("估算"), std::string::npos) << chinese;
    for (const char* word : {"the estimate", " measured", "estimated", "ran out"}) {
      EXPECT_EQ(chinese.find(word), std::string::npos) << word << " in: " << chinese;
    }
  }
}

// Review 19: the comparison's notes and the metric its sentence names read in Chinese; the
// figures keep their decimal points.
TEST_F(Chinese, ComparisonNotesAndMetricNamesAreTranslated) {
  namespace cmp = trainmem::compare;
  const trainmem::Estimate estimate =
      trainmem::EstimateMemory(MustParse(R"({"model": "llama3-8b", "world_size": 8})"));
  const auto read = cmp::ReadMeasurement(
      "[rank0]:[titan] 2025-06-01 10:00:05,282 - root - INFO - CUDA memory usage for model: "
      "3.87GiB(4.89%)\n[rank0]:[titan] 2025-06-01 10:00:30,105 - root - INFO - step: 10  loss:  "
      "9.4939  memory: 72.82GiB(91.97%)  tps: 55,314\n");
  ASSERT_TRUE(read.ok());
  const cmp::Comparison c = cmp::CompareWithEstimate(estimate, read.value());
  ASSERT_EQ(c.notes.size(), 1u);
  const std::string note = TrCore(c.notes[0]);
  EXPECT_EQ(note.rfind("模型初始化后、训练开始前：max reserved 3.87 GiB（", 0), 0u) << note;
  EXPECT_NE(note.find("GiB。"), std::string::npos) << note;
  EXPECT_EQ(note.find("the estimate"), std::string::npos) << note;
  EXPECT_EQ(TrCore(c.sentence).rfind("峰值预留（max reserved）实测为估算的", 0), 0u)
      << TrCore(c.sentence);
}

// Review 19: a link's reasons name settings by link keys ("ws 64 is not divisible by
// tp·pp·cp·dpr = 7") and nest a reason in "was not applied": both read in Chinese.
TEST_F(Chinese, LinkReasonsInLinkWordsAreTranslated) {
  const trainmem::DecodedLink link = trainmem::DecodeShareFragment(
      "v1&model=llama3-70b&ws=64&tp=7&pp=-2", trainmem::testing::TestPresets());
  ASSERT_EQ(link.errors.size(), 2u);
  for (const trainmem::Error& e : link.errors) {
    const std::string reason = e.message.substr(0, e.message.rfind(" (" + e.path + " expects "));
    const std::string zh = TrCore(reason);
    for (const char* word : {"applied", "divisible", "must be"})
      EXPECT_EQ(zh.find(word), std::string::npos) << word << " in: " << zh;
  }
  EXPECT_EQ(TrCore("7 was not applied, it does not fit the rest of the link: ws 64 is not "
                   "divisible by tp·pp·cp·dpr = 7"),
            "7 未应用，与链接的其余部分冲突：卡数 64 不能被 tp·pp·cp·dpr = 7 整除");
  EXPECT_EQ(TrCore("the model's 256 routed experts are not divisible by ep 7"),
            "模型的 256 个路由专家不能被专家并行度 7 整除");
  EXPECT_EQ(TrCore("expected an integer, got a string"), "应为整数，当前为 字符串");
  // Names are translated only where they stand whole.
  EXPECT_EQ(TrCore("Parameters"), "参数");
  EXPECT_EQ(TrCore("Parameters of the run"), "Parameters of the run");
}

// Neither the Latin subset nor DroidSansFallback (the CJK subset's source) has curly quotes:
// “打开文件…” was drawn "?打开文件…?". Chinese texts quote with 「」.
TEST(WordsTest, ChineseTextsUseNoQuotesTheFontsLack) {
  for (const std::string& text : ChineseTexts()) {
    for (const char* quote : {"\xE2\x80\x9C", "\xE2\x80\x9D", "\xE2\x80\x98", "\xE2\x80\x99"})
      EXPECT_EQ(text.find(quote), std::string::npos) << text;
  }
}

TEST(WordsTest, EnglishCoreMessagesAreUnchanged) {
  SetLanguage(Language::kEnglish);
  EXPECT_EQ(TrCore("must be at least 1, got 0"), "must be at least 1, got 0");
}

// Every change the advice makes reads as words in both languages: no dotted key, no -1.
TEST(WordsTest, AdviceChangesAreWords) {
  const trainmem::Config configs[] = {
      With(MustParse(R"({"model": "llama3-70b", "device": "a100-40gb"})"),
           {{"ws", "16"}, {"ac", "none"}, {"b", "4"}, {"s", "4096"}, {"dp", "16"}}),
      With(MustParse(R"({"model": "mixtral-8x7b", "device": "a100-40gb",
                          "framework": "torchtitan-npu"})"),
           {{"ws", "8"}, {"ac", "none"}, {"b", "8"}}),
  };
  for (Language language : {Language::kEnglish, Language::kChinese}) {
    SetLanguage(language);
    for (const trainmem::Config& c : configs) {
      const trainmem::Estimate e = trainmem::EstimateWithAdvice(c);
      ASSERT_FALSE(e.recommendations.empty());
      for (const trainmem::Recommendation& r : e.recommendations) {
        EXPECT_FALSE(AdviceSentence(r).empty());
        for (const auto& [key, value] : r.changes) {
          const std::string words = ChangeWords(key, value);
          EXPECT_EQ(words.find('.'), std::string::npos) << key << " -> " << words;
          EXPECT_EQ(words.find("-1"), std::string::npos) << key << " -> " << words;
        }
      }
    }
  }
  SetLanguage(Language::kEnglish);
}

// A cumulative ladder step names everything it sets (Megatron: the distributed optimizer it
// needs, the checkpointing kept from the step before), not the data-parallel rest.
TEST(WordsTest, AdviceWithChangesNamesEveryChange) {
  SetLanguage(Language::kEnglish);
  trainmem::Recommendation r;
  r.kind = trainmem::AdviceKind::kOffloadOptimizer;
  r.changes = {{"activation_checkpoint.mode", "\"full\""},
               {"optimizer.offload", "true"},
               {"parallelism.zero_stage", "1"},
               {"parallelism.data_parallel_shard_degree", "-1"}};
  const std::string text = AdviceWithChanges(r);
  EXPECT_EQ(text.rfind(AdviceSentence(r), 0), 0u) << text;
  EXPECT_NE(text.find(ChangeWords("activation_checkpoint.mode", "\"full\"")), std::string::npos);
  EXPECT_NE(text.find("distributed optimizer (ZeRO-1) on"), std::string::npos) << text;
  EXPECT_EQ(text.find(ChangeWords("parallelism.data_parallel_shard_degree", "-1")),
            std::string::npos)
      << text;
  r.changes = {{"optimizer.offload", "true"}};
  EXPECT_EQ(AdviceWithChanges(r), AdviceSentence(r));
}

// Megatron's selective recompute is its core attention (or the --recompute-modules set), not
// torchtitan's "1 block in 2".
TEST(WordsTest, MegatronSelectiveRecomputeIsSaidAsMegatronDoesIt) {
  SetLanguage(Language::kEnglish);
  trainmem::Config c = MustParse(R"({"model": "llama3-8b", "framework": "megatron",
                                     "activation_checkpoint": {"mode": "selective"}})");
  EXPECT_EQ(AcWords(c), "selective recompute (core attention)");
  c.activation_checkpoint.recompute_modules = 1;
  EXPECT_EQ(AcWords(c), "selective recompute (the --recompute-modules set)");
  c.framework = trainmem::Framework::kTorchtitan;
  c.activation_checkpoint.selective_ac_option = "op";
  EXPECT_EQ(AcWords(c), "selective checkpointing (per op)");
}

TEST_F(Chinese, AdviceSentencesUseTheFieldsTerms) {
  trainmem::Recommendation r;
  r.kind = trainmem::AdviceKind::kPipelineParallel;
  r.from = 1;
  r.to = 4;
  EXPECT_EQ(AdviceSentence(r), "流水线并行度从 1 提高到 4");
  r.kind = trainmem::AdviceKind::kFullAc;
  EXPECT_EQ(AdviceSentence(r), "启用全量激活重计算（反向时重算每一层）");
}

// "12B", not "12.00B": the name's size has the name's precision.
TEST(WordsTest, NominalSizesAsNamesWriteThem) {
  EXPECT_EQ(NominalSize(12000000000), "12B");
  EXPECT_EQ(NominalSize(671000000000), "671B");
  EXPECT_EQ(NominalSize(1500000000), "1.5B");
  EXPECT_EQ(NominalSize(500000000), "500M");
  EXPECT_EQ(NominalSize(1000000000000), "1T");
}

// The layout in words names each framework's own data parallelism: torchtitan shards with
// FSDP2, Megatron has one data-parallel group (16 devices, TP 2, PP 2: DP 4).
TEST(WordsTest, LayoutWordsNameTheFrameworksDataParallelism) {
  const trainmem::Config titan =
      With(MustParse(R"({"model": "llama3-8b"})"), {{"ws", "16"}, {"tp", "2"}, {"pp", "2"}});
  const trainmem::Layout l = trainmem::ResolveLayout(titan).value();
  EXPECT_EQ(LayoutWords(titan, l), "FSDP 4 \xC2\xB7 TP 2 \xC2\xB7 PP 2");
  const trainmem::Config megatron = With(titan, {{"fw", "megatron"}});
  EXPECT_EQ(LayoutWords(megatron, trainmem::ResolveLayout(megatron).value()),
            "DP 4 \xC2\xB7 TP 2 \xC2\xB7 PP 2");
}

}  // namespace
}  // namespace app
