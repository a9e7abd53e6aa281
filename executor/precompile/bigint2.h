/*
 * bigint2: the programs RISC Zero's BIGINT2 ecall runs (zkVM 2.x and
 * 3.x). A blob holds two programs in the "bibc" bytecode: the verify
 * program the circuit checks, and the nondeterministic one the host runs
 * to compute the witness (results, quotients, inverses). Only the latter
 * changes memory, so it is the one run here, as the executor
 * (risc0-circuit-rv32im execute/bibc.rs, bigint.rs) runs it:
 *
 *   header   "bibc", version 1, then the counts of inputs, types,
 *            constants and ops (u32 each, little-endian)
 *   inputs   16 bytes each (label, widths: not used to run)
 *   types    4 u64 each; the first is the number of byte coefficients
 *   consts   u64 each
 *   ops      u64 each: op code (bits 0-3), result type (4-15), a (16-39),
 *            b (40-63). Const: value from constants a .. a + b (64-bit
 *            limbs); Load / Store: a = arena register << 16 | offset in
 *            16-byte units, the type's coefficients rounded up to 16
 *            bytes wide, Store writes |value of op b|; Add, Sub, Mul,
 *            Rem, Quo (truncating, signed), Inv (|a| mod |b| inverted mod
 *            |b|) on the values of ops a and b, both earlier.
 *
 * Loads read memory as it was before the call; stores collect in 16-byte
 * chunks, written after the program ends, lowest address first.
 */
#ifndef EXECUTOR_PRECOMPILE_BIGINT2_H
#define EXECUTOR_PRECOMPILE_BIGINT2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { BIGINT2_CHUNK_WORDS = 4 };

/* 16 bytes of the witness, at a word-aligned address. */
struct bigint2_chunk {
    uint32_t addr;
    uint32_t w[BIGINT2_CHUNK_WORDS];
};

struct bigint2_witness {
    struct bigint2_chunk *chunk;
    size_t n, cap;
};

/* The guest memory a program reads. */
struct bigint2_memory {
    void *ctx;
    /* The address register `reg` holds; false when that register cannot be an arena. */
    bool (*arena)(void *ctx, uint32_t reg, uint32_t *addr);
    /* n words at addr; false when they are not all readable. */
    bool (*load)(void *ctx, uint32_t addr, uint32_t *w, size_t n);
    uint32_t end; /* a load or store must start below this address */
};

struct bigint2_error {
    char text[200];
    uint32_t addr; /* the address or value the error is about */
};

/*
 * Runs the nondeterministic program in the len bytes at prog. Returns true
 * with the stores in *out (sorted by address, one chunk per address, the
 * last store winning), or false with the reason in *err. Frees nothing of
 * *out: call bigint2_witness_free.
 */
bool bigint2_run(const uint8_t *prog, size_t len, const struct bigint2_memory *mem,
                 struct bigint2_witness *out, struct bigint2_error *err);

void bigint2_witness_free(struct bigint2_witness *w);

#endif
