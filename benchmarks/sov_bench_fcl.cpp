// sov_bench_fcl: issue 29's side-by-side benchmark. Every target of that
// issue is a ratio against FCL timed in the same run, pair by pair, because
// this machine's speed drifts 2-3x between days: absolute times cannot show
// progress, ratios taken in one loop iteration can.
//
// Per battery and per pair, one after the other in the same iteration:
//   (1) sov_distance, cold (no cache)
//   (2) sov_collide, cold
//   (3) fcl::distance, signed (GJK/EPA, libccd: FCL's default GST_LIBCCD)
//       on the two 290-vertex fcl::Convex hulls of sov_shape_tessellate
//   (4) fcl::collide, boolean (one contact, no contact data), same hulls
//   (5) ellipsoid battery only: fcl::distance, signed, on fcl::Ellipsoid
// then warm starts: each pair moved along a smooth small-step rigid motion,
// sov_distance cold and warm (cache of the previous step) at every pose,
// and sov_collide cold and warm (a cache of its own, as a collide-only
// caller keeps).
// Our answers are checked against FILE.ref.csv (|d - d_ref| <= 1e-9), warm
// against cold; every method's verdict (overlapping or not) against the
// reference's sign. The hulls lie inside the bodies, so FCL on them answers
// a different (polytope) question: its verdict errors are reported, not
// excused.
#include <fcl/geometry/shape/ellipsoid.h>
#include <setjmp.h>
#include <signal.h>

#include <filesystem>
#include <random>

#include "bench_common.h"

namespace {

const char kUsage[] =
    "usage: sov_bench_fcl [--out DIR] [--data DIR] [--batteries LIST] [--repeat R]\n"
    "                     [--quick [N]] [--warm-steps S] [--warm-pairs M]\n"
    "Per battery (LIST: comma-separated of paper,stress,contact,ellipsoid; default\n"
    "all four) and per pair, interleaved: sov_distance and sov_collide cold against\n"
    "FCL's signed distance (libccd GJK/EPA) and boolean collide on 290-vertex\n"
    "fcl::Convex hulls, and FCL's native fcl::Ellipsoid on the ellipsoid battery;\n"
    "then warm against cold sov_distance and sov_collide (each with its own cache)\n"
    "along S-step motions of the first M pairs\n"
    "(default 20 steps, every pair). R timed calls per measurement after one\n"
    "warm-up, median kept (default 5). --quick [N]: N pairs per battery (default\n"
    "30), R = 3, 5 steps. --data: default ../shared/data beside the source tree,\n"
    "else test/data's subsets. --out: default\n"
    "build/benchmarks/fcl_results. Writes DIR/fcl_BATTERY_pairs.csv,\n"
    "DIR/fcl_BATTERY_warm.csv, DIR/fcl_summary.csv and DIR/fcl_meta.csv.\n"
    "Exit 3 when one of our answers is refused, off the reference by > 1e-9, or\n"
    "warm differs from cold by > 1e-9 or in a collide's verdict (timings never fail\n"
    "it).\n";

constexpr int kLat = 13, kLon = 24;  // 290 vertices, sov_bench_battery's FCL hulls
constexpr double kTol = 1e-9;        // SPEC accuracy, and warm against cold
constexpr int kWarmSteps = 20, kQuickWarmSteps = 5;
constexpr double kWarmAngle = 1e-3;  // rad per step, about a random axis
constexpr double kWarmShift = 1e-3;  // per step, times the pair's size (PairSize)
constexpr size_t kQuickPairs = 30;
constexpr double kSlowUs = 1000;  // issue 29: no single query over 1 ms
constexpr uint64_t kMotionSeed = 0x5eedf0c1a29ull;
const char* const kAllBatteries[] = {"paper", "stress", "contact", "ellipsoid"};

// The measured queries, in the order they run on each pair.
enum Method { kDist, kCollide, kFclDist, kFclCollide, kFclEll, kMethods };
const char* const kMethodNames[kMethods] = {
    "(1) sov_distance cold", "(2) sov_collide cold", "(3) FCL distance, 290-v hulls",
    "(4) FCL collide, 290-v hulls", "(5) FCL distance, fcl::Ellipsoid"};
const char* const kMethodKeys[kMethods] = {"distance", "collide", "fcl_distance", "fcl_collide",
                                           "fcl_ellipsoid"};

// Command line.
struct Options {
  bench::Args common;
  std::vector<std::string> batteries;
  int repeat = 5, warm_steps = kWarmSteps;
  size_t limit = 0, warm_pairs = 0;  // pairs per battery, 0 = all
};

// Splits "a,b,c" at the commas; throws on a battery name not in kAllBatteries.
std::vector<std::string> BatteryList(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (std::find(std::begin(kAllBatteries), std::end(kAllBatteries), name) ==
        std::end(kAllBatteries))
      throw std::runtime_error("unknown battery '" + name + "' (--batteries)");
    out.push_back(name);
  }
  return out;
}

