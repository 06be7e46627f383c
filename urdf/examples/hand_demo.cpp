// sov_hand_demo: the example hand closes its fingers on a bar. At every step
// it prints the joint angles, the hand link nearest to the bar and the
// nearest pair of hand links (self distance), each with its signed distance
// on the superovoid hand and on its mesh twin (the same links tessellated,
// FCL mesh-mesh queries), and the time each query took. It writes the table
// as CSV and plots distance against step (plot_hand_demo.py, matplotlib).
//
//   sov_hand_demo [--steps N] [--short] [--out-dir DIR] [--urdf hand.urdf]
//                 [--srdf hand.srdf] [--mesh-urdf hand_mesh.urdf] [--no-plot]
#include <fcl/geometry/bvh/BVH_model.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/mesh.h>
#include <superovoid/urdf/scene.h>
#include <tinyxml2.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
  int steps = 40;
  std::string urdf = SOV_HAND_URDF;
  std::string srdf = SOV_HAND_SRDF;
  std::string mesh_urdf = SOV_HAND_MESH_URDF;
  std::string out_dir = SOV_HAND_OUT_DIR;
  bool plot = true;
};

// The bar the hand grasps, in the hand's root frame: a superovoid lying
// along x, in front of the fingers (a1 a2 a3 eps1 eps2 taper_x taper_y).
const std::array<double, 7> kBar = {0.014, 0.014, 0.05, 1.0, 0.3, 0.0, 0.0};
const Eigen::Vector3d kBarPosition(0.0, 0.026, 0.102);

const char* kUsage =
    "usage: sov_hand_demo [--steps N] [--short] [--out-dir DIR] [--urdf FILE]\n"
    "                     [--srdf FILE] [--mesh-urdf FILE] [--no-plot]\n"
    "Closes the example hand on a bar in N steps (default 40; --short: 5) and\n"
    "prints a table per step; writes DIR/hand_demo.csv and DIR/hand_demo.png.\n";

// Parses the command line; exits with status 2 on misuse.
Options parseArgs(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "sov_hand_demo: " << a << " needs a value\n" << kUsage;
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--steps") {
      const std::string v = value();
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (*end != '\0' || n < 2 || n > 100000) {
        std::cerr << "sov_hand_demo: --steps wants an integer >= 2, not '" << v << "'\n";
        std::exit(2);
      }
      o.steps = static_cast<int>(n);
    } else if (a == "--short") {
      o.steps = 5;
    } else if (a == "--out-dir") {
      o.out_dir = value();
    } else if (a == "--urdf") {
      o.urdf = value();
    } else if (a == "--srdf") {
      o.srdf = value();
    } else if (a == "--mesh-urdf") {
      o.mesh_urdf = value();
    } else if (a == "--no-plot") {
      o.plot = false;
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else {
      std::cerr << "sov_hand_demo: unknown argument '" << a << "'\n" << kUsage;
      std::exit(2);
    }
  }
  return o;
}

// The joint values of an SRDF <group_state>, by joint name.
sov::urdf::JointPositions groupState(const std::string& srdf, const std::string& name) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(srdf.c_str()) != tinyxml2::XML_SUCCESS)
    throw std::runtime_error(srdf + ": " + doc.ErrorStr());
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  for (const tinyxml2::XMLElement* s = robot ? robot->FirstChildElement("group_state") : nullptr; s;
       s = s->NextSiblingElement("group_state")) {
    const char* n = s->Attribute("name");
    if (!n || name != n) continue;
    sov::urdf::JointPositions q;
    for (const tinyxml2::XMLElement* j = s->FirstChildElement("joint"); j;
         j = j->NextSiblingElement("joint")) {
      const char* jn = j->Attribute("name");
      double v = 0;
      if (!jn || j->QueryDoubleAttribute("value", &v) != tinyxml2::XML_SUCCESS)
        throw std::runtime_error(srdf + ":" + std::to_string(j->GetLineNum()) +
                                 ": <joint> needs a name and a numeric value");
      q[jn] = v;
    }
    return q;
  }
  throw std::runtime_error(srdf + ": no <group_state name=\"" + name + "\">");
}

