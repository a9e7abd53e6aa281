/* divuw (RV64 only): rd = sext32(rs1[31:0] / rs2[31:0]), unsigned; x / 0 =
 * all ones. The upper 32 bits of the sources are ignored and the 32-bit
 * result is sign-extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, divuw, 3, 20, 6)
  TEST_RR_OP(2, divuw, 0x000000002aaaaaa7, -20, 6)
  TEST_RR_OP(3, divuw, 0, 20, -6)
  TEST_RR_OP(4, divuw, 0xffffffff80000000, 0x0000000080000000, 1)
  TEST_RR_OP(5, divuw, 0, 0x0000000080000000, -1)
  TEST_RR_OP(6, divuw, -1, 0x00000000ffffffff, 1)
  TEST_RR_OP(7, divuw, 0x000000007fffffff, 0x00000000fffffffe, 2)
  TEST_RR_OP(8, divuw, -1, 1, 0)  /* by zero */
  TEST_RR_OP(9, divuw, -1, -1, 0)  /* by zero */
  TEST_RR_OP(10, divuw, -1, 0, 0)  /* by zero */
  TEST_RR_OP(11, divuw, 3, 0xdeadbeef00000014, 6)  /* upper bits ignored */
  TEST_RR_OP(12, divuw, 3, 20, 0xdeadbeef00000006)  /* upper bits ignored */
  TEST_RR_OP(13, divuw, -1, 5, 0xdeadbeef00000000)  /* by zero */
  TEST_RR_OP(14, divuw, 0, 0x000000007fffffff, 0x0000000080000000)

  TEST_RR_SRC1_EQ_DEST(40, divuw, 3, 20, 6)
  TEST_RR_SRC2_EQ_DEST(41, divuw, 3, 21, 6)
  TEST_RR_SRC12_EQ_DEST(42, divuw, 1, 7)
  TEST_RR_SRC12_SAME(43, divuw, 1, -7)
  TEST_RR_ZEROSRC1(44, divuw, 0, 31)
  TEST_RR_ZEROSRC2(45, divuw, -1, 31)
  TEST_RR_ZEROSRC12(46, divuw, -1)
  TEST_RR_ZERODEST(47, divuw, 33, 11)

TEST_END
