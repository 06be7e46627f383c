// Shared harness of the benchmark programs (sov_bench_*): timing with warm-up
// and repetitions, order statistics, the machine's state, battery CSVs and
// their references, FCL meshes from sov_shape_tessellate, a progress bar.
// Header-only; every program is one translation unit.
#ifndef BENCHMARKS_BENCH_COMMON_H
#define BENCHMARKS_BENCH_COMMON_H

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>
#include <superovoid/fcl.h>
#include <superovoid/superovoid.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

// What a shape holds (sov_shape_get); a validated shape's, so it cannot fail.
inline sov_shape_info Info(const sov_shape& s) {
  sov_shape_info i{};
  sov_shape_get(&i, &s);
  return i;
}

using Clock = std::chrono::steady_clock;

// Nanoseconds since t0.
inline double ElapsedNs(Clock::time_point t0) {
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

// Median and slowest of one call's timed repetitions, in microseconds.
struct Timing {
  double median_us = NAN, max_us = NAN;
};

// Runs prepare then f once untimed (warm-up), then `repeat` times prepare
// (untimed: e.g. restoring a warm-start cache) and f (timed).
template <class P, class F>
Timing TimeCalls(int repeat, P&& prepare, F&& f) {
  prepare();
  f();
  std::vector<double> t(static_cast<size_t>(repeat));
  for (double& x : t) {
    prepare();
    const auto t0 = Clock::now();
    f();
    x = ElapsedNs(t0) * 1e-3;
  }
  Timing r;
  r.max_us = *std::max_element(t.begin(), t.end());
  std::nth_element(t.begin(), t.begin() + repeat / 2, t.end());
  r.median_us = t[static_cast<size_t>(repeat / 2)];
  return r;
}

// Runs f once untimed (warm-up), then `repeat` timed calls; returns the
// median time of one call in microseconds.
template <class F>
double MedianUs(int repeat, F&& f) {
  const auto nothing = [] {};
  return TimeCalls(repeat, nothing, f).median_us;
}

// Median, mean and 99th percentile of a sample (NaN when empty).
struct Stats {
  double median = NAN, mean = NAN, p99 = NAN, max = NAN;
  size_t n = 0;
};

// Order statistics of v (copied; NaNs dropped).
inline Stats Summarize(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
  Stats s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.median = v[v.size() / 2];
  s.mean = sum / static_cast<double>(v.size());
  s.p99 = v[static_cast<size_t>(std::ceil(0.99 * static_cast<double>(v.size()))) - 1];
  s.max = v.back();
  return s;
}

// The 1-minute load average, or NaN.
inline double LoadAverage() {
  std::ifstream f("/proc/loadavg");
  double l = NAN;
  f >> l;
  return l;
}

// The CPU model from /proc/cpuinfo and the number of online cores.
inline std::string CpuModel() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      std::string m = line.substr(line.find(':') + 1);
      m.erase(0, m.find_first_not_of(' '));
      return m + " (" + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " cores)";
    }
  return "unknown CPU";
}

// UTC time as "YYYY-MM-DD HH:MM:SS".
inline std::string UtcNow() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

// Conditions of one experiment's run, written as key,value rows to
// DIR/NAME_meta.csv: what ran, when, on which CPU, under which load.
class Meta {
 public:
  Meta(std::string dir, std::string name, int argc, char** argv)
      : dir_(std::move(dir)), name_(std::move(name)) {
    std::string cmd;
    for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + std::string(argv[i]);
    Add("command", cmd);
    Add("start_utc", UtcNow());
    Add("cpu", CpuModel());
    Add("load_before", std::to_string(LoadAverage()));
    std::fprintf(stderr, "%s: %s, load %.2f\n", name_.c_str(), CpuModel().c_str(), LoadAverage());
  }
  // Records one more fact.
  void Add(const std::string& key, const std::string& value) { rows_.push_back({key, value}); }
  // Adds the end time and load and writes the file; returns false on error.
  bool Write() {
    Add("end_utc", UtcNow());
    Add("load_after", std::to_string(LoadAverage()));
    std::ofstream f(dir_ + "/" + name_ + "_meta.csv");
    f << "key,value\n";
    for (const auto& r : rows_) f << r.first << ",\"" << r.second << "\"\n";
    return static_cast<bool>(f);
  }

 private:
  std::string dir_, name_;
  std::vector<std::pair<std::string, std::string>> rows_;
};

// A progress bar on stderr: redrawn every 2 % on a terminal, a line at every
// quarter otherwise (logs stay short).
class Progress {
 public:
  Progress(std::string what, size_t total)
      : what_(std::move(what)), total_(total ? total : 1), tty_(isatty(STDERR_FILENO)) {}
  // Marks one more unit done.
  void Step() {
    const size_t pct = 100 * ++done_ / total_;
    const size_t step = tty_ ? 2 : 25;
    if (pct / step == shown_ / step && done_ != total_) return;
    shown_ = pct;
    const int bar = static_cast<int>(pct / 5);
    std::fprintf(stderr, "%s  %-28s [%-20.*s] %3zu%%%s", tty_ ? "\r" : "", what_.c_str(), bar,
                 "####################", pct, tty_ && done_ < total_ ? "" : "\n");
    std::fflush(stderr);
  }

