/*
 * kallsyms: "ADDRESS TYPE NAME[\t[MODULE]]" lines into perf's kernel
 * symbol set.
 */
#include "perf/symbols/kallsyms.h"

#include <ctype.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/symbols/kallsyms_line.h"
#include "perf/symbols/symbol_rules.h"

#define MAX_NOTES    65536
#define MAX_KALLSYMS (1u << 30)

/*
 * One kernel symbol as read. Its name stays in the text, ended by the
 * line's '\n' until kallsyms_name_end puts a NUL there: reading 100,000-odd
 * symbols copies no name and writes to no page of the text. The array is
 * turned into the table's functions in place (the same size).
 */
struct ksym {
    uint64_t start, end;
    uint32_t name; /* offset into the text */
    uint8_t binding;
    uint8_t flags;
};
_Static_assert(sizeof(struct ksym) == sizeof(struct symtab_func), "ksyms become symtab_funcs");

enum {
    KSYM_MODULE = 1, /* the name holds '[' ("name\t[module]") */
    KSYM_DROP = 2,   /* not the kernel's own: a module symbol or the x86-64 entry trampoline */
    KSYM_DEAD = 4,   /* lost to another symbol at its address */
};

struct ksyms {
    const char *text;
    struct ksym *items;
    size_t count, capacity;
    bool any_nonzero;
    bool reloc_found;
    uint64_t reloc_addr;
};

static int ksyms_push(struct ksyms *k, const struct ksym *s)
{
    if (k->count == k->capacity) {
        size_t cap = k->capacity ? k->capacity * 2 : 16384;
        struct ksym *items = realloc(k->items, cap * sizeof(*items));
        if (!items)
            return -1;
        k->items = items;
        k->capacity = cap;
    }
    k->items[k->count++] = *s;
    return 0;
}

static bool is_reloc(const struct kallsyms_line *l, const struct kallsyms_reloc *reloc)
{
    return reloc && reloc->name && (is_function_type(l->type) || l->type == 'A') &&
           strlen(reloc->name) == l->name_len && memcmp(reloc->name, l->name, l->name_len) == 0;
}

/* One line: the relocation symbol noted, a counted symbol kept. Returns 0 or -1 (memory). */
static int read_symbol(struct ksyms *k, const struct kallsyms_line *l,
                       const struct kallsyms_reloc *reloc, bool x86_64)
{
    if (!k->reloc_found && is_reloc(l, reloc)) {
        k->reloc_found = true; /* the first, as perf's kallsyms__delta */
        k->reloc_addr = l->addr;
    }
    if (!type_counts(l->type) || (l->name_len > 0 && l->name[0] == '$'))
        return 0;
    k->any_nonzero |= l->addr != 0;
    bool module = memchr(l->name, '[', l->name_len) != NULL;
    bool drop = memchr(l->name, '\t', l->name_len) != NULL || (x86_64 && is_trampoline(l));
    struct ksym s = {
        .start = l->addr,
        .end = l->addr,
        .name = (uint32_t)(l->name - k->text),
        .binding = binding_of(l->type),
        .flags = (uint8_t)((module ? KSYM_MODULE : 0) | (drop ? KSYM_DROP : 0)),
    };
    return ksyms_push(k, &s);
}

static int read_lines(struct ksyms *k, size_t len, const struct kallsyms_reloc *reloc, bool x86_64)
{
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(k->text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - k->text) : len;
        struct kallsyms_line l;
        if (parse_line(k->text + pos, end - pos, &l) && read_symbol(k, &l, reloc, x86_64))
            return -1;
        pos = end + 1;
    }
    return 0;
}

struct sort_key {
    uint64_t start;
    size_t index;
};

