// torchtitan job sections → schema v1. One reader for the three generations: TOML job files
// (torchtitan <= v0.2.2, torchtitan/config/job_config.py), the resolved config JSON, and the
// Python registries (torchtitan/config/configs.py, trainer.py's Trainer.Config), whose calls the
// Python reader turns into the same {"section": {"key": value}} shape with "__class__" naming
// the constructor. Key names: spring 2026 (local_batch_size, seq_len,
// pipeline_parallel_microbatch_size, expert_tensor_parallel_degree, ActivationCheckpointConfig)
// and current (num_tokens_per_microbatch_per_dp_rank, max_context_length, num_pp_microbatches,
// FullAC/SelectiveAC/MemoryBudgetAC); torchtitan-npu's Optimizer.swap_optimizer(_times),
// Parallelism.enable_custom_context_parallel, Training.num_mtp_modules
// (torchtitan_npu/config/custom_config.py).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

#include "core/config/config_detail.h"
#include "core/import/import_detail.h"
#include "core/model/model.h"

namespace trainmem::import_detail {
namespace {

struct Ctx {
  const std::map<std::string, int>& lines;
  const std::string& file;
  Builder& b;
  // nvfp4_bf16_tail_fqns(len(layers), fraction) in a recipe: the fraction, resolved once the
  // model (and so its block count) is known (ApplyTorchtitanSections).
  double* nvfp4_tail_fraction = nullptr;
  const std::map<std::string, std::string>* line_files = nullptr;
  // A TOML flavor whose ModelArgs chose FlexAttention (ReadModel): set once the sections have
  // said the framework (torchtitan-npu's flavors are its own and do not).
  std::optional<Source>* flavor_flex = nullptr;
  Source At(const std::string& path) const {
    auto it = lines.find(path);
    if (line_files != nullptr)
      if (const auto f = line_files->find(path); f != line_files->end() && !f->second.empty())
        return {f->second, it == lines.end() ? 0 : it->second, path};
    return {file, it == lines.end() ? 0 : it->second, path};
  }
  // Where `path` was written, said as `text`.
  Source At(const std::string& path, std::string text) const {
    Source at = At(path);
    at.text = std::move(text);
    return at;
  }
  void Ignore(const std::string& path, const std::string& why) const { b.Ignore(At(path), why); }
};

std::string ClassOf(const json& v) {
  if (v.is_object() && v.contains("__class__") && v["__class__"].is_string())
    return v["__class__"].get<std::string>();
  return "";
}

bool IsOpaque(const json& v) { return v.is_object() && v.contains("__opaque__"); }

// torchtitan's expert-parallel token dispatcher (models/common/token_dispatcher.py), chosen by
// the TOML key parallelism.expert_parallel_comm_backend, the registry's
// model_registry(..., moe_comm_backend=...), or a "-deepep" model flavor in forks: the config's
// parallelism.expert_parallel_comm_backend (the estimate says what each one leaves out). A name
// the config does not know is noted and estimated as the standard dispatcher.
void ReadDispatcher(const Ctx& c, const std::string& backend, const Source& src) {
  std::string name = Lower(backend);
  if (name.empty() || name == "none" || name == "null") name = "standard";
  EpCommBackend parsed = EpCommBackend::kStandard;
  if (detail::EnumFromText(name, parsed)) {
    c.b.Set("parallelism.expert_parallel_comm_backend", EpCommBackendName(parsed), src);
    return;
  }
  c.b.Note(src.text + ": expert-parallel token dispatch '" + backend +
           "' is not one trainmem knows (standard, deepep, hybridep, minimal_async_ep); it is "
           "estimated as the standard all-to-all dispatcher");
}

// A whole number (24.0 from a recipe's arithmetic is 24; 2e26 is not a count: casting it was
// undefined behaviour, found by fuzz_import_python).
std::optional<long long> Int(const json& v) { return JsonInteger(v); }

std::optional<bool> Bool(const json& v) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_string()) return ParseBool(v.get<std::string>());
  if (v.is_number_integer()) return v.get<long long>() != 0;
  return std::nullopt;
}

// A value as the report shows it, cut at 200 bytes: a recipe's list or object can be large.
std::string Text(const json& v) {
  std::string text = v.is_string() ? v.get<std::string>()
                     : IsOpaque(v) ? v["__opaque__"].get<std::string>()
                                   : v.dump();
  if (text.size() > 200) {
    std::size_t cut = 200;  // not inside a UTF-8 sequence
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text = text.substr(0, cut) + "…";
  }
  return text;
}

// Sets an integer key, or says why the value was not read.
void SetInt(const Ctx& c, const std::string& path, const json& v, const std::string& key,
            long long min_value = 1) {
  const std::optional<long long> i = Int(v);
  if (!i) return c.Ignore(path, "not a whole number (" + Text(v) + ")");
  if (*i < min_value && !(key == "parallelism.data_parallel_shard_degree" && *i == -1))
    return c.Ignore(path, "out of range (" + std::to_string(*i) + ")");
  c.b.Set(key, *i, c.At(path));
}

void SetBool(const Ctx& c, const std::string& path, const json& v, const std::string& key) {
  const std::optional<bool> t = Bool(v);
  if (!t) return c.Ignore(path, "not true/false (" + Text(v) + ")");
  c.b.Set(key, *t, c.At(path));
}

