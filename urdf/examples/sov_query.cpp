// sov-query: one-off signed-distance queries between two superovoids; robot
// queries at a configuration (self and environment distance, contacts within
// a margin, collision; with an SRDF, package paths and obstacles); and
// triangle meshes (OBJ/STL) of a shape, of a posed URDF model, or of a whole
// URDF model's superovoid links (its "mesh twin"). See urdf/README.md.
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/geometric_shape_to_BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/mesh.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>
#include <sys/stat.h>
#include <tinyxml2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../src/xml_text.h"

namespace {

// Exit statuses (documented in the usage text and urdf/README.md).
enum Exit { kOk = 0, kBadInput = 1, kMisuse = 2, kSolverFailed = 3 };

const char* kUsageText =
    "usage:\n"
    "  sov-query --a \"a1 a2 a3 eps1 eps2 [tx ty]\" [--pose-a \"x y z [qw qx qy qz]\"]\n"
    "            --b \"...\" [--pose-b \"...\"] [--method auto|implicit|parametric|ntb]\n"
    "  sov-query --file PAIR.txt    (lines: a, pose_a, b, pose_b, method; '#' comments)\n"
    "  sov-query --shape \"...\" [--pose \"...\"] --export OUT.obj|OUT.stl\n"
    "            [--resolution \"LAT LON\"]\n"
    "  sov-query --urdf ROBOT.urdf [--srdf ROBOT.srdf] [--package NAME=DIR]...\n"
    "            [--joints name=value,...] [--obstacle \"SHAPE [@ x y z [qw qx qy qz]]\"]...\n"
    "            [--margin M]\n"
    "  sov-query --urdf ROBOT.urdf [--package NAME=DIR]... [--joints name=value,...]\n"
    "            --export OUT.obj|OUT.stl [--resolution \"LAT LON\"]\n"
    "  sov-query --mesh-twin ROBOT.urdf --out-dir DIR [--package NAME=DIR]...\n"
    "            [--resolution \"LAT LON\"]\n"
    "A pair query prints d, n, pA, pB, status, method and iterations. A robot query\n"
    "prints a table at the configuration (other joints at 0 or their nearest limit): the\n"
    "smallest self distance, every self pair within the margin (default 0: touching and\n"
    "overlapping), and with obstacles the same against them; then whether the robot\n"
    "collides. SHAPE: sphere R | box X Y Z | cylinder R LENGTH |\n"
    "superovoid a1 a2 a3 eps1 eps2 [tx ty] (metres; pose in the root frame). A mesh twin\n"
    "names the robot's other meshes from DIR and never writes over a file the robot\n"
    "uses (--package resolves its package:// meshes for that check). Exit\n"
    "status: 0 success, 1 invalid input (shape, pose, file, URDF, SRDF, joints; the\n"
    "reason on stderr, naming file and line), 2 misuse of the command line, 3 the solver\n"
    "returned an error status (printed).\n";

// A command-line or file input error: exits with kBadInput, or kMisuse.
struct InputError : std::runtime_error {
  InputError(const std::string& message, int exit_code = kBadInput)
      : std::runtime_error(message), code(exit_code) {}
  int code;
};

// The numbers of a space-separated list; each must be a finite decimal.
std::vector<double> numbers(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::vector<double> out;
  std::string word;
  while (in >> word) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(word.c_str(), &end);
    if (end == word.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
      throw InputError(what + ": '" + word + "' is not a finite number");
    out.push_back(v);
  }
  return out;
}

// A validated shape from "a1 a2 a3 eps1 eps2 [taper_x taper_y]"; an invalid
// one is refused with sov_shape_explain's reason.
sov_shape shapeOf(const std::string& text, const std::string& what) {
  const std::vector<double> v = numbers(text, what);
  if (v.size() != 5 && v.size() != 7)
    throw InputError(what + ": wants 5 or 7 numbers (a1 a2 a3 eps1 eps2 [taper_x taper_y]), got " +
                     std::to_string(v.size()));
  double p[7] = {0, 0, 0, 0, 0, 0, 0};
  for (std::size_t i = 0; i < v.size(); ++i) p[i] = v[i];
  sov_shape shape;
  if (sov_shape_init(&shape, p) != SOV_OK) {
    char why[256];
    const int status = sov_shape_explain(why, sizeof why, p);
    throw InputError(what + ": invalid shape (" + sov_status_string(status) + "): " + why);
  }
  return shape;
}

// A pose from "x y z" or "x y z qw qx qy qz" (unit quaternion).
sov_pose poseOf(const std::string& text, const std::string& what) {
  const std::vector<double> v = numbers(text, what);
  if (v.size() != 3 && v.size() != 7)
    throw InputError(what + ": wants 3 or 7 numbers (x y z [qw qx qy qz]), got " +
                     std::to_string(v.size()));
  const double p[3] = {v[0], v[1], v[2]};
  const double q[4] = {v.size() == 7 ? v[3] : 1.0, v.size() == 7 ? v[4] : 0.0,
                       v.size() == 7 ? v[5] : 0.0, v.size() == 7 ? v[6] : 0.0};
  sov_pose pose;
  const int status = sov_pose_from_quat(&pose, q, p);
  if (status != SOV_OK) throw InputError(what + ": " + sov_status_string(status));
  return pose;
}

// Tessellation counts from "LAT LON" (latitude bands >= 2, meridians >= 3).
std::array<int, 2> resolutionOf(const std::string& text) {
  const std::vector<double> v = numbers(text, "--resolution");
  if (v.size() != 2 || v[0] != std::floor(v[0]) || v[1] != std::floor(v[1]) || v[0] < 2 ||
      v[1] < 3 || v[0] > 4096 || v[1] > 4096)
    throw InputError(
        "--resolution: wants two integers LAT >= 2 and LON >= 3 "
        "(at most 4096), not '" +
        text + "'");
  return {static_cast<int>(v[0]), static_cast<int>(v[1])};
}

// The options that may be given more than once; every other one once.
const std::set<std::string> kRepeatable = {"--package", "--obstacle"};

// The command line: option -> value, and the values of repeatable options
// in order.
struct CommandLine {
  std::map<std::string, std::string> args;
  std::map<std::string, std::vector<std::string>> repeated;
};

// The command line (every option takes one value).
CommandLine parseArgs(int argc, char** argv) {
  static const std::set<std::string> known = {
      "--a",         "--pose-a",  "--b",      "--pose-b", "--method",  "--file",
      "--shape",     "--pose",    "--export", "--resolution", "--urdf", "--joints",
      "--mesh-twin", "--out-dir", "--srdf",   "--package",    "--obstacle", "--margin"};
  CommandLine c;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << kUsageText;
      std::exit(kOk);
    }
    if (!known.count(a)) throw InputError("unknown argument '" + a + "'", kMisuse);
    if (i + 1 >= argc) throw InputError(a + " needs a value", kMisuse);
    const std::string value = argv[++i];
    if (kRepeatable.count(a)) c.repeated[a].push_back(value);
    if (!c.args.emplace(a, value).second && !kRepeatable.count(a)) {
      throw InputError(a + " given twice", kMisuse);
    }
  }
  return c;
}

