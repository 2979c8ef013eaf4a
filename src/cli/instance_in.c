/* SPDX-License-Identifier: MIT */
/*
 * suggest --in CONTAINER.MEMBER (issue 13 item 4): where the analysed
 * struct's instance lives.  CONTAINER is loaded from the same FILE with
 * nested members inline, MEMBER (a dotted path) must be a member of the
 * analysed struct's type, and its offset in CONTAINER becomes the
 * advisor's base_offset: the instance starts that far past a base that is
 * line-aligned, or a multiple of --base-align.  Each proposal's growth
 * (or shrinking) is priced on the container too: its size, lines and
 * slab cost before and after.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "structlint/advice.h"
#include "join/join_int.h"
#include "structlint/layout.h"

int cli_base_align_option(const char *arg, unsigned *out)
{
	unsigned long v;
	if (!cli_parse_uint(arg, 1, 4096, &v) || (v & (v - 1)))
		return cli_usage_error("--base-align '%s': want a power of two from 1 to 4096 (the alignment the instance's base is known to have)", arg);
	*out = (unsigned)v;
	return 0;
}

/* CONTAINER of spec (CONTAINER.MEMBER) loaded from file with nested
 * members inline into *l; *member gets MEMBER's path (in spec), *mi its
 * index in the container (n_members: none).  0, a usage error, or the
 * load's error. */
static int load_container(const char *file, const struct slt_load_opts *lo,
			  const char *spec, struct slt_layout **l,
			  const char **member, size_t *mi, struct slt_error *err)
{
	char path[512];
	char cname[256];
	const char *dot = strchr(spec, '.');
	struct slt_load_opts o = *lo;
	const char *ops[1] = { cname };

	if (!dot || dot == spec || !dot[1] || (size_t)(dot - spec) >= sizeof(cname))
		return cli_usage_error("--in '%s': want CONTAINER.MEMBER, e.g. inode.i_data", spec);
	snprintf(cname, sizeof(cname), "%.*s", (int)(dot - spec), spec);
	o.expand = true;
	*member = dot + 1;
	int rc = slt_layout_load(file, ops, 1, &o, l, err);
	if (rc)
		return rc;
	const struct slt_struct *c = &(*l)->structs[0];
	*mi = c->n_members;
	for (size_t i = 0; i < c->n_members && *mi == c->n_members; i++)
		if (!strcmp(slt_member_path(c, i, path, sizeof(path)), *member))
			*mi = i;
	return 0;
}

int cli_instance_offset(const char *file, const struct slt_load_opts *lo,
			const char *spec, const struct slt_struct *s,
			uint64_t *off, struct slt_error *err)
{
	const char *mpath;
	struct slt_layout *l = NULL;
	size_t i;
	int rc = load_container(file, lo, spec, &l, &mpath, &i, err);

	if (rc)
		return rc;
	const struct slt_struct *c = &l->structs[0];
	rc = -1;
	if (i < c->n_members) {
		const struct slt_member *m = &c->members[i];
		const char *t = m->type;
		if (!strncmp(t, "struct ", 7))
			t += 7;
		if (strcmp(t, s->name) || m->size != s->size) {
			rc = cli_usage_error("--in %s: that member is a %s of %" PRIu64
					     " bytes, not struct %s (%" PRIu64 " bytes)",
					     spec, m->type, m->size, s->name, s->size);
		} else {
			*off = m->offset;
			rc = 0;
		}
	}
	if (rc < 0)
		rc = cli_usage_error("--in %s: struct %s has no member %s", spec, c->name, mpath);
	slt_layout_free(l);
	return rc;
}

static uint64_t up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

/* Size of container c once its member mi is delta bytes larger: at each
 * level from mi's outwards, the members after the grown one placed again
 * as C places them (the first multiple of their alignment after the
 * previous end; a bitfield's storage moved by the displacement rounded to
 * its type's alignment), the level's end rounded to its alignment, which
 * grows the enclosing member; a union level is as large as its largest
 * member. */
static uint64_t grown_size(const struct slt_struct *c, size_t mi, int64_t delta)
{
	size_t k = mi;
	uint64_t ksize = (uint64_t)((int64_t)c->members[mi].size + delta);

	for (;;) {
		int32_t p = c->members[k].parent;
		const struct slt_member *pm = p >= 0 ? &c->members[p] : NULL;
		bool uni = pm ? (pm->flags & SLT_MEMBER_UNION) != 0 : c->kind == SLT_KIND_UNION;
		uint64_t start = pm ? pm->offset : 0, end;
		uint32_t la = pm ? (pm->natural_alignment ? pm->natural_alignment : 1) : c->alignment;

		end = uni ? ksize : c->members[k].offset - start + ksize;
		int64_t shift = 0;
		for (size_t j = k + 1; j < c->n_members; j++) {
			const struct slt_member *m = &c->members[j];
			if (pm && m->depth <= pm->depth)
				break;
			if (m->parent != p)
				continue;
			uint64_t rel = m->offset - start, a = m->natural_alignment ? m->natural_alignment : 1;
			if (m->alignment > a)
				a = m->alignment;
			if (uni) {
				end = m->size > end ? m->size : end;
				continue;
			}
			uint64_t o = (m->flags & SLT_MEMBER_BITFIELD) ?
				     (uint64_t)((int64_t)rel + shift) : up(end, a);
			if (m->flags & SLT_MEMBER_BITFIELD) {
				end = o + m->size > end ? o + m->size : end;
				continue;
			}
			shift = (int64_t)o - (int64_t)rel;
			end = o + m->size;
		}
		if (uni) /* the union's other members: as large as before at least */
			end = end > (pm ? pm->size : c->size) ? end : (pm ? pm->size : c->size);
		end = up(end, la);
		if (!pm)
			return end;
		ksize = end;
		k = (size_t)p;
	}
}

int cli_container_cost(const char *file, const struct slt_load_opts *lo,
		       const char *spec, const struct slt_advice_opts *o,
		       struct slt_advice *adv, struct slt_error *err)
{
	const char *mpath;
	struct slt_layout *l = NULL;
	size_t mi;
	int rc = load_container(file, lo, spec, &l, &mpath, &mi, err);

	if (rc)
		return rc;
	const struct slt_struct *c = &l->structs[0];
	unsigned line = o->cacheline_size ? o->cacheline_size : SLT_CACHELINE_DEFAULT;
	for (size_t i = 0; mi < c->n_members && !rc && i < adv->n_proposals; i++) {
		struct slt_proposal *p = &adv->proposals[i];
		bool hw;
		p->container = spec;
		p->container_size_before = c->size;
		p->container_size_after = grown_size(c, mi, p->bytes_added);
		p->container_lines_before = slt_cachelines(c->size, line);
		p->container_lines_after = slt_cachelines(p->container_size_after, line);
		/* one cache model both sides: the container's as it is */
		uint32_t a = slt_slab_cache_align(c->size, c->alignment, line, o->base_align, &hw);
		rc = slt_slab_cost(c->size, a, o, &p->container_slab_before);
		if (!rc)
			rc = slt_slab_cost(p->container_size_after, a, o, &p->container_slab_after);
		p->container_slab_before.hwcache_align = p->container_slab_after.hwcache_align = hw;
	}
	slt_layout_free(l);
	if (rc)
		return slt_error_set(err, rc, NULL, -1, NULL, "out of memory");
	return 0;
}