// An FCL triangle-mesh model (OBBRSS tree, as FCL users build) of mesh.
std::shared_ptr<fcl::BVHModel<fcl::OBBRSS<double>>> bvh(const sov::urdf::TriangleMesh& mesh) {
  auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSS<double>>>();
  std::vector<fcl::Vector3<double>> v;
  std::vector<fcl::Triangle> t;
  for (const auto& p : mesh.vertices) v.emplace_back(p[0], p[1], p[2]);
  for (const auto& f : mesh.triangles) t.emplace_back(f[0], f[1], f[2]);
  model->beginModel();
  model->addSubModel(v, t);
  model->endModel();
  return model;
}

// Microseconds spent in f(), and its result.
template <class F>
auto timed(double& us, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  auto r = f();
  us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// One row of the table.
struct Row {
  int step = 0;
  double t = 0;  // 0 open .. 1 grasp
  double q_finger = 0, q_thumb = 0;
  sov::urdf::PairDistance obj, obj_mesh, self, self_mesh;
  double us_obj = 0, us_obj_mesh = 0, us_self = 0, us_self_mesh = 0;
};

// "link" or "link1-link2" of a distance result ("-" when nothing was checked).
std::string pairName(const sov::urdf::PairDistance& d) {
  if (!std::isfinite(d.distance)) return "-";
  return d.link2.empty() ? d.link1 : d.link1 + "/" + d.link2;
}

void printHeader() {
  std::printf(
      "                    | hand vs bar                                        | hand vs itself\n"
      "step  q_fing q_thum | nearest link  d_sov(mm) d_mesh(mm)  us_sov us_mesh | "
      "nearest pair          d_sov(mm) d_mesh(mm)  us_sov us_mesh\n");
}

void printRow(const Row& r) {
  std::printf(
      "%4d  %6.3f %6.3f | %-12s %9.3f %10.3f %7.1f %8.1f | %-20s %9.3f %10.3f %7.1f %8.1f\n",
      r.step, r.q_finger, r.q_thumb, pairName(r.obj).c_str(), 1e3 * r.obj.distance,
      1e3 * r.obj_mesh.distance, r.us_obj, r.us_obj_mesh, pairName(r.self).c_str(),
      1e3 * r.self.distance, 1e3 * r.self_mesh.distance, r.us_self, r.us_self_mesh);
}

void writeCsv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream f(path);
  f.precision(12);
  f << "step,t,q_finger,q_thumb,object_link,object_d,object_d_mesh,object_us,object_us_mesh,"
       "self_link1,self_link2,self_d,self_d_mesh,self_us,self_us_mesh\n";
  for (const Row& r : rows)
    f << r.step << ',' << r.t << ',' << r.q_finger << ',' << r.q_thumb << ',' << r.obj.link1 << ','
      << r.obj.distance << ',' << r.obj_mesh.distance << ',' << r.us_obj << ',' << r.us_obj_mesh
      << ',' << r.self.link1 << ',' << r.self.link2 << ',' << r.self.distance << ','
      << r.self_mesh.distance << ',' << r.us_self << ',' << r.us_self_mesh << '\n';
  if (!f) throw std::runtime_error(path + ": could not be written");
}

// Median of the values.
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// What the table shows, in three lines: first contact with the bar, deepest
// overlap on both models, and median query times.
void printSummary(const std::vector<Row>& rows) {
  const Row* contact = nullptr;
  const Row* deepest = &rows.front();
  for (const Row& r : rows) {
    if (!contact && r.obj.distance <= 0) contact = &r;
    if (r.obj.distance < deepest->obj.distance) deepest = &r;
  }
  if (contact) {
    std::printf(
        "first contact with the bar at step %d (%s): superovoids %.3f mm, mesh twin %.3f mm\n",
        contact->step, contact->obj.link1.c_str(), 1e3 * contact->obj.distance,
        1e3 * contact->obj_mesh.distance);
    std::printf("deepest overlap at step %d (%s): superovoids %.3f mm, mesh twin %.3f mm\n",
                deepest->step, deepest->obj.link1.c_str(), 1e3 * deepest->obj.distance,
                1e3 * deepest->obj_mesh.distance);
  } else {
    std::printf("the hand does not reach the bar (nearest %.3f mm)\n", 1e3 * deepest->obj.distance);
  }
  auto times = [&](double Row::*field) {
    std::vector<double> v;
    for (const Row& r : rows) v.push_back(r.*field);
    return median(v);
  };
  std::printf(
      "median time per query: hand vs bar %.0f us (superovoids) / %.0f us (mesh twin), "
      "self %.0f us / %.0f us\n",
      times(&Row::us_obj), times(&Row::us_obj_mesh), times(&Row::us_self),
      times(&Row::us_self_mesh));
}

