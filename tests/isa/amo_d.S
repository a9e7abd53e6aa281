/* amo*.d: every AMO on 64-bit words in memory: rd gets the old value
 * (checked), memory the op of old and rs2 (read back with ld). Expected
 * values follow the RISC-V "A" chapter (min/max signed, minu/maxu unsigned
 * on 64 bits); rd == rs2 and rd = x0, a misaligned address is in
 * amo_misaligned.S. */
#include "test_macros.h"

TEST_BEGIN

  /* amoswap.d */
  TEST_AMO_OP(1, amoswap.d, sd, ld, -0x80000000, -0x800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(2, amoswap.d, sd, ld, 0x1, -0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(3, amoswap.d, sd, ld, 0x7fffffffffffffff, -0x8000000000000000, 0x7fffffffffffffff, -0x8000000000000000, abuf)
  TEST_AMO_OP(4, amoswap.d, sd, ld, 0x5, 0x7, 0x5, 0x7, abuf)
  TEST_AMO_OP(5, amoswap.d, sd, ld, 0x123456789abcdef, -0x123456789abcdf0, 0x123456789abcdef, -0x123456789abcdf0, abuf)
  TEST_AMO_OP(6, amoswap.d, sd, ld, 0x80000000, 0x7fffffff, 0x80000000, 0x7fffffff, abuf)
  /* amoadd.d */
  TEST_AMO_OP(7, amoadd.d, sd, ld, -0x80000000, -0x80000800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(8, amoadd.d, sd, ld, 0x1, 0x0, 0x1, -0x1, abuf)
  TEST_AMO_OP(9, amoadd.d, sd, ld, 0x7fffffffffffffff, -0x1, 0x7fffffffffffffff, -0x8000000000000000, abuf)
  TEST_AMO_OP(10, amoadd.d, sd, ld, 0x5, 0xc, 0x5, 0x7, abuf)
  TEST_AMO_OP(11, amoadd.d, sd, ld, 0x123456789abcdef, -0x1, 0x123456789abcdef, -0x123456789abcdf0, abuf)
  TEST_AMO_OP(12, amoadd.d, sd, ld, 0x80000000, 0xffffffff, 0x80000000, 0x7fffffff, abuf)
  /* amoxor.d */
  TEST_AMO_OP(13, amoxor.d, sd, ld, -0x80000000, 0x7ffff800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(14, amoxor.d, sd, ld, 0x1, -0x2, 0x1, -0x1, abuf)
  TEST_AMO_OP(15, amoxor.d, sd, ld, 0x7fffffffffffffff, -0x1, 0x7fffffffffffffff, -0x8000000000000000, abuf)
  TEST_AMO_OP(16, amoxor.d, sd, ld, 0x5, 0x2, 0x5, 0x7, abuf)
  TEST_AMO_OP(17, amoxor.d, sd, ld, 0x123456789abcdef, -0x1, 0x123456789abcdef, -0x123456789abcdf0, abuf)
  TEST_AMO_OP(18, amoxor.d, sd, ld, 0x80000000, 0xffffffff, 0x80000000, 0x7fffffff, abuf)
  /* amoand.d */
  TEST_AMO_OP(19, amoand.d, sd, ld, -0x80000000, -0x80000000, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(20, amoand.d, sd, ld, 0x1, 0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(21, amoand.d, sd, ld, 0x7fffffffffffffff, 0x0, 0x7fffffffffffffff, -0x8000000000000000, abuf)
  TEST_AMO_OP(22, amoand.d, sd, ld, 0x5, 0x5, 0x5, 0x7, abuf)
  TEST_AMO_OP(23, amoand.d, sd, ld, 0x123456789abcdef, 0x0, 0x123456789abcdef, -0x123456789abcdf0, abuf)
  TEST_AMO_OP(24, amoand.d, sd, ld, 0x80000000, 0x0, 0x80000000, 0x7fffffff, abuf)
  /* amoor.d */
  TEST_AMO_OP(25, amoor.d, sd, ld, -0x80000000, -0x800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(26, amoor.d, sd, ld, 0x1, -0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(27, amoor.d, sd, ld, 0x7fffffffffffffff, -0x1, 0x7fffffffffffffff, -0x8000000000000000, abuf)
  TEST_AMO_OP(28, amoor.d, sd, ld, 0x5, 0x7, 0x5, 0x7, abuf)
  TEST_AMO_OP(29, amoor.d, sd, ld, 0x123456789abcdef, -0x1, 0x123456789abcdef, -0x123456789abcdf0, abuf)
  TEST_AMO_OP(30, amoor.d, sd, ld, 0x80000000, 0xffffffff, 0x80000000, 0x7fffffff, abuf)
  /* amomin.d */
  TEST_AMO_OP(31, amomin.d, sd, ld, -0x80000000, -0x80000000, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(32, amomin.d, sd, ld, 0x1, -0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(33, amomin.d, sd, ld, 0x7fffffffffffffff, -0x8000000000000000, 0x7fffffffffffffff, -0x8000000000000000, abuf)
  TEST_AMO_OP(34, amomin.d, sd, ld, 0x5, 0x5, 0x5, 0x7, abuf)
  TEST_AMO_OP(35, amomin.d, sd, ld, 0x123456789abcdef, -0x123456789abcdf0, 0x123456789abcdef, -0x123456789abcdf0, abuf)
  TEST_AMO_OP(36, amomin.d, sd, ld, 0x80000000, 0x7fffffff, 0x80000000, 0x7fffffff, abuf)
  /* amomax.d */
  TEST_AMO_OP(37, amomax.d, sd, ld, -0x80000000, -0x800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(38, amomax.d, sd, ld, 0x1, 0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(39, amomax.d, sd, ld, 0x7fffffffffffffff, 0x7fffffffffffffff, 0x7fffffffffffffff, -0x8000000000000000, abuf)
  TEST_AMO_OP(40, amomax.d, sd, ld, 0x5, 0x7, 0x5, 0x7, abuf)
  TEST_AMO_OP(41, amomax.d, sd, ld, 0x123456789abcdef, 0x123456789abcdef, 0x123456789abcdef, -0x123456789abcdf0, abuf)
  TEST_AMO_OP(42, amomax.d, sd, ld, 0x80000000, 0x80000000, 0x80000000, 0x7fffffff, abuf)
  /* amominu.d */
  TEST_AMO_OP(43, amominu.d, sd, ld, -0x80000000, -0x80000000, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(44, amominu.d, sd, ld, 0x1, 0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(45, amominu.d, sd, ld, 0x7fffffffffffffff, 0x7fffffffffffffff, 0x7fffffffffffffff, -0x8000000000000000, abuf)
  TEST_AMO_OP(46, amominu.d, sd, ld, 0x5, 0x5, 0x5, 0x7, abuf)
  TEST_AMO_OP(47, amominu.d, sd, ld, 0x123456789abcdef, 0x123456789abcdef, 0x123456789abcdef, -0x123456789abcdf0, abuf)
  TEST_AMO_OP(48, amominu.d, sd, ld, 0x80000000, 0x7fffffff, 0x80000000, 0x7fffffff, abuf)
  /* amomaxu.d */
  TEST_AMO_OP(49, amomaxu.d, sd, ld, -0x80000000, -0x800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(50, amomaxu.d, sd, ld, 0x1, -0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(51, amomaxu.d, sd, ld, 0x7fffffffffffffff, -0x8000000000000000, 0x7fffffffffffffff, -0x8000000000000000, abuf)
  TEST_AMO_OP(52, amomaxu.d, sd, ld, 0x5, 0x7, 0x5, 0x7, abuf)
  TEST_AMO_OP(53, amomaxu.d, sd, ld, 0x123456789abcdef, -0x123456789abcdf0, 0x123456789abcdef, -0x123456789abcdf0, abuf)
  TEST_AMO_OP(54, amomaxu.d, sd, ld, 0x80000000, 0x80000000, 0x80000000, 0x7fffffff, abuf)
  /* rd == rs2: rs2 is read before rd is written. */
  TEST_NUM(55)
  la x11, abuf; li x12, 40; sd x12, 0(x11); li x14, 2
  amoadd.d x14, x14, (x11); CHECK(x14, 40)
  ld x15, 0(x11); CHECK(x15, 42)
  /* rd = x0: memory still changes. */
  TEST_NUM(56)
  li x13, 3; amoadd.d x0, x13, (x11); CHECK(x0, 0)
  ld x15, 0(x11); CHECK(x15, 45)

TEST_END

  .data
  .balign 16
abuf:
  .skip 16
