/* SPDX-License-Identifier: MIT */
/*
 * Internals of the layout advisor (src/advice): movable units, plans (an
 * order of units plus inserted CACHELINE_PADDING), relayout, cost and
 * search.  Internal to src/advice.
 *
 * Units: offsets and sizes in bytes; costs in the unit of the analysis'
 * score basis (include/structlint/analysis.h) plus the line price.
 */
#ifndef SLT_ADVICE_INT_H
#define SLT_ADVICE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "structlint/advice.h"
#include "structlint/analysis.h"
#include "structlint/layout.h"
#include "structlint/rules.h"

/* slt_adv_unit.flags */
enum slt_adv_unit_flags {
	SLT_ADV_ANCHORED = 1u << 0, /* keeps its place in the order, at
				       the offset C gives it, never past its
				       original one (a pin: exactly it,
				       slt_adv_anchor_at()): forced
				       alignment above 8 bytes, zero-size padding member or
				       group marker (unless move_anchors), or
				       a pin */
	SLT_ADV_PINNED = 1u << 1,   /* anchored by opts->pins */
	SLT_ADV_LAST = 1u << 2,     /* flexible array: stays last */
	SLT_ADV_BITS = 1u << 3,     /* holds bitfields: its members keep their
				       relative offsets and bits; emit_c
				       separates two such units with a
				       zero-width bitfield of the next unit's
				       storage type so the compiler does not
				       pack them together */
	SLT_ADV_MARKER = 1u << 4,   /* zero-size padding member or group
				       marker */
	SLT_ADV_FENCE = 1u << 5,    /* with SLT_ADV_ANCHORED: a kernel
				       cacheline group's marker under
				       move_anchors: it keeps its place in
				       the order (a segment boundary, so
				       every member stays inside the group
				       it is in, as the kernel's
				       CACHELINE_ASSERT_GROUP_MEMBER
				       checks) but not its offset: it lands
				       where C puts it */
	SLT_ADV_ROAMS = 1u << 6,    /* may also sit in other segments than
				       its own (slt_adv_seg_ok()): outside
				       every kernel group it may go to any
				       gap between groups; inside a group
				       whose class its own contradicts, to a
				       group of its class */
	SLT_ADV_KEPT = 1u << 7,     /* a --keep-together list's unit */
	SLT_ADV_FIRST = 1u << 8,    /* with SLT_ADV_PINNED: pinned at 0 as
				       the struct's first member (not by
				       --pin; --move-first lifts it) */
};

/* Role of a unit for the grouping heuristics (from its leaves' classes). */
enum slt_adv_role {
	SLT_ADV_COLD = 0,      /* cold or unknown */
	SLT_ADV_READ,          /* read-mostly */
	SLT_ADV_WRITE,         /* hot-write, mixed or true-shared */
};

/* A leaf member of a unit, for the per-line cost. */
struct slt_adv_leaf {
	uint64_t rel;          /* bytes from the unit start */
	uint64_t size;         /* bytes, >= 1 */
	bool read, write;      /* classed read-mostly / written */
	double loads, stores;  /* samples */
	const struct slt_cpu_access *cpus; /* borrowed from the profile */
	size_t n_cpus;
	double self_cross;     /* slt_cpu_cross(cpus, cpus) */
	size_t group;          /* slt_member_unit(): pairs within one group
				  are not counted (true sharing), on every
				  basis, as in the findings */
	const char *label;     /* writer label of a given class, or NULL */
	bool given_write;      /* its given class (--classes) writes: on a
				  profile without stores (no_stores), the
				  writer its line's HITM loads show */
	double hitm;           /* loads that hit a modified line (HITM) */
	const struct slt_code_location *locs; /* its member's code locations
				  (borrowed from the profile): accesses
				  made together are not paired (pairs.c) */
	size_t n_locs;
};

/* Classes basis: a run of a unit's classed leaves of one group with the
 * same class flags and label whose bytes touch (a composite given one
 * class is one span, not one per leaf): what the line cost needs, in leaf
 * order, so each group's spans on a line come in one run. */
