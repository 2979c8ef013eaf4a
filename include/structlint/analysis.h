/* SPDX-License-Identifier: MIT */
/*
 * structlint — member access classes and per-cacheline sharing findings.
 *
 * Input: a layout (struct slt_struct), and an access profile from the join
 * (include/structlint/join.h), or member classes given by the user (a
 * classes file, the kernel's net_cachelines tables), or both: a given
 * class wins as the member's class (its role and writer label), the counts
 * and the per-CPU scores still come from the profile, and so does what
 * only samples can show: a member the samples show stored to by
 * true_share_cpus or more CPUs (measured true-shared) gets its
 * true-sharing finding whatever its given class.
 *
 * Classes (measured, per member, from loads + stores = accesses; all
 * thresholds are options, defaults in slt_classify_opts_default()):
 *   cold         accesses < min_share x the struct's accesses (or none);
 *   hot-write    stores / accesses >= hot_write_ratio;
 *   read-mostly  stores / accesses <= read_mostly_ratio;
 *   mixed        in between;
 *   true-shared  not cold, stores / accesses > read_mostly_ratio, and
 *                stored to by >= true_share_cpus distinct CPUs (a shared
 *                refcount or lock word: the CPUs contend on the member
 *                itself, so no layout change helps).
 *
 * Pairs are counted between units (slt_member_unit(): the outermost named
 * member holding an innermost one; anonymous structs and unions are
 * transparent), so a nested struct or union counts once whether it is
 * shown folded or expanded (-E).
 *
 * Findings, per cache line (line numbers as in slt_access_profile.cells:
 * lines of the instance, counted from the line holding its start), ranked
 * by score.  The score's basis depends on what the input holds:
 *   SLT_BASIS_CPU (per-CPU counts): the false-sharing estimator
 *       F(L) = sum over units U != V on L, CPUs c != d of
 *              min(stores_c(U,L), accesses_d(V,L))
 *     every (store of U on c, access of V on d) pair, whatever else c and
 *     d do: when all CPUs write U and read V, U is truly shared (its own
 *     finding) and V's loads are falsely shared with U's stores (this
 *     one); pairs on one unit are true sharing, not counted; in samples.
 *     With code locations, V's accesses by a function that also accesses
 *     U are left out of its pairs with U, up to that function's accesses
 *     of U (accessed together: the operation takes the line for U anyway;
 *     the reasoning is in src/analysis/pairs.c).
 *     Flagged when F(L) > 0 and F(L) >= min_share x the struct's accesses.
 *   SLT_BASIS_COUNTS (counts, no CPUs: typed profiles): F(L) =
 *     min(stores of hot-write and mixed members on L, loads of read-mostly
 *     members on L) -- the estimator when writers and readers are different
 *     CPUs, which the data cannot tell; only read-mostly/write collisions.
 *   SLT_BASIS_CLASSES (classes only): F(L) = number of (read-mostly,
 *     written) unit pairs on L, written = hot-write, mixed or
 *     true-shared, plus the pairs of written units whose writer labels
 *     differ (hot-write:rx and hot-write:tx: write-write).  Two written
 *     units without labels, or with one label, are not a finding on this
 *     basis (the same CPU may write both).
 * A line with both a collision part (pairs whose accessed side V is not
 * written on the line; classes: read-mostly x written) and a write-write
 * part (V written too; classes: the label pairs) gets two findings, each
 * scored on its part and naming the members that add to it; otherwise one
 * finding for the line.  A finding names only members that add to its
 * score (a load on the writer's own CPU adds nothing).
 * Kinds: read-mostly/hot-write collision, write-write false sharing
 * (different members stored to by different CPUs), true sharing (one
 * member, advice: per-CPU data or batching, never padding; measured: one
 * finding per line the member was accessed on, scored on that line's
 * cell, so an array spanning many lines is charged where the CPUs met), a hot member
 * of at most one line straddling two lines, and (opts.adjacent) adjacent
 * line interference within an aligned 128-byte pair (the spatial
 * prefetcher pulls line pairs on Intel parts: Intel 64 and IA-32
 * Optimization Reference Manual, "Adjacent cache line prefetch").
 */
