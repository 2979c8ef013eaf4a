/* SPDX-License-Identifier: MIT */
/*
 * pahole-style text for layouts.  With opts->color and opts->decl off the
 * bytes equal `pahole -C NAME` 1.24 (and `pahole -E` for expanded layouts):
 * column widths (type 26, name 23, 21 in a union, 55 with -E, type column
 * 8 narrower per nesting level), cacheline boundary comments, hole, bit
 * hole and "last struct has" comments, "Bitfield combined" notes, the
 * reconstructed unnamed bitfields (`int :5;`), attributes and the closing
 * summary.  Rules from dwarves_fprintf.c (__class__fprintf(),
 * class_member__fprintf(), union__fprintf()), checked on real output.
 * This file: a struct and its levels (holes, notes, padding, figures);
 * one member's declaration is text_member.c's (report/text_int.h).
 */
#include <stdlib.h>
#include <string.h>

#include "report/text_int.h"

static void hole_line(struct tctx *t, int indent, uint8_t *newline,
		      uint64_t size, bool bits)
{
	if (!(*newline)++)
		out(t, "\n");
	out(t, "\n");
	comment(t, indent, "/* XXX %llu %s%s hole, try to pack */",
		(unsigned long long)size, bits ? "bit" : "byte", plural(size));
}

/* Tail padding in bytes of the inline level of member parent (-1: the
 * struct): the type's, else where its last member ends. */
static uint64_t level_padding(const struct tctx *t, int32_t parent)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *p;
	uint64_t end = 0, size, n = 1;

	if (parent < 0)
		return s->padding;
	p = &s->members[parent];
	if (p->type_padding || (p->flags & SLT_MEMBER_UNION))
		return p->type_padding;
	/* an inline array: the level is one element ("[5][2]": 10) */
	for (const char *q = p->decl_tail; *q == '['; q = strchr(q, ']') + 1) {
		n *= strtoull(q + 1, NULL, 10);
		if (!strchr(q, ']') || !n)
			return 0;
	}
	size = p->size / n;
	for (size_t k = (size_t)parent + 1; k < s->n_members &&
	     s->members[k].depth > p->depth; k++) {
		const struct slt_member *c = &s->members[k];
		if (c->parent == parent && c->offset + c->size > end)
			end = c->offset + c->size;
	}
	return end && end < p->offset + size ? p->offset + size - end : 0;
}

/* The closing figures of the inline struct level of member idx, in the
 * fields slt_tx_summary() reads. */
void slt_tx_level_figures(const struct tctx *t, size_t idx, struct slt_struct *f)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *p = &s->members[idx];
	int64_t prev = -1;

	memset(f, 0, sizeof(*f));
	f->size = p->size;
	f->padding = level_padding(t, (int32_t)idx);
	for (size_t k = idx + 1; k < s->n_members && s->members[k].depth > p->depth; k++) {
		const struct slt_member *c = &s->members[k];

		if (c->parent != (int32_t)idx)
			continue;
		f->n_top_members++;
		if (c->flags & SLT_MEMBER_BITFIELD)
			f->sum_bitfield_bits += c->bit_size;
		else
			f->sum_members += c->size;
		if (c->type_padding) {
			f->n_paddings++;
			f->sum_paddings += c->type_padding;
		}
		if (c->alignment) {
			f->n_forced_alignments++;
			for (size_t h = 0; h < s->n_holes; h++)
				if (s->holes[h].parent == (int32_t)idx &&
				    !(s->holes[h].flags & SLT_HOLE_BITS) &&
				    s->holes[h].after == (prev < 0 ? UINT32_MAX : (uint32_t)prev)) {
					f->n_forced_holes++;
					f->sum_forced_holes += s->holes[h].size;
				}
		}
		prev = (int64_t)k;
	}
	for (size_t h = 0; h < s->n_holes; h++) {
		if (s->holes[h].parent != (int32_t)idx)
			continue;
		if (s->holes[h].flags & SLT_HOLE_BITS) {
			f->n_bit_holes++;
			f->sum_bit_holes += s->holes[h].size;
		} else {
			f->n_byte_holes++;
			f->sum_byte_holes += s->holes[h].size;
		}
	}
}

/*
 * __class__fprintf()'s "Force padding" lines, with debug info that has
 * alignment attributes (DWARF, not BTF): a struct level with tail padding
 * and no alignment of its own whose last member's type has a power-of-two
 * size gets that padding re-created as unnamed bitfields of that type,
 * when the padding exceeds the address size (8 bytes assumed: x86-64).
 * Clang shows it where gcc writes DW_AT_alignment on the struct.
 */
