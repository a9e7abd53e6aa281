/*
 * fault_text: the words for a stopped run: a fault described field by
 * field, as the user reads it, and a pc's function.
 */
#include "run/fault_text.h"

#include <stdio.h>
#include <stdlib.h>

#include "run/run.h"
#include "symtab/demangle.h"

const char *run_function_at(const struct run *r, uint64_t pc, char *buf, size_t size)
{
    const struct symtab_func *f = symtab_lookup(&r->syms, pc);
    if (!f)
        return "";
    char *readable = demangle_symbol(f->name);
    snprintf(buf, size, " in %s", readable ? readable : f->name);
    free(readable);
    return buf;
}

void run_missing_c_reason(const char *abi, int xlen, char *reason, size_t size)
{
    snprintf(reason, size,
             ": %s's executor runs RV%dIM, without compressed instructions: build the guest "
             "without C (-march=rv%dim)",
             abi, xlen, xlen);
}

/*
 * "unsupported CSR access: csrrw of mstatus (CSR 0x300; only reads of
 * cycle, time, instret and marchid are supported)".
 */
static void describe_csr_fault(const struct fault *f, char *what, size_t size)
{
    static const char *const ops[8] = {"?", "csrrw",  "csrrs",  "csrrc",
                                       "?", "csrrwi", "csrrsi", "csrrci"};
    const char *name = insn_csr_name((unsigned)f->addr);
    snprintf(what, size,
             "%s: %s of %s (CSR 0x%03llx; only reads of cycle, time, instret and marchid are "
             "supported)",
             fault_kind_text(f->kind), ops[(f->word >> 12) & 7], name ? name : "an unknown CSR",
             (unsigned long long)f->addr);
}

void run_fault_text(const struct run *r, char *buf, size_t size)
{
    const struct machine *m = &r->m;
    const struct fault *f = &m->fault;
    char where[512], from[512], what[512], reason[512] = "";
    const char *text = fault_kind_text(f->kind);
    switch (f->kind) {
    case FAULT_LOAD_UNMAPPED:
    case FAULT_STORE_UNMAPPED:
    case FAULT_STORE_READONLY:
    case FAULT_MISALIGNED_ACCESS:
        snprintf(what, sizeof(what), "%s (address 0x%llx)", text, (unsigned long long)f->addr);
        if (f->why) /* the ABI's reading of it (Jolt's), after the place */
            snprintf(reason, sizeof(reason), ": %s", f->why);
        break;
    case FAULT_MISALIGNED_LOAD:
    case FAULT_MISALIGNED_STORE:
        snprintf(what, sizeof(what), "%s (address 0x%llx)", text, (unsigned long long)f->addr);
        snprintf(reason, sizeof(reason),
                 ": %s's executor traps loads and stores whose address is not a multiple of "
                 "their size",
                 m->abi->name);
        break;
    case FAULT_FETCH_UNMAPPED:
    case FAULT_FETCH_NOT_EXECUTABLE:
        snprintf(what, sizeof(what), "%s", text);
        if (f->why) /* the ABI's reading of it (SP1's user mode) */
            snprintf(reason, sizeof(reason), ": %s", f->why);
        break;
    case FAULT_MISALIGNED_TARGET:
        snprintf(what, sizeof(what), "%s 0x%llx", text, (unsigned long long)f->addr);
        if (m->abi->without_c && (f->addr & 3) == 2) /* a target only a hart with C could run */
            run_missing_c_reason(m->abi->name, (int)m->xlen, reason, sizeof(reason));
        break;
    case FAULT_ILLEGAL_INSTRUCTION:
        snprintf(what, sizeof(what), "%s 0x%08x", text, f->word);
        if (m->abi->without_c && (f->word & 3) != 3) /* a compressed instruction's halfword */
            run_missing_c_reason(m->abi->name, (int)m->xlen, reason, sizeof(reason));
        break;
    case FAULT_UNSUPPORTED_CSR: describe_csr_fault(f, what, sizeof(what)); break;
    case FAULT_UNSUPPORTED_SYSCALL:
        snprintf(what, sizeof(what), "unsupported system call %llu (--strict)",
                 (unsigned long long)f->addr);
        break;
    case FAULT_UNSUPPORTED_ECALL:
        if (f->call)
            snprintf(what, sizeof(what), "%s call %s is not supported%s%s", m->abi->name, f->call,
                     f->why ? ": " : " yet", f->why ? f->why : "");
        else
            snprintf(what, sizeof(what), "%s call 0x%llx: %s", m->abi->name,
                     (unsigned long long)f->addr, f->why ? f->why : "unknown");
        break;
    case FAULT_ECALL_ARGUMENT:
        snprintf(what, sizeof(what), "%s call %s (argument 0x%llx): %s", m->abi->name, f->call,
                 (unsigned long long)f->addr, f->why);
        break;
    case FAULT_GUEST_PANIC:
        snprintf(what, sizeof(what), "guest panicked (%s): %s", f->call, f->why);
        break;
    default: snprintf(what, sizeof(what), "%s", text); break;
    }
    from[0] = '\0';
    if ((f->kind == FAULT_FETCH_UNMAPPED || f->kind == FAULT_FETCH_NOT_EXECUTABLE) && f->from) {
        char fn[400];
        snprintf(from, sizeof(from), " (jumped to from 0x%llx%s)", (unsigned long long)f->from,
                 run_function_at(r, f->from, fn, sizeof(fn)));
    }
    snprintf(buf, size, "guest fault: %s at pc 0x%llx%s%s, after %llu instructions%s", what,
             (unsigned long long)f->pc, run_function_at(r, f->pc, where, sizeof(where)), from,
             (unsigned long long)m->retired, reason);
}
