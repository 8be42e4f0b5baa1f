#!/bin/bash
# Command-level tests of the safe outputs (no root): export -o - / FIFO /
# symlink / folder, cyclic -o checked before measuring (a file, a symlink, an
# earlier result; --force, --follow), --histfile into a FIFO, report with
# symlinks planted in plots/, stale staging folders of a killed report or
# compare removed by the next, import of a truncated result.json. Device
# nodes, full and read-only file systems: tests/integration/safe_output.sh.
. "$RTM_SRCDIR/tests/lib.sh"
measure_lock "$@"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
res="$RTM_TESTDATA/results/vm-6.18-load"
t=$(mktemp -d)
reader= holder=
trap '[ -n "$reader" ] && kill "$reader" 2>/dev/null; [ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$t"' EXIT
printf 'victim\n' >"$t/victim"
mkdir "$t/real"
ln -s "$t/victim" "$t/link.csv"
ln -s "$t/real" "$t/linkdir"

# one line on stderr naming the problem, exit 2, and (optionally) a word in it
expect_refusal() {	# DESCRIPTION WORD ARGS...
	local desc=$1 word=$2
	shift 2
	expect_usage_error "$desc" "$@"
	echo "$err" | grep -q -- "$word"
	ok $? "$desc: the message says '$word'"
}
cksum_of() { cksum <"$1"; }

# ---------------------------------------------------------------- export
(cd "$t" && "$RTMEASURE" export --csv -o - "$res" >"$t/stdout.csv")
ok $? "export -o - exits 0"
[ -s "$t/stdout.csv" ] && [ ! -e "$t/-" ]
ok $? "export -o - writes stdout, no file named '-'"

expect_refusal "export -o SYMLINK is refused" "symbolic link" export --csv -o "$t/link.csv" "$res"
[ "$(cat "$t/victim")" = victim ] && [ -L "$t/link.csv" ]
ok $? "the symlink and its target are untouched"
run_cmd export --csv --follow -o "$t/link.csv" "$res"
[ "$rc" -eq 0 ] && [ -L "$t/link.csv" ] && cmp -s "$t/victim" "$t/stdout.csv"
ok $? "export --follow -o SYMLINK writes its target, the link stays"
printf 'victim\n' >"$t/victim"

expect_refusal "export -o FOLDER is refused" "folder" export --csv -o "$t/real" "$res"
expect_refusal "export -o in a missing folder is refused" "No such file" \
	export --csv -o "$t/nowhere/x.csv" "$res"

mkfifo "$t/fifo"
cat "$t/fifo" >"$t/fifo.out" &
reader=$!
run_cmd export --csv -o "$t/fifo" "$res"
wait "$reader"
reader=
[ "$rc" -eq 0 ] && [ -p "$t/fifo" ] && cmp -s "$t/fifo.out" "$t/stdout.csv"
ok $? "export -o FIFO writes in place to its reader; the FIFO stays a FIFO"
ls -A "$t" | grep -q '^\.' 
ok $(( $? == 0 )) "no temporary file left beside the outputs"

# a FIFO no process reads: refused at once in one line, never an open() that
# waits for ever (timeout stands in for the hang, exit 124)
printf '#!/bin/sh\nexec timeout 20 "%s" "$@"\n' "$RTMEASURE" >"$t/timed"
chmod +x "$t/timed"
untimed=$RTMEASURE
RTMEASURE=$t/timed
mkfifo "$t/lonely" "$t/lonely.prom"
expect_refusal "export -o FIFO without a reader is refused" "no process reads" \
	export --csv -o "$t/lonely" "$res"
expect_refusal "export --prometheus-textfile FIFO without a reader is refused" \
	"no process reads" export --prometheus-textfile "$t/lonely.prom" "$res"
[ -p "$t/lonely" ] && [ -p "$t/lonely.prom" ]
ok $? "... the FIFOs stay FIFOs"
RTMEASURE=$untimed

