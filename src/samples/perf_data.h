/* SPDX-License-Identifier: MIT */
/*
 * perf.data: native reader (perf_data.c, perf_data_sample.c) and a small
 * writer (perf_data_write.c).  Internal to src/samples and its tests.
 *
 * Format: tools/perf/Documentation/perf.data-file-format.txt (file mode:
 * struct perf_file_header, attrs with id arrays, data section, feature
 * sections after the data; pipe mode: a 16-byte header, then attrs and
 * features as PERF_RECORD_HEADER_* records in the stream) and the record
 * layouts of <linux/perf_event.h> (PERF_RECORD_SAMPLE field order).
 * Only native-endian files are decoded; byte-swapped ones are detected and
 * refused with SLT_EUNSUPPORTED.
 */
#ifndef SLT_SAMPLES_PERF_DATA_H
#define SLT_SAMPLES_PERF_DATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "structlint/samples.h"

/* perf's user-space record types (tools/lib/perf/include/perf/event.h,
 * enum perf_user_event_type). */
enum {
	SLT_PERF_RECORD_HEADER_ATTR = 64,
	SLT_PERF_RECORD_HEADER_EVENT_TYPE = 65,
	SLT_PERF_RECORD_HEADER_TRACING_DATA = 66,
	SLT_PERF_RECORD_HEADER_BUILD_ID = 67,
	SLT_PERF_RECORD_FINISHED_ROUND = 68,
	SLT_PERF_RECORD_ID_INDEX = 69,
	SLT_PERF_RECORD_AUXTRACE_INFO = 70,
	SLT_PERF_RECORD_AUXTRACE = 71,
	SLT_PERF_RECORD_HEADER_FEATURE = 80,
	SLT_PERF_RECORD_COMPRESSED = 81,
	SLT_PERF_RECORD_FINISHED_INIT = 82,
	SLT_PERF_RECORD_COMPRESSED2 = 83,  /* u64 data_size, padded */
};

/* Feature bits of the file header's flags bitmap (tools/perf/util/header.h,
 * enum HEADER_*): the ones read or written here. */
enum {
	SLT_PERF_FEAT_BUILD_ID = 2,
	SLT_PERF_FEAT_VERSION = 5,
	SLT_PERF_FEAT_NRCPUS = 7,
	SLT_PERF_FEAT_CMDLINE = 11,
	SLT_PERF_FEAT_EVENT_DESC = 12,
	SLT_PERF_FEAT_COMPRESSED = 27,
	SLT_PERF_FEAT_BITS = 256,
};

/* PERF_SAMPLE_BRANCH_COUNTERS (linux 6.8; not in older uapi headers). */
#define SLT_PERF_SAMPLE_BRANCH_COUNTERS (1ull << 19)

/* Size of the file-mode header (struct perf_file_header) and pipe header. */
#define SLT_PERF_FILE_HEADER_SIZE 104u
#define SLT_PERF_PIPE_HEADER_SIZE 16u

/*
 * True when buf (n bytes, the start of an input) begins with perf.data's
 * magic "PERFILE2" in either byte order.
 */
bool slt_perf_data_detect(const void *buf, size_t n);

/*
 * Read perf.data from path ("-" for standard input).  A regular file is
 * mmapped; a pipe (pipe-mode perf.data only: `perf record -o -`) is read
 * through fixed buffers, so memory does not depend on the sample count.
 * One slt_sample per PERF_RECORD_SAMPLE that carries PERF_SAMPLE_ADDR;
 * everything else is counted in info->skipped.  Returns 0, the callback's
 * non-zero value, or SLT_EIO / SLT_ECORRUPT / SLT_EUNSUPPORTED with err
 * filled (file, byte offset of the bad record or header field).
 */
int slt_perf_data_read(const char *path, slt_sample_cb cb, void *ctx,
		       struct slt_samples_info *info, struct slt_error *err);

/* Same from memory (file or pipe mode).  data is not modified. */
int slt_perf_data_read_mem(const void *data, size_t size, const char *name,
			   slt_sample_cb cb, void *ctx,
			   struct slt_samples_info *info,
			   struct slt_error *err);

/* Same from an open descriptor (not closed here): mmapped when it is a
 * regular file, streamed otherwise. */
int slt_perf_data_read_fd(int fd, const char *name, slt_sample_cb cb,
			  void *ctx, struct slt_samples_info *info,
			  struct slt_error *err);

/* ---- sample decoding (perf_data_sample.c) ---- */

/*
 * Where the fields structlint reads sit in a PERF_RECORD_SAMPLE of one
 * attr when its sample_type has no variable-length field (READ,
 * CALLCHAIN, RAW, BRANCH_STACK, REGS_USER, STACK_USER, REGS_INTR, AUX):
 * byte offsets from the record start (header included), -1 when the
 * field is absent.  Lets the reader take a sample without walking every
 * sample_type bit (perf_data_sample.c fills it; slt_perf_sample_decode()
 * stays the reference and handles every other layout).
 */
