// sov_plan_demo: OMPL plans the Panda's arm from the table into a shelf and
// between the shelf's compartments, on its fitted superovoids and on its
// original meshes, on the same seeded queries, one after the other in one
// process; every returned path is re-checked on the meshes (recheck.h).
// Prints a row per run and a summary per planner, motion validation and
// model; writes the runs as CSV and draws the first fitted path in the scene
// (plot_plan.py, matplotlib).
//
//   sov_plan_demo [--short] [--queries N] [--planners P,P] [--motions M,M]
//                 [--time-limit S] [--ao-time S] [--resolution F] [--seed N]
//                 [--panda-dir DIR] [--out-dir DIR] [--no-plot]
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <ompl/util/Console.h>
#include <ompl/util/RandomNumbers.h>
#include <superovoid/fcl.h>
#include <superovoid/planning/arm.h>
#include <superovoid/planning/ompl_planning.h>
#include <superovoid/planning/queries.h>
#include <superovoid/planning/recheck.h>
#include <superovoid/planning/world.h>
#include <superovoid/urdf/mesh.h>

#include "command_line.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace sp = sov::planning;

// Exit status when a path collides on the meshes where the planner's own
// checks could not step over the contact (certified motions, or a
// configuration the planned model calls free; the fitted links contain the
// meshes): a bug.
constexpr int kPathCollidesUnexplained = 3;

struct Options {
  bool short_mode = false;
  std::size_t queries = 20;
  std::vector<std::string> planners = {"RRTConnect", "BITstar"};
  std::vector<sp::MotionValidation> motions = {sp::MotionValidation::kDiscrete,
                                              sp::MotionValidation::kCertified};
  double time_limit = 10;  // RRTConnect's
  double ao_time = 5;      // the asymptotically optimal planner's budget
  double resolution = 0.01;
  std::uint64_t seed = 1;
  std::string panda_dir = SOV_PLANNING_PANDA_DIR;
  std::string out_dir = SOV_PLANNING_OUT_DIR;
  bool plot = true;
};

const char* kUsage =
    "usage: sov_plan_demo [--short] [--queries N] [--planners P,P] [--motions M,M]\n"
    "                     [--time-limit S] [--ao-time S] [--resolution F] [--seed N]\n"
    "                     [--panda-dir DIR] [--out-dir DIR] [--no-plot]\n"
    "Plans the Panda among a table, a shelf and an octree with OMPL (planners\n"
    "RRTConnect, BITstar, RRTstar; motions discrete, certified) on its fitted\n"
    "superovoids and on its meshes, re-checks every path on the meshes, and\n"
    "writes DIR/plan_runs.csv and DIR/plan.png. Default: 20 queries, RRTConnect\n"
    "and BITstar, both motions. --short: 2 queries, RRTConnect, discrete motions.\n";

