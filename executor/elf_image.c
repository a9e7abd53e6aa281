/*
 * elf_image: load a guest ELF with libelf and refuse, with a reason, any
 * file the executor could not run exactly (docs/CONTRACT.md#accepted-elf-files).
 */
#include "executor/elf_image.h"

#include <errno.h>
#include <gelf.h>
#include <stdarg.h>
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

static enum elf_error fail(enum elf_error err, char *why, size_t why_size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum elf_error fail(enum elf_error err, char *why, size_t why_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
    return err;
}

/* Reads a whole regular file into a malloc'd buffer. */
static enum elf_error read_whole_file(const char *path, uint8_t **data, size_t *size, char *why,
                                      size_t why_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(ELF_ERR_READ, why, why_size, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return fail(ELF_ERR_READ, why, why_size, "not a regular file");
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        fclose(f);
        return fail(ELF_ERR_NOMEM, why, why_size, "out of memory reading %zu bytes", n);
    }
    size_t got = fread(buf, 1, n, f);
    int read_error = ferror(f);
    fclose(f);
    if (got != n || read_error) {
        free(buf);
        return fail(ELF_ERR_READ, why, why_size, "read error");
    }
    *data = buf;
    *size = n;
    return ELF_OK;
}

/* The identification bytes, checked by hand so that the reason is exact. */
static enum elf_error check_ident(const uint8_t *file, size_t size, char *why, size_t why_size)
{
    if (size < EI_NIDENT || memcmp(file, ELFMAG, SELFMAG) != 0)
        return fail(ELF_ERR_UNUSABLE, why, why_size, "not an ELF file (bad magic)");
    if (file[EI_CLASS] != ELFCLASS32 && file[EI_CLASS] != ELFCLASS64)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "unsupported ELF class %u (need ELFCLASS32 or ELFCLASS64)", file[EI_CLASS]);
    if (file[EI_DATA] != ELFDATA2LSB)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "not a little-endian ELF (RISC-V guests are little endian)");
    size_t ehdr_size = file[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
    if (size < ehdr_size)
        return fail(ELF_ERR_UNUSABLE, why, why_size, "truncated ELF header (%zu of %zu bytes)",
                    size, ehdr_size);
    return ELF_OK;
}

static enum elf_error check_header(const GElf_Ehdr *eh, char *why, size_t why_size)
{
    if (eh->e_machine != EM_RISCV)
        return fail(ELF_ERR_UNUSABLE, why, why_size, "not a RISC-V ELF (e_machine %u)",
                    eh->e_machine);
    if (eh->e_type != ET_EXEC)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "not a static executable (e_type %u, need ET_EXEC)", eh->e_type);
    if (eh->e_flags & EF_RISCV_RVC)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "built with compressed (RVC) instructions, which are not supported yet: "
                    "rebuild with -march=rv32im or -march=rv64im");
    return ELF_OK;
}

static unsigned rights_of(const GElf_Phdr *ph)
{
    return (ph->p_flags & PF_R ? SEG_R : 0) | (ph->p_flags & PF_W ? SEG_W : 0) |
           (ph->p_flags & PF_X ? SEG_X : 0);
}

/* Checks one PT_LOAD against the file and the address space. */
static enum elf_error check_segment(size_t index, const GElf_Phdr *ph, size_t file_size,
                                    const struct elf_limits *lim, char *why, size_t why_size)
{
    if (ph->p_filesz > ph->p_memsz)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "segment %zu has p_filesz 0x%llx larger than p_memsz 0x%llx", index,
                    (unsigned long long)ph->p_filesz, (unsigned long long)ph->p_memsz);
    if (ph->p_offset > file_size || ph->p_filesz > file_size - ph->p_offset)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "segment %zu data lies past the end of the file (truncated?)", index);
    uint64_t end = ph->p_vaddr + ph->p_memsz;
    if (end < ph->p_vaddr || end > lim->address_space_end)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "segment %zu [0x%llx, +0x%llx) lies outside the guest address space "
                    "[0, 0x%llx)",
                    index, (unsigned long long)ph->p_vaddr, (unsigned long long)ph->p_memsz,
                    (unsigned long long)lim->address_space_end);
    if (ph->p_vaddr < lim->reserved_end && end > lim->reserved_start)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "segment %zu [0x%llx, 0x%llx) overlaps the stack region [0x%llx, 0x%llx) "
                    "(try a smaller --stack-size)",
                    index, (unsigned long long)ph->p_vaddr, (unsigned long long)end,
                    (unsigned long long)lim->reserved_start, (unsigned long long)lim->reserved_end);
    return ELF_OK;
}

