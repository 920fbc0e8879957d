// torchtitan importers: TOML job files, Python registries (both key-name schemas), resolved JSON.
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

TEST(ImportTorchtitan, TomlJobFile) {
  const ImportResult r = MustImport({Fixture("tt_llama3_8b_job.toml")});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["model"], "llama3.1-8b");  // [model] llama3 / 8B
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);
  EXPECT_EQ(At(r.config, "training.seq_len"), 8192);
  EXPECT_EQ(At(r.config, "training.fp8"), true);  // converters = ["float8"]
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "activation_checkpoint.selective_ac_option"), "op");
  EXPECT_EQ(At(r.config, "compile.enable"), true);
  // The first comment names "32 H100 GPUs": where the preset was written for, so the two are the
  // assumptions for what the file leaves out, listed as missing for the reader to confirm.
  EXPECT_EQ(r.config["world_size"], 32);
  EXPECT_EQ(r.config["device"], "h100-80gb");
  int assumed_from_comment = 0;
  for (const ImportMissing& m : r.report.missing)
    assumed_from_comment += (m.key == "world_size" || m.key == "device") &&
                            m.why.find("a comment") != std::string::npos;
  EXPECT_EQ(assumed_from_comment, 2) << ImportReportToText(r.report);
  EXPECT_EQ(ReadLine(r, "parallelism.tensor_parallel_degree"), 26);
}

// torchtitan's TOMLs of 2024 to early 2025 kept the parallel degrees under [training]: an HSDP
// job's replicate degree is read there as it is under [parallelism].
TEST(ImportTorchtitan, TrainingSectionParallelDegreesOfEarly2025) {
  const ImportResult r = MustImport({{"llama3_8b.toml", R"([model]
name = "llama3"
flavor = "8B"
[training]
batch_size = 1
seq_len = 8192
data_parallel_replicate_degree = 2
data_parallel_shard_degree = -1
tensor_parallel_degree = 1
)"}});
  EXPECT_EQ(At(r.config, "parallelism.data_parallel_replicate_degree"), 2);
  EXPECT_EQ(At(r.config, "parallelism.data_parallel_shard_degree"), -1);
}

TEST(ImportTorchtitan, TomlBatchSizeAndNpuModule) {
  const std::string toml = R"([job]
custom_config_module = "torchtitan_npu.config.custom_config"
[model]
name = "deepseek_v3"
flavor = "671B_debug_4_layers"
[training]
batch_size = 3
seq_len = 4096
[optimizer]
swap_optimizer = true
swap_optimizer_times = 8
[parallelism]
expert_parallel_degree = 8
)";
  const ImportResult r = MustImport({{"job.toml", toml}});
  EXPECT_EQ(r.config["framework"], "torchtitan-npu");
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 3);  // the older key name
  EXPECT_EQ(At(r.config, "optimizer.swap_optimizer"), true);
  EXPECT_EQ(At(r.config, "optimizer.swap_optimizer_times"), 8);
  // DeepSeek-V3 cut to the 4 layers the flavor names.
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 4);
  EXPECT_EQ(r.config["device"], "ascend-910b");  // assumed, and said so
  EXPECT_TRUE(Missing(r, "device"));
  // EP 8 needs 8 devices at least: the smallest world size the layout fits.
  EXPECT_EQ(r.config["world_size"], 8);
  EXPECT_TRUE(Missing(r, "world_size"));
}

TEST(ImportTorchtitan, CommentContradictingAValueIsNamed) {
  const ImportResult r =
      MustImport({{"j.toml",
                   "[model]\nname = \"llama3\"\nflavor = \"8B\"\n[parallelism]\n"
                   "tensor_parallel_degree = 8  # TP 4 fits this model\n[training]\n"
                   "seq_len = 8192  # 8k context\n"}});
  ASSERT_EQ(r.report.problems.size(), 1u);  // 8k = 8192 agrees; TP 4 does not
  EXPECT_NE(r.report.problems[0].find("j.toml:5: the comment says 4"), std::string::npos)
      << r.report.problems[0];
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 8);
}

TEST(ImportTorchtitan, FlavorWithoutPresetAsksForConfigJson) {
  const ImportResult r =
      MustImport({{"j.toml", "[model]\nname = \"llama4\"\nflavor = \"debugmodel\"\n"}});
  EXPECT_TRUE(Missing(r, "model"));
  EXPECT_FALSE(r.config_valid);
}

TEST(ImportTorchtitan, PythonCurrentSchema) {
  const InputFile f = Fixture("tt_recipes_current.py");
  const ImportResult base = MustImport({f}, "llama3_70b");
  ASSERT_TRUE(base.config_valid);
  EXPECT_EQ(base.report.functions.size(), 3u);  // _parallel is a helper, not a recipe
  EXPECT_EQ(base.config["model"], "llama3.1-70b");
  EXPECT_EQ(At(base.config, "training.fp8"), true);  // Float8LinearConverter in converters=[…]
  // num_tokens_per_microbatch_per_dp_rank = 2 * SEQ, SEQ = 4 * 2048 → 2 sequences of 8192.
  EXPECT_EQ(At(base.config, "training.seq_len"), 8192);
  EXPECT_EQ(At(base.config, "training.local_batch_size"), 2);
  EXPECT_EQ(At(base.config, "parallelism.tensor_parallel_degree"), 8);  // via _parallel(tp=8)
  EXPECT_EQ(At(base.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(base.config, "compile.components"), nlohmann::json::array({"model"}));

  // Derived: PP 4 with 8 microbatches of 1 sequence → local batch 8; MemoryBudgetAC(0.3).
  const ImportResult pp = MustImport({f}, "llama3_70b_pp");
  EXPECT_EQ(At(pp.config, "parallelism.pipeline_parallel_degree"), 4);
  EXPECT_EQ(At(pp.config, "parallelism.pipeline_parallel_microbatch_size"), 1);
  EXPECT_EQ(At(pp.config, "training.local_batch_size"), 8);
  EXPECT_EQ(At(pp.config, "activation_checkpoint.mode"), "selective");
  EXPECT_EQ(At(pp.config, "parallelism.tensor_parallel_degree"), 8);  // kept from the base

  const ImportResult none = MustImport({f}, "llama3_70b_no_ac");
  EXPECT_EQ(At(none.config, "activation_checkpoint.mode"), "none");  // = None
}

// NVFP4LinearConverter.Config(fqns=...) (torchtitan components/quantization/nvfp4.py): the
// recipes' nvfp4_bf16_tail_fqns(len(layers), 0.15) converts the first n − ceil(0.15·n) blocks
// (Llama 3.1 8B: 32 − 5 = 27), "layers.{i}." names blocks one by one, and "layers" or no fqns
// convert every block. NVFP4 is its own key now, not float8.
TEST(ImportTorchtitan, Nvfp4ConverterCountsTheBlocksItConverts) {
  const std::string recipes = R"(
from torchtitan.components.quantization import NVFP4LinearConverter
from torchtitan.components.quantization.nvfp4 import nvfp4_bf16_tail_fqns

def _job(converters) -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("8B", converters=converters),
        activation_checkpoint=SelectiveAC.Config(),
    )

def tail() -> Trainer.Config:
    config = _job([])
    n_layers = len(cast(Llama3Model.Config, config.model_spec.model).layers)
    fqns = nvfp4_bf16_tail_fqns(n_layers, 0.15)
    return _job([NVFP4LinearConverter.Config(fqns=fqns, model_compile_enabled=True)])

def listed() -> Trainer.Config:
    return _job([NVFP4LinearConverter.Config(fqns=["layers.0.", "layers.1.", "layers.2."])])

def every_block() -> Trainer.Config:
    return _job([NVFP4LinearConverter.Config(fqns=["layers"])])

def every_linear() -> Trainer.Config:
    return _job([NVFP4LinearConverter.Config()])
)";
  const InputFile f{"llama3.py", recipes};
  const ImportResult tail = MustImport({f}, "tail");
  EXPECT_EQ(tail.config["model"], "llama3.1-8b");
  EXPECT_EQ(At(tail.config, "training.nvfp4_layers"), 27);
  EXPECT_EQ(At(tail.config, "training.fp8"), nullptr);
  EXPECT_EQ(At(MustImport({f}, "listed").config, "training.nvfp4_layers"), 3);
  EXPECT_EQ(At(MustImport({f}, "every_block").config, "training.nvfp4_layers"), -1);
  EXPECT_EQ(At(MustImport({f}, "every_linear").config, "training.nvfp4_layers"), -1);
}

