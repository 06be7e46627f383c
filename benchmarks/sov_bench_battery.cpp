// sov_bench_battery: experiments 1 and 6 of the benchmark issue. The study's
// Tables 1 and 2 side by side with FCL on the randomized batteries, split
// into separated and overlapping pairs (by the reference answer), and the
// contact-space paper's metric (Ruan 2022, Table III) on the same answers.
//
// Rows: the study's schemes from the parametric quadtree guess as the study
// ran them (certify = 0), octImplicit (sov::octreeSeededDistance) on a
// subsample, the default method (auto), FCL 0.7 fcl::distance on 290-vertex
// OBBRSS meshes, FCL Convex polytopes on the same vertices with libccd
// GJK/EPA (signed distance on). Every method runs on the same pairs in the
// same process; accuracy is against FILE.ref.csv.
#include <superovoid/fcl/octree_seed.h>

#include "bench_common.h"
// Internal C headers of the core (no extern "C" of their own).
extern "C" {
#include "c_api/storage.h"
#include "solver/pose.h"
#include "solver/quadtree.h"
#include "solver/support.h"
}

namespace {

const char kUsage[] =
    "usage: sov_bench_battery --out DIR [--quick] [--data DIR] [--repeat R]\n"
    "Writes DIR/battery.csv (summary), DIR/battery_pairs.csv (every pair and "
    "method),\n"
    "DIR/contact_metric.csv and their _meta.csv. --quick: 100 pairs per "
    "battery.\n"
    "Exit 3 when the default method is wrong on a pair (|d - d_ref| > 1e-9).\n";

constexpr int kLat = 13, kLon = 24;        // 290 vertices, the study's FCL meshes
constexpr double kWrongTol = 1e-6;         // a returned answer this far off is wrong
constexpr double kAutoTol = 1e-9;          // what the default method must meet
constexpr double kContactSpaceTol = 1e-5;  // Ruan 2022's |n x (pA - pB)| bound
constexpr size_t kOctPairs = 200, kOctPairsStress = 40, kOctPairsQuick = 4;

enum class Kind { Core, Oct, FclMesh, FclConvex };

// One row of the tables.
struct Method {
  const char* name;
  Kind kind;
  sov_method core = SOV_METHOD_AUTO;
  bool quadtree = false;
};

const Method kMethods[] = {
    {"quadImplicit", Kind::Core, SOV_METHOD_IMPLICIT, true},
    {"quadParametric", Kind::Core, SOV_METHOD_PARAMETRIC, true},
    {"ntbParametric", Kind::Core, SOV_METHOD_NTB, true},
    {"octImplicit", Kind::Oct},
    {"auto (default)", Kind::Core, SOV_METHOD_AUTO, false},
    {"FCL mesh 290v OBBRSS", Kind::FclMesh},
    {"FCL Convex GJK/EPA", Kind::FclConvex},
};
constexpr size_t kMethodCount = sizeof kMethods / sizeof kMethods[0];

// What one method gave on one pair.
struct Outcome {
  bool ok = false;             // status SOV_OK (FCL: returned without throwing)
  double d = NAN;              // its distance
  double guess_us = NAN;       // initial guess (median of the repetitions)
  double total_us = NAN;       // whole query
  int iterations = -1;         // Newton iterations (core methods)
  double cross = NAN;          // |n x (pA - pB)|, returned n
  double cross_surface = NAN;  // |nA x (pA - pB)|, nA the surface normal at pA
};

// The bodies of one pair in every representation the methods need.
struct PairBodies {
  sov_shape A, B;
  sov_pose XA, XB;
  std::shared_ptr<sov::Superovoid> sa, sb;
  fcl::Transform3d ta, tb;
};

PairBodies MakeBodies(const bench::PairRow& r) {
  PairBodies b;
  b.A = bench::MakeShape(r.v.data());
  b.B = bench::MakeShape(r.v.data() + 14);
  b.XA = bench::MakePose(r.v.data() + 7, r.v.data() + 11);
  b.XB = bench::MakePose(r.v.data() + 21, r.v.data() + 25);
  b.sa = std::make_shared<sov::Superovoid>(
      std::array<double, 7>{r.v[0], r.v[1], r.v[2], r.v[3], r.v[4], r.v[5], r.v[6]});
  b.sb = std::make_shared<sov::Superovoid>(
      std::array<double, 7>{r.v[14], r.v[15], r.v[16], r.v[17], r.v[18], r.v[19], r.v[20]});
  b.ta = bench::ToFcl(b.XA);
  b.tb = bench::ToFcl(b.XB);
  return b;
}

// |a x b| for 3-vectors.
double CrossNorm(const double a[3], const double b[3]) {
  const double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                       a[0] * b[1] - a[1] * b[0]};
  return std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
}