static enum elf_error check_no_overlap(const struct elf_image *img, char *why, size_t why_size)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *a = &img->segments[i];
        for (size_t j = i + 1; j < img->nsegments; j++) {
            const struct elf_segment *b = &img->segments[j];
            if (a->vaddr < b->vaddr + b->memsz && b->vaddr < a->vaddr + a->memsz)
                return fail(ELF_ERR_UNUSABLE, why, why_size,
                            "segments overlap: [0x%llx, 0x%llx) and [0x%llx, 0x%llx)",
                            (unsigned long long)a->vaddr, (unsigned long long)(a->vaddr + a->memsz),
                            (unsigned long long)b->vaddr,
                            (unsigned long long)(b->vaddr + b->memsz));
        }
    }
    return ELF_OK;
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

static enum elf_error check_code_span(const struct elf_image *img, const struct elf_limits *lim,
                                      char *why, size_t why_size)
{
    uint64_t lo, hi;
    elf_image_exec_span(img, &lo, &hi);
    if (lim->code_span_max && hi > lo && hi - lo > lim->code_span_max)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "the executable segments span 0x%llx bytes, more than the %llu MiB supported",
                    (unsigned long long)(hi - lo), (unsigned long long)(lim->code_span_max >> 20));
    return ELF_OK;
}

static enum elf_error check_entry(const struct elf_image *img, char *why, size_t why_size)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if ((s->rights & SEG_X) && img->entry >= s->vaddr && img->entry - s->vaddr < s->memsz) {
            if (img->entry & 3)
                return fail(ELF_ERR_UNUSABLE, why, why_size,
                            "entry point 0x%llx is not 4-byte aligned",
                            (unsigned long long)img->entry);
            return ELF_OK;
        }
    }
    return fail(ELF_ERR_UNUSABLE, why, why_size,
                "entry point 0x%llx is not inside an executable segment",
                (unsigned long long)img->entry);
}

/* libelf quietly reports no program headers when they lie past the end; we say so. */
static enum elf_error check_phdr_table(const GElf_Ehdr *eh, int elf_class, size_t file_size,
                                       char *why, size_t why_size)
{
    size_t entsize = elf_class == ELFCLASS32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr);
    if (eh->e_phnum == 0)
        return fail(ELF_ERR_UNUSABLE, why, why_size, "no program headers (e_phnum is 0)");
    if (eh->e_phentsize != entsize)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "corrupt ELF header: e_phentsize %u, expected %zu", eh->e_phentsize, entsize);
    uint64_t table = (uint64_t)eh->e_phnum * entsize;
    if (eh->e_phoff > file_size || table > file_size - eh->e_phoff)
        return fail(ELF_ERR_UNUSABLE, why, why_size,
                    "truncated program headers: %u entries at offset 0x%llx, file size %zu",
                    eh->e_phnum, (unsigned long long)eh->e_phoff, file_size);
    return ELF_OK;
}

