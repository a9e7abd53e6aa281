/*
 * sha256: the SHA-256 message schedule and compression function (FIPS
 * 180-4), the two halves zkVMs expose as precompiles, and a whole-message
 * digest built from them for digests the ABIs report.
 */
#ifndef EXECUTOR_PRECOMPILE_SHA256_H
#define EXECUTOR_PRECOMPILE_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Extends w[0..15] to the whole schedule w[16..63]. */
void sha256_extend(uint32_t w[64]);

/* One compression of the extended schedule w into the state h. */
void sha256_compress(uint32_t h[8], const uint32_t w[64]);

/* One compression of a 64-byte block (big-endian words) into h. */
void sha256_block(uint32_t h[8], const uint8_t block[64]);

/* A message hashed as it comes. */
struct sha256_ctx {
    uint32_t h[8];
    uint8_t block[64];
    uint64_t len; /* bytes so far */
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const uint8_t *p, size_t n);
/* The digest of everything so far; the context is left as it was. */
void sha256_final(const struct sha256_ctx *c, uint8_t out[32]);

/* The digest of a whole message. */
void sha256_digest(const uint8_t *msg, size_t len, uint8_t out[32]);

#endif
