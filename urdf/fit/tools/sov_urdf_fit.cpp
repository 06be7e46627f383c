// sov-urdf-fit IN.urdf OUT.urdf [--max-gap LENGTH] [--links a,b,...]
//              [--package NAME=DIR ...]:
// replace the mesh collisions of a URDF by fitted superovoids (with fallback
// boxes), keep every other byte, and print a report table per collision.
// Exit status 0 on success, 1 on a rejected input, 2 on misuse, 3 when a
// fit's gap exceeds --max-gap (the output is written all the same).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "superovoid/urdf/fit.h"

namespace {

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s IN.urdf OUT.urdf [--max-gap LENGTH] [--links a,b,...]\n"
               "                            [--package NAME=DIR ...]\n"
               "Replaces every <mesh> collision (of the listed links, default all) by\n"
               "the smallest convex superovoid containing the mesh, with a fallback box.\n"
               "LENGTH: a number with an optional unit m, cm or mm (default m), e.g. 2mm;\n"
               "collisions whose gap exceeds it are marked and the exit status is 3.\n"
               "--package NAME=DIR resolves package://NAME/... mesh URIs (repeatable).\n",
               argv0);
  return 2;
}

// Length in metres from "0.002", "2mm", "0.2cm", "0.002m"; false if malformed.
bool parseLength(const char* text, double* metres) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || !(v >= 0) || v > 1e6) return false;
  const std::string unit(end);
  const double scale = unit == "" || unit == "m" ? 1
                       : unit == "cm"            ? 1e-2
                       : unit == "mm"            ? 1e-3
                                                 : -1;
  if (scale < 0) return false;
  *metres = v * scale;
  return true;
}

std::vector<std::string> splitComma(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t comma = s.find(',', at);
    const std::string item =
        s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const char* argv0 = argc > 0 ? argv[0] : "sov-urdf-fit";
  std::vector<std::string> files;
  sov::urdf::UrdfFitOptions options;
  double max_gap = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") return usage(argv0);
    if (a == "--max-gap" && i + 1 < argc) {
      if (!parseLength(argv[++i], &max_gap)) {
        std::fprintf(stderr, "%s: --max-gap '%s' is not a length\n", argv0, argv[i]);
        return 2;
      }
    } else if (a == "--links" && i + 1 < argc) {
      options.links = splitComma(argv[++i]);
      if (options.links.empty()) return usage(argv0);
    } else if (a == "--package" && i + 1 < argc) {
      const std::string spec = argv[++i];
      const std::size_t eq = spec.find('=');
      if (eq == 0 || eq == std::string::npos || eq + 1 == spec.size()) return usage(argv0);
      options.package_paths[spec.substr(0, eq)] = spec.substr(eq + 1);
    } else if (!a.empty() && a[0] == '-') {
      return usage(argv0);
    } else {
      files.push_back(a);
    }
  }
  if (files.size() != 2) return usage(argv0);
  std::vector<sov::urdf::CollisionFit> fits;
  try {
    sov::urdf::fitUrdfFile(files[0], files[1], options, &fits);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv0, e.what());
    return 1;
  }
  std::printf("%-14s %3s %6s %5s %8s %8s %8s %5s %5s %6s %6s %7s %8s %7s\n", "link", "col", "verts",
              "hull", "a1[mm]", "a2[mm]", "a3[mm]", "eps1", "eps2", "tx", "ty", "V/Vhull",
              "gap[mm]", "time[s]");
  int over = 0;
  for (const auto& f : fits) {
    const double* p = f.fit.params;
    const bool bad = max_gap >= 0 && f.fit.gap > max_gap;
    over += bad;
    std::printf(
        "%-14s %3zu %6zu %5zu %8.3f %8.3f %8.3f %5.3f %5.3f %6.3f %6.3f %7.3f %8.3f %7.3f%s\n",
        f.link.c_str(), f.collision, f.fit.points, f.fit.hull_vertices, 1e3 * p[0], 1e3 * p[1],
        1e3 * p[2], p[3], p[4], p[5], p[6], f.fit.volume_ratio, 1e3 * f.fit.gap, f.fit.seconds,
        bad ? "  > max-gap" : "");
  }
  if (over) {
    std::fprintf(stderr, "%s: %d of %zu fits have a gap above --max-gap\n", argv0, over,
                 fits.size());
    return 3;
  }
  return 0;
}
