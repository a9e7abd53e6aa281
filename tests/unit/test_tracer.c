/*
 * test_tracer: the guest tracer's rewind (SP1's unconstrained blocks): when
 * the guest resumes at the point where the stack was marked, the stack is
 * the marked one again, and every instruction counts in the frame it ran
 * in. The jumps are reported as the traced loop reports them (transfer,
 * with the clock after each jump), the expected stacks worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracer/guest_profile.h"

/* main [0x1000, 0x1100), enter [0x1100, 0x1200), syscall [0x1200, 0x1300). */
static struct symtab_func funcs[] = {
    {0x1000, 0x1100, "main"}, {0x1100, 0x1200, "enter"}, {0x1200, 0x1300, "syscall"}};
static uint64_t max_end[] = {0x1100, 0x1200, 0x1300};
static const struct symtab syms = {.funcs = funcs, .max_end = max_end, .count = 3};

static void jump(struct guest_profile *p, enum trace_kind kind, uint64_t pc, uint64_t target,
                 uint64_t retired)
{
    p->tracer.transfer(&p->tracer, kind, pc, 4, target, trace_clock(&p->tracer, retired));
}

static char *folded(struct guest_profile *p, uint64_t retired)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    guest_profile_flush(p, retired);
    assert_int_equal(guest_profile_write_folded(p, out, 0), 0);
    fclose(out);
    return text;
}

/*
 * main calls enter (2 instructions in main), enter calls syscall (2 in
 * enter), whose ecall (2 in syscall) marks the stack; syscall and enter
 * return (1 and 2 more). main then calls syscall (3 more in main) for the
 * ecall that resumes after the marked one (2 in that syscall): the guest
 * is in the marked syscall under enter again, which returns (1 more) to
 * enter, which returns (2 more) to main, which runs 3 more.
 */
static void test_rewind_restores_the_marked_stack(void **state)
{
    (void)state;
    struct guest_profile p;
    assert_true(guest_profile_init(&p, &syms, 0x1000, NULL));
    jump(&p, TRACE_KIND_CALL, 0x1004, 0x1100, 2);
    jump(&p, TRACE_KIND_CALL, 0x1104, 0x1200, 4);
    p.tracer.mark(&p.tracer); /* the ecall at 0x1204, the 6th instruction */
    jump(&p, TRACE_KIND_RETURN, 0x1208, 0x1108, 7);
    jump(&p, TRACE_KIND_RETURN, 0x1110, 0x1008, 9);
    jump(&p, TRACE_KIND_CALL, 0x1010, 0x1200, 12);
    p.tracer.rewind(&p.tracer, trace_clock(&p.tracer, 14)); /* its ecall, the 14th */
    jump(&p, TRACE_KIND_RETURN, 0x1208, 0x1108, 15);
    jump(&p, TRACE_KIND_RETURN, 0x1110, 0x1008, 17);
    char *text = folded(&p, 20);
    assert_string_equal(text, "main 8\n"
                              "main;enter 6\n"
                              "main;enter;syscall 4\n"
                              "main;syscall 2\n");
    free(text);
    guest_profile_free(&p);
}

/* A rewind to a deeper stack than the one left: the marked frames are entered again. */
static void test_rewind_reenters_frames_that_were_left(void **state)
{
    (void)state;
    struct guest_profile p;
    assert_true(guest_profile_init(&p, &syms, 0x1000, NULL));
    jump(&p, TRACE_KIND_CALL, 0x1004, 0x1100, 1);
    jump(&p, TRACE_KIND_CALL, 0x1104, 0x1200, 2);
    p.tracer.mark(&p.tracer);
    jump(&p, TRACE_KIND_RETURN, 0x1208, 0x1108, 3);
    jump(&p, TRACE_KIND_RETURN, 0x1110, 0x1008, 4);
    p.tracer.rewind(&p.tracer, trace_clock(&p.tracer, 6)); /* an ecall in main */
    jump(&p, TRACE_KIND_RETURN, 0x1208, 0x1108, 10);
    char *text = folded(&p, 12);
    /* main: 1 + 2 (to the rewind); enter: 1 + 1 + 2; syscall: 1 + 4 */
    assert_string_equal(text, "main 3\n"
                              "main;enter 4\n"
                              "main;enter;syscall 5\n");
    free(text);
    guest_profile_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rewind_restores_the_marked_stack),
        cmocka_unit_test(test_rewind_reenters_frames_that_were_left),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