struct slt_adv_span {
	uint64_t rel, size;    /* bytes from the unit start, >= 1 */
	size_t group;          /* as slt_adv_leaf.group */
	bool read, write;
	const char *label;
};

/*
 * A unit: top-level members of the original layout that move together
 * (one member; a bitfield run with whatever shares its storage; a union or
 * nested struct whole; a --keep-together list).  Its members keep their
 * offsets relative to the unit start, which is placed on a multiple of
 * align.
 */
struct slt_adv_unit {
	size_t *top;           /* indices into orig->members of its top-level
				  members, in unit order */
	size_t n_top;
	uint64_t *rel;         /* parallel to top: offset of each from the
				  unit start, bytes */
	uint64_t size;         /* bytes from the unit start to the end of its
				  last byte (bitfields: the last used byte,
				  which is where the compiler puts the next
				  member) */
	uint32_t align;        /* bytes, >= 1 */
	uint64_t orig_offset;  /* bytes, in the original layout */
	uint32_t flags;        /* enum slt_adv_unit_flags */
	enum slt_adv_role role;
	uint32_t n_read, n_write; /* leaves classed read-mostly / written */
	double loads, stores;  /* samples on its leaves (0 without a profile) */
	struct slt_cpu_access *cpus; /* per-CPU sums over its leaves, sorted
				  by cpu (NULL without per-CPU data) */
	size_t n_cpus;
	double self_cross;     /* the estimator's true-sharing term of its
				  own members: sum over leaves of
				  cross(leaf, leaf) */
	uint64_t *paths;       /* bitmask words: the code paths (indices into
				  slt_adv_units.paths) touching it */
	const char *name;      /* first member's name, for messages */
	struct slt_adv_leaf *leaves; /* its classed or sampled leaves */
	size_t n_leaves;
	struct slt_adv_span *spans;  /* classes basis: its leaves merged */
	size_t n_spans;
	int32_t kgroup;        /* index into slt_adv_units.groups of the
				  kernel cacheline group it is in, or whose
				  marker it is; -1: none */
	uint32_t seg;          /* anchored units before it in the original:
				  a unit stays between the same two anchors
				  (an anchor is a group boundary; moving
				  members across CACHELINE_PADDING is what
				  pahole --reorganize gets wrong) */
};

/* The units of one layout and the code paths of its profile. */
struct slt_adv_units {
	const struct slt_analysis *a;  /* borrowed */
	const struct slt_struct *orig; /* a->layout */
	struct slt_adv_unit *u;        /* in original offset order */
	size_t n;
	size_t n_movable;              /* units without SLT_ADV_ANCHORED/LAST */
	unsigned line;                 /* cacheline size, bytes */
	unsigned separation;           /* bytes groups are kept apart */
	size_t n_paths;                /* distinct code locations (symbol) */
	size_t path_words;             /* uint64_t words per unit's paths */
	double *path_weight;           /* share of accesses per path, 0..1 */
	double total;                  /* accesses (samples), or leaves on the
					  classes basis */
	struct slt_arena *ar;          /* owns everything above */
	/* Anonymous structs opened (units.c): a chain of orig->members
	 * indices, outermost first, each the only member with bytes of its
	 * level (the top level may end in a flexible array): their
	 * members are the units, reordered inside them as at top level;
	 * relayout re-wraps them.  level: the innermost one, whose members
	 * are the units (-1 when none is opened: the top level). */
	const size_t *opened;
	size_t n_opened;
	int32_t level;
	/* The kernel's cacheline groups at the units' level
	 * (__cacheline_group_begin__NAME .. __cacheline_group_end__NAME,
	 * slt_groups_find()), in member order. */
	struct slt_cl_group *groups;
	size_t n_groups;
	/* Per segment (0 .. anchored units): the kernel group it lies
	 * inside (-1: none) and its block (non-fence anchors before it: a
	 * roaming unit never crosses one). */
	int32_t *seg_group;
	uint32_t *seg_block;
	uint32_t *seg_zone;     /* n_segs: anchored markers (zero-size
				   padding, kernel group markers) passed
				   before the segment: a minimal move
				   crosses anchors within one zone only */
	size_t n_segs;
	/* The instance's possible starts within a separation block (bytes;
	 * slt_advice_opts.base_align): {0} for a line-aligned instance;
	 * cost.c prices every layout at each, the worst counting. */
	uint32_t *origins;
	size_t n_origins;
};

