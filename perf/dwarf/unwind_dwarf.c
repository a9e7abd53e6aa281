/*
 * unwind_dwarf: libdw's unwinder (dwfl_attach_state, dwfl_getthread_frames)
 * fed with one sample's registers and stack copy, and started again where
 * perf's libunwind goes on and libdw would not; one Dwfl per process,
 * kept while the mappings over its modules stay the same.
 */
#include "perf/dwarf/unwind_dwarf.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hash_table.h"
#include "perf/dwarf/cfi_rules.h"
#include "perf/dwarf/elf_loads.h"

#define REGS_ABI_64    2 /* PERF_SAMPLE_REGS_ABI_64 */
#define MAX_DWARF_REGS 33

/* Which perf register (PERF_REG_<ARCH>_*) each DWARF register number is, and pc and sp. */
struct reg_map {
    const char *arch; /* HEADER_ARCH prefix */
    int nregs;        /* DWARF registers 0..nregs-1 are set */
    int8_t perf[MAX_DWARF_REGS];
    int pc, sp;
};

static const struct reg_map REG_MAPS[] = {
    /* DWARF rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip; perf AX BX CX DX SI DI BP SP IP .. R8 = 16
     */
    {"x86_64", 17, {0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8}, 8, 7},
    /* DWARF x0..x30, sp = perf's X0..X30, SP; pc is perf's 32 */
    {"aarch64",
     32,
     {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31},
     32,
     31},
};

/*
 * DWARF registers 0..16 of one frame (x86_64: rax .. r15, rip), the ones
 * known in `known`; `pc` is where its CFI is looked up (a caller's return
 * address minus 1), `cfa` libunwind's CFA (the sampled sp in the first).
 */
struct frame_regs {
    uint64_t value[17];
    uint32_t known;
    uint64_t pc, cfa;
};

/* Whether a pc has CFI, remembered per process (its modules stay while the Dwfl does). */
#define CFI_MEMO_SIZE 1024
struct cfi_memo {
    uint64_t pc; /* 0: empty */
    bool has_cfi;
};

/*
 * A pc's CFI rules, kept per process (its modules stay while the Dwfl
 * does); `rules.usable` false: no CFI row there, or one the rules cannot
 * express.
 */
#define RULES_MAX       16384 /* per process: about 4 MB */
#define RULES_SLOT_BITS 10    /* a direct-mapped index in front of the hash: one probe per frame */
#define RULES_SLOTS     (1u << RULES_SLOT_BITS)
struct rules_entry {
    uint64_t lookup; /* key */
    struct cfi_rules rules;
    bool caller_reported; /* the module at lookup + 1 (a return address) is reported */
    UT_hash_handle hh;
};

/* A mapped file's bytes, for memory the stack copy does not hold. */
struct file_image {
    const struct perf_dso *dso; /* key */
    const uint8_t *data;        /* NULL: not readable */
    size_t size;
    UT_hash_handle hh;
};

/*
 * Where a reported module lies, and a print of the mappings that
 * overlapped it then: while no mapping over it changes, the module stays
 * right, whatever else the process maps (its heap growing, data mmaps).
 */
struct module_span {
    uint64_t low, high;
    uint64_t print;
};

struct process {
    int32_t pid; /* key */
    Dwfl *dwfl;
    bool attached;
    const struct perf_maps *maps; /* the address space and generation the modules came from */
    uint64_t generation;
    struct module_span *spans; /* one per module reported */
    size_t nspans, spans_cap;
    bool spans_lost; /* a module's span could not be kept */
    uint64_t last_use;
    struct unwind_dwarf *u;
    /* The sample being unwound. */
    struct perf_thread *thread;
    const struct perf_sample *sample;
    uint64_t pc, sp;
    uint64_t *ips;
    size_t count, max, frames;
    bool memory_failed, module_missing;
    bool read_zero;      /* a word read as 0 since the last frame */
    bool last_read_zero; /* the last word read, from anywhere, was 0 */
    /* libunwind's view (x86_64), where libdw's differs: see "perf's libunwind" below. */
    struct frame_regs start;   /* the registers a round of libdw's unwinding starts from */
    struct frame_regs last;    /* the last frame's registers as libunwind has them */
    bool restart;              /* `start` holds the next round's registers */
    uint32_t last_libdw_known; /* the registers libdw itself has in the last frame */
    struct cfi_memo cfi_memo[CFI_MEMO_SIZE]; /* whether a pc has CFI, by pc */
    bool last_no_cfi;                        /* the last frame's pc has no CFI */
    struct rules_entry *rules;               /* uthash by pc: the kept CFI rules */
    size_t nrules;
    struct rules_entry *rules_slots[RULES_SLOTS]; /* the last entry hashed to each slot */
    UT_hash_handle hh;
};

