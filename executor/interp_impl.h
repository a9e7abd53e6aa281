/*
 * interp_impl.h: the interpreter loop, written once and compiled three
 * times per XLEN (interp_rv32.c, interp_rv64.c define XLEN):
 *   - the fast loop (PRECISE 0), plain and traced at once: the code cache
 *     is bound to its plain or its traced handler table, and the two differ
 *     only in the handlers of jal and jalr, which report jumps to the
 *     machine's flow_tracer in the traced table. Every other handler is the
 *     same code in both, so tracing costs what its jump handlers do and
 *     nothing else;
 *   - the fast loop of a tracer in per-pc mode (RUNS 1; executor/trace.h,
 *     "Runs"), traced only, whose taken branches and jumps also end the
 *     run in the top frame at their pc and start one at the target;
 *   - the fast loops of a tracer in cost mode (COST 1, harts without C:
 *     executor/trace.h, "Cost clock"), which also keep the cost clock on
 *     every taken transfer: the per-pc one (RUNS 1) and, for profiles
 *     whose functions keep no runs, the fast one (RUNS 0);
 *   - the precise loops (PRECISE 1, with TRACED 0 or 1), which check the
 *     instruction budget before every instruction; the traced one keeps
 *     runs too when the tracer is in per-pc mode, and the cost clock in
 *     cost mode.
 *
 * The fast loop checks the budget only where control arrives
 * non-sequentially (taken branches, jumps) and at the first instruction of
 * every 4 KiB page (decoded with INSN_PAGE_MARK; no fused pair runs past
 * one), so at most 1024 instructions run between two checks, and it does
 * not count instructions one by one (see `lim`). It stops once fewer than
 * INTERP_SOFT_MARGIN instructions are left, and machine_run finishes the
 * budget with a precise loop: exact counts at full speed.
 *
 * Threaded dispatch: every handler ends by jumping to the next predecoded
 * instruction's handler, which the fast loop finds in the instruction
 * itself (the code cache is bound to its handler table; see code_cache.h
 * for fused pairs, which interp_ops.h lists) and the precise loops in
 * their label table. The pc lives implicitly in `ip`, the pointer into
 * the code cache; it is computed only where an instruction needs it
 * (auipc, jal, jalr, ecall, faults).
 */
/* Handler labels and multi-line macros read better as written: */
/* clang-format off */
#ifndef TRACED
#define TRACED 0
#endif
#ifndef PRECISE
#define PRECISE 0
#endif
#ifndef RUNS
#define RUNS 0
#endif
#ifndef COST
#define COST 0
#endif
/*
 * RVC 1: the loops of a hart with C (interp_rv32c.c, interp_rv64c.c),
 * whose code cache has an entry per 2-byte slot: a 4-byte instruction
 * steps over two entries, a compressed one (the C_ operations) over one.
 */
#ifndef RVC
#define RVC 0
#endif

#if XLEN == 32
typedef uint32_t ureg;
typedef int32_t sreg;
#define REGS x32

#define MULH_(a, b) ((ureg)(((int64_t)(sreg)(a) * (int64_t)(sreg)(b)) >> 32))
#define MULHU_(a, b) ((ureg)(((uint64_t)(a) * (uint64_t)(b)) >> 32))
#define MULHSU_(a, b) ((ureg)(((int64_t)(sreg)(a) * (int64_t)(uint64_t)(b)) >> 32))
/* Every RV32 address lies in the window's low 4 GiB (see memory.h). */
#define WINDOW_PAGE(a) (((uint64_t)(a) >> GUEST_RIGHTS_SHIFT) + GUEST_HIGH_ENTRIES)
#define IN_WINDOW(page) 1
#elif XLEN == 64
typedef uint64_t ureg;
typedef int64_t sreg;
#define REGS x64
#define MULH_(a, b) ((ureg)(((__int128)(sreg)(a) * (__int128)(sreg)(b)) >> 64))
#define MULHU_(a, b) ((ureg)(((unsigned __int128)(a) * (unsigned __int128)(b)) >> 64))
#define MULHSU_(a, b) ((ureg)(((__int128)(sreg)(a) * (__int128)(uint64_t)(b)) >> 64))
/*
 * The rights entry of a (see memory.h), and whether a lies in the window:
 * an add, a shift and a compare, as many instructions as the test of a
 * flat 4 GiB space it replaced, and the index is the rights table's.
 */
#define WINDOW_PAGE(a) (((a) + GUEST_HIGH_SPAN) >> GUEST_RIGHTS_SHIFT)
#define IN_WINDOW(page) ((page) < GUEST_RIGHTS_BYTES)
#else
#error "define XLEN as 32 or 64"
#endif

#include "executor/interp_ops.h"
#include "executor/interp_pairs.h"

/*
 * Code cache slots (code_cache.h): an entry per SLOT_BYTES of guest code,
 * so an entry's address >> ENTRY_SHIFT is its pc less pc_bias. STEP()
 * moves past a 4-byte instruction, STEP_C() past a compressed one; with C
 * the fast loop's budget (lim - ip) / 16 counts entries, so a 4-byte
 * instruction, two entries, moves lim by one to retire one instruction.
 */
#if RVC
#define SLOT_SHIFT 1
#define ENTRY_SHIFT 3
#if PRECISE
#define STEP() (ip += 2)
#else
#define STEP() (ip += 2, lim += sizeof(struct insn))
#endif
#else
#define SLOT_SHIFT 2
#define ENTRY_SHIFT 2
#define STEP() (ip++)
#endif
#define STEP_C() (ip++)
#define SLOT_BYTES (1 << SLOT_SHIFT)
/*
 * The runs loop of a hart without C also has handlers without the run
 * hooks for code whose functions keep no runs (code_cache_note_runs).
 */
#define UNHOOKED (RUNS && !RVC)
/*
 * Every fast loop (plain or traced, runs, cost) enters translated blocks
 * (executor/translate/translate.h) at the entries that start them:
 * op_TRANSLATED.
 */
#define TRANSLATES (!PRECISE)

#define RUN_NAME_(x, t) RUN_NAME2_(x, t)
#if RVC
#define RUN_NAME2_(x, t) interp_run_rv##x##c##t
#else
#define RUN_NAME2_(x, t) interp_run_rv##x##t
#endif
#if TRACED && PRECISE
#define RUN_FN RUN_NAME_(XLEN, _traced_precise)
#elif PRECISE
#define RUN_FN RUN_NAME_(XLEN, _precise)
#elif COST && RUNS
#define RUN_FN RUN_NAME_(XLEN, _cost)
#elif COST
#define RUN_FN RUN_NAME_(XLEN, _cost_fast)
#elif RUNS
#define RUN_FN RUN_NAME_(XLEN, _runs)
#elif !TRACED
#define RUN_FN RUN_NAME_(XLEN, )
#else
#error "the fast loop is plain and traced at once: compile it with TRACED 0"
#endif
#if PRECISE
#define PAGE_MARK_LABEL(name) &&op_##name
#else
#define PAGE_MARK_LABEL(name) &&op_PAGE_CHECK
#endif

