/*
 * machine: a hart's life cycle: builds it from an ELF image (code cache,
 * and through its ABI the memory map and entry state), runs it in the
 * interpreter's loops, passes its ecalls to the ABI, and tears it down.
 * The loops' out-of-line slow paths are in interp_slow.c.
 */
#include "executor/machine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "executor/interp.h"
#include "executor/translate/translate.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "guest memory is accessed in place: the host must be little-endian, like RISC-V");

uint64_t machine_map_segments(struct machine *m, const struct elf_image *img,
                              unsigned rights_override)
{
    uint64_t highest_end = 0;
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        unsigned rights = (s->rights & SEG_R ? PAGE_R : 0) | (s->rights & SEG_W ? PAGE_W : 0) |
                          (s->rights & SEG_X ? PAGE_X : 0);
        mem_grant(&m->mem, s->vaddr, s->memsz, rights_override ? rights_override : rights);
        mem_poke(&m->mem, s->vaddr, s->data, s->filesz);
        if (s->vaddr + s->memsz > highest_end)
            highest_end = s->vaddr + s->memsz;
    }
    return highest_end;
}

int machine_init(struct machine *m, const struct elf_image *img, const struct abi *abi,
                 const struct machine_io *io, struct error *e)
{
    memset(m, 0, sizeof(*m));
    m->xlen = img->xlen;
    m->io = *io;
    m->pc = img->entry;
    m->abi = abi; /* its destroy frees whatever its setup made, even when setup fails */
    if (!mem_init(&m->mem))
        return error_fail_errno(e, ERROR_NO_MEMORY, errno,
                                "cannot reserve the 4 GiB guest address space");
    if (code_cache_init(&m->code, img, e) != 0) {
        mem_destroy(&m->mem);
        return -1;
    }
    m->code.aligned_access = abi->aligned_access;
    if (abi->aligned_access) /* so no access crosses a rights entry */
        mem_align_accesses(&m->mem);
    if (abi->setup(m, img, e) != 0) {
        machine_destroy(m);
        return -1;
    }
    return 0;
}

void machine_destroy(struct machine *m)
{
    translate_free(m->translator, &m->code);
    if (m->abi && m->abi->destroy)
        m->abi->destroy(m);
    code_cache_destroy(&m->code);
    mem_destroy(&m->mem);
    memset(m, 0, sizeof(*m));
}

typedef enum stop_reason (*interp_fn)(struct machine *m, uint64_t budget);

/*
 * The loops by ISA: [rv64 + 2 * (the hart has C)], the index isa_index
 * gives. fast: plain or traced as the machine is; per_pc: in the tracer's
 * per-pc mode (inline frames); precise: [traced][isa].
 */
static const interp_fn fast_loops[4] = {interp_run_rv32, interp_run_rv64, interp_run_rv32c,
                                        interp_run_rv64c};
static const interp_fn per_pc_loops[4] = {interp_run_rv32_runs, interp_run_rv64_runs,
                                          interp_run_rv32c_runs, interp_run_rv64c_runs};
/*
 * cost: in the tracer's cost mode (a hart without C: machine_set_cost_clock
 * refuses C), [per_pc][rv64].
 */
static const interp_fn cost_loops[2][2] = {{interp_run_rv32_cost_fast, interp_run_rv64_cost_fast},
                                           {interp_run_rv32_cost, interp_run_rv64_cost}};
static const interp_fn precise_loops[2][4] = {
    {interp_run_rv32_precise, interp_run_rv64_precise, interp_run_rv32c_precise,
     interp_run_rv64c_precise},
    {interp_run_rv32_traced_precise, interp_run_rv64_traced_precise,
     interp_run_rv32c_traced_precise, interp_run_rv64c_traced_precise},
};

/* The loops' index: XLEN, and C when the code cache has 2-byte slots. */
static int isa_index(const struct machine *m)
{
    return (m->xlen == 64) + 2 * (m->code.slot_shift == 1);
}

/*
 * A jump to address 0 ends the run with exit status 0 under an ABI that
 * says so (lambda_vm stops when pc becomes 0); the jump itself retired.
 */
static enum stop_reason stop_at_pc_zero(struct machine *m, enum stop_reason why)
{
    bool fetch =
        m->fault.kind == FAULT_FETCH_UNMAPPED || m->fault.kind == FAULT_FETCH_NOT_EXECUTABLE;
    if (why != STOP_FAULT || !m->abi->halts_at_pc_zero || !fetch || m->pc != 0)
        return why;
    m->fault = (struct fault){0};
    m->exit_status = 0;
    return STOP_EXIT;
}

