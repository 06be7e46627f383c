// URDF conversion: mesh collisions replaced by fitted superovoids in the text
// of the document, every other byte kept.
#include <tinyxml2.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "../../src/io.h"
#include "../../src/number.h"
#include "../../src/xml_text.h"
#include "split.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"
#include "superovoid/urdf/fallback.h"
#include "superovoid/urdf/fit.h"
#include "superovoid/urdf/mesh.h"
#include "superovoid/urdf/model.h"

namespace sov {
namespace urdf {
namespace {

using detail::formatShortest;

using Eigen::Isometry3d;
using Eigen::Matrix3d;
using Eigen::Vector3d;

// A <collision> to replace: where it is in the element tree and in the text.
struct Target {
  std::string link;
  std::size_t index = 0;
  int line = 0;
  std::string mesh;  // filename attribute as written
  std::string path;  // the file it names (readMesh)
  std::array<double, 3> scale{1, 1, 1};
  Isometry3d origin = Isometry3d::Identity();  // collision frame in the link
  std::size_t begin = 0, end = 0;              // text range of the element
};

[[noreturn]] void fail(int status, const std::string& source, int line, const std::string& link,
                       const std::string& message) {
  throw Error(status, Location{source, line, link, ""}, message);
}

// Up to three numbers of a space-separated attribute (URDF's xyz, rpy, scale).
std::array<double, 3> triple(const tinyxml2::XMLElement* e, const char* name,
                             std::array<double, 3> fallback, const std::string& source,
                             const std::string& link) {
  const char* text = e ? e->Attribute(name) : nullptr;
  if (!text) return fallback;
  std::istringstream in(text);
  std::array<double, 3> v{};
  for (double& x : v)
    if (!(in >> x) || !std::isfinite(x))
      fail(SOV_URDF_ERR_ATTRIBUTE, source, e->GetLineNum(), link,
           std::string("attribute ") + name + "=\"" + text + "\" is not three finite numbers");
  return v;
}

// URDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll).
Matrix3d fromRpy(const std::array<double, 3>& rpy) {
  return (Eigen::AngleAxisd(rpy[2], Vector3d::UnitZ()) *
          Eigen::AngleAxisd(rpy[1], Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy[0], Vector3d::UnitX()))
      .toRotationMatrix();
}

// Offset of the start of line `line` (1-based) in text.
std::size_t lineStart(const std::string& text, int line) {
  std::size_t at = 0;
  for (int l = 1; l < line && at != std::string::npos; ++l) {
    at = text.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  return at == std::string::npos ? text.size() : at;
}

// The text range of the k-th "<collision" start tag on the element's line
// through its "</collision>".
bool locate(Target& t, const std::string& text, int k) {
  std::size_t at = lineStart(text, t.line);
  for (int i = 0; i <= k; ++i) {
    at = text.find("<collision", i == 0 ? at : at + 1);
    if (at == std::string::npos) return false;
  }
  const std::size_t close = text.find("</collision>", at);
  if (close == std::string::npos) return false;
  const std::size_t next = text.find("<collision", at + 1);
  if (next != std::string::npos && next < close) return false;
  t.begin = at;
  t.end = close + std::string("</collision>").size();
  return true;
}

// Every <mesh> collision of the chosen links, in document order. Throws for
// a listed link the document does not have (at <robot>'s line) or that has
// no <mesh> collision (at its line), and when there is nothing to fit.
std::vector<Target> findTargets(const tinyxml2::XMLDocument& doc, const std::string& text,
                                const std::vector<std::string>& links, const std::string& source) {
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  if (!robot) fail(SOV_URDF_ERR_MODEL, source, 0, "", "no <robot> element");
  std::set<std::string> wanted(links.begin(), links.end());
  std::map<std::string, int> seen;  // link -> line
  std::vector<Target> targets;
  std::map<int, int> per_line;  // <collision> elements met so far on each line
  for (const auto* link = robot->FirstChildElement("link"); link;
       link = link->NextSiblingElement("link")) {
    const std::string name = link->Attribute("name") ? link->Attribute("name") : "";
    seen.emplace(name, link->GetLineNum());
    std::size_t index = 0;
    for (const auto* col = link->FirstChildElement("collision"); col;
         col = col->NextSiblingElement("collision"), ++index) {
      const int k = per_line[col->GetLineNum()]++;
      const auto* geometry = col->FirstChildElement("geometry");
      const auto* mesh = geometry ? geometry->FirstChildElement() : nullptr;
      if (!mesh || std::string(mesh->Name()) != "mesh") continue;
      if (!wanted.empty() && !wanted.count(name)) continue;
      Target t;
      t.link = name;
      t.index = index;
      t.line = col->GetLineNum();
      t.mesh = mesh->Attribute("filename") ? mesh->Attribute("filename") : "";
      t.scale = triple(mesh, "scale", {1, 1, 1}, source, name);
      const auto* origin = col->FirstChildElement("origin");
      t.origin.translation() =
          Eigen::Map<const Vector3d>(triple(origin, "xyz", {0, 0, 0}, source, name).data());
      t.origin.linear() = fromRpy(triple(origin, "rpy", {0, 0, 0}, source, name));
      if (!locate(t, text, k))
        fail(SOV_URDF_ERR_MODEL, source, t.line, name,
             "cannot find this <collision> in the text (a comment on its line?)");
      targets.push_back(t);
    }
  }
  for (const std::string& l : wanted) {
    if (!seen.count(l))
      fail(SOV_URDF_ERR_MODEL, source, robot->GetLineNum(), l,
           "--links names link '" + l + "': no such link in the document");
    const bool has_mesh = std::any_of(targets.begin(), targets.end(),
                                      [&](const Target& t) { return t.link == l; });
    if (!has_mesh)
      fail(SOV_URDF_ERR_MODEL, source, seen.at(l), l,
           "--links names link '" + l + "': it has no <mesh> collision");
  }
  if (targets.empty())
    fail(SOV_URDF_ERR_MODEL, source, robot->GetLineNum(), "",
         "the document has no <mesh> collision to fit");
  return targets;
}

// The mesh of a target: its filename resolved (resolveMeshUri: relative to
// base_dir, file://, package:// through package_paths; kept in t.path) and
// read with its scale; a failure is reported at the collision's line,
// naming the link.
TriangleMesh readMesh(Target& t, const std::string& base_dir,
                      const std::map<std::string, std::string>& package_paths,
                      const std::string& source) {
  try {
    t.path = resolveMeshUri(t.mesh, base_dir, package_paths);
    return loadMesh(t.path, t.scale);
  } catch (const Error& e) {
    fail(e.status(), source, t.line, t.link,
         "link '" + t.link + "', collision #" + std::to_string(t.index) + ", mesh '" + t.mesh +
             "': " + e.what());
  }
}

// The mesh's fit: one body through fitSuperovoid (its figures as the
// union's) unless options.split allows more, then fitSuperovoidUnion.
UnionFit fitMesh(const TriangleMesh& mesh, const UrdfFitOptions& options) {
  if (options.split.max_bodies > 1) return fitSuperovoidUnion(mesh, options.fit, options.split);
  UnionFit u;
  u.bodies.push_back(fitSuperovoid(mesh.vertices, options.fit));
  const SuperovoidFit& f = u.bodies[0];
  u.volume = f.volume;
  u.hull_volume = f.hull_volume;
  u.volume_ratio = f.volume_ratio;
  u.gap = f.gap;
  u.points = f.points;
  u.hull_vertices = f.hull_vertices;
  u.seconds = f.seconds;
  return u;
}

// Threads of a fit: UrdfFitOptions::threads, 0 for one per core.
std::size_t fitThreads(int threads) {
  if (threads > 0) return static_cast<std::size_t>(threads);
  return std::max(1u, std::thread::hardware_concurrency());
}

// Where each target's mesh was first seen: same_as[i] names the first
// collision with an identical mesh (the same vertices and the same
// triangles: a union promises to hold each triangle whole, so one more
// triangle can need another union), "" for the meshes to fit; returns the
// index of that first target for each.
std::vector<std::size_t> firstWithMesh(const std::vector<Target>& targets,
                                       const std::vector<TriangleMesh>& meshes,
                                       std::vector<std::string>& same_as) {
  std::vector<std::size_t> first_of(targets.size());
  same_as.assign(targets.size(), "");
  std::map<std::pair<std::vector<Point3>, std::vector<std::array<int, 3>>>, std::size_t> first;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    first_of[i] =
        first.emplace(std::make_pair(meshes[i].vertices, meshes[i].triangles), i).first->second;
    const Target& f = targets[first_of[i]];
    if (first_of[i] != i) same_as[i] = f.link + " #" + std::to_string(f.index);
  }
  return first_of;
}

// Rethrows the failure of target t's fit; an Error is named as the mesh's
// reading errors are (the fit's own errors are about its points, "<points>:
// ...", which the mesh now names).
[[noreturn]] void rethrowFitFailure(const std::exception_ptr& failure, const Target& t,
                                    const std::string& source) {
  try {
    std::rethrow_exception(failure);
  } catch (const Error& e) {
    std::string why = e.what();
    if (why.rfind("<points>: ", 0) == 0) why.erase(0, 10);
    fail(e.status(), source, t.line, t.link,
         "link '" + t.link + "', collision #" + std::to_string(t.index) + ", mesh '" + t.mesh +
             "': " + why);
  }
}

// The fits of the targets' meshes, identical meshes fitted once and their
// fit reused, on options.threads threads (each fit is the same whatever the
// thread count: fits share nothing). The targets are taken in order, each
// reported to options.progress as it is taken (one call at a time, in
// order); after a failed fit no further target is taken, and the failure of
// the lowest target, the one a single thread stops at, is thrown, named at
// its line.
std::vector<UnionFit> fitAll(const std::vector<Target>& targets,
                             const std::vector<TriangleMesh>& meshes,
                             const UrdfFitOptions& options, const std::string& source,
                             std::vector<std::string>& same_as) {
  const std::vector<std::size_t> first_of = firstWithMesh(targets, meshes, same_as);
  std::vector<UnionFit> results(targets.size());
  std::vector<std::exception_ptr> failures(targets.size());
  std::vector<char> in_progress_call(targets.size(), 0);  // thrown by options.progress
  std::mutex taking;
  std::size_t next = 0;
  bool failed = false;
  const auto work = [&] {
    for (;;) {
      std::size_t i = 0;
      {
        const std::lock_guard<std::mutex> lock(taking);
        if (failed || next == targets.size()) return;
        i = next++;
        const Target& t = targets[i];
        try {
          if (options.progress)
            options.progress({i, targets.size(), t.link, t.index, t.line, t.mesh,
                              meshes[i].vertices.size(), same_as[i]});
        } catch (...) {
          failures[i] = std::current_exception();
          in_progress_call[i] = 1;
          failed = true;
          return;
        }
        if (first_of[i] != i) continue;  // copied once every fit is done
      }
      try {
        results[i] = fitMesh(meshes[i], options);
      } catch (...) {
        failures[i] = std::current_exception();
        const std::lock_guard<std::mutex> lock(taking);
        failed = true;
      }
    }
  };
  std::size_t to_fit = 0;
  for (std::size_t i = 0; i < targets.size(); ++i) to_fit += first_of[i] == i;
  const std::size_t threads = std::min(fitThreads(options.threads), to_fit);
  std::vector<std::thread> pool;
  pool.reserve(threads);  // before any thread runs: emplace_back then throws no bad_alloc
  for (std::size_t k = 1; k < threads; ++k) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: fewer do the same fits
    }
  }
  work();
  for (std::thread& t : pool) t.join();
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (!failures[i]) continue;
    if (in_progress_call[i]) std::rethrow_exception(failures[i]);
    rethrowFitFailure(failures[i], targets[i], source);
  }
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (first_of[i] != i) results[i] = results[first_of[i]];
  return results;
}

