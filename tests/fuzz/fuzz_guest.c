/*
 * fuzz_guest: libFuzzer target for everything a guest file reaches: the
 * ELF checks, the symbol table, the ABI's choice and (when the file is
 * accepted) the machine running it for a few thousand instructions with a
 * profile attached, then the profile named and raw, written folded. It
 * goes through run/ as `cli execute` does. Any crash, leak or sanitizer
 * report is a bug: bad input must end in an error, never in undefined
 * behaviour.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/render.h"
#include "run/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The profile of `frames` built and written as folded stacks to `out`. */
static void write_folded(struct run *r, enum run_frames frames, FILE *out)
{
    struct profile p;
    struct svg_options svg;
    svg_options_init(&svg);
    if (run_profile(r, frames, &p) == 0)
        render_write_profile(out, &p, 0, RENDER_FOLDED, &svg, "fuzz");
    profile_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    FILE *out = fopen("/dev/null", "w");
    if (!copy || !out) {
        free(copy);
        if (out)
            fclose(out);
        return 0;
    }
    memcpy(copy, data, size);
    struct run_options o = {.guest_path = "fuzz input",
                            .image = copy, /* the run takes it */
                            .image_size = size,
                            .max_cycles = 3000, /* folded output grows with depth squared */
                            .profile = true,
                            .no_inline = true,
                            /* warnings dropped */};
    struct machine_io io = {.private_input_fd = -1,
                            .stdout_fd = -1,
                            .stderr_fd = -1,
                            .public_output_fd = -1,
                            .stack_size = 1 << 16};
    struct run r;
    struct error e = ERROR_INIT;
    if (run_open(&r, &o, &e) == 0 && run_start(&r, &io, &e) == 0 && run_trace(&r, &e) == 0) {
        run_execute(&r);
        write_folded(&r, RUN_FRAMES_NAMED, out);
        write_folded(&r, RUN_FRAMES_RAW, out);
    }
    run_close(&r);
    fclose(out);
    return 0;
}
