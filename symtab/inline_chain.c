/*
 * inline_chain: inlined subroutines and source lines per pc, from DWARF
 * with libdw. At the first question the compile units' address ranges are
 * read into a sorted table, and at the first pc in a unit, the ranges of
 * its functions (DW_TAG_subprogram) into another: a pc finds its unit and
 * its function by binary search, then walks down that function's scope
 * tree (its lexical blocks and inlined subroutines, read from its DIEs
 * once) along the scopes that hold it, which gives the chain. Answers
 * are kept per pc (memo_table), names once per DWARF string (uthash).
 */
#include "symtab/inline_chain.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "symtab/demangle.h"
#include "symtab/range_index.h"

/* Deeper nesting than this is taken for damaged DWARF (a loop of DIEs). */
#define MAX_NESTING 256

/* An address range of a unit or function. */
struct span {
    uint64_t start, end; /* [start, end) */
    size_t index;        /* of the unit or function it belongs to */
};

/* Address ranges, sorted by start once all are in, for lookups. */
struct span_table {
    struct span *spans;
    uint64_t *max_end; /* max_end[i]: largest end among spans[0..i]; NULL until sorted */
    size_t count, cap;
};

/*
 * One DIE of a function's scope tree: a code scope (a lexical block, an
 * inlined subroutine, a nested function...) with its address ranges, a
 * declaration scope (a class or namespace, searched through), or a mark
 * that the DIE list was damaged there. A node's children lie together.
 */
enum scope_kind { SCOPE_CODE, SCOPE_DECLARATION, SCOPE_BROKEN };

struct scope {
    Dwarf_Die die;
    int tag;
    uint8_t kind;
    bool too_deep;           /* at MAX_NESTING: going into it is damage */
    bool ranges_broken;      /* a code scope: its ranges end in damage after the `nranges` read */
    uint32_t range, nranges; /* in the tree's ranges */
    uint32_t child, nchild;  /* in the tree's scopes */
};

/*
 * The code scopes below a function, read from its DIEs once (a walk of
 * the DIEs skips every variable and type of each subtree it passes): then
 * each pc of the function walks this tree instead. scopes[0] is the
 * function.
 */
struct scope_tree {
    struct scope *scopes;
    size_t count, cap;
    uint64_t (*ranges)[2];
    size_t nranges, ranges_cap;
    bool built;
};

/* A compile unit and, once a pc in it was asked, its functions (and their scope trees). */
struct unit {
    Dwarf_Die die;
    bool indexed;
    struct span_table func_spans;
    Dwarf_Die *funcs;
    struct scope_tree *trees; /* per function, built as they are asked; NULL: none yet */
    size_t func_count, func_cap;
};

/*
 * The scopes above a pc, as found walking down a unit. Every pc of the
 * stretch [lo, hi) around it walks the same way (lo == hi: unknown).
 */
struct walk {
    Dwarf_Addr pc;
    Dwarf_Die inlined[MAX_NESTING]; /* the inlined subroutines, outermost first */
    size_t depth;
    uint64_t lo, hi;
    struct unit *unit; /* the unit holding the stretch */
};

/*
 * The sorted points (inline_chains_any_named's) of one function span, kept
 * for the stretches of the pcs asked next, which tend to share a function.
 */
struct span_points {
    const struct span *span; /* NULL: none yet */
    uint64_t *at;
    size_t count;
    bool usable; /* false: damaged DWARF, so each pc walks for itself */
};

/* A pc's answer, its frames after it. */
struct memo {
    struct inline_chain chain;
    struct inline_frame frames[];
};

/* The answer of every pc in no inlined code when lines are not asked: shared, never freed. */
static const struct memo no_chain;

/*
 * The answers kept, by pc: open addressing with linear probing, at most
 * half full, so that a lookup reads one or two places of one array (a
 * hash table of the answers themselves chased a pointer a place, and the
 * lookups of a profile's writing missed the cache at each).
 */
struct memo_table {
    uint64_t *pcs;
    const struct memo **memos; /* NULL: a free place */
    size_t count;
    unsigned bits; /* 1 << bits places; 0: none yet */
};

/* A path made absolute, keyed by its text. */
struct path {
    UT_hash_handle hh;
    char text[];
};

/* A DWARF name and its readable form, keyed by the DWARF string's address. */
struct name {
    const char *raw;
    char *readable;
    UT_hash_handle hh;
};