// NVFP4LinearConverter.Config(fqns=...) (components/quantization/nvfp4.py): a Linear is converted
// when its FQN contains one of `fqns`; none converts every Linear, the LM head too.
// nvfp4_bf16_tail_fqns(n, f) gives "layers.{i}." for the first n − ceil(n·f) blocks. Read as
// training.nvfp4_layers, the blocks from the first whose linears run NVFP4 (-1: all).
void ReadNvfp4Converter(const Ctx& c, const std::string& path, const json& item) {
  const Source src = c.At(path);
  const json* fqns = item.is_object() && item.contains("fqns") ? &item["fqns"] : nullptr;
  if (fqns == nullptr || fqns->is_null() || (fqns->is_array() && fqns->empty())) {
    c.b.Set("training.nvfp4_layers", -1, src);
    c.b.Note(path + ": NVFP4 on every Linear; the LM head's share is not counted");
    return;
  }
  if (ClassOf(*fqns) == "nvfp4_bf16_tail_fqns" && fqns->contains("__args__") &&
      (*fqns)["__args__"].size() >= 2 && (*fqns)["__args__"][1].is_number()) {
    const double fraction = (*fqns)["__args__"][1].get<double>();
    if (fraction > 0 && fraction < 1) {
      if (const auto n = Int((*fqns)["__args__"][0]); n && *n > 0) {
        const auto tail = static_cast<long long>(std::ceil(static_cast<double>(*n) * fraction));
        c.b.Set("training.nvfp4_layers", std::max(0LL, *n - tail), src);
      } else if (c.nvfp4_tail_fraction != nullptr) {
        *c.nvfp4_tail_fraction = fraction;  // the model's block count decides (below)
      }
      return;
    }
  }
  if (!fqns->is_array()) {
    c.Ignore(path + ".fqns", "not read (" + Text(*fqns) + "): set training.nvfp4_layers");
    return;
  }
  // "layers" (or "layers.") converts every block; "layers.{i}." one block each.
  std::vector<long long> blocks;
  bool others = false;
  for (const json& f : *fqns) {
    const std::string name = f.is_string() ? f.get<std::string>() : "";
    std::string trimmed = name;
    while (!trimmed.empty() && trimmed.back() == '.') trimmed.pop_back();
    if (trimmed == "layers") {
      c.b.Set("training.nvfp4_layers", -1, src);
      return;
    }
    if (StartsWith(trimmed, "layers.")) {
      if (const auto i = ParseInteger(trimmed.substr(7)); i && *i >= 0) {
        blocks.push_back(*i);
        continue;
      }
    }
    others = true;
  }
  if (blocks.empty()) {
    c.b.Set("training.nvfp4_layers", -1, src);
    c.b.Note(path + ".fqns " + Text(*fqns) +
             ": linears of that name in every block, counted as whole NVFP4 blocks");
    return;
  }
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  const auto count = static_cast<long long>(blocks.size());
  c.b.Set("training.nvfp4_layers", count, src);
  if (others || blocks.back() != count - 1)
    c.b.Note(path + ".fqns " + Text(*fqns) + ": counted as the first " + std::to_string(count) +
             " blocks");
}

// Float8/MXFP8 converters train linears in low precision: trainmem's training.fp8. NVFP4 is
// training.nvfp4_layers.
void ReadConverters(const Ctx& c, const std::string& path, const json& list) {
  if (!list.is_array()) return c.Ignore(path, "not a list (" + Text(list) + ")");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item_path = path + "[" + std::to_string(i) + "]";
    const std::string name = list[i].is_string() ? list[i].get<std::string>() : ClassOf(list[i]);
    const std::string lower = Lower(name);
    if (lower.find("float8") != std::string::npos || lower.find("mxfp8") != std::string::npos ||
        lower == "mx" || lower.find("mxlinear") != std::string::npos) {
      c.b.Set("training.fp8", true, c.At(item_path));
    } else if (lower.find("nvfp4") != std::string::npos) {
      ReadNvfp4Converter(c, item_path, list[i]);
    } else if (lower.find("lora") != std::string::npos) {
      // components/lora.py LoRAConverter.Config(rank, alpha, target_modules): base weights
      // frozen, rank-r adapters trained.
      if (list[i].is_object() && list[i].contains("rank")) {
        SetInt(c, item_path + ".rank", list[i]["rank"], "training.lora_rank");
        if (list[i].contains("target_modules"))
          c.b.Note(item_path + ".target_modules " + Text(list[i]["target_modules"]) +
                   ": the estimate puts adapters on every 2-D block weight (a few more than "
                   "these; adapters are a small share of the model)");
      } else {
        c.Ignore(item_path, "LoRA converter without a rank read here: set training.lora_rank");
      }
    } else if (lower.rfind("npu_", 0) == 0 || lower.find("npu") != std::string::npos) {
      c.b.Set("framework", "torchtitan-npu", c.At(item_path));
    } else {
      c.Ignore(item_path, "converter '" + name + "' does not change the memory model");
    }
  }
}

// A torchtitan dtype field: bfloat16 or float32 (and float16 where `half_allowed`), else ignored
// with the reason.
void SetDtype(const Ctx& c, const std::string& path, const json& v, const std::string& key,
              bool half_allowed) {
  const std::string t = Text(v);
  if (t == "bfloat16" || t == "float32" || (half_allowed && t == "float16"))
    c.b.Set(key, t, c.At(path));
  else
    c.Ignore(path, "unknown dtype " + t);
}