// Parses the command line (kUsage); exits 2 on a bad option.
Options ParseOptions(int argc, char** argv) {
  Options o;
  o.common = bench::ParseArgs(argc, argv, kUsage, SOV_FCL_RESULTS_DIR);
  o.batteries.assign(std::begin(kAllBatteries), std::end(kAllBatteries));
  if (o.common.quick) {
    o.repeat = 3;
    o.warm_steps = kQuickWarmSteps;
    o.limit = o.common.quick_count ? o.common.quick_count : kQuickPairs;
  }
  const auto& r = o.common.rest;
  for (size_t i = 0; i < r.size(); ++i) {
    const bool has_value = i + 1 < r.size();
    if (r[i] == "--batteries" && has_value)
      o.batteries = BatteryList(r[++i]);
    else if (r[i] == "--repeat" && has_value && bench::PositiveCount(r[i + 1].c_str()))
      o.repeat = static_cast<int>(bench::PositiveCount(r[++i].c_str()));
    else if (r[i] == "--warm-steps" && has_value && bench::PositiveCount(r[i + 1].c_str()))
      o.warm_steps = static_cast<int>(bench::PositiveCount(r[++i].c_str()));
    else if (r[i] == "--warm-pairs" && has_value && bench::PositiveCount(r[i + 1].c_str()))
      o.warm_pairs = bench::PositiveCount(r[++i].c_str());
    else
      bench::Usage(kUsage);
  }
  return o;
}

// FCL's GJK/EPA may assert (Debian keeps asserts) or fault on degenerate
// input. A signal raised inside a guarded FCL call jumps back here so that
// the pair is skipped for FCL with a note instead of ending the run. A
// handler has no other way in than globals; the program is single-threaded.
sigjmp_buf g_fcl_return;
volatile sig_atomic_t g_in_fcl = 0;

// Signal handler: back into Guarded when inside FCL, else the default action.
extern "C" void OnFclSignal(int sig) {
  if (g_in_fcl) {
    g_in_fcl = 0;
    siglongjmp(g_fcl_return, sig);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

// Installs OnFclSignal for what a failed assert or a bad access raises.
void InstallFclGuard() {
  struct sigaction sa {};
  sa.sa_handler = OnFclSignal;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGABRT, SIGSEGV, SIGFPE, SIGBUS}) sigaction(s, &sa, nullptr);
}

// Runs f (FCL calls); returns "" or why it failed (a signal or an exception).
// After a signal, what FCL had allocated in that call leaks: FCL keeps no
// global state, so the next pair is unaffected.
template <class F>
std::string Guarded(F&& f) {
  const int sig = sigsetjmp(g_fcl_return, 1);
  if (sig != 0) return std::string("signal: ") + strsignal(sig);
  g_in_fcl = 1;
  try {
    f();
  } catch (const std::exception& e) {
    g_in_fcl = 0;
    return std::string("exception: ") + e.what();
  }
  g_in_fcl = 0;
  return "";
}

// The bodies of one pair: the core's shapes and poses, FCL's hulls and, for
// the ellipsoid battery, FCL's native ellipsoids.
struct Bodies {
  sov_shape A, B;
  sov_pose XA, XB;
  std::unique_ptr<fcl::CollisionObjectd> hull_a, hull_b, ell_a, ell_b;
};

// FCL object of a geometry at a core pose.
std::unique_ptr<fcl::CollisionObjectd> FclObject(const std::shared_ptr<fcl::CollisionGeometryd>& g,
                                                 const sov_pose& X) {
  return std::make_unique<fcl::CollisionObjectd>(g, bench::ToFcl(X));
}

// Builds a battery row's bodies (hulls with kLat x kLon bands).
Bodies MakeBodies(const bench::PairRow& r, bool ellipsoids) {
  Bodies b;
  b.A = bench::MakeShape(r.v.data());
  b.B = bench::MakeShape(r.v.data() + 14);
  b.XA = bench::MakePose(r.v.data() + 7, r.v.data() + 11);
  b.XB = bench::MakePose(r.v.data() + 21, r.v.data() + 25);
  b.hull_a = FclObject(bench::MeshConvex(bench::Tessellate(b.A, kLat, kLon)), b.XA);
  b.hull_b = FclObject(bench::MeshConvex(bench::Tessellate(b.B, kLat, kLon)), b.XB);
  if (ellipsoids) {
    b.ell_a = FclObject(std::make_shared<fcl::Ellipsoidd>(r.v[0], r.v[1], r.v[2]), b.XA);
    b.ell_b = FclObject(std::make_shared<fcl::Ellipsoidd>(r.v[14], r.v[15], r.v[16]), b.XB);
  }
  return b;
}

// What every method gave on one pair; NaN / -1 where it gave nothing.
struct PairOutcome {
  long id = 0;
  double d_ref = NAN;
  int status = SOV_OK, collide_status = SOV_OK;
  double d = NAN, fcl_d = NAN, ell_d = NAN;
  int colliding = -1, fcl_colliding = -1;
  bench::Timing t[kMethods];
  std::string fcl_note;  // why FCL was skipped on this pair, "" when it was not
};