struct inline_chains {
    uint8_t *image; /* our copy of the file, which libelf reads */
    Elf *elf;
    Dwarf *dwarf;   /* NULL without (usable) DWARF */
    bool has_dwarf; /* the file has a .debug_info section */
    bool prepared;  /* dwarf and the unit table are set up */
    bool no_lines;  /* inline_chains_skip_lines */
    struct unit *units;
    size_t unit_count, unit_cap;
    struct span_table unit_spans;
    struct memo_table memo;
    struct name *names;
    struct path *paths;
    struct error warning; /* the first damage seen */
    struct walk walk;     /* the last walk, and scratch for the pc being worked out */
    struct span_points points;
};

/* Notes DWARF damage (the first one wins) with libdw's reason. */
static void warn(struct inline_chains *ic, const char *what)
{
    error_fail(&ic->warning, ERROR_CORRUPT, "bad DWARF (%s): %s; inline frames and lines left out",
               what, dwarf_errmsg(-1));
}

static int out_of_memory(struct error *e)
{
    return error_fail(e, ERROR_NO_MEMORY, "out of memory reading the DWARF");
}

/* Whether the ELF has a .debug_info section (else it has no DWARF to read). */
static bool has_debug_info(Elf *elf)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return false;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            return false;
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (name && (strcmp(name, ".debug_info") == 0 || strcmp(name, ".zdebug_info") == 0))
            return true;
    }
    return false;
}

int inline_chains_open(struct inline_chains **out, const uint8_t *file, size_t size,
                       struct error *e)
{
    *out = NULL;
    struct inline_chains *ic = calloc(1, sizeof(*ic));
    if (!ic || !(ic->image = malloc(size ? size : 1))) {
        free(ic);
        return out_of_memory(e);
    }
    memcpy(ic->image, file, size);
    if (elf_version(EV_CURRENT) == EV_NONE || !(ic->elf = elf_memory((char *)ic->image, size)) ||
        elf_kind(ic->elf) != ELF_K_ELF) {
        error_fail(e, ERROR_CORRUPT, "cannot read the ELF for its DWARF: %s", elf_errmsg(-1));
        inline_chains_close(ic);
        return -1;
    }
    ic->has_dwarf = has_debug_info(ic->elf);
    *out = ic;
    return 0;
}

/* Grows an array of `size`-byte items to hold one more. -1: out of memory. */
static int grow(void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return 0;
    size_t n = *cap ? 2 * *cap : 16;
    void *p = realloc(*items, n * size);
    if (!p)
        return -1;
    *items = p;
    *cap = n;
    return 0;
}

static int span_add(struct span_table *t, uint64_t start, uint64_t end, size_t index)
{
    if (end <= start)
        return 0;
    if (grow((void **)&t->spans, &t->cap, t->count, sizeof(*t->spans)) != 0)
        return -1;
    t->spans[t->count++] = (struct span){start, end, index};
    return 0;
}

