# locks.gp - written by c2csim plot; restyle it and run `gnuplot locks.gp` in this directory.
# The numbers are in locks.dat.
dat = 'locks.dat'
formats = 'png svg'
do for [fmt in formats] {
reset
if (fmt eq 'png') { set terminal pngcairo size 1100,390 noenhanced font 'sans,10' }
if (fmt eq 'svg') { set terminal svg size 1100,390 noenhanced dynamic font 'sans,10' background '#ffffff' }
set output 'locks.'.fmt
set multiplot layout 1,2 title 'Lock wait (contended acquisitions) and hold times'
set logscale x
set format x '%.0s%c'
set xlabel 'ns (log scale)'
set ylabel '% of samples'
set yrange [0:*]
set grid
set key top right font ',8'
set title 'cg.pn[0].lruvec.lru_lock: wait time'
plot dat index 0 using (sqrt($1*$2)):($3/2):1:2:(0):3 with boxxyerror lc rgb '#c0392b' fs transparent solid 0.35 border title 'before', \
     dat index 1 using (sqrt($1*$2)):($3/2):1:2:(0):3 with boxxyerror lc rgb '#2874a6' fs transparent solid 0.35 border title 'after'
set title 'cg.pn[0].lruvec.lru_lock: hold time'
plot dat index 2 using (sqrt($1*$2)):($3/2):1:2:(0):3 with boxxyerror lc rgb '#c0392b' fs transparent solid 0.35 border title 'before', \
     dat index 3 using (sqrt($1*$2)):($3/2):1:2:(0):3 with boxxyerror lc rgb '#2874a6' fs transparent solid 0.35 border title 'after'
unset multiplot
unset output
}
