/*
 * report: a profile's frame sums (frame_sums.h) as sorted tables, in text
 * or JSON.
 */
#define _GNU_SOURCE /* qsort_r */
#include "flamegraph/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/json_write.h"
#include "profile/frame_sums.h"

#define CLASS_PREFIX                                                                               \
    "class:" /* a weight counting one opcode class (cli execute --weight classes) */

/* Sorting name ids by a column (NULL: none), largest first, then by name bytewise. */
struct sort_ctx {
    const uint64_t *col;
    const struct strtab *names;
};

static int compare_rows(const void *a, const void *b, void *ctx)
{
    const struct sort_ctx *by = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (by->col && by->col[x] != by->col[y])
        return by->col[x] > by->col[y] ? -1 : 1;
    size_t lx = by->names->lengths[x], ly = by->names->lengths[y];
    int c = memcmp(strtab_get(by->names, x), strtab_get(by->names, y), lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

static void sort_rows(uint32_t *rows, size_t n, const uint64_t *col, const struct strtab *names)
{
    struct sort_ctx by = {.col = col, .names = names};
    qsort_r(rows, n, sizeof(*rows), compare_rows, &by);
}

/* The rows of `col` with a value, sorted; returns their count. */
static size_t ranked(const struct frame_sums *s, const uint64_t *col, uint32_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nused; i++)
        if (col[s->used[i]])
            rows[n++] = s->used[i];
    sort_rows(rows, n, col, s->p->names);
    return n;
}

static bool is_class_weight(const struct profile *p, size_t w)
{
    return strncmp(profile_weight_name(p, w), CLASS_PREFIX, strlen(CLASS_PREFIX)) == 0;
}

static bool has_class_weights(const struct profile *p)
{
    for (size_t w = 0; w < p->nweights; w++)
        if (is_class_weight(p, w))
            return true;
    return false;
}

/* The weight the class mix ranks functions by: "instructions", else the first not a class. */
static size_t mix_rank_weight(const struct profile *p)
{
    int w = profile_find_weight(p, "instructions");
    if (w >= 0)
        return (size_t)w;
    for (size_t i = 0; i < p->nweights; i++)
        if (!is_class_weight(p, i))
            return i;
    return 0;
}

/* The id of frame `name`, or UINT32_MAX when no frame has it. */
static uint32_t frame_id(const struct frame_sums *s, const char *name)
{
    for (size_t i = 0; i < s->nused; i++)
        if (strcmp(strtab_get(s->p->names, s->used[i]), name) == 0)
            return s->used[i];
    return UINT32_MAX;
}

/* Weight `pages`' self value on frame `name` ([PageIn], [PageOut]): pages paged in, out. */
static uint64_t pages_at(const struct frame_sums *s, int w, const char *name)
{
    uint32_t id = frame_id(s, name);
    return w < 0 || id == UINT32_MAX ? 0 : s->self[(size_t)w * s->nnames + id];
}

/* The zkVM calls, sorted by name. */
static size_t ecall_rows(const struct frame_sums *s, uint32_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nused; i++)
        if (frame_is_ecall(s->p->names, s->used[i]))
            rows[n++] = s->used[i];
    sort_rows(rows, n, NULL, s->p->names);
    return n;
}

static void text_table(FILE *out, const struct frame_sums *s, size_t w, bool self, size_t top,
                       uint32_t *rows)
{
    const struct profile *p = s->p;
    const uint64_t *col = (self ? s->self : s->incl) + w * s->nnames;
    size_t n = ranked(s, col, rows);
    uint64_t total = profile_total(p, w);
    if (top && n > top)
        n = top;
    fprintf(out, "\ntop %zu functions by %s %s:\n", n, self ? "self" : "inclusive",
            profile_weight_name(p, w));
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %14" PRIu64 " %6.2f%%  %s\n", col[rows[i]],
                total ? 100.0 * (double)col[rows[i]] / (double)total : 0.0,
                strtab_get(p->names, rows[i]));
}

/* One function's (or the total's) instructions by class: "load 40 (20.00%), ...". */
static void text_mix_row(FILE *out, const struct frame_sums *s, uint32_t id)
{
    const struct profile *p = s->p;
    uint64_t sum = 0;
    for (size_t w = 0; w < p->nweights; w++)
        if (is_class_weight(p, w))
            sum += id == UINT32_MAX ? profile_total(p, w) : s->self[w * s->nnames + id];
    const char *sep = "";
    for (size_t w = 0; w < p->nweights; w++) {
        uint64_t v = id == UINT32_MAX ? profile_total(p, w) : s->self[w * s->nnames + id];
        if (!is_class_weight(p, w) || !v)
            continue;
        fprintf(out, "%s%s %" PRIu64 " (%.2f%%)", sep,
                profile_weight_name(p, w) + strlen(CLASS_PREFIX), v,
                100.0 * (double)v / (double)sum);
        sep = ", ";
    }
    fputs(sum ? "\n" : "no instructions\n", out); /* [PageIn], [PageOut] */
}