# ---------------------------------------------------------------- cyclic -o
meas() { run_cmd cyclic --no-rt -l 20 -i 200us -q "$@"; }
printf 'x' >"$t/afile"
meas -o "$t/afile"
[ "$rc" -eq 2 ] && echo "$err" | grep -q "not a folder" && [ "$(cat "$t/afile")" = x ] &&
	[ -z "$out" ]
ok $? "cyclic -o FILE: exit 2 before measuring, no summary ($err)"
meas -o "$t/linkdir"
[ "$rc" -eq 2 ] && echo "$err" | grep -q -- "--follow" && [ -z "$(ls -A "$t/real")" ]
ok $? "cyclic -o SYMLINK: refused, nothing written where it points ($err)"
mkfifo "$t/ofifo"
ln -s "$t/afile" "$t/lfile"
meas -o "$t/ofifo"
[ "$rc" -eq 2 ] && echo "$err" | grep -q "not a folder" && [ -p "$t/ofifo" ]
ok $? "cyclic -o FIFO: refused before measuring ($err)"
meas -o "$t/lfile"
[ "$rc" -eq 2 ] && echo "$err" | grep -q "symbolic link"
ok $? "cyclic -o SYMLINK-TO-FILE: refused ($err)"
meas --follow -o "$t/lfile"
[ "$rc" -eq 2 ] && echo "$err" | grep -q "not a folder" && [ "$(cat "$t/afile")" = x ]
ok $? "cyclic --follow -o SYMLINK-TO-FILE: not a folder ($err)"
meas --follow -o "$t/linkdir"
[ "$rc" -eq 0 ] && [ -f "$t/real/result.json" ] && [ -L "$t/linkdir" ]
ok $? "cyclic --follow -o SYMLINK writes where it points"

meas -o "$t/r"
ok $rc "cyclic -o NEW exits 0"
sum=$(cksum_of "$t/r/result.json")
mkdir -p "$t/r/plots/data" "$t/r/spikes"
touch "$t/r/report.html" "$t/r/report.md" "$t/r/plots/histogram.png" \
	"$t/r/plots/data/histogram.dat" "$t/r/spikes/spike-001.txt" "$t/r/spikes/spike-001.json" \
	"$t/r/notes.txt" "$t/r/plots/mine.txt"