/* Whether us prices layouts at starts other than a line boundary (cost.c;
 * exact.c and hotdp.c do not model it). */
#define SLT_ADV_SHIFTED(us) ((us)->n_origins > 1 || ((us)->n_origins && (us)->origins[0]))

/* kgroups.c, for slt_adv_units_build(): us->groups and each unit's
 * kgroup (with move_anchors the groups' markers become fences), then,
 * once segments are numbered (n of them), us->seg_group, seg_block and
 * the units that roam.  Return 0 or SLT_ENOMEM. */
int slt_adv_kernel_groups(struct slt_adv_units *us, bool move_anchors);
int slt_adv_segments(struct slt_adv_units *us, size_t n);

/*
 * Whether unit u may sit in segment seg (kgroups.c): its own, or for a
 * SLT_ADV_ROAMS unit of the same block, a segment outside every kernel
 * group when u is outside them all, or one inside a group of u's class
 * when u's group has the other class (read-mostly vs written).  With
 * cross, also any segment of the same zone: crossing forced-aligned
 * anchors is legal C wherever slt_adv_place() keeps their offsets (6.1
 * rq: a member moved past the 32-byte aligned nohz_csd into the hole
 * behind it), while an anchored CACHELINE_PADDING or group marker stays a
 * boundary (the kernel's separation, CACHELINE_ASSERT_GROUP_MEMBER).
 */
bool slt_adv_seg_ok(const struct slt_adv_units *us,
		    const struct slt_adv_unit *u, uint32_t seg, bool cross);

/* Where anchored unit u (not a fence) lands when C would put it at c (the
 * first multiple of its alignment after what precedes it): the emitted C
 * holds nothing in place, so a forced-aligned member or marker lands at c
 * (never past its original offset, which it keeps as a bound); a pin must
 * land on its own offset exactly; a unit whose original start its
 * alignment does not divide (packed) keeps that start.  False: the plan
 * is not legal (relayout.c). */
bool slt_adv_anchor_at(const struct slt_adv_unit *u, uint64_t c, uint64_t *o);

/* Whether unit u placed at offset o (bytes from the struct start) would
 * straddle a line boundary although it fits in one line, for a
 * --keep-together unit (SLT_ADV_KEPT) only: the members the user keeps
 * together stay on one line, so the search cannot split them to price
 * their own pairs away (relayout.c).  Judged at every start the instance
 * may have (us->origins: --base-align below the line, --in): a unit no
 * larger than the starts' spacing must lie within one block of that
 * spacing, so that it is on one line at each; a larger one straddles at
 * some start wherever it is, and the rule leaves it out. */
bool slt_adv_kept_straddles(const struct slt_adv_units *us,
			    const struct slt_adv_unit *u, uint64_t o);

/* slt_adv_plan.pad values */
enum {
	SLT_ADV_PAD_NONE = 0,
	SLT_ADV_PAD_LINE = 1,  /* a CACHELINE_PADDING member before the unit */
	SLT_ADV_PAD_WRAP = 2,  /* the unit alone in an anonymous struct
				  aligned to the line (`struct { ... }
				  ____cacheline_aligned_in_smp;`): it
				  starts a line and the next unit starts
				  the line after its end (advise.c's
				  ISOLATE proposals) */
};

/*
 * Units of a->layout under opts (pins, keep-together, move_anchors).
 * Returns 0, SLT_EUSAGE (unknown or contradictory names, err says which)
 * or SLT_ENOMEM.  Free with slt_adv_units_free().
 */
