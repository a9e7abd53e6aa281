/*
 * zisk: a guest written to ZisK's conventions, as its ziskos crate does
 * it (RV64IMA): _start sets gp and sp (the top of the stack at the bottom
 * of RAM, 0xA040_0000), checks `csrr marchid` for ZisK's 0xFFFEEEE and
 * exits with an ecall (a7 = 93). Input items are read in place at
 * 0x4000_0000 + 8 (a u64 length, the bytes, padded to 8); public outputs
 * are u32 words after a u32 count at OUTPUT_ADDR (0xA041_0000); text goes
 * to the UART (0xA040_0200) a byte at a time. Precompiles are `csrs 0x800
 * + n, rs1`. The first item's first byte is a mode:
 *   0  output: Keccak-f of the zero state (keccakf), SHA-256("abc")
 *      (sha256f), 2G and G + 2G on secp256k1 (secp256k1_dbl and _add),
 *      for a, b, c, m (the second item, 32 bytes each, little-endian)
 *      a * b + c (arith256: low, then high) and (a * b + c) mod m
 *      (arith256_mod), the old value an amoadd.d returned, and marchid;
 *      print "ok\n" on the UART; exit 0
 *   1  exit 42
 *   2  output, for the second item's 16 u64, their Poseidon2 permutation
 *      (poseidon2), then the BLAKE2b digest (64 bytes) of the third item
 *      (at most 128 bytes: one block) by twelve blake2b_round calls and
 *      BLAKE2b's finalisation; in the build with the later numbering the
 *      hash lies between two profile marks; exit 0
 *   3  an ecall other than exit
 *   4  store into the read-only input
 *   5  secp256k1_add of G and G (ZisK does not take equal points)
 *   6  the free-input call 5 (its meaning moved between ZisK versions)
 *   7  load from 0xC000_0000, past ZisK's RAM
 *   8  output, for the second item's BLS12-381 point G (x, y: 6 u64 limbs
 *      each) and BN254 Fp2 elements f1, f2 (c0, c1: 4 limbs each): 2G
 *      (bls12_381_curve_dbl), G + 2G (bls12_381_curve_add), f1 + f2,
 *      f1 - f2, f1 * f2 (bn254_complex_add, _sub, _mul); exit 0
 *   9  output, for a, b, c, m (the second item, 48 bytes each) (a * b + c)
 *      mod m (arith384_mod), the low 32 bytes of a + b + 1 and its carry
 *      (add256, the carry in rd), then for the third item's P-256 point G
 *      (x, y: 4 u64 limbs each) 2G and G + 2G (secp256r1_dbl, _add); exit 0
 *  10  output the free-input calls' results: for x (the second item, 32
 *      bytes) secp256k1_fp_inv, secp256k1_fn_inv, secp256k1_fp_sqrt with
 *      parity 0 and 1 (5 words: the flag, the root), bn254_fp_inv; for the
 *      third item (32 bytes) secp256k1_fp_sqrt (parity 0); for the fourth
 *      (a BLS12-381 element, 6 u64 limbs and 2 of padding) bls12_381_fp_inv;
 *      for the fifth (a BN254 Fp2 element, 8 limbs) bn254_fp2_inv, the
 *      sixth (BLS12-381 Fp2, 12 limbs) bls12_381_fp2_inv, the seventh and
 *      eighth (as the fourth) bls12_381_fp_sqrt (7 words); exit 0
 *  11  fcall_get with no free call made (no result to read)
 *  12  csrs 0x815 with rs1 at a point, no operand block: secp256r1_add
 *      here (a fault), dma_inputcpy in the build with ZISK_DMA_NUMBERING
 *      (guests/zisk-dma/), which has ziskos's later numbering of 0x815 and
 *      up (secp256r1 at 0x817, 0x818) and, as later ziskos, `inputcpy`
 *  13  csrs 0x860, an early ziskos free call (secp256k1_fp_inv's old id)
 *  14  output, for the second item's 64 bytes B, through ziskos's DMA
 *      functions: a copy of B, B moved 8 bytes up and 5 down (overlapping),
 *      memcmp of B and a copy (u64: equal, then with byte 10 ^ 0x80 both
 *      ways, then the first 10 bytes); in the build with the later
 *      numbering also the dma.rs macro forms (a copy of 24 bytes by addi,
 *      memcmp by addi of 16 and 8 bytes, by add into the marker's rd),
 *      memset of 0, 0xAB, by csrsi and into rd, and for the third item x
 *      secp256k1_fp_inv's result twice (inputcpy of 32 bytes; inputcpy of
 *      16 and two fcall_get); exit 0
 *  15  a DMA memcpy whose marker is a sub; 16 memcpy to 0xBFFF_FFF8 (past
 *      RAM); 17 memcpy of 2^64 - 1 bytes; 18 inputcpy with no free call
 *      made; 19 inputcpy of 40 bytes after a call of 4 result words; 20
 *      memset with fill byte 256; 21 memcpy by addi of -8 bytes
 * The functions are named ziskos_*, as the crate's symbols are.
 */
