/* SPDX-License-Identifier: MIT */
/*
 * The advisor's movable units (advice_int.h): top-level members grouped so
 * that what must move together does.
 *
 *   - a member whose bytes overlap the previous one's storage joins it:
 *     bitfields that share a storage unit, and a member the compiler put
 *     inside the last storage unit's bytes (`u32 a:3; char c;` puts c at 1);
 *   - unions and nested structs are one top-level member, so they move whole
 *     with their inline children;
 *   - anchored (keep their place in the order, at the offset C gives
 *     them, never past their own: slt_adv_anchor_at(); a pin keeps its
 *     offset exactly): members with a forced alignment above
 *     8 bytes (____cacheline_aligned and the like), zero-size
 *     padding members (CACHELINE_PADDING) and __cacheline_group_* markers,
 *     unless opts->move_anchors; and every --pin;
 *   - with opts->move_anchors the markers of the kernel's cacheline groups
 *     are fences (SLT_ADV_FENCE): they move, but keep their place in the
 *     order, so each member stays inside the group it is in (the kernel's
 *     CACHELINE_ASSERT_GROUP_MEMBER) and a member outside every group
 *     stays outside;
 *   - a flexible array stays last;
 *   - a --keep-together list becomes one unit, its members in list order,
 *     each at the first multiple of its alignment after the previous one.
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"
#include "analysis/analysis_int.h"

/* First byte after a top-level member, as the compiler sees it: for a
 * bitfield the byte after its last bit (little-endian bit numbering, as
 * pahole prints DWARF 4/5 data_bit_offset), else offset + size. */
static uint64_t used_end(const struct slt_member *m)
{
	if (m->flags & SLT_MEMBER_BITFIELD)
		return m->offset + (m->bit_offset + m->bit_size + 7) / 8;
	return m->offset + m->size;
}