// (1) and (2): our distance and boolean collide, cold, default options.
void MeasureCore(PairOutcome* o, const Bodies& b, int repeat) {
  sov_options opt;
  sov_options_default(&opt);
  sov_result r{};
  int colliding = -1;
  o->t[kDist] = bench::TimeCalls(
      repeat, [] {},
      [&] { o->status = sov_distance(&r, &b.A, &b.XA, &b.B, &b.XB, &opt, nullptr); });
  o->t[kCollide] = bench::TimeCalls(
      repeat, [] {},
      [&] {
        o->collide_status = sov_collide(&colliding, &b.A, &b.XA, &b.B, &b.XB, &opt, nullptr);
      });
  if (o->status == SOV_OK) o->d = r.d;
  if (o->collide_status == SOV_OK) o->colliding = colliding;
}

// Appends "what: why" to a pair's FCL note when why is not empty.
void Note(std::string* note, const char* what, const std::string& why) {
  if (!why.empty()) *note += std::string(note->empty() ? "" : "; ") + what + " " + why;
}

// FCL's signed distance of two objects (libccd GJK/EPA), timed; *d stays NaN
// when FCL failed, with a note.
bench::Timing FclDistance(double* d, std::string* note, const char* what,
                          const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b,
                          int repeat) {
  fcl::DistanceRequestd req;
  req.enable_signed_distance = true;
  req.enable_nearest_points = true;  // ours always returns witnesses too
  req.gjk_solver_type = fcl::GST_LIBCCD;
  fcl::DistanceResultd res;
  bench::Timing t;
  double out = NAN;
  Note(note, what, Guarded([&] {
         t = bench::TimeCalls(
             repeat, [&] { res.clear(); }, [&] { out = fcl::distance(&a, &b, req, res); });
       }));
  if (!std::isnan(t.median_us)) *d = out;
  return t;
}

// FCL's boolean collide of two objects (one contact, no contact data), timed.
bench::Timing FclCollide(int* colliding, std::string* note, const fcl::CollisionObjectd& a,
                         const fcl::CollisionObjectd& b, int repeat) {
  fcl::CollisionRequestd req(1, false);
  req.gjk_solver_type = fcl::GST_LIBCCD;
  fcl::CollisionResultd res;
  bench::Timing t;
  Note(note, "collide", Guarded([&] {
         t = bench::TimeCalls(
             repeat, [&] { res.clear(); }, [&] { fcl::collide(&a, &b, req, res); });
       }));
  if (!std::isnan(t.median_us)) *colliding = res.isCollision();
  return t;
}

// Runs the four (five) methods on one pair, in order, in one go.
PairOutcome MeasurePair(const bench::PairRow& row, double d_ref, bool ellipsoids, int repeat) {
  const Bodies b = MakeBodies(row, ellipsoids);
  PairOutcome o;
  o.id = row.id;
  o.d_ref = d_ref;
  MeasureCore(&o, b, repeat);
  o.t[kFclDist] = FclDistance(&o.fcl_d, &o.fcl_note, "distance", *b.hull_a, *b.hull_b, repeat);
  o.t[kFclCollide] = FclCollide(&o.fcl_colliding, &o.fcl_note, *b.hull_a, *b.hull_b, repeat);
  if (ellipsoids)
    o.t[kFclEll] = FclDistance(&o.ell_d, &o.fcl_note, "ellipsoid", *b.ell_a, *b.ell_b, repeat);
  return o;
}

// A method's verdict on a pair: 1 overlapping, 0 apart, -1 no answer.
int Verdict(const PairOutcome& o, Method m) {
  const double d = m == kDist ? o.d : m == kFclDist ? o.fcl_d : o.ell_d;
  if (m == kCollide) return o.colliding;
  if (m == kFclCollide) return o.fcl_colliding;
  return std::isnan(d) ? -1 : d <= 0;
}

// True when our distance is refused or off the reference by more than kTol.
bool OursWrong(const PairOutcome& o) {
  return o.status != SOV_OK || !(std::fabs(o.d - o.d_ref) <= kTol);
}

// One pair's row of the per-pair CSV.
void WritePairRow(std::ostream& f, const PairOutcome& o) {
  f << o.id << ',' << bench::Num(o.d_ref) << ',' << o.status << ',' << bench::Num(o.d) << ','
    << bench::Num(std::fabs(o.d - o.d_ref)) << ',' << o.collide_status << ',' << o.colliding << ','
    << bench::Num(o.fcl_d) << ',' << o.fcl_colliding << ',' << bench::Num(o.ell_d);
  for (const bench::Timing& t : o.t) f << ',' << bench::Num(t.median_us);
  f << ',' << bench::Num(o.t[kDist].max_us) << ',' << bench::Num(o.t[kCollide].max_us) << ",\""
    << o.fcl_note << "\"\n";
}

// Header of the per-pair CSV (WritePairRow).
const char kPairHeader[] =
    "id,d_ref,status,d,err,collide_status,colliding,fcl_d,fcl_colliding,fcl_ellipsoid_d,"
    "distance_us,collide_us,fcl_distance_us,fcl_collide_us,fcl_ellipsoid_us,"
    "distance_max_us,collide_max_us,fcl_note\n";

