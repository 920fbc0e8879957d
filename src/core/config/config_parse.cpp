// Config schema v1 reader: JSON text or object → Config, every error collected with its path.
// Free text that real run configs carry (optimizer and schedule notes) is read by its name.

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.h"
#include "core/config/config_detail.h"
#include "core/config/field_reader.h"
#include "core/input_limits.h"
#include "core/model/model.h"
#include "core/model/presets.h"

namespace trainmem {
namespace {

using detail::FieldReader;
using detail::JsonTypeName;
using nlohmann::json;

template <class Map>
std::string UnknownPresetMessage(const char* what, const std::string& id, const Map& presets) {
  std::vector<std::string> ids;
  for (const auto& entry : presets) ids.push_back(entry.first);
  std::vector<std::string> close = detail::ClosestNames(id, ids, 5);
  std::string message = std::string("unknown ") + what + " preset '" + id + "'";
  if (!close.empty()) return message + "; close ids: " + detail::JoinNames(close, ", ");
  if (ids.empty()) return message + " (no " + what + " presets are loaded)";
  // A short list (the devices) is given whole: its first eight alphabetically left out the
  // H200, MI300X and RTX 4090 the reader may have meant. A long one (the models) is cut.
  constexpr std::size_t kListedWhole = 24;
  if (ids.size() <= kListedWhole) return message + "; known ids: " + detail::JoinNames(ids, ", ");
  const std::size_t more = ids.size() - 8;
  ids.resize(8);
  return message + "; known ids include: " + detail::JoinNames(ids, ", ") + " and " +
         std::to_string(more) + " more";
}

void ReadInlineModel(const json& fields, Config& c, std::vector<Error>& errors) {
  Result<ModelArch> arch = ParseModelArch(fields, "model");
  if (!arch.ok()) {
    errors.insert(errors.end(), arch.errors().begin(), arch.errors().end());
    return;
  }
  c.model = std::move(arch).value();
  c.model_id.clear();
  c.model_name =
      c.model.model_type.empty() ? "Custom model" : "Custom model (" + c.model.model_type + ")";
  // An inline model has no size in its name: the template mode uses its exact count.
  const ParamCounts counts = CountParams(c.model, false);
  c.nominal_params = counts.total;
  c.nominal_expert_params = counts.expert;
}

// A preset id, else a hub id or name that names one as a whole word ("Qwen/Qwen2.5-7B-Instruct",
// "meta-llama/Llama-3.1-8B", "Llama 3 70B"): what a user copies from a model card. The resolved
// config carries the preset id.
const ModelPreset* FindModelByIdOrName(const Presets& presets, const std::string& text) {
  if (const ModelPreset* preset = presets.FindModel(text)) return preset;
  return presets.FindModelNamedIn(text);
}

void ReadModel(FieldReader& root, const Presets& presets, Config& c, std::vector<Error>& errors) {
  const json* value = root.Get("model");
  if (value == nullptr) {
    root.Fail("model", std::string("required: a preset id such as \"") + kDefaultModelId +
                           "\", or an object of HF config.json fields");
  } else if (value->is_object()) {
    ReadInlineModel(*value, c, errors);
  } else if (!value->is_string()) {
    root.Fail("model",
              "expected a preset id (a string) or an object of HF config.json fields, got " +
                  JsonTypeName(*value));
  } else if (const ModelPreset* preset = FindModelByIdOrName(presets, value->get<std::string>())) {
    c.model_id = preset->id;
    c.model_name = preset->name;
    c.model = preset->arch;
    c.nominal_params = preset->nominal_params;
    c.nominal_expert_params = preset->nominal_expert_params;
  } else {
    root.Fail("model", UnknownPresetMessage("model", value->get<std::string>(), presets.models));
  }
}

std::int64_t BytesFromGib(double gib) {
  if (!(gib > 0) || gib > kMaxDeviceMemoryGib) return 0;  // rejected by validation
  return static_cast<std::int64_t>(std::floor(gib * 1073741824.0));
}

void CopyDevicePreset(const DevicePreset& preset, Device& d) {
  d.id = preset.id;
  d.name = preset.name;
  d.memory_gib = preset.memory_gib;
  d.devices_per_node = preset.devices_per_node;
}

void ReadDevice(FieldReader& root, const Presets& presets, Device& d, std::vector<Error>& errors) {
  const json* value = root.Get("device");
  if (value == nullptr) {
    if (const DevicePreset* preset = presets.FindDevice(kDefaultDeviceId)) {
      CopyDevicePreset(*preset, d);
    } else {
      root.Fail("device", std::string("no device given and the default preset '") +
                              kDefaultDeviceId + "' is not loaded");
    }
  } else if (value->is_string()) {
    if (const DevicePreset* preset = presets.FindDevice(value->get<std::string>())) {
      CopyDevicePreset(*preset, d);
    } else {
      root.Fail("device",
                UnknownPresetMessage("device", value->get<std::string>(), presets.devices));
    }
  } else if (value->is_object()) {
    FieldReader r(value, "device", errors);
    d = Device{};
    d.name = "Custom device";
    r.String("name", d.name);
    if (value->find("memory_gib") == value->end()) {
      r.Fail("memory_gib", "required for a custom device (the GiB the framework sees)");
    }
    r.Number("memory_gib", d.memory_gib);
    r.Int("devices_per_node", d.devices_per_node);
    r.ReportUnknownKeys();
  } else {
    root.Fail("device",
              "expected a preset id (a string) or {\"name\": …, \"memory_gib\": …}, got " +
                  JsonTypeName(*value));
  }
  d.memory_bytes = BytesFromGib(d.memory_gib);
}

void ReadTraining(const json* section, Training& t, std::vector<Error>& errors) {
  FieldReader r(section, "training", errors);
  r.Int("local_batch_size", t.local_batch_size);
  r.Int("seq_len", t.seq_len);
  r.Enum("mixed_precision_param", t.mixed_precision_param);
  r.Bool("fp8", t.fp8);
  r.Int("nvfp4_layers", t.nvfp4_layers);
  r.Enum("attention", t.attention);
  r.OptionalNumber("dropout", t.dropout);
  r.Int("loss_chunks", t.loss_chunks);
  r.Bool("mtp", t.mtp);
  r.Bool("create_attention_mask_in_dataloader", t.create_attention_mask_in_dataloader);
  r.Bool("moe_grouped_gemm", t.moe_grouped_gemm);
  r.Bool("cross_entropy_fusion", t.cross_entropy_fusion);
  r.Int("lora_rank", t.lora_rank);
  r.Bool("dsa_fused_kernels", t.dsa_fused_kernels);
  r.Bool("defer_embedding_wgrad_compute", t.defer_embedding_wgrad_compute);
  r.Int("wgrad_deferral_limit", t.wgrad_deferral_limit);
  r.Bool("grad_reduce_in_bf16", t.grad_reduce_in_bf16);
  r.Enum("vision_tower", t.vision_tower);
  r.Enum("base_quantization", t.base_quantization);
  r.Enum("dtype", t.dtype);
  r.ReportUnknownKeys();
}

void ReadCompile(const json* section, Compile& c, std::vector<Error>& errors) {
  FieldReader r(section, "compile", errors);
  r.Bool("enable", c.enable);
  if (const json* list = r.Get("components")) {
    if (!list->is_array()) {
      r.Fail("components",
             "expected a list such as [\"model\", \"loss\"], got " + JsonTypeName(*list));
    } else {
      c.model = c.loss = false;
      for (std::size_t i = 0; i < list->size(); ++i) {
        const json& item = (*list)[i];
        const std::string text = item.is_string() ? item.get<std::string>() : detail::Dump(item);
        if (text == "model")
          c.model = true;
        else if (text == "loss")
          c.loss = true;
        else
          r.Fail("components[" + std::to_string(i) + "]",
                 "unknown component " + text + "; valid values: model, loss");
      }
    }
  }
  r.ReportUnknownKeys();
}

void ReadZeroStage(FieldReader& r, std::optional<int>& out) {
  const json* value = r.Get("zero_stage");
  if (value == nullptr) return;
  if (value->is_null()) {
    out.reset();
    return;
  }
  std::int64_t stage = 0;
  const std::string problem = detail::ReadInt(*value, stage);
  if (!problem.empty()) return r.Fail("zero_stage", problem);
  if (stage < 0 || stage > 3)
    return r.Fail("zero_stage", "must be 0, 1, 2 or 3 (or null), got " + std::to_string(stage));
  out = static_cast<int>(stage);
}

// parallelism.pipeline_parallel_layer_list: an array of non-negative layer counts, or null.
void ReadLayerList(FieldReader& r, std::vector<std::int64_t>& out) {
  const json* value = r.Get("pipeline_parallel_layer_list");
  if (value == nullptr) return;
  if (value->is_null()) {
    out.clear();
    return;
  }
  if (!value->is_array()) {
    return r.Fail("pipeline_parallel_layer_list",
                  "expected an array of layer counts (one per pipeline rank), got " +
                      detail::JsonTypeName(*value));
  }
  std::vector<std::int64_t> list;
  for (std::size_t i = 0; i < value->size(); ++i) {
    std::int64_t layers = 0;
    const std::string problem = detail::ReadInt((*value)[i], layers);
    const std::string key = "pipeline_parallel_layer_list[" + std::to_string(i) + "]";
    if (!problem.empty()) return r.Fail(key, problem);
    if (layers < 0) return r.Fail(key, "must be at least 0, got " + std::to_string(layers));
    list.push_back(layers);
  }
  out = std::move(list);
}

void ReadParallelism(const json* section, Parallelism& p, std::vector<Error>& errors) {
  FieldReader r(section, "parallelism", errors);
  r.Int("data_parallel_replicate_degree", p.dp_replicate);
  r.Int("data_parallel_shard_degree", p.dp_shard);
  r.Int("tensor_parallel_degree", p.tp);
  r.Int("pipeline_parallel_degree", p.pp);
  r.Int("context_parallel_degree", p.cp);
  r.Int("expert_parallel_degree", p.ep);
  r.Int("expert_tensor_parallel_degree", p.etp);
  r.Int("pipeline_parallel_microbatch_size", p.pp_microbatch_size);
  if (r.Enum("pipeline_parallel_schedule", p.pp_schedule)) {
    // The explicit key below, when present, wins over a count found in the schedule's note.
    const std::int64_t from_note = detail::LayersPerStageFromScheduleText(
        r.Get("pipeline_parallel_schedule")->get<std::string>());
    if (from_note > 0) p.pp_layers_per_stage = from_note;
  }
  r.Int("pipeline_parallel_layers_per_stage", p.pp_layers_per_stage);
  r.Int("microbatch_group_size_per_vp_stage", p.vp_microbatch_group);
  ReadLayerList(r, p.pp_layer_list);
  r.Bool("sequence_parallel", p.sequence_parallel);
  r.Int("ulysses_degree_in_cp", p.ulysses_degree_in_cp);
  r.Int("num_distributed_optimizer_instances", p.dist_opt_instances);
  ReadZeroStage(r, p.zero_stage);
  r.Enum("fsdp_reshard_after_forward", p.fsdp_reshard_after_forward);
  r.Enum("expert_parallel_comm_backend", p.ep_comm_backend);
  r.ReportUnknownKeys();
}

// torchtitan writes the block interval as a string ("2"); an integer means the same.
// Returns "" when `value` is neither "op" nor a positive integer.
std::string SelectiveAcOption(const json& value) {
  if (value.is_string() && value.get<std::string>() == "op") return "op";
  const json number =
      value.is_string() ? json::parse(value.get<std::string>(), nullptr, false) : value;
  std::int64_t every = 0;
  if (number.is_number() && detail::ReadInt(number, every).empty() && every >= 1) {
    return std::to_string(every);
  }
  return "";
}

void ReadActivationCheckpoint(const json* section, ActivationCheckpoint& ac,
                              std::vector<Error>& errors) {
  FieldReader r(section, "activation_checkpoint", errors);
  r.Enum("mode", ac.mode);
  if (const json* value = r.Get("selective_ac_option")) {
    const std::string option = SelectiveAcOption(*value);
    if (!option.empty())
      ac.selective_ac_option = option;
    else
      r.Fail("selective_ac_option",
             "expected \"op\" or a positive integer k (checkpoint every k-th block), got " +
                 detail::Dump(*value));
  }
  r.Bool("offload", ac.offload);
  r.Bool("swap_attention", ac.swap_attention);
  r.Int("recompute_num_layers", ac.recompute_num_layers);
  if (const json* list = r.Get("recompute_modules")) {
    std::uint32_t bits = 0;
    bool ok = list->is_array();
    for (std::size_t i = 0; ok && i < list->size(); ++i) {
      const json& item = (*list)[i];
      const std::uint32_t bit = item.is_string() ? RecomputeModuleBit(item.get<std::string>()) : 0;
      ok = bit != 0;
      bits |= bit;
    }
    if (ok) {
      ac.recompute_modules = bits;
    } else {
      std::string known;
      for (const char* n : kRecomputeModuleNames)
        known += std::string(known.empty() ? "" : ", ") + n;
      r.Fail("recompute_modules", "expected a list of Megatron module names (" + known + "), got " +
                                      detail::Dump(*list));
    }
  }
  r.ReportUnknownKeys();
}

void ReadOptimizer(const json* section, Optimizer& o, std::vector<Error>& errors) {
  FieldReader r(section, "optimizer", errors);
  r.Enum("name", o.name);
  r.Enum("state_dtype", o.state_dtype);
  r.Number("momentum", o.momentum);
  r.Bool("first_moment", o.first_moment);
  r.Int("max_preconditioner_dim", o.max_preconditioner_dim);
  r.Bool("swap_optimizer", o.swap_optimizer);
  r.Int("swap_optimizer_times", o.swap_optimizer_times);
  r.Bool("early_step_in_backward", o.early_step_in_backward);
  r.Bool("offload", o.offload);
  r.Bool("reuse_fp32_param", o.reuse_fp32_param);
  r.Enum("implementation", o.implementation);
  r.ReportUnknownKeys();
}

void ReadOverhead(const json* section, Overhead& o, std::vector<Error>& errors) {
  FieldReader r(section, "overhead", errors);
  r.Number("temporary_fraction", o.temporary_fraction);
  r.Number("budget_fraction", o.budget_fraction);
  r.ReportUnknownKeys();
}

void ReadVersion(FieldReader& root, int& version) {
  const json* value = root.Get("version");
  if (value == nullptr) return;
  std::int64_t v = 0;
  const std::string problem = detail::ReadInt(*value, v);
  if (!problem.empty()) return root.Fail("version", problem);
  if (v != 1)
    return root.Fail("version", "unsupported config version " + std::to_string(v) +
                                    "; this build reads version 1");
  version = 1;
}

// Only its parse_error matters: it turns the failed non-throwing parse into a message with the
// line and column, without exceptions (the WASM build may have them disabled).
class ParseErrorSax : public nlohmann::json_sax<json> {
 public:
  std::string message;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    message = ex.what();
    // "[json.exception.parse_error.101] parse error at line 2, column 5: …" → from "parse error".
    const std::size_t bracket = message.find("] ");
    if (bracket != std::string::npos) message.erase(0, bracket + 2);
    return false;
  }
};

}  // namespace

