/*
 * interp_rv64: the RV64IM interpreter loops (see interp_impl.h): plain,
 * traced, and each again checking its budget before every instruction.
 */
#include <string.h>

#include "executor/interp.h"
#include "executor/syscall.h"

#define XLEN 64
#include "executor/interp_impl.h"
#define TRACED 1
#include "executor/interp_impl.h"
#define PRECISE 1
#include "executor/interp_impl.h"
#define TRACED  1
#define PRECISE 1
#include "executor/interp_impl.h"
