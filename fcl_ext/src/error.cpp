#include "superovoid/fcl/error.h"

#include <superovoid/superovoid.h>

namespace sov {

Error::Error(int status, const std::string& message)
    : std::runtime_error(message), status_(status) {}

void throwIfError(int status, const std::string& context) {
  if (status == SOV_OK) return;
  throw Error(status, context + ": " + sov_status_string(status));
}

}  // namespace sov
