/*
 * dso_symbols: where perf finds a DSO's symbols (tools/perf/util/symbol.c:
 * dso__load, binary_type_symtab[]; dso.c: dso__read_binary_type_filename),
 * in perf's order:
 *
 *   1. the .gnu_debuglink file beside the binary, in its .debug/, or
 *      under /usr/lib/debug/<dir>/;
 *   2. perf's build-id cache: <buildid_dir>/.build-id/xx/rest/elf (or
 *      /vdso), then .../debug;
 *   3. /usr/lib/debug/<path>.debug, /usr/lib/debug/<path>;
 *   4. /usr/lib/debug/.build-id/xx/rest.debug;
 *   5. the path itself.
 *
 * [vdso] has no path: its image is found in the cache, else (as perf
 * does) this process's own vdso stands in for it (perf/machine/vdso_image.h),
 * when its build id fits.
 *
 * A candidate counts only when its build id equals the recorded one (when
 * one was recorded). The first candidate with a .symtab supplies the
 * symbols; the first with a .dynsym is the runtime image whose segments
 * turn addresses into file offsets. So a binary that was rebuilt or
 * deleted since the recording is still named right when perf record left
 * a copy in the build-id cache, and a stripped library is named from its
 * debug package.
 */
#include "perf/machine/perf_dso.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/symbols/elf_file.h"
#include "perf/symbols/elf_symbols.h"
#include "perf/symbols/symbol_rules.h"
#include "perf/machine/vdso_image.h"

#define MAX_CANDIDATES 12

struct candidates {
    char *paths[MAX_CANDIDATES];
    size_t count;
};

static void candidates_free(struct candidates *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->paths[i]);
    c->count = 0;
}

