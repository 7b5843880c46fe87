# hitm_lines.gp - written by c2csim plot; restyle it and run `gnuplot hitm_lines.gp` in this directory.
# The numbers are in hitm_lines.dat.
dat = 'hitm_lines.dat'
formats = 'png svg'
do for [fmt in formats] {
reset
if (fmt eq 'png') { set terminal pngcairo size 1300,752 noenhanced font 'sans,10' }
if (fmt eq 'svg') { set terminal svg size 1300,752 noenhanced dynamic font 'sans,10' background '#ffffff' }
set output 'hitm_lines.'.fmt
set title 'HITMs per cache line (hottest 128-byte pairs; bars: variants)'
set xlabel 'HITMs'
set style fill solid 0.9 border -1
set grid xtics
set key outside bottom left horizontal
set bmargin 5
set yrange [35.5:-0.6]
set xrange [0:15156]
set ytics scale 0 font ',9' ('mem_cgroup_per_node line 0 (memcg, lruvec_stats_percpu, lruvec_stats, ...)' 1.5, 'mem_cgroup_per_node line 1 (on_tree, lruvec.lists)' 4.0, 'mem_cgroup_per_node line 2 (lruvec.lists, lruvec.lru_lock, lruvec.anon_cost, ...)' 7.5, 'mem_cgroup_per_node line 3 (lruvec.refaults, lruvec.flags, lruvec.pgdat, ...)' 10.0, 'mem_cgroup_per_node line 4 (lru_zone_size)' 13.5, 'mem_cgroup_per_node line 5 (lru_zone_size)' 16.0, 'mem_cgroup line 4 (memory.usage, memory.failcnt)' 19.5, 'mem_cgroup line 5 (memory.emin, memory.min_usage, memory.children_min_usage, ...)' 22.0, 'mem_cgroup line 4 (memory.usage, memory.failcnt)' 25.5, 'mem_cgroup line 5 (memory.emin, memory.min_usage, memory.children_min_usage, ...)' 28.0, 'mcs_spinlock line 0' 31.5, 'mcs_spinlock line 1' 34.0)
set label 'before 12124' at first 12124, first 1.0 offset char 0.5,0 font ',8'
set label 'after 414' at first 414, first 2.0 offset char 0.5,0 font ',8'
set label 'before 12124' at first 12124, first 3.5 offset char 0.5,0 font ',8'
set label 'after 333' at first 333, first 4.5 offset char 0.5,0 font ',8'
set object 1 rect from graph 0, first -0.3 to graph 1, first 5.0 behind fc rgb '#e8e8f0' fs solid noborder
set label 'cg.pn[0], 128-byte pair 0 (lines 0-1)' at graph 0.99, first 0.2 right font ',8' tc rgb '#555577'
set label 'before 2115' at first 2115, first 7.0 offset char 0.5,0 font ',8'
set label 'after 1461' at first 1461, first 8.0 offset char 0.5,0 font ',8'
set label 'before 2110' at first 2110, first 9.5 offset char 0.5,0 font ',8'
set label 'after 1444' at first 1444, first 10.5 offset char 0.5,0 font ',8'
set object 2 rect from graph 0, first 5.7 to graph 1, first 11.0 behind fc rgb '#e8e8f0' fs solid noborder
set label 'cg.pn[0], 128-byte pair 1 (lines 2-3)' at graph 0.99, first 6.2 right font ',8' tc rgb '#555577'
set label 'before 544' at first 544, first 13.0 offset char 0.5,0 font ',8'
set label 'after 520' at first 520, first 14.0 offset char 0.5,0 font ',8'
set label 'before 544' at first 544, first 15.5 offset char 0.5,0 font ',8'
set label 'after 520' at first 520, first 16.5 offset char 0.5,0 font ',8'
set object 3 rect from graph 0, first 11.7 to graph 1, first 17.0 behind fc rgb '#e8e8f0' fs solid noborder
set label 'cg.pn[0], 128-byte pair 2 (lines 4-5)' at graph 0.99, first 12.2 right font ',8' tc rgb '#555577'
set label 'before 450' at first 450, first 19.0 offset char 0.5,0 font ',8'
set label 'after 496' at first 496, first 20.0 offset char 0.5,0 font ',8'
set label 'before 107' at first 107, first 21.5 offset char 0.5,0 font ',8'
set label 'after 106' at first 106, first 22.5 offset char 0.5,0 font ',8'
set object 4 rect from graph 0, first 17.7 to graph 1, first 23.0 behind fc rgb '#e8e8f0' fs solid noborder
set label 'cg.memcg, 128-byte pair 2 (lines 4-5)' at graph 0.99, first 18.1 right font ',8' tc rgb '#555577'
set label 'before 450' at first 450, first 25.0 offset char 0.5,0 font ',8'
set label 'after 496' at first 496, first 26.0 offset char 0.5,0 font ',8'
set label 'before 107' at first 107, first 27.5 offset char 0.5,0 font ',8'
set label 'after 106' at first 106, first 28.5 offset char 0.5,0 font ',8'
set object 5 rect from graph 0, first 23.7 to graph 1, first 29.0 behind fc rgb '#e8e8f0' fs solid noborder
set label 'root.memcg, 128-byte pair 2 (lines 4-5)' at graph 0.99, first 24.1 right font ',8' tc rgb '#555577'
set label 'before 21' at first 21, first 31.0 offset char 0.5,0 font ',8'
set label 'after 26' at first 26, first 32.0 offset char 0.5,0 font ',8'
set label 'before 0' at first 0, first 33.5 offset char 0.5,0 font ',8'
set label 'after 0' at first 0, first 34.5 offset char 0.5,0 font ',8'
set object 6 rect from graph 0, first 29.7 to graph 1, first 35.0 behind fc rgb '#e8e8f0' fs solid noborder
set label 'qnodes@13, 128-byte pair 0 (lines 0-1)' at graph 0.99, first 30.1 right font ',8' tc rgb '#555577'
plot dat index 0 using (($2+$3)/2):1:2:3:($1-0.4):($1+0.4) with boxxyerror lc rgb '#c0392b' title 'local HITM', \
     dat index 1 using (($2+$3)/2):1:2:3:($1-0.4):($1+0.4) with boxxyerror lc rgb '#5b2c6f' title 'remote HITM', \
     dat index 2 using (($2+$3)/2):1:2:3:($1-0.4):($1+0.4) with boxxyerror lc rgb '#f39c12' title 'prefetch HITM'
unset output
}
