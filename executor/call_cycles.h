/*
 * call_cycles: what zkVM calls cost beyond their ecall instruction (RISC
 * Zero's kernel and accelerators: executor/abi/risc0_cycles.h), kept per
 * profile node of the calling frame and call name, so that the `cycles`
 * weight can add them to the [ecall:NAME] frames when the profile is
 * written. An open-addressing table hashed by node: a node's entries all
 * lie on the probe run from its slot, so they are found without a scan.
 */
#ifndef EXECUTOR_CALL_CYCLES_H
#define EXECUTOR_CALL_CYCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct call_cycles_entry {
    const char *call; /* the call's frame name (a static string); NULL: a free slot */
    uint32_t node;    /* the profile node of the frame that made the call */
    uint64_t cycles;
};

struct call_cycles {
    struct call_cycles_entry *slot; /* cap slots, cap a power of two (0: none yet) */
    size_t count, cap;
    uint64_t total; /* every entry's cycles */
};

/* Adds `cycles` to call `call` of node `node`. False when memory runs out. */
bool call_cycles_add(struct call_cycles *c, uint32_t node, const char *call, uint64_t cycles);

/*
 * Gives `fn` each call node `node` made, with its cycles; stops at the
 * first non-zero return and returns it (0 when all went through).
 */
int call_cycles_each(const struct call_cycles *c, uint32_t node,
                     int (*fn)(void *ctx, const char *call, uint64_t cycles), void *ctx);

void call_cycles_free(struct call_cycles *c);

#endif
