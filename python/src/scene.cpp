// The robot collision scene (sov::urdf::Scene, superovoid/urdf/scene.h) and
// environment obstacles as FCL objects (superovoids through the FCL layer,
// FCL's spheres, boxes and cylinders). Queries run with the GIL released,
// one at a time per scene (a scene's warm-start caches are not shared).
#include <pybind11/stl.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/mesh.h>
#include <superovoid/urdf/scene.h>

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common.h"

namespace sovpy {

namespace {

// A scene and the lock that keeps two Python threads out of it at once.
struct Scene {
  std::unique_ptr<sov::urdf::Scene> scene;
  std::mutex mutex;
};

// An environment object: an FCL object at a pose in the scene's root frame.
struct Obstacle {
  std::shared_ptr<fcl::CollisionObject<double>> object;
  std::string repr;
};

// Runs f on the scene with the GIL released and the scene locked.
template <typename F>
auto locked(Scene &s, F &&f) {
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(s.mutex);
  return f(*s.scene);
}

// An obstacle of geometry shape at pose.
Obstacle makeObstacle(std::shared_ptr<fcl::CollisionGeometry<double>> shape, const Pose &X,
                      std::string repr) {
  Eigen::Matrix3d R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = X.pose.R[3 * i + j];
  Obstacle o;
  o.object = std::make_shared<fcl::CollisionObject<double>>(
      std::move(shape), R, Eigen::Vector3d(X.pose.p[0], X.pose.p[1], X.pose.p[2]));
  o.object->computeAABB();
  o.repr = std::move(repr);
  return o;
}

// A positive, finite size of an FCL primitive; throws sov::Error otherwise.
double positive(double v, const char *what) {
  if (!std::isfinite(v)) throw sov::Error(SOV_ERR_NONFINITE, std::string(what) + " is not finite");
  if (!(v > 0)) throw sov::Error(SOV_ERR_SIZE, std::string(what) + " is not positive");
  return v;
}

// The FCL objects of a list of obstacles.
std::vector<fcl::CollisionObject<double> *> env(const std::vector<Obstacle> &obstacles) {
  std::vector<fcl::CollisionObject<double> *> out;
  for (const Obstacle &o : obstacles) out.push_back(o.object.get());
  return out;
}

// A pose of the scene as a 4x4 homogeneous matrix.
py::array_t<double> isometry(const Eigen::Isometry3d &T) {
  py::array_t<double> M({4, 4});
  auto m = M.mutable_unchecked<2>();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m(i, j) = T.matrix()(i, j);
  return M;
}

// A new scene from a URDF file or text.
std::unique_ptr<Scene> makeScene(const py::object &urdf, const py::object &xml,
                                 const std::string &source_name, const py::object &srdf,
                                 const std::map<std::string, std::string> &packages,
                                 const std::string &mesh_directory, bool warm_start) {
  if (urdf.is_none() == xml.is_none())
    throw std::invalid_argument("Scene: give either a URDF path or xml= text");
  sov::urdf::SceneOptions o;
  o.package_paths = sov::urdf::packagePathsFromHere(packages);
  o.mesh_directory = mesh_directory;
  o.warm_start = warm_start;
  auto s = std::make_unique<Scene>();
  const std::string text = xml.is_none() ? std::string() : xml.cast<std::string>();
  const std::string path = urdf.is_none() ? std::string() : py::str(urdf).cast<std::string>();
  {
    py::gil_scoped_release release;
    s->scene = path.empty() && !xml.is_none()
                   ? std::make_unique<sov::urdf::Scene>(sov::urdf::parse(text, source_name), o)
                   : std::make_unique<sov::urdf::Scene>(path, o);
  }
  if (!srdf.is_none()) {
    const std::string srdf_path = py::str(srdf).cast<std::string>();
    locked(*s, [&](sov::urdf::Scene &sc) { return sc.loadSrdf(srdf_path); });
  }
  return s;
}

// An SRDF report as a dict.
py::dict report(const sov::urdf::SrdfReport &r) {
  py::dict d;
  d["disabled"] = r.disabled;
  d["enabled"] = r.enabled;
  d["skipped"] = r.skipped;
  return d;
}

// PairDistance, Contact and Obstacle.
void registerSceneTypes(py::module_ &m) {
  py::class_<sov::urdf::PairDistance>(m, "PairDistance", R"(The nearest pair of a scene query: link1,
collision1 (its <collision> index), link2, collision2 ("" and the obstacle's index for an
environment query), distance (signed; +inf when no pair was checked; a pair with a mesh
has no depth: 0 when touching), p1, p2 (witness points, root frame).)")
      .def_readonly("link1", &sov::urdf::PairDistance::link1)
      .def_readonly("collision1", &sov::urdf::PairDistance::collision1)
      .def_readonly("link2", &sov::urdf::PairDistance::link2)
      .def_readonly("collision2", &sov::urdf::PairDistance::collision2)
      .def_readonly("distance", &sov::urdf::PairDistance::distance)
      .def_property_readonly("p1", [](const sov::urdf::PairDistance &d) { return vec3(d.p1.data()); })
      .def_property_readonly("p2", [](const sov::urdf::PairDistance &d) { return vec3(d.p2.data()); })
      .def("__repr__", [](const sov::urdf::PairDistance &d) {
        return "PairDistance(" + d.link1 + "#" + std::to_string(d.collision1) + ", " + d.link2 + "#" +
               std::to_string(d.collision2) + ", distance=" + py::repr(py::float_(d.distance)).cast<std::string>() + ")";
      });
  py::class_<sov::urdf::Contact>(m, "Contact", R"(A pair within a margin (Scene.self_contacts,
Scene.contacts): the PairDistance fields and normal, the unit vector from the first
geometry towards the second.)")
      .def_readonly("link1", &sov::urdf::Contact::link1)
      .def_readonly("collision1", &sov::urdf::Contact::collision1)
      .def_readonly("link2", &sov::urdf::Contact::link2)
      .def_readonly("collision2", &sov::urdf::Contact::collision2)
      .def_readonly("distance", &sov::urdf::Contact::distance)
      .def_property_readonly("p1", [](const sov::urdf::Contact &c) { return vec3(c.p1.data()); })
      .def_property_readonly("p2", [](const sov::urdf::Contact &c) { return vec3(c.p2.data()); })
      .def_property_readonly("normal", [](const sov::urdf::Contact &c) { return vec3(c.normal.data()); })
      .def("__repr__", [](const sov::urdf::Contact &c) {
        return "Contact(" + c.link1 + "#" + std::to_string(c.collision1) + ", " + c.link2 + "#" +
               std::to_string(c.collision2) + ", distance=" + py::repr(py::float_(c.distance)).cast<std::string>() + ")";
      });
  py::class_<Obstacle>(m, "Obstacle", R"(An environment object for Scene queries, posed in the
scene's root frame: Obstacle.superovoid(shape, pose), .sphere(radius, pose),
.box(size, pose) (three side lengths), .cylinder(radius, length, pose).)")
      .def_static("superovoid", [](const Shape &s, const Pose &X) {
             return makeObstacle(std::make_shared<sov::Superovoid>(s.params), X,
                                 "Obstacle.superovoid(" + py::repr(py::cast(s)).cast<std::string>() + ")");
           }, py::arg("shape"), py::arg("pose") = Pose{{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}})
      .def_static("sphere", [](double r, const Pose &X) {
             return makeObstacle(std::make_shared<fcl::Sphere<double>>(positive(r, "radius")), X,
                                 "Obstacle.sphere(" + std::to_string(r) + ")");
           }, py::arg("radius"), py::arg("pose") = Pose{{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}})
      .def_static("box", [](const py::handle &size, const Pose &X) {
             const std::array<double, 3> s = read3(size, "size");
             return makeObstacle(std::make_shared<fcl::Box<double>>(positive(s[0], "size x"),
                                                                   positive(s[1], "size y"),
                                                                   positive(s[2], "size z")),
                                 X, "Obstacle.box(...)");
           }, py::arg("size"), py::arg("pose") = Pose{{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}})
      .def_static("cylinder", [](double r, double l, const Pose &X) {
             return makeObstacle(std::make_shared<fcl::Cylinder<double>>(positive(r, "radius"),
                                                                        positive(l, "length")),
                                 X, "Obstacle.cylinder(...)");
           }, py::arg("radius"), py::arg("length"),
           py::arg("pose") = Pose{{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}})
      .def("__repr__", [](const Obstacle &o) { return o.repr; });
}

// Scene's methods.
void registerSceneClass(py::module_ &m) {
  py::class_<Scene>(m, "Scene", R"(A robot collision scene (sov::urdf::Scene): forward kinematics of a
URDF and every link's collision geometry (superovoids, boxes, spheres, cylinders, meshes).

Scene(urdf_path, srdf=None, packages={}, mesh_directory="", warm_start=True), or
Scene(xml=text, source_name="<string>", ...); packages: {name: folder} for package:// meshes,
a relative folder taken from the current directory, as the tools take --package. Joints
start at 0 (or their nearest limit); adjacent links are never checked; an SRDF's disabled collisions are applied. Errors raise
UrdfError or SceneError (status, message, source, line, link, name). Queries release the
GIL; one scene answers one query at a time.)")
      .def(py::init(&makeScene), py::arg("urdf") = py::none(), py::kw_only(),
           py::arg("xml") = py::none(), py::arg("source_name") = "<string>",
           py::arg("srdf") = py::none(), py::arg("packages") = std::map<std::string, std::string>(),
           py::arg("mesh_directory") = "", py::arg("warm_start") = true)
      .def("set_joint_positions", [](Scene &s, const sov::urdf::JointPositions &q) {
             locked(s, [&](sov::urdf::Scene &sc) { sc.setJointPositions(q); return 0; });
           }, py::arg("positions"), "Set joints by name (dict); the others keep their positions.")
      .def_property_readonly("joint_positions", [](Scene &s) {
             return locked(s, [](sov::urdf::Scene &sc) { return sc.jointPositions(); });
           }, "Every movable joint's position (mimic joints excluded).")
      .def("link_names", [](Scene &s) {
             return locked(s, [](sov::urdf::Scene &sc) { return sc.linkNames(); });
           }, "The links, in the model's order.")
      .def("link_pose", [](Scene &s, const std::string &link) {
             const Eigen::Isometry3d T = locked(s, [&](sov::urdf::Scene &sc) { return sc.linkPose(link); });
             return isometry(T);
           }, py::arg("link"), "A link's pose in the root frame (4x4).")
      .def("geometries", [](Scene &s) {
             const auto g = locked(s, [](sov::urdf::Scene &sc) { return sc.geometries(); });
             py::list out;
             for (const auto &r : g) out.append(py::make_tuple(r.link, r.collision, r.superovoid));
             return out;
           }, "Every collision geometry as (link, collision index, is a superovoid).")
      .def("allow_collision", [](Scene &s, const std::string &a, const std::string &b, bool allowed) {
             locked(s, [&](sov::urdf::Scene &sc) {
               allowed ? sc.allowCollision(a, b) : sc.disallowCollision(a, b);
               return 0;
             });
           }, py::arg("link1"), py::arg("link2"), py::arg("allowed") = true,
           "Allow (never check) or disallow collisions between two links.")
      .def("is_collision_allowed", [](Scene &s, const std::string &a, const std::string &b) {
             return locked(s, [&](sov::urdf::Scene &sc) { return sc.isCollisionAllowed(a, b); });
           }, py::arg("link1"), py::arg("link2"))
      .def("load_srdf", [](Scene &s, const py::object &path) {
             const std::string p = py::str(path).cast<std::string>();
             return report(locked(s, [&](sov::urdf::Scene &sc) { return sc.loadSrdf(p); }));
           }, py::arg("path"), "Apply an SRDF's collision entries; returns {disabled, enabled, skipped}.")
      .def("load_srdf_string", [](Scene &s, const std::string &xml, const std::string &source) {
             return report(locked(s, [&](sov::urdf::Scene &sc) { return sc.loadSrdfString(xml, source); }));
           }, py::arg("xml"), py::arg("source_name") = "<string>")
      .def("self_distance", [](Scene &s) {
             return locked(s, [](sov::urdf::Scene &sc) { return sc.minSelfDistance(); });
           }, "The smallest signed distance between links that may collide (PairDistance).")
      .def("self_collision", [](Scene &s) {
             return locked(s, [](sov::urdf::Scene &sc) { return sc.selfCollision(); });
           }, "True when links that may not collide touch.")
      .def("self_collision_pairs", [](Scene &s) {
             std::set<std::pair<std::string, std::string>> pairs;
             locked(s, [&](sov::urdf::Scene &sc) { return sc.selfCollision(&pairs); });
             return std::vector<std::pair<std::string, std::string>>(pairs.begin(), pairs.end());
           }, "The link pairs that touch (names ordered), sorted.")
      .def("self_contacts", [](Scene &s, double margin) {
             return locked(s, [&](sov::urdf::Scene &sc) { return sc.contacts(margin); });
           }, py::arg("margin") = 0.0, "Every self pair within margin, nearest first (Contact list).")
      .def("distance", [](Scene &s, const std::vector<Obstacle> &obstacles) {
             const auto e = env(obstacles);
             return locked(s, [&](sov::urdf::Scene &sc) { return sc.distance(e); });
           }, py::arg("obstacles"), "Smallest signed distance from a link to an obstacle (PairDistance).")
      .def("collision", [](Scene &s, const std::vector<Obstacle> &obstacles) {
             const auto e = env(obstacles);
             return locked(s, [&](sov::urdf::Scene &sc) { return sc.collides(e); });
           }, py::arg("obstacles"), "True when a link touches an obstacle.")
      .def("collision_pairs", [](Scene &s, const std::vector<Obstacle> &obstacles) {
             const auto e = env(obstacles);
             std::set<std::pair<std::string, std::size_t>> pairs;
             locked(s, [&](sov::urdf::Scene &sc) { return sc.collides(e, &pairs); });
             return std::vector<std::pair<std::string, std::size_t>>(pairs.begin(), pairs.end());
           }, py::arg("obstacles"), "The (link, obstacle index) pairs that touch, sorted.")
      .def("contacts", [](Scene &s, const std::vector<Obstacle> &obstacles, double margin) {
             const auto e = env(obstacles);
             return locked(s, [&](sov::urdf::Scene &sc) { return sc.contacts(e, margin); });
           }, py::arg("obstacles"), py::arg("margin") = 0.0,
           "Every (link, obstacle) pair within margin, nearest first (Contact list).")
      .def_property_readonly("cache_count", [](Scene &s) {
             return locked(s, [](sov::urdf::Scene &sc) { return sc.cacheCount(); });
           })
      .def("reset_caches", [](Scene &s) {
             locked(s, [](sov::urdf::Scene &sc) { sc.resetCaches(); return 0; });
           }, "Forget every warm-start cache.");
}

}  // namespace

// The scene part of the module.
void registerScene(py::module_ &m) {
  registerSceneTypes(m);
  registerSceneClass(m);
  m.attr("status_string") = py::cpp_function(&sov_scene_status_string, py::arg("status"),
                                             "Static English message for a status code (core, URDF, scene).");
}

}  // namespace sovpy
