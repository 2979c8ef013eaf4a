/* SPDX-License-Identifier: MIT */
/*
 * The pair estimator of false sharing on one cache line, shared by the
 * findings (findings.c) and the advisor's cost (src/advice/cost.c).
 *
 * Accesses on a line are kept per (unit, CPU), where a unit is the
 * outermost named member holding an innermost one (slt_member_unit()):
 * anonymous structs and unions are transparent, a named nested struct or
 * union counts as one, with or without --expand.  Then
 *
 *   per-CPU:  sum over units U != V, CPUs c != d of
 *             min(stores of U by c, loads + stores of V by d)
 *
 * every (store of U on c, access of V on d) pair, whatever else c and d
 * do: when every CPU writes U and reads V, V's loads are still falsely
 * shared with U's stores (moving V away removes them) while U's own
 * traffic is true sharing, which is not counted here.
 *
 * Accesses made together are not false sharing: when the profile places
 * each access in the code (symbol+offset or ip), V's accesses in the same
 * stretch of code as an access to U (one function, accesses at most
 * SLT_TOGETHER_WINDOW bytes of code apart) are left out of V's side of the pair: that operation takes
 * the line for U anyway (members updated together under one lock,
 * counters a charge path bumps one after the other) and V's access hits
 * it; moving V away would add a miss, not remove one.  The accesses kept
 * are V's accesses times apart(U, V) = the share of V's located accesses
 * not made together with U; without code places apart is 1.
 *
 * Why only a stretch of code, not a function: a miss on V's access by
 * CPU d is false sharing when it is caused by a store to U on CPU c and
 * would not happen with V on another line.  Only when d's access to V
 * directly follows (or precedes) its own access to U is the line d's at
 * that moment; anywhere else in the function, or in a function that
 * inlines the store of U (mmgrab() in context_switch) and loads V later,
 * c's stores take the line in between, and every (store of U on c,
 * access of V on d) pair counts whatever else c and d do (issue 11).  A
 * stretch's accesses to V are together with U's only as often as U is
 * accessed there: min(V's, U's accesses) are together, the rest are
 * apart.  Code places carry no CPU, so a stretch is counted over all
 * CPUs and then checked per CPU (pair_acc()): a CPU that never
 * touches U makes none of its V accesses together with U, wherever in
 * the code they are (a loop loading V on one CPU beside a loop storing U
 * on another is false sharing even when both loops are one stretch).
 *
 *   classes:  read-mostly units x written units on the line, minus the
 *             units that are both, plus the pairs of written units whose
 *             writer labels (hot-write:LABEL) differ (slt_class_line_*:
 *             counted per group as its run of leaves ends, no table).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"

/* A group's accesses usually arrive together (a unit's members are
 * consecutive): entries of the group last added are looked for from where
 * it started, others in all. */
static struct slt_pair_acc *find(struct slt_pairs *p, size_t group,
				 int32_t cpu)
{
	size_t from = p->n && p->v[p->n - 1].group == group ? p->gstart : 0;
	for (size_t k = from; k < p->n; k++)
		if (p->v[k].group == group && p->v[k].cpu == cpu)
			return &p->v[k];
	if (!p->n || p->v[p->n - 1].group != group)
		p->gstart = p->n;
	if (p->n == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 16;
		void *q = realloc(p->v, nc * sizeof(*p->v));
		if (!q)
			return NULL;
		p->v = q;
		p->cap = nc;
	}
	struct slt_pair_acc *e = &p->v[p->n++];
	memset(e, 0, sizeof(*e));
	e->group = group;
	e->cpu = cpu;
	return e;
}

int slt_pairs_add(struct slt_pairs *p, size_t group,
		  const struct slt_cpu_access *c, size_t nc, double scale)
{
	for (size_t i = 0; i < nc; i++) {
		struct slt_pair_acc *e = find(p, group, c[i].cpu);
		if (!e)
			return SLT_ENOMEM;
		e->loads += (double)c[i].loads * scale;
		e->stores += (double)c[i].stores * scale;
	}
	return 0;
}

int slt_pairs_locs(struct slt_pairs *p, size_t group,
		   const struct slt_code_location *l, size_t n)
{
	if (!n)
		return 0;
	if (p->n_locs == p->cap_locs) {
		size_t nc = p->cap_locs ? p->cap_locs * 2 : 8;
		void *q = realloc(p->locs, nc * sizeof(*p->locs));
		if (!q)
			return SLT_ENOMEM;
		p->locs = q;
		p->cap_locs = nc;
	}
	p->locs[p->n_locs++] = (struct slt_pair_locs){ group, l, n };
	return 0;
}

