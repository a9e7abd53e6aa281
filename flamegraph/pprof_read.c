/*
 * pprof_read: gunzip (zlib, bounded), unpack (protobuf-c), check every
 * index, then walk each sample's locations from the root: a location's
 * lines are its inlined frames, the last one outermost (profile.proto).
 */
#include "flamegraph/pprof.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "third_party/pprof/profile.pb-c.h"

/* A decompressed profile larger than this is refused rather than read. */
#define PPROF_MAX_BYTES (1ull << 31)

static bool is_gzip(const unsigned char *d, size_t len)
{
    return len >= 2 && d[0] == 0x1f && d[1] == 0x8b;
}

/* Inflates a gzip stream into *out. Returns 0, or -1 with `e` set. */
static int gunzip(const unsigned char *data, size_t len, const char *name, unsigned char **out,
                  size_t *out_len, struct error *e)
{
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    size_t cap = len * 4 + 4096, n = 0;
    unsigned char *buf = malloc(cap);
    int zrc = Z_OK, rc = 0;
    z.next_in = (Bytef *)data;
    z.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
    while (buf && zrc == Z_OK) {
        if (n == cap) {
            if (cap >= PPROF_MAX_BYTES) {
                rc = error_fail(e, ERROR_UNSUPPORTED, "%s: larger than %llu bytes unzipped", name,
                                PPROF_MAX_BYTES);
                break;
            }
            unsigned char *grown = realloc(buf, cap * 2);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
        size_t room = cap - n > UINT32_MAX ? UINT32_MAX : cap - n;
        z.next_out = buf + n;
        z.avail_out = (uInt)room;
        zrc = inflate(&z, Z_NO_FLUSH);
        n += room - z.avail_out;
        if (zrc == Z_BUF_ERROR && z.avail_in == 0)
            break; /* input ended inside the stream */
        if (zrc == Z_BUF_ERROR)
            zrc = Z_OK; /* the output was full: grow and go on */
    }
    inflateEnd(&z);
    if (rc == 0 && (!buf || (zrc == Z_OK && n == cap)))
        rc = error_fail(e, ERROR_NO_MEMORY, "out of memory");
    else if (rc == 0 && zrc != Z_STREAM_END)
        rc = error_fail(e, ERROR_CORRUPT, "%s: damaged gzip data (%s)", name,
                        zrc == Z_BUF_ERROR ? "truncated"
                        : z.msg            ? z.msg
                                           : "inflate failed");
    if (rc) {
        free(buf);
        return -1;
    }
    *out = buf;
    *out_len = n;
    return 0;
}

/* The profile's functions and locations, sorted by id for lookups. */
struct pprof_index {
    const Perftools__Profiles__Profile *m;
    Perftools__Profiles__Function **funcs;
    Perftools__Profiles__Location **locs;
    int *weight_of; /* by sample type: the profile's weight */
    char *name_buf;
    size_t name_cap;
};

static int compare_func(const void *a, const void *b)
{
    uint64_t x = (*(Perftools__Profiles__Function *const *)a)->id;
    uint64_t y = (*(Perftools__Profiles__Function *const *)b)->id;
    return (x > y) - (x < y);
}

static int compare_loc(const void *a, const void *b)
{
    uint64_t x = (*(Perftools__Profiles__Location *const *)a)->id;
    uint64_t y = (*(Perftools__Profiles__Location *const *)b)->id;
    return (x > y) - (x < y);
}

/* Where `id` is, or would be, in items[0..n) sorted by id (read by `id_of`). */
static size_t lower_bound(void *const *items, size_t n, uint64_t id,
                          uint64_t (*id_of)(const void *))
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (id_of(items[mid]) < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t func_id(const void *f)
{
    return ((const Perftools__Profiles__Function *)f)->id;
}

static uint64_t loc_id(const void *l)
{
    return ((const Perftools__Profiles__Location *)l)->id;
}

static Perftools__Profiles__Function *find_func(const struct pprof_index *ix, uint64_t id)
{
    size_t n = ix->m->n_function, at = lower_bound((void *const *)ix->funcs, n, id, func_id);
    return at < n && ix->funcs[at]->id == id ? ix->funcs[at] : NULL;
}

static Perftools__Profiles__Location *find_loc(const struct pprof_index *ix, uint64_t id)
{
    size_t n = ix->m->n_location, at = lower_bound((void *const *)ix->locs, n, id, loc_id);
    return at < n && ix->locs[at]->id == id ? ix->locs[at] : NULL;
}

static bool string_ok(const Perftools__Profiles__Profile *m, int64_t i)
{
    return i >= 0 && (uint64_t)i < m->n_string_table;
}

/* Checks every string index; returns 0 or -1 with `e` set. */
static int check_strings(const Perftools__Profiles__Profile *m, const char *name, struct error *e)
{
    if (m->n_string_table == 0 || m->string_table[0][0] != '\0')
        return error_fail(e, ERROR_CORRUPT, "%s: string_table[0] is not \"\"", name);
    for (size_t i = 0; i < m->n_sample_type; i++)
        if (!string_ok(m, m->sample_type[i]->type) || !string_ok(m, m->sample_type[i]->unit))
            return error_fail(e, ERROR_CORRUPT, "%s: sample type %zu: string index out of range",
                              name, i);
    for (size_t i = 0; i < m->n_function; i++)
        if (!string_ok(m, m->function[i]->name) || !string_ok(m, m->function[i]->filename))
            return error_fail(e, ERROR_CORRUPT,
                              "%s: function %" PRIu64 ": string index out of range", name,
                              m->function[i]->id);
    return 0;
}

/* Builds the lookups and checks the ids they hold. */
static int index_build(struct pprof_index *ix, const Perftools__Profiles__Profile *m,
                       const char *name, struct error *e)
{
    ix->m = m;
    ix->funcs = malloc((m->n_function ? m->n_function : 1) * sizeof(*ix->funcs));
    ix->locs = malloc((m->n_location ? m->n_location : 1) * sizeof(*ix->locs));
    ix->weight_of = malloc((m->n_sample_type ? m->n_sample_type : 1) * sizeof(int));
    if (!ix->funcs || !ix->locs || !ix->weight_of)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    if (m->n_function)
        memcpy(ix->funcs, m->function, m->n_function * sizeof(*ix->funcs));
    if (m->n_location)
        memcpy(ix->locs, m->location, m->n_location * sizeof(*ix->locs));
    qsort(ix->funcs, m->n_function, sizeof(*ix->funcs), compare_func);
    qsort(ix->locs, m->n_location, sizeof(*ix->locs), compare_loc);
    for (size_t i = 0; i < m->n_location; i++)
        for (size_t l = 0; l < m->location[i]->n_line; l++)
            if (!find_func(ix, m->location[i]->line[l]->function_id))
                return error_fail(e, ERROR_CORRUPT,
                                  "%s: location %" PRIu64 " names function %" PRIu64
                                  ", which is not in the profile",
                                  name, m->location[i]->id, m->location[i]->line[l]->function_id);
    return 0;
}

static void index_free(struct pprof_index *ix)
{
    free(ix->funcs);
    free(ix->locs);
    free(ix->weight_of);
    free(ix->name_buf);
}

/* The sample types as the profile's weights, matched by name. */
static int take_weights(struct pprof_index *ix, struct profile *p, const char *name,
                        struct error *e)
{
    const Perftools__Profiles__Profile *m = ix->m;
    if (m->n_sample_type == 0)
        return error_fail(e, ERROR_CORRUPT, "%s: no sample types", name);
    for (size_t i = 0; i < m->n_sample_type; i++) {
        const char *type = m->string_table[m->sample_type[i]->type];
        const char *unit = m->string_table[m->sample_type[i]->unit];
        int w = profile_find_weight(p, type);
        if (w < 0)
            w = profile_add_weight(p, type, *unit ? unit : "count", true);
        if (w < 0)
            return errno == E2BIG
                       ? error_fail(e, ERROR_UNSUPPORTED, "%s: more than %d sample types", name,
                                    PROFILE_MAX_WEIGHTS)
                       : error_fail(e, ERROR_NO_MEMORY, "out of memory");
        ix->weight_of[i] = w;
    }
    return 0;
}

/*
 * The frame name of a line (its function's name, ';' written ':' and line
 * breaks as spaces, docs/FORMATS.md#folded-stacks), or of a location
 * without lines (0x<address>), interned; 0 when memory runs out.
 */
static uint32_t intern_frame(struct pprof_index *ix, struct profile *p, const char *text,
                             uint64_t address)
{
    char hex[32];
    if (!text || !*text) {
        snprintf(hex, sizeof(hex), address ? "0x%" PRIx64 : "[unknown]", address);
        text = hex;
    }
    size_t len = strlen(text);
    if (len + 1 > ix->name_cap) {
        char *buf = realloc(ix->name_buf, len + 1);
        if (!buf)
            return 0;
        ix->name_buf = buf;
        ix->name_cap = len + 1;
    }
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        ix->name_buf[i] = c == ';' ? ':' : (c == '\n' || c == '\r') ? ' ' : c;
    }
    return strtab_intern(p->names, ix->name_buf, len);
}

/* Pushes one frame under *node. Returns 0 or -1 (out of memory). */
static int push_frame(struct pprof_index *ix, struct profile *p, uint32_t *node,
                      const Perftools__Profiles__Function *f, int64_t line, uint64_t address)
{
    const Perftools__Profiles__Profile *m = ix->m;
    uint32_t id = intern_frame(ix, p, f ? m->string_table[f->name] : NULL, address);
    bool created;
    if (!id || (*node = trie_child(p->trie, *node, id, &created)) == UINT32_MAX)
        return -1;
    if (f && (f->filename || line > 0) &&
        profile_set_frame_source(p, id, m->string_table[f->filename],
                                 line > 0 && line <= UINT32_MAX ? (uint32_t)line : 0))
        return -1;
    return 0;
}

/* Walks one sample's stack from its root; *leaf is its innermost node. */
static int sample_stack(struct pprof_index *ix, struct profile *p,
                        const Perftools__Profiles__Sample *s, const char *name, uint32_t *leaf,
                        struct error *e)
{
    uint32_t node = TRIE_ROOT;
    for (size_t k = s->n_location_id; k > 0; k--) {
        const Perftools__Profiles__Location *loc = find_loc(ix, s->location_id[k - 1]);
        if (!loc)
            return error_fail(e, ERROR_CORRUPT,
                              "%s: a sample names location %" PRIu64
                              ", which is not in the profile",
                              name, s->location_id[k - 1]);
        int rc = 0;
        if (loc->n_line == 0)
            rc = push_frame(ix, p, &node, NULL, 0, loc->address);
        for (size_t l = loc->n_line; rc == 0 && l > 0; l--)
            rc = push_frame(ix, p, &node, find_func(ix, loc->line[l - 1]->function_id),
                            loc->line[l - 1]->line, loc->address);
        if (rc)
            return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    if (node == TRIE_ROOT && push_frame(ix, p, &node, NULL, 0, 0))
        return error_fail(e, ERROR_NO_MEMORY, "out of memory"); /* no stack: [unknown] */
    *leaf = node;
    return 0;
}

static int add_sample(struct pprof_index *ix, struct profile *p,
                      const Perftools__Profiles__Sample *s, size_t index, const char *name,
                      struct error *e)
{
    const Perftools__Profiles__Profile *m = ix->m;
    if (s->n_value != m->n_sample_type)
        return error_fail(e, ERROR_CORRUPT, "%s: sample %zu has %zu values for %zu sample types",
                          name, index, s->n_value, m->n_sample_type);
    for (size_t v = 0; v < s->n_value; v++)
        if (s->value[v] < 0)
            return error_fail(e, ERROR_UNSUPPORTED,
                              "%s: sample %zu has a negative value (a difference of profiles?)",
                              name, index);
    uint32_t leaf = 0;
    if (sample_stack(ix, p, s, name, &leaf, e))
        return -1;
    for (size_t v = 0; v < s->n_value; v++) {
        uint64_t *col = profile_values(p, (size_t)ix->weight_of[v]);
        if (!col)
            return error_fail(e, ERROR_NO_MEMORY, "out of memory");
        if (col[leaf] + (uint64_t)s->value[v] < col[leaf])
            return error_fail(e, ERROR_UNSUPPORTED, "%s: a sum overflows 64 bits", name);
        col[leaf] += (uint64_t)s->value[v];
    }
    return 0;
}

static int read_message(const Perftools__Profiles__Profile *m, const char *name, struct profile *p,
                        struct error *e)
{
    struct pprof_index ix;
    memset(&ix, 0, sizeof(ix));
    int rc = check_strings(m, name, e);
    if (rc == 0)
        rc = index_build(&ix, m, name, e);
    if (rc == 0)
        rc = take_weights(&ix, p, name, e);
    for (size_t i = 0; rc == 0 && i < m->n_sample; i++)
        rc = add_sample(&ix, p, m->sample[i], i, name, e);
    index_free(&ix);
    return rc;
}

int pprof_read(const unsigned char *data, size_t len, const char *name, struct profile *p,
               struct error *e)
{
    unsigned char *raw = NULL;
    size_t raw_len = len;
    if (is_gzip(data, len)) {
        if (gunzip(data, len, name, &raw, &raw_len, e))
            return -1;
        data = raw;
    }
    Perftools__Profiles__Profile *m = perftools__profiles__profile__unpack(NULL, raw_len, data);
    int rc;
    if (!m)
        rc = error_fail(e, ERROR_CORRUPT, "%s: not a pprof profile (the protobuf does not parse)",
                        name);
    else
        rc = read_message(m, name, p, e);
    if (m)
        perftools__profiles__profile__free_unpacked(m, NULL);
    free(raw);
    return rc;
}
