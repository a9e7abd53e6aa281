/*
 * test_cfi_rules: the CFI rules perf/dwarf/unwind_dwarf.c keeps per pc
 * (perf/dwarf/cfi_rules.h), in C (cmocka): libdw's answers classified (the forms
 * dwarf_frame_register and dwarf_frame_cfa give, per elfutils' own
 * definitions), a caller computed from hand-made rules and a hand-made
 * stack, libunwind's "a register the CFI does not give is kept", every
 * failure (a cut stack copy, an unknown CFA register, a return address of
 * 0, rules it cannot express) a give-up, never a guess; then the rows of
 * this executable's own .eh_frame, as libdw reads them, and of copies with
 * bytes of it overwritten, stepped over random registers and memory:
 * never a crash (ASan in the sanitizer build).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include "perf/dwarf/cfi_rules.h"

enum { RAX, RDX, RCX, RBX, RSI, RDI, RBP, RSP };

/* A stack copy of `words` 8-byte words from `base`. */
struct memory {
    uint64_t base;
    const uint64_t *words;
    size_t count;
    size_t reads;
};

static bool memory_read(void *arg, uint64_t addr, uint64_t *word)
{
    struct memory *m = arg;
    m->reads++;
    if (addr < m->base || (addr - m->base) % 8 || (addr - m->base) / 8 >= m->count)
        return false;
    *word = m->words[(addr - m->base) / 8];
    return true;
}

static void cfa_forms(void **state)
{
    (void)state;
    uint8_t reg;
    int64_t off;
    Dwarf_Op bregx = {.atom = DW_OP_bregx, .number = RSP, .number2 = 8};
    assert_true(cfi_rules_cfa(&bregx, 1, &reg, &off));
    assert_int_equal(reg, RSP);
    assert_int_equal(off, 8);
    Dwarf_Op breg6 = {.atom = DW_OP_breg6, .number = (Dwarf_Word)-16};
    assert_true(cfi_rules_cfa(&breg6, 1, &reg, &off));
    assert_int_equal(reg, RBP);
    assert_int_equal(off, -16);
    Dwarf_Op rip = {.atom = DW_OP_bregx, .number = CFI_RA_REG, .number2 = 8};
    assert_false(cfi_rules_cfa(&rip, 1, &reg, &off)); /* rip is no CFA register here */
    Dwarf_Op two[2] = {bregx, {.atom = DW_OP_deref}};
    assert_false(cfi_rules_cfa(two, 2, &reg, &off)); /* an expression */
    Dwarf_Op addr = {.atom = DW_OP_addr, .number = 0x1000};
    assert_false(cfi_rules_cfa(&addr, 1, &reg, &off));
    assert_false(cfi_rules_cfa(NULL, 0, &reg, &off));
    assert_false(cfi_rules_cfa(&bregx, 0, &reg, &off));
}

static void register_forms(void **state)
{
    (void)state;
    Dwarf_Op mem[3] = {{.atom = 0}};
    uint8_t kind;
    int64_t off;
    /* undefined: kept (libunwind), the end for the return address */
    assert_true(cfi_rules_register(mem, mem, 0, false, &kind, &off));
    assert_int_equal(kind, CFI_KEEP);
    assert_true(cfi_rules_register(mem, mem, 0, true, &kind, &off));
    assert_int_equal(kind, CFI_UNDEFINED);
    /* same value: kept; a return address that is its own callee's: not expressed */
    assert_true(cfi_rules_register(mem, NULL, 0, false, &kind, &off));
    assert_int_equal(kind, CFI_KEEP);
    assert_false(cfi_rules_register(mem, NULL, 0, true, &kind, &off));
    /* offset(N) and val_offset(N) as libdw spells them */
    Dwarf_Op at[2] = {{.atom = DW_OP_call_frame_cfa},
                      {.atom = DW_OP_plus_uconst, .number = (Dwarf_Word)-8}};
    assert_true(cfi_rules_register(mem, at, 2, true, &kind, &off));
    assert_int_equal(kind, CFI_AT_CFA);
    assert_int_equal(off, -8);
    assert_true(cfi_rules_register(mem, at, 1, false, &kind, &off));
    assert_int_equal(kind, CFI_AT_CFA);
    assert_int_equal(off, 0);
    Dwarf_Op val[3] = {{.atom = DW_OP_call_frame_cfa},
                       {.atom = DW_OP_plus_uconst, .number = 16},
                       {.atom = DW_OP_stack_value}};
    assert_true(cfi_rules_register(mem, val, 3, false, &kind, &off));
    assert_int_equal(kind, CFI_VAL_CFA);
    assert_int_equal(off, 16);
    Dwarf_Op val0[2] = {{.atom = DW_OP_call_frame_cfa}, {.atom = DW_OP_stack_value}};
    assert_true(cfi_rules_register(mem, val0, 2, false, &kind, &off));
    assert_int_equal(kind, CFI_VAL_CFA);
    assert_int_equal(off, 0);
    /* register(R), expressions, trailing operations: not expressed */
    Dwarf_Op regx = {.atom = DW_OP_regx, .number = RBX};
    assert_false(cfi_rules_register(mem, &regx, 1, false, &kind, &off));
    Dwarf_Op deref[3] = {{.atom = DW_OP_call_frame_cfa},
                         {.atom = DW_OP_plus_uconst, .number = 8},
                         {.atom = DW_OP_deref}};
    assert_false(cfi_rules_register(mem, deref, 3, false, &kind, &off));
    Dwarf_Op four[4] = {{.atom = DW_OP_call_frame_cfa}};
    assert_false(cfi_rules_register(mem, four, 4, false, &kind, &off));
    assert_false(cfi_rules_register(mem, NULL, 2, false, &kind, &off));
    Dwarf_Op other = {.atom = DW_OP_lit0};
    assert_false(cfi_rules_register(mem, &other, 0, false, &kind, &off)); /* neither form */
}

