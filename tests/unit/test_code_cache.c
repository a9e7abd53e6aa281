/*
 * test_code_cache: which handler table each entry of the code cache runs
 * once the tracer has said which functions keep runs
 * (code_cache_note_runs). A branch or jal may leave the run hooks out
 * only when every slot from it to its target lies in functions that keep
 * none; a function said to keep runs later takes that back. The code is
 * encoded here from the ISA manual's instruction formats, and the tables
 * are markers, not a loop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "executor/code_cache.h"

#define CODE_AT 0x10000u
#define WORDS   32

/* B-type: imm[12|10:5] rs2 rs1 funct3 imm[4:1|11] opcode. */
static uint32_t branch(unsigned funct3, int32_t offset)
{
    uint32_t u = (uint32_t)offset;
    return ((u >> 12 & 1) << 31) | ((u >> 5 & 0x3f) << 25) | (funct3 << 12) |
           ((u >> 1 & 0xf) << 8) | ((u >> 11 & 1) << 7) | 0x63;
}

/* J-type jal x0 (a plain jump): imm[20|10:1|11|19:12] rd opcode. */
static uint32_t jump(int32_t offset)
{
    uint32_t u = (uint32_t)offset;
    return ((u >> 20 & 1) << 31) | ((u >> 1 & 0x3ff) << 21) | ((u >> 11 & 1) << 20) |
           ((u >> 12 & 0xff) << 12) | 0x6f;
}

#define ADDI 0x00108093u /* addi x1, x1, 1 */
#define BEQ  0
#define BNE  1

/*
 * Three functions of 8 words: G1 [0, 8), H [8, 16), G2 [16, 24), then
 * padding. Word w is at CODE_AT + 4w; offsets are in bytes.
 */
static void lay_out(uint32_t *code)
{
    for (int w = 0; w < WORDS; w++)
        code[w] = 0x00000013;        /* nop */
    code[2] = branch(BEQ, 2 * 4);    /* G1: to word 4, inside G1 */
    code[6] = jump(-4 * 4);          /* G1: to word 2 */
    code[10] = branch(BNE, 2 * 4);   /* H: to word 12 */
    code[17] = ADDI;                 /* G2: fused with the branch after it */
    code[18] = branch(BEQ, -12 * 4); /* G2: to word 6 in G1, over H */
    code[19] = ADDI;
    code[20] = branch(BNE, 2 * 4); /* G2: to word 22 */
}

static const char hooked_tag, unhooked_tag, hooked_pair_tag, unhooked_pair_tag;
static const void *hooked_single[2 * INSN_PAGE_MARK], *unhooked_single[2 * INSN_PAGE_MARK];
static const void *hooked_pairs[OP_COUNT * OP_COUNT], *unhooked_pairs[OP_COUNT * OP_COUNT];
static const struct code_dispatch unhooked = {.single = unhooked_single, .pair = unhooked_pairs};
static const struct code_dispatch hooked = {
    .single = hooked_single, .pair = hooked_pairs, .unhooked = &unhooked};

struct fixture {
    uint32_t code[WORDS];
    struct elf_segment seg;
    struct elf_image img;
    struct code_cache cc;
};

static int set_up(void **state)
{
    for (size_t i = 0; i < 2 * INSN_PAGE_MARK; i++) {
        hooked_single[i] = &hooked_tag;
        unhooked_single[i] = &unhooked_tag;
    }
    hooked_pairs[OP_ADDI * OP_COUNT + OP_BEQ] = &hooked_pair_tag;
    unhooked_pairs[OP_ADDI * OP_COUNT + OP_BEQ] = &unhooked_pair_tag;
    static struct fixture f;
    memset(&f, 0, sizeof(f));
    lay_out(f.code);
    f.seg = (struct elf_segment){.vaddr = CODE_AT,
                                 .memsz = sizeof(f.code),
                                 .filesz = sizeof(f.code),
                                 .data = (const uint8_t *)f.code,
                                 .rights = SEG_R | SEG_X};
    f.img = (struct elf_image){.xlen = 32, .entry = CODE_AT, .nsegments = 1, .segments = &f.seg};
    struct error e = ERROR_INIT;
    if (code_cache_init(&f.cc, &f.img, &e) != 0)
        return -1;
    code_cache_bind(&f.cc, &hooked);
    for (int w = 0; w < WORDS; w++) /* as the loop decodes them, so stores may reset them */
        code_cache_fill(&f.cc, CODE_AT + 4 * w, code_cache_decode(&f.cc, f.code[w], 32));
    *state = &f;
    return 0;
}

static int tear_down(void **state)
{
    struct fixture *f = *state;
    code_cache_destroy(&f->cc);
    return 0;
}

static const void *handler_of(const struct fixture *f, int word)
{
    return f->cc.insns[(CODE_AT - f->cc.lo) / 4 + word].handler;
}

/* Whether the note took back "keeps no runs" somewhere (code_cache_note_runs). */
static bool note(struct fixture *f, int from_word, int to_word, bool kept)
{
    return code_cache_note_runs(&f->cc, CODE_AT + 4 * from_word, CODE_AT + 4 * to_word, kept);
}

/* What the translation tier asks of the branch at a word (code_cache_runs_unhooked). */
static bool tier_unhooked(const struct fixture *f, int word)
{
    return code_cache_runs_unhooked(&f->cc, (CODE_AT - f->cc.lo) / 4 + (size_t)word);
}

