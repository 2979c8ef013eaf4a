/* SPDX-License-Identifier: MIT */
/*
 * The join (include/structlint/join.h): samples are summed per distinct
 * address or offset ("points", an open-addressing hash table) while they
 * stream in, so memory grows with distinct addresses, CPUs and code
 * locations, not with samples.  slt_join_finish() resolves the instance
 * base (base.c), maps every point to its innermost member and to the cache
 * line it fell on, and sums members into their inline parents.
 *
 * Samples that name a data symbol and an offset (perf mem report's "Data
 * Symbol", SLT_SAMPLE_DSYM) are typed by that offset when the symbol is the
 * instance's (opts.base_symbol, or the one symbol all of them name).
 *
 * Samples that list the CPUs that touched a line (c2c node{cpus}, no
 * single CPU) have their loads and stores spread evenly over those CPUs
 * (the remainder to the first ones): perf c2c does not print per-CPU
 * counts, so this is an estimate, and the report says so.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strdist.h"
#include "join/elems.h"
#include "join/join_int.h"

struct slt_join {
	const struct slt_struct *layout;
	struct slt_join_opts opts;
	struct slt_line_hint *hints;   /* copy of opts.hints */
	unsigned cl;
	struct slt_arena *arena;       /* interned strings; goes to the profile */
	struct slt_join_point *pts;    /* hash table */
	size_t cap, used;
	const char **strs;             /* intern table (open addressing) */
	size_t scap, sused;
	uint64_t samples, skipped_type, records;
	uint64_t stores;               /* every sample's, kept or not */
	struct slt_count_caps caps;    /* counts taken in (slt_counts_clamp) */
	struct slt_type_count *types;  /* other types named: interned name
					  (compared by pointer) -> samples */
	size_t tcap, tused;
	int failed;                    /* SLT_ENOMEM seen in add */
	/* data-symbol samples (SLT_SAMPLE_DSYM), see slt_join_opts.base_symbol */
	const char *dsym, *dsym_second; /* without base_symbol: the first two
					   distinct symbols named (interned) */
	uint64_t dsym_samples;          /* placed by their symbol offset */
	uint64_t dsym_other;            /* on another symbol: not this instance */
	struct slt_unknown_member unknown[SLT_JOIN_TOP_TYPES]; /* interned */
	size_t n_unknown;
	uint64_t unknown_samples;
	uint64_t folded_samples;        /* by a path inside a folded member */
	const char *folded_path;        /* the first (interned) */
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Interned copy of s ("" for NULL). */
static const char *intern(struct slt_join *j, const char *s)
{
	if (!s)
		s = "";
	if (j->sused * 2 >= j->scap) {
		size_t ncap = j->scap ? j->scap * 2 : 256;
		const char **n = calloc(ncap, sizeof(*n));
		if (!n)
			return NULL;
		for (size_t i = 0; i < j->scap; i++) {
			if (!j->strs[i])
				continue;
			size_t k = hash_str(j->strs[i]) & (ncap - 1);
			while (n[k])
				k = (k + 1) & (ncap - 1);
			n[k] = j->strs[i];
		}
		free(j->strs);
		j->strs = n;
		j->scap = ncap;
	}
	size_t k = hash_str(s) & (j->scap - 1);
	while (j->strs[k]) {
		if (!strcmp(j->strs[k], s))
			return j->strs[k];
		k = (k + 1) & (j->scap - 1);
	}
	char *c = slt_arena_strdup(j->arena, s);
	if (!c)
		return NULL;
	j->strs[k] = c;
	j->sused++;
	return c;
}

/* Count n samples of another type (name interned).  Returns 0 or
 * SLT_ENOMEM. */
static int other_type(struct slt_join *j, const char *name, uint64_t n)
{
	if (j->tused * 2 >= j->tcap) {
		size_t ncap = j->tcap ? j->tcap * 2 : 64;
		struct slt_type_count *v = calloc(ncap, sizeof(*v));
		if (!v)
			return SLT_ENOMEM;
		for (size_t i = 0; i < j->tcap; i++) {
			if (!j->types[i].name)
				continue;
			size_t k = mix((uintptr_t)j->types[i].name) & (ncap - 1);
			while (v[k].name)
				k = (k + 1) & (ncap - 1);
			v[k] = j->types[i];
		}
		free(j->types);
		j->types = v;
		j->tcap = ncap;
	}
	size_t k = mix((uintptr_t)name) & (j->tcap - 1);
	while (j->types[k].name && j->types[k].name != name)
		k = (k + 1) & (j->tcap - 1);
	if (!j->types[k].name) {
		j->types[k].name = name;
		j->tused++;
	}
	j->types[k].samples += n;
	return 0;
}

