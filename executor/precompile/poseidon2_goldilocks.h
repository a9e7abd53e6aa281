/*
 * poseidon2_goldilocks: the Poseidon2 permutation over Goldilocks
 * (p = 2^64 - 2^32 + 1) on 16 cells, as ZisK's poseidon2 precompile
 * computes it (core/src/zisk_ops.rs opc_poseidon2: pil2-proofman's
 * fields::poseidon2_hash::<Goldilocks, Poseidon16, 16>; the same rounds
 * and constants in ZisK's lib-c/c/src/poseidon2/, 0xPolygonHermez/zisk
 * v0.16.0 aacf0a73 to v0.18.0 790f9e28).
 */
#ifndef EXECUTOR_PRECOMPILE_POSEIDON2_GOLDILOCKS_H
#define EXECUTOR_PRECOMPILE_POSEIDON2_GOLDILOCKS_H

#include <stdint.h>

#define GOLDILOCKS_P 0xFFFFFFFF00000001ull

/* Permutes the 16 cells in place; inputs are taken mod p, outputs are below p. */
void poseidon2_goldilocks16(uint64_t state[16]);

#endif
