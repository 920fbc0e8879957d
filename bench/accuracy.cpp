// Accuracy against measured peaks: reads calibration rows (JSON lines with `id`, `config`,
// `measured` {metric, peak_gib, stage}) and prints estimate vs measurement, the median and p90
// of |estimate − measured| / measured, by family, on all rows and on the held-out split.
//
// Like with like (reference/README.md): `reserved` ↔ total (worst stage); `max_allocated` ↔
// peak_allocated of the stage measured (`last` = the last pipeline stage, `max` = the largest);
// `active` ↔ peak_allocated. MindSpeed-LLM's CI rows (ids `msllm-`, or `measured.iteration` 1)
// log max_allocated after the FIRST iteration, before the first optimizer step has created
// Adam's states: they are compared with first_iteration_peak_allocated.
//
// Rows whose measured recipe their config does not express (NVFP4 matmuls without
// training.nvfp4_layers) are listed as "apart" and left out of every figure, band and guard:
// they measure a recipe, not the estimator's error on what it models. So are rows marked
// `"ambiguous": true`, whose figure cannot be the run its config describes (each says why in
// its notes: a maximum copied between two CI cases, an allocated figure below the model's own
// weights, batches padded only to their longest sample).
//
// The rows: tests/data/calibration.jsonl (published runs of every framework), megatron_ci.jsonl
// (Megatron-LM's functional tests on H100, tools/megatron_ci_rows.py), mindspeed_ci.jsonl
// (MindSpeed-LLM's CI on Ascend 910B, tools/mindspeed_ci_rows.py), torchtitan_runs.jsonl
// (current torchtitan on 8×B200: Qwen3-30B-A3B and GPT-OSS sweeps whose config registries
// record each job's peak), mindspeed_fsdp2_runs.jsonl (MindSpeed-LLM's FSDP2 trainer, runs
// its documents log) and deepspeed_runs.jsonl (DeepSpeed jobs with published logs); all six by
// default.
//
// Held-out split, fixed before any error was looked at: a row is held out when the 32-bit
// FNV-1a hash of its id is 0 mod 3. The error bands (core/estimate/accuracy_bands.inc) come from
// the other rows; the README reports the held-out rows.
//
//   trainmem_accuracy [ROWS.jsonl ...]                (default: the six files above)
//   trainmem_accuracy --guard FILE [ROWS.jsonl ...]   fail when the median |error| is more than
//                                                     one point above FILE's recorded figure
//   trainmem_accuracy --record FILE [ROWS.jsonl ...]  write the figures to FILE
//   trainmem_accuracy --write-bands FILE [ROWS...]    write core/estimate/accuracy_bands.inc
//
// Re-recording after an estimator change (one line, from the repository root):
//   build/native-release/trainmem_accuracy --record tests/data/accuracy_guard.json
//     --write-bands src/core/estimate/accuracy_bands.inc          (then rebuild)
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/config/config.h"
#include "core/estimate/accuracy.h"
#include "core/estimate/estimate.h"
#include "data/builtin_presets.h"

namespace {

using nlohmann::json;

std::int64_t Stage(const trainmem::Estimate& e, const std::string& stage, bool first_iteration) {
  auto pick = [&](const trainmem::StageEstimate& s) {
    return first_iteration ? s.bytes.first_iteration_peak_allocated : s.bytes.peak_allocated;
  };
  if (stage == "last" && !e.stages.empty()) return pick(e.stages.back());
  std::int64_t best = 0;
  for (const auto& s : e.stages) best = std::max(best, pick(s));
  return best;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double idx = p * static_cast<double>(v.size() - 1);
  std::size_t lo = static_cast<std::size_t>(std::floor(idx));
  std::size_t hi = static_cast<std::size_t>(std::ceil(idx));
  return v[lo] + (v[hi] - v[lo]) * (idx - static_cast<double>(lo));
}

std::uint32_t Fnv1a(const std::string& text) {
  std::uint32_t h = 2166136261u;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 16777619u;
  }
  return h;
}

bool HeldOut(const std::string& id) { return Fnv1a(id) % 3 == 0; }

struct Row {
  std::string id, family, metric;
  bool held_out = false;
  bool apart = false;  // a recipe the config cannot express: listed, not counted
  double error = 0;    // signed, fraction
};

