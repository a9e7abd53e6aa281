#!/usr/bin/env python3
"""Checks the include direction between the source folders
(docs/ARCHITECTURE.md): every folder and subfolder that holds C files has
a rule saying which other folders it may include from, so data flows one
way, executor -> tracer -> profile model -> writers, perf -> profile
model, and only the program (cli/) sees every library.

The rooms, lowest first: common/ (a leaf); symtab/; executor/precompile/,
executor/ and executor/abi/ (the interpreter); profile/ (the data model:
tries, string tables, profiles); flamegraph/ (readers and writers of the
formats, above profile/, knowing nothing of executor/); tracer/ (between
the executor's trace contract and the profile); perf/ (perf.data to a
profile, knowing nothing of the interpreter); run/ (a guest run as a
library: executor, tracer, inline frames, weights, its profile); cli/ on
top. Tests, scripts
and guests have rules of their own.

An include is resolved as the compiler does: next to the including file
first ("../ctest_skip.h"), else from the source root ("perf/fold.h"); a
bare name found in neither is the folder's own (a -I of its build).
System headers (<...>) are not checked. A folder with C files and no rule
is an offence too, so a new folder must be given one.

Exits 1 naming every offending #include line, 0 when there is none.
With --self-test, after checking the tree it plants a violation in a
temporary copy of each folder (an #include of a folder the rule forbids)
and in a new folder without a rule, and fails unless the check catches
every one.
"""
import os
import pathlib
import re
import shutil
import sys
import tempfile

# The libraries, lowest first.
LIBRARIES = ["common", "symtab", "executor/precompile", "executor", "executor/abi", "profile",
             "flamegraph", "tracer", "perf", "run"]

# Which folders each folder may include from, besides itself.
ALLOWED = {
    "common": set(),
    "symtab": {"common"},
    "executor/precompile": {"common"},
    "executor": {"common"},
    "executor/abi": {"executor", "executor/precompile", "common"},
    "profile": {"common"},
    "flamegraph": {"profile", "common", "third_party/pprof"},
    "tracer": {"profile", "symtab", "common"},
    "perf": {"profile", "symtab", "common"},
    "run": {"executor", "executor/abi", "tracer", "symtab", "profile", "flamegraph", "common"},
    "cli": set(LIBRARIES),
    "scripts": set(LIBRARIES),
    "guests": set(),
    "guests/runtime": set(),
    "guests/zkvm": set(),
    "tests": set(),
    "tests/unit": set(LIBRARIES) | {"tests"},
    "tests/fuzz": set(LIBRARIES) | {"tests"},
    "tests/perf": {"perf", "profile", "symtab", "common", "tests"},
    "tests/perf/programs": set(),
    "tests/inline": {"symtab", "common", "tests"},
    "tests/precompile": {"executor", "executor/abi", "executor/precompile", "common", "tests"},
    "tests/speedscope": {"flamegraph", "profile", "common", "tests"},
    "tests/isa": set(),
    "tests/flamegraph/rules": set(),
}

# Single headers a folder may include beyond its folders: the tracer knows
# the executor only through the contract its traced loops report to, and
# the machine holds the ABI it runs under.
KNOWN_EXCEPTIONS = {("tracer/guest_profile.h", "executor/trace.h"),
                    ("executor/machine.h", "executor/abi/abi.h")}

# Violations the self-test plants besides one per folder, for the rules
# that matter most: the model below everything that uses it, perf/ and the
# renderers blind to the interpreter, the executor below the tracer.
RULES_TO_PROVE = [("profile", "flamegraph/folded.h"), ("profile", "tracer/weights.h"),
                  ("perf", "executor/machine.h"), ("perf", "tracer/weights.h"),
                  ("flamegraph", "executor/machine.h"), ("flamegraph", "tracer/weights.h"),
                  ("flamegraph", "perf/fold.h"), ("executor", "tracer/weights.h"),
                  ("executor/precompile", "executor/machine.h"), ("common", "symtab/symtab.h"),
                  ("tracer", "cli/cli.h"), ("tracer", "perf/fold.h"), ("tracer", "run/run.h"),
                  ("tracer", "flamegraph/folded.h"),
                  ("executor", "run/run.h"), ("run", "cli/cli.h"), ("run", "perf/fold.h")]

# Not the project's sources: build trees, vendored code, npm's packages.
SKIP_TOP = {"third_party", "node_modules"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel = pathlib.Path(dirpath).relative_to(root)
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith((".", "build")) and d not in SKIP_TOP
                             and d != "node_modules")
        for name in sorted(filenames):
            if name.endswith((".c", ".h")):
                yield (rel / name).as_posix()


