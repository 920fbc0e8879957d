// PyTorch memory profiles: the torch.profiler memory timeline JSON, the pickle opcode reader
// and the allocator snapshot.
//
// tests/data/compare/snapshot_p{2,4,5}.pickle are torch.cuda.memory._snapshot()-shaped dicts
// written by CPython's pickle module (protocols 2, 4, 5) when the test was written; their
// content, in MiB:
//   device 0, segment A: total_size 20, blocks 8 active_allocated, 4 inactive,
//                        2 active_pending_free, 6 active_allocated
//   device 0, segment B: total_size 2, blocks 0.5 active_allocated, 1.5 inactive
//   device 1, segment C: total_size 4, block 4 active_allocated
//   device_traces[0]: segment_alloc 20, alloc 8, alloc 6, alloc 4, alloc 2, segment_alloc 2,
//                     alloc 0.5, free_requested 4, free_completed 4, free_requested 2
//   every block and event shares one `frames` list (so the pickle recalls it from the memo),
//   addresses are 0x7f3a… (LONG1), allocator_settings holds None, a float and a bool.
// snapshot_no_trace.pickle has segments A and B only; refused_reduce.pickle holds an object
// whose __reduce__ names builtins.print (STACK_GLOBAL + REDUCE).
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/compare/measurement.h"
#include "core/compare/pickle_reader.h"

namespace trainmem::compare {
namespace {

constexpr std::int64_t kMiB = 1LL << 20;

std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(TRAINMEM_SOURCE_DIR) + "/tests/data/compare/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ---- memory timeline ---------------------------------------------------------------------

// Rows as _coalesce_timeline writes them: a 0 placeholder, then PARAMETER, OPTIMIZER_STATE,
// INPUT, TEMPORARY, ACTIVATION, GRADIENT, AUTOGRAD_DETAIL, unknown.
TEST(CompareProfileTest, MemoryTimelineBreakdownAtThePeak) {
  const std::string timeline =
      "[[1700000000100, 1700000000200, 1700000000300],"
      " [[0, 1000, 0, 10, 0, 0, 0, 0, 5],"
      "  [0, 1000, 2000, 10, 300, 4000, 0, 200, 50],"
      "  [0, 1000, 2000, 0, 100, 0, 1000, 0, 50]]]";
  Result<Measurement> r = ReadMeasurement(timeline, "timeline.json");
  ASSERT_TRUE(r.ok()) << FormatError(r.errors().front());
  const MeasuredComponents& c = r.value().components;
  ASSERT_TRUE(c.present);
  // Row 1 sums to 7560, the largest of 1015, 7560 and 4150.
  EXPECT_EQ(c.total, 7560);
  EXPECT_EQ(c.parameters, 1000);
  EXPECT_EQ(c.optimizer_states, 2000);
  EXPECT_EQ(c.gradients, 0);
  EXPECT_EQ(c.activations, 4010);  // ACTIVATION 4000 + INPUT 10
  EXPECT_EQ(c.temporary, 550);     // TEMPORARY 300 + AUTOGRAD_DETAIL 200 + unknown 50
  EXPECT_EQ(c.unknown, 50);
  EXPECT_NE(c.source.find("row 1"), std::string::npos);
  const Peak* peak = LargestPeak(r.value(), Metric::kMaxAllocated);
  ASSERT_NE(peak, nullptr);
  EXPECT_EQ(peak->bytes, 7560);
}

// export_memory_timeline("x.raw.json.gz"), gunzipped: [time, action, ±bytes, category] events
// (category = _CATEGORY_TO_INDEX: 0 PARAMETER, 1 OPTIMIZER_STATE, 2 INPUT, 3 TEMPORARY,
// 4 ACTIVATION, 5 GRADIENT, 6 AUTOGRAD_DETAIL, 7 uncategorised). Alive bytes after each time:
//   t=-1  (pre-existing parameter)               1000
//   t=100 (+4000 activation, +300 temporary)     5300
//   t=200 (+2000 optimizer state, −300 temporary) 7000  (7300 between the two events: the
//          coalesced export rows only after all events of one time, so 7300 is no row)
//   t=300 (in-place update: −4000 activation, +4000 gradient) 7000, not larger
TEST(CompareProfileTest, RawMemoryTimelineIsReplayedPerTime) {
  const std::string raw =
      "[[-1, 0, 1000, 0], [100, 1, 4000, 4], [100, 1, 300, 3], [200, 1, 2000, 1], "
      "[200, 3, -300, 3], [300, 2, -4000, 4], [300, 2, 4000, 5]]";
  Result<Measurement> r = ReadMeasurement(raw, "timeline.raw.json");
  ASSERT_TRUE(r.ok()) << FormatError(r.errors().front());
  const MeasuredComponents& c = r.value().components;
  ASSERT_TRUE(c.present);
  EXPECT_EQ(c.total, 7000);
  EXPECT_EQ(c.parameters, 1000);
  EXPECT_EQ(c.optimizer_states, 2000);
  EXPECT_EQ(c.activations, 4000);
  EXPECT_EQ(c.gradients, 0);
  EXPECT_EQ(c.temporary, 0);
  EXPECT_NE(c.source.find("t=200"), std::string::npos) << c.source;

  Result<Measurement> bad = ReadMeasurement("[[1, 1, 10, 9], [2, 3, -10, 9], [3, 1, 5, 0]]");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.errors().front().message.find("event[0] has category 9"), std::string::npos)
      << bad.errors().front().message;
}

// Sizes no device has (each category 1e18 B: the five add up past 4 EiB, past int64 at
// 10 categories) are refused with a message, in both timeline forms, never summed into an
// overflow (found by fuzz_timeline).
TEST(CompareProfileTest, MemoryTimelineSizesPastAnyDeviceAreRefused) {
  Result<Measurement> rows =
      ReadMeasurement("[[1], [[1e18, 1e18, 1e18, 1e18, 1e18, 1e18, 1e18, 1e18, 1e18]]]");
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.errors().front().message.find("past 4 EiB"), std::string::npos)
      << rows.errors().front().message;
  Result<Measurement> raw = ReadMeasurement("[[0, 1, 3e18, 1], [1, 1, 3e18, 2]]");
  ASSERT_FALSE(raw.ok());
  EXPECT_NE(raw.errors().front().message.find("past 4 EiB"), std::string::npos)
      << raw.errors().front().message;
}