static int compare_spans(const void *pa, const void *pb)
{
    const struct span *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

_Static_assert(offsetof(struct span, start) == 0 && offsetof(struct span, end) == sizeof(uint64_t),
               "range_index reads a span's start and end as its first two fields");

/* Sorts the spans for span_find. -1: out of memory. */
static int span_sort(struct span_table *t)
{
    if (t->count > 1)
        qsort(t->spans, t->count, sizeof(*t->spans), compare_spans);
    t->max_end = range_index_build(t->spans, t->count, sizeof(*t->spans));
    return t->max_end ? 0 : -1;
}

/* The span holding pc that starts nearest below it, or NULL. */
static const struct span *span_find(const struct span_table *t, uint64_t pc)
{
    if (!t->max_end)
        return NULL; /* never sorted: no DWARF, or memory ran out */
    size_t i = range_index_find(t->spans, t->max_end, t->count, sizeof(*t->spans), pc);
    return i == RANGE_NONE ? NULL : &t->spans[i];
}

static void span_free(struct span_table *t)
{
    free(t->spans);
    free(t->max_end);
}

/*
 * Adds the address ranges of `die` (a unit or a function) to `t` under
 * `index`. Damaged ranges are warned about. -1: out of memory.
 */
static int add_ranges(struct inline_chains *ic, struct span_table *t, Dwarf_Die *die, size_t index)
{
    Dwarf_Addr base, start, end;
    ptrdiff_t offset = 0;
    while ((offset = dwarf_ranges(die, offset, &base, &start, &end)) > 0)
        if (span_add(t, start, end, index) != 0)
            return -1;
    if (offset < 0)
        warn(ic, "address ranges");
    return 0;
}

/* Opens the DWARF and reads every compile unit's ranges, once. */
static int prepare(struct inline_chains *ic, struct error *e)
{
    ic->prepared = true;
    if (!ic->has_dwarf)
        return 0;
    ic->dwarf = dwarf_begin_elf(ic->elf, DWARF_C_READ, NULL);
    if (!ic->dwarf) {
        warn(ic, "opening");
        return 0;
    }
    Dwarf_CU *cu = NULL;
    Dwarf_Half version;
    uint8_t unit_type;
    Dwarf_Die cudie, subdie;
    int rc;
    while ((rc = dwarf_get_units(ic->dwarf, cu, &cu, &version, &unit_type, &cudie, &subdie)) == 0) {
        if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
            continue;
        if (grow((void **)&ic->units, &ic->unit_cap, ic->unit_count, sizeof(*ic->units)) != 0 ||
            add_ranges(ic, &ic->unit_spans, &cudie, ic->unit_count) != 0)
            return out_of_memory(e);
        ic->units[ic->unit_count++] = (struct unit){.die = cudie};
    }
    if (rc < 0)
        warn(ic, "compile units");
    return span_sort(&ic->unit_spans) != 0 ? out_of_memory(e) : 0;
}

static bool is_code_scope(int tag)
{
    return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
           tag == DW_TAG_lexical_block || tag == DW_TAG_try_block || tag == DW_TAG_catch_block ||
           tag == DW_TAG_with_stmt;
}

/* Containers of functions that have no addresses of their own. */
static bool is_declaration_scope(int tag)
{
    return tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
           tag == DW_TAG_union_type || tag == DW_TAG_module || tag == DW_TAG_interface_type;
}

/*
 * Adds the functions (DW_TAG_subprogram with addresses) among the DIEs
 * below `parent`, nested ones too. -1: out of memory; damage is warned
 * about and ends the walk of that subtree.
 */
static int index_functions(struct inline_chains *ic, struct unit *u, Dwarf_Die *parent, int level)
{
    Dwarf_Die child;
    int rc = level < MAX_NESTING ? dwarf_child(parent, &child) : -1;
    while (rc == 0) {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_subprogram) { /* kept only when it has addresses */
            size_t spans = u->func_spans.count;
            if (grow((void **)&u->funcs, &u->func_cap, u->func_count, sizeof(*u->funcs)) != 0 ||
                add_ranges(ic, &u->func_spans, &child, u->func_count) != 0)
                return -1;
            if (u->func_spans.count > spans)
                u->funcs[u->func_count++] = child;
        }
        if ((is_code_scope(tag) || is_declaration_scope(tag)) &&
            index_functions(ic, u, &child, level + 1) != 0)
            return -1;
        rc = dwarf_siblingof(&child, &child);
    }
    if (rc < 0)
        warn(ic, "the DIE tree");
    return 0;
}

/* Appends a node to the tree; its index, or -1 when memory runs out. */
static int64_t add_scope(struct scope_tree *t, struct scope s)
{
    if (grow((void **)&t->scopes, &t->cap, t->count, sizeof(*t->scopes)) != 0)
        return -1;
    t->scopes[t->count] = s;
    return (int64_t)t->count++;
}

/* Reads a code scope's address ranges into the tree, as dwarf_haspc reads them. */
static int add_scope_ranges(struct scope_tree *t, struct scope *s)
{
    Dwarf_Addr base, start, end;
    ptrdiff_t offset = 0;
    s->range = (uint32_t)t->nranges;
    while ((offset = dwarf_ranges(&s->die, offset, &base, &start, &end)) > 0) {
        if (grow((void **)&t->ranges, &t->ranges_cap, t->nranges, sizeof(*t->ranges)) != 0)
            return -1;
        t->ranges[t->nranges][0] = start;
        t->ranges[t->nranges++][1] = end;
    }
    s->nranges = (uint32_t)t->nranges - s->range;
    s->ranges_broken = offset < 0;
    return 0;
}

/*
 * Reads the children of node `at` (`level` deep) and, below them, their
 * own: the code and declaration scopes, in DIE order, and a SCOPE_BROKEN
 * node where the DIE list is damaged. -1 when memory runs out.
 */
