// The one exception hierarchy of the C++ layers and the one mapping between
// it and status codes, shared by superovoid::fcl, ::urdf, ::scene and ::fit.
//
//   sov::Error                     status(): a sov_status of superovoid.h or
//    |                             a layer's code (SOV_URDF_ERR_*,
//    |                             SOV_SCENE_ERR_*); what(): the message
//    +-- sov::urdf::Error          + where(): source, line, link, attribute
//         +-- sov::urdf::SceneError  + name(): the joint or link at fault
//
// Status to exception: sov::throwIfError. Exception to status (the C entry
// points, which no exception may cross): sov::guardedCall. Header-only, so
// that the layers share it without a library of its own; the class has
// default visibility, so a sov::Error thrown in one library is caught as one
// in another.
#ifndef SUPEROVOID_ERROR_H
#define SUPEROVOID_ERROR_H

#include <superovoid/superovoid.h>

#include <cstddef>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#if defined(_WIN32)
#define SOV_ERROR_VISIBLE
#else
#define SOV_ERROR_VISIBLE __attribute__((visibility("default")))
#endif

namespace sov {

// A failed superovoid operation: a negative status code and an English
// message. Bad requests that the C API has no code for (an unsupported FCL
// pair, GST_INDEP) carry SOV_ERR_OPTION.
class SOV_ERROR_VISIBLE Error : public std::runtime_error {
 public:
  // An error with status code status and message what().
  Error(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  // The status code.
  int status() const noexcept { return status_; }

 private:
  int status_;
};

// Throws sov::Error(status, "<context>: <sov_status_string(status)>") unless
// status is SOV_OK. A literal context is not made a std::string unless
// thrown: the layers call this on every query, and a query allocates
// nothing of its own.
inline void throwIfError(int status, const char* context) {
  if (status != SOV_OK)
    throw Error(status, std::string(context) + ": " + sov_status_string(status));
}
inline void throwIfError(int status, const std::string& context) {
  if (status != SOV_OK) throwIfError(status, context.c_str());
}

// Copies message into err, truncated to err_size - 1 characters and always
// terminated; nothing when err is NULL or err_size is 0. Allocates nothing.
inline void copyMessage(char* err, std::size_t err_size, const char* message) noexcept {
  if (!err || err_size == 0) return;
  if (!message) message = "";
  std::size_t n = 0;
  for (; n + 1 < err_size && message[n] != '\0'; ++n) err[n] = message[n];
  err[n] = '\0';
}

// Runs body (which returns a status) for a C entry point: err is cleared on
// SOV_OK; an exception becomes its status and message: a sov::Error's own
// status, internal_status for anything else (std::bad_alloc as "out of
// memory").
template <typename Body>
int guardedCall(char* err, std::size_t err_size, int internal_status, Body&& body) noexcept {
  try {
    const int status = body();
    if (status == SOV_OK) copyMessage(err, err_size, "");
    return status;
  } catch (const Error& e) {
    copyMessage(err, err_size, e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    copyMessage(err, err_size, "out of memory");
  } catch (const std::exception& e) {
    copyMessage(err, err_size, e.what());
  } catch (...) {
    copyMessage(err, err_size, "unknown exception");
  }
  return internal_status;
}

}  // namespace sov

#endif  // SUPEROVOID_ERROR_H
