// sov_bench_ccd: continuous collision (issue 31).
//
// Part 1, motions from the batteries: each battery pair becomes a motion. B
// turns in place about its centre (up to a quarter turn); A crosses it along
// the line of centres, from L beyond its battery pose to L short of B's
// side of it (L the sum of the bounding radii), turning up to half a turn,
// shifted sideways by up to 0.9 L (so some motions miss). The battery pose
// is where A is at t = 1/2 when the shift is 0. Per motion, the time and
// first-contact time of: the C API's sov_time_of_contact (tolerance 1e-6);
// FCL 0.7's continuousCollide with conservative advancement on 290-vertex
// OBBRSS meshes (sov_shape_tessellate 13 x 24, as sov_bench_battery) and on
// the same vertices as fcl::Convex; FCL's default (naive: 10 samples) on
// the meshes. FCL's motions are InterpMotion about the local origin built
// from matrices (its (tf, tf) constructor leaves the reference point
// uninitialised), the same motion as sov_motion. The reference time is the
// exact bodies' first contact: their distance sampled every 1e-4 in t, then
// bisected to 1e-12 (sov_distance).
//
// Part 2, the fitted Panda: random joint-space segments from a free
// configuration, in a random direction, up to RRTConnect's default range
// (0.2 of the state space's extent), ending in a free configuration; and
// as many segments through the neighbourhood of colliding configurations
// (both ends free; see Segments).
// Scene::motionCollides against checking the segment at OMPL's default
// resolution (states every 0.01 of the extent: DiscreteMotionValidator with
// longest valid segment fraction 0.01), both timed; a 50 times finer sampling
// (not timed) tells missed contacts from grazes.
//
// Not run by ctest. See benchmarks/RESULTS.md for the command and figures.
#include <superovoid/fcl.h>
#include <superovoid/urdf/fit.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>

#include <fcl/math/motion/interp_motion.h>
#include <fcl/narrowphase/continuous_collision.h>

#include <random>
#include <set>

#include "bench_common.h"
#include "robot_pairs.h"

