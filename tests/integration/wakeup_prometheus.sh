#!/bin/bash
# Integration: rtmeasure wakeup --prometheus serves /metrics while the BPF
# programs measure, new at each --interval's end, with the series and labels
# that export --prometheus of the saved result gives. The selected task is a
# cyclictest under a name of this test's own, its measuring thread on CPU 1
# (300 loops); once it has exited and two more intervals were saved, a scraped
# page must give every count (histogram buckets and counts, per-task wake-ups,
# counters) of the export of the result saved at the end, after SIGINT, on the
# same series. The server's threads run on CPU 0, off the measured CPU 1; a
# second run on the same port is refused before anything loads (exit 2, one
# line, no results folder); after SIGINT the port is closed. No timing is judged.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
command -v curl >/dev/null || skip "curl not installed"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs (the server off the measured one)"
command -v cyclictest >/dev/null || skip "cyclictest (rt-tests) not installed"
need_bpf
measure_lock "$@"

t=$(mktemp -d)
wk= ct=
trap '[ -n "$ct" ] && kill $ct 2>/dev/null; [ -n "$wk" ] && kill $wk 2>/dev/null; rm -rf "$t"' EXIT
ctname=ctprom$$
cp "$(command -v cyclictest)" "$t/$ctname" || fail "cannot copy cyclictest"

"$RTMEASURE" wakeup --comm "$ctname" -a 1 --interval 1s --prometheus 0 -o "$t/w" \
	>"$t/w.out" 2>"$t/w.err" &
wk=$!
port=
for _ in $(seq 100); do	# a bound, not a measurement
	port=$(sed -n 's/.*metrics for Prometheus at port \([0-9]*\),.*/\1/p' "$t/w.err")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || fail "no port announced: $(cat "$t/w.err")"
url=http://127.0.0.1:$port/metrics
# the first interval's page: the programs are attached by then
for _ in $(seq 300); do
	curl -s --max-time 2 "$url" >"$t/first" 2>/dev/null
	grep -q '^rtmeasure_build_info{probe="wakeup",' "$t/first" && break
	kill -0 $wk 2>/dev/null || fail "rtmeasure wakeup ended: $(cat "$t/w.err")"
	sleep 0.1
done
grep -q '^rtmeasure_task_wakeup_latency_seconds_count{cpu="1",probe="wakeup",' "$t/first"
ok $? "a page after the first interval: the waits of CPU 1, probe=\"wakeup\""

# the server's threads (all but the main one) on CPU 0 only
bad=0 n=0
for d in /proc/$wk/task/*; do
	[ "${d##*/}" = "$wk" ] && continue
	n=$((n + 1))
	[ "$(awk '/^Cpus_allowed_list/ { print $2 }' "$d/status")" = 0 ] || bad=$((bad + 1))
done
[ $n -ge 1 ] && [ $bad -eq 0 ]
ok $? "the server's $n threads run on CPU 0, off the measured CPU 1"

run_cmd wakeup --comm "$ctname" -a 1 -D 1s --prometheus "$port" -o "$t/w2"
[ "$rc" -eq 2 ] && [ "$(echo "$err" | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q "wakeup: --prometheus $port: cannot listen there" && [ ! -e "$t/w2" ]
ok $? "a port in use: exit 2, one line, no results folder ($err)"

# the task: 300 wake-ups of its thread on CPU 1, its main thread on CPU 0
taskset -c 0 "$t/$ctname" -t1 -a1 -p80 -i 2000 -l 300 -q --mainaffinity=0 >/dev/null 2>&1 &
ct=$!
wait $ct || fail "cyclictest exited $?"
ct=
# two saves after its end: the second interval was read wholly after it
saved() { date -r "$t/w/result.json" +%s%N; }
for k in 1 2; do
	m=$(saved)
	for _ in $(seq 100); do [ "$(saved)" != "$m" ] && break; sleep 0.1; done
	[ "$(saved)" != "$m" ] || fail "result.json not saved again in 10 s"
done
sleep 0.2
curl -sf --max-time 2 "$url" >"$t/page" || fail "GET /metrics failed"
grep -q "^rtmeasure_task_wakeup_per_task_wakeups_total{.*comm=\"$ctname\"" "$t/page"
ok $? "the page has the task's own series (comm=\"$ctname\")"
if command -v promtool >/dev/null; then
	promtool check metrics <"$t/page" >/dev/null 2>&1
	ok $? "promtool check metrics accepts a live wakeup page"
fi

kill -INT $wk
wait $wk
rc=$?
wk=
[ $rc -eq 130 ]
ok $? "SIGINT: exit 130 ($rc)"
curl -s --max-time 2 -o /dev/null "$url"
[ $? -eq 7 ]
ok $? "after SIGINT nothing listens on port $port"
"$RTMEASURE" export --prometheus "$t/w" >"$t/final" || fail "export --prometheus exited $?"

# the same series with the same labels (the values aside)
diff <(grep -v '^#' "$t/page" | sed 's/ [^ ]*$//') <(grep -v '^#' "$t/final" | sed 's/ [^ ]*$//') \
	>"$t/series.diff"
ok $? "the live page's series and labels are export's ($(grep -vc '^#' "$t/final") series)$(
	head -4 "$t/series.diff" | tr '\n' ' ')"
# every count the same: buckets, counts, counters, tasks seen
counts() {
	grep -E '^[a-z_]+(_bucket|_count|_total)\{|^rtmeasure_task_wakeup_tasks_seen\{' "$1" | sort
}
diff <(counts "$t/page") <(counts "$t/final") >"$t/counts.diff"
ok $? "every count on the live page is export's ($(counts "$t/final" | wc -l) samples)$(
	head -4 "$t/counts.diff" | tr '\n' ' ')"
n=$(grep "^rtmeasure_task_wakeup_per_task_wakeups_total{.*comm=\"$ctname\"" "$t/final" |
	awk '{ s += $NF } END { print s + 0 }')
want=$(jq --arg c "$ctname" '[.sections.wakeup.tasks[] | select(.comm == $c) | .count] | add' \
	"$t/w/result.json")
# (a loop whose next expiry has passed when it sleeps, after a stall of this
# VM's vCPU, sleeps not and is woken not: 3 % below the loops at most)
[ "$n" = "$want" ] && [ "$n" -ge 291 ]
ok $? "the task's wake-ups: $n in export, $want in result.json, its 300 loops, 3 % below at most"
done_testing
