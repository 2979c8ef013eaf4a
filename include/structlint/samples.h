/* SPDX-License-Identifier: MIT */
/*
 * structlint — memory-access samples from perf and from structlint's own
 * profile format, as one stream of records.
 *
 * Every parser turns its input into struct slt_sample records and hands them
 * to a callback, one at a time, so memory stays bounded whatever the input
 * size (perf.data files of 10^7 samples are streamed, not loaded).  A record
 * is either one sample (perf.data, perf script: counts of 1) or one
 * aggregated row (perf c2c Pareto lines, data-type profile lines, JSON
 * profile entries: counts as printed).
 *
 * Units: addresses and offsets in bytes; loads/stores/hitm_* in samples
 * (not events: multiply by the sample period for events, which perf c2c
 * does not do either); cycles are the sum of the samples' weights as perf
 * reports them (load latency in core cycles).
 */
#ifndef STRUCTLINT_SAMPLES_H
#define STRUCTLINT_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum slt_samples_format {
	SLT_SAMPLES_AUTO = 0,     /* detect from the content */
	SLT_SAMPLES_C2C,          /* `perf c2c report --stdio` text */
	SLT_SAMPLES_DATATYPE,     /* `perf report/mem report -s type,typeoff`
				     (and typecln), `perf annotate --data-type` */
	SLT_SAMPLES_PERF_DATA,    /* perf.data, file or pipe mode
				     (tools/perf/Documentation/
				     perf.data-file-format.txt) */
	SLT_SAMPLES_PERF_SCRIPT,  /* `perf script -F ...` text with addr */
	SLT_SAMPLES_PROFILE,      /* JSON "structlint.profile/v1" */
	SLT_SAMPLES_PERF_MEM,     /* `perf mem report --stdio`, `perf report
				     --mem-mode --stdio` tables (added after
				     v1, additive) */
};

/* slt_sample.flags: which fields hold data. */
enum slt_sample_flags {
	SLT_SAMPLE_ADDR = 1u << 0,      /* addr is a data virtual address */
	SLT_SAMPLE_LINE = 1u << 1,      /* line_addr/line_offset (c2c) */
	SLT_SAMPLE_TYPE = 1u << 2,      /* type_name/type_offset (data-type
					   profiles, JSON profile) */
	SLT_SAMPLE_MEMBER = 1u << 3,    /* member names a member directly
					   (JSON profile per-member entries) */
	SLT_SAMPLE_CPU = 1u << 4,       /* cpu is valid */
	SLT_SAMPLE_TID = 1u << 5,       /* pid/tid are valid */
	SLT_SAMPLE_IP = 1u << 6,        /* ip is valid */
	SLT_SAMPLE_PHYS = 1u << 7,      /* phys_addr is valid */
	SLT_SAMPLE_DATA_SRC = 1u << 8,  /* data_src is the raw
					   perf_mem_data_src value */
	SLT_SAMPLE_CPUS = 1u << 9,      /* cpus/n_cpus list which CPUs
					   touched it (c2c node{cpus}) */
	SLT_SAMPLE_DSYM = 1u << 10,     /* data_symbol/data_symbol_offset
					   (perf mem report "Data Symbol"
					   column; added after v1) */
};

/*
 * One record.  All pointers are owned by the parser and valid only during
 * the callback: copy what you keep.
 */
struct slt_sample {
	uint32_t flags;           /* enum slt_sample_flags */
	uint64_t addr;            /* data virtual address */
	uint64_t phys_addr;       /* physical address (PERF_SAMPLE_PHYS_ADDR) */
	uint64_t line_addr;       /* c2c: cacheline address (the line's
				     first byte, of the report's line size) */
	uint32_t line_offset;     /* c2c: byte offset inside that line */
	const char *type_name;    /* "struct foo", "foo" or NULL */
	uint64_t type_offset;     /* bytes from the start of type_name */
	const char *member;       /* JSON profile: member path "a.b[2].c" */
	int32_t cpu;              /* -1 when unknown */
	int32_t pid, tid;         /* -1 when unknown */
	int32_t node;             /* NUMA node, -1 when unknown */
	const uint16_t *cpus;     /* SLT_SAMPLE_CPUS: CPU numbers */
	size_t n_cpus;
	uint64_t ip;              /* code address of the access */
	const char *symbol;       /* function (+offset) or NULL */
	const char *source;       /* "file.c:123" or NULL */
	uint64_t data_src;        /* raw union perf_mem_data_src */
	uint32_t access_size;     /* bytes accessed, 0 when unknown */
	uint64_t loads;           /* samples that were loads */
	uint64_t stores;          /* samples that were stores */
	uint64_t hitm_local;      /* loads that hit a modified line in another
				     core's cache on this node (Intel HITM) */
	uint64_t hitm_remote;     /* ... on another node */
	uint64_t peer_local;      /* loads served by a peer cache, this node
				     (AMD/Arm "peer" snoop, perf >= 6.0) */
	uint64_t peer_remote;     /* ... on another node */
	uint64_t cycles;          /* sum of load weights (latency), cycles */
	const char *event;        /* event name when known, else NULL */
	const char *object;       /* binary/DSO of the code ("[kernel.kallsyms]",
				     c2c Object column) or NULL */
	uint32_t cpu_count;       /* distinct CPUs that made these accesses
				     (c2c "cpu cnt"), 0 when unknown */
	/* Added after v1 (additive), SLT_SAMPLE_DSYM: the data object the
	 * access fell in, by ELF symbol name as perf resolved it ("g_hot"
	 * of perf's "[.] g_hot+0x18"), and the byte offset of the access
	 * from that symbol's start (for the symbol of a struct instance:
	 * the offset inside the struct). */
	const char *data_symbol;
	uint64_t data_symbol_offset;  /* bytes */
};

