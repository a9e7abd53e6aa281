/*
 * poseidon2_goldilocks: Poseidon2 over Goldilocks, width 16, S-box x^7,
 * 4 + 4 full rounds and 22 partial rounds; the constants (DIAG, RC) are
 * those of ZisK's lib-c/c/src/poseidon2/poseidon2_goldilocks_constants.hpp
 * (the same at v0.16.0 aacf0a73, v0.17.0 b6327450 and v0.18.0 790f9e28).
 *
 * - External layer: each block of 4 cells times [[5,7,1,3],[4,6,1,1],
 *   [1,3,5,7],[1,1,4,6]] (lib-c's matmul_m4_), then each cell plus the sum
 *   of the blocks' cells at its position; applied once before the rounds.
 * - Internal layer: cell i = cell i * DIAG[i] + the sum of all cells.
 * - Rounds: 4 full (constant and S-box on every cell, external layer),
 *   22 partial (constant and S-box on cell 0, internal layer), 4 full.
 */
#include "executor/precompile/poseidon2_goldilocks.h"

enum { CELLS = 16, HALF_ROUNDS = 4, PARTIAL_ROUNDS = 22 };

static const uint64_t diag[CELLS] = {
    0xde9b91a467d6afc0ull, 0xc5f16b9c76a9be17ull, 0x0ab0fef2d540ac55ull, 0x3001d27009d05773ull,
    0xed23b1f906d3d9ebull, 0x5ce73743cba97054ull, 0x1c3bab944af4ba24ull, 0x2faa105854dbafaeull,
    0x53ffb3ae6d421a10ull, 0xbcda9df8884ba396ull, 0xfc1273e4a31807bbull, 0xc77952573d5142c0ull,
    0x56683339a819b85eull, 0x328fcbd8f0ddc8ebull, 0xb5101e303fce9cb7ull, 0x774487b8c40089bbull,
};

static const uint64_t rc[2 * HALF_ROUNDS * CELLS + PARTIAL_ROUNDS] = {
    0x15ebea3fc73397c3ull, 0xd73cd9fbfe8e275cull, 0x8c096bfce77f6c26ull, 0x4e128f68b53d8feaull,
    0x29b779a36b2763f6ull, 0xfe2adc6fb65acd08ull, 0x8d2520e725ad0955ull, 0x1c2392b214624d2aull,
    0x37482118206dcc6eull, 0x2f829bed19be019aull, 0x2fe298cb6f8159b0ull, 0x2bbad982deccdbbfull,
    0xbad568b8cc60a81eull, 0xb86a814265baad10ull, 0xbec2005513b3acb3ull, 0x6bf89b59a07c2a94ull,
    0xa25deeb835e230f5ull, 0x3c5bad8512b8b12aull, 0x7230f73c3cb7a4f2ull, 0xa70c87f095c74d0full,
    0x6b7606b830bb2e80ull, 0x6cd467cfc4f24274ull, 0xfeed794df42a9b0aull, 0x8cf7cf6163b7dbd3ull,
    0x9a6e9dda597175a0ull, 0xaa52295a684faf7bull, 0x017b811cc3589d8dull, 0x55bfb699b6181648ull,
    0xc2ccaf71501c2421ull, 0x1707950327596402ull, 0xdd2fcdcd42a8229full, 0x8b9d7d5b27778a21ull,
    0xac9a05525f9cf512ull, 0x2ba125c58627b5e8ull, 0xc74e91250a8147a5ull, 0xa3e64b640d5bb384ull,
    0xf53047d18d1f9292ull, 0xbaaeddacae3a6374ull, 0xf2d0914a808b3db1ull, 0x18af1a3742bfa3b0ull,
    0x9a621ef50c55bdb8ull, 0xc615f4d1cc5466f3ull, 0xb7fbac19a35cf793ull, 0xd2b1a15ba517e46dull,
    0x4a290c4d7fd26f6full, 0x4f0cf1bb1770c4c4ull, 0x548345386cd377f5ull, 0x33978d2789fddd42ull,
    0xab78c59deb77e211ull, 0xc485b2a933d2be7full, 0xbde3792c00c03c53ull, 0xab4cefe8f893d247ull,
    0xc5c0e752eab7f85full, 0xdbf5a76f893bafeaull, 0xa91f6003e3d984deull, 0x099539077f311e87ull,
    0x097ec52232f9559eull, 0x53641bdf8991e48cull, 0x2afe9711d5ed9d7cull, 0xa7b13d3661b5d117ull,
    0x5a0e243fe7af6556ull, 0x1076fae8932d5f00ull, 0x9b53a83d434934e3ull, 0xed3fd595a3c0344aull,
    0x28eff4b01103d100ull, 0x60400ca3e2685a45ull, 0x1c8636beb3389b84ull, 0xac1332b60e13eff0ull,
    0x2adafcc364e20f87ull, 0x79ffc2b14054ea0bull, 0x3f98e4c0908f0a05ull, 0xcdb230bc4e8a06c4ull,
    0x1bcaf7705b152a74ull, 0xd9bca249a82a7470ull, 0x91e24af19bf82551ull, 0xa62b43ba5cb78858ull,
    0xb4898117472e797full, 0xb3228bca606cdaa0ull, 0x844461051bca39c9ull, 0xf3411581f6617d68ull,
    0xf7fd50646782b533ull, 0x6ca664253c18fb48ull, 0x2d2fcdec0886a08full, 0x29da00dd799b575eull,
    0x47d966cc3b6e1e93ull, 0xde884e9a17ced59eull, 0xdacf46dc1c31a045ull, 0x5d2e3c121eb387f2ull,
    0x51f8b0658b124499ull, 0x1e7dbd1daa72167dull, 0x8275015a25c55b88ull, 0xe8521c24ac7a70b3ull,
    0x6521d121c40b3f67ull, 0xac12de797de135b0ull, 0xafa28ead79f6ed6aull, 0x685174a7a8d26f0bull,
    0xeff92a08d35d9874ull, 0x3058734b76dd123aull, 0xfa55dcfba429f79cull, 0x559294d4324c7728ull,
    0x7a770f53012dc178ull, 0xedd8f7c408f3883bull, 0x39b533cf8d795fa5ull, 0x160ef9de243a8c0aull,
    0x431d52da6215fe3full, 0x54c51a2a2ef6d528ull, 0x9b13892b46ff9d16ull, 0x263c46fcee210289ull,
    0xb738c96d25aabdc4ull, 0x5c33a5203996d38full, 0x2626496e7c98d8ddull, 0xc669e0a52785903aull,
    0xaecde726c8ae1f47ull, 0x039343ef3a81e999ull, 0x2615ceaf044a54f9ull, 0x7e41e834662b66e1ull,
    0x4ca5fd4895335783ull, 0x64b334d02916f2b0ull, 0x87268837389a6981ull, 0x034b75bcb20a6274ull,
    0x58e658296cc2cd6eull, 0xe2d0f759acc31df4ull, 0x81a652e435093e20ull, 0x0b72b6e0172eaf47ull,
    0x4aec43cec577d66dull, 0xde78365b028a84e6ull, 0x444e19569adc0ee4ull, 0x942b2451fa40d1daull,
    0xe24506623ea5bd6cull, 0x082854bf2ef7c743ull, 0x69dbbc566f59d62eull, 0x248c38d02a7b5cb2ull,
    0x4f4e8f8c09d15edbull, 0xd96682f188d310cfull, 0x6f9a25d56818b54cull, 0xb6cefed606546cd9ull,
    0x5bc07523da38a67bull, 0x7df5a3c35b8111cfull, 0xaaa2cc5d4db34bb0ull, 0x9e673ff22a4653f8ull,
    0xbd8b278d60739c62ull, 0xe10d20f6925b8815ull, 0xf6c87b91dd4da2bfull, 0xfed623e2f71b6f1aull,
    0xa0f02fa52a94d0d3ull, 0xbb5794711b39fa16ull, 0xd3b94fba9d005c7full, 0x15a26e89fad946c9ull,
    0xf3cb87db8a67cf49ull, 0x400d2bf56aa2a577ull,
};