static int by_start_then_index(const void *pa, const void *pb)
{
    const struct sort_key *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Address order, ties in file order (/proc/kallsyms is sorted: usually nothing to do). */
static int sort_symbols(struct ksyms *k)
{
    size_t i = 1;
    while (i < k->count && k->items[i - 1].start <= k->items[i].start)
        i++;
    if (i >= k->count)
        return 0;
    struct sort_key *keys = malloc(k->count * sizeof(*keys));
    struct ksym *sorted = malloc(k->count * sizeof(*sorted));
    if (keys && sorted) {
        for (i = 0; i < k->count; i++)
            keys[i] = (struct sort_key){k->items[i].start, i};
        qsort(keys, k->count, sizeof(*keys), by_start_then_index);
        for (i = 0; i < k->count; i++)
            sorted[i] = k->items[keys[i].index];
        free(k->items);
        k->items = sorted;
        k->capacity = k->count;
        sorted = NULL;
    }
    int rc = keys ? 0 : -1;
    free(keys);
    free(sorted);
    return rc;
}

/* perf's symbols__fixup_end for kallsyms: the last kernel or module symbol ends a page on. */
static void fixup_end(struct ksyms *k)
{
    for (size_t i = 1; i < k->count; i++) {
        struct ksym *prev = &k->items[i - 1], *curr = &k->items[i];
        if (prev->end != prev->start)
            continue;
        prev->end = (prev->flags ^ curr->flags) & KSYM_MODULE ? symbol_page_up(prev->end + 4096)
                                                              : curr->start;
    }
    if (k->count > 0) {
        struct ksym *last = &k->items[k->count - 1];
        if (last->end == last->start)
            last->end = symbol_page_up(last->start) + 4096;
    }
}

static struct symbol_choice choice_of(const struct ksyms *k, const struct ksym *s)
{
    const char *name = k->text + s->name;
    return (struct symbol_choice){s->end != s->start, s->binding, name, name_length(name)};
}

/* perf's choose_best_symbol: true when `a` is kept. */
static bool keep_first(const struct ksyms *k, const struct ksym *a, const struct ksym *b)
{
    struct symbol_choice ca = choice_of(k, a), cb = choice_of(k, b);
    return symbol_keep_first(&ca, &cb);
}

/* perf's symbols__fixup_duplicate: one symbol per address. */
static void fixup_duplicate(struct ksyms *k)
{
    struct ksym *curr = k->count ? &k->items[0] : NULL;
    for (size_t i = 1; i < k->count; i++) {
        struct ksym *next = &k->items[i];
        if (curr->start != next->start) {
            curr = next;
        } else if (keep_first(k, curr, next)) {
            next->flags |= KSYM_DEAD;
        } else {
            curr->flags |= KSYM_DEAD;
            curr = next;
        }
    }
}

/*
 * maps__split_kallsyms for a kernel without module maps: the kernel's own
 * symbols, moved by delta, become the table, in place. Returns 1, 0 when
 * none stays, -1 when memory runs out.
 */
static int keep_kernel_symbols(struct ksyms *k, uint64_t delta, struct symtab *out, uint64_t *start,
                               uint64_t *end)
{
    struct symtab_func *funcs = (struct symtab_func *)k->items;
    size_t n = 0;
    for (size_t i = 0; i < k->count; i++) {
        struct ksym s = k->items[i];
        if (!(s.flags & (KSYM_DEAD | KSYM_DROP)))
            funcs[n++] = (struct symtab_func){s.start - delta, s.end - delta, k->text + s.name};
    }
    if (n == 0)
        return 0;
    k->items = NULL;
    out->funcs = funcs;
    out->count = n;
    *start = funcs[0].start;
    *end = funcs[n - 1].end;
    return symtab_index(out) == 0 ? 1 : -1;
}

/*
 * kallsyms_parse's work over text whose names end at their line's end:
 * the table's names point into `text`, which the caller keeps.
 */
static int parse_in_place(const char *text, size_t len, const struct kallsyms_reloc *reloc,
                          bool x86_64, struct symtab *out, struct symbol_lookup *lookup,
                          uint64_t *start, uint64_t *end)
{
    memset(out, 0, sizeof(*out));
    memset(lookup, 0, sizeof(*lookup));
    lookup->root = TREE_NIL;
    struct ksyms k = {.text = text};
    int rc = read_lines(&k, len, reloc, x86_64);
    if (rc == 0 && reloc && reloc->name && !k.reloc_found)
        rc = 0; /* perf's kallsyms__delta fails: no kernel symbols */
    else if (rc == 0 && k.any_nonzero && (rc = sort_symbols(&k)) == 0) {
        fixup_end(&k);
        fixup_duplicate(&k);
        uint64_t delta = reloc && reloc->name ? k.reloc_addr - reloc->addr : 0;
        rc = keep_kernel_symbols(&k, delta, out, start, end);
    }
    free(k.items);
    if (rc < 0) {
        symtab_free(out);
        memset(out, 0, sizeof(*out));
    }
    return rc;
}

void kallsyms_name_end(const struct symtab_func *f)
{
    char *name = (char *)f->name; /* in a text kallsyms owns, writable */
    name[name_length(name)] = '\0';
}

int kallsyms_parse(const char *text, size_t len, const struct kallsyms_reloc *reloc, bool x86_64,
                   struct symtab *out, struct symbol_lookup *lookup, uint64_t *start, uint64_t *end)
{
    char *copy = malloc(len + 1); /* the table's names: ended now, freed with it */
    if (!copy) {
        memset(out, 0, sizeof(*out));
        memset(lookup, 0, sizeof(*lookup));
        return -1;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    int rc = parse_in_place(copy, len, reloc, x86_64, out, lookup, start, end);
    for (size_t i = 0; rc == 1 && i < out->count; i++)
        kallsyms_name_end(&out->funcs[i]);
    if (rc == 1)
        out->names = copy;
    else
        free(copy);
    return rc;
}

/* Reads up to `cap` - 1 bytes of fd into buf (grown by doubling up to limit when `grow`). */
static char *read_fd(int fd, char *buf, size_t cap, size_t limit, bool grow, size_t *len)
{
    size_t n = 0;
    while (buf) {
        if (n + 1 == cap) {
            char *bigger = grow && cap < limit ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                if (!grow)
                    break; /* all of a regular file's size is read */
                free(buf);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r <= 0) {
            if (r < 0) {
                free(buf);
                return NULL;
            }
            break;
        }
        n += (size_t)r;
    }
    *len = n;
    return buf;
}

/*
 * Reads a file whole, with one spare byte after it: a regular file in
 * reads of its size, sysfs and procfs files (which report no size) into a
 * growing buffer.
 */
static char *read_whole(const char *path, size_t limit, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    bool sized = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
                 (uint64_t)st.st_size < limit;
    size_t cap = sized ? (size_t)st.st_size + 1 : (size_t)1 << 16;
    char *buf = read_fd(fd, malloc(cap), cap, limit, !sized, len);
    close(fd);
    return buf;
}

void kallsyms_text_free(struct kallsyms_text *t)
{
    if (t->mapped)
        munmap(t->data, t->size);
    else
        free(t->data);
    memset(t, 0, sizeof(*t));
}

/*
 * The text of a kallsyms file: a private mapping of a saved copy (its
 * pages come from the page cache; a name ended with a NUL costs a copy of
 * its page only), else read whole (/proc/kallsyms cannot be mapped).
 */
int kallsyms_text_open(const char *path, struct kallsyms_text *t)
{
    memset(t, 0, sizeof(*t));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < MAX_KALLSYMS) {
        /* populated read-only: the page cache's pages; made writable after (no copies yet) */
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (m != MAP_FAILED && mprotect(m, (size_t)st.st_size, PROT_READ | PROT_WRITE) != 0) {
            munmap(m, (size_t)st.st_size);
            m = MAP_FAILED;
        }
        /* the last name needs its '\n' (or the page's zero fill) to end at */
        if (m != MAP_FAILED && (((char *)m)[st.st_size - 1] == '\n' || st.st_size % 4096)) {
            *t = (struct kallsyms_text){m, (size_t)st.st_size, true};
            close(fd);
            return 0;
        }
        if (m != MAP_FAILED)
            munmap(m, (size_t)st.st_size);
    }
    if (fd >= 0)
        close(fd);
    t->data = read_whole(path, MAX_KALLSYMS, &t->size);
    if (t->data)
        t->data[t->size] = '\0';
    return t->data ? 0 : -1;
}

int kallsyms_load(const char *path, const struct kallsyms_reloc *reloc, bool x86_64,
                  struct symtab *out, struct symbol_lookup *lookup, uint64_t *start, uint64_t *end,
                  struct kallsyms_text *text)
{
    if (kallsyms_text_open(path, text)) {
        memset(out, 0, sizeof(*out));
        memset(lookup, 0, sizeof(*lookup));
        return 0;
    }
    int rc = parse_in_place(text->data, text->size, reloc, x86_64, out, lookup, start, end);
    if (rc != 1)
        kallsyms_text_free(text);
    return rc;
}

/* The running kernel's build id, from /sys/kernel/notes. */
static bool kernel_running_build_id(struct build_id *out)
{
    size_t len;
    char *notes = read_whole("/sys/kernel/notes", MAX_NOTES, &len);
    bool found = notes && notes_build_id((const uint8_t *)notes, len, out);
    free(notes);
    return found;
}

/* The copy of /proc/kallsyms perf record left in the build-id cache, or NULL. */
static char *cached_kallsyms(const struct build_id *id, const char *buildid_dir)
{
    if (id->size == 0 || !buildid_dir)
        return NULL;
    char hex[2 * PERF_BUILD_ID_MAX + 1], path[4096];
    build_id_hex(id, hex);
    int n = snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", buildid_dir, hex);
    if (n < 0 || (size_t)n >= sizeof(path) || access(path, R_OK) != 0)
        return NULL;
    return strdup(path);
}

char *kallsyms_path_for(const struct build_id *id, const char *buildid_dir)
{
    /*
     * perf prefers /proc/kallsyms when the running kernel is the recorded
     * one; the cached copy was taken from it during the recording and
     * lists the same kernel symbols, and reading a file is many times
     * faster than having the kernel format /proc/kallsyms.
     */
    char *cached = cached_kallsyms(id, buildid_dir);
    if (cached)
        return cached;
    struct build_id running;
    if (id->size == 0 || (kernel_running_build_id(&running) && build_id_equal(&running, id)))
        return access("/proc/kallsyms", R_OK) == 0 ? strdup("/proc/kallsyms") : NULL;
    return NULL;
}
