/*
 * test_debug_image: the debug image libdw gets for inline questions
 * (perf/dwarf/debug_image.h), in C (cmocka), over ELF files written here with
 * sections compressed by zlib's own compress2 (the reference): the wanted
 * sections come back byte for byte and uncompressed, the others hidden;
 * damaged ones (garbage, a cut stream, sizes that lie, headers past the
 * file) are hidden and counted; ELF32 files too; files it leaves to libdw (none compressed,
 * .zdebug, dwz) are left; every cut and every flipped header byte of a
 * file is survived (ASan in the sanitizer build); the on-disk cache of
 * inflated sections (perf/dwarf/debug_cache.h) gives the same bytes, and a cut,
 * flipped or stale cache file is not used. The pool of inflating threads
 * (perf/dwarf/debug_inflate.h), with 0 to 3 workers, gives each of many streams
 * (up to megabytes, some damaged) what zlib's uncompress gives, or fails it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <zlib.h>

#include "perf/dwarf/debug_cache.h"
#include "perf/dwarf/debug_image.h"
#include "perf/dwarf/debug_inflate.h"

/* How a test section is stored. */
enum store {
    PLAIN,     /* as is */
    ZLIB,      /* Elf64_Chdr + zlib stream, the true size */
    GARBAGE,   /* Elf64_Chdr (zlib, the true size) + bytes that are no zlib stream */
    CUT,       /* the zlib stream's first half */
    SIZE_LIES, /* the zlib stream, a header size one byte short */
    HUGE,      /* a header size no deflate stream of this length inflates to */
    PAST_END,  /* the header's sh_offset past the end of the file */
    ZSTD,      /* an Elf64_Chdr of another compression: left to libdw */
};

struct test_section {
    const char *name;
    enum store store;
    unsigned char content[600];
};

/* A file being written: bytes, then section headers. */
struct file {
    unsigned char *bytes;
    size_t size, cap;
};

static size_t put(struct file *f, const void *p, size_t n)
{
    while (f->size + n + 8 > f->cap) {
        f->cap = f->cap ? f->cap * 2 : 4096;
        f->bytes = realloc(f->bytes, f->cap);
        assert_non_null(f->bytes);
    }
    size_t at = (f->size + 7) & ~(size_t)7;
    memset(f->bytes + f->size, 0, at - f->size);
    memcpy(f->bytes + at, p, n);
    f->size = at + n;
    return at;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 7 + seed) % 13 == 0 ? i * seed : 'a' + (i + seed) % 5);
}

/* The stored bytes of `s` (its Chdr first when compressed); their length. */
static size_t stored(const struct test_section *s, unsigned char *out, size_t cap)
{
    if (s->store == PLAIN) {
        memcpy(out, s->content, sizeof(s->content));
        return sizeof(s->content);
    }
    Elf64_Chdr ch = {.ch_type = s->store == ZSTD ? 2 : ELFCOMPRESS_ZLIB,
                     .ch_size = sizeof(s->content),
                     .ch_addralign = 1};
    uLongf len = (uLongf)(cap - sizeof(ch));
    assert_int_equal(compress2(out + sizeof(ch), &len, s->content, sizeof(s->content), 9), Z_OK);
    if (s->store == GARBAGE)
        fill(out + sizeof(ch) + 2, len - 2, 3);
    if (s->store == CUT)
        len /= 2;
    if (s->store == SIZE_LIES)
        ch.ch_size--;
    if (s->store == HUGE)
        ch.ch_size = (uint64_t)1 << 40;
    memcpy(out, &ch, sizeof(ch));
    return sizeof(ch) + len;
}

/* A temporary file holding `size` bytes; its path (malloc'd). */
static char *temp_file(const void *bytes, size_t size)
{
    char *path = strdup("/tmp/test_debug_image_XXXXXX");
    assert_non_null(path);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, size), (ssize_t)size);
    close(fd);
    return path;
}

