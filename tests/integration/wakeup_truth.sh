#!/bin/bash
# Integration: rtmeasure wakeup against an application's own account of its
# wake-ups. cyclictest (a real application nobody here wrote) runs one FIFO 80
# thread on CPU 1 at I = 5 ms, its main thread kept on CPU 0; a FIFO 99
# helper spins S = 3 ms on CPU 1 every 100.3 ms, 50 times. Each spin delays
# the cyclictest wake-up that falls inside it by up to S; the period is no
# multiple of I, so the delays spread over 0..S.
#
# What each side measures: cyclictest's latency runs from the timer's expiry
# to the thread reading the clock after it runs (timer interrupt delay + wait
# for the CPU + its own exit path); the BPF programs' wait runs from the
# wake-up (sched_wakeup, raised by that same timer interrupt) to the switch-in.
# For a wake-up delayed by a spin the wait for the CPU is nearly all of both,
# so the comparisons are:
#   - wake-ups between B = 1 ms and S + 200 us: the thread's count from the
#     BPF programs (its histogram: only the FIFO thread runs on CPU 1) within
#     10% of cyclictest's own count from its histogram (cyclictest may count
#     two more: a vCPU stall before a wake-up is in its band and is no wait). B and S are well
#     above this VM's own noise; its rarer long delays (the vCPU taken by the
#     host) land above S + 200 us in cyclictest and are left out of both;
#   - the longest: the BPF max is not above cyclictest's max (+ 20 us: the
#     two clocks are read at slightly different points) and falls short of
#     cyclictest's longest spin-made latency (its largest up to S + 200 us)
#     by the timer interrupt delay and exit path only (under 200 us). A
#     cyclictest sample beyond that is a delay before the wake-up (a timer
#     interrupt delivered late) or after the switch-in (the thread preempted
#     before it read its clock): the programs do not see it, by design;
#   - the per-CPU histogram of CPU 1 counts what the task table counts;
#   - the causes the programs decide in the kernel: every wait over B has one
#     (sent, or counted as not sent), and the waits in the band are named for
#     the disturber, rtm-inject, within 10% of cyclictest's count, at FIFO 99
#     but for one at most: the programs read a culprit's policy when it is
#     switched out, and after its last spin the helper drops to SCHED_OTHER
#     (to print its log) before it is.
# The same run recorded independently through tracefs by trace-cmd: an
# instance of this test's own (the top-level buffer untouched; removed on any
# exit) with sched_wakeup, sched_wakeup_new and sched_switch on CPU 1, for
# cyclictest's name only, in the mono clock (bpf_ktime_get_ns's). Its report
# is read with the programs' definition: a wake-up stamps the task (a later
# one replaces it),
# its switch-out drops a stamp (woken while it still ran), its switch-in
# with a stamp ends a wait; a task preempted while runnable is not woken, so
# its return is none. Both read the same tracepoints, so the bounds are
# tight: against the BPF figures of the thread, wake-ups within 1% (a wake-up
# raised on CPU 0, where this trace does not look, is the programs' alone),
# the band's count within 1 (a wait within a bucket's width of an edge may
# fall on the other side), the max within 50 us, and 90 % of the band's
# waits in the trace a wait of the census (the same wake-up and length within
# 50 us): the disturbed wake-ups one by one. The two sides read their clocks
# at different points of the same tracepoint, and this guest's vCPU can be
# taken away between them (12 us seen on a quiet run): hence 50 us, and 90 %,
# the count bound the comparison with cyclictest has.
# trace-cmd records with -d --no-filter: where the function tracer's files
# are not writable (some containers) it would not start otherwise; there it
# fails its own cleanup, so its exit status is not judged, the trace it wrote
# is.
# Then SIGINT: the run stops, exits 130 and leaves a result that report and
# export take.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
need_tracefs
command -v trace-cmd >/dev/null || skip "trace-cmd not installed (scripts/setup installs it)"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs"
command -v cyclictest >/dev/null || skip "cyclictest (rt-tests) not installed"
command -v bpftool >/dev/null || skip "bpftool not installed: cannot see the programs attach"
need_bpf
measure_lock "$@"

out=$(mktemp -d)
inst=/sys/kernel/tracing/instances/rtm-truth-$$
# trace_off: the instance's recording stopped and the instance removed, if
# there (trace-cmd removes it only when it ends well)
trace_off() {
	local e

	[ -d "$inst" ] || return 0
	echo 0 >"$inst/tracing_on"
	for e in sched_wakeup sched_wakeup_new sched_switch; do
		echo 0 >"$inst/events/sched/$e/enable"
	done
	rmdir "$inst"
}
# trace-cmd stops its recorders on SIGINT (they outlive a SIGTERM of theirs and hold the instance)
trap 'kill $inj $wk $ct 2>/dev/null; [ -z "$tc" ] || { kill -INT $tc; wait $tc; }; trace_off
	rm -rf "$out"' EXIT
