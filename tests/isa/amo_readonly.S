/* An AMO on a page without write rights (the code) faults as a store to
 * read-only memory (exit 70), though its load alone would be allowed. */
#include "test_macros.h"

TEST_BEGIN
  la x11, _start
  li x13, 1
  amoadd.w x14, x13, (x11)
TEST_END
