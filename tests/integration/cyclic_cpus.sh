#!/bin/bash
# Integration: which CPUs are measured and where rtmeasure's other threads run.
#  - started under taskset -c 0 (as every process is when isolcpus= takes CPUs
#    out of the inherited mask), -a 1 measures CPU 1: the probe is pinned
#    there, the threads that do not measure stay on CPU 0 (cyclictest's
#    --mainaffinity)
#  - --housekeeping 0 -a 1 does the same without taskset
#  - under taskset -c 0 without -a, every online CPU is measured
#  - in a cpuset (cgroup) that has CPU 0 only: -a 1 is refused with exit 2 and
#    a message naming the cpuset; without -a only CPU 0 is measured
#  - a CPU that is not online: exit 2 naming the online CPUs
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 online CPUs"
grep -q '^1$\|^0-\|,1\b' /sys/devices/system/cpu/online || skip "CPU 1 is offline"
measure_lock "$@"

dir=$(mktemp -d)
cg=
cleanup() {
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		# move anything left back to the parent, then remove the group
		while read -r p; do echo "$p" >"$(dirname "$cg")/$cgprocs" 2>/dev/null; done <"$cg/$cgprocs"
		rmdir "$cg"
	fi
	rm -rf "$dir"
}
trap cleanup EXIT

measured() { jq -c '[.cpus[].cpu]' "$1/result.json"; }

