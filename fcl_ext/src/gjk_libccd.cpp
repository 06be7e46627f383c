// The only file of the FCL layer that talks to libccd directly.
#include "superovoid/fcl/gjk_libccd.h"

#include "ccd_body.h"

#include <limits>

#include <ccd/ccd.h>
#include <ccd/vec3.h>

namespace fcl {
namespace detail {
namespace {

using sov::detail::SuperovoidGJKObject;

// libccd support callback: world support point of the posed body along dir.
void supportSuperovoid(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* v) noexcept {
  const auto* o = static_cast<const SuperovoidGJKObject*>(obj);
  const Vector3<double> world_dir(ccdVec3X(dir), ccdVec3Y(dir), ccdVec3Z(dir));
  const Vector3<double> local_dir = o->R.transpose() * world_dir;
  Vector3<double> local, world;
  double h = 0;
  const int status = sov_shape_support(local.data(), &h, o->shape, local_dir.data());
  if (status == SOV_OK) {
    world = o->R * local + o->p;
  } else if (status == SOV_ERR_OPTION) {  // zero direction
    world = o->p;
  } else {  // non-finite direction: let the NaN show in the answer
    world.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  ccdVec3Set(v, world[0], world[1], world[2]);
}

// libccd centre callback: the body's local origin in the world.
void centerSuperovoid(const void* obj, ccd_vec3_t* c) noexcept {
  const auto* o = static_cast<const SuperovoidGJKObject*>(obj);
  ccdVec3Set(c, o->p[0], o->p[1], o->p[2]);
}

}  // namespace

GJKSupportFunction GJKInitializer<double, sov::Superovoid>::getSupportFunction() {
  return &supportSuperovoid;
}

GJKCenterFunction GJKInitializer<double, sov::Superovoid>::getCenterFunction() {
  return &centerSuperovoid;
}

void* GJKInitializer<double, sov::Superovoid>::createGJKObject(
    const sov::Superovoid& s, const Transform3<double>& tf) {
  auto* o = new SuperovoidGJKObject;
  sov::detail::superovoidToGJK(s, tf, o);
  return o;
}

void GJKInitializer<double, sov::Superovoid>::deleteGJKObject(void* o) {
  delete static_cast<SuperovoidGJKObject*>(o);
}

}  // namespace detail
}  // namespace fcl

namespace sov {
namespace detail {

int poseOf(const fcl::Transform3<double>& tf, sov_pose* pose) {
  double R[9], p[3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) R[3 * i + j] = tf.linear()(i, j);
    p[i] = tf.translation()[i];
  }
  return sov_pose_from_matrix(pose, R, p);
}

void superovoidToGJK(const Superovoid& s, const fcl::Transform3<double>& tf,
                     SuperovoidGJKObject* o) {
  o->shape = &s.shape();
  o->R = tf.linear();
  o->p = tf.translation();
  // The nearest rotation, as the core poses the exact pairs: a
  // float-precision R, accepted within 1e-6, posed a slightly sheared body
  // against the primitives (found by a review). An R the caller's entry
  // point refused never gets here; one that fails again is left as it is.
  sov_pose pose;
  if (poseOf(tf, &pose) == SOV_OK)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) o->R(i, j) = pose.R[3 * i + j];
}

void ccdBodySupport(const void* body, const double dir[3], double x[3]) noexcept {
  const auto* b = static_cast<const CcdBody*>(body);
  ccd_vec3_t d, v;
  ccdVec3Set(&d, dir[0], dir[1], dir[2]);
  b->support(b->object, &d, &v);
  for (int i = 0; i < 3; ++i) x[i] = v.v[i];
}

}  // namespace detail
}  // namespace sov
