#include "superovoid/urdf/mesh.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

#include "io.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"

namespace sov {
namespace urdf {

namespace {

using Vec3 = std::array<double, 3>;

[[noreturn]] void fail(int status, const std::string& path, int line, const std::string& message) {
  throw Error(status, Location{path, line, "", ""}, message);
}

// The file name's extension, lower case, with its dot ("" when none).
std::string extension(const std::string& path) {
  const std::size_t slash = path.find_last_of("/\\");
  const std::size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

// Refuses extensions other than .stl and .obj, naming COLLADA explicitly.
void checkFormat(const std::string& ext, const std::string& path) {
  if (ext == ".stl" || ext == ".obj") return;
  if (ext == ".dae") {
    fail(SOV_URDF_ERR_IO, path, 0,
         "COLLADA (.dae) meshes are not supported; convert the mesh to STL or OBJ");
  }
  fail(SOV_URDF_ERR_IO, path, 0, "unsupported mesh format '" + ext + "' (supported: .stl, .obj)");
}

// Collects vertices, welding equal ones (STL repeats each vertex per facet).
class Welder {
 public:
  explicit Welder(TriangleMesh* mesh) : mesh_(mesh) {}
  int add(const Vec3& v) {
    const auto found = index_.emplace(v, static_cast<int>(mesh_->vertices.size()));
    if (found.second) mesh_->vertices.push_back(v);
    return found.first->second;
  }

 private:
  TriangleMesh* mesh_;
  std::map<Vec3, int> index_;
};

// A little-endian uint32 / float32 at p.
std::uint32_t readU32(const unsigned char* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
         std::uint32_t(p[3]) << 24;
}
double readF32(const unsigned char* p) {
  const std::uint32_t bits = readU32(p);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// True when bytes has the size of a binary STL with the header's count.
bool isBinaryStl(const std::string& bytes) {
  if (bytes.size() < 84) return false;
  const std::uint64_t n = readU32(reinterpret_cast<const unsigned char*>(bytes.data()) + 80);
  return bytes.size() == 84 + 50 * n;
}

// Scales v and throws SOV_ERR_NONFINITE (with where) for a NaN or infinity.
Vec3 scaled(const Vec3& v, const Vec3& scale, const std::string& path, int line,
            const std::string& where) {
  Vec3 out;
  for (int k = 0; k < 3; ++k) {
    if (!std::isfinite(v[k])) {
      fail(SOV_ERR_NONFINITE, path, line, where + ": coordinate is not finite");
    }
    out[k] = v[k] * scale[k];
  }
  return out;
}

TriangleMesh readBinaryStl(const std::string& bytes, const Vec3& scale, const std::string& path) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::uint32_t n = readU32(data + 80);
  TriangleMesh mesh;
  Welder welder(&mesh);
  mesh.triangles.reserve(n);
  for (std::uint32_t t = 0; t < n; ++t) {
    const unsigned char* facet = data + 84 + 50 * std::size_t(t) + 12;  // skip the normal
    std::array<int, 3> tri;
    for (int i = 0; i < 3; ++i) {
      const Vec3 v{readF32(facet + 12 * i), readF32(facet + 12 * i + 4),
                   readF32(facet + 12 * i + 8)};
      tri[i] = welder.add(scaled(v, scale, path, 0, "triangle " + std::to_string(t)));
    }
    mesh.triangles.push_back(tri);
  }
  return mesh;
}

// Whitespace-separated words of line.
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The whole of word as a number (strtod: NaN and infinities parse and are
// caught as non-finite afterwards); throws SOV_URDF_ERR_MODEL otherwise.
double number(const std::string& word, const std::string& path, int line) {
  const char* begin = word.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || *end != '\0') {
    fail(SOV_URDF_ERR_MODEL, path, line, "'" + word + "' is not a number");
  }
  return value;
}

// Three numbers at w[first..first+2], scaled.
Vec3 point(const std::vector<std::string>& w, std::size_t first, const Vec3& scale,
           const std::string& path, int line, const std::string& record) {
  if (w.size() < first + 3) {
    fail(SOV_URDF_ERR_MODEL, path, line, "'" + record + "' needs three coordinates");
  }
  const Vec3 v{number(w[first], path, line), number(w[first + 1], path, line),
               number(w[first + 2], path, line)};
  return scaled(v, scale, path, line, "'" + record + "'");
}

// Splits text into lines (LF or CRLF) and calls f(line_number, line).
template <class F>
void forEachLine(const std::string& text, F f) {
  std::size_t start = 0;
  for (int number = 1; start < text.size(); ++number) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    f(number, line);
    start = end + 1;
  }
}

TriangleMesh readAsciiStl(const std::string& text, const Vec3& scale, const std::string& path) {
  TriangleMesh mesh;
  Welder welder(&mesh);
  std::vector<int> loop;
  bool in_loop = false;
  forEachLine(text, [&](int line, const std::string& l) {
    const std::vector<std::string> w = words(l);
    if (w.empty()) return;
    const std::string& key = w[0];
    if (key == "vertex") {
      if (!in_loop) fail(SOV_URDF_ERR_MODEL, path, line, "'vertex' outside 'outer loop'");
      if (w.size() != 4) fail(SOV_URDF_ERR_MODEL, path, line, "'vertex' needs three coordinates");
      loop.push_back(welder.add(point(w, 1, scale, path, line, "vertex")));
    } else if (key == "outer") {
      in_loop = true;
      loop.clear();
    } else if (key == "endloop") {
      if (loop.size() != 3) {
        fail(SOV_URDF_ERR_MODEL, path, line,
             "a facet has " + std::to_string(loop.size()) + " vertices, not 3");
      }
      mesh.triangles.push_back({loop[0], loop[1], loop[2]});
      in_loop = false;
    } else if (key != "solid" && key != "endsolid" && key != "facet" && key != "endfacet") {
      fail(SOV_URDF_ERR_MODEL, path, line, "unexpected '" + key + "' in an ASCII STL");
    }
  });
  if (in_loop) fail(SOV_URDF_ERR_MODEL, path, 0, "the file ends inside a facet");
  return mesh;
}

TriangleMesh readStl(const std::string& bytes, const Vec3& scale, const std::string& path) {
  if (isBinaryStl(bytes)) return readBinaryStl(bytes, scale, path);
  const std::size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && bytes.compare(first, 5, "solid") == 0) {
    return readAsciiStl(bytes, scale, path);
  }
  if (bytes.size() < 84) {
    fail(SOV_URDF_ERR_MODEL, path, 0,
         "not an STL: " + std::to_string(bytes.size()) +
             " bytes, shorter than a binary STL header, and no 'solid'");
  }
  const std::uint64_t n = readU32(reinterpret_cast<const unsigned char*>(bytes.data()) + 80);
  fail(SOV_URDF_ERR_MODEL, path, 0,
       "binary STL of " + std::to_string(n) + " triangles should have " +
           std::to_string(84 + 50 * n) + " bytes, the file has " + std::to_string(bytes.size()));
}

// The vertex index of an OBJ face corner "i", "i/j", "i//k" or "i/j/k".
int objIndex(const std::string& corner, int vertex_count, const std::string& path, int line) {
  const std::size_t slash = corner.find('/');
  const std::string head = corner.substr(0, slash);
  long i = 0;
  const auto parsed = std::from_chars(head.data(), head.data() + head.size(), i);
  bool ok = !head.empty() && parsed.ec == std::errc() && parsed.ptr == head.data() + head.size();
  // The texture and normal indices are not used but must be integers or empty.
  for (std::size_t s = slash; ok && s != std::string::npos;) {
    const std::size_t next = corner.find('/', s + 1);
    const std::string part = corner.substr(s + 1, next == std::string::npos ? next : next - s - 1);
    long ignored = 0;
    const auto p = std::from_chars(part.data(), part.data() + part.size(), ignored);
    ok = part.empty() || (p.ec == std::errc() && p.ptr == part.data() + part.size());
    s = next;
  }
  if (!ok || std::count(corner.begin(), corner.end(), '/') > 2) {
    fail(SOV_URDF_ERR_MODEL, path, line,
         "'" + corner + "' is not a face vertex (i, i/j, i//k, i/j/k)");
  }
  const long resolved = i > 0 ? i - 1 : vertex_count + i;
  if (i == 0 || resolved < 0 || resolved >= vertex_count) {
    fail(SOV_URDF_ERR_MODEL, path, line,
         "vertex index " + head + " is out of range (" + std::to_string(vertex_count) +
             " vertices so far)");
  }
  return static_cast<int>(resolved);
}

TriangleMesh readObj(const std::string& text, const Vec3& scale, const std::string& path) {
  TriangleMesh mesh;
  forEachLine(text, [&](int line, std::string l) {
    l = l.substr(0, l.find('#'));
    const std::vector<std::string> w = words(l);
    if (w.empty()) return;
    if (w[0] == "v") {
      if (w.size() < 4) fail(SOV_URDF_ERR_MODEL, path, line, "'v' needs three coordinates");
      for (std::size_t k = 4; k < w.size(); ++k) number(w[k], path, line);
      mesh.vertices.push_back(point(w, 1, scale, path, line, "v"));
    } else if (w[0] == "f") {
      if (w.size() < 4) {
        fail(SOV_URDF_ERR_MODEL, path, line,
             "a face needs at least 3 vertices, this one has " + std::to_string(w.size() - 1));
      }
      const int nv = static_cast<int>(mesh.vertices.size());
      std::vector<int> corners;
      for (std::size_t k = 1; k < w.size(); ++k) corners.push_back(objIndex(w[k], nv, path, line));
      for (std::size_t k = 2; k < corners.size(); ++k) {
        mesh.triangles.push_back({corners[0], corners[k - 1], corners[k]});
      }
    }
  });
  return mesh;
}

// A facet normal for STL: the unit normal of the counter-clockwise triangle,
// zero when it is degenerate.
std::array<float, 3> facetNormal(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const Vec3 v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Vec3 n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(len > 0)) return {0.f, 0.f, 0.f};
  return {float(n[0] / len), float(n[1] / len), float(n[2] / len)};
}

void appendU32(std::string* out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out->push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}
void appendF32(std::string* out, float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  appendU32(out, bits);
}

std::string binaryStl(const TriangleMesh& mesh) {
  // The header must not begin with "solid", or readers may take it for ASCII.
  std::string out = "binary STL written by superovoid";
  out.resize(80, ' ');
  appendU32(&out, static_cast<std::uint32_t>(mesh.triangles.size()));
  for (const auto& t : mesh.triangles) {
    const auto& a = mesh.vertices[t[0]];
    const auto& b = mesh.vertices[t[1]];
    const auto& c = mesh.vertices[t[2]];
    for (float x : facetNormal(a, b, c)) appendF32(&out, x);
    for (const Vec3* v : {&a, &b, &c}) {
      for (double x : *v) appendF32(&out, static_cast<float>(x));
    }
    out.append(2, '\0');  // attribute byte count
  }
  return out;
}

// x as the shortest decimal that reads back to the same double.
std::string shortest(double x) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, r.ptr);
}

