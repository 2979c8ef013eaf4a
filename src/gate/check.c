/* SPDX-License-Identifier: MIT */
/*
 * structlint — evaluation of a rules file's section on one struct
 * (include/structlint/rules.h).  Lines are cacheline indices from the
 * struct's start (the struct is taken to start on a line, as pahole
 * counts them).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strdist.h"
#include "join/join_int.h"
#include "structlint/rules.h"

/* A resolved group: member indices, borrowed or owned. */
struct gset {
	const char *name;
	size_t *idx;
	size_t n;
	const struct slt_cl_group *kernel;  /* a marker group, else NULL */
	bool by_class;                      /* a class:CLASS group */
};

struct ctx {
	const struct slt_rules_struct *rs;
	const char *path;
	const struct slt_struct *s;
	const struct slt_check_opts *o;
	unsigned cl;
	struct slt_gate_result *r;
	struct slt_error *err;
	struct slt_cl_group *kg;    /* the struct's marker groups */
	size_t n_kg;
	char source[600];
};

/* Member i as messages name it: its path, or for a nameless struct or
 * union (which has none) what it is and where. */
static const char *mpath(const struct ctx *c, size_t i, char *buf, size_t n)
{
	const struct slt_member *m = &c->s->members[i];
	if (m->name[0])
		return slt_member_path(c->s, i, buf, n);
	char in[256];   /* a nameless member's path is its named holder's */
	slt_member_path(c->s, i, in, sizeof(in));
	snprintf(buf, n, "(anonymous %s at offset %" PRIu64 "%s%s)",
		 (m->flags & SLT_MEMBER_UNION) ? "union" : "struct", m->offset,
		 in[0] ? " in " : "", in);
	return buf;
}

/* Member written as `name` (a path "a.b"), or -1. */
static long find_member(const struct ctx *c, const char *name)
{
	char have[512];
	for (size_t i = 0; i < c->s->n_members; i++)
		if (c->s->members[i].name[0] && !strcmp(mpath(c, i, have, sizeof(have)), name))
			return (long)i;
	return -1;
}

/* An unknown member or group: the closest name as a did-you-mean, else
 * none_hint when given, else where the names come from. */
static int unknown(struct ctx *c, unsigned line, unsigned col, const char *what,
		   const char *name, struct slt_suggest *sg, const char *none_hint)
{
	char **names = NULL, hint[400];
	size_t k = slt_suggest_take(sg, &names);
	if (k)
		snprintf(hint, sizeof(hint), "did you mean %s?", names[0]);
	else if (none_hint)
		snprintf(hint, sizeof(hint), "%s", none_hint);
	else
		snprintf(hint, sizeof(hint), "name a %s of struct %s as structlint layout prints it",
			 what, c->s->name);
	for (size_t i = 0; i < k; i++)
		free(names[i]);
	free(names);
	slt_suggest_release(sg);
	return slt_error_set_line(c->err, SLT_EUSAGE, c->path, line, hint,
				  "column %u: struct %s has no %s '%s'", col, c->s->name, what, name);
}

