// A file the user dropped or pasted into the page: its name and its bytes (text or binary,
// e.g. a pickle, held as a std::string).
#pragma once

#include <string>

namespace platform {

struct File {
  std::string name;
  std::string text;
};

}  // namespace platform
