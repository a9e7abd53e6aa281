/*
 * risc0_cycles: what one RISC Zero call costs in its 2.x/3.x executor's
 * user cycles, the user ecall included: the 2.x kernel's instructions
 * that dispatch it (zkos/v1compat/src/kernel.s), the machine ecalls it
 * makes and the cycles each of those counts (circuit/rv32im/src/execute:
 * r0vm.rs, sha2.rs, poseidon2.rs, bigint.rs). Every figure and its source
 * is in docs/ZKVMS.md, "Weights". Not counted: the instructions of the
 * kernel's Rust functions (SOFTWARE, SHA and BIGINT run through them; only
 * their assembly entry and the machine ecalls they make are known from the
 * source).
 */
#ifndef EXECUTOR_ABI_RISC0_CYCLES_H
#define EXECUTOR_ABI_RISC0_CYCLES_H

#include <stdbool.h>
#include <stdint.h>

enum {
    RISC0_IO_CHUNK_BYTES = 1024, /* the kernel's MAX_IO_BYTES: a host read at most */
    RISC0_SHA_CHUNK_BLOCKS = 10, /* MAX_SHA_COUNT: blocks per SHA machine ecall */
};

/* One HOST_ECALL_READ machine ecall that stores `len` bytes at `ptr`. */
uint64_t risc0_cycles_host_read(uint64_t ptr, uint64_t len);

/* A host call without data back (the kernel's host_syscall: a read of 0 bytes). */
uint64_t risc0_cycles_host_syscall(void);

/* The kernel's read_a0_a1: a host read of the call's two result words. */
uint64_t risc0_cycles_host_a0_a1(void);

/* SOFTWARE: the kernel's entry and return around machine ecalls of `host` cycles. */
uint64_t risc0_cycles_software(uint64_t host);

uint64_t risc0_cycles_halt(void);
uint64_t risc0_cycles_input(void);

/* SHA of `blocks` 64-byte blocks (the kernel's sha_circuit: 10 a machine ecall). */
uint64_t risc0_cycles_sha(uint64_t blocks);

/* BIGINT (a 256-bit modular multiply): the kernel's entry and return only. */
uint64_t risc0_cycles_bigint(void);

/* BIGINT2 with a verify program of `verify_words` words. */
uint64_t risc0_cycles_bigint2(uint64_t verify_words);

/* POSEIDON2 of `blocks` blocks, with a state or not, elements or half words. */
uint64_t risc0_cycles_poseidon2(bool state, uint64_t blocks, bool is_elem);

#endif
