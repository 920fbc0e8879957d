// MindSpeed-LLM's FSDP2 trainer (train_fsdp2.py, examples/fsdp2, 2026): a YAML job file with
// the sections model / data / parallel / training / optimization, and `--section.key value`
// overrides on the command line, which win (mindspeed_llm/fsdp2/utils/arguments.py
// fsdp2_parse_args, _merge_yaml_into_cmd_args: YAML keys already on the command line are
// skipped).
//
// What the trainer runs, from its source (MindSpeed-LLM c77308a1, 2026-08-21):
// - One FSDP2 group over every rank: parallel_state.py raises unless parallel.fsdp_size equals
//   the world size; no pipeline parallelism; tp_size must stay 1. Context-parallel ranks are
//   inside the FSDP group (the CP mesh is (world / cp, cp)), as in torchtitan's dp_shard · cp.
// - Parameters are loaded in fp32 (model_loader.py torch_dtype=torch.float32) and sharded; the
//   MixedPrecisionPolicy gathers them in parallel.param_dtype (bf16) and reduce-scatters in
//   parallel.reduce_dtype (fp32 by default); AdamW's moments are zeros_like the fp32 shards.
// - Experts (parallel.ep_size > 1) leave the main FSDP group and are sharded over
//   ep_size · ep_fsdp_size ranks (the expert mesh (world / (ep · ep_fsdp), ep_fsdp, ep)).
// - parallel.recompute with recompute_modules ["model.layers.{*}"] wraps each whole decoder layer
//   in torch.utils.checkpoint: full activation checkpointing.
// That is torchtitan-npu's recipe (FSDP2 on Ascend, whole-block checkpointing), so the job is
// estimated as framework "torchtitan-npu"; where the trainers differ, the report says so.
#include <algorithm>
#include <cctype>
#include <set>

#include "core/import/arg_values.h"
#include "core/import/import_detail.h"
#include "core/import/yaml_reader.h"

