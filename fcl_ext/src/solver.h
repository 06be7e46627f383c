// Internal: the narrow-phase solver that FCL's shape-shape and mesh-shape
// templates (ShapeShapeCollide / ShapeShapeDistance, BVHShapeCollider /
// BVHShapeDistancer and their traversal nodes) run with when a superovoid is
// involved. Pairs the C core answers exactly go to it;
// the others go to FCL's GJKSolver_libccd, which reaches the superovoid
// through the GJKInitializer bridge.
#ifndef SUPEROVOID_FCL_SRC_SOLVER_H
#define SUPEROVOID_FCL_SRC_SOLVER_H

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cone.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/geometry/shape/halfspace.h>
#include <fcl/geometry/shape/plane.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/contact_point.h>
#include <fcl/narrowphase/detail/gjk_solver_libccd.h>

#include "ccd_body.h"
#include "superovoid/error.h"
#include "superovoid/fcl/gjk_libccd.h"
#include "superovoid/fcl/superovoid.h"
#include "superovoid/work.h"

namespace sov {
namespace detail {

using Transform = fcl::Transform3<double>;
using Vector = fcl::Vector3<double>;

// A signed-distance answer in the world: d, unit normal n from the first
// body to the second, witness points with pB - pA = d n (SPEC).
struct Witness {
  double d;
  Vector n, pA, pB;
};

// The pose of an FCL transform; throws sov::Error if it is not a rotation
// (within 1e-6) plus a finite translation.
sov_pose toPose(const Transform& tf);

// Throws sov::Error if a transform of a superovoid pair has a coordinate
// beyond kMaxCoordinate (SOV_ERR_NONFINITE: squared distances overflow there
// and FCL's GJK aborts on its own assertion, found by fcl_fuzz), or, for a
// superovoid o, is not a rotation as toPose takes it.
constexpr double kMaxCoordinate = 1e150;
void checkTransform(const fcl::CollisionGeometry<double>* o, const Transform& tf);

// The core shape of a superovoid, a sphere or an ellipsoid (both are
// superovoids with eps1 = eps2 = 1 and no taper); throws sov::Error on
// invalid sizes.
sov_shape coreShape(const Superovoid& s);
sov_shape coreShape(const fcl::Sphere<double>& s);
sov_shape coreShape(const fcl::Ellipsoid<double>& s);

// Exact signed distance between two posed core shapes (sov_distance).
Witness coreDistance(const sov_shape& A, const Transform& tfA, const sov_shape& B,
                     const Transform& tfB);
// Exact overlap test (sov_collide): true when d <= 0.
bool coreCollide(const sov_shape& A, const Transform& tfA, const sov_shape& B,
                 const Transform& tfB);
// Exact signed distance from a posed core shape to a halfspace / plane,
// closed form from the support point along the plane normal.
Witness halfspaceDistance(const sov_shape& A, const Transform& tfA,
                          const fcl::Halfspace<double>& h, const Transform& tfH);
Witness planeDistance(const sov_shape& A, const Transform& tfA,
                      const fcl::Plane<double>& p, const Transform& tfP);

// Exact signed distance between two posed fcl::Spheres, closed form: the
// centres' distance minus the radii, n along the centre line (+z for
// concentric spheres, where every direction is the answer).
Witness sphereDistance(const fcl::Sphere<double>& a, const Transform& tfA,
                       const fcl::Sphere<double>& b, const Transform& tfB);

// The same answer seen from the other body: n reversed, witnesses swapped.
Witness swapped(const Witness& w);

// A body known by its support function (sov_support_fn), for the core's GJK
// and EPA.
struct SupportBody {
  sov_support_fn support;
  const void* body;
};

// The penetration of two overlapping bodies by the core's EPA on their
// supports (sov_support_penetration_work, its polytope in this thread's
// work memory) at tolerance: FCL's EPA fails its own assertion and aborts
// the process on some pairs (a box-like superovoid against a box,
// fcl_ext/README.md), or spins. A pair that a support value proves apart or
// touching gets d = 0 at A's support point. Where the EPA runs out of room
// before the tolerance (curved against curved below about 1e-8) its bracket
// is the answer when the core gives one (within 1e-6 of the bodies' size),
// as libccd's GJK answers where it stops. Throws sov::Error when the EPA
// fails otherwise.
Witness supportWitness(const SupportBody& A, const SupportBody& B, double tolerance);

// The signed distance of a ball (centre, radius) and an overlapping body,
// the ball first or second: its centre's signed distance to the body (the
// core's GJK, or its EPA where the centre lies inside), less the radius (the
// ball is its centre swept by the radius). A small body near a ball's
// centre (a 1 mm box, or a point, inside a 5 cm ball) left the EPA on the
// ball itself a nearly flat objective over every direction, and it ran out
// of room; the centre alone has no curvature to resolve.
Witness ballWitness(const Vector& centre, double radius, const SupportBody& body, bool ball_first,
                    double tolerance);

// The smallest distance_tolerance FCL's libccd EPA is run with, for the
// pairs forwarded to FCL (two primitives, distance.cpp). Below about 1e-7
// it fails its own assertions and aborts the process (ComputeVisiblePatch:
// every batch of 1000 random overlapping box, cylinder and capsule pairs at
// 3e-8, none of 100,000 at 1e-6); finer requests get GJK for apart pairs and
// EPA at this tolerance for overlapping ones. Pairs with a superovoid never
// reach FCL's EPA (Solver::supportPenetration).
constexpr double kMinEpaTolerance = 1e-6;

// Throws sov::Error (SOV_ERR_NONFINITE) if a GJK answer is not finite.
void checkFinite(double d, const Vector* p1, const Vector* p2);
void checkFinite(const std::vector<fcl::ContactPoint<double>>* contacts);


// Distance from a posed sphere to the triangle P1 P2 P3 (world), closed
// form: the triangle's closest point to the centre (Ericson, Real-Time
// Collision Detection, 5.1.5). p1 on the sphere, p2 on the triangle, world
// frame. When they intersect, dist = -1 (FCL's convention for triangles),
// both points the triangle's point nearest the centre, and false. (FCL 0.7's
// own leaves dist unset then, and its points in the bodies' local frames.)
bool sphereTriangleDistance(const fcl::Sphere<double>& s, const Transform& tf, const Vector& P1,
                            const Vector& P2, const Vector& P3, double* dist, Vector* p1,
                            Vector* p2);

// Overlap of a posed sphere and the triangle P1 P2 P3 (world), closed form:
// the triangle's point nearest the centre (as sphereTriangleDistance) within
// the radius. contact: that point; depth: the radius less its distance
// (positive); normal: from the centre towards it (the triangle's normal
// when the centre lies on it). FCL 0.7's sphereTriangleIntersect accepts
// spheres 16 mm from a mesh of the iCub hand (found by sov_bench_robots
// icub: its plane test on a sliver triangle).
bool sphereTriangleIntersect(const fcl::Sphere<double>& s, const Transform& tf, const Vector& P1,
                             const Vector& P2, const Vector& P3, Vector* contact, double* depth,
                             Vector* normal);

// The radius of a shape that is a ball (an fcl::Sphere, or a superovoid with
// equal semi-axes, exponents 1 and no taper), else nullopt.
template <class T>
std::optional<double> ballRadius(const T& s) {
  if constexpr (std::is_same_v<T, fcl::Sphere<double>>) {
    return s.radius;
  } else if constexpr (std::is_same_v<T, Superovoid>) {
    const std::array<double, 7> p = s.params();
    const bool ball =
        p[0] == p[1] && p[1] == p[2] && p[3] == 1 && p[4] == 1 && p[5] == 0 && p[6] == 0;
    return ball ? std::optional<double>(p[0]) : std::nullopt;
  } else {
    return std::nullopt;
  }
}

template <class T>
constexpr bool kIsPlaneLike =
    std::is_same_v<T, fcl::Plane<double>> || std::is_same_v<T, fcl::Halfspace<double>>;

template <class T>
constexpr bool kIsCoreShape = std::is_same_v<T, Superovoid> ||
                              std::is_same_v<T, fcl::Sphere<double>> ||
                              std::is_same_v<T, fcl::Ellipsoid<double>>;

// Pairs answered exactly: superovoid with superovoid, sphere, ellipsoid,
// plane or halfspace (either order).
template <class T1, class T2>
constexpr bool kIsExactPair = (std::is_same_v<T1, Superovoid> &&
                               (kIsCoreShape<T2> || kIsPlaneLike<T2>)) ||
                              (std::is_same_v<T2, Superovoid> &&
                               (kIsCoreShape<T1> || kIsPlaneLike<T1>));

// Exact answer of an exact pair, first body to second.
template <class T1, class T2>
Witness exactWitness(const T1& s1, const Transform& tf1, const T2& s2, const Transform& tf2) {
  if constexpr (std::is_same_v<T2, fcl::Halfspace<double>>) {
    return halfspaceDistance(coreShape(s1), tf1, s2, tf2);
  } else if constexpr (std::is_same_v<T2, fcl::Plane<double>>) {
    return planeDistance(coreShape(s1), tf1, s2, tf2);
  } else if constexpr (kIsPlaneLike<T1>) {
    return swapped(exactWitness(s2, tf2, s1, tf1));
  } else {
    return coreDistance(coreShape(s1), tf1, coreShape(s2), tf2);
  }
}

// A shape's bounding box in its own frame: centre and half extents.
struct LocalBox {
  Vector centre, half;
};

// The bounding box of the shapes whose pairs with a superovoid go to libccd
// (a Convex has none cheaper than its vertices: nullopt).
inline LocalBox localBox(const Superovoid& s) {
  return {s.aabb_local.center(), 0.5 * (s.aabb_local.max_ - s.aabb_local.min_)};
}
inline LocalBox localBox(const fcl::Box<double>& b) { return {Vector::Zero(), 0.5 * b.side}; }
inline LocalBox localBox(const fcl::Sphere<double>& s) {
  return {Vector::Zero(), Vector::Constant(s.radius)};
}
inline LocalBox localBox(const fcl::Cylinder<double>& c) {
  return {Vector::Zero(), Vector(c.radius, c.radius, 0.5 * c.lz)};
}
inline LocalBox localBox(const fcl::Cone<double>& c) {
  return {Vector::Zero(), Vector(c.radius, c.radius, 0.5 * c.lz)};
}
inline LocalBox localBox(const fcl::Capsule<double>& c) {
  return {Vector::Zero(), Vector(c.radius, c.radius, 0.5 * c.lz + c.radius)};
}
template <class T>
std::optional<LocalBox> maybeLocalBox(const T& s) {
  if constexpr (std::is_same_v<T, fcl::Convex<double>>) {
    return std::nullopt;
  } else {
    return localBox(s);
  }
}

// True when the boxes of two posed shapes are proved disjoint
// (sov_boxes_apart): then the shapes are apart. Most pairs the broadphase
// hands over end here, before libccd's MPR and GJK, which need many support
// points of a curved body.
bool boxesApart(const LocalBox& b1, const Transform& tf1, const LocalBox& b2,
                const Transform& tf2);

// Two posed shapes as libccd GJK objects (CcdObject: in place for FCL's
// primitives and superovoids), the bodies of the core's support-function
// GJK and EPA.
template <class T1, class T2>
class CcdPair {
 public:
  CcdPair(const T1& s1, const Transform& tf1, const T2& s2, const Transform& tf2)
      : o1_(s1, tf1),
        o2_(s2, tf2),
        b1{fcl::detail::GJKInitializer<double, T1>::getSupportFunction(), o1_.get()},
        b2{fcl::detail::GJKInitializer<double, T2>::getSupportFunction(), o2_.get()} {}
  CcdPair(const CcdPair&) = delete;
  CcdPair& operator=(const CcdPair&) = delete;

