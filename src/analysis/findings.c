/* SPDX-License-Identifier: MIT */
/*
 * Per-cacheline findings and their scores: the rules and formulas are at
 * the top of include/structlint/analysis.h.  Everything here works on the
 * join's (line, member) cells, so a member spanning many lines is charged
 * only where it was accessed; on the classes basis a member occupies every
 * line its bytes are on.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"
#include "analysis/findings_int.h"
#include "common/arena.h"
#include "common/sort.h"
#include "join/join_int.h"

int slt_fd_cpuset_add(struct cpuset *cs, const struct slt_cpu_access *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < cs->n && cs->v[k].cpu != c[i].cpu)
			k++;
		if (k == cs->n) {
			if (cs->n == cs->cap) {
				size_t nc = cs->cap ? cs->cap * 2 : 16;
				void *p = realloc(cs->v, nc * sizeof(*cs->v));
				if (!p)
					return SLT_ENOMEM;
				cs->v = p;
				cs->cap = nc;
			}
			cs->v[cs->n++] = (struct slt_cpu_access){ c[i].cpu, 0, 0 };
		}
		cs->v[k].loads += c[i].loads;
		cs->v[k].stores += c[i].stores;
	}
	return 0;
}

static bool writes(enum slt_class c)
{
	return c == SLT_CLASS_HOT_WRITE || c == SLT_CLASS_MIXED ||
	       c == SLT_CLASS_TRUE_SHARED;
}

static bool hot(enum slt_class c)
{
	return c != SLT_CLASS_NONE && c != SLT_CLASS_COLD;
}

struct slt_finding *slt_fd_add(struct fd_ctx *x, enum slt_finding_kind k,
			       uint64_t line, double score, const size_t *m,
			       size_t n, size_t n_writers)
{
	struct slt_analysis *a = x->a;
	if (x->rc)
		return NULL;
	if (a->n_findings == x->cap) {
		size_t nc = x->cap ? x->cap * 2 : 16;
		void *p = realloc(a->findings, nc * sizeof(*a->findings));
		if (!p) {
			x->rc = SLT_ENOMEM;
			return NULL;
		}
		a->findings = p;
		x->cap = nc;
	}
	struct slt_finding *f = &a->findings[a->n_findings];
	memset(f, 0, sizeof(*f));
	f->members = n ? slt_arena_calloc(x->ar, n, sizeof(*m)) : NULL;
	if (n && !f->members) {
		x->rc = SLT_ENOMEM;
		return NULL;
	}
	if (n)
		memcpy(f->members, m, n * sizeof(*m));
	a->n_findings++;
	f->kind = k;
	f->line = f->line2 = line;
	f->score = score;
	f->n_members = n;
	f->n_writers = n_writers;
	f->layout_fixable = k != SLT_FIND_TRUE_SHARING && k != SLT_FIND_ELEMENT_SHARING;
	/* writers told apart by the classes' labels, not by CPUs */
	bool labelled = false;
	for (size_t i = 0; k == SLT_FIND_WRITE_WRITE && i < n; i++)
		labelled |= a->classes[m[i]].label != NULL;
	f->advice = slt_fd_advice(a, k, labelled);
	return f;
}

/* Leaf members: no inline children, some bytes. */
static bool leaf(const struct slt_member *m)
{
	return !m->n_children && m->size;
}


/* Collect line L's members: from cells [c0, c1) or, on the classes basis,
 * every leaf on L.  buf holds n_members entries. */
