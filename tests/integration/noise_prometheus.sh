#!/bin/bash
# Integration: rtmeasure noise --prometheus serves the noise series while it
# measures, and every scraped page is exactly a prefix of what result.json
# saves. A page holds one consistent snapshot per CPU (taken at an interval
# boundary, while the loop may be mid-window), so it is not the final figure;
# but the loop records gaps in time order into the gap list, so a page saying
# G gaps must show as noise the sum of the first G gaps of result.json's
# gap_list, as largest gap their maximum, and in each bucket the number of
# them at or below its bound. The exported page of the saved result gives the
# final gap counts exactly. promtool checks a live page; the OpenMetrics one
# ends with # EOF. With the gap causes (noise --trace, on by default as root
# where tracefs works) a live page has the time per cause laid so far: never
# more than the page's noise, never less than an earlier page's; the export of
# the result has them summing to the noise exactly.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
command -v curl >/dev/null || skip "curl not installed"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs (the server off the measured one)"
measure_lock "$@"

t=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$t"' EXIT

# CPU 1 measured, the server on CPU 0; port 0: any free one, printed
"$RTMEASURE" noise -a 1 -D 3s --prometheus 0 -q -o "$t/r" >"$t/out" 2>"$t/err" &
pid=$!
port=
for _ in $(seq 100); do
	port=$(sed -n 's/.*metrics for Prometheus at port \([0-9]*\),.*/\1/p' "$t/err")
	[ -n "$port" ] && break
	sleep 0.05
done
[ -n "$port" ] || fail "no port announced: $(cat "$t/err")"
grep -q "sharing the measured CPUs" "$t/err" && fail "the server shares the measured CPU"
i=0
while kill -0 $pid 2>/dev/null; do
	curl -s --max-time 1 "http://127.0.0.1:$port/metrics" >"$t/page.$i" 2>/dev/null
	[ $((i % 5)) -eq 2 ] && curl -s --max-time 1 -H 'Accept: application/openmetrics-text' \
		"http://127.0.0.1:$port/metrics" >"$t/om.$i" 2>/dev/null
	i=$((i + 1))
	sleep 0.1
done
wait $pid
rc=$?
pid=
ok $rc "rtmeasure noise --prometheus 0 -D 3s exits 0"
res="$t/r/result.json"
[ -s "$res" ] || fail "no result.json"
[ "$(jq '.sections.noise.cpus[0].gaps_dropped' "$res")" = 0 ] ||
	fail "gaps were dropped from the gap list: the prefix check needs them all"

pages=$(grep -l '^rtmeasure_noise_gaps_total{cpu="1",probe="noise",' "$t"/page.* | wc -l)
[ "$pages" -ge 1 ]
ok $? "pages with the noise series scraped during the run ($pages of $i)"
last=$(grep -l '^rtmeasure_noise_gaps_total{cpu="1"' "$t"/page.* | sort -t. -k2 -n | tail -n1)
grep -q 'probe="noise",host="[^"]*",kernel="[^"]*",preempt_model="[^"]*"' "$last" &&
	! grep -q 'wakeup_latency' "$last"
ok $? "labels cpu, probe, host, kernel, preempt_model; no wake-up series"
if command -v promtool >/dev/null; then
	promtool check metrics <"$last" >/dev/null 2>&1
	ok $? "promtool check metrics accepts a live noise page"
fi
om=$(grep -l '^rtmeasure_noise_gaps_total{cpu="1"' "$t"/om.* 2>/dev/null | head -n1)
[ -n "$om" ] && [ "$(tail -n1 "$om")" = "# EOF" ] && grep -q '^rtmeasure_noise_gaps_created{' "$om"
ok $? "OpenMetrics when the Accept header asks (# EOF, _created)"