  // libccd's GJK distance on these objects, as FCL's
  // GJKSolver_libccd::shapeDistance runs it for a pair it has no closed
  // form for (ShapeDistanceLibccdImpl): true when apart; d and the world
  // points p1, p2 as it leaves them.
  bool gjkDistance(unsigned int max_iterations, double tolerance, double* d, Vector* p1,
                   Vector* p2) const {
    // (FCL's signature takes void*; libccd only reads the objects.)
    return fcl::detail::GJKDistance(const_cast<void*>(b1.object), b1.support,
                                    const_cast<void*>(b2.object), b2.support, max_iterations,
                                    tolerance, d, p1, p2);
  }

 private:
  CcdObject<T1> o1_;
  CcdObject<T2> o2_;

 public:
  const CcdBody b1, b2;
};

// libccd's GJK answer (d, p1, p2: world points) for an apart pair of
// the bodies of pair, checked: the support values along p2 - p1 bound the
// distance from below, and an answer further above that bound than
// tolerance is replaced by the core's GJK (sov_support_distance), which
// stops on that bound. libccd's stops when a step gains less than the
// tolerance, early between flat faces (4 cm on two boxes 0.55 apart, FCL
// issue #508) and on curved ones (3e-4 on an ellipsoid at 1e-6); between
// bodies touching far from the origin (3e7) it answers 0 with NaN points,
// also replaced. Returns false when the core's GJK finds the pair
// overlapping after all (d = -1 then, libccd's value for an overlap);
// throws sov::Error on non-finite support points.
template <class T1, class T2>
bool certifiedApart(const CcdPair<T1, T2>& pair, double tolerance, double* d, Vector* p1,
                    Vector* p2) {
  const Vector gap = *p2 - *p1;
  const double length = gap.norm();
  if (length > 0) {
    const Vector n = gap / length, m = -n;
    Vector x1, x2;
    ccdBodySupport(&pair.b1, n.data(), x1.data());
    ccdBodySupport(&pair.b2, m.data(), x2.data());
    const double lower = n.dot(x2 - x1);
    const double scale = std::max(p1->cwiseAbs().maxCoeff(), p2->cwiseAbs().maxCoeff());
    const double slack = 64 * std::numeric_limits<double>::epsilon() * scale;
    if (std::isfinite(lower) && *d - lower <= tolerance + slack) return true;
  }
  sov_result r;
  int overlapping = 0;
  // libccd's direction: its first supports lie near the answer (+x where
  // its points are NaN).
  const int status =
      sov_support_distance(&r, &overlapping, &ccdBodySupport, &pair.b1, &ccdBodySupport, &pair.b2,
                           gap.allFinite() ? gap.data() : nullptr, tolerance);
  if (status != SOV_OK && status != SOV_ERR_NO_CONVERGENCE) {
    throwIfError(status, "GJK (sov_support_distance) on an apart pair");
  }
  if (overlapping) {
    *d = -1;
    return false;
  }
  // A bracket that stopped short still beats libccd's where it lies lower
  // (both are distances of two body points), or where libccd's is no
  // answer.
  const bool none = !std::isfinite(*d) || !p1->allFinite() || !p2->allFinite();
  if (status == SOV_OK || r.d < *d || none) {
    *d = r.d;
    *p1 = Vector(r.pA[0], r.pA[1], r.pA[2]);
    *p2 = Vector(r.pB[0], r.pB[1], r.pB[2]);
  }
  return true;
}

// The same for two posed shapes, as libccd GJK objects of their own.
template <class T1, class T2>
bool certifiedApart(const T1& s1, const Transform& tf1, const T2& s2, const Transform& tf2,
                    double tolerance, double* d, Vector* p1, Vector* p2) {
  const CcdPair<T1, T2> pair(s1, tf1, s2, tf2);
  return certifiedApart(pair, tolerance, d, p1, p2);
}

// GJKSolver_libccd with the exact pairs taken over. Same interface as the
// base for the shape-shape and shape-triangle queries FCL's traversal nodes
// make (triangles always through libccd, with a finiteness check);
// thread-safe like the base (no mutable state).
class Solver : public fcl::detail::GJKSolver_libccd<double> {
 public:
  using Base = fcl::detail::GJKSolver_libccd<double>;

