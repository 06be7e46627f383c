// Fitted superovoids against the original meshes on two real robots (issue 7),
// one body per link and unions per link (issue 33):
//
//   sov_bench_robots icub  DATA_DIR OUT_DIR [--steps N] [--configs N] [--max-bodies K]
//                          [--target-ratio R] [--fitted URDF --union URDF]
//   sov_bench_robots panda DATA_DIR OUT_DIR [--configs N] [--max-bodies K] [--target-ratio R]
//                          [--fitted URDF --union URDF]
//
// DATA_DIR is ../shared/data/robots. Each run fits the robot's link meshes
// with sov::urdf::fitUrdf (the sov-urdf-fit path), one body per link and
// unions (up to K bodies per mesh, default 4, split while above R times the
// hull volume, default 1.1), writes the fitted URDFs and the fit tables to
// OUT_DIR (--fitted and --union take the fitted URDFs of an earlier run
// instead: OUT_DIR/<tag>_fit.urdf), builds sov::urdf::Scenes of the
// original model (meshes as OBBRSS trees, FCL) and of the fitted ones, and
// compares:
//  - icub: the two hands of iCub_hands_collision.urdf, palms facing, the
//    right hand moving through the left along the palm normal in N steps
//    (default 200) with its fingers between the left hand's; every
//    right-hand geometry against every left-hand one at every step:
//    per-query time (mesh: fcl::distance, fcl::collide; fitted: sov_distance
//    cold and warm, sov_collide), and the colliding-or-not verdicts. Then
//    the scenes (runIcubScenes, default 5,000 configurations) as the panda's.
//  - panda: random joint configurations within the limits (fixed seed,
//    default 10,000): self-collision (link pairs) and minimum self-distance
//    with the scene, pairs allowed as documented in benchmarks/RESULTS.md,
//    and collision and distance against an environment of FCL primitives
//    (boxes, cylinders, capsules, spheres around the arm, fixed seed), on
//    the meshes, the single fits and the unions, the three back to back per
//    configuration.
// Writes OUT_DIR/<robot>_*.csv for the plots (plot_robots.py) and prints a
// summary. Not part of ctest.
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>
#include <superovoid/fcl/superovoid.h>
#include <superovoid/superovoid.h>
#include <superovoid/urdf/fit.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "../robot_pairs.h"

namespace {

using Clock = std::chrono::steady_clock;
using Eigen::Isometry3d;
using Eigen::Vector3d;

double micros(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5));
  return v[i];
}

void printTimes(const char* what, const std::vector<double>& t) {
  double sum = 0;
  for (double x : t) sum += x;
  std::printf("  %-34s median %9.2f  p99 %9.2f  mean %9.2f us  (%zu queries)\n", what,
              percentile(t, 0.5), percentile(t, 0.99), t.empty() ? NAN : sum / t.size(), t.size());
}

// The whole text of a file; throws std::runtime_error when it cannot be read.
std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Fits the mesh collisions of links (all when empty) of the URDF at path,
// writes the fitted URDF and the fit table into out_dir; returns the text.
std::string fitAndRecord(const std::string& dir, const std::string& file,
                         const std::vector<std::string>& links, const std::string& out_dir,
                         const std::string& tag,
                         const sov::urdf::SplitOptions& split = sov::urdf::SplitOptions()) {
  const std::string xml = readText(dir + "/" + file);
  sov::urdf::UrdfFitOptions o;
  o.links = links;
  o.split = split;
  std::vector<sov::urdf::CollisionFit> fits;
  const auto t0 = Clock::now();
  const std::string out = sov::urdf::fitUrdf(xml, dir, o, &fits, dir + "/" + file);
  const double seconds = micros(t0, Clock::now()) * 1e-6;
  std::ofstream(out_dir + "/" + tag + "_fit.urdf", std::ios::binary) << out;
  std::ofstream table(out_dir + "/" + tag + "_fit.csv");
  table << "link,collision,vertices,hull_vertices,a1,a2,a3,eps1,eps2,taper_x,taper_y,"
           "volume,hull_volume,volume_ratio,gap,seconds,bodies\n";
  double worst_ratio = 0, worst_gap = 0, sum_ratio = 0;
  std::size_t bodies = 0;
  for (const auto& f : fits) {
    // A row per body; the union's figures (one body: the fit's) on each.
    const sov::urdf::UnionFit& u = f.bodies;
    for (const auto& b : u.bodies) {
      table << f.link << "," << f.collision << "," << u.points << "," << u.hull_vertices;
      for (double p : b.params) table << "," << p;
      table << "," << u.volume << "," << u.hull_volume << "," << u.volume_ratio << "," << u.gap
            << "," << u.seconds << "," << u.bodies.size() << "\n";
    }
    worst_ratio = std::max(worst_ratio, u.volume_ratio);
    worst_gap = std::max(worst_gap, u.gap);
    sum_ratio += u.volume_ratio;
    bodies += u.bodies.size();
  }
  std::printf(
      "%s: fitted %zu mesh collisions (%zu bodies) in %.1f s; volume ratio mean %.3f, max %.3f; "
      "largest gap %.2f mm\n",
      tag.c_str(), fits.size(), bodies, seconds, sum_ratio / fits.size(), worst_ratio,
      1e3 * worst_gap);
  return out;
}

