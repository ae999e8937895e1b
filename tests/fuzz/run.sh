#!/bin/sh
# Run every fuzz target under libFuzzer (clang -fsanitize=fuzzer with ASan
# and UBSan) for a bounded time each - the seven of tests/fuzz/meson.build
# and fuzz-optest (through tests/fuzz/run-optest.sh) - then the
# random-program differential fuzzer (tests/guest/linx-difftest) for the
# same time.
# .ci/run calls it with a budget; docs/security.md describes the targets.
#
#   tests/fuzz/run.sh [SECONDS]        per target (default 60, or $FUZZ_SECONDS)
#   tests/fuzz/run.sh SECONDS TARGET...   only these (fuzz-syscall, fuzz-optest,
#                                         difftest, ...)
#
# Build: the sanitizer build directory (build-asan, as `tests/run-all.sh
# --sanitize` configures it with clang: libFuzzer instrumentation and the
# NAME-libfuzzer targets) when it has them, else build-fuzz, configured
# here; $FUZZ_BUILDDIR overrides.  Work files (corpora grown from the
# committed ones and from the real programs in ../shared/guest, found by
# path at run time and never copied into the repository, logs, crash
# reproducers) go to $FUZZ_DIR (default <builddir>/fuzz-work).
#
# A target that finds a crash, a leak, a hang (-timeout) or a broken
# invariant fails the run; its reproducer is left as crash-*/leak-*/
# timeout-* in $FUZZ_DIR/NAME/run/.  Committing it to
# tests/fuzz/corpus/NAME/ makes it a regression test of the normal suite.
# Prints "SKIP" and exits 0 when clang or libFuzzer is not available; ends
# with "N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
seconds=${1:-${FUZZ_SECONDS:-60}}
[ $# -gt 0 ] && shift
only="$*"
cc=${CLANG:-clang}
shared=${LINX_SHARED_DIR:-$src/../shared}
targets="fuzz-decode fuzz-linx-as fuzz-elf-user fuzz-elf-virt fuzz-gdb-packet fuzz-objdump
fuzz-syscall"

case "$seconds" in
''|*[!0-9]*) echo "fuzz: usage: run.sh [SECONDS] [TARGET...]" >&2; exit 2 ;;
esac

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz: SKIP: $cc not found"
    echo "0 passed, 0 failed, 1 skipped (fuzz: no clang)"
    exit 0
fi
probe_dir=$(mktemp -d)
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe_dir/p.c"
if ! "$cc" -fsanitize=fuzzer "$probe_dir/p.c" -o "$probe_dir/p" >/dev/null 2>&1; then
    rm -rf "$probe_dir"
    echo "fuzz: SKIP: $cc cannot build libFuzzer targets (-fsanitize=fuzzer)"
    echo "0 passed, 0 failed, 1 skipped (fuzz: no libFuzzer)"
    exit 0
fi
rm -rf "$probe_dir"

# ---- build ------------------------------------------------------------
has_libfuzzer() {
    [ -f "$1/build.ninja" ] && grep -q '"name": "libfuzzer", "value": true' \
        "$1/meson-info/intro-buildoptions.json" 2>/dev/null
}
if [ -n "${FUZZ_BUILDDIR:-}" ]; then
    build=$FUZZ_BUILDDIR
elif has_libfuzzer "$src/build-asan"; then
    build=$src/build-asan
else
    build=$src/build-fuzz