/* Writes an ELF64 file holding `sections` (after .shstrtab, section 1); returns its path. */
static char *write_elf(const struct test_section *sections, size_t n)
{
    struct file f = {0};
    Elf64_Ehdr eh = {
        .e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT},
        .e_type = ET_EXEC,
        .e_machine = EM_X86_64,
        .e_version = EV_CURRENT,
        .e_ehsize = sizeof(Elf64_Ehdr),
        .e_shentsize = sizeof(Elf64_Shdr),
        .e_shnum = (Elf64_Half)(n + 2),
        .e_shstrndx = 1};
    put(&f, &eh, sizeof(eh));
    char names[512] = "";
    size_t names_len = 1, name_at[16];
    for (size_t i = 0; i < n; i++) {
        name_at[i] = names_len;
        strcpy(names + names_len, sections[i].name);
        names_len += strlen(sections[i].name) + 1;
    }
    strcpy(names + names_len, ".shstrtab");
    size_t shstrtab_name = names_len;
    names_len += sizeof(".shstrtab");
    Elf64_Shdr sh[18] = {{0}};
    sh[1] = (Elf64_Shdr){.sh_name = (Elf64_Word)shstrtab_name,
                         .sh_type = SHT_STRTAB,
                         .sh_offset = put(&f, names, names_len),
                         .sh_size = names_len,
                         .sh_addralign = 1};
    for (size_t i = 0; i < n; i++) {
        unsigned char buf[2048];
        size_t len = stored(&sections[i], buf, sizeof(buf));
        sh[i + 2] = (Elf64_Shdr){.sh_name = (Elf64_Word)name_at[i],
                                 .sh_type = SHT_PROGBITS,
                                 .sh_flags = sections[i].store == PLAIN ? 0 : SHF_COMPRESSED,
                                 .sh_offset = put(&f, buf, len),
                                 .sh_size = len,
                                 .sh_addralign = 8};
        if (sections[i].store == PAST_END)
            sh[i + 2].sh_offset = 1 << 20;
    }
    size_t shoff = put(&f, sh, (n + 2) * sizeof(Elf64_Shdr));
    ((Elf64_Ehdr *)f.bytes)->e_shoff = shoff;
    char *path = temp_file(f.bytes, f.size);
    free(f.bytes);
    return path;
}

static struct test_section *sections_of(size_t n)
{
    struct test_section *s = calloc(n, sizeof(*s));
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        fill(s[i].content, sizeof(s[i].content), (unsigned)i + 1);
    return s;
}

static void wanted_sections(void **state)
{
    (void)state;
    const char *wanted[] = {".debug_info",   ".debug_abbrev",   ".debug_str",  ".debug_str_offsets",
                            ".debug_line",   ".debug_line_str", ".debug_addr", ".debug_aranges",
                            ".debug_ranges", ".debug_rnglists", ".debug_types"};
    const char *unwanted[] = {
        ".debug_loc",      ".debug_loclists", ".debug_frame",    ".debug_macro", ".debug_macinfo",
        ".debug_pubnames", ".debug_names",    ".debug_info.dwo", ".text",        ""};
    for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
        assert_true(debug_section_wanted(wanted[i]));
    for (size_t i = 0; i < sizeof(unwanted) / sizeof(unwanted[0]); i++)
        assert_false(debug_section_wanted(unwanted[i]));
}

static Elf_Scn *section(Elf *elf, size_t index, GElf_Shdr *sh)
{
    Elf_Scn *scn = elf_getscn(elf, index);
    assert_non_null(scn);
    assert_non_null(gelf_getshdr(scn, sh));
    return scn;
}

static void assert_inflated(Elf *elf, size_t index, const struct test_section *s)
{
    GElf_Shdr sh;
    Elf_Scn *scn = section(elf, index, &sh);
    assert_int_equal(sh.sh_type, SHT_PROGBITS);
    assert_false(sh.sh_flags & SHF_COMPRESSED);
    Elf_Data *d = elf_getdata(scn, NULL);
    assert_non_null(d);
    assert_int_equal(d->d_size, sizeof(s->content));
    assert_memory_equal(d->d_buf, s->content, sizeof(s->content));
}

static void assert_hidden(Elf *elf, size_t index)
{
    GElf_Shdr sh;
    section(elf, index, &sh);
    assert_int_equal(sh.sh_type, SHT_NOBITS);
}

