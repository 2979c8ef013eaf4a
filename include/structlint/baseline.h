/* SPDX-License-Identifier: MIT */
/*
 * structlint — layout baselines: a recorded layout of some structs plus
 * their member classes (JSON, schema "structlint.baseline/v1", documented
 * in structlint(1), BASELINE), and the comparison of a later build's
 * layouts with it ("like abidiff, but for performance layouts").
 *
 * Flow:
 *   structlint baseline FILE STRUCT... --classes C > B.json
 *       slt_baseline_new(), slt_baseline_add_struct() per definition,
 *       slt_baseline_write_json();
 *   structlint check FILE --baseline B.json [--suppress S.json]
 *       slt_baseline_read(), [slt_suppressions_read()],
 *       slt_baseline_compare_file() (appends "baseline-*" violations to a
 *       struct slt_gate_result, include/structlint/gate.h), then
 *       slt_gate_failures() decides the exit status.
 *
 * Units: offsets and sizes in bytes, bit_offset/bit_size in bits,
 * cacheline numbers are 0-based line indices from the struct's start
 * (the struct assumed to start on a line boundary, as pahole prints it).
 *
 * Ownership: a struct slt_baseline / slt_suppressions owns every string
 * and array reachable from it; free with slt_baseline_free() /
 * slt_suppressions_free().  Nothing here prints or exits.
 */
#ifndef STRUCTLINT_BASELINE_H
#define STRUCTLINT_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "structlint/classes.h"
#include "structlint/error.h"
#include "structlint/gate.h"
#include "structlint/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SLT_SCHEMA_BASELINE "structlint.baseline/v1"
#define SLT_SCHEMA_SUPPRESSIONS "structlint.suppressions/v1"

/* One suppression: violations whose rule, struct and member match (fnmatch
 * globs; member NULL matches any member and whole-struct violations) are
 * still listed, marked suppressed with reason, and never fail the gate. */
struct slt_suppression {
	const char *rule;         /* "baseline-member-moved-line", or a glob */
	const char *struct_name;  /* struct tag or glob, without "struct " */
	const char *member;       /* member path glob, NULL = any */
	const char *reason;       /* why it is accepted (required, non-empty) */
	const char *where;        /* "FILE:LINE" of the entry, for messages */
};

struct slt_suppressions {
	struct slt_suppression *entries;
	size_t n;
	void *priv_;
};

/* One recorded member (pre-order, as struct slt_member). */
struct slt_baseline_member {
	const char *path;         /* dotted path as the classes files name it
				     ("a.b"; anonymous levels left out; ""
				     for an anonymous member, which the
				     comparison skips: its children count) */
	const char *type;         /* C type as pahole spells it */
	uint64_t offset;          /* bytes from the struct's start */
	uint64_t size;            /* bytes (storage unit for bitfields) */
	uint32_t bit_offset;      /* bits, bitfields only */
	uint32_t bit_size;        /* bits, 0 when not a bitfield */
	uint32_t alignment;       /* bytes, forced alignment; 0 natural */
	uint32_t natural_alignment; /* bytes, alignof() of the type */
	uint32_t flags;           /* enum slt_member_flags (bitfield, anon,
				     inline, zero-size, group markers, ...) */
	uint32_t depth;           /* nesting depth, 0 at top level */
	uint32_t decl_line;       /* the member's line; 0 when unknown (the
				     layout model keeps none today) */
	enum slt_class cls;       /* recorded class, SLT_CLASS_NONE unknown */
	const char *writer;       /* writer label of a written class
				     (hot-write:LABEL), NULL when none
				     (added after v1; JSON "writer") */
};

/* One recorded hole (a byte gap between members; bit holes are not
 * recorded). */
struct slt_baseline_hole {
	uint64_t offset;          /* bytes: first unused byte */
	uint64_t size;            /* bytes */
	const char *after;        /* path of the member it follows */
};

struct slt_baseline_struct {
	const char *name;         /* tag, without "struct " */
	enum slt_kind kind;
	uint64_t size;            /* bytes */
	uint32_t alignment;       /* bytes */
	const char *decl_file;    /* "" when unknown (BTF) */
	uint32_t decl_line;       /* 0 when unknown */
	uint64_t cachelines;      /* slt_cachelines(size, cacheline_size) */
	struct slt_baseline_member *members;
	size_t n_members;
	struct slt_baseline_hole *holes;
	size_t n_holes;
};

struct slt_baseline {
	unsigned cacheline_size;  /* bytes, the line size it was recorded with */
	const char *input;        /* the FILE the layouts came from ("" for
				     the running kernel's BTF) */
	const char *classes_source; /* where the classes came from, or "" */
	bool classes_measured;    /* recorded with --samples: the classes
				     were measured, not given */
	struct slt_baseline_struct *structs; /* in recording order */
	size_t n_structs;
	struct slt_suppressions suppressions; /* the document's own */
	const char *path;         /* file it was read from ("" when built) */
	void *priv_;
};

/* A new empty baseline for cacheline_size bytes (a power of two, 8..4096);
 * input and classes_source (may be NULL) are recorded as given.  Returns
 * 0 and *out, SLT_EUSAGE or SLT_ENOMEM. */
int slt_baseline_new(unsigned cacheline_size, const char *input,
		     const char *classes_source, struct slt_baseline **out,
		     struct slt_error *err);

