// Megatron-LM / MindSpeed-LLM launch arguments → schema v1. Flag meanings and defaults from
// Megatron-LM megatron/training/arguments.py (ffn_hidden_size default, add_bias_linear,
// position_embedding_type 'learned_absolute', make_vocab_size_divisible_by 128,
// untie_embeddings_and_output_weights) and megatron/training/vocab_utils.py (the vocabulary is
// padded to a multiple of make_vocab_size_divisible_by × TP); MindSpeed-LLM's own flags
// (--n-shared-experts, --swap-optimizer, --reuse-fp32-param, --swap-attention, --noop-layers,
// --num-layer-list) from its examples/mcore/*/pretrain_*.sh.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>

#include "core/config/config_detail.h"
#include "core/import/bash_reader.h"
#include "core/import/import_detail.h"
#include "core/model/model_detail.h"

namespace trainmem::import_detail {
namespace {

// A MindSpeed (Ascend NPU) launch script: its variables and environment say so.
bool NpuScript(const std::string& text) {
  return text.find("NPUS_PER_NODE") != std::string::npos ||
         text.find("ASCEND") != std::string::npos || text.find("mindspeed") != std::string::npos;
}

struct Arg {
  std::vector<std::string> values;
  int line = 0;
  std::string file;
  bool used = false;
};

class Args {
 public:
  // `files` locate each flag's line: the first line of a given file that spells it.
  Args(const std::vector<bash::Word>& given, const std::vector<InputFile>& files) {
    std::vector<bash::Word> words;
    for (const bash::Word& w : given) {  // "--fp8-format hybrid" quoted as one array element
      if (w.text.rfind("--", 0) == 0 && w.text.find(' ') != std::string::npos) {
        std::string cur;
        for (char c : w.text + " ") {
          if (c == ' ') {
            if (!cur.empty()) words.push_back({cur, w.line, w.file});
            cur.clear();
          } else {
            cur += c;
          }
        }
      } else {
        words.push_back(w);
      }
    }
    for (bash::Word& w : words) {
      if (w.text.rfind("--", 0) != 0) continue;
      const std::string flag = w.text.substr(0, w.text.find('='));
      for (const InputFile& f : files) {
        std::size_t at = f.text.find(flag);
        while (at != std::string::npos) {
          const std::size_t end = at + flag.size();
          if (end >= f.text.size() || !(std::isalnum(static_cast<unsigned char>(f.text[end])) ||
                                        f.text[end] == '-' || f.text[end] == '_'))
            break;
          at = f.text.find(flag, end);
        }
        if (at != std::string::npos) {
          w.line = LineOf(f.text, at);
          w.file = f.name;
          break;
        }
      }
    }
    for (std::size_t i = 0; i < words.size(); ++i) {
      std::string flag = words[i].text;
      if (flag.rfind("--", 0) != 0) continue;
      std::vector<std::string> values;
      const std::size_t eq = flag.find('=');
      if (eq != std::string::npos) {
        values.push_back(flag.substr(eq + 1));
        flag = flag.substr(0, eq);
      }
      for (std::size_t j = i + 1; j < words.size() && words[j].text.rfind("--", 0) != 0; ++j)
        values.push_back(words[j].text);
      Arg& a = args_[flag];
      a.values = values;  // a later flag wins, as argparse does
      a.line = words[i].line;
      a.file = words[i].file;
      order_.push_back(flag);
    }
  }

  bool Has(const std::string& flag) const { return args_.count(flag) != 0; }
  Arg* Get(const std::string& flag) {
    auto it = args_.find(flag);
    if (it == args_.end()) return nullptr;
    it->second.used = true;
    return &it->second;
  }
  std::string Value(const std::string& flag) {
    Arg* a = Get(flag);
    return a && !a->values.empty() ? a->values.front() : "";
  }
  std::optional<long long> Int(const std::string& flag) { return ParseInteger(Value(flag)); }
  // The value without marking the flag read (a flag that only decides which model is built).
  std::string Peek(const std::string& flag) const {
    auto it = args_.find(flag);
    return it != args_.end() && !it->second.values.empty() ? it->second.values.front() : "";
  }
  Source At(const std::string& flag) const {
    auto it = args_.find(flag);
    if (it == args_.end()) return {"", 0, flag};
    std::string text = flag;
    for (const std::string& v : it->second.values) text += " " + v;
    return {it->second.file, it->second.line, text};
  }
  std::vector<std::string> Unused() const {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const std::string& f : order_)
      if (!args_.at(f).used && seen.insert(f).second) out.push_back(f);
    return out;
  }

 private:
  std::map<std::string, Arg> args_;
  std::vector<std::string> order_;
};

// --moe-layer-freq: an integer k (every k-th layer is MoE) or a Python list expression such as
// "[0]*3+[1]*58" / "([0,1]*24)". Returns one flag per layer, or empty when unreadable.
std::vector<bool> MoeLayerPattern(const std::string& text, long long layers) {
  std::vector<bool> out;
  if (const std::optional<long long> k = ParseInteger(text)) {
    if (*k < 1) return out;
    for (long long i = 0; i < layers; ++i) out.push_back(i % *k == 0);
    return out;
  }
  // Terms "[a,b,...]*n" joined by '+', optional outer parentheses.
  std::string s;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  std::size_t open = 0;  // outer parentheses, counted rather than copied off one pair at a time
  while (open < s.size() / 2 && s[open] == '(' && s[s.size() - 1 - open] == ')') ++open;
  s = s.substr(open, s.size() - 2 * open);
  std::size_t p = 0;
  while (p < s.size()) {
    if (s[p] != '[') return {};
    const std::size_t close = s.find(']', p);
    if (close == std::string::npos) return {};
    std::vector<bool> items;
    std::string item;
    for (std::size_t q = p + 1; q <= close; ++q) {
      if (s[q] == ',' || q == close) {
        const std::optional<long long> v = ParseInteger(item);
        if (!v) return {};
        items.push_back(*v != 0);
        item.clear();
      } else {
        item += s[q];
      }
    }
    p = close + 1;
    long long repeat = 1;
    if (p < s.size() && s[p] == '*') {
      std::size_t q = ++p;
      while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) ++q;
      const std::optional<long long> r = ParseInteger(s.substr(p, q - p));
      if (!r || *r < 0 || *r > 100000) return {};
      repeat = *r;
      p = q;
    }
    for (long long r = 0; r < repeat && static_cast<long long>(out.size()) <= 100000; ++r)
      out.insert(out.end(), items.begin(), items.end());
    if (p < s.size() && s[p] == '+')
      ++p;
    else if (p < s.size())
      return {};
  }
  return out;
}

long long WorldFromVariables(const bash::Script& script, Source& src) {
  auto var = [&](std::initializer_list<const char*> names, int& line, std::string& name) {
    for (const char* n : names) {
      // As the launch line saw them (a later `NPROC_PER_NODE=1 swift infer` does not count).
      const auto& vars = script.found_launch ? script.launch_variables : script.variables;
      auto it = vars.find(n);
      if (it == vars.end()) continue;
      if (auto v = ParseInteger(it->second.value)) {
        line = it->second.line;
        name = n;
        return *v;
      }
    }
    return 0LL;
  };
  int l1 = 0, l2 = 0;
  std::string n1, n2;
  const long long per_node =
      var({"GPUS_PER_NODE", "NPUS_PER_NODE", "NPROC_PER_NODE", "GPU_NUM_PER_NODE",
           "NPU_NUM_PER_NODE", "N_GPUS", "NUM_GPUS", "NGPUS", "DEVICES_PER_NODE", "nproc_per_node"},
          l1, n1);
  const long long nodes =
      var({"NNODES", "NUM_NODES", "NODES", "NUM_NODE", "N_NODES", "WORLD_NODES", "nnodes"}, l2, n2);
  if (per_node > 0) {
    src.line = l1;
    src.text = n1 + (nodes > 0 ? " × " + n2 : "");
    return PositiveProduct(per_node, std::max(1LL, nodes));
  }
  int l3 = 0;
  std::string n3;
  const long long world = var({"WORLD_SIZE"}, l3, n3);
  src.line = l3;
  src.text = n3;
  return world;
}

// The words of `text`, split at any of `separators` (empty words dropped).
std::vector<std::string> Words(std::string_view text, std::string_view separators) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : text) {
    if (separators.find(c) != std::string_view::npos) {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(cur);
  return words;
}

// Slurm batch headers: "#SBATCH --nodes=16 --ntasks-per-node=8" (or -N 16, --gpus-per-node=8,
// --gres=gpu:8), one task per device as Megatron's srun launches run. 0 when not stated.
long long WorldFromSbatch(const std::string& text, int& line_out) {
  long long nodes = 0, per_node = 0;
  int line = 0, first = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    ++line;
    const std::string row = Trim(std::string_view(text).substr(start, end - start));
    start = end + 1;
    if (row.rfind("#SBATCH", 0) != 0) continue;
    const std::vector<std::string> words = Words(row.substr(7), " \t");
    for (std::size_t i = 0; i < words.size(); ++i) {
      std::string flag = words[i], value = i + 1 < words.size() ? words[i + 1] : "";
      if (const std::size_t eq = flag.find('='); eq != std::string::npos) {
        value = flag.substr(eq + 1);
        flag = flag.substr(0, eq);
      }
      if (flag == "--gres" && value.rfind("gpu:", 0) == 0) {
        value = value.substr(value.rfind(':') + 1);
        flag = "--gpus-per-node";
      }
      const long long v = ParseInteger(value).value_or(0);
      if (v <= 0) continue;
      if (flag == "--nodes" || flag == "-N") {
        nodes = v;
        if (first == 0) first = line;
      } else if (flag == "--ntasks-per-node" || flag == "--gpus-per-node") {
        per_node = v;
        if (first == 0) first = line;
      }
    }
  }
  line_out = first;
  return PositiveProduct(nodes, per_node);
}

// torchrun / torch.distributed.launch / deepspeed launcher options.
long long WorldFromLauncher(const std::string& launcher) {
  long long per_node = 0, nodes = 0;
  const std::vector<std::string> words = Words(launcher, " ");
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string flag = words[i], value = i + 1 < words.size() ? words[i + 1] : "";
    const std::size_t eq = flag.find('=');
    if (eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag == "--nproc_per_node" || flag == "--nproc-per-node" || flag == "--num_gpus" ||
        flag == "--num-gpus" || flag == "--num_processes" || flag == "--num-processes")
      per_node = ParseInteger(value).value_or(0);
    if (flag == "--nnodes" || flag == "--num_nodes" || flag == "--num-nodes") {
      const std::string first = value.substr(0, value.find(':'));
      nodes = ParseInteger(first).value_or(0);
    }
  }
  return PositiveProduct(per_node, std::max(1LL, nodes));
}

// Megatron's --pipeline-model-parallel-layout (megatron/core/transformer/
// pipeline_parallel_layer_layout.py parse_str_to_list): commas are cosmetic, "(…)*n" then
// "x*n" repeat, "|" ends a virtual stage; E embedding, t decoder layer, m MTP layer, L loss.
// Stage s runs on rank s mod PP. Returns each stage's decoder layers and whether an MTP layer
// sits off the last stage, or nullopt when the string does not parse.
struct LayoutStages {
  std::vector<long long> decoders;
  long long mtp_stage = -1;
};
std::optional<LayoutStages> ParsePipelineLayout(std::string text) {
  std::string plain;
  for (char c : text)
    if (c != ',' && c != ' ' && c != '"' && c != '\'') plain += c;
  // Unroll "(…)*n" (no nesting), then "x*n"; the expansion is bounded.
  constexpr std::size_t kMaxExpanded = 1 << 16;
  auto unroll = [&](bool groups) -> bool {
    for (std::size_t star = plain.find('*'); star != std::string::npos;
         star = plain.find('*', star)) {
      std::size_t end = star + 1;
      while (end < plain.size() && plain[end] >= '0' && plain[end] <= '9') ++end;
      const std::optional<long long> n = ParseInteger(plain.substr(star + 1, end - star - 1));
      std::size_t begin = star;
      std::string unit;
      if (groups) {
        if (star == 0 || plain[star - 1] != ')') {
          ++star;
          continue;
        }
        begin = plain.rfind('(', star - 1);
        if (begin == std::string::npos) return false;
        unit = plain.substr(begin + 1, star - 2 - begin);
      } else {
        if (star == 0) return false;
        begin = star - 1;
        unit = plain.substr(begin, 1);
      }
      if (!n || *n < 0 || unit.size() * static_cast<std::size_t>(*n) > kMaxExpanded) return false;
      std::string repeated;
      for (long long k = 0; k < *n; ++k) repeated += unit;
      plain = plain.substr(0, begin) + repeated + plain.substr(end);
      if (plain.size() > kMaxExpanded) return false;
      star = begin + repeated.size();
    }
    return true;
  };
  if (!unroll(true) || !unroll(false)) return std::nullopt;
  LayoutStages out;
  out.decoders.push_back(0);
  for (char c : plain) {
    if (c == '|') {
      out.decoders.push_back(0);
    } else if (c == 't') {
      ++out.decoders.back();
    } else if (c == 'm') {
      out.mtp_stage = static_cast<long long>(out.decoders.size()) - 1;
    } else if (c != 'E' && c != 'L') {
      return std::nullopt;
    }
  }
  return out;
}

