/*
 * inline_frames: addr2line -i answers from libdw, kept per (DSO, address).
 */
#include "perf/inline_frames.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hash_table.h"
#include "perf/perf_demangle.h"

#define MAX_INLINE_NEST 1024 /* perf's limit */

/* A DSO's DWARF, opened on first use. */
struct dso_dwarf {
    const struct perf_dso *dso; /* key */
    int fd;
    Dwarf *dw;       /* NULL: no usable DWARF (every answer is "none") */
    uint64_t adjust; /* file offset -> the address addr2line is asked about */
    UT_hash_handle hh;
};

struct chain_key {
    const struct perf_dso *dso;
    uint64_t offset;
};

struct chain_entry {
    struct chain_key key;
    struct inline_chain chain;
    UT_hash_handle hh;
};

struct inline_frames {
    struct dso_dwarf *dwarfs;   /* uthash by dso */
    struct chain_entry *chains; /* uthash by (dso, offset) */
};

struct inline_frames *inline_frames_new(void)
{
    return calloc(1, sizeof(struct inline_frames));
}

static void chain_free(struct inline_chain *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->names[i]);
    free(c->names);
    free(c->frames);
    memset(c, 0, sizeof(*c));
}

void inline_frames_free(struct inline_frames *in)
{
    if (!in)
        return;
    struct chain_entry *c, *ctmp;
    HASH_ITER(hh, in->chains, c, ctmp)
    {
        HASH_DEL(in->chains, c);
        chain_free(&c->chain);
        free(c);
    }
    struct dso_dwarf *d, *dtmp;
    HASH_ITER(hh, in->dwarfs, d, dtmp)
    {
        HASH_DEL(in->dwarfs, d);
        if (d->dw)
            dwarf_end(d->dw);
        if (d->fd >= 0)
            close(d->fd);
        free(d);
    }
    free(in);
}

static bool has_section(Elf *elf, const char *name)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return false;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        const char *n = gelf_getshdr(scn, &shdr) ? elf_strptr(elf, shstrndx, shdr.sh_name) : NULL;
        if (n && strcmp(n, name) == 0)
            return true;
    }
    return false;
}

/*
 * perf's map__rip_2objdump for a user DSO: an executable (ET_EXEC) adds
 * its .text's address minus offset; a shared object is asked at the
 * offset itself.
 */
static uint64_t objdump_adjust(const char *runtime_path)
{
    int fd = runtime_path ? open(runtime_path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return 0;
    uint64_t adjust = 0;
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    GElf_Ehdr ehdr;
    size_t shstrndx;
    if (elf && gelf_getehdr(elf, &ehdr) && ehdr.e_type == ET_EXEC &&
        elf_getshdrstrndx(elf, &shstrndx) == 0)
        for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
            GElf_Shdr shdr;
            const char *n =
                gelf_getshdr(scn, &shdr) ? elf_strptr(elf, shstrndx, shdr.sh_name) : NULL;
            if (n && strcmp(n, ".text") == 0)
                adjust = shdr.sh_addr - shdr.sh_offset;
        }
    if (elf)
        elf_end(elf);
    close(fd);
    return adjust;
}

static struct dso_dwarf *dso_dwarf(struct inline_frames *in, const struct perf_dso *dso)
{
    struct dso_dwarf *d;
    HASH_FIND(hh, in->dwarfs, &dso, sizeof(dso), d);
    if (d)
        return d;
    if (!(d = calloc(1, sizeof(*d))))
        return NULL;
    d->dso = dso;
    d->fd = dso->symsrc_path ? open(dso->symsrc_path, O_RDONLY | O_CLOEXEC) : -1;
    if (d->fd >= 0)
        d->dw = dwarf_begin(d->fd, DWARF_C_READ);
    if (d->dw && !has_section(dwarf_getelf(d->dw), ".debug_line")) {
        dwarf_end(d->dw); /* perf asks addr2line only about files with line tables */
        d->dw = NULL;
    }
    d->adjust = d->dw ? objdump_adjust(dso->runtime_path) : 0;
    bool hash_added = true;
    HASH_ADD(hh, in->dwarfs, dso, sizeof(d->dso), d);
    if (!hash_added) {
        if (d->dw)
            dwarf_end(d->dw);
        if (d->fd >= 0)
            close(d->fd);
        free(d);
        return NULL;
    }
    return d;
}