int slt_adv_units_build(const struct slt_analysis *a,
			const struct slt_advice_opts *opts,
			struct slt_adv_units *out, struct slt_error *err);
void slt_adv_units_free(struct slt_adv_units *us);

/*
 * A plan: every unit once, in the new order, and before each the number
 * of CACHELINE_PADDING members to insert (0 or 1: one is
 * `struct cacheline_padding _padN_;`, zero size, aligned to the line size,
 * as include/linux/cache.h's CACHELINE_PADDING() expands on x86-64:
 * ____cacheline_internodealigned_in_smp = L1_CACHE_BYTES there).
 */
struct slt_adv_plan {
	size_t *order;          /* unit indices, n of them */
	uint8_t *pad;           /* parallel to order: SLT_ADV_PAD_* */
	size_t n;
	bool cross;             /* units may sit across anchors that are no
				   kernel group's markers (slt_adv_seg_ok()):
				   the minimal search's plans, whose moves are
				   few; the other searches keep each unit
				   between its own two anchors */
};

/* pr->unclassed, n_unclassed (unclassed.c) for plan p placed at off[],
 * state[] from slt_adv_relocated() (0: the member did not move); from ar.
 * 0 or SLT_ENOMEM. */
int slt_adv_unclassed(struct slt_arena *ar, const struct slt_adv_units *us,
		      const struct slt_adv_plan *p, const uint64_t *off,
		      const uint8_t *state, struct slt_proposal *pr);

/*
 * Place a plan with C rules: each unit at the first multiple of its
 * alignment at or after the end of the previous one (after a padding
 * member aligned to the line size when pad[i]); anchored units must land
 * exactly on their original offset, in their original order, every other
 * unit between the same two anchors as originally (slt_adv_unit.seg), the
 * SLT_ADV_LAST unit last.
 * off[n] (parallel to order) get the unit offsets, *size the struct size
 * rounded up to its alignment (the original's, or the line size when
 * padding was inserted).  Returns true when legal.
 */
bool slt_adv_place(const struct slt_adv_units *us,
		   const struct slt_adv_plan *p, uint64_t *off,
		   uint64_t *size);

/*
 * The plan as a layout: members of orig at their new offsets (inline
 * children follow their parent), padding members `_padN_` of type
 * "struct cacheline_padding" inserted, holes, padding and pahole's
 * summary recomputed (slt_struct_summarize()).  Allocated from ar.
 * *moved gets the indices into orig->members of members whose offset
 * changed.  Returns 0, SLT_EUSAGE (plan not legal) or SLT_ENOMEM.
 */
int slt_adv_relayout(struct slt_arena *ar, const struct slt_adv_units *us,
		     const struct slt_adv_plan *p, struct slt_struct *out,
		     size_t **moved, size_t *n_moved);

/* pr->group_moves of plan p (kgroups.c): each unit placed in a segment
 * of another kernel group than its own, from ar.  0 or SLT_ENOMEM. */
int slt_adv_group_moves(struct slt_arena *ar, const struct slt_adv_units *us,
			const struct slt_adv_plan *p, struct slt_proposal *pr);

/*
 * Relocated and shifted top-level members of plan p placed at off (from
 * slt_adv_place()): the definition of slt_proposal.moved / shifted
 * (advice.h), computed only here (moved.c).  *n_reloc, *n_shifted: their
 * numbers; state (may be NULL; one byte per member of us->orig, only
 * top-level entries written): SLT_ADV_RELOCATED, SLT_ADV_SHIFTED or 0.
 * Returns 0 or SLT_ENOMEM.
 */
enum { SLT_ADV_RELOCATED = 1, SLT_ADV_SHIFTED = 2 };
int slt_adv_relocated(const struct slt_adv_units *us,
		      const struct slt_adv_plan *p, const uint64_t *off,
		      uint8_t *state, size_t *n_reloc, size_t *n_shifted);

