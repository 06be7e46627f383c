// Drop-in replacement for fcl::continuousCollide that also answers pairs
// with a superovoid, and the conservative-advancement pieces it is made of
// (separation, boundingRadius), for callers that advance motions of their
// own (the robot scene).
//
// Same signatures and meaning as fcl::continuousCollide (and fcl::collide
// for ContinuousCollisionObject): the time of first contact of o1 and o2 as
// they move over t in [0, 1]; result.is_collide, result.time_of_contact (1
// when they do not collide), result.contact_tf1 / contact_tf2 (the poses at
// that time); returns the time of contact. A pair without a superovoid is
// forwarded to fcl::continuousCollide untouched (FCL's answer, messages on
// stderr and all). A pair with one is answered here, whatever
// request.ccd_solver_type says (FCL's default CCDC_NAIVE samples 10 poses
// and misses thin obstacles; its ray shooting is not implemented and its
// polynomial solver takes meshes only), by conservative advancement
// (Mirtich 2000): at each step the distance d and normal n (o1 to o2) at
// time t, a lower bound g on the distance, and a bound mu on how fast the
// gap along the fixed n can shrink; the bodies cannot touch before
// t + g / mu. Contact is reported at the first step with
// d <= kContinuousDistanceTolerance (or the core's rounding floor at the
// step's scale where that is larger, sov_toc_rounding_floor), or when a step g / mu would be shorter
// than request.toc_err (FCL's own conservative advancement stops that way,
// at a fixed 1e-4); the reported time is never after the first contact.
//
// Motions (request.ccd_motion_type, or the MotionBase given): CCDM_TRANS
// (TranslationMotion: the start rotation kept), CCDM_LINEAR (InterpMotion:
// the origin on the straight line, the rotation by the shortest arc about
// a fixed axis, the C API's sov_motion), CCDM_SCREW (ScrewMotion); mu
// counts each body's translation along n and |n x axis| times the angular
// velocity times the body's bounding radius (plus the distance of its
// origin from the screw axis or of the InterpMotion's reference point).
// CCDM_SPLINE is refused (sov::Error, SOV_ERR_OPTION): its speed bound is
// not one this layer can certify. With begin and end transforms, every
// motion type carries a body from its begin to its end transform: a body
// whose rotation matrices are equal at both ends translates along the
// segment (a still plane or halfspace, however tilted, is answered; FCL
// 0.7's ScrewMotion would move such a body by |o| o instead of its
// translation o), and a screw under FCL's 1e-10 rad threshold is the
// CCDM_LINEAR motion. A MotionBase given is followed as it is.
//
// Pairs and the lower bound g:
//  - superovoid vs superovoid, sphere or ellipsoid under CCDM_TRANS or
//    CCDM_LINEAR: the C core's sov_time_of_contact (certified; steps warm-
//    started);
//  - the other convex pairs (superovoid vs box, capsule, cone, cylinder,
//    convex; plane and halfspace; any of them under CCDM_SCREW): d from
//    sov::distance (GJK at FCL's default distance tolerance 1e-6, again at
//    1e-10 where its direction is too rough; exact for the others) and g
//    the gap along n from the exact support functions of both bodies
//    (certified);
//  - a triangle mesh (BVHModel) or octree: d from sov::distance (FCL's
//    per-triangle GJK; 0 once they touch), g the gap along n of the mesh's
//    vertices' convex hull when it is positive (certified), else d itself
//    (as good as GJK's distance: ContinuousContact::certified is false).
//
// Throws sov::Error: the cases of superovoid/fcl/collision.h, CCDM_SPLINE
// or a motion of another class, a plane or halfspace that turns (its points
// have no speed bound; rotation matrices equal at both ends do not turn,
// and a MotionBase's turn of at most 64 DBL_EPSILON rad, the rounding FCL's
// InterpMotion records between equal matrices, is none),
// and SOV_ERR_NO_CONVERGENCE when no contact or end is reached within
// max(request.num_max_iterations, kContinuousMinSteps) steps (the message
// says up to which time the pair is proved free). Never prints, never
// aborts.
#ifndef SUPEROVOID_FCL_CONTINUOUS_COLLISION_H
#define SUPEROVOID_FCL_CONTINUOUS_COLLISION_H

#include <cstddef>

#include <fcl/math/motion/motion_base.h>
#include <fcl/narrowphase/collision_object.h>
#include <fcl/narrowphase/continuous_collision_object.h>
#include <fcl/narrowphase/continuous_collision_request.h>
#include <fcl/narrowphase/continuous_collision_result.h>
#include <superovoid/superovoid.h>

#include "superovoid/fcl/export.h"

