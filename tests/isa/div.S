/* div: rd = rs1 / rs2, signed, rounding towards zero.
 * x / 0 = -1 (all ones); MIN / -1 = MIN (overflow, no trap). */
#include "test_macros.h"

TEST_BEGIN

#if __riscv_xlen == 64
  TEST_RR_OP(1, div, 3, 20, 6)
  TEST_RR_OP(2, div, -3, -20, 6)
  TEST_RR_OP(3, div, -3, 20, -6)
  TEST_RR_OP(4, div, 3, -20, -6)
  TEST_RR_OP(5, div, 0, 0, 5)
  TEST_RR_OP(6, div, 0, 5, 7)
  TEST_RR_OP(7, div, 0, -5, 7)
  TEST_RR_OP(8, div, 1, 7, 7)
  TEST_RR_OP(9, div, -3, -7, 2)
  TEST_RR_OP(10, div, -3, 7, -2)
  TEST_RR_OP(11, div, 1, -1, -1)
  TEST_RR_OP(12, div, -1, -1, 1)
  TEST_RR_OP(13, div, -1, 1, -1)
  TEST_RR_OP(14, div, 0x8000000000000000, 0x8000000000000000, 1)
  TEST_RR_OP(15, div, 0x8000000000000000, 0x8000000000000000, -1)  /* overflow */
  TEST_RR_OP(16, div, 0xc000000000000000, 0x8000000000000000, 2)
  TEST_RR_OP(17, div, 0x4000000000000000, 0x8000000000000000, -2)
  TEST_RR_OP(18, div, 1, 0x8000000000000000, 0x8000000000000000)
  TEST_RR_OP(19, div, 0x8000000000000001, 0x7fffffffffffffff, -1)
  TEST_RR_OP(20, div, 0, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_RR_OP(21, div, -1, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_RR_OP(22, div, 0, -1, 0x8000000000000000)
  TEST_RR_OP(23, div, -1, 1, 0)  /* by zero */
  TEST_RR_OP(24, div, -1, 0, 0)  /* by zero */
  TEST_RR_OP(25, div, -1, -1, 0)  /* by zero */
  TEST_RR_OP(26, div, -1, 0x8000000000000000, 0)  /* by zero */
  TEST_RR_OP(27, div, -1, 0x7fffffffffffffff, 0)  /* by zero */
  TEST_RR_OP(28, div, 0x0000000000010004, 0x0000000012345678, 0x0000000000001234)
  TEST_RR_OP(29, div, 0xfffffffffffefffc, 0xffffffffedcba988, 0x0000000000001234)
  TEST_RR_OP(30, div, 0xffffffff80000000, 0x0000000080000000, -1)
  TEST_RR_OP(31, div, 0x0000000080000000, 0xffffffff80000000, -1)
  TEST_RR_OP(32, div, 0x0000000001234567, 0x0123456789abcdef, 0x0000000100000000)
  TEST_RR_OP(33, div, 0xfffffedcba987655, 0xfedcba9876543211, 0x0000000000010000)
  TEST_RR_OP(34, div, 0xffffffff80000000, 0x8000000000000001, 0x00000000ffffffff)
  TEST_RR_OP(35, div, 0x00000000ffffffff, 0x7fffffffffffffff, 0x0000000080000000)
#else
  TEST_RR_OP(1, div, 3, 20, 6)
  TEST_RR_OP(2, div, -3, -20, 6)
  TEST_RR_OP(3, div, -3, 20, -6)
  TEST_RR_OP(4, div, 3, -20, -6)
  TEST_RR_OP(5, div, 0, 0, 5)
  TEST_RR_OP(6, div, 0, 5, 7)
  TEST_RR_OP(7, div, 0, -5, 7)
  TEST_RR_OP(8, div, 1, 7, 7)
  TEST_RR_OP(9, div, -3, -7, 2)
  TEST_RR_OP(10, div, -3, 7, -2)
  TEST_RR_OP(11, div, 1, -1, -1)
  TEST_RR_OP(12, div, -1, -1, 1)
  TEST_RR_OP(13, div, -1, 1, -1)
  TEST_RR_OP(14, div, 0x80000000, 0x80000000, 1)
  TEST_RR_OP(15, div, 0x80000000, 0x80000000, -1)  /* overflow */
  TEST_RR_OP(16, div, 0xc0000000, 0x80000000, 2)
  TEST_RR_OP(17, div, 0x40000000, 0x80000000, -2)
  TEST_RR_OP(18, div, 1, 0x80000000, 0x80000000)
  TEST_RR_OP(19, div, 0x80000001, 0x7fffffff, -1)
  TEST_RR_OP(20, div, 0, 0x7fffffff, 0x80000000)
  TEST_RR_OP(21, div, -1, 0x80000000, 0x7fffffff)
  TEST_RR_OP(22, div, 0, -1, 0x80000000)
  TEST_RR_OP(23, div, -1, 1, 0)  /* by zero */
  TEST_RR_OP(24, div, -1, 0, 0)  /* by zero */
  TEST_RR_OP(25, div, -1, -1, 0)  /* by zero */
  TEST_RR_OP(26, div, -1, 0x80000000, 0)  /* by zero */
  TEST_RR_OP(27, div, -1, 0x7fffffff, 0)  /* by zero */
  TEST_RR_OP(28, div, 0x00010004, 0x12345678, 0x00001234)
  TEST_RR_OP(29, div, 0xfffefffc, 0xedcba988, 0x00001234)
  TEST_RR_OP(30, div, 0x80000000, 0x80000000, -1)  /* overflow */
  TEST_RR_OP(31, div, 0x80000000, 0x80000000, -1)  /* overflow */
#endif

  TEST_RR_SRC1_EQ_DEST(40, div, 3, 20, 6)
  TEST_RR_SRC2_EQ_DEST(41, div, -3, -20, 6)
  TEST_RR_SRC12_EQ_DEST(42, div, 1, -7)
  TEST_RR_SRC12_SAME(43, div, 1, 7)
  TEST_RR_ZEROSRC1(44, div, 0, 31)
  TEST_RR_ZEROSRC2(45, div, -1, 31)
  TEST_RR_ZEROSRC12(46, div, -1)
  TEST_RR_ZERODEST(47, div, 33, 11)

TEST_END
