/*
 * matmul.c: n x n integer matrix multiply (n from the private input,
 * default 24) on malloc'd matrices, checked with Freivalds' test
 * (A(Bx) == Cx for a fixed vector x); prints a checksum of C.
 * Exercises a hot triple loop with mul and loads/stores.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "guest.h"

__attribute__((noinline)) static void matmul(size_t n, const int32_t *A, const int32_t *B,
                                             int32_t *C)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++)
            C[i * n + j] = 0;
        for (size_t k = 0; k < n; k++) {
            int32_t a = A[i * n + k];
            for (size_t j = 0; j < n; j++)
                C[i * n + j] += a * B[k * n + j];
        }
    }
}

__attribute__((noinline)) static void matvec(size_t n, const int32_t *M, const int32_t *x,
                                             int32_t *y)
{
    for (size_t i = 0; i < n; i++) {
        int32_t s = 0;
        for (size_t j = 0; j < n; j++)
            s += M[i * n + j] * x[j];
        y[i] = s;
    }
}

int main(void)
{
    uint64_t n64 = guest_input_u64(24);
    if (n64 < 1)
        n64 = 1;
    if (n64 > 1024)
        n64 = 1024;
    size_t n = (size_t)n64;

    int32_t *A = malloc(n * n * sizeof *A);
    int32_t *B = malloc(n * n * sizeof *B);
    int32_t *C = malloc(n * n * sizeof *C);
    int32_t *v = malloc(4 * n * sizeof *v);
    if (!A || !B || !C || !v) {
        printf("out of memory\n");
        return 2;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            A[i * n + j] = (int32_t)((i * 7 + j * 3) % 17) - 8;
            B[i * n + j] = (int32_t)((i * 5 + j * 11 + 1) % 23) - 11;
        }

    matmul(n, A, B, C);

    /* Freivalds: A(Bx) must equal Cx */
    int32_t *x = v, *bx = v + n, *abx = v + 2 * n, *cx = v + 3 * n;
    for (size_t i = 0; i < n; i++)
        x[i] = (int32_t)(i % 5) - 2;
    matvec(n, B, x, bx);
    matvec(n, A, bx, abx);
    matvec(n, C, x, cx);
    for (size_t i = 0; i < n; i++)
        if (abx[i] != cx[i]) {
            printf("self-check failed at row %u\n", (unsigned)i);
            return 1;
        }

    uint32_t checksum = 0;
    for (size_t i = 0; i < n * n; i++)
        checksum = (checksum ^ (uint32_t)C[i]) * 16777619u;
    printf("matmul %ux%u: C[0][0] %" PRId32 " C[n-1][n-1] %" PRId32 " checksum %08" PRIx32 "\n",
           (unsigned)n, (unsigned)n, C[0], C[n * n - 1], checksum);
    free(v);
    free(C);
    free(B);
    free(A);
    return 0;
}
