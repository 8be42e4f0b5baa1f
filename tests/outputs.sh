# Sourced by tests that check that every output of one result states the same
# percentiles (and avg) and carries the same warnings: the summary table, the
# summary JSON (--json), the histograms of result.json, report.md, compare (text
# and --json), export and the Prometheus page (export --prometheus-textfile or
# /metrics). Each percentile reader prints
# "SOURCE ROW KEY VALUE" lines: ROW a CPU or "all", KEY avg, p50, p99, p99.9 or
# p99.99, VALUE in us to one decimal as the tables print it, or "-" where the
# percentile has too few samples beyond it (null in JSON, no Prometheus sample).
# agree_check then fails on any (ROW, KEY) two sources state differently.
# Needs jq and awk.

# ns (a JSON number, or null) as the tables print it: us, one decimal; "-" for null
fmt_ns_awk='function us(v) { return v == "null" ? "-" : sprintf("%.1f", v / 1000) }'

# agree_table SRC FILE: the summary table as the commands print it
agree_table() {
	awk -v src="$1" '
		/^CPU +samples +min +avg / { on = 1; next }
		on && /^\(/ { on = 0 }
		on && NF >= 10 {
			print src, $1, "avg", $4; print src, $1, "p50", $5; print src, $1, "p99", $6
			print src, $1, "p99.9", $7; print src, $1, "p99.99", $8
		}' "$2"
}

# agree_summary_json SRC FILE: the summary as --json prints it ({cpus: [], all: {}})
agree_summary_json() {
	jq -r '(.cpus[] | [(.cpu | tostring), .]), ["all", .all] | .[0] as $r | .[1] |
		"\($r) avg \(.avg_ns)", "\($r) p50 \(.p50_ns)", "\($r) p99 \(.p99_ns)",
		"\($r) p99.9 \(.["p99.9_ns"])", "\($r) p99.99 \(.["p99.99_ns"])"' "$2" |
		awk -v src="$1" "$fmt_ns_awk"' { print src, $1, $2, us($3) }'
}

# agree_compare_json SRC FILE: the first run of compare --json, and its percentiles[]
agree_compare_json() {
	jq '.runs[0] | {cpus, all}' "$2" >"$2.summary"
	agree_summary_json "$1" "$2.summary"
	rm -f "$2.summary"
	jq -r '.runs[0].percentiles[] | select(.percentile < 99.995) |
		"all p\(.percentile) \(.value_ns)"' "$2" |
		awk -v src="$1-percentiles" "$fmt_ns_awk"' { print src, $1, $2, us($3) }'
}

# agree_compare_text SRC FILE: the first line of each CPU's rows in compare's table
agree_compare_text() {
	awk -v src="$1" '
		/^CPU +run +samples +min +avg / { on = 1; next }
		on && /^\(latencies/ { on = 0 }
		on && /^(all|[0-9]+) / {
			print src, $1, "avg", $5; print src, $1, "p50", $6; print src, $1, "p99", $7
			print src, $1, "p99.9", $8; print src, $1, "p99.99", $9
		}' "$2"
}

# agree_report_md SRC FILE: report.md's summary table
agree_report_md() {
	awk -F' *\\| *' -v src="$1" '
		/^\| CPU \| samples \|/ { on = 1; next }
		on && !/^\|/ { on = 0 }
		on && $2 ~ /^(\*\*all\*\*|[0-9]+)$/ {
			r = $2; gsub(/\*/, "", r)
			print src, r, "avg", $5; print src, r, "p50", $6; print src, r, "p99", $8
			print src, r, "p99.9", $9; print src, r, "p99.99", $10
		}' "$2"
}

# agree_prom SRC FILE: each CPU's run-window percentile gauges; "-" where the page has none
agree_prom() {
	awk -v src="$1" '
		/^rtmeasure_wakeup_latency_seconds_count\{/ {
			match($0, /cpu="[0-9]+"/); c = substr($0, RSTART + 5, RLENGTH - 6); cpus[c] = 1
		}
		/^rtmeasure_wakeup_latency_percentile_seconds\{.*window="run"/ {
			match($0, /cpu="[0-9]+"/); c = substr($0, RSTART + 5, RLENGTH - 6)
			match($0, /percentile="[0-9.]+"/); p = substr($0, RSTART + 12, RLENGTH - 13)
			ns = sprintf("%.0f", $NF * 1e9)
			v[c, p] = sprintf("%.1f", ns / 1000)
		}
		END {
			for (c in cpus) {
				n = split("99 99.9 99.99", ps, " ")
				for (i = 1; i <= n; i++)
					print src, c, "p" ps[i], ((c, ps[i]) in v) ? v[c, ps[i]] : "-"
			}
		}' "$2"
}

# agree_result_json SRC FILE: nearest-rank percentiles of result.json's histograms, as
# the histogram reports them (a bucket's midpoint within the exact min and max), each
# CPU and all CPUs merged; null with fewer than 10 samples expected beyond, n (100 - p)
# / 100 < 10; avg from the exact sums
agree_result_json() {
	jq -r '
	def width: if . < 512 then 1 else pow(2; (log2 | floor) - 8) end;
	def pct($c; $p):
		([$c[].hist.count] | add) as $n
		| ([$c[].hist.min_ns] | min) as $mn | ([$c[].hist.max_ns] | max) as $mx
		| ([$c[].hist.buckets[]] | group_by(.[0]) | map([.[0][0], (map(.[1]) | add)])) as $b
		| (($p * $n / 100 - 1e-9) | ceil) as $rank
		| if $n * (100 - $p) < 1000 - 1e-6 then null else
		first(foreach $b[] as $x ([0, null]; [.[0] + $x[1], $x]; select(.[0] >= $rank) | .[1]))
		| (.[0] + ((.[0] | width) - 1) / 2 | floor) | [., $mn] | max | [., $mx] | min end;
	def rows($r; $c):
		"\($r) avg \(([$c[].hist.sum_ns] | add) / ([$c[].hist.count] | add))",
		(50, 99, 99.9, 99.99 | "\($r) p\(.) \(pct($c; .))");
	.cpus as $all | ($all[] | rows(.cpu | tostring; [.])), rows("all"; $all)' "$2" |
		awk -v src="$1" "$fmt_ns_awk"' { print src, $1, $2, us($3) }'
}

# The warnings (lib/result/disturb.c): each reader below prints "SOURCE run warnings
# KEYS", KEYS the sorted, comma-separated keys the output names for the result
# (shared_cpus, interrupted, missed_periods, hypervisor, emulated), "none" when it
# names none; agree_check then fails when two outputs carry different sets.

# the key of a warning's sentence as the summary's notes and report.md say it; the
# summary's hypervisor note is the box check's "virtual machine (NAME, from ...)"
warn_key_awk='function key(t) {
	if (t ~ /^another rtmeasure measure[sd] /) return "shared_cpus"
	if (t ~ /^interrupted after / || t ~ /^the noise phase was interrupted /) return "interrupted"
	if (t ~ /^missed [0-9.]+% of its periods /) return "missed_periods"
	if (t ~ /^ran emulated / || t ~ /^virtual machine \(.*TCG/) return "emulated"
	if (t ~ /^ran under a hypervisor / || t ~ /^virtual machine \(/) return "hypervisor"
	return ""
}'

# warn_line SRC: the keys on stdin, one a line, as SRC's line
warn_line() {
	local k
	k=$(grep . | sort -u | paste -sd, -)
	echo "$1 run warnings ${k:-none}"
}

# warn_notes SRC FILE: the notes under the summary table
warn_notes() {
	awk "$warn_key_awk"' /^note: / { sub(/^note: /, ""); print key($0) }' "$2" | warn_line "$1"
}

# warn_report_md SRC FILE: report.md's banner, the warnings above its first table
warn_report_md() {
	awk "$warn_key_awk"' /^\| / { exit }
		/^> \*\*Warning:\*\* / { sub(/^> \*\*Warning:\*\* /, ""); print key($0) }' "$2" |
		warn_line "$1"
}

# warn_json SRC FILE FILTER: the ids a JSON document lists at FILTER (an array of {id})
warn_json() {
	jq -r "$3 | .[].id" "$2" | warn_line "$1"
}

# warn_csv SRC FILE: export --csv's "# warning KEY: ..." lines
warn_csv() {
	sed -n 's/^# warning \([a-z_]*\): .*/\1/p' "$2" | warn_line "$1"
}

# warn_prom SRC FILE: the reasons whose rtmeasure_run_disturbed gauge is 1
warn_prom() {
	sed -n 's/^rtmeasure_run_disturbed{.*reason="\([a-z_]*\)"} 1$/\1/p' "$2" | warn_line "$1"
}

# agree_check FILE: FILE holds the readers' lines; every (ROW, KEY) one value.
# Prints the table of values per source as TAP comments; returns 1 on a disagreement.
agree_check() {
	awk '
		{ k = $2 " " $3; srcs[$1] = 1
		  if (!(k in val)) { val[k] = $4; first[k] = $1; keys[++n] = k }
		  else if (val[k] != $4) {
			printf "# %s: %s says %s, %s says %s\n", k, first[k], val[k], $1, $4; bad = 1 }
		  seen[k]++ }
		END {
			for (i = 1; i <= n; i++)
				printf "# %s = %s (%d outputs)\n", keys[i], val[keys[i]], seen[keys[i]]
			exit bad
		}' "$1"
}
