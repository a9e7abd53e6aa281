/*
 * folded: trie -> sorted, merged folded lines.
 *
 * A depth-first walk builds each counted node's stack text; stacks are
 * sorted and identical ones merged (different nodes can carry the same
 * names: two call targets inside one function), then the final lines are
 * sorted bytewise and written. With a first count per node (differential
 * profiles), each line carries both counts.
 */
#include "flamegraph/folded.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profile/child_index.h"

struct stack_line {
    char *text;     /* the stack, or after merging the whole line */
    uint64_t first; /* folded_write_pair: the first count */
    uint64_t count;
};

struct line_list {
    struct stack_line *items;
    size_t count, capacity;
};

struct text_buf {
    char *data;
    size_t len, capacity;
};

static int text_append(struct text_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d)
            return -1;
        b->data = d;
        b->capacity = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

static int lines_push(struct line_list *l, const char *text, uint64_t first, uint64_t count)
{
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 1024;
        struct stack_line *items = realloc(l->items, cap * sizeof(*items));
        if (!items)
            return -1;
        l->items = items;
        l->capacity = cap;
    }
    char *copy = strdup(text);
    if (!copy)
        return -1;
    l->items[l->count++] = (struct stack_line){.text = copy, .first = first, .count = count};
    return 0;
}

static void lines_free(struct line_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i].text);
    free(l->items);
}

struct walk_item {
    uint32_t node;
    size_t prefix_len; /* stack text length before this node's frame */
};

/*
 * Depth-first over the trie, collecting one stack text per counted node
 * (counted in `count`, or in `first` when it is not NULL).
 */
static int collect_stacks(const struct trie *t, const struct child_index *ci, const uint64_t *first,
                          frame_namer name, void *ctx, struct line_list *out)
{
    struct walk_item *todo = malloc((t->count ? t->count : 1) * sizeof(*todo));
    struct text_buf path = {0};
    int rc = todo ? 0 : -1;
    size_t n = 0;
    for (uint32_t c = ci->first[TRIE_ROOT]; rc == 0 && c < ci->first[TRIE_ROOT + 1]; c++)
        todo[n++] = (struct walk_item){.node = ci->children[c], .prefix_len = 0};
    char buf[64];
    while (rc == 0 && n > 0) {
        struct walk_item it = todo[--n];
        const struct call_node *node = &t->nodes[it.node];
        const char *frame = name(ctx, node, buf, sizeof(buf));
        path.len = it.prefix_len;
        if (!frame || (node->parent != TRIE_ROOT && text_append(&path, ";", 1)) ||
            text_append(&path, frame, strlen(frame))) {
            rc = -1;
            break;
        }
        uint64_t first_count = first ? first[it.node] : 0;
        if ((node->count || first_count) && lines_push(out, path.data, first_count, node->count))
            rc = -1;
        for (uint32_t c = ci->first[it.node]; rc == 0 && c < ci->first[it.node + 1]; c++)
            todo[n++] = (struct walk_item){.node = ci->children[c], .prefix_len = path.len};
    }
    free(todo);
    free(path.data);
    return rc;
}

static int compare_text(const void *a, const void *b)
{
    return strcmp(((const struct stack_line *)a)->text, ((const struct stack_line *)b)->text);
}

static void sort_lines(struct line_list *l)
{
    if (l->count > 1)
        qsort(l->items, l->count, sizeof(*l->items), compare_text);
}

/* Merges identical stacks, turns each into its final "stack [FIRST ]COUNT" line. */
static int merge_and_format(struct line_list *l, bool pairs)
{
    sort_lines(l);
    size_t w = 0;
    for (size_t r = 0; r < l->count; r++) {
        if (w > 0 && strcmp(l->items[w - 1].text, l->items[r].text) == 0) {
            l->items[w - 1].first += l->items[r].first;
            l->items[w - 1].count += l->items[r].count;
            free(l->items[r].text);
        } else {
            l->items[w++] = l->items[r];
        }
    }
    l->count = w;
    for (size_t i = 0; i < l->count; i++) {
        struct stack_line *s = &l->items[i];
        size_t len = strlen(s->text) + 48;
        char *line = malloc(len);
        if (!line)
            return -1;
        if (pairs)
            snprintf(line, len, "%s %" PRIu64 " %" PRIu64, s->text, s->first, s->count);
        else
            snprintf(line, len, "%s %" PRIu64, s->text, s->count);
        free(s->text);
        s->text = line;
    }
    /* Whole lines sorted bytewise (a stack and its extension can swap order). */
    sort_lines(l);
    return 0;
}

static int write_lines(FILE *out, const struct trie *t, const uint64_t *first, frame_namer name,
                       void *ctx)
{
    struct child_index ci = {0};
    struct line_list lines = {0};
    int rc = child_index_build(t, &ci);
    if (rc == 0)
        rc = collect_stacks(t, &ci, first, name, ctx, &lines);
    if (rc == 0)
        rc = merge_and_format(&lines, first != NULL);
    if (rc != 0)
        errno = ENOMEM;
    for (size_t i = 0; rc == 0 && i < lines.count; i++)
        if (fputs(lines.items[i].text, out) == EOF || fputc('\n', out) == EOF)
            rc = -1;
    lines_free(&lines);
    child_index_free(&ci);
    return rc;
}

int folded_write(FILE *out, const struct trie *t, frame_namer name, void *ctx)
{
    return write_lines(out, t, NULL, name, ctx);
}

int folded_write_pair(FILE *out, const struct trie *t, const uint64_t *first, frame_namer name,
                      void *ctx)
{
    return write_lines(out, t, first, name, ctx);
}
