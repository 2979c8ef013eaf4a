/* SPDX-License-Identifier: MIT */
/*
 * structlint — the layout advisor: reorderings and CACHELINE_PADDING
 * proposals with their cost, from a layout and its analysis.
 *
 * Units: offsets and sizes in bytes; scores in the unit of the analysis'
 * score basis (include/structlint/analysis.h); slab figures in bytes,
 * objects and page orders.
 *
 * Rules every proposal keeps (checked, not assumed): members with forced
 * alignment, existing zero-size padding (CACHELINE_PADDING) and cacheline
 * group markers stay anchored unless opts->move_anchors (a forced-aligned
 * last member then still stays last, unless opts->move_last); pinned members keep
 * their offset, and so does the first member unless opts->move_first; --keep-together groups stay adjacent and in order;
 * bitfields move as whole storage units; unions and nested structs move
 * whole, except an anonymous struct that holds every member of its level
 * (the top level may end in a flexible array after it): its members are
 * reordered inside it, recursively (6.1 mm_struct); a flexible array stays last; every offset is a multiple of the
 * member's alignment; the size follows C rules (rounded up to the struct's
 * alignment).
 */
#ifndef STRUCTLINT_ADVICE_H
#define STRUCTLINT_ADVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/analysis.h"
#include "structlint/error.h"
#include "structlint/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SLT_SCHEMA_ADVICE "structlint.advice/v1"

enum slt_proposal_kind {
	SLT_PROPOSAL_MINIMAL = 1,  /* relocate the fewest members */
	SLT_PROPOSAL_REGROUP,      /* read-mostly group, per-writer hot
				      groups, cold members filling holes */
	SLT_PROPOSAL_PADDING,      /* CACHELINE_PADDING between groups, no
				      reordering */
	SLT_PROPOSAL_PARETO,       /* best layout within a byte budget
				      (0, +64, +128, ...) */
	SLT_PROPOSAL_SIZE,         /* smallest size, no sharing objective
				      (pahole --reorganize's goal) */
	/* Added after v1 (additive): */
	SLT_PROPOSAL_ISOLATE,      /* one hot-written member alone in an
				      anonymous struct aligned to the line
				      (`struct { ... }
				      ____cacheline_aligned_in_smp;`, as
				      6.2+ mm_struct wraps mm_count), the
				      other members in their order: the
				      position with the lowest cost */
};

struct slt_advice_opts {
	unsigned cacheline_size;   /* bytes; 0 = the analysis' */
	unsigned separation;       /* bytes two groups must be apart: the
				      line size, or 128 for adjacent-line
				      prefetch pairs; 0 = cacheline_size */
	const char *const *pins;   /* member names that keep their offset
				      (e.g. the first member, container_of) */
	size_t n_pins;
	const char *const *const *keep_together; /* NULL-terminated name
				      lists that stay adjacent, in order */
	size_t n_keep_together;
	bool frozen;               /* ABI-frozen: findings only, no proposal */
	bool move_anchors;         /* allow moving aligned members/markers */
	bool size_only;            /* only SLT_PROPOSAL_SIZE */
	size_t max_proposals;      /* 0 = 5 */
	unsigned nr_cpus;          /* for the SLUB order (0 = this machine's) */
	unsigned slub_max_order;   /* 0 = 3 (PAGE_ALLOC_COSTLY_ORDER) unless
				      slub_max_order_set */
	unsigned page_size;        /* 0 = 4096 */
	/* Added after v1 (additive): */
	unsigned slub_rule;        /* enum slt_slub_rule: which kernel's
				      calculate_order(); 0 = v6.1's */
	bool move_first;           /* the first member may move; by default
				      it is pinned at offset 0, where
				      container_of() users and code that
				      casts the struct pointer to its first
				      member's type expect it */
	bool slub_max_order_set;   /* slub_max_order is taken as given, 0
				      included (slub_max_order=0 boots) */
	bool user_space;           /* (added) the C declaration and the
				      source diff for a user-space program:
				      GNU C's aligned attribute with the line
				      size as STRUCTLINT_CACHELINE_BYTES
				      instead of the kernel's
				      CACHELINE_PADDING() and
				      ____cacheline_aligned_in_smp, and C11
				      _Static_assert; default: the kernel's
				      forms (include/linux/cache.h) */
	bool move_last;            /* with move_anchors: a forced-aligned
				      last member may move too; by default
				      it stays last (x86 task_struct's
				      `thread` is sized at run time: "This
				      must be the last member") */
	unsigned base_align;       /* (added) bytes: the instance's base is
				      only known to be a multiple of this (a
				      power of two; 0 or the separation and
				      up: line-aligned): every layout is
				      priced at each start it may have
				      within a separation block, the worst
				      one counting, so a proposal's
				      separation holds for every base */
	uint64_t base_offset;      /* (added) bytes: the instance sits this far
				      into a container whose base is a
				      multiple of base_align (--in
				      CONTAINER.MEMBER): its starts are
				      base_offset + k x base_align */
	bool embedded;             /* (added) the instance is a member of a
				      container (--in): it has no slab of its
				      own, and a proposal that raises its
				      alignment moves it in the container */
};

