/* SPDX-License-Identifier: MIT */
/* structlint — the violation list every gate check appends to. */
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "structlint/gate.h"

const char *slt_severity_name(enum slt_severity s)
{
	switch (s) {
	case SLT_SEV_NOTE: return "note";
	case SLT_SEV_WARNING: return "warning";
	case SLT_SEV_ERROR: return "error";
	}
	return "error";
}

struct gate_priv {
	struct slt_arena *arena;
	size_t cap;
};

int slt_gate_result_new(struct slt_gate_result **out, struct slt_error *err)
{
	*out = NULL;
	struct slt_gate_result *r = calloc(1, sizeof(*r));
	struct gate_priv *p = calloc(1, sizeof(*p));
	if (r && p)
		p->arena = slt_arena_new();
	if (!r || !p || !p->arena) {
		free(r);
		free(p);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL,
				     "out of memory");
	}
	r->priv_ = p;
	*out = r;
	return 0;
}

static const char *dup(struct slt_arena *a, const char *s, bool *bad)
{
	if (!s)
		return NULL;
	char *d = slt_arena_strdup(a, s);
	if (!d)
		*bad = true;
	return d;
}

int slt_gate_add(struct slt_gate_result *r, const struct slt_violation *v)
{
	struct gate_priv *p = r->priv_;
	if (r->n_violations == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct slt_violation *nv =
			realloc(r->violations, cap * sizeof(*nv));
		if (!nv)
			return SLT_ENOMEM;
		r->violations = nv;
		p->cap = cap;
	}
	bool bad = false;
	struct slt_violation c = *v;
	c.rule = dup(p->arena, v->rule, &bad);
	c.struct_name = dup(p->arena, v->struct_name, &bad);
	c.member = dup(p->arena, v->member, &bad);
	c.message = dup(p->arena, v->message, &bad);
	c.decl_file = dup(p->arena, v->decl_file ? v->decl_file : "", &bad);
	c.source = dup(p->arena, v->source, &bad);
	c.suppress_reason = dup(p->arena, v->suppress_reason, &bad);
	c.bases = dup(p->arena, v->bases, &bad);
	if (bad)
		return SLT_ENOMEM;
	r->violations[r->n_violations++] = c;
	return 0;
}

void slt_gate_mark_class(struct slt_gate_result *r, uint64_t line)
{
	if (r->n_violations) {
		r->violations[r->n_violations - 1].class_rule = true;
		r->violations[r->n_violations - 1].class_line = line;
	}
}

int slt_gate_amend(struct slt_gate_result *r, size_t i, enum slt_severity sev,
		   const char *suffix)
{
	struct gate_priv *p = r->priv_;
	struct slt_violation *v = &r->violations[i];
	size_t a = v->message ? strlen(v->message) : 0, b = strlen(suffix);
	char *m = slt_arena_alloc(p->arena, a + b + 1);
	if (!m)
		return SLT_ENOMEM;
	memcpy(m, v->message ? v->message : "", a);
	memcpy(m + a, suffix, b + 1);
	v->message = m;
	v->severity = sev;
	return 0;
}

size_t slt_gate_failures(const struct slt_gate_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_violations; i++)
		if (r->violations[i].severity == SLT_SEV_ERROR &&
		    !r->violations[i].suppressed)
			n++;
	return n;
}

void slt_gate_result_free(struct slt_gate_result *r)
{
	if (!r)
		return;
	struct gate_priv *p = r->priv_;
	if (p) {
		slt_arena_free(p->arena);
		free(p);
	}
	free(r->violations);
	free(r);
}
