// The FCL layer throws sov::Error (superovoid/error.h, shared by every C++
// layer); this header is kept for code that includes it by this name.
#ifndef SUPEROVOID_FCL_ERROR_H
#define SUPEROVOID_FCL_ERROR_H

#include <superovoid/error.h>

#endif  // SUPEROVOID_FCL_ERROR_H
