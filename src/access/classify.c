/* SPDX-License-Identifier: MIT */
/*
 * Static member classes: the access map's sites on each top-level member
 * of a struct, turned into a class by the rule documented in
 * include/structlint/access.h (slt_access_classes_write) and written as a
 * classes file (include/structlint/classes.h) with the evidence of each
 * member in a comment, so that a person can review it and the rest of the
 * tool reads it like any other classes file.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_int.h"
#include "common/strmap.h"
#include "join/join_int.h"
#include "structlint/access.h"
#include "structlint/layout.h"

/* What a function does to a member (bits). */
enum { FN_LOAD = 1, FN_STORE = 2, FN_UPDATE = 4, FN_ATOMIC = 8 };

struct fk {
	uint32_t func;
	uint8_t how;   /* FN_* */
	uint8_t own;   /* 1: a site on the member itself, 0: inherited */
};

/* The role of slt_access_role(), as the counts of `access` give it, and
 * whether the rmw is atomic. */
static uint8_t how_of(uint32_t kind)
{
	uint32_t r = slt_access_role(kind);
	if (r == (SLT_ACCESS_LOAD | SLT_ACCESS_STORE))
		return FN_UPDATE | ((kind & SLT_ACCESS_ATOMIC) ? FN_ATOMIC : 0);
	return r == SLT_ACCESS_STORE ? FN_STORE : r == SLT_ACCESS_LOAD ? FN_LOAD : 0;
}

static int cmp_fk(const void *a, const void *b)
{
	const struct fk *x = a, *y = b;
	return x->func < y->func ? -1 : x->func > y->func;
}

/* Count distinct functions per role over f[0, n) (sorted here). */
static void tally(struct fk *f, size_t n, struct slt_access_evidence *e)
{
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(f, n, sizeof(*f), cmp_fk);
	for (size_t i = 0; i < n;) {
		uint8_t how = 0;
		size_t j = i;
		for (; j < n && f[j].func == f[i].func; j++)
			how |= f[j].how;
		e->n_funcs++;
		e->loaders += !!(how & FN_LOAD);
		e->storers += !!(how & FN_STORE);
		e->updaters += !!(how & FN_UPDATE);
		e->writers += !!(how & (FN_STORE | FN_UPDATE));
		e->atomics += !!(how & FN_ATOMIC);
		i = j;
	}
}

/* "struct T", "union T", "struct T[2][3]" -> T's name (into buf) and the
 * element count; false for anything else (pointers, anonymous types). */
static bool embedded_type(const struct slt_member *m, char *buf, size_t size,
			  uint64_t *count)
{
	const char *t = m->type;
	if (!t)
		return false;
	if (!strncmp(t, "struct ", 7))
		t += 7;
	else if (!strncmp(t, "union ", 6))
		t += 6;
	else
		return false;
	size_t n = strcspn(t, "[ *");
	if (!n || n >= size || t[0] == '{' || strchr(t, '*'))
		return false;
	memcpy(buf, t, n);
	buf[n] = 0;
	*count = 1;
	for (const char *p = t + n; *p == '['; ) {
		char *end;
		unsigned long long k = strtoull(p + 1, &end, 10);
		if (*end != ']' || !k)
			return false;
		*count *= k;
		p = end + 1;
	}
	return true;
}

void slt_access_names_free(char **names, size_t count)
{
	for (size_t i = 0; names && i < count; i++)
		free(names[i]);
	free(names);
}

/* Append name to v[*n] unless seen holds it. */
static bool add_name(char **v, size_t *n, struct slt_strmap *seen, const char *name)
{
	size_t len = strlen(name), at;
	if (slt_strmap_get(seen, name, len, &at))
		return true;
	if (!(v[*n] = strdup(name)))
		return false;
	if (slt_strmap_put(seen, v[*n], len, *n, NULL) < 0) {
		free(v[*n]);
		return false;
	}
	++*n;
	return true;
}

char **slt_access_type_names(const struct slt_struct *structs, size_t n,
			     size_t *count)
{
	size_t cap = 1;
	for (size_t i = 0; i < n; i++)
		cap += 1 + structs[i].n_members;
	char **v = calloc(cap, sizeof(*v));
	struct slt_strmap seen = {0};
	*count = 0;
	bool ok = v != NULL;
	for (size_t i = 0; ok && i < n; i++) {
		ok = add_name(v, count, &seen, structs[i].name ? structs[i].name : "");
		for (size_t m = 0; ok && m < structs[i].n_members; m++) {
			char name[256];
			uint64_t k;
			if (embedded_type(&structs[i].members[m], name, sizeof(name), &k))
				ok = add_name(v, count, &seen, name);
		}
	}
	slt_strmap_free(&seen);
	if (!ok) {
		slt_access_names_free(v, *count);
		*count = 0;
		return NULL;
	}
	return v;
}

enum slt_class slt_access_rule(const struct slt_access_evidence *e)
{
	if (!e->n_funcs)
		return SLT_CLASS_NONE;
	if (2 * e->writers >= e->n_funcs &&
	    (e->atomics || e->updaters >= SLT_ACCESS_HOT_FUNCS))
		return SLT_CLASS_HOT_WRITE;
	if (e->loaders >= SLT_ACCESS_MANY &&
	    e->writers * SLT_ACCESS_READ_RATIO <= e->n_funcs)
		return SLT_CLASS_READ_MOSTLY;
	return SLT_CLASS_NONE;
}

