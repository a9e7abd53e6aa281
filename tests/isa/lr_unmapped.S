/* lr from unmapped memory (page 0) faults as a load (exit 70). */
#include "test_macros.h"

TEST_BEGIN
  li x11, 16
  lr.w x14, (x11)
TEST_END