static int build_scopes(struct scope_tree *t, size_t at, int level)
{
    if (level >= MAX_NESTING) {
        t->scopes[at].too_deep = true;
        return 0;
    }
    Dwarf_Die child, parent = t->scopes[at].die;
    size_t first = t->count;
    int rc = dwarf_child(&parent, &child);
    while (rc == 0) {
        int tag = dwarf_tag(&child);
        if (is_code_scope(tag) || is_declaration_scope(tag)) {
            struct scope s = {.die = child,
                              .tag = tag,
                              .kind = is_code_scope(tag) ? SCOPE_CODE : SCOPE_DECLARATION};
            if ((s.kind == SCOPE_CODE && add_scope_ranges(t, &s) != 0) || add_scope(t, s) < 0)
                return -1;
        }
        rc = dwarf_siblingof(&child, &child);
    }
    if (rc < 0 && add_scope(t, (struct scope){.kind = SCOPE_BROKEN}) < 0)
        return -1;
    size_t end = t->count;
    t->scopes[at].child = (uint32_t)first;
    t->scopes[at].nchild = (uint32_t)(end - first);
    for (size_t k = first; k < end; k++)
        if (t->scopes[k].kind != SCOPE_BROKEN && build_scopes(t, k, level + 1) != 0)
            return -1;
    return 0;
}

/* The scope tree of function f of unit u, built at its first use. NULL when memory runs out. */
static const struct scope_tree *scopes_of(struct unit *u, size_t f)
{
    if (!u->trees && !(u->trees = calloc(u->func_count, sizeof(*u->trees))))
        return NULL;
    struct scope_tree *t = &u->trees[f];
    if (!t->built) {
        if (add_scope(t, (struct scope){.die = u->funcs[f], .kind = SCOPE_CODE}) < 0 ||
            build_scopes(t, 0, 0) != 0)
            return NULL;
        t->built = true;
    }
    return t;
}

/* dwarf_haspc of a code scope: 1, 0, or -1 when its ranges end in damage first. */
static int scope_has(const struct scope_tree *t, const struct scope *s, uint64_t pc)
{
    for (uint32_t k = s->range; k < s->range + s->nranges; k++)
        if (pc >= t->ranges[k][0] && pc < t->ranges[k][1])
            return 1;
    return s->ranges_broken ? -1 : 0;
}

/*
 * Walks down from node `at` along the code scopes holding w->pc, recording
 * the inlined subroutines. Returns 1 when a scope holds it, 0 when none
 * does, -1 for damaged DWARF.
 */
static int find_scopes(const struct scope_tree *t, size_t at, struct walk *w)
{
    const struct scope *node = &t->scopes[at];
    if (node->too_deep)
        return -1;
    for (size_t k = node->child; k < (size_t)node->child + node->nchild; k++) {
        const struct scope *c = &t->scopes[k];
        if (c->kind == SCOPE_BROKEN)
            return -1;
        if (c->kind == SCOPE_CODE) {
            int has = scope_has(t, c, w->pc);
            if (has < 0)
                return -1;
            if (has) {
                if (c->tag == DW_TAG_subprogram)
                    w->depth = 0; /* a nested function starts its own chain */
                else if (c->tag == DW_TAG_inlined_subroutine)
                    w->inlined[w->depth++] = c->die;
                return find_scopes(t, k, w) < 0 ? -1 : 1;
            }
        } else {
            int found = find_scopes(t, k, w);
            if (found != 0)
                return found;
        }
    }
    return 0;
}

static void scope_tree_free(struct scope_tree *t)
{
    free(t->scopes);
    free(t->ranges);
}

/* The readable form of a DWARF name, made once per string. NULL when memory runs out. */
static const char *readable_name(struct inline_chains *ic, const char *raw)
{
    struct name *n;
    HASH_FIND_PTR(ic->names, &raw, n);
    if (n)
        return n->readable;
    n = calloc(1, sizeof(*n));
    if (!n || !(n->readable = demangle_symbol(raw))) {
        free(n);
        return NULL;
    }
    n->raw = raw;
    HASH_ADD_PTR(ic->names, raw, n);
    return n->readable;
}

/* Control characters never belong in a name or path: they are damage. */
static bool is_text(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return false;
    return true;
}

/* The DWARF string of attribute `at` of `die` or of the DIEs it comes from, or NULL. */
static const char *string_attr(struct inline_chains *ic, Dwarf_Die *die, unsigned at)
{
    Dwarf_Attribute attr;
    if (!dwarf_attr_integrate(die, at, &attr))
        return NULL;
    const char *s = dwarf_formstring(&attr);
    if (!s || !is_text(s)) {
        warn(ic, "a name attribute");
        return NULL;
    }
    return s;
}

/* The DWARF name frame_name reads, or NULL. */
static const char *raw_frame_name(struct inline_chains *ic, Dwarf_Die *die)
{
    const char *raw = string_attr(ic, die, DW_AT_linkage_name);
    if (!raw)
        raw = string_attr(ic, die, DW_AT_MIPS_linkage_name);
    if (!raw)
        raw = string_attr(ic, die, DW_AT_name);
    return raw;
}

