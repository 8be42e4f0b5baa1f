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
[ -n "$port" ] && page=$(curl -s --max-time 2 "http://127.0.0.1:$port/metrics")
wait "$mpid"
mrc=$?
echo "$page" | grep -q '^rtmeasure_wakeup_latency_seconds_count{cpu="0",'
ok $? "monitor --prometheus 0 announces its port and serves /metrics (port '$port')"
ok $mrc "monitor --once exits 0 with the server on"

done_testing
