#include "dispatch.h"

namespace sov {
namespace detail {

void checkNotNull(const Geometry* o1, const Geometry* o2) {
  if (!o1 || !o2) throwIfError(SOV_ERR_NULL, "sov::collide / sov::distance: null geometry");
}

void checkSolver(fcl::GJKSolverType type) {
  if (type == fcl::GST_LIBCCD) return;
  throw Error(SOV_ERR_OPTION,
              "superovoid pairs need gjk_solver_type = GST_LIBCCD: FCL's GST_INDEP "
              "solver has no support function for a superovoid");
}

fcl::DistanceRequest<double> forwardedRequest(const Geometry* o1, const Geometry* o2,
                                              const fcl::DistanceRequest<double>& request) {
  fcl::DistanceRequest<double> r = request;
  const bool shapes = o1->getObjectType() == fcl::OT_GEOM && o2->getObjectType() == fcl::OT_GEOM;
  if (!shapes || r.gjk_solver_type != fcl::GST_LIBCCD) r.enable_signed_distance = false;
  return r;
}

void throwUnsupported(const Geometry& g) {
  std::string what;
  if (g.getObjectType() == fcl::OT_BVH) {
    what = "a BVHModel of node type " + std::to_string(g.getNodeType());
  } else if (g.getNodeType() == fcl::GEOM_TRIANGLE) {
    what = "a triangle (fcl::TriangleP)";
  } else {
    what = "a geometry of node type " + std::to_string(g.getNodeType());
  }
  throw Error(SOV_ERR_OPTION, "superovoid vs " + what + " is not supported yet");
}

}  // namespace detail
}  // namespace sov