/* Located accesses in one function whose code addresses follow one
 * another with gaps of at most SLT_TOGETHER_WINDOW bytes are one stretch
 * of straight code (a run of loads and stores a few instructions apart):
 * the line taken for the first serves the next. */
#define SLT_TOGETHER_WINDOW 64

/* A location's place in the code: its function and offset from its
 * symbol ("func+0x1c"), else its function (a symbol without an offset, as
 * perf c2c rows give it) and its ip, else its ip alone (fn_len 0); false
 * when it has no offset and no ip (a bare function name or a source line
 * says which function, not where in it).  Places in different functions
 * are never one stretch, however close their ips. */
struct place {
	const char *fn;
	size_t fn_len;
	bool by_ip;                /* pos is the ip, not an offset in fn */
	uint64_t pos;
	size_t k;                  /* the location's index, flattened */
};

static bool code_pos(const struct slt_code_location *l, struct place *pl)
{
	pl->fn = "";
	pl->fn_len = 0;
	pl->by_ip = true;
	pl->pos = l->ip;
	if (l->symbol && l->symbol[0]) {
		const char *plus = strstr(l->symbol, "+0x");
		char *e;
		unsigned long long v = plus ? strtoull(plus + 3, &e, 16) : 0;
		pl->fn = l->symbol;
		if (plus && e != plus + 3) {
			pl->fn_len = (size_t)(plus - l->symbol);
			pl->by_ip = false;
			pl->pos = v;
			return true;
		}
		pl->fn_len = strlen(l->symbol);
	}
	return pl->pos != 0;
}

static int place_cmp(const void *x, const void *y)
{
	const struct place *a = x, *b = y;
	size_t n = a->fn_len < b->fn_len ? a->fn_len : b->fn_len;
	int c = memcmp(a->fn, b->fn, n);
	if (c)
		return c;
	if (a->fn_len != b->fn_len)
		return a->fn_len < b->fn_len ? -1 : 1;
	if (a->by_ip != b->by_ip)
		return a->by_ip ? 1 : -1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The stretch of code of every location of the line (flattened over
 * p->locs in order), SIZE_MAX for one without a place; NULL without
 * memory. */
static size_t *stretches(const struct slt_pairs *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n_locs; i++)
		n += p->locs[i].n;
	size_t *id = malloc((n ? n : 1) * sizeof(*id));
	struct place *v = malloc((n ? n : 1) * sizeof(*v));
	if (!id || !v) {
		free(v);
		free(id);
		return NULL;
	}
	size_t m = 0, k = 0;
	for (size_t i = 0; i < p->n_locs; i++)
		for (size_t j = 0; j < p->locs[i].n; j++, k++) {
			id[k] = SIZE_MAX;
			if (code_pos(&p->locs[i].l[j], &v[m]))
				v[m++].k = k;
		}
	qsort(v, m, sizeof(*v), place_cmp);
	size_t cur = 0;
	for (size_t i = 0; i < m; i++) {
		if (i && (v[i].fn_len != v[i - 1].fn_len ||
			  memcmp(v[i].fn, v[i - 1].fn, v[i].fn_len) ||
			  v[i].by_ip != v[i - 1].by_ip ||
			  v[i].pos - v[i - 1].pos > SLT_TOGETHER_WINDOW))
			cur++;
		id[v[i].k] = cur;
	}
	free(v);
	return id;
}

/* Group g's located accesses in stretch st. */
static double group_in(const struct slt_pairs *p, const size_t *id, size_t g, size_t st)
{
	double acc = 0;
	for (size_t i = 0, k = 0; i < p->n_locs; i++)
		for (size_t j = 0; j < p->locs[i].n; j++, k++)
			if (p->locs[i].group == g && id[k] == st)
				acc += (double)(p->locs[i].l[j].loads + p->locs[i].l[j].stores);
	return acc;
}

/* apart(U, V): the share of V's located accesses not made together with
 * U's, 1 without locations.  Together means in one stretch of code (one
 * operation on one CPU, stretches() above), never merely in one function:
 * a function that stores U and, further on or in an inlined callee,
 * loads V (mmgrab() inlined in context_switch storing mm_struct.mm_count,
 * the loads of pgd later) may have lost the line to another CPU's store
 * of U in between, so every such pair counts.  V's accesses in a stretch
 * ride on U's only as often as U is accessed there: min(V's, U's accesses
 * in it) are together, the rest are apart. */
