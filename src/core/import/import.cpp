// ImportFiles: classify each file, run the importer for its kind, then fill what no file states
// (world size, device) with stated assumptions and check the result as any config is checked.
#include "core/import/import.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/config/config_detail.h"
#include "core/import/import_detail.h"
#include "core/input_limits.h"

namespace trainmem {
namespace {

using import_detail::Builder;
using import_detail::json;
using import_detail::Source;

// Job files nest deeper than the model and config JSON the page takes (kMaxJsonDepth): a
// DeepSpeed or TrainingArguments JSON with nested sections is still far below this.
constexpr int kMaxImportJsonDepth = 200;

}  // namespace

Result<json> import_detail::ParseJsonInput(const InputFile& f) {
  if (JsonNestingDepth(f.text, kMaxImportJsonDepth) > kMaxImportJsonDepth)
    return Result<json>::Failure(f.name, "nested more than " + std::to_string(kMaxImportJsonDepth) +
                                             " levels deep; not read");
  try {
    return Result<json>::Success(json::parse(f.text));
  } catch (const json::parse_error& e) {
    // Python's json.dumps writes NaN / Infinity for non-finite floats (NemotronH's
    // time_step_limit): read as null.
    if (const std::optional<std::string> rewritten = WithoutPythonFloats(f.text)) {
      json lenient = json::parse(*rewritten, nullptr, false);
      if (!lenient.is_discarded()) return Result<json>::Success(std::move(lenient));
    }
    const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
    return Result<json>::Failure(f.name + ":" + std::to_string(import_detail::LineOf(f.text, at)),
                                 "not valid JSON (" + std::string(e.what()).substr(0, 160) + ")");
  } catch (const json::exception& e) {
    // A number past double's range (1e400) is valid JSON text that nlohmann refuses with
    // out_of_range, not parse_error, and without a position (found by fuzz_import_toml).
    return Result<json>::Failure(f.name,
                                 "not read as JSON (" + std::string(e.what()).substr(0, 160) + ")");
  }
}

namespace {

bool IsLaunchScript(const InputFile& f) {
  return f.text.find(".py") != std::string::npos &&
         (f.text.find("torchrun") != std::string::npos ||
          f.text.find("torch.distributed") != std::string::npos ||
          f.text.find("pretrain") != std::string::npos ||
          f.text.find("python") != std::string::npos ||
          f.text.find("deepspeed") != std::string::npos);
}

long long JsonInt(const json& config, const char* section, const char* key, long long fallback) {
  if (!config.contains(section) || !config[section].is_object()) return fallback;
  const json& v = config[section].value(key, json(fallback));
  return v.is_number_integer() ? v.get<long long>() : fallback;
}

// The smallest world size the parallel degrees allow (valid, not necessarily fitting in memory),
// trying multiples of the fixed degrees.
long long ConsistentWorldSize(const json& config, const Presets& presets) {
  const long long shard = JsonInt(config, "parallelism", "data_parallel_shard_degree", -1);
  long long base = JsonInt(config, "parallelism", "data_parallel_replicate_degree", 1) *
                   JsonInt(config, "parallelism", "tensor_parallel_degree", 1) *
                   JsonInt(config, "parallelism", "pipeline_parallel_degree", 1) *
                   JsonInt(config, "parallelism", "context_parallel_degree", 1) *
                   (shard > 0 ? shard : 1);
  if (base < 1 || base > kMaxWorldSize) base = 1;
  for (long long k = 1; k <= 256 && base * k <= kMaxWorldSize; ++k) {
    json trial = config;
    trial["world_size"] = base * k;
    if (ConfigFromJson(trial, presets).ok()) return base * k;
  }
  // No world makes the config valid (its model is not resolved, say): at least give expert
  // parallelism the ranks it borrows, dp_shard·cp (and tp when etp = 1), as torchtitan does.
  const long long ep = JsonInt(config, "parallelism", "expert_parallel_degree", 1);
  const long long etp = JsonInt(config, "parallelism", "expert_tensor_parallel_degree", 1);
  if (shard <= 0 && ep > 1 && ep <= kMaxWorldSize) {
    const long long pool =
        JsonInt(config, "parallelism", "context_parallel_degree", 1) *
        (etp == 1 ? JsonInt(config, "parallelism", "tensor_parallel_degree", 1) : 1);
    if (pool >= 1 && pool <= kMaxWorldSize) {
      const long long dp_shard = ep / std::gcd(ep, pool);
      if (base <= kMaxWorldSize / dp_shard) return base * dp_shard;
    }
  }
  return base;
}

bool MentionsLayout(const std::vector<Error>& errors) {
  for (const Error& e : errors)
    if (e.path.rfind("parallelism", 0) == 0 || e.path == "world_size") return true;
  return false;
}

void FillAssumptions(Builder& b, const std::vector<InputFile>& files, const Presets& presets) {
  if (!b.Has("framework")) b.Set("framework", "torchtitan", {"", 0, "(default)"});
  const std::string framework = b.Get("framework")->get<std::string>();
  if (!b.Has("device")) {
    std::string names, device, guessed, commented;
    bool npu = framework == "torchtitan-npu";
    for (const InputFile& f : files) {
      names += " " + f.name;
      npu = npu || f.text.find("NPUS_PER_NODE") != std::string::npos ||
            f.text.find("torch_npu") != std::string::npos ||
            f.text.find("ASCEND") != std::string::npos || f.text.find("HCCL_") != std::string::npos;
      // A Python registry's comments were read recipe by recipe (torchtitan_import.cpp): a
      // comment in another recipe does not name this job's accelerator.
      const import_detail::CommentHints h = import_detail::EndsWith(f.name, ".py")
                                                ? import_detail::CommentHints{}
                                                : import_detail::HintsFromComments(f.text, '#');
      if (commented.empty()) commented = h.device;
      if (guessed.empty()) guessed = h.guessed_device;
    }
    for (const std::string& token : {std::string("_a3"), std::string("_a2")}) {
      const std::string lower = import_detail::Lower(names);
      const std::size_t at = lower.find(token);
      if (device.empty() && at != std::string::npos &&
          (at + 3 >= lower.size() || !std::isalnum(static_cast<unsigned char>(lower[at + 3]))))
        device = token == "_a3" ? "ascend-910c" : "ascend-910b";
    }
    // A file name says what the job runs on (MindSpeed-LLM's "…_A3.yaml"); a comment says where
    // the file was written for (an example's "# 4 * A100"): the assumption to confirm.
    if (!device.empty() && presets.FindDevice(device) != nullptr) {
      b.Set("device", device, {"", 0, "named in the file name"});
    } else if (!commented.empty() && presets.FindDevice(commented) != nullptr) {
      b.Missing("device", "the files do not name the accelerator; a comment names it", commented,
                true);
    } else {
      const bool guess = !guessed.empty() && presets.FindDevice(guessed) != nullptr;
      // torchtitan-npu counts an Atlas A3 job in dies ("…_128die", flavor "671B_debug_16die"):
      // each 910C package shows its two dies as devices. Only the A3 has dies to count.
      bool dies = false;
      for (const InputFile& f : files)
        for (const std::string* text : {&f.name, &f.text})
          for (std::size_t at = text->find("die"); !dies && at != std::string::npos;
               at = text->find("die", at + 1))
            dies = at > 0 && std::isdigit(static_cast<unsigned char>((*text)[at - 1])) &&
                   (at + 3 >= text->size() ||
                    !std::isalpha(static_cast<unsigned char>((*text)[at + 3])) ||
                    (*text)[at + 3] == 's');
      const bool a3 = !guess && dies && presets.FindDevice("ascend-910c") != nullptr;
      const std::string assumed = guess ? guessed
                                  : a3  ? "ascend-910c"
                                  : npu ? "ascend-910b"
                                        : kDefaultDeviceId;
      b.Missing("device",
                guess ? "a comment guesses at the accelerator, the files do not name it; pick it"
                : a3  ? "the files count devices in dies, as on an Atlas A3 (910C); pick it"
                      : "the files do not name the accelerator; pick it",
                assumed);
    }
  }
  if (!b.Has("world_size")) {
    // Names often carry the count: "…_128die", "pretrain_…_16p.sh", "llama3_64gpu".
    std::vector<std::string> names;
    for (const InputFile& f : files) names.push_back(import_detail::BaseName(f.name));
    if (!b.report().function.empty()) names.push_back(b.report().function);
    for (const std::string& name : names) {
      const long long n = import_detail::WorldSizeFromName(name);
      if (n > 0) {
        b.Set("world_size", n, {"", 0, "the name '" + name + "'"});
        break;
      }
    }
  }
  if (!b.Has("world_size")) {
    const long long w = ConsistentWorldSize(b.config, presets);
    b.Missing("world_size",
              "the files do not state the number of devices (torchrun --nproc_per_node × "
              "--nnodes); the smallest number of devices the parallel degrees allow is assumed",
              w);
  }
}

// A comment on the line a value was read from that names a different number for the same
// thing ("tensor_parallel_degree = 8  # TP 4", "seq_len = 4096  # 8k context") is named as an
// inconsistency: the value is used, the comment is not trusted.
void CheckComments(const std::vector<InputFile>& files, Builder& b) {
  static const std::pair<const char*, std::vector<const char*>> kWords[] = {
      {"parallelism.tensor_parallel_degree", {"tp", "tensor"}},
      {"parallelism.pipeline_parallel_degree", {"pp", "pipeline"}},
      {"parallelism.context_parallel_degree", {"cp", "context parallel"}},
      {"parallelism.expert_parallel_degree", {"ep", "expert"}},
      {"training.local_batch_size", {"batch", "mbs"}},
      {"training.seq_len", {"seq", "sequence", "context", "tokens"}},
  };
  for (const ImportRead& r : b.report().read) {
    if (!r.value.is_number_integer() || r.line <= 0) continue;
    const std::vector<const char*>* words = nullptr;
    for (const auto& [key, w] : kWords)
      if (r.key == key) words = &w;
    if (words == nullptr) continue;
    for (const InputFile& f : files) {
      if (f.name != r.file) continue;
      std::size_t start = 0;
      for (int l = 1; l < r.line && start != std::string::npos; ++l) {
        start = f.text.find('\n', start);
        if (start != std::string::npos) ++start;
      }
      if (start == std::string::npos) break;
      const std::size_t end = f.text.find('\n', start);
      const std::string row =
          f.text.substr(start, end == std::string::npos ? std::string::npos : end - start);
      const std::size_t hash = row.find('#');
      if (hash == std::string::npos) break;
      const std::string comment = import_detail::Lower(row.substr(hash + 1));
      bool named = false;
      for (const char* w : *words) named = named || comment.find(w) != std::string::npos;
      if (!named) break;
      // The comment's one number (a 'k' suffix multiplies by 1024).
      std::vector<long long> numbers;
      for (std::size_t i = 0; i < comment.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(comment[i])) ||
            (i > 0 && std::isalnum(static_cast<unsigned char>(comment[i - 1]))))
          continue;
        std::size_t j = i;
        while (j < comment.size() && std::isdigit(static_cast<unsigned char>(comment[j]))) ++j;
        long long n = std::atoll(comment.substr(i, std::min<std::size_t>(j - i, 12)).c_str());
        if (j < comment.size() && comment[j] == 'k') n *= 1024;
        numbers.push_back(n);
        i = j;
      }
      const long long value = r.value.get<long long>();
      if (numbers.size() == 1 && numbers[0] != value && numbers[0] * 1000 / 1024 != value)
        b.Problem(r.file + ":" + std::to_string(r.line) + ": the comment says " +
                  std::to_string(numbers[0]) + " but " + r.key + " is " + std::to_string(value) +
                  "; the value is used");
      break;
    }
  }
}

