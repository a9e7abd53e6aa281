/*
 * debug_cache: inflated DWARF kept on disk, one file per debug file
 * (perf/dwarf/debug_cache.h).
 */
#include "perf/dwarf/debug_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define CACHE_MAGIC  "ZKPDBG1"
#define HEADER_BYTES 4096 /* the region starts at a page (of 4 KiB or a divisor) */

struct cache_header {
    char magic[8];
    uint64_t dev, ino, size, mtime_sec, mtime_nsec;
    uint64_t layout, region_size;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static struct cache_header header_of(const struct debug_cache_key *key)
{
    struct cache_header h;
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, CACHE_MAGIC, sizeof(CACHE_MAGIC));
    h.dev = (uint64_t)key->file.st_dev;
    h.ino = (uint64_t)key->file.st_ino;
    h.size = (uint64_t)key->file.st_size;
    h.mtime_sec = (uint64_t)key->file.st_mtim.tv_sec;
    h.mtime_nsec = (uint64_t)key->file.st_mtim.tv_nsec;
    h.layout = key->layout;
    h.region_size = key->size;
    return h;
}

/* The cache file's path; false when there is no cache or the path does not fit. */
static bool cache_path(const struct debug_cache_key *key, char *out, size_t size)
{
    if (!key->dir || !key->dir[0] || key->size == 0)
        return false;
    struct cache_header h = header_of(key);
    uint64_t name = mix(mix(mix(mix(h.dev, h.ino), h.size), h.mtime_sec), h.mtime_nsec);
    int n = snprintf(out, size, "%s/debug-%016llx", key->dir, (unsigned long long)name);
    return n > 0 && (size_t)n < size;
}

bool debug_cache_map(const struct debug_cache_key *key, void *region)
{
    char path[PATH_MAX];
    if (!cache_path(key, path, sizeof(path)) || (size_t)sysconf(_SC_PAGESIZE) > HEADER_BYTES ||
        HEADER_BYTES % (size_t)sysconf(_SC_PAGESIZE) != 0)
        return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct cache_header want = header_of(key), have;
    struct stat st;
    bool ok = pread(fd, &have, sizeof(have), 0) == (ssize_t)sizeof(have) &&
              memcmp(&have, &want, sizeof(have)) == 0 && fstat(fd, &st) == 0 &&
              S_ISREG(st.st_mode) && (uint64_t)st.st_size == HEADER_BYTES + (uint64_t)key->size &&
              mmap(region, key->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
                   HEADER_BYTES) != MAP_FAILED;
    if (ok)
        futimens(fd, NULL); /* used now: pruning keeps it longest */
    close(fd);
    return ok;
}

static bool write_all(int fd, const void *bytes, size_t size)
{
    const char *p = bytes;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n, size -= (size_t)n;
    }
    return true;
}

/* mkdir -p for the cache directory (its parents made as needed). */
static void make_dirs(const char *dir)
{
    char path[PATH_MAX];
    size_t n = strlen(dir);
    if (n >= sizeof(path))
        return;
    memcpy(path, dir, n + 1);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0700);
            *p = '/';
        }
    mkdir(path, 0700);
}

void debug_cache_store(const struct debug_cache_key *key, const void *region)
{
    char path[PATH_MAX], temp[PATH_MAX + 32];
    if (!cache_path(key, path, sizeof(path)))
        return;
    make_dirs(key->dir);
    snprintf(temp, sizeof(temp), "%s.%ld.tmp", path, (long)getpid());
    int fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    static const unsigned char zeros[HEADER_BYTES];
    struct cache_header h = header_of(key);
    bool ok = write_all(fd, &h, sizeof(h)) && write_all(fd, zeros, HEADER_BYTES - sizeof(h)) &&
              write_all(fd, region, key->size);
    ok = close(fd) == 0 && ok;
    if (!ok || rename(temp, path) != 0) {
        unlink(temp);
        return;
    }
    debug_cache_prune(key->dir, DEBUG_CACHE_MAX_BYTES, strrchr(path, '/') + 1);
}

/* ---- stores left for a child process ---- */

