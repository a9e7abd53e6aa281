/*
 * zisk_fcall: ZisK's free-input calls (fcalls): values the host computes
 * and the guest reads back, unproven (the guest checks them). Internal to
 * the ZisK ABI (zisk.c).
 */
#ifndef EXECUTOR_ABI_ZISK_FCALL_H
#define EXECUTOR_ABI_ZISK_FCALL_H

#include <stddef.h>
#include <stdint.h>

#include "executor/abi/abi.h"
#include "executor/machine.h"

enum {
    ZISK_FCALL_CSR = 0x8C0,       /* csrwi 0x8C0 + (id >> 5), id & 31: call function id */
    ZISK_FCALL_PARAM_CSR = 0x8F0, /* csrs 0x8F0 + port, rs1: push parameters */
    ZISK_FCALL_GET_CSR = 0xFFE,   /* csrr rd, 0xFFE: the next result word */
    ZISK_FCALL_PARAMS_MAX = 512,
    ZISK_FCALL_RESULTS_MAX = 8193, /* FCALL_RESULT_MAX_SIZE (core/src/fcall.rs, v0.16.0-v0.18.0) */
};

#define ZISK_FCALL_INPUT_ADDR 0x40000000ull /* INPUT_ADDR: input_ready's bound */

struct zisk_fcalls {
    uint64_t params[ZISK_FCALL_PARAMS_MAX]; /* pushed since the last call */
    size_t nparams, nvalues;                /* nvalues: of them, those pushed one by one (port 0) */
    uint64_t results[ZISK_FCALL_RESULTS_MAX]; /* the last call's */
    size_t nresults, next_result;
    uint64_t input_len; /* bytes of input after its first 8 (input_ready's bound) */
    char why[256];      /* a fault's message */
};

/* True when the CSR is one of the fcall interface's. */
bool zisk_fcall_csr(unsigned csr);

/* Runs the CSR instruction `w` on an fcall CSR; *call names its frame. */
enum ecall_result zisk_fcall_insn(struct machine *m, struct zisk_fcalls *fc, uint32_t w,
                                  const char **call);

#endif
