// The browser is a platform like any other (STYLE.md rule 11): no source file of the app calls
// or tests for Emscripten; its main loop is reached through platform.h alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "platform/platform.h"

namespace {

std::vector<std::string> AppFilesNaming(const std::vector<std::string>& words) {
  std::vector<std::string> hits;
  const std::filesystem::path app = std::filesystem::path(TRAINMEM_SOURCE_DIR) / "src" / "app";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(app)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    for (const std::string& word : words) {
      if (text.str().find(word) != std::string::npos)
        hits.push_back(entry.path().filename().string() + ": " + word);
    }
  }
  return hits;
}

TEST(PlatformSeam, NoAppFileNamesEmscripten) {
  const std::vector<std::string> hits =
      AppFilesNaming({"emscripten", "__EMSCRIPTEN__", "EM_ASM", "EM_JS"});
  std::string all;
  for (const std::string& hit : hits) all += "\n  " + hit;
  EXPECT_TRUE(hits.empty()) << all;
}

#ifndef __EMSCRIPTEN__  // the browser's loop is the browser's; this is the native stand-in
// The native loop (platform_native.cpp) draws while running and blocks in wait_for_events
// while paused: frames 1 and 2, then 2 pauses, one wait (which resumes, as an input event
// would through Wake), then frames 3 and 4.
int g_frames = 0;
int g_waits = 0;
void CountFrame() {
  ++g_frames;
  if (g_frames == 2) platform::PauseMainLoop();
}

TEST(PlatformSeam, NativeLoopWaitsOnlyWhilePaused) {
  platform::RunMainLoop(
      CountFrame, [] { return g_frames >= 4; },
      [] {
        ++g_waits;
        platform::ResumeMainLoop();
      });
  EXPECT_EQ(g_frames, 4);
  EXPECT_EQ(g_waits, 1);
}
#endif

}  // namespace
