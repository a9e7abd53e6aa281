#!/usr/bin/env python3
"""Checks the include direction between the source folders
(docs/ARCHITECTURE.md): every folder and subfolder that holds C files has
a rule saying which other folders it may include from, so data flows one
way, executor -> tracer -> profile model -> writers, perf -> profile
model, and the program (cli/) sees each library it uses through one
public header (PROGRAM_HEADERS), the executor through run/.

The rooms, lowest first: common/ (a leaf); symtab/; executor/precompile/,
executor/ and executor/abi/ (the interpreter); profile/ (the data model:
tries, string tables, profiles); flamegraph/ (readers and writers of the
formats, above profile/, knowing nothing of executor/); tracer/ (between
the executor's trace contract and the profile); perf/ (perf.data to a
profile, knowing nothing of the interpreter); run/ (a guest run as a
library: executor, tracer, inline frames, weights, its profile); cli/ on
top. Tests, scripts
and guests have rules of their own. executor/translate/ (the translation
tier) includes executor/ and common/, and every other folder sees it only
through its one header (ROOM_HEADERS).

perf/ has rooms of its own, one floor each, lowest first: perf/data/,
perf/symbols/, perf/machine/, perf/dwarf/, perf/fold/; a floor includes
the floors below it, never one above. Its top holds only its public
header, perf/perf.h, which includes none of the rooms; a folder outside
perf/ that may not see the rooms (cli/, scripts/) includes from perf/
only that header.

An include is resolved as the compiler does: next to the including file
first ("../ctest_skip.h"), else from the source root ("perf/fold/fold.h"); a
bare name found in neither is the folder's own (a -I of its build).
System headers (<...>) are not checked. A folder with C files and no rule
is an offence too, so a new folder must be given one; so is a file other
than a public header at the top of a library with rooms.

Exits 1 naming every offending #include line, 0 when there is none.
With --self-test, after checking the tree it plants a violation in a
temporary copy of each folder (an #include of a folder the rule forbids)
and in a new folder without a rule, plus the cases RULES_TO_PROVE lists
(perf/'s floors, cli/ reaching into a room) and an internal header put
at perf/'s top, and fails unless the check catches every one.
"""
import os
import pathlib
import re
import shutil
import sys
import tempfile

# The libraries, lowest first. perf/ is its public header (perf/perf.h) and
# the rooms behind it (PERF_ROOMS); only perf/'s own rooms and the tests see
# the rooms.
LIBRARIES = ["common", "symtab", "executor/precompile", "executor/translate", "executor",
             "executor/abi", "profile", "flamegraph", "tracer", "perf", "run"]

# perf/'s rooms, one floor each, lowest first: a floor includes the floors
# below it, never one above (docs/PERF.md, "The rooms of perf/").
PERF_ROOMS = ["perf/data", "perf/symbols", "perf/machine", "perf/dwarf", "perf/fold"]

# What else each floor includes: the public header's folder and libraries.
PERF_ROOM_LIBRARIES = {
    "perf/data": {"perf", "common"},
    "perf/symbols": {"perf", "symtab", "common"},
    "perf/machine": {"perf", "symtab", "common"},
    "perf/dwarf": {"perf", "symtab", "common"},
    "perf/fold": {"perf", "profile", "symtab", "common"},
}

