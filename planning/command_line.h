// Command-line values shared by the planning tools (sov_make_srdf,
// sov_plan_demo): one parse of a count, one split of a list.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace sov {
namespace planning {

// text as an integer in [1, max], decimal digits only. False otherwise:
// strtol alone read 1e3 as 1, 0.5 as 0 and 2147483648 as a negative int.
inline bool positiveInteger(const std::string& text, std::uint64_t max, std::uint64_t* value) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno == ERANGE || *end || v == 0 || v > max) return false;
  *value = v;
  return true;
}

// The comma-separated items of text, empty ones kept ("a," is "a" and ""),
// so that a stray comma is seen rather than dropped.
inline std::vector<std::string> commaItems(const std::string& text) {
  std::vector<std::string> out;
  std::string::size_type from = 0;
  for (;;) {
    const auto comma = text.find(',', from);
    out.push_back(text.substr(from, comma - from));
    if (comma == std::string::npos) return out;
    from = comma + 1;
  }
}

}  // namespace planning
}  // namespace sov
