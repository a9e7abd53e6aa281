/*
 * execute_weights: --weight and --cost-table for `cli execute`, and their
 * cost models chosen for the guest's ABI (what is wrong is a usage error).
 */
#include "cli/execute_weights.h"

#include <string.h>

#include "cli/cli.h"

const char execute_weights_help[] =
    "  --weight NAME          a weight of the profile, repeatable, in order (folded and\n"
    "                         SVG files show the first; pprof, Gecko and speedscope\n"
    "                         keep all): instructions; cycles (one per instruction,\n"
    "                         but RISC Zero's: with its kernel's and\n"
    "                         accelerators' cycles in each call's frame and paging,\n"
    "                         as [PageIn] and [PageOut] frames); gas (SP1: RV32 trace\n"
    "                         cells, v6 gas in tenths); area (ZisK); cells (OpenVM);\n"
    "                         class:NAME (one opcode class's instructions), classes\n"
    "                         (one weight per class); pages (the 1 KiB pages paging\n"
    "                         touches); or a --cost-table's name (docs/ZKVMS.md,\n"
    "                         \"Weights\"). One weight whose costs differ by class\n"
    "                         (gas, area, cells, class:NAME, a table) costs the run\n"
    "                         little (a cost clock), alone or beside instructions,\n"
    "                         cycles or pages; a second such weight costs more\n"
    "  --cost-table FILE      a weight from a JSON table of costs per opcode class,\n"
    "                         per call and per 1 KiB page (docs/FORMATS.md, \"Cost\n"
    "                         tables\"); added after the --weight ones unless named\n";

int execute_weights_option(struct execute_weights *w, int opt, const char *arg)
{
    size_t *n;
    const char *what;
    if (opt == EXECUTE_OPT_WEIGHT) {
        n = &w->nnames;
        what = "--weight";
    } else if (opt == EXECUTE_OPT_COST_TABLE) {
        n = &w->ntables;
        what = "--cost-table";
    } else {
        return CLI_NOT_OURS;
    }
    if (*n == EXECUTE_MAX_WEIGHTS) {
        cli_error("at most %d %s options per run", EXECUTE_MAX_WEIGHTS, what);
        return EXIT_USAGE;
    }
    if (opt == EXECUTE_OPT_WEIGHT && (!*arg || strchr(arg, ';'))) {
        cli_error("--weight wants a weight's name, not '%s'", arg);
        return EXIT_USAGE;
    }
    (opt == EXECUTE_OPT_WEIGHT ? w->names : w->tables)[(*n)++] = arg;
    return CLI_GO_ON;
}

static bool model_named(const struct run_weights *w, const char *name)
{
    for (size_t i = 0; i < w->nmodels; i++)
        if (strcmp(w->models[i].name, name) == 0)
            return true;
    return false;
}

/* The cost tables, read, go after the --weight names that do not name one. */
static int read_tables(struct cost_model *tables, const struct execute_weights *w)
{
    for (size_t i = 0; i < w->ntables; i++) {
        struct error e = ERROR_INIT;
        if (cost_model_read(&tables[i], w->tables[i], &e) != 0) {
            for (size_t j = 0; j < i; j++)
                cost_model_free(&tables[j]);
            return cli_fail(&e, NULL);
        }
    }
    return 0;
}

/* Moves table `t` into the weights (NULL name: it is used). */
static void take_table(struct run_weights *w, struct cost_model *t)
{
    w->models[w->nmodels++] = *t;
    memset(t, 0, sizeof(*t));
}

/* The built-in weight `name`; 0, or the exit status after reporting the error. */
static int add_builtin(struct run_weights *w, const char *name, const char *abi, int xlen)
{
    if (model_named(w, name) || w->nmodels == PROFILE_MAX_WEIGHTS) {
        cli_error("--weight %s: given twice, or past %d weights", name, PROFILE_MAX_WEIGHTS);
        return EXIT_USAGE;
    }
    struct error e = ERROR_INIT;
    if (cost_model_builtin(&w->models[w->nmodels], name, abi, xlen, &e) != 0) {
        cli_fail(&e, NULL);
        return EXIT_USAGE;
    }
    w->nmodels++;
    return 0;
}

/* `classes`: one class:NAME weight per opcode class, in the classes' order. */
static int add_classes(struct run_weights *w, const char *abi, int xlen)
{
    for (size_t c = 0; c < INSN_CLASS_COUNT; c++) {
        char name[64];
        snprintf(name, sizeof(name), CLASS_WEIGHT_PREFIX "%s", insn_class_name(c));
        int rc = add_builtin(w, name, abi, xlen);
        if (rc)
            return rc;
    }
    return 0;
}

static int resolve_names(const struct execute_weights *o, struct run_weights *w,
                         struct cost_model *tables, const char *abi, int xlen)
{
    for (size_t i = 0; i < o->nnames; i++) {
        if (model_named(w, o->names[i])) {
            cli_error("--weight %s is given twice", o->names[i]);
            return EXIT_USAGE;
        }
        size_t t = 0;
        while (t < o->ntables && !(tables[t].name && strcmp(tables[t].name, o->names[i]) == 0))
            t++;
        if (t < o->ntables) {
            take_table(w, &tables[t]);
            continue;
        }
        int rc = strcmp(o->names[i], "classes") == 0 ? add_classes(w, abi, xlen)
                                                     : add_builtin(w, o->names[i], abi, xlen);
        if (rc)
            return rc;
    }
    for (size_t t = 0; t < o->ntables; t++) {
        if (!tables[t].name)
            continue;
        if (model_named(w, tables[t].name) || w->nmodels == PROFILE_MAX_WEIGHTS) {
            cli_error("cost table %s: its weight '%s' is there already", o->tables[t],
                      tables[t].name);
            return EXIT_USAGE;
        }
        take_table(w, &tables[t]);
    }
    return 0;
}

/* One weight that pages memory at most, and `pages` only beside one. */
static int check_paging(const struct run_weights *w)
{
    const struct cost_model *paged = NULL;
    for (size_t i = 0; i < w->nmodels; i++) {
        if (!cost_model_pages(&w->models[i]))
            continue;
        if (paged) {
            cli_error("weights %s and %s both page memory: give one", paged->name,
                      w->models[i].name);
            return EXIT_USAGE;
        }
        paged = &w->models[i];
    }
    for (size_t i = 0; i < w->nmodels && !paged; i++) {
        if (w->models[i].counts_pages) {
            cli_error("--weight pages counts the pages another weight pages in and out: give "
                      "one that pages (RISC Zero's cycles, or a --cost-table with pages)");
            return EXIT_USAGE;
        }
    }
    return 0;
}

int execute_weights_resolve(const struct execute_weights *o, const char *abi, int xlen,
                            struct run_weights *w)
{
    struct cost_model tables[EXECUTE_MAX_WEIGHTS] = {0};
    int rc = read_tables(tables, o);
    if (rc)
        return rc;
    rc = resolve_names(o, w, tables, abi, xlen);
    for (size_t t = 0; t < o->ntables; t++)
        cost_model_free(&tables[t]);
    return rc ? rc : check_paging(w);
}