#include <stdbool.h>

#include "zkvm_guest.h"

__asm__(ZKVM_START_GP "  li sp, 0xA03FFFF0\n"
                      "  call ziskos_main\n"
                      "  csrr t0, marchid\n"
                      "  li t1, 0xFFFEEEE\n"
                      "  bne t0, t1, 1f\n"
                      "  li a7, 93\n"
                      "  ecall\n"
                      "1: j 1b\n");

#define INPUT_ADDR  0x40000000ul
#define OUTPUT_ADDR 0xA0410000ul
#define UART_ADDR   0xA0400200ul

#define ZISK_CALL(csr, p) __asm__ volatile("csrs " #csr ", %0" : : "r"(p) : "memory")

static uint32_t outputs;

__attribute__((noinline)) void ziskos_set_output(uint32_t value)
{
    volatile uint32_t *out = (volatile uint32_t *)OUTPUT_ADDR;
    out[1 + outputs++] = value;
    out[0] = outputs;
}

static void output_bytes(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i += 4)
        ziskos_set_output((uint32_t)b[i] | (uint32_t)b[i + 1] << 8 | (uint32_t)b[i + 2] << 16 |
                          (uint32_t)b[i + 3] << 24);
}

__attribute__((noinline)) void ziskos_print(const char *s)
{
    while (*s)
        *(volatile uint8_t *)UART_ADDR = (uint8_t)*s++;
}

/* Item i of the input (0 first): its bytes and length. */
static const uint8_t *item(int i, uint64_t *len)
{
    uint64_t at = INPUT_ADDR + 8;
    for (;;) {
        *len = *(const volatile uint64_t *)at;
        if (i-- == 0)
            return (const uint8_t *)(at + 8);
        at += 8 + (*len + 7) / 8 * 8;
    }
}

struct point {
    uint64_t x[4], y[4];
};

static const struct point generator = {
    {0x59F2815B16F81798ul, 0x029BFCDB2DCE28D9ul, 0x55A06295CE870B07ul, 0x79BE667EF9DCBBACul},
    {0x9C47D08FFB10D4B8ul, 0xFD17B448A6855419ul, 0x5DA4FBFC0E1108A8ul, 0x483ADA7726A3C465ul}};

__attribute__((noinline)) void ziskos_syscall_keccak_f(uint64_t state[25])
{
    ZISK_CALL(0x800, state);
}

__attribute__((noinline)) void ziskos_syscall_sha256_f(uint32_t state[8], const uint8_t block[64])
{
    struct {
        uint32_t *state;
        const uint8_t *input;
    } params = {state, block};
    ZISK_CALL(0x805, &params);
}

__attribute__((noinline)) void ziskos_syscall_secp256k1_dbl(struct point *p)
{
    ZISK_CALL(0x804, p);
}

__attribute__((noinline)) void ziskos_syscall_secp256k1_add(struct point *p, const struct point *q)
{
    struct {
        struct point *p1;
        const struct point *p2;
    } params = {p, q};
    ZISK_CALL(0x803, &params);
}

