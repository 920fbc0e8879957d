// The seed's advice ladder ("Budget check"): when the estimate does not fit, try in order
//   1) activation checkpointing (selective, then full), 2) swap_optimizer,
//   3) more TP / PP / EP (valid values only), 4) smaller local_batch_size / seq_len,
// each step on top of the previous ones, stopping at the first that fits; then the cheapest
// combination that fits, by a documented cost proxy.
#include <algorithm>
#include <functional>
#include <string>

#include "core/estimate.h"

namespace trainmem {
namespace {

using Changes = std::vector<std::pair<std::string, std::string>>;

struct Candidate {
  Config config;
  Changes changes;
};

void Set(Candidate& c, const std::string& key, const std::string& value) {
  for (auto& kv : c.changes) {
    if (kv.first == key) {
      kv.second = value;
      return;
    }
  }
  c.changes.emplace_back(key, value);
}

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

bool FrameworkSwaps(Framework f) {
  // swap_optimizer is torchtitan-npu's (from MindSpeed's --swap-optimizer, hence Megatron on
  // Ascend); elsewhere the equivalent move is host offload of the optimizer.
  return f == Framework::kTorchtitanNpu || f == Framework::kMegatron;
}

// swap_optimizer where the framework has it, else host offload of the optimizer states.
bool MoveOptimizerOffDevice(Candidate& c) {
  Optimizer& o = c.config.optimizer;
  if (o.swap_optimizer || o.offload) return false;
  if (FrameworkSwaps(c.config.framework)) {
    o.swap_optimizer = true;
    Set(c, "optimizer.swap_optimizer", "true");
  } else {
    o.offload = true;
    Set(c, "optimizer.offload", "true");
  }
  return true;
}

// The next larger degree (×2) that keeps the config valid, or 0.
std::int64_t NextDegree(const Config& base, const std::function<void(Config&, std::int64_t)>& set,
                        std::int64_t current) {
  for (std::int64_t d = current * 2; d <= base.world_size && d <= 1024; d *= 2) {
    Config c = base;
    set(c, d);
    if (c.parallelism.dp_shard != -1) c.parallelism.dp_shard = -1;  // re-derive the leftover
    if (ValidateConfig(c).empty()) return d;
  }
  return 0;
}

struct Step {
  std::string action;
  std::function<bool(Candidate&)> apply;  // false = not applicable
};

std::vector<Step> Ladder() {
  std::vector<Step> steps;
  steps.push_back({"enable selective activation checkpointing", [](Candidate& c) {
                     if (c.config.activation_checkpoint.mode != AcMode::kNone) return false;
                     c.config.activation_checkpoint.mode = AcMode::kSelective;
                     c.config.activation_checkpoint.selective_ac_option = "op";
                     Set(c, "activation_checkpoint.mode", Quoted("selective"));
                     Set(c, "activation_checkpoint.selective_ac_option", Quoted("op"));
                     return true;
                   }});
  steps.push_back({"enable full activation checkpointing", [](Candidate& c) {
                     if (c.config.activation_checkpoint.mode == AcMode::kFull) return false;
                     c.config.activation_checkpoint.mode = AcMode::kFull;
                     Set(c, "activation_checkpoint.mode", Quoted("full"));
                     return true;
                   }});
  steps.push_back({"", MoveOptimizerOffDevice});
  auto degree_step = [](const char* key, std::int64_t Parallelism::*field) {
    return [key, field](Candidate& c) {
      auto set = [field](Config& cfg, std::int64_t d) { cfg.parallelism.*field = d; };
      std::int64_t next = NextDegree(c.config, set, c.config.parallelism.*field);
      if (next == 0) return false;
      set(c.config, next);
      if (c.config.parallelism.dp_shard != -1) {
        c.config.parallelism.dp_shard = -1;
        Set(c, "parallelism.data_parallel_shard_degree", "-1");
      }
      Set(c, key, std::to_string(next));
      return true;
    };
  };
  steps.push_back({"raise tensor parallelism",
                   degree_step("parallelism.tensor_parallel_degree", &Parallelism::tp)});
  steps.push_back({"raise pipeline parallelism",
                   degree_step("parallelism.pipeline_parallel_degree", &Parallelism::pp)});
  steps.push_back({"raise expert parallelism",
                   degree_step("parallelism.expert_parallel_degree", &Parallelism::ep)});
  return steps;
}

std::string StepName(const Step& step, const Candidate& c) {
  if (!step.action.empty()) return step.action;
  return c.config.optimizer.swap_optimizer ? "enable swap_optimizer"
                                           : "offload optimizer states to the host";
}

Recommendation Evaluate(const std::string& action, const Candidate& c) {
  Estimate e = EstimateMemory(c.config);
  Recommendation r;
  r.action = action;
  r.changes = c.changes;
  r.total_bytes = e.per_device.total;
  r.fits = e.budget.fits;  // an invalid config leaves the budget unset: fits is false
  return r;
}

// Halving batch, then sequence length, until it fits or reaches the floor.
bool ShrinkUntilFits(Candidate& c, std::vector<Recommendation>& out) {
  while (c.config.training.local_batch_size > 1) {
    std::int64_t mbs = c.config.parallelism.pp > 1 ? c.config.parallelism.pp_microbatch_size : 1;
    std::int64_t next = std::max<std::int64_t>(mbs, c.config.training.local_batch_size / 2);
    if (next == c.config.training.local_batch_size) break;
    c.config.training.local_batch_size = next;
    Set(c, "training.local_batch_size", std::to_string(next));
    out.push_back(Evaluate("reduce local_batch_size to " + std::to_string(next), c));
    if (out.back().fits) return true;
  }
  while (c.config.training.seq_len >= 1024) {
    Candidate next = c;
    next.config.training.seq_len /= 2;
    if (!ValidateConfig(next.config).empty()) break;
    c = next;
    Set(c, "training.seq_len", std::to_string(c.config.training.seq_len));
    out.push_back(Evaluate("reduce seq_len to " + std::to_string(c.config.training.seq_len), c));
    if (out.back().fits) return true;
  }
  return false;
}

// The cheapest combination that fits. Cost proxy (lower is better), roughly the throughput a
// practitioner gives up: selective AC 1, full AC 3 (≈ one extra forward), swap/offload 1,
// each TP doubling 2 inside a node and 6 across nodes, each PP doubling 2 (bubbles), each EP
// doubling 1, each batch halving 3 (fewer tokens per step). Ties go to the smaller total.
struct Choice {
  double cost = 0;
  Candidate candidate;
  std::int64_t total = 0;
};

std::vector<std::int64_t> Doublings(const Config& c, std::int64_t Parallelism::*field,
                                    int max_steps) {
  std::vector<std::int64_t> out{c.parallelism.*field};
  for (int i = 0; i < max_steps; ++i) {
    Config probe = c;
    probe.parallelism.*field = out.back();
    std::int64_t next = NextDegree(
        probe, [field](Config& cfg, std::int64_t d) { cfg.parallelism.*field = d; }, out.back());
    if (next == 0) break;
    out.push_back(next);
  }
  return out;
}

double DegreeCost(std::int64_t from, std::int64_t to, double per_step) {
  double steps = 0;
  for (std::int64_t d = from; d < to; d *= 2) steps += 1;
  return steps * per_step;
}

void ConsiderCombination(const Candidate& cand, double cost, Choice& best, bool& found) {
  if (found && cost > best.cost) return;
  Estimate e = EstimateMemory(cand.config);
  if (!e.budget.fits || e.per_device.total == 0) return;
  if (!found || cost < best.cost || (cost == best.cost && e.per_device.total < best.total)) {
    best = {cost, cand, e.per_device.total};
    found = true;
  }
}

}  // namespace

namespace {

struct Levers {
  int ac = 0;  // AcMode as int: none 0, selective 1, full 2
  bool move_optimizer = false;
  std::int64_t tp = 1, pp = 1, ep = 1;
  int batch_halvings = 0;
};

// The config with these levers pulled, and its cost (see the proxy above); false when the
// combination is invalid.
bool BuildCombination(const Config& config, const Levers& v, Candidate& c, double& cost) {
  const Parallelism& now = config.parallelism;
  const int ac_now = static_cast<int>(config.activation_checkpoint.mode);
  c = Candidate{config, {}};
  cost = 0;
  if (v.ac != ac_now) {
    const AcMode mode = static_cast<AcMode>(v.ac);
    c.config.activation_checkpoint.mode = mode;
    Set(c, "activation_checkpoint.mode", Quoted(AcModeName(mode)));
    if (mode == AcMode::kSelective) {
      c.config.activation_checkpoint.selective_ac_option = "op";
      Set(c, "activation_checkpoint.selective_ac_option", Quoted("op"));
    }
    cost += mode == AcMode::kSelective ? 1 : 3;
  }
  if (v.move_optimizer) {
    if (!MoveOptimizerOffDevice(c)) return false;
    cost += 1;
  }
  if (v.tp != now.tp || v.pp != now.pp || v.ep != now.ep) {
    c.config.parallelism.tp = v.tp;
    c.config.parallelism.pp = v.pp;
    c.config.parallelism.ep = v.ep;
    c.config.parallelism.dp_shard = -1;
    Set(c, "parallelism.data_parallel_shard_degree", "-1");
    if (v.tp != now.tp) Set(c, "parallelism.tensor_parallel_degree", std::to_string(v.tp));
    if (v.pp != now.pp) Set(c, "parallelism.pipeline_parallel_degree", std::to_string(v.pp));
    if (v.ep != now.ep) Set(c, "parallelism.expert_parallel_degree", std::to_string(v.ep));
    if (!ValidateConfig(c.config).empty()) return false;
    const std::int64_t per_node = std::max<std::int64_t>(1, config.device.devices_per_node);
    cost += DegreeCost(now.tp, v.tp, v.tp > per_node ? 6 : 2) + DegreeCost(now.pp, v.pp, 2) +
            DegreeCost(now.ep, v.ep, 1);
  }
  if (v.batch_halvings > 0) {
    const std::int64_t b = config.training.local_batch_size >> v.batch_halvings;
    if (b < 1 || (v.pp > 1 && b % c.config.parallelism.pp_microbatch_size != 0)) return false;
    c.config.training.local_batch_size = b;
    Set(c, "training.local_batch_size", std::to_string(b));
    cost += 3.0 * v.batch_halvings;
  }
  return true;
}

}  // namespace

Recommendation CheapestFit(const Config& config) {
  const auto tps = Doublings(config, &Parallelism::tp, 4);
  const auto pps = Doublings(config, &Parallelism::pp, 4);
  const auto eps = config.model.num_experts > 0 ? Doublings(config, &Parallelism::ep, 4)
                                                : std::vector<std::int64_t>{config.parallelism.ep};
  Choice best;
  bool found = false;
  Levers v;
  for (v.ac = static_cast<int>(config.activation_checkpoint.mode); v.ac <= 2; ++v.ac)
    for (int move = 0; move <= 1; ++move)
      for (std::int64_t tp : tps)
        for (std::int64_t pp : pps)
          for (std::int64_t ep : eps)
            for (v.batch_halvings = 0; v.batch_halvings <= 3; ++v.batch_halvings) {
              v.move_optimizer = move == 1;
              v.tp = tp;
              v.pp = pp;
              v.ep = ep;
              Candidate c;
              double cost = 0;
              if (BuildCombination(config, v, c, cost)) ConsiderCombination(c, cost, best, found);
            }
  if (!found) return Recommendation{};
  return Evaluate("cheapest combination that fits", best.candidate);
}

std::vector<Recommendation> AdviceLadder(const Config& config) {
  std::vector<Recommendation> out;
  Candidate c{config, {}};
  for (const Step& step : Ladder()) {
    Candidate next = c;
    if (!step.apply(next)) continue;
    c = next;
    out.push_back(Evaluate(StepName(step, c), c));
    if (out.back().fits) return out;
  }
  ShrinkUntilFits(c, out);
  return out;
}

Estimate EstimateWithAdvice(const Config& config) {
  Estimate e = EstimateMemory(config);
  if (!e.budget.fits && e.per_device.total > 0) {
    e.recommendations = AdviceLadder(config);
    Recommendation cheapest = CheapestFit(config);
    if (!cheapest.changes.empty()) e.recommendations.push_back(cheapest);
  }
  return e;
}

}  // namespace trainmem
