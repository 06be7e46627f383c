// sov_make_srdf: the collision entries of an SRDF for a URDF, computed the
// way MoveIt's setup assistant computes them: link pairs that are adjacent
// (joined by a joint, links without geometry skipped), in collision at the
// default configuration ("Default"), in collision in at least 95 % of random
// configurations ("Always"), or in none of them ("Never") are disabled; every
// other pair is checked. Random configurations are uniform within the
// limits of every movable joint (a fixed seed), checked on the URDF's own
// geometry (meshes as they are).
//
//   sov_make_srdf ROBOT.urdf OUT.srdf [--samples N] [--seed S]
//                 [--package NAME=DIR ...]
//
// Exit status: 0, 1 for an error (the message names the file), 2 for misuse.
#include <superovoid/urdf/mesh.h>
#include <superovoid/urdf/scene.h>
#include <urdf_model/model.h>

#include "command_line.h"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using LinkPair = std::pair<std::string, std::string>;

const char* kUsage =
    "usage: sov_make_srdf ROBOT.urdf OUT.srdf [--samples N] [--seed S] [--package NAME=DIR ...]\n"
    "--package NAME=DIR resolves package://NAME/... mesh URIs (repeatable; DIR relative to\n"
    "the current directory).\n";

LinkPair ordered(const std::string& a, const std::string& b) {
  return a < b ? LinkPair(a, b) : LinkPair(b, a);
}

// Pairs of geometry links joined by a joint, links without geometry skipped
// (a link's nearest ancestor with geometry).
std::set<LinkPair> adjacentPairs(const ::urdf::ModelInterface& model,
                                 const std::set<std::string>& geometry) {
  std::set<LinkPair> out;
  for (const auto& name : geometry) {
    auto parent = model.getLink(name)->getParent();
    while (parent && !geometry.count(parent->name)) parent = parent->getParent();
    if (parent) out.insert(ordered(name, parent->name));
  }
  return out;
}

// Movable, non-mimic joints with their limits (continuous: a full turn).
std::map<std::string, std::pair<double, double>> sampledJoints(const ::urdf::ModelInterface& m) {
  std::map<std::string, std::pair<double, double>> out;
  for (const auto& [name, j] : m.joints_) {
    if (j->mimic) continue;
    if (j->type == ::urdf::Joint::CONTINUOUS) out[name] = {-M_PI, M_PI};
    if ((j->type == ::urdf::Joint::REVOLUTE || j->type == ::urdf::Joint::PRISMATIC) && j->limits)
      out[name] = {j->limits->lower, j->limits->upper};
  }
  return out;
}

// How many of the configurations put each pair in collision.
std::map<LinkPair, int> collisionCounts(sov::urdf::Scene& scene,
                                        const std::vector<sov::urdf::JointPositions>& configs) {
  std::map<LinkPair, int> count;
  for (const auto& q : configs) {
    scene.setJointPositions(q);
    std::set<LinkPair> pairs;
    scene.selfCollision(&pairs);
    for (const auto& p : pairs) ++count[p];
  }
  return count;
}

int run(const std::string& urdf_path, const std::string& out_path, int samples, unsigned long seed,
        const std::map<std::string, std::string>& package_paths) {
  const sov::urdf::Model model = sov::urdf::parseFile(urdf_path);
  sov::urdf::SceneOptions so;
  so.warm_start = false;
  so.package_paths = package_paths;
  sov::urdf::Scene scene(urdf_path, so);
  std::set<std::string> geometry;
  for (const auto& g : scene.geometries()) geometry.insert(g.link);
  for (const auto& a : geometry)
    for (const auto& b : geometry)
      if (a < b) scene.disallowCollision(a, b);

  const auto default_hits = collisionCounts(scene, {scene.jointPositions()});
  std::mt19937_64 rng(seed);
  std::vector<sov::urdf::JointPositions> configs;
  const auto joints = sampledJoints(*model.urdf);
  for (int i = 0; i < samples; ++i) {
    sov::urdf::JointPositions q;
    for (const auto& [name, range] : joints)
      q[name] = std::uniform_real_distribution<double>(range.first, range.second)(rng);
    configs.push_back(q);
  }
  const auto hits = collisionCounts(scene, configs);
  const auto adjacent = adjacentPairs(*model.urdf, geometry);

  std::ofstream out(out_path);
  if (!out) throw std::runtime_error("cannot write " + out_path);
  out << "<?xml version=\"1.0\"?>\n<!-- Collision entries written by sov_make_srdf ("
      << samples << " random configurations, seed " << seed << ") for "
      << model.urdf->getName() << ":\n     pairs disabled as MoveIt's setup assistant "
      << "disables them; every other pair of links with geometry is checked. -->\n"
      << "<robot name=\"" << model.urdf->getName() << "\">\n";
  int disabled = 0, checked = 0;
  for (const auto& a : geometry)
    for (const auto& b : geometry) {
      if (!(a < b)) continue;
      const LinkPair p(a, b);
      const int n = hits.count(p) ? hits.at(p) : 0;
      const char* reason = adjacent.count(p)         ? "Adjacent"
                           : default_hits.count(p)   ? "Default"
                           : n >= 0.95 * samples     ? "Always"
                           : n == 0                  ? "Never"
                                                     : nullptr;
      if (!reason) {
        ++checked;
        continue;
      }
      ++disabled;
      out << "  <disable_collisions link1=\"" << a << "\" link2=\"" << b << "\" reason=\""
          << reason << "\"/>\n";
    }
  out << "</robot>\n";
  std::printf("wrote %s: %d link pairs disabled, %d checked\n", out_path.c_str(), disabled,
              checked);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  int samples = 10000;
  unsigned long seed = 1;
  std::map<std::string, std::string> package_paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--samples" || a == "--seed") && i + 1 < argc) {
      const std::uint64_t max = a == "--samples" ? 100000000u : ULONG_MAX;
      std::uint64_t v = 0;
      if (!sov::planning::positiveInteger(argv[++i], max, &v)) {
        std::fprintf(stderr, "sov_make_srdf: %s wants a positive integer up to %llu\n%s", a.c_str(),
                     static_cast<unsigned long long>(max), kUsage);
        return 2;
      }
      if (a == "--samples")
        samples = static_cast<int>(v);
      else
        seed = static_cast<unsigned long>(v);
    } else if (a == "--package" && i + 1 < argc) {
      if (!sov::urdf::addPackagePath(argv[++i], &package_paths)) {
        std::fprintf(stderr, "sov_make_srdf: --package wants NAME=DIR\n%s", kUsage);
        return 2;
      }
    } else if (a.rfind("--", 0) == 0 || files.size() == 2) {
      std::fprintf(stderr, "%s", kUsage);
      return 2;
    } else {
      files.push_back(a);
    }
  }
  if (files.size() != 2) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  try {
    return run(files[0], files[1], samples, seed, package_paths);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sov_make_srdf: %s\n", e.what());
    return 1;
  }
}
