/* SPDX-License-Identifier: MIT */
/* The stats mode lines of `engine` and `validate` (engine_out.c): one
 * text and one JSON form for both reports. */
#ifndef SLT_REPORT_ENGINE_MODE_H
#define SLT_REPORT_ENGINE_MODE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "structlint/engine.h"

/* "stats mode: ..." and "locks: ..." lines (each after indent) of a
 * stats run in mode m
 * with counters c, spinning locks or not, options o (may be NULL). */
void slt_engine_mode_text(FILE *f, const char *indent, enum slt_stats_mode m,
			  const struct slt_engine_counters *c, bool spin,
			  const struct slt_engine_opts *o);
/* The "stats" object of the engine and validate JSON (the same facts). */
json_t *slt_engine_mode_json(enum slt_stats_mode m,
			     const struct slt_engine_counters *c, bool spin,
			     const struct slt_engine_opts *o, bool *bad);

#endif