/*
 * Names an inlined subroutine as llvm-addr2line does: its linkage name,
 * else its name, following DW_AT_abstract_origin and DW_AT_specification.
 * Returns -1 when memory runs out; *name stays NULL for an unnamed one.
 */
static int frame_name(struct inline_chains *ic, Dwarf_Die *die, const char **name)
{
    const char *raw = raw_frame_name(ic, die);
    *name = NULL;
    if (raw && !(*name = readable_name(ic, raw)))
        return -1;
    return 0;
}

/* An unsigned constant attribute of `die` itself, 0 when absent or damaged. */
static unsigned udata_attr(struct inline_chains *ic, Dwarf_Die *die, unsigned at)
{
    Dwarf_Attribute attr;
    Dwarf_Word value;
    if (!dwarf_attr(die, at, &attr))
        return 0;
    if (dwarf_formudata(&attr, &value) != 0) {
        warn(ic, "a call site attribute");
        return 0;
    }
    return value > UINT32_MAX ? 0 : (unsigned)value;
}

/*
 * A source path as llvm-addr2line prints it: a relative one below the
 * unit's DW_AT_comp_dir. *out is NULL for a damaged one. -1: out of memory.
 */
static int absolute_path(struct inline_chains *ic, Dwarf_Die *cudie, const char *path,
                         const char **out)
{
    Dwarf_Attribute attr;
    const char *dir = NULL;
    *out = NULL;
    if (!is_text(path)) {
        warn(ic, "a file name");
        return 0;
    }
    *out = path;
    if (path[0] == '/' || !dwarf_attr(cudie, DW_AT_comp_dir, &attr) ||
        !(dir = dwarf_formstring(&attr)) || !*dir || !is_text(dir))
        return 0;
    size_t dir_len = strlen(dir), len = dir_len + 1 + strlen(path);
    bool slash = dir[dir_len - 1] == '/';
    struct path *p = malloc(sizeof(*p) + len + 1);
    if (!p)
        return -1;
    snprintf(p->text, len + 1, "%s%s%s", dir, slash ? "" : "/", path);
    struct path *known;
    HASH_FIND_STR(ic->paths, p->text, known);
    if (known) {
        free(p);
    } else {
        HASH_ADD_STR(ic->paths, text, p);
        known = p;
    }
    *out = known->text;
    return 0;
}

/* Where the inlined subroutine `die` of the unit `cudie` was inlined. -1: out of memory. */
static int call_site(struct inline_chains *ic, Dwarf_Die *cudie, Dwarf_Die *die,
                     struct inline_frame *f)
{
    f->call_line = udata_attr(ic, die, DW_AT_call_line);
    Dwarf_Attribute attr;
    Dwarf_Word index;
    Dwarf_Files *files;
    size_t count;
    if (!dwarf_attr(die, DW_AT_call_file, &attr))
        return 0;
    if (dwarf_formudata(&attr, &index) != 0 || dwarf_getsrcfiles(cudie, &files, &count) != 0) {
        warn(ic, "a call site file");
        return 0;
    }
    const char *file = index < count ? dwarf_filesrc(files, index, NULL, NULL) : NULL;
    if (!file)
        return 0;
    return absolute_path(ic, cudie, file, &f->call_file);
}

/* The pc's own line from the unit's line table. -1: out of memory. */
static int leaf_line(struct inline_chains *ic, Dwarf_Die *cudie, uint64_t pc,
                     struct inline_chain *chain)
{
    Dwarf_Lines *lines;
    size_t count;
    if (!dwarf_hasattr(cudie, DW_AT_stmt_list))
        return 0;
    if (dwarf_getsrclines(cudie, &lines, &count) != 0) {
        warn(ic, "the line table");
        return 0;
    }
    Dwarf_Line *line = dwarf_getsrc_die(cudie, pc);
    int lineno;
    const char *file;
    if (!line || dwarf_lineno(line, &lineno) != 0 || lineno <= 0 ||
        !(file = dwarf_linesrc(line, NULL, NULL)))
        return 0;
    if (absolute_path(ic, cudie, file, &chain->file) != 0)
        return -1;
    chain->line = chain->file ? (unsigned)lineno : 0;
    return 0;
}

static void find_stretch(struct inline_chains *ic, const struct span *in_func, struct walk *w);

/*
 * Walks to pc (ic->walk: its inlined subroutines) and sets *unit to the
 * unit holding it, or NULL. A pc in the stretch of the last walk walks as
 * it did. -1 when memory runs out.
 */
