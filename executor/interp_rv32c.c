/*
 * interp_rv32c: the RV32IMAC interpreter loops, for a guest built with
 * C (EF_RISCV_RVC), whose code cache has a slot per 2 bytes (see
 * interp_impl.h, RVC): the fast one (plain and traced at once), the fast
 * one of the tracer's per-pc mode, and the precise ones, plain and traced.
 */
#include <string.h>

#include "executor/interp.h"

#define XLEN 32
#define RVC  1
#include "executor/interp_impl.h"
#define RUNS 1
#include "executor/interp_impl.h"
#define PRECISE 1
#include "executor/interp_impl.h"
#define TRACED  1
#define PRECISE 1
#include "executor/interp_impl.h"
