#!/bin/bash
# Run an operator suite as a Slurm array job: one array task per shard,
# the shard reports merged at the end (docs/optest.md "Sharding").
#
#   scripts/optest-slurm.sh submit [options] -- LINX_OPTEST_ARGS...
#       --tasks N          array tasks = shards (default 4)
#       --out DIR          reports and task logs (default optest-slurm-JOBID
#                          in the current directory; must be on a file
#                          system every node sees)
#       --optest PATH      the linx-optest binary (default: build/linx-optest)
#       --wait             wait for the merge and exit with its status
#       --sbatch "ARGS"    more sbatch options (partition, time, account)
#
# submits this script twice: as the array job (task mode: each task runs
# 'linx-optest LINX_OPTEST_ARGS --json DIR/shard-K.json', its shard taken
# from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT), and as a merge job
# that starts when every task has ended, whatever its status
# (--dependency=afterany): 'linx-optest merge' writes DIR/merged.json and
# DIR/merged.xml (JUnit) and fails when a shard's report is missing, so a
# task that died is never a green run.  The modes 'task' and 'merge' are
# what Slurm runs; they read OPTEST_SLURM_* from the environment.
#
# Example:
#   scripts/optest-slurm.sh submit --tasks 8 --wait -- \
#       -q -D build/tests/optest/data tests/optest
set -u

optest=${OPTEST_SLURM_OPTEST:-}
self=$(readlink -f "$0")
srcdir=$(cd "$(dirname "$self")/.." && pwd)

die() {
    echo "optest-slurm: $*" >&2
    exit 2
}

mode=${1:-}
shift || true

case "$mode" in
task)
    # One shard: SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT.
    [ -n "${SLURM_ARRAY_TASK_ID:-}" ] || die "task mode runs inside a Slurm array job"
    out=${OPTEST_SLURM_OUT:?}
    read -r -a args <<<"${OPTEST_SLURM_ARGS:?}"
    exec "$optest" "${args[@]}" --no-progress --json "$out/shard-$SLURM_ARRAY_TASK_ID.json" \
        --junit "$out/shard-$SLURM_ARRAY_TASK_ID.xml"
    ;;
merge)
    out=${OPTEST_SLURM_OUT:?}
    tasks=${OPTEST_SLURM_TASKS:?}
    reports=()
    for ((k = 0; k < tasks; k++)); do
        reports+=("$out/shard-$k.json")
        if [ ! -f "$out/shard-$k.json" ]; then
            echo "optest-slurm: shard $k/$tasks wrote no report (see $out/task-$k.log)" >&2
        fi
    done
    "$optest" merge --json "$out/merged.json" --junit "$out/merged.xml" "${reports[@]}"
    status=$?
    echo "$status" >"$out/merged.status"
    exit $status
    ;;
submit)
    tasks=4
    out=
    wait=no
    extra=
    while [ $# -gt 0 ]; do
        case "$1" in
        --tasks) tasks=${2:?}; shift ;;
        --out) out=${2:?}; shift ;;
        --optest) optest=${2:?}; shift ;;
        --wait) wait=yes ;;
        --sbatch) extra=${2:?}; shift ;;
        --) shift; break ;;
        *) die "unknown option $1 (submit [--tasks N] [--out DIR] [--optest PATH] [--wait] -- ARGS)" ;;
        esac
        shift
    done
    [ $# -gt 0 ] || die "give linx-optest's arguments after --"
    case "$tasks" in
    '' | *[!0-9]* | 0) die "--tasks takes a count > 0, not '$tasks'" ;;
    esac
    command -v sbatch >/dev/null || die "sbatch not found (Slurm's client commands)"
    [ -n "$optest" ] || optest=$srcdir/build/linx-optest
    [ -x "$optest" ] || die "no linx-optest at $optest (--optest PATH)"
    optest=$(readlink -f "$optest")
    if [ -z "$out" ]; then
        out=$PWD/optest-slurm-$$
    fi
    mkdir -p "$out" || die "cannot create $out"
    out=$(readlink -f "$out")
    rm -f "$out"/shard-*.json "$out"/shard-*.xml "$out"/merged.*
    export OPTEST_SLURM_OPTEST=$optest OPTEST_SLURM_OUT=$out OPTEST_SLURM_TASKS=$tasks
    export OPTEST_SLURM_ARGS="$*"
    # shellcheck disable=SC2086
    array=$(sbatch --parsable --job-name=optest --array=0-$((tasks - 1)) --cpus-per-task=1 \
        --output="$out/task-%a.log" $extra "$self" task) || die "sbatch (array) failed"
    array=${array%%;*}
    # shellcheck disable=SC2086
    merge=$(sbatch --parsable --job-name=optest-merge --dependency=afterany:"$array" \
        --output="$out/merge.log" $extra "$self" merge) || die "sbatch (merge) failed"
    merge=${merge%%;*}
    echo "optest-slurm: array job $array ($tasks tasks), merge job $merge, reports in $out"
    if [ "$wait" = yes ]; then
        # poll until the merge job has left the queue
        while squeue -h -j "$merge" 2>/dev/null | grep -q .; do
            sleep 1
        done
        cat "$out/merge.log" 2>/dev/null
        status=$(cat "$out/merged.status" 2>/dev/null || echo 2)
        exit "$status"
    fi
    ;;
*)
    sed -n '2,30p' "$self" | sed 's/^# \{0,1\}//'
    [ "$mode" = -h ] || [ "$mode" = --help ] && exit 0
    exit 2
    ;;
esac