// Links of the subtree rooted at link (link included).
void subtree(const urdf::ModelInterface& model, const std::string& link,
             std::vector<std::string>& out) {
  out.push_back(link);
  for (const auto& child : model.getLink(link)->child_links) subtree(model, child->name, out);
}

// One collision geometry of a hand, with its pose relative to the palm.
struct HandPart {
  std::string link;
  const fcl::CollisionGeometry<double>* geometry = nullptr;
  const sov::Superovoid* superovoid = nullptr;  // null for a mesh
  Isometry3d in_palm = Isometry3d::Identity();
};

std::vector<HandPart> handParts(const sov::urdf::Scene& scene, const std::set<std::string>& links,
                                const std::string& palm) {
  std::vector<HandPart> parts;
  const Isometry3d palm_inv = scene.linkPose(palm).inverse();
  for (const auto& g : scene.geometries()) {
    if (!links.count(g.link)) continue;
    HandPart p;
    p.link = g.link;
    p.geometry = g.object->collisionGeometry().get();
    p.superovoid = dynamic_cast<const sov::Superovoid*>(p.geometry);
    p.in_palm = palm_inv * Isometry3d(g.object->getTransform().matrix());
    parts.push_back(p);
  }
  return parts;
}

sov_pose toPose(const Isometry3d& T) {
  sov_pose X;
  double R[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R[3 * i + j] = T.linear()(i, j);
  const Vector3d p = T.translation();
  if (sov_pose_from_matrix(&X, R, p.data()) != SOV_OK) throw std::runtime_error("bad pose");
  return X;
}

// Every superovoid of the scene, parameters and world pose at full precision.
void dumpSuperovoids(const sov::urdf::Scene& scene, const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return;
  for (const auto& g : scene.geometries()) {
    const auto* s = dynamic_cast<const sov::Superovoid*>(g.object->collisionGeometry().get());
    if (!s) continue;
    std::fprintf(f, "%s", g.link.c_str());
    for (double p : s->params()) std::fprintf(f, " %.17g", p);
    const auto& T = g.object->getTransform();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) std::fprintf(f, " %.17g", T.linear()(i, j));
    for (int i = 0; i < 3; ++i) std::fprintf(f, " %.17g", T.translation()(i));
    std::fprintf(f, "\n");
  }
  std::fclose(f);
}

// A failing pair: status, then each shape's parameters and pose (row-major
// R, p) at full precision.
void dumpPair(const std::string& path, const sov_shape& A, const sov_pose& XA, const sov_shape& B,
              const sov_pose& XB, int status) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return;
  std::fprintf(f, "%s\n", sov_status_string(status));
  const std::pair<const sov_shape*, const sov_pose*> bodies[2] = {{&A, &XA}, {&B, &XB}};
  for (const auto& b : bodies) {
    sov_shape_info info{};
    sov_shape_get(&info, b.first);
    for (double v : info.params) std::fprintf(f, " %.17g", v);
    for (double v : b.second->R) std::fprintf(f, " %.17g", v);
    for (double v : b.second->p) std::fprintf(f, " %.17g", v);
    std::fprintf(f, "\n");
  }
  std::fclose(f);
}

// The palm's thin axis (its fitted superovoid's shortest semi-axis) and its
// centre, in the palm frame.
void palmFrame(const HandPart& palm, Vector3d& normal, Vector3d& centre) {
  const double* a = palm.superovoid->info().params;
  const int k = a[0] <= a[1] && a[0] <= a[2] ? 0 : (a[1] <= a[2] ? 1 : 2);
  normal = palm.in_palm.linear().col(k);
  centre = palm.in_palm.translation();
}

Vector3d linkOrigin(const sov::urdf::Scene& s, const std::string& link, const std::string& palm) {
  return (s.linkPose(palm).inverse() * s.linkPose(link)).translation();
}

int runIcubScenes(const sov::urdf::Model& original, const std::string& dir,
                  const std::set<std::string>& hand_links, const std::string& fitted_xml,
                  const std::string& union_xml, int configs, const std::string& out_dir);

