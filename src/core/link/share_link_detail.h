// Shared by the share link encoder and decoder (share_link.cpp, share_link_decode.cpp).
#pragma once

#include <nlohmann/json_fwd.hpp>
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

// The defaults v1 links diff against, frozen (share_link_v1.cpp).
const nlohmann::json& V1LinkDefaults();
// Keys added to the config after V1LinkDefaults froze, each with its default (what a v1 link
// without the key means, now and always). The encoder writes them only when they differ; the
// decoder reads their type from here, since the frozen defaults do not hold them.
const nlohmann::json& V1LaterKeys();
// What a v1 link starts from: the schema's current defaults with every key v1 knew set to its
// frozen v1 default.
nlohmann::json V1LinkBase();

// Link keys the page owns rather than the config: the language (`lang=zh`) and measurements
// (`m=…`). The decoder keeps them, in order, for the page to re-append.
inline constexpr const char* kPageLinkKeys[] = {"lang", "m"};

std::string PercentEncode(std::string_view text);
// For page keys' values (`m=reserved:72.82GiB,act:20GiB@r0`): also keeps ':', ',' and '@',
// which a fragment may hold as they are (RFC 3986 pchar) and the link's '&'/'=' split ignores.
std::string PercentEncodePageValue(std::string_view text);
// A malformed escape ("%zz") is kept as typed rather than failing the whole link.
std::string PercentDecode(std::string_view text);
// PercentDecode for text that is shown or kept as text: escapes that decode to bytes which are
// not UTF-8 ("%E0%A4" cut short) are left as written, so a message quotes what the link says
// ("%E0%A4%A"), never a replacement character.
std::string PercentDecodeText(std::string_view text);

}  // namespace detail
}  // namespace trainmem