struct slt_perf_fast {
	bool fixed;          /* the offsets below are valid */
	bool weight_struct;  /* WEIGHT_STRUCT: the weight is the low 32 bits */
	uint16_t size;       /* bytes a record needs for that layout */
	int16_t ip, tid, addr, cpu, weight, data_src, phys_addr;
};

/* One event (attr) of a perf.data file, with what decoding needs. */
struct slt_perf_attr {
	struct perf_event_attr attr;  /* zero-extended to this header's size */
	unsigned n_regs_user;         /* popcount(sample_regs_user) */
	unsigned n_regs_intr;         /* popcount(sample_regs_intr) */
	char name[64];                /* EVENT_DESC name, or a generic one */
	struct slt_perf_fast fast;    /* by slt_perf_attr_prepare() */
};

/* The fields of a PERF_RECORD_SAMPLE that structlint uses. */
struct slt_perf_sample {
	uint64_t type;      /* the attr's sample_type */
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t weight;    /* PERF_SAMPLE_WEIGHT, or WEIGHT_STRUCT var1_dw */
	uint64_t data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	uint64_t n_callchain, n_branch, raw_size, aux_size;
};

/* Fill a->n_regs_* and a->fast from a->attr. */
void slt_perf_attr_prepare(struct slt_perf_attr *a);

/*
 * Byte offset, from the start of a PERF_RECORD_SAMPLE (header included),
 * of its event id for sample_type, or -1 when it has none (IDENTIFIER: 8;
 * ID: after IP, TID, TIME, ADDR).
 */
int slt_perf_sample_id_pos(uint64_t sample_type);

/*
 * Decode the sample record rec (size bytes, header included) for attr a,
 * every sample_type bit in the kernel's order.  Returns 0, or
 * SLT_ECORRUPT when a field would lie past size (*bad_off: where).
 */
int slt_perf_sample_decode(const struct slt_perf_attr *a, const uint8_t *rec,
			   size_t size, struct slt_perf_sample *out,
			   size_t *bad_off);

/* slt_data_src_decode() results by raw value, direct-mapped: a recording
 * holds few distinct data_src values.  Zero-initialise before use. */
#define SLT_PERF_DSRC_CACHE 64
struct slt_perf_dsrc_cache {
	uint64_t key[SLT_PERF_DSRC_CACHE];
	uint64_t valid;   /* bit k: key[k]/val[k] hold a value */
	struct slt_data_src val[SLT_PERF_DSRC_CACHE];
};

/*
 * Turn the sample record rec (size bytes) of attr a into *s, as the
 * perf.data reader hands it out: one access (slt_sample_count_access()),
 * event a->name.  *s is reused from sample to sample: initialise it once
 * (zero, node -1); every field a perf.data sample can set is rewritten
 * here, the others are left alone.  An attr with a fixed layout (a->fast)
 * is read at its offsets, any other through slt_perf_sample_decode().
 * Returns 1, 0 when the sample has no PERF_SAMPLE_ADDR (not a memory
 * sample: *s untouched), or SLT_ECORRUPT (*bad_off: where).
 * *unknown_kind: counted as a load for want of a data_src op.
 */
int slt_perf_sample_take(const struct slt_perf_attr *a, const uint8_t *rec,
			 size_t size, struct slt_sample *s,
			 struct slt_perf_dsrc_cache *dc, bool *unknown_kind,
			 size_t *bad_off);

/* A generic event name for attrs without EVENT_DESC ("page-faults",
 * "cycles", "raw:0x1cd", "type4:0x1cd"). */
void slt_perf_attr_generic_name(const struct perf_event_attr *attr,
				char *buf, size_t size);

/* ---- records other than memory samples (for src/weight) ---- */

/*
 * Called for every record the memory-sample reader does not turn into an
 * slt_sample: a PERF_RECORD_SAMPLE without PERF_SAMPLE_ADDR (an IP sample:
 * cpu-clock, cycles; a is its event) and the kernel's other record types
 * below 64 (MMAP, MMAP2, FORK, COMM, EXIT...; a is NULL), and the
 * build-id table (the HEADER_BUILD_ID feature section's entries, or pipe
 * mode's records: each as a record of type SLT_PERF_RECORD_HEADER_BUILD_ID,
 * struct perf_record_header_build_id: pid at 8, build_id[20] at 12, its
 * size at 32 when misc has bit 15, filename at 36; a is NULL, off the
 * entry's offset; in file mode before the data).  rec is the whole
 * record (header included, size bytes, untrusted: check every field
 * against size), off its byte offset in the file or stream.  Return 0 to
 * go on; anything else stops the read and is returned.
 */
typedef int (*slt_perf_rec_cb)(void *ctx, const struct slt_perf_attr *a,
			       const uint8_t *rec, size_t size, uint64_t off);

/* slt_perf_data_read() / _read_mem() with rec_cb (may be NULL) called as
 * above; cb gets the memory samples as before (may be NULL). */
int slt_perf_data_read_hook(const char *path, slt_sample_cb cb, void *ctx,
			    slt_perf_rec_cb rec_cb, void *rec_ctx,
			    struct slt_samples_info *info, struct slt_error *err);
