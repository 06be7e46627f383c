// Whole-file reading and writing for the URDF layer.
#ifndef SUPEROVOID_URDF_SRC_IO_H
#define SUPEROVOID_URDF_SRC_IO_H

#include <string>

namespace sov {
namespace urdf {
namespace detail {

// The bytes of the file at path; throws Error(SOV_URDF_ERR_IO).
std::string readFile(const std::string& path);

// Replace the file at path by text; throws Error(SOV_URDF_ERR_IO).
void writeFile(const std::string& path, const std::string& text);

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SRC_IO_H
