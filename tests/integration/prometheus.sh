#!/bin/bash
# Integration: rtmeasure and the Prometheus stack, all real, on loopback.
# A cyclic run serves /metrics (promtool checks it); a Prometheus server
# scrapes it every second (OpenMetrics, which it asks for) and its
# histogram_quantile(0.99) lies in the bucket of rtmeasure's own p99; bad
# clients (idle half-sent requests, a 100 KB header, many connections) change
# neither the periods measured nor the process's memory; the finished result
# goes to node_exporter's textfile collector and to a Pushgateway; promtool
# checks the shipped scrape configuration and alerting rules.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"
for p in prometheus promtool prometheus-node-exporter prometheus-pushgateway curl; do
	command -v "$p" >/dev/null ||
		skip "$p not installed (scripts/setup installs the Prometheus packages)"
done

t=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT

# a loopback port nothing listens on
free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 20000))
		(echo >/dev/tcp/127.0.0.1/$p) 2>/dev/null || { echo "$p"; return; }
	done
	fail "no free loopback port found"
}

# wait_http URL: up to 15 s for an answer
wait_http() {
	for _ in $(seq 150); do
		curl -sf -o /dev/null "$1" && return 0
		sleep 0.1
	done
	return 1
}

# ---------------------------------------------------------------- Prometheus server
port=$(free_port)
pport=$(free_port)
cat >"$t/prom.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: rtmeasure
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
prometheus --config.file="$t/prom.yml" --storage.tsdb.path="$t/tsdb" \
	--web.listen-address=127.0.0.1:$pport >"$t/prometheus.log" 2>&1 &
pids+=("$!")
wait_http "http://127.0.0.1:$pport/-/ready" || fail "Prometheus did not start: $(tail -3 "$t/prometheus.log")"

# ---------------------------------------------------------------- live /metrics
dur=60	# ended by SIGINT once the checks are done
"$RTMEASURE" cyclic -D ${dur}s -i 1000us --prometheus "$port" -o "$t/r" >"$t/run.out" 2>"$t/run.err" &
rpid=$!
pids+=("$rpid")
url=http://127.0.0.1:$port/metrics
wait_http "$url" || fail "rtmeasure's /metrics does not answer: $(cat "$t/run.err")"
grep -q "metrics for Prometheus at port $port," "$t/run.err" || fail "the port is not announced"
sleep 1.5	# past the first interval boundary
curl -sf "$url" >"$t/page.txt" || fail "GET /metrics failed"
promtool check metrics <"$t/page.txt" >"$t/promtool.out" 2>&1 ||
	fail "promtool check metrics: $(head -3 "$t/promtool.out")"
grep -q '^rtmeasure_wakeup_latency_seconds_bucket{cpu="0",.*le="+Inf"}' "$t/page.txt" ||
	fail "no histogram for CPU 0"
ctype=$(curl -sf -o "$t/page.om" -w '%{content_type}' \
	-H 'Accept: application/openmetrics-text; version=1.0.0' "$url")
case "$ctype" in application/openmetrics-text*) ;; *) fail "OpenMetrics asked, got $ctype" ;; esac
[ "$(tail -n1 "$t/page.om")" = "# EOF" ] || fail "OpenMetrics page does not end with # EOF"
grep -q '^rtmeasure_overruns_created{' "$t/page.om" || fail "OpenMetrics counters lack _created"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")" = 404 ] ||
	fail "/ is not 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x "$url")" = 405 ] ||
	fail "POST is not 405"
echo "ok: /metrics passes promtool; OpenMetrics by Accept; 404/405 elsewhere"

# bad clients while it measures (bounded: 5 s, then they stop by themselves)
rss0=$(awk '/^VmRSS/ { print $2 }' /proc/$rpid/status)
for i in $(seq 40); do
	( exec 3<>/dev/tcp/127.0.0.1/$port && printf 'GET /metr' >&3 && sleep 5 ) 2>/dev/null &
done
big=$(head -c 100000 /dev/zero | tr '\0' a)
for i in $(seq 5); do
	code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $big" "$url")
	case "$code" in 200) fail "a 100 KB header was served" ;; esac