void Validate(ImportResult& result, Builder& b, const Presets& presets) {
  Result<Config> parsed = ConfigFromJson(result.config, presets);
  if (!parsed.ok() && MentionsLayout(parsed.errors()) && result.config.contains("world_size") &&
      !b.keep_world_size) {
    const long long stated = result.config["world_size"].is_number_integer()
                                 ? result.config["world_size"].get<long long>()
                                 : 0;
    const long long w = ConsistentWorldSize(result.config, presets);
    json trial = result.config;
    trial["world_size"] = w;
    if (w != stated && ConfigFromJson(trial, presets).ok()) {
      std::string why;
      for (const Error& e : parsed.errors()) why += (why.empty() ? "" : "; ") + FormatError(e);
      b.Problem("the layout does not fit the stated world size " + std::to_string(stated) + " (" +
                why + "); estimated with " + std::to_string(w) + " devices");
      b.config["world_size"] = w;
      b.report().missing.push_back({"world_size", "the stated layout and world size disagree", w});
      result.config = b.config;
      parsed = ConfigFromJson(result.config, presets);
    }
  }
  result.config_valid = parsed.ok();
  if (!parsed.ok()) {
    result.config_errors = parsed.errors();
    for (const Error& e : parsed.errors()) b.Problem(kConfigProblemPrefix + FormatError(e));
  }
}

}  // namespace

