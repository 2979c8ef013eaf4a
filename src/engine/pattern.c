/* SPDX-License-Identifier: MIT */
/*
 * Measured access patterns (engine.h, slt_engine_pattern): the accesses a
 * profile holds for one struct, at their exact offsets and widths, per
 * CPU, and the spec that replays them.
 *
 * Each sample record of the struct (SLT_SAMPLE_TYPE: type_offset; or
 * SLT_SAMPLE_MEMBER: the member's first byte, or for a subscripted path
 * ("f[3]", "e[2].b") the element's, as the join places it) is placed on
 * the innermost
 * named member holding its offset, as (member path, bytes from the
 * member's start, width, CPU) with its loads and stores; a width over 8
 * bytes is split into 8-byte pieces, a width of 0 (unknown) is the
 * member's up to 8 bytes, and a width reaching past the member is cut at
 * its end.  Equal keys are summed.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine_int.h"
#include "join/join_int.h"
#include "structlint/samples.h"

void slt_engine_pattern_free(struct slt_engine_pattern *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->recs[i].member);
	free(p->recs);
	free(p->cpus);
	free(p);
}

struct collect {
	const struct slt_struct *s;
	const char *name;              /* tag without "struct " */
	struct slt_engine_pattern *p;
	size_t cap;
	size_t *mem;                   /* [cap]: member index of recs[i] */
	bool nomem;
};

/* The innermost named member holding byte off (-1: none, a hole). */
static long innermost(const struct slt_struct *s, uint64_t off)
{
	long best = -1;
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		if (!m->name[0] || off < m->offset || off >= m->offset + m->size)
			continue;
		if (best < 0 || m->size <= s->members[best].size)
			best = (long)i;
	}
	return best;
}

/* The member a path names and its byte of s, *at, by the join's resolver
 * (slt_join_path_place(): "a.b", or "f[3]" / "e[2].b", the element's
 * byte, as the analysis places them); -1 when none (or inside a member
 * shown folded). */
static long path_at(const struct slt_struct *s, const char *path, uint64_t *at)
{
	long m;
	uint64_t off;
	if (slt_join_path_place(s, path, &m, &off))
		*at = off;
	else if (m >= 0)
		*at = s->members[m].offset;
	return m < 0 ? -1 : m;
}

static int add_rec(struct collect *c, size_t m, uint64_t at, uint32_t width,
		   int32_t cpu, uint64_t loads, uint64_t stores)
{
	struct slt_engine_pattern *p = c->p;
	for (size_t i = 0; i < p->n; i++) {
		struct slt_engine_access_rec *r = &p->recs[i];
		if (c->mem[i] == m && r->at == at && r->width == width && r->cpu == cpu) {
			r->loads += loads;
			r->stores += stores;
			return 0;
		}
	}
	if (p->n == SLT_ENGINE_PATTERN_MAX)
		return p->dropped += loads + stores, 0;
	if (p->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct slt_engine_access_rec *r = realloc(p->recs, cap * sizeof(*r));
		if (r)
			p->recs = r;
		size_t *mm = r ? realloc(c->mem, cap * sizeof(*mm)) : NULL;
		if (!mm)
			return c->nomem = true, SLT_ENOMEM;
		c->mem = mm;
		c->cap = cap;
	}
	char buf[1024];
	char *path = strdup(slt_member_path(c->s, m, buf, sizeof(buf)));
	if (!path)
		return c->nomem = true, SLT_ENOMEM;
	c->mem[p->n] = m;
	p->recs[p->n++] = (struct slt_engine_access_rec){
		.member = path, .at = at, .width = width, .cpu = cpu,
		.loads = loads, .stores = stores,
	};
	return 0;
}

