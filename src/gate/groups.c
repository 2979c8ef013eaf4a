/* SPDX-License-Identifier: MIT */
/*
 * structlint — the kernel's cacheline groups: members between
 * __cacheline_group_begin__NAME and __cacheline_group_end__NAME
 * (include/linux/cache.h, Linux 6.8+), checked as the kernel's
 * CACHELINE_ASSERT_GROUP_MEMBER / CACHELINE_ASSERT_GROUP_SIZE asserts
 * would check them, plus sharing between read-mostly and written groups
 * (include/structlint/rules.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate_int.h"
#include "join/join_int.h"
#include "structlint/rules.h"

#define BEGIN_PFX "__cacheline_group_begin__"
#define END_PFX "__cacheline_group_end__"

/* Does the '_'-separated name hold the word w? */
static int has_word(const char *name, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = name; (p = strstr(p, w)); p++)
		if ((p == name || p[-1] == '_') && (p[n] == 0 || p[n] == '_'))
			return 1;
	return 0;
}

enum slt_group_class slt_group_class_of(const char *name)
{
	if (has_word(name, "write") || has_word(name, "rw"))
		return SLT_GROUP_WRITTEN;
	if (strstr(name, "read_mostly") || has_word(name, "read") || has_word(name, "ro"))
		return SLT_GROUP_READ_MOSTLY;
	return SLT_GROUP_UNKNOWN;
}

const char *slt_group_class_name(enum slt_group_class c)
{
	switch (c) {
	case SLT_GROUP_READ_MOSTLY: return "read-mostly";
	case SLT_GROUP_WRITTEN: return "written";
	default: return "unclassified";
	}
}

static struct slt_violation base_v(const struct slt_struct *s, const char *rule,
				   enum slt_severity sev)
{
	return (struct slt_violation){
		.rule = rule, .severity = sev, .struct_name = s->name,
		.decl_file = s->decl_file, .decl_line = s->decl_line,
		.offset = SLT_NO_OFFSET, .source = "kernel markers",
	};
}

int slt_groups_find(const struct slt_struct *s, struct slt_cl_group **out,
		    size_t *n, struct slt_gate_result *r)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	struct slt_cl_group *v = NULL;
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		if (!(m->flags & SLT_MEMBER_GROUP_BEGIN) && !(m->flags & SLT_MEMBER_GROUP_END))
			continue;
		int begin = !strncmp(m->name, BEGIN_PFX, strlen(BEGIN_PFX));
		const char *gname = m->name + strlen(begin ? BEGIN_PFX : END_PFX);
		size_t j = i + 1;
		if (begin) {
			for (; j < s->n_members; j++)
				if ((s->members[j].flags & SLT_MEMBER_GROUP_END) &&
				    s->members[j].parent == m->parent &&
				    !strcmp(s->members[j].name + strlen(END_PFX), gname))
					break;
		} else {
			/* an end: fine when a begin of its name precedes it */
			size_t k = 0;
			for (; k < *n; k++)
				if (v[k].end == i)
					break;
			if (k < *n)
				continue;
		}
		if (!begin || j == s->n_members) {
			if (!r)
				continue;
			char msg[300];
			snprintf(msg, sizeof(msg), "%s marker of cacheline group %s at offset %" PRIu64
				 " has no matching %s marker after it",
				 begin ? "begin" : "end", gname, m->offset, begin ? "end" : "begin");
			if (!begin)
				snprintf(msg, sizeof(msg), "end marker of cacheline group %s at offset %" PRIu64
					 " has no begin marker before it", gname, m->offset);
			struct slt_violation x = base_v(s, "cacheline-group-markers", SLT_SEV_ERROR);
			x.member = m->name;
			x.message = msg;
			x.offset = m->offset;
			if (slt_gate_add(r, &x)) {
				free(v);
				return SLT_ENOMEM;
			}
			continue;
		}
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			struct slt_cl_group *nv = realloc(v, cap * sizeof(*nv));
			if (!nv) {
				free(v);
				return SLT_ENOMEM;
			}
			v = nv;
		}
		v[(*n)++] = (struct slt_cl_group){
			.name = gname, .begin = i, .end = j, .offset = m->offset,
			.end_offset = s->members[j].offset, .cls = slt_group_class_of(gname),
		};
	}
	*out = v;
	return 0;
}

int slt_group_has(const struct slt_struct *s, const struct slt_cl_group *g, size_t i)
{
	if (i <= g->begin || i >= g->end)
		return 0;
	/* members of nested inline composites belong to the group too */
	long k = (long)i;
	while (k >= 0 && s->members[k].parent != s->members[g->begin].parent)
		k = s->members[k].parent;
	return k > (long)g->begin && k < (long)g->end;
}

