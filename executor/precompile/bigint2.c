/*
 * bigint2: decodes a "bibc" program and runs it with GMP, collecting its
 * stores as the witness. The format and semantics are in bigint2.h.
 */
#include "executor/precompile/bigint2.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor/precompile/bigint.h"

enum {
    HEADER_BYTES = 24,
    INPUT_BYTES = 16,
    TYPE_BYTES = 32,
    VERSION = 1,
    MAX_VALUE_BYTES = 1 << 20, /* widest load or store this executor takes */
};

enum op_code {
    OP_CONST = 0x2,
    OP_LOAD = 0x3,
    OP_STORE = 0x4,
    OP_ADD = 0x8,
    OP_SUB = 0x9,
    OP_MUL = 0xA,
    OP_REM = 0xB,
    OP_QUO = 0xC,
    OP_INV = 0xE,
};

struct op {
    unsigned code, type;
    uint32_t a, b;
};

/* The program's sections, pointing into its bytes. */
struct program {
    const uint8_t *types, *consts, *ops;
    uint32_t ntypes, nconsts, nops;
};

struct run {
    const struct program *prog;
    const struct bigint2_memory *mem;
    struct bigint2_witness *out;
    struct bigint2_error *err;
    mpz_t *regs;
    size_t index; /* the op being run */
};

static uint64_t le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static bool fail(struct bigint2_error *err, uint32_t addr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof(err->text), fmt, ap);
    va_end(ap);
    err->addr = addr;
    return false;
}

static const char *op_name(unsigned code)
{
    switch (code) {
    case OP_CONST: return "Const";
    case OP_LOAD: return "Load";
    case OP_STORE: return "Store";
    case OP_ADD: return "Add";
    case OP_SUB: return "Sub";
    case OP_MUL: return "Mul";
    case OP_REM: return "Rem";
    case OP_QUO: return "Quo";
    case OP_INV: return "Inv";
    default: return NULL;
    }
}

static struct op op_at(const struct program *p, size_t i)
{
    uint64_t bits = le(p->ops + 8 * i, 8);
    return (struct op){.code = (unsigned)(bits & 0xf),
                       .type = (unsigned)(bits >> 4 & 0xfff),
                       .a = (uint32_t)(bits >> 16 & 0xffffff),
                       .b = (uint32_t)(bits >> 40 & 0xffffff)};
}

/* Splits the bytes into sections; every op code must be known, as the executor decodes all first.
 */
static bool decode(const uint8_t *bytes, size_t len, struct program *p, struct bigint2_error *err)
{
    if (len < HEADER_BYTES || memcmp(bytes, "bibc", 4) != 0 || le(bytes + 4, 4) != VERSION)
        return fail(err, 0, "not a bigint2 program (\"bibc\", version 1)");
    uint64_t ninputs = le(bytes + 8, 4);
    p->ntypes = (uint32_t)le(bytes + 12, 4);
    p->nconsts = (uint32_t)le(bytes + 16, 4);
    p->nops = (uint32_t)le(bytes + 20, 4);
    uint64_t need = HEADER_BYTES + ninputs * INPUT_BYTES + (uint64_t)p->ntypes * TYPE_BYTES +
                    8 * ((uint64_t)p->nconsts + p->nops);
    if (need > len)
        return fail(err, (uint32_t)len, "the bigint2 program is cut short (%llu bytes, needs %llu)",
                    (unsigned long long)len, (unsigned long long)need);
    p->types = bytes + HEADER_BYTES + ninputs * INPUT_BYTES;
    p->consts = p->types + (size_t)p->ntypes * TYPE_BYTES;
    p->ops = p->consts + (size_t)p->nconsts * 8;
    for (size_t i = 0; i < p->nops; i++) {
        struct op op = op_at(p, i);
        if (!op_name(op.code))
            return fail(err, op.code, "bigint2 op %zu has the unknown op code 0x%x", i, op.code);
    }
    return true;
}

