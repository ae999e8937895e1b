#!/bin/bash
# CI's proof that the operator suite runs as a Slurm array job
# (issue 12; .ci/run calls it): starts a one-node Slurm on this machine
# (munged, slurmctld, slurmd, a generated slurm.conf, all in a scratch
# directory; ../shared/docs/slurm-local.md), submits the suite with
# scripts/optest-slurm.sh as a TASKS-task array job, waits, and checks
# that the merged report holds exactly the cases and results of a local
# -j run.  Stops the daemons it started (by their pid files) at the end.
#
#   scripts/optest-slurm-ci.sh [BUILD_DIR [TASKS]]      (as root)
#
# Ends with "N passed, N failed, N skipped (slurm)"; exits 0 when the
# check passed, 1 when it failed, 77 (and "skipped") when Slurm or munge
# is not installed or this is not root.
set -u
srcdir=$(cd "$(dirname "$0")/.." && pwd)
build=$(readlink -f "${1:-$srcdir/build}")
tasks=${2:-4}
optest=$build/linx-optest
data=$build/tests/optest/data

say() { echo "optest-slurm-ci: $*"; }
result() { # passed failed skipped
    echo "$1 passed, $2 failed, $3 skipped (slurm)"
}
skip() {
    say "SKIP: $*"
    result 0 0 1
    exit 77
}
fail() {
    say "FAIL: $*"
    result 0 1 0
    exit 1
}

[ "$(id -u)" = 0 ] || skip "needs root (munged runs as the munge user, slurmd as root)"
for c in munged munge unmunge slurmctld slurmd sbatch squeue sinfo runuser; do
    command -v "$c" >/dev/null 2>&1 || skip "$c not found (apt-get install slurm-wlm munge)"
done
getent passwd munge >/dev/null || skip "no munge user (the munge package makes it)"
[ -x "$optest" ] || fail "no $optest (build first)"
[ -d "$data" ] || fail "no generated data in $data (build first)"

scratch=$(mktemp -d /tmp/optest-slurm.XXXXXX)
chmod 755 "$scratch"
mdir=$scratch/munge          # key, seed, log, pid: munge only
msock=$scratch/munge-socket  # the socket's directory: searchable by all
sdir=$scratch/slurm
mkdir -p "$mdir" "$msock" "$sdir/state" "$sdir/spool" "$scratch/out"

cleanup() {
    for pf in "$sdir/slurmd.pid" "$sdir/slurmctld.pid" "$mdir/munged.pid"; do
        if [ -s "$pf" ]; then
            kill "$(cat "$pf")" 2>/dev/null
        fi
    done
    sleep 1
    for pf in "$sdir/slurmd.pid" "$sdir/slurmctld.pid" "$mdir/munged.pid"; do
        if [ -s "$pf" ] && kill -0 "$(cat "$pf")" 2>/dev/null; then
            kill -9 "$(cat "$pf")" 2>/dev/null
        fi
    done
    if [ -n "${KEEP_SLURM_SCRATCH:-}" ]; then
        say "scratch kept in $scratch"
    else
        rm -rf "$scratch"
    fi
}
trap cleanup EXIT

# ---- munge: its own key, socket and files (owned by munge, mode 700)
chown munge:munge "$mdir" "$msock"
chmod 700 "$mdir"
chmod 755 "$msock"
if ! runuser -u munge -- sh -c "dd if=/dev/urandom of='$mdir/munge.key' bs=1024 count=1 2>/dev/null && chmod 400 '$mdir/munge.key'"; then
    fail "cannot make a munge key"
fi
runuser -u munge -- munged --socket="$msock/munge.socket" --pid-file="$mdir/munged.pid" \
    --log-file="$mdir/munged.log" --seed-file="$mdir/munged.seed" --key-file="$mdir/munge.key" ||
    fail "munged did not start: $(cat "$mdir/munged.log" 2>/dev/null)"
if ! munge -n -S "$msock/munge.socket" | unmunge -S "$msock/munge.socket" >/dev/null; then
    fail "munge does not work: $(tail -5 "$mdir/munged.log" 2>/dev/null)"
fi

# ---- slurm.conf: this host, free ports, paths in the scratch directory
host=$(hostname -s)
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
cport=$(free_port)
dport=$(free_port)
[ "$cport" != "$dport" ] || dport=$((dport + 1))
mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
cpus=$(nproc)
conf=$sdir/slurm.conf
cat >"$conf" <<EOF
ClusterName=optestci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$cport
SlurmdPort=$dport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$msock/munge.socket
StateSaveLocation=$sdir/state
SlurmdSpoolDir=$sdir/spool
SlurmctldPidFile=$sdir/slurmctld.pid
SlurmdPidFile=$sdir/slurmd.pid
SlurmctldLogFile=$sdir/slurmctld.log
SlurmdLogFile=$sdir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
slurmctld -c -f "$conf" || fail "slurmctld did not start: $(tail -5 "$sdir/slurmctld.log" 2>/dev/null)"
slurmd -f "$conf" || fail "slurmd did not start: $(tail -5 "$sdir/slurmd.log" 2>/dev/null)"
for _ in $(seq 60); do
    state=$(sinfo -h -n "$host" -o '%T' 2>/dev/null)
    [ "$state" = idle ] && break
    sleep 1
done
[ "$state" = idle ] || fail "the node is '$state', not idle, after 60 s: $(tail -5 "$sdir/slurmctld.log")"
say "one-node Slurm up ($host, $cpus CPUs, ports $cport/$dport)"

# ---- the suite: Slurm array job, and a local run to compare with
args="-q -j 1 -D $data $srcdir/tests/optest"
t0=$(date +%s)
"$srcdir/scripts/optest-slurm.sh" submit --tasks "$tasks" --out "$scratch/out" --optest "$optest" \
    --wait -- $args
status=$?
say "array job of $tasks tasks and merge: status $status in $(($(date +%s) - t0)) s"
for k in $(seq 0 $((tasks - 1))); do
    [ -f "$scratch/out/shard-$k.json" ] || fail "shard $k wrote no report: $(tail -5 "$scratch/out/task-$k.log")"
done
[ "$status" = 0 ] || fail "the merged Slurm run failed (status $status): $(tail -20 "$scratch/out/merge.log")"
# shellcheck disable=SC2086
"$optest" $args -j 2 --json "$scratch/local.json" >/dev/null || fail "the local -j 2 run failed"
python3 - "$scratch/out/merged.json" "$scratch/local.json" "$tasks" <<'PY' || fail "the merged report differs from the local run"
import json, sys
merged, local = (json.load(open(p)) for p in sys.argv[1:3])
def cases(r):
    return [{k: v for k, v in c.items() if k not in ('time', 'phases', 'manifest', 'tbs_translated')}
            for c in r['cases']]
shards = [json.load(open(sys.argv[1].replace('merged.json', 'shard-%d.json' % k)))
          for k in range(int(sys.argv[3]))]
sizes = [s['summary']['total'] for s in shards]
ok = cases(merged) == cases(local) and merged['summary'] == local['summary']
ok = ok and all(s['shard'] == {'index': k, 'count': len(shards)} for k, s in enumerate(shards))
ok = ok and all(n > 0 for n in sizes) and sum(sizes) == local['summary']['total']
print('optest-slurm-ci: merged %s (shards %s), local %s: %s' %
      (merged['summary'], sizes, local['summary'], 'equal' if ok else 'DIFFERENT'))
sys.exit(0 if ok else 1)
PY
result 1 0 0
