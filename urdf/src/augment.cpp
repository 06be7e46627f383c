#include "augment.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "number.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {
namespace detail {

namespace {

// Offsets of the first character of each line (line 1 at index 0).
std::vector<std::size_t> lineStarts(const std::string& text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  return starts;
}

// Offset of the '<' of the (rank+1)-th tag named qname on the line starting
// at from, or npos.
std::size_t findTag(const std::string& text, std::size_t from,
                    const std::string& qname, int rank) {
  const std::string open = "<" + qname;
  for (std::size_t at = text.find(open, from); at != std::string::npos;
       at = text.find(open, at + 1)) {
    const std::size_t next = at + open.size();
    const bool whole = next < text.size() &&
        (text[next] == '/' || text[next] == '>' || std::isspace(static_cast<unsigned char>(text[next])));
    if (!whole) continue;
    if (rank-- == 0) return at;
  }
  return std::string::npos;
}

// The text with each box inserted, or "" when an element's tag is not found
// on its line.
std::string insertIntoText(const std::string& xml, const Scan& scan) {
  const std::vector<std::size_t> starts = lineStarts(xml);
  const std::string eol = xml.find("\r\n") != std::string::npos ? "\r\n" : "\n";
  std::vector<std::pair<std::size_t, std::string>> edits;
  for (const Site& s : scan.sites) {
    if (s.had_fallback) continue;
    if (s.line < 1 || static_cast<std::size_t>(s.line) > starts.size()) return "";
    const std::size_t from = starts[s.line - 1];
    const std::size_t at = findTag(xml, from, s.element->Name(), s.rank);
    const std::size_t end = s.line < static_cast<int>(starts.size()) ? starts[s.line] : xml.size();
    if (at == std::string::npos || at >= end) return "";
    const std::string before = xml.substr(from, at - from);
    const bool own_line = before.find_first_not_of(" \t") == std::string::npos;
    edits.emplace_back(at, fallbackBox(s.shape) + (own_line ? eol + before : ""));
  }
  std::string out = xml;
  std::sort(edits.begin(), edits.end());
  for (auto it = edits.rbegin(); it != edits.rend(); ++it) out.insert(it->first, it->second);
  return out;
}

// doc printed with a box element first in every bare superovoid's geometry.
std::string printWithBoxes(tinyxml2::XMLDocument* doc, const Scan& scan) {
  for (const Site& s : scan.sites) {
    if (s.had_fallback) continue;
    tinyxml2::XMLDocument box_doc;
    box_doc.Parse(fallbackBox(s.shape).c_str());
    tinyxml2::XMLNode* box = box_doc.FirstChildElement()->DeepClone(doc);
    s.geometry->InsertFirstChild(box);
  }
  tinyxml2::XMLPrinter printer;
  doc->Print(&printer);
  return printer.CStr();
}

// True when text scans to the superovoids of scan, each with a fallback.
bool sameSuperovoids(const std::string& text, const Scan& scan,
                     const std::string& source) {
  tinyxml2::XMLDocument doc;
  Scan again;
  try {
    parseXml(&doc, text, source);
    again = scanDocument(&doc, source);
  } catch (const Error&) {
    return false;
  }
  if (again.sites.size() != scan.sites.size()) return false;
  for (std::size_t i = 0; i < scan.sites.size(); ++i) {
    const Site& a = scan.sites[i];
    const Site& b = again.sites[i];
    if (!b.had_fallback || a.link != b.link || a.index != b.index ||
        a.collision != b.collision || a.params != b.params) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string fallbackBox(const sov_shape& shape) {
  std::string size;
  sov_shape_info info{};
  sov_shape_get(&info, &shape);  // a validated shape: cannot fail
  for (int i = 0; i < 3; ++i) {
    const double half = std::max(std::fabs(info.aabb_lo[i]), std::fabs(info.aabb_hi[i]));
    size += (i ? " " : "") + formatRoundedUp(2 * half);
  }
  return "<box size=\"" + size + "\"/>";
}

std::string withFallbacks(const std::string& xml, tinyxml2::XMLDocument* doc,
                          const Scan& scan, const std::string& source) {
  const bool bare = std::any_of(scan.sites.begin(), scan.sites.end(),
                                [](const Site& s) { return !s.had_fallback; });
  if (!bare) return xml;
  std::string out = insertIntoText(xml, scan);
  if (!out.empty() && sameSuperovoids(out, scan, source)) return out;
  out = printWithBoxes(doc, scan);
  if (sameSuperovoids(out, scan, source)) return out;
  throw Error(SOV_URDF_ERR_INTERNAL, Location{source, 0, "", ""},
              "could not write fallback boxes into the document");
}

}  // namespace detail
}  // namespace urdf
}  // namespace sov