// The start tag of body `body` of a target: the original one, with "_<body>"
// appended to its name attribute after the first body.
std::string startTag(const std::string& text, const Target& t, std::size_t body) {
  std::string tag = text.substr(t.begin, detail::tagEnd(text, t.begin) - t.begin);
  if (body == 0) return tag;
  const auto value = detail::attributeSpan(tag, "name");
  if (value.second != std::string::npos) tag.insert(value.second, "_" + std::to_string(body));
  return tag;
}

// The factor a body's semi-axes are grown by where its collision origin is
// far: composing the origin (and reading it back) rounds the body's position
// by a few ulps of that distance, which the fit's own margin (1e-9 of the
// body's size) is not sure to cover beyond about 1e4 sizes from the link's
// origin.
// Uniform growth about the body's centre keeps it convex and holding its
// mesh; 1 (bits unchanged) where rounding is already covered.
double farOriginGrowth(const Isometry3d& origin, const Vector3d& p, const double* params) {
  const double reach = origin.translation().lpNorm<Eigen::Infinity>() + p.lpNorm<Eigen::Infinity>();
  const double size = std::min({params[0], params[1], params[2]});
  const double growth = 32 * DBL_EPSILON * reach / size;
  return growth > 1e-10 ? 1 + growth : 1;
}