static int walk_to(struct inline_chains *ic, uint64_t pc, struct unit **unit, struct error *e)
{
    struct walk *w = &ic->walk;
    if (pc >= w->lo && pc < w->hi) {
        w->pc = pc;
        *unit = w->unit;
        return 0;
    }
    w->pc = pc;
    w->depth = 0;
    w->lo = w->hi = 0;
    const struct span *in_unit = span_find(&ic->unit_spans, pc);
    struct unit *u = in_unit ? &ic->units[in_unit->index] : NULL;
    *unit = u;
    if (u && !u->indexed) {
        u->indexed = true;
        if (index_functions(ic, u, &u->die, 0) != 0 || span_sort(&u->func_spans) != 0)
            return out_of_memory(e);
    }
    const struct span *in_func = u ? span_find(&u->func_spans, pc) : NULL;
    const struct scope_tree *tree = in_func ? scopes_of(u, in_func->index) : NULL;
    if (in_func && !tree)
        return out_of_memory(e);
    if (in_func && find_scopes(tree, 0, w) < 0) {
        warn(ic, "the DIE tree");
        w->depth = 0;
    } else if (in_func) {
        w->unit = u;
        find_stretch(ic, in_func, w);
    }
    return 0;
}

/* The place of pc in the table: its own, or the free one where it would go. */
static size_t memo_place(const struct memo_table *t, uint64_t pc)
{
    size_t mask = ((size_t)1 << t->bits) - 1;
    size_t i = (size_t)((pc * 0x9e3779b97f4a7c15ull) >> (64 - t->bits));
    while (t->memos[i] && t->pcs[i] != pc)
        i = (i + 1) & mask;
    return i;
}

/* The kept answer for pc, or NULL. */
static const struct memo *memo_find(const struct memo_table *t, uint64_t pc)
{
    return t->bits ? t->memos[memo_place(t, pc)] : NULL;
}

/* Keeps m as pc's answer, the table grown to stay at most half full. -1: out of memory. */
static int memo_add(struct memo_table *t, uint64_t pc, const struct memo *m)
{
    if (!t->bits || 2 * (t->count + 1) > (size_t)1 << t->bits) {
        struct memo_table g = {.bits = t->bits ? t->bits + 1 : 10, .count = t->count};
        g.pcs = malloc(sizeof(*g.pcs) << g.bits);
        g.memos = calloc((size_t)1 << g.bits, sizeof(*g.memos));
        if (!g.pcs || !g.memos) {
            free(g.pcs);
            free(g.memos);
            return -1;
        }
        for (size_t k = 0; t->bits && k < (size_t)1 << t->bits; k++)
            if (t->memos[k]) {
                size_t i = memo_place(&g, t->pcs[k]);
                g.pcs[i] = t->pcs[k];
                g.memos[i] = t->memos[k];
            }
        free(t->pcs);
        free(t->memos);
        *t = g;
    }
    size_t i = memo_place(t, pc);
    t->pcs[i] = pc;
    t->memos[i] = m;
    t->count++;
    return 0;
}

static void memo_free(struct memo_table *t)
{
    for (size_t k = 0; t->bits && k < (size_t)1 << t->bits; k++)
        if (t->memos[k] != &no_chain)
            free((void *)t->memos[k]);
    free(t->pcs);
    free(t->memos);
}

/* Works out the answer for pc and keeps it. NULL when memory runs out. */
static const struct memo *compute(struct inline_chains *ic, uint64_t pc, struct error *e)
{
    struct walk *w = &ic->walk;
    struct unit *u;
    if (walk_to(ic, pc, &u, e) != 0)
        return NULL;
    bool failed = false, lines = !ic->no_lines;
    if (w->depth == 0 && !lines) {
        if (memo_add(&ic->memo, pc, &no_chain) != 0) {
            out_of_memory(e);
            return NULL;
        }
        return &no_chain;
    }
    Dwarf_Die *cudie = u ? &u->die : NULL;
    struct memo *m = calloc(1, sizeof(*m) + w->depth * sizeof(m->frames[0]));
    if (!m) {
        out_of_memory(e);
        return NULL;
    }
    for (size_t i = 0; i < w->depth && !failed; i++)
        failed = frame_name(ic, &w->inlined[i], &m->frames[i].name) != 0 ||
                 (lines && call_site(ic, cudie, &w->inlined[i], &m->frames[i]) != 0);
    m->chain.frames = m->frames;
    m->chain.depth = w->depth;
    if (failed || (lines && cudie && leaf_line(ic, cudie, pc, &m->chain) != 0) ||
        memo_add(&ic->memo, pc, m) != 0) {
        free(m);
        out_of_memory(e);
        return NULL;
    }
    return m;
}

