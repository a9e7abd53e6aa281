/*
 * test_elf_image: the status and message elf_image gives for a file it
 * refuses: damaged (ERROR_CORRUPT, naming where), valid but not a guest
 * (ERROR_UNSUPPORTED), or unreadable (ERROR_UNREADABLE). The files are
 * built here from <elf.h>'s own structures, not by our loader's code.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "executor/elf_image.h"

#define TEXT_AT 0x10000u

/* A minimal RV32 ET_EXEC: the header, one PT_LOAD (R+X) and 8 bytes of code. */
struct tiny_elf {
    Elf32_Ehdr eh;
    Elf32_Phdr ph;
    uint32_t code[2];
};

static struct tiny_elf tiny_elf(void)
{
    struct tiny_elf f;
    memset(&f, 0, sizeof(f));
    memcpy(f.eh.e_ident, ELFMAG, SELFMAG);
    f.eh.e_ident[EI_CLASS] = ELFCLASS32;
    f.eh.e_ident[EI_DATA] = ELFDATA2LSB;
    f.eh.e_ident[EI_VERSION] = EV_CURRENT;
    f.eh.e_type = ET_EXEC;
    f.eh.e_machine = 243; /* EM_RISCV */
    f.eh.e_version = EV_CURRENT;
    f.eh.e_entry = TEXT_AT;
    f.eh.e_phoff = offsetof(struct tiny_elf, ph);
    f.eh.e_ehsize = sizeof(Elf32_Ehdr);
    f.eh.e_phentsize = sizeof(Elf32_Phdr);
    f.eh.e_phnum = 1;
    f.ph.p_type = PT_LOAD;
    f.ph.p_offset = offsetof(struct tiny_elf, code);
    f.ph.p_vaddr = TEXT_AT;
    f.ph.p_filesz = sizeof(f.code);
    f.ph.p_memsz = sizeof(f.code);
    f.ph.p_flags = PF_R | PF_X;
    f.code[0] = 0x00000013; /* nop */
    f.code[1] = 0x00000073; /* ecall */
    return f;
}

static const struct elf_limits limits = {.address_space_end = (uint64_t)1 << 32};

/* Loads the first `size` bytes of `f` from memory; the image is freed again. */
static int load(const struct tiny_elf *f, size_t size, struct error *e)
{
    uint8_t *copy = malloc(size);
    assert_non_null(copy);
    memcpy(copy, f, size);
    struct elf_image img;
    int rc = elf_image_from_memory(copy, size, &limits, &img, e);
    if (rc == 0) {
        assert_int_equal(img.xlen, 32);
        assert_int_equal(img.nsegments, 1);
        assert_int_equal(img.segments[0].vaddr, TEXT_AT);
        elf_image_free(&img);
    }
    return rc;
}

static void test_accepts_a_tiny_guest(void **state)
{
    (void)state;
    struct tiny_elf f = tiny_elf();
    struct error e = ERROR_INIT;
    assert_int_equal(load(&f, sizeof(f), &e), 0);
    assert_int_equal(e.status, ERROR_NONE);
}

static void test_truncated_program_headers_are_corrupt_at_their_offset(void **state)
{
    (void)state;
    struct tiny_elf f = tiny_elf();
    struct error e = ERROR_INIT;
    size_t cut = offsetof(struct tiny_elf, ph) + sizeof(Elf32_Phdr) / 2;
    assert_int_equal(load(&f, cut, &e), -1);
    assert_int_equal(e.status, ERROR_CORRUPT);
    char offset[32];
    snprintf(offset, sizeof(offset), "offset 0x%zx", offsetof(struct tiny_elf, ph));
    assert_non_null(strstr(e.msg, offset));
}

static void test_truncated_segment_is_corrupt(void **state)
{
    (void)state;
    struct tiny_elf f = tiny_elf();
    struct error e = ERROR_INIT;
    assert_int_equal(load(&f, sizeof(f) - 4, &e), -1);
    assert_int_equal(e.status, ERROR_CORRUPT);
    assert_non_null(strstr(e.msg, "past the end of the file"));
}

static void test_bad_magic_is_corrupt(void **state)
{
    (void)state;
    struct tiny_elf f = tiny_elf();
    f.eh.e_ident[EI_MAG1] = 'X';
    struct error e = ERROR_INIT;
    assert_int_equal(load(&f, sizeof(f), &e), -1);
    assert_int_equal(e.status, ERROR_CORRUPT);
    assert_string_equal(e.msg, "not an ELF file (bad magic)");
}

static void test_other_machine_is_unsupported(void **state)
{
    (void)state;
    struct tiny_elf f = tiny_elf();
    f.eh.e_machine = EM_X86_64; /* 62 */
    struct error e = ERROR_INIT;
    assert_int_equal(load(&f, sizeof(f), &e), -1);
    assert_int_equal(e.status, ERROR_UNSUPPORTED);
    assert_string_equal(e.msg, "not a RISC-V ELF (e_machine 62)");
}

static void test_missing_file_is_unreadable(void **state)
{
    (void)state;
    struct elf_image img;
    struct error e = ERROR_INIT;
    assert_int_equal(elf_image_load("/nonexistent/guest.elf", &limits, &img, &e), -1);
    assert_int_equal(e.status, ERROR_UNREADABLE);
    assert_string_equal(e.msg, "cannot open: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepts_a_tiny_guest),
        cmocka_unit_test(test_truncated_program_headers_are_corrupt_at_their_offset),
        cmocka_unit_test(test_truncated_segment_is_corrupt),
        cmocka_unit_test(test_bad_magic_is_corrupt),
        cmocka_unit_test(test_other_machine_is_unsupported),
        cmocka_unit_test(test_missing_file_is_unreadable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
