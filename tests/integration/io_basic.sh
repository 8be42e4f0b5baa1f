#!/bin/bash
# Integration: rtmeasure io on a loop device (direct I/O to a small backing file), never on
# the root disk as the subject. The probe runs on a file it creates in the results folder's
# file system (ext4 on the loop device) and removes; result.json has sections.io with
# latencies above 0; against a 1 us deadline every request misses; with a competing O_DIRECT
# best-effort writer (fio) on the same device the misses equal the latency histogram's count
# above the deadline (within the deadline's bucket); against a saturating O_DIRECT writer
# (fio, libaio, best-effort) the causes of the misses name fio as queued or in flight ahead of
# the probe's requests, their parts add up to each latency, and no cause is claimed for a
# request that is not in the trace; a block device is refused without
# --force-device and written only with --allow-writes; --scheduler is put back after the
# run, and after SIGINT, which saves what was measured. No timing is judged.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"

w=$(mktemp -d /var/tmp/rtm-io.XXXXXX)
loop=
pid=
fio_pid=
cleanup() {
	[ -n "$fio_pid" ] && kill "$fio_pid" 2>/dev/null && wait "$fio_pid" 2>/dev/null
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	loop_fs_off "$w"
	rm -rf "$w"
}
trap cleanup EXIT
loop_fs "$w" 96M
dev=${loop#/dev/}
[ "$(cat /sys/block/$dev/loop/dio 2>/dev/null)" = 1 ] ||
	skip "the loop device has no direct I/O to its backing file"
sched_file=/sys/block/$dev/queue/scheduler
sched_now() { sed 's/.*\[\(.*\)\].*/\1/' "$sched_file"; }

# 1. the probe on a created file: every request misses a 1 us deadline
"$RTMEASURE" io -D 2s -i 5ms --deadline 1us --op randread,write --file-size 16m -o "$mnt/a" \
	--json >"$w/a.json" 2>"$w/a.err" || fail "rtmeasure io exited $?: $(cat "$w/a.err")"
res=$mnt/a/result.json
jq -e '.sections.io.ops.randread and .sections.io.ops.write' "$res" >/dev/null ||
	fail "result.json has no sections.io with randread and write"
# p50: a few hundred requests are too few for p99 to be a number (null, as every summary)
jq -e '.io.ops.randread.latency.p50_ns > 0' "$w/a.json" >/dev/null || fail "no --json summary"
jq -e '[.sections.io.ops[] | .latency.min_ns > 0 and .service.min_ns > 0] | all' "$res" \
	>/dev/null || fail "a latency of 0"
req=$(jq '.sections.io.requests' "$res")
[ "$req" -ge 100 ] || fail "only $req requests in 2 s at 5 ms"
jq -e '.sections.io as $io | ([$io.ops[].count] | add) == $io.requests and
	$io.misses == $io.requests and ([$io.ops[].misses] | add) == $io.misses and
	($io.miss_list | length) + $io.misses_dropped == $io.misses' "$res" >/dev/null ||
	fail "a 1 us deadline: the counts disagree: $(jq -c '.sections.io | {requests, misses,
		misses_dropped, n: (.miss_list | length)}' "$res")"
jq -e --arg d "$dev" '.sections.io.target | .disk == $d and .kind == "created file" and
	.fstype == "ext4"' "$res" >/dev/null ||
	fail "the target is not recorded: $(jq -c .sections.io.target "$res")"
jq -e --arg s "$(sched_now)" '.sections.io.target.scheduler == $s' "$res" >/dev/null ||
	fail "the scheduler recorded is not $(sched_now)"
! ls "$mnt/a" | grep -q '^rtmeasure-io-' || fail "the created target file was left behind"
echo "ok: 1 us deadline, $req requests, all missed"

# 2. a competing best-effort O_DIRECT writer on the same device
quiet_p50=$(jq '.io.ops.randread.latency.p50_ns' "$w/a.json")
command -v fio >/dev/null || skip "fio missing: the competing writer (part 2 on) not run"
fio --name=competitor --filename="$mnt/competitor" --rw=randwrite --bs=64k --size=24m \
	--direct=1 --ioengine=psync --time_based --runtime=60 --prio=4 --prioclass=2 \
	>"$w/fio.out" 2>&1 &
