/* SPDX-License-Identifier: MIT */
/*
 * structlint — joining samples to struct members.
 *
 * A join takes one struct layout (struct slt_struct) and a stream of samples
 * (include/structlint/samples.h) and produces per-member access statistics.
 * Samples carry data addresses, cacheline addresses or type+offset; members
 * have offsets.  The instance base is resolved, in this order (first that
 * applies wins):
 *   1. the sample is already typed (data-type profile, JSON profile);
 *   2. an explicit base: --base ADDR, or an ELF symbol of a global/static
 *      object resolved by the caller;
 *   3. --line ADDR=N hints: the cacheline at ADDR is line N of the struct;
 *   4. inference (c2c cachelines and raw addresses): from the struct's
 *      alignment, the access offsets and the member boundaries, reported
 *      with its confidence and refused when ambiguous.
 * Each access goes to the innermost member that contains it (nested
 * structs, array elements, bitfields by storage unit).
 */
#ifndef STRUCTLINT_JOIN_H
#define STRUCTLINT_JOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/error.h"
#include "structlint/layout.h"
#include "structlint/samples.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A "--line ADDR=N" hint. */
struct slt_line_hint {
	uint64_t addr;      /* any address inside the cacheline */
	uint64_t line;      /* that line's index in the struct (0-based) */
};

struct slt_join_opts {
	unsigned cacheline_size;       /* bytes; 0 = SLT_CACHELINE_DEFAULT */
	bool has_base;
	uint64_t base;                 /* instance start address (bytes) */
	const struct slt_line_hint *hints;
	size_t n_hints;
	bool no_infer;                 /* refuse inference (strict mode) */
	size_t max_locations;          /* code locations kept per member;
					  0 = 8 */
	/* Added after v1 (additive): the ELF symbol of the instance (the
	 * caller's --base SYMBOL), or NULL.  A sample with SLT_SAMPLE_DSYM
	 * naming this symbol is placed at data_symbol_offset bytes into the
	 * struct; one naming another symbol is not this instance and is
	 * counted in skipped_other_type.  NULL: when every SLT_SAMPLE_DSYM
	 * sample names one symbol, that one is taken (base method TYPED);
	 * when they name several, slt_join_finish() fails with SLT_EUSAGE
	 * asking for --base SYMBOL.  Borrowed until slt_join_new() returns
	 * (copied). */
	const char *base_symbol;
};

/* How the base address was found (enum order = resolution order). */
enum slt_base_method {
	SLT_BASE_NONE = 0,    /* nothing could be resolved */
	SLT_BASE_TYPED,       /* samples carried type+offset */
	SLT_BASE_EXPLICIT,    /* --base / symbol */
	SLT_BASE_HINT,        /* --line hints */
	SLT_BASE_INFERRED,    /* inferred, see confidence */
};

struct slt_cpu_access {
	int32_t cpu;
	uint64_t loads, stores;          /* samples */
};

struct slt_code_location {
	const char *symbol;              /* may be "" */
	const char *source;              /* "file.c:123" or "" */
	uint64_t ip;                     /* 0 when unknown */
	uint64_t loads, stores, hitm;    /* samples */
};

/* Access statistics of one member (or of a hole/padding, see below). */
struct slt_member_access {
	uint64_t loads, stores;          /* samples */
	uint64_t hitm_local, hitm_remote, peer_local, peer_remote;
	uint64_t cycles;                 /* sum of load latencies */
	struct slt_cpu_access *cpus;     /* sorted by cpu, only CPUs seen */
	size_t n_cpus;
	struct slt_code_location *locations; /* most samples first */
	size_t n_locations;
};

/* Accesses of one element of an array member on one cache line, per CPU
 * (added after the cells, additive; see slt_line_access.elems). */
struct slt_elem_access {
	uint32_t elem;                   /* element index in the member,
					    innermost scalars counted in
					    row-major order */
	struct slt_cpu_access *cpus;     /* sorted by cpu, only CPUs seen */
	size_t n_cpus;
};

