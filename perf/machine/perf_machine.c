/*
 * perf_machine: applying MMAP, COMM and FORK records, and resolving an
 * address to a DSO and function as perf's thread__find_symbol does.
 */
#include "perf/machine/perf_machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "perf/symbols/kallsyms.h"

#define KERNEL_MMAP_NAME "[kernel.kallsyms]"

int perf_machine_init(struct perf_machine *m, const struct symbol_paths *paths, const char *arch)
{
    memset(m, 0, sizeof(*m));
    m->paths = *paths;
#if defined(__x86_64__)
    m->x86_64 = !arch || strcmp(arch, "x86_64") == 0;
#else
    m->x86_64 = arch && strcmp(arch, "x86_64") == 0;
#endif
    perf_threads_init(&m->threads);
    perf_dsos_init(&m->dsos);
    /* perf registers the idle task as "swapper" before reading any record */
    struct perf_thread *idle = perf_threads_findnew(&m->threads, 0, 0);
    return idle && perf_thread_set_comm(idle, "swapper") == 0 ? 0 : -1;
}

void perf_machine_free(struct perf_machine *m)
{
    perf_threads_free(&m->threads);
    perf_dsos_free(&m->dsos);
    kallsyms_text_free(&m->kernel.text);
    kallsyms_index_free(&m->kernel.index);
    free(m->kernel.reloc_name);
    memset(m, 0, sizeof(*m));
}

static bool is_vdso_name(const char *name)
{
    return strcmp(name, "[vdso]") == 0 || strcmp(name, "[vdso32]") == 0 ||
           strcmp(name, "[vdsox32]") == 0;
}

static bool is_kernel_name(const char *name)
{
    return strncmp(name, KERNEL_MMAP_NAME, strlen(KERNEL_MMAP_NAME)) == 0;
}

static struct perf_dso *kernel_dso(struct perf_machine *m)
{
    if (!m->kernel.dso)
        m->kernel.dso = perf_dsos_findnew(&m->dsos, KERNEL_MMAP_NAME, DSO_KERNEL);
    return m->kernel.dso;
}

int perf_machine_build_ids(struct perf_machine *m, const struct perf_build_ids *ids)
{
    for (size_t i = 0; i < ids->count; i++) {
        const struct perf_build_id *b = &ids->items[i];
        if (b->pid != -1) /* a guest machine's */
            continue;
        struct perf_dso *dso = NULL;
        if (b->cpumode == PERF_RECORD_MISC_KERNEL && is_kernel_name(b->filename))
            dso = kernel_dso(m);
        else if (b->cpumode == PERF_RECORD_MISC_USER)
            dso = perf_dsos_findnew(&m->dsos, b->filename,
                                    is_vdso_name(b->filename) ? DSO_VDSO : DSO_FILE);
        else
            continue; /* kernel modules are not modelled */
        if (!dso)
            return -1;
        dso->build_id.size = b->size;
        memcpy(dso->build_id.data, b->id, sizeof(dso->build_id.data));
    }
    return 0;
}

/* perf's machine__process_kernel_mmap_event, for the kernel itself. */
static int kernel_mmap(struct perf_machine *m, const struct perf_mmap_event *ev)
{
    if (!is_kernel_name(ev->filename))
        return 0; /* a module */
    struct perf_kernel *k = &m->kernel;
    if (!kernel_dso(m))
        return -1;
    k->generation++;
    k->start = ev->start;
    k->end = ev->start + ev->len;
    if (k->start == 0 && k->end == 0)
        k->end = UINT64_MAX;
    if (ev->pgoff != 0) {
        free(k->reloc_name);
        if (!(k->reloc_name = strdup(ev->filename + strlen(KERNEL_MMAP_NAME))))
            return -1;
        k->reloc_addr = ev->pgoff;
    }
    if (ev->has_build_id) {
        k->dso->build_id.size = ev->build_id_size;
        memcpy(k->dso->build_id.data, ev->build_id, sizeof(ev->build_id));
    }
    return 0;
}

/* perf's map__new: which DSO a user mapping names, and how its addresses map. */
static struct perf_dso *mapping_dso(struct perf_machine *m, const struct perf_thread *t,
                                    const struct perf_mmap_event *ev, struct perf_map *map)
{
    const char *name = ev->filename;
    bool anon = strcmp(name, "//anon") == 0 || strncmp(name, "/dev/zero", 9) == 0 ||
                strncmp(name, "/anon_hugepage", 14) == 0 || (ev->flags & MAP_HUGETLB);
    bool no_dso = strncmp(name, "[stack", 6) == 0 || strncmp(name, "/SYSV", 5) == 0 ||
                  strcmp(name, "[heap]") == 0;
    map->identity = anon || no_dso;
    if (map->identity && (ev->prot & PROT_EXEC)) {
        char perf_map[64]; /* JIT code: perf looks for the JIT's symbol file */
        snprintf(perf_map, sizeof(perf_map), "/tmp/perf-%d.map", t->pid);
        return perf_dsos_findnew(&m->dsos, perf_map, DSO_PERF_MAP);
    }
    if (map->identity)
        return perf_dsos_findnew(&m->dsos, name, DSO_NONE);
    if (is_vdso_name(name)) {
        map->pgoff = 0;
        return perf_dsos_findnew(&m->dsos, name, DSO_VDSO);
    }
    return perf_dsos_findnew(&m->dsos, name, DSO_FILE);
}

