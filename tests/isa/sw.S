/* sw: store the low 32 bits of rs2 (little endian) at rs1 + sext(imm12).
 * Each value is read back; neighbouring bytes must not change. Aligned
 * and misaligned addresses, across a page boundary, negative and extreme
 * offsets, rs2 = x0 and rs2 == rs1. */
#include "test_macros.h"

TEST_BEGIN

  /* Into initialised data, aligned; read back with lw. */
  TEST_ST_OP(1, lw, sw, SEXT32(0xaabbccdd), SEXT32(0xaabbccdd), 0, dbuf)
  TEST_ST_OP(2, lw, sw, 0, 0, 4, dbuf)
  TEST_ST_OP(3, lw, sw, 0x7fffffff, 0x7fffffff, 8, dbuf)
  TEST_ST_OP(4, lw, sw, SEXT32(0x80000000), SEXT32(0x80000000), 12, dbuf)
  TEST_ST_OP(5, lw, sw, SEXT32(0xffffffff), SEXT32(0xffffffff), 16, dbuf)
  TEST_ST_OP(6, lw, sw, 0xa0b0c0d, 0xa0b0c0d, 20, dbuf)
#if __riscv_xlen == 64
  /* Read back zero-extended. */
  TEST_ST_OP(7, lwu, sw, 0x80000000, SEXT32(0x80000000), 12, dbuf)
  TEST_ST_OP(8, lwu, sw, 0xffffffff, SEXT32(0xffffffff), 16, dbuf)
#endif
  /* Only the low 32 bits of rs2 are stored. */
#if __riscv_xlen == 64
  TEST_ST_OP(9, lw, sw, SEXT32(0x9abcdef0), 0x123456789abcdef0, 0, dbuf + 48)
  TEST_ST_OP(10, lwu, sw, 0, 0xffffffff00000000, 4, dbuf + 48)
#else
  TEST_ST_OP(9, lw, sw, SEXT32(0x9abcdef0), 0x9abcdef0, 0, dbuf + 48)
  TEST_ST_OP(10, lw, sw, SEXT32(0x80000001), 0x80000001, 4, dbuf + 48)
#endif
  /* Little-endian byte order, at an odd address; the bytes around it
   * keep their 0xa5. */
  TEST_NUM(11)
  la x11, dbuf + 64
  li x12, MASK_XLEN(0x44332211)
  sw x12, 17(x11)
  lbu x14, 16(x11); CHECK(x14, 0xa5)
  lbu x14, 17(x11); CHECK(x14, 0x11)
  lbu x14, 18(x11); CHECK(x14, 0x22)
  lbu x14, 19(x11); CHECK(x14, 0x33)
  lbu x14, 20(x11); CHECK(x14, 0x44)
  lbu x14, 21(x11); CHECK(x14, 0xa5)
  /* Misaligned at every offset: must work (qemu user mode does). */
  TEST_ST_OP(12, lw, sw, SEXT32(0xf269e155), SEXT32(0xf269e155), 9, dbuf + 96)
  TEST_ST_OP(13, lw, sw, SEXT32(0x8f6d4b22), SEXT32(0x8f6d4b22), 18, dbuf + 96)
  TEST_ST_OP(14, lw, sw, 0x2c70b4ef, 0x2c70b4ef, 27, dbuf + 96)
  /* Across a 4 KiB page boundary (in .bss). */
  TEST_ST_OP(15, lw, sw, SEXT32(0xb4a79689), SEXT32(0xb4a79689), -1, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0x89)
  lbu x14, 0(x11); CHECK(x14, 0x96)
  TEST_ST_OP(16, lw, sw, SEXT32(0xb7a4958a), SEXT32(0xb7a4958a), -2, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0x95)
  lbu x14, 0(x11); CHECK(x14, 0xa4)
  TEST_ST_OP(17, lw, sw, SEXT32(0xb6a5948b), SEXT32(0xb6a5948b), -3, page_edge)
  la x11, page_edge
  lbu x14, -1(x11); CHECK(x14, 0xa5)
  lbu x14, 0(x11); CHECK(x14, 0xb6)
  /* Negative and extreme offsets. */
  TEST_ST_OP(18, lw, sw, SEXT32(0x9abcdef0), SEXT32(0x9abcdef0), -4, dbuf + 128)
  TEST_ST_OP(19, lw, sw, SEXT32(0x9abcdef1), SEXT32(0x9abcdef1), -2048, dbuf + 2048 + 128)
  TEST_ST_OP(20, lw, sw, SEXT32(0x9abcdef2), SEXT32(0x9abcdef2), 2047, dbuf - 2047 + 136)
  /* Storing x0 stores zeros. */
  TEST_CASE(21, x14, 0, la x11, dbuf; li x14, -1; sw x0, 0(x11); lw x14, 0(x11))
  /* rs2 == rs1: the address itself is the value. */
  TEST_NUM(22)
  la x11, dbuf + 8
  sw x11, 0(x11)
  lw x14, 0(x11)
  bne x14, x11, fail      /* the address is below 2 GiB */
  /* .bss starts zeroed (past p_filesz) and takes stores. */
  TEST_LD_OP(23, lw, 0, 0, bbuf)
  TEST_ST_OP(24, lw, sw, SEXT32(0x9abcdef0), SEXT32(0x9abcdef0), 8, bbuf)

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

