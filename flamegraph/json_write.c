/*
 * json_write: escaping by spans (runs of bytes that need no escape are
 * written with one fwrite) and UTF-8 checked against Unicode Table 3-7.
 */
#include "flamegraph/json_write.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static void put_bytes(struct json_out *j, const void *p, size_t n)
{
    if (j->error || n == 0)
        return;
    if (fwrite(p, 1, n, j->f) != n)
        j->error = errno ? errno : EIO;
}

void json_raw(struct json_out *j, const char *text)
{
    put_bytes(j, text, strlen(text));
}

void json_u64(struct json_out *j, uint64_t v)
{
    char buf[20];
    size_t i = sizeof(buf);
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put_bytes(j, buf + i, sizeof(buf) - i);
}

/* The range the second byte after `lead` must lie in (Table 3-7); false for a bad lead. */
static bool second_byte_range(unsigned char lead, unsigned char *lo, unsigned char *hi,
                              size_t *length)
{
    *lo = 0x80;
    *hi = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF)
        *length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF)
        *length = 3;
    else if (lead >= 0xF0 && lead <= 0xF4)
        *length = 4;
    else
        return false;
    if (lead == 0xE0)
        *lo = 0xA0; /* no overlong 3-byte forms */
    else if (lead == 0xED)
        *hi = 0x9F; /* no surrogates */
    else if (lead == 0xF0)
        *lo = 0x90; /* no overlong 4-byte forms */
    else if (lead == 0xF4)
        *hi = 0x8F; /* nothing above U+10FFFF */
    return true;
}

size_t json_utf8_sequence(const unsigned char *s, size_t len, size_t *skip)
{
    unsigned char lo, hi;
    size_t length;
    *skip = 1;
    if (s[0] < 0x80)
        return 1;
    if (!second_byte_range(s[0], &lo, &hi, &length))
        return 0;
    for (size_t i = 1; i < length; i++) {
        unsigned char c = i < len ? s[i] : 0;
        if (i == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF))
            return 0;
        *skip = i + 1;
    }
    return length;
}

/* Writes the escape for one byte that cannot appear raw in a JSON string. */
static void put_escape(struct json_out *j, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    if (c == '"' || c == '\\') {
        char e[2] = {'\\', (char)c};
        put_bytes(j, e, 2);
    } else {
        char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        put_bytes(j, e, 6);
    }
}

void json_out_string(struct json_out *j, const char *s, size_t len)
{
    static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
    const unsigned char *u = (const unsigned char *)s;
    size_t span = 0; /* start of the bytes not yet written */
    put_bytes(j, "\"", 1);
    for (size_t i = 0; i < len;) {
        size_t skip, n = 1;
        if (u[i] < 0x20 || u[i] == '"' || u[i] == '\\') {
            put_bytes(j, s + span, i - span);
            put_escape(j, u[i]);
        } else if (u[i] >= 0x80 && (n = json_utf8_sequence(u + i, len - i, &skip)) == 0) {
            put_bytes(j, s + span, i - span);
            put_bytes(j, replacement, 3);
            n = skip;
        } else {
            i += n;
            continue;
        }
        i += n;
        span = i;
    }
    put_bytes(j, s + span, len - span);
    put_bytes(j, "\"", 1);
}

int json_finish(struct json_out *j)
{
    if (!j->error && fflush(j->f) == EOF)
        j->error = errno ? errno : EIO;
    if (j->error) {
        errno = j->error;
        return -1;
    }
    return 0;
}
