/*
 * poseidon2_kb: the Poseidon2 permutation SP1 v6's POSEIDON2 ecall runs,
 * over the KoalaBear field (p = 2^31 - 2^24 + 1), on 16 cells, the one
 * Pico's POSEIDON2_PERMUTE runs (its own constants and internal diagonal),
 * and the same permutation with other round numbers, S-box degree and
 * constants (for the published known-answer test of its linear layers).
 */
#ifndef EXECUTOR_PRECOMPILE_POSEIDON2_KB_H
#define EXECUTOR_PRECOMPILE_POSEIDON2_KB_H

#include <stdbool.h>
#include <stdint.h>

#define KOALABEAR_P 0x7f000001u

enum { POSEIDON2_KB_CELLS = 16 };

/* A Poseidon2 instance: S-box x^degree, rounds_f full rounds (half before, half after). */
struct poseidon2_kb_params {
    unsigned degree, rounds_f, rounds_p;
    const uint32_t (*external)[POSEIDON2_KB_CELLS]; /* rounds_f rows, canonical */
    const uint32_t *internal;                       /* rounds_p, canonical */
    /*
     * The internal layer's matrix is J + diag(diag), J all ones (Plonky3's
     * Poseidon2InternalLayerMonty31); NULL: SP1's DiffusionMatrixKoalaBear,
     * 2^-32 (J + diag(-2, 1, 2, 4, ..., 2^13, 2^15)).
     */
    const uint32_t *diag;
};

/* SP1's: degree 3, 8 full and 20 partial rounds, the constants of its slop-koala-bear crate. */
extern const struct poseidon2_kb_params poseidon2_kb_sp1;

/*
 * Pico's (brevis-network/pico vm/src/primitives/mod.rs pico_poseidon2kb_init,
 * Plonky3's Poseidon2KoalaBear<16>): 8 full and 20 partial rounds, S-box
 * degree 3 from v1.1.0, 7 in v1.0.x (its own rounds, syscalls/precompiles/
 * poseidon2/permute.rs at v1.0.0).
 */
extern const struct poseidon2_kb_params poseidon2_kb_pico;
extern const struct poseidon2_kb_params poseidon2_kb_pico_v1_0;

/* Permutes 16 canonical cells (each below p) in place. */
void poseidon2_kb_permute(const struct poseidon2_kb_params *prm, uint32_t cells[16]);

/* SP1's permutation; false (cells untouched) when a cell is not below p. */
bool poseidon2_kb_sp1_permute(uint32_t cells[16]);

#endif
