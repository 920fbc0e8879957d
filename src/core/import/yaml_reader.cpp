#include "core/import/yaml_reader.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include <yaml-cpp/yaml.h>

namespace trainmem::import_detail {
namespace {

using nlohmann::json;

// PyYAML's YAML 1.1 resolvers, narrowed to what a job file holds (no sexagesimal, no dates).
json PlainScalar(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE" || s == "yes" || s == "Yes" || s == "on" ||
      s == "On") {
    return true;
  }
  if (s == "false" || s == "False" || s == "FALSE" || s == "no" || s == "No" || s == "off" ||
      s == "Off") {
    return false;
  }
  const bool numeric_start = std::isdigit(static_cast<unsigned char>(s[0])) ||
                             ((s[0] == '-' || s[0] == '+' || s[0] == '.') && s.size() > 1);
  if (!numeric_start || s.size() > 40) return s;
  std::string digits;
  for (char c : s) {
    if (c != '_') digits += c;  // 1_000_000
  }
  char* end = nullptr;
  errno = 0;
  const long long i = std::strtoll(digits.c_str(), &end, 10);
  if (end == digits.c_str() + digits.size() && errno == 0) return i;
  const double d = std::strtod(digits.c_str(), &end);
  if (end == digits.c_str() + digits.size() && std::isfinite(d)) return d;
  return s;
}

class Converter {
 public:
  explicit Converter(YamlDocument& doc) : doc_(doc) {}

  // Fails (returns false, sets error_) past the caps.
  bool Convert(const YAML::Node& node, json& out, const std::string& path, int depth) {
    if (++nodes_ > kMaxYamlNodes) {
      error_ = "the document holds (or its aliases expand to) more than " +
               std::to_string(kMaxYamlNodes) +
               " values, where a job file holds a few hundred: "
               "not read";
      return false;
    }
    if (depth > kMaxYamlDepth) {
      error_ = "nested deeper than " + std::to_string(kMaxYamlDepth) + " levels: not read";
      return false;
    }
    if (!path.empty() && doc_.lines.count(path) == 0) doc_.lines[path] = node.Mark().line + 1;
    switch (node.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null:
        out = nullptr;
        return true;
      case YAML::NodeType::Scalar:
        // yaml-cpp tags a plain scalar "?" and a quoted one "!".
        out = node.Tag() == "!" ? json(node.Scalar()) : PlainScalar(node.Scalar());
        return true;
      case YAML::NodeType::Sequence: {
        out = json::array();
        std::size_t i = 0;
        for (const YAML::Node& item : node) {
          json v;
          if (!Convert(item, v, path + "[" + std::to_string(i++) + "]", depth + 1)) return false;
          out.push_back(std::move(v));
        }
        return true;
      }
      case YAML::NodeType::Map: {
        out = json::object();
        for (const auto& kv : node) {
          if (!kv.first.IsScalar()) continue;  // complex keys: no job file has them
          const std::string key = kv.first.Scalar();
          json v;
          const std::string child = path.empty() ? key : path + "." + key;
          if (!Convert(kv.second, v, child, depth + 1)) return false;
          out[key] = std::move(v);  // a repeated key: the last wins, as in PyYAML
        }
        return true;
      }
    }
    return true;
  }

  const std::string& error() const { return error_; }

 private:
  YamlDocument& doc_;
  std::size_t nodes_ = 0;
  std::string error_;
};

}  // namespace

Result<YamlDocument> ReadYaml(std::string_view text) {
  YamlDocument doc;
  if (text.size() > kMaxYamlBytes)
    return Result<YamlDocument>::Failure(
        "", "a YAML file of " + std::to_string(text.size() >> 10) +
                " KiB is not read: job files are a few kilobytes (the limit is " +
                std::to_string(kMaxYamlBytes >> 10) + " KiB)");
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    Converter converter(doc);
    if (!converter.Convert(root, doc.value, "", 0))
      return Result<YamlDocument>::Failure("", converter.error());
  } catch (const YAML::Exception& e) {
    std::ostringstream where;
    if (!e.mark.is_null()) where << "line " << e.mark.line + 1 << ", column " << e.mark.column + 1;
    return Result<YamlDocument>::Failure(where.str(), "not valid YAML: " + e.msg);
  } catch (const std::exception& e) {
    return Result<YamlDocument>::Failure("", std::string("not valid YAML: ") + e.what());
  }
  return Result<YamlDocument>::Success(std::move(doc));
}

Result<YamlDocument> ReadYamlFile(const InputFile& file) {
  Result<YamlDocument> doc = ReadYaml(file.text);
  if (doc.ok()) return doc;
  std::vector<Error> errors;
  for (const Error& e : doc.errors())
    errors.push_back({file.name + (e.path.empty() ? "" : " " + e.path), e.message});
  return Result<YamlDocument>::Failure(std::move(errors));
}

}  // namespace trainmem::import_detail
