/* SPDX-License-Identifier: MIT */
/*
 * A plan (an order of units plus inserted CACHELINE_PADDING) placed with C
 * layout rules (C17 6.7.2.1: members in declaration order, each at an
 * offset its alignment divides; sizeof a multiple of the struct's
 * alignment), and turned into a struct slt_struct.
 *
 * Holes inside a unit (nested levels, bit holes, gaps inside a
 * keep-together unit) move with it; the top-level byte holes between
 * units, the tail padding and pahole's summary are recomputed
 * (slt_struct_summarize(), the builder's own code).
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice_int.h"
#include "layout/build.h"
#include "layout/infer.h"
#include "layout/types.h"

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

/* Alignment of the outermost opened anonymous struct (1 when none is
 * opened): its natural one, or its forced one. */
static uint64_t opened_align(const struct slt_adv_units *us)
{
	const struct slt_member *w;
	uint64_t a;

	if (!us->n_opened)
		return 1;
	w = &us->orig->members[us->opened[0]];
	a = w->natural_alignment > w->alignment ? w->natural_alignment : w->alignment;
	return a ? a : 1;
}

bool slt_adv_kept_straddles(const struct slt_adv_units *us,
			    const struct slt_adv_unit *u, uint64_t o)
{
	uint64_t start, sep = us->separation > us->line ? us->separation : us->line, step;

	if (!(u->flags & SLT_ADV_KEPT) || !u->size || u->size > us->line)
		return false;
	/* the starts are origins[0] + k x step (mod the separation); a line
	 * is a multiple of step, so a unit within one step-aligned block
	 * (at the start) is within one line at every start, and one that
	 * crosses a block boundary has a line boundary there at some start */
	step = us->n_origins > 1 ? sep / us->n_origins : us->line;
	if (step > us->line)
		step = us->line;
	if (u->size > step) /* no offset keeps it whole at every start */
		return false;
	start = o + (us->n_origins ? us->origins[0] : 0);
	return start / step != (start + u->size - 1) / step;
}

bool slt_adv_anchor_at(const struct slt_adv_unit *u, uint64_t c, uint64_t *o)
{
	if (c > u->orig_offset)
		return false;
	if (u->orig_offset % u->align) { /* only where it was */
		*o = u->orig_offset;
		return true;
	}
	if ((u->flags & SLT_ADV_PINNED) && c != u->orig_offset)
		return false;
	*o = c;
	return true;
}

bool slt_adv_place(const struct slt_adv_units *us,
		   const struct slt_adv_plan *p, uint64_t *off,
		   uint64_t *size)
{
	uint64_t cur = 0, salign = us->orig->alignment ? us->orig->alignment : 1;
	uint64_t walign = opened_align(us);
	uint32_t seg = 0;

	if (p->n != us->n)
		return false;
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_adv_unit *u;
		uint64_t o;

		if (p->order[i] >= us->n)
			return false;
		u = &us->u[p->order[i]];
		if (p->pad[i]) {
			cur = align_up(cur, us->line);
			if (us->line > salign)
				salign = us->line;
			if (us->line > walign)
				walign = us->line;
		}
		o = align_up(cur, u->align);
		if (u->flags & SLT_ADV_ANCHORED) {
			if (u->seg != seg + 1 || p->pad[i] == SLT_ADV_PAD_WRAP)
				return false;
			/* a fence lands where C puts it */
			if (!(u->flags & SLT_ADV_FENCE) && !slt_adv_anchor_at(u, o, &o))
				return false;
			seg++;
		} else if (!(u->flags & SLT_ADV_LAST) && !slt_adv_seg_ok(us, u, seg, p->cross)) {
			return false;
		}
		if ((u->flags & SLT_ADV_LAST) && i + 1 != p->n)
			return false;
		if (slt_adv_kept_straddles(us, u, o))
			return false;
		/* a flexible tail after opened anonymous structs starts where
		 * the outermost one ends: its size is rounded up to its
		 * alignment */
		if ((u->flags & SLT_ADV_LAST) && us->n_opened)
			o = align_up(o, walign);
		off[i] = o;
		cur = o + u->size;
		/* a wrapped unit's anonymous struct is a multiple of the line */
		if (p->pad[i] == SLT_ADV_PAD_WRAP)
			cur = align_up(cur, us->line);
	}
	*size = align_up(cur, salign);
	/* a struct with forced alignment or a flexible tail keeps at least
	 * the room the compiler gave it when nothing else changed */
	return true;
}