namespace {

// Files may hold any bytes, and the report quotes them (a flag as written, a key, a line cut to
// a width that may split a character): every string leaving the import is made UTF-8, so the
// page's mirror and `trainmem import --json` can always dump it (found by the import fuzzers).
void MakeUtf8(std::string& s) { s = detail::SanitizeUtf8(s); }
void MakeUtf8(ImportResult& r) {
  detail::SanitizeJsonStrings(r.config);
  ImportReport& report = r.report;
  for (ImportRead& x : report.read) {
    MakeUtf8(x.key);
    detail::SanitizeJsonStrings(x.value);
    MakeUtf8(x.source);
    MakeUtf8(x.file);
  }
  for (ImportIgnored& x : report.ignored) {
    MakeUtf8(x.key);
    MakeUtf8(x.file);
    MakeUtf8(x.reason);
  }
  for (ImportMissing& x : report.missing) {
    MakeUtf8(x.key);
    MakeUtf8(x.why);
    detail::SanitizeJsonStrings(x.assumed);
  }
  for (std::vector<std::string>* list :
       {&report.problems, &report.notes, &report.functions, &report.wanted_files}) {
    for (std::string& s : *list) MakeUtf8(s);
  }
  MakeUtf8(report.function);
  for (Error& e : r.config_errors) {
    MakeUtf8(e.path);
    MakeUtf8(e.message);
  }
}

Result<ImportResult> Failed(std::vector<Error> errors) {
  for (Error& e : errors) {
    MakeUtf8(e.path);
    MakeUtf8(e.message);
  }
  return Result<ImportResult>::Failure(std::move(errors));
}

}  // namespace

