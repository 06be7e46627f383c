// The smallest-volume convex superovoid containing a point set: PCA start,
// least-squares inside-outside fit, exact inflation, penalty volume
// minimisation (see urdf/fit/README.md for the method).
#include "superovoid/urdf/fit.h"

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "directions.h"
#include "lm.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Points = std::vector<Vector3d>;

// Relative growth of the semi-axes beyond the exact inflation, so that the
// few-ulp rounding of a pose written as decimal text (URDF xyz, rpy) cannot
// put a touching vertex outside.
constexpr double kContainmentMargin = 1e-9;
// Forward-difference step of the shape coordinates.
constexpr double kShapeStep = 1e-7;
// Exponents of the box-like starts, over FitOptions::eps_min (see
// fitSuperovoid): on a cube, 0.3 and 0.15 still stalled at 1.35 and 1.17
// times the hull's volume, 0.12 reached the best box, 1.166.
constexpr double kBoxStart = 1.2;

// The fit's state: shape coordinates u (unbounded; see shapeParams), the
// valid parameters they give, the shape, and the pose (points = R y + c).
struct State {
  double u[7] = {0, 0, 0, 0, 0, 0, 0};
  double p[7] = {0, 0, 0, 0, 0, 0, 0};
  sov_shape shape{};
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
  Vector3d c = Vector3d::Zero();
};

double sigmoid(double t) { return 1 / (1 + std::exp(-t)); }

// Parameters from unbounded coordinates: a = exp(u), eps in [eps_min,
// eps_max] through a logistic, |taper| <= taper_max through tanh.
void shapeParams(double p[7], const double u[7], const FitOptions& o) {
  for (int k = 0; k < 3; ++k) p[k] = std::exp(u[k]);
  for (int k = 3; k < 5; ++k) p[k] = o.eps_min + (o.eps_max - o.eps_min) * sigmoid(u[k]);
  for (int k = 5; k < 7; ++k) p[k] = o.taper_max * std::tanh(u[k]);
}

// The inverse of shapeParams (values on a bound are pulled just inside).
void shapeCoords(double u[7], const double p[7], const FitOptions& o) {
  for (int k = 0; k < 3; ++k) u[k] = std::log(p[k]);
  for (int k = 3; k < 5; ++k) {
    const double s = std::clamp((p[k] - o.eps_min) / (o.eps_max - o.eps_min), 1e-12, 1 - 1e-12);
    u[k] = std::log(s / (1 - s));
  }
  for (int k = 5; k < 7; ++k)
    u[k] = std::atanh(std::clamp(p[k] / o.taper_max, -1 + 1e-12, 1 - 1e-12));
}

// Makes p a convex shape: tapers scaled down by sov_shape_max_taper_scale
// (a little further, until sov_shape_init accepts). False if p is invalid
// for another reason.
bool makeConvex(double p[7], sov_shape* shape) {
  int st = sov_shape_init(shape, p);
  if (st != SOV_ERR_NONCONVEX) return st == SOV_OK;
  double scale = 0;
  if (sov_shape_max_taper_scale(&scale, p) != SOV_OK) return false;
  const double t0[2] = {p[5], p[6]};
  double f = scale * (1 - 1e-6);
  for (int k = 0; k < 40 && st == SOV_ERR_NONCONVEX; ++k, f *= 0.98) {
    p[5] = t0[0] * f;
    p[6] = t0[1] * f;
    st = sov_shape_init(shape, p);
  }
  return st == SOV_OK;
}

// State with shape coordinates u (made convex; u then follows p).
bool setShape(State& s, const double u[7], const FitOptions& o) {
  shapeParams(s.p, u, o);
  if (!makeConvex(s.p, &s.shape)) return false;
  shapeCoords(s.u, s.p, o);
  return true;
}

// F (SPEC) at a local point, and its gradient when grad is not null.
double implicitF(const sov_shape& shape, const Vector3d& y, double* grad = nullptr) {
  double F = 0;
  sov_shape_implicit(&F, grad, nullptr, &shape, y.data());
  return F;
}

