/* SPDX-License-Identifier: MIT */
/*
 * The cacheline heat map model, internal to src/report: what the terminal
 * map (map_text.c) and the HTML page (html_page.c, html_svg.c) draw,
 * computed once from the analysis (and a proposal of the advisor) that the
 * text and JSON writers print; nothing here analyses anything again.
 *
 *   - every byte of the instance's lines gets an owner (heatmap_own.c):
 *     among the members drawn (folded: the units the findings name,
 *     slt_member_unit(), anonymous levels transparent, so `pos` of
 *     `struct { int x, y; } pos`; expanded (-E): every member, the
 *     deepest holding a byte drawn for its parents) that hold the byte,
 *     the hottest class (slt_hm_rank()), then one a finding names, then
 *     the higher heat, then the first in pre-order: a union's arms and
 *     the bitfields of one storage unit compete so, and a hot later arm
 *     or bitfield is never hidden; a hole that a named zero-size member
 *     ends (suggest's _padN_, CACHELINE_PADDING()) is that member's (drawn
 *     as padding, named by it); HM_HOLE for other holes and tail padding,
 *     HM_OUTSIDE before the instance's start (line_origin) and after its
 *     end on the last line;
 *   - per line, the members that hold some of its bytes but own none of
 *     them (hid), which the names and the hover texts list;
 *   - the owner's class, heat and counts come from the analysis: directly
 *     for the analysed layout, through the member of the original layout
 *     with the same path and size for a proposal (anonymous levels left
 *     out of paths, so a member the advisor wraps in an anonymous struct
 *     keeps its class; inserted `_padN_` members and wrappers have none
 *     and draw as padding);
 *   - each line lists the findings on it (a finding's line and line2):
 *     the analysis' for its own layout, for a proposal those the caller
 *     gives (the proposal's layout analysed again, slt_hm_set_findings()).
 * Lines are the analysis' instance lines: line k holds the instance bytes
 * [k * cl - origin, (k + 1) * cl - origin).
 */
#ifndef SLT_REPORT_HEATMAP_H
#define SLT_REPORT_HEATMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "structlint/advice.h"
#include "structlint/analysis.h"

/* Owners that are not members. */
#define HM_HOLE (-1L)
#define HM_OUTSIDE (-2L)

/* Largest struct drawn (bytes): larger ones are refused with SLT_EUSAGE
 * rather than drawn as megabytes of picture. */
#define HM_MAX_BYTES (1u << 20)

struct slt_hm {
	const struct slt_analysis *a;  /* the analysis (classes, findings) */
	const struct slt_struct *s;    /* the layout drawn: a->layout or a
					  proposal's */
	unsigned cl;                   /* bytes per line */
	uint32_t origin;               /* a->line_origin */
	uint64_t n_lines;
	long *owner;                   /* n_lines * cl entries: member index
					  into s->members, HM_HOLE or
					  HM_OUTSIDE */
	long *orig;                    /* per member of s: the index of the
					  analysed member it is (itself for
					  a->layout), -1 when none */
	const struct slt_analysis *fa; /* whose findings are marked: a for
					  a->layout, NULL (none) for a
					  proposal unless set */
	size_t *fnum;                  /* per finding of fa: the number it
					  is shown as (NULL: its rank) */
	bool *named;                   /* per member of s: its analysed
					  member (or a descendant) is in a
					  finding of a */
	bool *cited;                   /* per member of s: its analysed
					  member is itself in a finding */
	long *hid;                     /* per line, members that hold bytes
					  of it and own none (pre-order); a
					  member a finding names that is
					  drawn through its members (-E, or
					  a classes file naming a nested
					  member) is one of them */
	size_t *hid_at;                /* n_lines + 1: line k's are
					  hid[hid_at[k] .. hid_at[k + 1]) */
	char **label;                  /* per member of s: the name drawn
					  when its own is drawn for another
					  member too (heatmap_label.c), else
					  NULL */
	const char *given_word;        /* how given classes are labelled
					  (slt_report_opts.given_word; NULL:
					  "given") */
};

/* The labels of the members drawn (m->label): 0 or SLT_ENOMEM; and
 * their release (slt_hm_free() calls it). */
int slt_hm_labels(struct slt_hm *m);
void slt_hm_labels_free(struct slt_hm *m);

/* The name the maps draw for member i of m->s: its name, or the shortest
 * dotted suffix of its path no other member drawn shares
 * ("sk_receive_queue.lock" where sk_lock's lock is drawn too); "" for an
 * anonymous member. */
const char *slt_hm_label(const struct slt_hm *m, long i);

/* Build the model of s (a->layout, or a proposal's layout of it).
 * Returns 0, SLT_EUSAGE (larger than HM_MAX_BYTES) or SLT_ENOMEM. */
