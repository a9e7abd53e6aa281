/* An AMO needs a naturally aligned address: a misaligned one faults
 * (exit 70) instead of running. */
#include "test_macros.h"

TEST_BEGIN
  la x11, abuf
  li x13, 1
  addi x11, x11, 2
  amoadd.w x14, x13, (x11)
TEST_END

  .data
  .balign 16
abuf:
  .skip 16