/* Before the tracer says anything, every entry keeps its hooks. */
static void test_hooked_until_told(void **state)
{
    struct fixture *f = *state;
    for (int w = 0; w < WORDS; w++) {
        assert_true(handler_of(f, w) == &hooked_tag || handler_of(f, w) == &hooked_pair_tag);
        assert_false(tier_unhooked(f, w));
    }
}

/* A branch and a jal inside a function that keeps no runs lose their hooks. */
static void test_inside_a_function_without_runs(void **state)
{
    struct fixture *f = *state;
    assert_false(note(f, 0, 8, false));
    assert_ptr_equal(handler_of(f, 2), &unhooked_tag);
    assert_ptr_equal(handler_of(f, 6), &unhooked_tag);
    assert_ptr_equal(handler_of(f, 10), &hooked_tag); /* H: nothing said */
    assert_true(tier_unhooked(f, 2) && tier_unhooked(f, 6));
    assert_false(tier_unhooked(f, 10));
    assert_false(tier_unhooked(f, 3)); /* a nop: no branch to leave hooks out of */
}

/*
 * A branch over a function that keeps runs keeps its hooks (a frame of
 * that function on top would see its two ends on either side), and so
 * does the pair that ends in it; the next pair, whose branch stays in
 * G2, loses them.
 */
static void test_over_a_function_with_runs(void **state)
{
    struct fixture *f = *state;
    note(f, 0, 8, false);
    note(f, 8, 16, true);
    note(f, 16, 24, false);
    assert_ptr_equal(handler_of(f, 10), &hooked_tag);
    assert_ptr_equal(handler_of(f, 17), &hooked_pair_tag);
    assert_ptr_equal(handler_of(f, 18), &hooked_tag);
    assert_ptr_equal(handler_of(f, 19), &unhooked_tag); /* addi, bne: no pair for them */
    assert_ptr_equal(handler_of(f, 20), &unhooked_tag);
    assert_false(tier_unhooked(f, 10) || tier_unhooked(f, 18));
    assert_true(tier_unhooked(f, 20));
}

/* Between two functions without runs, a branch to a slot nobody spoke of keeps its hooks. */
static void test_over_unknown_code(void **state)
{
    struct fixture *f = *state;
    note(f, 0, 8, false);
    note(f, 16, 24, false);
    assert_ptr_equal(handler_of(f, 18), &hooked_tag);
    assert_ptr_equal(handler_of(f, 20), &unhooked_tag);
}

/* A function said to keep runs over part of one said not to takes its branches' hooks back. */
static void test_overlap_takes_back(void **state)
{
    struct fixture *f = *state;
    assert_false(note(f, 0, 8, false));
    assert_false(note(f, 16, 24, false));
    assert_true(tier_unhooked(f, 2));
    assert_true(note(f, 4, 8, true));                /* taken back: the tier forgets its blocks */
    assert_ptr_equal(handler_of(f, 2), &hooked_tag); /* its target, word 4, keeps runs now */
    assert_ptr_equal(handler_of(f, 6), &hooked_tag);
    assert_ptr_equal(handler_of(f, 20), &unhooked_tag);
    assert_false(tier_unhooked(f, 2) || tier_unhooked(f, 6));
    assert_true(tier_unhooked(f, 20));
    assert_false(note(f, 0, 8, false)); /* a later "none" does not undo "kept" */
    assert_ptr_equal(handler_of(f, 2), &hooked_tag);
    assert_false(note(f, 24, 28, true)); /* "kept" where nothing was said: nothing taken back */
}

/* An entry decoded again after a store into code gets its handler by the same rule. */
static void test_invalidated_entry(void **state)
{
    struct fixture *f = *state;
    note(f, 0, 8, false);
    code_cache_invalidate(&f->cc, CODE_AT + 4 * 2, 4);
    assert_ptr_equal(handler_of(f, 2), &hooked_tag); /* OP_DECODE's handler */
    code_cache_fill(&f->cc, CODE_AT + 4 * 2, code_cache_decode(&f->cc, branch(BEQ, 8), 32));
    assert_ptr_equal(handler_of(f, 2), &unhooked_tag);
}

/* Ranges that miss the code, or are empty, change nothing. */
static void test_ranges_outside(void **state)
{
    struct fixture *f = *state;
    code_cache_note_runs(&f->cc, 0, CODE_AT, false);
    code_cache_note_runs(&f->cc, CODE_AT + 8, CODE_AT + 8, false);
    code_cache_note_runs(&f->cc, UINT64_MAX - 4, UINT64_MAX, false);
    assert_ptr_equal(handler_of(f, 2), &hooked_tag);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_hooked_until_told, set_up, tear_down),
        cmocka_unit_test_setup_teardown(test_inside_a_function_without_runs, set_up, tear_down),
        cmocka_unit_test_setup_teardown(test_over_a_function_with_runs, set_up, tear_down),
        cmocka_unit_test_setup_teardown(test_over_unknown_code, set_up, tear_down),
        cmocka_unit_test_setup_teardown(test_overlap_takes_back, set_up, tear_down),
        cmocka_unit_test_setup_teardown(test_invalidated_entry, set_up, tear_down),
        cmocka_unit_test_setup_teardown(test_ranges_outside, set_up, tear_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