/*
 * The holes, bit holes and tail padding of one level of l (members
 * placed) by the builder's own rules (layout/infer.h: pahole's
 * class__find_holes(), a hole counted from the end of the last member, so
 * a char inside a bitfield's storage unit ends where the char ends): the
 * members whose parent is `parent` (-1: the top level) as a struct type of
 * the parent's size (l->size at the top).  Appends to h (room for two per
 * member of the level and one before the first); at the top level sets
 * l->padding and l->bit_padding.  Returns 0 or SLT_ENOMEM.
 */
static int level_holes(struct slt_struct *l, int32_t parent,
		       struct slt_hole *h, size_t *nh)
{
	size_t n = 0;
	uint64_t base = parent < 0 ? 0 : l->members[parent].offset;
	struct slt_type t = { .kind = SLT_T_STRUCT,
			      .size = parent < 0 ? l->size : l->members[parent].size };
	struct slt_type *mt;
	struct slt_tmember *tm;
	uint32_t *idx;
	struct holes o;
	struct pm *pm = NULL;
	int rc = 0;

	for (size_t i = 0; i < l->n_members; i++)
		n += l->members[i].parent == parent;
	mt = calloc(n ? n : 1, sizeof(*mt));
	tm = calloc(n ? n : 1, sizeof(*tm));
	idx = calloc(n ? n : 1, sizeof(*idx));
	if (!mt || !tm || !idx) {
		rc = SLT_ENOMEM;
		goto out;
	}
	for (size_t i = 0, k = 0; i < l->n_members; i++) {
		const struct slt_member *m = &l->members[i];
		if (m->parent != parent)
			continue;
		mt[k] = (struct slt_type){ .kind = SLT_T_INT, .size = m->size };
		tm[k] = (struct slt_tmember){ .name = m->name, .type = &mt[k],
			.bit_offset = (m->offset - base) * 8 +
				(m->flags & SLT_MEMBER_BITFIELD ? m->bit_offset : 0),
			.bit_size = m->flags & SLT_MEMBER_BITFIELD ? m->bit_size : 0 };
		idx[k++] = (uint32_t)i;
	}
	t.members = tm;
	t.n_members = (uint32_t)n;
	rc = slt_lay_type_holes(&t, &pm, &o);
	if (rc)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 && o.pre_bit_hole)
			h[(*nh)++] = (struct slt_hole){ base, (uint64_t)o.pre_bit_hole,
				UINT32_MAX, parent, SLT_HOLE_BITS };
		if (i == 0 && o.pre_hole)
			h[(*nh)++] = (struct slt_hole){ base + (uint64_t)(pm[0].byte_offset -
				o.pre_hole), (uint64_t)o.pre_hole, UINT32_MAX, parent, 0 };
		if (o.bit_hole[i])
			h[(*nh)++] = (struct slt_hole){ base + (uint64_t)pm[i].byte_offset,
				(uint64_t)o.bit_hole[i], idx[i], parent, SLT_HOLE_BITS };
		if (o.hole[i] && i + 1 < n)
			h[(*nh)++] = (struct slt_hole){ base + (uint64_t)(pm[i + 1].byte_offset -
				o.hole[i]), (uint64_t)o.hole[i], idx[i], parent, 0 };
	}
	if (parent < 0) {
		l->padding = (uint64_t)o.padding;
		l->bit_padding = (uint32_t)o.bit_padding;
	}
	free(pm);
	slt_lay_holes_free(&o);
out:
	free(mt);
	free(tm);
	free(idx);
	return rc;
}

/* A fresh name _padN_ the struct does not use, from *pad_no on. */
static char *pad_name(struct slt_arena *ar, const struct slt_struct *s,
		      size_t *pad_no)
{
	for (;; (*pad_no)++) {
		bool clash = false;
		char *name = slt_arena_printf(ar, SLT_ADV_PAD_PREFIX "%zu_", *pad_no);
		if (!name)
			return NULL;
		for (size_t j = 0; j < s->n_members && !clash; j++)
			clash = !strcmp(s->members[j].name, name);
		if (!clash) {
			(*pad_no)++;
			return name;
		}
	}
}

const char slt_adv_wrap_type[] = "struct {...}";
const char slt_adv_pad_type[] = SLT_ADV_PAD_TYPE;