/* The opcode classes of the whole profile and of the top functions by self value. */
static void text_class_mix(FILE *out, const struct frame_sums *s, size_t top, uint32_t *rows)
{
    const struct profile *p = s->p;
    if (!has_class_weights(p)) {
        fputs("\nopcode-class mix: not in this profile (cli execute --weight classes writes "
              "it)\n",
              out);
        return;
    }
    size_t rw = mix_rank_weight(p);
    size_t n = ranked(s, s->self + rw * s->nnames, rows);
    if (top && n > top)
        n = top;
    fputs("\nopcode-class mix (instructions):\n  all: ", out);
    text_mix_row(out, s, UINT32_MAX);
    fprintf(out, "opcode-class mix of the top %zu functions by self %s:\n", n,
            profile_weight_name(p, rw));
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  %s: ", strtab_get(p->names, rows[i]));
        text_mix_row(out, s, rows[i]);
    }
}

static void text_pages(FILE *out, const struct frame_sums *s)
{
    int w = profile_find_weight(s->p, "pages");
    if (w < 0)
        fputs("pages touched: not in this profile (cli execute --weight pages, with a weight "
              "that pages, counts them)\n",
              out);
    else
        fprintf(out,
                "pages touched (1 KiB, per segment): paged in %" PRIu64 ", paged out %" PRIu64 "\n",
                pages_at(s, w, "[PageIn]"), pages_at(s, w, "[PageOut]"));
}

static void write_text(FILE *out, const struct frame_sums *s, const struct report_options *o,
                       uint32_t *rows)
{
    const struct profile *p = s->p;
    fputs("profile:", out);
    for (size_t i = 0; i < o->ninputs; i++)
        fprintf(out, " %s", o->inputs[i]);
    fputs("\n", out);
    for (size_t w = 0; w < p->nweights; w++)
        if (!is_class_weight(p, w))
            fprintf(out, "%s: %" PRIu64 " (%s)\n", profile_weight_name(p, w), profile_total(p, w),
                    p->weights[w].unit);
    for (size_t w = 0; w < p->nweights; w++) {
        if (is_class_weight(p, w))
            continue;
        text_table(out, s, w, true, o->top, rows);
        text_table(out, s, w, false, o->top, rows);
    }
    size_t n = ecall_rows(s, rows), cw = frame_calls_weight(p);
    fprintf(out, "\nzkVM calls ([ecall:NAME] frames): %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  %s calls %" PRIu64, strtab_get(p->names, rows[i]),
                s->incl[cw * s->nnames + rows[i]]);
        for (size_t w = 0; w < p->nweights; w++)
            if (!is_class_weight(p, w)) /* a call is one ecall: the class mix shows it */
                fprintf(out, ", %s %" PRIu64, profile_weight_name(p, w),
                        s->incl[w * s->nnames + rows[i]]);
        fputs("\n", out);
    }
    text_class_mix(out, s, o->top, rows);
    text_pages(out, s);
}

static void json_name(struct json_out *j, const struct strtab *names, uint32_t id)
{
    json_out_string(j, strtab_get(names, id), names->lengths[id]);
}

static void json_text(struct json_out *j, const char *s)
{
    json_out_string(j, s, strlen(s));
}

static void json_table(struct json_out *j, const struct frame_sums *s, size_t w, bool self,
                       size_t top, uint32_t *rows)
{
    const uint64_t *col = (self ? s->self : s->incl) + w * s->nnames;
    size_t n = ranked(s, col, rows);
    if (top && n > top)
        n = top;
    json_raw(j, self ? "\"self\":[" : "\"inclusive\":[");
    for (size_t i = 0; i < n; i++) {
        json_raw(j, i ? ",\n{\"function\":" : "\n{\"function\":");
        json_name(j, s->p->names, rows[i]);
        json_raw(j, ",\"value\":");
        json_u64(j, col[rows[i]]);
        json_raw(j, "}");
    }
    json_raw(j, "]");
}

static void json_ecalls(struct json_out *j, const struct frame_sums *s, uint32_t *rows)
{
    const struct profile *p = s->p;
    size_t n = ecall_rows(s, rows), cw = frame_calls_weight(p), k = strlen(FRAME_ECALL_PREFIX);
    json_raw(j, "\"ecalls\":[");
    for (size_t i = 0; i < n; i++) {
        const char *frame = strtab_get(p->names, rows[i]);
        json_raw(j, i ? ",\n{\"name\":" : "\n{\"name\":");
        json_out_string(j, frame + k, p->names->lengths[rows[i]] - k - 1);
        json_raw(j, ",\"frame\":");
        json_name(j, p->names, rows[i]);
        json_raw(j, ",\"calls\":");
        json_u64(j, s->incl[cw * s->nnames + rows[i]]);
        json_raw(j, ",\"cost\":{");
        for (size_t w = 0; w < p->nweights; w++) {
            if (w)
                json_raw(j, ",");
            json_text(j, profile_weight_name(p, w));
            json_raw(j, ":");
            json_u64(j, s->incl[w * s->nnames + rows[i]]);
        }
        json_raw(j, "}}");
    }
    json_raw(j, "]");
}