TEST(ImportTorchtitan, PythonSpringSchemaNpu) {
  const ImportResult r = MustImport({Fixture("tt_recipes_npu_spring.py")});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(r.report.function, "deepseek_v3_671b_128die");
  EXPECT_EQ(r.config["framework"], "torchtitan-npu");
  EXPECT_EQ(r.config["model"], "deepseek-v3");
  EXPECT_EQ(r.config["world_size"], 128);  // "128die"
  EXPECT_EQ(At(r.config, "optimizer.swap_optimizer_times"), 8);
  EXPECT_EQ(At(r.config, "parallelism.context_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 32);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
}

TEST(ImportTorchtitan, DerivedRecipeFromAnotherFile) {
  const std::string recipes = R"(from torchtitan.models.llama3.config_registry import llama3_8b
from torchtitan.distributed.activation_checkpoint import FullAC

def llama3_8b_tp4() -> Trainer.Config:
    config = llama3_8b()
    config.parallelism.tensor_parallel_degree = 4
    config.training.local_batch_size = 2 * 3
    config.activation_checkpoint = FullAC.Config()
    return config
)";
  const ImportResult alone = MustImport({{"recipes.py", recipes}});
  EXPECT_EQ(At(alone.config, "parallelism.tensor_parallel_degree"), 4);
  EXPECT_EQ(At(alone.config, "training.local_batch_size"), 6);
  EXPECT_EQ(alone.config["model"], "llama3.1-8b");  // from the base's name
  // With the registry that defines the base, its settings are read too.
  const std::string registry = R"(def llama3_8b() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("8B"),
        training=TrainingConfig(local_batch_size=1, seq_len=8192),
        compile=CompileConfig(enable=True),
    )
)";
  const ImportResult both =
      MustImport({{"recipes.py", recipes}, {"config_registry.py", registry}}, "llama3_8b_tp4");
  EXPECT_EQ(At(both.config, "training.seq_len"), 8192);
  EXPECT_EQ(At(both.config, "compile.enable"), true);
  EXPECT_EQ(At(both.config, "training.local_batch_size"), 6);
}

// What the import says about a token dispatcher the estimate does not model: the report must not
// claim the key "does not change the memory model" (DeepEP keeps its own buffers), and the job
// is still estimated, as torchtitan's standard all-to-all dispatcher.
std::string IgnoredReason(const ImportResult& r, const std::string& key) {
  for (const ImportIgnored& i : r.report.ignored)
    if (i.key == key) return i.reason;
  return "";
}

bool NoteMentions(const ImportResult& r, const std::string& a, const std::string& b) {
  for (const std::string& n : r.report.notes)
    if (n.find(a) != std::string::npos && n.find(b) != std::string::npos) return true;
  return false;
}

// The dispatcher is the config's parallelism.expert_parallel_comm_backend, read from the TOML
// key of the same name; the estimate says what DeepEP keeps that it does not model.
TEST(ImportTorchtitan, DeepEpDispatcherIsRead) {
  const std::string toml = R"([model]
name = "qwen3"
flavor = "30B-A3B"
[training]
local_batch_size = 8
seq_len = 4096
[parallelism]
data_parallel_shard_degree = -1
expert_parallel_degree = 8
expert_parallel_comm_backend = "deepep"
)";
  const ImportResult r = MustImport({{"job.toml", toml}});
  ASSERT_TRUE(r.config_valid);  // estimated all the same
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_degree"), 8);
  EXPECT_EQ(At(r.config, "parallelism.expert_parallel_comm_backend"), "deepep");
  EXPECT_EQ(ReadLine(r, "parallelism.expert_parallel_comm_backend"), 10);

  std::string standard = toml;
  standard.replace(standard.find("\"deepep\""), 8, "\"standard\"");
  const ImportResult s = MustImport({{"job.toml", standard}});
  EXPECT_EQ(At(s.config, "parallelism.expert_parallel_comm_backend"), "standard");
  // A name trainmem does not know is noted and estimated as the standard dispatcher.
  std::string odd = toml;
  odd.replace(odd.find("\"deepep\""), 8, "\"nccl_ep\"");
  const ImportResult o = MustImport({{"job.toml", odd}});
  EXPECT_EQ(At(o.config, "parallelism.expert_parallel_comm_backend"), nullptr);
  EXPECT_TRUE(NoteMentions(o, "'nccl_ep'", "standard all-to-all"));
}

TEST(ImportTorchtitan, ReshardPolicyIsRead) {
  const ImportResult r = MustImport({{"job.toml",
                                      "[model]\nname = \"llama3\"\nflavor = \"8B\"\n"
                                      "[parallelism]\nfsdp_reshard_after_forward = \"never\"\n"}});
  EXPECT_EQ(At(r.config, "parallelism.fsdp_reshard_after_forward"), "never");
  EXPECT_EQ(ReadLine(r, "parallelism.fsdp_reshard_after_forward"), 5);
  const ImportResult bad =
      MustImport({{"job.toml",
                   "[model]\nname = \"llama3\"\nflavor = \"8B\"\n"
                   "[parallelism]\nfsdp_reshard_after_forward = \"sometimes\"\n"}});
  EXPECT_TRUE(At(bad.config, "parallelism.fsdp_reshard_after_forward").is_null());
  EXPECT_NE(IgnoredReason(bad, "parallelism.fsdp_reshard_after_forward").find("'sometimes'"),
            std::string::npos);
}

