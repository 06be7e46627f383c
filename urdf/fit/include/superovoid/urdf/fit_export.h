// Symbol visibility of libsuperovoid_fit: built with hidden visibility;
// SOV_FIT_API marks what it exports.
#ifndef SUPEROVOID_URDF_FIT_EXPORT_H
#define SUPEROVOID_URDF_FIT_EXPORT_H

#if defined(_WIN32)
#if defined(SOV_FIT_BUILDING_LIBRARY)
#define SOV_FIT_API __declspec(dllexport)
#else
#define SOV_FIT_API __declspec(dllimport)
#endif
#else
#define SOV_FIT_API __attribute__((visibility("default")))
#endif

#endif  // SUPEROVOID_URDF_FIT_EXPORT_H
