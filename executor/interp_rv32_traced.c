/* interp_rv32_traced: the RV32IM loop that reports jumps to a tracer (see interp_impl.h). */
#include <string.h>

#include "executor/interp.h"
#include "executor/syscall.h"

#define XLEN 32
#define TRACED 1
#include "executor/interp_impl.h"