 private:
  std::string what_;
  size_t total_, done_ = 0, shown_ = 0;
  bool tty_;
};

// One battery row: id, then per body 7 shape parameters, a quaternion
// w x y z and a position (SPEC "Battery files").
struct PairRow {
  long id = 0;
  std::array<double, 28> v{};
};

// Reference answer of one pair: d, n, pA, pB.
struct RefRow {
  double d = NAN, n[3] = {NAN, NAN, NAN}, pA[3] = {NAN, NAN, NAN}, pB[3] = {NAN, NAN, NAN};
};

// Parses a CSV of numbers with a header; throws std::runtime_error naming the
// file and line on a malformed row.
inline std::vector<std::vector<double>> ReadNumbers(const std::string& path, size_t cols) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::vector<double>> rows;
  std::string line;
  std::getline(in, line);
  for (long lineno = 2; std::getline(in, line); ++lineno) {
    if (line.empty() || line == "\r") continue;
    std::vector<double> r;
    const char* s = line.c_str();
    char* end = nullptr;
    for (size_t k = 0; k < cols; ++k) {
      r.push_back(std::strtod(s, &end));
      if (end == s || (k + 1 < cols && *end != ',')) break;
      s = end + 1;
    }
    if (r.size() != cols || end == nullptr)
      throw std::runtime_error(path + ":" + std::to_string(lineno) + ": expected " +
                               std::to_string(cols) + " numbers");
    rows.push_back(std::move(r));
  }
  return rows;
}

// A battery and its reference answers by id.
struct Battery {
  std::string name;
  std::vector<PairRow> pairs;
  std::map<long, RefRow> ref;
};

// Reads FILE.csv and FILE.ref.csv; limit > 0 keeps the first `limit` pairs.
inline Battery ReadBattery(const std::string& path, const std::string& name, size_t limit) {
  Battery b;
  b.name = name;
  for (const auto& r : ReadNumbers(path, 29)) {
    if (limit && b.pairs.size() >= limit) break;
    PairRow p;
    p.id = static_cast<long>(r[0]);
    std::copy(r.begin() + 1, r.end(), p.v.begin());
    b.pairs.push_back(p);
  }
  const std::string ref = path.substr(0, path.size() - 4) + ".ref.csv";
  for (const auto& r : ReadNumbers(ref, 11)) {
    RefRow x;
    x.d = r[1];
    for (int i = 0; i < 3; ++i) {
      x.n[i] = r[2 + i];
      x.pA[i] = r[5 + i];
      x.pB[i] = r[8 + i];
    }
    b.ref[static_cast<long>(r[0])] = x;
  }
  return b;
}

// Where the batteries are: the folder given (--data), else the shared data
// folder when it holds them, else the committed subsets under test/data. A
// folder holds either battery_paper.csv (full) or paper_subset.csv (subset,
// which sets *subset); throws when neither is there.
inline std::string DataDir(const std::string& given, bool* subset) {
  const std::vector<std::string> dirs =
      given.empty() ? std::vector<std::string>{SOV_SHARED_DATA_DIR, SOV_TEST_DATA_DIR}
                    : std::vector<std::string>{given};
  for (const std::string& dir : dirs) {
    *subset = false;
    if (std::ifstream(dir + "/battery_paper.csv")) return dir;
    *subset = true;
    if (std::ifstream(dir + "/paper_subset.csv")) return dir;
  }
  throw std::runtime_error("no battery_paper.csv or paper_subset.csv in " + dirs.front());
}

// Path of a battery (paper, stress, contact, ellipsoid) in the data directory;
// the committed subsets hold all four.
inline std::string BatteryPath(const std::string& dir, bool subset, const std::string& which) {
  return dir + (subset ? "/" + which + "_subset.csv" : "/battery_" + which + ".csv");
}

// A validated shape; throws on invalid parameters.
inline sov_shape MakeShape(const double p[7]) {
  sov_shape s;
  const int st = sov_shape_init(&s, p);
  if (st != SOV_OK) throw std::runtime_error(std::string("bad shape: ") + sov_status_string(st));
  return s;
}

// A pose from a quaternion w x y z and a position; throws when invalid.
inline sov_pose MakePose(const double q[4], const double p[3]) {
  sov_pose X;
  const int st = sov_pose_from_quat(&X, q, p);
  if (st != SOV_OK) throw std::runtime_error(std::string("bad pose: ") + sov_status_string(st));
  return X;
}

// FCL transform of a sov_pose.
inline fcl::Transform3d ToFcl(const sov_pose& X) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) tf.linear()(i, j) = X.R[3 * i + j];
    tf.translation()[i] = X.p[i];
  }
  return tf;
}

