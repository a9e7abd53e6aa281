/*
 * interp_rv64_cost: the RV64IM fast loop of a tracer in cost mode (see
 * interp_impl.h and executor/trace.h, "Cost clock"): the per-pc loop that
 * also keeps a weight's cost clock. A file of its own, so that it builds
 * beside interp_rv64.c.
 */
#include <string.h>

#include "executor/interp.h"

#define XLEN 64
#define RUNS 1
#define COST 1
#include "executor/interp_impl.h"
