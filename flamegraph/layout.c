/*
 * layout: subtree totals in one backward pass (a node's id is always
 * above its parent's), names ranked once so siblings sort by integer,
 * then a depth-first walk that visits only the children of drawn frames.
 */
#include "flamegraph/layout.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profile/child_index.h"

static uint64_t add_saturating(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

/* Each node's count plus its descendants', from `self` or else the nodes' counts. */
static uint64_t *subtree_totals(const struct trie *t, const uint64_t *self)
{
    uint64_t *total = malloc((t->count ? t->count : 1) * sizeof(*total));
    if (!total)
        return NULL;
    for (size_t i = 0; i < t->count; i++)
        total[i] = self ? self[i] : t->nodes[i].count;
    for (size_t i = t->count; i-- > 1;)
        total[t->nodes[i].parent] = add_saturating(total[t->nodes[i].parent], total[i]);
    return total;
}

struct name_ref {
    const char *s;
    size_t len;
    uint32_t id;
};

/* Bytewise, as memcmp; a prefix sorts first. */
static int compare_names(const void *a, const void *b)
{
    const struct name_ref *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
    if (c)
        return c;
    return (x->len > y->len) - (x->len < y->len);
}

/* rank[id]: the position of name `id` in bytewise order. */
static uint32_t *name_ranks(const struct strtab *names)
{
    size_t n = names->count ? names->count : 1;
    struct name_ref *refs = malloc(n * sizeof(*refs));
    uint32_t *rank = calloc(n, sizeof(*rank));
    if (!refs || !rank) {
        free(refs);
        free(rank);
        return NULL;
    }
    size_t k = 0;
    for (size_t id = 1; id < names->count; id++)
        refs[k++] = (struct name_ref){names->strings[id], names->lengths[id], (uint32_t)id};
    if (k > 1)
        qsort(refs, k, sizeof(*refs), compare_names);
    for (size_t i = 0; i < k; i++)
        rank[refs[i].id] = (uint32_t)i;
    free(refs);
    return rank;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

struct pending {
    uint32_t node, depth;
    uint64_t start;
};

/* Everything the walk needs, so the helpers take one argument. */
struct walk {
    const struct trie *t;
    const uint64_t *total, *before_total;
    uint32_t *rank;
    struct child_index ci;
    double min_total;
    uint64_t *sorted;        /* scratch: rank << 32 | node of one node's children */
    struct pending *pending; /* the walk's stack */
    size_t pending_count;
    struct layout *out;
    size_t box_capacity;
};

static bool drawn(const struct walk *w, uint32_t node)
{
    return w->total[node] > 0 && (double)w->total[node] >= w->min_total;
}

static int emit_box(struct walk *w, const struct pending *p)
{
    struct layout *l = w->out;
    if (l->count == w->box_capacity) {
        size_t cap = w->box_capacity ? w->box_capacity * 2 : 1024;
        struct layout_box *boxes = realloc(l->boxes, cap * sizeof(*boxes));
        if (!boxes)
            return -1;
        l->boxes = boxes;
        w->box_capacity = cap;
    }
    l->boxes[l->count++] = (struct layout_box){
        .node = p->node,
        .depth = p->depth,
        .start = p->start,
        .total = w->total[p->node],
        .before = w->before_total ? w->before_total[p->node] : 0,
    };
    if (p->depth > l->max_depth)
        l->max_depth = p->depth;
    return 0;
}

/* Places the children of `p` after its own count, by name; pushes the drawn ones. */
static void push_children(struct walk *w, const struct pending *p)
{
    uint32_t lo = w->ci.first[p->node], hi = w->ci.first[p->node + 1];
    size_t n = 0;
    for (uint32_t c = lo; c < hi; c++) {
        uint32_t child = w->ci.children[c];
        w->sorted[n++] = (uint64_t)w->rank[w->t->nodes[child].key] << 32 | child;
    }
    if (n > 1)
        qsort(w->sorted, n, sizeof(*w->sorted), compare_u64);
    uint64_t offset = p->start + w->t->nodes[p->node].count;
    size_t first = w->pending_count;
    for (size_t i = 0; i < n; i++) {
        uint32_t child = (uint32_t)w->sorted[i];
        if (drawn(w, child))
            w->pending[w->pending_count++] =
                (struct pending){.node = child, .depth = p->depth + 1, .start = offset};
        offset = add_saturating(offset, w->total[child]);
    }
    /* Reversed, so the first child is popped (and written) first. */
    for (size_t i = first, j = w->pending_count; i + 1 < j; i++, j--) {
        struct pending tmp = w->pending[i];
        w->pending[i] = w->pending[j - 1];
        w->pending[j - 1] = tmp;
    }
}

static int walk_tree(struct walk *w)
{
    if (!drawn(w, TRIE_ROOT))
        return 0;
    w->pending[w->pending_count++] = (struct pending){.node = TRIE_ROOT};
    while (w->pending_count > 0) {
        struct pending p = w->pending[--w->pending_count];
        if (emit_box(w, &p) != 0)
            return -1;
        push_children(w, &p);
    }
    return 0;
}

/* Every node's key must be an id of `names`. */
static bool keys_are_names(const struct trie *t, const struct strtab *names)
{
    for (size_t i = 1; i < t->count; i++)
        if (t->nodes[i].key == 0 || t->nodes[i].key >= names->count)
            return false;
    return true;
}

int layout_build(struct layout *l, const struct trie *t, const struct strtab *names,
                 const uint64_t *before, double min_total)
{
    memset(l, 0, sizeof(*l));
    if (!keys_are_names(t, names)) {
        errno = EINVAL;
        return -1;
    }
    size_t n = t->count ? t->count : 1;
    uint64_t *total = subtree_totals(t, NULL);
    uint64_t *before_total = before ? subtree_totals(t, before) : NULL;
    struct walk w = {
        .t = t,
        .total = total,
        .before_total = before_total,
        .rank = name_ranks(names),
        .min_total = min_total,
        .sorted = malloc(n * sizeof(uint64_t)),
        .pending = malloc(n * sizeof(struct pending)),
        .out = l,
    };
    int rc = -1;
    if (total && (before_total || !before) && w.rank && w.sorted && w.pending &&
        child_index_build(t, &w.ci) == 0) {
        l->grand_total = total[TRIE_ROOT];
        rc = walk_tree(&w);
    }
    child_index_free(&w.ci);
    free(w.pending);
    free(w.sorted);
    free(w.rank);
    free(before_total);
    free(total);
    if (rc != 0)
        errno = ENOMEM;
    return rc;
}

void layout_free(struct layout *l)
{
    free(l->boxes);
    memset(l, 0, sizeof(*l));
}