TEST(ImportTorchtitan, NonAsciiCharacterBetweenTokensIsAnErrorNotACrash) {
  // toml++ 3.3.0's whitespace classifier has no case for U+00A1-U+0499 and ends in
  // __builtin_unreachable: 'é' (U+00E9) after a value used to be undefined behaviour (a trap in
  // the page). TOML allows only ASCII outside strings and comments, so it is an error with its
  // line.
  const Result<ImportResult> r =
      ImportFiles({{"job.toml", "[training]\nsteps = 10 \xc3\xa9\n"}}, {}, TestPresets());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors()[0].path, "job.toml:2");
  EXPECT_NE(r.errors()[0].message.find("not valid TOML"), std::string::npos)
      << r.errors()[0].message;
  EXPECT_NE(r.errors()[0].message.find("U+00E9"), std::string::npos) << r.errors()[0].message;
  // The same characters inside comments and every kind of string are content, and are read.
  const ImportResult ok = MustImport(
      {{"job.toml",
        "# entra\xc3\xaenement \xcf\xbe\n[job]\ndescription = \"caf\xc3\xa9 \\\" \xcf\xbe\"\n"
        "[model]\nname = 'llama3' # \xc3\xa9\nflavor = \"\"\"8B\"\"\"\n"
        "[metrics]\nsave_tb_folder = \'\'\'t\xc3\xa9\n\xc3\xa9\'\'\'\n"
        "[training]\nseq_len = 4096\n"}});
  EXPECT_TRUE(ok.report.problems.empty()) << ok.report.problems[0];
  EXPECT_EQ(ok.config["model"], "llama3.1-8b");
  EXPECT_EQ(At(ok.config, "training.seq_len"), 4096);
  // A no-break space (U+00A0), which the classifier does handle, is left to toml++'s own error.
  const Result<ImportResult> nbsp =
      ImportFiles({{"job.toml", "[training]\nsteps = 10\xc2\xa0\n"}}, {}, TestPresets());
  ASSERT_FALSE(nbsp.ok());
  EXPECT_EQ(FormatError(nbsp.errors()[0]).rfind("job.toml:2: not valid TOML", 0), 0u)
      << FormatError(nbsp.errors()[0]);
}

// A TOML that does not parse states nothing: the import fails with the file's line and what is
// wrong there, and asks for nothing (no "model: required", no assumed world size).
TEST(ImportTorchtitan, MalformedTomlFailsWithItsParseErrorOnly) {
  const Result<ImportResult> r = ImportFiles(
      {{"broken.toml",
        "[training]\nlocal_batch_size = 4\nseq_len = 4096\n[parallelism\ntensor_parallel_degree = "
        "\n"}},
      {}, TestPresets());
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1u);
  const std::string error = FormatError(r.errors()[0]);
  EXPECT_EQ(error.rfind("broken.toml:4: not valid TOML", 0), 0u) << error;
  EXPECT_EQ(error.find("model"), std::string::npos) << error;
  // The same through a launch script that names it.
  const Result<ImportResult> launched =
      ImportFiles({{"run.sh", "CONFIG_FILE=./broken.toml ./run_train.sh\n"},
                   {"broken.toml", "[training]\nseq_len = 4096\n[parallelism\n"}},
                  {}, TestPresets());
  ASSERT_FALSE(launched.ok());
  EXPECT_EQ(FormatError(launched.errors()[0]).rfind("broken.toml:3: not valid TOML", 0), 0u)
      << FormatError(launched.errors()[0]);
}

// toml++'s wording ("Error while parsing table header: expected ']', saw '\n'") is said in
// words: the construct, what was expected and what the line held instead.
TEST(ImportTorchtitan, TomlParseErrorsAreWorded) {
  const auto error_of = [](const std::string& text) {
    const Result<ImportResult> r = ImportFiles({{"job.toml", text}}, {}, TestPresets());
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : FormatError(r.errors()[0]);
  };
  EXPECT_EQ(error_of("[training]\n[parallelism\ntp = 2\n"),
            "job.toml:2: not valid TOML: in a table header: expected ']', found the end of the "
            "line");
  const std::string open_string = error_of("[model]\nname = \"llama3\n");
  EXPECT_EQ(open_string.rfind("job.toml:2: not valid TOML: in a string: ", 0), 0u) << open_string;
  EXPECT_NE(open_string.find("(is a closing quote missing?)"), std::string::npos) << open_string;
  const std::string open_array = error_of("[training]\nsteps = [1, 2\n");
  EXPECT_NE(open_array.find("in an array: "), std::string::npos) << open_array;
  EXPECT_EQ(open_array.find("Error while parsing"), std::string::npos) << open_array;
  EXPECT_EQ(open_array.find("saw"), std::string::npos) << open_array;
}

TEST(ImportTorchtitan, DeepEpFlavorAndRegistryBackendAreNoted) {
  // A fork's "-deepep" flavor is the same model; the note names the dispatcher.
  const ImportResult f =
      MustImport({{"job.toml",
                   "[model]\nname = \"qwen3\"\nflavor = \"30B-A3B-deepep\"\n[parallelism]\n"
                   "expert_parallel_degree = 8\n"}});
  EXPECT_EQ(f.config["model"], "qwen3-30b-a3b");
  EXPECT_EQ(At(f.config, "parallelism.expert_parallel_comm_backend"), "deepep");
  // The Python registry chooses it with model_registry(..., moe_comm_backend=...).
  const std::string registry = R"(def qwen3_30b_a3b_deepep() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("30B-A3B", moe_comm_backend="hybridep"),
        parallelism=ParallelismConfig(expert_parallel_degree=8),
    )
)";
  const ImportResult p = MustImport({{"config_registry.py", registry}});
  EXPECT_EQ(At(p.config, "parallelism.expert_parallel_comm_backend"), "hybridep");
  const std::string plain = R"(def qwen3_30b_a3b() -> Trainer.Config:
    return Trainer.Config(model_spec=model_registry("30B-A3B", moe_comm_backend="standard"))
)";
  EXPECT_EQ(At(MustImport({{"config_registry.py", plain}}).config,
               "parallelism.expert_parallel_comm_backend"),
            "standard");
  std::string minimal = registry;
  minimal.replace(minimal.find("hybridep"), 8, "minimal_async_ep");
  EXPECT_EQ(At(MustImport({{"config_registry.py", minimal}}).config,
               "parallelism.expert_parallel_comm_backend"),
            "minimal_async_ep");
}

// A TOML job names a flavor whose ModelArgs chose the attention in code: deepseek_v3's set
// use_flex_attn=True (pytorch/torchtitan#1610, 2025-08), as do llama4's *_irope flavors; plain
// llama4 and llama3 flavors stay on SDPA (flash).
TEST(ImportTorchtitan, TomlFlavorsThatChoseFlexAttention) {
  const auto attention = [](const std::string& name, const std::string& flavor) {
    const ImportResult r = MustImport(
        {{"job.toml", "[model]\nname = \"" + name + "\"\nflavor = \"" + flavor + "\"\n"}});
    return At(r.config, "training.attention");
  };
  EXPECT_EQ(attention("deepseek_v3", "16B"), "flex");
  EXPECT_EQ(attention("llama4", "17bx16e_irope"), "flex");
  EXPECT_EQ(attention("llama4", "17bx16e"), nullptr);
  EXPECT_EQ(attention("llama3", "8B"), nullptr);
}

// torchtitan-npu counts Atlas A3 jobs in dies ("…_128die.toml"): the 910C (each package shows
// two dies) is the device assumed, still asked for; without dies an NPU job assumes the 910B.
TEST(ImportTorchtitan, DiesNameTheAtlasA3) {
  const auto assumed = [](const std::string& name) {
    const ImportResult r =
        MustImport({{name,
                     "[model]\nname = \"deepseek_v3\"\nflavor = \"671B\"\n[parallelism]\n"
                     "expert_parallel_degree = 64\nenable_custom_context_parallel = true\n"}});
    for (const ImportMissing& m : r.report.missing)
      if (m.key == "device") return m.assumed;
    return nlohmann::json();
  };
  EXPECT_EQ(assumed("deepseek_v3_671b_61layers_4k_128die.toml"), "ascend-910c");
  EXPECT_EQ(assumed("deepseek_v3_671b_61layers_4k.toml"), "ascend-910b");
  // torchtitan-npu's own deepseek_v3 flavors keep their NPU attention, not torchtitan's flex.
  const ImportResult npu =
      MustImport({{"job.toml",
                   "[model]\nname = \"deepseek_v3\"\nflavor = \"671B\"\n[parallelism]\n"
                   "enable_custom_context_parallel = true\n"}});
  EXPECT_EQ(npu.config["framework"], "torchtitan-npu");
  EXPECT_EQ(At(npu.config, "training.attention"), nullptr);
}