// Radial scale estimate (F + 1)^(eps2 / 2): exactly the factor by which the
// untapered body must be scaled about its origin to pass through y (F + 1 is
// homogeneous of degree 2 / eps2 in y); close to it when tapered. Gradient in
// d_dy when not null.
double radialEstimate(const sov_shape& shape, const Vector3d& y, Vector3d* d_dy) {
  double g[3];
  const double F = implicitF(shape, y, d_dy ? g : nullptr);
  sov_shape_info info{};
  sov_shape_get(&info, &shape);  // a validated shape: cannot fail
  const double S = std::max(F + 1, 1e-300), e = info.params[4] / 2;
  const double rho = std::pow(S, e);
  if (d_dy) *d_dy = e * rho / S * Vector3d(g[0], g[1], g[2]);
  return rho;
}

Vector3d toLocal(const State& s, const Vector3d& x) { return s.q.conjugate() * (x - s.c); }

// Largest F over the points in the state's frame.
double maxF(const State& s, const Points& pts) {
  double m = -std::numeric_limits<double>::infinity();
  for (const Vector3d& x : pts) m = std::max(m, implicitF(s.shape, toLocal(s, x)));
  return m;
}

// Scales the shape about its origin to the smallest size containing every
// point (and kContainmentMargin more), then verifies F <= 0 at every point
// with sov_shape_implicit, growing further if rounding says otherwise.
bool inflate(State& s, const Points& pts, const FitOptions& o) {
  double l = 0;
  for (const Vector3d& x : pts) l = std::max(l, detail::radialScale(s.shape, toLocal(s, x)));
  if (!(l > 0) || !std::isfinite(l)) return false;
  const double a0[3] = {s.p[0], s.p[1], s.p[2]};
  double grow = l * (1 + kContainmentMargin);
  for (int k = 0; k < 60; ++k, grow *= 1 + kContainmentMargin * (1 << std::min(k, 20))) {
    for (int i = 0; i < 3; ++i) s.p[i] = a0[i] * grow;
    // Uniform scaling keeps convexity (the dent is relative), so init succeeds.
    if (sov_shape_init(&s.shape, s.p) != SOV_OK) return false;
    if (maxF(s, pts) <= 0) {
      shapeCoords(s.u, s.p, o);
      return true;
    }
  }
  return false;
}

double volume(const sov_shape& shape) {
  double v = 0;
  sov_shape_volume(&v, &shape);
  return v;
}

// The cross-product matrix [y]x.
Matrix3d skew(const Vector3d& y) {
  Matrix3d m;
  m << 0, -y.z(), y.y(), y.z(), 0, -y.x(), -y.y(), y.x(), 0;
  return m;
}

// Residual terms of one stage, per point: Solina and Bajcsy's
// volume-weighted inside-outside residual sqrt(a1 a2 a3) (rho - 1) ("Recovery
// of parametric models from range images", PAMI 1990, Eq. 15, with rho the
// radial scale estimate), or the penalty sqrt(mu) max(0, rho - 1) after the
// volume term sqrt(V / v_ref).
struct Stage {
  bool penalty = false;
  double mu = 0, v_ref = 1;
  int offset() const { return penalty ? 1 : 0; }
};

// Residuals of the stage at s; dr_dy (when not null) gets each point
// residual's gradient in the local point.
void stageResiduals(const Stage& st, const State& s, const Points& pts, Eigen::VectorXd& r,
                    std::vector<Vector3d>* dr_dy) {
  const int n = static_cast<int>(pts.size()), off = st.offset();
  r.resize(n + off);
  if (dr_dy) dr_dy->assign(pts.size(), Vector3d::Zero());
  if (st.penalty) r[0] = std::sqrt(volume(s.shape) / st.v_ref);
  const double w = st.penalty ? std::sqrt(st.mu) : std::sqrt(s.p[0] * s.p[1] * s.p[2]);
  for (int i = 0; i < n; ++i) {
    Vector3d d;
    const double rho = radialEstimate(s.shape, toLocal(s, pts[i]), dr_dy ? &d : nullptr);
    const bool active = !st.penalty || rho > 1;
    r[off + i] = active ? w * (rho - 1) : 0;
    if (dr_dy && active) (*dr_dy)[i] = w * d;
  }
}