static int on_sample(void *ctx, const struct slt_sample *smp)
{
	struct collect *c = ctx;
	if (!smp->type_name || strcmp(eng_strip_tag(smp->type_name), c->name) ||
	    !(smp->flags & (SLT_SAMPLE_TYPE | SLT_SAMPLE_MEMBER)) ||
	    (!smp->loads && !smp->stores))
		return 0;
	long m = -1;
	uint64_t off;
	if (smp->flags & SLT_SAMPLE_TYPE) {
		off = smp->type_offset;
		m = off < c->s->size ? innermost(c->s, off) : -1;
	} else {
		off = 0;
		m = smp->member ? path_at(c->s, smp->member, &off) : -1;
		if (m >= 0)
			m = innermost(c->s, off);
	}
	c->p->samples += smp->loads + smp->stores;
	if (m < 0) {
		c->p->unplaced += smp->loads + smp->stores;
		return 0;
	}
	const struct slt_member *mb = &c->s->members[m];
	uint64_t end = mb->offset + mb->size;
	uint64_t w = smp->access_size ? smp->access_size : (mb->size < 8 ? mb->size : 8);
	if (off + w > end)
		w = end - off;
	int32_t cpu = (smp->flags & SLT_SAMPLE_CPU) ? smp->cpu : -1;
	for (uint64_t o = off; o < off + w; o += 8) {
		uint64_t piece = off + w - o < 8 ? off + w - o : 8;
		int rc = add_rec(c, (size_t)m, o - mb->offset, (uint32_t)piece, cpu,
				 smp->loads, smp->stores);
		if (rc)
			return rc;
	}
	return 0;
}

/* Finish a collection that ended with rc: on success the distinct CPUs
 * of c->p, in order of the lowest offset each touched
 * (then number), so CPUs map to threads in order of first appearance in
 * offset order, and *out; on failure c->p freed. */
static int finish(struct collect *c, int rc, struct slt_engine_pattern **out,
		  struct slt_error *err)
{
	const struct slt_struct *s = c->s;
	if (!rc && !(c->p->cpus = calloc(c->p->n + 1, sizeof(*c->p->cpus))))
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	for (size_t i = 0; !rc && i < c->p->n; i++) {
		int32_t cpu = c->p->recs[i].cpu;
		bool seen = cpu < 0;
		for (size_t k = 0; k < c->p->n_cpus && !seen; k++)
			seen = c->p->cpus[k] == cpu;
		if (!seen)
			c->p->cpus[c->p->n_cpus++] = cpu;
	}
	int64_t *first = !rc ? calloc(c->p->n_cpus + 1, sizeof(*first)) : NULL;
	if (!rc && !first)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	for (size_t k = 0; !rc && k < c->p->n_cpus; k++) {
		first[k] = INT64_MAX;
		for (size_t i = 0; i < c->p->n; i++) {
			int64_t a = (int64_t)(s->members[c->mem[i]].offset + c->p->recs[i].at);
			if (c->p->recs[i].cpu == c->p->cpus[k] && a < first[k])
				first[k] = a;
		}
	}
	for (size_t k = 1; !rc && k < c->p->n_cpus; k++)   /* insertion sort */
		for (size_t j = k; j > 0 && (first[j] < first[j - 1] ||
		     (first[j] == first[j - 1] && c->p->cpus[j] < c->p->cpus[j - 1])); j--) {
			int64_t f = first[j];
			int32_t u = c->p->cpus[j];
			first[j] = first[j - 1];
			c->p->cpus[j] = c->p->cpus[j - 1];
			first[j - 1] = f;
			c->p->cpus[j - 1] = u;
		}
	free(first);
	free(c->mem);
	if (rc) {
		slt_engine_pattern_free(c->p);
		return rc;
	}
	*out = c->p;
	return 0;
}

int slt_engine_pattern_read(const char *path, int fmt, const struct slt_struct *s,
			    struct slt_engine_pattern **out, struct slt_error *err)
{
	*out = NULL;
	struct collect c = { .s = s, .name = eng_strip_tag(s->name) };
	if (!(c.p = calloc(1, sizeof(*c.p))))
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	int rc = slt_samples_read(path, (enum slt_samples_format)fmt, on_sample, &c, NULL, err);
	if (rc > 0 || c.nomem)
		rc = slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
	if (!rc && !c.p->n)
		rc = slt_error_set(err, SLT_EUSAGE, path, -1,
				   "give a profile whose records name the struct with an offset (type_offset) or member",
				   "no access of struct %s at a member's offset in the profile: no pattern to replay",
				   c.name);
	return finish(&c, rc, out, err);
}

