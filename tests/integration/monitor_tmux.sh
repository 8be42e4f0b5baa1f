#!/bin/bash
# Integration: `rtmeasure monitor` driven through tmux (root: RT probes).
# In a detached tmux session of fixed size: a row per CPU, numbers that change
# between captures, r resets the statistics, a resize redraws (80x24 fully, a
# tiny window degrades to a notice), ? shows the help, q exits with status 0 and
# writes the results folder (-o); at 80 columns the table keeps its key columns and
# the sparkline. Then once more on a monochrome vt100. Then
# with --noise-cpus: the noise panel's row for its CPU, the cause of the
# largest gap (as root with tracefs), sections.noise on that CPU only.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
command -v tmux >/dev/null || skip "tmux not installed (scripts/setup installs it)"
measure_lock "$@"

fail() { echo "FAIL: $*"; echo "--- last screen:"; cat "$tmp/screen" 2>/dev/null; exit 1; }
tmp=$(mktemp -d)
sock="$tmp/tmux.sock"
T() { tmux -S "$sock" "$@"; }
trap 'tmux -S "$tmp/tmux.sock" kill-server 2>/dev/null; tmux -S "$tmp/tmux2.sock" kill-server \
	2>/dev/null; tmux -S "$tmp/tmux3.sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
screen() { T capture-pane -p -t mon >"$tmp/screen" 2>/dev/null; cat "$tmp/screen"; }
# the samples column: 10 characters from column 67 (the table is fixed-width)
samples() { screen | awk -v c="$1" '$1 == c { s = substr($0, 67, 10) + 0; print s; exit }'; }
wait_for() {	# PATTERN [SECONDS]
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

start() {	# TERM
	T new-session -d -s mon -x 100 -y 30 \
		"TERM=$1 LANG=C.UTF-8 '$RTMEASURE' monitor -a 0,1 --refresh 500ms -o '$tmp/m-$1'; \
		echo \$? >'$tmp/rc-$1'; sleep 60"
}

start xterm-256color
wait_for '^CPU  *cur  *min' || fail "no CPU table within 10 s"
# rtmeasure is the child of the pane's shell: its trace instances are checked at the end
mon_pid() { pgrep -P "$(T display -p -t mon '#{pane_pid}')" -x rtmeasure; }
pids=$(mon_pid)
[ -n "$pids" ] || fail "no rtmeasure process in the pane"
sleep 1
screen | grep -q '^0  ' && screen | grep -q '^1  ' || fail "not a row per CPU"
a=$(samples 0)
sleep 1.5
b=$(samples 0)
[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ] || fail "samples of CPU0 did not grow: $a -> $b"
echo "CPU0 samples $a -> $b"
screen | grep -q 'LOC\|IRQ' || fail "no IRQ panel"

T send-keys -t mon r
wait_for 'statistics reset' 3 || fail "r: no reset message"
sleep 0.7
c=$(samples 0)
[ -n "$c" ] && [ "$c" -lt "$b" ] || fail "r did not reset the statistics: $b -> $c"
echo "after r: $c"

T resize-window -t mon -x 80 -y 24
sleep 1.2
screen >/dev/null
# characters, not bytes: the sparkline's blocks are 3 bytes each in UTF-8
[ "$(LC_ALL=C sed 's/[\x80-\xbf]//g' "$tmp/screen" |
	awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 80 ] ||
	fail "lines wider than 80 columns after the resize"
grep -q '^1  ' "$tmp/screen" && grep -q 'q quit' "$tmp/screen" || fail "80x24 lost the table"
# 80 columns keep the key columns and a sparkline; p99.9 and samples give way first
grep -Eq '^CPU  *cur  *min  *avg  *p99  *max  *overruns  *max/refresh' "$tmp/screen" ||
	fail "80 columns: not CPU, cur, min, avg, p99, max, overruns and the sparkline"
T resize-window -t mon -x 30 -y 6
wait_for 'too small' 3 || fail "a 30x6 window shows no notice"
T resize-window -t mon -x 100 -y 30
wait_for '^CPU  *cur' 3 || fail "no redraw after growing again"

T send-keys -t mon '?'
wait_for 'rtmeasure monitor keys' 3 || fail "? shows no help"
T send-keys -t mon x
sleep 0.8
screen | grep -q 'rtmeasure monitor keys' && fail "the help did not close"

T send-keys -t mon q
for ((i = 0; i < 100; i++)); do [ -s "$tmp/rc-xterm-256color" ] && break; sleep 0.1; done
[ "$(cat "$tmp/rc-xterm-256color" 2>/dev/null)" = 0 ] || fail "q: exit status $(cat "$tmp/rc-xterm-256color" 2>/dev/null)"
"$RTM_BUILDDIR/tests/helpers/result_check" "$tmp/m-xterm-256color" >/dev/null ||
	fail "q: no valid results folder"
T kill-server
sock="$tmp/tmux2.sock"	# a fresh server: the old one may still be going away

start vt100
wait_for '^CPU  *cur' || fail "vt100: no CPU table"
pids="$pids $(mon_pid)"
screen | grep -q '^1  ' || fail "vt100: not a row per CPU"
T send-keys -t mon q
for ((i = 0; i < 100; i++)); do [ -s "$tmp/rc-vt100" ] && break; sleep 0.1; done
[ "$(cat "$tmp/rc-vt100" 2>/dev/null)" = 0 ] || fail "vt100: q exit status"
T kill-server

# --noise-cpus: the timer probe on CPU 0, the noise probe on CPU 1 with its panel
sock="$tmp/tmux3.sock"
T new-session -d -s mon -x 120 -y 30 \
	"TERM=xterm-256color LANG=C.UTF-8 '$RTMEASURE' monitor -a 0 --noise-cpus 1 \
	--refresh 500ms -o '$tmp/m-noise'; echo \$? >'$tmp/rc-noise'; sleep 60"
wait_for '^noise  *noise %  *max gap  *gaps  *largest gap' || fail "no noise panel"
pids="$pids $(mon_pid)"
wait_for '^1  *[0-9.]*%  *[0-9.]* [mun]*s  *[0-9][0-9]* ' 10 || fail "no noise row for CPU 1"
screen | grep -q '^0  ' || fail "no timer row for CPU 0"
# as root the gaps get causes once their events are in (half a second later)
if screen | grep -q 'no gap causes'; then
	echo "gap causes not traced here: $(grep 'no gap causes' "$tmp/screen")"
else
	wait_for '^1  *[0-9.]*% .*(.*[0-9] [mun]*s) ' 10 || fail "no cause for the largest gap"
fi
T send-keys -t mon q
for ((i = 0; i < 100; i++)); do [ -s "$tmp/rc-noise" ] && break; sleep 0.1; done
[ "$(cat "$tmp/rc-noise" 2>/dev/null)" = 0 ] || fail "noise: q exit status"
"$RTM_BUILDDIR/tests/helpers/result_check" "$tmp/m-noise" >/dev/null ||
	fail "noise: no valid results folder"
if command -v jq >/dev/null; then
	jq -e '([.cpus[].cpu] == [0]) and ([.sections.noise.cpus[].cpu] == [1]) and
		.sections.noise.cpus[0].sampled_ns > 0' "$tmp/m-noise/result.json" >/dev/null ||
		fail "noise: result.json should have the timer on CPU 0 and noise on CPU 1"
fi
for p in $pids; do no_instances_of "$p"; done
echo "PASS: rows per CPU, live numbers, reset, resize, help, q with results, vt100, noise panel"
