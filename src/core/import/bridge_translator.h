// The Megatron-Bridge translator's internals (bridge_translate.cpp, bridge_translate_model.cpp):
// a ConfigContainer tree's keys turned into Megatron argument words, with the keys it used.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/config/config_detail.h"
#include "core/import/arg_values.h"
#include "core/import/bash_reader.h"
#include "core/import/bridge_tree.h"
#include "core/import/import_detail.h"

namespace trainmem::import_detail::bridge_translate {

class Translator {
 public:
  Translator(const BridgeTree& tree, const std::string& file) : tree_(tree), file_(file) {}

  // The value at a dotted key, or null (absent and null are alike: a null states nothing).
  const json& At(const std::string& dotted) const {
    static const json kNull;
    const json* value = detail::FindJsonPath(tree_.value, dotted);
    return value != nullptr ? *value : kNull;
  }
  // A TransformerConfig field: flat under model (the provider classes), or under
  // model.transformer (Bridge's nested GPTModelConfig since 2026).
  std::string Model(const std::string& key) const {
    const json& nested = At("model.transformer");
    return nested.is_object() && nested.contains(key) ? "model.transformer." + key : "model." + key;
  }
  bool IsTrue(const std::string& key) const { return ArgBool(At(key)).value_or(false); }
  bool Set(const std::string& key) const { return !At(key).is_null(); }

  void Use(const std::string& key) { used_.insert(key); }
  bool Used(const std::string& key) const { return used_.count(key) != 0; }

  // `flag` with `values`, as the YAML key states it.
  void Emit(const std::string& key, const std::string& flag,
            const std::vector<std::string>& values = {}) {
    Use(key);
    const BridgeOrigin* at = tree_.OriginOf(key);
    const std::string file = at ? at->file : file_;
    const int line = at ? at->line : 0;
    words_.push_back({flag, line, file});
    for (const std::string& v : values) words_.push_back({v, line, file});
    if (flag_keys_.count(flag) == 0) flag_keys_[flag] = at && !at->text.empty() ? at->text : key;
  }
  // The key's value as the flag's argument, when it holds one.
  void Value(const std::string& key, const std::string& flag) {
    Use(key);
    if (Set(key)) Emit(key, flag, {ArgText(At(key))});
  }
  // A switch: true gives the flag; false is Megatron's default without it.
  void Switch(const std::string& key, const std::string& flag) {
    Use(key);
    if (IsTrue(key)) Emit(key, flag);
  }
  // A key read but not used, with the reason (reported as ignored when it holds a value).
  void Unused(const std::string& key, std::string reason) {
    if (Used(key)) return;
    Use(key);
    if (Set(key)) reasons_[key] = std::move(reason);
  }

  const std::vector<bash::Word>& words() const { return words_; }
  const std::map<std::string, std::string>& flag_keys() const { return flag_keys_; }
  const std::map<std::string, std::string>& reasons() const { return reasons_; }

 private:
  const BridgeTree& tree_;
  const std::string file_;
  std::vector<bash::Word> words_;
  std::set<std::string> used_;
  std::map<std::string, std::string> flag_keys_;  // "--num-layers" → the key as written
  std::map<std::string, std::string> reasons_;
};

// "torch.nn.functional.silu" from {_call_: false, _target_: torch.nn.functional.silu}.
inline std::string TargetOf(const json& v) {
  return v.is_object() && v.contains("_target_") ? ArgText(v["_target_"]) : ArgText(v);
}

// torch dtypes as Megatron's --exp-avg-dtype names them; "" for others.
inline std::string DtypeName(const json& v) {
  const std::string t = TargetOf(v);
  if (t == "torch.float32") return "fp32";
  if (t == "torch.bfloat16") return "bf16";
  if (t == "torch.float16") return "fp16";
  if (t == "torch.uint8" || t.find("float8") != std::string::npos) return "fp8";
  return "";
}

// The model's shape, attention and vocabulary; its MoE, MLA, MTP and Mamba layers
// (bridge_translate_model.cpp).
void TranslateModel(Translator& t, Builder& b);
void TranslateLayerVariants(Translator& t);

}  // namespace trainmem::import_detail::bridge_translate