/* A function's body after `push rbp; mov rbp, rsp`: CFA rbp + 16, rbp at CFA - 16. */
static struct cfi_rules framed_rules(void)
{
    struct cfi_rules r = {.usable = true, .cfa_reg = RBP, .cfa_offset = 16};
    r.kind[RBP] = CFI_AT_CFA, r.offset[RBP] = -16;
    r.kind[RSP] = CFI_VAL_CFA, r.offset[RSP] = 0;
    r.kind[CFI_RA_REG] = CFI_AT_CFA, r.offset[CFI_RA_REG] = -8;
    cfi_rules_index(&r);
    return r;
}

static void caller_computed(void **state)
{
    (void)state;
    struct cfi_rules rules = framed_rules();
    const uint64_t stack[] = {0x7000, 0x401234}; /* at rbp: the saved rbp, the return address */
    struct memory m = {.base = 0x7fff0000, .words = stack, .count = 2};
    struct cfi_regs callee = {.known = 1u << RBP | 1u << RSP | 1u << RBX | 1u << CFI_RA_REG};
    callee.value[RBP] = 0x7fff0000;
    callee.value[RSP] = 0x7ffeff00;
    callee.value[RBX] = 0x1111;
    callee.value[CFI_RA_REG] = 0x400100;
    struct cfi_regs caller;
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_CALLER);
    assert_int_equal(rules.nactive, 3); /* rbp, rsp, rip */
    assert_int_equal(caller.value[RBP], 0x7000);
    assert_int_equal(caller.value[CFI_RA_REG], 0x401234);
    assert_int_equal(caller.value[RSP], 0x7fff0010);
    assert_int_equal(caller.value[RBX], 0x1111); /* kept: the CFI does not mention it */
    assert_true(caller.known & 1u << RBX);
    assert_false(caller.known & 1u << RAX); /* unknown stays unknown */
}

static void failures_give_up(void **state)
{
    (void)state;
    struct cfi_rules rules = framed_rules();
    const uint64_t stack[] = {0x7000, 0x401234};
    struct memory m = {.base = 0x7fff0000, .words = stack, .count = 2};
    struct cfi_regs callee = {.known = 1u << RBP};
    callee.value[RBP] = 0x7fff0000;
    struct cfi_regs caller;
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_CALLER);
    /* the stack copy cut before the return address */
    m.count = 1;
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_GIVE_UP);
    m.count = 2;
    /* the CFA's register unknown */
    callee.known = 1u << RSP;
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_GIVE_UP);
    callee.known = 1u << RBP;
    /* a return address of 0: libdw's and libunwind's rules differ, libdw decides */
    const uint64_t zero[] = {0x7000, 0};
    m.words = zero;
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_GIVE_UP);
    m.words = stack;
    /* rules it cannot express, or damaged */
    rules.usable = false;
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_GIVE_UP);
    rules = framed_rules();
    rules.kind[RBX] = 9;
    cfi_rules_index(&rules);
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_GIVE_UP);
    rules = framed_rules();
    rules.kind[RBX] = CFI_UNDEFINED; /* only the return address may end a stack */
    cfi_rules_index(&rules);
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_GIVE_UP);
    rules = framed_rules();
    rules.kind[CFI_RA_REG] = CFI_KEEP;
    cfi_rules_index(&rules);
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_GIVE_UP);
    rules = framed_rules();
    rules.cfa_reg = CFI_RA_REG;
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_GIVE_UP);
}