/*
 * The two calculate_order() rules of 6.x kernels (mm/slub.c).  They agree
 * for most sizes and differ for objects above slab / 4 at slub_max_order:
 *   SLT_SLUB_RULE_6_1: v6.1..v6.7: for min_objects down to 2, fractions
 *     16, 8, 4 from get_order(min_objects * size); then one object with any
 *     waste up to slub_max_order, then up to MAX_ORDER - 1 (10).
 *   SLT_SLUB_RULE_6_8: v6.8+ ("attempt to find layouts up to 1/2 waste"):
 *     min_order = get_order(min_objects * size), fractions 16, 8, 4, 2 from
 *     it, then get_order(size) up to MAX_PAGE_ORDER (10).
 */
enum slt_slub_rule {
	SLT_SLUB_RULE_6_1 = 0,
	SLT_SLUB_RULE_6_8 = 1,
};

/*
 * Slab cost of an object size: the kmalloc size class it lands in
 * (kmalloc-8 ... kmalloc-8k, with the 96 and 192 classes; above 8k the
 * page allocator, order get_order(size)), and for a
 * dedicated cache SLUB's objects per slab and slab order, computed as
 * mm/slub.c calculate_order() does (min_objects = 4 * (fls(nr_cpus) + 1),
 * fraction 16 -> 8 -> 4 of wasted space, capped at slub_max_order).
 */
struct slt_slab_cost {
	uint64_t kmalloc_class;     /* bytes; 0 above KMALLOC_MAX_CACHE_SIZE
				       (2 pages: SLUB's KMALLOC_SHIFT_HIGH =
				       PAGE_SHIFT + 1, include/linux/slab.h),
				       where kmalloc() takes pages from the
				       page allocator: see page_order */
	unsigned order;             /* pages = 1 << order */
	unsigned objects_per_slab;
	uint64_t waste_per_slab;    /* bytes of the slab not holding object
				       bytes: the leftover plus each
				       object's alignment rounding */
	/* Added after v1 (additive): */
	bool page_allocator;        /* kmalloc() of this size goes to the
				       page allocator (kmalloc_class 0) */
	unsigned page_order;        /* then get_order(size): 1 << page_order
				       pages; 0 otherwise */
	uint64_t kmalloc_bytes;     /* bytes kmalloc() takes: kmalloc_class,
				       or page_size << page_order */
	bool no_slab_cache;         /* larger than SLUB's largest order
				       (mm/slub.c calculate_sizes fails):
				       no kmem_cache can hold it; order,
				       objects_per_slab and waste 0 */
	uint64_t object_size;       /* bytes of one slab object: the size
				       rounded up to sizeof(void *) and to
				       cache_align (calculate_sizes()) */
	uint64_t slab_bytes;        /* page size << order: with
				       objects_per_slab, the slab bytes per
				       object, which compares two orders */
	uint32_t cache_align;       /* the cache's object alignment assumed
				       (the align argument of slt_slab_cost,
				       rounded up to sizeof(void *)) */
	bool hwcache_align;         /* set by the caller: the alignment is
				       SLAB_HWCACHE_ALIGN's
				       (slt_slab_cache_align()) */
	bool embedded;              /* set by the caller: the instance is a
				       member of a container (--in), which
				       is what a slab holds: these figures
				       are not its cost */
};
int slt_slab_cost(uint64_t size, uint32_t align,
		  const struct slt_advice_opts *opts, struct slt_slab_cost *out);
/*
 * The object alignment of the kmem_cache assumed for a struct of size
 * bytes and type alignment type_align: the binary does not say which cache
 * allocates it (mm_struct, task_struct, sock, the per-fs inode caches each
 * have their own kmem_cache_create()), so it is inferred from where the
 * instance is assumed to start.  Line-aligned (base_align 0 or >= line,
 * the default): SLAB_HWCACHE_ALIGN, as mm/slab_common.c
 * calculate_alignment() gives it (the line halved while size fits in half
 * of it, at least type_align), *hwcache true.  Only a multiple of
 * base_align (--base-align, below line): a cache without it, objects
 * aligned to base_align whatever the type's alignment (calculate_sizes()
 * honours the align argument, not __alignof__), *hwcache false.
 */
uint32_t slt_slab_cache_align(uint64_t size, uint32_t type_align, unsigned line,
			      unsigned base_align, bool *hwcache);

