/* SPDX-License-Identifier: MIT */
/*
 * structlint — layout rules files for `structlint check --rules RULES`,
 * and the checks that evaluate them (src/gate/rules.c parses,
 * src/gate/check.c evaluates, src/gate/groups.c reads the kernel's
 * __cacheline_group_begin__/end__ markers).
 *
 * The format (documented in structlint(1), RULES FILES), one statement a
 * line, '#' starts a comment:
 *
 *     [struct tcp_sock]                 a section: the struct the rules
 *                                       below apply to ("union X" too)
 *     group read_mostly = a b c.d       a named group of members (paths)
 *     separate = read_mostly hot_write  no two of these groups share a
 *                                       cacheline
 *     max-lines read_mostly = 2         the group spans at most N lines
 *     first = a                         a is the first member, offset 0
 *     offset b = 16                     b sits at byte offset 16
 *     max-size = 256                    sizeof() at most N bytes
 *     max-cachelines = 4                at most N cachelines
 *     max-holes = 8                     at most N bytes of holes
 *     cacheline-start = c               c starts a cacheline
 *     no-hot-write-near = a             no hot-written member (per
 *                                       --classes/--samples) on a's lines
 *
 * Group names in separate / max-lines are, in this order: a `group` of
 * the section, a kernel marker group of the struct
 * (__cacheline_group_begin__NAME), or `class:CLASS` (every member of
 * that class per --classes/--samples: class:read-mostly, class:hot-write,
 * class:mixed, class:cold, class:true-shared).  Numbers are decimal or
 * 0x hexadecimal, in bytes (max-lines, max-cachelines: lines).
 *
 * Ownership: a struct slt_rules owns all its strings and arrays; free it
 * with slt_rules_free().
 */
#ifndef STRUCTLINT_RULES_H
#define STRUCTLINT_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "structlint/classes.h"
#include "structlint/error.h"
#include "structlint/gate.h"
#include "structlint/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

enum slt_rule_kind {
	SLT_RULE_SEPARATE = 1,     /* names[0..n_names): groups */
	SLT_RULE_MAX_LINES,        /* names[0]: group; value: lines */
	SLT_RULE_FIRST,            /* names[0]: member */
	SLT_RULE_OFFSET,           /* names[0]: member; value: bytes */
	SLT_RULE_MAX_SIZE,         /* value: bytes */
	SLT_RULE_MAX_CACHELINES,   /* value: lines */
	SLT_RULE_MAX_HOLES,        /* value: bytes of holes (sum) */
	SLT_RULE_CACHELINE_START,  /* names[0]: member */
	SLT_RULE_NO_HOT_WRITE_NEAR,/* names[0]: member */
};

/* The key as written in the file, also the violation's rule id
 * ("separate", "max-lines", ...). */
const char *slt_rule_kind_name(enum slt_rule_kind k);

/* A name in a statement and where it was written (1-based column, bytes). */
struct slt_rule_name {
	const char *name;
	unsigned column;
};

struct slt_rule {
	enum slt_rule_kind kind;
	struct slt_rule_name *names;
	size_t n_names;
	uint64_t value;            /* bytes or lines, see the kind */
	unsigned line;             /* 1-based line of the statement */
	unsigned column;           /* column of the key */
};

/* `group NAME = MEMBER...` */
struct slt_rule_group {
	const char *name;
	struct slt_rule_name *members;  /* member paths, file order */
	size_t n_members;
	unsigned line, column;
};

/* One [struct NAME] section. */
struct slt_rules_struct {
	const char *name;          /* tag without "struct "/"union " */
	unsigned line;
	struct slt_rule_group *groups;
	size_t n_groups;
	struct slt_rule *rules;    /* file order */
	size_t n_rules;
	/* added after v1 */
	enum slt_kind kind;        /* SLT_KIND_STRUCT for [struct NAME],
				      SLT_KIND_UNION for [union NAME], 0 for
				      [NAME] (either) */
	unsigned column;           /* 1-based column of NAME in the first
				      section naming it */
};

struct slt_rules {
	const char *path;          /* the name given to the reader */
	struct slt_rules_struct *structs;  /* file order; a struct named in
					      two sections is one entry */
	size_t n_structs;
	void *priv_;
};

/*
 * Parse a rules file.  Returns 0 and *out, or SLT_EIO, SLT_ECORRUPT
 * (err->file and err->line name the place, the message starts with the
 * 1-based column "column N: ...", the hint says what is accepted) or
 * SLT_ENOMEM; *out is NULL on failure.  Refused as SLT_ECORRUPT besides
 * syntax errors: max-lines or max-cachelines of 0; a member listed in two
 * groups of one struct (or twice in one group); a limit given twice for
 * one struct (first, offset MEMBER, max-lines GROUP, max-size,
 * max-cachelines, max-holes), or first = M with offset M other than 0;
 * [struct X] and [union X] both; a group named twice in one separate;
 * rules that can never hold together: offset M = N with cacheline-start
 * = M where N is not a multiple of 8 bytes (the smallest cacheline size),
 * offset M = N with max-size below N, first = A with offset B = 0 for a B
 * that is not A or inside A (outside [union X]).  Names of members are checked against a
 * layout only by slt_rules_check().
 */