int debug_cache_later_add(struct debug_cache_later *l, const struct debug_cache_key *key, void *map,
                          size_t map_size, const void *region)
{
    struct debug_cache_later_store *more = realloc(l->stores, (l->count + 1) * sizeof(*more));
    if (!more)
        return -1;
    l->stores = more;
    struct debug_cache_later_store *st = &l->stores[l->count];
    *st = (struct debug_cache_later_store){*key, map, map_size, region};
    if (key->dir && !(st->key.dir = strdup(key->dir)))
        return -1;
    l->count++;
    return 0;
}

void debug_cache_later_free(struct debug_cache_later *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free((char *)l->stores[i].key.dir);
        munmap(l->stores[i].map, l->stores[i].map_size);
    }
    free(l->stores);
    l->stores = NULL;
    l->count = 0;
}

static void store_all(const struct debug_cache_later *l)
{
    for (size_t i = 0; i < l->count; i++)
        debug_cache_store(&l->stores[i].key, l->stores[i].region);
}

/* The child's standard streams: /dev/null, so that no reader waits for it. */
static void quiet_streams(void)
{
    int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int i = 0; fd >= 0 && i < 3; i++)
        dup2(fd, i);
    if (fd > 2)
        close(fd);
}

void debug_cache_store_detached(struct debug_cache_later *l)
{
    if (l->count == 0) {
        debug_cache_later_free(l);
        return;
    }
    pid_t child = fork();
    if (child == 0) {
        quiet_streams();
        store_all(l);
        _exit(0);
    }
    if (child < 0)
        store_all(l);
    debug_cache_later_free(l);
}

/* ---- pruning ---- */

/* A cache file: its name in the directory, size and when it was last used. */
struct cached_file {
    char name[23]; /* "debug-" and 16 hex digits (is_cache_name) */
    uint64_t size;
    struct timespec used;
};

/* Whether `name` is a cache file's ("debug-" and 16 hex digits), or a writer's temporary. */
static bool is_cache_name(const char *name, bool *temporary)
{
    size_t n = strlen(name);
    *temporary = n > 27 && strcmp(name + n - 4, ".tmp") == 0;
    if (strncmp(name, "debug-", 6) != 0 || (n != 22 && !*temporary))
        return false;
    for (size_t i = 6; i < 22; i++) /* n >= 22 here */
        if (!strchr("0123456789abcdef", name[i]))
            return false;
    return n == 22 || name[22] == '.';
}

static int used_earlier(const void *a, const void *b)
{
    const struct timespec *x = &((const struct cached_file *)a)->used;
    const struct timespec *y = &((const struct cached_file *)b)->used;
    if (x->tv_sec != y->tv_sec)
        return x->tv_sec < y->tv_sec ? -1 : 1;
    return (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

/* The directory's cache files (temporaries over an hour old removed); NULL: none read. */
static struct cached_file *list_cache(int dirfd, DIR *d, size_t *count)
{
    struct cached_file *files = NULL;
    size_t n = 0, cap = 0;
    time_t stale = time(NULL) - 3600;
    for (struct dirent *e; (e = readdir(d));) {
        bool temporary;
        struct stat st;
        if (!is_cache_name(e->d_name, &temporary) ||
            fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (temporary) {
            if (st.st_mtim.tv_sec < stale)
                unlinkat(dirfd, e->d_name, 0);
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            struct cached_file *more = realloc(files, cap * sizeof(*files));
            if (!more)
                break;
            files = more;
        }
        memcpy(files[n].name, e->d_name, sizeof(files[n].name)); /* 22 characters and NUL */
        files[n].size = (uint64_t)st.st_size;
        files[n++].used = st.st_mtim;
    }
    *count = n;
    return files;
}

void debug_cache_prune(const char *dir, uint64_t max_bytes, const char *keep)
{
    DIR *d = dir && dir[0] ? opendir(dir) : NULL;
    if (!d)
        return;
    size_t count = 0;
    struct cached_file *files = list_cache(dirfd(d), d, &count);
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += files[i].size;
    qsort(files, count, sizeof(*files), used_earlier);
    for (size_t i = 0; i < count && total > max_bytes; i++) {
        if (keep && strcmp(files[i].name, keep) == 0)
            continue;
        if (unlinkat(dirfd(d), files[i].name, 0) == 0)
            total -= files[i].size;
    }
    free(files);
    closedir(d);
}