/* The SLT_JOIN_TOP_TYPES most named other types into p (ties: by name). */
static void top_types(const struct slt_join *j, struct slt_access_profile *p)
{
	for (size_t i = 0; i < j->tcap; i++) {
		const struct slt_type_count *t = &j->types[i];
		if (!t->name)
			continue;
		size_t k = p->n_other_types;
		while (k > 0 && (t->samples > p->other_types[k - 1].samples ||
				 (t->samples == p->other_types[k - 1].samples &&
				  strcmp(t->name, p->other_types[k - 1].name) < 0)))
			k--;
		if (k >= SLT_JOIN_TOP_TYPES)
			continue;
		size_t last = p->n_other_types < SLT_JOIN_TOP_TYPES ? p->n_other_types
								      : SLT_JOIN_TOP_TYPES - 1;
		memmove(&p->other_types[k + 1], &p->other_types[k],
			(last - k) * sizeof(*p->other_types));
		p->other_types[k] = *t;
		if (p->n_other_types < SLT_JOIN_TOP_TYPES)
			p->n_other_types++;
	}
}

static struct slt_join_point *point(struct slt_join *j, uint32_t kind,
				    uint64_t key)
{
	if (j->used * 2 >= j->cap) {
		size_t ncap = j->cap ? j->cap * 2 : 1024;
		struct slt_join_point *n = calloc(ncap, sizeof(*n));
		if (!n)
			return NULL;
		for (size_t i = 0; i < j->cap; i++) {
			if (j->pts[i].kind == SLT_POINT_FREE)
				continue;
			size_t k = mix(j->pts[i].key ^ j->pts[i].kind) & (ncap - 1);
			while (n[k].kind != SLT_POINT_FREE)
				k = (k + 1) & (ncap - 1);
			n[k] = j->pts[i];
		}
		free(j->pts);
		j->pts = n;
		j->cap = ncap;
	}
	size_t k = mix(key ^ kind) & (j->cap - 1);
	while (j->pts[k].kind != SLT_POINT_FREE) {
		if (j->pts[k].kind == kind && j->pts[k].key == key)
			return &j->pts[k];
		k = (k + 1) & (j->cap - 1);
	}
	j->pts[k].kind = kind;
	j->pts[k].key = key;
	j->used++;
	return &j->pts[k];
}

int slt_join_new(const struct slt_struct *layout,
		 const struct slt_join_opts *opts, struct slt_join **out,
		 struct slt_error *err)
{
	*out = NULL;
	if (!layout)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL, "no layout to join samples to");
	unsigned cl = opts && opts->cacheline_size ? opts->cacheline_size : SLT_CACHELINE_DEFAULT;
	if (cl & (cl - 1))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, "use a power of two",
				     "cache line size %u is not a power of two", cl);
	struct slt_join *j = calloc(1, sizeof(*j));
	if (!j || !(j->arena = slt_arena_new()))
		goto nomem;
	j->layout = layout;
	if (opts)
		j->opts = *opts;
	j->cl = cl;
	if (!j->opts.max_locations)
		j->opts.max_locations = 8;
	if (j->opts.base_symbol &&
	    !(j->opts.base_symbol = slt_arena_strdup(j->arena, j->opts.base_symbol)))
		goto nomem;
	if (j->opts.n_hints) {
		j->hints = calloc(j->opts.n_hints, sizeof(*j->hints));
		if (!j->hints)
			goto nomem;
		memcpy(j->hints, opts->hints, j->opts.n_hints * sizeof(*j->hints));
		j->opts.hints = j->hints;
	}
	*out = j;
	return 0;
nomem:
	slt_join_free(j);
	return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
}

/* "struct foo" / "union foo" / "foo" names layout? */
static bool same_type(const struct slt_struct *s, const char *name)
{
	while (*name == ' ')
		name++;
	if (!strncmp(name, "struct ", 7))
		name += 7;
	else if (!strncmp(name, "union ", 6))
		name += 6;
	size_t n = strlen(name);
	while (n && name[n - 1] == ' ')
		n--;
	return strlen(s->name) == n && !strncmp(s->name, name, n);
}

