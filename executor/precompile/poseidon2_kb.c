/*
 * poseidon2_kb: Poseidon2 over KoalaBear on 16 cells, as SP1 v6 computes
 * it (sp1-primitives poseidon2_init = slop-koala-bear my_kb_16_perm: the
 * Poseidon2 of SP1's Plonky3 fork with Poseidon2ExternalMatrixGeneral and
 * DiffusionMatrixKoalaBear).
 *
 * - External layer: each block of 4 cells times [[2,3,1,1],[1,2,3,1],
 *   [1,1,2,3],[3,1,1,2]], then each cell plus the sum of the blocks'
 *   cells at its position; applied once before the first round too.
 * - Internal layer: DiffusionMatrixKoalaBear works on Montgomery forms
 *   with shifts, so its matrix is 2^-32 (J + diag(-2, 1, 2, 4, ..., 2^13,
 *   2^15)), J all ones.
 * - Rounds: half the full rounds (constants on every cell, S-box on every
 *   cell, external layer), the partial rounds (constant and S-box on cell
 *   0, internal layer), the other half of the full rounds.
 */
#include "executor/precompile/poseidon2_kb.h"

enum { CELLS = POSEIDON2_KB_CELLS };

static uint32_t add(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a + b) % KOALABEAR_P);
}

static uint32_t mul(uint32_t a, uint32_t b)
{
    return (uint32_t)((uint64_t)a * b % KOALABEAR_P);
}

static uint32_t power(uint32_t x, unsigned e)
{
    uint32_t r = 1;
    for (; e; e >>= 1, x = mul(x, x))
        if (e & 1)
            r = mul(r, x);
    return r;
}

/* The 4x4 block [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] (Plonky3's MDSMat4). */
static void block4(uint32_t x[4])
{
    uint32_t t01 = add(x[0], x[1]), t23 = add(x[2], x[3]), t0123 = add(t01, t23);
    uint32_t t01123 = add(t0123, x[1]), t01233 = add(t0123, x[3]);
    uint32_t y0 = add(t01123, t01), y1 = add(t01123, add(x[2], x[2]));
    uint32_t y2 = add(t01233, t23), y3 = add(t01233, add(x[0], x[0]));
    x[0] = y0, x[1] = y1, x[2] = y2, x[3] = y3;
}

static void external_layer(uint32_t c[CELLS])
{
    uint32_t sums[4] = {0};
    for (int i = 0; i < CELLS; i += 4) {
        block4(c + i);
        for (int j = 0; j < 4; j++)
            sums[j] = add(sums[j], c[i + j]);
    }
    for (int i = 0; i < CELLS; i++)
        c[i] = add(c[i], sums[i % 4]);
}

static void internal_layer(uint32_t c[CELLS])
{
    /* 2^-32 mod p, and the diagonal's shifts for cells 1..15 (cell 0's entry is -2) */
    static const uint32_t inv_monty = 0x3f010000u;
    static const unsigned shift[CELLS] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15};
    uint32_t sum = 0;
    for (int i = 0; i < CELLS; i++)
        sum = add(sum, c[i]);
    c[0] = mul(inv_monty, add(sum, KOALABEAR_P - add(c[0], c[0])));
    for (int i = 1; i < CELLS; i++)
        c[i] = mul(inv_monty, add(sum, mul(1u << shift[i], c[i])));
}

/* Plonky3's Monty-31 internal layer: each cell becomes the sum of all plus diag[i] times itself. */
static void internal_layer_diag(const uint32_t diag[CELLS], uint32_t c[CELLS])
{
    uint32_t sum = 0;
    for (int i = 0; i < CELLS; i++)
        sum = add(sum, c[i]);
    for (int i = 0; i < CELLS; i++)
        c[i] = add(sum, mul(diag[i], c[i]));
}

static void full_round(const struct poseidon2_kb_params *prm, uint32_t c[CELLS], unsigned r)
{
    for (int i = 0; i < CELLS; i++)
        c[i] = power(add(c[i], prm->external[r][i]), prm->degree);
    external_layer(c);
}

void poseidon2_kb_permute(const struct poseidon2_kb_params *prm, uint32_t cells[CELLS])
{
    unsigned half = prm->rounds_f / 2;
    external_layer(cells);
    for (unsigned r = 0; r < half; r++)
        full_round(prm, cells, r);
    for (unsigned r = 0; r < prm->rounds_p; r++) {
        cells[0] = power(add(cells[0], prm->internal[r]), prm->degree);
        if (prm->diag)
            internal_layer_diag(prm->diag, cells);
        else
            internal_layer(cells);
    }
    for (unsigned r = half; r < prm->rounds_f; r++)
        full_round(prm, cells, r);
}

