/* SPDX-License-Identifier: MIT */
/*
 * Reader of the JSON access profile "structlint.profile/v1".
 *
 * THE FORMAT (the man page copies this block)
 *
 * A profile is one JSON object (RFC 8259, UTF-8, duplicate keys rejected,
 * at most SLT_PROFILE_MAX_BYTES = 256 MiB):
 *
 *   {
 *     "schema": "structlint.profile/v1",            required
 *     "tool": "perf c2c 6.1 via structlint",        optional, free text
 *     "cacheline_size": 64,                         optional, bytes
 *     "structs": [                                  optional
 *       { "type": "struct mem_cgroup_per_node",     required, as in C or
 *                                                   the bare tag
 *         "members": [                              required
 *           { "member": "lruvec.lists[2]",          member path, and/or
 *             "offset": 1592,                       bytes from the start
 *                                                   of the struct
 *             "loads": 120, "stores": 40,           totals (optional)
 *             "hitm_local": 3, "hitm_remote": 1,
 *             "peer_local": 0, "peer_remote": 0,
 *             "cycles": 9120,
 *             "rows": [                             optional breakdown
 *               { "cpu": 3, "loads": 100, "stores": 40,
 *                 "symbol": "lru_add_fn+0x2c", "source": "mm/swap.c:212",
 *                 "ip": "0xffffffff81234567" },
 *               { "cpu": 5, "loads": 20 } ] } ] } ],
 *     "samples": [                                  optional raw records
 *       { "addr": "0xffff888100a3c040", "cpu": 2, "stores": 1,
 *         "ip": "0xffffffff81234567", "data_src": "0x68100142" } ]
 *   }
 *
 * Row keys (in "rows" and in "samples"; all optional):
 *   cpu, node            integer, -1 = unknown
 *   pid, tid             integer, -1 = unknown
 *   cpus                 array of CPU numbers 0..65535 (which CPUs touched
 *                        it, like perf c2c's node{cpus})
 *   addr, phys_addr      data virtual / physical address
 *   line_addr            cacheline address, line_offset: byte in that line
 *   ip                   code address; symbol ("func+0x10"), source
 *                        ("file.c:123"), event ("mem-loads"): strings
 *   data_src             raw perf_mem_data_src (include/uapi/linux/
 *                        perf_event.h), decoded as perf c2c decodes a
 *                        sample for what the row does not state: without
 *                        loads and stores the row is one access, a load
 *                        or store by mem_op (an error when mem_op is
 *                        neither); without hitm_* and peer_*, its loads
 *                        are HITM (snoop HitM) or peer (snoopx Peer)
 *                        loads, local or remote, as it says (snoopx Fwd
 *                        is neither); explicit fields win
 *   size                 bytes accessed
 *   object               binary/DSO of the code ("[kernel.kallsyms]")
 *   cpu_count            distinct CPUs that made the accesses (perf c2c
 *                        "cpu cnt"), when the CPUs themselves are unknown
 *   loads, stores, hitm_local, hitm_remote, peer_local, peer_remote
 *                        counts in samples; cycles: sum of load latencies
 * "samples" rows may also carry "type" (string), "offset" and "member".
 *
 * Numbers: every count, address and offset is an unsigned 64-bit value,
 * written as a JSON integer (0 .. 2^63-1) or as a string holding a decimal
 * or "0x" hexadecimal number (needed above 2^63-1: kernel addresses).  The
 * writer uses hex strings for addr, phys_addr, line_addr, ip and data_src,
 * and a row with a data_src states all its counts, zeros too (else a
 * reader would decode the unsaid ones from data_src).
 *
 * Records (include/structlint/samples.h) come out in document order:
 *   - a "members" entry without "rows" gives one record with its totals;
 *   - an entry with "rows" gives one record per row (so per-CPU and
 *     per-location counts survive), each carrying the entry's member and
 *     offset; when the entry also states totals, each total must be at
 *     least the sum of its rows, and a non-zero remainder becomes one more
 *     record with cpu -1 (counts not attributed to a row);
 *   - entry records have type_name = the struct's "type", flag
 *     SLT_SAMPLE_TYPE (type_offset = "offset") when "offset" is given and
 *     SLT_SAMPLE_MEMBER (member = "member") when "member" is given;
 *   - each "samples" row gives one record.
 * Row flags follow the keys present: addr -> SLT_SAMPLE_ADDR, line_addr or
 * line_offset -> SLT_SAMPLE_LINE, cpu -> SLT_SAMPLE_CPU, pid or tid ->
 * SLT_SAMPLE_TID, ip -> SLT_SAMPLE_IP, phys_addr -> SLT_SAMPLE_PHYS,
 * data_src -> SLT_SAMPLE_DATA_SRC, cpus -> SLT_SAMPLE_CPUS.
 *
 * Compatibility: keys may be added within v1; a reader ignores keys it does
 * not know, except a key within a small edit distance of a known one
 * ("laods"), which is reported as a likely typo.  Dropping or renaming a
 * key bumps the version; a "structlint.profile/v2" document is refused
 * with SLT_EUNSUPPORTED.
 *
 * Errors name the JSON line and column of the offending value (jansson's
 * position for syntax errors; for a wrong value, a re-scan of the text
 * along the path to it).  The whole document is checked before the first
 * record is delivered: a bad profile yields no records.
 */
