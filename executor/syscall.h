/*
 * syscall: the guest's Linux-numbered ecalls (SPEC section 1): read from
 * the private input, write to stdout, stderr and the public output, exit
 * and brk. Anything else returns -ENOSYS, or faults under --strict.
 */
#ifndef EXECUTOR_SYSCALL_H
#define EXECUTOR_SYSCALL_H

#include "executor/machine.h"

enum syscall_result {
    SYSCALL_CONTINUE,
    SYSCALL_EXIT,  /* m->exit_status is set */
    SYSCALL_FAULT, /* m->fault is set */
};

/* Handles the ecall at m->pc, with arguments in the guest's registers. */
enum syscall_result syscall_handle(struct machine *m);

#endif