/* {"add": n, ...}: the classes with instructions, of function `id` (UINT32_MAX: all). */
static void json_mix_row(struct json_out *j, const struct frame_sums *s, uint32_t id)
{
    const struct profile *p = s->p;
    json_raw(j, "{");
    bool first = true;
    for (size_t w = 0; w < p->nweights; w++) {
        uint64_t v = id == UINT32_MAX ? profile_total(p, w) : s->self[w * s->nnames + id];
        if (!is_class_weight(p, w) || !v)
            continue;
        json_raw(j, first ? "" : ",");
        first = false;
        json_text(j, profile_weight_name(p, w) + strlen(CLASS_PREFIX));
        json_raw(j, ":");
        json_u64(j, v);
    }
    json_raw(j, "}");
}

static void json_class_mix(struct json_out *j, const struct frame_sums *s, size_t top,
                           uint32_t *rows)
{
    const struct profile *p = s->p;
    json_raw(j, "\"class_mix\":");
    if (!has_class_weights(p)) {
        json_raw(j, "null");
        return;
    }
    size_t rw = mix_rank_weight(p);
    size_t n = ranked(s, s->self + rw * s->nnames, rows);
    if (top && n > top)
        n = top;
    json_raw(j, "{\"by\":");
    json_text(j, profile_weight_name(p, rw));
    json_raw(j, ",\"all\":");
    json_mix_row(j, s, UINT32_MAX);
    json_raw(j, ",\"functions\":[");
    for (size_t i = 0; i < n; i++) {
        json_raw(j, i ? ",\n{\"function\":" : "\n{\"function\":");
        json_name(j, p->names, rows[i]);
        json_raw(j, ",\"classes\":");
        json_mix_row(j, s, rows[i]);
        json_raw(j, "}");
    }
    json_raw(j, "]}");
}

static void write_json(struct json_out *j, const struct frame_sums *s,
                       const struct report_options *o, uint32_t *rows)
{
    const struct profile *p = s->p;
    json_raw(j, "{\"inputs\":[");
    for (size_t i = 0; i < o->ninputs; i++) {
        if (i)
            json_raw(j, ",");
        json_text(j, o->inputs[i]);
    }
    json_raw(j, "],\n\"weights\":[");
    for (size_t w = 0; w < p->nweights; w++) {
        json_raw(j, w ? ",\n{\"name\":" : "\n{\"name\":");
        json_text(j, profile_weight_name(p, w));
        json_raw(j, ",\"unit\":");
        json_text(j, p->weights[w].unit);
        json_raw(j, ",\"total\":");
        json_u64(j, profile_total(p, w));
        json_raw(j, "}");
    }
    json_raw(j, "],\n\"top\":{");
    bool first = true;
    for (size_t w = 0; w < p->nweights; w++) {
        if (is_class_weight(p, w))
            continue;
        json_raw(j, first ? "\n" : ",\n");
        first = false;
        json_text(j, profile_weight_name(p, w));
        json_raw(j, ":{");
        json_table(j, s, w, true, o->top, rows);
        json_raw(j, ",\n");
        json_table(j, s, w, false, o->top, rows);
        json_raw(j, "}");
    }
    json_raw(j, "},\n");
    json_ecalls(j, s, rows);
    json_raw(j, ",\n");
    json_class_mix(j, s, o->top, rows);
    json_raw(j, ",\n\"pages\":");
    int pw = profile_find_weight(p, "pages");
    if (pw < 0) {
        json_raw(j, "null");
    } else {
        json_raw(j, "{\"in\":");
        json_u64(j, pages_at(s, pw, "[PageIn]"));
        json_raw(j, ",\"out\":");
        json_u64(j, pages_at(s, pw, "[PageOut]"));
        json_raw(j, "}");
    }
    json_raw(j, "}\n");
}

int report_write(FILE *out, const struct profile *p, const struct report_options *o)
{
    struct frame_sums s;
    memset(&s, 0, sizeof(s));
    uint32_t *rows = malloc((p->names->count ? p->names->count : 1) * sizeof(*rows));
    int rc = rows ? frame_sums_build(&s, p) : -1;
    if (rc) {
        errno = ENOMEM;
    } else if (o->json) {
        struct json_out j = {.f = out};
        write_json(&j, &s, o, rows);
        rc = json_finish(&j);
    } else {
        write_text(out, &s, o, rows);
        rc = ferror(out) || fflush(out) == EOF ? -1 : 0;
        if (rc && !errno)
            errno = EIO;
    }
    frame_sums_free(&s);
    free(rows);
    return rc;
}

int report_write_trie(FILE *out, struct trie *t, struct strtab *names, const char *weight,
                      const struct report_options *o)
{
    struct profile p;
    if (!profile_wrap(&p, t, names, weight)) {
        errno = ENOMEM;
        return -1;
    }
    int rc = report_write(out, &p, o);
    profile_free(&p);
    return rc;
}