int runIcub(const std::string& data, const std::string& out_dir, int steps, int configs,
            const sov::urdf::SplitOptions& split, const std::string& fitted_urdf,
            const std::string& union_urdf) {
  const std::string dir = data + "/icub", file = "iCub_hands_collision.urdf";
  const sov::urdf::Model original = sov::urdf::parseFile(dir + "/" + file);
  std::vector<std::string> right_links, left_links;
  subtree(*original.urdf, "right_palm", right_links);
  subtree(*original.urdf, "left_palm", left_links);
  std::vector<std::string> hand_links = right_links;
  hand_links.insert(hand_links.end(), left_links.begin(), left_links.end());
  std::vector<std::string> with_mesh;
  for (const auto& l : hand_links)
    if (!original.urdf->getLink(l)->collision_array.empty()) with_mesh.push_back(l);
  const std::string fitted_xml = fitted_urdf.empty()
                                     ? fitAndRecord(dir, file, with_mesh, out_dir, "icub_hands")
                                     : readText(fitted_urdf);
  // The motion below compares one body per link; the scenes after it both.
  const std::string union_xml =
      union_urdf.empty() ? fitAndRecord(dir, file, with_mesh, out_dir, "icub_hands_union", split)
                         : readText(union_urdf);

  sov::urdf::SceneOptions so;
  so.mesh_directory = dir;
  sov::urdf::Scene mesh_scene(original, so), fit_scene(sov::urdf::parse(fitted_xml), so);
  const std::set<std::string> right(right_links.begin(), right_links.end()),
      left(left_links.begin(), left_links.end());
  const auto mesh_R = handParts(mesh_scene, right, "right_palm");
  const auto mesh_L = handParts(mesh_scene, left, "left_palm");
  const auto fit_R = handParts(fit_scene, right, "right_palm");
  const auto fit_L = handParts(fit_scene, left, "left_palm");
  if (mesh_R.size() != fit_R.size() || mesh_L.size() != fit_L.size())
    throw std::runtime_error("the two models have different hand geometries");
  for (const auto& p : fit_R)
    if (!p.superovoid) throw std::runtime_error("hand link not fitted: " + p.link);
  for (const auto& p : fit_L)
    if (!p.superovoid) throw std::runtime_error("hand link not fitted: " + p.link);

  // Palms facing: R maps the right palm's normal onto minus the left's and
  // its finger direction onto the left's.
  const auto palmPart = [](const std::vector<HandPart>& parts, const std::string& palm) {
    for (const auto& p : parts)
      if (p.link == palm) return p;
    throw std::runtime_error("no geometry on " + palm);
  };
  Vector3d nL, cL, nR, cR;
  palmFrame(palmPart(fit_L, "left_palm"), nL, cL);
  palmFrame(palmPart(fit_R, "right_palm"), nR, cR);
  const auto fingerDir = [&](const std::string& palm, const std::string& tip, const Vector3d& n,
                             const Vector3d& c) {
    const Vector3d d = linkOrigin(fit_scene, tip, palm) - c;
    return (d - d.dot(n) * n).normalized();
  };
  const Vector3d fL = fingerDir("left_palm", "lml3", nL, cL);
  const Vector3d fR = fingerDir("right_palm", "ml3", nR, cR);
  Eigen::Matrix3d FL, FR;
  FL << fL, nL, fL.cross(nL);
  FR << fR, -nR, fR.cross(-nR);
  const Eigen::Matrix3d Rrel = FL * FR.transpose();
  const Vector3d side = fL.cross(nL);
  // Half the spacing of the index and middle fingers: the right fingers run
  // between the left ones.
  const double spacing = std::fabs(
      (linkOrigin(fit_scene, "lml1", "left_palm") - linkOrigin(fit_scene, "lail1", "left_palm"))
          .dot(side));
  const double D = 0.08;  // start and end: palm centres 80 mm apart
  std::printf(
      "icub: palm normal (left palm frame) %.3f %.3f %.3f, finger spacing %.1f mm, "
      "%zu x %zu geometry pairs, %d steps\n",
      nL.x(), nL.y(), nL.z(), 1e3 * spacing, fit_R.size(), fit_L.size(), steps);

  std::vector<double> t_mesh_dist, t_mesh_coll, t_fit_cold, t_fit_warm, t_fit_coll;
  std::vector<double> t_mesh_dist_apart, t_fit_cold_apart;
  long both = 0, fit_only = 0, mesh_only = 0, neither = 0, fit_failures = 0;
  long collide_failures = 0, unanswered = 0;
  std::vector<sov_cache> caches(fit_R.size() * fit_L.size());
  for (auto& c : caches) sov_cache_reset(&c);
  std::ofstream csv(out_dir + "/icub_motion.csv");
  csv << "step,offset,mesh_colliding_pairs,fit_colliding_pairs,mesh_min_distance,"
         "fit_min_distance,mesh_distance_us,fit_distance_us\n";
  const Isometry3d TL = Isometry3d::Identity();
  for (int s = 0; s <= steps; ++s) {
    const double offset = D - 2 * D * s / steps;
    Isometry3d TR = Isometry3d::Identity();
    TR.linear() = Rrel;
    TR.translation() = cL + offset * nL + 0.5 * spacing * side - Rrel * cR;
    int n_mesh = 0, n_fit = 0;
    double dmin_mesh = INFINITY, dmin_fit = INFINITY, step_mesh = 0, step_fit = 0;
    for (std::size_t i = 0; i < fit_R.size(); ++i)
      for (std::size_t j = 0; j < fit_L.size(); ++j) {
        const Isometry3d Ti = TR * fit_R[i].in_palm, Tj = TL * fit_L[j].in_palm;
        const Isometry3d Mi = TR * mesh_R[i].in_palm, Mj = TL * mesh_L[j].in_palm;
        // Mesh model, FCL.
        fcl::CollisionRequest<double> creq;
        fcl::CollisionResult<double> cres;
        auto t0 = Clock::now();
        fcl::collide(mesh_R[i].geometry, fcl::Transform3d(Mi.matrix()), mesh_L[j].geometry,
                     fcl::Transform3d(Mj.matrix()), creq, cres);
        auto t1 = Clock::now();
        fcl::DistanceRequest<double> dreq;
        fcl::DistanceResult<double> dres;
        fcl::distance(mesh_R[i].geometry, fcl::Transform3d(Mi.matrix()), mesh_L[j].geometry,
                      fcl::Transform3d(Mj.matrix()), dreq, dres);
        auto t2 = Clock::now();
        const bool mesh_hit = cres.isCollision();
        t_mesh_coll.push_back(micros(t0, t1));
        t_mesh_dist.push_back(micros(t1, t2));
        step_mesh += micros(t1, t2);
        // Fitted model, the C core.
        const sov_pose Xi = toPose(Ti), Xj = toPose(Tj);
        const sov_shape &A = fit_R[i].superovoid->shape(), &B = fit_L[j].superovoid->shape();
        sov_result cold, warm;
        int hit = 0;
        bool failed_pair = false;
        t0 = Clock::now();
        const int st = sov_distance(&cold, &A, &Xi, &B, &Xj, nullptr, nullptr);
        t1 = Clock::now();
        const int st2 =
            sov_distance(&warm, &A, &Xi, &B, &Xj, nullptr, &caches[i * fit_L.size() + j]);
        t2 = Clock::now();
        const int st3 = sov_collide(&hit, &A, &Xi, &B, &Xj, nullptr, nullptr);
        const auto t3 = Clock::now();
        // Failures are counted, the first written out for a reproducer, and
        // left out of the figures they concern.
        if (st3 == SOV_OK) t_fit_coll.push_back(micros(t2, t3));
        if (st || st2) {
          if (fit_failures++ == 0)
            dumpPair(out_dir + "/icub_failure.txt", A, Xi, B, Xj, st ? st : st2);
          failed_pair = true;
        } else {
          t_fit_cold.push_back(micros(t0, t1));
          t_fit_warm.push_back(micros(t1, t2));
          step_fit += micros(t0, t1);
          if (st3 == SOV_OK && (hit != 0) != (cold.d <= 0))
            throw std::runtime_error("sov_collide disagrees with sov_distance");
        }
        collide_failures += st3 != SOV_OK;
        if (st3 != SOV_OK && failed_pair) {
          ++unanswered;
          continue;
        }
        const bool fit_hit = st3 == SOV_OK ? hit != 0 : cold.d <= 0;
        if (!mesh_hit && !failed_pair) {
          t_mesh_dist_apart.push_back(t_mesh_dist.back());
          t_fit_cold_apart.push_back(t_fit_cold.back());
        }
        both += mesh_hit && fit_hit;
        fit_only += !mesh_hit && fit_hit;
        mesh_only += mesh_hit && !fit_hit;
        neither += !mesh_hit && !fit_hit;
        n_mesh += mesh_hit;
        n_fit += fit_hit;
        dmin_mesh = std::min(dmin_mesh, mesh_hit ? 0.0 : dres.min_distance);
        if (!failed_pair) dmin_fit = std::min(dmin_fit, cold.d);
      }
    csv << s << "," << offset << "," << n_mesh << "," << n_fit << "," << dmin_mesh << ","
        << dmin_fit << "," << step_mesh << "," << step_fit << "\n";
  }
  std::ofstream times(out_dir + "/icub_query_times.csv");
  times << "query,us\n";
  const std::pair<const char*, const std::vector<double>*> series[] = {
      {"mesh_distance", &t_mesh_dist},
      {"mesh_collide", &t_mesh_coll},
      {"fit_distance_cold", &t_fit_cold},
      {"fit_distance_warm", &t_fit_warm},
      {"fit_collide", &t_fit_coll}};
  for (const auto& sr : series)
    for (double t : *sr.second) times << sr.first << "," << t << "\n";
  std::printf(
      "icub: sov_distance failed on %ld pair queries, sov_collide on %ld, both on %ld "
      "(left out of the figures they concern)\n",
      fit_failures, collide_failures, unanswered);
  std::printf("icub per-query times:\n");
  printTimes("mesh  fcl::distance (OBBRSS)", t_mesh_dist);
  printTimes("mesh  fcl::distance, pairs apart", t_mesh_dist_apart);
  printTimes("mesh  fcl::collide", t_mesh_coll);
  printTimes("fit   sov_distance cold", t_fit_cold);
  printTimes("fit   sov_distance cold, pairs apart", t_fit_cold_apart);
  printTimes("fit   sov_distance warm (motion)", t_fit_warm);
  printTimes("fit   sov_collide", t_fit_coll);
  std::printf(
      "icub verdicts over %ld pair queries: both colliding %ld, neither %ld, "
      "fit only (conservative) %ld, mesh only (missed by the fit) %ld\n",
      both + fit_only + mesh_only + neither, both, neither, fit_only, mesh_only);
  const std::set<std::string> hands(with_mesh.begin(), with_mesh.end());
  const int scenes = runIcubScenes(original, dir, hands, fitted_xml, union_xml, configs, out_dir);
  return mesh_only == 0 && scenes == 0 ? 0 : 1;
}