static void force_padding(struct tctx *t, int32_t parent,
			  const struct slt_member *last, int indent, int ts)
{
	const struct slt_struct *s = t->s;
	uint64_t padding = level_padding(t, parent);
	uint32_t align = parent < 0 ? s->forced_alignment
				    : s->members[parent].type_alignment;
	uint64_t size = last->size;

	if (s->format != SLT_FORMAT_DWARF || !padding || align || !size ||
	    (size & (size - 1)) || padding <= 8)
		return;
	out(t, "\n");
	comment(t, indent, "/* Force padding: */");
	out(t, "\n");
	for (uint64_t added = 0; added < padding; added += size) {
		const char *rest;

		tabs(t, indent);
		if (last->typedef_name)
			slt_tx_td_comment(t, last);
		slt_tx_type_col(t, last->decl_head, ts, &rest);
		out(t, "%s%s:%llu;\n", rest, last->decl_tail,
		    (unsigned long long)size * 8);
	}
}

/* The members in [first, end) whose depth is that of first: one level of
 * a struct (as __class__fprintf() prints it) or of a union. */
void slt_tx_level(struct tctx *t, size_t first, size_t end, int indent, int ts,
		  bool is_union)
{
	const struct slt_struct *s = t->s;
	const struct slt_member *last = NULL;
	uint64_t last_size = 0;
	uint8_t newline = 0;
	uint32_t union_line = t->cacheline;
	int32_t parent = first < s->n_members ? s->members[first].parent : -1;

	if (!is_union) {
		/* holes before the first member */
		for (size_t k = 0; k < s->n_holes; k++) {
			const struct slt_hole *h = &s->holes[k];
			if (h->after != UINT32_MAX || h->parent != parent ||
			    !(h->flags & SLT_HOLE_BITS))
				continue;
			if (!newline++)
				out(t, "\n");
			comment(t, indent, "/* XXX %llu bit%s hole, try to pack */",
				(unsigned long long)h->size, plural(h->size));
			out(t, "\n");
		}
		for (size_t k = 0; k < s->n_holes; k++) {
			const struct slt_hole *h = &s->holes[k];
			if (h->after != UINT32_MAX || h->parent != parent ||
			    (h->flags & SLT_HOLE_BITS))
				continue;
			if (!newline++)
				out(t, "\n");
			comment(t, indent, "/* XXX %llu byte%s hole, try to pack */",
				(unsigned long long)h->size, plural(h->size));
			out(t, "\n");
		}
	}

	for (size_t i = first; i < end; i += subtree(s, i)) {
		const struct slt_member *pos = &s->members[i];
		bool pos_bf = pos->flags & SLT_MEMBER_BITFIELD;

		if (is_union) {
			tabs(t, indent);
			slt_tx_member(t, i, indent, ts);
			out(t, "\n");
			t->cacheline = union_line;
			continue;
		}
		if (last && last_size != 0) {
			bool last_bf = last->flags & SLT_MEMBER_BITFIELD;
			const struct slt_hole *lbh = t->bit_hole[last - s->members];

			if (lbh && pos_bf) {
				/* pahole re-creates the unnamed bitfield */
				uint64_t bf = lbh->size;
				const char *rest;

				if (last->offset != pos->offset) {
					out(t, "\n");
					comment(t, indent, "/* Force alignment to the next boundary: */");
					out(t, "\n");
					bf = 0;
				}
				tabs(t, indent);
				if (pos->typedef_name)
					slt_tx_td_comment(t, pos);
				slt_tx_type_col(t, pos->decl_head, ts, &rest);
				out(t, "%s:%llu;\n", rest, (unsigned long long)bf);
			}
			if (pos->offset < last->offset ||
			    (pos->offset == last->offset && !last_bf && pos_bf)) {
				if (!newline++)
					out(t, "\n");
				comment(t, indent, "/* Bitfield combined with previous fields */");
				out(t, "\n");
			} else if (pos->offset > last->offset &&
				   pos->offset - last->offset < last_size) {
				if (!newline++)
					out(t, "\n");
				comment(t, indent, "/* Bitfield combined with next fields */");
				out(t, "\n");
			}
		}
		if (newline) {
			out(t, "\n");
			newline = 0;
		}
		tabs(t, indent);
		slt_tx_member(t, i, indent, ts);
		if (pos->type_padding) {
			if (!newline++)
				out(t, "\n");
			out(t, "\n");
			comment(t, indent, "/* XXX last struct has %llu byte%s of padding */",
				(unsigned long long)pos->type_padding,
				plural(pos->type_padding));
		}
		if (t->bit_hole[i])
			hole_line(t, indent, &newline, t->bit_hole[i]->size, true);
		if (t->hole[i])
			hole_line(t, indent, &newline, t->hole[i]->size, false);
		out(t, "\n");

		if (!last || last_size == 0 || last->offset != pos->offset)
			last_size = pos->size;
		else if (!(last->flags & SLT_MEMBER_BITFIELD) && pos_bf)
			last_size = pos->size;
		last = pos;
	}
	if (!is_union && last)
		force_padding(t, parent, last, indent, ts);
}

