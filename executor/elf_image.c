/*
 * elf_image: load a guest ELF with libelf and refuse, with a reason, any
 * file the executor could not run exactly (docs/CONTRACT.md#accepted-elf-files).
 */
#include "executor/elf_image.h"

#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "executor/r0bf.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#ifndef EF_RISCV_RVC
#define EF_RISCV_RVC 0x1
#endif

/* Reads a whole regular file into a malloc'd buffer. */
static int read_whole_file(const char *path, uint8_t **data, size_t *size, struct error *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return error_fail(e, ERROR_UNREADABLE, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return error_fail(e, ERROR_UNREADABLE, "not a regular file");
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        fclose(f);
        return error_fail(e, ERROR_NO_MEMORY, "out of memory reading %zu bytes", n);
    }
    size_t got = fread(buf, 1, n, f);
    int read_error = ferror(f);
    fclose(f);
    if (got != n || read_error) {
        free(buf);
        return error_fail(e, ERROR_UNREADABLE, "read error");
    }
    *data = buf;
    *size = n;
    return 0;
}

/*
 * A flat image's first word: a 32-bit RISC-V instruction a start routine
 * begins with (lui, auipc, jal, addi, a CSR access), as objcopy -O binary
 * writes a program's text (ZKsync Airbender's app.bin beside its app.elf).
 */
static bool starts_with_riscv_code(const uint8_t *file, size_t size, uint32_t *w)
{
    if (size < 8)
        return false;
    *w = (uint32_t)file[0] | (uint32_t)file[1] << 8 | (uint32_t)file[2] << 16 |
         (uint32_t)file[3] << 24;
    unsigned op = *w & 0x7f;
    return op == 0x37 || op == 0x17 || op == 0x6f || op == 0x13 || op == 0x73;
}

