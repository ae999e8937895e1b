#!/bin/sh
# tests/run-all.sh refuses what would run nothing (issue 12 "no false
# greens"): an unknown --suite (it used to run nothing and print the
# counts of an earlier run's log, exit 0), --suite without a name, an
# unknown option.
#
#   run-all-cli.sh SOURCE_ROOT BUILD_DIR
set -u
src=$1
build=$2
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

expect() { # status text args...
    want=$1
    text=$2
    shift 2
    "$src/tests/run-all.sh" "$@" >"$out" 2>&1
    got=$?
    if [ "$got" != "$want" ] || ! grep -qF -- "$text" "$out"; then
        echo "FAIL: run-all.sh $*: status $got (want $want), expected '$text' in:"
        cat "$out"
        fail=1
    fi
}

expect 2 "run-all: unknown suite 'nosuch' (known:" --builddir="$build" --suite nosuch
expect 2 "run-all: unknown suite 'optes'" --builddir="$build" --suite optest --suite optes
expect 2 "run-all: --suite needs a name" --builddir="$build" --suite
expect 2 "run-all: unknown option --bogus" --builddir="$build" --bogus
[ $fail = 0 ] && echo "run-all-cli: 4 checks passed"
exit $fail