// The attention backend: model_registry(..., attn_backend=...) when given, else the family's
// default in its model_registry signature (models/qwen3/__init__.py and llama3: "flex";
// gpt_oss: "varlen", which saves what flash attention saves). A TOML job file says nothing.
TEST(ImportTorchtitan, AttentionBackendFollowsTheRegistry) {
  const std::string defaulted = R"(def qwen3_30b_a3b() -> Trainer.Config:
    return Trainer.Config(model_spec=model_registry("30B-A3B"))
)";
  const ImportResult d = MustImport({{"config_registry.py", defaulted}});
  EXPECT_EQ(At(d.config, "training.attention"), "flex");
  const std::string varlen = R"(def qwen3_8b_sft() -> Trainer.Config:
    return Trainer.Config(model_spec=model_registry("8B", attn_backend="varlen"))
)";
  EXPECT_EQ(At(MustImport({{"config_registry.py", varlen}}).config, "training.attention"),
            "varlen");
  const std::string flex_flash = R"(def qwen3_8b_ff() -> Trainer.Config:
    return Trainer.Config(model_spec=model_registry("8B", attn_backend="flex_flash"))
)";
  EXPECT_EQ(At(MustImport({{"config_registry.py", flex_flash}}).config, "training.attention"),
            "flex");
  const std::string odd = R"(def qwen3_8b_x() -> Trainer.Config:
    return Trainer.Config(model_spec=model_registry("8B", attn_backend="ring_flash"))
)";
  const ImportResult o = MustImport({{"config_registry.py", odd}});
  EXPECT_TRUE(NoteMentions(o, "ring_flash", "flash attention"));
  const ImportResult t =
      MustImport({{"job.toml", "[model]\nname = \"qwen3\"\nflavor = \"30B-A3B\"\n"}});
  EXPECT_TRUE(At(t.config, "training.attention").is_null());
}

// [training] dtype / TrainingConfig(dtype=...): full bf16 training.
TEST(ImportTorchtitan, TrainingDtypeIsRead) {
  const ImportResult t =
      MustImport({{"job.toml",
                   "[model]\nname = \"qwen3\"\nflavor = \"30B-A3B\"\n[training]\ndtype = "
                   "\"bfloat16\"\n"}});
  EXPECT_EQ(At(t.config, "training.dtype"), "bfloat16");
  const std::string registry = R"(def qwen3_30b_a3b_bf16() -> Trainer.Config:
    config = qwen3_30b_a3b()
    config.training.dtype = "bfloat16"
    return config

def qwen3_30b_a3b() -> Trainer.Config:
    return Trainer.Config(model_spec=model_registry("30B-A3B"),
                          training=TrainingConfig(local_batch_size=2, seq_len=4096))
)";
  const ImportResult p = MustImport({{"config_registry.py", registry}}, "qwen3_30b_a3b_bf16");
  EXPECT_EQ(At(p.config, "training.dtype"), "bfloat16");
}

// A LoRA converter in the registry (torchtitan components/lora.py) sets the rank.
TEST(ImportTorchtitan, LoraConverterSetsTheRank) {
  const std::string registry = R"(from torchtitan.components.lora import LoRAConverter
def llama3_8b_lora() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry(
            "8B", converters=[LoRAConverter.Config(rank=16, alpha=32.0, target_modules=["wq"])]
        ),
    )
)";
  const ImportResult r = MustImport({{"config_registry.py", registry}});
  EXPECT_EQ(At(r.config, "training.lora_rank"), 16);
  EXPECT_TRUE(NoteMentions(r, "target_modules", "every 2-D block weight"));
}

TEST(ImportTorchtitan, UnknownRecipeNameIsAnError) {
  Result<ImportResult> r =
      ImportFiles({Fixture("tt_recipes_current.py")}, {"no_such_recipe"}, TestPresets());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("llama3_70b_pp"), std::string::npos);  // lists them
}

TEST(ImportTorchtitan, ResolvedJson) {
  const std::string text = R"({"job": {"dump_folder": "./outputs"},
  "model": {"name": "qwen3", "flavor": "32B"},
  "training": {"local_batch_size": 1, "seq_len": 16384, "steps": 10},
  "parallelism": {"tensor_parallel_degree": 4, "context_parallel_degree": 2},
  "activation_checkpoint": {"mode": "full"}})";
  const ImportResult r = MustImport({{"job_config.json", text}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["model"], "qwen3-32b");
  EXPECT_EQ(At(r.config, "training.seq_len"), 16384);
  EXPECT_EQ(r.config["world_size"], 8);  // TP 4 × CP 2
}

// training.loss_chunks: ChunkedLossWrapper splits the loss into num_chunks (default 8,
// torchtitan components/loss.py); another loss class holds the whole sequence (1); a file of
// the current schema that names no loss is assumed chunked (its registries all are), and says
// so; the spring-2026 and TOML schemas keep 1.
TEST(ImportTorchtitan, LossChunksFromTheLossConfig) {
  const std::string registry =
      R"(from torchtitan.components.loss import ChunkedLossWrapper, CrossEntropyLoss

def llama3_8b() -> Trainer.Config:
    return Trainer.Config(
        loss=ChunkedLossWrapper.Config(
            loss_fn=CrossEntropyLoss.Config(),
        ),
        model_spec=model_registry("8B"),
        training=TrainingConfig(
            num_tokens_per_microbatch_per_dp_rank=2 * 8192,
            max_context_length=8192,
        ),
    )

def llama3_8b_four_chunks() -> Trainer.Config:
    config = llama3_8b()
    config.loss = ChunkedLossWrapper.Config(num_chunks=4)
    return config

def llama3_8b_plain_ce() -> Trainer.Config:
    config = llama3_8b()
    config.loss = CrossEntropyLoss.Config()
    return config

def llama3_8b_april_2026() -> Trainer.Config:
    config = llama3_8b()
    config.loss = ChunkedCELoss.Config()
    return config
)";
  const ImportResult chunked = MustImport({{"config_registry.py", registry}}, "llama3_8b");
  ASSERT_TRUE(chunked.config_valid);
  EXPECT_EQ(At(chunked.config, "training.loss_chunks"), 8);       // the class's default
  EXPECT_EQ(ReadLine(chunked, "training.loss_chunks"), 5);        // loss=ChunkedLossWrapper…
  EXPECT_EQ(At(chunked.config, "training.local_batch_size"), 2);  // 2 × 8192 / 8192
  const ImportResult four = MustImport({{"config_registry.py", registry}}, "llama3_8b_four_chunks");
  EXPECT_EQ(At(four.config, "training.loss_chunks"), 4);
  const ImportResult plain = MustImport({{"config_registry.py", registry}}, "llama3_8b_plain_ce");
  EXPECT_EQ(At(plain.config, "training.loss_chunks"), 1);
  // The wrapper's first name (2026-04 to its rename), with the same default of 8 chunks.
  const ImportResult april = MustImport({{"config_registry.py", registry}}, "llama3_8b_april_2026");
  EXPECT_EQ(At(april.config, "training.loss_chunks"), 8);

  // A recipe of the current schema whose base (and its loss) is in another file: assumed 8,
  // and the report says it is an assumption.
  const std::string derived = R"(from torchtitan.models.llama3.config_registry import llama3_8b

