// Hostile inputs: each a clear error or a harmless read, never a crash, never run.
#include <chrono>

#include "import_test_support.h"

namespace trainmem::testing {
namespace {

std::string FirstError(const Result<ImportResult>& r) {
  return r.ok() ? "" : FormatError(r.errors().front());
}

// Wall seconds a call takes (the tests below bound hostile reads generously: quadratic or
// unbounded work took minutes or never ended).
template <class F>
double SecondsOf(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(ImportHostile, TooLarge) {
  const std::string big(kMaxImportBytes + 1, ' ');
  const Result<ImportResult> r = ImportFiles({{"big.toml", big}}, {}, TestPresets());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(FirstError(r).find("too large"), std::string::npos);
}

TEST(ImportHostile, TenMegabyteScriptIsReadInLinearTime) {
  std::string script = "#!/bin/bash\nTP=2\n";
  while (script.size() < (10u << 20)) script += "echo $TP ${TP:-1} $((TP*2)) \"quoted $TP\"\n";
  script +=
      "torchrun pretrain_gpt.py --tensor-model-parallel-size $TP --num-layers 2 "
      "--hidden-size 64 --num-attention-heads 4 --vocab-size 128 --seq-length 64\n";
  ImportResult r;
  const double seconds = SecondsOf([&] { r = MustImport({{"big.sh", script}}); });
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 2);
  EXPECT_LT(seconds, 30.0);  // a generous bound: quadratic behaviour would take hours
}

// A variable doubled line after line (A=$A$A) copied up to 1 MiB a line: a 700 KB script took
// minutes. Expansions now have a budget for the whole read (64 MiB), and the report says when
// it ran out. Found in review.
TEST(ImportHostile, DoublingVariableStopsAtTheExpansionBudget) {
  std::string script = "A=xxxxxxxxxxxxxxxx\n";
  for (int i = 0; i < 100000; ++i) script += "A=$A$A\n";
  script +=
      "torchrun pretrain_gpt.py --num-layers 2 --hidden-size 64 --num-attention-heads 4 "
      "--vocab-size 128 --seq-length 64\n";
  ImportResult r;
  const double seconds = SecondsOf([&] { r = MustImport({{"double.sh", script}}); });
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 2);
  bool said = false;
  for (const std::string& note : r.report.notes)
    said |= note.find("variable expansions passed 64 MiB") != std::string::npos;
  EXPECT_TRUE(said);
  EXPECT_LT(seconds, 30.0);  // a generous bound: the unbounded copying took minutes
}

// Appending to an array line after line (A+=(--x)) rebuilt its joined value from every item:
// 100,000 lines took 106 s. The value now grows by the new items; the array keeps its items.
TEST(ImportHostile, ArrayAppendedLineAfterLineIsLinear) {
  std::string script;
  for (int i = 0; i < 100000; ++i) script += "ARGS+=(--seq-length)\n";
  script += "ARGS+=(64)\n";
  script +=
      "torchrun pretrain_gpt.py --num-layers 2 --hidden-size 64 --num-attention-heads 4 "
      "--vocab-size 128 ${ARGS[@]}\n";
  ImportResult r;
  const double seconds = SecondsOf([&] { r = MustImport({{"append.sh", script}}); });
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 2);
  EXPECT_LT(seconds, 30.0);  // a generous bound: quadratic took 106 s
}

TEST(ImportHostile, DeepJsonNesting) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const Result<ImportResult> r =
      ImportFiles({{"ds.json", "{\"train_batch_size\": " + deep + "}"}}, {}, TestPresets());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(FirstError(r).find("nested"), std::string::npos);
}

TEST(ImportHostile, NumberPastDoublesRangeInJson) {
  // Valid JSON text, but 1e400 overflows a double: nlohmann throws out_of_range (not
  // parse_error), which escaped the importer and ended the process (found by fuzz_import_toml).
  const Result<ImportResult> r =
      ImportFiles({{"ds_config.json", R"({"train_micro_batch_size_per_gpu": 4, "zero_optimization":
          {"stage": 3, "stage3_max_live_parameters": 1e400}})"}},
                  {}, TestPresets());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(FirstError(r).find("ds_config.json"), std::string::npos) << FirstError(r);
  EXPECT_NE(FirstError(r).find("number overflow"), std::string::npos) << FirstError(r);
}

