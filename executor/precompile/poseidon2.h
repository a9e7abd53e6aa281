/*
 * poseidon2: the Poseidon2 permutation RISC Zero's POSEIDON2 ecall runs,
 * over the BabyBear field, on 24 cells: 16 of rate, 8 of capacity.
 */
#ifndef EXECUTOR_PRECOMPILE_POSEIDON2_H
#define EXECUTOR_PRECOMPILE_POSEIDON2_H

#include <stdint.h>

#define POSEIDON2_P 0x78000001u /* BabyBear: 15 * 2^27 + 1 */

enum { POSEIDON2_CELLS = 24 };

/* Permutes the cells in place; a cell of p or more is first reduced mod p. */
void poseidon2_mix(uint32_t cells[POSEIDON2_CELLS]);

#endif
