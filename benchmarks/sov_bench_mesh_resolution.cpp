// sov_bench_mesh_resolution: experiment 2 of the benchmark issue (study Figs.
// 9 and 10). FCL's error and time per query against the mesh resolution
// (18 to about 3000 vertices per body, sov_shape_tessellate), and ours
// against the Newton tolerance (1e-6 .. 1e-12), on the first separated pairs
// of the paper battery; errors against its .ref.csv.
#include "bench_common.h"

namespace {

const char kUsage[] =
    "usage: sov_bench_mesh_resolution --out DIR [--quick] "
    "[--data DIR] [--pairs K]\n"
    "Writes DIR/mesh_resolution.csv and its _meta.csv (first "
    "K separated paper pairs,\n"
    "default 20; --quick 3 and fewer resolutions).\n";

// (n_lat, n_lon): n_lon (n_lat - 1) + 2 vertices, from 18 to 2962.
const int kGrids[][2] = {{3, 8},   {4, 10},  {5, 12},  {7, 16},  {9, 20}, {13, 24},
                         {17, 32}, {21, 40}, {25, 48}, {33, 64}, {41, 74}};
const double kTolerances[] = {1e-6, 1e-8, 1e-10, 1e-12};

// One output row.
struct Point {
  std::string method;
  double x;  // vertices per body, or the tolerance
  bench::Stats time_us, err;
};

void Write(std::ofstream& f, const Point& p, size_t pairs) {
  f << '"' << p.method << "\"," << bench::Num(p.x) << ',' << pairs << ','
    << bench::Num(p.time_us.median) << ',' << bench::Num(p.time_us.p99) << ','
    << bench::Num(p.err.median) << ',' << bench::Num(p.err.max) << '\n';
}

// The program (see kUsage).
int Run(int argc, char** argv) {
  bench::Args args = bench::ParseArgs(argc, argv, kUsage);
  size_t want = args.quick ? 3 : 20;
  for (size_t i = 0; i < args.rest.size(); ++i)
    if (args.rest[i] == "--pairs" && i + 1 < args.rest.size())
      want = std::max(1, std::atoi(args.rest[++i].c_str()));
    else
      bench::Usage(kUsage);
  const int repeat = args.quick ? 3 : 7;
  bool subset = false;
  const std::string dir = bench::DataDir(args.data, &subset);
  bench::Meta meta(args.out, "mesh_resolution", argc, argv);
  meta.Add("data", dir + (subset ? " (committed subsets)" : ""));
  const bench::Battery bat =
      bench::ReadBattery(bench::BatteryPath(dir, subset, "paper"), "paper", 0);

  struct Sel {
    sov_shape A, B;
    sov_pose XA, XB;
    double d_ref;
  };
  std::vector<Sel> pairs;
  for (const auto& r : bat.pairs) {
    const auto ref = bat.ref.find(r.id);
    if (ref == bat.ref.end() || !(ref->second.d > 0)) continue;
    pairs.push_back({bench::MakeShape(r.v.data()), bench::MakeShape(r.v.data() + 14),
                     bench::MakePose(r.v.data() + 7, r.v.data() + 11),
                     bench::MakePose(r.v.data() + 21, r.v.data() + 25), ref->second.d});
    if (pairs.size() == want) break;
  }
  meta.Add("pairs", std::to_string(pairs.size()) + " first separated pairs of the paper battery");
  meta.Add("repeat",
           std::to_string(repeat) + " timed calls per pair after 1 warm-up; per-pair median");

  std::ofstream f(args.out + "/mesh_resolution.csv");
  f << "method,x,pairs,time_us_median,time_us_p99,err_median,err_max\n";
  const size_t grids = args.quick ? 4 : sizeof kGrids / sizeof kGrids[0];
  bench::Progress progress("mesh resolution", grids + 1);
  bool ours_wrong = false;
  for (size_t g = 0; g < grids; ++g) {
    const int lat = kGrids[args.quick ? 2 * g : g][0], lon = kGrids[args.quick ? 2 * g : g][1];
    std::vector<double> tm, em, tc, ec;
    size_t nv = 0, nt = 0;
    sov_shape_tessellation_size(&nv, &nt, lat, lon);
    for (const Sel& p : pairs) {
      const bench::Mesh ma = bench::Tessellate(p.A, lat, lon),
                        mb = bench::Tessellate(p.B, lat, lon);
      const fcl::CollisionObjectd a(bench::MeshBvh(ma), bench::ToFcl(p.XA)),
          b(bench::MeshBvh(mb), bench::ToFcl(p.XB));
      const fcl::CollisionObjectd ca(bench::MeshConvex(ma), bench::ToFcl(p.XA)),
          cb(bench::MeshConvex(mb), bench::ToFcl(p.XB));
      fcl::DistanceRequestd req(true);
      fcl::DistanceResultd res;
      double d = NAN;
      tm.push_back(bench::MedianUs(repeat, [&] {
        res.clear();
        d = fcl::distance(&a, &b, req, res);
      }));
      em.push_back(std::fabs(d - p.d_ref));
      tc.push_back(bench::MedianUs(repeat, [&] {
        res.clear();
        d = fcl::distance(&ca, &cb, req, res);
      }));
      ec.push_back(std::fabs(d - p.d_ref));
    }
    Write(f,
          {"FCL mesh OBBRSS", static_cast<double>(nv), bench::Summarize(tm), bench::Summarize(em)},
          pairs.size());
    Write(f,
          {"FCL Convex GJK", static_cast<double>(nv), bench::Summarize(tc), bench::Summarize(ec)},
          pairs.size());
    progress.Step();
  }
  for (const double tol : kTolerances) {
    sov_options opt;
    sov_options_default(&opt);
    opt.tolerance = tol;
    std::vector<double> t, e;
    for (const Sel& p : pairs) {
      sov_result r{};
      int st = SOV_OK;
      t.push_back(bench::MedianUs(
          repeat, [&] { st = sov_distance(&r, &p.A, &p.XA, &p.B, &p.XB, &opt, nullptr); }));
      e.push_back(st == SOV_OK ? std::fabs(r.d - p.d_ref) : NAN);
      ours_wrong |= st != SOV_OK;
    }
    Write(f, {"superovoid auto", tol, bench::Summarize(t), bench::Summarize(e)}, pairs.size());
  }
  progress.Step();
  if (!f || !meta.Write()) {
    std::fprintf(stderr, "sov_bench_mesh_resolution: cannot write to %s\n", args.out.c_str());
    return 1;
  }
  return ours_wrong ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::Guard(Run, argc, argv); }