static long member_or_fail(struct ctx *c, const struct slt_rule_name *n, unsigned line, int *rc)
{
	long i = find_member(c, n->name);
	if (i >= 0)
		return i;
	struct slt_suggest sg;
	char have[512];
	slt_suggest_init(&sg, n->name, 1);
	for (size_t k = 0; k < c->s->n_members; k++) {
		if (!c->s->members[k].name[0])
			continue;
		mpath(c, k, have, sizeof(have));
		if (slt_suggest_could(&sg, strlen(have)) && slt_suggest_add(&sg, have)) {
			slt_suggest_release(&sg);
			*rc = slt_error_set(c->err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
			return -1;
		}
	}
	*rc = unknown(c, line, n->column, "member", n->name, &sg, NULL);
	return -1;
}

static int add(struct ctx *c, const struct slt_rule *ru, const char *member, uint64_t off,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int add(struct ctx *c, const struct slt_rule *ru, const char *member, uint64_t off,
	       const char *fmt, ...)
{
	char *msg;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
	return slt_error_set(c->err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	snprintf(c->source, sizeof(c->source), "%s:%u", c->path, ru->line);
	struct slt_violation v = {
		.rule = slt_rule_kind_name(ru->kind), .severity = SLT_SEV_ERROR,
		.struct_name = c->s->name, .member = member, .message = msg,
		.decl_file = c->s->decl_file, .decl_line = c->s->decl_line,
		.offset = off, .source = c->source,
	};
	int rc = slt_gate_add(c->r, &v);
	free(msg);
	if (rc)
		return slt_error_set(c->err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	return 0;
}

static bool written(enum slt_class k)
{
	return k == SLT_CLASS_HOT_WRITE || k == SLT_CLASS_MIXED || k == SLT_CLASS_TRUE_SHARED;
}

/* Member i counts for line checks: it has bytes and is not covered by a
 * listed ancestor (the set lists composites or their members, not both). */
static bool has_bytes(const struct slt_member *m)
{
	return m->size > 0 && !(m->flags & SLT_MEMBER_ZERO_SIZE);
}

/* Classes were given (o->classes) and at least one member has one: a
 * classes file that names none of s's members would make every class
 * check pass silently. */
static bool have_classes(const struct ctx *c)
{
	for (size_t i = 0; c->o->classes && i < c->s->n_members; i++)
		if (c->o->classes[i] != SLT_CLASS_NONE)
			return true;
	return false;
}

static int need_classes(struct ctx *c, const struct slt_rule *ru, unsigned col, const char *what)
{
	if (c->o->classes)
		return slt_error_set_line(c->err, SLT_EUSAGE, c->path, ru->line,
					  "name the struct's members in the classes file (STRUCT.MEMBER CLASS or a [STRUCT] section)",
					  "column %u: %s needs member classes: no class is given for any member of %s",
					  col, what, c->s->name);
	return slt_error_set_line(c->err, SLT_EUSAGE, c->path, ru->line,
				  "give --classes FILE or --samples FILE",
				  "column %u: %s needs member classes", col, what);
}

static bool related(const struct ctx *c, size_t i, size_t k);

/* Resolve a group name: the section's group, a marker group, class:X. */
static int resolve_group(struct ctx *c, const struct slt_rule *ru,
			 const struct slt_rule_name *n, struct gset *g)
{
	int rc = 0;
	memset(g, 0, sizeof(*g));
	g->name = n->name;
	g->idx = calloc(c->s->n_members + 1, sizeof(size_t));
	if (!g->idx)
		return slt_error_set(c->err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	for (size_t k = 0; k < c->rs->n_groups; k++) {
		const struct slt_rule_group *rg = &c->rs->groups[k];
		if (strcmp(rg->name, n->name))
			continue;
		for (size_t m = 0; m < rg->n_members && !rc; m++) {
			long i = member_or_fail(c, &rg->members[m], rg->line, &rc);
			if (i >= 0)
				g->idx[g->n++] = (size_t)i;
		}
		return rc;
	}
	for (size_t k = 0; k < c->n_kg; k++) {
		if (strcmp(c->kg[k].name, n->name))
			continue;
		g->kernel = &c->kg[k];
		for (size_t i = 0; i < c->s->n_members; i++)
			if (slt_group_has(c->s, g->kernel, i))
				g->idx[g->n++] = i;
		return 0;
	}
	if (!strncmp(n->name, "class:", 6)) {
		int k = slt_class_parse(n->name + 6);
		if (k > 0 && !have_classes(c))
			return need_classes(c, ru, n->column, n->name);
		/* named members only: a nameless struct or union is no
		 * member of its own (its members are matched one by one) */
		for (size_t i = 0; k > 0 && i < c->s->n_members; i++)
			if (c->o->classes[i] == (enum slt_class)k && c->s->members[i].name[0])
				g->idx[g->n++] = i;
		if (k > 0)
			return g->by_class = true, 0;
	}
	struct slt_suggest sg;
	slt_suggest_init(&sg, n->name, 1);
	static const char *const cls[] = { "class:read-mostly", "class:hot-write", "class:mixed",
					   "class:cold", "class:true-shared" };
	for (size_t k = 0; !rc && k < c->rs->n_groups; k++)
		rc = slt_suggest_add(&sg, c->rs->groups[k].name);
	for (size_t k = 0; !rc && k < c->n_kg; k++)
		rc = slt_suggest_add(&sg, c->kg[k].name);
	for (size_t k = 0; !rc && k < 5; k++)
		rc = slt_suggest_add(&sg, cls[k]);
	if (rc) {
		slt_suggest_release(&sg);
		return slt_error_set(c->err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	/* no close name: say which groups exist */
	char have[300] = "";
	size_t len = 0;
	for (size_t k = 0; k < c->rs->n_groups + c->n_kg && len < sizeof(have) - 1; k++)
		len += (size_t)snprintf(have + len, sizeof(have) - len, "%s%s", len ? ", " : "",
					k < c->rs->n_groups ? c->rs->groups[k].name :
					c->kg[k - c->rs->n_groups].name);
	char none[400];
	if (len)
		snprintf(none, sizeof(none), "the groups of struct %s are %s, or class:CLASS; "
			 "define it with group %s = MEMBER...", c->s->name, have, n->name);
	else
		snprintf(none, sizeof(none), "struct %s has no group and no kernel marker group: "
			 "use class:CLASS or define it with group %s = MEMBER...", c->s->name,
			 n->name);
	return unknown(c, ru->line, n->column, "group", n->name, &sg, none);
}

/* Lines a group's members touch: a byte per line (1 = touched). */
static unsigned char *group_line_map(struct ctx *c, const struct gset *g, uint64_t n_lines)
{
	unsigned char *map = calloc(n_lines + 1, 1);
	for (size_t k = 0; map && k < g->n; k++) {
		const struct slt_member *m = &c->s->members[g->idx[k]];
		uint64_t f, l;
		if (!has_bytes(m))
			continue;
		slt_member_lines(m, c->cl, &f, &l);
		for (uint64_t x = f; x <= l && x < n_lines; x++)
			map[x] = 1;
	}
	return map;
}

/* Does member i (with bytes) touch cacheline L? */
static bool on_line(const struct ctx *c, size_t i, uint64_t line)
{
	const struct slt_member *m = &c->s->members[i];
	uint64_t f, l;
	if (!has_bytes(m))
		return false;
	slt_member_lines(m, c->cl, &f, &l);
	return f <= line && line <= l;
}

/* "a (offset 0), b (offset 8)": the members of g on cacheline L, in g's
 * order, appended to f; *first: the first of them (index into s->members),
 * or -1. */
static void list_on_line(struct ctx *c, const struct gset *g, uint64_t line, FILE *f,
			 long *first)
{
	char p[256];
	*first = -1;
	for (size_t k = 0; k < g->n; k++) {
		size_t i = g->idx[k];
		if (!on_line(c, i, line))
			continue;
		fprintf(f, "%s%s (offset %" PRIu64 ", %" PRIu64 " byte%s)", *first < 0 ? "" : ", ",
			mpath(c, i, p, sizeof(p)), c->s->members[i].offset, c->s->members[i].size,
			c->s->members[i].size == 1 ? "" : "s");
		if (*first < 0)
			*first = (long)i;
	}
}

/* One violation for the groups a and b sharing cacheline L, naming every
 * member of each on it. */
static int add_shared_line(struct ctx *c, const struct slt_rule *ru, const struct gset *a,
			   const struct gset *b, uint64_t line)
{
	char *text = NULL, first[256];
	size_t len = 0;
	long fa = -1, fb = -1;
	FILE *f = open_memstream(&text, &len);
	if (f) {
		fprintf(f, "%s: ", a->name);
		list_on_line(c, a, line, f, &fa);
		fprintf(f, "; %s: ", b->name);
		list_on_line(c, b, line, f, &fb);
	}
	if (!f || fclose(f) || fa < 0) {
		free(text);
		return slt_error_set(c->err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	mpath(c, (size_t)fa, first, sizeof(first));
	int rc = add(c, ru, first, c->s->members[fa].offset,
		     "groups %s and %s share cacheline %" PRIu64 ": %s", a->name, b->name, line, text);
	if (!rc && (a->by_class || b->by_class))
		slt_gate_mark_class(c->r, line);
	free(text);
	return rc;
}

/* Groups a and b of a separate rule (b written at column col) must be
 * disjoint: a member in both (or inside a member of the other) would be
 * reported sharing a line with itself.  A class: group or a marker group
 * is resolved only now, so this is checked here, not by the parser.
 * Returns 0 or SLT_EUSAGE naming the members in both. */
static int check_disjoint(struct ctx *c, const struct slt_rule *ru, const struct gset *a,
			  const struct gset *b, unsigned col)
{
	char *text = NULL, p[256];
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&text, &len);
	for (size_t x = 0; f && x < a->n; x++)
		for (size_t y = 0; y < b->n; y++) {
			size_t i = a->idx[x], k = b->idx[y];
			if (!related(c, i, k))
				continue;
			if (n++ < 8) {
				fprintf(f, "%s%s", n > 1 ? ", " : "", mpath(c, i, p, sizeof(p)));
				if (i != k)
					fprintf(f, " with %s", mpath(c, k, p, sizeof(p)));
			}
			break;
		}
	if (!f || fclose(f)) {
		free(text);
		return slt_error_set(c->err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	int rc = 0;
	if (n)
		rc = slt_error_set_line(c->err, SLT_EUSAGE, c->path, ru->line,
					"separate compares disjoint groups: take the member out of "
					"one of them (a group's member always shares its line with "
					"itself)",
					"column %u: groups '%s' and '%s' overlap: %zu member%s in both: %s%s",
					col, a->name, b->name, n, n == 1 ? " is" : "s are", text,
					n > 8 ? ", ..." : "");
	free(text);
	return rc;
}

static int check_separate(struct ctx *c, const struct slt_rule *ru)
{
	uint64_t n_lines = slt_cachelines(c->s->size, c->cl) + 1;
	struct gset g[2];
	int rc = 0;
	for (size_t a = 0; a < ru->n_names && !rc; a++) {
		if ((rc = resolve_group(c, ru, &ru->names[a], &g[0]))) {
			free(g[0].idx);
			break;
		}
		for (size_t b = a + 1; b < ru->n_names && !rc; b++) {
			if ((rc = resolve_group(c, ru, &ru->names[b], &g[1]))) {
				free(g[1].idx);
				break;
			}
			if ((rc = check_disjoint(c, ru, &g[0], &g[1], ru->names[b].column))) {
				free(g[1].idx);
				break;
			}
			unsigned char *ma = group_line_map(c, &g[0], n_lines);
			unsigned char *mb = group_line_map(c, &g[1], n_lines);
			if (!ma || !mb)
				rc = slt_error_set(c->err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
			c->r->n_checks++;
			for (uint64_t L = 0; !rc && ma && mb && L < n_lines; L++)
				if (ma[L] && mb[L])
					rc = add_shared_line(c, ru, &g[0], &g[1], L);
			free(ma);
			free(mb);
			free(g[1].idx);
		}
		free(g[0].idx);
	}
	return rc;
}

static int check_max_lines(struct ctx *c, const struct slt_rule *ru)
{
	struct gset g;
	int rc = resolve_group(c, ru, &ru->names[0], &g);
	uint64_t first = UINT64_MAX, last = 0;
	if (!rc && g.kernel && g.kernel->end_offset > g.kernel->offset) {
		first = g.kernel->offset / c->cl;   /* the markers' span */
		last = (g.kernel->end_offset - 1) / c->cl;
	}
	for (size_t k = 0; !rc && !g.kernel && k < g.n; k++) {
		const struct slt_member *m = &c->s->members[g.idx[k]];
		uint64_t f, l;
		if (!has_bytes(m))
			continue;
		slt_member_lines(m, c->cl, &f, &l);
		first = f < first ? f : first;
		last = l > last ? l : last;
	}
	c->r->n_checks++;
	if (!rc && first != UINT64_MAX && last - first + 1 > ru->value)
		rc = add(c, ru, NULL, SLT_NO_OFFSET,
			 "group %s spans %" PRIu64 " cachelines (%" PRIu64 "..%" PRIu64
			 "), more than the %" PRIu64 " allowed", g.name, last - first + 1, first, last,
			 ru->value);
	free(g.idx);
	return rc;
}

/* Is member k member i, inside it or enclosing it? */
static bool related(const struct ctx *c, size_t i, size_t k)
{
	for (long q = (long)k; q >= 0; q = c->s->members[q].parent)
		if (q == (long)i)
			return true;
	for (long q = c->s->members[i].parent; q >= 0; q = c->s->members[q].parent)
		if (q == (long)k)
			return true;
	return false;
}

/* Is member k of s a written member to report beside member i: classed
 * written, not related to i, not covered by a parent of the same class? */
static bool hot_near(const struct ctx *c, size_t i, size_t k)
{
	const struct slt_member *w = &c->s->members[k];
	if (!written(c->o->classes[k]) || !has_bytes(w) || related(c, i, k))
		return false;
	long p = w->parent;
	return !(p >= 0 && c->o->classes[p] == c->o->classes[k]);
}

/* no-hot-write-near on cacheline L of member i: one violation naming every
 * written member on L (with its class) and the read-mostly ones beside
 * them. */
static int check_hot_near(struct ctx *c, const struct slt_rule *ru, size_t i, uint64_t line)
{
	char *text = NULL, p[256];
	size_t len = 0;
	long first = -1;
	bool rm = false;
	FILE *f = open_memstream(&text, &len);
	for (size_t k = 0; f && k < c->s->n_members; k++) {
		if (!hot_near(c, i, k) || !on_line(c, k, line))
			continue;
		fprintf(f, "%s%s (%s, offset %" PRIu64 ", %" PRIu64 " byte%s)", first < 0 ? "" : ", ",
			mpath(c, k, p, sizeof(p)), slt_class_name(c->o->classes[k]),
			c->s->members[k].offset, c->s->members[k].size,
			c->s->members[k].size == 1 ? "" : "s");
		if (first < 0)
			first = (long)k;
	}
	for (size_t k = 0; f && first >= 0 && k < c->s->n_members; k++) {
		if (c->o->classes[k] != SLT_CLASS_READ_MOSTLY || related(c, i, k) || !on_line(c, k, line))
			continue;
		fprintf(f, "%s%s (offset %" PRIu64 ", %" PRIu64 " byte%s)", rm ? ", " :
			"; read-mostly on it: ", mpath(c, k, p, sizeof(p)), c->s->members[k].offset,
			c->s->members[k].size, c->s->members[k].size == 1 ? "" : "s");
		rm = true;
	}
	if (!f || fclose(f)) {
		free(text);
		return slt_error_set(c->err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	int rc = 0;
	if (first >= 0) {
		char pi[256], pw[256];
		mpath(c, i, pi, sizeof(pi));
		mpath(c, (size_t)first, pw, sizeof(pw));
		rc = add(c, ru, pw, c->s->members[first].offset,
			 "cacheline %" PRIu64 " of %s (offset %" PRIu64 ", %" PRIu64 " byte%s) holds "
			 "written %s", line, pi, c->s->members[i].offset, c->s->members[i].size,
			 c->s->members[i].size == 1 ? "" : "s", text);
		if (!rc)
			slt_gate_mark_class(c->r, line);
	}
	free(text);
	return rc;
}

static int check_member_rule(struct ctx *c, const struct slt_rule *ru)
{
	int rc = 0;
	long i = member_or_fail(c, &ru->names[0], ru->line, &rc);
	if (i < 0)
		return rc;
	const struct slt_member *m = &c->s->members[i];
	const char *name = ru->names[0].name;
	c->r->n_checks++;
	switch (ru->kind) {
	case SLT_RULE_FIRST: {
		long before = -1;
		for (size_t k = 0; k < (size_t)i && before < 0; k++)
			if (c->s->members[k].depth == 0 && has_bytes(&c->s->members[k]))
				before = (long)k;
		if (m->offset != 0 || before >= 0) {
			char pb[256] = "";
			if (before >= 0)
				mpath(c, (size_t)before, pb, sizeof(pb));
			return add(c, ru, name, m->offset, "member %s (%" PRIu64 " byte%s) is at offset "
				   "%" PRIu64 ", want it first (offset 0)%s%s", name, m->size,
				   m->size == 1 ? "" : "s", m->offset,
				   before >= 0 ? "; first is " : "", pb);
		}
		return 0;
	}
	case SLT_RULE_OFFSET:
		if (m->offset != ru->value)
			return add(c, ru, name, m->offset, "member %s (%" PRIu64 " byte%s) is at offset "
				   "%" PRIu64 ", want %" PRIu64, name, m->size, m->size == 1 ? "" : "s",
				   m->offset, ru->value);
		return 0;
	case SLT_RULE_CACHELINE_START:
		if (m->offset % c->cl)
			return add(c, ru, name, m->offset, "member %s (%" PRIu64 " byte%s) at offset %"
				   PRIu64 " does not start a cacheline (%" PRIu64 " byte%s into cacheline %"
				   PRIu64 " of %u bytes)", name, m->size, m->size == 1 ? "" : "s",
				   m->offset, m->offset % c->cl,
				   m->offset % c->cl == 1 ? "" : "s", m->offset / c->cl, c->cl);
		return 0;
	case SLT_RULE_NO_HOT_WRITE_NEAR: {
		if (!have_classes(c))
			return need_classes(c, ru, ru->column, "no-hot-write-near");
		uint64_t f, l;
		slt_member_lines(m, c->cl, &f, &l);
		for (uint64_t L = f; !rc && L <= l; L++)
			rc = check_hot_near(c, ru, (size_t)i, L);
		return rc;
	}
	default:
		return 0;
	}
}

static int check_rule(struct ctx *c, const struct slt_rule *ru)
{
	const struct slt_struct *s = c->s;
	switch (ru->kind) {
	case SLT_RULE_SEPARATE:
		return check_separate(c, ru);
	case SLT_RULE_MAX_LINES:
		return check_max_lines(c, ru);
	case SLT_RULE_MAX_SIZE:
		c->r->n_checks++;
		if (s->size > ru->value)
			return add(c, ru, NULL, SLT_NO_OFFSET, "size %" PRIu64
				   " byte%s, more than the %" PRIu64 " allowed", s->size,
				   s->size == 1 ? "" : "s", ru->value);
		return 0;
	case SLT_RULE_MAX_CACHELINES: {
		uint64_t n = slt_cachelines(s->size, c->cl);
		c->r->n_checks++;
		if (n > ru->value)
			return add(c, ru, NULL, SLT_NO_OFFSET, "%" PRIu64 " cachelines (%" PRIu64
				   " bytes, %u-byte lines), more than the %" PRIu64 " allowed",
				   n, s->size, c->cl, ru->value);
		return 0;
	}
	case SLT_RULE_MAX_HOLES:
		c->r->n_checks++;
		if (s->sum_byte_holes > ru->value)
			return add(c, ru, NULL, SLT_NO_OFFSET, "%" PRIu64 " byte%s of holes in %u hole%s"
				   ", more than the %" PRIu64 " allowed", s->sum_byte_holes,
				   s->sum_byte_holes == 1 ? "" : "s",
				   s->n_byte_holes, s->n_byte_holes == 1 ? "" : "s", ru->value);
		return 0;
	default:
		return check_member_rule(c, ru);
	}
}

int slt_rules_check(const struct slt_rules_struct *rs, const char *rules_path,
		    const struct slt_struct *s, const struct slt_check_opts *o,
		    struct slt_gate_result *r, struct slt_error *err)
{
	struct slt_check_opts zero = { 0 };
	struct ctx c = {
		.rs = rs, .path = rules_path ? rules_path : "", .s = s, .o = o ? o : &zero,
		.r = r, .err = err,
	};
	c.cl = c.o->cacheline_size ? c.o->cacheline_size : SLT_CACHELINE_DEFAULT;
	if (slt_groups_find(s, &c.kg, &c.n_kg, NULL))
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	int rc = 0;
	if (rs->kind && rs->kind != s->kind) {
		bool u = s->kind == SLT_KIND_UNION;
		rc = slt_error_set_line(err, SLT_EUSAGE, c.path, rs->line, u ? "write [union NAME]" :
					"write [struct NAME]", "column %u: [%s %s] names a %s",
					rs->column, u ? "struct" : "union", rs->name, u ? "union" : "struct");
	}
	/* offset M = N with cacheline-start = M can never hold when N is
	 * not a multiple of this cacheline size (the parser refuses those
	 * no cacheline size allows) */
	for (size_t k = 0; !rc && k < rs->n_rules; k++)
		for (size_t j = 0; !rc && j < rs->n_rules; j++) {
			const struct slt_rule *of = &rs->rules[k], *cs = &rs->rules[j];
			if (of->kind != SLT_RULE_OFFSET || cs->kind != SLT_RULE_CACHELINE_START ||
			    strcmp(of->names[0].name, cs->names[0].name) || of->value % c.cl == 0)
				continue;
			const struct slt_rule *later = of->line > cs->line ? of : cs;
			const struct slt_rule *earlier = later == of ? cs : of;
			rc = slt_error_set_line(err, SLT_EUSAGE, c.path, later->line,
						"a member at a cacheline start has an offset that is a "
						"multiple of the cacheline size (-c)",
						"column %u: %s contradicts line %u: '%s' at offset %" PRIu64
						" can start no %u-byte cacheline", later->column,
						slt_rule_kind_name(later->kind), earlier->line,
						of->names[0].name, of->value, c.cl);
		}
	/* every group's members exist, even a group no rule uses */
	for (size_t k = 0; !rc && k < rs->n_groups; k++)
		for (size_t m = 0; !rc && m < rs->groups[k].n_members; m++)
			member_or_fail(&c, &rs->groups[k].members[m], rs->groups[k].line, &rc);
	for (size_t k = 0; !rc && k < rs->n_rules; k++)
		rc = check_rule(&c, &rs->rules[k]);
	free(c.kg);
	return rc;
}