/*
 * Added after v1 (additive): the cache lines of the struct one hot code
 * path touches before and after a proposal.  A code path is a code
 * location of the profile: its function (the symbol without its "+0x..."
 * offset), else its source "file.c:line"; it touches every line of each
 * member it has samples on.  Only with a profile that names code
 * locations (none with --classes alone).
 */
struct slt_path_lines {
	const char *path;          /* function or "file.c:line" */
	uint64_t samples;          /* loads + stores of the path on the
				      struct's members */
	uint64_t lines_before, lines_after; /* distinct cachelines touched */
};

/* Paths listed per proposal (slt_proposal.paths): the busiest ones. */
#define SLT_PATHS_SHOWN 8

/* Added after v1 (additive): a member a proposal moves out of the kernel
 * cacheline group it is in (__cacheline_group_begin__NAME ..
 * __cacheline_group_end__NAME) into another group.  Only with
 * move_anchors (the markers move but every member stays in its group
 * otherwise) and only a member whose class contradicts its group's: a
 * written member of a read-mostly group into a written group, a
 * read-mostly member of a written group into a read-mostly group. */
struct slt_group_move {
	size_t member;              /* index into the original layout's
				       members (the unit's first) */
	const char *from, *to;      /* the groups' NAMEs */
	const char *cls;            /* the member's class: "written" or
				       "read-mostly" (slt_group_class_name()) */
};

/* One proposal.  Owned by the struct slt_advice it is part of. */
struct slt_proposal {
	enum slt_proposal_kind kind;
	struct slt_struct layout;   /* the proposed layout, pahole-printable
				       (members with new offsets, padding
				       members inserted, holes recomputed) */
	size_t *moved;              /* indices (into the original layout's
				       members, ascending) of the top-level
				       members relocated: all but a longest
				       run of top-level members kept in the
				       original order (members of a unit
				       counted one by one, so a reversing
				       --keep-together relocates one; nested
				       members are not listed, they go with
				       their top-level member).  n_moved is
				       the count the summary, the text's
				       `moved:` line and JSON "moved" give;
				       empty for a padding-only proposal
				       unless --keep-together reorders. */
	size_t n_moved;
	uint64_t size_before, size_after;          /* bytes */
	uint64_t lines_before, lines_after;        /* cachelines */
	int64_t bytes_added;                       /* size_after - size_before */
	double score_before, score_after;          /* the findings' estimator */
	double cost_before, cost_after;            /* the advisor's objective */
	struct slt_slab_cost slab_before, slab_after;
	const char *c_decl;         /* the new C declaration, with
				       CACHELINE_PADDING(_padN_); lines and
				       static_assert()s that lock it in
				       (opts->user_space: the user-space
				       forms) */
	const char *summary;        /* one line for humans */
	/* Added after v1 (additive): */
	size_t *shifted;            /* indices (ascending) of the top-level
				       members whose offset changed though
				       they were not relocated: shifted by
				       inserted padding or by relocated
				       neighbours */
	size_t n_shifted;
	struct slt_path_lines *paths; /* the n_paths busiest code paths (at
				       most SLT_PATHS_SHOWN), most samples
				       first; NULL without code locations */
	size_t n_paths;
	size_t n_paths_all;         /* code paths in the profile */
	uint64_t path_lines_before, path_lines_after; /* sums of the lines
				       touched over all n_paths_all paths */
	bool user_space;            /* c_decl and the source diff use the
				      user-space forms
				      (slt_advice_opts.user_space) */
	const char *isolated;       /* SLT_PROPOSAL_ISOLATE: the name of the
				       member put alone in the line-aligned
				       anonymous struct (its first member's
				       when a unit of several); NULL
				       otherwise */
	struct slt_group_move *group_moves; /* members moved into another
				       kernel group, in proposal order */
	size_t n_group_moves;
	/* Added (additive): top-level members (indices into the original
	 * layout, ascending) the proposal relocates or shifts that have no
	 * class (nor any member inside them) and now share a line with a
	 * read-mostly or written member they shared none with before: the
	 * model takes them for untouched, so the proposal may be wrong for
	 * them.  NULL when none. */
	size_t *unclassed;
	size_t n_unclassed;
	/* Added (additive): of moved[], the members with no class whose move
	 * only fills holes (regroup): put back after their original
	 * predecessor, the layout shares no more.  NULL when none. */
	size_t *compaction;
	size_t n_compaction;
	/* --in CONTAINER.MEMBER (set by the caller; NULL: not embedded):
	 * the spec, and the container's size, lines and slab cost (its own
	 * kmem_cache, the same cache model as slab_before/after) before and
	 * after the instance's size changes by bytes_added, the container's
	 * members after it placed again with C rules (borrowed string) */
	const char *container;
	uint64_t container_size_before, container_size_after;
	uint64_t container_lines_before, container_lines_after;
	struct slt_slab_cost container_slab_before, container_slab_after;
};