#include "structlint/profile.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strdist.h"
#include "samples/parsers.h"
#include "samples/profile_int.h"

#define MAX_CPUS 65536            /* entries in one "cpus" list */

/* ---- keys ----------------------------------------------------------- */

enum { K_ROW = 1, K_SAMPLE = 2, K_ENTRY = 4, K_STRUCT = 8, K_TOP = 16 };

enum key_id {
	F_LOADS, F_STORES, F_HITM_L, F_HITM_R, F_PEER_L, F_PEER_R, F_CYCLES,
	N_COUNTS,
	F_ADDR = N_COUNTS, F_PHYS, F_LINE_ADDR, F_LINE_OFF, F_CPU, F_NODE,
	F_PID, F_TID, F_CPUS, F_IP, F_SYMBOL, F_SOURCE, F_EVENT, F_DATA_SRC,
	F_SIZE, F_OBJECT, F_CPU_COUNT, F_TYPE, F_OFFSET, F_MEMBER, F_ROWS, F_MEMBERS, F_SCHEMA,
	F_TOOL, F_CLSIZE, F_STRUCTS, F_SAMPLES,
};

static const struct keydef {
	const char *name;
	enum key_id id;
	unsigned kinds;
} keys[] = {
	{ "loads", F_LOADS, K_ROW | K_SAMPLE | K_ENTRY },
	{ "stores", F_STORES, K_ROW | K_SAMPLE | K_ENTRY },
	{ "hitm_local", F_HITM_L, K_ROW | K_SAMPLE | K_ENTRY },
	{ "hitm_remote", F_HITM_R, K_ROW | K_SAMPLE | K_ENTRY },
	{ "peer_local", F_PEER_L, K_ROW | K_SAMPLE | K_ENTRY },
	{ "peer_remote", F_PEER_R, K_ROW | K_SAMPLE | K_ENTRY },
	{ "cycles", F_CYCLES, K_ROW | K_SAMPLE | K_ENTRY },
	{ "addr", F_ADDR, K_ROW | K_SAMPLE },
	{ "phys_addr", F_PHYS, K_ROW | K_SAMPLE },
	{ "line_addr", F_LINE_ADDR, K_ROW | K_SAMPLE },
	{ "line_offset", F_LINE_OFF, K_ROW | K_SAMPLE },
	{ "cpu", F_CPU, K_ROW | K_SAMPLE },
	{ "node", F_NODE, K_ROW | K_SAMPLE },
	{ "pid", F_PID, K_ROW | K_SAMPLE },
	{ "tid", F_TID, K_ROW | K_SAMPLE },
	{ "cpus", F_CPUS, K_ROW | K_SAMPLE },
	{ "ip", F_IP, K_ROW | K_SAMPLE },
	{ "symbol", F_SYMBOL, K_ROW | K_SAMPLE },
	{ "source", F_SOURCE, K_ROW | K_SAMPLE },
	{ "event", F_EVENT, K_ROW | K_SAMPLE },
	{ "data_src", F_DATA_SRC, K_ROW | K_SAMPLE },
	{ "size", F_SIZE, K_ROW | K_SAMPLE },
	{ "object", F_OBJECT, K_ROW | K_SAMPLE },
	{ "cpu_count", F_CPU_COUNT, K_ROW | K_SAMPLE },
	{ "type", F_TYPE, K_SAMPLE | K_STRUCT },
	{ "offset", F_OFFSET, K_SAMPLE | K_ENTRY },
	{ "member", F_MEMBER, K_SAMPLE | K_ENTRY },
	{ "rows", F_ROWS, K_ENTRY },
	{ "members", F_MEMBERS, K_STRUCT },
	{ "schema", F_SCHEMA, K_TOP },
	{ "tool", F_TOOL, K_TOP },
	{ "cacheline_size", F_CLSIZE, K_TOP },
	{ "structs", F_STRUCTS, K_TOP },
	{ "samples", F_SAMPLES, K_TOP },
};

