/* SPDX-License-Identifier: MIT */
/*
 * DWARF source: the name index in the cache (load/index.h,
 * structlint/cache.h).  A lookup answered by the index translates the
 * recorded DIEs directly; each is checked first (a DIE at that offset, of
 * the recorded tag, a definition, of the asked name), and if any is not
 * what the index says, nothing from the index is used: the names are
 * walked for as if there were no index, and their entries are rewritten.
 * No index for a file without a build-id.
 */
#include <stdlib.h>
#include <string.h>

#include "load/dwarf_int.h"
#include "structlint/cache.h"

static bool key_of(struct dw *d, struct slt_cache_key *k)
{
	const uint8_t *id;
	size_t len;
	if (slt_elf_build_id(d->elf, &id, &len) || !len ||
	    len > SLT_CACHE_MAX_ID)
		return false;
	*k = (struct slt_cache_key){ id, len, "index", SLT_INDEX_VERSION };
	return true;
}

static bool ix_ready(struct dw *d)
{
	if (d->ix_state)
		return d->ix_state > 0;
	struct slt_cache_key k;
	d->ix_state = -1;
	if (!d->use_cache || !key_of(d, &k))
		return false;
	uint64_t fp = slt_index_fingerprint(d->info, d->info_n);
	void *data = NULL;
	size_t n = 0;
	if (slt_cache_read(NULL, &k, &data, &n) != 0 ||
	    slt_index_parse(data, n, d->info_n, fp, &d->ix) != 0) {
		/* none, or not usable: start an empty one */
		slt_index_free(&d->ix);
		d->ix.info_size = d->info_n;
		d->ix.fingerprint = fp;
	}
	free(data);
	d->ix_state = 1;
	return true;
}

static bool is_agg(Dwarf_Half tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/* The DIE at x->off checked against the entry, then translated: the
 * struct/union node, or NULL (d->rc may be set). */
static struct slt_type *replay(struct dw *d, const char *name,
			       const struct slt_index_def *x)
{
	Dwarf_Die die;
	Dwarf_Half tag = 0;
	Dwarf_Error e = NULL;
	Dwarf_Bool decl = 0;
	const char *nm = NULL;
	bool td = x->kind == SLT_IX_TYPEDEF || x->kind == SLT_IX_FWD_TYPEDEF;
	if (x->off >= d->info_n || slt_dw_get_die(d, x->off, &die))
		return NULL;
	bool ok = dwarf_tag(die, &tag, &e) == DW_DLV_OK &&
		  (td ? tag == DW_TAG_typedef : is_agg(tag));
	if (ok && !td)
		ok = dwarf_hasattr(die, DW_AT_declaration, &decl, &e) ==
			     DW_DLV_OK && !decl;
	if (ok)
		ok = !slt_dw_name(d, die, &nm) && nm &&
		     (x->kind >= SLT_IX_FWD_STRUCT || !strcmp(nm, name));
	if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	dwarf_dealloc_die(die);
	struct slt_type *t = ok ? slt_dw_tr(d, x->off, true) : NULL;
	if (!t)
		return NULL;
	if (!td)
		return t->kind == SLT_T_STRUCT || t->kind == SLT_T_UNION ? t
									 : NULL;
	const char *fwd;
	return slt_dw_typedef_target(d, t, &fwd);
}

int slt_dw_index_find(struct dw *d, const char *const *names, size_t n,
		      struct slt_dw_result *res)
{
	for (size_t i = 0; i < n; i++)
		res[i] = (struct slt_dw_result){ .rc = SLT_ENOTFOUND };
	if (!ix_ready(d))
		return 0;
	struct slt_error *keep = d->err;
	d->err = NULL; /* a failed check is no error: the names are walked */
	bool bad = false;
	/* translate through the view that starts at the first unit needed
	 * (dwarf.c slt_dw_view()) */
	uint64_t first = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct slt_index_ent *ent = slt_index_get(&d->ix, names[i]);
		for (uint32_t k = 0; ent && k < ent->n_defs; k++)
			if (ent->defs[k].off < first)
				first = ent->defs[k].off;
	}
	Dwarf_Debug main_dbg = d->dbg;
	if (first != UINT64_MAX && slt_dw_view(d, first) == 0) {
		slt_dw_files_free(d); /* keyed by the file's offsets: kept */
		d->dbg = d->vdbg;
		d->obase = d->vbase;
	}
	for (size_t i = 0; i < n && !bad; i++) {
		const struct slt_index_ent *ent = slt_index_get(&d->ix, names[i]);
		if (!ent)
			continue;
		struct slt_dw_found *f = calloc(ent->n_defs, sizeof(*f));
		if (!f) {
			bad = true;
			break;
		}
		res[i].found = f;
		for (uint32_t k = 0; k < ent->n_defs && !bad; k++) {
			f[k].t = replay(d, names[i], &ent->defs[k]);
			f[k].off = ent->defs[k].off;
			f[k].kind = ent->defs[k].kind;
			bad = !f[k].t;
		}
		res[i].n = ent->n_defs;
		res[i].rc = 0;
		res[i].from_index = true;
	}
	d->dbg = main_dbg;
	d->obase = 0;
	d->err = keep;
	if (!bad)
		return 0;
	/* Not what the index says: drop its answers and the nodes they
	 * made (partly translated ones too), and walk for every name. */
	for (size_t i = 0; i < n; i++) {
		free(res[i].found);
		res[i] = (struct slt_dw_result){ .rc = SLT_ENOTFOUND };
	}
	d->rc = d->load_rc = 0;
	return slt_dw_reset_nodes(d);
}