/* Accesses of one innermost member on one cache line (added after v1,
 * additive; see slt_access_profile.cells). */
struct slt_line_access {
	uint64_t line;                   /* see slt_access_profile.cells */
	size_t member;                   /* index in layout->members */
	uint64_t loads, stores;          /* samples */
	uint64_t hitm;                   /* hitm_local + hitm_remote +
					    peer_local + peer_remote */
	struct slt_cpu_access *cpus;     /* sorted by cpu, only CPUs seen */
	size_t n_cpus;
	/* Added after the cells (additive): for an array member, the
	 * per-CPU accesses of each element the samples placed by their
	 * offset (address or type offset), sorted by elem; an access of
	 * several elements (its size) counts in each.  unplaced_stores:
	 * stores by known CPUs whose element is not known (the sample named
	 * the member without an offset).  n_elems is 0 for other members. */
	struct slt_elem_access *elems;
	size_t n_elems;
	uint64_t unplaced_stores;
};

/* Other types kept in slt_access_profile.other_types. */
#define SLT_JOIN_TOP_TYPES 3

/* The result of a join.  Owns everything; free with
 * slt_access_profile_free().  `layout` is borrowed and must outlive it. */
/* The most samples (loads + stores) and cycles a join takes in, in all:
 * far above any real profile, low enough that no sum of them wraps. */
#define SLT_JOIN_COUNT_CAP (1ull << 52)
/* The most one sample record counts (loads, stores, HITM, peer; cycles
 * 2^10 times more). */
#define SLT_JOIN_SAMPLE_CAP (1ull << 40)
#define SLT_JOIN_CYCLES_CAP (1ull << 62)

struct slt_access_profile {
	const struct slt_struct *layout;
	unsigned cacheline_size;
	struct slt_member_access *members; /* parallel to layout->members;
					      counts go to the innermost
					      member, parents sum their
					      children */
	struct slt_member_access outside;  /* samples in holes/padding or
					      outside the struct */
	enum slt_base_method base_method;
	uint64_t base;                     /* resolved base, when
					      base_method >= EXPLICIT */
	double confidence;                 /* 0..1 for inference; 1 for
					      typed, explicit and hinted
					      bases */
	char base_note[256];               /* how it was resolved, for
					      humans */
	uint64_t samples, matched;         /* samples seen / mapped */
	void *priv_;
	/* Added after v1 of this header (additive): per (line, innermost
	 * member) cells, so that a member spanning several cache lines is
	 * charged on the line each access fell on.  `line` counts lines of
	 * cacheline_size bytes from the line holding the instance start:
	 * line = (line_origin + offset) / cacheline_size, where line_origin =
	 * base % cacheline_size when the base is known, else 0 (the struct is
	 * taken to start on a line boundary, as pahole draws it).  Sorted by
	 * line, then member. */
	struct slt_line_access *cells;
	size_t n_cells;
	uint32_t line_origin;              /* bytes, see cells */
	uint64_t skipped_other_type;       /* typed samples of another type */
	uint64_t outside_samples;          /* loads+stores not on a member */
	/* Added after the cells (additive): the types the skipped typed
	 * samples named most, most samples first (names as the samples
	 * wrote them, owned by the profile), n_other_types of them. */
	struct slt_type_count {
		const char *name;
		uint64_t samples;          /* loads + stores */
	} other_types[SLT_JOIN_TOP_TYPES];
	size_t n_other_types;
	/* Added after the other types (additive): member paths named by
	 * samples that the layout does not have ("cgf"), the first
	 * SLT_JOIN_TOP_TYPES distinct ones in input order, with the closest
	 * member path (edit distance, src/common/strdist.h; NULL when none is
	 * close) and how their samples were placed: by the sample's offset
	 * when it has one, else outside.  A path inside a member shown folded
	 * ("sk_receive_queue.lock" without -E) is not unknown: its samples go
	 * to the folded member that holds it (to the innermost member by the
	 * offset, when the sample has one).  Strings owned by the profile. */
	struct slt_unknown_member {
		const char *name;
		const char *suggestion;
		uint64_t samples;          /* loads + stores */
		bool by_offset;            /* placed by their offset */
	} unknown_members[SLT_JOIN_TOP_TYPES];
	size_t n_unknown_members;
	uint64_t unknown_member_samples;   /* all of them, loads + stores */
	/* Added after v1 (additive): the input's counts went past
	 * SLT_JOIN_SAMPLE_CAP in one record, or SLT_JOIN_COUNT_CAP samples
	 * (loads + stores) or HITM + peer counts, or SLT_JOIN_CYCLES_CAP
	 * cycles, in all: what was taken in was capped there (the caller
	 * should warn). */
	bool counts_saturated;
	/* Added after counts_saturated (additive): stores in every sample fed
	 * to the join, whatever type or member it named (kept or not).  0
	 * means the input holds no store at all (loads-only events); stores
	 * that fell on an unknown member or another type still count. */
	uint64_t input_stores;
	/* Added after input_stores (additive): samples that named a member
	 * path inside a member shown folded (a nested struct without -E,
	 * e.g. "i_data.private_lock" of inode) and carried no offset: they
	 * are placed on the whole folded member; folded_path is the first
	 * such path (owned by the profile).  The caller should load the
	 * layout expanded (-E) and join again, so they land on their own
	 * bytes. */
	uint64_t folded_samples;
	const char *folded_path;
	/* Added after folded_path (additive): for estimates from IP samples
	 * (structlint/weight.h; 0 otherwise), the IP samples recorded and
	 * those used (on a basic block with sites of the asked types): then
	 * samples above counts estimated accesses (loads + stores), not
	 * samples. */
	uint64_t ip_recorded, ip_used;
	/* Added after ip_used (additive): the writers (the "CPUs" of the
	 * counts) are threads, numbered in order of appearance (estimates
	 * from IP samples with TIDs, slt_ipw_info.by_thread): the text names
	 * their count nthreads=, not ncpus=. */
	bool writers_threads;
	/* Added after writers_threads (additive): of outside_samples, those
	 * whose address or offset lies in the instance's bytes but on no
	 * member (its holes and padding); the others lie beyond it (other
	 * objects of the program) or named no member of it. */
	uint64_t hole_samples;
};