int perf_machine_mmap(struct perf_machine *m, uint8_t cpumode, const struct perf_mmap_event *ev)
{
    if (cpumode == PERF_RECORD_MISC_KERNEL)
        return kernel_mmap(m, ev);
    if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER)
        return 0; /* guests are not modelled */
    struct perf_thread *t = perf_threads_findnew(&m->threads, ev->pid, ev->tid);
    if (!t)
        return -1;
    struct perf_map map = {.start = ev->start, .end = ev->start + ev->len, .pgoff = ev->pgoff};
    if (map.end < map.start)
        map.end = UINT64_MAX; /* a length that wraps: to the top, as far as lookups go */
    if (!(map.dso = mapping_dso(m, t, ev, &map)))
        return -1;
    if (ev->has_build_id) {
        map.dso->build_id.size = ev->build_id_size;
        memcpy(map.dso->build_id.data, ev->build_id, sizeof(ev->build_id));
    }
    return perf_maps_insert(t->maps, &map);
}

int perf_machine_comm(struct perf_machine *m, const struct perf_comm_event *ev)
{
    struct perf_thread *t = perf_threads_findnew(&m->threads, ev->pid, ev->tid);
    return t ? perf_thread_set_comm(t, ev->comm) : -1;
}

int perf_machine_fork(struct perf_machine *m, const struct perf_task_event *ev, uint16_t misc)
{
    return perf_threads_fork(&m->threads, ev->pid, ev->tid, ev->ppid, ev->ptid,
                             !(misc & PERF_RECORD_MISC_FORK_EXEC));
}

/* The kernel's symbols, once: perf's dso__load_kernel_sym without a vmlinux. */
static int load_kernel(struct perf_machine *m)
{
    struct perf_kernel *k = &m->kernel;
    k->resolved = true;
    char *path = m->kallsyms ? strdup(m->kallsyms)
                             : kallsyms_path_for(&k->dso->build_id, m->paths.buildid_dir);
    int rc = 0;
    if (path) {
        struct kallsyms_reloc reloc = {k->reloc_name, k->reloc_addr};
        uint64_t start, end;
        /* the kernel's own text is in address order: searched, not read (--kallsyms: read) */
        k->indexed = !m->kallsyms;
        rc = k->indexed ? kallsyms_index_open(&k->index, path, &reloc, m->x86_64, &start, &end)
                        : kallsyms_load(path, &reloc, m->x86_64, &k->dso->syms, &k->dso->lookup,
                                        &start, &end, &k->text);
        if (rc == 1) {
            k->start = start; /* perf's map__fixup_start and map__fixup_end */
            k->end = end;
            k->generation++;
            k->has_symbols = true;
        }
        free(path);
    }
    k->dso->loaded = true;
    if (rc < 0)
        return -1;
    return perf_dso_prepare_frames(k->dso);
}

static int locate_kernel(struct perf_machine *m, uint64_t ip, struct perf_location *loc)
{
    struct perf_kernel *k = &m->kernel;
    if (!k->dso)
        return 0;
    if (!k->resolved && load_kernel(m))
        return -1;
    if (ip < k->start || ip >= k->end)
        return 0;
    loc->dso = k->dso;
    if (k->indexed) /* a function found the first time grows the table */
        return kallsyms_index_find(&k->index, &k->dso->syms, ip, &loc->func) ||
                       perf_dso_grow_frames(k->dso)
                   ? -1
                   : 0;
    loc->func = symbol_find(&k->dso->syms, &k->dso->lookup, ip);
    if (loc->func)
        kallsyms_name_end(loc->func);
    return 0;
}

/*
 * The snapshot's mapping of `ip` for a process whose records map nothing
 * there (docs/PERF.md, "Mappings the recording lacks"), made as an MMAP
 * record of it would be. Returns 1 (found), 0 (none) or -1 (memory).
 */
static int backfill_map(struct perf_machine *m, const struct perf_thread *t, uint64_t ip,
                        struct perf_map *map)
{
    const struct maps_entry *entry = maps_snapshot_find(m->backfill, t->pid, ip);
    if (!entry)
        return 0;
    struct perf_mmap_event ev = {.pid = t->pid,
                                 .tid = t->pid,
                                 .start = entry->start,
                                 .len = entry->end - entry->start,
                                 .pgoff = entry->pgoff,
                                 .prot = PROT_EXEC,
                                 .filename = entry->path};
    *map = (struct perf_map){.start = entry->start, .end = entry->end, .pgoff = entry->pgoff};
    return (map->dso = mapping_dso(m, t, &ev, map)) ? 1 : -1;
}

int perf_machine_locate(struct perf_machine *m, struct perf_thread *thread, uint8_t cpumode,
                        uint64_t ip, struct perf_location *loc)
{
    loc->dso = NULL;
    loc->func = NULL;
    loc->addr = ip;
    if (cpumode == PERF_RECORD_MISC_KERNEL) {
        if (locate_kernel(m, ip, loc))
            return -1;
    } else if (cpumode == PERF_RECORD_MISC_USER) {
        struct perf_map backfilled;
        const struct perf_map *map = perf_maps_find(thread->maps, ip);
        if (!map && m->backfill) {
            int found = backfill_map(m, thread, ip, &backfilled);
            if (found < 0)
                return -1;
            map = found ? &backfilled : NULL;
        }
        if (!map)
            return 0;
        loc->dso = map->dso;
        if (perf_dso_load(map->dso, &m->paths))
            return -1;
        loc->addr = perf_map_ip(map, ip);
        loc->func = symbol_find(&map->dso->syms, &map->dso->lookup, loc->addr);
    }
    if (loc->func)
        loc->func_index = (size_t)(loc->func - loc->dso->syms.funcs);
    return 0;
}
