/* remuw (RV64 only): rd = sext32(rs1[31:0] % rs2[31:0]), unsigned; x % 0 =
 * sext32(x). The upper 32 bits of the sources are ignored and the 32-bit
 * result is sign-extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, remuw, 2, 20, 6)
  TEST_RR_OP(2, remuw, 2, -20, 6)
  TEST_RR_OP(3, remuw, 20, 20, -6)
  TEST_RR_OP(4, remuw, 2, 0x0000000080000000, 3)
  TEST_RR_OP(5, remuw, 0xffffffff80000000, 0x0000000080000000, -1)
  TEST_RR_OP(6, remuw, 1, 1, 0)  /* by zero */
  TEST_RR_OP(7, remuw, -1, -1, 0)  /* by zero */
  TEST_RR_OP(8, remuw, 0, 0, 0)  /* by zero */
  TEST_RR_OP(9, remuw, 0xffffffff80000000, 0x0000000080000000, 0)  /* by zero */
  TEST_RR_OP(10, remuw, 2, 0xdeadbeef00000014, 6)  /* upper bits ignored */
  TEST_RR_OP(11, remuw, 2, 20, 0xdeadbeef00000006)  /* upper bits ignored */
  TEST_RR_OP(12, remuw, 0xffffffff80000001, 0xdeadbeef80000001, 0)  /* by zero */
  TEST_RR_OP(13, remuw, -2, 0x00000000fffffffe, 0x00000000ffffffff)

  TEST_RR_SRC1_EQ_DEST(40, remuw, 2, 20, 6)
  TEST_RR_SRC2_EQ_DEST(41, remuw, 3, 21, 6)
  TEST_RR_SRC12_EQ_DEST(42, remuw, 0, 7)
  TEST_RR_SRC12_SAME(43, remuw, 0, -7)
  TEST_RR_ZEROSRC1(44, remuw, 0, 31)
  TEST_RR_ZEROSRC2(45, remuw, 31, 31)
  TEST_RR_ZEROSRC12(46, remuw, 0)
  TEST_RR_ZERODEST(47, remuw, 33, 11)

TEST_END
