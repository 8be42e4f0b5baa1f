#!/bin/bash
# Integration: rtmeasure sysinfo on the live system (root). Checks the facts
# against the kernel's own files and that the system is left as found (a
# temporary tracefs mount is gone again).
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq

mounts_before=$(grep -c ' tracefs ' /proc/self/mounts)
json=$("$RTMEASURE" sysinfo --json) || fail "sysinfo --json exited $?"
mounts_after=$(grep -c ' tracefs ' /proc/self/mounts)
[ "$mounts_before" = "$mounts_after" ] || fail "tracefs mounts changed: $mounts_before -> $mounts_after"
ls -d /tmp/rtmeasure-tracefs.* 2>/dev/null && fail "temporary tracefs directory left behind"

echo "$json" | jq -e . >/dev/null || fail "output is not JSON"
[ "$(echo "$json" | jq -r .kernel.release)" = "$(uname -r)" ] || fail "release differs from uname -r"
[ "$(echo "$json" | jq -r .cpu.online_count)" = "$(getconf _NPROCESSORS_ONLN)" ] ||
	fail "online CPU count differs from getconf"
model=$(echo "$json" | jq -r .kernel.preempt.model)
if [ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ]; then
	[ "$model" = rt ] || fail "PREEMPT_RT kernel reported as $model"
else
	[ "$model" != rt ] || fail "non-RT kernel reported as rt"
fi
case "$(uname -v)" in
*PREEMPT_DYNAMIC*) [ "$(echo "$json" | jq -r .kernel.preempt.dynamic)" = true ] ||
	fail "PREEMPT_DYNAMIC not reported" ;;
esac
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
[ "$(echo "$json" | jq -r .sched.rt_runtime_us)" = "$rt" ] || fail "sched_rt_runtime_us differs"
if grep -qw hypervisor /proc/cpuinfo; then
	[ "$(echo "$json" | jq -r .virtualization.vm)" = true ] || fail "VM not detected"
fi
# the hypervisor the kernel named at boot, when its log still holds the line;
# both names shown when CPUID's vendor says something else (PVM: "bhyve bhyve ")
kname=$(dmesg 2>/dev/null | sed -n 's/.*Hypervisor detected: *//p' | tail -1)
if [ -n "$kname" ]; then
	[ "$(echo "$json" | jq -r .virtualization.kernel)" = "$kname" ] ||
		fail "kernel says hypervisor $kname, sysinfo: $(echo "$json" | jq -c .virtualization)"
	cpuid=$(echo "$json" | jq -r '.virtualization.cpuid // empty')
	if [ -n "$cpuid" ] && [ "$cpuid" != "$kname" ]; then
		"$RTMEASURE" sysinfo | grep -q "$kname per the kernel log; CPUID says $cpuid" ||
			fail "text output does not show both hypervisor names"
	fi
fi
# tracers: compare with the kernel's list through a private mount
tmp=$(mktemp -d)
if mount -t tracefs nodev "$tmp" 2>/dev/null; then
	for t in hwlat osnoise timerlat; do
		want=false
		grep -qw "$t" "$tmp/available_tracers" && want=true
		got=$(echo "$json" | jq -r ".tracing.$t")
		[ "$got" = "$want" ] || { umount "$tmp"; rmdir "$tmp"; fail "tracer $t: $got, kernel says $want"; }
	done
	umount "$tmp"
fi
rmdir "$tmp"
n=$(echo "$json" | jq '[.checks[] | select(.id == "preempt" or .id == "rt_throttling")] | length')
[ "$n" -eq 2 ] || fail "preempt and rt_throttling verdicts missing"
echo "PASS: sysinfo live facts match the kernel's files"