/* Collects the PT_LOAD segments with libelf, checking each. */
static enum elf_error collect_segments(Elf *elf, struct elf_image *img,
                                       const struct elf_limits *lim, char *why, size_t why_size)
{
    size_t phnum;
    if (elf_getphdrnum(elf, &phnum) != 0)
        return fail(ELF_ERR_UNUSABLE, why, why_size, "truncated or corrupt program headers: %s",
                    elf_errmsg(-1));
    img->segments = calloc(phnum ? phnum : 1, sizeof(*img->segments));
    if (!img->segments)
        return fail(ELF_ERR_NOMEM, why, why_size, "out of memory");
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph))
            return fail(ELF_ERR_UNUSABLE, why, why_size,
                        "truncated or corrupt program header %zu: %s", i, elf_errmsg(-1));
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        enum elf_error err = check_segment(i, &ph, img->file_size, lim, why, why_size);
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
        return fail(ELF_ERR_UNUSABLE, why, why_size, "no loadable (PT_LOAD) segments");
    return ELF_OK;
}

static enum elf_error parse(struct elf_image *img, const struct elf_limits *lim, char *why,
                            size_t why_size)
{
    enum elf_error err = check_ident(img->file, img->file_size, why, why_size);
    if (err)
        return err;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return fail(ELF_ERR_UNUSABLE, why, why_size, "libelf initialisation failed");
    Elf *elf = elf_memory((char *)img->file, img->file_size);
    if (!elf)
        return fail(ELF_ERR_UNUSABLE, why, why_size, "corrupt ELF: %s", elf_errmsg(-1));
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh)) {
        err = fail(ELF_ERR_UNUSABLE, why, why_size, "truncated or corrupt ELF header: %s",
                   elf_errmsg(-1));
    } else {
        img->xlen = gelf_getclass(elf) == ELFCLASS32 ? 32 : 64;
        img->entry = eh.e_entry;
        err = check_header(&eh, why, why_size);
        if (!err)
            err = check_phdr_table(&eh, gelf_getclass(elf), img->file_size, why, why_size);
        if (!err)
            err = collect_segments(elf, img, lim, why, why_size);
        if (!err)
            err = check_no_overlap(img, why, why_size);
        if (!err)
            err = check_code_span(img, lim, why, why_size);
        if (!err)
            err = check_entry(img, why, why_size);
    }
    elf_end(elf);
    return err;
}

enum elf_error elf_image_from_memory(uint8_t *file, size_t size, const struct elf_limits *limits,
                                     struct elf_image *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof(*out));
    out->file = file;
    out->file_size = size;
    enum elf_error err = parse(out, limits, why, why_size);
    if (err)
        elf_image_free(out);
    return err;
}

/* Replaces a RISC Zero program binary in *file by the user ELF it holds. */
static enum elf_error unpack_r0bf(uint8_t **file, size_t *size, char *why, size_t why_size)
{
    size_t offset, len;
    if (!r0bf_user_elf(*file, *size, &offset, &len, why, why_size)) {
        free(*file);
        return ELF_ERR_UNUSABLE;
    }
    memmove(*file, *file + offset, len);
    *size = len;
    return ELF_OK;
}

enum elf_error elf_image_load(const char *path, const struct elf_limits *limits,
                              struct elf_image *out, char *why, size_t why_size)
{
    uint8_t *file = NULL;
    size_t size = 0;
    memset(out, 0, sizeof(*out));
    enum elf_error err = read_whole_file(path, &file, &size, why, why_size);
    if (err)
        return err;
    bool container = r0bf_is_container(file, size);
    if (container) {
        err = unpack_r0bf(&file, &size, why, why_size);
        if (err)
            return err;
    }
    err = elf_image_from_memory(file, size, limits, out, why, why_size);
    if (err)
        return err;
    out->container = container ? "R0BF" : NULL;
    out->path = strdup(path);
    if (!out->path) {
        elf_image_free(out);
        return fail(ELF_ERR_NOMEM, why, why_size, "out of memory");
    }
    return ELF_OK;
}

void elf_image_free(struct elf_image *img)
{
    free(img->path);
    free(img->file);
    free(img->segments);
    memset(img, 0, sizeof(*img));
}
