/* SPDX-License-Identifier: MIT */
/*
 * Binding a spec's roles to a layout: member name -> offset and size in
 * bytes, with the checks that keep the engine's stores away from its
 * pointers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strdist.h"
#include "engine/engine_int.h"
#include "join/join_int.h"

void slt_engine_bound_free(struct slt_engine_bound *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_roles; i++)
		free((char *)b->roles[i].member);
	free(b->roles);
	free(b->struct_name);
	free(b);
}

/* Index of the named member of s, -1 when none; the closest names go to
 * hint. */
static long find_member(const struct slt_struct *s, const char *want,
			char *hint, size_t hint_size)
{
	char path[1024];
	struct slt_suggest sg;
	slt_suggest_init(&sg, want, 3);
	for (size_t i = 0; i < s->n_members; i++) {
		if (!s->members[i].name[0])
			continue;
		slt_member_path(s, i, path, sizeof(path));
		if (!strcmp(path, want)) {
			slt_suggest_release(&sg);
			return (long)i;
		}
		if (slt_suggest_could(&sg, strlen(path)))
			(void)slt_suggest_add(&sg, path);
	}
	char **names = NULL;
	size_t n = slt_suggest_take(&sg, &names);
	size_t h = 0;
	hint[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (h < hint_size) {
			int w = snprintf(hint + h, hint_size - h, "%s%s", i ? "" : "did you mean ", names[i]);
			if (w > 0)
				h += (size_t)w;
			if (i + 1 < n && h < hint_size)
				h += (size_t)snprintf(hint + h, hint_size - h, " or ");
		}
		free(names[i]);
	}
	free(names);
	slt_suggest_release(&sg);
	return -1;
}

static bool is_ptr_role(enum slt_engine_role r)
{
	return r == SLT_ROLE_BACK_PTR || r == SLT_ROLE_PERCPU_PTR;
}

int slt_engine_bind(const struct slt_engine_spec *spec,
		    const struct slt_struct *s, unsigned cacheline_size,
		    struct slt_engine_bound **out, struct slt_error *err)
{
	*out = NULL;
	unsigned cl = cacheline_size ? cacheline_size : SLT_CACHELINE_DEFAULT;
	if (cl < 8 || (cl & (cl - 1)))
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, "use 64 or 128",
				     "cacheline size %u is not a power of two >= 8", cl);
	if (spec->mode != SLT_ENGINE_STATS && spec->mode != SLT_ENGINE_REPLAY)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL, "engine spec has no mode");
	struct slt_engine_bound *b = calloc(1, sizeof(*b));
	if (!b || !(b->roles = calloc(spec->n_roles + 1, sizeof(*b->roles))) ||
	    !(b->struct_name = strdup(s->name))) {
		slt_engine_bound_free(b);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	b->s = s;
	b->mode = spec->mode;
	b->pattern = spec->pattern;
	b->tree_via_pcpu = spec->tree_via_pcpu && spec->mode == SLT_ENGINE_STATS;
	b->cacheline_size = cl;
	b->object_size = s->size;
	int rc = 0;
	bool have_pcpu = false;
	for (size_t i = 0; i < spec->n_roles && !rc; i++) {
		const struct slt_engine_role_spec *rs = &spec->roles[i];
		char hint[512];
		if (!rs->member || !rs->member[0] || strchr(rs->member, '[')) {
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, "name a member by its name or path a.b, without array indices",
					   "role %s: bad member name '%s'", slt_engine_role_name(rs->role),
					   rs->member ? rs->member : "");
			break;
		}
		long m = find_member(s, rs->member, hint, sizeof(hint));
		if (m < 0) {
			if (rs->optional)
				continue;
			if (spec->mode == SLT_ENGINE_STATS) {
				/* only the built-in maps are STATS specs */
				size_t h = strlen(hint);
				snprintf(hint + h, sizeof(hint) - h, "%sthe built-in role maps cover Linux 6.1 to 6.12; "
					 "for another kernel's layout give --classes or --samples with --replay",
					 h ? "; " : "");
			}
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, hint[0] ? hint : NULL,
					   "struct %s has no member %s (needed for the %s role)",
					   s->name, rs->member, slt_engine_role_name(rs->role));
			break;
		}
		const struct slt_member *mb = &s->members[m];
		uint64_t size = mb->size;
		if (rs->width && (rs->width > 8 || rs->at + rs->width > size)) {
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, "a measured access lies inside its member",
					   "member %s of %s is %llu byte%s: no room for a %u-byte access at +%llu",
					   rs->member, s->name, (unsigned long long)size, size == 1 ? "" : "s",
					   rs->width, (unsigned long long)rs->at);
			break;
		}
		if (size == 0 || mb->offset + size > s->size) {
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, "a role needs a member with storage inside the struct",
					   "member %s of %s (offset %llu, %llu byte%s) does not fit a %llu-byte layout: the layout is too small for its %s role",
					   rs->member, s->name, (unsigned long long)mb->offset,
					   (unsigned long long)size, size == 1 ? "" : "s", (unsigned long long)s->size,
					   slt_engine_role_name(rs->role));
			break;
		}
		if (is_ptr_role(rs->role) &&
		    (size < sizeof(void *) || mb->offset % sizeof(void *))) {
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, "a pointer role needs an aligned pointer-sized member",
					   "member %s of %s is %llu byte%s at offset %llu: too small or misaligned for the %s role (needs %zu bytes at a multiple of %zu)",
					   rs->member, s->name, (unsigned long long)size, size == 1 ? "" : "s",
					   (unsigned long long)mb->offset, slt_engine_role_name(rs->role),
					   sizeof(void *), sizeof(void *));
			break;
		}
		struct slt_engine_bound_role *br = &b->roles[b->n_roles];
		if (!(br->member = strdup(rs->member))) {
			rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
			break;
		}
		b->n_roles++;
		br->member_index = (size_t)m;
		br->role = rs->role;
		br->offset = mb->offset + (rs->width ? rs->at : 0);
		br->size = is_ptr_role(rs->role) ? sizeof(void *) : rs->width ? rs->width : size;
		br->width = rs->width;
		br->loads = rs->loads ? rs->loads : 1;
		br->stores = rs->stores ? rs->stores : 1;
		br->writer = rs->writer;
		br->first_line = br->offset / cl;
		br->last_line = (br->offset + br->size - 1) / cl;
		have_pcpu |= rs->role == SLT_ROLE_PERCPU_PTR;
		if (spec->mode == SLT_ENGINE_REPLAY && rs->role != SLT_ROLE_READ &&
		    rs->role != SLT_ROLE_HOT_WRITE)
			rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL,
					   "replay: member %s has role %s; replay takes read and hot-write roles only",
					   rs->member, slt_engine_role_name(rs->role));
	}
	/* pointers must not share bytes with any other role */
	for (size_t i = 0; !rc && i < b->n_roles; i++)
		for (size_t j = 0; !rc && j < b->n_roles; j++) {
			const struct slt_engine_bound_role *p = &b->roles[i], *q = &b->roles[j];
			if (i == j || !is_ptr_role(p->role))
				continue;
			if (p->offset < q->offset + q->size && q->offset < p->offset + p->size)
				rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, "give each role its own member",
						   "members %s (%s) and %s (%s) of %s overlap: the engine would overwrite the pointer",
						   p->member, slt_engine_role_name(p->role), q->member,
						   slt_engine_role_name(q->role), s->name);
		}
	if (!rc && spec->mode == SLT_ENGINE_STATS && !have_pcpu)
		rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, "bind a pointer-sized member to the percpu-pointer role",
				   "struct %s: the stats engine needs a percpu-pointer role", s->name);
	if (!rc && !b->n_roles)
		rc = slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL, "struct %s: no role to run", s->name);
	if (rc) {
		slt_engine_bound_free(b);
		return rc;
	}
	*out = b;
	return 0;
}

