/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: find (one translation per layout fingerprint, dwarf_sig.c,
 * of the repeated definitions), list and suggest (load/source.h,
 * load/dwarf_int.h).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strdist.h"
#include "load/dwarf_int.h"
#include "load/index.h"

/* ---- find ------------------------------------------------------------- */

/* What one find pass collects for one name. */
struct want {
	const char *name;
	struct vec sigs;        /* uint64_t: definitions already returned */
	struct vec res, tdres;  /* struct slt_dw_found */
	struct vec fwd;         /* const char *: typedefs of declared tags */
	size_t decls;
};

struct find_ctx {
	struct slt_dw_sig memo;
	struct want *w;
	size_t n;
	uint32_t *slot;         /* hash of w[].name -> index + 1 */
	size_t mask;
};

static uint64_t name_hash(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
	return h;
}

static struct want *want_of(struct find_ctx *f, const char *nm)
{
	for (size_t i = (size_t)name_hash(nm) & f->mask; f->slot[i];
	     i = (i + 1) & f->mask)
		if (!strcmp(f->w[f->slot[i] - 1].name, nm))
			return &f->w[f->slot[i] - 1];
	return NULL;
}

static int push_found(struct dw *d, struct vec *v, struct slt_type *t,
		      uint64_t off, uint8_t kind)
{
	struct slt_dw_found *fp = slt_dw_vec_push(d, v);
	if (!fp)
		return d->rc;
	*fp = (struct slt_dw_found){ t, off, kind };
	return 0;
}

struct slt_type *slt_dw_typedef_target(struct dw *d, struct slt_type *t,
				       const char **fwd)
{
	const struct slt_type *r = slt_dw_strip(t);
	*fwd = NULL;
	if (r && r->kind == SLT_T_FWD && r->fwd_kind != SLT_T_ENUM && r->name &&
	    *r->name)
		*fwd = r->name;
	if (!r || (r->kind != SLT_T_STRUCT && r->kind != SLT_T_UNION))
		return NULL;
	struct slt_type *c = (struct slt_type *)r;
	if (!r->name || !*r->name) {
		/* typedef struct {...} name: a copy that carries the name */
		if (!(c = slt_arena_alloc(d->arena, sizeof(*c)))) {
			slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1,
				      NULL, "out of memory");
			return NULL;
		}
		*c = *r;
		c->flags |= SLT_TF_TYPEDEF_NAME;
		c->name = t->name;
	}
	return c;
}

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
	struct want *w = nm ? want_of(f, nm) : NULL;
	if (!w)
		return 0;
	Dwarf_Off off;
	if (slt_dw_dieoffset(d, die, &off, &e) != DW_DLV_OK)
		return slt_dw_fail(d, e, 0, "offset");
	if (tag != DW_TAG_typedef) {
		Dwarf_Bool decl = 0;
		if (dwarf_hasattr(die, DW_AT_declaration, &decl, &e) != DW_DLV_OK)
			return slt_dw_fail(d, e, off, "declaration");
		if (!decl) {
			uint64_t h = slt_dw_sig(d, &f->memo, off);
			uint64_t *hp = w->sigs.v;
			for (size_t i = 0; i < w->sigs.n; i++)
				if (hp[i] == h)
					return d->rc; /* same layout again */
			if (d->rc || !(hp = slt_dw_vec_push(d, &w->sigs)))
				return d->rc;
			*hp = h;
		}
	}
	struct slt_type *t = slt_dw_tr(d, off, true);
	if (!t)
		return d->rc;
	if (t->kind == SLT_T_FWD) {
		w->decls++;
		return 0;
	}
	if (t->kind != SLT_T_TYPEDEF)
		return push_found(d, &w->res, t, off, SLT_IX_STRUCT);
	const char *fwd;
	struct slt_type *c = slt_dw_typedef_target(d, t, &fwd);
	if (fwd) {
		const char **fp = slt_dw_vec_push(d, &w->fwd);
		if (!fp)
			return d->rc;
		*fp = fwd;
	}
	return c ? push_found(d, &w->tdres, c, off, SLT_IX_TYPEDEF) : d->rc;
}

