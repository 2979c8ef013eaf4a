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

/* The two built copies of --source-root (cli_program_prepare()). */
struct cli_program_tree {
	char dir[64];            /* the temporary directory ("": none) */
	char a[72], b[72];       /* its A and B copies */
	bool a_built;            /* A copied and built (cli_program_build_a()) */
};

/*
 * Copy o->root to t's A and build it (as cli_program_prepare() does),
 * before FILE is read: validate --build with a FILE not built yet reads
 * it from A's copy.  r zeroed, then build_a_s.  Returns as
 * cli_program_prepare().
 */
int cli_program_build_a(const struct cli_program_opts *o, struct cli_program_tree *t,
			struct slt_program_result *r, struct slt_error *err);

/*
 * Copy o->root twice under a new directory in /tmp (t; A as is, B with
 * diff, a unified diff relative to the root, applied by patch -p1) and
 * build both with o->build (its output kept in a log; when a build fails,
 * the log's last lines go to standard error before the error), filling
 * r->build_a_s and r->build_b_s (A's copy and build skipped when
 * cli_program_build_a() did them).  Done before anything is measured, so
 * that a broken build fails fast.  Returns 0, or SLT_EIO naming the step
 * that failed (copy, patch, build A/B).  t stays until
 * cli_program_tree_free(), also on error.
 */
int cli_program_prepare(const struct cli_program_opts *o, const char *diff,
			struct cli_program_tree *t, struct slt_program_result *r,
			struct slt_error *err);

/*
 * Run o->run once per side in t's copies (discarded), then o->rounds ABBA
 * rounds (progress, may be NULL, called before each round with the
 * 0-based round and the number of rounds), and fill the rest of *r
 * (slt_program_result: wall and CPU seconds per run, medians, the paired
 * intervals of the speeds 1/time, the verdict from the wall-time
 * interval).  Returns 0, or SLT_EIO naming the run that failed,
 * SLT_ENOMEM.  Free r with cli_program_result_free().
 */
int cli_program_measure(const struct cli_program_opts *o, const struct cli_program_tree *t,
			void (*progress)(unsigned round, unsigned rounds),
			struct slt_program_result *r, struct slt_error *err);
void cli_program_result_free(struct slt_program_result *r);
/* Remove t's directory (nothing when there is none). */
void cli_program_tree_free(struct cli_program_tree *t);

#endif
