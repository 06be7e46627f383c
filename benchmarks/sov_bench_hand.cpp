// sov_bench_hand: experiment 3 of the benchmark issue (study Table 4, Fig.
// 11). The example hand (urdf/examples/hand.urdf) closes from its SRDF
// "open" state to its "grasp" state, then keeps closing to the joint limits,
// where links interpenetrate; at every frame each pair of superovoid links
// that are not parent and child is queried. Models: the hand as
// written (superovoid), the same links untapered (superellipsoid), tapered
// fingertips only on the thumb, index and ring (mixed), each warm-started
// from the pair's previous frame as in the study, and cold, plus the
// superovoid model's boolean sov_collide; and the same motion with 290-vertex
// mesh links, FCL fcl::distance (OBBRSS) and FCL's boolean fcl::collide for
// reference.
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>
#include <tinyxml2.h>

#include "bench_common.h"

namespace {

const char kUsage[] =
    "usage: sov_bench_hand --out DIR [--quick] [--urdf hand.urdf] [--srdf "
    "hand.srdf]\n"
    "Writes DIR/hand.csv (summary), DIR/hand_queries.csv (every query) and "
    "_meta.csv.\n"
    "Exit 3 when warm and cold answers differ by more than 1e-9, or a mesh "
    "distance\n"
    "of a separated pair is below ours (the mesh lies inside the body).\n";

constexpr int kClosingFrames = 121;  // open -> grasp
constexpr int kFrames = 181;         // then 60 frames squeezing on to the joint limits
constexpr int kLat = 13, kLon = 24;  // 290 vertices per link, as experiment 1
constexpr double kSame = 1e-9;

// Joint values of an SRDF group_state.
sov::urdf::JointPositions GroupState(const std::string& srdf, const std::string& state) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(srdf.c_str()) != tinyxml2::XML_SUCCESS)
    throw std::runtime_error("cannot read " + srdf);
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  for (auto* g = robot ? robot->FirstChildElement("group_state") : nullptr; g;
       g = g->NextSiblingElement("group_state")) {
    if (!g->Attribute("name") || state != g->Attribute("name")) continue;
    sov::urdf::JointPositions q;
    for (auto* j = g->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint"))
      q[j->Attribute("name")] = j->DoubleAttribute("value");
    return q;
  }
  throw std::runtime_error(srdf + ": no group_state '" + state + "'");
}

// Link of the hand: name and the superovoid's parameters and origin.
struct Link {
  std::string name;
  std::array<double, 7> params;
  Eigen::Isometry3d origin;
};

// A shape model of the hand: one sov_shape per link.
struct Model {
  std::string name;
  std::vector<sov_shape> shapes;
};

// Tapers kept where keep(link) holds, zeroed elsewhere.
Model Variant(const std::string& name, const std::vector<Link>& links,
              bool (*keep)(const std::string&)) {
  Model m{name, {}};
  for (const Link& l : links) {
    std::array<double, 7> p = l.params;
    if (!keep(l.name)) p[5] = p[6] = 0;
    m.shapes.push_back(bench::MakeShape(p.data()));
  }
  return m;
}

bool KeepAll(const std::string&) { return true; }
bool KeepNone(const std::string&) { return false; }
bool KeepSome(const std::string& link) {
  return link.rfind("thumb", 0) == 0 || link.rfind("index", 0) == 0 || link.rfind("ring", 0) == 0;
}

// sov_pose of an isometry.
sov_pose ToPose(const Eigen::Isometry3d& T) {
  double R[9], p[3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) R[3 * i + j] = T.linear()(i, j);
    p[i] = T.translation()[i];
  }
  sov_pose X;
  if (sov_pose_from_matrix(&X, R, p) != SOV_OK)
    throw std::runtime_error("kinematics gave a non-rotation");
  return X;
}

// Accumulated statistics of one model.
struct Acc {
  std::vector<double> us, iters, frame_us;
  double min_d = INFINITY;
  size_t colliding = 0;
};

