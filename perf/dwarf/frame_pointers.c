/*
 * frame_pointers: the prologue census of an ELF file (frame_pointers.h),
 * and the answers perf/perf.h gives from it for a program: its ELF file
 * and the shared libraries it names, found as the loader finds them.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "perf/symbols/elf_file.h"
#include "perf/dwarf/frame_pointers.h"
#include "perf/perf.h"

#define MAX_STARTS     (1u << 20)
#define PROBES         8  /* pcs of a function's body asked for its CFA, less one */
#define LAST_SPAN      64 /* bytes taken for the last function (its end is not known) */
#define X86_64_FP_REG  6  /* rbp's DWARF number */
#define AARCH64_FP_REG 29
#define MAX_NEEDED     64 /* libraries looked at, at most */

/* Function start addresses, collected before the sample is drawn. */
struct starts {
    uint64_t *addr;
    size_t n, cap;
};

static int starts_add(struct starts *s, uint64_t addr)
{
    if (s->n == s->cap) {
        if (s->cap >= MAX_STARTS)
            return 0; /* enough to sample from */
        size_t cap = s->cap ? 2 * s->cap : 256;
        uint64_t *a = realloc(s->addr, cap * sizeof(*a));
        if (!a)
            return -1;
        s->addr = a;
        s->cap = cap;
    }
    s->addr[s->n++] = addr;
    return 0;
}

/* Defined functions of a symbol table with a size (empty ones are labels or stubs). */
static int starts_from_symbols(Elf_Scn *scn, struct starts *s)
{
    GElf_Shdr sh;
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!gelf_getshdr(scn, &sh) || !d || sh.sh_entsize == 0)
        return 0;
    size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym sym;
        if (gelf_getsym(d, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
            sym.st_shndx != SHN_UNDEF && sym.st_size >= 8 && starts_add(s, sym.st_value) != 0)
            return -1;
    }
    return 0;
}

static int32_t read_s32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

/*
 * The initial locations of .eh_frame_hdr's search table, in the encoding
 * every linker writes (the table datarel sdata4, the count udata4, the
 * .eh_frame pointer 4 bytes); any other is left alone.
 */
static int starts_from_eh_frame_hdr(const struct elf_file *ef, struct starts *s)
{
    GElf_Shdr sh;
    Elf_Scn *scn = elf_file_section(ef, ".eh_frame_hdr", &sh, NULL);
    Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
    if (!d || !d->d_buf || d->d_size < 12)
        return 0;
    const uint8_t *p = d->d_buf;
    if (p[0] != 1 || (p[1] & 0x0f) != 0x0b || p[2] != 0x03 || p[3] != 0x3b)
        return 0;
    uint32_t count = (uint32_t)read_s32(p + 8);
    if (count > (d->d_size - 12) / 8)
        return 0;
    for (uint32_t i = 0; i < count; i++)
        if (starts_add(s, sh.sh_addr + (uint64_t)(int64_t)read_s32(p + 12 + 8 * (size_t)i)) != 0)
            return -1;
    return 0;
}

/* Whether the CFA at pc is computed from the frame pointer register `fp_reg`. */
static bool cfa_from_fp(Dwarf_CFI *cfi, uint64_t pc, unsigned fp_reg)
{
    Dwarf_Frame *frame;
    if (dwarf_cfi_addrframe(cfi, pc, &frame) != 0)
        return false;
    Dwarf_Op *ops;
    size_t nops;
    bool fp = dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops >= 1 &&
              (ops[0].atom == DW_OP_bregx ? ops[0].number == fp_reg /* libdw's usual form */
                                          : ops[0].atom == DW_OP_breg0 + fp_reg);
    free(frame);
    return fp;
}

/*
 * Whether the function at [start, end) computes its CFA from the frame
 * pointer somewhere in its body (a shrink-wrapped prologue may set it up
 * after an early exit); -1 when no CFI covers start.
 */
static int function_keeps_fp(Dwarf_CFI *cfi, uint64_t start, uint64_t end, unsigned fp_reg)
{
    Dwarf_Frame *frame;
    if (dwarf_cfi_addrframe(cfi, start, &frame) != 0)
        return -1;
    free(frame);
    for (unsigned k = 1; k < PROBES; k++)
        if (cfa_from_fp(cfi, start + (end - start) * k / PROBES, fp_reg))
            return 1;
    return 0;
}

