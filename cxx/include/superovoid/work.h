// Work memory for the core's global search and its support EPA, one buffer
// per thread, shared by the C++ layers (superovoid::fcl, ::scene) and the
// Python module. Without work memory a query that reaches the global search
// keeps its polytope on the stack, about 194 KB (superovoid.h,
// sov_distance), the EPA its own, about 94 KB: more than a small thread
// stack holds. With it a query of the core takes about 21 KB of stack, one
// through the FCL layer about 24 KB.
#ifndef SUPEROVOID_WORK_H
#define SUPEROVOID_WORK_H

#include <superovoid/error.h>  // SOV_ERROR_VISIBLE
#include <superovoid/superovoid.h>

#include <cstddef>
#include <memory>
#include <new>

namespace sov {

// A thread's work memory: its bytes and their number (0 if none).
struct ThreadWork {
  std::unique_ptr<unsigned char[]> bytes;
  std::size_t size = 0;
};

// This thread's work memory, sov_work_size() bytes: allocated on the
// thread's first call and freed when the thread ends; none if that one
// allocation failed (queries then take the stack, as without). Default
// visibility, so that on ELF platforms the layers' libraries share one
// buffer per thread (each Windows DLL keeps its own). Its size travels with
// it: a library built against another core version reads the size that was
// allocated, not its own sov_work_size().
SOV_ERROR_VISIBLE inline const ThreadWork& threadWork() noexcept {
  thread_local const ThreadWork work = [] {
    ThreadWork w;
    w.bytes.reset(new (std::nothrow) unsigned char[sov_work_size()]);
    w.size = w.bytes ? sov_work_size() : 0;
    return w;
  }();
  return work;
}

// options (the defaults when NULL) with this thread's work memory attached,
// unless they carry work memory of their own. One query at a time uses it:
// no query of the core calls back into another (superovoid.h,
// sov_options.work).
inline sov_options withThreadWork(const sov_options* options) noexcept {
  sov_options o;
  if (options)
    o = *options;
  else
    sov_options_default(&o);
  if (!o.work) {
    const ThreadWork& w = threadWork();
    o.work = w.bytes.get();
    o.work_size = w.size;
  }
  return o;
}

}  // namespace sov

#endif  // SUPEROVOID_WORK_H
