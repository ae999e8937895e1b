#!/usr/bin/env python3
"""Faults survived (issue 17, docs/security.md): a guest that never ends is
stopped from outside with a clear message and whole logs.

    faults-survived.py LINX_USER LINX_SYSTEM SPIN_USER READ_USER SPIN_VIRT

SPIN_USER / SPIN_VIRT loop forever (tests/functional/guest/spin-*.s);
READ_USER reads standard input forever (blocked in the host's read()).

Checks, under the JIT and the interpreter:
  * -timeout N ends a spinning program (linx-user and linx-system) after
    about N seconds with exit status 124 and "timeout: ... -timeout" on
    stderr; also a program blocked in read() on an idle pipe;
  * SIGTERM and SIGINT to a running linx-user / linx-system with -D,
    -d in_asm and -trace-commit: the process dies of that signal (the
    parent sees it), says so on stderr, every line of the commit trace is
    a complete JSON object with the schema's last field, and the -D log
    holds the translated block and ends with a newline (before: the log
    was empty and the trace ended in the middle of a line);
  * without -D/-trace/-timeout, SIGTERM keeps its default action.
A run that does not end within a bounded time is a failure, not a hang.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

LINX_USER, LINX_SYSTEM, SPIN_USER, READ_USER, SPIN_VIRT = sys.argv[1:6]
LIMIT = 60  # seconds a run may take before it counts as hung
failures = []


def check(name, ok, detail=""):
    if ok:
        print("ok: %s" % name)
    else:
        failures.append(name)
        print("FAIL: %s: %s" % (name, detail))


def run_bounded(cmd, stdin=None):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=LIMIT, stdin=stdin)
    except subprocess.TimeoutExpired:
        return None, "", "hung for %d s" % LIMIT, LIMIT
    return p.returncode, p.stdout, p.stderr, time.time() - t0


def test_timeouts():
    for accel in ("jit", "interp"):
        for tool, prog in ((LINX_USER, [SPIN_USER]), (LINX_SYSTEM, ["-kernel", SPIN_VIRT])):
            name = "%s -accel %s -timeout 1" % (os.path.basename(tool), accel)
            rc, out, err, took = run_bounded([tool, "-accel", accel, "-timeout", "1"] + prog)
            check(name + ": exit status 124", rc == 124, (rc, err))
            check(name + ": message", "timeout: the program ran longer than 1.000 s (-timeout)"
                  in err, err)
            check(name + ": about one second", 0.9 <= took < 30, took)
    # Blocked in the host's read(): the watcher's kick makes it return.
    r, w = os.pipe()
    try:
        rc, out, err, took = run_bounded([LINX_USER, "-timeout", "0.5", READ_USER], stdin=r)
    finally:
        os.close(r)
        os.close(w)
    check("blocked read: exit status 124", rc == 124, (rc, err))
    check("blocked read: stopped soon", took < 30, took)
    # Bad values are usage errors.
    for bad in ("0", "-1", "abc", "1e99"):
        rc, out, err, took = run_bounded([LINX_USER, "-timeout", bad, SPIN_USER])
        check("-timeout %s refused" % bad, rc == 2 and "-timeout" in err, (rc, err))


def stop_with(sig, tool, prog, tmp, tag):
    trace = os.path.join(tmp, tag + ".jsonl")
    log = os.path.join(tmp, tag + ".log")
    cmd = [tool, "-trace-commit", trace, "-D", log, "-d", "in_asm"] + prog
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        check(tag + ": ends", False, "still running %d s after the signal" % LIMIT)
        return
    name = signal.Signals(sig).name
    check(tag + ": dies of " + name, p.returncode == -sig, (p.returncode, err))
    check(tag + ": says so", "stopped by %s" % name in err, err)
    with open(trace, "rb") as f:
        data = f.read()
    check(tag + ": trace ends with a newline", data.endswith(b"\n"), data[-80:])
    lines = data.splitlines()
    # Every line is one whole record: it opens with the first field and
    # closes after the last; the last few are parsed in full.
    bad = [ln for ln in lines if not (ln.startswith(b'{"cycle":') and b'"next_pc":' in ln
                                      and ln.endswith(b"}"))]
    for ln in lines[-200:]:
        try:
            json.loads(ln)
        except ValueError:
            bad.append(ln)
    check(tag + ": trace lines are whole JSON objects", not bad and len(lines) > 1000,
          (len(lines), bad[0][:120] if bad else None))
    with open(log) as f:
        text = f.read()
    check(tag + ": -D log flushed", "IN:" in text and text.endswith("\n"), text[-200:])


def test_signals():
    with tempfile.TemporaryDirectory(prefix="faults-") as tmp:
        stop_with(signal.SIGTERM, LINX_USER, [SPIN_USER], tmp, "user-term")
        stop_with(signal.SIGINT, LINX_USER, ["-accel", "interp", SPIN_USER], tmp, "user-int")
        stop_with(signal.SIGTERM, LINX_SYSTEM, ["-kernel", SPIN_VIRT], tmp, "system-term")
        stop_with(signal.SIGINT, LINX_SYSTEM, ["-kernel", SPIN_VIRT], tmp, "system-int")
    # Nothing to flush: SIGTERM keeps its default action.
    p = subprocess.Popen([LINX_USER, SPIN_USER], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.3)
    p.terminate()
    try:
        p.communicate(timeout=LIMIT)
        check("plain run: SIGTERM kills", p.returncode == -signal.SIGTERM, p.returncode)
    except subprocess.TimeoutExpired:
        p.kill()
        check("plain run: SIGTERM kills", False, "hung")


for t in (test_timeouts, test_signals):
    try:
        t()
    except Exception as e:  # noqa: BLE001 - any error is a failed check
        check(t.__name__, False, "%s: %s" % (type(e).__name__, e))

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all fault checks passed")
