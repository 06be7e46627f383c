// sov-urdf-fit IN.urdf OUT.urdf [--max-gap LENGTH] [--links a,b,...]
//              [--package NAME=DIR ...] [--srdf IN.srdf] [--plot OUT.png]
//              [--starts N] [--max-bodies K [--target-gap LENGTH] [--target-ratio R]]
//              [--jobs N]:
// replace the mesh collisions of a URDF by fitted superovoids, or unions of
// up to K of them (one <collision> each), with fallback boxes; keep every other byte, report
// progress per collision (stderr), a table per collision and the fitted pairs that overlap at the
// zero pose (stdout), and draw the fitted bodies over their meshes. Exit status 0 on success, 1 on
// a rejected input, 2 on misuse, 3 when a fit's gap exceeds
// --max-gap, 4 when the plot could not be drawn (the output is written all
// the same for 3 and 4).
#include <unistd.h>

#include <Eigen/Geometry>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "plot_fit_script.h"
#include "superovoid/urdf/fit.h"
#include "superovoid/urdf/mesh.h"
#include "superovoid/urdf/model.h"
#include "superovoid/urdf/scene.h"

namespace {

// Exit statuses (documented in the usage text and urdf/fit/README.md).
enum Exit { kOk = 0, kBadInput = 1, kMisuse = 2, kGapOver = 3, kNoPlot = 4 };

const char* kUsage =
    "usage: %s IN.urdf OUT.urdf [--max-gap LENGTH] [--links a,b,...]\n"
    "          [--package NAME=DIR ...] [--srdf IN.srdf] [--plot OUT.png] [--starts N]\n"
    "          [--max-bodies K [--target-gap LENGTH] [--target-ratio R]] [--jobs N]\n"
    "Replaces every <mesh> collision (of the listed links, default all) by the\n"
    "smallest convex superovoid containing the mesh (any format assimp reads), with a\n"
    "fallback box. Identical meshes are fitted once. Progress goes to stderr; the\n"
    "table of fits, then the fitted pairs that overlap with all joints at 0 (or their\n"
    "nearest limit) and that the SRDF does not disable, to stdout.\n"
    "LENGTH: a number with an optional unit m, cm or mm (default m), e.g. 2mm;\n"
    "collisions whose gap exceeds it are marked and the exit status is 3.\n"
    "--package NAME=DIR resolves package://NAME/... mesh URIs (repeatable; DIR relative\n"
    "  to the current directory).\n"
    "--plot draws the fitted bodies over their meshes into a PNG (python3 with\n"
    "matplotlib).\n"
    "--starts N: how many of the three starts are refined (default 3; 1 is about\n"
    "three times quicker, and may fit a little looser).\n"
    "--max-bodies K: a mesh may become a union of up to K superovoids (one <collision>\n"
    "each), cut until its gap to the mesh is at most --target-gap (LENGTH) and its\n"
    "volume over the hull's at most --target-ratio (either alone; neither: while\n"
    "cutting pays). Default 1: one convex superovoid per mesh.\n"
    "--jobs N: meshes fitted at once, on N threads (default: one per core); the fits\n"
    "are the same whatever N.\n"
    "Exit status: 0 success, 1 rejected input, 2 misuse, 3 a gap over --max-gap,\n"
    "4 no plot (3 and 4: OUT.urdf written all the same).\n";

// Prints the usage text to out; returns status.
int usage(std::FILE* out, const char* argv0, int status) {
  std::fprintf(out, kUsage, argv0);
  return status;
}

// Length in metres from "0.002", "2mm", "0.2cm", "0.002m"; false if malformed.
bool parseLength(const char* text, double* metres) {
  // Decimal only: strtod also reads hexadecimal ("0x10" was 16 m) and
  // "inf"/"nan" spellings.
  if (std::strpbrk(text, "xXiInN")) return false;
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

// The non-empty items of a comma-separated list.
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

// The command line.
struct Options {
  std::vector<std::string> files;
  sov::urdf::UrdfFitOptions fit;
  double max_gap = -1;
  std::string srdf, plot;
};

// Parses the command line into o; returns -1, or the exit status to stop with.
int parse(int argc, char** argv, Options& o) {
  const char* argv0 = argv[0];
  bool has_target_gap = false, has_target_ratio = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--help" || a == "-h") return usage(stdout, argv0, kOk);
    if (a == "--max-gap" && has_value) {
      if (!parseLength(argv[++i], &o.max_gap)) {
        std::fprintf(stderr, "%s: --max-gap '%s' is not a length\n", argv0, argv[i]);
        return kMisuse;
      }
    } else if (a == "--links" && has_value) {
      o.fit.links = splitComma(argv[++i]);
      if (o.fit.links.empty()) return usage(stderr, argv0, kMisuse);
    } else if (a == "--package" && has_value) {
      if (!sov::urdf::addPackagePath(argv[++i], &o.fit.package_paths))
        return usage(stderr, argv0, kMisuse);
    } else if (a == "--srdf" && has_value) {
      o.srdf = argv[++i];
    } else if (a == "--plot" && has_value) {
      // A PNG: matplotlib chose the format by the name's extension (a PDF
      // for .pdf, fits.png for fitsplot) and failed on unknown ones, which
      // the tool blamed on a missing matplotlib (found by an audit).
      o.plot = argv[++i];
      const std::string ext = std::filesystem::path(o.plot).extension().string();
      if (ext != ".png" && ext != ".PNG") return usage(stderr, argv0, kMisuse);
    } else if (a == "--starts" && has_value) {
      const std::string n = argv[++i];
      if (n != "1" && n != "2" && n != "3") {
        std::fprintf(stderr, "%s: --starts '%s' is not 1, 2 or 3\n", argv0, n.c_str());
        return kMisuse;
      }
      o.fit.fit.refined_starts = std::stoi(n);
    } else if (a == "--max-bodies" && has_value) {
      char* end = nullptr;
      const long k = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || k < 1 || k > sov::urdf::SplitOptions::kMaxBodies) {
        std::fprintf(stderr, "%s: --max-bodies '%s' is not a count from 1 to %d\n", argv0, argv[i],
                     sov::urdf::SplitOptions::kMaxBodies);
        return kMisuse;
      }
      o.fit.split.max_bodies = static_cast<int>(k);
    } else if (a == "--jobs" && has_value) {
      char* end = nullptr;
      const long n = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || n < 1 || n > 1024) {
        std::fprintf(stderr, "%s: --jobs '%s' is not a count from 1 to 1024\n", argv0, argv[i]);
        return kMisuse;
      }
      o.fit.threads = static_cast<int>(n);
    } else if (a == "--target-gap" && has_value) {
      has_target_gap = true;
      if (!parseLength(argv[++i], &o.fit.split.target_gap)) {
        std::fprintf(stderr, "%s: --target-gap '%s' is not a length\n", argv0, argv[i]);
        return kMisuse;
      }
    } else if (a == "--target-ratio" && has_value) {
      has_target_ratio = true;
      char* end = nullptr;
      o.fit.split.target_ratio = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(o.fit.split.target_ratio >= 1) ||
          !std::isfinite(o.fit.split.target_ratio)) {
        std::fprintf(stderr, "%s: --target-ratio '%s' is not a number of at least 1\n", argv0,
                     argv[i]);
        return kMisuse;
      }
    } else if (!a.empty() && a[0] == '-') {
      return usage(stderr, argv0, kMisuse);
    } else {
      o.files.push_back(a);
    }
  }
  if (o.files.size() != 2) return usage(stderr, argv0, kMisuse);
  // Union targets without unions were silently ignored.
  if (o.fit.split.max_bodies < 2 && (has_target_gap || has_target_ratio)) {
    std::fprintf(stderr, "%s: --target-gap and --target-ratio need --max-bodies 2 or more\n",
                 argv0);
    return kMisuse;
  }
  return -1;
}

