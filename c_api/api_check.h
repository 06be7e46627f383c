/* Checks of c_api/superovoid.c that the other files of c_api/ share.
 * Internal to c_api/. */
#ifndef C_API_API_CHECK_H
#define C_API_API_CHECK_H

#include "solver/types.h"
#include "superovoid/superovoid.h"

/* SOV_OK, or the status sov_distance returns for these options
 * (SOV_ERR_OPTION, SOV_ERR_BUFFER). */
int sovc_api_check_options(const sov_options *options);

/* Checked options as the solver receives them, the work memory from its
 * first suitably aligned byte. */
sovc_options sovc_api_options(const sov_options *options);

#endif
