/*
 * jolt_fields: Jolt's curve-field inlines (custom-0 0x0B, funct7 5
 * secp256k1, 6 Grumpkin, 7 P-256). Internal to the Jolt ABI.
 */
#ifndef EXECUTOR_ABI_JOLT_FIELDS_H
#define EXECUTOR_ABI_JOLT_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

#include "executor/abi/abi.h"
#include "executor/machine.h"

/* True for the funct7 of a curve-field family (5, 6, 7). */
bool jolt_field_family(unsigned funct7);

/*
 * Runs the curve-field inline of the custom-0 word w (its funct7 one
 * jolt_field_family takes), its name in *call; a fault where Jolt's
 * tracer panics.
 */
enum ecall_result jolt_field_inline(struct machine *m, uint32_t w, const char **call);

#endif
