#!/bin/bash
# Integration: cyclic --json=FILE is cyclictest's option (root, a real RT thread,
# 2 s): FILE holds rt-tests' JSON layout with the keys a real cyclictest --json
# writes (cyclictest run here when installed, else the recorded file in
# tests/data/import), its counts are the result's, and --json=FILE leaves the
# table on standard output.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

"$RTMEASURE" cyclic -D 2s -a 0 -h 100 -q -o "$d/r" --json="$d/ct.json" >"$d/out" 2>"$d/err" ||
	fail "cyclic exited $?: $(cat "$d/err")"
grep -q '^CPU ' "$d/out" || fail "--json=FILE: the table is not on standard output"
jq -e . "$d/ct.json" >/dev/null || fail "--json=FILE is not JSON"

# the keys of cyclictest's own file: a run of it here, or the recorded one
if command -v cyclictest >/dev/null; then
	cyclictest -D 2 -q -m -p 95 -a 0 -t 1 -h 100 --json="$d/real.json" >/dev/null 2>&1 ||
		fail "cyclictest -D 2 --json exited $?"
	ref="$d/real.json"
	echo "reference: cyclictest $(jq -r '."rt_test_version:"' "$ref") run here"
else
	ref="$RTM_TESTDATA/import/cyclictest-h100.json"
	echo "reference: cyclictest is not installed: the keys of $ref (rt-tests 2.4)"
fi
keys='[keys_unsorted[]] | sort'
# ours: cyclictest's keys without "rt_test_version:" (rtmeasure is not rt-tests),
# with "generator" and "exported_by" that say what wrote it, and "rtmeasure_warnings",
# what disturbed the run (a key rt-tests' readers skip)
want=$(jq -c "$keys - [\"rt_test_version:\"] + [\"generator\", \"exported_by\",
	\"rtmeasure_warnings\"] | sort" "$ref")
got=$(jq -c "$keys" "$d/ct.json")
[ "$got" = "$want" ] || fail "top-level keys $got, cyclictest's (adjusted) $want"
for part in '.thread["0"]' '.sysinfo'; do
	want=$(jq -c "$part | $keys" "$ref")
	got=$(jq -c "$part | $keys" "$d/ct.json")
	[ "$got" = "$want" ] || fail "$part: keys $got, cyclictest's $want"
done
want=$(jq -c '[.file_version, .resolution_in_ns, (.thread["0"] | .histogram, .cycles, .min,
	.max, .avg, .cpu, .node | type)] | map(tostring)' "$ref")
got=$(jq -c '[.file_version, .resolution_in_ns, (.thread["0"] | .histogram, .cycles, .min,
	.max, .avg, .cpu, .node | type)] | map(tostring)' "$d/ct.json")
[ "$got" = "$want" ] || fail "values or types $got, cyclictest's $want"

# the numbers are the run's: one thread on CPU 0, its samples, rows adding up to them
n=$(jq '.cpus[0].hist.count' "$d/r/result.json")
jq -e --argjson n "$n" '.num_threads == 1 and (.thread | keys) == ["0"] and
	.thread["0"].cpu == 0 and .thread["0"].cycles == $n and
	([.thread["0"].histogram[]] | add) == $n and
	(."cmdline:" | startswith("rtmeasure cyclic -D 2s -a 0")) and
	(.generator | startswith("rtmeasure ")) and (has("rt_test_version:") | not)' \
	"$d/ct.json" >/dev/null || fail "FILE's thread 0 is not the run's $n samples on CPU 0"
"$RTMEASURE" import -q -o "$d/back" "$d/ct.json" || fail "FILE does not import ($?)"
[ "$(jq '.cpus[0].hist.count' "$d/back/result.json")" = "$n" ] ||
	fail "imported back: not the run's $n samples"

echo "PASS: cyclic --json=FILE wrote rt-tests' layout ($n samples), cyclictest's keys"
