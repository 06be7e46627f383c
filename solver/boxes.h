/* Posed boxes: a separating-axis proof that two are disjoint, the cheapest
 * "apart" for bodies that lie inside them. */
#ifndef SOLVER_BOXES_H
#define SOLVER_BOXES_H

#include "solver/types.h"

/* 1 when the box [loA, hiA] posed by XA and the box [loB, hiB] posed by XB
 * are proved disjoint by one of their 15 separating axes (face normals of
 * each, cross products of an edge of each), with a margin for rounding;
 * 0 when they may overlap. Near-parallel edges never prove anything. */
int sovc_boxes_apart(const double loA[3], const double hiA[3], const sovc_pose *XA,
                     const double loB[3], const double hiB[3], const sovc_pose *XB);

#endif
