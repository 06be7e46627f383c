// sov::continuousCollide: conservative advancement for pairs with a
// superovoid (superovoid/fcl/continuous_collision.h), the C core's
// sov_time_of_contact where both bodies are core shapes under a motion it
// knows, and FCL's continuousCollide for the rest.
#include "superovoid/fcl/continuous_collision.h"

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/octree/octree.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cone.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/math/motion/interp_motion.h>
#include <fcl/math/motion/screw_motion.h>
#include <fcl/math/motion/translation_motion.h>
#include <fcl/narrowphase/continuous_collision.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "dispatch.h"
#include "mesh.h"
#include "octree.h"
#include "solver.h"
#include "superovoid/fcl/distance.h"

namespace sov {
namespace detail {
namespace {

using Geometry = fcl::CollisionGeometry<double>;
constexpr double kInf = std::numeric_limits<double>::infinity();
// GJK's distance tolerance in the steps of GJK pairs: FCL's default. Its
// witnesses' direction is then rough (curved bodies' distances 3e-4 off,
// fcl_ext/README.md), and the support gap along it below the distance;
// where that gap is not positive, or for two shapes not above
// kRoughGapShare of the distance (steps that small stall the advancement
// far from contact), the step is redone at kFineGjkTolerance, whose
// direction gives a positive gap down to a micron from contact. (A mesh's
// hull gap may lie far below its distance whatever the direction.)
constexpr double kStepGjkTolerance = 1e-6;
constexpr double kFineGjkTolerance = 1e-10;
constexpr double kRoughGapShare = 0.5;
// A turn over the whole motion at most this (radians) is the rounding of
// rotation matrices, not a turn: FCL's InterpMotion between two equal
// matrices records the angle of R R^T's rounded skew part (1e-17 seen),
// and rotations equal but for their last bits record about 1e-16.
constexpr double kRoundingTurn = 64 * DBL_EPSILON;

// The vertices of a BVHModel of any of FCL's bounding volumes, or null.
const fcl::Vector3<double>* meshVertices(const Geometry& g, int* count) {
  if (g.getObjectType() != fcl::OT_BVH) return nullptr;
  const auto take = [&](const auto& m) {
    *count = m.num_vertices;
    return m.vertices;
  };
  switch (g.getNodeType()) {
    case fcl::BV_AABB: return take(static_cast<const fcl::BVHModel<fcl::AABB<double>>&>(g));
    case fcl::BV_OBB: return take(static_cast<const fcl::BVHModel<fcl::OBB<double>>&>(g));
    case fcl::BV_RSS: return take(static_cast<const fcl::BVHModel<fcl::RSS<double>>&>(g));
    case fcl::BV_kIOS: return take(static_cast<const fcl::BVHModel<fcl::kIOS<double>>&>(g));
    case fcl::BV_OBBRSS: return take(static_cast<const fcl::BVHModel<fcl::OBBRSS<double>>&>(g));
    case fcl::BV_KDOP16: return take(static_cast<const fcl::BVHModel<fcl::KDOP<double, 16>>&>(g));
    case fcl::BV_KDOP18: return take(static_cast<const fcl::BVHModel<fcl::KDOP<double, 18>>&>(g));
    case fcl::BV_KDOP24: return take(static_cast<const fcl::BVHModel<fcl::KDOP<double, 24>>&>(g));
    default: return nullptr;
  }
}

// max over points of l . p, and the largest |p| (either may be null).
double overPoints(const fcl::Vector3<double>* p, int count, const Vector* l) {
  double best = -kInf;
  for (int i = 0; i < count; ++i) best = std::max(best, l ? l->dot(p[i]) : p[i].norm());
  return best;
}

// Support value in the local unit direction l of a primitive shape, or
// nullopt for a geometry without one here.
std::optional<double> shapeSupport(const Geometry& g, const Vector& l) {
  if (const Superovoid* s = asSuperovoid(&g)) {
    Vector x;
    double h = 0;
    throwIfError(sov_shape_support(x.data(), &h, &s->shape(), l.data()), "sov_shape_support");
    return h;
  }
  if (g.getObjectType() != fcl::OT_GEOM) return std::nullopt;
  const double lr = std::hypot(l[0], l[1]);
  switch (g.getNodeType()) {
    case fcl::GEOM_SPHERE: return static_cast<const fcl::Sphere<double>&>(g).radius * l.norm();
    case fcl::GEOM_ELLIPSOID:
      return static_cast<const fcl::Ellipsoid<double>&>(g).radii.cwiseProduct(l).norm();
    case fcl::GEOM_BOX:
      return 0.5 * static_cast<const fcl::Box<double>&>(g).side.cwiseProduct(l).cwiseAbs().sum();
    case fcl::GEOM_CAPSULE: {
      const auto& c = static_cast<const fcl::Capsule<double>&>(g);
      return 0.5 * c.lz * std::abs(l[2]) + c.radius * l.norm();
    }
    case fcl::GEOM_CYLINDER: {
      const auto& c = static_cast<const fcl::Cylinder<double>&>(g);
      return 0.5 * c.lz * std::abs(l[2]) + c.radius * lr;
    }
    case fcl::GEOM_CONE: {  // base of radius r at z = -lz/2, apex at +lz/2
      const auto& c = static_cast<const fcl::Cone<double>&>(g);
      return std::max(0.5 * c.lz * l[2], -0.5 * c.lz * l[2] + c.radius * lr);
    }
    case fcl::GEOM_CONVEX: {
      const auto& v = static_cast<const fcl::Convex<double>&>(g).getVertices();
      return overPoints(v.data(), static_cast<int>(v.size()), &l);
    }
    default: return std::nullopt;
  }
}

// World support value h(n) of g at tf (a mesh: of its vertices' convex
// hull), or nullopt.
std::optional<double> support(const Geometry& g, const Transform& tf, const Vector& n) {
  const Vector l = tf.linear().transpose() * n;
  int count = 0;
  std::optional<double> h;
  if (const fcl::Vector3<double>* v = meshVertices(g, &count)) {
    if (count > 0) h = overPoints(v, count, &l);
  } else {
    h = shapeSupport(g, l);
  }
  if (h) *h += n.dot(tf.translation());
  return h;
}

// Scale of the numbers in a support gap: positions and nearest points.
double gapScale(const Transform& tf1, const Transform& tf2, const Vector& p1, const Vector& p2) {
  return tf1.translation().norm() + tf2.translation().norm() + p1.norm() + p2.norm();
}

// What rounding can take off a gap computed from numbers of this scale
// (the core's allowance, sov_toc_rounding_floor).
double roundingAllowance(double scale) {
  double allowance = 0;
  throwIfError(sov_toc_rounding_floor(&allowance, nullptr, scale, 0), "gap rounding allowance");
  return allowance;
}

// The support gap -(h1(n) + h2(-n)) of the posed pair, less a rounding
// allowance; nullopt when a geometry has no support function here.
std::optional<double> supportGap(const Geometry& g1, const Transform& tf1, const Geometry& g2,
                                 const Transform& tf2, const Vector& n, double scale) {
  const std::optional<double> h1 = support(g1, tf1, n), h2 = support(g2, tf2, -n);
  if (!h1 || !h2) return std::nullopt;
  return -(*h1 + *h2) - roundingAllowance(scale);
}

// True for the shapes the core answers: superovoids, spheres, ellipsoids.
bool isCore(const Geometry* g) {
  if (asSuperovoid(g)) return true;
  return g->getObjectType() == fcl::OT_GEOM &&
         (g->getNodeType() == fcl::GEOM_SPHERE || g->getNodeType() == fcl::GEOM_ELLIPSOID);
}

// The core shape of a core geometry (isCore).
sov_shape coreOf(const Geometry& g) {
  if (const Superovoid* s = asSuperovoid(&g)) return s->shape();
  if (g.getNodeType() == fcl::GEOM_SPHERE) {
    return coreShape(static_cast<const fcl::Sphere<double>&>(g));
  }
  return coreShape(static_cast<const fcl::Ellipsoid<double>&>(g));
}

// The separation of two core shapes by the core (cache may be null).
Separation coreSeparation(const Geometry& g1, const Transform& tf1, const Geometry& g2,
                          const Transform& tf2, sov_cache* cache) {
  const sov_shape A = coreOf(g1), B = coreOf(g2);
  const sov_pose XA = toPose(tf1), XB = toPose(tf2);
  const sov_options options = withThreadWork(nullptr);
  sov_result r;
  throwIfError(sov_distance(&r, &A, &XA, &B, &XB, &options, cache), "sov_distance");
  Separation s;
  s.distance = r.d;
  s.normal = Eigen::Map<const Vector>(r.n);
  s.p1 = Eigen::Map<const Vector>(r.pA);
  s.p2 = Eigen::Map<const Vector>(r.pB);
  const std::optional<double> gap =
      supportGap(g1, tf1, g2, tf2, s.normal, gapScale(tf1, tf2, s.p1, s.p2));
  s.lower = std::min(r.d, *gap);
  s.certified = true;
  return s;
}

// The exact separation of a superovoid and a plane or halfspace (closed
// forms from the core's support point), or nullopt for other pairs.
std::optional<Separation> planeSeparation(const Geometry& g1, const Transform& tf1,
                                          const Geometry& g2, const Transform& tf2) {
  const Superovoid* s1 = asSuperovoid(&g1);
  if (!s1 && !asSuperovoid(&g2)) return std::nullopt;
  return withPair(s1, g1, g2, [&](const auto& a, const auto& b) -> std::optional<Separation> {
    using T1 = std::decay_t<decltype(a)>;
    using T2 = std::decay_t<decltype(b)>;
    if constexpr (kIsExactPair<T1, T2> && (kIsPlaneLike<T1> || kIsPlaneLike<T2>)) {
      const Witness w = exactWitness(a, tf1, b, tf2);
      Separation s;
      s.distance = w.d;
      // The closed form is exact but for rounding, which must not carry a
      // step past the contact.
      s.lower = w.d - roundingAllowance(gapScale(tf1, tf2, w.pA, w.pB));
      s.normal = w.n;
      s.p1 = w.pA;
      s.p2 = w.pB;
      s.certified = true;
      return s;
    } else {
      return std::nullopt;
    }
  });
}

// Unit normal from o1 to o2 of an answer from sov::distance: the nearest
// points' direction turned by the sign of d; the centre line when they
// coincide.
Vector answerNormal(double d, const Vector& p1, const Vector& p2, const Transform& tf1,
                    const Transform& tf2) {
  Vector w = p2 - p1;
  if (d < 0) w = -w;
  if (!(w.norm() > 0) || !w.allFinite()) w = tf2.translation() - tf1.translation();
  return w.norm() > 0 ? Vector(w.normalized()) : Vector(Vector::UnitZ());
}

// separation() but for Separation::touching.
Separation measure(const fcl::CollisionGeometry<double>* o1, const fcl::Transform3<double>& tf1,
                   const fcl::CollisionGeometry<double>* o2, const fcl::Transform3<double>& tf2,
                   double gjk_tolerance, sov_cache* cache) {
  if (isCore(o1) && isCore(o2)) return coreSeparation(*o1, tf1, *o2, tf2, cache);
  const bool shapes = o1->getObjectType() == fcl::OT_GEOM && o2->getObjectType() == fcl::OT_GEOM;
  if (shapes) {
    if (auto s = planeSeparation(*o1, tf1, *o2, tf2)) return *s;
  }
  fcl::DistanceRequest<double> request(true, shapes);
  request.distance_tolerance = gjk_tolerance;
  fcl::DistanceResult<double> result;
  result.nearest_points[0] = result.nearest_points[1] = fcl::Vector3<double>::Zero();
  Separation s;
  s.distance = distance(o1, tf1, o2, tf2, request, result);
  if (!shapes && !(s.distance > 0)) s.distance = 0;  // a mesh or octree pair touching
  s.p1 = result.nearest_points[0];
  s.p2 = result.nearest_points[1];
  s.normal = answerNormal(s.distance, s.p1, s.p2, tf1, tf2);
  s.lower = s.distance;
  if (s.distance > 0) {
    const std::optional<double> gap =
        supportGap(*o1, tf1, *o2, tf2, s.normal, gapScale(tf1, tf2, s.p1, s.p2));
    const double enough = shapes ? kRoughGapShare * s.distance : 0;
    if (gap && !(*gap > enough) && gjk_tolerance > kFineGjkTolerance) {
      // GJK's direction too rough for a useful gap: once more, finely.
      return measure(o1, tf1, o2, tf2, kFineGjkTolerance, cache);
    }
    if (gap && *gap > 0) {
      s.lower = std::min(s.distance, *gap);
      s.certified = true;
    }
  }
  return s;
}

}  // namespace
}  // namespace detail

Separation separation(const fcl::CollisionGeometry<double>* o1, const fcl::Transform3<double>& tf1,
                      const fcl::CollisionGeometry<double>* o2, const fcl::Transform3<double>& tf2,
                      double gjk_tolerance, sov_cache* cache) {
  detail::checkNotNull(o1, o2);
  Separation s = detail::measure(o1, tf1, o2, tf2, gjk_tolerance, cache);
  throwIfError(
      sov_toc_rounding_floor(nullptr, &s.touching, detail::gapScale(tf1, tf2, s.p1, s.p2), 0),
      "contact distance");
  return s;
}

double boundingRadius(const fcl::CollisionGeometry<double>& g) {
  using detail::overPoints;
  if (const Superovoid* s = detail::asSuperovoid(&g)) return s->info().radius;
  int count = 0;
  if (const fcl::Vector3<double>* v = detail::meshVertices(g, &count)) {
    return count > 0 ? overPoints(v, count, nullptr) : 0.0;
  }
  if (g.getObjectType() == fcl::OT_OCTREE) {
    const fcl::AABB<double> box = static_cast<const fcl::OcTree<double>&>(g).getRootBV();
    return box.min_.cwiseAbs().cwiseMax(box.max_.cwiseAbs()).norm();
  }
  if (g.getObjectType() == fcl::OT_GEOM) {
    switch (g.getNodeType()) {
      case fcl::GEOM_SPHERE: return static_cast<const fcl::Sphere<double>&>(g).radius;
      case fcl::GEOM_ELLIPSOID:
        return static_cast<const fcl::Ellipsoid<double>&>(g).radii.maxCoeff();
      case fcl::GEOM_BOX: return 0.5 * static_cast<const fcl::Box<double>&>(g).side.norm();
      case fcl::GEOM_CAPSULE: {
        const auto& c = static_cast<const fcl::Capsule<double>&>(g);
        return c.radius + 0.5 * c.lz;
      }
      case fcl::GEOM_CYLINDER: {
        const auto& c = static_cast<const fcl::Cylinder<double>&>(g);
        return std::hypot(c.radius, 0.5 * c.lz);
      }
      case fcl::GEOM_CONE: {
        const auto& c = static_cast<const fcl::Cone<double>&>(g);
        return std::hypot(c.radius, 0.5 * c.lz);
      }
      case fcl::GEOM_CONVEX: {
        const auto& v = static_cast<const fcl::Convex<double>&>(g).getVertices();
        return overPoints(v.data(), static_cast<int>(v.size()), nullptr);
      }
      case fcl::GEOM_PLANE:
      case fcl::GEOM_HALFSPACE: return detail::kInf;
      default: break;
    }
  }
  throw Error(SOV_ERR_OPTION, "boundingRadius: a geometry of node type " +
                                  std::to_string(g.getNodeType()) + " has no known extent");
}

namespace detail {
namespace {

// How fast the support of a body of bounding radius r moving by m can grow
// along the world unit direction n, per unit of t (Mirtich 2000; Zhang et
// al. 2007, eq. 2): its translation along n plus |n x axis| times its
// angular speed times the distance of its points from the rotation axis.
double motionBound(const fcl::MotionBase<double>& m, double r, const Vector& n) {
  if (const auto* tm = dynamic_cast<const fcl::TranslationMotion<double>*>(&m)) {
    return tm->getVelocity().dot(n);
  }
  double along = 0, spin = 0, reach = r;
  Vector axis = Vector::UnitZ();
  if (const auto* im = dynamic_cast<const fcl::InterpMotion<double>*>(&m)) {
    along = im->getLinearVelocity().dot(n);
    spin = std::abs(im->getAngularVelocity());
    axis = im->getAngularAxis();
    reach = r + im->getReferencePoint().norm();  // points about the reference point
  } else if (const auto* sm = dynamic_cast<const fcl::ScrewMotion<double>*>(&m)) {
    fcl::Transform3<double> tf;
    sm->getCurrentTransform(tf);
    axis = sm->getAxis();
    along = sm->getLinearVelocity() * axis.dot(n);
    spin = std::abs(sm->getAngularVelocity());
    // The origin keeps its distance from the screw axis.
    reach = r + (tf.translation() - sm->getAxisOrigin()).cross(axis).norm();
  } else {
    throw Error(SOV_ERR_OPTION,
                "sov::continuousCollide: only TranslationMotion, InterpMotion and ScrewMotion "
                "have a speed bound here (CCDM_SPLINE is not supported)");
  }
  if (spin == 0) return along;
  if (!std::isfinite(reach)) {
    // A plane or halfspace that turns by rounding only stands still: such
    // a turn moves its points near the other body (within the steps' gap
    // scale of the origin) less than the gap's rounding allowance.
    if (spin <= kRoundingTurn) return along;
    throw Error(SOV_ERR_OPTION, "sov::continuousCollide: a turning plane or halfspace has no "
                                "bound on the speed of its points");
  }
  return along + axis.cross(n).norm() * spin * reach;
}

// FCL's motion for the transforms and motion type of a request (FCL's
// getMotionBase, without CCDM_SPLINE, and with InterpMotion's reference
// point set), held in place: libfcl, built before C++17, gives FCL's motion
// classes Eigen's aligned operator new and delete, which C++17 code does
// not see (EIGEN_MAKE_ALIGNED_OPERATOR_NEW is empty there), so one created
// here with new would be freed by libfcl's deleting destructor with the
// other allocator (AddressSanitizer: alloc-dealloc-mismatch).
class MotionHolder {
 public:
  MotionHolder(const Transform& beg, const Transform& end, fcl::CCDMotionType type) {
    switch (type) {
      case fcl::CCDM_TRANS: trans_.emplace(beg, end); break;
      case fcl::CCDM_LINEAR:
        // Not InterpMotion(beg, end), which FCL 0.7 leaves with an
        // uninitialised reference point (nor (beg, end, O), which leaves its
        // velocities so): the form that sets both, about the local origin.
        interp_.emplace(beg.linear(), beg.translation(), end.linear(), end.translation(),
                        Vector::Zero());
        break;
      case fcl::CCDM_SCREW: screw_.emplace(beg, end); break;
      default:
        throw Error(SOV_ERR_OPTION, "sov::continuousCollide: ccd_motion_type " +
                                        std::to_string(type) +
                                        " is not supported for superovoid pairs (CCDM_SPLINE)");
    }
  }