void ReadTraining(const Ctx& c, const json& s, long long& tokens_per_microbatch,
                  long long& context_length, int& tokens_line) {
  for (const auto& [key, v] : s.items()) {
    const std::string path = "training." + key;
    if (key == "__class__") continue;
    if (key == "local_batch_size" || key == "batch_size") {
      SetInt(c, path, v, "training.local_batch_size");
    } else if (key == "seq_len") {
      SetInt(c, path, v, "training.seq_len");
    } else if (key == "max_context_length") {
      if (auto i = Int(v)) context_length = *i;
      SetInt(c, path, v, "training.seq_len");
    } else if (key == "num_tokens_per_microbatch_per_dp_rank") {
      if (auto i = Int(v)) {
        tokens_per_microbatch = *i;
        tokens_line = c.At(path).line;
      } else {
        c.Ignore(path, "not a whole number (" + Text(v) + ")");
      }
    } else if (key == "mixed_precision_param") {
      SetDtype(c, path, v, "training.mixed_precision_param", true);
    } else if (key == "dtype") {
      // TrainingConfig.dtype: "bfloat16" is full bf16 training (no fp32 master copy).
      SetDtype(c, path, v, "training.dtype", false);
    } else if (key == "enable_cpu_offload") {
      // FSDP2's CPUOffloadPolicy, not an optimizer offload (frameworks.cpp): torchtitan has
      // no option that moves only the optimizer states.
      if (Bool(v).value_or(false)) {
        c.Ignore(path,
                 "FSDP2 CPU offload (parameters, gradients and optimizer states on the host) is "
                 "not modelled: the estimate keeps them on the device, an upper bound");
      } else {
        c.Ignore(path, "off (the default)");
      }
    } else if (key == "num_mtp_modules") {
      if (Int(v).value_or(0) > 0) c.b.Set("training.mtp", true, c.At(path));
    } else if (key == "compile") {  // torchtitan <= 0.1: [training] compile = true
      SetBool(c, path, v, "compile.enable");
    } else if (key == "data_parallel_degree" || key == "data_parallel_shard_degree") {
      SetInt(c, path, v, "parallelism.data_parallel_shard_degree", -1);
    } else if (key == "data_parallel_replicate_degree") {
      // [training] held the parallel degrees until early 2025 (llama3_8b.toml at 90567fc98),
      // HSDP's replicate degree among them.
      SetInt(c, path, v, "parallelism.data_parallel_replicate_degree");
    } else if (key == "tensor_parallel_degree") {
      SetInt(c, path, v, "parallelism.tensor_parallel_degree");
    } else if (key == "enable_float8_linear") {
      SetBool(c, path, v, "training.fp8");
    } else if (key == "global_batch_size" || key == "num_tokens_per_train_step") {
      c.Ignore(path,
               "the global batch sets gradient accumulation, which does not change the "
               "per-device peak");
    } else {
      c.Ignore(path, "does not change device memory");
    }
  }
}

void ReadParallelism(const Ctx& c, const std::string& section, const json& s,
                     long long& num_pp_microbatches) {
  static const std::pair<const char*, const char*> kDegrees[] = {
      {"data_parallel_replicate_degree", "parallelism.data_parallel_replicate_degree"},
      {"data_parallel_shard_degree", "parallelism.data_parallel_shard_degree"},
      {"tensor_parallel_degree", "parallelism.tensor_parallel_degree"},
      {"pipeline_parallel_degree", "parallelism.pipeline_parallel_degree"},
      {"context_parallel_degree", "parallelism.context_parallel_degree"},
      {"expert_parallel_degree", "parallelism.expert_parallel_degree"},
      {"expert_tensor_parallel_degree", "parallelism.expert_tensor_parallel_degree"},
      {"pipeline_parallel_microbatch_size", "parallelism.pipeline_parallel_microbatch_size"},
      {"pipeline_parallel_layers_per_stage", "parallelism.pipeline_parallel_layers_per_stage"},
  };
  for (const auto& [key, v] : s.items()) {
    const std::string path = section + "." + key;
    if (key == "__class__") continue;
    bool done = false;
    for (const auto& [name, target] : kDegrees) {
      if (key != name) continue;
      done = true;
      if (v.is_null()) {
        c.Ignore(path, "None (the default)");
      } else {
        SetInt(c, path, v, target, key == "data_parallel_shard_degree" ? -1 : 1);
      }
    }
    if (done) continue;
    if (key == "enable_sequence_parallel") {
      SetBool(c, path, v, "parallelism.sequence_parallel");
    } else if (key == "pipeline_parallel_schedule") {
      const std::string t = Text(v);
      const std::string l = Lower(t);
      if (l.find("dualpipe") != std::string::npos) {
        c.b.Set("parallelism.pipeline_parallel_schedule", "ZBVZeroBubble", c.At(path));
        c.b.Note(path + ": DualPipeV is modelled as the zero-bubble V schedule");
      } else if (l == "1f1b" || l == "interleaved1f1b" || l == "gpipe" || l == "zerobubble" ||
                 l == "interleavedzerobubble" || l == "zbvzerobubble" || l == "looped_bfs" ||
                 l == "loopedbfs") {
        c.b.Set("parallelism.pipeline_parallel_schedule",
                l == "looped_bfs" || l == "loopedbfs" ? "Interleaved1F1B" : t, c.At(path));
      } else {
        c.Ignore(path, "schedule '" + t + "' is not one trainmem models");
      }
    } else if (key == "num_pp_microbatches" || key == "pipeline_parallel_microbatches") {
      if (auto i = Int(v)) num_pp_microbatches = *i;
    } else if (key == "enable_custom_context_parallel") {
      if (Bool(v).value_or(false))
        c.b.Note(path +
                 ": torchtitan-npu's Ulysses-style CP; activations are split by the "
                 "context_parallel_degree as for ring CP");
      c.b.Set("framework", "torchtitan-npu", c.At(path));
    } else if (key == "custom_config_module") {
      continue;
    } else if (key == "fsdp_reshard_after_forward") {
      // torchtitan distributed/fsdp.py get_fsdp_reshard_after_forward_policy: "default" reshards
      // unless PP is on, "always" / "never" force it (the config key of the same name).
      const std::string t = Lower(Text(v));
      if (t == "default" || t == "always" || t == "never") {
        c.b.Set("parallelism.fsdp_reshard_after_forward", t, c.At(path));
      } else {
        c.Ignore(path, "policy '" + Text(v) + "' is not default, always or never");
      }
    } else if (key == "expert_parallel_comm_backend") {
      const std::string backend = Text(v);
      ReadDispatcher(c, backend, c.At(path));
    } else {
      c.Ignore(path, "does not change the memory model");
    }
  }
}