fio_pid=$!
sleep 1
kill -0 $fio_pid 2>/dev/null || fail "fio did not start: $(cat "$w/fio.out")"
"$RTMEASURE" io -D 3s -i 5ms --deadline 500us --op randread --file-size 16m -o "$mnt/b" \
	--json >"$w/b.json" 2>"$w/b.err" || fail "rtmeasure io beside fio exited $?: $(cat "$w/b.err")"
kill $fio_pid; wait $fio_pid 2>/dev/null; fio_pid=
res=$mnt/b/result.json
# the misses against the histogram: all above the deadline's bucket are misses, none below
read -r lower misses upper < <(jq -r '.sections.io as $io | $io.deadline_ns as $d |
	$io.ops.randread | [(.latency.buckets | map(select(.[0] > $d) | .[1]) | add // 0),
	.misses, (.latency.buckets | map(select(.[0] * 1.004 + 1 >= $d) | .[1]) | add // 0)] |
	@tsv' "$res")
echo "competitor: misses $misses, histogram above the deadline between $lower and $upper;" \
	"p50 $quiet_p50 ns alone, $(jq '.io.ops.randread.latency.p50_ns' "$w/b.json") ns beside fio"
[ "$lower" -le "$misses" ] && [ "$misses" -le "$upper" ] ||
	fail "misses $misses outside the histogram's count above the deadline [$lower, $upper]"
jq -e '.sections.io | (.miss_list | length) + .misses_dropped == .misses' "$res" >/dev/null ||
	fail "the miss list and the count disagree"

# 2b. the causes of the misses: a saturating writer is named ahead of the probe's requests
fio --name=saturate --filename="$mnt/competitor" --rw=randwrite --bs=64k --size=24m \
	--direct=1 --ioengine=libaio --iodepth=8 --time_based --runtime=60 --prio=4 \
	--prioclass=2 >"$w/fio2.out" 2>&1 &
fio_pid=$!
sleep 1
kill -0 $fio_pid 2>/dev/null || fail "fio did not start: $(cat "$w/fio2.out")"
"$RTMEASURE" io -D 3s -i 5ms --deadline 200us --causes --op randread --file-size 16m \
	-o "$mnt/s" >"$w/s.out" 2>"$w/s.err" || fail "rtmeasure io --causes exited $?: $(cat "$w/s.err")"
res=$mnt/s/result.json
# fio's job processes, named while they run: the trace's pids must be among them
fio_pids=" $(pgrep -x fio | tr '\n' ' ')"
kill $fio_pid; wait $fio_pid 2>/dev/null; fio_pid=
jq -e '.sections.io.misses > 0' "$res" >/dev/null ||
	fail "no miss of a 200 us deadline beside a saturating writer: nothing to explain"
jq -e '.sections.io as $io | $io.causes as $c | $c.misses == ($io.miss_list | length) and
	([$c.by_cause[]] | add) == $c.misses and ([$c.causes[].count] | add) == $c.misses' \
	"$res" >/dev/null || fail "the causes do not count the misses: $(jq -c \
	'.sections.io.causes | {misses, by_cause}' "$res")"
jq -e '[.sections.io.causes.list[] | select(.cause != "untraced") |
	.issue_late_ns + .submit_ns + .queued_ns + .device_ns + .wakeup_ns + .return_ns ==
	.latency_ns] | all' "$res" >/dev/null || fail "a miss's parts do not add up to its latency"
jq -e '[.sections.io.causes.list[] | select(.cause == "untraced" | not) | .request != null] |
	all' "$res" >/dev/null || fail "a cause claimed without the probe's request in the trace"
top=$(jq -r '.sections.io.causes.ahead[0] | "\(.comm) \(.pid) \(.queued + .in_flight)"' "$res")
read -r comm fpid ahead <<<"$top"
[ "$comm" = fio ] && [ "$ahead" -gt 0 ] ||
	fail "fio is not the task most often ahead of the probe's requests: $(jq -c \
	'.sections.io.causes.ahead' "$res")"
case "$fio_pids" in *" $fpid "*) ;; *) fail "fio pid $fpid is not one of fio's ($fio_pids)" ;; esac
jq -e --argjson p "$fpid" '[.sections.io.causes.list[] | select(.ahead | any(.comm == "fio" and
	.pid == $p and .ioprio == "be:4"))] | length > 0' "$res" >/dev/null ||
	fail "no miss names fio pid $fpid (be:4) ahead of it"