meas -o "$t/r"
[ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q -- "--force" && [ "$(cksum_of "$t/r/result.json")" = "$sum" ]
ok $? "cyclic -o EXISTING_RESULT: one line naming --force, exit 2, result kept ($err)"
meas --force -o "$t/r"
[ "$rc" -eq 0 ] && [ -f "$t/r/result.json" ] && [ ! -e "$t/r/report.html" ] &&
	[ ! -e "$t/r/report.md" ] && [ ! -e "$t/r/plots/histogram.png" ] &&
	[ ! -e "$t/r/plots/data" ] && [ ! -e "$t/r/spikes" ]
ok $? "--force: a new result, the old report, plots and spikes gone"
[ -f "$t/r/notes.txt" ] && [ -f "$t/r/plots/mine.txt" ]
ok $? "--force: the user's own files are kept"

meas -o "$t/h" --histfile "$t/link.csv"
[ "$rc" -eq 2 ] && [ ! -e "$t/h" ] && [ "$(cat "$t/victim")" = victim ]
ok $? "--histfile SYMLINK: refused before measuring, no folder made ($err)"
meas -o "$t/h" --json="$t/real"
[ "$rc" -eq 2 ] && [ ! -e "$t/h" ]
ok $? "--json=FOLDER: refused before measuring ($err)"
mkfifo "$t/hfifo"
cat "$t/hfifo" >"$t/hfifo.out" &
reader=$!
meas -o "$t/h" --histfile "$t/hfifo"
wait "$reader"
reader=
[ "$rc" -eq 0 ] && [ -p "$t/hfifo" ] && cmp -s "$t/hfifo.out" "$t/h/histogram.txt"
ok $? "--histfile FIFO: written in place, the same as histogram.txt"
RTMEASURE=$t/timed
meas -o "$t/h2" --histfile "$t/lonely"
[ "$rc" -eq 2 ] && [ ! -e "$t/h2" ] && [ -z "$out" ] && echo "$err" | grep -q "no process reads"
ok $? "--histfile FIFO without a reader: refused before measuring, no folder made ($err)"
meas -o "$t/h2" --json="$t/lonely"
[ "$rc" -eq 2 ] && [ ! -e "$t/h2" ] && echo "$err" | grep -q "no process reads"
ok $? "--json=FIFO without a reader: refused before measuring ($err)"
RTMEASURE=$untimed
cat "$t/hfifo" >"$t/hfifo.out" &
reader=$!
run_cmd cyclic --no-rt -l 20 -i 200us -q -o "$t/h3" --json="$t/hfifo"
wait "$reader"
reader=
# cyclic --json=FILE is cyclictest's JSON (rt-tests' layout), whole
[ "$rc" -eq 0 ] && jq -e '.thread["0"].cycles == 20' "$t/hfifo.out" >/dev/null
ok $? "--json=FIFO with a reader: the reader gets the whole document ($err)"

# ---------------------------------------------------------------- monitor -o
run_cmd monitor --no-rt --once -o "$t/linkdir"
[ "$rc" -eq 2 ] && echo "$err" | grep -q -- "--follow" && [ -z "$(ls -A "$t/real" | grep -v '^result.json$\|^histogram.txt$')" ]
ok $? "monitor -o SYMLINK: refused before the dashboard ($err)"
run_cmd monitor --no-rt --once -o "$t/r"
[ "$rc" -eq 2 ] && echo "$err" | grep -q -- "--force"
ok $? "monitor -o EXISTING_RESULT: refused, naming --force ($err)"

# ---------------------------------------------------------------- report
if command -v gnuplot >/dev/null; then
	mkdir -p "$t/rep/plots/data"
	ln -s "$t/victim" "$t/rep/plots/histogram.png"
	ln -s "$t/victim" "$t/rep/plots/data/percentiles.dat"
	run_cmd report "$res" -o "$t/rep"
	[ "$rc" -eq 0 ] && [ "$(cat "$t/victim")" = victim ] &&
		[ ! -L "$t/rep/plots/histogram.png" ] && [ ! -L "$t/rep/plots/data/percentiles.dat" ]
	ok $? "report: symlinks planted in plots/ are replaced, their target untouched ($err)"
	head -c 8 "$t/rep/plots/histogram.png" | od -An -c | grep -q 'P   N   G'
	ok $? "report: the PNG is a PNG"
	mkdir "$t/rep2"
	ln -s "$t/real" "$t/rep2/plots"
	run_cmd report "$res" -o "$t/rep2"
	[ "$rc" -eq 2 ] && [ -z "$(ls -A "$t/real" | grep -v result.json | grep -v histogram.txt)" ]
	ok $? "report: a symlink planted at plots is refused, nothing written there ($err)"
	mkdir "$t/real2"
	ln -s "$t/real2" "$t/linkout"
	expect_refusal "report -o SYMLINK is refused" "symbolic link" report "$res" -o "$t/linkout"
	[ -z "$(ls -A "$t/real2")" ]
	ok $? "... nothing written where it points"
	run_cmd report "$res" -o "$t/linkout" --follow
	[ "$rc" -eq 0 ] && [ -f "$t/real2/report.html" ]
	ok $? "report --follow -o SYMLINK writes where it points ($err)"
	expect_refusal "compare -o SYMLINK is refused" "symbolic link" \
		compare "$res" "$res" -o "$t/linkout"
	expect_refusal "report -o FILE is refused" "not a folder" report "$res" -o "$t/afile"
	# a FIFO planted at plots/histogram.png: never opened or renamed over; the
	# report run promised is missing, so the run exits 2 with a line naming it
	mkdir -p "$t/pf/plots"
	mkfifo "$t/pf/plots/histogram.png"
	RTMEASURE=$t/timed
	run_cmd run --no-rt -l 20 -i 200us -q --force -o "$t/pf"
	RTMEASURE=$untimed
	[ "$rc" -eq 2 ] && [ -p "$t/pf/plots/histogram.png" ] && [ -f "$t/pf/result.json" ] &&
		echo "$err" | grep -q "no report: .*plots/histogram.png"
	ok $? "run with a FIFO at plots/histogram.png: exit 2, no report, result kept ($rc: $err)"
	[ ! -e "$t/pf/report.html" ] && [ -z "$(find "$t/pf/plots" -type f)" ]
	ok $? "... and no part of the report left ($(find "$t/pf" -type f | tr '\n' ' '))"
	# a stage a killed report left (SIGKILL: unlocked, nothing removed it): the
	# next report there removes it and says so; a live writer's (locked) stays
	mkdir -p "$t/ks/.rtm-stage-KiLd01/plots" "$t/ks/.rtm-stage-LiVe02"
	echo part >"$t/ks/.rtm-stage-KiLd01/plots/histogram.png"
	( exec 9<"$t/ks/.rtm-stage-LiVe02"; flock 9; exec sleep 60 ) &	# its lock dies with it
	holder=$!
	for _ in $(seq 100); do	# a bound: until flock(1) holds the stage
		! flock -n "$t/ks/.rtm-stage-LiVe02" true && break
		sleep 0.1
	done
	run_cmd report "$res" -o "$t/ks"
	kill "$holder"
	wait "$holder" 2>/dev/null
	holder=
	[ "$rc" -eq 0 ] && [ ! -e "$t/ks/.rtm-stage-KiLd01" ] && [ -d "$t/ks/.rtm-stage-LiVe02" ] &&
		[ "$err" = "rtmeasure report: removed the staging folder of a killed report or compare in $t/ks: .rtm-stage-KiLd01" ]
	ok $? "report: a killed report's stage removed, said in one line; a live one's kept ($rc: $err)"
	mkdir -p "$t/ks/.rtm-stage-KiLd03" "$t/ks/.rtm-stage-KiLd04"
	run_cmd compare "$res" "$res" -o "$t/ks"
	# the live writer is gone now: its stage is stale too
	[ "$rc" -eq 0 ] && [ -z "$(find "$t/ks" -name '.rtm-stage-*')" ] &&
		[ "$(echo "$err" | wc -l)" = 1 ] &&
		echo "$err" | grep -q "^rtmeasure compare: removed the staging folders of a killed report or compare in $t/ks: " &&
		[ "$(echo "$err" | grep -o '\.rtm-stage-\(KiLd03\|KiLd04\|LiVe02\)' | sort -u | wc -l)" = 3 ]
	ok $? "compare: the same, once the live writer is gone, naming each ($rc: $err)"
	# a run into that folder removes a killed report's stage before measuring
	mkdir -p "$t/ks/.rtm-stage-KiLd05/plots"
	run_cmd run --no-rt -l 20 -i 200us -q --force -o "$t/ks"
	[ "$rc" -eq 0 ] && [ -z "$(find "$t/ks" -name '.rtm-stage-*')" ] &&
		echo "$err" | grep -qx "rtmeasure run: removed the staging folder of a killed report in $t/ks: .rtm-stage-KiLd05"
	ok $? "run: a killed report's stage in its results folder removed, said in one line ($rc: $err)"
else
	ok 0 "# SKIP gnuplot not installed"
fi

# ---------------------------------------------------------------- -o - of a folder
# the commands that write a folder refuse "-" in one line: no folder named "-"
mkdir "$t/dash"
cd "$t/dash" || exit 1
for args in "cyclic --no-rt -l 20 -i 200us -q" "run --no-rt -l 20 -i 200us -q" \
	"noise --no-rt -D 1s -q" "monitor --no-rt --once" "report $res" "compare $res $res" \
	"import $res/result.json"; do
	# shellcheck disable=SC2086
	expect_refusal "${args%% *} -o - is refused" "standard output" $args -o -
	[ ! -e "$t/dash/-" ]
	ok $? "... no folder named '-' made by ${args%% *}"
done
cd - >/dev/null || exit 1

# ---------------------------------------------------------------- import
head -c 3000 "$res/result.json" >"$t/cut.json"
expect_refusal "import of a truncated result.json" "truncated" import -o "$t/imp" "$t/cut.json"

done_testing
