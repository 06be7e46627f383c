// Writing fallback boxes into a document for bare superovoid elements.
#ifndef SUPEROVOID_URDF_SRC_AUGMENT_H
#define SUPEROVOID_URDF_SRC_AUGMENT_H

#include <string>

#include <superovoid/superovoid.h>
#include <tinyxml2.h>

#include "scan.h"

namespace sov {
namespace urdf {
namespace detail {

// <box size="..."/> centred on the shape's local origin and enclosing its
// local bounds, sizes rounded up to 6 significant digits.
std::string fallbackBox(const sov_shape& shape);

// xml (already parsed into doc and scanned) with fallbackBox written before
// every superovoid that has no fallback: inserted into the text, everything
// else untouched; if the text cannot be matched to the elements (e.g. a
// comment that looks like one), doc is printed with the boxes added instead.
// The result is re-parsed and checked to carry the same superovoids.
std::string withFallbacks(const std::string& xml, tinyxml2::XMLDocument* doc,
                          const Scan& scan, const std::string& source);

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SRC_AUGMENT_H