size_t slt_groups_touched(const struct slt_struct *s, const struct slt_cl_group *g,
			  size_t n, const size_t *members, size_t nm, size_t *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < nm; j++)
			if (slt_group_has(s, &g[i], members[j])) {
				out[k++] = i;
				break;
			}
	return k;
}

int slt_groups_classes(const struct slt_struct *s, enum slt_class *cls)
{
	struct slt_cl_group *g;
	size_t n;
	int given = 0;
	if (slt_groups_find(s, &g, &n, NULL))
		return SLT_ENOMEM;
	for (size_t i = 0; i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		if (cls[i] != SLT_CLASS_NONE || !m->name[0] ||
		    (m->flags & (SLT_MEMBER_GROUP_BEGIN | SLT_MEMBER_GROUP_END)))
			continue;
		for (size_t k = 0; k < n; k++) {
			if (g[k].cls == SLT_GROUP_UNKNOWN || !slt_group_has(s, &g[k], i))
				continue;
			cls[i] = g[k].cls == SLT_GROUP_WRITTEN ? SLT_CLASS_HOT_WRITE
							       : SLT_CLASS_READ_MOSTLY;
			given++;
			break;
		}
	}
	free(g);
	return given;
}

/* Lines [*first, *last] the group's bytes occupy; 0 when it has none. */
static int group_lines(const struct slt_cl_group *g, unsigned cl, uint64_t *first, uint64_t *last)
{
	if (g->end_offset <= g->offset)
		return 0;
	*first = g->offset / cl;
	*last = (g->end_offset - 1) / cl;
	return 1;
}

static int sharing(const struct slt_struct *s, const struct slt_cl_group *g, size_t n,
		   unsigned cl, struct slt_gate_result *r)
{
	for (size_t a = 0; a < n; a++) {
		uint64_t af, al, bf, bl;
		if (g[a].cls != SLT_GROUP_READ_MOSTLY || !group_lines(&g[a], cl, &af, &al))
			continue;
		for (size_t b = 0; b < n; b++) {
			if (g[b].cls != SLT_GROUP_WRITTEN || !group_lines(&g[b], cl, &bf, &bl))
				continue;
			r->n_checks++;
			if (al < bf || bl < af)
				continue;
			uint64_t line = af > bf ? af : bf;
			char msg[400];
			snprintf(msg, sizeof(msg),
				 "read-mostly cacheline group %s (bytes %" PRIu64 "..%" PRIu64
				 ") shares cacheline %" PRIu64 " with written group %s (bytes %" PRIu64
				 "..%" PRIu64 ")", g[a].name, g[a].offset, g[a].end_offset, line,
				 g[b].name, g[b].offset, g[b].end_offset);
			struct slt_violation x = base_v(s, "cacheline-group-sharing", SLT_SEV_ERROR);
			x.member = s->members[g[a].begin].name;
			x.message = msg;
			x.offset = g[a].offset;
			if (slt_gate_add(r, &x))
				return SLT_ENOMEM;
		}
	}
	return 0;
}

/* A member of the other kind (written for a read-mostly i, read-mostly
 * for a written i) sharing a cacheline with member i, or -1. */
static long shares_opposite(const struct slt_struct *s, const enum slt_class *cls, size_t i,
			    unsigned cl)
{
	const struct slt_member *m = &s->members[i];
	uint64_t f, l;
	if (!m->size || (m->flags & SLT_MEMBER_ZERO_SIZE))
		return -1;
	slt_member_lines(m, cl, &f, &l);
	bool rm = cls[i] == SLT_CLASS_READ_MOSTLY;
	for (size_t k = 0; k < s->n_members; k++) {
		const struct slt_member *o = &s->members[k];
		uint64_t of, ol;
		if (!(rm ? slt_gate_written(cls[k]) : cls[k] == SLT_CLASS_READ_MOSTLY) || !o->size ||
		    (o->flags & SLT_MEMBER_ZERO_SIZE) || slt_gate_related(s, i, k))
			continue;
		slt_member_lines(o, cl, &of, &ol);
		if (of <= l && f <= ol)
			return (long)k;
	}
	return -1;
}

/* CACHELINE_ASSERT_GROUP_MEMBER by class: the class of a member says which
 * kind of group the kernel would have listed it in.  A member inside a
 * group of the other kind is an error; one outside every group of its
 * kind is an error when it shares a cacheline with a member of the other
 * kind (read-mostly beside written), else a warning (the kernel would
 * list it in a group, but nothing shares its lines now). */
