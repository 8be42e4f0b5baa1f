#!/bin/bash
# kernel lab scripts: bad arguments give one line naming the problem and exit 2,
# before anything is downloaded, built or booted (no root, no qemu needed).
. "$RTM_SRCDIR/tests/lib.sh"

lab=$RTM_SRCDIR/scripts/kernel-lab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# an empty cache: nothing may be fetched into it
export RTMEASURE_LAB_CACHE=$tmp/cache

# lab_error DESCRIPTION PATTERN SCRIPT ARGS...: exit 2, one stderr line
# "kernel-lab/SCRIPT: error: ..." matching PATTERN, nothing on stdout
lab_error() {
	local desc=$1 pat=$2 script=$3 o e rc lines
	shift 3
	o=$("$lab/$script" "$@" 2>"$tmp/err" </dev/null)
	rc=$?
	e=$(cat "$tmp/err")
	lines=$(printf '%s\n' "$e" | grep -c .)
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ -z "$o" ] &&
	   [[ "$e" == "kernel-lab/$script: error: "* ]] && [[ "$e" == *$pat* ]]; then
		ok 0 "$desc ($e)"
	else
		ok 1 "$desc (rc=$rc, stdout '$o', stderr lines=$lines: $e)"
	fi
}

ck=compare-kernels
lab_error "unknown option" "unknown argument '--bogus'" $ck --bogus
lab_error "--rounds 0" "--rounds must be at least 1" $ck --rounds 0
lab_error "--rounds not a number" "take whole numbers" $ck --rounds two
lab_error "--accel" "bad --accel 'xen'" $ck --accel xen
lab_error "one kernel" "at least two kernels" $ck --kernels stock
lab_error "missing image" "kernel '$tmp/none' is neither stock, rt nor an image file" \
	$ck --kernels "stock,$tmp/none"
lab_error "labels count" "--labels has 1 names for 2 kernels" $ck --labels a
lab_error "duplicate label" "label 'stock' given twice" $ck --kernels stock,stock
lab_error "label characters" "label 'a b' must be" $ck --labels 'a b,c'
lab_error "no build" "no $tmp/nobuild/tools/rtmeasure" $ck --build "$tmp/nobuild"
mkdir -p "$tmp/out"
echo x > "$tmp/out/file"
lab_error "output not empty" "output folder $tmp/out exists and is not empty" \
	$ck --build "$RTM_BUILDDIR" -o "$tmp/out"
lab_error "bad duration" "invalid duration '5x'" $ck --build "$RTM_BUILDDIR" --duration 5x
lab_error "bad load" "unknown load 'disk'" $ck --build "$RTM_BUILDDIR" --load disk
lab_error "timeout shorter than the run" "--timeout 20 is not longer than the run (30s)" \
	$ck --build "$RTM_BUILDDIR" --timeout 20

lab_error "boot: no kernel" "--kernel rt|stock or --kernel-image PATH is required" boot --cmd true
lab_error "boot: both kernels" "use only one of --kernel and --kernel-image" \
	boot --kernel rt --kernel-image "$RTM_SRCDIR/README.md" --cmd true
lab_error "boot: image not a bzImage" "is not an x86 bzImage" \
	boot --kernel-image "$RTM_SRCDIR/README.md" --cmd true
lab_error "boot: missing image" "--kernel-image '$tmp/none' not found" \
	boot --kernel-image "$tmp/none" --cmd true
lab_error "boot: config without image" "--kernel-config goes with --kernel-image" \
	boot --kernel rt --kernel-config "$RTM_SRCDIR/README.md" --cmd true
lab_error "boot: --accel" "bad --accel 'hvf'" boot --kernel rt --accel hvf --cmd true
[ ! -e "$tmp/cache" ] || [ -z "$(ls -A "$tmp/cache")" ]
ok $? "nothing was fetched into the cache"

done_testing
