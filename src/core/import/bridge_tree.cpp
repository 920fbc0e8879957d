// The ConfigContainer tree layers are merged into (bridge_tree.h), Hydra's override words, and
// the range check of the numbers a memory estimate reads.
#include "core/import/bridge_tree.h"

#include <cctype>

#include "core/config/config.h"
#include "core/config/config_detail.h"
#include "core/import/arg_values.h"
#include "core/import/import_detail.h"
#include "core/model/model_detail.h"

namespace trainmem::import_detail {

void BridgeTree::Set(const std::string& dotted, json v, BridgeOrigin origin) {
  json* node = &value;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = dotted.find('.', start);
    const std::string part = dotted.substr(start, dot - start);
    if (!node->is_object()) *node = json::object();
    if (dot == std::string::npos) {
      (*node)[part] = std::move(v);
      break;
    }
    node = &(*node)[part];
    start = dot + 1;
  }
  // A value set over a section replaces what was under it.
  ForgetUnder(dotted);
  origins_[dotted] = std::move(origin);
}

void BridgeTree::ForgetUnder(const std::string& dotted) {
  for (auto it = origins_.lower_bound(dotted + ".");
       it != origins_.end() && StartsWith(it->first, dotted + ".");)
    it = origins_.erase(it);
}

bool BridgeTree::Has(const std::string& dotted) const {
  return detail::FindJsonPath(value, dotted) != nullptr;
}

bool BridgeTree::Erase(const std::string& dotted) {
  const std::size_t dot = dotted.rfind('.');
  json* parent = &value;
  if (dot != std::string::npos) {
    const json* found = detail::FindJsonPath(value, dotted.substr(0, dot));
    if (found == nullptr || !found->is_object()) return false;
    parent = const_cast<json*>(found);
  }
  const std::string last = dot == std::string::npos ? dotted : dotted.substr(dot + 1);
  if (!parent->is_object() || !parent->contains(last)) return false;
  parent->erase(last);
  origins_.erase(dotted);
  ForgetUnder(dotted);
  return true;
}

void BridgeTree::MergeNode(const json& node, const std::string& prefix, const YamlDocument& doc,
                           const std::string& file, json& into) {
  for (const auto& [key, v] : node.items()) {
    const std::string dotted = prefix.empty() ? key : prefix + "." + key;
    if (v.is_object() && !v.empty()) {
      if (!into.contains(key) || !into[key].is_object()) into[key] = json::object();
      MergeNode(v, dotted, doc, file, into[key]);
      continue;
    }
    ForgetUnder(dotted);
    into[key] = v;
    origins_[dotted] = {file, doc.LineOf(dotted), dotted};
  }
}

void BridgeTree::Merge(const YamlDocument& doc, const std::string& file) {
  if (!doc.value.is_object()) return;
  MergeNode(doc.value, "", doc, file, value);
}

const BridgeOrigin* BridgeTree::OriginOf(const std::string& dotted) const {
  auto it = origins_.find(dotted);
  if (it != origins_.end()) return &it->second;
  it = origins_.lower_bound(dotted + ".");
  if (it != origins_.end() && StartsWith(it->first, dotted + ".")) return &it->second;
  return nullptr;
}

// --- Dot-list ------------------------------------------------------------------------------------

namespace {

bool KeyChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// a.b.c with identifier parts (Hydra also takes '-' and '@' inside keys; kept for names such as
// "llama3-8b" under a key).
bool ValidKey(std::string_view key) {
  if (key.empty() || key.front() == '.' || key.back() == '.') return false;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    if (c == '.') {
      if (key[i - 1] == '.') return false;
    } else if (!KeyChar(c) && c != '-' && c != '@') {
      return false;
    }
  }
  return KeyChar(key.front());
}

std::string Unquoted(std::string_view t) {
  if (t.size() >= 2 && (t.front() == '"' || t.front() == '\'') && t.back() == t.front())
    return std::string(t.substr(1, t.size() - 2));
  return std::string(t);
}

}  // namespace

bool LooksLikeDotItem(std::string_view word) {
  std::string_view w = word;
  while (!w.empty() && (w.front() == '+' || w.front() == '~')) w.remove_prefix(1);
  const std::size_t eq = w.find('=');
  const std::string_view key = w.substr(0, eq);
  if (key.empty() || !KeyChar(key.front())) return false;
  if (eq == std::string_view::npos) return word.front() == '~' && ValidKey(key);
  for (char c : key)
    if (!KeyChar(c) && c != '.' && c != '-' && c != '@') return false;
  return true;
}

