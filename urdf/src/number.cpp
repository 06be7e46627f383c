#include "number.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace sov {
namespace urdf {
namespace detail {

namespace {

// Significant digits of a written fallback size.
constexpr int kDigits = 6;

}  // namespace

bool parseNumber(const char* text, double* value) {
  if (!text) return false;
  const char* begin = text;
  const char* end = text + std::strlen(text);
  const bool plus = begin != end && *begin == '+';  // from_chars takes '-' only
  if (plus) ++begin;
  if (begin == end) return false;
  if (plus && (*begin == '+' || *begin == '-')) return false;
  double v = 0;
  const std::from_chars_result r =
      std::from_chars(begin, end, v, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != end || !std::isfinite(v)) return false;
  *value = v;
  return true;
}

std::string formatRoundedUp(double value) {
  const double step = std::pow(10.0, std::floor(std::log10(value)) - (kDigits - 1));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*g", kDigits, value);  // nearest
  for (;;) {
    double back = 0;
    if (!parseNumber(buf, &back)) return buf;  // not reached for finite value
    if (back >= value) return buf;
    std::snprintf(buf, sizeof buf, "%.*g", kDigits, back + step);
  }
}

}  // namespace detail
}  // namespace urdf
}  // namespace sov