namespace {

const char kUsage[] =
    "usage: sov_bench_ccd --out DIR [--quick] [--data DIR] [--motions N] [--segments N]\n"
    "                     [--robots DIR] [--fitted PANDA_FIT_URDF]\n"
    "Part 1: N motions per battery (default 200; --quick 10) from DIR's batteries\n"
    "(default ../shared/data, else test/data subsets). Part 2: N Panda segments\n"
    "(default 200; --quick 5), the Panda of --robots (default ../shared/data/robots)\n"
    "fitted by sov::urdf::fitUrdf, or read from --fitted. Writes DIR/ccd_motions.csv,\n"
    "DIR/ccd_panda.csv, DIR/ccd_meta.csv and prints the tables.\n";

constexpr int kLat = 13, kLon = 24;  // 290 vertices, the study's FCL meshes
constexpr int kRefSamples = 10000;  // reference sampling: steps of 1e-4
constexpr int kRepeat = 3;          // timed runs per query (median)

using Transform = fcl::Transform3d;

// A battery pair as a motion.
struct Motion {
  long id = 0;
  sov_shape A{}, B{};
  sov_motion MA{}, MB{};
};

// Rotation by angle about a unit axis, as a row-major matrix, times R.
void TurnBy(double out[9], const double axis[3], double angle, const double R[9]) {
  const double p[3] = {0, 0, 0};
  const sov_pose T = bench::AxisAnglePose(axis, angle, p);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      out[3 * i + j] = T.R[3 * i] * R[j] + T.R[3 * i + 1] * R[3 + j] + T.R[3 * i + 2] * R[6 + j];
}

// Random unit vector.
void RandomUnit(double u[3], std::mt19937_64& rng) {
  std::normal_distribution<double> g(0, 1);
  double n = 0;
  do {
    for (int i = 0; i < 3; ++i) u[i] = g(rng);
    n = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  } while (n < 1e-6);
  for (int i = 0; i < 3; ++i) u[i] /= n;
}

// The motion of a battery row (see the file comment).
Motion MakeMotion(const bench::PairRow& row, std::mt19937_64& rng) {
  Motion m;
  m.id = row.id;
  const double* a = row.v.data();
  const double* b = row.v.data() + 14;
  m.A = bench::MakeShape(a);
  m.B = bench::MakeShape(b);
  const sov_pose XA = bench::MakePose(a + 7, a + 11), XB = bench::MakePose(b + 7, b + 11);
  const double L = bench::Info(m.A).radius + bench::Info(m.B).radius;
  double u[3], axis[3], axis_b[3], side[3];
  for (int i = 0; i < 3; ++i) u[i] = XA.p[i] - XB.p[i];
  double n = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  if (n < 1e-9) {
    RandomUnit(u, rng);
  } else {
    for (double& x : u) x /= n;
  }
  RandomUnit(axis, rng);
  RandomUnit(axis_b, rng);
  RandomUnit(side, rng);
  const double k = side[0] * u[0] + side[1] * u[1] + side[2] * u[2];
  for (int i = 0; i < 3; ++i) side[i] -= k * u[i];
  n = std::sqrt(side[0] * side[0] + side[1] * side[1] + side[2] * side[2]);
  std::uniform_real_distribution<double> unit(0, 1);
  const double shift = 0.9 * L * unit(rng) / (n > 1e-9 ? n : 1);
  const double turn = M_PI * unit(rng), turn_b = 0.5 * M_PI * unit(rng);
  double R0[9], R1[9], S0[9], S1[9], p0[3], p1[3];
  TurnBy(R0, axis, -turn / 2, XA.R);
  TurnBy(R1, axis, turn / 2, XA.R);
  TurnBy(S0, axis_b, -turn_b / 2, XB.R);
  TurnBy(S1, axis_b, turn_b / 2, XB.R);
  for (int i = 0; i < 3; ++i) {
    p0[i] = XA.p[i] + L * u[i] + shift * side[i];
    p1[i] = XA.p[i] - L * u[i] + shift * side[i];
  }
  const int st = sov_pose_from_matrix(&m.MA.from, R0, p0) | sov_pose_from_matrix(&m.MA.to, R1, p1) |
                 sov_pose_from_matrix(&m.MB.from, S0, XB.p) |
                 sov_pose_from_matrix(&m.MB.to, S1, XB.p);
  if (st != SOV_OK) throw std::runtime_error("motion of pair " + std::to_string(row.id));
  return m;
}

// Signed distance at time t of a motion (cache may be null).
double DistanceAt(const Motion& m, double t, sov_cache* cache) {
  sov_pose XA, XB;
  sov_motion_pose(&XA, &m.MA, t);
  sov_motion_pose(&XB, &m.MB, t);
  sov_result r;
  const int st = sov_distance(&r, &m.A, &XA, &m.B, &XB, nullptr, cache);
  return st == SOV_OK ? r.d : NAN;
}

// Reference first contact of the exact bodies: sampled every 1e-4, then
// bisected to 1e-12; 2 when no sample touches. *min_d: the smallest sample.
double ReferenceContact(const Motion& m, double* min_d) {
  sov_cache cache;
  sov_cache_reset(&cache);
  *min_d = INFINITY;
  double prev = 0;
  for (int k = 0; k <= kRefSamples; ++k) {
    const double t = static_cast<double>(k) / kRefSamples;
    const double d = DistanceAt(m, t, &cache);
    *min_d = std::fmin(*min_d, d);
    if (d <= 0) {
      if (k == 0) return 0;
      double lo = prev, hi = t;
      while (hi - lo > 1e-12) {
        const double mid = 0.5 * (lo + hi);
        (DistanceAt(m, mid, nullptr) <= 0 ? hi : lo) = mid;
      }
      return hi;
    }
    prev = t;
  }
  return 2;
}

// An FCL transform of a sov_pose.
Transform ToFcl(const sov_pose& X) { return bench::ToFcl(X); }

// FCL's InterpMotion about the local origin from X0 to X1 (the constructor
// that sets both the reference point and the velocities).
std::shared_ptr<fcl::InterpMotion<double>> Interp(const sov_pose& X0, const sov_pose& X1) {
  const Transform a = ToFcl(X0), b = ToFcl(X1);
  return std::make_shared<fcl::InterpMotion<double>>(a.linear(), a.translation(), b.linear(),
                                                     b.translation(), fcl::Vector3d::Zero());
}

// One method's answer on one motion: contact, time, query time.
struct Answer {
  bool contact = false;
  double t = NAN, us = NAN;
};

// The methods compared.
enum Method {
  kSov,
  kSovDropIn,
  kFclMeshCa,
  kFclRssCa,
  kFclConvexCa,
  kFclNaive,
  kMethodCount
};
const char* const kMethodNames[kMethodCount] = {
    "sov_time_of_contact (tolerance 1e-6)",
    "sov::continuousCollide (FCL's request, CCDM_LINEAR)",
    "FCL CA, OBBRSS meshes 290 v",
    "FCL CA, RSS meshes 290 v",
    "FCL CA, Convex 290 v",
    "FCL naive (its default: 10 samples), OBBRSS meshes"};
// Whether a method answers for the exact bodies (else for the 290-vertex
// hulls, whose reference it is judged against).
bool ExactBodies(int method) { return method == kSov || method == kSovDropIn; }

// FCL geometry of a motion: meshes and polytopes of both bodies.
struct FclBodies {
  std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> mesh_a, mesh_b;
  std::shared_ptr<fcl::BVHModel<fcl::RSSd>> rss_a, rss_b;
  std::shared_ptr<fcl::Convexd> convex_a, convex_b;
  std::shared_ptr<sov::Superovoid> sov_a, sov_b;
};

// An RSS tree over a mesh.
std::shared_ptr<fcl::BVHModel<fcl::RSSd>> RssBvh(const bench::Mesh& m) {
  auto bvh = std::make_shared<fcl::BVHModel<fcl::RSSd>>();
  bvh->beginModel(static_cast<int>(m.triangles.size()), static_cast<int>(m.vertices.size()));
  bvh->addSubModel(m.vertices, m.triangles);
  bvh->endModel();
  return bvh;
}

FclBodies MakeFcl(const Motion& m) {
  const bench::Mesh a = bench::Tessellate(m.A, kLat, kLon), b = bench::Tessellate(m.B, kLat, kLon);
  FclBodies f;
  f.mesh_a = bench::MeshBvh(a);
  f.mesh_b = bench::MeshBvh(b);
  f.rss_a = RssBvh(a);
  f.rss_b = RssBvh(b);
  f.convex_a = bench::MeshConvex(a);
  f.convex_b = bench::MeshConvex(b);
  const sov_shape_info ia = bench::Info(m.A), ib = bench::Info(m.B);
  std::array<double, 7> pa, pb;
  std::copy(std::begin(ia.params), std::end(ia.params), pa.begin());
  std::copy(std::begin(ib.params), std::end(ib.params), pb.begin());
  f.sov_a = std::make_shared<sov::Superovoid>(pa);
  f.sov_b = std::make_shared<sov::Superovoid>(pb);
  return f;
}

// Whether FCL's collide finds the Convex hulls of a motion in contact at t.
bool HullsTouch(const Motion& m, const FclBodies& f, double t) {
  sov_pose XA, XB;
  sov_motion_pose(&XA, &m.MA, t);
  sov_motion_pose(&XB, &m.MB, t);
  fcl::CollisionRequestd req;
  fcl::CollisionResultd res;
  return fcl::collide(f.convex_a.get(), bench::ToFcl(XA), f.convex_b.get(), bench::ToFcl(XB), req,
                      res) > 0;
}

// Reference first contact of the 290-vertex hulls (FCL's geometry): FCL's
// collide (libccd MPR) every 1e-3 in t, then bisected to 1e-10; 2 when no
// sample touches.
double HullReference(const Motion& m, const FclBodies& f) {
  constexpr int kHullSamples = 1000;
  double prev = 0;
  for (int k = 0; k <= kHullSamples; ++k) {
    const double t = static_cast<double>(k) / kHullSamples;
    if (HullsTouch(m, f, t)) {
      if (k == 0) return 0;
      double lo = prev, hi = t;
      while (hi - lo > 1e-10) {
        const double mid = 0.5 * (lo + hi);
        (HullsTouch(m, f, mid) ? hi : lo) = mid;
      }
      return hi;
    }
    prev = t;
  }
  return 2;
}

// Runs one method on one motion kRepeat times; the answer and median time.
Answer RunMethod(Method method, const Motion& m, const FclBodies& f) {
  Answer a;
  std::vector<double> times;
  for (int rep = 0; rep < kRepeat; ++rep) {
    const auto t0 = bench::Clock::now();
    if (method == kSov) {
      sov_toc_result r;
      const int st = sov_time_of_contact(&r, &m.A, &m.MA, &m.B, &m.MB, nullptr, nullptr);
      if (st != SOV_OK) throw std::runtime_error(std::string("sov: ") + sov_status_string(st));
      a.contact = r.contact;
      a.t = r.t;
    } else {
      fcl::ContinuousCollisionRequestd req;
      fcl::ContinuousCollisionResultd res;
      req.ccd_motion_type = fcl::CCDM_LINEAR;
      const auto m1 = Interp(m.MA.from, m.MA.to), m2 = Interp(m.MB.from, m.MB.to);
      if (method == kSovDropIn) {
        sov::continuousCollide(f.sov_a.get(), ToFcl(m.MA.from), ToFcl(m.MA.to), f.sov_b.get(),
                               ToFcl(m.MB.from), ToFcl(m.MB.to), req, res);
      } else {
        req.ccd_solver_type =
            method == kFclNaive ? fcl::CCDC_NAIVE : fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
        const fcl::CollisionGeometryd* ga = f.mesh_a.get();
        const fcl::CollisionGeometryd* gb = f.mesh_b.get();
        if (method == kFclConvexCa) ga = f.convex_a.get(), gb = f.convex_b.get();
        if (method == kFclRssCa) ga = f.rss_a.get(), gb = f.rss_b.get();
        fcl::continuousCollide(ga, m1.get(), gb, m2.get(), req, res);
      }
      a.contact = res.is_collide;
      a.t = res.is_collide ? res.time_of_contact : 1.0;
    }
    times.push_back(bench::ElapsedNs(t0) * 1e-3);
  }
  std::nth_element(times.begin(), times.begin() + kRepeat / 2, times.end());
  a.us = times[kRepeat / 2];
  return a;
}

// Per method: query times, agreement with the reference of its own
// geometry (the exact bodies for sov, the hulls for FCL) and time errors
// against it and against the exact bodies.
struct Tally {
  std::vector<double> us, err_own, err_exact;
  long both = 0, neither = 0, missed = 0, extra = 0, late = 0;
  double worst_late = 0, worst_early = 0;
};

// Adds one answer against its own geometry's reference time own and the
// exact bodies' exact (> 1: no contact); a contact the exact reference's
// samples step over (their smallest distance below 1e-6) is not counted as
// extra.
void Count(Tally* t, const Answer& a, double own, double exact, double min_d) {
  t->us.push_back(a.us);
  const bool ref_contact = own <= 1;
  if (a.contact && exact <= 1) t->err_exact.push_back(std::fabs(a.t - exact));
  if (a.contact && ref_contact) {
    ++t->both;
    const double e = a.t - own;
    t->err_own.push_back(std::fabs(e));
    if (e > 1e-9) ++t->late;
    t->worst_late = std::fmax(t->worst_late, e);
    t->worst_early = std::fmin(t->worst_early, e);
  } else if (!a.contact && !ref_contact) {
    ++t->neither;
  } else if (ref_contact) {
    ++t->missed;
  } else if (min_d > 1e-6) {
    ++t->extra;
  } else {
    ++t->both;  // a graze within the tolerance between the reference's samples
  }
}

// Part 1 on one battery; appends rows to csv and prints the table.
void RunBattery(const bench::Battery& bat, int motions, std::ofstream& csv) {
  std::mt19937_64 rng(31);
  std::vector<Tally> tally(kMethodCount);
  const size_t stride = std::max<size_t>(1, bat.pairs.size() / motions);
  bench::Progress progress("motions " + bat.name, static_cast<size_t>(motions));
  int done = 0;
  for (size_t i = 0; i < bat.pairs.size() && done < motions; i += stride, ++done) {
    const Motion m = MakeMotion(bat.pairs[i], rng);
    const FclBodies f = MakeFcl(m);
    double min_d = 0;
    const double exact = ReferenceContact(m, &min_d);
    const double hull = HullReference(m, f);
    csv << bat.name << "," << m.id << "," << bench::Num(exact) << "," << bench::Num(hull);
    for (int k = 0; k < kMethodCount; ++k) {
      const Answer a = RunMethod(static_cast<Method>(k), m, f);
      Count(&tally[k], a, ExactBodies(k) ? exact : hull, exact, ExactBodies(k) ? min_d : 1.0);
      csv << "," << a.contact << "," << bench::Num(a.t) << "," << bench::Num(a.us);
    }
    csv << "\n";
    progress.Step();
  }
  std::printf("\n### %s battery: %d motions\n\n", bat.name.c_str(), done);
  std::printf(
      "| method | median us | p99 us | contact both | neither | missed | extra | later | "
      "median abs(t - t_own) | latest | earliest | median abs(t - t_exact) |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < kMethodCount; ++k) {
    const Tally& t = tally[k];
    const bench::Stats s = bench::Summarize(t.us), e = bench::Summarize(t.err_own),
                       x = bench::Summarize(t.err_exact);
    std::printf(
        "| %s | %.1f | %.1f | %ld | %ld | %ld | %ld | %ld | %.1e | %+.1e | %+.1e | %.1e |\n",
        kMethodNames[k], s.median, s.p99, t.both, t.neither, t.missed, t.extra, t.late, e.median,
        t.worst_late, t.worst_early, x.median);
  }
}

// ------------------------------------------------------------- the Panda

// The fitted Panda's URDF: read from `fitted`, or fitted from the meshes of
// robots/panda and written to out/panda_fit.urdf.
std::string FittedPanda(const std::string& robots, const std::string& fitted,
                        const std::string& out) {
  if (!fitted.empty()) {
    std::ifstream in(fitted, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + fitted);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  const std::string dir = robots + "/panda";
  std::ifstream in(dir + "/panda.urdf", std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + dir + "/panda.urdf");
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "fitting the Panda's meshes (about 20 s)\n");
  const std::string fit = sov::urdf::fitUrdf(xml, dir, sov::urdf::UrdfFitOptions(), nullptr,
                                             dir + "/panda.urdf");
  std::ofstream(out + "/panda_fit.urdf", std::ios::binary) << fit;
  return fit;
}

// A joint of the arm and its limits.
struct Limit {
  std::string joint;
  double lo, hi;
};

// Environment objects of the Panda's scene.
using Env = std::vector<fcl::CollisionObjectd*>;

// True when the scene at q has a colliding checked pair, or touches env.
bool Collides(sov::urdf::Scene& scene, const sov::urdf::JointPositions& q, const Env& env) {
  scene.setJointPositions(q);
  return scene.selfCollision() || (!env.empty() && scene.collides(env));
}

// q0 + t (q1 - q0).
sov::urdf::JointPositions Lerp(const sov::urdf::JointPositions& q0,
                               const sov::urdf::JointPositions& q1, double t) {
  sov::urdf::JointPositions q;
  for (const auto& [name, v] : q0) q[name] = v + t * (q1.at(name) - v);
  return q;
}

// Checks states j / n, j = 1 .. n - 1 (the end states are free), stopping
// at the first collision, as OMPL's DiscreteMotionValidator; returns the
// first colliding fraction, or 2.
double SampleSegment(sov::urdf::Scene& scene, const sov::urdf::JointPositions& q0,
                     const sov::urdf::JointPositions& q1, int n, const Env& env) {
  for (int j = 1; j < n; ++j) {
    const double t = static_cast<double>(j) / n;
    if (Collides(scene, Lerp(q0, q1, t), env)) return t;
  }
  return 2;
}

// The fitted Panda's scene with its checked pairs, and its arm joints.
struct Panda {
  std::unique_ptr<sov::urdf::Scene> scene;
  std::vector<Limit> limits;
  double extent = 0;  // of the arm's joint box, sqrt(sum (hi - lo)^2)
};

Panda MakePanda(const std::string& robots, const std::string& fitted, const std::string& out) {
  const std::string xml = FittedPanda(robots, fitted, out);
  const sov::urdf::Model model = sov::urdf::parse(xml, "panda_fit.urdf");
  sov::urdf::SceneOptions so;
  so.mesh_directory = robots + "/panda";
  Panda p;
  p.scene = std::make_unique<sov::urdf::Scene>(model, so);
  // Pairs at most two movable joints apart are allowed (an SRDF's adjacent
  // and "never" pairs; as sov_bench_robots).
  const auto body = sov_bench::rigidBodies(*model.urdf);
  std::vector<std::string> links;
  for (const auto& l : model.urdf->links_)
    if (!l.second->collision_array.empty()) links.push_back(l.first);
  for (size_t i = 0; i < links.size(); ++i)
    for (size_t j = i + 1; j < links.size(); ++j)
      if (sov_bench::jointsBetween(*model.urdf, body, links[i], links[j]) <= 2)
        p.scene->allowCollision(links[i], links[j]);
  for (const auto& [name, j] : model.urdf->joints_)
    if (j->type == urdf::Joint::REVOLUTE) p.limits.push_back({name, j->limits->lower, j->limits->upper});
  for (const Limit& l : p.limits) p.extent += (l.hi - l.lo) * (l.hi - l.lo);
  p.extent = std::sqrt(p.extent);
  return p;
}

// Joint-space segment generators: a planner's (from a free configuration,
// a random direction, up to RRTConnect's range, to a free one), and one
// through the neighbourhood of a colliding configuration: a random line
// passing within 0.1 rad of it, from 0.05 to 0.6 rad before it to 0.05 to
// 0.6 rad after it, both ends free.
class Segments {
 public:
  Segments(Panda& p, const Env& env, unsigned seed) : p_(p), env_(env), rng_(seed) {}

