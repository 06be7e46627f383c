// Whole-file reading and writing for the URDF layer (readFile is inline:
// the scene and fit libraries read their SRDF and URDF files with it too).
#ifndef SUPEROVOID_URDF_SRC_IO_H
#define SUPEROVOID_URDF_SRC_IO_H

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {
namespace detail {

// The bytes of the file at path; throws Error(SOV_URDF_ERR_IO). A folder
// opens as a stream and fails only on reading (libstdc++ then threw its own
// exception, or gave an empty text that read as malformed XML): it is named
// before.
inline std::string readFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw Error(SOV_URDF_ERR_IO, Location{path, 0, "", ""}, "cannot read the file: it is a folder");
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) {
    throw Error(SOV_URDF_ERR_IO, Location{path, 0, "", ""}, "cannot read the file");
  }
  return text.str();
}

// Replace the file at path by text; throws Error(SOV_URDF_ERR_IO).
void writeFile(const std::string& path, const std::string& text);

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SRC_IO_H