// A pair file's entries (a, pose_a, b, pose_b, method) as option values,
// and for each option the label its errors carry: "<file>:<line>: <key>".
struct PairFile {
  std::map<std::string, std::string> args;
  std::map<std::string, std::string> labels;
};

// Reads a pair file.
PairFile readPairFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot be read");
  static const std::map<std::string, std::string> keys = {{"a", "--a"},
                                                          {"pose_a", "--pose-a"},
                                                          {"b", "--b"},
                                                          {"pose_b", "--pose-b"},
                                                          {"method", "--method"}};
  PairFile file;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string key;
    if (!(words >> key)) continue;
    const auto k = keys.find(key);
    const std::string where = path + ":" + std::to_string(n);
    if (k == keys.end())
      throw InputError(where + ": unknown key '" + key + "' (a, pose_a, b, pose_b, method)");
    std::string rest;
    std::getline(words, rest);
    rest.erase(0, rest.find_first_not_of(" \t\r"));
    rest.erase(rest.find_last_not_of(" \t\r") + 1);
    if (!file.args.emplace(k->second, rest).second)
      throw InputError(where + ": '" + key + "' given twice");
    file.labels[k->second] = where + ": " + key;
  }
  return file;
}

// Runs the distance query and prints the result; kSolverFailed when the
// solver returned an error status. labels name the values in errors (a pair
// file's "<file>:<line>: <key>"; the option itself when absent); file is the
// pair file ("" for the command line).
int query(const std::map<std::string, std::string>& args,
          const std::map<std::string, std::string>& labels, const std::string& file) {
  auto get = [&](const std::string& key, const std::string& fallback) {
    const auto it = args.find(key);
    return it == args.end() ? fallback : it->second;
  };
  auto label = [&](const std::string& key) {
    const auto it = labels.find(key);
    return it == labels.end() ? key : it->second;
  };
  if (!args.count("--a") || !args.count("--b"))
    throw InputError(
        file.empty() ? "a query needs --a and --b" : file + ": a query needs both shapes (a and b)",
        file.empty() ? kMisuse : kBadInput);
  const sov_shape A = shapeOf(args.at("--a"), label("--a"));
  const sov_shape B = shapeOf(args.at("--b"), label("--b"));
  const sov_pose XA = poseOf(get("--pose-a", "0 0 0"), label("--pose-a"));
  const sov_pose XB = poseOf(get("--pose-b", "0 0 0"), label("--pose-b"));
  sov_options options;
  sov_options_default(&options);
  const std::string method = get("--method", "auto");
  if (sov_method_from_name(&options.method, method.c_str()) != SOV_OK)
    throw InputError(label("--method") + ": unknown method '" + method +
                     "' (auto, implicit, parametric, ntb)");
  sov_result r;
  const int status = sov_distance(&r, &A, &XA, &B, &XB, &options, nullptr);
  if (status != SOV_OK) {
    std::printf("status     = %s (%d)\nmethod     = %s\n", sov_status_string(status), status,
                method.c_str());
    return kSolverFailed;
  }
  std::printf("d          = %.17g\n", r.d);
  std::printf("n          = %.17g %.17g %.17g\n", r.n[0], r.n[1], r.n[2]);
  std::printf("pA         = %.17g %.17g %.17g\n", r.pA[0], r.pA[1], r.pA[2]);
  std::printf("pB         = %.17g %.17g %.17g\n", r.pB[0], r.pB[1], r.pB[2]);
  std::printf("status     = %s (%d)\n", sov_status_string(status), status);
  std::printf("method     = %s\n", sov_method_name(r.method));
  std::printf("iterations = %d\n", r.iterations);
  return kOk;
}