static void inflated_hidden_and_damaged(void **state)
{
    (void)state;
    struct test_section *s = sections_of(11);
    const struct {
        const char *name;
        enum store store;
    } plan[] = {
        {".debug_info", ZLIB},        {".debug_loclists", ZLIB}, {".debug_line", GARBAGE},
        {".debug_str", PLAIN},        {".debug_abbrev", CUT},    {".debug_aranges", SIZE_LIES},
        {".debug_rnglists", HUGE},    {".debug_addr", PAST_END}, {".debug_line_str", ZSTD},
        {".debug_str_offsets", ZLIB}, {".debug_info.dwo", ZLIB},
    };
    for (size_t i = 0; i < 11; i++)
        s[i].name = plan[i].name, s[i].store = plan[i].store;
    char *path = write_elf(s, 11);
    struct debug_image img;
    assert_int_equal(debug_image_open(&img, path, NULL), 1);
    assert_non_null(img.elf);
    assert_int_equal(img.damaged, 5); /* garbage, cut, size lies, huge, past the end */
    assert_inflated(img.elf, 2, &s[0]);
    assert_hidden(img.elf, 3); /* not wanted */
    assert_hidden(img.elf, 4);
    GElf_Shdr sh;
    section(img.elf, 5, &sh); /* plain: as it was */
    assert_int_equal(sh.sh_flags, 0);
    assert_memory_equal(elf_getdata(elf_getscn(img.elf, 5), NULL)->d_buf, s[3].content,
                        sizeof(s[3].content));
    for (size_t i = 6; i <= 9; i++)
        assert_hidden(img.elf, i);
    section(img.elf, 10, &sh); /* another compression: untouched, libdw's to try */
    assert_int_equal(sh.sh_type, SHT_PROGBITS);
    assert_true(sh.sh_flags & SHF_COMPRESSED);
    assert_inflated(img.elf, 11, &s[9]);
    section(img.elf, 12, &sh); /* split DWARF: libdw's */
    assert_int_equal(sh.sh_type, SHT_PROGBITS);
    assert_true(sh.sh_flags & SHF_COMPRESSED);
    /* libdw takes it (the bytes are no DWARF: it may refuse them, never crash) */
    Dwarf *dw = dwarf_begin_elf(img.elf, DWARF_C_READ, NULL);
    if (dw) {
        Dwarf_Die cu;
        dwarf_addrdie(dw, 0x1000, &cu);
        dwarf_end(dw);
    }
    debug_image_close(&img);
    unlink(path);
    free(path);
    free(s);
}

/* An ELF32 file: .shstrtab, a compressed .debug_info (Elf32_Chdr) and .debug_loc. */
static void elf32_sections(void **state)
{
    (void)state;
    struct test_section *s = sections_of(2);
    struct file f = {0};
    Elf32_Ehdr eh = {
        .e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS32, ELFDATA2LSB, EV_CURRENT},
        .e_type = ET_EXEC,
        .e_machine = EM_386,
        .e_version = EV_CURRENT,
        .e_ehsize = sizeof(Elf32_Ehdr),
        .e_shentsize = sizeof(Elf32_Shdr),
        .e_shnum = 4,
        .e_shstrndx = 1};
    put(&f, &eh, sizeof(eh));
    static const char names[] = "\0.shstrtab\0.debug_info\0.debug_loc";
    Elf32_Shdr sh[4] = {{0}};
    sh[1] = (Elf32_Shdr){.sh_name = 1,
                         .sh_type = SHT_STRTAB,
                         .sh_offset = (Elf32_Off)put(&f, names, sizeof(names)),
                         .sh_size = sizeof(names),
                         .sh_addralign = 1};
    for (int i = 0; i < 2; i++) {
        unsigned char buf[2048];
        Elf32_Chdr ch = {
            .ch_type = ELFCOMPRESS_ZLIB, .ch_size = sizeof(s[i].content), .ch_addralign = 1};
        uLongf len = sizeof(buf) - sizeof(ch);
        assert_int_equal(compress2(buf + sizeof(ch), &len, s[i].content, sizeof(s[i].content), 9),
                         Z_OK);
        memcpy(buf, &ch, sizeof(ch));
        sh[i + 2] = (Elf32_Shdr){.sh_name = i == 0 ? 11 : 23,
                                 .sh_type = SHT_PROGBITS,
                                 .sh_flags = SHF_COMPRESSED,
                                 .sh_offset = (Elf32_Off)put(&f, buf, sizeof(ch) + len),
                                 .sh_size = (Elf32_Word)(sizeof(ch) + len),
                                 .sh_addralign = 4};
    }
    size_t shoff = put(&f, sh, sizeof(sh));
    ((Elf32_Ehdr *)f.bytes)->e_shoff = (Elf32_Off)shoff;
    char *path = temp_file(f.bytes, f.size);
    free(f.bytes);
    struct debug_image img;
    assert_int_equal(debug_image_open(&img, path, NULL), 1);
    assert_int_equal(img.damaged, 0);
    assert_inflated(img.elf, 2, &s[0]);
    assert_hidden(img.elf, 3);
    debug_image_close(&img);
    unlink(path);
    free(path);
    free(s);
}

