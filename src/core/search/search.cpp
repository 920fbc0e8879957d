// SearchLayouts: which configs to ask ValidateConfig and EstimateMemory about, in which order.
//
// [SECTION] candidates  — a candidate is 16 bytes: its cost and a key of divisor indices.
// [SECTION] enumeration — degree tuples whose product is world_size, pruned only by conditions
//           ValidateConfig also requires (tp | heads, pp ≤ layers, 2·cp | seq_len, ep | experts,
//           ep | the ranks EP borrows), each tuple then confirmed by ValidateConfig, the one
//           source of truth for validity. search_test.cpp checks the result against a brute force
//           over every 7-tuple of divisors.
// [SECTION] evaluation  — the cost proxy needs no estimate, so candidates are estimated cheapest
//           first. With a limit that is the fast path: a min-heap yields candidates in cost
//           order and estimation stops once `limit` layouts fit and only costlier candidates
//           remain. It never changes which layouts are returned, only how many estimates it
//           takes (measured in bench/search_bench.cpp).
// [SECTION] messages    — one line saying what was found, or why nothing was.
#include "core/search/search.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/report/report.h"
#include "core/search/search_detail.h"

namespace trainmem {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] candidates
// ---------------------------------------------------------------------------------------------

// `key` packs, most significant first, the indices into the divisors of world_size of
// dp_replicate, dp_shard, tp, pp, cp, ep, etp (8 bits each: no world size up to kMaxWorldSize has
// more than 240 divisors; divisors ascend, so key order is lexicographic degree order), then the
// AC variant (4 bits) and the optimizer variant (4 bits).
struct Candidate {
  double cost = 0;
  std::uint64_t key = 0;
};

bool CheaperCandidate(const Candidate& a, const Candidate& b) {
  return a.cost != b.cost ? a.cost < b.cost : a.key < b.key;
}

// The settings a candidate applies on top of the base config.
struct Space {
  std::vector<std::int64_t> divisors;  // of world_size, ascending
  std::vector<ActivationCheckpoint> ac;
  std::vector<Optimizer> optimizer;
};

struct Degrees {
  std::size_t dp_replicate = 0, dp_shard = 0, tp = 0, pp = 0, cp = 0, ep = 0, etp = 0;  // indices
};

std::uint64_t PackKey(const Degrees& d, std::size_t ac, std::size_t optimizer) {
  std::uint64_t key = 0;
  for (std::size_t index : {d.dp_replicate, d.dp_shard, d.tp, d.pp, d.cp, d.ep, d.etp}) {
    key = (key << 8) | index;
  }
  return (key << 8) | (ac << 4) | optimizer;
}

Layout LayoutOf(std::uint64_t key, const Space& space) {
  auto degree = [&](int shift) { return space.divisors[(key >> shift) & 0xff]; };
  return Layout{degree(56), degree(48), degree(40), degree(32), degree(24), degree(16), degree(8)};
}

std::size_t AcIndex(std::uint64_t key) { return (key >> 4) & 0xf; }
std::size_t OptimizerIndex(std::uint64_t key) { return key & 0xf; }

void ApplyLayout(const Layout& l, Config& config) {
  Parallelism& p = config.parallelism;
  p.dp_replicate = l.dp_replicate;
  p.dp_shard = l.dp_shard;
  p.tp = l.tp;
  p.pp = l.pp;
  p.cp = l.cp;
  p.ep = l.ep;
  p.etp = l.etp;
}

void ApplyCandidate(std::uint64_t key, const Space& space, Config& config) {
  ApplyLayout(LayoutOf(key, space), config);
  config.activation_checkpoint = space.ac[AcIndex(key)];
  config.optimizer = space.optimizer[OptimizerIndex(key)];
}

std::vector<std::int64_t> Divisors(std::int64_t n) {
  std::vector<std::int64_t> low, high;
  for (std::int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    low.push_back(d);
    if (d != n / d) high.push_back(n / d);
  }
  low.insert(low.end(), high.rbegin(), high.rend());
  return low;
}

Space MakeSpace(const Config& base, const SearchOptions& options) {
  Space space;
  space.divisors = Divisors(base.world_size);
  if (options.vary_ac) {
    for (AcMode mode : {AcMode::kNone, AcMode::kSelective, AcMode::kFull}) {
      ActivationCheckpoint ac = base.activation_checkpoint;
      ac.mode = mode;
      if (mode == AcMode::kSelective) ac.selective_ac_option = "op";
      space.ac.push_back(ac);
    }
  } else {
    space.ac.push_back(base.activation_checkpoint);
  }
  Optimizer on_device = base.optimizer;
  on_device.swap_optimizer = false;
  on_device.offload = false;
  Optimizer on_host = on_device;
  if (options.vary_swap &&
      MoveOptimizerOffDevice(on_host, base.framework, base.device) != nullptr) {
    space.optimizer = {on_device, on_host};
  } else {
    space.optimizer = {base.optimizer};
  }
  return space;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] enumeration
