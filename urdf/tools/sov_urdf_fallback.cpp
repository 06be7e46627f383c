// sov-urdf-fallback IN.urdf OUT.urdf: write a fallback box before every
// superovoid element that has no standard primitive before it, so that
// unmodified URDF readers load every collision; everything else is copied
// as it is. Exit status 0 on success (and --help), 1 on a rejected input, 2
// on misuse.
#include <cstdio>
#include <cstring>
#include <exception>

#include "superovoid/urdf/error.h"
#include "superovoid/urdf/fallback.h"

int main(int argc, char** argv) {
  // --help is asked for: its text on stdout, status 0; misuse on stderr, 2.
  const bool help = argc == 2 && std::strcmp(argv[1], "--help") == 0;
  if (argc != 3 || help) {
    std::fprintf(help ? stdout : stderr,
                 "usage: %s IN.urdf OUT.urdf\n"
                 "Writes IN.urdf to OUT.urdf with a fallback box before every\n"
                 "superovoid that has no standard primitive before it; relative\n"
                 "mesh files are named from OUT.urdf's folder.\n",
                 argc > 0 ? argv[0] : "sov-urdf-fallback");
    return help ? 0 : 2;
  }
  try {
    sov::urdf::addFallbacksFile(argv[1], argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sov-urdf-fallback: %s\n", e.what());
    return 1;
  }
  return 0;
}