// The size a motion's steps scale with: the smaller body's largest
// semi-axis, so that a step is equally small on unit and robot-scale pairs.
double PairSize(const bench::PairRow& r) {
  return std::min(std::max({r.v[0], r.v[1], r.v[2]}), std::max({r.v[14], r.v[15], r.v[16]}));
}

// A random unit vector.
std::array<double, 3> RandomUnit(std::mt19937_64* rng) {
  std::normal_distribution<double> g;
  for (;;) {
    std::array<double, 3> u = {g(*rng), g(*rng), g(*rng)};
    const double n = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (n > 1e-3) return {u[0] / n, u[1] / n, u[2] / n};
  }
}

// A smooth rigid motion of both bodies: each turns about its own centre
// around a fixed random axis and travels along a fixed random direction,
// by the same small amount at every step (constant velocities).
struct Motion {
  std::array<double, 3> axis[2], dir[2];
  double shift = 0;  // length per step
};

// The motion of a battery row (seeded by its id: reruns move alike).
Motion MakeMotion(const bench::PairRow& r) {
  std::mt19937_64 rng(kMotionSeed ^ static_cast<uint64_t>(r.id));
  Motion m;
  for (int k = 0; k < 2; ++k) {
    m.axis[k] = RandomUnit(&rng);
    m.dir[k] = RandomUnit(&rng);
  }
  m.shift = kWarmShift * PairSize(r);
  return m;
}

// Pose of body k (0 = A, 1 = B) after `step` steps of the motion:
// q = rotation(step * kWarmAngle about the axis) * q0, p = p0 + step * shift * dir.
sov_pose MovedPose(const bench::PairRow& r, int k, const Motion& m, int step) {
  const double* q0 = r.v.data() + 14 * k + 7;
  const double* p0 = r.v.data() + 14 * k + 11;
  const double s = std::sin(step * kWarmAngle / 2), c = std::cos(step * kWarmAngle / 2);
  const double a[4] = {c, s * m.axis[k][0], s * m.axis[k][1], s * m.axis[k][2]};
  const double q[4] = {a[0] * q0[0] - a[1] * q0[1] - a[2] * q0[2] - a[3] * q0[3],
                       a[0] * q0[1] + a[1] * q0[0] + a[2] * q0[3] - a[3] * q0[2],
                       a[0] * q0[2] - a[1] * q0[3] + a[2] * q0[0] + a[3] * q0[1],
                       a[0] * q0[3] + a[1] * q0[2] - a[2] * q0[1] + a[3] * q0[0]};
  double p[3];
  for (int i = 0; i < 3; ++i) p[i] = p0[i] + step * m.shift * m.dir[k][i];
  return bench::MakePose(q, p);
}

// Warm against cold along the motions of one battery: sov_distance, and
// sov_collide with a cache of its own (a collide-only caller's).
struct WarmReport {
  size_t pairs = 0, queries = 0, refused = 0, mismatched = 0;
  double max_diff = 0;
  std::vector<double> cold_us, warm_us, speedup;
  size_t collide_refused = 0, collide_mismatched = 0;
  std::vector<double> collide_cold_us, collide_warm_us, collide_speedup;
};

// Times one step's collide cold, then warm from *cache (left holding the
// warm query's cache for the next step); records both and their agreement.
// Returns the two verdicts for the CSV.
std::pair<int, int> MeasureCollideStep(WarmReport* w, sov_cache* cache, const sov_shape& A,
                                       const sov_pose& XA, const sov_shape& B,
                                       const sov_pose& XB, int repeat) {
  int cold = -1, warm = -1, sc = SOV_OK, sw = SOV_OK;
  sov_cache c;
  const bench::Timing tc = bench::TimeCalls(
      repeat, [] {}, [&] { sc = sov_collide(&cold, &A, &XA, &B, &XB, nullptr, nullptr); });
  const bench::Timing tw = bench::TimeCalls(
      repeat, [&] { c = *cache; }, [&] { sw = sov_collide(&warm, &A, &XA, &B, &XB, nullptr, &c); });
  *cache = c;
  w->collide_refused += sc != SOV_OK || sw != SOV_OK;
  w->collide_mismatched += sc == SOV_OK && sw == SOV_OK && cold != warm;
  w->collide_cold_us.push_back(tc.median_us);
  w->collide_warm_us.push_back(tw.median_us);
  w->collide_speedup.push_back(tc.median_us / tw.median_us);
  return {cold, warm};
}

