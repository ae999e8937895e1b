#!/bin/sh
# The bundled examples end to end: hello.s assembled by linx-as as ET_EXEC
# and as ET_REL runs on the virt machine (JIT and interpreter), prints
# "hello" on the UART and exits with status 0; hello-linux.s does the same
# through write/exit under Linux user mode.
#
#   linx-as-hello.sh LINX_AS LINX_SYSTEM HELLO_S LINX_USER HELLO_LINUX_S
set -eu

as=$1
system=$2
hello=$3
user=$4
hello_linux=$5
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
"$as" -o "$tmp/hello-linux" "$hello_linux"
status=0
"$user" "$tmp/hello-linux" > "$tmp/out" 2> "$tmp/err" || status=$?
if [ "$status" -ne 0 ] || [ "$(cat "$tmp/out")" != hello ]; then
    echo "FAIL: hello-linux: status $status, output '$(cat "$tmp/out")'"
    cat "$tmp/err"
    fails=$((fails + 1))
fi
[ "$fails" -eq 0 ] || exit 1
echo "hello.s: prints hello and exits 0 on virt (ET_EXEC, ET_REL; jit, interp); hello-linux.s under linx-user"
