/*
 * pprof_write: profile -> Perftools__Profiles__Profile -> protobuf-c's
 * packed bytes -> zlib's gzip stream.
 *
 * The string table is the profile's strtab as it is (pprof index i is
 * strtab id i; index 0, "", is strtab's "no string"), then the weights'
 * names and units; so a frame's name id is also its function's and its
 * location's id (pprof wants them nonzero, as strtab ids are).
 */
#include "flamegraph/pprof.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "third_party/pprof/profile.pb-c.h"

/* Everything the message points into, freed together. */
struct pprof_build {
    Perftools__Profiles__Profile msg;
    char **strings;
    Perftools__Profiles__ValueType *types, **type_ptrs;
    Perftools__Profiles__Function *funcs, **func_ptrs;
    Perftools__Profiles__Location *locs, **loc_ptrs;
    Perftools__Profiles__Line *lines, **line_ptrs;
    Perftools__Profiles__Sample *samples, **sample_ptrs;
    uint64_t *location_ids; /* every sample's stack, leaf first, end to end */
    int64_t *values;        /* every sample's values, end to end */
};

static void build_free(struct pprof_build *b)
{
    free(b->strings);
    free(b->types);
    free(b->type_ptrs);
    free(b->funcs);
    free(b->func_ptrs);
    free(b->locs);
    free(b->loc_ptrs);
    free(b->lines);
    free(b->line_ptrs);
    free(b->samples);
    free(b->sample_ptrs);
    free(b->location_ids);
    free(b->values);
}

/* Strtab's strings, then each weight's name and unit. */
static int build_strings(struct pprof_build *b, const struct profile *p)
{
    size_t n = p->names->count + 2 * p->nweights;
    b->strings = malloc(n * sizeof(*b->strings));
    b->types = calloc(p->nweights ? p->nweights : 1, sizeof(*b->types));
    b->type_ptrs = malloc((p->nweights ? p->nweights : 1) * sizeof(*b->type_ptrs));
    if (!b->strings || !b->types || !b->type_ptrs)
        return -1;
    b->strings[0] = "";
    for (size_t i = 1; i < p->names->count; i++)
        b->strings[i] = p->names->strings[i];
    for (size_t w = 0; w < p->nweights; w++) {
        size_t at = p->names->count + 2 * w;
        b->strings[at] = p->weights[w].name;
        b->strings[at + 1] = p->weights[w].unit;
        b->types[w] = (Perftools__Profiles__ValueType)PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
        b->types[w].type = (int64_t)at;
        b->types[w].unit = (int64_t)at + 1;
        b->type_ptrs[w] = &b->types[w];
    }
    b->msg.n_string_table = n;
    b->msg.string_table = b->strings;
    b->msg.n_sample_type = p->nweights;
    b->msg.sample_type = b->type_ptrs;
    if (p->nweights)
        b->msg.default_sample_type = b->types[0].type;
    return 0;
}

/* One function and one location per frame name the nodes use. */
static int build_functions(struct pprof_build *b, const struct profile *p)
{
    size_t n = p->names->count;
    bool *used = calloc(n ? n : 1, sizeof(*used));
    b->funcs = calloc(n ? n : 1, sizeof(*b->funcs));
    b->func_ptrs = malloc((n ? n : 1) * sizeof(*b->func_ptrs));
    b->locs = calloc(n ? n : 1, sizeof(*b->locs));
    b->loc_ptrs = malloc((n ? n : 1) * sizeof(*b->loc_ptrs));
    b->lines = calloc(n ? n : 1, sizeof(*b->lines));
    b->line_ptrs = malloc((n ? n : 1) * sizeof(*b->line_ptrs));
    if (!used || !b->funcs || !b->func_ptrs || !b->locs || !b->loc_ptrs || !b->lines ||
        !b->line_ptrs) {
        free(used);
        return -1;
    }
    for (size_t i = 1; i < p->trie->count; i++)
        used[p->trie->nodes[i].key] = true;
    size_t k = 0;
    for (size_t id = 1; id < n; id++) {
        if (!used[id])
            continue;
        bool known = id < p->frame_capacity;
        Perftools__Profiles__Function *f = &b->funcs[k];
        *f = (Perftools__Profiles__Function)PERFTOOLS__PROFILES__FUNCTION__INIT;
        f->id = id;
        f->name = f->system_name = (int64_t)id;
        f->filename = known ? p->frame_file[id] : 0;
        Perftools__Profiles__Line *l = &b->lines[k];
        *l = (Perftools__Profiles__Line)PERFTOOLS__PROFILES__LINE__INIT;
        l->function_id = id;
        l->line = known ? p->frame_line[id] : 0;
        Perftools__Profiles__Location *loc = &b->locs[k];
        *loc = (Perftools__Profiles__Location)PERFTOOLS__PROFILES__LOCATION__INIT;
        loc->id = id;
        b->line_ptrs[k] = l;
        loc->n_line = 1;
        loc->line = &b->line_ptrs[k];
        b->func_ptrs[k] = f;
        b->loc_ptrs[k] = loc;
        k++;
    }
    free(used);
    b->msg.n_function = b->msg.n_location = k;
    b->msg.function = b->func_ptrs;
    b->msg.location = b->loc_ptrs;
    return 0;
}