__attribute__((noinline)) void ziskos_syscall_arith256(const uint64_t *a, const uint64_t *b,
                                                       const uint64_t *c, uint64_t *dl,
                                                       uint64_t *dh)
{
    const uint64_t *params[5] = {a, b, c, dl, dh};
    ZISK_CALL(0x801, params);
}

__attribute__((noinline)) void ziskos_syscall_arith256_mod(const uint64_t *a, const uint64_t *b,
                                                           const uint64_t *c, const uint64_t *m,
                                                           uint64_t *d)
{
    const uint64_t *params[5] = {a, b, c, m, d};
    ZISK_CALL(0x802, params);
}

struct point384 {
    uint64_t x[6], y[6];
};

struct complex256 {
    uint64_t x[4], y[4];
};

__attribute__((noinline)) void ziskos_syscall_bls12_381_curve_dbl(struct point384 *p)
{
    ZISK_CALL(0x80D, p);
}

__attribute__((noinline)) void ziskos_syscall_bls12_381_curve_add(struct point384 *p,
                                                                  const struct point384 *q)
{
    const void *params[2] = {p, q};
    ZISK_CALL(0x80C, params);
}

/* The bn254 Fp2 call with CSR `csr` on f1, f2 (f1 = f1 op f2). */
#define COMPLEX_CALL(name, csr)                                                                    \
    __attribute__((noinline)) void name(struct complex256 *f1, const struct complex256 *f2)        \
    {                                                                                              \
        const void *params[2] = {f1, f2};                                                          \
        ZISK_CALL(csr, params);                                                                    \
    }
COMPLEX_CALL(ziskos_syscall_bn254_complex_add, 0x808)
COMPLEX_CALL(ziskos_syscall_bn254_complex_sub, 0x809)
COMPLEX_CALL(ziskos_syscall_bn254_complex_mul, 0x80A)

/* Mode 8 (see the top). */
__attribute__((noinline)) static void ziskos_curves_and_fp2(void)
{
    static struct point384 g, p, q;
    static struct complex256 f1, f2, f;
    uint64_t len;
    const uint8_t *in = item(1, &len);
    if (len != sizeof(g) + sizeof(f1) + sizeof(f2))
        return;
    memcpy(&g, in, sizeof(g));
    memcpy(&f1, in + sizeof(g), sizeof(f1));
    memcpy(&f2, in + sizeof(g) + sizeof(f1), sizeof(f2));
    p = g;
    ziskos_syscall_bls12_381_curve_dbl(&p);
    output_bytes(&p, sizeof(p));
    q = g;
    ziskos_syscall_bls12_381_curve_add(&q, &p);
    output_bytes(&q, sizeof(q));
    f = f1;
    ziskos_syscall_bn254_complex_add(&f, &f2);
    output_bytes(&f, sizeof(f));
    f = f1;
    ziskos_syscall_bn254_complex_sub(&f, &f2);
    output_bytes(&f, sizeof(f));
    f = f1;
    ziskos_syscall_bn254_complex_mul(&f, &f2);
    output_bytes(&f, sizeof(f));
}

/* arith384_mod: {a, b, c, module, d}, 6 u64 limbs each. */
__attribute__((noinline)) void ziskos_syscall_arith384_mod(const uint64_t *a, const uint64_t *b,
                                                           const uint64_t *c, const uint64_t *m,
                                                           uint64_t *d)
{
    const uint64_t *params[5] = {a, b, c, m, d};
    ZISK_CALL(0x80B, params);
}

/* add256: {a, b, cin, c}; the carry out comes back in rd (csrrs). */
__attribute__((noinline)) uint64_t ziskos_syscall_add256(const uint64_t *a, const uint64_t *b,
                                                         uint64_t cin, uint64_t *c)
{
    const uint64_t params[4] = {(uint64_t)a, (uint64_t)b, cin, (uint64_t)c};
    uint64_t cout;
    __asm__ volatile("csrrs %0, 0x811, %1" : "=r"(cout) : "r"(params) : "memory");
    return cout;
}

