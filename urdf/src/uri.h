// Percent escapes of the paths of mesh URIs (file://, package://): header-only,
// shared by resolveMeshUri, which decodes them, and relocateMeshFilenames,
// which writes relocated file:// paths back.
#ifndef SUPEROVOID_URDF_SRC_URI_H
#define SUPEROVOID_URDF_SRC_URI_H

#include <cctype>
#include <string>

#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {
namespace detail {

// text with each %XX escape replaced by its byte, as ROS's resource_retriever
// (curl) reads file:// URLs; throws Error(SOV_URDF_ERR_IO, naming uri) for a
// '%' without two hex digits and for %00, which no file name holds.
inline std::string percentDecoded(const std::string& text, const std::string& uri) {
  const auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const std::string escape = text.substr(i, 3);
    if (escape.size() < 3 || !hex(escape[1]) || !hex(escape[2]))
      throw Error(SOV_URDF_ERR_IO, Location{uri, 0, "", ""},
                  "malformed percent escape '" + escape + "' (a '%' is written %25 in a URI)");
    const char byte = static_cast<char>(std::stoi(escape.substr(1), nullptr, 16));
    if (byte == '\0')
      throw Error(SOV_URDF_ERR_IO, Location{uri, 0, "", ""},
                  "percent escape %00: no file name holds a NUL");
    out += byte;
    i += 2;
  }
  return out;
}

// path written for a URI: every byte but the unreserved ones, '/' and the
// sub-delimiters as %XX, so that percentDecoded gives path back.
inline std::string percentEncoded(const std::string& path) {
  static const char* const kDigits = "0123456789ABCDEF";
  static const std::string kKept = "-._~/!$&'()*+,;=:@";
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) && byte < 0x80) {
      out += c;
    } else if (kKept.find(c) != std::string::npos) {
      out += c;
    } else {
      out += '%';
      out += kDigits[byte >> 4];
      out += kDigits[byte & 15];
    }
  }
  return out;
}

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SRC_URI_H
