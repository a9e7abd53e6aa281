#!/usr/bin/env python3
"""Check `cli execute --flamegraph` against an expected folded file or qemu.

Rule mode (hand-derived expectation, tests/flamegraph/rules/<name>.folded):

  check_folded.py --cli CLI --elf G.elf --expected G.folded

runs `cli execute G.elf --flamegraph OUT.folded --stats`, under each
engine (the translation tier where it can run, every block translated at
its first entry; the interpreter alone), and requires of each exit
status 0 (or --status N), OUT.folded byte for byte equal to G.folded, and
the sum of its counts equal to the `instructions: N` that --stats prints
on stderr. --checkpoint N adds --flamegraph-checkpoint-cycles N.

qemu mode (reference: qemu_fold.py, an independent implementation of
docs/CONTRACT.md#2-guest-profiles on qemu's instruction trace):

  check_folded.py --cli CLI --elf G.elf --qemu [--input G.in]

runs cli twice under each engine (as above), with --flamegraph OUT.folded
and with --flamegraph-raw OUT.raw.folded (and --private-input G.in), and
qemu_fold.py once, and requires all four outputs byte for byte equal to
qemu_fold.py's (the named
one with inline frames when the ELF has DWARF, as cli's default; with
--no-inline, cli and qemu_fold.py both without), the sums of
their counts equal to cli's `instructions: N`, and cli's exit status
equal to the guest's under qemu. With --max-cycles N, cli runs with
--max-cycles N and qemu_fold.py folds the first N instructions of the
trace; cli must exit 124 (when the guest runs longer) and still write
the flamegraph of what ran. The raw file carries the pcs as well
(`0x<target>@0x<pc>`, docs/FORMATS.md "Raw folded stacks") where the ELF
has DWARF (or with --lines): it is compared pcs and all, each leaf's pc as
it is; a frame below the leaf may carry any call pc with the same inline
chain (FORMATS.md), so there both files' call pcs become the smallest
call pc with that chain that qemu saw (qemu_fold.same_chain_pcs) before
the comparison.
--lines runs cli and qemu_fold.py with --lines. --enrich SCRIPT also runs
scripts/enrich_flamegraph.py on cli's raw file (with --lines / --no-inline
as given): its output must equal the reference named output too, so that
the raw file holds all that the named one says.

On a mismatch it prints a unified diff (at most --max-diff lines).
Exit status: 0 match, 1 mismatch or error, 77 qemu or llvm-addr2line is not
installed (qemu mode only; 1 under CI=true). CHECK_TIMEOUT: seconds per cli
run (default 600).
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu_fold  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

TIMEOUT = float(os.environ.get("CHECK_TIMEOUT", 600))


# Each check runs under both engines: the translation tier where it can
# run (--translate-after 0: every block translated on its first entry, so
# that the tiny guests' few loop passes run as translated code too), and
# the interpreter alone. Both must give the same expected output.
ENGINES = {"translate": ("--engine", "auto", "--translate-after", "0"),
           "interp": ("--engine", "interp")}


def run_cli(cli, elf, option, out, input_path, max_cycles=None, extra=(), engine="translate"):
    """cli execute elf <option> out --stats under `engine` (ENGINES): (exit
    status, instructions or None, stderr text)."""
    argv = [cli, "execute", elf, option, out, "--stats", *ENGINES[engine], *extra]
    if input_path:
        argv += ["--private-input", input_path]
    if max_cycles is not None:
        argv += ["--max-cycles", str(max_cycles)]
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=TIMEOUT)
    err = p.stderr.decode(errors="replace")
    m = re.search(r"^instructions:\s*(\d+)\s*$", err, re.M)
    return p.returncode, int(m.group(1)) if m else None, err


def count_sum(folded):
    """Sum of the counts of a folded file (bytes); None if a line is bad."""
    total = 0
    for line in folded.split(b"\n")[:-1] if folded.endswith(b"\n") else folded.split(b"\n"):
        m = re.match(rb"^.+ (\d+)$", line)
        if not m:
            return None
        total += int(m.group(1))
    return total


def diff(expected, got, exp_name, got_name, limit):
    lines = list(difflib.unified_diff(
        expected.decode("utf-8", "replace").splitlines(keepends=True),
        got.decode("utf-8", "replace").splitlines(keepends=True),
        fromfile=exp_name, tofile=got_name))
    text = "".join(lines[:limit])
    if len(lines) > limit:
        text += f"... ({len(lines) - limit} more diff lines)\n"
    if not text.endswith("\n"):
        text += "\n"
    return text


def check_output(problems, what, expected, got, exp_name, instructions, limit):
    if got is None:
        problems.append(f"{what}: cli wrote no file")
        return
    if got != expected:
        problems.append(f"{what} differs from {exp_name} (- expected, + cli):\n"
                        + diff(expected, got, exp_name, "cli", limit))
    s = count_sum(got)
    if s is None:
        problems.append(f"{what}: not in folded format (`stack COUNT` lines, "
                        f"newline-terminated)")
    elif instructions is not None and s != instructions:
        problems.append(f"{what}: the counts sum to {s}, cli --stats says "
                        f"instructions: {instructions}")


def check_enrich(problems, args, raw_path, want):
    """enrich_flamegraph.py on cli's raw file must give `want`."""
    argv = [sys.executable, args.enrich, "--elf", args.elf, "-i", raw_path]
    argv += (["--lines"] if args.lines else []) + (["--no-inline"] if args.no_inline else [])
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    if p.returncode != 0:
        problems.append(f"enrich_flamegraph.py exit status {p.returncode}: "
                        f"{p.stderr.decode(errors='replace').strip()}")
        return
    check_output(problems, "enrich_flamegraph.py on --flamegraph-raw", want, p.stdout,
                 "qemu_fold.py", None, args.max_diff)