/*
 * Code path of a profile location (paths.c): its function (the symbol
 * without a "+0x..." offset; allocated from ar when cut), else its source;
 * NULL when it has neither (or memory ran out).  units.c's paths and the
 * proposals' per-path lines use it.
 */
const char *slt_adv_path_key(struct slt_arena *ar,
			     const struct slt_code_location *l);

/*
 * pr->paths, n_paths, n_paths_all, path_lines_before/after of plan p
 * placed at off (paths.c), allocated from ar; all 0 without a profile
 * or code locations.  Returns 0 or SLT_ENOMEM.
 */
int slt_adv_path_lines(struct slt_arena *ar, const struct slt_adv_units *us,
		       const struct slt_adv_plan *p, const uint64_t *off,
		       struct slt_proposal *pr);

/* Weights of the objective (cost.c). */
struct slt_adv_weights {
	double coherence;   /* per unit of the estimator */
	double locality;    /* per line a code path touches, x its share */
	double line_price;  /* per cache line of struct size */
	double byte_price;  /* per byte of struct size (tie-breaker between
			       layouts of as many lines) */
};
void slt_adv_weights_default(const struct slt_adv_units *us,
			     struct slt_adv_weights *w);

/* Parts of a layout's cost. */
struct slt_adv_cost {
	double coherence;   /* the findings' estimator summed over lines */
	double locality;    /* sum over paths of share x lines touched */
	uint64_t lines;     /* cache lines of the size */
	uint64_t size;      /* bytes */
	double total;       /* weighted sum */
	size_t shared;      /* blocks (lines, or --separation blocks) whose
			       coherence term is above SLT_ADV_SHARED_MIN:
			       the fixable sharing findings the model sees */
};

/* A block's coherence term above this counts as sharing (slt_adv_cost.shared);
 * per-CPU terms below it are rounding. */
#define SLT_ADV_SHARED_MIN 1e-9

/*
 * Cost of units at offsets off (parallel to order) in a struct of size
 * bytes.  Coherence per block L of us->separation bytes (the line unless
 * a wider separation was asked), on the analysis' basis:
 * per-CPU: the findings' pair estimator over the leaves' groups on L
 * (slt_pairs_cross(), src/analysis/pairs.c);
 * counts: min(stores of written units on L, loads of read-mostly units);
 * classes: read-mostly x written groups on L plus written groups with
 * different writer labels (slt_class_line_value()).  A unit counts on every
 * line it overlaps.  Returns 0 or SLT_ENOMEM.
 */
int slt_adv_cost_eval(const struct slt_adv_units *us, const size_t *order,
		      const uint64_t *off, size_t n, uint64_t size,
		      const struct slt_adv_weights *w, struct slt_adv_cost *out);

/*
 * One line's part of the objective: F(line) of cost.c (0 when negative)
 * into *coherence and the locality term (sum of the weights of the code
 * paths touching the line) into *locality, of units[n] at offsets off[n]
 * (bytes), counting only their parts on cache line `line` (offset
 * line x us->line).  slt_adv_cost_eval()'s coherence and locality are the
 * sums of this over the lines when us->separation is the line size (with a
 * wider separation the coherence is summed over blocks of that size, and
 * this function is not used: exact.c refuses it).  Returns 0 or SLT_ENOMEM.
 */
int slt_adv_cost_line(const struct slt_adv_units *us, const size_t *units,
		      const uint64_t *off, size_t n, uint64_t line,
		      double *coherence, double *locality);

/* Plan + cost in one: returns false when the plan is not legal or memory
 * ran out (*rc then SLT_ENOMEM). */
bool slt_adv_plan_cost(const struct slt_adv_units *us,
		       const struct slt_adv_plan *p,
		       const struct slt_adv_weights *w,
		       struct slt_adv_cost *out, int *rc);

/* pr->compaction, n_compaction (compaction.c) for plan p of cost c, after
 * pr->moved is set; from ar.  0 or SLT_ENOMEM. */
int slt_adv_compaction(struct slt_arena *ar, const struct slt_adv_units *us,
		       const struct slt_adv_weights *w, const struct slt_adv_plan *p,
		       const struct slt_adv_cost *c, struct slt_proposal *pr);

