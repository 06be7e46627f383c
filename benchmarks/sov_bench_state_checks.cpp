// A planner's state check, call by call: the planning demo's fitted Panda and
// its meshes (planning/panda, the SRDF applied) in the demo's world (table,
// shelf boxes, octree), at uniform random arm configurations. Each
// configuration runs setJointPositions, selfCollision, collides(boxes) and
// collides(octree) on both models back to back, the model going first
// alternating, so that each ratio is taken in one run (RESULTS.md, "A
// planner's inner loop").
//
//   sov_bench_state_checks [--configs N] [--seed S]
#include <superovoid/planning/arm.h>
#include <superovoid/planning/world.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

namespace sp = sov::planning;
using Clock = std::chrono::steady_clock;

// The calls of one state check, in the order they run.
enum Call { kSetJoints, kSelf, kBoxes, kOctree, kCalls };
const char* const kCallNames[kCalls] = {"setJointPositions", "selfCollision", "collides(boxes)",
                                        "collides(octree)"};

double microseconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(
      stderr,
      "sov_bench_state_checks: %s\nusage: sov_bench_state_checks [--configs N] [--seed S]\n", why);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  long configs = 4000;
  unsigned long seed = 7;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage(("missing value after " + a).c_str());
    char* end = nullptr;
    if (a == "--configs") {
      configs = std::strtol(argv[++i], &end, 10);
      if (*end || configs < 1) usage("--configs needs a positive count");
    } else if (a == "--seed") {
      seed = std::strtoul(argv[++i], &end, 10);
      if (*end) usage("--seed needs a number");
    } else {
      usage(("unknown argument " + a).c_str());
    }
  }
  try {
    const std::string dir = SOV_PLANNING_PANDA_DIR;
    const sov::urdf::Model fitted_model = sov::urdf::parseFile(dir + "/panda_fit.urdf");
    const sov::urdf::Model mesh_model = sov::urdf::parseFile(dir + "/panda.urdf");
    std::unique_ptr<sov::urdf::Scene> scenes[2] = {sp::pandaScene(fitted_model, dir),
                                                   sp::pandaScene(mesh_model, dir)};
    const sp::Arm arm = sp::pandaArm(mesh_model);
    const sp::World world = sp::shelfWorld(1);
    const auto env = world.env();
    std::vector<fcl::CollisionObject<double>*> boxes, octree;
    for (std::size_t i = 0; i < env.size(); ++i)
      (world.names[i] == "octree" ? octree : boxes).push_back(env[i]);
    std::mt19937_64 rng(seed);
    std::vector<double> t[2][kCalls];
    long colliding[2] = {0, 0};
    for (long k = 0; k < configs; ++k) {
      sp::Config q(arm.joints.size());
      for (std::size_t j = 0; j < q.size(); ++j)
        q[j] = std::uniform_real_distribution<double>(arm.lower[j], arm.upper[j])(rng);
      const auto positions = arm.positions(q);
      for (int turn = 0; turn < 2; ++turn) {
        const int m = (k & 1) ? 1 - turn : turn;
        sov::urdf::Scene& s = *scenes[m];
        const auto t0 = Clock::now();
        s.setJointPositions(positions);
        const auto t1 = Clock::now();
        const bool self = s.selfCollision();
        const auto t2 = Clock::now();
        const bool hit_boxes = s.collides(boxes);
        const auto t3 = Clock::now();
        const bool hit_octree = s.collides(octree);
        const auto t4 = Clock::now();
        t[m][kSetJoints].push_back(microseconds(t0, t1));
        t[m][kSelf].push_back(microseconds(t1, t2));
        t[m][kBoxes].push_back(microseconds(t2, t3));
        t[m][kOctree].push_back(microseconds(t3, t4));
        colliding[m] += self || hit_boxes || hit_octree;
      }
    }
    std::printf("%ld configurations (seed %lu); times in us, median / mean / p99\n", configs, seed);
    std::printf("%-18s %28s %28s %10s\n", "call", "fitted", "meshes", "mesh/fit");
    for (int c = 0; c < kCalls; ++c) {
      std::printf("%-18s %8.2f / %8.2f / %8.2f %8.2f / %8.2f / %8.2f %10.2f\n", kCallNames[c],
                  quantile(t[0][c], 0.5), mean(t[0][c]), quantile(t[0][c], 0.99),
                  quantile(t[1][c], 0.5), mean(t[1][c]), quantile(t[1][c], 0.99),
                  mean(t[1][c]) / mean(t[0][c]));
    }
    std::printf("configurations in collision: fitted %ld, meshes %ld\n", colliding[0],
                colliding[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sov_bench_state_checks: %s\n", e.what());
    return 1;
  }
  return 0;
}
