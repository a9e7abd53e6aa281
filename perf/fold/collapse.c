/*
 * collapse: the sample loop of `cli perf collapse`: headers open samples,
 * frame lines add frames, a blank line counts the sample (docs/PERF.md#folding-rules).
 *
 * As stackcollapse-perf.pl does it: lines starting "#" are comments; the
 * first event named by a header is the one counted unless --event names
 * another, and the frame lines of a sample left out are skipped; a sample
 * weighs the period its header gives, else 1; a sample with no frame
 * counts as its comm alone; a last sample without a blank line after it
 * is left out (and reported); a line that is nothing known is skipped and
 * reported. Where this differs from the script:
 *   - a period of 0 weighs 0 (docs/PERF.md#folding-rules: a sample weighs its period); the script
 * makes it 1;
 *   - a header that holds the sample's frame (perf record without -g) is
 *     a whole sample, as inferno reads it, its comm padded or not;
 *   - a header that follows frames without a blank line between counts
 *     the sample before it (the script glues the two call chains);
 *   - a line of blanks ends a sample like an empty line, and a CR before
 *     the newline is dropped (the script then sees no blank lines at all);
 *   - --event NAME also selects NAME with perf's modifiers ("cycles:u");
 *   - input with a NUL byte (a perf.data file) or without a single sample
 *     header is malformed, not an empty profile;
 *   - lines are sorted bytewise whole (docs/FORMATS.md#folded-stacks), the script sorts the stacks.
 */
#include "perf/perf.h" /* perf_collapse */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "perf/fold/event_match.h"
#include "perf/fold/frame_name.h"
#include "perf/fold/script_line.h"

struct collapse {
    const struct perf_collapse_opts *o;
    struct trie *t;
    struct strtab *names;
    struct perf_collapse_report *report;
    const char *in_name;
    struct error *e;
    size_t lineno;
    size_t first_content; /* line number of the first line that is not blank or comment */
    size_t headers;       /* header lines seen */
    char *first_event;    /* the event counted by default */
    struct perf_name name;
    /* The sample being read. */
    bool open;          /* its header is counted and its frames go into `frames` */
    size_t sample_line; /* its header's line number */
    bool left_out;      /* the last header's sample is another event's: its frames are skipped */
    bool java;
    uint32_t comm;
    uint64_t weight;
    uint32_t *frames; /* strtab ids, leaf first as perf prints them */
    size_t nframes, cap;
};

