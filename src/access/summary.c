/* SPDX-License-Identifier: MIT */
/*
 * One struct's view of the access map: per member site counts, distinct
 * functions, and the coverage of the functions that touch the struct.
 * Offsets go to members with the join's own rule (slt_join_member_at,
 * src/join), so a static site lands where a sample at that offset would.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "join/join_int.h"
#include "structlint/access.h"
#include "structlint/layout.h"

const char *slt_access_kind_name(uint32_t k)
{
	if (k & SLT_ACCESS_ADDR)
		return "address";
	if (k & SLT_ACCESS_ATOMIC)
		return "rmw";
	if ((k & SLT_ACCESS_LOAD) && (k & SLT_ACCESS_STORE))
		return "load-store";
	return k & SLT_ACCESS_STORE ? "store" : "load";
}

uint32_t slt_access_role(uint32_t k)
{
	if (k & SLT_ACCESS_ADDR)
		return 0;
	if (k & SLT_ACCESS_BITS)   /* a flag set or cleared, atomic or not */
		return SLT_ACCESS_STORE;
	if (k & SLT_ACCESS_ATOMIC)
		return SLT_ACCESS_LOAD | SLT_ACCESS_STORE;
	return k & (SLT_ACCESS_LOAD | SLT_ACCESS_STORE);
}

static void count(struct slt_access_member *m, uint32_t k, bool call)
{
	uint32_t r = slt_access_role(k);
	if (k & SLT_ACCESS_ADDR)
		m->addr_taken++;
	else if (r == (SLT_ACCESS_LOAD | SLT_ACCESS_STORE))
		++*(call ? &m->call_rmw : &m->rmw);
	else if (r == SLT_ACCESS_STORE)
		++*(call ? &m->call_stores : &m->stores);
	else if (r == SLT_ACCESS_LOAD)
		++*(call ? &m->call_loads : &m->loads);
}

char *slt_access_member_text(const struct slt_access_member *m, char *buf,
			     size_t size)
{
	int w = snprintf(buf, size, "ld=%" PRIu64 " st=%" PRIu64 " rmw=%" PRIu64,
			 m->loads, m->stores, m->rmw);
	if (m->addr_taken && w >= 0 && (size_t)w < size)
		w += snprintf(buf + w, size - (size_t)w, " lea=%" PRIu64, m->addr_taken);
	if (w >= 0 && (size_t)w < size)
		w += snprintf(buf + w, size - (size_t)w, " funcs=%" PRIu32, m->n_funcs);
	if ((m->call_loads || m->call_stores || m->call_rmw) && w >= 0 && (size_t)w < size)
		snprintf(buf + w, size - (size_t)w, " calls: ld=%" PRIu64 " st=%" PRIu64
			 " rmw=%" PRIu64 " funcs=+%" PRIu32, m->call_loads,
			 m->call_stores, m->call_rmw, m->n_call_funcs);
	return buf;
}

struct pair {
	long member;   /* -1: outside */
	uint32_t func;
	uint32_t call; /* 1: a call-derived site (sorted after direct ones) */
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->member != y->member)
		return x->member < y->member ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return x->call < y->call ? -1 : x->call > y->call;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

void slt_access_summary_free(struct slt_access_summary *s)
{
	if (!s)
		return;
	free(s->members);
	free(s->sites);
	free(s->site_member);
	free(s);
}

/* Whether a site with the same pc, innermost member and kind is already
 * in s (sites come by pc: only the last ones can share it): a call whose
 * callee's summary has two entries on one member (two words of an array,
 * two widths) is one access of that member. */
static bool dup_site(const struct slt_access_map *map,
		     const struct slt_access_summary *s,
		     const struct slt_access_site *site, long m)
{
	for (size_t k = s->n_sites; k-- > 0;) {
		const struct slt_access_site *o = &map->sites[s->sites[k]];
		if (o->pc != site->pc)
			return false;
		if (s->site_member[k] == m && o->kind == site->kind)
			return true;
	}
	return false;
}

/* See structlint/access.h. */
size_t slt_access_site_members(const struct slt_struct *st,
				const struct slt_access_site *site, long *out,
				size_t cap)
{
	uint64_t pos = (uint64_t)site->offset;
	uint64_t end = pos + (site->width ? site->width : 1);
	size_t n = 0;
	while (pos < end && n < cap) {
		long m = slt_join_member_at(st, pos);
		if (m >= 0) {
			out[n++] = m;
			pos = st->members[m].offset + st->members[m].size;
			continue;
		}
		/* padding: on to the next member starting inside the access */
		uint64_t next = end;
		for (size_t i = 0; i < st->n_members; i++)
			if (st->members[i].size && st->members[i].offset > pos &&
			    st->members[i].offset < next)
				next = st->members[i].offset;
		pos = next;
	}
	return n;
}

