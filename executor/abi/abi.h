/*
 * abi: what makes a guest a program of one zkVM, or of Linux: its memory
 * map and registers at entry, and what its ecalls do (docs/CONTRACT.md#1-guests
 * and #4-zkvm-guests). Each ABI is one file in this folder behind this interface; the
 * interpreter knows none of them: machine_init lets the ABI lay out the
 * machine, and the ecall handler calls machine_ecall, which calls the ABI.
 */
#ifndef EXECUTOR_ABI_ABI_H
#define EXECUTOR_ABI_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

struct machine;
struct elf_image;

/* What an ecall did to the run. */
enum ecall_result {
    ECALL_CONTINUE,
    ECALL_EXIT,  /* m->exit_status is set */
    ECALL_FAULT, /* m->fault is set */
    ECALL_JUMP,  /* the run goes on at m->pc, not after the ecall (SP1's EXIT_UNCONSTRAINED) */
};

struct abi {
    const char *name; /* as --zkvm spells it: "linux", "sp1", ... */
    /*
     * Maps the image's segments and the ABI's own regions, sets the
     * registers and the state the ecalls keep (m->abi_state). Returns 0,
     * or -1 with ERROR_UNSUPPORTED in `e` when the image (or the input)
     * does not fit the ABI's memory map, ERROR_NO_MEMORY when the host
     * refuses memory.
     */
    int (*setup)(struct machine *m, const struct elf_image *img, struct error *e);
    /*
     * Runs the ecall at m->pc with the guest's registers. *call names it
     * for the profile (a static string: "SHA_COMPRESS"), or stays NULL
     * when ecalls are not shown as frames (the linux ABI).
     */
    enum ecall_result (*ecall)(struct machine *m, const char **call);
    /*
     * Runs the custom-opcode instruction `word` at m->pc (major opcode
     * custom-0..3: 0x0b, 0x2b, 0x5b, 0x7b) as the zkVM defines it, as an
     * ecall: it counts as one instruction, *call names its frame. NULL: such
     * words are illegal instructions, as in plain RISC-V.
     */
    enum ecall_result (*custom_insn)(struct machine *m, uint32_t word, const char **call);
    /*
     * CSR numbers [custom_csr_lo, custom_csr_hi) that are the zkVM's calls
     * (ZisK's `csrs 0x800 + n, rs1` precompiles): an access to one, other
     * than what interp_csr reads, goes to custom_insn too. Empty: none.
     */
    uint16_t custom_csr_lo, custom_csr_hi;
    /*
     * A store of `size` bytes into a page the ABI left without write rights
     * (a device: ZisK's UART): true when the ABI took it (it does the write
     * itself, if any); false: the store faults as usual. May be NULL.
     */
    bool (*mmio_store)(struct machine *m, uint64_t addr, unsigned size, uint64_t value);
    /*
     * The run stopped at a store into a page without write rights that
     * mmio_store did not take (m->fault): true when that store is the
     * zkVM's halt (Jolt's termination word; m->exit_status set, the fault
     * cleared: the run ends as an exit, the store not counted); false
     * otherwise, the fault kept or made clearer (Jolt's panic word). May be NULL.
     */
    bool (*store_stops)(struct machine *m);
    /*
     * The run stopped at a fault (m->fault) that the zkVM may take as a
     * trap into the guest's own handler (SP1's user mode): true when it
     * did, m->pc set to the handler (the faulting instruction then
     * retires, and the run goes on there); false: the fault stands, made
     * clearer maybe (m->fault.why). May be NULL.
     */
    bool (*fault_traps)(struct machine *m);
    /* Prints what --stats shows beyond the counts (digests, regions); may be NULL. */
    void (*report)(const struct machine *m, FILE *out);
    /* Frees m->abi_state; may be NULL. */
    void (*destroy)(struct machine *m);
    /*
     * Loads and stores of 2, 4 or 8 bytes fault unless their address is a
     * multiple of their size, as the zkVM's executor traps them
     * (FAULT_MISALIGNED_LOAD, _STORE); else they work, as under Linux.
     */
    bool aligned_access;
    /*
     * The zkVM's hart has no C extension (RV32IM / RV64IM): an ELF whose
     * e_flags ask for C runs without it, as that executor would run it:
     * its entry must be 4-byte aligned, a compressed instruction is an
     * illegal one, a jump to a 2-byte aligned address misaligned
     * (elf_image_drop_c). Else the ELF's EF_RISCV_RVC decides, as under Linux.
     */
    bool without_c;
    /* A jump to address 0 ends the run with exit status 0 (lambda_vm). */
    bool halts_at_pc_zero;
    /* What `csrr marchid` reads: 0 unless the zkVM defines one. */
    uint64_t marchid;
    /*
     * A major opcode outside the custom-0..3 slots that custom_insn also
     * takes (Nexus's keccakf, 0x5A, whose low bits 10 make it no RV32IM
     * instruction); 0 for none.
     */
    uint8_t extra_custom_major;
    /* The ABI follows its zkVM's releases: it takes m->io.zkvm_release (--zkvm-release). */
    bool takes_release;
    /*
     * How far apart the executable segments may lie (0: CODE_SPAN_MAX, 64
     * MiB; at most CODE_SPAN_LARGE): Airbender's linker script puts the
     * stack in the executable segment. A wider span costs the code cache
     * 4 bytes per byte of span, and the cost clock is not offered above
     * CODE_SPAN_MAX.
     */
    uint64_t code_span_max;
};

extern const struct abi abi_linux;
extern const struct abi abi_sp1;
extern const struct abi abi_risc0;
extern const struct abi abi_lambda;
extern const struct abi abi_nexus;
extern const struct abi abi_openvm;
extern const struct abi abi_zisk;
extern const struct abi abi_jolt;
extern const struct abi abi_pico;
extern const struct abi abi_ceno;
extern const struct abi abi_airbender;

/* The ABI --zkvm names, or NULL. */
const struct abi *abi_by_name(const char *name);

/* The names --zkvm takes, for messages: "linux, sp1, risc0, lambda". */
const char *abi_names(void);

/*
 * The ABI whose toolchain built `img`, from the marks each toolchain
 * leaves (symbols, strings), else from its memory map and code
 * (detect_code.h); abi_linux for a program a Linux toolchain built. Says
 * what decided in `reason` ("symbol sp1_zkvm::syscalls::halt::syscall_halt
 * names sp1_zkvm's guest crate"). NULL when nothing decides: `reason` then
 * names the likely zkVMs and the --zkvm values to try.
 */
const struct abi *abi_detect(const struct elf_image *img, char *reason, size_t reason_size);

#endif