/* Record s (copied) with classes parallel to s->members (NULL: all
 * unknown).  Returns 0 or SLT_ENOMEM. */
int slt_baseline_add_struct(struct slt_baseline *b, const struct slt_struct *s,
			    const enum slt_class *classes, struct slt_error *err);
/* The same with writer labels parallel to s->members (NULL entries, or
 * NULL: none), recorded for members of a written class (added after
 * v1). */
int slt_baseline_add_struct_writers(struct slt_baseline *b, const struct slt_struct *s,
				    const enum slt_class *classes,
				    const char *const *writers, struct slt_error *err);

/* Append a copy of e to b's own suppressions (written with it).
 * Returns 0 or SLT_ENOMEM. */
int slt_baseline_add_suppression(struct slt_baseline *b,
				 const struct slt_suppression *e,
				 struct slt_error *err);

/* Write b as one JSON document (schema SLT_SCHEMA_BASELINE), keys in a
 * fixed order, so the same layouts give the same bytes.  Nothing is
 * written on failure.  Returns 0, SLT_ENOMEM or SLT_EIO. */
int slt_baseline_write_json(FILE *out, const struct slt_baseline *b,
			    bool pretty, struct slt_error *err);

/*
 * Read a baseline (untrusted input: every field type- and range-checked).
 * Returns 0 and *out, or: SLT_EIO (unreadable), SLT_ECORRUPT (not JSON,
 * a missing or ill-typed field; err names the file and the byte offset,
 * line in err->line, and the field's path, e.g.
 * structs[1].members[3].offset), SLT_EUNSUPPORTED (another schema,
 * "structlint.baseline/v2": the hint says to re-record it with this
 * version), SLT_ENOMEM.  *out is NULL on failure.
 */
int slt_baseline_read(const char *path, struct slt_baseline **out,
		      struct slt_error *err);
/* The same for size bytes in memory; name is used in messages. */
int slt_baseline_read_mem(const void *data, size_t size, const char *name,
			  struct slt_baseline **out, struct slt_error *err);

void slt_baseline_free(struct slt_baseline *b);

/* A suppressions file: {"schema": "structlint.suppressions/v1",
 * "suppressions": [{"rule", "struct", "member"?, "reason"}...]}.  Same
 * errors as slt_baseline_read(). */
int slt_suppressions_read(const char *path, struct slt_suppressions **out,
			  struct slt_error *err);
int slt_suppressions_read_mem(const void *data, size_t size, const char *name,
			      struct slt_suppressions **out,
			      struct slt_error *err);
void slt_suppressions_free(struct slt_suppressions *s);

/* If an entry of s matches v (rule, struct and member globs), mark v
 * suppressed with the first matching entry's reason (borrowed from s:
 * call this before slt_gate_add(), which copies it).  Returns
 * v->suppressed.  s may be NULL.  Works for any gate violation, not only
 * baseline ones. */
bool slt_suppressions_match(const struct slt_suppressions *s,
			    struct slt_violation *v);
/* The same for r->violations[from..] already added; their
 * suppress_reason then points into s: keep s until r is freed. */
void slt_suppressions_apply(const struct slt_suppressions *s,
			    struct slt_gate_result *r, size_t from);

/* Options of the comparison; zero-initialise for the defaults. */
struct slt_baseline_opts {
	/* Classes for members of the current layouts (e.g. `check
	 * --classes`): they win over the baseline's recorded class, and are
	 * the only source for members the baseline lacks.  NULL: the
	 * baseline's classes only. */
	const struct slt_classes *classes;
	/* Extra suppressions (--suppress FILE), applied with the baseline's
	 * own.  NULL: none. */
	const struct slt_suppressions *suppress;
	/* The violations' "source" field, usually the baseline's path; NULL:
	 * b->path. */
	const char *source;
};

/*
 * Compare the current layouts with b and append one violation per change
 * to r (rule ids "baseline-*", severities and messages documented in
 * structlint(1), BASELINE; each message carries the numbers: offsets and
 * sizes in bytes, cacheline numbers), then apply the suppressions (b's
 * own and o->suppress) to the violations it added.  The cacheline size is
 * b->cacheline_size.  cur holds the current definitions; for each baseline
 * struct the first current definition of that name is compared (of equal
 * size when several exist).  A struct cur lacks is a
 * baseline-struct-missing violation, not an error.  r->n_structs_checked
 * and r->n_checks are increased.  Returns 0 or SLT_ENOMEM.
 */
int slt_baseline_compare(const struct slt_baseline *b,
			 const struct slt_layout *cur,
			 const struct slt_baseline_opts *o,
			 struct slt_gate_result *r, struct slt_error *err);

/*
 * Load every struct b names from file (NULL: the running kernel's BTF,
 * SLT_KERNEL_BTF_PATH) with lo (NULL: defaults) and compare as
 * slt_baseline_compare().  A struct the file lacks (SLT_ENOTFOUND,
 * SLT_EDECLONLY) becomes a baseline-struct-missing violation; other load
 * errors (SLT_EIO, SLT_ENOTELF, SLT_ECORRUPT, ...) are returned with err
 * filled.
 */
int slt_baseline_compare_file(const struct slt_baseline *b, const char *file,
			      const struct slt_load_opts *lo,
			      const struct slt_baseline_opts *o,
			      struct slt_gate_result *r, struct slt_error *err);

#ifdef __cplusplus
}
#endif
#endif
