// The one exception type of the FCL layer and the one place that turns a C
// status code into it.
#ifndef SUPEROVOID_FCL_ERROR_H
#define SUPEROVOID_FCL_ERROR_H

#include <stdexcept>
#include <string>

#include "superovoid/fcl/export.h"

namespace sov {

// A failed superovoid operation: the sov_status code (negative, see
// superovoid.h) and an English message. Bad requests that the C API has no
// code for (an unsupported pair, GST_INDEP) carry SOV_ERR_OPTION.
class SOV_FCL_API Error : public std::runtime_error {
 public:
  Error(int status, const std::string& message);
  // The sov_status code.
  int status() const noexcept { return status_; }

 private:
  int status_;
};

// Throws sov::Error(status, "<context>: <sov_status_string(status)>") when
// status is not SOV_OK; returns otherwise.
SOV_FCL_API void throwIfError(int status, const std::string& context);

}  // namespace sov

#endif  // SUPEROVOID_FCL_ERROR_H