  // A planner's segment q0 -> q1.
  void planner(sov::urdf::JointPositions* q0, sov::urdf::JointPositions* q1) {
    *q0 = randomConfig(false);
    for (;;) {
      const std::vector<double> dir = randomDirection();
      const double len = 0.2 * p_.extent * unit_(rng_);
      for (size_t k = 0; k < p_.limits.size(); ++k) {
        const Limit& l = p_.limits[k];
        (*q1)[l.joint] = std::clamp(q0->at(l.joint) + len * dir[k], l.lo, l.hi);
      }
      if (*q1 != *q0 && !Collides(*p_.scene, *q1, env_)) return;
    }
  }

  // A segment through the neighbourhood of a colliding configuration.
  void nearContact(sov::urdf::JointPositions* q0, sov::urdf::JointPositions* q1) {
    for (;;) {
      const sov::urdf::JointPositions qc = randomConfig(true);
      const std::vector<double> v = randomDirection(), w = randomDirection();
      const double off = 0.1 * unit_(rng_), a = 0.05 + 0.55 * unit_(rng_),
                   b = 0.05 + 0.55 * unit_(rng_);
      double vw = 0;
      for (size_t k = 0; k < v.size(); ++k) vw += v[k] * w[k];
      bool inside = true;
      for (size_t k = 0; k < v.size() && inside; ++k) {
        const Limit& l = p_.limits[k];
        const double c = qc.at(l.joint) + off * (w[k] - vw * v[k]);
        (*q0)[l.joint] = c - a * v[k];
        (*q1)[l.joint] = c + b * v[k];
        inside = std::min((*q0)[l.joint], (*q1)[l.joint]) >= l.lo &&
                 std::max((*q0)[l.joint], (*q1)[l.joint]) <= l.hi;
      }
      if (inside && !Collides(*p_.scene, *q0, env_) && !Collides(*p_.scene, *q1, env_)) return;
    }
  }

