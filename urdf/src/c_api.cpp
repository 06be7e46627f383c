// The C entry points of superovoid/urdf.h: thin wrappers that turn every
// exception into a status code and a message (sov::guardedCall).
#include "superovoid/urdf.h"

#include <cstring>
#include <string>

#include "superovoid/urdf/error.h"
#include "superovoid/urdf/model.h"

namespace {

using sov::urdf::Model;
using sov::urdf::Superovoid;

// Copy message into err (truncated, NUL-terminated) when there is room.
void writeMessage(char* err, size_t err_size, const std::string& message) noexcept {
  sov::copyMessage(err, err_size, message.c_str());
}

// Copy name into the fixed-size field dst (the caller checked that it fits).
void copyName(char (&dst)[SOV_URDF_NAME_SIZE], const std::string& name) noexcept {
  std::memcpy(dst, name.c_str(), name.size() + 1);
}

// True when the link and collision names of s fit SOV_URDF_NAME_SIZE.
bool namesFit(const Superovoid& s) noexcept {
  return s.link.size() < SOV_URDF_NAME_SIZE && s.collision.size() < SOV_URDF_NAME_SIZE;
}

// Fill out from s, whose names fit (namesFit).
void fill(sov_urdf_superovoid* out, const Superovoid& s) noexcept {
  copyName(out->link, s.link);
  copyName(out->collision, s.collision);
  out->index = s.index;
  out->line = s.line;
  out->had_fallback = s.had_fallback ? 1 : 0;
  for (int i = 0; i < 3; ++i) out->xyz[i] = s.xyz[i];
  for (int i = 0; i < 4; ++i) out->quat[i] = s.quat[i];
  for (int i = 0; i < 7; ++i) out->params[i] = s.params[i];
  out->shape = s.shape;
}

// Copy the table of m into out (see sov_urdf_superovoids). Every name is
// checked before anything is written, whatever the capacity, so a name that
// does not fit is reported by the first call (capacity 0) and leaves out
// untouched.
int copyTable(sov_urdf_superovoid* out, size_t capacity, size_t* count, char* err,
              size_t err_size, const char* source, const Model& m) {
  *count = m.superovoids.size();
  for (const Superovoid& s : m.superovoids) {
    if (!namesFit(s)) {
      const bool link_long = s.link.size() >= SOV_URDF_NAME_SIZE;
      writeMessage(err, err_size,
                   std::string(source) + ":" + std::to_string(s.line) + ": the " +
                       (link_long ? "link" : "collision") + " name (" +
                       std::to_string(link_long ? s.link.size() : s.collision.size()) +
                       " characters) is longer than SOV_URDF_NAME_SIZE - 1 (" +
                       std::to_string(SOV_URDF_NAME_SIZE - 1) + ")");
      return SOV_URDF_ERR_NAME;
    }
  }
  for (size_t i = 0; i < m.superovoids.size() && i < capacity; ++i) fill(&out[i], m.superovoids[i]);
  if (capacity < m.superovoids.size()) {
    writeMessage(err, err_size,
                 "the document has " + std::to_string(m.superovoids.size()) +
                     " superovoids, room for " + std::to_string(capacity));
    return SOV_ERR_BUFFER;
  }
  return SOV_OK;
}

// Run parse_call (which returns a Model) and copy its table; exceptions
// become their status (sov::guardedCall).
template <typename Call>
int run(sov_urdf_superovoid* out, size_t capacity, size_t* count, char* err,
        size_t err_size, const char* source, Call parse_call) noexcept {
  *count = 0;
  return sov::guardedCall(err, err_size, SOV_URDF_ERR_INTERNAL, [&] {
    return copyTable(out, capacity, count, err, err_size, source, parse_call());
  });
}

// SOV_ERR_NULL (with a message) when a required argument is missing.
int checkArguments(const sov_urdf_superovoid* out, size_t capacity, const size_t* count,
                   const char* input, char* err, size_t err_size) noexcept {
  if (count && input && (out || capacity == 0)) return SOV_OK;
  writeMessage(err, err_size, "a required argument is NULL");
  return SOV_ERR_NULL;
}

}  // namespace

extern "C" {

const char* sov_urdf_status_string(int status) {
  switch (status) {
    case SOV_URDF_ERR_XML: return "the document is not well-formed XML or not UTF-8";
    case SOV_URDF_ERR_IO: return "a file could not be read or written";
    case SOV_URDF_ERR_MODEL: return "urdfdom rejected the model or dropped a collision";
    case SOV_URDF_ERR_PLACEMENT: return "a superovoid element is misplaced or unknown";
    case SOV_URDF_ERR_ATTRIBUTE:
      return "a superovoid attribute is missing, unknown or not a finite number";
    case SOV_URDF_ERR_INTERNAL: return "unexpected internal failure";
    case SOV_URDF_ERR_NAME:
      return "a link or collision name does not fit SOV_URDF_NAME_SIZE";
    default: return sov_status_string(status);
  }
}

int sov_urdf_superovoids(sov_urdf_superovoid* out, size_t capacity, size_t* count,
                         char* err, size_t err_size, const char* xml,
                         const char* source_name) {
  const int status = checkArguments(out, capacity, count, xml, err, err_size);
  if (status != SOV_OK) return status;
  const char* source = source_name ? source_name : "<string>";
  return run(out, capacity, count, err, err_size, source,
             [&] { return sov::urdf::parse(xml, source); });
}

int sov_urdf_superovoids_file(sov_urdf_superovoid* out, size_t capacity, size_t* count,
                              char* err, size_t err_size, const char* path) {
  const int status = checkArguments(out, capacity, count, path, err, err_size);
  if (status != SOV_OK) return status;
  return run(out, capacity, count, err, err_size, path,
             [&] { return sov::urdf::parseFile(path); });
}

}  // extern "C"
