/* fence: a memory-ordering no-op for a single-hart interpreter. It must
 * not fault, must not change any register, and memory stays coherent
 * across it. Covers the common pred/succ sets, fence.tso, pause (fence
 * w,0), fence 0,0, and an encoding with the reserved rd/rs1 fields set,
 * which the RISC-V spec says base implementations must ignore. (fence.i
 * is Zifencei, not part of RV32IM/RV64IM, so it is not tested.) */
#include "test_macros.h"

TEST_BEGIN

  /* fence iorw, iorw and friends leave registers alone. */
  TEST_NUM(1)
  li x11, 0x11
  li x14, 0x14
  li x31, -1
  fence
  fence iorw, iorw
  fence rw, rw
  fence r, r
  fence w, w
  fence r, rw
  fence rw, w
  fence i, o
  CHECK(x11, 0x11)
  CHECK(x14, 0x14)
  CHECK(x31, -1)

  /* A store before a fence is seen by a load after it. */
  TEST_NUM(2)
  la x11, fdat
  li x12, 0x5a5a
  sw x12, 0(x11)
  fence w, r
  lw x14, 0(x11)
  CHECK(x14, 0x5a5a)

  /* fence.tso (fm = 1000, rw,rw): 0x8330000f. */
  TEST_NUM(3)
  li x14, 0x33
  .word 0x8330000f
  CHECK(x14, 0x33)

  /* pause (Zihintpause, encoded as fence w, 0): 0x0100000f. */
  TEST_NUM(4)
  .word 0x0100000f
  CHECK(x14, 0x33)

  /* fence 0, 0: 0x0000000f. */
  TEST_NUM(5)
  .word 0x0000000f
  CHECK(x14, 0x33)

  /* fence iorw, iorw with rd = x14 and rs1 = x11 in the reserved fields:
   * 0x0ff5870f. Must not write x14. */
  TEST_NUM(6)
  li x11, 0x1111
  li x14, 0x1414
  .word 0x0ff5870f
  CHECK(x14, 0x1414)
  CHECK(x11, 0x1111)

TEST_END

  .data
  .balign 4
fdat:
  .word 0
