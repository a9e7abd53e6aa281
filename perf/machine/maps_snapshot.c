/*
 * maps_snapshot: the entry list, its dedup set (a uthash set of the
 * entries' text: the poller adds the same mappings again and again), the
 * /proc/PID/maps and file parsers, the writer, and the lookup by process.
 */
#include "perf/machine/maps_snapshot.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash_table.h"
#include "common/hex.h"

struct maps_seen {
    char *key; /* "PID START END PGOFF PATH" */
    UT_hash_handle hh;
};

void maps_snapshot_init(struct maps_snapshot *s)
{
    memset(s, 0, sizeof(*s));
}

void maps_snapshot_free(struct maps_snapshot *s)
{
    for (size_t i = 0; i < s->count; i++)
        free(s->items[i].path);
    free(s->items);
    free(s->by_pid);
    struct maps_seen *seen, *tmp;
    HASH_ITER(hh, s->seen, seen, tmp)
    {
        HASH_DELETE(hh, s->seen, seen);
        free(seen->key);
        free(seen);
    }
    memset(s, 0, sizeof(*s));
}

/* Marks the entry as seen: 1 when new, 0 when seen before, -1 when memory runs out. */
static int mark_seen(struct maps_snapshot *s, const char *key)
{
    struct maps_seen *seen;
    HASH_FIND_STR(s->seen, key, seen);
    if (seen)
        return 0;
    if (!(seen = calloc(1, sizeof(*seen))) || !(seen->key = strdup(key))) {
        free(seen);
        return -1;
    }
    bool hash_added = true;
    HASH_ADD_KEYPTR(hh, s->seen, seen->key, strlen(seen->key), seen);
    if (!hash_added) {
        free(seen->key);
        free(seen);
        return -1;
    }
    return 1;
}

static int append(struct maps_snapshot *s, const struct maps_entry *entry)
{
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 64;
        struct maps_entry *items = realloc(s->items, cap * sizeof(*items));
        if (!items)
            return -1;
        s->items = items;
        s->capacity = cap;
    }
    s->items[s->count++] = *entry;
    return 0;
}

int maps_snapshot_add(struct maps_snapshot *s, int32_t pid, uint64_t start, uint64_t end,
                      uint64_t pgoff, const char *path)
{
    size_t size = strlen(path) + 80;
    char *key = malloc(size);
    if (!key)
        return -1;
    snprintf(key, size, "%" PRId32 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %s", pid, start, end,
             pgoff, path);
    int fresh = mark_seen(s, key);
    free(key);
    if (fresh <= 0)
        return fresh;
    struct maps_entry entry = {pid, start, end, pgoff, strdup(path)};
    if (!entry.path || append(s, &entry)) {
        free(entry.path);
        return -1;
    }
    return 0;
}

/* Parses a hex number (an optional 0x first) up to the first other character. */
static bool parse_hex(const char **p, const char *end, uint64_t *out)
{
    const char *q = *p;
    if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
        q += 2;
    uint64_t v = 0;
    const char *digits = q;
    for (int d; q < end && (d = hex_digit(*q)) >= 0; q++) {
        if (v >> 60)
            return false; /* more than 64 bits */
        v = v << 4 | (uint64_t)d;
    }
    if (q == digits)
        return false;
    *p = q;
    *out = v;
    return true;
}

static bool at_field_end(const char *p, const char *end)
{
    return p == end || *p == ' ' || *p == '\t';
}

static void skip_blanks(const char **p, const char *end)
{
    while (*p < end && (**p == ' ' || **p == '\t'))
        (*p)++;
}

/* The next blank-separated field. */
static void next_field(const char **p, const char *end, const char **field, size_t *len)
{
    skip_blanks(p, end);
    *field = *p;
    while (*p < end && **p != ' ' && **p != '\t')
        (*p)++;
    *len = (size_t)(*p - *field);
}

/* One /proc/PID/maps line: "start-end perms pgoff dev inode   path". */
static int add_proc_line(struct maps_snapshot *s, int32_t pid, const char *p, const char *end)
{
    uint64_t start, stop, pgoff;
    const char *perms, *dev, *inode;
    size_t perms_len, dev_len, inode_len;
    if (!parse_hex(&p, end, &start) || p >= end || *p != '-')
        return 0;
    p++;
    if (!parse_hex(&p, end, &stop))
        return 0;
    next_field(&p, end, &perms, &perms_len);
    skip_blanks(&p, end);
    if (!parse_hex(&p, end, &pgoff))
        return 0;
    next_field(&p, end, &dev, &dev_len);
    next_field(&p, end, &inode, &inode_len);
    skip_blanks(&p, end);
    if (perms_len < 3 || perms[2] != 'x' || p >= end || *p != '/' || stop <= start)
        return 0;
    size_t path_len = (size_t)(end - p);
    char *path = malloc(path_len + 1);
    if (!path)
        return -1;
    memcpy(path, p, path_len);
    path[path_len] = '\0';
    int rc = maps_snapshot_add(s, pid, start, stop, pgoff, path);
    free(path);
    return rc;
}