std::string obj(const TriangleMesh& mesh) {
  std::string out = "# written by superovoid\n";
  for (const auto& v : mesh.vertices) {
    out += "v " + shortest(v[0]) + " " + shortest(v[1]) + " " + shortest(v[2]) + "\n";
  }
  for (const auto& t : mesh.triangles) {
    out += "f " + std::to_string(t[0] + 1) + " " + std::to_string(t[1] + 1) + " " +
           std::to_string(t[2] + 1) + "\n";
  }
  return out;
}

// Refuses a mesh with an index out of range or a non-finite vertex.
void checkMesh(const TriangleMesh& mesh, const std::string& path) {
  const long n = static_cast<long>(mesh.vertices.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (int i : mesh.triangles[t]) {
      if (i < 0 || i >= n) {
        fail(SOV_URDF_ERR_MODEL, path, 0,
             "triangle " + std::to_string(t) + " has vertex index " + std::to_string(i) +
                 ", out of range for " + std::to_string(n) + " vertices");
      }
    }
  }
  for (std::size_t k = 0; k < mesh.vertices.size(); ++k) {
    for (double x : mesh.vertices[k]) {
      if (!std::isfinite(x)) {
        fail(SOV_ERR_NONFINITE, path, 0, "vertex " + std::to_string(k) + " is not finite");
      }
    }
  }
}

}  // namespace