void slt_fd_collect(struct fd_ctx *x, uint64_t L, size_t c0, size_t c1,
		    size_t *buf, struct line_set *ls)
{
	const struct slt_analysis *a = x->a;
	const struct slt_struct *s = a->layout;
	memset(ls, 0, sizeof(*ls));
	ls->m = buf;
	size_t nr = 0;
	size_t *readers = buf + s->n_members; /* second half */
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		uint64_t ld = 0, st = 0;
		bool on = false;
		if (a->basis == SLT_BASIS_CLASSES) {
			if (!leaf(m))
				continue;
			uint64_t f = (a->line_origin + m->offset) / a->cacheline_size;
			uint64_t l = (a->line_origin + m->offset + m->size - 1) / a->cacheline_size;
			on = L >= f && L <= l;
		} else {
			for (size_t c = c0; c < c1; c++) {
				if (a->profile->cells[c].member == i) {
					on = true;
					ld = a->profile->cells[c].loads;
					st = a->profile->cells[c].stores;
				}
			}
		}
		if (!on)
			continue;
		enum slt_class k = a->classes[i].cls;
		/* a class given to a composite is named once, by the
		 * member it was given to */
		size_t shown = a->basis == SLT_BASIS_CLASSES && a->classes[i].given ?
			       a->classes[i].given_at : i;
		bool dup = false;
		for (size_t j = 0; j < ls->n_writers && !dup; j++)
			dup = buf[j] == shown;
		for (size_t j = 0; j < nr && !dup; j++)
			dup = readers[j] == shown;
		bool w = a->basis == SLT_BASIS_CPU ? st > 0 : writes(k);
		if (a->basis != SLT_BASIS_CPU && writes(k))
			ls->n_hw++;
		if (k == SLT_CLASS_READ_MOSTLY) {
			ls->n_rm++;
			ls->ld_rm += (double)ld;
		}
		if (writes(k))
			ls->st_w += (double)st;
		if (dup)
			continue;
		if (w)
			buf[ls->n_writers++] = shown;
		else if (k != SLT_CLASS_COLD && k != SLT_CLASS_NONE)
			readers[nr++] = shown;
	}
	memmove(buf + ls->n_writers, readers, nr * sizeof(*buf));
	ls->n = ls->n_writers + nr;
}

/* What each member listed on a line adds to the line's two parts: a
 * collision (written members x members not written) and write-write
 * (written x written); parallel to line_set.m. */
struct line_parts {
	double rw, ww;             /* the parts' scores */
	double *c_rw, *c_ww;       /* per listed member */
};

/* Add a finding of kind k, score `score`, naming the members of ls that
 * add something to it (c[j] > 0, or c[j] + c2[j] > 0 with c2): a member
 * on the line that adds nothing to the score is not part of it. */
static void add_part(struct fd_ctx *x, enum slt_finding_kind k, uint64_t L, double score,
		     const struct line_set *ls, const double *c, const double *c2)
{
	size_t *m = malloc((ls->n ? ls->n : 1) * sizeof(*m)), n = 0, nw = 0;
	if (!m) {
		x->rc = SLT_ENOMEM;
		return;
	}
	for (size_t j = 0; j < ls->n; j++) {
		if (c[j] + (c2 ? c2[j] : 0) <= 0)
			continue;
		m[n++] = ls->m[j];
		nw += j < ls->n_writers;
	}
	slt_fd_add(x, k, L, score, m, n, nw);
	free(m);
}

/* The findings of line L from its parts: a collision and a write-write
 * pair on one line are two facts and two findings (each naming its own
 * members), when each part is worth a finding on its own; else one
 * finding, write-write when `ww_kind`, for the whole line. */
static void add_line(struct fd_ctx *x, uint64_t L, const struct line_set *ls,
		     const struct line_parts *lp, bool ww_kind)
{
	double f = lp->rw + lp->ww;
	if (f <= 0 || f < x->min_score)
		return;
	if (ww_kind && lp->rw > 0 && lp->rw >= x->min_score && lp->ww >= x->min_score) {
		add_part(x, SLT_FIND_COLLISION, L, lp->rw, ls, lp->c_rw, NULL);
		add_part(x, SLT_FIND_WRITE_WRITE, L, lp->ww, ls, lp->c_ww, NULL);
		return;
	}
	add_part(x, ww_kind ? SLT_FIND_WRITE_WRITE : SLT_FIND_COLLISION, L, f, ls,
		 lp->c_rw, lp->c_ww);
}

