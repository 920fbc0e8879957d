// What a run measured, read from the text a user pastes: a training log, a device table, a
// PyTorch memory profile or an allocator snapshot. Every reader keeps the framework's own
// metric and unit (each cites the printing code it follows) so the comparison can put the
// measured figure beside the estimate of the same quantity.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace trainmem::compare {

// What a figure measures (reference/README.md: compare like with like).
enum class Metric {
  kReserved,      // torch.cuda.max_memory_reserved: the caching allocator's peak footprint
  kMaxAllocated,  // torch.cuda.max_memory_allocated: peak bytes held by tensors
  kAllocated,     // memory_allocated at the moment of the log line (between steps)
  kActive,        // peak active bytes (allocated + freed blocks still in use by a stream)
  kDeviceUsed,    // nvidia-smi / npu-smi: the whole process, runtime context included
};
const char* MetricName(Metric metric);  // "reserved", "max_allocated", …

// The largest figure seen for one metric on one rank.
struct Peak {
  Metric metric = Metric::kReserved;
  std::int64_t bytes = 0;
  int rank = -1;              // -1: the input does not say which rank printed it
  std::string source;         // which printout, e.g. "torchtitan step line (memory: …GiB)"
  std::int64_t line = 0;      // 1-based line of the largest figure (0 for binary inputs)
  std::int64_t rounding = 0;  // half the printed precision in bytes (0.005 GiB → 5.4 MB)
  bool at_init = false;       // measured after model init, before training (torchtitan)
};

// A profile's breakdown at its peak, in the estimate's five components plus what the profiler
// could not attribute.
struct MeasuredComponents {
  bool present = false;
  std::int64_t parameters = 0;
  std::int64_t gradients = 0;
  std::int64_t optimizer_states = 0;
  std::int64_t activations = 0;
  std::int64_t temporary = 0;
  std::int64_t unknown = 0;  // the profiler's uncategorised bytes (also inside `total`)
  std::int64_t total = 0;
  std::string source;
};

// An allocator snapshot's state (torch.cuda.memory._dump_snapshot).
struct SnapshotFacts {
  bool present = false;
  int device = 0;
  std::int64_t segments = 0;
  std::int64_t reserved_bytes = 0;   // Σ segment total_size at the snapshot
  std::int64_t allocated_bytes = 0;  // Σ blocks in state active_allocated
  std::int64_t active_bytes = 0;     // allocated + active_pending_free
  std::int64_t trace_events = 0;     // device_traces entries replayed for the peaks
  std::int64_t peak_allocated_bytes = 0;
  std::int64_t peak_reserved_bytes = 0;
  // Reserved but not allocated at the snapshot: the cache, split blocks and fragmentation.
  double free_in_segments_fraction = 0;
  std::int64_t largest_free_block = 0;
};

struct Measurement {
  std::vector<std::string> formats;  // "torchtitan", "megatron", …: what was recognised
  std::vector<Peak> peaks;           // one per (metric, rank)
  MeasuredComponents components;
  SnapshotFacts snapshot;
  std::vector<std::string> notes;  // what the reader assumed, said once each
  std::vector<Error> skipped;      // lines that looked like memory lines but were not used
  std::int64_t skipped_count = 0;  // all of them (`skipped` keeps the first few)
  std::int64_t lines_read = 0;
  std::int64_t lines_used = 0;
  // The run ran out of device memory (a PyTorch/torch_npu out-of-memory error, or an oom event
  // in an allocator trace). needed_bytes: the least it needed, allocated memory held plus the
  // request that failed (0 when the message gave no allocated figure); the largest such over
  // the log's errors.
  bool out_of_memory = false;
  std::int64_t oom_needed_bytes = 0;
};

// Reads any supported input: a pickle (allocator snapshot), a JSON memory timeline, or a text
// log (torchtitan, Megatron-LM / MindSpeed-LLM, DeepSpeed, memory_summary, nvidia-smi, npu-smi).
// `name` (a file name, may be empty) only appears in messages. Fails with a clear message when
// nothing usable is found; lines it skipped are listed in the result.
Result<Measurement> ReadMeasurement(std::string_view data, std::string_view name = {});

// The individual readers (ReadMeasurement picks one).
Result<Measurement> ReadLogText(std::string_view text);
Result<Measurement> ReadMemoryTimeline(std::string_view json_text);
Result<Measurement> ReadAllocatorSnapshot(std::string_view pickle_bytes);

// Several inputs for one run (e.g. one log per node): peaks per (metric, rank) keep the largest.
Measurement MergeMeasurements(const std::vector<Measurement>& parts);

// The largest peak of a metric over all ranks (nullptr when absent; at-init figures only when
// no training figure exists).
const Peak* LargestPeak(const Measurement& m, Metric metric);

// Parses "84.3GiB", "512 MiB", "1.5GB" (GB = 10^9 here: what a person types), "1234" (bytes).
// Used by the share link; refuses negative, NaN and infinite values.
bool ParseByteSize(std::string_view text, std::int64_t& bytes);

}  // namespace trainmem::compare