TEST(ImportHostile, DeepPythonNesting) {
  const std::string deep =
      "def f() -> Trainer.Config:\n    return Trainer.Config(x=" + std::string(5000, '(') + "1" +
      std::string(5000, ')') + ")\n";
  const Result<ImportResult> r = ImportFiles({{"r.py", deep}}, {}, TestPresets());
  if (r.ok()) {
    EXPECT_FALSE(r.value().report.ignored.empty());  // the nesting limit is reported
  } else {
    EXPECT_FALSE(FirstError(r).empty());
  }
}

TEST(ImportHostile, DeepTomlNesting) {
  std::string toml = "[training]\nx = ";
  for (int i = 0; i < 5000; ++i) toml += "[";
  const Result<ImportResult> r = ImportFiles({{"j.toml", toml}}, {}, TestPresets());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("not valid TOML"), std::string::npos);
}

TEST(ImportHostile, UnterminatedStrings) {
  const Result<ImportResult> py = ImportFiles(
      {{"r.py", "def f() -> Trainer.Config:\n    return Trainer.Config(a=\"\"\"never closed\n"}},
      {}, TestPresets());
  if (py.ok()) EXPECT_FALSE(py.value().report.ignored.empty());
  const Result<ImportResult> sh = ImportFiles(
      {{"run.sh", "ARGS=\"--num-layers 2\ntorchrun pretrain_gpt.py $ARGS\n"}}, {}, TestPresets());
  EXPECT_TRUE(sh.ok());  // the open quote runs to the end: read, nothing launched
  const Result<ImportResult> js =
      ImportFiles({{"ds.json", "{\"train_batch_size\": \"abc"}}, {}, TestPresets());
  ASSERT_FALSE(js.ok());
  EXPECT_NE(FirstError(js).find("ds.json:1"), std::string::npos);
}

TEST(ImportHostile, DangerousScriptIsNeverRun) {
  const std::string marker = "/tmp/trainmem_import_must_not_exist";
  std::remove(marker.c_str());
  const std::string script = "touch " + marker + "\nrm -rf ~/\n$(touch " + marker + ")\nX=`touch " +
                             marker +
                             "`\n:(){ :|:& };:\n"
                             "torchrun pretrain_gpt.py --num-layers 2 --hidden-size 64 "
                             "--num-attention-heads 4 --vocab-size 128 --seq-length 64\n";
  const ImportResult r = MustImport({{"evil.sh", script}});
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 2);
  std::FILE* f = std::fopen(marker.c_str(), "r");
  EXPECT_EQ(f, nullptr);
  if (f) std::fclose(f);
}

TEST(ImportHostile, RecursiveRecipe) {
  const std::string py =
      "def a() -> Trainer.Config:\n    c = b()\n    return c\n"
      "def b() -> Trainer.Config:\n    c = a()\n    return c\n";
  const Result<ImportResult> r = ImportFiles({{"r.py", py}}, {"a"}, TestPresets());
  // It finishes, and the call-depth limit is reported (as an error or an ignored line).
  std::string said = r.ok() ? "" : FirstError(r);
  if (r.ok())
    for (const ImportIgnored& i : r.value().report.ignored) said += i.reason;
  EXPECT_NE(said.find("too deeply"), std::string::npos) << said;
}

// Raw bytes in a flag value and a TOML string (a cut multi-byte character, 0xFE): the config
// and the report come out as UTF-8 (U+FFFD in their place), so dumping them cannot throw —
// the page's mirror and `trainmem import --json` dump them (found by the import fuzzers). A
// TOML string that is not UTF-8 is not TOML: the import stops there, its error as UTF-8 too.
TEST(ImportHostile, RawBytesComeOutAsUtf8) {
  const std::string script =
      "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 64 "
      "--num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 "
      "--micro-batch-size 1 --tokenizer-type \xe4\xb8 --data-path /d/\xfe\n";
  const std::string toml = "[job]\ndescription = \"\xc3\"\n[model]\nname = \"llama3\xff\"\n";
  for (const InputFile& file : {InputFile{"run.sh", script}, InputFile{"job.toml", toml}}) {
    const Result<ImportResult> r = ImportFiles({file}, {}, TestPresets());
    if (file.name == "job.toml") {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(FormatError(r.errors()[0]).rfind("job.toml:2: not valid TOML", 0), 0u);
      EXPECT_NO_THROW((void)nlohmann::json(FormatError(r.errors()[0])).dump());
      continue;
    }
    ASSERT_TRUE(r.ok()) << file.name;
    EXPECT_NO_THROW((void)r.value().config.dump()) << file.name;
    EXPECT_NO_THROW((void)ImportReportToJson(r.value().report).dump()) << file.name;
  }
}