static int parts_alloc(struct line_parts *lp, size_t n)
{
	lp->c_rw = calloc(n ? n : 1, sizeof(*lp->c_rw));
	lp->c_ww = calloc(n ? n : 1, sizeof(*lp->c_ww));
	return lp->c_rw && lp->c_ww ? 0 : SLT_ENOMEM;
}

static void parts_release(struct line_parts *lp)
{
	free(lp->c_rw);
	free(lp->c_ww);
}

/* Per-CPU basis on one line: F(L) over unit pairs, split by role. */
static void line_cpu(struct fd_ctx *x, uint64_t L, size_t c0, size_t c1, size_t *buf)
{
	const struct slt_access_profile *p = x->a->profile;
	const struct slt_struct *s = x->a->layout;
	struct slt_pairs pr = { 0 };
	for (size_t c = c0; c < c1; c++) {
		const struct slt_line_access *cell = &p->cells[c];
		const struct slt_member_access *ma = p->members ? &p->members[cell->member] : NULL;
		size_t u = slt_member_unit(s, cell->member);
		if (slt_pairs_add(&pr, u, cell->cpus, cell->n_cpus, 1) ||
		    (ma && slt_pairs_locs(&pr, u, ma->locations, ma->n_locations)))
			x->rc = SLT_ENOMEM;
	}
	struct line_parts lp = { 0 };
	struct slt_pairs_part *parts = NULL;
	size_t np = 0;
	if (!x->rc && slt_pairs_split(&pr, &parts, &np, &lp.rw, &lp.ww))
		x->rc = SLT_ENOMEM;
	/* Write-write: two different units stored to by different CPUs. */
	bool ww = !x->rc && slt_pairs_write_write(&pr);
	slt_pairs_release(&pr);
	double f = lp.rw + lp.ww;
	if (x->rc || f <= 0 || f < x->min_score) {
		free(parts);
		return;
	}
	struct line_set ls;
	slt_fd_collect(x, L, c0, c1, buf, &ls);
	if (parts_alloc(&lp, ls.n)) {
		x->rc = SLT_ENOMEM;
	} else {
		/* per listed member, the part of its unit it makes: the
		 * unit's stores pair as the writer side, its accesses as the
		 * accessed side; a member that only loads inside a written
		 * unit (i_data.a_ops beside i_data's stored lock) makes no
		 * writer side, and an accessed side only when another unit
		 * stores */
		for (size_t j = 0; j < ls.n; j++) {
			size_t u = slt_member_unit(s, ls.m[j]);
			uint64_t st = 0, acc = 0;
			for (size_t c = c0; c < c1; c++)
				if (p->cells[c].member == ls.m[j]) {
					st += p->cells[c].stores;
					acc += p->cells[c].loads + p->cells[c].stores;
				}
			for (size_t k = 0; k < np; k++) {
				if (parts[k].group != u)
					continue;
				double wr_rw = st ? parts[k].writer_rw : 0, wr_ww = st ? parts[k].writer_ww : 0;
				double ac = acc ? parts[k].accessed : 0;
				lp.c_rw[j] = wr_rw + (parts[k].written ? 0 : ac);
				lp.c_ww[j] = wr_ww + (parts[k].written ? ac : 0);
			}
		}
		add_line(x, L, &ls, &lp, ww);
	}
	parts_release(&lp);
	free(parts);
}

/* Classes basis on one line: read-mostly x written unit pairs, and written
 * unit pairs with different writer labels. */
