/* SPDX-License-Identifier: MIT */
/*
 * structlint — member accesses estimated from IP samples x static sites.
 *
 * Where no memory-sampling PMU exists (virtual machines), `perf record -e
 * cpu-clock` (a software event) still samples where each CPU is executing:
 * PERF_RECORD_SAMPLE with IP, TID and CPU.  The static access map
 * (structlint/access.h) says which instructions load, store or atomically
 * modify which struct member.  This stage joins the two: it reads a
 * perf.data once, relocates every sample IP to the link-time address of
 * the analysed binary, and charges each sample to the memory-access sites
 * of the basic block it fell in.  The result is a stream of typed
 * slt_sample records (struct name + offset, per CPU, loads/stores) that
 * the join, classify, findings, suggest, check and validate consume as
 * they consume a memory profile.
 *
 * Skid and attribution.  A cpu-clock sample is taken in the hrtimer
 * interrupt; the IP is where the interrupted thread resumes, with the
 * "arbitrary skid" of precise_ip = 0 that perf_event_open(2) documents
 * (the instruction that was executing, or one or a few after it).  So one
 * sample does not name one instruction.  What it does name reliably is
 * the code region: every instruction of a basic block (straight-line
 * code between branch targets and branches) executes exactly as often as
 * the block.  A sample at IP x therefore counts once for every
 * memory-access site of the basic block holding x; a site's estimate is
 * the number of samples taken, per CPU, while its block was executing.
 * Where inside the block the sample landed (the skid) does not change it.
 * Skid across a block's end moves samples to the next block, which stays
 * a bounded error between neighbours.  A call-derived site (SLT_VIA_CALL:
 * a call passing a member's address, charged by the callee's summary) is
 * the exception: it gets only the samples whose IP is its call
 * instruction, so a sample is never charged both to an instruction and to
 * a call around it, nor the callee's time to its caller.  The unit is samples of the block:
 * comparable within a block and, across blocks, weighted by the time each
 * block takes (a slow block - one missing the cache on a bouncing line -
 * weighs more, which is what contention costs).  Loads count in loads,
 * stores in stores, a plain read-modify-write in both, an atomic RMW in
 * both (and in rmw of slt_ipw_info's totals).  A site whose bytes cover
 * several members (a 16-byte movups or vmovdqu over four ints, a struct
 * copy) is an access of each of them, the rule of the static access map
 * (slt_access_site_members()): every member it covers gets the site's
 * whole estimate (the block's samples), as a record at the covered
 * bytes (offset and size clipped to the member).  Samples without
 * PERF_SAMPLE_CPU (`perf record -- CMD` without -a or --sample-cpu) are
 * charged per thread instead: threads are the parallel actors there, and
 * the basis says so.
 *
 * Relocation.  Sample IPs (and the data addresses of memory samples) are
 * run-time addresses.  For a user-space binary, the PERF_RECORD_MMAP2 /
 * MMAP events of the binary (matched by path, else by file name; by
 * build-id when the event carries one) give each process's load bias:
 * bias = start - (p_vaddr + pgoff - p_offset) of the PT_LOAD segment
 * whose file pages hold pgoff (and whose p_flags match the mapping's
 * protection), one bias for the whole image (it is mapped as one block),
 * so link address = run-time address - bias, for every address in
 * [bias + lowest p_vaddr, bias + highest p_vaddr + p_memsz).  The first
 * mapping of the image in a process places it (the segment at file offset
 * 0 comes first); later events of the image keep that bias (a data
 * segment's first file page is also the previous segment's last, and
 * ld.so's RELRO mprotect reports it again read-only); forks inherit the
 * parent's bias, an exec drops it.  For the kernel (FILE is a vmlinux:
 * an ET_EXEC with a `_text` symbol), perf writes one MMAP event whose
 * file name is "[kernel.kallsyms]_text" (or _stext) and whose pgoff is
 * the run-time address of that symbol (tools/perf/util/synthetic-events.c,
 * perf_event__synthesize_kernel_mmap; the ref_reloc_sym): the KASLR
 * offset is pgoff - st_value(_text), applied to kernel-mode samples.
 *
 * A perf.data holding memory samples (PERF_SAMPLE_ADDR) is a memory
 * profile: its samples are passed on (relocated) and any IP-only events in
 * it are not weighted; the estimate is made only when there is nothing
 * better.
 *
 * Units: addresses in bytes, counts in samples.
 */
