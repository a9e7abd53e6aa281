/*
 * zisk_fcall_calls: what ZisK's free calls compute, as its host does
 * (ziskos zisklib/fcalls_impl/, num-bigint): the parameter words in, the
 * result words out, and the arithmetic mod p they share, with the
 * host's panics (a subtraction below 0, an inverse of 0). Internal to
 * zisk_fcall.c.
 */
#ifndef EXECUTOR_ABI_ZISK_FCALL_CALLS_H
#define EXECUTOR_ABI_ZISK_FCALL_CALLS_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One call: its parameters, its results, and why it failed (where ZisK's host panics). */
struct fcall_io {
    const uint64_t *params;
    size_t nparams;
    uint64_t *results; /* room for `room` words */
    size_t room, nresults;
    const char *why; /* set on failure (-1) */
};

/* A call's computation: 0, or -1 with io->why. */
typedef int (*fcall_fn)(struct fcall_io *io, const void *arg);

/* ---- arithmetic mod p as fcalls_impl's <curve>/fp*.rs writes it ---- */

struct zfield {
    mpz_t p;
    bool sub_reduces; /* bn254's fp_sub ends in % p; the others' leave a - b as it is */
    const char *why;  /* the first panic met (then the numbers are meaningless) */
};

void zf_init(struct zfield *f, const char *hex_p, bool sub_reduces);
void zf_clear(struct zfield *f);
void zf_add(struct zfield *f, mpz_t r, const mpz_t a, const mpz_t b);
void zf_mul(struct zfield *f, mpz_t r, const mpz_t a, const mpz_t b);
/* a >= b ? a - b : a + p - b, which panics when negative (BigUint) */
void zf_sub(struct zfield *f, mpz_t r, const mpz_t a, const mpz_t b);
/* a^-1 mod p; a = 0 mod p panics "Inverse does not exist" */
void zf_inv(struct zfield *f, mpz_t r, const mpz_t a);

/* z = the n words at w (little-endian); the n words at w = z (below 2^(64n)). */
void zf_import(mpz_t z, const uint64_t *w, size_t n);
void zf_export(uint64_t *w, size_t n, const mpz_t z);

/* ---- the calls (arg: what the entry of zisk_fcall.c's table gives) ---- */

/* zisk_fcall_field.c: arg a struct zisk_fcall_field */
int zisk_fcall_inverse(struct fcall_io *io, const void *arg);
int zisk_fcall_inverse_fp2(struct fcall_io *io, const void *arg);
int zisk_fcall_sqrt(struct fcall_io *io, const void *arg);
int zisk_fcall_fp2_sqrt(struct fcall_io *io, const void *arg);
int zisk_fcall_twist_add_line(struct fcall_io *io, const void *arg);
int zisk_fcall_twist_dbl_line(struct fcall_io *io, const void *arg);

struct zisk_fcall_field {
    const char *p;    /* the prime, hex */
    unsigned words;   /* of an element of Fp */
    bool sub_reduces; /* as struct zfield */
    unsigned nqr;     /* sqrt: the non-square ZisK's host multiplies a non-square by */
    bool parity;      /* sqrt: a parity word follows x, the root of that parity is given */
};
extern const struct zisk_fcall_field zisk_secp256k1_fp, zisk_secp256k1_fn, zisk_bn254_fp,
    zisk_bls12_381_fp;

/* zisk_fcall_ecdsa.c: arg a struct zisk_ecdsa_curve */
struct zisk_ecdsa_curve;
extern const struct zisk_ecdsa_curve zisk_secp256k1_ecdsa, zisk_secp256r1_ecdsa;
int zisk_fcall_ecdsa_verify(struct fcall_io *io, const void *arg);

/* zisk_fcall_int.c: arg NULL, or for bigint_div the release's rule (a bool: q = 0 as 4 words) */
int zisk_fcall_uint256_div(struct fcall_io *io, const void *arg);
int zisk_fcall_uint256_inv(struct fcall_io *io, const void *arg);
int zisk_fcall_uint256_inv_mod(struct fcall_io *io, const void *arg);
int zisk_fcall_bigint_div(struct fcall_io *io, const void *arg);
int zisk_fcall_bin_decomp(struct fcall_io *io, const void *arg);
int zisk_fcall_msb_pos_256(struct fcall_io *io, const void *arg);
int zisk_fcall_msb_pos_384(struct fcall_io *io, const void *arg);

#endif