/* type__fprintf_stats() and __class__fprintf()'s closing figures of s
 * (the struct, or a level's figures from slt_tx_level_figures()), at indent,
 * for a level starting base bytes into the outermost struct. */
void slt_tx_summary(struct tctx *t, const struct slt_struct *s, int ind,
		    uint64_t base)
{
	uint64_t lastcl = (base + s->size) % t->cl;

	out(t, "\n");
	comment(t, ind, "/* size: %llu, cachelines: %llu, members: %zu */",
		(unsigned long long)s->size,
		(unsigned long long)slt_cachelines(s->size, t->cl), s->n_top_members);
	out(t, "\n");
	if (s->sum_byte_holes || s->sum_bit_holes) {
		if (s->sum_members) {
			tabs(t, ind);
			col(t, C_COMMENT);
			out(t, "/* sum members: %llu", (unsigned long long)s->sum_members);
			if (s->sum_byte_holes)
				out(t, ", holes: %u, sum holes: %llu", s->n_byte_holes,
				    (unsigned long long)s->sum_byte_holes);
			out(t, " */");
			col(t, C_OFF);
			out(t, "\n");
		}
		if (s->sum_bitfield_bits) {
			tabs(t, ind);
			col(t, C_COMMENT);
			out(t, "/* sum bitfield members: %llu bits",
			    (unsigned long long)s->sum_bitfield_bits);
			if (s->sum_bit_holes)
				out(t, ", bit holes: %u, sum bit holes: %llu bits",
				    s->n_bit_holes, (unsigned long long)s->sum_bit_holes);
			else
				out(t, " (%llu bytes)",
				    (unsigned long long)s->sum_bitfield_bits / 8);
			out(t, " */");
			col(t, C_OFF);
			out(t, "\n");
		}
	}
	if (s->padding) {
		comment(t, ind, "/* padding: %llu */", (unsigned long long)s->padding);
		out(t, "\n");
	}
	if (s->n_paddings) {
		comment(t, ind, "/* paddings: %u, sum paddings: %llu */", s->n_paddings,
			(unsigned long long)s->sum_paddings);
		out(t, "\n");
	}
	if (s->bit_padding) {
		comment(t, ind, "/* bit_padding: %u bits */", s->bit_padding);
		out(t, "\n");
	}
	if (s->n_forced_alignments) {
		tabs(t, ind);
		col(t, C_COMMENT);
		out(t, "/* forced alignments: %u", s->n_forced_alignments);
		if (s->n_forced_holes)
			out(t, ", forced holes: %u, sum forced holes: %llu",
			    s->n_forced_holes, (unsigned long long)s->sum_forced_holes);
		out(t, " */");
		col(t, C_OFF);
		out(t, "\n");
	}
	if (lastcl) {
		comment(t, ind, "/* last cacheline: %llu bytes */", (unsigned long long)lastcl);
		out(t, "\n");
	}
}

/* t->hole and t->bit_hole: the hole after each member of t->s, or NULL.
 * 0 or SLT_ENOMEM. */
int slt_tx_holes(struct tctx *t)
{
	const struct slt_struct *s = t->s;

	t->hole = calloc(s->n_members + 1, sizeof(*t->hole));
	t->bit_hole = calloc(s->n_members + 1, sizeof(*t->bit_hole));
	if (!t->hole || !t->bit_hole) {
		free(t->hole);
		free(t->bit_hole);
		return SLT_ENOMEM;
	}
	for (size_t k = 0; k < s->n_holes; k++) {
		const struct slt_hole *h = &s->holes[k];
		if (h->after >= s->n_members)
			continue;
		if (h->flags & SLT_HOLE_BITS)
			t->bit_hole[h->after] = h;
		else
			t->hole[h->after] = h;
	}
	return 0;
}