void inline_chains_skip_lines(struct inline_chains *ic)
{
    ic->no_lines = true;
}

const struct inline_chain *inline_chain_at(struct inline_chains *ic, uint64_t pc, struct error *e)
{
    const struct memo *m = memo_find(&ic->memo, pc);
    if (m)
        return &m->chain;
    if (!ic->prepared && prepare(ic, e) != 0)
        return NULL;
    m = compute(ic, pc, e);
    return m ? &m->chain : NULL;
}

/* Whether pc's chain has a named frame: 1 or 0, -1 when memory runs out. */
static int named_at(struct inline_chains *ic, uint64_t pc, struct error *e)
{
    const struct memo *m = memo_find(&ic->memo, pc);
    if (m) {
        for (size_t i = 0; i < m->chain.depth; i++)
            if (m->chain.frames[i].name)
                return 1;
        return 0;
    }
    struct unit *u;
    if (walk_to(ic, pc, &u, e) != 0)
        return -1;
    for (size_t i = 0; i < ic->walk.depth; i++)
        if (raw_frame_name(ic, &ic->walk.inlined[i]))
            return 1;
    return 0;
}

/*
 * Addresses where what a walk to a pc in [lo, hi) reads may change: the
 * starts and ends, inside (lo, hi), of the units' and functions' spans
 * and of every code scope's ranges below the functions there. Between two
 * of them every pc walks the same way to the same chain.
 */
struct points {
    uint64_t *at;
    size_t count, cap;
    uint64_t lo, hi;
};

enum { POINTS_OK = 0, POINTS_NO_MEMORY = -1, POINTS_DAMAGED = -2 };

static int add_point(struct points *p, uint64_t at)
{
    if (at <= p->lo || at >= p->hi)
        return POINTS_OK;
    if (grow((void **)&p->at, &p->cap, p->count, sizeof(*p->at)) != 0)
        return POINTS_NO_MEMORY;
    p->at[p->count++] = at;
    return POINTS_OK;
}

static bool span_meets(const struct span *s, const struct points *p)
{
    return s->start < p->hi && s->end > p->lo;
}

/* The range ends of the code scopes below node `at`, as find_scopes may visit them. */
static int add_scope_points(struct points *p, const struct scope_tree *t, size_t at)
{
    const struct scope *node = &t->scopes[at];
    if (node->too_deep)
        return POINTS_DAMAGED;
    for (size_t k = node->child; k < (size_t)node->child + node->nchild; k++) {
        const struct scope *c = &t->scopes[k];
        int added = POINTS_OK;
        if (c->kind == SCOPE_BROKEN)
            return POINTS_DAMAGED;
        for (uint32_t r = c->range; r < c->range + c->nranges && added == POINTS_OK; r++)
            if ((added = add_point(p, t->ranges[r][0])) == POINTS_OK)
                added = add_point(p, t->ranges[r][1]);
        if (added == POINTS_OK && c->ranges_broken)
            return POINTS_DAMAGED;
        if (added == POINTS_OK)
            added = add_scope_points(p, t, k);
        if (added != POINTS_OK)
            return added;
    }
    return POINTS_OK;
}

/* The points of [p->lo, p->hi) (struct points), unsorted. */
static int add_points(struct inline_chains *ic, struct points *p)
{
    for (size_t i = 0; i < ic->unit_spans.count; i++) {
        const struct span *us = &ic->unit_spans.spans[i];
        if (!span_meets(us, p))
            continue;
        int rc = add_point(p, us->start) == POINTS_OK ? add_point(p, us->end) : POINTS_NO_MEMORY;
        struct unit *u = &ic->units[us->index];
        if (rc == POINTS_OK && !u->indexed) {
            u->indexed = true;
            if (index_functions(ic, u, &u->die, 0) != 0 || span_sort(&u->func_spans) != 0)
                rc = POINTS_NO_MEMORY;
        }
        for (size_t k = 0; rc == POINTS_OK && k < u->func_spans.count; k++) {
            const struct span *fs = &u->func_spans.spans[k];
            if (!span_meets(fs, p))
                continue;
            const struct scope_tree *tree = NULL;
            if ((rc = add_point(p, fs->start)) == POINTS_OK &&
                (rc = add_point(p, fs->end)) == POINTS_OK)
                rc = (tree = scopes_of(u, fs->index)) ? add_scope_points(p, tree, 0)
                                                      : POINTS_NO_MEMORY;
        }
        if (rc != POINTS_OK)
            return rc;
    }
    return POINTS_OK;
}