static void line_classes(struct fd_ctx *x, uint64_t L, size_t *buf)
{
	const struct slt_analysis *a = x->a;
	const struct slt_struct *s = a->layout;
	struct slt_class_line cl = { 0 };
	/* pre-order (x->classed keeps it): a unit's leaves come one after
	 * another */
	for (size_t c = 0; c < x->n_classed && !x->rc; c++) {
		size_t i = x->classed[c];
		const struct slt_member *m = &s->members[i];
		enum slt_class k = a->classes[i].cls;
		uint64_t f = (a->line_origin + m->offset) / a->cacheline_size;
		uint64_t l = (a->line_origin + m->offset + m->size - 1) / a->cacheline_size;
		if (L < f || L > l)
			continue;
		if (slt_class_line_add(&cl, slt_member_unit(s, i), k == SLT_CLASS_READ_MOSTLY,
				       writes(k), a->classes[i].label))
			x->rc = SLT_ENOMEM;
	}
	struct line_parts lp = { 0 };
	double n_rd = 0, n_wr = 0;
	if (slt_class_line_value(&cl, &lp.rw, &lp.ww))
		x->rc = SLT_ENOMEM;
	n_rd = cl.n_rd;
	n_wr = cl.n_wr;
	slt_class_line_release(&cl);
	if (x->rc || lp.rw + lp.ww <= 0)
		return;
	struct line_set ls;
	slt_fd_collect(x, L, 0, 0, buf, &ls);
	if (parts_alloc(&lp, ls.n)) {
		x->rc = SLT_ENOMEM;
		parts_release(&lp);
		return;
	}
	/* per listed member, what it adds itself: a read-mostly member pairs
	 * with the written units but its own, a written one with the
	 * read-mostly units but its own and with the written units of other
	 * labels (a read-mostly member inside the writer's unit, i_data.a_ops
	 * beside i_data's written lock, adds nothing: pairs within a unit
	 * are not counted) */
	for (size_t j = 0; j < ls.n; j++) {
		size_t u = slt_member_unit(s, ls.m[j]);
		enum slt_class own = a->classes[ls.m[j]].cls;
		bool rd = false, wr = false, other = false;
		const char *lab = writes(own) ? a->classes[ls.m[j]].label : NULL;
		for (size_t k = 0; k < ls.n; k++) {
			if (slt_member_unit(s, ls.m[k]) != u)
				continue;
			enum slt_class c = a->classes[ls.m[k]].cls;
			rd |= c == SLT_CLASS_READ_MOSTLY;
			wr |= writes(c);
		}
		for (size_t k = 0; lab && k < ls.n_writers && !other; k++) {
			const char *l2 = a->classes[ls.m[k]].label;
			other = l2 && strcmp(l2, lab) && slt_member_unit(s, ls.m[k]) != u;
		}
		lp.c_rw[j] = (own == SLT_CLASS_READ_MOSTLY ? n_wr - wr : 0) +
			     (writes(own) ? n_rd - rd : 0);
		lp.c_ww[j] = other;
	}
	add_line(x, L, &ls, &lp, lp.ww > 0);
	parts_release(&lp);
}

/* The members a classes file gives as written (hot-write, mixed,
 * true-shared) on line L, into w (room for every member): their number. */
static size_t given_writers(const struct slt_analysis *a, uint64_t L, size_t *w)
{
	const struct slt_struct *s = a->layout;
	unsigned cl = a->cacheline_size;
	size_t n = 0;
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		if (!leaf(m) || !a->classes[i].given || !writes(a->classes[i].cls))
			continue;
		if ((a->line_origin + m->offset) / cl <= L &&
		    L <= (a->line_origin + m->offset + m->size - 1) / cl)
			w[n++] = i;
	}
	return n;
}

/* A profile without a single store: each line whose loads hit modified
 * lines (HITM) is written by someone the profile cannot show, unless the
 * classes file given with it names the line's writers: then the HITM
 * loads of the other members are their collision (the writer is known,
 * moving the loaded members away helps). */