  // Overlap test; with contacts, the deepest contact: normal from s1 to s2,
  // position halfway between the witnesses, depth -d.
  template <class T1, class T2>
  bool shapeIntersect(const T1& s1, const Transform& tf1, const T2& s2, const Transform& tf2,
                      std::vector<fcl::ContactPoint<double>>* contacts = nullptr) const {
    if constexpr (kIsExactPair<T1, T2>) {
      if (!contacts) {
        if constexpr (kIsCoreShape<T1> && kIsCoreShape<T2>) {
          return coreCollide(coreShape(s1), tf1, coreShape(s2), tf2);
        } else {
          return exactWitness(s1, tf1, s2, tf2).d <= 0;
        }
      }
      const Witness w = exactWitness(s1, tf1, s2, tf2);
      if (w.d > 0) return false;
      contacts->emplace_back(w.n, 0.5 * (w.pA + w.pB), -w.d);
      return true;
    } else {
      const auto box1 = maybeLocalBox(s1), box2 = maybeLocalBox(s2);
      if (box1 && box2 && boxesApart(*box1, tf1, *box2, tf2)) return false;
      if constexpr (std::is_same_v<T1, Superovoid> || std::is_same_v<T2, Superovoid>) {
        // A superovoid against a primitive, no contact wanted: the core's
        // GJK stopped at its first proof (MPR's "apart", below, is no
        // proof, and a distance GJK after it converges far past one: two
        // searches over a curved body's costly supports). Undecided
        // (touching to rounding): the path below.
        if (!contacts) {
          const CcdPair<T1, T2> pair(s1, tf1, s2, tf2);
          const Vector start = tf2.translation() - tf1.translation();
          int colliding = 0;
          const int status = sov_support_collide(&colliding, &ccdBodySupport, &pair.b1,
                                                 &ccdBodySupport, &pair.b2, start.data());
          if (status == SOV_OK) return colliding != 0;
          if (status != SOV_ERR_NO_CONVERGENCE) {
            throwIfError(status, "GJK (sov_support_collide) on a superovoid and a primitive");
          }
        }
      }
      // FCL's libccd path appends a contact of uninitialised values on a
      // miss too (its callers read contacts only on a hit): drop it.
      const std::size_t before = contacts ? contacts->size() : 0;
      if (Base::shapeIntersect(s1, tf1, s2, tf2, contacts)) {
        checkFinite(contacts);
        return true;
      }
      if (contacts) contacts->resize(before);
      // MPR's "apart" is not proved: "apart" only when GJK agrees.
      // Otherwise the contact comes from GJK/EPA, whose witnesses p1 - p2
      // span the translation of s2 that ends the overlap. (The one miss
      // seen at ordinary coordinates, docs/RELIABILITY.md bug 12, came from
      // NaN support points, bug 17; fcl_fuzz still finds misses where the
      // coordinates' rounding exceeds the bodies: at 2e39, bodies of 47.)
      if (Base::shapeDistance(s1, tf1, s2, tf2)) return false;
      if (!contacts) return true;
      const Witness w = supportPenetration(s1, tf1, s2, tf2);
      contacts->emplace_back(w.n, 0.5 * (w.pA + w.pB), -w.d);
      return true;
    }
  }