/* The identification bytes, checked by hand so that the reason is exact. */
static int check_ident(const uint8_t *file, size_t size, struct error *e)
{
    uint32_t w;
    if ((size < EI_NIDENT || memcmp(file, ELFMAG, SELFMAG) != 0) &&
        starts_with_riscv_code(file, size, &w))
        return error_fail(e, ERROR_CORRUPT,
                          "not an ELF file but a raw binary image (its first word, 0x%08x, is a "
                          "RISC-V instruction), such as ZKsync Airbender's app.bin: it has no "
                          "entry point or segments; run Airbender's with --zkvm airbender "
                          "--symbols app.elf (the ELF it was made from, for names)",
                          w);
    if (size < EI_NIDENT || memcmp(file, ELFMAG, SELFMAG) != 0)
        return error_fail(e, ERROR_CORRUPT, "not an ELF file (bad magic)");
    if (file[EI_CLASS] != ELFCLASS32 && file[EI_CLASS] != ELFCLASS64)
        return error_fail(e, ERROR_CORRUPT,
                          "unsupported ELF class %u (need ELFCLASS32 or ELFCLASS64)",
                          file[EI_CLASS]);
    if (file[EI_DATA] != ELFDATA2LSB)
        return error_fail(e, ERROR_UNSUPPORTED,
                          "not a little-endian ELF (RISC-V guests are little endian)");
    size_t ehdr_size = file[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
    if (size < ehdr_size)
        return error_fail(e, ERROR_CORRUPT, "truncated ELF header (%zu of %zu bytes)", size,
                          ehdr_size);
    return 0;
}

static int check_header(const GElf_Ehdr *eh, struct error *e)
{
    if (eh->e_machine != EM_RISCV)
        return error_fail(e, ERROR_UNSUPPORTED, "not a RISC-V ELF (e_machine %u)", eh->e_machine);
    if (eh->e_type != ET_EXEC)
        return error_fail(e, ERROR_UNSUPPORTED, "not a static executable (e_type %u, need ET_EXEC)",
                          eh->e_type);
    return 0;
}

static unsigned rights_of(const GElf_Phdr *ph)
{
    return (ph->p_flags & PF_R ? SEG_R : 0) | (ph->p_flags & PF_W ? SEG_W : 0) |
           (ph->p_flags & PF_X ? SEG_X : 0);
}

/* Checks one PT_LOAD against the file and the address space. */
static int check_segment(size_t index, const GElf_Phdr *ph, size_t file_size,
                         const struct elf_limits *lim, struct error *e)
{
    if (ph->p_filesz > ph->p_memsz)
        return error_fail(e, ERROR_CORRUPT,
                          "segment %zu has p_filesz 0x%llx larger than p_memsz 0x%llx", index,
                          (unsigned long long)ph->p_filesz, (unsigned long long)ph->p_memsz);
    if (ph->p_offset > file_size || ph->p_filesz > file_size - ph->p_offset)
        return error_fail(e, ERROR_CORRUPT,
                          "segment %zu data lies past the end of the file (truncated?)", index);
    uint64_t end = ph->p_vaddr + ph->p_memsz;
    if (end < ph->p_vaddr || end > lim->address_space_end)
        return error_fail(e, ERROR_UNSUPPORTED,
                          "segment %zu [0x%llx, +0x%llx) lies outside the guest address space "
                          "[0, 0x%llx)",
                          index, (unsigned long long)ph->p_vaddr, (unsigned long long)ph->p_memsz,
                          (unsigned long long)lim->address_space_end);
    if (ph->p_vaddr < lim->reserved_end && end > lim->reserved_start)
        return error_fail(e, ERROR_UNSUPPORTED,
                          "segment %zu [0x%llx, 0x%llx) overlaps the stack region [0x%llx, 0x%llx) "
                          "(try a smaller --stack-size)",
                          index, (unsigned long long)ph->p_vaddr, (unsigned long long)end,
                          (unsigned long long)lim->reserved_start,
                          (unsigned long long)lim->reserved_end);
    return 0;
}

static int check_no_overlap(const struct elf_image *img, struct error *e)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *a = &img->segments[i];
        for (size_t j = i + 1; j < img->nsegments; j++) {
            const struct elf_segment *b = &img->segments[j];
            if (a->vaddr < b->vaddr + b->memsz && b->vaddr < a->vaddr + a->memsz)
                return error_fail(
                    e, ERROR_CORRUPT, "segments overlap: [0x%llx, 0x%llx) and [0x%llx, 0x%llx)",
                    (unsigned long long)a->vaddr, (unsigned long long)(a->vaddr + a->memsz),
                    (unsigned long long)b->vaddr, (unsigned long long)(b->vaddr + b->memsz));
        }
    }
    return 0;
}

void elf_image_exec_span(const struct elf_image *img, uint64_t *lo, uint64_t *hi)
{
    *lo = UINT64_MAX;
    *hi = 0;
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (!(s->rights & SEG_X))
            continue;
        if (s->vaddr < *lo)
            *lo = s->vaddr;
        if (s->vaddr + s->memsz > *hi)
            *hi = s->vaddr + s->memsz;
    }
}

int elf_image_check_code_span(const struct elf_image *img, uint64_t max, struct error *e)
{
    uint64_t lo, hi;
    elf_image_exec_span(img, &lo, &hi);
    if (max && hi > lo && hi - lo > max)
        return error_fail(
            e, ERROR_UNSUPPORTED,
            "the executable segments span 0x%llx bytes, more than the %llu MiB supported",
            (unsigned long long)(hi - lo), (unsigned long long)(max >> 20));
    return 0;
}

static int check_code_span(const struct elf_image *img, const struct elf_limits *lim,
                           struct error *e)
{
    return elf_image_check_code_span(img, lim->code_span_max, e);
}

static int check_entry(const struct elf_image *img, struct error *e)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if ((s->rights & SEG_X) && img->entry >= s->vaddr && img->entry - s->vaddr < s->memsz) {
            unsigned align = elf_image_insn_align(img);
            if (img->entry & (align - 1))
                return error_fail(e, ERROR_CORRUPT, "entry point 0x%llx is not %u-byte aligned",
                                  (unsigned long long)img->entry, align);
            return 0;
        }
    }
    return error_fail(e, ERROR_CORRUPT, "entry point 0x%llx is not inside an executable segment",
                      (unsigned long long)img->entry);
}

