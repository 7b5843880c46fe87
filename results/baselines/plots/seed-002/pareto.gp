# pareto.gp - written by c2csim plot; restyle it and run `gnuplot pareto.gp` in this directory.
# The numbers are in pareto.dat.
dat = 'pareto.dat'
formats = 'png svg'
do for [fmt in formats] {
reset
if (fmt eq 'png') { set terminal pngcairo size 1100,800 noenhanced font 'sans,10' }
if (fmt eq 'svg') { set terminal svg size 1100,800 noenhanced dynamic font 'sans,10' background '#ffffff' }
set output 'pareto.'.fmt
set multiplot layout 2,1 title 'Pareto of the hottest line of each variant'
set style fill solid 0.9 border -1
set boxwidth 0.4
set ylabel 'events'
set y2label 'cumulative HITMs (%)'
set y2range [0:105]
set y2tics 25
set ytics nomirror
set yrange [0:*]
set grid ytics
set key outside right top vertical font ',8'
set bmargin 7
set title 'before: mem_cgroup_per_node line 0 (cg.pn[0])'
set xtics rotate by -30 left font ',8' ('memcg' 0, 'lruvec_stats_percpu' 1)
set xrange [-0.6:1.6]
plot dat index 0 using ($1-0.2):2 with boxes lc rgb '#c0392b' title 'HITMs', dat index 0 using ($1+0.2):3 with boxes lc rgb '#2874a6' title 'store L1 misses', dat index 0 using 1:4 axes x1y2 with linespoints pt 7 lc rgb '#333333' title 'cumulative HITM %'
set title 'after: mem_cgroup_per_node line 3 (cg.pn[0])'
set xtics rotate by -30 left font ',8' ('lruvec.pgdat' 0)
set xrange [-0.6:0.6]
plot dat index 1 using ($1-0.2):2 with boxes lc rgb '#c0392b' title 'HITMs', dat index 1 using ($1+0.2):3 with boxes lc rgb '#2874a6' title 'store L1 misses', dat index 1 using 1:4 axes x1y2 with linespoints pt 7 lc rgb '#333333' title 'cumulative HITM %'
unset multiplot
unset output
}
