/*
 * elf_symbols: perf's per-symbol filters and address adjustment, then
 * the PLT synthesis of perf 6.1 (header and entries of .plt's entry
 * size, one entry per .rela.plt / .rel.plt relocation, in order).
 */
#include "perf/symbols/elf_symbols.h"

#include <stdlib.h>
#include <string.h>

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

static bool is_function(const GElf_Sym *sym)
{
    int type = GELF_ST_TYPE(sym->st_info);
    return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_name != 0 &&
           sym->st_shndx != SHN_UNDEF;
}

/* perf also keeps data objects (for data addresses); they shape its tree and its ends. */
static bool is_object(const GElf_Sym *sym)
{
    return GELF_ST_TYPE(sym->st_info) == STT_OBJECT && sym->st_name != 0 &&
           sym->st_shndx != SHN_UNDEF;
}

static bool is_label(const GElf_Sym *sym)
{
    int vis = GELF_ST_VISIBILITY(sym->st_other);
    return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_name != 0 &&
           sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS && vis != STV_HIDDEN &&
           vis != STV_INTERNAL;
}

/* ARM's "$a", "$d", "$t", "$x" mapping symbols name no function. */
static bool is_arm_mapping_symbol(const char *name)
{
    return name[0] == '$' && strchr("adtx", name[1]) && name[1] &&
           (name[2] == '\0' || name[2] == '.');
}

/*
 * What add_symbol asks of a section and of the runtime image's PT_LOAD
 * segments, read once per table instead of once per symbol (binaries
 * like cc1 have tens of thousands of symbols in a few sections).
 */
struct section_info {
    bool read, usable; /* usable: found and SHF_ALLOC */
    bool text_or_data; /* its name has "text" or "data" (labels need one) */
    GElf_Shdr shdr;    /* the runtime header (debug files hold NOBITS copies) */
};

struct symbol_context {
    const struct elf_file *syms, *runtime;
    int machine;
    GElf_Phdr *loads; /* the runtime image's PT_LOADs, in header order */
    size_t nloads;
    struct section_info *sections;
    size_t nsections;
};

/* The runtime image's PT_LOAD headers, in order. Returns false when memory runs out. */
static bool read_loads(struct symbol_context *c)
{
    size_t n;
    if (elf_getphdrnum(c->runtime->elf, &n) != 0 || n == 0)
        return true;
    if (!(c->loads = malloc(n * sizeof(*c->loads))))
        return false;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr phdr;
        if (gelf_getphdr(c->runtime->elf, (int)i, &phdr) && phdr.p_type == PT_LOAD)
            c->loads[c->nloads++] = phdr;
    }
    return true;
}

/* perf's elf_read_program_header: the PT_LOAD holding vaddr. */
static const GElf_Phdr *load_segment_of(const struct symbol_context *c, uint64_t vaddr)
{
    for (size_t i = 0; i < c->nloads; i++) {
        const GElf_Phdr *phdr = &c->loads[i];
        uint64_t size = phdr->p_memsz > phdr->p_filesz ? phdr->p_memsz : phdr->p_filesz;
        if (size && vaddr >= phdr->p_vaddr && vaddr - phdr->p_vaddr < size)
            return phdr;
    }
    return NULL;
}

static bool section_name_has(Elf *elf, const GElf_Shdr *shdr, const char *word)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return false;
    const char *name = elf_strptr(elf, shstrndx, shdr->sh_name);
    return name && strstr(name, word);
}

/* Reads the section header a symbol's section has at run time (debug files hold NOBITS copies). */
static void read_section(const struct symbol_context *c, size_t index, struct section_info *info)
{
    info->read = true;
    Elf_Scn *scn = elf_getscn(c->syms->elf, index);
    if (!scn || !gelf_getshdr(scn, &info->shdr))
        return;
    Elf *owner = c->syms->elf;
    if (info->shdr.sh_type == SHT_NOBITS) {
        scn = elf_getscn(c->runtime->elf, index);
        if (!scn || !gelf_getshdr(scn, &info->shdr))
            return;
        owner = c->runtime->elf;
    }
    info->usable = (info->shdr.sh_flags & SHF_ALLOC) != 0;
    info->text_or_data = info->usable && (section_name_has(owner, &info->shdr, "text") ||
                                          section_name_has(owner, &info->shdr, "data"));
}