TriangleMesh loadMesh(const std::string& path, const std::array<double, 3>& scale) {
  const std::string ext = extension(path);
  checkFormat(ext, path);
  for (double s : scale) {
    if (!std::isfinite(s)) fail(SOV_ERR_NONFINITE, path, 0, "the mesh scale is not finite");
  }
  const std::string bytes = detail::readFile(path);
  TriangleMesh mesh = ext == ".stl" ? readStl(bytes, scale, path) : readObj(bytes, scale, path);
  if (mesh.triangles.empty()) fail(SOV_URDF_ERR_MODEL, path, 0, "the mesh has no triangles");
  return mesh;
}

void saveMesh(const std::string& path, const TriangleMesh& mesh) {
  const std::string ext = extension(path);
  if (ext != ".stl" && ext != ".obj") {
    fail(SOV_URDF_ERR_IO, path, 0,
         "cannot write mesh format '" + ext + "' (supported: .stl, .obj)");
  }
  checkMesh(mesh, path);
  detail::writeFile(path, ext == ".stl" ? binaryStl(mesh) : obj(mesh));
}

TriangleMesh tessellate(const sov_shape& shape, int n_lat, int n_lon) {
  std::size_t nv = 0, nt = 0;
  int status = sov_shape_tessellation_size(&nv, &nt, n_lat, n_lon);
  std::vector<double> xyz;
  std::vector<int> idx;
  if (status == SOV_OK) {
    xyz.resize(3 * nv);
    idx.resize(3 * nt);
    status =
        sov_shape_tessellate(xyz.data(), xyz.size(), idx.data(), idx.size(), &shape, n_lat, n_lon);
  }
  if (status != SOV_OK) {
    fail(status, "sov_shape_tessellate", 0,
         std::string(sov_status_string(status)) + " (n_lat " + std::to_string(n_lat) + ", n_lon " +
             std::to_string(n_lon) + ")");
  }
  TriangleMesh mesh;
  mesh.vertices.resize(nv);
  mesh.triangles.resize(nt);
  for (std::size_t k = 0; k < nv; ++k) {
    mesh.vertices[k] = {xyz[3 * k], xyz[3 * k + 1], xyz[3 * k + 2]};
  }
  for (std::size_t k = 0; k < nt; ++k) {
    mesh.triangles[k] = {idx[3 * k], idx[3 * k + 1], idx[3 * k + 2]};
  }
  return mesh;
}

