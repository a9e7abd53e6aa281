/*
 * perf_demangle: perf's order of demanglers: libiberty's cplus_demangle
 * with no options (C++ without parameters or qualifiers, Rust without
 * hashes; not symtab/demangle.c's c++filt -p, which is verbose), then its
 * OCaml and Java demanglers (tools/perf/util/demangle-ocaml.c,
 * demangle-java.c) written out as small state machines of our own.
 */
#include "perf/symbols/perf_demangle.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "common/hex.h"
/* "caml" + capital: "__" is ".", "$xx" a hex-coded byte, a trailing "_123" goes. */
static char *ocaml_demangle(const char *sym)
{
    if (strncmp(sym, "caml", 4) != 0 || !isupper((unsigned char)sym[4]))
        return NULL;
    size_t len = strlen(sym), j = 0;
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    for (size_t i = 4; i < len;) {
        if (sym[i] == '_' && sym[i + 1] == '_') {
            out[j++] = '.';
            i += 2;
        } else if (sym[i] == '$' && isxdigit((unsigned char)sym[i + 1]) &&
                   isxdigit((unsigned char)sym[i + 2])) {
            out[j++] = (char)(hex_digit(sym[i + 1]) << 4 | hex_digit(sym[i + 2]));
            i += 3;
        } else {
            out[j++] = sym[i++];
        }
    }
    out[j] = '\0';
    if (j > 0 && isdigit((unsigned char)out[j - 1])) {
        while (--j && isdigit((unsigned char)out[j]))
            ;
        if (out[j] == '_')
            out[j] = '\0';
    }
    return out;
}

enum java_mode { PREFIX, CLASS, FUNC, TYPE, CTYPE };

static const char *java_base_type(char c)
{
    switch (c) {
    case 'B': return "byte";
    case 'C': return "char";
    case 'D': return "double";
    case 'F': return "float";
    case 'I': return "int";
    case 'J': return "long";
    case 'S': return "short";
    case 'Z': return "boolean";
    default: return NULL;
    }
}

struct java_out {
    char *buf;
    size_t len, max; /* like perf, stops one byte short of max */
};

static void java_put(struct java_out *o, const char *s)
{
    while (*s && o->len + 1 < o->max)
        o->buf[o->len++] = *s++;
}

static void java_arg_separator(struct java_out *o, int *narg)
{
    if ((*narg)++)
        java_put(o, ", ");
}

/* One character of the prototype; false on a character that cannot be there. */
static bool java_step(struct java_out *o, const char *q, enum java_mode *mode, int *narg,
                      int *array)
{
    char c[2] = {*q, '\0'};
    const char *base = java_base_type(*q);
    if (*q == 'L' && (*mode == PREFIX || *mode == TYPE)) {
        if (*mode == TYPE)
            java_arg_separator(o, narg);
        *mode = *mode == PREFIX ? CLASS : CTYPE;
    } else if ((base || *q == 'V') && *mode == TYPE) {
        if (base)
            java_arg_separator(o, narg);
        java_put(o, base ? base : "void");
        for (; *array > 0; (*array)--)
            java_put(o, "[]");
        *array = 0;
    } else if (*q == '[') {
        if (*mode != TYPE)
            return false;
        (*array)++;
    } else if (*q == '(') {
        if (*mode != FUNC)
            return false;
        java_put(o, c);
        *mode = TYPE;
    } else if (*q == ')') {
        if (*mode != TYPE)
            return false;
        java_put(o, c);
        *narg = 0;
    } else if (*q == ';') {
        if (*mode != CLASS && *mode != CTYPE)
            return false;
        if (isalpha((unsigned char)q[1]) && *mode == CLASS)
            java_put(o, ".");
        *mode = *mode == CLASS ? FUNC : TYPE;
    } else if (*q == '/') {
        if (*mode != CLASS && *mode != CTYPE)
            return false;
        java_put(o, ".");
    } else {
        java_put(o, c);
    }
    return true;
}

/* perf's java_demangle_sym with JAVA_DEMANGLE_NORET: the prototype up to its ')'. */
static char *java_demangle(const char *sym)
{
    const char *end = strrchr(sym, ')');
    if (!end)
        return NULL;
    end++;
    struct java_out o = {malloc(strlen(sym) * 3 + 1), 0, strlen(sym) * 3 + 1};
    if (!o.buf)
        return NULL;
    enum java_mode mode = PREFIX;
    int narg = 0, array = 0;
    for (const char *q = sym; q != end && o.len + 1 < o.max; q++) {
        if (!java_step(&o, q, &mode, &narg, &array)) {
            free(o.buf);
            return NULL;
        }
    }
    o.buf[o.len] = '\0';
    return o.buf;
}

char *perf_demangle(const char *name)
{
    /* perf 6.1 without libbfd: libiberty's cplus_demangle, no options (auto style) */
    char *readable = cplus_demangle(name, DMGL_NO_OPTS);
    if (!readable)
        readable = ocaml_demangle(name);
    if (!readable)
        readable = java_demangle(name);
    if (!readable)
        readable = strdup(name);
    return readable;
}

char *perf_demangle_symbol(const char *name)
{
    static const char plt[] = "@plt";
    size_t len = strlen(name), suffix = sizeof(plt) - 1;
    if (len < suffix || strcmp(name + len - suffix, plt) != 0)
        return perf_demangle(name);
    char *base = strndup(name, len - suffix);
    char *readable = base ? perf_demangle(base) : NULL;
    free(base);
    if (!readable)
        return NULL;
    size_t n = strlen(readable);
    char *full = realloc(readable, n + suffix + 1);
    if (!full) {
        free(readable);
        return NULL;
    }
    memcpy(full + n, plt, suffix + 1);
    return full;
}
