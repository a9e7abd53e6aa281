/*
 * saverestore.c: small functions calling each other a few levels deep,
 * built with -Os -msave-restore (see CMakeLists.txt): gcc then saves and
 * restores ra and the s registers through libgcc's millicode, prologues
 * `call t0, __riscv_save_N` (jal t0: a CALL with t0 as the link register,
 * left by `jr t0`: a RETURN) and epilogues `tail __riscv_restore_N` (a
 * tail call: the function's frame becomes the millicode's, which returns
 * with `ret`). For the flamegraph's t0-link and tail-call rules
 * (docs/CONTRACT.md#how-the-stack-moves): a leaked frame would make every later stack deeper.
 *
 * The call chain is main -> walk -> step -> mix -> leaf (noipa: no
 * inlining or cloning, so these are real calls under these names), run
 * `rounds` times (private input, default 20). Output through a raw write
 * ecall, not stdio, so that the deepest stacks are this program's own.
 */
#include <stdint.h>

#include "guest.h"

__attribute__((noipa)) uint32_t leaf(uint32_t x)
{
    return (x ^ (x >> 7)) * 2246822519u;
}

/* Keeps a, b and t live across calls: s registers, saved by millicode. */
__attribute__((noipa)) uint32_t mix(uint32_t a, uint32_t b)
{
    uint32_t t = leaf(a);
    uint32_t u = leaf(b + t);
    return t ^ u ^ a ^ b;
}

__attribute__((noipa)) uint32_t step(uint32_t x, uint32_t i)
{
    uint32_t m = mix(x, i);
    uint32_t n = mix(m, x + i);
    return leaf(m + n) + i;
}

__attribute__((noipa)) uint32_t walk(uint32_t seed, uint32_t len)
{
    uint32_t h = seed;
    for (uint32_t i = 0; i < len; i++)
        h = step(h, i);
    return h;
}

static void put_hex(char *p, uint32_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 4)
        p[i] = "0123456789abcdef"[v & 15];
}

int main(void)
{
    uint64_t rounds = guest_input_u64(20);
    if (rounds > 100000)
        rounds = 100000;
    uint32_t h = 0;
    for (uint32_t r = 0; r < (uint32_t)rounds; r++)
        h = walk(h + r, 5);
    char line[] = "saverestore: xxxxxxxx\n";
    put_hex(line + 13, h);
    guest_ecall3(GUEST_SYS_WRITE, 1, (long)line, (long)(sizeof(line) - 1));
    return 0;
}