// Appends mesh (local coordinates) placed by tf to out.
void append(sov::urdf::TriangleMesh& out, const sov::urdf::TriangleMesh& mesh,
            const fcl::Transform3<double>& tf) {
  const int base = static_cast<int>(out.vertices.size());
  for (const auto& v : mesh.vertices) {
    const fcl::Vector3<double> w = tf * fcl::Vector3<double>(v[0], v[1], v[2]);
    out.vertices.push_back({w.x(), w.y(), w.z()});
  }
  for (const auto& t : mesh.triangles)
    out.triangles.push_back({base + t[0], base + t[1], base + t[2]});
}

// The triangles of an FCL triangle-mesh model, in its own frame.
template <class BV>
sov::urdf::TriangleMesh trianglesOf(const fcl::BVHModel<BV>& model) {
  sov::urdf::TriangleMesh mesh;
  for (int i = 0; i < model.num_vertices; ++i)
    mesh.vertices.push_back({model.vertices[i].x(), model.vertices[i].y(), model.vertices[i].z()});
  for (int i = 0; i < model.num_tris; ++i)
    mesh.triangles.push_back({static_cast<int>(model.tri_indices[i][0]),
                              static_cast<int>(model.tri_indices[i][1]),
                              static_cast<int>(model.tri_indices[i][2])});
  return mesh;
}

