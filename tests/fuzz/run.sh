#!/bin/sh
# Run the fuzz targets under libFuzzer (clang -fsanitize=fuzzer) for a
# bounded time each.  .ci/run calls this script when it exists.
#
#   tests/fuzz/run.sh [SECONDS]      (default 60, or $FUZZ_SECONDS)
#
# Prints "SKIP: ..." and exits 0 when clang or libFuzzer is not available.
# Exits non-zero when a target finds a crash or a broken invariant; the
# reproducer is left in $FUZZ_DIR (default build-fuzz/) as crash-*.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
seconds=${1:-${FUZZ_SECONDS:-60}}
out=${FUZZ_DIR:-$src/build-fuzz}
cc=${CLANG:-clang}

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz: SKIP: $cc not found"
    exit 0
fi
mkdir -p "$out"
probe="$out/probe.c"
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe"
if ! "$cc" -fsanitize=fuzzer "$probe" -o "$out/probe" >/dev/null 2>&1; then
    echo "fuzz: SKIP: $cc cannot build libFuzzer targets (-fsanitize=fuzzer)"
    exit 0
fi

isa_srcs="target/linx/insn-table.c target/linx/decode.c target/linx/disas-syntax.c
target/linx/disas.c target/linx/asm-insn.c target/linx/asm-insn-ops.c target/linx/asm-insn-tile.c
target/linx/header-form.c"

status=0
for target in fuzz-decode; do
    exe="$out/$target"
    corpus="$out/$target-corpus"
    mkdir -p "$corpus"
    # Seed corpus: the instruction words of the shared listings, if present.
    listing_dir="${LINX_SHARED_DIR:-$src/../shared}/guest/disasm"
    if [ -d "$listing_dir" ] && [ -z "$(ls -A "$corpus")" ]; then
        python3 - "$listing_dir" "$corpus" <<'PY' || true
import os, re, sys
n = 0
for name in sorted(os.listdir(sys.argv[1])):
    for line in open(os.path.join(sys.argv[1], name), errors="replace"):
        m = re.match(r"\s*[0-9a-f]+:\s+((?:[0-9a-f]{4,8} )+)\s*\t", line)
        if not m:
            continue
        data = b""
        for w in m.group(1).split():
            data += int(w, 16).to_bytes(len(w) // 2, "little")
        open(os.path.join(sys.argv[2], "seed-%04d" % n), "wb").write(data)
        n += 1
PY
    fi
    (cd "$src" && "$cc" -std=gnu11 -g -O1 -D_GNU_SOURCE -DLINX_FUZZ_LIBFUZZER \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -I. -Itarget/linx tests/fuzz/$target.c $isa_srcs -o "$exe") || {
        echo "fuzz: FAIL: cannot build $target"
        status=1
        continue
    }
    echo "fuzz: running $target for ${seconds}s"
    if (cd "$out" && "$exe" -max_total_time="$seconds" -print_final_stats=1 "$corpus" \
            >"$out/$target.log" 2>&1); then
        echo "fuzz: $target: OK ($(ls "$corpus" | wc -l) corpus files)"
    else
        echo "fuzz: FAIL: $target found a problem; see $out/$target.log"
        tail -20 "$out/$target.log"
        status=1
    fi
done
# linx-optest's readers (a script of their own: other sources and flags)
"$here/run-optest.sh" "$seconds" || status=1
exit $status
