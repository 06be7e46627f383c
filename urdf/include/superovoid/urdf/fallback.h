// Writing fallback primitives for unmodified URDF readers.
#ifndef SUPEROVOID_URDF_FALLBACK_H
#define SUPEROVOID_URDF_FALLBACK_H

#include <string>

#include "superovoid/urdf/export.h"

namespace sov {
namespace urdf {

// The document with a box written before every superovoid element that is
// alone in its <geometry>; everything else is left byte for byte as it was.
// The box is centred on the collision origin and encloses the shape (its
// local bounds, rounded up to 6 significant digits). The result is checked:
// urdfdom and parse() load it with the same superovoids. Throws
// sov::urdf::Error as parse() does.
SOV_URDF_API std::string addFallbacks(const std::string& xml,
                                      const std::string& source_name = "<string>");

// addFallbacks from the file in_path to the file out_path (may be the same).
// Relative <mesh filename> values are rewritten to name the same files from
// out_path's folder when it is another.
SOV_URDF_API void addFallbacksFile(const std::string& in_path,
                                   const std::string& out_path);

}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_FALLBACK_H