char *slt_member_path(const struct slt_struct *s, size_t i, char *buf,
		      size_t size)
{
	const char *names[64];
	size_t n = 0, h = 0;
	for (long k = (long)i; k >= 0 && (size_t)k < s->n_members && n < 64;
	     k = s->members[k].parent)
		if (s->members[k].name[0])
			names[n++] = s->members[k].name;
	buf[0] = 0;
	for (size_t k = n; k-- > 0;) {
		int r = snprintf(buf + h, size - h, "%s%s", h ? "." : "", names[k]);
		if (r < 0 || (size_t)r >= size - h)
			break;
		h += (size_t)r;
	}
	return buf;
}

int slt_member_closest(const struct slt_struct *s, const char *want,
		       char **best)
{
	struct slt_suggest sg;
	char have[512], **names = NULL;
	*best = NULL;
	slt_suggest_init(&sg, want, 1);
	for (size_t i = 0; i < s->n_members; i++) {
		if (!s->members[i].name[0])
			continue;
		slt_member_path(s, i, have, sizeof(have));
		if (slt_suggest_could(&sg, strlen(have)) &&
		    slt_suggest_add(&sg, have)) {
			slt_suggest_release(&sg);
			return SLT_ENOMEM;
		}
	}
	size_t n = slt_suggest_take(&sg, &names);
	if (n)
		*best = names[0];
	for (size_t i = 1; i < n; i++)
		free(names[i]);
	free(names);
	return 0;
}

/* Remember a member path the layout lacks (the first few, interned). */
static int unknown_member(struct slt_join *j, const char *path, uint64_t n,
			  bool by_offset)
{
	const char *name = intern(j, path);
	if (!name)
		return SLT_ENOMEM;
	j->unknown_samples += n;
	for (size_t k = 0; k < j->n_unknown; k++)
		if (j->unknown[k].name == name) {
			j->unknown[k].samples += n;
			return 0;
		}
	if (j->n_unknown < SLT_JOIN_TOP_TYPES)
		j->unknown[j->n_unknown++] = (struct slt_unknown_member){
			.name = name, .samples = n, .by_offset = by_offset };
	return 0;
}

/* The closest member path to each unknown one, into p. */
static int unknown_members(struct slt_join *j, struct slt_access_profile *p)
{
	const struct slt_struct *s = j->layout;
	p->unknown_member_samples = j->unknown_samples;
	for (size_t k = 0; k < j->n_unknown; k++) {
		char *best;
		p->unknown_members[k] = j->unknown[k];
		if (slt_member_closest(s, j->unknown[k].name, &best))
			return SLT_ENOMEM;
		if (best && !(p->unknown_members[k].suggestion = intern(j, best))) {
			free(best);
			return SLT_ENOMEM;
		}
		free(best);
	}
	p->n_unknown_members = j->n_unknown;
	return 0;
}

/*
 * A data-symbol sample: 1 and *key (offset into the struct) when it is
 * placed by its symbol, 0 when it is to be placed otherwise (it also has an
 * address), -1 when it is another object's (counted), SLT_ENOMEM.
 */
static int dsym_key(struct slt_join *j, const struct slt_sample *s, uint64_t *key)
{
	uint64_t n = s->loads + s->stores;
	if (j->opts.base_symbol) {
		if (!strcmp(s->data_symbol, j->opts.base_symbol)) {
			*key = s->data_symbol_offset;
			j->dsym_samples += n;
			return 1;
		}
		if (s->flags & (SLT_SAMPLE_ADDR | SLT_SAMPLE_LINE))
			return 0;
		j->dsym_other += n;
		j->skipped_type += n;
		return -1;
	}
	if (!j->dsym) {
		if (!(j->dsym = intern(j, s->data_symbol)))
			return SLT_ENOMEM;
	} else if (strcmp(j->dsym, s->data_symbol) && !j->dsym_second) {
		if (!(j->dsym_second = intern(j, s->data_symbol)))
			return SLT_ENOMEM;
	}
	*key = s->data_symbol_offset;
	j->dsym_samples += n;
	return 1;
}