#ifdef ZISK_DMA_NUMBERING
#define SECP256R1_ADD 0x817
#define SECP256R1_DBL 0x818
#else
#define SECP256R1_ADD 0x815
#define SECP256R1_DBL 0x816
#endif
#define ZISK_CALL_AT(csr, p) ZISK_CALL(csr, p)

__attribute__((noinline)) void ziskos_syscall_secp256r1_dbl(struct point *p)
{
    ZISK_CALL_AT(SECP256R1_DBL, p);
}

__attribute__((noinline)) void ziskos_syscall_secp256r1_add(struct point *p, const struct point *q)
{
    const void *params[2] = {p, q};
    ZISK_CALL_AT(SECP256R1_ADD, params);
}

/* Mode 9 (see the top). */
__attribute__((noinline)) static void ziskos_arith384_add256_p256(void)
{
    static uint64_t w[4][6], d[6], sum[4];
    static struct point g, p, q;
    uint64_t len, glen;
    const uint8_t *in = item(1, &len), *gin = item(2, &glen);
    if (len != sizeof(w) || glen != sizeof(g))
        return;
    memcpy(w, in, sizeof(w));
    memcpy(&g, gin, sizeof(g));
    ziskos_syscall_arith384_mod(w[0], w[1], w[2], w[3], d);
    output_bytes(d, sizeof(d));
    uint64_t carry = ziskos_syscall_add256(w[0], w[1], 1, sum);
    output_bytes(sum, sizeof(sum));
    ziskos_set_output((uint32_t)carry);
    p = g;
    ziskos_syscall_secp256r1_dbl(&p);
    output_bytes(&p, sizeof(p));
    q = g;
    ziskos_syscall_secp256r1_add(&q, &p);
    output_bytes(&q, sizeof(q));
}

#ifdef ZISK_DMA_NUMBERING
#define BLAKE2B_ROUND 0x819
#else
#define BLAKE2B_ROUND 0x817
#endif

struct blake2b_round_params {
    uint64_t index;
    uint64_t *state;
    const uint64_t *input;
};

__attribute__((noinline)) void ziskos_syscall_blake2b_round(struct blake2b_round_params *params)
{
    ZISK_CALL_AT(BLAKE2B_ROUND, params);
}

/* ziskos's profile marker (v0.17.0+): csrs 0x81A, &name ; addi x0, x0, cmd. */
#ifdef ZISK_DMA_NUMBERING
#define ZISK_PROFILE(name, cmd)                                                                    \
    __asm__ volatile("csrs 0x81A, %0\n addi x0, x0, " #cmd : : "r"(name) : "memory")
#else
#define ZISK_PROFILE(name, cmd) ((void)(name))
#endif

/* BLAKE2b-512 of one block of n (at most 128) bytes: 12 rounds by the call, then the finalisation.
 */
static void ziskos_blake2b_one_block(const uint8_t *msg, uint64_t n, uint64_t digest[8])
{
    static const uint64_t iv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                   0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                   0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
    static uint64_t v[16], m[16];
    uint8_t *mb = (uint8_t *)m;
    for (int i = 0; i < 128; i++)
        mb[i] = (uint64_t)i < n ? msg[i] : 0;
    for (int i = 0; i < 8; i++) {
        digest[i] = iv[i] ^ (i == 0 ? 0x01010040 : 0);
        v[i] = digest[i];
        v[i + 8] = iv[i];
    }
    v[12] ^= n;
    v[14] = ~v[14];
    struct blake2b_round_params params = {0, v, m};
    for (params.index = 0; params.index < 12; params.index++)
        ziskos_syscall_blake2b_round(&params);
    for (int i = 0; i < 8; i++)
        digest[i] ^= v[i] ^ v[i + 8];
}

/* Mode 2 (see the top). */
__attribute__((noinline)) static void ziskos_poseidon2_blake2(void)
{
    static uint64_t state[16], digest[8];
    uint64_t len;
    const uint8_t *cells = item(1, &len), *msg = item(2, &len);
    for (int i = 0; i < 16; i++)
        state[i] = ((const uint64_t *)cells)[i];
    ZISK_CALL(0x812, state);
    output_bytes(state, sizeof(state));
    ZISK_PROFILE("blake2b", 1);
    ziskos_blake2b_one_block(msg, len, digest);
    ZISK_PROFILE("blake2b", 2);
    output_bytes(digest, sizeof(digest));
}

/* Free-input calls: parameters through csrs 0x8F0 + port, the call csrwi 0x8C0 + (id >> 5), id
 * & 31. */
#define FCALL_PARAM(port, v) __asm__ volatile("csrs " #port ", %0" : : "r"(v) : "memory")
#define FCALL(csr, id)       __asm__ volatile("csrwi " #csr ", " #id : : : "memory")

__attribute__((noinline)) uint64_t ziskos_fcall_get(void)
{
    uint64_t v;
    __asm__ volatile("csrr %0, 0xFFE" : "=r"(v) : : "memory");
    return v;
}

/* The next n result words, to the outputs. */
static void output_results(int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = ziskos_fcall_get();
        output_bytes(&v, sizeof(v));
    }
}

