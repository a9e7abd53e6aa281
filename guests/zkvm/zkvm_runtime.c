/*
 * zkvm_runtime: memcpy and memset for the freestanding zkVM test guests
 * (GCC may call them for copies and clears).
 */
#include "zkvm_guest.h"

void *memcpy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    uint8_t *d = dst;
    while (n--)
        *d++ = (uint8_t)c;
    return dst;
}