static int write_struct(FILE *f, const struct slt_struct *s,
			const struct slt_report_opts *opts)
{
	struct tctx t = { .f = f, .s = s, .color = opts && opts->color,
			  .align_once = opts && opts->align_once,
			  .user_pads = opts && opts->user_pads };
	bool is_union = s->kind == SLT_KIND_UNION;

	t.cl = opts && opts->cacheline_size ? opts->cacheline_size
					     : SLT_CACHELINE_DEFAULT;
	t.name_spacing = s->expanded ? 55 : is_union ? 21 : 23;
	if (slt_tx_holes(&t))
		return SLT_ENOMEM;
	if (opts && opts->decl && s->decl_file && *s->decl_file) {
		col(&t, C_COMMENT);
		out(&t, "/* %s:%u */", s->decl_file, s->decl_line);
		col(&t, C_OFF);
		out(&t, "\n");
	}
	col(&t, C_KW);
	if (s->typedef_named)
		out(&t, "typedef ");
	out(&t, "%s", is_union ? "union" : "struct");
	col(&t, C_OFF);
	if (*s->name && !s->typedef_named) {
		out(&t, " ");
		col(&t, C_TYPE);
		out(&t, "%s", s->name);
		col(&t, C_OFF);
	}
	out(&t, " {\n");
	slt_tx_level(&t, 0, s->n_members, 1, 26, is_union);
	if (!is_union)
		slt_tx_summary(&t, s, 1, 0);
	out(&t, "}");
	/* __class__fprintf(); union__fprintf() prints no attribute */
	if (s->packed && !is_union)
		out(&t, " __attribute__((__packed__))");
	else if (s->forced_alignment && !is_union)
		out(&t, " __attribute__((__aligned__(%u)))", s->forced_alignment);
	if (s->typedef_named) {
		out(&t, " ");
		col(&t, C_TYPE);
		out(&t, "%s", s->name);
		col(&t, C_OFF);
	}
	out(&t, ";\n");
	free(t.hole);
	free(t.bit_hole);
	return t.oom ? SLT_ENOMEM : 0;
}

static int cmp_name_at(const void *x, const void *y, void *ctx)
{
	const struct slt_struct *v = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = strcmp(v[i].name, v[j].name);
	return c ? c : (i > j) - (i < j);
}

/* shared[i]: another struct of the layout has structs[i]'s name (sorted
 * once: --all passes thousands).  NULL when out of memory. */
static bool *names_shared(const struct slt_layout *l)
{
	size_t n = l->n_structs;
	bool *shared = calloc(n ? n : 1, sizeof(*shared));
	size_t *ord = malloc((n ? n : 1) * sizeof(*ord));
	if (!shared || !ord) {
		free(shared);
		free(ord);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof(*ord), cmp_name_at, l->structs);
	for (size_t k = 1; k < n; k++)
		if (!strcmp(l->structs[ord[k]].name, l->structs[ord[k - 1]].name))
			shared[ord[k]] = shared[ord[k - 1]] = true;
	free(ord);
	return shared;
}

int slt_report_layout_text(FILE *out_f, const struct slt_layout *layout,
			   const struct slt_report_opts *opts,
			   struct slt_error *err)
{
	bool *shared = names_shared(layout);
	if (!shared)
		return slt_error_set(err, SLT_ENOMEM, "", -1, NULL, "out of memory");
	for (size_t i = 0; i < layout->n_structs; i++) {
		int rc;

		/* Structs follow each other with no blank line, as
		 * `pahole -C a,b` prints them. */
		/* A name with several distinct definitions: say where each
		 * one is declared, even when positions are not asked for. */
		struct slt_report_opts o = { .cacheline_size = SLT_CACHELINE_DEFAULT };
		if (opts)
			o = *opts;
		o.decl = o.decl || shared[i];
		rc = write_struct(out_f, &layout->structs[i], &o);
		if (rc) {
			free(shared);
			return slt_error_set(err, rc, "", -1, NULL, "out of memory");
		}
	}
	free(shared);
	if (fflush(out_f) || ferror(out_f))
		return slt_error_set(err, SLT_EIO, "", -1,
				     "check the output device or pipe",
				     "writing the layout failed");
	return 0;
}
