/*
 * interp.c: a small stack-machine bytecode interpreter. The dispatch is a
 * dense `switch`, which gcc compiles into a jump table (an indirect `jr`
 * through a table in .rodata): the JUMP-inside-a-function case of the
 * flamegraph rules. The bytecode counts and sums the primes below N
 * (N from the private input, default 200) by trial division; the result
 * is checked against the same computation in C.
 */
#include <inttypes.h>
#include <stdio.h>

#include "guest.h"

/* clang-format off */
enum op {
    OP_HALT, OP_PUSH, OP_LOAD, OP_STORE, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_LT,
    OP_EQ, OP_JMP, OP_JZ, OP_JNZ, OP_DUP, OP_DROP, OP_SWAP, OP_INC, OP_OUT,
};
/* clang-format on */

#define CODE_MAX  256
#define STACK_MAX 64
#define NREGS     8

/* ---- a tiny assembler with forward labels ---- */
static int32_t code[CODE_MAX];
static int ncode;
static int label_at[16];
static struct {
    int at, label;
} fixups[32];
static int nfixups;

static void emit(enum op op)
{
    code[ncode++] = op;
}
static void emit1(enum op op, int32_t imm)
{
    code[ncode++] = op;
    code[ncode++] = imm;
}
static void label(int l)
{
    label_at[l] = ncode;
}
static void jump(enum op op, int l)
{
    code[ncode++] = op;
    fixups[nfixups].at = ncode;
    fixups[nfixups++].label = l;
    code[ncode++] = -1;
}
static void resolve_labels(void)
{
    for (int i = 0; i < nfixups; i++)
        code[fixups[i].at] = label_at[fixups[i].label];
}

/* registers: 0 candidate n, 1 divisor d, 2 count, 3 sum, 4 limit N */
/* clang-format off: one line per bytecode statement */
static void assemble_primes(void)
{
    enum { L_LOOP_N, L_LOOP_D, L_PRIME, L_NEXT, L_DONE };
    emit1(OP_PUSH, 2);
    emit1(OP_STORE, 0);
    label(L_LOOP_N);
    emit1(OP_LOAD, 0);
    emit1(OP_LOAD, 4);
    emit(OP_LT);
    jump(OP_JZ, L_DONE);
    emit1(OP_PUSH, 2);
    emit1(OP_STORE, 1);
    label(L_LOOP_D);
    /* if n < d*d: prime */
    emit1(OP_LOAD, 0);
    emit1(OP_LOAD, 1);
    emit(OP_DUP);
    emit(OP_MUL);
    emit(OP_LT);
    jump(OP_JNZ, L_PRIME);
    /* if n % d == 0: not prime */
    emit1(OP_LOAD, 0);
    emit1(OP_LOAD, 1);
    emit(OP_MOD);
    emit1(OP_PUSH, 0);
    emit(OP_EQ);
    jump(OP_JNZ, L_NEXT);
    emit1(OP_INC, 1);
    jump(OP_JMP, L_LOOP_D);
    label(L_PRIME);
    emit1(OP_INC, 2);
    emit1(OP_LOAD, 3);
    emit1(OP_LOAD, 0);
    emit(OP_ADD);
    emit1(OP_STORE, 3);
    label(L_NEXT);
    emit1(OP_INC, 0);
    jump(OP_JMP, L_LOOP_N);
    label(L_DONE);
    emit1(OP_LOAD, 2);
    emit(OP_OUT);
    emit1(OP_LOAD, 3);
    emit(OP_OUT);
    emit1(OP_PUSH, 7);
    emit1(OP_PUSH, 3);
    emit(OP_SWAP);
    emit(OP_SUB);
    emit(OP_DROP);
    emit1(OP_PUSH, 84);
    emit1(OP_PUSH, 2);
    emit(OP_DIV);
    emit(OP_OUT);
    emit(OP_HALT);
    resolve_labels();
}
/* clang-format on */

/* Runs the program; returns the number of values output, or -1 on a fault. */
__attribute__((noinline)) static int run(const int32_t *prog, uint32_t *regs, uint32_t *out,
                                         int out_max)
{
    uint32_t stack[STACK_MAX];
    int sp = 0, pc = 0, nout = 0;
    uint32_t a, b;
    for (;;) {
        int32_t op = prog[pc++];
        switch (op) {
        case OP_HALT: return nout;
        case OP_PUSH: stack[sp++] = (uint32_t)prog[pc++]; break;
        case OP_LOAD: stack[sp++] = regs[prog[pc++] & (NREGS - 1)]; break;
        case OP_STORE: regs[prog[pc++] & (NREGS - 1)] = stack[--sp]; break;
        case OP_ADD:
            b = stack[--sp];
            a = stack[--sp];
            stack[sp++] = a + b;
            break;
        case OP_SUB:
            b = stack[--sp];
            a = stack[--sp];
            stack[sp++] = a - b;
            break;
        case OP_MUL:
            b = stack[--sp];
            a = stack[--sp];
            stack[sp++] = a * b;
            break;
        case OP_DIV:
            b = stack[--sp];
            a = stack[--sp];
            if (b == 0)
                return -1;
            stack[sp++] = a / b;
            break;
        case OP_MOD:
            b = stack[--sp];
            a = stack[--sp];
            if (b == 0)
                return -1;
            stack[sp++] = a % b;
            break;
        case OP_LT:
            b = stack[--sp];
            a = stack[--sp];
            stack[sp++] = a < b;
            break;
        case OP_EQ:
            b = stack[--sp];
            a = stack[--sp];
            stack[sp++] = a == b;
            break;
        case OP_JMP: pc = prog[pc]; break;
        case OP_JZ: pc = stack[--sp] == 0 ? prog[pc] : pc + 1; break;
        case OP_JNZ: pc = stack[--sp] != 0 ? prog[pc] : pc + 1; break;
        case OP_DUP:
            a = stack[sp - 1];
            stack[sp++] = a;
            break;
        case OP_DROP: --sp; break;
        case OP_SWAP:
            a = stack[sp - 1];
            stack[sp - 1] = stack[sp - 2];
            stack[sp - 2] = a;
            break;
        case OP_INC: regs[prog[pc++] & (NREGS - 1)]++; break;
        case OP_OUT:
            if (nout == out_max)
                return -1;
            out[nout++] = stack[--sp];
            break;
        default: return -1;
        }
        if (sp < 0 || sp > STACK_MAX - 2 || pc < 0 || pc >= CODE_MAX)
            return -1;
    }
}

int main(void)
{
    uint64_t n64 = guest_input_u64(200);
    if (n64 > 10000000)
        n64 = 10000000;
    uint32_t limit = (uint32_t)n64;

    assemble_primes();
    uint32_t regs[NREGS] = {0};
    regs[4] = limit;
    uint32_t out[4];
    int nout = run(code, regs, out, 4);
    if (nout != 3) {
        printf("interpreter fault\n");
        return 1;
    }

    /* the same in C */
    uint32_t count = 0, sum = 0;
    for (uint32_t n = 2; n < limit; n++) {
        uint32_t d = 2;
        while (d * d <= n && n % d != 0)
            d++;
        if (d * d > n) {
            count++;
            sum += n;
        }
    }
    if (out[0] != count || out[1] != sum || out[2] != 42) {
        printf("self-check failed\n");
        return 1;
    }
    printf("%d bytecode words; primes below %" PRIu32 ": %" PRIu32 ", sum %" PRIu32 "\n", ncode,
           limit, out[0], out[1]);
    return 0;
}