static uint32_t member_align(const struct slt_member *m)
{
	uint32_t a = m->natural_alignment ? m->natural_alignment : 1;
	if (m->alignment > a)
		a = m->alignment;
	if (m->flags & SLT_MEMBER_PACKED)
		a = m->alignment ? m->alignment : 1;
	return a;
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

/* Index one past member i's inline descendants. */
static size_t subtree_end(const struct slt_struct *s, size_t i)
{
	size_t k = i + 1;
	while (k < s->n_members && s->members[k].depth > s->members[i].depth)
		k++;
	return k;
}

/* A member of the units' level (us->level's members, or the top level's)
 * by name. */
static int find_top(const struct slt_adv_units *us, const char *name, size_t *out)
{
	const struct slt_struct *s = us->orig;
	for (size_t i = 0; i < s->n_members; i++)
		if ((s->members[i].parent == us->level || !s->members[i].depth) &&
		    !strcmp(s->members[i].name, name)) {
			*out = i;
			return 0;
		}
	return -1;
}

/* An anonymous struct whose members may be reordered as the top level's
 * are: not a union (its members overlay each other on purpose), not an
 * array, not packed, with members. */
static bool openable(const struct slt_member *m)
{
	return !m->name[0] && (m->flags & SLT_MEMBER_INLINE) &&
	       (m->flags & SLT_MEMBER_COMPOSITE) &&
	       !(m->flags & (SLT_MEMBER_UNION | SLT_MEMBER_PACKED |
			     SLT_MEMBER_BITFIELD)) &&
	       m->n_children && m->decl_tail[0] != '[';
}

/* The chain of anonymous structs to open (advice_int.h: slt_adv_units
 * .opened): from the top level down, while a level holds exactly one
 * member with bytes and it is openable; the top level may also hold a
 * flexible array after it (6.1 mm_struct: `struct { ... }; unsigned long
 * cpu_bitmap[];`).  Any other member beside it, zero-size markers
 * included, keeps the level closed: its members then could not be
 * re-wrapped. */
static int open_chain(struct slt_adv_units *us)
{
	const struct slt_struct *s = us->orig;
	size_t *chain = slt_arena_calloc(us->ar, s->n_members ? s->n_members : 1,
					 sizeof(*chain));
	int32_t level = -1;

	if (!chain)
		return SLT_ENOMEM;
	us->level = -1;
	for (;;) {
		long only = -1;
		size_t n = 0;
		bool closed = false;
		for (size_t i = level < 0 ? 0 : (size_t)level + 1;
		     i < s->n_members && !closed; i++) {
			const struct slt_member *m = &s->members[i];
			if (level >= 0 && m->depth <= s->members[level].depth)
				break;
			if (m->parent != level)
				continue;
			if (level < 0 && (m->flags & SLT_MEMBER_FLEX) &&
			    i + 1 == s->n_members)
				continue;
			n++;
			if (m->size && openable(m))
				only = (long)i;
			else
				closed = true;
		}
		if (closed || n != 1 || only < 0)
			break;
		chain[us->n_opened++] = (size_t)only;
		level = (int32_t)only;
	}
	us->opened = chain;
	us->level = level;
	return 0;
}

/* Merge sorted per-CPU lists: dst (n) += src (ns), into a new array. */
static int cpus_merge(struct slt_arena *ar, struct slt_cpu_access **dst,
		      size_t *n, const struct slt_cpu_access *src, size_t ns)
{
	struct slt_cpu_access *r;
	size_t i = 0, k = 0, o = 0;

	if (!ns)
		return 0;
	r = slt_arena_calloc(ar, *n + ns, sizeof(*r));
	if (!r)
		return SLT_ENOMEM;
	while (i < *n || k < ns) {
		if (k == ns || (i < *n && (*dst)[i].cpu < src[k].cpu)) {
			r[o++] = (*dst)[i++];
		} else if (i == *n || src[k].cpu < (*dst)[i].cpu) {
			r[o++] = src[k++];
		} else {
			r[o] = (*dst)[i++];
			r[o].loads += src[k].loads;
			r[o++].stores += src[k++].stores;
		}
	}
	*dst = r;
	*n = o;
	return 0;
}

static bool is_write(enum slt_class c)
{
	return c == SLT_CLASS_HOT_WRITE || c == SLT_CLASS_MIXED ||
	       c == SLT_CLASS_TRUE_SHARED;
}

/* Code path index of a location (symbol, else source), added if new. */
static int path_index(struct slt_adv_units *us, const char ***names,
		      size_t *cap, const struct slt_code_location *l, size_t *out)
{
	const char *key = slt_adv_path_key(us->ar, l);
	if (!key)
		return 1;
	for (size_t i = 0; i < us->n_paths; i++)
		if (!strcmp((*names)[i], key)) {
			*out = i;
			return 0;
		}
	if (us->n_paths == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		const char **p = realloc(*names, nc * sizeof(*p));
		double *w = realloc(us->path_weight, nc * sizeof(*w));
		if (w)
			us->path_weight = w;
		if (!p || !w) {
			if (p)
				*names = p;
			return SLT_ENOMEM;
		}
		*names = p;
		*cap = nc;
	}
	(*names)[us->n_paths] = key;
	us->path_weight[us->n_paths] = 0;
	*out = us->n_paths++;
	return 0;
}

/* x->spans from x->leaves (classes basis): consecutive classed leaves of
 * one group, class and label whose bytes touch or overlap merge. */
static int unit_spans(struct slt_arena *ar, struct slt_adv_unit *x)
{
	x->n_spans = 0;
	x->spans = slt_arena_calloc(ar, x->n_leaves ? x->n_leaves : 1, sizeof(*x->spans));
	if (!x->spans)
		return SLT_ENOMEM;
	for (size_t j = 0; j < x->n_leaves; j++) {
		const struct slt_adv_leaf *lf = &x->leaves[j];
		if (!lf->read && !lf->write)
			continue;
		struct slt_adv_span *sp = x->n_spans ? &x->spans[x->n_spans - 1] : NULL;
		if (sp && sp->group == lf->group && sp->read == lf->read &&
		    sp->write == lf->write && sp->label == lf->label &&
		    lf->rel <= sp->rel + sp->size && lf->rel + lf->size >= sp->rel) {
			uint64_t e = sp->rel + sp->size > lf->rel + lf->size ?
				     sp->rel + sp->size : lf->rel + lf->size;
			if (lf->rel < sp->rel)
				sp->rel = lf->rel;
			sp->size = e - sp->rel;
			continue;
		}
		x->spans[x->n_spans++] = (struct slt_adv_span){ lf->rel, lf->size, lf->group,
								lf->read, lf->write, lf->label };
	}
	return 0;
}

/* Access statistics, roles and code paths of every unit. */
static int unit_stats(struct slt_adv_units *us)
{
	const struct slt_analysis *a = us->a;
	const struct slt_struct *s = us->orig;
	const struct slt_access_profile *p = a->profile;
	const char **names = NULL;
	size_t cap = 0;
	int rc = 0;

	us->total = 0;
	/* paths first, to size the masks */
	for (size_t u = 0; p && u < us->n && !rc; u++)
		for (size_t t = 0; t < us->u[u].n_top && !rc; t++) {
			const struct slt_member_access *ma = &p->members[us->u[u].top[t]];
			for (size_t l = 0; l < ma->n_locations && !rc; l++) {
				size_t pi;
				int r = path_index(us, &names, &cap, &ma->locations[l], &pi);
				if (r < 0)
					rc = r;
				else if (!r)
					us->path_weight[pi] += (double)(ma->locations[l].loads +
									ma->locations[l].stores);
			}
		}
	us->path_words = (us->n_paths + 63) / 64;
	for (size_t u = 0; u < us->n && !rc; u++) {
		struct slt_adv_unit *x = &us->u[u];
		if (us->path_words) {
			x->paths = slt_arena_calloc(us->ar, us->path_words, sizeof(uint64_t));
			if (!x->paths) {
				rc = SLT_ENOMEM;
				break;
			}
		}
		size_t nl = 0;
		for (size_t t = 0; t < x->n_top; t++)
			nl += subtree_end(s, x->top[t]) - x->top[t];
		x->leaves = slt_arena_calloc(us->ar, nl ? nl : 1, sizeof(*x->leaves));
		if (!x->leaves) {
			rc = SLT_ENOMEM;
			break;
		}
		for (size_t t = 0; t < x->n_top && !rc; t++) {
			size_t i = x->top[t], e = subtree_end(s, i);
			for (size_t k = i; k < e && !rc; k++) {
				const struct slt_member *m = &s->members[k];
				if (m->n_children || !m->size)
					continue;
				enum slt_class c = a->classes[k].cls;
				struct slt_adv_leaf *lf = &x->leaves[x->n_leaves];
				memset(lf, 0, sizeof(*lf));
				lf->rel = x->rel[t] + (m->offset - s->members[i].offset);
				lf->size = m->size;
				lf->read = c == SLT_CLASS_READ_MOSTLY;
				lf->write = is_write(c);
				/* pairs within one unit (pairs.c) are not
				 * counted, on every basis, as the findings
				 * count them */
				lf->group = slt_member_unit(s, k);
				lf->label = a->classes[k].label;
				lf->given_write = lf->write && a->classes[k].given;
				x->n_read += lf->read;
				x->n_write += lf->write;
				if (p) {
					const struct slt_member_access *ma = &p->members[k];
					lf->loads = (double)ma->loads;
					lf->stores = (double)ma->stores;
					lf->hitm = (double)(ma->hitm_local + ma->hitm_remote +
							    ma->peer_local + ma->peer_remote);
					lf->cpus = ma->cpus;
					lf->n_cpus = ma->n_cpus;
					lf->locs = ma->locations;
					lf->n_locs = ma->n_locations;
					lf->self_cross = slt_cpu_cross(ma->cpus, ma->n_cpus,
								       ma->cpus, ma->n_cpus);
					x->loads += lf->loads;
					x->stores += lf->stores;
					x->self_cross += lf->self_cross;
					rc = cpus_merge(us->ar, &x->cpus, &x->n_cpus,
							ma->cpus, ma->n_cpus);
				}
				if (lf->read || lf->write || lf->loads || lf->stores)
					x->n_leaves++;
			}
			if (p && !rc) {
				const struct slt_member_access *ma = &p->members[i];
				for (size_t l = 0; l < ma->n_locations && !rc; l++) {
					size_t pi;
					int r = path_index(us, &names, &cap,
							   &ma->locations[l], &pi);
					if (r < 0)
						rc = r;
					else if (!r)
						x->paths[pi / 64] |= 1ull << (pi % 64);
				}
			}
		}
		if (!rc && a->basis == SLT_BASIS_CLASSES)
			rc = unit_spans(us->ar, x);
		x->role = x->n_write ? SLT_ADV_WRITE : x->n_read ? SLT_ADV_READ :
			  SLT_ADV_COLD;
		us->total += p ? x->loads + x->stores : (double)(x->n_read + x->n_write);
	}
	if (!rc && us->total > 0)
		for (size_t i = 0; i < us->n_paths; i++)
			us->path_weight[i] /= us->total;
	free(names);
	return rc;
}

/* A new unit of one top-level member range [i0, i1) (top-level indices
 * tops[i0..i1)). */
static int unit_of(struct slt_adv_units *us, const size_t *tops, size_t i0,
		   size_t i1, struct slt_adv_unit *x)
{
	const struct slt_struct *s = us->orig;
	uint64_t start = s->members[tops[i0]].offset, end;

	for (size_t k = i0; k < i1; k++)
		if (s->members[tops[k]].offset < start)
			start = s->members[tops[k]].offset;
	end = start;

	memset(x, 0, sizeof(*x));
	x->n_top = i1 - i0;
	x->top = slt_arena_calloc(us->ar, x->n_top, sizeof(*x->top));
	x->rel = slt_arena_calloc(us->ar, x->n_top, sizeof(*x->rel));
	if (!x->top || !x->rel)
		return SLT_ENOMEM;
	x->align = 1;
	x->orig_offset = start;
	x->name = s->members[tops[i0]].name;
	for (size_t k = i0; k < i1; k++) {
		const struct slt_member *m = &s->members[tops[k]];
		uint32_t al = member_align(m);
		x->top[k - i0] = tops[k];
		x->rel[k - i0] = m->offset - start;
		if (al > x->align)
			x->align = al;
		if (used_end(m) > end)
			end = used_end(m);
		if (m->flags & SLT_MEMBER_BITFIELD)
			x->flags |= SLT_ADV_BITS;
		if (m->flags & SLT_MEMBER_FLEX)
			x->flags |= SLT_ADV_LAST;
		else if ((m->flags & SLT_MEMBER_ZERO_SIZE) && !(m->flags & SLT_MEMBER_INLINE))
			x->flags |= SLT_ADV_MARKER;
		/* a forced alignment above a scalar's (8 bytes on LP64: the
		 * widest C scalar but long double) marks a purpose, e.g.
		 * ____cacheline_aligned; __aligned__(8) on an rb_node does not,
		 * and placement keeps every alignment anyway */
		if (m->alignment > 8 || (m->flags & (SLT_MEMBER_GROUP_BEGIN |
						     SLT_MEMBER_GROUP_END)))
			x->flags |= SLT_ADV_ANCHORED;
	}
	if (x->flags & SLT_ADV_MARKER)
		x->flags |= SLT_ADV_ANCHORED;
	/* the start must keep the members' alignment: a unit that starts on
	 * an offset its own alignment does not divide cannot move */
	if (start % x->align)
		x->flags |= SLT_ADV_ANCHORED;
	x->size = end - start;
	return 0;
}

/* Merge units listed by one keep-together list into the first of them. */
static int keep_together(struct slt_adv_units *us, const char *const *names,
			 struct slt_error *err)
{
	const struct slt_struct *s = us->orig;
	size_t n = 0, *which, at = SIZE_MAX;
	struct slt_adv_unit m = { 0 };
	uint64_t cur = 0;
	int rc = 0;

	while (names[n])
		n++;
	if (n < 2)
		return 0;
	which = calloc(n, sizeof(*which));
	if (!which)
		return SLT_ENOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		size_t top;
		if (find_top(us, names[i], &top)) {
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1,
					   "name top-level members of the struct (or of the "
					   "anonymous struct that holds them all)",
					   "--keep-together: %s has no member %s",
					   s->name, names[i]);
			break;
		}
		for (size_t u = 0; u < us->n; u++)
			for (size_t t = 0; t < us->u[u].n_top; t++)
				if (us->u[u].top[t] == top)
					which[i] = u;
		for (size_t k = 0; k < i && !rc; k++)
			if (which[k] == which[i] && us->u[which[i]].n_top == 1)
				rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL,
						   "--keep-together names %s twice", names[i]);
		uint32_t fl = us->u[which[i]].flags;
		if (!rc && (fl & SLT_ADV_FIRST))
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1,
					   "add --move-first to let it move, or leave it out "
					   "of --keep-together",
					   "--keep-together: %s is the first member, pinned at "
					   "offset 0 (container_of(), casts to its type)", names[i]);
		else if (!rc && (fl & (SLT_ADV_ANCHORED | SLT_ADV_LAST)))
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1,
					   "drop the pin, or leave anchored members out of --keep-together",
					   "--keep-together: %s is anchored (pinned, forced alignment, "
					   "padding or marker) or a flexible array", names[i]);
	}
	/* list units once, in list order */
	size_t nu = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen |= which[k] == which[i];
		if (!seen)
			which[nu++] = which[i];
	}
	if (!rc && nu > 1) {
		size_t tot = 0;
		for (size_t i = 0; i < nu; i++)
			tot += us->u[which[i]].n_top;
		m.top = slt_arena_calloc(us->ar, tot, sizeof(*m.top));
		m.rel = slt_arena_calloc(us->ar, tot, sizeof(*m.rel));
		if (!m.top || !m.rel)
			rc = SLT_ENOMEM;
		m.align = 1;
		for (size_t i = 0; i < nu && !rc; i++) {
			const struct slt_adv_unit *x = &us->u[which[i]];
			uint64_t o = align_up(cur, x->align);
			for (size_t t = 0; t < x->n_top; t++) {
				m.top[m.n_top] = x->top[t];
				m.rel[m.n_top++] = o + x->rel[t];
			}
			m.flags |= x->flags;
			if (x->align > m.align)
				m.align = x->align;
			cur = o + x->size;
			if (which[i] < at)
				at = which[i];
		}
		if (!rc) {
			m.flags |= SLT_ADV_KEPT;
			m.size = cur;
			m.name = us->u[which[0]].name;
			m.orig_offset = us->u[at].orig_offset;
			us->u[at] = m;
			/* drop the others, keep offset order */
			size_t o = 0;
			for (size_t u = 0; u < us->n; u++) {
				bool drop = false;
				for (size_t i = 0; i < nu; i++)
					drop |= which[i] == u && u != at;
				if (!drop)
					us->u[o++] = us->u[u];
			}
			us->n = o;
		}
	}
	(void)s;
	free(which);
	return rc;
}