// Surface mesh of one scene geometry in its local frame: superovoids through
// sov::urdf::tessellate, FCL primitives through FCL's generateBVHModel, mesh
// links as loaded.
sov::urdf::TriangleMesh meshOf(const fcl::CollisionGeometry<double>& g,
                               const std::array<int, 2>& res, const std::string& name) {
  using Model = fcl::BVHModel<fcl::OBBRSS<double>>;
  if (const auto* s = dynamic_cast<const sov::Superovoid*>(&g))
    return sov::urdf::tessellate(s->shape(), res[0], res[1]);
  if (const auto* m = dynamic_cast<const Model*>(&g)) return trianglesOf(*m);  // mesh links
  const fcl::Transform3<double> id = fcl::Transform3<double>::Identity();
  Model model;
  if (const auto* b = dynamic_cast<const fcl::Box<double>*>(&g)) {
    fcl::generateBVHModel(model, *b, id);
  } else if (const auto* s = dynamic_cast<const fcl::Sphere<double>*>(&g)) {
    fcl::generateBVHModel(model, *s, id, res[1], res[0]);
  } else if (const auto* c = dynamic_cast<const fcl::Cylinder<double>*>(&g)) {
    fcl::generateBVHModel(model, *c, id, res[1], 1);
  } else {
    throw InputError(name + ": geometry of an unsupported FCL type");
  }
  return trianglesOf(model);
}

// Parses "name=value,name=value".
sov::urdf::JointPositions jointsOf(const std::string& text) {
  sov::urdf::JointPositions q;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--joints: '" + item + "' is not name=value");
    const std::vector<double> v = numbers(item.substr(eq + 1), "--joints " + item.substr(0, eq));
    if (v.size() != 1) throw InputError("--joints: '" + item + "' wants one number");
    if (!q.emplace(item.substr(0, eq), v[0]).second)
      throw InputError("--joints: '" + item.substr(0, eq) + "' given twice");
  }
  return q;
}

// Scene options with the package paths of --package NAME=DIR options.
sov::urdf::SceneOptions sceneOptions(const CommandLine& c) {
  sov::urdf::SceneOptions options;
  const auto it = c.repeated.find("--package");
  if (it == c.repeated.end()) return options;
  for (const std::string& spec : it->second) {
    if (!sov::urdf::addPackagePath(spec, &options.package_paths))
      throw InputError("--package: '" + spec + "' is not NAME=DIR", kMisuse);
  }
  return options;
}

// The scene of --urdf (meshes relative to its folder, --package paths) at
// the --joints positions.
std::unique_ptr<sov::urdf::Scene> sceneOf(const CommandLine& c) {
  auto scene = std::make_unique<sov::urdf::Scene>(c.args.at("--urdf"), sceneOptions(c));
  if (c.args.count("--joints")) scene->setJointPositions(jointsOf(c.args.at("--joints")));
  return scene;
}

// Writes the posed model's collision geometry as one mesh.
int exportUrdf(const CommandLine& c, const std::array<int, 2>& res) {
  const std::map<std::string, std::string>& args = c.args;
  const std::unique_ptr<sov::urdf::Scene> posed = sceneOf(c);
  sov::urdf::Scene& scene = *posed;
  sov::urdf::TriangleMesh out;
  const auto geometries = scene.geometries();
  for (const auto& g : geometries)
    append(out, meshOf(*g.object->collisionGeometry(), res, g.link), g.object->getTransform());
  sov::urdf::saveMesh(args.at("--export"), out);
  std::printf("wrote %s: %zu collision geometries, %zu vertices, %zu triangles\n",
              args.at("--export").c_str(), geometries.size(), out.vertices.size(),
              out.triangles.size());
  return kOk;
}

