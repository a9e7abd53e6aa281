/*
 * blake2b_round: one round of BLAKE2b's compression function (RFC 7693
 * section 3.2: G on the columns, then on the diagonals, the message words
 * picked by SIGMA[round mod 10]), as ZisK's blake2 precompile runs it
 * (precompiles/helpers/src/blake2/blake2b/round.rs, 0xPolygonHermez/zisk
 * v0.16.0 aacf0a73 to v0.18.0 790f9e28).
 */
#ifndef EXECUTOR_PRECOMPILE_BLAKE2B_ROUND_H
#define EXECUTOR_PRECOMPILE_BLAKE2B_ROUND_H

#include <stdint.h>

/* The message schedule SIGMA of BLAKE2b and BLAKE2s alike (RFC 7693 section 2.7). */
extern const uint8_t blake2_sigma[10][16];

/* Round `round` (taken mod 10) on the working vector v with the message block m. */
void blake2b_round(uint64_t v[16], const uint64_t m[16], uint32_t round);

#endif