struct Figures {
  int rows = 0;
  double median = 0, p90 = 0;
  double above = 0;  // 90th percentile of max(0, measured / estimate − 1)
  double below = 0;  // 90th percentile of max(0, 1 − measured / estimate)
  int under_10 = 0;  // under-estimated by more than 10%
};

Figures FiguresOf(const std::vector<Row>& rows, bool (*keep)(const Row&)) {
  std::vector<double> abs, above, below;
  Figures f;
  for (const Row& r : rows) {
    if (r.apart || !keep(r)) continue;
    abs.push_back(std::fabs(r.error));
    // error = (estimate − measured) / measured, so measured / estimate = 1 / (1 + error).
    const double ratio = 1 / (1 + r.error);
    above.push_back(std::max(0.0, ratio - 1));
    below.push_back(std::max(0.0, 1 - ratio));
    if (r.error < -0.10) ++f.under_10;
  }
  f.rows = static_cast<int>(abs.size());
  f.median = Percentile(abs, 0.5);
  f.p90 = Percentile(abs, 0.9);
  f.above = Percentile(above, 0.9);
  f.below = Percentile(below, 0.9);
  return f;
}

void PrintFigures(const char* name, const Figures& f) {
  fmt::print("{:<34} rows {:2}  median |error| {:5.1f}%  p90 {:5.1f}%  under by >10%: {}\n", name,
             f.rows, 100 * f.median, 100 * f.p90, f.under_10);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  std::string guard, record, bands_out;
  CLI::App app("Estimates against measured peaks: median and p90 |error|, by family",
               "trainmem_accuracy");
  app.add_option("ROWS.jsonl", files,
                 "measured rows (default: tests/data/calibration.jsonl, megatron_ci.jsonl, "
                 "mindspeed_ci.jsonl, torchtitan_runs.jsonl, mindspeed_fsdp2_runs.jsonl, "
                 "deepspeed_runs.jsonl)")
      ->type_name("");
  app.add_option("--guard", guard, "fail when the median |error| is over FILE's recorded one + 1")
      ->type_name("FILE");
  app.add_option("--record", record, "write the figures to FILE")->type_name("FILE");
  app.add_option("--write-bands", bands_out, "write core/estimate/accuracy_bands.inc to FILE")
      ->type_name("FILE");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help on stdout; a mistake on stderr, exit code 2
  }
  if (files.empty())
    for (const char* name :
         {"calibration.jsonl", "megatron_ci.jsonl", "mindspeed_ci.jsonl", "torchtitan_runs.jsonl",
          "mindspeed_fsdp2_runs.jsonl", "deepspeed_runs.jsonl"})
      files.emplace_back(std::string(TRAINMEM_TEST_DATA_DIR) + "/" + name);
  const trainmem::Presets presets = trainmem::BuiltinPresets();
  std::vector<Row> rows;
  int failed = 0;
  fmt::print("{:<58} {:<10} {:<8} {:<13} {:>10} {:>10} {:>8}\n", "run", "family", "split", "metric",
             "measured", "estimate", "error");
  for (const std::string& path : files) {
    std::ifstream in(path);
    if (!in) {
      fmt::print(stderr, "cannot read {}\n", path);
      return 2;
    }
    std::string line;
    while (std::getline(in, line)) {
      json row = json::parse(line, nullptr, false);
      if (row.is_discarded() || !row.is_object()) continue;
      const std::string id = row.value("id", "?");
      auto config = trainmem::ConfigFromJson(row["config"], presets);
      if (!config.ok()) {
        fmt::print("{:<58} config error: {}\n", id, trainmem::FormatError(config.errors().front()));
        ++failed;
        continue;
      }
      const json& m = row["measured"];
      const std::string metric = m.value("metric", "reserved");
      const double measured = m.value("peak_gib", 0.0) * 1073741824.0;
      const bool first_iteration =
          metric == "max_allocated" && (id.rfind("msllm-", 0) == 0 || m.value("iteration", 0) == 1);
      const trainmem::Estimate e = trainmem::EstimateMemory(config.value());
      const double estimate =
          metric == "reserved"
              ? static_cast<double>(e.per_device.total)
              : static_cast<double>(Stage(e, m.value("stage", "max"), first_iteration));
      Row r;
      r.id = id;
      r.family = trainmem::AccuracyFamily(config.value());  // a static string
      r.metric = first_iteration ? "alloc@iter1" : metric;
      r.held_out = HeldOut(id);
      std::string precision = row.value("precision", "");
      for (char& ch : precision)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      const bool nvfp4_unset =
          precision.find("nvfp4") != std::string::npos && config.value().training.nvfp4_layers == 0;
      r.apart = nvfp4_unset || row.value("ambiguous", false);
      r.error = measured > 0 ? (estimate - measured) / measured : 0;
      rows.push_back(r);
      fmt::print("{:<58} {:<10} {:<8} {:<13} {:7.2f} GiB {:7.2f} GiB {:+7.1f}%\n", id, r.family,
                 r.apart      ? "apart"
                 : r.held_out ? "held-out"
                              : "fit",
                 r.metric, measured / 1073741824.0, estimate / 1073741824.0, 100 * r.error);
    }
  }
  fmt::print("\n");
  const Figures all = FiguresOf(rows, [](const Row&) { return true; });
  const Figures held = FiguresOf(rows, [](const Row& r) { return r.held_out; });
  PrintFigures("all rows", all);
  PrintFigures("held-out rows", held);
  std::map<std::string, std::vector<Row>> by_family;
  for (const Row& r : rows) by_family[r.family].push_back(r);
  json bands = json::object();
  std::string inc =
      "// family, runs, median |error|, above, below (90th percentiles of how far measured peaks\n"
      "// rose above / fell below their estimates, as fractions of the estimate) over the rows of\n"
      "// tests/data/{calibration,megatron_ci,mindspeed_ci}.jsonl that are not held out. Written\n"
      "// by trainmem_accuracy --write-bands; do not edit by hand.\n";
  for (const auto& [family, family_rows] : by_family) {
    const Figures f = FiguresOf(family_rows, [](const Row&) { return true; });
    const Figures fit = FiguresOf(family_rows, [](const Row& r) { return !r.held_out; });
    const Figures h = FiguresOf(family_rows, [](const Row& r) { return r.held_out; });
    PrintFigures(("  " + family + ", all").c_str(), f);
    PrintFigures(("  " + family + ", fit").c_str(), fit);
    PrintFigures(("  " + family + ", held-out").c_str(), h);
    inc += fmt::format("{{\"{}\", {}, {:.4f}, {:.4f}, {:.4f}}},\n", family, fit.rows, fit.median,
                       fit.above, fit.below);
  }
  fmt::print("\nrows {}, config errors {}, median |error| {:.1f}%, p90 |error| {:.1f}%\n", all.rows,
             failed, 100 * all.median, 100 * all.p90);

  const double median_pct = std::round(1000 * all.median) / 10;
  const double held_pct = std::round(1000 * held.median) / 10;
  if (!record.empty()) {
    json j = {{"rows", all.rows},
              {"median_abs_error_percent", median_pct},
              {"held_out_median_abs_error_percent", held_pct},
              {"p90_abs_error_percent", std::round(1000 * all.p90) / 10},
              {"tolerance_points", 1.0}};
    std::ofstream out(record);
    out << j.dump(2) << "\n";
    if (!out) return 2;
    fmt::print("recorded {}\n", record);
  }
  if (!bands_out.empty()) {
    std::ofstream out(bands_out);
    out << inc;
    if (!out) return 2;
    fmt::print("wrote {} (rebuild to use it)\n", bands_out);
  }
  if (failed > 0) return 1;
  if (!guard.empty()) {
    std::ifstream in(guard);
    json g = json::parse(in, nullptr, false);
    if (g.is_discarded() || !g.is_object()) {
      fmt::print(stderr, "cannot read the recorded figures in {}\n", guard);
      return 2;
    }
    const double recorded = g.value("median_abs_error_percent", 0.0);
    const double tolerance = g.value("tolerance_points", 1.0);
    const bool ok = median_pct <= recorded + tolerance;
    fmt::print("accuracy guard: median |error| {:.1f}% vs recorded {:.1f}% (+{:.1f} allowed): {}\n",
               median_pct, recorded, tolerance, ok ? "ok" : "REGRESSED");
    if (!ok) return 1;
  }
  return 0;
}
