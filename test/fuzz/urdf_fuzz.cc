// libFuzzer target for the URDF parser: arbitrary bytes as a URDF document.
// sov::urdf::parse must return a model or throw sov::urdf::Error; any other
// exception, crash, leak or sanitizer report is a finding.
#include <console_bridge/console.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "superovoid/urdf/model.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // urdfdom explains every rejected document on stderr; the fuzzer makes
  // millions of them.
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string xml(reinterpret_cast<const char *>(data), size);
  try {
    const sov::urdf::Model model = sov::urdf::parse(xml, "fuzz.urdf");
    // A parsed superovoid is a validated shape with a unit rotation.
    for (const auto &s : model.superovoids) {
      sov_shape check;
      if (sov_shape_init(&check, s.params.data()) != SOV_OK) {
        std::fprintf(stderr, "urdf_fuzz: link '%s' accepted with invalid parameters\n",
                     s.link.c_str());
        std::abort();
      }
      const double nq = std::sqrt(s.quat[0] * s.quat[0] + s.quat[1] * s.quat[1] +
                                  s.quat[2] * s.quat[2] + s.quat[3] * s.quat[3]);
      if (!(std::fabs(nq - 1) <= 1e-6) || !std::isfinite(s.xyz[0] + s.xyz[1] + s.xyz[2])) {
        std::fprintf(stderr, "urdf_fuzz: link '%s' has a bad origin\n", s.link.c_str());
        std::abort();
      }
    }
  } catch (const sov::urdf::Error &) {
    // A refused document: the parser's contract.
  }
  return 0;
}
