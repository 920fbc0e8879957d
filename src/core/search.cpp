// SearchLayouts: which configs to ask ValidateConfig and EstimateMemory about, in which order.
//
// [SECTION] enumeration — degree tuples whose product is world_size, pruned only by conditions
//           ValidateConfig also requires (tp | heads, ep | experts, pp ≤ layers, 2·cp | seq_len),
//           each tuple then confirmed by ValidateConfig (the one source of truth for validity).
// [SECTION] evaluation  — candidates sorted by cost (config-only, no estimate needed), estimated
//           cheapest first; with a limit, estimation stops once `limit` layouts fit and only
//           costlier candidates remain. That is the fast path: it never changes which layouts
//           are returned, only how many estimates it takes to find them.
// [SECTION] messages    — one line saying what was found, or why nothing was.
#include "core/search.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

#include "core/report.h"
#include "core/search_detail.h"

namespace trainmem {

const char* HostOptimizerKey(Framework framework) {
  const bool swaps = framework == Framework::kTorchtitanNpu || framework == Framework::kMegatron;
  return swaps ? "optimizer.swap_optimizer" : "optimizer.offload";
}

namespace search_detail {

void ApplyCandidate(const Candidate& candidate, const Variants& variants, Config& config) {
  const Layout& l = candidate.layout;
  Parallelism& p = config.parallelism;
  p.dp_replicate = l.dp_replicate;
  p.dp_shard = l.dp_shard;
  p.tp = l.tp;
  p.pp = l.pp;
  p.cp = l.cp;
  p.ep = l.ep;
  p.etp = l.etp;
  config.activation_checkpoint = variants.ac[candidate.ac_index];
  config.optimizer = variants.optimizer[candidate.optimizer_index];
}

std::string DescribeLayout(const Config& c) {
  const Parallelism& p = c.parallelism;
  char buf[160];
  std::snprintf(buf, sizeof buf, "dp_replicate %lld, dp_shard %lld, tp %lld, pp %lld, cp %lld, ep %lld, etp %lld",
                static_cast<long long>(p.dp_replicate), static_cast<long long>(p.dp_shard),
                static_cast<long long>(p.tp), static_cast<long long>(p.pp), static_cast<long long>(p.cp),
                static_cast<long long>(p.ep), static_cast<long long>(p.etp));
  std::string out = buf;
  out += std::string(", ") + AcModeName(c.activation_checkpoint.mode) + " AC";
  if (c.optimizer.swap_optimizer) out += ", swap_optimizer";
  if (c.optimizer.offload) out += ", optimizer offload";
  return out;
}

}  // namespace search_detail

namespace {

using search_detail::Candidate;
using search_detail::Variants;

// ---------------------------------------------------------------------------------------------
// [SECTION] enumeration
// ---------------------------------------------------------------------------------------------

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

Variants MakeVariants(const Config& base, const SearchOptions& options) {
  Variants v;
  if (options.vary_ac) {
    for (AcMode mode : {AcMode::kNone, AcMode::kSelective, AcMode::kFull}) {
      ActivationCheckpoint ac = base.activation_checkpoint;
      ac.mode = mode;
      if (mode == AcMode::kSelective) ac.selective_ac_option = "op";
      v.ac.push_back(ac);
    }
  } else {
    v.ac.push_back(base.activation_checkpoint);
  }
  if (options.vary_swap) {
    Optimizer on_device = base.optimizer;
    on_device.swap_optimizer = false;
    on_device.offload = false;
    Optimizer on_host = on_device;
    if (std::string(HostOptimizerKey(base.framework)) == "optimizer.swap_optimizer") on_host.swap_optimizer = true;
    else on_host.offload = true;
    v.optimizer = {on_device, on_host};
  } else {
    v.optimizer.push_back(base.optimizer);
  }
  return v;
}

// Collects candidates and, for the "no valid layout" message, how often each reason came up.
struct Enumeration {
  std::vector<Candidate> candidates;
  std::map<std::string, std::size_t> rejections;
  std::size_t tuples_tried = 0;
};

// The expert degrees worth trying: a dense model has no experts, so ep = etp = 1 (ValidateConfig
// ignores etp there; other values would only repeat the same layout). etp is 1 or tp.
void ExpertDegrees(const Config& base, const std::vector<std::int64_t>& divisors, std::int64_t tp,
                   std::vector<std::int64_t>& eps, std::vector<std::int64_t>& etps) {
  eps = {1};
  etps = {1};
  const std::int64_t experts = base.model.num_experts;
  if (experts <= 0) return;
  if (tp > 1) etps.push_back(tp);
  for (std::int64_t d : divisors) {
    if (d > 1 && experts % d == 0) eps.push_back(d);
  }
}

void TryTuple(const Layout& layout, const Variants& variants, const Config& base, Config& scratch,
              Enumeration& out) {
  ++out.tuples_tried;
  Candidate c;
  c.layout = layout;
  search_detail::ApplyCandidate(c, variants, scratch);
  // AC mode and optimizer placement enter no validity rule, so one check covers every variant;
  // the brute-force test in search_test.cpp confirms it variant by variant.
  const std::vector<Error> errors = ValidateConfig(scratch);
  if (!errors.empty()) {
    ++out.rejections[FormatError(errors.front())];
    return;
  }
  for (std::size_t a = 0; a < variants.ac.size(); ++a) {
    for (std::size_t o = 0; o < variants.optimizer.size(); ++o) {
      c.ac_index = static_cast<std::uint8_t>(a);
      c.optimizer_index = static_cast<std::uint8_t>(o);
      c.cost = search_detail::LayoutCost(base, layout, variants.ac[a], variants.optimizer[o]);
      out.candidates.push_back(c);
    }
  }
}

void EnumerateDataParallel(const Config& base, const Variants& variants,
                           const std::vector<std::int64_t>& divisors, Layout layout,
                           std::int64_t rest, Config& scratch, Enumeration& out) {
  std::vector<std::int64_t> eps, etps;
  ExpertDegrees(base, divisors, layout.tp, eps, etps);
  for (std::int64_t dp_replicate : divisors) {
    if (rest % dp_replicate != 0) continue;
    layout.dp_replicate = dp_replicate;
    layout.dp_shard = rest / dp_replicate;
    for (std::int64_t etp : etps) {
      for (std::int64_t ep : eps) {
        layout.etp = etp;
        layout.ep = ep;
        TryTuple(layout, variants, base, scratch, out);
      }
    }
  }
}

Enumeration Enumerate(const Config& base, const SearchOptions& options, const Variants& variants) {
  Enumeration out;
  const std::int64_t world = base.world_size;
  const std::vector<std::int64_t> divisors = Divisors(world);
  const std::int64_t max_tp = options.max_tp > 0 ? options.max_tp : base.device.devices_per_node;
  const ModelArch& m = base.model;
  Config scratch = base;
  for (std::int64_t tp : divisors) {
    if (tp > max_tp || (m.num_heads > 0 && m.num_heads % tp != 0)) continue;
    for (std::int64_t pp : divisors) {
      if ((world / tp) % pp != 0 || pp > std::max<std::int64_t>(1, m.num_layers)) continue;
      for (std::int64_t cp : divisors) {
        if ((world / tp / pp) % cp != 0) continue;
        if (cp > 1 && base.training.seq_len % (2 * cp) != 0) continue;
        Layout layout;
        layout.tp = tp;
        layout.pp = pp;
        layout.cp = cp;
        EnumerateDataParallel(base, variants, divisors, layout, world / tp / pp / cp, scratch, out);
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] evaluation
// ---------------------------------------------------------------------------------------------

auto DegreeKey(const Layout& l) {
  return std::make_tuple(l.dp_replicate, l.dp_shard, l.tp, l.pp, l.cp, l.ep, l.etp);
}

bool CheaperCandidate(const Candidate& a, const Candidate& b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  if (DegreeKey(a.layout) != DegreeKey(b.layout)) return DegreeKey(a.layout) < DegreeKey(b.layout);
  return std::tie(a.ac_index, a.optimizer_index) < std::tie(b.ac_index, b.optimizer_index);
}

struct Ranked {
  LayoutResult result;
  Candidate candidate;
};

bool BetterLayout(const Ranked& a, const Ranked& b) {
  if (a.candidate.cost != b.candidate.cost) return a.candidate.cost < b.candidate.cost;
  if (a.result.per_device.total != b.result.per_device.total)
    return a.result.per_device.total < b.result.per_device.total;
  return CheaperCandidate(a.candidate, b.candidate);
}

struct Evaluation {
  std::vector<Ranked> fitting;
  std::size_t evaluated = 0;
  std::int64_t usable_bytes = 0;
  std::int64_t smallest_total = -1;  // over candidates that do not fit
  Config smallest;
};

Evaluation Evaluate(const Config& base, const Variants& variants,
                    const std::vector<Candidate>& sorted, std::size_t limit) {
  Evaluation ev;
  Config config = base;
  for (const Candidate& c : sorted) {
    // Sorted by cost: once `limit` fit, a costlier candidate cannot enter the top `limit`.
    if (limit > 0 && ev.fitting.size() >= limit && c.cost > ev.fitting[limit - 1].candidate.cost) break;
    search_detail::ApplyCandidate(c, variants, config);
    const Estimate e = EstimateMemory(config);
    ++ev.evaluated;
    ev.usable_bytes = e.budget.usable_bytes;
    if (!e.budget.fits) {
      if (ev.smallest_total < 0 || e.per_device.total < ev.smallest_total) {
        ev.smallest_total = e.per_device.total;
        ev.smallest = config;
      }
      continue;
    }
    Ranked r{LayoutResult{config, e.per_device, true, e.budget.headroom_bytes, c.cost, ""}, c};
    ev.fitting.push_back(std::move(r));
  }
  std::sort(ev.fitting.begin(), ev.fitting.end(), BetterLayout);
  if (limit > 0 && ev.fitting.size() > limit) ev.fitting.resize(limit);
  return ev;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] messages
// ---------------------------------------------------------------------------------------------

std::string NoValidLayoutMessage(const Config& base, const Enumeration& en) {
  std::vector<std::pair<std::size_t, std::string>> reasons;
  for (const auto& [reason, count] : en.rejections) reasons.emplace_back(count, reason);
  std::sort(reasons.begin(), reasons.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::string message = "world_size " + std::to_string(base.world_size) + ": no valid layout";
  if (reasons.empty()) return message;
  message += " (" + std::to_string(en.tuples_tried) + " tried): ";
  for (std::size_t i = 0; i < reasons.size() && i < 3; ++i) message += (i ? "; " : "") + reasons[i].second;
  if (reasons.size() > 3) message += "; …";
  return message;
}

std::string FoundMessage(const SearchResult& r, const Evaluation& ev, std::size_t limit) {
  const std::string valid = std::to_string(r.valid) + " valid layouts";
  if (ev.fitting.empty()) {
    return valid + ", none fits: the smallest needs " + FormatGiB(ev.smallest_total) + " of " +
           FormatGiB(ev.usable_bytes) + " usable (" + search_detail::DescribeLayout(ev.smallest) + ")";
  }
  if (r.evaluated == r.valid) {
    std::string shown = limit > 0 && ev.fitting.size() == limit ? " (showing the cheapest " + std::to_string(limit) + ")" : "";
    return std::to_string(ev.fitting.size()) + (limit > 0 ? "" : " of " + valid) + " fit" + shown;
  }
  return "the " + std::to_string(ev.fitting.size()) + " cheapest fitting layouts (" +
         std::to_string(r.evaluated) + " of " + valid + " estimated)";
}

}  // namespace

SearchResult SearchLayouts(const Config& base, const SearchOptions& options) {
  SearchResult result;
  if (base.world_size < 1 || base.world_size > kMaxWorldSize) {
    // Nothing to enumerate: every layout has this world size. ValidateConfig says why.
    std::string reason = "world_size is out of range";
    for (const Error& e : ValidateConfig(base)) {
      if (e.path == "world_size") reason = FormatError(e);
    }
    result.message = "world_size " + std::to_string(base.world_size) + ": no valid layout: " + reason;
    return result;
  }
  const Variants variants = MakeVariants(base, options);
  Enumeration en = Enumerate(base, options, variants);
  result.valid = en.candidates.size();
  if (en.candidates.empty()) {
    result.message = NoValidLayoutMessage(base, en);
    return result;
  }
  std::sort(en.candidates.begin(), en.candidates.end(), CheaperCandidate);
  Evaluation ev = Evaluate(base, variants, en.candidates, options.limit);
  result.evaluated = ev.evaluated;
  result.usable_bytes = ev.usable_bytes;
  result.message = FoundMessage(result, ev, options.limit);
  result.layouts.reserve(ev.fitting.size());
  for (Ranked& r : ev.fitting) {
    r.result.cost_note = search_detail::CostNote(base, r.candidate.layout, variants.ac[r.candidate.ac_index],
                                                 variants.optimizer[r.candidate.optimizer_index]);
    result.layouts.push_back(std::move(r.result));
  }
  return result;
}

}  // namespace trainmem