Result<ImportResult> ImportFiles(const std::vector<InputFile>& files, const ImportOptions& options,
                                 const Presets& presets) {
  ImportResult result;
  Builder b(result.report);
  std::vector<Error> fatal;
  std::vector<const InputFile*> python, scripts, hf, yaml, trainer_yaml, torchtune_yaml, bridge;
  std::vector<std::pair<const InputFile*, InputKind>> json_jobs;
  const InputFile* toml = nullptr;
  for (const InputFile& f : files) {
    if (f.text.size() > kMaxImportBytes) {
      fatal.push_back({f.name, "too large (" + std::to_string(f.text.size() >> 20) +
                                   " MiB; files up to " + std::to_string(kMaxImportBytes >> 20) +
                                   " MiB are read)"});
      continue;
    }
    const InputKind kind = DetectInputKind(f.name, f.text);
    result.report.kinds.push_back(kind);
    switch (kind) {
      case InputKind::kTorchtitanPython:
        python.push_back(&f);
        break;
      case InputKind::kMegatronScript:
        scripts.push_back(&f);
        break;
      case InputKind::kTorchtitanToml:
        toml = &f;
        break;
      case InputKind::kHfConfig:
        hf.push_back(&f);
        break;
      case InputKind::kFsdp2Yaml:
        yaml.push_back(&f);
        break;
      case InputKind::kHfTrainerYaml:
      case InputKind::kHfTrainerJson:
        trainer_yaml.push_back(&f);
        break;
      case InputKind::kTorchtuneYaml:
        torchtune_yaml.push_back(&f);
        break;
      case InputKind::kMegatronBridgeYaml:
        bridge.push_back(&f);
        break;
      case InputKind::kTrainmemConfig:
      case InputKind::kTorchtitanJson:
      case InputKind::kDeepspeedJson:
        json_jobs.emplace_back(&f, kind);
        break;
      case InputKind::kTrainingLog:
      case InputKind::kMemoryProfile:
        result.measurements.push_back(f);
        break;
      case InputKind::kUnknown:
        fatal.push_back(
            {f.name,
             "not a file trainmem reads (expected a torchtitan TOML or Python "
             "registry, a Megatron/MindSpeed launch script, a DeepSpeed JSON, "
             "a Hugging Face Trainer or ms-swift launch script, a LLaMA-Factory / TRL / "
             "accelerate YAML, a MindSpeed-LLM FSDP2 YAML, a torchtune recipe "
             "config, a Megatron-Bridge run_config.yaml, a config.json or a trainmem "
             "config)"});
        break;
    }
  }
  if (!fatal.empty()) return Failed(std::move(fatal));
  const bool has_job = !python.empty() || !scripts.empty() || toml || !json_jobs.empty() ||
                       !yaml.empty() || !trainer_yaml.empty() || !torchtune_yaml.empty() ||
                       !bridge.empty();
  if (!has_job && hf.empty()) {
    if (!result.measurements.empty()) return Result<ImportResult>::Success(std::move(result));
    return Result<ImportResult>::Failure("", "no file given");
  }
  // torchtune: the recipe config; a script given beside it that runs `tune run` is read there.
  for (const InputFile* f : torchtune_yaml)
    import_detail::ImportTorchtuneYaml(*f, files, b, presets, fatal);
  if (!torchtune_yaml.empty()) {
    std::vector<const InputFile*> unread;
    for (const InputFile* s : scripts)
      if (!b.Used(s->name)) unread.push_back(s);
    scripts = unread;
  }
  // torchtitan launched from a shell (run_train.sh, -m torchtitan.train): the TOML or registry
  // recipe it names is the job, and its --section.key overrides apply on top.
  for (const InputFile* s : scripts) {
    // Only a script that names torchtitan's launcher is read here (ImportMegatronScript reads
    // the others).
    if (s->text.find("run_train.sh") == std::string::npos &&
        s->text.find("torchtitan") == std::string::npos &&
        s->text.find("--job.config_file") == std::string::npos)
      continue;
    const bash::Script script = bash::ReadScript(*s, files);
    if (!import_detail::IsTorchtitanLaunch(script)) continue;
    import_detail::ImportTorchtitanLaunch(*s, script, toml, python, options, b, presets, fatal);
    scripts.clear();
    toml = nullptr;
    python.clear();
    break;
  }
  // Megatron-Bridge's resolved config is a whole job: a launch script given beside it (torchrun
  // of a recipe script) adds nothing to it. An override YAML is merged by the launch that names
  // it (--config-file), and read alone without one.
  std::vector<const InputFile*> bridge_overrides;
  const InputFile* bridge_dump = nullptr;
  for (const InputFile* f : bridge) {
    if (!import_detail::IsMegatronBridgeYamlText(f->text)) {
      bridge_overrides.push_back(f);
    } else if (bridge_dump == nullptr) {
      bridge_dump = f;
      import_detail::ImportMegatronBridgeYaml(*f, b, presets, fatal);
    } else {
      b.Problem(f->name + ": not read: " + bridge_dump->name + " is the job");
    }
  }
  if (bridge_dump != nullptr) {
    for (const InputFile* s : scripts)
      b.Problem(s->name + ": not read: the Megatron-Bridge config " + bridge_dump->name +
                " is the job");
    for (const InputFile* f : bridge_overrides)
      b.Problem(f->name + ": not read: the resolved config " + bridge_dump->name +
                " already holds what it overrides");
    scripts.clear();
    bridge_overrides.clear();
  }
  if (toml) import_detail::ImportTorchtitanToml(*toml, b, presets, fatal);
  if (!python.empty()) import_detail::ImportTorchtitanPython(python, options, b, presets, fatal);
  if (!scripts.empty()) {
    const InputFile* main = scripts.front();
    for (const InputFile* s : scripts)
      if (IsLaunchScript(*s)) {
        main = s;
        break;
      }
    import_detail::ImportMegatronScript(*main, files, b, presets, fatal);
  }
  for (const InputFile* f : bridge_overrides) {
    if (scripts.empty())
      import_detail::ImportMegatronBridgeYaml(*f, b, presets, fatal);
    else if (!b.Used(f->name))
      b.Problem(f->name + ": not read: the launch script does not merge it (--config-file)");
  }
  // A YAML alone is the job; beside the script that launches train_fsdp2.py it was read there,
  // and one the script does not name is said to be left out.
  for (const InputFile* f : yaml) {
    if (scripts.empty()) {
      import_detail::ImportFsdp2Yaml(*f, b, presets, fatal);
    } else if (!b.Used(f->name)) {
      b.Problem(f->name +
                ": not read: the launch script does not run train_fsdp2.py with this YAML");
    }
  }
  // LLaMA-Factory's YAML (+ the DeepSpeed JSON it names) or an accelerate config, when no
  // launch script read them.
  if (scripts.empty()) {
    for (const InputFile* f : trainer_yaml)
      if (!b.Used(f->name)) import_detail::ImportHfTrainerYaml(*f, files, b, presets, fatal);
  } else {
    for (const InputFile* f : trainer_yaml)
      if (!b.Used(f->name))
        b.Problem(f->name +
                  ": not read: the launch script does not run the Hugging Face "
                  "Trainer with this YAML");
  }
  for (const auto& [f, kind] : json_jobs) {
    if (b.Used(f->name)) continue;  // the DeepSpeed JSON a Trainer job named: read there
    Result<json> parsed = import_detail::ParseJsonInput(*f);
    if (!parsed.ok()) {
      fatal.insert(fatal.end(), parsed.errors().begin(), parsed.errors().end());
      continue;
    }
    if (!parsed.value().is_object()) {
      fatal.push_back({f->name, "expected a JSON object"});
      continue;
    }
    if (kind == InputKind::kDeepspeedJson) {
      import_detail::ImportDeepspeedJson(*f, parsed.value(), b);
    } else if (kind == InputKind::kTorchtitanJson) {
      import_detail::ImportTorchtitanJson(*f, parsed.value(), b, presets);
    } else {
      for (const auto& [key, value] : parsed.value().items()) b.Set(key, value, {f->name, 0, key});
    }
  }
  for (const InputFile* f : hf) {
    Result<json> parsed = import_detail::ParseJsonInput(*f);
    if (!parsed.ok()) {
      fatal.insert(fatal.end(), parsed.errors().begin(), parsed.errors().end());
      continue;
    }
    if (b.Has("model")) b.Note(f->name + " replaces the model the other files describe");
    // A config.json whose architecture is exactly one preset's is that preset: its name on the
    // page and a short share link (model=qwen3-30b-a3b), with the same estimate. Where several
    // presets share it (Llama 3.1 8B and DeepSeek-R1-Distill-Llama-8B), the file names none.
    std::string same_as;
    int matches = 0;
    if (const Result<ModelArch> arch = ParseModelArch(parsed.value(), "model"); arch.ok()) {
      const json written = ModelArchToJson(arch.value());
      for (const auto& [id, preset] : presets.models)
        if (ModelArchToJson(preset.arch) == written) {
          same_as = id;
          ++matches;
        }
    }
    if (matches != 1) same_as.clear();
    if (!same_as.empty()) {
      b.Set("model", same_as,
            {f->name, 1, "config.json (the architecture of preset " + same_as + ")"});
    } else {
      b.Set("model", parsed.value(), {f->name, 1, "config.json"});
    }
  }
  if (!fatal.empty()) return Failed(std::move(fatal));
  if (!b.Has("model") && !has_job) {
    b.Note("only a model was given: the training settings are trainmem's defaults");
  }
  bool model_missing = !b.Has("model");
  for (const ImportMissing& m : result.report.missing) model_missing |= m.key == "model";
  if (!model_missing && b.Get("model")->is_null()) b.Erase("model");
  FillAssumptions(b, files, presets);
  CheckComments(files, b);
  result.config = b.config;
  result.config["version"] = 1;
  b.config = result.config;
  Validate(result, b, presets);
  result.config = b.config;
  MakeUtf8(result);
  return Result<ImportResult>::Success(std::move(result));
}