// The contact-space metrics of a core answer.
void ContactMetrics(Outcome* o, const sov_result& r, const PairBodies& b) {
  const double diff[3] = {r.pA[0] - r.pB[0], r.pA[1] - r.pB[1], r.pA[2] - r.pB[2]};
  o->cross = CrossNorm(r.n, diff);
  double local[3], g[3], F;
  for (int i = 0; i < 3; ++i)
    local[i] = b.XA.R[i] * (r.pA[0] - b.XA.p[0]) + b.XA.R[3 + i] * (r.pA[1] - b.XA.p[1]) +
               b.XA.R[6 + i] * (r.pA[2] - b.XA.p[2]);
  if (sov_shape_implicit(&F, g, nullptr, &b.A, local) != SOV_OK) return;
  double nA[3], len = 0;
  for (int i = 0; i < 3; ++i) {
    nA[i] = b.XA.R[3 * i] * g[0] + b.XA.R[3 * i + 1] * g[1] + b.XA.R[3 * i + 2] * g[2];
    len += nA[i] * nA[i];
  }
  len = std::sqrt(len);
  if (!(len > 0)) return;
  for (double& x : nA) x /= len;
  o->cross_surface = CrossNorm(nA, diff);
}

// The default method's initial guess: support seeds of both bodies along
// the centre line (as its first stage does when cold).
void AutoGuess(const PairBodies& b, double out[6]) {
  double v[3], vl[3];
  for (int i = 0; i < 3; ++i) v[i] = b.XB.p[i] - b.XA.p[i];
  for (int k = 0; k < 2; ++k) {
    const sov_pose& X = k ? b.XB : b.XA;
    const double s = k ? -1.0 : 1.0;
    for (int i = 0; i < 3; ++i) vl[i] = s * (X.R[i] * v[0] + X.R[3 + i] * v[1] + X.R[6 + i] * v[2]);
    sovc_support_seed(out + 3 * k, sovc_shape_of(k ? &b.B : &b.A), vl);
  }
}

// Runs a core method (sov_distance) on a pair.
Outcome RunCore(const Method& m, const PairBodies& b, int repeat) {
  sov_options opt;
  sov_options_default(&opt);
  opt.method = m.core;
  if (m.quadtree) {
    opt.seed = SOV_SEED_QUADTREE;
    opt.certify = 0;  // the scheme as the study ran it
  }
  Outcome o;
  sov_result r{};
  int st = SOV_OK;
  o.total_us = bench::MedianUs(
      repeat, [&] { st = sov_distance(&r, &b.A, &b.XA, &b.B, &b.XB, &opt, nullptr); });
  double sink[6];
  sovc_pose XA, XB;  // as sov_distance takes the poses (checked there)
  sovc_pose_from_raw(&XA, b.XA.R, b.XA.p);
  sovc_pose_from_raw(&XB, b.XB.R, b.XB.p);
  const sovc_pair P = {sovc_shape_of(&b.A), &XA, sovc_shape_of(&b.B), &XB, 1};
  if (m.quadtree)
    o.guess_us = bench::MedianUs(repeat, [&] { sovc_quadtree_seed(sink, sink + 2, &P); });
  else
    o.guess_us = bench::MedianUs(repeat, [&] { AutoGuess(b, sink); });
  o.ok = st == SOV_OK;
  o.iterations = r.iterations;
  if (o.ok) {
    o.d = r.d;
    ContactMetrics(&o, r, b);
  }
  return o;
}

// Runs octImplicit; its guess time is the whole query minus the core's
// Newton solve from the same seed.
Outcome RunOct(const PairBodies& b, int repeat) {
  Outcome o;
  sov::OctreeSeedResult s;
  for (const sov::Superovoid* body : {b.sa.get(), b.sb.get()}) {
    const double* a = body->info().params;
    body->voxels(0.1 * std::min({a[0], a[1], a[2]}));
  }
  o.total_us =
      bench::MedianUs(repeat, [&] { s = sov::octreeSeededDistance(*b.sa, b.ta, *b.sb, b.tb); });
  sov_options opt;
  sov_options_default(&opt);
  opt.method = SOV_METHOD_IMPLICIT;
  sov_cache cache;
  sov_cache_reset(&cache);
  if (s.seed_source == sov::OctreeSeedSource::NearestPoints) {
    opt.seed = SOV_SEED_CACHE;
    sov_cache_set(&cache, &b.XA, &b.XB, s.seed_a.data(), s.seed_b.data());
  } else {
    opt.seed = SOV_SEED_CENTERS;
  }
  sov_result r{};
  const double newton = bench::MedianUs(repeat, [&] {
    sov_cache c = cache;
    sov_distance(&r, &b.A, &b.XA, &b.B, &b.XB, &opt, &c);
  });
  o.guess_us = std::max(0.0, o.total_us - newton);
  o.ok = s.status == SOV_OK;
  o.iterations = s.result.iterations;
  if (o.ok) {
    o.d = s.result.d;
    ContactMetrics(&o, s.result, b);
  }
  return o;
}

