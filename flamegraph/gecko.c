/*
 * gecko: streamed with json_write. Every thread shares the same string,
 * frame and stack tables (frame index = position of the name among the
 * names the nodes use; stack index = node id - 1, whose prefix, the
 * parent's, always comes first); only the samples differ per weight.
 */
#include "flamegraph/gecko.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/json_write.h"

/* The names the nodes use, numbered in order of first use. */
struct gecko_frames {
    uint32_t *frame_of_id; /* by strtab id: frame index + 1, 0 unused */
    uint32_t *ids;         /* by frame index */
    size_t count;
};

static int frames_build(struct gecko_frames *f, const struct profile *p)
{
    size_t n = p->names->count ? p->names->count : 1;
    f->frame_of_id = calloc(n, sizeof(*f->frame_of_id));
    f->ids = malloc(n * sizeof(*f->ids));
    f->count = 0;
    if (!f->frame_of_id || !f->ids)
        return -1;
    for (size_t i = 1; i < p->trie->count; i++) {
        uint32_t key = (uint32_t)p->trie->nodes[i].key;
        if (!f->frame_of_id[key]) {
            f->ids[f->count++] = key;
            f->frame_of_id[key] = (uint32_t)f->count;
        }
    }
    return 0;
}

static void frames_free(struct gecko_frames *f)
{
    free(f->frame_of_id);
    free(f->ids);
}

/* Milliseconds as "MS.UUU": `us` microseconds, exactly. */
static void write_ms(struct json_out *j, uint64_t us)
{
    char frac[8];
    json_u64(j, us / 1000);
    snprintf(frac, sizeof(frac), ".%03u", (unsigned)(us % 1000));
    json_raw(j, frac);
}

static void write_meta(struct json_out *j, const char *profile_name)
{
    json_raw(j, "{\"meta\":{\"version\":24,\"interval\":0.001,\"startTime\":0,"
                "\"shutdownTime\":null,\"processType\":0,\"stackwalk\":0,\"debug\":false,"
                "\"product\":");
    json_out_string(j, profile_name, strlen(profile_name));
    json_raw(j, ",\"categories\":[{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":"
                "[\"Other\"]}],\"markerSchema\":[],\"pausedRanges\":[],"
                "\"sampleUnits\":{\"time\":\"ms\",\"eventDelay\":\"ms\"}},\n"
                "\"libs\":[],\"pausedRanges\":[],\"processes\":[],\n\"threads\":[");
}

/* The tables every thread has alike: frames, stacks, strings. */
static void write_tables(struct json_out *j, const struct profile *p, const struct gecko_frames *f)
{
    json_raw(j, "\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,"
                "\"innerWindowID\":2,\"implementation\":3,\"optimizations\":4,\"line\":5,"
                "\"column\":6,\"category\":7,\"subcategory\":8},\"data\":[");
    for (size_t k = 0; k < f->count; k++) {
        uint32_t id = f->ids[k];
        uint32_t line = id < p->frame_capacity ? p->frame_line[id] : 0;
        json_raw(j, k ? ",\n[" : "\n[");
        json_u64(j, k);
        json_raw(j, ",false,0,null,null,");
        if (line)
            json_u64(j, line);
        else
            json_raw(j, "null");
        json_raw(j, ",null,0,0]");
    }
    json_raw(j, "]},\n\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[");
    for (size_t i = 1; i < p->trie->count; i++) {
        const struct call_node *n = &p->trie->nodes[i];
        json_raw(j, i > 1 ? ",\n[" : "\n[");
        if (n->parent == TRIE_ROOT)
            json_raw(j, "null");
        else
            json_u64(j, n->parent - 1);
        json_raw(j, ",");
        json_u64(j, f->frame_of_id[n->key] - 1);
        json_raw(j, "]");
    }
    json_raw(j, "]},\n\"stringTable\":[");
    for (size_t k = 0; k < f->count; k++) {
        json_raw(j, k ? ",\n" : "\n");
        json_out_string(j, strtab_get(p->names, f->ids[k]), p->names->lengths[f->ids[k]]);
    }
    json_raw(j, "]");
}

/* One sample per stack with a value of weight `w`, the clock advancing by it. */
static void write_samples(struct json_out *j, const struct profile *p, size_t w)
{
    json_raw(j, "\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"eventDelay\":2,\"weight\":3},"
                "\"weightType\":\"samples\",\"data\":[");
    uint64_t clock = 0;
    bool first = true;
    for (size_t i = 1; i < p->trie->count; i++) {
        uint64_t v = profile_value(p, w, (uint32_t)i);
        if (!v)
            continue;
        json_raw(j, first ? "\n[" : ",\n[");
        first = false;
        json_u64(j, i - 1);
        json_raw(j, ",");
        write_ms(j, clock);
        json_raw(j, ",0,");
        json_u64(j, v);
        json_raw(j, "]");
        clock += v;
    }
    json_raw(j, "]}");
}

static void write_thread(struct json_out *j, const struct profile *p, const struct gecko_frames *f,
                         size_t w, const char *profile_name)
{
    const char *weight = profile_weight_name(p, w);
    json_raw(j, w ? ",\n{\"name\":" : "\n{\"name\":");
    json_out_string(j, weight, strlen(weight));
    json_raw(j, ",\"processType\":\"default\",\"processName\":");
    json_out_string(j, profile_name, strlen(profile_name));
    json_raw(j, ",\"pid\":1,\"tid\":");
    json_u64(j, w + 1);
    json_raw(j, ",\"registerTime\":0,\"unregisterTime\":null,\n\"markers\":{\"schema\":{"
                "\"name\":0,\"startTime\":1,\"endTime\":2,\"phase\":3,\"category\":4,\"data\":5},"
                "\"data\":[]},\n");
    write_samples(j, p, w);
    json_raw(j, ",\n");
    write_tables(j, p, f);
    json_raw(j, "}");
}

int gecko_write(FILE *out, const struct profile *p, const char *profile_name)
{
    struct gecko_frames f;
    memset(&f, 0, sizeof(f));
    if (frames_build(&f, p)) {
        frames_free(&f);
        errno = ENOMEM;
        return -1;
    }
    struct json_out j = {.f = out};
    write_meta(&j, profile_name);
    for (size_t w = 0; w < p->nweights; w++)
        write_thread(&j, p, &f, w, profile_name);
    json_raw(&j, "]}\n");
    frames_free(&f);
    return json_finish(&j);
}
