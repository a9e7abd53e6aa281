/*
 * cost_model: what one run costs a zkVM besides its instructions (issue
 * [10]): a cost per opcode class of the instruction at each pc, per zkVM
 * call ([ecall:NAME] leaf) and per 1 KiB page paged in or out. A weight of
 * the profile is one model applied at write time to the exact per-pc
 * counts, so nothing is paid per instruction. The built-in models are read
 * from each zkVM's source at a stated version (docs/ZKVMS.md, "Weights");
 * a --cost-table file (docs/FORMATS.md, "Cost tables") gives one for a zkVM
 * we do not know.
 */
#ifndef EXECUTOR_COST_MODEL_H
#define EXECUTOR_COST_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Opcode classes, by the zkVM chips they land in (SP1's split, which the others refine). */
enum insn_class {
    INSN_ADD,         /* add, sub, addi, lui (and the W forms) */
    INSN_LOGIC,       /* and, or, xor and their immediates */
    INSN_SHIFT_LEFT,  /* sll, slli */
    INSN_SHIFT_RIGHT, /* srl, sra, srli, srai */
    INSN_SLT,         /* slt, sltu, slti, sltiu */
    INSN_MUL,         /* mul, mulh, mulhu, mulhsu, mulw */
    INSN_DIV,         /* div, divu, rem, remu (and W) */
    INSN_BRANCH,      /* beq ... bgeu */
    INSN_JUMP,        /* jal, jalr */
    INSN_AUIPC,       /* auipc */
    INSN_LOAD,        /* lb ... ld */
    INSN_STORE,       /* sb ... sd */
    INSN_ECALL,       /* an ecall no zkVM call took (its [ecall:NAME] leaf has the call's cost) */
    INSN_OTHER,       /* fence, CSR reads, AMOs, ebreak, what does not decode */
    INSN_CLASS_COUNT
};

/* The prefix of the weights that count one class ("class:load"); `classes` names them all. */
#define CLASS_WEIGHT_PREFIX "class:"

/* The class's name in cost tables ("add", "shift_left", ...). */
const char *insn_class_name(enum insn_class c);

/*
 * The class of the instruction in `word`: a 32-bit one, or a compressed
 * (C) one in its low half when its two low bits are not 11. `xlen` (32 or
 * 64) tells c.jal (RV32) from c.addiw (RV64), which share an encoding.
 */
enum insn_class insn_class_of(uint32_t word, int xlen);

struct call_cost {
    char *name; /* the zkVM's own name for the call, as in [ecall:NAME] */
    uint64_t cost;
};

struct cost_model {
    char *name;                            /* the weight: "gas", "cycles", ... */
    char *unit;                            /* pprof's unit: "count" */
    uint64_t class_cost[INSN_CLASS_COUNT]; /* per instruction retired at a pc of the class */
    uint64_t outside_cost;                 /* per instruction at a pc no function symbol holds */
    struct call_cost *calls;               /* per call, the ecall instruction included */
    size_t ncalls;
    uint64_t call_default;            /* per call not listed */
    uint64_t page_in, page_out;       /* per 1 KiB page; 0 and 0: no paging */
    uint64_t node_in, node_out;       /* per page-table node (RISC Zero's Merkle tree) */
    uint64_t segment_in, segment_out; /* fixed per segment (root, resume, suspend) */
    unsigned segment_po2;             /* segments of 2^po2 cycles; 0: one segment */
    uint64_t segment_reserved;        /* cycles of a segment no instruction may use */
    uint64_t segment_insn_max;        /* a segment splits this far below 2^po2 */
    bool counts_pages;                /* the `pages` weight: 1 KiB pages paged in and out */
    /*
     * An instruction's cost by its 32-bit word, where the classes are too
     * coarse (NULL: class_cost); only for zkVMs without C.
     */
    uint64_t (*insn_cost)(uint32_t word);
};

/* The model's cost of one retired instruction `word` (as insn_class_of takes it). */
static inline uint64_t cost_model_insn(const struct cost_model *m, uint32_t word, int xlen)
{
    return m->insn_cost ? m->insn_cost(word) : m->class_cost[insn_class_of(word, xlen)];
}

/* A call's cost under the model. */
uint64_t cost_model_call(const struct cost_model *m, const char *call);

/* True when the model charges for pages (a page tracker must run). */
static inline bool cost_model_pages(const struct cost_model *m)
{
    return m->page_in || m->page_out;
}

/*
 * The built-in weight `name` for a guest of ABI `abi` ("sp1", "risc0",
 * "lambda", "zisk", "openvm", "linux", ...) and `xlen`: "instructions"
 * for every ABI, "cycles", "gas", "area" and "cells" where
 * docs/ZKVMS.md says; for every ABI "class:NAME" (the instructions of one
 * opcode class; a zkVM call is an ecall, an instruction at a pc of no
 * function is "other") and "pages" (the 1 KiB pages another weight's
 * paging pages in and out, on its [PageIn] and [PageOut] leaves).
 * Returns 0, or -1 with `e` set
 * (ERROR_UNSUPPORTED: the ABI has no such figure; ERROR_NO_MEMORY).
 */
int cost_model_builtin(struct cost_model *m, const char *name, const char *abi, int xlen,
                       struct error *e);

/*
 * Reads a cost table (docs/FORMATS.md, "Cost tables": JSON, with jansson).
 * Returns 0, or -1 with `e` set (ERROR_UNREADABLE, ERROR_CORRUPT naming
 * the field, ERROR_NO_MEMORY).
 */
int cost_model_read(struct cost_model *m, const char *path, struct error *e);

void cost_model_free(struct cost_model *m);

#endif
