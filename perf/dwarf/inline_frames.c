/*
 * inline_frames: addr2line -i answers from libdw, kept per (DSO, address).
 */
#include "perf/dwarf/inline_frames.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hash_table.h"
#include "perf/dwarf/debug_image.h"
#include "perf/dwarf/dwarf_aranges.h"
#include "perf/dwarf/dwarf_scopes.h"
#include "perf/dwarf/elf_loads.h"
#include "perf/dwarf/line_rows.h"
#include "perf/symbols/perf_demangle.h"

#define MAX_INLINE_NEST 1024 /* perf's limit */

/*
 * What addr2line's bfd remembers of a function DIE once it was the
 * innermost function of an answer: from then on it is named without
 * looking at the symbol table, by the symbol that starts where it starts
 * when there was one. So answers depend on the questions before them, and
 * perf asks about each address once, in the order samples meet them.
 */
struct function_state {
    Dwarf_Off die; /* key */
    char *name;    /* the symbol's name it took; NULL: its DWARF name */
    UT_hash_handle hh;
};

/*
 * What is kept of a unit asked about: its index of functions
 * (perf/dwarf/dwarf_scopes.h) and its line rows (perf/dwarf/line_rows.h), each made
 * when first needed.
 */
struct unit_state {
    Dwarf_Off unit;              /* key: the unit DIE's offset */
    struct dwarf_scopes *scopes; /* NULL: not made yet, or memory was short */
    struct line_rows rows;
    signed char rows_read; /* 0: not yet; 1: read; -1: dwarf_getsrc_die answers */
    UT_hash_handle hh;
};

/* A DSO's DWARF, opened on first use. */
struct dso_dwarf {
    const struct perf_dso *dso;       /* key */
    struct function_state *functions; /* uthash by DIE offset */
    struct unit_state *units;         /* uthash by unit offset */
    Elf *elf;                         /* the file as libdw opens it; NULL: see debug */
    struct debug_image debug; /* its compressed DWARF inflated by us (perf/dwarf/debug_image.h) */
    Dwarf *dw;                /* NULL: no usable DWARF (every answer is "none") */
    struct dwarf_aranges aranges; /* its units by address; none read: dwarf_addrdie */
    const void *image;            /* the runtime file (for its segments); NULL: none */
    size_t image_size;
    bool inflating; /* its debug image is inflated on threads (open_start) */
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
    size_t damaged_files;       /* debug files with DWARF sections that did not inflate */
    const char *damaged_path;   /* the first of them (the DSO's path) */
    const char
        *debug_cache; /* where inflated DWARF is kept (perf/dwarf/debug_cache.h); NULL: not */
    struct debug_cache_later *later; /* where its stores go; NULL: threads, waited for */
    size_t inflating;                /* DSOs whose `inflating` is set */
};

struct inline_frames *inline_frames_new(const char *debug_cache, struct debug_cache_later *later)
{
    struct inline_frames *in = calloc(1, sizeof(struct inline_frames));
    if (in) {
        in->debug_cache = debug_cache;
        in->later = later;
    }
    return in;
}

static void chain_free(struct inline_chain *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->names[i]);
    free(c->names);
    free(c->frames);
    memset(c, 0, sizeof(*c));
}

static void dso_dwarf_free(struct dso_dwarf *d)
{
    struct function_state *f, *ftmp;
    HASH_ITER(hh, d->functions, f, ftmp)
    {
        HASH_DEL(d->functions, f);
        free(f->name);
        free(f);
    }
    struct unit_state *u, *utmp;
    HASH_ITER(hh, d->units, u, utmp)
    {
        HASH_DEL(d->units, u);
        dwarf_scopes_free(u->scopes);
        line_rows_free(&u->rows);
        free(u);
    }
    dwarf_aranges_free(&d->aranges);
    if (d->dw)
        dwarf_end(d->dw);
    if (d->elf)
        elf_end(d->elf);
    debug_image_close(&d->debug);
    if (d->image)
        munmap((void *)d->image, d->image_size);
    free(d);
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
        dso_dwarf_free(d);
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

/* The runtime image, mapped for its program headers; false: not readable. */
static bool map_runtime(struct dso_dwarf *d, const char *path)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *image = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (image != MAP_FAILED)
            d->image = image, d->image_size = (size_t)st.st_size;
    }
    if (fd >= 0)
        close(fd);
    return d->image != NULL;
}

/*
 * perf's map__rip_2objdump: the address addr2line is asked about is the
 * file offset moved by its segment's vaddr - offset.
 */
static uint64_t objdump_address(const struct dso_dwarf *d, uint64_t offset)
{
    int64_t delta = 0;
    if (d->image)
        elf_load_delta(d->image, d->image_size, offset, false, &delta);
    return offset + (uint64_t)delta;
}

/* libdw on the file as it is (not compressed, or a form debug_image leaves alone). */
static void open_plain(struct dso_dwarf *d)
{
    const char *path = d->dso->symsrc_path;
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return;
    if (elf_version(EV_CURRENT) != EV_NONE && (d->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) &&
        has_section(d->elf, ".debug_line")) /* perf asks addr2line only about such files */
        d->dw = dwarf_begin_elf(d->elf, DWARF_C_READ, NULL);
    if (d->elf)
        elf_cntl(d->elf, ELF_C_FDDONE);
    close(fd);
}