/*
 * Work budget of one local search (search.c) when slt_adv_search.max_work
 * is 0: cost evaluations times the units in the plan (one evaluation
 * places and prices every unit).  Counted, not timed, so the proposals do
 * not depend on the machine's load.  Calibrated on the 6.1 vmlinux's
 * task_struct (227 units, bench/advice.sh): about 11 ns a unit-evaluation
 * there, so one local search stops after about 0.1 s of CPU and the
 * advisor's eight stay under 1 s; structs up to ~60 units never reach it.
 */
#define SLT_ADV_LOCAL_WORK 10000000u

/* Search modes (search.c). */
struct slt_adv_search {
	uint64_t max_size;      /* bytes; UINT64_MAX = no budget */
	bool allow_padding;     /* may insert CACHELINE_PADDING */
	bool keep_order;        /* padding only: order stays the original */
	bool size_only;         /* objective = size, then original order */
	size_t max_moves;       /* MINIMAL: at most this many units move
				   (0 = unlimited) */
	size_t max_pads;        /* at most this many padding members
				   (0 = unlimited) */
	size_t max_work;        /* local search budget: cost evaluations
				   times units per plan (0 =
				   SLT_ADV_LOCAL_WORK) */
};

/* Objective of a plan under s: w's total cost, or in size_only mode the
 * size in bytes (then the number of displaced units / 1000 as a
 * tie-breaker).  Returns false when the plan is illegal, too big, or
 * memory ran out (*rc = SLT_ENOMEM). */
bool slt_adv_objective(const struct slt_adv_units *us,
		       const struct slt_adv_search *s,
		       const struct slt_adv_weights *w,
		       const struct slt_adv_plan *p, double *obj,
		       struct slt_adv_cost *cost, int *rc);

/* Greedy fill + local search.  *best gets a plan (malloc()ed arrays; free
 * with slt_adv_plan_free()).  *spent (may be NULL): whether the local
 * search that gave *best stopped at its work budget (max_work) rather
 * than at a plan no single move improves.  Returns 0, SLT_ENOMEM, or
 * SLT_ENOTFOUND when no legal plan fits. */
int slt_adv_search_heuristic(const struct slt_adv_units *us,
			     const struct slt_adv_search *s,
			     const struct slt_adv_weights *w,
			     struct slt_adv_plan *best,
			     struct slt_adv_cost *cost, bool *spent);

/* The local search of slt_adv_search_heuristic() from plan *p (legal
 * under s), in place; *cost gets its final cost, *spent (may be NULL)
 * whether it stopped at its work budget.  Returns 0, SLT_ENOMEM or
 * SLT_ENOTFOUND (*p not legal under s). */
int slt_adv_search_polish(const struct slt_adv_units *us,
			  const struct slt_adv_search *s,
			  const struct slt_adv_weights *w,
			  struct slt_adv_plan *p, struct slt_adv_cost *cost,
			  bool *spent);

/* Brute force over all orders of the movable units and all padding
 * choices (up to 8 movable units; SLT_EUSAGE beyond): the test oracle. */
int slt_adv_search_brute(const struct slt_adv_units *us,
			 const struct slt_adv_search *s,
			 const struct slt_adv_weights *w,
			 struct slt_adv_plan *best, struct slt_adv_cost *cost);

/*
 * Exact optimum of s's objective (slt_adv_objective(), not size_only,
 * keep_order, max_moves or max_pads) over every order of the units and
 * every CACHELINE_PADDING choice, by a dynamic program over subsets of the
 * units (exact.c; at most SLT_ADV_EXACT_MAX units before the flexible
 * tail).  hint (may be NULL): a plan whose objective bounds the optimum,
 * so states that cannot beat it are dropped.  Gives up when it would keep
 * more than max_states states (0 = 4,000,000): a count, never a time, so
 * the result does not depend on the machine's load.
 * *best gets the plan (free with slt_adv_plan_free()), *cost its cost.
 * Returns 0, SLT_ENOMEM, SLT_ENOTFOUND (no legal plan fits), SLT_EUSAGE
 * (mode not handled, too many units) or SLT_EUNSUPPORTED (gave up: use
 * the heuristic).
 */