fi
case "$build" in /*) ;; *) build=$src/$build ;; esac
if ! has_libfuzzer "$build"; then
    (cd "$src" && CC=$cc ./configure --builddir="$build" --sanitize) >"$src/fuzz-configure.log" 2>&1 || {
        echo "fuzz: FAIL: cannot configure $build (see fuzz-configure.log)"
        echo "0 passed, 1 failed, 0 skipped (fuzz)"
        exit 1
    }
    rm -f "$src/fuzz-configure.log"
fi
echo "fuzz: building the libFuzzer targets in $build"
if ! ninja -C "$build" fuzz-libfuzzer tests/guest/linx-difftest >"$build/fuzz-build.log" 2>&1; then
    tail -30 "$build/fuzz-build.log"
    echo "fuzz: FAIL: build"
    echo "0 passed, 1 failed, 0 skipped (fuzz)"
    exit 1
fi
work=${FUZZ_DIR:-$build/fuzz-work}
mkdir -p "$work"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# ---- seeds -------------------------------------------------------------
# Copy FILEs (if they exist) into corpus dir $1.
seed_files() {
    dir=$1
    shift
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$dir/shared-$(basename "$f")" 2>/dev/null
    done
    return 0
}

seed() {
    t=$1
    corpus=$2
    cp "$src/tests/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null
    case $t in
    fuzz-decode)
        if [ -d "$shared/guest/disasm" ]; then
            python3 - "$shared/guest/disasm" "$corpus" <<'PY' || true
import os, re, sys
n = 0
for name in sorted(os.listdir(sys.argv[1])):
    for line in open(os.path.join(sys.argv[1], name), errors="replace"):
        m = re.match(r"\s*[0-9a-f]+:\s+((?:[0-9a-f]{4,8} )+)\s*\t", line)
        if not m or n >= 2000:
            continue
        data = b""
        for w in m.group(1).split():
            data += int(w, 16).to_bytes(len(w) // 2, "little")
        open(os.path.join(sys.argv[2], "shared-%04d" % n), "wb").write(data)
        n += 1
PY
        fi ;;
    fuzz-linx-as)
        seed_files "$corpus" "$shared"/guest/asm/*.s "$src"/tests/guest/examples/*.s \
            "$src"/tests/guest/user/*.s "$src"/tests/guest/virt/*.s ;;
    fuzz-elf-user)
        seed_files "$corpus" "$shared"/guest/linux-user/* "$build"/tests/guest/user/user-exit42 ;;
    fuzz-elf-virt)
        seed_files "$corpus" "$shared"/guest/baremetal/*.elf "$build"/hello.elf "$build"/tools/hello.elf ;;
    fuzz-objdump)
        seed_files "$corpus" "$shared"/guest/baremetal/*.elf "$shared"/guest/linux-user/* ;;
    esac
    return 0
}

# ---- run ---------------------------------------------------------------
passed=0
failed=0
skipped=0
for t in $targets fuzz-optest difftest; do
    if [ -n "$only" ] && ! echo " $only " | grep -q " $t "; then
        continue
    fi
    twork=$work/$t
    mkdir -p "$twork"
    if [ "$t" = fuzz-optest ]; then
        # linx-optest's readers: a script of their own (other sources and
        # flags; it builds its target with clang itself).
        if FUZZ_DIR=$twork "$here/run-optest.sh" "$seconds" >"$twork/log" 2>&1; then
            if grep -q SKIP "$twork/log"; then
                echo "fuzz: $t: SKIP ($(grep SKIP "$twork/log" | head -1))"
                skipped=$((skipped + 1))
            else
                echo "fuzz: $t: OK ($(tail -1 "$twork/log"))"
                passed=$((passed + 1))
            fi
        else
            echo "fuzz: FAIL: $t found a problem; see $twork/log"
            tail -20 "$twork/log"
            failed=$((failed + 1))
        fi
        continue
    fi
    if [ "$t" = difftest ]; then
        echo "fuzz: running the differential fuzzer (interp / jit / jit one-insn) for ${seconds}s"
        seed0=$(( $(date +%s) % 1000000 * 1000 ))
        if (cd "$twork" && "$build/tests/guest/linx-difftest" -n 100000000 -seconds "$seconds" \
                -s "$seed0" >"$twork/log" 2>&1); then
            echo "fuzz: difftest: OK ($(tail -1 "$twork/log"))"
            passed=$((passed + 1))
        else
            echo "fuzz: FAIL: difftest: the runs disagree; see $twork/log"
            tail -40 "$twork/log"
            failed=$((failed + 1))
        fi
        continue
    fi
    exe=$build/tests/fuzz/$t-libfuzzer
    # Each target runs in $twork/run with its corpus and reproducers there,
    # named relative to it: fuzz-syscall's sandbox is that directory (it
    # chroot()s into it and clears what the guest leaves), so the log
    # stays outside.
    run=$twork/run
    corpus=$run/corpus
    mkdir -p "$corpus"
    seed "$t" "$corpus"
    max_len=8192
    case $t in fuzz-elf-user|fuzz-elf-virt|fuzz-objdump) max_len=400000 ;; esac
    echo "fuzz: running $t for ${seconds}s"
    rm -f "$run"/crash-* "$run"/leak-* "$run"/timeout-* "$run"/oom-*
    (cd "$run" && LINX_FUZZ_SANDBOX=$run "$exe" corpus -max_total_time="$seconds" \
        -timeout=20 -rss_limit_mb=4096 -max_len=$max_len -artifact_prefix=./ \
        -print_final_stats=1 >"$twork/log" 2>&1)
    rc=$?
    if [ $rc = 77 ]; then
        echo "fuzz: $t: SKIP ($(grep SKIP "$twork/log" | head -1))"
        skipped=$((skipped + 1))
    elif [ $rc = 0 ]; then
        echo "fuzz: $t: OK ($(grep -o 'Done [0-9]* runs' "$twork/log" | tail -1), $(ls "$corpus" | wc -l) corpus files)"
        passed=$((passed + 1))
    else
        echo "fuzz: FAIL: $t found a problem (status $rc); see $twork/log"
        ls "$run" | grep -E '^(crash|leak|timeout|oom)-' | sed "s|^|  reproducer: $run/|"
        grep -E 'ERROR|invariant broken|SUMMARY' "$twork/log" | head -5
        failed=$((failed + 1))
    fi
done
if [ $((passed + failed + skipped)) = 0 ]; then
    echo "fuzz: FAIL: no target matched '$only'"
    failed=1
fi
echo "$passed passed, $failed failed, $skipped skipped (fuzz targets, ${seconds}s each)"
[ $failed = 0 ]