/*
 * A store the ABI calls its halt (Jolt's termination word) ends the run as
 * an exit; ABIs may also make such a store's fault clearer (a panic).
 */
static enum stop_reason stop_at_halt_store(struct machine *m, enum stop_reason why)
{
    if (why != STOP_FAULT || !m->abi || !m->abi->store_stops)
        return why;
    return m->abi->store_stops(m) ? STOP_EXIT : why;
}

/* The ABI's ways to end a run that the interpreter sees as faults. */
static enum stop_reason stop_as_abi_says(struct machine *m, enum stop_reason why)
{
    return stop_at_halt_store(m, stop_at_pc_zero(m, why));
}

/* The fast loop for the machine as it is traced. */
static interp_fn fast_loop(const struct machine *m)
{
    int isa = isa_index(m);
    if (m->tracer && m->tracer->cost_clock)
        return cost_loops[m->tracer->per_pc][m->xlen == 64];
    return (m->tracer && m->tracer->per_pc ? per_pc_loops : fast_loops)[isa];
}

/* For callers that did not choose: a refused --engine translate interprets. */
static void choose_engine_quietly(struct machine *m)
{
    struct error ignored = ERROR_INIT;
    if (!m->engine_chosen)
        machine_choose_engine(m, &ignored);
}

/*
 * How the tracer sees a move to `target` that no jump instruction made (a
 * trap, SIG_RETURN): a return when the top frame expects it there (a
 * handler that goes back to the caller), else a jump.
 */
static enum trace_kind move_kind(const struct flow_tracer *t, uint64_t target)
{
    return t->top->ret == target ? TRACE_KIND_RETURN : TRACE_KIND_JUMP;
}

/*
 * A fault the ABI takes as a trap (abi->fault_traps): the faulting
 * instruction (for a fetch, the one at the target) retires in the top
 * frame, as a run of its own, and jumps to the handler at m->pc.
 */
static bool take_trap(struct machine *m)
{
    uint64_t at = m->pc;
    if (!m->abi || !m->abi->fault_traps || !m->abi->fault_traps(m))
        return false;
    m->fault = (struct fault){0};
    m->retired++;
    struct flow_tracer *t = m->tracer;
    if (!t)
        return true;
    if (t->per_pc) { /* the fault ended the run before `at`: it ends after it now */
        trace_run_start(t->top, at, m->code.slot_shift);
        trace_run_end_before(t->top, at + 4, m->code.slot_shift);
    }
    if (t->cost_clock)
        t->cost_now += t->ticks_at(m, at);
    t->transfer(t, move_kind(t, m->pc), at, 4, m->pc, trace_clock(t, m->retired));
    return true;
}

enum stop_reason machine_run(struct machine *m, uint64_t budget)
{
    choose_engine_quietly(m);
    uint64_t end = m->retired + budget;
    for (;;) {
        /* The fast loop stops short of the budget; the precise one ends it exactly. */
        bool fast = end - m->retired >= 2 * INTERP_SOFT_MARGIN;
        enum stop_reason why =
            fast ? fast_loop(m)(m, end - m->retired)
                 : precise_loops[m->tracer != NULL][isa_index(m)](m, end - m->retired);
        if (fast && why == STOP_BUDGET)
            continue;
        if (why != STOP_FAULT || !take_trap(m))
            return stop_as_abi_says(m, why);
        if (m->retired >= end)
            return STOP_BUDGET;
    }
}

enum stop_reason machine_run_about(struct machine *m, uint64_t budget)
{
    choose_engine_quietly(m);
    if (budget < 2 * INTERP_SOFT_MARGIN)
        return machine_run(m, budget);
    enum stop_reason why = fast_loop(m)(m, budget);
    if (why == STOP_FAULT && take_trap(m))
        return STOP_BUDGET; /* early, as the callers allow */
    return stop_as_abi_says(m, why);
}

/*
 * Whether a store may rewrite code: the code is not fixed and some page of
 * it is writable (no ABI makes a page executable after the load).
 */
static bool code_may_change(const struct machine *m)
{
    const struct code_cache *cc = &m->code;
    if (cc->fixed)
        return false;
    for (uint64_t off = 0; off < cc->span; off += GUEST_PAGE_SIZE) {
        unsigned r = mem_page_rights(&m->mem, cc->lo + off);
        if ((r & PAGE_W) && (r & PAGE_X))
            return true;
    }
    return false;
}

