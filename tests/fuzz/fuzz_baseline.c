/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the baseline and suppression readers
 * (src/gate/baseline_read.c).  Every input goes to:
 *   - slt_baseline_read_mem(); when it succeeds, the baseline is written
 *     and read again: the second read must succeed and write the same
 *     bytes (the round trip the format promises); then it is compared
 *     with a layout made from its own structs with every member shifted
 *     (offsets and sizes as the baseline says, so the comparison sees
 *     whatever the input holds: overlaps, duplicate paths, zero sizes);
 *   - slt_suppressions_read_mem(), its entries applied to that result.
 * Any crash, leak, out-of-bounds read or hang is a bug; a clean SLT_E*
 * error is the expected answer to garbage.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "structlint/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *write_mem(const struct slt_baseline *b, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	int rc = slt_baseline_write_json(f, b, false, NULL);
	fclose(f);
	if (rc) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A layout holding b's structs, members at depth 0 shifted by shift. */
static void compare_shifted(const struct slt_baseline *b, uint64_t shift,
			    struct slt_gate_result *r)
{
	size_t n = b->n_structs;
	struct slt_struct *ss = calloc(n + 1, sizeof(*ss));
	if (!ss)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct slt_baseline_struct *bs = &b->structs[i];
		struct slt_struct *s = &ss[i];
		s->name = bs->name;
		s->kind = bs->kind;
		s->size = bs->size + shift;
		s->decl_file = bs->decl_file;
		s->members = calloc(bs->n_members + 1, sizeof(*s->members));
		if (!s->members)
			continue;
		s->n_members = s->n_top_members = bs->n_members;
		for (size_t k = 0; k < bs->n_members; k++) {
			struct slt_member *m = &s->members[k];
			m->name = bs->members[k].path;
			m->type = bs->members[k].type;
			m->offset = bs->members[k].offset + (k & 1 ? shift : 0);
			m->size = bs->members[k].size;
			m->bit_offset = bs->members[k].bit_offset;
			m->bit_size = bs->members[k].bit_size;
			m->flags = bs->members[k].flags & ~(uint32_t)SLT_MEMBER_INLINE;
			m->parent = -1;
		}
	}
	struct slt_layout l = { .structs = ss, .n_structs = n, .path = "fuzz" };
	slt_baseline_compare(b, &l, NULL, r, NULL);
	for (size_t i = 0; i < n; i++)
		free(ss[i].members);
	free(ss);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_baseline *b = NULL;
	struct slt_error err;
	struct slt_gate_result *r = NULL;
	if (slt_gate_result_new(&r, NULL))
		return 0;
	slt_error_clear(&err);
	if (slt_baseline_read_mem(data, size, "fuzz", &b, &err) == 0) {
		size_t l1 = 0, l2 = 0;
		char *t1 = write_mem(b, &l1), *t2 = NULL;
		struct slt_baseline *b2 = NULL;
		if (t1) {
			if (slt_baseline_read_mem(t1, l1, "again", &b2, &err) != 0)
				abort();   /* what we wrote must read back */
			t2 = write_mem(b2, &l2);
			if (!t2 || l1 != l2 || memcmp(t1, t2, l1))
				abort();   /* and write the same bytes */
		}
		compare_shifted(b, 8 * (size % 9), r);
		free(t1);
		free(t2);
		slt_baseline_free(b2);
		slt_baseline_free(b);
	}
	struct slt_suppressions *s = NULL;
	if (slt_suppressions_read_mem(data, size, "fuzz", &s, NULL) == 0) {
		slt_suppressions_apply(s, r, 0);
		slt_suppressions_free(s);
	}
	slt_gate_result_free(r);
	return 0;
}