# Which folders each folder may include from, besides itself.
ALLOWED = {
    "common": set(),
    "symtab": {"common"},
    "executor/precompile": {"common"},
    "executor/translate": {"executor", "common"},
    "executor": {"common", "executor/translate"},
    "executor/abi": {"executor", "executor/precompile", "common"},
    "profile": {"common"},
    "flamegraph": {"profile", "common", "third_party/pprof"},
    "tracer": {"profile", "symtab", "common"},
    "perf": {"profile", "common"},
    **{room: set(PERF_ROOMS[:i]) | PERF_ROOM_LIBRARIES[room] for i, room in enumerate(PERF_ROOMS)},
    "run": {"executor", "executor/abi", "tracer", "symtab", "profile", "flamegraph", "common"},
    "cli": {"common", "profile", "flamegraph", "perf", "run"},
    "scripts": set(LIBRARIES),
    "guests": set(),
    "guests/runtime": set(),
    "guests/zkvm": set(),
    "tests": set(),
    "tests/unit": set(LIBRARIES) | set(PERF_ROOMS) | {"tests", "tests/translate_diff"},
    "tests/fuzz": set(LIBRARIES) | set(PERF_ROOMS) | {"tests", "tests/translate_diff"},
    "tests/translate_diff": {"executor", "executor/abi", "executor/translate", "common"},
    "tests/perf": {"perf", *PERF_ROOMS, "profile", "symtab", "common", "tests"},
    "tests/perf/programs": set(),
    "tests/inline": {"symtab", "common", "tests"},
    "tests/precompile": {"executor", "executor/abi", "executor/precompile", "common", "tests"},
    "tests/speedscope": {"flamegraph", "profile", "common", "tests"},
    "tests/isa": set(),
    "tests/flamegraph/rules": set(),
}

# The public headers of a library with rooms: all its top may hold, and all
# a folder that may see none of its rooms includes from it.
PUBLIC_HEADERS = {"perf": {"perf/perf.h"}}

# Rooms that the rest of their library (and everyone else) sees through one
# header: the translation tier, which the executor calls into from the
# machine and the fast loops only (executor/translate/translate.h).
ROOM_HEADERS = {"executor/translate": "executor/translate/translate.h"}

# The one header the program (cli/) includes from each library it sees; it
# reaches the executor, the tracer and symtab/ only through run/run.h.
PROGRAM_HEADERS = {"common": {"common/error.h", "common/warning.h"},
                   "profile": {"profile/profile.h"}, "flamegraph": {"flamegraph/flamegraph.h"},
                   "perf": {"perf/perf.h"}, "run": {"run/run.h"}}

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
                  ("flamegraph", "perf/fold/fold.h"), ("executor", "tracer/weights.h"),
                  ("executor/precompile", "executor/machine.h"), ("common", "symtab/symtab.h"),
                  ("tracer", "cli/cli.h"), ("tracer", "perf/fold/fold.h"), ("tracer", "run/run.h"),
                  ("tracer", "flamegraph/folded.h"), ("executor", "run/run.h"), ("run", "cli/cli.h"),
                  ("run", "perf/fold/fold.h"), ("run", "perf/perf.h"),
                  # perf/'s floors: never a higher one; cli/ only through perf/perf.h
                  ("perf/data", "perf/symbols/build_id.h"), ("perf/data", "perf/fold/fold.h"),
                  ("perf/symbols", "perf/machine/perf_dso.h"),
                  ("perf/machine", "perf/dwarf/unwind_dwarf.h"),
                  ("perf/dwarf", "perf/fold/stack.h"), ("perf", "perf/data/perf_file.h"),
                  ("cli", "perf/fold/fold.h"), ("cli", "perf/data/perf_file.h"),
                  # cli/: one public header per library, the executor only through run/
                  ("cli", "flamegraph/svg.h"), ("cli", "profile/trie.h"),
                  ("cli", "executor/machine.h"), ("cli", "tracer/weights.h"),
                  ("cli", "run/run_weights.h"),
                  ("scripts", "perf/machine/maps_snapshot.h"),
                  # the translation tier: one header for the executor, nothing above it
                  ("executor", "executor/translate/translate_block.h"),
                  ("executor/translate", "executor/abi/abi.h"),
                  ("executor/translate", "tracer/weights.h")]

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


def target_path(root, rel, header):
    """The path (relative to root) of the header `rel` includes."""
    here = pathlib.PurePosixPath(rel).parent
    local = os.path.normpath((here / header).as_posix())
    if (root / local).is_file():
        return local
    if "/" not in header:
        return (here / header).as_posix()
    return os.path.normpath(header)


