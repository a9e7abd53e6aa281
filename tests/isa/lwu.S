/* lwu: load a word, zero-extended to 64 bits (RV64 only).
 * rd = mem[rs1 + sext(imm12)]. Aligned and misaligned addresses,
 * negative and extreme offsets, an access across a page boundary,
 * read-only data and the code segment. */
#include "test_macros.h"

TEST_BEGIN

  /* Aligned, positive offsets from the buffer start. */
  TEST_LD_OP(1, lwu, 0xff7f8000, 0, tdat)
  TEST_LD_OP(2, lwu, 0x1234fe01, 4, tdat)
  TEST_LD_OP(3, lwu, 0x12345678, 8, tdat)
  TEST_LD_OP(4, lwu, 0x89abcdef, 12, tdat)
  TEST_LD_OP(5, lwu, 0x44332211, 16, tdat)
  TEST_LD_OP(6, lwu, 0x88776655, 20, tdat)
  TEST_LD_OP(7, lwu, 0xccbbaa99, 24, tdat)
  TEST_LD_OP(8, lwu, 0x7effeedd, 28, tdat)
  /* Misaligned: must work (qemu user mode does). */
  TEST_LD_OP(9, lwu, 0x1ff7f80, 1, tdat)
  TEST_LD_OP(10, lwu, 0xfe01ff7f, 2, tdat)
  TEST_LD_OP(11, lwu, 0x34fe01ff, 3, tdat)
  TEST_LD_OP(12, lwu, 0x781234fe, 5, tdat)
  TEST_LD_OP(13, lwu, 0x55443322, 17, tdat)
  TEST_LD_OP(14, lwu, 0xffeeddcc, 27, tdat)
  /* Negative offsets from the buffer end. */
  TEST_LD_OP(15, lwu, 0x7effeedd, -4, tdat + 32)
  TEST_LD_OP(16, lwu, 0xccbbaa99, -8, tdat + 32)
  TEST_LD_OP(17, lwu, 0xffeeddcc, -5, tdat + 32)
  /* The extreme 12-bit offsets. */
  TEST_LD_OP(18, lwu, 0x12345678, -2048, tdat + 2048 + 8)
  TEST_LD_OP(19, lwu, 0x1189abcd, 2047, tdat - 2047 + 13)
  /* Misaligned across a 4 KiB page boundary. */
  TEST_LD_OP(20, lwu, 0x4b3a2998, -1, page_edge)
  TEST_LD_OP(21, lwu, 0x3a299807, -2, page_edge)
  TEST_LD_OP(22, lwu, 0x299807f6, -3, page_edge)
  /* rd == rs1, and rd = x0. */
  TEST_LD_SRC1_EQ_DEST(23, lwu, 0x1234fe01, 4, tdat)
  TEST_LD_ZERODEST(24, lwu, 0, tdat + 1)
  /* From read-only data and from the code itself. */
  TEST_LD_OP(25, lwu, 0xdeadbeef, 0, rodat)
  TEST_LD_OP(26, lwu, 0x8badf00d, 4, rodat)
  TEST_LD_OP(27, lwu, 0x12300013, 0, code_word)

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