// Trainer.Config(loss=...): ChunkedLossWrapper splits the tokens into num_chunks and runs the
// output projection + loss one chunk at a time (torchtitan/components/loss.py,
// ChunkedLossWrapper.Config.num_chunks = 8; named ChunkedCELoss from its introduction in
// 2026-04, #2937, until the rename, with the same default); any other loss holds the whole
// sequence's logits.
// Returns true when the file said which loss.
bool ReadLoss(const Ctx& c, const json& s) {
  const std::string cls = ClassOf(s);
  const Source src = c.At("loss");
  if (cls.find("ChunkedLossWrapper") != std::string::npos ||
      cls.find("ChunkedCELoss") != std::string::npos) {
    long long chunks = 8;  // ChunkedLossWrapper.Config.num_chunks default
    Source at{src.file, src.line, cls + " (num_chunks default 8, torchtitan components/loss.py)"};
    if (s.contains("num_chunks")) {
      if (const std::optional<long long> n = Int(s["num_chunks"]); n && *n >= 1) {
        chunks = *n;
        at = c.At("loss.num_chunks");
      } else {
        c.Ignore("loss.num_chunks", "not a whole number >= 1 (" + Text(s["num_chunks"]) + ")");
      }
    }
    c.b.Set("training.loss_chunks", chunks, at);
    return true;
  }
  if (!cls.empty() || s.is_object()) {
    c.b.Set("training.loss_chunks", 1,
            {src.file, src.line, (cls.empty() ? std::string("loss") : cls) + " (not chunked)"});
    return true;
  }
  c.Ignore("loss", "not a loss config this reader knows");
  return false;
}

void ReadActivationCheckpoint(const Ctx& c, const json& s) {
  std::string cls = ClassOf(s);
  const Source src = c.At("activation_checkpoint");
  if (s.is_null() || cls == "None") {
    c.b.Set("activation_checkpoint.mode", "none", src);
    return;
  }
  if (cls.empty() && !s.contains("mode") && s.is_object()) {
    // The resolved JSON of the class-based config names no class: tell them by their fields.
    if (s.contains("memory_budget")) {
      cls = "MemoryBudgetAC";
    } else if (s.contains("force_recompute_mm_shapes_by_fqns")) {
      cls = "SelectiveAC";
    }
  }
  if (cls.find("FullAC") != std::string::npos) {
    c.b.Set("activation_checkpoint.mode", "full", {src.file, src.line, cls});
  } else if (cls.find("SelectiveAC") != std::string::npos) {
    c.b.Set("activation_checkpoint.mode", "selective", {src.file, src.line, cls});
    c.b.Set("activation_checkpoint.selective_ac_option", "op", {src.file, src.line, cls});
  } else if (cls.find("MemoryBudgetAC") != std::string::npos) {
    double budget = 0.5;  // MemoryBudgetAC.Config.memory_budget default
    for (const char* key : {"memory_budget", "budget"})
      if (s.contains(key) && s[key].is_number()) budget = s[key].get<double>();
    const char* mode = budget <= 0 ? "full" : budget >= 1 ? "none" : "selective";
    c.b.Set("activation_checkpoint.mode", mode, {src.file, src.line, cls});
    if (budget > 0 && budget < 1) {
      c.b.Set("activation_checkpoint.selective_ac_option", "op", {src.file, src.line, cls});
      c.b.Note("activation_checkpoint: MemoryBudgetAC(memory_budget=" + json(budget).dump() +
               ") is solved by the compiler's min-cut; modelled as op-level selective AC");
    }
  }
  for (const auto& [key, v] : s.items()) {
    const std::string path = "activation_checkpoint." + key;
    if (key == "__class__" || key == "memory_budget" || key == "budget") continue;
    if (key == "mode") {
      const std::string m = Lower(Text(v));
      if (m == "none" || m == "selective" || m == "full")
        c.b.Set("activation_checkpoint.mode", m, c.At(path));
      else
        c.Ignore(path, "mode '" + m +
                           "' is not none/selective/full (memory_budget is read as "
                           "selective)");
      if (m == "memory_budget") c.b.Set("activation_checkpoint.mode", "selective", c.At(path));
    } else if (key == "selective_ac_option") {
      const std::string o = Text(v);
      if (o == "op" || (ParseInteger(o) && *ParseInteger(o) >= 1))
        c.b.Set("activation_checkpoint.selective_ac_option", o, c.At(path));
      else
        c.Ignore(path, "expected 'op' or a positive integer");
    } else if (key == "offload" || key == "activation_offload") {
      SetBool(c, path, v, "activation_checkpoint.offload");
    } else {
      c.Ignore(path, "does not change the memory model");
    }
  }
  // A TOML job file (torchtitan <= v0.2) that asks for selective AC without an option gets
  // JobConfig's default, selective_ac_option = "2" (config/job_config.py ActivationCheckpoint),
  // not the per-op policy of current torchtitan (trainmem's default).
  const json* mode = c.b.Get("activation_checkpoint.mode");
  if (EndsWith(Lower(c.file), ".toml") && cls.empty() && !s.contains("selective_ac_option") &&
      mode && mode->is_string() && mode->get<std::string>() == "selective")
    c.b.Set("activation_checkpoint.selective_ac_option", "2",
            c.At("activation_checkpoint.mode",
                 "(not set: the TOML schema's default selective_ac_option = \"2\")"));
}

