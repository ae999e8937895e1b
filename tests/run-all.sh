#!/bin/sh
# Build linxemu and run every test suite.  Prints "N passed, N failed,
# N skipped" at the end and exits non-zero on any failure.
#
#   tests/run-all.sh              all suites in ./build (configured if needed)
#   tests/run-all.sh --sanitize   all suites in ./build-asan under ASan+UBSan
#                                 (leaks included; configured with clang and
#                                 libFuzzer when available: tests/fuzz/run.sh
#                                 then uses the same build)
#   tests/run-all.sh --suite S    only meson suite S (unit, guest, functional,
#                                 optest, fuzz; an unknown S is an error)
#
# The summary is read from this run's meson log only (a log left by an
# earlier run is removed first; no log is a failure), and names the count
# of the operator suite (tests/optest) when it ran.
set -eu
srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"

builddir=build
sanitize=no
suites=""
while [ $# -gt 0 ]; do
    case "$1" in
    --sanitize) sanitize=yes; builddir=build-asan ;;
    --suite)
        [ $# -ge 2 ] || { echo "run-all: --suite needs a name" >&2; exit 2; }
        shift; suites="$suites --suite $1" ;;
    --builddir=*) builddir=${1#*=} ;;
    *) echo "run-all: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

if [ ! -f "$builddir/build.ninja" ]; then
    if [ "$sanitize" = yes ]; then
        ./configure --builddir="$builddir" --sanitize
    else
        ./configure --builddir="$builddir"
    fi
fi
ninja -C "$builddir"

# A suite that does not exist would run nothing and look green.
known=$(meson test -C "$builddir" --list 2>/dev/null | sed -n 's/^[^:]*:\([^ ]*\) \/ .*/\1/p' | sort -u)
set -- $suites
while [ $# -gt 0 ]; do
    if [ "$1" = --suite ] && ! printf '%s\n' "$known" | grep -qx "$2"; then
        echo "run-all: unknown suite '$2' (known: $(echo $known))" >&2
        exit 2
    fi
    shift
done
rm -f "$builddir/meson-logs/testlog.json" "$builddir"/meson-logs/optest-*.json

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

status=0
multiplier=1
if [ "$sanitize" = yes ]; then
    multiplier=4 # instrumented code is slower
fi
# shellcheck disable=SC2086
meson test -C "$builddir" --print-errorlogs --num-processes 2 --timeout-multiplier $multiplier \
    $suites || status=$?

python3 - "$builddir/meson-logs/testlog.json" "$builddir" <<'PY' || status=1
import glob, json, os, sys
ok = fail = skip = 0
failed = []
if not os.path.exists(sys.argv[1]):
    print("run-all: meson wrote no test log (%s): nothing ran" % sys.argv[1])
    print("0 passed, 1 failed, 0 skipped (%s)" % sys.argv[2])
    sys.exit(1)
for path in sorted(glob.glob(os.path.join(sys.argv[2], "meson-logs", "optest-*.json"))):
    with open(path) as f:
        r = json.load(f)
    s = r["summary"]
    print("operator suite (%s): %d cases: %d passed, %d failed, %d skipped in %.1f s" %
          (r["accel"], s["total"], s["passed"], s["failed"], s["skipped"], r["wall_time"]))
with open(sys.argv[1]) as f:
    for line in f:
        r = json.loads(line)
        res = r.get("result")
        if res in ("OK", "EXPECTEDFAIL"):
            ok += 1
        elif res == "SKIP":
            skip += 1
        else:
            fail += 1
            failed.append(r.get("name"))
for n in failed:
    print("FAILED (%s): %s" % (sys.argv[2], n))
print("%d passed, %d failed, %d skipped (%s)" % (ok, fail, skip, sys.argv[2]))
PY
exit $status
