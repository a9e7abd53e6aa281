/*
 * keccak: the Keccak-f[1600] permutation (FIPS 202), the precompile SP1,
 * lambda_vm and others expose, on 25 little-endian 64-bit lanes.
 */
#ifndef EXECUTOR_PRECOMPILE_KECCAK_H
#define EXECUTOR_PRECOMPILE_KECCAK_H

#include <stdint.h>

/* 24 rounds of Keccak-f[1600] on state[x + 5y], in place. */
void keccak_f1600(uint64_t state[25]);

#endif