void ReadOptimizer(const Ctx& c, const json& s) {
  const std::string cls = ClassOf(s);
  if (cls.find("InBackward") != std::string::npos)
    c.b.Set("optimizer.early_step_in_backward", true, c.At("optimizer", cls));
  if (cls.find("adamw") != std::string::npos)  // default_adamw(lr=...)
    c.b.Set("optimizer.name", "AdamW", c.At("optimizer", cls));
  for (const auto& [key, v] : s.items()) {
    const std::string path = "optimizer." + key;
    if (key == "__class__" || key == "__args__") continue;
    if (key == "name") {
      const std::string n = Text(v);
      static const char* kKnown[] = {"AdamW", "Adam", "SGD", "Lion", "Adafactor"};
      bool known = false;
      for (const char* k : kKnown) known = known || Lower(n) == Lower(k);
      if (known)
        c.b.Set("optimizer.name", n, c.At(path));
      else
        c.Ignore(path, "optimizer '" + n + "' is not modelled; AdamW's states are assumed");
    } else if (key == "swap_optimizer") {
      SetBool(c, path, v, "optimizer.swap_optimizer");
      c.b.Set("framework", "torchtitan-npu", c.At(path));
    } else if (key == "swap_optimizer_times") {
      SetInt(c, path, v, "optimizer.swap_optimizer_times");
    } else if (key == "early_step_in_backward") {
      SetBool(c, path, v, "optimizer.early_step_in_backward");
    } else if (key == "implementation" && Lower(Text(v)) == "fused_opt_states_bf16") {
      // docs/bf16_optimizer_states.md: the fused Adam kernel with bf16 moments beside fp32
      // parameters and gradients.
      c.b.Set("optimizer.state_dtype", "bfloat16", c.At(path));
    } else if (key == "implementation" &&
               (Lower(Text(v)) == "foreach" || Lower(Text(v)) == "for-loop" ||
                Lower(Text(v)) == "fused")) {
      c.b.Set("optimizer.implementation", Lower(Text(v)), c.At(path));
    } else if (key == "state_dtype") {  // NousResearch's fork: [optimizer] state_dtype
      const std::string d = Lower(Text(v));
      if (d == "bfloat16" || d == "bf16" || d == "float32" || d == "fp32")
        c.b.Set("optimizer.state_dtype",
                d == "bf16"   ? "bfloat16"
                : d == "fp32" ? "float32"
                              : d,
                c.At(path));
      else
        c.Ignore(path, "state dtype '" + Text(v) + "' not recognised; fp32 assumed");
    } else if (key == "lr" || key == "eps" || key == "weight_decay" || key == "beta1" ||
               key == "beta2" || key == "betas" || key == "implementation") {
      c.Ignore(path, "does not change device memory");
    } else {
      c.Ignore(path, "not modelled: if it changes device memory, the estimate does not count it");
    }
  }
}

void ReadCompile(const Ctx& c, const json& s) {
  for (const auto& [key, v] : s.items()) {
    const std::string path = "compile." + key;
    if (key == "__class__") continue;
    if (key == "enable") {
      SetBool(c, path, v, "compile.enable");
    } else if (key == "components") {
      if (!v.is_array()) {
        c.Ignore(path, "not a list");
        continue;
      }
      json comps = json::array();
      for (const json& item : v)
        if (item.is_string() && (item == "model" || item == "loss")) comps.push_back(item);
      c.b.Set("compile.components", comps, c.At(path));
    } else {
      c.Ignore(path, "does not change the memory model");
    }
  }
}

// The torchtitan model family named anywhere in the hints ("torchtitan.models.deepseek_v3",
// "llama3_8b", "./assets/hf/Qwen3-8B").
std::string FamilyFromHints(const std::string& hints) {
  std::string n;
  for (char c : hints)
    if (std::isalnum(static_cast<unsigned char>(c))) n += static_cast<char>(std::tolower(c));
  static const std::pair<const char*, const char*> kFamilies[] = {{"deepseekv32", "deepseek_v32"},
                                                                  {"deepseekv4", "deepseek_v4"},
                                                                  {"deepseekv3", "deepseek_v3"},
                                                                  {"llama4", "llama4"},
                                                                  {"llama3", "llama3"},
                                                                  {"llama2", "llama2"},
                                                                  {"qwen35", "qwen3_5"},
                                                                  {"museglimmer", "muse_glimmer"},
                                                                  {"qwen3", "qwen3"},
                                                                  {"gptoss", "gpt_oss"},
                                                                  {"kimik2", "kimi_k2"},
                                                                  {"deepseek", "deepseek_v3"},
                                                                  {"llama", "llama3"}};
  for (const auto& [needle, family] : kFamilies)
    if (n.find(needle) != std::string::npos) return family;
  return "";
}

// A size in a recipe's name: "llama3_8b" → "8B", "qwen3_30b_a3b" → "30B-A3B".
std::string FlavorFromHints(const std::string& hints) {
  const std::string h = Lower(hints);
  for (std::size_t i = 1; i < h.size(); ++i) {
    if (h[i - 1] != '_' || !std::isdigit(static_cast<unsigned char>(h[i]))) continue;
    std::size_t j = i;
    while (j < h.size() && std::isdigit(static_cast<unsigned char>(h[j]))) ++j;
    if (j >= h.size() || h[j] != 'b') continue;
    if (j + 1 < h.size() && std::isalnum(static_cast<unsigned char>(h[j + 1]))) continue;
    std::string flavor = h.substr(i, j - i) + "B";
    if (h.compare(j + 1, 2, "_a") == 0) {
      std::size_t k = j + 3;
      while (k < h.size() && std::isdigit(static_cast<unsigned char>(h[k]))) ++k;
      if (k < h.size() && h[k] == 'b' && k > j + 3)
        flavor += "-A" + h.substr(j + 3, k - j - 3) + "B";
    }
    return flavor;
  }
  return "";
}

// The attention backend of a registry recipe: model_registry(flavor, attn_backend=...), else
// the family's default in its models/<family>/__init__.py model_registry signature: "flex" for
// llama3, qwen3, qwen3_5 and deepseek_v3 since pytorch/torchtitan#3571 (2026-06-09, which
// deprecated SDPA; "sdpa" before it), "varlen" for gpt_oss. It decides what
// per-op selective checkpointing keeps in an eager model (estimate_activations.cpp).
void ReadAttentionBackend(const Ctx& c, const std::string& family, const std::string& given) {
  std::string backend = Lower(given);
  Source src = c.At("model_spec.attn_backend");
  if (backend.empty()) {
    static const std::pair<const char*, const char*> kDefaults[] = {{"llama3", "flex"},
                                                                    {"qwen3", "flex"},
                                                                    {"qwen3_5", "flex"},
                                                                    {"deepseek_v3", "flex"},
                                                                    {"gpt_oss", "varlen"}};
    for (const auto& [f, b] : kDefaults)
      if (family == f) backend = b;
    if (backend.empty()) return;
    src = c.At("model_spec", "(not set: model_registry's attn_backend defaults to \"" + backend +
                                 "\" for " + family + " since torchtitan 2026-06; sdpa before)");
  }
  // "flex_flash" is FlexAttention with the flash kernel (config_utils.py get_attention_config):
  // the same compiled flex region.
  if (backend == "flex_flash") backend = "flex";
  if (backend == "flex" || backend == "varlen" || backend == "sdpa")
    c.b.Set("training.attention", backend, src);
  else
    c.b.Note("model_spec.attn_backend \"" + given +
             "\": not a backend trainmem knows (flex, varlen, sdpa); estimated as flash attention");
}