int slt_join_add(void *ctx, const struct slt_sample *in)
{
	struct slt_join *j = ctx;
	struct slt_sample clamped = *in;
	const struct slt_sample *s = &clamped;
	slt_counts_clamp(&j->caps, j->samples, &clamped);
	uint32_t kind;
	uint64_t key;
	long member = 0;    /* slt_join_path_place(): -1 unknown, <= -2 folded */
	uint64_t at = 0;    /* the byte a subscripted path names */
	int placed = 0;
	j->records++;
	j->samples += s->loads + s->stores;
	j->stores += s->stores;
	int d = (s->flags & SLT_SAMPLE_DSYM) && s->data_symbol ? dsym_key(j, s, &key) : 0;
	if (d == SLT_ENOMEM)
		goto nomem;
	if (d < 0)
		return 0;
	if (d == 0 && (s->flags & (SLT_SAMPLE_TYPE | SLT_SAMPLE_MEMBER)) && s->type_name &&
	    !same_type(j->layout, s->type_name)) {
		const char *name = intern(j, s->type_name);
		j->skipped_type += s->loads + s->stores;
		if (!name || other_type(j, name, s->loads + s->stores))
			goto nomem;
		return 0;
	}
	if (d == 1) {
		kind = SLT_POINT_OFFSET;  /* key: the offset from the data symbol */
	} else if (s->flags & SLT_SAMPLE_MEMBER && s->member &&
		   (placed = slt_join_path_place(j->layout, s->member, &member, &at),
		    member != -1) &&
		   !(member < -1 && (s->flags & SLT_SAMPLE_TYPE))) {
		kind = SLT_POINT_MEMBER;
		key = (uint64_t)(member >= 0 ? member : -2 - member);
		/* a named member with its offset inside it keeps the byte
		 * (high half of the key: offset in the member + 1), so that
		 * an array's elements are told apart; the offset is given, or
		 * the path's subscripts name it ("slot[3]") */
		const struct slt_member *nm = &j->layout->members[key];
		if (s->flags & SLT_SAMPLE_TYPE)
			at = s->type_offset, placed = 1;
		if (member >= 0 && placed && at >= nm->offset &&
		    at - nm->offset < nm->size && at - nm->offset < UINT32_MAX)
			key |= (at - nm->offset + 1) << 32;
		if (member < -1) {
			j->folded_samples += s->loads + s->stores;
			if (!j->folded_path && !(j->folded_path = intern(j, s->member)))
				goto nomem;
		}
	} else if (s->flags & SLT_SAMPLE_MEMBER && s->member &&
		   !(s->flags & SLT_SAMPLE_TYPE) && member == -1) {
		kind = SLT_POINT_NOMEMBER;
		key = 0;
		if (unknown_member(j, s->member, s->loads + s->stores, false))
			goto nomem;
	} else if (s->flags & SLT_SAMPLE_TYPE) {
		/* an unknown member name with an offset: placed by the offset */
		if (member == -1 && (s->flags & SLT_SAMPLE_MEMBER) && s->member &&
		    unknown_member(j, s->member, s->loads + s->stores, true))
			goto nomem;
		kind = SLT_POINT_OFFSET;
		key = s->type_offset;
	} else if (s->flags & SLT_SAMPLE_LINE) {
		kind = SLT_POINT_ADDR;
		key = s->line_addr + s->line_offset;
	} else if (s->flags & SLT_SAMPLE_ADDR) {
		kind = SLT_POINT_ADDR;
		key = s->addr;
	} else {
		j->skipped_type += s->loads + s->stores;
		return 0;
	}
	struct slt_join_point *p = point(j, kind, key);
	if (!p)
		goto nomem;
	struct slt_acc *a = &p->acc;
	if (s->access_size > p->access_size)
		p->access_size = s->access_size;
	a->loads += s->loads;
	a->stores += s->stores;
	a->hitm_local += s->hitm_local;
	a->hitm_remote += s->hitm_remote;
	a->peer_local += s->peer_local;
	a->peer_remote += s->peer_remote;
	a->cycles += s->cycles;
	if ((s->flags & SLT_SAMPLE_CPU) && s->cpu >= 0) {
		if (slt_acc_add_cpu(a, s->cpu, s->loads, s->stores))
			goto nomem;
	} else if ((s->flags & SLT_SAMPLE_CPUS) && s->cpus && s->n_cpus) {
		uint64_t n = s->n_cpus;
		for (size_t i = 0; i < s->n_cpus; i++) {
			uint64_t l = s->loads / n + (i < s->loads % n);
			uint64_t st = s->stores / n + (i < s->stores % n);
			if ((l || st) && slt_acc_add_cpu(a, s->cpus[i], l, st))
				goto nomem;
		}
	}
	if (s->symbol || s->source || ((s->flags & SLT_SAMPLE_IP) && s->ip)) {
		const char *sym = intern(j, s->symbol), *src = intern(j, s->source);
		if (!sym || !src)
			goto nomem;
		uint64_t h = s->hitm_local + s->hitm_remote + s->peer_local + s->peer_remote;
		if (slt_acc_add_loc(a, sym, src, (s->flags & SLT_SAMPLE_IP) ? s->ip : 0,
				    s->loads, s->stores, h))
			goto nomem;
	}
	return 0;
nomem:
	j->failed = SLT_ENOMEM;
	return SLT_ENOMEM;
}