void slt_dw_index_save(struct dw *d, const char *const *names, size_t n,
		       const struct slt_dw_result *res)
{
	if (d->ix_state <= 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (res[i].rc || res[i].from_index || !res[i].n)
			continue;
		struct slt_index_def *v = malloc(res[i].n * sizeof(*v));
		if (!v)
			return;
		for (size_t x = 0; x < res[i].n; x++)
			v[x] = (struct slt_index_def){ res[i].found[x].off,
						       res[i].found[x].kind };
		if (slt_index_put(&d->ix, names[i], v, res[i].n) == 0)
			d->ix_dirty = true;
		free(v);
	}
}

/*
 * The definitions of an entry, as find_many() returned them (walked: in
 * the order slt_dw_index_save() recorded; from the index: in the entry's
 * order), reduced to those the caller found distinct.  The caller's
 * comparison is that of the layout it prints; with --expand it compares
 * more (named structs inside, expanded), so an entry reduced then keeps
 * as many or more.  An entry reduced without --expand and read with it
 * may hold fewer than a walk would show only where two copies differ in
 * the members of a named struct inside, which the walk's fingerprint does
 * not look at either (dwarf_find.c sig()).
 */
void slt_dw_index_distinct(struct slt_source *s, const char *name,
			   const bool *keep, size_t n)
{
	struct dw *d = (struct dw *)s;
	if (d->ix_state <= 0)
		return;
	const struct slt_index_ent *e = slt_index_get(&d->ix, name);
	if (!e || e->n_defs != n)
		return;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += keep[i];
	if (k == n || k == 0)
		return;
	struct slt_index_def *v = malloc(k * sizeof(*v));
	if (!v)
		return;
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (keep[i])
			v[k++] = e->defs[i];
	if (slt_index_put(&d->ix, name, v, k) == 0)
		d->ix_dirty = true;
	free(v);
}

void slt_dw_index_flush(struct dw *d)
{
	struct slt_cache_key k;
	void *p;
	size_t size;
	if (d->ix_dirty && d->ix_state > 0 && key_of(d, &k) &&
	    slt_index_write(&d->ix, &p, &size) == 0) {
		slt_cache_write(NULL, &k, p, size);
		free(p);
	}
	d->ix_dirty = false;
	slt_index_free(&d->ix);
}
