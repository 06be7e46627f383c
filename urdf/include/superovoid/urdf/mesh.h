// Triangle meshes: reading every format assimp reads, writing binary STL and
// OBJ, and the surface mesh of a superovoid (the C API's sov_shape_tessellate).
#ifndef SUPEROVOID_URDF_MESH_H
#define SUPEROVOID_URDF_MESH_H

#include <array>
#include <map>
#include <string>
#include <vector>

#include "superovoid/superovoid.h"
#include "superovoid/urdf/export.h"

namespace sov {
namespace urdf {

// An indexed triangle mesh: vertex coordinates and, per triangle, three
// indices into vertices (counter-clockwise seen from outside for the meshes
// this library writes; read files keep their own order).
struct TriangleMesh {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::array<int, 3>> triangles;
};

// Reads a mesh file through assimp (STL, OBJ, COLLADA, PLY and every other
// format assimp reads) and multiplies every coordinate by scale (URDF's
// <mesh scale>). The triangles of every mesh of the file's node tree are
// taken with their node's transform (polygons triangulated; points and lines
// dropped); COLLADA's <unit> is applied, its <up_axis> is not (Z stays up, as
// ROS reads it). Equal vertices are welded into one. Coordinates are read in
// single precision (Debian's assimp). Throws sov::urdf::Error naming the
// file: SOV_URDF_ERR_IO when it cannot be read, SOV_ERR_NONFINITE for a
// coordinate or scale that is NaN or infinite, SOV_URDF_ERR_MODEL for content
// assimp refuses (its reason quoted) and a mesh without triangles.
SOV_URDF_API TriangleMesh loadMesh(const std::string& path,
                                   const std::array<double, 3>& scale = {1, 1, 1});

// The file a URDF <mesh filename> names: package://name/path through
// package_paths (name -> folder), file://path, or a plain path; a relative
// result is taken against directory ("" keeps it relative to the current
// directory). The path of a URI has its %XX escapes decoded, as ROS's
// resource_retriever reads it (file:///a%20b.stl names "/a b.stl"); a plain
// path is taken as written. Throws sov::urdf::Error (SOV_URDF_ERR_IO, its
// source the URI) for an empty name, a package URI without a path, a package
// missing from package_paths, any other scheme, a malformed escape (a '%'
// without two hex digits) and %00.
SOV_URDF_API std::string resolveMeshUri(const std::string& uri, const std::string& directory,
                                        const std::map<std::string, std::string>& package_paths);

// Adds a package folder given as "NAME=DIR" (a --package option of the
// tools) to package_paths, DIR made absolute against the current directory,
// as a shell or a script means a relative path (resolveMeshUri would take it
// against the URDF's folder). Returns false, adding nothing, for a spec
// without a name or a folder.
SOV_URDF_API bool addPackagePath(const std::string& spec,
                                 std::map<std::string, std::string>* package_paths);

// package_paths with every relative folder made absolute against the
// current directory (the Python bindings' rule, as addPackagePath's).
SOV_URDF_API std::map<std::string, std::string> packagePathsFromHere(
    const std::map<std::string, std::string>& package_paths);

// Writes mesh as binary STL (".stl", facet normals from the vertex order)
// or OBJ (".obj", shortest round-trip decimals), chosen by the extension.
// Throws sov::urdf::Error: SOV_URDF_ERR_IO when the file cannot be written
// or the extension is neither; SOV_URDF_ERR_MODEL for an index out of range.
SOV_URDF_API void saveMesh(const std::string& path, const TriangleMesh& mesh);

// The surface mesh of shape in its local frame from sov_shape_tessellate
// (n_lat >= 2 latitude bands, n_lon >= 3 meridians). Throws
// sov::urdf::Error with the C API's status for bad counts.
SOV_URDF_API TriangleMesh tessellate(const sov_shape& shape, int n_lat, int n_lon);

// mesh with every vertex moved by pose (world = R local + p).
SOV_URDF_API TriangleMesh transformed(const TriangleMesh& mesh, const sov_pose& pose);

}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_MESH_H
