/*
 * diff_summary: two profiles joined by frame name (both sides' frame
 * sums, the names merged in byte order), then written as tables of what
 * changed, biggest change first. See diff_summary.h.
 */
#define _GNU_SOURCE /* qsort_r */
#include "flamegraph/diff_summary.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/json_write.h"

/* ---- joining ---- */

static int compare_names(const void *a, const void *b, void *ctx)
{
    const struct strtab *names = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    size_t lx = names->lengths[x], ly = names->lengths[y];
    int c = memcmp(strtab_get(names, x), strtab_get(names, y), lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

/* The used name ids of `s`, sorted by name; NULL when memory runs out. */
static uint32_t *sorted_names(const struct frame_sums *s)
{
    uint32_t *ids = malloc((s->nused ? s->nused : 1) * sizeof(*ids));
    if (ids) {
        memcpy(ids, s->used, s->nused * sizeof(*ids));
        qsort_r(ids, s->nused, sizeof(*ids), compare_names, (void *)s->p->names);
    }
    return ids;
}

static int compare_bytes(const char *a, size_t la, const char *b, size_t lb)
{
    int c = memcmp(a, b, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

/* Merges the two sorted name lists into ds->functions. */
static int join_functions(struct diff_summary *ds)
{
    const struct frame_sums *bs = &ds->before_sums, *as = &ds->after_sums;
    uint32_t *b = sorted_names(bs), *a = sorted_names(as);
    ds->functions = malloc((bs->nused + as->nused + 1) * sizeof(*ds->functions));
    int rc = a && b && ds->functions ? 0 : -1;
    size_t i = 0, j = 0;
    while (rc == 0 && (i < bs->nused || j < as->nused)) {
        const struct strtab *bn = ds->before->names, *an = ds->after->names;
        int c = i == bs->nused   ? 1
                : j == as->nused ? -1
                                 : compare_bytes(strtab_get(bn, b[i]), bn->lengths[b[i]],
                                                 strtab_get(an, a[j]), an->lengths[a[j]]);
        struct diff_function *f = &ds->functions[ds->nfunctions++];
        *f = (struct diff_function){.before_id = DIFF_ABSENT, .after_id = DIFF_ABSENT};
        if (c <= 0) {
            f->before_id = b[i++];
            f->name = strtab_get(bn, f->before_id);
            f->len = bn->lengths[f->before_id];
        }
        if (c >= 0) {
            f->after_id = a[j++];
            f->name = strtab_get(an, f->after_id);
            f->len = an->lengths[f->after_id];
        }
    }
    free(a);
    free(b);
    return rc;
}

/* Pairs every weight of `after` with the same-named one of `before`; they must be the same set. */
static int pair_weights(struct diff_summary *ds, struct error *e)
{
    const struct profile *b = ds->before, *a = ds->after;
    bool same = a->nweights == b->nweights;
    for (size_t w = 0; same && w < a->nweights; w++) {
        int bw = profile_find_weight(b, profile_weight_name(a, w));
        same = bw >= 0;
        if (same)
            ds->weights[ds->nweights++] = (struct diff_weight){
                .after_w = w,
                .before_w = (size_t)bw,
                .before_total = profile_total(b, (size_t)bw),
                .after_total = profile_total(a, w),
            };
    }
    if (same)
        return 0;
    char bl[256] = "", al[256] = "";
    for (size_t w = 0; w < b->nweights; w++)
        snprintf(bl + strlen(bl), sizeof(bl) - strlen(bl), "%s%s", w ? ", " : "",
                 profile_weight_name(b, w));
    for (size_t w = 0; w < a->nweights; w++)
        snprintf(al + strlen(al), sizeof(al) - strlen(al), "%s%s", w ? ", " : "",
                 profile_weight_name(a, w));
    return error_fail(e, ERROR_CORRUPT,
                      "the profiles weigh different things: BEFORE has %s, AFTER has %s (profile "
                      "both runs with the same --weight)",
                      bl, al);
}

int diff_summary_build(struct diff_summary *ds, const struct profile *before,
                       const struct profile *after, struct error *e)
{
    memset(ds, 0, sizeof(*ds));
    ds->before = before;
    ds->after = after;
    if (pair_weights(ds, e) != 0)
        return -1;
    if (frame_sums_build(&ds->before_sums, before) != 0 ||
        frame_sums_build(&ds->after_sums, after) != 0 || join_functions(ds) != 0)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    return 0;
}

void diff_summary_free(struct diff_summary *ds)
{
    frame_sums_free(&ds->before_sums);
    frame_sums_free(&ds->after_sums);
    free(ds->functions);
    memset(ds, 0, sizeof(*ds));
}

/* ---- one function's numbers ---- */

struct diff_values {
    uint64_t incl_before, incl_after, self_before, self_after;
};

static struct diff_values values_of(const struct diff_summary *ds, const struct diff_weight *dw,
                                    const struct diff_function *f)
{
    struct diff_values v = {0};
    if (f->before_id != DIFF_ABSENT) {
        v.incl_before = frame_sums_incl(&ds->before_sums, dw->before_w, f->before_id);
        v.self_before = frame_sums_self(&ds->before_sums, dw->before_w, f->before_id);
    }
    if (f->after_id != DIFF_ABSENT) {
        v.incl_after = frame_sums_incl(&ds->after_sums, dw->after_w, f->after_id);
        v.self_after = frame_sums_self(&ds->after_sums, dw->after_w, f->after_id);
    }
    return v;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

/* How much a function changed: the larger of its inclusive and self changes. */
static uint64_t change_size(const struct diff_values *v)
{
    uint64_t i = distance(v->incl_before, v->incl_after),
             s = distance(v->self_before, v->self_after);
    return i > s ? i : s;
}

struct rank_ctx {
    const struct diff_summary *ds;
    const struct diff_weight *dw;
};

static int compare_changes(const void *x, const void *y, void *ctx)
{
    const struct rank_ctx *r = ctx;
    const struct diff_function *a = &r->ds->functions[*(const uint32_t *)x],
                               *b = &r->ds->functions[*(const uint32_t *)y];
    struct diff_values va = values_of(r->ds, r->dw, a), vb = values_of(r->ds, r->dw, b);
    uint64_t ca = change_size(&va), cb = change_size(&vb);
    if (ca != cb)
        return ca > cb ? -1 : 1;
    return compare_bytes(a->name, a->len, b->name, b->len);
}

/* The functions whose cost under dw changed, biggest change first (zkVM calls left to their table).
 */
static size_t changed_functions(const struct diff_summary *ds, const struct diff_weight *dw,
                                uint32_t *rows)
{
    size_t n = 0;
    for (uint32_t i = 0; i < ds->nfunctions; i++) {
        struct diff_values v = values_of(ds, dw, &ds->functions[i]);
        if (change_size(&v))
            rows[n++] = i;
    }
    struct rank_ctx r = {ds, dw};
    qsort_r(rows, n, sizeof(*rows), compare_changes, &r);
    return n;
}

static bool is_call(const struct diff_summary *ds, const struct diff_function *f)
{
    return f->after_id != DIFF_ABSENT ? frame_is_ecall(ds->after->names, f->after_id)
                                      : frame_is_ecall(ds->before->names, f->before_id);
}

/* Calls: the count an ecall's frame holds under the weight that counts calls. */
static uint64_t calls_of(const struct frame_sums *s, uint32_t id)
{
    return id == DIFF_ABSENT ? 0 : frame_sums_incl(s, frame_calls_weight(s->p), id);
}

static bool call_changed(const struct diff_summary *ds, const struct diff_function *f)
{
    if (calls_of(&ds->before_sums, f->before_id) != calls_of(&ds->after_sums, f->after_id))
        return true;
    for (size_t w = 0; w < ds->nweights; w++) {
        struct diff_values v = values_of(ds, &ds->weights[w], f);
        if (v.incl_before != v.incl_after)
            return true;
    }
    return false;
}

/* ---- numbers as people read them ---- */

/* 1234567 -> "1,234,567". */
static const char *grouped(uint64_t v, char *buf, size_t size)
{
    char digits[32];
    int n = snprintf(digits, sizeof(digits), "%" PRIu64, v);
    size_t at = 0;
    for (int i = 0; i < n && at + 2 < size; i++) {
        if (i && (n - i) % 3 == 0)
            buf[at++] = ',';
        buf[at++] = digits[i];
    }
    buf[at] = '\0';
    return buf;
}

/* "+42 (+4.20%)", "-7 (-0.70%)", "0", "+42 (new)". */
static const char *change_text(uint64_t before, uint64_t after, char *buf, size_t size)
{
    char num[40];
    if (before == after)
        return snprintf(buf, size, "0"), buf;
    grouped(distance(before, after), num, sizeof(num));
    char sign = after > before ? '+' : '-';
    if (before == 0)
        snprintf(buf, size, "%c%s (new)", sign, num);
    else
        snprintf(buf, size, "%c%s (%+.2f%%)", sign, num,
                 ((double)after - (double)before) * 100.0 / (double)before);
    return buf;
}

/* ---- Markdown and text ---- */

/*
 * Markdown rows are `| name | cell | ... |`; text rows put the cells first,
 * right-aligned in fixed columns, and the name last, as `go tool pprof
 * -top` does, so that rows line up whatever the names' lengths.
 */
struct writer {
    FILE *out;
    bool markdown;
    bool in_row;          /* text: between row start and end */
    const char *row_name; /* text: the name the row ends with */
    size_t row_name_len;
};

/* A function name in a Markdown table cell: a code span, '|' escaped (GFM tables). */
static void put_name(struct writer *w, const char *name, size_t len)
{
    if (!w->markdown && w->in_row) {
        w->row_name = name;
        w->row_name_len = len;
        return;
    }
    if (!w->markdown) {
        fwrite(name, 1, len, w->out);
        return;
    }
    bool tick = memchr(name, '`', len) != NULL;
    fputs(tick ? "`` " : "`", w->out);
    for (size_t i = 0; i < len; i++) {
        if (name[i] == '|')
            fputc('\\', w->out);
        fputc(name[i] == '\n' ? ' ' : name[i], w->out);
    }
    fputs(tick ? " ``" : "`", w->out);
}

static void put_row_start(struct writer *w)
{
    if (w->markdown)
        fputs("| ", w->out);
    w->in_row = true;
}

static void put_cell(const struct writer *w, const char *text)
{
    if (w->markdown)
        fprintf(w->out, " | %s", text);
    else
        fprintf(w->out, "%17s", text);
}

/* A text table's header: the columns' titles over the cells, then the name's. */
static void put_text_header(const struct writer *w, const char *const *titles, size_t n,
                            const char *name)
{
    for (size_t i = 0; i < n; i++)
        fprintf(w->out, "%17s", titles[i]);
    fprintf(w->out, "  %s\n", name);
}

static void put_row_end(struct writer *w)
{
    if (w->markdown) {
        fputs(" |\n", w->out);
    } else {
        fputs("  ", w->out);
        fwrite(w->row_name, 1, w->row_name_len, w->out);
        fputc('\n', w->out);
    }
    w->in_row = false;
}

static void put_files(FILE *out, const char *const *files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? " + " : "", files[i]);
}

static void write_totals(struct writer *w, const struct diff_summary *ds)
{
    char b[40], a[40], c[64];
    if (w->markdown)
        fputs("| weight | before | after | change |\n|:--|--:|--:|--:|\n", w->out);
    else
        put_text_header(w, (const char *const[]){"before", "after", "change"}, 3, "weight");
    for (size_t i = 0; i < ds->nweights; i++) {
        const struct diff_weight *dw = &ds->weights[i];
        const char *name = profile_weight_name(ds->after, dw->after_w);
        put_row_start(w);
        put_name(w, name, strlen(name));
        put_cell(w, grouped(dw->before_total, b, sizeof(b)));
        put_cell(w, grouped(dw->after_total, a, sizeof(a)));
        put_cell(w, change_text(dw->before_total, dw->after_total, c, sizeof(c)));
        put_row_end(w);
    }
}

static void write_function_row(struct writer *w, const struct diff_summary *ds,
                               const struct diff_weight *dw, const struct diff_function *f)
{
    struct diff_values v = values_of(ds, dw, f);
    char b[40], a[40], c[64];
    put_row_start(w);
    put_name(w, f->name, f->len);
    put_cell(w, grouped(v.incl_before, b, sizeof(b)));
    put_cell(w, grouped(v.incl_after, a, sizeof(a)));
    put_cell(w, change_text(v.incl_before, v.incl_after, c, sizeof(c)));
    put_cell(w, grouped(v.self_before, b, sizeof(b)));
    put_cell(w, grouped(v.self_after, a, sizeof(a)));
    put_cell(w, change_text(v.self_before, v.self_after, c, sizeof(c)));
    put_row_end(w);
}

static void write_function_header(struct writer *w)
{
    if (w->markdown)
        fputs("| function | inclusive before | inclusive after | change | self before | self "
              "after | change |\n|:--|--:|--:|--:|--:|--:|--:|\n",
              w->out);
    else
        put_text_header(w,
                        (const char *const[]){"inclusive before", "inclusive after", "change",
                                              "self before", "self after", "change"},
                        6, "function");
}

/* The names of functions only one side has, with their inclusive cost. */
static void write_only_on_one_side(struct writer *w, const struct diff_summary *ds,
                                   const struct diff_weight *dw, const uint32_t *rows, size_t n,
                                   bool new_ones)
{
    size_t shown = 0;
    char num[40];
    for (size_t i = 0; i < n; i++) {
        const struct diff_function *f = &ds->functions[rows[i]];
        if ((new_ones ? f->before_id : f->after_id) != DIFF_ABSENT || is_call(ds, f))
            continue;
        struct diff_values v = values_of(ds, dw, f);
        fprintf(w->out, "%s",
                shown++ ? ", "
                        : (new_ones ? (w->markdown ? "\n**New:** " : "  new: ")
                                    : (w->markdown ? "\n**Vanished:** " : "  vanished: ")));
        put_name(w, f->name, f->len);
        fprintf(w->out, " (%s)",
                grouped(new_ones ? v.incl_after : v.incl_before, num, sizeof(num)));
    }
    if (shown)
        fputc('\n', w->out);
}

static void write_weight_functions(struct writer *w, const struct diff_summary *ds,
                                   const struct diff_weight *dw, size_t top, uint32_t *rows)
{
    size_t n = changed_functions(ds, dw, rows), kept = 0;
    for (size_t i = 0; i < n; i++) /* the zkVM calls have their own table */
        if (!is_call(ds, &ds->functions[rows[i]]))
            rows[kept++] = rows[i];
    n = kept;
    const char *name = profile_weight_name(ds->after, dw->after_w);
    fprintf(w->out,
            w->markdown ? "\n### %s: %zu functions changed\n\n" : "\n%s: %zu functions changed\n",
            name, n);
    if (!n)
        return;
    size_t shown = top && n > top ? top : n;
    write_function_header(w);
    for (size_t i = 0; i < shown; i++)
        write_function_row(w, ds, dw, &ds->functions[rows[i]]);
    if (shown < n && w->markdown) {
        fprintf(w->out, "\n<details><summary>%zu more</summary>\n\n", n - shown);
        write_function_header(w);
        for (size_t i = shown; i < n; i++)
            write_function_row(w, ds, dw, &ds->functions[rows[i]]);
        fputs("\n</details>\n", w->out);
    } else if (shown < n) {
        fprintf(w->out, "  ... %zu more (--top 0 shows all)\n", n - shown);
    }
    write_only_on_one_side(w, ds, dw, rows, n, true);
    write_only_on_one_side(w, ds, dw, rows, n, false);
}

static void write_calls(struct writer *w, const struct diff_summary *ds)
{
    const struct diff_weight *dw = &ds->weights[0];
    const char *weight = profile_weight_name(ds->after, dw->after_w);
    bool any = false;
    char b[40], a[40], c[64];
    for (size_t i = 0; i < ds->nfunctions; i++) {
        const struct diff_function *f = &ds->functions[i];
        if (!is_call(ds, f) || !call_changed(ds, f))
            continue;
        if (!any) {
            fprintf(w->out, w->markdown ? "\n### zkVM calls that changed\n\n"
                                        : "\nzkVM calls that changed\n");
            if (w->markdown)
                fprintf(w->out,
                        "| call | calls before | calls after | change | %s before | %s after | "
                        "change |\n|:--|--:|--:|--:|--:|--:|--:|\n",
                        weight, weight);
            else
                put_text_header(w,
                                (const char *const[]){"calls before", "calls after", "change",
                                                      "cost before", "cost after", "change"},
                                6, "call");
            any = true;
        }
        struct diff_values v = values_of(ds, dw, f);
        uint64_t cb = calls_of(&ds->before_sums, f->before_id),
                 ca = calls_of(&ds->after_sums, f->after_id);
        put_row_start(w);
        put_name(w, f->name, f->len);
        put_cell(w, grouped(cb, b, sizeof(b)));
        put_cell(w, grouped(ca, a, sizeof(a)));
        put_cell(w, change_text(cb, ca, c, sizeof(c)));
        put_cell(w, grouped(v.incl_before, b, sizeof(b)));
        put_cell(w, grouped(v.incl_after, a, sizeof(a)));
        put_cell(w, change_text(v.incl_before, v.incl_after, c, sizeof(c)));
        put_row_end(w);
    }
}

static void write_readable(struct writer *w, const struct diff_summary *ds,
                           const struct diff_summary_options *o, uint32_t *rows)
{
    fputs(w->markdown ? "## zkprof: " : "zkprof diff: ", w->out);
    put_files(w->out, o->before_inputs, o->nbefore);
    fputs(" -> ", w->out);
    put_files(w->out, o->after_inputs, o->nafter);
    fputs(w->markdown ? "\n\n" : "\n\n", w->out);
    write_totals(w, ds);
    for (size_t i = 0; i < ds->nweights; i++)
        write_weight_functions(w, ds, &ds->weights[i], o->top, rows);
    write_calls(w, ds);
}

/* ---- JSON ---- */

static void json_files(struct json_out *j, const char *const *files, size_t n)
{
    json_raw(j, "[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            json_raw(j, ",");
        json_out_string(j, files[i], strlen(files[i]));
    }
    json_raw(j, "]");
}

static void json_pair(struct json_out *j, const char *key, uint64_t before, uint64_t after)
{
    json_raw(j, ",\"");
    json_raw(j, key);
    json_raw(j, "\":[");
    json_u64(j, before);
    json_raw(j, ",");
    json_u64(j, after);
    json_raw(j, "]");
}

static void json_functions(struct json_out *j, const struct diff_summary *ds,
                           const struct diff_weight *dw, size_t top, uint32_t *rows)
{
    size_t n = changed_functions(ds, dw, rows), shown = 0;
    json_raw(j, ",\"functions\":[");
    for (size_t i = 0; i < n && (!top || shown < top); i++) {
        const struct diff_function *f = &ds->functions[rows[i]];
        if (is_call(ds, f))
            continue;
        struct diff_values v = values_of(ds, dw, f);
        json_raw(j, shown++ ? ",\n{\"name\":" : "\n{\"name\":");
        json_out_string(j, f->name, f->len);
        json_pair(j, "inclusive", v.incl_before, v.incl_after);
        json_pair(j, "self", v.self_before, v.self_after);
        json_raw(j, f->before_id == DIFF_ABSENT  ? ",\"status\":\"new\"}"
                    : f->after_id == DIFF_ABSENT ? ",\"status\":\"vanished\"}"
                                                 : ",\"status\":\"changed\"}");
    }
    json_raw(j, "]");
}

static void json_calls(struct json_out *j, const struct diff_summary *ds)
{
    json_raw(j, "\"calls\":[");
    size_t shown = 0;
    for (size_t i = 0; i < ds->nfunctions; i++) {
        const struct diff_function *f = &ds->functions[i];
        if (!is_call(ds, f) || !call_changed(ds, f))
            continue;
        json_raw(j, shown++ ? ",\n{\"frame\":" : "\n{\"frame\":");
        json_out_string(j, f->name, f->len);
        json_pair(j, "calls", calls_of(&ds->before_sums, f->before_id),
                  calls_of(&ds->after_sums, f->after_id));
        json_raw(j, ",\"cost\":{");
        for (size_t w = 0; w < ds->nweights; w++) {
            struct diff_values v = values_of(ds, &ds->weights[w], f);
            const char *name = profile_weight_name(ds->after, ds->weights[w].after_w);
            if (w)
                json_raw(j, ",");
            json_out_string(j, name, strlen(name));
            json_raw(j, ":[");
            json_u64(j, v.incl_before);
            json_raw(j, ",");
            json_u64(j, v.incl_after);
            json_raw(j, "]");
        }
        json_raw(j, "}}");
    }
    json_raw(j, "]");
}

static void write_json(struct json_out *j, const struct diff_summary *ds,
                       const struct diff_summary_options *o, uint32_t *rows)
{
    json_raw(j, "{\"before\":");
    json_files(j, o->before_inputs, o->nbefore);
    json_raw(j, ",\"after\":");
    json_files(j, o->after_inputs, o->nafter);
    json_raw(j, ",\n\"weights\":[");
    for (size_t i = 0; i < ds->nweights; i++) {
        const struct diff_weight *dw = &ds->weights[i];
        const char *name = profile_weight_name(ds->after, dw->after_w);
        json_raw(j, i ? ",\n{\"name\":" : "\n{\"name\":");
        json_out_string(j, name, strlen(name));
        json_pair(j, "total", dw->before_total, dw->after_total);
        json_raw(j, ",\"change_percent\":");
        if (dw->before_total) {
            char pct[40];
            snprintf(pct, sizeof(pct), "%.4f",
                     ((double)dw->after_total - (double)dw->before_total) * 100.0 /
                         (double)dw->before_total);
            json_raw(j, pct);
        } else {
            json_raw(j, "null");
        }
        json_functions(j, ds, dw, o->top, rows);
        json_raw(j, "}");
    }
    json_raw(j, "],\n");
    json_calls(j, ds);
    json_raw(j, "}\n");
}

int diff_summary_write(FILE *out, const struct diff_summary *ds,
                       const struct diff_summary_options *o)
{
    uint32_t *rows = malloc((ds->nfunctions ? ds->nfunctions : 1) * sizeof(*rows));
    if (!rows) {
        errno = ENOMEM;
        return -1;
    }
    int rc;
    if (o->format == DIFF_SUMMARY_JSON) {
        struct json_out j = {.f = out};
        write_json(&j, ds, o, rows);
        rc = json_finish(&j);
    } else {
        struct writer w = {.out = out, .markdown = o->format == DIFF_SUMMARY_MARKDOWN};
        write_readable(&w, ds, o, rows);
        rc = ferror(out) || fflush(out) == EOF ? -1 : 0;
        if (rc && !errno)
            errno = EIO;
    }
    free(rows);
    return rc;
}

/* ---- limits ---- */

/*
 * The cost a limit watches, before and after, and what it is ("instructions",
 * "verify (inclusive instructions)"); false when `name` is neither a weight
 * nor a function.
 */
static bool watched(const struct diff_summary *ds, const char *name, uint64_t *before,
                    uint64_t *after, char *what, size_t size)
{
    const struct diff_weight *first = &ds->weights[0];
    const char *first_name = profile_weight_name(ds->after, first->after_w);
    for (size_t w = 0; w < ds->nweights; w++) {
        const char *wn = profile_weight_name(ds->after, ds->weights[w].after_w);
        if (name ? strcmp(wn, name) == 0 : w == 0) {
            *before = ds->weights[w].before_total, *after = ds->weights[w].after_total;
            snprintf(what, size, "%s", wn);
            return true;
        }
    }
    snprintf(what, size, "%s (inclusive %s)", name, first_name);
    size_t len = strlen(name);
    for (size_t i = 0; i < ds->nfunctions; i++) {
        const struct diff_function *f = &ds->functions[i];
        if (f->len == len && memcmp(f->name, name, len) == 0) {
            struct diff_values v = values_of(ds, first, f);
            *before = v.incl_before, *after = v.incl_after;
            return true;
        }
    }
    return false;
}

int diff_summary_check(const struct diff_summary *ds, const struct diff_limit *limits, size_t n,
                       void (*breach)(void *ctx, const char *line), void *ctx, struct error *e)
{
    int exceeded = 0;
    for (size_t i = 0; i < n; i++) {
        const struct diff_limit *l = &limits[i];
        uint64_t b, a;
        char what[300];
        if (!ds->nweights || !watched(ds, l->name, &b, &a, what, sizeof(what)))
            return error_fail(e, ERROR_UNSUPPORTED,
                              "--fail-above %s=%g: neither profile has a weight or a function "
                              "called %s",
                              l->name ? l->name : "", l->percent, l->name ? l->name : "");
        double grew = b ? ((double)a - (double)b) * 100.0 / (double)b : (a ? INFINITY : 0);
        if (grew <= l->percent)
            continue;
        char line[512], bt[40], at[40];
        snprintf(line, sizeof(line), "%s grew by %.2f%% (%s -> %s), more than %g%%", what, grew,
                 grouped(b, bt, sizeof(bt)), grouped(a, at, sizeof(at)), l->percent);
        breach(ctx, line);
        exceeded++;
    }
    return exceeded;
}
