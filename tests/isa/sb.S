/* sb: store the low 8 bits of rs2 at rs1 + sext(imm12).
 * Each value is read back; neighbouring bytes must not change. Aligned
 * and misaligned addresses, across a page boundary, negative and extreme
 * offsets, rs2 = x0 and rs2 == rs1. */
#include "test_macros.h"

TEST_BEGIN

  /* Into initialised data, aligned; read back with lb. */
  TEST_ST_OP(1, lb, sb, SEXT8(0xaa), SEXT8(0xaa), 0, dbuf)
  TEST_ST_OP(2, lb, sb, 0, 0, 1, dbuf)
  TEST_ST_OP(3, lb, sb, 0x7f, 0x7f, 2, dbuf)
  TEST_ST_OP(4, lb, sb, SEXT8(0x80), SEXT8(0x80), 3, dbuf)
  TEST_ST_OP(5, lb, sb, SEXT8(0xff), SEXT8(0xff), 4, dbuf)
  TEST_ST_OP(6, lb, sb, 0x5a, 0x5a, 5, dbuf)
  /* Read back zero-extended. */
  TEST_ST_OP(7, lbu, sb, 0x80, SEXT8(0x80), 3, dbuf)
  TEST_ST_OP(8, lbu, sb, 0xff, SEXT8(0xff), 4, dbuf)
  /* Only the low 8 bits of rs2 are stored. */
  TEST_ST_OP(9, lbu, sb, 0x78, 0x12345678, 0, dbuf + 48)
  TEST_ST_OP(10, lbu, sb, 0xff, -1, 2, dbuf + 48)
  TEST_ST_OP(11, lb, sb, SEXT8(0x80), -0x12345680, 4, dbuf + 48)
  /* Little-endian byte order, at an odd address; the bytes around it
   * keep their 0xa5. */
  TEST_NUM(12)
  la x11, dbuf + 64
  li x12, MASK_XLEN(0x11)
  sb x12, 17(x11)
  lbu x14, 16(x11); CHECK(x14, 0xa5)
  lbu x14, 17(x11); CHECK(x14, 0x11)
  lbu x14, 18(x11); CHECK(x14, 0xa5)
  /* Negative and extreme offsets. */
  TEST_ST_OP(13, lb, sb, SEXT8(0x9a), SEXT8(0x9a), -1, dbuf + 128)
  TEST_ST_OP(14, lb, sb, SEXT8(0x9b), SEXT8(0x9b), -2048, dbuf + 2048 + 128)
  TEST_ST_OP(15, lb, sb, SEXT8(0x98), SEXT8(0x98), 2047, dbuf - 2047 + 136)
  /* Storing x0 stores zeros. */
  TEST_CASE(16, x14, 0, la x11, dbuf; li x14, -1; sb x0, 0(x11); lb x14, 0(x11))
  /* rs2 == rs1: the address itself is the value. */
  TEST_NUM(17)
  la x11, dbuf + 8
  sb x11, 0(x11)
  lbu x14, 0(x11)
  li x15, 0xff
  and x15, x11, x15
  bne x14, x15, fail
  /* .bss starts zeroed (past p_filesz) and takes stores. */
  TEST_LD_OP(18, lb, 0, 0, bbuf)
  TEST_ST_OP(19, lb, sb, SEXT8(0x9a), SEXT8(0x9a), 8, bbuf)

TEST_END

  .data
  .balign 16
  /* 64 bytes of 0xa5 around the buffer, to catch stray writes. */
  .fill 64, 1, 0xa5
dbuf:
  .fill 256, 1, 0xa5

  .bss
  .balign 16
bbuf:
  .skip 64
  .balign 4096
  .skip 4096
page_edge:
  .skip 16