int slt_adv_units_build(const struct slt_analysis *a,
			const struct slt_advice_opts *opts,
			struct slt_adv_units *out, struct slt_error *err)
{
	const struct slt_struct *s = a->layout;
	size_t *tops = NULL, nt = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->level = -1;
	out->a = a;
	out->orig = s;
	out->line = opts && opts->cacheline_size ? opts->cacheline_size :
		    a->cacheline_size ? a->cacheline_size : SLT_CACHELINE_DEFAULT;
	out->separation = opts && opts->separation ? opts->separation : out->line;
	if (out->separation < out->line || out->separation % out->line)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL,
				     "separation %u bytes: want a multiple of the "
				     "cacheline size (%u) and at least it",
				     out->separation, out->line);
	out->ar = slt_arena_new();
	if (out->ar) {
		uint32_t ba = opts ? opts->base_align : 0;
		if (ba && (ba & (ba - 1))) {
			slt_arena_free(out->ar);
			out->ar = NULL;
			return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL,
					     "base alignment %u bytes: want a power of two", ba);
		}
		if (!ba || ba >= out->separation)
			ba = out->separation;
		out->n_origins = out->separation / ba;
		out->origins = slt_arena_calloc(out->ar, out->n_origins, sizeof(*out->origins));
		for (size_t k = 0; out->origins && k < out->n_origins; k++)
			out->origins[k] = (uint32_t)(((opts ? opts->base_offset : 0) + k * ba) %
						     out->separation);
		if (!out->origins)
			out->n_origins = 0;
	}
	tops = calloc(s->n_members ? s->n_members : 1, sizeof(*tops));
	out->u = calloc(s->n_members ? s->n_members : 1, sizeof(*out->u));
	if (!out->ar || !tops || !out->u) {
		rc = SLT_ENOMEM;
		goto out;
	}
	if (s->kind == SLT_KIND_STRUCT && (rc = open_chain(out)))
		goto out;
	/* the units' level: the top level, or the innermost opened
	 * anonymous struct's members, then the top level's flexible tail */
	for (size_t i = 0; i < s->n_members; i++)
		if (s->members[i].parent == out->level ||
		    (out->level >= 0 && !s->members[i].depth &&
		     (s->members[i].flags & SLT_MEMBER_FLEX)))
			tops[nt++] = i;
	if (s->kind != SLT_KIND_STRUCT) {
		rc = slt_error_set(err, SLT_EUSAGE, NULL, -1,
				   "ask for a struct; a union's members all start at 0",
				   "%s is a union: nothing to reorder", s->name);
		goto out;
	}
	/* runs of top-level members whose bytes overlap: a stack of
	 * [first, last) ranges over tops; a member whose bytes (a bitfield's
	 * storage unit) start inside an earlier run merges back to it, as
	 * `u8 a; bool b; enum e c:16;` whose storage starts at a */
	size_t *first = calloc(nt ? nt : 1, sizeof(*first));
	uint64_t *lo = calloc(nt ? nt : 1, sizeof(*lo));
	uint64_t *hi = calloc(nt ? nt : 1, sizeof(*hi));
	size_t ns = 0;
	if (!first || !lo || !hi)
		rc = SLT_ENOMEM;
	for (size_t i = 0; i < nt && !rc; i++) {
		const struct slt_member *m = &s->members[tops[i]];
		first[ns] = i;
		lo[ns] = m->offset;
		hi[ns] = m->offset + m->size;
		ns++;
		while (ns >= 2 && m->size && lo[ns - 1] < hi[ns - 2] &&
		       hi[ns - 2] > lo[ns - 2]) {
			if (lo[ns - 1] < lo[ns - 2])
				lo[ns - 2] = lo[ns - 1];
			if (hi[ns - 1] > hi[ns - 2])
				hi[ns - 2] = hi[ns - 1];
			ns--;
		}
	}
	for (size_t k = 0; k < ns && !rc; k++)
		rc = unit_of(out, tops, first[k], k + 1 < ns ? first[k + 1] : nt,
			     &out->u[out->n++]);
	free(first);
	free(lo);
	free(hi);
	if (rc)
		goto out;
	/* --move-anchors frees the anchors, but a forced-aligned last member
	 * stays last unless opts->move_last: the kernel sizes some of them
	 * at run time (x86 task_struct's `thread`, whose fpu state follows
	 * it: "This must be the last member") */
	if (opts && opts->move_anchors)
		for (size_t u = 0; u < out->n; u++) {
			struct slt_adv_unit *x = &out->u[u];
			if (x->orig_offset % x->align)
				continue;
			if (u + 1 == out->n && !opts->move_last &&
			    (x->flags & SLT_ADV_ANCHORED) &&
			    !(x->flags & (SLT_ADV_MARKER | SLT_ADV_LAST)))
				x->flags |= SLT_ADV_LAST;
			x->flags &= ~SLT_ADV_ANCHORED;
		}
	if (!rc)
		rc = slt_adv_kernel_groups(out, opts && opts->move_anchors);
	for (size_t p = 0; opts && p < opts->n_pins && !rc; p++) {
		size_t top;
		if (find_top(out, opts->pins[p], &top)) {
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1,
					   "name a top-level member of the struct (or of "
					   "the anonymous struct that holds them all)",
					   "--pin: %s has no member %s", s->name,
					   opts->pins[p]);
			break;
		}
		for (size_t u = 0; u < out->n; u++)
			for (size_t t = 0; t < out->u[u].n_top; t++)
				if (out->u[u].top[t] == top)
					out->u[u].flags |= SLT_ADV_ANCHORED | SLT_ADV_PINNED;
	}
	/* the first member stays at 0 unless asked (container_of(), casts
	 * of the struct pointer to the first member's type) */
	for (size_t t = 0; !rc && nt && !(opts && opts->move_first) &&
	     t < out->u[0].n_top; t++)
		if (out->u[0].top[t] == tops[0] && !(out->u[0].flags & SLT_ADV_PINNED))
			out->u[0].flags |= SLT_ADV_ANCHORED | SLT_ADV_PINNED | SLT_ADV_FIRST;
	for (size_t k = 0; opts && k < opts->n_keep_together && !rc; k++)
		rc = keep_together(out, opts->keep_together[k], err);
	if (!rc)
		rc = unit_stats(out);
	uint32_t seg = 0;
	for (size_t u = 0; !rc && u < out->n; u++) {
		if (out->u[u].flags & SLT_ADV_ANCHORED)
			seg++;
		out->u[u].seg = seg;
		if (!(out->u[u].flags & (SLT_ADV_ANCHORED | SLT_ADV_LAST)))
			out->n_movable++;
	}
	if (!rc)
		rc = slt_adv_segments(out, seg + 1);
out:
	free(tops);
	if (rc) {
		if (rc == SLT_ENOMEM)
			slt_error_set(err, rc, NULL, -1, NULL, "out of memory");
		slt_adv_units_free(out);
	}
	return rc;
}

void slt_adv_units_free(struct slt_adv_units *us)
{
	if (!us)
		return;
	free(us->u);
	free(us->path_weight);
	slt_arena_free(us->ar);
	memset(us, 0, sizeof(*us));
}
