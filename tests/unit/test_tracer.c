/*
 * test_tracer: the guest tracer's rewind (SP1's unconstrained blocks): when
 * the guest resumes at the point where the stack was marked, the stack is
 * the marked one again, and every instruction counts in the frame it ran
 * in; and cost mode, where each frame counts the cost clock beside the
 * instruction clock. The jumps are reported as the traced loop reports
 * them (transfer, with the clocks after each jump), the expected stacks
 * worked out by hand.
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
#include "tracer/weights.h"

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

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The line of `node`: its stack (root frame first, names joined by ';'), a space, its count. */
static char *stack_line(const struct trie *t, const struct strtab *names, uint32_t node)
{
    uint32_t path[64];
    size_t depth = 0;
    for (uint32_t n = node; n != TRIE_ROOT; n = t->nodes[n].parent) {
        assert_true(depth < 64);
        path[depth++] = n;
    }
    char *line = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&line, &size);
    assert_non_null(out);
    while (depth--)
        fprintf(out, "%s%s", strtab_get(names, (uint32_t)t->nodes[path[depth]].key),
                depth ? ";" : "");
    fprintf(out, " %llu\n", (unsigned long long)t->nodes[node].count);
    fclose(out);
    return line;
}

/*
 * The profile as folded text, written here rather than by flamegraph/'s
 * writer (this test links the tracer alone): a line per node with a count,
 * "a;b;c N", the lines sorted bytewise as the folded format has them.
 */
static char *folded(struct guest_profile *p, uint64_t retired)
{
    guest_profile_flush(p, retired);
    struct trie named;
    struct strtab names;
    assert_true(trie_init(&named) && strtab_init(&names));
    assert_int_equal(guest_profile_named(p, 0, &named, &names, NULL), 0);
    char **lines = calloc(named.count, sizeof(*lines));
    size_t n = 0, bytes = 1;
    assert_non_null(lines);
    for (uint32_t i = 1; i < named.count; i++) {
        if (!named.nodes[i].count)
            continue;
        lines[n] = stack_line(&named, &names, i);
        bytes += strlen(lines[n]);
        n++;
    }
    qsort(lines, n, sizeof(*lines), compare_lines);
    char *text = calloc(1, bytes);
    assert_non_null(text);
    for (size_t i = 0; i < n; i++) {
        strcat(text, lines[i]);
        free(lines[i]);
    }
    free(lines);
    strtab_free(&names);
    trie_free(&named);
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

/* ---- cost mode ---- */

/* Cost mode: a jump with both clocks after it (cost in the weight's units). */
static void cost_jump(struct guest_profile *p, enum trace_kind kind, uint64_t pc, uint64_t target,
                      uint64_t retired, uint64_t cost)
{
    p->tracer.cost_now = cost * TRACE_CLOCK_TICKS; /* where the loop leaves it for `transfer` */
    jump(p, kind, pc, target, retired);
}

/* Every ecall here costs 7 of the weight (its opcode class's cost). */
static uint64_t ecall_ticks(void *machine, uint64_t pc)
{
    (void)machine;
    (void)pc;
    return 7 * TRACE_CLOCK_TICKS;
}

/* The weighers: the clocked weight, whose call costs 100, and the instruction count. */
static uint64_t cost_pc(void *ctx, uint64_t pc, uint64_t count)
{
    (void)ctx;
    (void)pc;
    return count * 1000; /* never asked: no function keeps per-pc counts */
}

static uint64_t call_cost(void *ctx, const char *call, uint64_t calls)
{
    (void)call;
    return calls * (ctx ? 100 : 1);
}

static uint64_t plain_cost(void *ctx, uint64_t count)
{
    (void)ctx;
    return count;
}

/*
 * main calls enter (2 instructions, cost 5), enter calls syscall (2, cost
 * 4), syscall's second instruction is an ecall costing 7 (2 more, 11
 * with it); syscall returns (1, 3), enter returns (2, 7), main runs on (3, 10).
 * The ecall's leaf counts one call in both columns, and the rest of its
 * cost (6) leaves every live frame. Own instructions: main 2 + 3, enter
 * 2 + 2, syscall 2 + 1 (less the leaf's 1); own cost: main 5 + 10, enter
 * 4 + 7, syscall 11 + 3 - 7.
 */
static void test_cost_mode_counts_both_clocks(void **state)
{
    (void)state;
    struct guest_profile p;
    struct guest_profile_options o = {.cost_clock = true};
    assert_true(guest_profile_init_with(&p, &syms, 0x1000, &o));
    p.tracer.ticks_at = ecall_ticks;
    cost_jump(&p, TRACE_KIND_CALL, 0x1004, 0x1100, 2, 5);
    cost_jump(&p, TRACE_KIND_CALL, 0x1104, 0x1200, 4, 9);
    p.tracer.cost_now = 20 * TRACE_CLOCK_TICKS; /* the ecall at 0x1204 retired */
    p.tracer.ecall(&p.tracer, "x", 0x1204);
    cost_jump(&p, TRACE_KIND_RETURN, 0x1208, 0x1108, 7, 23);
    cost_jump(&p, TRACE_KIND_RETURN, 0x1110, 0x1008, 9, 30);
    p.tracer.cost_now = 40 * TRACE_CLOCK_TICKS;
    char *text = folded(&p, 12); /* the instruction counts, as without the clock */
    assert_string_equal(text, "main 5\n"
                              "main;enter 4\n"
                              "main;enter;syscall 2\n"
                              "main;enter;syscall;[ecall:x] 1\n");
    free(text);
    static const uint64_t want_cost[] = {0, 34, 19, 8, 1}; /* inclusive, by node */
    for (uint32_t n = 1; n < p.trie.count; n++)
        assert_int_equal(p.tracer.node_costs[n], want_cost[n]);
    int marker = 1; /* a non-NULL context: the clocked weight's call cost */
    struct guest_weigher w[] = {
        {.name = "cost",
         .unit = "units",
         .pc = cost_pc,
         .call = call_cost,
         .outside = plain_cost,
         .clocked = true,
         .ctx = &marker},
        {.name = "instructions",
         .unit = "instructions",
         .pc = cost_pc,
         .call = call_cost,
         .outside = plain_cost},
    };
    struct profile prof;
    assert_true(profile_init(&prof));
    assert_int_equal(guest_profile_weighted(&p, 0, w, 2, &prof), 0);
    assert_int_equal(profile_total(&prof, 0), 15 + 11 + 7 + 100);
    assert_int_equal(profile_total(&prof, 1), 5 + 4 + 2 + 1);
    profile_free(&prof);
    guest_profile_free(&p);
}

/* Without a cost clock, a clocked weigher has nothing to read. */
static void test_clocked_weight_needs_the_clock(void **state)
{
    (void)state;
    struct guest_profile p;
    assert_true(guest_profile_init(&p, &syms, 0x1000, NULL));
    guest_profile_flush(&p, 3);
    struct guest_weigher w = {.name = "cost",
                              .unit = "units",
                              .pc = cost_pc,
                              .call = call_cost,
                              .outside = plain_cost,
                              .clocked = true};
    struct profile prof;
    assert_true(profile_init(&prof));
    assert_int_equal(guest_profile_weighted(&p, 0, &w, 1, &prof), -1);
    profile_free(&prof);
    guest_profile_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rewind_restores_the_marked_stack),
        cmocka_unit_test(test_rewind_reenters_frames_that_were_left),
        cmocka_unit_test(test_cost_mode_counts_both_clocks),
        cmocka_unit_test(test_clocked_weight_needs_the_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
