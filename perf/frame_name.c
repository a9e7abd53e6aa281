/*
 * frame_name: comm and call-chain entries -> folded frame names (docs/PERF.md#folding-rules), rule
 * by rule as stackcollapse-perf.pl applies them.
 *
 * Where this differs from the script, docs/PERF.md#where-this-follows-inferno says why:
 *   - "(anonymous namespace)::f(int)" is "(anonymous namespace)::f"; the
 *     script drops every symbol that starts with "(", this one included.
 *   - "[module basename]" is not put through the symbol rules: a module
 *     "/x/a.out (deleted)" gives "[a.out (deleted)]", not "[a.out ".
 *   - No "->" splitting or "_[i]" marks: perf prints each inlined frame on
 *     a line of its own ("sym (inlined)"), and docs/PERF.md#folding-rules says a frame is the
 *     symbol name; "operator->" stays whole.
 *   - ";" in a comm becomes ":" and a newline anywhere a space, so that a
 *     name never breaks the folded format.
 */
#include "perf/frame_name.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void perf_name_free(struct perf_name *n)
{
    free(n->data);
    n->data = NULL;
    n->len = n->cap = 0;
}

static int name_reserve(struct perf_name *n, size_t need)
{
    if (need + 1 <= n->cap)
        return 0;
    size_t cap = n->cap ? n->cap : 64;
    while (cap < need + 1)
        cap *= 2;
    char *data = realloc(n->data, cap);
    if (!data)
        return -1;
    n->data = data;
    n->cap = cap;
    return 0;
}

static int name_append(struct perf_name *n, const char *s, size_t len)
{
    if (name_reserve(n, n->len + len))
        return -1;
    memcpy(n->data + n->len, s, len);
    n->len += len;
    n->data[n->len] = '\0';
    return 0;
}

static int name_set(struct perf_name *n, const char *s, size_t len)
{
    n->len = 0;
    if (name_reserve(n, len))
        return -1;
    return name_append(n, s, len);
}

/* ";" would split the frame and a newline the line: ";" -> ":", newline -> " ". */
static void make_folded_safe(char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] == ';')
            s[i] = ':';
        else if (s[i] == '\n')
            s[i] = ' ';
    }
}

/* The length without a trailing "+0x<lowercase hex>" (perf's symoff). */
static size_t strip_offset(const char *s, size_t len)
{
    size_t i = len;
    while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') || (s[i - 1] >= 'a' && s[i - 1] <= 'f')))
        i--;
    if (i == len || i < 3 || memcmp(s + i - 3, "+0x", 3) != 0)
        return len;
    return i - 3;
}

/* A Go method such as "net/http.(*Client).Do": ".(" and, later, ")." */
static bool is_go_name(const char *s, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (s[i] != '.' || s[i + 1] != '(')
            continue;
        for (size_t j = i + 2; j + 1 < len; j++)
            if (s[j] == ')' && s[j + 1] == '.')
                return true;
        return false;
    }
    return false;
}

/* Cuts from the first "(" that does not open "(anonymous namespace)". */
static size_t cut_arguments(const char *s, size_t len)
{
    static const char anon[] = "(anonymous namespace)";
    const size_t anon_len = sizeof(anon) - 1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '(')
            continue;
        if (len - i >= anon_len && memcmp(s + i, anon, anon_len) == 0)
            continue;
        return i;
    }
    return len;
}

static size_t drop_quotes(char *s, size_t len)
{
    size_t w = 0;
    for (size_t r = 0; r < len; r++)
        if (s[r] != '"' && s[r] != '\'')
            s[w++] = s[r];
    return w;
}

/* Java signatures: "Lorg/x/Y:.m" -> "org/x/Y:.m" (after the other rules). */
static size_t java_tidy(char *s, size_t len)
{
    if (len == 0 || s[0] != 'L' || !memchr(s, '/', len))
        return len;
    memmove(s, s + 1, len - 1);
    return len - 1;
}

size_t perf_symbol_tidy(char *name, size_t len, bool java)
{
    len = strip_offset(name, len);
    make_folded_safe(name, len);
    if (!is_go_name(name, len))
        len = cut_arguments(name, len);
    len = drop_quotes(name, len);
    if (java)
        len = java_tidy(name, len);
    return len;
}

static bool is_unknown(const char *s, size_t len)
{
    return !s || len == 0 || (len == 9 && memcmp(s, "[unknown]", 9) == 0);
}

/* "[unknown]" or "[basename]", with --addrs "[... <addr>]". */
static int unknown_frame(struct perf_name *out, const struct perf_frame *f,
                         const struct perf_name_opts *o)
{
    const char *base = "unknown";
    size_t base_len = 7;
    if (!is_unknown(f->module, f->module_len)) {
        base = f->module;
        base_len = f->module_len;
        for (size_t i = f->module_len; i > 0; i--) {
            if (f->module[i - 1] == '/') {
                base = f->module + i;
                base_len = f->module_len - i;
                break;
            }
        }
    }
    char addr[32] = "";
    if (o->addrs)
        snprintf(addr, sizeof(addr), " <%" PRIx64 ">", f->addr);
    if (name_set(out, "[", 1) || name_append(out, base, base_len) ||
        name_append(out, addr, strlen(addr)) || name_append(out, "]", 1))
        return -1;
    make_folded_safe(out->data, out->len);
    return 0;
}

int perf_frame_name(struct perf_name *out, const struct perf_frame *f,
                    const struct perf_name_opts *o)
{
    size_t sym_len = f->sym ? strip_offset(f->sym, f->sym_len) : 0;
    if (is_unknown(f->sym, sym_len))
        return unknown_frame(out, f, o);
    if (name_set(out, f->sym, f->sym_len))
        return -1;
    out->len = perf_symbol_tidy(out->data, out->len, f->java);
    out->data[out->len] = '\0';
    return 0;
}

static void format_id(char *buf, size_t size, int64_t id)
{
    if (id == PERF_ID_UNKNOWN)
        snprintf(buf, size, "?");
    else
        snprintf(buf, size, "%" PRId64, id);
}

int perf_comm_name(struct perf_name *out, const char *comm, size_t len, int64_t pid, int64_t tid,
                   const struct perf_name_opts *o)
{
    char pid_text[24], tid_text[24], suffix[64] = "";
    format_id(pid_text, sizeof(pid_text), pid);
    format_id(tid_text, sizeof(tid_text), tid);
    if (o->tid)
        snprintf(suffix, sizeof(suffix), "-%s/%s", pid_text, tid_text);
    else if (o->pid)
        snprintf(suffix, sizeof(suffix), "-%s", pid_text);
    if (name_set(out, comm, len) || name_append(out, suffix, strlen(suffix)))
        return -1;
    make_folded_safe(out->data, out->len);
    for (size_t i = 0; i < out->len; i++)
        if (out->data[i] == ' ')
            out->data[i] = '_';
    return 0;
}

bool perf_comm_is_java(const char *comm, size_t len)
{
    return len >= 4 && memcmp(comm, "java", 4) == 0;
}
