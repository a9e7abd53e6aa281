#!/usr/bin/env python3
"""Checks the conventions docs/ARCHITECTURE.md states for the libraries
(every folder below cli/):

- errors (common/error.h): a function that takes a `struct error *`
  returns 0 or -1 (or an object or NULL), never bool;
- warnings (common/warning.h): a library never writes to stderr or
  stdout, nor ends the process (exit, abort; a forked child _exits); it warns through the sink
  its caller gives it, and only cli/cli.c prints "warning: " lines
  (cli_warn), so no other file of cli/ spells one out.

Exits 1 naming every offence, 0 when there is none. With --self-test it
then plants one offence of each kind in a temporary copy of the tree and
fails unless each is caught.
"""
import pathlib
import re
import shutil
import sys
import tempfile

LIBRARIES = ["common", "symtab", "executor", "profile", "flamegraph", "tracer", "perf", "run"]
# The one library file whose job is to write to stdout: an output named "-".
MAY_WRITE_STDOUT = {"flamegraph/output_file.c"}

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
BOOL_WITH_ERROR = re.compile(r"^(?:static\s+)?(?:inline\s+)?bool\s+(\w+)\s*\(([^;{)]*)\)", re.M)
STREAM = re.compile(r"\b(stderr|stdout)\b")
# _exit is left out: a forked child ends with it (perf/dwarf/debug_cache.c).
ENDS_PROCESS = re.compile(r"\b(exit|abort)\s*\(")


def library_files(root):
    for library in LIBRARIES:
        for path in sorted((root / library).rglob("*.[ch]")):
            yield path.relative_to(root).as_posix(), path


def offences(root):
    root = pathlib.Path(root)
    for rel, path in library_files(root):
        code = COMMENT.sub(" ", path.read_text(errors="replace"))
        for m in BOOL_WITH_ERROR.finditer(code):
            if "struct error" in m.group(2):
                yield f"{rel}: {m.group(1)} takes a struct error and returns bool: return 0 or -1"
        bare = STRING.sub('""', code)
        if rel not in MAY_WRITE_STDOUT:
            for m in STREAM.finditer(bare):
                yield f"{rel}: uses {m.group(1)}: a library warns through its warning_sink"
        for m in ENDS_PROCESS.finditer(bare):
            yield f"{rel}: calls {m.group(1)}(): a library returns its error"
    for path in sorted((root / "cli").glob("*.c")):
        rel = path.relative_to(root).as_posix()
        if rel != "cli/cli.c" and '"warning: ' in COMMENT.sub(" ", path.read_text()):
            yield f'{rel}: spells out "warning: ": say it with cli_warn'


def self_test(root):
    plants = [("executor/zz_plant.c", "#include <stdbool.h>\nstruct error;\n"
               "bool zz(int a, struct error *e) { return a; }\n", "returns bool"),
              ("perf/fold/zz_plant.c", '#include <stdio.h>\nvoid zz(void) { fprintf(stderr, "x"); }\n',
               "uses stderr"),
              ("run/zz_plant.c", "#include <stdlib.h>\nvoid zz(void) { exit(1); }\n", "calls exit"),
              ("cli/zz_plant.c", 'const char *zz = "warning: x";\n', "cli_warn")]
    misses = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp) / "tree"
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns("build*", ".git", "node_modules",
                                                                  "third_party"))
        for rel, text, what in plants:
            (copy / rel).write_text(text)
            if not any(o.startswith(rel) and what in o for o in offences(copy)):
                misses.append(f"{rel}: a planted offence ({what}) went unnoticed")
            (copy / rel).unlink()
    for m in misses:
        print(f"self-test: {m}")
    if not misses:
        print(f"self-test: planted {len(plants)} offences: all caught")
    return not misses


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "--self-test" else ".")
    found = list(offences(root))
    for o in found:
        print(o)
    ok = not found
    if "--self-test" in sys.argv:
        ok = self_test(root) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
