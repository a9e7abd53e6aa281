/*
 * profile_expand: one pass over the profile's nodes, parents first (a
 * node's id is above its parent's), mapping each to the named node its
 * frame (or, for a call site, the inline chain at the call) ends in; the
 * own counts are spread over each frame node's pcs by its run array. A
 * pc's leaf (with lines `name:LINE`, raw `0x<target>@0x<pc>`) and a raw
 * call site (`0x<target>@0x<call pc>`) are siblings of their frame's
 * named node.
 */
#include "tracer/profile_expand.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expand {
    struct guest_profile *p;
    struct trie *dst;
    struct strtab *names;
    uint32_t *out;           /* per profile node: the named node it ends in */
    uint64_t *below;         /* per profile node: what its children hold (inclusive) */
    unsigned flags;          /* GUEST_WRITE_* */
    struct profile *sources; /* where `name:LINE` leaves get their file and line, or NULL */
    char *buf;               /* a frame name with `;` made `:` */
    size_t buf_size;
    char *leaf; /* a frame name with its suffix (`:LINE`, `@0x<pc>`) */
    size_t leaf_size;
    uint32_t frame;                     /* the named node of the frame whose pcs are visited */
    uint64_t pcs_value;                 /* what its pcs added, weighed */
    const struct expand_weigher *weigh; /* NULL: the counts themselves */
};

/* The named child of `parent` for `name` (`;` written `:`); UINT32_MAX when memory runs out. */
static uint32_t named_child(struct expand *x, uint32_t parent, const char *name)
{
    size_t len = strlen(name);
    if (strchr(name, ';')) {
        if (len + 1 > x->buf_size) {
            char *b = realloc(x->buf, len + 1);
            if (!b)
                return UINT32_MAX;
            x->buf = b;
            x->buf_size = len + 1;
        }
        for (size_t i = 0; i <= len; i++)
            x->buf[i] = name[i] == ';' ? ':' : name[i];
        name = x->buf;
    }
    uint32_t id = strtab_intern(x->names, name, len);
    bool created;
    return id ? trie_child(x->dst, parent, id, &created) : UINT32_MAX;
}

/* The name of named node `n` with `format` (of one number, at most 23 bytes) after it, in x->leaf.
 */
static const char *suffixed(struct expand *x, uint32_t n, const char *format, unsigned long long v)
{
    const char *name = strtab_get(x->names, x->dst->nodes[n].key);
    size_t len = strlen(name), need = len + 24;
    if (need > x->leaf_size) {
        char *b = realloc(x->leaf, need);
        if (!b)
            return NULL;
        x->leaf = b;
        x->leaf_size = need;
    }
    memcpy(x->leaf, name, len);
    snprintf(x->leaf + len, need - len, format, v);
    return x->leaf;
}

/* The sibling of named node `n` named as `n` with the suffix; UINT32_MAX when memory runs out. */
static uint32_t sibling(struct expand *x, uint32_t n, const char *format, unsigned long long v)
{
    const char *name = suffixed(x, n, format, v);
    return name ? named_child(x, x->dst->nodes[n].parent, name) : UINT32_MAX;
}

/*
 * The named node under `at` for the inline chain at pc, outermost first
 * (unnamed levels left out; none without inline frames), its last level
 * `name:LINE` when `line`, the pc's line, is known.
 */
static uint32_t chain_under(struct expand *x, uint32_t at, uint64_t pc, bool line)
{
    if (!x->p->inlines) /* per-pc mode for weights alone: no inline frames */
        return at;
    struct error e = ERROR_INIT;
    const struct inline_chain *c = inline_chain_at(x->p->inlines, pc, &e);
    if (!c)
        return UINT32_MAX;
    if (!(x->flags & GUEST_WRITE_NO_INLINE))
        for (size_t i = 0; i < c->depth && at != UINT32_MAX; i++)
            if (c->frames[i].name)
                at = named_child(x, at, c->frames[i].name);
    if (line && c->line && c->file && at != UINT32_MAX) {
        at = sibling(x, at, ":%llu", c->line);
        if (at != UINT32_MAX && x->sources &&
            profile_set_frame_source(x->sources, x->dst->nodes[at].key, c->file, c->line) != 0)
            return UINT32_MAX;
    }
    return at;
}

