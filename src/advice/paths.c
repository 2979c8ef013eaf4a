/* SPDX-License-Identifier: MIT */
/*
 * Lines each hot code path touches, before and after a proposal: the
 * issue's "lines each hot code path touches" figure (and the objective's
 * locality term, cost.c, on the same paths).
 *
 * A code path is a code location of the profile (slt_code_location): its
 * function (the symbol without a "+0x..." offset), else its source
 * "file.c:line".  A path touches every cache line of each member it has
 * samples on (the member's bytes; nested members where the profile names
 * them).  The instance starts on a line boundary, as pahole draws it.
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"

const char *slt_adv_path_key(struct slt_arena *ar,
			     const struct slt_code_location *l)
{
	const char *s = l->symbol && *l->symbol ? l->symbol : NULL;
	if (!s)
		return l->source && *l->source ? l->source : NULL;
	const char *plus = strstr(s, "+0x");
	if (!plus || plus == s)
		return s;
	return slt_arena_printf(ar, "%.*s", (int)(plus - s), s);
}

struct hit {
	size_t path;
	uint64_t line;
};

static int hit_cmp(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->path != y->path)
		return x->path < y->path ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Distinct (path, line) pairs of h[n], per path added into lines[]. */
static void count_lines(struct hit *h, size_t n, uint64_t *lines)
{
	qsort(h, n, sizeof(*h), hit_cmp);
	for (size_t i = 0; i < n; i++)
		if (!i || h[i].path != h[i - 1].path || h[i].line != h[i - 1].line)
			lines[h[i].path]++;
}

static int path_cmp(const void *a, const void *b)
{
	const struct slt_path_lines *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->path, y->path);
}

int slt_adv_path_lines(struct slt_arena *ar, const struct slt_adv_units *us,
		       const struct slt_adv_plan *p, const uint64_t *off,
		       struct slt_proposal *pr)
{
	const struct slt_struct *s = us->orig;
	const struct slt_access_profile *prof = us->a->profile;
	const uint64_t L = us->line ? us->line : 64;
	int64_t *delta = NULL;
	const char **names = NULL;
	uint64_t *samples = NULL, *lb = NULL, *la = NULL;
	struct hit *hb = NULL, *ha = NULL;
	size_t np = 0, nh = 0, cap = 0, hcap = 0;
	int rc = 0;

	pr->paths = NULL;
	pr->n_paths = 0;
	pr->n_paths_all = 0;
	pr->path_lines_before = pr->path_lines_after = 0;
	if (!prof || !s->n_members)
		return 0;
	delta = calloc(s->n_members, sizeof(*delta));
	if (!delta)
		return SLT_ENOMEM;
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_adv_unit *u = &us->u[p->order[i]];
		for (size_t t = 0; t < u->n_top; t++)
			delta[u->top[t]] = (int64_t)(off[i] + u->rel[t]) -
					   (int64_t)s->members[u->top[t]].offset;
	}
	for (size_t k = 0; k < s->n_members && !rc; k++) {
		const struct slt_member *m = &s->members[k];
		const struct slt_member_access *ma = &prof->members[k];
		size_t top = k;
		while (s->members[top].parent >= 0)
			top = (size_t)s->members[top].parent;
		/* a parent's counts sum its children's (anonymous structs and
		 * expanded nested ones): the children's are counted, once */
		bool sums = false;
		for (size_t c = k + 1; c < s->n_members && !sums; c++) {
			size_t q = c;
			while (s->members[q].parent >= 0 && (size_t)s->members[q].parent != k)
				q = (size_t)s->members[q].parent;
			if (s->members[q].parent < 0)
				break;   /* past k's descendants (pre-order) */
			sums = prof->members[c].n_locations > 0;
		}
		if (sums)
			continue;
		for (size_t l = 0; l < ma->n_locations && !rc; l++) {
			const struct slt_code_location *cl = &ma->locations[l];
			const char *key = slt_adv_path_key(ar, cl);
			size_t pi = 0;
			if (!key || !(cl->loads + cl->stores))
				continue;
			while (pi < np && strcmp(names[pi], key))
				pi++;
			if (pi == np) {
				if (np == cap) {
					size_t nc = cap ? cap * 2 : 16;
					void *a = realloc(names, nc * sizeof(*names));
					if (a)
						names = a;
					void *b = realloc(samples, nc * sizeof(*samples));
					if (b)
						samples = b;
					if (!a || !b) {
						rc = SLT_ENOMEM;
						break;
					}
					cap = nc;
				}
				names[np] = key;
				samples[np++] = 0;
			}
			samples[pi] += cl->loads + cl->stores;
			uint64_t sz = m->size ? m->size : 1;
			uint64_t b0 = m->offset / L, b1 = (m->offset + sz - 1) / L;
			uint64_t no = (uint64_t)((int64_t)m->offset + delta[top]);
			uint64_t a0 = no / L, a1 = (no + sz - 1) / L;
			size_t need = nh + (b1 - b0 + 1) + (a1 - a0 + 1);
			if (need > hcap) {
				size_t nc = need * 2;
				void *x = realloc(hb, nc * sizeof(*hb));
				if (x)
					hb = x;
				void *y = realloc(ha, nc * sizeof(*ha));
				if (y)
					ha = y;
				if (!x || !y) {
					rc = SLT_ENOMEM;
					break;
				}
				hcap = nc;
			}
			/* hb and ha share the count nh: pad the shorter with
			 * repeats of its last line (counted once) */
			for (uint64_t j = 0; j < b1 - b0 + 1 || j < a1 - a0 + 1; j++) {
				hb[nh] = (struct hit){ pi, b0 + (j <= b1 - b0 ? j : b1 - b0) };
				ha[nh++] = (struct hit){ pi, a0 + (j <= a1 - a0 ? j : a1 - a0) };
			}
		}
	}
	if (rc || !np)
		goto out;
	lb = calloc(np, sizeof(*lb));
	la = calloc(np, sizeof(*la));
	pr->paths = slt_arena_calloc(ar, np, sizeof(*pr->paths));
	if (!lb || !la || !pr->paths) {
		rc = SLT_ENOMEM;
		goto out;
	}
	count_lines(hb, nh, lb);
	count_lines(ha, nh, la);
	for (size_t i = 0; i < np; i++) {
		pr->paths[i] = (struct slt_path_lines){ names[i], samples[i], lb[i], la[i] };
		pr->path_lines_before += lb[i];
		pr->path_lines_after += la[i];
	}
	qsort(pr->paths, np, sizeof(*pr->paths), path_cmp);
	pr->n_paths_all = np;
	pr->n_paths = np < SLT_PATHS_SHOWN ? np : SLT_PATHS_SHOWN;
out:
	free(delta);
	free(names);
	free(samples);
	free(lb);
	free(la);
	free(hb);
	free(ha);
	return rc;
}
