/* SPDX-License-Identifier: MIT */
/*
 * structlint — comparing current layouts with a baseline: one "baseline-*"
 * violation per change, classed breaking (error) or informational
 * (warning, note) by the member classes the baseline recorded (or given
 * for the current layout).  The rules and their severities are documented
 * in structlint(1), BASELINE:
 *
 *   baseline-struct-missing           error
 *   baseline-no-classes               warning (neither the baseline nor
 *                                     --classes classes a member)
 *   baseline-lines-grew               error   (cacheline count grew)
 *   baseline-size-grew                warning (same cacheline count)
 *   baseline-hole-new                 warning (new hole, or a hole grew)
 *   baseline-member-moved-line        warning for read-mostly, hot-write
 *                                     and mixed members, else note: a move
 *                                     harms only through a new sharing or
 *                                     growth, which are errors of their own
 *   baseline-member-moved             note    (same lines, new offset)
 *   baseline-hot-shares-read-mostly   error, one per cacheline holding a
 *                                     new sharing, naming every written and
 *                                     read-mostly member on it
 *   baseline-member-removed           warning for classified read-mostly/
 *                                     written members, else note
 *   baseline-member-renamed           note    (same offset, size, type)
 *   baseline-member-type-changed      note    (same path, another type)
 *   baseline-writers-share-line       error, one per cacheline where
 *                                     written members of different writer
 *                                     labels (hot-write:rx, hot-write:tx)
 *                                     now share a line they did not share
 *   baseline-member-added             error when its class is unknown and
 *                                     it lands on a line holding a
 *                                     read-mostly member, else note
 *
 * Members are matched by path; anonymous members ("" path) are not
 * compared themselves (their members are).  Zero-size members (markers,
 * CACHELINE_PADDING) take no part in sharing.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/baseline_int.h"
#include "join/join_int.h"
#include "structlint/analysis.h"
#include "structlint/rules.h"

struct cmp {
	const struct slt_baseline *b;
	const struct slt_baseline_struct *bs;
	const struct slt_struct *cs;      /* NULL: missing */
	const struct slt_baseline_opts *o;
	struct slt_gate_result *r;
	unsigned cl;
	const char *source;
	long *b2c;                        /* baseline member -> current, -1 */
	long *c2b;                        /* current member -> baseline, -1 */
	bool *renamed;                    /* per current member */
	enum slt_class *ccls;             /* current classes */
	const char **cwr;                 /* current writer labels, or NULL */
	char **cpath;                     /* current member paths */
	bool *newshare;                   /* per current member: in a new
					     written/read-mostly sharing */
	bool *newwriters;                 /* per current member: in a new
					     sharing of different writers */
	unsigned char *line_new;          /* per current cacheline: holds a
					     new sharing */
};

static bool is_written(enum slt_class c)
{
	return c == SLT_CLASS_HOT_WRITE || c == SLT_CLASS_MIXED ||
	       c == SLT_CLASS_TRUE_SHARED;
}

/* A class as a word in messages ("unclassified" for none). */
static const char *cls_word(enum slt_class c)
{
	return c == SLT_CLASS_NONE ? "unclassified" : slt_class_name(c);
}

static bool is_classified_hot(enum slt_class c)
{
	return c == SLT_CLASS_READ_MOSTLY || c == SLT_CLASS_HOT_WRITE ||
	       c == SLT_CLASS_MIXED;
}