// The state moved by step (shape coordinates 0-6, rotation vector 7-9 in the
// body frame, translation 10-12).
bool plusStep(const State& s, const Eigen::VectorXd& step, State& out, const FitOptions& o) {
  double u[7];
  for (int k = 0; k < 7; ++k) u[k] = s.u[k] + step[k];
  out = s;
  if (!setShape(out, u, o)) return false;
  const Vector3d w = step.segment<3>(7);
  const double angle = w.norm();
  if (angle > 0)
    out.q = (s.q * Eigen::Quaterniond(Eigen::AngleAxisd(angle, w / angle))).normalized();
  out.c = s.c + step.segment<3>(10);
  return true;
}

// Residuals and Jacobian: pose columns from F's gradient (sov_shape_implicit),
// shape columns by forward differences through setShape (so they see the
// convexity projection).
void evalStage(const Stage& st, const State& s, const Points& pts, const FitOptions& o,
               Eigen::VectorXd& r, Eigen::MatrixXd* J) {
  std::vector<Vector3d> dr_dy;
  stageResiduals(st, s, pts, r, J ? &dr_dy : nullptr);
  if (!J) return;
  J->setZero(r.size(), 13);
  const Matrix3d Rt = s.q.conjugate().toRotationMatrix();
  const int off = st.offset();
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Vector3d y = toLocal(s, pts[i]);
    // y(w, c) = exp(-[w]x) R^T (x - c): dy/dw = [y]x, dy/dc = -R^T.
    J->block<1, 3>(off + i, 7) = dr_dy[i].transpose() * skew(y);
    J->block<1, 3>(off + i, 10) = -dr_dy[i].transpose() * Rt;
  }
  Eigen::VectorXd r_k;
  for (int k = 0; k < 7; ++k) {
    State sk = s;
    double u[7];
    std::copy(s.u, s.u + 7, u);
    const double h = kShapeStep * std::max(1.0, std::fabs(u[k]));
    u[k] += h;
    if (!setShape(sk, u, o)) continue;
    stageResiduals(st, sk, pts, r_k, nullptr);
    J->col(k) = (r_k - r) / h;
  }
}

State solveStage(const Stage& st, const State& s0, const Points& pts, const FitOptions& o) {
  const auto eval = [&](const State& s, Eigen::VectorXd& r, Eigen::MatrixXd* J) {
    evalStage(st, s, pts, o, r, J);
  };
  const auto plus = [&](const State& s, const Eigen::VectorXd& step, State& out) {
    return plusStep(s, step, out, o);
  };
  return detail::levenbergMarquardt(s0, eval, plus, o.max_iterations);
}

// The points' principal axes (columns, by increasing variance) and their
// variances.
Eigen::SelfAdjointEigenSolver<Matrix3d> principalAxes(const Points& pts) {
  Vector3d mean = Vector3d::Zero();
  for (const Vector3d& x : pts) mean += x;
  mean /= static_cast<double>(pts.size());
  Matrix3d C = Matrix3d::Zero();
  for (const Vector3d& x : pts) C += (x - mean) * (x - mean).transpose();
  return Eigen::SelfAdjointEigenSolver<Matrix3d>(C);
}

// Two principal axes share their variance (to 1 % of the largest): the
// eigensolver's basis of their plane is then arbitrary, and a start along
// it can sit 45 degrees off a box's faces, where the fit stays (a cube
// fitted at 2.45 times its hull's volume, one 1 % longer at 1.17).
bool sharedVariance(const Vector3d& variances) {
  const double tie = 1e-2 * variances[2];
  return variances[1] - variances[0] <= tie || variances[2] - variances[1] <= tie;
}

// A frame of the hull's own faces, when the principal axes leave one open:
// z the normal of its largest face (the triangles of one plane summed), x
// that of the largest face at least 60 degrees from it, made orthogonal.
// False if there is no such second face.
bool faceFrame(Matrix3d& R, const Points& vertices, const ConvexHull& hull) {
  std::vector<std::pair<Vector3d, double>> planes;  // unit normal, area
  for (const auto& t : hull.triangles) {
    const Vector3d c = (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]);
    const double twice = c.norm();
    if (!(twice > 0)) continue;
    const Vector3d n = c / twice;
    auto same = std::find_if(planes.begin(), planes.end(),
                             [&](const auto& p) { return p.first.dot(n) > 1 - 1e-9; });
    if (same == planes.end()) {
      planes.emplace_back(n, 0.5 * twice);
    } else {
      same->second += 0.5 * twice;
    }
  }
  std::sort(planes.begin(), planes.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
  for (std::size_t k = 1; k < planes.size(); ++k) {
    if (std::fabs(planes[k].first.dot(planes[0].first)) < 0.5) {
      const Vector3d z = planes[0].first;
      R.col(2) = z;
      R.col(0) = (planes[k].first - planes[k].first.dot(z) * z).normalized();
      R.col(1) = R.col(2).cross(R.col(0));
      return true;
    }
  }
  return false;
}

