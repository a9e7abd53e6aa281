/*
 * folded_read: folded text -> trie of interned names.
 */
#include "flamegraph/folded_read.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *why, size_t why_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t why_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
    return -1;
}

/* Splits off the decimal count after the last space of line[0..*len). */
static bool take_count(const char *line, size_t *len, uint64_t *count)
{
    size_t end = *len, start = end;
    while (start > 0 && line[start - 1] >= '0' && line[start - 1] <= '9')
        start--;
    if (start == end || start == 0 || line[start - 1] != ' ' || end - start > 19)
        return false;
    uint64_t v = 0;
    for (size_t i = start; i < end; i++)
        v = v * 10 + (uint64_t)(line[i] - '0');
    *count = v;
    *len = start - 1;
    return true;
}

static bool grow_second(struct second_counts *sc, size_t need)
{
    if (need <= sc->capacity)
        return true;
    size_t cap = sc->capacity ? sc->capacity : 1024;
    while (cap < need)
        cap *= 2;
    uint64_t *c = realloc(sc->counts, cap * sizeof(*c));
    if (!c)
        return false;
    memset(c + sc->capacity, 0, (cap - sc->capacity) * sizeof(*c));
    sc->counts = c;
    sc->capacity = cap;
    return true;
}

/* Walks (creating) the stack's nodes; returns the leaf, or UINT32_MAX without memory. */
static uint32_t insert_stack(struct trie *t, struct strtab *names, const char *stack, size_t len)
{
    uint32_t node = TRIE_ROOT;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && stack[i] != ';')
            continue;
        uint32_t id = strtab_intern(names, stack + start, i - start);
        bool created;
        if (!id || (node = trie_child(t, node, id, &created)) == UINT32_MAX)
            return UINT32_MAX;
        start = i + 1;
    }
    return node;
}

static int add_line(struct trie *t, struct strtab *names, struct second_counts *second,
                    const char *line, size_t len, size_t lineno, char *why, size_t why_size)
{
    uint64_t count, count2 = 0;
    if (second && !take_count(line, &len, &count2))
        return fail(why, why_size, "line %zu: expected 'stack COUNT1 COUNT2'", lineno);
    if (!take_count(line, &len, &count))
        return fail(why, why_size, "line %zu: expected 'frame;frame;... COUNT'", lineno);
    uint32_t leaf = insert_stack(t, names, line, len);
    if (leaf == UINT32_MAX || (second && !grow_second(second, t->count)))
        return fail(why, why_size, "line %zu: out of memory", lineno);
    t->nodes[leaf].count += count;
    if (second)
        second->counts[leaf] += count2;
    return 0;
}

int folded_read(FILE *in, struct trie *t, struct strtab *names, struct second_counts *second,
                char *why, size_t why_size)
{
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = getline(&line, &cap, in)) >= 0) {
        size_t len = (size_t)n;
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        if (len == 0)
            continue;
        rc = add_line(t, names, second, line, len, lineno, why, why_size);
    }
    if (rc == 0 && ferror(in))
        rc = fail(why, why_size, "read error: %s", strerror(errno));
    free(line);
    return rc;
}

const char *folded_name_of(void *strtab, const struct trace_node *node, char *buf, size_t size)
{
    (void)buf;
    (void)size;
    return strtab_get(strtab, (uint32_t)node->key);
}
