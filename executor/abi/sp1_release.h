/*
 * sp1_release: which SP1 release a guest was built for, so that each call
 * means what it meant there (docs/ZKVMS.md#sp1, the release table), and
 * which calls that release has.
 */
#ifndef EXECUTOR_ABI_SP1_RELEASE_H
#define EXECUTOR_ABI_SP1_RELEASE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

struct elf_image;

struct sp1_release {
    int major, minor; /* major 0: RV32, v1 to v5, not known which */
    char why[160];    /* what decided it, for --stats */
};

/*
 * The release `given` names ("5", "v4.2", "3.4.0"), or NULL: the one the ELF
 * shows: RV64 is v6 (v6.4 unless the ELF says); else the sp1-zkvm crate's version in the ELF's
 * panic locations; else text at 0x201000, where sp1-build links v5; else not known (major 0: calls
 * as v4 and v5 define them). Fails with ERROR_UNSUPPORTED when `given` is not a release, or one the
 * ELF's width rules out.
 */
int sp1_release_pick(const struct elf_image *img, const char *given, struct sp1_release *r,
                     struct error *e);

/* Whether the release has the call `code`; if not, *since says which release added it (else NULL).
 */
bool sp1_release_has(const struct sp1_release *r, uint32_t code, const char **since);

#endif