/* The width in bytes a Load or Store of op's type moves: its coefficients rounded up to 16. */
static bool width_of(struct run *r, const struct op *op, uint32_t *bytes)
{
    if (op->type >= r->prog->ntypes)
        return fail(r->err, op->type, "bigint2 op %zu (%s) names type %u of %u", r->index,
                    op_name(op->code), op->type, r->prog->ntypes);
    uint64_t coeffs = le(r->prog->types + (size_t)op->type * TYPE_BYTES, 8);
    if (coeffs > MAX_VALUE_BYTES)
        return fail(r->err, op->type, "bigint2 op %zu (%s): a type of %llu bytes is too wide",
                    r->index, op_name(op->code), (unsigned long long)coeffs);
    *bytes = (uint32_t)((coeffs + 15) / 16 * 16);
    return true;
}

/* The address of the Load or Store: its arena register plus 16 bytes per offset. */
static bool address_of(struct run *r, const struct op *op, uint32_t *addr)
{
    uint32_t reg = op->a >> 16, base;
    if (!r->mem->arena(r->mem->ctx, reg, &base))
        return fail(r->err, reg,
                    "bigint2 op %zu (%s): register x%u is not an arena (the kernel passes sp, "
                    "t1-t3, a0-a6)",
                    r->index, op_name(op->code), reg);
    if (base % 4)
        return fail(r->err, base, "bigint2 op %zu (%s): the arena address 0x%x is unaligned",
                    r->index, op_name(op->code), base);
    uint64_t at = (uint64_t)base + 16 * (uint64_t)(op->a & 0xffff);
    if (at >= r->mem->end)
        return fail(r->err, (uint32_t)at, "bigint2 op %zu (%s): address 0x%llx is not below 0x%x",
                    r->index, op_name(op->code), (unsigned long long)at, r->mem->end);
    *addr = (uint32_t)at;
    return true;
}

static bool run_load(struct run *r, const struct op *op, mpz_t dst)
{
    uint32_t bytes, addr;
    if (!width_of(r, op, &bytes) || !address_of(r, op, &addr))
        return false;
    uint32_t *w = malloc(bytes ? bytes : 1);
    if (!w)
        return fail(r->err, addr, "out of memory");
    bool ok = r->mem->load(r->mem->ctx, addr, w, bytes / 4);
    if (ok)
        bigint_import(dst, w, bytes / 4);
    free(w);
    return ok || fail(r->err, addr, "bigint2 op %zu (Load): %u bytes at 0x%x are not in memory",
                      r->index, bytes, addr);
}

/* Adds or replaces the chunk at addr. */
static bool put_chunk(struct bigint2_witness *out, uint32_t addr, const uint32_t *w)
{
    for (size_t i = 0; i < out->n; i++)
        if (out->chunk[i].addr == addr) {
            memcpy(out->chunk[i].w, w, sizeof(out->chunk[i].w));
            return true;
        }
    if (out->n == out->cap) {
        size_t cap = out->cap ? 2 * out->cap : 16;
        struct bigint2_chunk *c = realloc(out->chunk, cap * sizeof(*c));
        if (!c)
            return false;
        out->chunk = c;
        out->cap = cap;
    }
    out->chunk[out->n].addr = addr;
    memcpy(out->chunk[out->n].w, w, sizeof(out->chunk[0].w));
    out->n++;
    return true;
}

static bool run_store(struct run *r, const struct op *op)
{
    uint32_t bytes, addr;
    if (!width_of(r, op, &bytes) || !address_of(r, op, &addr))
        return false;
    if (op->b >= r->prog->nops)
        return fail(r->err, op->b, "bigint2 op %zu (Store) stores op %u of %u", r->index, op->b,
                    r->prog->nops);
    mpz_t v;
    mpz_init(v);
    mpz_abs(v, r->regs[op->b]);
    size_t value_words = mpz_sgn(v) ? (mpz_sizeinbase(v, 2) + 31) / 32 : 0;
    bool ok = value_words * 4 <= bytes;
    uint32_t *w = ok ? calloc(bytes / 4 + 1, 4) : NULL;
    if (w) {
        bigint_export(w, bytes / 4, v);
        for (uint32_t c = 0; ok && c < bytes / 16; c++)
            ok = put_chunk(r->out, addr + 16 * c, w + 4 * c);
    }
    free(w);
    mpz_clear(v);
    if (value_words * 4 > bytes)
        return fail(r->err, addr,
                    "bigint2 op %zu (Store): the value needs %zu bytes, the type has %u", r->index,
                    value_words * 4, bytes);
    return ok || fail(r->err, addr, "out of memory");
}