// Times one step's pose cold, then warm from *cache (left holding the warm
// answer's cache for the next step); records both and their agreement; then
// the collide's (MeasureCollideStep, its own cache in *collide_cache).
void MeasureStep(WarmReport* w, std::ostream& csv, sov_cache* cache, sov_cache* collide_cache,
                 long id, int step, const sov_shape& A, const sov_pose& XA, const sov_shape& B,
                 const sov_pose& XB, int repeat) {
  sov_options cold, warm;
  sov_options_default(&cold);
  warm = cold;
  warm.seed = SOV_SEED_CACHE;
  sov_result rc{}, rw{};
  int sc = SOV_OK, sw = SOV_OK;
  sov_cache c;
  const bench::Timing tc = bench::TimeCalls(
      repeat, [] {}, [&] { sc = sov_distance(&rc, &A, &XA, &B, &XB, &cold, nullptr); });
  const bench::Timing tw = bench::TimeCalls(
      repeat, [&] { c = *cache; }, [&] { sw = sov_distance(&rw, &A, &XA, &B, &XB, &warm, &c); });
  *cache = c;
  const double diff = std::fabs(rw.d - rc.d);
  ++w->queries;
  w->refused += sc != SOV_OK || sw != SOV_OK;
  w->mismatched += sc == SOV_OK && sw == SOV_OK && !(diff <= kTol);
  if (sc == SOV_OK && sw == SOV_OK) w->max_diff = std::max(w->max_diff, diff);
  w->cold_us.push_back(tc.median_us);
  w->warm_us.push_back(tw.median_us);
  w->speedup.push_back(tc.median_us / tw.median_us);
  const std::pair<int, int> v = MeasureCollideStep(w, collide_cache, A, XA, B, XB, repeat);
  csv << id << ',' << step << ',' << sc << ',' << sw << ',' << bench::Num(rc.d) << ','
      << bench::Num(rw.d) << ',' << bench::Num(tc.median_us) << ',' << bench::Num(tw.median_us)
      << ',' << v.first << ',' << v.second << ',' << bench::Num(w->collide_cold_us.back()) << ','
      << bench::Num(w->collide_warm_us.back()) << '\n';
}

// Moves one pair along its motion: a cold solve at the start fills the
// cache (and a cold collide the collide's), then every step is timed cold
// and warm (MeasureStep).
void MeasureMotion(WarmReport* w, std::ostream& csv, const bench::PairRow& r, int steps,
                   int repeat) {
  const sov_shape A = bench::MakeShape(r.v.data()), B = bench::MakeShape(r.v.data() + 14);
  const Motion m = MakeMotion(r);
  sov_cache cache, collide_cache;
  sov_cache_reset(&cache);
  sov_cache_reset(&collide_cache);
  sov_result first{};
  int colliding = 0;
  const sov_pose XA0 = MovedPose(r, 0, m, 0), XB0 = MovedPose(r, 1, m, 0);
  sov_distance(&first, &A, &XA0, &B, &XB0, nullptr, &cache);
  sov_collide(&colliding, &A, &XA0, &B, &XB0, nullptr, &collide_cache);
  for (int s = 1; s <= steps; ++s) {
    const sov_pose XA = MovedPose(r, 0, m, s), XB = MovedPose(r, 1, m, s);
    MeasureStep(w, csv, &cache, &collide_cache, r.id, s, A, XA, B, XB, repeat);
  }
  ++w->pairs;
}

// Everything measured on one battery.
struct BatteryReport {
  std::string name;
  bool ellipsoids = false;
  std::vector<PairOutcome> pairs;
  WarmReport warm;
};

// Per-pair median times of method m, NaN where `with` was not measured (so
// that both sides of a ratio cover the same pairs).
std::vector<double> Times(const std::vector<PairOutcome>& v, Method m, Method with) {
  std::vector<double> t;
  for (const PairOutcome& o : v)
    t.push_back(std::isnan(o.t[with].median_us) ? NAN : o.t[m].median_us);
  return t;
}

// Per-pair ratios num / den where both were measured.
std::vector<double> PairRatios(const std::vector<PairOutcome>& v, Method num, Method den) {
  std::vector<double> r;
  for (const PairOutcome& o : v) r.push_back(o.t[num].median_us / o.t[den].median_us);
  return r;
}

// Long-format summary rows: battery,metric,value.
struct Summary {
  std::ofstream csv;
  // Records one figure.
  void Add(const std::string& battery, const std::string& metric, double value) {
    csv << battery << ',' << metric << ',' << bench::Num(value) << '\n';
  }
};

// Share of n in total, in percent.
double Percent(size_t n, size_t total) {
  return total ? 100.0 * n / total : NAN;
}

// Prints and records the times and verdict errors of every method.
void ReportMethods(Summary* s, const BatteryReport& b) {
  std::printf("| method | median us | p99 us | max us (per-pair median) | verdict errors |\n");
  std::printf("|---|---|---|---|---|\n");
  for (int m = 0; m < kMethods; ++m) {
    if (m == kFclEll && !b.ellipsoids) continue;
    const bench::Stats t = bench::Summarize(Times(b.pairs, Method(m), Method(m)));
    size_t wrong = 0, none = 0;
    for (const PairOutcome& o : b.pairs) {
      const int v = Verdict(o, Method(m));
      none += v < 0;
      wrong += v >= 0 && v != (o.d_ref <= 0);
    }
    std::printf("| %s | %.3g | %.3g | %.3g | %zu (%.2f %%)%s |\n", kMethodNames[m], t.median, t.p99,
                t.max, wrong, Percent(wrong, b.pairs.size() - none),
                none ? (", " + std::to_string(none) + " no answer").c_str() : "");
    const std::string k = kMethodKeys[m];
    s->Add(b.name, k + "_median_us", t.median);
    s->Add(b.name, k + "_p99_us", t.p99);
    s->Add(b.name, k + "_max_us", t.max);
    s->Add(b.name, k + "_verdict_errors", static_cast<double>(wrong));
    s->Add(b.name, k + "_no_answer", static_cast<double>(none));
  }
}

