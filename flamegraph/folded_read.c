/*
 * folded_read: folded text -> trie of interned names, line by line, each
 * line reusing the nodes of the frames it shares with the line before.
 */
#include "flamegraph/folded_read.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* "NAME: line N: WHAT", or "line N: WHAT" when the input has no name. */
static int bad_line(struct error *e, enum error_status status, const char *name, size_t lineno,
                    const char *what)
{
    return error_fail(e, status, "%s%sline %zu: %s", name ? name : "", name ? ": " : "", lineno,
                      what);
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

/*
 * The previous line's stack. Lines of a sorted file share long prefixes
 * with the line before, so the nodes of the shared frames are taken from
 * here instead of being looked up again (a lookup is a cache miss in a
 * large trie).
 */
struct prev_stack {
    char *text; /* the stack's text */
    size_t len, cap;
    uint32_t *nodes; /* nodes[i]: the node of frame i */
    size_t *ends;    /* ends[i]: where frame i ends in text */
    size_t depth, cap_depth;
};

static void prev_free(struct prev_stack *p)
{
    free(p->text);
    free(p->nodes);
    free(p->ends);
}

static bool prev_push(struct prev_stack *p, uint32_t node, size_t end)
{
    if (p->depth == p->cap_depth) {
        size_t cap = p->cap_depth ? p->cap_depth * 2 : 64;
        uint32_t *nodes = realloc(p->nodes, cap * sizeof(*nodes));
        if (nodes)
            p->nodes = nodes;
        size_t *ends = realloc(p->ends, cap * sizeof(*ends));
        if (ends)
            p->ends = ends;
        if (!nodes || !ends)
            return false;
        p->cap_depth = cap;
    }
    p->nodes[p->depth] = node;
    p->ends[p->depth++] = end;
    return true;
}

static bool prev_set_text(struct prev_stack *p, const char *stack, size_t len)
{
    if (len + 1 > p->cap) {
        size_t cap = p->cap ? p->cap : 256;
        while (cap < len + 1)
            cap *= 2;
        char *text = realloc(p->text, cap);
        if (!text)
            return false;
        p->text = text;
        p->cap = cap;
    }
    memcpy(p->text, stack, len);
    p->len = len;
    return true;
}

/* How many leading frames `stack` shares with the previous line. */
static size_t shared_frames(const struct prev_stack *p, const char *stack, size_t len)
{
    size_t common = 0, limit = len < p->len ? len : p->len;
    while (common < limit && stack[common] == p->text[common])
        common++;
    size_t d = 0;
    while (d < p->depth && p->ends[d] <= common && (p->ends[d] == len || stack[p->ends[d]] == ';'))
        d++;
    return d;
}

/* Walks (creating) the stack's nodes; returns the leaf, or UINT32_MAX without memory. */
static uint32_t insert_stack(struct trie *t, struct strtab *names, struct prev_stack *prev,
                             const char *stack, size_t len)
{
    size_t shared = shared_frames(prev, stack, len);
    uint32_t node = shared ? prev->nodes[shared - 1] : TRIE_ROOT;
    size_t start = shared ? prev->ends[shared - 1] + 1 : 0;
    prev->depth = shared;
    for (size_t i = start; i <= len && start <= len; i++) {
        if (i < len && stack[i] != ';')
            continue;
        uint32_t id = strtab_intern(names, stack + start, i - start);
        bool created;
        if (!id || (node = trie_child(t, node, id, &created)) == UINT32_MAX ||
            !prev_push(prev, node, i)) {
            prev->depth = 0;
            return UINT32_MAX;
        }
        start = i + 1;
    }
    if (!prev_set_text(prev, stack, len)) {
        prev->depth = 0;
        return UINT32_MAX;
    }
    return node;
}

static int add_line(struct trie *t, struct strtab *names, struct second_counts *second,
                    struct prev_stack *prev, const char *line, size_t len, const char *name,
                    size_t lineno, struct error *e)
{
    uint64_t count, count2 = 0;
    if (second && !take_count(line, &len, &count2))
        return bad_line(e, ERROR_CORRUPT, name, lineno, "expected 'stack COUNT1 COUNT2'");
    if (!take_count(line, &len, &count))
        return bad_line(e, ERROR_CORRUPT, name, lineno, "expected 'frame;frame;... COUNT'");
    uint32_t leaf = insert_stack(t, names, prev, line, len);
    if (leaf == UINT32_MAX || (second && !grow_second(second, t->count)))
        return bad_line(e, ERROR_NO_MEMORY, name, lineno, "out of memory");
    t->nodes[leaf].count += count;
    if (second)
        second->counts[leaf] += count2;
    return 0;
}

/* Reads `in`, called `name` in messages (NULL: no name). */
static int read_stream(FILE *in, const char *name, struct trie *t, struct strtab *names,
                       struct second_counts *second, struct error *e)
{
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    struct prev_stack prev = {0};
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = getline(&line, &cap, in)) >= 0) {
        size_t len = (size_t)n;
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        if (len == 0)
            continue;
        rc = add_line(t, names, second, &prev, line, len, name, lineno, e);
    }
    if (rc == 0 && ferror(in)) {
        if (name)
            rc = error_fail_errno(e, ERROR_UNREADABLE, errno, "cannot read %s", name);
        else
            rc = error_fail_errno(e, ERROR_UNREADABLE, errno, "read error");
    }
    free(line);
    prev_free(&prev);
    return rc;
}

int folded_read(FILE *in, struct trie *t, struct strtab *names, struct second_counts *second,
                struct error *e)
{
    return read_stream(in, NULL, t, names, second, e);
}

int folded_read_named(FILE *in, const char *name, struct trie *t, struct strtab *names,
                      struct error *e)
{
    return read_stream(in, name, t, names, NULL, e);
}

static bool is_stdin(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

const char *folded_path_name(const char *path)
{
    return is_stdin(path) ? "<stdin>" : path;
}

int folded_read_path(const char *path, struct trie *t, struct strtab *names,
                     struct second_counts *second, struct error *e)
{
    const char *name = folded_path_name(path);
    FILE *in = is_stdin(path) ? stdin : fopen(path, "rb");
    if (!in)
        return error_fail_errno(e, ERROR_UNREADABLE, errno, "cannot read %s", name);
    int rc = read_stream(in, name, t, names, second, e);
    if (in != stdin)
        fclose(in);
    return rc;
}