namespace sov {

// Contact once the signed distance is at most this (length units).
constexpr double kContinuousDistanceTolerance = 1e-6;
// Steps at least allowed, whatever request.num_max_iterations (FCL's
// default 10 counts its naive solver's samples).
constexpr std::size_t kContinuousMinSteps = 10000;

// What a continuous query found beyond FCL's result: the answer at the
// time of contact (or at the last step when there is none).
struct ContinuousContact {
  // Signed distance there; NaN, as the points and normal, for core shapes
  // proved overlapping at t = 0 with no distance (sov_time_of_contact).
  double distance = 0;
  fcl::Vector3<double> normal = fcl::Vector3<double>::Zero();  // unit, o1 to o2
  fcl::Vector3<double> p1 = fcl::Vector3<double>::Zero();      // nearest point on o1
  fcl::Vector3<double> p2 = fcl::Vector3<double>::Zero();      // and on o2 (world)
  fcl::Vector3<double> point = fcl::Vector3<double>::Zero();   // (p1 + p2) / 2
  std::size_t steps = 0;   // distance queries made
  bool certified = false;  // every step was proved (see the file comment)
};

// A certified step's ingredients at one pose of a pair (world frame).
struct Separation {
  double distance = 0;  // signed distance (sov::distance; a mesh or octree
                        // pair: unsigned, 0 when touching or overlapping)
  double lower = 0;     // a lower bound on it: the gap along normal from
                        // exact support functions when certified, else
                        // distance itself
  fcl::Vector3<double> normal = fcl::Vector3<double>::UnitZ();  // unit, o1 to o2
  fcl::Vector3<double> p1 = fcl::Vector3<double>::Zero();
  fcl::Vector3<double> p2 = fcl::Vector3<double>::Zero();
  bool certified = false;  // lower is proved (exact supports, or the core)
  // Distances at or below this count as touching: closer, the rounding
  // allowance of the gap leaves lower no step to prove. The rounding floor of
  // sov_toc_rounding_floor at tolerance 0, at the scale of the pair's
  // positions and nearest points (2.8e-14 per unit of scale).
  double touching = 0;
};

// The separation of o1 at tf1 and o2 at tf2: superovoid, sphere and
// ellipsoid pairs by the core's sov_distance (warm-started from cache when
// given); the others by sov::distance with nearest points (signed for two
// shapes; GJK at gjk_tolerance), with the support gap along the nearest
// points' direction; when that gap is not positive for two bodies with
// support functions, GJK is run again at 1e-10. Throws as sov::distance.
SOV_FCL_API Separation separation(const fcl::CollisionGeometry<double>* o1,
                                  const fcl::Transform3<double>& tf1,
                                  const fcl::CollisionGeometry<double>* o2,
                                  const fcl::Transform3<double>& tf2, double gjk_tolerance,
                                  sov_cache* cache = nullptr);

// Radius of a ball about g's local origin that holds g: exact bounds of
// superovoids and FCL's primitives, the largest vertex norm of meshes and
// convex polytopes, the root box of an octree; +infinity for planes and
// halfspaces. Throws sov::Error for a geometry of no known extent.
SOV_FCL_API double boundingRadius(const fcl::CollisionGeometry<double>& g);

// Continuous collision of o1 moving from tf1_beg to tf1_end and o2 from
// tf2_beg to tf2_end, with the motion of request.ccd_motion_type; contact
// (may be null) gets the answer at the time of contact (pairs with a
// superovoid only: a forwarded pair leaves it as it was).
SOV_FCL_API double continuousCollide(const fcl::CollisionGeometry<double>* o1,
                                     const fcl::Transform3<double>& tf1_beg,
                                     const fcl::Transform3<double>& tf1_end,
                                     const fcl::CollisionGeometry<double>* o2,
                                     const fcl::Transform3<double>& tf2_beg,
                                     const fcl::Transform3<double>& tf2_end,
                                     const fcl::ContinuousCollisionRequest<double>& request,
                                     fcl::ContinuousCollisionResult<double>& result,
                                     ContinuousContact* contact = nullptr);

// Same with FCL motion objects (TranslationMotion, InterpMotion,
// ScrewMotion); they are integrated to the times visited, as FCL does.
SOV_FCL_API double continuousCollide(const fcl::CollisionGeometry<double>* o1,
                                     const fcl::MotionBase<double>* motion1,
                                     const fcl::CollisionGeometry<double>* o2,
                                     const fcl::MotionBase<double>* motion2,
                                     const fcl::ContinuousCollisionRequest<double>& request,
                                     fcl::ContinuousCollisionResult<double>& result,
                                     ContinuousContact* contact = nullptr);

// Same for collision objects moving from their current transforms to
// tf1_end and tf2_end.
SOV_FCL_API double continuousCollide(const fcl::CollisionObject<double>* o1,
                                     const fcl::Transform3<double>& tf1_end,
                                     const fcl::CollisionObject<double>* o2,
                                     const fcl::Transform3<double>& tf2_end,
                                     const fcl::ContinuousCollisionRequest<double>& request,
                                     fcl::ContinuousCollisionResult<double>& result,
                                     ContinuousContact* contact = nullptr);

// Same for continuous collision objects (their geometry and motion), as
// fcl::collide takes them.
SOV_FCL_API double collide(const fcl::ContinuousCollisionObject<double>* o1,
                           const fcl::ContinuousCollisionObject<double>* o2,
                           const fcl::ContinuousCollisionRequest<double>& request,
                           fcl::ContinuousCollisionResult<double>& result,
                           ContinuousContact* contact = nullptr);

}  // namespace sov

#endif  // SUPEROVOID_FCL_CONTINUOUS_COLLISION_H
