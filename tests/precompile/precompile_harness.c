/*
 * precompile_harness: runs the precompile functions the zkVM calls use on
 * requests read from stdin, one a line, so that test_reference.py can check
 * the answers against Python's integers and hashlib:
 *
 *   mulmod A B M   bigint_mulmod_256 on hex numbers below 2^256: prints the
 *                  result written apart (RISC Zero's BIGINT) and written over
 *                  A (SP1's UINT256_MUL), each as 64 hex digits
 *   sha3_256 HEX   SHA3-256 of the bytes: the sponge (rate 136, padding
 *                  0x06 ... 0x80) is written here around keccak_f1600
 *   sha256 HEX     SHA-256 of the bytes: padded here, each block through
 *                  sha256_extend then sha256_compress (SP1's two calls)
 *
 * "-" is the empty message. A line it cannot read prints "error: ..." to
 * stderr and exits 2.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/keccak.h"
#include "executor/precompile/sha256.h"

enum { SHA3_256_RATE = 136 };

/* Big-endian hex of at most 64 digits to 8 little-endian limbs. */
static bool parse_u256(const char *hex, uint32_t w[8])
{
    size_t len = hex ? strlen(hex) : 0;
    if (len == 0 || len > 64)
        return false;
    memset(w, 0, 8 * sizeof(*w));
    for (size_t i = 0; i < len; i++) {
        int v = hex_digit(hex[len - 1 - i]);
        if (v < 0)
            return false;
        w[i / 8] |= (uint32_t)v << (4 * (i % 8));
    }
    return true;
}

/* Hex (or "-", no bytes) to a new buffer of *n bytes. */
static uint8_t *parse_bytes(const char *hex, size_t *n)
{
    if (!hex)
        return NULL;
    if (strcmp(hex, "-") == 0)
        hex = "";
    size_t len = strlen(hex);
    uint8_t *b = malloc(len / 2 + 1);
    if (!b || len % 2) {
        free(b);
        return NULL;
    }
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(b);
            return NULL;
        }
        b[i] = (uint8_t)(hi << 4 | lo);
    }
    *n = len / 2;
    return b;
}

static void print_u256(const uint32_t w[8])
{
    for (int i = 7; i >= 0; i--)
        printf("%08x", w[i]);
}

static void print_bytes(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%02x", b[i]);
}

static bool do_mulmod(char **args)
{
    uint32_t x[8], y[8], m[8], z[8];
    if (!parse_u256(args[0], x) || !parse_u256(args[1], y) || !parse_u256(args[2], m))
        return false;
    bigint_mulmod_256(z, x, y, m); /* RISC Zero: z apart */
    bigint_mulmod_256(x, x, y, m); /* SP1: over x */
    print_u256(z);
    putchar(' ');
    print_u256(x);
    putchar('\n');
    return true;
}

/* XORs n <= 136 bytes into the state's first lanes, little-endian. */
static void sponge_absorb(uint64_t a[25], const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i / 8] ^= (uint64_t)p[i] << (8 * (i % 8));
}

static void sha3_256(const uint8_t *msg, size_t len, uint8_t out[32])
{
    uint64_t a[25] = {0};
    uint8_t last[SHA3_256_RATE] = {0};
    for (; len >= SHA3_256_RATE; msg += SHA3_256_RATE, len -= SHA3_256_RATE) {
        sponge_absorb(a, msg, SHA3_256_RATE);
        keccak_f1600(a);
    }
    memcpy(last, msg, len);
    last[len] ^= 0x06;
    last[SHA3_256_RATE - 1] ^= 0x80;
    sponge_absorb(a, last, SHA3_256_RATE);
    keccak_f1600(a);
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
}

/* One 64-byte block into h through the two halves. */
static void sha256_one_block(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64] = {0};
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    sha256_extend(w);
    sha256_compress(h, w);
}

/* FIPS 180-4 5.1.1 padding, then each block from H(0) (5.3.3). */
static bool sha256_halves(const uint8_t *msg, size_t len, uint8_t out[32])
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    size_t padded = (len + 9 + 63) / 64 * 64;
    uint8_t *p = calloc(padded, 1);
    if (!p)
        return false;
    memcpy(p, msg, len);
    p[len] = 0x80;
    for (int i = 0; i < 8; i++)
        p[padded - 1 - i] = (uint8_t)(((uint64_t)len * 8) >> (8 * i));
    for (size_t off = 0; off < padded; off += 64)
        sha256_one_block(h, p + off);
    free(p);
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
    return true;
}

static bool do_digest(const char *hex, bool sha3)
{
    size_t n;
    uint8_t *msg = parse_bytes(hex, &n), out[32];
    if (!msg)
        return false;
    bool ok = true;
    if (sha3)
        sha3_256(msg, n, out);
    else
        ok = sha256_halves(msg, n, out);
    free(msg);
    if (ok) {
        print_bytes(out, 32);
        putchar('\n');
    }
    return ok;
}

/* One request: its words split in place; false when it cannot be read. */
static bool run_line(char *line)
{
    char *args[4] = {NULL, NULL, NULL, NULL}, *save = NULL;
    char *op = strtok_r(line, " \t\r\n", &save);
    for (int i = 0; i < 4 && op; i++)
        args[i] = strtok_r(NULL, " \t\r\n", &save);
    if (!op)
        return false;
    if (strcmp(op, "mulmod") == 0 && args[2] && !args[3])
        return do_mulmod(args);
    if (strcmp(op, "sha3_256") == 0 && args[0] && !args[1])
        return do_digest(args[0], true);
    if (strcmp(op, "sha256") == 0 && args[0] && !args[1])
        return do_digest(args[0], false);
    return false;
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    unsigned long n = 0;
    while (getline(&line, &cap, stdin) >= 0) {
        n++;
        if (!run_line(line)) {
            fprintf(stderr, "error: line %lu: not a request this harness reads\n", n);
            free(line);
            return 2;
        }
    }
    free(line);
    return 0;
}
