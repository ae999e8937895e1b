#!/bin/sh
# Build linxemu and run every test suite.  Prints "N passed, N failed,
# N skipped" at the end and exits non-zero on any failure.
#
#   tests/run-all.sh              all suites in ./build (configured if needed)
#   tests/run-all.sh --sanitize   unit tests in ./build-asan under ASan+UBSan
#   tests/run-all.sh --suite S    only meson suite S (unit, guest, functional, fuzz)
set -eu
srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"

builddir=build
sanitize=no
suites=""
while [ $# -gt 0 ]; do
    case "$1" in
    --sanitize) sanitize=yes; builddir=build-asan ;;
    --suite) shift; suites="$suites --suite $1" ;;
    --builddir=*) builddir=${1#*=} ;;
    *) echo "run-all: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

if [ ! -f "$builddir/build.ninja" ]; then
    if [ "$sanitize" = yes ]; then
        ./configure --builddir="$builddir" --sanitize --debug
    else
        ./configure --builddir="$builddir"
    fi
fi
ninja -C "$builddir"

if [ "$sanitize" = yes ] && [ -z "$suites" ]; then
    suites="--suite unit"
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

status=0
# shellcheck disable=SC2086
meson test -C "$builddir" --print-errorlogs --num-processes 2 $suites || status=$?

python3 - "$builddir/meson-logs/testlog.json" "$builddir" <<'PY'
import json, sys
ok = fail = skip = 0
failed = []
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
