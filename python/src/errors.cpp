// C and C++ errors as Python exceptions: one translator maps the C++
// layers' hierarchy (superovoid/error.h) onto the classes of
// superovoid/_errors.py, keeping the status, message and, for the URDF
// layer, where the error is.
#include <exception>
#include <string>

#include "common.h"
#ifdef SOV_PY_HAVE_SCENE
#include <superovoid/urdf/scene.h>
#endif

namespace sovpy {

namespace {

// A new superovoid._errors.<cls>(status, message), not raised yet (its
// attributes are set before the Python error is).
py::object pythonError(const char *cls, int status, const char *message) {
  return py::module_::import("superovoid._errors").attr(cls)(status, message);
}

// Sets the Python error to exc.
void raise(const py::object &exc) { PyErr_SetObject(exc.get_type().ptr(), exc.ptr()); }

#ifdef SOV_PY_HAVE_SCENE
// Adds a URDF error's location to the exception exc.
void addWhere(py::object &exc, const sov::urdf::Location &where) {
  exc.attr("source") = where.source;
  exc.attr("line") = where.line;
  exc.attr("link") = where.link;
  exc.attr("attribute") = where.attribute;
}
#endif

}  // namespace

// Throws sov::Error for a failed status.
void check(int status, const std::string &context) { sov::throwIfError(status, context); }

// The translator: most derived class first.
void registerErrors(py::module_ &m) {
  py::module_::import("superovoid._errors");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
#ifdef SOV_PY_HAVE_SCENE
    } catch (const sov::urdf::SceneError &e) {
      py::object exc = pythonError("SceneError", e.status(), e.what());
      addWhere(exc, e.where());
      exc.attr("name") = e.name();
      raise(exc);
    } catch (const sov::urdf::Error &e) {
      py::object exc = pythonError("UrdfError", e.status(), e.what());
      addWhere(exc, e.where());
      raise(exc);
#endif
    } catch (const sov::Error &e) {
      raise(pythonError("Error", e.status(), e.what()));
    }
  });
  m.def("status_string", &sov_status_string, py::arg("status"),
        "The C library's static English message for a status code.");
}

}  // namespace sovpy