TEST(CompareProfileTest, MemoryTimelineBadRowsAreNamed) {
  Result<Measurement> r = ReadMeasurement(
      "[[1, 2], [[0, 1, 2, 3, 4, 5, 6, 7, 8], [0, -1, 0, 0, "
      "0, 0, 0, 0, 0]]]");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().skipped_count, 1);
  EXPECT_NE(r.value().skipped.front().message.find("sizes[1] PARAMETER is negative"),
            std::string::npos)
      << r.value().skipped.front().message;
  EXPECT_EQ(r.value().components.total, 36);  // 1+2+…+8

  Result<Measurement> shape = ReadMeasurement("[[1], [[0, 1, 2]]]");
  ASSERT_FALSE(shape.ok());
  EXPECT_NE(FormatError(shape.errors()[1]).find("3 entries, expected 9"), std::string::npos);
  EXPECT_FALSE(ReadMeasurement("[[1, 2], [[0, 1, 2, 3, 4, 5, 6, 7, 8]").ok());  // cut short
  EXPECT_FALSE(ReadMeasurement("[[1, 2], [[0,0,0,0,0,0,0,0,0]]]").ok());        // lengths differ
}

// ---- pickle reader -----------------------------------------------------------------------

TEST(CompareProfileTest, PickleReaderBuildsDataOnly) {
  // PROTO 4, EMPTY_DICT, MEMOIZE, MARK, "a" → LONG1 -2, "b" → BINFLOAT 0.5, "c" → NEWTRUE,
  // "d" → TUPLE2(NONE, BININT2 513), "e" → BINGET 0 (the dict itself), SETITEMS, STOP.
  static const char kBytes[] =
      "\x80\x04}\x94(\x8c\x01"
      "a\x8a\x01\xfe\x8c\x01"
      "bG\x3f\xe0\x00\x00\x00\x00\x00\x00"
      "\x8c\x01"
      "c\x88\x8c\x01"
      "dNM\x01\x02\x86\x8c\x01"
      "eh\x00u.";
  const std::string bytes(kBytes, sizeof kBytes - 1);
  auto r = ReadPickle(bytes);
  ASSERT_TRUE(r.ok()) << FormatError(r.errors().front());
  const PickleValue& root = *r.value()->root;
  ASSERT_EQ(root.kind, PickleValue::Kind::kDict);
  EXPECT_EQ(root.Get("a")->integer, -2);
  EXPECT_DOUBLE_EQ(root.Get("b")->number, 0.5);
  EXPECT_EQ(root.Get("c")->kind, PickleValue::Kind::kBool);
  EXPECT_EQ(root.Get("c")->integer, 1);
  const PickleValue* d = root.Get("d");
  ASSERT_EQ(d->kind, PickleValue::Kind::kTuple);
  EXPECT_EQ(d->items[0]->kind, PickleValue::Kind::kNone);
  EXPECT_EQ(d->items[1]->integer, 513);  // 0x0201 little-endian
  EXPECT_EQ(root.Get("e"), &root);       // memo recall is the same object
}