json HydraValue(std::string_view raw) {
  const std::string t = Trim(raw);
  if (t.size() >= 2 && (t.front() == '"' || t.front() == '\'') && t.back() == t.front())
    return Unquoted(t);
  const std::string lower = Lower(t);
  if (lower == "null" || lower == "none" || t == "~") return nullptr;
  if (lower == "true") return true;
  if (lower == "false") return false;
  if (const std::optional<long long> n = ParseInteger(t)) return *n;
  if (t.size() >= 2 && t.front() == '[' && t.back() == ']') {
    json list = json::array();
    std::string item;
    int depth = 0;
    for (char c : t.substr(1, t.size() - 2) + ",") {
      if (c == '[') ++depth;
      if (c == ']') --depth;
      if (c == ',' && depth == 0) {
        if (!Trim(item).empty()) list.push_back(HydraValue(item));
        item.clear();
      } else {
        item += c;
      }
    }
    return list;
  }
  // A float Hydra reads ("3e-4", "0.1"); "1e3" too. Names with digits stay strings.
  if (!t.empty() && (std::isdigit(static_cast<unsigned char>(t.front())) || t.front() == '-' ||
                     t.front() == '+' || t.front() == '.'))
    if (const std::optional<double> d = ParseNumber(t)) return *d;
  return t;
}

std::optional<DotItem> ParseDotItem(std::string_view word, std::string& error) {
  DotItem item;
  std::string_view w = word;
  if (StartsWith(w, "++")) {
    item.op = DotItem::Op::kForceAdd;
    w.remove_prefix(2);
  } else if (StartsWith(w, "+")) {
    item.op = DotItem::Op::kAdd;
    w.remove_prefix(1);
  } else if (StartsWith(w, "~")) {
    item.op = DotItem::Op::kDelete;
    w.remove_prefix(1);
  }
  const std::size_t eq = w.find('=');
  item.key = std::string(w.substr(0, eq));
  if (!ValidKey(item.key)) {
    error = "'" + std::string(word) + "' is not a Hydra override (KEY=VALUE, +KEY=VALUE, ~KEY)";
    return std::nullopt;
  }
  if (eq == std::string_view::npos) {
    if (item.op != DotItem::Op::kDelete) {
      error = "'" + std::string(word) + "' has no '=VALUE'";
      return std::nullopt;
    }
    return item;
  }
  item.value = HydraValue(w.substr(eq + 1));
  return item;
}

// --- Numbers -------------------------------------------------------------------------------------

void CheckBridgeNumbers(const BridgeTree& tree, std::vector<Error>& errors) {
  struct Field {
    const char* key;
    long long min, max;
    bool nullable;
  };
  static constexpr long long kWorld = kMaxWorldSize;
  static constexpr long long kBatch = 1000000000;  // a billion sequences a step
  static const Field kFields[] = {
      {"model.tensor_model_parallel_size", 1, kWorld, false},
      {"model.pipeline_model_parallel_size", 1, kWorld, false},
      {"model.context_parallel_size", 1, kWorld, false},
      {"model.expert_model_parallel_size", 1, kWorld, false},
      {"model.expert_tensor_parallel_size", 1, kWorld, true},
      {"model.virtual_pipeline_model_parallel_size", 1, kWorld, true},
      {"model.num_layers", 1, model_detail::kMaxLayers, false},
      {"model.hidden_size", 1, model_detail::kMaxWidth, false},
      {"model.ffn_hidden_size", 1, model_detail::kMaxWidth, true},
      {"model.num_attention_heads", 1, model_detail::kMaxWidth, false},
      {"model.num_query_groups", 1, model_detail::kMaxWidth, true},
      {"model.kv_channels", 1, model_detail::kMaxWidth, true},
      {"model.num_moe_experts", 1, model_detail::kMaxWidth, true},
      {"model.moe_router_topk", 1, model_detail::kMaxWidth, false},
      {"model.moe_ffn_hidden_size", 1, model_detail::kMaxWidth, true},
      {"model.vocab_size", 1, model_detail::kMaxVocab, true},
      {"model.seq_length", 1, kMaxSeqLen, false},
      {"model.mtp_num_layers", 0, model_detail::kMaxLayers, true},
      {"train.global_batch_size", 1, kBatch, true},
      {"train.micro_batch_size", 1, kBatch, false},
      {"dataset.seq_length", 1, kMaxSeqLen, true},
      {"dataset.sequence_length", 1, kMaxSeqLen, true},
  };
  for (const Field& f : kFields) {
    const json* v = detail::FindJsonPath(tree.value, f.key);
    if (v == nullptr || (v->is_null() && f.nullable)) continue;
    const std::optional<long long> n = JsonInteger(*v);
    if (n && *n >= f.min && *n <= f.max) continue;
    const BridgeOrigin* at = tree.OriginOf(f.key);
    std::string where = at ? at->file : "";
    if (at && at->line > 0) where += ":" + std::to_string(at->line);
    const std::string written = at && !at->text.empty() && at->text != f.key
                                    ? at->text
                                    : std::string(f.key) + " = " + ArgText(*v);
    errors.push_back({where, written + ": " + f.key + " must be a whole number from " +
                                 std::to_string(f.min) + " to " + std::to_string(f.max) +
                                 (f.nullable ? " (or null)" : "")});
  }
}

}  // namespace trainmem::import_detail
