/*
 * bench_tables: the trie's and the strtab's hand-written hash tables
 * against uthash (common/hash_table.h), on the lookups real profiles make.
 * scripts/bench_tables builds it with -O2 against profile/trie.c and
 * profile/strtab.c as they are and runs it; see there for the inputs.
 *
 * usage: bench_tables PERF.folded GUEST.folded [LOOKUPS]
 *
 * Workloads (each timed as the fastest of REPEAT runs):
 *   fold trie    `perf fold`'s per-sample path: samples drawn from the perf
 *                profile (a stack in proportion to its count, fixed seed)
 *                until LOOKUPS frames, each walked from the root with one
 *                child lookup per frame (keys: interned name ids);
 *   fold strtab  `perf collapse` and the folded reader: every frame name
 *                of the same samples interned;
 *   guest trie   writing a guest profile (named_trie_build): the guest
 *                profile's trie copied node by node, one child lookup each;
 *   guest strtab the same copy's names interned, one per node.
 * The uthash versions keep the trie's two-entry memo per parent, so only
 * the table differs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/hash_table.h"
#include "profile/strtab.h"
#include "profile/trie.h"

#define REPEAT 7

/* ---- the uthash versions ---- */

struct edge_key {
    uint64_t key;
    uint32_t parent;
    uint32_t zero; /* the key is hashed as bytes: no padding */
};

struct ut_edge {
    struct edge_key k;
    uint32_t node;
    UT_hash_handle hh;
};

#define EDGE_CHUNK 4096

struct ut_trie {
    struct call_node *nodes;
    size_t count, capacity;
    struct ut_edge *edges;   /* uthash head */
    struct ut_edge **chunks; /* edges live in chunks: uthash keeps pointers to them */
    size_t nchunks, used;
    size_t table_lookups; /* memo misses */
};

static void ut_trie_init(struct ut_trie *t)
{
    memset(t, 0, sizeof(*t));
    t->capacity = 1024;
    t->nodes = calloc(t->capacity, sizeof(*t->nodes));
    t->count = 1;
}

static void ut_trie_free(struct ut_trie *t)
{
    HASH_CLEAR(hh, t->edges);
    for (size_t i = 0; i < t->nchunks; i++)
        free(t->chunks[i]);
    free(t->chunks);
    free(t->nodes);
}

static struct ut_edge *new_edge(struct ut_trie *t)
{
    if (t->nchunks == 0 || t->used == EDGE_CHUNK) {
        t->chunks = realloc(t->chunks, (t->nchunks + 1) * sizeof(*t->chunks));
        t->chunks[t->nchunks++] = malloc(EDGE_CHUNK * sizeof(struct ut_edge));
        t->used = 0;
    }
    return &t->chunks[t->nchunks - 1][t->used++];
}

static void memo_put(struct call_node *p, uint64_t key, uint32_t child)
{
    p->memo_key[1] = p->memo_key[0];
    p->memo_child[1] = p->memo_child[0];
    p->memo_key[0] = key;
    p->memo_child[0] = child;
}

/* trie_child with uthash for the table (no out-of-memory handling: a benchmark). */
static uint32_t ut_trie_child(struct ut_trie *t, uint32_t parent, uint64_t key)
{
    struct call_node *p = &t->nodes[parent];
    for (int i = 0; i < 2; i++)
        if (p->memo_child[i] && p->memo_key[i] == key)
            return p->memo_child[i];
    t->table_lookups++;
    struct edge_key k = {.key = key, .parent = parent};
    struct ut_edge *e;
    HASH_FIND(hh, t->edges, &k, sizeof(k), e);
    if (e) {
        memo_put(p, key, e->node);
        return e->node;
    }
    if (t->count == t->capacity) {
        t->capacity *= 2;
        t->nodes = realloc(t->nodes, t->capacity * sizeof(*t->nodes));
    }
    uint32_t id = (uint32_t)t->count++;
    t->nodes[id] = (struct call_node){.key = key, .parent = parent};
    e = new_edge(t);
    e->k = k;
    e->node = id;
    bool hash_added = true;
    HASH_ADD(hh, t->edges, k, sizeof(e->k), e);
    if (!hash_added)
        abort();
    memo_put(&t->nodes[parent], key, id);
    return id;
}

