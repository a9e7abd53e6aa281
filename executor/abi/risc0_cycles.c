/*
 * risc0_cycles: each RISC Zero call's user cycles, from the 2.x kernel's
 * assembly (risc0/zkos/v1compat/src/kernel.s, commit 9a94c406) and the
 * executor's machine ecalls (risc0/circuit/rv32im/src/execute: r0vm.rs
 * 07e22563, sha2.rs 3739c85c, poseidon2.rs 01a8a2ab, bigint.rs 1181bba9;
 * executor.rs 010fb59f counts one user cycle per instruction that ends
 * normally and one per on_ecall_cycle, on_sha2_cycle, on_poseidon2_cycle).
 */
#include "executor/abi/risc0_cycles.h"

/*
 * Every call: the user ecall (1; enter_trap ends normally), the kernel's
 * _ecall_dispatch (li tp = lui + addi, la s1 = auipc + addi, li s2, lw,
 * bgeu, slli, add, jr: 10) and its table's jump (1); and the path's mret (1).
 */
enum { ENTRY = 1 + 10 + 1, MRET = 1 };

/*
 * HOST_ECALL_READ (r0vm.rs ecall_read): the machine ecall and the setup
 * cycle, then one cycle per byte up to a word boundary, per 4 words
 * (MAX_IO_WORDS) and per trailing byte.
 */
uint64_t risc0_cycles_host_read(uint64_t ptr, uint64_t len)
{
    uint64_t head = (4 - ptr % 4) % 4;
    if (head > len)
        head = len;
    uint64_t words = (len - head) / 4, tail = (len - head) % 4;
    return 2 + head + (words + 3) / 4 + tail;
}

uint64_t risc0_cycles_host_syscall(void)
{
    return risc0_cycles_host_read(0, 0);
}

/* Two words into the kernel's aligned stack buffer (main.rs read_a0_a1). */
uint64_t risc0_cycles_host_a0_a1(void)
{
    return risc0_cycles_host_read(0, 8);
}

/* _ecall_software: 4 lw, the call into ecall_software (not counted), mret. */
uint64_t risc0_cycles_software(uint64_t host)
{
    return ENTRY + 4 + host + MRET;
}

/*
 * _ecall_halt: lw, li (lui + addi), 8 lw + sw, lw and 6 ALU ops, li a1,
 * li a7 (28), then HOST_ECALL_TERMINATE's 2 cycles (Terminate, Suspend).
 * The run ends there, TERMINATE or PAUSE.
 */
uint64_t risc0_cycles_halt(void)
{
    return ENTRY + 28 + 2;
}

/* _ecall_input: lw, li, bge, slli, li (lui + addi), add, lw, sw (9), mret. */
uint64_t risc0_cycles_input(void)
{
    return ENTRY + 9 + MRET;
}

/*
 * _ecall_sha: 5 lw, ecall_sha (not counted), mret; sha_circuit makes one
 * machine ecall per 10 blocks (one for none), each 1 + 4 (load state) +
 * 68 a block (16 load data, 48 mix, 4 store) + 1 (Decode).
 */
uint64_t risc0_cycles_sha(uint64_t blocks)
{
    uint64_t ecalls = blocks ? (blocks + RISC0_SHA_CHUNK_BLOCKS - 1) / RISC0_SHA_CHUNK_BLOCKS : 1;
    return ENTRY + 5 + ecalls * (1 + 4 + 1) + 68 * blocks + MRET;
}

/* _ecall_bigint: 5 lw, ecall_bigint_v1compat (its blob's ecall not counted), mret. */
uint64_t risc0_cycles_bigint(void)
{
    return ENTRY + 5 + MRET;
}

/*
 * _ecall_bigint2: mv, lw sp, li, 10 lw, li a7 (14), the machine ecall (1,
 * then bigint.rs ecall_execute's verify program size + 1), mv, mret.
 */
uint64_t risc0_cycles_bigint2(uint64_t verify_words)
{
    return ENTRY + 14 + 1 + verify_words + 1 + 1 + MRET;
}

/*
 * _ecall_poseidon2: 4 lw, li a7 (5), the machine ecall: 1 (entry), 1 to
 * load the state, per block 1 to load it (2 for 16 elements), 4 external
 * rounds, the internal ones, 4 external (ROUNDS_HALF_FULL = 4), 1 to
 * write (or check) the output, 1 to store the state, 1 (Decode); mret.
 */
uint64_t risc0_cycles_poseidon2(bool state, uint64_t blocks, bool is_elem)
{
    uint64_t per_block = (is_elem ? 2 : 1) + 4 + 1 + 4;
    return ENTRY + 5 + 1 + 2 * (uint64_t)state + blocks * per_block + 1 + 1 + MRET;
}