/* libelf quietly reports no program headers when they lie past the end; we say so. */
static int check_phdr_table(const GElf_Ehdr *eh, int elf_class, size_t file_size, struct error *e)
{
    size_t entsize = elf_class == ELFCLASS32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr);
    if (eh->e_phnum == 0)
        return error_fail(e, ERROR_CORRUPT, "no program headers (e_phnum is 0)");
    if (eh->e_phentsize != entsize)
        return error_fail(e, ERROR_CORRUPT, "corrupt ELF header: e_phentsize %u, expected %zu",
                          eh->e_phentsize, entsize);
    uint64_t table = (uint64_t)eh->e_phnum * entsize;
    if (eh->e_phoff > file_size || table > file_size - eh->e_phoff)
        return error_fail(e, ERROR_CORRUPT,
                          "truncated program headers: %u entries at offset 0x%llx, file size %zu",
                          eh->e_phnum, (unsigned long long)eh->e_phoff, file_size);
    return 0;
}

/* Collects the PT_LOAD segments with libelf, checking each. */
static int collect_segments(Elf *elf, struct elf_image *img, const struct elf_limits *lim,
                            struct error *e)
{
    size_t phnum;
    if (elf_getphdrnum(elf, &phnum) != 0)
        return error_fail(e, ERROR_CORRUPT, "truncated or corrupt program headers: %s",
                          elf_errmsg(-1));
    img->segments = calloc(phnum ? phnum : 1, sizeof(*img->segments));
    if (!img->segments)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph))
            return error_fail(e, ERROR_CORRUPT, "truncated or corrupt program header %zu: %s", i,
                              elf_errmsg(-1));
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        int err = check_segment(i, &ph, img->file_size, lim, e);
        if (err)
            return err;
        img->segments[img->nsegments++] = (struct elf_segment){
            .vaddr = ph.p_vaddr,
            .memsz = ph.p_memsz,
            .filesz = ph.p_filesz,
            .data = img->file + ph.p_offset,
            .rights = rights_of(&ph),
        };
    }
    if (img->nsegments == 0)
        return error_fail(e, ERROR_CORRUPT, "no loadable (PT_LOAD) segments");
    return 0;
}

static int parse(struct elf_image *img, const struct elf_limits *lim, struct error *e)
{
    int err = check_ident(img->file, img->file_size, e);
    if (err)
        return err;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return error_fail(e, ERROR_UNSUPPORTED, "libelf initialisation failed");
    Elf *elf = elf_memory((char *)img->file, img->file_size);
    if (!elf)
        return error_fail(e, ERROR_CORRUPT, "corrupt ELF: %s", elf_errmsg(-1));
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh)) {
        err = error_fail(e, ERROR_CORRUPT, "truncated or corrupt ELF header: %s", elf_errmsg(-1));
    } else {
        img->xlen = gelf_getclass(elf) == ELFCLASS32 ? 32 : 64;
        img->entry = eh.e_entry;
        img->rvc = eh.e_flags & EF_RISCV_RVC;
        err = check_header(&eh, e);
        if (!err)
            err = check_phdr_table(&eh, gelf_getclass(elf), img->file_size, e);
        if (!err)
            err = collect_segments(elf, img, lim, e);
        if (!err)
            err = check_no_overlap(img, e);
        if (!err)
            err = check_code_span(img, lim, e);
        if (!err)
            err = check_entry(img, e);
    }
    elf_end(elf);
    return err;
}

int elf_image_from_memory(uint8_t *file, size_t size, const struct elf_limits *limits,
                          struct elf_image *out, struct error *e)
{
    memset(out, 0, sizeof(*out));
    out->file = file;
    out->file_size = size;
    int err = parse(out, limits, e);
    if (err)
        elf_image_free(out);
    return err;
}

