#!/bin/sh
# ThreadSanitizer over the emulator's own data structures while guest
# threads and processes run (issue 18; docs/engine.md "Concurrency"):
# linx-user built with -fsanitize=thread in ./build-tsan runs the thread,
# producer/consumer, signal, stop and fork/exec guests under the JIT and the interpreter,
# several times each; any TSan report ends the run with status 66, which
# fails the check.  Ends with "N passed, N failed, N skipped" (.ci/run
# adds it to the CI summary); exit status 1 on any failure.
#
#   tests/run-tsan.sh [REPEAT]      (default 10 runs of each threaded guest)
set -u
cd "$(dirname "$0")/.."

repeat=${1:-10}
bd=build-tsan
user=$bd/tests/guest/user
progs="user-threads user-threads_signal user-threads_stop user-forkexec user-exit42 user-prodcons"
passed=0
failed=0

if [ ! -f "$bd/build.ninja" ]; then
    # -Wtsan: GCC warns that TSan does not model atomic_thread_fence (the
    # FENCE.D and SC-fence paths); the warning is expected here.
    meson setup "$bd" -Db_sanitize=thread -Dbuildtype=debugoptimized -Dwerror=false \
        -Dguest_corpus= >/dev/null || { echo "tsan: meson setup failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
fi
targets="linx-user"
for p in $progs; do
    targets="$targets tests/guest/user/$p"
done
if ! ninja -C "$bd" $targets >/dev/null; then
    echo "tsan: build failed"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi

export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
check() {
    name=$1
    shift
    if python3 tests/functional/run-guest.py "$@"; then
        passed=$((passed + 1))
        echo "tsan: $name: ok"
    else
        failed=$((failed + 1))
        echo "tsan: $name: FAILED"
    fi
}

for accel in jit interp; do
    check "threads-$accel" --stdout 'threads ok\n' --repeat "$repeat" -- \
        "$bd/linx-user" -accel "$accel" "$user/user-threads"
    check "threads_signal-$accel" --stdout 'threads_signal ok\n' --repeat "$repeat" -- \
        "$bd/linx-user" -accel "$accel" "$user/user-threads_signal"
    check "prodcons-$accel" --stdout 'prodcons ok\n' --repeat "$repeat" -- \
        "$bd/linx-user" -accel "$accel" "$user/user-prodcons"
    check "forkexec-$accel" --stdout 'forkexec ok\n' --repeat "$repeat" -- \
        "$bd/linx-user" -accel "$accel" "$user/user-forkexec" "$user/user-exit42"
    check "threads_stop-$accel" --status 124 \
        --stderr-re 'linx-user: timeout: the program ran longer than' -- \
        "$bd/linx-user" -accel "$accel" -timeout 2 "$user/user-threads_stop"
done

echo "$passed passed, $failed failed, 0 skipped (ThreadSanitizer, $repeat runs each)"
[ "$failed" = 0 ]
