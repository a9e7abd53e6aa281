/*
 * interp_rv64_cost_fast: the RV64IM fast loop of a tracer in cost mode
 * without per-pc counts (see interp_impl.h and executor/trace.h, "Cost
 * clock"): the fast loop that also keeps a weight's cost clock, for
 * profiles whose functions keep no runs (--no-inline). A file of its own,
 * so that it builds beside interp_rv64.c.
 */
#include <string.h>

#include "executor/interp.h"

#define XLEN 64
#define COST 1
#include "executor/interp_impl.h"