// Writes one shape's mesh.
int exportShape(const std::map<std::string, std::string>& args, const std::array<int, 2>& res) {
  const sov_shape shape = shapeOf(args.at("--shape"), "--shape");
  const sov_pose pose = poseOf(args.count("--pose") ? args.at("--pose") : "0 0 0", "--pose");
  const sov::urdf::TriangleMesh mesh =
      sov::urdf::transformed(sov::urdf::tessellate(shape, res[0], res[1]), pose);
  sov::urdf::saveMesh(args.at("--export"), mesh);
  std::printf("wrote %s: %zu vertices, %zu triangles\n", args.at("--export").c_str(),
              mesh.vertices.size(), mesh.triangles.size());
  return kOk;
}

// A file-name-safe form of a link name.
std::string fileStem(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') c = '_';
  return out;
}

// Every <mesh> element under node, in document order.
void meshElements(tinyxml2::XMLElement* node, std::vector<tinyxml2::XMLElement*>& out) {
  for (tinyxml2::XMLElement* e = node->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (std::string(e->Name()) == "mesh") out.push_back(e);
    meshElements(e, out);
  }
}

// The files a robot uses: its URDF and the file of every <mesh> of doc (names
// relative to dir, package:// through packages, as the scene resolves them).
std::vector<std::string> filesUsed(tinyxml2::XMLDocument& doc, const std::string& urdf_path,
                                   const std::string& dir,
                                   const std::map<std::string, std::string>& packages) {
  std::vector<std::string> used = {urdf_path};
  std::vector<tinyxml2::XMLElement*> meshes;
  meshElements(doc.RootElement(), meshes);
  for (const tinyxml2::XMLElement* m : meshes) {
    const char* name = m->Attribute("filename");
    if (!name) continue;
    try {
      used.push_back(sov::urdf::resolveMeshUri(name, dir, packages));
    } catch (const sov::urdf::Error& e) {
      throw InputError(urdf_path + ": " + e.what() +
                       " (the twin must know every file the robot uses, not to write over it:"
                       " give --package NAME=DIR)");
    }
  }
  return used;
}

// Refuses, before anything is written, a twin file that is a file the robot
// uses (writing it would replace the robot's own mesh or URDF).
void refuseOverwriting(const std::vector<std::string>& written,
                       const std::vector<std::string>& used, const std::string& urdf_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto same = [&](const std::string& a, const std::string& b) {
    return fs::weakly_canonical(fs::absolute(a), ec) == fs::weakly_canonical(fs::absolute(b), ec) ||
           fs::equivalent(a, b, ec);
  };
  for (const std::string& w : written)
    for (const std::string& u : used)
      if (same(w, u))
        throw InputError(w + ": the twin would write over this file, which " + urdf_path +
                         " uses; choose another --out-dir (nothing was written)");
}

