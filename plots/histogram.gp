# histogram.gp - latency histogram, OSADL style: one line per CPU, samples on a
# log axis, the maximum of each CPU in the key.
# Variables: datafile (blocks, one per CPU, separated by two blank lines; each
# starts with a header line "latency_us" "CPUn (max X us)" and has rows
# "latency_us samples", one per microsecond that has samples), ncpus, title_text,
# logx (1: logarithmic latency axis, for runs whose maximum is far in the tail).
set title title_text
set xlabel 'latency (us)'
set ylabel 'samples'
set logscale y
set yrange [0.8:*]
if (logx) { set logscale x 10; set xlabel 'latency (us, log scale)' }
set grid xtics ytics mytics lc rgb '#dddddd'
set key outside right top box opaque Left reverse samplen 2
set border 3
set tics nomirror
set style line 1 lc rgb '#1f77b4' lw 1.5
set style line 2 lc rgb '#d62728' lw 1.5
set style line 3 lc rgb '#2ca02c' lw 1.5
set style line 4 lc rgb '#9467bd' lw 1.5
set style line 5 lc rgb '#ff7f0e' lw 1.5
set style line 6 lc rgb '#8c564b' lw 1.5
set style line 7 lc rgb '#e377c2' lw 1.5
set style line 8 lc rgb '#17becf' lw 1.5
set style increment user
plot for [i=0:ncpus-1] datafile index i using 1:2 with linespoints pt 7 ps 0.35 \
	title columnheader(2)