static uint64_t add(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a + b) % GOLDILOCKS_P);
}

static uint64_t mul(uint64_t a, uint64_t b)
{
    return (uint64_t)((unsigned __int128)a * b % GOLDILOCKS_P);
}

static uint64_t pow7(uint64_t x)
{
    uint64_t x2 = mul(x, x), x4 = mul(x2, x2);
    return mul(mul(x4, x2), x);
}

/* The 4x4 block of the external layer, as lib-c's matmul_m4_ computes it. */
static void matmul_m4(uint64_t *x)
{
    uint64_t t0 = add(x[0], x[1]), t1 = add(x[2], x[3]);
    uint64_t t2 = add(add(x[1], x[1]), t1), t3 = add(add(x[3], x[3]), t0);
    uint64_t t1_2 = add(t1, t1), t0_2 = add(t0, t0);
    uint64_t t4 = add(add(t1_2, t1_2), t3), t5 = add(add(t0_2, t0_2), t2);
    x[0] = add(t3, t5);
    x[1] = t5;
    x[2] = add(t2, t4);
    x[3] = t4;
}

static void external_layer(uint64_t *x)
{
    uint64_t stored[4] = {0, 0, 0, 0};
    for (int i = 0; i < CELLS; i += 4)
        matmul_m4(x + i);
    for (int i = 0; i < CELLS; i++)
        stored[i % 4] = add(stored[i % 4], x[i]);
    for (int i = 0; i < CELLS; i++)
        x[i] = add(x[i], stored[i % 4]);
}

static void internal_layer(uint64_t *x)
{
    uint64_t sum = 0;
    for (int i = 0; i < CELLS; i++)
        sum = add(sum, x[i]);
    for (int i = 0; i < CELLS; i++)
        x[i] = add(mul(x[i], diag[i]), sum);
}

static void full_round(uint64_t *x, const uint64_t *c)
{
    for (int i = 0; i < CELLS; i++)
        x[i] = pow7(add(x[i], c[i]));
    external_layer(x);
}

void poseidon2_goldilocks16(uint64_t state[16])
{
    for (int i = 0; i < CELLS; i++)
        state[i] %= GOLDILOCKS_P;
    external_layer(state);
    for (int r = 0; r < HALF_ROUNDS; r++)
        full_round(state, rc + CELLS * r);
    for (int r = 0; r < PARTIAL_ROUNDS; r++) {
        state[0] = pow7(add(state[0], rc[HALF_ROUNDS * CELLS + r]));
        internal_layer(state);
    }
    for (int r = 0; r < HALF_ROUNDS; r++)
        full_round(state, rc + HALF_ROUNDS * CELLS + PARTIAL_ROUNDS + CELLS * r);
}