/* Words other tools use for a key of the format (an unknown key that is
 * one of them: "did you mean" the key). */
static const struct { const char *word, *key; } synonyms[] = {
	{ "width", "size" }, { "bytes", "size" }, { "len", "size" }, { "length", "size" },
	{ "access_size", "size" }, { "off", "offset" }, { "field", "member" },
	{ "reads", "loads" }, { "writes", "stores" },
};

/* An unknown key, ignored: counted, and the first recorded for the
 * caller's one warning (struct slt_samples_info), in the checking pass
 * only and not on an entry's second reading of its rows (both see the
 * same keys again). */
static void unknown_key(struct pctx *pc, const char *key, unsigned kind)
{
	struct slt_samples_info *in = pc->info;
	if (!pc->dry || pc->reread || !in || in->unknown_keys++)
		return;
	snprintf(in->unknown_key, sizeof(in->unknown_key), "%s", key);
	in->unknown_near[0] = 0;
	for (size_t i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++)
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strcmp(synonyms[i].word, key) && !strcmp(keys[k].name, synonyms[i].key) &&
			    (keys[k].kinds & kind))
				snprintf(in->unknown_near, sizeof(in->unknown_near), "%s", keys[k].name);
	size_t off = slt_pj_locate(pc);
	in->unknown_line = 1;
	for (size_t i = 0; i < off && i < pc->size; i++)
		in->unknown_line += pc->text[i] == '\n';
}

/* The key's id, or -1 for an unknown key (ignored), or an error for a
 * likely typo of a key allowed here. */
static int key_lookup(struct pctx *pc, const char *key, unsigned kind,
		      int *id)
{
	const char *near = NULL;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!(keys[i].kinds & kind)) {
			if (strcmp(keys[i].name, key) == 0)
				return FAIL(pc, keys[i].kinds & K_ROW ?
					    "per-CPU and per-location fields go "
					    "in \"rows\" or \"samples\"" : NULL,
					    "key \"%s\" is not allowed here",
					    key);
			continue;
		}
		if (strcmp(keys[i].name, key) == 0) {
			*id = (int)keys[i].id;
			return 0;
		}
		unsigned lim = strlen(keys[i].name) <= 4 ? 1 : 2;
		if (!near && slt_strdist(key, keys[i].name, lim) <= lim)
			near = keys[i].name;
	}
	*id = -1;
	if (near) {
		char hint[96];
		snprintf(hint, sizeof(hint), "did you mean \"%s\"?", near);
		return FAIL(pc, hint, "unknown key \"%.64s\"", key);
	}
	unknown_key(pc, key, kind);
	return 0;
}

static uint64_t *count_field(struct slt_sample *s, int id)
{
	switch (id) {
	case F_LOADS: return &s->loads;
	case F_STORES: return &s->stores;
	case F_HITM_L: return &s->hitm_local;
	case F_HITM_R: return &s->hitm_remote;
	case F_PEER_L: return &s->peer_local;
	case F_PEER_R: return &s->peer_remote;
	default: return &s->cycles;
	}
}