static bool has_value(const struct profile *p, uint32_t node)
{
    for (size_t w = 0; w < p->nweights; w++)
        if (profile_value(p, w, node))
            return true;
    return false;
}

/* Sample count, and the total of their depths. */
static void count_samples(const struct profile *p, const uint32_t *depth, size_t *n, size_t *frames)
{
    *n = *frames = 0;
    for (uint32_t i = 1; i < p->trie->count; i++)
        if (has_value(p, i)) {
            (*n)++;
            *frames += depth[i];
        }
}

/* One sample per node with a value: its stack leaf first, its values. */
static int build_samples(struct pprof_build *b, const struct profile *p)
{
    const struct trie *t = p->trie;
    uint32_t *depth = malloc((t->count ? t->count : 1) * sizeof(*depth));
    if (!depth)
        return -1;
    depth[TRIE_ROOT] = 0;
    for (size_t i = 1; i < t->count; i++)
        depth[i] = depth[t->nodes[i].parent] + 1; /* parents come first */
    size_t n, frames;
    count_samples(p, depth, &n, &frames);
    b->samples = calloc(n ? n : 1, sizeof(*b->samples));
    b->sample_ptrs = malloc((n ? n : 1) * sizeof(*b->sample_ptrs));
    b->location_ids = malloc((frames ? frames : 1) * sizeof(*b->location_ids));
    size_t nvalues = n * p->nweights;
    b->values = malloc((nvalues ? nvalues : 1) * sizeof(*b->values));
    if (!b->samples || !b->sample_ptrs || !b->location_ids || !b->values) {
        free(depth);
        return -1;
    }
    size_t k = 0, at = 0;
    for (uint32_t i = 1; i < t->count; i++) {
        if (!has_value(p, i))
            continue;
        Perftools__Profiles__Sample *s = &b->samples[k];
        *s = (Perftools__Profiles__Sample)PERFTOOLS__PROFILES__SAMPLE__INIT;
        s->n_location_id = depth[i];
        s->location_id = &b->location_ids[at];
        for (uint32_t node = i; node != TRIE_ROOT; node = t->nodes[node].parent)
            b->location_ids[at++] = t->nodes[node].key;
        s->n_value = p->nweights;
        s->value = &b->values[k * p->nweights];
        for (size_t w = 0; w < p->nweights; w++) {
            uint64_t v = profile_value(p, w, i);
            if (v > INT64_MAX) {
                free(depth);
                errno = EOVERFLOW;
                return -1;
            }
            s->value[w] = (int64_t)v;
        }
        b->sample_ptrs[k++] = s;
    }
    free(depth);
    b->msg.n_sample = k;
    b->msg.sample = b->sample_ptrs;
    return 0;
}

/* Gzips data[0..len) to `out`. Returns 0, or -1 with errno set. */
static int write_gzip(FILE *out, const uint8_t *data, size_t len)
{
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
        errno = ENOMEM;
        return -1;
    }
    unsigned char buf[65536];
    int rc = 0, zrc;
    z.next_in = (Bytef *)data;
    do {
        size_t chunk = len > (1u << 30) ? (1u << 30) : len;
        z.avail_in = (uInt)chunk;
        len -= chunk;
        do {
            z.next_out = buf;
            z.avail_out = sizeof(buf);
            zrc = deflate(&z, len == 0 ? Z_FINISH : Z_NO_FLUSH);
            size_t have = sizeof(buf) - z.avail_out;
            if (have && fwrite(buf, 1, have, out) != have) {
                rc = -1;
                break;
            }
        } while (z.avail_out == 0);
    } while (rc == 0 && len > 0);
    if (rc == 0 && zrc != Z_STREAM_END) {
        errno = EIO;
        rc = -1;
    }
    deflateEnd(&z);
    return rc;
}

int pprof_write(FILE *out, const struct profile *p)
{
    struct pprof_build b;
    memset(&b, 0, sizeof(b));
    b.msg = (Perftools__Profiles__Profile)PERFTOOLS__PROFILES__PROFILE__INIT;
    int rc = 0;
    if (build_strings(&b, p) || build_functions(&b, p)) {
        errno = ENOMEM;
        rc = -1;
    }
    if (rc == 0)
        rc = build_samples(&b, p);
    if (rc == 0) {
        size_t len = perftools__profiles__profile__get_packed_size(&b.msg);
        uint8_t *bytes = malloc(len ? len : 1);
        if (!bytes) {
            errno = ENOMEM;
            rc = -1;
        } else {
            perftools__profiles__profile__pack(&b.msg, bytes);
            rc = write_gzip(out, bytes, len);
            free(bytes);
        }
    }
    if (rc == 0 && fflush(out) == EOF)
        rc = -1;
    build_free(&b);
    return rc;
}