// ---------------------------------------------------------------------------------------------

struct Enumeration {
  std::vector<Candidate> candidates;
  std::map<std::string, std::size_t> rejections;  // first ValidateConfig error → how often
  std::size_t tuples_tried = 0;
};

struct Enumerator {
  const Config& base;
  const Space& space;
  Config scratch;
  Enumeration out;
  std::vector<std::size_t> expert_degrees;  // indices of divisors that divide num_experts

  std::size_t IndexOf(std::int64_t divisor) const {
    return static_cast<std::size_t>(
        std::lower_bound(space.divisors.begin(), space.divisors.end(), divisor) -
        space.divisors.begin());
  }

  void Try(const Degrees& d) {
    ++out.tuples_tried;
    const Layout layout = LayoutOf(PackKey(d, 0, 0), space);
    ApplyLayout(layout, scratch);
    // AC mode and optimizer placement enter no validity rule, so one check covers every
    // variant; the brute-force test validates variant by variant and would see otherwise.
    const std::vector<Error> errors = ValidateConfig(scratch);
    if (!errors.empty()) {
      ++out.rejections[FormatError(errors.front())];
      return;
    }
    for (std::size_t a = 0; a < space.ac.size(); ++a) {
      for (std::size_t o = 0; o < space.optimizer.size(); ++o) {
        const double cost = LayoutCost(base, layout, space.ac[a], space.optimizer[o],
                                       base.training.local_batch_size);
        out.candidates.push_back({cost, PackKey(d, a, o)});
      }
    }
  }

  // dp_replicate × dp_shard take the ranks tp·pp·cp leave; ep and etp borrow from them. A dense
  // model has no experts, so ep = etp = 1 there (ValidateConfig ignores etp for dense models:
  // other values would only repeat a layout). By framework (config_validate.cpp CheckExperts):
  // - torchtitan: etp is 1 or tp; EP divides dp_shard·cp (·tp when etp = 1).
  // - Megatron / MindSpeed and DeepSpeed have one data-parallel group, enumerated once as
  //   dp_shard (dp_replicate = 1; writing it as dp_replicate is the same layout).
  //   Megatron folds experts over any etp with etp·ep·pp dividing world_size; DeepSpeed takes
  //   EP from dp·cp with etp 1 or tp.
  void DataAndExperts(Degrees d, std::int64_t rest) {
    const std::int64_t tp = space.divisors[d.tp], cp = space.divisors[d.cp];
    const std::int64_t pp = space.divisors[d.pp];
    const bool moe = base.model.num_experts > 0;
    const Framework fw = base.framework;
    const bool one_dp_group = fw == Framework::kMegatron || fw == Framework::kDeepspeed;
    std::vector<std::size_t> etps = {0};
    if (moe && fw == Framework::kMegatron) {
      etps.clear();
      for (std::size_t e = 0; e < space.divisors.size(); ++e) {
        if ((base.world_size / pp) % space.divisors[e] == 0) etps.push_back(e);
      }
    } else if (moe && d.tp != 0) {
      etps.push_back(d.tp);  // etp = tp > 1
    }
    for (std::size_t r = 0; r < space.divisors.size() && space.divisors[r] <= rest; ++r) {
      if (rest % space.divisors[r] != 0) continue;
      if (one_dp_group && r != 0) break;
      d.dp_replicate = r;
      d.dp_shard = IndexOf(rest / space.divisors[r]);
      for (std::size_t etp : etps) {
        d.etp = etp;
        const std::int64_t etp_degree = space.divisors[etp];
        std::int64_t pool = 0;
        if (fw == Framework::kMegatron)
          pool = base.world_size / pp / etp_degree;  // ep·etp·pp | world
        else if (fw == Framework::kDeepspeed)
          pool = rest * cp;
        else
          pool = (rest / space.divisors[r]) * cp * (etp == 0 ? tp : 1);
        for (std::size_t ep : expert_degrees) {
          if (pool % space.divisors[ep] != 0) continue;
          d.ep = ep;
          Try(d);
        }
      }
    }
  }

