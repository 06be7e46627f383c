// Triangle meshes: reading through assimp (every format it reads), writing
// binary STL and OBJ, and the surface mesh of a superovoid.
#include "superovoid/urdf/mesh.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "io.h"
#include "number.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"
#include "uri.h"

namespace sov {
namespace urdf {

namespace {

using detail::formatShortest;

using Vec3 = std::array<double, 3>;

// Throws sov::urdf::Error(status) naming path and line (0: none).
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

// Collects vertices, welding equal ones (STL repeats each vertex per facet;
// assimp keeps one per face corner where the normals differ).
class Welder {
 public:
  explicit Welder(TriangleMesh* mesh) : mesh_(mesh) {}
  // The index of v, added when new.
  int add(const Vec3& v) {
    const auto found = index_.emplace(v, static_cast<int>(mesh_->vertices.size()));
    if (found.second) mesh_->vertices.push_back(v);
    return found.first->second;
  }

 private:
  TriangleMesh* mesh_;
  std::map<Vec3, int> index_;
};

// Adds the triangles of node and its children to mesh: vertices moved by the
// nodes' transforms (`to` is the parents', composed), scaled and welded.
// Throws SOV_ERR_NONFINITE for a vertex that is not finite.
void collect(const aiScene& scene, const aiNode& node, const aiMatrix4x4& to, const Vec3& scale,
             const std::string& path, Welder& welder, TriangleMesh& mesh) {
  const aiMatrix4x4 frame = to * node.mTransformation;
  for (unsigned m = 0; m < node.mNumMeshes; ++m) {
    const aiMesh& part = *scene.mMeshes[node.mMeshes[m]];
    for (unsigned f = 0; f < part.mNumFaces; ++f) {
      const aiFace& face = part.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines have no surface
      std::array<int, 3> tri;
      for (int i = 0; i < 3; ++i) {
        const aiVector3D v = frame * part.mVertices[face.mIndices[i]];
        const Vec3 w{scale[0] * v.x, scale[1] * v.y, scale[2] * v.z};
        if (!std::isfinite(w[0]) || !std::isfinite(w[1]) || !std::isfinite(w[2])) {
          fail(SOV_ERR_NONFINITE, path, 0,
               "mesh '" + std::string(part.mName.C_Str()) + "', face " + std::to_string(f) +
                   ": a coordinate is not finite");
        }
        tri[i] = welder.add(w);
      }
      mesh.triangles.push_back(tri);
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c) {
    collect(scene, *node.mChildren[c], frame, scale, path, welder, mesh);
  }
}

// Throws SOV_URDF_ERR_IO unless path names a readable regular file (assimp's
// message does not tell a missing file from a malformed one).
void checkReadable(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    fail(SOV_URDF_ERR_IO, path, 0, "cannot read the file: no such regular file");
  }
  if (!std::ifstream(path, std::ios::binary)) {
    fail(SOV_URDF_ERR_IO, path, 0, "cannot read the file");
  }
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

// Appends v as a little-endian uint32.
void appendU32(std::string* out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out->push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}
// Appends f as a little-endian float32.
void appendF32(std::string* out, float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  appendU32(out, bits);
}

// The bytes of mesh as binary STL.
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

// The text of mesh as OBJ (vertices and faces).
std::string obj(const TriangleMesh& mesh) {
  std::string out = "# written by superovoid\n";
  for (const auto& v : mesh.vertices) {
    out += "v " + formatShortest(v[0]) + " " + formatShortest(v[1]) + " " + formatShortest(v[2]) +
           "\n";
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
  for (double k : scale) {
    if (!std::isfinite(k)) fail(SOV_ERR_NONFINITE, path, 0, "the mesh scale is not finite");
  }
  checkReadable(path);
  Assimp::Importer importer;
  // ROS reads COLLADA files in their own frame, Z up; assimp would turn a
  // Z_UP file to Y up. Their <unit meter> is applied.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_SortByPType);
  if (!scene || !scene->mRootNode || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE)) {
    fail(SOV_URDF_ERR_MODEL, path, 0,
         std::string("assimp cannot read the mesh: ") + importer.GetErrorString());
  }
  TriangleMesh mesh;
  Welder welder(&mesh);
  collect(*scene, *scene->mRootNode, aiMatrix4x4(), scale, path, welder, mesh);
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
    path =
        std::filesystem::path(found->second) / detail::percentDecoded(rest.substr(slash + 1), uri);
  } else if (uri.rfind(kFile, 0) == 0) {
    path = detail::percentDecoded(uri.substr(kFile.size()), uri);
  } else if (uri.find("://") != std::string::npos) {
    fail("unsupported URI scheme (package://, file:// or a path)");
  } else {
    path = uri;
  }
  if (path.empty()) fail("no file name");
  if (path.is_relative() && !directory.empty()) path = std::filesystem::path(directory) / path;
  return path.string();
}

bool addPackagePath(const std::string& spec, std::map<std::string, std::string>* package_paths) {
  const std::size_t eq = spec.find('=');
  if (eq == 0 || eq == std::string::npos || eq + 1 == spec.size()) return false;
  (*package_paths)[spec.substr(0, eq)] = std::filesystem::absolute(spec.substr(eq + 1)).string();
  return true;
}

std::map<std::string, std::string> packagePathsFromHere(
    const std::map<std::string, std::string>& package_paths) {
  std::map<std::string, std::string> out;
  for (const auto& [name, dir] : package_paths)
    out[name] = dir.empty() ? dir : std::filesystem::absolute(dir).string();
  return out;
}

}  // namespace urdf
}  // namespace sov
