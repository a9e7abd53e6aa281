/*
 * debug_cache: the DWARF sections perf/dwarf/debug_image.c inflates, kept on
 * disk so that the next fold of a recording that names the same debug
 * file maps them instead of inflating them again (for libc's debug file,
 * 8.6 MB and most of a small DWARF recording's fold). perf keeps its own
 * build-id cache (~/.debug) the same way; perf_recording_fold
 * (perf/fold/recording.c) takes the directory from $ZKPROF_CACHE_DIR
 * (empty: no cache), else $XDG_CACHE_HOME/zkprof, else ~/.cache/zkprof
 * (docs/PERF.md, "Memory and speed").
 *
 * One file per debug file, named by the debug file's identity (device,
 * inode, size, modification time), holding a page of header (that
 * identity again, and a print of where each inflated section lies) then
 * the inflated bytes as the image lays them out. A file whose header or
 * size does not match is not used (and is replaced); writing is best
 * effort: a temporary file renamed into place, nothing said on failure.
 * A file mapped is marked used (its modification time set to now); after
 * each store the directory is pruned to DEBUG_CACHE_MAX_BYTES, the files
 * used longest ago going first.
 */
#ifndef PERF_DEBUG_CACHE_H
#define PERF_DEBUG_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "perf/perf.h" /* struct debug_cache_later, debug_cache_store_detached */

/* What a cached region must match. */
struct debug_cache_key {
    const char *dir;  /* NULL or "": no cache */
    struct stat file; /* the debug file's */
    uint64_t layout;  /* a print of the inflated sections' places and sizes */
    size_t size;      /* the inflated region's bytes */
};

/*
 * Maps the cached region over `region` (page-aligned, key->size bytes,
 * private and writable). Returns true when it did; false leaves `region`
 * as it was.
 */
bool debug_cache_map(const struct debug_cache_key *key, void *region);

/* Stores `region` (key->size bytes) for the next run; best effort. */
void debug_cache_store(const struct debug_cache_key *key, const void *region);

/*
 * Stores left for after the fold (struct debug_cache_later, perf/perf.h).
 * An image given such a list (perf/dwarf/debug_image.h) hands its mapping
 * to it when it is closed instead of storing from a thread the process
 * waits for; the caller, once its output is written, calls
 * debug_cache_store_detached, and a child process it does not wait for
 * writes them. The command's time then leaves out the file system's:
 * writing libc's 8.6 MB took 1.7-2 ms here, and 9-13 ms while ext4 was
 * still freeing a file deleted just before.
 */
struct debug_cache_later_store {
    struct debug_cache_key key; /* key.dir is the list's copy */
    void *map;                  /* taken: unmapped by the list */
    size_t map_size;
    const void *region; /* within map */
};

/*
 * Adds a store of `region` (key->size bytes within `map`, which the list
 * takes). Returns 0, or -1 when memory runs out (then nothing is taken).
 */
int debug_cache_later_add(struct debug_cache_later *l, const struct debug_cache_key *key, void *map,
                          size_t map_size, const void *region);

/* Frees the list without storing. */
void debug_cache_later_free(struct debug_cache_later *l);

/* What the cache directory may hold: libc's debug file takes 8.6 MB. */
#define DEBUG_CACHE_MAX_BYTES (512ull << 20)

/*
 * Removes cache files from `dir`, those used longest ago first, until
 * the rest take at most `max_bytes`; never the file named `keep` (a name
 * in `dir`, or NULL). Temporary files a writer left over an hour ago go
 * too. Other files are left alone. Best effort.
 */
void debug_cache_prune(const char *dir, uint64_t max_bytes, const char *keep);

#endif