/* Section `index` as add_symbol needs it; NULL when it is not a usable section. */
static const struct section_info *section_of(struct symbol_context *c, size_t index)
{
    if (index >= c->nsections)
        return NULL; /* SHN_ABS, SHN_COMMON, damaged: elf_getscn has no such section */
    struct section_info *info = &c->sections[index];
    if (!info->read)
        read_section(c, index, info);
    return info->usable ? info : NULL;
}

/* A symbol's value as a file offset of the binary that ran. */
static uint64_t file_offset_of(const struct symbol_context *c, uint64_t value,
                               const GElf_Shdr *section)
{
    const GElf_Phdr *phdr = load_segment_of(c, value);
    if (phdr)
        return value - (phdr->p_vaddr - phdr->p_offset);
    return value - (section->sh_addr - section->sh_offset);
}

/* A symbol as read (demangled later: perf_demangle_symbol), `suffix` appended. */
static int add_named(struct symbol_builder *b, uint64_t start, uint64_t size, uint8_t binding,
                     const char *name, const char *suffix)
{
    if (!suffix && b->borrow)
        return symbol_builder_add_borrowed(b, start, size, binding, name);
    if (!suffix)
        return symbol_builder_add(b, start, size, binding, name, strlen(name));
    size_t n = strlen(name), m = strlen(suffix);
    char *full = malloc(n + m + 1);
    if (!full)
        return -1;
    memcpy(full, name, n);
    memcpy(full + n, suffix, m + 1);
    int rc = symbol_builder_add(b, start, size, binding, full, n + m);
    free(full);
    return rc;
}

/* One symbol table entry: 1 added, 0 skipped, -1 out of memory. */
static int add_symbol(struct symbol_builder *b, struct symbol_context *c, GElf_Sym *sym,
                      const char *name)
{
    bool label = is_label(sym);
    if (!label && !is_function(sym) && !is_object(sym))
        return 0;
    if ((c->machine == EM_ARM || c->machine == EM_AARCH64) && is_arm_mapping_symbol(name))
        return 0;
    const struct section_info *section = section_of(c, sym->st_shndx);
    if (!section || (label && !section->text_or_data))
        return 0;
    uint64_t value = sym->st_value;
    if (c->machine == EM_ARM && GELF_ST_TYPE(sym->st_info) == STT_FUNC && (value & 1))
        value--; /* Thumb */
    value = file_offset_of(c, value, &section->shdr);
    if (add_named(b, value, sym->st_size, GELF_ST_BIND(sym->st_info), name, NULL))
        return -1;
    return 1;
}

/*
 * A symbol table's string section read in place: elf_strptr's answers
 * (a name is there when it starts inside the section and a '\0' follows
 * it there) without its per-call checks, tens of thousands of times.
 */
struct string_table {
    Elf *elf;
    size_t index;
    const char *data; /* NULL: ask elf_strptr (compressed, not a string table, ...) */
    size_t last_nul;  /* names start at or before it */
};

static void open_strings(struct string_table *st, Elf *elf, size_t index)
{
    *st = (struct string_table){.elf = elf, .index = index};
    Elf_Scn *scn = elf_getscn(elf, index);
    GElf_Shdr shdr;
    Elf_Data *data;
    if (!scn || !gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_STRTAB ||
        (shdr.sh_flags & SHF_COMPRESSED) || !(data = elf_rawdata(scn, NULL)) || !data->d_buf ||
        data->d_size != shdr.sh_size)
        return;
    const char *bytes = data->d_buf;
    size_t last = data->d_size;
    while (last > 0 && bytes[last - 1] != '\0') /* (normally the last byte) */
        last--;
    if (last == 0)
        return;
    st->data = bytes;
    st->last_nul = last - 1;
}

static const char *string_at(const struct string_table *st, size_t offset)
{
    if (!st->data)
        return elf_strptr(st->elf, st->index, offset);
    return offset <= st->last_nul ? st->data + offset : NULL;
}

static long add_symbols(struct symbol_builder *b, struct symbol_context *c, Elf_Data *data,
                        const GElf_Shdr *shdr)
{
    size_t n = data->d_size / shdr->sh_entsize;
    long added = 0;
    struct string_table strings;
    open_strings(&strings, c->syms->elf, shdr->sh_link);
    /* a 64-bit table in memory (elf_getdata: host order, aligned) is GElf_Syms already */
    const GElf_Sym *native = gelf_getclass(c->syms->elf) == ELFCLASS64 &&
                                     data->d_type == ELF_T_SYM &&
                                     shdr->sh_entsize == sizeof(Elf64_Sym)
                                 ? data->d_buf
                                 : NULL;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym sym;
        if (native)
            sym = native[i];
        else if (!gelf_getsym(data, (int)i, &sym))
            continue;
        const char *name = string_at(&strings, sym.st_name);
        if (!name)
            continue;
        int rc = add_symbol(b, c, &sym, name);
        if (rc < 0)
            return -1;
        added += rc;
    }
    return added;
}

