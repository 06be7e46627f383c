// Numbers in attribute values: strict reading, and writing rounded up.
#ifndef SUPEROVOID_URDF_SRC_NUMBER_H
#define SUPEROVOID_URDF_SRC_NUMBER_H

#include <charconv>
#include <string>

namespace sov {
namespace urdf {
namespace detail {

// Read text as a finite double: the whole string must be one decimal number
// (optional sign, digits, point, exponent), nothing around it. Returns false
// otherwise, leaving *value unchanged.
bool parseNumber(const char* text, double* value);

// The shortest decimal text that reads back as exactly value (files and
// messages; the scene and fitter libraries use it too, so it is inline).
inline std::string formatShortest(double value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

// Shortest decimal of at most 6 significant digits that is >= value (> 0),
// e.g. 0.0120000001 -> "0.0120001".
std::string formatRoundedUp(double value);

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SRC_NUMBER_H