// Single-quoted for the shell.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs plot_hand_demo.py; a missing python3 or matplotlib is reported, not
// an error (the plot is optional).
void plot(const std::string& csv, const std::string& png) {
  const std::string python = SOV_PYTHON3;
  if (python.empty()) {
    std::printf("python3 was not found when configuring: no plot (%s not written)\n", png.c_str());
    return;
  }
  const std::string cmd =
      quoted(python) + " " + quoted(SOV_HAND_PLOT_SCRIPT) + " " + quoted(csv) + " " + quoted(png);
  std::fflush(stdout);  // the script prints too
  const int status = std::system(cmd.c_str());
  if (status != 0) std::printf("no plot: %s did not write %s\n", SOV_HAND_PLOT_SCRIPT, png.c_str());
}

int run(const Options& o) {
  sov::urdf::Scene scene(o.urdf);
  sov::urdf::Scene mesh_scene(o.mesh_urdf);  // meshes relative to its folder
  const sov::urdf::JointPositions open = groupState(o.srdf, "open");
  const sov::urdf::JointPositions grasp = groupState(o.srdf, "grasp");

  const Eigen::Quaterniond along_x(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitY()));
  auto bar = std::make_shared<sov::Superovoid>(kBar);
  fcl::CollisionObject<double> object(bar, along_x.toRotationMatrix(), kBarPosition);
  fcl::CollisionObject<double> object_mesh(
      bvh(sov::urdf::tessellate(bar->shape(), SOV_HAND_MESH_LAT, SOV_HAND_MESH_LON)),
      along_x.toRotationMatrix(), kBarPosition);
  object.computeAABB();
  object_mesh.computeAABB();
  const std::vector<fcl::CollisionObject<double>*> env{&object}, env_mesh{&object_mesh};

  std::size_t superovoids = 0, meshes = 0;
  for (const auto& g : scene.geometries()) superovoids += g.superovoid;
  for (const auto& g : mesh_scene.geometries()) meshes += g.object->getObjectType() == fcl::OT_BVH;
  std::printf("sov_hand_demo: %s (%zu superovoids) and its mesh twin %s (%zu meshes)\n",
              o.urdf.c_str(), superovoids, o.mesh_urdf.c_str(), meshes);
  std::printf("closing from the 'open' to the 'grasp' state of %s in %d steps, on a bar\n",
              o.srdf.c_str(), o.steps);
  std::printf("(superovoid %g %g %g %g %g at %g %g %g, along x); distances are signed:\n", kBar[0],
              kBar[1], kBar[2], kBar[3], kBar[4], kBarPosition.x(), kBarPosition.y(),
              kBarPosition.z());
  std::printf("< 0 is overlap depth, which FCL's mesh-mesh distance reports as 0\n\n");
  printHeader();
  std::vector<Row> rows;
  for (int s = 0; s < o.steps; ++s) {
    Row r;
    r.step = s;
    r.t = static_cast<double>(s) / (o.steps - 1);
    sov::urdf::JointPositions q;
    for (const auto& [name, v] : grasp) {
      const auto it = open.find(name);
      const double v0 = it == open.end() ? 0.0 : it->second;
      q[name] = v0 + r.t * (v - v0);
    }
    scene.setJointPositions(q);
    mesh_scene.setJointPositions(q);
    r.q_finger = q["index_proximal"];
    r.q_thumb = q["thumb_proximal"];
    r.obj = timed(r.us_obj, [&] { return scene.distance(env); });
    r.obj_mesh = timed(r.us_obj_mesh, [&] { return mesh_scene.distance(env_mesh); });
    r.self = timed(r.us_self, [&] { return scene.minSelfDistance(); });
    r.self_mesh = timed(r.us_self_mesh, [&] { return mesh_scene.minSelfDistance(); });
    printRow(r);
    rows.push_back(r);
  }
  const std::string csv = o.out_dir + "/hand_demo.csv";
  const std::string png = o.out_dir + "/hand_demo.png";
  std::printf("\n");
  printSummary(rows);
  writeCsv(csv, rows);
  std::printf("wrote %s\n", csv.c_str());
  if (o.plot) plot(csv, png);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parseArgs(argc, argv);
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::cerr << "sov_hand_demo: " << e.what() << "\n";
    return 1;
  }
}
