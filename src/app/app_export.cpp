// Share and export: the link, the embed snippet, and Markdown/CSV/JSON via clipboard or a
// downloaded file. The texts come from the core (report.h, share_link.h).
#include <string>

#include <nlohmann/json.hpp>

#include "app/app_actions.h"
#include "app/i18n.h"
#include "core/report.h"
#include "core/share_link.h"
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
  return platform::PageBaseUrl() + "#" + trainmem::EncodeShareFragment(state.config);
}

std::string EmbedSnippet(const AppState& state) {
  const std::string src = AttributeSafeUrl(ShareLink(state) + "&embed=1");
  return "<iframe src=\"" + src + "\" width=\"640\" height=\"360\" style=\"border:0\"></iframe>";
}

void OpenFullApp(const AppState& state) { platform::OpenInNewTab(ShareLink(state)); }

std::string ExportText(const AppState& state, ExportFormat format) {
  switch (format) {
    case ExportFormat::kMarkdown:
      return trainmem::EstimateToMarkdown(state.estimate);
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
