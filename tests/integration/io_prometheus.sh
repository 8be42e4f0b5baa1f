#!/bin/bash
# Integration: rtmeasure io --prometheus serves /metrics while the storage probe
# runs, on a file it creates on a loop device (direct I/O to a small backing
# file, never the root disk), with the series and labels that export
# --prometheus of the saved result gives. Against a 1 us deadline every request
# misses, so each page, one consistent snapshot of the probe, must have per
# operation as many misses as requests, the same count in the latency, service
# and lateness histograms, and counts that never go down from one page to the
# next nor exceed the saved result's. The server's threads run on CPU 0, off the
# probe's CPU 1; after SIGINT (which saves what was measured) the port is
# closed. No timing is judged.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
command -v curl >/dev/null || skip "curl not installed"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs (the server off the probe's)"
measure_lock "$@"

w=$(mktemp -d /var/tmp/rtm-iop.XXXXXX)
loop= pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	loop_fs_off "$w"
	rm -rf "$w"
}
trap cleanup EXIT
loop_fs "$w" 64M
res=$w/mnt/r

"$RTMEASURE" io -a 1 -i 5ms --deadline 1us --no-causes --op randread,write --file-size 16m \
	--prometheus 0 -o "$res" >"$w/io.out" 2>"$w/io.err" &
pid=$!
port=
for _ in $(seq 100); do	# a bound, not a measurement
	port=$(sed -n 's/.*metrics for Prometheus at port \([0-9]*\),.*/\1/p' "$w/io.err")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || fail "no port announced: $(cat "$w/io.err")"
url=http://127.0.0.1:$port/metrics

bad=0 n=0
for d in /proc/$pid/task/*; do
	[ "${d##*/}" = "$pid" ] && continue
	case "$(cat "$d/comm")" in rtm-io*) continue ;; esac
	n=$((n + 1))
	[ "$(awk '/^Cpus_allowed_list/ { print $2 }' "$d/status")" = 0 ] || bad=$((bad + 1))
done
[ $n -ge 1 ] && [ $bad -eq 0 ]
ok $? "the server's $n threads run on CPU 0, off the probe's CPU 1"

# pages until four of them have figures (the first come after the probe's first second)
i=0 full=0
while [ $full -lt 4 ] && [ $i -lt 200 ]; do
	kill -0 $pid 2>/dev/null || fail "rtmeasure io ended: $(cat "$w/io.err")"
	curl -s --max-time 2 "$url" >"$w/page.$i" 2>/dev/null
	grep -q '^rtmeasure_io_latency_seconds_count{' "$w/page.$i" && full=$((full + 1))
	i=$((i + 1))
	sleep 0.3
done
[ $full -ge 4 ]
ok $? "$full pages with the storage series scraped during the run"
kill -INT $pid
wait $pid
rc=$?
pid=
[ $rc -eq 130 ]
ok $? "SIGINT: exit 130 ($rc), what was measured saved"
curl -s --max-time 2 -o /dev/null "$url"
[ $? -eq 7 ]
ok $? "after SIGINT nothing listens on port $port"
[ -s "$res/result.json" ] || fail "no result.json"
"$RTMEASURE" export --prometheus "$res" >"$w/final" || fail "export --prometheus exited $?"

# op count misses service lateness inf errors, one line per operation of a page
figures() {
	awk '
		function op(l) {
			match(l, /op="[a-z]+"/)
			return substr(l, RSTART + 4, RLENGTH - 5)
		}
		/^rtmeasure_io_latency_seconds_count\{/ { c[op($0)] = $NF }
		/^rtmeasure_io_misses_total\{/ { m[op($0)] = $NF }
		/^rtmeasure_io_service_seconds_count\{/ { s[op($0)] = $NF }
		/^rtmeasure_io_lateness_seconds_count\{/ { l[op($0)] = $NF }
		/^rtmeasure_io_latency_seconds_bucket\{.*le="\+Inf"/ { f[op($0)] = $NF }
		/^rtmeasure_io_errors_total\{/ { e[op($0)] = $NF }
		END { for (o in c) print o, c[o], m[o], s[o], l[o], f[o], e[o] }' "$1" | sort
}
figures "$w/final" >"$w/final.fig"
bad=0 prev=
for p in $(grep -l '^rtmeasure_io_latency_seconds_count{' "$w"/page.* | sort -V); do
	figures "$p" >"$w/fig"
	# one snapshot: every request a miss, in all three histograms, none failed
	awk '$2 != $3 || $2 != $4 || $2 != $5 || $2 != $6 || $7 != 0 || $2 == 0' "$w/fig" |
		grep -q . && { bad=$((bad + 1)); echo "# $p inconsistent: $(cat "$w/fig")"; }
	# never down from the page before, never above the saved result
	[ -n "$prev" ] && join "$w/fig" "$prev" | awk '$2 < $8' | grep -q . &&
		{ bad=$((bad + 1)); echo "# $p: a count below the page before's"; }
	join "$w/fig" "$w/final.fig" | awk '$2 > $8' | grep -q . &&
		{ bad=$((bad + 1)); echo "# $p: a count above the result's"; }
	[ "$(cut -d' ' -f1 "$w/fig")" = "$(cut -d' ' -f1 "$w/final.fig")" ] ||
		{ bad=$((bad + 1)); echo "# $p: operations $(cut -d' ' -f1 "$w/fig" | xargs)"; }
	cp "$w/fig" "$w/prev.fig"
	prev=$w/prev.fig
done
[ $bad -eq 0 ]
ok $? "every page: misses = requests in all three histograms per op, counts within the result's"
last=$(grep -l '^rtmeasure_io_latency_seconds_count{' "$w"/page.* | sort -V | tail -n1)
diff <(grep -v '^#' "$last" | sed 's/ [^ ]*$//') <(grep -v '^#' "$w/final" | sed 's/ [^ ]*$//') \
	>"$w/series.diff"
ok $? "the live page's series and labels are export's$(head -4 "$w/series.diff" | tr '\n' ' ')"
if command -v promtool >/dev/null; then
	promtool check metrics <"$last" >/dev/null 2>&1
	ok $? "promtool check metrics accepts a live io page"
fi
want=$(jq -r '.sections.io.ops | to_entries[] | "\(.key) \(.value.count)"' "$res/result.json" |
	sort)
[ "$(awk '{ print $1, $2 }' "$w/final.fig")" = "$want" ]
ok $? "export: each operation's count is result.json's"
done_testing
