/*
 * guest.c: the helpers declared in guest.h (private input, public output,
 * decimal parsing), built on the read/write in syscalls.c.
 */
#include <unistd.h>

#include "guest.h"

size_t guest_read_all(void *buf, size_t cap)
{
    unsigned char *p = buf;
    size_t n = 0;
    while (n < cap) {
        ssize_t r = read(GUEST_FD_PRIVATE_INPUT, p + n, cap - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    return n;
}

void guest_write_public(const void *buf, size_t len)
{
    const unsigned char *p = buf;
    while (len > 0) {
        ssize_t r = write(GUEST_FD_PUBLIC_OUTPUT, p, len);
        if (r <= 0)
            return;
        p += r;
        len -= (size_t)r;
    }
}

uint64_t guest_parse_u64(const char *s, size_t len, uint64_t dflt)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    if (i == len || s[i] < '0' || s[i] > '9')
        return dflt;
    uint64_t v = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return UINT64_MAX;
        v = v * 10 + d;
    }
    return v;
}

uint64_t guest_input_u64(uint64_t dflt)
{
    char buf[64];
    size_t n = guest_read_all(buf, sizeof buf);
    return guest_parse_u64(buf, n, dflt);
}