/* Whether units a and b (indices into us->u) are interchangeable: same
 * size, alignment, flags, segment (and offset when anchored), leaves at the
 * same places with the same classes, samples and CPUs, same code paths, so
 * swapping them changes no cost (exact.c). */
bool slt_adv_twins(const struct slt_adv_units *us, size_t a, size_t b);

#define SLT_ADV_EXACT_MAX 18
int slt_adv_search_exact(const struct slt_adv_units *us,
			 const struct slt_adv_search *s,
			 const struct slt_adv_weights *w,
			 const struct slt_adv_plan *hint, size_t max_states,
			 struct slt_adv_plan *best, struct slt_adv_cost *cost);

/*
 * The hot-set dynamic program (hotdp.c): the least objective over the
 * partitions of the hot units (those cost.c sees: a classed or sampled
 * leaf, or a code path; at most SLT_ADV_HOT_MAX) into cache lines, cold
 * units filling the free bytes first-fit decreasing.  Exact for the
 * coherence + locality terms and the lines holding hot units over the
 * layouts of its model (hotdp.c's comment: each hot unit within one line,
 * a line's hot units packed from its start by decreasing alignment, the
 * anchored units a prefix of the original order); the size is a bound.
 * The result is priced by slt_adv_objective().  Gives up after max_steps
 * group evaluations (0 = 60,000,000).  *best (free with
 * slt_adv_plan_free()), *cost; *info (may be NULL): what it did.
 * Returns 0, SLT_ENOMEM, SLT_ENOTFOUND, SLT_EUSAGE (outside the model: the
 * caller keeps the heuristic) or SLT_EUNSUPPORTED (step budget spent).
 */
#define SLT_ADV_HOT_MAX 18
struct slt_adv_hot_info {
	size_t hot;     /* hot units */
	size_t steps;   /* group evaluations, both passes */
	int pass;       /* the pass that won: 0 line price, 1 byte price */
	const char *why; /* static: why it did not run (SLT_EUSAGE) or gave
			    up (SLT_EUNSUPPORTED), "" otherwise */
};
int slt_adv_search_hot(const struct slt_adv_units *us,
		       const struct slt_adv_search *s,
		       const struct slt_adv_weights *w, size_t max_steps,
		       struct slt_adv_plan *best, struct slt_adv_cost *cost,
		       struct slt_adv_hot_info *info);

/*
 * The MINIMAL search (minimal.c): every single relocation of a movable
 * unit to another position of the original order, exhaustively; then,
 * when none leaves no fixable finding (slt_adv_cost.shared), pairs of
 * relocations until max_work unit evaluations (0 = SLT_ADV_MINIMAL_WORK,
 * about 0.05 s on the 6.1 task_struct, 227 units) are
 * spent.  Ranked by (findings left, members relocated, members shifted
 * as slt_adv_relocated() counts them, bytes, sharing score, cost).  *best
 * (free with slt_adv_plan_free()) and *cost get the best; *info what it
 * did.  Returns 0, SLT_ENOMEM, or SLT_ENOTFOUND when no candidate leaves
 * fewer findings (or as many with a lower score) than the original.
 */
#define SLT_ADV_MINIMAL_WORK 4000000u
/* Up to this many units every movable unit is relocated; beyond, only
 * those with classed or sampled members (cold ones still shift). */
#define SLT_ADV_MINIMAL_ALL 64
struct slt_adv_minimal_info {
	size_t evaluated;  /* plans evaluated */
	size_t moves;      /* relocations in the best: 1 or 2 */
	bool pairs;        /* the pair search ran */
	bool spent;        /* and stopped at its work budget */
	bool hot_only;     /* more than SLT_ADV_MINIMAL_ALL units: only
			      units with classed or sampled members moved */
};
int slt_adv_search_minimal(const struct slt_adv_units *us,
			   const struct slt_adv_weights *w, size_t max_work,
			   struct slt_adv_plan *best, struct slt_adv_cost *cost,
			   struct slt_adv_minimal_info *info);

