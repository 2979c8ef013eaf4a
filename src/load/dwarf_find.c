/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: find (with the layout fingerprint that skips repeated
 * definitions), list and suggest (load/source.h, load/dwarf_int.h).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strdist.h"
#include "load/dwarf_int.h"

/* ---- find ------------------------------------------------------------- */

/*
 * A layout fingerprint of the DIE at off, without building nodes: FNV-1a
 * over tags, names, sizes, bounds and member offsets, following type
 * references through typedefs, qualifiers, pointers and arrays, and into
 * the members of the root and of anonymous structs/unions.  A named struct
 * inside counts by name and size (one kernel build has one layout per
 * name).  Lets find() translate one copy of a definition repeated in
 * hundreds of CUs.
 */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/*
 * Fingerprints of the DIEs below the root, for one find(): a type shared
 * by many members (int, a typedef, a pointer) is hashed once.  A value
 * depends on the depth it was computed at only through the depth limit,
 * so an entry records the height of its subtree of sig() calls and is
 * used only where that subtree stays within the limit (then the hash is
 * exactly what a fresh computation gives).  Best effort: a failed
 * allocation only means no memo.
 */
#define SIG_MAX_DEPTH 32

struct sig_ent {
	uint64_t off1; /* DIE offset + 1; 0: empty */
	uint64_t h;
	unsigned height;
};

struct sig_memo {
	struct sig_ent *e;
	size_t cap, n;
};

static struct sig_ent *memo_slot(struct sig_memo *m, uint64_t off)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)((off * 0x9E3779B97F4A7C15ull) >> 32) & mask;
	while (m->e[i].off1 && m->e[i].off1 != off + 1)
		i = (i + 1) & mask;
	return &m->e[i];
}