  // The motion.
  const fcl::MotionBase<double>& get() const {
    if (trans_) return *trans_;
    if (interp_) return *interp_;
    return *screw_;
  }

 private:
  std::optional<fcl::TranslationMotion<double>> trans_;
  std::optional<fcl::InterpMotion<double>> interp_;
  std::optional<fcl::ScrewMotion<double>> screw_;
};

// The motion type that carries a body from beg to end as requested. A body
// whose rotation is the same at both ends translates along the segment
// under every type: FCL's InterpMotion would record a rounding-level turn
// of R R^T (which a plane cannot bound) and its ScrewMotion would move it by
// |o| o instead of o. A screw FCL takes for a translation (under 1e-10 rad)
// becomes the slerp, which ends at end as the screw would not.
fcl::CCDMotionType motionType(const Transform& beg, const Transform& end,
                              fcl::CCDMotionType requested) {
  const bool known =
      requested == fcl::CCDM_TRANS || requested == fcl::CCDM_LINEAR || requested == fcl::CCDM_SCREW;
  if (known && beg.linear() == end.linear()) return fcl::CCDM_TRANS;
  if (requested == fcl::CCDM_SCREW &&
      fcl::ScrewMotion<double>(beg, end).getAngularVelocity() == 0) {
    return fcl::CCDM_LINEAR;
  }
  return requested;
}

// The steps allowed by a request.
std::size_t stepCap(const fcl::ContinuousCollisionRequest<double>& request) {
  return std::max(request.num_max_iterations, kContinuousMinSteps);
}

// Throws unless toc_err is a usable time tolerance.
void checkTimeTolerance(double toc_err) {
  if (!(toc_err >= 0) || !std::isfinite(toc_err)) {
    throw Error(SOV_ERR_OPTION, "sov::continuousCollide: toc_err is negative or not finite");
  }
}

// Fills FCL's result (and contact) for a query that ended at time t, with
// contact or not, the motions integrated to t.
double finish(bool hit, double t, const fcl::MotionBase<double>& m1,
              const fcl::MotionBase<double>& m2, fcl::ContinuousCollisionResult<double>& result) {
  result.is_collide = hit;
  result.time_of_contact = hit ? t : 1.0;
  m1.integrate(result.time_of_contact);
  m2.integrate(result.time_of_contact);
  m1.getCurrentTransform(result.contact_tf1);
  m2.getCurrentTransform(result.contact_tf2);
  return result.time_of_contact;
}

// Records a step's answer in contact (may be null).
void record(ContinuousContact* contact, const Separation& s, std::size_t steps, bool certified) {
  if (!contact) return;
  contact->distance = s.distance;
  contact->normal = s.normal;
  contact->p1 = s.p1;
  contact->p2 = s.p2;
  contact->point = 0.5 * (s.p1 + s.p2);
  contact->steps = steps;
  contact->certified = certified;
}

// Conservative advancement of any supported pair under FCL motions.
double advance(const Geometry* o1, const fcl::MotionBase<double>& m1, const Geometry* o2,
               const fcl::MotionBase<double>& m2,
               const fcl::ContinuousCollisionRequest<double>& request,
               fcl::ContinuousCollisionResult<double>& result, ContinuousContact* contact) {
  checkTimeTolerance(request.toc_err);
  const double r1 = boundingRadius(*o1), r2 = boundingRadius(*o2);
  sov_cache cache;
  sov_cache_reset(&cache);
  double t = 0;
  bool certified = true;
  for (std::size_t steps = 1; steps <= stepCap(request); ++steps) {
    Transform tf1, tf2;
    m1.integrate(t);
    m2.integrate(t);
    m1.getCurrentTransform(tf1);
    m2.getCurrentTransform(tf2);
    const Separation s = separation(o1, tf1, o2, tf2, kStepGjkTolerance, &cache);
    const double touching = std::max(kContinuousDistanceTolerance, s.touching);
    certified = certified && (s.certified || s.distance <= touching);
    record(contact, s, steps, certified);
    if (s.distance <= touching) return finish(true, t, m1, m2, result);
    const double mu = motionBound(m1, r1, s.normal) + motionBound(m2, r2, -s.normal);
    if (!(mu > 0)) return finish(false, t, m1, m2, result);
    const double step = s.lower / mu;
    if (!(step > 0)) {
      throw Error(SOV_ERR_NO_CONVERGENCE, "sov::continuousCollide: no step proved at t = " +
                                              std::to_string(t) + " (distance " +
                                              std::to_string(s.distance) + ")");
    }
    if (t >= 1 || step > 1 - t) return finish(false, t, m1, m2, result);
    if (step < request.toc_err) return finish(true, t, m1, m2, result);
    t += step;
  }
  throw Error(SOV_ERR_NO_CONVERGENCE, "sov::continuousCollide: no contact or end within " +
                                          std::to_string(stepCap(request)) +
                                          " steps; proved free on [0, " + std::to_string(t) + ")");
}

// The sov_motion of FCL's CCDM_TRANS (rotation kept) or CCDM_LINEAR motion.
sov_motion coreMotion(const Transform& beg, const Transform& end, fcl::CCDMotionType type) {
  Transform to = end;
  if (type == fcl::CCDM_TRANS) to.linear() = beg.linear();
  return sov_motion{toPose(beg), toPose(to)};
}

// A sov_pose as an FCL transform.
Transform toTransform(const sov_pose& X) {
  Transform tf = Transform::Identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) tf.linear()(i, j) = X.R[3 * i + j];
    tf.translation()[i] = X.p[i];
  }
  return tf;
}

// Two core shapes under the core's motions MA, MB: the C core's
// sov_time_of_contact.
double coreContinuous(const Geometry& o1, const sov_motion& MA, const Geometry& o2,
                      const sov_motion& MB, const fcl::ContinuousCollisionRequest<double>& request,
                      fcl::ContinuousCollisionResult<double>& result, ContinuousContact* contact) {
  checkTimeTolerance(request.toc_err);
  const sov_shape A = coreOf(o1), B = coreOf(o2);
  sov_toc_options o;
  sov_toc_options_default(&o);
  o.distance = withThreadWork(&o.distance);
  o.distance_tolerance = kContinuousDistanceTolerance;
  o.time_tolerance = request.toc_err;
  o.max_steps = static_cast<int>(std::min<std::size_t>(stepCap(request), 1 << 30));
  sov_toc_result r;
  const int status = sov_time_of_contact(&r, &A, &MA, &B, &MB, &o, nullptr);
  throwIfError(status, "sov::continuousCollide (proved free on [0, " + std::to_string(r.t) + "))");
  result.is_collide = r.contact != 0;
  result.time_of_contact = r.contact ? r.t : 1.0;
  sov_pose X1, X2;
  sov_motion_pose(&X1, &MA, result.time_of_contact);
  sov_motion_pose(&X2, &MB, result.time_of_contact);
  result.contact_tf1 = toTransform(X1);
  result.contact_tf2 = toTransform(X2);
  if (contact) {
    contact->distance = r.d;
    contact->normal = Eigen::Map<const Vector>(r.n);
    contact->p1 = Eigen::Map<const Vector>(r.pA);
    contact->p2 = Eigen::Map<const Vector>(r.pB);
    contact->point = Eigen::Map<const Vector>(r.point);
    contact->steps = static_cast<std::size_t>(r.steps);
    contact->certified = true;
  }
  return result.time_of_contact;
}

// Throws unless a superovoid pair's request and transforms are usable.
void checkPair(const Geometry* o1, const Geometry* o2,
               const fcl::ContinuousCollisionRequest<double>& request) {
  checkNotNull(o1, o2);
  checkSolver(request.gjk_solver_type);
}

}  // namespace
}  // namespace detail

