// Share and export: the link, the embed snippet, and Markdown/CSV/JSON via clipboard or a
// downloaded file. The texts come from the core (report.h, share_link.h).
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "app/app_actions.h"
#include "app/draw/memory_bar.h"
#include "app/words/i18n.h"
#include "app/words/labels.h"
#include "core/link/share_link.h"
#include "core/report/report.h"
#include "platform/platform.h"

namespace app {
namespace {

// Characters that may not appear raw in a URL inside an HTML attribute (the fragment is the
// core's, already percent-encoded; this is a second fence for the snippet).
std::string AttributeSafeUrl(const std::string& url) {
  std::string safe;
  for (char c : url) {
    switch (c) {
      case '"':
        safe += "%22";
        break;
      case '\'':
        safe += "%27";
        break;
      case '<':
        safe += "%3C";
        break;
      case '>':
        safe += "%3E";
        break;
      case ' ':
        safe += "%20";
        break;
      default:
        safe += c;
    }
  }
  return safe;
}

// Text for a double-quoted HTML attribute.
std::string HtmlAttribute(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The Markdown export in the page's language: what was estimated, the verdict, the table, the
// advice in words, and the link that reopens it.
std::string Markdown(const AppState& state) {
  const trainmem::Estimate& e = state.estimate;
  std::string out = "**" + EstimatedWhat(state.config, e.layout) + "**\n\n";
  out += std::string("| ") + Tr(Str::kColumnComponent) + " | GiB | GB | " + Tr(Str::kColumnShare) +
         " |\n|---|---:|---:|---:|\n";
  ComponentValue values[5];
  ComponentValues(e.per_device, values);
  auto row = [&](const char* name, std::int64_t bytes) {
    char share[16];
    std::snprintf(share, sizeof share, "%.1f %%",
                  e.per_device.total > 0
                      ? 100.0 * static_cast<double>(bytes) / static_cast<double>(e.per_device.total)
                      : 0.0);
    out += std::string("| ") + name + " | " + trainmem::FormatGiB(bytes) + " | " +
           trainmem::FormatGB(bytes) + " | " + share + " |\n";
  };
  for (const ComponentValue& v : values) row(ComponentName(v.component), v.bytes);
  row(Tr(Str::kRowTotal), e.per_device.total);
  const std::int64_t headroom = e.budget.headroom_bytes;
  out += "\n**" + std::string(VerdictWords(e)) + "**: " +
         TrFormat(headroom >= 0 ? Str::kHeadlineSpareTemplate : Str::kHeadlineOverTemplate,
                  trainmem::FormatGiB(e.per_device.total).c_str(),
                  trainmem::FormatGiB(e.budget.usable_bytes).c_str(),
                  trainmem::FormatGiB(std::llabs(headroom)).c_str()) +
         "\n\n" + AccuracyLine(e) + "\n";
  if (!e.recommendations.empty()) {
    // The ladder is cumulative: each row says everything it sets, as the page's Apply does.
    out += std::string("\n") + Tr(Str::kAdviceIntro) + "\n\n| " + Tr(Str::kSectionAdvice) +
           " | GiB | |\n|---|---:|---|\n";
    for (const trainmem::Recommendation& r : e.recommendations)
      out += "| " + AdviceWithChanges(r) + " | " + trainmem::FormatGiB(r.total_bytes) + " | " +
             Tr(VerdictPill(r.verdict)) + " |\n";
  }
  if (e.devices_needed > 0)
    out += "\n" +
           TrFormat(Str::kAdviceDevicesNeededTemplate, static_cast<long long>(e.devices_needed)) +
           "\n";
  out += "\n[" + std::string(Tr(Str::kOpenInTrainmem)) + "](" + ShareLink(state) + ")\n";
  return out;
}

std::string FileStem(const AppState& state) {
  std::string stem = state.config.model_id.empty() ? "custom" : state.config.model_id;
  if (!state.config.device.id.empty()) stem += "-" + state.config.device.id;
  return "trainmem-" + stem;
}

struct FormatInfo {
  const char* extension;
  const char* mime;
};

FormatInfo Info(ExportFormat format) {
  switch (format) {
    case ExportFormat::kMarkdown:
      return {".md", "text/markdown"};
    case ExportFormat::kCsv:
      return {".csv", "text/csv"};
    default:
      return {".json", "application/json"};
  }
}

}  // namespace

std::string ShareLink(const AppState& state) {
  return platform::PageBaseUrl() + "#" + LinkFragment(state);
}

std::string EmbedSnippet(const AppState& state) {
  const std::string src = AttributeSafeUrl(ShareLink(state) + "&embed=1");
  const std::string title = HtmlAttribute(TrFormat(
      Str::kEmbedFrameTitleTemplate, EstimatedWhat(state.config, state.estimate.layout).c_str()));
  return "<iframe src=\"" + src + "\" title=\"" + title +
         "\" width=\"640\" height=\"360\" style=\"border:0\" loading=\"lazy\"></iframe>";
}

void OpenFullApp(const AppState& state) { platform::OpenInNewTab(ShareLink(state)); }

std::string ExportText(const AppState& state, ExportFormat format) {
  switch (format) {
    case ExportFormat::kMarkdown:
      return Markdown(state);
    case ExportFormat::kCsv:
      return trainmem::EstimateToCsv(state.estimate);
    default:
      return trainmem::EstimateToJson(state.estimate).dump(2);
  }
}

void CopyExport(AppState& state, ExportFormat format) {
  platform::CopyText(ExportText(state, format));
  ShowFeedback(state, Tr(Str::kFeedbackCopied));
}

void DownloadExport(AppState& state, ExportFormat format) {
  const FormatInfo info = Info(format);
  platform::DownloadText(FileStem(state) + info.extension, info.mime, ExportText(state, format));
  ShowFeedback(state, Tr(Str::kFeedbackDownloaded));
}

void CopyShareLink(AppState& state) {
  platform::CopyText(ShareLink(state));
  ShowFeedback(state, Tr(Str::kFeedbackLinkCopied));
}

void CopyEmbedSnippet(AppState& state) {
  platform::CopyText(EmbedSnippet(state));
  ShowFeedback(state, Tr(Str::kFeedbackSnippetCopied));
}

}  // namespace app
