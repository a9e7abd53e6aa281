/*
 * longjmp.c: picolibc setjmp/longjmp out of a deep recursion, for the
 * flamegraph's "RETURN to t" longjmp rule (docs/CONTRACT.md#how-the-stack-moves).
 *
 * main calls run_search() `searches` times (private input, default 3).
 * run_search calls setjmp, then descend(1), which recurses down to
 * descend(DEPTH) (one frame per level: DEPTH descend frames), which calls
 * bail(), which longjmps back into run_search. longjmp's `ret` lands in
 * run_search at the return address of its setjmp call, which no live frame
 * has: the profiler must pop longjmp, bail and every descend frame, so the
 * after_jump() that run_search calls next sits directly on run_search.
 *
 * The functions are noipa (no inlining, cloning or interprocedural
 * shortcuts: the symbol names stay as written) and the asm barrier on
 * descend's result keeps its recursive call from becoming a loop at -O2.
 * tests/guest_flamegraph checks the folded output; it knows DEPTH.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>

#include "guest.h"

#define DEPTH 50 /* descend frames at the bottom of one search */

static jmp_buf search_env;
static volatile uint32_t trail[DEPTH + 1]; /* what each level left behind */

/* Never returns; not declared noreturn, so that gcc sees descend() as
 * recursion that ends (and calls bail with a plain call, as below). */
__attribute__((noipa)) uint32_t bail(uint32_t found)
{
    longjmp(search_env, (int)found);
}

__attribute__((noipa)) uint32_t descend(uint32_t depth)
{
    trail[depth] = depth * 7u;
    /* bail's value is never 0: setjmp returns it in run_search */
    uint32_t r = depth == DEPTH ? bail(depth * 3u + 1u) : descend(depth + 1);
    __asm__("" : "+r"(r)); /* keeps both calls real calls: no loop, no tail call */
    return r + trail[depth];
}

/* A few hundred instructions of work after the jump. */
__attribute__((noipa)) uint32_t after_jump(uint32_t seed)
{
    uint32_t h = seed;
    for (uint32_t i = 0; i < 64; i++) {
        h ^= trail[i % (DEPTH + 1)];
        h = h * 2654435761u + i;
        __asm__("" : "+r"(h));
    }
    return h;
}

__attribute__((noipa)) uint32_t run_search(uint32_t round)
{
    int found = setjmp(search_env);
    if (found == 0) {
        descend(1);
        return 0; /* never: descend always ends in bail */
    }
    return after_jump((uint32_t)found + round);
}

int main(void)
{
    uint64_t searches = guest_input_u64(3);
    if (searches > 1000)
        searches = 1000;
    uint32_t sum = 0;
    for (uint32_t round = 0; round < (uint32_t)searches; round++) {
        uint32_t r = run_search(round);
        if (r == 0) {
            printf("search %" PRIu32 " did not jump\n", round);
            return 1;
        }
        sum += r;
    }
    printf("longjmp: %" PRIu32 " searches, depth %d, checksum %08" PRIx32 "\n", (uint32_t)searches,
           DEPTH, sum);
    return 0;
}