// Writes the mesh twin of a URDF: every superovoid collision replaced by a
// <mesh> of its tessellation (binary STL in DIR/meshes/, in the collision's
// frame), every other element kept, its relative mesh names rewritten to
// name the same files from DIR; DIR/<name>_mesh.urdf refers to the meshes by
// relative paths. Files the robot uses are never written over: checked
// before anything is written.
int meshTwin(const std::string& urdf_path, const std::string& dir, const std::array<int, 2>& res,
             const std::map<std::string, std::string>& packages) {
  const sov::urdf::Model model = sov::urdf::parseFile(urdf_path);
  std::string stem = urdf_path.substr(urdf_path.find_last_of('/') + 1);
  stem = stem.substr(0, stem.rfind('.'));
  const std::string out = dir + "/" + stem + "_mesh.urdf";
  const std::string text =
      sov::urdf::detail::relocateMeshFilenames(model.loaded_xml, urdf_path, out);
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS)
    throw InputError(urdf_path + ": " + doc.ErrorStr());
  const std::vector<std::string> used = filesUsed(doc, urdf_path, dir, packages);
  std::vector<std::string> written = {out};
  std::vector<const sov::urdf::Superovoid*> shapes;
  tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  for (tinyxml2::XMLElement* link = robot ? robot->FirstChildElement("link") : nullptr; link;
       link = link->NextSiblingElement("link")) {
    std::size_t index = 0;
    for (tinyxml2::XMLElement* c = link->FirstChildElement("collision"); c;
         c = c->NextSiblingElement("collision"), ++index) {
      const sov::urdf::Superovoid* s = model.find(link->Attribute("name"), index);
      if (!s) continue;
      const std::string file = "meshes/" + fileStem(s->link) + "_" + std::to_string(index) + ".stl";
      if (std::find(written.begin(), written.end(), dir + "/" + file) != written.end())
        throw InputError(urdf_path + ": links '" + s->link + "' and another map to " + file);
      written.push_back(dir + "/" + file);
      shapes.push_back(s);
      tinyxml2::XMLElement* geometry = c->FirstChildElement("geometry");
      geometry->DeleteChildren();
      tinyxml2::XMLElement* mesh = doc.NewElement("mesh");
      mesh->SetAttribute("filename", file.c_str());
      geometry->InsertEndChild(mesh);
    }
  }
  refuseOverwriting(written, used, urdf_path);
  const std::string meshes = dir + "/meshes";
  for (const std::string& d : {dir, meshes})
    if (mkdir(d.c_str(), 0777) != 0 && errno != EEXIST)
      throw InputError(d + ": cannot create the folder");
  for (std::size_t i = 0; i < shapes.size(); ++i)
    sov::urdf::saveMesh(written[i + 1], sov::urdf::tessellate(shapes[i]->shape, res[0], res[1]));
  tinyxml2::XMLComment* note =
      doc.NewComment((" Mesh twin of " + stem +
                      ".urdf written by sov-query --mesh-twin: every superovoid "
                      "collision tessellated (" +
                      std::to_string(res[0]) + " latitude bands, " + std::to_string(res[1]) +
                      " meridians; vertices on the surface). ")
                         .c_str());
  // The source's comments describe the source; the twin gets its own.
  while (robot && robot->PreviousSibling() && robot->PreviousSibling()->ToComment())
    doc.DeleteNode(robot->PreviousSibling());
  if (robot && robot->PreviousSibling())
    doc.InsertAfterChild(robot->PreviousSibling(), note);  // after <?xml ...?>
  else
    doc.InsertFirstChild(note);
  if (doc.SaveFile(out.c_str()) != tinyxml2::XML_SUCCESS)
    throw InputError(out + ": cannot be written");
  std::printf("wrote %s and %zu meshes in %s\n", out.c_str(), shapes.size(), meshes.c_str());
  return kOk;
}

// An obstacle of a robot query: "sphere R", "box X Y Z", "cylinder R LENGTH"
// or "superovoid a1 a2 a3 eps1 eps2 [tx ty]", then optionally "@ x y z [qw
// qx qy qz]" (root frame; default the origin). Errors name the obstacle.
std::unique_ptr<fcl::CollisionObject<double>> obstacleOf(const std::string& text,
                                                         std::size_t index) {
  const std::string what = "--obstacle " + std::to_string(index) + " '" + text + "'";
  const std::size_t at = text.find('@');
  std::istringstream in(text.substr(0, at));
  std::string kind, rest;
  in >> kind;
  std::getline(in, rest);
  const std::vector<double> v = numbers(rest, what);
  std::shared_ptr<fcl::CollisionGeometry<double>> shape;
  auto need = [&](std::size_t n, const char* form) {
    if (v.size() != n || *std::min_element(v.begin(), v.end()) <= 0)
      throw InputError(what + ": " + kind + " wants " + form + " (positive)");
  };
  if (kind == "sphere") {
    need(1, "a radius");
    shape = std::make_shared<fcl::Sphere<double>>(v[0]);
  } else if (kind == "box") {
    need(3, "three side lengths");
    shape = std::make_shared<fcl::Box<double>>(v[0], v[1], v[2]);
  } else if (kind == "cylinder") {
    need(2, "a radius and a length");
    shape = std::make_shared<fcl::Cylinder<double>>(v[0], v[1]);
  } else if (kind == "superovoid") {
    if (v.size() != 5 && v.size() != 7)
      throw InputError(what + ": superovoid wants 5 or 7 numbers (a1 a2 a3 eps1 eps2 [tx ty])");
    std::array<double, 7> p{};
    std::copy(v.begin(), v.end(), p.begin());
    try {
      shape = std::make_shared<sov::Superovoid>(p);
    } catch (const sov::Error& e) {
      throw InputError(what + ": " + e.what());
    }
  } else {
    throw InputError(what + ": unknown shape '" + kind + "' (sphere, box, cylinder, superovoid)");
  }
  const sov_pose pose = poseOf(at == std::string::npos ? "0 0 0" : text.substr(at + 1), what);
  Eigen::Matrix3d R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = pose.R[3 * i + j];
  auto object = std::make_unique<fcl::CollisionObject<double>>(
      shape, R, Eigen::Vector3d(pose.p[0], pose.p[1], pose.p[2]));
  object->computeAABB();
  return object;
}