static int get_cpus(struct pctx *pc, const json_t *v, struct slt_sample *s)
{
	if (!json_is_array(v))
		return FAIL(pc, NULL, "cpus must be an array, not %s",
			    slt_pj_kind(v));
	size_t n = json_array_size(v);
	if (n > MAX_CPUS)
		return FAIL(pc, NULL, "cpus lists %zu entries (at most %d)", n,
			    MAX_CPUS);
	if (n > pc->cpus_cap) {
		uint16_t *b = realloc(pc->cpus, n * sizeof(*b));
		if (!b)
			return slt_error_set(pc->err, SLT_ENOMEM, pc->name, -1,
					     NULL, "out of memory");
		pc->cpus = b;
		pc->cpus_cap = n;
	}
	for (size_t i = 0; i < n; i++) {
		int64_t c;
		slt_pj_push_index(pc, i);
		int rc = slt_pj_int(pc, "cpus[]", json_array_get(v, i), 0, 65535, &c);
		slt_pj_pop(pc);
		if (rc)
			return rc;
		pc->cpus[i] = (uint16_t)c;
	}
	s->cpus = pc->cpus;
	s->n_cpus = n;
	return 0;
}

/*
 * A row's data_src (perf's union perf_mem_data_src) decoded as perf c2c
 * decodes a sample's, for what the row does not state itself (explicit
 * fields win): without "loads" and "stores", the row is one sampled
 * access, a store or a load by mem_op; without hitm_* and peer_*, each of
 * its loads hit a modified line (snoop HitM) or a peer cache (snoopx
 * Peer), locally or remotely, as data_src says (snoopx Fwd, a clean
 * forward, is neither).  A data_src whose mem_op is neither load nor
 * store cannot give the kind: an error when the row states none.
 */
static int row_data_src(struct pctx *pc, struct slt_sample *s, unsigned has)
{
	const unsigned kind = 1u << F_LOADS | 1u << F_STORES;
	const unsigned snoop = 1u << F_HITM_L | 1u << F_HITM_R | 1u << F_PEER_L |
			       1u << F_PEER_R;
	struct slt_data_src d;
	slt_data_src_decode(s->data_src, &d);
	if (!(has & kind)) {
		if (!d.load && !d.store) {
			slt_pj_push_key(pc, "data_src");
			int rc = FAIL(pc, "add \"loads\" or \"stores\" to the row, or give the "
				      "sample's raw data_src (perf script -F data_src)",
				      "data_src 0x%" PRIx64 " says neither load nor store "
				      "(mem_op %" PRIu64 "), and the row states no kind",
				      s->data_src, (s->data_src >> PERF_MEM_OP_SHIFT) & 0x1f);
			slt_pj_pop(pc);
			return rc;
		}
		s->stores = d.store;
		s->loads = !d.store;
	}
	if (!(has & snoop) && d.load) {
		if (d.hitm)
			*(d.remote ? &s->hitm_remote : &s->hitm_local) = s->loads;
		if (d.peer)
			*(d.remote ? &s->peer_remote : &s->peer_local) = s->loads;
	}
	return 0;
}

/*
 * Read the keys of obj allowed in kind into s (counts, row fields, and for
 * K_SAMPLE type/offset/member).  Keys handled by the caller (rows,
 * members, ...) are skipped.  *has_counts gets a bit per count key seen.
 * A row's data_src fills what its keys leave out (row_data_src()).
 */
