/*
 * zisk_dma: ZisK's DMA calls (memcpy, memcmp, inputcpy, memset), each a
 * CSR instruction and the marker add/addi after it. Internal to the ZisK
 * ABI (zisk.c).
 */
#ifndef EXECUTOR_ABI_ZISK_DMA_H
#define EXECUTOR_ABI_ZISK_DMA_H

#include <stdbool.h>
#include <stdint.h>

#include "executor/abi/abi.h"
#include "executor/abi/zisk_fcall.h"
#include "executor/machine.h"

enum zisk_dma_call {
    ZISK_DMA_MEMCPY,   /* 0x813 in both numberings (memmove too) */
    ZISK_DMA_MEMCMP,   /* 0x814 in both */
    ZISK_DMA_INPUTCPY, /* 0x815 in the later numbering */
    ZISK_DMA_MEMSET,   /* 0x816 in the later numbering */
};

/*
 * Runs the DMA call whose CSR instruction `w` is at m->pc, its marker at
 * m->pc + 4, as ziskos of the later numbering (`later`: the source in
 * the CSR instruction's rs1, the count in the marker) or the earlier one
 * (the count in rs1, the source in the marker) emits them; inputcpy
 * copies from `fc`'s result words. *call names its frame.
 */
enum ecall_result zisk_dma(struct machine *m, enum zisk_dma_call dma, bool later, uint32_t w,
                           struct zisk_fcalls *fc, const char **call);

#endif
