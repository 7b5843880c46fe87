# sweep.gp - written by c2csim plot; restyle it and run `gnuplot sweep.gp` in this directory.
# The numbers are in sweep.dat.
dat = 'sweep.dat'
formats = 'png svg'
do for [fmt in formats] {
reset
if (fmt eq 'png') { set terminal pngcairo size 1100,1260 noenhanced font 'sans,10' }
if (fmt eq 'svg') { set terminal svg size 1100,1260 noenhanced dynamic font 'sans,10' background '#ffffff' }
set output 'sweep.'.fmt
set multiplot layout 4,2 title 'Sweep'
set grid
set key top left font ',8'
set yrange [0:*]
set xlabel 'threads'
set title 'throughput (actor-loop iterations per simulated second)'
plot dat index 0 using 1:2 with linespoints pt 7 title 'before', \
     dat index 1 using 1:2 with linespoints pt 7 title 'after'
set title 'lock wait, all locks (us of contended waiting)'
plot dat index 2 using 1:2 with linespoints pt 7 title 'before', \
     dat index 3 using 1:2 with linespoints pt 7 title 'after'
set title 'local HITMs'
plot dat index 4 using 1:2 with linespoints pt 7 title 'before', \
     dat index 5 using 1:2 with linespoints pt 7 title 'after'
set title 'remote HITMs'
plot dat index 6 using 1:2 with linespoints pt 7 title 'before', \
     dat index 7 using 1:2 with linespoints pt 7 title 'after'
set title 'pn line 0 HITMs from the stat update paths'
plot dat index 8 using 1:2 with linespoints pt 7 title 'before', \
     dat index 9 using 1:2 with linespoints pt 7 title 'after'
set title 'pages faulted and freed per second'
plot dat index 10 using 1:2 with linespoints pt 7 title 'before', \
     dat index 11 using 1:2 with linespoints pt 7 title 'after'
set title 'HITMs on pn line 2 (lru_lock''s line in 6.18)'
plot dat index 12 using 1:2 with linespoints pt 7 title 'before', \
     dat index 13 using 1:2 with linespoints pt 7 title 'after'
unset multiplot
unset output
}
