/*
 * atomics.c: C11 atomics built with -march=rv32ima/rv64ima, so the compiler
 * emits the A extension: fetch-add/and/or/xor and exchange as AMOs,
 * compare-exchange as an lr/sc loop, min/max (which C lacks) in asm, on
 * 32-bit and (rv64: as AMO .d) 64-bit counters, and reads rdinstret.
 * rv32 and rv64 print the same.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static _Atomic uint32_t counter32;
/* 64-bit atomics are AMO .d on rv64; rv32 has none (libatomic): plain there. */
#if __riscv_xlen == 64
static _Atomic uint64_t counter64;
#else
static uint64_t counter64;
#endif
static _Atomic int32_t signed32 = -7;

/* amomax.w / amominu.w: the old value; memory gets the max / unsigned min. */
static int32_t fetch_max(_Atomic int32_t *p, int32_t v)
{
    int32_t old;
    __asm__ volatile("amomax.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}

static uint32_t fetch_minu(_Atomic uint32_t *p, uint32_t v)
{
    uint32_t old;
    __asm__ volatile("amominu.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}

static uint32_t read_count(void)
{
    char buf[32] = {0};
    if (!fgets(buf, sizeof(buf), stdin))
        return 100;
    return (uint32_t)strtoul(buf, NULL, 10);
}

int main(void)
{
    uint32_t n = read_count(), mixed = 0;
    for (uint32_t i = 0; i < n; i++) {
        atomic_fetch_add(&counter32, i * 3 + 1);
#if __riscv_xlen == 64
        atomic_fetch_add(&counter64, (uint64_t)i << 20);
#else
        counter64 += (uint64_t)i << 20;
#endif
        mixed ^= atomic_fetch_xor(&counter32, i);
        atomic_fetch_or(&counter32, 1u << (i & 31));
        atomic_fetch_and(&counter32, ~(1u << ((i + 7) & 31)));
        uint32_t expect = atomic_load(&counter32);
        while (!atomic_compare_exchange_weak(&counter32, &expect, expect * 2 + 1))
            ;
        mixed += (uint32_t)fetch_max(&signed32, (int32_t)(i * 7 % 23) - 11);
        mixed += fetch_minu(&counter32, 0xfffff000u + i);
    }
    uint32_t old = atomic_exchange(&counter32, 42);
    printf("n=%lu counter32=%lu mixed=%lu signed32=%ld counter64=%llu after=%lu\n",
           (unsigned long)n, (unsigned long)old, (unsigned long)mixed, (long)atomic_load(&signed32),
           (unsigned long long)counter64, (unsigned long)atomic_load(&counter32));
    return 0;
}
