/*
 * profile_read: the whole file into memory, its format from its first
 * bytes, then the one reader for it.
 */
#include "flamegraph/profile_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/folded_read.h"
#include "flamegraph/json_read.h"
#include "flamegraph/pprof.h"

static bool is_stdin(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

/* Reads all of `in`. Returns 0, or -1 with `e` set. */
static int slurp(FILE *in, const char *name, unsigned char **data, size_t *len, struct error *e)
{
    size_t cap = 65536, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            unsigned char *grown = realloc(buf, cap * 2);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, in);
        n += got;
        if (got == 0)
            break;
    }
    if (!buf || (n == cap && !feof(in) && !ferror(in))) {
        free(buf);
        return error_fail(e, ERROR_NO_MEMORY, "out of memory reading %s", name);
    }
    if (ferror(in)) {
        free(buf);
        return error_fail_errno(e, ERROR_UNREADABLE, errno, "cannot read %s", name);
    }
    *data = buf;
    *len = n;
    return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int read_folded(const unsigned char *data, size_t len, const char *name, struct profile *p,
                       struct error *e)
{
    FILE *in = fmemopen((void *)(len ? data : (const unsigned char *)""), len ? len : 1, "rb");
    if (!in)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory reading %s", name);
    int rc = len ? folded_read_named(in, name, p->trie, p->names, e) : 0;
    fclose(in);
    if (rc == 0 && profile_adopt_counts(p, "samples", "count", false) < 0)
        rc = error_fail(e, ERROR_NO_MEMORY, "out of memory");
    return rc;
}

/* The index of data's first byte that is not a blank (len when there is none). */
static size_t first_nonblank(const unsigned char *data, size_t len)
{
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
        i++;
    return i;
}

/*
 * JSON: its first non-blank byte is '{' and its first line does not end
 * as a folded line does, in " COUNT" (a frame may start with '{').
 */
static bool looks_like_json(const unsigned char *data, size_t len)
{
    size_t i = first_nonblank(data, len);
    if (i == len || data[i] != '{')
        return false;
    size_t end = i;
    while (end < len && data[end] != '\n')
        end++;
    while (end > i && data[end - 1] == '\r')
        end--;
    size_t digits = end;
    while (digits > i && data[digits - 1] >= '0' && data[digits - 1] <= '9')
        digits--;
    return !(digits < end && digits > i && data[digits - 1] == ' ');
}

/* An SVG picture (what --flamegraph FILE.svg writes): its first non-blank bytes. */
static bool looks_like_svg(const unsigned char *data, size_t len)
{
    size_t i = first_nonblank(data, len);
    return (len - i >= 5 && memcmp(data + i, "<?xml", 5) == 0) ||
           (len - i >= 4 && memcmp(data + i, "<svg", 4) == 0);
}

int profile_read_bytes(const unsigned char *data, size_t len, const char *name, bool pprof_named,
                       struct profile *p, struct error *e)
{
    if ((len >= 2 && data[0] == 0x1f && data[1] == 0x8b) || pprof_named)
        return pprof_read(data, len, name, p, e);
    if (looks_like_json(data, len))
        return json_profile_read(data, len, name, p, e);
    if (looks_like_svg(data, len))
        return error_fail(e, ERROR_UNSUPPORTED,
                          "%s: an SVG picture, which zkprof writes but does not read: give the "
                          "folded, speedscope, pprof or Gecko file of the same profile",
                          name);
    return read_folded(data, len, name, p, e);
}

int profile_read_path(const char *path, struct profile *p, struct error *e)
{
    const char *name = folded_path_name(path);
    FILE *in = is_stdin(path) ? stdin : fopen(path, "rb");
    if (!in)
        return error_fail_errno(e, ERROR_UNREADABLE, errno, "cannot read %s", name);
    unsigned char *data = NULL;
    size_t len = 0;
    int rc = slurp(in, name, &data, &len, e);
    if (in != stdin)
        fclose(in);
    bool pprof_named = !is_stdin(path) && (ends_with(path, ".pb") || ends_with(path, ".pprof"));
    if (rc == 0)
        rc = profile_read_bytes(data, len, name, pprof_named, p, e);
    free(data);
    return rc;
}