/* Why the translation tier cannot run this machine as it is, or NULL. */
static const char *engine_refusal(const struct machine *m)
{
    if (m->io.engine == MACHINE_ENGINE_INTERP)
        return "--engine interp";
    if (!translate_host())
        return "the host is not x86-64 Linux";
    if (m->pages)
        return "page tracking";
    if (code_may_change(m))
        return "code on writable pages";
    return NULL;
}

int machine_choose_engine(struct machine *m, struct error *e)
{
    if (m->engine_chosen)
        return 0;
    m->engine_chosen = true;
    m->engine_why = engine_refusal(m);
    if (m->engine_why && m->io.engine == MACHINE_ENGINE_TRANSLATE)
        return error_fail(e, ERROR_UNSUPPORTED, "--engine translate cannot run this guest: %s",
                          m->engine_why);
    if (!m->engine_why) {
        struct translate_mode mode = {.traced = m->tracer != NULL,
                                      .per_pc = m->tracer && m->tracer->per_pc,
                                      .cost = m->tracer && m->tracer->cost_clock};
        m->translator =
            translate_new(&m->code, &m->mem, m->xlen, m->pc, mode, m->io.translate_after);
        m->translate_slots = m->translator ? translate_slots(m->translator) : NULL;
    }
    if (!m->engine_why && !m->translator) {
        m->engine_why = "no memory for the translator";
        m->translate_slots = NULL;
        if (m->io.engine == MACHINE_ENGINE_TRANSLATE)
            return error_fail(e, ERROR_NO_MEMORY, "--engine translate: %s", m->engine_why);
    }
    return 0;
}

void machine_engine_text(const struct machine *m, char *buf, size_t size)
{
    if (!m->translator) {
        snprintf(buf, size, "interp (%s)", m->engine_why ? m->engine_why : "not chosen yet");
        return;
    }
    uint64_t blocks, insns;
    translate_counts(m->translator, &blocks, &insns);
    snprintf(buf, size, "translate (%llu blocks, %llu guest instructions translated)",
             (unsigned long long)blocks, (unsigned long long)insns);
}

/* What machine_set_cost_clock weighs the code cache's entries with. */
struct entry_costs {
    struct machine *m;
    machine_insn_cost cost;
    void *ctx;
    bool executable; /* the page of the entry asked about last */
};

/* code_entry_ticks for the entries of a cache without C, asked in order. */
static uint64_t entry_ticks(void *arg, size_t entry)
{
    struct entry_costs *c = arg;
    uint64_t pc = c->m->code.lo + ((uint64_t)entry << 2);
    if (entry == 0 || (pc & (GUEST_PAGE_SIZE - 1)) == 0)
        c->executable = mem_page_rights(&c->m->mem, pc) & PAGE_X;
    if (!c->executable)
        return 0; /* a fetch there faults: it never retires */
    uint32_t word;
    memcpy(&word, mem_host(&c->m->mem, pc), 4);
    return c->cost(c->ctx, pc, word) * TRACE_CLOCK_TICKS;
}

bool machine_set_cost_clock(struct machine *m, machine_insn_cost cost, void *ctx)
{
    if (code_may_change(m))
        return false;
    struct entry_costs c = {.m = m, .cost = cost, .ctx = ctx};
    return code_cache_set_costs(&m->code, entry_ticks, &c);
}

/* The tracer's ticks_at: the clock ticks of the instruction at pc. */
static uint64_t ticks_at(void *machine, uint64_t pc)
{
    const struct code_cache *cc = &((const struct machine *)machine)->code;
    uint64_t off = pc - cc->lo;
    if (!cc->costs || off >= cc->span)
        return 0;
    const struct code_cost *c = &cc->costs[off >> cc->slot_shift];
    return c->through - c->before;
}

enum ecall_result machine_ecall(struct machine *m)
{
    const char *call = NULL;
    uint64_t pc = m->pc;            /* the ecall's (an ABI's jump moves m->pc) */
    uint32_t word = m->custom_word; /* interp_custom set it: the ABI's custom instruction */
    m->custom_word = 0;
    m->rewind = false;
    m->transfer = false;
    enum ecall_result r = word ? m->abi->custom_insn(m, word, &call) : m->abi->ecall(m, &call);
    if (r != ECALL_FAULT && call && m->tracer)
        m->tracer->ecall(m->tracer, call, pc);     /* in the frame that made the call ... */
    if (r == ECALL_JUMP && m->rewind && m->tracer) /* ... before the stack goes back */
        m->tracer->rewind(m->tracer, m->ecall_now);
    if (r == ECALL_JUMP && m->transfer && m->tracer)
        m->tracer->transfer(m->tracer, move_kind(m->tracer, m->pc), pc, 4, m->pc, m->ecall_now);
    return r;
}