// Prints and records the ratio ours / FCL of one pair of methods.
void ReportRatio(Summary* s, const BatteryReport& b, const char* what, Method ours, Method theirs) {
  const bench::Stats o = bench::Summarize(Times(b.pairs, ours, theirs)),
                     f = bench::Summarize(Times(b.pairs, theirs, ours)),
                     r = bench::Summarize(PairRatios(b.pairs, ours, theirs));
  std::printf("| %s | %.3g | %.3g | %.3g | %zu |\n", what, o.median / f.median, o.p99 / f.p99,
              r.median, r.n);
  const std::string k = std::string(kMethodKeys[ours]) + "_over_" + kMethodKeys[theirs];
  s->Add(b.name, k + "_of_medians", o.median / f.median);
  s->Add(b.name, k + "_of_p99", o.p99 / f.p99);
  s->Add(b.name, k + "_median_per_pair", r.median);
}

// Prints and records our slowest queries: the bound is 1 ms a query.
// A pair's median of R calls is its cost; a single call's time also holds
// whatever preempted it on a shared machine.
void ReportSlowest(Summary* s, const BatteryReport& b) {
  size_t over[2] = {0, 0};
  double max_call[2] = {0, 0};
  for (const PairOutcome& o : b.pairs)
    for (int m : {kDist, kCollide}) {
      over[m] += o.t[m].median_us > kSlowUs;
      max_call[m] = std::max(max_call[m], o.t[m].max_us);
    }
  std::printf(
      "ours over %.0f us (pair's median): distance %zu, collide %zu pairs; slowest single "
      "timed call (preemption included): distance %.4g us, collide %.4g us\n",
      kSlowUs, over[0], over[1], max_call[0], max_call[1]);
  s->Add(b.name, "distance_pairs_over_1ms", static_cast<double>(over[0]));
  s->Add(b.name, "collide_pairs_over_1ms", static_cast<double>(over[1]));
  s->Add(b.name, "distance_max_call_us", max_call[0]);
  s->Add(b.name, "collide_max_call_us", max_call[1]);
}

// Prints and records our accuracy and FCL's errors and skips.
void ReportChecks(Summary* s, const BatteryReport& b) {
  size_t wrong = 0, refused = 0, skipped = 0, ell_wrong_sign = 0;
  double max_err = 0;
  std::vector<double> fcl_err, ell_err;
  for (const PairOutcome& o : b.pairs) {
    wrong += OursWrong(o);
    refused += o.status != SOV_OK || o.collide_status != SOV_OK;
    if (o.status == SOV_OK) max_err = std::max(max_err, std::fabs(o.d - o.d_ref));
    skipped += !o.fcl_note.empty();
    fcl_err.push_back(std::fabs(o.fcl_d - o.d_ref));
    ell_err.push_back(std::fabs(o.ell_d - o.d_ref));
    ell_wrong_sign +=
        b.ellipsoids && Verdict(o, kFclEll) >= 0 && Verdict(o, kFclEll) != (o.d_ref <= 0);
  }
  std::printf(
      "\nours: %zu of %zu pairs refused or off the reference by > %.0e (max |d - d_ref| "
      "%.2g); refusals (distance or collide): %zu\n",
      wrong, b.pairs.size(), kTol, max_err, refused);
  std::printf("FCL hulls: |d - d_ref| median %.2g; pairs skipped for FCL: %zu\n",
              bench::Summarize(fcl_err).median, skipped);
  if (b.ellipsoids)
    std::printf(
        "FCL fcl::Ellipsoid: |d - d_ref| median %.2g, max %.2g; wrong sign on %zu "
        "pairs (%.2f %%)\n",
        bench::Summarize(ell_err).median, bench::Summarize(ell_err).max, ell_wrong_sign,
        Percent(ell_wrong_sign, b.pairs.size()));
  s->Add(b.name, "pairs", static_cast<double>(b.pairs.size()));
  s->Add(b.name, "ours_wrong_or_refused", static_cast<double>(wrong));
  s->Add(b.name, "ours_max_err", max_err);
  s->Add(b.name, "fcl_skipped_pairs", static_cast<double>(skipped));
  s->Add(b.name, "fcl_hull_err_median", bench::Summarize(fcl_err).median);
  if (b.ellipsoids) s->Add(b.name, "fcl_ellipsoid_err_median", bench::Summarize(ell_err).median);
}

// The p-th percentile (0..1) of v.
double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
}