// Prints one progress line per collision to stderr, before its fit.
void progress(const sov::urdf::FitProgress& p, const std::string& urdf) {
  const std::string what =
      p.same_as.empty() ? "fitting" : "same mesh as " + p.same_as + ", fit reused";
  std::fprintf(stderr, "[%zu/%zu] %s:%d: link '%s' #%zu, mesh '%s' (%zu vertices): %s\n",
               p.index + 1, p.count, urdf.c_str(), p.line, p.link.c_str(), p.collision,
               p.mesh.c_str(), p.vertices, what.c_str());
  std::fflush(stderr);
}

// Prints the table of fits, a row per body (col: its <collision> index in
// the output) and a union row after a union's bodies; returns how many
// meshes have a gap above max_gap.
int printTable(const std::vector<sov::urdf::CollisionFit>& fits, double max_gap) {
  std::printf("%-14s %3s %6s %5s %8s %8s %8s %5s %5s %6s %6s %7s %8s %7s\n", "link", "col", "verts",
              "hull", "a1[mm]", "a2[mm]", "a3[mm]", "eps1", "eps2", "tx", "ty", "V/Vhull",
              "gap[mm]", "time[s]");
  int over = 0;
  for (const auto& f : fits) {
    const sov::urdf::UnionFit& u = f.bodies;
    const bool bad = max_gap >= 0 && u.gap > max_gap;
    over += bad;
    const std::string note = (f.same_as.empty() ? "" : "  same mesh as " + f.same_as) +
                             (bad ? "  > max-gap" : "");
    for (std::size_t b = 0; b < u.bodies.size(); ++b) {
      const sov::urdf::SuperovoidFit& g = u.bodies[b];
      const double* p = g.params;
      const bool single = u.bodies.size() == 1;
      std::printf("%-14s %3zu %6zu %5zu %8.3f %8.3f %8.3f %5.3f %5.3f %6.3f %6.3f", f.link.c_str(),
                  f.written + b, g.points, g.hull_vertices, 1e3 * p[0], 1e3 * p[1], 1e3 * p[2],
                  p[3], p[4], p[5], p[6]);
      if (single)
        std::printf(" %7.3f %8.3f %7.3f%s\n", u.volume_ratio, 1e3 * u.gap,
                    f.same_as.empty() ? u.seconds : 0.0, note.c_str());
      else
        std::printf("\n");
    }
    if (u.bodies.size() > 1)
      std::printf("%-14s union of %zu bodies, %zu vertices, %zu on the hull %27s %7.3f %8.3f %7.3f%s\n",
                  f.link.c_str(), u.bodies.size(), u.points, u.hull_vertices, "",
                  u.volume_ratio, 1e3 * u.gap, f.same_as.empty() ? u.seconds : 0.0, note.c_str());
  }
  return over;
}