  // Distance; exact pairs give the exact signed distance (also when FCL only
  // asks for the unsigned one) and the witness points.
  template <class T1, class T2>
  bool shapeDistance(const T1& s1, const Transform& tf1, const T2& s2, const Transform& tf2,
                     double* dist = nullptr, Vector* p1 = nullptr, Vector* p2 = nullptr) const {
    if constexpr (kIsExactPair<T1, T2>) {
      return exact(s1, tf1, s2, tf2, dist, p1, p2);
    } else {
      bool proved = false;
      return gjkPairDistance(s1, tf1, s2, tf2, dist, p1, p2, &proved);
    }
  }

  // Signed distance: GJK at the requested tolerance for apart pairs, the
  // core's EPA (supportPenetration) for overlapping ones. libccd's GJK can
  // say "apart" of a slight overlap (+6.5e-6 for a sphere 1e-5 into a box,
  // FCL's own Ellipsoid alike) where MPR, as shapeIntersect runs it, finds
  // the origin inside A - B: then the EPA answers (its depth, unless it
  // proves them apart), and the sign agrees with collide's verdict.
  template <class T1, class T2>
  bool shapeSignedDistance(const T1& s1, const Transform& tf1, const T2& s2,
                           const Transform& tf2, double* dist = nullptr, Vector* p1 = nullptr,
                           Vector* p2 = nullptr) const {
    if constexpr (kIsExactPair<T1, T2>) {
      return exact(s1, tf1, s2, tf2, dist, p1, p2);
    } else {
      bool proved = false;
      const bool apart = gjkPairDistance(s1, tf1, s2, tf2, dist, p1, p2, &proved);
      if (proved || (apart && !Base::shapeIntersect(s1, tf1, s2, tf2, nullptr))) return true;
      const Witness w = supportPenetration(s1, tf1, s2, tf2);
      // The EPA proved them apart after all (MPR's verdict at rounding
      // level): GJK's distance, already written, stands.
      if (apart && !(w.d < 0)) return true;
      if (dist) *dist = w.d;
      if (p1) *p1 = w.pA;
      if (p2) *p2 = w.pB;
      return true;
    }
  }

