/*
 * script_line: the two kinds of line `perf script` prints for a sample,
 * taken apart as stackcollapse-perf.pl takes them apart:
 *
 *   prog 21132/21133 [002]  2738.487175:     250000 cpu-clock:ppp:
 *   	            11ea c+0x9a (/tmp/pc/prog)
 *
 * A header starts in column 0: comm (which may hold spaces), the pid
 * field ("TID" as perf prints it by default, or "PID/TID"), then cpu,
 * time, period and event, each optional. A frame line is indented: the
 * address in hex, the symbol, the module in parentheses.
 */
#ifndef PERF_SCRIPT_LINE_H
#define PERF_SCRIPT_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct script_header {
    const char *comm; /* into the line */
    size_t comm_len;
    int64_t pid, tid;  /* PERF_ID_UNKNOWN when not printed; -1: perf knew no thread */
    size_t fields_end; /* the end of the pid field, or of a "[cpu]" right after it */
};

/*
 * Comm and pid field of a header line. Like the script, the comm is the
 * shortest prefix followed by a pid field, except that when pid-like
 * numbers follow one another ("Worker 1 1234 [000] ..."), the one right
 * before the cpu or time field is taken. False: not a header.
 */
bool script_header_parse(const char *line, size_t len, struct script_header *h);

struct script_event {
    const char *name; /* into the line; NULL: the header names no event */
    size_t name_len;
    bool has_period;
    uint64_t period;
};

/*
 * The "[PERIOD] EVENT:" that ends a header after the time field's ":"
 * (the script's /:\s*(\d+)*\s+(\S+):\s*$/) or, unlike the script, right
 * after the pid or cpu field when perf script prints no time
 * (-F comm,tid,period,event,...). Returns false only when the period does
 * not fit in 64 bits; a header without that ending gives name NULL.
 */
bool script_event_parse(const char *line, size_t len, const struct script_header *h,
                        struct script_event *e);

struct script_frame {
    uint64_t addr;
    const char *sym; /* into the line; empty when the line has none */
    size_t sym_len;
    const char *module; /* into the line, without the parentheses; NULL: none */
    size_t module_len;
};

/*
 * An indented frame line "ADDR [SYMBOL] [(MODULE)]". The module is the
 * balanced parenthesised group that ends the line, so "(/x/a.out
 * (deleted))" is one module. False: not a frame line.
 */
bool script_frame_parse(const char *line, size_t len, struct script_frame *f);

/*
 * A frame line printed without indent, in the form stackcollapse-perf.pl
 * wants of one: "ADDR SYMBOL (MODULE)", the module without spaces.
 */
bool script_unindented_frame_parse(const char *line, size_t len, struct script_frame *f);

/*
 * A header that holds the sample's one frame after its event, as perf
 * script prints samples recorded without a call chain (no -g):
 *
 *   false 64414 20110.539270:      34467 cycles:u:  ffffffff9aa3c8de [unknown] ([unknown])
 *
 * True with the event and the frame; false when no frame follows the
 * event (or the period does not fit in 64 bits).
 */
bool script_sample_frame_parse(const char *line, size_t len, const struct script_header *h,
                               struct script_event *e, struct script_frame *f);

#endif