// The replacement elements: per body, the start tag (startTag), the composed
// origin and the bare superovoid (addFallbacks writes the box), indented like
// the input.
std::string element(const std::string& text, const Target& t, const UnionFit& fits,
                    const std::string& prefix, const std::string& eol) {
  std::size_t line_begin = text.rfind('\n', t.begin);
  line_begin = line_begin == std::string::npos ? 0 : line_begin + 1;
  std::string indent = text.substr(line_begin, t.begin - line_begin);
  if (indent.find_first_not_of(" \t") != std::string::npos) indent.clear();
  const std::string in1 = indent + "  ", in2 = indent + "    ";
  static const char* names[7] = {"a1", "a2", "a3", "eps1", "eps2", "taper_x", "taper_y"};
  std::string s;
  for (std::size_t b = 0; b < fits.bodies.size(); ++b) {
    const SuperovoidFit& fit = fits.bodies[b];
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R(fit.pose.R);
    Isometry3d local = Isometry3d::Identity();
    local.linear() = R;
    local.translation() = Eigen::Map<const Vector3d>(fit.pose.p);
    const Isometry3d pose = t.origin * local;
    const Vector3d ypr = pose.linear().eulerAngles(2, 1, 0);
    const Vector3d p = pose.translation();
    if (b > 0) s += eol + indent;
    s += startTag(text, t, b) + eol;
    s += in1 + "<origin xyz=\"" + formatShortest(p.x()) + " " + formatShortest(p.y()) + " " +
         formatShortest(p.z()) + "\" rpy=\"" + formatShortest(ypr[2]) + " " +
         formatShortest(ypr[1]) + " " + formatShortest(ypr[0]) + "\"/>" + eol;
    s += in1 + "<geometry>" + eol + in2 + "<" + prefix + ":superovoid";
    const double growth = farOriginGrowth(t.origin, p, fit.params);
    for (int k = 0; k < 7; ++k)
      s += std::string(" ") + names[k] + "=\"" +
           formatShortest(k < 3 ? fit.params[k] * growth : fit.params[k]) + "\"";
    s += "/>" + eol + in1 + "</geometry>" + eol + indent + "</collision>";
  }
  return s;
}

