/*
 * machine: one guest hart with its memory, predecoded code and I/O, built
 * from a loaded ELF image, and the single entry point that runs it.
 */
#ifndef EXECUTOR_MACHINE_H
#define EXECUTOR_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/warning.h"
#include "executor/abi/abi.h"
#include "executor/code_cache.h"
#include "executor/decode.h"
#include "executor/elf_image.h"
#include "executor/memory.h"
#include "executor/trace.h"

/* What stopped a run. */
enum stop_reason {
    STOP_EXIT,   /* the guest called exit; see exit_status */
    STOP_FAULT,  /* see fault */
    STOP_BUDGET, /* the instruction budget of machine_run ran out */
};

enum fault_kind {
    FAULT_NONE,
    FAULT_LOAD_UNMAPPED,
    FAULT_STORE_UNMAPPED,
    FAULT_STORE_READONLY,
    FAULT_FETCH_UNMAPPED,
    FAULT_FETCH_NOT_EXECUTABLE,
    FAULT_MISALIGNED_TARGET,
    FAULT_ILLEGAL_INSTRUCTION,
    FAULT_BREAKPOINT,
    FAULT_UNSUPPORTED_SYSCALL,
    FAULT_UNSUPPORTED_ECALL, /* a zkVM call this executor does not implement: see call */
    FAULT_ECALL_ARGUMENT,    /* a zkVM call's argument is out of range: see call, addr */
    FAULT_GUEST_PANIC,       /* the guest reported a panic through a call: see why */
    FAULT_HOST_MEMORY,       /* the host refused memory the run needed */
    FAULT_MISALIGNED_ACCESS, /* an LR, SC or AMO address not a multiple of its size: see addr */
    FAULT_UNSUPPORTED_CSR,   /* a CSR access other than a read of a counter: addr, word */
    FAULT_MISALIGNED_LOAD,   /* a load not aligned to its size, where the ABI traps it: addr */
    FAULT_MISALIGNED_STORE,  /* likewise a store */
    FAULT_SEGMENT_SPLIT,     /* no fault: page_touch stops before pc to end a segment */
};

struct fault {
    enum fault_kind kind;
    uint64_t pc; /* the instruction that faulted (for fetches, the target) */
    /* for CSR faults, addr is the CSR number */
    uint64_t from;    /* for fetch and target faults: the jump's own pc */
    uint64_t addr;    /* data address, target, or syscall number */
    uint32_t word;    /* instruction word, for illegal instructions */
    const char *call; /* for ecall faults: the zkVM's name of the call (static) */
    const char *why;  /* for ecall faults: what is wrong (static), or NULL */
};

/* One --input file's bytes, as a zkVM ABI hands them to the guest. */
struct machine_input {
    const uint8_t *data;
    size_t size;
};

struct jolt_memory;    /* executor/abi/jolt_layout.h */
struct translator;     /* executor/translate/translate.h */
struct translate_slot; /* likewise */

/* What runs the guest (--engine; machine_choose_engine). */
enum machine_engine {
    MACHINE_ENGINE_AUTO,      /* the translation tier where it can run, else the interpreter */
    MACHINE_ENGINE_INTERP,    /* the interpreter alone */
    MACHINE_ENGINE_TRANSLATE, /* the tier; machine_choose_engine refuses where it cannot run */
};

struct machine_io {
    int private_input_fd;               /* guest fd 0; -1 reads as empty */
    int stdout_fd;                      /* guest fd 1; -1 discards */
    int stderr_fd;                      /* guest fd 2; -1 discards */
    int public_output_fd;               /* guest fd 3; -1 discards */
    bool strict;                        /* unknown syscalls fault instead of returning -ENOSYS */
    bool unverified_assumptions;        /* RISC Zero: take env::verify claims without receipts */
    struct warning_sink warnings;       /* where one-time warnings go (common/warning.h) */
    const struct machine_input *inputs; /* --input files in order (zkVM ABIs) */
    size_t ninputs;
    uint64_t stack_size; /* the linux ABI's stack region */
    /* SP1: the proofs its --stdin file carried; whether VERIFY_SP1_PROOF passes unverified */
    uint64_t deferred_proofs;
    bool skip_deferred_proof_verification;
    /* Jolt: the I/O sizes --jolt-memory gave, over the ELF's and Jolt's defaults; NULL: none */
    const struct jolt_memory *jolt_memory;
    /* --zkvm-release: the zkVM release the guest was built with (ABIs with takes_release); NULL:
     * from the ELF */
    const char *zkvm_release;
    enum machine_engine engine; /* --engine */
    /*
     * --translate-after: how many entries of a block start the interpreter
     * runs before the tier translates its block (0: at its first; at most
     * 255). The cli's default is MACHINE_TRANSLATE_AFTER.
     */
    unsigned translate_after;
};

/*
 * Most start-up and exit code runs a few times, and translating a block
 * (some 5 us) costs more than interpreting it 15 times: verifier-rv64 on
 * one query translated 59 of its 147 blocks and took 0.78x the time,
 * hello-rv32 0.85x; 7 gave 0.80x.
 */
#define MACHINE_TRANSLATE_AFTER 15

union regfile {
    uint32_t x32[REG_SINK + 1];
    uint64_t x64[REG_SINK + 1];
};