namespace detail {

Result<Config> ReadConfigJson(const json& j, const Presets& presets, bool validate) {
  if (!j.is_object())
    return Result<Config>::Failure("", "expected a JSON object, got " + JsonTypeName(j));
  std::vector<Error> errors;
  Config c;
  FieldReader root(&j, "", errors);
  ReadVersion(root, c.version);
  root.Enum("mode", c.mode);
  root.Enum("framework", c.framework);
  ReadModel(root, presets, c, errors);
  ReadDevice(root, presets, c.device, errors);
  root.Int("world_size", c.world_size);
  ReadTraining(root.Get("training"), c.training, errors);
  ReadCompile(root.Get("compile"), c.compile, errors);
  ReadParallelism(root.Get("parallelism"), c.parallelism, errors);
  ReadActivationCheckpoint(root.Get("activation_checkpoint"), c.activation_checkpoint, errors);
  ReadOptimizer(root.Get("optimizer"), c.optimizer, errors);
  ReadOverhead(root.Get("overhead"), c.overhead, errors);
  root.ReportUnknownKeys();
  // Validation runs on a fully read config only: its checks compare values, and a value that
  // failed to read would stand in as its default and produce a misleading second error.
  if (errors.empty() && validate) errors = ValidateConfig(c);
  if (!errors.empty()) return Result<Config>::Failure(std::move(errors));
  return Result<Config>::Success(std::move(c));
}

}  // namespace detail

Result<Config> ConfigFromJson(const nlohmann::json& j, const Presets& presets) {
  return detail::ReadConfigJson(j, presets, true);
}

Result<Config> ParseConfig(std::string_view json_text, const Presets& presets) {
  if (auto refused = CheckJsonInput(json_text, kMaxJsonTextBytes, "")) {
    return Result<Config>::Failure({*refused});
  }
  const char* begin = json_text.data();
  const char* end = begin + json_text.size();
  json j = json::parse(begin, end, nullptr, false);
  if (j.is_discarded()) {
    ParseErrorSax sax;
    json::sax_parse(begin, end, &sax);
    return Result<Config>::Failure("", "invalid JSON: " + sax.message);
  }
  return ConfigFromJson(j, presets);
}

}  // namespace trainmem