def target_folder(root, rel, header):
    """The folder (relative to root) the header `rel` includes lives in."""
    return os.path.dirname(target_path(root, rel, header))


def within(folder, library):
    return folder == library or folder.startswith(library + "/")


def public_offence(root, rel, folder, header):
    """Why `rel` may not include `header` past a library's public headers, or None."""
    path = target_path(root, rel, header)
    top = os.path.dirname(path)
    if folder == "cli" and top in PROGRAM_HEADERS and path not in PROGRAM_HEADERS[top]:
        return f"cli/ includes {top}/ only through " + ", ".join(sorted(PROGRAM_HEADERS[top]))
    if top in ROOM_HEADERS and folder != top and path != ROOM_HEADERS[top]:
        return f"{folder}/ includes {top}/ only through {ROOM_HEADERS[top]}"
    for library, public in PUBLIC_HEADERS.items():
        if not within(os.path.dirname(path), library) or within(folder, library):
            continue
        sees_rooms = any(within(f, library) and f != library for f in ALLOWED.get(folder, ()))
        if not sees_rooms and path not in public:
            return f"{folder}/ includes {library}/ only through " + ", ".join(sorted(public))
    return None


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
        if folder in PUBLIC_HEADERS and rel not in PUBLIC_HEADERS[folder]:
            yield f"{rel}: {folder}/ holds only its public header(s) " + \
                ", ".join(sorted(PUBLIC_HEADERS[folder])) + "; put the rest in one of its rooms"
        allowed = ALLOWED[folder] | {folder}
        text = (root / rel).read_text(errors="replace")
        for header in INCLUDE.findall(text):
            top = target_folder(root, rel, header)
            if (rel, header) in KNOWN_EXCEPTIONS:
                continue
            if top not in allowed:
                yield f'{rel}: #include "{header}": {folder}/ may include only ' + \
                    ", ".join(sorted(allowed))
            elif (why := public_offence(root, rel, folder, header)):
                yield f'{rel}: #include "{header}": {why}'


def stale_exceptions(root):
    root = pathlib.Path(root)
    return [e for e in sorted(KNOWN_EXCEPTIONS)
            if not (root / e[0]).exists() or f'"{e[1]}"' not in (root / e[0]).read_text()]


def plant_is_caught(copy, folder, header):
    """Whether an #include of `header` planted in `folder` of the copy is an offence."""
    plant = copy / folder / "zz_planted_violation.c"
    plant.write_text(f'#include "{header}"\n')
    found = [o for o in offences(copy) if o.startswith(f"{folder}/zz_planted_violation.c")]
    plant.unlink()
    return bool(found)


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
            planted += 1
            if not plant_is_caught(copy, folder, headers[banned[0]]):
                misses.append(f"{folder}/: an #include of {headers[banned[0]]} went unnoticed")
        for folder, header in RULES_TO_PROVE:
            if not (copy / folder).is_dir():
                continue
            planted += 1
            if not plant_is_caught(copy, folder, header):
                misses.append(f"{folder}/: an #include of {header} went unnoticed")
        for library, public in PUBLIC_HEADERS.items():
            internal = copy / library / "zz_internal.h"
            internal.write_text("int zz;\n")
            plant = copy / "cli" / "zz_planted_violation.c"
            plant.write_text(f'#include "{library}/zz_internal.h"\n')
            found = [o for o in offences(copy)]
            caught_top = any(o.startswith(f"{library}/zz_internal.h:") for o in found)
            caught_cli = any(o.startswith("cli/zz_planted_violation.c") for o in found)
            plant.unlink()
            internal.unlink()
            planted += 2
            if not caught_top:
                misses.append(f"{library}/: an internal header at its top went unnoticed")
            if not caught_cli:
                misses.append(f"cli/: an #include of {library}/zz_internal.h went unnoticed")
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
