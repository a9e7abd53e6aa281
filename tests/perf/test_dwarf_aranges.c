/*
 * test_dwarf_aranges: the unit perf/dwarf/dwarf_aranges.h finds for an address
 * is the unit libdw's dwarf_addrdie finds: at the edges and middle of
 * every range and at random addresses, over this test's own DWARF, libc's
 * (when libc6-dbg is installed) and the C++ test program's (argv[1], built
 * with `c++ -O2 -g` when a compiler is installed); a file without the
 * table, or with a table libdw refuses, is left to dwarf_addrdie. Without
 * libc6-dbg, c++ or objcopy it exits 77 (skipped; 1 under CI=true).
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
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include "../ctest_skip.h"
#include "dwarf_files.h"
#include "perf/dwarf/dwarf_aranges.h"

static void same_unit(const struct dwarf_aranges *a, Dwarf *dw, Dwarf_Addr addr)
{
    Dwarf_Die mine, libdw;
    Dwarf_Die *m = dwarf_aranges_unit(a, dw, addr, &mine);
    Dwarf_Die *l = dwarf_addrdie(dw, addr, &libdw);
    assert_int_equal(m != NULL, l != NULL);
    if (m)
        assert_int_equal(dwarf_dieoffset(m), dwarf_dieoffset(l));
}

/* Compares every range's edges and middle and random addresses; the number of ranges. */
static size_t check_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    assert_non_null(dw);
    struct dwarf_aranges a;
    assert_int_equal(dwarf_aranges_read(&a, dw), 1);
    /* before libdw reads its own table: the units are found in any order */
    for (size_t i = a.count; i-- > 0;) {
        Dwarf_Die unit;
        assert_non_null(dwarf_aranges_unit(&a, dw, a.list[i].start, &unit));
    }
    srand(11);
    for (size_t i = 0; i < a.count; i++) {
        const struct dwarf_arange *r = &a.list[i];
        assert_true(i == 0 || a.list[i - 1].start <= r->start);
        const Dwarf_Addr probes[] = {r->start - 1,
                                     r->start,
                                     r->start + r->length / 2,
                                     r->start + r->length - 1,
                                     r->start + r->length,
                                     r->start + (Dwarf_Addr)rand() % (2 * r->length + 64)};
        for (size_t k = 0; k < sizeof(probes) / sizeof(probes[0]); k++)
            same_unit(&a, dw, probes[k]);
    }
    same_unit(&a, dw, 0);
    same_unit(&a, dw, UINT64_MAX);
    size_t count = a.count;
    dwarf_aranges_free(&a);
    dwarf_end(dw);
    close(fd);
    return count;
}

static void own_dwarf(void **state)
{
    (void)state;
    assert_true(check_file("/proc/self/exe") > 0); /* built with -g */
}

static void libc_dwarf(void **state)
{
    (void)state;
    char path[4096];
    if (!dwarf_files_libc_debug(path, sizeof(path)))
        ctest_skip("libc6-dbg is not installed");
    assert_true(check_file(path) > 1000);
}

static const char *cxx_source; /* argv[1] */

static void cxx_dwarf(void **state)
{
    (void)state;
    long ranges = dwarf_files_with_cxx(cxx_source, check_file);
    if (ranges < 0)
        ctest_skip("no C++ compiler");
    assert_true(ranges > 0);
}

/*
 * Whether `path`'s table is read (1) or left to dwarf_addrdie (0), which
 * then finds no unit at `addr` either.
 */
static int table_read(const char *path, Dwarf_Addr addr)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    assert_non_null(dw);
    struct dwarf_aranges a;
    int rc = dwarf_aranges_read(&a, dw);
    Dwarf_Die unit;
    if (rc == 0)
        assert_null(dwarf_addrdie(dw, addr, &unit));
    dwarf_aranges_free(&a);
    dwarf_end(dw);
    close(fd);
    return rc;
}

/* Copies of this test without .debug_aranges, and with a table of version 3. */
static void tables_refused(void **state)
{
    (void)state;
    char self[4096], dir[] = "/tmp/dwarf-aranges-XXXXXX", cmd[16384], none[64], v3[64], bytes[64];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    assert_true(n > 0);
    self[n] = '\0';
    Dwarf_Addr addr = 0; /* an address of this test's own table */
    int fd = open(self, O_RDONLY);
    Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
    struct dwarf_aranges a;
    assert_int_equal(dwarf_aranges_read(&a, dw), 1);
    assert_true(a.count > 0);
    addr = a.list[0].start;
    dwarf_aranges_free(&a);
    dwarf_end(dw);
    close(fd);
    assert_non_null(mkdtemp(dir));
    snprintf(none, sizeof(none), "%s/none", dir);
    snprintf(v3, sizeof(v3), "%s/v3", dir);
    snprintf(bytes, sizeof(bytes), "%s/aranges", dir);
    snprintf(cmd, sizeof(cmd),
             "objcopy --remove-section .debug_aranges '%s' %s 2>/dev/null && "
             "objcopy -O binary --only-section=.debug_aranges '%s' %s 2>/dev/null && "
             "printf '\\003' | dd of=%s bs=1 seek=4 conv=notrunc 2>/dev/null && "
             "objcopy --update-section .debug_aranges=%s '%s' %s 2>/dev/null",
             self, none, self, bytes, bytes, bytes, self, v3);
    bool made = system(cmd) == 0;
    if (made) {
        assert_int_equal(table_read(self, addr), 1);
        assert_int_equal(table_read(none, addr), 0);
        assert_int_equal(table_read(v3, addr), 0);
    }
    unlink(none);
    unlink(v3);
    unlink(bytes);
    rmdir(dir);
    if (!made)
        ctest_skip("objcopy cannot make the copies");
}

int main(int argc, char **argv)
{
    cxx_source = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_dwarf),
        cmocka_unit_test(libc_dwarf),
        cmocka_unit_test(cxx_dwarf),
        cmocka_unit_test(tables_refused),
    };
    return ctest_skip_status(cmocka_run_group_tests(tests, NULL, NULL));
}