  // Distance of a superovoid and an FCL primitive (FCL has closed forms
  // for some pairs of its own shapes only): true when apart, with dist and
  // the world witnesses; an overlap gets libccd's -1 and zero points. The
  // core's GJK at distance_tolerance from the line between the origins
  // (sov_support_distance: it stops on a support value's bound, where
  // libccd's stops on its steps' gain, early between flat faces, and
  // was checked and often replaced: 26 % more instructions on the fitted
  // Panda's finger pairs); where it stops short, or its bracket is raised past the
  // tolerance to its rounding floor (bodies 1e8 across: continuous
  // collision's steps need the tighter answer), libccd's GJK checked as
  // certifiedApart does. *proved: a support value proves the pair apart
  // (d above its bracket).
  template <class T1, class T2>
  bool gjkPairDistance(const T1& s1, const Transform& tf1, const T2& s2, const Transform& tf2,
                       double* dist, Vector* p1, Vector* p2, bool* proved) const {
    static_assert(std::is_same_v<T1, Superovoid> || std::is_same_v<T2, Superovoid>);
    *proved = false;
    const CcdPair<T1, T2> pair(s1, tf1, s2, tf2);
    const Vector start = tf2.translation() - tf1.translation();
    sov_result r;
    int overlapping = 0;
    const int status =
        sov_support_distance(&r, &overlapping, &ccdBodySupport, &pair.b1, &ccdBodySupport, &pair.b2,
                             start.data(), distance_tolerance);
    double d = -1;
    Vector q1 = Vector::Zero(), q2 = Vector::Zero();
    bool apart = false;
    if (status == SOV_OK && (overlapping || r.residual <= distance_tolerance)) {
      apart = !overlapping;
      if (apart) {
        d = r.d;
        q1 = Vector(r.pA[0], r.pA[1], r.pA[2]);
        q2 = Vector(r.pB[0], r.pB[1], r.pB[2]);
        *proved = r.d - r.residual > 0;
      }
    } else if (status == SOV_OK || status == SOV_ERR_NO_CONVERGENCE) {
      apart = pair.gjkDistance(max_distance_iterations, distance_tolerance, &d, &q1, &q2);
      if (apart) apart = certifiedApart(pair, distance_tolerance, &d, &q1, &q2);
    } else {
      throwIfError(status, "GJK (sov_support_distance) on a superovoid and a primitive");
    }
    checkFinite(d, &q1, &q2);
    if (dist) *dist = d;
    if (p1) *p1 = q1;
    if (p2) *p2 = q2;
    return apart;
  }

