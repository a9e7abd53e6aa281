/*
 * jolt: what the CLI tells the Jolt ABI beyond struct machine_io: the I/O
 * sizes the guest was built with (--jolt-memory), when the ELF does not say.
 */
#ifndef EXECUTOR_ABI_JOLT_H
#define EXECUTOR_ABI_JOLT_H

#include "executor/abi/jolt_layout.h"

/*
 * The sizes the next Jolt machines lay out their I/O region by, over what
 * the ELF's symbols say or Jolt's defaults; NULL: back to those.
 */
void abi_jolt_use_memory(const struct jolt_memory *sizes);

#endif
