#!/bin/bash
# Integration: every output of one real measurement states the same percentiles
# and avg, "-" (null, no Prometheus sample) alike, and names the same warnings
# (the summary's notes, --json's warnings, report.md's banner, compare --json's
# runs[].warnings, export --csv's "# warning" lines, the page's
# rtmeasure_run_disturbed gauges: in a VM at least "hypervisor"). Two 3 s cyclic runs at 200 us
# on two CPUs (about 15,000 samples a CPU: p99.9 a number, p99.99 too few): the
# first's summary table, the second's --json, each checked against its own
# result.json's histograms, report.md, compare (text and --json) of the run
# against itself and export --prometheus-textfile (node_exporter's textfile: the
# /metrics page of a finished run).
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"
. "$RTM_SRCDIR/tests/outputs.sh"

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cpus=0
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] && cpus=0-1

# outputs_of DIR: the lines of every output of the result in DIR but the run's own
outputs_of() {
	agree_result_json result.json "$1/result.json"
	"$RTMEASURE" compare "$1" "$1" >"$1.cmp.txt" || fail "compare exited $?"
	agree_compare_text compare "$1.cmp.txt"
	"$RTMEASURE" compare --json "$1" "$1" >"$1.cmp.json" || fail "compare --json exited $?"
	agree_compare_json compare-json "$1.cmp.json"
	warn_json compare-json "$1.cmp.json" '.runs[0].warnings'
	"$RTMEASURE" export --prometheus-textfile "$1.prom" "$1" || fail "export exited $?"
	agree_prom metrics "$1.prom"
	warn_prom metrics "$1.prom"
	"$RTMEASURE" export --csv -o "$1.csv" "$1" || fail "export --csv exited $?"
	warn_csv export-csv "$1.csv"
	if command -v gnuplot >/dev/null; then
		"$RTMEASURE" report -o "$1.rep" "$1" >/dev/null || fail "report exited $?"
		agree_report_md report.md "$1.rep/report.md"
		warn_report_md report.md "$1.rep/report.md"
	fi
}

# check NAME LINES DIR: one value per figure, p99 a number and p99.99 "-" on all CPUs;
# the same warnings from the run's own output and four others, the hypervisor's in a VM
check() {
	local n w
	n=$(cut -d' ' -f1 "$2" | sort -u | wc -l)
	[ "$n" -ge 5 ] || fail "$1: figures from $n outputs only"
	agree_check "$2" || fail "$1: the outputs disagree (above)"
	n=$(grep -c ' run warnings ' "$2")
	[ "$n" -ge 5 ] || fail "$1: warnings from $n outputs only"
	w=$(grep -m1 ' run warnings ' "$2" | cut -d' ' -f4)
	! jq -e '.sysinfo.virtualization.vm' "$3/result.json" >/dev/null ||
		echo ",$w," | grep -Eq ',(hypervisor|emulated),' ||
		fail "$1: a virtual machine, and the outputs' warnings are '$w'"
	grep -q '^result.json all p99.99 -$' "$2" ||
		fail "$1: p99.99 is a number: the run has 100,000 samples or more?"
	! grep -q '^result.json all p99 -$' "$2" || fail "$1: p99 has too few samples"
	echo "ok: $1: $(grep -c . "$2") figures and the warnings ($w) from the outputs agree"
}

"$RTMEASURE" cyclic -D 3s -i 200us -a "$cpus" -q -o "$t/a" >"$t/a.out" 2>"$t/a.err" ||
	fail "cyclic exited $?: $(tail -2 "$t/a.err")"
{
	agree_table summary "$t/a.out"
	warn_notes summary "$t/a.out"
	outputs_of "$t/a"
} >"$t/a.lines"
grep -q '^summary ' "$t/a.lines" || fail "no summary table in cyclic's output"
check "summary table" "$t/a.lines" "$t/a"

"$RTMEASURE" cyclic -D 3s -i 200us -a "$cpus" -q --json -o "$t/b" >"$t/b.json" 2>"$t/b.err" ||
	fail "cyclic --json exited $?: $(tail -2 "$t/b.err")"
{
	agree_summary_json json "$t/b.json"
	warn_json json "$t/b.json" '.warnings'
	outputs_of "$t/b"
} >"$t/b.lines"
check "--json" "$t/b.lines" "$t/b"