  // The penetration of a pair libccd answers that GJK found overlapping, at
  // distance_tolerance: supportWitness on the two shapes' support
  // functions, or ballWitness where one of them is a ball.
  template <class T1, class T2>
  Witness supportPenetration(const T1& s1, const Transform& tf1, const T2& s2,
                             const Transform& tf2) const {
    const CcdPair<T1, T2> pair(s1, tf1, s2, tf2);
    const SupportBody b1{&ccdBodySupport, &pair.b1}, b2{&ccdBodySupport, &pair.b2};
    if (const std::optional<double> r1 = ballRadius(s1))
      return ballWitness(tf1.translation(), *r1, b2, true, distance_tolerance);
    if (const std::optional<double> r2 = ballRadius(s2))
      return ballWitness(tf2.translation(), *r2, b1, false, distance_tolerance);
    return supportWitness(b1, b2, distance_tolerance);
  }

  // Overlap test of a shape and a triangle (world vertices P1 P2 P3), for
  // FCL's mesh-shape traversal nodes: libccd's MPR, as in the base; a
  // sphere's in closed form (sphereTriangleIntersect).
  template <class T>
  bool shapeTriangleIntersect(const T& s, const Transform& tf, const Vector& P1,
                              const Vector& P2, const Vector& P3, Vector* contact = nullptr,
                              double* depth = nullptr, Vector* normal = nullptr) const {
    if constexpr (std::is_same_v<T, fcl::Sphere<double>>) {
      return sphereTriangleIntersect(s, tf, P1, P2, P3, contact, depth, normal);
    }
    const bool hit = Base::shapeTriangleIntersect(s, tf, P1, P2, P3, contact, depth, normal);
    if (hit) checkFinite(depth ? *depth : 0.0, contact, normal);
    return hit;
  }
  // Same with the triangle's vertices in a frame posed by tf2.
  template <class T>
  bool shapeTriangleIntersect(const T& s, const Transform& tf1, const Vector& P1,
                              const Vector& P2, const Vector& P3, const Transform& tf2,
                              Vector* contact = nullptr, double* depth = nullptr,
                              Vector* normal = nullptr) const {
    if constexpr (std::is_same_v<T, fcl::Sphere<double>>) {
      return sphereTriangleIntersect(s, tf1, tf2 * P1, tf2 * P2, tf2 * P3, contact, depth, normal);
    }
    const bool hit =
        Base::shapeTriangleIntersect(s, tf1, P1, P2, P3, tf2, contact, depth, normal);
    if (hit) checkFinite(depth ? *depth : 0.0, contact, normal);
    return hit;
  }

