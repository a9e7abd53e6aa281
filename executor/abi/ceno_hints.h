/*
 * ceno_hints: the hints region of a Ceno guest, laid out from the --input
 * items as ceno_host lays out CenoStdin, in the format the guest's ceno_rt
 * reads: rkyv's (d6191f74, 2024-12 .. fe4b65da, 2025-12) or ceno_serde's
 * (cff9d41d, 2025-12-31, on). Internal to the Ceno ABI (ceno.c). Docs:
 * docs/ZKVMS.md.
 */
#ifndef EXECUTOR_ABI_CENO_HINTS_H
#define EXECUTOR_ABI_CENO_HINTS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "executor/elf_image.h"
#include "executor/machine.h"

enum ceno_hint_format {
    CENO_HINTS_SERDE, /* data offset, alignment 4, the lengths, items padded to 4 */
    CENO_HINTS_RKYV,  /* each item's end, the items padded to 16 */
};

/*
 * The format a guest reads: rkyv for guests linked for ROM at 0x2000_0000
 * (`earlier`: all before cff9d41d), and for later ones whose bytes name
 * rkyv (its symbols, or ceno_rt's "Deserialised access failed.") and not
 * ceno_serde; ceno_serde's otherwise.
 */
enum ceno_hint_format ceno_hint_format_of(const struct elf_image *img, bool earlier);

/* "rkyv" or "ceno_serde". */
const char *ceno_hint_format_name(enum ceno_hint_format f);

/*
 * Writes the --input items (each one item, already serialized) to guest
 * memory [at, end) in format f: 0, or -1 with ERROR_UNSUPPORTED in `e`
 * when they do not fit.
 */
int ceno_lay_out_hints(struct machine *m, enum ceno_hint_format f, uint64_t at, uint64_t end,
                       struct error *e);

#endif