static void outermost_frame(void **state)
{
    (void)state;
    /* _start: CFA rsp + 8, rip undefined; rbp saved (to show reads still happen) */
    struct cfi_rules rules = {.usable = true, .cfa_reg = RSP, .cfa_offset = 8};
    rules.kind[CFI_RA_REG] = CFI_UNDEFINED;
    rules.kind[RBP] = CFI_AT_CFA, rules.offset[RBP] = -8;
    cfi_rules_index(&rules);
    const uint64_t stack[] = {0x1234};
    struct memory m = {.base = 0x7fff0000, .words = stack, .count = 1};
    struct cfi_regs callee = {.known = 1u << RSP}, caller;
    callee.value[RSP] = 0x7fff0000;
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_OUTERMOST);
    assert_int_equal(m.reads, 1);
    /* a failed read in the outermost frame is libdw's to judge (a cut stack) */
    m.count = 0;
    assert_int_equal(cfi_rules_step(&rules, &callee, &caller, NULL, memory_read, &m),
                     CFI_STEP_GIVE_UP);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return rng_state;
}

/* Random registers and a random stack stepped under `rules` (at most 4 frames deep). */
static void step_randomly(const struct cfi_rules *rules)
{
    uint64_t words[32];
    for (size_t i = 0; i < 32; i++)
        words[i] = rng() % 4 ? rng() % 256 * 8 + 0x7fff0000 : rng();
    struct memory m = {.base = 0x7fff0000, .words = words, .count = rng() % 33};
    struct cfi_regs regs = {.known = (uint32_t)rng() & 0x1ffff};
    for (size_t i = 0; i < CFI_RULE_REGS; i++)
        regs.value[i] = rng() % 2 ? 0x7fff0000 + rng() % 300 : rng();
    for (int depth = 0; depth < 4; depth++) {
        struct cfi_regs caller;
        enum cfi_step s = cfi_rules_step(rules, &regs, &caller, NULL, memory_read, &m);
        assert_true(s == CFI_STEP_CALLER || s == CFI_STEP_OUTERMOST || s == CFI_STEP_GIVE_UP);
        if (s != CFI_STEP_CALLER)
            return;
        assert_true(caller.known & 1u << CFI_RA_REG);
        assert_int_not_equal(caller.value[CFI_RA_REG], 0);
        regs = caller;
    }
}

/*
 * The stack copy read inline (its window over the first words, the rest
 * by the callback) and a step in place give what the callback alone and
 * a separate caller give.
 */
static void window_and_in_place_agree(void **state)
{
    (void)state;
    for (int n = 0; n < 20000; n++) {
        struct cfi_rules r = {.usable = true, .cfa_reg = (uint8_t)(rng() % 16)};
        r.cfa_offset = (int64_t)(rng() % 8 * 8) - 32; /* aligned: the callback reads no other */
        for (int i = 0; i < CFI_RULE_REGS; i++) {
            r.kind[i] = (uint8_t)(rng() % 3 ? CFI_KEEP : rng() % 3);
            r.offset[i] = (int64_t)(rng() % 40 * 8) - 160;
        }
        r.kind[CFI_RA_REG] = rng() % 8 ? CFI_AT_CFA : CFI_UNDEFINED;
        cfi_rules_index(&r);
        uint64_t words[64];
        for (size_t i = 0; i < 64; i++)
            words[i] = rng() % 4 ? 0x7fff0000 + rng() % 512 * 8 : rng();
        struct memory m = {.base = 0x7fff0000, .words = words, .count = 1 + rng() % 64};
        uint64_t window_words = rng() % m.count; /* its limit + 8 bytes lie in `words` */
        const struct cfi_stack window = {m.base, (const uint8_t *)words, window_words * 8};
        struct cfi_regs regs = {.known = (uint32_t)rng() & 0xffff};
        for (size_t i = 0; i < CFI_RULE_REGS; i++)
            regs.value[i] = 0x7fff0000 + rng() % 88 * 8;
        struct cfi_regs apart, in_place = regs;
        enum cfi_step a = cfi_rules_step(&r, &regs, &apart, NULL, memory_read, &m);
        enum cfi_step b = cfi_rules_step(&r, &in_place, &in_place, &window, memory_read, &m);
        assert_int_equal(a, b);
        if (a != CFI_STEP_GIVE_UP) {
            assert_int_equal(apart.known, in_place.known);
            for (int i = 0; i < CFI_RULE_REGS; i++)
                if (apart.known & 1u << i)
                    assert_int_equal(apart.value[i], in_place.value[i]);
        }
    }
}

