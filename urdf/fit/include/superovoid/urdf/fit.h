// Fitting superovoids to link meshes: the convex hull of a point set
// (qhull), the smallest-volume convex superovoid that contains every point
// (Levenberg-Marquardt, exact containment checked with the C API), the fit's
// quality against the hull, and the conversion of a URDF's mesh collisions
// into superovoids. Library superovoid::fit.
//
//   sov::urdf::TriangleMesh m = sov::urdf::loadMesh("link.stl");
//   sov::urdf::SuperovoidFit f = sov::urdf::fitSuperovoid(m.vertices);
//   // f.params (a1 a2 a3 eps1 eps2 taper_x taper_y), f.shape, f.pose,
//   // f.volume_ratio, f.gap, f.seconds
#ifndef SUPEROVOID_URDF_FIT_H
#define SUPEROVOID_URDF_FIT_H

#include <superovoid/superovoid.h>

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "superovoid/urdf/fit_export.h"
#include "superovoid/urdf/mesh.h"

namespace sov {
namespace urdf {

using Point3 = std::array<double, 3>;

// Convex hull of a point set: its vertices (a subset of the input), its
// triangles (indices into vertices, counter-clockwise seen from outside) and
// its volume.
struct ConvexHull {
  std::vector<Point3> vertices;
  std::vector<std::array<int, 3>> triangles;
  double volume = 0;
};

// The convex hull of points by qhull ("Qt": triangulated facets). Throws
// sov::urdf::Error (SOV_ERR_NONFINITE for a NaN or infinite coordinate,
// SOV_URDF_ERR_MODEL for fewer than 4 points or a flat set, with qhull's
// message).
SOV_FIT_API ConvexHull convexHull(const std::vector<Point3>& points);

// Options of fitSuperovoid. The defaults are what sov-urdf-fit uses.
struct FitOptions {
  // Iteration cap of each Levenberg-Marquardt solve.
  int max_iterations = 60;
  // The fit starts from each principal axis as the body's z (three
  // least-squares fits); this many of them, the smallest once inflated, go
  // through the volume minimisation. Where two principal variances tie, as
  // many more do of six from the hull's face frame (each axis as z, from an
  // ellipsoid and from a box-like body).
  int refined_starts = 3;
  // Penalty weights of the volume-minimisation stage, one LM solve each,
  // each followed by the exact inflation (see urdf/fit/README.md).
  std::vector<double> penalties = {1e2, 1e3, 1e4, 1e5};
  // Exponent bounds: eps1, eps2 in [eps_min, eps_max] (SPEC: (0, 2)).
  double eps_min = 0.1, eps_max = 1.9;
  // Taper bound |taper| <= taper_max (the fit also keeps the body convex).
  double taper_max = 0.9;
  // Directions sampled for the gap (Hausdorff distance to the hull).
  int gap_directions = 4000;
  // Tapers are set to zero, or else to their mean, when the body so made
  // (inflated to contain the points again) has at most this much more
  // volume, relatively: unequal tapers dent a body slightly (SPEC), and
  // equal or zero ones are quicker to query; 0 keeps the fitted tapers.
  double taper_snap = 0.01;
};

// A fitted superovoid and its quality.
struct SuperovoidFit {
  double params[7] = {0, 0, 0, 0, 0, 0, 0};  // a1 a2 a3 eps1 eps2 taper_x taper_y
  sov_shape shape{};                         // sov_shape_init(params)
  sov_pose pose{};                           // points' frame = R * local + p
  double volume = 0;                         // of the superovoid
  double hull_volume = 0;                    // of the points' convex hull
  double volume_ratio = 0;                   // volume / hull_volume (>= 1)
  double gap = 0;                            // Hausdorff distance from the superovoid to the hull:
                   // max over sampled unit u of h_superovoid(u) - h_hull(u)
  double max_F = 0;               // largest F (SPEC) over the points in the local frame, <= 0
  std::size_t points = 0;         // input points
  std::size_t hull_vertices = 0;  // of them, vertices of the hull
  double seconds = 0;             // wall time of the fit (hull and gap included)
};

// The superovoid of (locally) smallest volume containing every point, convex
// (sov_shape_init accepts it). Every hull vertex, hence every point and the
// whole hull, satisfies F <= 0 in the fit's frame, checked with
// sov_shape_implicit. Deterministic. Throws sov::urdf::Error as convexHull
// does, and SOV_URDF_ERR_INTERNAL if no candidate could be made to contain
// the points (not expected).
SOV_FIT_API SuperovoidFit fitSuperovoid(const std::vector<Point3>& points,
                                        const FitOptions& options = FitOptions());

// Hausdorff distance from the posed shape to hull (which it must contain):
// the largest h_shape(u) - h_hull(u) over `directions` unit vectors spread
// over the sphere, refined around the best one. A lower bound that the
// refinement makes tight to about 1e-6 of the body's size.
SOV_FIT_API double hausdorffGap(const sov_shape& shape, const sov_pose& pose,
                                const ConvexHull& hull, int directions);

// Options of fitSuperovoidUnion: how many bodies a mesh may get and when
// to stop splitting it. The defaults (one body) are fitSuperovoid's fit.
struct SplitOptions {
  // Largest max_bodies: each body is fitted and checked against every
  // triangle, and a link of more bodies than this is slower than its mesh.
  static constexpr int kMaxBodies = 64;
  // Cap on the bodies of one mesh (1 to kMaxBodies).
  int max_bodies = 1;
  // Splitting stops once the union's volume over the mesh's hull volume is
  // at most target_ratio (0, or at least 1) and its gap (UnionFit::gap,
  // metres) at most target_gap; 0 leaves that target out (with neither
  // target: split up to max_bodies while splitting still pays).
  double target_ratio = 0;
  double target_gap = 0;
  // Plane positions tried along each of the 13 cut directions.
  int cut_offsets = 15;
  // Cuts of a piece (the best of each direction by a box-volume stand-in)
  // whose two sides are fitted, quickly, to choose among them.
  int cut_candidates = 4;
  // Grid cells per axis of each body's box for the union's volume.
  int volume_cells = 40;
  // Directions sampled per body for the union's gap.
  int gap_directions = 1000;
};

// A union of superovoids fitted to a mesh: pieces of a hierarchical plane
// split of the mesh (its triangles clipped by the cuts), one body each; every
// triangle of the mesh is held whole by some body, so every vertex and every
// triangle is inside the union.
struct UnionFit {
  std::vector<SuperovoidFit> bodies;  // each in the mesh's frame; its volume_ratio
                                      // and gap are against its own piece's hull
  double volume = 0;        // of the union (overlaps sampled: volume_cells)
  double hull_volume = 0;   // of the whole mesh's convex hull
  double volume_ratio = 0;  // volume / hull_volume (below 1 is possible: non-convex mesh)
  double gap = 0;           // Hausdorff distance from the union to the mesh: the largest
                            // distance of a point of the union's boundary to the
                            // mesh's triangles (sampled, refined; a lower bound)
  std::size_t points = 0;         // mesh vertices
  std::size_t hull_vertices = 0;  // of them, vertices of the whole hull
  int splits_tried = 0;           // cuts fitted and dropped for not paying (both passes)
  double seconds = 0;       // wall time, every fit and measure included
};

// Superovoids whose union contains the mesh (urdf/fit/README.md, "Unions"):
// the whole mesh is fitted (fitSuperovoid), then, while a target is unmet
// and fewer than max_bodies bodies exist, the piece whose best cut promises
// the largest saving is cut and both sides fitted. A piece's candidate cuts
// are the planes that most reduce a box-volume stand-in (cut_candidates of
// them); the one whose sides' quick fits are smallest is its best cut and
// its promise is its body's volume less theirs. After a cut every body is
// refitted to the triangles no other body holds (kept when smaller, dropped
// when none); the cut is kept when the union's volume shrinks (or, for an
// unmet gap target, its gap), else the piece is left whole. Where that
// leaves a target unmet (or none is set), the split runs again from the
// whole mesh with cuts ranked looking one cut ahead (what one more cut of
// each side could leave of its box), and the better union of the two is
// returned: the one meeting the targets, else the smaller. Every body is
// convex; containment is checked with sov_shape_implicit. Deterministic.
// Throws sov::urdf::Error as fitSuperovoid does, and SOV_ERR_OPTION for
// options out of range.
SOV_FIT_API UnionFit fitSuperovoidUnion(const TriangleMesh& mesh,
                                        const FitOptions& options = FitOptions(),
                                        const SplitOptions& split = SplitOptions());

// Volume of the union of posed superovoids (the fits' shape and pose): the
// sum of each body's exact volume less the share of a grid of `cells`^3
// points over its box that lies in earlier bodies.
SOV_FIT_API double unionVolume(const std::vector<SuperovoidFit>& bodies, int cells);

// Hausdorff distance from the union of bodies to the mesh it contains: the
// largest distance from a point of the union's boundary (a point of one
// body's surface inside no other body) to the mesh's triangles, over
// `directions` rays from each body's centre, refined around the best one.
// A lower bound.
SOV_FIT_API double unionGap(const std::vector<SuperovoidFit>& bodies, const TriangleMesh& mesh,
                            int directions);

// The collision fitUrdf is about to fit (UrdfFitOptions::progress).
struct FitProgress {
  std::size_t index = 0;      // its place among the collisions to fit, from 0
  std::size_t count = 0;      // how many collisions are to be fitted
  std::string link;           // its link, <collision> index and line
  std::size_t collision = 0;
  int line = 0;
  std::string mesh;           // the mesh file as written in the URDF
  std::size_t vertices = 0;   // of the mesh, welded (scale applied)
  std::string same_as;        // "<link> #<collision>" of an earlier collision whose
                              // identical mesh was fitted: its fit is reused; "" else
};

// Options of fitUrdf.
struct UrdfFitOptions {
  FitOptions fit;
  // Bodies per mesh: with split.max_bodies > 1 a mesh may become a union of
  // superovoids (fitSuperovoidUnion), written as several <collision>s.
  SplitOptions split;
  // Links whose mesh collisions are fitted; empty: every link with one.
  std::vector<std::string> links;
  // Folder of each package, by name, for package://name/path mesh URIs.
  std::map<std::string, std::string> package_paths;
  // Called before each collision is fitted (fits take seconds each), one
  // call at a time and in order, from the thread that fits it; the library
  // prints nothing itself.
  std::function<void(const FitProgress&)> progress;
  // Threads that fit meshes at once: 0 for one per core, n for at most n
  // (never more than there are meshes to fit); the calling thread is one.
  // The fits are the same whatever the count.
  int threads = 0;
};

// One fitted <collision>: its link, index among the link's collisions, the
// mesh file as written in the URDF, and the fit (in the collision's frame).
struct CollisionFit {
  std::string link;
  std::size_t collision = 0;
  std::string mesh;
  SuperovoidFit fit;       // the single body, or the union's first
  UnionFit bodies;         // every body (one without split) and the union's figures;
                           // with one body, its volume_ratio and gap are fit's
  std::size_t written = 0; // index of its first <collision> in the output's link (the
                           // bodies follow it; earlier unions of the link shift it)
  std::string same_as;     // as FitProgress::same_as: the fit of an identical mesh, reused
  std::string mesh_path;   // the mesh file read (mesh resolved)
  std::array<double, 3> scale{1, 1, 1};  // its URDF scale
};

// Replaces every <mesh> collision of the chosen links of the URDF document
// xml with its fitted superovoid (the origin becomes the collision origin
// composed with the fit's pose, the parameters the fit's, but for a body
// over about 1e4 of its size from the link's origin, grown by that
// composition's rounding (README); a fallback box is written before it, as
// sov::urdf::addFallbacks does), or with one <collision> per body of its
// union when options.split allows several (the first keeps the start tag,
// the others the same with "_<i>" appended to a name attribute), and
// declares the superovoid namespace on <robot>. Every other byte is kept. Mesh file names are
// resolved against base_dir, package:// URIs through options.package_paths
// (sov::urdf::resolveMeshUri); meshes are read through assimp (loadMesh).
// Every mesh is read before the first fit; identical meshes (the same
// vertices, scale applied) are fitted once and the fit reused. The result
// is checked: sov::urdf::parse loads it with every collision, and every mesh
// vertex is inside its superovoid (one of its union's) as parsed back (F <= 0 through
// sov_shape_implicit). fits (when not null) gets one entry per fitted
// collision, in document order. Throws sov::urdf::Error naming source_name
// and the line (and link) at fault: an input sov::urdf::parse refuses
// (malformed XML, not UTF-8, ...; checked before any mesh is read), a link in
// options.links that the document does not have or that has no <mesh>
// collision, a document without <mesh> collisions, an unreadable or
// malformed mesh, a fit that fails (with several threads, the failure of
// the first collision in document order, as with one), split options or
// threads out of range (SOV_ERR_OPTION, before any mesh is read).
SOV_FIT_API std::string fitUrdf(const std::string& xml, const std::string& base_dir,
                                const UrdfFitOptions& options,
                                std::vector<CollisionFit>* fits = nullptr,
                                const std::string& source_name = "<string>");

// fitUrdf from the file in_path (meshes relative to its folder) to out_path;
// relative <mesh filename> values left in the output (collisions not
// fitted, visuals) are rewritten to name the same files from out_path's
// folder when it is another.
// out_path is checked first (SOV_URDF_ERR_IO when it cannot be written),
// before any fitting, and left as it was when it cannot.
SOV_FIT_API void fitUrdfFile(const std::string& in_path, const std::string& out_path,
                             const UrdfFitOptions& options,
                             std::vector<CollisionFit>* fits = nullptr);

}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_FIT_H
