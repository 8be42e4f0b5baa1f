# tests/lib.sh - helpers for shell tests (sourced).
#
# TAP helpers for *.t scripts: ok/not ok lines, a plan at the end, non-zero exit
# on any failure. Integration *.sh scripts use skip() to exit 77 with a reason, fail() to exit 1.

: "${RTMEASURE:?RTMEASURE must name the built rtmeasure binary (make check sets it)}"
: "${RTM_TESTDATA:?RTM_TESTDATA must name tests/data (make check sets it)}"

# Command-level tests (*.t) take their CPU locks in a lock directory of their
# own: a measurement another test or a user runs meanwhile is never seen by
# them (no "another rtmeasure" warning in a line they count), and theirs never
# disturbs a measuring test's wait for a quiet box. A test of the locks sets
# its own. Integration tests keep the box's directory: they must see others.
case "$0" in
*.t)
	if [ -z "${RTMEASURE_LOCK_DIR:-}" ] && [ -n "${RTM_BUILDDIR:-}" ]; then
		RTMEASURE_LOCK_DIR="$RTM_BUILDDIR/tests/cli/locks-$(basename "$0" .t)"
		mkdir -p "$RTMEASURE_LOCK_DIR" && export RTMEASURE_LOCK_DIR
	fi ;;
esac

tap_n=0
tap_fail=0

ok() {	# ok CONDITION-EXIT-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_fail=$((tap_fail + 1))
	fi
}

# run_cmd: run rtmeasure, capture stdout/stderr/status in $out, $err, $rc
run_cmd() {
	local o e
	o=$(mktemp) e=$(mktemp)
	"$RTMEASURE" "$@" >"$o" 2>"$e" </dev/null
	rc=$?
	out=$(cat "$o")
	err=$(cat "$e")
	rm -f "$o" "$e"
}

# expect_usage_error DESCRIPTION ARGS...: exit 2, exactly one stderr line
# starting "rtmeasure: ", nothing on stdout
expect_usage_error() {
	local desc=$1
	shift
	run_cmd "$@"
	local lines
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ -z "$out" ] &&
	   [ "${err#rtmeasure: }" != "$err" ]; then
		ok 0 "$desc (exit 2: $err)"
	else
		ok 1 "$desc (rc=$rc, stderr lines=$lines: $err)"
	fi
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_fail" -eq 0 ]
	exit $?
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# fail: an integration script's failure, with its reason
fail() {
	echo "FAIL: $*"
	exit 1
}

need_root() {
	[ -z "${RTM_SKIP_INTEGRATION:-}" ] ||
		skip "integration tests skipped (RTM_SKIP_INTEGRATION is set, e.g. in distcheck)"
	[ "$(id -u)" -eq 0 ] || skip "needs root (run make check as root)"
}

# need_tracefs: tracefs at /sys/kernel/tracing (mounted if it is not), with instances
need_tracefs() {
	mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		skip "cannot mount tracefs at /sys/kernel/tracing"
	[ -d /sys/kernel/tracing/instances ] || skip "this kernel's tracefs has no instances"
}

# loop_fs DIR SIZE: an ext4 file system on a loop device with direct I/O to a
# sparse backing file DIR/backing of SIZE (truncate's units), mounted on
# DIR/mnt: $loop the device, $mnt the mount point. The storage tests write
# there, never to the root disk. loop_fs_off DIR: unmounted and the device
# detached (for the test's EXIT trap; nothing to do when loop_fs did not run).
loop_fs() {
	command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null ||
		skip "losetup or mkfs.ext4 missing"
	truncate -s "$2" "$1/backing" || fail "cannot create $1/backing"
	loop=$(losetup --direct-io=on -f --show "$1/backing") || skip "no loop device"
	mkfs.ext4 -q "$loop" || fail "mkfs.ext4 $loop"
	mkdir "$1/mnt" && mount "$loop" "$1/mnt" || fail "mount $loop"
	mnt=$1/mnt
}
loop_fs_off() {
	mountpoint -q "$1/mnt" && umount "$1/mnt"
	[ -z "${loop:-}" ] || losetup -d "$loop"
}

# need_jq: jq, which the checks of result.json use
need_jq() {
	command -v jq >/dev/null || skip "jq not installed (scripts/setup installs it)"
}

# need_bpf: a build with the BPF programs (configure found clang, libbpf and bpftool)
need_bpf() {
	grep -q '^#define RTM_HAVE_BPF 1' "$RTM_BUILDDIR/config.h" ||
		skip "rtmeasure built without BPF (clang, libbpf-dev, bpftool)"
}

