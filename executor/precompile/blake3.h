/*
 * blake3: BLAKE3's compression function without its final XORs (the
 * BLAKE3 paper, section 2.2: seven rounds of G over a 16-word state and a
 * 16-word message block, the message permuted between rounds), as SP1's
 * testnet precompile BLAKE3_COMPRESS_INNER runs it.
 */
#ifndef EXECUTOR_PRECOMPILE_BLAKE3_H
#define EXECUTOR_PRECOMPILE_BLAKE3_H

#include <stdint.h>

/* The seven rounds on state, with the message block m. */
void blake3_compress_inner(uint32_t state[16], const uint32_t m[16]);

#endif
