/*
 * fib.c: naive doubly recursive Fibonacci, for deep and wide call stacks
 * (n from the private input, default 20). fib() is noinline and the asm
 * barrier on its result keeps gcc from turning one of the two recursive
 * calls into a loop (tail recursion with an accumulator) at -O2.
 */
#include <inttypes.h>
#include <stdio.h>

#include "guest.h"

__attribute__((noinline)) static uint32_t fib(uint32_t n)
{
    if (n < 2)
        return n;
    uint32_t r = fib(n - 1) + fib(n - 2);
    __asm__("" : "+r"(r));
    return r;
}

/*
 * The same number by iteration, as a self-check. Built with -DSLOWER_CHECK
 * (fib-slower) it iterates twice: the same program but for one function,
 * for the tests of `cli diff --summary` and its CI recipe (docs/CI.md).
 */
__attribute__((noinline)) static uint32_t fib_iter(uint32_t n)
{
    uint32_t a = 0, b = 1;
#ifdef SLOWER_CHECK
    for (uint32_t m = n; m-- > 0;) {
        uint32_t t = a + b;
        __asm__("" : "+r"(t));
        a = b;
        b = t;
    }
    a = 0, b = 1;
#endif
    while (n-- > 0) {
        uint32_t t = a + b;
        a = b;
        b = t;
    }
    return a;
}

int main(void)
{
    uint64_t n = guest_input_u64(20);
    if (n > 40)
        n = 40; /* fib(40) is ~10^9 calls: plenty for a long run */
    uint32_t r = fib((uint32_t)n);
    printf("fib(%" PRIu32 ") = %" PRIu32 "\n", (uint32_t)n, r);
    if (r != fib_iter((uint32_t)n)) {
        printf("self-check failed\n");
        return 1;
    }
    return 0;
}
