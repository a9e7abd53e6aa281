/*
 * profile_call_graph: frame pointers or DWARF for `cli profile`
 * (profile_call_graph.h): the ELF file the command runs (a script's
 * interpreter, through `#!` and `env`), then it and its libraries asked
 * whether they keep frame pointers (perf/perf.h).
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/profile_call_graph.h"
#include "cli/profile_run.h"
#include "perf/perf.h"

/* The interpreter of a `#!` script, through `env NAME`; false when `path` is no script. */
static bool script_interpreter(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    char line[PATH_MAX];
    bool script = f && fgets(line, sizeof(line), f) && strncmp(line, "#!", 2) == 0;
    if (f)
        fclose(f);
    if (!script)
        return false;
    char *word = strtok(line + 2, " \t\r\n");
    if (word && strcmp(strrchr(word, '/') ? strrchr(word, '/') + 1 : word, "env") == 0) {
        word = strtok(NULL, " \t\r\n");
        while (word && word[0] == '-') /* env -S and the like */
            word = strtok(NULL, " \t\r\n");
        return word && profile_which(word, out, size) == 0;
    }
    if (!word)
        return false;
    snprintf(out, size, "%s", word);
    return true;
}

const char *profile_call_graph(const char *path, char *why, size_t size)
{
    char interp[PATH_MAX];
    if (script_interpreter(path, interp, sizeof(interp)))
        path = interp;
    if (!frame_pointers_kept(path)) {
        snprintf(why, size, "%s", path);
        return "dwarf";
    }
    return frame_pointers_lacking_library(path, why, size) ? "dwarf" : "fp";
}
