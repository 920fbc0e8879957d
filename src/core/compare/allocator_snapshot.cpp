// The caching allocator's snapshot: torch.cuda.memory._dump_snapshot(path) pickles
// torch.cuda.memory._snapshot(), a dict {"segments": [...], "device_traces": [[...], ...], …}
// (torch/cuda/memory.py; the typed layout is _Snapshot/_Segment/_Block in
// torch/cuda/_memory_viz.py). Each segment is one cudaMalloc'd range: "device", "address",
// "total_size", "allocated_size", "active_size", "blocks" (each "size", "requested_size",
// "state" ∈ active_allocated | active_pending_free | inactive, "frames"). Each trace entry is
// {"action", "addr", "size", "stream", "frames"} with actions alloc, free_requested,
// free_completed, segment_alloc, segment_free, segment_map, segment_unmap, snapshot, oom.
//
// The segments are the state when the snapshot was taken. When history was recorded
// (_record_memory_history), the trace lets us walk back from that state to earlier ones:
// allocated bytes before an event = after − (+size for alloc, −size for free_completed), and
// reserved likewise with segment_alloc/map and segment_free/unmap. The largest of those is the
// peak within the recorded window.
#include <algorithm>
#include <map>
#include <string>

#include "core/compare/measurement.h"
#include "core/compare/pickle_reader.h"

