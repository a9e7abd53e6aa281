/* selfcheck_fail: proves that a failing check fails the run. Check 1
 * passes; check 2 expects 1 + 1 == 3, so the guest must exit with
 * status 2. CTest registers it WILL_FAIL: if the executor let this guest
 * exit 0 (say, a `bne` that is never taken), every other ISA test would
 * pass without checking anything, and this one would report it. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, add, 2, 1, 1)
  TEST_RR_OP(2, add, 3, 1, 1)        /* wrong on purpose */

TEST_END