// FCL geometry of a pair: 290-vertex meshes and Convex polytopes.
struct FclPair {
  std::unique_ptr<fcl::CollisionObjectd> mesh_a, mesh_b, convex_a, convex_b;
};

FclPair MakeFcl(const PairBodies& b) {
  const bench::Mesh ma = bench::Tessellate(b.A, kLat, kLon),
                    mb = bench::Tessellate(b.B, kLat, kLon);
  FclPair f;
  f.mesh_a = std::make_unique<fcl::CollisionObjectd>(bench::MeshBvh(ma), b.ta);
  f.mesh_b = std::make_unique<fcl::CollisionObjectd>(bench::MeshBvh(mb), b.tb);
  f.convex_a = std::make_unique<fcl::CollisionObjectd>(bench::MeshConvex(ma), b.ta);
  f.convex_b = std::make_unique<fcl::CollisionObjectd>(bench::MeshConvex(mb), b.tb);
  return f;
}

// Runs FCL's fcl::distance on the meshes or the polytopes.
Outcome RunFcl(bool convex, const FclPair& f, int repeat) {
  fcl::DistanceRequestd req;
  req.enable_nearest_points = true;
  req.enable_signed_distance = convex;  // EPA; the mesh path has no depth
  req.gjk_solver_type = fcl::GST_LIBCCD;
  Outcome o;
  fcl::DistanceResultd res;
  const fcl::CollisionObjectd* a = convex ? f.convex_a.get() : f.mesh_a.get();
  const fcl::CollisionObjectd* b = convex ? f.convex_b.get() : f.mesh_b.get();
  double d = NAN;
  o.total_us = bench::MedianUs(repeat, [&] {
    res.clear();
    d = fcl::distance(a, b, req, res);
  });
  o.ok = std::isfinite(d);
  o.d = d;
  return o;
}

// Accumulated statistics of one (battery, split, method) cell.
struct Cell {
  std::vector<double> guess, total, per_iter, iters, err;
  size_t n = 0, ok = 0, wrong_ok = 0, nonpositive = 0, cs_ok = 0, cs_surface_ok = 0;
};

void Accumulate(Cell* c, const Outcome& o, double d_ref) {
  ++c->n;
  c->guess.push_back(o.guess_us);
  c->total.push_back(o.total_us);
  if (o.iterations >= 0) c->iters.push_back(o.iterations);
  if (o.iterations > 0 && !std::isnan(o.guess_us))
    c->per_iter.push_back((o.total_us - o.guess_us) / o.iterations);
  if (!o.ok) return;
  ++c->ok;
  const double e = std::fabs(o.d - d_ref);
  c->err.push_back(e);
  c->wrong_ok += !(e <= kWrongTol);
  c->nonpositive += o.d <= 0;
  c->cs_ok += o.cross < kContactSpaceTol;
  c->cs_surface_ok += o.cross_surface < kContactSpaceTol;
}

