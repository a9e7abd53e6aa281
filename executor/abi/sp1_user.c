/*
 * sp1_user: SP1 v6's address space and user mode (sp1_user.h). Sources:
 * succinctlabs/sp1 v6.4.0 (f66b4bff), crates/core/executor/src/:
 * disassembler/elf.rs (the note, the page rights of the segments, the
 * trap context's symbol), minimal/arch/portable/mod.rs (prot_check,
 * prot_slice_check, page_prot_write, handle_interrupt, the user-mode fetch
 * and ecall), minimal/precompiles/ (each call's checks, in order),
 * crates/primitives/src/consts.rs (PROT_*, PROT_FAILURE_*, PAGE_SIZE).
 */
#include "executor/abi/sp1_user.h"

#include <string.h>

#include "executor/abi/abi_util.h"
#include "executor/machine.h"

enum {
    SP1_PROT_EXEC = 1, /* PF_X, PF_W, PF_R */
    SP1_PROT_WRITE = 2,
    SP1_PROT_READ = 4,
    SP1_FAILURE_EXEC = 1, /* PROT_FAILURE_*: RISC-V's cause numbers */
    SP1_FAILURE_READ = 5,
    SP1_FAILURE_WRITE = 7,
    SP1_NOTE_TYPE = 1, /* NOTE_UNTRUSTED_PROGRAM_ENABLED */
    SP1_NOTE_DESC_SIZE = 20,
};

#define SP1_SPACE_LO  0x1000ull    /* here: the first page stays unmapped, as on RV32 */
#define SP1_SPACE_END (1ull << 40) /* MAX_JIT_LOG_ADDR: the executors' memory ends there */

/* ---- the note ---- */

static uint32_t le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Whether a note's name is SUCCINCT: up to its first NUL, else all of it (elf.rs). */
static bool named_succinct(const uint8_t *name, uint32_t size)
{
    const uint8_t *nul = memchr(name, 0, size);
    size_t len = nul ? (size_t)(nul - name) : size;
    return len == 8 && memcmp(name, "SUCCINCT", 8) == 0;
}

/* Reads one note segment [at, end) of the file; the first SUCCINCT note decides. */
static void read_notes(const uint8_t *f, uint64_t at, uint64_t end, struct sp1_user *u)
{
    while (end - at >= 12) {
        uint32_t namesz = le32(f + at), descsz = le32(f + at + 4), type = le32(f + at + 8);
        uint64_t name = at + 12, desc = name + namesz + (4 - namesz % 4) % 4;
        if (namesz > end - name || desc > end || descsz > end - desc)
            return;
        const uint8_t *d = f + desc;
        if (type == SP1_NOTE_TYPE && named_succinct(f + name, namesz)) {
            if (descsz == SP1_NOTE_DESC_SIZE && memcmp(d, "1\0\0\0", 4) == 0) {
                u->note = SP1_NOTE_REGION;
                u->lo = le64(d + 4);
                u->hi = le64(d + 12);
                return;
            }
            if (descsz == 1 && d[0] == '1')
                u->note = SP1_NOTE_FLAG;
        }
        at = desc + descsz + (4 - descsz % 4) % 4;
    }
}

/* The PT_NOTE segments of the (64-bit) file. */
static void find_note(const struct elf_image *img, struct sp1_user *u)
{
    const uint8_t *f = img->file;
    size_t size = img->file_size;
    if (!f || img->xlen != 64 || size < 64)
        return;
    uint64_t phoff = le64(f + 0x20);
    uint16_t phentsize, phnum;
    memcpy(&phentsize, f + 0x36, 2);
    memcpy(&phnum, f + 0x38, 2);
    for (uint16_t i = 0; i < phnum && u->note != SP1_NOTE_REGION; i++) {
        uint64_t at = phoff + (uint64_t)i * phentsize;
        if (phentsize < 56 || at > size || size - at < 56)
            return;
        uint64_t off = le64(f + at + 8), len = le64(f + at + 32);
        if (le32(f + at) == 4 /* PT_NOTE */ && off <= size && len <= size - off)
            read_notes(f, off, off + len, u);
    }
}

/* abi_each_symbol: the first symbol named __SUCCINCT_TRAP_CONTEXT (elf.rs takes any). */
static void take_context(void *ctx, Elf *elf, const GElf_Sym *sym, const char *name)
{
    struct sp1_user *u = ctx;
    (void)elf;
    if (!u->has_context && strcmp(name, "__SUCCINCT_TRAP_CONTEXT") == 0) {
        u->has_context = true;
        u->context = sym->st_value;
    }
}