static void memo_put(struct sig_memo *m, uint64_t off, uint64_t h,
		     unsigned height)
{
	if ((m->n + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 4096;
		struct sig_ent *ne = calloc(cap, sizeof(*ne)), *old = m->e;
		if (!ne)
			return;
		size_t oc = m->cap;
		m->e = ne;
		m->cap = cap;
		for (size_t i = 0; i < oc; i++)
			if (old[i].off1)
				*memo_slot(m, old[i].off1 - 1) = old[i];
		free(old);
	}
	struct sig_ent *se = memo_slot(m, off);
	if (!se->off1)
		m->n++;
	*se = (struct sig_ent){ off + 1, h, height };
}

struct sig_ctx {
	uint64_t h;
	unsigned depth;
	unsigned height; /* of the sig() calls made so far */
	struct sig_memo *memo;
};

static uint64_t sig(struct dw *d, struct sig_memo *m, uint64_t off,
		    unsigned depth, unsigned *height);

static int sig_cb(struct dw *d, Dwarf_Die c, Dwarf_Half tag, void *ctx)
{
	struct sig_ctx *sc = ctx;
	Dwarf_Off off = 0;
	Dwarf_Error e = NULL;
	struct attrs a;
	if (tag != DW_TAG_member && tag != DW_TAG_subrange_type)
		return 0;
	if (dwarf_dieoffset(c, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "offset");
	if (slt_dw_read_attrs(d, c, off, &a))
		return d->rc;
	uint64_t v[8] = { tag, a.loc, a.dbo, a.bo, a.bit_size, a.count,
			  (uint64_t)a.upper, a.has_upper };
	sc->h = mix(sc->h, v, sizeof(v));
	if (a.name)
		sc->h = mix(sc->h, a.name, strlen(a.name) + 1);
	if (tag == DW_TAG_member && a.has_type) {
		unsigned ht;
		uint64_t t = sig(d, sc->memo, a.type, sc->depth + 1, &ht);
		if (ht + 1 > sc->height)
			sc->height = ht + 1;
		sc->h = mix(sc->h, &t, sizeof(t));
	}
	return d->rc;
}

/* The fingerprint of the DIE at off, reached at depth (0: the root);
 * *height: the depth of the sig() calls below it. */
static uint64_t sig(struct dw *d, struct sig_memo *m, uint64_t off,
		    unsigned depth, unsigned *height)
{
	Dwarf_Die die;
	Dwarf_Half tag;
	Dwarf_Error e = NULL;
	struct attrs a;
	struct sig_ctx sc = { 0xcbf29ce484222325ull, depth, 0, m };
	*height = 0;
	if (depth && m->cap) {
		const struct sig_ent *se = memo_slot(m, off);
		if (se->off1 && depth + se->height <= SIG_MAX_DEPTH) {
			*height = se->height;
			return se->h;
		}
	}
	if (d->rc || depth > SIG_MAX_DEPTH || slt_dw_get_die(d, off, &die))
		return 0;
	if (dwarf_tag(die, &tag, &e) != DW_DLV_OK)
		slt_dw_fail(d, e, off, "tag");
	else if (!slt_dw_read_attrs(d, die, off, &a)) {
		uint64_t v[4] = { tag, a.byte_size, a.align, a.decl };
		sc.h = mix(sc.h, v, sizeof(v));
		if (a.name)
			sc.h = mix(sc.h, a.name, strlen(a.name) + 1);
		bool agg = tag == DW_TAG_structure_type ||
			   tag == DW_TAG_union_type || tag == DW_TAG_class_type;
		if ((agg && (!a.name || depth == 0)) || tag == DW_TAG_array_type)
			slt_dw_children(d, die, off, sig_cb, &sc);
		if (!agg && a.has_type && tag != DW_TAG_subroutine_type) {
			unsigned ht;
			uint64_t t = sig(d, m, a.type, depth + 1, &ht);
			if (ht + 1 > sc.height)
				sc.height = ht + 1;
			sc.h = mix(sc.h, &t, sizeof(t));
		}
	}
	dwarf_dealloc_die(die);
	*height = sc.height;
	/* depth 0 hashes a named root's members, deeper levels do not */
	if (depth && !d->rc && depth + sc.height <= SIG_MAX_DEPTH)
		memo_put(m, off, sc.h, sc.height);
	return sc.h;
}

struct find_ctx {
	struct vec sigs; /* uint64_t: definitions already returned */
	struct sig_memo memo;
	const char *name;
	struct vec res, tdres, fwd; /* slt_type *, slt_type *, const char * */
	size_t decls;
};

static int find_cb(struct dw *d, Dwarf_Die die, Dwarf_Half tag, void *ctx)
{
	struct find_ctx *f = ctx;
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
	    tag != DW_TAG_typedef && tag != DW_TAG_class_type)
		return 0;
	const char *nm;
	Dwarf_Error e = NULL;
	if (slt_dw_name(d, die, &nm))
		return d->rc;
	if (!nm || strcmp(nm, f->name) != 0)
		return 0;
	Dwarf_Off off;
	if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "offset");
	if (tag != DW_TAG_typedef) {
		Dwarf_Bool decl = 0;
		if (dwarf_hasattr(die, DW_AT_declaration, &decl, &e) != DW_DLV_OK)
			return slt_dw_fail(d, e, off, "declaration");
		if (!decl) {
			unsigned ht;
			uint64_t h = sig(d, &f->memo, off, 0, &ht);
			uint64_t *hp = f->sigs.v;
			for (size_t i = 0; i < f->sigs.n; i++)
				if (hp[i] == h)
					return d->rc; /* same layout again */
			if (d->rc || !(hp = slt_dw_vec_push(d, &f->sigs)))
				return d->rc;
			*hp = h;
		}
	}
	struct slt_type *t = slt_dw_tr(d, off, true), **slotp;
	if (!t)
		return d->rc;
	if (t->kind == SLT_T_FWD) {
		f->decls++;
		return 0;
	}
	if (t->kind != SLT_T_TYPEDEF) {
		if (!(slotp = slt_dw_vec_push(d, &f->res)))
			return d->rc;
		*slotp = t;
		return 0;
	}
	const struct slt_type *r = slt_dw_strip(t);
	if (r && r->kind == SLT_T_FWD && r->fwd_kind != SLT_T_ENUM && r->name &&
	    *r->name) {
		const char **fp = slt_dw_vec_push(d, &f->fwd);
		if (!fp)
			return d->rc;
		*fp = r->name;
	}
	if (!r || (r->kind != SLT_T_STRUCT && r->kind != SLT_T_UNION))
		return 0;
	struct slt_type *c = (struct slt_type *)r;
	if (!r->name || !*r->name) {
		/* typedef struct {...} name: a copy that carries the name */
		if (!(c = slt_arena_alloc(d->arena, sizeof(*c))))
			return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path,
					     -1, NULL, "out of memory");
		*c = *r;
		c->flags |= SLT_TF_TYPEDEF_NAME;
		c->name = t->name;
	}
	if (!(slotp = slt_dw_vec_push(d, &f->tdres)))
		return d->rc;
	*slotp = c;
	return 0;
}

