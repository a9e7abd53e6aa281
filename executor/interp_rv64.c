/* interp_rv64: the interpreter loop for RV64IM guests (see interp_impl.h). */
#include <string.h>

#include "executor/interp.h"
#include "executor/syscall.h"

#define XLEN 64
#include "executor/interp_impl.h"
