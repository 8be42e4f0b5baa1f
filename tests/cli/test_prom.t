#!/bin/bash
# Command-level tests of the Prometheus options: bad values are refused at
# once with one line (exit 2), before anything is measured; export writes
# pages that promtool accepts (when installed).
. "$RTM_SRCDIR/tests/lib.sh"
measure_lock "$@"

R="$RTM_TESTDATA/results/vm-6.18-load"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

expect_usage_error "--prometheus with a word as port" cyclic --prometheus abc -D 1s
expect_usage_error "--prometheus with a port above 65535" cyclic --prometheus 70000 -D 1s
expect_usage_error "--prometheus with a host name (numeric only)" cyclic --prometheus localhost:9101 -D 1s
expect_usage_error "noise --prometheus with a word as port" noise --prometheus abc -D 1s
expect_usage_error "hwlat --prometheus with a port above 65535" hwlat --prometheus 70000 -D 1s
expect_usage_error "--prometheus-textfile without .prom" export --prometheus-textfile "$t/x.txt" "$R"
expect_usage_error "--push with a non-HTTP URL" export --push ftp://gw "$R"
expect_usage_error "--push and -o together" export --push http://127.0.0.1:9 -o "$t/x" "$R"
expect_usage_error "--job without --push" export --prometheus --job x "$R"
expect_usage_error "two formats" export --prometheus --csv "$R"

run_cmd export --push http://127.0.0.1:9 --instance lab1 "$R"
[ "$rc" -eq 2 ] && echo "$err" | grep -q "cannot push to http://127.0.0.1:9/metrics/job/rtmeasure/instance/lab1"
ok $? "an unreachable Pushgateway: exit 2 naming the URL"

run_cmd export --prometheus "$R"
ok $(( rc != 0 )) "export --prometheus exits 0"
echo "$out" | grep -q '^rtmeasure_wakeup_latency_seconds_count{cpu="0",.*} 19953$'
ok $? "CPU 0's sample count on the page"
echo "$out" | grep -q '^# TYPE rtmeasure_overruns_total counter$'
ok $? "counters typed with _total in text format 0.0.4"
if command -v promtool >/dev/null; then
	echo "$out" | promtool check metrics >/dev/null 2>&1
	ok $? "promtool check metrics accepts the page"
fi

run_cmd export --openmetrics "$R"
[ "$rc" -eq 0 ] && [ "$(echo "$out" | tail -n1)" = "# EOF" ]
ok $? "export --openmetrics ends with # EOF"

run_cmd export --prometheus-textfile "$t/rtmeasure.prom" "$R"
[ "$rc" -eq 0 ] && grep -q '^rtmeasure_build_info{' "$t/rtmeasure.prom"
ok $? "--prometheus-textfile writes the page"
[ -z "$(ls "$t" | grep -v '^rtmeasure.prom$')" ]
ok $? "no temporary file left beside it"

# a noise result (rtmeasure noise): its noise series, and refusals where a format cannot
# carry noise (never an empty file with exit 0)
N="$RTM_TESTDATA/results/vm-6.18-noise"
run_cmd export --prometheus "$N"
gaps0=$(jq '.sections.noise.cpus[] | select(.cpu == 0) | .gaps' "$N/result.json")
[ "$rc" -eq 0 ] && echo "$out" | grep -q "^rtmeasure_noise_gaps_total{cpu=\"0\",probe=\"noise\",.*} $gaps0\$"
ok $? "export --prometheus of a noise result: CPU 0's gaps_total is result.json's ($gaps0)"
echo "$out" | grep -q '^rtmeasure_noise_gap_seconds_bucket{cpu="1",.*le="+Inf"}' &&
	! echo "$out" | grep -q wakeup_latency
ok $? "the gap histogram per CPU, no wake-up series"
if command -v promtool >/dev/null; then
	echo "$out" | promtool check metrics >/dev/null 2>&1
	ok $? "promtool check metrics accepts the noise page"
