/*
 * kallsyms: "ADDRESS TYPE NAME[\t[MODULE]]" lines into perf's kernel
 * symbol set.
 */
#include "perf/kallsyms.h"

#include <ctype.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf/symbol_rules.h"

#define MAX_NOTES    65536
#define MAX_KALLSYMS (1u << 30)

struct kallsyms_line {
    uint64_t addr;
    char type;
    const char *name; /* up to the end of the line, a module suffix included */
    size_t name_len;
};

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* perf's kallsyms__parse, one line: hex address, a space, the type, a space, the name. */
static bool parse_line(const char *line, size_t len, struct kallsyms_line *out)
{
    size_t i = 0;
    uint64_t addr = 0;
    for (int digit; i < len && (digit = hex_digit(line[i])) >= 0; i++)
        addr = addr * 16 + (uint64_t)digit;
    if (i == 0 || i + 3 >= len)
        return false;
    out->addr = addr;
    out->type = line[i + 1];
    out->name = line + i + 3;
    out->name_len = len - (i + 3);
    return true;
}

static bool type_counts(char type)
{
    int t = toupper((unsigned char)type);
    return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

static uint8_t binding_of(char type)
{
    if (type == 'W')
        return STB_WEAK;
    return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

static bool is_function_type(char type)
{
    int t = toupper((unsigned char)type);
    return t == 'T' || t == 'W';
}

/* Calls fn for each line; stops early when fn returns nonzero and returns that. */
static int each_line(const char *text, size_t len, int (*fn)(void *, const struct kallsyms_line *),
                     void *ctx)
{
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        struct kallsyms_line l;
        if (parse_line(text + pos, end - pos, &l)) {
            int rc = fn(ctx, &l);
            if (rc)
                return rc;
        }
        pos = end + 1;
    }
    return 0;
}

struct find_ctx {
    const char *name;
    uint64_t addr;
};

static int find_reloc(void *ctx, const struct kallsyms_line *l)
{
    struct find_ctx *f = ctx;
    if ((is_function_type(l->type) || l->type == 'A') && strlen(f->name) == l->name_len &&
        memcmp(f->name, l->name, l->name_len) == 0) {
        f->addr = l->addr;
        return 1;
    }
    return 0;
}

struct add_ctx {
    struct symbol_builder *b;
    bool any_nonzero;
};

static int add_line(void *ctx, const struct kallsyms_line *l)
{
    struct add_ctx *a = ctx;
    if (!type_counts(l->type) || (l->name_len > 0 && l->name[0] == '$'))
        return 0;
    a->any_nonzero |= l->addr != 0;
    return symbol_builder_add(a->b, l->addr, 0, binding_of(l->type), l->name, l->name_len) ? -1 : 0;
}

/*
 * maps__split_kallsyms for a kernel without module maps: the kernel's own
 * symbols stay (moved by delta), module symbols and the x86-64 entry
 * trampoline go. Gives the range of what stays. Returns 1, 0 when nothing
 * stays, -1 when memory runs out.
 */
static int keep_kernel_symbols(struct symbol_builder *b, uint64_t delta, bool x86_64,
                               uint64_t *start, uint64_t *end)
{
    size_t n, kept = 0;
    const uint32_t *order = symbol_builder_in_order(b, &n);
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++) {
        uint32_t node = order[i];
        struct rule_symbol *s = &b->syms[node];
        const char *name = b->names + s->name;
        if (strchr(name, '\t') || (x86_64 && strcmp(name, "__entry_SYSCALL_64_trampoline") == 0)) {
            symbol_builder_erase(b, node);
            continue;
        }
        s->start -= delta;
        s->end -= delta;
        if (kept++ == 0)
            *start = s->start;
        *end = s->end;
    }
    return kept > 0;
}

int kallsyms_parse(const char *text, size_t len, const struct kallsyms_reloc *reloc, bool x86_64,
                   struct symtab *out, struct symbol_lookup *lookup, uint64_t *start, uint64_t *end)
{
    memset(out, 0, sizeof(*out));
    memset(lookup, 0, sizeof(*lookup));
    uint64_t delta = 0;
    if (reloc && reloc->name) {
        struct find_ctx f = {reloc->name, 0};
        if (each_line(text, len, find_reloc, &f) != 1)
            return 0; /* perf's kallsyms__delta fails: no kernel symbols */
        delta = f.addr - reloc->addr;
    }
    struct symbol_builder b;
    symbol_builder_init_sorted(&b);
    struct add_ctx a = {&b, false};
    if (each_line(text, len, add_line, &a) < 0) {
        symbol_builder_free(&b);
        return -1;
    }
    int rc = !a.any_nonzero                   ? 0
             : symbol_builder_fixup(&b, true) ? -1
                                              : keep_kernel_symbols(&b, delta, x86_64, start, end);
    if (rc <= 0) {
        symbol_builder_free(&b);
        return rc;
    }
    return symbol_builder_finish(&b, out, lookup) ? -1 : 1;
}

/* Reads a small file whole (sysfs and procfs files report no size). */
static char *read_whole(const char *path, size_t limit, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *bigger = cap < limit ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r <= 0) {
            if (r < 0) {
                free(buf);
                buf = NULL;
            }
            break;
        }
        n += (size_t)r;
    }
    close(fd);
    *len = n;
    return buf;
}

int kallsyms_load(const char *path, const struct kallsyms_reloc *reloc, bool x86_64,
                  struct symtab *out, struct symbol_lookup *lookup, uint64_t *start, uint64_t *end)
{
    size_t len;
    char *text = read_whole(path, MAX_KALLSYMS, &len);
    if (!text) {
        memset(out, 0, sizeof(*out));
        memset(lookup, 0, sizeof(*lookup));
        return 0;
    }
    int rc = kallsyms_parse(text, len, reloc, x86_64, out, lookup, start, end);
    free(text);
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
