// Helpers shared by the tests of urdf/examples/.
#ifndef SUPEROVOID_TEST_URDF_EXAMPLES_EXAMPLES_TEST_UTIL_H
#define SUPEROVOID_TEST_URDF_EXAMPLES_EXAMPLES_TEST_UTIL_H

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace sov_test {

// Path of a file under urdf/examples.
inline std::string examplePath(const std::string& name) {
  return std::string(SOV_EXAMPLES_DIR) + "/" + name;
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
