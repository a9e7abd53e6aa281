/*
 * perf_attr: decoding an on-disk perf_event_attr, and the layouts and
 * names that follow from it (tools/perf/util/evsel.c: id_pos, is_pos,
 * evsel__name, evsel__add_modifiers).
 */
#include "perf/data/perf_attr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/data/bytes.h"
#include "perf/data/perf_abi.h"

static uint64_t field_u64(const uint8_t *p, size_t size, size_t at)
{
    return at + 8 <= size ? load_u64(p, at) : 0;
}

static uint32_t field_u32(const uint8_t *p, size_t size, size_t at)
{
    return at + 4 <= size ? load_u32(p, at) : 0;
}

/* perf's __evsel__calc_id_pos: the id's index among a sample's leading u64s. */
static int sample_id_pos(uint64_t type)
{
    if (type & PERF_SAMPLE_IDENTIFIER)
        return 0;
    if (!(type & PERF_SAMPLE_ID))
        return -1;
    int idx = 0;
    idx += (type & PERF_SAMPLE_IP) != 0;
    idx += (type & PERF_SAMPLE_TID) != 0;
    idx += (type & PERF_SAMPLE_TIME) != 0;
    idx += (type & PERF_SAMPLE_ADDR) != 0;
    return idx;
}

/* perf's __evsel__calc_is_pos: the id's index from the end of a trailer, counting from 1. */
static int trailer_id_pos(uint64_t type)
{
    if (type & PERF_SAMPLE_IDENTIFIER)
        return 1;
    if (!(type & PERF_SAMPLE_ID))
        return -1;
    int idx = 1;
    idx += (type & PERF_SAMPLE_CPU) != 0;
    idx += (type & PERF_SAMPLE_STREAM_ID) != 0;
    return idx;
}

static size_t trailer_bytes(uint64_t type)
{
    static const uint64_t fields[] = {PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
                                      PERF_SAMPLE_ID,  PERF_SAMPLE_STREAM_ID,
                                      PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER};
    size_t n = 0;
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        n += (type & fields[i]) ? 8 : 0;
    return n;
}

void perf_attr_decode(struct perf_attr *a, const uint8_t *p, size_t size)
{
    a->type = field_u32(p, size, PERF_ATTR_TYPE);
    a->config = field_u64(p, size, PERF_ATTR_CONFIG);
    a->sample_period = field_u64(p, size, PERF_ATTR_SAMPLE_PERIOD);
    a->sample_type = field_u64(p, size, PERF_ATTR_SAMPLE_TYPE);
    a->read_format = field_u64(p, size, PERF_ATTR_READ_FORMAT);
    a->flags = field_u64(p, size, PERF_ATTR_FLAGS);
    a->branch_sample_type = field_u64(p, size, PERF_ATTR_BRANCH_SAMPLE_TYPE);
    a->sample_regs_user = field_u64(p, size, PERF_ATTR_SAMPLE_REGS_USER);
    a->sample_stack_user = field_u32(p, size, PERF_ATTR_SAMPLE_STACK_USER);
    a->sample_regs_intr = field_u64(p, size, PERF_ATTR_SAMPLE_REGS_INTR);
    a->id_pos = sample_id_pos(a->sample_type);
    a->is_pos = trailer_id_pos(a->sample_type);
    a->trailer_size = perf_attr_sample_id_all(a) ? trailer_bytes(a->sample_type) : 0;
}

bool perf_attr_has_id(const struct perf_attr *a, uint64_t id)
{
    for (size_t i = 0; i < a->nr_ids; i++)
        if (load_u64(a->ids, i * 8) == id)
            return true;
    return false;
}

static const char *hardware_name(uint64_t config)
{
    static const char *const names[] = {
        "cycles",
        "instructions",
        "cache-references",
        "cache-misses",
        "branches",
        "branch-misses",
        "bus-cycles",
        "stalled-cycles-frontend",
        "stalled-cycles-backend",
        "ref-cycles",
    };
    return config < sizeof(names) / sizeof(names[0]) ? names[config] : NULL;
}

static const char *software_name(uint64_t config)
{
    static const char *const names[] = {
        "cpu-clock",        "task-clock",   "page-faults",  "context-switches",
        "cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
        "emulation-faults", "dummy",        "bpf-output",   "cgroup-switches",
    };
    return config < sizeof(names) / sizeof(names[0]) ? names[config] : NULL;
}

/* perf's evsel__add_modifiers: ":u", ":k", ":ppp", ":H", ... */
static void add_modifiers(const struct perf_attr *a, char *out, size_t size)
{
    char mods[16];
    size_t n = 0;
    bool exclude_guest_default = false;
    uint64_t f = a->flags;
    if (f &
        (PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_USER | PERF_ATTR_FLAG_EXCLUDE_HV)) {
        if (!(f & PERF_ATTR_FLAG_EXCLUDE_KERNEL))
            mods[n++] = 'k';
        if (!(f & PERF_ATTR_FLAG_EXCLUDE_USER))
            mods[n++] = 'u';
        if (!(f & PERF_ATTR_FLAG_EXCLUDE_HV))
            mods[n++] = 'h';
        exclude_guest_default = true;
    }
    unsigned precise = (unsigned)(f >> PERF_ATTR_PRECISE_SHIFT) & 3;
    for (unsigned i = 0; i < precise; i++)
        mods[n++] = 'p';
    if (precise)
        exclude_guest_default = true;
    bool exclude_host = (f & PERF_ATTR_FLAG_EXCLUDE_HOST) != 0;
    bool exclude_guest = (f & PERF_ATTR_FLAG_EXCLUDE_GUEST) != 0;
    if (exclude_host || exclude_guest == exclude_guest_default) {
        if (!exclude_host)
            mods[n++] = 'H';
        if (!exclude_guest)
            mods[n++] = 'G';
    }
    mods[n] = '\0';
    if (n)
        snprintf(out, size, ":%s", mods);
    else if (size)
        out[0] = '\0';
}

char *perf_attr_default_name(const struct perf_attr *a)
{
    char base[64], mods[20];
    const char *known = a->type == PERF_TYPE_HARDWARE   ? hardware_name(a->config)
                        : a->type == PERF_TYPE_SOFTWARE ? software_name(a->config)
                                                        : NULL;
    if (known)
        snprintf(base, sizeof(base), "%s", known);
    else if (a->type == PERF_TYPE_RAW)
        snprintf(base, sizeof(base), "raw 0x%llx", (unsigned long long)a->config);
    else
        snprintf(base, sizeof(base), "unknown attr type: %u", a->type);
    add_modifiers(a, mods, sizeof(mods));
    size_t len = strlen(base) + strlen(mods) + 1;
    char *name = malloc(len);
    if (name)
        snprintf(name, len, "%s%s", base, mods);
    return name;
}
