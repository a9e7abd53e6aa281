/*
 * test_jolt_layout: Jolt's I/O addresses (MemoryLayout::new, a16z/jolt @
 * 01f78185, common/src/jolt_device.rs) worked out by hand for edge sizes, and
 * the --jolt-memory spelling of the sizes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "executor/abi/jolt_layout.h"

static struct jolt_layout layout_of(uint64_t in, uint64_t out, uint64_t trusted, uint64_t untrusted)
{
    struct jolt_memory c = {.max_input_size = in,
                            .max_output_size = out,
                            .max_trusted_advice_size = trusted,
                            .max_untrusted_advice_size = untrusted};
    struct jolt_layout l;
    struct error e = ERROR_INIT;
    assert_int_equal(jolt_layout_compute(&c, &l, &e), 0);
    return l;
}

/* 4 x 4096 + 16 bytes: 2050 words, 4096 words: 32 KiB below RAM, trusted advice first. */
static void test_defaults(void **state)
{
    (void)state;
    struct jolt_memory c = jolt_memory_default();
    struct jolt_layout l;
    struct error e = ERROR_INIT;
    assert_int_equal(jolt_layout_compute(&c, &l, &e), 0);
    assert_int_equal(l.trusted_advice_start, 0x7FFF8000);
    assert_int_equal(l.untrusted_advice_start, 0x7FFF9000);
    assert_int_equal(l.input_start, 0x7FFFA000);
    assert_int_equal(l.output_start, 0x7FFFB000);
    assert_int_equal(l.panic, 0x7FFFC000);
    assert_int_equal(l.termination, 0x7FFFC008);
    assert_int_equal(l.io_end, 0x7FFFC010);
}

/* 1-byte areas round up to 8: 8 + 8 + 16 = 32 bytes, a power of two already, ending at RAM. */
static void test_rounding_fills_region(void **state)
{
    (void)state;
    struct jolt_layout l = layout_of(1, 1, 0, 0);
    assert_int_equal(l.input_start, 0x7FFFFFE0);
    assert_int_equal(l.input_end, 0x7FFFFFE8);
    assert_int_equal(l.output_start, 0x7FFFFFE8);
    assert_int_equal(l.panic, 0x7FFFFFF0);
    assert_int_equal(l.termination, 0x7FFFFFF8);
    assert_int_equal(l.io_end, 0x80000000);
    l = layout_of(0, 0, 0, 0); /* the two words alone */
    assert_int_equal(l.input_start, 0x7FFFFFF0);
    assert_int_equal(l.panic, 0x7FFFFFF0);
}

/* Untrusted advice larger: it comes first. 16 + 8 + 16 = 40 bytes: 5 words, 8 words. */
static void test_larger_advice_first(void **state)
{
    (void)state;
    struct jolt_layout l = layout_of(0, 0, 8, 16);
    assert_int_equal(l.untrusted_advice_start, 0x7FFFFFC0);
    assert_int_equal(l.untrusted_advice_end, 0x7FFFFFD0);
    assert_int_equal(l.trusted_advice_start, 0x7FFFFFD0);
    assert_int_equal(l.trusted_advice_end, 0x7FFFFFD8);
    assert_int_equal(l.input_start, 0x7FFFFFD8);
    assert_int_equal(l.termination, 0x7FFFFFE0);
}

static void test_refused_sizes(void **state)
{
    (void)state;
    struct jolt_memory c = jolt_memory_default();
    struct jolt_layout l;
    struct error e = ERROR_INIT;
    c.max_trusted_advice_size = 24; /* Jolt asserts a power of two */
    assert_int_equal(jolt_layout_compute(&c, &l, &e), -1);
    assert_non_null(strstr(e.msg, "powers of two"));
    c = jolt_memory_default();
    c.max_input_size = (1ull << 31) - 8; /* the region would be 4 GiB */
    struct error e2 = ERROR_INIT;
    assert_int_equal(jolt_layout_compute(&c, &l, &e2), -1);
    assert_non_null(strstr(e2.msg, "exceeds RAM_START_ADDRESS"));
}

static void test_parse(void **state)
{
    (void)state;
    struct jolt_memory c = jolt_memory_default();
    struct error e = ERROR_INIT;
    assert_int_equal(
        jolt_memory_parse("max_output_size=0x20,max_untrusted_advice_size=0,stack_size=8", &c, &e),
        0);
    assert_int_equal(c.max_output_size, 0x20);
    assert_int_equal(c.max_untrusted_advice_size, 0);
    assert_int_equal(c.max_input_size, 4096); /* not given: kept */
    assert_int_equal(c.stack_size, 8);
    static const char *const bad[] = {"",
                                      "max_input_size",
                                      "max_input_size=",
                                      "foo=1",
                                      "max_input_size=1,",
                                      "max_input_size=0x",
                                      "max_input_size=1 ",
                                      "max_input_size=1,max_input_size=1",
                                      "memory_size=99999999999"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct error eb = ERROR_INIT;
        assert_int_equal(jolt_memory_parse(bad[i], &c, &eb), -1);
        assert_true(eb.msg[0] != '\0');
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_rounding_fills_region),
        cmocka_unit_test(test_larger_advice_first),
        cmocka_unit_test(test_refused_sizes),
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
