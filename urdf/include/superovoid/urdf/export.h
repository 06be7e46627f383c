/* Symbol visibility of libsuperovoid_urdf: the library is built with hidden
 * visibility, and SOV_URDF_API marks what it exports (the C entry points and
 * the exception class, whose type must match across libraries). Plain C, so
 * that superovoid/urdf.h can include it. */
#ifndef SUPEROVOID_URDF_EXPORT_H
#define SUPEROVOID_URDF_EXPORT_H

#if defined(_WIN32)
#  if defined(SOV_URDF_BUILDING_LIBRARY)
#    define SOV_URDF_API __declspec(dllexport)
#  else
#    define SOV_URDF_API __declspec(dllimport)
#  endif
#else
#  define SOV_URDF_API __attribute__((visibility("default")))
#endif

#endif /* SUPEROVOID_URDF_EXPORT_H */
