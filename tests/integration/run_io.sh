#!/bin/bash
# Integration: run --io, the storage probe beside the timer probe, on a file it creates in
# the results folder's file system, that of a loop device (direct I/O to a small backing
# file), never the root disk as the subject. A 3 s run gives both the timer probe's CPUs and
# sections.io with duration/interval requests, its thread on the CPU the timer probe does not
# measure, the created file removed; with --trace every miss has a cause; --load io runs its
# O_DIRECT best-effort writer in that file system while measuring, recorded in sections.load,
# and leaves no file or process after; SIGINT saves both probes' results; a block device as
# --io-target is refused before measuring without --io-force-device. No timing is judged.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
[ "$(nproc)" -ge 2 ] || skip "one CPU: no CPU beside the timer probe's for the storage probe"
measure_lock "$@"

w=$(mktemp -d /var/tmp/rtm-runio.XXXXXX)
loop=
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	loop_fs_off "$w"
	rm -rf "$w"
}
trap cleanup EXIT
loop_fs "$w" 160M
cpu=$(($(nproc) - 1))

# 1. 3 s beside the timer probe on CPU 0: both sections, the io thread off CPU 0
"$RTMEASURE" run --io --io-interval 10ms --io-file-size 16m -D 3s -a 0 --no-report \
	-o "$mnt/a" >"$w/a.out" 2>"$w/a.err" || fail "run --io exited $?: $(cat "$w/a.err")"
res=$mnt/a/result.json
jq -e '(.cpus | length) == 1 and .cpus[0].cpu == 0 and .cpus[0].hist.count > 0' "$res" \
	>/dev/null || fail "no timer probe section: $(jq -c '.cpus | length' "$res")"
req=$(jq '.sections.io.requests' "$res")
[ "$req" -ge 294 ] && [ "$req" -le 301 ] ||
	fail "$req requests in 3 s at 10 ms, not 300 (within 2 %)"
jq -e '.sections.io as $io | ([$io.ops[].count] | add) + ([$io.ops[].errors] | add) ==
	$io.requests and $io.ops.randread.latency.min_ns > 0' "$res" >/dev/null ||
	fail "sections.io is not rtmeasure io's: $(jq -c '.sections.io | keys' "$res")"
jq -e --argjson c "$cpu" '.options.io.cpu == $c and (.options.io.cpu_measured | not)' "$res" \
	>/dev/null || fail "the io thread not on CPU $cpu: $(jq -c .options.io "$res")"
jq -e '.sections.io.target | .kind == "created file" and .fstype == "ext4"' "$res" \
	>/dev/null || fail "the target is not recorded: $(jq -c .sections.io.target "$res")"
grep -q "io: .* on CPU $cpu, which the timer probe does not measure" "$w/a.err" ||
	fail "the start line does not say where the io thread runs: $(cat "$w/a.err")"
grep -q "storage probe" "$w/a.out" && grep -q randread "$w/a.out" ||
	fail "the summary has no io table: $(cat "$w/a.out")"
! ls "$mnt/a" | grep -q '^rtmeasure-io-' || fail "the created target file was left behind"
echo "ok: $req requests beside the timer probe, io thread on CPU $cpu"

# 1a. --json: the io summary beside the latency one, its counts result.json's
"$RTMEASURE" run --io --io-interval 10ms --io-file-size 16m -D 1s -a 0 --no-report --json \
	-o "$mnt/j" >"$w/j.out" 2>"$w/j.err" || fail "run --io --json exited $?: $(cat "$w/j.err")"
jq -e --slurpfile r "$mnt/j/result.json" '.io.ops.randread.count ==
	$r[0].sections.io.ops.randread.count and .io.ops.randread.latency.max_ns ==
	$r[0].sections.io.ops.randread.latency.max_ns and (.io.miss_list == null) and
	(.cpus | length) == 1' "$w/j.out" >/dev/null ||
	fail "run --io --json has no io summary: $(head -c 300 "$w/j.out")"
echo "ok: --json: the io summary beside the latency one"

# 1b. with --trace, a cause for every miss, as rtmeasure io gives them
"$RTMEASURE" run --io --io-deadline 1us --io-file-size 16m --trace --capture-above 1s -D 1s \
	-a 0 --no-report -q -o "$mnt/t" 2>"$w/t.err" || fail "run --io --trace exited $?: $(cat "$w/t.err")"
jq -e '.sections.io as $io | $io.misses > 0 and $io.causes.misses == ($io.miss_list | length)
	and ([$io.causes.by_cause[]] | add) == $io.causes.misses' "$mnt/t/result.json" \
	>/dev/null || fail "--trace: the misses have no causes: $(jq -c '.sections.io |
	{misses, causes: (.causes | {misses, by_cause})}' "$mnt/t/result.json")"
echo "ok: --trace: $(jq -c .sections.io.causes.by_cause "$mnt/t/result.json")"

# 2. --load io: its writer in the probe's file system while measuring, gone after
"$RTMEASURE" run --io --io-file-size 16m --load io -D 4s -a 0 --no-report -q \
	-o "$mnt/b" 2>"$w/b.err" &
pid=$!
seen=
for i in $(seq 60); do
	d=$(ls -d "$mnt/b"/rtmeasure-load-io.* 2>/dev/null | head -1)
	if [ -n "$d" ] && pgrep -f -- "--temp-path $d" >/dev/null; then
		seen=$d
		break
	fi
	sleep 0.1
done
wait $pid
rc=$?
pid=
[ $rc -eq 0 ] || fail "run --io --load io exited $rc: $(cat "$w/b.err")"
[ -n "$seen" ] || fail "no io writer ran in $mnt/b while measuring"
jq -e --arg d "$seen" '.sections.load.kinds == ["io"] and (.sections.load.commands[0] |
	contains("--hdd-opts direct,wr-seq") and contains("--ionice-class besteffort") and
	contains("--temp-path " + $d))' "$mnt/b/result.json" >/dev/null ||
	fail "sections.load does not record the writer: $(jq -c .sections.load "$mnt/b/result.json")"
[ ! -e "$seen" ] || fail "the io writer's folder $seen was left behind"
! pgrep -f -- "--temp-path $seen" >/dev/null || fail "the io writer still runs"
jq -e '.sections.io.requests > 0' "$mnt/b/result.json" >/dev/null || fail "no io section"
echo "ok: --load io wrote in $seen while measuring, removed after"

# 3. SIGINT saves both probes' results
"$RTMEASURE" run --io --io-file-size 16m -D 60s -a 0 --no-report -q -o "$mnt/c" \
	2>"$w/c.err" &
pid=$!
for i in $(seq 300); do
	grep -qs '^rtm-io/' /proc/$pid/task/*/comm && break
	sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid
rc=$?
pid=
[ $rc -eq 130 ] || fail "SIGINT: exit $rc, not 130: $(cat "$w/c.err")"
jq -e '.interrupted and .sections.io.requests > 0 and .cpus[0].hist.count > 0' \
	"$mnt/c/result.json" >/dev/null || fail "SIGINT did not save both probes' results"
! ls "$mnt/c" | grep -q '^rtmeasure-io-' || fail "SIGINT left the target file"
echo "ok: SIGINT saved both"

# 4. a block device only when confirmed, refused before measuring
run_cmd run --io --io-target "$loop" -D 1s -a 0 --no-report -o "$w/d"
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q -- --io-force-device || fail "a device without --io-force-device: $rc $err"
[ ! -e "$w/d/result.json" ] || fail "a refused run wrote a result"
echo "ok: $err"
exit 0