// The program (see kUsage).
int Run(int argc, char** argv) {
  bench::Args args = bench::ParseArgs(argc, argv, kUsage);
  int repeat = args.quick ? 3 : 5;
  for (size_t i = 0; i < args.rest.size(); ++i)
    if (args.rest[i] == "--repeat" && i + 1 < args.rest.size())
      repeat = std::max(1, std::atoi(args.rest[++i].c_str()));
    else
      bench::Usage(kUsage);
  bool subset = false;
  const std::string dir = bench::DataDir(args.data, &subset);
  bench::Meta meta(args.out, "battery", argc, argv);
  meta.Add("data", dir + (subset ? " (committed subsets)" : ""));
  meta.Add("repeat",
           std::to_string(repeat) + " timed calls per pair after 1 warm-up; per-pair median");
  const size_t limit = args.quick ? 100 : 0;

  std::ofstream pairs_csv(args.out + "/battery_pairs.csv");
  pairs_csv << "battery,id,overlap,method,ok,d,d_ref,err,iterations,guess_us,"
               "total_us,cross,cross_surface\n";
  // cells[battery][overlap][method]
  std::map<std::string, std::array<std::array<Cell, kMethodCount>, 2>> cells;
  bool auto_wrong = false;
  for (const std::string which : {"paper", "stress"}) {
    const bench::Battery bat =
        bench::ReadBattery(bench::BatteryPath(dir, subset, which), which, limit);
    const size_t oct_pairs = args.quick         ? kOctPairsQuick
                             : which == "paper" ? kOctPairs
                                                : kOctPairsStress;
    bench::Progress progress(which + " battery", bat.pairs.size());
    auto& table = cells[which];
    for (size_t k = 0; k < bat.pairs.size(); ++k) {
      const bench::PairRow& row = bat.pairs[k];
      const auto ref = bat.ref.find(row.id);
      if (ref == bat.ref.end())
        throw std::runtime_error("no reference for id " + std::to_string(row.id));
      const double d_ref = ref->second.d;
      const int overlap = d_ref <= 0;
      const PairBodies b = MakeBodies(row);
      const FclPair f = MakeFcl(b);
      for (size_t m = 0; m < kMethodCount; ++m) {
        const Method& method = kMethods[m];
        Outcome o;
        if (method.kind == Kind::Core)
          o = RunCore(method, b, repeat);
        else if (method.kind == Kind::Oct) {
          if (k >= oct_pairs) continue;
          o = RunOct(b, args.quick ? 1 : 2);
        } else
          o = RunFcl(method.kind == Kind::FclConvex, f, repeat);
        Accumulate(&table[overlap][m], o, d_ref);
        if (method.kind == Kind::Core && method.core == SOV_METHOD_AUTO &&
            !(o.ok && std::fabs(o.d - d_ref) <= kAutoTol)) {
          auto_wrong = true;
          std::fprintf(stderr, "\nauto wrong on %s id %ld: d %.17g, ref %.17g\n", which.c_str(),
                       row.id, o.d, d_ref);
        }
        pairs_csv << which << ',' << row.id << ',' << overlap << ",\"" << method.name << "\","
                  << o.ok << ',' << bench::Num(o.d) << ',' << bench::Num(d_ref) << ','
                  << bench::Num(std::fabs(o.d - d_ref)) << ',' << o.iterations << ','
                  << bench::Num(o.guess_us) << ',' << bench::Num(o.total_us) << ','
                  << bench::Num(o.cross) << ',' << bench::Num(o.cross_surface) << '\n';
      }
      progress.Step();
    }
  }

  std::ofstream out(args.out + "/battery.csv");
  std::ofstream cs(args.out + "/contact_metric.csv");
  out << "battery,split,method,pairs,guess_us_median,total_us_median,total_us_"
         "mean,total_us_p99,"
         "iterations_mean,us_per_iteration_median,converged_share,wrong_ok,"
         "share_d_nonpositive,err_median,err_max\n";
  cs << "battery,method,pairs,converged,share_returned_n,share_surface_n,total_"
        "us_median,total_us_mean\n";
  for (const auto& [which, table] : cells) {
    for (size_t m = 0; m < kMethodCount; ++m) {
      Cell all;
      for (int overlap = 0; overlap < 2; ++overlap) {
        const Cell& c = table[overlap][m];
        if (c.n == 0) continue;
        const bench::Stats t = bench::Summarize(c.total), g = bench::Summarize(c.guess),
                           it = bench::Summarize(c.iters), pi = bench::Summarize(c.per_iter),
                           e = bench::Summarize(c.err);
        out << which << ',' << (overlap ? "overlapping" : "separated") << ",\"" << kMethods[m].name
            << "\"," << c.n << ',' << bench::Num(g.median) << ',' << bench::Num(t.median) << ','
            << bench::Num(t.mean) << ',' << bench::Num(t.p99) << ',' << bench::Num(it.mean) << ','
            << bench::Num(pi.median) << ',' << bench::Num(static_cast<double>(c.ok) / c.n) << ','
            << c.wrong_ok << ','
            << bench::Num(c.ok ? static_cast<double>(c.nonpositive) / c.ok : NAN) << ','
            << bench::Num(e.median) << ',' << bench::Num(e.max) << '\n';
        all.n += c.n;
        all.ok += c.ok;
        all.cs_ok += c.cs_ok;
        all.cs_surface_ok += c.cs_surface_ok;
        all.total.insert(all.total.end(), c.total.begin(), c.total.end());
      }
      if (kMethods[m].kind == Kind::FclMesh || kMethods[m].kind == Kind::FclConvex || all.n == 0)
        continue;
      const bench::Stats t = bench::Summarize(all.total);
      cs << which << ",\"" << kMethods[m].name << "\"," << all.n << ',' << all.ok << ','
         << bench::Num(static_cast<double>(all.cs_ok) / all.n) << ','
         << bench::Num(static_cast<double>(all.cs_surface_ok) / all.n) << ','
         << bench::Num(t.median) << ',' << bench::Num(t.mean) << '\n';
    }
  }
  meta.Add("default_method_all_right", auto_wrong ? "no" : "yes");
  if (!out || !cs || !pairs_csv || !meta.Write()) {
    std::fprintf(stderr, "sov_bench_battery: cannot write to %s\n", args.out.c_str());
    return 1;
  }
  return auto_wrong ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::Guard(Run, argc, argv); }
