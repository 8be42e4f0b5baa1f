#!/bin/bash
# Command-level tests (no root): what disturbed a run travels with its numbers.
# On the recorded tests/data/results/disturbed (another rtmeasure on its CPUs,
# stopped by SIGINT after 10.0 s of 60 s, 2.0% of its periods missed, a KVM
# guest): the report's banner above the tables, compare's warnings per side and
# its qualified verdicts (text, JSON, HTML, Markdown), export (CSV comments, the
# cyclictest layout's key), the Prometheus gauge. Then the monitor (--no-rt):
# its line and its /metrics gauge while another rtmeasure measures its CPUs,
# --once stopped by SIGINT, and -o stopped by SIGINT (the signal in result.json).
. "$RTM_SRCDIR/tests/lib.sh"
measure_lock "$@"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
d="$RTM_TESTDATA/results/disturbed"
alone="$RTM_TESTDATA/compare/vm-cpuload"
tmp=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill -9 $holder 2>/dev/null; rm -rf "$tmp"' EXIT

shared="another rtmeasure measured CPUs 0-1 during this run (pid 4242): its probes disturb these numbers"
stopped="interrupted after 10.0 s of 60 s asked, stopped by SIGINT: the figures cover only the time measured"
missed="missed 2.0% of its periods (410 of 20385, more than 1%)"

# --- report.md and report.html: the banner opens the page, before any table
if command -v gnuplot >/dev/null; then
	run_cmd report "$d" -o "$tmp/r"
	ok $rc "report of the disturbed run exits 0 ($err)"
	md=$(sed '/^| CPU |/q' "$tmp/r/report.md")
	echo "$md" | grep -qxF "> **Warning:** $shared." &&
		echo "$md" | grep -qxF "> **Warning:** $stopped." &&
		echo "$md" | grep -qF "> **Warning:** ${missed}" &&
		echo "$md" | grep -qF "> **Warning:** ran under a hypervisor (KVM): "
	ok $? "report.md: a warning each, above the summary table"
	sed -n 3p "$tmp/r/report.md" | grep -qF "10.0 s of 60 s asked, stopped by SIGINT"
	ok $? "report.md: the measured duration, not a rounded one"
	html=$(sed '/<table>/q' "$tmp/r/report.html")
	echo "$html" | grep -qF "<p class=\"warn\" id=\"warning-shared_cpus\">Warning: $shared.</p>" &&
		echo "$html" | grep -qF "id=\"warning-interrupted\">Warning: $stopped.</p>" &&
		echo "$html" | grep -qF "id=\"warning-missed_periods\">Warning: $missed" &&
		echo "$html" | grep -qF 'id="warning-hypervisor">'
	ok $? "report.html: a warning each, above the first table"
else
	ok 0 "# SKIP gnuplot not installed: report"
fi

# --- compare: warnings per side, the verdicts say the side shared its CPUs
run_cmd compare "$d" "$alone"
ok $rc "compare exits 0 ($err)"
echo "$out" | grep -qxF "warning: disturbed: $shared" &&
	echo "$out" | grep -qxF "warning: disturbed: $stopped" &&
	echo "$out" | grep -qF "warning: disturbed: $missed"
ok $? "compare: the disturbed side's warnings, named after it"
[ "$(echo "$out" | grep -c '^warning: vm-cpuload: ')" = 0 ]
ok $? "compare: none for the other side"
echo "$out" | grep -q "^duration  *10.0 s of 60 s asked, stopp"
ok $? "compare: the duration row says what was measured of what was asked"
v=$(echo "$out" | grep "^  vm-cpuload's \(per-interval \)\?p99 \(.*\) \?is ")
echo "$v" | grep -q "; but disturbed shared its CPUs with another measuring rtmeasure (warning shared_cpus): the verdict may be about that disturbance, not the set-ups$"
ok $? "compare: the p99 verdict is qualified ($v)"
run_cmd compare --json "$d" "$alone"
echo "$out" | jq -e '(.runs[0].warnings | map(.id)) ==
		["shared_cpus", "interrupted", "missed_periods", "hypervisor"] and
	(.runs[1].warnings | map(.id)) == ["hypervisor"] and
	(.warnings | map(.id) | index("shared_cpus")) != null and
	.comparisons[0].shared_cpus == ["disturbed"] and
	(.comparisons[0].verdicts[0].text | test("but disturbed shared its CPUs"))' >/dev/null
ok $? "compare --json: runs[].warnings per side, comparisons[].shared_cpus, the verdict's text"
if command -v gnuplot >/dev/null; then
	run_cmd compare -o "$tmp/c" "$d" "$alone"
	grep -qF "Warning: disturbed: $shared" "$tmp/c/compare.html" &&
		grep -qF "but disturbed shared its CPUs" "$tmp/c/compare.html" &&
		grep -qF "**Warning:** disturbed: another rtmeasure measured CPUs 0-1" "$tmp/c/compare.md" &&
		grep -qF "but disturbed shared its CPUs" "$tmp/c/compare.md"
	ok $? "compare.html and compare.md: the side's warnings and the qualified verdict"
else
	ok 0 "# SKIP gnuplot not installed: compare pages"
fi

