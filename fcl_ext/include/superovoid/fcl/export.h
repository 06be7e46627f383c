// Symbol visibility of libsuperovoid_fcl: the library is built with hidden
// visibility, and SOV_FCL_API marks what it exports (classes thrown as
// exceptions must be exported so that their type matches across libraries).
#ifndef SUPEROVOID_FCL_EXPORT_H
#define SUPEROVOID_FCL_EXPORT_H

#if defined(_WIN32)
#  if defined(SOV_FCL_BUILDING_LIBRARY)
#    define SOV_FCL_API __declspec(dllexport)
#  else
#    define SOV_FCL_API __declspec(dllimport)
#  endif
#else
#  define SOV_FCL_API __attribute__((visibility("default")))
#endif

#endif  // SUPEROVOID_FCL_EXPORT_H
