// The page's words: the Chinese table keeps every template's conversions, core messages are
// translated by template with their numbers, advice changes are words (never raw keys), and
// model sizes are written as their names write them.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "../core/test_support.h"
#include "app/words/i18n.h"
#include "app/words/labels.h"
#include "core/advice/advice.h"
#include "core/estimate/estimate.h"

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

// The warning for an optimizer option the framework lacks (frameworks.cpp), with the framework
// and what it has instead carried over.
TEST_F(Chinese, OptionTheFrameworkLacksIsTranslated) {
  trainmem::Config c = With(MustParse(R"({"model": "llama3-8b", "framework": "deepspeed"})"),
                            {{"ws", "8"}, {"swap", "true"}});
  std::string translated;
  for (const std::string& w : trainmem::EstimateMemory(c).warnings)
    if (w.find("has no effect") != std::string::npos) translated = TrCore(w);
  EXPECT_EQ(translated,
            "optimizer.swap_optimizer 对 deepspeed 无效（它没有 swap_optimizer）；它的 "
            "optimizer.offload 即 zero_optimization.offload_optimizer");
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

}  // namespace
}  // namespace app
