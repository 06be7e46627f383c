// Start tags read in a document's own text, for the tools that edit a URDF
// in place (keeping its layout): header-only, shared by the URDF and fit
// libraries.
#ifndef SUPEROVOID_URDF_SRC_XML_TEXT_H
#define SUPEROVOID_URDF_SRC_XML_TEXT_H

#include <cstddef>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

namespace sov {
namespace urdf {
namespace detail {

// One past the '>' that ends the start tag opening at begin (npos if none):
// a '>' inside a quoted attribute value, legal XML, does not end it.
inline std::size_t tagEnd(const std::string& text, std::size_t begin) {
  char quote = 0;
  for (std::size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i + 1;
    }
  }
  return std::string::npos;
}

// The span [first, second) of the value of attribute name in the start tag
// tag, whatever the spacing around '=' ({npos, npos} if it has none).
inline std::pair<std::size_t, std::size_t> attributeSpan(const std::string& tag,
                                                         const std::string& name) {
  static const char* const kSpace = " \t\r\n";
  const std::size_t npos = std::string::npos;
  std::size_t i = tag.find_first_of(" \t\r\n/>");  // past the element's name
  while (i != npos && i < tag.size()) {
    i = tag.find_first_not_of(kSpace, i);
    if (i == npos || tag[i] == '>' || tag[i] == '/') break;
    const std::size_t name_end = tag.find_first_of(" \t\r\n=/>", i);
    if (name_end == npos) break;
    const std::size_t eq = tag.find_first_not_of(kSpace, name_end);
    if (eq == npos || tag[eq] != '=') break;  // not well-formed: the parser refused it
    const std::size_t q = tag.find_first_not_of(kSpace, eq + 1);
    if (q == npos || (tag[q] != '"' && tag[q] != '\'')) break;
    const std::size_t close = tag.find(tag[q], q + 1);
    if (close == npos) break;
    if (tag.compare(i, name_end - i, name) == 0 && name_end - i == name.size())
      return {q + 1, close};
    i = close + 1;
  }
  return {npos, npos};
}

// xml with its relative <mesh filename> values (no URI scheme, not absolute)
// rewritten for the document read from the file from_file and written to
// the file to_file, so that they name the same files from to_file's folder
// (a tool writing its output elsewhere left them naming nothing, with exit
// status 0); xml itself when the two files share a folder. Comments, CDATA
// and values with entities are left as they are.
inline std::string relocateMeshFilenames(const std::string& xml, const std::string& from_file,
                                         const std::string& to_file) {
  namespace fs = std::filesystem;
  const std::size_t npos = std::string::npos;
  std::error_code ec;
  const auto folder = [&](const std::string& file) {
    const fs::path dir = fs::path(file).parent_path();
    return fs::weakly_canonical(fs::absolute(dir.empty() ? fs::path(".") : dir), ec);
  };
  const fs::path from = folder(from_file), to = folder(to_file);
  if (from == to) return xml;
  std::string out;
  std::size_t copied = 0, at = 0;
  while ((at = xml.find('<', at)) != npos) {
    if (xml.compare(at, 4, "<!--") == 0) {
      at = xml.find("-->", at);
      continue;
    }
    if (xml.compare(at, 9, "<![CDATA[") == 0) {
      at = xml.find("]]>", at);
      continue;
    }
    const std::size_t end = tagEnd(xml, at);
    if (end == npos) break;
    const bool mesh = xml.compare(at, 5, "<mesh") == 0 && at + 5 < xml.size() &&
                      std::string(" \t\r\n/>").find(xml[at + 5]) != npos;
    const auto span = mesh ? attributeSpan(xml.substr(at, end - at), "filename")
                           : std::pair<std::size_t, std::size_t>{npos, npos};
    if (span.second != npos) {
      const std::string value = xml.substr(at + span.first, span.second - span.first);
      if (!value.empty() && value.find("://") == npos && value.find('&') == npos &&
          fs::path(value).is_relative()) {
        const fs::path file = (from / value).lexically_normal();
        const fs::path moved = file.lexically_relative(to);
        out.append(xml, copied, at + span.first - copied);
        out += (moved.empty() ? file : moved).generic_string();
        copied = at + span.second;
      }
    }
    at = end;
  }
  out.append(xml, copied, npos);
  return out;
}

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SRC_XML_TEXT_H