static void lines_unseen(struct fd_ctx *x, size_t *buf)
{
	const struct slt_access_profile *p = x->a->profile;
	size_t nm = x->a->layout->n_members;
	size_t *w = malloc((2 * nm + 1) * sizeof(*w));
	if (!w) {
		x->rc = SLT_ENOMEM;
		return;
	}
	for (size_t c0 = 0; c0 < p->n_cells && !x->rc;) {
		size_t c1 = c0;
		uint64_t hitm = 0;
		while (c1 < p->n_cells && p->cells[c1].line == p->cells[c0].line)
			hitm += p->cells[c1++].hitm;
		if (hitm) {
			struct line_set ls;
			size_t n = 0;
			slt_fd_collect(x, p->cells[c0].line, c0, c1, buf, &ls);
			/* the members whose loads saw the HITM */
			for (size_t k = 0; k < ls.n; k++)
				for (size_t c = c0; c < c1; c++)
					if (p->cells[c].member == ls.m[k] && p->cells[c].hitm) {
						ls.m[n++] = ls.m[k];
						break;
					}
			size_t nw = given_writers(x->a, p->cells[c0].line, w), nw_all = nw;
			double hitm_other = 0;
			for (size_t k = 0; nw && k < n; k++) {
				bool writer = false;
				for (size_t q = 0; q < nw && !writer; q++)
					writer = w[q] == ls.m[k];
				if (writer)
					continue;
				w[nw_all++] = ls.m[k];
				for (size_t c = c0; c < c1; c++)
					if (p->cells[c].member == ls.m[k])
						hitm_other += (double)p->cells[c].hitm;
			}
			/* the classes name writers of different labels on
			 * the line: write-write, as on the classes basis and
			 * in check (writers-share-line), scored by the
			 * line's HITM loads, the evidence that it is written */
			bool mixed = false;
			for (size_t q = 0; q < nw && !mixed; q++)
				for (size_t r = q + 1; r < nw && !mixed; r++) {
					const char *l1 = x->a->classes[w[q]].label;
					const char *l2 = x->a->classes[w[r]].label;
					mixed = l1 && l2 && strcmp(l1, l2) &&
						slt_member_unit(x->a->layout, w[q]) !=
						slt_member_unit(x->a->layout, w[r]);
				}
			if (mixed)
				slt_fd_add(x, SLT_FIND_WRITE_WRITE, p->cells[c0].line, (double)hitm,
					   w, nw, nw);
			if (hitm_other > 0) {
				slt_fd_add(x, SLT_FIND_COLLISION, p->cells[c0].line, hitm_other,
					   w, nw_all, nw);
			} else if (!mixed) {
				struct slt_finding *f = slt_fd_add(x, SLT_FIND_UNSEEN_WRITER,
								   p->cells[c0].line, (double)hitm, ls.m, n, 0);
				if (f)
					f->layout_fixable = false;
			}
		}
		c0 = c1;
	}
	free(w);
}

/*
 * The lines where a member starts or ends, sorted, unique (malloc()ed).
 * Between two of them every line is covered by the same members, none of
 * which starts or ends there: alike for the classes-basis findings, so a
 * run of such lines is looked at only while its lines give findings (the
 * cost follows members and findings, not bytes: a char[1 << 40] member is
 * two lines here, not 2^34).
 */
uint64_t *slt_fd_member_lines(struct fd_ctx *x, size_t *n)
{
	const struct slt_analysis *a = x->a;
	const struct slt_struct *s = a->layout;
	uint64_t *e = malloc((2 * s->n_members + 1) * sizeof(*e));
	size_t k = 0;
	if (!e) {
		x->rc = SLT_ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		uint64_t sz = m->size ? m->size : 1;
		e[k++] = (a->line_origin + m->offset) / a->cacheline_size;
		e[k++] = (a->line_origin + m->offset + sz - 1) / a->cacheline_size;
	}
	slt_sort(e, k, sizeof(*e), slt_cmp_u64);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (!u || e[u - 1] != e[i])
			e[u++] = e[i];
	*n = u;
	return e;
}

/* fn on every line of the struct that can hold a finding: the member
 * lines, and the lines of a run between two of them while they give
 * findings (fn adds them to a->findings). */
