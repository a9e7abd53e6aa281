/*
 * cost_zkvm: the built-in cost models whose instruction costs need more
 * than an opcode class (SP1 v6 gas, ZisK area, OpenVM cells), and the
 * helpers of cost_model.c they build on. Private to executor/cost_*.c;
 * the figures and their sources are in docs/ZKVMS.md, "Weights".
 */
#ifndef EXECUTOR_COST_ZKVM_H
#define EXECUTOR_COST_ZKVM_H

#include "executor/cost_model.h"

/* A model named `name`, every class, outside pc and call at `per_insn`. */
int cost_model_start(struct cost_model *m, const char *name, uint64_t per_insn, struct error *e);

/* Adds a call's cost; on failure the caller frees the model. */
int cost_model_add_call(struct cost_model *m, const char *name, uint64_t cost, struct error *e);

/* SP1 v6 (RV64) gas, in tenths: 3 * trace cells + complexity per event. */
int cost_sp1_v6_gas(struct cost_model *m, struct error *e);

/* ZisK area: 68 per step, its operation's cost and its memory access's. */
int cost_zisk_area(struct cost_model *m, struct error *e);

/* OpenVM 1.x main trace cells: the width of the chip each instruction lands in. */
int cost_openvm_cells(struct cost_model *m, struct error *e);

#endif
