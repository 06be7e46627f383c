// sov_bench_bite: experiment 4 of the benchmark issue (study Figs. 13 and 14).
// Two jaw-like bodies, each a row of teeth (a crown and four tooth-like cusps,
// all superovoids), approach, interpenetrate and separate over 181 frames.
// Per frame: the minimum signed distance over component pairs (pairs pruned
// by bounding spheres, each pair warm-started from its previous frame) and
// its time, against FCL's mesh-mesh distance on the same bodies tessellated
// into about 6 000 and 24 000 triangles per body (OBBRSS).
#include "bench_common.h"

namespace {

const char kUsage[] =
    "usage: sov_bench_bite --out DIR [--quick]\n"
    "Writes DIR/bite.csv (per frame), DIR/bite_summary.csv and _meta.csv.\n"
    "Exit 3 when a separated frame's mesh distance is below ours (the meshes "
    "lie\n"
    "inside the bodies) or warm and cold answers differ by more than 1e-9.\n";

constexpr int kFrames = 181;
constexpr int kTeeth = 8;
constexpr double kToothPitch = 0.9;
constexpr double kCuspReach = 0.48;  // jaw z offset at which the cusp tips meet
constexpr double kStartGap = 0.35;   // tips this far apart at frames 0 and 180 ...
constexpr double kBiteDepth = 0.6;   // ... the lower jaw this much higher at frame 90
constexpr double kSame = 1e-9;

// A component: shape and its pose in the body's frame.
struct Part {
  sov_shape shape;
  sov_pose local;
};

// One jaw: kTeeth crowns along a gentle arch, each with four cusps pointing
// up (+z, lower jaw) or down (upper jaw); the lower jaw is offset half a
// tooth so the cusps interdigitate.
std::vector<Part> Jaw(bool upper) {
  const double crown[7] = {0.38, 0.33, 0.45, 0.6, 0.8, 0.0, 0.0};
  const double cusp[7] = {0.13, 0.12, 0.22, 0.9, 1.0, 0.35, 0.3};
  const double down[3] = {1, 0, 0};
  std::vector<Part> parts;
  const double s = upper ? -1 : 1;
  for (int t = 0; t < kTeeth; ++t) {
    const double x = (t - (kTeeth - 1) / 2.0) * kToothPitch + (upper ? 0 : kToothPitch / 2);
    const double y = 0.08 * x * x;
    const double pc[3] = {x, y, -s * 0.45};
    parts.push_back({bench::MakeShape(crown), bench::AxisAnglePose(down, upper ? M_PI : 0, pc)});
    for (int c = 0; c < 4; ++c) {
      const double pk[3] = {x + (c % 2 ? 0.15 : -0.15), y + (c / 2 ? 0.13 : -0.13), s * 0.02};
      parts.push_back({bench::MakeShape(cusp), bench::AxisAnglePose(down, upper ? M_PI : 0, pk)});
    }
  }
  return parts;
}

// Pose of the lower jaw at frame f: up by kBiteDepth at mid-sequence, a
// small lateral grinding sway.
sov_pose LowerAt(int f) {
  const double t = static_cast<double>(f) / (kFrames - 1);
  const double p[3] = {0.08 * std::sin(2 * M_PI * t), 0,
                       -kCuspReach - kStartGap + kBiteDepth * std::sin(M_PI * t)};
  const double axis[3] = {0, 0, 1};
  return bench::AxisAnglePose(axis, 0.02 * std::sin(2 * M_PI * t), p);
}

// a o b for poses.
sov_pose Compose(const sov_pose& a, const sov_pose& b) {
  double R[9], p[3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      R[3 * i + j] =
          a.R[3 * i] * b.R[j] + a.R[3 * i + 1] * b.R[3 + j] + a.R[3 * i + 2] * b.R[6 + j];
    p[i] = a.R[3 * i] * b.p[0] + a.R[3 * i + 1] * b.p[1] + a.R[3 * i + 2] * b.p[2] + a.p[i];
  }
  sov_pose X;
  sov_pose_from_matrix(&X, R, p);
  return X;
}

// Minimum signed distance between the jaws at one frame: pairs in order of
// their bounding-sphere lower bound, stopping once it exceeds the best; with
// caches (one per pair) the pairs are warm-started. Returns the minimum and
// adds Newton iterations and queries to the counters.
double MinDistance(const std::vector<Part>& up, const std::vector<Part>& low, const sov_pose& lower,
                   std::vector<sov_cache>* caches, long* iterations, long* queries) {
  std::vector<sov_pose> XL(low.size());
  for (size_t j = 0; j < low.size(); ++j) XL[j] = Compose(lower, low[j].local);
  std::vector<std::pair<double, size_t>> order;
  for (size_t i = 0; i < up.size(); ++i)
    for (size_t j = 0; j < low.size(); ++j) {
      double c = 0;
      for (int k = 0; k < 3; ++k)
        c += (up[i].local.p[k] - XL[j].p[k]) * (up[i].local.p[k] - XL[j].p[k]);
      order.emplace_back(std::sqrt(c) - bench::Info(up[i].shape).radius - bench::Info(low[j].shape).radius,
                         i * low.size() + j);
    }
  std::sort(order.begin(), order.end());
  double best = INFINITY;
  for (const auto& [lb, k] : order) {
    if (lb > best) break;
    const size_t i = k / low.size(), j = k % low.size();
    sov_result r{};
    const int st = sov_distance(&r, &up[i].shape, &up[i].local, &low[j].shape, &XL[j], nullptr,
                                caches ? &(*caches)[k] : nullptr);
    if (st != SOV_OK) throw std::runtime_error(std::string("bite pair: ") + sov_status_string(st));
    best = std::min(best, r.d);
    *iterations += r.iterations;
    ++*queries;
  }
  return best;
}

// Mesh of a jaw with n_lat x n_lon per part, in the jaw's frame.
std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> JawMesh(const std::vector<Part>& parts, int lat,
                                                     int lon, size_t* tris) {
  bench::Mesh all;
  for (const Part& p : parts)
    bench::AppendMesh(&all, bench::Tessellate(p.shape, lat, lon), p.local);
  *tris = all.triangles.size();
  return bench::MeshBvh(all);
}

// The program (see kUsage).
int Run(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, kUsage);
  if (!args.rest.empty()) bench::Usage(kUsage);
  const int repeat = args.quick ? 1 : 5;
  const std::vector<Part> up = Jaw(true), low = Jaw(false);
  bench::Meta meta(args.out, "bite", argc, argv);
  meta.Add("bodies", std::to_string(up.size()) + " superovoids per jaw (8 crowns, 32 cusps)");
  meta.Add("repeat",
           std::to_string(repeat) + " runs of the sequence after 1 warm-up; per-frame medians");
  // Meshes: 150 and 600 triangles per part, 6 000 and 24 000 per jaw.
  const int grids[2][2] = {{6, 15}, {11, 30}};
  std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> mesh_up[2], mesh_low[2];
  size_t tris[2] = {0, 0};
  for (int g = 0; g < 2; ++g) {
    mesh_up[g] = JawMesh(up, grids[g][0], grids[g][1], &tris[g]);
    mesh_low[g] = JawMesh(low, grids[g][0], grids[g][1], &tris[g]);
    meta.Add("mesh" + std::to_string(g), std::to_string(tris[g]) + " triangles per jaw");
  }
  std::vector<double> d_warm(kFrames), d_cold(kFrames), d_mesh[2];
  std::vector<std::vector<double>> t_warm(kFrames), t_cold(kFrames), t_mesh[2];
  std::vector<long> it_warm(kFrames), q_warm(kFrames);
  for (int g = 0; g < 2; ++g) {
    d_mesh[g].resize(kFrames);
    t_mesh[g].resize(kFrames);
  }
  bench::Progress progress("bite sequence", repeat + 1);
  for (int rep = -1; rep < repeat; ++rep) {
    std::vector<sov_cache> caches(up.size() * low.size());
    for (auto& c : caches) sov_cache_reset(&c);
    for (int f = 0; f < kFrames; ++f) {
      const sov_pose X = LowerAt(f);
      long it = 0, q = 0, it0 = 0, q0 = 0;
      auto t0 = bench::Clock::now();
      d_warm[f] = MinDistance(up, low, X, &caches, &it, &q);
      if (rep >= 0) t_warm[f].push_back(bench::ElapsedNs(t0) * 1e-3);
      it_warm[f] = it;
      q_warm[f] = q;
      t0 = bench::Clock::now();
      d_cold[f] = MinDistance(up, low, X, nullptr, &it0, &q0);
      if (rep >= 0) t_cold[f].push_back(bench::ElapsedNs(t0) * 1e-3);
      const fcl::Transform3d tl = bench::ToFcl(X);
      for (int g = 0; g < 2; ++g) {
        fcl::DistanceRequestd req;
        fcl::DistanceResultd res;
        t0 = bench::Clock::now();
        d_mesh[g][f] = fcl::distance(mesh_up[g].get(), fcl::Transform3d::Identity(),
                                     mesh_low[g].get(), tl, req, res);
        if (rep >= 0) t_mesh[g][f].push_back(bench::ElapsedNs(t0) * 1e-3);
      }
    }
    progress.Step();
  }
  std::ofstream f(args.out + "/bite.csv");
  f << "frame,lower_z,d_superovoid,d_mesh_" << tris[0] << ",d_mesh_" << tris[1]
    << ",us_warm,us_cold,us_mesh_" << tris[0] << ",us_mesh_" << tris[1]
    << ",pair_queries,iterations\n";
  bool wrong = false;
  std::vector<double> all[4];
  for (int k = 0; k < kFrames; ++k) {
    const double tw = bench::Summarize(t_warm[k]).median, tc = bench::Summarize(t_cold[k]).median,
                 tm0 = bench::Summarize(t_mesh[0][k]).median,
                 tm1 = bench::Summarize(t_mesh[1][k]).median;
    all[0].push_back(tw);
    all[1].push_back(tc);
    all[2].push_back(tm0);
    all[3].push_back(tm1);
    f << k << ',' << bench::Num(LowerAt(k).p[2]) << ',' << bench::Num(d_warm[k]) << ','
      << bench::Num(d_mesh[0][k]) << ',' << bench::Num(d_mesh[1][k]) << ',' << bench::Num(tw) << ','
      << bench::Num(tc) << ',' << bench::Num(tm0) << ',' << bench::Num(tm1) << ',' << q_warm[k]
      << ',' << it_warm[k] << '\n';
    if (!(std::fabs(d_warm[k] - d_cold[k]) <= kSame)) wrong = true;
    for (int g = 0; g < 2; ++g)
      if (d_warm[k] > 0 && !(d_mesh[g][k] >= d_warm[k] - kSame)) wrong = true;
  }
  std::ofstream s(args.out + "/bite_summary.csv");
  s << "method,frames,us_per_frame_median,us_per_frame_mean,us_per_frame_p99,"
       "total_ms\n";
  const std::string names[4] = {"superovoids warm", "superovoids cold",
                                "FCL mesh " + std::to_string(tris[0]) + " tri",
                                "FCL mesh " + std::to_string(tris[1]) + " tri"};
  for (int m = 0; m < 4; ++m) {
    const bench::Stats st = bench::Summarize(all[m]);
    s << '"' << names[m] << "\"," << kFrames << ',' << bench::Num(st.median) << ','
      << bench::Num(st.mean) << ',' << bench::Num(st.p99) << ','
      << bench::Num(st.mean * kFrames * 1e-3) << '\n';
  }
  if (wrong) std::fprintf(stderr, "sov_bench_bite: a frame failed its check (see bite.csv)\n");
  if (!f || !s || !meta.Write()) {
    std::fprintf(stderr, "sov_bench_bite: cannot write to %s\n", args.out.c_str());
    return 1;
  }
  return wrong ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::Guard(Run, argc, argv); }