// The program (see kUsage).
int Run(int argc, char** argv) {
  bench::Args args = bench::ParseArgs(argc, argv, kUsage);
  std::string urdf_path = SOV_HAND_URDF, srdf_path;
  for (size_t i = 0; i < args.rest.size(); ++i)
    if (args.rest[i] == "--urdf" && i + 1 < args.rest.size())
      urdf_path = args.rest[++i];
    else if (args.rest[i] == "--srdf" && i + 1 < args.rest.size())
      srdf_path = args.rest[++i];
    else
      bench::Usage(kUsage);
  if (srdf_path.empty()) srdf_path = urdf_path.substr(0, urdf_path.size() - 5) + ".srdf";
  const int repeat = args.quick ? 1 : 5, frames = args.quick ? 31 : kFrames,
            closing_frames = args.quick ? 21 : kClosingFrames;
  bench::Meta meta(args.out, "hand", argc, argv);
  meta.Add("model", urdf_path);
  meta.Add("repeat",
           std::to_string(repeat) + " runs of the motion after 1 warm-up; per-query medians");

  const sov::urdf::Model model = sov::urdf::parseFile(urdf_path);
  const sov::urdf::JointPositions open = GroupState(srdf_path, "open"),
                                  grasp = GroupState(srdf_path, "grasp");
  std::vector<Link> links;
  for (const auto& s : model.superovoids) {
    Eigen::Isometry3d o = Eigen::Isometry3d::Identity();
    o.linear() = Eigen::Quaterniond(s.quat[0], s.quat[1], s.quat[2], s.quat[3]).toRotationMatrix();
    o.translation() = Eigen::Vector3d(s.xyz[0], s.xyz[1], s.xyz[2]);
    links.push_back({s.link, s.params, o});
  }
  // Pairs: every two superovoids on links that are not parent and child.
  std::set<std::pair<std::string, std::string>> adjacent;
  for (const auto& [name, joint] : model.urdf->joints_) {
    adjacent.insert({joint->parent_link_name, joint->child_link_name});
    adjacent.insert({joint->child_link_name, joint->parent_link_name});
  }
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0; i < links.size(); ++i)
    for (size_t j = i + 1; j < links.size(); ++j)
      if (links[i].name != links[j].name && !adjacent.count({links[i].name, links[j].name}))
        pairs.emplace_back(i, j);
  meta.Add("links", std::to_string(links.size()) + " superovoid collisions, " +
                        std::to_string(pairs.size()) + " non-adjacent pairs a frame, " +
                        std::to_string(closing_frames) + " frames open -> grasp, " +
                        std::to_string(frames - closing_frames) + " squeezing to the joint limits");

  // Poses of every link at every frame: the first closing_frames interpolate
  // open -> grasp, the rest keep closing every joint that grasp moves, on to
  // its limit (squeeze), where links press into each other.
  std::vector<std::vector<sov_pose>> poses(frames);
  for (int f = 0; f < frames; ++f) {
    sov::urdf::JointPositions q;
    for (const auto& [joint, v] : grasp) {
      const double from = open.count(joint) ? open.at(joint) : 0.0;
      if (f < closing_frames) {
        const double t = static_cast<double>(f) / (closing_frames - 1);
        q[joint] = (1 - t) * from + t * v;
      } else {
        const auto& limits = model.urdf->getJoint(joint)->limits;
        const double end = !limits || v == from ? v : v > from ? limits->upper : limits->lower;
        const double t = static_cast<double>(f - closing_frames + 1) / (frames - closing_frames);
        q[joint] = (1 - t) * v + t * end;
      }
    }
    const sov::urdf::LinkPoses lp = sov::urdf::forwardKinematics(*model.urdf, q);
    for (const Link& l : links) poses[f].push_back(ToPose(lp.at(l.name) * l.origin));
  }

  const Model models[3] = {Variant("superellipsoid", links, KeepNone),
                           Variant("superovoid", links, KeepAll),
                           Variant("mixed", links, KeepSome)};
  std::ofstream qcsv(args.out + "/hand_queries.csv");
  qcsv << "model,frame,pair,us,iterations,d\n";
  std::ofstream f(args.out + "/hand.csv");
  f << "model,queries,us_median,us_mean,us_p99,iterations_mean,frame_us_median,"
       "min_d,colliding_pair_frames\n";
  bench::Progress progress("hand motion", 3 * 2 + 3);
  bool wrong = false;
  std::vector<std::vector<double>> d_superovoid(frames, std::vector<double>(pairs.size()));
  const size_t n = pairs.size();
  for (const Model& m : models) {
    for (int warm = 1; warm >= 0; --warm) {
      // times[f][k] over repetitions; answers of the last run.
      std::vector<std::vector<std::vector<double>>> times(frames,
                                                          std::vector<std::vector<double>>(n));
      std::vector<std::vector<sov_result>> res(frames, std::vector<sov_result>(n));
      for (int rep = -1; rep < repeat; ++rep) {
        std::vector<sov_cache> caches(n);
        for (auto& c : caches) sov_cache_reset(&c);
        for (int fr = 0; fr < frames; ++fr)
          for (size_t k = 0; k < n; ++k) {
            const auto [i, j] = pairs[k];
            const auto t0 = bench::Clock::now();
            const int st = sov_distance(&res[fr][k], &m.shapes[i], &poses[fr][i], &m.shapes[j],
                                        &poses[fr][j], nullptr, warm ? &caches[k] : nullptr);
            const double us = bench::ElapsedNs(t0) * 1e-3;
            if (st != SOV_OK) throw std::runtime_error(m.name + ": " + sov_status_string(st));
            if (rep >= 0) times[fr][k].push_back(us);
          }
      }
      Acc a;
      for (int fr = 0; fr < frames; ++fr) {
        double frame = 0;
        for (size_t k = 0; k < n; ++k) {
          const double us = bench::Summarize(times[fr][k]).median;
          frame += us;
          a.us.push_back(us);
          a.iters.push_back(res[fr][k].iterations);
          a.min_d = std::min(a.min_d, res[fr][k].d);
          a.colliding += res[fr][k].d <= 0;
          if (warm) {
            qcsv << m.name << ',' << fr << ',' << k << ',' << bench::Num(us) << ','
                 << res[fr][k].iterations << ',' << bench::Num(res[fr][k].d) << '\n';
            if (m.name == "superovoid") d_superovoid[fr][k] = res[fr][k].d;
          } else if (m.name == "superovoid" &&
                     !(std::fabs(res[fr][k].d - d_superovoid[fr][k]) <= kSame)) {
            wrong = true;
          }
        }
        a.frame_us.push_back(frame);
      }
      const bench::Stats s = bench::Summarize(a.us), it = bench::Summarize(a.iters),
                         fs = bench::Summarize(a.frame_us);
      f << m.name << (warm ? " warm" : " cold") << ',' << a.us.size() << ',' << bench::Num(s.median)
        << ',' << bench::Num(s.mean) << ',' << bench::Num(s.p99) << ',' << bench::Num(it.mean)
        << ',' << bench::Num(fs.median) << ',' << bench::Num(a.min_d) << ',' << a.colliding << '\n';
      progress.Step();
    }
  }
  // The superovoid model's boolean query (sov_collide, warm), the counterpart
  // of FCL's boolean mesh collide; it must agree with the sign of d.
  {
    Acc a;
    std::vector<sov_cache> caches(n);
    for (auto& c : caches) sov_cache_reset(&c);
    const Model& m = models[1];
    for (int fr = 0; fr < frames; ++fr) {
      double frame = 0;
      for (size_t k = 0; k < n; ++k) {
        const auto [i, j] = pairs[k];
        int hit = 0, st = SOV_OK;
        const double us = bench::MedianUs(repeat, [&] {
          st = sov_collide(&hit, &m.shapes[i], &poses[fr][i], &m.shapes[j], &poses[fr][j], nullptr,
                           &caches[k]);
        });
        if (st != SOV_OK || hit != (d_superovoid[fr][k] <= 0)) wrong = true;
        frame += us;
        a.us.push_back(us);
        a.colliding += hit;
        qcsv << "superovoid collide," << fr << ',' << k << ',' << bench::Num(us) << ",-1,nan\n";
      }
      a.frame_us.push_back(frame);
    }
    const bench::Stats s = bench::Summarize(a.us), fs = bench::Summarize(a.frame_us);
    f << "superovoid collide warm," << a.us.size() << ',' << bench::Num(s.median) << ','
      << bench::Num(s.mean) << ',' << bench::Num(s.p99) << ",nan," << bench::Num(fs.median)
      << ",nan," << a.colliding << '\n';
    progress.Step();
  }
  // Mesh links (the superovoid model tessellated): distance and boolean
  // collide.
  std::vector<std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>>> meshes;
  for (const sov_shape& s : models[1].shapes)
    meshes.push_back(bench::MeshBvh(bench::Tessellate(s, kLat, kLon)));
  for (int collide = 0; collide < 2; ++collide) {
    Acc a;
    const int mesh_repeat = std::min(repeat, 3);
    for (int fr = 0; fr < frames; ++fr) {
      double frame = 0;
      for (size_t k = 0; k < n; ++k) {
        const auto [i, j] = pairs[k];
        const fcl::Transform3d ti = bench::ToFcl(poses[fr][i]), tj = bench::ToFcl(poses[fr][j]);
        double d = NAN;
        bool hit = false;
        const double us = bench::MedianUs(mesh_repeat, [&] {
          if (collide) {
            fcl::CollisionRequestd req;
            fcl::CollisionResultd r;
            hit = fcl::collide(meshes[i].get(), ti, meshes[j].get(), tj, req, r) > 0;
          } else {
            fcl::DistanceRequestd req;
            fcl::DistanceResultd r;
            d = fcl::distance(meshes[i].get(), ti, meshes[j].get(), tj, req, r);
          }
        });
        frame += us;
        a.us.push_back(us);
        a.colliding += collide ? hit : d <= 0;
        if (!collide) {
          a.min_d = std::min(a.min_d, d);
          if (d_superovoid[fr][k] > 0 && !(d >= d_superovoid[fr][k] - kSame)) wrong = true;
        }
        qcsv << (collide ? "mesh collide" : "mesh distance") << ',' << fr << ',' << k << ','
             << bench::Num(us) << ",-1," << bench::Num(d) << '\n';
      }
      a.frame_us.push_back(frame);
    }
    const bench::Stats s = bench::Summarize(a.us), fs = bench::Summarize(a.frame_us);
    f << (collide ? "FCL mesh 290v collide" : "FCL mesh 290v distance") << ',' << a.us.size() << ','
      << bench::Num(s.median) << ',' << bench::Num(s.mean) << ',' << bench::Num(s.p99) << ",nan,"
      << bench::Num(fs.median) << ',' << bench::Num(collide ? NAN : a.min_d) << ',' << a.colliding
      << '\n';
    progress.Step();
  }
  if (wrong) std::fprintf(stderr, "sov_bench_hand: an answer failed its check\n");
  if (!f || !qcsv || !meta.Write()) {
    std::fprintf(stderr, "sov_bench_hand: cannot write to %s\n", args.out.c_str());
    return 1;
  }
  return wrong ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) { return bench::Guard(Run, argc, argv); }
