/* dtype.h — moved to util/dtype.h (issue 29: the element types are shared by every floor:
 * the scanner, the launch, the correctness check and the harness). This forwarder stays
 * until launch/spec.h and harness/server.h include util/dtype.h; then delete it. */
#ifndef KD_LAUNCH_DTYPE_H
#define KD_LAUNCH_DTYPE_H

#include "util/dtype.h"

#endif