def llama3_8b_long() -> Trainer.Config:
    config = llama3_8b()
    config.training.max_context_length = 32768
    config.training.num_tokens_per_microbatch_per_dp_rank = 32768
    return config
)";
  const ImportResult assumed = MustImport({{"recipes.py", derived}});
  EXPECT_EQ(At(assumed.config, "training.loss_chunks"), 8);
  bool said = false;
  for (const std::string& n : assumed.report.notes)
    said = said || n.find("loss_chunks = 8 assumed") != std::string::npos;
  EXPECT_TRUE(said);

  // The spring-2026 schema (local_batch_size / seq_len) and TOML job files: not chunked.
  const std::string spring = R"(def llama3_8b() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("8B"),
        training=TrainingConfig(local_batch_size=1, seq_len=8192),
    )
)";
  const ImportResult old = MustImport({{"config_registry.py", spring}});
  EXPECT_EQ(At(old.config, "training.loss_chunks"), nullptr);
  const ImportResult toml = MustImport({Fixture("tt_llama3_8b_job.toml")});
  EXPECT_EQ(At(toml.config, "training.loss_chunks"), nullptr);
}

// Flavors torchtitan defines in code: qwen3's small ones are read from its table; a "debug"
// flavor never maps to the full model by its size prefix.
TEST(ImportTorchtitan, CodeDefinedAndDebugFlavors) {
  const ImportResult q = MustImport({{"q.toml", "[model]\nname = \"qwen3\"\nflavor = \"0.6B\"\n"}});
  ASSERT_TRUE(q.config_valid);
  // torchtitan models/qwen3/__init__.py "0.6B": dim 1024, 28 layers, 16 heads, 8 KV, FFN 3072,
  // vocab 151936, tied embeddings.
  EXPECT_EQ(At(q.config, "model.hidden_size"), 1024);
  EXPECT_EQ(At(q.config, "model.num_hidden_layers"), 28);
  EXPECT_EQ(At(q.config, "model.intermediate_size"), 3072);
  EXPECT_EQ(At(q.config, "model.tie_word_embeddings"), true);
  // torchtitan-npu deepseek_v3 "671B_debug" is 4 layers of dim 128 (torchtitan_npu/models/
  // deepseek_v3/__init__.py), not DeepSeek-V3; a debug flavor this reader does not know is asked
  // for, never taken as the full model of its size prefix.
  const ImportResult d =
      MustImport({{"d.toml", "[model]\nname = \"deepseek_v3\"\nflavor = \"671B_debug\"\n"}});
  EXPECT_EQ(At(d.config, "model.hidden_size"), 128);
  EXPECT_EQ(At(d.config, "model.num_hidden_layers"), 4);
  const ImportResult u =
      MustImport({{"u.toml", "[model]\nname = \"deepseek_v32\"\nflavor = \"671B_debug_other\"\n"}});
  EXPECT_TRUE(Missing(u, "model"));
  // torchtitan-npu deepseek_v4 "285B_debug_43_layers" is DeepSeek-V4-Flash's whole shape
  // (torchtitan_npu/models/deepseek_v4/__init__.py), counted as its preset counts it;
  // "285B_debug_4_layers" keeps the first 4 layers' compress ratios. deepseek_v32 "debugmodel"
  // is 4 layers of dim 128 with the indexer.
  const ImportResult v4 = MustImport(
      {{"v4.toml", "[model]\nname = \"deepseek_v4\"\nflavor = \"285B_debug_43_layers\"\n"}});
  ASSERT_TRUE(v4.config_valid) << ImportReportToText(v4.report);
  EXPECT_EQ(CountParams(MustParseModel(v4.config["model"]), true).total, 290'942'290'130);
  const ImportResult v4cut = MustImport(
      {{"v4c.toml", "[model]\nname = \"deepseek_v4\"\nflavor = \"285B_debug_4_layers\"\n"}});
  EXPECT_EQ(At(v4cut.config, "model.num_hidden_layers"), 4);
  EXPECT_EQ(At(v4cut.config, "model.compress_ratios"), nlohmann::json::array({0, 0, 4, 128}));
  const ImportResult v32 =
      MustImport({{"v32.toml", "[model]\nname = \"deepseek_v32\"\nflavor = \"debugmodel\"\n"}});
  EXPECT_EQ(At(v32.config, "model.hidden_size"), 128);
  EXPECT_EQ(At(v32.config, "model.intermediate_size"), 1024);
  EXPECT_EQ(At(v32.config, "model.index_n_heads"), 64);
  // gpt_oss "debugmodel" (torchtitan models/gpt_oss/__init__.py _debugmodel): dim 256, 4 layers,
  // vocab 2048, 8 experts of 2880 top-4, the 120b attention (64 q heads and 8 KV heads of 64,
  // biases, 64 sinks). A layer: q 256·4096 + 4096, k and v 2 · (256·512 + 512), o 4096·256 +
  // 256, sinks 64 = 2,364,736; norms 512; router 256·8 + 8; experts 8 · (256·5760 + 5760 +
  // 2880·256 + 256) = 17,742,848. 4 layers + embedding and head 2 · 2048·256 + final norm 256
  // = 81,489,440.
  const ImportResult gd =
      MustImport({{"gd.toml", "[model]\nname = \"gpt_oss\"\nflavor = \"debugmodel\"\n"}});
  ASSERT_TRUE(gd.config_valid) << ImportReportToText(gd.report);
  EXPECT_EQ(CountParams(MustParseModel(gd.config["model"]), true).total, 81'489'440);
  // qwen3 "debugmodel_non_fused_qkv" changes kernels only: debugmodel's 8 layers of dim 256.
  const ImportResult k = MustImport(
      {{"k.toml", "[model]\nname = \"qwen3\"\nflavor = \"debugmodel_non_fused_qkv\"\n"}});
  EXPECT_EQ(At(k.config, "model.num_hidden_layers"), 8);
  EXPECT_EQ(At(k.config, "model.hidden_size"), 256);
  // gpt_oss "20b" (torchtitan models/gpt_oss/__init__.py _20b): 24 layers, 32 experts.
  const ImportResult g =
      MustImport({{"g.toml", "[model]\nname = \"gpt_oss\"\nflavor = \"20b\"\n"}});
  ASSERT_TRUE(g.config_valid);
  EXPECT_EQ(At(g.config, "model.num_hidden_layers"), 24);
  EXPECT_EQ(At(g.config, "model.num_local_experts"), 32);
  // A Hugging Face id names the model: as the flavor, or as [hf_transformers] model of the
  // transformers backend (whose "debugmodel" flavor is a cut-down shape: asked for).
  const ImportResult hf = MustImport(
      {{"h.toml", "[model]\nname = \"deepseek_v2\"\nflavor = \"deepseek-ai/DeepSeek-V2-Lite\"\n"}});
  EXPECT_EQ(hf.config["model"], "deepseek-v2-lite");
  const std::string backend =
      "[model]\nname = \"transformers_modeling_backend\"\nflavor = \"FLAVOR\"\n"
      "[hf_transformers]\nmodel = \"Qwen/Qwen3-4B-Instruct-2507\"\n";
  std::string full_toml = backend, debug = backend;
  full_toml.replace(full_toml.find("FLAVOR"), 6, "full");
  debug.replace(debug.find("FLAVOR"), 6, "debugmodel");
  const ImportResult qf = MustImport({{"full.toml", full_toml}});
  EXPECT_EQ(qf.config["model"], "qwen3-4b");  // the hub id names the Qwen3 4B preset
  // Qwen3-14B names its preset, the shape of torchtitan's qwen3 "14B" flavor (40 layers of 5120)
  // that a hub id without a preset would be read as.
  std::string full_14b = full_toml;
  full_14b.replace(full_14b.find("Qwen3-4B-Instruct-2507"), 22, "Qwen3-14B");
  const ImportResult q14 = MustImport({{"full.toml", full_14b}});
  EXPECT_EQ(q14.config["model"], "qwen3-14b");
  EXPECT_TRUE(Missing(MustImport({{"debug.toml", debug}}), "model"));
  // llama4 "17bx16e" (torchtitan models/llama4) is Llama 4 Scout.
  EXPECT_EQ(MustImport({{"l.toml", "[model]\nname = \"llama4\"\nflavor = \"17bx16e\"\n"}})
                .config["model"],
            "llama4-scout");
  // "671B_debug_128die" is the full shape (61 layers, 256 experts).
  const ImportResult full =
      MustImport({{"f.toml", "[model]\nname = \"deepseek_v3\"\nflavor = \"671B_debug_128die\"\n"}});
  EXPECT_EQ(full.config["model"], "deepseek-v3");
}

// torchtitan's 2026-08 registries: the transformers backend names its checkpoint with a
// top-level hf_model=..., and models/muse_glimmer imports its model_registry relatively
// (`from . import model_registry`), so the family comes from the file's other hints.
TEST(ImportTorchtitan, TopLevelHfModelAndMuseGlimmerRegistries) {
  const std::string backend = R"(from . import model_registry
from torchtitan.experiments.transformers_modeling_backend.configs import TransformersBackendConfig

def full() -> TransformersBackendConfig:
    return TransformersBackendConfig(
        hf_model="Qwen/Qwen3-30B-A3B",
        model_spec=model_registry("full_moe"),
        training=TrainingConfig(num_tokens_per_microbatch_per_dp_rank=2 * 2048,
                                max_context_length=2048),
    )

def debug() -> TransformersBackendConfig:
    return TransformersBackendConfig(
        hf_model="Qwen/Qwen3-30B-A3B",
        model_spec=model_registry("debugmodel"),
    )
)";
  const InputFile b{"config_registry.py", backend};
  EXPECT_EQ(MustImport({b}, "full").config["model"], "qwen3-30b-a3b");
  // The debug flavor cuts the hub model down: it is asked for, not read as the hub model.
  EXPECT_TRUE(Missing(MustImport({b}, "debug"), "model"));

  const std::string glimmer = R"(from torchtitan.trainer import Trainer
from . import model_registry
from .model import MuseGlimmerModel

def muse_glimmer_30b() -> Trainer.Config:
    model_spec = model_registry("30B", attn_backend="flex")
    return Trainer.Config(
        model_spec=model_spec,
        training=TrainingConfig(num_tokens_per_microbatch_per_dp_rank=1 * 8192,
                                max_context_length=8192),
        activation_checkpoint=FullAC.Config(),
    )

def muse_glimmer_30b_mm() -> Trainer.Config:
    return Trainer.Config(model_spec=model_registry("30B_mm", attn_backend="flex"))
)";
  const InputFile g{"config_registry.py", glimmer};
  const ImportResult text = MustImport({g}, "muse_glimmer_30b");
  ASSERT_TRUE(text.config_valid);
  EXPECT_EQ(text.config["model"], "muse-glimmer-30b");
  EXPECT_EQ(At(text.config, "training.seq_len"), 8192);
  const ImportResult mm = MustImport({g}, "muse_glimmer_30b_mm");
  EXPECT_EQ(mm.config["model"], "muse-glimmer-30b");
  bool said = false;
  for (const std::string& note : mm.report.notes)
    said = said || note.find("vision encoder and adapter") != std::string::npos;
  EXPECT_TRUE(said) << "the _mm flavor's uncounted vision stack is said";
}