TEST(CompareProfileTest, PickleReaderRefusesCodeWithOpcodeAndOffset) {
  auto r = ReadPickle(Fixture("refused_reduce.pickle"));
  ASSERT_FALSE(r.ok());
  const std::string message = r.errors().front().message;
  // Offset 45 as CPython's pickletools.dis lists it for this file.
  EXPECT_NE(message.find("opcode 0x93 STACK_GLOBAL at byte 45: refused"), std::string::npos)
      << message;

  static const char kGlobal[] =
      "\x80\x02"
      "cos\nsystem\n.";
  auto global = ReadPickle(std::string(kGlobal, sizeof kGlobal - 1));
  ASSERT_FALSE(global.ok());
  EXPECT_NE(global.errors().front().message.find("GLOBAL"), std::string::npos);

  auto unknown = ReadPickle(std::string("\x80\x04\xff.", 4));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.errors().front().message.find("opcode 0xff at byte 2: unknown opcode"),
            std::string::npos)
      << unknown.errors().front().message;
}

TEST(CompareProfileTest, PickleReaderBoundsAndTruncation) {
  const std::string full = Fixture("snapshot_p4.pickle");
  auto cut = ReadPickle(full.substr(0, full.size() / 2));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.errors().front().message.find("cut short"), std::string::npos)
      << cut.errors().front().message;
  PickleLimits tight;
  tight.max_values = 10;
  auto big = ReadPickle(full, tight);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.errors().front().message.find("more values"), std::string::npos);
  // Nesting through the memo needs no deep stack: 200000 lists each inside the next. Reading
  // and freeing it must not recurse.
  std::string deep = "\x80\x04]r";
  deep += std::string("\x00\x00\x00\x00", 4);
  for (std::uint32_t i = 1; i <= 200000; ++i) {
    // EMPTY_LIST, LONG_BINGET i-1, APPEND, LONG_BINPUT i
    deep += "]j";
    for (int b = 0; b < 4; ++b) deep += static_cast<char>(((i - 1) >> (8 * b)) & 0xff);
    deep += "ar";
    for (int b = 0; b < 4; ++b) deep += static_cast<char>((i >> (8 * b)) & 0xff);
    deep += "0";  // POP: the stack stays shallow
  }
  deep += "j";
  for (int b = 0; b < 4; ++b) deep += static_cast<char>((200000u >> (8 * b)) & 0xff);
  deep += "0].";
  auto nested = ReadPickle(deep);
  ASSERT_TRUE(nested.ok()) << FormatError(nested.errors().front());
  EXPECT_EQ(nested.value()->root->kind, PickleValue::Kind::kList);
}

// ---- allocator snapshot ------------------------------------------------------------------

// Replaying device 0's trace backwards from the snapshot (active = 8 + 2 + 6 + 0.5 = 16.5
// MiB): before free_completed 4 → 20.5, before alloc 0.5 → 20, … → 0. The peak allocated is
// 20.5 MiB; reserved grows 0 → 20 → 22 MiB.
TEST(CompareProfileTest, SnapshotPeaksAndFragmentationForEveryProtocol) {
  for (const char* name : {"snapshot_p2.pickle", "snapshot_p4.pickle", "snapshot_p5.pickle"}) {
    SCOPED_TRACE(name);
    Result<Measurement> r = ReadMeasurement(Fixture(name), name);
    ASSERT_TRUE(r.ok()) << FormatError(r.errors().front());
    const Measurement& m = r.value();
    const SnapshotFacts& s = m.snapshot;
    ASSERT_TRUE(s.present);
    EXPECT_EQ(s.device, 0);  // 22 MiB reserved beats device 1's 4 MiB
    EXPECT_EQ(s.segments, 2);
    EXPECT_EQ(s.reserved_bytes, 22 * kMiB);
    EXPECT_EQ(s.allocated_bytes, 29 * kMiB / 2);  // 8 + 6 + 0.5
    EXPECT_EQ(s.active_bytes, 33 * kMiB / 2);     // + 2 pending free
    EXPECT_EQ(s.largest_free_block, 4 * kMiB);
    EXPECT_NEAR(s.free_in_segments_fraction, 7.5 / 22.0, 1e-12);
    EXPECT_EQ(s.trace_events, 10);
    const Peak* reserved = LargestPeak(m, Metric::kReserved);
    ASSERT_NE(reserved, nullptr);
    EXPECT_EQ(reserved->bytes, 22 * kMiB);
    const Peak* max_allocated = LargestPeak(m, Metric::kMaxAllocated);
    ASSERT_NE(max_allocated, nullptr);
    EXPECT_EQ(max_allocated->bytes, 41 * kMiB / 2);  // 20.5 MiB
    EXPECT_NE(m.notes.back().find("2 devices"), std::string::npos);
  }
}

