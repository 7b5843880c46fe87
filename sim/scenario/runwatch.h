/*
 * runwatch.h - the host watching a run: interruption (SIGINT, SIGTERM) and progress.
 *
 * Design
 * ------
 * The run loop (run.c) calls runwatch_poll() every RUNWATCH_EVENTS dispatched events.  It
 * returns true once SIGINT or SIGTERM has arrived: the loop then stops between two events and
 * the result is marked interrupted (run_result.interrupted); the CLI writes what was measured,
 * marked incomplete, and exits 128 + the signal (130, 143).  A second signal while the first
 * is being honoured ends the process at once (the default action).
 *
 * Progress: with runwatch_begin(true) and stderr a terminal, a run that has lasted 2 s of host
 * time shows one line on stderr, rewritten every half second: the variant, the simulated time
 * reached (of the end time), the events, and the host time left, extrapolated from the
 * simulated time still to go.  runwatch_end() erases it.
 *
 * Determinism: nothing here is read by the simulation.  The host clock is read only for the
 * progress line, and the poll interval counts events, so where a run stops depends on when
 * the signal came, but an uninterrupted run is the same with or without the watch.
 *
 * State: the signal flag is necessarily process-wide (a handler has no context), and so is the
 * progress line it shares stderr with; both are file-scope statics of runwatch.c.
 */
#ifndef C2C_RUNWATCH_H
#define C2C_RUNWATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/types.h"

/* Events between two polls: a few microseconds of host time, so a stop takes well under 1 s. */
#define RUNWATCH_EVENTS 4096

/* Host seconds before the progress line appears, and between its updates. */
#define RUNWATCH_QUIET_S 2.0
#define RUNWATCH_EVERY_S 0.5

/* runwatch_begin - catch SIGINT and SIGTERM; show progress when @progress and stderr is a
 * terminal.  Can't fail. */
void runwatch_begin(bool progress);

/* runwatch_end - the default signal actions back; the progress line erased.
 * Return: the signal that asked to stop (SIGINT, SIGTERM), or 0. */
int runwatch_end(void);

/* runwatch_signal - the signal that asked to stop so far, or 0. */
int runwatch_signal(void);

/* runwatch_flag - where the signal is kept (non-zero once one arrived): the interpreter reads
 * it between instructions (world.stop), so a long path call stops too. */
const volatile sig_atomic_t *runwatch_flag(void);

/* runwatch_poll - called by the run loop: @variant (index @idx: of variants running at once,
 * the first shows its progress) reached simulated time @now (of @end; 0: no end time) after
 * @events events.  Return: true when the run must stop (a signal came). */
bool runwatch_poll(const char *variant, uint32_t idx, simtime_t now, simtime_t end,
		   uint64_t events);

/* runwatch_signame - "SIGINT", "SIGTERM" or "signal N" (a static string). */
const char *runwatch_signame(int signo);

#endif
