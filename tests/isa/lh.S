/* lh: load a halfword (2 bytes, little endian), sign-extended.
 * rd = mem[rs1 + sext(imm12)]. Aligned and misaligned addresses,
 * negative and extreme offsets, an access across a page boundary,
 * read-only data and the code segment. */
#include "test_macros.h"

TEST_BEGIN

  /* Aligned, positive offsets from the buffer start. */
  TEST_LD_OP(1, lh, SEXT16(0x8000), 0, tdat)
  TEST_LD_OP(2, lh, SEXT16(0xff7f), 2, tdat)
  TEST_LD_OP(3, lh, SEXT16(0xfe01), 4, tdat)
  TEST_LD_OP(4, lh, 0x1234, 6, tdat)
  TEST_LD_OP(5, lh, 0x5678, 8, tdat)
  TEST_LD_OP(6, lh, 0x1234, 10, tdat)
  TEST_LD_OP(7, lh, SEXT16(0xcdef), 12, tdat)
  TEST_LD_OP(8, lh, SEXT16(0x89ab), 14, tdat)
  TEST_LD_OP(9, lh, 0x2211, 16, tdat)
  TEST_LD_OP(10, lh, 0x4433, 18, tdat)
  TEST_LD_OP(11, lh, 0x6655, 20, tdat)
  TEST_LD_OP(12, lh, SEXT16(0x8877), 22, tdat)
  TEST_LD_OP(13, lh, SEXT16(0xaa99), 24, tdat)
  TEST_LD_OP(14, lh, SEXT16(0xccbb), 26, tdat)
  TEST_LD_OP(15, lh, SEXT16(0xeedd), 28, tdat)
  TEST_LD_OP(16, lh, 0x7eff, 30, tdat)
  /* Misaligned: must work (qemu user mode does). */
  TEST_LD_OP(17, lh, 0x7f80, 1, tdat)
  TEST_LD_OP(18, lh, 0x1ff, 3, tdat)
  TEST_LD_OP(19, lh, 0x34fe, 5, tdat)
  TEST_LD_OP(20, lh, 0x7812, 7, tdat)
  TEST_LD_OP(21, lh, 0x3456, 9, tdat)
  TEST_LD_OP(22, lh, SEXT16(0xef12), 11, tdat)
  TEST_LD_OP(23, lh, SEXT16(0xabcd), 13, tdat)
  TEST_LD_OP(24, lh, 0x1189, 15, tdat)
  TEST_LD_OP(25, lh, 0x3322, 17, tdat)
  TEST_LD_OP(26, lh, 0x5544, 19, tdat)
  TEST_LD_OP(27, lh, 0x7766, 21, tdat)
  TEST_LD_OP(28, lh, SEXT16(0x9988), 23, tdat)
  TEST_LD_OP(29, lh, SEXT16(0xbbaa), 25, tdat)
  TEST_LD_OP(30, lh, SEXT16(0xddcc), 27, tdat)
  TEST_LD_OP(31, lh, SEXT16(0xffee), 29, tdat)
  /* Negative offsets from the buffer end. */
  TEST_LD_OP(32, lh, 0x7eff, -2, tdat + 32)
  TEST_LD_OP(33, lh, SEXT16(0xeedd), -4, tdat + 32)
  TEST_LD_OP(34, lh, SEXT16(0xffee), -3, tdat + 32)
  /* The extreme 12-bit offsets. */
  TEST_LD_OP(35, lh, 0x5678, -2048, tdat + 2048 + 8)
  TEST_LD_OP(36, lh, SEXT16(0xabcd), 2047, tdat - 2047 + 13)
  /* Misaligned across a 4 KiB page boundary. */
  TEST_LD_OP(37, lh, 0x2998, -1, page_edge)
  /* rd == rs1, and rd = x0. */
  TEST_LD_SRC1_EQ_DEST(38, lh, SEXT16(0xfe01), 4, tdat)
  TEST_LD_ZERODEST(39, lh, 0, tdat + 1)
  /* From read-only data and from the code itself. */
  TEST_LD_OP(40, lh, SEXT16(0xbeef), 0, rodat)
  TEST_LD_OP(41, lh, SEXT16(0x8bad), 6, rodat)
  TEST_LD_OP(42, lh, 0x13, 0, code_word)

  j 1f
code_word:
  addi x0, x0, 0x123      /* 0x12300013, never reached as code here */
  nop
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

