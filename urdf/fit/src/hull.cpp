// Convex hull of a point set through qhull's reentrant library (qhull_r).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"
#include "superovoid/urdf/fit.h"

namespace sov {
namespace urdf {
namespace {

// Frees qhull's memory on every path out of convexHull.
struct QhullRun {
  qhT qh;
  QhullRun() { qh_zero(&qh, nullptr); }
  ~QhullRun() {
    int curlong = 0, totlong = 0;
    qh_freeqhull(&qh, !qh_ALL);
    qh_memfreeshort(&qh, &curlong, &totlong);
  }
};

// Captures qhull's error report (qhull writes it to a FILE*) for the exception.
struct ErrorText {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* file = open_memstream(&text, &size);
  ~ErrorText() {
    if (file) std::fclose(file);
    std::free(text);
  }
  // qhull's first line (its error code and reason): the rest is its options
  // and a dump of the points, 20 lines or more, that named nothing useful.
  std::string read() {
    std::fflush(file);
    std::string s = text ? std::string(text, size) : std::string();
    s = s.substr(0, s.find('\n'));
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
  }
};

Location nowhere() { return Location{"<points>", 0, "", ""}; }

}  // namespace

ConvexHull convexHull(const std::vector<Point3>& points) {
  if (points.size() < 4)
    throw Error(SOV_URDF_ERR_MODEL, nowhere(),
                "a convex hull needs at least 4 points, got " + std::to_string(points.size()));
  std::vector<coordT> coords;
  coords.reserve(3 * points.size());
  for (const Point3& p : points)
    for (double c : p) {
      if (!std::isfinite(c))
        throw Error(SOV_ERR_NONFINITE, nowhere(), "a point coordinate is not finite");
      coords.push_back(c);
    }
  QhullRun run;
  ErrorText err;
  char command[] = "qhull Qt";
  const int exitcode = qh_new_qhull(&run.qh, 3, static_cast<int>(points.size()), coords.data(),
                                    False, command, nullptr, err.file);
  if (exitcode != 0)
    throw Error(
        SOV_URDF_ERR_MODEL, nowhere(),
        "qhull could not build the convex hull (flat or degenerate points?): " + err.read());
  qhT* qh = &run.qh;
  ConvexHull hull;
  std::map<int, int> index_of;  // qhull point id -> index in hull.vertices
  vertexT* vertex;
  FORALLvertices {
    const int id = qh_pointid(qh, vertex->point);
    index_of[id] = static_cast<int>(hull.vertices.size());
    hull.vertices.push_back(points[static_cast<std::size_t>(id)]);
  }
  facetT* facet;
  FORALLfacets {
    std::array<int, 3> t{};
    int k = 0;
    vertexT** vertexp;
    FOREACHvertex_(facet->vertices) {
      if (k < 3) t[k] = index_of.at(qh_pointid(qh, vertex->point));
      ++k;
    }
    if (k != 3) continue;  // "Qt" triangulates every facet; nothing else is expected
    // Counter-clockwise seen from outside: agree with qhull's outward normal.
    const Point3 &a = hull.vertices[t[0]], &b = hull.vertices[t[1]], &c = hull.vertices[t[2]];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                         u[0] * v[1] - u[1] * v[0]};
    if (n[0] * facet->normal[0] + n[1] * facet->normal[1] + n[2] * facet->normal[2] < 0)
      std::swap(t[1], t[2]);
    hull.triangles.push_back(t);
  }
  // Volume by the divergence theorem over the oriented triangles, about a
  // vertex of the hull: about the origin, a mesh 1e4 from it had twice its
  // hull's volume and one 1e6 away a negative one (the products' rounding).
  double six_v = 0;
  const Point3 o = hull.vertices.empty() ? Point3{0, 0, 0} : hull.vertices[0];
  for (const auto& t : hull.triangles) {
    double a[3], b[3], c[3];
    for (int i = 0; i < 3; ++i) {
      a[i] = hull.vertices[t[0]][i] - o[i];
      b[i] = hull.vertices[t[1]][i] - o[i];
      c[i] = hull.vertices[t[2]][i] - o[i];
    }
    six_v += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
             a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  hull.volume = six_v / 6;
  return hull;
}

}  // namespace urdf
}  // namespace sov
