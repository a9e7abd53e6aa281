/*
 * test_call_cycles: the per-frame table of call cycles (executor/call_cycles.h)
 * keeps each (node, call) apart through growth, and RISC Zero's call
 * figures (executor/abi/risc0_cycles.h) match what its executor's loops
 * count, worked out here by hand from r0vm.rs (ecall_read: 2 cycles, then
 * one per byte to a word boundary, per 4 words, per trailing byte),
 * sha2.rs (1 + 4 + 68 a block + 1 per machine ecall of at most 10 blocks)
 * and kernel.s (12 instructions to enter, 1 to return).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "executor/abi/risc0_cycles.h"
#include "executor/call_cycles.h"

struct seen {
    uint64_t read, write, calls;
};

static int note(void *ctx, const char *call, uint64_t cycles)
{
    struct seen *s = ctx;
    s->calls++;
    if (strcmp(call, "sys_read") == 0)
        s->read += cycles;
    else if (strcmp(call, "sys_write") == 0)
        s->write += cycles;
    return 0;
}

static void test_table_keeps_nodes_and_calls_apart(void **state)
{
    (void)state;
    struct call_cycles c = {0};
    for (uint32_t node = 0; node < 1000; node++) { /* grows several times */
        assert_true(call_cycles_add(&c, node, "sys_read", node + 1));
        assert_true(call_cycles_add(&c, node, "sys_write", 2));
    }
    assert_true(call_cycles_add(&c, 7, "sys_read", 100));
    struct seen s = {0};
    assert_int_equal(call_cycles_each(&c, 7, note, &s), 0);
    assert_int_equal(s.calls, 2);
    assert_int_equal(s.read, 8 + 100);
    assert_int_equal(s.write, 2);
    memset(&s, 0, sizeof(s));
    assert_int_equal(call_cycles_each(&c, 5000, note, &s), 0);
    assert_int_equal(s.calls, 0);
    assert_int_equal(c.total, 1000 * 1001 / 2 + 2 * 1000 + 100);
    call_cycles_free(&c);
}

static int stop(void *ctx, const char *call, uint64_t cycles)
{
    (void)ctx, (void)call, (void)cycles;
    return -1;
}

static void test_each_stops_at_an_error(void **state)
{
    (void)state;
    struct call_cycles c = {0};
    assert_int_equal(call_cycles_each(&c, 0, stop, NULL), 0); /* empty */
    assert_true(call_cycles_add(&c, 3, "SHA", 1));
    assert_int_equal(call_cycles_each(&c, 3, stop, NULL), -1);
    call_cycles_free(&c);
}

static void test_host_read_cycles(void **state)
{
    (void)state;
    assert_int_equal(risc0_cycles_host_read(0x1000, 0), 2);      /* setup, decode */
    assert_int_equal(risc0_cycles_host_read(0x1000, 8), 2 + 1);  /* two words: one cycle */
    assert_int_equal(risc0_cycles_host_read(0x1000, 16), 2 + 1); /* four words: one */
    assert_int_equal(risc0_cycles_host_read(0x1000, 20), 2 + 2);
    /* 2 bytes to the boundary, 255 words (64 cycles), 2 bytes after. */
    assert_int_equal(risc0_cycles_host_read(0x1002, 1024), 2 + 2 + 64 + 2);
    assert_int_equal(risc0_cycles_host_read(0x1001, 2), 2 + 2); /* all before the boundary */
}

static void test_call_figures(void **state)
{
    (void)state;
    assert_int_equal(risc0_cycles_halt(), 12 + 28 + 2);
    assert_int_equal(risc0_cycles_input(), 12 + 9 + 1);
    assert_int_equal(risc0_cycles_sha(0), 12 + 5 + 6 + 1);
    assert_int_equal(risc0_cycles_sha(10), 12 + 5 + 6 + 680 + 1);
    assert_int_equal(risc0_cycles_sha(11), 12 + 5 + 12 + 748 + 1);
    assert_int_equal(risc0_cycles_bigint2(40), 12 + 14 + 1 + 41 + 2);
    assert_int_equal(risc0_cycles_poseidon2(false, 1, false), 12 + 5 + 1 + 10 + 2 + 1);
    assert_int_equal(risc0_cycles_poseidon2(true, 2, true), 12 + 5 + 1 + 2 + 22 + 2 + 1);
    assert_int_equal(risc0_cycles_software(risc0_cycles_host_syscall()), 12 + 4 + 2 + 1);
    assert_int_equal(risc0_cycles_host_a0_a1(), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_keeps_nodes_and_calls_apart),
        cmocka_unit_test(test_each_stops_at_an_error),
        cmocka_unit_test(test_host_read_cycles),
        cmocka_unit_test(test_call_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