void ReadModel(const Ctx& c, const json& sections, const std::string& hints,
               const Presets& presets) {
  std::string name, flavor, assets;
  std::string from;  // the key that named the model; the report points at its line
  if (sections.contains("model") && sections["model"].is_object()) {
    const json& m = sections["model"];
    for (const auto& [key, v] : m.items()) {
      const std::string path = "model." + key;
      if (key == "name") {
        name = Text(v);
        from = path;
      } else if (key == "flavor") {
        flavor = Text(v);
        from = path;
      } else if (key == "hf_assets_path" || key == "tokenizer_path") {
        assets = Text(v);
      } else if (key == "converters") {
        ReadConverters(c, path, v);
      } else {
        c.Ignore(path, "does not change the memory model");
      }
    }
  }
  std::string attn_backend;  // model_registry(..., attn_backend=...) when given
  const bool registry_form = sections.contains("model_spec") && sections["model_spec"].is_object();
  if (registry_form) {
    const json& spec = sections["model_spec"];
    if (spec.contains("attn_backend")) attn_backend = Text(spec["attn_backend"]);
    from = "model_spec";
    if (spec.contains("__args__") && !spec["__args__"].empty()) flavor = Text(spec["__args__"][0]);
    if (spec.contains("flavor")) flavor = Text(spec["flavor"]);
    if (spec.contains("converters")) ReadConverters(c, "model_spec.converters", spec["converters"]);
    if (spec.contains("num_mtp_layers") && Int(spec["num_mtp_layers"]).value_or(0) > 0)
      c.b.Set("training.mtp", true, c.At("model_spec.num_mtp_layers"));
    if (spec.contains("moe_comm_backend"))
      ReadDispatcher(c, Text(spec["moe_comm_backend"]),
                     c.At("model_spec", "model_spec.moe_comm_backend"));
    const std::string cls = ClassOf(spec);
    if (cls != "model_registry" && cls.find("model_registry") == std::string::npos)
      name = FamilyFromHints(cls);
    // The registry function as imported: its module names the family, whatever the file's
    // other imports say.
    if (const auto aliases = sections.find("__aliases__");
        name.empty() && aliases != sections.end() && aliases->is_object()) {
      if (const auto module = aliases->find(cls); module != aliases->end() && module->is_string())
        name = FamilyFromHints(module->get<std::string>());
    }
  }
  if (sections.contains("hf_assets_path")) assets = Text(sections["hf_assets_path"]);
  // A Hugging Face id names the model: the flavor of torchtitan's HF-backed models
  // ("deepseek-ai/DeepSeek-V2-Lite") or [hf_transformers] model of the
  // transformers_modeling_backend ("Qwen/Qwen3-4B-Instruct-2507").
  std::string hf_id, hf_path;
  if (flavor.find('/') != std::string::npos) {
    hf_id = flavor;
    hf_path = from;
  }
  // Its "debugmodel" flavor cuts the model down (experiments/transformers_modeling_backend:
  // dim 256, 2 layers): then the id is not the shape, and the model is asked for.
  // Since 2026-08 its registry puts the id at the top: TransformersBackendConfig(hf_model=...).
  if (sections.contains("hf_transformers") && sections["hf_transformers"].is_object() &&
      sections["hf_transformers"].contains("model") &&
      Lower(flavor).find("debug") == std::string::npos) {
    hf_id = Text(sections["hf_transformers"]["model"]);
    hf_path = "hf_transformers.model";
  } else if (sections.contains("hf_model") && sections["hf_model"].is_string() &&
             Lower(flavor).find("debug") == std::string::npos) {
    hf_id = Text(sections["hf_model"]);
    hf_path = "hf_model";
  }
  if (!hf_id.empty()) {
    const Source hf_src = c.At(hf_path, hf_path + " = " + hf_id);
    if (const std::string preset = PresetFromText(hf_id, presets); !preset.empty()) {
      c.b.Set("model", preset, hf_src);
      return;
    }
    std::string underscored = Lower(hf_id);
    for (char& ch : underscored)
      if (ch == '-' || ch == '/' || ch == '.') ch = '_';
    name = FamilyFromHints(hf_id);
    flavor = FlavorFromHints(underscored);
    from = hf_path;
  }
  if (name.empty()) name = FamilyFromHints(hints + " " + assets);
  if (flavor.empty()) flavor = FlavorFromHints(hints);
  if (flavor.empty() && name.empty()) {
    if (const std::string preset = PresetFromText(assets, presets); !preset.empty()) {
      c.b.Set("model", preset, c.At("hf_assets_path"));
      return;
    }
    c.b.Missing("model",
                "no [model] name/flavor or model_registry(...) in the files; pick a "
                "preset or give the model's config.json",
                nullptr);
    return;
  }
  FlavorModel m = ModelForFlavor(name, flavor, assets, presets);
  const Source src = c.At(from, from.empty() ? "model" : from + " = " + name + " " + flavor);
  if (registry_form) {
    ReadAttentionBackend(c, name, attn_backend);
  } else if ((name == "deepseek_v3" || name == "deepseek_v32") ||
             (name == "llama4" && Lower(flavor).find("irope") != std::string::npos)) {
    // A TOML job's model is its flavor's ModelArgs in code, which chose the attention:
    // deepseek_v3's flavors set use_flex_attn=True since pytorch/torchtitan#1610 (2025-08-22;
    // sdpa before), llama4's *_irope flavors since their addition (models/llama4/__init__.py).
    if (c.flavor_flex != nullptr)
      *c.flavor_flex =
          c.At(from, "(flavor " + flavor + ": torchtitan's " + name +
                         " ModelArgs set use_flex_attn=True" +
                         (name == "llama4" ? std::string() : " since 2025-08; sdpa before") + ")");
  }
  if (!m.preset.empty()) {
    c.b.Set("model", m.preset, src);
  } else if (!m.inline_model.is_null()) {
    c.b.Set("model", m.inline_model, src);
  } else {
    c.b.Missing("model",
                "torchtitan model " + (name.empty() ? std::string() : "'" + name + "' ") +
                    "flavor '" + flavor +
                    "' has no preset here; give its config.json (or pick a preset)",
                nullptr);
    return;
  }
  if (!m.note.empty()) c.b.Note(m.note);
  // What the job does with the tower is said here, where it is decided (a Trainer job on the
  // same model decides by its own freeze flags).
  if (m.vision_trained)
    c.b.Set("training.vision_tower", "trained",
            c.At(from, "torchtitan builds the vision encoder into the model and trains it"));
  for (const char* backend : {"deepep", "hybridep"})
    if (Lower(flavor).find(backend) != std::string::npos)
      ReadDispatcher(c, backend, c.At(from, "flavor " + flavor));
  // torchtitan-npu flavors name cut-down models: "671B_debug_4_layers", "4layers".
  const std::string lf = Lower(flavor);
  const std::size_t at = lf.find("layer");
  if (at != std::string::npos && !m.preset.empty()) {
    std::size_t end = at;
    while (end > 0 && (lf[end - 1] == '_' || lf[end - 1] == '-')) --end;
    std::size_t start = end;
    while (start > 0 && std::isdigit(static_cast<unsigned char>(lf[start - 1]))) --start;
    const std::optional<long long> layers = ParseInteger(lf.substr(start, end - start));
    if (layers && *layers > 0) {
      if (const ModelPreset* p = presets.FindModel(m.preset)) {
        json inline_model = ModelArchToJson(p->arch);
        inline_model["num_hidden_layers"] = *layers;
        inline_model.erase("layer_types");
        inline_model.erase("mlp_only_layers");
        // DeepSeek-V4's per-layer compress_ratios (one per block; the MTP layer's is its own):
        // the first `layers` entries.
        if (json& ratios = inline_model["compress_ratios"]; ratios.is_array()) {
          if (static_cast<long long>(ratios.size()) > *layers)
            ratios.erase(ratios.begin() + *layers, ratios.end());
        } else {
          inline_model.erase("compress_ratios");
        }
        c.b.Set("model", inline_model, src);
        c.b.Note("flavor '" + flavor + "': " + p->name + " cut to " + std::to_string(*layers) +
                 " layers, as the flavor's name says");
      }
    }
  }
}

}  // namespace