def target_folder(root, rel, header):
    """The folder (relative to root) the header `rel` includes lives in."""
    here = pathlib.PurePosixPath(rel).parent
    local = os.path.normpath((here / header).as_posix())
    if (root / local).is_file():
        return os.path.dirname(local)
    if "/" not in header:
        return here.as_posix()
    return os.path.dirname(os.path.normpath(header))


def offences(root):
    root = pathlib.Path(root)
    unruled = set()
    for rel in sources(root):
        folder = pathlib.PurePosixPath(rel).parent.as_posix()
        if folder not in ALLOWED:
            if folder not in unruled:
                unruled.add(folder)
                yield f"{folder}/: no layering rule for this folder; give it one in " \
                      f"tests/layering/check_layering.py (ALLOWED)"
            continue
        allowed = ALLOWED[folder] | {folder}
        text = (root / rel).read_text(errors="replace")
        for header in INCLUDE.findall(text):
            top = target_folder(root, rel, header)
            if top not in allowed and (rel, header) not in KNOWN_EXCEPTIONS:
                yield f'{rel}: #include "{header}": {folder}/ may include only ' + \
                    ", ".join(sorted(allowed))


def stale_exceptions(root):
    root = pathlib.Path(root)
    return [e for e in sorted(KNOWN_EXCEPTIONS)
            if not (root / e[0]).exists() or f'"{e[1]}"' not in (root / e[0]).read_text()]


def self_test(root):
    """Plants a violation in each folder of a copy of the tree; returns the misses."""
    root = pathlib.Path(root)
    folders = sorted({pathlib.PurePosixPath(r).parent.as_posix() for r in sources(root)})
    headers = {}
    for rel in sources(root):
        if rel.endswith(".h"):
            headers.setdefault(pathlib.PurePosixPath(rel).parent.as_posix(), rel)
    misses = []
    with tempfile.TemporaryDirectory(prefix="zkprof-layering-") as tmp:
        copy = pathlib.Path(tmp) / "src"
        for rel in sources(root):
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / rel, copy / rel)
        if list(offences(copy)):
            return ["the unchanged copy of the tree already fails"]
        planted = 0
        for folder in folders:
            allowed = ALLOWED.get(folder, set()) | {folder}
            banned = [f for f in sorted(headers) if f not in allowed]
            if not banned:
                misses.append(f"{folder}/: no folder it may not include, nothing to plant")
                continue
            plant = copy / folder / "zz_planted_violation.c"
            plant.write_text(f'#include "{headers[banned[0]]}"\n')
            found = [o for o in offences(copy) if o.startswith(f"{folder}/zz_planted_violation.c")]
            plant.unlink()
            planted += 1
            if not found:
                misses.append(f"{folder}/: an #include of {headers[banned[0]]} went unnoticed")
        for folder, header in RULES_TO_PROVE:
            if not (copy / folder).is_dir():
                continue
            plant = copy / folder / "zz_planted_violation.c"
            plant.write_text(f'#include "{header}"\n')
            found = [o for o in offences(copy) if o.startswith(f"{folder}/zz_planted_violation.c")]
            plant.unlink()
            planted += 1
            if not found:
                misses.append(f"{folder}/: an #include of {header} went unnoticed")
        stray = copy / "zz_new_room" / "x.c"
        stray.parent.mkdir()
        stray.write_text("int x;\n")
        if not any(o.startswith("zz_new_room/: no layering rule") for o in offences(copy)):
            misses.append("a new folder without a rule went unnoticed")
        print(f"self-test: planted {planted} violations in {len(folders)} folders "
              f"and one unruled folder: {'all caught' if not misses else 'MISSED some'}")
    return misses


def main(argv):
    args = [a for a in argv if a != "--self-test"]
    root = pathlib.Path(args[0] if args else pathlib.Path(__file__).parents[2])
    bad = list(offences(root))
    for line in bad:
        print(line, file=sys.stderr)
    for rel, header in stale_exceptions(root):
        print(f"note: known exception {rel} -> {header} is gone; remove it from "
              f"KNOWN_EXCEPTIONS", file=sys.stderr)
    if bad:
        return 1
    if "--self-test" in argv:
        misses = self_test(root)
        for line in misses:
            print(f"self-test: {line}", file=sys.stderr)
        if misses:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
