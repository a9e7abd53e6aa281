/*
 * debug_image: a debug file's wanted DWARF inflated once, the rest hidden,
 * handed to libdw through elf_memory (perf/dwarf/debug_image.h).
 */
#include "perf/dwarf/debug_image.h"

#include <elf.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/dwarf/debug_cache.h"
#include "perf/dwarf/debug_inflate.h"
#include "perf/dwarf/helper_thread.h"

/* One section header of the file, as far as the plan needs it. */
struct section {
    size_t header; /* file offset of its header */
    const char *name;
    uint32_t type;
    uint64_t flags, offset, size;
    size_t inflated; /* the size it inflates to; 0: not inflated by us */
    size_t at;       /* where it is inflated, from the image's start */
    bool damaged;    /* a zlib section whose header or bytes do not fit the file */
};

/* The file's section headers, read without trusting any of them. */
struct sections {
    bool elf64;
    size_t count;
    struct section *list;
};

/*
 * Read by inline questions (perf/dwarf/inline_frames.c): units and their DIEs,
 * names, attribute forms that point elsewhere (addresses, strings, ranges),
 * the address table, and line programs. Location lists, macros, CFI and
 * name indexes are never read there.
 */
bool debug_section_wanted(const char *name)
{
    static const char *const wanted[] = {
        ".debug_info",   ".debug_abbrev",   ".debug_str",   ".debug_str_offsets",
        ".debug_line",   ".debug_line_str", ".debug_addr",  ".debug_aranges",
        ".debug_ranges", ".debug_rnglists", ".debug_types",
    };
    for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
        if (strcmp(name, wanted[i]) == 0)
            return true;
    return false;
}

static uint64_t read_le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static bool within(uint64_t offset, uint64_t length, size_t size)
{
    return offset <= size && length <= size - offset;
}

/* The name at `index` of the section-name table, NULL when it is not there. */
static const char *section_name(const unsigned char *file, size_t size, const struct section *names,
                                uint64_t index)
{
    if (!names || names->type == SHT_NOBITS || !within(names->offset, names->size, size) ||
        index >= names->size)
        return NULL;
    const char *start = (const char *)file + names->offset + index;
    return memchr(start, '\0', names->size - index) ? start : NULL;
}

static void read_section(const unsigned char *file, bool elf64, size_t at, struct section *s)
{
    s->header = at;
    const unsigned char *h = file + at;
    s->type = (uint32_t)read_le(h + 4, 4);
    s->flags = elf64 ? read_le(h + 8, 8) : read_le(h + 8, 4);
    s->offset = elf64 ? read_le(h + 24, 8) : read_le(h + 16, 4);
    s->size = elf64 ? read_le(h + 32, 8) : read_le(h + 20, 4);
}

/*
 * The section headers of a little-endian ELF file (the hosts perf folds
 * on), with their names. Returns 1, 0 when the file is not such a file or
 * its headers do not fit it, -1 when memory runs out.
 */