// The prefix <robot> binds to the superovoid namespace, "" when none.
std::string boundPrefix(const tinyxml2::XMLElement* robot, const std::string& source) {
  for (const auto* a = robot->FirstAttribute(); a; a = a->Next()) {
    const std::string n = a->Name();
    if (n.rfind("xmlns:", 0) == 0 && std::string(a->Value()) == SOV_URDF_NAMESPACE)
      return n.substr(6);
  }
  if (robot->Attribute("xmlns:sov"))
    fail(SOV_URDF_ERR_PLACEMENT, source, robot->GetLineNum(), "",
         "prefix 'sov' is bound to another namespace on <robot>");
  return "";
}

// Declares xmlns:sov on the <robot> start tag of text.
void declareNamespace(std::string& text, const tinyxml2::XMLElement* robot,
                      const std::string& source) {
  const std::size_t at = text.find("<robot", lineStart(text, robot->GetLineNum()));
  if (at == std::string::npos)
    fail(SOV_URDF_ERR_MODEL, source, robot->GetLineNum(), "", "cannot find <robot in the text");
  text.insert(at + 6, std::string(" xmlns:sov=\"") + SOV_URDF_NAMESPACE + "\"");
}

// The index of each target's first <collision> in the output: its input
// index shifted by the extra bodies of earlier targets of its link.
std::vector<std::size_t> writtenIndices(const std::vector<Target>& targets,
                                        const std::vector<UnionFit>& results) {
  std::vector<std::size_t> written(targets.size());
  std::map<std::string, std::size_t> extra;  // link -> bodies added so far
  for (std::size_t i = 0; i < targets.size(); ++i) {
    written[i] = targets[i].index + extra[targets[i].link];
    extra[targets[i].link] += results[i].bodies.size() - 1;
  }
  return written;
}

