/*
 * fuzz_pprof: libFuzzer target for the profile readers `cli report`,
 * `cli merge` and `cli flamegraph` take: pprof (gzipped or not; the
 * protobuf, every index checked), speedscope and Gecko JSON and folded text, told
 * apart by content as profile_read does; whatever reads is then merged,
 * reported and written again as pprof, Gecko and folded into a memory
 * stream. Any crash, leak or sanitizer report is a bug: bad input must
 * end in an error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "flamegraph/folded.h"
#include "flamegraph/gecko.h"
#include "flamegraph/pprof.h"
#include "flamegraph/profile_read.h"
#include "flamegraph/report.h"
#include "profile/frame_namer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes `p` every way into a memory stream that is thrown away. */
static void write_all(struct profile *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return;
    struct report_options ro = {.top = 5, .json = true};
    (void)pprof_write(out, p);
    (void)gecko_write(out, p, "fuzz");
    (void)report_write(out, p, &ro);
    if (profile_select_weight(p, p->nweights - 1) == 0)
        (void)folded_write(out, p->trie, folded_name_of, p->names);
    fclose(out);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int pprof_named = 0; pprof_named < 2; pprof_named++) {
        struct profile one, sum;
        struct error e = ERROR_INIT;
        if (!profile_init(&one))
            return 0;
        if (profile_read_bytes(data, size, "fuzz", pprof_named, &one, &e) == 0 &&
            one.nweights > 0 && profile_init(&sum)) {
            if (profile_merge(&sum, &one, &e) == 0 && profile_merge(&sum, &one, &e) == 0)
                write_all(&sum);
            profile_free(&sum);
        }
        profile_free(&one);
    }
    return 0;
}