static void left_to_libdw(void **state)
{
    (void)state;
    struct test_section *s = sections_of(2);
    const char *cases[][2] = {{".debug_info", ".debug_line"},        /* nothing compressed */
                              {".zdebug_info", ".debug_line"},       /* GNU compression */
                              {".debug_info", ".gnu_debugaltlink"}}; /* dwz */
    for (size_t c = 0; c < 3; c++) {
        s[0].name = cases[c][0], s[1].name = cases[c][1];
        s[0].store = c == 0 ? PLAIN : ZLIB, s[1].store = PLAIN;
        char *path = write_elf(s, 2);
        struct debug_image img;
        assert_int_equal(debug_image_open(&img, path, NULL), 0);
        assert_null(img.elf);
        debug_image_close(&img);
        unlink(path);
        free(path);
    }
    struct debug_image img;
    assert_int_equal(debug_image_open(&img, "/nonexistent/file.debug", NULL), 0);
    assert_int_equal(debug_image_open(&img, NULL, NULL), 0);
    assert_int_equal(debug_image_open(&img, "/dev/null", NULL), 0);
    free(s);
}

/* Opens a damaged copy of `bytes`; whatever it makes must read as an ELF file. */
static void open_bytes(const unsigned char *bytes, size_t size)
{
    char *path = temp_file(bytes, size);
    struct debug_image img;
    int rc = debug_image_open(&img, path, NULL);
    assert_true(rc == 0 || rc == 1);
    if (rc == 1) {
        for (Elf_Scn *scn = elf_nextscn(img.elf, NULL); scn; scn = elf_nextscn(img.elf, scn)) {
            GElf_Shdr sh;
            if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
                !(sh.sh_flags & SHF_COMPRESSED))
                elf_getdata(scn, NULL);
        }
        Dwarf *dw = dwarf_begin_elf(img.elf, DWARF_C_READ, NULL);
        if (dw)
            dwarf_end(dw);
    }
    debug_image_close(&img);
    unlink(path);
    free(path);
}

/* Units and lines (wanted) around location lists (not), all compressed. */
static struct test_section *three_sections(void)
{
    struct test_section *s = sections_of(3);
    s[0].name = ".debug_info", s[0].store = ZLIB;
    s[1].name = ".debug_loclists", s[1].store = ZLIB;
    s[2].name = ".debug_line", s[2].store = ZLIB;
    return s;
}

static void cut_and_flipped_files(void **state)
{
    (void)state;
    struct test_section *s = three_sections();
    char *path = write_elf(s, 3);
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    unsigned char bytes[8192];
    size_t size = fread(bytes, 1, sizeof(bytes), in);
    fclose(in);
    unlink(path);
    free(path);
    for (size_t cut = 0; cut < size; cut += 7)
        open_bytes(bytes, cut);
    size_t shoff = (size_t)((Elf64_Ehdr *)bytes)->e_shoff;
    unsigned char copy[8192];
    for (size_t i = 0; i < size; i++) {
        if (i >= sizeof(Elf64_Ehdr) && i < shoff && i % 5) /* section bytes: a sample */
            continue;
        for (unsigned v = 0; v < 3; v++) {
            memcpy(copy, bytes, size);
            copy[i] = (unsigned char)(v == 0 ? 0xff : v == 1 ? 0 : copy[i] ^ 0x80);
            open_bytes(copy, size);
        }
    }
    free(s);
}

