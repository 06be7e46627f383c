// sov_bench_scaling: experiment 7 of the benchmark issue. Scenes of N random
// superovoids at a fixed density in FCL's DynamicAABBTreeCollisionManager
// with the layer's callbacks (superovoid/fcl/broadphase.h): a full collision
// check (every colliding pair) on uniformly placed bodies, and a full minimum
// distance on a jittered lattice (no overlaps, so nothing stops it early);
// then the same batch of narrowphase queries on 1 and 2 threads. Up to
// N = 1000 both answers are checked against brute force over all pairs.
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <superovoid/fcl/broadphase.h>

#include <random>
#include <thread>

#include "bench_common.h"

namespace {

const char kUsage[] =
    "usage: sov_bench_scaling --out DIR [--quick] [--max-n N]\n"
    "Writes DIR/scaling.csv, DIR/threads.csv and _meta.csv. N = 10, 100, 1000, "
    "10000\n"
    "(--quick: up to 1000, fewer repetitions). Exit 3 when the manager's "
    "answer differs\n"
    "from brute force.\n";

constexpr double kDensity = 0.125;  // bodies per unit volume (mean spacing 2)
constexpr double kMaxRadius = 0.7;  // bounding radius cap of a drawn body
constexpr double kJitter = 0.25;    // lattice jitter, each axis: gaps >= 1.5 > 2 kMaxRadius
constexpr size_t kBruteForceMax = 1000;
constexpr size_t kBatchMax = 20000;  // narrowphase pairs in the thread batch

// A random valid superovoid with a bounding radius below kMaxRadius.
std::shared_ptr<sov::Superovoid> RandomBody(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> size(0.2, 0.45), eps(0.3, 1.6), taper(-0.3, 0.3);
  for (;;) {
    const double p[7] = {size(rng), size(rng),  size(rng), eps(rng),
                         eps(rng),  taper(rng), taper(rng)};
    sov_shape s;
    if (sov_shape_init(&s, p) == SOV_OK && bench::Info(s).radius < kMaxRadius)
      return std::make_shared<sov::Superovoid>(
          std::array<double, 7>{p[0], p[1], p[2], p[3], p[4], p[5], p[6]});
  }
}

// A uniformly random rotation (normalised Gaussian quaternion).
Eigen::Matrix3d RandomRotation(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  Eigen::Quaterniond q(g(rng), g(rng), g(rng), g(rng));
  return q.normalized().toRotationMatrix();
}

// N bodies: uniform in a cube (lattice = false) or on a jittered cubic
// lattice (lattice = true), both at kDensity.
std::vector<std::unique_ptr<fcl::CollisionObjectd>> Scene(size_t n, bool lattice, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const double side = std::cbrt(static_cast<double>(n) / kDensity);
  const size_t per_axis = static_cast<size_t>(std::ceil(std::cbrt(static_cast<double>(n))));
  const double spacing = std::cbrt(1 / kDensity);
  std::uniform_real_distribution<double> u(0, side), jitter(-kJitter, kJitter);
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;
  for (size_t i = 0; i < n; ++i) {
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    tf.linear() = RandomRotation(rng);
    if (lattice)
      tf.translation() = fcl::Vector3d((i % per_axis) * spacing + jitter(rng),
                                       (i / per_axis % per_axis) * spacing + jitter(rng),
                                       (i / per_axis / per_axis) * spacing + jitter(rng));
    else
      tf.translation() = fcl::Vector3d(u(rng), u(rng), u(rng));
    objects.push_back(std::make_unique<fcl::CollisionObjectd>(RandomBody(rng), tf));
    objects.back()->computeAABB();
  }
  return objects;
}

std::vector<fcl::CollisionObjectd*> Pointers(
    const std::vector<std::unique_ptr<fcl::CollisionObjectd>>& v) {
  std::vector<fcl::CollisionObjectd*> p;
  for (const auto& o : v) p.push_back(o.get());
  return p;
}

// Brute force over pairs whose bounding spheres allow contact (collide) or a
// distance below the best so far: number of colliding pairs, or the minimum
// distance.
double BruteForce(const std::vector<std::unique_ptr<fcl::CollisionObjectd>>& v,
                  bool count_collisions) {
  double best = INFINITY;
  size_t colliding = 0;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = i + 1; j < v.size(); ++j) {
      const auto* a = static_cast<const sov::Superovoid*>(v[i]->collisionGeometry().get());
      const auto* b = static_cast<const sov::Superovoid*>(v[j]->collisionGeometry().get());
      const double gap = (v[i]->getTranslation() - v[j]->getTranslation()).norm() -
                         a->info().radius - b->info().radius;
      if (count_collisions) {
        if (gap > 0) continue;
        fcl::CollisionRequestd req;
        fcl::CollisionResultd res;
        colliding += sov::collide(v[i].get(), v[j].get(), req, res) > 0;
      } else {
        if (gap > best) continue;
        fcl::DistanceRequestd req;
        fcl::DistanceResultd res;
        best = std::min(best, sov::distance(v[i].get(), v[j].get(), req, res));
      }
    }
  return count_collisions ? static_cast<double>(colliding) : best;
}

