# irq.gp - the busiest interrupt sources of the measured CPUs over the run.
# Variables: datafile (rows "name rate_per_s"), title_text.
set title title_text
set ylabel 'interrupts per second'
set style fill solid 0.8 border -1
set boxwidth 0.7
set yrange [0:*]
set grid ytics lc rgb '#dddddd'
set xtics rotate by -30 nomirror
set border 3
set tics nomirror
unset key
plot datafile using 0:2:xtic(1) with boxes lc rgb '#1f77b4'
