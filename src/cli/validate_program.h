/* SPDX-License-Identifier: MIT */
/*
 * `validate --source-root DIR --build CMD --run CMD` (validate_program.c):
 * the user's program built and run with and without the proposal.
 */
#ifndef SLT_CLI_VALIDATE_PROGRAM_H
#define SLT_CLI_VALIDATE_PROGRAM_H

#include "structlint/validate.h"

struct cli_program_opts {
	const char *root;        /* --source-root DIR */
	const char *build;       /* --build CMD, run by sh -c in each copy */
	const char *run;         /* --run CMD, timed, in each copy */
	unsigned rounds;         /* ABBA rounds (validate's --rounds) */
	double level;            /* confidence level (0: 0.95) */
	bool realtime;           /* validate --realtime: the timed runs of
				    o->run start SCHED_RR priority 1 (the
				    command's threads inherit it), the
				    sampling thread 2 meanwhile; the caller
				    has checked the right to (the engine's
				    runs come first) */
	double min_overlap;      /* no verdict when a side's threads ran at
				    once for less than this share (0..1) of
				    the wall time, at most (0: no floor) */
};

/*
 * Copy o->root twice under a new directory in /tmp (A as is, B with diff,
 * a unified diff relative to the root, applied by patch -p1), build both
 * with o->build, run o->run once per side (discarded), then o->rounds
 * ABBA rounds, and fill *r (slt_program_result: wall and CPU seconds per
 * run, medians, the paired intervals of the speeds 1/time, the verdict
 * from the wall-time interval).  The copies are removed.  Returns 0, or
 * SLT_EIO naming the step that failed (copy, patch, build A/B, run A/B),
 * SLT_ENOMEM.  Free r with cli_program_result_free().
 */
int cli_program_run(const struct cli_program_opts *o, const char *diff,
		    struct slt_program_result *r, struct slt_error *err);
void cli_program_result_free(struct slt_program_result *r);

#endif