// One fitted model's answers over the configurations, against the meshes'.
struct FitStats {
  std::string robot, name;
  std::vector<double> t_coll, t_dist, margins, t_env_coll, t_env_dist, env_margins;
  long agree = 0, fit_only = 0, mesh_only = 0, pairs = 0, pair_misses = 0;
  long env_fit_only = 0, env_mesh_only = 0;
  long collide_failures = 0, distance_failures = 0;
};

// One fitted model's answer at one configuration (NaN: not answered).
struct FitRow {
  double colliding = NAN, pairs = NAN, distance = NAN, collide_us = NAN, distance_us = NAN;
};

// Self-collision and minimum self-distance of a fitted scene at the current
// configuration, timed and compared with the mesh answers (hm, pm, dm).
FitRow checkFitted(sov::urdf::Scene& scene, FitStats& st, int config, bool hm,
                   const std::set<std::pair<std::string, std::string>>& pm,
                   const sov::urdf::PairDistance& dm, const std::string& out_dir) {
  FitRow row;
  std::set<std::pair<std::string, std::string>> pf;
  auto t0 = Clock::now();
  try {
    const bool hf = scene.selfCollision(&pf);
    st.t_coll.push_back(row.collide_us = micros(t0, Clock::now()));
    row.colliding = hf;
    row.pairs = static_cast<double>(pf.size());
    st.agree += hm == hf;
    st.fit_only += hf && !hm;
    st.mesh_only += hm && !hf;
    st.pairs += pf.size();
    for (const auto& p : pm) st.pair_misses += !pf.count(p);
  } catch (const std::exception& e) {
    // Counted, written out once, and left out of the verdicts.
    if (st.collide_failures++ == 0) {
      std::printf("%s %s: configuration %d, selfCollision: %s\n", st.robot.c_str(),
                  st.name.c_str(), config, e.what());
      dumpSuperovoids(scene, out_dir + "/" + st.robot + "_" + st.name + "_collide_failure.txt");
    }
  }
  t0 = Clock::now();
  try {
    const sov::urdf::PairDistance df = scene.minSelfDistance();
    st.t_dist.push_back(row.distance_us = micros(t0, Clock::now()));
    row.distance = df.distance;
    if (!hm) st.margins.push_back(dm.distance - df.distance);
  } catch (const std::exception& e) {
    if (st.distance_failures++ == 0) {
      std::printf("%s %s: configuration %d: %s\n", st.robot.c_str(), st.name.c_str(), config,
                  e.what());
      dumpSuperovoids(scene, out_dir + "/" + st.robot + "_" + st.name + "_failure.txt");
    }
  }
  return row;
}