#ifndef STRUCTLINT_WEIGHT_H
#define STRUCTLINT_WEIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/error.h"
#include "structlint/samples.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The basis string named in every output of an estimate. */
#define SLT_IPW_BASIS "estimated from IP samples x static sites"

struct slt_access_map;
struct slt_struct;

struct slt_ipw_opts {
	const char *binary;            /* the ELF FILE the samples are for
					  (program, shared object, vmlinux) */
	const char *const *types;      /* struct names to estimate */
	size_t n_types;
	/* Added (additive): the layouts of types, parallel to them (the
	 * struct of types[i] is layouts[i]), or NULL.  With it, a site
	 * whose bytes cover several members (a 16-byte movups over four
	 * ints) gives each of them a record; without it, one record at the
	 * site's offset. */
	const struct slt_struct *layouts;
	/* A map built by the caller for binary (borrowed), or NULL: built
	 * here with types as its filter, only when the perf.data holds IP
	 * samples and no memory samples. */
	struct slt_access_map *map;
	/* When map is NULL and this is set: called (once, only when the
	 * estimate is needed) for the map of binary, e.g. from the build-id
	 * cache of the whole-binary pass; *out is then owned (freed) here.
	 * Returns 0 or SLT_E* with err filled. */
	int (*get_map)(void *ctx, struct slt_access_map **out,
		       struct slt_error *err);
	void *get_map_ctx;
};

/* What the pass saw (all counts in samples unless named). */
struct slt_ipw_info {
	uint64_t mem_samples;     /* memory (ADDR) samples passed through */
	uint64_t mem_relocated;   /* ... whose data address was relocated
				     into the binary's link addresses */
	uint64_t ip_samples;      /* samples without ADDR (IP samples) */
	uint64_t ip_other;        /* ... outside the binary (other DSOs,
				     other mode, unknown process) */
	uint64_t ip_in_binary;    /* ... relocated into the binary */
	uint64_t ip_on_blocks;    /* ... in a basic block holding a site of
				     the asked types */
	uint64_t site_loads, site_stores, site_rmw; /* estimates emitted */
	uint64_t n_blocks;        /* basic blocks with sites */
	uint64_t n_sites;         /* sites of the asked types */
	uint64_t mmaps;           /* mmap events of the binary seen */
	bool kernel;              /* binary is a vmlinux */
	bool kernel_mmap;         /* the kernel mmap event was found */
	int64_t kaslr_offset;     /* bytes, kernel only */
	bool estimated;           /* the records handed out are estimates */
	bool by_thread;           /* the writers are threads: each tid (not
				     0) is one writer whatever CPUs it ran
				     on, numbered 0.. in order of appearance
				     and handed out as the record's cpu; tid
				     0 (idle) and samples without TID charge
				     the CPU */
	char event[64];           /* the IP samples' event name */
	char basis[256];          /* SLT_IPW_BASIS and the figures */
};

/*
 * Read the perf.data at path once.  Memory samples go to cb with their
 * data address and IP relocated into binary's link addresses (when they
 * fall in its image: PIE programs; others unchanged).  When the file holds
 * no memory sample but IP samples, the access map of binary is built (or
 * taken from opts->map or opts->get_map) and each (site, CPU) with samples becomes one
 * typed record (one per member it covers when opts->layouts is given):
 * type_name, type_offset, access_size, cpu, ip (the site),
 * symbol (its function), loads/stores, event "IP samples x static sites";
 * wi->estimated is then true.  info is filled as slt_samples_read() does.
 * Returns 0, the callback's non-zero value, or a negative SLT_E* with err
 * filled (perf.data errors as slt_samples_read(); the binary: SLT_EIO,
 * SLT_ENOTELF; the map: as slt_access_build()).
 */
int slt_ipw_read(const char *path, const struct slt_ipw_opts *opts,
		 slt_sample_cb cb, void *ctx, struct slt_samples_info *info,
		 struct slt_ipw_info *wi, struct slt_error *err);

/* Same from an in-memory perf.data (tests, fuzzing). */
int slt_ipw_read_mem(const void *data, size_t size, const char *name,
		     const struct slt_ipw_opts *opts, slt_sample_cb cb,
		     void *ctx, struct slt_samples_info *info,
		     struct slt_ipw_info *wi, struct slt_error *err);

#ifdef __cplusplus
}
#endif
#endif
