/*
 * keccak: the Keccak-f[1600] permutation (FIPS 202), the precompile SP1,
 * lambda_vm and others expose, on 25 little-endian 64-bit lanes, and the
 * Keccak-256 digest built on it (OpenVM's KECCAK256 instruction).
 */
#ifndef EXECUTOR_PRECOMPILE_KECCAK_H
#define EXECUTOR_PRECOMPILE_KECCAK_H

#include <stddef.h>
#include <stdint.h>

/* 24 rounds of Keccak-f[1600] on state[x + 5y], in place. */
void keccak_f1600(uint64_t state[25]);

/* Keccak-256 (the pre-FIPS padding 0x01 ... 0x80 Ethereum uses) of a whole message. */
void keccak256_digest(const uint8_t *msg, size_t len, uint8_t out[32]);

#endif