/* One pc's count: under the chain at pc below the visited frame; raw, 0x<target>@0x<pc>. */
static int add_pc(void *ctx, uint64_t pc, uint64_t count)
{
    struct expand *x = ctx;
    uint32_t leaf = x->flags & GUEST_WRITE_RAW
                        ? sibling(x, x->frame, "@0x%llx", pc)
                        : chain_under(x, x->frame, pc, x->flags & GUEST_WRITE_LINES);
    if (leaf == UINT32_MAX)
        return -1;
    uint64_t value = x->weigh ? x->weigh->pc(x->weigh->ctx, pc, count) : count;
    x->dst->nodes[leaf].count += value;
    x->pcs_value += value;
    return 0;
}

/* Node i's inclusive count of the weight expanded. */
static uint64_t node_count(const struct expand *x, size_t i)
{
    return x->weigh && x->weigh->counts ? x->weigh->counts[i] : x->p->trie.nodes[i].count;
}

/* below[]: children's inclusive counts; a call site's own is its children's. */
static void sum_children(struct expand *x)
{
    const struct trie *t = &x->p->trie;
    for (size_t i = t->count; i-- > 1;) {
        const struct call_node *n = &t->nodes[i];
        uint64_t inclusive = guest_key_is_site(n->key) ? x->below[i] : node_count(x, i);
        if (n->parent != TRIE_ROOT)
            x->below[n->parent] += inclusive;
    }
}

/* Maps node i (its parent mapped already) and adds its own count. 0, or -1. */
static int expand_node(struct expand *x, size_t i, frame_namer name)
{
    struct guest_profile *p = x->p;
    const struct call_node *n = &p->trie.nodes[i];
    uint32_t base = x->out[n->parent];
    if (guest_key_is_site(n->key)) { /* its chain's pc lies in the caller's function */
        uint64_t pc = p->chain_pcs[n->key >> 1];
        x->out[i] = x->flags & GUEST_WRITE_RAW ? sibling(x, base, "@0x%llx", pc)
                                               : chain_under(x, base, pc, false);
        return x->out[i] == UINT32_MAX ? -1 : 0;
    }
    char buf[64];
    errno = 0;
    const char *frame = name(p, n, buf, sizeof(buf));
    x->out[i] = frame ? named_child(x, base, frame) : UINT32_MAX;
    if (x->out[i] == UINT32_MAX)
        return -1;
    uint64_t own = node_count(x, i) - x->below[i], in_pcs = 0;
    x->frame = x->out[i];
    x->pcs_value = 0;
    if (guest_profile_node_pcs(p, (uint32_t)i, add_pc, x, &in_pcs) != 0)
        return -1;
    /* what ran outside its function, or a call's leaf */
    own -= x->weigh && x->weigh->counts ? x->pcs_value : in_pcs;
    x->dst->nodes[x->out[i]].count += x->weigh ? x->weigh->node(x->weigh->ctx, n, own) : own;
    return x->weigh && x->weigh->extra ? x->weigh->extra(x->weigh->ctx, x, (uint32_t)i, x->out[i])
                                       : 0;
}

int profile_expand(struct guest_profile *p, frame_namer name, unsigned flags, struct trie *dst,
                   struct strtab *names, struct profile *sources)
{
    return profile_expand_weighed(p, name, flags, NULL, dst, names, sources);
}

int profile_expand_add(struct expand *x, uint32_t parent, const char *name, uint64_t value)
{
    uint32_t child = named_child(x, parent, name);
    if (child == UINT32_MAX)
        return -1;
    x->dst->nodes[child].count += value;
    return 0;
}

int profile_expand_weighed(struct guest_profile *p, frame_namer name, unsigned flags,
                           const struct expand_weigher *weigh, struct trie *dst,
                           struct strtab *names, struct profile *sources)
{
    size_t count = p->trie.count ? p->trie.count : 1;
    struct expand x = {
        .p = p, .dst = dst, .names = names, .flags = flags, .sources = sources, .weigh = weigh};
    x.out = malloc(count * sizeof(*x.out));
    x.below = calloc(count, sizeof(*x.below));
    int rc = x.out && x.below ? 0 : -1;
    if (rc == 0) {
        sum_children(&x);
        x.out[TRIE_ROOT] = TRIE_ROOT;
        for (size_t i = 1; rc == 0 && i < p->trie.count; i++)
            rc = expand_node(&x, i, name);
    }
    if (rc != 0 && !errno)
        errno = ENOMEM;
    free(x.out);
    free(x.below);
    free(x.buf);
    free(x.leaf);
    return rc;
}