int slt_engine_pattern_from_profile(const struct slt_access_profile *ap,
				    const struct slt_struct *s,
				    struct slt_engine_pattern **out,
				    struct slt_error *err)
{
	*out = NULL;
	struct collect c = { .s = s, .name = eng_strip_tag(s->name) };
	if (!(c.p = calloc(1, sizeof(*c.p))))
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	c.p->line_granular = true;
	unsigned cl = ap->cacheline_size ? ap->cacheline_size : 64;
	int rc = 0;
	for (size_t i = 0; !rc && i < ap->n_cells; i++) {
		const struct slt_line_access *la = &ap->cells[i];
		if (la->member >= s->n_members)
			continue;
		const struct slt_member *mb = &s->members[la->member];
		/* the member's first byte on that line */
		uint64_t start = la->line * cl, off = ap->line_origin;
		off = start > off ? start - off : 0;
		if (off < mb->offset)
			off = mb->offset;
		if (off >= mb->offset + mb->size || !mb->name[0])
			continue;
		uint64_t w = mb->offset + mb->size - off;
		w = w < 8 ? w : 8;
		c.p->samples += la->loads + la->stores;
		if (!la->n_cpus)
			rc = add_rec(&c, la->member, off - mb->offset, (uint32_t)w, -1, la->loads, la->stores);
		for (size_t k = 0; !rc && k < la->n_cpus; k++)
			rc = add_rec(&c, la->member, off - mb->offset, (uint32_t)w, la->cpus[k].cpu,
				     la->cpus[k].loads, la->cpus[k].stores);
	}
	if (rc)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc && !c.p->n)
		rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, "give a profile with accesses of the struct",
				   "no access of struct %s in the profile: no pattern to replay", c.name);
	return finish(&c, rc, out, err);
}

/* The updater a record's CPU maps to: group k + 1 for the k-th CPU of
 * p->cpus (writer groups map to threads modulo the thread count); 0
 * (none) for an unknown CPU. */
static unsigned cpu_group(const struct slt_engine_pattern *p, int32_t cpu)
{
	for (size_t k = 0; cpu >= 0 && k < p->n_cpus; k++)
		if (p->cpus[k] == cpu)
			return (unsigned)k + 1;
	return 0;
}

static bool is_ptr(enum slt_engine_role r)
{
	return r == SLT_ROLE_BACK_PTR || r == SLT_ROLE_PERCPU_PTR;
}

/* Whether record r (in layout s) touches a byte of a pointer role of
 * spec: the engine must not store over its pointers. */
static bool hits_pointer(const struct slt_engine_spec *spec, const struct slt_struct *s,
			 const struct slt_engine_access_rec *r)
{
	uint64_t a, q;
	if (path_at(s, r->member, &a) < 0)
		return false;
	a += r->at;
	uint64_t e = a + r->width;
	for (size_t k = 0; k < spec->n_roles; k++)
		if (is_ptr(spec->roles[k].role) && path_at(s, spec->roles[k].member, &q) >= 0 &&
		    a < q + sizeof(void *) && q < e)
			return true;
	return false;
}

int slt_engine_spec_apply_pattern(struct slt_engine_spec *spec,
				  const struct slt_engine_pattern *p,
				  const struct slt_struct *s,
				  struct slt_error *err)
{
	bool stats = spec->mode == SLT_ENGINE_STATS;
	size_t keep = 0, cap = spec->n_roles + 2 * p->n + 1;
	struct slt_engine_role_spec *roles = calloc(cap, sizeof(*roles));
	if (!roles)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	/* stats: the update path's own roles stay, its invented hot-write
	 * stores go; replay: the pattern is the whole workload */
	for (size_t k = 0; k < spec->n_roles; k++) {
		if (stats && spec->roles[k].role != SLT_ROLE_HOT_WRITE)
			roles[keep++] = spec->roles[k];
		else
			free((char *)spec->roles[k].member);
	}
	free(spec->roles);
	spec->roles = roles;
	spec->n_roles = keep;
	for (size_t i = 0; i < p->n; i++) {
		const struct slt_engine_access_rec *r = &p->recs[i];
		for (int kind = 0; kind < 2; kind++) {
			uint64_t n = kind ? r->stores : r->loads;
			if (!n || (stats && (!kind || hits_pointer(spec, s, r))))
				continue;   /* stats: the measured stores only */
			char *m = strdup(r->member);
			if (!m)
				return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
			spec->roles[spec->n_roles++] = (struct slt_engine_role_spec){
				.member = m, .role = kind ? SLT_ROLE_HOT_WRITE : SLT_ROLE_READ,
				.loads = kind ? 0 : n, .stores = kind ? n : 0,
				.writer = cpu_group(p, r->cpu), .at = r->at, .width = r->width,
			};
		}
	}
	spec->pattern = true;
	return 0;
}
