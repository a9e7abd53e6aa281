/*
 * lambda: the ABI of lambda_vm guests (RV64IM), as its executor
 * (executor/src/vm) defines it. Docs: docs/ZKVMS.md.
 *
 * Memory is flat and read-write everywhere, the program decoded once from
 * the ELF; at entry every register is zero but sp = 0xFFFF_FFFF_FFFF_FFF0,
 * and the private input lies at 0xFF00_0000: its length as a u32, then
 * its bytes. An ecall's number is in a7, arguments in a0..a2, and no
 * register is written back:
 *   1 Print (a0 = text, a1 = length)      2 Panic (the same)
 *   64 Commit (a0 = 1, a1 = bytes, a2 = length: the public output)
 *   93 Halt (exit code 0)                 2^64-2 Keccak-f[1600] on a0
 * The run also ends, with exit code 0, when a jump lands on address 0.
 */
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/machine.h"
#include "executor/precompile/keccak.h"

enum {
    LAMBDA_PRINT = 1,
    LAMBDA_PANIC = 2,
    LAMBDA_COMMIT = 64,
    LAMBDA_HALT = 93,
    LAMBDA_INPUT_START = 0xFF000000,
    LAMBDA_COMMIT_MAX = 1 << 20, /* MAX_PUBLIC_OUTPUT_TOTAL_SIZE */
};

#define LAMBDA_KECCAK     (UINT64_MAX - 1)
#define LAMBDA_ECSM       (UINT64_MAX - 10)
#define LAMBDA_DMA_MEMCPY (UINT64_MAX - 2)
#define LAMBDA_STACK_TOP  0xFFFFFFFFFFFFFFF0ull

struct lambda_state {
    uint64_t committed; /* bytes committed so far */
    char panic[256];
};

static enum ecall_result lambda_text(struct machine *m, const char *call, bool panic)
{
    struct lambda_state *st = m->abi_state;
    uint64_t p = machine_get_reg(m, REG_A0), len = machine_get_reg(m, REG_A1);
    if (!mem_range_has(&m->mem, p, len, PAGE_R))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, p, "the text is not in memory");
    if (panic) {
        size_t n = len < sizeof(st->panic) - 1 ? len : sizeof(st->panic) - 1;
        memcpy(st->panic, m->mem.base + p, n);
        st->panic[n] = '\0';
        return abi_fault(m, FAULT_GUEST_PANIC, call, 0, st->panic);
    }
    abi_write_fd(m->io.stdout_fd, m->mem.base + p, len);
    abi_write_fd(m->io.stdout_fd, "\n", 1);
    return ECALL_CONTINUE;
}

static enum ecall_result lambda_commit(struct machine *m)
{
    struct lambda_state *st = m->abi_state;
    uint64_t fd = machine_get_reg(m, REG_A0), p = machine_get_reg(m, REG_A1),
             len = machine_get_reg(m, REG_A2);
    if (fd != 1)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Commit", fd, "the fd (a0) must be 1");
    if (len > LAMBDA_COMMIT_MAX - st->committed)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Commit", len,
                         "more than 1 MiB of public output in all");
    if (!mem_range_has(&m->mem, p, len, PAGE_R))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Commit", p, "the bytes are not in memory");
    if (!abi_write_fd(m->io.public_output_fd, m->mem.base + p, len))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Commit", fd, "the host could not write it");
    st->committed += len;
    return ECALL_CONTINUE;
}

static enum ecall_result lambda_keccak(struct machine *m)
{
    uint64_t p = machine_get_reg(m, REG_A0);
    uint64_t lanes[25];
    if (p % 8 || !abi_load(m, p, lanes, sizeof(lanes)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "KeccakPermute", p,
                         "the state is not 8-byte aligned in memory");
    keccak_f1600(lanes);
    abi_store(m, p, lanes, sizeof(lanes));
    return ECALL_CONTINUE;
}

static enum ecall_result lambda_ecall(struct machine *m, const char **call)
{
    uint64_t nr = machine_get_reg(m, REG_A7);
    switch (nr) {
    case LAMBDA_PRINT: *call = "Print"; return lambda_text(m, *call, false);
    case LAMBDA_PANIC: *call = "Panic"; return lambda_text(m, *call, true);
    case LAMBDA_COMMIT: *call = "Commit"; return lambda_commit(m);
    case LAMBDA_HALT:
        *call = "Halt";
        m->exit_status = 0; /* the executor does not read a0 */
        return ECALL_EXIT;
    case LAMBDA_KECCAK: *call = "KeccakPermute"; return lambda_keccak(m);
    case LAMBDA_ECSM: return abi_fault(m, FAULT_UNSUPPORTED_ECALL, "Ecsm", nr, NULL);
    case LAMBDA_DMA_MEMCPY: return abi_fault(m, FAULT_UNSUPPORTED_ECALL, "DmaMemcpy", nr, NULL);
    default:
        m->fault = (struct fault){.kind = FAULT_UNSUPPORTED_ECALL,
                                  .pc = m->pc,
                                  .addr = nr,
                                  .why = "no call has this number in a7"};
        return ECALL_FAULT;
    }
}

static bool lambda_setup(struct machine *m, const struct elf_image *img, bool *unusable, char *why,
                         size_t why_size)
{
    if (!abi_alloc_state(m, sizeof(struct lambda_state), why, why_size))
        return false;
    if (m->xlen != 64) {
        snprintf(why, why_size, "lambda_vm guests are RV64IM (ELFCLASS64), this one is RV32");
        *unusable = true;
        return false;
    }
    snprintf(why, why_size,
             "lambda_vm's stack at 0x%llx lies outside the 4 GiB guest space this executor maps",
             LAMBDA_STACK_TOP);
    *unusable = true;
    return false;
}

const struct abi abi_lambda = {
    .name = "lambda",
    .setup = lambda_setup,
    .ecall = lambda_ecall,
    .destroy = abi_free_state,
};