static int read_fields(struct pctx *pc, const json_t *obj, unsigned kind,
		       struct slt_sample *s, unsigned *has_counts)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		int id = -1, rc;
		slt_pj_push_key(pc, key);
		rc = key_lookup(pc, key, kind, &id);
		int64_t x = 0;
		uint64_t u = 0;
		if (rc == 0 && id >= 0 && id < N_COUNTS) {
			rc = slt_pj_u64(pc, key, v, count_field(s, id));
			*has_counts |= 1u << id;
		} else if (rc == 0) {
			switch (id) {
			case F_ADDR:
				rc = slt_pj_u64(pc, key, v, &s->addr);
				s->flags |= SLT_SAMPLE_ADDR;
				break;
			case F_PHYS:
				rc = slt_pj_u64(pc, key, v, &s->phys_addr);
				s->flags |= SLT_SAMPLE_PHYS;
				break;
			case F_LINE_ADDR:
				rc = slt_pj_u64(pc, key, v, &s->line_addr);
				s->flags |= SLT_SAMPLE_LINE;
				break;
			case F_LINE_OFF:
				rc = slt_pj_u64(pc, key, v, &u);
				if (rc == 0 && u > UINT32_MAX)
					rc = FAIL(pc, NULL, "line_offset %" PRIu64
						  " is too large", u);
				s->line_offset = (uint32_t)u;
				s->flags |= SLT_SAMPLE_LINE;
				break;
			case F_SIZE:
				rc = slt_pj_u64(pc, key, v, &u);
				if (rc == 0 && u > UINT32_MAX)
					rc = FAIL(pc, NULL, "size %" PRIu64
						  " is too large", u);
				s->access_size = (uint32_t)u;
				break;
			case F_CPU:
				rc = slt_pj_int(pc, key, v, -1, INT32_MAX, &x);
				s->cpu = (int32_t)x;
				s->flags |= SLT_SAMPLE_CPU;
				break;
			case F_NODE:
				rc = slt_pj_int(pc, key, v, -1, INT32_MAX, &x);
				s->node = (int32_t)x;
				break;
			case F_PID:
				rc = slt_pj_int(pc, key, v, -1, INT32_MAX, &x);
				s->pid = (int32_t)x;
				s->flags |= SLT_SAMPLE_TID;
				break;
			case F_TID:
				rc = slt_pj_int(pc, key, v, -1, INT32_MAX, &x);
				s->tid = (int32_t)x;
				s->flags |= SLT_SAMPLE_TID;
				break;
			case F_CPUS:
				rc = get_cpus(pc, v, s);
				s->flags |= SLT_SAMPLE_CPUS;
				break;
			case F_IP:
				rc = slt_pj_u64(pc, key, v, &s->ip);
				s->flags |= SLT_SAMPLE_IP;
				break;
			case F_DATA_SRC:
				rc = slt_pj_u64(pc, key, v, &s->data_src);
				s->flags |= SLT_SAMPLE_DATA_SRC;
				break;
			case F_SYMBOL:
				rc = slt_pj_str(pc, key, v, false, &s->symbol);
				break;
			case F_SOURCE:
				rc = slt_pj_str(pc, key, v, false, &s->source);
				break;
			case F_EVENT:
				rc = slt_pj_str(pc, key, v, false, &s->event);
				break;
			case F_OBJECT:
				rc = slt_pj_str(pc, key, v, false, &s->object);
				break;
			case F_CPU_COUNT:
				rc = slt_pj_int(pc, key, v, 0, UINT32_MAX, &x);
				s->cpu_count = (uint32_t)x;
				break;
			case F_TYPE:
				if (kind == K_SAMPLE)
					rc = slt_pj_str(pc, key, v, false,
						     &s->type_name);
				break;
			case F_OFFSET:
				if (kind == K_SAMPLE) {
					rc = slt_pj_u64(pc, key, v,
						     &s->type_offset);
					s->flags |= SLT_SAMPLE_TYPE;
				}
				break;
			case F_MEMBER:
				if (kind == K_SAMPLE) {
					rc = slt_pj_str(pc, key, v, false,
						     &s->member);
					s->flags |= SLT_SAMPLE_MEMBER;
				}
				break;
			default:
				break;   /* unknown, or handled by the caller */
			}
		}
		slt_pj_pop(pc);
		if (rc)
			return rc;
	}
	if ((kind & (K_ROW | K_SAMPLE)) && (s->flags & SLT_SAMPLE_DATA_SRC))
		return row_data_src(pc, s, *has_counts);
	return 0;
}

static void sample_init(struct slt_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = -1;
	s->pid = -1;
	s->tid = -1;
	s->node = -1;
}

static int emit(struct pctx *pc, const struct slt_sample *s)
{
	if (pc->dry)
		return 0;
	if (pc->info) {
		pc->info->records++;
		uint64_t n = s->loads + s->stores;
		if (n < s->loads)
			n = UINT64_MAX;
		pc->info->samples = pc->info->samples + n < pc->info->samples ?
				    UINT64_MAX : pc->info->samples + n;
	}
	return pc->cb(pc->cbctx, s);
}

static const json_t *get_array(struct pctx *pc, const json_t *obj,
			       const char *key, int *rc)
{
	json_t *v = json_object_get(obj, key);
	*rc = 0;
	if (v && !json_is_array(v)) {
		slt_pj_push_key(pc, key);
		*rc = FAIL(pc, NULL, "%s must be an array, not %s", key,
			   slt_pj_kind(v));
		slt_pj_pop(pc);
		return NULL;
	}
	return v;
}

