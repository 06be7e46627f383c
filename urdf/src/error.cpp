#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {

namespace {

// "<source>:<line>: <message>", "<source>: <message>" without a line, the
// message alone without a source.
std::string compose(const Location& where, const std::string& message) {
  if (where.source.empty()) return message;
  std::string s = where.source;
  if (where.line > 0) s += ":" + std::to_string(where.line);
  return s + ": " + message;
}

}  // namespace

Error::Error(int status, const Location& where, const std::string& message)
    : sov::Error(status, compose(where, message)), where_(where) {}

}  // namespace urdf
}  // namespace sov
