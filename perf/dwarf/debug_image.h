/*
 * debug_image: a debug file as libdw should see it for inline questions
 * (perf/dwarf/inline_frames.c). dwarf_begin_elf inflates every compressed
 * (SHF_COMPRESSED) DWARF section it knows when it opens a file, with
 * zlib's checksum pass, location lists and macros included: for libc's
 * debug file that is 10 MB and most of a small DWARF recording's fold.
 * Here the file is mapped privately, the sections inline questions read
 * (debug_section_wanted) are inflated once without the checksum pass
 * into memory after the file's pages (by libdeflate, on worker threads
 * beside the caller: perf/dwarf/debug_inflate.h), the others are hidden
 * (SHT_NOBITS, which libdw skips), and libdw gets the result through
 * elf_memory.
 *
 * A section that does not inflate (cut, corrupt, a size that does not
 * match) is hidden and counted: its questions find no DWARF, so the frames
 * keep their symbols. Files without compressed DWARF, with GNU .zdebug
 * sections or a dwz alternate file (.gnu_debugaltlink, found relative to
 * the file's directory) are left to libdw as they are.
 */
#ifndef PERF_DEBUG_IMAGE_H
#define PERF_DEBUG_IMAGE_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>

struct debug_cache_later;

struct debug_image_work;

struct debug_image {
    Elf *elf;  /* NULL: not made (see debug_image_open) */
    void *map; /* the file's pages, then the inflated sections */
    size_t map_size;
    size_t damaged; /* compressed DWARF sections that did not inflate (hidden) */
    bool cached;    /* the inflated sections came from the cache (perf/dwarf/debug_cache.h) */
    struct debug_image_work *work; /* debug_image.c's: its store into the cache */
    /*
     * Set by the caller after debug_image_start, or NULL: where the
     * inflated sections' store goes when the image is closed (the list
     * takes the mapping; perf/dwarf/debug_cache.h), instead of a thread that
     * debug_image_close waits for.
     */
    struct debug_cache_later *later;
};

/* Whether inline questions read the DWARF section `name` (".debug_info"). */
bool debug_section_wanted(const char *name);

/*
 * Opens `path` as described above, the inflated sections mapped from
 * `cache_dir` when they are there, else stored there (NULL or "": no
 * cache; perf/dwarf/debug_cache.h). Returns 1 with `img->elf` set, 0 when
 * the file is for libdw as it is (not an ELF file, no compressed DWARF, or
 * a form left alone), -1 when memory runs out.
 */
int debug_image_open(struct debug_image *img, const char *path, const char *cache_dir);

/*
 * debug_image_open in two steps, for a caller with other work meanwhile.
 * debug_image_start returns as debug_image_open does, but with 1 the
 * sections are still being inflated on worker threads and `img->elf` is
 * not set yet; debug_image_finish (which only such an image takes) helps
 * inflate what no worker has begun, waits for the rest and returns as
 * debug_image_open does (closing the image unless it returns 1).
 */
int debug_image_start(struct debug_image *img, const char *path, const char *cache_dir);
int debug_image_finish(struct debug_image *img);

/* Whether debug_image_finish would not wait (every section inflated, or mapped from the cache). */
bool debug_image_ready(const struct debug_image *img);

void debug_image_close(struct debug_image *img);

#endif
