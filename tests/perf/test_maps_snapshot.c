/*
 * test_maps_snapshot: the maps snapshot on its own (cmocka): which
 * /proc/PID/maps lines it keeps (executable and file-backed: not [vdso],
 * anonymous or data mappings), paths with spaces and " (deleted)" kept
 * whole, duplicates counted once, and the lookup by process, where the
 * later of two overlapping entries answers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "perf/machine/maps_snapshot.h"

/* Lines as the kernel writes them (fs/proc/task_mmu.c: show_map_vma). */
static const char proc_maps[] =
    "55d0c0a00000-55d0c0a01000 r--p 00000000 fd:01 1234                       /opt/my prog\n"
    "55d0c0a01000-55d0c0a02000 r-xp 00001000 fd:01 1234                       /opt/my prog\n"
    "55d0c0a02000-55d0c0a03000 rw-p 00002000 fd:01 1234                       /opt/my prog\n"
    "55d0c1000000-55d0c1021000 rw-p 00000000 00:00 0                          [heap]\n"
    "7f3a1c228000-7f3a1c3bd000 r-xp 00028000 fd:01 99                         /usr/lib/libc.so.6\n"
    "7f3a1c400000-7f3a1c401000 r-xp 00000000 00:00 0 \n"
    "7f3a1c500000-7f3a1c501000 r-xp 00000000 fd:01 77                         /tmp/jit (deleted)\n"
    "7ffd5a3f0000-7ffd5a3f2000 r-xp 00000000 00:00 0                          [vdso]\n"
    "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n"
    "garbage line\n"
    "7f3a1c600000-7f3a1c601000 r-xp 00000000 fd:01 78 /no/newline/at/end";

static void proc_lines_kept(void **state)
{
    (void)state;
    struct maps_snapshot s;
    maps_snapshot_init(&s);
    assert_int_equal(maps_snapshot_add_proc(&s, 42, proc_maps, strlen(proc_maps)), 0);
    assert_int_equal(s.count, 4);
    assert_string_equal(s.items[0].path, "/opt/my prog");
    assert_int_equal(s.items[0].start, 0x55d0c0a01000);
    assert_int_equal(s.items[0].end, 0x55d0c0a02000);
    assert_int_equal(s.items[0].pgoff, 0x1000);
    assert_string_equal(s.items[1].path, "/usr/lib/libc.so.6");
    assert_string_equal(s.items[2].path, "/tmp/jit (deleted)");
    assert_string_equal(s.items[3].path, "/no/newline/at/end");
    /* read again (the poller does): nothing new */
    assert_int_equal(maps_snapshot_add_proc(&s, 42, proc_maps, strlen(proc_maps)), 0);
    assert_int_equal(s.count, 4);
    maps_snapshot_free(&s);
}

static void find_by_pid_later_wins(void **state)
{
    (void)state;
    struct maps_snapshot s;
    maps_snapshot_init(&s);
    assert_int_equal(maps_snapshot_add(&s, 7, 0x400000, 0x401000, 0, "/old"), 0);
    assert_int_equal(maps_snapshot_add(&s, 9, 0x400000, 0x500000, 0, "/other"), 0);
    assert_int_equal(maps_snapshot_add(&s, 7, 0x400800, 0x402000, 0x800, "/new"), 0);
    assert_string_equal(maps_snapshot_find(&s, 7, 0x400100)->path, "/old");
    assert_string_equal(maps_snapshot_find(&s, 7, 0x400900)->path, "/new");
    assert_string_equal(maps_snapshot_find(&s, 9, 0x400900)->path, "/other");
    assert_null(maps_snapshot_find(&s, 7, 0x402000)); /* END is outside */
    assert_null(maps_snapshot_find(&s, 8, 0x400100));
    /* an entry added after a lookup is found too */
    assert_int_equal(maps_snapshot_add(&s, 8, 0x400000, 0x401000, 0, "/late"), 0);
    assert_string_equal(maps_snapshot_find(&s, 8, 0x400100)->path, "/late");
    maps_snapshot_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(proc_lines_kept),
        cmocka_unit_test(find_by_pid_later_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
