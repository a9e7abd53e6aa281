/*
 * interp_rv64: the RV64IM interpreter loops (see interp_impl.h): the fast one
 * (plain and traced at once), the fast one of the tracer's per-pc mode,
 * and the precise ones, plain and traced.
 */
#include <string.h>

#include "executor/interp.h"

#define XLEN 64
#include "executor/interp_impl.h"
#define RUNS 1
#include "executor/interp_impl.h"
#define PRECISE 1
#include "executor/interp_impl.h"
#define TRACED  1
#define PRECISE 1
#include "executor/interp_impl.h"