/* One "members" entry of a struct whose "type" is type_name. */
static int read_entry(struct pctx *pc, const json_t *e, const char *type_name)
{
	if (!json_is_object(e))
		return FAIL(pc, NULL, "a members entry must be an object, not %s",
			    slt_pj_kind(e));
	struct slt_sample base, tot;
	sample_init(&base);
	base.type_name = type_name;
	json_t *m = json_object_get(e, "member"), *o = json_object_get(e, "offset");
	int rc = 0;
	if (!m && !o)
		return FAIL(pc, "give \"member\" (a path such as \"a.b[2]\"), "
			    "\"offset\" (bytes), or both",
			    "entry names neither a member nor an offset");
	if (m) {
		slt_pj_push_key(pc, "member");
		rc = slt_pj_str(pc, "member", m, true, &base.member);
		slt_pj_pop(pc);
		base.flags |= SLT_SAMPLE_MEMBER;
	}
	if (!rc && o) {
		slt_pj_push_key(pc, "offset");
		rc = slt_pj_u64(pc, "offset", o, &base.type_offset);
		slt_pj_pop(pc);
		base.flags |= SLT_SAMPLE_TYPE;
	}
	if (rc)
		return rc;
	unsigned has = 0;
	tot = base;
	if ((rc = read_fields(pc, e, K_ENTRY, &tot, &has)) != 0)
		return rc;
	const json_t *rows = get_array(pc, e, "rows", &rc);
	if (rc)
		return rc;
	if (!rows)
		return emit(pc, &tot);

	/* Pass 1: check every row and sum the counts. */
	uint64_t sum[N_COUNTS] = { 0 };
	bool over[N_COUNTS] = { false };
	slt_pj_push_key(pc, "rows");
	for (size_t i = 0; i < json_array_size(rows) && !rc; i++) {
		const json_t *r = json_array_get(rows, i);
		struct slt_sample s = base;
		unsigned rh = 0;
		slt_pj_push_index(pc, i);
		if (!json_is_object(r))
			rc = FAIL(pc, NULL, "a row must be an object, not %s",
				  slt_pj_kind(r));
		else
			rc = read_fields(pc, r, K_ROW, &s, &rh);
		for (int k = 0; k < N_COUNTS && !rc; k++) {
			uint64_t c = *count_field(&s, k);
			over[k] |= sum[k] + c < sum[k];
			sum[k] += c;
		}
		slt_pj_pop(pc);
	}
	slt_pj_pop(pc);
	if (rc)
		return rc;
	struct slt_sample rest = base;
	bool any_rest = false;
	for (int k = 0; k < N_COUNTS; k++) {
		if (!(has & (1u << k)))
			continue;
		uint64_t t = *count_field(&tot, k);
		if (over[k]) {
			slt_pj_push_key(pc, keys[k].name);
			rc = FAIL(pc, "a total counts all its rows: fix the "
				  "total or the rows",
				  "the rows' %s overflow 64 bits, the total "
				  "cannot hold them", keys[k].name);
			slt_pj_pop(pc);
			return rc;
		}
		if (t < sum[k]) {
			slt_pj_push_key(pc, keys[k].name);
			rc = FAIL(pc, "a total counts all its rows: fix the "
				  "total or the rows",
				  "%s total %" PRIu64 " is less than the sum "
				  "of its rows (%" PRIu64 ")", keys[k].name,
				  t, sum[k]);
			slt_pj_pop(pc);
			return rc;
		}
		*count_field(&rest, k) = t - sum[k];
		any_rest |= t > sum[k];
	}
	/* Pass 2: emit (the rows' keys seen once already). */
	pc->reread = true;
	for (size_t i = 0; i < json_array_size(rows); i++) {
		struct slt_sample s = base;
		unsigned rh = 0;
		slt_pj_push_key(pc, "rows");
		slt_pj_push_index(pc, i);
		rc = read_fields(pc, json_array_get(rows, i), K_ROW, &s, &rh);
		slt_pj_pop(pc);
		slt_pj_pop(pc);
		if (rc || (rc = emit(pc, &s)) != 0)
			break;
	}
	pc->reread = false;
	if (rc)
		return rc;
	return any_rest ? emit(pc, &rest) : 0;
}

