/*
 * test_dwarf_scopes: a unit's index of its functions (perf/dwarf_scopes.h)
 * answers what the walk over its DIEs answers: the same functions,
 * outermost first, at the edges and middles of every range that code in
 * the unit has, at random addresses and between functions, over this
 * test's own DWARF and, when libc6-dbg is installed, the first 300 units
 * of libc's (C with nested blocks, inlining and assembly), and the C++
 * test program (namespaces, templates, classes; argv[1], built here with
 * `c++ -O2 -g` when a compiler is installed); no index, no unit.
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
#include <link.h>
#include <unistd.h>

#include "perf/dwarf_scopes.h"

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

static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    if (strstr(info->dlpi_name, "/libc.so.6"))
        snprintf(data, 4096, "%s", info->dlpi_name);
    return 0;
}

/* libc's separate debug file by its build-id, or false. */
static bool libc_debug_file(char *path, size_t size)
{
    char libc[4096] = "";
    dl_iterate_phdr(find_libc, libc);
    int fd = libc[0] ? open(libc, O_RDONLY) : -1;
    bool found = false;
    elf_version(EV_CURRENT);
    Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn && !found;
         scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        Elf_Data *data;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE ||
            !(data = elf_getdata(scn, NULL)))
            continue;
        GElf_Nhdr nhdr;
        size_t pos = 0, name_at, desc_at;
        while ((pos = gelf_getnote(data, pos, &nhdr, &name_at, &desc_at)) > 0)
            if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_descsz > 1) {
                const unsigned char *id = (const unsigned char *)data->d_buf + desc_at;
                int len = snprintf(path, size, "/usr/lib/debug/.build-id/%02x/", id[0]);
                for (size_t i = 1; i < nhdr.n_descsz && (size_t)len + 8 < size; i++)
                    len += snprintf(path + len, size - (size_t)len, "%02x", id[i]);
                snprintf(path + len, size - (size_t)len, ".debug");
                found = access(path, R_OK) == 0;
                break;
            }
    }
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
    return found;
}

static void libc_dwarf(void **state)
{
    (void)state;
    char path[4096];
    if (!libc_debug_file(path, sizeof(path)))
        skip(); /* libc6-dbg not installed */
    assert_true(check_file(path, 300) > 100);
}

static const char *cxx_source; /* argv[1] */

static void cxx_dwarf(void **state)
{
    (void)state;
    char dir[] = "/tmp/dwarf-scopes-XXXXXX", exe[64], cmd[8192];
    if (!cxx_source || !mkdtemp(dir))
        skip();
    snprintf(exe, sizeof(exe), "%s/inlines", dir);
    snprintf(cmd, sizeof(cmd), "c++ -O2 -g '%s' -o %s 2>/dev/null", cxx_source, exe);
    bool built = system(cmd) == 0;
    size_t checked = built ? check_file(exe, 1000) : 0;
    unlink(exe);
    rmdir(dir);
    if (!built)
        skip(); /* no C++ compiler */
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
    return cmocka_run_group_tests(tests, NULL, NULL);
}