#ifndef STRUCTLINT_ANALYSIS_H
#define STRUCTLINT_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "structlint/classes.h"
#include "structlint/error.h"
#include "structlint/join.h"
#include "structlint/layout.h"
#include "structlint/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Schema of slt_report_analysis_json()'s output. */
#define SLT_SCHEMA_REPORT "structlint.report/v1"

/* Classes are enum slt_class of include/structlint/classes.h (none,
 * read-mostly, hot-write, mixed, cold, true-shared), named and parsed by
 * slt_class_name() / slt_class_parse(). */

struct slt_classify_opts {
	double hot_write_ratio;    /* default 0.3 */
	double read_mostly_ratio;  /* default 0.05 */
	double min_share;          /* default 0.01 (1% of the accesses) */
	unsigned true_share_cpus;  /* default 2 */
};
void slt_classify_opts_default(struct slt_classify_opts *o);

struct slt_analysis_opts {
	unsigned cacheline_size;   /* bytes; 0 = the profile's, else 64 */
	struct slt_classify_opts classify;
	bool adjacent;             /* also look at 128-byte line pairs */
	/* Given classes, parallel to layout->members (NULL: none).  A class
	 * given to a member applies to its inline descendants that have none.
	 * SLT_CLASS_NONE entries are measured (or stay unknown). */
	const enum slt_class *given;
	/* Added after v1 (additive): writer labels of the given classes
	 * (hot-write:LABEL), parallel to layout->members, NULL entries (or
	 * NULL) when none; inherited like the classes.  Borrowed. */
	const char *const *given_label;
	/* Added after v1 (additive), used without a profile (a profile's
	 * base places the instance): line_origin, the instance's start
	 * within its line (bytes, taken modulo the line size); base_align,
	 * when nonzero and below the line size, says the base is only known
	 * to be line_origin plus a multiple of base_align (an embedded
	 * instance, a slab without SLAB_HWCACHE_ALIGN): the members are
	 * analysed at each of the line size / base_align starts (at most
	 * 64: base_align >= line size / 64) and every finding says at which
	 * of them it holds (slt_finding.bases, slt_analysis.base_starts). */
	uint32_t line_origin;
	unsigned base_align;
};

/* Per member: its class and where it came from. */
struct slt_member_class {
	enum slt_class cls;
	bool given;                /* from opts.given, not measured */
	unsigned writers;          /* distinct CPUs that stored to it */
	double heat;               /* accesses / the busiest leaf member's,
				      0..1 (0 without a profile) */
	/* Added after v1 (additive): */
	const char *label;         /* writer label of a given class, or NULL */
	size_t given_at;           /* given: the member whose entry gave the
				      class (itself or an ancestor) */
	enum slt_class measured;   /* the class the samples give (NONE
				      without a profile, and for a nameless
				      level), also when a given class wins:
				      the facts only samples show (true
				      sharing) are reported from it */
};

enum slt_finding_kind {
	SLT_FIND_COLLISION = 1,    /* read-mostly member(s) on a written line */
	SLT_FIND_WRITE_WRITE,      /* members stored to by different CPUs */
	SLT_FIND_TRUE_SHARING,     /* one member contended by CPUs */
	SLT_FIND_STRADDLE,         /* hot member split over two lines */
	SLT_FIND_ADJACENT,         /* interference across a 128-byte pair */
	SLT_FIND_UNSEEN_WRITER,    /* (added after v1) loads on the line hit
				      a line modified in another cache
				      (HITM), but the profile holds no
				      store: written by an unknown writer */
	SLT_FIND_ELEMENT_SHARING,  /* (added after UNSEEN_WRITER) false
				      sharing between the elements of one
				      array member: different CPUs store
				      to different elements (disjoint
				      bytes) on one line; not fixable by
				      reordering members (layout_fixable
				      false): pad each element to a line
				      or make it per-CPU */
};

