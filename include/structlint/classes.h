/* SPDX-License-Identifier: MIT */
/*
 * structlint — member access classes given without samples.
 *
 * Two inputs say how members are used when no sampling data exists:
 *
 * 1. A classes file, written by hand (fixtures/classes/NAME.classes):
 *
 *        # comments run from '#' to the end of the line
 *        cgroup.rstat_cpu        read-mostly     STRUCT.MEMBER CLASS
 *        cgroup.bstat = hot-write                '=' is optional
 *        [mem_cgroup_per_node]                   a section: the struct
 *        memcg           = read-mostly           MEMBER CLASS inside it
 *        lruvec.lists    hot-write               member paths may nest
 *        rx_packets      hot-write:rx            who writes it: a label
 *
 *    Struct names may be written with or without "struct "/"union ".
 *    Classes: read-mostly, hot-write, mixed, cold, true-shared
 *    ('_' accepted for '-').  A written class may carry a writer label,
 *    CLASS:LABEL (letters, digits, '_', '-'): members written by
 *    different labels (threads, CPUs, producer and consumer) collide as
 *    write-write; unlabelled ones may share a writer.  A path inside a
 *    nested struct gives the class to that innermost member.
 *    A member given twice is an error (both
 *    lines named), as is an unknown class (with a suggestion).
 *
 * 2. The kernel's Documentation/networking/net_cachelines/NAME.rst tables
 *    (Linux 6.8+), in both forms they have had:
 *      - the early whitespace-aligned table (6.8, 6.9): a header line
 *        "Type Name fastpath_tx_access fastpath_rx_access Comments", a
 *        "..struct ..NAME" line naming the struct, types written with '_'
 *        for spaces, '-' for "not on this path";
 *      - the later reStructuredText simple table: "=====" rule lines give
 *        the column bounds, the struct name comes from the title
 *        ("tcp_sock struct fast path usage breakdown"), empty cells mean
 *        not on this path.
 *    Rows are matched by member name (the Name column, a trailing "[N]"
 *    array suffix dropped).  Access values map to classes per path:
 *        read_mostly               -> read-mostly
 *        read_write, write_mostly  -> hot-write
 *        -, n/a, empty             -> cold (not used on that fast path)
 *    and the member's class is hot-write when either path writes it,
 *    else read-mostly when either path reads it, else cold (a member
 *    written on one fast path shares the line with everything else that
 *    path touches, whatever the other path does: this is the rule by
 *    which the kernel placed such members in the *_read_write groups).
 *    Any other access value is an error naming the line.
 *
 * Ownership: slt_classes_read*() allocate a struct slt_classes that owns
 * every string in it; free it with slt_classes_free().
 */
#ifndef STRUCTLINT_CLASSES_H
#define STRUCTLINT_CLASSES_H

#include <stddef.h>

#include "structlint/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum slt_class {
	SLT_CLASS_NONE = 0,       /* no class known */
	SLT_CLASS_READ_MOSTLY,    /* read often, written rarely */
	SLT_CLASS_HOT_WRITE,      /* written often */
	SLT_CLASS_MIXED,          /* read and written often */
	SLT_CLASS_COLD,           /* rarely touched on the hot paths */
	SLT_CLASS_TRUE_SHARED,    /* written by several CPUs that all use it
				     (a shared refcount): layout cannot fix */
};

/* "read-mostly", "hot-write", "mixed", "cold", "true-shared"; "none" for
 * SLT_CLASS_NONE. */
const char *slt_class_name(enum slt_class c);
/* The class named name ('-' or '_' between words); -1 when unknown. */
int slt_class_parse(const char *name);

enum slt_classes_format {
	SLT_CLASSES_AUTO = 0,          /* net_cachelines when the text has a
					  fastpath_tx_access header, else a
					  classes file */
	SLT_CLASSES_FILE,              /* hand-written classes file */
	SLT_CLASSES_NET_CACHELINES,    /* Documentation/networking/
					  net_cachelines/NAME.rst */
};

/* Which fast path of a net_cachelines table a lookup asks about. */
enum slt_net_path {
	SLT_PATH_ANY = 0,   /* the combined class (see above) */
	SLT_PATH_TX,        /* fastpath_tx_access only */
	SLT_PATH_RX,        /* fastpath_rx_access only */
};

struct slt_class_entry {
	const char *struct_name;  /* tag without "struct ", e.g. "tcp_sock" */
	const char *member;       /* member name or path "a.b" */
	enum slt_class cls;       /* the member's class */
	enum slt_class tx, rx;    /* net_cachelines: per path (READ_MOSTLY,
				     HOT_WRITE or COLD); classes file:
				     SLT_CLASS_NONE */
	const char *type;         /* net_cachelines Type cell, else NULL */
	const char *comment;      /* net_cachelines Comments cell, or NULL */
	unsigned line;            /* 1-based line of the entry */
	const char *file;         /* the input it was read from (the name
				     given to the reader; added after v1) */
	const char *writer;       /* classes file: the writer label of
				     "hot-write:LABEL" (also mixed:LABEL,
				     true-shared:LABEL), else NULL (added
				     after v1) */
};

struct slt_classes {
	enum slt_classes_format format;  /* the format actually read */
	struct slt_class_entry *entries; /* in file order */
	size_t n;
	void *priv_;
};

/*
 * Read a classes file or a net_cachelines table from path.  fmt selects
 * the format (SLT_CLASSES_AUTO: detect).  For net_cachelines, struct_name
 * overrides the struct named by the file (NULL: take it from the
 * "..struct ..NAME" line or the title).  Returns 0 and *out, or
 * SLT_EIO, SLT_ECORRUPT (err->line names the line; the hint says what is
 * accepted), SLT_ENOMEM.  *out is NULL on failure.
 */
int slt_classes_read(const char *path, enum slt_classes_format fmt,
		     const char *struct_name, struct slt_classes **out,
		     struct slt_error *err);

/* Same for size bytes in memory (no NUL needed); name for messages. */
int slt_classes_read_mem(const void *data, size_t size, const char *name,
			 enum slt_classes_format fmt, const char *struct_name,
			 struct slt_classes **out, struct slt_error *err);

/*
 * The entry for member of struct_name ("struct x" or "x"), or NULL.  When
 * member is a path ("a.b[2].c") and has no entry of its own, the closest
 * enclosing member that has one is returned ("a.b", then "a"): a class
 * given for a member applies to everything inside it.  Array indices are
 * ignored ("a[2]" matches "a").
 */
const struct slt_class_entry *slt_classes_find(const struct slt_classes *c,
					       const char *struct_name,
					       const char *member);

/* The class of member on path (SLT_PATH_ANY for the combined class), or
 * SLT_CLASS_NONE when no entry matches.  For classes-file entries every
 * path gives the entry's class. */
enum slt_class slt_classes_lookup(const struct slt_classes *c,
				  const char *struct_name, const char *member,
				  enum slt_net_path path);

/*
 * Merge src into dst (for several --classes files): each entry of src is
 * copied (strings owned by dst) unless dst already gives that struct's
 * member the same class.  A member that src and dst give different
 * classes is an error: SLT_EUSAGE with err->file/err->line at src's
 * entry and the message naming dst's FILE:LINE too; dst is then left
 * with the entries merged before it.  Returns 0, SLT_EUSAGE or
 * SLT_ENOMEM.  dst keeps its format.
 */
int slt_classes_merge(struct slt_classes *dst, const struct slt_classes *src,
		      struct slt_error *err);

/* Free c and everything in it.  NULL is a no-op. */
void slt_classes_free(struct slt_classes *c);

#ifdef __cplusplus
}
#endif
#endif