struct unwind_dwarf {
    struct perf_machine *m;
    const struct reg_map *regs; /* NULL: an architecture without a map (pc only) */
    struct process *processes;  /* uthash by pid */
    size_t nprocesses;
    struct file_image *images; /* uthash by dso */
    uint64_t clock;
};

/*
 * No separate debug files: the CFI is the file's .eh_frame, as perf's
 * libunwind reader on x86_64 (built without .debug_frame support) has it.
 * Looking for them would also decompress whole debug files per process.
 */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
                        const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
                        char **debuginfo_file_name)
{
    (void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
    (void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
    return -1;
}

static const Dwfl_Callbacks DWFL_CALLBACKS = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = no_debuginfo,
    .section_address = dwfl_offline_section_address,
};

struct unwind_dwarf *unwind_dwarf_new(struct perf_machine *m, const char *arch)
{
    struct unwind_dwarf *u = calloc(1, sizeof(*u));
    if (!u)
        return NULL;
    u->m = m;
    for (size_t i = 0; arch && i < sizeof(REG_MAPS) / sizeof(REG_MAPS[0]); i++)
        if (strncmp(arch, REG_MAPS[i].arch, strlen(REG_MAPS[i].arch)) == 0)
            u->regs = &REG_MAPS[i];
    if (arch && !u->regs && strcmp(arch, "arm64") == 0)
        u->regs = &REG_MAPS[1];
    return u;
}

static void rules_clear(struct process *p)
{
    struct rules_entry *e, *tmp;
    HASH_ITER(hh, p->rules, e, tmp)
    {
        HASH_DEL(p->rules, e);
        free(e);
    }
    p->nrules = 0;
    memset(p->rules_slots, 0, sizeof(p->rules_slots));
}

static void process_free(struct unwind_dwarf *u, struct process *p)
{
    rules_clear(p);
    HASH_DEL(u->processes, p);
    u->nprocesses--;
    if (p->dwfl)
        dwfl_end(p->dwfl);
    free(p->spans);
    free(p);
}

void unwind_dwarf_free(struct unwind_dwarf *u)
{
    if (!u)
        return;
    struct process *p, *ptmp;
    HASH_ITER(hh, u->processes, p, ptmp)
    process_free(u, p);
    struct file_image *f, *ftmp;
    HASH_ITER(hh, u->images, f, ftmp)
    {
        HASH_DEL(u->images, f);
        if (f->data)
            munmap((void *)f->data, f->size);
        free(f);
    }
    free(u);
}

void unwind_dwarf_forget(struct unwind_dwarf *u, int32_t pid)
{
    struct process *p;
    HASH_FIND(hh, u->processes, &pid, sizeof(pid), p);
    if (p)
        process_free(u, p);
}

/* The sampled value of perf register `reg`, when it was recorded. */
static bool sampled_reg(const struct perf_sample *s, int reg, uint64_t *value)
{
    if (reg < 0 || reg > 63 || !(s->user_regs_mask & (1ull << reg)))
        return false;
    uint64_t below = s->user_regs_mask & ((1ull << reg) - 1);
    memcpy(value, s->user_regs + 8 * (size_t)__builtin_popcountll(below), 8);
    return true;
}

/* ---- memory: the stack copy, then the mapped files ---- */

static const struct file_image *file_image(struct unwind_dwarf *u, struct perf_dso *dso)
{
    struct file_image *f;
    HASH_FIND(hh, u->images, &dso, sizeof(dso), f);
    if (f)
        return f;
    if (!(f = calloc(1, sizeof(*f))))
        return NULL;
    f->dso = dso;
    int fd = dso->runtime_path ? open(dso->runtime_path, O_RDONLY | O_CLOEXEC) : -1;
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data != MAP_FAILED)
            f->data = data, f->size = (size_t)st.st_size;
    }
    if (fd >= 0)
        close(fd);
    bool hash_added = true;
    HASH_ADD(hh, u->images, dso, sizeof(f->dso), f);
    if (!hash_added) {
        if (f->data)
            munmap((void *)f->data, f->size);
        free(f);
        return NULL;
    }
    return f;
}