static int read_struct(struct pctx *pc, const json_t *st)
{
	if (!json_is_object(st))
		return FAIL(pc, NULL, "a structs entry must be an object, not %s",
			    slt_pj_kind(st));
	unsigned has = 0;
	struct slt_sample dummy;
	sample_init(&dummy);
	int rc = read_fields(pc, st, K_STRUCT, &dummy, &has);
	if (rc)
		return rc;
	const char *type_name;
	json_t *t = json_object_get(st, "type");
	if (!t)
		return FAIL(pc, "add \"type\": \"struct NAME\"",
			    "structs entry without \"type\"");
	slt_pj_push_key(pc, "type");
	rc = slt_pj_str(pc, "type", t, true, &type_name);
	slt_pj_pop(pc);
	if (rc)
		return rc;
	const json_t *members = get_array(pc, st, "members", &rc);
	if (rc)
		return rc;
	if (!members)
		return FAIL(pc, "add \"members\": [...]",
			    "structs entry \"%.80s\" without \"members\"",
			    type_name);
	slt_pj_push_key(pc, "members");
	for (size_t i = 0; i < json_array_size(members) && !rc; i++) {
		slt_pj_push_index(pc, i);
		rc = read_entry(pc, json_array_get(members, i), type_name);
		slt_pj_pop(pc);
	}
	slt_pj_pop(pc);
	return rc;
}

static int read_top(struct pctx *pc, const json_t *root)
{
	if (!json_is_object(root))
		return FAIL(pc, NULL, "a profile is a JSON object, not %s",
			    slt_pj_kind(root));
	json_t *schema = json_object_get(root, "schema");
	if (!schema)
		return FAIL(pc, "add \"schema\": \"" SLT_PROFILE_SCHEMA "\"",
			    "no \"schema\" key: not a structlint profile");
	const char *sv;
	slt_pj_push_key(pc, "schema");
	int rc = slt_pj_str(pc, "schema", schema, false, &sv);
	if (!rc && strcmp(sv, SLT_PROFILE_SCHEMA) != 0) {
		if (strncmp(sv, "structlint.profile/", 19) == 0)
			rc = slt_pj_fail_at(pc, slt_pj_locate(pc), SLT_EUNSUPPORTED,
				     "this structlint reads "
				     SLT_PROFILE_SCHEMA,
				     "unsupported profile version \"%.40s\"",
				     sv);
		else
			rc = FAIL(pc, "expected \"" SLT_PROFILE_SCHEMA "\"",
				  "schema \"%.60s\" is not a structlint "
				  "profile", sv);
	}
	slt_pj_pop(pc);
	if (rc)
		return rc;
	unsigned has = 0;
	struct slt_sample dummy;
	sample_init(&dummy);
	if ((rc = read_fields(pc, root, K_TOP, &dummy, &has)) != 0)
		return rc;
	json_t *v;
	if ((v = json_object_get(root, "tool")) != NULL) {
		const char *tool;
		slt_pj_push_key(pc, "tool");
		rc = slt_pj_str(pc, "tool", v, false, &tool);
		slt_pj_pop(pc);
		if (rc)
			return rc;
		if (pc->info)
			snprintf(pc->info->detail, sizeof(pc->info->detail),
				 "%s", tool);
	}
	if ((v = json_object_get(root, "cacheline_size")) != NULL) {
		int64_t cl;
		slt_pj_push_key(pc, "cacheline_size");
		rc = slt_pj_int(pc, "cacheline_size", v, 1, 1 << 20, &cl);
		if (!rc && (cl & (cl - 1)))
			rc = FAIL(pc, NULL, "cacheline_size %" PRId64
				  " is not a power of two", cl);
		slt_pj_pop(pc);
		if (rc)
			return rc;
		if (pc->info)
			pc->info->cacheline_size = (unsigned)cl;
	}
	const json_t *structs = get_array(pc, root, "structs", &rc);
	if (rc)
		return rc;
	const json_t *samples = get_array(pc, root, "samples", &rc);
	if (rc)
		return rc;
	slt_pj_push_key(pc, "structs");
	for (size_t i = 0; structs && i < json_array_size(structs) && !rc; i++) {
		slt_pj_push_index(pc, i);
		rc = read_struct(pc, json_array_get(structs, i));
		slt_pj_pop(pc);
	}
	slt_pj_pop(pc);
	slt_pj_push_key(pc, "samples");
	for (size_t i = 0; samples && i < json_array_size(samples) && !rc; i++) {
		const json_t *r = json_array_get(samples, i);
		struct slt_sample s;
		unsigned rh = 0;
		sample_init(&s);
		slt_pj_push_index(pc, i);
		if (!json_is_object(r))
			rc = FAIL(pc, NULL, "a samples entry must be an object, "
				  "not %s", slt_pj_kind(r));
		else if ((rc = read_fields(pc, r, K_SAMPLE, &s, &rh)) == 0)
			rc = emit(pc, &s);
		slt_pj_pop(pc);
	}
	slt_pj_pop(pc);
	return rc;
}

