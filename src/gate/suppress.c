/* SPDX-License-Identifier: MIT */
/*
 * structlint — suppressions: entries {rule, struct, member?, reason}
 * (fnmatch globs) that mark matching gate violations as accepted.  Read
 * from a baseline's "suppressions" array or a structlint.suppressions/v1
 * file (baseline_read.c); applied here.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "gate/baseline_int.h"

int slt_bl_push_suppression(struct slt_suppressions *s, size_t *cap,
			    struct slt_arena *a, const struct slt_suppression *e)
{
	if (s->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		struct slt_suppression *ne = realloc(s->entries, nc * sizeof(*ne));
		if (!ne)
			return -1;
		s->entries = ne;
		*cap = nc;
	}
	struct slt_suppression c = {
		.rule = slt_arena_strdup(a, e->rule),
		.struct_name = slt_arena_strdup(a, e->struct_name),
		.member = slt_arena_strdup(a, e->member),
		.reason = slt_arena_strdup(a, e->reason),
		.where = slt_arena_strdup(a, e->where ? e->where : ""),
	};
	if (!c.rule || !c.struct_name || (e->member && !c.member) ||
	    !c.reason || !c.where)
		return -1;
	s->entries[s->n++] = c;
	return 0;
}

static bool matches(const struct slt_suppression *e,
		    const struct slt_violation *v)
{
	if (fnmatch(e->rule, v->rule ? v->rule : "", 0) != 0)
		return false;
	if (fnmatch(e->struct_name, v->struct_name ? v->struct_name : "", 0) != 0)
		return false;
	if (!e->member)
		return true;
	return v->member && fnmatch(e->member, v->member, 0) == 0;
}

bool slt_suppressions_match(const struct slt_suppressions *s,
			    struct slt_violation *v)
{
	if (!s || v->suppressed)
		return v->suppressed;
	for (size_t k = 0; k < s->n; k++) {
		if (matches(&s->entries[k], v)) {
			v->suppressed = true;
			v->suppress_reason = s->entries[k].reason;
			return true;
		}
	}
	return false;
}

void slt_suppressions_apply(const struct slt_suppressions *s,
			    struct slt_gate_result *r, size_t from)
{
	for (size_t i = from; s && i < r->n_violations; i++)
		slt_suppressions_match(s, &r->violations[i]);
}

void slt_suppressions_free(struct slt_suppressions *s)
{
	if (!s)
		return;
	slt_arena_free(s->priv_);
	free(s->entries);
	free(s);
}
