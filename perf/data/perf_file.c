/*
 * perf_file: the header, the attribute section and the feature index of
 * a perf.data file (tools/perf/util/header.c: perf_file_header__read,
 * perf_session__read_header, perf_header__process_sections), each offset
 * and size checked against the mapped file before use.
 */
#include "perf/data/perf_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/data/perf_abi.h"

#define MAGIC_U64     0x32454c4946524550ull /* "PERFILE2" read in the writer's byte order */
#define MAX_ATTR_SIZE 4096u                 /* far above any perf_event_attr so far (136 bytes) */

/* Whether [offset, offset + size) lies inside a file of `file_size` bytes. */
static bool section_fits(uint64_t offset, uint64_t size, size_t file_size)
{
    return offset <= file_size && size <= file_size - offset;
}

static int check_magic(const struct perf_file *f, struct error *e)
{
    if (f->size == 0)
        return error_fail(e, ERROR_CORRUPT, "the file is empty (0 bytes), not a perf.data file");
    if (f->size < 16)
        return error_fail(e, ERROR_CORRUPT,
                          "the file is %zu bytes, too short for a perf.data header (truncated?)",
                          f->size);
    uint64_t magic = load_u64(f->data, 0);
    if (magic == MAGIC_U64)
        return 0;
    if (magic == __builtin_bswap64(MAGIC_U64))
        return error_fail(e, ERROR_UNSUPPORTED,
                          "the file was recorded on a host of the other byte order (byte-swapped "
                          "magic at offset 0); convert it with perf on such a host");
    if (memcmp(f->data, PERF_MAGIC_V1, 8) == 0)
        return error_fail(e, ERROR_UNSUPPORTED,
                          "the file is in perf's first format (magic PERFFILE), which is not read");
    return error_fail(e, ERROR_CORRUPT,
                      "not a perf.data file: the magic at offset 0 is not \"PERFILE2\"");
}

static int check_header(struct perf_file *f, struct error *e)
{
    uint64_t header_size = load_u64(f->data, 8);
    if (header_size == PERF_PIPE_HEADER_SIZE)
        return error_fail(e, ERROR_UNSUPPORTED,
                          "the file is a perf pipe stream (perf record -o -); record to a file, "
                          "or pass it through 'perf inject -o FILE'");
    if (header_size != PERF_HEADER_SIZE && header_size != PERF_HEADER_SIZE_NO_FEATURES)
        return error_fail(e, ERROR_CORRUPT,
                          "the header size at offset 8 is %" PRIu64 ", expected %u", header_size,
                          PERF_HEADER_SIZE);
    if (f->size < header_size)
        return error_fail(e, ERROR_CORRUPT,
                          "the file ends at byte %zu, inside its %" PRIu64 "-byte header", f->size,
                          header_size);
    f->data_offset = load_u64(f->data, PERF_HEADER_DATA);
    f->data_size = load_u64(f->data, PERF_HEADER_DATA + 8);
    memset(f->features, 0, sizeof(f->features));
    if (header_size == PERF_HEADER_SIZE)
        memcpy(f->features, f->data + PERF_HEADER_FEATURES, sizeof(f->features));
    if (f->data_size == 0 && f->data_offset >= header_size && f->data_offset <= f->size) {
        /* perf record was killed before it rewrote the header: read to the end, as perf does */
        f->data_size = f->size - f->data_offset;
        f->data_size_guessed = true;
        memset(f->features, 0, sizeof(f->features));
    }
    if (!section_fits(f->data_offset, f->data_size, f->size))
        return error_fail(e, ERROR_CORRUPT,
                          "the data section (offset %" PRIu64 ", %" PRIu64
                          " bytes, from the header at offset %u) reaches past the end of the "
                          "%zu-byte file (truncated?)",
                          f->data_offset, f->data_size, PERF_HEADER_DATA, f->size);
    return 0;
}

/* One attribute: the on-disk perf_event_attr at `at`, then the section of its ids. */
static int read_attr(struct perf_file *f, struct perf_attr *a, uint64_t at, uint64_t attr_size,
                     struct error *e)
{
    uint32_t size = load_u32(f->data, (size_t)at + PERF_ATTR_SIZE);
    if (size == 0)
        size = PERF_ATTR_SIZE_VER0; /* ABI 0 */
    if (size < PERF_ATTR_SIZE_VER0 || (uint64_t)size + PERF_FILE_SECTION_SIZE > attr_size)
        return error_fail(e, ERROR_CORRUPT,
                          "the event attribute at offset %" PRIu64 " says it is %u bytes, which "
                          "does not fit its %" PRIu64 "-byte slot",
                          at, size, attr_size);
    perf_attr_decode(a, f->data + at, size);
    uint64_t ids_offset = load_u64(f->data, (size_t)(at + size));
    uint64_t ids_size = load_u64(f->data, (size_t)(at + size + 8));
    if (!section_fits(ids_offset, ids_size, f->size))
        return error_fail(e, ERROR_CORRUPT,
                          "the ids of the event attribute at offset %" PRIu64 " (offset %" PRIu64
                          ", %" PRIu64 " bytes) reach past the end of the file",
                          at, ids_offset, ids_size);
    a->ids = f->data + ids_offset;
    a->nr_ids = (size_t)(ids_size / 8);
    return 0;
}