static void each_line(struct fd_ctx *x, size_t *buf,
		      void (*fn)(struct fd_ctx *, uint64_t, size_t *))
{
	size_t n = 0;
	uint64_t *e = slt_fd_member_lines(x, &n);
	for (size_t i = 0; e && i < n && !x->rc; i++) {
		fn(x, e[i], buf);
		for (uint64_t L = e[i] + 1; i + 1 < n && L < e[i + 1] && !x->rc; L++) {
			size_t before = x->a->n_findings;
			fn(x, L, buf);
			if (x->a->n_findings == before)
				break;
		}
	}
	free(e);
}

static void lines(struct fd_ctx *x, size_t *buf)
{
	struct slt_analysis *a = x->a;
	const struct slt_access_profile *p = a->profile;
	if (a->basis == SLT_BASIS_CLASSES) {
		const struct slt_struct *s = a->layout;
		x->classed = malloc((s->n_members + 1) * sizeof(*x->classed));
		if (!x->classed) {
			x->rc = SLT_ENOMEM;
			return;
		}
		for (size_t i = 0; i < s->n_members; i++) {
			enum slt_class k = a->classes[i].cls;
			if (leaf(&s->members[i]) && (k == SLT_CLASS_READ_MOSTLY || writes(k)))
				x->classed[x->n_classed++] = i;
		}
		if (x->n_classed > 1)
			each_line(x, buf, line_classes);
		free(x->classed);
		x->classed = NULL;
		return;
	}
	if (a->no_stores) {
		lines_unseen(x, buf);
		return;
	}
	for (size_t c0 = 0; c0 < p->n_cells && !x->rc;) {
		size_t c1 = c0;
		while (c1 < p->n_cells && p->cells[c1].line == p->cells[c0].line)
			c1++;
		uint64_t L = p->cells[c0].line;
		if (a->basis == SLT_BASIS_CPU) {
			line_cpu(x, L, c0, c1, buf);
		} else {
			struct line_set ls;
			slt_fd_collect(x, L, c0, c1, buf, &ls);
			double f = ls.st_w < ls.ld_rm ? ls.st_w : ls.ld_rm;
			if (ls.n_rm && f > 0 && f >= x->min_score)
				slt_fd_add(x, SLT_FIND_COLLISION, L, f, ls.m, ls.n, ls.n_writers);
		}
		c0 = c1;
	}
}

