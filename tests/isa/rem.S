/* rem: rd = rs1 % rs2, signed; the sign follows the dividend.
 * x % 0 = x; MIN % -1 = 0. */
#include "test_macros.h"

TEST_BEGIN

#if __riscv_xlen == 64
  TEST_RR_OP(1, rem, 2, 20, 6)
  TEST_RR_OP(2, rem, -2, -20, 6)
  TEST_RR_OP(3, rem, 2, 20, -6)
  TEST_RR_OP(4, rem, -2, -20, -6)
  TEST_RR_OP(5, rem, 0, 0, 5)
  TEST_RR_OP(6, rem, 5, 5, 7)
  TEST_RR_OP(7, rem, -5, -5, 7)
  TEST_RR_OP(8, rem, 0, 7, 7)
  TEST_RR_OP(9, rem, -1, -7, 2)
  TEST_RR_OP(10, rem, 1, 7, -2)
  TEST_RR_OP(11, rem, 0, -1, -1)
  TEST_RR_OP(12, rem, 0, -1, 1)
  TEST_RR_OP(13, rem, 0, 1, -1)
  TEST_RR_OP(14, rem, 0, 0x8000000000000000, 1)
  TEST_RR_OP(15, rem, 0, 0x8000000000000000, -1)  /* overflow */
  TEST_RR_OP(16, rem, 0, 0x8000000000000000, 2)
  TEST_RR_OP(17, rem, 0, 0x8000000000000000, -2)
  TEST_RR_OP(18, rem, 0, 0x8000000000000000, 0x8000000000000000)
  TEST_RR_OP(19, rem, 0, 0x7fffffffffffffff, -1)
  TEST_RR_OP(20, rem, 0x7fffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_RR_OP(21, rem, -1, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_RR_OP(22, rem, -1, -1, 0x8000000000000000)
  TEST_RR_OP(23, rem, 1, 1, 0)  /* by zero */
  TEST_RR_OP(24, rem, 0, 0, 0)  /* by zero */
  TEST_RR_OP(25, rem, -1, -1, 0)  /* by zero */
  TEST_RR_OP(26, rem, 0x8000000000000000, 0x8000000000000000, 0)  /* by zero */
  TEST_RR_OP(27, rem, 0x7fffffffffffffff, 0x7fffffffffffffff, 0)  /* by zero */
  TEST_RR_OP(28, rem, 3496, 0x0000000012345678, 0x0000000000001234)
  TEST_RR_OP(29, rem, -3496, 0xffffffffedcba988, 0x0000000000001234)
  TEST_RR_OP(30, rem, 0, 0x0000000080000000, -1)
  TEST_RR_OP(31, rem, 0, 0xffffffff80000000, -1)
  TEST_RR_OP(32, rem, 0x0000000089abcdef, 0x0123456789abcdef, 0x0000000100000000)
  TEST_RR_OP(33, rem, 0xffffffffffff3211, 0xfedcba9876543211, 0x0000000000010000)
  TEST_RR_OP(34, rem, 0xffffffff80000001, 0x8000000000000001, 0x00000000ffffffff)
  TEST_RR_OP(35, rem, 0x000000007fffffff, 0x7fffffffffffffff, 0x0000000080000000)
#else
  TEST_RR_OP(1, rem, 2, 20, 6)
  TEST_RR_OP(2, rem, -2, -20, 6)
  TEST_RR_OP(3, rem, 2, 20, -6)
  TEST_RR_OP(4, rem, -2, -20, -6)
  TEST_RR_OP(5, rem, 0, 0, 5)
  TEST_RR_OP(6, rem, 5, 5, 7)
  TEST_RR_OP(7, rem, -5, -5, 7)
  TEST_RR_OP(8, rem, 0, 7, 7)
  TEST_RR_OP(9, rem, -1, -7, 2)
  TEST_RR_OP(10, rem, 1, 7, -2)
  TEST_RR_OP(11, rem, 0, -1, -1)
  TEST_RR_OP(12, rem, 0, -1, 1)
  TEST_RR_OP(13, rem, 0, 1, -1)
  TEST_RR_OP(14, rem, 0, 0x80000000, 1)
  TEST_RR_OP(15, rem, 0, 0x80000000, -1)  /* overflow */
  TEST_RR_OP(16, rem, 0, 0x80000000, 2)
  TEST_RR_OP(17, rem, 0, 0x80000000, -2)
  TEST_RR_OP(18, rem, 0, 0x80000000, 0x80000000)
  TEST_RR_OP(19, rem, 0, 0x7fffffff, -1)
  TEST_RR_OP(20, rem, 0x7fffffff, 0x7fffffff, 0x80000000)
  TEST_RR_OP(21, rem, -1, 0x80000000, 0x7fffffff)
  TEST_RR_OP(22, rem, -1, -1, 0x80000000)
  TEST_RR_OP(23, rem, 1, 1, 0)  /* by zero */
  TEST_RR_OP(24, rem, 0, 0, 0)  /* by zero */
  TEST_RR_OP(25, rem, -1, -1, 0)  /* by zero */
  TEST_RR_OP(26, rem, 0x80000000, 0x80000000, 0)  /* by zero */
  TEST_RR_OP(27, rem, 0x7fffffff, 0x7fffffff, 0)  /* by zero */
  TEST_RR_OP(28, rem, 3496, 0x12345678, 0x00001234)
  TEST_RR_OP(29, rem, -3496, 0xedcba988, 0x00001234)
  TEST_RR_OP(30, rem, 0, 0x80000000, -1)  /* overflow */
  TEST_RR_OP(31, rem, 0, 0x80000000, -1)  /* overflow */
#endif

  TEST_RR_SRC1_EQ_DEST(40, rem, 2, 20, 6)
  TEST_RR_SRC2_EQ_DEST(41, rem, -2, -20, 6)
  TEST_RR_SRC12_EQ_DEST(42, rem, 0, -7)
  TEST_RR_SRC12_SAME(43, rem, 0, 7)
  TEST_RR_ZEROSRC1(44, rem, 0, 31)
  TEST_RR_ZEROSRC2(45, rem, 31, 31)
  TEST_RR_ZEROSRC12(46, rem, 0)
  TEST_RR_ZERODEST(47, rem, 33, 11)

TEST_END