// Start from a frame's axes (the principal axes, or a face frame): column
// z_axis becomes the body's z; semi-axes are the half-extents there; both
// exponents eps (an ellipsoid, or a box-like start).
bool startState(State& s, const Points& pts, const Matrix3d& frame, int z_axis, double eps,
                const FitOptions& o) {
  Matrix3d R;
  R.col(2) = frame.col(z_axis);
  R.col(0) = frame.col((z_axis + 1) % 3);
  R.col(1) = R.col(2).cross(R.col(0));
  Vector3d lo = Vector3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Vector3d& x : pts) {
    const Vector3d y = R.transpose() * x;
    lo = lo.cwiseMin(y);
    hi = hi.cwiseMax(y);
  }
  const Vector3d half = 0.5 * (hi - lo);
  s.q = Eigen::Quaterniond(R).normalized();
  s.c = R * (0.5 * (lo + hi));
  double p[7] = {0, 0, 0, eps, eps, 0, 0};
  for (int k = 0; k < 3; ++k) p[k] = std::max(half[k], 1e-3 * half.maxCoeff());
  double u[7];
  shapeCoords(u, p, o);
  return setShape(s, u, o);
}

// One start: the least-squares fit from a frame's axis z_axis, inflated.
bool roughFit(State& s, const Points& pts, const Matrix3d& frame, int z_axis, double eps,
              const FitOptions& o) {
  if (!startState(s, pts, frame, z_axis, eps, o)) return false;
  s = solveStage(Stage{}, s, pts, o);
  return inflate(s, pts, o);
}

// The rough fits from each axis of a frame as z, from each start exponent.
std::vector<State> roughFits(const Points& pts, const Matrix3d& frame,
                             std::initializer_list<double> start_eps, const FitOptions& o) {
  std::vector<State> rough;
  for (const double eps : start_eps) {
    for (int z_axis = 0; z_axis < 3; ++z_axis) {
      State s;
      if (roughFit(s, pts, frame, z_axis, eps, o)) rough.push_back(s);
    }
  }
  return rough;
}

// The penalty stages from a rough fit, each solve inflated; the smallest
// inflated state.
State refine(const State& rough, const Points& pts, const FitOptions& o) {
  State s = rough, best = rough;
  Stage st;
  st.penalty = true;
  st.v_ref = volume(s.shape);
  for (double mu : o.penalties) {
    st.mu = mu;
    s = solveStage(st, s, pts, o);
    State candidate = s;
    if (inflate(candidate, pts, o) && volume(candidate.shape) < volume(best.shape))
      best = candidate;
  }
  return best;
}

// best with its tapers set to zero, or else to their mean, when that costs
// at most options.taper_snap of its volume once inflated to contain pts
// again (FitOptions::taper_snap); best itself otherwise.
State snapTapers(const State& best, const Points& pts, const FitOptions& o) {
  const double v = volume(best.shape);
  const double mean = 0.5 * (best.p[5] + best.p[6]);
  for (const double t : {0.0, mean}) {
    if (best.p[5] == t && best.p[6] == t) return best;  // already so
    State s = best;
    s.p[5] = s.p[6] = t;
    if (!makeConvex(s.p, &s.shape) || !inflate(s, pts, o)) continue;
    if (volume(s.shape) <= v * (1 + o.taper_snap)) return s;
  }
  return best;
}

Location nowhere() { return Location{"<points>", 0, "", ""}; }

void checkOptions(const FitOptions& o) {
  const bool ok = o.max_iterations > 0 && !o.penalties.empty() && o.eps_min > 0 &&
                  o.eps_min < o.eps_max && o.eps_max < 2 && o.taper_max >= 0 && o.taper_max < 1 &&
                  o.gap_directions >= 6 && o.refined_starts >= 1 && o.taper_snap >= 0 &&
                  std::isfinite(o.taper_snap);
  if (!ok)
    throw Error(SOV_ERR_OPTION, nowhere(),
                "fit options out of range (need max_iterations > 0, penalties, 0 < eps_min < "
                "eps_max < 2, 0 <= taper_max < 1, gap_directions >= 6, refined_starts >= 1, "
                "0 <= taper_snap, finite)");
}

}  // namespace