namespace trainmem::import_detail {
namespace {

const std::set<std::string> kSections = {"model", "data", "parallel", "training", "optimization"};

// The YAML's sections, one value a key. Top-level values that are not mappings are skipped, as
// the trainer skips them.
void AddYaml(const InputFile& file, const YamlDocument& doc, ArgValues& values, Builder& b) {
  if (!doc.value.is_object()) {
    b.Problem(file.name +
              ": not a YAML mapping of sections (model, data, parallel, training, "
              "optimization)");
    return;
  }
  for (const auto& [section, body] : doc.value.items()) {
    if (!body.is_object()) {
      b.Ignore({file.name, doc.LineOf(section), section},
               "not a section of key: value pairs (train_fsdp2.py skips it)");
      continue;
    }
    for (const auto& [key, value] : body.items()) {
      if (value.is_null()) continue;  // the trainer skips nulls: the default stands
      const std::string dotted = section + "." + key;
      values[dotted] = {value, {file.name, doc.LineOf(dotted), section + ": " + key}};
    }
  }
}

// Why a key the estimate does not read leaves device memory alone (or that it is not modelled).
std::string IgnoredReason(const std::string& key) {
  const std::string section = key.substr(0, key.find('.'));
  if (kSections.count(section) == 0)
    return "not a section train_fsdp2.py has (model, data, parallel, training, optimization)";
  if (key == "model.init_model_with_meta_device")
    return "how the model is built while loading (host memory): not the training peak";
  if (section == "model") return "where the weights and tokenizer come from: not device memory";
  if (section == "data") return "data loading: not device memory";
  if (section == "training")
    return "optimizer hyperparameter, schedule, checkpointing or logging: not device memory";
  if (section == "optimization") return "kernel choice: the estimate assumes fused kernels";
  if (key == "parallel.fsdp_modules" || key == "parallel.hook_modules")
    return "FSDP units: the estimate gathers one decoder layer at a time, and the embedding and "
           "head as their own units (the default list)";
  if (key == "parallel.ep_modules" || key == "parallel.ep_fsdp_modules")
    return "which modules are experts: the model's MoE layers";
  if (key == "parallel.ep_dispatcher")
    return "token dispatch kernel (eager, fused, mc2): its buffers are not counted apart";
  return "not modelled: if it changes device memory, the estimate does not count it";
}

void ReadModel(ArgReader& r, const std::string& file_name, Builder& b, const Presets& presets) {
  const std::string path = r.Str("model.model_name_or_path");
  const std::string tokenizer = r.Str("model.tokenizer_name_or_path");
  const std::string model_id = r.Str("model.model_id");
  const Source where =
      r.SourceOr("model.model_name_or_path", Source{file_name, 0, "model_name_or_path"});
  // The shape is the config.json in model_name_or_path (model_factory.py); model_id only picks
  // the forward. A checkpoint directory named after a preset or a torchtitan flavor names it.
  std::string family = Lower(model_id);
  if (family == "qwen3_moe") family = "qwen3";
  const std::string dir = SizeInName(path).empty() && !tokenizer.empty() ? tokenizer : path;
  const FlavorModel m = ModelFromCheckpointName(dir, family, presets);
  if (!m.preset.empty() || !m.inline_model.is_null()) {
    b.Set("model", m.preset.empty() ? m.inline_model : json(m.preset), where);
    if (!m.note.empty()) b.Note("model: " + m.note + " (from model_name_or_path " + path + ")");
    return;
  }
  std::string preset;
  // A family with one preset ("qwen3_next" → Qwen3-Next-80B-A3B): that preset, said so.
  if (preset.empty() && !model_id.empty()) {
    std::string key;
    for (char c : Lower(model_id))
      if (std::isalnum(static_cast<unsigned char>(c))) key += c;
    std::vector<std::string> found;
    for (const auto& [id, p] : presets.models) {
      std::string norm;
      for (char c : id)
        if (std::isalnum(static_cast<unsigned char>(c))) norm += c;
      if (norm.rfind(key, 0) == 0 && norm.size() > key.size() &&
          std::isdigit(static_cast<unsigned char>(norm[key.size()])))
        found.push_back(id);
    }
    if (found.size() == 1) {
      b.Set("model", found.front(), where);
      b.Note("model: " + found.front() + ", the one preset of model_id " + model_id +
             "; give the config.json in " + path + " if the checkpoint is another size");
      return;
    }
  }
  if (preset.empty()) preset = PresetFromText(file_name, presets);
  if (!preset.empty()) {
    b.Set("model", preset, where);
    return;
  }
  b.Missing("model",
            "the model is the config.json in model_name_or_path (" +
                (path.empty() ? std::string("not given") : path) +
                "), which no preset is named after: give that config.json with the job",
            nullptr);
}

// Reads the trainer's arguments into the config. `world` is the launch's device count (0 when
// only the YAML is given).
void Apply(ArgValues& values, long long world, const Source& world_source,
           const std::string& file_name, Builder& b, const Presets& presets) {
  ArgReader r(values, b);
  b.Set("framework", "torchtitan-npu", {file_name, 0, "train_fsdp2.py"});
  b.Note(
      "MindSpeed-LLM's FSDP2 trainer is estimated as torchtitan-npu: both shard fp32 parameters, "
      "gradients and AdamW states with FSDP2 over every rank, compute in bf16 and checkpoint "
      "whole decoder layers");
  // --- Layout ------------------------------------------------------------------------------
  const std::optional<long long> fsdp = r.Int("parallel.fsdp_size");
  if (world > 0) {
    b.Set("world_size", world, world_source);
    if (fsdp && *fsdp != world)
      b.Problem("parallel.fsdp_size is " + std::to_string(*fsdp) + " but the launch starts " +
                std::to_string(world) +
                " devices: train_fsdp2.py requires fsdp_size = world size "
                "(fsdp2/distributed/parallel_state.py) and stops");
  } else if (fsdp && *fsdp > 0) {
    b.Set("world_size", *fsdp, r.SourceOf("parallel.fsdp_size"));
    b.Note("world size = parallel.fsdp_size (train_fsdp2.py requires them equal)");
  } else {
    b.Missing("world_size",
              "give the launch script, or parallel.fsdp_size (train_fsdp2.py requires it to "
              "equal the world size; its default, 1, runs on one device)",
              1);
  }
  if (const auto tp = r.Int("parallel.tp_size"); tp && *tp > 1)
    b.Problem("parallel.tp_size " + std::to_string(*tp) +
              ": train_fsdp2.py requires fsdp_size = world size, so tensor parallelism cannot be "
              "used beside it; read as 1");
  const long long cp = r.Int("parallel.cp_size").value_or(1);
  if (cp > 1) {
    b.Set("parallelism.context_parallel_degree", cp, r.SourceOf("parallel.cp_size"));
    const std::string cp_type = Lower(r.Str("parallel.cp_type"));
    if (!cp_type.empty() && cp_type != "ulysses")
      b.Note("parallel.cp_type " + cp_type +
             ": context parallelism is estimated as Ulysses (torchtitan-npu's all-to-all), "
             "whose per-rank activations a ring or KV all-gather also keeps; their rotating KV "
             "buffers are not counted");
  } else {
    r.Find("parallel.cp_type");
  }
  b.Set("parallelism.data_parallel_shard_degree", -1, {file_name, 0, "fsdp_size = world size"});
  const long long ep = r.Int("parallel.ep_size").value_or(1);
  const long long ep_fsdp = r.Int("parallel.ep_fsdp_size").value_or(1);
  if (ep > 1) {
    b.Set("parallelism.expert_parallel_degree", ep, r.SourceOf("parallel.ep_size"));
    const long long eshard = PositiveProduct(ep, ep_fsdp);
    if (world > 0 && eshard > 0 && eshard < world)
      b.Problem("the experts are sharded over ep_size × ep_fsdp_size = " + std::to_string(eshard) +
                " ranks and replicated " + std::to_string(world / eshard) +
                " times (the expert mesh's edp); trainmem shards them over every rank, so their "
                "parameters, gradients and optimizer states are under-estimated " +
                std::to_string(world / eshard) + "×");
  }
  // --- Batch and sequence --------------------------------------------------------------------
  if (const auto mbs = r.Int("training.per_device_train_batch_size")) {
    b.Set("training.local_batch_size", *mbs, r.SourceOf("training.per_device_train_batch_size"));
  } else {
    b.Missing("training.local_batch_size",
              "no training.per_device_train_batch_size: the trainer's default is 8", 8);
  }
  if (const auto ga = r.Int("training.gradient_accumulation_steps"); ga && *ga > 1)
    b.Note("gradient_accumulation_steps " + std::to_string(*ga) +
           ": each microbatch reduce-scatters its gradients into the sharded fp32 gradients, so "
           "the peak is one microbatch's");
  const std::optional<long long> cutoff = r.Int("data.cutoff_len");
  if (cutoff) {
    b.Set("training.seq_len", *cutoff, r.SourceOf("data.cutoff_len"));
  } else {
    b.Missing("training.seq_len", "no data.cutoff_len: the trainer's default is 2048", 2048);
  }
  const std::string data_manager = Lower(r.Str("data.data_manager_type"));
  const bool packing = r.Flag("data.packing").value_or(false);
  if (r.Flag("data.neat_packing").value_or(false))
    b.Note("data.neat_packing builds a [batch, 1, seq, seq] bf16 attention mask, not counted");
  if (data_manager != "mg" && !packing)
    b.Note(
        "data_manager_type lf without packing pads each batch to its longest sample: "
        "cutoff_len is the most a batch holds, and the estimate takes the full length");
  // --- Recompute -----------------------------------------------------------------------------
  const bool recompute = r.Flag("parallel.recompute").value_or(false);
  std::vector<std::string> modules = {"model.layers.{*}"};  // ParallelArguments' default
  if (const ArgValue* v = r.Find("parallel.recompute_modules")) modules = ArgList(v->value);
  const Source ac_source =
      r.SourceOr("parallel.recompute", Source{file_name, 0, "parallel.recompute (default False)"});
  bool all_layers = false;
  for (const std::string& m : modules) all_layers = all_layers || m == "model.layers.{*}";
  if (!recompute) {
    b.Set("activation_checkpoint.mode", "none", ac_source);
  } else if (all_layers) {
    b.Set("activation_checkpoint.mode", "full", ac_source);
  } else {
    b.Set("activation_checkpoint.mode", "none", ac_source);
    b.Note(
        "parallel.recompute_modules checkpoints only some layers or parts of them; the "
        "estimate keeps every layer's activations (an over-estimate)");
  }
  // --- Precision and optimizer -------------------------------------------------------------
  const std::string param_dtype = Lower(r.Str("parallel.param_dtype"));
  if (param_dtype == "fp32" || param_dtype == "fp16")
    b.Set("training.mixed_precision_param", param_dtype == "fp32" ? "float32" : "float16",
          r.SourceOf("parallel.param_dtype"));
  const std::string reduce_dtype = Lower(r.Str("parallel.reduce_dtype"));
  if (reduce_dtype == "bf16" || reduce_dtype == "fp16")
    b.Note("parallel.reduce_dtype " + reduce_dtype +
           ": the reduce-scatter input is 2 bytes a parameter; the estimate keeps FSDP2's fp32 "
           "copy of one block's gradients (slightly over)");
  // ParallelArguments.reshard_after_forward (default True) applies to every FSDP unit, the
  // lm_head's too (it is one of the default fsdp_modules): torchtitan's "always", not its
  // "default", which keeps the last unit gathered for the backward that follows.
  if (const auto reshard = r.Flag("parallel.reshard_after_forward")) {
    b.Set("parallelism.fsdp_reshard_after_forward", *reshard ? "always" : "never",
          r.SourceOf("parallel.reshard_after_forward"));
  } else {
    b.Set("parallelism.fsdp_reshard_after_forward", "always",
          {file_name, 0, "parallel.reshard_after_forward (default True)"});
  }
  const std::string optimizer = Lower(r.Str("training.optimizer"));
  if (optimizer == "muon") {
    b.Set("optimizer.name", "muon", r.SourceOf("training.optimizer"));
  } else if (!optimizer.empty() && optimizer != "adamw" && optimizer != "fused_adamw") {
    b.Problem("training.optimizer " + optimizer +
              " is not one train_fsdp2.py has (adamw, fused_adamw, muon): read as AdamW");
  }
  // mindspeed_llm/fsdp2/optim/optimizer.py _create_optimizer_instance: on NPUs "adamw" is
  // torch.optim.AdamW(foreach=False, fused=False), the per-parameter loop; "fused_adamw" is
  // torch._fused_adamw_ (FunctionalFusedAdamW).
  if (optimizer != "muon")
    b.Set("optimizer.implementation", optimizer == "fused_adamw" ? "fused" : "for-loop",
          optimizer.empty() ? Source{file_name, 0, "training.optimizer (default adamw)"}
                            : r.SourceOf("training.optimizer"));
  if (const auto ahead = r.Int("parallel.num_to_forward_prefetch"); ahead && *ahead > 1)
    b.Note("num_to_forward_prefetch " + std::to_string(*ahead) +
           ": that many blocks ahead are gathered in forward; the estimate counts one");
  r.Find("parallel.num_to_backward_prefetch");
  if (!r.Str("model.quant_recipe_name").empty()) {
    b.Set("training.fp8", true, r.SourceOf("model.quant_recipe_name"));
    b.Note("model.quant_recipe_name " + r.Str("model.quant_recipe_name") +
           " is estimated as float8 linears (MXFP8 weights gathered in 8 bits)");
  }
  for (const std::string& m :
       ArgList(r.Has("parallel.ignored_modules") ? values.at("parallel.ignored_modules").value
                                                 : json())) {
    if (Lower(m).find("expert") != std::string::npos) {
      b.Problem("parallel.ignored_modules holds " + m +
                ": FSDP leaves those parameters whole in fp32 on every rank, with their "
                "gradients and optimizer states; the estimate shards them (an under-estimate)");
    } else {
      b.Note("parallel.ignored_modules " + m +
             " stays whole in fp32 on every rank (a router or other small module: not counted)");
    }
  }
  if (r.Flag("parallel.enable_chunk_batch").value_or(false))
    b.Note("parallel.enable_chunk_batch runs the layers " +
           std::to_string(r.Int("parallel.chunk_mbs").value_or(1)) +
           " sample(s) at a time; the estimate keeps the whole microbatch's activations");
  // --- Attention and loss ----------------------------------------------------------------------
  const bool flash = r.Flag("optimization.use_flash_attn").value_or(false);
  b.Set("training.attention", flash ? "flash" : "sdpa",
        r.SourceOr("optimization.use_flash_attn",
                   Source{file_name, 0, "optimization.use_flash_attn (default False)"}));
  const std::string stage = Lower(r.Str("training.stage"));
  if (const auto chunk = r.Int("optimization.chunk_loss_size"); chunk && *chunk > 0) {
    if (stage == "pt") {
      const long long seq = cutoff.value_or(2048) / std::max(1LL, cp);
      const long long chunks = std::max(1LL, (seq + *chunk - 1) / *chunk);
      b.Set("training.loss_chunks", chunks, r.SourceOf("optimization.chunk_loss_size"));
      b.Note("optimization.chunk_loss_size " + std::to_string(*chunk) + " → " +
             std::to_string(chunks) + " loss chunks over the " + std::to_string(seq) +
             " tokens of a rank's sequence");
    } else {
      b.Note(
          "optimization.chunk_loss_size works only with training.stage pt (trainer.py): "
          "not applied");
    }
  }
  ReadModel(r, file_name, b, presets);
  r.ReportUnused(IgnoredReason);
}

}  // namespace

void ImportFsdp2Launch(const InputFile& file, const bash::Script& script,
                       const std::vector<InputFile>& all, Builder& b, const Presets& presets,
                       std::vector<Error>& fatal) {
  ArgValues values;
  // The YAML is the first argument (arguments.py _load_yaml_if_provided reads argv[1]).
  std::size_t first = 0;
  if (!script.args.empty()) {
    const std::string& path = script.args.front().text;
    const std::string lower = Lower(path);
    if (EndsWith(lower, ".yaml") || EndsWith(lower, ".yml")) {
      first = 1;
      const InputFile* yaml = nullptr;
      for (const InputFile& f : all)
        if (BaseName(f.name) == BaseName(path)) yaml = &f;
      if (yaml == nullptr) {
        b.Wants(path);
        b.Problem(file.name + " runs train_fsdp2.py with " + path +
                  ", which was not given: only the command line's settings are read (give the "
                  "YAML with the script)");
      } else {
        b.UseFile(yaml->name);
        Result<YamlDocument> doc = ReadYamlFile(*yaml);
        if (!doc.ok()) {  // the job's own settings are unreadable: nothing is imported
          fatal.insert(fatal.end(), doc.errors().begin(), doc.errors().end());
          return;
        }
        AddYaml(*yaml, doc.value(), values, b);
      }
    }
  }
  AddCommandLineArgs(script.args, first, values);
  Source world_source;
  const long long world = LaunchWorldSize(file, script, world_source);
  Apply(values, world, world_source, file.name, b, presets);
}

void ImportFsdp2Yaml(const InputFile& file, Builder& b, const Presets& presets,
                     std::vector<Error>& fatal) {
  Result<YamlDocument> doc = ReadYamlFile(file);
  if (!doc.ok()) {
    fatal.insert(fatal.end(), doc.errors().begin(), doc.errors().end());
    return;
  }
  const json& root = doc.value().value;
  bool sections = root.is_object();
  if (sections) {
    sections = false;
    for (const char* s : {"parallel", "training"}) sections = sections || root.contains(s);
  }
  if (!sections) {
    fatal.push_back({file.name,
                     "a YAML file trainmem does not read: it reads MindSpeed-LLM's FSDP2 jobs "
                     "(train_fsdp2.py: model, data, parallel and training sections), Hugging "
                     "Face Trainer arguments (LLaMA-Factory's and TRL's flat YAML, axolotl's) and "
                     "accelerate configs"});
    return;
  }
  ArgValues values;
  AddYaml(file, doc.value(), values, b);
  Apply(values, 0, {}, file.name, b, presets);
}

}  // namespace trainmem::import_detail