// Throws unless o.srdf (if any) can be read and applied, to the input
// robot's scene: checked before minutes of fitting, not after the output is
// written.
void checkSrdf(const Options& o) {
  if (o.srdf.empty()) return;
  sov::urdf::SceneOptions so;
  so.package_paths = o.fit.package_paths;
  sov::urdf::Scene(o.files[0], so).loadSrdf(o.srdf);
}

// Prints the fitted pairs that overlap at the zero pose (every joint at 0 or
// its nearest limit) and that the SRDF (if any) does not disable, deepest
// first: the output's scene as a reader of the output file sees it (its
// remaining meshes relative to its own folder, where fitUrdfFile points
// them).
void printOverlaps(const Options& o, const std::vector<sov::urdf::CollisionFit>& fits) {
  sov::urdf::SceneOptions so;
  so.package_paths = o.fit.package_paths;
  sov::urdf::Scene scene(o.files[1], so);
  if (!o.srdf.empty()) scene.loadSrdf(o.srdf);
  std::set<std::pair<std::string, std::size_t>> fitted;
  for (const auto& f : fits)
    for (std::size_t b = 0; b < f.bodies.bodies.size(); ++b) fitted.emplace(f.link, f.written + b);
  std::vector<sov::urdf::Contact> overlaps;
  for (const sov::urdf::Contact& c : scene.contacts(0.0)) {
    if (c.distance < 0 && fitted.count({c.link1, c.collision1}) &&
        fitted.count({c.link2, c.collision2}))
      overlaps.push_back(c);
  }
  std::printf("\nfitted pairs overlapping at the zero pose%s: %zu\n",
              o.srdf.empty() ? " (no SRDF: adjacent links only are allowed)"
                             : ", not disabled in the SRDF",
              overlaps.size());
  for (const auto& c : overlaps) {
    std::printf("  %-20s #%zu  %-20s #%zu  depth %8.3f mm\n", c.link1.c_str(), c.collision1,
                c.link2.c_str(), c.collision2, -1e3 * c.distance);
  }
}