/* perf's access_dso_mem: the word at `addr` in the file mapped there. */
static bool read_file_word(struct process *p, uint64_t addr, uint64_t *word)
{
    const struct perf_map *map = perf_maps_find(p->thread->maps, addr);
    if (!map || !map->dso || map->identity)
        return false;
    if (perf_dso_load(map->dso, &p->u->m->paths))
        return false;
    const struct file_image *f = file_image(p->u, map->dso);
    uint64_t offset = addr - map->start + map->pgoff;
    if (!f || !f->data || offset > f->size || f->size - offset < 8)
        return false;
    memcpy(word, f->data + offset, 8);
    return true;
}

/*
 * The stack copy holds [sp, sp + size); like perf's libunwind reader
 * (the unwinder of this machine's perf), its last word is not used.
 */
static bool stack_copy_word(const struct process *p, uint64_t addr, uint64_t *word)
{
    uint64_t start = p->sp, size = p->sample->user_stack_size;
    if (addr < start || addr - start >= size || size - (addr - start) <= 8)
        return false;
    memcpy(word, p->sample->user_stack + (addr - start), 8);
    return true;
}

/*
 * The stack copy, then the mapped file. A word of no mapping fails; a
 * word of a mapping whose file does not have it ([stack], [heap], past
 * the file's end) reads as 0, as perf's access_mem answers it (its
 * failure code is not a negative one).
 */

static bool read_memory(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
    (void)dwfl;
    struct process *p = arg;
    uint64_t copied;
    if (stack_copy_word(p, addr, &copied)) {
        *result = copied;
        p->last_read_zero = copied == 0;
        return true;
    }
    uint64_t word;
    if (addr + 8 >= addr && read_file_word(p, addr, &word)) {
        *result = word;
        p->last_read_zero = word == 0;
        return true;
    }
    p->memory_failed = true;
    if (addr + 8 < addr || !perf_maps_find(p->thread->maps, addr))
        return false;
    p->read_zero = p->last_read_zero = true;
    *result = 0;
    return true;
}

/* ---- modules: the ELF file mapped at an address, reported once per Dwfl ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* A print of the mappings overlapping [low, high) (where they are, what file at what offset). */
static uint64_t span_print(const struct perf_maps *maps, uint64_t low, uint64_t high)
{
    uint64_t h = 0;
    for (size_t i = 0; i < maps->count; i++) {
        const struct perf_map *m = &maps->items[i];
        if (m->start < high && m->end > low)
            h = mix(mix(mix(mix(mix(h, m->start), m->end), m->pgoff), (uintptr_t)m->dso),
                    m->identity);
    }
    return h;
}

/* Remembers where a new module lies. Returns false when memory runs out. */
static bool add_span(struct process *p, Dwfl_Module *mod)
{
    Dwarf_Addr low, high;
    if (!dwfl_module_info(mod, NULL, &low, &high, NULL, NULL, NULL, NULL))
        return false;
    if (p->nspans == p->spans_cap) {
        size_t cap = p->spans_cap ? 2 * p->spans_cap : 8;
        struct module_span *spans = realloc(p->spans, cap * sizeof(*spans));
        if (!spans)
            return false;
        p->spans = spans;
        p->spans_cap = cap;
    }
    p->spans[p->nspans++] = (struct module_span){low, high, span_print(p->thread->maps, low, high)};
    return true;
}