enum slt_score_basis {
	SLT_BASIS_CLASSES = 1,
	SLT_BASIS_COUNTS,
	SLT_BASIS_CPU,
};

struct slt_finding {
	enum slt_finding_kind kind;
	uint64_t line;             /* instance line (see the top) */
	uint64_t line2;            /* STRADDLE, ADJACENT: the other line */
	double score;              /* see the top; unit per basis */
	size_t *members;           /* indices in layout->members: writers
				      first, then the members they collide
				      with */
	size_t n_members;
	size_t n_writers;          /* how many of members[] are written */
	bool layout_fixable;       /* false for true sharing */
	const char *advice;        /* one sentence, static storage */
	/* Added after v1 (additive): line and line2 are counted from the
	 * line holding the instance's start when it starts origin bytes into
	 * a line; with slt_analysis.n_bases > 1, bit k of bases is set when
	 * the finding holds at base_starts[k] (the same kind of finding on
	 * one line holds all its members: a superset of them), and origin is
	 * the first such start (the reference start when it holds there). */
	uint32_t origin;
	uint64_t bases;
};

/* The result; owns everything except layout and profile (borrowed; they
 * must outlive it).  Free with slt_analysis_free(). */
struct slt_analysis {
	const struct slt_struct *layout;
	const struct slt_access_profile *profile;  /* may be NULL */
	unsigned cacheline_size;
	uint32_t line_origin;      /* bytes: instance start within its line */
	enum slt_score_basis basis;
	struct slt_classify_opts classify;
	struct slt_member_class *classes;  /* parallel to layout->members */
	struct slt_finding *findings;      /* highest score first */
	size_t n_findings;
	void *priv_;
	/* Added after v1 (additive): the profile has accesses on the struct
	 * but not one store (loads-only events, or a perf c2c report whose
	 * Store Operations are 0): nothing can be classed as written from it,
	 * and its HITM loads become SLT_FIND_UNSEEN_WRITER findings. */
	bool no_stores;
	/* Added after v1 (additive): the instance's possible starts within
	 * a line (slt_analysis_opts.base_align), ascending; n_bases 1 (and
	 * base_starts[0] == line_origin, the reference start) when the base
	 * is known.  The findings are those at every start, each once. */
	uint32_t n_bases;
	const uint32_t *base_starts;
};

/*
 * Classify the members of layout and find sharing problems.  profile may
 * be NULL when opts->given holds classes; it must have been joined against
 * layout.  Returns 0 and *out, SLT_EUSAGE (neither profile nor classes,
 * thresholds out of range: ratios in [0, 1], read_mostly_ratio <=
 * hot_write_ratio, true_share_cpus >= 2) or SLT_ENOMEM, with err filled.
 */
int slt_analyze(const struct slt_struct *layout,
		const struct slt_access_profile *profile,
		const struct slt_analysis_opts *opts,
		struct slt_analysis **out, struct slt_error *err);
void slt_analysis_free(struct slt_analysis *a);

/* The one CPU the profile shows storing to member i, when its class was
 * measured as hot-write or mixed (one writer CPU by the classes' rule; two
 * or more make it true-shared) and the samples name CPUs; -1 otherwise
 * (given classes, no CPUs, no store).  The measured counterpart of a
 * writer label: two members whose sole writers are different CPUs are
 * written by different writers (check's writers-share-line). */
int32_t slt_member_sole_writer(const struct slt_analysis *a, size_t i);

/* Called by slt_classes_check() for an entry naming a member its struct
 * lacks; suggestion is the closest member path (edit distance,
 * src/common/strdist.h), NULL when none is close.  Both are valid only
 * during the call. */