# 1: the process may run on CPU 0 only, -a 1
taskset -c 0 "$RTMEASURE" cyclic -a 1 -D 2s -q -o "$dir/a1" >/dev/null 2>"$dir/a1.err" &
pid=$!
sleep 1
probe_cpus= main_cpus=
for t in /proc/$pid/task/*; do
	c=$(awk '/^Cpus_allowed_list:/ { print $2 }' "$t/status" 2>/dev/null)
	case "$(cat "$t/comm" 2>/dev/null)" in
	rtm-probe/*) probe_cpus="$probe_cpus $c" ;;
	*) main_cpus="$main_cpus $c" ;;
	esac
done
wait $pid || fail "taskset -c 0 cyclic -a 1: exit $?: $(cat "$dir/a1.err")"
[ "$(measured "$dir/a1")" = "[1]" ] || fail "-a 1 measured $(measured "$dir/a1")"
[ "$probe_cpus" = " 1" ] || fail "probe threads allowed on '$probe_cpus', want 1"
[ -n "$main_cpus" ] && [ -z "$(echo $main_cpus | tr ' ' '\n' | grep -vx 0)" ] ||
	fail "threads that do not measure allowed on '$main_cpus', want 0"
n=$(jq '.cpus[0].hist.count + .cpus[0].overruns' "$dir/a1/result.json")
[ "$n" -ge 1900 ] || fail "CPU 1: $n wake-ups in 2 s"
echo "taskset -c 0, -a 1: probe on CPU$probe_cpus, other threads on CPU$main_cpus, $n wake-ups"

# 1b: --housekeeping 0 -a 1 (cyclictest's --mainaffinity) without taskset: the
# threads that do not measure are moved to CPU 0, the probe is on CPU 1
"$RTMEASURE" cyclic --housekeeping 0 -a 1 -D 2s -q -o "$dir/hk" >/dev/null 2>"$dir/hk.err" &
pid=$!
sleep 1
probe_cpus= main_cpus=
for t in /proc/$pid/task/*; do
	c=$(awk '/^Cpus_allowed_list:/ { print $2 }' "$t/status" 2>/dev/null)
	case "$(cat "$t/comm" 2>/dev/null)" in
	rtm-probe/*) probe_cpus="$probe_cpus $c" ;;
	*) main_cpus="$main_cpus $c" ;;
	esac
done
wait $pid || fail "--housekeeping 0 -a 1: exit $?: $(cat "$dir/hk.err")"
[ "$probe_cpus" = " 1" ] || fail "--housekeeping 0: probe allowed on '$probe_cpus', want 1"
[ -n "$main_cpus" ] && [ -z "$(echo $main_cpus | tr ' ' '\n' | grep -vx 0)" ] ||
	fail "--housekeeping 0: other threads allowed on '$main_cpus', want 0"
jq -e '.options.housekeeping == "0"' "$dir/hk/result.json" >/dev/null ||
	fail "--housekeeping is not recorded in result.json"
"$RTMEASURE" cyclic --mainaffinity 4000 -a 1 -l 10 -q -o "$dir/hkoff" >/dev/null 2>"$dir/hkoff.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$dir/hkoff.err")" -eq 1 ] &&
	grep -q "housekeeping: CPU 4000 is not online" "$dir/hkoff.err" ||
	fail "--mainaffinity 4000: exit $rc: $(cat "$dir/hkoff.err")"
echo "--housekeeping 0 -a 1: probe on CPU$probe_cpus, other threads on CPU$main_cpus"

# 2: the same process mask, no -a: every online CPU
taskset -c 0 "$RTMEASURE" cyclic -l 100 -q -o "$dir/all" >/dev/null ||
	fail "taskset -c 0 cyclic: exit $?"
want=$(jq -nc "[range(0; $(getconf _NPROCESSORS_ONLN))]")
[ "$(measured "$dir/all")" = "$want" ] || fail "default measured $(measured "$dir/all"), want $want"
echo "taskset -c 0, no -a: measured $(measured "$dir/all")"

# 3: a cpuset with CPU 0 only (cgroup v2 or v1)
if [ -f /sys/fs/cgroup/cgroup.subtree_control ] &&
	grep -qw cpuset /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	cg=/sys/fs/cgroup/rtmeasure-test-$$ cgprocs=cgroup.procs cgcpus=cpuset.cpus
	mkdir "$cg" || cg=
elif [ -d /sys/fs/cgroup/cpuset ]; then
	cg=/sys/fs/cgroup/cpuset/rtmeasure-test-$$ cgprocs=cgroup.procs cgcpus=cpuset.cpus
	mkdir "$cg" && cat /sys/fs/cgroup/cpuset/cpuset.mems >"$cg/cpuset.mems" || cg=
fi
if [ -n "$cg" ] && echo 0 >"$cg/$cgcpus" 2>/dev/null; then
	in_cpuset() { sh -c 'echo $$ >"$1/$2"; shift 2; exec "$@"' sh "$cg" "$cgprocs" "$@"; }
	in_cpuset "$RTMEASURE" cyclic -a 1 -l 100 -q -o "$dir/cs1" >/dev/null 2>"$dir/cs1.err"
	rc=$?
	[ $rc -eq 2 ] || fail "-a 1 outside the cpuset: exit $rc, want 2"
	grep -q "CPU 1 is outside this process's cpuset" "$dir/cs1.err" ||
		fail "message: $(cat "$dir/cs1.err")"
	[ "$(wc -l <"$dir/cs1.err")" -eq 1 ] || fail "more than one line: $(cat "$dir/cs1.err")"
	[ ! -e "$dir/cs1" ] || fail "a refused run left a results folder"
	in_cpuset "$RTMEASURE" cyclic -l 100 -q -o "$dir/cs" >/dev/null || fail "cpuset 0, no -a: exit $?"
	[ "$(measured "$dir/cs")" = "[0]" ] || fail "cpuset 0 measured $(measured "$dir/cs")"
	echo "cpuset {0}: -a 1 refused ($(cat "$dir/cs1.err")); no -a measured $(measured "$dir/cs")"
else
	echo "no cpuset cgroup to create here: cpuset part not run"
fi

# 4: a CPU that does not exist
"$RTMEASURE" cyclic -a 4000 -l 10 -q -o "$dir/off" >/dev/null 2>"$dir/off.err"
rc=$?
[ $rc -eq 2 ] || fail "-a 4000: exit $rc, want 2"
grep -q "CPU 4000 is not online (online CPUs: " "$dir/off.err" || fail "message: $(cat "$dir/off.err")"
echo "-a 4000: $(cat "$dir/off.err")"
echo "PASS"