// F (SPEC) of the point of the collision frame against a parsed superovoid.
double implicitAt(const Superovoid& s, const Isometry3d& origin, const Point3& v) {
  const Eigen::Quaterniond q(s.quat[0], s.quat[1], s.quat[2], s.quat[3]);
  const Vector3d xyz(s.xyz[0], s.xyz[1], s.xyz[2]);
  const Vector3d y = q.conjugate() * (origin * Vector3d(v[0], v[1], v[2]) - xyz);
  double F = 0;
  sov_shape_implicit(&F, nullptr, nullptr, &s.shape, y.data());
  return F;
}

// Steps per edge of the barycentric grid of points checked on each triangle
// of a union's mesh.
constexpr int kTriangleGridSteps = 8;

// F of the point (collision frame) against the union of bodies: its smallest.
double unionImplicitAt(const std::vector<const Superovoid*>& bodies, const Isometry3d& origin,
                       const Point3& v) {
  double F = INFINITY;
  for (const Superovoid* s : bodies) F = std::min(F, implicitAt(*s, origin, v));
  return F;
}

// The largest F over a barycentric grid of points of triangle t of mesh
// against the union of bodies.
double triangleImplicit(const std::vector<const Superovoid*>& bodies, const Isometry3d& origin,
                        const TriangleMesh& mesh, const std::array<int, 3>& t) {
  double worst = -INFINITY;
  for (int i = 0; i <= kTriangleGridSteps; ++i)
    for (int j = 0; i + j <= kTriangleGridSteps; ++j) {
      const double u = double(i) / kTriangleGridSteps, v = double(j) / kTriangleGridSteps;
      Point3 x;
      for (int k = 0; k < 3; ++k)
        x[k] = (1 - u - v) * mesh.vertices[t[0]][k] + u * mesh.vertices[t[1]][k] +
               v * mesh.vertices[t[2]][k];
      worst = std::max(worst, unionImplicitAt(bodies, origin, x));
    }
  return worst;
}

// Every vertex of every fitted mesh inside one of its superovoids as parsed
// back; for a union also a grid of points on every triangle (a union holds
// each triangle in pieces, one per body, so vertices inside do not make the
// triangle inside).
void checkContainment(const Model& model, const std::vector<Target>& targets,
                      const std::vector<UnionFit>& results,
                      const std::vector<std::size_t>& written,
                      const std::vector<TriangleMesh>& meshes, const std::string& source) {
  for (std::size_t i = 0; i < targets.size(); ++i) {
    std::vector<const Superovoid*> bodies;
    for (std::size_t b = 0; b < results[i].bodies.size(); ++b) {
      const Superovoid* s = model.find(targets[i].link, written[i] + b);
      if (!s)
        fail(SOV_URDF_ERR_INTERNAL, source, targets[i].line, targets[i].link,
             "fitted collision lost");
      bodies.push_back(s);
    }
    const std::string written_bodies =
        "the superovoid" + std::string(bodies.size() > 1 ? "s" : "") + " written";
    for (const auto& v : meshes[i].vertices) {
      const double F = unionImplicitAt(bodies, targets[i].origin, v);
      if (!(F <= 0))
        fail(SOV_URDF_ERR_INTERNAL, source, bodies[0]->line, bodies[0]->link,
             "a mesh vertex is outside " + written_bodies + " (F = " + formatShortest(F) + ")");
    }
    if (bodies.size() == 1) continue;  // a convex body holding the vertices holds the triangles
    for (const auto& t : meshes[i].triangles) {
      const double F = triangleImplicit(bodies, targets[i].origin, meshes[i], t);
      if (!(F <= 0))
        fail(SOV_URDF_ERR_INTERNAL, source, bodies[0]->line, bodies[0]->link,
             "a point of a mesh triangle is outside " + written_bodies +
                 " (F = " + formatShortest(F) + ")");
    }
  }
}

}  // namespace