struct ut_string {
    char *s;
    uint32_t id;
    UT_hash_handle hh;
};

struct ut_strtab {
    struct ut_string *head;
    size_t count;
};

static uint32_t ut_intern(struct ut_strtab *st, const char *s, size_t len)
{
    struct ut_string *e;
    HASH_FIND(hh, st->head, s, len, e);
    if (e)
        return e->id;
    e = malloc(sizeof(*e));
    e->s = malloc(len + 1);
    memcpy(e->s, s, len);
    e->s[len] = '\0';
    e->id = (uint32_t)++st->count;
    bool hash_added = true;
    HASH_ADD_KEYPTR(hh, st->head, e->s, len, e);
    if (!hash_added)
        abort();
    return e->id;
}

static void ut_strtab_free(struct ut_strtab *st)
{
    struct ut_string *e, *tmp;
    HASH_ITER(hh, st->head, e, tmp)
    {
        HASH_DELETE(hh, st->head, e);
        free(e->s);
        free(e);
    }
}

/* ---- the profiles ---- */

struct frame {
    const char *s;
    size_t len;
    uint32_t id; /* interned in the profile's strtab */
};

struct stack {
    struct frame *frames; /* outermost first */
    size_t n;
    uint64_t count;
};

struct profile {
    char *text;
    struct stack *stacks;
    size_t n;
    struct strtab names;
};

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    size_t cap = 1 << 20, len = 0, got;
    char *buf = malloc(cap + 1);
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* Parses "a;b;c COUNT" lines. */
static void load_profile(struct profile *p, const char *path)
{
    memset(p, 0, sizeof(*p));
    p->text = read_all(path);
    strtab_init(&p->names);
    size_t cap = 0;
    for (char *line = p->text, *next; *line; line = next) {
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : line + strlen(line);
        char *end = nl ? nl : next;
        char *space = end;
        while (space > line && *space != ' ')
            space--;
        if (space == line)
            continue;
        if (p->n == cap)
            p->stacks = realloc(p->stacks, (cap = cap ? cap * 2 : 1024) * sizeof(*p->stacks));
        struct stack *st = &p->stacks[p->n++];
        st->count = strtoull(space + 1, NULL, 10);
        st->n = 1;
        for (char *c = line; c < space; c++)
            st->n += *c == ';';
        st->frames = malloc(st->n * sizeof(*st->frames));
        const char *from = line;
        size_t k = 0;
        for (char *c = line; c <= space; c++) {
            if (c == space || *c == ';') {
                st->frames[k] = (struct frame){from, (size_t)(c - from), 0};
                st->frames[k].id = strtab_intern(&p->names, from, (size_t)(c - from));
                k++;
                from = c + 1;
            }
        }
    }
    if (p->n == 0) {
        fprintf(stderr, "%s: no stacks\n", path);
        exit(1);
    }
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Stack indices drawn in proportion to their counts until `lookups` frames. */
static uint32_t *sample_stream(const struct profile *p, size_t lookups, size_t *len)
{
    uint64_t *cum = malloc(p->n * sizeof(*cum)), total = 0;
    for (size_t i = 0; i < p->n; i++)
        cum[i] = total += p->stacks[i].count ? p->stacks[i].count : 1;
    size_t cap = 1024, n = 0, frames = 0;
    uint32_t *out = malloc(cap * sizeof(*out));
    uint64_t rng = 42;
    while (frames < lookups) {
        uint64_t r = next_random(&rng) % total;
        size_t lo = 0, hi = p->n - 1;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (cum[mid] > r)
                hi = mid;
            else
                lo = mid + 1;
        }
        if (n == cap)
            out = realloc(out, (cap *= 2) * sizeof(*out));
        out[n++] = (uint32_t)lo;
        frames += p->stacks[lo].n;
    }
    free(cum);
    *len = n;
    return out;
}

