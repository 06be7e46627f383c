// sov_octree_seed: the study's octImplicit scheme (octree-seeded implicit
// Newton, sov::octreeSeededDistance) against the default method on the first
// pairs of a battery, in the same run: voxelisation time per shape, share
// converged, accuracy against the reference answers, time per query.
//   sov_octree_seed --in FILE.csv [--count N] [--resolution R]
#include <superovoid/fcl.h>
#include <superovoid/fcl/octree_seed.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// One battery row: id, then per body 7 shape parameters, a quaternion w x y z
// and a position.
struct Row {
  long id;
  double v[28];
};

// Rows of a battery CSV (header skipped); empty on a read error.
std::vector<Row> ReadRows(const std::string& path, size_t limit) {
  std::vector<Row> rows;
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return rows;
  while (rows.size() < limit && std::getline(in, line)) {
    std::stringstream ss(line);
    std::string cell;
    Row r{};
    std::getline(ss, cell, ',');
    r.id = std::strtol(cell.c_str(), nullptr, 10);
    for (double& x : r.v) {
      std::getline(ss, cell, ',');
      x = std::strtod(cell.c_str(), nullptr);
    }
    rows.push_back(r);
  }
  return rows;
}

// Reference d by id from FILE.ref.csv.
std::map<long, double> ReadRefs(const std::string& path) {
  std::map<long, double> refs;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    char* end = nullptr;
    const long id = std::strtol(line.c_str(), &end, 10);
    refs[id] = std::strtod(end + 1, nullptr);
  }
  return refs;
}

// World pose from a quaternion w x y z (normalised) and a position.
fcl::Transform3<double> Pose(const double* q, const double* p) {
  fcl::Transform3<double> tf = fcl::Transform3<double>::Identity();
  tf.linear() = Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix();
  tf.translation() = Eigen::Vector3d(p[0], p[1], p[2]);
  return tf;
}

// Microseconds since t0.
double Us(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

// Median and 99th percentile of v (sorted in place).
void Print(const char* what, std::vector<double>& v) {
  if (v.empty()) return;
  std::sort(v.begin(), v.end());
  const size_t p99 = static_cast<size_t>(std::ceil(0.99 * v.size())) - 1;
  std::printf("  %-34s median %10.2f us  p99 %10.2f us  (%zu)\n", what, v[v.size() / 2], v[p99],
              v.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::string in;
  size_t count = 200;
  double resolution = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--in") && i + 1 < argc) in = argv[++i];
    else if (!std::strcmp(argv[i], "--count") && i + 1 < argc) count = std::strtoul(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--resolution") && i + 1 < argc) resolution = std::strtod(argv[++i], nullptr);
    else {
      std::fprintf(stderr, "usage: sov_octree_seed --in FILE.csv [--count N] [--resolution R]\n");
      return 2;
    }
  }
  const std::vector<Row> rows = ReadRows(in, count);
  if (rows.empty()) {
    std::fprintf(stderr, "sov_octree_seed: cannot read %s\n", in.c_str());
    return 1;
  }
  const std::map<long, double> refs = ReadRefs(in.substr(0, in.size() - 4) + ".ref.csv");
  std::vector<double> voxelise, seeded, automatic;
  size_t converged = 0, wrong = 0, auto_wrong = 0;
  for (const Row& r : rows) {
    const sov::Superovoid a(r.v[0], r.v[1], r.v[2], r.v[3], r.v[4], r.v[5], r.v[6]);
    const sov::Superovoid b(r.v[14], r.v[15], r.v[16], r.v[17], r.v[18], r.v[19], r.v[20]);
    const fcl::Transform3<double> ta = Pose(r.v + 7, r.v + 11), tb = Pose(r.v + 21, r.v + 25);
    sov::OctreeSeedOptions opt;
    opt.resolution = resolution > 0 ? resolution
                                    : 0.1 * std::min({r.v[0], r.v[1], r.v[2], r.v[14], r.v[15], r.v[16]});
    auto t0 = Clock::now();
    a.voxels(opt.resolution);
    voxelise.push_back(Us(t0));
    t0 = Clock::now();
    b.voxels(opt.resolution);
    voxelise.push_back(Us(t0));
    t0 = Clock::now();
    const sov::OctreeSeedResult s = sov::octreeSeededDistance(a, ta, b, tb, opt);
    seeded.push_back(Us(t0));
    sov_pose XA, XB;
    sov_pose_from_quat(&XA, r.v + 7, r.v + 11);
    sov_pose_from_quat(&XB, r.v + 21, r.v + 25);
    sov_result ar;
    t0 = Clock::now();
    const int ast = sov_distance(&ar, &a.shape(), &XA, &b.shape(), &XB, nullptr, nullptr);
    automatic.push_back(Us(t0));
    const auto ref = refs.find(r.id);
    if (ref == refs.end()) continue;
    if (ast != SOV_OK || std::fabs(ar.d - ref->second) > 1e-9) ++auto_wrong;
    if (s.status != SOV_OK) continue;
    ++converged;
    if (std::fabs(s.result.d - ref->second) > 1e-9) ++wrong;
  }
  std::printf("pairs: %zu from %s, resolution %s\n", rows.size(), in.c_str(),
              resolution > 0 ? std::to_string(resolution).c_str() : "0.1 x smallest semi-axis");
  std::printf("octImplicit: converged %zu of %zu (%.1f %%), of those off the reference by > 1e-9: %zu\n",
              converged, rows.size(), 100.0 * converged / rows.size(), wrong);
  std::printf("auto: not converged or off by > 1e-9: %zu\n", auto_wrong);
  Print("voxelise one shape (once per shape)", voxelise);
  Print("octImplicit query (voxels cached)", seeded);
  Print("auto query (same run)", automatic);
  return 0;
}