/* Opens libdw on the debug image (`image` 1: made) or on the file, and maps the runtime file. */
static void open_libdw(struct inline_frames *in, struct dso_dwarf *d, int image)
{
    if (image == 1) {
        if (has_section(d->debug.elf, ".debug_line"))
            d->dw = dwarf_begin_elf(d->debug.elf, DWARF_C_READ, NULL);
    } else {
        open_plain(d);
    }
    if (d->debug.damaged && in->damaged_files++ == 0)
        in->damaged_path = d->dso->symsrc_path;
    if (d->dw) {
        dwarf_aranges_read(&d->aranges, d->dw); /* none read (memory too): dwarf_addrdie */
        map_runtime(d, d->dso->runtime_path);
    }
}

/*
 * Starts opening the DWARF of the file the symbols came from, mapped (its
 * descriptor closed: a profile may name more DSOs than a process may hold
 * files open). Compressed DWARF is inflated by debug_image, only the
 * sections read here, on worker threads: then `d->inflating` is set until
 * open_finish, and the caller goes on meanwhile.
 */
static void open_start(struct inline_frames *in, struct dso_dwarf *d)
{
    int image = debug_image_start(&d->debug, d->dso->symsrc_path, in->debug_cache);
    d->debug.later = in->later;
    if (image == 1) {
        d->inflating = true;
        in->inflating++;
    } else {
        open_libdw(in, d, image);
    }
}

/* Waits for the DWARF open_start inflates, if it does. */
static void open_finish(struct inline_frames *in, struct dso_dwarf *d)
{
    if (!d->inflating)
        return;
    d->inflating = false;
    in->inflating--;
    open_libdw(in, d, debug_image_finish(&d->debug));
}

