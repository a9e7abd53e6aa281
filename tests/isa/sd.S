/* sd: store rs2, 8 bytes little endian (RV64 only) at rs1 + sext(imm12).
 * Each value is read back; neighbouring bytes must not change. Aligned
 * and misaligned addresses, across a page boundary, negative and extreme
 * offsets, rs2 = x0 and rs2 == rs1. */
#include "test_macros.h"

TEST_BEGIN

  /* Into initialised data, aligned; read back with ld. */
  TEST_ST_OP(1, ld, sd, 0xaabbccddeeff0011, 0xaabbccddeeff0011, 0, dbuf)
  TEST_ST_OP(2, ld, sd, 0x0000000000000000, 0, 8, dbuf)
  TEST_ST_OP(3, ld, sd, 0x7fffffffffffffff, 0x7fffffffffffffff, 16, dbuf)
  TEST_ST_OP(4, ld, sd, 0x8000000000000000, 0x8000000000000000, 24, dbuf)
  TEST_ST_OP(5, ld, sd, 0xffffffffffffffff, 0xffffffffffffffff, 32, dbuf)
  TEST_ST_OP(6, ld, sd, 0x0a0b0c0d0e0f1011, 0xa0b0c0d0e0f1011, 40, dbuf)
  /* Little-endian byte order, at an odd address; the bytes around it
   * keep their 0xa5. */
  TEST_NUM(7)
  la x11, dbuf + 64
  li x12, MASK_XLEN(0x8877665544332211)
  sd x12, 17(x11)
  lbu x14, 16(x11); CHECK(x14, 0xa5)
  lbu x14, 17(x11); CHECK(x14, 0x11)
  lbu x14, 18(x11); CHECK(x14, 0x22)
  lbu x14, 19(x11); CHECK(x14, 0x33)
  lbu x14, 20(x11); CHECK(x14, 0x44)
  lbu x14, 21(x11); CHECK(x14, 0x55)
  lbu x14, 22(x11); CHECK(x14, 0x66)
  lbu x14, 23(x11); CHECK(x14, 0x77)
  lbu x14, 24(x11); CHECK(x14, 0x88)
  lbu x14, 25(x11); CHECK(x14, 0xa5)
  /* Misaligned at every offset: must work (qemu user mode does). */
  TEST_ST_OP(8, ld, sd, 0x148c037af269e155, 0x148c037af269e155, 9, dbuf + 96)
  TEST_ST_OP(9, ld, sd, 0x17f5d3b18f6d4b22, 0x17f5d3b18f6d4b22, 18, dbuf + 96)
  TEST_ST_OP(10, ld, sd, 0x1b5fa3e82c70b4ef, 0x1b5fa3e82c70b4ef, 27, dbuf + 96)
  TEST_ST_OP(11, ld, sd, 0x1ec9741ec9741ebc, 0x1ec9741ec9741ebc, 36, dbuf + 96)
  TEST_ST_OP(12, ld, sd, 0x2233445566778889, 0x2233445566778889, 45, dbuf + 96)
  TEST_ST_OP(13, ld, sd, 0x259d148c037af256, 0x259d148c037af256, 54, dbuf + 96)
  TEST_ST_OP(14, ld, sd, 0x2906e4c2a07e5c23, 0x2906e4c2a07e5c23, 63, dbuf + 96)
  /* Across a 4 KiB page boundary (in .bss). */
  TEST_ST_OP(15, ld, sd, 0xf0e3d2c5b4a79689, 0xf0e3d2c5b4a79689, -1, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0x89)
  lbu x14, 0(x11); CHECK(x14, 0x96)
  TEST_ST_OP(16, ld, sd, 0xf3e0d1c6b7a4958a, 0xf3e0d1c6b7a4958a, -2, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0x95)
  lbu x14, 0(x11); CHECK(x14, 0xa4)
  TEST_ST_OP(17, ld, sd, 0xf2e1d0c7b6a5948b, 0xf2e1d0c7b6a5948b, -3, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0xa5)
  lbu x14, 0(x11); CHECK(x14, 0xb6)
  TEST_ST_OP(18, ld, sd, 0xf5e6d7c0b1a2938c, 0xf5e6d7c0b1a2938c, -4, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0xb1)
  lbu x14, 0(x11); CHECK(x14, 0xc0)
  TEST_ST_OP(19, ld, sd, 0xf4e7d6c1b0a3928d, 0xf4e7d6c1b0a3928d, -5, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0xc1)
  lbu x14, 0(x11); CHECK(x14, 0xd6)
  TEST_ST_OP(20, ld, sd, 0xf7e4d5c2b3a0918e, 0xf7e4d5c2b3a0918e, -6, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0xd5)
  lbu x14, 0(x11); CHECK(x14, 0xe4)
  TEST_ST_OP(21, ld, sd, 0xf6e5d4c3b2a1908f, 0xf6e5d4c3b2a1908f, -7, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0xe5)
  lbu x14, 0(x11); CHECK(x14, 0xf6)
  /* Negative and extreme offsets. */
  TEST_ST_OP(22, ld, sd, 0x9abcdef012345678, 0x9abcdef012345678, -8, dbuf + 128)
  TEST_ST_OP(23, ld, sd, 0x9abcdef012345679, 0x9abcdef012345679, -2048, dbuf + 2048 + 128)
  TEST_ST_OP(24, ld, sd, 0x9abcdef01234567a, 0x9abcdef01234567a, 2047, dbuf - 2047 + 136)
  /* Storing x0 stores zeros. */
  TEST_CASE(25, x14, 0, la x11, dbuf; li x14, -1; sd x0, 0(x11); ld x14, 0(x11))
  /* rs2 == rs1: the address itself is the value. */
  TEST_NUM(26)
  la x11, dbuf + 8
  sd x11, 0(x11)
  ld x14, 0(x11)
  bne x14, x11, fail      /* the address is below 2 GiB */
  /* .bss starts zeroed (past p_filesz) and takes stores. */
  TEST_LD_OP(27, ld, 0, 0, bbuf)
  TEST_ST_OP(28, ld, sd, 0x9abcdef012345678, 0x9abcdef012345678, 8, bbuf)

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