  void Run(std::int64_t max_tp) {
    const std::vector<std::int64_t>& div = space.divisors;
    const std::int64_t world = base.world_size;
    const ModelArch& m = base.model;
    scratch.activation_checkpoint = space.ac[0];  // validate real candidates (see Try)
    scratch.optimizer = space.optimizer[0];
    expert_degrees = {0};
    for (std::size_t i = 1; i < div.size() && m.num_experts > 0; ++i) {
      if (m.num_experts % div[i] == 0) expert_degrees.push_back(i);
    }
    Degrees d;
    for (d.tp = 0; d.tp < div.size(); ++d.tp) {
      const std::int64_t tp = div[d.tp];
      const std::int64_t split = m.HasAttentionLayers() ? m.num_heads : m.MambaChannels();
      if (tp > max_tp || (split > 0 && split % tp != 0)) continue;
      for (d.pp = 0; d.pp < div.size(); ++d.pp) {
        const std::int64_t pp = div[d.pp];
        if ((world / tp) % pp != 0 || pp > std::max<std::int64_t>(1, m.num_layers)) continue;
        for (d.cp = 0; d.cp < div.size(); ++d.cp) {
          const std::int64_t cp = div[d.cp];
          if ((world / tp / pp) % cp != 0) continue;
          if (cp > 1 && base.training.seq_len % (2 * cp) != 0) continue;
          // A sequence sequence parallelism cannot split evenly is padded (a warning on one
          // estimate); a layout that needs it is not offered.
          if (base.training.seq_len % tp != 0 && SequenceParallelOn(base, tp)) continue;
          DataAndExperts(d, world / tp / pp / cp);
        }
      }
    }
  }
};

// ---------------------------------------------------------------------------------------------
// [SECTION] evaluation
// ---------------------------------------------------------------------------------------------

// A fitting candidate: 80 bytes, so ranking moves no configs; the returned layouts' configs are
// built once, after ranking and truncation.
struct Fit {
  Candidate candidate;
  MemoryBreakdown per_device;
  std::int64_t headroom_bytes = 0;
  Verdict verdict = Verdict::kFits;
};

bool BetterFit(const Fit& a, const Fit& b) {
  if (a.candidate.cost != b.candidate.cost) return a.candidate.cost < b.candidate.cost;
  if (a.per_device.total != b.per_device.total) return a.per_device.total < b.per_device.total;
  return a.candidate.key < b.candidate.key;
}

struct Evaluation {
  std::vector<Fit> fitting;
  std::size_t evaluated = 0;
  std::int64_t usable_bytes = 0;
  std::int64_t smallest_total = -1;  // over candidates that do not fit
  std::uint64_t smallest_key = 0;
};

void EstimateCandidate(const Candidate& c, const Space& space, const ModelCounts& counts,
                       Config& config, Evaluation& ev) {
  ApplyCandidate(c.key, space, config);
  const TotalsEstimate e = EstimateTotals(config, counts);  // the tuple passed ValidateConfig
  ++ev.evaluated;
  ev.usable_bytes = e.budget.usable_bytes;
  if (e.budget.fits) {
    ev.fitting.push_back({c, e.per_device, e.budget.headroom_bytes, e.budget.verdict});
  } else if (ev.smallest_total < 0 || e.per_device.total < ev.smallest_total) {
    ev.smallest_total = e.per_device.total;
    ev.smallest_key = c.key;
  }
}

Evaluation Evaluate(const Config& base, const Space& space, std::vector<Candidate>& candidates,
                    std::size_t limit) {
  Evaluation ev;
  Config config = base;
  const ModelCounts counts = CountModel(base.model);  // every candidate has the base's model
  if (limit == 0) {
    for (const Candidate& c : candidates) EstimateCandidate(c, space, counts, config, ev);
  } else {
    // A heap, not a sort: a limited search usually pops a small share of the candidates.
    auto costlier = [](const Candidate& a, const Candidate& b) { return CheaperCandidate(b, a); };
    std::make_heap(candidates.begin(), candidates.end(), costlier);
    for (auto end = candidates.end(); end != candidates.begin(); --end) {
      std::pop_heap(candidates.begin(), end, costlier);
      const Candidate& c = *(end - 1);
      // Once `limit` fit, a costlier candidate cannot enter the top `limit` (ties still can).
      if (ev.fitting.size() >= limit && c.cost > ev.fitting[limit - 1].candidate.cost) break;
      EstimateCandidate(c, space, counts, config, ev);
    }
  }
  std::sort(ev.fitting.begin(), ev.fitting.end(), BetterFit);
  if (limit > 0 && ev.fitting.size() > limit) ev.fitting.resize(limit);
  return ev;
}