inject="$RTM_BUILDDIR/tests/helpers/inject"
B_US=1000
S_US=3000
TOP_US=$((S_US + 200))

# cyclictest under a name of this test's own: a cyclictest someone else runs is not selected
ctname=ctruth$$
cp "$(command -v cyclictest)" "$out/$ctname" || fail "cannot copy cyclictest"
"$RTMEASURE" wakeup --comm "$ctname" -a 1 --above ${B_US}us --interval 1s -o "$out/w" \
	>"$out/w.txt" 2>&1 &
wk=$!
bpf_attached $wk sched_switch "$out/w.txt"
progs=$(grep -hs '^prog_id:' /proc/$wk/fdinfo/* | awk '{ print $2 }' | sort -u)
[ -n "$progs" ] || fail "rtmeasure wakeup holds no programs"

# the tracefs recording, cyclictest's name only (the filters keep it small)
stdbuf -oL trace-cmd record -q -d --no-filter -B "${inst##*/}" -C mono -M 2 \
	-e sched:sched_wakeup -f "comm == \"$ctname\"" \
	-e sched:sched_wakeup_new -f "comm == \"$ctname\"" \
	-e sched:sched_switch -f "prev_comm == \"$ctname\" || next_comm == \"$ctname\"" \
	-o "$out/trace.dat" >"$out/tc.txt" 2>&1 &
tc=$!
for i in $(seq 300); do
	grep -qs 'Hit Ctrl^C' "$out/tc.txt" && break
	kill -0 $tc 2>/dev/null || { cat "$out/tc.txt"; fail "trace-cmd record ended at start"; }
	sleep 0.1
done
[ "$i" -lt 300 ] || fail "trace-cmd did not start recording in 30 s"

# started on CPU 0: the main thread never runs on CPU 1, the FIFO thread moves there
taskset -c 0 "$out/$ctname" -t1 -a1 -p80 -i 5000 -D 8 -q --mainaffinity=0 -h 4000 \
	--histfile="$out/ct.hist" >/dev/null 2>&1 &
ct=$!
"$inject" --cpu 1 --spin ${S_US}us --every 100300us --count 50 --delay 1s >"$out/inj.txt" &
inj=$!
wait $inj || fail "inject exited $?"
wait $ct || fail "cyclictest exited $?"
kill -INT $tc
wait $tc
tc=
trace_off || fail "cannot remove the trace instance $inst"
trace-cmd report -R -t -i "$out/trace.dat" >"$out/trace.txt" 2>"$out/report.err" ||
	{ cat "$out/tc.txt" "$out/report.err"; fail "trace-cmd report cannot read the recording"; }
kill -INT $wk
wait $wk
rc=$?
cat "$out/w.txt"
[ $rc -eq 130 ] || fail "rtmeasure wakeup exited $rc after SIGINT, want 130"

