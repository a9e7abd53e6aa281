/*
 * frame_pointers: whether a program's code keeps frame pointers, which
 * `perf record --call-graph fp` needs to walk its stacks. `cli profile`
 * asks it of the ELF files a command runs and records DWARF stacks where
 * they have none (docs/PERF.md, "Recording: cli profile"), through
 * frame_pointers_kept and frame_pointers_lacking_library (perf/perf.h).
 *
 * The census reads the unwind tables (.eh_frame, which stripped files
 * keep): a function that keeps a frame pointer computes its canonical
 * frame address from it (rbp on x86-64, x29 on AArch64) once its
 * prologue has run, one that does not from the stack pointer throughout.
 * Functions are found from the symbol tables, or in a stripped file from
 * .eh_frame_hdr's search table; at most FRAME_POINTER_SAMPLE of them,
 * spread evenly, are asked at a few pcs of their bodies.
 */
#ifndef PERF_FRAME_POINTERS_H
#define PERF_FRAME_POINTERS_H

#include <stdbool.h>

#define FRAME_POINTER_SAMPLE 512

struct frame_pointer_census {
    unsigned functions; /* looked at; 0: not an ELF this census reads, or no functions found */
    unsigned with_fp;   /* of those, beginning with a frame-pointer prologue */
};

/*
 * Counts the functions of the ELF file at `path`. Returns 0, or -1 when it
 * cannot be opened as an ELF file (then the census is all zero).
 */
int frame_pointer_census(const char *path, struct frame_pointer_census *out);

/*
 * Whether the census shows frame pointers: a quarter of its functions
 * keep them. Code built with them has most (the C runtime's start-up
 * functions, a third of a small program's, have none); code built
 * without has next to none (Debian's /bin/ls: 1 of 318, libc: 14 of 512).
 */
static inline bool frame_pointer_census_has_fp(const struct frame_pointer_census *c)
{
    return 4 * c->with_fp >= c->functions;
}

#endif
