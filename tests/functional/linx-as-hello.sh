#!/bin/sh
# The bundled example end to end: hello.s assembled by linx-as as ET_EXEC
# and as ET_REL runs on the virt machine (JIT and interpreter), prints
# "hello" on the UART and exits with status 0.
#
#   linx-as-hello.sh LINX_AS LINX_SYSTEM HELLO_S
set -eu

as=$1
system=$2
hello=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

for fmt in exec rel; do
    "$as" -f "$fmt" -o "$tmp/hello.$fmt" "$hello"
    for accel in jit interp; do
        status=0
        "$system" -M virt -accel "$accel" -kernel "$tmp/hello.$fmt" > "$tmp/out" 2> "$tmp/err" ||
            status=$?
        if [ "$status" -ne 0 ] || [ "$(cat "$tmp/out")" != hello ]; then
            echo "FAIL: $fmt/$accel: status $status, output '$(cat "$tmp/out")'"
            cat "$tmp/err"
            fails=$((fails + 1))
        fi
    done
done
[ "$fails" -eq 0 ] || exit 1
echo "hello.s: prints hello and exits 0 on virt (ET_EXEC, ET_REL; jit, interp)"
