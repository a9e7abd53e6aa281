/* amo*.w: every AMO on 32-bit words in memory: rd gets the old value
 * (sign-extended, checked), memory the op of old and rs2 (read back with lw). Expected
 * values follow the RISC-V "A" chapter (min/max signed, minu/maxu unsigned
 * on 32 bits); rd == rs2 and rd = x0, a misaligned address is in
 * amo_misaligned.S. */
#include "test_macros.h"

TEST_BEGIN

  /* amoswap.w */
  TEST_AMO_OP(1, amoswap.w, sw, lw, -0x80000000, -0x800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(2, amoswap.w, sw, lw, 0x1, -0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(3, amoswap.w, sw, lw, 0x7fffffff, -0x80000000, 0x7fffffff, -0x80000000, abuf)
  TEST_AMO_OP(4, amoswap.w, sw, lw, 0x5, 0x7, 0x5, 0x7, abuf)
  TEST_AMO_OP(5, amoswap.w, sw, lw, -0x21524111, 0xbadf00d, -0x21524111, 0xbadf00d, abuf)
  TEST_AMO_OP(6, amoswap.w, sw, lw, -0x1, 0x0, -0x1, 0x0, abuf)
  /* amoadd.w */
  TEST_AMO_OP(7, amoadd.w, sw, lw, -0x80000000, 0x7ffff800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(8, amoadd.w, sw, lw, 0x1, 0x0, 0x1, -0x1, abuf)
  TEST_AMO_OP(9, amoadd.w, sw, lw, 0x7fffffff, -0x1, 0x7fffffff, -0x80000000, abuf)
  TEST_AMO_OP(10, amoadd.w, sw, lw, 0x5, 0xc, 0x5, 0x7, abuf)
  TEST_AMO_OP(11, amoadd.w, sw, lw, -0x21524111, -0x15a45104, -0x21524111, 0xbadf00d, abuf)
  TEST_AMO_OP(12, amoadd.w, sw, lw, -0x1, -0x1, -0x1, 0x0, abuf)
  /* amoxor.w */
  TEST_AMO_OP(13, amoxor.w, sw, lw, -0x80000000, 0x7ffff800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(14, amoxor.w, sw, lw, 0x1, -0x2, 0x1, -0x1, abuf)
  TEST_AMO_OP(15, amoxor.w, sw, lw, 0x7fffffff, -0x1, 0x7fffffff, -0x80000000, abuf)
  TEST_AMO_OP(16, amoxor.w, sw, lw, 0x5, 0x2, 0x5, 0x7, abuf)
  TEST_AMO_OP(17, amoxor.w, sw, lw, -0x21524111, -0x2affb11e, -0x21524111, 0xbadf00d, abuf)
  TEST_AMO_OP(18, amoxor.w, sw, lw, -0x1, -0x1, -0x1, 0x0, abuf)
  /* amoand.w */
  TEST_AMO_OP(19, amoand.w, sw, lw, -0x80000000, -0x80000000, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(20, amoand.w, sw, lw, 0x1, 0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(21, amoand.w, sw, lw, 0x7fffffff, 0x0, 0x7fffffff, -0x80000000, abuf)
  TEST_AMO_OP(22, amoand.w, sw, lw, 0x5, 0x5, 0x5, 0x7, abuf)
  TEST_AMO_OP(23, amoand.w, sw, lw, -0x21524111, 0xaadb00d, -0x21524111, 0xbadf00d, abuf)
  TEST_AMO_OP(24, amoand.w, sw, lw, -0x1, 0x0, -0x1, 0x0, abuf)
  /* amoor.w */
  TEST_AMO_OP(25, amoor.w, sw, lw, -0x80000000, -0x800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(26, amoor.w, sw, lw, 0x1, -0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(27, amoor.w, sw, lw, 0x7fffffff, -0x1, 0x7fffffff, -0x80000000, abuf)
  TEST_AMO_OP(28, amoor.w, sw, lw, 0x5, 0x7, 0x5, 0x7, abuf)
  TEST_AMO_OP(29, amoor.w, sw, lw, -0x21524111, -0x20520111, -0x21524111, 0xbadf00d, abuf)
  TEST_AMO_OP(30, amoor.w, sw, lw, -0x1, -0x1, -0x1, 0x0, abuf)
  /* amomin.w */
  TEST_AMO_OP(31, amomin.w, sw, lw, -0x80000000, -0x80000000, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(32, amomin.w, sw, lw, 0x1, -0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(33, amomin.w, sw, lw, 0x7fffffff, -0x80000000, 0x7fffffff, -0x80000000, abuf)
  TEST_AMO_OP(34, amomin.w, sw, lw, 0x5, 0x5, 0x5, 0x7, abuf)
  TEST_AMO_OP(35, amomin.w, sw, lw, -0x21524111, -0x21524111, -0x21524111, 0xbadf00d, abuf)
  TEST_AMO_OP(36, amomin.w, sw, lw, -0x1, -0x1, -0x1, 0x0, abuf)
  /* amomax.w */
  TEST_AMO_OP(37, amomax.w, sw, lw, -0x80000000, -0x800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(38, amomax.w, sw, lw, 0x1, 0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(39, amomax.w, sw, lw, 0x7fffffff, 0x7fffffff, 0x7fffffff, -0x80000000, abuf)
  TEST_AMO_OP(40, amomax.w, sw, lw, 0x5, 0x7, 0x5, 0x7, abuf)
  TEST_AMO_OP(41, amomax.w, sw, lw, -0x21524111, 0xbadf00d, -0x21524111, 0xbadf00d, abuf)
  TEST_AMO_OP(42, amomax.w, sw, lw, -0x1, 0x0, -0x1, 0x0, abuf)
  /* amominu.w */
  TEST_AMO_OP(43, amominu.w, sw, lw, -0x80000000, -0x80000000, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(44, amominu.w, sw, lw, 0x1, 0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(45, amominu.w, sw, lw, 0x7fffffff, 0x7fffffff, 0x7fffffff, -0x80000000, abuf)
  TEST_AMO_OP(46, amominu.w, sw, lw, 0x5, 0x5, 0x5, 0x7, abuf)
  TEST_AMO_OP(47, amominu.w, sw, lw, -0x21524111, 0xbadf00d, -0x21524111, 0xbadf00d, abuf)
  TEST_AMO_OP(48, amominu.w, sw, lw, -0x1, 0x0, -0x1, 0x0, abuf)
  /* amomaxu.w */
  TEST_AMO_OP(49, amomaxu.w, sw, lw, -0x80000000, -0x800, -0x80000000, -0x800, abuf)
  TEST_AMO_OP(50, amomaxu.w, sw, lw, 0x1, -0x1, 0x1, -0x1, abuf)
  TEST_AMO_OP(51, amomaxu.w, sw, lw, 0x7fffffff, -0x80000000, 0x7fffffff, -0x80000000, abuf)
  TEST_AMO_OP(52, amomaxu.w, sw, lw, 0x5, 0x7, 0x5, 0x7, abuf)
  TEST_AMO_OP(53, amomaxu.w, sw, lw, -0x21524111, -0x21524111, -0x21524111, 0xbadf00d, abuf)
  TEST_AMO_OP(54, amomaxu.w, sw, lw, -0x1, -0x1, -0x1, 0x0, abuf)
  /* rd == rs2: rs2 is read before rd is written. */
  TEST_NUM(55)
  la x11, abuf; li x12, 40; sw x12, 0(x11); li x14, 2
  amoadd.w x14, x14, (x11); CHECK(x14, 40)
  lw x15, 0(x11); CHECK(x15, 42)
  /* rd = x0: memory still changes. */
  TEST_NUM(56)
  li x13, 3; amoadd.w x0, x13, (x11); CHECK(x0, 0)
  lw x15, 0(x11); CHECK(x15, 45)
#if __riscv_xlen == 64
  /* .w touches 4 bytes only: the word above keeps its value. */
  TEST_NUM(57)
  li x12, -1; sd x12, 0(x11); li x13, 1
  amoadd.w x14, x13, (x11); CHECK(x14, -1)
  ld x15, 0(x11); CHECK(x15, 0xffffffff00000000)
#endif

TEST_END

  .data
  .balign 16
abuf:
  .skip 16