/* Replaces a RISC Zero program binary in *file by the user ELF it holds. */
static int unpack_r0bf(uint8_t **file, size_t *size, struct error *e)
{
    size_t offset, len;
    if (r0bf_user_elf(*file, *size, &offset, &len, e) != 0) {
        free(*file);
        return -1;
    }
    memmove(*file, *file + offset, len);
    *size = len;
    return 0;
}

int elf_image_load(const char *path, const struct elf_limits *limits, struct elf_image *out,
                   struct error *e)
{
    uint8_t *file = NULL;
    size_t size = 0;
    memset(out, 0, sizeof(*out));
    int err = read_whole_file(path, &file, &size, e);
    if (err)
        return err;
    bool container = r0bf_is_container(file, size);
    if (container) {
        err = unpack_r0bf(&file, &size, e);
        if (err)
            return err;
    }
    err = elf_image_from_memory(file, size, limits, out, e);
    if (err)
        return err;
    out->container = container ? "R0BF" : NULL;
    out->path = strdup(path);
    if (!out->path) {
        elf_image_free(out);
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    return 0;
}

bool elf_image_file_is_raw(const char *path)
{
    uint8_t head[8];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(head, 1, sizeof(head), f);
    fclose(f);
    uint32_t w;
    return n == sizeof(head) && memcmp(head, ELFMAG, SELFMAG) != 0 &&
           starts_with_riscv_code(head, n, &w);
}

/* The --symbols ELF's bytes as the image's file, unparsed: symtab and DWARF read them. */
static int attach_symbol_file(struct elf_image *img, const char *symbols, struct error *e)
{
    if (!symbols)
        return 0;
    int err = read_whole_file(symbols, &img->file, &img->file_size, e);
    if (!err && (img->file_size < SELFMAG || memcmp(img->file, ELFMAG, SELFMAG) != 0))
        err = error_fail(e, ERROR_CORRUPT, "the symbols file %s is not an ELF file", symbols);
    return err;
}

int elf_image_load_raw(const char *path, uint64_t base, const char *symbols,
                       const struct elf_limits *limits, struct elf_image *out, struct error *e)
{
    memset(out, 0, sizeof(*out));
    int err = read_whole_file(path, &out->raw, &out->raw_size, e);
    if (err)
        return err;
    if (out->raw_size == 0 || base + out->raw_size > limits->address_space_end)
        err = error_fail(e, ERROR_UNSUPPORTED,
                         "the raw image (%zu bytes at 0x%llx) is empty or "
                         "past the guest's address space",
                         out->raw_size, (unsigned long long)base);
    out->segments = err ? NULL : calloc(1, sizeof(*out->segments));
    if (!err && !out->segments)
        err = error_fail(e, ERROR_NO_MEMORY, "out of memory");
    if (!err) {
        out->segments[0] = (struct elf_segment){.vaddr = base,
                                                .memsz = out->raw_size,
                                                .filesz = out->raw_size,
                                                .data = out->raw,
                                                .rights = SEG_R | SEG_X};
        out->nsegments = 1;
        out->xlen = 32;
        out->entry = base;
        out->path = strdup(path);
        err = out->path ? attach_symbol_file(out, symbols, e)
                        : error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    if (err)
        elf_image_free(out);
    return err;
}

void elf_image_free(struct elf_image *img)
{
    free(img->path);
    free(img->raw);
    free(img->file);
    free(img->segments);
    memset(img, 0, sizeof(*img));
}

int elf_image_drop_c(struct elf_image *img, struct error *e)
{
    if (img->entry & 3)
        return error_fail(e, ERROR_UNSUPPORTED,
                          "entry point 0x%llx is not 4-byte aligned, as a hart without C needs",
                          (unsigned long long)img->entry);
    img->rvc = false;
    return 0;
}

unsigned elf_image_insn_length(const struct elf_image *img, uint64_t pc)
{
    if (!img->rvc)
        return 4;
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (pc >= s->vaddr && pc - s->vaddr < s->filesz)
            return (s->data[pc - s->vaddr] & 3) == 3 ? 4 : 2;
    }
    return 4;
}