static int read_sections(const unsigned char *file, size_t size, struct sections *out)
{
    memset(out, 0, sizeof(*out));
    if (size < EI_NIDENT || memcmp(file, ELFMAG, SELFMAG) != 0 || file[EI_DATA] != ELFDATA2LSB ||
        __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
        return 0;
    bool elf64 = file[EI_CLASS] == ELFCLASS64;
    if (!elf64 && file[EI_CLASS] != ELFCLASS32)
        return 0;
    size_t ehdr = elf64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    size_t entsize = elf64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
    if (size < ehdr)
        return 0;
    uint64_t shoff = elf64 ? read_le(file + 0x28, 8) : read_le(file + 0x20, 4);
    const unsigned char *e = file + (elf64 ? 0x3a : 0x2e);
    uint64_t count = read_le(e + 2, 2), strndx = read_le(e + 4, 2);
    if (read_le(e, 2) != entsize || shoff == 0 || !within(shoff, entsize, size))
        return 0;
    struct section zero;
    read_section(file, elf64, (size_t)shoff, &zero);
    if (count == 0) /* more than SHN_LORESERVE sections: the count is section 0's size */
        count = zero.size;
    if (strndx == SHN_XINDEX)
        strndx = read_le(file + shoff + (elf64 ? 40 : 24), 4); /* section 0's sh_link */
    if (count == 0 || count > (size - shoff) / entsize || strndx >= count)
        return 0;
    if (!(out->list = calloc((size_t)count, sizeof(*out->list))))
        return -1;
    out->elf64 = elf64;
    out->count = (size_t)count;
    for (size_t i = 0; i < out->count; i++)
        read_section(file, elf64, (size_t)shoff + i * entsize, &out->list[i]);
    for (size_t i = 0; i < out->count; i++)
        out->list[i].name =
            section_name(file, size, &out->list[strndx], read_le(file + out->list[i].header, 4));
    return 1;
}

/* A DWARF section of the file's own (not split DWARF's .dwo, not in a section group). */
static bool is_dwarf(const struct section *s)
{
    size_t n = s->name ? strlen(s->name) : 0;
    return n > 7 && strncmp(s->name, ".debug_", 7) == 0 && s->type != SHT_NOBITS &&
           !(s->flags & SHF_GROUP) && !(n > 4 && strcmp(s->name + n - 4, ".dwo") == 0);
}

#define INFLATE_ALIGN 16

/*
 * Plans the image: which sections are inflated where (after the file's
 * pages) and the image's size. Returns false when the file is left to
 * libdw as it is.
 */
static bool plan(struct sections *ss, const unsigned char *file, size_t size, size_t page,
                 size_t *image_size)
{
    bool compressed = false;
    size_t end = (size + page - 1) / page * page;
    for (size_t i = 0; i < ss->count; i++) {
        struct section *s = &ss->list[i];
        if (s->name &&
            (strncmp(s->name, ".zdebug", 7) == 0 || strcmp(s->name, ".gnu_debugaltlink") == 0))
            return false;
        if (!is_dwarf(s) || !(s->flags & SHF_COMPRESSED))
            continue;
        compressed = true;
        if (!debug_section_wanted(s->name))
            continue;
        if (!within(s->offset, s->size, size)) {
            s->damaged = true;
            continue;
        }
        size_t inflated = debug_compressed_size(file + s->offset, (size_t)s->size, ss->elf64);
        if (inflated == 0 && s->size >= 4 && read_le(file + s->offset, 4) != ELFCOMPRESS_ZLIB)
            continue; /* another compression: libdw's to try */
        /* deflate inflates at most 1032 to 1: a larger size is a damaged header */
        if (inflated == 0 || inflated / 1032 > s->size || inflated > SIZE_MAX / 2 - end) {
            s->damaged = true;
            continue;
        }
        s->inflated = inflated;
        s->at = end;
        end = (end + s->inflated + INFLATE_ALIGN - 1) / INFLATE_ALIGN * INFLATE_ALIGN;
    }
    *image_size = end;
    return compressed && (ss->elf64 || end <= UINT32_MAX); /* (ELF32 offsets are 32 bits) */
}

static void write_le(unsigned char *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

/* Rewrites a section's header in the image: where its bytes now are, or hidden. */
static void patch(unsigned char *image, bool elf64, const struct section *s, bool hide)
{
    unsigned char *h = image + s->header;
    if (hide) {
        write_le(h + 4, SHT_NOBITS, 4);
        return;
    }
    uint64_t flags = s->flags & ~(uint64_t)SHF_COMPRESSED;
    write_le(h + 8, flags, elf64 ? 8 : 4);
    write_le(h + (elf64 ? 24 : 16), s->at, elf64 ? 8 : 4);
    write_le(h + (elf64 ? 32 : 20), s->inflated, elf64 ? 8 : 4);
    write_le(h + (elf64 ? 48 : 32), 1, elf64 ? 8 : 4); /* sh_addralign: bytes */
}

/*
 * An image between debug_image_start and debug_image_finish (its
 * sections being inflated), then, until debug_image_close, its store
 * into the cache (on a thread of its own: the fold need not wait for it).
 */
struct debug_image_work {
    const unsigned char *file; /* the file mapped read-only (the section names) */
    size_t file_size;
    struct sections ss;
    struct debug_inflate_job *jobs; /* tag: the section's index */
    size_t njobs;
    struct debug_inflate_pool pool;
    struct debug_cache_key key;
    char *cache_dir;
    unsigned char *region; /* the inflated sections' pages */
    bool inflating;        /* `pool` started, not finished */
    pthread_t store;
    bool storing;     /* `store` runs */
    bool store_later; /* stored through the image's `later` list when it is closed */
};

/*
 * Hides or points to its inflated bytes each compressed DWARF section of
 * the image (`inflated[i]`: section i's inflated bytes are whole, which
 * the cache's are); counts those that did not inflate.
 */
static void build(unsigned char *image, const struct sections *ss, const bool *inflated,
                  size_t *damaged)
{
    for (size_t i = 0; i < ss->count; i++) {
        const struct section *s = &ss->list[i];
        if (!is_dwarf(s) || !(s->flags & SHF_COMPRESSED))
            continue;
        if (!debug_section_wanted(s->name)) {
            patch(image, ss->elf64, s, true);
        } else if (s->inflated) {
            patch(image, ss->elf64, s, !inflated[i]);
            *damaged += !inflated[i];
        } else if (s->damaged) {
            patch(image, ss->elf64, s, true);
            (*damaged)++;
        }
    }
}

/*
 * Maps the file privately (its pages written only where headers change)
 * followed by zeroed pages for the inflated sections, in huge pages where
 * the kernel has them (libc's 8.6 MB: 200 page faults instead of 2,200,
 * a fifth of inflating's CPU time). NULL: no memory.
 */
static unsigned char *map_image(int fd, size_t file_size, size_t image_size)
{
    void *image =
        mmap(NULL, image_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (image == MAP_FAILED)
        return NULL;
    madvise(image, image_size, MADV_HUGEPAGE); /* advice: nothing lost when refused */
    if (mmap(image, file_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0) ==
        MAP_FAILED) {
        munmap(image, image_size);
        return NULL;
    }
    return image;
}

/* A print of where the plan puts each inflated section, for the cache. */
static uint64_t layout_print(const struct sections *ss)
{
    uint64_t h = ss->elf64;
    for (size_t i = 0; i < ss->count; i++)
        if (ss->list[i].inflated) {
            const uint64_t v[3] = {i, ss->list[i].at, ss->list[i].inflated};
            for (size_t k = 0; k < 3; k++) {
                h ^= v[k] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
                h *= 0xff51afd7ed558ccdull;
            }
        }
    return h;
}

/* Starts inflating the planned sections on worker threads; false: no memory. */
static bool start_inflating(struct debug_image_work *w, unsigned char *image)
{
    for (size_t i = 0; i < w->ss.count; i++)
        w->njobs += w->ss.list[i].inflated != 0;
    if (!(w->jobs = calloc(w->njobs ? w->njobs : 1, sizeof(*w->jobs))))
        return false;
    for (size_t i = 0, k = 0; i < w->ss.count; i++) {
        const struct section *s = &w->ss.list[i];
        if (s->inflated)
            w->jobs[k++] = (struct debug_inflate_job){.bytes = image + s->offset,
                                                      .size = (size_t)s->size,
                                                      .out = image + s->at,
                                                      .out_size = s->inflated,
                                                      .tag = i};
    }
    debug_inflate_start(&w->pool, w->jobs, w->njobs, w->ss.elf64, debug_inflate_workers());
    w->inflating = true;
    return true;
}

/* Maps the planned sections from the cache, or starts inflating them. False: no memory. */
static bool start_filling(struct debug_image *img, struct debug_image_work *w,
                          const struct stat *st, size_t page, const char *cache_dir)
{
    size_t region = (w->file_size + page - 1) / page * page;
    w->region = (unsigned char *)img->map + region;
    if (cache_dir && cache_dir[0] && !(w->cache_dir = strdup(cache_dir)))
        return false;
    w->key = (struct debug_cache_key){.dir = w->cache_dir,
                                      .file = *st,
                                      .layout = layout_print(&w->ss),
                                      .size = img->map_size - region};
    img->cached = debug_cache_map(&w->key, w->region);
    return img->cached || start_inflating(w, img->map);
}

static void free_work(struct debug_image_work *w)
{
    if (w->inflating)
        debug_inflate_finish(&w->pool); /* started, never finished */
    if (w->storing)
        pthread_join(w->store, NULL);
    free(w->jobs);
    free(w->ss.list);
    if (w->file)
        munmap((void *)w->file, w->file_size);
    free(w->cache_dir);
    free(w);
}

/*
 * Starts making the image of the file open as `fd`: 1 (img->work set),
 * 0 when it is left to libdw, -1 when memory runs out.
 */
static int image_from(struct debug_image *img, int fd, const struct stat *st, const char *cache_dir)
{
    struct debug_image_work *w = calloc(1, sizeof(*w));
    if (!w)
        return -1;
    w->file_size = (size_t)st->st_size;
    w->file = mmap(NULL, w->file_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (w->file == MAP_FAILED) {
        w->file = NULL;
        free_work(w);
        return 0;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE), image_size = 0;
    int rc = read_sections(w->file, w->file_size, &w->ss);
    if (rc == 1 && !plan(&w->ss, w->file, w->file_size, page, &image_size))
        rc = 0;
    if (rc == 1 && !(img->map = map_image(fd, w->file_size, image_size)))
        rc = 0; /* left to libdw, which would need the same memory */
    img->map_size = image_size;
    img->work = w; /* freed with the image from here on */
    if (rc == 1 && !start_filling(img, w, st, page, cache_dir))
        rc = -1;
    if (rc != 1)
        debug_image_close(img);
    return rc;
}

int debug_image_start(struct debug_image *img, const char *path, const char *cache_dir)
{
    memset(img, 0, sizeof(*img));
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    struct stat st;
    int rc = 0;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        rc = image_from(img, fd, &st, cache_dir);
    if (fd >= 0)
        close(fd);
    return rc;
}

static void *store_region(void *arg)
{
    struct debug_image_work *w = arg;
    debug_cache_store(&w->key, w->region);
    return NULL;
}

/* Stores the inflated sections for the next fold, on a thread when one can be made. */
static void store(struct debug_image_work *w)
{
    if (!w->key.dir)
        return;
    w->storing = helper_thread_start(&w->store, store_region, w) == 0;
    if (!w->storing)
        store_region(w);
}

int debug_image_finish(struct debug_image *img)
{
    struct debug_image_work *w = img->work;
    bool *inflated = calloc(w->ss.count, sizeof(*inflated));
    if (!inflated)
        return debug_image_close(img), -1;
    if (w->inflating)
        debug_inflate_finish(&w->pool);
    w->inflating = false;
    for (size_t k = 0; k < w->njobs; k++)
        inflated[w->jobs[k].tag] = w->jobs[k].ok;
    for (size_t i = 0; img->cached && i < w->ss.count; i++)
        inflated[i] = true;
    build(img->map, &w->ss, inflated, &img->damaged);
    free(inflated);
    if (!img->cached && img->damaged == 0) {
        if (img->later)
            w->store_later = w->key.dir != NULL; /* (no cache: nothing to store) */
        else
            store(w);
    }
    if (elf_version(EV_CURRENT) == EV_NONE ||
        !(img->elf = elf_memory((char *)img->map, img->map_size)))
        return debug_image_close(img), 0;
    return 1;
}

int debug_image_open(struct debug_image *img, const char *path, const char *cache_dir)
{
    int rc = debug_image_start(img, path, cache_dir);
    return rc == 1 ? debug_image_finish(img) : rc;
}

bool debug_image_ready(const struct debug_image *img)
{
    return !img->work || !img->work->inflating || debug_inflate_done(&img->work->pool);
}

void debug_image_close(struct debug_image *img)
{
    struct debug_image_work *w = img->work;
    if (w && w->store_later && img->map &&
        debug_cache_later_add(img->later, &w->key, img->map, img->map_size, w->region) == 0)
        img->map = NULL; /* the list's now */
    if (w)
        free_work(w);
    if (img->elf)
        elf_end(img->elf);
    if (img->map)
        munmap(img->map, img->map_size);
    memset(img, 0, sizeof(*img));
}
