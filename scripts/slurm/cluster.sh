#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, for trying and testing queendom's job arrays.
#
#   scripts/slurm/cluster.sh up       install (if missing), configure and start munged, slurmctld, slurmd;
#                                     returns once the node is idle and takes jobs
#   scripts/slurm/cluster.sh down     cancel the cluster's jobs, stop what `up` started
#   scripts/slurm/cluster.sh status   which daemons run, then sinfo and squeue (exit 1 when down)
#
# Run as root. It uses Debian's packages (slurm-wlm, munge; installed with apt-get when missing) and
# starts the daemons directly, without systemd. Configuration, state and logs live under
# $QUEENDOM_SLURM_DIR (default /var/lib/queendom-slurm); the only file placed elsewhere is a symlink
# from the packages' slurm.conf path to the configuration there, so that sbatch, squeue and sinfo work
# without SLURM_CONF. `down` removes that symlink again. The script never overwrites a slurm.conf that
# it did not write, and never stops a munged that it did not start.
#
# Environment: QUEENDOM_SLURM_DIR (see above), QUEENDOM_SLURM_TIMEOUT (seconds to wait for the node,
# default 60), QUEENDOM_SLURM_PARTITION (partition name, default "queendom").
set -euo pipefail

dir=${QUEENDOM_SLURM_DIR:-/var/lib/queendom-slurm}
timeout=${QUEENDOM_SLURM_TIMEOUT:-60}
partition=${QUEENDOM_SLURM_PARTITION:-queendom}
node=$(hostname -s)
conf=$dir/etc/slurm.conf

say() { printf 'cluster: %s\n' "$*" >&2; }
die() {
    say "$*"
    exit 1
}

# The pid in a pid file, if that process is alive and is the named program.
running_pid() {
    local pidfile=$1 program=$2 pid
    [[ -r $pidfile ]] || return 1
    pid=$(<"$pidfile")
    [[ $pid =~ ^[0-9]+$ ]] && alive "$pid" "$program" || return 1
    echo "$pid"
}

# Where this Slurm build looks for slurm.conf: the path compiled into its library (older Debian and
# Ubuntu releases used /etc/slurm-llnl, newer ones /etc/slurm), else whichever of the two exists.
packaged_conf_path() {
    local lib path
    for lib in /usr/lib/*/slurm-wlm/libslurmfull.so /usr/lib/*/libslurm*.so* /usr/lib/slurm*/libslurmfull.so; do
        [[ -e $lib ]] || continue
        path=$(grep -aom1 '/etc/slurm[a-z-]*/slurm\.conf' "$lib" || true)
        if [[ -n $path ]]; then
            echo "$path"
            return
        fi
    done
    if [[ -d /etc/slurm-llnl && ! -d /etc/slurm ]]; then
        echo /etc/slurm-llnl/slurm.conf
    else
        echo /etc/slurm/slurm.conf
    fi
}