// Prints message and the usage to stderr and exits with status 2.
[[noreturn]] void misuse(const std::string& message) {
  std::fprintf(stderr, "sov_plan_demo: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

// text as a positive finite number; misuse otherwise.
double positive(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end || !(v > 0) || !std::isfinite(v)) misuse(flag + " wants a positive number");
  return v;
}

// text as a positive integer up to max; misuse otherwise.
std::uint64_t positiveInteger(const std::string& flag, const std::string& text, std::uint64_t max) {
  std::uint64_t v = 0;
  if (!sp::positiveInteger(text, max, &v))
    misuse(flag + " wants a positive integer up to " + std::to_string(max));
  return v;
}

// The planners named in text ("RRTConnect,BITstar"), each one OMPL has here.
std::vector<std::string> plannersOf(const std::string& text) {
  std::vector<std::string> out = sp::commaItems(text);
  const auto& known = sp::plannerNames();
  std::string names;
  for (const auto& n : known) names += (names.empty() ? "" : ", ") + n;
  if (out.empty()) misuse("--planners wants one or more of " + names);
  for (const auto& p : out)
    if (std::find(known.begin(), known.end(), p) == known.end())
      misuse("unknown planner '" + p + "' (" + names + ")");
  return out;
}

// The motion validations named in text ("discrete,certified").
std::vector<sp::MotionValidation> motionsOf(const std::string& text) {
  std::vector<sp::MotionValidation> out;
  for (const auto& m : sp::commaItems(text)) {
    if (m == "discrete") out.push_back(sp::MotionValidation::kDiscrete);
    else if (m == "certified") out.push_back(sp::MotionValidation::kCertified);
    else misuse("unknown motion validation '" + m + "' (discrete, certified)");
  }
  return out;
}

// Parses the command line; exits with status 2 on misuse.
Options parseArgs(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) misuse(a + " needs a value");
      return argv[++i];
    };
    if (a == "--short") {
      o.short_mode = true;
      o.queries = 2;
      o.planners = {"RRTConnect"};
      // Certified motion checks cost about a millisecond each on the fitted
      // model, far more on the meshes: seconds per query (benchmarks/RESULTS.md).
      o.motions = {sp::MotionValidation::kDiscrete};
    } else if (a == "--queries") {
      o.queries = positiveInteger(a, value(), 1000000);
    } else if (a == "--planners") {
      o.planners = plannersOf(value());
    } else if (a == "--motions") {
      o.motions = motionsOf(value());
    } else if (a == "--time-limit") {
      o.time_limit = positive(a, value());
    } else if (a == "--ao-time") {
      o.ao_time = positive(a, value());
    } else if (a == "--resolution") {
      o.resolution = positive(a, value());
      if (o.resolution >= 1) misuse("--resolution is a fraction of the space's extent, below 1");
    } else if (a == "--seed") {
      o.seed = positiveInteger(a, value(), UINT64_MAX);
    } else if (a == "--panda-dir") {
      o.panda_dir = value();
    } else if (a == "--out-dir") {
      o.out_dir = value();
    } else if (a == "--no-plot") {
      o.plot = false;
    } else if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      std::exit(0);
    } else {
      misuse("unknown argument '" + a + "'");
    }
  }
  return o;
}

// The command-line name of m.
const char* nameOf(sp::MotionValidation m) {
  return m == sp::MotionValidation::kDiscrete ? "discrete" : "certified";
}

// The two models of the Panda, each in its scene with the SRDF, and a third
// scene of the meshes for the re-check.
struct Robot {
  sov::urdf::Model fitted_model, mesh_model;
  std::unique_ptr<sov::urdf::Scene> fitted, mesh, recheck;
  sp::Arm arm;
  std::vector<double> reach;  // of the meshes, for the re-check
};

// Both models of the Panda in dir, their scenes and the planning group.
Robot loadRobot(const std::string& dir) {
  Robot r;
  r.fitted_model = sov::urdf::parseFile(dir + "/panda_fit.urdf");
  r.mesh_model = sov::urdf::parseFile(dir + "/panda.urdf");
  r.fitted = sp::pandaScene(r.fitted_model, dir);
  r.mesh = sp::pandaScene(r.mesh_model, dir);
  r.recheck = sp::pandaScene(r.mesh_model, dir);
  r.arm = sp::pandaArm(r.mesh_model);
  r.reach = sp::reachBounds(r.mesh_model, *r.recheck, r.arm);
  return r;
}

// One planning run and its re-check on the meshes.
struct Run {
  std::size_t query = 0;
  std::string planner, model;
  sp::MotionValidation motion = sp::MotionValidation::kDiscrete;
  sp::PlanResult result;
  sp::Recheck recheck;
  // At the re-check's first collision, the planned model collides too: its
  // checks stepped over the contact (discrete motions). False there would
  // be a bug (the fitted links contain the meshes).
  bool planned_model_collides = false;
};

// The p-quantile of v (nearest rank; p = 0.5 the median, 1 the largest);
// NaN when v is empty.
double quantile(std::vector<double> v, double p) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5))];
}

// The median of v (nearest rank).
double median(const std::vector<double>& v) { return quantile(v, 0.5); }

// State checks per second spent in them (NaN without any).
double statesPerSecond(const sp::CheckCounts& c) {
  return c.state_seconds > 0 ? c.states / c.state_seconds : NAN;
}

