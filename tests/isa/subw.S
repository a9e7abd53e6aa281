/* subw (RV64 only): rd = sext32(rs1[31:0] - rs2[31:0]). The upper 32 bits
 * of the sources are ignored and the 32-bit result is sign-extended to 64
 * bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, subw, 0, 0, 0)
  TEST_RR_OP(2, subw, 0, 1, 1)
  TEST_RR_OP(3, subw, -4, 3, 7)
  TEST_RR_OP(4, subw, 4, 7, 3)
  TEST_RR_OP(5, subw, -1, 0, 1)
  TEST_RR_OP(6, subw, 0x000000007fffffff, 0xffffffff80000000, 1)
  TEST_RR_OP(7, subw, 0xffffffff80000000, 0x000000007fffffff, -1)
  TEST_RR_OP(8, subw, 0xffffffff80000000, 0, 0x0000000080000000)
  TEST_RR_OP(9, subw, 2, 0xdeadbeef00000005, 0x1234567800000003)  /* upper bits ignored */
  TEST_RR_OP(10, subw, -1, 0x0000000100000000, 1)  /* upper bits ignored */
  TEST_RR_OP(11, subw, 0xffffffff80000000, 0x0000000080000000, 0)

  TEST_RR_SRC1_EQ_DEST(40, subw, 2, 13, 11)
  TEST_RR_SRC2_EQ_DEST(41, subw, 3, 14, 11)
  TEST_RR_SRC12_EQ_DEST(42, subw, 0, 13)
  TEST_RR_SRC12_SAME(43, subw, 0, -13)
  TEST_RR_ZEROSRC1(44, subw, -31, 31)
  TEST_RR_ZEROSRC2(45, subw, 31, 31)
  TEST_RR_ZEROSRC12(46, subw, 0)
  TEST_RR_ZERODEST(47, subw, 33, 11)

TEST_END
