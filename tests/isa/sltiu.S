/* sltiu: rd = (unsigned) rs1 < (unsigned) sext(imm12) ? 1 : 0. The
 * immediate is sign-extended first, then compared unsigned: imm -1 is the
 * largest value. `seqz rd, rs` is sltiu rd, rs, 1. */
#include "test_macros.h"

TEST_BEGIN

  TEST_IMM_OP(1, sltiu, 0, 0, 0)
  TEST_IMM_OP(2, sltiu, 0, 1, 1)
  TEST_IMM_OP(3, sltiu, 1, 3, 7)
  TEST_IMM_OP(4, sltiu, 0, 7, 3)
  TEST_IMM_OP(5, sltiu, 1, 0, 1)          /* seqz of 0 */
  TEST_IMM_OP(6, sltiu, 0, 5, 1)          /* seqz of 5 */
  TEST_IMM_OP(7, sltiu, 0, -1, 1)
  TEST_IMM_OP(8, sltiu, 1, 0, -1)         /* imm -1 = all ones */
  TEST_IMM_OP(9, sltiu, 1, -2, -1)
  TEST_IMM_OP(10, sltiu, 0, -1, -1)
  TEST_IMM_OP(11, sltiu, 1, XMAX, -2048)  /* imm -2048 = 0xff..f800 */
  TEST_IMM_OP(12, sltiu, 0, -2048, -2048)
  TEST_IMM_OP(13, sltiu, 1, -2049, -2048)
  TEST_IMM_OP(14, sltiu, 0, -2047, -2048)
  TEST_IMM_OP(15, sltiu, 1, XMIN, -1)
  TEST_IMM_OP(16, sltiu, 0, 2047, 2047)
  TEST_IMM_OP(17, sltiu, 1, 2046, 2047)
  TEST_IMM_OP(18, sltiu, 0, 0x800, 0x7ff)

  TEST_IMM_SRC1_EQ_DEST(20, sltiu, 1, 11, 13)
  TEST_IMM_SRC1_EQ_DEST(21, sltiu, 0, -1, 13)
  TEST_IMM_ZEROSRC1(22, sltiu, 0, 0)
  TEST_IMM_ZEROSRC1(23, sltiu, 1, 1)
  TEST_IMM_ZEROSRC1(24, sltiu, 1, -1)
  TEST_IMM_ZERODEST(25, sltiu, 1, 2)

TEST_END