static int compare_addr(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Looks at up to FRAME_POINTER_SAMPLE distinct starts, spread evenly. */
static void census_of(Dwarf_CFI *cfi, unsigned fp_reg, struct starts *s,
                      struct frame_pointer_census *out)
{
    qsort(s->addr, s->n, sizeof(*s->addr), compare_addr);
    size_t distinct = 0;
    for (size_t i = 0; i < s->n; i++)
        if (distinct == 0 || s->addr[distinct - 1] != s->addr[i])
            s->addr[distinct++] = s->addr[i];
    size_t step = distinct > FRAME_POINTER_SAMPLE ? distinct / FRAME_POINTER_SAMPLE : 1;
    for (size_t i = 0; i < distinct && out->functions < FRAME_POINTER_SAMPLE; i += step) {
        uint64_t end = i + 1 < distinct ? s->addr[i + 1] : s->addr[i] + LAST_SPAN;
        int fp = function_keeps_fp(cfi, s->addr[i], end, fp_reg);
        if (fp < 0)
            continue;
        out->functions++;
        out->with_fp += (unsigned)fp;
    }
}

int frame_pointer_census(const char *path, struct frame_pointer_census *out)
{
    memset(out, 0, sizeof(*out));
    struct elf_file ef;
    if (elf_file_open(&ef, path) != 0)
        return -1;
    GElf_Ehdr eh;
    struct starts s = {0};
    int rc = 0;
    if (gelf_getehdr(ef.elf, &eh) && (eh.e_machine == EM_X86_64 || eh.e_machine == EM_AARCH64)) {
        if (ef.symtab)
            rc = starts_from_symbols(ef.symtab, &s);
        if (rc == 0 && s.n < 16 && ef.dynsym)
            rc = starts_from_symbols(ef.dynsym, &s);
        if (rc == 0 && s.n < 16)
            rc = starts_from_eh_frame_hdr(&ef, &s);
        Dwarf_CFI *cfi = rc == 0 ? dwarf_getcfi_elf(ef.elf) : NULL;
        if (cfi)
            census_of(cfi, eh.e_machine == EM_X86_64 ? X86_64_FP_REG : AARCH64_FP_REG, &s, out);
        if (cfi)
            dwarf_cfi_end(cfi);
    }
    free(s.addr);
    elf_file_close(&ef);
    return rc;
}

/* The runtime libraries whose frames do not decide: the C library, the loader, libgcc, libstdc++.
 */
static bool is_runtime_library(const char *name)
{
    static const char *const prefixes[] = {"libc.so",    "libm.so",      "ld-linux",
                                           "libpthread", "libdl.so",     "librt.so",
                                           "libgcc_s",   "libstdc++.so", "ld64.so"};
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

/* Appends the directories of a colon-separated list, $ORIGIN replaced. */
static void add_dirs(const char *list, const char *origin, char *dirs, size_t size)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof(copy), "%s", list);
    for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        size_t used = strlen(dirs);
        if (strncmp(d, "$ORIGIN", 7) == 0)
            snprintf(dirs + used, size - used, "%s%s:", origin, d + 7);
        else
            snprintf(dirs + used, size - used, "%s:", d);
    }
}

/* What the dynamic section says of the libraries (names into the ELF's string table). */
struct dynamic_facts {
    const char *rpath, *runpath;
    const char *needed[MAX_NEEDED];
    size_t nneeded;
};

/* One walk of `ef`'s .dynamic (no section: all empty). */
static void read_dynamic(const struct elf_file *ef, struct dynamic_facts *df)
{
    memset(df, 0, sizeof(*df));
    GElf_Shdr sh;
    Elf_Scn *dyn = elf_file_section(ef, ".dynamic", &sh, NULL);
    Elf_Data *d = dyn ? elf_getdata(dyn, NULL) : NULL;
    for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
        GElf_Dyn e;
        if (!gelf_getdyn(d, (int)i, &e) || e.d_tag == DT_NULL)
            break;
        const char *text = elf_strptr(ef->elf, sh.sh_link, e.d_un.d_val);
        if (e.d_tag == DT_RPATH)
            df->rpath = text;
        else if (e.d_tag == DT_RUNPATH)
            df->runpath = text;
        else if (e.d_tag == DT_NEEDED && text && df->nneeded < MAX_NEEDED)
            df->needed[df->nneeded++] = text;
    }
}

/* The library search path of the ELF at `path` (origin: its directory), in ld.so's order. */
static void search_path(const struct dynamic_facts *df, const char *path, char *dirs, size_t size)
{
    char origin[PATH_MAX];
    snprintf(origin, sizeof(origin), "%s", path);
    char *slash = strrchr(origin, '/');
    if (slash)
        *slash = '\0';
    dirs[0] = '\0';
    if (df->rpath && !df->runpath)
        add_dirs(df->rpath, origin, dirs, size);
    if (getenv("LD_LIBRARY_PATH"))
        add_dirs(getenv("LD_LIBRARY_PATH"), origin, dirs, size);
    if (df->runpath)
        add_dirs(df->runpath, origin, dirs, size);
    add_dirs("/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib/aarch64-linux-gnu:"
             "/usr/lib/aarch64-linux-gnu:/lib64:/usr/lib64:/lib:/usr/lib:/usr/local/lib",
             origin, dirs, size);
}

/* Finds library `name` along `dirs`; false when it is nowhere. */
static bool find_library(const char *name, const char *dirs, char *out, size_t size)
{
    char copy[4 * PATH_MAX];
    snprintf(copy, sizeof(copy), "%s", dirs);
    for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, size, "%s/%s", d, name);
        if (access(out, R_OK) == 0)
            return true;
    }
    return false;
}

bool frame_pointers_kept(const char *path)
{
    struct frame_pointer_census c;
    return frame_pointer_census(path, &c) != 0 || c.functions == 0 ||
           frame_pointer_census_has_fp(&c);
}

/* The first library `ef` needs that lacks frame pointers, into why; false when none does. */
static bool library_without_fp(const struct elf_file *ef, const char *path, char *why, size_t size)
{
    struct dynamic_facts df;
    char dirs[4 * PATH_MAX], lib[PATH_MAX];
    read_dynamic(ef, &df);
    search_path(&df, path, dirs, sizeof(dirs));
    for (size_t i = 0; i < df.nneeded; i++) {
        if (is_runtime_library(df.needed[i]) || !find_library(df.needed[i], dirs, lib, sizeof(lib)))
            continue;
        if (!frame_pointers_kept(lib)) {
            snprintf(why, size, "%s", lib);
            return true;
        }
    }
    return false;
}

bool frame_pointers_lacking_library(const char *path, char *why, size_t size)
{
    struct elf_file ef;
    if (elf_file_open(&ef, path) != 0)
        return false;
    bool lib = library_without_fp(&ef, path, why, size);
    elf_file_close(&ef);
    return lib;
}
