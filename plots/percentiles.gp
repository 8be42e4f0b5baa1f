# percentiles.gp - percentile distribution, HdrHistogram style: x is the
# percentile on a log scale of 1/(1 - p), so 90, 99, 99.9, ... are evenly spaced.
# Each curve runs to the percentile its sample count supports; a dashed line
# leads on to its exact maximum, a triangle drawn at x = samples.
# Variables: datafile (blocks separated by two blank lines, each with a header
# line "x" "title", rows "1/(1-p) latency_us p", then one blank line and two rows:
# the curve's last point and the maximum), nblocks, title_text, subtitle_text,
# xmax (the largest x: the largest sample count), ymax (above the largest maximum).
set title title_text . "\n" . subtitle_text
set xlabel 'percentile'
set ylabel 'latency (us)'
set logscale x 10
set logscale y 10
set xrange [1:xmax * 2]
set yrange [*:ymax]
set xtics ('0%%' 1, '90%%' 10, '99%%' 100, '99.9%%' 1000, '99.99%%' 10000, '99.999%%' 100000, \
	'99.9999%%' 1000000, '99.99999%%' 10000000, '99.999999%%' 100000000, \
	'99.9999999%%' 1000000000)
set grid xtics ytics lc rgb '#dddddd'
set key inside left top box opaque Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
array colours[8] = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', \
	'#e377c2', '#17becf']
plot for [i=0:nblocks-1] datafile index i every :::0::0 using 1:2 with steps lw 2 \
		lc rgb colours[i % 8 + 1] title columnheader(2), \
	for [i=0:nblocks-1] datafile index i every :::1::1 using 1:2 with lines lw 1.5 dt 2 \
		lc rgb colours[i % 8 + 1] notitle, \
	for [i=0:nblocks-1] datafile index i every ::1:1:1:1 using 1:2 with points pt 9 ps 1.8 \
		lc rgb colours[i % 8 + 1] title (i == 0 ? 'maximum' : '')
