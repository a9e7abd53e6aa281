/*
 * test_dwarf_scopes: a unit's index of its functions (perf/dwarf/dwarf_scopes.h)
 * answers what the walk over its DIEs answers: the same functions,
 * outermost first, at the edges and middles of every range that code in
 * the unit has, at random addresses and between functions, over this
 * test's own DWARF and, when libc6-dbg is installed, the first 300 units
 * of libc's (C with nested blocks, inlining and assembly), and the C++
 * test program (namespaces, templates, classes; argv[1], built here with
 * `c++ -O2 -g` when a compiler is installed); no index, no unit. Without
 * libc6-dbg or c++ it exits 77 (skipped; 1 under CI=true).
 */
#define _GNU_SOURCE
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
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include "../ctest_skip.h"
#include "dwarf_files.h"
#include "perf/dwarf/dwarf_scopes.h"

static void same_answer(struct dwarf_scopes *s, Dwarf_Die *cu, Dwarf_Addr addr)
{
    Dwarf_Die walked[DWARF_SCOPES_MAX_DEPTH], found[DWARF_SCOPES_MAX_DEPTH];
    int n_walked = 0, n_found = 0;
    bool w = dwarf_scopes_walk(cu, addr, walked, &n_walked, 0);
    bool f = dwarf_scopes_find(s, addr, found, &n_found);
    assert_int_equal(w, f);
    assert_int_equal(n_walked, n_found);
    for (int i = 0; i < n_walked; i++)
        assert_int_equal(dwarf_dieoffset(&walked[i]), dwarf_dieoffset(&found[i]));
}

/* Every range of every DIE below `die` with code: its edges and middle. */
static void check_ranges_below(struct dwarf_scopes *s, Dwarf_Die *cu, Dwarf_Die *die, int depth,
                               size_t *checked)
{
    Dwarf_Die child;
    if (depth > 8 || dwarf_child(die, &child) != 0)
        return;
    do {
        Dwarf_Addr base, low, high;
        ptrdiff_t offset = 0;
        while ((offset = dwarf_ranges(&child, offset, &base, &low, &high)) > 0) {
            const Dwarf_Addr probes[] = {low - 1, low, low + (high - low) / 2, high - 1, high};
            for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
                same_answer(s, cu, probes[i]);
            *checked += 1;
        }
        check_ranges_below(s, cu, &child, depth + 1, checked);
    } while (dwarf_siblingof(&child, &child) == 0);
}

/* Checks up to `units` units of `path`'s DWARF; the number of ranges checked. */
static size_t check_file(const char *path, size_t units)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    assert_non_null(dw);
    Dwarf_Off off = 0, next;
    size_t header, checked = 0;
    srand(5);
    for (size_t u = 0; u < units && dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0;
         u++, off = next) {
        Dwarf_Die cu;
        if (!dwarf_offdie(dw, off + header, &cu))
            continue;
        struct dwarf_scopes *s = dwarf_scopes_index(&cu);
        assert_non_null(s);
        check_ranges_below(s, &cu, &cu, 0, &checked);
        Dwarf_Addr low, high;
        if (dwarf_lowpc(&cu, &low) == 0 && dwarf_highpc(&cu, &high) == 0 && high > low)
            for (int i = 0; i < 50; i++)
                same_answer(s, &cu, low + (Dwarf_Addr)rand() % (high - low));
        dwarf_scopes_free(s);
    }
    dwarf_end(dw);
    close(fd);
    return checked;
}

static void own_dwarf(void **state)
{
    (void)state;
    assert_true(check_file("/proc/self/exe", 1000) > 10); /* built with -g */
}

static void libc_dwarf(void **state)
{
    (void)state;
    char path[4096];
    if (!dwarf_files_libc_debug(path, sizeof(path)))
        ctest_skip("libc6-dbg is not installed");
    assert_true(check_file(path, 300) > 100);
}

static const char *cxx_source; /* argv[1] */

static size_t check_cxx(const char *path)
{
    return check_file(path, 1000);
}

static void cxx_dwarf(void **state)
{
    (void)state;
    long checked = dwarf_files_with_cxx(cxx_source, check_cxx);
    if (checked < 0)
        ctest_skip("no C++ compiler");
    assert_true(checked > 50);
}

static void no_unit(void **state)
{
    (void)state;
    Dwarf_Die chain[DWARF_SCOPES_MAX_DEPTH];
    int n = 0;
    assert_null(dwarf_scopes_index(NULL));
    assert_false(dwarf_scopes_find(NULL, 0x1000, chain, &n));
    assert_int_equal(n, 0);
    dwarf_scopes_free(NULL);
}

int main(int argc, char **argv)
{
    cxx_source = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_dwarf),
        cmocka_unit_test(libc_dwarf),
        cmocka_unit_test(cxx_dwarf),
        cmocka_unit_test(no_unit),
    };
    return ctest_skip_status(cmocka_run_group_tests(tests, NULL, NULL));
}