/* Public form of an accumulator, copied into the profile's arena. */
static int publish(struct slt_arena *ar, struct slt_acc *a, size_t max_locs,
		   struct slt_member_access *out)
{
	out->loads = a->loads;
	out->stores = a->stores;
	out->hitm_local = a->hitm_local;
	out->hitm_remote = a->hitm_remote;
	out->peer_local = a->peer_local;
	out->peer_remote = a->peer_remote;
	out->cycles = a->cycles;
	slt_acc_sort_cpus(a);
	if (a->n_cpus) {
		out->cpus = slt_arena_calloc(ar, a->n_cpus, sizeof(*out->cpus));
		if (!out->cpus)
			return SLT_ENOMEM;
		memcpy(out->cpus, a->cpus, a->n_cpus * sizeof(*out->cpus));
		out->n_cpus = a->n_cpus;
	}
	/* Most samples first: selection of the top max_locs. */
	size_t n = a->n_locs < max_locs ? a->n_locs : max_locs;
	if (n) {
		out->locations = slt_arena_calloc(ar, n, sizeof(*out->locations));
		if (!out->locations)
			return SLT_ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		size_t best = k;
		for (size_t i = k + 1; i < a->n_locs; i++)
			if (a->locs[i].loads + a->locs[i].stores >
			    a->locs[best].loads + a->locs[best].stores)
				best = i;
		struct slt_acc_loc t = a->locs[k];
		a->locs[k] = a->locs[best];
		a->locs[best] = t;
		out->locations[k] = (struct slt_code_location){
			a->locs[k].symbol, a->locs[k].source, a->locs[k].ip,
			a->locs[k].loads, a->locs[k].stores, a->locs[k].hitm };
	}
	out->n_locations = n;
	return 0;
}

struct cell_acc {
	uint64_t line;
	size_t member;
	struct slt_acc acc;
	struct slt_elems elems;        /* an array member's elements */
};

static int cmp_cell(const void *x, const void *y)
{
	const struct cell_acc *a = x, *b = y;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return (a->member > b->member) - (a->member < b->member);
}

/* Add point acc to the cell (line, member); cells is a small growing
 * array searched linearly from the end (points arrive in no order, cells
 * are few: lines x members touched). */
static struct cell_acc *add_cell(struct cell_acc **cells, size_t *n, size_t *cap,
				 uint64_t line, size_t member, const struct slt_acc *a)
{
	for (size_t i = *n; i-- > 0;)
		if ((*cells)[i].line == line && (*cells)[i].member == member)
			return slt_acc_merge(&(*cells)[i].acc, a) ? NULL : &(*cells)[i];
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct cell_acc *c = realloc(*cells, nc * sizeof(*c));
		if (!c)
			return NULL;
		*cells = c;
		*cap = nc;
	}
	(*cells)[*n] = (struct cell_acc){ .line = line, .member = member };
	return slt_acc_merge(&(*cells)[*n].acc, a) ? NULL : &(*cells)[(*n)++];
}