int slt_access_evidence(const struct slt_access_map *map,
			const struct slt_access_summary *sum,
			struct slt_access_evidence **out, struct slt_error *err)
{
	const struct slt_struct *s = sum->layout;
	struct slt_access_evidence *ev = calloc(s->n_members + 1, sizeof(*ev));
	struct fk *f = calloc(sum->n_sites + map->n_sites / 8 + 1, sizeof(*f));
	size_t cap = sum->n_sites + map->n_sites / 8 + 1;
	long *top = calloc(sum->n_sites + 1, sizeof(*top));
	*out = NULL;
	if (!ev || !f || !top) {
		free(ev);
		free(f);
		free(top);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	/* the units of findings: outermost named members (the members of an
	 * anonymous struct or union are units of their own) */
	for (size_t i = 0; i < sum->n_sites; i++) {
		long m = sum->site_member[i];
		top[i] = m < 0 ? -1 : (long)slt_member_unit(s, (size_t)m);
	}
	for (size_t m = 0; m < s->n_members; m++) {
		if (!s->members[m].name[0] || slt_member_unit(s, m) != m)
			continue;
		struct slt_access_evidence *e = &ev[m];
		size_t n = 0;
		for (size_t i = 0; i < sum->n_sites; i++) {
			const struct slt_access_site *site = &map->sites[sum->sites[i]];
			uint8_t how = how_of(site->kind);
			if (top[i] != (long)m || !how)
				continue;
			f[n++] = (struct fk){.func = site->func, .how = how, .own = 1};
			e->loads += how == FN_LOAD;
			e->stores += how == FN_STORE;
			e->updates += !!(how & FN_UPDATE);
		}
		char name[256];
		uint64_t count;
		const struct slt_member *mb = &s->members[m];
		if (embedded_type(mb, name, sizeof(name), &count) && mb->size &&
		    mb->size % count == 0) {
			uint64_t esize = mb->size / count;
			uint32_t nc = slt_access_containers(map, name, esize);
			e->via_containers = nc;
			for (size_t i = 0; nc && nc <= SLT_ACCESS_EMBED_MAX && i < map->n_sites; i++) {
				const struct slt_access_site *site = &map->sites[i];
				uint8_t how = how_of(site->kind);
				if (!how || site->type_size != esize || strcmp(site->type, name))
					continue;
				if (n == cap) {
					struct fk *g = realloc(f, 2 * cap * sizeof(*f));
					if (!g) {
						free(ev);
						free(f);
						free(top);
						return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL,
								     "out of memory");
					}
					f = g;
					cap *= 2;
				}
				f[n++] = (struct fk){.func = site->func, .how = how};
				e->via_sites++;
				e->via_type = mb->type;
			}
		}
		tally(f, n, e);
	}
	free(f);
	free(top);
	*out = ev;
	return 0;
}

int slt_access_classes_write(FILE *out, const struct slt_access_map *map,
			     struct slt_access_summary *const *sums, size_t n,
			     struct slt_error *err)
{
	fprintf(out,
		"# Member classes from the static access map of %s\n"
		"# (structlint access --write-classes): proposed from the machine code,\n"
		"# counting instructions and functions, not executions.  Review and edit\n"
		"# before committing.  sites: the counts of `structlint access` (direct\n"
		"# sites; calls: sites charged at a call passing the member's address,\n"
		"# by the callee's summary).  Rule (structlint(1), STATIC CLASSES), over\n"
		"# the distinct functions with a load, store or rmw (lock-prefixed, xchg,\n"
		"# add to memory...) site on the member, direct or via a call, or on its\n"
		"# own struct type when that type is held by at most %d struct types (bit\n"
		"# operations count as stores):\n"
		"#   hot-write    at least half of them write it, and one is an atomic\n"
		"#                rmw or %d or more are rmw in place;\n"
		"#   read-mostly  %d or more load it and at most 1 in %d writes it;\n"
		"#   otherwise    not classified (a comment: decide yourself).\n",
		map->path, SLT_ACCESS_EMBED_MAX, SLT_ACCESS_HOT_FUNCS,
		SLT_ACCESS_MANY, SLT_ACCESS_READ_RATIO);
	for (size_t k = 0; k < n; k++) {
		const struct slt_struct *s = sums[k]->layout;
		struct slt_access_evidence *ev;
		int rc = slt_access_evidence(map, sums[k], &ev, err);
		if (rc)
			return rc;
		fprintf(out, "\n[%s]  # %" PRIu64 " bytes\n", s->name, s->size);
		for (size_t m = 0; m < s->n_members; m++) {
			const struct slt_member *mb = &s->members[m];
			const struct slt_access_evidence *e = &ev[m];
			char path[512];
			if (!mb->name[0] || slt_member_unit(s, m) != m)
				continue;
			slt_member_path(s, m, path, sizeof(path));
			enum slt_class c = slt_access_rule(e);
			char ev_text[768], counts[256];
			int w = snprintf(ev_text, sizeof(ev_text),
					 "sites: %s; rule over %u functions: %u load, %u store,"
					 " %u rmw (%u atomic), %u write",
					 slt_access_member_text(&sums[k]->members[m], counts,
								sizeof(counts)),
					 e->n_funcs, e->loaders, e->storers, e->updaters,
					 e->atomics, e->writers);
			if (e->via_sites && w > 0 && (size_t)w < sizeof(ev_text))
				snprintf(ev_text + w, sizeof(ev_text) - (size_t)w,
					 "; with %" PRIu64 " sites on %s itself (in %u struct types)",
					 e->via_sites, e->via_type, e->via_containers);
			if (!e->n_funcs)
				fprintf(out, "# %-30s (no static site: not classified)\n", path);
			else if (c == SLT_CLASS_NONE)
				fprintf(out, "# %-30s (neither: not classified) # %s\n", path, ev_text);
			else
				fprintf(out, "%-32s %-12s # %s\n", path, slt_class_name(c), ev_text);
		}
		free(ev);
	}
	if (ferror(out))
		return slt_error_set(err, SLT_EIO, NULL, -1, NULL, "write error");
	return 0;
}