// The JSON text of the fitted bodies and their meshes in each fit's frame
// (plot_fit.py's input), one entry per mesh actually fitted.
std::string plotData(const std::vector<sov::urdf::CollisionFit>& fits) {
  std::string out = "[";
  auto points = [&](const std::vector<std::array<double, 3>>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
      s += (i ? ",[" : "[") + std::to_string(v[i][0]) + "," + std::to_string(v[i][1]) + "," +
           std::to_string(v[i][2]) + "]";
    return s + "]";
  };
  auto triangles = [&](const std::vector<std::array<int, 3>>& t) {
    std::string s = "[";
    for (std::size_t i = 0; i < t.size(); ++i)
      s += (i ? ",[" : "[") + std::to_string(t[i][0]) + "," + std::to_string(t[i][1]) + "," +
           std::to_string(t[i][2]) + "]";
    return s + "]";
  };
  bool first = true;
  for (const auto& f : fits) {
    if (!f.same_as.empty()) continue;
    sov::urdf::TriangleMesh mesh = sov::urdf::loadMesh(f.mesh_path, f.scale);
    sov_pose inverse;  // mesh frame to fit frame: R^T (x - p)
    for (int i = 0; i < 3; ++i) {
      inverse.p[i] = 0;
      for (int j = 0; j < 3; ++j) {
        inverse.R[3 * i + j] = f.fit.pose.R[3 * j + i];
        inverse.p[i] -= f.fit.pose.R[3 * j + i] * f.fit.pose.p[j];
      }
    }
    mesh = sov::urdf::transformed(mesh, inverse);
    // Every body of the union in the first body's frame, one triangle list.
    sov::urdf::TriangleMesh body;
    for (const sov::urdf::SuperovoidFit& g : f.bodies.bodies) {
      const sov::urdf::TriangleMesh t = sov::urdf::transformed(
          sov::urdf::transformed(sov::urdf::tessellate(g.shape, 24, 48), g.pose), inverse);
      const int base = static_cast<int>(body.vertices.size());
      body.vertices.insert(body.vertices.end(), t.vertices.begin(), t.vertices.end());
      for (const auto& tri : t.triangles)
        body.triangles.push_back({tri[0] + base, tri[1] + base, tri[2] + base});
    }
    char figures[96];
    std::snprintf(figures, sizeof figures, " #%zu: %zu bod%s, V/Vhull %.2f, gap %.1f mm",
                  f.collision, f.bodies.bodies.size(), f.bodies.bodies.size() == 1 ? "y" : "ies",
                  f.bodies.volume_ratio, 1e3 * f.bodies.gap);
    std::string title;
    for (char c : f.link + figures) {
      if (c == '"' || c == '\\') title += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) title += c;
    }
    out += std::string(first ? "" : ",") + "{\"title\":\"" + title + "\",\"mesh\":" +
           points(mesh.vertices) + ",\"mesh_triangles\":" + triangles(mesh.triangles) +
           ",\"body\":" + points(body.vertices) + ",\"body_triangles\":" +
           triangles(body.triangles) + "}";
    first = false;
  }
  return out + "]";
}

// s quoted for the shell.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Draws the fits into o.plot through the embedded plot_fit.py, run by the
// python3 found with matplotlib when the tool was built, else by python3 on
// the path; false (and why on stderr) when neither could.
bool drawPlot(const Options& o, const std::vector<sov::urdf::CollisionFit>& fits,
              const char* argv0) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string stem = "sov_urdf_fit_" + std::to_string(static_cast<long>(getpid()));
  const std::string script = (dir / (stem + ".py")).string();
  const std::string data = (dir / (stem + ".json")).string();
  std::ofstream(script) << kPlotFitScript;
  std::ofstream(data) << plotData(fits);
  int status = -1;
  std::fflush(stdout);  // the table before the script's own line
  for (const std::string& python : {std::string(SOV_PYTHON3), std::string("python3")}) {
    if (python.empty() || status == 0) continue;
    status = std::system((quoted(python) + " " + quoted(script) + " " + quoted(data) + " " +
                          quoted(o.plot) + (python == "python3" ? "" : " 2>/dev/null"))
                             .c_str());
  }
  std::remove(script.c_str());
  std::remove(data.c_str());
  if (status == 0) return true;
  std::fprintf(stderr, "%s: no plot written to %s (python3 with matplotlib needed)\n", argv0,
               o.plot.c_str());
  return false;
}

// Throws sov::urdf::Error unless path can be written (checked before
// fitting; the file system is left as it was).
void checkWritable(const std::string& path) {
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  if (!std::ofstream(path, std::ios::binary | std::ios::app) ||
      std::filesystem::is_directory(path, ec)) {
    throw sov::urdf::Error(SOV_URDF_ERR_IO, {path, 0, "", ""}, "cannot write the file");
  }
  if (!existed) std::filesystem::remove(path, ec);
}

}  // namespace

int main(int argc, char** argv) {
  const char* argv0 = argc > 0 ? argv[0] : "sov-urdf-fit";
  Options o;
  const int stop = parse(argc, argv, o);
  if (stop >= 0) return stop;
  o.fit.progress = [&](const sov::urdf::FitProgress& p) { progress(p, o.files[0]); };
  std::vector<sov::urdf::CollisionFit> fits;
  try {
    if (!o.plot.empty()) checkWritable(o.plot);
    checkSrdf(o);
    sov::urdf::fitUrdfFile(o.files[0], o.files[1], o.fit, &fits);
    const int over = printTable(fits, o.max_gap);
    printOverlaps(o, fits);
    if (over) {
      std::fprintf(stderr, "%s: %d of %zu fits have a gap above --max-gap\n", argv0, over,
                   fits.size());
    }
    if (!o.plot.empty() && !drawPlot(o, fits, argv0)) return kNoPlot;
    return over ? kGapOver : kOk;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv0, e.what());
    return kBadInput;
  }
}