TriangleMesh transformed(const TriangleMesh& mesh, const sov_pose& pose) {
  TriangleMesh out = mesh;
  for (auto& v : out.vertices) {
    const Vec3 local = v;
    for (int r = 0; r < 3; ++r) {
      v[r] = pose.R[3 * r] * local[0] + pose.R[3 * r + 1] * local[1] +
             pose.R[3 * r + 2] * local[2] + pose.p[r];
    }
  }
  return out;
}

std::string resolveMeshUri(const std::string& uri, const std::string& directory,
                           const std::map<std::string, std::string>& package_paths) {
  static const std::string kPackage = "package://", kFile = "file://";
  auto fail = [&](const std::string& why) {
    throw Error(SOV_URDF_ERR_IO, Location{uri, 0, "", ""}, why);
  };
  std::filesystem::path path;
  if (uri.rfind(kPackage, 0) == 0) {
    const std::string rest = uri.substr(kPackage.size());
    const std::size_t slash = rest.find('/');
    const std::string package = rest.substr(0, slash);
    if (slash == std::string::npos || package.empty() || slash + 1 == rest.size()) {
      fail("a package URI reads package://name/path");
    }
    const auto found = package_paths.find(package);
    if (found == package_paths.end()) fail("package '" + package + "' is not in the package paths");
    path = std::filesystem::path(found->second) / rest.substr(slash + 1);
  } else if (uri.rfind(kFile, 0) == 0) {
    path = uri.substr(kFile.size());
  } else if (uri.find("://") != std::string::npos) {
    fail("unsupported URI scheme (package://, file:// or a path)");
  } else {
    path = uri;
  }
  if (path.empty()) fail("no file name");
  if (path.is_relative() && !directory.empty()) path = std::filesystem::path(directory) / path;
  return path.string();
}

}  // namespace urdf
}  // namespace sov
