// The one exception type of the URDF layer.
#ifndef SUPEROVOID_URDF_ERROR_H
#define SUPEROVOID_URDF_ERROR_H

#include <stdexcept>
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

// A rejected URDF document. status() is a sov_status of superovoid.h for
// shape errors (SOV_ERR_SIZE, SOV_ERR_NONCONVEX, ...) and a SOV_URDF_ERR_*
// code of superovoid/urdf.h otherwise. what() reads
// "<source>:<line>: link '<link>' ...: <message>".
class SOV_URDF_API Error : public std::runtime_error {
 public:
  Error(int status, const Location& where, const std::string& message);
  // The status code.
  int status() const noexcept { return status_; }
  // The source name, line, link and attribute the message names.
  const Location& where() const noexcept { return where_; }

 private:
  int status_;
  Location where_;
};

}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_ERROR_H