struct slt_join;

/* Start a join for layout.  Returns 0 and *out, or SLT_ENOMEM/SLT_EUSAGE. */
int slt_join_new(const struct slt_struct *layout,
		 const struct slt_join_opts *opts, struct slt_join **out,
		 struct slt_error *err);

/* Feed one sample (usable as an slt_sample_cb with the join as ctx).
 * Samples of other types are counted and ignored.  Memory grows with the
 * number of distinct addresses, not with the number of samples. */
int slt_join_add(void *join, const struct slt_sample *s);

/* Resolve the base, map everything, and hand over the profile.  The join
 * is freed.  Returns 0, or SLT_EUSAGE when the base cannot be resolved
 * (the hint says which option gives it) with err filled. */
int slt_join_finish(struct slt_join *join, struct slt_access_profile **out,
		    struct slt_error *err);

/*
 * Resolve the base of a global or static object: the address (st_value, the
 * link-time virtual address, as perf reports kernel and non-PIE data
 * addresses) and size in bytes of the data symbol `symbol` in the ELF file at
 * path (.symtab, else .dynsym).  Returns 0, SLT_ENOTFOUND (the hint says how
 * to give the base otherwise), SLT_EUSAGE for a relocatable file (ET_REL:
 * symbol values are section offsets there), SLT_EIO, SLT_ENOTELF or
 * SLT_ECORRUPT.
 */
int slt_symbol_address(const char *path, const char *symbol, uint64_t *addr,
		       uint64_t *size, struct slt_error *err);

/* Free a join that was not finished.  NULL is a no-op. */
void slt_join_free(struct slt_join *join);
void slt_access_profile_free(struct slt_access_profile *p);

#ifdef __cplusplus
}
#endif
#endif
