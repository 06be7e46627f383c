// Approximate convex decomposition of a triangle mesh by hierarchical plane
// cuts (used by union.cpp): a piece of a mesh is a triangle soup; a cut
// clips its triangles by a plane, so that the two sides' hulls together
// contain the piece; the best cut of a piece is the plane that most reduces
// a stand-in for the two sides' fitted volumes, among which union.cpp picks
// by fitting.
#ifndef SUPEROVOID_URDF_FIT_SPLIT_H
#define SUPEROVOID_URDF_FIT_SPLIT_H

#include <array>
#include <vector>

#include "superovoid/urdf/fit.h"

namespace sov {
namespace urdf {
namespace detail {

using Triangle = std::array<Point3, 3>;

// A piece of a mesh: its triangles (pieces of the mesh's triangles, clipped
// by the cuts that made the piece) and their distinct corners, the points a
// body of the union must contain.
struct Piece {
  std::vector<Triangle> triangles;
  std::vector<Point3> points;
};

// The piece of every triangle of mesh (its points: the mesh's vertices used
// by a triangle).
Piece wholeMesh(const TriangleMesh& mesh);

// A plane n.x = offset (n unit) and the box volumes (bestCuts) of the two
// sides of a piece cut by it, now and after one more cut of each.
struct Cut {
  double normal[3] = {0, 0, 1};
  double offset = 0;
  double below_volume = 0, above_volume = 0;
  // What one more cut of each side could leave of its box volume (the
  // side's box volume when not looked ahead).
  double below_next = 0, above_next = 0;
  bool valid = false;  // false: no plane leaves two non-flat sides
};

// The piece's triangles clipped to each side of the plane: below (n.x <=
// offset) and above. A triangle crossing the plane is split along it; the
// pieces keep every point of the input triangles (the cut's points on both
// sides), so the union of the sides' hulls contains the piece.
void cutPiece(const Piece& piece, const Cut& cut, Piece& below, Piece& above);

// Candidate cuts of the piece, most promising first: along each of 13
// directions of the piece's principal frame (axes, face and space
// diagonals), the plane among `offsets` evenly spaced ones that leaves the
// smallest sum of the two sides' principal-frame box volumes (a cheap
// stand-in for their fitted bodies' volumes); the `count` best of these,
// each refined by a pattern search over its offset and normal. With
// lookahead, the best and their refinement go by what one more cut of each
// side could leave of its box (below_next, above_next: the first cut of a
// U saves nothing, the second gains). Empty when every plane leaves a flat
// or empty side.
std::vector<Cut> bestCuts(const Piece& piece, int offsets, int count, bool lookahead);

// Throws sov::urdf::Error (SOV_ERR_OPTION) for split options out of range.
void checkSplitOptions(const SplitOptions& split);

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_FIT_SPLIT_H