fi
run_cmd export --openmetrics "$N"
[ "$rc" -eq 0 ] && [ "$(echo "$out" | tail -n1)" = "# EOF" ] &&
	echo "$out" | grep -q '^# UNIT rtmeasure_noise_gap_seconds seconds$'
ok $? "export --openmetrics of a noise result: units, # EOF"
run_cmd export --prometheus-textfile "$t/noise.prom" "$N"
[ "$rc" -eq 0 ] && grep -q '^rtmeasure_noise_seconds_total{cpu="1",' "$t/noise.prom"
ok $? "--prometheus-textfile writes the noise page"
rm -f "$t/noise.prom"
# --csv of a noise result: its gap-length histogram; every gap counted once per CPU
run_cmd export --csv "$N"
out=$(echo "$out" | grep -v '^# warning ')	# what disturbed the run: checked below
[ "$rc" -eq 0 ] && [ "$(echo "$out" | head -n1)" = "cpu,gap_lo_ns,gap_hi_ns,count" ] &&
	[ "$(echo "$out" | awk -F, 'NR > 1 { s[$1] += $4; if ($2 > $3) bad = 1 }
		END { if (!bad) for (c in s) print c, s[c] }' | sort)" = \
	  "$(jq -r '.sections.noise.cpus[] | "\(.cpu) \(.gaps)"' "$N/result.json" | sort)" ]
ok $? "export --csv of a noise result: the gap histogram, adding up to each CPU's gaps"
# --csv-gaps: result.json's gap list, line for line, and what it leaves out said
run_cmd export --csv-gaps "$N"
out=$(echo "$out" | grep -v '^# warning ')
[ "$rc" -eq 0 ] && [ "$(echo "$out" | head -n1)" = "cpu,start_ns,length_ns" ] &&
	[ "$(echo "$out" | tail -n +2)" = \
	  "$(jq -r '.sections.noise.cpus[] | .cpu as $c | .gap_list[] | "\($c),\(.[0]),\(.[1])"' \
		"$N/result.json")" ] &&
	echo "$err" | grep -q "warning: $(jq '[.sections.noise.cpus[].gaps_dropped] | add' \
		"$N/result.json") gaps were counted beyond result.json's gap list"
ok $? "export --csv-gaps: the gap list as CSV, the gaps beyond it counted in a warning"
# run --noise's phase is the same section: its gaps export as a noise run's do
RN="$RTM_TESTDATA/compare/noise-a1"
run_cmd export --csv-gaps "$RN"
out=$(echo "$out" | grep -v '^# warning ')	# what disturbed the run, as comment lines
[ "$rc" -eq 0 ] && [ "$(echo "$out" | head -n1)" = "cpu,start_ns,length_ns" ] &&
	[ "$(echo "$out" | tail -n +2)" = \
	  "$(jq -r '.sections.noise.cpus[] | .cpu as $c | .gap_list[] | "\($c),\(.[0]),\(.[1])"' \
		"$RN/result.json")" ] && [ "$(echo "$out" | wc -l)" -gt 1 ]
ok $? "export --csv-gaps of a run --noise result: its noise phase's gap list ($err)"
expect_usage_error "export --csv-gaps of a latency result" export --csv-gaps "$R"
echo "$err" | grep -q "holds no noise result"
ok $? "the --csv-gaps refusal names the latency result"
mkdir "$t/badgap"
jq '.sections.noise.cpus[0].gap_list[3] = [5]' "$N/result.json" >"$t/badgap/result.json"
expect_usage_error "export --csv-gaps of a malformed gap list" export --csv-gaps "$t/badgap"
echo "$err" | grep -q "gap_list entry 3 is not \[start_ns, length_ns\]"
ok $? "the malformed gap list is named"
expect_usage_error "export --cyclictest-json of a noise result" export --cyclictest-json -o "$t/ct.json" "$N"
[ ! -e "$t/ct.json" ]
ok $? "no file written for the refused export"
if command -v gnuplot >/dev/null; then	# no longer refused: its own pages (test_report.t)
	run_cmd report -o "$t/rep" "$N"
	[ "$rc" = 0 ] && [ -s "$t/rep/report.html" ] && ! echo "$err" | grep -q "holds a noise result"
	ok $? "report of a noise result: report.html, not a refusal ($err)"
fi
expect_usage_error "compare of a noise result" compare "$N" "$R"
echo "$err" | grep -q "vm-6.18-noise a noise one"
ok $? "compare says which input is a noise result (mixed kinds are refused)"

# a result of rtmeasure wakeup: the box's own tasks' waits, wake-up to switch-in, under
# names that say so (not the probe's wake-up latency), and at most 20 tasks with
# their own series (comm, pid, tgid labels)
W="$RTM_TESTDATA/results/vm-6.18-wakeup"
run_cmd export --prometheus "$W"
n0=$(jq '.cpus[] | select(.cpu == 0) | .hist.count' "$W/result.json")
[ "$rc" -eq 0 ] && echo "$out" | grep -q "^rtmeasure_task_wakeup_latency_seconds_count{cpu=\"0\",probe=\"wakeup\",.*} $n0\$"
ok $? "export --prometheus of a wakeup result: rtmeasure_task_wakeup_latency_seconds, CPU 0's $n0 waits, probe=\"wakeup\""
! echo "$out" | grep -q 'probe="timer"' && ! echo "$out" | grep -q '^rtmeasure_wakeup_latency' &&
	! echo "$out" | grep -q '^rtmeasure_overruns'
ok $? "no series of the timer probe (its name, its label, its overruns)"
comm=$(jq -r '.sections.wakeup.tasks[0] | "comm=\"\(.comm)\",pid=\"\(.pid)\",tgid=\"\(.tgid)\""' "$W/result.json")
max=$(jq -r '.sections.wakeup.tasks[0].max_ns' "$W/result.json")
sec=$(awk -v n="$max" 'BEGIN { printf "%.9f", n / 1e9 }' | sed 's/0*$//')
echo "$out" | grep '^rtmeasure_task_wakeup_per_task_max_seconds{' | grep -qF "$comm} $sec"
ok $? "the longest-waiting task's max ($max ns) labelled $comm"
[ "$(echo "$out" | grep -c '^rtmeasure_task_wakeup_per_task_wakeups_total{')" -eq \
  "$(jq '.sections.wakeup.tasks | length' "$W/result.json")" ]
ok $? "one per-task series a task of sections.wakeup.tasks"
echo "$out" | grep -q "^rtmeasure_task_wakeups_above_total{.*} $(jq .sections.wakeup.above "$W/result.json")\$"
ok $? "the waits over --above, all CPUs"
if command -v promtool >/dev/null; then
	echo "$out" | promtool check metrics >/dev/null 2>&1
	ok $? "promtool check metrics accepts the wakeup page"
fi
# more tasks than the bound: 20 series, the longest waits
jq '.sections.wakeup.tasks = [range(30) as $i | .sections.wakeup.tasks[0] | .pid = 1000 + $i | .max_ns = 1000 * (30 - $i)]' \
	"$W/result.json" >"$t/many.json"
run_cmd export --prometheus "$t/many.json"
[ "$rc" -eq 0 ] && [ "$(echo "$out" | grep -c '^rtmeasure_task_wakeup_per_task_max_seconds{')" -eq 20 ] &&
	echo "$out" | grep -q 'pid="1019"' && ! echo "$out" | grep -q 'pid="1020"'
ok $? "at most 20 tasks get series, the longest waits"
run_cmd export --openmetrics "$W"
[ "$rc" -eq 0 ] && [ "$(echo "$out" | tail -n1)" = "# EOF" ] &&
	echo "$out" | grep -q '^# UNIT rtmeasure_task_wakeup_latency_seconds seconds$'
ok $? "export --openmetrics of a wakeup result"
run_cmd export --prometheus-textfile "$t/wakeup.prom" "$W"
[ "$rc" -eq 0 ] && grep -q '^rtmeasure_task_wakeup_latency_seconds_bucket{cpu="1",' "$t/wakeup.prom"
ok $? "--prometheus-textfile of a wakeup result"
rm -f "$t/wakeup.prom" "$t/many.json"

# monitor serves the same page while its dashboard runs (--no-rt: no root needed)
"$RTMEASURE" monitor --no-rt --once --refresh 2s --prometheus 0 >"$t/mon.out" 2>"$t/mon.err" &
mpid=$!
port=
for _ in $(seq 50); do
	port=$(sed -n 's/.*metrics for Prometheus at port \([0-9]*\),.*/\1/p' "$t/mon.err")
	[ -n "$port" ] && break
	sleep 0.1
done
page=
# the page is empty until the first figures are published: ask again for a while
for _ in $(seq 15); do
	[ -n "$port" ] || break
	page=$(curl -s --max-time 2 "http://127.0.0.1:$port/metrics")
	echo "$page" | grep -q '^rtmeasure_wakeup_latency_seconds_count' && break
	sleep 0.1
done
wait "$mpid"
mrc=$?
echo "$page" | grep -q '^rtmeasure_wakeup_latency_seconds_count{cpu="0",'
ok $? "monitor --prometheus 0 announces its port and serves /metrics (port '$port')"
ok $mrc "monitor --once exits 0 with the server on"
# every CPU measured (monitor's default): the start line says where the server runs, at what cost
grep -Eq "no CPU is free of probes: the server runs on the measured CPUs [0-9].* about [0-9]+ us of CPU to format its [0-9]+-byte page" "$t/mon.err"
ok $? "with every CPU measured, the start line names the server's CPUs and a scrape's cost ($(head -c 300 "$t/mon.err"))"

# wakeup and io: a bad --prometheus is refused by name before anything loads or is made
run_cmd wakeup --prometheus abc -D 1s -o "$t/wk"
[ "$rc" -eq 2 ] && [ "$(echo "$err" | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q "wakeup: --prometheus: 'abc' is not a port" && [ ! -e "$t/wk" ]
ok $? "wakeup --prometheus abc: exit 2, one line naming the port ($err)"
run_cmd io --no-rt --prometheus 70000 -D 1s -o "$t/io"
[ "$rc" -eq 2 ] && [ "$(echo "$err" | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q "io: --prometheus: '70000' is not a port" && [ ! -e "$t/io" ]
ok $? "io --prometheus 70000: exit 2, one line naming the port ($err)"
# a port in use (held by a cyclic run's server): refused before the results folder is made
"$RTMEASURE" cyclic --no-rt -a 0 -q -D 60s --prometheus 0 -o "$t/hold" >/dev/null \
	2>"$t/hold.err" &
hpid=$!
hport=
for i in $(seq 100); do	# a bound, not a measurement: until it says its port
	hport=$(sed -n 's/.*metrics for Prometheus at port \([0-9]*\),.*/\1/p' "$t/hold.err")
	[ -n "$hport" ] && break
	sleep 0.1
done
run_cmd io --no-rt --prometheus "$hport" -D 1s -o "$t/io2"
[ -n "$hport" ] && [ "$rc" -eq 2 ] && [ "$(echo "$err" | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q "io: --prometheus $hport: cannot listen there" && [ ! -e "$t/io2" ]
ok $? "io --prometheus on a port in use: exit 2, one line, no results folder ($err)"
if grep -q '^#define RTM_HAVE_BPF 1' "$RTM_BUILDDIR/config.h"; then
	run_cmd wakeup --prometheus "$hport" -D 1s -o "$t/wk2"
	[ -n "$hport" ] && [ "$rc" -eq 2 ] && [ "$(echo "$err" | grep -c .)" -eq 1 ] &&
		echo "$err" | grep -q "wakeup: --prometheus $hport: cannot listen there" &&
		[ ! -e "$t/wk2" ]
	ok $? "wakeup --prometheus on a port in use: exit 2, one line, no results folder ($err)"
fi
kill -INT $hpid
wait $hpid

done_testing