static int map_points(struct slt_join *j, struct slt_access_profile *p,
		      struct slt_acc *own, struct slt_acc *outside,
		      struct cell_acc **cells, size_t *n_cells, size_t *cap_cells)
{
	const struct slt_struct *s = j->layout;
	for (size_t i = 0; i < j->cap; i++) {
		struct slt_join_point *pt = &j->pts[i];
		uint64_t off;
		long m;
		if (pt->kind == SLT_POINT_FREE)
			continue;
		if (pt->kind == SLT_POINT_MEMBER) {
			m = (long)(pt->key & UINT32_MAX);
			off = s->members[m].offset + (pt->key >> 32 ? (pt->key >> 32) - 1 : 0);
		} else if (pt->kind == SLT_POINT_NOMEMBER) {
			m = -1;
			off = 0;
		} else {
			off = pt->kind == SLT_POINT_ADDR ? pt->key - p->base : pt->key;
			bool in = pt->kind == SLT_POINT_OFFSET || pt->key >= p->base;
			m = in && off < s->size ? slt_join_member_at(s, off) : -1;
			if (in && off < s->size && m < 0)
				p->hole_samples += pt->acc.loads + pt->acc.stores;
		}
		if (m < 0) {
			if (slt_acc_merge(outside, &pt->acc))
				return SLT_ENOMEM;
			continue;
		}
		p->matched += pt->acc.loads + pt->acc.stores;
		struct cell_acc *c = NULL;
		if (slt_acc_merge(&own[m], &pt->acc) ||
		    !(c = add_cell(cells, n_cells, cap_cells, (p->line_origin + off) / j->cl,
				   (size_t)m, &pt->acc)))
			return SLT_ENOMEM;
		bool placed = pt->kind != SLT_POINT_MEMBER || pt->key >> 32;
		if (slt_elems_add(&c->elems, s, (size_t)m, placed, off, pt->access_size, &pt->acc))
			return SLT_ENOMEM;
	}
	return 0;
}