int sp1_user_read(const struct elf_image *img, bool release_has_traps, struct sp1_user *u,
                  struct error *e)
{
    memset(u, 0, sizeof(*u));
    find_note(img, u);
    if (release_has_traps && u->note == SP1_NOTE_REGION && u->hi <= u->lo)
        return error_fail(e, ERROR_UNSUPPORTED,
                          "the ELF's SUCCINCT note names an empty region [0x%llx, 0x%llx): SP1 "
                          "(v6.2 on) refuses to load it (elf.rs asserts heap_end > heap_start)",
                          (unsigned long long)u->lo, (unsigned long long)u->hi);
    u->on = release_has_traps && u->note == SP1_NOTE_REGION;
    if (u->on)
        abi_each_symbol(img, take_context, u);
    return 0;
}

/* ---- memory ---- */

/* Our rights for SP1's PROT_* bits, and back. */
static unsigned page_rights(unsigned prot)
{
    return (prot & SP1_PROT_READ ? PAGE_R : 0) | (prot & SP1_PROT_WRITE ? PAGE_W : 0) |
           (prot & SP1_PROT_EXEC ? PAGE_X : 0);
}

static unsigned sp1_prot(unsigned rights)
{
    return (rights & PAGE_R ? SP1_PROT_READ : 0) | (rights & PAGE_W ? SP1_PROT_WRITE : 0) |
           (rights & PAGE_X ? SP1_PROT_EXEC : 0);
}

void sp1_user_map(struct machine *m, const struct elf_image *img, const struct sp1_user *u)
{
    mem_fix_code(&m->mem);
    mem_grant_lazily(&m->mem, SP1_SPACE_LO, SP1_SPACE_END - SP1_SPACE_LO, PAGE_R | PAGE_W);
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (u->on) /* each segment's pages get its flags, a later segment's over an earlier's */
            mem_protect(&m->mem, s->vaddr, s->memsz, page_rights(s->rights));
        else
            mem_grant(&m->mem, s->vaddr, s->memsz, PAGE_R | PAGE_W | page_rights(s->rights));
        mem_poke(&m->mem, s->vaddr, s->data, s->filesz);
    }
    code_cache_predecode(&m->code, img, m->xlen);
}

/* ---- traps ---- */

/*
 * The PROT_FAILURE_* code when the page of addr lacks a right of `need`,
 * tested in SP1's order (exec, read, write); 0 when it has them all.
 */
static uint64_t failure(const struct machine *m, uint64_t addr, unsigned need)
{
    unsigned have = sp1_prot(mem_page_rights(&m->mem, addr));
    if ((need & SP1_PROT_EXEC) && !(have & SP1_PROT_EXEC))
        return SP1_FAILURE_EXEC;
    if ((need & SP1_PROT_READ) && !(have & SP1_PROT_READ))
        return SP1_FAILURE_READ;
    if ((need & SP1_PROT_WRITE) && !(have & SP1_PROT_WRITE))
        return SP1_FAILURE_WRITE;
    return 0;
}

static const char no_handler[] =
    "the page's rights forbid it and the ELF has no __SUCCINCT_TRAP_CONTEXT (SP1 panics: \"A "
    "memory permission failure happens\")";

/*
 * handle_interrupt: the handler from the context's first word, the code
 * and the pc into its second and third (no rights checked); m->pc becomes
 * the handler. False (m->fault.why set) when the context is not in memory.
 */
static bool enter_handler(struct machine *m, struct sp1_user *u, uint64_t code, uint64_t pc)
{
    uint64_t c = u->context & ~7ull, handler; /* SP1's memory is words of 8 bytes */
    if (!mem_range_has(&m->mem, c, 24, 0)) {
        m->fault.why = "__SUCCINCT_TRAP_CONTEXT lies outside memory";
        return false;
    }
    if (!mem_snapshot_note(&m->mem, c + 8, 16)) { /* a trap in an unconstrained block is undone */
        m->fault.why = "out of memory";
        return false;
    }
    memcpy(&handler, mem_host(&m->mem, c), 8);
    mem_poke(&m->mem, c + 8, &code, 8);
    mem_poke(&m->mem, c + 16, &pc, 8);
    m->pc = handler;
    u->traps++;
    return true;
}