// GraphTrainer's registries wrap a recipe of another file:
// `config = to_graph_trainer_config(qwen3_14b(), model_registry)`, then set compile. The
// wrapped recipe's settings are read (and said to come from its own file), then the wrapper's.
TEST(ImportTorchtitan, ConvertedRecipeKeepsTheWrappedRecipesSettings) {
  const InputFile models{"models_qwen3_config_registry.py",
                         R"(from torchtitan.trainer import Trainer
from torchtitan.models.qwen3 import model_registry

def qwen3_14b() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("14B"),
        training=TrainingConfig(
            num_tokens_per_microbatch_per_dp_rank=4 * 4096,
            max_context_length=4096,
        ),
        parallelism=ParallelismConfig(tensor_parallel_degree=2),
        activation_checkpoint=FullAC.Config(),
    )
)"};
  const InputFile graph{"graph_trainer_config_registry.py",
                        R"(from torchtitan.experiments.graph_trainer.configs import (
    GraphTrainerCompileConfig,
    to_graph_trainer_config,
)
from torchtitan.models.qwen3.config_registry import qwen3_14b
from . import model_registry

def graph_trainer_qwen3_14b() -> GraphTrainer.Config:
    config = to_graph_trainer_config(qwen3_14b(), model_registry)
    config.compile = GraphTrainerCompileConfig(enable=True)
    return config
)"};
  const ImportResult r = MustImport({graph, models}, "graph_trainer_qwen3_14b");
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "model.hidden_size"), 5120);  // torchtitan's qwen3 "14B"
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 40);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);
  EXPECT_EQ(At(r.config, "training.seq_len"), 4096);
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  EXPECT_EQ(At(r.config, "compile.enable"), true);
  int checked = 0;
  for (const ImportRead& e : r.report.read) {
    if (e.key == "parallelism.tensor_parallel_degree" || e.key == "training.local_batch_size") {
      EXPECT_EQ(e.file, "models_qwen3_config_registry.py") << e.key;
      ++checked;
    }
    if (e.key == "compile.enable") {
      EXPECT_EQ(e.file, "graph_trainer_config_registry.py");
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
}

// A registry that imports several families' model_registry under aliases (torchtitan's RL
// examples: qwen3's as model_registry, gpt_oss's and qwen3_5's renamed): each recipe's model is
// the family of the function it calls, directly or through a local wrapper, not whichever
// family the file's imports mention first.
TEST(ImportTorchtitan, AliasedModelRegistriesNameTheirFamily) {
  const std::string registry =
      R"(from torchtitan.models.gpt_oss import model_registry as gpt_oss_model_registry
from torchtitan.models.qwen3 import model_registry
from torchtitan.models.qwen3_5 import model_registry as qwen3_5_model_registry
from torchtitan.trainer import Trainer


def _rl_spec(flavor: str, attn_backend: str):
    return model_registry(flavor, attn_backend=attn_backend)


def rl_gpt_oss_20b() -> Trainer.Config:
    return Trainer.Config(model_spec=gpt_oss_model_registry("20b", attn_backend="varlen"))


def rl_qwen3_1_7b() -> Trainer.Config:
    return Trainer.Config(model_spec=_rl_spec("1.7B", attn_backend="varlen"))


def rl_qwen3_5_9b() -> Trainer.Config:
    return Trainer.Config(model_spec=qwen3_5_model_registry("9B", attn_backend="varlen"))
)";
  const ImportResult g = MustImport({{"config_registry.py", registry}}, "rl_gpt_oss_20b");
  EXPECT_EQ(At(g.config, "model.num_hidden_layers"), 24);  // gpt_oss "20b": 24 layers, 32 experts
  EXPECT_EQ(At(g.config, "model.num_local_experts"), 32);
  const ImportResult q = MustImport({{"config_registry.py", registry}}, "rl_qwen3_1_7b");
  EXPECT_EQ(At(q.config, "model.model_type"), "qwen3");  // qwen3 "1.7B": dim 2048, 28 layers
  EXPECT_EQ(At(q.config, "model.hidden_size"), 2048);
  const ImportResult n = MustImport({{"config_registry.py", registry}}, "rl_qwen3_5_9b");
  EXPECT_EQ(At(n.config, "model.model_type"), "qwen3_5_text");  // qwen3_5 "9B": dim 4096
  EXPECT_EQ(At(n.config, "model.hidden_size"), 4096);
}

