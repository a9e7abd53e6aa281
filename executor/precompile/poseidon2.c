/*
 * poseidon2: RISC Zero's Poseidon2 permutation over BabyBear
 * (p = 15 * 2^27 + 1): 24 cells, 4 + 4 full rounds and 21 partial ones,
 * x^7 S-box, the external matrix from 4x4 circulant blocks and the
 * internal one as all ones plus a diagonal. The constants are RISC Zero's
 * (risc0-zkp core/hash/poseidon2/consts.rs: ROUND_CONSTANTS with the
 * partial rounds' zero columns left out, M_INT_DIAG_HZN).
 */
#include "executor/precompile/poseidon2.h"

enum { HALF_FULL = 4, PARTIAL = 21 };

static const uint32_t full_first[HALF_FULL * POSEIDON2_CELLS] = {
    0x0fa20c37, 0x0795bb97, 0x12c60b9c, 0x0eabd88e, 0x096485ca, 0x07093527, 0x1b1d4e50, 0x30a01ace,
    0x3bd86f5a, 0x69af7c28, 0x3f94775f, 0x731560e8, 0x465a0ecd, 0x574ef807, 0x62fd4870, 0x52ccfe44,
    0x14772b14, 0x4dedf371, 0x260acd7c, 0x1f51dc58, 0x75125532, 0x686a4d7b, 0x54bac179, 0x31947706,
    0x29799d3b, 0x6e01ae90, 0x203a7a64, 0x4f7e25be, 0x72503f77, 0x45bd3b69, 0x769bd6b4, 0x5a867f08,
    0x4fdba082, 0x251c4318, 0x28f06201, 0x6788c43a, 0x4c6d6a99, 0x357784a8, 0x2abaf051, 0x770f7de6,
    0x1794b784, 0x4796c57a, 0x724b7a10, 0x449989a7, 0x64935cf1, 0x59e14aac, 0x0e620bb8, 0x3af5a33b,
    0x4465cc0e, 0x019df68f, 0x4af8d068, 0x08784f82, 0x0cefdeae, 0x6337a467, 0x32fa7a16, 0x486f62d6,
    0x386a7480, 0x20f17c4a, 0x54e50da8, 0x2012cf03, 0x5fe52950, 0x09afb6cd, 0x2523044e, 0x5c54d0ef,
    0x71c01f3c, 0x60b2c4fb, 0x4050b379, 0x5e6a70a5, 0x418543f5, 0x71debe56, 0x1aad2994, 0x3368a483,
    0x07a86f3a, 0x5ea43ff1, 0x2443780e, 0x4ce444f7, 0x146f9882, 0x3132b089, 0x197ea856, 0x667030c3,
    0x2317d5dc, 0x0c2c48a7, 0x56b2df66, 0x67bd81e9, 0x4fcdfb19, 0x4baaef32, 0x0328d30a, 0x6235760d,
    0x12432912, 0x0a49e258, 0x030e1b70, 0x48caeb03, 0x49e4d9e9, 0x1051b5c6, 0x6a36dbbe, 0x4cff27a5,
};

static const uint32_t partial_rc[PARTIAL] = {
    0x1da78ec2, 0x730b0924, 0x3eb56cf3, 0x5bd93073, 0x37204c97, 0x51642d89, 0x66e943e8,
    0x1a3e72de, 0x70beb1e9, 0x30ff3b3f, 0x4240d1c4, 0x12647b8d, 0x65d86965, 0x49ef4d7c,
    0x47785697, 0x46b3969f, 0x5c7b7a0e, 0x7078fc60, 0x4f22d482, 0x482a9aee, 0x6beb839d,
};

