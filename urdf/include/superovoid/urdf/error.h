// The URDF layer's exception: a sov::Error (superovoid/error.h, the one
// hierarchy of the C++ layers) that also says where in a document it is.
#ifndef SUPEROVOID_URDF_ERROR_H
#define SUPEROVOID_URDF_ERROR_H

#include <superovoid/error.h>

#include <string>

#include "superovoid/urdf/export.h"

namespace sov {
namespace urdf {

// Where in a document an error is: source (file name or "<string>"), line
// (0 when unknown), link and attribute (empty when they do not apply).
struct Location {
  std::string source;
  int line = 0;
  std::string link;
  std::string attribute;
};

// A rejected input of the URDF layer (a document, a mesh file, an SRDF).
// status() is a sov_status of superovoid.h for shape errors (SOV_ERR_SIZE,
// SOV_ERR_NONCONVEX, ...) and a SOV_URDF_ERR_* code of superovoid/urdf.h
// otherwise. what() reads "<source>:<line>: <message>" ("<source>: " without
// a line, nothing before the message without a source).
class SOV_URDF_API Error : public sov::Error {
 public:
  Error(int status, const Location& where, const std::string& message);
  // The source name, line, link and attribute the message names.
  const Location& where() const noexcept { return where_; }

 private:
  Location where_;
};

}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_ERROR_H