// torchtitan's qwen3_5 flavors are defined in code (models/qwen3_5/__init__.py). "27B": dim 5120,
// 64 layers, every 4th full gated attention (24 heads / 4 KV × 256, q_proj emitting the gate),
// the others Gated DeltaNet (16 key / 48 value heads × 128), MLP 17408, vocab 248320, an untied
// lm_head, no MTP. By hand: full-attention layer q 5120·12288 + k, v 2·5120·1024 + o 6144·5120
// + q/k norms 512 = 104,858,112; DeltaNet layer in_proj_qkvz 5120·16384 + in_proj_ba 5120·96 +
// conv 10240·4 + dt_bias, A_log 96 + gated norm 128 + out_proj 6144·5120 = 115,876,064; each
// layer's MLP 3·5120·17408 and 2 norms = 267,397,120. 64·267,397,120 + 16·104,858,112 +
// 48·115,876,064 + embedding and head 2·248320·5120 + final norm 5120 = 26,895,998,464.
// Each flavor's vision encoder trains with it (no freezing in torchtitan/models/qwen3_5): 27B's
// is Qwen3.5-27B's tower, 1152 wide, 27 layers, MLP 4304, 2304 positions, out 5120 =
// 460,730,096 (model_vision_test.cpp), on the first stage, sharded and stepped as the blocks.
// Kimi's flavors on the deepseek_v3 model carry a trained MoonViT (416,866,032 + its merger into
// the text dim: 2048 → 447,545,840; 7168 → 471,143,920).
TEST(ImportTorchtitan, Qwen35AndKimiFlavorsDefinedInCode) {
  const ImportResult q =
      MustImport({{"q.toml", "[model]\nname = \"qwen3_5\"\nflavor = \"27B\"\n"}});
  ASSERT_TRUE(q.config_valid);
  const ModelArch arch = MustParseModel(q.config["model"]);
  EXPECT_EQ(CountParams(arch, false).total, 26895998464);
  EXPECT_EQ(arch.vision_params, 460730096);
  EXPECT_EQ(At(q.config, "training.vision_tower"), "trained");
  // The tower's fp32 weights, gradients and AdamW moments (16 bytes a parameter) are in the
  // estimate, sharded over dp_shard 8: 460,730,096 · 16 / 8 bytes more than without it.
  nlohmann::json job = q.config;
  job["world_size"] = 8;
  job["device"] = "h100-80gb";
  const Config with = testing::MustParse(job.dump());
  Config without = with;
  without.training.vision_tower = VisionTower::kNone;
  const Estimate a = EstimateMemory(with), b = EstimateMemory(without);
  EXPECT_EQ(a.params.total - b.params.total, 460730096);
  const double state = static_cast<double>(a.per_device.parameters + a.per_device.gradients +
                                           a.per_device.optimizer_states) -
                       static_cast<double>(b.per_device.parameters + b.per_device.gradients +
                                           b.per_device.optimizer_states);
  EXPECT_NEAR(state, 460730096.0 * 16 / 8, 64.0);
  const ImportResult moe =
      MustImport({{"m.toml", "[model]\nname = \"qwen3_5\"\nflavor = \"35B-A3B\"\n"}});
  EXPECT_EQ(At(moe.config, "model.num_experts"), 256);
  EXPECT_EQ(At(moe.config, "model.num_experts_per_tok"), 8);
  EXPECT_EQ(At(moe.config, "model.shared_expert_intermediate_size"), 512);
  const ImportResult debug = MustImport(
      {{"d.toml", "[model]\nname = \"qwen3_5\"\nflavor = \"debugmodel_varlen_attn\"\n"}});
  EXPECT_EQ(At(debug.config, "model.num_hidden_layers"), 8);  // debugmodel: 8 layers of dim 256
  EXPECT_EQ(At(debug.config, "model.hidden_size"), 256);
  const ImportResult moonlight =
      MustImport({{"k.toml", "[model]\nname = \"deepseek_v3\"\nflavor = \"moonlight-16B-A3B\"\n"}});
  EXPECT_EQ(At(moonlight.config, "model.num_hidden_layers"), 27);
  EXPECT_EQ(At(moonlight.config, "model.n_routed_experts"), 64);
  const ImportResult k25 =
      MustImport({{"k.toml", "[model]\nname = \"deepseek_v3\"\nflavor = \"Kimi-K2.5\"\n"}});
  EXPECT_EQ(At(k25.config, "model.hidden_size"), 7168);
  EXPECT_EQ(At(k25.config, "model.n_routed_experts"), 384);
  EXPECT_EQ(At(k25.config, "model.vision_params"), 471143920);
  EXPECT_EQ(At(moonlight.config, "model.vision_params"), nullptr);  // text only
  const ImportResult kimi_vl =
      MustImport({{"k.toml", "[model]\nname = \"kimi_k2_7\"\nflavor = \"Kimi-VL-A3B\"\n"}});
  EXPECT_EQ(At(kimi_vl.config, "model.vision_params"), 447545840);
  // Under its own model name (torchtitan/models/kimi_k2_7) too.
  const ImportResult own =
      MustImport({{"k.toml", "[model]\nname = \"kimi_k2_7\"\nflavor = \"Kimi-K2.5\"\n"}});
  EXPECT_EQ(At(own.config, "model.q_lora_rank"), 1536);
  EXPECT_EQ(At(own.config, "model.num_hidden_layers"), 61);
}

// A registry's comments speak for the recipe they sit in: a kernel note naming B200 inside one
// recipe does not make the other recipes B200 jobs (torchtitan's deepseek_v3 registry).
TEST(ImportTorchtitan, RegistryCommentsNameTheDeviceOfTheirOwnRecipe) {
  const std::string registry = R"(# Recipes for DeepSeek-V3.
def dsv3_plain() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("16B"),
        training=TrainingConfig(local_batch_size=4, seq_len=4096),
    )