// Found by the import fuzzers: a character no word starts with inside an array literal made the
// reader loop forever ("A=( $;{TP} )"), and `--micro-batch-size 0` with pipeline parallelism
// divided by zero. Both now read to the end with a report.
TEST(ImportHostile, ArrayLiteralWithASeparatorAndZeroMicroBatch) {
  const Result<ImportResult> array =
      ImportFiles({{"a.sh",
                    "A=(\n  --tensor-model-parallel-size $;{TP} | & < >\n)\n"
                    "torchrun pretrain_gpt.py ${A[@]} --num-layers 2\n"}},
                  {}, TestPresets());
  EXPECT_TRUE(array.ok());
  const Result<ImportResult> zero =
      ImportFiles({{"z.sh",
                    "torchrun --nproc_per_node 8 pretrain_gpt.py --pipeline-model-parallel-size 2 "
                    "--micro-batch-size 0 --global-batch-size 64 --num-layers 4\n"}},
                  {}, TestPresets());
  ASSERT_TRUE(zero.ok());
}

// Pipeline-split flags with counts no model has: a PP of 10^12 with uneven first/last stages
// once made the importer build a list of 10^12 entries (found in review; the script is kept in
// fuzz/regressions/import_shell), and counts near the int64 limit must not overflow when added.
TEST(ImportHostile, PipelineSplitWithImpossibleCounts) {
  const Result<ImportResult> huge_pp = ImportFiles(
      {{"a.sh",
        "torchrun pretrain_gpt.py --num-layers 16 --hidden-size 8 "
        "--num-attention-heads 1 --pipeline-model-parallel-size 1000000000000 "
        "--decoder-first-pipeline-num-layers 8 --decoder-last-pipeline-num-layers 8\n"}},
      {}, TestPresets());
  ASSERT_TRUE(huge_pp.ok());
  EXPECT_EQ(huge_pp.value().config["parallelism"].count("pipeline_parallel_layer_list"), 0u);
  const Result<ImportResult> near_limit = ImportFiles(
      {{"b.sh",
        "torchrun pretrain_gpt.py --num-layers 16 --hidden-size 8 --num-attention-heads 1 "
        "--pipeline-model-parallel-size 4 --num-layer-list 9223372036854775807,9,1,1 "
        "--decoder-first-pipeline-num-layers 9223372036854775807 "
        "--decoder-last-pipeline-num-layers 9223372036854775807\n"}},
      {}, TestPresets());
  ASSERT_TRUE(near_limit.ok());
  EXPECT_EQ(near_limit.value().config["parallelism"].count("pipeline_parallel_layer_list"), 0u);
}

// A MoE script with --num-layers 10^14 sized a per-layer vector and aborted (std::bad_alloc:
// the page would die); a --moe-layer-freq wrapped in a million parentheses was unwrapped one
// copy at a time (quadratic). Both found in review; the first is kept in fuzz/regressions.
TEST(ImportHostile, MoeLayerPatternOfImpossibleSize) {
  const Result<ImportResult> huge =
      ImportFiles({{"a.sh",
                    "torchrun pretrain_gpt.py --num-layers 100000000000000 --hidden-size 8 "
                    "--num-attention-heads 1 --num-experts 8 --moe-layer-freq 2\n"}},
                  {}, TestPresets());
  ASSERT_TRUE(huge.ok());
  EXPECT_FALSE(huge.value().config_valid);
  const std::string parens(1000000, '(');
  const std::string closing(1000000, ')');
  const Result<ImportResult> deep = ImportFiles(
      {{"b.sh",
        "torchrun pretrain_gpt.py --num-layers 4 --hidden-size 8 --num-attention-heads 1 "
        "--num-experts 8 --moe-layer-freq '" +
            parens + "[0,1]*2" + closing + "'\n"}},
      {}, TestPresets());
  ASSERT_TRUE(deep.ok());
  EXPECT_EQ(deep.value().config["model"]["mlp_only_layers"], nlohmann::json::array({0, 2}));
}

