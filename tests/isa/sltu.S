/* sltu: rd = (unsigned) rs1 < (unsigned) rs2 ? 1 : 0. `snez rd, rs` is
 * sltu rd, x0, rs. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, sltu, 0, 0, 0)
  TEST_RR_OP(2, sltu, 0, 1, 1)
  TEST_RR_OP(3, sltu, 1, 3, 7)
  TEST_RR_OP(4, sltu, 0, 7, 3)
  TEST_RR_OP(5, sltu, 0, -1, 0)         /* all ones is the largest */
  TEST_RR_OP(6, sltu, 1, 0, -1)
  TEST_RR_OP(7, sltu, 1, -2, -1)
  TEST_RR_OP(8, sltu, 0, -1, -2)
  TEST_RR_OP(9, sltu, 0, XMIN, XMAX)
  TEST_RR_OP(10, sltu, 1, XMAX, XMIN)
  TEST_RR_OP(11, sltu, 0, XMIN, XMIN)
  TEST_RR_OP(12, sltu, 1, XMIN, XMIN + 1)
  TEST_RR_OP(13, sltu, 1, 0x7fffffff, 0x80000000)
#if __riscv_xlen == 64
  TEST_RR_OP(14, sltu, 1, 0x00000000ffffffff, 0x0000000100000000)
  TEST_RR_OP(15, sltu, 0, 0xffffffff00000000, 0x00000000ffffffff)
#endif

  TEST_RR_SRC1_EQ_DEST(20, sltu, 1, 13, -1)
  TEST_RR_SRC2_EQ_DEST(21, sltu, 0, -1, 13)
  TEST_RR_SRC12_EQ_DEST(22, sltu, 0, -5)
  TEST_RR_SRC12_SAME(23, sltu, 0, 5)
  TEST_RR_ZEROSRC1(24, sltu, 1, 5)       /* snez */
  TEST_RR_ZEROSRC1(25, sltu, 1, -5)
  TEST_RR_ZEROSRC1(26, sltu, 0, 0)
  TEST_RR_ZEROSRC2(27, sltu, 0, -5)
  TEST_RR_ZEROSRC12(28, sltu, 0)
  TEST_RR_ZERODEST(29, sltu, 1, 2)

TEST_END
