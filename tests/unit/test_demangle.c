/*
 * test_demangle: symbol names as docs/FORMATS.md#folded-stacks wants them. The expected
 * strings are what `c++filt -p` prints for the C++ names (checked with
 * binutils' c++filt), and rustc's own demangled forms for Rust.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "symtab/demangle.h"

static void expect(const char *mangled, const char *readable)
{
    char *got = demangle_symbol(mangled);
    assert_non_null(got);
    assert_string_equal(got, readable);
    free(got);
}

static void test_cxx_without_parameters(void **state)
{
    (void)state;
    expect("_ZN3foo3barEv", "foo::bar");
    expect("_ZNK3Foo3bazEi", "Foo::baz");
    expect("_ZN9__gnu_cxx13new_allocatorIcE8allocateEmPKv",
           "__gnu_cxx::new_allocator<char>::allocate");
    /* c++filt is verbose: the standard abbreviations are spelled out */
    expect("_ZNSs4sizeEv", "std::basic_string<char, std::char_traits<char>, "
                           "std::allocator<char> >::size");
    expect("_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo");
}

static void test_rust_legacy_drops_hash(void **state)
{
    (void)state;
    expect("_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write");
    expect("_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h1234567890abcdefE",
           "std::rt::lang_start::{{closure}}");
}

static void test_rust_v0(void **state)
{
    (void)state;
    expect("_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate::example");
}

static void test_plain_names_unchanged(void **state)
{
    (void)state;
    expect("main", "main");
    expect("__riscv_save_0", "__riscv_save_0");
    expect("_Rnot_rust", "_Rnot_rust");
    expect("_Z", "_Z");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cxx_without_parameters),
        cmocka_unit_test(test_rust_legacy_drops_hash),
        cmocka_unit_test(test_rust_v0),
        cmocka_unit_test(test_plain_names_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
