/*
 * perf_features: HEADER_BUILD_ID, HEADER_ARCH and HEADER_EVENT_DESC
 * (tools/perf/util/header.c: perf_header__read_build_ids, read_arch,
 * read_event_desc), every count and length checked against the section.
 */
#include "perf/data/perf_features.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perf/data/bytes.h"

#define BUILD_ID_RECORD_FIXED 36u /* header 8, pid 4, build id 24 */
#define BUILD_ID_FIELD        12u /* where the build id starts in a record */

static int truncated(struct error *e, const char *what, const struct bytes *b)
{
    return error_fail(e, ERROR_CORRUPT, "%s at offset %" PRIu64 " runs past the end of its section",
                      what, bytes_offset(b));
}

/* perf's do_read_string: u32 length, then that many bytes, NUL-padded. */
static int read_string(struct bytes *b, char **out, const char *what, struct error *e)
{
    uint32_t len;
    const uint8_t *p;
    if (!bytes_u32(b, &len) || !bytes_take(b, len, &p))
        return truncated(e, what, b);
    size_t n = bounded_strlen(p, len);
    *out = malloc(n + 1);
    if (!*out)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory reading %s", what);
    memcpy(*out, p, n);
    (*out)[n] = '\0';
    return 0;
}

static int add_build_id(struct perf_build_ids *out, const uint8_t *rec, size_t size,
                        uint64_t offset, struct error *e)
{
    if (out->count == out->capacity) {
        size_t cap = out->capacity ? out->capacity * 2 : 16;
        struct perf_build_id *items = realloc(out->items, cap * sizeof(*items));
        if (!items)
            return error_fail(e, ERROR_NO_MEMORY, "out of memory for build ids");
        out->items = items;
        out->capacity = cap;
    }
    struct perf_build_id *b = &out->items[out->count];
    memset(b, 0, sizeof(*b));
    uint16_t misc;
    memcpy(&misc, rec + 4, 2);
    memcpy(&b->pid, rec + 8, 4);
    b->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
    memcpy(b->id, rec + BUILD_ID_FIELD, PERF_BUILD_ID_MAX);
    b->size = PERF_BUILD_ID_MAX;
    if (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) {
        b->size = rec[BUILD_ID_FIELD + PERF_BUILD_ID_MAX];
        if (b->size == 0 || b->size > PERF_BUILD_ID_MAX)
            return error_fail(e, ERROR_CORRUPT,
                              "the build id record at offset %" PRIu64 " gives a size of %u bytes",
                              offset, b->size);
    }
    const uint8_t *name = rec + BUILD_ID_RECORD_FIXED;
    size_t n = bounded_strlen(name, size - BUILD_ID_RECORD_FIXED);
    if (!(b->filename = malloc(n + 1)))
        return error_fail(e, ERROR_NO_MEMORY, "out of memory for build ids");
    memcpy(b->filename, name, n);
    b->filename[n] = '\0';
    out->count++;
    return 0;
}

/* The records of the section, one after the other. */
static int read_build_id_records(struct bytes *b, struct perf_build_ids *out, struct error *e)
{
    while (bytes_left(b) > 0) {
        uint64_t offset = bytes_offset(b);
        if (bytes_left(b) < PERF_RECORD_HEADER_SIZE)
            return truncated(e, "a build id record", b);
        uint16_t size;
        memcpy(&size, b->p + b->pos + 6, 2);
        const uint8_t *rec;
        if (size < BUILD_ID_RECORD_FIXED)
            return error_fail(e, ERROR_CORRUPT,
                              "the build id record at offset %" PRIu64 " is %u bytes, too short",
                              offset, size);
        if (!bytes_take(b, size, &rec))
            return truncated(e, "a build id record", b);
        if (add_build_id(out, rec, size, offset, e))
            return -1;
    }
    return 0;
}

int perf_read_build_ids(const struct perf_file *f, struct perf_build_ids *out, struct error *e)
{
    memset(out, 0, sizeof(*out));
    struct bytes b;
    int have = perf_file_feature(f, PERF_FEAT_BUILD_ID, &b, e);
    if (have <= 0)
        return have;
    if (read_build_id_records(&b, out, e)) {
        perf_build_ids_free(out);
        return -1;
    }
    return 0;
}

void perf_build_ids_free(struct perf_build_ids *b)
{
    for (size_t i = 0; i < b->count; i++)
        free(b->items[i].filename);
    free(b->items);
    memset(b, 0, sizeof(*b));
}

int perf_read_arch(const struct perf_file *f, char **arch, struct error *e)
{
    *arch = NULL;
    struct bytes b;
    int have = perf_file_feature(f, PERF_FEAT_ARCH, &b, e);
    if (have <= 0)
        return have;
    return read_string(&b, arch, "the architecture (HEADER_ARCH)", e);
}

/* The attribute that owns stream id `id`, or NULL. */
static struct perf_attr *attr_by_id(struct perf_file *f, uint64_t id)
{
    for (size_t i = 0; i < f->nr_attrs; i++)
        if (perf_attr_has_id(&f->attrs[i], id))
            return &f->attrs[i];
    return NULL;
}

/* One event description: attr, id count, name, ids; the name goes to the attr of its first id. */
static int read_one_desc(struct perf_file *f, struct bytes *b, uint32_t attr_size, size_t index,
                         uint32_t nr_descs, struct error *e)
{
    uint32_t nr_ids;
    char *name;
    if (!bytes_skip(b, attr_size) || !bytes_u32(b, &nr_ids))
        return truncated(e, "an event description", b);
    if (read_string(b, &name, "an event name", e))
        return -1;
    uint64_t first_id = 0;
    if ((nr_ids > 0 && !bytes_u64(b, &first_id)) ||
        (nr_ids > 1 && !bytes_skip(b, (uint64_t)(nr_ids - 1) * 8))) {
        free(name);
        return truncated(e, "the ids of an event description", b);
    }
    struct perf_attr *a = nr_ids > 0                ? attr_by_id(f, first_id)
                          : nr_descs == f->nr_attrs ? &f->attrs[index]
                                                    : NULL;
    if (a && !a->name)
        a->name = name;
    else
        free(name);
    return 0;
}

static int read_event_desc(struct perf_file *f, struct error *e)
{
    struct bytes b;
    int have = perf_file_feature(f, PERF_FEAT_EVENT_DESC, &b, e);
    if (have <= 0)
        return have;
    uint32_t nr, attr_size;
    if (!bytes_u32(&b, &nr) || !bytes_u32(&b, &attr_size))
        return truncated(e, "the event descriptions", &b);
    for (uint32_t i = 0; i < nr; i++)
        if (read_one_desc(f, &b, attr_size, i, nr, e))
            return -1;
    return 0;
}

int perf_name_events(struct perf_file *f, struct error *e)
{
    if (read_event_desc(f, e))
        return -1;
    for (size_t i = 0; i < f->nr_attrs; i++)
        if (!f->attrs[i].name && !(f->attrs[i].name = perf_attr_default_name(&f->attrs[i])))
            return error_fail(e, ERROR_NO_MEMORY, "out of memory for event names");
    return 0;
}