done
for i in $(seq 30); do curl -s -o /dev/null --max-time 2 "$url" & done
wait_http "$url" || fail "/metrics stopped answering under bad clients"
sleep 5
kill -0 "$rpid" 2>/dev/null || fail "rtmeasure ended during the bad clients: $(tail -2 "$t/run.err")"
rss1=$(awk '/^VmRSS/ { print $2 }' /proc/$rpid/status)
[ $((rss1 - rss0)) -lt 4096 ] || fail "memory grew ${rss0} -> ${rss1} kB under bad clients"
echo "ok: bad clients: 40 half-sent, 5 x 100 KB headers, 30 at once; RSS ${rss0} -> ${rss1} kB"

# slow clients: 16 connections trickling one header byte a second (each one
# reopened when the server ends it) hold every slot for 12 s; scrapes made
# meanwhile must all be answered, and no slow request lives past its deadline
slow_end=$(($(date +%s) + 12))
slow() {
	while [ "$(date +%s)" -lt $slow_end ]; do
		exec 3<>/dev/tcp/127.0.0.1/$port || { sleep 0.2; continue; }
		printf 'G' >&3 || continue
		while [ "$(date +%s)" -lt $slow_end ] && printf 'X' >&3 2>/dev/null; do
			sleep 1
		done
		exec 3>&-
	done
}
for i in $(seq 16); do slow 2>/dev/null & done
sleep 3	# the slow ones hold the slots
answered=0
for i in $(seq 8); do
	code=$(curl -s -o /dev/null --max-time 3 -w '%{http_code}' "$url")
	[ "$code" = 200 ] && answered=$((answered + 1))
	sleep 0.5
done
[ $answered -eq 8 ] || fail "$answered of 8 scrapes answered while 16 slow clients held connections"
echo "ok: 8 of 8 scrapes answered while 16 slow clients trickled headers"
while [ "$(date +%s)" -le $slow_end ]; do sleep 0.5; done
sleep 1
# one slow request alone: ended by the server (its 5 s deadline), not kept for 20 s
exec 4<>/dev/tcp/127.0.0.1/$port || fail "cannot connect to /metrics"
printf 'G' >&4
closed=""
for i in $(seq 20); do
	printf 'X' >&4 2>/dev/null || { closed=$i; break; }
	read -r -t 1 -u 4 _
	[ $? -eq 1 ] && { closed=$i; break; }	# end of stream: the server closed it
done
exec 4>&-
[ -n "$closed" ] || fail "a request trickled for 20 s was never ended"
echo "ok: a trickled request ended by the server after about $closed s"

q() {	# q PROMQL TIME: the first value
	curl -sf -G "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" \
		--data-urlencode "time=$2" | jq -r '.data.result[0].value[1] // empty'
}
now=$(date +%s)
[ "$(q 'up{job="rtmeasure"}' "$now")" = 1 ] || fail "Prometheus does not see rtmeasure up"
[ "$(q 'count(rtmeasure_irq_interrupts_total{irq="LOC"})' "$now")" = "$(getconf _NPROCESSORS_ONLN)" ] ||
	fail "no live LOC interrupt counter per CPU"
hq=$(q 'histogram_quantile(0.99, rtmeasure_wakeup_latency_seconds_bucket{cpu="0"})' "$now")
own=$(q 'rtmeasure_wakeup_latency_percentile_seconds{cpu="0",percentile="99",window="run"}' "$now")
[ -n "$hq" ] && [ -n "$own" ] || fail "queries returned nothing (hq '$hq', own '$own')"
# the bucket of the page that holds Prometheus' estimate: its bounds
edges=$(grep '^rtmeasure_wakeup_latency_seconds_bucket{cpu="0"' "$t/page.txt" |
	sed -n 's/.*le="\([0-9.e+-]*\)".*/\1/p')
