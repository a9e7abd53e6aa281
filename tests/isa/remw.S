/* remw (RV64 only): rd = sext32(rs1[31:0] % rs2[31:0]), signed; x % 0 =
 * sext32(x), INT32_MIN % -1 = 0. The upper 32 bits of the sources are
 * ignored and the 32-bit result is sign-extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, remw, 2, 20, 6)
  TEST_RR_OP(2, remw, -2, -20, 6)
  TEST_RR_OP(3, remw, 2, 20, -6)
  TEST_RR_OP(4, remw, -2, -20, -6)
  TEST_RR_OP(5, remw, 0, 0xffffffff80000000, -1)  /* overflow */
  TEST_RR_OP(6, remw, 0, 0xffffffff80000000, 1)
  TEST_RR_OP(7, remw, 0, 0x0000000080000000, -1)  /* overflow */
  TEST_RR_OP(8, remw, 1, 1, 0)  /* by zero */
  TEST_RR_OP(9, remw, -1, -1, 0)  /* by zero */
  TEST_RR_OP(10, remw, 0, 0, 0)  /* by zero */
  TEST_RR_OP(11, remw, 0xffffffff80000000, 0x0000000080000000, 0)  /* by zero */
  TEST_RR_OP(12, remw, 2, 0xdeadbeef00000014, 6)  /* upper bits ignored */
  TEST_RR_OP(13, remw, 2, 20, 0xdeadbeef00000006)  /* upper bits ignored */
  TEST_RR_OP(14, remw, 0x000000007fffffff, 0x000000007fffffff, 0xdeadbeef80000000)  /* upper bits ignored */
  TEST_RR_OP(15, remw, 0xffffffff80000001, 0xdeadbeef80000001, 0)  /* by zero */

  TEST_RR_SRC1_EQ_DEST(40, remw, 2, 20, 6)
  TEST_RR_SRC2_EQ_DEST(41, remw, -2, -20, 6)
  TEST_RR_SRC12_EQ_DEST(42, remw, 0, -7)
  TEST_RR_SRC12_SAME(43, remw, 0, 7)
  TEST_RR_ZEROSRC1(44, remw, 0, 31)
  TEST_RR_ZEROSRC2(45, remw, 31, 31)
  TEST_RR_ZEROSRC12(46, remw, 0)
  TEST_RR_ZERODEST(47, remw, 33, 11)

TEST_END
