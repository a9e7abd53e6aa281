/*
 * blake2b: BLAKE2b's compression function F (RFC 7693, section 3.2): twelve
 * rounds of G over a 16-word state of 64-bit words.
 */
#ifndef EXECUTOR_PRECOMPILE_BLAKE2B_H
#define EXECUTOR_PRECOMPILE_BLAKE2B_H

#include <stdint.h>

/*
 * One compression of the 16 message words m into h, with the byte counter t
 * (its high 64 bits 0) and the final-block word `last` XORed into v[14]
 * (~0 for the final block, 0 otherwise, as RFC 7693's f0).
 */
void blake2b_compress(uint64_t h[8], const uint64_t m[16], uint64_t t, uint64_t last);

#endif