int slt_perf_data_read_mem_hook(const void *data, size_t size,
				const char *name, slt_sample_cb cb, void *ctx,
				slt_perf_rec_cb rec_cb, void *rec_ctx,
				struct slt_samples_info *info,
				struct slt_error *err);

/* Fields of a sample at the fixed offsets of a->fast, or decoded:
 * 0 and *out, SLT_ECORRUPT when the record is too short. */
int slt_perf_sample_fields(const struct slt_perf_attr *a, const uint8_t *rec,
			   size_t size, struct slt_perf_sample *out);

/* ---- feature sections (perf_data_feat.c) ---- */

struct slt_perf_feat_ctx {
	char *version;             /* VERSION string goes here */
	size_t version_size;
	unsigned *nr_cpus;         /* NRCPUS: nr_cpus_online */
	struct slt_perf_attr *attrs;  /* EVENT_DESC names go to these */
	size_t n_attrs;
	int (*find_id)(const void *id_ctx, uint64_t id); /* attr index or -1 */
	const void *id_ctx;
	slt_perf_rec_cb rec_cb;    /* BUILD_ID entries (above), or NULL */
	void *rec_ctx;
};
/* Read feature section bit (b, n bytes, untrusted) into c. */
void slt_perf_feature(const struct slt_perf_feat_ctx *c, unsigned bit,
		      const uint8_t *b, size_t n);

/* ---- writer (perf_data_write.c) ---- */

struct slt_pdw;

enum slt_pdw_flags {
	SLT_PDW_PIPE = 1u << 0,       /* pipe mode (16-byte header, attrs as
					 HEADER_ATTR records) */
	SLT_PDW_COMPRESS = 1u << 1,   /* records packed in zstd
					 PERF_RECORD_COMPRESSED */
	SLT_PDW_NO_FEATURES = 1u << 2,/* no feature sections at all */
};

/*
 * Open a writer on fd (owned by the caller, not closed).  File mode needs
 * a seekable fd (the header is rewritten on close).  Returns 0 or
 * SLT_ENOMEM; *out is freed by slt_pdw_close().
 */
int slt_pdw_open(struct slt_pdw **out, int fd, unsigned flags,
		 struct slt_error *err);
/* Add an event before the first record: attr (attr->size must be set),
 * its name (may be NULL) and its ids (copied).  Returns its index >= 0, or
 * a negative SLT_E* code. */
int slt_pdw_add_event(struct slt_pdw *w, const struct perf_event_attr *attr,
		      const char *name, const uint64_t *ids, size_t n_ids);
/* Feature values written at close (strings copied; NULL or 0: not set). */
void slt_pdw_set_info(struct slt_pdw *w, unsigned nr_cpus,
		      const char *version, int argc, char *const *argv);

/* Everything a sample can hold; fields are written for the bits set in
 * the event's sample_type, in the kernel's order. */
struct slt_pdw_sample {
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu;
	const uint64_t *read;  size_t n_read;      /* READ: u64 words */
	const uint64_t *callchain; size_t n_callchain;
	const void *raw; uint32_t raw_size;        /* padded to 8 by writer */
	const uint64_t *branch; size_t n_branch;   /* 3 words per entry */
	uint64_t hw_idx;                           /* BRANCH_HW_INDEX */
	const uint64_t *branch_cntr;               /* n_branch words, with
						      BRANCH_COUNTERS */
	uint64_t regs_user_abi; const uint64_t *regs_user; /* popcount words */
	const void *stack; uint64_t stack_size; uint64_t stack_dyn_size;
	uint64_t weight, data_src, transaction;
	uint64_t regs_intr_abi; const uint64_t *regs_intr;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	const void *aux; uint64_t aux_size;
};

/* Encode and append one PERF_RECORD_SAMPLE of event ev.  Returns 0,
 * SLT_EUSAGE (bad event, record over 64 KiB) or SLT_EIO. */
int slt_pdw_sample(struct slt_pdw *w, int ev, const struct slt_pdw_sample *s,
		   struct slt_error *err);
/* Append a raw record (header included, size = header.size). */
int slt_pdw_record(struct slt_pdw *w, const void *rec, size_t size,
		   struct slt_error *err);
/* An entry of the HEADER_BUILD_ID feature section (file mode, written at
 * close): build-id id (1..20 bytes) of filename for pid (-1: any), misc
 * PERF_RECORD_MISC_KERNEL or _USER, as perf record writes it for every
 * binary with samples.  0, or SLT_ENOMEM / SLT_EUSAGE (bad length). */
int slt_pdw_add_build_id(struct slt_pdw *w, int32_t pid, uint16_t misc,
			 const uint8_t *id, size_t len, const char *filename);
/* Flush, write the feature sections and the final header; frees w.
 * Returns 0 or SLT_EIO. */
int slt_pdw_close(struct slt_pdw *w, struct slt_error *err);

/* Words of a READ value for read_format with nr group members (nr is
 * ignored without PERF_FORMAT_GROUP). */
size_t slt_pdw_read_words(uint64_t read_format, uint64_t nr);

#endif