// Records a cold against warm comparison under prefix: each side's median
// and p99, and the speedups (of medians, of p99s, per query median).
void AddColdWarm(Summary* s, const std::string& battery, const std::string& prefix,
                 const bench::Stats& cold, const bench::Stats& warm,
                 const std::vector<double>& speedup) {
  s->Add(battery, prefix + "cold_median_us", cold.median);
  s->Add(battery, prefix + "cold_p99_us", cold.p99);
  s->Add(battery, prefix + "warm_median_us", warm.median);
  s->Add(battery, prefix + "warm_p99_us", warm.p99);
  s->Add(battery, prefix + "speedup_of_medians", cold.median / warm.median);
  s->Add(battery, prefix + "speedup_of_p99", cold.p99 / warm.p99);
  s->Add(battery, prefix + "speedup_median_per_query", Percentile(speedup, 0.5));
}

// Prints and records warm against cold.
void ReportWarm(Summary* s, const BatteryReport& b, int steps) {
  const WarmReport& w = b.warm;
  if (w.queries == 0) return;
  const bench::Stats c = bench::Summarize(w.cold_us), h = bench::Summarize(w.warm_us);
  std::printf(
      "\nwarm starts: %zu pairs x %d steps (%.0e rad and %.0e x size a step): cold "
      "median %.3g / p99 %.3g us, warm %.3g / %.3g us\n",
      w.pairs, steps, kWarmAngle, kWarmShift, c.median, c.p99, h.median, h.p99);
  std::printf(
      "cold/warm: of medians %.3g, of p99s %.3g; per query: median %.3g, "
      "1st percentile %.3g, 99th %.3g\n",
      c.median / h.median, c.p99 / h.p99, Percentile(w.speedup, 0.5), Percentile(w.speedup, 0.01),
      Percentile(w.speedup, 0.99));
  std::printf("warm against cold: %zu of %zu queries differ by > %.0e (max %.2g), %zu refused\n",
              w.mismatched, w.queries, kTol, w.max_diff, w.refused);
  AddColdWarm(s, b.name, "warm_", c, h, w.speedup);
  s->Add(b.name, "warm_speedup_p01_per_query", Percentile(w.speedup, 0.01));
  s->Add(b.name, "warm_mismatched", static_cast<double>(w.mismatched));
  s->Add(b.name, "warm_refused", static_cast<double>(w.refused));
  const bench::Stats cc = bench::Summarize(w.collide_cold_us),
                     cw = bench::Summarize(w.collide_warm_us);
  std::printf(
      "collide along the same motions, its own cache: cold median %.3g / p99 %.3g us, warm "
      "%.3g / %.3g us; cold/warm: of medians %.3g, of p99s %.3g, per query median %.3g\n",
      cc.median, cc.p99, cw.median, cw.p99, cc.median / cw.median, cc.p99 / cw.p99,
      Percentile(w.collide_speedup, 0.5));
  std::printf("collide warm against cold: %zu of %zu verdicts differ, %zu refused\n",
              w.collide_mismatched, w.queries, w.collide_refused);
  AddColdWarm(s, b.name, "warm_collide_", cc, cw, w.collide_speedup);
  s->Add(b.name, "warm_collide_mismatched", static_cast<double>(w.collide_mismatched));
  s->Add(b.name, "warm_collide_refused", static_cast<double>(w.collide_refused));
}

// Prints one battery's report (markdown tables, ready for RESULTS.md).
void Report(Summary* s, const BatteryReport& b, const Options& opt) {
  std::printf("\n## %s: %zu pairs, median of %d timed calls per pair and method\n\n",
              b.name.c_str(), b.pairs.size(), opt.repeat);
  ReportMethods(s, b);
  std::printf(
      "\n| ours / FCL | ratio of medians | ratio of p99s | median of per-pair "
      "ratios | pairs |\n|---|---|---|---|---|\n");
  ReportRatio(s, b, "distance (1)/(3)", kDist, kFclDist);
  ReportRatio(s, b, "collide (2)/(4)", kCollide, kFclCollide);
  if (b.ellipsoids) ReportRatio(s, b, "ellipsoid distance (1)/(5)", kDist, kFclEll);
  ReportChecks(s, b);
  ReportSlowest(s, b);
  ReportWarm(s, b, opt.warm_steps);
  std::fflush(stdout);
}

