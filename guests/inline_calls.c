/*
 * inline_calls.c: calls made from inside inlined code, for the inline-frame
 * flamegraph tests (frames above the leaf are expanded at their call's pc).
 * At -O2 -g:
 * - a noinline function called from an always_inline helper that is
 *   inlined into two callers (one callee, two call sites, two chains);
 * - a tail call out of an inlined helper (the callee replaces the frame
 *   and keeps its call site);
 * - an indirect call through a function pointer from inlined loop code;
 * - recursion whose body is inlined code (one node per depth);
 * - a static inline chain three deep around a loop, also reached by a tail
 *   call (the jump starts a run in a function with inlined code).
 * n (rounds) from the private input, default 40.
 */
#include <inttypes.h>
#include <stdio.h>

#include "guest.h"

__attribute__((noinline)) static uint32_t work(uint32_t x)
{
    for (int i = 0; i < 8; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}

__attribute__((noinline)) static uint32_t finish(uint32_t x)
{
    return (x ^ (x >> 16)) * 0x45d9f3bu;
}

__attribute__((always_inline)) static inline uint32_t stir(uint32_t x)
{
    return work(x ^ 0x5bd1e995u) + (x >> 3);
}

__attribute__((always_inline)) static inline uint32_t twice(uint32_t x)
{
    return stir(stir(x) + 1);
}

/* stir inlined here ... */
__attribute__((noinline)) static uint32_t left(uint32_t x)
{
    return twice(x) ^ 0x1234u;
}

/* ... and here: work() is called from four call sites in two functions. */
__attribute__((noinline)) static uint32_t right(uint32_t x)
{
    return stir(x * 3u) + 7u;
}

__attribute__((always_inline)) static inline uint32_t finish_via(uint32_t x)
{
    x += x << 5;
    return finish(x); /* a tail call once inlined into tail position */
}

__attribute__((noinline)) static uint32_t tail(uint32_t x)
{
    return finish_via(x ^ 0xdeadbeefu);
}

typedef uint32_t (*step_fn)(uint32_t);

static inline uint32_t apply(step_fn f, uint32_t x)
{
    return f(x) + 1;
}

static inline uint32_t apply_all(const step_fn *fs, uint32_t x)
{
    for (int i = 0; i < 3; i++)
        x = apply(fs[i], x);
    return x;
}

__attribute__((noinline)) static uint32_t pipeline(uint32_t x)
{
    static const step_fn fs[3] = {left, right, tail};
    return apply_all(fs, x);
}

static inline uint32_t fold_step(uint32_t acc, uint32_t depth)
{
    return acc * 31u + depth;
}

__attribute__((noinline)) static uint32_t descend(uint32_t depth, uint32_t acc)
{
    if (depth == 0)
        return acc;
    return descend(depth - 1, fold_step(acc, depth)) ^ depth;
}

static inline uint32_t inner3(uint32_t x)
{
    return x ^ (x >> 7);
}

static inline uint32_t inner2(uint32_t x)
{
    return inner3(x * 0x9E3779B1u) + 1;
}

static inline uint32_t inner1(uint32_t x, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        x = inner2(x + i);
    return x;
}

__attribute__((noinline)) static uint32_t chain(uint32_t x, uint32_t n)
{
    return inner1(x, n);
}

__attribute__((noinline)) static uint32_t tail_chain(uint32_t x, uint32_t n)
{
    x ^= x >> 11;
    return chain(x, n); /* a tail call */
}

int main(void)
{
    uint64_t n = guest_input_u64(40);
    if (n > 100000)
        n = 100000;
    uint32_t h = 1;
    for (uint32_t r = 0; r < n; r++) {
        h = pipeline(h + r);
        h ^= descend(r % 12, h);
        h = chain(h, r % 16);
        h = tail_chain(h, r % 8);
    }
    printf("inline_calls %08" PRIx32 "\n", h);
    return 0;
}