#define SITE_MEMBERS_MAX SLT_ACCESS_SITE_MEMBERS_MAX

int slt_access_summarize(const struct slt_access_map *map,
			 const struct slt_struct *st,
			 struct slt_access_summary **out, struct slt_error *err)
{
	*out = NULL;
	struct slt_access_summary *s = calloc(1, sizeof(*s));
	size_t n = 0;
	long leaves[SITE_MEMBERS_MAX];
	for (size_t i = 0; i < map->n_sites; i++) {
		const struct slt_access_site *site = &map->sites[i];
		if (site->type_size == st->size && !strcmp(site->type, st->name)) {
			size_t k = slt_access_site_members(st, site, leaves, SITE_MEMBERS_MAX);
			n += k ? k : 1;
		}
	}
	size_t depth_max = 1;
	for (size_t i = 0; i < st->n_members; i++)
		if (st->members[i].depth + 1 > depth_max)
			depth_max = st->members[i].depth + 1;
	struct pair *pairs = NULL;
	uint32_t *funcs = NULL;
	size_t *stamp = calloc(st->n_members + 1, sizeof(*stamp));
	if (s) {
		s->layout = st;
		s->members = calloc(st->n_members + 1, sizeof(*s->members));
		s->sites = calloc(n + 1, sizeof(*s->sites));
		s->site_member = calloc(n + 1, sizeof(*s->site_member));
		pairs = calloc(n * (depth_max + 1) + 1, sizeof(*pairs));
		funcs = calloc(n + 1, sizeof(*funcs));
	}
	if (!s || !s->members || !s->sites || !s->site_member || !pairs || !funcs ||
	    !stamp) {
		slt_access_summary_free(s);
		free(pairs);
		free(funcs);
		free(stamp);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	size_t np = 0;
	for (size_t i = 0; i < map->n_sites; i++) {
		const struct slt_access_site *site = &map->sites[i];
		if (site->type_size != st->size || strcmp(site->type, st->name))
			continue;
		size_t nl = slt_access_site_members(st, site, leaves, SITE_MEMBERS_MAX);
		if (!nl)
			leaves[nl++] = -1;
		bool access = !(site->kind & SLT_ACCESS_ADDR);
		uint32_t call = site->via == SLT_VIA_CALL;
		for (size_t l = 0; l < nl; l++) {
			long m = leaves[l];
			if (dup_site(map, s, site, m))
				continue;
			s->sites[s->n_sites] = i;
			s->site_member[s->n_sites++] = m;
			if (m < 0) {
				count(&s->outside, site->kind, call);
				if (access)
					pairs[np++] = (struct pair){-1, site->func, call};
				continue;
			}
			/* a container once per site, however many of its
			 * members the site reaches */
			for (long a = m; a >= 0 && stamp[a] != i + 1;
			     a = st->members[a].parent) {
				stamp[a] = i + 1;
				count(&s->members[a], site->kind, call);
				if (access)
					pairs[np++] = (struct pair){a, site->func, call};
			}
		}
	}
	free(stamp);
	if (np > 1) /* qsort(NULL, 0) is undefined */
		qsort(pairs, np, sizeof(*pairs), cmp_pair);
	/* per (member, function): direct when any site is, else via a call */
	for (size_t i = 0; i < np; i++) {
		if (i && pairs[i - 1].member == pairs[i].member &&
		    pairs[i - 1].func == pairs[i].func)
			continue;
		struct slt_access_member *a = pairs[i].member < 0 ? &s->outside
					      : &s->members[pairs[i].member];
		++*(pairs[i].call ? &a->n_call_funcs : &a->n_funcs);
	}
	/* coverage over the functions with a site on this struct */
	size_t nf = 0;
	for (size_t i = 0; i < s->n_sites; i++)
		funcs[nf++] = map->sites[s->sites[i]].func;
	if (nf > 1) /* qsort(NULL, 0) is undefined */
		qsort(funcs, nf, sizeof(*funcs), cmp_u32);
	for (size_t i = 0; i < nf; i++) {
		if (i && funcs[i] == funcs[i - 1])
			continue;
		const struct slt_access_func *f = &map->funcs[funcs[i]];
		s->n_funcs++;
		s->n_mem += f->n_mem;
		for (int k = 0; k < SLT_AR_N; k++)
			s->reasons[k] += f->reasons[k];
	}
	free(pairs);
	free(funcs);
	*out = s;
	return 0;
}