static void note_runs(void *machine, uint64_t lo, uint64_t end, bool kept)
{
    struct machine *m = machine;
    if (code_cache_note_runs(&m->code, lo, end, kept) && m->translator)
        translate_forget(m->translator); /* its blocks may have left those hooks out */
}

/*
 * The tracer's jump_of: the target and length of the branch or jal at pc,
 * the ones whose handlers call trace_run_branch, read from guest memory.
 */
static bool jump_of(void *machine, uint64_t pc, uint64_t *target, unsigned *len)
{
    const struct machine *m = machine;
    uint32_t word = 0;
    if (!mem_range_has(&m->mem, pc, 2, PAGE_X))
        return false;
    size_t have = mem_range_has(&m->mem, pc, 4, PAGE_X) ? 4 : 2;
    memcpy(&word, mem_host(&m->mem, pc), have); /* little-endian, as the guest */
    struct insn in = code_cache_decode(&m->code, word, m->xlen);
    if (insn_op_length(in.op) > have)
        return false;
    if (!insn_op_is_run_branch(in.op))
        return false;
    *target = pc + (uint64_t)(int64_t)in.imm;
    *len = insn_op_length(in.op);
    return true;
}

void machine_attach_tracer(struct machine *m, struct flow_tracer *t)
{
    if (m->translator) { /* its blocks give the hooks of the tracer as it was: choose again */
        translate_free(m->translator, &m->code);
        m->translator = NULL;
        m->translate_slots = NULL;
        m->engine_chosen = false;
    }
    m->tracer = t;
    if (t) {
        t->note_runs = note_runs;
        t->jump_of = jump_of;
        t->ticks_at = ticks_at;
        t->machine = m;
    }
}

void machine_trace_mark(struct machine *m)
{
    if (m->tracer)
        m->tracer->mark(m->tracer);
}

void machine_trace_rewind(struct machine *m)
{
    m->rewind = true;
}

void machine_trace_transfer(struct machine *m)
{
    m->transfer = true;
}

uint64_t machine_get_reg(const struct machine *m, unsigned r)
{
    if (r == 0 || r >= REG_SINK)
        return 0;
    return m->xlen == 32 ? m->regs.x32[r] : m->regs.x64[r];
}

void machine_set_reg(struct machine *m, unsigned r, uint64_t value)
{
    if (r == 0 || r >= REG_SINK)
        return;
    if (m->xlen == 32)
        m->regs.x32[r] = (uint32_t)value;
    else
        m->regs.x64[r] = value;
}

const char *fault_kind_text(enum fault_kind kind)
{
    switch (kind) {
    case FAULT_NONE: return "no fault";
    case FAULT_LOAD_UNMAPPED: return "load from unmapped memory";
    case FAULT_STORE_UNMAPPED: return "store to unmapped memory";
    case FAULT_STORE_READONLY: return "store to read-only memory";
    case FAULT_FETCH_UNMAPPED: return "instruction fetch from unmapped memory";
    case FAULT_FETCH_NOT_EXECUTABLE: return "instruction fetch from non-executable memory";
    case FAULT_MISALIGNED_TARGET: return "jump to misaligned target";
    case FAULT_ILLEGAL_INSTRUCTION: return "illegal instruction";
    case FAULT_BREAKPOINT: return "breakpoint (ebreak)";
    case FAULT_UNSUPPORTED_SYSCALL: return "unsupported system call (--strict)";
    case FAULT_UNSUPPORTED_ECALL: return "call not supported";
    case FAULT_ECALL_ARGUMENT: return "bad call argument";
    case FAULT_GUEST_PANIC: return "guest panicked";
    case FAULT_HOST_MEMORY: return "the host ran out of memory";
    case FAULT_MISALIGNED_ACCESS: return "misaligned atomic memory access";
    case FAULT_UNSUPPORTED_CSR: return "unsupported CSR access";
    case FAULT_MISALIGNED_LOAD: return "misaligned load";
    case FAULT_MISALIGNED_STORE: return "misaligned store";
    case FAULT_SEGMENT_SPLIT: return "end of a segment";
    }
    return "unknown fault";
}
