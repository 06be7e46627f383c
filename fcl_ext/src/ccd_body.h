// Internal: libccd GJK objects of posed shapes, held in place (FCL's own
// filling functions for its primitives), and such an object with its
// support callback as a body of the core's support-function GJK and EPA.
#ifndef SUPEROVOID_FCL_SRC_CCD_BODY_H
#define SUPEROVOID_FCL_SRC_CCD_BODY_H

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cone.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/detail/convexity_based_algorithm/gjk_libccd.h>
#include <superovoid/fcl/superovoid.h>
#include <superovoid/superovoid.h>

namespace sov {
namespace detail {

// What libccd's callbacks receive for a superovoid: its core shape and pose.
struct SuperovoidGJKObject {
  const sov_shape* shape;
  fcl::Matrix3<double> R;
  fcl::Vector3<double> p;
};

// The pose of an FCL transform with its rotation made orthonormal
// (sov_pose_from_matrix): SOV_OK, or its status for a transform that is not
// a rotation within 1e-6 plus a finite translation.
int poseOf(const fcl::Transform3<double>& tf, sov_pose* pose);

// The superovoid's libccd object, as GJKInitializer<double, Superovoid>
// makes it.
void superovoidToGJK(const Superovoid& s, const fcl::Transform3<double>& tf,
                     SuperovoidGJKObject* o);

// T's libccd object type and the function that fills one in place (FCL's
// createGJKObject allocates the object on every call).
template <class T>
struct CcdInPlace;
template <>
struct CcdInPlace<Superovoid> {
  using Object = SuperovoidGJKObject;
  static constexpr auto fill = &superovoidToGJK;
};
template <>
struct CcdInPlace<fcl::Box<double>> {
  using Object = fcl::detail::ccd_box_t;
  static constexpr auto fill = &fcl::detail::boxToGJK<double>;
};
template <>
struct CcdInPlace<fcl::Capsule<double>> {
  using Object = fcl::detail::ccd_cap_t;
  static constexpr auto fill = &fcl::detail::capToGJK<double>;
};
template <>
struct CcdInPlace<fcl::Cylinder<double>> {
  using Object = fcl::detail::ccd_cyl_t;
  static constexpr auto fill = &fcl::detail::cylToGJK<double>;
};
template <>
struct CcdInPlace<fcl::Cone<double>> {
  using Object = fcl::detail::ccd_cone_t;
  static constexpr auto fill = &fcl::detail::coneToGJK<double>;
};
template <>
struct CcdInPlace<fcl::Sphere<double>> {
  using Object = fcl::detail::ccd_sphere_t;
  static constexpr auto fill = &fcl::detail::sphereToGJK<double>;
};
template <>
struct CcdInPlace<fcl::Ellipsoid<double>> {
  using Object = fcl::detail::ccd_ellipsoid_t;
  static constexpr auto fill = &fcl::detail::ellipsoidToGJK<double>;
};
template <>
struct CcdInPlace<fcl::Convex<double>> {
  using Object = fcl::detail::ccd_convex_t<double>;
  static constexpr auto fill = &fcl::detail::convexToGJK<double>;
};

// libccd's object of a posed T, held in place (every shape a CcdPair
// holds has a CcdInPlace). Not copyable (a CcdBody points at it).
template <class T>
class CcdObject {
 public:
  CcdObject(const T& s, const fcl::Transform3<double>& tf) { CcdInPlace<T>::fill(s, tf, &object_); }
  CcdObject(const CcdObject&) = delete;
  CcdObject& operator=(const CcdObject&) = delete;
  void* get() { return &object_; }

 private:
  typename CcdInPlace<T>::Object object_;
};

// A libccd object of T (CcdObject's) and T's support callback.
struct CcdBody {
  fcl::detail::GJKSupportFunction support;
  const void* object;
};

// sov_support_fn of a CcdBody: its world support point along dir.
void ccdBodySupport(const void* body, const double dir[3], double x[3]) noexcept;

}  // namespace detail
}  // namespace sov

#endif  // SUPEROVOID_FCL_SRC_CCD_BODY_H
