/* remu: rd = rs1 % rs2, unsigned. x % 0 = x. */
#include "test_macros.h"

TEST_BEGIN

#if __riscv_xlen == 64
  TEST_RR_OP(1, remu, 2, 20, 6)
  TEST_RR_OP(2, remu, 2, -20, 6)
  TEST_RR_OP(3, remu, 20, 20, -6)
  TEST_RR_OP(4, remu, -20, -20, -6)
  TEST_RR_OP(5, remu, 0, 0, 5)
  TEST_RR_OP(6, remu, 5, 5, 7)
  TEST_RR_OP(7, remu, 4, -5, 7)
  TEST_RR_OP(8, remu, 0, 7, 7)
  TEST_RR_OP(9, remu, 1, -7, 2)
  TEST_RR_OP(10, remu, 7, 7, -2)
  TEST_RR_OP(11, remu, 0, -1, -1)
  TEST_RR_OP(12, remu, 0, -1, 1)
  TEST_RR_OP(13, remu, 1, 1, -1)
  TEST_RR_OP(14, remu, 0, 0x8000000000000000, 1)
  TEST_RR_OP(15, remu, 0x8000000000000000, 0x8000000000000000, -1)
  TEST_RR_OP(16, remu, 0, 0x8000000000000000, 2)
  TEST_RR_OP(17, remu, 0x8000000000000000, 0x8000000000000000, -2)
  TEST_RR_OP(18, remu, 0, 0x8000000000000000, 0x8000000000000000)
  TEST_RR_OP(19, remu, 0x7fffffffffffffff, 0x7fffffffffffffff, -1)
  TEST_RR_OP(20, remu, 0x7fffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_RR_OP(21, remu, 1, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_RR_OP(22, remu, 0x7fffffffffffffff, -1, 0x8000000000000000)
  TEST_RR_OP(23, remu, 1, 1, 0)  /* by zero */
  TEST_RR_OP(24, remu, 0, 0, 0)  /* by zero */
  TEST_RR_OP(25, remu, -1, -1, 0)  /* by zero */
  TEST_RR_OP(26, remu, 0x8000000000000000, 0x8000000000000000, 0)  /* by zero */
  TEST_RR_OP(27, remu, 0x7fffffffffffffff, 0x7fffffffffffffff, 0)  /* by zero */
  TEST_RR_OP(28, remu, 3496, 0x0000000012345678, 0x0000000000001234)
  TEST_RR_OP(29, remu, 2160, 0xffffffffedcba988, 0x0000000000001234)
  TEST_RR_OP(30, remu, 0x0000000080000000, 0x0000000080000000, -1)
  TEST_RR_OP(31, remu, 0xffffffff80000000, 0xffffffff80000000, -1)
  TEST_RR_OP(32, remu, 0x0000000089abcdef, 0x0123456789abcdef, 0x0000000100000000)
  TEST_RR_OP(33, remu, 0x0000000000003211, 0xfedcba9876543211, 0x0000000000010000)
  TEST_RR_OP(34, remu, 0x0000000080000001, 0x8000000000000001, 0x00000000ffffffff)
  TEST_RR_OP(35, remu, 0x000000007fffffff, 0x7fffffffffffffff, 0x0000000080000000)
#else
  TEST_RR_OP(1, remu, 2, 20, 6)
  TEST_RR_OP(2, remu, 2, -20, 6)
  TEST_RR_OP(3, remu, 20, 20, -6)
  TEST_RR_OP(4, remu, -20, -20, -6)
  TEST_RR_OP(5, remu, 0, 0, 5)
  TEST_RR_OP(6, remu, 5, 5, 7)
  TEST_RR_OP(7, remu, 6, -5, 7)
  TEST_RR_OP(8, remu, 0, 7, 7)
  TEST_RR_OP(9, remu, 1, -7, 2)
  TEST_RR_OP(10, remu, 7, 7, -2)
  TEST_RR_OP(11, remu, 0, -1, -1)
  TEST_RR_OP(12, remu, 0, -1, 1)
  TEST_RR_OP(13, remu, 1, 1, -1)
  TEST_RR_OP(14, remu, 0, 0x80000000, 1)
  TEST_RR_OP(15, remu, 0x80000000, 0x80000000, -1)
  TEST_RR_OP(16, remu, 0, 0x80000000, 2)
  TEST_RR_OP(17, remu, 0x80000000, 0x80000000, -2)
  TEST_RR_OP(18, remu, 0, 0x80000000, 0x80000000)
  TEST_RR_OP(19, remu, 0x7fffffff, 0x7fffffff, -1)
  TEST_RR_OP(20, remu, 0x7fffffff, 0x7fffffff, 0x80000000)
  TEST_RR_OP(21, remu, 1, 0x80000000, 0x7fffffff)
  TEST_RR_OP(22, remu, 0x7fffffff, -1, 0x80000000)
  TEST_RR_OP(23, remu, 1, 1, 0)  /* by zero */
  TEST_RR_OP(24, remu, 0, 0, 0)  /* by zero */
  TEST_RR_OP(25, remu, -1, -1, 0)  /* by zero */
  TEST_RR_OP(26, remu, 0x80000000, 0x80000000, 0)  /* by zero */
  TEST_RR_OP(27, remu, 0x7fffffff, 0x7fffffff, 0)  /* by zero */
  TEST_RR_OP(28, remu, 3496, 0x12345678, 0x00001234)
  TEST_RR_OP(29, remu, 240, 0xedcba988, 0x00001234)
  TEST_RR_OP(30, remu, 0x80000000, 0x80000000, -1)
  TEST_RR_OP(31, remu, 0x80000000, 0x80000000, -1)
#endif

  TEST_RR_SRC1_EQ_DEST(40, remu, 2, 20, 6)
  TEST_RR_SRC2_EQ_DEST(41, remu, 3, 21, 6)
  TEST_RR_SRC12_EQ_DEST(42, remu, 0, 7)
  TEST_RR_SRC12_SAME(43, remu, 0, -7)
  TEST_RR_ZEROSRC1(44, remu, 0, 31)
  TEST_RR_ZEROSRC2(45, remu, 31, 31)
  TEST_RR_ZEROSRC12(46, remu, 0)
  TEST_RR_ZERODEST(47, remu, 33, 11)

TEST_END
