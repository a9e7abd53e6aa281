#!/usr/bin/env python3
"""Checks the include direction between the source folders
(docs/ARCHITECTURE.md): the libraries never include the interpreter
(executor/) or the program (cli/), so data flows one way, executor ->
tracer -> trie -> writers, and writing goes cli -> flamegraph only.

Each library may include headers from the folders listed for it, and from
nothing else of the project; system headers (<...>) are not checked.
Exits 1 naming every offending #include line, 0 when there is none.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])

ALLOWED = {
    "common": {"common"},
    "symtab": {"symtab", "common"},
    "flamegraph": {"flamegraph", "common", "third_party"},
    "perf": {"perf", "flamegraph", "symtab", "common"},
    "tracer": {"tracer", "flamegraph", "symtab", "common"},
}

# Single headers a folder may include beyond its folders: the tracer knows
# the executor only through the contract its traced loops report to.
KNOWN_EXCEPTIONS = {("tracer/guest_profile.h", "executor/trace.h")}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def offences():
    for folder, allowed in ALLOWED.items():
        for path in sorted((ROOT / folder).glob("*.[ch]")):
            rel = path.relative_to(ROOT).as_posix()
            for header in INCLUDE.findall(path.read_text(errors="replace")):
                top = header.split("/", 1)[0] if "/" in header else folder
                if top not in allowed and (rel, header) not in KNOWN_EXCEPTIONS:
                    yield f'{rel}: #include "{header}": {folder}/ may include only ' + \
                        ", ".join(sorted(allowed))


def main():
    bad = list(offences())
    for line in bad:
        print(line, file=sys.stderr)
    stale = [e for e in KNOWN_EXCEPTIONS
             if not (ROOT / e[0]).exists() or f'"{e[1]}"' not in (ROOT / e[0]).read_text()]
    for rel, header in stale:
        print(f"note: known exception {rel} -> {header} is gone; remove it from "
              f"KNOWN_EXCEPTIONS", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
