#!/bin/bash
# report.html and compare.html in a real browser: Debian's chromium, headless,
# loads each page and a script added to a copy of it reports every <img> that
# did not decode (naturalWidth 0) and every error event or console.error/warn;
# chromium's own log (--enable-logging) must hold no console message from the
# page. A page with a broken image and a console error proves the checks can
# fail. Screenshots of the pages go to build/test-artefacts/report-browser/
# beside copies of the pages. Skips with the reason when chromium cannot run.
. "$RTM_SRCDIR/tests/lib.sh"
measure_lock "$@"
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
command -v gnuplot >/dev/null || skip_all "gnuplot not installed"
browser=$(command -v chromium || command -v chromium-browser) ||
	skip_all "chromium not installed (apt-get install chromium; scripts/setup installs it)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
art="${RTM_BUILDDIR:-$RTM_SRCDIR/build}/test-artefacts/report-browser"
mkdir -p "$art" || skip_all "cannot create $art"

# browse URL OUT [chromium options...]: chromium's stdout in OUT, its log in OUT.log
browse() {
	local url=$1 out=$2
	shift 2
	# as root chromium needs --no-sandbox; a private profile and HOME keep the box clean
	HOME="$tmp" timeout 180 "$browser" --headless --no-sandbox --disable-gpu \
		--disable-dev-shm-usage --no-first-run --disable-crash-reporter \
		--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
		--virtual-time-budget=10000 "$@" "$url" >"$out" 2>"$out.log" </dev/null
}

browse about:blank "$tmp/blank" --dump-dom
grep -q '<body' "$tmp/blank" ||
	skip_all "chromium cannot run here: $(grep -v '^$' "$tmp/blank.log" | tail -1 | cut -c1-200)"

# check PAGE NAME: copy PAGE with the checking script first in <head>, dump the
# DOM after load; sets $verdict to the script's line "images=N undecoded=N svgs=N errors=N"
# and $errors to the error lines
check() {
	local page=$1 name=$2 dir
	dir=$(dirname "$page")
	# beside the page, so relative links resolve as they would; the script is
	# loaded first in <head>, before any image
	cp "$tmp/check.js" "$dir/.rtm-check.js"
	awk '!done && sub(/<head>/, "<head><script src=\".rtm-check.js\"></script>") { done = 1 }
		{ print }' "$page" >"$dir/.rtm-check-$name.html"
	browse "file://$dir/.rtm-check-$name.html" "$tmp/$name.dom" --dump-dom
	verdict=$(grep -o 'images=[0-9]* undecoded=[0-9]* svgs=[0-9]* errors=[0-9]*' "$tmp/$name.dom")
	errors=$(sed -n '/<pre id="rtm-check">/,/<\/pre>/p' "$tmp/$name.dom" | sed '1d; s|</pre>.*||')
	rm -f "$dir/.rtm-check-$name.html" "$dir/.rtm-check.js"
}
cat >"$tmp/check.js" <<'JS'
(function () {
	var errs = [];
	window.addEventListener('error', function (e) {
		var t = e.target, what = e.message;
		if (!what && t && t.tagName)
			what = t.tagName + ' failed to load';
		errs.push('error: ' + what);
	}, true);
	['error', 'warn'].forEach(function (k) {
		var orig = console[k];
		console[k] = function () {
			errs.push(k + ': ' + Array.prototype.join.call(arguments, ' '));
			orig.apply(console, arguments);
		};
	});
	window.addEventListener('load', function () {
		var imgs = document.images, bad = 0, i, pre;
		for (i = 0; i < imgs.length; i++)
			if (!imgs[i].complete || imgs[i].naturalWidth === 0)
				bad++;
		pre = document.createElement('pre');
		pre.id = 'rtm-check';
		pre.textContent = 'images=' + imgs.length + ' undecoded=' + bad + ' svgs=' +
			document.querySelectorAll('figure svg').length + ' errors=' + errs.length +
			'\n' + errs.join('\n');
		document.body.appendChild(pre);
	});
})();
JS

# --- the checks can fail: a broken image and a console error are seen
printf '%s\n' '<!DOCTYPE html><html><head><meta charset="utf-8"><title>bad</title></head><body>' \
	'<img alt="broken" src="data:image/png;base64,AAAA"><script>console.error("boom")</script>' \
	'</body></html>' >"$tmp/bad.html"
check "$tmp/bad.html" bad
[ "$verdict" = "images=1 undecoded=1 svgs=0 errors=2" ] && echo "$errors" | grep -q 'IMG failed' &&
	echo "$errors" | grep -q 'boom'
ok $? "a broken image and a console error are caught ($verdict)"
grep -q 'CONSOLE.*boom' "$tmp/bad.dom.log"
ok $? "chromium's log shows the page's console messages"

# --- report.html with PNG plots, with SVG plots, and compare.html
run_cmd report "$RTM_TESTDATA/results/vm-6.18-load" -o "$tmp/png"
ok $rc "report (png) exits 0 ($err)"
run_cmd report "$RTM_TESTDATA/results/vm-6.18-load" -o "$tmp/svg" --format svg,pdf
ok $rc "report (svg,pdf) exits 0 ($err)"
run_cmd compare -l stock,rt -o "$tmp/cmp" "$RTM_TESTDATA/compare/lab-stock" \
	"$RTM_TESTDATA/compare/lab-rt"
ok $rc "compare exits 0 ($err)"

check "$tmp/png/report.html" png
[ "$verdict" = "images=4 undecoded=0 svgs=0 errors=0" ]
ok $? "report.html (png): 4 images, all decoded, no error ($verdict${errors:+; $errors})"
check "$tmp/svg/report.html" svg
[ "$verdict" = "images=0 undecoded=0 svgs=4 errors=0" ]
ok $? "report.html (svg): 4 inline SVG plots, no error ($verdict${errors:+; $errors})"
check "$tmp/cmp/compare.html" cmp
[ "$verdict" = "images=2 undecoded=0 svgs=0 errors=0" ]
ok $? "compare.html: 2 images, all decoded, no error ($verdict${errors:+; $errors})"

# --- the pages as they are: no console message at all; a screenshot each
for p in png/report.html svg/report.html cmp/compare.html; do
	name=$(echo "$p" | tr / -)
	browse "file://$tmp/$p" "$tmp/$name.out" --screenshot="$art/${name%.html}.png" \
		--window-size=1200,5000 --hide-scrollbars
	! grep 'CONSOLE' "$tmp/$name.out.log" >&2
	ok $? "$p: no console message in chromium's log"
	[ -s "$art/${name%.html}.png" ] && cp "$tmp/$p" "$art/$name"
	ok $? "$p: screenshot $art/${name%.html}.png"
done
done_testing