static const struct slt_engine_bound_role *role_named(const struct slt_engine_bound *b,
						      const char *member)
{
	for (size_t k = 0; k < b->n_roles; k++)
		if (!strcmp(b->roles[k].member, member))
			return &b->roles[k];
	return NULL;
}

/* Append "; " (when not first) and the formatted text, keeping buf
 * NUL-terminated and marking truncation with "...". */
static void append(char *buf, size_t size, size_t *len, const char *what)
{
	if (!size || *len >= size)
		return;
	int w = snprintf(buf + *len, size - *len, "%s%s", *len ? "; " : "", what);
	if (w < 0)
		return;
	if ((size_t)w >= size - *len) {
		*len = size - 1;
		if (size >= 4)
			memcpy(buf + size - 4, "...", 4);
		return;
	}
	*len += (size_t)w;
}

/* One side's description of a role ("flush-write, 688 bytes" or
 * "not bound"). */
static void side_text(char *out, size_t n, const struct slt_engine_bound_role *r)
{
	if (r)
		snprintf(out, n, "%s, %llu byte%s", slt_engine_role_name(r->role),
			 (unsigned long long)r->size, r->size == 1 ? "" : "s");
	else
		snprintf(out, n, "not bound");
}

size_t slt_engine_bound_diff(const struct slt_engine_bound *a,
			     const struct slt_engine_bound *b, char *buf,
			     size_t size)
{
	size_t len = 0, n = 0;
	char item[600], ta[160], tb[160];
	if (size)
		buf[0] = 0;
	if (a->mode != b->mode) {
		snprintf(item, sizeof(item), "mode: %s in A, %s in B",
			 a->mode == SLT_ENGINE_STATS ? "stats" : "replay",
			 b->mode == SLT_ENGINE_STATS ? "stats" : "replay");
		append(buf, size, &len, item);
		n++;
	}
	for (int side = 0; side < 2; side++) {
		const struct slt_engine_bound *x = side ? b : a, *y = side ? a : b;
		for (size_t k = 0; k < x->n_roles; k++) {
			const struct slt_engine_bound_role *rx = &x->roles[k];
			const struct slt_engine_bound_role *ry = role_named(y, rx->member);
			if (side && ry)
				continue;   /* compared from A's side */
			if (ry && ry->role == rx->role && ry->size == rx->size)
				continue;
			side_text(ta, sizeof(ta), side ? ry : rx);
			side_text(tb, sizeof(tb), side ? rx : ry);
			snprintf(item, sizeof(item), "%s: %s in A, %s in B", rx->member, ta, tb);
			append(buf, size, &len, item);
			n++;
		}
	}
	return n;
}