// sov_pose of a rotation about a unit axis by angle, and a position.
inline sov_pose AxisAnglePose(const double axis[3], double angle, const double p[3]) {
  const double s = std::sin(angle / 2);
  const double q[4] = {std::cos(angle / 2), s * axis[0], s * axis[1], s * axis[2]};
  return MakePose(q, p);
}

// Surface mesh of a shape (local frame), from the one tessellator.
struct Mesh {
  std::vector<fcl::Vector3d> vertices;
  std::vector<fcl::Triangle> triangles;
};

// sov_shape_tessellate with n_lat bands and n_lon segments; throws on error.
inline Mesh Tessellate(const sov_shape& s, int n_lat, int n_lon) {
  size_t nv = 0, nt = 0;
  int st = sov_shape_tessellation_size(&nv, &nt, n_lat, n_lon);
  std::vector<double> v(3 * nv);
  std::vector<int> t(3 * nt);
  if (st == SOV_OK)
    st = sov_shape_tessellate(v.data(), v.size(), t.data(), t.size(), &s, n_lat, n_lon);
  if (st != SOV_OK) throw std::runtime_error(std::string("tessellate: ") + sov_status_string(st));
  Mesh m;
  for (size_t i = 0; i < nv; ++i) m.vertices.emplace_back(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  for (size_t i = 0; i < nt; ++i) m.triangles.emplace_back(t[3 * i], t[3 * i + 1], t[3 * i + 2]);
  return m;
}

// Appends m moved by X (local to the body's frame) to out.
inline void AppendMesh(Mesh* out, const Mesh& m, const sov_pose& X) {
  const size_t base = out->vertices.size();
  for (const auto& v : m.vertices) {
    fcl::Vector3d w;
    for (int i = 0; i < 3; ++i)
      w[i] = X.R[3 * i] * v[0] + X.R[3 * i + 1] * v[1] + X.R[3 * i + 2] * v[2] + X.p[i];
    out->vertices.push_back(w);
  }
  for (const auto& t : m.triangles)
    out->triangles.emplace_back(t[0] + base, t[1] + base, t[2] + base);
}

// An OBBRSS tree over a mesh (FCL's best tree for distance).
inline std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> MeshBvh(const Mesh& m) {
  auto bvh = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
  bvh->beginModel(static_cast<int>(m.triangles.size()), static_cast<int>(m.vertices.size()));
  bvh->addSubModel(m.vertices, m.triangles);
  bvh->endModel();
  return bvh;
}

// FCL Convex polytope on a mesh's vertices and triangles.
inline std::shared_ptr<fcl::Convexd> MeshConvex(const Mesh& m) {
  auto v = std::make_shared<std::vector<fcl::Vector3d>>(m.vertices);
  auto f = std::make_shared<std::vector<int>>();
  for (const auto& t : m.triangles)
    f->insert(f->end(),
              {3, static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])});
  return std::make_shared<fcl::Convexd>(v, static_cast<int>(m.triangles.size()), f);
}

// Formats a double for CSV output (full precision, "nan" for NaN).
inline std::string Num(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

// Exits with status 2 after printing a usage message.
[[noreturn]] inline void Usage(const char* text) {
  std::fprintf(stderr, "%s", text);
  std::exit(2);
}

// Common command line: --out DIR (required unless the program has a
// default), --quick [N] (N: a sample size for programs that take one), --data DIR.
struct Args {
  std::string out, data;
  bool quick = false;
  size_t quick_count = 0;  // N of --quick N, 0 when not given
  std::vector<std::string> rest;
};

// A positive integer spelled in full by s, else 0.
inline size_t PositiveCount(const char* s) {
  char* end = nullptr;
  const long long n = std::strtoll(s, &end, 10);
  return end != s && *end == '\0' && n > 0 ? static_cast<size_t>(n) : 0;
}

// Parses the common options; unknown ones are kept in rest. default_out
// (when not null) stands in for a missing --out.
inline Args ParseArgs(int argc, char** argv, const char* usage, const char* default_out = nullptr) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--out" && i + 1 < argc)
      a.out = argv[++i];
    else if (s == "--data" && i + 1 < argc)
      a.data = argv[++i];
    else if (s == "--quick") {
      a.quick = true;
      if (i + 1 < argc && PositiveCount(argv[i + 1])) a.quick_count = PositiveCount(argv[++i]);
    } else if (s == "--help" || s == "-h") {
      std::printf("%s", usage);
      std::exit(0);
    } else
      a.rest.push_back(s);
  }
  if (a.out.empty() && default_out) a.out = default_out;
  if (a.out.empty()) Usage(usage);
  return a;
}

// Runs a program's body, turning an exception into a message and exit 1.
inline int Guard(int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
}

}  // namespace bench

#endif  // BENCHMARKS_BENCH_COMMON_H