// An FCL primitive (kind % 4: box, cylinder, capsule, sphere) with sizes
// uniform in [lo, hi], a uniform orientation, at position.
std::unique_ptr<fcl::CollisionObject<double>> primitive(std::mt19937_64& rng, int kind, double lo,
                                                        double hi, const Vector3d& position) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::normal_distribution<double> g(0.0, 1.0);
  const double s1 = u(rng), s2 = u(rng), s3 = u(rng);
  std::shared_ptr<fcl::CollisionGeometry<double>> shape;
  switch (kind % 4) {
    case 0: shape = std::make_shared<fcl::Box<double>>(s1, s2, s3); break;
    case 1: shape = std::make_shared<fcl::Cylinder<double>>(0.5 * s1, s2); break;
    case 2: shape = std::make_shared<fcl::Capsule<double>>(0.5 * s1, s2); break;
    default: shape = std::make_shared<fcl::Sphere<double>>(0.5 * s1); break;
  }
  Eigen::Quaterniond q(g(rng), g(rng), g(rng), g(rng));
  Isometry3d T = Isometry3d::Identity();
  T.linear() = q.normalized().toRotationMatrix();
  T.translation() = position;
  return std::make_unique<fcl::CollisionObject<double>>(shape, T);
}

// The environment of the Panda runs: count FCL primitives of 3-20 cm at
// uniform positions around the arm (outside the column of radius 0.3 m
// about the base's axis, which the base and first links fill in every
// configuration), from a fixed seed: objects as a planning scene holds
// them, the same for the three scenes.
std::vector<std::unique_ptr<fcl::CollisionObject<double>>> pandaEnvironment(int count) {
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::unique_ptr<fcl::CollisionObject<double>>> env;
  for (int k = 0; k < count; ++k) {
    Vector3d c;
    do {
      c = Vector3d(1.6 * u(rng) - 0.8, 1.6 * u(rng) - 0.8, 1.2 * u(rng));
    } while (c.head<2>().norm() < 0.3);
    env.push_back(primitive(rng, k, 0.03, 0.2, c));
  }
  return env;
}

// A model's movable joints and their limits.
struct Limit {
  std::string joint;
  double lo, hi;
};
std::vector<Limit> jointLimits(const urdf::ModelInterface& model) {
  std::vector<Limit> limits;
  for (const auto& j : model.joints_)
    if ((j.second->type == urdf::Joint::REVOLUTE || j.second->type == urdf::Joint::PRISMATIC) &&
        !j.second->mimic)
      limits.push_back({j.first, j.second->limits->lower, j.second->limits->upper});
  return limits;
}

