/* addiw (RV64 only): rd = sext32(rs1[31:0] + imm12); `sext.w` is addiw rd,
 * rs, 0. The upper 32 bits of the sources are ignored and the 32-bit
 * result is sign-extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_IMM_OP(1, addiw, 0, 0, 0)
  TEST_IMM_OP(2, addiw, 2, 1, 1)
  TEST_IMM_OP(3, addiw, 10, 3, 7)
  TEST_IMM_OP(4, addiw, -1, 0, -1)
  TEST_IMM_OP(5, addiw, -2048, 0, -2048)
  TEST_IMM_OP(6, addiw, 2047, 0, 2047)
  TEST_IMM_OP(7, addiw, 0xffffffff80000000, 0x000000007fffffff, 1)
  TEST_IMM_OP(8, addiw, 0x000000007fffffff, 0xffffffff80000000, -1)
  TEST_IMM_OP(9, addiw, 0xffffffff800007fe, 0x000000007fffffff, 2047)
  TEST_IMM_OP(10, addiw, 0xffffffff80000000, 0x0000000080000000, 0)
  TEST_IMM_OP(11, addiw, 0xffffffff80000000, 0xdeadbeef80000000, 0)  /* upper bits ignored */
  TEST_IMM_OP(12, addiw, 0x000000007fffffff, 0xdeadbeef7fffffff, 0)  /* upper bits ignored */
  TEST_IMM_OP(13, addiw, 0, 0x00000000ffffffff, 1)
  TEST_IMM_OP(14, addiw, -1, 0xdeadbeef00000005, -6)  /* upper bits ignored */

  TEST_IMM_SRC1_EQ_DEST(40, addiw, 0xffffffff80000000, 0x000000007fffffff, 1)
  TEST_IMM_ZEROSRC1(41, addiw, 0, 0)
  TEST_IMM_ZEROSRC1(42, addiw, -2048, -2048)
  TEST_IMM_ZERODEST(43, addiw, 0x7fffffff, 1)

TEST_END
