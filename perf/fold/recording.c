/*
 * recording: a perf.data file as perf/perf.h offers it to `cli perf fold`
 * and `cli profile`: opened with its events named, folded with symbols
 * looked for where perf looks for them, and what the report says of the
 * file itself (its data size, its lost feature sections, its events).
 */
#include "perf/perf.h"

#include <stdlib.h>

#include "perf/data/perf_abi.h"
#include "perf/data/perf_features.h"
#include "perf/data/perf_file.h"
#include "perf/data/perf_record.h"
#include "perf/fold/fold.h"

struct perf_recording {
    struct perf_file file;
};

int perf_recording_open(struct perf_recording **out, const char *path, struct error *e)
{
    struct perf_recording *r = calloc(1, sizeof(*r));
    *out = NULL;
    if (!r)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    if (perf_file_open(&r->file, path, e) || perf_name_events(&r->file, e)) {
        perf_file_close(&r->file);
        free(r);
        return -1;
    }
    *out = r;
    return 0;
}

void perf_recording_close(struct perf_recording *r)
{
    if (!r)
        return;
    perf_file_close(&r->file);
    free(r);
}

/*
 * Where inflated DWARF is kept (docs/PERF.md, "Memory and speed"):
 * $ZKPROF_CACHE_DIR (empty: nowhere), $XDG_CACHE_HOME/zkprof, ~/.cache/zkprof.
 */
static const char *debug_cache_dir(char *buf, size_t size)
{
    const char *dir = getenv("ZKPROF_CACHE_DIR");
    if (dir)
        return dir[0] ? dir : NULL;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n = xdg && xdg[0] ? snprintf(buf, size, "%s/zkprof", xdg)
            : home        ? snprintf(buf, size, "%s/.cache/zkprof", home)
                          : -1;
    return n > 0 && (size_t)n < size ? buf : NULL;
}

/* Where perf looks for symbols: its build-id cache, then the system's debug files. */
static void default_paths(const struct perf_fold_opts *o, struct symbol_paths *p, char *home_debug,
                          size_t size, char *cache, size_t cache_size)
{
    p->debug_cache = debug_cache_dir(cache, cache_size);
    p->debug_cache_later = o->debug_cache_later;
    p->buildid_dir = o->buildid_dir;
    if (!p->buildid_dir)
        p->buildid_dir = getenv("PERF_BUILDID_DIR");
    const char *home = getenv("HOME");
    if (!p->buildid_dir && home) {
        snprintf(home_debug, size, "%s/.debug", home);
        p->buildid_dir = home_debug;
    }
    p->debug_dir = "/usr/lib/debug";
}

/* "a, b" of the file's events, for messages. */
static void list_events(const struct perf_file *f, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < f->nr_attrs && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                                 f->attrs[i].name ? f->attrs[i].name : "?");
}

int perf_recording_fold(struct perf_recording *r, const struct perf_fold_opts *o, struct trie *t,
                        struct strtab *names, struct perf_fold_report *report, struct error *e)
{
    char home_debug[4096], cache[4096];
    struct symbol_paths paths = {0};
    default_paths(o, &paths, home_debug, sizeof(home_debug), cache, sizeof(cache));
    if (perf_fold(&r->file, o, &paths, t, names, report, e))
        return -1;
    report->data_size_guessed = r->file.data_size_guessed;
    report->nr_features_lost = r->file.nr_features_lost;
    report->build_ids_lost = perf_file_feature_lost(&r->file, PERF_FEAT_BUILD_ID);
    list_events(&r->file, report->events, sizeof(report->events));
    return 0;
}

bool perf_recording_has_exec(const char *path)
{
    struct perf_file f;
    struct error e = ERROR_INIT;
    bool found = false;
    if (perf_file_open(&f, path, &e) == 0) {
        struct perf_record_iter it;
        struct perf_record r;
        perf_records_begin(&it, &f);
        while (!found && perf_records_next(&it, &r, &e) == 1)
            found = r.type == PERF_RECORD_COMM && (r.misc & PERF_RECORD_MISC_COMM_EXEC);
    }
    perf_file_close(&f);
    return found;
}