// A recipe whose values share sub-objects (`d1 = Training(a=d0, b=d0)`, 80 levels) is a graph
// whose tree has 2^80 nodes: turning it into the config ran out of memory (17 GB, killed). The
// conversion now spends 20,000 nodes at most and the rest reads as opaque. Found in review.
TEST(ImportHostile, RecipeOfSharedSubObjectsIsReadInBoundedTime) {
  std::string text =
      "from torchtitan.config import JobConfig, Training\n"
      "def default_config():\n    d0 = Training(seq_len=4)\n";
  for (int i = 1; i < 80; ++i)
    text += "    d" + std::to_string(i) + " = Training(a=d" + std::to_string(i - 1) + ", b=d" +
            std::to_string(i - 1) + ")\n";
  text += "    return JobConfig(training=d79, model=d79)\n";
  Result<ImportResult> r;
  const double seconds = SecondsOf([&] {
    r = ImportFiles({{"config_registry.py", text}}, {}, TestPresets());
  });
  ASSERT_TRUE(r.ok());
  EXPECT_LT(seconds, 30.0);  // a generous bound: the unbounded walk never finished
}

// Numbers no count can be: a recipe's 2.4e22 × 8192 tokens (a float past int64) was cast to an
// integer, undefined behaviour (found by fuzz_import_python; the input is kept); a DeepSpeed
// JSON's micro batch × accumulation overflowed before the batch check.
TEST(ImportHostile, CountsPastInt64AreNotRead) {
  const Result<ImportResult> recipe = ImportFiles(
      {{"config_registry.py",
        "from torchtitan.config import JobConfig, Training\n"
        "def default_config():\n"
        "    return JobConfig(training=Training(seq_len=24444444444444444444444.4 * 8192))\n"}},
      {}, TestPresets());
  ASSERT_TRUE(recipe.ok());
  EXPECT_EQ(At(recipe.value().config, "training.seq_len"), nullptr);
  const Result<ImportResult> ds = ImportFiles(
      {{"ds_config.json",
        R"({"train_batch_size": 8, "train_micro_batch_size_per_gpu": 4611686018427387904,
            "gradient_accumulation_steps": 4})"}},
      {}, TestPresets());
  ASSERT_TRUE(ds.ok());
  ASSERT_FALSE(ds.value().report.problems.empty());
  EXPECT_NE(ds.value().report.problems[0].find("train_batch_size 8 is not micro"),
            std::string::npos);
}

// Products and sums of numbers near the int64 limit, each undefined behaviour before (the
// ASan + UBSan run of this suite catches a regression): nodes × devices per node from script
// variables, the default FFN width (4 × hidden), the padded vocabulary (divisible × TP, rounded
// up), and torchtitan's tokens per microbatch rounded up to sequences × PP microbatches.
TEST(ImportHostile, CountsNearTheInt64LimitDoNotOverflow) {
  const std::string big = "9223372036854775807";
  const Result<ImportResult> script = ImportFiles(
      {{"run.sh", "NNODES=" + big +
                      "\nGPUS_PER_NODE=8\n"
                      "torchrun --nnodes $NNODES --nproc_per_node $GPUS_PER_NODE pretrain_gpt.py "
                      "--num-layers 2 --hidden-size " +
                      big +
                      " --num-attention-heads 1 "
                      "--vocab-size " +
                      big + " --make-vocab-size-divisible-by " + big +
                      " --tensor-model-parallel-size 2\n"}},
      {}, TestPresets());
  ASSERT_TRUE(script.ok());
  EXPECT_FALSE(script.value().config_valid);  // refused by the config check, with its reasons
  const Result<ImportResult> recipe = ImportFiles(
      {{"config_registry.py",
        "from torchtitan.config import JobConfig, Training, Parallelism\n"
        "def default_config():\n"
        "    return JobConfig(training=Training(num_tokens_per_microbatch_per_dp_rank=" +
            big +
            ", max_context_length=3), parallelism=Parallelism(pipeline_parallel_degree=2, "
            "num_pp_microbatches=" +
            big + "))\n"}},
      {}, TestPresets());
  ASSERT_TRUE(recipe.ok());
  EXPECT_FALSE(recipe.value().config_valid);
}

