/* sh: store the low 16 bits of rs2 (little endian) at rs1 + sext(imm12).
 * Each value is read back; neighbouring bytes must not change. Aligned
 * and misaligned addresses, across a page boundary, negative and extreme
 * offsets, rs2 = x0 and rs2 == rs1. */
#include "test_macros.h"

TEST_BEGIN

  /* Into initialised data, aligned; read back with lh. */
  TEST_ST_OP(1, lh, sh, SEXT16(0xaabb), SEXT16(0xaabb), 0, dbuf)
  TEST_ST_OP(2, lh, sh, 0, 0, 2, dbuf)
  TEST_ST_OP(3, lh, sh, 0x7fff, 0x7fff, 4, dbuf)
  TEST_ST_OP(4, lh, sh, SEXT16(0x8000), SEXT16(0x8000), 6, dbuf)
  TEST_ST_OP(5, lh, sh, SEXT16(0xffff), SEXT16(0xffff), 8, dbuf)
  TEST_ST_OP(6, lh, sh, SEXT16(0xa55a), SEXT16(0xa55a), 10, dbuf)
  /* Read back zero-extended. */
  TEST_ST_OP(7, lhu, sh, 0x8000, SEXT16(0x8000), 6, dbuf)
  TEST_ST_OP(8, lhu, sh, 0xffff, SEXT16(0xffff), 8, dbuf)
  /* Only the low 16 bits of rs2 are stored. */
  TEST_ST_OP(9, lhu, sh, 0x5678, 0x12345678, 0, dbuf + 48)
  TEST_ST_OP(10, lhu, sh, 0xffff, -1, 2, dbuf + 48)
  TEST_ST_OP(11, lh, sh, SEXT16(0xa980), -0x12345680, 4, dbuf + 48)
  /* Little-endian byte order, at an odd address; the bytes around it
   * keep their 0xa5. */
  TEST_NUM(12)
  la x11, dbuf + 64
  li x12, MASK_XLEN(0x2211)
  sh x12, 17(x11)
  lbu x14, 16(x11); CHECK(x14, 0xa5)
  lbu x14, 17(x11); CHECK(x14, 0x11)
  lbu x14, 18(x11); CHECK(x14, 0x22)
  lbu x14, 19(x11); CHECK(x14, 0xa5)
  /* Misaligned at every offset: must work (qemu user mode does). */
  TEST_ST_OP(13, lh, sh, SEXT16(0xe155), SEXT16(0xe155), 9, dbuf + 96)
  /* Across a 4 KiB page boundary (in .bss). */
  TEST_ST_OP(14, lh, sh, SEXT16(0x9689), SEXT16(0x9689), -1, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0x89)
  lbu x14, 0(x11); CHECK(x14, 0x96)
  /* Negative and extreme offsets. */
  TEST_ST_OP(15, lh, sh, SEXT16(0x9abc), SEXT16(0x9abc), -2, dbuf + 128)
  TEST_ST_OP(16, lh, sh, SEXT16(0x9abd), SEXT16(0x9abd), -2048, dbuf + 2048 + 128)
  TEST_ST_OP(17, lh, sh, SEXT16(0x9abe), SEXT16(0x9abe), 2047, dbuf - 2047 + 136)
  /* Storing x0 stores zeros. */
  TEST_CASE(18, x14, 0, la x11, dbuf; li x14, -1; sh x0, 0(x11); lh x14, 0(x11))
  /* rs2 == rs1: the address itself is the value. */
  TEST_NUM(19)
  la x11, dbuf + 8
  sh x11, 0(x11)
  lhu x14, 0(x11)
  li x15, 0xffff
  and x15, x11, x15
  bne x14, x15, fail
  /* .bss starts zeroed (past p_filesz) and takes stores. */
  TEST_LD_OP(20, lh, 0, 0, bbuf)
  TEST_ST_OP(21, lh, sh, SEXT16(0x9abc), SEXT16(0x9abc), 8, bbuf)

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