/* A function's name as addr2line prints it: the linkage name first. */
static const char *function_name(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
    if (!name)
        name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
    if (!name)
        name = dwarf_diename(die);
    return name ? name : "??";
}

/* The line addr2line gives for `addr`: 0 when unknown ("??:0"). */
static int line_of(Dwarf_Die *cu, Dwarf_Addr addr)
{
    Dwarf_Line *line = dwarf_getsrc_die(cu, addr);
    int lineno = 0;
    if (!line || dwarf_lineno(line, &lineno) != 0)
        return 0;
    return lineno;
}

/* The call's line of an inlined function (its caller's record); 0: none. */
static Dwarf_Word call_line(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    Dwarf_Word line = 0;
    if (dwarf_tag(die) != DW_TAG_inlined_subroutine ||
        dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &line) != 0)
        return 0;
    return line;
}

#define MAX_DEPTH 64 /* nested functions and blocks followed */

/*
 * The functions (subprogram, inlined subroutine) whose code holds `addr`,
 * outermost first, found by descending from `parent` through the DIEs
 * that hold it; namespaces and types (which hold no code but may hold
 * functions) are looked into. Of several functions at one level that hold
 * it (aliases of assembly code), the last is taken, as bfd's
 * lookup_address_in_function_table does. Returns whether one was found.
 */
static bool descend(Dwarf_Die *parent, Dwarf_Addr addr, Dwarf_Die *chain, int *n, int depth)
{
    Dwarf_Die child, found;
    bool have = false;
    if (depth >= MAX_DEPTH || dwarf_child(parent, &child) != 0)
        return false;
    do {
        switch (dwarf_tag(&child)) {
        case DW_TAG_subprogram:
        case DW_TAG_inlined_subroutine:
        case DW_TAG_entry_point:
            if (dwarf_haspc(&child, addr) == 1)
                found = child, have = true;
            break;
        case DW_TAG_lexical_block:
        case DW_TAG_try_block:
        case DW_TAG_catch_block:
            if (!have && dwarf_haspc(&child, addr) == 1 &&
                descend(&child, addr, chain, n, depth + 1))
                return true;
            break;
        case DW_TAG_namespace:
        case DW_TAG_module:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
            if (!have && descend(&child, addr, chain, n, depth + 1))
                return true;
            break;
        default: break;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    if (!have)
        return false;
    if (*n < MAX_DEPTH)
        chain[(*n)++] = found;
    descend(&found, addr, chain, n, depth + 1);
    return true;
}

/* The allocated section holding `addr` (addr2line's find_address_in_section); 0: none. */
static size_t section_of(Elf *elf, GElf_Addr addr)
{
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (gelf_getshdr(scn, &shdr) && (shdr.sh_flags & SHF_ALLOC) && addr >= shdr.sh_addr &&
            addr - shdr.sh_addr < shdr.sh_size)
            return elf_ndxscn(scn);
    }
    return 0;
}

/* A candidate of bfd's _bfd_elf_find_function. */
struct best_symbol {
    const char *name; /* NULL: none yet */
    GElf_Addr off;
    GElf_Xword size;
    int type;
};

/* bfd's better_fit (binutils 2.40): whether `sym` names `addr` better than `best`. */
static bool better_fit(const struct best_symbol *best, const struct best_symbol *sym,
                       GElf_Addr addr)
{
    if (sym->off > addr)
        return false;
    if (!best->name || sym->off > best->off)
        return true;
    if (sym->off < best->off)
        return false;
    if (best->off + best->size <= addr)
        return sym->size > best->size;
    if (sym->off + sym->size <= addr)
        return false;
    bool best_func = best->type == STT_FUNC || best->type == STT_GNU_IFUNC;
    bool sym_func = sym->type == STT_FUNC || sym->type == STT_GNU_IFUNC;
    if (best_func != sym_func)
        return sym_func;
    if ((best->type == STT_NOTYPE) != (sym->type == STT_NOTYPE))
        return best->type == STT_NOTYPE;
    return sym->size < best->size;
}

/*
 * The function name addr2line prints where the DWARF has line numbers
 * but no function (assembly): the symbol table's best fit, in symtab order.
 */
static const char *symtab_function(Elf *elf, GElf_Addr addr)
{
    size_t section = section_of(elf, addr);
    struct best_symbol best = {.name = NULL};
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); section && scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        Elf_Data *data;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB ||
            !(data = elf_getdata(scn, NULL)) || shdr.sh_entsize == 0)
            continue;
        size_t count = shdr.sh_size / shdr.sh_entsize;
        for (size_t i = 1; i < count; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx != section)
                continue;
            int type = GELF_ST_TYPE(sym.st_info);
            if (type == STT_OBJECT || type == STT_SECTION || type == STT_FILE || type == STT_TLS)
                continue;
            struct best_symbol cand = {elf_strptr(elf, shdr.sh_link, sym.st_name), sym.st_value,
                                       sym.st_size ? sym.st_size : 1, type};
            if (cand.name && better_fit(&best, &cand, addr))
                best = cand;
        }
    }
    return best.name;
}