/* The one cache file in `dir` (there is one per debug file), into `out`. */
static void cache_file(const char *dir, char *out, size_t size)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int found = 0, fits = 1;
    for (struct dirent *e; (e = readdir(d));)
        if (strncmp(e->d_name, "debug-", 6) == 0)
            found++, fits = snprintf(out, size, "%s/%s", dir, e->d_name) < (int)size;
    closedir(d);
    assert_int_equal(found, 1);
    assert_true(fits);
}

/* Opens `path` with the cache in `dir`: the sections inflated (or mapped) right. */
static bool open_cached(const char *path, const char *dir, const struct test_section *s)
{
    struct debug_image img;
    assert_int_equal(debug_image_open(&img, path, dir), 1);
    assert_int_equal(img.damaged, 0);
    assert_inflated(img.elf, 2, &s[0]);
    assert_hidden(img.elf, 3);
    assert_inflated(img.elf, 4, &s[2]);
    bool cached = img.cached;
    debug_image_close(&img);
    return cached;
}

/*
 * The cache: stored at the first open, mapped at the next (same bytes);
 * a cut, flipped or stale file is not used and is replaced; a debug file
 * that changed gets a file of its own; a directory that cannot be made
 * leaves the sections inflated.
 */
static void cached_sections(void **state)
{
    (void)state;
    struct test_section *s = three_sections();
    char *path = write_elf(s, 3);
    char root[] = "/tmp/test_debug_cache.XXXXXX";
    assert_non_null(mkdtemp(root));
    char dir[100], file[200], cmd[150];
    snprintf(dir, sizeof(dir), "%s/a/b", root); /* made as needed */
    assert_false(open_cached(path, dir, s));
    cache_file(dir, file, sizeof(file));
    assert_true(open_cached(path, dir, s));
    assert_true(open_cached(path, dir, s));
    /* cut: not used, written again */
    assert_int_equal(truncate(file, 4096 + 100), 0);
    assert_false(open_cached(path, dir, s));
    assert_true(open_cached(path, dir, s));
    /* a header byte flipped (the region's size): not used */
    FILE *f = fopen(file, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 56, SEEK_SET), 0);
    fputc(0x5a, f);
    fclose(f);
    assert_false(open_cached(path, dir, s));
    assert_true(open_cached(path, dir, s));
    struct timespec times[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
    /* a file mapped is marked used now (pruning keeps it longest) */
    assert_int_equal(utimensat(AT_FDCWD, file, times, 0), 0);
    assert_true(open_cached(path, dir, s));
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    assert_true(st.st_mtim.tv_sec > 1000000000);
    /* the debug file changed (its modification time): a new file of its own */
    assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
    assert_false(open_cached(path, dir, s));
    assert_true(open_cached(path, dir, s));
    /* no cache, or one that cannot be made */
    struct debug_image img;
    assert_int_equal(debug_image_open(&img, path, ""), 1);
    assert_false(img.cached);
    debug_image_close(&img);
    assert_false(open_cached(path, "/proc/no/such/dir", s));
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
    unlink(path);
    free(path);
    free(s);
}

/* Opens `path` with the cache in `dir` and its store left to `later`; the image is closed. */
static void open_later(const char *path, const char *dir, struct debug_cache_later *later)
{
    struct debug_image img;
    assert_int_equal(debug_image_start(&img, path, dir), 1);
    img.later = later;
    assert_int_equal(debug_image_finish(&img), 1);
    debug_image_close(&img);
}

static bool has_cache_file(const char *dir)
{
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *e; d && (e = readdir(d));)
        found = found || strncmp(e->d_name, "debug-", 6) == 0;
    if (d)
        closedir(d);
    return found;
}

