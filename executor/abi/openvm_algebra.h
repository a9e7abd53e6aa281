/*
 * openvm_algebra: OpenVM 1.x's custom-1 (0x2b) instructions, its algebra,
 * ecc and pairing extensions: modular arithmetic, complex extension fields
 * and short Weierstrass curves, each on the moduli and curves the guest's
 * setup instructions name, and their hint phantoms (the pairing hint among
 * them). Internal to the OpenVM ABI (openvm.c).
 */
#ifndef EXECUTOR_ABI_OPENVM_ALGEBRA_H
#define EXECUTOR_ABI_OPENVM_ALGEBRA_H

#include <stdbool.h>
#include <stdint.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/machine.h"

enum { OPENVM_KINDS = 16 }; /* funct7 = index * 8 + operation: 16 indices */

/* A prime the guest set up (SETUP_MOD, the complex setup), by its index. */
struct openvm_modulus {
    uint32_t bytes; /* 32 or 48: its limbs, the size of each element; 0: not set up */
    uint32_t p[12]; /* little-endian limbs */
};

/*
 * A short Weierstrass curve y^2 = x^3 + a x + b the guest set up. Its
 * points are affine (x, y), or projective (X, Y, Z) for guests of
 * OpenVM's perf/ecc-projective-coord branch, whose formulas need b.
 */
struct openvm_curve {
    struct openvm_modulus field;
    uint32_t a[12], b[12];
    bool projective;
};

struct openvm_algebra {
    struct openvm_modulus moduli[OPENVM_KINDS];  /* funct3 0 */
    struct openvm_modulus complex[OPENVM_KINDS]; /* funct3 2: Fp2 over that prime */
    struct openvm_curve curves[OPENVM_KINDS];    /* funct3 1 */
    bool projective_curves; /* an RV64 guest: its curves may be projective (setup_curve) */
    unsigned word;          /* a register's bytes (4, or 8 on RV64): set by openvm.c */
    uint8_t hint[24 * 48];  /* the hint stream a hint phantom just made ... */
    size_t hint_len;        /* ... its bytes, for openvm.c to take; 0: none */
};

/*
 * HintNonQr (sqrt false) or HintSqrt of the modulus `idx` (openvm_sqrt.c):
 * the new hint stream in alg->hint.
 */
enum ecall_result openvm_sqrt_hint(struct machine *m, struct openvm_algebra *alg, struct abi_insn f,
                                   unsigned idx, bool sqrt);

/*
 * v1.0-v1.2's HintDecompress (decompress true) or HintNonQr of the curve
 * `idx` (openvm_sqrt.c): the new hint stream in alg->hint.
 */
enum ecall_result openvm_ecc_hint(struct machine *m, struct openvm_algebra *alg, struct abi_insn f,
                                  unsigned idx, bool decompress);

/* Runs the custom-1 instruction `w`; *call names its frame. */
enum ecall_result openvm_algebra_insn(struct machine *m, struct openvm_algebra *alg, uint32_t w,
                                      const char **call);

#endif