/* ---- the workloads ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

struct work {
    const struct profile *p;
    const uint32_t *stream;
    size_t len;
    struct trie guest; /* the guest profile's trie, keyed by name id */
    const char **guest_names;
    size_t *guest_lens;
};

static void fold_trie_hand(const struct work *w)
{
    struct trie t;
    trie_init(&t);
    bool created;
    for (size_t i = 0; i < w->len; i++) {
        const struct stack *st = &w->p->stacks[w->stream[i]];
        uint32_t node = TRIE_ROOT;
        for (size_t k = 0; k < st->n; k++)
            node = trie_child(&t, node, st->frames[k].id, &created);
        t.nodes[node].count++;
    }
    sink += t.count;
    trie_free(&t);
}

static size_t last_table_lookups, last_nodes;

static void fold_trie_uthash(const struct work *w)
{
    struct ut_trie t;
    ut_trie_init(&t);
    for (size_t i = 0; i < w->len; i++) {
        const struct stack *st = &w->p->stacks[w->stream[i]];
        uint32_t node = TRIE_ROOT;
        for (size_t k = 0; k < st->n; k++)
            node = ut_trie_child(&t, node, st->frames[k].id);
        t.nodes[node].count++;
    }
    sink += t.count;
    last_table_lookups = t.table_lookups;
    last_nodes = t.count - 1;
    ut_trie_free(&t);
}

static void fold_strtab_hand(const struct work *w)
{
    struct strtab st;
    strtab_init(&st);
    for (size_t i = 0; i < w->len; i++) {
        const struct stack *s = &w->p->stacks[w->stream[i]];
        for (size_t k = 0; k < s->n; k++)
            sink += strtab_intern(&st, s->frames[k].s, s->frames[k].len);
    }
    strtab_free(&st);
}

static void fold_strtab_uthash(const struct work *w)
{
    struct ut_strtab st = {0};
    for (size_t i = 0; i < w->len; i++) {
        const struct stack *s = &w->p->stacks[w->stream[i]];
        for (size_t k = 0; k < s->n; k++)
            sink += ut_intern(&st, s->frames[k].s, s->frames[k].len);
    }
    ut_strtab_free(&st);
}

#define GUEST_OPS 1000000 /* a guest profile is small: copy it until this many nodes */

static size_t guest_copies(const struct work *w)
{
    return GUEST_OPS / (w->guest.count - 1) + 1;
}

static void guest_trie_hand(const struct work *w)
{
    uint32_t *map = malloc(w->guest.count * sizeof(*map));
    for (size_t r = 0; r < guest_copies(w); r++) {
        struct trie t;
        trie_init(&t);
        bool created;
        map[TRIE_ROOT] = TRIE_ROOT;
        for (size_t i = 1; i < w->guest.count; i++)
            map[i] = trie_child(&t, map[w->guest.nodes[i].parent], w->guest.nodes[i].key, &created);
        sink += t.count;
        trie_free(&t);
    }
    free(map);
}

static void guest_trie_uthash(const struct work *w)
{
    uint32_t *map = malloc(w->guest.count * sizeof(*map));
    for (size_t r = 0; r < guest_copies(w); r++) {
        struct ut_trie t;
        ut_trie_init(&t);
        map[TRIE_ROOT] = TRIE_ROOT;
        for (size_t i = 1; i < w->guest.count; i++)
            map[i] = ut_trie_child(&t, map[w->guest.nodes[i].parent], w->guest.nodes[i].key);
        sink += t.count;
        ut_trie_free(&t);
    }
    free(map);
}