// A table row: kind, the two geometries, distance (%.17g: the scene's
// answer to the last bit), witness points and normal.
void printRow(const std::string& kind, const std::string& link1, std::size_t c1,
              const std::string& link2, std::size_t c2, double d, const Eigen::Vector3d& p1,
              const Eigen::Vector3d& p2, const Eigen::Vector3d* n) {
  std::printf("%-8s %-20s %3zu  %-20s %3zu  %24.17g  %12.9f %12.9f %12.9f  %12.9f %12.9f %12.9f",
              kind.c_str(), link1.c_str(), c1, link2.c_str(), c2, d, p1.x(), p1.y(), p1.z(),
              p2.x(), p2.y(), p2.z());
  if (n) std::printf("  %9.6f %9.6f %9.6f", n->x(), n->y(), n->z());
  std::printf("\n");
}

// Rows of contacts (link2 "obstacle" for an environment object).
void printContacts(const std::string& kind, const std::vector<sov::urdf::Contact>& contacts) {
  for (const sov::urdf::Contact& c : contacts) {
    printRow(kind, c.link1, c.collision1, c.link2.empty() ? "obstacle" : c.link2, c.collision2,
             c.distance, c.p1, c.p2, &c.normal);
  }
}

// The margin of --margin (finite; default 0).
double marginOf(const CommandLine& c) {
  if (!c.args.count("--margin")) return 0;
  const std::vector<double> v = numbers(c.args.at("--margin"), "--margin");
  if (v.size() != 1) throw InputError("--margin: wants one number (metres)");
  return v[0];
}