double continuousCollide(const fcl::CollisionGeometry<double>* o1,
                         const fcl::Transform3<double>& tf1_beg,
                         const fcl::Transform3<double>& tf1_end,
                         const fcl::CollisionGeometry<double>* o2,
                         const fcl::Transform3<double>& tf2_beg,
                         const fcl::Transform3<double>& tf2_end,
                         const fcl::ContinuousCollisionRequest<double>& request,
                         fcl::ContinuousCollisionResult<double>& result,
                         ContinuousContact* contact) {
  detail::checkNotNull(o1, o2);
  if (!detail::asSuperovoid(o1) && !detail::asSuperovoid(o2)) {
    return fcl::continuousCollide(o1, tf1_beg, tf1_end, o2, tf2_beg, tf2_end, request, result);
  }
  detail::checkPair(o1, o2, request);
  // A superovoid's poses are rotations, as for sov::distance: FCL's motions
  // keep a quaternion of any matrix, and posed a reflection or a scaled
  // matrix as some rotation (found by an audit: a rod swept "free" through
  // a box).
  for (const auto* tf : {&tf1_beg, &tf1_end}) detail::checkTransform(o1, *tf);
  for (const auto* tf : {&tf2_beg, &tf2_end}) detail::checkTransform(o2, *tf);
  const fcl::CCDMotionType type1 = detail::motionType(tf1_beg, tf1_end, request.ccd_motion_type);
  const fcl::CCDMotionType type2 = detail::motionType(tf2_beg, tf2_end, request.ccd_motion_type);
  const auto coreKnows = [](fcl::CCDMotionType t) {
    return t == fcl::CCDM_TRANS || t == fcl::CCDM_LINEAR;
  };
  if (coreKnows(type1) && coreKnows(type2) && detail::isCore(o1) && detail::isCore(o2)) {
    return detail::coreContinuous(*o1, detail::coreMotion(tf1_beg, tf1_end, type1), *o2,
                                  detail::coreMotion(tf2_beg, tf2_end, type2), request, result,
                                  contact);
  }
  const detail::MotionHolder m1(tf1_beg, tf1_end, type1);
  const detail::MotionHolder m2(tf2_beg, tf2_end, type2);
  return detail::advance(o1, m1.get(), o2, m2.get(), request, result, contact);
}