TEST(CompareProfileTest, SnapshotWithoutTraceIsTheMoment) {
  Result<Measurement> r = ReadMeasurement(Fixture("snapshot_no_trace.pickle"));
  ASSERT_TRUE(r.ok()) << FormatError(r.errors().front());
  EXPECT_EQ(LargestPeak(r.value(), Metric::kMaxAllocated), nullptr);
  const Peak* allocated = LargestPeak(r.value(), Metric::kAllocated);
  ASSERT_NE(allocated, nullptr);
  EXPECT_EQ(allocated->bytes, 29 * kMiB / 2);
  EXPECT_EQ(LargestPeak(r.value(), Metric::kReserved)->bytes, 22 * kMiB);
  EXPECT_NE(r.value().notes.front().find("lower bound"), std::string::npos);
}

TEST(CompareProfileTest, SnapshotWithoutSegmentsIsAnError) {
  // PROTO 4, EMPTY_DICT, STOP: a dict with no "segments".
  Result<Measurement> r = ReadMeasurement(std::string("\x80\x04}.", 4), "empty.pickle");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(FormatError(r.errors().front()).find("no 'segments' list"), std::string::npos);
}

// Pickle (protocol 4) building blocks for the hand-made snapshots below: SHORT_BINUNICODE
// keys, LONG1 with 8 little-endian bytes for sizes.
std::string Key(const std::string& k) { return std::string("\x8c", 1) + char(k.size()) + k; }
std::string Long8(std::int64_t v) {
  std::string s("\x8a\x08", 2);
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return s;
}
// {"total_size": total, "blocks": [{"size": total, "state": "active_allocated"}]}
std::string Segment(std::int64_t total) {
  return "}(" + Key("total_size") + Long8(total) + Key("blocks") + "](}(" + Key("size") +
         Long8(total) + Key("state") + Key("active_allocated") + "ue" + "u";
}
std::string Snapshot(const std::string& segments, const std::string& trace = "") {
  std::string s = std::string("\x80\x04}(", 4) + Key("segments") + "](" + segments + "e";
  if (!trace.empty()) s += Key("device_traces") + "]](" + trace + "ea";
  return s + "u.";
}
std::string Event(const std::string& action, std::int64_t size) {
  return "}(" + Key("action") + Key(action) + Key("size") + Long8(size) + "u";
}

// Sizes no device has are refused before they are summed (fuzz_snapshot: two segments of
// 7.2e18 B overflowed int64), whether one size is past 1 PiB or many add up past it:
// 1025 segments of 1 TiB are 1025 TiB > 1 PiB = 1024 TiB, found at segments[1024].
TEST(CompareProfileTest, SnapshotSizesPastAnyDeviceAreRefused) {
  Result<Measurement> one = ReadMeasurement(Snapshot(Segment(1LL << 62)), "x.pickle");
  ASSERT_FALSE(one.ok());
  EXPECT_NE(FormatError(one.errors().front())
                .find("segments[0] total_size 4611686018427387904 is past 1 PiB"),
            std::string::npos)
      << FormatError(one.errors().front());

  std::string many;
  for (int i = 0; i < 1025; ++i) many += Segment(1LL << 40);
  Result<Measurement> sum = ReadMeasurement(Snapshot(many), "x.pickle");
  ASSERT_FALSE(sum.ok());
  EXPECT_NE(FormatError(sum.errors().front())
                .find("segments of device 0 add up past 1 PiB at segments[1024]"),
            std::string::npos)
      << FormatError(sum.errors().front());
  std::string fits;
  for (int i = 0; i < 1024; ++i) fits += Segment(1LL << 40);
  Result<Measurement> exact = ReadMeasurement(Snapshot(fits), "x.pickle");
  ASSERT_TRUE(exact.ok()) << FormatError(exact.errors().front());
  EXPECT_EQ(exact.value().snapshot.reserved_bytes, 1LL << 50);
}

// A trace event past 1 PiB cannot be this device's: the trace is not replayed (the figures
// are the snapshot's moment, 1 MiB), but an out-of-memory event earlier in it still counts.
TEST(CompareProfileTest, SnapshotTraceWithASizePastAnyDeviceIsNotReplayed) {
  const std::string trace = Event("oom", 0) + Event("alloc", 1LL << 62);
  Result<Measurement> r = ReadMeasurement(Snapshot(Segment(kMiB), trace), "x.pickle");
  ASSERT_TRUE(r.ok()) << FormatError(r.errors().front());
  EXPECT_EQ(LargestPeak(r.value(), Metric::kMaxAllocated), nullptr);
  EXPECT_EQ(LargestPeak(r.value(), Metric::kAllocated)->bytes, kMiB);
  EXPECT_TRUE(r.value().out_of_memory);
  EXPECT_EQ(r.value().snapshot.trace_events, 2);
  EXPECT_NE(r.value().notes.front().find("does not add up"), std::string::npos);
}

}  // namespace
}  // namespace trainmem::compare