static int add_path(struct candidates *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int add_path(struct candidates *c, const char *fmt, ...)
{
    if (c->count == MAX_CANDIDATES)
        return 0;
    char path[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(path, sizeof(path), fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(path))
        return 0; /* a path longer than any file system takes: not a candidate */
    if (!(c->paths[c->count] = strdup(path)))
        return -1;
    c->count++;
    return 0;
}

/* The directory part of `path` (without the slash), in `dir`. */
static void dir_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (n >= size)
        n = size - 1;
    memcpy(dir, path, n);
    dir[n] = '\0';
}

static int add_debuglink(struct candidates *c, const char *path, const struct symbol_paths *p)
{
    struct elf_file ef;
    if (elf_file_open(&ef, path) != 0)
        return 0;
    char *link = elf_file_debuglink(&ef);
    elf_file_close(&ef);
    if (!link)
        return 0;
    char dir[4096];
    dir_of(path, dir, sizeof(dir));
    int rc = add_path(c, "%s", link) || add_path(c, "%s/%s", dir, link) ||
             add_path(c, "%s/.debug/%s", dir, link) ||
             add_path(c, "%s%s/%s", p->debug_dir, dir, link);
    free(link);
    return rc ? -1 : 0;
}

static int list_candidates(const struct perf_dso *dso, const struct symbol_paths *p,
                           struct candidates *c)
{
    bool file = dso->kind == DSO_FILE && dso->name[0] == '/';
    char hex[2 * PERF_BUILD_ID_MAX + 1] = "";
    if (dso->build_id.size)
        build_id_hex(&dso->build_id, hex);
    if (file && add_debuglink(c, dso->name, p))
        return -1;
    if (hex[0] && p->buildid_dir) {
        const char *base = dso->kind == DSO_VDSO ? "vdso" : "elf";
        if (add_path(c, "%s/.build-id/%.2s/%s/%s", p->buildid_dir, hex, hex + 2, base) ||
            add_path(c, "%s/.build-id/%.2s/%s/debug", p->buildid_dir, hex, hex + 2))
            return -1;
    }
    if (file && (add_path(c, "%s%s.debug", p->debug_dir, dso->name) ||
                 add_path(c, "%s%s", p->debug_dir, dso->name)))
        return -1;
    if (hex[0] && add_path(c, "%s/.build-id/%.2s/%s.debug", p->debug_dir, hex, hex + 2))
        return -1;
    if (file && add_path(c, "%s", dso->name))
        return -1;
    return 0;
}

struct sources {
    struct elf_file files[MAX_CANDIDATES + 1];
    size_t count;
    struct elf_file *syms, *runtime;
    uint8_t *vdso;                        /* our own vdso's copy, when it is a source */
    const char *syms_path, *runtime_path; /* the candidates' paths */
};

/* Considers one opened candidate; returns true when both roles are filled. */
static bool consider(struct sources *s, const struct perf_dso *dso, const char *path)
{
    struct elf_file *ef = &s->files[s->count];
    if (dso->build_id.size && !build_id_equal(&ef->build_id, &dso->build_id)) {
        elf_file_close(ef);
        return false;
    }
    bool kept = false;
    if (!s->syms && ef->symtab)
        s->syms = ef, s->syms_path = path, kept = true;
    if (!s->runtime && ef->dynsym)
        s->runtime = ef, s->runtime_path = path, kept = true;
    if (kept)
        s->count++;
    else
        elf_file_close(ef);
    return s->syms && s->runtime;
}

/* perf's last resort for [vdso]: its own image (the file perf-vdso.so-XXXXXX). */
static void consider_own_vdso(struct sources *s, const struct perf_dso *dso)
{
    size_t size;
    if (dso->kind != DSO_VDSO || s->syms || s->runtime || !(s->vdso = vdso_image_copy(&size)))
        return;
    if (elf_file_from_memory(&s->files[s->count], s->vdso, size) == 0)
        consider(s, dso, NULL); /* (no path: the unwinder has no file for it) */
}

static void find_sources(struct sources *s, const struct perf_dso *dso, const struct candidates *c)
{
    for (size_t i = 0; i < c->count; i++)
        if (elf_file_open(&s->files[s->count], c->paths[i]) == 0 && consider(s, dso, c->paths[i]))
            return;
    consider_own_vdso(s, dso);
}

/*
 * Keeps the symbols' file (a mapping of a file on disk) with the DSO, so
 * that names are read where they are, when a frame needs them. Returns
 * whether it was kept (it is then no longer the caller's to close).
 */
static bool keep_names_file(struct perf_dso *dso, struct elf_file *syms)
{
    if (!syms->map || dso->names_file || !(dso->names_file = malloc(sizeof(*syms))))
        return false;
    *dso->names_file = *syms;
    return true;
}

static int read_elf_symbols(struct perf_dso *dso, struct sources *s)
{
    struct elf_file *syms = s->syms ? s->syms : s->runtime;
    struct elf_file *runtime = s->runtime ? s->runtime : s->syms;
    struct symbol_builder b;
    symbol_builder_init(&b);
    b.borrow = syms && keep_names_file(dso, syms);
    b.lazy_names = true; /* aliases told apart by name are named when a frame needs one */
    if (syms) {
        long n = elf_symbols_read(&b, syms, runtime);
        if (n > 0)
            n = elf_plt_symbols(&b, runtime);
        if (n < 0) {
            symbol_builder_free(&b);
            return -1;
        }
    }
    dso->demangle = true;
    return symbol_builder_finish(&b, &dso->syms, &dso->lookup);
}

/* Keeps the paths of the files chosen (the unwinder maps the runtime image, see perf_dso.h). */
static int keep_paths(struct perf_dso *dso, const struct sources *s)
{
    const char *runtime = s->runtime_path ? s->runtime_path : s->syms_path;
    const char *syms = s->syms_path ? s->syms_path : s->runtime_path;
    if (runtime && !(dso->runtime_path = strdup(runtime)))
        return -1;
    if (syms && !(dso->symsrc_path = strdup(syms)))
        return -1;
    return 0;
}

/* A DSO known by path but not by build id takes the file's (as perf does). */
static void take_file_build_id(struct perf_dso *dso)
{
    struct elf_file ef;
    if (dso->build_id.size || dso->kind != DSO_FILE || elf_file_open(&ef, dso->name) != 0)
        return;
    dso->build_id = ef.build_id;
    elf_file_close(&ef);
}

static int load_elf(struct perf_dso *dso, const struct symbol_paths *p)
{
    take_file_build_id(dso);
    struct candidates c = {.count = 0};
    struct sources s = {.count = 0};
    int rc = list_candidates(dso, p, &c);
    if (rc == 0) {
        find_sources(&s, dso, &c);
        rc = keep_paths(dso, &s);
        if (rc == 0 && p->files_chosen)
            p->files_chosen(p->files_chosen_arg, dso);
        if (rc == 0)
            rc = read_elf_symbols(dso, &s);
    }
    for (size_t i = 0; i < s.count; i++)
        if (!dso->names_file || s.files[i].map != dso->names_file->map)
            elf_file_close(&s.files[i]); /* (the kept one is the DSO's) */
    free(s.vdso);
    candidates_free(&c);
    return rc;
}

/* perf's dso__load_perf_map: "START SIZE NAME" lines in hex, as a JIT writes them. */
static int load_perf_map(struct perf_dso *dso)
{
    struct symbol_builder b;
    symbol_builder_init(&b);
    FILE *f = fopen(dso->name, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;
    while (f && rc == 0 && (n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        char *end;
        unsigned long long start = strtoull(line, &end, 16);
        if (end == line || *end != ' ')
            continue;
        char *size_text = end + 1;
        unsigned long long size = strtoull(size_text, &end, 16);
        if (end == size_text || *end != ' ' || end[1] == '\0')
            continue;
        rc = symbol_builder_add(&b, start, size, STB_GLOBAL, end + 1, strlen(end + 1));
    }
    free(line);
    if (f)
        fclose(f);
    if (rc != 0) {
        symbol_builder_free(&b);
        return -1;
    }
    return symbol_builder_finish(&b, &dso->syms, &dso->lookup);
}

int perf_dso_load(struct perf_dso *dso, const struct symbol_paths *paths)
{
    if (dso->loaded)
        return 0;
    dso->loaded = true;
    int rc = 0;
    /* perf reads any DSO named /tmp/perf-* as a JIT symbol map, even a real file */
    bool perf_map = dso->kind == DSO_PERF_MAP || strncmp(dso->name, "/tmp/perf-", 10) == 0;
    if (paths->offline)
        rc = 0; /* an empty table: every address is [module] */
    else if (perf_map)
        rc = load_perf_map(dso);
    else if (dso->kind == DSO_FILE || dso->kind == DSO_VDSO)
        rc = load_elf(dso, paths);
    if (rc != 0)
        return -1;
    return perf_dso_prepare_frames(dso);
}