typedef void (*slt_unknown_member_cb)(void *ctx,
				      const struct slt_class_entry *entry,
				      const char *suggestion);

/*
 * Check the entries of cl that name struct s (by tag) against s's members
 * (added after v1, additive): cb is called once, in file order, for each
 * entry whose member path (array indices ignored) is neither a member of s
 * nor inside a member shown folded.  Such entries give no class; one
 * classes file may serve several versions of a struct, so this is for a
 * warning, not an error, unless the caller decides otherwise.  Returns the
 * number of unknown entries, or SLT_ENOMEM.
 */
int slt_classes_check(const struct slt_classes *cl, const struct slt_struct *s,
		      slt_unknown_member_cb cb, void *ctx);

/* The first entry of cl for struct s whose member path lies inside a
 * member of s shown folded ("sk_receive_queue.lock" when sk_receive_queue
 * is not expanded), or NULL (added after v1).  Such a class applies to
 * the innermost member: load the layout expanded (-E) to apply it; the
 * score does not depend on the expansion (units, above). */
const struct slt_class_entry *slt_classes_folded(const struct slt_classes *cl,
						 const struct slt_struct *s);

/* Does path (a dotted member path) lie inside a member of s shown folded? */
bool slt_path_folded(const struct slt_struct *s, const char *path);

/* The one rule by which report, check and baseline see nested members:
 * when a class of cl, or one of paths[0..n_paths) (member paths, e.g. a
 * baseline's), lies inside a member of a struct of *l shown folded, load
 * names from file again expanded (lo->expand set; as -E), so the class
 * applies to the innermost member's bytes; only when such a path names a
 * member there (a misspelled one keeps *l as it is).  *why: the class
 * entry that asked for it, or NULL.  *spelled (NULL: not wanted): when *l
 * stays folded although a path lies inside a folded member, the expanded
 * layout, to check the classes' names against (did you mean), else NULL;
 * free it with slt_layout_free().  Returns 0 (also when nothing changed)
 * or the loader's error (*l then NULL). */
int slt_layout_unfold(struct slt_layout **l, const char *file, const char *const *names,
		      size_t n_names, struct slt_load_opts *lo, const struct slt_classes *cl,
		      const char *const *paths, size_t n_paths,
		      const struct slt_class_entry **why, struct slt_layout **spelled,
		      struct slt_error *err);

/* "collision", "write-write", "true-sharing", "straddle", "adjacent",
 * "unseen-writer", "element-sharing";
 * "classes", "counts", "per-cpu". */
const char *slt_finding_kind_name(enum slt_finding_kind k);
const char *slt_score_basis_name(enum slt_score_basis b);

/*
 * Annotated pahole-style text: the layout lines exactly as
 * slt_report_layout_text() writes them (colour off), each member line
 * followed by a TAB and one comment "/" "* CLASS ld=N st=N hitm=N HEAT *" "/"
 * (HEAT: one '#' per fifth of the busiest member's accesses; CLASS is
 * followed by " (given)" when the class was given, and HEAT preceded by
 * " cpus=N", N distinct CPUs, when the profile names CPUs; the closing
 * line of an inline struct or union carries its comment), then the
 * base resolution and the ranked findings with their members, offsets,
 * counts and code locations.  Returns 0, SLT_EIO or SLT_ENOMEM.
 */
int slt_report_analysis_text(FILE *out, const struct slt_analysis *a,
			     const struct slt_report_opts *opts,
			     struct slt_error *err);

/* The same as one JSON document of schema SLT_SCHEMA_REPORT (documented
 * at the top of src/report/report_json.c).  Built completely before the
 * first byte is written.  Returns 0, SLT_ENOMEM or SLT_EIO. */
int slt_report_analysis_json(FILE *out, const struct slt_analysis *a,
			     const struct slt_report_opts *opts,
			     struct slt_error *err);

#ifdef __cplusplus
}
#endif
#endif