static int find_name(struct dw *d, const char *name, struct slt_type ***out,
		     size_t *n, int level)
{
	struct find_ctx f = { .name = name };
	f.res.elt = f.tdres.elt = sizeof(struct slt_type *);
	f.fwd.elt = sizeof(char *);
	f.sigs.elt = sizeof(uint64_t);
	struct hits h = { 0 };
	bool any = true;
	int rc = 0;
	if (d->can_filter)
		rc = slt_dw_scan(d, &name, 1, &h, &any);
	if (!rc && any)
		rc = slt_dw_walk(d, d->can_filter ? &h : NULL, find_cb, &f);
	free(h.pos);
	struct vec *pick = f.res.n ? &f.res : &f.tdres;
	if (!rc && pick->n) {
		*out = pick->v;
		*n = pick->n;
		pick->v = NULL;
	} else if (!rc) {
		const char **fw = f.fwd.v;
		struct slt_error *keep = d->err;
		d->err = NULL; /* a miss below is reported under name */
		for (size_t i = 0; i < f.fwd.n && level == 0 && !rc; i++)
			if (strcmp(fw[i], name) != 0 &&
			    (rc = find_name(d, fw[i], out, n, 1)) != SLT_EDECLONLY &&
			    rc != SLT_ENOTFOUND)
				break;
		d->err = keep;
		if (rc == 0 && *n)
			goto done;
		d->rc = rc = 0;
		if (f.decls || f.fwd.n)
			rc = slt_error_set(d->err, SLT_EDECLONLY, d->path, -1,
					   "the file only has a forward "
					   "declaration; use the object that "
					   "defines it",
					   "'%s' is only declared, not defined",
					   name);
		else
			rc = slt_error_set(d->err, SLT_ENOTFOUND, d->path, -1,
					   NULL,
					   "no struct or union '%s' in the "
					   "DWARF", name);
	}
done:
	free(f.res.v);
	free(f.tdres.v);
	free(f.fwd.v);
	free(f.sigs.v);
	free(f.memo.e);
	return rc;
}

int slt_dw_find(struct slt_source *s, const char *name,
		   struct slt_type ***out, size_t *n, struct slt_error *err)
{
	struct dw *d = (struct dw *)s;
	*out = NULL;
	*n = 0;
	d->err = err;
	d->rc = d->load_rc = 0;
	int rc = find_name(d, name, out, n, 0);
	d->err = NULL;
	return rc;
}

/* ---- list and suggest ------------------------------------------------- */

struct list_ctx {
	slt_source_list_cb cb;
	void *cbctx;
	struct slt_suggest *sg;          /* suggest: the ranking */
	const char *const *only;         /* suggest: verify these names */
	size_t n_only;
	bool *found;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int list_cb(struct dw *d, Dwarf_Die die, Dwarf_Half tag, void *ctx)
{
	struct list_ctx *l = ctx;
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
	    tag != DW_TAG_class_type)
		return 0;
	Dwarf_Bool decl = 0;
	Dwarf_Error e = NULL;
	const char *nm;
	if (slt_dw_name(d, die, &nm))
		return d->rc;
	if (!nm || !*nm)
		return 0;
	const char *const *hit = NULL;
	if (l->only && !(hit = bsearch(&nm, l->only, l->n_only, sizeof(*hit),
				       cmp_str)))
		return 0;
	if (dwarf_hasattr(die, DW_AT_declaration, &decl, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "declaration");
	if (decl)
		return 0;
	if (l->only) {
		l->found[hit - l->only] = true;
		return 0;
	}
	if (l->sg)
		return slt_suggest_add(l->sg, nm);
	Dwarf_Off off;
	struct attrs a;
	if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "offset");
	if (slt_dw_read_attrs(d, die, off, &a))
		return d->rc;
	const char *f = a.file || a.line ? slt_dw_decl_file(d, die, a.file) : NULL;
	struct slt_type t = {
		.kind = tag == DW_TAG_union_type ? SLT_T_UNION : SLT_T_STRUCT,
		.flags = SLT_TF_SHALLOW, .name = nm, .size = a.byte_size,
		.alignment = (uint32_t)a.align, .decl_file = f,
		.decl_line = (uint32_t)a.line, .origin = off,
	};
	return l->cb(l->cbctx, &t);
}

/* The node passed to cb is valid only during the call (list() would
 * otherwise keep every CU's copy of every struct). */
int slt_dw_list(struct slt_source *s, slt_source_list_cb cb, void *ctx,
		   struct slt_error *err)
{
	struct dw *d = (struct dw *)s;
	struct list_ctx l = { .cb = cb, .cbctx = ctx };
	d->err = err;
	d->rc = d->load_rc = 0;
	int rc = slt_dw_walk(d, NULL, list_cb, &l);
	d->err = NULL;
	return rc;
}

/* Whether p is one of the n candidates in v. */
static bool has_str(const char *const *v, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], p))
			return true;
	return false;
}

/* Candidates verified per edit distance: each one's hits widen the walk. */
#define SUGGEST_PER_DIST 64

