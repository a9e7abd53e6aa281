/*
 * perf_record: walking the data section and decoding records
 * (tools/perf/util/session.c: perf_session__process_events; evsel.c:
 * evsel__parse_sample, perf_evsel__parse_id_sample; evlist.c:
 * evlist__event2id), with a bounds check before every field.
 */
#include "perf/data/perf_record.h"

#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>

#include "perf/data/bytes.h"

static const char *record_name(uint32_t type)
{
    switch (type) {
    case PERF_RECORD_MMAP: return "MMAP";
    case PERF_RECORD_MMAP2: return "MMAP2";
    case PERF_RECORD_COMM: return "COMM";
    case PERF_RECORD_FORK: return "FORK";
    case PERF_RECORD_EXIT: return "EXIT";
    case PERF_RECORD_SAMPLE: return "SAMPLE";
    default: return "a";
    }
}

static int short_record(const struct perf_record *r, const char *what, struct error *e)
{
    return error_fail(e, ERROR_CORRUPT,
                      "the %s record at offset %" PRIu64 " (%zu bytes) is too short for its %s",
                      record_name(r->type), r->offset, r->body_len + PERF_RECORD_HEADER_SIZE, what);
}

uint16_t perf_record_size(const uint8_t *p)
{
    uint16_t size;
    memcpy(&size, p + 6, 2);
    return size;
}

void perf_record_at(struct perf_record *r, const uint8_t *p, uint64_t offset)
{
    r->type = load_u32(p, 0);
    memcpy(&r->misc, p + 4, 2);
    r->offset = offset;
    r->body = p + PERF_RECORD_HEADER_SIZE;
    r->body_len = perf_record_size(p) - PERF_RECORD_HEADER_SIZE;
}

void perf_records_begin(struct perf_record_iter *it, const struct perf_file *f)
{
    it->f = f;
    it->pos = f->data_offset;
    it->end = f->data_offset + f->data_size;
}

/* AUXTRACE records are followed by their trace data, which the record's size does not count. */
static int auxtrace_payload(const struct perf_record *r, uint64_t left, uint64_t *payload,
                            struct error *e)
{
    if (r->body_len < 8)
        return error_fail(e, ERROR_CORRUPT,
                          "the AUXTRACE record at offset %" PRIu64 " is too short", r->offset);
    *payload = load_u64(r->body, 0);
    if (*payload > left)
        return error_fail(e, ERROR_CORRUPT,
                          "the AUXTRACE record at offset %" PRIu64 " claims %" PRIu64
                          " bytes of trace data, past the end of the data section",
                          r->offset, *payload);
    return 0;
}

int perf_records_next(struct perf_record_iter *it, struct perf_record *r, struct error *e)
{
    if (it->pos >= it->end)
        return 0;
    const uint8_t *data = it->f->data;
    uint64_t left = it->end - it->pos;
    if (left < PERF_RECORD_HEADER_SIZE)
        return error_fail(e, ERROR_CORRUPT,
                          "the data section ends inside a record header at offset %" PRIu64
                          " (truncated?)",
                          it->pos);
    uint16_t size = perf_record_size(data + it->pos);
    if (size < PERF_RECORD_HEADER_SIZE)
        return error_fail(e, ERROR_CORRUPT,
                          "the record at offset %" PRIu64 " gives a size of %u bytes, less than "
                          "its own header",
                          it->pos, size);
    if (size > left)
        return error_fail(e, ERROR_CORRUPT,
                          "the record at offset %" PRIu64 " (%u bytes) runs past the end of the "
                          "data section at offset %" PRIu64 " (truncated?)",
                          it->pos, size, it->end);
    perf_record_at(r, data + it->pos, it->pos);
    uint64_t payload = 0;
    if (r->type == PERF_RECORD_AUXTRACE && auxtrace_payload(r, left - size, &payload, e))
        return -1;
    it->pos += size + payload;
    return 1;
}

/* perf's evlist__event2id, with the first attribute's id positions. */
static bool record_id(const struct perf_attr *first, const struct perf_record *r, uint64_t *id)
{
    size_t n = r->body_len / 8;
    if (r->type == PERF_RECORD_SAMPLE) {
        if (first->id_pos < 0 || (size_t)first->id_pos >= n)
            return false;
        *id = load_u64(r->body, (size_t)first->id_pos * 8);
    } else {
        if (first->is_pos < 0 || (size_t)first->is_pos > n)
            return false;
        *id = load_u64(r->body, (n - (size_t)first->is_pos) * 8);
    }
    return true;
}

int perf_record_attr(const struct perf_file *f, const struct perf_record *r)
{
    const struct perf_attr *first = &f->attrs[0];
    if (f->nr_attrs == 1)
        return 0;
    if (r->type != PERF_RECORD_SAMPLE && !perf_attr_sample_id_all(first))
        return 0;
    uint64_t id;
    if (!record_id(first, r, &id))
        return -1;
    if (id == 0)
        return 0; /* synthesized records carry id 0 */
    for (size_t i = 0; i < f->nr_attrs; i++)
        if (perf_attr_has_id(&f->attrs[i], id))
            return (int)i;
    return -1;
}