/* The rights a faulting access needed, the address whose page SP1 checks, or 0: no trap. */
static unsigned needed(const struct fault *f, uint64_t *addr)
{
    switch (f->kind) {
    case FAULT_LOAD_UNMAPPED:
    case FAULT_MISALIGNED_LOAD: *addr = f->addr & ~7ull; return SP1_PROT_READ;
    case FAULT_STORE_UNMAPPED:
    case FAULT_STORE_READONLY:
    case FAULT_MISALIGNED_STORE: *addr = f->addr & ~7ull; return SP1_PROT_WRITE;
    case FAULT_FETCH_UNMAPPED:
    case FAULT_FETCH_NOT_EXECUTABLE: *addr = f->pc & ~7ull; return SP1_PROT_READ | SP1_PROT_EXEC;
    default: return 0;
    }
}

/* Whether the code cache holds an instruction slot at pc: a handler we can run. */
static bool runnable(const struct machine *m, uint64_t pc)
{
    return pc % 4 == 0 && pc - m->code.lo < m->code.span;
}

bool sp1_user_fault_traps(struct machine *m, struct sp1_user *u)
{
    uint64_t addr = 0;
    unsigned need = u->on ? needed(&m->fault, &addr) : 0;
    if (!need || addr < SP1_SPACE_LO || addr >= SP1_SPACE_END)
        return false;
    uint64_t code = failure(m, addr, need);
    if (!code) {
        if (need & SP1_PROT_EXEC)
            m->fault.why = "the target lies outside the ELF's text, on a page MPROTECT made "
                           "readable and executable: SP1 would fetch and run it as untrusted "
                           "code, which is not run here";
        return false; /* e.g. misaligned on a page that allows it: SP1 panics too */
    }
    if (!u->has_context) {
        m->fault.why = no_handler;
        return false;
    }
    if (!enter_handler(m, u, code, m->fault.pc))
        return false;
    if (runnable(m, m->pc))
        return true;
    m->fault.why = "the trap handler __SUCCINCT_TRAP_CONTEXT names is not in the program (SP1 "
                   "would trap there again, forever)";
    m->pc = m->fault.pc;
    return false;
}

/* ---- the precompiles' checks ---- */

/* An operand: `words` u64 words from the register's address plus `skip` words, needing `prot`. */
struct span_rule {
    uint8_t reg, skip, words, prot;
};

#define R_  SP1_PROT_READ
#define W_  SP1_PROT_WRITE
#define RW_ (SP1_PROT_READ | SP1_PROT_WRITE)
/* clang-format off */
#define ADD(words) {{REG_A1, 0, words, R_}, {REG_A0, 0, words, RW_}}
#define DOUBLE(words) {{REG_A0, 0, words, RW_}}
#define CARRY {{REG_A0, 0, 4, R_}, {REG_A1, 0, 4, R_}, {REG_A2, 0, 4, R_}, {REG_A3, 0, 4, W_}, \
               {REG_A4, 0, 4, W_}}
/* clang-format on */

/* Each v6 precompile's operands, in the order it checks them (minimal/precompiles/). */
static const struct {
    uint32_t code;
    struct span_rule spans[5];
} rules[] = {
    /* SHA_EXTEND, SHA_COMPRESS, ED_ADD, ED_DECOMPRESS, KECCAK_PERMUTE */
    {0x00300105, {{REG_A0, 0, 16, R_}, {REG_A0, 16, 48, RW_}}},
    {0x00010106, {{REG_A1, 0, 8, R_}, {REG_A0, 0, 64, R_}, {REG_A1, 0, 8, W_}}},
    {0x00010107, ADD(8)},
    {0x00000108, {{REG_A0, 4, 4, R_}, {REG_A0, 0, 4, W_}}},
    {0x00010109, {{REG_A0, 0, 25, R_}, {REG_A0, 0, 25, W_}}},
    /* SECP256K1_, BN254_, BLS12381_, SECP256R1_ ADD and DOUBLE */
    {0x0001010A, ADD(8)},
    {0x0000010B, DOUBLE(8)},
    {0x0001010E, ADD(8)},
    {0x0000010F, DOUBLE(8)},
    {0x0001011E, ADD(12)},
    {0x0000011F, DOUBLE(12)},
    {0x0001012C, ADD(8)},
    {0x0000012D, DOUBLE(8)},
    /* BLS12381_FP, _FP2, BN254_FP, _FP2: ADD, SUB, MUL */
    {0x00010120, ADD(6)},
    {0x00010121, ADD(6)},
    {0x00010122, ADD(6)},
    {0x00010123, ADD(12)},
    {0x00010124, ADD(12)},
    {0x00010125, ADD(12)},
    {0x00010126, ADD(4)},
    {0x00010127, ADD(4)},
    {0x00010128, ADD(4)},
    {0x00010129, ADD(8)},
    {0x0001012A, ADD(8)},
    {0x0001012B, ADD(8)},
    /* UINT256_MUL, UINT256_ADD_CARRY, _MUL_CARRY, POSEIDON2 */
    {0x0001011D, {{REG_A1, 0, 8, R_}, {REG_A0, 0, 4, RW_}}},
    {0x00010130, CARRY},
    {0x00010131, CARRY},
    {0x00000133, DOUBLE(8)},
};