/* True sharing and straddling, per member. */
static void members(struct fd_ctx *x)
{
	struct slt_analysis *a = x->a;
	const struct slt_struct *s = a->layout;
	const struct slt_access_profile *p = a->profile;
	unsigned cl = a->cacheline_size;
	/* classes: one true-sharing finding per classed member, not one per
	 * leaf of it (a true-shared spinlock_t holds a union of 5 leaves) */
	bool *named = calloc(s->n_members + 1, sizeof(*named));
	if (!named) {
		x->rc = SLT_ENOMEM;
		return;
	}
	for (size_t i = 0; i < s->n_members && !x->rc; i++) {
		const struct slt_member *m = &s->members[i];
		enum slt_class k = a->classes[i].cls;
		/* true sharing is measured: a member the samples show stored
		 * to by many CPUs contends whatever class a classes file
		 * gives it (hot-write says written, not by whom) */
		if (a->basis != SLT_BASIS_CLASSES && a->classes[i].measured == SLT_CLASS_TRUE_SHARED)
			k = SLT_CLASS_TRUE_SHARED;
		/* measured: a composite member the samples named (with -E its
		 * cells stay on it, not on its leaves) is true sharing too */
		bool measured_composite = !leaf(m) && m->size && k == SLT_CLASS_TRUE_SHARED &&
					  a->basis != SLT_BASIS_CLASSES;
		/* measured: an array whose CPUs store to different elements
		 * (classed hot-write or mixed, as no element is stored to by
		 * several) is looked at element by element as well; with
		 * --expand an array of structs, its leaves' accesses counted
		 * in their elements, and not leaf by leaf */
		bool array = a->basis != SLT_BASIS_CLASSES && slt_fd_array_unit(s, i);
		bool elements = array && writes(k);
		if (a->basis != SLT_BASIS_CLASSES && !array &&
		    slt_fd_array_unit(s, slt_member_unit(s, i)))
			k = SLT_CLASS_NONE;   /* a leaf of an array unit: the unit's */
		if ((!leaf(m) && !measured_composite && !elements) || !hot(k))
			continue;
		uint64_t f = (a->line_origin + m->offset) / cl;
		uint64_t l = (a->line_origin + m->offset + m->size - 1) / cl;
		if (k == SLT_CLASS_TRUE_SHARED && a->basis == SLT_BASIS_CLASSES) {
			size_t q = i;
			while (s->members[q].parent >= 0 &&
			       a->classes[s->members[q].parent].cls == SLT_CLASS_TRUE_SHARED)
				q = (size_t)s->members[q].parent;
			if (!named[q]) {
				named[q] = true;
				f = (a->line_origin + s->members[q].offset) / cl;
				slt_fd_add(x, SLT_FIND_TRUE_SHARING, f, 1, &q, 1, 1);
			}
		} else if (k == SLT_CLASS_TRUE_SHARED || elements) {
			/* Measured: on each line the member was accessed on
			 * (its cells), so that a member spanning many lines,
			 * an array, is charged where the CPUs met. */
			struct slt_line_access merged;
			const struct slt_line_access *cell = &merged;
			for (size_t c = 0; slt_fd_next_cell(x->ar, s, p, i, &c, &merged, &x->rc);) {
				double sc = a->basis == SLT_BASIS_CPU ?
					    slt_cpu_cross(cell->cpus, cell->n_cpus, cell->cpus, cell->n_cpus) :
					    (double)cell->stores;
				/* an array placed element by element: CPUs
				 * that store to the same element contend on
				 * it (true sharing), CPUs that store to
				 * different ones only share the line (false
				 * sharing between the elements) */
				double el = 0;
				if (cell->n_elems && !cell->unplaced_stores)
					sc = slt_fd_elem_scores(cell, a->basis == SLT_BASIS_CPU,
								a->classify.true_share_cpus, &el);
				if (k != SLT_CLASS_TRUE_SHARED)
					sc = 0;
				if (sc > 0)
					slt_fd_add(x, SLT_FIND_TRUE_SHARING, cell->line, sc, &i, 1, 1);
				if (el > 0)
					slt_fd_add(x, SLT_FIND_ELEMENT_SHARING, cell->line, el, &i, 1, 1);
			}
		}
		if (measured_composite || f == l || m->size > cl)
			continue;
		/* Measured: accessed on both lines; given: a scalar, whose
		 * every access is split. */
		bool both = false;
		if (a->basis != SLT_BASIS_CLASSES) {
			bool on_f = false, on_l = false;
			for (size_t c = 0; c < p->n_cells; c++) {
				if (p->cells[c].member != i)
					continue;
				on_f |= p->cells[c].line == f;
				on_l |= p->cells[c].line == l;
			}
			both = on_f && on_l;
		}
		bool scalar = !(m->flags & SLT_MEMBER_COMPOSITE) &&
			      (!m->decl_tail || m->decl_tail[0] != '[');
		if (both || scalar) {
			double sc = p && p->members ? (double)slt_member_accesses(p, i) : 1;
			struct slt_finding *fd = slt_fd_add(x, SLT_FIND_STRADDLE, f, sc > 0 ? sc : 1,
						     &i, 1, writes(k));
			if (fd)
				fd->line2 = l;
		}
	}
	free(named);
}

