/*
 * test_run: a guest run through run/ as `cli execute` and the fuzz target
 * drive it: a three-instruction RV32 Linux guest (a7 = 93, a0 = 7, ecall:
 * exit(7)) built in memory, run to its exit, to a spent budget, through
 * checkpoints and to a fault; its profile counts every instruction
 * retired, and every path ends in run_close.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/run.h"

#define TEXT_AT 0x10000u

/* A minimal RV32 ET_EXEC: the header, one PT_LOAD (R+X) and its code. */
struct tiny_elf {
    Elf32_Ehdr eh;
    Elf32_Phdr ph;
    uint32_t code[3];
};

/* The guest, in a malloc'd buffer for run_options.image; `code` its three instructions. */
static uint8_t *tiny_guest(const uint32_t code[3])
{
    struct tiny_elf *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    memcpy(f->eh.e_ident, ELFMAG, SELFMAG);
    f->eh.e_ident[EI_CLASS] = ELFCLASS32;
    f->eh.e_ident[EI_DATA] = ELFDATA2LSB;
    f->eh.e_ident[EI_VERSION] = EV_CURRENT;
    f->eh.e_type = ET_EXEC;
    f->eh.e_machine = 243; /* EM_RISCV */
    f->eh.e_version = EV_CURRENT;
    f->eh.e_entry = TEXT_AT;
    f->eh.e_phoff = offsetof(struct tiny_elf, ph);
    f->eh.e_ehsize = sizeof(Elf32_Ehdr);
    f->eh.e_phentsize = sizeof(Elf32_Phdr);
    f->eh.e_phnum = 1;
    f->ph.p_type = PT_LOAD;
    f->ph.p_offset = offsetof(struct tiny_elf, code);
    f->ph.p_vaddr = TEXT_AT;
    f->ph.p_filesz = sizeof(f->code);
    f->ph.p_memsz = sizeof(f->code);
    f->ph.p_flags = PF_R | PF_X;
    memcpy(f->code, code, sizeof(f->code));
    return (uint8_t *)f;
}

static const uint32_t exit_7[3] = {
    0x05d00893, /* addi a7, zero, 93 (exit) */
    0x00700513, /* addi a0, zero, 7 */
    0x00000073, /* ecall */
};

static const struct machine_io quiet_io = {.private_input_fd = -1,
                                           .stdout_fd = -1,
                                           .stderr_fd = -1,
                                           .public_output_fd = -1,
                                           .stack_size = 1 << 16};

/* Opens, starts and traces the guest of `code` under the linux ABI with `o`'s settings. */
static void start(struct run *r, struct run_options *o, const uint32_t code[3])
{
    struct error e = ERROR_INIT;
    o->guest_path = "tiny";
    o->image = tiny_guest(code);
    o->image_size = sizeof(struct tiny_elf);
    o->zkvm = "linux";
    o->profile = true;
    assert_int_equal(run_open(r, o, &e), 0);
    assert_int_equal(run_start(r, &quiet_io, &e), 0);
    assert_int_equal(run_trace(r, &e), 0);
    assert_int_equal(e.status, ERROR_NONE);
}

/* The profile's total instructions (its one weight). */
static uint64_t profile_instructions(struct run *r)
{
    struct profile p;
    assert_int_equal(run_profile(r, RUN_FRAMES_NAMED, &p), 0);
    assert_int_equal(p.nweights, 1);
    assert_string_equal(profile_weight_name(&p, 0), "instructions");
    uint64_t total = profile_total(&p, 0);
    profile_free(&p);
    return total;
}

static void test_runs_to_the_exit_with_every_instruction_profiled(void **state)
{
    (void)state;
    struct run_options o = {0};
    struct run r;
    start(&r, &o, exit_7);
    assert_int_equal(run_execute(&r), RUN_EXITED);
    run_finish(&r);
    assert_int_equal(r.m.exit_status, 7);
    assert_int_equal(r.m.retired, 3);
    assert_int_equal(profile_instructions(&r), r.m.retired);
    run_close(&r);
    run_close(&r); /* empty: nothing more to free */
}

static void test_budget_and_checkpoints_stop_the_run(void **state)
{
    (void)state;
    struct run_options o = {.max_cycles = 2, .checkpoint_cycles = 1};
    struct run r;
    start(&r, &o, exit_7);
    assert_int_equal(run_execute(&r), RUN_CHECKPOINT);
    assert_int_equal(r.m.retired, 1);
    assert_int_equal(profile_instructions(&r), 1);
    assert_int_equal(run_execute(&r), RUN_SPENT);
    assert_int_equal(r.m.retired, 2);
    assert_int_equal(profile_instructions(&r), 2);
    run_close(&r);
}

static void test_a_fault_is_described(void **state)
{
    (void)state;
    static const uint32_t illegal[3] = {0x00000013, 0x00000000, 0x00000013}; /* nop, illegal */
    struct run_options o = {0};
    struct run r;
    start(&r, &o, illegal);
    assert_int_equal(run_execute(&r), RUN_FAULTED);
    char text[4096];
    run_fault_text(&r, text, sizeof(text));
    assert_non_null(strstr(text, "guest fault: illegal instruction 0x00000000 at pc 0x10004"));
    assert_non_null(strstr(text, "after 1 instructions"));
    run_close(&r);
}

static void test_what_is_no_elf_is_refused(void **state)
{
    (void)state;
    uint8_t *junk = calloc(1, 64);
    assert_non_null(junk);
    struct run_options o = {.guest_path = "junk", .image = junk, .image_size = 64};
    struct run r;
    struct error e = ERROR_INIT;
    assert_int_equal(run_open(&r, &o, &e), -1);
    assert_int_equal(e.status, ERROR_CORRUPT);
    run_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_to_the_exit_with_every_instruction_profiled),
        cmocka_unit_test(test_budget_and_checkpoints_stop_the_run),
        cmocka_unit_test(test_a_fault_is_described),
        cmocka_unit_test(test_what_is_no_elf_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