# cyclictest's own figures: the late count from its histogram (one row per us,
# then its overflows), its max
ct_above=$(awk -v b=$B_US -v t=$TOP_US '/^[0-9]/ { if ($1 + 0 >= b && $1 + 0 <= t) n += $2 }
	END { print n + 0 }' "$out/ct.hist")
ct_max_us=$(awk '/^# Max Latenc/ { print $4 + 0 }' "$out/ct.hist")
ct_spin_max_us=$(awk -v t=$TOP_US '/^[0-9]/ && $2 > 0 && $1 + 0 <= t { m = $1 + 0 }
	END { print m + 0 }' "$out/ct.hist")
r="$out/w/result.json"
[ -s "$r" ] || fail "no result.json after SIGINT"
task=$(jq -c --arg n "$ctname" '[.sections.wakeup.tasks[] | select(.policy == "fifo" and .comm == $n)][0]' "$r")
[ "$task" != null ] || fail "the FIFO cyclictest thread is not in sections.wakeup.tasks"
# the band from CPU 1's buckets: a bucket is 1/256 of its value wide, far below the margins
bpf_above=$(jq --argjson b $((B_US * 1000)) --argjson t $((TOP_US * 1000)) \
	'[.cpus[] | select(.cpu == 1)][0].hist.buckets | map(select(.[0] >= $b and .[0] <= $t) | .[1]) | add // 0' "$r")
bpf_max=$(echo "$task" | jq .max_ns)
bpf_count=$(echo "$task" | jq .count)
cpu1=$(jq '[.cpus[] | select(.cpu == 1)][0].hist.count' "$r")
tasks_sum=$(jq '[.sections.wakeup.tasks[].count] | add' "$r")
echo "cyclictest: ${B_US}..${TOP_US} us $ct_above, max $ct_max_us us (up to ${TOP_US} us: $ct_spin_max_us us)"
echo "wakeup:     ${B_US}..${TOP_US} us $bpf_above, max $((bpf_max / 1000)) us, $bpf_count wake-ups (CPU 1: $cpu1)"

# a spin covers an expiry 3 times in 5, delays it over B 2 times in 3: about 20 of 50
[ "$ct_above" -ge 10 ] || fail "cyclictest saw only $ct_above late wake-ups of 50 spins: the disturber did not disturb"
bpf_task_above=$(echo "$task" | jq .above)
[ "$bpf_task_above" -ge "$bpf_above" ] || fail "the task counts $bpf_task_above waits above $B_US us, its CPU $bpf_above"
# within 10 %; cyclictest may see two more: a stall of this guest's vCPU before the
# wake-up (the timer interrupt delivered late) lands in its band and is no wait
# (seen under CI load: cyclictest 24, BPF 21, tracefs 21)
within() {	# BPF-SIDE CYCLICTEST-SIDE
	[ $((($1 - $2) * 10)) -le "$2" ] && [ $((($2 - 2 - $1) * 10)) -le "$2" ]
}
within "$bpf_above" "$ct_above" ||
	fail "BPF counts $bpf_above wake-ups in ${B_US}..${TOP_US} us, cyclictest $ct_above: more than 10% apart"
[ "$bpf_max" -le $(((ct_max_us + 20) * 1000)) ] ||
	fail "BPF max $bpf_max ns above cyclictest's max $ct_max_us us + 20 us"
[ "$bpf_max" -ge $(((ct_spin_max_us - 200) * 1000)) ] ||
	fail "BPF max $bpf_max ns short of cyclictest's $ct_spin_max_us us by more than 200 us"
# 8 s at 5 ms: about 1600 wake-ups, all of them seen (the run covers cyclictest's)
[ "$bpf_count" -ge 1500 ] || fail "BPF measured $bpf_count wake-ups of the thread, want ~1600"
[ "$cpu1" = "$tasks_sum" ] || fail "CPU 1's histogram counts $cpu1, the tasks $tasks_sum"

# the census: each wait over B sent with its cause (the rate bound is far above 50 spins)
census=$(jq -c '.sections.wakeup.census' "$r")
[ "$census" != null ] || fail "no sections.wakeup.census with --above"
c_waits=$(echo "$census" | jq '.waits')
c_lost=$(echo "$census" | jq '.limited + .ring_full')
all_above=$(jq '.sections.wakeup.above' "$r")
[ $((c_waits + c_lost)) -eq "$all_above" ] ||
	fail "the census has $c_waits waits (+ $c_lost not sent), the CPUs count $all_above over $B_US us"
[ "$c_lost" -eq 0 ] || fail "$c_lost causes not sent at 50 spins in 5 s"
band='[.list[] | select(.wait_ns >= $b and .wait_ns <= $t and .cause == "thread"
	and .task.comm == "rtm-inject")]'
named=$(echo "$census" | jq --argjson b $((B_US * 1000)) --argjson t $((TOP_US * 1000)) \
	"$band | length")
fifo99=$(echo "$census" | jq --argjson b $((B_US * 1000)) --argjson t $((TOP_US * 1000)) \
	"$band | map(select(.task.policy == \"fifo\" and .task.priority == 99)) | length")
echo "census:     $c_waits waits over $B_US us; ${B_US}..${TOP_US} us named for rtm-inject: $named, at FIFO 99: $fifo99"
echo "$census" | jq -r '.list[:3][].sentence'
within "$named" "$ct_above" ||
	fail "$named waits in ${B_US}..${TOP_US} us named for rtm-inject, cyclictest saw $ct_above: more than 10% apart"
[ "$fifo99" -ge $((named - 1)) ] ||
	fail "of $named waits named for rtm-inject only $fifo99 say FIFO 99"
grep -q "CPU 1: $c_waits waits over .*behind rtm-inject (FIFO 99" "$out/w.txt" ||
	fail "no census sentence for CPU 1 naming rtm-inject in the output"

# the tracefs account: no events lost, the thread by its switch-ins on CPU 1
grep -q '\[LOST ' "$out/trace.txt" &&
	fail "trace-cmd lost events: $(grep -m1 LOST "$out/trace.txt")"