install_packages() {
    local missing=()
    command -v slurmctld >/dev/null || missing+=(slurmctld)
    command -v slurmd >/dev/null || missing+=(slurmd)
    command -v sbatch >/dev/null || missing+=(slurm-client)
    command -v munged >/dev/null || missing+=(munge)
    ((${#missing[@]} == 0)) && return
    command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get to install them"
    say "installing slurm-wlm and munge (missing: ${missing[*]})"
    # The packages' maintainer scripts start their services through invoke-rc.d, which fails without
    # a slurm.conf and would leave dpkg half-configured; a policy-rc.d that forbids starting services
    # (as container images ship) prevents that. Ours exists only while apt-get runs.
    local policy=/usr/sbin/policy-rc.d own_policy=
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\n# written by queendom scripts/slurm/cluster.sh during apt-get install\nexit 101\n' >"$policy"
        chmod 755 "$policy"
        own_policy=1
    fi
    local status=0
    {
        DEBIAN_FRONTEND=noninteractive apt-get update -q &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge
    } >"$dir/log/apt-get.log" 2>&1 || status=$?
    if [[ -n $own_policy ]]; then
        rm -f "$policy"
    fi
    if ((status != 0)); then
        tail -n 20 "$dir/log/apt-get.log" >&2
        die "apt-get install slurm-wlm munge failed (log: $dir/log/apt-get.log)"
    fi
}

munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

start_munge() {
    if munge_works; then
        return
    fi
    local key=/etc/munge/munge.key
    if [[ ! -s $key ]]; then
        say "creating the munge key $key"
        install -d -o munge -g munge -m 0700 /etc/munge
        if command -v mungekey >/dev/null; then
            runuser -u munge -- mungekey --create --keyfile="$key"
        else
            dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
        fi
        chown munge:munge "$key"
        chmod 0400 "$key"
    fi
    install -d -o munge -g munge -m 0755 /run/munge
    install -d -o munge -g munge -m 0700 /var/lib/munge "$dir/munge"
    runuser -u munge -- munged --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" ||
        die "munged did not start: $(tail -n 5 "$dir/munge/munged.log" 2>/dev/null)"
    touch "$dir/run/munged.ours"
    local i
    for ((i = 0; i < 50; i++)); do
        munge_works && return
        sleep 0.1
    done
    die "munged started but munge -n | unmunge fails: $(tail -n 5 "$dir/munge/munged.log" 2>/dev/null)"
}

write_conf() {
    local fields
    # `slurmd -C` prints the node line Slurm itself accepts for this machine (CPUs, sockets, cores,
    # threads, RealMemory); without it, CPUs and memory as nproc and free see them.
    fields=$(slurmd -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* //p' | head -n 1)
    if [[ $fields != *CPUs=* ]]; then
        fields="CPUs=$(nproc) RealMemory=$(free -m | awk '/^Mem:/ {print $2}')"
    fi
    cat >"$conf.new" <<EOF
# Written by queendom scripts/slurm/cluster.sh; rewritten by every \`up\`.
ClusterName=queendom
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
# No systemd and no cgroup.conf: processes are tracked through /proc, tasks are not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
# Every CPU (hardware thread) is allocated on its own, so one-CPU array tasks run side by side.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# Start the next array tasks as soon as slots free up (the default waits up to 3 s per pass).
SchedulerParameters=batch_sched_delay=0
# A node that was down comes back as soon as its slurmd registers with a valid configuration.
ReturnToService=2
MailProg=/bin/true
StateSaveLocation=$dir/state/slurmctld
SlurmdSpoolDir=$dir/state/slurmd
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# Finished jobs leave squeue soon; short timeouts let a restarted cluster settle quickly.
MinJobAge=30
SlurmdTimeout=60
InactiveLimit=0
KillWait=10
NodeName=$node NodeAddr=127.0.0.1 $fields State=UNKNOWN
PartitionName=$partition Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
}

# Make the packaged slurm.conf path point at ours, unless someone else's configuration is there.
link_conf() {
    local packaged
    packaged=$(packaged_conf_path)
    if [[ -L $packaged && $(readlink "$packaged") == "$conf" ]]; then
        return
    fi
    if [[ -e $packaged || -L $packaged ]]; then
        die "$packaged exists and is not ours: this machine has its own Slurm configuration; leaving it alone"
    fi
    install -d -m 0755 "$(dirname "$packaged")"
    ln -s "$conf" "$packaged"
}

unlink_conf() {
    local packaged
    packaged=$(packaged_conf_path)
    if [[ -L $packaged && $(readlink "$packaged") == "$conf" ]]; then
        rm -f "$packaged"
    fi
}

node_state() { sinfo -h -n "$node" -o %T 2>/dev/null | head -n 1; }

log_tails() {
    local log
    for log in "$dir/log/slurmctld.log" "$dir/log/slurmd.log"; do
        [[ -r $log ]] || continue
        echo "--- last lines of $log" >&2
        tail -n 15 "$log" >&2
    done
}

wait_for() {
    local what=$1 check=$2 deadline=$3
    until eval "$check"; do
        if ((SECONDS >= deadline)); then
            say "timed out after ${timeout}s waiting for $what"
            log_tails
            exit 1
        fi
        sleep 0.2
    done
}

alive() { [[ $(cat "/proc/$1/comm" 2>/dev/null) == "$2" ]]; }

# Stop a daemon and wait for the process itself to be gone: the daemons remove their pid files at
# the start of their shutdown, well before they release their sockets and ports.
stop_pid() {
    local pidfile=$1 program=$2 pid i
    pid=$(running_pid "$pidfile" "$program") || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 100; i++)); do
        alive "$pid" "$program" || return 0
        sleep 0.1
    done
    say "$program ($pid) still runs 10 s after SIGTERM; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 20; i++)); do
        alive "$pid" "$program" || return 0
        sleep 0.1
    done
    die "$program ($pid) survives SIGKILL"
}

up() {
    [[ $(id -u) == 0 ]] || die "run as root: slurmd starts jobs as their users and munged needs its own account"
    local deadline
    install -d -m 0755 "$dir" "$dir/etc" "$dir/log" "$dir/run" "$dir/state/slurmctld" "$dir/state/slurmd"
    install_packages
    # Counted from here: the wait must not include a package download.
    deadline=$((SECONDS + timeout))
    write_conf
    if [[ -e $conf ]] && cmp -s "$conf" "$conf.new"; then
        rm "$conf.new"
    else
        if running_pid "$dir/run/slurmctld.pid" slurmctld >/dev/null ||
            running_pid "$dir/run/slurmd.pid" slurmd >/dev/null; then
            say "the configuration changed; restarting the daemons"
            stop_pid "$dir/run/slurmd.pid" slurmd
            stop_pid "$dir/run/slurmctld.pid" slurmctld
        fi
        mv "$conf.new" "$conf"
    fi
    link_conf
    export SLURM_CONF=$conf
    start_munge
    if ! running_pid "$dir/run/slurmctld.pid" slurmctld >/dev/null; then
        # -c: a fresh queue on every start; a test cluster keeps no jobs across `down`.
        slurmctld -c -f "$conf" || {
            log_tails
            die "slurmctld did not start"
        }
    fi
    wait_for "slurmctld to answer" 'scontrol ping 2>/dev/null | grep -q "is UP"' "$deadline"
    if ! running_pid "$dir/run/slurmd.pid" slurmd >/dev/null; then
        slurmd -f "$conf" || {
            log_tails
            die "slurmd did not start"
        }
    fi
    local state resumed=
    while :; do
        state=$(node_state)
        case $state in
        idle | mixed | allocated | completing) break ;;
        down | drained | draining | drain)
            # ReturnToService=2 covers a node that was down for not responding; a node drained
            # for a reason (a previous configuration) needs to be told once.
            if [[ -z $resumed ]]; then
                scontrol update NodeName="$node" State=RESUME 2>/dev/null || true
                resumed=1
            fi
            ;;
        esac
        if ((SECONDS >= deadline)); then
            say "timed out after ${timeout}s: node $node is '${state:-unknown}', not idle"
            sinfo -R >&2 2>/dev/null || true
            log_tails
            exit 1
        fi
        sleep 0.2
    done
    say "up: node $node ($state), partition $partition; config $conf"
}