struct slt_advice {
	const struct slt_analysis *analysis;  /* borrowed */
	struct slt_proposal *proposals;       /* best first */
	size_t n_proposals;
	const char *note;           /* why nothing is proposed, or why
				       every proposal leaves sharing (the
				       constraints, the options that lift
				       them), or "" */
	void *priv_;
	/* Added (additive): NULL, or why the layout is suspect (a zero-size
	 * member that is not a flexible array followed by a gap its
	 * neighbour's alignment does not explain: sizes that disagree with
	 * the offsets, e.g. debug info misread); then nothing is proposed
	 * and note says the same. */
	const char *suspect;
};

/*
 * Propose layouts for a->layout that remove a's findings.  Returns 0 and
 * *out (free with slt_advice_free()); no proposal (note says why) when the
 * struct is frozen, its layout is suspect (slt_advice.suspect), nothing is
 * fixable by layout (true sharing only), or it is already best.  A proposal
 * that would not keep every member's name, type and size is an internal
 * error (SLT_EUNSUPPORTED, never emitted).  SLT_EUSAGE for pins/keep-together naming unknown
 * members or contradicting each other; SLT_ENOMEM.
 */
int slt_advise(const struct slt_analysis *a, const struct slt_advice_opts *opts,
	       struct slt_advice **out, struct slt_error *err);
void slt_advice_free(struct slt_advice *advice);

/*
 * Added after v1 (additive): proposal p of orig as a unified diff (diff -u /
 * git format, 3 lines of context, `--- a/PATH` / `+++ b/PATH` with PATH
 * relative to source_root, so `patch -p1` or `git apply` applies it there)
 * of the header that defines orig.  The header is orig->decl_file tried
 * under source_root as is, then without its leading components one by one
 * (kernel DWARF names "debian/build/.../include/linux/x.h" or
 * "./include/..."); the definition starts on orig->decl_line.  Each member
 * declaration keeps its own lines (comments and blank lines above it, a
 * multi-line or nested anonymous struct/union declaration whole); they are
 * put in the proposal's order with `CACHELINE_PADDING(_padN_);` lines where
 * padding was inserted (the file's indentation), and a zero-width bitfield
 * before a bitfield run that no longer follows its original predecessor,
 * as slt_advice_emit_c() does.
 *
 * *out: malloc()ed, free() it; "" when the source already has the
 * proposal's order.  Returns 0 or: SLT_EUSAGE (no decl_file/decl_line, e.g.
 * a BTF layout; the source does not match the layout: no `struct NAME {`
 * on decl_line, a member missing, extra or renamed, or of another plain
 * C type than the DWARF's (base type words, signedness and pointer
 * levels; typedef'd and macro'd types are not compared); preprocessor
 * conditionals inside the body; members declared together, as in
 * `int a, b;`, that the proposal separates; err names file:line and what
 * differs), SLT_EIO (the header is not found or unreadable),
 * SLT_EUNSUPPORTED (a body too large to diff), SLT_ENOMEM.
 */
int slt_advice_diff(const struct slt_proposal *p, const struct slt_struct *orig,
		    const char *source_root, char **out, struct slt_error *err);

/* A positional initializer of the struct: FILE (relative to the source
 * root) and line. */
struct slt_posinit {
	char *file;
	unsigned line;
};

/*
 * The initializers of struct name in the .c and .h files under
 * source_root that are positional (`struct NAME x = { 1, 2 }`,
 * `(struct NAME){ 1, 2 }`, arrays of it whose elements are; not `{}`,
 * `{ 0 }` or designated `{ .a = 1 }`): a reorder changes what they
 * initialize.  Heuristic, on tokens: typedef names declared under the
 * root (`typedef struct NAME A;`) count as the struct; macros and
 * typedefs of typedefs are not seen.  *out (malloc()ed, sorted by file and line; free with
 * slt_advice_positional_free()), *n.  Returns 0 or SLT_ENOMEM.
 */
int slt_advice_positional_inits(const char *source_root, const char *name,
				struct slt_posinit **out, size_t *n, struct slt_error *err);
void slt_advice_positional_free(struct slt_posinit *p, size_t n);

#ifdef __cplusplus
}
#endif
/* Added (additive): the user-space form's name of the line size (the C
 * declaration, the diff, the layout view), and the type of the padding
 * members a proposal inserts. */
#define SLT_ADV_LINE_CONST "STRUCTLINT_CACHELINE_BYTES"
#define SLT_ADV_PAD_TYPE "struct cacheline_padding"

#endif