// Joint positions uniform within the limits.
sov::urdf::JointPositions randomConfiguration(const std::vector<Limit>& limits,
                                              std::mt19937_64& rng) {
  sov::urdf::JointPositions q;
  for (const auto& l : limits) q[l.joint] = std::uniform_real_distribution<double>(l.lo, l.hi)(rng);
  return q;
}

// Collision with and distance to the environment of a fitted scene at the
// current configuration, timed and compared with the mesh answers (hm, dm).
void checkEnvironment(sov::urdf::Scene& scene, FitStats& st,
                      const std::vector<fcl::CollisionObject<double>*>& env, bool hm, double dm) {
  auto t0 = Clock::now();
  const bool hf = scene.collides(env);
  st.t_env_coll.push_back(micros(t0, Clock::now()));
  st.env_fit_only += hf && !hm;
  st.env_mesh_only += hm && !hf;
  t0 = Clock::now();
  const double df = scene.distance(env).distance;
  st.t_env_dist.push_back(micros(t0, Clock::now()));
  if (!hm) st.env_margins.push_back(dm - df);
}

// Prints a fitted model's figures against the meshes'.
void printFitStats(const FitStats& st, int configs, long mesh_pairs) {
  std::printf("%s %s: selfCollision failed in %ld, minSelfDistance in %ld of %d configurations\n",
              st.robot.c_str(), st.name.c_str(), st.collide_failures, st.distance_failures,
              configs);
  printTimes((st.name + " selfCollision (all pairs)").c_str(), st.t_coll);
  printTimes((st.name + " minSelfDistance").c_str(), st.t_dist);
  std::printf(
      "%s %s verdicts: agree %ld of %ld; fit only (conservative) %ld; mesh only (missed) %ld;"
      " colliding link pairs: mesh %ld, fit %ld, mesh pairs the fit missed %ld\n",
      st.robot.c_str(), st.name.c_str(), st.agree, configs - st.collide_failures, st.fit_only, st.mesh_only,
      mesh_pairs, st.pairs, st.pair_misses);
  const double min_margin =
      st.margins.empty() ? NAN : *std::min_element(st.margins.begin(), st.margins.end());
  std::printf(
      "%s %s margin d_mesh - d_fit over %zu mesh-free configurations: min %.2f, median "
      "%.2f, p99 %.2f mm\n",
      st.robot.c_str(), st.name.c_str(), st.margins.size(), 1e3 * min_margin, 1e3 * percentile(st.margins, 0.5),
      1e3 * percentile(st.margins, 0.99));
  printTimes((st.name + " collides(env)").c_str(), st.t_env_coll);
  printTimes((st.name + " distance(env)").c_str(), st.t_env_dist);
  const double env_min =
      st.env_margins.empty() ? NAN : *std::min_element(st.env_margins.begin(), st.env_margins.end());
  std::printf(
      "%s %s environment verdicts: fit only (conservative) %ld; mesh only (missed) %ld; "
      "margin d_mesh - d_fit min %.3g, median %.2f mm over %zu configurations\n",
      st.robot.c_str(), st.name.c_str(), st.env_fit_only, st.env_mesh_only, 1e3 * env_min,
      1e3 * percentile(st.env_margins, 0.5), st.env_margins.size());
}

// Per-configuration time ratios mesh / fitted (> 1: the fit is faster):
// the ratio of the medians and of the means.
void printRatios(const char* what, const std::vector<double>& mesh, const std::vector<double>& fit) {
  const auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? NAN : s / v.size();
  };
  std::printf("  %-40s median ratio %6.2f  mean ratio %6.2f  p99 ratio %6.2f\n", what,
              percentile(mesh, 0.5) / percentile(fit, 0.5), mean(mesh) / mean(fit),
              percentile(mesh, 0.99) / percentile(fit, 0.99));
}