// Runs one battery: every pair interleaved, then the motions; writes its CSVs.
BatteryReport RunBattery(const bench::Battery& bat, const Options& opt, const std::string& out) {
  BatteryReport rep;
  rep.name = bat.name;
  rep.ellipsoids = bat.name == "ellipsoid";
  std::ofstream pairs(out + "/fcl_" + bat.name + "_pairs.csv");
  pairs << kPairHeader;
  bench::Progress progress(bat.name + " pairs", bat.pairs.size());
  for (const bench::PairRow& row : bat.pairs) {
    const auto ref = bat.ref.find(row.id);
    if (ref == bat.ref.end())
      throw std::runtime_error("no reference for id " + std::to_string(row.id));
    rep.pairs.push_back(MeasurePair(row, ref->second.d, rep.ellipsoids, opt.repeat));
    const PairOutcome& o = rep.pairs.back();
    WritePairRow(pairs, o);
    if (!o.fcl_note.empty())
      std::fprintf(stderr, "\n%s id %ld skipped for FCL: %s\n", bat.name.c_str(), o.id,
                   o.fcl_note.c_str());
    if (OursWrong(o))
      std::fprintf(stderr, "\n%s id %ld: ours wrong (status %d, d %.17g, d_ref %.17g)\n",
                   bat.name.c_str(), o.id, o.status, o.d, o.d_ref);
    progress.Step();
  }
  std::ofstream warm(out + "/fcl_" + bat.name + "_warm.csv");
  warm << "id,step,cold_status,warm_status,d_cold,d_warm,cold_us,warm_us,collide_cold,"
          "collide_warm,collide_cold_us,collide_warm_us\n";
  const size_t n = opt.warm_pairs ? std::min(opt.warm_pairs, bat.pairs.size()) : bat.pairs.size();
  bench::Progress moving(bat.name + " motions", n);
  for (size_t k = 0; k < n; ++k) {
    MeasureMotion(&rep.warm, warm, bat.pairs[k], opt.warm_steps, opt.repeat);
    moving.Step();
  }
  if (!pairs || !warm) throw std::runtime_error("cannot write to " + out);
  return rep;
}

// First line of a shell command's output, "" when it failed.
std::string ShellLine(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "";
  char buf[256] = "";
  const bool got = std::fgets(buf, sizeof buf, p) != nullptr;
  pclose(p);
  std::string s = got ? buf : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// The source tree's commit, marked when its working tree differs.
std::string SourceCommit() {
  const std::string git = "git -C '" SOV_SOURCE_DIR "' ";
  std::string c = ShellLine(git + "rev-parse --short HEAD 2>/dev/null");
  if (c.empty()) return "unknown";
  if (std::system((git + "diff --quiet HEAD -- 2>/dev/null").c_str()) != 0)
    c += " (working tree differs)";
  return c;
}

// The 1, 5 and 15 minute load averages.
std::string LoadAverages() {
  std::ifstream f("/proc/loadavg");
  double l[3] = {NAN, NAN, NAN};
  f >> l[0] >> l[1] >> l[2];
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f / %.2f / %.2f (1, 5, 15 min)", l[0], l[1], l[2]);
  return buf;
}

// Prints the command and the machine's state, as run_battery.sh does, and
// records them.
void PrintConditions(bench::Meta* meta, int argc, char** argv, const Options& o,
                     const std::string& dir) {
  std::string cmd;
  for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + std::string(argv[i]);
  const std::string commit = SourceCommit();
  std::printf("command: %s\ndate:    %s UTC\ncommit:  %s\ncpu:     %s\nload:    %s\n", cmd.c_str(),
              bench::UtcNow().c_str(), commit.c_str(), bench::CpuModel().c_str(),
              LoadAverages().c_str());
  std::printf(
      "data:    %s\nrepeat:  %d timed calls per measurement after 1 warm-up, median "
      "kept\n",
      dir.c_str(), o.repeat);
  meta->Add("commit", commit);
  meta->Add("load_averages_before", LoadAverages());
  meta->Add("data", dir);
  meta->Add("repeat", std::to_string(o.repeat));
  meta->Add("warm_steps", std::to_string(o.warm_steps));
  std::fflush(stdout);
}

// True when the battery's answers or warm starts failed their checks.
bool Failed(const BatteryReport& b) {
  return std::any_of(b.pairs.begin(), b.pairs.end(), OursWrong) || b.warm.mismatched ||
         b.warm.refused || b.warm.collide_mismatched || b.warm.collide_refused;
}

// The program (see kUsage).
int Run(int argc, char** argv) {
  const Options opt = ParseOptions(argc, argv);
  std::filesystem::create_directories(opt.common.out);
  bool subset = false;
  const std::string dir = bench::DataDir(opt.common.data, &subset);
  bench::Meta meta(opt.common.out, "fcl", argc, argv);
  PrintConditions(&meta, argc, argv, opt, dir + (subset ? " (committed subsets)" : ""));
  InstallFclGuard();
  Summary summary;
  summary.csv.open(opt.common.out + "/fcl_summary.csv");
  summary.csv << "battery,metric,value\n";
  bool failed = false;
  for (const std::string& name : opt.batteries) {
    const std::string path = bench::BatteryPath(dir, subset, name);
    if (!std::ifstream(path)) {
      std::printf("\n## %s: skipped, no %s\n", name.c_str(), path.c_str());
      continue;
    }
    const BatteryReport rep =
        RunBattery(bench::ReadBattery(path, name, opt.limit), opt, opt.common.out);
    Report(&summary, rep, opt);
    failed |= Failed(rep);
  }
  std::printf("\nload after: %s; end %s UTC\n", LoadAverages().c_str(), bench::UtcNow().c_str());
  meta.Add("load_averages_after", LoadAverages());
  meta.Add("our_answers_all_right", failed ? "no" : "yes");
  if (!summary.csv || !meta.Write()) throw std::runtime_error("cannot write to " + opt.common.out);
  return failed ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  return bench::Guard(Run, argc, argv);
}
