/* sub: rd = rs1 - rs2, wrapping modulo 2^XLEN. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, sub, 0, 0, 0)
  TEST_RR_OP(2, sub, 0, 1, 1)
  TEST_RR_OP(3, sub, -4, 3, 7)
  TEST_RR_OP(4, sub, 4, 7, 3)
  TEST_RR_OP(5, sub, -1, 0, 1)
  TEST_RR_OP(6, sub, 1, 0, -1)
  TEST_RR_OP(7, sub, 0, -1, -1)
  TEST_RR_OP(8, sub, XMAX, XMIN, 1)          /* signed overflow wraps */
  TEST_RR_OP(9, sub, XMIN, XMAX, -1)
  TEST_RR_OP(10, sub, XMIN, 0, XMIN)         /* -MIN == MIN */
  TEST_RR_OP(11, sub, -1, XMAX, XMIN)
  TEST_RR_OP(12, sub, 0x7fff8000, 0x7fffffff, 0x7fff)
#if __riscv_xlen == 64
  /* No 32-bit wrap on RV64. */
  TEST_RR_OP(13, sub, -0x80000001, -0x80000000, 1)
  TEST_RR_OP(14, sub, 0x00000000ffffffff, 0x0000000100000000, 1)
  TEST_RR_OP(15, sub, 0x0123456789abcdef - 0x7edcba9876543210, 0x0123456789abcdef, 0x7edcba9876543210)
#else
  TEST_RR_OP(13, sub, 0x7fffffff, -0x80000000, 1)
  TEST_RR_OP(14, sub, -1, 0, 1)
  TEST_RR_OP(15, sub, 0x89abcdef - 0x76543210, 0x89abcdef, 0x76543210)
#endif

  TEST_RR_SRC1_EQ_DEST(20, sub, 2, 13, 11)
  TEST_RR_SRC2_EQ_DEST(21, sub, 3, 14, 11)
  TEST_RR_SRC12_EQ_DEST(22, sub, 0, 13)
  TEST_RR_SRC12_SAME(23, sub, 0, -1)
  TEST_RR_ZEROSRC1(24, sub, -15, 15)
  TEST_RR_ZEROSRC2(25, sub, 32, 32)
  TEST_RR_ZEROSRC12(26, sub, 0)
  TEST_RR_ZERODEST(27, sub, 16, 30)

  /* Every register number but sp, gp and t2 as rd, rs1 and rs2, with
   * the operand order mattering: x(k) = x(k-2) - x(k-1). */
  TEST_NUM(30)
  li x1, 0
  li x4, 1
  sub x5, x1, x4
  sub x6, x4, x5
  sub x8, x5, x6
  sub x9, x6, x8
  sub x10, x8, x9
  sub x11, x9, x10
  sub x12, x10, x11
  sub x13, x11, x12
  sub x14, x12, x13
  sub x15, x13, x14
  sub x16, x14, x15
  sub x17, x15, x16
  sub x18, x16, x17
  sub x19, x17, x18
  sub x20, x18, x19
  sub x21, x19, x20
  sub x22, x20, x21
  sub x23, x21, x22
  sub x24, x22, x23
  sub x25, x23, x24
  sub x26, x24, x25
  sub x27, x25, x26
  sub x28, x26, x27
  sub x29, x27, x28
  sub x30, x28, x29
  sub x31, x29, x30
  CHECK(x31, 196418)
  CHECK(x30, -121393)
  CHECK(x16, -144)
  CHECK(x15, 89)
  CHECK(x8, -3)
  CHECK(x6, 2)
  CHECK(x5, -1)
  CHECK(x4, 1)
  CHECK(x1, 0)

TEST_END
