/*
 * fold: the record loop of `cli perf fold`: each kernel record queued
 * by time (or handled at once when it has none), each FINISHED_ROUND
 * releasing a round, and each delivered record applied to the machine or,
 * for a sample of the counted event, folded into the trie. Samples whose
 * unwound frames wait for DWARF being inflated are held (in order) until
 * it is, or until a record that is no sample must be applied.
 */
#include "perf/fold/fold.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/fold/event_match.h"
#include "perf/dwarf/inline_frames.h"
#include "perf/data/perf_decomp.h"
#include "perf/data/perf_features.h"
#include "perf/machine/perf_machine.h"
#include "perf/data/perf_order.h"
#include "perf/data/perf_record.h"
#include "perf/fold/stack.h"
#include "perf/fold/waiting_samples.h"

/* Held samples past this many bytes are named at once (waiting for the DWARF). */
#define WAITING_MAX_BYTES (64u << 20)

enum counted { UNDECIDED = 0, COUNTED, NOT_COUNTED };

struct folder {
    struct perf_file *f;
    const struct perf_fold_opts *o;
    const struct symbol_paths *paths;
    struct trie *t;
    struct perf_fold_report *report;
    struct error *e;
    struct perf_machine m;
    struct stack stack;
    struct perf_order order;
    struct perf_decomp decomp; /* perf record -z */
    enum counted *counted;     /* by attribute */
    struct waiting_samples waiting;
};

static int no_memory(struct folder *fo)
{
    return error_fail(fo->e, ERROR_NO_MEMORY, "out of memory");
}

