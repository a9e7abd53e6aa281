/*
 * frame_name: the naming rules of docs/PERF.md#folding-rules, shared by `cli perf
 * collapse` (perf script text) and `cli perf fold` (perf.data): how a
 * sample's command name and each entry of its call chain become folded
 * frames, as Brendan Gregg's stackcollapse-perf.pl names them.
 *
 *   comm frame    spaces -> '_' (";" -> ":"), then "-PID" (--pid) or
 *                 "-PID/TID" (--tid); a PID the input lacks is "?"
 *   symbol frame  "+0x<hex>" offset removed; a legacy Rust name's
 *                 "::h<hash>" dropped and "$LT$"-style escapes decoded;
 *                 split at "->" (not "operator->") into an inline chain;
 *                 in each, ";" -> ":", everything from the first "(" outside
 *                 <>, {}, [] and () cut (not "(anonymous namespace)", not
 *                 in Go names like "net/http.(*Client).Do"), '"' and "'"
 *                 dropped; for a java command, a leading "L" of a name
 *                 with "/"
 *   no symbol     "[unknown]" without a module, else "[module basename]";
 *                 --addrs: "[libc.so.6 <7f12ab>]", "[unknown <7f12ab>]"
 *   annotations   "_[i]" on the frames of an inline chain after its first;
 *                 else --kernel "_[k]" (module "[...]" or ".../vmlinux"),
 *                 --jit "_[j]" (module "/tmp/perf-PID.map", ".../jitted-*.so")
 *
 * A name that comes out empty means: leave the frame out (the script
 * skips symbols that start with "(").
 */
#ifndef PERF_FRAME_NAME_H
#define PERF_FRAME_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/perf.h" /* struct perf_name_opts */

/* A name being built; reuse one for every frame (zero-initialise it). */
struct perf_name {
    char *data; /* NUL-terminated, `len` bytes */
    size_t len, cap;
};

void perf_name_free(struct perf_name *n);

/* Joins the frames of one entry in perf_frame_name's result. */
#define PERF_FRAME_SEPARATOR ';'

/* A pid or tid the input does not give: written "?" (-1 is a real value: perf's "no thread") */
#define PERF_ID_UNKNOWN INT64_MIN

/* The first frame of a stack. Returns 0, or -1 when memory runs out. */
int perf_comm_name(struct perf_name *out, const char *comm, size_t len, int64_t pid, int64_t tid,
                   const struct perf_name_opts *o);

/* Whether a command's symbols get the Java tidy ("Lorg/x/Y;.m" -> "org/x/Y:.m"). */
bool perf_comm_is_java(const char *comm, size_t len);

/* One call-chain entry as perf resolved it. */
struct perf_frame {
    const char *sym; /* NULL, "" or "[unknown]": no symbol; may end in "+0x<hex>" */
    size_t sym_len;
    const char *module; /* the DSO path; NULL, "" or "[unknown]": none known */
    size_t module_len;
    uint64_t addr; /* the sampled or return address, for --addrs */
    bool java;     /* the sample's command is java (perf_comm_is_java) */
};

/*
 * The frames of one call-chain entry: one, or those of an inline chain
 * "a->b->c" (perf-map-agent's unfolded Java symbols), joined by ';',
 * which no name holds otherwise (PERF_FRAME_SEPARATOR); a frame that comes
 * out empty is left out. Returns 0, or -1 when memory runs out.
 */
int perf_frame_name(struct perf_name *out, const struct perf_frame *f,
                    const struct perf_name_opts *o);

/*
 * The symbol rules alone, in place (the result is never longer); returns
 * the new length (no NUL is written). For callers that hold a symbol name
 * already.
 */
size_t perf_symbol_tidy(char *name, size_t len, bool java);

#endif
