#!/bin/bash
# Integration: rtmeasure noise (the busy loop: --backend user) finds injected gaps of known
# size at known times.
# A FIFO 99 helper spins 2 ms on CPU 0 every 50 ms, 80 times, while the detector
# (FIFO 95, busy 500 ms of every 1 s) runs on CPU 0 for 6 s. Every injection that
# falls inside a busy part must be found (at least 95 %), as one gap covering it
# whose length is within 10 % of the spin the helper measured; the detector's own
# CPU time must be width/window of the run within 10 % (the duty cycle is
# honoured); no tracefs instance is left (--no-report: no gnuplot in its CPU time, and no
# report.html). Then SIGTERM saves what was measured, with its report.html.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs (the helper's clock and the command)"
measure_lock "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"; kill $inj $wrap 2>/dev/null' EXIT
inject="$RTM_BUILDDIR/tests/helpers/inject"

# the detector alone in a shell whose `times` gives its CPU time (user + system)
bash -c '"$0" noise --backend user -a 0 -D 6s -q --json --no-report -o "$1" >"$2" &
	echo $! >"$4"; wait $!; rc=$?
	times >"$3"; exit $rc' "$RTMEASURE" "$out/a" "$out/sum.json" "$out/times" "$out/pid" &
wrap=$!
for i in $(seq 3000); do
	grep -qs '^rtm-noise/0$' /proc/[0-9]*/task/*/comm && break
	kill -0 $wrap 2>/dev/null || break
	sleep 0.1
done
"$inject" --cpu 0 --spin 2ms --every 50ms --count 80 --delay 300ms >"$out/inj.txt" &
inj=$!
wait $wrap || fail "rtmeasure noise exited $?"
wait $inj || fail "inject exited $?"
jq -e '.noise.cpus[0].sampled_ns' "$out/sum.json" >/dev/null || fail "no --json summary"
res="$out/a/result.json"
[ -s "$res" ] || fail "no result.json"
[ ! -e "$out/a/report.html" ] || fail "--no-report: report.html written"

# busy parts, gaps (absolute CLOCK_MONOTONIC ns) and the injections
jq -r '.sections.noise as $n | "noise \($n.start_mono_ns) \($n.window_ns) \($n.width_ns)",
	($n.cpus[0].gap_list[] | "gap \(.[0] + $n.start_mono_ns) \(.[1])")' "$res" >"$out/gaps.txt" ||
	fail "result.json has no sections.noise"
awk '
	$1 == "noise" { start = $2; win = $3; wid = $4; next }
	$1 == "gap" { gs[++ng] = $2; gl[ng] = $3; next }
	$1 == "inject" {
		s = $3; e = $4
		k = int((s - start) / win)
		ws = start + k * win
		# inside a busy part, clear of its edges (the detector may wake late)
		if (s < ws + 20000000 || e > ws + wid - 2000000) next
		expected++
		for (i = 1; i <= ng; i++) {
			if (gs[i] <= s && gs[i] >= s - 1000000 && gs[i] + gl[i] >= e) {
				found++
				r = gl[i] / (e - s)
				ratio[found] = r
				if (r >= 0.9 && r <= 1.1) inlen++
				else printf "injection at %.0f: %d ns spun, gap %d ns\n", s, e - s, gl[i] > "/dev/stderr"
				if (r < 0.98) short++
				break
			}
		}
	}
	END {
		n = found
		for (i = 2; i <= n; i++)	# insertion sort (mawk has no asort)
			for (j = i; j > 1 && ratio[j - 1] > ratio[j]; j--) {
				t = ratio[j]; ratio[j] = ratio[j - 1]; ratio[j - 1] = t
			}
		med = n ? (n % 2 ? ratio[(n + 1) / 2] : (ratio[n / 2] + ratio[n / 2 + 1]) / 2) : 0
		printf "expected=%d found=%d within10=%d short=%d median_pct=%d\n", expected,
			found + 0, inlen + 0, short + 0, med * 100 + 0.5
	}
' "$out/gaps.txt" "$out/inj.txt" >"$out/match.txt"
cat "$out/match.txt"
eval "$(tr ' ' '\n' <"$out/match.txt" | sed 's/^/m_/')"
[ "$m_expected" -ge 30 ] || fail "only $m_expected injections fell inside busy parts (expected ~40)"
[ $((m_found * 100)) -ge $((m_expected * 95)) ] ||
	fail "found $m_found of $m_expected injections (need 95 %)"
[ "$m_median_pct" -ge 90 ] && [ "$m_median_pct" -le 110 ] ||
	fail "median gap is $m_median_pct % of the injected length (90-110 expected)"
[ "$m_short" -eq 0 ] || fail "$m_short gaps shorter than the injection they cover"

# duty cycle: sampled time and CPU time ~ 6 s * 500 ms / 1 s = 3 s, within 10 %
sampled=$(jq '.sections.noise.cpus[0].sampled_ns' "$res")
windows=$(jq '.sections.noise.cpus[0].windows' "$res")
echo "sampled ${sampled} ns in $windows windows"
[ "$windows" -eq 6 ] || fail "$windows busy windows in 6 s, expected 6"
[ "$sampled" -ge 2700000000 ] && [ "$sampled" -le 3300000000 ] ||
	fail "sampled $sampled ns, expected 3 s within 10 %"
cpu_ms=$(sed -n 2p "$out/times" | awk '{
	split($1, u, /[ms]/); split($2, s, /[ms]/)
	printf "%d", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000 }')
echo "detector CPU time ${cpu_ms} ms (expected ~3000)"
[ "$cpu_ms" -ge 2700 ] && [ "$cpu_ms" -le 3300 ] ||
	fail "the detector used $cpu_ms ms of CPU in 6 s, expected 3000 within 10 %"

# nothing left behind
no_instances_of "$(cat "$out/pid")"

# SIGTERM: stopped within a window, what was measured saved, exit 143
"$RTMEASURE" noise --backend user -a 0 -D 60s -q -o "$out/t" >/dev/null 2>"$out/t.err" &
pid=$!
for i in $(seq 3000); do
	grep -qs '^rtm-noise/0$' /proc/$pid/task/*/comm && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
sleep 1.5
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "SIGTERM: exit $rc, expected 143 ($(cat "$out/t.err"))"
jq -e '.interrupted == true and .sections.noise.cpus[0].sampled_ns > 0 and
	.sections.noise.cpus[0].windows >= 1' "$out/t/result.json" >/dev/null ||
	fail "SIGTERM: result.json not saved as interrupted with the sampled time"
if command -v gnuplot >/dev/null; then
	grep -q '<td class="l">0</td>' "$out/t/report.html" &&
		grep -q 'interrupted: what was measured until then' "$out/t/report.md" ||
		fail "SIGTERM: no report.html/report.md of the interrupted run ($(cat "$out/t.err"))"
fi

# no gnuplot: the report is said to be missing, the run is not failed, its result kept
PATH=/nonexistent "$RTMEASURE" noise --backend user -a 0 -D 1s -q --trace 0 -o "$out/np" \
	>/dev/null 2>"$out/np.err" || fail "no gnuplot: noise exited $? ($(cat "$out/np.err"))"
grep -q '^rtmeasure: no report: gnuplot is not installed' "$out/np.err" &&
	[ -s "$out/np/result.json" ] && [ ! -e "$out/np/report.html" ] ||
	fail "no gnuplot: not said, or the result not kept ($(cat "$out/np.err"))"
exit 0