int maps_snapshot_add_proc(struct maps_snapshot *s, int32_t pid, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl : end;
        if (add_proc_line(s, pid, p, line_end))
            return -1;
        p = nl ? nl + 1 : end;
    }
    return 0;
}

static const char format_hint[] = "expected 'PID START END PGOFF PATH' (docs/FORMATS.md)";

/* A decimal process id above 0. */
static bool parse_pid(const char **p, const char *end, int32_t *pid)
{
    const char *field;
    size_t len;
    next_field(p, end, &field, &len);
    if (len == 0 || len > 10)
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (field[i] < '0' || field[i] > '9')
            return false;
        v = v * 10 + (field[i] - '0');
    }
    if (v <= 0 || v > INT32_MAX)
        return false;
    *pid = (int32_t)v;
    return true;
}

/* One line of a snapshot file; `where` is "FILE:LINE". */
static int read_line(struct maps_snapshot *s, const char *p, const char *end, const char *where,
                     struct error *e)
{
    static const char *const names[] = {"START", "END", "PGOFF"};
    int32_t pid;
    uint64_t v[3];
    if (!parse_pid(&p, end, &pid))
        return error_fail(e, ERROR_CORRUPT, "%s: the first field is not a process id; %s", where,
                          format_hint);
    for (int i = 0; i < 3; i++) {
        skip_blanks(&p, end);
        if (!parse_hex(&p, end, &v[i]) || !at_field_end(p, end))
            return error_fail(e, ERROR_CORRUPT, "%s: %s is missing or not a hex number; %s", where,
                              names[i], format_hint);
    }
    if (v[1] <= v[0])
        return error_fail(e, ERROR_CORRUPT, "%s: END %" PRIx64 " is not above START %" PRIx64,
                          where, v[1], v[0]);
    if (p >= end || (*p != ' ' && *p != '\t'))
        return error_fail(e, ERROR_CORRUPT, "%s: PATH is missing; %s", where, format_hint);
    skip_blanks(&p, end);
    if (p >= end)
        return error_fail(e, ERROR_CORRUPT, "%s: PATH is missing; %s", where, format_hint);
    size_t len = (size_t)(end - p);
    if (memchr(p, '\0', len))
        return error_fail(e, ERROR_CORRUPT, "%s: a NUL byte (not a text file?)", where);
    char *path = malloc(len + 1);
    if (!path)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    memcpy(path, p, len);
    path[len] = '\0';
    int rc = maps_snapshot_add(s, pid, v[0], v[1], v[2], path);
    free(path);
    return rc ? error_fail(e, ERROR_NO_MEMORY, "out of memory") : 0;
}

static bool is_blank_line(const char *p, const char *end)
{
    skip_blanks(&p, end);
    return p == end || *p == '#';
}

int maps_snapshot_read(struct maps_snapshot *s, const char *path, struct error *e)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return error_fail_errno(e, ERROR_UNREADABLE, errno, "cannot open %s", path);
    char *line = NULL;
    size_t cap = 0, number = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, in)) >= 0) {
        number++;
        const char *end = line + len;
        if (end > line && end[-1] == '\n')
            end--;
        if (end > line && end[-1] == '\r')
            end--;
        if (is_blank_line(line, end))
            continue;
        char where[4200];
        snprintf(where, sizeof(where), "%s:%zu", path, number);
        rc = read_line(s, line, end, where, e);
    }
    if (rc == 0 && ferror(in))
        rc = error_fail_errno(e, ERROR_UNREADABLE, errno, "cannot read %s", path);
    free(line);
    fclose(in);
    return rc;
}

int maps_snapshot_write(FILE *out, const struct maps_snapshot *s)
{
    if (fputs("# zkprof maps snapshot: PID START END PGOFF PATH (docs/FORMATS.md)\n", out) < 0)
        return -1;
    for (size_t i = 0; i < s->count; i++) {
        const struct maps_entry *m = &s->items[i];
        if (fprintf(out, "%" PRId32 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %s\n", m->pid, m->start,
                    m->end, m->pgoff, m->path) < 0)
            return -1;
    }
    return 0;
}

static int by_pid_then_order(const void *a, const void *b)
{
    const struct maps_key *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int build_index(struct maps_snapshot *s)
{
    struct maps_key *by_pid = realloc(s->by_pid, (s->count ? s->count : 1) * sizeof(*by_pid));
    if (!by_pid)
        return -1;
    for (size_t i = 0; i < s->count; i++)
        by_pid[i] = (struct maps_key){s->items[i].pid, i};
    qsort(by_pid, s->count, sizeof(*by_pid), by_pid_then_order);
    s->by_pid = by_pid;
    s->indexed = s->count;
    return 0;
}

const struct maps_entry *maps_snapshot_find(struct maps_snapshot *s, int32_t pid, uint64_t addr)
{
    if ((s->indexed != s->count || !s->by_pid) && build_index(s))
        return NULL;
    size_t lo = 0, hi = s->count; /* the first index of a pid above `pid` */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->by_pid[mid].pid <= pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i > 0 && s->by_pid[i - 1].pid == pid; i--) {
        const struct maps_entry *m = &s->items[s->by_pid[i - 1].index];
        if (m->start <= addr && addr < m->end)
            return m;
    }
    return NULL;
}
