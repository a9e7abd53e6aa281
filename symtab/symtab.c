/*
 * symtab: ELF symbols to function ranges (docs/CONTRACT.md#functions-and-names).
 */
#include "symtab/symtab.h"

#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "symtab/range_index.h"

/* A symbol that may name a function, before aliases are merged. */
struct candidate {
    uint64_t start, size;
    uint64_t section_end; /* where a zero-size function at the end stops */
    const char *name;     /* points into the ELF's string table */
    int rank;             /* lower wins among aliases */
};

/* STT_FUNC before STT_NOTYPE, then global before weak before local. */
static int rank_of(const GElf_Sym *sym)
{
    int type_rank = GELF_ST_TYPE(sym->st_info) == STT_FUNC ? 0 : 3;
    int bind = GELF_ST_BIND(sym->st_info);
    int bind_rank = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
    return type_rank + bind_rank;
}

/* Orders by address, then by the preference among aliases of docs/CONTRACT.md#functions-and-names.
 */
static int compare_candidates(const void *pa, const void *pb)
{
    const struct candidate *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->rank != b->rank)
        return a->rank - b->rank;
    if ((a->size != 0) != (b->size != 0))
        return a->size ? -1 : 1;
    return strcmp(a->name, b->name);
}

static bool is_function_symbol(Elf *elf, const GElf_Sym *sym, GElf_Shdr *section)
{
    if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
        return false;
    Elf_Scn *scn = elf_getscn(elf, sym->st_shndx);
    if (!scn || !gelf_getshdr(scn, section))
        return false;
    int type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info);
    if (type == STT_FUNC)
        return true;
    return type == STT_NOTYPE && (bind == STB_GLOBAL || bind == STB_WEAK) &&
           (section->sh_flags & SHF_EXECINSTR);
}

static int unreadable(struct error *e)
{
    return error_fail(e, ERROR_CORRUPT, "cannot read the symbol table: %s", elf_errmsg(-1));
}

static int out_of_memory(struct error *e)
{
    return error_fail(e, ERROR_NO_MEMORY, "out of memory reading the symbol table");
}

/* Collects candidate symbols from .symtab (or .dynsym when stripped of .symtab). */
static int collect(Elf *elf, struct candidate **out, size_t *count, struct error *e)
{
    Elf_Scn *scn = NULL, *symscn = NULL;
    GElf_Shdr sh, symsh = {0};
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &sh))
            return unreadable(e);
        if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !symscn)) {
            symscn = scn;
            symsh = sh;
        }
    }
    *out = NULL;
    *count = 0;
    if (!symscn || symsh.sh_entsize == 0)
        return 0;
    Elf_Data *data = elf_getdata(symscn, NULL);
    if (!data)
        return unreadable(e);
    size_t nsyms = data->d_size / symsh.sh_entsize;
    struct candidate *c = calloc(nsyms ? nsyms : 1, sizeof(*c));
    if (!c)
        return out_of_memory(e);
    size_t n = 0;
    for (size_t i = 0; i < nsyms; i++) {
        GElf_Sym sym;
        GElf_Shdr sec;
        if (!gelf_getsym(data, (int)i, &sym) || !is_function_symbol(elf, &sym, &sec))
            continue;
        const char *name = elf_strptr(elf, symsh.sh_link, sym.st_name);
        if (!name || !*name)
            continue;
        c[n++] = (struct candidate){
            .start = sym.st_value,
            .size = sym.st_size,
            .section_end = sec.sh_addr + sec.sh_size,
            .name = name,
            .rank = rank_of(&sym),
        };
    }
    *out = c;
    *count = n;
    return 0;
}

/* The largest size among the aliases c[first..last), preferring the winner's own. */
static uint64_t alias_size(const struct candidate *c, size_t first, size_t last)
{
    if (c[first].size)
        return c[first].size;
    uint64_t size = 0;
    for (size_t i = first + 1; i < last; i++)
        if (c[i].size > size)
            size = c[i].size;
    return size;
}

/* Merges aliases and fixes each function's end. */
static int build(struct symtab *tab, struct candidate *c, size_t n, struct error *e)
{
    size_t names_len = 0;
    for (size_t i = 0; i < n; i++)
        names_len += strlen(c[i].name) + 1;
    tab->funcs = calloc(n ? n : 1, sizeof(*tab->funcs));
    tab->names = malloc(names_len ? names_len : 1);
    if (!tab->funcs || !tab->names)
        return out_of_memory(e);
    char *dst = tab->names;
    uint64_t *zero_size_limit = calloc(n ? n : 1, sizeof(*zero_size_limit));
    if (!zero_size_limit)
        return out_of_memory(e);
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && c[j].start == c[i].start)
            j++;
        size_t len = strlen(c[i].name) + 1;
        memcpy(dst, c[i].name, len);
        uint64_t size = alias_size(c, i, j);
        tab->funcs[count] =
            (struct symtab_func){.start = c[i].start, .end = c[i].start + size, .name = dst};
        zero_size_limit[count] = size ? 0 : c[i].section_end;
        dst += len;
        count++;
        i = j;
    }
    /* A zero-size function ends where the next one starts (or its section ends). */
    for (size_t k = 0; k < count; k++) {
        if (!zero_size_limit[k])
            continue;
        uint64_t end = k + 1 < count ? tab->funcs[k + 1].start : zero_size_limit[k];
        if (end > zero_size_limit[k])
            end = zero_size_limit[k];
        tab->funcs[k].end = end > tab->funcs[k].start ? end : tab->funcs[k].start + 1;
    }
    free(zero_size_limit);
    tab->count = count;
    return symtab_index(tab) ? out_of_memory(e) : 0;
}

/* range_index reads each function's start and end as its first two fields. */
_Static_assert(offsetof(struct symtab_func, start) == 0 &&
                   offsetof(struct symtab_func, end) == sizeof(uint64_t),
               "symtab_func begins with start, end");

int symtab_index(struct symtab *tab)
{
    free(tab->max_end);
    tab->max_end = range_index_build(tab->funcs, tab->count, sizeof(*tab->funcs));
    return tab->max_end ? 0 : -1;
}

int symtab_load(struct symtab *tab, const uint8_t *file, size_t size, struct error *e)
{
    memset(tab, 0, sizeof(*tab));
    if (elf_version(EV_CURRENT) == EV_NONE)
        return unreadable(e);
    Elf *elf = elf_memory((char *)file, size);
    if (!elf)
        return unreadable(e);
    struct candidate *c = NULL;
    size_t n = 0;
    int rc = collect(elf, &c, &n, e);
    if (rc == 0) {
        if (n > 1)
            qsort(c, n, sizeof(*c), compare_candidates);
        rc = build(tab, c, n, e);
    }
    free(c);
    elf_end(elf);
    if (rc != 0)
        symtab_free(tab);
    return rc;
}

const struct symtab_func *symtab_lookup(const struct symtab *tab, uint64_t addr)
{
    size_t i = range_index_find(tab->funcs, tab->max_end, tab->count, sizeof(*tab->funcs), addr);
    return i == RANGE_NONE ? NULL : &tab->funcs[i];
}

void symtab_free(struct symtab *tab)
{
    free(tab->funcs);
    free(tab->max_end);
    free(tab->names);
    memset(tab, 0, sizeof(*tab));
}
