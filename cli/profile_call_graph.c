/*
 * profile_call_graph: frame pointers or DWARF for `cli profile`
 * (profile_call_graph.h): the command's ELF files, found as exec and the
 * loader find them, each put to frame_pointer_census.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/profile_call_graph.h"
#include "cli/profile_run.h"
#include "perf/symbols/elf_file.h"
#include "perf/dwarf/frame_pointers.h"

#define MAX_NEEDED 64 /* libraries looked at, at most */

/* The runtime libraries whose frames do not decide: the C library, the loader, libgcc, libstdc++.
 */
static bool is_runtime_library(const char *name)
{
    static const char *const prefixes[] = {"libc.so",    "libm.so",      "ld-linux",
                                           "libpthread", "libdl.so",     "librt.so",
                                           "libgcc_s",   "libstdc++.so", "ld64.so"};
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

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

/* Appends the directories of a colon-separated list, $ORIGIN replaced. */
static void add_dirs(const char *list, const char *origin, char *dirs, size_t size)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof(copy), "%s", list);
    for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        size_t used = strlen(dirs);
        if (strncmp(d, "$ORIGIN", 7) == 0)
            snprintf(dirs + used, size - used, "%s%s:", origin, d + 7);
        else
            snprintf(dirs + used, size - used, "%s:", d);
    }
}

/* What the dynamic section says of the libraries (names into the ELF's string table). */
struct dynamic_facts {
    const char *rpath, *runpath;
    const char *needed[MAX_NEEDED];
    size_t nneeded;
};

/* One walk of `ef`'s .dynamic (no section: all empty). */
static void read_dynamic(const struct elf_file *ef, struct dynamic_facts *df)
{
    memset(df, 0, sizeof(*df));
    GElf_Shdr sh;
    Elf_Scn *dyn = elf_file_section(ef, ".dynamic", &sh, NULL);
    Elf_Data *d = dyn ? elf_getdata(dyn, NULL) : NULL;
    for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
        GElf_Dyn e;
        if (!gelf_getdyn(d, (int)i, &e) || e.d_tag == DT_NULL)
            break;
        const char *text = elf_strptr(ef->elf, sh.sh_link, e.d_un.d_val);
        if (e.d_tag == DT_RPATH)
            df->rpath = text;
        else if (e.d_tag == DT_RUNPATH)
            df->runpath = text;
        else if (e.d_tag == DT_NEEDED && text && df->nneeded < MAX_NEEDED)
            df->needed[df->nneeded++] = text;
    }
}

/* The library search path of the ELF at `path` (origin: its directory), in ld.so's order. */
static void search_path(const struct dynamic_facts *df, const char *path, char *dirs, size_t size)
{
    char origin[PATH_MAX];
    snprintf(origin, sizeof(origin), "%s", path);
    char *slash = strrchr(origin, '/');
    if (slash)
        *slash = '\0';
    dirs[0] = '\0';
    if (df->rpath && !df->runpath)
        add_dirs(df->rpath, origin, dirs, size);
    if (getenv("LD_LIBRARY_PATH"))
        add_dirs(getenv("LD_LIBRARY_PATH"), origin, dirs, size);
    if (df->runpath)
        add_dirs(df->runpath, origin, dirs, size);
    add_dirs("/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib/aarch64-linux-gnu:"
             "/usr/lib/aarch64-linux-gnu:/lib64:/usr/lib64:/lib:/usr/lib:/usr/local/lib",
             origin, dirs, size);
}

/* Finds library `name` along `dirs`; false when it is nowhere. */
static bool find_library(const char *name, const char *dirs, char *out, size_t size)
{
    char copy[4 * PATH_MAX];
    snprintf(copy, sizeof(copy), "%s", dirs);
    for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, size, "%s/%s", d, name);
        if (access(out, R_OK) == 0)
            return true;
    }
    return false;
}

/* Whether the ELF at `path` keeps frame pointers (true when it cannot tell). */
static bool keeps_frame_pointers(const char *path)
{
    struct frame_pointer_census c;
    return frame_pointer_census(path, &c) != 0 || c.functions == 0 ||
           frame_pointer_census_has_fp(&c);
}

/* The first library `ef` needs that lacks frame pointers, into why; false when none does. */
static bool library_without_fp(const struct elf_file *ef, const char *path, char *why, size_t size)
{
    struct dynamic_facts df;
    char dirs[4 * PATH_MAX], lib[PATH_MAX];
    read_dynamic(ef, &df);
    search_path(&df, path, dirs, sizeof(dirs));
    for (size_t i = 0; i < df.nneeded; i++) {
        if (is_runtime_library(df.needed[i]) || !find_library(df.needed[i], dirs, lib, sizeof(lib)))
            continue;
        if (!keeps_frame_pointers(lib)) {
            snprintf(why, size, "%s", lib);
            return true;
        }
    }
    return false;
}

const char *profile_call_graph(const char *path, char *why, size_t size)
{
    char interp[PATH_MAX];
    if (script_interpreter(path, interp, sizeof(interp)))
        path = interp;
    if (!keeps_frame_pointers(path)) {
        snprintf(why, size, "%s", path);
        return "dwarf";
    }
    struct elf_file ef;
    if (elf_file_open(&ef, path) != 0)
        return "fp";
    bool lib = library_without_fp(&ef, path, why, size);
    elf_file_close(&ef);
    return lib ? "dwarf" : "fp";
}