# bpf_attached PID TRACEPOINT LOG: waits, 30 s at most, until process PID holds a
# BPF link on TRACEPOINT (its own: another run's programs may be loaded meanwhile);
# fails, LOG shown, when PID ends first
bpf_attached() {
	local i
	for i in $(seq 300); do
		grep -qs "^tp_name:.*$2\$" /proc/"$1"/fdinfo/* && return 0
		kill -0 "$1" 2>/dev/null || { cat "$3"; fail "rtmeasure ended at start"; }
		sleep 0.1
	done
	fail "the BPF programs did not attach to $2 in 30 s"
}

# measure_lock "$@": tests that measure latency, or load the box while others
# measure (tracing, interrupts from dd), run one at a time, also under
# `make -j check`: two at once would disturb each other's numbers. Call it right after sourcing this file: the script runs again
# under flock(1) on $RTM_TEST_LOCK and exits with that run's status.
RTM_TEST_LOCK=${RTM_TEST_LOCK:-/run/lock/rtmeasure-tests.lock}
measure_lock() {
	if [ -n "${RTM_TEST_LOCKED:-}" ]; then
		wait_alone
		return 0
	fi
	command -v flock >/dev/null || skip "flock (util-linux) missing: measuring tests cannot take turns"
	RTM_TEST_LOCKED=1 flock -w 1800 -E 200 "$RTM_TEST_LOCK" "$BASH" "$0" "$@"
	local rc=$?
	[ $rc -ne 200 ] || fail "waited 30 min for $RTM_TEST_LOCK (a measuring test hanging?)"
	exit $rc
}

# others_measuring: "pid N (cpuK.lock)" for a live process that holds a CPU
# lock of rtmeasure's lock directory, as the first run on a CPU (cpuK.lock) or
# a later one (cpuK.guests): another rtmeasure measuring this box (a user's
# run, or a command test's), or nothing. Read from /proc/locks, so
# the check takes no lock itself and never makes a starting run think its
# CPU is taken.
others_measuring() {
	local dir=${RTMEASURE_LOCK_DIR:-/run/lock/rtmeasure} f ino pid
	[ -r /proc/locks ] || return 0
	for f in "$dir"/cpu*.lock "$dir"/cpu*.guests; do
		[ -f "$f" ] || continue
		ino=$(stat -c %i "$f" 2>/dev/null) || continue
		pid=$(awk -v ino="$ino" '$2 == "FLOCK" {
			n = split($6, d, ":"); if (d[n] == ino) { print $5; exit } }' /proc/locks)
		[ -n "$pid" ] && [ "$pid" != $$ ] && { echo "pid $pid (${f##*/})"; return 0; }
	done
	return 0
}

# wait_alone: a measuring test judges timing only on a box no other rtmeasure
# measures: wait for one that does to end (up to $RTM_TEST_WAIT_OTHERS, 300 s),
# then skip with the reason; never a failure that is the other run's doing.
wait_alone() {
	local who waited=0 limit=${RTM_TEST_WAIT_OTHERS:-300}
	while who=$(others_measuring) && [ -n "$who" ]; do
		[ $waited -ge "$limit" ] &&
			skip "another rtmeasure measures this box ($who) for over $limit s: timing not judged while it runs"
		[ $waited -eq 0 ] && echo "waiting: another rtmeasure measures this box ($who)"
		sleep 1
		waited=$((waited + 1))
	done
	[ $waited -eq 0 ] || echo "waited $waited s for another rtmeasure to end"
}

# judged_alone DIR: skip when the run saved in DIR shared its CPUs with another
# rtmeasure that started meanwhile (sections.shared_cpus): its timing is not
# this test's to judge.
judged_alone() {
	local shared
	shared=$(jq -c '.sections.shared_cpus // empty' "$1/result.json" 2>/dev/null)
	[ -z "$shared" ] ||
		skip "another rtmeasure measured CPUs of this run meanwhile ($shared): timing not judged"
}

# no_instances_of PID: fail when tracefs still has an instance of process PID
# (rtmeasure-PID, rtmeasure-PID-SUFFIX, rtmeasure-PID.K...). Tests check only
# their own processes' instances: other tests may trace at the same time.
no_instances_of() {
	local left
	left=$(ls /sys/kernel/tracing/instances 2>/dev/null | grep -E "^rtmeasure-$1([.-]|\$)")
	[ -z "$left" ] || fail "trace instance left behind: $left"
}

# wait_probes PID: until rtmeasure PID runs its probe threads, or has ended
# (-b may stop it at once; the test's own checks judge that). Its start (system
# facts, a trace instance) takes longer on a busy box: disturbances injected
# after a fixed sleep could come before it measures.
wait_probes() {
	local i
	# a bound, not a measurement: a sanitizer build on a loaded box took over 30 s
	for i in $(seq 3000); do
		grep -qs '^rtm-probe/' /proc/"$1"/task/*/comm && return 0
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	fail "rtmeasure $1 started no probe thread in 300 s"
}
