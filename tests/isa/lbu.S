/* lbu: load a byte, zero-extended.
 * rd = mem[rs1 + sext(imm12)]. Aligned and misaligned addresses,
 * negative and extreme offsets, an access across a page boundary,
 * read-only data and the code segment. */
#include "test_macros.h"

TEST_BEGIN

  /* Aligned, positive offsets from the buffer start. */
  TEST_LD_OP(1, lbu, 0, 0, tdat)
  TEST_LD_OP(2, lbu, 0x80, 1, tdat)
  TEST_LD_OP(3, lbu, 0x7f, 2, tdat)
  TEST_LD_OP(4, lbu, 0xff, 3, tdat)
  TEST_LD_OP(5, lbu, 1, 4, tdat)
  TEST_LD_OP(6, lbu, 0xfe, 5, tdat)
  TEST_LD_OP(7, lbu, 0x34, 6, tdat)
  TEST_LD_OP(8, lbu, 0x12, 7, tdat)
  TEST_LD_OP(9, lbu, 0x78, 8, tdat)
  TEST_LD_OP(10, lbu, 0x56, 9, tdat)
  TEST_LD_OP(11, lbu, 0x34, 10, tdat)
  TEST_LD_OP(12, lbu, 0x12, 11, tdat)
  TEST_LD_OP(13, lbu, 0xef, 12, tdat)
  TEST_LD_OP(14, lbu, 0xcd, 13, tdat)
  TEST_LD_OP(15, lbu, 0xab, 14, tdat)
  TEST_LD_OP(16, lbu, 0x89, 15, tdat)
  TEST_LD_OP(17, lbu, 0x11, 16, tdat)
  TEST_LD_OP(18, lbu, 0x22, 17, tdat)
  TEST_LD_OP(19, lbu, 0x33, 18, tdat)
  TEST_LD_OP(20, lbu, 0x44, 19, tdat)
  TEST_LD_OP(21, lbu, 0x55, 20, tdat)
  TEST_LD_OP(22, lbu, 0x66, 21, tdat)
  TEST_LD_OP(23, lbu, 0x77, 22, tdat)
  TEST_LD_OP(24, lbu, 0x88, 23, tdat)
  TEST_LD_OP(25, lbu, 0x99, 24, tdat)
  TEST_LD_OP(26, lbu, 0xaa, 25, tdat)
  TEST_LD_OP(27, lbu, 0xbb, 26, tdat)
  TEST_LD_OP(28, lbu, 0xcc, 27, tdat)
  TEST_LD_OP(29, lbu, 0xdd, 28, tdat)
  TEST_LD_OP(30, lbu, 0xee, 29, tdat)
  TEST_LD_OP(31, lbu, 0xff, 30, tdat)
  TEST_LD_OP(32, lbu, 0x7e, 31, tdat)
  /* Negative offsets from the buffer end. */
  TEST_LD_OP(33, lbu, 0x7e, -1, tdat + 32)
  TEST_LD_OP(34, lbu, 0xff, -2, tdat + 32)
  TEST_LD_OP(35, lbu, 0xee, -3, tdat + 32)
  TEST_LD_OP(36, lbu, 0xdd, -4, tdat + 32)
  /* The extreme 12-bit offsets. */
  TEST_LD_OP(37, lbu, 0x78, -2048, tdat + 2048 + 8)
  TEST_LD_OP(38, lbu, 0xef, 2047, tdat - 2047 + 12)
  /* rd == rs1, and rd = x0. */
  TEST_LD_SRC1_EQ_DEST(39, lbu, 1, 4, tdat)
  TEST_LD_ZERODEST(40, lbu, 0, tdat + 1)
  /* From read-only data and from the code itself. */
  TEST_LD_OP(41, lbu, 0xef, 0, rodat)
  TEST_LD_OP(42, lbu, 0x8b, 7, rodat)
  TEST_LD_OP(43, lbu, 0x13, 0, code_word)

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