int slt_rules_read(const char *path, struct slt_rules **out,
		   struct slt_error *err);
/* The same for size bytes in memory (no NUL needed); name for messages. */
int slt_rules_read_mem(const void *data, size_t size, const char *name,
		       struct slt_rules **out, struct slt_error *err);
void slt_rules_free(struct slt_rules *r);

/* The section for struct name ("struct x" or "x"), or NULL. */
const struct slt_rules_struct *slt_rules_find(const struct slt_rules *r,
					      const char *name);

/* Inputs of the checks.  Zero-initialise; cacheline_size 0 means
 * SLT_CACHELINE_DEFAULT. */
struct slt_check_opts {
	unsigned cacheline_size;   /* bytes */
	const enum slt_class *classes; /* parallel to s->members: each
				      member's class from --classes or
				      --samples (NONE: unknown); NULL when
				      neither was given */
	/* Added after v1 (additive): writer labels parallel to
	 * s->members (hot-write:LABEL in a classes file; measured classes
	 * carry none), NULL entries or NULL when none.  Borrowed. */
	const char *const *labels;
};

/*
 * Evaluate the rules of section rs (from the file rules_path, named in
 * each violation's source as "RULES:LINE") on s and append the violations
 * to r (rule ids: slt_rule_kind_name()).  r->n_checks grows by the
 * checks evaluated.  Returns 0; SLT_EUSAGE when a rule names a member or
 * group s lacks (err: rules_path, the line, "column N: ..." and a
 * did-you-mean hint) or needs classes that were not given, or that give
 * no member of s a class (o->classes all SLT_CLASS_NONE: "no class is
 * given for any member of STRUCT"), or when the section says [union X]
 * for a struct X (or [struct X] for a union), or when offset M = N and
 * cacheline-start = M contradict for o's cacheline size, or when the
 * groups of a separate overlap (a member, or a member inside it, in two
 * of them: "groups 'a' and 'b' overlap: ..."); SLT_ENOMEM.
 */
int slt_rules_check(const struct slt_rules_struct *rs, const char *rules_path,
		    const struct slt_struct *s, const struct slt_check_opts *o,
		    struct slt_gate_result *r, struct slt_error *err);

/* ---- kernel cacheline groups (src/gate/groups.c) ---- */

/* What a group's name says about its members (see structlint(1), KERNEL
 * CACHELINE GROUPS): written when a '_'-separated word of the name is
 * "write" or "rw" (tcp_sock_write_tx, read_write, foo_rw); else
 * read-mostly when a word is "read", "ro" or the name holds "read_mostly"
 * (net_device_read_txrx, read_mostly, bar_ro); else unknown (icmp). */
enum slt_group_class {
	SLT_GROUP_UNKNOWN = 0,
	SLT_GROUP_READ_MOSTLY,
	SLT_GROUP_WRITTEN,
};
enum slt_group_class slt_group_class_of(const char *name);
/* "read-mostly", "written", "unclassified" */
const char *slt_group_class_name(enum slt_group_class c);

/* One __cacheline_group_begin__NAME .. __cacheline_group_end__NAME pair. */
struct slt_cl_group {
	const char *name;          /* NAME (borrowed from the layout) */
	size_t begin, end;         /* indices in s->members of the markers */
	uint64_t offset;           /* bytes: the begin marker's offset */
	uint64_t end_offset;       /* bytes: the end marker's offset */
	enum slt_group_class cls;
};

/*
 * The marker groups of s, in member order: *out (malloc()ed, free() it)
 * and *n (0 and NULL when s has no markers).  A begin marker without its
 * end (or an end before its begin) is not a group: each such marker is
 * reported through r as "cacheline-group-markers" when r is not NULL.
 * Returns 0 or SLT_ENOMEM.
 */
int slt_groups_find(const struct slt_struct *s, struct slt_cl_group **out,
		    size_t *n, struct slt_gate_result *r);

/* Is member i of s inside group g (between its markers, same parent)? */
int slt_group_has(const struct slt_struct *s, const struct slt_cl_group *g,
		  size_t i);

/* Added (additive): which of the groups g[0..n) hold at least one of the
 * members members[0..nm) (slt_group_has()): their indices, ascending, into
 * out (room for n).  Returns how many. */
size_t slt_groups_touched(const struct slt_struct *s, const struct slt_cl_group *g,
			  size_t n, const size_t *members, size_t nm, size_t *out);

