/*
 * report: per frame name, self and inclusive sums of every weight in one
 * pass over the nodes (each node's values climb its stack once, a name
 * taken once per stack by a stamp), then sorted tables.
 */
#define _GNU_SOURCE /* qsort_r */
#include "flamegraph/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/json_write.h"

#define ECALL_PREFIX "[ecall:"

/* Sums by name id: self[w * names + id], incl[w * names + id]. */
struct report_sums {
    const struct profile *p;
    size_t nnames;
    uint64_t *self, *incl;
    uint32_t *used; /* name ids the nodes use */
    size_t nused;
};

static bool node_has_value(const struct profile *p, uint32_t node)
{
    for (size_t w = 0; w < p->nweights; w++)
        if (profile_value(p, w, node))
            return true;
    return false;
}

static int sums_build(struct report_sums *s, const struct profile *p)
{
    size_t nn = p->names->count ? p->names->count : 1, nw = p->nweights ? p->nweights : 1;
    s->p = p;
    s->nnames = nn;
    s->self = calloc(nn * nw, sizeof(*s->self));
    s->incl = calloc(nn * nw, sizeof(*s->incl));
    s->used = malloc(nn * sizeof(*s->used));
    uint32_t *stamp = calloc(nn, sizeof(*stamp)); /* the node that last counted a name */
    bool *seen = calloc(nn, sizeof(*seen));
    int rc = s->self && s->incl && s->used && stamp && seen ? 0 : -1;
    const struct trie *t = p->trie;
    for (uint32_t i = 1; rc == 0 && i < t->count; i++) {
        uint32_t key = (uint32_t)t->nodes[i].key;
        if (!seen[key]) {
            seen[key] = true;
            s->used[s->nused++] = key;
        }
        if (!node_has_value(p, i))
            continue;
        for (size_t w = 0; w < p->nweights; w++)
            s->self[w * nn + key] += profile_value(p, w, i);
        for (uint32_t n = i; n != TRIE_ROOT; n = t->nodes[n].parent) {
            uint32_t k = (uint32_t)t->nodes[n].key;
            if (stamp[k] == i)
                continue;
            stamp[k] = i;
            for (size_t w = 0; w < p->nweights; w++)
                s->incl[w * nn + k] += profile_value(p, w, i);
        }
    }
    free(stamp);
    free(seen);
    return rc;
}

static void sums_free(struct report_sums *s)
{
    free(s->self);
    free(s->incl);
    free(s->used);
}

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
static size_t ranked(const struct report_sums *s, const uint64_t *col, uint32_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nused; i++)
        if (col[s->used[i]])
            rows[n++] = s->used[i];
    sort_rows(rows, n, col, s->p->names);
    return n;
}

static bool is_ecall(const struct strtab *names, uint32_t id)
{
    size_t len = names->lengths[id], k = strlen(ECALL_PREFIX);
    const char *s = strtab_get(names, id);
    return len > k + 1 && memcmp(s, ECALL_PREFIX, k) == 0 && s[len - 1] == ']';
}

/* The weight that counts calls: "instructions" (an ecall retires one), else the first. */
static size_t calls_weight(const struct profile *p)
{
    int w = profile_find_weight(p, "instructions");
    return w >= 0 ? (size_t)w : 0;
}

/* The zkVM calls, sorted by name. */
static size_t ecall_rows(const struct report_sums *s, uint32_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nused; i++)
        if (is_ecall(s->p->names, s->used[i]))
            rows[n++] = s->used[i];
    sort_rows(rows, n, NULL, s->p->names);
    return n;
}

static void text_table(FILE *out, const struct report_sums *s, size_t w, bool self, size_t top,
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

static void write_text(FILE *out, const struct report_sums *s, const struct report_options *o,
                       uint32_t *rows)
{
    const struct profile *p = s->p;
    fputs("profile:", out);
    for (size_t i = 0; i < o->ninputs; i++)
        fprintf(out, " %s", o->inputs[i]);
    fputs("\n", out);
    for (size_t w = 0; w < p->nweights; w++)
        fprintf(out, "%s: %" PRIu64 " (%s)\n", profile_weight_name(p, w), profile_total(p, w),
                p->weights[w].unit);
    for (size_t w = 0; w < p->nweights; w++) {
        text_table(out, s, w, true, o->top, rows);
        text_table(out, s, w, false, o->top, rows);
    }
    size_t n = ecall_rows(s, rows), cw = calls_weight(p);
    fprintf(out, "\nzkVM calls ([ecall:NAME] frames): %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  %s calls %" PRIu64, strtab_get(p->names, rows[i]),
                s->incl[cw * s->nnames + rows[i]]);
        for (size_t w = 0; w < p->nweights; w++)
            fprintf(out, ", %s %" PRIu64, profile_weight_name(p, w),
                    s->incl[w * s->nnames + rows[i]]);
        fputs("\n", out);
    }
    fputs("\nnot reported yet: the opcode-class mix and the pages touched (issue [10], item 1)\n",
          out);
}

static void json_name(struct json_out *j, const struct strtab *names, uint32_t id)
{
    json_string(j, strtab_get(names, id), names->lengths[id]);
}

static void json_text(struct json_out *j, const char *s)
{
    json_string(j, s, strlen(s));
}

static void json_table(struct json_out *j, const struct report_sums *s, size_t w, bool self,
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

static void json_ecalls(struct json_out *j, const struct report_sums *s, uint32_t *rows)
{
    const struct profile *p = s->p;
    size_t n = ecall_rows(s, rows), cw = calls_weight(p), k = strlen(ECALL_PREFIX);
    json_raw(j, "\"ecalls\":[");
    for (size_t i = 0; i < n; i++) {
        const char *frame = strtab_get(p->names, rows[i]);
        json_raw(j, i ? ",\n{\"name\":" : "\n{\"name\":");
        json_string(j, frame + k, p->names->lengths[rows[i]] - k - 1);
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

static void write_json(struct json_out *j, const struct report_sums *s,
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
    for (size_t w = 0; w < p->nweights; w++) {
        json_raw(j, w ? ",\n" : "\n");
        json_text(j, profile_weight_name(p, w));
        json_raw(j, ":{");
        json_table(j, s, w, true, o->top, rows);
        json_raw(j, ",\n");
        json_table(j, s, w, false, o->top, rows);
        json_raw(j, "}");
    }
    json_raw(j, "},\n");
    json_ecalls(j, s, rows);
    json_raw(j, ",\n\"not_reported\":[\"opcode classes\",\"pages touched\"]}\n");
}

int report_write(FILE *out, const struct profile *p, const struct report_options *o)
{
    struct report_sums s;
    memset(&s, 0, sizeof(s));
    uint32_t *rows = malloc((p->names->count ? p->names->count : 1) * sizeof(*rows));
    int rc = rows ? sums_build(&s, p) : -1;
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
    sums_free(&s);
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