// v printed with the precision given, "-" when it is not a number (no such check).
std::string num(double v, int precision) {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

// Certified motion checks per second spent in them (NaN without any).
double motionsPerSecond(const sp::CheckCounts& c) {
  return c.motion_seconds > 0 ? c.motions / c.motion_seconds : NAN;
}

// One row: the run, its counts and its re-check on the meshes.
void printRun(const Run& r, const sp::Query& q) {
  const auto& p = r.result;
  std::printf("%3zu %-10s -> %-10s %-10s %-9s %-6s ", r.query, q.from.c_str(), q.to.c_str(),
              r.planner.c_str(), nameOf(r.motion), r.model.c_str());
  if (!p.solved) {
    std::printf("%-6s %9.1f ms  %7zu states %9.0f /s  no path\n", "FAILED", 1e3 * p.seconds,
                p.counts.states, statesPerSecond(p.counts));
    return;
  }
  std::printf("%-6s %9.1f ms  %7zu states %9.0f /s  %5zu motions %7s /s  length %6.3f rad  "
              "%2zu wp | ",
              "solved", 1e3 * p.seconds, p.counts.states, statesPerSecond(p.counts),
              p.counts.motions, num(motionsPerSecond(p.counts), 0).c_str(), p.length,
              p.path.size());
  const auto& c = r.recheck;
  if (c.collides)
    std::printf("meshes: COLLIDES at segment %zu t %.4f (%s - %s; %s)\n", c.segment, c.t,
                c.link1.c_str(), c.link2.c_str(),
                !r.planned_model_collides ? "NOT on the planned model: a bug"
                : r.motion == sp::MotionValidation::kCertified ? "certified motions: a bug"
                                                               : "stepped over");
  else
    std::printf("meshes: free, clearance %.1f mm, %.0f %% proved\n", 1e3 * c.min_clearance,
                100 * c.proved_fraction);
}

// The configuration of r's path where its re-check found the first collision.
sp::Config collisionConfig(const Run& r) {
  const auto& path = r.result.path;
  const std::size_t i = std::min(r.recheck.segment, path.size() - 1);
  const sp::Config& a = path[i];
  const sp::Config& b = path[std::min(i + 1, path.size() - 1)];
  sp::Config q(a.size());
  for (std::size_t j = 0; j < q.size(); ++j) q[j] = a[j] + r.recheck.t * (b[j] - a[j]);
  return q;
}

// Plans query q with every planner and motion validation on both models,
// the model that goes first alternating from one query to the next.
std::vector<Run> runQuery(Robot& robot, const sp::World& world, const sp::Query& q,
                          std::size_t index, const Options& o) {
  std::vector<Run> runs;
  const auto env = world.env();
  for (const auto& planner : o.planners) {
    for (const auto motion : o.motions) {
      for (int k = 0; k < 2; ++k) {
        const bool fitted = (k == 0) == (index % 2 == 0);
        sp::PlanOptions po;
        po.planner = planner;
        po.time_limit = planner == "RRTConnect" ? o.time_limit : o.ao_time;
        po.motion = motion;
        po.resolution = o.resolution;
        Run r{index, planner, fitted ? "fitted" : "mesh", motion, {}, {}};
        r.result = sp::plan(fitted ? *robot.fitted : *robot.mesh, env, robot.arm, q.start,
                            q.goal, po);
        if (r.result.solved)
          r.recheck = sp::recheckPath(*robot.recheck, env, world.coveringEnv(), robot.arm,
                                      robot.reach, r.result.path);
        if (r.recheck.collides)
          r.planned_model_collides = !sp::isFree(fitted ? *robot.fitted : *robot.mesh, env,
                                                 robot.arm, collisionConfig(r));
        printRun(r, q);
        std::fflush(stdout);
        runs.push_back(r);
      }
    }
  }
  return runs;
}

// A file of the output folder opened for writing; throws if it cannot be.
std::ofstream openOutput(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  return out;
}

// Throws if out failed while being written (a full disk).
void checkWritten(std::ofstream& out, const std::string& path) {
  out.flush();
  if (!out) throw std::runtime_error("cannot write " + path);
}

// Every run as a line of CSV at path.
void writeRunsCsv(const std::string& path, const std::vector<Run>& runs,
                  const std::vector<sp::Query>& queries) {
  std::ofstream out = openOutput(path);
  out << "query,from,to,planner,motion,model,solved,seconds,first_solution_seconds,"
         "simplify_seconds,states,state_seconds,motions,motion_seconds,motion_steps,"
         "motion_failures,motions_certified,length,waypoints,recheck_collides,recheck_segment,recheck_t,"
         "recheck_link1,recheck_link2,planned_model_collides,min_clearance,proved_fraction,recheck_configurations\n";
  for (const auto& r : runs) {
    const auto& p = r.result;
    const auto& c = r.recheck;
    out << r.query << ',' << queries[r.query].from << ',' << queries[r.query].to << ','
        << r.planner << ',' << nameOf(r.motion) << ',' << r.model << ',' << p.solved << ','
        << p.seconds << ',' << p.first_solution_seconds << ',' << p.simplify_seconds << ','
        << p.counts.states << ',' << p.counts.state_seconds << ',' << p.counts.motions << ','
        << p.counts.motion_seconds << ',' << p.counts.motion_steps << ','
        << p.counts.motion_failures << ',' << p.counts.motions_certified << ',' << p.length << ',' << p.path.size() << ','
        << c.collides << ',' << c.segment << ',' << c.t << ',' << c.link1 << ',' << c.link2
        << ',' << r.planned_model_collides << ',' << c.min_clearance << ',' << c.proved_fraction
        << ',' << c.configurations << '\n';
  }
  checkWritten(out, path);
}

// One summary row: the runs of one planner, motion validation and model.
void printModelRow(const std::string& planner, sp::MotionValidation motion, const char* model,
                   const std::map<std::size_t, const Run*>& runs) {
  std::vector<double> t, first, states, motions, steps, len;
  int solved = 0, hits = 0;
  for (const auto& [q, r] : runs) {
    if (!r->result.solved) continue;
    const auto& c = r->result.counts;
    ++solved;
    hits += r->recheck.collides;
    t.push_back(1e3 * r->result.seconds);
    first.push_back(1e3 * r->result.first_solution_seconds);
    states.push_back(statesPerSecond(c));
    if (c.motions) {
      motions.push_back(motionsPerSecond(c));
      steps.push_back(double(c.motion_steps) / c.motions);
    }
    len.push_back(r->result.length);
  }
  std::printf("%-10s %-9s %-6s %3d/%-3zu %9.1f %9.1f %9.1f %9.0f %9s %9s %8.3f %9d\n",
              planner.c_str(), nameOf(motion), model, solved, runs.size(), median(t),
              quantile(t, 1.0), median(first), median(states),
              num(median(motions), 0).c_str(), num(median(steps), 0).c_str(), median(len), hits);
}

// Summary per planner, motion validation and model (medians over solved
// runs), with the ratios of the meshes to the fitted model per query both
// solved.
void printSummary(const std::vector<Run>& runs, const Options& o) {
  std::printf("\nsummary (%zu queries; medians over solved runs; states/s, motions/s: checks "
              "per second spent in them)\n", o.queries);
  std::printf("%-10s %-9s %-6s %7s %9s %9s %9s %9s %9s %9s %8s %9s\n", "planner", "motion",
              "model", "solved", "ms", "max ms", "first ms", "states/s", "motions/s",
              "steps/mo", "length", "mesh hits");
  for (const auto& planner : o.planners)
    for (const auto motion : o.motions) {
      std::map<std::string, std::map<std::size_t, const Run*>> by_model;
      for (const auto& r : runs)
        if (r.planner == planner && r.motion == motion) by_model[r.model][r.query] = &r;
      for (const char* model : {"fitted", "mesh"})
        printModelRow(planner, motion, model, by_model[model]);
      std::vector<double> time_ratio, rate_ratio;
      for (const auto& [q, f] : by_model["fitted"]) {
        const auto m = by_model["mesh"].find(q);
        if (m == by_model["mesh"].end() || !f->result.solved || !m->second->result.solved)
          continue;
        time_ratio.push_back(m->second->result.first_solution_seconds /
                             f->result.first_solution_seconds);
        rate_ratio.push_back(statesPerSecond(f->result.counts) /
                             statesPerSecond(m->second->result.counts));
      }
      std::printf("%-10s %-9s mesh / fitted, per query both solved (%zu): time to first "
                  "solution x%.2f median; fitted states/s x%.2f median\n",
                  planner.c_str(), nameOf(motion), time_ratio.size(), median(time_ratio),
                  median(rate_ratio));
    }
}

}  // namespace