/*
 * A store left for later: nothing is written when the image closes (the
 * list holds its mapping); debug_cache_store_detached writes it from a
 * child, after which the next open maps the same bytes; an image mapped
 * from the cache leaves nothing; a list freed unstored writes nothing.
 */
static void stores_left_for_later(void **state)
{
    (void)state;
    struct test_section *s = three_sections();
    char *path = write_elf(s, 3);
    char dir[] = "/tmp/test_debug_later.XXXXXX", cmd[100];
    assert_non_null(mkdtemp(dir));
    struct debug_cache_later later = {NULL, 0};
    open_later(path, dir, &later);
    assert_int_equal(later.count, 1);
    assert_false(has_cache_file(dir));
    debug_cache_later_free(&later);
    assert_false(has_cache_file(dir));
    open_later(path, dir, &later);
    debug_cache_store_detached(&later);
    assert_int_equal(later.count, 0);
    int status;
    assert_true(wait(&status) > 0); /* the child that writes it */
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(open_cached(path, dir, s));
    open_later(path, dir, &later); /* mapped from the cache: nothing to store */
    assert_int_equal(later.count, 0);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    unlink(path);
    free(path);
    free(s);
}

/* Makes `name` in `dir`, `size` bytes, last modified at `when` (0: now). */
static void make_file(const char *dir, const char *name, size_t size, time_t when)
{
    char path[300];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < size; i++)
        fputc('x', f);
    fclose(f);
    if (when) {
        struct timespec times[2] = {{.tv_sec = when}, {.tv_sec = when}};
        assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
    }
}