struct machine {
    int xlen;
    union regfile regs;
    uint64_t pc;
    uint64_t retired; /* instructions retired so far, over all runs */
    /* LR/SC: an LR reserves `reserved_addr`; the next SC clears it (interp_amo). */
    bool reserved;
    uint64_t reserved_addr;
    struct guest_memory mem;
    struct code_cache code;
    struct machine_io io;
    struct flow_tracer *tracer; /* NULL: untraced, fastest loops */
    struct page_touch *pages;   /* RISC Zero's paging tracked (page_touch.h); NULL: not */
    const struct abi *abi;
    void *abi_state;      /* the ABI's own */
    uint64_t ecall_clock; /* during an ecall: instructions retired, the ecall included */
    uint64_t ecall_now;   /* during a traced ecall: the tracer's clock, the ecall included */
    bool rewind;          /* during an ecall: see machine_trace_rewind */
    bool transfer;        /* during an ecall: see machine_trace_transfer */
    uint32_t custom_word; /* during an ecall: the custom-opcode word it runs (0: an ecall) */
    int exit_status;
    struct fault fault;
    /* The engine, chosen at the first run (machine_choose_engine): */
    bool engine_chosen;
    struct translator *translator;          /* the translation tier; NULL: the interpreter alone */
    struct translate_slot *translate_slots; /* its blocks by entry (translate_slots) */
    const char *engine_why;                 /* then why (static text) */
};

/*
 * Builds a machine for `img` under `abi`, which maps the segments and its
 * own regions and sets the registers at entry. Returns 0, or -1 with
 * ERROR_UNSUPPORTED in `e` when the image does not fit the ABI's memory
 * map, ERROR_NO_MEMORY when the host refuses memory.
 */
int machine_init(struct machine *m, const struct elf_image *img, const struct abi *abi,
                 const struct machine_io *io, struct error *e);
void machine_destroy(struct machine *m);

/*
 * Has `t` follow the guest's calls from the next run on (NULL: none), and
 * in per-pc mode tell the code cache which functions keep no runs
 * (flow_tracer.note_runs).
 */
void machine_attach_tracer(struct machine *m, struct flow_tracer *t);

/* What the instruction `word` at pc costs under some weight. */
typedef uint64_t (*machine_insn_cost)(void *ctx, uint64_t pc, uint32_t word);

/*
 * Gives the code a cost clock (executor/trace.h, "Cost clock") counting
 * `cost`, for a tracer in cost mode. Only code without C that no store
 * can rewrite (fixed at load, code_cache_predecode, or on no page both
 * writable and executable) has one: false otherwise, or without memory,
 * and the tracer must count per pc instead.
 */
bool machine_set_cost_clock(struct machine *m, machine_insn_cost cost, void *ctx);

/*
 * Chooses the engine for the runs to come, the machine as it is now (its
 * tracer's mode, page tracking), unless chosen already: the translation
 * tier unless io.engine is MACHINE_ENGINE_INTERP or the tier cannot run
 * (another host, C, code that stores may change, page tracking, per-pc
 * counts or a cost clock: engine_why says). Returns 0; -1 with
 * ERROR_UNSUPPORTED in `e` when io.engine is MACHINE_ENGINE_TRANSLATE and
 * the tier cannot run. machine_run calls it when nobody did.
 */
int machine_choose_engine(struct machine *m, struct error *e);

/*
 * The engine for --stats: "translate (N blocks, M guest instructions
 * translated)" or "interp (why)", into buf.
 */
void machine_engine_text(const struct machine *m, char *buf, size_t size);

/*
 * Runs until the guest exits, faults, or `budget` more instructions have
 * retired. A fault leaves m->pc at the faulting instruction, which does not
 * count as retired; the exit ecall counts. A fault the ABI takes as a trap
 * (abi->fault_traps) retires and the run goes on in the handler (a trap on
 * a jump's target, whose jump retired too, may retire one instruction past
 * the budget).
 */
enum stop_reason machine_run(struct machine *m, uint64_t budget);

/*
 * The same, but a budget of 2 * INTERP_SOFT_MARGIN or more may end up to
 * that many instructions early (STOP_BUDGET), without the precise loop's
 * last stretch: for callers that check between runs and go on.
 */
enum stop_reason machine_run_about(struct machine *m, uint64_t budget);

/* Register access for slow paths (syscalls, tests), whatever the XLEN. */
uint64_t machine_get_reg(const struct machine *m, unsigned r);
void machine_set_reg(struct machine *m, unsigned r, uint64_t value);

/*
 * The ecall at m->pc, through the machine's ABI; a call the ABI names is
 * reported to the tracer as a leaf frame (docs/CONTRACT.md#4-zkvm-guests).
 */
enum ecall_result machine_ecall(struct machine *m);

/*
 * For an ABI that resumes the guest at an earlier point (ECALL_JUMP):
 * during an ecall, has the tracer note the call stack, and in a later
 * ecall has it put back as noted, once that ecall's own frame is counted.
 * Without a tracer they do nothing.
 */
void machine_trace_mark(struct machine *m);
void machine_trace_rewind(struct machine *m);

/*
 * During an ecall that returns ECALL_JUMP: the tracer sees the move to
 * m->pc as a jump (a tail call when it leaves the function), as SP1's
 * traps and SIG_RETURN move. Without it an ECALL_JUMP is a branch.
 */
void machine_trace_transfer(struct machine *m);

/*
 * Maps the image's PT_LOAD segments with their rights (or, with
 * `rights_override`, those rights for all: a flat memory), copies their
 * bytes and returns the end of the highest one. For ABIs.
 */
uint64_t machine_map_segments(struct machine *m, const struct elf_image *img,
                              unsigned rights_override);

/* A short description of a fault kind ("load from unmapped memory"). */
const char *fault_kind_text(enum fault_kind kind);

#endif