static int cmp_finding(const void *p1, const void *p2)
{
	const struct slt_finding *a = p1, *b = p2;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

static bool any_given(const struct slt_struct *s, const enum slt_class *g)
{
	for (size_t i = 0; g && i < s->n_members; i++)
		if (g[i] != SLT_CLASS_NONE)
			return true;
	return false;
}

int slt_analyze(const struct slt_struct *s, const struct slt_access_profile *p,
		const struct slt_analysis_opts *o, struct slt_analysis **out,
		struct slt_error *err)
{
	*out = NULL;
	struct slt_analysis_opts opts = { 0 };
	if (o)
		opts = *o;
	else
		slt_classify_opts_default(&opts.classify);
	const struct slt_classify_opts *c = &opts.classify;
	const char *h = "ratios are fractions from 0 to 1, --read-mostly-ratio <= --hot-write-ratio, --true-share-cpus >= 2";
	if (!(c->hot_write_ratio >= 0 && c->hot_write_ratio <= 1) ||
	    !(c->read_mostly_ratio >= 0 && c->read_mostly_ratio <= c->hot_write_ratio) ||
	    !(c->min_share >= 0 && c->min_share <= 1) || c->true_share_cpus < 2)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, h, "classification thresholds out of range");
	if (!s || (!p && !any_given(s, opts.given)))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "give samples or member classes",
				     "nothing to analyse: no access profile and no member classes");
	if (p && p->layout != s)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL,
				     "the access profile was joined against another layout");
	unsigned cl = opts.cacheline_size ? opts.cacheline_size :
		      p ? p->cacheline_size : SLT_CACHELINE_DEFAULT;
	if (!p && opts.base_align && opts.base_align < cl)
		return slt_analyze_bases(s, &opts, cl, out, err);
	struct slt_analysis *a = calloc(1, sizeof(*a));
	struct slt_arena *ar = slt_arena_new();
	size_t *buf = calloc(4 * s->n_members + 1, sizeof(*buf));
	if (!a || !ar || !buf)
		goto nomem;
	a->priv_ = ar;
	a->layout = s;
	a->profile = p;
	a->classify = *c;
	a->cacheline_size = opts.cacheline_size ? opts.cacheline_size :
			    p ? p->cacheline_size : SLT_CACHELINE_DEFAULT;
	if (p && p->cacheline_size != a->cacheline_size) {
		slt_analysis_free(a);
		free(buf);
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "join and analyse with one cache line size",
				     "the profile was joined with %u-byte lines, the analysis asks for %u",
				     p->cacheline_size, opts.cacheline_size);
	}
	a->line_origin = p ? p->line_origin : opts.line_origin % a->cacheline_size;
	a->n_bases = 1;
	a->base_starts = &a->line_origin;
	a->basis = SLT_BASIS_CLASSES;
	if (p && p->matched) {
		a->basis = SLT_BASIS_COUNTS;
		for (size_t i = 0; i < p->n_cells; i++)
			if (p->cells[i].n_cpus)
				a->basis = SLT_BASIS_CPU;
	}
	a->classes = slt_arena_calloc(ar, s->n_members + 1, sizeof(*a->classes));
	if (!a->classes)
		goto nomem;
	slt_classify_members(s, p, opts.given, opts.given_label, c, a->classes);
	if (p && p->matched) {
		uint64_t st = 0;
		for (size_t i = 0; i < p->n_cells; i++)
			st += p->cells[i].stores;
		/* stores anywhere in the input (on a misspelled member, on
		 * another type) show that the events record stores */
		a->no_stores = st == 0 && p->input_stores == 0;
	}
	struct fd_ctx x = { .a = a, .ar = ar };
	x.min_score = p ? c->min_share * (double)p->matched : 0;
	lines(&x, buf);
	members(&x);
	if (opts.adjacent)
		slt_fd_adjacent(&x, buf);
	free(buf);
	buf = NULL;
	if (x.rc)
		goto nomem;
	slt_sort(a->findings, a->n_findings, sizeof(*a->findings), cmp_finding);
	for (size_t i = 0; i < a->n_findings; i++) {
		a->findings[i].origin = a->line_origin;
		a->findings[i].bases = 1;
	}
	*out = a;
	return 0;
nomem:
	free(buf);
	if (a && !a->priv_)
		slt_arena_free(ar);
	slt_analysis_free(a);
	if (!a)
		slt_arena_free(ar);
	return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
}

void slt_analysis_free(struct slt_analysis *a)
{
	if (!a)
		return;
	free(a->findings);
	slt_arena_free(a->priv_);
	free(a);
}