static int compare_points(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The points of [p->lo, p->hi) (add_points), sorted when they are whole (POINTS_OK). */
static int sorted_points(struct inline_chains *ic, struct points *p)
{
    int rc = add_points(ic, p);
    if (rc == POINTS_OK && p->count > 1)
        qsort(p->at, p->count, sizeof(*p->at), compare_points);
    return rc;
}

/* ic->points for the function span `span`: its points, sorted (usable false when damaged). */
static void points_of_span(struct inline_chains *ic, const struct span *span)
{
    struct span_points *sp = &ic->points;
    if (sp->span == span)
        return;
    free(sp->at);
    struct points p = {.lo = span->start, .hi = span->end};
    int rc = sorted_points(ic, &p);
    *sp = (struct span_points){.span = span, .at = p.at, .count = p.count, .usable = rc == 0};
}

/*
 * The stretch of w->pc, in the function span `in_func`: between the points
 * either side of it (or the span's ends), every pc walks as w->pc did.
 * Damaged DWARF, or no memory for the points, leaves it unknown.
 */
static void find_stretch(struct inline_chains *ic, const struct span *in_func, struct walk *w)
{
    points_of_span(ic, in_func);
    const struct span_points *sp = &ic->points;
    if (!sp->usable)
        return;
    size_t lo = 0, hi = sp->count; /* the first point above pc: at[lo] once lo == hi */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sp->at[mid] <= w->pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    w->lo = lo > 0 ? sp->at[lo - 1] : in_func->start;
    w->hi = lo < sp->count ? sp->at[lo] : in_func->end;
}

/* Whether a pc of lo + k * step in [from, to) has a named chain (see named_at). */
static int named_between(struct inline_chains *ic, uint64_t lo, unsigned step, uint64_t from,
                         uint64_t to, struct error *e)
{
    uint64_t pc = lo + (from - lo + step - 1) / step * step;
    return pc < to ? named_at(ic, pc, e) : 0;
}

int inline_chains_any_named(struct inline_chains *ic, uint64_t lo, uint64_t hi, unsigned step,
                            struct error *e)
{
    if (!ic->prepared && prepare(ic, e) != 0)
        return -1;
    struct points p = {.lo = lo, .hi = hi};
    int rc = sorted_points(ic, &p), named = 0;
    if (rc == POINTS_NO_MEMORY) {
        free(p.at);
        return out_of_memory(e);
    }
    if (rc == POINTS_DAMAGED) { /* each pc as it comes: damage stops a walk where it lies */
        for (uint64_t pc = lo; pc < hi && named == 0; pc += step)
            named = named_at(ic, pc, e);
    } else { /* one pc per stretch between two points */
        uint64_t from = lo;
        for (size_t i = 0; i <= p.count && named == 0; i++) {
            uint64_t to = i < p.count ? p.at[i] : hi;
            if (to > from)
                named = named_between(ic, lo, step, from, to, e);
            from = to;
        }
    }
    free(p.at);
    return named;
}

bool inline_chains_has_dwarf(const struct inline_chains *ic)
{
    return ic->has_dwarf;
}

const char *inline_chains_warning(const struct inline_chains *ic)
{
    return ic->warning.status != ERROR_NONE ? ic->warning.msg : NULL;
}

void inline_chains_close(struct inline_chains *ic)
{
    if (!ic)
        return;
    memo_free(&ic->memo);
    struct name *n, *nt;
    HASH_ITER(hh, ic->names, n, nt)
    {
        HASH_DEL(ic->names, n);
        free(n->readable);
        free(n);
    }
    struct path *p, *pt;
    HASH_ITER(hh, ic->paths, p, pt)
    {
        HASH_DEL(ic->paths, p);
        free(p);
    }
    free(ic->points.at);
    if (ic->dwarf)
        dwarf_end(ic->dwarf);
    if (ic->elf)
        elf_end(ic->elf);
    for (size_t i = 0; i < ic->unit_count; i++) {
        span_free(&ic->units[i].func_spans);
        for (size_t f = 0; ic->units[i].trees && f < ic->units[i].func_count; f++)
            scope_tree_free(&ic->units[i].trees[f]);
        free(ic->units[i].trees);
        free(ic->units[i].funcs);
    }
    free(ic->units);
    span_free(&ic->unit_spans);
    free(ic->image);
    free(ic);
}