static int read_attrs(struct perf_file *f, struct error *e)
{
    uint64_t attr_size = load_u64(f->data, 16);
    uint64_t offset = load_u64(f->data, PERF_HEADER_ATTRS);
    uint64_t size = load_u64(f->data, PERF_HEADER_ATTRS + 8);
    if (attr_size < PERF_ATTR_SIZE_VER0 + PERF_FILE_SECTION_SIZE || attr_size > MAX_ATTR_SIZE)
        return error_fail(e, ERROR_CORRUPT,
                          "the attribute size at offset 16 is %" PRIu64 ", not a perf_event_attr "
                          "size",
                          attr_size);
    if (!section_fits(offset, size, f->size))
        return error_fail(e, ERROR_CORRUPT,
                          "the attribute section (offset %" PRIu64 ", %" PRIu64
                          " bytes) reaches past the end of the %zu-byte file (truncated?)",
                          offset, size, f->size);
    size_t n = (size_t)(size / attr_size);
    if (n == 0)
        return error_fail(e, ERROR_CORRUPT,
                          "the attribute section at offset %" PRIu64 " holds no event", offset);
    f->attrs = calloc(n, sizeof(*f->attrs));
    if (!f->attrs)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory for %zu event attributes", n);
    f->nr_attrs = n;
    for (size_t i = 0; i < n; i++)
        if (read_attr(f, &f->attrs[i], offset + i * attr_size, attr_size, e))
            return -1;
    return 0;
}

/*
 * A feature section the bitmap announces but the file does not hold
 * whole (a file cut after its data section) is lost, not fatal: perf
 * script reads such a file's samples without it.
 */
static void drop_cut_features(struct perf_file *f)
{
    struct bytes unused;
    for (unsigned bit = 0; bit < PERF_FEATURE_BITS; bit++) {
        struct error ignored = ERROR_INIT;
        if (perf_file_feature(f, bit, &unused, &ignored) < 0) {
            f->features_lost[bit / 8] |= (uint8_t)(1u << (bit % 8));
            f->nr_features_lost++;
        }
    }
}

static int check(struct perf_file *f, struct error *e)
{
    if (check_magic(f, e) || check_header(f, e) || read_attrs(f, e))
        return -1;
    drop_cut_features(f);
    return 0;
}

int perf_file_from_memory(struct perf_file *f, const uint8_t *data, size_t size, struct error *e)
{
    memset(f, 0, sizeof(*f));
    f->data = data;
    f->size = size;
    if (check(f, e)) {
        perf_file_close(f);
        return -1;
    }
    return 0;
}

int perf_file_open(struct perf_file *f, const char *path, struct error *e)
{
    memset(f, 0, sizeof(*f));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return error_fail(e, ERROR_UNREADABLE, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return error_fail(e, ERROR_UNREADABLE, "cannot read %s: %s", path, strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return error_fail(e, ERROR_UNREADABLE, "cannot read %s: %s", path,
                          S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file");
    }
    size_t size = (size_t)st.st_size;
    const uint8_t *data = (const uint8_t *)"";
    if (size > 0) {
        void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            int err = errno;
            close(fd);
            return error_fail(e, ERROR_UNREADABLE, "cannot map %s: %s", path, strerror(err));
        }
        madvise(m, size, MADV_SEQUENTIAL);
        data = m;
    }
    close(fd);
    f->data = data;
    f->size = size;
    f->mapped = size > 0;
    if (check(f, e)) {
        perf_file_close(f);
        return -1;
    }
    return 0;
}

void perf_file_close(struct perf_file *f)
{
    for (size_t i = 0; i < f->nr_attrs; i++)
        free(f->attrs[i].name);
    free(f->attrs);
    if (f->mapped)
        munmap((void *)f->data, f->size);
    memset(f, 0, sizeof(*f));
}

void perf_file_release(struct perf_file *f, uint64_t below)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t from = f->released > f->data_offset ? f->released : f->data_offset;
    from = (from + page - 1) / page * page; /* whole pages inside the data section only */
    uint64_t to = below / page * page;
    if (!f->mapped || to <= from || to > f->size || to - from < PERF_FILE_RELEASE_STEP)
        return;
    madvise((void *)(f->data + from), (size_t)(to - from), MADV_DONTNEED);
    f->released = to;
}

static bool feature_set(const struct perf_file *f, unsigned bit)
{
    return (f->features[bit / 8] >> (bit % 8)) & 1;
}

bool perf_file_feature_lost(const struct perf_file *f, unsigned feat)
{
    return feat < PERF_FEATURE_BITS && ((f->features_lost[feat / 8] >> (feat % 8)) & 1);
}

int perf_file_feature(const struct perf_file *f, unsigned feat, struct bytes *out, struct error *e)
{
    if (feat >= PERF_FEATURE_BITS || !feature_set(f, feat) || perf_file_feature_lost(f, feat))
        return 0;
    uint64_t index = 0;
    for (unsigned bit = 0; bit < feat; bit++)
        index += feature_set(f, bit);
    uint64_t table = f->data_offset + f->data_size; /* the index follows the data */
    uint64_t entry = table + index * PERF_FILE_SECTION_SIZE;
    if (!section_fits(entry, PERF_FILE_SECTION_SIZE, f->size))
        return error_fail(e, ERROR_CORRUPT,
                          "the index entry of feature %u at offset %" PRIu64
                          " lies past the end of the file (truncated?)",
                          feat, entry);
    uint64_t offset = load_u64(f->data, (size_t)entry);
    uint64_t size = load_u64(f->data, (size_t)entry + 8);
    if (!section_fits(offset, size, f->size))
        return error_fail(e, ERROR_CORRUPT,
                          "feature %u (offset %" PRIu64 ", %" PRIu64 " bytes, from the index at "
                          "offset %" PRIu64 ") reaches past the end of the file (truncated?)",
                          feat, offset, size, entry);
    *out = bytes_at(f->data + offset, (size_t)size, offset);
    return 1;
}
