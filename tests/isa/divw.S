/* divw (RV64 only): rd = sext32(rs1[31:0] / rs2[31:0]), signed; x / 0 =
 * -1, INT32_MIN / -1 = INT32_MIN. The upper 32 bits of the sources are
 * ignored and the 32-bit result is sign-extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, divw, 3, 20, 6)
  TEST_RR_OP(2, divw, -3, -20, 6)
  TEST_RR_OP(3, divw, -3, 20, -6)
  TEST_RR_OP(4, divw, 3, -20, -6)
  TEST_RR_OP(5, divw, 0xffffffff80000000, 0xffffffff80000000, -1)  /* overflow */
  TEST_RR_OP(6, divw, 0xffffffff80000000, 0xffffffff80000000, 1)
  TEST_RR_OP(7, divw, 0xffffffff80000000, 0x0000000080000000, -1)  /* overflow */
  TEST_RR_OP(8, divw, -1, 1, 0)  /* by zero */
  TEST_RR_OP(9, divw, -1, -1, 0)  /* by zero */
  TEST_RR_OP(10, divw, -1, 0, 0)  /* by zero */
  TEST_RR_OP(11, divw, -1, 0x0000000080000000, 0)  /* by zero */
  TEST_RR_OP(12, divw, 3, 0xdeadbeef00000014, 6)  /* upper bits ignored */
  TEST_RR_OP(13, divw, 3, 20, 0xdeadbeef00000006)  /* upper bits ignored */
  TEST_RR_OP(14, divw, 0, 0xdeadbeef00000000, 5)  /* upper bits ignored */
  TEST_RR_OP(15, divw, -1, 5, 0xdeadbeef00000000)  /* by zero */
  TEST_RR_OP(16, divw, 0xffffffff80000001, 0x000000007fffffff, -1)

  TEST_RR_SRC1_EQ_DEST(40, divw, 3, 20, 6)
  TEST_RR_SRC2_EQ_DEST(41, divw, -3, -20, 6)
  TEST_RR_SRC12_EQ_DEST(42, divw, 1, -7)
  TEST_RR_SRC12_SAME(43, divw, 1, 7)
  TEST_RR_ZEROSRC1(44, divw, 0, 31)
  TEST_RR_ZEROSRC2(45, divw, -1, 31)
  TEST_RR_ZEROSRC12(46, divw, -1)
  TEST_RR_ZERODEST(47, divw, 33, 11)

TEST_END