# --- export: comment lines before the CSV header, a key of its own in the JSON
run_cmd export --csv "$d"
[ "$(echo "$out" | head -4 | cut -d: -f1)" = "# warning shared_cpus
# warning interrupted
# warning missed_periods
# warning hypervisor" ] && [ "$(echo "$out" | sed -n 5p)" = "cpu,lo_ns,hi_ns,count" ]
ok $? "export --csv: a comment line per warning, then the header"
run_cmd export --cyclictest-json "$d"
echo "$out" | jq -e '(.rtmeasure_warnings | map(.id)) ==
	["shared_cpus", "interrupted", "missed_periods", "hypervisor"] and
	.rtmeasure_warnings[0].message == "'"$shared"'" and .thread["0"].histogram' >/dev/null
ok $? "export --cyclictest-json: rtmeasure_warnings beside rt-tests' keys"
run_cmd export --prometheus "$d"
echo "$out" | grep -q '^rtmeasure_run_disturbed{probe="timer",.*,reason="shared_cpus"} 1$' &&
	echo "$out" | grep -q '^rtmeasure_run_disturbed{.*,reason="interrupted"} 1$' &&
	echo "$out" | grep -q '^rtmeasure_run_disturbed{.*,reason="emulated"} 0$'
ok $? "export --prometheus: rtmeasure_run_disturbed{reason=...}"
run_cmd export --prometheus "$RTM_TESTDATA/compare/vm-cpuload"
echo "$out" | grep -q '^rtmeasure_run_disturbed{.*,reason="shared_cpus"} 0$'
ok $? "export --prometheus of a run measured alone: shared_cpus 0"

# --- the monitor: a line while another rtmeasure measures its CPUs (private lock folder)
export RTMEASURE_LOCK_DIR="$tmp/locks"
"$RTMEASURE" cyclic --no-rt -a 0 -q -o "$tmp/h" >/dev/null 2>&1 &
holder=$!
for i in $(seq 3000); do	# a bound, not a measurement: until it holds CPU 0's lock
	[ "$(cut -d' ' -f1 "$RTMEASURE_LOCK_DIR/cpu0.lock" 2>/dev/null)" = "$holder" ] && break
	sleep 0.1
done
run_cmd monitor --no-rt --once -a 0 --refresh 300ms
echo "$out" | grep -qxF "warning: another rtmeasure measures CPU 0 too (pid $holder): its probes disturb these numbers"
ok $? "monitor --once: the line of another rtmeasure on its CPU ($err)"
# the monitor's own /metrics page says so too, as cyclic's live page does
if command -v curl >/dev/null; then
	"$RTMEASURE" monitor --no-rt --once -a 0 --refresh 3s --prometheus 0 >"$tmp/mp.out" \
		2>"$tmp/mp.err" &
	mpid=$!
	port= page=
	for i in $(seq 100); do	# bounds, not measurements: until it says its port, then the gauge
		port=$(sed -n 's/.*metrics for Prometheus at port \([0-9]*\),.*/\1/p' "$tmp/mp.err")
		[ -n "$port" ] && break
		sleep 0.1
	done
	for i in $(seq 25); do
		[ -n "$port" ] || break
		page=$(curl -s --max-time 2 "http://127.0.0.1:$port/metrics")
		echo "$page" | grep -q '^rtmeasure_run_disturbed{' && break
		sleep 0.1
	done
	wait $mpid
	echo "$page" | grep -q '^rtmeasure_run_disturbed{probe="timer",.*,reason="shared_cpus"} 1$' &&
		echo "$page" | grep -q '^rtmeasure_run_disturbed{.*,reason="hypervisor"} [01]$' &&
		! echo "$page" | grep -q '^rtmeasure_run_disturbed{.*,reason="interrupted"}'
	ok $? "monitor --prometheus: rtmeasure_run_disturbed{reason=\"shared_cpus\"} 1 on its live page (port '$port')"
else
	ok 0 "# SKIP curl not installed: the monitor's /metrics page"
fi
kill -INT $holder
wait $holder
holder=
jq -e '.sections.shared_cpus.cpus == "0"' "$tmp/h/result.json" >/dev/null
ok $? "the cyclic run beside it recorded sections.shared_cpus"
unset RTMEASURE_LOCK_DIR

# --- monitor --once stopped by SIGINT before its refresh: says so, with the time measured
"$RTMEASURE" monitor --no-rt --once -a 0 --refresh 60s >"$tmp/m.out" 2>"$tmp/m.err" &
m=$!
wait_probes $m
kill -INT $m
wait $m
grep -q '^warning: interrupted after [0-9]*\.[0-9] s of 60 s asked, stopped by SIGINT: the figures cover only the time measured$' "$tmp/m.out" &&
	grep -q '^CPU  *cur ' "$tmp/m.out"
ok $? "monitor --once stopped by SIGINT: the table so far and why ($(head -c 300 "$tmp/m.out"))"

# --- a monitor -o stopped by SIGINT before its -D: result.json says so, as cyclic's does
"$RTMEASURE" monitor --no-rt -a 0 -D 60s -o "$tmp/mi" </dev/null >"$tmp/mi.out" 2>"$tmp/mi.err" &
m=$!
wait_probes $m
kill -INT $m
wait $m
jq -e '.interrupted and .stop_signal == "SIGINT"' "$tmp/mi/result.json" >/dev/null
ok $? "monitor -o stopped by SIGINT: interrupted and stop_signal in result.json ($(jq -c '{interrupted, stop_signal}' "$tmp/mi/result.json" 2>&1))"
run_cmd export --csv "$tmp/mi"
echo "$out" | grep -q '^# warning interrupted: interrupted after [0-9]*\.[0-9] s of 60 s asked, stopped by SIGINT: '
ok $? "... and its export carries the interrupted warning"

done_testing