// hybrid_layer_allocation.py pattern_from_ratios (Megatron-LM at d98e8a64): round(n · ratio)
// attention layers spaced evenly between Mamba runs, then round(n · mlp_ratio) Mamba layers
// turned into MLPs, evenly. Python's round() ties to even, as std::nearbyint does by default.
std::string MambaPatternFromRatios(long long num_layers, double attention_ratio, double mlp_ratio) {
  const auto n = static_cast<std::size_t>(num_layers);
  const auto attention =
      static_cast<long long>(std::nearbyint(static_cast<double>(num_layers) * attention_ratio));
  long long mamba = num_layers - attention;
  const double section = static_cast<double>(mamba) / static_cast<double>(attention + 1);
  std::string types(n, 'M');
  double x = section;
  for (std::size_t i = 0; i < n; ++i) {
    if (x < 0.5) {
      types[i] = '*';
      x += section;
    } else {
      x -= 1;
    }
  }
  const auto mlp =
      static_cast<long long>(std::nearbyint(static_cast<double>(num_layers) * mlp_ratio));
  if (mlp > 0) {
    mamba -= mlp;
    const double ratio = static_cast<double>(mamba) / static_cast<double>(mlp);
    x = ratio;
    for (std::size_t i = 0; i < n; ++i) {
      if (types[i] != 'M') continue;
      if (x < 0.5) {
        types[i] = '-';
        x += ratio;
      } else {
        x -= 1;
      }
    }
  }
  return types;
}

// Why a flag the importer did not read is left out, from the words of its name (whole words:
// "--accumulate-allreduce-grads-in-fp32" is not a learning rate, "--mtp-mem-efficient-logits" not
// logging). Only flags whose words say they are hyper-parameters, I/O or logging are called
// harmless; anything else is "not modelled", since an unknown flag may well move memory.
std::string UnusedFlagReason(const std::string& flag) {
  const std::vector<std::string> words = Words(flag, "-_");
  auto has = [&](std::initializer_list<const char*> any) {
    for (const std::string& w : words)
      for (const char* a : any)
        if (w == a) return true;
    return false;
  };
  const bool memory_words =
      has({"offload", "offloading", "recompute", "mem", "memory", "parallel", "sharding", "fsdp",
           "buffer", "cache", "dtype", "fp8", "fp16", "bf16", "fp32", "grads", "grad"});
  if (has({"lora"}))
    return flag == "--lora-target-modules"
               ? "the estimate puts LoRA adapters on every 2-D block weight (adapters are a "
                 "small share of the model)"
               : "LoRA hyper-parameter: does not change device memory";
  if (!memory_words &&
      (has({"lr", "adam", "momentum", "decay", "clip", "warmup", "scale", "hysteresis", "init",
            "std", "seed", "beta1", "beta2", "eps", "epoch", "epochs"})))
    return "optimizer or training hyper-parameter: does not change device memory";
  if (!memory_words &&
      has({"save",        "load",  "ckpt",   "checkpoint", "log",       "logging",  "eval",
           "tensorboard", "wandb", "data",   "dataset",    "tokenizer", "vocab",    "merge",
           "split",       "exit",  "timing", "profile",    "profiler",  "interval", "iters",
           "path",        "dir",   "file",   "timeout",    "ignore"}))
    return "I/O, logging or data setting: does not change device memory";
  if (!memory_words && has({"fusion", "fused"}))
    return "kernel fusion: the memory model assumes Megatron's fused kernels";
  return "not modelled: if it changes device memory, the estimate does not count it";
}

}  // namespace

namespace {

// Megatron-SWIFT trains a multimodal model with its vision tower frozen unless freeze_vit is
// false (megatron_args.py; MegatronSwiftWords writes --freeze-vit true / false).
void SwiftVisionTower(Args& a, const ModelPreset* preset, const json& inline_model, Builder& b) {
  if (!a.Has("--freeze-vit")) return;
  const std::int64_t tower = preset != nullptr ? preset->arch.vision_params
                             : inline_model.is_object()
                                 ? inline_model.value("vision_params", std::int64_t{0})
                                 : 0;
  const bool trained = a.Value("--freeze-vit") == "false";
  if (tower > 0)
    b.Set("training.vision_tower", trained ? "trained" : "frozen", a.At("--freeze-vit"));
}

}  // namespace

long long LaunchWorldSize(const InputFile& file, const bash::Script& script, Source& source) {
  source = {file.name, 0, ""};
  long long world = WorldFromLauncher(script.launcher);
  if (world > 0) {
    source = {script.launch_file, script.launch_line, "launcher: " + script.launcher};
    return world;
  }
  world = WorldFromVariables(script, source);
  source.file = file.name;
  if (world > 0) return world;
  int line = 0;
  world = WorldFromSbatch(file.text, line);
  source = {file.name, line, "#SBATCH --nodes × --ntasks-per-node"};
  return world;
}

std::string UnreadMegatronSettingReason(const std::string& name) { return UnusedFlagReason(name); }

void ImportMegatronScript(const InputFile& file, const std::vector<InputFile>& all, Builder& b,
                          const Presets& presets, std::vector<Error>& fatal) {
  std::vector<InputFile> others;
  for (const InputFile& f : all)
    if (&f != &file) others.push_back(f);
  const bash::Script script = bash::ReadScript(file, others);
  // Megatron-Bridge / NeMo 2: a recipe with Hydra overrides, not Megatron's flags.
  if (IsBridgeLaunch(script, file)) {
    ImportBridgeLaunch(file, script, all, b, presets, fatal);
    return;
  }
  ImportMegatronLaunch(file, script, all, b, presets, fatal);
}