static int add(struct cmp *c, const char *rule, enum slt_severity sev,
	       const char *member, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int add(struct cmp *c, const char *rule, enum slt_severity sev,
	       const char *member, uint64_t offset, const char *fmt, ...)
{
	char *msg;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
	return SLT_ENOMEM;
	struct slt_violation v = {
		.rule = rule, .severity = sev, .struct_name = c->bs->name,
		.member = member, .message = msg,
		.decl_file = c->cs ? c->cs->decl_file : c->bs->decl_file,
		.decl_line = c->cs ? c->cs->decl_line : c->bs->decl_line,
		.offset = offset, .source = c->source,
	};
	if (!slt_suppressions_match(&c->b->suppressions, &v))
		slt_suppressions_match(c->o->suppress, &v);
	int rc = slt_gate_add(c->r, &v);
	free(msg);
	return rc;
}

/* "cacheline 3" or "cachelines 3-4" */
static const char *lines_str(char *buf, size_t n, uint64_t first, uint64_t last)
{
	if (first == last)
		snprintf(buf, n, "cacheline %" PRIu64, first);
	else
		snprintf(buf, n, "cachelines %" PRIu64 "-%" PRIu64, first, last);
	return buf;
}

static void cur_lines(const struct cmp *c, size_t i, uint64_t *f, uint64_t *l)
{
	slt_member_lines(&c->cs->members[i], c->cl, f, l);
}

static void base_lines(const struct cmp *c, size_t k, uint64_t *f, uint64_t *l)
{
	const struct slt_baseline_member *m = &c->bs->members[k];
	slt_bl_lines(m->offset, m->size, m->flags, c->cl, f, l);
}

/* Members that take part in sharing: named, bytes on a line, not a
 * composite shown with its own members after it. */
static bool takes_part(const struct slt_member *m, const char *path)
{
	return path[0] && m->size && !(m->flags & SLT_MEMBER_ZERO_SIZE) &&
	       !((m->flags & SLT_MEMBER_INLINE) && m->n_children);
}

/* ---- matching ---------------------------------------------------------- */

static int match_members(struct cmp *c)
{
	const struct slt_baseline_struct *bs = c->bs;
	const struct slt_struct *cs = c->cs;
	for (size_t k = 0; k < bs->n_members; k++)
		c->b2c[k] = -1;
	for (size_t i = 0; i < cs->n_members; i++) {
		char buf[512];
		c->c2b[i] = -1;
		c->cpath[i] = strdup(slt_member_path(cs, i, buf, sizeof(buf)));
		if (!c->cpath[i])
			return SLT_ENOMEM;
		if (!c->cpath[i][0])
			continue;
		for (size_t k = 0; k < bs->n_members; k++) {
			if (c->b2c[k] < 0 && !strcmp(bs->members[k].path, c->cpath[i])) {
				c->b2c[k] = (long)i;
				c->c2b[i] = (long)k;
				break;
			}
		}
	}
	/* renames: an unmatched pair at the same offset, of the same size,
	 * bit position and type */
	for (size_t k = 0; k < bs->n_members; k++) {
		const struct slt_baseline_member *bm = &bs->members[k];
		if (c->b2c[k] >= 0 || !bm->path[0])
			continue;
		for (size_t i = 0; i < cs->n_members; i++) {
			const struct slt_member *m = &cs->members[i];
			if (c->c2b[i] >= 0 || !c->cpath[i][0] || m->offset != bm->offset ||
			    m->size != bm->size || m->bit_offset != bm->bit_offset ||
			    m->bit_size != bm->bit_size || m->depth != bm->depth ||
			    strcmp(m->type ? m->type : "", bm->type))
				continue;
			c->b2c[k] = (long)i;
			c->c2b[i] = (long)k;
			c->renamed[i] = true;
			break;
		}
	}
	/* classes: given for the current layout win, else the baseline's */
	for (size_t i = 0; i < cs->n_members; i++) {
		enum slt_class cls = SLT_CLASS_NONE;
		if (c->o->classes && c->cpath[i][0])
			cls = slt_classes_lookup(c->o->classes, cs->name, c->cpath[i], SLT_PATH_ANY);
		if (cls == SLT_CLASS_NONE && c->c2b[i] >= 0)
			cls = bs->members[c->c2b[i]].cls;
		c->ccls[i] = cls;
		/* the writer label: of the entry giving the class (its own or
		 * an enclosing member's), else the baseline's */
		const struct slt_class_entry *e = c->o->classes && c->cpath[i][0] ?
			slt_classes_find(c->o->classes, cs->name, c->cpath[i]) : NULL;
		if (e && e->cls == cls)
			c->cwr[i] = e->writer;
		else if (c->c2b[i] >= 0 && bs->members[c->c2b[i]].cls == cls)
			c->cwr[i] = bs->members[c->c2b[i]].writer;
	}
	/* then the class the current layout's kernel cacheline groups imply */
	return slt_groups_classes(cs, c->ccls) < 0 ? SLT_ENOMEM : 0;
}

/* Neither the baseline nor --classes classes any member of the struct:
 * only the class-free checks can fail; say so. */
static int check_classes_known(struct cmp *c)
{
	for (size_t k = 0; k < c->bs->n_members; k++)
		if (c->bs->members[k].cls != SLT_CLASS_NONE)
			return 0;
	for (size_t i = 0; c->o->classes && i < c->cs->n_members; i++)
		if (c->cpath[i][0] && slt_classes_lookup(c->o->classes, c->cs->name, c->cpath[i],
							 SLT_PATH_ANY) != SLT_CLASS_NONE)
			return 0;
	return add(c, "baseline-no-classes", SLT_SEV_WARNING, NULL, SLT_NO_OFFSET,
		   "baseline has no member classes for %s: only size, holes, moves and missing "
		   "members are checked; record it with --classes", c->bs->name);
}

/* Does --classes give current member i its class? */
static bool cls_given(const struct cmp *c, size_t i)
{
	return c->o->classes && c->cpath[i][0] &&
	       slt_classes_lookup(c->o->classes, c->cs->name, c->cpath[i],
				  SLT_PATH_ANY) != SLT_CLASS_NONE;
}

/* ---- the checks -------------------------------------------------------- */

static int check_size(struct cmp *c)
{
	const struct slt_baseline_struct *bs = c->bs;
	uint64_t lines = slt_cachelines(c->cs->size, c->cl);
	c->r->n_checks++;
	if (lines > bs->cachelines)
		return add(c, "baseline-lines-grew", SLT_SEV_ERROR, NULL, SLT_NO_OFFSET,
			   "%s grew from %" PRIu64 " to %" PRIu64 " cachelines (%" PRIu64
			   " to %" PRIu64 " bytes, %u-byte lines)", bs->name, bs->cachelines,
			   lines, bs->size, c->cs->size, c->cl);
	if (c->cs->size > bs->size)
		return add(c, "baseline-size-grew", SLT_SEV_WARNING, NULL, SLT_NO_OFFSET,
			   "%s grew from %" PRIu64 " to %" PRIu64 " bytes (+%" PRIu64
			   "), cachelines still %" PRIu64, bs->name, bs->size, c->cs->size,
			   c->cs->size - bs->size, lines);
	return 0;
}

static int check_holes(struct cmp *c)
{
	const struct slt_struct *cs = c->cs;
	for (size_t h = 0; h < cs->n_holes; h++) {
		const struct slt_hole *ho = &cs->holes[h];
		if ((ho->flags & SLT_HOLE_BITS) || ho->after >= cs->n_members)
			continue;
		c->r->n_checks++;
		const char *after = c->cpath[ho->after];
		const struct slt_baseline_hole *old = NULL;
		/* the same hole: after the same member (or the member it was
		 * renamed from) */
		long k = c->c2b[ho->after];
		for (size_t j = 0; k >= 0 && j < c->bs->n_holes && !old; j++)
			if (!strcmp(c->bs->holes[j].after, c->bs->members[k].path))
				old = &c->bs->holes[j];
		char lb[64];
		uint64_t line = ho->offset / c->cl;
		int rc = 0;
		if (!old)
			rc = add(c, "baseline-hole-new", SLT_SEV_WARNING, after, ho->offset,
				 "new %" PRIu64 "-byte hole at offset %" PRIu64 " (%s) after %s",
				 ho->size, ho->offset, lines_str(lb, sizeof(lb), line, line),
				 after[0] ? after : "(anonymous)");
		else if (ho->size > old->size)
			rc = add(c, "baseline-hole-new", SLT_SEV_WARNING, after, ho->offset,
				 "the hole after %s grew from %" PRIu64 " to %" PRIu64
				 " bytes (offset %" PRIu64 ", was %" PRIu64 ")",
				 after[0] ? after : "(anonymous)", old->size, ho->size,
				 ho->offset, old->offset);
		if (rc)
			return rc;
	}
	return 0;
}

static int check_baseline_members(struct cmp *c)
{
	const struct slt_baseline_struct *bs = c->bs;
	for (size_t k = 0; k < bs->n_members; k++) {
		const struct slt_baseline_member *bm = &bs->members[k];
		if (!bm->path[0])
			continue;
		c->r->n_checks++;
		char l1[64], l2[64];
		uint64_t bf, bl;
		base_lines(c, k, &bf, &bl);
		long i = c->b2c[k];
		int rc = 0;
		if (i < 0) {
			rc = add(c, "baseline-member-removed",
				 is_classified_hot(bm->cls) ? SLT_SEV_WARNING : SLT_SEV_NOTE,
				 bm->path, bm->offset,
				 "%s %s (%s, offset %" PRIu64 ", %" PRIu64 " byte%s, %s) is gone",
				 cls_word(bm->cls), bm->path, bm->type, bm->offset, bm->size,
				 bm->size == 1 ? "" : "s", lines_str(l1, sizeof(l1), bf, bl));
			if (rc)
				return rc;
			continue;
		}
		const struct slt_member *m = &c->cs->members[i];
		if (c->renamed[i]) {
			rc = add(c, "baseline-member-renamed", SLT_SEV_NOTE, c->cpath[i], m->offset,
				 "%s was renamed %s (same offset %" PRIu64 ", %" PRIu64
				 " byte%s, type %s)", bm->path, c->cpath[i], m->offset,
				 m->size, m->size == 1 ? "" : "s", bm->type);
			if (rc)
				return rc;
			continue;
		}
		if (strcmp(m->type ? m->type : "", bm->type)) {
			rc = add(c, "baseline-member-type-changed", SLT_SEV_NOTE, c->cpath[i],
				 m->offset, "%s changed type from %s (%" PRIu64 " byte%s) to %s (%"
				 PRIu64 " byte%s)%s%s", c->cpath[i], bm->type, bm->size,
				 bm->size == 1 ? "" : "s", m->type ? m->type : "", m->size,
				 m->size == 1 ? "" : "s",
				 bm->cls != SLT_CLASS_NONE && cls_given(c, (size_t)i) ? "" :
				 bm->cls != SLT_CLASS_NONE ? "; its recorded class " : "",
				 bm->cls != SLT_CLASS_NONE && !cls_given(c, (size_t)i) ?
				 "still applies: check it" : "");
			if (rc)
				return rc;
		}
		uint64_t cf, clast;
		cur_lines(c, (size_t)i, &cf, &clast);
		enum slt_class cls = c->ccls[i];
		/* a move harms only through a new sharing (its own error,
		 * baseline-hot-shares-read-mostly, naming the line) or growth
		 * (baseline-lines-grew): the move itself is a warning for a
		 * classified member, saying whether it takes part in one */
		bool hot = is_classified_hot(cls);
		if (cf != bf || clast != bl)
			rc = add(c, "baseline-member-moved-line", hot ? SLT_SEV_WARNING : SLT_SEV_NOTE,
				 c->cpath[i], m->offset,
				 "%s %s moved from offset %" PRIu64 " (%s) to offset %" PRIu64 " (%s)%s",
				 cls_word(cls), c->cpath[i], bm->offset,
				 lines_str(l1, sizeof(l1), bf, bl), m->offset,
				 lines_str(l2, sizeof(l2), cf, clast),
				 !hot ? "" : c->newshare[i] ? "; it takes part in a new sharing "
				 "(baseline-hot-shares-read-mostly)" : c->newwriters[i] ?
				 "; it takes part in a new write-write sharing "
				 "(baseline-writers-share-line)" : "; no new sharing with it");
		else if (m->offset != bm->offset)
			rc = add(c, "baseline-member-moved", SLT_SEV_NOTE, c->cpath[i], m->offset,
				 "%s moved from offset %" PRIu64 " to %" PRIu64 ", still on %s",
				 c->cpath[i], bm->offset, m->offset,
				 lines_str(l1, sizeof(l1), cf, clast));
		if (rc)
			return rc;
	}
	return 0;
}

static bool overlap(uint64_t f1, uint64_t l1, uint64_t f2, uint64_t l2)
{
	return f1 <= l2 && f2 <= l1;
}

/* Is a an inline ancestor of b (or b of a)? */
static bool nested(const struct slt_struct *s, size_t a, size_t b)
{
	for (int32_t p = s->members[b].parent; p >= 0; p = s->members[p].parent)
		if ((size_t)p == a)
			return true;
	for (int32_t p = s->members[a].parent; p >= 0; p = s->members[p].parent)
		if ((size_t)p == b)
			return true;
	return false;
}

static int check_added(struct cmp *c)
{
	const struct slt_struct *cs = c->cs;
	for (size_t i = 0; i < cs->n_members; i++) {
		if (c->c2b[i] >= 0 || !c->cpath[i][0])
			continue;
		c->r->n_checks++;
		const struct slt_member *m = &cs->members[i];
		uint64_t f, l;
		char lb[64];
		cur_lines(c, i, &f, &l);
		long rm = -1;
		if (c->ccls[i] == SLT_CLASS_NONE && takes_part(m, c->cpath[i]))
			for (size_t j = 0; j < cs->n_members && rm < 0; j++) {
				uint64_t f2, l2;
				if (j == i || c->ccls[j] != SLT_CLASS_READ_MOSTLY ||
				    !takes_part(&cs->members[j], c->cpath[j]) || nested(cs, i, j))
					continue;
				cur_lines(c, j, &f2, &l2);
				if (overlap(f, l, f2, l2))
					rm = (long)j;
			}
		int rc;
		if (rm >= 0)
			rc = add(c, "baseline-member-added", SLT_SEV_ERROR, c->cpath[i], m->offset,
				 "new member %s (%s, offset %" PRIu64 ", %" PRIu64
				 " byte%s) of unknown class is on %s with read-mostly %s (offset %"
				 PRIu64 "): give it a class or move it", c->cpath[i],
				 m->type ? m->type : "", m->offset, m->size, m->size == 1 ? "" : "s",
				 lines_str(lb, sizeof(lb), f, l), c->cpath[rm],
				 cs->members[rm].offset);
		else
			rc = add(c, "baseline-member-added", SLT_SEV_NOTE, c->cpath[i], m->offset,
				 "new %s member %s (%s, offset %" PRIu64 ", %" PRIu64 " byte%s, %s)",
				 cls_word(c->ccls[i]), c->cpath[i], m->type ? m->type : "",
				 m->offset, m->size, m->size == 1 ? "" : "s",
				 lines_str(lb, sizeof(lb), f, l));
		if (rc)
			return rc;
	}
	return 0;
}

/* Do current members h and m share a cacheline the baseline did not see
 * them share (or is one of them new)? */
static bool new_pair(const struct cmp *c, size_t h, size_t m)
{
	long bh = c->c2b[h], bm = c->c2b[m];
	if (bh < 0 || bm < 0)
		return true;
	uint64_t bhf, bhl, bmf, bml;
	base_lines(c, (size_t)bh, &bhf, &bhl);
	base_lines(c, (size_t)bm, &bmf, &bml);
	return !overlap(bhf, bhl, bmf, bml);
}

/* Can h (written) and m (read-mostly) falsely share? */
static bool sharing_pair(const struct cmp *c, size_t h, size_t m)
{
	const struct slt_struct *cs = c->cs;
	return h != m && is_written(c->ccls[h]) && c->ccls[m] == SLT_CLASS_READ_MOSTLY &&
	       takes_part(&cs->members[h], c->cpath[h]) &&
	       takes_part(&cs->members[m], c->cpath[m]) && !nested(cs, h, m);
}

/* Every written/read-mostly pair sharing a line now (one check each):
 * the new ones mark their members (newshare) and lines (line_new), for
 * the moved-line severity and check_sharing(). */
static void find_new_sharing(struct cmp *c)
{
	const struct slt_struct *cs = c->cs;
	uint64_t n_lines = slt_cachelines(cs->size, c->cl);
	for (size_t h = 0; h < cs->n_members; h++) {
		for (size_t m = 0; m < cs->n_members; m++) {
			if (!sharing_pair(c, h, m))
				continue;
			c->r->n_checks++;
			uint64_t hf, hl, mf, ml;
			cur_lines(c, h, &hf, &hl);
			cur_lines(c, m, &mf, &ml);
			if (!overlap(hf, hl, mf, ml) || !new_pair(c, h, m))
				continue;
			c->newshare[h] = c->newshare[m] = true;
			for (uint64_t L = hf > mf ? hf : mf; L <= hl && L <= ml && L < n_lines; L++)
				c->line_new[L] = 1;
		}
	}
}

/* Is current member i on cacheline L? */
static bool cur_on(const struct cmp *c, size_t i, uint64_t line)
{
	uint64_t f, l;
	cur_lines(c, i, &f, &l);
	return f <= line && line <= l;
}

/* One violation per cacheline holding a new sharing: every written and
 * read-mostly member on it, then where the members of the new pairs were
 * in the baseline. */
static int add_shared_line(struct cmp *c, uint64_t line, bool *isnew)
{
	const struct slt_struct *cs = c->cs;
	size_t n = cs->n_members;
	long first = -1;
	for (size_t i = 0; i < n; i++)
		isnew[i] = false;
	for (size_t h = 0; h < n; h++)
		for (size_t m = 0; m < n; m++)
			if (sharing_pair(c, h, m) && cur_on(c, h, line) && cur_on(c, m, line) &&
			    new_pair(c, h, m)) {
				isnew[h] = isnew[m] = true;
				if (first < 0 || (size_t)first > h)
					first = (long)h;
			}
	if (first < 0)
		return 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return SLT_ENOMEM;
	const char *sep = "";
	for (int pass = 0; pass < 2; pass++) {
		fprintf(f, pass ? " and read-mostly " : "written ");
		sep = "";
		for (size_t i = 0; i < n; i++) {
			bool want = pass ? c->ccls[i] == SLT_CLASS_READ_MOSTLY : is_written(c->ccls[i]);
			if (!want || !takes_part(&cs->members[i], c->cpath[i]) || !cur_on(c, i, line))
				continue;
			fprintf(f, "%s%s (", sep, c->cpath[i]);
			if (!pass)
				fprintf(f, "%s, ", slt_class_name(c->ccls[i]));
			fprintf(f, "offset %" PRIu64 ", %" PRIu64 " byte%s)", cs->members[i].offset,
				cs->members[i].size, cs->members[i].size == 1 ? "" : "s");
			sep = ", ";
		}
	}
	fprintf(f, "; not shared in the baseline: ");
	sep = "";
	for (size_t k = 0; k < 2 * n; k++) {
		size_t i = k % n;   /* the written members first */
		if (!isnew[i] || (k < n) != is_written(c->ccls[i]))
			continue;
		long b = c->c2b[i];
		char lb[64];
		uint64_t bf, bl;
		if (b >= 0) {
			base_lines(c, (size_t)b, &bf, &bl);
			fprintf(f, "%s%s was on %s", sep, c->cpath[i], lines_str(lb, sizeof(lb), bf, bl));
		} else {
			fprintf(f, "%s%s is not in the baseline", sep, c->cpath[i]);
		}
		sep = ", ";
	}
	if (fclose(f)) {
		free(text);
		return SLT_ENOMEM;
	}
	/* the baseline's own classes, measured when it was recorded: not a
	 * class rule from given classes (check --samples measures this
	 * layout; its classes then come in c->o->classes) */
	bool measured = !c->o->classes && c->b->classes_measured;
	int rc = add(c, "baseline-hot-shares-read-mostly", SLT_SEV_ERROR, c->cpath[first],
		     cs->members[first].offset, "cacheline %" PRIu64 " now holds %s%s%s%s", line,
		     text, measured ? "; the classes were measured for the baseline (" : "",
		     measured ? c->b->classes_source : "",
		     measured ? "): give --samples to measure this layout" : "");
	if (!rc && !measured)
		slt_gate_mark_class(c->r, line);
	free(text);
	return rc;
}

static int check_sharing(struct cmp *c)
{
	uint64_t n_lines = slt_cachelines(c->cs->size, c->cl);
	bool *isnew = calloc(c->cs->n_members + 1, sizeof(*isnew));
	int rc = isnew ? 0 : SLT_ENOMEM;
	for (uint64_t L = 0; !rc && L < n_lines; L++)
		if (c->line_new[L])
			rc = add_shared_line(c, L, isnew);
	free(isnew);
	return rc;
}

/* Can written h and m of different writer labels falsely share? */
static bool writers_pair(const struct cmp *c, size_t h, size_t m)
{
	const struct slt_struct *cs = c->cs;
	return h != m && is_written(c->ccls[h]) && is_written(c->ccls[m]) && c->cwr[h] &&
	       c->cwr[m] && strcmp(c->cwr[h], c->cwr[m]) &&
	       takes_part(&cs->members[h], c->cpath[h]) &&
	       takes_part(&cs->members[m], c->cpath[m]) && !nested(cs, h, m);
}

/* Mark the members of each pair of different writers that shares a line
 * now and did not in the baseline (newwriters), for the moved-line text
 * (check_writers() reports the lines). */
static void find_new_writers(struct cmp *c)
{
	const struct slt_struct *cs = c->cs;
	for (size_t h = 0; h < cs->n_members; h++)
		for (size_t m = 0; m < cs->n_members; m++) {
			uint64_t hf, hl, mf, ml;
			if (!writers_pair(c, h, m))
				continue;
			cur_lines(c, h, &hf, &hl);
			cur_lines(c, m, &mf, &ml);
			if (overlap(hf, hl, mf, ml) && new_pair(c, h, m))
				c->newwriters[h] = c->newwriters[m] = true;
		}
}

/* One error per cacheline where members of different writers now share a
 * line they did not share in the baseline, naming every labelled written
 * member on it. */
static int check_writers(struct cmp *c)
{
	const struct slt_struct *cs = c->cs;
	uint64_t n_lines = slt_cachelines(cs->size, c->cl);
	bool any = false;
	int rc = 0;
	for (size_t i = 0; i < cs->n_members && !any; i++)
		any = c->cwr[i] && is_written(c->ccls[i]);
	for (uint64_t L = 0; any && !rc && L < n_lines; L++) {
		long first = -1;
		c->r->n_checks++;
		for (size_t h = 0; h < cs->n_members && first < 0; h++)
			for (size_t m = 0; m < cs->n_members && first < 0; m++)
				if (writers_pair(c, h, m) && cur_on(c, h, L) && cur_on(c, m, L) &&
				    new_pair(c, h, m))
					first = (long)h;
		if (first < 0)
			continue;
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		if (!f)
			return SLT_ENOMEM;
		const char *sep = "";
		for (size_t i = 0; i < cs->n_members; i++) {
			if (!is_written(c->ccls[i]) || !c->cwr[i] || !cur_on(c, i, L) ||
			    !takes_part(&cs->members[i], c->cpath[i]))
				continue;
			char lb[64];
			uint64_t bf, bl;
			long b = c->c2b[i];
			if (b >= 0)
				base_lines(c, (size_t)b, &bf, &bl);
			fprintf(f, "%s%s (%s:%s, offset %" PRIu64 ", %s%s)", sep, c->cpath[i],
				slt_class_name(c->ccls[i]), c->cwr[i], cs->members[i].offset,
				b >= 0 ? "was on " : "not in the baseline",
				b >= 0 ? lines_str(lb, sizeof(lb), bf, bl) : "");
			sep = ", ";
		}
		if (fclose(f)) {
			free(text);
			return SLT_ENOMEM;
		}
		rc = add(c, "baseline-writers-share-line", SLT_SEV_ERROR, c->cpath[first],
			 cs->members[first].offset, "cacheline %" PRIu64 " now holds members "
			 "written by different writers: %s (write-write false sharing)", L, text);
		free(text);
	}
	return rc;
}

static int compare_struct(struct cmp *c)
{
	const struct slt_struct *cs = c->cs;
	size_t nb = c->bs->n_members + 1, nc = cs->n_members + 1;
	c->b2c = calloc(nb, sizeof(*c->b2c));
	c->c2b = calloc(nc, sizeof(*c->c2b));
	c->renamed = calloc(nc, sizeof(*c->renamed));
	c->ccls = calloc(nc, sizeof(*c->ccls));
	c->cwr = calloc(nc, sizeof(*c->cwr));
	c->cpath = calloc(nc, sizeof(*c->cpath));
	c->newshare = calloc(nc, sizeof(*c->newshare));
	c->newwriters = calloc(nc, sizeof(*c->newwriters));
	c->line_new = calloc(slt_cachelines(cs->size, c->cl) + 1, 1);
	int rc = c->b2c && c->c2b && c->renamed && c->ccls && c->cwr && c->cpath && c->newshare && c->newwriters &&
		 c->line_new ? 0 : SLT_ENOMEM;
	if (!rc)
		rc = match_members(c);
	if (!rc) {
		find_new_sharing(c);
		find_new_writers(c);
	}
	if (!rc)
		rc = check_classes_known(c);
	if (!rc)
		rc = check_size(c);
	if (!rc)
		rc = check_holes(c);
	if (!rc)
		rc = check_baseline_members(c);
	if (!rc)
		rc = check_added(c);
	if (!rc)
		rc = check_sharing(c);
	if (!rc)
		rc = check_writers(c);
	for (size_t i = 0; c->cpath && i < cs->n_members; i++)
		free(c->cpath[i]);
	free(c->b2c);
	free(c->c2b);
	free(c->renamed);
	free(c->ccls);
	free(c->cwr);
	free(c->cpath);
	free(c->newshare);
	free(c->newwriters);
	free(c->line_new);
	return rc;
}

/* The current definition to compare with bs: the first of that name, or
 * the first of that name and size when there are several. */
static const struct slt_struct *find_current(const struct slt_layout *cur,
					     const struct slt_baseline_struct *bs)
{
	const struct slt_struct *first = NULL;
	for (size_t i = 0; cur && i < cur->n_structs; i++) {
		const struct slt_struct *s = &cur->structs[i];
		if (strcmp(s->name, bs->name))
			continue;
		if (s->size == bs->size)
			return s;
		if (!first)
			first = s;
	}
	return first;
}

int slt_baseline_compare(const struct slt_baseline *b,
			 const struct slt_layout *cur,
			 const struct slt_baseline_opts *o,
			 struct slt_gate_result *r, struct slt_error *err)
{
	static const struct slt_baseline_opts none;
	struct cmp c = { .b = b, .o = o ? o : &none, .r = r,
			 .cl = b->cacheline_size };
	c.source = c.o->source ? c.o->source : b->path;
	for (size_t i = 0; i < b->n_structs; i++) {
		c.bs = &b->structs[i];
		c.cs = find_current(cur, c.bs);
		r->n_structs_checked++;
		r->n_checks++;
		int rc;
		if (!c.cs)
			rc = add(&c, "baseline-struct-missing", SLT_SEV_ERROR, NULL, SLT_NO_OFFSET,
				 "%s %s (%" PRIu64 " byte%s in the baseline) is not in the input",
				 c.bs->kind == SLT_KIND_UNION ? "union" : "struct", c.bs->name,
				 c.bs->size, c.bs->size == 1 ? "" : "s");
		else
			rc = compare_struct(&c);
		if (rc)
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	return 0;
}

int slt_baseline_compare_file(const struct slt_baseline *b, const char *file,
			      const struct slt_load_opts *lo,
			      const struct slt_baseline_opts *o,
			      struct slt_gate_result *r, struct slt_error *err)
{
	static const struct slt_load_opts dflt;
	struct slt_layout **ls = calloc(b->n_structs + 1, sizeof(*ls));
	struct slt_layout merged = { 0 };
	struct slt_struct *all = NULL;
	size_t n_all = 0;
	int rc = ls ? 0 : SLT_ENOMEM;
	/* one load per distinct name: a missing one must not hide the others */
	for (size_t i = 0; !rc && i < b->n_structs; i++) {
		const char *name = b->structs[i].name;
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(b->structs[k].name, name);
		if (seen)
			continue;
		struct slt_error e;
		slt_error_clear(&e);
		struct slt_load_opts o1 = lo ? *lo : dflt;
		rc = slt_layout_load(file, &name, 1, &o1, &ls[i], &e);
		/* the members the baseline recorded inside a nested struct,
		 * or a class given there: loaded expanded, as report and
		 * baseline load them */
		const struct slt_baseline_struct *bs = &b->structs[i];
		const char **paths = NULL;
		if (!rc && bs->n_members &&
		    !(paths = calloc(bs->n_members, sizeof(*paths))))
			rc = SLT_ENOMEM;
		for (size_t k = 0; paths && k < bs->n_members; k++)
			paths[k] = bs->members[k].path;
		if (!rc)
			rc = slt_layout_unfold(&ls[i], file, &name, 1, &o1, o ? o->classes : NULL,
					       paths, bs->n_members, NULL, NULL, &e);
		free(paths);
		if (rc == SLT_ENOTFOUND || rc == SLT_EDECLONLY) {
			rc = 0;     /* compared as missing */
		} else if (rc) {
			if (err)
				*err = e;
			break;
		} else {
			struct slt_struct *na = realloc(all, (n_all + ls[i]->n_structs) * sizeof(*na));
			if (!na) {
				rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
				break;
			}
			all = na;
			memcpy(all + n_all, ls[i]->structs, ls[i]->n_structs * sizeof(*na));
			n_all += ls[i]->n_structs;
		}
	}
	if (rc == SLT_ENOMEM && !(err && err->code))
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc) {
		merged.structs = all;
		merged.n_structs = n_all;
		merged.path = file ? file : SLT_KERNEL_BTF_PATH;
		rc = slt_baseline_compare(b, &merged, o, r, err);
	}
	for (size_t i = 0; ls && i < b->n_structs; i++)
		slt_layout_free(ls[i]);
	free(ls);
	free(all);
	return rc;
}
