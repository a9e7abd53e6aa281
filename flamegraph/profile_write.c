/*
 * profile_write: an output's format, weight, unit and title settled in one
 * place, then render_write_profile under output_file_write.
 */
#include "flamegraph/profile_write.h"

#include <stdio.h>

#include "flamegraph/output_file.h"

/* What the output writer needs, settled. */
struct profile_job {
    struct profile *p;
    size_t weight;
    enum render_format format;
    struct svg_options svg;
    const char *name;
};

static int write_job(FILE *out, void *ctx)
{
    const struct profile_job *job = ctx;
    return render_write_profile(out, job->p, job->weight, job->format, &job->svg, job->name);
}

int profile_write(const char *path, struct profile *p, const struct profile_write_options *o,
                  struct error *e)
{
    int w = profile_weight_by_option(p, o->weight, e);
    if (w < 0)
        return -1;
    struct profile_job job = {
        .p = p, .weight = (size_t)w, .svg = o->svg, .name = o->svg.title ? o->svg.title : o->name};
    render_format_choose(o->format, path, o->fallback, &job.format);
    if (!o->unit_given && p->nweights > 0)
        job.svg.unit = profile_weight_name(p, job.weight);
    char title[512];
    if (!o->svg.title && o->title_total) {
        snprintf(title, sizeof(title), "%s: %llu %s", o->name,
                 (unsigned long long)profile_total(p, job.weight), job.svg.unit);
        job.svg.title = title;
    }
    return output_file_write(path, write_job, &job, e);
}