/* The first PROT_FAILURE_* code of the pages of an operand (prot_slice_check), or 0. */
static uint64_t span_failure(const struct machine *m, const struct span_rule *s)
{
    uint64_t at = machine_get_reg(m, s->reg) + 8ull * s->skip, last = at + 8ull * (s->words - 1);
    for (uint64_t page = at >> 12; page <= last >> 12; page++) {
        uint64_t code = failure(m, page << 12, s->prot);
        if (code)
            return code;
    }
    return 0;
}

bool sp1_user_precompile_allowed(struct machine *m, struct sp1_user *u, uint64_t code,
                                 const char *name, enum ecall_result *r)
{
    size_t i = 0, n = sizeof(rules) / sizeof(rules[0]);
    while (u->on && i < n && rules[i].code != code)
        i++;
    if (!u->on || i == n)
        return true;
    for (const struct span_rule *s = rules[i].spans; s < rules[i].spans + 5 && s->words; s++) {
        if (machine_get_reg(m, s->reg) % 8) /* SP1 panics on it first: the call faults */
            return true;
        uint64_t why = span_failure(m, s);
        if (!why)
            continue;
        if (!u->has_context || !enter_handler(m, u, why, m->pc)) {
            *r = abi_fault(m, FAULT_ECALL_ARGUMENT, name, machine_get_reg(m, s->reg),
                           u->has_context ? "__SUCCINCT_TRAP_CONTEXT lies outside memory"
                                          : no_handler);
            return false;
        }
        machine_trace_transfer(m);
        *r = ECALL_JUMP;
        return false;
    }
    return true;
}

/* ---- the calls ---- */

enum ecall_result sp1_user_mprotect(struct machine *m, struct sp1_user *u)
{
    static const char name[] = "MPROTECT";
    uint64_t addr = machine_get_reg(m, REG_A0), prot = machine_get_reg(m, REG_A1);
    if (prot > 0xff)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, prot, "prot must be 8 bits (SP1 panics)");
    if (addr % GUEST_PAGE_SIZE)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, addr,
                         "addr must be page aligned (SP1 panics)");
    if (addr >= SP1_SPACE_END)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, addr,
                         "addr must be below 2^40, SP1's memory (SP1 panics)");
    if (prot != 0 && prot != (SP1_PROT_READ | SP1_PROT_WRITE) &&
        prot != (SP1_PROT_READ | SP1_PROT_EXEC) && prot != SP1_PROT_READ)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, prot,
                         "prot must be none, R, RW or RX (SP1 panics)");
    if (!u->on || addr < u->lo || addr >= u->hi)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, addr,
                         u->on ? "the page is outside the region the ELF's SUCCINCT note names "
                                 "(SP1 panics)"
                               : "SP1 panics: untrusted mode must be turned on (the ELF has no "
                                 "SUCCINCT note naming a region)");
    if (!mem_protect(&m->mem, addr, GUEST_PAGE_SIZE, page_rights((unsigned)prot)))
        return abi_fault(m, FAULT_HOST_MEMORY, name, addr, "out of memory");
    return ECALL_CONTINUE;
}

enum ecall_result sp1_user_sig_return(struct machine *m, struct sp1_user *u, uint64_t *t0)
{
    static const char name[] = "SIG_RETURN";
    uint64_t at = machine_get_reg(m, REG_A0) & ~7ull, saved[32]; /* words of 8 bytes */
    if (!u->on)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, name, at,
                         "it returns from a trap handler of SP1's user mode, which this ELF does "
                         "not turn on (no SUCCINCT note naming a region)");
    if (!mem_range_has(&m->mem, at, sizeof(saved), 0))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, at,
                         "the saved registers are not in memory");
    memcpy(saved, mem_host(&m->mem, at), sizeof(saved)); /* pc, then x1..x31; no rights checked */
    for (unsigned r = 1; r < 32; r++)
        machine_set_reg(m, r, saved[r]);
    *t0 = saved[5]; /* SP1 writes the call's result, the restored x5, into t0 */
    m->pc = saved[0];
    u->sig_returns++;
    machine_trace_transfer(m);
    return ECALL_JUMP;
}