/* What a parser saw, for the user and for tests.  Counts are records or
 * samples as named. */
struct slt_samples_info {
	enum slt_samples_format format;  /* the format actually parsed */
	uint64_t records;        /* slt_sample records delivered */
	uint64_t samples;        /* loads + stores delivered */
	uint64_t skipped;        /* input records ignored (not memory
				    samples, no address, unknown record
				    types), never silently lost: counted */
	unsigned cacheline_size; /* c2c: the report's line size (64, or 128
				    with --double-cl); 0 when not stated */
	char detail[256];        /* free text: perf version, events, mode */
	/* Added after v1 (additive): NUL bytes that ended a text input (a
	 * zero-padded file), not parsed; the caller should warn.  A NUL
	 * byte with text after it is an error instead (SLT_ECORRUPT). */
	uint64_t nul_tail;
	/* Added after v1 (additive): perf c2c Pareto blocks read without
	 * their '#' header lines: the number of percentage columns
	 * recognised from the rows (4, 5 or 6; read as HITM, then stores),
	 * 0 when the headers were there.  The caller should say so. */
	unsigned c2c_inferred;
	/* Added after c2c_inferred (additive): lines read without a mail
	 * quote prefix ("> ", ">> ": a report pasted into a reply), 0 when
	 * the input was not quoted.  Line numbers are the input's. */
	uint64_t quoted_lines;
	/* Added after quoted_lines (additive): a perf c2c report whose rows
	 * name the accessing nodes but not their CPUs: 1 = node numbers (the
	 * default "Node" column), 2 = per node a CPU count and percentages
	 * (-N, "Node{cpus %hitms %stores}"); 0 otherwise (-NN's
	 * "Node{cpu list}" gives the CPUs).  The caller should say that
	 * perf c2c report -NN gives per-CPU data. */
	unsigned c2c_node_info;
	/* Added after c2c_node_info (additive): perf c2c Pareto rows that
	 * start with a percentage but could not be read (a field that is not
	 * a number where the header puts one), counted in skipped too, and
	 * the 1-based line of the first.  Their samples are lost: the caller
	 * must warn (FILE:LINE). */
	uint64_t c2c_bad_rows;
	uint64_t c2c_bad_line;
	/* Added after c2c_bad_line (additive): perf c2c Pareto rows whose
	 * counts contradict each other (records fewer than the row's stores
	 * plus its HITM and peer loads), read with loads = the HITM and peer
	 * loads and the stores as printed; the 1-based line of the first and
	 * its three counts.  The caller warns once (FILE:LINE). */
	uint64_t c2c_fixed_rows;
	uint64_t c2c_fixed_line;
	uint64_t c2c_fixed_records, c2c_fixed_stores, c2c_fixed_special;
	/* Added after c2c_fixed_special (additive): structlint.profile/v1
	 * keys the format does not have (ignored), how many, and the first:
	 * its name, the 1-based line, and a known key it may mean ("" when
	 * none; "width" -> "size").  The caller warns once (FILE:LINE). */
	uint64_t unknown_keys;
	uint64_t unknown_line;
	char unknown_key[48];
	char unknown_near[24];
};

/*
 * Called once per record.  Return 0 to go on; any other value stops the
 * parse, and slt_samples_read() returns it.
 */
typedef int (*slt_sample_cb)(void *ctx, const struct slt_sample *s);

/*
 * Parse the file at path (or "-" for standard input: pipe-mode perf.data
 * or text) in format fmt (SLT_SAMPLES_AUTO to detect), calling cb for each
 * record.  info may be NULL.  Returns 0, the callback's non-zero value, or
 * a negative SLT_E* code with err filled (file, byte offset or line, what
 * to do): SLT_EIO, SLT_ECORRUPT (truncated or malformed input), SLT_EUSAGE
 * (format not recognised: the hint lists the accepted ones).
 */
int slt_samples_read(const char *path, enum slt_samples_format fmt,
		     slt_sample_cb cb, void *ctx, struct slt_samples_info *info,
		     struct slt_error *err);

/* Same for an in-memory buffer (tests, fuzzing); name is used in messages. */
int slt_samples_read_mem(const void *data, size_t size, const char *name,
			 enum slt_samples_format fmt, slt_sample_cb cb,
			 void *ctx, struct slt_samples_info *info,
			 struct slt_error *err);

/* Format names as used by --samples-format and in JSON: "c2c", "datatype",
 * "perf.data", "perf-script", "profile", "perf-mem".  parse returns -1 when unknown. */
const char *slt_samples_format_name(enum slt_samples_format f);
int slt_samples_format_parse(const char *name);

/*
 * Decode perf's union perf_mem_data_src (include/uapi/linux/perf_event.h)
 * the way perf does (tools/perf/util/mem-events.c): is it a load or a store,
 * a HITM (PERF_MEM_SNOOP_HITM, or PERF_MEM_SNOOPX_PEER for peer), local or
 * remote (PERF_MEM_REMOTE_REMOTE or a remote level).
 */
struct slt_data_src {
	bool load, store;        /* PERF_MEM_OP_LOAD / PERF_MEM_OP_STORE */
	bool hitm;               /* snoop HitM */
	bool peer;               /* snoopx Peer */
	bool remote;             /* remote node/socket */
	bool l1_hit;             /* served by L1 (stores: L1 hit) */
	bool locked;             /* PERF_MEM_LOCK_LOCKED */
};
void slt_data_src_decode(uint64_t data_src, struct slt_data_src *out);

#ifdef __cplusplus
}
#endif
#endif
