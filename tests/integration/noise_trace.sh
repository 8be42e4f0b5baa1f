#!/bin/bash
# Integration: `rtmeasure noise --trace` names the cause of each gap.
# A FIFO 97 helper spins 2 ms every 300 ms on CPU 1 while the detector (FIFO 95,
# busy 500 ms of every 1 s) runs there for 5 s with the gap causes traced: every
# injection inside a busy part must be one gap whose main cause is the helper, by
# its comm and pid (thread rtm-inject); the helper is the main cause of as many
# gaps as injections reach busy parts, within 5 % (its start-up on the CPU may add
# one); the summary names it; no tracefs instance is left. `--trace 0` records no
# causes. Timing is never asserted.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_tracefs
need_jq
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs CPU 1"
measure_lock "$@"

out=$(mktemp -d)
trap '[ -n "$KEEP" ] || rm -rf "$out"; kill $inj $pid 2>/dev/null' EXIT
inject="$RTM_BUILDDIR/tests/helpers/inject"

"$RTMEASURE" noise --trace -v -a 1 -D 5s -o "$out/a" >"$out/sum.txt" 2>"$out/err.txt" &
pid=$!
for i in $(seq 3000); do	# until its noise thread runs (a bound, not a measurement)
	grep -qs '^rtm-noise/1$' /proc/$pid/task/*/comm && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
"$inject" --cpu 1 --spin 2ms --every 300ms --count 16 --delay 200ms --priority 97 \
	>"$out/inj.txt" &
inj=$!
wait $pid || fail "rtmeasure noise --trace exited $? ($(cat "$out/err.txt"))"
wait $inj || fail "inject exited $?"
no_instances_of $pid
res="$out/a/result.json"
[ -s "$res" ] || fail "no result.json"
jq -e '.sections.noise.attribution.complete == true' "$res" >/dev/null ||
	fail "no complete attribution in result.json ($(jq -c .sections.noise.attribution "$res"))"

# gaps with their main cause's label, and the busy parts
jq -r '.sections.noise as $n | $n.cpus[0] as $c |
	"noise \($n.start_mono_ns) \($n.window_ns) \($n.width_ns) \($c.windows)",
	(range(0; $c.gap_list | length) as $i |
	 ($c.gap_causes[$i][0]) as $k |
	 "gap \($c.gap_list[$i][0] + $n.start_mono_ns) \($c.gap_list[$i][1]) " +
	 (if $k >= 0 then $c.causes.contributors[$k].label else "unexplained" end))' \
	"$res" | tr -d '\r' >"$out/gaps.txt" || fail "result.json has no gap_causes"
want="thread rtm-inject pid $inj "
awk -v want="$want" '
	$1 == "noise" { start = $2; win = $3; wid = $4; nwin = $5; next }
	$1 == "gap" { gs[++ng] = $2; gl[ng] = $3; $1 = $2 = $3 = ""; lab[ng] = substr($0, 4)
		      if (index(lab[ng], want) == 1) main++; next }
	$1 == "inject" {
		s = $3; e = $4
		k = int((s - start) / win); ws = start + k * win
		# the injector outlives the detector by up to a window: only windows it ran
		if (k >= nwin) next
		if (s < ws + wid) touching++
		if (s < ws + 20000000 || e > ws + wid - 2000000) next
		expected++
		# the gap over it: its start is the TSC converted at a calibrated rate,
		# some us off CLOCK_MONOTONIC late in a window (rtmeasure-noise(1)), so
		# overlapping and as long as the spin, not containing it to the ns
		for (i = 1; i <= ng; i++)
			if (gs[i] < e && gs[i] + gl[i] > s && gl[i] >= 0.9 * (e - s)) {
				found++
				if (index(lab[i], want) == 1) named++
				else printf "injection at %.0f: gap named %s\n", s,
					lab[i] > "/dev/stderr"
				break
			}
	}
	END { if (found < expected) for (i = 1; i <= ng; i++) if (gl[i] > 500000)
			printf "long gap at %.0f, %d ns: %s\n", gs[i], gl[i], lab[i] > "/dev/stderr"
	      printf "expected=%d found=%d named=%d touching=%d main=%d\n", expected,
		found + 0, named + 0, touching + 0, main + 0 }
' "$out/gaps.txt" "$out/inj.txt" >"$out/match.txt"
cat "$out/match.txt"
eval "$(tr ' ' '\n' <"$out/match.txt" | sed 's/^/m_/')"
[ "$m_expected" -ge 4 ] || fail "only $m_expected injections fell inside busy parts"
[ "$m_found" -eq "$m_expected" ] || fail "found $m_found of $m_expected injections as gaps"
[ "$m_named" -eq "$m_expected" ] || fail "$m_named of $m_expected injection gaps named $want"
# the helper is the main cause of one gap per injection in a busy part (5 %, + its start)
[ $((m_main * 100)) -ge $((m_touching * 95)) ] &&
	[ $((m_main * 100)) -le $((m_touching * 105 + 100)) ] ||
	fail "the helper is the main cause of $m_main gaps; $m_touching injections reached" \
		"busy parts"
grep -q "CPU 1: thread rtm-inject pid $inj (fifo 97): " "$out/sum.txt" ||
	fail "the summary does not name the helper: $(cat "$out/sum.txt")"
grep -q "^Gap causes" "$out/sum.txt" || fail "no gap causes table"

# --trace 0: no causes, no instance
"$RTMEASURE" noise --trace 0 -a 1 -D 2s -q -o "$out/b" >"$out/sum0.txt" 2>&1 &
pid=$!
wait $pid || fail "noise --trace 0 exited $? ($(cat "$out/sum0.txt"))"
no_instances_of $pid
jq -e '.sections.noise | (.attribution == null) and (.cpus[0].causes == null) and
	(.cpus[0].gap_causes == null) and (.cpus[0].gap_list | length) > 0' \
	"$out/b/result.json" >/dev/null || fail "--trace 0 recorded gap causes"
! grep -q "^Gap causes" "$out/sum0.txt" || fail "--trace 0 printed gap causes"
exit 0
