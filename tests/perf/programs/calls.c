/*
 * calls: a program with a known call structure for the perf tests:
 *
 *   main -> run -> alpha -> beta -> gamma   (a spin loop)
 *   main -> run -> delta                     (a spin loop)
 *   main -> run -> deep (150 levels) -> gamma   (deeper than perf keeps)
 *   main -> run -> sorter -> qsort (libc) -> compare
 *   main -> run -> clocks -> clock_gettime (vdso)
 *   main -> run -> writer -> write (the kernel)
 *
 * Built -O2 -g -fno-omit-frame-pointer; VARIANT changes the code (and the
 * build id) without changing the names, for the build-id cache test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#ifndef VARIANT
#define VARIANT 1
#endif

volatile unsigned long sink;

__attribute__((noinline)) void gamma_(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        sink = sink * 2862933555777941757ul + VARIANT;
}

__attribute__((noinline)) void beta(unsigned long n)
{
    gamma_(n);
    sink++;
}

__attribute__((noinline)) void alpha(unsigned long n)
{
    beta(n);
    sink++;
}

__attribute__((noinline)) void delta(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        sink += i ^ (sink >> 3);
}

__attribute__((noinline)) unsigned long deep(int depth, unsigned long n)
{
    if (depth == 0) {
        gamma_(n);
        return 1;
    }
    unsigned long r = deep(depth - 1, n);
    __asm__ volatile("" : "+r"(r)); /* no tail call */
    return r + 1;
}

static int compare(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

__attribute__((noinline)) void sorter(int n)
{
    int *v = malloc((size_t)n * sizeof(*v));
    for (int i = 0; i < n; i++)
        v[i] = (i * 7919) % n;
    qsort(v, (size_t)n, sizeof(*v), compare);
    sink += (unsigned long)v[n / 2];
    free(v);
}

__attribute__((noinline)) void clocks(int n)
{
    struct timespec t;
    for (int i = 0; i < n; i++) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        sink += (unsigned long)t.tv_nsec;
    }
}

__attribute__((noinline)) void writer(int n)
{
    char buf[64] = {0};
    FILE *f = fopen("/dev/null", "w");
    if (!f)
        return;
    for (int i = 0; i < n; i++)
        if (write(fileno(f), buf, sizeof(buf)) < 0)
            break;
    fclose(f);
}

__attribute__((noinline)) void run(double seconds)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        alpha(200000);
        delta(100000);
        deep(150, 20000);
        sorter(5000);
        clocks(2000);
        writer(500);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 <
             seconds);
}

int main(int argc, char **argv)
{
    run(argc > 1 ? atof(argv[1]) : 0.5);
    printf("%lu\n", sink);
    return 0;
}