int slt_adv_relayout(struct slt_arena *ar, const struct slt_adv_units *us,
		     const struct slt_adv_plan *p, struct slt_struct *out,
		     size_t **moved, size_t *n_moved)
{
	const struct slt_struct *s = us->orig;
	uint64_t *off = NULL, size;
	int64_t *delta = NULL;       /* per original member */
	size_t *newidx = NULL;       /* per original member */
	size_t n_pad = 0, nm, k = 0, nh = 0, pad_no = 1;
	struct slt_member *m;
	struct slt_hole *h;
	int rc = 0;

	*moved = NULL;
	*n_moved = 0;
	off = calloc(p->n ? p->n : 1, sizeof(*off));
	delta = calloc(s->n_members ? s->n_members : 1, sizeof(*delta));
	newidx = calloc(s->n_members ? s->n_members : 1, sizeof(*newidx));
	if (!off || !delta || !newidx) {
		rc = SLT_ENOMEM;
		goto out;
	}
	if (!slt_adv_place(us, p, off, &size)) {
		rc = SLT_EUSAGE;
		goto out;
	}
	for (size_t i = 0; i < p->n; i++)
		n_pad += p->pad[i] != 0;
	nm = s->n_members + n_pad;
	m = slt_arena_calloc(ar, nm ? nm : 1, sizeof(*m));
	/* original holes plus at most one gap before each top-level member */
	h = slt_arena_calloc(ar, s->n_holes + 2 * nm + 2 * us->n_opened + 2,
			       sizeof(*h));
	if (!m || !h) {
		rc = SLT_ENOMEM;
		goto out;
	}
	*out = *s;
	out->members = m;
	out->holes = h;
	out->n_members = nm;
	out->size = size;
	out->alignment = s->alignment;
	if (n_pad && us->line > out->alignment)
		out->alignment = us->line;
	/* a forced-aligned member makes the struct's alignment forced, as
	 * the compiled declaration's debug info and pahole show it */
	if (n_pad && us->line > out->forced_alignment)
		out->forced_alignment = us->line;
	/* summary: recomputed below */
	out->n_top_members = 0;
	out->sum_members = 0;
	out->n_byte_holes = 0;
	out->sum_byte_holes = 0;
	out->sum_bitfield_bits = 0;
	out->n_bit_holes = 0;
	out->sum_bit_holes = 0;
	out->n_paddings = 0;
	out->sum_paddings = 0;
	out->n_forced_alignments = 0;
	out->n_forced_holes = 0;
	out->sum_forced_holes = 0;

	/* the opened anonymous structs, outermost first (each the only
	 * member with bytes of its level, at its parent's start); their
	 * sizes follow the units */
	int32_t lvl = -1;
	uint32_t ldepth = 0;
	for (size_t j = 0; j < us->n_opened; j++) {
		size_t w = us->opened[j];
		newidx[w] = k;
		m[k] = s->members[w];
		if (m[k].parent >= 0)
			m[k].parent = (int32_t)newidx[m[k].parent];
		lvl = (int32_t)k++;
		ldepth = s->members[w].depth + 1;
	}
	uint64_t cur = 0, lend = 0;
	for (size_t i = 0; i < p->n && !rc; i++) {
		const struct slt_adv_unit *u = &us->u[p->order[i]];
		bool last_top = (u->flags & SLT_ADV_LAST) && us->n_opened;
		int32_t wrap = -1;
		if (p->pad[i] == SLT_ADV_PAD_LINE) {
			struct slt_member *pm = &m[k++];
			char *name = pad_name(ar, s, &pad_no);
			uint64_t po = align_up(cur, us->line);
			if (!name) {
				rc = SLT_ENOMEM;
				break;
			}
			memset(pm, 0, sizeof(*pm));
			pm->name = name;
			pm->type = slt_adv_pad_type;
			pm->decl_head = SLT_ADV_PAD_TYPE;
			pm->decl_tail = "";
			pm->offset = po;
			pm->flags = SLT_MEMBER_ZERO_SIZE | SLT_MEMBER_COMPOSITE;
			pm->parent = lvl;
			pm->depth = ldepth;
			/* as pahole shows CACHELINE_PADDING: the type's alignment
			 * (____cacheline_internodealigned_in_smp) is forced */
			pm->alignment = us->line;
			pm->natural_alignment = us->line;
			cur = po;
		} else if (p->pad[i] == SLT_ADV_PAD_WRAP) {
			/* struct { ... } ____cacheline_aligned_in_smp; as
			 * pahole shows the kernel's (6.2+ mm_struct) */
			struct slt_member *wm = &m[k];
			memset(wm, 0, sizeof(*wm));
			wm->name = "";
			wm->type = slt_adv_wrap_type;
			wm->decl_head = "struct {";
			wm->decl_tail = "";
			wm->offset = off[i];
			wm->size = align_up(u->size, us->line);
			wm->flags = SLT_MEMBER_ANON | SLT_MEMBER_INLINE | SLT_MEMBER_COMPOSITE;
			wm->parent = lvl;
			wm->depth = ldepth;
			wm->n_children = (uint32_t)u->n_top;
			wm->alignment = us->line;
			wm->type_alignment = us->line;
			wm->natural_alignment = us->line;
			wm->type_padding = wm->size - u->size;
			wrap = (int32_t)k++;
		}
		for (size_t t = 0; t < u->n_top; t++) {
			size_t i0 = u->top[t], e = i0 + 1;
			const struct slt_member *om = &s->members[i0];
			uint64_t no = off[i] + u->rel[t];
			while (e < s->n_members && s->members[e].depth > om->depth)
				e++;
			for (size_t j = i0; j < e; j++) {
				newidx[j] = k;
				delta[j] = (int64_t)no - (int64_t)om->offset;
				m[k] = s->members[j];
				m[k].offset = (uint64_t)((int64_t)s->members[j].offset + delta[j]);
				if (j == i0 && wrap >= 0)
					m[k].parent = wrap;
				else if (m[k].parent >= 0)
					m[k].parent = (int32_t)newidx[m[k].parent];
				m[k].depth += wrap >= 0;
				k++;
			}
			if (no + om->size > cur)
				cur = no + om->size;
		}
		if (wrap >= 0)
			cur = m[wrap].offset + m[wrap].size;
		if (!last_top)
			lend = cur;
	}
	if (rc)
		goto out;
	if (us->n_opened) {
		/* the opened structs end where their last unit does, rounded
		 * up to their alignment (the line's once padded) */
		uint64_t wa = opened_align(us);
		if (n_pad && us->line > wa)
			wa = us->line;
		for (size_t j = 0; j < us->n_opened; j++) {
			struct slt_member *w = &m[newidx[us->opened[j]]];
			w->size = align_up(lend, wa) - w->offset;
			w->type_padding = w->size - (lend - w->offset);
			/* a line-aligned member inside makes the anonymous
			 * struct's alignment forced, as the compiled
			 * declaration's debug info and pahole show it */
			if (wa > w->natural_alignment) {
				w->natural_alignment = (uint32_t)wa;
				w->alignment = w->type_alignment = (uint32_t)wa;
			}
		}
	}
	/* nested holes move with their unit; the holes, bit holes and tail
	 * padding of the levels reordered are found again as the builder
	 * finds them */
	for (size_t j = 0; j < s->n_holes; j++) {
		const struct slt_hole *oh = &s->holes[j];
		size_t a = oh->after;
		bool redone = oh->parent < 0;
		for (size_t q = 0; q < us->n_opened; q++)
			redone |= (size_t)oh->parent == us->opened[q];
		if (redone || a == UINT32_MAX || a >= s->n_members)
			continue;
		h[nh] = *oh;
		h[nh].offset = (uint64_t)((int64_t)oh->offset + delta[a]);
		h[nh].after = (uint32_t)newidx[a];
		h[nh].parent = (int32_t)newidx[oh->parent];
		nh++;
	}
	rc = level_holes(out, -1, h, &nh);
	for (size_t j = 0; !rc && j < us->n_opened; j++)
		rc = level_holes(out, (int32_t)newidx[us->opened[j]], h, &nh);
	if (rc)
		goto out;
	slt_struct_sort_holes(h, nh);
	out->n_holes = nh;
	slt_struct_summarize(out);
	/* moved: original members whose offset changed */
	size_t nmv = 0;
	for (size_t j = 0; j < s->n_members; j++)
		nmv += delta[j] != 0;
	if (nmv) {
		*moved = slt_arena_calloc(ar, nmv, sizeof(**moved));
		if (!*moved) {
			rc = SLT_ENOMEM;
			goto out;
		}
		for (size_t j = 0; j < s->n_members; j++)
			if (delta[j])
				(*moved)[(*n_moved)++] = j;
	}
out:
	free(off);
	free(delta);
	free(newidx);
	return rc;
}