static double apart(const struct slt_pairs *p, const size_t *id, size_t u, size_t v)
{
	double all = 0, free = 0;
	for (size_t i = 0, k = 0; i < p->n_locs; i++)
		for (size_t j = 0; j < p->locs[i].n; j++, k++) {
			if (p->locs[i].group != v)
				continue;
			const struct slt_code_location *l = &p->locs[i].l[j];
			double a = (double)(l->loads + l->stores);
			double up = id[k] == SIZE_MAX ? 0 : group_in(p, id, u, id[k]);
			all += a;
			if (up <= 0) {
				free += a;
				continue;
			}
			/* V's accesses in the stretch (V may have several
			 * locations there), shared out in proportion */
			double vp = group_in(p, id, v, id[k]);
			free += a - (vp > 0 ? a * (up < vp ? up : vp) / vp : 0);
		}
	return all > 0 ? free / all : 1;
}

/* The groups on the line, once each (at most n of them). */
static size_t groups_of(const struct slt_pairs *p, size_t *g)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++) {
		size_t k = 0;
		while (k < n && g[k] != p->v[i].group)
			k++;
		if (k == n)
			g[n++] = p->v[i].group;
	}
	return n;
}

/* apart() for every ordered pair of the line's groups into w[ng x ng]
 * (NULL: no locations, every apart is 1). */
static double *apart_table(const struct slt_pairs *p, size_t *g, size_t *ng)
{
	*ng = groups_of(p, g);
	if (!p->n_locs || !*ng)
		return NULL;
	double *w = malloc(*ng * *ng * sizeof(*w));
	size_t *id = w ? stretches(p) : NULL;
	if (!id) {
		free(w);
		return NULL;
	}
	for (size_t a = 0; a < *ng; a++)
		for (size_t b = 0; b < *ng; b++)
			w[a * *ng + b] = a == b ? 0 : apart(p, id, g[a], g[b]);
	free(id);
	return w;
}

static size_t gidx(const size_t *g, size_t ng, size_t group)
{
	size_t k = 0;
	while (k < ng && g[k] != group)
		k++;
	return k;
}

/* touches[gi * p->n + k]: group g[gi] is accessed on the CPU of entry k
 * (the per-CPU check of apart(), see the top of this file).  n x ng
 * flags, filled in O(n^2) as cross() is; NULL without memory (then the
 * check is left out: the stretch over all CPUs). */
static bool *touch_table(const struct slt_pairs *p, const size_t *g, size_t ng)
{
	size_t cells = ng * p->n;
	bool *on = calloc(cells ? cells : 1, sizeof(*on));
	if (!on)
		return NULL;
	for (size_t x = 0; x < p->n; x++) {
		if (p->v[x].loads + p->v[x].stores <= 0)
			continue;
		size_t gi = gidx(g, ng, p->v[x].group);
		for (size_t k = 0; k < p->n; k++)
			if (p->v[k].cpu == p->v[x].cpu)
				on[gi * p->n + k] = true;
	}
	return on;
}

/* What the three entry points below share for one line: its groups g
 * (once each), the apart() table w over them (NULL: no code places, every
 * apart is 1) and the per-CPU touch table (NULL with w NULL). */
struct line_tables {
	size_t *g, ng;
	double *w;
	bool *on;
	bool nomem;   /* a table that was wanted could not be made */
};

static void tables_free(struct line_tables *t)
{
	free(t->on);
	free(t->w);
	free(t->g);
}

static void tables_init(const struct slt_pairs *p, struct line_tables *t)
{
	memset(t, 0, sizeof(*t));
	t->g = malloc((p->n ? p->n : 1) * sizeof(*t->g));
	if (!t->g) {
		t->nomem = true;
		return;
	}
	t->w = apart_table(p, t->g, &t->ng);
	if (p->n_locs && t->ng && !t->w)
		t->nomem = true;
	if (t->w && !(t->on = touch_table(p, t->g, t->ng)))
		t->nomem = true;
}

/* Entry k's accesses that count against a store of group g[gu] on another
 * CPU: all of them without code places (w NULL) or when k's CPU never
 * accesses U, else the apart() share.  (Only the zero test: code places
 * count a member's accesses over all its lines, the per-CPU entries one
 * line's share, so the two are not in one unit to take a minimum of.) */