void ImportMegatronLaunch(const InputFile& file, const bash::Script& script,
                          const std::vector<InputFile>& all, Builder& b, const Presets& presets,
                          std::vector<Error>& fatal) {
  for (const std::string& path : script.missing_sources) b.Wants(path);
  if (!script.error.empty()) {
    b.Problem(file.name + ": " + script.error);
    return;
  }
  for (const bash::Note& n : script.notes)
    b.Note(n.file + ":" + std::to_string(n.line) + ": " + n.message);
  // ms-swift: `swift sft|pt|rlhf` runs the Hugging Face Trainer with ms-swift's arguments
  // (hf_trainer_import.cpp ReadSwift); `megatron sft|pt|rlhf` runs Megatron-SWIFT, whose
  // arguments are Megatron-LM's in snake case with ms-swift's defaults (MegatronSwiftWords).
  const bool swift_tool = StartsWith(script.program, "swift ");
  const bool megatron_swift = StartsWith(script.program, "megatron ");
  if (swift_tool || megatron_swift) {
    const std::string command = script.program.substr(script.program.find(' ') + 1);
    if (command != "sft" && command != "pt" && command != "rlhf") {
      fatal.push_back({file.name, "holds no training job: it runs `" + script.program +
                                      "` (ms-swift trains with sft, pt and rlhf)"});
      return;
    }
  }
  if (swift_tool) {
    ImportHfTrainerLaunch(file, script, all, b, presets, fatal);
    SwiftDeviceMap(file, script, all, b);
    return;
  }
  std::vector<bash::Word> words = megatron_swift ? MegatronSwiftWords(script, all, b) : script.args;
  if (!script.found_launch) {
    // No launch line (a model-args file, or a launch through eval): every *ARGS* variable.
    // A launch held in a string (run_cmd="python pretrain_gpt.py ${options}"; srun … sh -c
    // "${run_cmd}") leaves the flags in variables of any name: those holding Megatron flags.
    auto holds_flags = [](const std::string& value) {
      for (const char* flag :
           {"--num-layers", "--hidden-size", "--micro-batch-size", "--tensor-model-parallel-size",
            "--pipeline-model-parallel-size", "--global-batch-size", "--seq-length"})
        if (value.find(flag) != std::string::npos) return true;
      return false;
    };
    for (const auto& [name, v] : script.variables) {
      if (name.find("ARGS") == std::string::npos && name.find("args") == std::string::npos &&
          !holds_flags(v.value))
        continue;
      std::string cur;
      for (char c : v.value + " ") {
        if (std::isspace(static_cast<unsigned char>(c))) {
          if (!cur.empty()) words.push_back({cur, v.line, v.file});
          cur.clear();
        } else {
          cur += c;
        }
      }
    }
    if (!words.empty())
      b.Note(
          "no pretrain_*.py launch line found; read the arguments held in the *ARGS* variables "
          "and the variables that hold Megatron flags");
  }
  std::vector<InputFile> located{file};  // the launch first, then the files it may name
  for (const InputFile& f : all)
    if (&f != &file) located.push_back(f);
  Args a(words, located);
  // A training job states its model or its batch; a script that runs preprocess_data.py or a
  // checkpoint converter states neither, and holds no job to estimate.
  bool trains = false;
  for (const char* flag :
       {"--num-layers", "--hidden-size", "--micro-batch-size", "--global-batch-size",
        "--seq-length", "--train-iters", "--train-samples", "--tensor-model-parallel-size",
        "--pipeline-model-parallel-size"})
    trains = trains || a.Has(flag);
  const std::string program = Lower(BaseName(script.program));
  // MindSpeed-LLM's FSDP2 trainer (train_fsdp2.py, 2026): a YAML config plus --section.key
  // overrides, not Megatron's arguments (fsdp2_import.cpp).
  // Its inference_fsdp2.py takes the same overrides and trains nothing (refused below).
  if (program == "train_fsdp2.py" ||
      (program != "inference_fsdp2.py" && a.Has("--parallel.fsdp_size"))) {
    ImportFsdp2Launch(file, script, all, b, presets, fatal);
    return;
  }
  // The Hugging Face Trainer (DeepSpeed's usual launcher): TrainingArguments, not Megatron's.
  if (!trains && IsHfTrainerLaunch(script, all)) {
    ImportHfTrainerLaunch(file, script, all, b, presets, fatal);
    return;
  }
  // torchtune's `tune run RECIPE --config FILE`: the job is the recipe config it names.
  if (script.launcher.find("tune run") != std::string::npos) {
    fatal.push_back({file.name, "runs the torchtune recipe " + script.program +
                                    ": give the recipe config it names (--config) beside it"});
    return;
  }
  const bool training_program = program.find("train") != std::string::npos ||
                                program.find("tune") != std::string::npos ||
                                program.find("sft") != std::string::npos;
  // Without those arguments, a file it sources may still hold them, unless what it launches
  // is plainly not training (preprocess_data.py, convert_ckpt.py).
  if (!trains && !b.training_job &&
      (script.missing_sources.empty() || (!program.empty() && !training_program))) {
    fatal.push_back(
        {file.name,
         "holds no training job: " +
             (script.program.empty() ? std::string("no launch line found (a Python program with "
                                                   "its arguments)")
                                     : "it runs " + script.program) +
             " with no model, batch or layout arguments (Megatron's --num-layers, "
             "--micro-batch-size, --tensor-model-parallel-size, …, or the Hugging Face "
             "Trainer's --per_device_train_batch_size, --deepspeed, …)"});
    return;
  }
  b.Set("framework", "megatron",
        {file.name, script.launch_line,
         script.program.empty() ? "Megatron arguments" : script.program});
  // --- Layout --------------------------------------------------------------------------------
  const long long tp = a.Int("--tensor-model-parallel-size").value_or(1);
  const long long pp = a.Int("--pipeline-model-parallel-size").value_or(1);
  const long long cp = a.Int("--context-parallel-size").value_or(1);
  // --account-for-embedding/loss-in-pipeline-split: the embedding and the loss each take one
  // layer slot in the pipeline split (megatron/core/transformer/transformer_block.py
  // get_num_layers_to_build: the first rank's first virtual stage and the last rank's last one
  // build a layer fewer).
  const long long embedding_slot = a.Has("--account-for-embedding-in-pipeline-split") ? 1 : 0;
  const long long loss_slot = a.Has("--account-for-loss-in-pipeline-split") ? 1 : 0;
  const long long extra_slots = embedding_slot + loss_slot;
  auto set_flag = [&](const char* flag, const char* key) {
    if (!a.Has(flag)) return;
    a.Get(flag);
    b.Set(key, true, a.At(flag));
  };
  auto set_int = [&](const char* flag, const char* key, long long min_value = 1) {
    if (!a.Has(flag)) return;
    const std::optional<long long> v = a.Int(flag);
    if (!v || *v < min_value) {
      b.Ignore(a.At(flag), "not a whole number >= " + std::to_string(min_value));
      return;
    }
    b.Set(key, *v, a.At(flag));
  };
  set_int("--tensor-model-parallel-size", "parallelism.tensor_parallel_degree");
  set_int("--pipeline-model-parallel-size", "parallelism.pipeline_parallel_degree");
  set_int("--context-parallel-size", "parallelism.context_parallel_degree");
  // MindSpeed's CP algorithm: megatron_cp_algo = ring (Ulysses degree 1), ulysses_cp_algo =
  // all-to-all over the whole CP group, hybrid_cp_algo = --ulysses-degree-in-cp inside a ring.
  if (a.Has("--context-parallel-algo") && cp > 1) {
    const std::string algo = Lower(a.Value("--context-parallel-algo"));
    if (algo == "megatron_cp_algo") {
      b.Set("parallelism.ulysses_degree_in_cp", 1, a.At("--context-parallel-algo"));
    } else if (algo == "ulysses_cp_algo") {
      b.Set("parallelism.ulysses_degree_in_cp", cp, a.At("--context-parallel-algo"));
    } else if (algo == "hybrid_cp_algo" && a.Int("--ulysses-degree-in-cp")) {
      b.Set("parallelism.ulysses_degree_in_cp", *a.Int("--ulysses-degree-in-cp"),
            a.At("--ulysses-degree-in-cp"));
    } else {
      b.Ignore(a.At("--context-parallel-algo"),
               "this CP algorithm is estimated as MindSpeed's ring (megatron_cp_algo)");
    }
  }
  set_int("--expert-model-parallel-size", "parallelism.expert_parallel_degree");
  set_int("--expert-tensor-parallel-size", "parallelism.expert_tensor_parallel_degree");
  const bool sp = a.Has("--sequence-parallel");
  a.Get("--sequence-parallel");
  b.Set("parallelism.sequence_parallel", sp,
        sp ? a.At("--sequence-parallel") : Source{file.name, 0, "(no --sequence-parallel)"});
  if (sp && tp == 1)
    b.Problem(
        "--sequence-parallel with tensor parallel size 1: sequence parallelism needs TP > 1 "
        "(Megatron turns it off)");
  const bool dist_opt = a.Has("--use-distributed-optimizer");
  a.Get("--use-distributed-optimizer");
  b.Set("parallelism.zero_stage", dist_opt ? 1 : 0,
        dist_opt ? a.At("--use-distributed-optimizer")
                 : Source{file.name, 0, "(no --use-distributed-optimizer)"});
  b.Set("parallelism.data_parallel_shard_degree", -1, {file.name, 0, "(data parallel: the rest)"});
  // Microbatches per model chunk before the next chunk's turn (interleaved schedule; Megatron's
  // default is PP, arguments.py).
  if (a.Has("--microbatch-group-size-per-virtual-pipeline-stage"))
    set_int("--microbatch-group-size-per-virtual-pipeline-stage",
            "parallelism.microbatch_group_size_per_vp_stage");
  // --pipeline-model-parallel-layout: each virtual stage's layers spelled out (the DeepSeek-V3
  // recipes' "Et*3|(tt|)*29,m|L"); Megatron refuses it beside the other split flags.
  bool layout_set = false;
  bool uneven_virtual = false;  // --decoder-first/last-pipeline-num-layers with virtual stages
  if (a.Has("--pipeline-model-parallel-layout")) {
    const std::optional<LayoutStages> layout =
        ParsePipelineLayout(a.Value("--pipeline-model-parallel-layout"));
    const long long layers = a.Int("--num-layers").value_or(0);
    long long total = 0, widest = 0;
    const long long stages = layout ? static_cast<long long>(layout->decoders.size()) : 0;
    if (layout)
      for (long long d : layout->decoders) {
        total += d;
        widest = std::max(widest, d);
      }
    if (!layout || pp < 1 || stages % pp != 0 || total != layers) {
      b.Ignore(a.At("--pipeline-model-parallel-layout"),
               "does not parse into PP × virtual stages holding the --num-layers decoder "
               "layers; the even split is estimated");
    } else {
      layout_set = true;
      json list = json::array();
      for (long long r = 0; r < pp; ++r) {
        long long n = 0;
        for (long long s = r; s < stages; s += pp)
          n += layout->decoders[static_cast<std::size_t>(s)];
        list.push_back(n);
      }
      const Source src = a.At("--pipeline-model-parallel-layout");
      if (pp > 1) b.Set("parallelism.pipeline_parallel_layer_list", list, src);
      if (stages / pp > 1) {
        b.Set("parallelism.pipeline_parallel_schedule", "Interleaved1F1B", src);
        b.Set("parallelism.pipeline_parallel_layers_per_stage", std::max(1LL, widest), src);
      }
      if (layout->mtp_stage >= 0 && layout->mtp_stage % pp != pp - 1)
        b.Note("the layout puts the MTP layers on pipeline rank " +
               std::to_string(layout->mtp_stage % pp) +
               "; the estimate keeps them on the last rank");
    }
  }
  if (layout_set) {
    a.Get("--num-layers-per-virtual-pipeline-stage");
    a.Get("--num-virtual-stages-per-pipeline-rank");
  } else if (a.Has("--num-layers-per-virtual-pipeline-stage")) {
    set_int("--num-layers-per-virtual-pipeline-stage",
            "parallelism.pipeline_parallel_layers_per_stage");
    b.Set("parallelism.pipeline_parallel_schedule", "Interleaved1F1B",
          a.At("--num-layers-per-virtual-pipeline-stage"));
  } else if (a.Has("--num-virtual-stages-per-pipeline-rank")) {
    a.Get("--account-for-embedding-in-pipeline-split");
    a.Get("--account-for-loss-in-pipeline-split");
    // The other way to ask for the interleaved schedule: the number of model chunks per rank
    // (megatron/training/arguments.py: virtual_pipeline_model_parallel_size =
    // num_virtual_stages_per_pipeline_rank; 1 means no interleaving). Written here as layers
    // per virtual stage, the form the config holds; a split that does not divide is left to
    // the check below.
    // With --account-for-embedding/loss-in-pipeline-split the embedding and the loss each take
    // a layer's slot in the split (the first virtual stage of rank 0, the last of the last
    // rank, build one layer fewer); the per-rank list below says which ranks are short.
    const std::optional<long long> v = a.Int("--num-virtual-stages-per-pipeline-rank");
    const long long layers = a.Int("--num-layers").value_or(0);
    const long long chunks = PositiveProduct(v.value_or(0), pp);
    const long long slots_with_ends = layers > 0 ? layers + extra_slots : 0;
    // Uneven first / last ranks (--decoder-first/last-pipeline-num-layers): each rank's count
    // is split into its v virtual stages (transformer_block.py get_num_layers_to_build asserts
    // it divides), so a virtual stage holds the widest rank's count / v layers.
    const std::optional<long long> first = a.Int("--decoder-first-pipeline-num-layers");
    const std::optional<long long> last = a.Int("--decoder-last-pipeline-num-layers");
    const long long uneven_ranks = (first ? 1 : 0) + (last ? 1 : 0);
    const long long fixed = first.value_or(0) + last.value_or(0);
    const bool uneven_ok = v && *v > 1 && uneven_ranks > 0 && pp > uneven_ranks &&
                           first.value_or(0) >= 0 && last.value_or(0) >= 0 && fixed < layers &&
                           (layers - fixed) % (pp - uneven_ranks) == 0;
    const long long middle = uneven_ok ? (layers - fixed) / (pp - uneven_ranks) : 0;
    if (!v || *v < 1) {
      b.Ignore(a.At("--num-virtual-stages-per-pipeline-rank"), "not a whole number >= 1");
    } else if (uneven_ok && middle % *v == 0 && first.value_or(0) % *v == 0 &&
               last.value_or(0) % *v == 0) {
      uneven_virtual = true;
      b.Set("parallelism.pipeline_parallel_schedule", "Interleaved1F1B",
            a.At("--num-virtual-stages-per-pipeline-rank"));
      b.Set("parallelism.pipeline_parallel_layers_per_stage",
            std::max({middle, first.value_or(0), last.value_or(0)}) / *v,
            a.At("--num-virtual-stages-per-pipeline-rank"));
    } else if (*v > 1 && pp > 1 && chunks > 0 && slots_with_ends > 0 &&
               slots_with_ends % chunks == 0) {
      b.Set("parallelism.pipeline_parallel_schedule", "Interleaved1F1B",
            a.At("--num-virtual-stages-per-pipeline-rank"));
      b.Set("parallelism.pipeline_parallel_layers_per_stage", slots_with_ends / chunks,
            a.At("--num-virtual-stages-per-pipeline-rank"));
    } else if (*v > 1 && pp > 1) {
      // Layers that do not divide into the virtual stages: Megatron refuses them; estimated as
      // 1F1B, which keeps fewer microbatches in flight than the interleaved schedule.
      b.Ignore(a.At("--num-virtual-stages-per-pipeline-rank"),
               "the layers do not divide into PP × virtual stages; estimated as 1F1B, which "
               "keeps fewer microbatches in flight (an under-estimate)");
    } else {
      a.Get("--num-virtual-stages-per-pipeline-rank");
    }
  }
  if (a.Has("--schedules-method")) {
    const std::string m = Lower(a.Value("--schedules-method"));
    if (m.find("dualpipe") != std::string::npos) {
      b.Set("parallelism.pipeline_parallel_schedule", "ZBVZeroBubble", a.At("--schedules-method"));
      b.Note("--schedules-method dualpipev is modelled as the zero-bubble V schedule");
    } else {
      b.Ignore(a.At("--schedules-method"), "schedule not modelled");
    }
  }
  // --- World size ----------------------------------------------------------------------------
  Source world_src;
  // Megatron-SWIFT starts torchrun only from NPROC_PER_NODE / NNODES (swift/cli/main.py).
  const long long world = megatron_swift ? SwiftWorldSize(file, script, all, world_src)
                                         : LaunchWorldSize(file, script, world_src);
  if (world > 0) {
    b.Set("world_size", world, world_src);
    // Megatron starts only on a world its layout divides (megatron/core/parallel_state.py
    // initialize_model_parallel at d98e8a64: RuntimeError "world_size (W) is not divisible by
    // TP·PP·CP", data parallel = W / (TP·PP·CP); and, for the expert layers' own decomposition
    // of the same ranks (MoE parallel folding: EP borrows from the data-parallel ranks),
    // "… not divisible by expert_tensor_model_pipeline_parallel size" ETP·EP·PP, ETP = TP when
    // not given). A layout that does not fit the stated world is the script's contradiction:
    // named, the world kept, and the config fails its check naming the degrees.
    b.keep_world_size = true;
    const long long ep = a.Int("--expert-model-parallel-size").value_or(1);
    const long long etp = a.Int("--expert-tensor-parallel-size").value_or(tp);
    const long long dense = PositiveProduct(PositiveProduct(tp, pp), cp);
    const long long expert = PositiveProduct(PositiveProduct(etp, ep), pp);
    const std::string stated = "world size " + std::to_string(world) + " (" + world_src.text + ")";
    if (dense > 0 && world % dense != 0) {
      b.Problem(stated + " is not divisible by TP·PP·CP = " + std::to_string(tp) + "·" +
                std::to_string(pp) + "·" + std::to_string(cp) + " = " + std::to_string(dense) +
                ": Megatron refuses to start (parallel_state.py initialize_model_parallel); "
                "the world size is kept");
    } else if (expert > 0 && world % expert != 0) {
      b.Problem(stated +
                " is not divisible by the expert layout ETP·EP·PP = " + std::to_string(etp) + "·" +
                std::to_string(ep) + "·" + std::to_string(pp) + " = " + std::to_string(expert) +
                " (expert parallelism borrows from the data-parallel ranks): Megatron refuses to "
                "start (parallel_state.py initialize_model_parallel); the world size is kept");
    }
  }
  // --- Batch ---------------------------------------------------------------------------------
  const long long mbs = a.Int("--micro-batch-size").value_or(1);
  if (!a.Has("--micro-batch-size"))
    b.Missing("training.local_batch_size", "no --micro-batch-size (Megatron's default is 1)", 1);
  set_int("--seq-length", "training.seq_len");
  if (!a.Has("--seq-length") && a.Has("--encoder-seq-length"))
    set_int("--encoder-seq-length", "training.seq_len");
  if (!a.Has("--seq-length") && !a.Has("--encoder-seq-length"))
    b.Missing("training.seq_len",
              "no --seq-length in the script (Megatron has no default: it comes from elsewhere, "
              "such as a Retro project directory)",
              2048);
  const std::optional<long long> gbs = a.Int("--global-batch-size");
  if (pp > 1) {
    b.Set("parallelism.pipeline_parallel_microbatch_size", mbs, a.At("--micro-batch-size"));
    long long microbatches = 0;
    const long long model_parallel = PositiveProduct(PositiveProduct(tp, pp), cp);
    if (gbs && world > 0 && model_parallel > 0 && world % model_parallel == 0) {
      const long long per_step = PositiveProduct(mbs, world / model_parallel);  // mbs · DP
      if (per_step > 0 && *gbs % per_step == 0) microbatches = *gbs / per_step;
    }
    if (microbatches > 0) {
      Source s = a.At("--global-batch-size");
      s.text += " / (micro-batch × DP) = " + std::to_string(microbatches) + " microbatches";
      b.Set("training.local_batch_size", mbs * microbatches, s);
    } else {
      b.Set("training.local_batch_size", PositiveProduct(mbs, pp), a.At("--micro-batch-size"));
      b.Note(
          "pipeline microbatches per step not derivable (global batch / (micro × DP)); "
          "assumed PP = " +
          std::to_string(pp) + " (the most 1F1B keeps in flight)");
    }
  } else if (a.Has("--micro-batch-size")) {
    b.Set("training.local_batch_size", mbs, a.At("--micro-batch-size"));
  }
  // --- Recompute -----------------------------------------------------------------------------
  const std::string granularity = Lower(a.Value("--recompute-granularity"));
  if (granularity == "full") {
    b.Set("activation_checkpoint.mode", "full", a.At("--recompute-granularity"));
    const bool block = Lower(a.Value("--recompute-method")) == "block";
    // --recompute-method block: the first --recompute-num-layers blocks of each stage's chunk
    // (transformer_block.py _checkpointed_forward); fewer than the chunk holds is partial.
    if (const std::optional<long long> n = a.Int("--recompute-num-layers"); n && *n > 0 && block) {
      const long long layers = a.Int("--num-layers").value_or(0);
      long long chunk = pp > 0 ? layers / pp : layers;
      if (const auto per_vp = a.Int("--num-layers-per-virtual-pipeline-stage");
          per_vp && *per_vp > 0)
        chunk = *per_vp;
      else if (const auto v = a.Int("--num-virtual-stages-per-pipeline-rank"); v && *v > 0)
        chunk = PositiveProduct(pp, *v) > 0 ? layers / PositiveProduct(pp, *v) : chunk;
      if (chunk > 0 && *n < chunk)
        b.Set("activation_checkpoint.recompute_num_layers", *n, a.At("--recompute-num-layers"));
    }
  } else if (granularity.empty() &&
             (a.Has("--checkpoint-activations") || a.Has("--activations-checkpoint-method"))) {
    // Megatron before 2022: --checkpoint-activations / --activations-checkpoint-method
    // uniform|block checkpoint whole transformer layers (today's --recompute-granularity full).
    const std::string flag = a.Has("--activations-checkpoint-method")
                                 ? "--activations-checkpoint-method"
                                 : "--checkpoint-activations";
    a.Get("--checkpoint-activations");
    a.Get("--activations-checkpoint-method");
    a.Get("--activations-checkpoint-num-layers");
    b.Set("activation_checkpoint.mode", "full", a.At(flag));
  } else if (granularity == "selective" || a.Has("--recompute-activations")) {
    a.Get("--recompute-activations");
    // Selective recompute recomputes the modules of --recompute-modules, ["core_attn"] when not
    // given (megatron/core/transformer/transformer_config.py __post_init__). The list may be
    // written as words or as "[a b]" / "a,b".
    b.Set("activation_checkpoint.mode", "selective",
          a.Has("--recompute-granularity") ? a.At("--recompute-granularity")
                                           : a.At("--recompute-activations"));
    if (Arg* m = a.Get("--recompute-modules")) {
      json names = json::array();
      std::string unknown;
      for (const std::string& v : m->values)
        for (const std::string& w : Words(v, "[], '\""))
          if (w.empty()) {
            continue;
          } else if (RecomputeModuleBit(w) != 0) {
            names.push_back(w);
          } else {
            unknown += (unknown.empty() ? "" : ", ") + w;
          }
      if (!unknown.empty())
        b.Note("--recompute-modules: " + unknown + " not modelled (kept on the device)");
      if (!names.empty())
        b.Set("activation_checkpoint.recompute_modules", names, a.At("--recompute-modules"));
    }
  } else {
    b.Set("activation_checkpoint.mode", "none", {file.name, 0, "(no --recompute-granularity)"});
  }
  if (a.Has("--lora-r")) {
    // MindSpeed-LLM LoRA (--lora-r, --lora-alpha, --lora-target-modules): base weights frozen,
    // rank-r adapters trained.
    if (std::optional<long long> r = a.Int("--lora-r"); r && *r >= 0) {
      b.Set("training.lora_rank", *r, a.At("--lora-r"));
    } else {
      b.Ignore(a.At("--lora-r"), "not a whole number: LoRA rank not read");
    }
  }
  if (a.Has("--swap-attention")) {
    // MindSpeed swaps every layer of the rank unless --recompute-method block names fewer
    // (adaptive_recompute.py solve_prefetch_policy: num_prefetch = --recompute-num-layers for
    // block, the rank's layers otherwise); other --swap-modules than the default three are not
    // expressible.
    a.Get("--swap-attention");
    const long long layers = a.Int("--num-layers").value_or(0);
    const std::optional<long long> recompute_layers = a.Int("--recompute-num-layers");
    const bool partial = Lower(a.Value("--recompute-method")) == "block" && recompute_layers &&
                         pp > 0 && layers > 0 && *recompute_layers < layers / pp;
    const std::string modules = a.Value("--swap-modules");
    if (partial) {
      b.Ignore(a.At("--swap-attention"),
               "with --recompute-method block only the first --recompute-num-layers layers of "
               "a rank swap, which the config cannot say: estimated without the swap (an "
               "over-estimate)");
    } else if (!modules.empty() && modules != "input_norm,self_attention,post_attention_norm") {
      b.Ignore(a.At("--swap-modules"),
               "other swap modules than input_norm, self_attention and post_attention_norm "
               "cannot be expressed: estimated without the swap (an over-estimate)");
    } else {
      b.Set("activation_checkpoint.swap_attention", true, a.At("--swap-attention"));
    }
  }
  // --- Precision and optimizer -----------------------------------------------------------------
  if (a.Has("--bf16")) {
    a.Get("--bf16");
    b.Set("training.mixed_precision_param", "bfloat16", a.At("--bf16"));
  } else if (a.Has("--fp16")) {
    a.Get("--fp16");
    b.Set("training.mixed_precision_param", "float16", a.At("--fp16"));
  } else {
    b.Set("training.mixed_precision_param", "float32", {file.name, 0, "(no --bf16 / --fp16)"});
  }
  if (a.Has("--fp8-format")) {
    a.Get("--fp8-format");
    b.Set("training.fp8", true, a.At("--fp8-format"));
  }
  if (a.Has("--swap-optimizer")) {
    a.Get("--swap-optimizer");
    b.Set("optimizer.swap_optimizer", true, a.At("--swap-optimizer"));
  }
  if (a.Has("--optimizer-cpu-offload")) {  // Megatron-Core's HybridDeviceOptimizer
    a.Get("--optimizer-cpu-offload");
    b.Set("optimizer.offload", true, a.At("--optimizer-cpu-offload"));
    // --optimizer-offload-fraction (default 1.0): the share of the optimizer's parameters
    // whose states and step live on the host; the rest stay on the device.
    if (a.Has("--optimizer-offload-fraction")) {
      const std::string f = a.Value("--optimizer-offload-fraction");
      char* end = nullptr;
      const double fraction = std::strtod(f.c_str(), &end);
      if (end != f.c_str() && fraction < 1.0)
        b.Problem("--optimizer-offload-fraction " + f +
                  ": only that share of the optimizer states moves to the host; the estimate "
                  "moves all of them (an under-estimate)");
    }
  }
  if (a.Has("--reuse-fp32-param")) {
    a.Get("--reuse-fp32-param");
    b.Set("optimizer.reuse_fp32_param", true, a.At("--reuse-fp32-param"));
  }
  if (a.Has("--optimizer")) {
    const std::string o = Lower(a.Value("--optimizer"));
    if (o == "adam")
      b.Set("optimizer.name", "AdamW", a.At("--optimizer"));  // decoupled wd
    else if (o == "sgd")
      b.Set("optimizer.name", "SGD", a.At("--optimizer"));
    else if (o == "muon" || o == "dist_muon")
      // megatron/core/optimizer/__init__.py: Muon for the 2-D weight matrices, Adam for the rest
      // (embeddings, output layer, norms); dist_muon is the deprecated name of muon with the
      // layer-wise distributed optimizer (arguments.py).
      b.Set("optimizer.name", "Muon", a.At("--optimizer"));
    else
      b.Ignore(a.At("--optimizer"), "optimizer '" + o + "' not modelled; Adam assumed");
  }
  // Megatron-FSDP: --use-megatron-fsdp with --data-parallel-sharding-strategy (no_shard, optim,
  // optim_grads, optim_grads_params; megatron/training/arguments.py) is zero_stage 0–3.
  if (a.Has("--use-megatron-fsdp")) {
    a.Get("--use-megatron-fsdp");
    const std::string strategy = Lower(a.Value("--data-parallel-sharding-strategy"));
    const int stage = strategy == "optim_grads_params" ? 3
                      : strategy == "optim_grads"      ? 2
                      : strategy == "optim"            ? 1
                                                       : 0;
    if (strategy.empty() || strategy == "no_shard") {
      b.Note(
          "--use-megatron-fsdp without a --data-parallel-sharding-strategy shards nothing "
          "(no_shard)");
    }
    const char* flag = a.Has("--data-parallel-sharding-strategy")
                           ? "--data-parallel-sharding-strategy"
                           : "--use-megatron-fsdp";
    b.Set("parallelism.zero_stage", std::max(stage, a.Has("--use-distributed-optimizer") ? 1 : 0),
          a.At(flag));
    a.Get("--data-parallel-sharding-strategy");
  }
  // Megatron-DeepSpeed (microsoft/Megatron-DeepSpeed): --deepspeed with --deepspeed_config
  // JSON, whose zero_optimization.stage shards the optimizer (1), gradients (2) or parameters (3)
  // over the data-parallel ranks; its scripts usually write the JSON themselves
  // (`cat <<EOT > $DS_CONFIG`) and pass the stage as --zero-stage too.
  if (a.Has("--deepspeed") || a.Has("--deepspeed_config") || a.Has("--deepspeed-config")) {
    a.Get("--deepspeed");
    int stage = -1;
    Source where = a.At("--deepspeed");
    for (const char* flag : {"--zero-stage", "--zero_stage"})
      if (a.Has(flag))
        if (const auto z = ParseInteger(a.Value(flag)); z && *z >= 0 && *z <= 3) {
          stage = static_cast<int>(*z);
          where = a.At(flag);
        }
    const std::string path =
        a.Has("--deepspeed_config") ? a.Value("--deepspeed_config") : a.Value("--deepspeed-config");
    for (const InputFile& f : WithWrittenFiles(all, script)) {
      if (path.empty() || BaseName(f.name) != BaseName(path)) continue;
      b.UseFile(f.name);
      Result<json> parsed = ParseJsonInput(f);
      if (!parsed.ok() || !parsed.value().is_object()) break;
      const json& z = parsed.value().value("zero_optimization", json::object());
      if (z.is_object() && z.contains("stage"))
        if (const auto v = JsonInteger(z["stage"]); v && *v >= 0 && *v <= 3) {
          stage = static_cast<int>(*v);
          where = {f.name, 0, "zero_optimization.stage"};
        }
      break;
    }
    if (stage >= 0) {
      b.Set("parallelism.zero_stage", std::max(stage, dist_opt ? 1 : 0), where);
      b.Note("Megatron-DeepSpeed: ZeRO stage " + std::to_string(stage) +
             " shards the fp32 master weights and Adam moments" +
             (stage >= 2 ? std::string(", the gradients") : "") +
             (stage >= 3 ? std::string(" and the parameters") : "") +
             " over the data-parallel ranks");
    } else {
      b.Missing("parallelism.zero_stage",
                "--deepspeed without --zero-stage or its DeepSpeed JSON: give the JSON", 0);
    }
  }
  // --use-precision-aware-optimizer with --exp-avg-dtype / --exp-avg-sq-dtype (fp32, fp16, bf16,
  // fp8; megatron/core/optimizer/optimizer_config.py): Adam's moments in that dtype. The config
  // holds one dtype for both: the wider of the two is kept when they differ.
  if (a.Has("--use-precision-aware-optimizer") &&
      (a.Has("--exp-avg-dtype") || a.Has("--exp-avg-sq-dtype"))) {
    a.Get("--use-precision-aware-optimizer");
    auto bytes_of = [&](const char* flag) -> std::int64_t {
      const std::string v = Lower(a.Value(flag));
      DType dtype = DType::kFloat32;  // Megatron's default, fp32
      return v.empty() || detail::EnumFromText(v, dtype) ? DTypeBytes(dtype) : 0;
    };
    const std::int64_t m = bytes_of("--exp-avg-dtype"), v = bytes_of("--exp-avg-sq-dtype");
    const char* flag = a.Has("--exp-avg-dtype") ? "--exp-avg-dtype" : "--exp-avg-sq-dtype";
    if (m == 0 || v == 0) {
      b.Ignore(a.At(flag), "moment dtype not recognised; fp32 moments assumed");
    } else {
      const std::int64_t wider = std::max(m, v);
      const std::string dtype = wider == 4 ? "float32" : wider == 2 ? "bfloat16" : "float8";
      if (m != v)
        b.Note("--exp-avg-dtype and --exp-avg-sq-dtype differ; both moments are estimated as " +
               dtype);
      b.Set("optimizer.state_dtype", dtype, a.At(flag));
      a.Get("--exp-avg-dtype");
      a.Get("--exp-avg-sq-dtype");
    }
  }
  // --cpu-offloading with --cpu-offloading-num-layers N (default 0; with activations on by
  // default, --cpu-offloading-activations): the saved activations of N layers go to pinned host
  // memory (model_parallel_config.py cpu_offloading_*; arguments.py asserts N < num_layers).
  // activation_checkpoint.offload moves every block's: read when N is num_layers − 1, the most
  // Megatron allows; fewer layers are left out (an over-estimate) with a note.
  if (a.Has("--cpu-offloading")) {
    a.Get("--cpu-offloading");
    const long long n = a.Int("--cpu-offloading-num-layers").value_or(0);
    const long long layers = a.Int("--num-layers").value_or(0);
    const std::string activations = Lower(a.Value("--cpu-offloading-activations"));
    const bool acts = activations.empty() || activations == "true" || activations == "1";
    if (acts && layers > 1 && n >= layers - 1) {
      b.Set("activation_checkpoint.offload", true, a.At("--cpu-offloading-num-layers"));
    } else if (n > 0) {
      b.Note("--cpu-offloading-num-layers " + std::to_string(n) + " of " + std::to_string(layers) +
             " layers: partial activation offload is not modelled; estimated with every "
             "layer's activations on the device (an over-estimate)");
    }
    a.Get("--cpu-offloading-num-layers");
  }
  set_flag("--grad-reduce-in-bf16", "training.grad_reduce_in_bf16");
  set_int("--num-distributed-optimizer-instances",
          "parallelism.num_distributed_optimizer_instances");
  if (a.Has("--defer-embedding-wgrad-compute")) {
    set_flag("--defer-embedding-wgrad-compute", "training.defer_embedding_wgrad_compute");
    set_int("--wgrad-deferral-limit", "training.wgrad_deferral_limit", 0);
  }
  // Counted only for a model with experts (estimate_params.cpp), whichever way it is named.
  set_flag("--moe-grouped-gemm", "training.moe_grouped_gemm");
  // --cross-entropy-fusion-impl: "native" (the default) or "te" (Transformer Engine's kernel,
  // which computes the gradient in its forward and is not the case counted here).
  if (a.Has("--cross-entropy-loss-fusion")) {
    a.Get("--cross-entropy-loss-fusion");
    const std::string impl = Lower(a.Value("--cross-entropy-fusion-impl"));
    if (impl.empty() || impl == "native")
      b.Set("training.cross_entropy_fusion", true, a.At("--cross-entropy-loss-fusion"));
    else
      b.Ignore(a.At("--cross-entropy-fusion-impl"),
               "Transformer Engine's fused cross-entropy is estimated as the unfused loss");
  }
  if (a.Has("--hidden-dropout")) {
    if (auto d = ParseNumber(a.Value("--hidden-dropout")))
      b.Set("training.dropout", *d, a.At("--hidden-dropout"));
  }
  a.Get("--attention-dropout");
  const std::string backend = Lower(a.Value("--attention-backend"));
  // Unfused attention keeps s × s scores: --attention-backend unfused/local; Megatron's local
  // DotProductAttention (--transformer-impl local) and legacy models without --use-flash-attn;
  // MindSpeed-LLM models are legacy unless --use-mcore-models (its training/arguments.py).
  const bool npu_script = NpuScript(file.text);
  const char* unfused_by = backend == "unfused" || backend == "local"        ? "--attention-backend"
                           : Lower(a.Value("--transformer-impl")) == "local" ? "--transformer-impl"
                           : a.Has("--use-legacy-models")                    ? "--use-legacy-models"
                                                                             : nullptr;
  if (a.Has("--use-flash-attn") || backend == "flash") {
    a.Get("--use-flash-attn");
    b.Set("training.attention", "flash",
          a.Has("--use-flash-attn") ? a.At("--use-flash-attn") : a.At("--attention-backend"));
  } else if (unfused_by != nullptr) {
    b.Set("training.attention", "eager", a.At(unfused_by));
  } else if (npu_script && !a.Has("--use-mcore-models")) {
    b.Set("training.attention", "eager",
          {file.name, 0, "(MindSpeed-LLM legacy model without --use-flash-attn)"});
  }
  if (a.Has("--no-create-attention-mask-in-dataloader")) {
    a.Get("--no-create-attention-mask-in-dataloader");
    b.Set("training.create_attention_mask_in_dataloader", false,
          a.At("--no-create-attention-mask-in-dataloader"));
  }
  // --- Model ---------------------------------------------------------------------------------
  std::set<long long> noop_slots;  // --noop-layers: layer slots built without weights
  // Hybrid models (megatron/core/models/hybrid, examples/mamba): --hybrid-layer-pattern (or the
  // deprecated --hybrid-override-pattern) gives one symbol a layer and decides num_layers
  // (arguments.py: "ignoring --num-layers"); '|' marks pipeline stages, '/' starts the MTP part.
  std::string hybrid;
  for (const char* flag : {"--hybrid-layer-pattern", "--hybrid-override-pattern"})
    if (hybrid.empty() && a.Has(flag)) hybrid = a.Value(flag);
  if (const std::size_t mtp = hybrid.find('/'); mtp != std::string::npos) {
    b.Note("--hybrid-layer-pattern: the MTP part after '/' (" + hybrid.substr(mtp + 1) +
           ") is not counted");
    hybrid.resize(mtp);
  }
  // '|' ends a pipeline segment: segment s runs on pipeline rank s mod PP as its virtual stage
  // s / PP (hybrid_layer_allocation.py select_pipeline_segment: segment_index = vp_stage · PP +
  // pp_rank), and Megatron derives virtual_pipeline_model_parallel_size = segments / PP when
  // there are more segments than PP ranks (megatron/training/arguments.py at d98e8a64, asserting
  // that PP divides the segments).
  bool hybrid_split = false;  // the segments set the pipeline split (checked again below)
  if (hybrid.find('|') != std::string::npos) {
    const std::string flag =
        a.Has("--hybrid-layer-pattern") ? "--hybrid-layer-pattern" : "--hybrid-override-pattern";
    std::vector<long long> segments{0};
    for (char c : hybrid) {
      if (c == '|')
        segments.push_back(0);
      else
        ++segments.back();
    }
    const long long n = static_cast<long long>(segments.size());
    if (pp < 2 || n % pp != 0) {
      b.Problem(a.At(flag).text + ": " + std::to_string(n) +
                " pipeline segments need a --pipeline-model-parallel-size above 1 that divides "
                "them (Megatron refuses the job); estimated without a pipeline split");
    } else {
      hybrid_split = true;
      json list = json::array();
      long long widest = 0;
      bool even = true;
      for (long long r = 0; r < pp; ++r) {
        long long rank_layers = 0;
        for (long long seg = r; seg < n; seg += pp) {
          rank_layers += segments[static_cast<std::size_t>(seg)];
          widest = std::max(widest, segments[static_cast<std::size_t>(seg)]);
        }
        even = even && (list.empty() || list.back() == rank_layers);
        list.push_back(rank_layers);
      }
      if (!even) b.Set("parallelism.pipeline_parallel_layer_list", list, a.At(flag));
      if (n > pp) {
        b.Set("parallelism.pipeline_parallel_schedule", "Interleaved1F1B", a.At(flag));
        b.Set("parallelism.pipeline_parallel_layers_per_stage", std::max(1LL, widest), a.At(flag));
        b.Note(a.At(flag).text + ": " + std::to_string(n) + " segments over PP " +
               std::to_string(pp) + " = " + std::to_string(n / pp) +
               " virtual stages per rank (the interleaved schedule)");
      }
    }
  }
  hybrid.erase(std::remove(hybrid.begin(), hybrid.end(), '|'), hybrid.end());
  // pretrain_mamba.py without a pattern (MindSpeed-LLM's; Megatron's before the pattern took
  // over) builds MambaModel from --num-layers and the deprecated --hybrid-attention-ratio /
  // --hybrid-mlp-ratio (default 0: every layer a Mamba-2 mixer); Megatron spreads them as
  // hybrid_layer_allocation.py pattern_from_ratios does (at d98e8a64), copied here.
  const std::string spec = Lower(a.Peek("--spec"));
  if (hybrid.empty() && (program == "pretrain_mamba.py" || program == "pretrain_hybrid.py" ||
                         spec.find("mamba") != std::string::npos ||
                         a.Has("--hybrid-attention-ratio") || a.Has("--hybrid-mlp-ratio"))) {
    const long long n = ParseInteger(a.Peek("--num-layers")).value_or(0);
    const double attention_ratio = ParseNumber(a.Value("--hybrid-attention-ratio")).value_or(0.0);
    const double mlp_ratio = ParseNumber(a.Value("--hybrid-mlp-ratio")).value_or(0.0);
    if (n > 0 && n <= model_detail::kMaxLayers && attention_ratio >= 0 && mlp_ratio >= 0 &&
        attention_ratio + mlp_ratio <= 1.0) {
      hybrid = MambaPatternFromRatios(n, attention_ratio, mlp_ratio);
    } else if (n > 0) {
      b.Problem(
          "--hybrid-attention-ratio / --hybrid-mlp-ratio must be from 0 to 1 and add up to "
          "at most 1 (Megatron asserts it); the model is not read");
    }
  }
  // A flag whose value is no number (a template's unset ${NLS}) does not describe a model.
  const bool has_model = (a.Int("--num-layers").value_or(0) > 0 || !hybrid.empty()) &&
                         a.Int("--hidden-size").value_or(0) > 0;
  if (!has_model) {
    std::string hint;
    for (const char* f :
         {"--tokenizer-model", "--tokenizer-name-or-path", "--load", "--model-type-hf",
          "--model.model_name_or_path", "--hf-model-path", "--model-name-or-path", "--model"})
      hint += " " + a.Value(f);
    hint += " " + file.name;
    const std::string preset = PresetFromText(hint, presets);
    // Megatron-SWIFT's --model is a hub id: a preset, or a torchtitan flavor of its family.
    const FlavorModel named = preset.empty() && a.Has("--model")
                                  ? ModelFromCheckpointName(a.Value("--model"), "", presets)
                                  : FlavorModel{};
    if (!preset.empty()) {
      b.Set("model", preset, {file.name, 0, "named by the tokenizer/checkpoint path or file name"});
      SwiftVisionTower(a, presets.FindModel(preset), json(), b);
    } else if (!named.preset.empty() || !named.inline_model.is_null()) {
      b.Set("model", named.preset.empty() ? named.inline_model : json(named.preset),
            a.At("--model"));
      if (!named.note.empty())
        b.Note("model: " + named.note + " (from " + a.Value("--model") + ")");
      SwiftVisionTower(a, named.preset.empty() ? nullptr : presets.FindModel(named.preset),
                       named.inline_model, b);
    } else {
      // Megatron-SWIFT's --freeze-vit (its default, written by the importer) waits for a model:
      // not a flag the user wrote that was left unread.
      if (a.Has("--freeze-vit")) a.Value("--freeze-vit");
      // Name each flag as it is: absent, or present without a number (a template's unset
      // variable).
      // A hybrid pattern stands for --num-layers.
      std::vector<std::string> flags{"--hidden-size"};
      if (hybrid.empty()) flags.insert(flags.begin(), "--num-layers");
      std::string why;
      for (const std::string& flag : flags) {
        if (a.Int(flag).value_or(0) > 0) continue;
        why += std::string(why.empty() ? "" : "; ") +
               (a.Has(flag) ? flag + " holds no number (a variable the script does not set?)"
                            : "no " + flag + " in the script");
      }
      b.Missing("model",
                why +
                    std::string(script.missing_sources.empty()
                                    ? ""
                                    : " (it sources " + script.missing_sources.front() +
                                          ": give that file too)") +
                    "; or pick a preset / give a config.json",
                nullptr);
    }
  } else {
    json m = json::object();
    // MLA only with its switch: Megatron's --multi-latent-attention (gpt_layer_specs.py), or
    // MindSpeed-LLM's deprecated --multi-head-latent-attention, which sets it
    // (mindspeed_llm/features_manager/arguments/deprecated_args.py at c77308a1; the only switch
    // since MLA came in at 2531205c). A spec of its own may read --q-lora-rank and
    // --kv-lora-rank without building MLA: MindSpeed-LLM's minimax_spec (at 8eff0c32) builds
    // MinimaxAttention, a GQA linear_qkv whose q / k norms span all heads (q_layernorm of
    // kv_channels · heads, k_layernorm of kv_channels · query groups).
    const bool mla = a.Has("--multi-latent-attention") || a.Has("--multi-head-latent-attention");
    if (!mla)
      for (const char* flag : {"--q-lora-rank", "--kv-lora-rank"})
        if (a.Has(flag)) {
          a.Get(flag);
          b.Ignore(a.At(flag),
                   "without --multi-latent-attention (MindSpeed-LLM: "
                   "--multi-head-latent-attention) no MLA is built: read as grouped-query "
                   "attention");
        }
    a.Get("--multi-head-latent-attention");
    const long long experts = a.Int("--num-experts").value_or(0);
    long long layers =
        hybrid.empty() ? a.Int("--num-layers").value_or(0) : static_cast<long long>(hybrid.size());
    const long long hidden = a.Int("--hidden-size").value_or(0);
    const long long heads = a.Int("--num-attention-heads").value_or(0);
    m["model_type"] = mla ? "deepseek_v3" : experts > 0 ? "qwen3_moe" : "llama";
    if (!hybrid.empty()) {
      // Megatron's MambaMixer (megatron/core/ssm/mamba_mixer.py at d98e8a64): d_inner =
      // expand · hidden (expand 2, its constructor's default; MindSpeed-LLM passes
      // --mamba-expand, default 1: mindspeed_llm/features_manager/models/mamba.py and
      // core/ssm/mamba_mixer.py mamba_mixer_init_wrapper), heads = d_inner / head_dim unless
      // mamba_num_heads (then d_inner = heads · head_dim); in_proj hidden → 2·d_inner +
      // 2·groups·state + heads, no bias; conv1d over d_inner + 2·groups·state channels, d_conv
      // wide, with bias; dt_bias, A_log, D (one a head); a gated RMSNorm over d_inner; out_proj
      // d_inner → hidden. TransformerConfig defaults: mamba_state_dim 128, mamba_head_dim 64,
      // mamba_num_groups 8. MindSpeed-LLM before 2026 spelled them --mamba-d-state,
      // --mamba-headdim, --mamba-ngroups with defaults 128, 80 and 1 (features_manager/models/
      // mamba.py at 113b39e030).
      const bool old_spelling =
          a.Has("--mamba-d-state") || a.Has("--mamba-headdim") || a.Has("--mamba-ngroups");
      auto mamba_size = [&](std::initializer_list<const char*> flags, long long fallback) {
        for (const char* flag : flags)
          if (const std::optional<long long> v = a.Int(flag); v && *v > 0) return *v;
        return fallback;
      };
      const long long head_dim =
          mamba_size({"--mamba-head-dim", "--mamba-headdim"}, old_spelling ? 80 : 64);
      const long long state = mamba_size({"--mamba-state-dim", "--mamba-d-state"}, 128);
      const long long groups =
          mamba_size({"--mamba-num-groups", "--mamba-ngroups"}, old_spelling ? 1 : 8);
      const long long expand = mamba_size({"--mamba-expand"}, npu_script ? 1 : 2);
      const long long d_conv = mamba_size({"--mamba-d-conv"}, 4);
      const long long d_inner = PositiveProduct(expand, hidden);
      const std::optional<long long> num_heads = a.Int("--mamba-num-heads");
      const long long mamba_heads = num_heads && *num_heads > 0 ? *num_heads
                                    : head_dim > 0              ? d_inner / head_dim
                                                                : 0;
      if (!num_heads && head_dim > 0 && d_inner % head_dim != 0)
        b.Problem("Mamba: expand · hidden = " + std::to_string(d_inner) +
                  " is not divisible by the head dim " + std::to_string(head_dim) +
                  " (Megatron asserts it)");
      a.Get("--mamba-chunk-size");
      const bool all_mamba = hybrid.find_first_not_of('M') == std::string::npos;
      if (all_mamba && PositiveProduct(mamba_heads, head_dim) == d_inner) {
        // Every layer a norm and a Mamba-2 mixer, as Mamba2Config / Mamba2Model spell it.
        m["model_type"] = "mamba2";
        m["num_heads"] = mamba_heads;
        m["head_dim"] = head_dim;
        m["state_size"] = state;
        m["expand"] = expand;
        m["use_bias"] = false;
        m["rms_norm"] = true;
      } else {
        // Blocks of one part each, as Nemotron-H's hybrid_override_pattern (the model
        // reader's own): M a Mamba-2 mixer, * attention, - an MLP, E an MoE. G (Gated
        // DeltaNet), D (DSA) and + (MLA) layers are not read here.
        m["model_type"] = "nemotron_h";
        m["hybrid_override_pattern"] = hybrid;
        m["mamba_head_dim"] = head_dim;
        m["mamba_num_heads"] = mamba_heads;
        m["ssm_state_size"] = state;
        m["expand"] = expand;
      }
      m["n_groups"] = groups;
      m["conv_kernel"] = d_conv;
      m["use_conv_bias"] = true;
      // The SSD scan's chunk (no weights; what its Q × Q matrices are as wide).
      if (const std::optional<long long> chunk = ParseInteger(a.Peek("--mamba-chunk-size")))
        m["chunk_size"] = *chunk;
      if (layers != a.Int("--num-layers").value_or(layers))
        b.Note("--num-layers " + a.Value("--num-layers") + " is ignored: the hybrid pattern has " +
               std::to_string(layers) + " layers (Megatron takes the pattern's count)");
      a.Get("--num-layers");
      a.Get("--spec");
    } else if (const long long interval = a.Int("--full-attention-interval").value_or(0);
               interval > 0) {
      // MindSpeed-LLM's Qwen3-Next (features_manager/transformer/qwen3_next_attention/
      // qwen3_next_feature.py, core/transformer/transformer_block.py build_layer at 2d52b04172):
      // layer l (1-based) is full attention when l % --full-attention-interval == 0, Gated
      // DeltaNet otherwise, as Qwen3NextConfig's full_attention_interval; the full attention is
      // gated (qwen3_next_full_attention.py: q_proj heads · head_dim · 2, output · sigmoid(gate))
      // and the DeltaNet's conv is --mamba-d-conv wide (qwen3_next_gated_deltanet_attention.py:
      // config.mamba_d_conv). The --linear-* sizes default to 0 there (a job must give them);
      // absent ones take Qwen3NextConfig's.
      m["model_type"] = experts > 0 ? "qwen3_next" : "qwen3_5_text";
      m["full_attention_interval"] = interval;
      for (const auto& [flag, key] :
           {std::pair<const char*, const char*>{"--linear-key-head-dim", "linear_key_head_dim"},
            {"--linear-value-head-dim", "linear_value_head_dim"},
            {"--linear-num-key-heads", "linear_num_key_heads"},
            {"--linear-num-value-heads", "linear_num_value_heads"},
            {"--mamba-d-conv", "linear_conv_kernel_dim"}})
        if (const std::optional<long long> v = a.Int(flag); v && *v > 0) m[key] = *v;
      a.Get("--mamba-expand");      // read by MindSpeed's Mamba feature only
      a.Get("--mamba-chunk-size");  // the DeltaNet's chunk: no weights
    }
    // --noop-layers (MindSpeed, core/pipeline_parallel/noop_layers/adaptor.py): the listed layer
    // slots are built as NoopTransformerLayer, which has no weights and returns
    // hidden_states.clone() (nothing saved for backward); the model has that many fewer real
    // layers, and each slot keeps its place in the pipeline split (below).
    if (a.Has("--noop-layers") && layers > 0) {
      const std::string list = a.Value("--noop-layers");
      for (const std::string& item : Words(list, ",")) {
        const std::optional<long long> slot = ParseInteger(Trim(item));
        if (!slot || *slot < 0 || *slot >= layers) {
          b.Problem(a.At("--noop-layers").text + ": '" + item +
                    "' is not a layer index from 0 to --num-layers − 1 (" +
                    std::to_string(layers - 1) + "); MindSpeed refuses it too");
          noop_slots.clear();
          break;
        }
        noop_slots.insert(*slot);
      }
      const long long noop = static_cast<long long>(noop_slots.size());
      if (noop > 0 && noop < layers) {
        b.Note("--noop-layers " + list + ": " + std::to_string(noop) +
               " placeholder layers without weights; the model has " +
               std::to_string(layers - noop) + " layers");
        layers -= noop;
      } else if (noop >= layers) {
        b.Problem(a.At("--noop-layers").text + ": every layer is a placeholder");
        noop_slots.clear();
      }
    }
    m["num_hidden_layers"] = layers;
    m["hidden_size"] = hidden;
    m["num_attention_heads"] = heads;
    const bool gqa = a.Has("--group-query-attention");
    a.Get("--group-query-attention");
    if (gqa && a.Has("--num-query-groups"))
      m["num_key_value_heads"] = *a.Int("--num-query-groups");
    else
      m["num_key_value_heads"] = heads;
    // (Mamba2Config's head_dim is the Mamba head's, set above.)
    if (a.Has("--kv-channels") && !mla && m["model_type"] != "mamba2")
      m["head_dim"] = a.Int("--kv-channels").value_or(0);
    const bool swiglu = a.Has("--swiglu");
    a.Get("--swiglu");
    // MindSpeed-LLM's --geglu and --gelu-tanh (Gemma, Gemma 2) make the MLP gated with a GELU:
    // mindspeed_llm/core/transformer/mlp.py core_mlp_init sets gated_linear_unit = True for
    // both, so fc1 is [gate; up] (2 × ffn) as with --swiglu.
    const bool gelu_tanh = a.Has("--gelu-tanh");
    const bool geglu = !swiglu && (a.Has("--geglu") || gelu_tanh);
    a.Get("--geglu");
    a.Get("--gelu-tanh");
    long long ffn = a.Int("--ffn-hidden-size").value_or(0);
    // arguments.py; for a width the estimate accepts (a larger one is refused by the check).
    if (ffn == 0 && hidden > 0 && hidden <= model_detail::kMaxWidth)
      ffn = swiglu ? (4 * hidden * 2 / 3) / 64 * 64 : 4 * hidden;
    m["intermediate_size"] = ffn;
    m["mlp_kind"] = swiglu || geglu ? "gated" : "plain";
    m["hidden_act"] = swiglu ? "silu" : gelu_tanh ? "gelu_pytorch_tanh" : "gelu";
    const std::string norm = Lower(a.Value("--normalization"));
    m["norm_kind"] = norm == "rmsnorm" ? "rmsnorm" : "layernorm";
    const bool bias = !a.Has("--disable-bias-linear");
    a.Get("--disable-bias-linear");
    m["qkv_bias"] = bias || a.Has("--add-qkv-bias");
    a.Get("--add-qkv-bias");
    m["o_bias"] = bias;
    m["mlp_bias"] = bias;
    m["qk_norm"] = a.Has("--qk-layernorm");
    // MindSpeed-LLM's --output-logit-softcapping (Gemma 2): cap · tanh(logits / cap).
    if (a.Has("--output-logit-softcapping")) {
      const auto cap = ParseNumber(a.Value("--output-logit-softcapping"));
      if (cap && *cap > 0 && *cap < 1e6) m["final_logit_softcapping"] = *cap;
    }
    // MindSpeed-LLM's --interleave-sliding-window N (Gemma 2): layers 1, 3, 5, … (layer_number,
    // from 1) attend within N tokens (tasks/models/transformer/transformer_layer.py is_sliding).
    if (const auto window = a.Int("--interleave-sliding-window"); window && *window > 0) {
      m["sliding_window"] = *window;
      json types = json::array();
      for (long long i = 0; i < a.Int("--num-layers").value_or(0) && i <= model_detail::kMaxLayers;
           ++i)
        types.push_back(i % 2 == 0 ? "sliding_attention" : "full_attention");
      m["layer_types"] = types;
    }
    // MindSpeed-LLM's --post-norm (Gemma 2): a norm after the attention and after the MLP too.
    if (a.Has("--post-norm")) m["norms_per_layer"] = 4;
    a.Get("--post-norm");
    a.Get("--qk-layernorm");
    if (a.Has("--qk-layernorm") &&
        Lower(a.Peek("--spec")).find("minimax_spec") != std::string::npos)
      m["qk_norm_type"] = "per_layer";  // MinimaxAttention's norms span all heads (above)
    const bool untie = a.Has("--untie-embeddings-and-output-weights");
    a.Get("--untie-embeddings-and-output-weights");
    m["tie_word_embeddings"] = !untie;
    std::string pos = Lower(a.Value("--position-embedding-type"));
    if (pos.empty()) pos = a.Has("--use-rotary-position-embeddings") ? "rope" : "learned_absolute";
    a.Get("--use-rotary-position-embeddings");
    m["position_embedding_type"] = pos == "learned_absolute" ? "learned_absolute"
                                   : pos == "none"           ? "none"
                                   : pos == "alibi"          ? "alibi"
                                                             : "rope";
    long long max_pos = a.Int("--max-position-embeddings").value_or(0);
    if (max_pos == 0) max_pos = a.Int("--seq-length").value_or(4096);
    m["max_position_embeddings"] = max_pos;
    if (mla) {
      a.Get("--multi-latent-attention");
      m["q_lora_rank"] = a.Has("--q-lora-rank") ? json(*a.Int("--q-lora-rank")) : json(nullptr);
      m["kv_lora_rank"] = a.Int("--kv-lora-rank").value_or(512);
      m["qk_nope_head_dim"] = a.Int("--qk-head-dim").value_or(128);
      m["qk_rope_head_dim"] = a.Int("--qk-pos-emb-head-dim").value_or(64);
      m["v_head_dim"] = a.Int("--v-head-dim").value_or(128);
      // DeepSeek-V3.2's lightning indexer: MindSpeed-LLM --enable-dsa-indexer with
      // --index-n-heads / --index-head-dim / --index-topk (defaults 64, 128, 2048:
      // features_manager/transformer/multi_latent_attention/dsa_indexer_feature.py); Megatron-LM
      // --experimental-attention-variant dsa with the TransformerConfig fields
      // dsa_indexer_n_heads / _head_dim / _topk.
      const bool dsa = a.Has("--enable-dsa-indexer") ||
                       Lower(a.Value("--experimental-attention-variant")) == "dsa";
      if (dsa) {
        a.Get("--enable-dsa-indexer");
        a.Get("--experimental-attention-variant");
        auto first = [&a](const char* mindspeed, const char* megatron, long long fallback) {
          if (std::optional<long long> v = a.Int(mindspeed); v && *v > 0) return *v;
          if (std::optional<long long> v = a.Int(megatron); v && *v > 0) return *v;
          return fallback;
        };
        m["index_n_heads"] = first("--index-n-heads", "--dsa-indexer-n-heads", 64);
        m["index_head_dim"] = first("--index-head-dim", "--dsa-indexer-head-dim", 128);
        m["index_topk"] = first("--index-topk", "--dsa-indexer-topk", 2048);
        // Fused kernels never hold seq × seq scores: the lightning indexer's top-k kernel and a
        // fused sparse attention or indexer loss (mla_feature.py --use-sparse-flash-attn).
        if (a.Has("--use-fused-lightning-indexer") &&
            (a.Has("--use-sparse-flash-attn") || a.Has("--use-fused-lightning-indexer-loss"))) {
          b.Set("training.dsa_fused_kernels", true, a.At("--use-fused-lightning-indexer"));
          a.Get("--use-sparse-flash-attn");
          a.Get("--use-fused-lightning-indexer-loss");
        }
      }
    }
    if (experts > 0) {
      m["n_routed_experts"] = experts;
      m["num_experts_per_tok"] = a.Int("--moe-router-topk").value_or(2);
      const long long moe_ffn = a.Int("--moe-ffn-hidden-size").value_or(ffn);
      m["moe_intermediate_size"] = moe_ffn;
      long long shared = a.Int("--n-shared-experts").value_or(0);
      if (const std::optional<long long> s = a.Int("--moe-shared-expert-intermediate-size")) {
        if (shared == 0) shared = moe_ffn > 0 && *s % moe_ffn == 0 ? *s / moe_ffn : 1;
        if (*s != shared * moe_ffn) m["shared_expert_intermediate_size"] = *s / shared;
      }
      if (shared > 0) m["n_shared_experts"] = shared;
      // MindSpeed-LLM's --shared-expert-gate: the shared experts' output scaled by a sigmoid
      // gate, h → 1 (features_manager/moe/shared_expert.py; SharedExpertMLP(gate=…) in
      // qwen3_next_spec.py); without it there is none, whatever the model type's default.
      if (shared > 0 && (a.Has("--shared-expert-gate") || m["model_type"] == "qwen3_next"))
        m["shared_expert_gate"] = a.Has("--shared-expert-gate");
      a.Get("--shared-expert-gate");
      m["router_bias"] = a.Has("--moe-router-enable-expert-bias");
      a.Get("--moe-router-enable-expert-bias");
      // One flag per layer, for a layer count the estimate accepts (model_detail::kMaxLayers;
      // the config check names a larger one); a hostile --num-layers must not size a vector.
      const bool sized = layers > 0 && layers <= model_detail::kMaxLayers;
      std::vector<bool> pattern(sized ? static_cast<std::size_t>(layers) : 0, true);
      if (a.Has("--moe-layer-freq")) {
        a.Get("--moe-layer-freq");
        const std::string text = sized ? a.Value("--moe-layer-freq") : std::string();
        std::vector<bool> p = MoeLayerPattern(text, layers);
        if (static_cast<long long>(p.size()) == layers)
          pattern = p;
        else
          b.Ignore(a.At("--moe-layer-freq"), "could not read the layer pattern (" +
                                                 std::to_string(p.size()) + " entries for " +
                                                 std::to_string(layers) + " layers)");
      }
      const long long dense_first = a.Int("--first-k-dense-replace").value_or(0);
      json dense = json::array();
      for (std::size_t i = 0; i < pattern.size(); ++i)
        if (!pattern[i] || static_cast<long long>(i) < dense_first) dense.push_back(i);
      m["mlp_only_layers"] = dense;
      m["decoder_sparse_step"] = 1;
      m["first_k_dense_replace"] = 0;
      m["moe_layer_freq"] = 1;
    }
    if (const std::optional<long long> mtp = a.Int("--mtp-num-layers"); mtp && *mtp > 0) {
      m["num_nextn_predict_layers"] = *mtp;
      b.Set("training.mtp", true, a.At("--mtp-num-layers"));
    } else if (m["model_type"] == "qwen3_next" || m["model_type"] == "qwen3_5_text") {
      // Their config.json default is one MTP layer; Megatron builds none without the flag.
      m["num_nextn_predict_layers"] = 0;
    }
    // Vocabulary: --padded-vocab-size as is; --vocab-size padded as Megatron pads it.
    const long long divisible = a.Int("--make-vocab-size-divisible-by").value_or(128);
    if (const std::optional<long long> padded = a.Int("--padded-vocab-size")) {
      m["vocab_size"] = *padded;
      a.Get("--vocab-size");
    } else if (const std::optional<long long> v = a.Int("--vocab-size")) {
      const long long multiple = std::max(1LL, PositiveProduct(divisible, tp));
      // Padded only within the sizes the estimate accepts (no overflow rounding up).
      m["vocab_size"] =
          *v > 0 && *v <= model_detail::kMaxVocab && multiple <= model_detail::kMaxVocab
              ? model_detail::RoundUpToMultiple(*v, multiple)
              : *v;
      if (m["vocab_size"] != *v)
        b.Note("--vocab-size " + std::to_string(*v) + " padded to " + m["vocab_size"].dump() +
               " (multiple of --make-vocab-size-divisible-by × TP = " + std::to_string(multiple) +
               ")");
    } else {
      const std::string tokenizer = Lower(a.Value("--tokenizer-type"));
      std::string path = a.Value("--tokenizer-model") + " " + a.Value("--tokenizer-name-or-path");
      std::string preset = PresetFromText(path, presets);
      if (preset.empty()) preset = PresetFromText(file.name, presets);
      const ModelPreset* p = presets.FindModel(preset);
      // Megatron's GPTSentencePieceTokenizer takes the vocabulary of its SentencePiece model.
      // nemotron_2_256k.model, the Nemotron-4 tokenizer of Megatron-LM's release tests
      // (tests/functional_tests/test_cases/gpt/gpt3_15b_8t_release, mixtral/*_release at
      // d98e8a64; the file nvidia/Nemotron-4-340B-Base ships), holds 256,000 pieces (the
      // Nemotron-4 report; Megatron's training.py hybrid_flops assumes vocab_size=256000).
      const bool nemotron_256k = Lower(path).find("nemotron_2_256k") != std::string::npos;
      const long long multiple = std::min<long long>(model_detail::kMaxVocab,
                                                     std::max(1LL, PositiveProduct(divisible, tp)));
      if (nemotron_256k) {
        m["vocab_size"] = model_detail::RoundUpToMultiple(256000, multiple);
        b.Note("vocabulary of the nemotron_2_256k SentencePiece model (256000) padded to " +
               m["vocab_size"].dump() + " (multiple of --make-vocab-size-divisible-by × TP = " +
               std::to_string(multiple) + ")");
      } else if (tokenizer == "gpt2bpetokenizer" || (tokenizer.empty() && a.Has("--merge-file"))) {
        // A --merge-file is GPT-2 BPE's (GPT2BPETokenizer is the tokenizer that takes one;
        // Megatron's examples give it without --tokenizer-type).
        a.Get("--merge-file");
        a.Get("--vocab-file");
        m["vocab_size"] = model_detail::RoundUpToMultiple(50257, multiple);  // GPT-2 BPE: 50257
        b.Note("vocabulary of GPT2BPETokenizer (50257) padded to " + m["vocab_size"].dump());
      } else if (p != nullptr) {
        m["vocab_size"] = p->arch.vocab_size;
        b.Note("vocabulary size from the tokenizer path (" + preset + "); check it");
      } else {
        // 32000 (Llama 2 / Mistral) keeps the config estimating until the user gives it.
        m["vocab_size"] = 32000;
        b.Missing("model.vocab_size",
                  "the vocabulary comes from a tokenizer file" +
                      (Trim(path).empty() ? std::string() : " (" + Trim(path) + ")") +
                      "; give --vocab-size or the model's config.json",
                  32000);
      }
    }
    // The model is one config value; the report lists each field with the flag (and line) it
    // came from, and the fields no flag gave as Megatron's defaults.
    b.Set("model", m, a.At("--num-layers"));
    b.report().read.pop_back();
    static const std::map<std::string, std::vector<const char*>> kFieldFlags = {
        {"num_hidden_layers",
         {"--num-layers", "--hybrid-layer-pattern", "--hybrid-override-pattern"}},
        {"hybrid_override_pattern", {"--hybrid-layer-pattern", "--hybrid-override-pattern"}},
        {"mamba_head_dim", {"--mamba-head-dim", "--mamba-headdim"}},
        {"mamba_num_heads",
         {"--mamba-num-heads", "--mamba-head-dim", "--mamba-headdim", "--mamba-expand"}},
        {"num_heads",
         {"--mamba-num-heads", "--mamba-head-dim", "--mamba-headdim", "--mamba-expand"}},
        {"state_size", {"--mamba-state-dim", "--mamba-d-state"}},
        {"ssm_state_size", {"--mamba-state-dim", "--mamba-d-state"}},
        {"n_groups", {"--mamba-num-groups", "--mamba-ngroups"}},
        {"expand", {"--mamba-expand"}},
        {"conv_kernel", {"--mamba-d-conv"}},
        {"chunk_size", {"--mamba-chunk-size"}},
        {"full_attention_interval", {"--full-attention-interval"}},
        {"linear_key_head_dim", {"--linear-key-head-dim"}},
        {"linear_value_head_dim", {"--linear-value-head-dim"}},
        {"linear_num_key_heads", {"--linear-num-key-heads"}},
        {"linear_num_value_heads", {"--linear-num-value-heads"}},
        {"linear_conv_kernel_dim", {"--mamba-d-conv"}},
        {"shared_expert_gate", {"--shared-expert-gate"}},
        {"qk_norm_type", {"--spec"}},
        {"hidden_size", {"--hidden-size"}},
        {"num_attention_heads", {"--num-attention-heads"}},
        {"num_key_value_heads", {"--num-query-groups", "--group-query-attention"}},
        {"head_dim", {"--kv-channels", "--mamba-head-dim", "--mamba-headdim"}},
        {"intermediate_size", {"--ffn-hidden-size"}},
        {"mlp_kind", {"--swiglu", "--geglu", "--gelu-tanh"}},
        {"hidden_act", {"--swiglu", "--geglu", "--gelu-tanh"}},
        {"norm_kind", {"--normalization"}},
        {"qkv_bias", {"--add-qkv-bias", "--disable-bias-linear"}},
        {"o_bias", {"--disable-bias-linear"}},
        {"mlp_bias", {"--disable-bias-linear"}},
        {"qk_norm", {"--qk-layernorm"}},
        {"norms_per_layer", {"--post-norm"}},
        {"sliding_window", {"--interleave-sliding-window"}},
        {"layer_types", {"--interleave-sliding-window", "--num-layers"}},
        {"final_logit_softcapping", {"--output-logit-softcapping"}},
        {"tie_word_embeddings", {"--untie-embeddings-and-output-weights"}},
        {"position_embedding_type",
         {"--position-embedding-type", "--use-rotary-position-embeddings"}},
        {"max_position_embeddings", {"--max-position-embeddings"}},
        {"q_lora_rank", {"--q-lora-rank"}},
        {"kv_lora_rank", {"--kv-lora-rank"}},
        {"qk_nope_head_dim", {"--qk-head-dim"}},
        {"qk_rope_head_dim", {"--qk-pos-emb-head-dim"}},
        {"v_head_dim", {"--v-head-dim"}},
        {"index_n_heads", {"--index-n-heads", "--dsa-indexer-n-heads", "--enable-dsa-indexer"}},
        {"index_head_dim", {"--index-head-dim", "--dsa-indexer-head-dim", "--enable-dsa-indexer"}},
        {"index_topk", {"--index-topk", "--dsa-indexer-topk", "--enable-dsa-indexer"}},
        {"n_routed_experts", {"--num-experts"}},
        {"num_experts_per_tok", {"--moe-router-topk"}},
        {"moe_intermediate_size", {"--moe-ffn-hidden-size"}},
        {"n_shared_experts", {"--n-shared-experts", "--moe-shared-expert-intermediate-size"}},
        {"shared_expert_intermediate_size", {"--moe-shared-expert-intermediate-size"}},
        {"router_bias", {"--moe-router-enable-expert-bias"}},
        {"mlp_only_layers", {"--moe-layer-freq", "--first-k-dense-replace"}},
        {"num_nextn_predict_layers", {"--mtp-num-layers"}},
        {"vocab_size", {"--padded-vocab-size", "--vocab-size"}},
    };
    for (const auto& [field, value] : m.items()) {
      if (field == "model_type" || field == "decoder_sparse_step" ||
          field == "first_k_dense_replace" || field == "moe_layer_freq")
        continue;  // internal: how the shape is spelled for the estimator
      bool missing = false;
      for (const ImportMissing& mi : b.report().missing) missing |= mi.key == "model." + field;
      if (missing) continue;  // listed as missing, with the value assumed
      Source src{file.name, 0, "(Megatron default / derived)"};
      if (auto it = kFieldFlags.find(field); it != kFieldFlags.end())
        for (const char* flag : it->second)
          if (a.Has(flag)) {
            src = a.At(flag);
            break;
          }
      b.report().read.push_back({"model." + field, value, src.text, src.file, src.line});
    }
    // Virtual stages are counted over the layer slots, placeholders and the embedding / loss
    // slots included (Megatron builds chunk c from slots [c·per, (c+1)·per)); a split that does
    // not divide runs the default interleaving (2 chunks per rank).
    if (const json* lps = b.Get("parallelism.pipeline_parallel_layers_per_stage");
        !layout_set && !uneven_virtual && !hybrid_split && lps && lps->is_number_integer() &&
        lps->get<long long>() > 0) {
      const long long per = lps->get<long long>();
      const long long slots = layers + static_cast<long long>(noop_slots.size()) + extra_slots;
      if (slots % per != 0 || (slots / per) % std::max(1LL, pp) != 0) {
        b.Erase("parallelism.pipeline_parallel_layers_per_stage");
        b.Note(std::to_string(slots) + " layers do not split into virtual stages of " +
               std::to_string(per) + " over PP " + std::to_string(pp) +
               "; the interleaved schedule is estimated with 2 chunks per rank");
      }
    }
    for (const char* used : {"--num-layers",
                             "--hidden-size",
                             "--num-attention-heads",
                             "--num-query-groups",
                             "--kv-channels",
                             "--ffn-hidden-size",
                             "--normalization",
                             "--position-embedding-type",
                             "--max-position-embeddings",
                             "--q-lora-rank",
                             "--kv-lora-rank",
                             "--qk-head-dim",
                             "--qk-pos-emb-head-dim",
                             "--v-head-dim",
                             "--index-n-heads",
                             "--index-head-dim",
                             "--index-topk",
                             "--dsa-indexer-n-heads",
                             "--dsa-indexer-head-dim",
                             "--dsa-indexer-topk",
                             "--num-experts",
                             "--moe-router-topk",
                             "--moe-ffn-hidden-size",
                             "--n-shared-experts",
                             "--moe-shared-expert-intermediate-size",
                             "--moe-layer-freq",
                             "--first-k-dense-replace",
                             "--mtp-num-layers",
                             "--padded-vocab-size",
                             "--vocab-size",
                             "--make-vocab-size-divisible-by",
                             "--noop-layers",
                             "--tokenizer-type",
                             "--tokenizer-model",
                             "--tokenizer-name-or-path"})
      a.Get(used);
  }
  // Expert tensor parallelism (MoE parallel folding): Megatron's default is the dense tensor
  // parallel size (megatron/training/arguments.py: `if args.expert_tensor_parallel_size is None:
  // args.expert_tensor_parallel_size = args.tensor_model_parallel_size`), so without the flag
  // each expert is split over TP ranks; trainmem's own default is 1. Before the option existed
  // (core_r0.9) MoE layers always used TP (MindSpeed-LLM's mixtral_mcore_tp4_ep2 CI run: per-rank
  // memory matches experts split 4 ways). MindSpeed-LLM's legacy (non-mcore) MoE is a different
  // implementation and keeps trainmem's default. Without experts the flag only names process
  // groups no weight lives in: it is left out rather than refused.
  {
    const bool legacy_model =
        a.Has("--use-legacy-models") || (npu_script && !a.Has("--use-mcore-models"));
    long long experts = a.Int("--num-experts").value_or(0);
    for (const char* key :
         {"model.n_routed_experts", "model.num_experts", "model.num_local_experts"})
      if (const json* n = b.Get(key); n && n->is_number_integer())
        experts = std::max(experts, n->get<long long>());
    // The model is known to be dense only when the script describes it (no config.json).
    const bool dense = experts <= 0 && b.Get("model.hidden_size") != nullptr;
    if (dense && b.Get("parallelism.expert_tensor_parallel_degree") != nullptr) {
      b.Erase("parallelism.expert_tensor_parallel_degree");
      b.Note(a.At("--expert-tensor-parallel-size").text +
             " has no effect on a model without experts; left out");
    } else if (experts > 0 && !a.Has("--expert-tensor-parallel-size") && tp > 1 && !legacy_model) {
      b.Set("parallelism.expert_tensor_parallel_degree", tp,
            {file.name, 0, "(Megatron default: --expert-tensor-parallel-size = TP)"});
    }
  }
  // Each pipeline rank's layer slots, then its real layers (placeholders taken out), written as
  // the per-rank list the config holds. Slots per rank:
  // - uneven first / last stages (megatron/core/transformer/transformer_block.py
  //   get_num_layers_to_build): the first and/or last rank get the given counts, the other
  //   ranks split the rest evenly; only without virtual stages (with them the counts are per
  //   virtual stage);
  // - MindSpeed's --num-layer-list (mindspeed/core/transformer/transformer_block.py: one count
  //   per rank, summing to --num-layers);
  // - otherwise the even split; with virtual stages of `per` slots chunk c on rank c mod PP;
  //   with the V schedule chunk c of 2·PP on rank c or 2·PP − 1 − c.
  const long long slots = a.Int("--num-layers").value_or(0);
  std::vector<long long> slot_list;
  Source split_source{file.name, 0, "(derived)"};
  const json* lps_set = b.Get("parallelism.pipeline_parallel_layers_per_stage");
  const long long per_chunk =
      lps_set && lps_set->is_number_integer() ? lps_set->get<long long>() : 0;
  if ((a.Has("--decoder-first-pipeline-num-layers") ||
       a.Has("--decoder-last-pipeline-num-layers")) &&
      pp > 1 &&
      (uneven_virtual || (per_chunk == 0 && !a.Has("--num-virtual-stages-per-pipeline-rank")))) {
    const std::optional<long long> first = a.Int("--decoder-first-pipeline-num-layers");
    const std::optional<long long> last = a.Int("--decoder-last-pipeline-num-layers");
    // Each count within the model before adding them (a hostile value cannot overflow).
    const bool sane = first.value_or(0) >= 0 && last.value_or(0) >= 0 &&
                      first.value_or(0) <= slots && last.value_or(0) <= slots - first.value_or(0);
    const long long fixed = sane ? first.value_or(0) + last.value_or(0) : -1;
    const long long others = pp - (first ? 1 : 0) - (last ? 1 : 0);
    const bool fits = sane && slots > 0 && slots <= model_detail::kMaxLayers && pp <= slots &&
                      fixed <= slots &&
                      (others > 0 ? (slots - fixed) % others == 0 : fixed == slots);
    if (fits) {
      const long long middle = others > 0 ? (slots - fixed) / others : 0;
      for (long long r = 0; r < pp; ++r)
        slot_list.push_back(r == 0 && first ? *first : r == pp - 1 && last ? *last : middle);
      split_source = a.At(first ? "--decoder-first-pipeline-num-layers"
                                : "--decoder-last-pipeline-num-layers");
    } else {
      b.Note("--decoder-first/last-pipeline-num-layers do not split " + std::to_string(slots) +
             " layers over PP " + std::to_string(pp) + "; the even split is estimated");
    }
  }
  if (extra_slots > 0 && pp > 1 && slot_list.empty() && !layout_set &&
      !a.Has("--decoder-first-pipeline-num-layers") &&
      !a.Has("--decoder-last-pipeline-num-layers")) {
    a.Get("--account-for-embedding-in-pipeline-split");
    a.Get("--account-for-loss-in-pipeline-split");
    const long long total = slots + extra_slots;
    if (slots > 0 && slots <= model_detail::kMaxLayers && pp <= slots && total % pp == 0) {
      const long long per_rank = total / pp;
      for (long long r = 0; r < pp; ++r)
        slot_list.push_back(per_rank - (r == 0 ? embedding_slot : 0) -
                            (r == pp - 1 ? loss_slot : 0));
      split_source = a.At(embedding_slot ? "--account-for-embedding-in-pipeline-split"
                                         : "--account-for-loss-in-pipeline-split");
    } else {
      b.Note("--account-for-embedding/loss-in-pipeline-split: " + std::to_string(total) +
             " slots do not divide over PP " + std::to_string(pp) +
             " (Megatron refuses that); the even split is estimated");
    }
  }
  if (a.Has("--num-layer-list")) {
    const std::string text = a.Value("--num-layer-list");
    std::vector<long long> list;
    long long sum = 0;
    for (const std::string& item : Words(text, ",")) {
      const std::optional<long long> n = ParseInteger(Trim(item));
      if (!n || *n < 0 || *n > slots - sum) {  // sum stays ≤ slots: no overflow
        list.clear();
        break;
      }
      list.push_back(*n);
      sum += *n;
    }
    if (pp > 1 && static_cast<long long>(list.size()) == pp && sum == slots && per_chunk == 0) {
      slot_list = list;
      split_source = a.At("--num-layer-list");
    } else {
      b.Ignore(a.At("--num-layer-list"),
               "not one layer count per pipeline rank adding up to --num-layers " +
                   std::to_string(slots) +
                   " (or used with virtual stages); the even split is "
                   "estimated");
    }
  }
  // MindSpeed's --schedules-method dualpipev (mindspeed/core/pipeline_parallel/dualpipev):
  // 2·PP chunks in a V, rank r holding chunks r and 2·PP − 1 − r.
  // Only for a model and pipeline of a size the estimate accepts (the config check refuses the
  // rest with its own message), so the walk over the slots stays short.
  const bool sized = pp > 1 && slots > 0 && slots <= model_detail::kMaxLayers && pp <= slots;
  const json* schedule = b.Get("parallelism.pipeline_parallel_schedule");
  const bool v_shape = sized && schedule && *schedule == "ZBVZeroBubble" && slot_list.empty() &&
                       per_chunk == 0 && slots % (2 * pp) == 0;
  if (sized && (!slot_list.empty() || !noop_slots.empty())) {
    std::vector<long long> real(static_cast<std::size_t>(pp), 0);
    long long list_rank = 0, list_end = slot_list.empty() ? 0 : slot_list[0];
    for (long long slot = 0; slot < slots; ++slot) {
      long long rank = 0;
      if (!slot_list.empty()) {
        while (slot >= list_end && list_rank + 1 < pp)
          list_end += slot_list[static_cast<std::size_t>(++list_rank)];
        rank = list_rank;
      } else if (per_chunk > 0) {
        rank = (slot / per_chunk) % pp;
      } else if (v_shape) {
        const long long chunk = slot / (slots / (2 * pp));
        rank = chunk < pp ? chunk : 2 * pp - 1 - chunk;
      } else {
        rank = std::min(pp - 1, slot / std::max(1LL, slots / pp));
      }
      if (noop_slots.count(slot) == 0) ++real[static_cast<std::size_t>(rank)];
    }
    json list = json::array();
    std::string shown;
    for (long long n : real) {
      list.push_back(n);
      shown += (shown.empty() ? "" : ", ") + std::to_string(n);
    }
    if (!noop_slots.empty()) {
      split_source = a.At("--noop-layers");
      b.Note("real layers per pipeline rank, placeholders taken out: " + shown +
             (per_chunk > 0 ? " (virtual stages of " + std::to_string(per_chunk) +
                                  " slots; a rank's short virtual stages count as whole ones)"
                            : ""));
    }
    b.Set("parallelism.pipeline_parallel_layer_list", list, split_source);
  }
  // Everything else: named, with why it is left out.
  for (const std::string& flag : a.Unused()) b.Ignore(a.At(flag), UnusedFlagReason(flag));
  if (!script.found_launch && words.empty())
    b.Problem(file.name +
              ": no Megatron arguments found (no pretrain_*.py launch and no *ARGS* "
              "variables)");
}

}  // namespace trainmem::import_detail