 private:
  // A random configuration within the limits, free or colliding as asked.
  sov::urdf::JointPositions randomConfig(bool colliding) {
    for (;;) {
      sov::urdf::JointPositions q;
      for (const Limit& l : p_.limits) q[l.joint] = l.lo + (l.hi - l.lo) * unit_(rng_);
      if (Collides(*p_.scene, q, env_) == colliding) return q;
    }
  }

  // A random unit direction in joint space.
  std::vector<double> randomDirection() {
    std::vector<double> d(p_.limits.size());
    double n2 = 0;
    for (double& x : d) {
      x = std::normal_distribution<double>(0, 1)(rng_);
      n2 += x * x;
    }
    for (double& x : d) x /= std::sqrt(n2);
    return d;
  }

  Panda& p_;
  const Env& env_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> unit_{0, 1};
};

// The two checks on a population of segments.
struct SegmentTally {
  std::vector<double> t_cert, t_samp, steps;
  long n = 0, cert_hits = 0, samp_hits = 0, cert_only = 0, cert_only_real = 0, samp_only = 0,
       dense_missed = 0, uncertified = 0;
};

// Checks one segment both ways (and 50 times finer, not timed).
void CheckSegment(Panda& p, const sov::urdf::JointPositions& q0,
                  const sov::urdf::JointPositions& q1, const Env& env, const std::string& kind,
                  SegmentTally* t, std::ofstream& csv) {
  double length = 0;
  for (const auto& [name, v] : q0) length += (q1.at(name) - v) * (q1.at(name) - v);
  length = std::sqrt(length);
  const int states = std::max(1, static_cast<int>(std::ceil(length / (0.01 * p.extent))));
  const auto c0 = bench::Clock::now();
  const sov::urdf::MotionCheck m = p.scene->motionCollides(q0, q1, env);
  const double us_c = bench::ElapsedNs(c0) * 1e-3;
  const auto s0 = bench::Clock::now();
  const double ts = SampleSegment(*p.scene, q0, q1, states, env);
  const double us_s = bench::ElapsedNs(s0) * 1e-3;
  const double dense = SampleSegment(*p.scene, q0, q1, 50 * states, env);
  ++t->n;
  t->t_cert.push_back(us_c);
  t->t_samp.push_back(us_s);
  t->steps.push_back(static_cast<double>(m.steps));
  t->cert_hits += m.collides;
  t->samp_hits += ts <= 1;
  t->uncertified += !m.certified;
  if (m.collides && ts > 1) {
    ++t->cert_only;
    t->cert_only_real += dense <= 1;
  }
  t->samp_only += !m.collides && ts <= 1;
  t->dense_missed += !m.collides && dense <= 1;
  csv << kind << "," << bench::Num(length) << "," << states << "," << m.collides << ","
      << bench::Num(m.t) << "," << bench::Num(us_c) << "," << m.steps << "," << (ts <= 1) << ","
      << bench::Num(ts) << "," << bench::Num(us_s) << "," << bench::Num(dense) << "\n";
}

// Prints one population's rows of the table.
void PrintSegments(const char* kind, const SegmentTally& t) {
  const bench::Stats c = bench::Summarize(t.t_cert), p = bench::Summarize(t.t_samp),
                     st = bench::Summarize(t.steps);
  std::printf("| %s | %ld | certified `motionCollides` | %.3f | %.3f | %.3f | %ld | %.0f / %.0f |\n",
              kind, t.n, c.median * 1e-3, c.mean * 1e-3, c.p99 * 1e-3, t.cert_hits, st.median,
              st.p99);
  std::printf("| %s | %ld | states at OMPL's resolution | %.3f | %.3f | %.3f | %ld | |\n", kind,
              t.n, p.median * 1e-3, p.mean * 1e-3, p.p99 * 1e-3, t.samp_hits);
}

// Part 2 (see the file comment); prints the table.
void RunPanda(const std::string& robots, const std::string& fitted, const std::string& out,
              int segments, bench::Meta& meta) {
  Panda p = MakePanda(robots, fitted, out);
  meta.Add("panda_extent", bench::Num(p.extent));
  // Thin obstacles in the arm's workspace: a plate 4 mm thick, 50 cm
  // square, 45 cm up in front of the robot, and a pole 8 mm across.
  auto plate = std::make_shared<sov::Superovoid>(0.25, 0.25, 0.002, 0.1, 0.1);
  auto pole = std::make_shared<sov::Superovoid>(0.004, 0.004, 0.4, 1.0, 0.1);
  fcl::CollisionObjectd plate_object(plate), pole_object(pole);
  plate_object.setTransform(Eigen::Matrix3d::Identity(), Eigen::Vector3d(0.5, 0.0, 0.45));
  pole_object.setTransform(Eigen::Matrix3d::Identity(), Eigen::Vector3d(0.2, 0.45, 0.4));
  plate_object.computeAABB();
  pole_object.computeAABB();
  const Env none, thin{&plate_object, &pole_object};
  Segments self_gen(p, none, 2031), thin_gen(p, thin, 2032);
  std::ofstream csv(out + "/ccd_panda.csv");
  csv << "kind,length,states,certified_collides,certified_t,certified_us,steps,"
         "sampled_collides,sampled_t,sampled_us,dense_t\n";
  SegmentTally planner, near, obstacles;
  bench::Progress progress("Panda segments", static_cast<size_t>(3 * segments));
  for (int s = 0; s < segments; ++s) {
    sov::urdf::JointPositions q0, q1;
    self_gen.planner(&q0, &q1);
    CheckSegment(p, q0, q1, none, "planner", &planner, csv);
    progress.Step();
    self_gen.nearContact(&q0, &q1);
    CheckSegment(p, q0, q1, none, "near", &near, csv);
    progress.Step();
    thin_gen.planner(&q0, &q1);
    CheckSegment(p, q0, q1, thin, "thin", &obstacles, csv);
    progress.Step();
  }
  std::printf("\n### Fitted Panda (state space extent %.3f rad, OMPL's states every %.4f rad, "
              "planner segments up to %.3f rad)\n\n",
              p.extent, 0.01 * p.extent, 0.2 * p.extent);
  std::printf("| segments | n | check | median ms | mean ms | p99 ms | colliding | steps median / p99 |\n"
              "|---|---|---|---|---|---|---|---|\n");
  PrintSegments("planner, self", planner);
  PrintSegments("near self-contact", near);
  PrintSegments("planner, thin obstacles", obstacles);
  for (const auto& [kind, t] : {std::pair<const char*, const SegmentTally*>{"planner, self", &planner},
                                {"near self-contact", &near},
                                {"planner, thin obstacles", &obstacles}}) {
    std::printf(
        "\n%s: called free by OMPL's states and not by the certified check: %ld (50x finer "
        "states find %ld of them colliding); the reverse: %ld; colliding at 50x finer states "
        "and free for the certified check: %ld; checks with an unproved step: %ld\n",
        kind, t->cert_only, t->cert_only_real, t->samp_only, t->dense_missed, t->uncertified);
  }
}

// The program (see kUsage).
int Run(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, kUsage);
  int motions = args.quick ? 10 : 200, segments = args.quick ? 5 : 200;
  std::string robots = std::string(SOV_SHARED_DATA_DIR) + "/robots", fitted;
  for (size_t i = 0; i + 1 < args.rest.size(); i += 2) {
    const std::string& k = args.rest[i];
    const std::string& v = args.rest[i + 1];
    if (k == "--motions") {
      motions = std::atoi(v.c_str());
    } else if (k == "--segments") {
      segments = std::atoi(v.c_str());
    } else if (k == "--robots") {
      robots = v;
    } else if (k == "--fitted") {
      fitted = v;
    } else {
      bench::Usage(kUsage);
    }
  }
  if (args.rest.size() % 2 != 0 || motions < 0 || segments < 0) bench::Usage(kUsage);
  bench::Meta meta(args.out, "ccd", argc, argv);
  bool subset = false;
  const std::string dir = bench::DataDir(args.data, &subset);
  meta.Add("data", dir + (subset ? " (subsets)" : ""));
  std::ofstream csv(args.out + "/ccd_motions.csv");
  csv << "battery,id,t_exact,t_hull";
  for (int k = 0; k < kMethodCount; ++k)
    csv << ",contact_" << k << ",t_" << k << ",us_" << k;
  csv << "\n";
  for (const char* which : {"paper", "stress"}) {
    if (motions == 0) break;
    const bench::Battery bat =
        bench::ReadBattery(bench::BatteryPath(dir, subset, which), which, 0);
    RunBattery(bat, motions, csv);
  }
  if (segments > 0) {
    if (!std::ifstream(robots + "/panda/panda.urdf") && fitted.empty()) {
      std::printf("\nno Panda at %s/panda: part 2 skipped\n", robots.c_str());
    } else {
      RunPanda(robots, fitted, args.out, segments, meta);
    }
  }
  return meta.Write() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return bench::Guard(Run, argc, argv); }