void ApplyTorchtitanSections(const json& sections, const std::map<std::string, int>& lines,
                             const std::string& file, Builder& b, const Presets& presets,
                             bool overrides, const std::map<std::string, std::string>* line_files) {
  double nvfp4_tail_fraction = 0;
  std::optional<Source> flavor_flex;
  const Ctx c{lines, file, b, &nvfp4_tail_fraction, line_files, &flavor_flex};
  std::string hints = file;
  if (sections.contains("__hints__")) hints += " " + sections["__hints__"].get<std::string>();
  long long tokens_per_microbatch = 0, context_length = 0, num_pp_microbatches = 0;
  int tokens_line = 0;
  bool loss_given = false;
  if (!overrides || sections.contains("model") || sections.contains("model_spec") ||
      sections.contains("hf_assets_path"))
    ReadModel(c, sections, hints, presets);
  for (const auto& [section, s] : sections.items()) {
    if (section == "__hints__" || section == "__aliases__" || section == "__class__" ||
        section == "model" || section == "hf_transformers" || section == "model_spec" ||
        section == "hf_assets_path")
      continue;
    if (section == "activation_checkpoint") {
      ReadActivationCheckpoint(c, s);
      continue;
    }
    if (section == "loss") {
      loss_given = ReadLoss(c, s);
      continue;
    }
    if (!s.is_object()) {
      c.Ignore(section, "does not change device memory");
      continue;
    }
    if (section == "training") {
      ReadTraining(c, s, tokens_per_microbatch, context_length, tokens_line);
    } else if (section == "parallelism" || section == "experimental") {
      ReadParallelism(c, section, s, num_pp_microbatches);
    } else if (section == "optimizer") {
      ReadOptimizer(c, s);
    } else if (section == "compile") {
      ReadCompile(c, s);
    } else if (section == "model_converters") {
      if (s.contains("converters"))
        ReadConverters(c, "model_converters.converters", s["converters"]);
    } else if (section == "float8") {
      if (s.contains("enable_float8_linear"))
        SetBool(c, "float8.enable_float8_linear", s["enable_float8_linear"], "training.fp8");
    } else if (section == "job") {
      for (const auto& [key, v] : s.items()) {
        if (key == "custom_config_module" && Text(v).find("torchtitan_npu") != std::string::npos)
          b.Set("framework", "torchtitan-npu", c.At("job.custom_config_module"));
        else if (key != "__class__")
          c.Ignore("job." + key, "job metadata");
      }
    } else if (section == "debug") {
      c.Ignore(section, "debugging switches do not change device memory");
    } else {
      c.Ignore(section, "[" + section + "] does not change device memory");
    }
  }
  if (flavor_flex && !b.Has("training.attention")) {
    const json* fw = b.Get("framework");
    if (fw == nullptr || !fw->is_string() || fw->get<std::string>() == "torchtitan")
      b.Set("training.attention", "flex", *flavor_flex);
  }
  if (nvfp4_tail_fraction > 0) {
    // nvfp4_bf16_tail_fqns(len(model layers), fraction): the first n − ceil(n·fraction) blocks.
    const json* model = b.Get("model");
    long long n = 0;
    if (model && model->is_string()) {
      if (const ModelPreset* p = presets.FindModel(model->get<std::string>()))
        n = p->arch.num_layers;
    } else if (model && model->is_object()) {
      n = JsonInteger(model->value("num_hidden_layers", json(0))).value_or(0);
    }
    if (n > 0) {
      const auto tail =
          static_cast<long long>(std::ceil(static_cast<double>(n) * nvfp4_tail_fraction));
      b.Set("training.nvfp4_layers", std::max(0LL, n - tail),
            {file, 0,
             "nvfp4_bf16_tail_fqns: the first n - ceil(n * " + json(nvfp4_tail_fraction).dump() +
                 ") of " + std::to_string(n) + " blocks"});
    } else {
      b.Missing("training.nvfp4_layers",
                "the NVFP4 converter keeps the last " + json(nvfp4_tail_fraction).dump() +
                    " of the blocks in bf16; the model's block count is not known",
                nullptr);
    }
  }
  // MTP modules asked for on a model whose shape has none: an inline shape (a debug flavor)
  // gets them; a preset without them cannot, and the switch is dropped with a note.
  if (const json* mtp = b.Get("training.mtp"); mtp && mtp->is_boolean() && mtp->get<bool>()) {
    long long count = 1;
    if (sections.contains("training") && sections["training"].is_object() &&
        sections["training"].contains("num_mtp_modules"))
      count = std::max(1LL, Int(sections["training"]["num_mtp_modules"]).value_or(1));
    const json* model = b.Get("model");
    const ModelPreset* p =
        model && model->is_string() ? presets.FindModel(model->get<std::string>()) : nullptr;
    if (model && model->is_object() &&
        model->value("num_nextn_predict_layers", json(0)).is_number_integer() &&
        model->value("num_nextn_predict_layers", 0LL) == 0) {
      json m = *model;
      m["num_nextn_predict_layers"] = count;
      b.config["model"] = m;
      b.Note("training.num_mtp_modules = " + std::to_string(count) +
             ": the model's shape gets that many MTP modules");
    } else if (p != nullptr && p->arch.num_mtp_layers == 0) {
      b.Erase("training.mtp");
      b.Note("training.num_mtp_modules: " + p->name + " has no MTP modules; not estimated");
    }
  }
  // The current schema (num_tokens_per_microbatch_per_dp_rank / max_context_length) comes with
  // model registries that all wrap the loss in ChunkedLossWrapper (torchtitan
  // models/*/config_registry.py); a recipe that derives from one not given here does too.
  if (!loss_given && (tokens_per_microbatch > 0 || context_length > 0) &&
      !b.Has("training.loss_chunks")) {
    b.Set("training.loss_chunks", 8,
          {file, 0, "assumed: current torchtitan schema, ChunkedLossWrapper (8 chunks)"});
    b.Note(
        "training.loss_chunks = 8 assumed: the file uses torchtitan's current schema "
        "(num_tokens_per_microbatch_per_dp_rank / max_context_length), whose model registries "
        "compute the loss with ChunkedLossWrapper (num_chunks 8, components/loss.py); set 1 if "
        "this job's loss is not chunked");
  }
  // Current schema: tokens per microbatch per DP rank / context length = sequences per forward;
  // with PP, num_pp_microbatches of them make the step's local batch (configs.py docstrings).
  if (tokens_per_microbatch > 0) {
    long long seq = context_length > 0 ? context_length : 2048;  // TrainingConfig default
    const Source src{c.At("training.num_tokens_per_microbatch_per_dp_rank").file, tokens_line,
                     "training.num_tokens_per_microbatch_per_dp_rank"};
    if (tokens_per_microbatch < seq) {
      // Fewer tokens than one context: the packer fills one row of that many tokens
      // (components/data/packing.py), so the microbatch is one sequence of that length.
      seq = tokens_per_microbatch;
      b.Set("training.seq_len", seq, src);
      b.Note("training.num_tokens_per_microbatch_per_dp_rank = " + std::to_string(seq) +
             " is less than the context length: one packed row of " + std::to_string(seq) +
             " tokens per microbatch");
    } else if (tokens_per_microbatch % seq != 0) {
      b.Problem("training.num_tokens_per_microbatch_per_dp_rank = " +
                std::to_string(tokens_per_microbatch) +
                " is not a multiple of the context "
                "length " +
                std::to_string(seq) + "; the batch is rounded up");
    }
    // Rounded up without adding first (a token count near the int64 limit must not overflow).
    const long long sequences =
        std::max(1LL, tokens_per_microbatch / seq + (tokens_per_microbatch % seq != 0 ? 1 : 0));
    const json* pp = b.Get("parallelism.pipeline_parallel_degree");
    const bool pipelined = pp != nullptr && pp->is_number_integer() && pp->get<long long>() > 1;
    if (pipelined && num_pp_microbatches > 0) {
      b.Set("parallelism.pipeline_parallel_microbatch_size", sequences, src);
      b.Set("training.local_batch_size", PositiveProduct(sequences, num_pp_microbatches), src);
    } else {
      b.Set("training.local_batch_size", sequences, src);
    }
  } else if (num_pp_microbatches > 0) {
    const json* lbs = b.Get("training.local_batch_size");
    if (lbs && lbs->is_number_integer() && lbs->get<long long>() % num_pp_microbatches == 0)
      b.Set("parallelism.pipeline_parallel_microbatch_size",
            lbs->get<long long>() / num_pp_microbatches, c.At("parallelism.num_pp_microbatches"));
  }
}

}  // namespace trainmem::import_detail