def dsv3_mxfp8() -> Trainer.Config:
    config = dsv3_plain()
    # pad_multiple=128 is required by the quantization kernel on sm_100 (e.g. B200)
    config.training.local_batch_size = 2
    return config
)";
  const ImportResult plain = MustImport({{"config_registry.py", registry}}, "dsv3_plain");
  bool device_missing = false;
  for (const ImportMissing& m : plain.report.missing) device_missing |= m.key == "device";
  EXPECT_TRUE(device_missing);
  const ImportResult mx = MustImport({{"config_registry.py", registry}}, "dsv3_mxfp8");
  EXPECT_EQ(At(mx.config, "device"), "b200");
}

// optimizer.implementation = "fused_opt_states_bf16" (torchtitan docs/bf16_optimizer_states.md)
// keeps Adam's moments in bf16; the fork's [optimizer] state_dtype says it directly.
TEST(ImportTorchtitan, Bf16OptimizerStatesAreRead) {
  const std::string toml = R"([model]
name = "llama3"
flavor = "8B"
[optimizer]
name = "AdamW"
implementation = "fused_opt_states_bf16"
[training]
local_batch_size = 1
seq_len = 2048
)";
  const ImportResult r = MustImport({{"job.toml", toml}});
  EXPECT_EQ(At(r.config, "optimizer.state_dtype"), "bfloat16");
  std::string fork = toml;
  fork.replace(fork.find("implementation = \"fused_opt_states_bf16\""),
               std::string("implementation = \"fused_opt_states_bf16\"").size(),
               "state_dtype = \"bfloat16\"");
  EXPECT_EQ(At(MustImport({{"job.toml", fork}}).config, "optimizer.state_dtype"), "bfloat16");
}

// Fewer tokens per microbatch than one context (gpt_oss's PP recipes: 1024 of 2048): the packer
// builds one row of 1024 tokens, not a padded 2048-token sequence.
TEST(ImportTorchtitan, ShortMicrobatchIsOnePackedRow) {
  const std::string registry = R"(def llama3_small() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("8B"),
        training=TrainingConfig(
            num_tokens_per_microbatch_per_dp_rank=1024,
            max_context_length=2048,
        ),
    )
)";
  const ImportResult r = MustImport({{"config_registry.py", registry}}, "llama3_small");
  EXPECT_EQ(At(r.config, "training.seq_len"), 1024);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 1);
  EXPECT_TRUE(r.report.problems.empty());
}

// A job whose model is not resolved still gets an assumed world size that its expert
// parallelism fits: EP 8 borrows from dp_shard · tp (etp 1), so with TP 2 the smallest world is
// 2 × 8 / 2 = 8, not 2.
TEST(ImportTorchtitan, AssumedWorldSizeLeavesRoomForExpertParallelism) {
  const std::string toml = R"([model]
name = "qwen3_5"
flavor = "35B-A3B"
[parallelism]
tensor_parallel_degree = 2
expert_parallel_degree = 8
[training]
local_batch_size = 1
seq_len = 4096
)";
  Result<ImportResult> r = ImportFiles({{"job.toml", toml}}, ImportOptions{}, TestPresets());
  ASSERT_TRUE(r.ok());
  long long assumed = 0;
  for (const ImportMissing& m : r.value().report.missing)
    if (m.key == "world_size" && m.assumed.is_number_integer())
      assumed = m.assumed.get<long long>();
  EXPECT_EQ(assumed, 8);
}

}  // namespace
}  // namespace trainmem::testing

namespace trainmem::testing {
namespace {

const char* kLaunchToml = R"([model]
name = "llama3"
flavor = "8B"
[training]
local_batch_size = 1
seq_len = 8192
[parallelism]
data_parallel_shard_degree = -1
tensor_parallel_degree = 1
[activation_checkpoint]
mode = "full"
)";

// torchtitan's run_train.sh with CONFIG_FILE and --section.key overrides (both spellings, a bare
// flag): the TOML is the job, the command line wins, NGPU is the device count.
TEST(ImportTorchtitanLaunch, RunTrainShellWithOverridesOverTheToml) {
  const ImportResult r = MustImport(
      {{"launch.sh",
        "NGPU=4 CONFIG_FILE=./torchtitan/models/llama3/train_configs/llama3_8b.toml "
        "./run_train.sh --training.local_batch_size=2 --parallelism.tensor_parallel_degree 2 "
        "--compile.enable --activation_checkpoint.mode selective\n"},
       {"llama3_8b.toml", kLaunchToml}});
  ASSERT_TRUE(r.config_valid) << ImportReportToText(r.report);
  EXPECT_EQ(r.config["model"], "llama3.1-8b");
  EXPECT_EQ(r.config["world_size"], 4);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);
  EXPECT_EQ(At(r.config, "training.seq_len"), 8192);  // from the TOML
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 2);
  EXPECT_EQ(At(r.config, "compile.enable"), true);
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "selective");
  EXPECT_EQ(ReadLine(r, "training.local_batch_size"), 1);  // the launch line
}

// The 2026 form: MODULE + CONFIG name a registry recipe; torchrun -m torchtitan.train with
// --module / --config does the same, its world size from torchrun; tyro's --compile.no-enable.
TEST(ImportTorchtitanLaunch, RegistryRecipeByModuleAndConfig) {
  const std::string registry = R"(def llama3_8b() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("8B"),
        training=TrainingConfig(local_batch_size=1, seq_len=4096),
        compile=CompileConfig(enable=True),
    )

def llama3_70b() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("70B"),
        training=TrainingConfig(local_batch_size=1, seq_len=8192),
    )
)";
  const ImportResult env = MustImport(
      {{"run.sh", "MODULE=llama3 CONFIG=llama3_70b ./run_train.sh --training.seq_len=4096\n"},
       {"config_registry.py", registry}});
  EXPECT_EQ(env.config["model"], "llama3.1-70b");
  EXPECT_EQ(At(env.config, "training.seq_len"), 4096);
  EXPECT_EQ(env.config["world_size"], 8);  // run_train.sh's NGPU default
  const ImportResult torchrun = MustImport(
      {{"run.sh",
        "torchrun --nproc_per_node=2 --nnodes=2 -m torchtitan.train --module llama3 --config "
        "llama3_8b --compile.no-enable\n"},
       {"config_registry.py", registry}});
  EXPECT_EQ(torchrun.config["model"], "llama3.1-8b");
  EXPECT_EQ(torchrun.config["world_size"], 4);
  EXPECT_EQ(At(torchrun.config, "compile.enable"), false);
}

// The job file named but not given: the overrides are read, the model is asked for, and the
// file is named for a caller that can read it (the CLI looks for it on disk).
TEST(ImportTorchtitanLaunch, NamedJobFileNotGiven) {
  const ImportResult r = MustImport({{"launch.sh",
                                      "CONFIG_FILE=./train_configs/llama3_8b.toml ./run_train.sh "
                                      "--training.local_batch_size=2\n"}});
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 2);
  bool model_missing = false;
  for (const ImportMissing& m : r.report.missing) model_missing |= m.key == "model";
  EXPECT_TRUE(model_missing);
  ASSERT_EQ(r.report.wanted_files.size(), 1u);
  EXPECT_EQ(r.report.wanted_files[0], "./train_configs/llama3_8b.toml");
  // Pasted on the page (no file name), the line is still read as a launch.
  EXPECT_EQ(DetectInputKind("pasted text", "MODULE=qwen3 CONFIG=qwen3_14b ./run_train.sh\n"),
            InputKind::kMegatronScript);
}

}  // namespace
}  // namespace trainmem::testing