/* The DSO's DWARF, its opening started at its first use. */
static struct dso_dwarf *dso_dwarf(struct inline_frames *in, const struct perf_dso *dso)
{
    struct dso_dwarf *d;
    HASH_FIND(hh, in->dwarfs, &dso, sizeof(dso), d);
    if (d)
        return d;
    if (!(d = calloc(1, sizeof(*d))))
        return NULL;
    d->dso = dso;
    bool hash_added = true;
    HASH_ADD(hh, in->dwarfs, dso, sizeof(d->dso), d);
    if (!hash_added) {
        free(d);
        return NULL;
    }
    open_start(in, d);
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

/* The unit's kept state, made at its first question; NULL when memory runs out. */
static struct unit_state *unit_state(struct dso_dwarf *d, Dwarf_Die *cu)
{
    Dwarf_Off off = dwarf_dieoffset(cu);
    struct unit_state *u;
    HASH_FIND(hh, d->units, &off, sizeof(off), u);
    if (u || !(u = calloc(1, sizeof(*u))))
        return u;
    u->unit = off;
    bool hash_added = true;
    HASH_ADD(hh, d->units, unit, sizeof(u->unit), u);
    if (!hash_added) {
        free(u);
        return NULL;
    }
    return u;
}

/*
 * Whether the line table has a row for `addr`, as bfd's
 * lookup_address_in_line_info_table finds one. A row whose line is 0
 * counts: addr2line prints it as `file:?`, which perf 6.1's
 * filename_split takes as an answer (only `??:0`, nothing found, is
 * none), and so prints the functions inlined there.
 */
static bool has_line_row(struct dso_dwarf *d, Dwarf_Die *cu, Dwarf_Addr addr)
{
    struct unit_state *u = unit_state(d, cu);
    if (u && u->rows_read == 0)
        u->rows_read = line_rows_read(&u->rows, d->dw, cu) == 1 ? 1 : -1;
    if (u && u->rows_read == 1)
        return line_rows_has(&u->rows, addr);
    return dwarf_getsrc_die(cu, addr) != NULL;
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
static struct best_symbol symtab_function(Elf *elf, GElf_Addr addr)
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
    return best;
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

/* bfd's mangle_style() == 0: languages whose DW_AT_name is the linkage name. */
static bool plain_names(int lang)
{
    switch (lang) {
    case DW_LANG_C89:
    case DW_LANG_C:
    case DW_LANG_C99:
    case DW_LANG_C11:
    case DW_LANG_Mips_Assembler:
    case DW_LANG_Cobol74:
    case DW_LANG_Cobol85:
    case DW_LANG_Fortran77:
    case DW_LANG_Pascal83:
    case DW_LANG_PLI:
    case DW_LANG_UPC: return true;
    default: return false;
    }
}

/* bfd's is_linkage: a linkage name, or a name in a language without mangling. */
static bool has_linkage_name(Dwarf_Die *die, bool plain)
{
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
           dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr) ||
           (plain && dwarf_diename(die));
}

/* The first address bfd records for a function (its arange.low). */
static bool first_address(Dwarf_Die *die, Dwarf_Addr *low)
{
    if (dwarf_lowpc(die, low) == 0)
        return true;
    Dwarf_Addr base, start, end;
    return dwarf_ranges(die, 0, &base, &start, &end) > 0 && (*low = start, true);
}

static struct function_state *function_state(struct dso_dwarf *d, Dwarf_Die *die)
{
    Dwarf_Off off = dwarf_dieoffset(die);
    struct function_state *f;
    HASH_FIND(hh, d->functions, &off, sizeof(off), f);
    return f;
}

/* A caller's name: what bfd calls that function now. */
static const char *caller_name(struct dso_dwarf *d, Dwarf_Die *die)
{
    struct function_state *f = function_state(d, die);
    return f && f->name ? f->name : function_name(die);
}

/*
 * The innermost function's name (bfd's _bfd_dwarf2_find_nearest_line):
 * its linkage name when it has one; the first time, else, the name of
 * the symbol that best fits the address (which it keeps when the symbol
 * starts where it does); afterwards its DWARF name. NULL: memory.
 */
static const char *innermost_name(struct dso_dwarf *d, Dwarf_Die *die, bool plain, Dwarf_Addr addr,
                                  bool *failed)
{
    if (has_linkage_name(die, plain))
        return function_name(die);
    struct function_state *f = function_state(d, die);
    if (f)
        return f->name ? f->name : function_name(die);
    struct best_symbol sym = symtab_function(dwarf_getelf(d->dw), addr);
    Dwarf_Addr low;
    if (!(f = calloc(1, sizeof(*f))))
        return *failed = true, NULL;
    f->die = dwarf_dieoffset(die);
    if (sym.name && first_address(die, &low) && low == sym.off && !(f->name = strdup(sym.name))) {
        free(f);
        return *failed = true, NULL;
    }
    bool hash_added = true;
    HASH_ADD(hh, d->functions, die, sizeof(f->die), f);
    if (!hash_added) {
        free(f->name);
        free(f);
        return *failed = true, NULL;
    }
    return sym.name ? sym.name : function_name(die);
}

/* The functions at `addr` in `cu` (dwarf_scopes_walk's answer), from the unit's index. */
static void functions_at(struct dso_dwarf *d, Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *chain,
                         int *n)
{
    struct unit_state *u = unit_state(d, cu);
    if (u && !u->scopes)
        u->scopes = dwarf_scopes_index(cu);
    if (u && u->scopes)
        dwarf_scopes_find(u->scopes, addr, chain, n);
    else /* memory is short: the walk itself */
        dwarf_scopes_walk(cu, addr, chain, n, 0);
}

/*
 * Fills `c` from the functions at `addr`: the innermost, then each caller
 * an inlined one was inlined into, up to the function that is not
 * inlined (addr2line goes on past a call whose line is 0). Returns 0,
 * or -1 when memory runs out.
 */
static int read_chain(struct dso_dwarf *d, Dwarf_Addr addr, struct inline_chain *c)
{
    Dwarf_Die cu, chain[DWARF_SCOPES_MAX_DEPTH];
    int n = 0;
    Dwarf_Die *found = d->aranges.count ? dwarf_aranges_unit(&d->aranges, d->dw, addr, &cu)
                                        : dwarf_addrdie(d->dw, addr, &cu);
    if (!found || !has_line_row(d, &cu, addr))
        return 0;
    functions_at(d, &cu, addr, chain, &n);
    if (n == 0) {
        struct best_symbol sym = symtab_function(dwarf_getelf(d->dw), addr);
        if (sym.name && append_text(c, sym.name))
            return -1;
    }
    bool failed = false;
    for (int i = n - 1; i >= 0 && c->count < MAX_INLINE_NEST; i--) {
        const char *name =
            i == n - 1
                ? innermost_name(d, &chain[i], plain_names(dwarf_srclang(&cu)), addr, &failed)
                : caller_name(d, &chain[i]);
        if (failed || append_text(c, name))
            return -1;
        if (dwarf_tag(&chain[i]) != DW_TAG_inlined_subroutine)
            break; /* the outermost function: a call without a line (`file:?`) goes on */
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
    if (d)
        open_finish(in, d);
    if (!d || !(e = calloc(1, sizeof(*e))))
        return NULL;
    e->key = key;
    if (d->dw && read_chain(d, objdump_address(d, offset), &e->chain)) {
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

/* Whether a question about the DSO's DWARF would not wait for its inflating. */
static bool is_ready(struct dso_dwarf *d)
{
    return !d->inflating || debug_image_ready(&d->debug);
}

bool inline_frames_prefetch(struct inline_frames *in, struct perf_dso *dso)
{
    struct dso_dwarf *d = dso_dwarf(in, dso);
    return !d || is_ready(d);
}

bool inline_frames_ready(struct inline_frames *in)
{
    if (in->inflating == 0)
        return true;
    struct dso_dwarf *d, *tmp;
    HASH_ITER(hh, in->dwarfs, d, tmp)
    {
        if (!is_ready(d))
            return false;
    }
    return true;
}

size_t inline_frames_damaged(const struct inline_frames *in, const char **path)
{
    *path = in ? in->damaged_path : NULL;
    return in ? in->damaged_files : 0;
}