def read_or_none(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--expected", help="expected named folded output")
    ap.add_argument("--qemu", action="store_true",
                    help="compare named and raw output with qemu_fold.py")
    ap.add_argument("--input", help="private input file")
    ap.add_argument("--status", type=int, default=0,
                    help="(with --expected) cli's expected exit status (default 0)")
    ap.add_argument("--checkpoint", type=int,
                    help="(with --expected) also pass --flamegraph-checkpoint-cycles N: "
                         "the final file must be the same")
    ap.add_argument("--max-cycles", type=int,
                    help="(with --qemu) run cli with --max-cycles N and compare with "
                         "the first N instructions of qemu's trace: exit status 124 "
                         "when the guest runs longer, the flamegraph still written")
    ap.add_argument("--no-inline", action="store_true",
                    help="(with --qemu) cli --no-inline against qemu_fold.py --no-inline")
    ap.add_argument("--lines", action="store_true",
                    help="(with --qemu) cli --lines against qemu_fold.py --lines")
    ap.add_argument("--enrich", metavar="SCRIPT",
                    help="(with --qemu) enrich_flamegraph.py: from cli's raw file it "
                         "must give the reference's named output")
    ap.add_argument("--max-diff", type=int, default=200)
    args = ap.parse_args()
    if bool(args.expected) == args.qemu:
        ap.error("give exactly one of --expected FILE and --qemu")
    if not os.access(args.cli, os.X_OK):
        sys.exit(f"error: {args.cli} is not an executable cli")
    if not os.path.exists(args.elf):
        sys.exit(f"error: {args.elf} does not exist: build the guests first")

    problems = []
    with tempfile.TemporaryDirectory(prefix="flamegraph-") as tmp:
        named_path = os.path.join(tmp, "out.folded")
        raw_path = os.path.join(tmp, "out.raw.folded")

        if args.expected:
            with open(args.expected, "rb") as f:
                expected = f.read()
            extra = ()
            if args.checkpoint is not None:
                extra = ("--flamegraph-checkpoint-cycles", str(args.checkpoint))
            for engine in ENGINES:
                before = len(problems)
                code, n, err = run_cli(args.cli, args.elf, "--flamegraph", named_path,
                                       args.input, extra=extra, engine=engine)
                if code != args.status:
                    problems.append(f"{engine}: cli exit status {code}, expected {args.status}")
                if n is None:
                    problems.append(f"{engine}: no 'instructions: N' line on the stderr of "
                                    f"cli --stats")
                check_output(problems, f"{engine}: --flamegraph", expected,
                             read_or_none(named_path), args.expected, n, args.max_diff)
                if len(problems) > before and err.strip():
                    problems.append(f"{engine}: cli stderr:\n{err.rstrip()}")
        else:
            try:
                ref = qemu_fold.fold(args.elf, args.input or os.devnull,
                                     max_instructions=args.max_cycles,
                                     inline=not args.no_inline, lines=args.lines)
            except qemu_fold.QemuMissing as e:
                ctest_status.skip(str(e))
            if ref.exit_code < 0:
                problems.append(f"the guest dies under qemu (signal {-ref.exit_code}): "
                                f"{ref.stderr.strip()}")
            want_code = ref.exit_code
            if args.max_cycles is not None:
                if ref.total == args.max_cycles:
                    sys.exit(f"error: the guest runs exactly {ref.total} instructions: "
                             f"choose another --max-cycles")
                if ref.total > args.max_cycles:
                    want_code = 124
            extra = (("--no-inline",) if args.no_inline else ()) + \
                (("--lines",) if args.lines else ())
            for engine in ENGINES:
                for option, path, want, label in (
                        ("--flamegraph", named_path, ref.named, "qemu_fold.py"),
                        ("--flamegraph-raw", raw_path, ref.raw, "qemu_fold.py --raw")):
                    before, what = len(problems), f"{engine}: {option}"
                    code, n, err = run_cli(args.cli, args.elf, option, path, args.input,
                                           args.max_cycles, extra, engine)
                    if code != want_code:
                        problems.append(f"{what}: cli exit status {code}, expected "
                                        f"{want_code}")
                    if n is None:
                        problems.append(f"{what}: no 'instructions: N' line on the "
                                        f"stderr of cli --stats")
                    elif n != ref.instructions:
                        problems.append(f"{what}: cli instructions: {n}, qemu "
                                        f"{ref.instructions}")
                    got = read_or_none(path)
                    if option == "--flamegraph-raw" and ref.call_rep:
                        want = qemu_fold.same_chain_pcs(want, ref.call_rep)
                        if got is not None:
                            got = qemu_fold.same_chain_pcs(got, ref.call_rep)
                    check_output(problems, what, want, got, label, n, args.max_diff)
                    if len(problems) > before and err.strip():
                        problems.append(f"{what}: cli stderr:\n{err.rstrip()}")
                if args.enrich:
                    check_enrich(problems, args, raw_path, ref.named)

    name = os.path.basename(args.elf)
    if problems:
        print(f"FAIL {name}")
        for p in problems:
            print("    " + p.rstrip("\n").replace("\n", "\n    "))
        return 1
    print(f"ok   {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
