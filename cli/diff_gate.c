/*
 * diff_gate: the summary and limits of `cli diff` (see diff_gate.h).
 */
#include "cli/diff_gate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/profile_inputs.h"

bool diff_gate_format(const char *name, enum diff_summary_format *format)
{
    static const struct {
        const char *name;
        enum diff_summary_format format;
    } formats[] = {
        {"md", DIFF_SUMMARY_MARKDOWN},
        {"markdown", DIFF_SUMMARY_MARKDOWN},
        {"json", DIFF_SUMMARY_JSON},
        {"text", DIFF_SUMMARY_TEXT},
    };
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (strcmp(formats[i].name, name) == 0) {
            *format = formats[i].format;
            return true;
        }
    return false;
}

bool diff_gate_limit(char *text, struct diff_limit *limit)
{
    char *eq = strrchr(text, '='), *pct = eq ? eq + 1 : text, *end;
    if (eq && eq == text)
        return false;
    double v = strtod(pct, &end);
    if (end == pct || (*end && strcmp(end, "%") != 0) || !(v >= 0) || v > 1e9)
        return false;
    if (eq)
        *eq = '\0';
    *limit = (struct diff_limit){.name = eq ? text : NULL, .percent = v};
    return true;
}

/* A side must hold something to compare. */
static int check_not_empty(const struct profile *p, const char *side, char *const *files)
{
    for (size_t w = 0; w < p->nweights; w++)
        if (profile_total(p, w))
            return 0;
    cli_error("%s (%s%s) holds no samples: nothing to compare", side, files[0],
              files[1] ? ", ..." : "");
    return EXIT_DATAERR;
}

struct summary_job {
    const struct diff_summary *ds;
    const struct diff_summary_options *o;
};

static int write_summary(FILE *out, void *ctx)
{
    const struct summary_job *job = ctx;
    return diff_summary_write(out, job->ds, job->o);
}

static void report_breach(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "limit exceeded: %s\n", line);
}

int diff_gate_run(struct diff_gate_args *a)
{
    struct profile before, after;
    int rc = profile_inputs_read(a->before, a->nbefore, &before);
    if (rc == 0)
        rc = profile_inputs_read(a->after, a->nafter, &after);
    else
        profile_init(&after);
    if (rc == 0)
        rc = check_not_empty(&before, "BEFORE", a->before);
    if (rc == 0)
        rc = check_not_empty(&after, "AFTER", a->after);
    struct diff_summary ds = {0};
    struct error e = ERROR_INIT;
    if (rc == 0 && diff_summary_build(&ds, &before, &after, &e) != 0)
        rc = cli_fail(&e, NULL);
    if (rc == 0) {
        struct diff_summary_options o = {
            .format = a->format,
            .top = a->top,
            .before_inputs = (const char *const *)a->before,
            .after_inputs = (const char *const *)a->after,
            .nbefore = a->nbefore,
            .nafter = a->nafter,
        };
        struct summary_job job = {&ds, &o};
        rc = cli_write_output(a->output, write_summary, &job);
        if (rc == 0) {
            int exceeded = diff_summary_check(&ds, a->limits, a->nlimits, report_breach, NULL, &e);
            rc = exceeded < 0 ? cli_fail(&e, NULL) : exceeded ? 1 : 0;
        }
    }
    diff_summary_free(&ds);
    profile_free(&before);
    profile_free(&after);
    return rc;
}