static int malformed(struct collapse *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "NAME: line N: ..." */
static int malformed(struct collapse *c, const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    return error_fail(c->e, ERROR_CORRUPT, "%s: %s", c->in_name, why);
}

static int no_memory(struct collapse *c)
{
    return error_fail(c->e, ERROR_NO_MEMORY, "out of memory folding %s", c->in_name);
}

static bool is_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/* Counts the open sample: comm, then the frames from the outermost to the leaf. */
static int sample_count(struct collapse *c)
{
    bool created;
    uint32_t node = trie_child(c->t, TRIE_ROOT, c->comm, &created);
    for (size_t i = c->nframes; i > 0 && node != UINT32_MAX; i--)
        node = trie_child(c->t, node, c->frames[i - 1], &created);
    c->open = false;
    c->nframes = 0;
    if (node == UINT32_MAX)
        return no_memory(c);
    uint64_t *count = &c->t->nodes[node].count;
    if (*count > UINT64_MAX - c->weight)
        return malformed(c, "line %zu: the weights of one stack overflow 64 bits", c->lineno);
    *count += c->weight;
    c->report->samples++;
    return 0;
}

static int push_frame(struct collapse *c, const char *name, size_t len)
{
    if (len == 0)
        return 0; /* a name that comes out empty is left out */
    uint32_t id = strtab_intern(c->names, name, len);
    if (!id)
        return no_memory(c);
    if (c->nframes == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        uint32_t *frames = realloc(c->frames, cap * sizeof(*frames));
        if (!frames)
            return no_memory(c);
        c->frames = frames;
        c->cap = cap;
    }
    c->frames[c->nframes++] = id;
    return 0;
}

/*
 * A frame line's frames. An inline chain's are caller first, as they are
 * written; the sample's frames are leaf first, so they go in from the end.
 */
static int add_frame(struct collapse *c, const struct script_frame *sf)
{
    const struct perf_frame f = {.sym = sf->sym,
                                 .sym_len = sf->sym_len,
                                 .module = sf->module,
                                 .module_len = sf->module_len,
                                 .addr = sf->addr,
                                 .java = c->java};
    if (perf_frame_name(&c->name, &f, &c->o->names))
        return no_memory(c);
    const char *s = c->name.data;
    int rc = 0;
    for (size_t e = c->name.len; rc == 0;) {
        size_t b = e;
        while (b > 0 && s[b - 1] != PERF_FRAME_SEPARATOR)
            b--;
        rc = push_frame(c, s + b, e - b);
        if (b == 0)
            break;
        e = b - 1;
    }
    return rc;
}

/* Remembers a distinct event that is left out, for the caller's warning. */
static int note_other_event(struct collapse *c, const char *name, size_t len)
{
    struct perf_collapse_report *r = c->report;
    size_t kept =
        r->other_count < PERF_COLLAPSE_MAX_EVENTS ? r->other_count : PERF_COLLAPSE_MAX_EVENTS;
    for (size_t i = 0; i < kept; i++)
        if (strlen(r->other_events[i]) == len && memcmp(r->other_events[i], name, len) == 0)
            return 0;
    if (kept == PERF_COLLAPSE_MAX_EVENTS)
        return 0; /* the count stops at the list's end */
    if (!(r->other_events[kept] = strndup(name, len)))
        return no_memory(c);
    r->other_count++;
    return 0;
}

/* Whether a sample of this event is counted; *rc set when memory runs out. */
static bool event_counted(struct collapse *c, const struct script_event *e, int *rc)
{
    if (!e->name)
        return true; /* the header names no event: nothing to filter on */
    bool counted;
    if (c->o->event) {
        counted = script_event_matches(c->o->event, e->name, e->name_len);
    } else {
        if (!c->first_event && !(c->first_event = strndup(e->name, e->name_len)))
            return *rc = no_memory(c), false;
        counted = strlen(c->first_event) == e->name_len &&
                  memcmp(c->first_event, e->name, e->name_len) == 0;
    }
    if (!counted) {
        c->report->skipped_samples++;
        *rc = note_other_event(c, e->name, e->name_len);
    } else if (!c->report->counted_event &&
               !(c->report->counted_event = strndup(e->name, e->name_len))) {
        *rc = no_memory(c);
    }
    return counted;
}

static int begin_sample(struct collapse *c, const struct script_header *h,
                        const struct script_event *e)
{
    int rc = 0;
    if (c->open && c->nframes > 0 && (rc = sample_count(c)))
        return rc;
    c->open = false; /* a header with no frames before the next header is dropped */
    c->nframes = 0;
    c->left_out = false;
    if (!event_counted(c, e, &rc)) {
        c->left_out = true;
        return rc;
    }
    if (perf_comm_name(&c->name, h->comm, h->comm_len, h->pid, h->tid, &c->o->names))
        return no_memory(c);
    if (!(c->comm = strtab_intern(c->names, c->name.data, c->name.len)))
        return no_memory(c);
    c->java = perf_comm_is_java(h->comm, h->comm_len);
    c->weight = e->has_period ? e->period : 1;
    c->open = true;
    c->sample_line = c->lineno;
    return rc;
}

static void note_unrecognized(struct collapse *c, const char *line, size_t len)
{
    struct perf_collapse_report *r = c->report;
    if (r->unrecognized++ == 0) {
        r->first_unrecognized = c->lineno;
        size_t n = len < sizeof(r->first_unrecognized_text) - 1
                       ? len
                       : sizeof(r->first_unrecognized_text) - 1;
        memcpy(r->first_unrecognized_text, line, n);
        r->first_unrecognized_text[n] = '\0';
    }
}

/*
 * A frame line: a frame of the open sample, skipped in a sample left out
 * (another event's), reported anywhere else (after a blank line or a
 * one-line sample), as the frame of no sample.
 */
static int sample_frame(struct collapse *c, const struct script_frame *f)
{
    if (c->open)
        return add_frame(c, f);
    if (!c->left_out && c->report->stray_frames++ == 0)
        c->report->first_stray = c->lineno;
    return 0;
}

/*
 * A sample that is its header line alone (perf record without -g): its
 * one frame is on that line, and the sample ends with it.
 */
static int single_line_sample(struct collapse *c, const struct script_header *h,
                              const struct script_event *e, const struct script_frame *f)
{
    int rc = begin_sample(c, h, e);
    if (rc == 0 && c->open && (rc = add_frame(c, f)) == 0)
        rc = sample_count(c);
    return rc;
}

/*
 * A header (perf script pads the comm with blanks on the left when it
 * prints no call chains), or else a frame line written without indent,
 * as the script's `elsif` takes it (its test file perf-java-stacks-02.txt
 * has such stacks). False: neither.
 */
static bool header_line(struct collapse *c, const char *line, size_t len, int *rc)
{
    struct script_header h;
    struct script_event e;
    struct script_frame f;
    size_t indent = 0;
    while (indent < len && (line[indent] == ' ' || line[indent] == '\t'))
        indent++;
    line += indent;
    len -= indent;
    if (!script_header_parse(line, len, &h)) {
        if (indent || !script_unindented_frame_parse(line, len, &f))
            return false;
        *rc = sample_frame(c, &f);
        return true;
    }
    c->headers++;
    if (script_sample_frame_parse(line, len, &h, &e, &f))
        *rc = single_line_sample(c, &h, &e, &f);
    else if (!script_event_parse(line, len, &h, &e))
        *rc = malformed(c, "line %zu: the sample period does not fit in 64 bits", c->lineno);
    else
        *rc = begin_sample(c, &h, &e);
    return true;
}

/* An indented line: a frame, else a header with its comm padded. */
static int frame_line(struct collapse *c, const char *line, size_t len)
{
    struct script_frame f;
    int rc = 0;
    if (script_frame_parse(line, len, &f))
        return sample_frame(c, &f);
    if (!header_line(c, line, len, &rc))
        note_unrecognized(c, line, len);
    return rc;
}

static int one_line(struct collapse *c, const char *line, size_t len)
{
    if (memchr(line, '\0', len))
        return malformed(c,
                         "line %zu: binary data, not `perf script` text (a perf.data file "
                         "is folded by 'cli perf fold FILE')",
                         c->lineno);
    if (len > 0 && line[0] == '#')
        return 0;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (is_blank(line, len)) {
        c->left_out = false;
        return c->open ? sample_count(c) : 0;
    }
    if (!c->first_content)
        c->first_content = c->lineno;
    if (line[0] == ' ' || line[0] == '\t')
        return frame_line(c, line, len);
    int rc = 0;
    if (!header_line(c, line, len, &rc))
        note_unrecognized(c, line, len);
    return rc;
}

void perf_collapse_report_free(struct perf_collapse_report *r)
{
    free(r->counted_event);
    for (size_t i = 0; i < PERF_COLLAPSE_MAX_EVENTS; i++)
        free(r->other_events[i]);
    memset(r, 0, sizeof(*r));
}

int perf_collapse(FILE *in, const char *in_name, const struct perf_collapse_opts *o, struct trie *t,
                  struct strtab *names, struct perf_collapse_report *report, struct error *e)
{
    memset(report, 0, sizeof(*report));
    struct collapse c = {
        .o = o, .t = t, .names = names, .report = report, .in_name = in_name, .e = e};
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = getline(&line, &cap, in)) >= 0) {
        c.lineno++;
        rc = one_line(&c, line, (size_t)n);
    }
    if (rc == 0 && ferror(in))
        rc = error_fail_errno(e, ERROR_UNREADABLE, errno, "cannot read %s", in_name);
    if (rc == 0 && c.open)
        report->unterminated = c.sample_line; /* the script leaves it out too */
    if (rc == 0 && c.first_content && c.headers == 0)
        rc = malformed(&c,
                       "line %zu: not `perf script` output: no line reads as a sample "
                       "header ('COMM PID [CPU] TIME: [PERIOD] EVENT:')",
                       c.first_content);
    free(line);
    free(c.frames);
    free(c.first_event);
    perf_name_free(&c.name);
    return rc;
}
