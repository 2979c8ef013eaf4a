/* SPDX-License-Identifier: MIT */
/*
 * A source of type information (DWARF or BTF), behind one small interface.
 * Internal: src/load/load.c picks and drives sources; src/load/dwarf.c and
 * src/load/btf.c implement them.
 */
#ifndef SLT_LOAD_SOURCE_H
#define SLT_LOAD_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "layout/types.h"
#include "structlint/error.h"
#include "structlint/layout.h"

struct slt_source;

/* Called by ops->list for every struct/union definition (SHALLOW type). */
typedef int (*slt_source_list_cb)(void *ctx, const struct slt_type *type);

/* One name's answer from ops->find_many: defs[0, n) as find() returns
 * them (defs malloc()ed, the caller frees the array), or rc SLT_ENOTFOUND
 * or SLT_EDECLONLY with n == 0. */
struct slt_found {
	struct slt_type **defs;
	size_t n;
	int rc;
};

struct slt_source_ops {
	/*
	 * Every definition of the struct or union `name`, or failing that of a
	 * typedef whose target (after typedefs and qualifiers) is one.  Each
	 * result is the struct/union node itself, fully translated (see
	 * layout/types.h), its name set to the typedef name when it is an
	 * anonymous struct reached through a typedef.  *out is a malloc()ed
	 * array the caller frees; the types are owned by the source.
	 * Definitions that are byte-for-byte the same layout may be returned
	 * once or several times (the caller deduplicates).
	 * Returns 0 with *n >= 1; SLT_ENOTFOUND when the name is absent;
	 * SLT_EDECLONLY when only declarations exist; other SLT_E* on
	 * malformed input.
	 */
	int (*find)(struct slt_source *src, const char *name,
		    struct slt_type ***out, size_t *n, struct slt_error *err);
	/*
	 * find() for names[0..n) at once, in one pass over the input: found[i]
	 * is name i's answer.  Returns 0 when every name was found; else the
	 * code of the first name (in order) that was not, with err filled for
	 * it; or another negative SLT_E* (malformed input; found[] then holds
	 * nothing).  NULL: the caller calls find() per name.
	 */
	int (*find_many)(struct slt_source *src, const char *const *names,
			 size_t n, struct slt_found *found,
			 struct slt_error *err);
	/*
	 * Optional (NULL: nothing to do).  After find() or find_many(), the
	 * caller says which of name's definitions, as returned (defs[0, n)),
	 * are distinct layouts: keep[i] is false when defs[i] lays out the
	 * same as an earlier one.  The source may remember it: the DWARF name
	 * index then records only the kept ones, so that a repeated lookup
	 * translates each distinct layout once (a struct in a kernel header
	 * has a copy in hundreds of compile units that differ only in what
	 * the layout does not show, such as whether a pointed-to struct is
	 * defined or only declared there).
	 */
	void (*distinct)(struct slt_source *src, const char *name,
			 const bool *keep, size_t n);
	/*
	 * Every named struct/union definition, the first of each name in the
	 * file's order (as pahole prints them without -C), fully translated,
	 * to cb; the node is valid only during the call.  NULL: the caller
	 * uses list() and find().
	 */
	int (*all)(struct slt_source *src, slt_source_list_cb cb, void *ctx,
		   struct slt_error *err);
	/*
	 * Call cb once per struct/union definition with a name (SHALLOW nodes:
	 * name, kind, size, decl_file/line).  Stops early and returns cb's
	 * value if cb returns non-zero.  Returns 0 or a negative SLT_E*.
	 */
	int (*list)(struct slt_source *src, slt_source_list_cb cb, void *ctx,
		    struct slt_error *err);
	/*
	 * Up to max names of existing struct/union definitions closest to
	 * name (edit distance, src/common/strdist.h), best first, for "did you
	 * mean" hints.  *out is a malloc()ed array of malloc()ed strings the
	 * caller frees.  A source may use any faster route than a full list
	 * scan as long as every name it returns really is a struct or union.
	 * Returns the count (>= 0) or a negative SLT_E*.
	 */
	int (*suggest)(struct slt_source *src, const char *name, size_t max,
		       char ***out, struct slt_error *err);
	/* Free the source and every type it made. */
	void (*close)(struct slt_source *src);
};

struct slt_source {
	const struct slt_source_ops *ops;
	enum slt_format format;
	const char *path;   /* the file actually read (may be a separate
			       debug file found through build-id/debuglink) */
};

/*
 * Open path as DWARF.  Follows build-id (debug_root/.build-id/xx/rest.debug)
 * and .gnu_debuglink (next to the file, its .debug/ folder, and debug_root +
 * its directory) when path has no DWARF itself.  Returns 0 and *out, or
 * SLT_EIO, SLT_ENOTELF, SLT_ENODEBUG (no DWARF anywhere: the hint says which
 * flag or package gives it), SLT_ECORRUPT, SLT_ENOMEM.
 */
int slt_source_open_dwarf(const char *path, const struct slt_load_opts *opts,
			  struct slt_source **out, struct slt_error *err);

/*
 * Open path as BTF: a raw BTF file (magic 0xeB9F, such as
 * /sys/kernel/btf/vmlinux) or an ELF file with a .BTF section.  Split BTF of
 * kernel modules (/sys/kernel/btf/MODULE) is read on top of
 * /sys/kernel/btf/vmlinux.  Same error codes as slt_source_open_dwarf();
 * SLT_ENODEBUG's hint names CONFIG_DEBUG_INFO_BTF.
 */
int slt_source_open_btf(const char *path, const struct slt_load_opts *opts,
			struct slt_source **out, struct slt_error *err);

/*
 * Open BTF from memory (data, size): raw BTF only.  For the fuzz targets
 * and tests.  The data is copied.  `name` is used in messages.
 */
int slt_source_open_btf_mem(const void *data, size_t size, const char *name,
			    struct slt_source **out, struct slt_error *err);

/* Open the raw split BTF at path on top of the raw base BTF at base_file,
 * as a kernel module's BTF on vmlinux's (slt_source_open_btf does this
 * for /sys/kernel/btf/MODULE with base /sys/kernel/btf/vmlinux).  Same
 * errors as slt_source_open_btf(); a failing base is named as such. */
int slt_source_open_btf_split(const char *path, const char *base_file,
			      struct slt_source **out, struct slt_error *err);

/* Open DWARF from an in-memory ELF image (copied).  For fuzzing/tests;
 * no separate debug file lookup. */
int slt_source_open_dwarf_mem(const void *data, size_t size, const char *name,
			      struct slt_source **out, struct slt_error *err);

/* True when the n bytes at p start with the BTF magic 0xeB9F, little- or
 * big-endian (include/uapi/linux/btf.h): a raw BTF file. */
bool slt_btf_magic(const unsigned char *p, size_t n);

/* What the file at path holds, cheaply (header and section names only):
 * bit 0 DWARF (.debug_info), bit 1 BTF (.BTF or raw BTF).  Negative SLT_E*
 * when the file cannot be read or is neither ELF nor raw BTF. */
#define SLT_HAS_DWARF 1
#define SLT_HAS_BTF 2
int slt_source_probe(const char *path, struct slt_error *err);

#endif
