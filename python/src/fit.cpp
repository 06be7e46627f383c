// Fitting (superovoid::fit, superovoid/urdf/fit.h): a superovoid to a point
// set, a URDF's mesh collisions to superovoids (sov-urdf-fit's work), and
// reading a mesh file. Fits run with the GIL released; a progress callback
// takes it back for each call.
#include <pybind11/functional.h>
#include <pybind11/stl.h>
#include <superovoid/urdf/fit.h>
#include <superovoid/urdf/mesh.h>

#include <superovoid/urdf.h>
#include <superovoid/urdf/error.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common.h"

namespace sovpy {

namespace {

// The Python view of a fit: the C++ struct with Shape and Pose objects.
struct FitResult {
  sov::urdf::SuperovoidFit fit;
};

// One fitted collision of a URDF.
struct CollisionFit {
  sov::urdf::CollisionFit fit;
};

// The union of bodies fitted to one mesh.
struct UnionFit {
  sov::urdf::UnionFit fit;
};

// Points from an (n, 3) array of real numbers.
std::vector<sov::urdf::Point3> readPoints(const py::handle &points) {
  const DoubleArray a = realArray(points, "points");
  if (!a || a.ndim() != 2 || a.shape(1) != 3)
    throw std::invalid_argument("points: an (n, 3) array expected");
  std::vector<sov::urdf::Point3> out(static_cast<size_t>(a.shape(0)));
  std::memcpy(out.data(), a.data(), out.size() * sizeof(sov::urdf::Point3));
  return out;
}

// FitOptions from keyword values.
sov::urdf::FitOptions fitOptions(int refined_starts, int max_iterations, double taper_snap,
                                 int gap_directions) {
  sov::urdf::FitOptions o;
  o.refined_starts = refined_starts;
  o.max_iterations = max_iterations;
  o.taper_snap = taper_snap;
  o.gap_directions = gap_directions;
  return o;
}

// fit_superovoid.
FitResult fitPoints(const py::handle &points, int refined_starts, int max_iterations,
                    double taper_snap, int gap_directions) {
  const std::vector<sov::urdf::Point3> p = readPoints(points);
  const sov::urdf::FitOptions o = fitOptions(refined_starts, max_iterations, taper_snap, gap_directions);
  py::gil_scoped_release release;
  return FitResult{sov::urdf::fitSuperovoid(p, o)};
}

// The progress callback of fit_urdf as the library's: a dict per call, with
// the GIL taken back.
std::function<void(const sov::urdf::FitProgress &)> progressOf(const py::object &callback) {
  if (callback.is_none()) return {};
  return [callback](const sov::urdf::FitProgress &p) {
    py::gil_scoped_acquire acquire;
    py::dict d;
    d["index"] = p.index;
    d["count"] = p.count;
    d["link"] = p.link;
    d["collision"] = p.collision;
    d["line"] = p.line;
    d["mesh"] = p.mesh;
    d["vertices"] = p.vertices;
    d["same_as"] = p.same_as;
    callback(d);
  };
}

// The bytes of a file; throws sov::urdf::Error (SOV_URDF_ERR_IO) naming it.
std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream text;
  if (f) text << f.rdbuf();
  if (!f || f.bad())
    throw sov::urdf::Error(SOV_URDF_ERR_IO, sov::urdf::Location{path, 0, "", ""}, "cannot read the file");
  return text.str();
}

// fit_urdf: (the fitted URDF text, one CollisionFit per fitted collision).
py::tuple fitUrdf(const py::object &urdf, const py::object &output,
                  const std::vector<std::string> &links,
                  const std::map<std::string, std::string> &packages, int refined_starts,
                  int max_bodies, double target_ratio, double target_gap,
                  const py::object &progress, int threads) {
  sov::urdf::UrdfFitOptions o;
  o.fit.refined_starts = refined_starts;
  o.split.max_bodies = max_bodies;
  o.split.target_ratio = target_ratio;
  o.split.target_gap = target_gap;
  o.links = links;
  o.package_paths = sov::urdf::packagePathsFromHere(packages);
  o.progress = progressOf(progress);
  o.threads = threads;
  const std::string in = py::str(urdf).cast<std::string>();
  const std::string out = output.is_none() ? std::string() : py::str(output).cast<std::string>();
  std::vector<sov::urdf::CollisionFit> fits;
  std::string xml;
  {
    py::gil_scoped_release release;
    if (out.empty()) {
      const std::string dir = std::filesystem::path(in).parent_path().string();
      xml = sov::urdf::fitUrdf(readFile(in), dir.empty() ? "." : dir, o, &fits, in);
    } else {
      sov::urdf::fitUrdfFile(in, out, o, &fits);
    }
  }
  py::list list;
  for (auto &f : fits) list.append(CollisionFit{std::move(f)});
  return py::make_tuple(xml, list);
}

// Shape and Pose of a fit.
Shape shapeOf(const sov::urdf::SuperovoidFit &f) {
  Shape s{};
  s.shape = f.shape;
  std::memcpy(s.params.data(), f.params, sizeof f.params);
  return s;
}

}  // namespace

