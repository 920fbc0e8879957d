// Export → import gives the same config back, for every format (what maps).
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

Config Imported(const std::vector<InputFile>& files) {
  const ImportResult r = MustImport(files);
  EXPECT_TRUE(r.config_valid) << ImportReportToText(r.report);
  return MustParse(r.config.dump());
}

Config Job() {
  return MustParse(R"({"model": "llama3.1-70b", "device": "h100-80gb", "world_size": 64,
    "training": {"local_batch_size": 8, "seq_len": 4096, "fp8": true},
    "parallelism": {"tensor_parallel_degree": 4, "pipeline_parallel_degree": 2,
                    "pipeline_parallel_microbatch_size": 2},
    "activation_checkpoint": {"mode": "full"}})");
}

void ExpectSameJob(const Config& a, const Config& b) {
  EXPECT_EQ(a.model_id, b.model_id);
  EXPECT_EQ(a.world_size, b.world_size);
  EXPECT_EQ(a.device.id, b.device.id);
  EXPECT_EQ(a.training.local_batch_size, b.training.local_batch_size);
  EXPECT_EQ(a.training.seq_len, b.training.seq_len);
  EXPECT_EQ(a.training.fp8, b.training.fp8);
  EXPECT_EQ(a.parallelism.tp, b.parallelism.tp);
  EXPECT_EQ(a.parallelism.pp, b.parallelism.pp);
  EXPECT_EQ(a.parallelism.pp_microbatch_size, b.parallelism.pp_microbatch_size);
  EXPECT_EQ(a.activation_checkpoint.mode, b.activation_checkpoint.mode);
}

TEST(ImportRoundTrip, Toml) {
  const Config job = Job();
  const ExportResult e = ExportConfig(job, ExportFormat::kTorchtitanToml);
  ExpectSameJob(job, Imported({{"job.toml", e.text}}));
}

TEST(ImportRoundTrip, TorchtitanPython) {
  const Config job = Job();
  const ExportResult e = ExportConfig(job, ExportFormat::kTorchtitanPython);
  ExpectSameJob(job, Imported({{"config_registry.py", e.text}}));
}

// torchtitan's parallelism.fsdp_reshard_after_forward (distributed/fsdp.py): the policy goes out
// in both torchtitan formats and comes back; "default" is not written (it is torchtitan's own).
TEST(ImportRoundTrip, TorchtitanReshardPolicy) {
  for (ExportFormat f : {ExportFormat::kTorchtitanToml, ExportFormat::kTorchtitanPython}) {
    const std::string file = f == ExportFormat::kTorchtitanToml ? "job.toml" : "config_registry.py";
    for (ReshardPolicy policy : {ReshardPolicy::kAlways, ReshardPolicy::kNever}) {
      Config job = Job();
      job.parallelism.fsdp_reshard_after_forward = policy;
      const ExportResult e = ExportConfig(job, f);
      EXPECT_EQ(Imported({{file, e.text}}).parallelism.fsdp_reshard_after_forward, policy)
          << e.text;
    }
    const ExportResult plain = ExportConfig(Job(), f);
    EXPECT_EQ(plain.text.find("fsdp_reshard_after_forward"), std::string::npos);
    EXPECT_EQ(Imported({{file, plain.text}}).parallelism.fsdp_reshard_after_forward,
              ReshardPolicy::kDefault);
  }
}

// Full bf16 training (training.dtype) goes out in both torchtitan formats and comes back; the
// Python registry also carries the attention backend, so flash stays flash and flex stays flex
// (without attn_backend the importer would take the family's default, flex).
TEST(ImportRoundTrip, TorchtitanDtypeAndAttention) {
  for (ExportFormat f : {ExportFormat::kTorchtitanToml, ExportFormat::kTorchtitanPython}) {
    const std::string file = f == ExportFormat::kTorchtitanToml ? "job.toml" : "config_registry.py";
    Config job = Job();
    job.training.dtype = DType::kBFloat16;
    EXPECT_EQ(Imported({{file, ExportConfig(job, f).text}}).training.dtype, DType::kBFloat16);
  }
  for (AttentionImpl a : {AttentionImpl::kFlash, AttentionImpl::kFlex}) {
    Config job = Job();
    job.training.attention = a;
    const ExportResult e = ExportConfig(job, ExportFormat::kTorchtitanPython);
    EXPECT_EQ(Imported({{"config_registry.py", e.text}}).training.attention, a) << e.text;
  }
  Config flex = Job();
  flex.training.attention = AttentionImpl::kFlex;
  flex.training.dtype = DType::kBFloat16;
  const ExportResult m = ExportConfig(flex, ExportFormat::kMegatron);
  int listed = 0;
  for (const std::string& u : m.unmapped)
    listed += u.find("training.attention = flex") == 0 || u.find("training.dtype") == 0;
  EXPECT_EQ(listed, 2);
}

TEST(ImportRoundTrip, Megatron) {
  Config job = Job();
  job.framework = Framework::kMegatron;
  job.parallelism.zero_stage = 1;
  const ExportResult e = ExportConfig(job, ExportFormat::kMegatron);
  const Config back = Imported({{"train.sh", e.text}});
  ExpectSameJob(job, [&] {
    Config c = back;
    c.model_id = job.model_id;  // Megatron arguments carry the architecture, not a preset id
    return c;
  }());
  EXPECT_EQ(CountParams(back.model, false).total, CountParams(job.model, false).total);
  EXPECT_EQ(back.parallelism.zero_stage, 1);
}

TEST(ImportRoundTrip, MegatronMoeLayerPattern) {
  Config job = MustParse(R"({"model": "deepseek-v2-lite", "world_size": 16, "framework": "megatron",
    "parallelism": {"expert_parallel_degree": 8}})");
  const ExportResult e = ExportConfig(job, ExportFormat::kMegatron);
  const Config back = Imported({{"train.sh", e.text}});
  EXPECT_EQ(back.model.layer_is_moe, job.model.layer_is_moe);  // [0]*1+[1]*26
  EXPECT_EQ(CountParams(back.model, false).total, CountParams(job.model, false).total);
}

TEST(ImportRoundTrip, Deepspeed) {
  Config job = MustParse(R"({"model": "llama3.1-8b", "world_size": 16, "framework": "deepspeed",
    "training": {"local_batch_size": 4},
    "parallelism": {"zero_stage": 3}, "optimizer": {"offload": true},
    "activation_checkpoint": {"mode": "full"}})");
  const ExportResult e = ExportConfig(job, ExportFormat::kDeepspeed);
  bool says_model = false;
  for (const std::string& u : e.unmapped) says_model = says_model || u.find("model") == 0;
  EXPECT_TRUE(says_model);
  const ImportResult r = MustImport({{"ds_config.json", e.text}});
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(r.config, "optimizer.offload"), true);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);
  EXPECT_EQ(r.config["world_size"], 16);
}

TEST(ImportRoundTrip, UnmappedSettingsAreListed) {
  Config job = Job();
  job.training.loss_chunks = 4;
  job.activation_checkpoint.mode = AcMode::kSelective;
  job.activation_checkpoint.selective_ac_option = "2";
  const ExportResult e = ExportConfig(job, ExportFormat::kTorchtitanPython);
  std::string all;
  for (const std::string& u : e.unmapped) all += u + "\n";
  EXPECT_NE(all.find("loss_chunks"), std::string::npos);
  EXPECT_NE(all.find("selective_ac_option"), std::string::npos);
}

}  // namespace
}  // namespace trainmem::testing