/* The original order, no padding. */
int slt_adv_plan_identity(const struct slt_adv_units *us,
			  struct slt_adv_plan *p);
void slt_adv_plan_free(struct slt_adv_plan *p);

/*
 * Written by emit_c.c: the C declaration of proposal p (built from orig):
 * members in p->layout's order with their original declarations,
 * `CACHELINE_PADDING(_padN_);` for each inserted padding member, and
 * static_assert()s (offsetof) that lock the proposal in; user_space: a
 * user-space program's forms (advice.h, slt_advice_opts.user_space).  *out is
 * allocated from a.  Returns 0 or SLT_ENOMEM.
 */
int slt_advice_emit_c(const struct slt_proposal *p,
		      const struct slt_struct *orig, bool user_space,
		      struct slt_arena *a, const char **out);

/* Name prefix and type of inserted padding members in proposals. */
/* safety.c: NULL, or why layout s cannot be trusted (a zero-size member
 * that is not a flexible array followed by more bytes than the next
 * member's alignment explains, e.g. an array bound misread as 0), from
 * ar. */
const char *slt_adv_suspect(const struct slt_struct *s, struct slt_arena *ar);
/* safety.c: 0 when proposal layout l (kind: its name) holds every member
 * of orig with the same name, type, size and depth (inserted padding
 * members aside); otherwise an internal error (SLT_EUNSUPPORTED, err
 * says which member) and the proposal must not be emitted; SLT_ENOMEM. */
int slt_adv_check_proposal(const struct slt_struct *orig,
			   const struct slt_struct *l, const char *kind,
			   struct slt_error *err);

/* The type string of the padding members a proposal inserts (relayout.c):
 * safety.c knows them by this pointer, so that an original
 * CACHELINE_PADDING member (same type name) is still checked as kept. */
extern const char slt_adv_pad_type[];
#define SLT_ADV_PAD_PREFIX "_pad"
/* Type of the anonymous struct an ISOLATE proposal wraps a hot member in
 * (SLT_ADV_PAD_WRAP); safety.c and emit_c.c know it by this pointer. */
extern const char slt_adv_wrap_type[];

/* The first byte after what precedes member i of layout l at its level
 * (a bitfield's last byte counted whole: a char array goes there), or the
 * level's start (emit_c.c). */
uint64_t slt_adv_level_end(const struct slt_struct *l, size_t i);

/*
 * The run of top-level members starting at orig->members[i] that move
 * together because their bytes overlap (units.c's rule: bitfields sharing
 * storage, a member the compiler put inside a storage unit): the index of
 * its bitfield with the widest storage alignment, or -1 when it has none.
 * The emitter and the source diff both start a moved run on a fresh storage
 * unit with it (emit_c.c).
 */
long slt_adv_run_bitfield(const struct slt_struct *orig, size_t i);

/*
 * why.c: the note when no proposal lowers the sharing of us->a: the
 * constraints on the members of its fixable findings (pinned first member,
 * --pin, anchors: forced alignment, zero-size padding, group markers;
 * members inside a union or named nested struct) and what the advice
 * proposes once --move-first / --move-anchors lift them (the advice run
 * again with them).  Anchored and pinned members on the findings' lines
 * are named too (they hold the lines' other members around them).  left:
 * there are proposals, but none removes all the sharing (the note says
 * so).  best: the least sharing the proposals leave (negative when there
 * are none); an option is said to lift a constraint, and the constraint
 * named, only when its run gives strictly less.  From ar; NULL with *rc
 * SLT_ENOMEM.
 */
const char *slt_adv_why_none(const struct slt_adv_units *us,
			     const struct slt_advice_opts *o, struct slt_arena *ar,
			     bool left, double best, int *rc);

#endif
