/* lr.w/sc.w (and lr.d/sc.d on RV64) for one hart: lr loads (sign-extended)
 * and reserves its address; sc stores and writes 0 to rd iff the last lr
 * reserved that address, else writes 1 and leaves memory alone; every sc
 * clears the reservation (docs/CONTRACT.md: A extension). */
#include "test_macros.h"

TEST_BEGIN

  /* lr then sc to the same address: succeeds. */
  TEST_NUM(1)
  la x11, abuf; li x12, -5; sw x12, 0(x11)
  lr.w x14, (x11); CHECK(x14, -5)
  li x13, 0x1234; sc.w x14, x13, (x11); CHECK(x14, 0)
  lw x15, 0(x11); CHECK(x15, 0x1234)
  /* A second sc: the reservation is gone, it fails and stores nothing. */
  TEST_NUM(2)
  li x13, 77; sc.w x14, x13, (x11); CHECK(x14, 1)
  lw x15, 0(x11); CHECK(x15, 0x1234)
  /* sc to another address than the lr's fails, and clears the reservation. */
  TEST_NUM(3)
  lr.w x14, (x11)
  addi x19, x11, 4
  sc.w x14, x13, (x19)
  CHECK(x14, 1)
  lw x15, 4(x11); CHECK(x15, 0)
  sc.w x14, x13, (x11); CHECK(x14, 1)
  lw x15, 0(x11); CHECK(x15, 0x1234)
  /* A lr/sc increment loop, as compilers emit for atomic adds. */
  TEST_NUM(4)
  li x16, 10
1:lr.w x14, (x11)
  addi x14, x14, 1
  sc.w x17, x14, (x11)
  bnez x17, 1b
  addi x16, x16, -1
  bnez x16, 1b
  lw x15, 0(x11); CHECK(x15, 0x1234 + 10)
  /* lr sign-extends; sc with rd = x0. */
  TEST_NUM(5)
  li x12, 0x80000000; sw x12, 8(x11); addi x18, x11, 8
  lr.w x14, (x18); CHECK(x14, -0x80000000)
  li x13, 9; sc.w x0, x13, (x18); CHECK(x0, 0)
  lw x15, 8(x11); CHECK(x15, 9)
#if __riscv_xlen == 64
  /* lr.d/sc.d: 8 bytes. */
  TEST_NUM(6)
  li x12, 0x8000000000000001; sd x12, 16(x11); addi x18, x11, 16
  lr.d x14, (x18); CHECK(x14, 0x8000000000000001)
  li x13, -2; sc.d x14, x13, (x18); CHECK(x14, 0)
  ld x15, 16(x11); CHECK(x15, -2)
  sc.d x14, x12, (x18); CHECK(x14, 1)
  ld x15, 16(x11); CHECK(x15, -2)
#endif

TEST_END

  .data
  .balign 16
abuf:
  .skip 32
