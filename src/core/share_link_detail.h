// Shared by the share link encoder and decoder (share_link.cpp, share_link_decode.cpp).
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace trainmem {
namespace detail {

// Link keys of a custom device's fields, `device=custom&dev.name=…&dev.gib=…`: short, since
// they appear in every such link.
inline constexpr std::pair<const char*, const char*> kDeviceLinkKeys[] = {
    {"dev.name", "name"}, {"dev.gib", "memory_gib"}, {"dev.per_node", "devices_per_node"}};

// The prefix of a custom model's HF fields, `model=custom&m.hidden_size=…`.
inline constexpr std::string_view kModelFieldPrefix = "m.";

std::string PercentEncode(std::string_view text);
// A malformed escape ("%zz") is kept as typed rather than failing the whole link.
std::string PercentDecode(std::string_view text);

}  // namespace detail
}  // namespace trainmem
