"""Differential test: `cli execute` against qemu-user, guest by guest.

For a guest ELF and its input (GUEST_INPUTS/<name>.in, or empty input when
there is none) it runs

    cli execute g.elf --private-input IN --public-output PUB --stats
    qemu-riscvXX -singlestep -d exec,nochain -D LOG g.elf < IN 3> PUB

and requires the same exit status, the same stdout, the same public output
(fd 3), and `instructions: N` from --stats equal to the number of `Trace`
lines in qemu's log (one per instruction executed, the final ecall
included: docs/CONTRACT.md#what-is-counted). The log goes through a pipe and is counted on
the fly, so long guests need no disk space for it. A second cli run without
--stats must also write to stderr exactly what the guest does under qemu.

Usage:
  test_differential.py --guest NAME --xlen 32|64|32c|64c   one guest (one ctest
                                                   test; 32c/64c: its build with C)
  test_differential.py                             every *-rv32/64.elf in GUEST_DIR
Environment: CLI (path of cli, or --cli), GUEST_DIR (where <name>-rvXX.elf
are), GUEST_INPUTS (where <name>.in are), DIFF_TIMEOUT (seconds per run,
default 600).
Exit status: 0 all match, 1 a mismatch, 77 qemu is not installed (skipped;
1 under CI=true).
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

TIMEOUT = float(os.environ.get("DIFF_TIMEOUT", 600))


@dataclass
class Run:
    code: int
    stdout: bytes
    public: bytes
    stderr: str
    instructions: int


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


def count_trace_lines(fd):
    """Number of lines starting with `Trace` read from fd until EOF."""
    count, tail = 0, b"\n"
    with os.fdopen(fd, "rb", buffering=0) as f:
        while chunk := f.read(1 << 20):
            buf = tail + chunk
            count += buf.count(b"\nTrace")
            tail = buf[-5:]  # shorter than the pattern: no match counted twice
    return count


def run_qemu(qemu, elf, input_path, tmp):
    """Run elf under qemu with stdin from input_path and fd 3 open on a
    file; count the instructions qemu logs."""
    out_path, err_path, pub_path = (os.path.join(tmp, f"qemu.{s}")
                                    for s in ("out", "err", "pub"))
    log_r, log_w = os.pipe()
    with open(input_path, "rb") as stdin, open(out_path, "wb") as stdout, \
            open(err_path, "wb") as stderr, open(pub_path, "wb") as pub:
        p = subprocess.Popen(
            [qemu, "-singlestep", "-d", "exec,nochain", "-D", f"/dev/fd/{log_w}", elf],
            stdin=stdin, stdout=stdout, stderr=stderr, pass_fds=(3, log_w),
            preexec_fn=lambda: os.dup2(pub.fileno(), 3))
    os.close(log_w)
    timed_out = threading.Event()
    timer = threading.Timer(TIMEOUT, lambda: (timed_out.set(), p.kill()))
    timer.start()
    try:
        n = count_trace_lines(log_r)
        code = p.wait()
    finally:
        timer.cancel()
    if timed_out.is_set():
        raise TimeoutError(f"qemu ran longer than {TIMEOUT:.0f} s (DIFF_TIMEOUT)")
    return Run(code, read_file(out_path), read_file(pub_path),
               read_file(err_path).decode(errors="replace"), n)


def run_cli(cli, elf, input_path, tmp, stats=True):
    pub_path = os.path.join(tmp, "cli.pub")
    argv = [cli, "execute", elf, "--public-output", pub_path] + (["--stats"] if stats else [])
    if input_path != os.devnull:
        argv += ["--private-input", input_path]
    p = subprocess.run(argv, capture_output=True, timeout=TIMEOUT)
    stderr = p.stderr.decode(errors="replace")
    m = re.search(r"^instructions:\s*(\d+)\s*$", stderr, re.M)
    public = read_file(pub_path) if os.path.exists(pub_path) else b""
    return Run(p.returncode, p.stdout, public, stderr, int(m.group(1)) if m else None)


def first_difference(a, b):
    """Where two byte strings first differ, with a little context."""
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    return (f"lengths {len(a)} vs {len(b)}, first difference at byte {i}: "
            f"cli {a[max(0, i - 20):i + 40]!r} vs qemu {b[max(0, i - 20):i + 40]!r}")


def compare(cli, qemu, elf, input_path):
    """List of mismatches between cli and qemu for one guest (empty: match)."""
    with tempfile.TemporaryDirectory(prefix="diff-") as tmp:
        q = run_qemu(qemu, elf, input_path, tmp)
        c = run_cli(cli, elf, input_path, tmp)
        quiet = run_cli(cli, elf, input_path, tmp, stats=False)
    problems = []
    if q.code < 0:
        problems.append(f"the guest dies under qemu (signal {-q.code}): a broken guest? "
                        f"qemu stderr: {q.stderr.strip()!r}")
    if c.code != q.code:
        problems.append(f"exit status: cli {c.code}, qemu {q.code}")
    if c.stdout != q.stdout:
        problems.append("stdout: " + first_difference(c.stdout, q.stdout))
    if c.public != q.public:
        problems.append("public output (fd 3): " + first_difference(c.public, q.public))
    if quiet.stderr != q.stderr:
        problems.append("stderr without --stats: " + first_difference(
            quiet.stderr.encode(), q.stderr.encode()))
    if c.instructions is None:
        problems.append("no 'instructions: N' line in the stderr of cli --stats")
    elif c.instructions != q.instructions:
        problems.append(f"instructions: cli {c.instructions}, qemu {q.instructions} "
                        f"(difference {c.instructions - q.instructions:+d})")
    if problems:
        problems.append(f"cli stderr:\n{c.stderr.rstrip()}")
    return problems


def guest_list(guest_dir, name=None, xlen=None):
    """[(name, xlen, path)]: the one asked for, or every guest in guest_dir."""
    if name:
        return [(name, xlen, os.path.join(guest_dir, f"{name}-rv{xlen}.elf"))]
    found = []
    for path in sorted(glob.glob(os.path.join(guest_dir, "*-rv[36][24].elf"))):
        m = re.match(r"(.*)-rv(32|64)\.elf$", os.path.basename(path))
        found.append((m.group(1), int(m.group(2)), path))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--guest", help="guest name (file <name>-rv<xlen>.elf)")
    ap.add_argument("--xlen", choices=("32", "64", "32c", "64c"), default="32",
                    help="which build: <name>-rv<xlen>.elf (c: with compressed instructions)")
    ap.add_argument("--cli", default=os.environ.get("CLI"))
    ap.add_argument("--guest-dir", default=os.environ.get("GUEST_DIR"))
    ap.add_argument("--inputs", default=os.environ.get("GUEST_INPUTS"))
    args = ap.parse_args()

    if not args.cli or not os.access(args.cli, os.X_OK):
        sys.exit(f"error: no executable cli (set CLI or --cli; got {args.cli!r})")
    if not args.guest_dir:
        sys.exit("error: set GUEST_DIR or --guest-dir to the built guests directory")
    guests = guest_list(args.guest_dir, args.guest, args.xlen)
    if not guests:
        sys.exit(f"error: no *-rv32.elf / *-rv64.elf in {args.guest_dir}")

    failed, skipped = 0, []
    for name, xlen, elf in guests:
        bits = str(xlen).rstrip("c")
        qemu = shutil.which(f"qemu-riscv{bits}")
        if not qemu:
            skipped.append(f"{name} rv{xlen}: qemu-riscv{bits} is not installed "
                           f"(Debian package qemu-user)")
            continue
        if not os.path.exists(elf):
            problems = [f"{elf} does not exist: build the guests first "
                        f"(cmake --build <build>)"]
        else:
            inp = os.path.join(args.inputs or "", f"{name}.in")
            problems = compare(args.cli, qemu, elf, inp if os.path.exists(inp) else os.devnull)
        print(f"{'FAIL' if problems else 'ok  '} {name} rv{xlen}")
        for p in problems:
            print("    " + p.replace("\n", "\n    "))
        failed += bool(problems)
    if len(guests) > 1:
        print(f"{len(guests) - failed - len(skipped)} of {len(guests)} guests match qemu")
    if failed:
        return 1
    if skipped:
        ctest_status.skip(*skipped)
    return 0


if __name__ == "__main__":
    sys.exit(main())
