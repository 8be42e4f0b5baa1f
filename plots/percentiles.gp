# percentiles.gp - percentile distribution, HdrHistogram style: x is the
# percentile on a log scale of 1/(1 - p), so 90, 99, 99.9, ... are evenly spaced.
# Variables: datafile (blocks separated by two blank lines, each with a header
# line "x" "title" and rows "1/(1-p) latency_us p"), nblocks, title_text, xmax
# (the largest 1/(1-p) the sample count supports).
set title title_text
set xlabel 'percentile'
set ylabel 'latency (us)'
set logscale x 10
set logscale y 10
set xrange [1:xmax]
set xtics ('0%%' 1, '90%%' 10, '99%%' 100, '99.9%%' 1000, '99.99%%' 10000, '99.999%%' 100000, \
	'99.9999%%' 1000000, '99.99999%%' 10000000)
set grid xtics ytics lc rgb '#dddddd'
set key outside right top box opaque Left reverse samplen 2
set border 3
set tics nomirror
set style line 1 lc rgb '#1f77b4' lw 2
set style line 2 lc rgb '#d62728' lw 2
set style line 3 lc rgb '#2ca02c' lw 2
set style line 4 lc rgb '#9467bd' lw 2
set style line 5 lc rgb '#ff7f0e' lw 2
set style line 6 lc rgb '#8c564b' lw 2
set style line 7 lc rgb '#e377c2' lw 2
set style line 8 lc rgb '#17becf' lw 2
set style increment user
plot for [i=0:nblocks-1] datafile index i using 1:2 with steps title columnheader(2)