static int build(struct slt_join *j, struct slt_access_profile *p,
		 struct slt_error *err)
{
	const struct slt_struct *s = j->layout;
	struct slt_arena *ar = j->arena;
	size_t n_addr = 0;
	if (j->dsym_second)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "name the instance's symbol: --base SYMBOL",
				     "the samples name several data symbols (%s, %s, ...): "
				     "which one is this %s is not known",
				     j->dsym, j->dsym_second, s->name);
	for (size_t i = 0; i < j->cap; i++)
		n_addr += j->pts[i].kind == SLT_POINT_ADDR;
	int rc = 0;
	if (n_addr) {
		const struct slt_join_point **v = calloc(n_addr, sizeof(*v));
		if (!v)
			return SLT_ENOMEM;
		size_t k = 0;
		for (size_t i = 0; i < j->cap; i++)
			if (j->pts[i].kind == SLT_POINT_ADDR)
				v[k++] = &j->pts[i];
		rc = slt_join_resolve_base(s, &j->opts, j->cl, v, n_addr, p, err);
		free(v);
		if (rc)
			return rc;
		p->line_origin = (uint32_t)(p->base & (j->cl - 1));
	} else if (j->used && j->dsym_samples && j->opts.base_symbol && j->opts.has_base) {
		p->base_method = SLT_BASE_EXPLICIT;
		p->base = j->opts.base;
		p->line_origin = (uint32_t)(p->base & (j->cl - 1));
		snprintf(p->base_note, sizeof(p->base_note),
			 "data symbol %s at 0x%" PRIx64 ": samples give offsets from it",
			 j->opts.base_symbol, p->base);
	} else if (j->used && j->dsym_samples) {
		p->base_method = SLT_BASE_TYPED;
		snprintf(p->base_note, sizeof(p->base_note),
			 j->opts.base_symbol ? "data symbol %s (--base): samples give offsets from it"
					     : "every data-symbol sample names %s: offsets from it",
			 j->opts.base_symbol ? j->opts.base_symbol : j->dsym);
	} else if (j->used) {
		p->base_method = SLT_BASE_TYPED;
		snprintf(p->base_note, sizeof(p->base_note),
			 "samples name the type and offset");
	} else {
		snprintf(p->base_note, sizeof(p->base_note), "no samples");
	}
	if (j->dsym_other) {
		size_t l = strlen(p->base_note);
		snprintf(p->base_note + l, sizeof(p->base_note) - l,
			 "; %" PRIu64 " samples on other data symbols left out", j->dsym_other);
	}

	/* A typed or given base is certain: confidence measures inference. */
	if (p->base_method == SLT_BASE_TYPED || p->base_method == SLT_BASE_EXPLICIT)
		p->confidence = 1;

	struct slt_acc *own = calloc(s->n_members + 1, sizeof(*own));
	struct slt_acc outside = { 0 };
	struct cell_acc *cells = NULL;
	size_t n_cells = 0, cap_cells = 0;
	if (!own)
		return SLT_ENOMEM;
	rc = map_points(j, p, own, &outside, &cells, &n_cells, &cap_cells);
	/* Parents sum their children: members are in pre-order, so walking
	 * backwards finishes every child before its parent. */
	for (size_t i = s->n_members; !rc && i-- > 0;) {
		int32_t par = s->members[i].parent;
		if (par >= 0 && (size_t)par < s->n_members)
			rc = slt_acc_merge(&own[par], &own[i]);
	}
	if (!rc && s->n_members &&
	    !(p->members = slt_arena_calloc(ar, s->n_members, sizeof(*p->members))))
		rc = SLT_ENOMEM;
	for (size_t i = 0; !rc && i < s->n_members; i++)
		rc = publish(ar, &own[i], j->opts.max_locations, &p->members[i]);
	if (!rc)
		rc = publish(ar, &outside, j->opts.max_locations, &p->outside);
	if (!rc && n_cells) {
		qsort(cells, n_cells, sizeof(*cells), cmp_cell);
		p->cells = slt_arena_calloc(ar, n_cells, sizeof(*p->cells));
		if (!p->cells)
			rc = SLT_ENOMEM;
		for (size_t i = 0; !rc && i < n_cells; i++) {
			struct slt_line_access *c = &p->cells[i];
			struct slt_acc *a = &cells[i].acc;
			c->line = cells[i].line;
			c->member = cells[i].member;
			c->loads = a->loads;
			c->stores = a->stores;
			c->hitm = slt_acc_hitm(a);
			slt_acc_sort_cpus(a);
			if (a->n_cpus) {
				c->cpus = slt_arena_calloc(ar, a->n_cpus, sizeof(*c->cpus));
				if (!c->cpus) {
					rc = SLT_ENOMEM;
					break;
				}
				memcpy(c->cpus, a->cpus, a->n_cpus * sizeof(*c->cpus));
				c->n_cpus = a->n_cpus;
			}
			rc = slt_elems_publish(ar, &cells[i].elems, c);
		}
		if (!rc)
			p->n_cells = n_cells;
	}
	p->outside_samples = outside.loads + outside.stores;
	for (size_t i = 0; i < s->n_members + 1; i++)
		slt_acc_release(&own[i]);
	free(own);
	slt_acc_release(&outside);
	for (size_t i = 0; i < n_cells; i++) {
		slt_acc_release(&cells[i].acc);
		free(cells[i].elems.v);
	}
	free(cells);
	return rc;
}

int slt_join_finish(struct slt_join *j, struct slt_access_profile **out,
		    struct slt_error *err)
{
	*out = NULL;
	if (!j)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL, "no join");
	if (j->failed) {
		slt_join_free(j);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory while joining samples");
	}
	struct slt_access_profile *p = calloc(1, sizeof(*p));
	if (!p) {
		slt_join_free(j);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	p->layout = j->layout;
	p->cacheline_size = j->cl;
	p->samples = j->samples;
	p->counts_saturated = j->caps.saturated;
	p->input_stores = j->stores;
	p->folded_samples = j->folded_samples;
	p->folded_path = j->folded_path;
	p->skipped_other_type = j->skipped_type;
	top_types(j, p);
	int rc = build(j, p, err);
	if (!rc)
		rc = unknown_members(j, p);
	p->priv_ = j->arena;           /* the profile owns the strings now */
	j->arena = NULL;
	slt_join_free(j);
	if (rc) {
		slt_access_profile_free(p);
		if (rc == SLT_ENOMEM)
			slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory while joining samples");
		return rc;
	}
	*out = p;
	return 0;
}

void slt_join_free(struct slt_join *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->cap; i++)
		slt_acc_release(&j->pts[i].acc);
	free(j->pts);
	free(j->strs);
	free(j->types);
	free(j->hints);
	slt_arena_free(j->arena);
	free(j);
}

void slt_access_profile_free(struct slt_access_profile *p)
{
	if (!p)
		return;
	slt_arena_free(p->priv_);
	free(p);
}
