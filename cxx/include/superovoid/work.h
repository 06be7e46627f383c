// Work memory for the core's global search, one buffer per thread, shared by
// the C++ layers (superovoid::fcl, ::scene) and the Python module. Without
// work memory a query that reaches the global search keeps its polytope on
// the stack, about 190 KB (superovoid.h, sov_options.work): more than a small
// thread stack holds. With it a query takes about 16 KB of stack.
#ifndef SUPEROVOID_WORK_H
#define SUPEROVOID_WORK_H

#include <superovoid/error.h>  // SOV_ERROR_VISIBLE
#include <superovoid/superovoid.h>

#include <memory>
#include <new>

namespace sov {

// This thread's work memory, sov_work_size() bytes: allocated on the
// thread's first call and freed when the thread ends; NULL if that one
// allocation failed (queries then take the stack, as without). Default
// visibility, so that the layers' libraries share one buffer per thread.
SOV_ERROR_VISIBLE inline void* threadWork() noexcept {
  thread_local const std::unique_ptr<unsigned char[]> work(
      new (std::nothrow) unsigned char[sov_work_size()]);
  return work.get();
}

// options (the defaults when NULL) with this thread's work memory attached,
// unless they carry work memory of their own. One query at a time uses it:
// no query of the core calls back into another.
inline sov_options withThreadWork(const sov_options* options) noexcept {
  sov_options o;
  if (options)
    o = *options;
  else
    sov_options_default(&o);
  if (!o.work) {
    o.work = threadWork();
    o.work_size = o.work ? sov_work_size() : 0;
  }
  return o;
}

}  // namespace sov

#endif  // SUPEROVOID_WORK_H