grep -q "Miss causes" "$w/s.out" && grep -q "fio pid $fpid" "$w/s.out" ||
	fail "the summary does not name fio: $(cat "$w/s.out")"
echo "ok: $(grep -A1 'Miss causes' "$w/s.out" | tail -1)"
"$RTMEASURE" io -D 1s -i 5ms --deadline 1us --no-causes -q --file-size 16m -o "$mnt/n" ||
	fail "--no-causes exited $?"
jq -e '.sections.io.misses > 0 and (.sections.io | has("causes") | not)' \
	"$mnt/n/result.json" >/dev/null || fail "--no-causes still wrote causes"

# 3. a block device: only confirmed, and written only when allowed
run_cmd io -D 1s --target "$loop" -o "$w/c"
[ $rc -eq 2 ] && echo "$err" | grep -q -- --force-device || fail "a device without --force-device: $rc $err"
run_cmd io -D 1s --target "$loop" --force-device --op randwrite -o "$w/c"
[ $rc -eq 2 ] && echo "$err" | grep -q -- --allow-writes || fail "device writes without --allow-writes: $rc $err"
"$RTMEASURE" io -D 1s -q --target "$loop" --force-device --op randread -o "$w/c" ||
	fail "reads of the device with --force-device exited $?"
jq -e '.sections.io.target.kind == "device" and .sections.io.ops.randread.count > 0' \
	"$w/c/result.json" >/dev/null || fail "the device run recorded no reads"
# a priority the thread may not take: refused before measuring, the created file removed
if command -v setpriv >/dev/null; then
	chmod 755 "$w" "$mnt" && mkdir "$mnt/g" && chmod 777 "$mnt/g"
	setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all "$RTMEASURE" io \
		--no-rt --ioprio rt:2 -D 1s --file-size 1m -q -o "$mnt/g/r" 2>"$w/g.err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$w/g.err")" -eq 1 ] && grep -q CAP_SYS_ADMIN "$w/g.err" ||
		fail "--ioprio rt:2 unprivileged: exit $rc: $(cat "$w/g.err")"
	! ls "$mnt/g/r" | grep -q '^rtmeasure-io-' || fail "a refused priority left the target file"
fi
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	run_cmd io -D 1s --target /dev/shm -o "$w/d"
	[ $rc -eq 2 ] && echo "$err" | grep -q tmpfs || fail "tmpfs not refused by name: $rc $err"
fi

# 4. --scheduler: set for the run, put back after it and after SIGINT
before=$(sched_now)
other=mq-deadline
[ "$before" = mq-deadline ] && other=none
grep -qw "$other" "$sched_file" || skip "the loop device offers no $other scheduler"
"$RTMEASURE" io -D 1s -q --scheduler "$other" --file-size 16m -o "$mnt/e" ||
	fail "--scheduler $other exited $?"
jq -e --arg o "$other" '.sections.io.target.scheduler_set == $o' "$mnt/e/result.json" \
	>/dev/null || fail "scheduler_set not recorded"
[ "$(sched_now)" = "$before" ] || fail "the scheduler is $(sched_now) after the run, not $before"
"$RTMEASURE" io -D 60s -q --scheduler "$other" --file-size 16m -o "$mnt/f" &
pid=$!
for i in $(seq 300); do
	grep -qs '^rtm-io/' /proc/$pid/task/*/comm && break
	sleep 0.1
done
[ "$(sched_now)" = "$other" ] || fail "the scheduler is $(sched_now) while measuring"
sleep 1
kill -INT $pid
wait $pid
rc=$?
pid=
[ $rc -eq 130 ] || fail "SIGINT: exit $rc, not 130"
[ "$(sched_now)" = "$before" ] || fail "the scheduler is $(sched_now) after SIGINT, not $before"
jq -e '.interrupted and .sections.io.requests > 0' "$mnt/f/result.json" >/dev/null ||
	fail "SIGINT did not save what was measured"
! ls "$mnt/f" | grep -q '^rtmeasure-io-' || fail "SIGINT left the target file"
echo "ok: scheduler $other for the runs, $before after them"
exit 0