static void guest_strtab_hand(const struct work *w)
{
    for (size_t r = 0; r < guest_copies(w); r++) {
        struct strtab st;
        strtab_init(&st);
        for (size_t i = 1; i < w->guest.count; i++)
            sink += strtab_intern(&st, w->guest_names[i], w->guest_lens[i]);
        strtab_free(&st);
    }
}

static void guest_strtab_uthash(const struct work *w)
{
    for (size_t r = 0; r < guest_copies(w); r++) {
        struct ut_strtab st = {0};
        for (size_t i = 1; i < w->guest.count; i++)
            sink += ut_intern(&st, w->guest_names[i], w->guest_lens[i]);
        ut_strtab_free(&st);
    }
}

/* The guest profile as a trie keyed by name id, and each node's name. */
static void load_guest(struct work *w, const struct profile *g)
{
    trie_init(&w->guest);
    size_t cap = 1024;
    w->guest_names = malloc(cap * sizeof(*w->guest_names));
    w->guest_lens = malloc(cap * sizeof(*w->guest_lens));
    bool created;
    for (size_t i = 0; i < g->n; i++) {
        uint32_t node = TRIE_ROOT;
        for (size_t k = 0; k < g->stacks[i].n; k++) {
            const struct frame *f = &g->stacks[i].frames[k];
            node = trie_child(&w->guest, node, f->id, &created);
            if (node >= cap) {
                cap *= 2;
                w->guest_names = realloc(w->guest_names, cap * sizeof(*w->guest_names));
                w->guest_lens = realloc(w->guest_lens, cap * sizeof(*w->guest_lens));
            }
            w->guest_names[node] = f->s;
            w->guest_lens[node] = f->len;
        }
    }
}

static double fastest(void (*run)(const struct work *), const struct work *w)
{
    double best = 1e30;
    for (int i = 0; i < REPEAT; i++) {
        double t0 = now();
        run(w);
        double t = now() - t0;
        best = t < best ? t : best;
    }
    return best;
}

static void report(const char *name, size_t ops, void (*hand)(const struct work *),
                   void (*ut)(const struct work *), const struct work *w)
{
    double a = fastest(hand, w), b = fastest(ut, w);
    printf("%-13s %10zu %12.2f %12.2f %9.2f\n", name, ops, a * 1e9 / ops, b * 1e9 / ops, b / a);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PERF.folded GUEST.folded [LOOKUPS]\n", argv[0]);
        return 2;
    }
    size_t lookups = argc > 3 ? strtoull(argv[3], NULL, 10) : 3000000;
    struct profile perf, guest;
    load_profile(&perf, argv[1]);
    load_profile(&guest, argv[2]);
    struct work w = {.p = &perf};
    w.stream = sample_stream(&perf, lookups, &w.len);
    size_t frames = 0;
    for (size_t i = 0; i < w.len; i++)
        frames += perf.stacks[w.stream[i]].n;
    load_guest(&w, &guest);

    fold_trie_uthash(&w); /* for its counts, and to warm up */
    printf("perf profile: %zu stacks, %zu names, %zu nodes; %zu samples, %zu lookups, "
           "%zu reach the table (the rest hit the memo)\n",
           perf.n, perf.names.count - 1, last_nodes, w.len, frames, last_table_lookups);
    printf("guest profile: %zu nodes, %zu names; copied %zu times\n", w.guest.count - 1,
           guest.names.count - 1, guest_copies(&w));
    printf("%-13s %10s %12s %12s %9s\n", "workload", "ops", "hand ns/op", "uthash ns/op",
           "uthash/hand");
    report("fold trie", frames, fold_trie_hand, fold_trie_uthash, &w);
    report("fold strtab", frames, fold_strtab_hand, fold_strtab_uthash, &w);
    size_t guest_ops = (w.guest.count - 1) * guest_copies(&w);
    report("guest trie", guest_ops, guest_trie_hand, guest_trie_uthash, &w);
    report("guest strtab", guest_ops, guest_strtab_hand, guest_strtab_uthash, &w);
    return 0;
}
