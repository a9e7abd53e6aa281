/* addw (RV64 only): rd = sext32(rs1[31:0] + rs2[31:0]). The upper 32 bits
 * of the sources are ignored and the 32-bit result is sign-extended to 64
 * bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, addw, 0, 0, 0)
  TEST_RR_OP(2, addw, 2, 1, 1)
  TEST_RR_OP(3, addw, 10, 3, 7)
  TEST_RR_OP(4, addw, -2, -1, -1)
  TEST_RR_OP(5, addw, 0, -1, 1)
  TEST_RR_OP(6, addw, 0xffffffff80000000, 0x000000007fffffff, 1)
  TEST_RR_OP(7, addw, 0x000000007fffffff, 0xffffffff80000000, -1)
  TEST_RR_OP(8, addw, 0, 0x00000000ffffffff, 1)
  TEST_RR_OP(9, addw, -2, 0x000000007fffffff, 0x000000007fffffff)
  TEST_RR_OP(10, addw, 0, 0x0000000080000000, 0x0000000080000000)
  TEST_RR_OP(11, addw, 8, 0xdeadbeef00000005, 0x1234567800000003)  /* upper bits ignored */
  TEST_RR_OP(12, addw, 0, 0x0000000100000000, 0)  /* upper bits ignored */
  TEST_RR_OP(13, addw, 0xffffffff80000000, 0xffffffff80000000, 0)
  TEST_RR_OP(14, addw, -1, 0x00000000ffffffff, 0)

  TEST_RR_SRC1_EQ_DEST(40, addw, 24, 13, 11)
  TEST_RR_SRC2_EQ_DEST(41, addw, 25, 14, 11)
  TEST_RR_SRC12_EQ_DEST(42, addw, 26, 13)
  TEST_RR_SRC12_SAME(43, addw, -26, -13)
  TEST_RR_ZEROSRC1(44, addw, 31, 31)
  TEST_RR_ZEROSRC2(45, addw, 31, 31)
  TEST_RR_ZEROSRC12(46, addw, 0)
  TEST_RR_ZERODEST(47, addw, 33, 11)

TEST_END
