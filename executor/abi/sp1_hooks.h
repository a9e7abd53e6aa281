/*
 * sp1_hooks: what SP1's executor computes on the host when a guest writes
 * to one of its hook file descriptors (crates/core/executor/src/hook.rs):
 * the answers the guest then reads from stdin. Internal to abi/sp1.c.
 */
#ifndef EXECUTOR_ABI_SP1_HOOKS_H
#define EXECUTOR_ABI_SP1_HOOKS_H

#include <stddef.h>
#include <stdint.h>

/* SP1's hook fds (sp1_primitives::consts::fd: LOWEST_ALLOWED_FD 10 + 5 to 11). */
enum sp1_hook_fd {
    SP1_FD_ECRECOVER_HOOK = 15,
    SP1_FD_EDDECOMPRESS = 16,
    SP1_FD_RSA_MUL_MOD = 17,
    SP1_FD_BLS12_381_SQRT = 18,
    SP1_FD_BLS12_381_INVERSE = 19,
    SP1_FD_FP_SQRT = 20,
    SP1_FD_FP_INV = 21,
};

/* The largest field the FP hooks take, in bytes (SP1 takes any; 4096-bit here). */
#define SP1_HOOK_MAX_BYTES 512

/* A hook's answer: up to three stdin items, the first to be read first. */
struct sp1_hook_answer {
    size_t count;
    size_t size[3];
    uint8_t item[3][SP1_HOOK_MAX_BYTES];
};

/* The name of hook `fd` ("FD_ECRECOVER_HOOK"), or NULL when fd is not a hook. */
const char *sp1_hook_name(uint64_t fd);

/*
 * Runs hook `fd` on the bytes the guest wrote. NULL on success, else why
 * SP1's hook would refuse (it panics) them, a static string.
 */
const char *sp1_hook_run(uint64_t fd, const uint8_t *buf, size_t len, struct sp1_hook_answer *out);

#endif
