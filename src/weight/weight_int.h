/* SPDX-License-Identifier: MIT */
/*
 * Internals of the IP-sample weighting (include/structlint/weight.h):
 *   image.c   the analysed ELF's load segments, and the relocation of
 *             run-time addresses from perf's MMAP/MMAP2/FORK/COMM records
 *             and the kernel mmap (KASLR)
 *   blocks.c  basic blocks (capstone) of the functions holding sites
 *   weight.c  the perf.data pass(es) and the estimates
 */
#ifndef SLT_WEIGHT_INT_H
#define SLT_WEIGHT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/access.h"
#include "structlint/error.h"

#define IPW_MAX_SEGS 16

/* The analysed binary and its run-time placement. */
struct ipw_image {
	char *real;               /* realpath of the binary (malloc) */
	const char *base;         /* its file name (inside real) */
	uint8_t build_id[20];
	size_t build_id_len;      /* 0: none */
	bool kernel;              /* a vmlinux: relocated by the kernel mmap */
	uint64_t text, stext;     /* kernel: st_value of _text, _stext */
	uint64_t lo, hi;          /* link addresses of the image (PT_LOADs) */
	struct { uint64_t vaddr, off, filesz, memsz; uint32_t flags; } seg[IPW_MAX_SEGS];
					/* flags: p_flags (PF_R|PF_W|PF_X) */
	size_t n_seg;
	/* run time: pid -> bias (open addressing, key pid + 1) */
	uint64_t *keys;
	int64_t *bias;
	size_t cap, n;
	uint32_t last_pid;        /* one-entry cache */
	int64_t last_bias;
	bool last_ok;
	bool kmap;                /* the kernel mmap was seen */
	int64_t koff;             /* KASLR offset: run time - link */
	uint64_t mmaps;           /* mmap events of the binary */
	bool name_only;           /* a mapping matched by file name only */
	/* the perf.data's build-id table (HEADER_BUILD_ID) names the binary
	 * ([kernel.kallsyms] for a vmlinux, its path or file name otherwise)
	 * with another build-id: hex of that one, else "" */
	char other_id[41];
	/* the path the build-id table names with this binary's build-id
	 * when it is another (a copy of the binary ran, or was moved
	 * since): its mappings are the binary's (malloc), else NULL */
	char *alias;
};

/* Read binary's program headers (and kernel symbols).  0, or SLT_EIO,
 * SLT_ENOTELF, SLT_ECORRUPT, SLT_ENOMEM with err filled. */
int ipw_image_open(struct ipw_image *im, const char *path,
		   struct slt_error *err);
void ipw_image_free(struct ipw_image *im);
/* Hex of id (n bytes, n <= 20) into out[41]. */
void ipw_hex_id(const uint8_t *id, size_t n, char *out);
/* Forget the run-time state (a second pass over the same file). */
void ipw_image_reset(struct ipw_image *im);
/* A non-sample record (header included, size bytes, untrusted): MMAP,
 * MMAP2, FORK and COMM (exec) update the placement; others are ignored.
 * Returns 0 or SLT_ENOMEM. */
int ipw_image_record(struct ipw_image *im, const uint8_t *rec, size_t size);
/* Relocate a run-time address of process pid (kernel: cpumode kernel) to
 * a link address of the image: true and *out, false when it is not in the
 * image (other DSO, other mode, no mapping seen). */
bool ipw_image_reloc(struct ipw_image *im, uint32_t pid, bool kernel_mode,
		     uint64_t addr, uint64_t *out);

/* One basic block holding sites: [lo, hi), sites[site0 .. site0+n_sites)
 * of struct ipw_blocks. */
struct ipw_block {
	uint64_t lo, hi;
	uint32_t site0, n_sites;
	uint32_t n_insns;
};

struct ipw_blocks {
	struct ipw_block *b;      /* sorted by lo, disjoint */
	size_t n;
	const struct slt_access_site **sites; /* by pc, in block order */
	size_t n_sites;
	uint64_t undecodable;     /* bytes capstone could not decode */
};

/* The basic blocks of the functions (ELF FUNC symbols, else the map's
 * functions) holding a load/store/RMW site of map whose struct is one of
 * types[0..n_types), decoded from path's code.  0, or SLT_EIO,
 * SLT_ENOTELF, SLT_ENOMEM with err filled. */
int ipw_blocks_build(const char *path, const struct slt_access_map *map,
		     const char *const *types, size_t n_types,
		     struct ipw_blocks *out, struct slt_error *err);
void ipw_blocks_free(struct ipw_blocks *b);
/* Index of the block holding addr, or -1. */
long ipw_blocks_find(const struct ipw_blocks *b, uint64_t addr);

#endif
