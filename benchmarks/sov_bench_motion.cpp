// sov_bench_motion: experiment 5 of the benchmark issue (Lopes 2010, Tables 5
// and 6). An ellipsoid pair and a superellipsoid pair, each body spinning
// about its own axis, 200 steps; every step queried warm-started from the
// previous step's answer (sov_cache) and cold. Newton iterations per step and
// total time; warm answers are checked against cold ones, and the ellipsoid
// pair's apart steps against FCL's own Ellipsoid (libccd GJK, tolerance 1e-12).
#include "bench_common.h"

namespace {

const char kUsage[] =
    "usage: sov_bench_motion --out DIR [--quick]\n"
    "Writes DIR/motion.csv (summary), DIR/motion_steps.csv (per step) and "
    "_meta.csv.\n"
    "Exit 3 when a warm answer differs from the cold one by more than 1e-9.\n";

constexpr int kSteps = 200;
constexpr double kSame = 1e-9;  // warm and cold must agree to this
constexpr double kCentreGap = 1.9;

struct Scenario {
  const char* name;
  double a[7], b[7];
};

const Scenario kScenarios[] = {
    {"ellipsoids", {1.0, 0.6, 0.4, 1, 1, 0, 0}, {0.8, 0.5, 0.7, 1, 1, 0, 0}},
    {"superellipsoids", {1.0, 0.6, 0.4, 0.4, 0.6, 0, 0}, {0.8, 0.5, 0.7, 1.5, 0.3, 0, 0}},
    {"superovoids", {1.0, 0.6, 0.4, 0.4, 1.0, 0.3, -0.2}, {0.8, 0.5, 0.7, 0.8, 1.2, -0.25, 0.1}},
};

// Poses of step k: A spins about (1,1,1)/sqrt 3 through one turn, B about
// the x axis through two, centres kCentreGap apart on y.
void PosesAt(int k, sov_pose* XA, sov_pose* XB) {
  const double t = 2 * M_PI * k / kSteps, s = 1 / std::sqrt(3.0);
  const double axA[3] = {s, s, s}, axB[3] = {1, 0, 0}, pA[3] = {0, 0, 0},
               pB[3] = {0, kCentreGap, 0};
  *XA = bench::AxisAnglePose(axA, t, pA);
  *XB = bench::AxisAnglePose(axB, 2 * t, pB);
}

// The program (see kUsage).
int Run(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, kUsage);
  if (!args.rest.empty()) bench::Usage(kUsage);
  const int repeat = args.quick ? 3 : 21;
  bench::Meta meta(args.out, "motion", argc, argv);
  meta.Add("repeat",
           std::to_string(repeat) + " runs of the whole sequence after 1 warm-up; medians");
  std::ofstream sum(args.out + "/motion.csv"), steps(args.out + "/motion_steps.csv");
  sum << "pair,mode,steps,total_us_median,us_per_step_median,iterations_mean,"
         "iterations_max,"
         "overlapping_steps,max_diff_vs_cold,max_err_vs_fcl_ellipsoid\n";
  steps << "pair,step,d,iterations_warm,iterations_cold,us_warm,us_cold\n";
  bench::Progress progress("prescribed motion", sizeof kScenarios / sizeof kScenarios[0]);
  bool mismatch = false;
  for (const Scenario& sc : kScenarios) {
    const sov_shape A = bench::MakeShape(sc.a), B = bench::MakeShape(sc.b);
    std::vector<sov_pose> XA(kSteps), XB(kSteps);
    for (int k = 0; k < kSteps; ++k) PosesAt(k, &XA[k], &XB[k]);
    std::vector<sov_result> warm(kSteps), cold(kSteps);
    std::vector<std::vector<double>> t_warm(kSteps), t_cold(kSteps);
    std::vector<double> total_warm, total_cold;
    for (int rep = -1; rep < repeat; ++rep) {  // rep -1: warm-up
      for (int mode = 0; mode < 2; ++mode) {
        sov_cache cache;
        sov_cache_reset(&cache);
        double total = 0;
        for (int k = 0; k < kSteps; ++k) {
          const auto t0 = bench::Clock::now();
          const int st = mode == 0
                             ? sov_distance(&warm[k], &A, &XA[k], &B, &XB[k], nullptr, &cache)
                             : sov_distance(&cold[k], &A, &XA[k], &B, &XB[k], nullptr, nullptr);
          const double us = bench::ElapsedNs(t0) * 1e-3;
          if (st != SOV_OK)
            throw std::runtime_error(std::string(sc.name) + ": " + sov_status_string(st));
          total += us;
          if (rep >= 0) (mode == 0 ? t_warm : t_cold)[k].push_back(us);
        }
        if (rep >= 0) (mode == 0 ? total_warm : total_cold).push_back(total);
      }
    }
    // Independent check of the ellipsoid pair: FCL's Ellipsoid, apart steps.
    double max_fcl = NAN;
    if (sc.a[3] == 1 && sc.a[4] == 1 && sc.b[3] == 1 && sc.b[4] == 1 && sc.a[5] == 0 &&
        sc.b[5] == 0) {
      max_fcl = 0;
      const auto ea = std::make_shared<fcl::Ellipsoidd>(sc.a[0], sc.a[1], sc.a[2]);
      const auto eb = std::make_shared<fcl::Ellipsoidd>(sc.b[0], sc.b[1], sc.b[2]);
      for (int k = 0; k < kSteps; ++k) {
        if (!(cold[k].d > 0)) continue;
        fcl::DistanceRequestd req;
        req.distance_tolerance = 1e-12;
        fcl::DistanceResultd res;
        const double d =
            fcl::distance(ea.get(), bench::ToFcl(XA[k]), eb.get(), bench::ToFcl(XB[k]), req, res);
        max_fcl = std::max(max_fcl, std::fabs(d - cold[k].d));
      }
    }
    double max_diff = 0;
    int overlapping = 0;
    for (int mode = 0; mode < 2; ++mode) {
      std::vector<double> it;
      std::vector<double> per_step;
      for (int k = 0; k < kSteps; ++k) {
        const sov_result& r = mode == 0 ? warm[k] : cold[k];
        it.push_back(r.iterations);
        per_step.push_back(bench::Summarize(mode == 0 ? t_warm[k] : t_cold[k]).median);
        if (mode == 0) {
          max_diff = std::max(max_diff, std::fabs(warm[k].d - cold[k].d));
          overlapping += cold[k].d <= 0;
        }
      }
      const bench::Stats tot = bench::Summarize(mode == 0 ? total_warm : total_cold),
                         its = bench::Summarize(it), ps = bench::Summarize(per_step);
      sum << sc.name << ',' << (mode == 0 ? "warm" : "cold") << ',' << kSteps << ','
          << bench::Num(tot.median) << ',' << bench::Num(ps.median) << ',' << bench::Num(its.mean)
          << ',' << bench::Num(its.max) << ',' << overlapping << ','
          << bench::Num(mode == 0 ? max_diff : 0.0) << ',' << bench::Num(max_fcl) << '\n';
    }
    for (int k = 0; k < kSteps; ++k)
      steps << sc.name << ',' << k << ',' << bench::Num(cold[k].d) << ',' << warm[k].iterations
            << ',' << cold[k].iterations << ',' << bench::Num(bench::Summarize(t_warm[k]).median)
            << ',' << bench::Num(bench::Summarize(t_cold[k]).median) << '\n';
    mismatch |= !(max_diff <= kSame);
    progress.Step();
  }
  if (!sum || !steps || !meta.Write()) {
    std::fprintf(stderr, "sov_bench_motion: cannot write to %s\n", args.out.c_str());
    return 1;
  }
  return mismatch ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::Guard(Run, argc, argv); }