int perf_parse_trailer(const struct perf_attr *a, const struct perf_record *r,
                       struct perf_sample_id *s, struct error *e)
{
    s->pid = s->tid = -1;
    s->time = UINT64_MAX;
    if (a->trailer_size == 0)
        return 0;
    if (r->body_len < a->trailer_size)
        return short_record(r, "sample_id_all trailer", e);
    uint64_t t = a->sample_type;
    /* From the end: IDENTIFIER, CPU, STREAM_ID, ID, TIME, TID. */
    size_t at = r->body_len - 8;
    at -= (t & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
    at -= (t & PERF_SAMPLE_CPU) ? 8 : 0;
    at -= (t & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
    at -= (t & PERF_SAMPLE_ID) ? 8 : 0;
    if (t & PERF_SAMPLE_TIME) {
        s->time = load_u64(r->body, at);
        at -= 8;
    }
    if (t & PERF_SAMPLE_TID) {
        s->pid = (int32_t)load_u32(r->body, at);
        s->tid = (int32_t)load_u32(r->body, at + 4);
    }
    return 0;
}

/* The fields before TIME, then TIME itself. */
static bool read_leading(const struct perf_attr *a, struct bytes *b, struct perf_sample *s)
{
    uint64_t t = a->sample_type, skip;
    if ((t & PERF_SAMPLE_IDENTIFIER) && !bytes_u64(b, &skip))
        return false;
    if ((t & PERF_SAMPLE_IP) && !bytes_u64(b, &s->ip))
        return false;
    if (t & PERF_SAMPLE_TID) {
        uint32_t pid, tid;
        if (!bytes_u32(b, &pid) || !bytes_u32(b, &tid))
            return false;
        s->pid = (int32_t)pid;
        s->tid = (int32_t)tid;
    }
    return !(t & PERF_SAMPLE_TIME) || bytes_u64(b, &s->time);
}

static void sample_defaults(const struct perf_attr *a, const struct perf_record *r,
                            struct perf_sample *s)
{
    memset(s, 0, sizeof(*s));
    s->cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
    s->pid = s->tid = -1;
    s->time = UINT64_MAX;
    s->period = a->sample_period;
}

int perf_sample_time(const struct perf_attr *a, const struct perf_record *r, uint64_t *time,
                     struct error *e)
{
    struct perf_sample s;
    sample_defaults(a, r, &s);
    struct bytes b = bytes_at(r->body, r->body_len, r->offset + PERF_RECORD_HEADER_SIZE);
    if (!read_leading(a, &b, &s))
        return short_record(r, "fields", e);
    *time = s.time;
    return 0;
}

static bool skip_u64s(struct bytes *b, uint64_t n)
{
    return n <= bytes_left(b) / 8 && bytes_skip(b, n * 8);
}

static bool read_read_values(const struct perf_attr *a, struct bytes *b)
{
    uint64_t f = a->read_format, nr;
    uint64_t per_value = 1 + ((f & PERF_FORMAT_ID) != 0) + ((f & PERF_FORMAT_LOST) != 0);
    uint64_t times =
        ((f & PERF_FORMAT_TOTAL_TIME_ENABLED) != 0) + ((f & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0);
    if (!(f & PERF_FORMAT_GROUP))
        return skip_u64s(b, per_value + times);
    if (!bytes_u64(b, &nr) || !skip_u64s(b, times))
        return false;
    return nr <= bytes_left(b) / 8 / per_value && skip_u64s(b, nr * per_value);
}

static bool read_callchain(struct bytes *b, struct perf_sample *s)
{
    if (!bytes_u64(b, &s->nr_callchain) || s->nr_callchain > bytes_left(b) / 8)
        return false;
    return bytes_take(b, s->nr_callchain * 8, &s->callchain);
}

static bool read_raw(struct bytes *b)
{
    uint32_t size;
    return bytes_u32(b, &size) && bytes_skip(b, size);
}

static bool read_branch_stack(const struct perf_attr *a, struct bytes *b)
{
    uint64_t nr;
    if (!bytes_u64(b, &nr))
        return false;
    if ((a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && !skip_u64s(b, 1))
        return false;
    return nr <= bytes_left(b) / 24 && skip_u64s(b, nr * 3);
}

static bool read_user_regs(const struct perf_attr *a, struct bytes *b, struct perf_sample *s)
{
    if (!bytes_u64(b, &s->user_regs_abi))
        return false;
    if (s->user_regs_abi == 0)
        return true;
    s->user_regs_mask = a->sample_regs_user;
    return bytes_take(b, (uint64_t)__builtin_popcountll(a->sample_regs_user) * 8, &s->user_regs);
}

static bool read_user_stack(struct bytes *b, struct perf_sample *s)
{
    uint64_t size;
    if (!bytes_u64(b, &size))
        return false;
    if (size == 0)
        return true;
    return bytes_take(b, size, &s->user_stack) && bytes_u64(b, &s->user_stack_size) &&
           s->user_stack_size <= size;
}

int perf_parse_sample(const struct perf_attr *a, const struct perf_record *r, struct perf_sample *s,
                      struct error *e)
{
    sample_defaults(a, r, s);
    struct bytes b = bytes_at(r->body, r->body_len, r->offset + PERF_RECORD_HEADER_SIZE);
    uint64_t t = a->sample_type, skip;
    if (!read_leading(a, &b, s))
        return short_record(r, "fields", e);
    if (((t & PERF_SAMPLE_ADDR) && !bytes_u64(&b, &skip)) ||
        ((t & PERF_SAMPLE_ID) && !bytes_u64(&b, &skip)) ||
        ((t & PERF_SAMPLE_STREAM_ID) && !bytes_u64(&b, &skip)) ||
        ((t & PERF_SAMPLE_CPU) && !bytes_u64(&b, &skip)))
        return short_record(r, "fields", e);
    if (t & PERF_SAMPLE_PERIOD) {
        if (!bytes_u64(&b, &s->period))
            return short_record(r, "period", e);
        s->has_period = true;
    }
    if ((t & PERF_SAMPLE_READ) && !read_read_values(a, &b))
        return short_record(r, "counter values (PERF_SAMPLE_READ)", e);
    if ((t & PERF_SAMPLE_CALLCHAIN) && !read_callchain(&b, s))
        return short_record(r, "call chain", e);
    if ((t & PERF_SAMPLE_RAW) && !read_raw(&b))
        return short_record(r, "raw data", e);
    if ((t & PERF_SAMPLE_BRANCH_STACK) && !read_branch_stack(a, &b))
        return short_record(r, "branch stack", e);
    if ((t & PERF_SAMPLE_REGS_USER) && !read_user_regs(a, &b, s))
        return short_record(r, "user registers", e);
    if ((t & PERF_SAMPLE_STACK_USER) && !read_user_stack(&b, s))
        return short_record(r, "user stack", e);
    return 0;
}

/* The NUL-terminated string at body[fixed..body_len - trailer). */
static int record_string(const struct perf_record *r, size_t fixed, size_t trailer,
                         const char **out, const char *what, struct error *e)
{
    if (r->body_len < fixed + trailer)
        return short_record(r, what, e);
    size_t room = r->body_len - fixed - trailer;
    if (bounded_strlen(r->body + fixed, room) == room)
        return error_fail(e, ERROR_CORRUPT,
                          "the %s in the %s record at offset %" PRIu64 " is not terminated", what,
                          record_name(r->type), r->offset);
    *out = (const char *)r->body + fixed;
    return 0;
}

#define MMAP_FIXED  32u /* pid, tid, start, len, pgoff */
#define MMAP2_FIXED 64u /* ... then 24 bytes of inode or build id, prot, flags */

int perf_parse_mmap(const struct perf_record *r, size_t trailer, struct perf_mmap_event *m,
                    struct error *e)
{
    memset(m, 0, sizeof(*m));
    size_t fixed = r->type == PERF_RECORD_MMAP2 ? MMAP2_FIXED : MMAP_FIXED;
    if (record_string(r, fixed, trailer, &m->filename, "file name", e))
        return -1;
    m->pid = (int32_t)load_u32(r->body, 0);
    m->tid = (int32_t)load_u32(r->body, 4);
    m->start = load_u64(r->body, 8);
    m->len = load_u64(r->body, 16);
    m->pgoff = load_u64(r->body, 24);
    if (r->type == PERF_RECORD_MMAP) {
        m->prot = (r->misc & PERF_RECORD_MISC_MMAP_DATA) ? 0 : PROT_EXEC;
        return 0;
    }
    m->prot = load_u32(r->body, 56);
    m->flags = load_u32(r->body, 60);
    if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
        m->build_id_size = r->body[32];
        if (m->build_id_size > PERF_BUILD_ID_MAX)
            return error_fail(e, ERROR_CORRUPT,
                              "the MMAP2 record at offset %" PRIu64 " gives a %u-byte build id",
                              r->offset, m->build_id_size);
        m->has_build_id = m->build_id_size > 0;
        memcpy(m->build_id, r->body + 36, PERF_BUILD_ID_MAX);
    }
    return 0;
}

int perf_parse_comm(const struct perf_record *r, size_t trailer, struct perf_comm_event *c,
                    struct error *e)
{
    if (record_string(r, 8, trailer, &c->comm, "command name", e))
        return -1;
    c->pid = (int32_t)load_u32(r->body, 0);
    c->tid = (int32_t)load_u32(r->body, 4);
    c->exec = (r->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
    return 0;
}

int perf_parse_task(const struct perf_record *r, struct perf_task_event *t, struct error *e)
{
    if (r->body_len < 24)
        return short_record(r, "fields", e);
    t->pid = (int32_t)load_u32(r->body, 0);
    t->ppid = (int32_t)load_u32(r->body, 4);
    t->tid = (int32_t)load_u32(r->body, 8);
    t->ptid = (int32_t)load_u32(r->body, 12);
    t->time = load_u64(r->body, 16);
    return 0;
}
