/* lb: load a byte, sign-extended to XLEN.
 * rd = mem[rs1 + sext(imm12)]. Aligned and misaligned addresses,
 * negative and extreme offsets, an access across a page boundary,
 * read-only data and the code segment. */
#include "test_macros.h"

TEST_BEGIN

  /* Aligned, positive offsets from the buffer start. */
  TEST_LD_OP(1, lb, 0, 0, tdat)
  TEST_LD_OP(2, lb, SEXT8(0x80), 1, tdat)
  TEST_LD_OP(3, lb, 0x7f, 2, tdat)
  TEST_LD_OP(4, lb, SEXT8(0xff), 3, tdat)
  TEST_LD_OP(5, lb, 1, 4, tdat)
  TEST_LD_OP(6, lb, SEXT8(0xfe), 5, tdat)
  TEST_LD_OP(7, lb, 0x34, 6, tdat)
  TEST_LD_OP(8, lb, 0x12, 7, tdat)
  TEST_LD_OP(9, lb, 0x78, 8, tdat)
  TEST_LD_OP(10, lb, 0x56, 9, tdat)
  TEST_LD_OP(11, lb, 0x34, 10, tdat)
  TEST_LD_OP(12, lb, 0x12, 11, tdat)
  TEST_LD_OP(13, lb, SEXT8(0xef), 12, tdat)
  TEST_LD_OP(14, lb, SEXT8(0xcd), 13, tdat)
  TEST_LD_OP(15, lb, SEXT8(0xab), 14, tdat)
  TEST_LD_OP(16, lb, SEXT8(0x89), 15, tdat)
  TEST_LD_OP(17, lb, 0x11, 16, tdat)
  TEST_LD_OP(18, lb, 0x22, 17, tdat)
  TEST_LD_OP(19, lb, 0x33, 18, tdat)
  TEST_LD_OP(20, lb, 0x44, 19, tdat)
  TEST_LD_OP(21, lb, 0x55, 20, tdat)
  TEST_LD_OP(22, lb, 0x66, 21, tdat)
  TEST_LD_OP(23, lb, 0x77, 22, tdat)
  TEST_LD_OP(24, lb, SEXT8(0x88), 23, tdat)
  TEST_LD_OP(25, lb, SEXT8(0x99), 24, tdat)
  TEST_LD_OP(26, lb, SEXT8(0xaa), 25, tdat)
  TEST_LD_OP(27, lb, SEXT8(0xbb), 26, tdat)
  TEST_LD_OP(28, lb, SEXT8(0xcc), 27, tdat)
  TEST_LD_OP(29, lb, SEXT8(0xdd), 28, tdat)
  TEST_LD_OP(30, lb, SEXT8(0xee), 29, tdat)
  TEST_LD_OP(31, lb, SEXT8(0xff), 30, tdat)
  TEST_LD_OP(32, lb, 0x7e, 31, tdat)
  /* Negative offsets from the buffer end. */
  TEST_LD_OP(33, lb, 0x7e, -1, tdat + 32)
  TEST_LD_OP(34, lb, SEXT8(0xff), -2, tdat + 32)
  TEST_LD_OP(35, lb, SEXT8(0xee), -3, tdat + 32)
  TEST_LD_OP(36, lb, SEXT8(0xdd), -4, tdat + 32)
  /* The extreme 12-bit offsets. */
  TEST_LD_OP(37, lb, 0x78, -2048, tdat + 2048 + 8)
  TEST_LD_OP(38, lb, SEXT8(0xef), 2047, tdat - 2047 + 12)
  /* rd == rs1, and rd = x0. */
  TEST_LD_SRC1_EQ_DEST(39, lb, 1, 4, tdat)
  TEST_LD_ZERODEST(40, lb, 0, tdat + 1)
  /* From read-only data and from the code itself. */
  TEST_LD_OP(41, lb, SEXT8(0xef), 0, rodat)
  TEST_LD_OP(42, lb, SEXT8(0x8b), 7, rodat)
  TEST_LD_OP(43, lb, 0x13, 0, code_word)

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