/*
 * A free call of one parameter block (port: 4 words 0x8F2, 8 0x8F3, 12
 * 0x8F4; ziskos pushes a 6-limb element as 8 words), its results to the
 * outputs.
 */
#define FCALL_OF(name, port, id, results)                                                          \
    __attribute__((noinline)) void name(const uint64_t *x)                                         \
    {                                                                                              \
        FCALL_PARAM(port, x);                                                                      \
        FCALL(0x8C0, id);                                                                          \
        output_results(results);                                                                   \
    }
FCALL_OF(ziskos_fcall_secp256k1_fp_inv, 0x8F2, 1, 4)
FCALL_OF(ziskos_fcall_secp256k1_fn_inv, 0x8F2, 2, 4)
FCALL_OF(ziskos_fcall_bn254_fp_inv, 0x8F2, 6, 4)
FCALL_OF(ziskos_fcall_bls12_381_fp_inv, 0x8F3, 10, 6)
FCALL_OF(ziskos_fcall_bn254_fp2_inv, 0x8F3, 7, 8)
FCALL_OF(ziskos_fcall_bls12_381_fp2_inv, 0x8F4, 12, 12)
FCALL_OF(ziskos_fcall_bls12_381_fp_sqrt, 0x8F3, 11, 7)

__attribute__((noinline)) void ziskos_fcall_secp256k1_fp_sqrt(const uint64_t x[4], uint64_t parity)
{
    FCALL_PARAM(0x8F2, x);
    FCALL_PARAM(0x8F0, parity);
    FCALL(0x8C0, 3);
    output_results(5);
}

/* Copies item i, which must be n bytes, to dst. */
static bool item_to(int i, void *dst, uint64_t n)
{
    uint64_t len;
    const uint8_t *in = item(i, &len);
    if (len != n)
        return false;
    memcpy(dst, in, n);
    return true;
}

/* Mode 10 (see the top). */
__attribute__((noinline)) static void ziskos_fcalls(void)
{
    static uint64_t x[4], y[4], z[8], f[8], g[12], s1[8], s2[8];
    if (!item_to(1, x, sizeof(x)) || !item_to(2, y, sizeof(y)) || !item_to(3, z, sizeof(z)) ||
        !item_to(4, f, sizeof(f)) || !item_to(5, g, sizeof(g)) || !item_to(6, s1, sizeof(s1)) ||
        !item_to(7, s2, sizeof(s2)))
        return;
    ziskos_fcall_secp256k1_fp_inv(x);
    ziskos_fcall_secp256k1_fn_inv(x);
    ziskos_fcall_secp256k1_fp_sqrt(x, 0);
    ziskos_fcall_secp256k1_fp_sqrt(x, 1);
    ziskos_fcall_bn254_fp_inv(x);
    ziskos_fcall_secp256k1_fp_sqrt(y, 0);
    ziskos_fcall_bls12_381_fp_inv(z);
    ziskos_fcall_bn254_fp2_inv(f);
    ziskos_fcall_bls12_381_fp2_inv(g);
    ziskos_fcall_bls12_381_fp_sqrt(s1);
    ziskos_fcall_bls12_381_fp_sqrt(s2);
}