// The mesh model of a robot against one superovoid per link ("single") and
// a union per link ("union") in the same run: random configurations (joints
// uniform within their limits, fixed seed), each queried on the three
// scenes back to back: selfCollision and minSelfDistance over the link
// pairs `checked` keeps (the others allowed), then collides(env) and
// distance(env). Prints the figures and writes OUT_DIR/<robot>_configs.csv;
// returns 1 when a fit missed a collision of the meshes, else 0.
int runScenes(const std::string& robot, const sov::urdf::Model& original,
              const std::string& mesh_dir, const std::string& fitted_xml,
              const std::string& union_xml,
              const std::function<bool(const std::string&, const std::string&)>& checked,
              const std::vector<fcl::CollisionObject<double>*>& env, int configs,
              const std::string& out_dir) {
  sov::urdf::SceneOptions so;
  so.mesh_directory = mesh_dir;
  so.warm_start = false;  // random configurations: nothing to warm-start from
  sov::urdf::Scene mesh_scene(original, so), fit_scene(sov::urdf::parse(fitted_xml), so),
      union_scene(sov::urdf::parse(union_xml), so);
  std::vector<std::string> geo_links;
  for (const auto& l : original.urdf->links_)
    if (!l.second->collision_array.empty()) geo_links.push_back(l.first);
  int n_checked = 0;
  for (std::size_t i = 0; i < geo_links.size(); ++i)
    for (std::size_t j = i + 1; j < geo_links.size(); ++j) {
      if (!checked(geo_links[i], geo_links[j])) {
        for (sov::urdf::Scene* s : {&mesh_scene, &fit_scene, &union_scene})
          s->allowCollision(geo_links[i], geo_links[j]);
      } else {
        std::printf("  checked pair: %s - %s\n", geo_links[i].c_str(), geo_links[j].c_str());
        ++n_checked;
      }
    }
  std::printf("%s: %zu links with geometry, %d link pairs checked\n", robot.c_str(),
              geo_links.size(), n_checked);

  const std::vector<Limit> limits = jointLimits(*original.urdf);
  std::mt19937_64 rng(20261122);
  std::vector<double> t_mesh_coll, t_mesh_dist, t_mesh_env_coll, t_mesh_env_dist;
  long mesh_pairs = 0, mesh_colliding = 0, mesh_env_colliding = 0;
  std::ofstream csv(out_dir + "/" + robot + "_configs.csv");
  csv << "config,mesh_colliding,fit_colliding,union_colliding,mesh_pairs,fit_pairs,union_pairs,"
         "mesh_min_distance,fit_min_distance,union_min_distance,mesh_collide_us,"
         "mesh_distance_us,fit_collide_us,fit_distance_us,union_collide_us,union_distance_us\n";
  FitStats single, uni;
  single.robot = uni.robot = robot;
  single.name = "single";
  uni.name = "union";
  for (int c = 0; c < configs; ++c) {
    const sov::urdf::JointPositions q = randomConfiguration(limits, rng);
    for (sov::urdf::Scene* s : {&mesh_scene, &fit_scene, &union_scene}) s->setJointPositions(q);
    std::set<std::pair<std::string, std::string>> pm;
    auto t0 = Clock::now();
    const bool hm = mesh_scene.selfCollision(&pm);
    t_mesh_coll.push_back(micros(t0, Clock::now()));
    t0 = Clock::now();
    const sov::urdf::PairDistance dm = mesh_scene.minSelfDistance();
    t_mesh_dist.push_back(micros(t0, Clock::now()));
    mesh_pairs += pm.size();
    mesh_colliding += hm;
    const FitRow f = checkFitted(fit_scene, single, c, hm, pm, dm, out_dir);
    const FitRow u = checkFitted(union_scene, uni, c, hm, pm, dm, out_dir);
    t0 = Clock::now();
    const bool he = mesh_scene.collides(env);
    t_mesh_env_coll.push_back(micros(t0, Clock::now()));
    t0 = Clock::now();
    const double de = mesh_scene.distance(env).distance;
    t_mesh_env_dist.push_back(micros(t0, Clock::now()));
    mesh_env_colliding += he;
    checkEnvironment(fit_scene, single, env, he, de);
    checkEnvironment(union_scene, uni, env, he, de);
    csv << c << "," << hm << "," << f.colliding << "," << u.colliding << "," << pm.size() << ","
        << f.pairs << "," << u.pairs << "," << (hm ? NAN : dm.distance) << "," << f.distance << ","
        << u.distance << "," << t_mesh_coll.back() << "," << t_mesh_dist.back() << ","
        << f.collide_us << "," << f.distance_us << "," << u.collide_us << "," << u.distance_us
        << "\n";
  }
  const char* r = robot.c_str();
  std::printf("%s: %d configurations, %ld colliding for the meshes\n", r, configs, mesh_colliding);
  std::printf("%s per-configuration times:\n", r);
  printTimes("mesh  selfCollision (all pairs)", t_mesh_coll);
  printTimes("mesh  minSelfDistance", t_mesh_dist);
  std::printf("%s environment: %zu objects, colliding with the meshes in %ld configurations\n", r,
              env.size(), mesh_env_colliding);
  printTimes("mesh  collides(env)", t_mesh_env_coll);
  printTimes("mesh  distance(env)", t_mesh_env_dist);
  printFitStats(single, configs, mesh_pairs);
  printFitStats(uni, configs, mesh_pairs);
  std::printf("%s speed, mesh time over fitted time (same run):\n", r);
  printRatios("single selfCollision", t_mesh_coll, single.t_coll);
  printRatios("single minSelfDistance", t_mesh_dist, single.t_dist);
  printRatios("union selfCollision", t_mesh_coll, uni.t_coll);
  printRatios("union minSelfDistance", t_mesh_dist, uni.t_dist);
  printRatios("single collides(env)", t_mesh_env_coll, single.t_env_coll);
  printRatios("single distance(env)", t_mesh_env_dist, single.t_env_dist);
  printRatios("union collides(env)", t_mesh_env_coll, uni.t_env_coll);
  printRatios("union distance(env)", t_mesh_env_dist, uni.t_env_dist);
  const bool ok = single.mesh_only == 0 && single.pair_misses == 0 && uni.mesh_only == 0 &&
                  uni.pair_misses == 0 && single.env_mesh_only == 0 && uni.env_mesh_only == 0;
  return ok ? 0 : 1;
}