static bool same_name(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* Whether samples of attribute `i` are counted (decided by the first sample without --event). */
static bool is_counted(struct folder *fo, size_t i)
{
    const char *name = fo->f->attrs[i].name;
    if (fo->counted[i] == UNDECIDED) {
        bool yes = fo->o->event ? script_event_matches(fo->o->event, name, strlen(name))
                   : fo->report->counted_event ? same_name(fo->report->counted_event, name)
                                               : true;
        fo->counted[i] = yes ? COUNTED : NOT_COUNTED;
    }
    if (fo->counted[i] == COUNTED && !fo->report->counted_event)
        fo->report->counted_event = name;
    if (fo->counted[i] == NOT_COUNTED && !fo->report->other_event)
        fo->report->other_event = name;
    return fo->counted[i] == COUNTED;
}

/* trie_child without the created flag (the trie memoizes recent children itself). */
static uint32_t child_of(struct trie *t, uint32_t node, uint32_t key)
{
    bool created;
    return trie_child(t, node, key, &created);
}

/* Adds the built stack under its comm frame, outermost caller first. */
static int add_stack(struct folder *fo, uint32_t comm, uint64_t weight)
{
    uint32_t node = child_of(fo->t, TRIE_ROOT, comm);
    for (size_t i = fo->stack.count; i > 0 && node != UINT32_MAX; i--)
        node = child_of(fo->t, node, fo->stack.frames[i - 1]);
    if (node == UINT32_MAX)
        return no_memory(fo);
    uint64_t *count = &fo->t->nodes[node].count;
    *count = *count > UINT64_MAX - weight ? UINT64_MAX : *count + weight;
    return 0;
}

/*
 * A sample's weight: its recorded period; with a fixed period (perf record
 * -c N, which records none per sample) that period, as perf script prints
 * it; else 1 (a frequency-mode attribute's sample_period is a frequency).
 */
static uint64_t weight_of(const struct perf_attr *a, const struct perf_sample *s)
{
    if (s->has_period)
        return s->period;
    if (!(a->flags & PERF_ATTR_FLAG_FREQ) && a->sample_period)
        return a->sample_period;
    return 1;
}

/* Names and adds the held samples, in order. Returns 0, or -1 when memory runs out. */
static int fold_waiting(struct folder *fo)
{
    struct waiting_sample w;
    size_t pos = 0;
    while (waiting_samples_next(&fo->waiting, &pos, &w)) {
        struct stack *s = &fo->stack;
        s->count = 0;
        for (size_t i = 0; i < w.nframes; i++) /* they fit: they were there */
            s->frames[s->count++] = w.frames[i];
        if (stack_name_unwound(s, w.thread, w.ips, w.nips) || add_stack(fo, w.comm, w.weight))
            return no_memory(fo);
    }
    waiting_samples_clear(&fo->waiting);
    return 0;
}

/* Holds the sample stack_build left waiting. */
static int hold_sample(struct folder *fo, struct perf_thread *thread, uint32_t comm,
                       uint64_t weight)
{
    struct waiting_sample w = {thread,          weight,        comm,          fo->stack.frames,
                               fo->stack.count, fo->stack.ips, fo->stack.nips};
    if (waiting_samples_add(&fo->waiting, &w))
        return no_memory(fo);
    return fo->waiting.size > WAITING_MAX_BYTES ? fold_waiting(fo) : 0;
}

/*
 * Whether the held samples must be named before this one is built: the
 * DWARF they wait for is ready, or the sample would change the thread of
 * some of them (perf's machine__update_thread_pid).
 */
static bool waiting_done(struct folder *fo, const struct perf_sample *s)
{
    if (!fo->waiting.count)
        return false;
    const struct perf_thread *t = perf_threads_find(&fo->m.threads, s->tid);
    return (t && t->pid == -1 && s->pid != -1) || stack_dwarf_ready(&fo->stack);
}

static int fold_sample(struct folder *fo, const struct perf_record *r, int attr)
{
    if (attr < 0) {
        fo->report->unknown_samples++;
        return 0;
    }
    const struct perf_attr *a = &fo->f->attrs[attr];
    struct perf_sample s;
    if (perf_parse_sample(a, r, &s, fo->e))
        return -1;
    if (s.cpumode == PERF_RECORD_MISC_GUEST_KERNEL || s.cpumode == PERF_RECORD_MISC_GUEST_USER)
        return 0; /* perf script shows host samples only */
    if (!is_counted(fo, (size_t)attr)) {
        fo->report->other_samples++;
        return 0;
    }
    if (waiting_done(fo, &s) && fold_waiting(fo))
        return -1;
    struct perf_thread *thread = perf_threads_findnew(&fo->m.threads, s.pid, s.tid);
    if (!thread)
        return no_memory(fo);
    uint32_t comm = stack_comm_frame(&fo->stack, thread, s.pid, s.tid);
    int built = comm ? stack_build(&fo->stack, a, &s, thread, fo->waiting.count > 0) : -1;
    if (built < 0)
        return no_memory(fo);
    fo->report->samples++;
    if (fo->stack.dwarf) {
        fo->report->dwarf_samples++;
        fo->report->dwarf_ends[fo->stack.dwarf_end]++;
    }
    if (built == STACK_WAITS)
        return hold_sample(fo, thread, comm, weight_of(a, &s));
    return add_stack(fo, comm, weight_of(a, &s));
}

/* The attribute whose trailer a non-sample record carries (the first when unsure). */
static const struct perf_attr *record_attr(struct folder *fo, int attr)
{
    return &fo->f->attrs[attr >= 0 ? attr : 0];
}

/*
 * Names the held samples before a record that may change what they
 * resolve to: a user mapping over one of their addresses, a comm (java
 * frames are named by it) or a fork (threads come and go).
 */
static int fold_waiting_before(struct folder *fo, const struct perf_record *r,
                               const struct perf_mmap_event *mmap)
{
    bool before = r->type == PERF_RECORD_COMM || r->type == PERF_RECORD_FORK ||
                  (mmap && (r->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL &&
                   waiting_samples_within(&fo->waiting, mmap->start, mmap->len));
    return before && fo->waiting.count ? fold_waiting(fo) : 0;
}

static int apply_record(struct folder *fo, const struct perf_record *r, int attr)
{
    if (r->type != PERF_RECORD_MMAP && r->type != PERF_RECORD_MMAP2 &&
        fold_waiting_before(fo, r, NULL))
        return -1;
    size_t trailer = record_attr(fo, attr)->trailer_size;
    uint8_t cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
    int rc = 0;
    switch (r->type) {
    case PERF_RECORD_MMAP:
    case PERF_RECORD_MMAP2: {
        struct perf_mmap_event ev;
        if (perf_parse_mmap(r, trailer, &ev, fo->e) || fold_waiting_before(fo, r, &ev))
            return -1;
        rc = perf_machine_mmap(&fo->m, cpumode, &ev);
        break;
    }
    case PERF_RECORD_COMM: {
        struct perf_comm_event ev;
        if (perf_parse_comm(r, trailer, &ev, fo->e))
            return -1;
        rc = perf_machine_comm(&fo->m, &ev);
        break;
    }
    case PERF_RECORD_FORK: {
        struct perf_task_event ev;
        if (perf_parse_task(r, &ev, fo->e))
            return -1;
        rc = perf_machine_fork(&fo->m, &ev, r->misc);
        break;
    }
    case PERF_RECORD_EXIT: {
        struct perf_task_event ev;
        if (perf_parse_task(r, &ev, fo->e))
            return -1;
        if (ev.pid == ev.tid)
            stack_process_exit(&fo->stack, ev.pid); /* its unwinding state; names stay */
        break;
    }
    default: /* the rest change nothing folding sees */ break;
    }
    return rc ? no_memory(fo) : 0;
}

static int deliver(void *ctx, const struct perf_record *r)
{
    struct folder *fo = ctx;
    int attr = perf_record_attr(fo->f, r);
    if (r->type == PERF_RECORD_SAMPLE)
        return fold_sample(fo, r, attr);
    return apply_record(fo, r, attr);
}

/* The record's timestamp (UINT64_MAX: none). Returns 0, or -1 with `e` set. */
static int record_time(struct folder *fo, const struct perf_record *r, uint64_t *time)
{
    int attr = perf_record_attr(fo->f, r);
    if (r->type == PERF_RECORD_SAMPLE) {
        if (attr < 0) {
            *time = UINT64_MAX;
            return 0;
        }
        return perf_sample_time(&fo->f->attrs[attr], r, time, fo->e);
    }
    struct perf_sample_id id;
    if (perf_parse_trailer(record_attr(fo, attr), r, &id, fo->e))
        return -1;
    *time = id.time;
    return 0;
}

/* After a round: the records below what is still queued are done with. */
static void release_done(struct folder *fo, uint64_t next)
{
    uint64_t queued = perf_order_lowest_offset(&fo->order);
    perf_file_release(fo->f, queued < next ? queued : next);
    perf_decomp_release(&fo->decomp, queued);
}

static int process(struct folder *fo, const struct perf_record *r, uint64_t next);

/* A compressed record: the records inside, as if they stood in its place. */
static int process_compressed(struct folder *fo, const struct perf_record *r)
{
    if (perf_decomp_add(&fo->decomp, r, fo->e))
        return -1;
    struct perf_record inner;
    int rc;
    while ((rc = perf_decomp_next(&fo->decomp, &inner, fo->e)) == 1)
        if (process(fo, &inner, r->offset))
            return -1;
    return rc;
}

/* perf_session__process_event: user records at once, kernel records through the queue. */
static int process(struct folder *fo, const struct perf_record *r, uint64_t next)
{
    if (perf_record_is_compressed(r))
        return process_compressed(fo, r);
    if (r->type >= PERF_RECORD_USER_TYPE_START) {
        if (r->type != PERF_RECORD_FINISHED_ROUND)
            return 0;
        if (perf_order_round(&fo->order, deliver, fo))
            return -1;
        release_done(fo, next);
        return 0;
    }
    uint64_t time;
    if (record_time(fo, r, &time))
        return -1;
    if (time == 0 || time == UINT64_MAX)
        return deliver(fo, r);
    return perf_order_push(&fo->order, time, r) ? no_memory(fo) : 0;
}

static int read_records(struct folder *fo)
{
    struct perf_record_iter it;
    struct perf_record r;
    int rc;
    perf_records_begin(&it, fo->f);
    while ((rc = perf_records_next(&it, &r, fo->e)) == 1)
        if (process(fo, &r, it.pos))
            return -1;
    if (rc < 0 || perf_order_finish(&fo->order, deliver, fo))
        return -1;
    return fold_waiting(fo);
}

static int setup(struct folder *fo, char **arch)
{
    struct perf_build_ids ids;
    if ((!fo->f->attrs[0].name && perf_name_events(fo->f, fo->e)) ||
        perf_read_arch(fo->f, arch, fo->e) || perf_read_build_ids(fo->f, &ids, fo->e))
        return -1;
    int rc = perf_machine_init(&fo->m, fo->paths, *arch) || perf_machine_build_ids(&fo->m, &ids);
    perf_build_ids_free(&ids);
    if (rc)
        return no_memory(fo);
    fo->m.kallsyms = fo->o->kallsyms;
    fo->m.backfill = fo->o->maps;
    fo->counted = calloc(fo->f->nr_attrs, sizeof(*fo->counted));
    return fo->counted ? 0 : no_memory(fo);
}

static void finish_report(struct folder *fo)
{
    struct perf_fold_report *r = fo->report;
    for (size_t i = 0; i < fo->f->nr_attrs; i++)
        if (fo->counted[i] == COUNTED && !(fo->f->attrs[i].sample_type & PERF_SAMPLE_CALLCHAIN))
            r->no_callchain = true;
    r->kernel_unresolved = fo->m.kernel.resolved && !fo->m.kernel.has_symbols;
    r->compressed_records = fo->decomp.records;
    r->compressed_cut = fo->decomp.block_cut;
    r->compressed_leftover = perf_decomp_leftover(&fo->decomp);
    const char *damaged = NULL;
    r->damaged_debug_files = inline_frames_damaged(fo->stack.inlines, &damaged);
    if (damaged)
        snprintf(r->damaged_debug_path, sizeof(r->damaged_debug_path), "%s", damaged);
}

int perf_fold(struct perf_file *f, const struct perf_fold_opts *o, const struct symbol_paths *paths,
              struct trie *t, struct strtab *names, struct perf_fold_report *report,
              struct error *e)
{
    memset(report, 0, sizeof(*report));
    struct folder fo = {.f = f, .o = o, .paths = paths, .t = t, .report = report, .e = e};
    char *arch = NULL;
    perf_order_init(&fo.order);
    perf_decomp_init(&fo.decomp);
    int rc = setup(&fo, &arch);
    if (rc == 0) {
        stack_init(&fo.stack, &fo.m, names, &o->names, arch, !o->no_inline);
        rc = read_records(&fo);
        finish_report(&fo);
        stack_free(&fo.stack);
    }
    perf_order_free(&fo.order);
    perf_decomp_free(&fo.decomp);
    perf_machine_free(&fo.m);
    waiting_samples_free(&fo.waiting);
    free(fo.counted);
    free(arch);
    return rc;
}