double continuousCollide(const fcl::CollisionGeometry<double>* o1,
                         const fcl::MotionBase<double>* motion1,
                         const fcl::CollisionGeometry<double>* o2,
                         const fcl::MotionBase<double>* motion2,
                         const fcl::ContinuousCollisionRequest<double>& request,
                         fcl::ContinuousCollisionResult<double>& result,
                         ContinuousContact* contact) {
  detail::checkNotNull(o1, o2);
  if (!detail::asSuperovoid(o1) && !detail::asSuperovoid(o2)) {
    return fcl::continuousCollide(o1, motion1, o2, motion2, request, result);
  }
  detail::checkPair(o1, o2, request);
  if (!motion1 || !motion2) throwIfError(SOV_ERR_NULL, "sov::continuousCollide: null motion");
  return detail::advance(o1, *motion1, o2, *motion2, request, result, contact);
}

double continuousCollide(const fcl::CollisionObject<double>* o1,
                         const fcl::Transform3<double>& tf1_end,
                         const fcl::CollisionObject<double>* o2,
                         const fcl::Transform3<double>& tf2_end,
                         const fcl::ContinuousCollisionRequest<double>& request,
                         fcl::ContinuousCollisionResult<double>& result,
                         ContinuousContact* contact) {
  if (!o1 || !o2) throwIfError(SOV_ERR_NULL, "sov::continuousCollide: null collision object");
  return continuousCollide(o1->collisionGeometry().get(), o1->getTransform(), tf1_end,
                           o2->collisionGeometry().get(), o2->getTransform(), tf2_end, request,
                           result, contact);
}

double collide(const fcl::ContinuousCollisionObject<double>* o1,
               const fcl::ContinuousCollisionObject<double>* o2,
               const fcl::ContinuousCollisionRequest<double>& request,
               fcl::ContinuousCollisionResult<double>& result, ContinuousContact* contact) {
  if (!o1 || !o2) throwIfError(SOV_ERR_NULL, "sov::collide: null continuous collision object");
  return continuousCollide(o1->collisionGeometry().get(), o1->getMotion(),
                           o2->collisionGeometry().get(), o2->getMotion(), request, result,
                           contact);
}

}  // namespace sov
