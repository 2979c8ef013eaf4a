/* SPDX-License-Identifier: MIT */
/*
 * perf.data feature sections (tools/perf/Documentation/
 * perf.data-file-format.txt, "Feature sections"): the ones structlint
 * reads (VERSION, NRCPUS, EVENT_DESC).  Every length is checked against
 * the section size.
 */
#include <stdio.h>
#include <string.h>

#include "samples/perf_data.h"

/* struct perf_header_string: u32 len (padded), then len bytes. */
static bool get_string(const uint8_t *b, size_t n, size_t *pos, char *out,
		       size_t outsz)
{
	uint32_t len;
	if (n - *pos < 4)
		return false;
	memcpy(&len, b + *pos, 4);
	*pos += 4;
	if (len > n - *pos)
		return false;
	size_t k = strnlen((const char *)b + *pos, len);
	if (out && outsz) {
		size_t c = k < outsz - 1 ? k : outsz - 1;
		memcpy(out, b + *pos, c);
		out[c] = 0;
	}
	*pos += len;
	return true;
}

/* EVENT_DESC: u32 nr, u32 attr_size, then per event: attr, u32 nr_ids,
 * string name, u64 ids[nr_ids].  Names are matched to attrs by id. */
static void feat_event_desc(const struct slt_perf_feat_ctx *c,
			    const uint8_t *b, size_t n)
{
	uint32_t nr, asz;
	size_t pos = 8;
	if (n < 8)
		return;
	memcpy(&nr, b, 4);
	memcpy(&asz, b + 4, 4);
	for (uint32_t e = 0; e < nr; e++) {
		uint32_t nids;
		char name[64];
		if (asz > n - pos || n - pos - asz < 4)
			return;
		pos += asz;
		memcpy(&nids, b + pos, 4);
		pos += 4;
		if (!get_string(b, n, &pos, name, sizeof(name)))
			return;
		if (nids > (n - pos) / 8)
			return;
		int idx = -1;
		for (uint32_t i = 0; i < nids && idx < 0; i++) {
			uint64_t id;
			memcpy(&id, b + pos + 8 * i, 8);
			idx = c->find_id(c->id_ctx, id);
		}
		if (idx < 0 && e < c->n_attrs && nids == 0)
			idx = (int)e;
		if (idx >= 0 && (size_t)idx < c->n_attrs && name[0])
			snprintf(c->attrs[idx].name, sizeof(c->attrs[idx].name), "%s", name);
		pos += (size_t)nids * 8;
	}
}

/* HEADER_BUILD_ID: perf_record_header_build_id entries (header type 0 in
 * the section), each handed on as a HEADER_BUILD_ID record. */
static void feat_build_id(const struct slt_perf_feat_ctx *c, const uint8_t *b, size_t n)
{
	uint8_t rec[36 + 4096];
	size_t pos = 0;
	while (c->rec_cb && pos + 36 <= n) {
		uint16_t sz;
		memcpy(&sz, b + pos + 6, 2);
		if (sz < 36 || sz > n - pos)
			break;   /* corrupt: the rest is not placed */
		if (sz <= sizeof(rec)) {
			memcpy(rec, b + pos, sz);
			uint32_t type = SLT_PERF_RECORD_HEADER_BUILD_ID;
			memcpy(rec, &type, 4);
			if (c->rec_cb(c->rec_ctx, NULL, rec, sz, pos))
				break;
		}
		pos += sz;
	}
}

void slt_perf_feature(const struct slt_perf_feat_ctx *c, unsigned bit,
		      const uint8_t *b, size_t n)
{
	size_t pos = 0;
	switch (bit) {
	case SLT_PERF_FEAT_VERSION:
		get_string(b, n, &pos, c->version, c->version_size);
		break;
	case SLT_PERF_FEAT_NRCPUS:
		if (n >= 8)
			memcpy(c->nr_cpus, b + 4, 4);  /* nr_cpus_online */
		break;
	case SLT_PERF_FEAT_EVENT_DESC:
		feat_event_desc(c, b, n);
		break;
	case SLT_PERF_FEAT_BUILD_ID:
		feat_build_id(c, b, n);
		break;
	default:
		break;   /* skipped by size */
	}
}