static uint64_t counter = 40;

__attribute__((noinline)) static void ziskos_full_run(void)
{
    static uint64_t state[25];
    static uint32_t h[8];
    static uint8_t block[64], digest[32];
    static struct point p, q;
    static uint64_t words[4][4], lo[4], hi[4], d[4];
    memset(state, 0, sizeof(state));
    ziskos_syscall_keccak_f(state);
    output_bytes(state, sizeof(state));

    uint32_t w[16];
    memcpy(h, sha256_iv, sizeof(h));
    sha256_pad_block((const uint8_t *)"abc", 3, w);
    for (int i = 0; i < 64; i++)
        block[i] = (uint8_t)(w[i / 4] >> (24 - 8 * (i % 4)));
    ziskos_syscall_sha256_f(h, block);
    sha256_state_bytes(h, digest);
    output_bytes(digest, sizeof(digest));

    p = generator;
    ziskos_syscall_secp256k1_dbl(&p);
    output_bytes(&p, sizeof(p));
    q = generator;
    ziskos_syscall_secp256k1_add(&q, &p);
    output_bytes(&q, sizeof(q));

    uint64_t len;
    const uint8_t *nums = item(1, &len);
    if (len != sizeof(words))
        return;
    memcpy(words, nums, sizeof(words));
    ziskos_syscall_arith256(words[0], words[1], words[2], lo, hi);
    output_bytes(lo, sizeof(lo));
    output_bytes(hi, sizeof(hi));
    ziskos_syscall_arith256_mod(words[0], words[1], words[2], words[3], d);
    output_bytes(d, sizeof(d));

    uint64_t old;
    __asm__ volatile("amoadd.d %0, %2, (%1)" : "=r"(old) : "r"(&counter), "r"(2ul) : "memory");
    ziskos_set_output((uint32_t)old + (uint32_t)counter); /* 40 + 42 */
    uint64_t arch;
    __asm__ volatile("csrr %0, marchid" : "=r"(arch));
    ziskos_set_output((uint32_t)arch);
    ziskos_print("ok\n");
}

/*
 * ziskos's DMA functions, as its ziskos/entrypoint/src/dma/ files emit
 * them (named ziskos_*: zkvm_runtime.c has the plain memcpy and memset).
 * Later ziskos: memcpy.s (40e35b35), memmove.s and inputcpy.s (aacf0a73),
 * memcmp.s (38e3ebd7), memset.s (a857486a) with its table of 256 fill
 * bytes; `inputcpy`, under its own name, marks the later numbering.
 * Earlier ziskos: memcpy.s (adf7566d) and memcmp.s (3e166885), the count
 * in the csrs.
 */