static bool file_there(const char *dir, const char *name)
{
    char path[300];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/*
 * Pruning: the cache files used longest ago go first until the rest fit,
 * never the one kept; a writer's temporary goes once it is an hour old;
 * other files stay.
 */
static void pruned_cache(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_debug_prune.XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *a = "debug-00000000000000aa", *b = "debug-00000000000000bb",
               *c = "debug-00000000000000cc";
    make_file(dir, a, 300, 1000000100); /* the oldest, but kept */
    make_file(dir, b, 300, 1000000200);
    make_file(dir, c, 300, 1000000300);
    make_file(dir, "notes.txt", 5000, 1000000000);
    make_file(dir, "debug-00000000000000dd.123.tmp", 300, 1000000000);
    make_file(dir, "debug-00000000000000ee.456.tmp", 300, 0);  /* being written */
    make_file(dir, "debug-0000000000000xyz", 300, 1000000000); /* not a cache name */
    debug_cache_prune(dir, 650, a);
    assert_true(file_there(dir, a));
    assert_false(file_there(dir, b));
    assert_true(file_there(dir, c));
    assert_true(file_there(dir, "notes.txt"));
    assert_false(file_there(dir, "debug-00000000000000dd.123.tmp"));
    assert_true(file_there(dir, "debug-00000000000000ee.456.tmp"));
    assert_true(file_there(dir, "debug-0000000000000xyz"));
    debug_cache_prune(dir, 600, NULL); /* fits: nothing goes */
    assert_true(file_there(dir, a) && file_there(dir, c));
    debug_cache_prune(dir, 0, NULL);
    assert_false(file_there(dir, a) || file_there(dir, c));
    assert_true(file_there(dir, "notes.txt"));
    debug_cache_prune("/proc/no/such/dir", 0, NULL);
    debug_cache_prune("", 0, NULL);
    char cmd[100];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Compressible bytes of many kinds (runs, repeats, noise), `n` long. */
static void long_content(unsigned char *p, size_t n, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (i / 4096) % 3 == 0   ? (unsigned char)(x >> 24)                      /* noise */
               : (i / 4096) % 3 == 1 ? (unsigned char)("DW_TAG_"[i % 7] + (x >> 30)) /* text */
                                     : (unsigned char)(i >> 10);                     /* runs */
    }
}

/*
 * Compressed-section bytes (Elf64_Chdr, zlib stream) of `n` bytes of
 * long_content, damaged as `store` says (ZLIB, GARBAGE or CUT); malloc'd.
 */
static unsigned char *long_section(size_t n, unsigned seed, enum store store, size_t *size,
                                   unsigned char **content)
{
    *content = malloc(n);
    assert_non_null(*content);
    long_content(*content, n, seed);
    uLongf len = compressBound(n);
    unsigned char *bytes = malloc(sizeof(Elf64_Chdr) + len);
    assert_non_null(bytes);
    assert_int_equal(compress2(bytes + sizeof(Elf64_Chdr), &len, *content, n, 6), Z_OK);
    /* the reference: zlib's own uncompress, checksum included */
    unsigned char *back = malloc(n);
    uLongf back_len = n;
    assert_int_equal(uncompress(back, &back_len, bytes + sizeof(Elf64_Chdr), len), Z_OK);
    assert_int_equal(back_len, n);
    assert_memory_equal(back, *content, n);
    free(back);
    if (store == GARBAGE)
        fill(bytes + sizeof(Elf64_Chdr) + len / 2, len - len / 2, 5);
    if (store == CUT)
        len -= len / 3;
    Elf64_Chdr ch = {.ch_type = ELFCOMPRESS_ZLIB, .ch_size = n, .ch_addralign = 1};
    memcpy(bytes, &ch, sizeof(ch));
    *size = sizeof(ch) + len;
    return bytes;
}

#define POOL_JOBS 9

static void inflate_pool(void **state)
{
    (void)state;
    static const size_t sizes[POOL_JOBS] = {1,     100,     4096,   65537, 3 << 20,
                                            70000, 1 << 20, 300000, 12345};
    static const enum store stores[POOL_JOBS] = {ZLIB, ZLIB, CUT,     ZLIB, ZLIB,
                                                 CUT,  ZLIB, GARBAGE, ZLIB};
    unsigned char *bytes[POOL_JOBS], *content[POOL_JOBS];
    size_t size[POOL_JOBS];
    for (size_t i = 0; i < POOL_JOBS; i++)
        bytes[i] = long_section(sizes[i], (unsigned)i, stores[i], &size[i], &content[i]);
    for (unsigned workers = 0; workers <= 4; workers++) {
        struct debug_inflate_job jobs[POOL_JOBS];
        for (size_t i = 0; i < POOL_JOBS; i++) {
            jobs[i] = (struct debug_inflate_job){.bytes = bytes[i],
                                                 .size = size[i],
                                                 .out = calloc(1, sizes[i]),
                                                 .out_size = sizes[i],
                                                 .tag = i};
            assert_non_null(jobs[i].out);
        }
        struct debug_inflate_pool pool;
        debug_inflate_start(&pool, jobs, POOL_JOBS, true, workers);
        debug_inflate_finish(&pool);
        bool seen[POOL_JOBS] = {false};
        for (size_t k = 0; k < POOL_JOBS; k++) {
            size_t i = jobs[k].tag;
            assert_true(i < POOL_JOBS && !seen[i]);
            seen[i] = true;
            assert_int_equal(jobs[k].ok, stores[i] == ZLIB);
            if (jobs[k].ok)
                assert_memory_equal(jobs[k].out, content[i], sizes[i]);
            /* one at a time, as the pool does each */
            unsigned char *one = malloc(sizes[i]);
            assert_int_equal(debug_inflate(bytes[i], size[i], true, one, sizes[i]) == 0,
                             stores[i] == ZLIB);
            free(one);
            free(jobs[k].out);
        }
    }
    struct debug_inflate_pool pool; /* no jobs */
    debug_inflate_start(&pool, NULL, 0, true, 3);
    debug_inflate_finish(&pool);
    for (size_t i = 0; i < POOL_JOBS; i++)
        free(bytes[i]), free(content[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wanted_sections),       cmocka_unit_test(inflated_hidden_and_damaged),
        cmocka_unit_test(elf32_sections),        cmocka_unit_test(left_to_libdw),
        cmocka_unit_test(cut_and_flipped_files), cmocka_unit_test(cached_sections),
        cmocka_unit_test(pruned_cache),          cmocka_unit_test(inflate_pool),
        cmocka_unit_test(stores_left_for_later),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