/* Whether every module reported still has the mappings it had (so the Dwfl can stay). */
static bool spans_unchanged(const struct process *p, const struct perf_maps *maps)
{
    for (size_t i = 0; i < p->nspans; i++)
        if (span_print(maps, p->spans[i].low, p->spans[i].high) != p->spans[i].print)
            return false;
    return true;
}

static Dwfl_Module *report_module(struct process *p, uint64_t pc)
{
    Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, pc);
    if (mod)
        return mod;
    const struct perf_map *map = perf_maps_find(p->thread->maps, pc);
    if (!map || !map->dso || map->identity || perf_dso_load(map->dso, &p->u->m->paths) ||
        !map->dso->runtime_path)
        return NULL;
    /* the image sits at start - pgoff, unless its code is not at its file offset (lld) */
    const struct file_image *f = file_image(p->u, map->dso);
    int64_t delta = 0;
    if (f && f->data)
        elf_load_delta(f->data, f->size, map->pgoff, true, &delta);
    mod = dwfl_report_elf(p->dwfl, map->dso->name, map->dso->runtime_path, -1,
                          map->start - map->pgoff - (uint64_t)delta, false);
    if (mod && !add_span(p, mod))
        p->spans_lost = true; /* unknown span: the Dwfl goes at the next change */
    return mod && dwfl_addrmodule(p->dwfl, pc) == mod ? mod : NULL;
}

/*
 * ---- perf's libunwind (x86_64), where libdw's unwinder differs ----
 *
 * perf 6.1 unwinds with libunwind 1.6, whose rules differ from libdw's in
 * two places that samples meet (docs/PERF.md, "DWARF unwinding"):
 *
 * - a register the CFI says nothing about keeps its value in the caller;
 *   libdw 0.188 keeps only the ABI's callee-saved ones, and its x86_64
 *   list names rax where rbx is meant, so a CFA kept in rbx
 *   (_dl_runtime_resolve, stack realignment) ends libdw's stack there;
 * - at a pc without CFI (a `.fini` section: `_fini`) libunwind takes the
 *   caller from the frame pointer: pc = [rbp + 8], rbp = [rbp], nothing
 *   else known, and its CFA 16 past the last one (not rbp + 16, where
 *   libdw puts sp), if rbp lies within 16 KiB above that CFA.
 *
 * Each frame's registers are tracked as libunwind has them; where libdw
 * stops for want of a register libunwind has, or a pc has no CFI, libdw
 * starts again (a new round) from libunwind's registers for that frame.
 */

#define MAX_ROUNDS 16

static Dwarf_Frame *cfi_row(struct process *p, uint64_t lookup);

/*
 * Whether libdw's clean end came from a return address of 0 that
 * libunwind takes as a frame (perf prints it as 0 - 1, then stops): the
 * last word read was 0 and the last frame's CFI has a return address.
 * perf does so past the first caller only (a zero return address read
 * by the sampled frame's CFI ends its stack, as libdw's): perf script's
 * output in BadStacks and LineZeroRows is the reference for this rule.
 */
static bool zero_return_address(struct process *p)
{
    if (!p->last_read_zero || p->count < 2)
        return false;
    Dwarf_Frame *row = cfi_row(p, p->last.pc);
    Dwarf_Op ops_mem[3], *ops;
    size_t nops;
    bool has = row && dwarf_frame_register(row, 16, ops_mem, &ops, &nops) == 0 &&
               !(nops == 0 && ops == ops_mem);
    free(row);
    return has;
}

static void frame_regs_read(Dwfl_Frame *state, struct frame_regs *r)
{
    r->known = 0;
    for (unsigned i = 0; i < 17; i++)
        if (dwfl_frame_reg(state, i, &r->value[i]) == 0)
            r->known |= 1u << i;
}

/* The CFI row for `lookup` (freed by the caller), or NULL. */
static Dwarf_Frame *cfi_row(struct process *p, uint64_t lookup)
{
    Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, lookup);
    Dwarf_Addr bias;
    Dwarf_CFI *cfi = mod ? dwfl_module_eh_cfi(mod, &bias) : NULL;
    Dwarf_Frame *row;
    return cfi && dwarf_cfi_addrframe(cfi, lookup - bias, &row) == 0 ? row : NULL;
}

