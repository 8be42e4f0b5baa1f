# timeseries.gp - per-interval maximum (solid) and p99 (dashed) per CPU over the run.
# Variables: datafile (blocks, one per CPU, header "t_s" "CPUn", rows
# "t_s max_us p99_us"), ncpus, title_text, subtitle_text.
set title title_text . "\n" . subtitle_text
set xlabel 'time (s)'
set ylabel 'latency (us)'
set logscale y 10
set grid xtics ytics lc rgb '#dddddd'
set key inside right top box opaque Left reverse samplen 2
set border 3
set tics nomirror
array colours[8] = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', \
	'#e377c2', '#17becf']
plot for [i=0:ncpus-1] datafile index i using 1:2 with linespoints pt 7 ps 0.4 lw 1.5 \
		lc rgb colours[i % 8 + 1] title columnheader(2).' max', \
	for [i=0:ncpus-1] datafile index i using 1:3 with lines lw 1 dt 2 \
		lc rgb colours[i % 8 + 1] title columnheader(2).' p99'
