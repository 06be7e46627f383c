// The extension module superovoid._superovoid: its parts, registered in the
// order they depend on each other. The package superovoid (__init__.py)
// re-exports it.
#include "common.h"

namespace py = pybind11;

PYBIND11_MODULE(_superovoid, m) {
  m.doc() = "Signed distance between superovoids: the C API, batches, the robot scene, fitting.";
  sovpy::registerErrors(m);
  sovpy::registerCore(m);
  sovpy::registerBatch(m);
#ifdef SOV_PY_HAVE_SCENE
  sovpy::registerScene(m);
#endif
#ifdef SOV_PY_HAVE_FIT
  sovpy::registerFit(m);
#endif
  m.attr("HAVE_SCENE") = py::bool_(
#ifdef SOV_PY_HAVE_SCENE
      true
#else
      false
#endif
  );
  m.attr("HAVE_FIT") = py::bool_(
#ifdef SOV_PY_HAVE_FIT
      true
#else
      false
#endif
  );
}
