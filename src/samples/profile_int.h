/* SPDX-License-Identifier: MIT */
/*
 * Internal to the JSON profile reader (profile.c): the parse context, the
 * path from the root to the value being read, typed value getters, and
 * errors that name the JSON line and column of that value
 * (profile_json.c).
 */
#ifndef SLT_SAMPLES_PROFILE_INT_H
#define SLT_SAMPLES_PROFILE_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/samples.h"

#define MAX_STRING 65536          /* bytes in one string value */
#define MAX_PATH 8                /* JSON nesting the format uses */

/* One step of the path from the root to the value being read. */
struct step {
	const char *key;    /* object key, or NULL for an array index */
	size_t index;
};

struct pctx {
	const char *text;
	size_t size;
	const char *name;
	struct slt_error *err;
	slt_sample_cb cb;
	void *cbctx;
	struct slt_samples_info *info;
	struct step path[MAX_PATH];
	size_t depth;
	bool dry;               /* validation pass: deliver nothing */
	bool reread;            /* an entry's rows read the second time */
	uint16_t *cpus;         /* reusable buffer for "cpus" */
	size_t cpus_cap;
};

/* Record the error code at byte offset off of the text: err->line is the
 * JSON line, err->offset the byte, the message starts "column N: ".
 * Returns code. */
int slt_pj_fail_at(struct pctx *pc, size_t off, int code, const char *hint,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Byte offset of the value pc->path points to. */
size_t slt_pj_locate(const struct pctx *pc);
size_t slt_pj_skip_ws(const char *p, size_t n, size_t i);

/* Error at the value the current path points to. */
#define FAIL(pc, hint, ...) \
	slt_pj_fail_at((pc), slt_pj_locate(pc), SLT_ECORRUPT, (hint), __VA_ARGS__)

void slt_pj_push_key(struct pctx *pc, const char *key);
void slt_pj_push_index(struct pctx *pc, size_t index);
void slt_pj_pop(struct pctx *pc);

/* "an object", "a string", ... for messages. */
const char *slt_pj_kind(const json_t *v);
/* Unsigned 64-bit value: integer >= 0, or a decimal / 0x-hex string. */
int slt_pj_u64(struct pctx *pc, const char *key, const json_t *v,
	       uint64_t *out);
/* Integer in lo..hi. */
int slt_pj_int(struct pctx *pc, const char *key, const json_t *v,
	       int64_t lo, int64_t hi, int64_t *out);
/* String of at most MAX_STRING bytes (non-empty when asked). */
int slt_pj_str(struct pctx *pc, const char *key, const json_t *v,
	       bool nonempty, const char **out);

#endif