/* slop-koala-bear's RC16: rows 0-3 and 24-27 full, rows 4-23 partial (their first entry). */
static const uint32_t sp1_external[8][CELLS] = {
    {0x7ee56a48, 0x11367045, 0x12e41941, 0x7ebbc12b, 0x1970b7d5, 0x662b60e8, 0x3e4990c6, 0x679f91f5,
     0x350813bb, 0x00874ad4, 0x28a0081a, 0x18fa5872, 0x5f25b071, 0x5e5d5998, 0x5e6fd3e7,
     0x5b2e2660},
    {0x6f1837bf, 0x3fe6182b, 0x1edd7ac5, 0x57470d00, 0x43d486d5, 0x1982c70f, 0x0ea53af9, 0x61d6165b,
     0x51639c00, 0x2dec352c, 0x2950e531, 0x2d2cb947, 0x08256cef, 0x1a0109f6, 0x1f51faf3,
     0x5cef1c62},
    {0x3d65e50e, 0x33d91626, 0x133d5a1e, 0x0ff49b0d, 0x38900cd1, 0x2c22cc3f, 0x28852bb2, 0x06c65a02,
     0x7b2cf7bc, 0x68016e1a, 0x15e16bc0, 0x5248149a, 0x6dd212a0, 0x18d6830a, 0x5001be82,
     0x64dac34e},
    {0x5902b287, 0x426583a0, 0x0c921632, 0x3fe028a5, 0x245f8e49, 0x43bb297e, 0x7873dbd9, 0x3cc987df,
     0x286bb4ce, 0x640a8dcd, 0x512a8e36, 0x03a4cf55, 0x481837a2, 0x03d6da84, 0x73726ac7,
     0x760e7fdf},
    {0x43e7dc24, 0x259a5d61, 0x27e85a3b, 0x1b9133fa, 0x343e5628, 0x485cd4c2, 0x16e269f5, 0x165b60c6,
     0x25f683d9, 0x124f81f9, 0x174331f9, 0x77344dc5, 0x5a821dba, 0x5fc4177f, 0x54153bf5,
     0x5e3f1194},
    {0x3bdbf191, 0x088c84a3, 0x68256c9b, 0x3c90bbc6, 0x6846166a, 0x03f4238d, 0x463335fb, 0x5e3d3551,
     0x6e59ae6f, 0x32d06cc0, 0x596293f3, 0x6c87edb2, 0x08fc60b5, 0x34bcca80, 0x24f007f3,
     0x62731c6f},
    {0x1e1db6c6, 0x0ca409bb, 0x585c1e78, 0x56e94edc, 0x16d22734, 0x18e11467, 0x7b2c3730, 0x770075e4,
     0x35d1b18c, 0x22be3db5, 0x4fb1fbb7, 0x477cb3ed, 0x7d5311c6, 0x5b62ae7d, 0x559c5fa8,
     0x77f15048},
    {0x3211570b, 0x490fef6a, 0x77ec311f, 0x2247171b, 0x4e0ac711, 0x2edf69c9, 0x3b5a8850, 0x65809421,
     0x5619b4aa, 0x362019a7, 0x6bf9d4ed, 0x5b413dff, 0x617e181e, 0x5e7ab57b, 0x33ad7833,
     0x3466c7ca},
};

static const uint32_t sp1_internal[20] = {
    0x54dfeb5d, 0x7d40afd6, 0x722cb316, 0x106a4573, 0x45a7ccdb, 0x44061375, 0x154077a5,
    0x45744faa, 0x4eb5e5ee, 0x3794e83f, 0x47c7093c, 0x5694903c, 0x69cb6299, 0x373df84c,
    0x46a0df58, 0x46b8758a, 0x3241ebcb, 0x0b09d233, 0x1af42357, 0x1e66cec2,
};

const struct poseidon2_kb_params poseidon2_kb_sp1 = {
    .degree = 3,
    .rounds_f = 8,
    .rounds_p = 20,
    .external = sp1_external,
    .internal = sp1_internal,
};

/*
 * Pico's RC_16_30_U32 (vm/src/primitives/mod.rs, the same from v1.0.0 to
 * v1.3.0) reduced mod p (KoalaBear::from_wrapped_u32): rows 0-3 and 24-27
 * full, rows 4-23 partial (their first entry), as pico_poseidon2kb_init
 * splits them.
 */
