/* sraiw (RV64 only): rd = sext32(rs1[31:0] >> shamt), arithmetic. The
 * upper 32 bits of the sources are ignored and the 32-bit result is sign-
 * extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_IMM_OP(1, sraiw, 0xffffffff80000000, 0x0000000080000000, 0)
  TEST_IMM_OP(2, sraiw, 0xffffffffc0000000, 0x0000000080000000, 1)
  TEST_IMM_OP(3, sraiw, -1, 0x0000000080000000, 31)
  TEST_IMM_OP(4, sraiw, -1, -1, 0)
  TEST_IMM_OP(5, sraiw, -1, -1, 31)
  TEST_IMM_OP(6, sraiw, 0x000000003fffffff, 0x000000007fffffff, 1)
  TEST_IMM_OP(7, sraiw, 0, 0x000000007fffffff, 31)
  TEST_IMM_OP(8, sraiw, 0xfffffffff8000000, 0xdeadbeef80000000, 4)  /* upper bits ignored */
  TEST_IMM_OP(9, sraiw, 0x0000000007ffffff, 0xffffffff7fffffff, 4)
  TEST_IMM_OP(10, sraiw, 0x000000007fffffff, 0xffffffff7fffffff, 0)

  TEST_IMM_SRC1_EQ_DEST(40, sraiw, 0xfffffffff8000000, 0x0000000080000000, 4)
  TEST_IMM_ZEROSRC1(41, sraiw, 0, 5)
  TEST_IMM_ZERODEST(43, sraiw, 0x7fffffff, 1)

TEST_END
