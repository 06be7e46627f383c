// Start tags read in a document's own text, for the tools that edit a URDF
// in place (keeping its layout): header-only, shared by the URDF and fit
// libraries and sov-query.
#ifndef SUPEROVOID_URDF_SRC_XML_TEXT_H
#define SUPEROVOID_URDF_SRC_XML_TEXT_H

#include <cstddef>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include <tinyxml2.h>

#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"
#include "uri.h"

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

// The value of an attribute written raw between quote characters, as XML
// reads it (entity and character references replaced): tinyxml2's reading,
// which is urdfdom's. Throws Error(SOV_URDF_ERR_XML, naming source) for a
// value no parser reads.
inline std::string attributeValue(const std::string& raw, char quote, const std::string& source) {
  const std::string element = std::string("<a v=") + quote + raw + quote + "/>";
  tinyxml2::XMLDocument doc;
  const char* value = nullptr;
  if (doc.Parse(element.c_str(), element.size()) == tinyxml2::XML_SUCCESS)
    value = doc.RootElement()->Attribute("v");
  if (!value)
    throw Error(SOV_URDF_ERR_XML, Location{source, 0, "", ""},
                "cannot read the attribute value '" + raw + "'");
  return value;
}

// value written raw between quote characters: the characters XML would
// read otherwise as references.
inline std::string attributeText(const std::string& value, char quote) {
  std::string out;
  for (const char c : value) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '"':
        out += quote == c ? "&quot;" : "\"";
        break;
      case '\'':
        out += quote == c ? "&apos;" : "'";
        break;
      case '\t':
      case '\n':
      case '\r':
        out += "&#" + std::to_string(static_cast<int>(c)) + ";";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A <mesh filename> value (as XML reads it) for a document moved from the
// folder from to the folder to: a relative path, plain or after file:// (the
// URI's escapes decoded and written again), naming the same file from to;
// any other value as it is.
inline std::string relocatedMeshFilename(const std::string& value,
                                         const std::filesystem::path& from,
                                         const std::filesystem::path& to) {
  namespace fs = std::filesystem;
  static const std::string kFile = "file://";
  const bool uri = value.rfind(kFile, 0) == 0;
  if (!uri && value.find("://") != std::string::npos) return value;
  const fs::path path = uri ? percentDecoded(value.substr(kFile.size()), value) : value;
  if (path.empty() || !path.is_relative()) return value;
  const fs::path file = (from / path).lexically_normal();
  const fs::path moved = file.lexically_relative(to);
  const std::string relocated = (moved.empty() ? file : moved).generic_string();
  return uri ? kFile + percentEncoded(relocated) : relocated;
}

// xml with its relative <mesh filename> values (relocatedMeshFilename)
// rewritten for the document read from the file from_file and written to
// the file to_file, so that they name the same files from to_file's folder
// (a tool writing its output elsewhere left them naming nothing, with exit
// status 0); xml itself when the two files share a folder. Values are read
// as XML reads them (references such as &amp; replaced) and written back
// with the references they need. Comments and CDATA are left as they are.
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
      const char quote = xml[at + span.first - 1];
      const std::string value =
          attributeValue(xml.substr(at + span.first, span.second - span.first), quote, from_file);
      const std::string relocated = relocatedMeshFilename(value, from, to);
      if (relocated != value) {
        out.append(xml, copied, at + span.first - copied);
        out += attributeText(relocated, quote);
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