// The fitting part of the module.
void registerFit(py::module_ &m) {
  py::class_<FitResult>(m, "FitResult", R"(A fitted superovoid: params, shape (Shape), pose (Pose:
points' frame = R local + p), volume, hull_volume, volume_ratio, gap (Hausdorff distance to
the hull), max_F (<= 0), points, hull_vertices, seconds.)")
      .def_property_readonly("params", [](const FitResult &f) { return py::tuple(py::cast(shapeOf(f.fit).params)); })
      .def_property_readonly("shape", [](const FitResult &f) { return shapeOf(f.fit); })
      .def_property_readonly("pose", [](const FitResult &f) { return Pose{f.fit.pose}; })
      .def_property_readonly("volume", [](const FitResult &f) { return f.fit.volume; })
      .def_property_readonly("hull_volume", [](const FitResult &f) { return f.fit.hull_volume; })
      .def_property_readonly("volume_ratio", [](const FitResult &f) { return f.fit.volume_ratio; })
      .def_property_readonly("gap", [](const FitResult &f) { return f.fit.gap; })
      .def_property_readonly("max_F", [](const FitResult &f) { return f.fit.max_F; })
      .def_property_readonly("points", [](const FitResult &f) { return f.fit.points; })
      .def_property_readonly("hull_vertices", [](const FitResult &f) { return f.fit.hull_vertices; })
      .def_property_readonly("seconds", [](const FitResult &f) { return f.fit.seconds; });
  py::class_<UnionFit>(m, "UnionFit", R"(The bodies fitted to one mesh (one, or a union with
max_bodies > 1): bodies ([FitResult], in the collision's frame, each one's volume_ratio and gap
against its own piece's hull), volume (of the union, overlaps counted once), hull_volume (of
the whole mesh), volume_ratio (below 1 is possible for a non-convex mesh), gap (Hausdorff
distance from the union to the mesh), seconds.)")
      .def_property_readonly("bodies", [](const UnionFit &u) {
        py::list out;
        for (const auto &b : u.fit.bodies) out.append(FitResult{b});
        return out;
      })
      .def_property_readonly("volume", [](const UnionFit &u) { return u.fit.volume; })
      .def_property_readonly("hull_volume", [](const UnionFit &u) { return u.fit.hull_volume; })
      .def_property_readonly("volume_ratio", [](const UnionFit &u) { return u.fit.volume_ratio; })
      .def_property_readonly("gap", [](const UnionFit &u) { return u.fit.gap; })
      .def_property_readonly("seconds", [](const UnionFit &u) { return u.fit.seconds; });
  py::class_<CollisionFit>(m, "CollisionFit", R"(One fitted <collision> of fit_urdf: link, collision
(index in the link), mesh (as written in the URDF), mesh_path (the file read), scale, same_as
("<link> #<collision>" whose identical mesh's fit was reused, or ""), fit (FitResult, in the
collision's frame: the single body, or a union's first), union (UnionFit: every body, written
as consecutive <collision>s, and the union's figures).)")
      .def_property_readonly("link", [](const CollisionFit &c) { return c.fit.link; })
      .def_property_readonly("collision", [](const CollisionFit &c) { return c.fit.collision; })
      .def_property_readonly("mesh", [](const CollisionFit &c) { return c.fit.mesh; })
      .def_property_readonly("mesh_path", [](const CollisionFit &c) { return c.fit.mesh_path; })
      .def_property_readonly("scale", [](const CollisionFit &c) { return py::tuple(py::cast(c.fit.scale)); })
      .def_property_readonly("same_as", [](const CollisionFit &c) { return c.fit.same_as; })
      .def_property_readonly("fit", [](const CollisionFit &c) { return FitResult{c.fit.fit}; })
      .def_property_readonly("union", [](const CollisionFit &c) { return UnionFit{c.fit.bodies}; });
  m.def("fit_superovoid", &fitPoints, py::arg("points"), py::kw_only(), py::arg("refined_starts") = 3,
        py::arg("max_iterations") = 60, py::arg("taper_snap") = 0.01, py::arg("gap_directions") = 4000,
        R"(The convex superovoid of (locally) smallest volume containing every point of an (n, 3)
array (superovoid::fit: qhull's hull, Levenberg-Marquardt, exact containment). Deterministic.
Raises UrdfError for flat, tiny or non-finite point sets.)");
  m.def("fit_urdf", &fitUrdf, py::arg("urdf"), py::arg("output") = py::none(), py::kw_only(),
        py::arg("links") = std::vector<std::string>(),
        py::arg("packages") = std::map<std::string, std::string>(), py::arg("refined_starts") = 3,
        py::arg("max_bodies") = 1, py::arg("target_ratio") = 0.0, py::arg("target_gap") = 0.0,
        py::arg("progress") = py::none(), py::arg("threads") = 0,
        R"(sov-urdf-fit as a function: every <mesh> collision of the URDF file (of `links`, or all)
replaced by its fitted superovoid. With output, the result is written there (checked to be
writable first) and the returned text is ""; without, the fitted URDF text is returned.
packages: {name: folder} for package:// URIs (a relative folder from the current directory);
max_bodies 2 to 64: a mesh may become a union of up to that many superovoids (several
<collision>s), cut until its volume over the hull's is at most target_ratio (at least 1) and
its gap to the mesh at most target_gap (metres; 0 leaves a target out),
as sov-urdf-fit --max-bodies --target-ratio --target-gap; progress: called with a dict (index,
count, link, collision, line, mesh, vertices, same_as) before each fit, in order, from the
thread of that fit; threads: meshes fitted at once (0: one per core; the fits are the same
whatever the count). Returns (text, [CollisionFit]). Raises UrdfError naming the file, line
and link, and Error for split options or threads out of range.)");
  m.def("load_mesh", [](const py::object &path, const py::handle &scale) {
        const std::array<double, 3> s = read3(scale, "scale");
        const std::string p = py::str(path).cast<std::string>();
        sov::urdf::TriangleMesh mesh;
        {
          py::gil_scoped_release release;
          mesh = sov::urdf::loadMesh(p, s);
        }
        py::array_t<double> v({static_cast<py::ssize_t>(mesh.vertices.size()), py::ssize_t{3}});
        py::array_t<int> t({static_cast<py::ssize_t>(mesh.triangles.size()), py::ssize_t{3}});
        std::memcpy(v.mutable_data(), mesh.vertices.data(), mesh.vertices.size() * sizeof(mesh.vertices[0]));
        std::memcpy(t.mutable_data(), mesh.triangles.data(), mesh.triangles.size() * sizeof(mesh.triangles[0]));
        return py::make_tuple(v, t);
      }, py::arg("path"), py::arg("scale") = std::array<double, 3>{1, 1, 1},
      "(vertices (n, 3), triangles (m, 3)) of a mesh file read through assimp (STL, OBJ, COLLADA, ...).");
}

}  // namespace sovpy