static const uint32_t pico_external[8][CELLS] = {
    {0x7dc44305, 0x6d548efc, 0x0392dc75, 0x23e63782, 0x263157ef, 0x4be360ff, 0x664898b9, 0x5fc45609,
     0x611b1d07, 0x57619f03, 0x594e6152, 0x2a89b835, 0x36585060, 0x756a60ff, 0x75f8c795,
     0x6af37c2d},
    {0x5df22fef, 0x2d3f4a46, 0x3dcebd25, 0x43761839, 0x406b02dc, 0x74319b3c, 0x3542fef1, 0x7861d4bd,
     0x3b7ab78b, 0x229bded7, 0x445c8423, 0x323e1dc8, 0x20b73dec, 0x58162cd9, 0x56200eab,
     0x04e090d2},
    {0x01a64335, 0x5d37bc66, 0x55d50d1d, 0x0afe6861, 0x1be445df, 0x533f25f2, 0x5dedfd22, 0x45eccd58,
     0x082c5e5c, 0x2d9920e4, 0x25c5205b, 0x79766963, 0x1a62d003, 0x70fe8a27, 0x2046e05f,
     0x6a4c434f},
    {0x1e7787e3, 0x35f1c46d, 0x5bea6ca5, 0x0ea49b8f, 0x78ba12d0, 0x0c0451e9, 0x110f53bf, 0x74fd7aea,
     0x172d9ed5, 0x389fbfdd, 0x25a0cda7, 0x4a29c2b8, 0x241f68b7, 0x3eb4c55e, 0x045a0296,
     0x1a50b878},
    {0x0da7b7b4, 0x27e8242a, 0x346e672a, 0x3dc012cb, 0x4820d3e8, 0x3cb52e12, 0x27dc7e90, 0x582d8f19,
     0x5b8dd597, 0x1565cfbe, 0x2290a271, 0x4d925f9f, 0x5918fb20, 0x0be02f19, 0x72e4ce6c,
     0x1b62c509},
    {0x64a4ef32, 0x5e381397, 0x12ac32cc, 0x04810464, 0x26b490f4, 0x1daf625c, 0x303eba0a, 0x7812d62a,
     0x55eca2f8, 0x26ad71d4, 0x417d1de9, 0x54ee7555, 0x0595e482, 0x4218cf42, 0x5a55b431,
     0x6b8e2d07},
    {0x30e0eafb, 0x530d630a, 0x1fe529ce, 0x06064a82, 0x2813a8b2, 0x7275b04b, 0x72089277, 0x78f81f5c,
     0x1db7810b, 0x16e8420c, 0x761d0848, 0x3babda84, 0x0cf0dcd4, 0x0561bb09, 0x69a432e1,
     0x1ac7111e},
    {0x544b5a38, 0x0d762893, 0x37fdbce5, 0x05b366a9, 0x4df47209, 0x46762dbc, 0x24b52017, 0x6f186165,
     0x2fe5b139, 0x4f59931a, 0x2e08a886, 0x5856ef92, 0x69a2a252, 0x67cf3f6b, 0x5b383b20,
     0x05050d3f},
};
static const uint32_t pico_internal[20] = {
    0x47556cf2, 0x0226080a, 0x51eebefe, 0x6828f3eb, 0x2dabd7e2, 0x6240a1de, 0x5492eac7,
    0x4cb52e36, 0x333d6416, 0x5c4796ba, 0x06411997, 0x03a5e397, 0x598d4abe, 0x07c26dfd,
    0x46179d28, 0x5d3bf2f1, 0x4574c574, 0x45cb3782, 0x2f378bf9, 0x7b333a44,
};

/*
 * [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/8, 1/2^24, -1/2^8, -1/8,
 * -1/16, -1/2^24] (POSEIDON2_INTERNAL_MATRIX_DIAG_16_KOALABEAR_MONTY in
 * vm/src/primitives/consts.rs at v1.0.0, as canonical values; Plonky3's
 * KoalaBear diagonal, which v1.1.0 on take from p3-koala-bear).
 */
static const uint32_t pico_diag[CELLS] = {
    KOALABEAR_P - 2,
    1,
    2,
    (KOALABEAR_P + 1) >> 1,
    3,
    4,
    (KOALABEAR_P - 1) >> 1,
    KOALABEAR_P - 3,
    KOALABEAR_P - 4,
    KOALABEAR_P - ((KOALABEAR_P - 1) >> 8),
    KOALABEAR_P - ((KOALABEAR_P - 1) >> 3),
    KOALABEAR_P - 127,
    (KOALABEAR_P - 1) >> 8,
    (KOALABEAR_P - 1) >> 3,
    (KOALABEAR_P - 1) >> 4,
    127,
};

const struct poseidon2_kb_params poseidon2_kb_pico = {
    .degree = 3,
    .rounds_f = 8,
    .rounds_p = 20,
    .external = pico_external,
    .internal = pico_internal,
    .diag = pico_diag,
};

const struct poseidon2_kb_params poseidon2_kb_pico_v1_0 = {
    .degree = 7,
    .rounds_f = 8,
    .rounds_p = 20,
    .external = pico_external,
    .internal = pico_internal,
    .diag = pico_diag,
};

bool poseidon2_kb_sp1_permute(uint32_t cells[CELLS])
{
    for (int i = 0; i < CELLS; i++)
        if (cells[i] >= KOALABEAR_P)
            return false;
    poseidon2_kb_permute(&poseidon2_kb_sp1, cells);
    return true;
}