  // Distance from a shape to a triangle: libccd's GJK, as in the base
  // (-1 when they intersect: no penetration depth); a sphere's in closed
  // form (sphereTriangleDistance).
  template <class T>
  bool shapeTriangleDistance(const T& s, const Transform& tf, const Vector& P1,
                             const Vector& P2, const Vector& P3, double* dist = nullptr,
                             Vector* p1 = nullptr, Vector* p2 = nullptr) const {
    if constexpr (std::is_same_v<T, fcl::Sphere<double>>) {
      return sphereTriangleDistance(s, tf, P1, P2, P3, dist, p1, p2);
    }
    double d = 0;
    const bool ok = Base::shapeTriangleDistance(s, tf, P1, P2, P3, &d, p1, p2);
    checkFinite(d, p1, p2);
    if (dist) *dist = d;
    return ok;
  }
  // Same with the triangle's vertices in a frame posed by tf2.
  template <class T>
  bool shapeTriangleDistance(const T& s, const Transform& tf1, const Vector& P1,
                             const Vector& P2, const Vector& P3, const Transform& tf2,
                             double* dist = nullptr, Vector* p1 = nullptr,
                             Vector* p2 = nullptr) const {
    if constexpr (std::is_same_v<T, fcl::Sphere<double>>) {
      return sphereTriangleDistance(s, tf1, tf2 * P1, tf2 * P2, tf2 * P3, dist, p1, p2);
    }
    double d = 0;
    const bool ok = Base::shapeTriangleDistance(s, tf1, P1, P2, P3, tf2, &d, p1, p2);
    checkFinite(d, p1, p2);
    if (dist) *dist = d;
    return ok;
  }

 private:
  // Fills the exact distance and witnesses; true when the bodies are apart.
  template <class T1, class T2>
  static bool exact(const T1& s1, const Transform& tf1, const T2& s2, const Transform& tf2,
                    double* dist, Vector* p1, Vector* p2) {
    const Witness w = exactWitness(s1, tf1, s2, tf2);
    if (dist) *dist = w.d;
    if (p1) *p1 = w.pA;
    if (p2) *p2 = w.pB;
    return w.d >= 0;
  }
};

}  // namespace detail
}  // namespace sov

#endif  // SUPEROVOID_FCL_SRC_SOLVER_H