static int append_text(struct inline_chain *c, const char *name)
{
    char **names = realloc(c->names, (c->count + 1) * sizeof(*names));
    if (!names)
        return -1;
    c->names = names;
    if (!(names[c->count] = perf_demangle(name)))
        return -1;
    c->count++;
    return 0;
}

/*
 * Fills `c` from the functions at `addr`: the innermost, then each caller
 * an inlined one was inlined into, while the call has a line. Returns 0,
 * or -1 when memory runs out.
 */
static int read_chain(Dwarf *dw, Dwarf_Addr addr, struct inline_chain *c)
{
    Dwarf_Die cu, chain[MAX_DEPTH];
    int n = 0;
    if (!dwarf_addrdie(dw, addr, &cu) || line_of(&cu, addr) == 0)
        return 0;
    descend(&cu, addr, chain, &n, 0);
    const char *symbol = n == 0 ? symtab_function(dwarf_getelf(dw), addr) : NULL;
    if (symbol && append_text(c, symbol))
        return -1;
    for (int i = n - 1; i >= 0 && c->count < MAX_INLINE_NEST; i--) {
        if (append_text(c, function_name(&chain[i])))
            return -1;
        if (call_line(&chain[i]) == 0)
            break; /* the outermost function, or addr2line's "??:0", where perf stops */
    }
    if (c->count && !(c->frames = calloc(c->count, sizeof(*c->frames))))
        return -1;
    return 0;
}

struct inline_chain *inline_frames_at(struct inline_frames *in, struct perf_dso *dso,
                                      uint64_t offset)
{
    struct chain_key key = {dso, offset};
    struct chain_entry *e;
    HASH_FIND(hh, in->chains, &key, sizeof(key), e);
    if (e)
        return &e->chain;
    struct dso_dwarf *d = dso_dwarf(in, dso);
    if (!d || !(e = calloc(1, sizeof(*e))))
        return NULL;
    e->key = key;
    if (d->dw && read_chain(d->dw, offset + d->adjust, &e->chain)) {
        chain_free(&e->chain);
        free(e);
        return NULL;
    }
    bool hash_added = true;
    HASH_ADD(hh, in->chains, key, sizeof(e->key), e);
    if (!hash_added) {
        chain_free(&e->chain);
        free(e);
        return NULL;
    }
    return &e->chain;
}
