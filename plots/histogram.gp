# histogram.gp - latency histogram, OSADL style: samples per microsecond on a log
# axis, latency on a linear axis in microseconds (logarithmic when logx), one
# colour per line; a triangle at each line's exact maximum, a square at its
# overflowed samples (beyond the source's histogram, values unknown).
# Variables: datafile (blocks separated by two blank lines: ncpus line blocks,
# each with a header line "latency_us" "TITLE" and rows "latency_us samples",
# a single blank line where empty microseconds lie between rows; then one marks
# block, a comment line and one row per line "max_us samples overflow_us
# overflows"), ncpus, title_text, subtitle_text, logx, xmin, xmax, split (> 0:
# a body panel [xmin:split] and a tail panel [split:xmax], tailtic its tic step), ymax,
# has_overflow (1: some line has overflowed samples), colours (one "#rrggbb" a line,
# space separated: a CPU has the same colour in every plot); optional: what (the
# axis's quantity, default 'latency'; a noise report's 'gap length') and ylabel_text.
if (!exists("what")) what = 'latency'
if (!exists("ylabel_text")) ylabel_text = 'samples'
set xlabel what . ' (us)'
set ylabel ylabel_text
set logscale y
set yrange [0.8:ymax * 4]
if (logx) { set logscale x 10; set xlabel what . ' (us, log scale)' }
set grid xtics ytics mytics lc rgb '#dddddd'
set key inside right top box opaque Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
marks = ncpus
# each row a step [us, us + 1) at its count: the risers within a run of rows
# (steps, broken at every blank line, so nothing bridges empty microseconds)
# and each row's top (a vector 1 us long); a dot on every row so a lone
# outlier is seen
lines = "plot for [i=0:ncpus-1] datafile index i using 1:2 with steps lw 1.5 " . \
	"lc rgb word(colours, i + 1) title columnheader(2), " . \
	"for [i=0:ncpus-1] datafile index i using 1:2:(1):(0) with vectors nohead lw 1.5 " . \
	"lc rgb word(colours, i + 1) notitle, " . \
	"for [i=0:ncpus-1] datafile index i using 1:2 with points pt 7 ps 0.4 " . \
	"lc rgb word(colours, i + 1) notitle, " . \
	"for [i=0:ncpus-1] datafile index marks every ::i::i using 1:2 with points pt 9 ps 1.8 " . \
	"lc rgb word(colours, i + 1) title (i == 0 ? 'maximum' : ''), " . \
	"for [i=0:ncpus-1] datafile index marks every ::i::i using 3:4 " . \
	"with points pt 4 ps 2 lw 2 lc rgb word(colours, i + 1) " . \
	"title (i == 0 && has_overflow ? 'overflowed (value unknown)' : ''), " . \
	"for [i=0:ncpus-1] datafile index marks every ::i::i " . \
	"using 3:4:(sprintf('%d overflowed', int($4))) with labels right offset -1.5,0 " . \
	"tc rgb word(colours, i + 1) notitle"
if (split > 0) {
	set multiplot title title_text . "\n" . subtitle_text
	set bmargin at screen 0.11
	set tmargin at screen 0.86
	set lmargin at screen 0.08
	set rmargin at screen 0.69
	set xrange [xmin:split]
	set xlabel what . ' (us): body'
	eval lines
	set lmargin at screen 0.715
	set rmargin at screen 0.97
	set xrange [split:xmax]
	set xlabel 'tail (us)'
	set xtics tailtic
	unset ylabel
	set format y ''
	unset key
	eval lines
	unset multiplot
} else {
	set title title_text . "\n" . subtitle_text
	set xrange [xmin:xmax]
	eval lines
}