// Panda: its meshes against the fits (fitted here, or read from
// fitted_urdf and union_urdf), SRDF-style pairs (bodies, links merged over
// fixed joints, more than two movable joints apart are checked), the
// environment of pandaEnvironment.
int runPanda(const std::string& data, const std::string& out_dir, int configs,
             const sov::urdf::SplitOptions& split, const std::string& fitted_urdf,
             const std::string& union_urdf) {
  const std::string dir = data + "/panda", file = "panda.urdf";
  const sov::urdf::Model original = sov::urdf::parseFile(dir + "/" + file);
  const std::string fitted_xml = fitted_urdf.empty()
                                     ? fitAndRecord(dir, file, {}, out_dir, "panda")
                                     : readText(fitted_urdf);
  const std::string union_xml = union_urdf.empty()
                                    ? fitAndRecord(dir, file, {}, out_dir, "panda_union", split)
                                    : readText(union_urdf);
  const auto body = sov_bench::rigidBodies(*original.urdf);
  const auto checked = [&](const std::string& a, const std::string& b) {
    return sov_bench::jointsBetween(*original.urdf, body, a, b) > 2;
  };
  const auto env_objects = pandaEnvironment(12);
  std::vector<fcl::CollisionObject<double>*> env;
  for (const auto& o : env_objects) env.push_back(o.get());
  return runScenes("panda", original, dir, fitted_xml, union_xml, checked, env, configs, out_dir);
}

// The iCub model with both hands fitted (the arms and torso keep their
// meshes in every model): pairs of two hand links more than two movable
// joints apart are checked, every pair with another link allowed, so that
// self-collision compares the hands alone; the environment is 24 FCL
// primitives of 1-6 cm each within 6 cm of a palm's position in a random
// configuration (its own seed).
int runIcubScenes(const sov::urdf::Model& original, const std::string& dir,
                  const std::set<std::string>& hand_links, const std::string& fitted_xml,
                  const std::string& union_xml, int configs, const std::string& out_dir) {
  const auto body = sov_bench::rigidBodies(*original.urdf);
  const auto checked = [&](const std::string& a, const std::string& b) {
    return hand_links.count(a) && hand_links.count(b) &&
           sov_bench::jointsBetween(*original.urdf, body, a, b) > 2;
  };
  sov::urdf::SceneOptions so;
  so.mesh_directory = dir;
  sov::urdf::Scene where(original, so);
  const std::vector<Limit> limits = jointLimits(*original.urdf);
  std::mt19937_64 rng(20261127);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::unique_ptr<fcl::CollisionObject<double>>> env_objects;
  for (int k = 0; k < 24; ++k) {
    where.setJointPositions(randomConfiguration(limits, rng));
    const Vector3d offset = Vector3d(g(rng), g(rng), g(rng)).normalized() * 0.06 * u(rng);
    const Vector3d palm =
        where.linkPose(k % 2 ? "left_palm" : "right_palm").translation() + offset;
    env_objects.push_back(primitive(rng, k, 0.01, 0.06, palm));
  }
  std::vector<fcl::CollisionObject<double>*> env;
  for (const auto& o : env_objects) env.push_back(o.get());
  return runScenes("icub", original, dir, fitted_xml, union_xml, checked, env, configs, out_dir);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: %s icub|panda DATA_DIR OUT_DIR [--steps N] [--configs N]\n"
                 "          [--max-bodies K] [--target-ratio R] [--fitted URDF --union URDF]\n"
                 "DATA_DIR: ../shared/data/robots\n",
                 argv[0]);
    return 2;
  }
  const std::string robot = argv[1], data = argv[2], out = argv[3];
  int steps = 200, configs = robot == "icub" ? 5000 : 10000;
  // The union fits: up to 4 bodies per mesh, split while the union is above
  // 1.1 times its hull's volume (issue 33).
  sov::urdf::SplitOptions split;
  split.max_bodies = 4;
  split.target_ratio = 1.1;
  std::string fitted, union_fit;
  for (int i = 4; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--steps")
      steps = std::atoi(argv[i + 1]);
    else if (flag == "--configs")
      configs = std::atoi(argv[i + 1]);
    else if (flag == "--max-bodies")
      split.max_bodies = std::atoi(argv[i + 1]);
    else if (flag == "--target-ratio")
      split.target_ratio = std::atof(argv[i + 1]);
    else if (flag == "--fitted")
      fitted = argv[i + 1];
    else if (flag == "--union")
      union_fit = argv[i + 1];
    else
      return 2;
  }
  if (steps <= 0 || configs <= 0 || split.max_bodies < 1) return 2;
  if (fitted.empty() != union_fit.empty()) {
    std::fprintf(stderr, "%s: --fitted and --union go together\n", argv[0]);
    return 2;
  }
  try {
    // The CSVs and fits go there: a missing folder is made, not left unwritten.
    std::filesystem::create_directories(out);
    if (robot == "icub") return runIcub(data, out, steps, configs, split, fitted, union_fit);
    if (robot == "panda") return runPanda(data, out, configs, split, fitted, union_fit);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  std::fprintf(stderr, "%s: unknown robot '%s'\n", argv[0], robot.c_str());
  return 2;
}