awk -v hq="$hq" -v own="$own" -v e="$(echo $edges)" 'BEGIN {
	n = split(e, le, " "); lo = 0; hi = -1
	for (i = 1; i <= n; i++) if (hq + 0 <= le[i] + 0) { hi = le[i]; break } else lo = le[i]
	if (hi < 0) { print "estimate above the last bound"; exit 1 }
	# nearest-rank p99 may sit half a log-linear bucket (1/512) past a bound
	ok = own + 0 >= lo * (1 - 1 / 256) && own + 0 <= hi * (1 + 1 / 256)
	printf "histogram_quantile(0.99) %s s, rtmeasure p99 %s s, bucket (%s, %s]\n", hq, own, lo, hi
	exit !ok }' || fail "Prometheus' p99 and rtmeasure's are not in one bucket"
echo "ok: Prometheus scraped rtmeasure; histogram_quantile(0.99) in rtmeasure's p99 bucket"

kill -INT "$rpid"
wait "$rpid"
rc=$?
# an interrupted run saves what it measured (exit 0, or 130 where interruption has its status)
[ "$rc" = 0 ] || [ "$rc" = 130 ] || fail "the run exited $rc after SIGINT"
facts=$("$RTM_BUILDDIR/tests/helpers/result_check" "$t/r") || fail "result.json: $facts"
planned=$(($(jq .duration_ns "$t/r/result.json") / 1000000))
while read -r line; do
	case "$line" in cpu=*) ;; *) continue ;; esac
	eval "$(echo "$line" | tr ' ' '\n' | sed 's/^/f_/')"
	total=$((f_count + f_overruns))
	[ "$total" -ge $((planned * 98 / 100)) ] && [ "$total" -le $((planned * 105 / 100)) ] ||
		fail "cpu $f_cpu: $f_count samples + $f_overruns overruns, want $planned +- 2%"
done <<<"$facts"
echo "ok: every period measured on every CPU despite scrapes and bad clients"

# ---------------------------------------------------------------- node_exporter textfile
mkdir "$t/textfile"
"$RTMEASURE" export --prometheus-textfile "$t/textfile/rtmeasure.prom" "$t/r" ||
	fail "export --prometheus-textfile exited $?"
nport=$(free_port)
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$t/textfile" --web.listen-address=127.0.0.1:$nport \
	>"$t/node.log" 2>&1 &
pids+=("$!")
wait_http "http://127.0.0.1:$nport/metrics" || fail "node_exporter did not start"
curl -sf "http://127.0.0.1:$nport/metrics" >"$t/node.txt"
grep -q '^node_textfile_scrape_error 0' "$t/node.txt" || fail "node_exporter could not read the textfile"
want=$(jq '.cpus[0].hist.count' "$t/r/result.json")
grep -q "^rtmeasure_wakeup_latency_seconds_count{cpu=\"0\",.*} $want\$" "$t/node.txt" ||
	fail "node_exporter does not show CPU 0's $want samples"
echo "ok: node_exporter serves the textfile ($want samples on CPU 0)"

# ---------------------------------------------------------------- Pushgateway
gport=$(free_port)
prometheus-pushgateway --web.listen-address=127.0.0.1:$gport >"$t/gw.log" 2>&1 &
pids+=("$!")
wait_http "http://127.0.0.1:$gport/metrics" || fail "Pushgateway did not start"
"$RTMEASURE" export --push "http://127.0.0.1:$gport" --instance lab1 "$t/r" ||
	fail "export --push exited $?"
curl -sf "http://127.0.0.1:$gport/metrics" >"$t/gw.txt"
grep -q "^rtmeasure_wakeup_latency_seconds_count{.*cpu=\"0\".*instance=\"lab1\",job=\"rtmeasure\".*} $want\$" \
	"$t/gw.txt" || fail "the Pushgateway does not hold the pushed count"
echo "ok: Pushgateway received the push (job rtmeasure, instance lab1)"

# ---------------------------------------------------------------- shipped configuration
promtool check rules "$RTM_SRCDIR/docs/prometheus/rtmeasure-rules.yml" >/dev/null ||
	fail "promtool check rules"
cp "$RTM_SRCDIR/docs/prometheus/"*.yml "$t/"
promtool check config "$t/prometheus.yml" >/dev/null || fail "promtool check config"
jq -e '.panels | length > 0' "$RTM_SRCDIR/docs/grafana/rtmeasure.json" >/dev/null ||
	fail "the Grafana dashboard is not JSON with panels"
echo "ok: scrape configuration, alerting rules and dashboard check"
exit 0
