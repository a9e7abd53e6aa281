/* ld: load a doubleword (8 bytes, RV64 only).
 * rd = mem[rs1 + sext(imm12)]. Aligned and misaligned addresses,
 * negative and extreme offsets, an access across a page boundary,
 * read-only data and the code segment. */
#include "test_macros.h"

TEST_BEGIN

  /* Aligned, positive offsets from the buffer start. */
  TEST_LD_OP(1, ld, 0x1234fe01ff7f8000, 0, tdat)
  TEST_LD_OP(2, ld, 0x89abcdef12345678, 8, tdat)
  TEST_LD_OP(3, ld, 0x8877665544332211, 16, tdat)
  TEST_LD_OP(4, ld, 0x7effeeddccbbaa99, 24, tdat)
  /* Misaligned: must work (qemu user mode does). */
  TEST_LD_OP(5, ld, 0x781234fe01ff7f80, 1, tdat)
  TEST_LD_OP(6, ld, 0x56781234fe01ff7f, 2, tdat)
  TEST_LD_OP(7, ld, 0x3456781234fe01ff, 3, tdat)
  TEST_LD_OP(8, ld, 0x123456781234fe01, 4, tdat)
  TEST_LD_OP(9, ld, 0xef123456781234fe, 5, tdat)
  TEST_LD_OP(10, ld, 0xcdef123456781234, 6, tdat)
  TEST_LD_OP(11, ld, 0xabcdef1234567812, 7, tdat)
  TEST_LD_OP(12, ld, 0x1189abcdef123456, 9, tdat)
  TEST_LD_OP(13, ld, 0x9988776655443322, 17, tdat)
  TEST_LD_OP(14, ld, 0xffeeddccbbaa9988, 23, tdat)
  /* Negative offsets from the buffer end. */
  TEST_LD_OP(15, ld, 0x7effeeddccbbaa99, -8, tdat + 32)
  TEST_LD_OP(16, ld, 0x8877665544332211, -16, tdat + 32)
  TEST_LD_OP(17, ld, 0xffeeddccbbaa9988, -9, tdat + 32)
  /* The extreme 12-bit offsets. */
  TEST_LD_OP(18, ld, 0x89abcdef12345678, -2048, tdat + 2048 + 8)
  TEST_LD_OP(19, ld, 0x554433221189abcd, 2047, tdat - 2047 + 13)
  /* Misaligned across a 4 KiB page boundary. */
  TEST_LD_OP(20, ld, 0x8f7e6d5c4b3a2998, -1, page_edge)
  TEST_LD_OP(21, ld, 0x7e6d5c4b3a299807, -2, page_edge)
  TEST_LD_OP(22, ld, 0x6d5c4b3a299807f6, -3, page_edge)
  TEST_LD_OP(23, ld, 0x5c4b3a299807f6e5, -4, page_edge)
  TEST_LD_OP(24, ld, 0x4b3a299807f6e5d4, -5, page_edge)
  TEST_LD_OP(25, ld, 0x3a299807f6e5d4c3, -6, page_edge)
  TEST_LD_OP(26, ld, 0x299807f6e5d4c3b2, -7, page_edge)
  /* rd == rs1, and rd = x0. */
  TEST_LD_SRC1_EQ_DEST(27, ld, 0x123456781234fe01, 4, tdat)
  TEST_LD_ZERODEST(28, ld, 0, tdat + 1)
  /* From read-only data and from the code itself. */
  TEST_LD_OP(29, ld, 0x8badf00ddeadbeef, 0, rodat)
  TEST_LD_OP(30, ld, 0x8badf00ddeadbeef, 0, rodat)
  TEST_LD_OP(31, ld, 0x1312300013, 0, code_word)

  j 1f
  .option push
  .option norvc           /* 4-byte words in the build with C too */
code_word:
  addi x0, x0, 0x123      /* 0x12300013, never reached as code here */
  nop
  .option pop
1:

TEST_END

  .section .rodata
  .balign 8
rodat:
  .byte 0xef, 0xbe, 0xad, 0xde, 0x0d, 0xf0, 0xad, 0x8b

  .data
  .balign 16
tdat:
  .byte 0x00, 0x80, 0x7f, 0xff, 0x01, 0xfe, 0x34, 0x12
  .byte 0x78, 0x56, 0x34, 0x12, 0xef, 0xcd, 0xab, 0x89
  .byte 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88
  .byte 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x7e

  /* 8 bytes at the end of one page, 8 at the start of the next. */
  .balign 4096
  .skip 4096 - 8
page_edge_below:
  .byte 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6, 0x07, 0x98
page_edge:
  .byte 0x29, 0x3a, 0x4b, 0x5c, 0x6d, 0x7e, 0x8f, 0x90