#define DMA_FUNCTION(name, body)                                                                   \
    __asm__(".text\n.globl " #name "\n.p2align 4\n.type " #name ",@function\n" #name ":\n" body    \
            ".size " #name ", .-" #name "\n")
void *ziskos_memcpy(void *dst, const void *src, size_t n);
void *ziskos_memmove(void *dst, const void *src, size_t n);
long ziskos_memcmp(const void *a, const void *b, size_t n);
#ifdef ZISK_DMA_NUMBERING
DMA_FUNCTION(ziskos_memcpy, "csrs 0x813, a1\n add x0, a0, a2\n ret\n");
DMA_FUNCTION(ziskos_memmove, "csrs 0x813, a1\n add x0, a0, a2\n ret\n");
DMA_FUNCTION(ziskos_memcmp, "csrrs a0, 0x814, a1\n add x0, a0, a2\n ret\n");
DMA_FUNCTION(inputcpy, "csrs 0x815, a1\n add x0, a0, a2\n ret\n");
DMA_FUNCTION(ziskos_memset, "bnez a1, 1f\n csrs 0x816, a0\n addi x0, a2, 0\n ret\n"
                            "1: andi a1, a1, 0xff\n slli a1, a1, 4\n la t0, 2f\n add t0, t0, a1\n"
                            " jr t0\n.p2align 4\n2:\n.set fill, 0\n.rept 256\n"
                            " csrs 0x816, a0\n addi x0, a2, fill\n ret\n nop\n.set fill, fill + 1\n"
                            ".endr\n");
void inputcpy(void *dst, const void *src, size_t n);
void *ziskos_memset(void *dst, int c, size_t n);
#else
DMA_FUNCTION(ziskos_memcpy, "csrs 0x813, a2\n add x0, a0, a1\n ret\n");
DMA_FUNCTION(ziskos_memmove, "csrs 0x813, a2\n add x0, a0, a1\n ret\n");
DMA_FUNCTION(ziskos_memcmp, "csrs 0x814, a2\n add a0, a0, a1\n ret\n");
#endif

static uint8_t dma_in[64], dma_buf[64];

/* The results of a memcmp, as u64 words. */
static void output_u64(uint64_t v)
{
    output_bytes(&v, sizeof(v));
}

/* The calls both numberings have: copies, an overlapping move each way, compares. */
static void ziskos_dma_copies(void)
{
    ziskos_memcpy(dma_buf, dma_in, 64);
    output_bytes(dma_buf, 64);
    ziskos_memmove(dma_buf + 8, dma_buf, 40); /* forward, overlapping */
    output_bytes(dma_buf, 64);
    ziskos_memcpy(dma_buf, dma_in, 64);
    ziskos_memmove(dma_buf, dma_buf + 5, 40); /* backward, overlapping */
    output_bytes(dma_buf, 64);
    ziskos_memcpy(dma_buf, dma_in, 64);
    output_u64((uint64_t)ziskos_memcmp(dma_in, dma_buf, 64)); /* equal */
    dma_buf[10] ^= 0x80;
    output_u64((uint64_t)ziskos_memcmp(dma_in, dma_buf, 64));
    output_u64((uint64_t)ziskos_memcmp(dma_buf, dma_in, 64));
    output_u64((uint64_t)ziskos_memcmp(dma_in, dma_buf, 10)); /* up to the byte that differs */
}

#ifdef ZISK_DMA_NUMBERING
/* The forms ziskos's dma.rs macros emit: counts, fill bytes in addi markers. */
__attribute__((noinline)) static void ziskos_dma_macros(void)
{
    uint64_t res;
    memset(dma_buf, 0, sizeof(dma_buf));
    __asm__ volatile("csrs 0x813, %1\n addi x0, %0, 24"
                     :
                     : "r"(dma_buf + 5), "r"(dma_in + 3)
                     : "memory");
    output_bytes(dma_buf, 40);
    ziskos_memcpy(dma_buf, dma_in, 64);
    dma_buf[10] ^= 0x80;
    __asm__ volatile("csrs 0x814, %2\n addi %0, %1, 16"
                     : "=r"(res)
                     : "r"(dma_in), "r"(dma_buf)
                     : "memory");
    output_u64(res);
    __asm__ volatile("csrs 0x814, %2\n addi %0, %1, 8"
                     : "=r"(res)
                     : "r"(dma_in), "r"(dma_buf)
                     : "memory");
    output_u64(res);
    __asm__ volatile("csrs 0x814, %2\n add %0, %1, %3"
                     : "=&r"(res)
                     : "r"(dma_buf), "r"(dma_in), "r"(64ul)
                     : "memory");
    output_u64(res);
}

/* memset through memset.s (0 and a table byte), the csrsi form, and rd = the destination. */
__attribute__((noinline)) static void ziskos_dma_fills(void)
{
    uint64_t rd;
    for (int i = 0; i < 64; i++)
        dma_buf[i] = 0x11;
    ziskos_memset(dma_buf + 4, 0, 24);
    ziskos_memset(dma_buf + 30, 0xAB, 7);
    __asm__ volatile("csrsi 0x816, 2\n addi x0, %0, 9\n addi x0, %0, 0x5A"
                     :
                     : "r"(dma_buf + 40)
                     : "memory");
    __asm__ volatile("csrs 0x816, %1\n addi %0, %2, 0x77"
                     : "=r"(rd)
                     : "r"(dma_buf + 52), "r"(3ul)
                     : "memory");
    output_bytes(dma_buf, 64);
    ziskos_set_output(rd == (uint64_t)(dma_buf + 52));
}

/* inputcpy of free-call results: the whole answer, then two words and fcall_get for the rest. */
__attribute__((noinline)) static void ziskos_dma_inputcpy(const uint64_t *x)
{
    uint64_t r[4];
    FCALL_PARAM(0x8F2, x);
    FCALL(0x8C0, 1);
    inputcpy(r, NULL, 32);
    output_bytes(r, 32);
    FCALL_PARAM(0x8F2, x);
    FCALL(0x8C0, 1);
    __asm__ volatile("csrs 0x815, %0\n addi x0, %0, 16" : : "r"(r) : "memory");
    r[2] = ziskos_fcall_get();
    r[3] = ziskos_fcall_get();
    output_bytes(r, 32);
}
#endif

/* Mode 14 (see the top). */
__attribute__((noinline)) static void ziskos_dma(void)
{
    if (!item_to(1, dma_in, sizeof(dma_in)))
        return;
    ziskos_dma_copies();
#ifdef ZISK_DMA_NUMBERING
    static uint64_t x[4];
    if (!item_to(2, x, sizeof(x)))
        return;
    ziskos_dma_macros();
    ziskos_dma_fills();
    ziskos_dma_inputcpy(x);
#endif
}

/* Modes 15 to 19 (see the top): DMA calls ZisK would not run. */
__attribute__((noinline)) static void ziskos_dma_faults(int mode)
{
#ifdef ZISK_DMA_NUMBERING
    static uint64_t r[8] = {1}; /* x = 1 for mode 19's fcall: 0 has no inverse, ZisK panics */
#endif
    switch (mode) {
    case 15:
        __asm__ volatile("csrs 0x813, %1\n sub x0, %0, %2"
                         :
                         : "r"(dma_buf), "r"(dma_in), "r"(8ul)
                         : "memory");
        break;
    case 16: ziskos_memcpy((void *)0xBFFFFFF8ul, dma_in, 64); break;
    case 17: ziskos_memcpy(dma_buf, dma_in, ~0ul); break;
#ifdef ZISK_DMA_NUMBERING
    case 18: inputcpy(r, NULL, 8); break;
    case 19:
        FCALL_PARAM(0x8F2, r);
        FCALL(0x8C0, 1);
        inputcpy(r, NULL, 40);
        break;
    case 20:
        __asm__ volatile("csrs 0x816, %0\n addi x0, %1, 256" : : "r"(r), "r"(8ul) : "memory");
        break;
    case 21:
        __asm__ volatile("csrs 0x813, %1\n addi x0, %0, -8" : : "r"(r), "r"(dma_in) : "memory");
        break;
#endif
    }
}

__attribute__((noinline)) long ziskos_main(void)
{
    uint64_t len;
    const uint8_t *mode = item(0, &len);
    static struct point g;
    switch (len ? mode[0] : 0xff) {
    case 0: ziskos_full_run(); return 0;
    case 1: return 42;
    case 2: ziskos_poseidon2_blake2(); return 0;
    case 3: {
        register long a7 __asm__("a7") = 64;
        __asm__ volatile("ecall" : : "r"(a7));
        break;
    }
    case 4: *(volatile uint8_t *)INPUT_ADDR = 1; break;
    case 5:
        g = generator;
        ziskos_syscall_secp256k1_add(&g, &generator);
        break;
    case 6: FCALL(0x8C0, 5); break;
    case 7: return *(volatile uint8_t *)0xC0000000ul;
    case 8: ziskos_curves_and_fp2(); return 0;
    case 9: ziskos_arith384_add256_p256(); return 0;
    case 10: ziskos_fcalls(); return 0;
    case 11: return (long)ziskos_fcall_get();
    case 12:
        g = generator;
        ZISK_CALL(0x815, &g);
        return 0;
    case 13: ZISK_CALL(0x860, &g); break;
    case 14: ziskos_dma(); return 0;
    case 15:
    case 16:
    case 17:
    case 18:
    case 19:
    case 20:
    case 21: ziskos_dma_faults(mode[0]); break;
    }
    return 7;
}