tid=$(grep -o "next_comm=$ctname next_pid=[0-9]*" "$out/trace.txt" | sort | uniq -c | sort -rn |
	awk '{ sub("next_pid=", "", $3); print $3; exit }')
[ -n "$tid" ] || fail "the trace has no switch-in of $ctname on CPU 1"
[ "$tid" = "$(echo "$task" | jq .pid)" ] ||
	fail "the trace's thread on CPU 1 is $tid, the programs' $(echo "$task" | jq .pid)"
# one line a wait: wake-up time and length in ns
awk -v tid="$tid" '{
	for (i = 1; i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/; i++)
		;
	if (i > NF)
		next
	split(substr($i, 1, length($i) - 1), t, ".")
	ns = t[1] * 1e9 + t[2] * 10 ^ (9 - length(t[2]))
	pid = prev = next_ = ""
	for (j = i + 2; j <= NF; j++) {
		if ($j ~ /^pid=/) pid = substr($j, 5)
		else if ($j ~ /^prev_pid=/) prev = substr($j, 10)
		else if ($j ~ /^next_pid=/) next_ = substr($j, 10)
	}
	if ($(i + 1) == "sched_wakeup:" || $(i + 1) == "sched_wakeup_new:") {
		if (pid == tid)
			stamp = ns
	} else if ($(i + 1) == "sched_switch:") {
		if (prev == tid)
			stamp = 0
		if (next_ == tid && stamp) {
			printf "%.0f %.0f\n", stamp, ns - stamp
			stamp = 0
		}
	}
}' "$out/trace.txt" >"$out/waits.txt"
tr_count=$(wc -l <"$out/waits.txt")
tr_max=$(awk '$2 > m { m = $2 } END { printf "%.0f\n", m }' "$out/waits.txt")
awk -v b=$((B_US * 1000)) -v t=$((TOP_US * 1000)) '$2 >= b && $2 <= t' "$out/waits.txt" \
	>"$out/band.txt"
tr_above=$(wc -l <"$out/band.txt")
# each wait of the band against the census: the same wake-up (mono clock) and length
echo "$census" | jq -r --argjson p "$tid" '.list[] | select(.pid == $p) |
	"\(.wake_mono_ns) \(.wait_ns)"' >"$out/census.txt"
matched=$(awk 'NR == FNR { w[NR] = $1; l[NR] = $2; n = NR; next }
	{ for (i = 1; i <= n; i++) {
		dw = w[i] - $1; dl = l[i] - $2
		if (dw * dw <= 2.5e9 && dl * dl <= 2.5e9) { m++; break }
	} }
	END { print m + 0 }' "$out/census.txt" "$out/band.txt")
echo "tracefs:    ${B_US}..${TOP_US} us $tr_above, max $((tr_max / 1000)) us," \
	"$tr_count wake-ups (thread $tid); of the band $matched in the census"
echo "ok: wake-ups BPF $bpf_count, tracefs $tr_count"
echo "ok: ${B_US}..${TOP_US} us BPF $bpf_above, tracefs $tr_above, cyclictest $ct_above"
echo "ok: max BPF $((bpf_max / 1000)) us, tracefs $((tr_max / 1000)) us, cyclictest $ct_max_us us"
diff=$((bpf_count - tr_count))
[ $((${diff#-} * 100)) -le "$tr_count" ] ||
	fail "BPF counts $bpf_count wake-ups of the thread, tracefs $tr_count: more than 1% apart"
diff=$((bpf_above - tr_above))
[ ${diff#-} -le 1 ] ||
	fail "BPF counts $bpf_above waits in ${B_US}..${TOP_US} us, tracefs $tr_above: over 1 apart"
diff=$((bpf_max - tr_max))
[ ${diff#-} -le 50000 ] || fail "BPF max $bpf_max ns, tracefs $tr_max ns: more than 50 us apart"
[ $((matched * 10)) -ge $((tr_above * 9)) ] ||
	fail "of the trace's $tr_above waits in ${B_US}..${TOP_US} us only $matched are in the census"

"$RTMEASURE" report "$out/w" >/dev/null 2>&1 || fail "report does not take the result"
"$RTMEASURE" export --csv "$out/w" >/dev/null || fail "export does not take the result"
for id in $progs; do
	bpftool prog show id "$id" >/dev/null 2>&1 && fail "program $id of the run left loaded"
done
echo "PASS: ${B_US}..${TOP_US} us: BPF $bpf_above, tracefs $tr_above, cyclictest $ct_above, named for rtm-inject $named ($fifo99 at FIFO 99); max BPF $((bpf_max / 1000)) us, tracefs $((tr_max / 1000)) us, cyclictest $ct_max_us us"
