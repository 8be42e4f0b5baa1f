# timeseries.gp - per-interval maximum (solid) and p99 (dashed) per CPU over the run.
# Variables: datafile (blocks, one per CPU, header "t_s" "CPUn", rows
# "t_s max_us p99_us"), ncpus, title_text, subtitle_text, colours (one "#rrggbb" a
# block, space separated: a CPU has the same colour in every plot).
set title title_text . "\n" . subtitle_text
set xlabel 'time (s)'
set ylabel 'latency (us)'
set logscale y 10
set grid xtics ytics lc rgb '#dddddd'
set key inside right top box opaque Left reverse samplen 2
set border 3
set tics nomirror
plot for [i=0:ncpus-1] datafile index i using 1:2 with linespoints pt 7 ps 0.4 lw 1.5 \
		lc rgb word(colours, i + 1) title columnheader(2).' max', \
	for [i=0:ncpus-1] datafile index i using 1:3 with lines lw 1 dt 2 \
		lc rgb word(colours, i + 1) title columnheader(2).' p99'
