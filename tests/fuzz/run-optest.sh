#!/bin/sh
# Run tests/fuzz/fuzz-optest.c (linx-optest's .npy, manifest and JSON
# readers) under libFuzzer for a bounded time; tests/fuzz/run.sh calls it.
#
#   tests/fuzz/run-optest.sh [SECONDS]      (default 60, or $FUZZ_SECONDS)
#
# The seed corpus is the real material: the manifests of tests/optest,
# .npy files of the build's generated data, and a report of the suite.
# Prints "SKIP: ..." and exits 0 without clang/libFuzzer; exits non-zero
# when an invariant breaks (the reproducer is left in $FUZZ_DIR).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
seconds=${1:-${FUZZ_SECONDS:-60}}
out=${FUZZ_DIR:-$src/build-fuzz}
cc=${CLANG:-clang}
target=fuzz-optest

if ! command -v "$cc" >/dev/null 2>&1 || ! pkg-config --exists glib-2.0; then
    echo "fuzz: SKIP: $target needs $cc and glib-2.0"
    exit 0
fi
mkdir -p "$out"
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$out/probe-optest.c"
if ! "$cc" -fsanitize=fuzzer "$out/probe-optest.c" -o "$out/probe-optest" >/dev/null 2>&1; then
    echo "fuzz: SKIP: $cc cannot build libFuzzer targets (-fsanitize=fuzzer)"
    exit 0
fi
exe="$out/$target"
corpus="$out/$target-corpus"
mkdir -p "$corpus"
if [ -z "$(ls -A "$corpus")" ]; then
    # first byte: the reader (0 .npy, 1 manifest, 2 JSON), second: a dtype selector
    n=0
    for f in $(find "$src/tests/optest" -name '*.optest' | sort); do
        { printf '\001\000'; cat "$f"; } >"$corpus/seed-manifest-$n"
        n=$((n + 1))
    done
    for f in $(find "$src/build/tests/optest/data" -name '*.npy' 2>/dev/null | sort | awk 'NR % 40 == 1'); do
        { printf '\000\000'; cat "$f"; } >"$corpus/seed-npy-$n"
        n=$((n + 1))
    done
    for f in "$src"/build/meson-logs/optest-*.json; do
        [ -f "$f" ] || continue
        { printf '\002\000'; head -c 20000 "$f"; } >"$corpus/seed-json-$n"
        n=$((n + 1))
    done
fi
(cd "$src" && "$cc" -std=gnu11 -g -O1 -D_GNU_SOURCE -DLINX_FUZZ_LIBFUZZER \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. \
    tests/fuzz/$target.c tools/linx-optest/manifest.c tools/linx-optest/matrix.c \
    tools/linx-optest/tensor.c tools/linx-optest/json.c hw/linx/tile-dtype.c \
    $(pkg-config --cflags --libs glib-2.0) -lm -o "$exe") || {
    echo "fuzz: FAIL: cannot build $target"
    exit 1
}
echo "fuzz: running $target for ${seconds}s"
if (cd "$out" && "$exe" -max_total_time="$seconds" -print_final_stats=1 "$corpus" \
        >"$out/$target.log" 2>&1); then
    echo "fuzz: $target: OK ($(ls "$corpus" | wc -l) corpus files)"
else
    echo "fuzz: FAIL: $target found a problem; see $out/$target.log"
    tail -20 "$out/$target.log"
    exit 1
fi
