# layout.gp - written by c2csim plot; restyle it and run `gnuplot layout.gp` in this directory.
# The numbers are in layout.dat.
dat = 'layout.dat'
formats = 'png svg'
do for [fmt in formats] {
reset
if (fmt eq 'png') { set terminal pngcairo size 1320,640 noenhanced font 'sans,10' }
if (fmt eq 'svg') { set terminal svg size 1320,640 noenhanced dynamic font 'sans,10' background '#ffffff' }
set output 'layout.'.fmt
set multiplot layout 1,2 title 'Struct layout: members on 64-byte lines, 128-byte pairs framed, shaded by HITMs'
set xrange [-1:78]
set xtics 0,8,64 font ',8'
set xlabel 'byte in the line'
set palette defined (0 '#ffffff', 1 '#f5b7b1', 2 '#e74c3c', 3 '#7b241c')
set cbrange [0:12124]
set cblabel 'HITMs of the member'
set ytics font ',8'
unset label
unset object
unset colorbox
set title 'before: cg.pn[0] (struct mem_cgroup_per_node)'
set yrange [8.75:-0.70]
set ytics ('line 0 +0x0' 0.00, 'line 1 +0x40' 1.00, 'line 2 +0x80' 2.35, 'line 3 +0xc0' 3.35, 'line 4 +0x100' 4.70, 'line 5 +0x140' 5.70, 'line 6 +0x180' 7.05, 'line 7 +0x1c0' 8.05)
set label 'memcg' at first 4.0, first 0.00 center font ',7' front
set label 'lruvec~' at first 12.0, first 0.00 center font ',7' front
set label 'lruvec~' at first 20.0, first 0.00 center font ',7' front
set label 'shrink~' at first 28.0, first 0.00 center font ',7' front
set label 'tree_node' at first 44.0, first 0.00 center font ',7' front
set label 'usage_~' at first 60.0, first 0.00 center font ',7' front
set label 'lruvec.lists' at first 36.0, first 1.00 center font ',7' front
set label 'lruvec.lists' at first 12.0, first 2.35 center font ',7' front
set label 'lr~' at first 26.0, first 2.35 center font ',7' front
set label 'anon_c~' at first 36.0, first 2.35 center font ',7' front
set label 'file_c~' at first 44.0, first 2.35 center font ',7' front
set label 'nonres~' at first 52.0, first 2.35 center font ',7' front
set label 'refaul~' at first 60.0, first 2.35 center font ',7' front
set label 'refaul~' at first 4.0, first 3.35 center font ',7' front
set label 'flags' at first 12.0, first 3.35 center font ',7' front
set label 'pgdat' at first 20.0, first 3.35 center font ',7' front
set label 'zswap_~' at first 28.0, first 3.35 center font ',7' front
set label 'lru_zone_size' at first 32.0, first 4.70 center font ',7' front
set label 'lru_zone_size' at first 32.0, first 5.70 center font ',7' front
set label 'lru_zone_size' at first 32.0, first 7.05 center font ',7' front
set label 'lru_zo~' at first 4.0, first 8.05 center font ',7' front
set label 'iter' at first 16.0, first 8.05 center font ',7' front
set object rect from first -0.5, first -0.55 to first 64.5, first 1.55 fs empty border lc rgb '#222222' lw 2.5 front
set object rect from first -0.5, first 1.80 to first 64.5, first 3.90 fs empty border lc rgb '#222222' lw 2.5 front
set object rect from first -0.5, first 4.15 to first 64.5, first 6.25 fs empty border lc rgb '#222222' lw 2.5 front
set object rect from first -0.5, first 6.50 to first 64.5, first 8.60 fs empty border lc rgb '#222222' lw 2.5 front
set label '12124 HITM' at first 65.5, first 0.00 left font ',8'
set label '12124 HITM' at first 65.5, first 1.00 left font ',8'
set label '2115 HITM' at first 65.5, first 2.35 left font ',8'
set label '2110 HITM' at first 65.5, first 3.35 left font ',8'
set label '544 HITM' at first 65.5, first 4.70 left font ',8'
set label '544 HITM' at first 65.5, first 5.70 left font ',8'
set label '0 HITM' at first 65.5, first 7.05 left font ',8'
set label '0 HITM' at first 65.5, first 8.05 left font ',8'
plot dat index 0 using 1:2:3:4:5:6:7 with boxxyerror fs solid 1.0 noborder lc palette notitle, dat index 0 using 1:2:3:4:5:6 with boxxyerror fs empty lc rgb '#555555' notitle
unset label
unset object
set colorbox
set title 'after: cg.pn[0] (struct mem_cgroup_per_node)'
set yrange [8.75:-0.70]
set ytics ('line 0 +0x0' 0.00, 'line 1 +0x40' 1.00, 'line 2 +0x80' 2.35, 'line 3 +0xc0' 3.35, 'line 4 +0x100' 4.70, 'line 5 +0x140' 5.70, 'line 6 +0x180' 7.05, 'line 7 +0x1c0' 8.05)
set label 'memcg' at first 4.0, first 0.00 center font ',7' front
set label 'lruvec~' at first 12.0, first 0.00 center font ',7' front
set label 'shrink~' at first 20.0, first 0.00 center font ',7' front
set label 'tree_node' at first 36.0, first 0.00 center font ',7' front
set label 'usage_~' at first 52.0, first 0.00 center font ',7' front
set label 'lruvec.lists' at first 32.0, first 1.00 center font ',7' front
set label 'lruvec.lists' at first 8.0, first 2.35 center font ',7' front
set label 'lr~' at first 18.0, first 2.35 center font ',7' front
set label 'anon_c~' at first 28.0, first 2.35 center font ',7' front
set label 'file_c~' at first 36.0, first 2.35 center font ',7' front
set label 'nonres~' at first 44.0, first 2.35 center font ',7' front
set label 'refaults' at first 56.0, first 2.35 center font ',7' front
set label 'flags' at first 4.0, first 3.35 center font ',7' front
set label 'pgdat' at first 12.0, first 3.35 center font ',7' front
set label 'zswap_~' at first 20.0, first 3.35 center font ',7' front
set label 'lru_zone_size' at first 32.0, first 4.70 center font ',7' front
set label 'lru_zone_size' at first 32.0, first 5.70 center font ',7' front
set label 'lru_zone_size' at first 32.0, first 7.05 center font ',7' front
set label 'lru_zo~' at first 4.0, first 8.05 center font ',7' front
set label 'iter' at first 16.0, first 8.05 center font ',7' front
set object rect from first -0.5, first -0.55 to first 64.5, first 1.55 fs empty border lc rgb '#222222' lw 2.5 front
set object rect from first -0.5, first 1.80 to first 64.5, first 3.90 fs empty border lc rgb '#222222' lw 2.5 front
set object rect from first -0.5, first 4.15 to first 64.5, first 6.25 fs empty border lc rgb '#222222' lw 2.5 front
set object rect from first -0.5, first 6.50 to first 64.5, first 8.60 fs empty border lc rgb '#222222' lw 2.5 front
set label '414 HITM' at first 65.5, first 0.00 left font ',8'
set label '333 HITM' at first 65.5, first 1.00 left font ',8'
set label '1461 HITM' at first 65.5, first 2.35 left font ',8'
set label '1444 HITM' at first 65.5, first 3.35 left font ',8'
set label '520 HITM' at first 65.5, first 4.70 left font ',8'
set label '520 HITM' at first 65.5, first 5.70 left font ',8'
set label '0 HITM' at first 65.5, first 7.05 left font ',8'
set label '0 HITM' at first 65.5, first 8.05 left font ',8'
plot dat index 1 using 1:2:3:4:5:6:7 with boxxyerror fs solid 1.0 noborder lc palette notitle, dat index 1 using 1:2:3:4:5:6 with boxxyerror fs empty lc rgb '#555555' notitle
unset multiplot
unset output
}