namespace detail {

// By bisection to the last bits, from the estimate (F + 1)^(eps2 / 2).
double radialScale(const sov_shape& shape, const Vector3d& y) {
  if (y.norm() == 0) return 0;
  double lo = radialEstimate(shape, y, nullptr), hi = lo;
  for (int k = 0; k < 2000 && implicitF(shape, y / hi) > 0; ++k) hi *= 1.5;
  for (int k = 0; k < 2000 && implicitF(shape, y / lo) <= 0; ++k) lo /= 1.5;
  for (int k = 0; k < 200 && hi - lo > 1e-16 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (implicitF(shape, y / mid) > 0 ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace detail

SuperovoidFit fitSuperovoid(const std::vector<Point3>& points, const FitOptions& options) {
  checkOptions(options);
  const auto t0 = std::chrono::steady_clock::now();
  const ConvexHull hull = convexHull(points);
  // Only hull vertices matter for containment (the body is convex). Fit in
  // unit-scale coordinates about their centroid.
  Vector3d m = Vector3d::Zero();
  for (const Point3& v : hull.vertices) m += Vector3d(v[0], v[1], v[2]);
  m /= static_cast<double>(hull.vertices.size());
  double L = 0;
  for (const Point3& v : hull.vertices) L = std::max(L, (Vector3d(v[0], v[1], v[2]) - m).norm());
  Points unit, all;
  for (const Point3& v : hull.vertices) unit.push_back((Vector3d(v[0], v[1], v[2]) - m) / L);
  for (const Point3& v : points) all.emplace_back(v[0], v[1], v[2]);

  // Rough fits with each principal axis as z, the smallest refined. Where
  // two principal variances tie, also the hull's face frame's axes, from an
  // ellipsoid and from a box-like start, the smallest of those refined too:
  // in place of the principal starts they lost 2 % on iCub's ra5.
  const auto eig = principalAxes(unit);
  std::vector<std::vector<State>> groups = {roughFits(unit, eig.eigenvectors(), {1.0}, options)};
  Matrix3d faces;
  if (sharedVariance(eig.eigenvalues()) && faceFrame(faces, unit, hull))
    groups.push_back(
        roughFits(unit, faces, {1.0, std::min(kBoxStart * options.eps_min, 1.0)}, options));
  State best;
  bool found = false;
  for (std::vector<State>& rough : groups) {
    std::sort(rough.begin(), rough.end(),
              [](const State& a, const State& b) { return volume(a.shape) < volume(b.shape); });
    if (rough.size() > static_cast<std::size_t>(options.refined_starts))
      rough.resize(static_cast<std::size_t>(options.refined_starts));
    for (const State& r : rough) {
      const State s = refine(r, unit, options);
      if (!found || volume(s.shape) < volume(best.shape)) best = s;
      found = true;
    }
  }
  if (found) best = snapTapers(best, unit, options);
  // Back to the points' units, and containment of every input point.
  if (found) {
    for (int k = 0; k < 3; ++k) best.p[k] *= L;
    best.c = L * best.c + m;
    found = sov_shape_init(&best.shape, best.p) == SOV_OK && inflate(best, all, options);
  }
  if (!found)
    throw Error(SOV_URDF_ERR_INTERNAL, nowhere(),
                "no superovoid could be made to contain the points");

  SuperovoidFit f;
  std::copy(best.p, best.p + 7, f.params);
  f.shape = best.shape;
  const Matrix3d R = best.q.toRotationMatrix();
  double Rrow[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Rrow[3 * i + j] = R(i, j);
  sov_pose_from_matrix(&f.pose, Rrow, best.c.data());
  f.volume = volume(best.shape);
  f.hull_volume = hull.volume;
  f.volume_ratio = f.volume / hull.volume;
  f.max_F = maxF(best, all);
  f.points = points.size();
  f.hull_vertices = hull.vertices.size();
  f.gap = hausdorffGap(f.shape, f.pose, hull, options.gap_directions);
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return f;
}

}  // namespace urdf
}  // namespace sov
