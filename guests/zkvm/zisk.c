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
 *   2  poseidon2, a precompile not implemented here
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

/* Later ziskos's input copy by DMA (its dma/inputcpy.s), the mark of its numbering. */
__attribute__((noinline)) void inputcpy(void *dst, const void *src, size_t n)
{
    __asm__ volatile("csrs 0x815, %1\n add x0, %0, %2" : : "r"(dst), "r"(src), "r"(n) : "memory");
}
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

__attribute__((noinline)) long ziskos_main(void)
{
    uint64_t len;
    const uint8_t *mode = item(0, &len);
    static struct point g;
    switch (len ? mode[0] : 0xff) {
    case 0: ziskos_full_run(); return 0;
    case 1: return 42;
    case 2: ZISK_CALL(0x812, &g); break;
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
    }
    return 7;
}