int slt_hm_build(struct slt_hm *m, const struct slt_analysis *a,
		 const struct slt_struct *s, struct slt_error *err);
void slt_hm_free(struct slt_hm *m);

/* The owners of m->owner (filled with HM_HOLE / HM_OUTSIDE), m->named,
 * m->hid (heatmap_own.c).  0 or SLT_ENOMEM. */
int slt_hm_owners(struct slt_hm *m);

/* Mark the findings of fa (s analysed again; NULL: none) on m, numbered as
 * the finding of m->a with the same kind and members (by path) when there
 * is one, else from next on (*next is advanced).  Returns 0 or
 * SLT_ENOMEM. */
int slt_hm_set_findings(struct slt_hm *m, const struct slt_analysis *fa,
			size_t *next);

/* The number finding i of m->fa is shown as. */
static inline size_t slt_hm_fnum(const struct slt_hm *m, size_t i)
{
	return m->fnum ? m->fnum[i] : i + 1;
}

/* "union" or "struct" (C++ classes are loaded as structs). */
static inline const char *slt_hm_keyword(const struct slt_struct *s)
{
	return s->kind == SLT_KIND_UNION ? "union" : "struct";
}

/* Owner of byte b (0 .. cl-1) of line k. */
static inline long slt_hm_owner(const struct slt_hm *m, uint64_t k, unsigned b)
{
	return m->owner[k * m->cl + b];
}

/* Class, heat (0..1) and accesses of the analysed member behind member i
 * of m->s (SLT_CLASS_NONE, 0, NULL when it has none). */
enum slt_class slt_hm_class(const struct slt_hm *m, long i);
double slt_hm_heat(const struct slt_hm *m, long i);
const struct slt_member_class *slt_hm_mclass(const struct slt_hm *m, long i);
const struct slt_member_access *slt_hm_access(const struct slt_hm *m, long i);

/* Drawing priority of an owner: a cell of several bytes shows its owner
 * of highest rank (true-shared > hot-write > mixed > read-mostly > cold >
 * no class > hole > outside), so a written byte is never hidden. */
int slt_hm_rank(const struct slt_hm *m, long owner);

/* The owner a cell of n bytes starting at byte b of line k shows. */
long slt_hm_cell(const struct slt_hm *m, uint64_t k, unsigned b, unsigned n);

/* Does finding f touch line k (its line, or line2 for straddle and
 * adjacent)? */
bool slt_hm_finding_on(const struct slt_finding *f, uint64_t k);

/* Line k is one member from end to end, with no finding on it: the
 * member, else -2 (HM_OUTSIDE). */
long slt_hm_whole_line(const struct slt_hm *m, uint64_t k);

/* The heat (0..5, one per fifth of the busiest member's accesses; at
 * least 1 when accessed at all) of the hottest member on line k; -1
 * without a profile. */
int slt_hm_line_heat(const struct slt_hm *m, uint64_t k);

/* Decimal digits of v (column widths). */
static inline int slt_hm_digits(uint64_t v)
{
	int d = 1;
	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/* One letter per class for the plain map and the legend: W hot-write,
 * R read-mostly, M mixed, T true-shared, c cold, ? no class, '.' hole or
 * padding, ' ' outside the instance. */
char slt_hm_letter(const struct slt_hm *m, long owner);

/* How the classes were given when some were (the report's given_word:
 * "given", "static", "static+given"); NULL when all are measured. */
const char *slt_hm_given_source(const struct slt_hm *m);

/* The false-sharing score of the analysed layout: with a proposal, its
 * score_before (the advisor's, which the text and JSON writers print as
 * "score before -> after"); else the scores of the collision and
 * write-write findings summed.  Straddle, adjacent-line, true-sharing,
 * element-sharing and unseen-writer findings are not counted either way.  (On the classes
 * basis without a separation the two are equal; on a profile's basis the
 * advisor shares a member's accesses out over its lines.) */
double slt_hm_score(const struct slt_analysis *a, const struct slt_advice *adv);

/* The slab cost of the analysed struct in the cache the advice assumes
 * (slt_slab_cache_align(): line-aligned, *hw, unless the report analysed
 * several starts in a line) for nr_cpus CPUs: 0, or an error of
 * slt_slab_cost().  The HTML table and the terminal map's numbers. */
int slt_hm_slab(const struct slt_analysis *a, unsigned nr_cpus,
		struct slt_slab_cost *c, bool *hw);

/* The display name of member i ("(anonymous)" for none). */
const char *slt_hm_name(const struct slt_hm *m, long i);

/* "kmalloc-96", "kmalloc-4k", "page allocator, order N", "no kmalloc
 * class" (advice_text.c; the HTML table uses it too). */
const char *slt_slab_class_name(const struct slt_slab_cost *c, char *buf,
				size_t n);

#endif
