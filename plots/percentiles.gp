# percentiles.gp - percentile distribution, HdrHistogram style: x is the
# percentile on a log scale of 1/(1 - p), so 90, 99, 99.9, ... are evenly spaced.
# Every point drawn is a measured value: each histogram bucket is a step at the
# value the summary table gives for any percentile inside it (no interpolation),
# from the rank where the bucket starts; a curve ends at x = samples, where its
# last sample's rank begins, and its exact maximum is a triangle there, labelled.
# Variables: datafile (nblocks curve blocks separated by two blank lines, each with
# a header line "x" "title" and rows "1/(1-p) latency_us p" where a step starts,
# the last row closing the last step at x = samples; then one marks block, a
# comment line and one row per curve "samples max_us label", the label empty for a
# maximum an earlier curve already labels), nblocks, title_text,
# subtitle_text, xmax (the largest x: the largest sample count), ymax (above the
# largest maximum), colours (one "#rrggbb" a curve, space separated: a CPU has the
# same colour in every plot); optional: dashes (one gnuplot dash type a curve,
# default solid).
if (!exists("dashes")) dashes = ''
dash(i) = words(dashes) > i ? int(word(dashes, i + 1)) : 1
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
set style textbox opaque noborder margins 1,1
plot for [i=0:nblocks-1] datafile index i using 1:2 with steps lw 2 dt dash(i) \
		lc rgb word(colours, i + 1) title columnheader(2), \
	for [i=0:nblocks-1] datafile index nblocks every ::i::i using 1:2 with points pt 9 \
		ps 1.8 lc rgb word(colours, i + 1) title (i == 0 ? 'maximum' : ''), \
	for [i=0:nblocks-1] datafile index nblocks every ::i::i using 1:2:3 with labels boxed right \
		offset -1,0.8 tc rgb word(colours, i + 1) notitle