#define SHAMT_MASK (XLEN - 1)
/* The page rights table, addressed from `mem` (see GUEST_RIGHTS_OFFSET). */
#define RIGHTS (mem - GUEST_RIGHTS_OFFSET)
/* The host address of guest address a (in integers: a high RV64 address lies below mem). */
#define HOST(a) ((uint8_t *)((uintptr_t)mem + (uintptr_t)(a)))
#define SREG_MIN ((sreg)((ureg)1 << (XLEN - 1)))

/* Sign-extends a 32-bit result to XLEN (the *W instructions). */
#define SEXT32(v) ((ureg)(sreg)(int32_t)(uint32_t)(v))

enum stop_reason RUN_FN(struct machine *m, uint64_t budget);

enum stop_reason RUN_FN(struct machine *m, uint64_t budget)
{
    static const void *const labels[2 * INSN_PAGE_MARK] = {
#define INSN_OP_LABEL(name)                                                                        \
    [OP_##name] = &&op_##name, [OP_##name | INSN_PAGE_MARK] = PAGE_MARK_LABEL(name),
        INSN_OPS(INSN_OP_LABEL)
    };
#if !PRECISE
    /*
     * The traced tables are the plain ones with the jump handlers (and the
     * pairs ending in a jump) replaced: later initializers override.
     */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#ifdef __clang__
#pragma GCC diagnostic ignored "-Winitializer-overrides"
#endif
    static const void *const labels_traced[2 * INSN_PAGE_MARK] = {
        INSN_OPS(INSN_OP_LABEL)
#define TRACED_LABEL(name) [OP_##name] = &&op_##name##_T,
        JUMP_OPS(TRACED_LABEL)
#if RVC
        RVC_JUMP_OPS(TRACED_LABEL)
#endif
#undef TRACED_LABEL
    };
/*
 * The fused pairs (interp_pairs.h): a pair of 4-byte operations, and in
 * the loops of a hart with C a pair of compressed ones; those ending in a
 * jump have a traced version too.
 */
#define PAIR_LABEL(first, second, suffix)                                                          \
    [OP_##first * OP_COUNT + OP_##second] = &&fuse_##first##_##second##suffix,
#if RVC
#define PAIR_LABELS(suffix)                                                                        \
    FUSED_PAIRS_STRAIGHT(PAIR_LABEL, suffix) FUSED_PAIRS_BRANCH(PAIR_LABEL, suffix)               \
    FUSED_PAIRS_JUMP(PAIR_LABEL, suffix) RVC_FUSED_PAIRS(PAIR_LABEL, suffix)                      \
    RVC_FUSED_PAIRS_JUMP(PAIR_LABEL, suffix)
#define PAIR_LABELS_JUMP(suffix)                                                                   \
    FUSED_PAIRS_JUMP(PAIR_LABEL, suffix) RVC_FUSED_PAIRS_JUMP(PAIR_LABEL, suffix)
#else
#define PAIR_LABELS(suffix)                                                                        \
    FUSED_PAIRS_STRAIGHT(PAIR_LABEL, suffix) FUSED_PAIRS_BRANCH(PAIR_LABEL, suffix)               \
    FUSED_PAIRS_JUMP(PAIR_LABEL, suffix)
#define PAIR_LABELS_JUMP(suffix) FUSED_PAIRS_JUMP(PAIR_LABEL, suffix)
#endif
    static const void *const pairs[OP_COUNT * OP_COUNT] = {PAIR_LABELS()};
    static const void *const pairs_traced[OP_COUNT * OP_COUNT] = {PAIR_LABELS()
                                                                      PAIR_LABELS_JUMP(_T)};
#if UNHOOKED
    /*
     * The runs loop's unhooked tables (code_cache.h): the traced ones with
     * the branches and jumps, and every pair holding one, replaced by their
     * handlers without the run hooks (suffix _U).
     */
#define UNHOOKED_LABEL(name) [OP_##name] = &&op_##name##_U,
    static const void *const labels_unhooked[2 * INSN_PAGE_MARK] = {
        INSN_OPS(INSN_OP_LABEL) BRANCH_OPS(UNHOOKED_LABEL) JUMP_OPS(UNHOOKED_LABEL)};
    static const void *const pairs_unhooked[OP_COUNT * OP_COUNT] = {
        PAIR_LABELS() FUSED_PAIRS_BRANCH(PAIR_LABEL, _U) FUSED_PAIRS_JUMP(PAIR_LABEL, _U)};
#undef UNHOOKED_LABEL
#endif
#undef PAIR_LABELS_JUMP
#undef PAIR_LABELS
#undef PAIR_LABEL
#pragma GCC diagnostic pop
#if TRANSLATES
#define TRANSLATED_LABEL &&op_TRANSLATED
#else
#define TRANSLATED_LABEL NULL
#endif
    static const struct code_dispatch plain = {
        .single = labels, .pair = pairs, .translated = TRANSLATED_LABEL};
#if UNHOOKED
    static const struct code_dispatch unhooked = {.single = labels_unhooked,
                                                  .pair = pairs_unhooked};
    static const struct code_dispatch traced = {.single = labels_traced,
                                                .pair = pairs_traced,
                                                .unhooked = &unhooked,
                                                .translated = TRANSLATED_LABEL};
#else
    static const struct code_dispatch traced = {
        .single = labels_traced, .pair = pairs_traced, .translated = TRANSLATED_LABEL};
#endif
#undef TRANSLATED_LABEL
#if RUNS
    (void)plain;
    const struct code_dispatch *const dispatch = &traced; /* machine_run: only with a tracer */
#else
    const struct code_dispatch *const dispatch = m->tracer ? &traced : &plain;
#endif
#endif
    uint8_t *const mem = m->mem.base;
    /*
     * An entry's guest pc is its host address / 4 + pc_bias: entries are 16
     * bytes per 4-byte slot, and the cache is page aligned. The RV64 loop
     * reads it from the machine at each use: the six callee-saved host
     * registers then hold ip, lim, m, mem, the tracer's top frame and one
     * temporary, where GCC otherwise left the top frame on the C stack
     * (qsort-rv64 host instructions: traced 1.8% fewer, untraced 0.9% more).
     */
#if XLEN == 64 || COST
#define pc_bias (m->code.pc_bias)
#else
    const uint64_t pc_bias = m->code.pc_bias;
#endif
#if PRECISE
    uint64_t left = budget; /* after counting the instruction being run */
#else
    /*
     * No per-instruction count: instructions left = (lim - ip) / 16, counted
     * as for `left` in the precise loops, so running on to the next entry
     * counts by itself and a taken transfer moves lim along with ip.
     */
    if (budget > INTERP_FAST_BUDGET_MAX)
        budget = INTERP_FAST_BUDGET_MAX;
    uintptr_t lim;
#endif
    struct insn *ip = m->code.insns + ((m->pc - m->code.lo) >> SLOT_SHIFT);
#if !PRECISE
    lim = (uintptr_t)ip + (budget - 1) * sizeof(struct insn);
#endif
    uint64_t fault_pc;
#if TRACED || !PRECISE
    /*
     * The tracer's top frame, kept here (stored back before its slow path
     * and on every stop), and its clock, whose base is where this run's
     * budget ends (the same for every run of one machine_run).
     */
#if COST
    /* read from m at each use: a register for lim instead (see pc_bias) */
#define tracer (m->tracer)
#else
    struct flow_tracer *const tracer = m->tracer;
#endif
    struct trace_frame *top = NULL;
    if (tracer) {
        if (tracer->base != m->retired + budget)
            trace_rebase(tracer, m->retired + budget);
        top = tracer->top;
    }
#define SAVE_TRACER()                                                                              \
    do {                                                                                           \
        if (tracer)                                                                                \
            tracer->top = top;                                                                     \
    } while (0)
/* After a call that may have moved the tracer's stack (machine_trace_rewind). */
#define LOAD_TRACER()                                                                              \
    do {                                                                                           \
        if (tracer)                                                                                \
            top = tracer->top;                                                                     \
    } while (0)
#else
#define SAVE_TRACER() ((void)0)
#define LOAD_TRACER() ((void)0)
#endif
    /*
     * The cost clock (trace.h): on in the cost loop, and in the traced
     * precise loop when the tracer is in cost mode. It reads
     * COST_AT(ip)->through - cl after the instruction at ip retired.
     */
#if COST
#define COST_CLOCK 1
#elif PRECISE && TRACED
    const bool cost_clock = tracer && tracer->cost_clock;
#define COST_CLOCK cost_clock
#else
#define COST_CLOCK 0
#endif
#define COST_AT(at) code_cost_at(at)
/*
 * In memory, not a local, as `tracer` and pc_bias are read from m here:
 * otherwise GCC spilled lim (OpenVM's fibonacci, --weight cells over a
 * plain flamegraph, host instructions: 1.234 with both locals, 1.190 with
 * cl alone, 1.166 and a constant offset for the sums, docs/PERFORMANCE.md).
 */
#define cl (m->code.cost_cl)
#if COST || (PRECISE && TRACED)
    if (COST_CLOCK)
        cl = COST_AT(ip)->before - tracer->cost_now;
/* Where the run stops, the cost clock reads `at` (the instruction at ip retired, or not). */
#define STOP_CLOCK(at)                                                                             \
    do {                                                                                           \
        if (COST_CLOCK)                                                                            \
            tracer->cost_now = COST_AT(ip)->at - cl;                                               \
    } while (0)
#else
#define STOP_CLOCK(at) ((void)0)
#endif
/* A taken transfer from ip to `to`: what running straight on would have counted comes off. */
#define COST_TRANSFER(to)                                                                          \
    do {                                                                                           \
        if (COST_CLOCK)                                                                            \
            cl += COST_AT(to)->before - COST_AT(ip)->through;                                      \
    } while (0)
    /* Whether the loop keeps the top frame's runs (executor/trace.h), and the hooks that do. */
#if RUNS
#define PER_PC 1
#elif PRECISE && TRACED
    const bool per_pc = tracer && tracer->per_pc;
#define PER_PC per_pc
#else
#define PER_PC 0
#endif
#if RUNS || (PRECISE && TRACED)
#define RUN_START_AT(pc)                                                                           \
    do {                                                                                           \
        if (PER_PC)                                                                                \
            trace_run_start(top, (pc), SLOT_SHIFT);                                                \
    } while (0)
/* The run ends at the instruction at pc, `len` bytes long. */
#define RUN_END_AT(pc, len)                                                                        \
    do {                                                                                           \
        if (PER_PC)                                                                                \
            trace_run_end_before(top, (pc) + (len), SLOT_SHIFT);                                   \
    } while (0)
/* A taken branch of `len` bytes in the top frame: the run ends at pc, one starts at target. */
#define RUN_BRANCH_HOOK(pc, len, target)                                                           \
    do {                                                                                           \
        if (PER_PC)                                                                                \
            trace_run_branch(top, (pc), (len), (target), SLOT_SHIFT);                              \
    } while (0)
#define RUN_BRANCH RUN_BRANCH_HOOK
/* The instruction at ip did not retire: the run ends before it. */
#define RUN_END_HERE()                                                                             \
    do {                                                                                           \
        if (PER_PC)                                                                                \
            trace_run_end_before(top, PC(), SLOT_SHIFT);                                           \
    } while (0)
#else
#define RUN_START_AT(pc) ((void)0)
#define RUN_END_AT(pc, len) ((void)0)
#define RUN_END_HERE() ((void)0)
#define RUN_BRANCH(pc, len, target) ((void)0)
#endif

_Static_assert(sizeof(struct insn) == 16, "PC() and JUMP_TO() scale by ENTRY_SHIFT");
#define PC() ((ureg)(((uintptr_t)ip >> ENTRY_SHIFT) + pc_bias))
#if PRECISE
#define DISPATCH()                                                                                 \
    do {                                                                                           \
        if (__builtin_expect(left == 0, 0))                                                        \
            goto out_budget;                                                                       \
        left--;                                                                                    \
        goto *labels[ip->op];                                                                      \
    } while (0)
#define CHECKED_DISPATCH() DISPATCH()
#define LEFT() left
#define NOW() ((uint64_t)0 - left * TRACE_CLOCK_TICKS)
#define FORGET_POSITION() __asm__("" : "+r"(ip), "+r"(left))
/* A taken transfer: a run starts at the target, in the (new) top frame (GOTO_IP_RUN_DONE: */
/* the caller has started it). */
#define GOTO_IP_RUN_DONE(to)                                                                       \
    do {                                                                                           \
        struct insn *to_ = (to);                                                                   \
        COST_TRANSFER(to_);                                                                        \
        ip = to_;                                                                                  \
    } while (0)
#define GOTO_IP(to)                                                                                \
    do {                                                                                           \
        GOTO_IP_RUN_DONE(to);                                                                      \
        RUN_START_AT(PC());                                                                        \
    } while (0)
#else
#define DISPATCH() goto *ip->handler
/* The budget left after the instruction at ip (see lim). */
#define LEFT() ((uint64_t)(lim - (uintptr_t)ip) / sizeof(struct insn))
/* The tracer's instruction clock: -16 x LEFT() (see trace.h). */
#define NOW() ((uint64_t)((uintptr_t)ip - lim))
/*
 * Makes the compiler treat ip and lim as new values from here on (they are
 * not: the statement is empty). A fast path's miss branch starts with it,
 * so that GCC computes the operands that branch needs there, and not
 * before the fast path's test, where they would take registers or stack
 * slots on the fast path too.
 */
#define FORGET_POSITION() __asm__("" : "+r"(ip), "+r"(lim))
/*
 * A taken transfer to `to`: it retires one instruction, like running on.
 * A run starts at the target, in the (new) top frame (GOTO_IP_RUN_DONE:
 * the caller has started it).
 */
#define GOTO_IP_RUN_DONE(to)                                                                       \
    do {                                                                                           \
        struct insn *to_ = (to);                                                                   \
        lim += (uintptr_t)to_ - (uintptr_t)ip - sizeof(struct insn);                               \
        COST_TRANSFER(to_);                                                                        \
        ip = to_;                                                                                  \
    } while (0)
#define GOTO_IP(to)                                                                                \
    do {                                                                                           \
        GOTO_IP_RUN_DONE(to);                                                                      \
        RUN_START_AT(PC());                                                                        \
    } while (0)
/* After a non-sequential transfer: stop early if the budget is nearly spent. */
#define CHECKED_DISPATCH()                                                                         \
    do {                                                                                           \
        if (__builtin_expect(lim - (uintptr_t)ip < (INTERP_SOFT_MARGIN - 1) * sizeof(struct insn), \
                             0))                                                                   \
            goto out_soft;                                                                         \
        DISPATCH();                                                                                \
    } while (0)
#endif
/*
 * The clocks a tracer's fast path reads (trace.h, TRACE_NOW_PARAMS): the
 * instruction clock, and the cost clock after the instruction at ip retired.
 */
#define CLOCKS() NOW(), COST_CLOCK, (COST_CLOCK ? COST_AT(ip)->through - cl : 0)
#define NEXT()                                                                                     \
    do {                                                                                           \
        STEP();                                                                                    \
        DISPATCH();                                                                                \
    } while (0)
/* After a compressed instruction (RVC loops only). */
#define NEXT_C()                                                                                   \
    do {                                                                                           \
        ip++;                                                                                      \
        DISPATCH();                                                                                \
    } while (0)
/* Registers are addressed from m (one register fewer to keep than a separate base). */
#define RD m->regs.REGS[ip->rd]
#define RS1 m->regs.REGS[ip->rs1]
#define RS2 m->regs.REGS[ip->rs2]
#define IMM ((ureg)(sreg)ip->imm)
/* The current instruction faults and does not retire. */
#define FAULT(kind_, addr_)                                                                        \
    do {                                                                                           \
        m->fault = (struct fault){0};                                                              \
        m->fault.kind = (kind_);                                                                   \
        m->fault.pc = PC();                                                                        \
        m->fault.addr = (addr_);                                                                   \
        goto out_fault;                                                                            \
    } while (0)
/*
 * Loads and stores test one rights bit on their fast path: the access is
 * in guest space and its rights entry (1 KiB) and the next one allow it
 * (`fast`; the entry alone where accesses are aligned, mem_align_accesses),
 * so it cannot cross into one that does not. Every other access leaves by
 * its own NEXT(), through the next instruction's handler, and never
 * rejoins the fast path: a join would be a label, padded to 16 bytes like
 * every label here (see executor/CMakeLists.txt), and the fast path would
 * run the padding. Off the fast path, an access that stays inside an entry
 * that allows it (the last of a segment, the top of the stack, one a
 * RISC Zero segment has paged in while its successor waits) is still
 * done inline; the rest goes to interp_load_slow and
 * interp_store_slow, which check every byte's page.
 */
#define FAST_ACCESS(a, fast) (IN_WINDOW(WINDOW_PAGE(a)) && (RIGHTS[WINDOW_PAGE(a)] & (fast)))
#define IN_PAGE_ACCESS(a, size, ok)                                                                \
    (IN_WINDOW(WINDOW_PAGE(a)) && (RIGHTS[WINDOW_PAGE(a)] & (ok)) &&                               \
     ((a) & (GUEST_RIGHTS_SIZE - 1)) <= GUEST_RIGHTS_SIZE - (size))
/* A load into rd; the handler goes on with `next` (NEXT or NEXT_C; see interp_ops.h). */
#define LOAD_BODY(T) LOAD_BODY_(T, NEXT)
#define LOAD_BODY_C(T) LOAD_BODY_(T, NEXT_C)
#define LOAD_BODY_(T, next)                                                                        \
    do {                                                                                           \
        ureg a_ = RS1 + IMM;                                                                       \
        if (__builtin_expect(FAST_ACCESS(a_, PAGE_LOAD_FAST), 1)) {                                \
            T v_;                                                                                  \
            memcpy(&v_, HOST(a_), sizeof(T));                                                      \
            RD = (ureg)v_;                                                                         \
        } else {                                                                                   \
            LOAD_ELSEWHERE(T, a_, next);                                                           \
        }                                                                                          \
    } while (0)
#define LOAD_ELSEWHERE(T, a, next)                                                                 \
    do {                                                                                           \
        T v_;                                                                                      \
        if (IN_PAGE_ACCESS(a, sizeof(T), PAGE_LOAD_OK)) {                                          \
            memcpy(&v_, HOST(a), sizeof(T));                                                     \
        } else {                                                                                   \
            uint64_t w_;                                                                           \
            SAVE_TRACER(); /* page_touch charges the top frame */                                  \
            if (!interp_load_slow(m, (a), sizeof(T), &w_))                                         \
                FAULT(FAULT_LOAD_UNMAPPED, (a));                                                   \
            v_ = (T)w_;                                                                            \
        }                                                                                          \
        RD = (ureg)v_;                                                                             \
        next();                                                                                    \
    } while (0)
/*
 * The aligned forms (interp_ops.h): an address that is not a multiple of
 * the access's size faults before anything is read or written.
 */
#define ALIGNED_LOAD_BODY(T) ALIGNED_BODY_(T, FAULT_MISALIGNED_LOAD, LOAD_BODY(T))
#define ALIGNED_LOAD_BODY_C(T) ALIGNED_BODY_(T, FAULT_MISALIGNED_LOAD, LOAD_BODY_C(T))
#define ALIGNED_STORE_BODY(T) ALIGNED_BODY_(T, FAULT_MISALIGNED_STORE, STORE_BODY(T))
#define ALIGNED_STORE_BODY_C(T) ALIGNED_BODY_(T, FAULT_MISALIGNED_STORE, STORE_BODY_C(T))
#define ALIGNED_BODY_(T, kind, body)                                                               \
    do {                                                                                           \
        if (__builtin_expect((RS1 + IMM) & (sizeof(T) - 1), 0))                                    \
            FAULT(kind, RS1 + IMM);                                                                \
        body;                                                                                      \
    } while (0)
/*
 * A store. Only interp_store_slow can write into code (the other paths
 * need a page without X), and every path but the fast one goes on through
 * the next instruction's handler, which the store may have reset: so a
 * fused pair starting with a store never runs a stale second half.
 */
#define STORE_BODY(T) STORE_BODY_(T, NEXT)
#define STORE_BODY_C(T) STORE_BODY_(T, NEXT_C)
#define STORE_BODY_(T, next)                                                                       \
    do {                                                                                           \
        ureg a_ = RS1 + IMM;                                                                       \
        T v_ = (T)RS2;                                                                             \
        if (__builtin_expect(FAST_ACCESS(a_, PAGE_STORE_FAST), 1)) {                               \
            memcpy(HOST(a_), &v_, sizeof(T));                                                      \
        } else {                                                                                   \
            STORE_ELSEWHERE(T, a_, v_, next);                                                      \
        }                                                                                          \
    } while (0)
#define STORE_ELSEWHERE(T, a, v, next)                                                             \
    do {                                                                                           \
        if (IN_PAGE_ACCESS(a, sizeof(T), PAGE_STORE_OK)) {                                         \
            memcpy(HOST(a), &(v), sizeof(T));                                                    \
        } else {                                                                                   \
            SAVE_TRACER();                                                                         \
            enum fault_kind k_ = interp_store_slow(m, (a), sizeof(T), (uint64_t)(v));              \
            if (k_ != FAULT_NONE)                                                                  \
                FAULT(k_, (a));                                                                    \
        }                                                                                          \
        next();                                                                                    \
    } while (0)
/*
 * Transfers control to the aligned `target` from a jump at PC(); the caller writes rd.
 * JUMP_TO_RUN_DONE: the run at the target needs no start (a call the fast path pushed).
 */
#define JUMP_TO_(target, go)                                                                       \
    do {                                                                                           \
        uint64_t off_ = (uint64_t)(target)-m->code.lo;                                             \
        if (__builtin_expect(off_ >= m->code.span, 0)) {                                           \
            fault_pc = (target);                                                                   \
            goto out_bad_target;                                                                   \
        }                                                                                          \
        go((struct insn *)(((uint64_t)(target)-pc_bias) << ENTRY_SHIFT));                          \
        CHECKED_DISPATCH();                                                                        \
    } while (0)
#define JUMP_TO(target) JUMP_TO_(target, GOTO_IP)
#define JUMP_TO_RUN_DONE(target) JUMP_TO_(target, GOTO_IP_RUN_DONE)
/*
 * Reports a jump of the given kind from PC() to `target` to the machine's
 * tracer unless the fast path took care of it (see trace.h). The slow
 * path ends with `go`, the jump itself, as
 * the fast path does after the report: two copies, so that the fast path
 * runs straight on (a join would be a padded, aligned label). A call the
 * fast paths push goes on with `go_pushed`, which starts no run in the
 * callee (see "Runs" in trace.h). NO_TRACE reports nothing.
 */
#define TRACE_SLOW(target, go)                                                                \
    do {                                                                                           \
        FORGET_POSITION();                                                                         \
        STOP_CLOCK(through);                                                                       \
        top = interp_trace_slow(tracer, top, ip, PC(), (target), RET_AT(), NOW());                 \
        go;                                                                                        \
    } while (0)
/* A jump out of the top frame's function: a tail call (trace_tail_fast), else the slow path. */
#define TRACE_TAIL(target, go)                                                                     \
    do {                                                                                           \
        if (!trace_tail_fast(tracer, top, (target), CLOCKS()))                                     \
            TRACE_SLOW(target, go);                                                                \
        go;                                                                                        \
    } while (0)
#define TRACE_JUMP(target, go, go_pushed)                                                          \
    do {                                                                                           \
        if (__builtin_expect(!trace_jump_fast(top, (target)), 0))                                  \
            TRACE_TAIL(target, go);                                                                \
    } while (0)
/* Per-pc mode: the call pc picks the callee's parent too (see trace.h). */
#define CALL_FAST(target)                                                                          \
    (PER_PC ? trace_call_fast_site(&top, PC(), LEN, (target), RET_AT(), CLOCKS())                  \
            : trace_call_fast(&top, PC(), LEN, (target), RET_AT(), CLOCKS()))
#define CALL_LINKED(target)                                                                        \
    (PER_PC ? trace_call_linked_site(tracer, &top, PC(), LEN, (target), RET_AT(), CLOCKS())        \
            : trace_call_linked(tracer, &top, PC(), LEN, (target), RET_AT(), CLOCKS()))
#define TRACE_CALL(target, go, go_pushed)                                                          \
    do {                                                                                           \
        if (__builtin_expect(!CALL_FAST(target), 0)) {                                             \
            FORGET_POSITION();                                                                     \
            if (!CALL_LINKED(target))                                                              \
                TRACE_SLOW(target, go);                                                            \
            go_pushed;                                                                             \
        }                                                                                          \
    } while (0)
/*
 * jal's jump: one to a target inside the top frame's function is a taken
 * branch for the runs (one hook); any other ends the run first. Its fast
 * path goes on with `go_pushed` (no run to start).
 */
#define TRACE_JUMP_NEAR(target, go, go_pushed)                                                     \
    do {                                                                                           \
        if (__builtin_expect(!trace_jump_fast(top, (target)), 0)) {                                \
            RUN_END_AT(PC(), LEN);                                                                 \
            TRACE_TAIL(target, go);                                                                \
        }                                                                                          \
        RUN_BRANCH(PC(), LEN, (target));                                                           \
    } while (0)
#define TRACE_OTHER(target, go, go_pushed) TRACE_SLOW(target, go)
#define NO_TRACE(target, go, go_pushed) ((void)0)
/*
 * Whether the fast paths of a jump reported with the given macro do the
 * runs' work themselves and go on with `go_pushed` (trace.h, "Runs"): a
 * traced call keeps the caller's run open (when the slow path pushes no
 * frame, the tracer ends it), jal's jump is a branch. Otherwise the jump
 * ends the run before the report and the target starts one.
 */
#define RUN_DONE_TRACE_CALL 1
#define RUN_DONE_TRACE_JUMP_NEAR 1
#define RUN_DONE_TRACE_JUMP 0
#define RUN_DONE_TRACE_OTHER 0
#define RUN_DONE_NO_TRACE 0
#define RUN_DONE(TRACE) RUN_DONE_##TRACE
/* jal: link, report (JUMP or CALL), go; the target is near (code_cache_fill). */
#define JAL_GO_(go)                                                                                \
    do {                                                                                           \
        go(ip + ip->imm);                                                                          \
        CHECKED_DISPATCH();                                                                        \
    } while (0)
#define JAL_GO() JAL_GO_(GOTO_IP)
#define JAL_GO_PUSHED() JAL_GO_(GOTO_IP_RUN_DONE)
#define JAL_BODY(TRACE)                                                                            \
    do {                                                                                           \
        if (!RUN_DONE(TRACE))                                                                     \
            RUN_END_AT(PC(), LEN);                                                                 \
        RD = PC() + LEN;                                                                           \
        TRACE(PC() + (ureg)((sreg)ip->imm * SLOT_BYTES), JAL_GO(), JAL_GO_PUSHED());              \
        if (RUN_DONE(TRACE))                                                                      \
            JAL_GO_PUSHED();                                                                       \
        JAL_GO();                                                                                  \
    } while (0)
/*
 * jalr: a misaligned target faults before rd is written. rd is written
 * after the report, so that the slow path can read the target again from
 * rs1 instead of keeping it in a register across the call (JALR_GO).
 */
#define JALR_TARGET() ((RS1 + IMM) & ~(ureg)1)
#define JALR_GO_(go)                                                                               \
    do {                                                                                           \
        ureg again_ = JALR_TARGET();                                                               \
        RD = PC() + LEN;                                                                           \
        go(again_);                                                                                \
    } while (0)
#define JALR_GO() JALR_GO_(JUMP_TO)
#define JALR_GO_PUSHED() JALR_GO_(JUMP_TO_RUN_DONE)
#define JALR_BODY(TRACE)                                                                           \
    do {                                                                                           \
        ureg target_ = JALR_TARGET();                                                              \
        if (__builtin_expect(target_ & (SLOT_BYTES - 1), 0)) {                                     \
            fault_pc = target_;                                                                    \
            goto out_bad_target;                                                                   \
        }                                                                                          \
        if (!RUN_DONE(TRACE))                                                                     \
            RUN_END_AT(PC(), LEN);                                                                 \
        TRACE(target_, JALR_GO(), JALR_GO_PUSHED());                                               \
        RD = PC() + LEN;                                                                           \
        if (RUN_DONE(TRACE))                                                                      \
            JUMP_TO_RUN_DONE(target_);                                                             \
        JUMP_TO(target_);                                                                          \
    } while (0)
/* Where the code after the current instruction lies: a pushed frame's ret_at (see trace.h). */
#define RET_AT() ((uintptr_t)(ip + LEN / SLOT_BYTES))
/*
 * A traced return to the address the top frame expects (trace_return_fast)
 * goes to the entry the frame noted: that address is pc + 4 (or + 2) of a call the
 * loop ran, so it is aligned and in the code, or just past its end (a call
 * in the last word), where it faults like any jump out of the code. Any
 * other return goes the whole way, to the slow path.
 */
#define JALR_RET_TRACED_BODY()                                                                     \
    do {                                                                                           \
        ureg ret_ = JALR_TARGET();                                                                 \
        if (PER_PC && ret_ == top->ret)                                                            \
            RUN_END_AT(PC(), LEN); /* (a miss ends it in JALR_BODY) */                             \
        if (__builtin_expect(trace_return_fast(&top, ret_, CLOCKS()), 1)) {                        \
            struct insn *at_ = (struct insn *)top[1].ret_at; /* the frame just popped */           \
            RD = PC() + LEN;                                                                       \
            if (__builtin_expect(at_ == m->code.end, 0)) {                                         \
                RUN_END_AT(ret_, 0); /* the caller's run, open since the call, ends */            \
                fault_pc = ret_;                                                                   \
                goto out_bad_target;                                                               \
            }                                                                                      \
            GOTO_IP_RUN_DONE(at_); /* the caller's run goes on (trace.h, "Runs") */             \
            CHECKED_DISPATCH();                                                                    \
        }                                                                                          \
        FORGET_POSITION();                                                                         \
        JALR_BODY(TRACE_OTHER);                                                                    \
    } while (0)
/* A conditional branch: taken, it dispatches at the target; else falls through. */
#define BRANCH_BODY(cond) BRANCH_BODY_(cond, 4)
#define BRANCH_BODY_C(cond) BRANCH_BODY_(cond, 2)
#define BRANCH_BODY_(cond, len)                                                                    \
    do {                                                                                           \
        if (cond) {                                                                                \
            RUN_BRANCH(PC(), len, PC() + ((ureg)(sreg)ip->imm << SLOT_SHIFT));                     \
            GOTO_IP_RUN_DONE(ip + ip->imm);                                                        \
            CHECKED_DISPATCH();                                                                    \
        }                                                                                          \
    } while (0)

#if !PRECISE
    if (m->code.dispatch != dispatch)
        code_cache_bind(&m->code, dispatch);
#endif
    RUN_START_AT(PC()); /* every stop ends the run (out_*) */
    CHECKED_DISPATCH();

#if TRANSLATES
op_TRANSLATED : {
    /*
     * A block starts here (code_cache.h: block_starts). It runs when the
     * budget holds all of it; it retires what it ran, by position as the
     * loop counts (lim moves by the entries it skipped less those it ran),
     * and leaves at the entry to go on at. Nothing retired: the instruction
     * here runs by its own handler (a miss of its access, or the budget).
     */
    const struct translate_slot *s_ = (const struct translate_slot *)((
        uintptr_t)m->translate_slots + ((uintptr_t)ip - (uintptr_t)m->code.insns));
    struct translate_exit x_;
    /*
     * The budget it gets is LEFT(), not LEFT() + 1: the instruction it
     * goes on at is counted too, so that lim stays at or past ip (the
     * soft check compares without sign).
     */
    /* its taken transfers count in the cost clock and the tracer's frames, as here */
    struct translate_hooks h_ = {COST_CLOCK ? &cl : NULL, top, tracer, 0};
    if (__builtin_expect(s_->n - 1 < LEFT(), 1)) /* translated (n > 0), and it fits */
        x_ = s_->fn(&m->regs, mem, RIGHTS, LEFT(), &h_);
    else
        x_ = translate_enter(m->translator, ip, LEFT(), &m->regs, &h_);
    top = h_.top; /* the calls and returns it ran moved it */
    x_.retired += h_.chained; /* and the blocks it ran on into */
    if (x_.retired == 0)
        goto *dispatch->single[ip->op];
    lim += (uintptr_t)x_.ip - (uintptr_t)ip - x_.retired * sizeof(struct insn);
    ip = x_.ip;
    CHECKED_DISPATCH();
}
#endif
#if !PRECISE
op_PAGE_CHECK:
    /* The first instruction of a page, already counted by its dispatch. */
    if (LEFT() + 1 < INTERP_SOFT_MARGIN)
        goto out_soft;
    goto *dispatch->single[ip->op & (INSN_PAGE_MARK - 1)];
#endif
op_DECODE : {
    uint64_t pc = PC();
    if (m->pages) { /* a code page's first fetch in a RISC Zero segment (page_touch.h) */
        SAVE_TRACER();
        if (!page_touch_fetch(m, pc))
            FAULT(FAULT_SEGMENT_SPLIT, pc);
        if (ip->op != OP_DECODE) /* its page's instructions are back */
#if PRECISE
            goto *labels[ip->op];
#else
            goto *dispatch->single[ip->op];
#endif
    }
    /* Fixed code was all decoded at load: this slot holds no instruction. */
    if (!(RIGHTS[WINDOW_PAGE(pc)] & PAGE_X) || m->code.fixed)
        FAULT(RIGHTS[WINDOW_PAGE(pc)] ? FAULT_FETCH_NOT_EXECUTABLE : FAULT_FETCH_UNMAPPED, pc);
    uint32_t word;
#if RVC
    uint16_t half;
    memcpy(&half, HOST(pc), 2);
    word = half;
    if (insn_word_is_full(word)) { /* its second half may lie on the next page */
        if ((pc & (GUEST_PAGE_SIZE - 1)) == GUEST_PAGE_SIZE - 2 &&
            !(RIGHTS[WINDOW_PAGE(pc + 2)] & PAGE_X))
            FAULT(RIGHTS[WINDOW_PAGE(pc + 2)] ? FAULT_FETCH_NOT_EXECUTABLE : FAULT_FETCH_UNMAPPED,
                  pc + 2);
        memcpy(&half, HOST(pc + 2), 2);
        word |= (uint32_t)half << 16;
    }
#else
    memcpy(&word, HOST(pc), 4);
#endif
    ip = code_cache_fill(&m->code, pc, code_cache_decode(&m->code, word, XLEN));
    /* Already counted by the dispatch that got here. */
#if PRECISE
    goto *labels[ip->op];
#else
    goto *dispatch->single[ip->op];
#endif
}
op_ILLEGAL:
    if (interp_custom(m, (uint32_t)ip->imm)) /* a zkVM's own instruction: run as an ecall */
        goto op_ECALL;
    m->fault = (struct fault){
        .kind = FAULT_ILLEGAL_INSTRUCTION, .pc = PC(), .word = (uint32_t)ip->imm};
    goto out_fault;
#define SIMPLE_HANDLER(name)                                                                       \
    op_##name : OP_BODY_##name;                                                                    \
    NEXT();
    ALU_OPS(SIMPLE_HANDLER)
    ALU_RARE_OPS(SIMPLE_HANDLER)
    ALU_W_OPS(SIMPLE_HANDLER)
    LOAD_OPS(SIMPLE_HANDLER)
    LOAD_64_OPS(SIMPLE_HANDLER)
    STORE_OPS(SIMPLE_HANDLER)
    STORE_64_OPS(SIMPLE_HANDLER)
    ALIGNED_LOAD_OPS(SIMPLE_HANDLER)
    ALIGNED_STORE_OPS(SIMPLE_HANDLER)
    BRANCH_OPS(SIMPLE_HANDLER)
#undef SIMPLE_HANDLER
#if RVC
#define SIMPLE_HANDLER_C(name)                                                                     \
    op_##name : OP_BODY_##name;                                                                    \
    NEXT_C();
    RVC_BODY_OPS(SIMPLE_HANDLER_C)
    RVC_ALIGNED_OPS(SIMPLE_HANDLER_C)
#undef SIMPLE_HANDLER_C
#else
    /* No compressed operation is decoded without C (code_cache_decode). */
#define NO_HANDLER(name) op_##name:
    RVC_OPS(NO_HANDLER)
#undef NO_HANDLER
    goto op_ILLEGAL;
#endif
#if !PRECISE
    /*
     * The fused pairs: both statements, then one dispatch; a pair ending in
     * a jump runs the first statement and goes on into the jump's handler.
     */
#define FUSED_HANDLER(first, second, step, next)                                                   \
    fuse_##first##_##second : OP_BODY_##first;                                                     \
    step();                                                                                        \
    OP_BODY_##second;                                                                              \
    next();
#define FUSED_HANDLER_JUMP(first, second, step, suffix)                                            \
    fuse_##first##_##second##suffix : OP_BODY_##first;                                             \
    step();                                                                                        \
    goto op_##second##suffix;
    FUSED_PAIRS_STRAIGHT(FUSED_HANDLER, STEP, NEXT)
    FUSED_PAIRS_BRANCH(FUSED_HANDLER, STEP, NEXT)
    FUSED_PAIRS_JUMP(FUSED_HANDLER_JUMP, STEP, )
    FUSED_PAIRS_JUMP(FUSED_HANDLER_JUMP, STEP, _T)
#if RVC
    RVC_FUSED_PAIRS(FUSED_HANDLER, STEP_C, NEXT_C)
    RVC_FUSED_PAIRS_JUMP(FUSED_HANDLER_JUMP, STEP_C, )
    RVC_FUSED_PAIRS_JUMP(FUSED_HANDLER_JUMP, STEP_C, _T)
#endif
#undef FUSED_HANDLER_JUMP
#undef FUSED_HANDLER
#endif
    /*
     * The jump handlers, with the given reports (suffix _T: the traced
     * table's); a return's handler is given whole.
     */
#define JUMP_HANDLERS(prefix, suffix, near, jump, ret, call, other)                                \
    op_##prefix##JAL##suffix : JAL_BODY(near);                                                     \
    op_##prefix##JAL_CALL##suffix : JAL_BODY(call);                                                \
    op_##prefix##JALR##suffix : JALR_BODY(jump);                                                   \
    op_##prefix##JALR_CALL##suffix : JALR_BODY(call);                                              \
    op_##prefix##JALR_RET##suffix : ret;                                                           \
    op_##prefix##JALR_RETCALL##suffix : JALR_BODY(other);
/* A jump, whose handlers the lengths' loop below makes (LEN: its length in bytes). */
#if !PRECISE
#define JUMP_HANDLERS_OF(prefix)                                                                   \
    JUMP_HANDLERS(prefix, , NO_TRACE, NO_TRACE, JALR_BODY(NO_TRACE), NO_TRACE, NO_TRACE)           \
    JUMP_HANDLERS(prefix, _T, TRACE_JUMP_NEAR, TRACE_JUMP, JALR_RET_TRACED_BODY(), TRACE_CALL,       \
                  TRACE_OTHER)
#elif TRACED
#define JUMP_HANDLERS_OF(prefix)                                                                   \
    JUMP_HANDLERS(prefix, , TRACE_JUMP_NEAR, TRACE_JUMP, JALR_RET_TRACED_BODY(), TRACE_CALL,         \
                  TRACE_OTHER)
#else
#define JUMP_HANDLERS_OF(prefix)                                                                   \
    JUMP_HANDLERS(prefix, , NO_TRACE, NO_TRACE, JALR_BODY(NO_TRACE), NO_TRACE, NO_TRACE)
#endif
/*
 * A jal or branch whose target is outside the code or misaligned: a
 * misaligned one faults on itself, any other retires and the fetch at the
 * target faults.
 */
#define FAR_HANDLERS(prefix, next)                                                                 \
    op_##prefix##JAL_FAR : {                                                                       \
        ureg target = PC() + IMM;                                                                  \
        if (!(target & (SLOT_BYTES - 1))) {                                                        \
            RD = PC() + LEN;                                                                       \
            RUN_END_AT(PC(), LEN);                                                                 \
        }                                                                                          \
        fault_pc = target;                                                                         \
        goto out_bad_target;                                                                       \
    }                                                                                              \
    op_##prefix##BRANCH_FAR:                                                                       \
    if (interp_branch_taken(ip->rd, RS1, RS2, (sreg)RS1 < (sreg)RS2)) {                            \
        fault_pc = PC() + IMM;                                                                     \
        if (!(fault_pc & (SLOT_BYTES - 1)))                                                        \
            RUN_END_AT(PC(), LEN); /* as JAL_FAR */                                                \
        goto out_bad_target;                                                                       \
    }                                                                                              \
    next();
#define LEN 4
    JUMP_HANDLERS_OF()
    FAR_HANDLERS(, NEXT)
#if UNHOOKED
    /*
     * The unhooked handlers (suffix _U): the traced branches and jumps,
     * and the pairs holding one, without the taken branch's run hook.
     */
#undef RUN_BRANCH
#define RUN_BRANCH(pc, len, target) ((void)0)
#define UNHOOKED_BRANCH(name)                                                                      \
    op_##name##_U : OP_BODY_##name;                                                                \
    NEXT();
#define UNHOOKED_PAIR(first, second, ...)                                                             \
    fuse_##first##_##second##_U : OP_BODY_##first;                                                 \
    STEP();                                                                                        \
    OP_BODY_##second;                                                                              \
    NEXT();
#define UNHOOKED_PAIR_JUMP(first, second, ...)                                                        \
    fuse_##first##_##second##_U : OP_BODY_##first;                                                 \
    STEP();                                                                                        \
    goto op_##second##_U;
    BRANCH_OPS(UNHOOKED_BRANCH)
    JUMP_HANDLERS(, _U, TRACE_JUMP_NEAR, TRACE_JUMP, JALR_RET_TRACED_BODY(), TRACE_CALL,
                  TRACE_OTHER)
    FUSED_PAIRS_BRANCH(UNHOOKED_PAIR, )
    FUSED_PAIRS_JUMP(UNHOOKED_PAIR_JUMP, )
#undef UNHOOKED_PAIR_JUMP
#undef UNHOOKED_PAIR
#undef UNHOOKED_BRANCH
#undef RUN_BRANCH
#define RUN_BRANCH RUN_BRANCH_HOOK
#endif
#undef LEN
#if RVC
#define LEN 2
    JUMP_HANDLERS_OF(C_)
    FAR_HANDLERS(C_, NEXT_C)
#undef LEN
#endif
#undef FAR_HANDLERS
#undef JUMP_HANDLERS_OF
#undef JUMP_HANDLERS
op_FENCE:
    NEXT();
op_ECALL:
    m->pc = PC();
    m->ecall_clock = m->retired + budget - LEFT();
    m->ecall_now = NOW();
    STOP_CLOCK(through); /* the tracer's ecall and rewind read it */
    RUN_END_AT(PC(), 4); /* before the ABI may rewind the stack */
    SAVE_TRACER(); /* the ABI may report the call to the tracer */
    switch (machine_ecall(m)) {
    case ECALL_CONTINUE: RUN_START_AT(PC() + 4); NEXT();
    case ECALL_EXIT: /* the clock was stopped before the call */
        m->retired += budget - LEFT();
        return STOP_EXIT;
    case ECALL_FAULT: RUN_START_AT(PC() + 4); goto out_fault; /* it did not retire after all */
    case ECALL_JUMP: LOAD_TRACER(); JUMP_TO(m->pc);
    }
    __builtin_unreachable();
op_EBREAK:
    FAULT(FAULT_BREAKPOINT, 0);
op_AMO : { /* LR, SC, AMOs: rare, so all out of line (interp.h); a store may reset code */
    uint64_t a_;
    enum fault_kind k_ = interp_amo(m, ip, &a_);
    if (k_ != FAULT_NONE)
        FAULT(k_, a_);
    NEXT();
}
op_CSR:
    if (!interp_csr(m, ip, m->retired + budget - LEFT() - 1)) {
        if (interp_custom(m, (uint32_t)ip->imm)) /* a zkVM's call through a CSR */
            goto op_ECALL;
        m->fault = (struct fault){.kind = FAULT_UNSUPPORTED_CSR,
                                  .pc = PC(),
                                  .addr = (uint32_t)ip->imm >> 20,
                                  .word = (uint32_t)ip->imm};
        goto out_fault;
    }
    NEXT();
op_DIV : {
    sreg a = (sreg)RS1, b = (sreg)RS2;
    RD = b == 0 ? ~(ureg)0 : (a == SREG_MIN && b == -1) ? (ureg)a : (ureg)(a / b);
    NEXT();
}
op_DIVU : {
    ureg a = RS1, b = RS2;
    RD = b == 0 ? ~(ureg)0 : a / b;
    NEXT();
}
op_REM : {
    sreg a = (sreg)RS1, b = (sreg)RS2;
    RD = b == 0 ? (ureg)a : (a == SREG_MIN && b == -1) ? 0 : (ureg)(a % b);
    NEXT();
}
op_REMU : {
    ureg a = RS1, b = RS2;
    RD = b == 0 ? a : a % b;
    NEXT();
}
op_DIVW : {
    int32_t a = (int32_t)RS1, b = (int32_t)RS2;
    RD = SEXT32(b == 0 ? -1 : (a == INT32_MIN && b == -1) ? a : a / b);
    NEXT();
}
op_DIVUW : {
    uint32_t a = (uint32_t)RS1, b = (uint32_t)RS2;
    RD = SEXT32(b == 0 ? UINT32_MAX : a / b);
    NEXT();
}
op_REMW : {
    int32_t a = (int32_t)RS1, b = (int32_t)RS2;
    RD = SEXT32(b == 0 ? a : (a == INT32_MIN && b == -1) ? 0 : a % b);
    NEXT();
}
op_REMUW : {
    uint32_t a = (uint32_t)RS1, b = (uint32_t)RS2;
    RD = SEXT32(b == 0 ? a : a % b);
    NEXT();
}

out_bad_target:
    /* A jump to a misaligned target faults on the jump itself; a jump out
     * of executable memory retires (its run ended) and faults on the fetch at the target. */
    if (fault_pc & (SLOT_BYTES - 1)) {
        m->fault = (struct fault){
            .kind = FAULT_MISALIGNED_TARGET, .pc = PC(), .from = PC(), .addr = fault_pc};
        goto out_fault;
    }
    m->fault = (struct fault){.kind = interp_fetch_fault_kind(&m->mem, fault_pc),
                              .pc = fault_pc,
                              .from = PC(),
                              .addr = fault_pc};
    STOP_CLOCK(through);
    SAVE_TRACER();
    m->retired += budget - LEFT();
    m->pc = fault_pc;
    return STOP_FAULT;
out_fault:
    RUN_END_HERE();
    STOP_CLOCK(before);
    SAVE_TRACER();
    m->retired += budget - LEFT() - 1;
    m->pc = m->fault.pc;
    return STOP_FAULT;
#if PRECISE
out_budget:
    RUN_END_HERE();
    STOP_CLOCK(before);
    SAVE_TRACER();
    m->retired += budget;
    m->pc = PC();
    return STOP_BUDGET;
#else
out_soft:
    /* Stopped before the instruction at ip, which was counted: undo that. */
    RUN_END_HERE();
    STOP_CLOCK(before);
    SAVE_TRACER();
    m->retired += budget - (LEFT() + 1);
    m->pc = PC();
    return STOP_BUDGET;
#endif

#undef PC
#undef NEXT_C
#undef LOAD_BODY_
#undef LOAD_BODY_C
#undef STORE_BODY_
#undef STORE_BODY_C
#undef BRANCH_BODY_
#undef BRANCH_BODY_C
#undef DISPATCH
#undef LEFT
#undef GOTO_IP
#undef NEXT
#undef RD
#undef RS1
#undef RS2
#undef IMM
#undef FAULT
#undef FAST_ACCESS
#undef IN_PAGE_ACCESS
#undef LOAD_ELSEWHERE
#undef STORE_ELSEWHERE
#undef RIGHTS
#undef LOAD_BODY
#undef STORE_BODY
#undef JUMP_TO
#undef JUMP_TO_
#undef JUMP_TO_RUN_DONE
#undef BRANCH_BODY
#undef TRACE_JUMP
#undef TRACE_CALL
#undef TRACE_OTHER
#undef TRACE_SLOW
#undef NO_TRACE
#undef RUN_DONE
#undef RUN_DONE_TRACE_CALL
#undef RUN_DONE_TRACE_JUMP_NEAR
#undef RUN_DONE_TRACE_JUMP
#undef RUN_DONE_TRACE_OTHER
#undef RUN_DONE_NO_TRACE
#undef TRACE_JUMP_NEAR
#undef TRACE_TAIL
#undef NOW
#undef CLOCKS
#undef COST_CLOCK
#undef COST_AT
#undef STOP_CLOCK
#undef COST_TRANSFER
#undef cl
#if COST
#undef tracer
#endif
#undef FORGET_POSITION
#undef SAVE_TRACER
#undef LOAD_TRACER
#undef PER_PC
#undef RUN_START_AT
#undef RUN_END_AT
#undef RUN_END_HERE
#undef RUN_BRANCH
#undef RUN_BRANCH_HOOK
#undef GOTO_IP_RUN_DONE
#undef CALL_FAST
#undef CALL_LINKED
#undef INSN_OP_LABEL
#undef JAL_BODY
#undef JALR_BODY
#undef JALR_RET_TRACED_BODY
#undef RET_AT
#undef JAL_GO
#undef JAL_GO_
#undef JAL_GO_PUSHED
#undef JALR_GO
#undef JALR_GO_
#undef JALR_GO_PUSHED
#undef JALR_TARGET
#undef pc_bias
#undef CHECKED_DISPATCH
}

#undef TRACED
#undef PRECISE
#undef RUNS
#undef COST
#undef UNHOOKED
#undef TRANSLATES
#undef SLOT_SHIFT
#undef ENTRY_SHIFT
#undef SLOT_BYTES
#undef STEP
#undef STEP_C
#undef RUN_FN
#undef PAGE_MARK_LABEL