TEST(ImportHostile, NotAJobFile) {
  const Result<ImportResult> r = ImportFiles({{"notes.md", "hello"}}, {}, TestPresets());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(FirstError(r).find("notes.md"), std::string::npos);
}

TEST(DetectInputKind, Kinds) {
  EXPECT_EQ(DetectInputKind("x.toml", "[training]\nseq_len = 1\n"), InputKind::kTorchtitanToml);
  EXPECT_EQ(DetectInputKind("r.py", "def f() -> Trainer.Config:\n  pass"),
            InputKind::kTorchtitanPython);
  EXPECT_EQ(DetectInputKind("run.sh", "torchrun pretrain_gpt.py"), InputKind::kMegatronScript);
  EXPECT_EQ(DetectInputKind("ds.json", R"({"zero_optimization": {"stage": 2}})"),
            InputKind::kDeepspeedJson);
  EXPECT_EQ(DetectInputKind("config.json", R"({"model_type": "llama"})"), InputKind::kHfConfig);
  EXPECT_EQ(DetectInputKind("j.json", R"({"version": 1, "model": "llama3-8b"})"),
            InputKind::kTrainmemConfig);
  // What `trainmem import` prints for a job that names no model is still trainmem's config (its
  // model is then asked for), not a torchtitan resolved config that would drop its world size.
  EXPECT_EQ(DetectInputKind("j.json", R"({"activation_checkpoint": {"mode": "none"},
      "framework": "torchtitan-npu", "parallelism": {"data_parallel_shard_degree": -1},
      "training": {"local_batch_size": 4}, "version": 1, "world_size": 4})"),
            InputKind::kTrainmemConfig);
  EXPECT_EQ(DetectInputKind("train.log", "step:  1  loss: 7.1  memory: 41.23GiB(52.12%)  tps: 100"),
            InputKind::kTrainingLog);
  EXPECT_EQ(DetectInputKind("megatron.out",
                            "[Rank 0] (after 10 iterations) memory (MB) | allocated: 1000"),
            InputKind::kTrainingLog);
  EXPECT_EQ(DetectInputKind("ds.log", "MA 1.2 GB         Max_MA 3.4 GB         CA 3.5 GB"),
            InputKind::kTrainingLog);
  EXPECT_EQ(DetectInputKind("snapshot", std::string("\x80\x04\x95", 3)), InputKind::kMemoryProfile);
  EXPECT_EQ(DetectInputKind("mem.json", R"({"segments": [], "device_traces": []})"),
            InputKind::kMemoryProfile);
  // A TOML job file opens with a table header, and its arrays hold quoted names that JSON
  // detection would match ("model"): still TOML, with or without the .toml name.
  const char* toml =
      "[job]\ndump_folder = \"./out\"\n[model]\nname = \"llama3\"\n[training]\nseq_len = 8192\n"
      "[compile]\ncomponents = [\"model\"]\n";
  EXPECT_EQ(DetectInputKind("job.toml", toml), InputKind::kTorchtitanToml);
  EXPECT_EQ(DetectInputKind("pasted text", toml), InputKind::kTorchtitanToml);
  EXPECT_EQ(DetectInputKind("x", "[[metrics]]\n[training]\nseq_len = 1\n"),
            InputKind::kTorchtitanToml);
  // A JSON array still opens as JSON.
  EXPECT_EQ(DetectInputKind("a.json", R"([ {"model": "llama3-8b", "world_size": 8} ])"),
            InputKind::kTrainmemConfig);
}

TEST(DetectInputKind, MeasurementFilesAreHandedBack) {
  const Result<ImportResult> r = ImportFiles(
      {{"train.log", "step: 1 memory: 4.00GiB(5.00%)"}, Fixture("tt_llama3_8b_job.toml")}, {},
      TestPresets());
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.value().measurements.size(), 1u);
  EXPECT_EQ(r.value().measurements[0].name, "train.log");
}

}  // namespace
}  // namespace trainmem::testing
