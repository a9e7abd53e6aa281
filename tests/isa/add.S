/* add: rd = rs1 + rs2, wrapping modulo 2^XLEN. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, add, 0, 0, 0)
  TEST_RR_OP(2, add, 2, 1, 1)
  TEST_RR_OP(3, add, 10, 3, 7)
  TEST_RR_OP(4, add, -1, 0, -1)
  TEST_RR_OP(5, add, -2, -1, -1)
  TEST_RR_OP(6, add, 0, -1, 1)
  TEST_RR_OP(7, add, -0x7fff, -0x8000, 1)
  TEST_RR_OP(8, add, XMIN, XMAX, 1)          /* signed overflow wraps */
  TEST_RR_OP(9, add, XMAX, XMIN, -1)
  TEST_RR_OP(10, add, -2, XMAX, XMAX)
  TEST_RR_OP(11, add, 0, XMIN, XMIN)
  TEST_RR_OP(12, add, 0x00000000ffffffff, 0x7fffffff, 0x80000000)
#if __riscv_xlen == 64
  /* No 32-bit wrap on RV64. */
  TEST_RR_OP(13, add, 0x0000000080000000, 0x7fffffff, 1)
  TEST_RR_OP(14, add, 0x0000000100000000, 0xffffffff, 1)
  TEST_RR_OP(15, add, 0x123456789abcdef0 + 0x0fedcba987654321, 0x123456789abcdef0, 0x0fedcba987654321)
#else
  TEST_RR_OP(13, add, -0x80000000, 0x7fffffff, 1)
  TEST_RR_OP(14, add, 0, 0xffffffff, 1)
  TEST_RR_OP(15, add, 0x9abcdef0 + 0x87654321, 0x9abcdef0, 0x87654321)
#endif

  TEST_RR_SRC1_EQ_DEST(20, add, 24, 13, 11)
  TEST_RR_SRC2_EQ_DEST(21, add, 25, 14, 11)
  TEST_RR_SRC12_EQ_DEST(22, add, 26, 13)
  TEST_RR_SRC12_SAME(23, add, -2, -1)
  TEST_RR_ZEROSRC1(24, add, 15, 15)
  TEST_RR_ZEROSRC2(25, add, 32, 32)
  TEST_RR_ZEROSRC12(26, add, 0)
  TEST_RR_ZERODEST(27, add, 16, 30)

  /* Every register number but sp, gp and t2 as rd, rs1 and rs2: a
   * Fibonacci chain x1, x4, x5, x6, x8, ..., x31. */
  TEST_NUM(30)
  li x1, 1
  li x4, 2
  add x5, x4, x1
  add x6, x5, x4
  add x8, x6, x5
  add x9, x8, x6
  add x10, x9, x8
  add x11, x10, x9
  add x12, x11, x10
  add x13, x12, x11
  add x14, x13, x12
  add x15, x14, x13
  add x16, x15, x14
  add x17, x16, x15
  add x18, x17, x16
  add x19, x18, x17
  add x20, x19, x18
  add x21, x20, x19
  add x22, x21, x20
  add x23, x22, x21
  add x24, x23, x22
  add x25, x24, x23
  add x26, x25, x24
  add x27, x26, x25
  add x28, x27, x26
  add x29, x28, x27
  add x30, x29, x28
  add x31, x30, x29
  CHECK(x31, 514229)
  CHECK(x30, 317811)
  CHECK(x16, 377)
  CHECK(x15, 233)
  CHECK(x8, 8)
  CHECK(x6, 5)
  CHECK(x5, 3)
  CHECK(x4, 2)
  CHECK(x1, 1)

TEST_END