namespace trainmem::compare {

namespace {

using Kind = PickleValue::Kind;

std::int64_t IntOr(const PickleValue* v, std::int64_t fallback) {
  return v != nullptr && v->IsInt() ? v->integer : fallback;
}

// A size past 1 PiB is a corrupt file, not a device (the largest device today holds 288 GB):
// every size is checked against it before it is summed, and every sum stays at most twice
// it, so no sum can overflow (fuzz_snapshot found two 7.2e18 sizes added past int64).
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 50;

std::string PastLimit(const std::string& what, std::int64_t value) {
  return what + " " + std::to_string(value) + " is past 1 PiB: not a device's memory";
}

// Adds a size already checked to be in [0, kMaxBytes]; false once the sum passes kMaxBytes.
bool AddBounded(std::int64_t& sum, std::int64_t size) {
  sum += size;
  return sum <= kMaxBytes;
}

struct DeviceState {
  std::int64_t segments = 0;
  std::int64_t reserved = 0;
  std::int64_t allocated = 0;
  std::int64_t active = 0;
  std::int64_t largest_free = 0;
};

// Empty on success.
std::string ReadSegments(const PickleValue& segments, std::map<int, DeviceState>& devices) {
  for (std::size_t i = 0; i < segments.items.size(); ++i) {
    const PickleValue& seg = *segments.items[i];
    const std::string where = "segments[" + std::to_string(i) + "]";
    if (seg.kind != Kind::kDict) return where + " is not a dict";
    const std::int64_t total = IntOr(seg.Get("total_size"), -1);
    if (total < 0) return where + " has no non-negative total_size";
    if (total > kMaxBytes) return PastLimit(where + " total_size", total);
    const int device = static_cast<int>(IntOr(seg.Get("device"), 0));
    DeviceState& d = devices[device];
    // Built only when a sum passes the bound, not for every segment of a large snapshot.
    const auto sums_past = [&] {
      return "the segments of device " + std::to_string(device) + " add up past 1 PiB at " + where;
    };
    ++d.segments;
    if (!AddBounded(d.reserved, total)) return sums_past();
    const PickleValue* blocks = seg.Get("blocks");
    if (blocks == nullptr || !blocks->IsSequence()) {
      const std::int64_t allocated = std::max<std::int64_t>(0, IntOr(seg.Get("allocated_size"), 0));
      const std::int64_t active = std::max<std::int64_t>(0, IntOr(seg.Get("active_size"), 0));
      if (allocated > kMaxBytes) return PastLimit(where + " allocated_size", allocated);
      if (active > kMaxBytes) return PastLimit(where + " active_size", active);
      if (!AddBounded(d.allocated, allocated) || !AddBounded(d.active, active)) return sums_past();
      continue;
    }
    for (const PickleValue* block : blocks->items) {
      if (block->kind != Kind::kDict) return where + " has a block that is not a dict";
      const std::int64_t size = IntOr(block->Get("size"), -1);
      if (size < 0) return where + " has a block without a non-negative size";
      if (size > kMaxBytes) return PastLimit(where + " has a block whose size", size);
      const PickleValue* state = block->Get("state");
      const std::string s = state != nullptr && state->kind == Kind::kString ? state->text : "";
      if (s == "active_allocated") {
        if (!AddBounded(d.allocated, size) || !AddBounded(d.active, size)) return sums_past();
      } else if (s == "active_pending_free") {
        if (!AddBounded(d.active, size)) return sums_past();
      } else {
        d.largest_free = std::max(d.largest_free, size);
      }
    }
  }
  return "";
}

struct TracePeaks {
  std::int64_t events = 0;
  std::int64_t peak_allocated = 0;
  std::int64_t peak_reserved = 0;
  bool consistent = true;  // no replayed state went below zero or past kMaxBytes
  bool oom = false;
};

// The trace frees a block at free_completed; until then a block whose free was requested is
// active_pending_free in the segments. So the walk starts from the active bytes (allocated +
// pending free), which is what the trace counts as still allocated.
TracePeaks ReplayBackwards(const PickleValue& trace, const DeviceState& end) {
  TracePeaks t;
  std::int64_t allocated = end.active, reserved = end.reserved;
  t.peak_allocated = allocated;
  t.peak_reserved = reserved;
  for (std::size_t k = trace.items.size(); k-- > 0;) {
    const PickleValue& e = *trace.items[k];
    if (e.kind != Kind::kDict) continue;
    const PickleValue* action = e.Get("action");
    if (action == nullptr || action->kind != Kind::kString) continue;
    const std::int64_t size = std::max<std::int64_t>(0, IntOr(e.Get("size"), 0));
    const std::string& a = action->text;
    ++t.events;
    if (a == "oom") t.oom = true;
    // Once the walk has left [0, kMaxBytes] the trace is not this device's: the rest is only
    // read for events and out-of-memory errors. Inside it each step moves a state by at most
    // kMaxBytes, so nothing overflows.
    if (!t.consistent) continue;
    if (size > kMaxBytes) {
      t.consistent = false;
      continue;
    }
    if (a == "alloc")
      allocated -= size;
    else if (a == "free_completed")
      allocated += size;
    else if (a == "segment_alloc" || a == "segment_map")
      reserved -= size;
    else if (a == "segment_free" || a == "segment_unmap")
      reserved += size;
    if (allocated < 0 || reserved < 0 || allocated > kMaxBytes || reserved > kMaxBytes) {
      t.consistent = false;
      continue;
    }
    t.peak_allocated = std::max(t.peak_allocated, allocated);
    t.peak_reserved = std::max(t.peak_reserved, reserved);
  }
  return t;
}

}  // namespace

Result<Measurement> ReadAllocatorSnapshot(std::string_view pickle_bytes) {
  auto read = ReadPickle(pickle_bytes);
  if (!read.ok()) return Result<Measurement>::Failure(read.errors());
  const PickleValue& root = *read.value()->root;
  const PickleValue* segments = root.kind == Kind::kDict ? root.Get("segments") : &root;
  if (segments == nullptr || !segments->IsSequence()) {
    return Result<Measurement>::Failure(
        "allocator snapshot",
        "no 'segments' list: expected what torch.cuda.memory._dump_snapshot writes");
  }
  std::map<int, DeviceState> devices;
  const std::string problem = ReadSegments(*segments, devices);
  if (!problem.empty()) return Result<Measurement>::Failure("allocator snapshot", problem);
  if (devices.empty()) {
    return Result<Measurement>::Failure("allocator snapshot", "the snapshot has no segments");
  }
  auto largest = std::max_element(devices.begin(), devices.end(), [](const auto& a, const auto& b) {
    return a.second.reserved < b.second.reserved;
  });
  const int device = largest->first;
  const DeviceState& d = largest->second;

  Measurement m;
  m.formats.push_back("allocator_snapshot");
  SnapshotFacts& s = m.snapshot;
  s.present = true;
  s.device = device;
  s.segments = d.segments;
  s.reserved_bytes = d.reserved;
  s.allocated_bytes = d.allocated;
  s.active_bytes = d.active;
  s.largest_free_block = d.largest_free;
  s.free_in_segments_fraction =
      d.reserved > 0 ? static_cast<double>(d.reserved - d.allocated) / d.reserved : 0.0;
  s.peak_allocated_bytes = d.allocated;
  s.peak_reserved_bytes = d.reserved;

  const PickleValue* traces = root.kind == Kind::kDict ? root.Get("device_traces") : nullptr;
  bool replayed = false;
  if (traces != nullptr && traces->IsSequence() && device >= 0 &&
      static_cast<std::size_t>(device) < traces->items.size() &&
      traces->items[device]->IsSequence() && !traces->items[device]->items.empty()) {
    const TracePeaks t = ReplayBackwards(*traces->items[device], d);
    s.trace_events = t.events;
    if (t.consistent) {
      s.peak_allocated_bytes = t.peak_allocated;
      s.peak_reserved_bytes = t.peak_reserved;
      replayed = true;
    } else {
      m.notes.push_back(
          "The recorded trace does not add up to the segments (it starts after "
          "allocations it does not show); only the snapshot's moment is used.");
    }
    if (t.oom) {
      m.notes.push_back("The trace records an out-of-memory error.");
      m.out_of_memory = true;
    }
  }
  const std::string where = " (device " + std::to_string(device) + ")";
  Peak reserved;
  reserved.metric = Metric::kReserved;
  reserved.bytes = s.peak_reserved_bytes;
  reserved.source = (replayed ? "allocator snapshot: reserved peak over the recorded trace"
                              : "allocator snapshot: sum of segment total_size when taken") +
                    where;
  m.peaks.push_back(reserved);
  Peak allocated;
  allocated.metric = replayed ? Metric::kMaxAllocated : Metric::kAllocated;
  allocated.bytes = s.peak_allocated_bytes;
  allocated.source = (replayed ? "allocator snapshot: allocated peak over the recorded trace"
                               : "allocator snapshot: sum of active_allocated blocks when taken") +
                     where;
  m.peaks.push_back(allocated);
  if (!replayed) {
    m.notes.push_back(
        "The snapshot has no recorded trace: its figures are the moment it was taken (the "
        "reserved figure is a lower bound on the run's peak unless it was taken at the peak, "
        "e.g. on an out-of-memory error).");
  }
  if (devices.size() > 1) {
    m.notes.push_back("The snapshot covers " + std::to_string(devices.size()) +
                      " devices; device " + std::to_string(device) +
                      " (the most reserved) is compared.");
  }
  m.lines_read = m.lines_used = 1;
  return Result<Measurement>::Success(std::move(m));
}

}  // namespace trainmem::compare
