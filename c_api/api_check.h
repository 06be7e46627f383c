/* Checks of c_api/superovoid.c that the other files of c_api/ share.
 * Internal to c_api/. */
#ifndef C_API_API_CHECK_H
#define C_API_API_CHECK_H

#include "superovoid/superovoid.h"

/* SOV_OK, or the status sov_distance returns for these options
 * (SOV_ERR_OPTION, SOV_ERR_BUFFER). */
int sovc_api_check_options(const sov_options *options);

#endif
