#include "io.h"

#include <fstream>

#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {
namespace detail {

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