static int members_by_class(const struct slt_struct *s, const struct slt_cl_group *g,
			    size_t n, const enum slt_class *cls, unsigned cl,
			    struct slt_gate_result *r)
{
	int have[3] = { 0 };
	for (size_t k = 0; k < n; k++)
		have[g[k].cls] = 1;
	for (size_t i = 0; i < s->n_members; i++) {
		enum slt_group_class want;
		if (cls[i] == SLT_CLASS_READ_MOSTLY)
			want = SLT_GROUP_READ_MOSTLY;
		else if (cls[i] == SLT_CLASS_HOT_WRITE || cls[i] == SLT_CLASS_MIXED)
			want = SLT_GROUP_WRITTEN;
		else
			continue;
		const struct slt_member *m = &s->members[i];
		if (!m->name[0] || (m->flags & (SLT_MEMBER_GROUP_BEGIN | SLT_MEMBER_GROUP_END)))
			continue;
		/* a class given to a composite covers its members: check it once */
		if (m->parent >= 0 && cls[m->parent] == cls[i])
			continue;
		const struct slt_cl_group *in = NULL;
		for (size_t k = 0; k < n && !in; k++)
			if (slt_group_has(s, &g[k], i))
				in = &g[k];
		r->n_checks++;
		char msg[400], path[256];
		slt_member_path(s, i, path, sizeof(path));
		if (in && (in->cls == want || in->cls == SLT_GROUP_UNKNOWN))
			continue;
		if (!in && !have[want])
			continue;
		long near = in ? -1 : shares_opposite(s, cls, i, cl);
		char other[256] = "";
		if (near >= 0)
			slt_member_path(s, (size_t)near, other, sizeof(other));
		if (in)
			snprintf(msg, sizeof(msg), "%s member %s (offset %" PRIu64 ", %" PRIu64
				 " byte%s) is in %s cacheline group %s", slt_class_name(cls[i]), path,
				 m->offset, m->size, m->size == 1 ? "" : "s",
				 slt_group_class_name(in->cls), in->name);
		else if (near >= 0)
			snprintf(msg, sizeof(msg), "%s member %s (offset %" PRIu64 ", %" PRIu64
				 " byte%s) is outside every %s cacheline group and shares a cacheline "
				 "with %s %s (offset %" PRIu64 ")", slt_class_name(cls[i]), path,
				 m->offset, m->size, m->size == 1 ? "" : "s",
				 slt_group_class_name(want), slt_class_name(cls[near]), other,
				 s->members[near].offset);
		else
			snprintf(msg, sizeof(msg), "%s member %s (offset %" PRIu64 ", %" PRIu64
				 " byte%s) is outside every %s cacheline group; no %s member shares "
				 "its cachelines", slt_class_name(cls[i]), path, m->offset, m->size,
				 m->size == 1 ? "" : "s", slt_group_class_name(want),
				 want == SLT_GROUP_READ_MOSTLY ? "written" : "read-mostly");
		struct slt_violation x = base_v(s, "cacheline-group-member",
						in || near >= 0 ? SLT_SEV_ERROR : SLT_SEV_WARNING);
		x.member = path;
		x.message = msg;
		x.offset = m->offset;
		if (slt_gate_add(r, &x))
			return SLT_ENOMEM;
	}
	return 0;
}

int slt_groups_check(const struct slt_struct *s, const struct slt_check_opts *o,
		     struct slt_gate_result *r, struct slt_error *err)
{
	unsigned cl = o && o->cacheline_size ? o->cacheline_size : SLT_CACHELINE_DEFAULT;
	struct slt_cl_group *g;
	size_t n;
	int rc = slt_groups_find(s, &g, &n, r);
	for (size_t k = 0; !rc && k < n; k++) {
		uint64_t f, l;
		char msg[300];
		if (group_lines(&g[k], cl, &f, &l))
			snprintf(msg, sizeof(msg), "cacheline group %s: bytes %" PRIu64 "..%" PRIu64
				 " (%" PRIu64 " byte%s), cachelines %" PRIu64 "..%" PRIu64
				 " (%" PRIu64 "), %s", g[k].name, g[k].offset, g[k].end_offset,
				 g[k].end_offset - g[k].offset,
				 g[k].end_offset - g[k].offset == 1 ? "" : "s", f, l, l - f + 1,
				 slt_group_class_name(g[k].cls));
		else
			snprintf(msg, sizeof(msg), "cacheline group %s: empty at offset %" PRIu64 ", %s",
				 g[k].name, g[k].offset, slt_group_class_name(g[k].cls));
		struct slt_violation x = base_v(s, "cacheline-group", SLT_SEV_NOTE);
		x.member = s->members[g[k].begin].name;
		x.message = msg;
		x.offset = g[k].offset;
		rc = slt_gate_add(r, &x);
	}
	if (!rc)
		rc = sharing(s, g, n, cl, r);
	if (!rc && n && o && o->classes)
		rc = members_by_class(s, g, n, o->classes, cl, r);
	free(g);
	if (rc)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	return 0;
}