/* libunwind's step from a frame without CFI; false: the stack ends there. */
static bool guess_caller(struct process *p)
{
    const struct frame_regs *r = &p->last;
    Dwarf_Word rbp, caller_rbp, ra;
    if (!(r->known & (1u << 6)) || (rbp = r->value[6]) == 0)
        return false;
    if (!read_memory(p->dwfl, rbp, &caller_rbp, p) || rbp < r->cfa || rbp - r->cfa > 0x4000 ||
        !read_memory(p->dwfl, rbp + 8, &ra, p))
        return false;
    p->memory_failed = false;    /* libunwind's guess fails quietly */
    p->ips[p->count++] = ra - 1; /* 0 - 1 for a zero, as perf prints it; then no module */
    if (ra == 0 || p->count >= p->max || !report_module(p, ra - 1))
        return false;
    p->start = (struct frame_regs){.known = 1u << 6 | 1u << 7, .pc = ra - 1, .cfa = r->cfa + 16};
    p->start.value[6] = caller_rbp;
    p->start.value[7] = r->cfa + 16;
    return true;
}

/*
 * Tracks the frame's registers as libunwind has them (the caller keeps
 * what the CFI does not mention). False when the pc has no CFI: libdw
 * must not guess the caller its way.
 */
static bool libunwind_frame(struct process *p, Dwfl_Frame *state, bool first, uint64_t lookup)
{
    struct frame_regs r;
    if (first && p->restart) {
        r = p->start;
        p->last_libdw_known = r.known;
    } else {
        frame_regs_read(state, &r);
        p->last_libdw_known = r.known;
        for (unsigned i = 0; !first && i < 16; i++)
            if (!(r.known & (1u << i)) && (p->last.known & (1u << i)))
                r.value[i] = p->last.value[i], r.known |= 1u << i;
        r.pc = lookup;
        r.cfa = r.value[7];
    }
    p->last = r;
    struct cfi_memo *m = &p->cfi_memo[(lookup ^ lookup >> 10) % CFI_MEMO_SIZE];
    if (m->pc != lookup || lookup == 0) {
        Dwarf_Frame *row = cfi_row(p, lookup);
        *m = (struct cfi_memo){lookup, row != NULL};
        free(row);
    }
    p->last_no_cfi = !m->has_cfi;
    return m->has_cfi;
}

/*
 * Where libdw stopped (or was stopped), whether libunwind goes on: from a
 * frame without CFI by the frame pointer, or with a CFA register libdw
 * had dropped. Sets up the next round; false: the stack ends here.
 */
static bool libunwind_goes_on(struct process *p)
{
    if (p->memory_failed || p->module_missing || p->count >= p->max)
        return false;
    if (p->last_no_cfi)
        return guess_caller(p);
    Dwarf_Frame *row = cfi_row(p, p->last.pc);
    Dwarf_Op *ops;
    size_t nops;
    bool dropped = false;
    if (row && dwarf_frame_cfa(row, &ops, &nops) == 0 && nops == 1) {
        /* the CFA a register plus an offset (libdw gives DW_OP_bregx) */
        uint64_t reg =
            ops[0].atom == DW_OP_bregx ? ops[0].number : (uint64_t)(ops[0].atom - DW_OP_breg0);
        dropped = (ops[0].atom == DW_OP_bregx ||
                   (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg16)) &&
                  reg < 16 && reg != 7 && (p->last.known & (1u << reg)) &&
                  !(p->last_libdw_known & (1u << reg));
    }
    free(row);
    if (!dropped)
        return false;
    p->start = p->last;
    return true;
}

