/* SPDX-License-Identifier: MIT */
/*
 * structlint — class rules against a per-CPU profile: a rule that follows
 * from the members' classes (a hot-write member beside read-mostly ones)
 * is false sharing only when one CPU stores where another CPU accesses.
 * report scores that pair by pair (include/structlint/analysis.h); check
 * takes report's findings per line, so that both say the same of one
 * input: one CPU doing everything is no false sharing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "structlint/analysis.h"
#include "structlint/join.h"
#include "structlint/rules.h"

#define UNKNOWN (-3)   /* slt_gate_measured.cpu: a written member's
			  stores are not in the profile */

static bool false_sharing(enum slt_finding_kind k)
{
	return k == SLT_FIND_COLLISION || k == SLT_FIND_WRITE_WRITE ||
	       k == SLT_FIND_UNSEEN_WRITER || k == SLT_FIND_ELEMENT_SHARING;
}

int slt_gate_measured_of(const struct slt_analysis *a, struct slt_gate_measured *out)
{
	memset(out, 0, sizeof(*out));
	const struct slt_access_profile *p = a->profile;
	/* a loads-only profile cannot show whose stores a line takes */
	if (a->basis != SLT_BASIS_CPU || !p || !p->members || a->no_stores || a->line_origin ||
	    a->n_bases > 1 || !a->cacheline_size)
		return 0;
	uint64_t n = slt_cachelines(a->layout->size, a->cacheline_size) + 1;
	out->n_lines = n;
	out->threads = p->writers_threads;
	out->sharing = calloc(n, 1);
	out->cpu = malloc(n * sizeof(*out->cpu));
	out->struct_name = strdup(a->layout->name);
	if (!out->sharing || !out->cpu || !out->struct_name) {
		slt_gate_measured_release(out);
		return SLT_ENOMEM;
	}
	for (uint64_t L = 0; L < n; L++)
		out->cpu[L] = -1;
	for (size_t k = 0; k < p->n_cells; k++) {
		const struct slt_line_access *c = &p->cells[k];
		for (size_t i = 0; c->line < n && i < c->n_cpus; i++) {
			int32_t *w = &out->cpu[c->line];
			if (!c->cpus[i].loads && !c->cpus[i].stores)
				continue;
			*w = *w == -1 ? c->cpus[i].cpu : *w == c->cpus[i].cpu ? *w : -2;
		}
	}
	/* a line holding a member classed written (a classes file) whose
	 * stores the profile does not show: the writer's CPU is unknown */
	const struct slt_struct *s = a->layout;
	for (size_t m = 0; m < s->n_members; m++) {
		enum slt_class k = a->classes[m].cls;
		bool written = k == SLT_CLASS_HOT_WRITE || k == SLT_CLASS_MIXED ||
			       k == SLT_CLASS_TRUE_SHARED;
		if (!written || p->members[m].stores || !s->members[m].size)
			continue;
		uint64_t first, last;
		slt_member_lines(&s->members[m], a->cacheline_size, &first, &last);
		for (uint64_t L = first; L < n && L <= last; L++)
			out->cpu[L] = UNKNOWN;
	}
	for (size_t i = 0; i < a->n_findings; i++) {
		const struct slt_finding *f = &a->findings[i];
		for (uint64_t L = f->line; false_sharing(f->kind) && L <= f->line2 && L < n; L++)
			out->sharing[L] = 1;
	}
	return 1;
}

void slt_gate_measured_release(struct slt_gate_measured *m)
{
	free(m->struct_name);
	free(m->sharing);
	free(m->cpu);
	memset(m, 0, sizeof(*m));
}

int slt_gate_class_rules(struct slt_gate_result *r, size_t from,
			 const struct slt_gate_measured *m, size_t n)
{
	for (size_t i = from; i < r->n_violations; i++) {
		const struct slt_violation *v = &r->violations[i];
		if (!v->class_rule)
			continue;
		const struct slt_gate_measured *s = NULL;
		for (size_t k = 0; k < n && !s; k++)
			if (v->struct_name && !strcmp(m[k].struct_name, v->struct_name))
				s = &m[k];
		uint64_t L = v->class_line;
		char text[320];
		enum slt_severity sev = v->severity;
		if (s && L < s->n_lines && s->sharing[L])
			continue;   /* measured as report finds it */
		if (!s || L >= s->n_lines || s->cpu[L] == UNKNOWN) {
			snprintf(text, sizeof(text), "; a class rule (layout hygiene from the members' "
				 "classes), not a measured sharing finding");
		} else {
			sev = SLT_SEV_NOTE;
			if (s->cpu[L] >= 0)
				snprintf(text, sizeof(text), "; a class rule only: in the profile only "
					 "%s %" PRId32 " accesses cacheline %" PRIu64 ", and one %s "
					 "doing everything shares nothing (report finds no false "
					 "sharing there)", s->threads ? "thread" : "CPU", s->cpu[L], L,
					 s->threads ? "thread" : "CPU");
			else
				snprintf(text, sizeof(text), "; a class rule only: in the profile no "
					 "store by one %s meets an access of another member by "
					 "another on cacheline %" PRIu64 " (report finds no false "
					 "sharing there)", s->threads ? "thread" : "CPU", L);
		}
		if (slt_gate_amend(r, i, sev, text))
			return SLT_ENOMEM;
	}
	return 0;
}
