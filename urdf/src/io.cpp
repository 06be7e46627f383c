#include "io.h"

#include <fstream>
#include <sstream>

#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {
namespace detail {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) {
    throw Error(SOV_URDF_ERR_IO, Location{path, 0, "", ""}, "cannot read the file");
  }
  return text.str();
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    throw Error(SOV_URDF_ERR_IO, Location{path, 0, "", ""}, "cannot write the file");
  }
}

}  // namespace detail
}  // namespace urdf
}  // namespace sov
