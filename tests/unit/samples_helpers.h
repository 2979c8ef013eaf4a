/* SPDX-License-Identifier: MIT */
/* Shared by test_c2c.c and test_datatype.c: collect sample records. */
#ifndef TEST_SAMPLES_HELPERS_H
#define TEST_SAMPLES_HELPERS_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "structlint/samples.h"

struct rec {
	struct slt_sample s;
	char type[128], sym[128], src[128], obj[128], ev[128];
	uint16_t cpus[64];
};
struct coll {
	struct rec r[64];
	size_t n;
	int stop_after;  /* return 7 after this many records when > 0 */
};

static int collect(void *ctx, const struct slt_sample *s)
{
	struct coll *c = ctx;
	if (c->n < 64) {
		struct rec *r = &c->r[c->n];
		r->s = *s;
		snprintf(r->type, sizeof(r->type), "%s", s->type_name ? s->type_name : "");
		snprintf(r->sym, sizeof(r->sym), "%s", s->symbol ? s->symbol : "");
		snprintf(r->src, sizeof(r->src), "%s", s->source ? s->source : "");
		snprintf(r->obj, sizeof(r->obj), "%s", s->object ? s->object : "");
		snprintf(r->ev, sizeof(r->ev), "%s", s->event ? s->event : "");
		for (size_t i = 0; i < s->n_cpus && i < 64; i++)
			r->cpus[i] = s->cpus[i];
	}
	c->n++;
	if (c->stop_after > 0 && (int)c->n >= c->stop_after)
		return 7;
	return 0;
}

#define FX "fixtures/samples/c2c/"

static int read_fx(const char *path, enum slt_samples_format f, struct coll *c,
		   struct slt_samples_info *info, struct slt_error *err)
{
	memset(c, 0, sizeof(*c));
	slt_error_clear(err);
	return slt_samples_read(path, f, collect, c, info, err);
}

static int read_str(const char *s, enum slt_samples_format f, struct coll *c,
		    struct slt_samples_info *info, struct slt_error *err)
{
	memset(c, 0, sizeof(*c));
	slt_error_clear(err);
	return slt_samples_read_mem(s, strlen(s), "test", f, collect, c, info, err);
}
#endif