down() {
    export SLURM_CONF=$conf
    if running_pid "$dir/run/slurmctld.pid" slurmctld >/dev/null; then
        local jobs i
        mapfile -t jobs < <(squeue -h -o %A 2>/dev/null || true)
        if ((${#jobs[@]} > 0)); then
            say "cancelling jobs: ${jobs[*]}"
            scancel "${jobs[@]}" 2>/dev/null || true
            for ((i = 0; i < 150; i++)); do
                [[ -z $(squeue -h -o %A 2>/dev/null) ]] && break
                sleep 0.2
            done
        fi
    fi
    stop_pid "$dir/run/slurmd.pid" slurmd
    stop_pid "$dir/run/slurmctld.pid" slurmctld
    if [[ -e $dir/run/munged.ours ]]; then
        stop_pid "$dir/munge/munged.pid" munged
        rm -f "$dir/run/munged.ours"
    fi
    unlink_conf
    say "down"
}

status() {
    export SLURM_CONF=$conf
    local pid program pidfile
    for program in munged slurmctld slurmd; do
        pidfile=$dir/run/$program.pid
        [[ $program == munged ]] && pidfile=$dir/munge/munged.pid
        if pid=$(running_pid "$pidfile" "$program"); then
            echo "$program: running (pid $pid)"
        elif [[ $program == munged ]] && munge_works; then
            echo "munged: running (not started by this script)"
        else
            echo "$program: not running"
        fi
    done
    if running_pid "$dir/run/slurmctld.pid" slurmctld >/dev/null; then
        sinfo
        squeue
    else
        return 1
    fi
}

case ${1:-} in
up) up ;;
down) down ;;
status) status ;;
*)
    echo "usage: $0 up|down|status" >&2
    exit 2
    ;;
esac