/*
 * Candidates ranked by distance: every string in .debug_str within the
 * limit, then verified in one filtered walk.  A linker tail-merges
 * .debug_str (the kernel's "cgroup" is the end of "bpf_iter__cgroup"), so
 * every suffix whose length could be within the limit is a candidate.
 * NAME itself is not one (the caller looked for it).  Without the filter,
 * a full walk ranks every struct name.
 */
int slt_dw_suggest(struct slt_source *s, const char *name, size_t max,
		      char ***out, struct slt_error *err)
{
	struct dw *d = (struct dw *)s;
	struct slt_suggest sg;
	*out = NULL;
	d->err = err;
	d->rc = d->load_rc = 0;
	if (max > 8)
		max = 8;
	slt_suggest_init(&sg, name, max);
	int rc = 0;
	if (!d->can_filter) {
		struct list_ctx l = { .sg = &sg };
		rc = slt_dw_walk(d, NULL, list_cb, &l);
		goto out;
	}
	/* Rank the strings of .debug_str, then their suffixes, by distance;
	 * keep up to SUGGEST_PER_DIST distinct ones per distance.  A suffix
	 * counts up to half the limit (a typo is a few edits; a long name has
	 * hundreds of suffixes within its full limit, each widening the
	 * walk). */
	struct vec cand = { .elt = sizeof(char *) };
	unsigned per[16] = { 0 };
	size_t ql = strlen(name);
	/* Suffixes grow by one byte at a time; the byte-count difference to
	 * NAME bounds the distance from below (an edit changes one count, a
	 * substitution one up and one down), so most skip slt_strdist(). */
	int diff[256] = { 0 };
	for (size_t i = 0; i < ql; i++)
		diff[(unsigned char)name[i]]--;
	for (int suffixes = 0; suffixes < 2; suffixes++) {
		unsigned lim = suffixes ? (sg.limit + 1) / 2 : sg.limit;
		size_t lmin = ql > lim ? ql - lim : 1, lmax = ql + lim;
		for (size_t i = 0; i < d->str_n && !rc;) {
			const char *str = (const char *)d->str + i;
			size_t len = strnlen(str, d->str_n - i);
			/* whole strings: len; suffixes: lmin up to lmax */
			size_t first = suffixes ? lmin : len, last = 0;
			if (suffixes && len > 1)
				last = len - 1 < lmax ? len - 1 : lmax;
			else if (!suffixes && len && len <= lmax)
				last = len;
			size_t pos = 0, neg = ql, added = 0, sl;
			/* counts of the last added bytes of str (suffixes) */
			for (; suffixes && added + 1 < first && added < last; added++) {
				unsigned char c = (unsigned char)str[len - added - 1];
				if (diff[c]++ >= 0)
					pos++;
				else
					neg--;
			}
			for (sl = first; sl <= last && !rc; sl++) {
				const char *p = str + len - sl;
				if (suffixes) {
					unsigned char c = (unsigned char)*p;
					added++;
					if (diff[c]++ >= 0)
						pos++;
					else
						neg--;
					if ((pos > neg ? pos : neg) > lim)
						continue;
				}
				if (!slt_suggest_could(&sg, sl))
					continue;
				unsigned dist = slt_strdist(name, p, lim);
				if (!dist || dist > lim || dist >= 16 ||
				    per[dist] >= SUGGEST_PER_DIST ||
				    has_str(cand.v, cand.n, p))
					continue;
				const char **c = slt_dw_vec_push(d, &cand);
				if (!c)
					rc = d->rc;
				else
					*c = p;
				per[dist]++;
			}
			/* undo the counts of the suffix bytes added */
			for (size_t k = 0; k < added; k++)
				diff[(unsigned char)str[len - k - 1]]--;
			i += len + 1;
		}
	}
	const char **cv = cand.v;
	bool *found = calloc(cand.n ? cand.n : 1, 1);
	struct hits h = { 0 };
	bool any = false;
	if (!rc && !found)
		rc = slt_error_set(err, d->rc = SLT_ENOMEM, d->path, -1, NULL,
				   "out of memory");
	if (!rc && cand.n) {
		qsort(cv, cand.n, sizeof(*cv), cmp_str);
		rc = slt_dw_scan(d, (const char *const *)cv, cand.n, &h, &any);
	}
	if (!rc && any) {
		struct list_ctx l = { .only = cv, .n_only = cand.n,
				      .found = found };
		rc = slt_dw_walk(d, &h, list_cb, &l);
	}
	for (size_t i = 0; i < cand.n && !rc; i++)
		if (found[i])
			rc = slt_suggest_add(&sg, cv[i]);
	free(h.pos);
	free(found);
	free(cand.v);
out:
	d->err = NULL;
	if (rc) {
		slt_suggest_release(&sg);
		return rc;
	}
	return (int)slt_suggest_take(&sg, out);
}