static double pair_acc(const struct slt_pairs *p, const struct line_tables *t,
		       size_t gu, size_t gv, size_t k)
{
	double acc = p->v[k].loads + p->v[k].stores;
	if (!t->w)
		return acc;
	if (t->on && !t->on[gu * p->n + k])
		return acc;    /* k's CPU never touches U */
	return acc * t->w[gu * t->ng + gv];
}

/* slt_pairs_cross() over the line's tables; each pair's term also into
 * parts (NULL: not wanted, else parts[k] is g[k]'s, zeroed here). */
static double cross(const struct slt_pairs *p, const struct line_tables *t,
		    struct slt_pairs_part *parts)
{
	const size_t *g = t->g, ng = t->ng;
	double s = 0;
	if (parts) {
		memset(parts, 0, ng * sizeof(*parts));
		for (size_t k = 0; k < ng; k++)
			parts[k].group = g[k];
		for (size_t i = 0; i < p->n; i++)
			if (p->v[i].stores > 0)
				parts[gidx(g, ng, p->v[i].group)].written = true;
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_pair_acc *st = &p->v[i];
		if (st->stores <= 0)
			continue;
		size_t gu = t->w || parts ? gidx(g, ng, st->group) : 0;
		for (size_t k = 0; k < p->n; k++) {
			const struct slt_pair_acc *a = &p->v[k];
			if (a->group == st->group || a->cpu == st->cpu)
				continue;
			size_t gv = t->w || parts ? gidx(g, ng, a->group) : 0;
			double acc = pair_acc(p, t, gu, gv, k);
			double v = st->stores < acc ? st->stores : acc;
			s += v;
			if (parts && v > 0) {
				if (parts[gv].written)
					parts[gu].writer_ww += v;
				else
					parts[gu].writer_rw += v;
				parts[gv].accessed += v;
			}
		}
	}
	return s;
}

double slt_pairs_cross(const struct slt_pairs *p)
{
	struct line_tables t;
	tables_init(p, &t);
	double s = cross(p, &t, NULL);
	tables_free(&t);
	return s;
}

int slt_pairs_split(const struct slt_pairs *p, struct slt_pairs_part **parts,
		    size_t *n, double *rw, double *ww)
{
	struct line_tables t;
	tables_init(p, &t);
	struct slt_pairs_part *v = t.nomem ? NULL : malloc((t.ng ? t.ng : 1) * sizeof(*v));
	*parts = NULL;
	*n = 0;
	*rw = *ww = 0;
	if (!v) {
		tables_free(&t);
		return SLT_ENOMEM;
	}
	cross(p, &t, v);
	for (size_t k = 0; k < t.ng; k++)
		*(v[k].written ? ww : rw) += v[k].accessed;
	*parts = v;
	*n = t.ng;
	tables_free(&t);
	return 0;
}

bool slt_pairs_write_write(const struct slt_pairs *p)
{
	struct line_tables t;
	tables_init(p, &t);
	bool ww = false;
	for (size_t i = 0; i < p->n && !ww; i++)
		for (size_t k = 0; k < p->n && !ww; k++)
			ww = p->v[i].stores > 0 && p->v[k].stores > 0 &&
			     p->v[i].group != p->v[k].group && p->v[i].cpu != p->v[k].cpu &&
			     pair_acc(p, &t, gidx(t.g, t.ng, p->v[i].group),
				      gidx(t.g, t.ng, p->v[k].group), k) > 0;
	tables_free(&t);
	return ww;
}

int slt_class_line_label(struct slt_class_line *c)
{
	c->n_labelled++;
	for (size_t k = 0; k < c->n_lab; k++)
		if (c->lab[k].label == c->label || !strcmp(c->lab[k].label, c->label)) {
			c->lab[k].n++;
			return 0;
		}
	if (c->n_lab == c->cap_lab) {
		size_t nc = c->cap_lab ? c->cap_lab * 2 : 4;
		void *q = realloc(c->lab, nc * sizeof(*c->lab));
		if (!q)
			return SLT_ENOMEM;
		c->lab = q;
		c->cap_lab = nc;
	}
	c->lab[c->n_lab].label = c->label;
	c->lab[c->n_lab++].n = 1;
	return 0;
}

void slt_class_line_release(struct slt_class_line *c)
{
	free(c->lab);
	memset(c, 0, sizeof(*c));
}

void slt_pairs_release(struct slt_pairs *p)
{
	free(p->v);
	free(p->locs);
	memset(p, 0, sizeof(*p));
}
