#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {

namespace {

// "<source>:<line>: <message>", or "<source>: <message>" without a line.
std::string compose(const Location& where, const std::string& message) {
  std::string s = where.source;
  if (where.line > 0) s += ":" + std::to_string(where.line);
  return s + ": " + message;
}

}  // namespace

Error::Error(int status, const Location& where, const std::string& message)
    : std::runtime_error(compose(where, message)), status_(status), where_(where) {}

}  // namespace urdf
}  // namespace sov
