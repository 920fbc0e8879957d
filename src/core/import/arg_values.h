// Settings read as `key → value` from a Python trainer's arguments: a YAML job file and the
// launch line's `--key value` overrides (MindSpeed-LLM's train_fsdp2.py, the Hugging Face
// Trainer and the tools built on it). One reader tracks which keys the importer used, so every
// other key is reported as ignored, with a reason.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/import/import_detail.h"

namespace trainmem::import_detail {

struct ArgValue {
  json value;  // as the YAML types it, or the command line's text (a string, or an array)
  Source source;
};
using ArgValues = std::map<std::string, ArgValue>;  // "parallel.fsdp_size" or "bf16" → value

// Python-style booleans as argparse's str2bool helpers read them: yes/no, true/false, t/f, y/n,
// 1/0 in any case; nullopt for anything else.
std::optional<bool> ArgBool(const json& v);
// A value as text (strings as they are, others dumped with invalid UTF-8 replaced).
std::string ArgText(const json& v);
// A list value, or a scalar as a list of one.
std::vector<std::string> ArgList(const json& v);

// `--key value…` or `--key=value` from `words[first]` on; a flag with no value is a boolean set
// to true (argparse nargs="?", const=True). Later words win over earlier ones and over values
// already in `values` (the command line wins over the YAML).
void AddCommandLineArgs(const std::vector<bash::Word>& words, std::size_t first, ArgValues& values);

class ArgReader {
 public:
  ArgReader(ArgValues& values, Builder& b) : values_(values), b_(b) {}

  const ArgValue* Find(const std::string& key);  // marks the key used
  bool Has(const std::string& key) { return Find(key) != nullptr; }
  std::optional<long long> Int(const std::string& key);  // a problem if not a whole number
  std::optional<bool> Flag(const std::string& key);      // a problem if not a boolean
  std::string Str(const std::string& key);               // "" when absent
  // The source of a key, or `fallback` when the files do not give it.
  Source SourceOr(const std::string& key, Source fallback) const;
  Source SourceOf(const std::string& key) const { return SourceOr(key, {}); }
  // Every key not used, reported as ignored with reason(key).
  void ReportUnused(const std::function<std::string(const std::string&)>& reason);

 private:
  ArgValues& values_;
  Builder& b_;
  std::set<std::string> used_;
};

}  // namespace trainmem::import_detail