static const uint32_t full_last[HALF_FULL * POSEIDON2_CELLS] = {
    0x032959ad, 0x2b18af6a, 0x55d3dc8c, 0x43bd26c8, 0x0c41595f, 0x7048d2e2, 0x00db8983, 0x2af563d7,
    0x6e84758f, 0x611d64e1, 0x1f9977e2, 0x64163a0a, 0x5c5fc27b, 0x02e22561, 0x3a2d75db, 0x1ba7b71a,
    0x34343f64, 0x7406b35d, 0x19df8299, 0x6ff4480a, 0x514a81c8, 0x57ab52ce, 0x6ad69f52, 0x3e0c0e0d,
    0x48126114, 0x2a9d62cc, 0x17441f23, 0x485762bb, 0x2f218674, 0x06fdc64a, 0x0861b7f2, 0x3b36eee6,
    0x70a11040, 0x04b31737, 0x3722a872, 0x2a351c63, 0x623560dc, 0x62584ab2, 0x382c7c04, 0x3bf9edc7,
    0x0e38fe51, 0x376f3b10, 0x5381e178, 0x3afc61c7, 0x5c1bcb4d, 0x6643ce1f, 0x2d0af1c1, 0x08f583cc,
    0x5d6ff60f, 0x6324c1e5, 0x74412fb7, 0x70c0192e, 0x0b72f141, 0x4067a111, 0x57388c4f, 0x351009ec,
    0x0974c159, 0x539a58b3, 0x038c0cff, 0x476c0392, 0x3f7bc15f, 0x4491dd2c, 0x4d1fef55, 0x04936ae3,
    0x58214dd4, 0x683c6aad, 0x1b42f16b, 0x6dc79135, 0x2d4e71ec, 0x3e2946ea, 0x59dce8db, 0x6cee892a,
    0x47f07350, 0x7106ce93, 0x3bd4a7a9, 0x2bfe636a, 0x430011e9, 0x001cd66a, 0x307faf5b, 0x0d9ef3fe,
    0x6d40043a, 0x2e8f470c, 0x1b6865e8, 0x0c0e6c01, 0x4d41981f, 0x423b9d3d, 0x410408cc, 0x263f0884,
    0x5311bbd0, 0x4dae58d8, 0x30401cea, 0x09afa575, 0x4b3d5b42, 0x63ac0b37, 0x5fe5bb14, 0x5244e9d4,
};

static const uint32_t m_int_diag[POSEIDON2_CELLS] = {
    0x409133f0, 0x1667a8a1, 0x06a6c7b6, 0x6f53160e, 0x273b11d1, 0x03176c5d, 0x72f9bbf9, 0x73ceba91,
    0x5cdef81d, 0x01393285, 0x46daee06, 0x065d7ba6, 0x52d72d6f, 0x05dd05e0, 0x3bab4b63, 0x6ada3842,
    0x2fc5fbec, 0x770d61b0, 0x5715aae9, 0x03ef0e90, 0x75b6c770, 0x242adf5f, 0x00d0ca4c, 0x36c0e388,
};

static uint32_t add(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a + b) % POSEIDON2_P);
}

static uint32_t mul(uint32_t a, uint32_t b)
{
    return (uint32_t)((uint64_t)a * b % POSEIDON2_P);
}

static uint32_t sbox(uint32_t x)
{
    uint32_t x2 = mul(x, x), x4 = mul(x2, x2);
    return mul(mul(x4, x2), x);
}

/* The 4x4 circulant block of the external matrix (appendix B of the Poseidon2 paper). */
static void circulant4(const uint32_t x[4], uint32_t out[4])
{
    uint32_t t0 = add(x[0], x[1]), t1 = add(x[2], x[3]);
    uint32_t t2 = add(add(x[1], x[1]), t1), t3 = add(add(x[3], x[3]), t0);
    uint32_t t4 = add(mul(4, t1), t3), t5 = add(mul(4, t0), t2);
    out[0] = add(t3, t5);
    out[1] = t5;
    out[2] = add(t2, t4);
    out[3] = t4;
}

/* Each cell gets its own block's product plus the sum of all blocks' products. */
static void multiply_by_m_ext(uint32_t c[POSEIDON2_CELLS])
{
    uint32_t blocks[POSEIDON2_CELLS], sums[4] = {0};
    for (int i = 0; i < POSEIDON2_CELLS; i += 4) {
        circulant4(c + i, blocks + i);
        for (int j = 0; j < 4; j++)
            sums[j] = add(sums[j], blocks[i + j]);
    }
    for (int i = 0; i < POSEIDON2_CELLS; i++)
        c[i] = add(blocks[i], sums[i % 4]);
}

static void multiply_by_m_int(uint32_t c[POSEIDON2_CELLS])
{
    uint32_t sum = 0;
    for (int i = 0; i < POSEIDON2_CELLS; i++)
        sum = add(sum, c[i]);
    for (int i = 0; i < POSEIDON2_CELLS; i++)
        c[i] = add(sum, mul(m_int_diag[i], c[i]));
}

static void full_round(uint32_t c[POSEIDON2_CELLS], const uint32_t *rc)
{
    for (int i = 0; i < POSEIDON2_CELLS; i++)
        c[i] = sbox(add(c[i], rc[i]));
    multiply_by_m_ext(c);
}

void poseidon2_mix(uint32_t cells[POSEIDON2_CELLS])
{
    for (int i = 0; i < POSEIDON2_CELLS; i++)
        cells[i] %= POSEIDON2_P;
    multiply_by_m_ext(cells);
    for (int r = 0; r < HALF_FULL; r++)
        full_round(cells, full_first + r * POSEIDON2_CELLS);
    for (int r = 0; r < PARTIAL; r++) {
        cells[0] = sbox(add(cells[0], partial_rc[r]));
        multiply_by_m_int(cells);
    }
    for (int r = 0; r < HALF_FULL; r++)
        full_round(cells, full_last + r * POSEIDON2_CELLS);
}
