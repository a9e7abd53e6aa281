/* interp_rv32: the interpreter loop for RV32IM guests (see interp_impl.h). */
#include <string.h>

#include "executor/interp.h"
#include "executor/syscall.h"

#define XLEN 32
#include "executor/interp_impl.h"