// A robot query at a configuration: the scene of --urdf (with --srdf,
// --package, --joints) and the --obstacle objects, printed as a table.
int robotQuery(const CommandLine& c) {
  const std::unique_ptr<sov::urdf::Scene> scene_ptr = sceneOf(c);
  sov::urdf::Scene& scene = *scene_ptr;
  const double margin = marginOf(c);
  std::vector<std::unique_ptr<fcl::CollisionObject<double>>> owned;
  const auto obstacles = c.repeated.find("--obstacle");
  if (obstacles != c.repeated.end())
    for (const std::string& text : obstacles->second)
      owned.push_back(obstacleOf(text, owned.size()));
  std::vector<fcl::CollisionObject<double>*> env;
  for (const auto& o : owned) env.push_back(o.get());
  std::printf("robot    %s: %zu links, %zu collision geometries\n", c.args.at("--urdf").c_str(),
              scene.linkNames().size(), scene.geometries().size());
  if (c.args.count("--srdf")) {
    const sov::urdf::SrdfReport r = scene.loadSrdf(c.args.at("--srdf"));
    std::printf("srdf     %s: %zu pairs disabled, %zu enabled, %zu entries skipped\n",
                c.args.at("--srdf").c_str(), r.disabled, r.enabled, r.skipped.size());
    for (const std::string& skipped : r.skipped)
      std::fprintf(stderr, "sov-query: note: %s is not in the URDF; entry skipped\n",
                   skipped.c_str());
  }
  std::printf("margin   %.17g m\n", margin);
  std::printf("%-8s %-20s %3s  %-20s %3s  %24s  %38s  %38s  %s\n", "query", "link1", "#", "link2",
              "#", "distance[m]", "p1 (x y z)", "p2 (x y z)", "normal (1 to 2)");
  const sov::urdf::PairDistance d = scene.minSelfDistance();
  printRow("self-min", d.link1.empty() ? "-" : d.link1, d.collision1,
           d.link2.empty() ? "-" : d.link2, d.collision2, d.distance, d.p1, d.p2, nullptr);
  printContacts("self", scene.contacts(margin));
  if (!env.empty()) {
    const sov::urdf::PairDistance e = scene.distance(env);
    printRow("env-min", e.link1, e.collision1, "obstacle", e.collision2, e.distance, e.p1, e.p2,
             nullptr);
    printContacts("env", scene.contacts(env, margin));
  }
  std::set<std::pair<std::string, std::string>> pairs;
  const bool self = scene.selfCollision(&pairs);
  std::printf("collision self: %s (%zu link pairs)", self ? "yes" : "no", pairs.size());
  if (!env.empty()) std::printf(", environment: %s", scene.collides(env) ? "yes" : "no");
  std::printf("\n");
  return kOk;
}

// Refuses options that do not belong to the mode.
void onlyThese(const std::map<std::string, std::string>& args, const std::string& mode,
               const std::set<std::string>& allowed) {
  for (const auto& kv : args)
    if (!allowed.count(kv.first)) throw InputError(kv.first + " does not go with " + mode, kMisuse);
}

int run(int argc, char** argv) {
  const CommandLine c = parseArgs(argc, argv);
  const std::map<std::string, std::string>& args = c.args;
  if (args.empty()) throw InputError("nothing to do", kMisuse);
  const std::array<int, 2> res =
      resolutionOf(args.count("--resolution") ? args.at("--resolution") : "32 64");
  if (args.count("--mesh-twin")) {
    onlyThese(args, "--mesh-twin", {"--mesh-twin", "--out-dir", "--package", "--resolution"});
    if (!args.count("--out-dir")) throw InputError("--mesh-twin needs --out-dir", kMisuse);
    return meshTwin(args.at("--mesh-twin"), args.at("--out-dir"), res,
                    sceneOptions(c).package_paths);
  }
  if (args.count("--urdf") && args.count("--export")) {
    onlyThese(args, "--export", {"--urdf", "--package", "--joints", "--export", "--resolution"});
    return exportUrdf(c, res);
  }
  if (args.count("--urdf")) {
    onlyThese(args, "a robot query (--urdf)",
              {"--urdf", "--srdf", "--package", "--joints", "--obstacle", "--margin"});
    return robotQuery(c);
  }
  if (args.count("--shape")) {
    onlyThese(args, "--shape", {"--shape", "--pose", "--export", "--resolution"});
    if (!args.count("--export")) throw InputError("--shape needs --export", kMisuse);
    return exportShape(args, res);
  }
  if (args.count("--file")) {
    onlyThese(args, "--file", {"--file"});
    const PairFile file = readPairFile(args.at("--file"));
    return query(file.args, file.labels, args.at("--file"));
  }
  onlyThese(args, "a query (--a, --b)", {"--a", "--pose-a", "--b", "--pose-b", "--method"});
  return query(args, {}, "");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const InputError& e) {
    std::cerr << "sov-query: " << e.what() << "\n";
    if (e.code == kMisuse) std::cerr << kUsageText;
    return e.code;
  } catch (const std::exception& e) {  // sov::urdf::Error, SceneError, sov::Error
    std::cerr << "sov-query: " << e.what() << "\n";
    return kBadInput;
  }
}
