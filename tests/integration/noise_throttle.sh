#!/bin/bash
# Integration: `rtmeasure noise --trace` names RT throttling. The busy
# loop at FIFO 95 with --width = --window --force on CPU 1 for 5 s, beside a
# SCHED_OTHER spinner pinned there: the kernel must give the spinner its share
# (kernel.sched_rt_runtime_us of every sched_rt_period_us for the RT tasks; since
# 6.12 through the fair server), so the loop loses period - runtime a period. The
# time the spinner ran must be named "RT throttling", never the spinner nor
# "unexplained"; the most throttled time in one period must be within period -
# runtime (give or take the tick the kernel charges it at), and the whole within
# that a period; the progress lines (stdout not a tty) must show the throttling
# so far before the run ends; the SMI counter is read or said unknown with the
# reason; nothing is left behind (the spinner, a tracefs instance, the RT
# settings as they were).
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_tracefs
need_jq
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs CPU 1"
command -v taskset >/dev/null || skip "taskset (util-linux) missing"
runtime=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null) ||
	skip "no kernel.sched_rt_runtime_us"
period=$(cat /proc/sys/kernel/sched_rt_period_us)
[ "$runtime" -ge 0 ] || skip "RT throttling is off (kernel.sched_rt_runtime_us -1)"
[ "$runtime" -lt "$period" ] || skip "RT throttling leaves nothing (runtime $runtime of $period)"
measure_lock "$@"

out=$(mktemp -d)
spin=
trap '[ -n "$spin" ] && kill $spin 2>/dev/null; [ -n "$KEEP" ] || rm -rf "$out"' EXIT
settings() { cat /proc/sys/kernel/sched_rt_runtime_us /proc/sys/kernel/sched_rt_period_us; }
before=$(settings)

taskset -c 1 bash -c 'while :; do :; done' &
spin=$!
spinner=$spin
RTMEASURE_PROGRESS_PERIOD_S=1 "$RTMEASURE" noise --width 1s --window 1s --force --trace -a 1 \
	-D 5s --no-report -o "$out/r" >"$out/sum.txt" 2>"$out/err.txt" &
pid=$!
wait $pid
rc=$?
kill $spin
wait $spin 2>/dev/null
ok $rc "noise --width 1s --window 1s --force --trace -a 1 -D 5s exits 0 ($(head -c 300 "$out/err.txt"))"
kill -0 $spinner 2>/dev/null
[ $? -ne 0 ]
ok $? "the spinner is gone"
spin=
no_instances_of $pid
[ "$(settings)" = "$before" ]
ok $? "kernel.sched_rt_runtime_us and sched_rt_period_us as they were ($(echo $before))"
res="$out/r/result.json"
[ -s "$res" ] || fail "no result.json"
jq -e '.sections.noise.attribution.complete == true' "$res" >/dev/null
ok $? "the attribution is complete ($(jq -c .sections.noise.attribution "$res"))"

c='.sections.noise.cpus[0].causes'
thr=$(jq "$c.rt_throttling_ns" "$res")
[ "$thr" -gt 0 ]
ok $? "RT throttling named: $thr ns"
# the gaps the spinner ran in are RT throttling's: no contributor names it, and every
# gap over 10 ms has RT throttling as its main cause, or no event in it at all (the
# host may stop this VM's vCPU that long)
jq -e --arg pid "pid $spinner " "[$c.contributors[] | select(.label | contains(\$pid))] |
	length == 0" "$res" >/dev/null
ok $? "no contributor names the spinner (pid $spinner): $(jq -c "[$c.contributors[0:3][] | .label]" "$res")"
jq -r '.sections.noise.cpus[0] as $c | range(0; $c.gap_list | length) as $i |
	select($c.gap_list[$i][1] > 10000000) | $c.gap_causes[$i][0] as $k |
	if $k >= 0 then $c.causes.contributors[$k].class
	elif $c.gap_causes[$i][2] == $c.gap_list[$i][1] then "no-event"
	else "unexplained-with-events" end' "$res" >"$out/long.txt"
long=$(grep -c '^rt_throttling$' "$out/long.txt")
[ "$long" -ge 1 ] && ! grep -qv '^\(rt_throttling\|no-event\)$' "$out/long.txt"
ok $? "the gaps over 10 ms: RT throttling the main cause of $long, the rest without any event: $(sort "$out/long.txt" | uniq -c | tr '\n' ' ')"

# within the setting: one period's most, and the whole run's
limit=$(( (period - runtime) * 1000 ))
jq -e --argjson l "$limit" "$c.rt_throttling | .limit_per_period_ns == \$l and
	.period_ns == $((period * 1000)) and .within_limit == true" "$res" >/dev/null
ok $? "at most period - runtime ($limit ns) in one period, give or take a tick: $(jq -c "$c.rt_throttling" "$res")"
tick=$(jq "$c.rt_throttling.tick_ns" "$res")
dur=$(jq .sections.noise.duration_ns "$res")
periods=$(( (dur + period * 1000 - 1) / (period * 1000) ))
[ "$thr" -le $(( periods * (limit + tick) )) ]
ok $? "the run's $thr ns within $periods periods of $limit ns (+ a $tick ns tick)"
grep -q "CPU 1: RT throttling took .* in one period of" "$out/sum.txt"
ok $? "the summary says it: $(grep 'RT throttling took' "$out/sum.txt")"

# live: a progress line before the last shows throttling so far
grep 'rtmeasure noise: [0-9]* / 5 s, CPU1 ' "$out/err.txt" >"$out/progress.txt"
head -n -1 "$out/progress.txt" | grep -q 'rt throttling [0-9.]* [mu]s'
ok $? "the progress lines show the throttling so far: $(sed -n 2p "$out/progress.txt" | cut -c1-240)"

# the SMI counter: a count, or unknown with the reason
jq -e "($c.smis | type == \"number\") or ($c.smis == null and ($c.smis_unknown | length) > 0)" \
	"$res" >/dev/null
ok $? "SMIs: $(jq -c "$c | {smis, smis_unknown}" "$res")"
if [ "$(jq "$c.smis" "$res")" = null ]; then
	jq -e "$c.unexplained | contains(\"SMIs unknown: \")" "$res" >/dev/null
	ok $? "the unexplained part says SMIs unknown and why: $(jq -r "$c.unexplained" "$res")"
fi
done_testing