// Records the pairs the broadphase hands to the narrowphase.
bool RecordPair(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data) {
  auto* pairs =
      static_cast<std::vector<std::pair<fcl::CollisionObjectd*, fcl::CollisionObjectd*>>*>(data);
  if (pairs->size() < kBatchMax) pairs->emplace_back(o1, o2);
  return false;
}

// CPU time of the whole process (all threads), ms.
double ProcessCpuMs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

// Signed distances of pairs [begin, end) into d.
void DistanceBatch(
    const std::vector<std::pair<fcl::CollisionObjectd*, fcl::CollisionObjectd*>>& pairs,
    size_t begin, size_t end, std::vector<double>* d) {
  fcl::DistanceRequestd req;
  for (size_t i = begin; i < end; ++i) {
    fcl::DistanceResultd res;
    (*d)[i] = sov::distance(pairs[i].first, pairs[i].second, req, res);
  }
}

// The program (see kUsage).
int Run(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, kUsage);
  size_t max_n = args.quick ? 1000 : 10000;
  for (size_t i = 0; i < args.rest.size(); ++i)
    if (args.rest[i] == "--max-n" && i + 1 < args.rest.size())
      max_n = std::strtoul(args.rest[++i].c_str(), nullptr, 10);
    else
      bench::Usage(kUsage);
  bench::Meta meta(args.out, "scaling", argc, argv);
  meta.Add("scene",
           "density 0.125 bodies per unit volume; sizes 0.2-0.45, eps "
           "0.3-1.6, tapers +-0.3, "
           "bounding radius < 0.7, random rotations");
  std::ofstream f(args.out + "/scaling.csv"), th(args.out + "/threads.csv");
  f << "n,setup_ms,collide_ms_median,collide_ms_p99,colliding_pairs,distance_"
       "ms_median,distance_ms_p99,"
       "min_distance,repeat,brute_force_checked\n";
  th << "n,pairs,threads,ms_median,cpu_ms_median,speedup\n";
  bool wrong = false;
  std::vector<size_t> ns;
  for (size_t n = 10; n <= max_n; n *= 10) ns.push_back(n);
  bench::Progress progress("scaling", ns.size());
  for (const size_t n : ns) {
    const int repeat = n <= 10 ? 200 : n <= 100 ? 50 : n <= 1000 ? (args.quick ? 3 : 10) : 3;
    const auto random = Scene(n, false, 42 + n), lattice = Scene(n, true, 4242 + n);
    const auto t0 = bench::Clock::now();
    fcl::DynamicAABBTreeCollisionManagerd cm, dm;
    cm.registerObjects(Pointers(random));
    cm.setup();
    const double setup_ms = bench::ElapsedNs(t0) * 1e-6;
    dm.registerObjects(Pointers(lattice));
    dm.setup();
    std::vector<double> tc, td;
    size_t colliding = 0;
    double min_d = NAN;
    for (int r = -1; r < repeat; ++r) {
      sov::DefaultCollisionData c;
      c.request.num_max_contacts = 100000000;  // every colliding pair
      auto s = bench::Clock::now();
      cm.collide(&c, sov::DefaultCollisionFunction);
      if (r >= 0) tc.push_back(bench::ElapsedNs(s) * 1e-6);
      colliding = c.result.numContacts();
      sov::DefaultDistanceData d;
      s = bench::Clock::now();
      dm.distance(&d, sov::DefaultDistanceFunction);
      if (r >= 0) td.push_back(bench::ElapsedNs(s) * 1e-6);
      min_d = d.result.min_distance;
    }
    bool checked = false;
    if (n <= kBruteForceMax) {
      checked = true;
      const double bc = BruteForce(random, true), bd = BruteForce(lattice, false);
      if (bc != static_cast<double>(colliding) || !(std::fabs(bd - min_d) <= 1e-12)) {
        std::fprintf(stderr,
                     "\nN=%zu: manager %zu colliding, min %.17g; brute force "
                     "%.0f, %.17g\n",
                     n, colliding, min_d, bc, bd);
        wrong = true;
      }
    }
    const bench::Stats sc = bench::Summarize(tc), sd = bench::Summarize(td);
    f << n << ',' << bench::Num(setup_ms) << ',' << bench::Num(sc.median) << ','
      << bench::Num(sc.p99) << ',' << colliding << ',' << bench::Num(sd.median) << ','
      << bench::Num(sd.p99) << ',' << bench::Num(min_d) << ',' << repeat << ','
      << (checked ? "yes" : "no") << '\n';
    // The same batch of narrowphase queries on 1 and 2 threads.
    std::vector<std::pair<fcl::CollisionObjectd*, fcl::CollisionObjectd*>> pairs;
    cm.collide(&pairs, RecordPair);
    std::vector<double> out(pairs.size()), ref(pairs.size());
    double one = NAN;
    for (int threads = 1; threads <= 2; ++threads) {
      // Wall and process CPU time of the batch, medians over the runs after
      // one warm-up: CPU time near threads x wall means both cores were ours.
      std::vector<double> wall, cpu;
      for (int r = -1; r < std::max(3, repeat / 4); ++r) {
        const double c0 = ProcessCpuMs();
        const auto t0 = bench::Clock::now();
        std::vector<std::thread> pool;
        for (int t = 1; t < threads; ++t)
          pool.emplace_back(DistanceBatch, std::cref(pairs), pairs.size() * t / threads,
                            pairs.size() * (t + 1) / threads, &out);
        DistanceBatch(pairs, 0, pairs.size() / threads, &out);
        for (auto& p : pool) p.join();
        if (r < 0) continue;
        wall.push_back(bench::ElapsedNs(t0) * 1e-6);
        cpu.push_back(ProcessCpuMs() - c0);
      }
      const double ms = bench::Summarize(wall).median, cpu_ms = bench::Summarize(cpu).median;
      if (threads == 1) {
        one = ms;
        ref = out;
      } else if (out != ref) {
        std::fprintf(stderr, "\nN=%zu: 2 threads gave different distances than 1\n", n);
        wrong = true;
      }
      th << n << ',' << pairs.size() << ',' << threads << ',' << bench::Num(ms) << ','
         << bench::Num(cpu_ms) << ',' << bench::Num(one / ms) << '\n';
    }
    progress.Step();
  }
  if (!f || !th || !meta.Write()) {
    std::fprintf(stderr, "sov_bench_scaling: cannot write to %s\n", args.out.c_str());
    return 1;
  }
  return wrong ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::Guard(Run, argc, argv); }