/*
 * Classes implied by s's marker groups (added after v1): every member
 * inside a group whose name implies a class (slt_group_class_of) and whose
 * cls[i] is SLT_CLASS_NONE gets SLT_CLASS_READ_MOSTLY (read-mostly group)
 * or SLT_CLASS_HOT_WRITE (written group); markers, unnamed members and
 * members of unclassified groups keep their class.  cls is parallel to
 * s->members.  Used where no classes file gives a class (baselines of
 * kernel structs).  Returns the number of members given a class, or
 * SLT_ENOMEM.
 */
int slt_groups_classes(const struct slt_struct *s, enum slt_class *cls);

/*
 * The kernel's own checks on s's marker groups, appended to r with
 * source "kernel markers": a note per group (offset, bytes, lines,
 * class: rule "cacheline-group"); a read-mostly group sharing a
 * cacheline with a written group ("cacheline-group-sharing", error); with
 * o->classes, the kernel's CACHELINE_ASSERT_GROUP_MEMBER by class: a
 * hot-write member inside a read-mostly group, or a read-mostly member
 * inside a written one, and a classed member outside every group while
 * groups of its class exist ("cacheline-group-member", error).  Nothing
 * when s has no markers.  Returns 0 or SLT_ENOMEM.
 */
int slt_groups_check(const struct slt_struct *s, const struct slt_check_opts *o,
		     struct slt_gate_result *r, struct slt_error *err);

/* ---- writer labels (src/gate/writers.c) ---- */

/*
 * Written members whose writer labels differ (o->labels, o->classes) on
 * one cacheline of s: one error violation per such line, rule
 * "writers-share-line", naming every labelled written member on it (a
 * member inside a labelled composite of the same label is covered by
 * it; a member and a composite holding it never collide).  r->n_checks
 * grows by the lines checked when any member is labelled.  Returns 0 or
 * SLT_ENOMEM.
 */
int slt_writers_check(const struct slt_struct *s, const struct slt_check_opts *o,
		      struct slt_gate_result *r, struct slt_error *err);

/* ---- loads-only profiles (src/gate/unseen.c) ---- */

/*
 * A profile that holds no store (a->no_stores) shows a written line only
 * through its HITM loads: one error violation, rule "unseen-writer", per
 * SLT_FIND_UNSEEN_WRITER finding of a (a line whose loads hit a modified
 * line, no writer named by the classes), naming the loaded members and
 * their HITM counts; source: where the samples came from.  Nothing when
 * the profile holds stores.  Returns 0 or SLT_ENOMEM.
 */
struct slt_analysis;
int slt_unseen_check(const struct slt_analysis *a, const char *source,
		     struct slt_gate_result *r, struct slt_error *err);

/* ---- class rules against a per-CPU profile (src/gate/measured.c) ---- */

/* What a per-CPU profile measured on the lines of one struct. */
struct slt_gate_measured {
	char *struct_name;        /* owned */
	uint64_t n_lines;
	unsigned char *sharing;   /* per line: 1 when report finds false
				     sharing there (collision, write-write,
				     element sharing, unseen writer) */
	int32_t *cpu;             /* per line: the one CPU accessing it,
				     -1 none, -2 several, -3 unknown (a
				     member classed written whose stores
				     the profile does not show) */
	bool threads;             /* the profile's writers are threads
				     (IP samples with tids): cpu holds a
				     thread's number, not a CPU */
};

/*
 * Into *out, what analysis a measured, when its basis is per-CPU and its
 * lines are the struct's own (known base at a line start); returns 1, 0
 * when a cannot say (no per-CPU counts: its class rules stay errors), or
 * SLT_ENOMEM.  Free with slt_gate_measured_release().
 */
int slt_gate_measured_of(const struct slt_analysis *a, struct slt_gate_measured *out);
void slt_gate_measured_release(struct slt_gate_measured *m);

/*
 * The model check shares with report (structlint(1), CLASS RULES): false
 * sharing needs a store on one CPU and an access on another.  Each class
 * rule violation in r->violations[from..] (slt_violation.class_rule) of a
 * struct m[0..n) measured becomes a note saying that the profile measures
 * no false sharing on its line when report finds none there (e.g. one
 * CPU does everything), and stays as it is where report finds false
 * sharing there; one of a struct or line the profile cannot judge (no
 * per-CPU counts, no stores, a written member's stores not in it) says
 * that it is a class rule (layout hygiene from the members' classes), not
 * a measured sharing finding.
 * Returns 0 or SLT_ENOMEM.
 */
int slt_gate_class_rules(struct slt_gate_result *r, size_t from,
			 const struct slt_gate_measured *m, size_t n);

#ifdef __cplusplus
}
#endif
#endif