# every page against the gap list: a prefix of it, exactly
jq -r '.sections.noise.cpus[] | .cpu as $c | .gap_list[] | "gap \($c) \(.[1])"' "$res" >"$t/gaps"
bad=0 nonzero=0
for p in $(grep -l '^rtmeasure_noise_gaps_total{cpu="1"' "$t"/page.*); do
	verdict=$(awk '
		function ns(s,   a, f) {	# exact decimal seconds to ns
			split(s, a, ".")
			f = substr(a[2] "000000000", 1, 9)
			return a[1] * 1000000000 + f
		}
		function cpu_of(line,   m) {
			match(line, /cpu="[0-9]+"/)
			return substr(line, RSTART + 5, RLENGTH - 6)
		}
		FNR == NR { n[$2]++; len[$2, n[$2]] = $3; next }
		/^rtmeasure_noise_gaps_total\{/ { G[cpu_of($0)] = $NF }
		/^rtmeasure_noise_seconds_total\{/ { N[cpu_of($0)] = ns($NF) }
		/^rtmeasure_noise_max_gap_seconds\{/ { M[cpu_of($0)] = ns($NF) }
		/^rtmeasure_noise_gap_seconds_bucket\{/ && !/le="\+Inf"/ {
			c = cpu_of($0)
			match($0, /le="[0-9.]+"/)
			le = ns(substr($0, RSTART + 4, RLENGTH - 5))
			nb[c]++; ble[c, nb[c]] = le; bcnt[c, nb[c]] = $NF
		}
		END {
			for (c in G) {
				g = G[c]
				if (g > n[c]) { print "bad cpu " c ": " g " gaps, result has " n[c]; continue }
				s = 0; m = 0
				for (k = 1; k <= g; k++) { s += len[c, k]; if (len[c, k] > m) m = len[c, k] }
				if (s != N[c]) print "bad cpu " c ": noise " N[c] " != " s
				if (g && m != M[c]) print "bad cpu " c ": max " M[c] " != " m
				if (!g && (c in M)) print "bad cpu " c ": a max without a gap"
				for (b = 1; b <= nb[c]; b++) {
					w = 0
					for (k = 1; k <= g; k++) w += len[c, k] <= ble[c, b]
					if (w != bcnt[c, b]) print "bad cpu " c ": le " ble[c, b] " " bcnt[c, b] " != " w
				}
				if (g) print "nonzero"
			}
		}' "$t/gaps" "$p")
	echo "$verdict" | grep -q '^bad' && { bad=$((bad + 1)); echo "# $p: $verdict"; }
	echo "$verdict" | grep -q '^nonzero' && nonzero=$((nonzero + 1))
done
[ $bad -eq 0 ]
ok $? "every page is a prefix of result.json's gap list: noise, largest gap, bucket counts"
[ $nonzero -ge 1 ]
ok $? "pages with gaps checked: $nonzero"

# the causes so far (noise --trace): on every live page with the series, their sum
# at most the page's noise (the gaps are laid once their events are drained), and
# each cause's counter never going down from one page to the next
traced=$(jq '.sections.noise.attribution != null' "$res")
if [ "$traced" = true ]; then
	cpages=$(grep -l '^rtmeasure_noise_cause_seconds_total{cpu="1",.*cause="rt_throttling"' \
		"$t"/page.* | sort -V)	# page.N in the order scraped
	[ -n "$cpages" ]
	ok $? "live pages with the causes so far: $(echo $cpages | wc -w)"
	bad=0 prev=
	for p in $cpages; do
		awk -v prev="$prev" '
			function ns(s,   a, f) {
				split(s, a, ".")
				f = substr(a[2] "000000000", 1, 9)
				return a[1] * 1000000000 + f
			}
			FNR == NR && prev != "" { if (/^rtmeasure_noise_cause_seconds_total\{cpu="1"/) {
				match($0, /cause="[a-z_]+"/); was[substr($0, RSTART, RLENGTH)] = ns($NF) }
				next }
			/^rtmeasure_noise_cause_seconds_total\{cpu="1"/ {
				match($0, /cause="[a-z_]+"/); k = substr($0, RSTART, RLENGTH)
				sum += ns($NF)
				if ((k in was) && ns($NF) < was[k]) print "bad: " k " went down"
			}
			/^rtmeasure_noise_seconds_total\{cpu="1"/ { noise = ns($NF) }
			END { if (sum > noise) print "bad: causes " sum " > noise " noise }
		' ${prev:-/dev/null} "$p" >"$t/verdict"
		grep -q '^bad' "$t/verdict" && { bad=$((bad + 1)); echo "# $p: $(cat "$t/verdict")"; }
		prev=$p
	done
	[ $bad -eq 0 ]
	ok $? "the causes so far: within the page's noise, never going down"
	"$RTMEASURE" export --prometheus "$t/r" >"$t/final.c" || fail "export exited $?"
	csum=$(awk '/^rtmeasure_noise_cause_seconds_total\{cpu="1"/ { split($NF, a, ".");
		s += a[1] * 1000000000 + substr(a[2] "000000000", 1, 9) } END { print s }' "$t/final.c")
	[ "$csum" = "$(jq '.sections.noise.cpus[0].noise_ns' "$res")" ]
	ok $? "export: the causes sum to the noise ($csum ns)"
fi

# the saved result's page: the final counts, exactly
"$RTMEASURE" export --prometheus "$t/r" >"$t/final" || fail "export --prometheus exited $?"
want=$(jq '.sections.noise.cpus[] | select(.cpu == 1) | .gaps' "$res")
got=$(sed -n 's/^rtmeasure_noise_gaps_total{cpu="1",.*} \([0-9]*\)$/\1/p' "$t/final")
g_last=$(sed -n 's/^rtmeasure_noise_gaps_total{cpu="1",.*} \([0-9]*\)$/\1/p' "$last")
[ "$got" = "$want" ] && [ "$g_last" -le "$want" ]
ok $? "export: gaps_total $got = result.json's $want; the last live page said $g_last"
done_testing
