/* Compiled as C11 into superovoid_urdf_tests: superovoid/urdf.h is a C
 * header. */
#include "superovoid/urdf.h"

/* Size of the C struct, to be called from the C++ tests. */
size_t sov_test_urdf_struct_size(void);

size_t sov_test_urdf_struct_size(void) { return sizeof(sov_urdf_superovoid); }