LayoutResult ResultOf(const Fit& fit, const Config& base, const Space& space) {
  LayoutResult r;
  r.config = base;
  const std::uint64_t key = fit.candidate.key;
  ApplyCandidate(key, space, r.config);
  r.per_device = fit.per_device;
  r.fits = true;
  r.cost = fit.candidate.cost;
  r.headroom_bytes = fit.headroom_bytes;
  r.verdict = fit.verdict;
  r.cost_note = search_detail::CostNote(base, LayoutOf(key, space), space.ac[AcIndex(key)],
                                        space.optimizer[OptimizerIndex(key)]);
  return r;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] messages
// ---------------------------------------------------------------------------------------------

std::string DescribeLayout(const Config& c) {
  const Parallelism& p = c.parallelism;
  char buf[200];
  std::snprintf(
      buf, sizeof buf,
      "dp_replicate %lld, dp_shard %lld, tp %lld, pp %lld, cp %lld, ep %lld, etp %lld, %s AC",
      static_cast<long long>(p.dp_replicate), static_cast<long long>(p.dp_shard),
      static_cast<long long>(p.tp), static_cast<long long>(p.pp), static_cast<long long>(p.cp),
      static_cast<long long>(p.ep), static_cast<long long>(p.etp),
      AcModeName(c.activation_checkpoint.mode));
  std::string out = buf;
  if (c.optimizer.swap_optimizer) out += ", swap_optimizer";
  if (c.optimizer.offload) out += ", optimizer offload";
  return out;
}

std::string NoValidLayoutMessage(const Config& base, const Enumeration& en) {
  std::vector<std::pair<std::size_t, std::string>> reasons;
  for (const auto& [reason, count] : en.rejections) reasons.emplace_back(count, reason);
  std::sort(reasons.begin(), reasons.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::string message = "world_size " + std::to_string(base.world_size) + ": no valid layout";
  if (reasons.empty()) return message + " (no degrees divide it within the model's limits)";
  message += " among " + std::to_string(en.tuples_tried) + " tried: ";
  for (std::size_t i = 0; i < reasons.size() && i < 3; ++i)
    message += (i ? "; " : "") + reasons[i].second;
  if (reasons.size() > 3)
    message += "; and " + std::to_string(reasons.size() - 3) + " other reasons";
  return message;
}

std::string FoundMessage(const SearchResult& r, const Evaluation& ev, std::size_t limit,
                         const Config& base, const Space& space) {
  const std::string valid = std::to_string(r.valid) + " valid layouts";
  if (ev.fitting.empty()) {
    Config smallest = base;
    ApplyCandidate(ev.smallest_key, space, smallest);
    return valid + ", none fits: the smallest needs " + FormatGiB(ev.smallest_total) + " of " +
           FormatGiB(ev.usable_bytes) + " usable (" + DescribeLayout(smallest) + ")";
  }
  const std::string count = std::to_string(ev.fitting.size());
  if (limit == 0) return count + " of " + valid + " fit";
  const std::string found = ev.fitting.size() == 1 ? "the cheapest fitting layout"
                                                   : "the " + count + " cheapest fitting layouts";
  return found + " (" + std::to_string(r.evaluated) + " of " + valid + " estimated)";
}

}  // namespace

SearchResult SearchLayouts(const Config& base, const SearchOptions& options) {
  SearchResult result;
  if (base.world_size < 1 || base.world_size > kMaxWorldSize) {
    // Nothing to enumerate (and the key packs at most 255 divisors). ValidateConfig says why.
    std::string reason = "world_size is out of range";
    for (const Error& e : ValidateConfig(base)) {
      if (e.path == "world_size") reason = FormatError(e);
    }
    result.message =
        "world_size " + std::to_string(base.world_size) + ": no valid layout: " + reason;
    return result;
  }
  const Space space = MakeSpace(base, options);
  Enumerator enumerator{base, space, base, {}, {}};
  enumerator.Run(options.max_tp > 0 ? options.max_tp : base.device.devices_per_node);
  Enumeration& en = enumerator.out;
  result.valid = en.candidates.size();
  if (en.candidates.empty()) {
    result.message = NoValidLayoutMessage(base, en);
    return result;
  }
  Evaluation ev = Evaluate(base, space, en.candidates, options.limit);
  result.evaluated = ev.evaluated;
  result.usable_bytes = ev.usable_bytes;
  result.message = FoundMessage(result, ev, options.limit, base, space);
  result.layouts.reserve(ev.fitting.size());
  for (const Fit& fit : ev.fitting) result.layouts.push_back(ResultOf(fit, base, space));
  return result;
}

}  // namespace trainmem
