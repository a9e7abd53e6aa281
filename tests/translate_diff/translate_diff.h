/*
 * translate_diff: random instruction streams run under both engines, for
 * unit.translate and fuzz_translate (translate_diff.c).
 */
#ifndef TESTS_TRANSLATE_DIFF_H
#define TESTS_TRANSLATE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "executor/machine.h"

#define TDIFF_CODE_AT   0x10000u /* where a stream lies */
#define TDIFF_DATA_AT   0x20000u /* the data page */
#define TDIFF_DATA_SIZE 0x1000u
#define TDIFF_EBREAK    0x00100073u

/* The random source: seed it, and optionally feed it bytes it draws first (8 a draw). */
void tdiff_seed(uint64_t seed);
void tdiff_feed(const uint8_t *bytes, size_t n);
uint64_t tdiff_rnd(void);
unsigned tdiff_below(unsigned n);

/* The instruction formats (the ISA manual's). */
uint32_t tdiff_r_type(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd,
                      unsigned op);
uint32_t tdiff_i_type(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op);
uint32_t tdiff_s_type(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3);
uint32_t tdiff_b_type(int32_t offset, unsigned rs2, unsigned rs1, unsigned f3);
uint32_t tdiff_j_type(int32_t offset, unsigned rd);

/* A random stream of n words, the last an ebreak. */
void tdiff_make_program(uint32_t *code, size_t n, int xlen);

/*
 * A random stream for a hart with C in at most `halves` halfwords (at
 * least 4), compressed and 4-byte instructions mixed, the last an ebreak:
 * the halfwords used.
 */
size_t tdiff_make_program_c(uint16_t *code, size_t halves, int xlen);

/* Room for a stream of TDIFF_WORDS words, or twice as many halfwords. */
#define TDIFF_WORDS 160
union tdiff_code {
    uint32_t words[TDIFF_WORDS];
    uint16_t halves[2 * TDIFF_WORDS];
};

/* A random stream in `code`, with compressed instructions mixed in when `rvc`: its bytes. */
size_t tdiff_make_code(union tdiff_code *code, int xlen, bool rvc);

/* Two machines, [0] on the interpreter and [1] translating, with the same random registers. */
struct tdiff_pair {
    struct machine m[2];
};

/*
 * The pair for `code` (`bytes` at TDIFF_CODE_AT; `rvc`: a hart with C) and
 * `data`: 0, or -1 when it cannot be built.
 */
int tdiff_build(struct tdiff_pair *p, const void *code, size_t bytes, const uint8_t *data, int xlen,
                bool rvc);
void tdiff_destroy(struct tdiff_pair *p);

/*
 * Runs both machines in the same steps (the budgets) until they stop for
 * good: NULL when every register, the data page, the pc, the instructions
 * retired, how the run stopped and any fault are the same after each step,
 * else what differed. *blocks: the blocks the tier made.
 */
const char *tdiff_run_both(struct tdiff_pair *p, const uint64_t *budgets, size_t nbudgets,
                           uint64_t *blocks);

#endif
