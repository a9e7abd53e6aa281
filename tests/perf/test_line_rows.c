/*
 * test_line_rows: perf/dwarf/line_rows.h says an address has a line row exactly
 * where libdw's dwarf_getsrc_die finds one: at, before and after every
 * row's address and at random addresses across each unit's rows, over
 * this test's own DWARF, libc's (every unit, when libc6-dbg is
 * installed) and the C++ test program's (argv[1], built here when c++
 * is); and nearly every unit's program is read here, not left to libdw.
 * Without libc6-dbg or c++ it exits 77 (skipped; 1 under CI=true).
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
#include <unistd.h>

#include "../ctest_skip.h"
#include "dwarf_files.h"
#include "perf/dwarf/line_rows.h"

static void same_answer(const struct line_rows *rows, Dwarf_Die *cu, uint64_t addr)
{
    bool libdw = dwarf_getsrc_die(cu, addr) != NULL;
    if (line_rows_has(rows, addr) != libdw)
        fail_msg("at %#llx: line_rows %d, dwarf_getsrc_die %d", (unsigned long long)addr, !libdw,
                 libdw);
}

/* Compares one unit; false when its program was left to libdw. */
static bool check_unit(Dwarf *dw, Dwarf_Die *cu)
{
    struct line_rows rows;
    int rc = line_rows_read(&rows, dw, cu);
    assert_true(rc >= 0);
    if (rc == 0)
        return false;
    for (size_t i = 0; i < rows.count; i++) {
        uint64_t a = rows.list[i].addr;
        same_answer(&rows, cu, a - 1);
        same_answer(&rows, cu, a);
        same_answer(&rows, cu, a + 1);
        if (i + 1 < rows.count) /* inside the gap to the next row */
            same_answer(&rows, cu, a + (uint64_t)rand() % (rows.list[i + 1].addr - a));
    }
    same_answer(&rows, cu, 0);
    same_answer(&rows, cu, UINT64_MAX);
    line_rows_free(&rows);
    return true;
}

/* Checks up to `units` units of `path`; the number whose programs were read here. */
static size_t check_file(const char *path, size_t units)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    assert_non_null(dw);
    srand(3);
    Dwarf_Off off = 0, next;
    size_t header, read = 0, with_lines = 0;
    for (size_t u = 0; u < units && dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0;
         u++, off = next) {
        Dwarf_Die cu;
        Dwarf_Attribute attr;
        if (!dwarf_offdie(dw, off + header, &cu) || !dwarf_attr(&cu, DW_AT_stmt_list, &attr))
            continue;
        Dwarf_Lines *lines;
        size_t n;
        if (dwarf_getsrclines(&cu, &lines, &n) != 0 || n == 0)
            continue;
        with_lines++;
        read += check_unit(dw, &cu);
    }
    assert_true(read * 10 >= with_lines * 9); /* libdw answers only for forms not read here */
    dwarf_end(dw);
    close(fd);
    return read;
}

static size_t check_all(const char *path)
{
    return check_file(path, 1000);
}

static void own_dwarf(void **state)
{
    (void)state;
    assert_true(check_file("/proc/self/exe", 1000) > 0); /* built with -g */
}

static void libc_dwarf(void **state)
{
    (void)state;
    char path[4096];
    if (!dwarf_files_libc_debug(path, sizeof(path)))
        ctest_skip("libc6-dbg is not installed");
    assert_true(check_file(path, 100000) > 1000);
}

static const char *cxx_source; /* argv[1] */

static void cxx_dwarf(void **state)
{
    (void)state;
    long read = dwarf_files_with_cxx(cxx_source, check_all);
    if (read < 0)
        ctest_skip("no C++ compiler");
    assert_true(read > 0);
}

int main(int argc, char **argv)
{
    cxx_source = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_dwarf),
        cmocka_unit_test(libc_dwarf),
        cmocka_unit_test(cxx_dwarf),
    };
    return ctest_skip_status(cmocka_run_group_tests(tests, NULL, NULL));
}