static bool run_const(struct run *r, const struct op *op, mpz_t dst)
{
    if ((uint64_t)op->a + op->b > r->prog->nconsts)
        return fail(r->err, op->a, "bigint2 op %zu (Const) reads constants %u .. %u of %u",
                    r->index, op->a, op->a + op->b, r->prog->nconsts);
    /* 64-bit limbs, least significant first, each stored little-endian */
    mpz_import(dst, op->b, -1, 8, -1, 0, r->prog->consts + 8 * (size_t)op->a);
    return true;
}

/* Add, Sub, Mul, Rem, Quo, Inv of the values of two earlier ops. */
static bool run_arith(struct run *r, const struct op *op, mpz_t dst)
{
    if (op->a >= r->index || op->b >= r->index)
        return fail(r->err, op->a >= r->index ? op->a : op->b,
                    "bigint2 op %zu (%s) uses ops %u and %u: not both earlier", r->index,
                    op_name(op->code), op->a, op->b);
    mpz_srcptr x = r->regs[op->a], y = r->regs[op->b];
    bool by_zero = mpz_sgn(y) == 0;
    switch (op->code) {
    case OP_ADD: mpz_add(dst, x, y); return true;
    case OP_SUB: mpz_sub(dst, x, y); return true;
    case OP_MUL: mpz_mul(dst, x, y); return true;
    case OP_REM:
        if (!by_zero)
            mpz_tdiv_r(dst, x, y);
        break;
    case OP_QUO:
        if (!by_zero)
            mpz_tdiv_q(dst, x, y);
        break;
    default: { /* OP_INV */
        if (by_zero)
            break;
        mpz_t ax, m;
        mpz_inits(ax, m, NULL);
        mpz_abs(m, y);
        mpz_abs(ax, x);
        mpz_mod(ax, ax, m);
        bool ok = mpz_sgn(ax) != 0 && mpz_invert(dst, ax, m) != 0;
        mpz_clears(ax, m, NULL);
        if (!ok)
            return fail(r->err, op->a, "bigint2 op %zu (Inv): op %u has no inverse modulo op %u",
                        r->index, op->a, op->b);
        return true;
    }
    }
    return !by_zero || fail(r->err, op->b, "bigint2 op %zu (%s): division by zero (op %u)",
                            r->index, op_name(op->code), op->b);
}

static int by_address(const void *a, const void *b)
{
    uint32_t x = ((const struct bigint2_chunk *)a)->addr,
             y = ((const struct bigint2_chunk *)b)->addr;
    return (x > y) - (x < y);
}

bool bigint2_run(const uint8_t *prog, size_t len, const struct bigint2_memory *mem,
                 struct bigint2_witness *out, struct bigint2_error *err)
{
    struct program p;
    if (!decode(prog, len, &p, err))
        return false;
    mpz_t *regs = malloc((p.nops ? p.nops : 1) * sizeof(mpz_t));
    if (!regs)
        return fail(err, 0, "out of memory");
    for (size_t i = 0; i < p.nops; i++)
        mpz_init(regs[i]);
    struct run r = {.prog = &p, .mem = mem, .out = out, .err = err, .regs = regs};
    bool ok = true;
    for (r.index = 0; ok && r.index < p.nops; r.index++) {
        struct op op = op_at(&p, r.index);
        switch (op.code) {
        case OP_CONST: ok = run_const(&r, &op, regs[r.index]); break;
        case OP_LOAD: ok = run_load(&r, &op, regs[r.index]); break;
        case OP_STORE: ok = run_store(&r, &op); break;
        default: ok = run_arith(&r, &op, regs[r.index]); break;
        }
    }
    for (size_t i = 0; i < p.nops; i++)
        mpz_clear(regs[i]);
    free(regs);
    if (ok && out->n)
        qsort(out->chunk, out->n, sizeof(out->chunk[0]), by_address);
    return ok;
}

void bigint2_witness_free(struct bigint2_witness *w)
{
    free(w->chunk);
    *w = (struct bigint2_witness){0};
}