static void random_rules(void **state)
{
    (void)state;
    for (int n = 0; n < 20000; n++) {
        struct cfi_rules r = {.usable = rng() % 8 != 0, .cfa_reg = (uint8_t)(rng() % 18)};
        r.cfa_offset = (int64_t)(rng() % 64) - 32;
        for (size_t i = 0; i < CFI_RULE_REGS; i++) {
            r.kind[i] = (uint8_t)(rng() % 5);
            r.offset[i] = (int64_t)(rng() % 64) - 32;
        }
        cfi_rules_index(&r);
        if (rng() % 8 == 0) { /* an index that does not fit the rules: still no crash */
            r.nactive = (uint8_t)(rng() % 20);
            for (size_t i = 0; i < CFI_RULE_REGS; i++)
                r.active[i] = (uint8_t)(rng() % 20);
        }
        step_randomly(&r);
    }
}

/* This executable's bytes, and where its .eh_frame and .text are. */
struct image {
    char *bytes;
    size_t size;
    size_t eh_offset, eh_size;
    uint64_t text_addr, text_size;
};

static void read_self(struct image *img)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    img->size = (size_t)ftell(f);
    rewind(f);
    img->bytes = malloc(img->size);
    assert_non_null(img->bytes);
    assert_int_equal(fread(img->bytes, 1, img->size, f), img->size);
    fclose(f);
    elf_version(EV_CURRENT);
    Elf *elf = elf_memory(img->bytes, img->size);
    assert_non_null(elf);
    size_t shstrndx;
    assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        gelf_getshdr(scn, &sh);
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (name && strcmp(name, ".eh_frame") == 0)
            img->eh_offset = sh.sh_offset, img->eh_size = sh.sh_size;
        if (name && strcmp(name, ".text") == 0)
            img->text_addr = sh.sh_addr, img->text_size = sh.sh_size;
    }
    elf_end(elf);
    assert_true(img->eh_size > 0 && img->text_size > 0);
}

/* Rows of `bytes` at `probes` pcs of .text (classified, stepped); how many were usable. */
static size_t rows_of(struct image *img, const char *bytes, int probes)
{
    Elf *elf = elf_memory((char *)bytes, img->size);
    assert_non_null(elf);
    Dwarf_CFI *cfi = dwarf_getcfi_elf(elf);
    size_t usable = 0;
    for (int i = 0; cfi && i < probes; i++) {
        Dwarf_Frame *row;
        uint64_t pc = img->text_addr + rng() % img->text_size;
        if (dwarf_cfi_addrframe(cfi, pc, &row) != 0)
            continue;
        struct cfi_rules rules;
        cfi_rules_of_frame(row, &rules);
        free(row);
        usable += rules.usable;
        if (rules.usable) {
            assert_true(rules.cfa_reg < CFI_RA_REG);
            assert_true(rules.kind[CFI_RA_REG] != CFI_KEEP);
        }
        step_randomly(&rules);
    }
    if (cfi)
        dwarf_cfi_end(cfi);
    elf_end(elf);
    return usable;
}

static void own_eh_frame(void **state)
{
    (void)state;
    struct image img;
    memset(&img, 0, sizeof(img));
    read_self(&img);
    /* gcc's code: nearly every row is a register plus an offset, rip at CFA - 8 */
    assert_true(rows_of(&img, img.bytes, 2000) > 1500);
    char *copy = malloc(img.size);
    assert_non_null(copy);
    for (int round = 0; round < 60; round++) {
        memcpy(copy, img.bytes, img.size);
        for (int flips = 0; flips < 1 + round * 4; flips++)
            copy[img.eh_offset + rng() % img.eh_size] = (char)rng();
        rows_of(&img, copy, 300);
    }
    free(copy);
    free(img.bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cfa_forms),
        cmocka_unit_test(register_forms),
        cmocka_unit_test(caller_computed),
        cmocka_unit_test(failures_give_up),
        cmocka_unit_test(outermost_frame),
        cmocka_unit_test(random_rules),
        cmocka_unit_test(window_and_in_place_agree),
        cmocka_unit_test(own_eh_frame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