namespace drawing {

// The triangles of one scene geometry in the root frame: superovoids
// tessellated, boxes as 12 triangles, meshes as loaded.
sov::urdf::TriangleMesh geometryMesh(const fcl::CollisionGeometry<double>& g,
                                     const fcl::Transform3<double>& pose) {
  sov::urdf::TriangleMesh m;
  if (const auto* s = dynamic_cast<const sov::Superovoid*>(&g)) {
    m = sov::urdf::tessellate(s->shape(), 12, 24);
  } else if (const auto* b = dynamic_cast<const fcl::Box<double>*>(&g)) {
    for (int i = 0; i < 8; ++i)
      m.vertices.push_back({(i & 1 ? 0.5 : -0.5) * b->side.x(), (i & 2 ? 0.5 : -0.5) * b->side.y(),
                            (i & 4 ? 0.5 : -0.5) * b->side.z()});
    m.triangles = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                   {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
  } else if (const auto* b = dynamic_cast<const fcl::BVHModel<fcl::OBBRSS<double>>*>(&g)) {
    for (int i = 0; i < b->num_vertices; ++i)
      m.vertices.push_back({b->vertices[i].x(), b->vertices[i].y(), b->vertices[i].z()});
    for (int i = 0; i < b->num_tris; ++i)
      m.triangles.push_back({static_cast<int>(b->tri_indices[i][0]),
                             static_cast<int>(b->tri_indices[i][1]),
                             static_cast<int>(b->tri_indices[i][2])});
  }
  for (auto& v : m.vertices) {
    const Eigen::Vector3d w = pose * Eigen::Vector3d(v[0], v[1], v[2]);
    v = {w.x(), w.y(), w.z()};
  }
  return m;
}

// The configuration a fraction s of the way along path (by joint distance).
sp::Config along(const std::vector<sp::Config>& path, double s) {
  std::vector<double> cum = {0};
  for (std::size_t i = 1; i < path.size(); ++i) {
    double d = 0;
    for (std::size_t j = 0; j < path[i].size(); ++j)
      d += (path[i][j] - path[i - 1][j]) * (path[i][j] - path[i - 1][j]);
    cum.push_back(cum.back() + std::sqrt(d));
  }
  const double target = s * cum.back();
  std::size_t i = 1;
  while (i + 1 < path.size() && cum[i] < target) ++i;
  const double t = cum[i] > cum[i - 1] ? (target - cum[i - 1]) / (cum[i] - cum[i - 1]) : 0;
  sp::Config q(path[i].size());
  for (std::size_t j = 0; j < q.size(); ++j)
    q[j] = path[i - 1][j] + std::min(1.0, std::max(0.0, t)) * (path[i][j] - path[i - 1][j]);
  return q;
}

// Writes the world's boxes, the robot's triangles at 6 configurations along
// path and the tool point's trace, for plot_plan.py.
void writeDrawing(const std::string& dir, const sp::World& world, sov::urdf::Scene& scene,
                  const sp::Arm& arm, const std::vector<sp::Config>& path) {
  const std::string boxes_path = dir + "/plan_scene.csv";
  std::ofstream boxes = openOutput(boxes_path);
  boxes << "name,cx,cy,cz,sx,sy,sz\n";
  for (const auto& b : sp::drawnBoxes(world))
    boxes << b.name << ',' << b.pose.translation().x() << ',' << b.pose.translation().y() << ','
          << b.pose.translation().z() << ',' << b.size.x() << ',' << b.size.y() << ','
          << b.size.z() << '\n';
  checkWritten(boxes, boxes_path);
  const std::string tris_path = dir + "/plan_robot.csv";
  std::ofstream tris = openOutput(tris_path);
  tris << "pose,x0,y0,z0,x1,y1,z1,x2,y2,z2\n";
  const int poses = 6;
  for (int k = 0; k < poses; ++k) {
    scene.setJointPositions(arm.positions(along(path, k / double(poses - 1))));
    for (const auto& g : scene.geometries()) {
      const auto m = geometryMesh(*g.object->collisionGeometry(), g.object->getTransform());
      for (const auto& t : m.triangles) {
        tris << k;
        for (int c : t)
          for (double x : m.vertices[c]) tris << ',' << x;
        tris << '\n';
      }
    }
  }
  checkWritten(tris, tris_path);
  const std::string trace_path = dir + "/plan_trace.csv";
  std::ofstream trace = openOutput(trace_path);
  trace << "x,y,z\n";
  for (int k = 0; k <= 200; ++k) {
    scene.setJointPositions(arm.positions(along(path, k / 200.0)));
    const Eigen::Vector3d p = scene.linkPose("fer_hand_tcp").translation();
    trace << p.x() << ',' << p.y() << ',' << p.z() << '\n';
  }
  checkWritten(trace, trace_path);
}

}  // namespace drawing

namespace {

// Draws plan.png through plot_plan.py, or says why not.
void plot(const Options& o) {
  const std::string python = SOV_PYTHON3;
  if (python.empty()) {
    std::printf("no python3 found when configuring: no plot\n");
    return;
  }
  std::fflush(stdout);
  const std::string cmd = "\"" + python + "\" \"" + SOV_PLANNING_PLOT_SCRIPT + "\" \"" +
                          o.out_dir + "\" \"" + o.out_dir + "/plan.png\"";
  if (std::system(cmd.c_str()) != 0) std::printf("plot_plan.py failed: no plot\n");
}

// Counts the paths that collide on the meshes, and those whose planner's
// checks could not have stepped over the contact; returns the exit status.
int reportRechecks(const std::vector<Run>& runs) {
  int collisions = 0, unexplained = 0;
  for (const auto& r : runs) {
    collisions += r.recheck.collides;
    unexplained += r.recheck.collides &&
                   (r.motion == sp::MotionValidation::kCertified || !r.planned_model_collides);
  }
  std::printf("re-check on the meshes: %d of %zu returned paths collide (%d stepped over by "
              "discrete motion checks, %d not)\n",
              collisions,
              std::count_if(runs.begin(), runs.end(), [](const Run& r) { return r.result.solved; }),
              collisions - unexplained, unexplained);
  if (!unexplained) return 0;
  std::fprintf(stderr, "sov_plan_demo: a path collides on the meshes where its own checks "
                       "could not step over the contact (rows marked COLLIDES): a bug, please "
                       "report\n");
  return kPathCollidesUnexplained;
}

// The whole demo; returns the exit status.
int run(const Options& o) {
  // The output folder first: a run of minutes must not end unable to write.
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec)
    throw std::runtime_error("cannot create the output folder " + o.out_dir + ": " + ec.message());
  ompl::msg::setLogLevel(ompl::msg::LOG_WARN);
  ompl::RNG::setSeed(o.seed);
  Robot robot = loadRobot(o.panda_dir);
  const sp::World world = sp::shelfWorld(o.seed);
  const auto env = world.env();
  // table -> shelf_low, table -> shelf_high, shelf_low -> shelf_high, and back.
  const std::vector<std::pair<std::size_t, std::size_t>> legs = {{0, 1}, {0, 2}, {1, 2},
                                                                   {2, 0}, {1, 0}, {2, 1}};
  const auto t0 = std::chrono::steady_clock::now();
  const auto queries = sp::makeQueries(robot.mesh_model, {robot.fitted.get(), robot.mesh.get()},
                                       env, robot.arm, "fer_hand_tcp", world.regions, legs,
                                       o.queries, o.seed);
  std::string planners, motions;
  for (const auto& p : o.planners) planners += (planners.empty() ? "" : ",") + p;
  for (const auto m : o.motions) motions += std::string(motions.empty() ? "" : ",") + nameOf(m);
  std::printf("Panda: 7 arm joints, fingers at 0.04; %zu obstacles (octree: %zu points, "
              "resolution %.2f); %zu queries (seed %llu, drawn in %.1f s); planners: %s; "
              "motions: %s\n",
              world.objects.size(), world.cloud.size(), world.octree_resolution, queries.size(),
              static_cast<unsigned long long>(o.seed),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
              planners.c_str(), motions.c_str());
  std::vector<Run> runs;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    auto more = runQuery(robot, world, queries[i], i, o);
    runs.insert(runs.end(), more.begin(), more.end());
  }
  printSummary(runs, o);
  writeRunsCsv(o.out_dir + "/plan_runs.csv", runs, queries);
  std::printf("wrote %s/plan_runs.csv\n", o.out_dir.c_str());

  const int status = reportRechecks(runs);
  const auto drawn = std::find_if(runs.begin(), runs.end(), [](const Run& r) {
    return r.model == "fitted" && r.result.solved;
  });
  if (o.plot && drawn != runs.end()) {
    drawing::writeDrawing(o.out_dir, world, *robot.fitted, robot.arm, drawn->result.path);
    plot(o);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parseArgs(argc, argv);
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sov_plan_demo: %s\n", e.what());
    return 1;
  }
}