/* ---- the thread callbacks: one thread, the sample's ---- */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
    (void)dwfl;
    (void)arg;
    (void)thread_arg;
    return 0; /* threads are asked for by id (get_thread) */
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_arg)
{
    (void)dwfl;
    (void)tid;
    *thread_arg = arg;
    return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
    struct process *p = arg;
    const struct reg_map *map = p->u->regs;
    if (p->restart) { /* a later round: the registers libunwind has at its first frame */
        for (int i = 0; i < 17; i++)
            if ((p->start.known & (1u << i)) &&
                !dwfl_thread_state_registers(thread, i, 1, &p->start.value[i]))
                return false;
        dwfl_thread_state_register_pc(thread, p->start.pc);
        return true;
    }
    for (int i = 0; i < map->nregs; i++) {
        Dwarf_Word value;
        if (sampled_reg(p->sample, map->perf[i], &value) &&
            !dwfl_thread_state_registers(thread, i, 1, &value))
            return false;
    }
    dwfl_thread_state_register_pc(thread, p->pc);
    return true;
}

static const Dwfl_Thread_Callbacks THREAD_CALLBACKS = {
    .next_thread = next_thread,
    .get_thread = get_thread,
    .memory_read = read_memory,
    .set_initial_registers = set_initial_registers,
};

