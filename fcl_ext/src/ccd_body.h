// Internal: a libccd GJK object (FCL's GJKInitializer) as a body of the
// core's sov_support_penetration.
#ifndef SUPEROVOID_FCL_SRC_CCD_BODY_H
#define SUPEROVOID_FCL_SRC_CCD_BODY_H

#include <fcl/narrowphase/detail/convexity_based_algorithm/gjk_libccd.h>

namespace sov {
namespace detail {

// An object of GJKInitializer<double, T>::createGJKObject and T's support
// callback.
struct CcdBody {
  fcl::detail::GJKSupportFunction support;
  const void* object;
};

// sov_support_fn of a CcdBody: its world support point along dir.
void ccdBodySupport(const void* body, const double dir[3], double x[3]) noexcept;

}  // namespace detail
}  // namespace sov

#endif  // SUPEROVOID_FCL_SRC_CCD_BODY_H