// --- Report -----------------------------------------------------------------------------------

namespace {

std::string Where(const std::string& file, int line) {
  if (file.empty()) return "";
  return file + (line > 0 ? ":" + std::to_string(line) : "");
}

}  // namespace

std::string ImportReportToText(const ImportReport& r) {
  std::string out;
  if (!r.function.empty()) {
    out += "recipe: " + r.function;
    if (r.functions.size() > 1) {
      out += " (found:";
      for (const std::string& f : r.functions) out += " " + f;
      out += ")";
    }
    out += "\n";
  }
  out += "read (" + std::to_string(r.read.size()) + "):\n";
  for (const ImportRead& x : r.read) {
    out += "  " + x.key + " = " + x.value.dump();
    if (!x.source.empty()) out += "  <- " + x.source;
    const std::string w = Where(x.file, x.line);
    if (!w.empty()) out += "  (" + w + ")";
    out += "\n";
  }
  if (!r.missing.empty()) {
    out += "missing (" + std::to_string(r.missing.size()) + "):\n";
    for (const ImportMissing& m : r.missing)
      out += "  " + m.key + ": " + m.why +
             (m.assumed.is_null() ? "" : " [assumed " + m.assumed.dump() + "]") + "\n";
  }
  if (!r.problems.empty()) {
    out += "problems (" + std::to_string(r.problems.size()) + "):\n";
    for (const std::string& p : r.problems) out += "  " + p + "\n";
  }
  if (!r.notes.empty()) {
    out += "notes (" + std::to_string(r.notes.size()) + "):\n";
    for (const std::string& n : r.notes) out += "  " + n + "\n";
  }
  out += "ignored (" + std::to_string(r.ignored.size()) + "):\n";
  for (const ImportIgnored& i : r.ignored) {
    out += "  " + i.key;
    const std::string w = Where(i.file, i.line);
    if (!w.empty()) out += " (" + w + ")";
    out += ": " + i.reason + "\n";
  }
  return out;
}

json ImportReportToJson(const ImportReport& r) {
  json out = {
      {"read", json::array()},  {"ignored", json::array()}, {"missing", json::array()},
      {"problems", r.problems}, {"notes", r.notes},         {"functions", r.functions},
      {"function", r.function}, {"kinds", json::array()},   {"wanted_files", r.wanted_files}};
  for (InputKind k : r.kinds) out["kinds"].push_back(InputKindName(k));
  for (const ImportRead& x : r.read)
    out["read"].push_back({{"key", x.key},
                           {"value", x.value},
                           {"source", x.source},
                           {"file", x.file},
                           {"line", x.line}});
  for (const ImportIgnored& i : r.ignored)
    out["ignored"].push_back(
        {{"key", i.key}, {"file", i.file}, {"line", i.line}, {"reason", i.reason}});
  for (const ImportMissing& m : r.missing)
    out["missing"].push_back({{"key", m.key}, {"why", m.why}, {"assumed", m.assumed}});
  return out;
}

}  // namespace trainmem
