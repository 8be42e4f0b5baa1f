# irq.gp - the busiest interrupt sources of the measured CPUs over the run, on
# a log scale so a timer at thousands per second does not flatten the rest;
# each bar carries its rate.
# Variables: datafile (rows "name rate_per_s"), title_text, subtitle_text, ymin, ymax.
set title title_text . "\n" . subtitle_text
set ylabel 'interrupts per second (log scale)'
set logscale y 10
set yrange [ymin:ymax]
set style fill solid 0.8 border -1
set boxwidth 0.7
set grid ytics lc rgb '#dddddd'
set xtics rotate by -30 nomirror
set border 3
set tics nomirror
unset key
plot datafile using 0:2:xtic(1) with boxes lc rgb '#1f77b4', \
	'' using 0:2:(sprintf($2 >= 100 ? '%.0f' : '%.2g', $2)) with labels offset 0,0.8 \
		tc rgb '#222222'