/* perf's frame_callback: each caller's return address minus 1, unless a signal frame. */
static int on_frame(Dwfl_Frame *state, void *arg)
{
    struct process *p = arg;
    Dwarf_Addr pc;
    bool activation, failed_before = p->memory_failed;
    if (!dwfl_frame_pc(state, &pc, NULL))
        return DWARF_CB_ABORT;
    p->read_zero = false;
    bool first = p->frames++ == 0; /* the sampled pc, or a restart's: already there */
    if (!first && !report_module(p, pc))
        p->module_missing = true; /* kept: perf prints it, then cannot go on */
    /* after the report: to tell an activation, libdw unwinds this frame with its module */
    if (!dwfl_frame_pc(state, &pc, &activation))
        return DWARF_CB_ABORT;
    uint64_t lookup = activation ? pc : pc - 1;
    if (!first)
        p->ips[p->count++] = lookup;
    if (p->u->regs == &REG_MAPS[0] && !p->module_missing &&
        !libunwind_frame(p, state, first, lookup)) {
        p->memory_failed = failed_before; /* what libdw read for its own guess does not count */
        p->read_zero = false;
        return DWARF_CB_ABORT; /* no CFI: libunwind's guess is the next round */
    }
    return p->count < p->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/*
 * ---- the kept rules: most stacks without libdw's unwinder ----
 *
 * Each pc's CFI row is read from libdw once and kept as cfi_rules; a
 * stack whose every frame those rules take to its outermost frame (or to
 * `max`), reading only the stack copy and the mapped files, is unwound
 * by them alone, with libunwind's rules above. Anything else (a pc
 * without usable CFI, a word the stack copy and the files do not hold, a
 * return address of 0, a module missing) gives the sample to libdw's
 * rounds above, which decide it as they always have.
 */

/*
 * The kept rules at `lookup`; for a caller (`ra`, not 0), after its
 * module is reported as on_frame reports it (once per entry: a module
 * stays reported while the Dwfl, and so the entry, lives). NULL: no usable
 * rules, or no module there.
 */
static const struct cfi_rules *rules_at(struct process *p, uint64_t lookup, uint64_t ra)
{
    struct rules_entry **slot =
        &p->rules_slots[(lookup * 0x9e3779b97f4a7c15ull) >> (64 - RULES_SLOT_BITS)];
    struct rules_entry *e = *slot;
    if (!e || e->lookup != lookup)
        HASH_FIND(hh, p->rules, &lookup, sizeof(lookup), e);
    if (e)
        *slot = e;
    if (e && (ra == 0 || e->caller_reported))
        return e->rules.usable ? &e->rules : NULL;
    if (ra != 0 && !report_module(p, ra))
        return NULL;
    if (e) {
        e->caller_reported = true;
        return e->rules.usable ? &e->rules : NULL;
    }
    if (!dwfl_addrmodule(p->dwfl, lookup))
        return NULL; /* not kept: a module reported later may hold it */
    if (p->nrules >= RULES_MAX)
        rules_clear(p);
    if (!(e = calloc(1, sizeof(*e))))
        return NULL;
    e->lookup = lookup;
    e->caller_reported = ra != 0;
    Dwarf_Frame *row = cfi_row(p, lookup);
    if (row)
        cfi_rules_of_frame(row, &e->rules);
    free(row);
    bool hash_added = true;
    HASH_ADD(hh, p->rules, lookup, sizeof(e->lookup), e);
    if (!hash_added) {
        free(e);
        return NULL;
    }
    p->nrules++;
    *slot = e;
    return e->rules.usable ? &e->rules : NULL;
}

/* A word of the stack copy (not its last) or of the file mapped there; nothing else. */
static bool rules_read(void *arg, uint64_t addr, uint64_t *word)
{
    struct process *p = arg;
    return stack_copy_word(p, addr, word) || (addr + 8 >= addr && read_file_word(p, addr, word));
}

/* The sampled registers as DWARF registers 0..16 (x86_64's map), in one pass over the mask. */
static void sampled_cfi_regs(const struct perf_sample *s, struct cfi_regs *regs)
{
    uint64_t perf[64];
    uint64_t mask = s->user_regs_mask;
    for (size_t n = 0; mask; mask &= mask - 1, n++)
        memcpy(&perf[__builtin_ctzll(mask)], s->user_regs + 8 * n, 8);
    regs->known = 0;
    for (int i = 0; i < CFI_RULE_REGS; i++) {
        int reg = REG_MAPS[0].perf[i];
        regs->value[i] = 0;
        if (s->user_regs_mask & (1ull << reg))
            regs->value[i] = perf[reg], regs->known |= 1u << i;
    }
}

/* Unwinds the sample by the kept rules (x86_64); false: libdw is to do it. */
static bool unwind_by_rules(struct process *p, enum unwind_end *end)
{
    struct cfi_regs regs;
    sampled_cfi_regs(p->sample, &regs);
    const struct cfi_rules *rules = rules_at(p, p->pc, 0);
    uint64_t size = p->sample->user_stack_size; /* its last word is not read (stack_copy_word) */
    const struct cfi_stack stack = {p->sp, p->sample->user_stack, size > 8 ? size - 8 : 0};
    size_t count = 1;
    while (count < p->max) {
        enum cfi_step step = /* the caller's registers in place of the callee's */
            rules ? cfi_rules_step(rules, &regs, &regs, &stack, rules_read, p) : CFI_STEP_GIVE_UP;
        if (step == CFI_STEP_GIVE_UP)
            return false;
        if (step == CFI_STEP_OUTERMOST)
            break;
        uint64_t ra = regs.value[CFI_RA_REG];
        p->ips[count++] = ra - 1;
        if (count < p->max)
            rules = rules_at(p, ra - 1, ra);
        else if (!report_module(p, ra))
            return false;
    }
    p->count = count;
    *end = UNWIND_COMPLETE;
    return true;
}

/* ---- processes ---- */

static void evict_oldest(struct unwind_dwarf *u)
{
    struct process *p, *tmp, *oldest = NULL;
    HASH_ITER(hh, u->processes, p, tmp)
    if (!oldest || p->last_use < oldest->last_use)
        oldest = p;
    if (oldest)
        process_free(u, oldest);
}

/* The process's Dwfl for the thread's current mappings; NULL when memory runs out. */
static struct process *process_of(struct unwind_dwarf *u, struct perf_thread *t)
{
    int32_t pid = t->pid >= 0 ? t->pid : t->tid;
    struct process *p;
    HASH_FIND(hh, u->processes, &pid, sizeof(pid), p);
    if (p && p->maps == t->maps && p->generation != t->maps->generation && !p->spans_lost &&
        spans_unchanged(p, t->maps))
        p->generation = t->maps->generation; /* the heap grew, data was mapped: same modules */
    if (p && (p->maps != t->maps || p->generation != t->maps->generation)) {
        process_free(u, p); /* exec, dlopen, munmap: other modules */
        p = NULL;
    }
    if (!p) {
        if (u->nprocesses >= UNWIND_MAX_PROCESSES)
            evict_oldest(u);
        if (!(p = calloc(1, sizeof(*p))))
            return NULL;
        p->pid = pid;
        p->u = u;
        p->maps = t->maps;
        p->generation = t->maps->generation;
        bool hash_added = true;
        HASH_ADD(hh, u->processes, pid, sizeof(p->pid), p);
        if (!hash_added || !(p->dwfl = dwfl_begin(&DWFL_CALLBACKS))) {
            if (hash_added)
                HASH_DEL(u->processes, p);
            if (p->dwfl)
                dwfl_end(p->dwfl);
            free(p);
            return NULL;
        }
        u->nprocesses++;
    }
    p->last_use = ++u->clock;
    return p;
}

/*
 * Reports the pc's module; the first time, attaches the thread callbacks
 * (dwfl_attach_state takes its machine from a reported module: the pc's,
 * else any file mapped).
 */
static bool attach(struct process *p)
{
    bool have = report_module(p, p->pc) != NULL;
    if (p->attached)
        return true;
    for (size_t i = 0; !have && i < p->thread->maps->count; i++) {
        const struct perf_map *map = &p->thread->maps->items[i];
        have = report_module(p, map->start) != NULL;
    }
    p->attached = have && dwfl_attach_state(p->dwfl, NULL, p->pid, &THREAD_CALLBACKS, p);
    return p->attached;
}

/* libdw ends cleanly where a register could not be read: a failed read is a cut stack too. */
static enum unwind_end why_stopped(const struct process *p, int rc)
{
    if (p->count >= p->max)
        return UNWIND_COMPLETE;
    if (p->memory_failed)
        return UNWIND_STACK_CUT;
    if (rc == 0)
        return UNWIND_COMPLETE;
    if (p->module_missing)
        return UNWIND_NO_MODULE;
    return UNWIND_BAD_CFI;
}

size_t unwind_dwarf_user(struct unwind_dwarf *u, struct perf_thread *thread,
                         const struct perf_sample *sample, uint64_t *ips, size_t max,
                         enum unwind_end *end)
{
    uint64_t pc, sp;
    *end = UNWIND_NO_REGS;
    if (max == 0 || !u->regs || sample->user_regs_abi != REGS_ABI_64 ||
        !sampled_reg(sample, u->regs->pc, &pc))
        return 0;
    ips[0] = pc;
    if (!sampled_reg(sample, u->regs->sp, &sp) || max == 1)
        return 1;
    struct process *p = process_of(u, thread);
    if (!p) {
        *end = UNWIND_NO_MEMORY;
        return 1;
    }
    p->thread = thread;
    p->sample = sample;
    p->pc = pc;
    p->sp = sp;
    p->ips = ips;
    p->count = 1;
    p->max = max;
    p->frames = 0;
    p->memory_failed = p->module_missing = p->read_zero = false;
    p->restart = p->last_no_cfi = p->last_read_zero = false;
    if (!attach(p)) {
        *end = UNWIND_NO_MODULE;
        return 1;
    }
    if (p->u->regs == &REG_MAPS[0] && unwind_by_rules(p, end)) {
        p->thread = NULL;
        p->sample = NULL;
        p->ips = NULL;
        return p->count;
    }
    int rc = dwfl_getthread_frames(p->dwfl, sample->tid, on_frame, p);
    for (int round = 1; round < MAX_ROUNDS && p->u->regs == &REG_MAPS[0] && libunwind_goes_on(p);
         round++) {
        p->restart = true;
        p->frames = 0;
        p->read_zero = p->last_no_cfi = false;
        rc = dwfl_getthread_frames(p->dwfl, sample->tid, on_frame, p);
    }
    p->restart = false;
    *end = why_stopped(p, rc);
    if (rc == 0 && p->count < p->max &&
        (p->read_zero || (p->u->regs == &REG_MAPS[0] && !p->memory_failed && !p->module_missing &&
                          zero_return_address(p)))) {
        /* libunwind goes on to a return address of 0 (printed as 0 - 1); libdw stops */
        p->ips[p->count++] = UINT64_MAX;
        *end = UNWIND_STACK_CUT;
    }
    p->thread = NULL;
    p->sample = NULL;
    p->ips = NULL;
    return p->count;
}