static void want_free(struct want *w)
{
	free(w->sigs.v);
	free(w->res.v);
	free(w->tdres.v);
	free(w->fwd.v);
}

/*
 * One pass for names[0..n): a scan of the string tables for all of them,
 * then one walk of the candidate compile units.  res[i] gets name i's
 * definitions (a malloc()ed array of struct slt_dw_found) and its status:
 * 0, SLT_ENOTFOUND or SLT_EDECLONLY (no error recorded for those).
 * level 1: the names are forward-declared tags reached from typedefs,
 * not followed further.  Returns 0 or a fatal SLT_E*.
 */
static int find_names(struct dw *d, const char *const *names, size_t n,
		      struct slt_dw_result *res, int level)
{
	struct find_ctx f = { 0 };
	size_t cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	f.w = calloc(n ? n : 1, sizeof(*f.w));
	f.slot = calloc(cap, sizeof(*f.slot));
	f.mask = cap - 1;
	f.n = n;
	if (!f.w || !f.slot) {
		free(f.w);
		free(f.slot);
		return slt_error_set(d->err, d->rc = SLT_ENOMEM, d->path, -1,
				     NULL, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		struct want *w = &f.w[i];
		w->name = names[i];
		w->res.elt = w->tdres.elt = sizeof(struct slt_dw_found);
		w->fwd.elt = sizeof(char *);
		w->sigs.elt = sizeof(uint64_t);
		res[i] = (struct slt_dw_result){ .rc = SLT_ENOTFOUND };
		if (want_of(&f, names[i]))
			continue; /* asked twice: the first collects */
		size_t j = (size_t)name_hash(names[i]) & f.mask;
		while (f.slot[j])
			j = (j + 1) & f.mask;
		f.slot[j] = (uint32_t)i + 1;
	}
	struct hits h = { 0 };
	bool any = true;
	int rc = 0;
	if (d->can_filter)
		rc = slt_dw_scan(d, names, n, &h, &any);
	if (!rc && any)
		rc = slt_dw_walk(d, d->can_filter ? &h : NULL, find_cb, &f);
	free(h.pos);
	for (size_t i = 0; i < n && !rc; i++) {
		struct want *w = want_of(&f, names[i]);
		struct vec *pick = w->res.n ? &w->res : &w->tdres;
		if (pick->n) {
			res[i].found = w == &f.w[i] ? pick->v : NULL;
			res[i].n = pick->n;
			res[i].rc = 0;
			if (w != &f.w[i]) { /* a repeated name: a copy */
				size_t sz = pick->n * sizeof(struct slt_dw_found);
				if (!(res[i].found = malloc(sz)))
					rc = slt_error_set(d->err, d->rc = SLT_ENOMEM,
							   d->path, -1, NULL,
							   "out of memory");
				else
					memcpy(res[i].found, pick->v, sz);
			}
			continue;
		}
		const char **fw = w->fwd.v;
		for (size_t k = 0; k < w->fwd.n && level == 0 && !rc; k++) {
			if (!strcmp(fw[k], names[i]))
				continue;
			struct slt_dw_result r;
			rc = find_names(d, &fw[k], 1, &r, 1);
			if (!rc && r.rc == 0) {
				for (size_t x = 0; x < r.n; x++)
					r.found[x].kind += SLT_IX_FWD_STRUCT;
				res[i] = r;
				break;
			}
		}
		if (!rc && res[i].rc)
			res[i].rc = w->decls || w->fwd.n ? SLT_EDECLONLY
							 : SLT_ENOTFOUND;
	}
	for (size_t i = 0; i < n; i++) {
		struct want *w = &f.w[i];
		if (w->res.n && res[i].found == w->res.v)
			w->res.v = NULL;
		else if (w->tdres.n && res[i].found == w->tdres.v)
			w->tdres.v = NULL;
		want_free(w);
	}
	free(f.w);
	free(f.slot);
	slt_dw_sig_free(&f.memo);
	return rc;
}

/* The error for name's status rc (SLT_ENOTFOUND, SLT_EDECLONLY). */
static int miss(struct dw *d, const char *name, int rc)
{
	if (rc == SLT_EDECLONLY)
		return slt_error_set(d->err, SLT_EDECLONLY, d->path, -1,
				     "the file only has a forward declaration; "
				     "use the object that defines it",
				     "'%s' is only declared, not defined", name);
	return slt_error_set(d->err, SLT_ENOTFOUND, d->path, -1, NULL,
			     "no struct or union '%s' in the DWARF", name);
}

int slt_dw_find_many(struct slt_source *s, const char *const *names,
		     size_t n, struct slt_found *out, struct slt_error *err)
{
	struct dw *d = (struct dw *)s;
	d->err = err;
	d->rc = d->load_rc = 0;
	struct slt_dw_result *res = calloc(n ? n : 1, sizeof(*res));
	int rc = res ? 0 : slt_error_set(err, d->rc = SLT_ENOMEM, d->path, -1,
					 NULL, "out of memory");
	if (!rc)
		rc = slt_dw_index_find(d, names, n, res);
	/* the names the index did not answer, in one pass */
	const char **rest = rc ? NULL : calloc(n ? n : 1, sizeof(*rest));
	size_t *at = rest ? calloc(n ? n : 1, sizeof(*at)) : NULL;
	size_t n_rest = 0;
	if (!rc && (!rest || !at))
		rc = slt_error_set(err, d->rc = SLT_ENOMEM, d->path, -1, NULL,
				   "out of memory");
	for (size_t i = 0; i < n && !rc; i++)
		if (!res[i].from_index) {
			at[n_rest] = i;
			rest[n_rest++] = names[i];
		}
	struct slt_dw_result *r2 = n_rest && !rc ? calloc(n_rest, sizeof(*r2))
						 : NULL;
	if (n_rest && !rc && !r2)
		rc = slt_error_set(err, d->rc = SLT_ENOMEM, d->path, -1, NULL,
				   "out of memory");
	if (n_rest && !rc)
		rc = find_names(d, rest, n_rest, r2, 0);
	for (size_t k = 0; k < n_rest && !rc; k++)
		res[at[k]] = r2[k];
	if (!rc && n_rest)
		slt_dw_index_save(d, names, n, res);
	int first = 0;
	for (size_t i = 0; i < n; i++) {
		out[i] = (struct slt_found){ .rc = res ? res[i].rc : SLT_ENOMEM };
		if (!rc && res[i].rc == 0) {
			struct slt_type **v = malloc(res[i].n * sizeof(*v));
			if (!v) {
				rc = slt_error_set(err, d->rc = SLT_ENOMEM,
						   d->path, -1, NULL,
						   "out of memory");
			} else {
				for (size_t x = 0; x < res[i].n; x++)
					v[x] = res[i].found[x].t;
				out[i].defs = v;
				out[i].n = res[i].n;
			}
		}
		if (!rc && !first && res[i].rc) {
			first = miss(d, names[i], res[i].rc);
			int sp = slt_dw_split_check(d, names[i]);
			if (sp)
				first = sp;
		}
		if (res)
			free(res[i].found);
	}
	if (rc)
		for (size_t i = 0; i < n; i++) {
			free(out[i].defs);
			out[i] = (struct slt_found){ .rc = rc };
		}
	free(res);
	free(r2);
	free(rest);
	free(at);
	d->err = NULL;
	return rc ? rc : first;
}

int slt_dw_find(struct slt_source *s, const char *name,
		struct slt_type ***out, size_t *n, struct slt_error *err)
{
	struct slt_found f;
	int rc = slt_dw_find_many(s, &name, 1, &f, err);
	*out = f.defs;
	*n = f.n;
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
	size_t n_listed;                 /* list: definitions passed to cb */
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
	if (slt_dw_dieoffset(d, die, &off, &e) != DW_DLV_OK)
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
	l->n_listed++;
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
	/* a skeleton of split DWARF holds no types: say where they are
	 * rather than listing nothing */
	if (!rc && !l.n_listed)
		rc = slt_dw_split_check(d, NULL);
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