std::string fitUrdf(const std::string& xml, const std::string& base_dir,
                    const UrdfFitOptions& options, std::vector<CollisionFit>* fits,
                    const std::string& source_name) {
  // The input must already be a document parse() accepts (UTF-8 among the
  // rest): refused now, not after minutes of fitting when the output is.
  parse(xml, source_name);
  detail::checkSplitOptions(options.split);
  if (options.threads < 0)
    fail(SOV_ERR_OPTION, source_name, 0, "",
         "threads must be 0 (one per core) or more, got " + std::to_string(options.threads));
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS)
    fail(SOV_URDF_ERR_XML, source_name, doc.ErrorLineNum(), "", doc.ErrorStr());
  std::vector<Target> targets = findTargets(doc, xml, options.links, source_name);
  // Which prefix the output uses: a clash is refused before the fits too.
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  const std::string bound = boundPrefix(robot, source_name);
  std::vector<TriangleMesh> meshes;
  // Every mesh is read before the first (slow) fit, so that a bad path fails at once.
  for (Target& t : targets)
    meshes.push_back(readMesh(t, base_dir, options.package_paths, source_name));
  std::vector<std::string> same_as;
  const std::vector<UnionFit> results = fitAll(targets, meshes, options, source_name, same_as);
  const std::string eol = xml.find("\r\n") != std::string::npos ? "\r\n" : "\n";
  std::string out = xml;
  // Back to front, so that earlier offsets stay valid; <robot> comes first.
  for (std::size_t i = targets.size(); i-- > 0;)
    out.replace(targets[i].begin, targets[i].end - targets[i].begin,
                element(xml, targets[i], results[i], bound.empty() ? "sov" : bound, eol));
  if (!targets.empty() && bound.empty()) declareNamespace(out, robot, source_name);
  out = addFallbacks(out, source_name);
  const std::vector<std::size_t> written = writtenIndices(targets, results);
  checkContainment(parse(out, source_name), targets, results, written, meshes, source_name);
  if (fits)
    for (std::size_t i = 0; i < targets.size(); ++i)
      fits->push_back(CollisionFit{targets[i].link, targets[i].index, targets[i].mesh,
                                   results[i].bodies[0], results[i], written[i], same_as[i],
                                   targets[i].path, targets[i].scale});
  return out;
}

namespace {

// Throws SOV_URDF_ERR_IO unless out_path can be written, leaving the file
// system as it was: checked before minutes of fitting.
void checkWritable(const std::string& out_path) {
  std::error_code ec;
  const bool existed = std::filesystem::exists(out_path, ec);
  if (existed && std::filesystem::is_directory(out_path, ec))
    fail(SOV_URDF_ERR_IO, out_path, 0, "", "cannot write the file: it is a folder");
  if (!std::ofstream(out_path, std::ios::binary | std::ios::app))
    fail(SOV_URDF_ERR_IO, out_path, 0, "", "cannot write the file");
  if (!existed) std::filesystem::remove(out_path, ec);
}

}  // namespace

void fitUrdfFile(const std::string& in_path, const std::string& out_path,
                 const UrdfFitOptions& options, std::vector<CollisionFit>* fits) {
  const std::string xml = detail::readFile(in_path);
  checkWritable(out_path);
  const std::size_t slash = in_path.find_last_of('/');
  const std::string base = slash == std::string::npos ? "." : in_path.substr(0, slash);
  const std::string out =
      detail::relocateMeshFilenames(fitUrdf(xml, base, options, fits, in_path), in_path, out_path);
  std::ofstream o(out_path, std::ios::binary | std::ios::trunc);
  if (!(o << out) || !o.flush()) fail(SOV_URDF_ERR_IO, out_path, 0, "", "cannot write the file");
}

}  // namespace urdf
}  // namespace sov
