// Helpers shared by the tests of urdf/examples/.
#ifndef SUPEROVOID_TEST_URDF_EXAMPLES_EXAMPLES_TEST_UTIL_H
#define SUPEROVOID_TEST_URDF_EXAMPLES_EXAMPLES_TEST_UTIL_H

#include <superovoid/urdf/mesh.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace sov_test {

// Path of a file under urdf/examples.
inline std::string examplePath(const std::string& name) {
  return std::string(SOV_EXAMPLES_DIR) + "/" + name;
}

// Two link names, smaller first.
inline std::pair<std::string, std::string> ordered(const std::string& a, const std::string& b) {
  return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
}

// The bytes of a file ("" when it cannot be read).
inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A folder of the build tree for one test's files (created if needed).
inline std::string scratchDir(const std::string& name) {
  const std::string root = SOV_EXAMPLES_SCRATCH;
  mkdir(root.c_str(), 0777);
  const std::string dir = root + "/" + name;
  mkdir(dir.c_str(), 0777);
  return dir;
}

// The vertices and triangles of an OBJ file as written ("v x y z", "f i j k",
// 1-based), read here in double precision: sov-query writes shortest
// round-trip decimals, which the library's reader (assimp, single
// precision) would round to float.
inline sov::urdf::TriangleMesh readObj(const std::string& path) {
  sov::urdf::TriangleMesh m;
  std::istringstream in(readText(path));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "v") {
      std::array<double, 3> v{};
      words >> v[0] >> v[1] >> v[2];
      m.vertices.push_back(v);
    } else if (key == "f") {
      std::array<int, 3> t{};
      words >> t[0] >> t[1] >> t[2];
      m.triangles.push_back({t[0] - 1, t[1] - 1, t[2] - 1});
    }
  }
  return m;
}

// Exit status, standard output and standard error of a tool run.
struct ToolRun {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs sov-query with args (already quoted for the shell). Its standard
// error goes to a file of this process's own: ctest -j2 runs the tests of
// one binary as separate processes side by side, and a shared file was
// overwritten by the other's run between a tool's write and the read.
inline ToolRun runQuery(const std::string& args) {
  const std::string err_file =
      scratchDir("stderr") + "/" + std::to_string(static_cast<long>(getpid())) + ".txt";
  const std::string cmd = "'" + std::string(SOV_QUERY_TOOL) + "' " + args + " 2>'" + err_file + "'";
  ToolRun run;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return run;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) run.out.append(buf, n);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = readText(err_file);
  std::remove(err_file.c_str());
  return run;
}

}  // namespace sov_test

#endif  // SUPEROVOID_TEST_URDF_EXAMPLES_EXAMPLES_TEST_UTIL_H
