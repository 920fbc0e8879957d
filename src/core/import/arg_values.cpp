#include "core/import/arg_values.h"

namespace trainmem::import_detail {
namespace {

std::string Where(const ArgValue& v) {
  return v.source.file + (v.source.line > 0 ? ":" + std::to_string(v.source.line) : "") + ": ";
}

}  // namespace

std::optional<bool> ArgBool(const json& v) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_integer()) return v.get<long long>() != 0;
  if (!v.is_string()) return std::nullopt;
  const std::string t = Lower(Trim(v.get<std::string>()));
  if (t == "t" || t == "y") return true;
  if (t == "f" || t == "n") return false;
  return ParseBool(t);
}

std::string ArgText(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  // A YAML value may hold any bytes: dumped with invalid UTF-8 replaced, never thrown on.
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<std::string> ArgList(const json& v) {
  std::vector<std::string> out;
  if (v.is_array()) {
    for (const json& x : v) out.push_back(ArgText(x));
  } else if (!v.is_null()) {
    out.push_back(ArgText(v));
  }
  return out;
}

void AddCommandLineArgs(const std::vector<bash::Word>& words, std::size_t first,
                        ArgValues& values) {
  for (std::size_t i = first; i < words.size(); ++i) {
    const std::string& w = words[i].text;
    if (w.rfind("--", 0) != 0 || w.size() < 3) continue;
    std::string key = w.substr(2);
    json value;
    const std::size_t at = i;
    if (const std::size_t eq = key.find('='); eq != std::string::npos) {
      value = key.substr(eq + 1);
      key = key.substr(0, eq);
    } else {
      std::vector<std::string> items;
      while (i + 1 < words.size() && words[i + 1].text.rfind("--", 0) != 0)
        items.push_back(words[++i].text);
      if (items.empty()) {
        value = "true";
      } else if (items.size() == 1) {
        value = items.front();
      } else {
        value = items;
      }
    }
    values[key] = {value, {words[at].file, words[at].line, w}};
  }
}

const ArgValue* ArgReader::Find(const std::string& key) {
  used_.insert(key);
  auto it = values_.find(key);
  return it == values_.end() ? nullptr : &it->second;
}

std::optional<long long> ArgReader::Int(const std::string& key) {
  const ArgValue* v = Find(key);
  if (v == nullptr) return std::nullopt;
  const std::optional<long long> n = JsonInteger(v->value);
  if (!n) b_.Problem(Where(*v) + key + " = " + ArgText(v->value) + " is not a whole number");
  return n;
}

std::optional<bool> ArgReader::Flag(const std::string& key) {
  const ArgValue* v = Find(key);
  if (v == nullptr) return std::nullopt;
  const std::optional<bool> f = ArgBool(v->value);
  if (!f) b_.Problem(Where(*v) + key + " = " + ArgText(v->value) + " is not true or false");
  return f;
}

std::string ArgReader::Str(const std::string& key) {
  const ArgValue* v = Find(key);
  return v == nullptr ? "" : ArgText(v->value);
}

Source ArgReader::SourceOr(const std::string& key, Source fallback) const {
  auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second.source;
}

void ArgReader::ReportUnused(const std::function<std::string(const std::string&)>& reason) {
  for (const auto& [key, v] : values_)
    if (used_.count(key) == 0) b_.Ignore(v.source, reason(key));
}

}  // namespace trainmem::import_detail