bool slt_profile_detect(const void *data, size_t size)
{
	const char *p = data;
	size_t n = size < 4096 ? size : 4096, i = 0;
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	i = slt_pj_skip_ws(p, n, i);
	if (i >= n || p[i] != '{')
		return false;
	static const char tag[] = "structlint.profile/";
	for (; i + sizeof(tag) - 1 <= n; i++)
		if (memcmp(p + i, tag, sizeof(tag) - 1) == 0)
			return true;
	return false;
}

int slt_profile_parse(const void *data, size_t size, const char *name,
		      slt_sample_cb cb, void *ctx,
		      struct slt_samples_info *info, struct slt_error *err)
{
	if (!name)
		name = "<profile>";
	if (info) {
		memset(info, 0, sizeof(*info));
		info->format = SLT_SAMPLES_PROFILE;
	}
	if (!data && size)
		return slt_error_set(err, SLT_EUSAGE, name, -1, NULL,
				     "no data");
	if (size > SLT_PROFILE_MAX_BYTES)
		return slt_error_set(err, SLT_ECORRUPT, name, -1,
				     "split the profile: at most 256 MiB",
				     "profile is %zu bytes, over the limit",
				     size);
	struct pctx pc = { .text = size ? data : "", .size = size,
			   .name = name, .err = err, .cb = cb, .cbctx = ctx,
			   .info = info };
	json_error_t je;
	size_t skip = size >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	json_t *root = json_loadb(pc.text + skip, size - skip,
				  JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		/* jansson's position is in characters from the start of the
		 * buffer it saw; its line/column are what editors show. */
		int64_t off = je.position >= 0 ? (int64_t)skip + je.position : -1;
		slt_error_set_line(err, json_error_code(&je) == json_error_out_of_memory ?
				   SLT_ENOMEM : SLT_ECORRUPT, name,
				   je.line > 0 ? (unsigned)je.line : 1,
				   "the profile must be valid JSON",
				   "column %d: %s", je.column, je.text);
		if (err && err->offset < 0)
			err->offset = off;
		return err ? err->code : SLT_ECORRUPT;
	}
	/* Check the whole document first, so that a bad value late in the
	 * file delivers no records at all; then deliver. */
	pc.dry = true;
	int rc = read_top(&pc, root);
	pc.dry = false;
	if (rc == 0)
		rc = read_top(&pc, root);
	json_decref(root);
	free(pc.cpus);
	return rc;
}

int slt_profile_read(const char *path, slt_sample_cb cb, void *ctx,
		     struct slt_samples_info *info, struct slt_error *err)
{
	/* read.c maps the file (or reads a pipe) and calls our entry. */
	return slt_samples_read(path, SLT_SAMPLES_PROFILE, cb, ctx, info, err);
}

/* The format dispatch table's entry (src/samples/parsers.h, read.c). */
int slt_profile_detect_head(const unsigned char *head, size_t head_len)
{
	return slt_profile_detect(head, head_len) ? 100 : 0;
}

int slt_profile_parse_entry(const struct slt_parse_ctx *pc,
			    const unsigned char *data, size_t size)
{
	return slt_profile_parse(data, size, pc->name, pc->cb, pc->cb_ctx,
				 pc->info, pc->err);
}
