/*
 * sp1_release: the SP1 release of a guest, from --zkvm-release or from the
 * ELF, and the calls each release has (succinctlabs/sp1, SyscallCode in
 * crates/core/executor/src/syscalls/code.rs, v6 src/syscall_code.rs, at
 * the tags docs/ZKVMS.md lists).
 */
#define _GNU_SOURCE /* memmem */
#include "executor/abi/sp1_release.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor/elf_image.h"

/* Calls added after v1.0: the first release that has each range of codes. */
static const struct {
    uint32_t lo, hi; /* inclusive */
    int major, minor;
    const char *since;
} added[] = {
    {0x00010120, 0x0001012B, 1, 2,
     "SP1 added it in v1.2.0: the guest's release panics on its code"}, /* the BN254 and BLS12-381
                                                                           Fp and Fp2 calls */
    {0x0001012C, 0x0001012F, 4, 0,
     "SP1 added it in v4.0.0: the guest's release panics on its code"}, /* SECP256R1_*,
                                                                           U256XU2048_MUL */
    {0x00010130, 0x00010131, 6, 0,
     "SP1 added it in v6.0.0: the guest's release panics on its code"}, /* UINT256_ADD_CARRY,
                                                                           UINT256_MUL_CARRY */
    {0x00000132, 0x00000133, 6, 0,
     "SP1 added it in v6.0.0: the guest's release panics on its code"}, /* MPROTECT, POSEIDON2 */
    {0x00000134, 0x00000134, 6, 2,
     "SP1 added it in v6.2.0: the guest's release panics on its code"}, /* SIG_RETURN */
    {0x00000035, 0x00000035, 6, 2,
     "SP1 added it in v6.2.0: the guest's release panics on its code"}, /* HINT_MPROTECT_FLUSH */
    {0x00000040, 0x00000042, 6, 2,
     "SP1 added it in v6.2.0: the guest's release panics on its code"}, /* DUMP_ELF,
                                                                         *_PROFILER_SYMBOLS */
};

/* An unknown RV32 release (major 0) has the calls of v5, the last RV32 one. */
static bool at_least(const struct sp1_release *r, int major, int minor)
{
    int ma = r->major ? r->major : 5, mi = r->major ? r->minor : 99;
    return ma > major || (ma == major && mi >= minor);
}

bool sp1_release_has(const struct sp1_release *r, uint32_t code, const char **since)
{
    for (size_t i = 0; i < sizeof(added) / sizeof(added[0]); i++)
        if (code >= added[i].lo && code <= added[i].hi &&
            !at_least(r, added[i].major, added[i].minor)) {
            *since = added[i].since;
            return false;
        }
    *since = NULL;
    return true;
}

/* "5", "v4.2", "3.4.0": the major and minor; false when it is not such a version. */
static bool parse_version(const char *s, int *major, int *minor)
{
    char *end;
    if (*s == 'v')
        s++;
    long ma = strtol(s, &end, 10), mi = 0;
    if (end == s || ma < 1 || ma > 6)
        return false;
    if (*end == '.') {
        const char *m = end + 1;
        mi = strtol(m, &end, 10);
        if (end == m || mi < 0 || mi > 99)
            return false;
        if (*end == '.') { /* a patch number, not needed */
            const char *pt = end + 1;
            strtol(pt, &end, 10);
            if (end == pt)
                return false;
        }
    }
    if (*end)
        return false;
    *major = (int)ma;
    *minor = (int)mi;
    return true;
}

/*
 * The version in "sp1-zkvm-X.Y.Z/src/...", the path rustc keeps for a panic
 * location inside the sp1-zkvm crate when it came from crates.io.
 */
static bool crate_version(const struct elf_image *img, int *major, int *minor, char *text,
                          size_t size)
{
    static const char mark[] = "sp1-zkvm-";
    const uint8_t *at = img->file, *end = img->file + img->file_size;
    while ((at = memmem(at, (size_t)(end - at), mark, sizeof(mark) - 1)) != NULL) {
        at += sizeof(mark) - 1;
        char v[16];
        size_t n = 0;
        while (at + n < end && n + 1 < sizeof(v) &&
               (at[n] == '.' || (at[n] >= '0' && at[n] <= '9')))
            n++;
        memcpy(v, at, n);
        v[n] = '\0';
        if (n && v[n - 1] == '.')
            v[n - 1] = '\0';
        if (parse_version(v, major, minor)) {
            snprintf(text, size, "%s", v);
            return true;
        }
    }
    return false;
}

int sp1_release_pick(const struct elf_image *img, const char *given, struct sp1_release *r,
                     struct error *e)
{
    char v[16];
    if (given) {
        if (!parse_version(given, &r->major, &r->minor))
            return error_fail(e, ERROR_UNSUPPORTED,
                              "--zkvm-release wants an SP1 release from 1 to 6, such as 5 or "
                              "4.2, not '%s'",
                              given);
        if ((r->major == 6) != (img->xlen == 64))
            return error_fail(e, ERROR_UNSUPPORTED,
                              "--zkvm-release %s: SP1 %s builds %s guests and this ELF is RV%d",
                              given, r->major == 6 ? "v6" : "v1 to v5",
                              r->major == 6 ? "RV64" : "RV32", img->xlen);
        snprintf(r->why, sizeof(r->why), "--zkvm-release %s", given);
        return 0;
    }
    if (img->xlen == 64) {
        *r = (struct sp1_release){6, 4, "RV64, which only v6 builds; the calls of v6.4"};
        if (crate_version(img, &r->major, &r->minor, v, sizeof(v)) && r->major == 6)
            snprintf(r->why, sizeof(r->why), "the ELF names the crate sp1-zkvm-%s", v);
        else
            *r = (struct sp1_release){6, 4, "RV64, which only v6 builds; the calls of v6.4"};
        return 0;
    }
    if (crate_version(img, &r->major, &r->minor, v, sizeof(v)) && r->major < 6) {
        snprintf(r->why, sizeof(r->why), "the ELF names the crate sp1-zkvm-%s", v);
        return 0;
    }
    uint64_t lo, hi;
    elf_image_exec_span(img, &lo, &hi);
    if (lo == 0x00201000) {
        *r = (struct sp1_release){5, 0, "text at 0x201000, where sp1-build links v5 guests"};
        return 0;
    }
    *r = (struct sp1_release){0, 0,
                              "v1 to v5, the ELF does not say which (no sp1-zkvm version in it): "
                              "calls as v4 and v5 define them; --zkvm-release names it"};
    return 0;
}
