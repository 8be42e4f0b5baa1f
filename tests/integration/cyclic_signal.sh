#!/bin/bash
# Integration: SIGINT after 2 s gives exit 0, a complete result.json marked
# interrupted with about 2 s of samples, and "interrupted after" on stderr.
# SIGTERM works the same. /dev/cpu_dma_latency is held while measuring.
. "$RTM_SRCDIR/tests/lib.sh"
need_root

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check="$RTM_BUILDDIR/tests/helpers/result_check"

for sig in INT TERM; do
	"$RTMEASURE" cyclic -a 0 -i 1000us -q -o "$out/$sig" >/dev/null 2>"$out/$sig.err" &
	pid=$!
	sleep 2.1
	# while measuring, /dev/cpu_dma_latency is held open (the PM QoS request)
	if [ -e /dev/cpu_dma_latency ]; then
		ls -l /proc/$pid/fd 2>/dev/null | grep -q /dev/cpu_dma_latency ||
			fail "SIG$sig: /dev/cpu_dma_latency not held during the run"
	fi
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc -eq 0 ] || fail "SIG$sig: exit status $rc ($(cat "$out/$sig.err"))"
	grep -q 'interrupted after' "$out/$sig.err" || fail "SIG$sig: no 'interrupted after'"
	facts=$("$check" "$out/$sig") || fail "SIG$sig: result.json does not load"
	echo "$facts"
	dur=$(echo "$facts" | sed -n 's/.*duration_ns=\([0-9]*\).*/\1/p')
	[ "$(echo "$facts" | sed -n 's/.*interrupted=\([01]\).*/\1/p')" = 1 ] ||
		fail "SIG$sig: result not marked interrupted"
	# 2.1 s after start minus the 100 ms aligned start: about 2 s
	[ "$dur" -ge 1500000000 ] && [ "$dur" -le 2600000000 ] || fail "SIG$sig: duration $dur"
	count=$(echo "$facts" | sed -n 's/^cpu=0 count=\([0-9]*\).*/\1/p')
	over=$(echo "$facts" | sed -n 's/^cpu=0 .*overruns=\([0-9]*\).*/\1/p')
	want=$((dur / 1000000))
	# every period is a sample or an overrun (a VM stall swallows some)
	[ $((count + over)) -ge $((want * 97 / 100)) ] && [ "$count" -le $((want + 5)) ] ||
		fail "SIG$sig: $count samples + $over overruns for $dur ns"
	[ -f "$out/$sig/histogram.txt" ] || fail "SIG$sig: no histogram.txt"
done
echo "PASS: SIGINT and SIGTERM save a complete, interrupted result"