long elf_symbols_read(struct symbol_builder *b, const struct elf_file *syms,
                      const struct elf_file *runtime)
{
    Elf_Scn *scn = syms->symtab ? syms->symtab : syms->dynsym;
    GElf_Shdr shdr;
    GElf_Ehdr ehdr;
    if (!scn || !gelf_getshdr(scn, &shdr) || shdr.sh_entsize == 0 ||
        !gelf_getehdr(syms->elf, &ehdr))
        return 0;
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data)
        return 0;
    struct symbol_context c = {.syms = syms, .runtime = runtime, .machine = ehdr.e_machine};
    size_t nsections = 0;
    elf_getshdrnum(syms->elf, &nsections);
    long added = -1;
    if (symbol_builder_reserve(b, b->count + data->d_size / shdr.sh_entsize) == 0 &&
        read_loads(&c) &&
        (nsections == 0 || (c.sections = calloc(nsections, sizeof(*c.sections))))) {
        c.nsections = nsections;
        b->demangle = true; /* names are kept as read */
        added = add_symbols(b, &c, data, &shdr);
    }
    free(c.loads);
    free(c.sections);
    if (added > 0 && symbol_builder_fixup(b, false))
        return -1;
    return added;
}

/* perf 6.1's PLT header and entry sizes per machine. */
static void plt_sizes(int machine, const GElf_Shdr *plt, uint64_t *header, uint64_t *entry)
{
    switch (machine) {
    case EM_ARM: *header = 20, *entry = 12; break;
    case EM_AARCH64: *header = 32, *entry = 16; break;
    case EM_SPARC: *header = 48, *entry = 12; break;
    case EM_SPARCV9: *header = 128, *entry = 32; break;
    default: *header = *entry = plt->sh_entsize; break;
    }
}

static int relocation_symbol(Elf_Data *rel, bool rela, size_t i, size_t *sym_index)
{
    if (rela) {
        GElf_Rela r;
        if (!gelf_getrela(rel, (int)i, &r))
            return -1;
        *sym_index = GELF_R_SYM(r.r_info);
    } else {
        GElf_Rel r;
        if (!gelf_getrel(rel, (int)i, &r))
            return -1;
        *sym_index = GELF_R_SYM(r.r_info);
    }
    return 0;
}

long elf_plt_symbols(struct symbol_builder *b, const struct elf_file *runtime)
{
    GElf_Shdr plt, rel, dyn;
    GElf_Ehdr ehdr;
    if (!runtime->dynsym || !gelf_getehdr(runtime->elf, &ehdr) ||
        !elf_file_section(runtime, ".plt", &plt, NULL))
        return 0;
    Elf_Scn *rel_scn = elf_file_section(runtime, ".rela.plt", &rel, NULL);
    if (!rel_scn)
        rel_scn = elf_file_section(runtime, ".rel.plt", &rel, NULL);
    if (!rel_scn || (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL) ||
        rel.sh_link != runtime->dynsym_index || rel.sh_entsize == 0 ||
        !gelf_getshdr(runtime->dynsym, &dyn))
        return 0;
    Elf_Data *rel_data = elf_getdata(rel_scn, NULL), *syms = elf_getdata(runtime->dynsym, NULL);
    if (!rel_data || !syms)
        return 0;
    uint64_t header, entry;
    plt_sizes(ehdr.e_machine, &plt, &header, &entry);
    uint64_t offset = plt.sh_offset + header;
    size_t n = rel.sh_size / rel.sh_entsize;
    long added = 0;
    for (size_t i = 0; i < n; i++, offset += entry) {
        size_t index;
        GElf_Sym sym;
        if (relocation_symbol(rel_data, rel.sh_type == SHT_RELA, i, &index) ||
            !gelf_getsym(syms, (int)index, &sym))
            continue;
        const char *name = elf_strptr(runtime->elf, dyn.sh_link, sym.st_name);
        if (!name)
            name = "";
        if (add_named(b, offset, entry, STB_GLOBAL, name, "@plt"))
            return -1;
        added++;
    }
    return added;
}
