/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the BTF source: raw BTF bytes in, then every
 * operation of the source (find on fixed names and on every listed name,
 * list, suggest).  Any crash, leak, out-of-bounds read or hang is a bug; a
 * clean SLT_E* error is the expected answer to garbage.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct names {
	const char *v[64];
	size_t n;
};

static int collect(void *ctx, const struct slt_type *t)
{
	struct names *nm = ctx;
	if (nm->n < sizeof(nm->v) / sizeof(nm->v[0]))
		nm->v[nm->n++] = t->name;   /* owned by the source */
	return 0;
}

static void find(struct slt_source *src, const char *name)
{
	struct slt_type **res = NULL;
	size_t n = 0;
	struct slt_error err;
	slt_error_clear(&err);
	if (src->ops->find(src, name, &res, &n, &err) == 0) {
		/* touch the graph: every member of every result */
		volatile uint64_t sink = 0;
		for (size_t i = 0; i < n; i++)
			for (uint32_t k = 0; k < res[i]->n_members; k++)
				sink += res[i]->members[k].bit_offset +
					res[i]->members[k].type->size;
		(void)sink;
		free(res);
	} else if (res) {
		abort();   /* failure must leave *out NULL */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_source_open_btf_mem(data, size, "fuzz", &src, &err) != 0) {
		if (src || err.code == 0)
			abort();
		return 0;
	}
	static const char *fixed[] = { "node", "task_struct", "anon_t",
				       "dup", "x", "" };
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		find(src, fixed[i]);

	struct names nm = { .n = 0 };
	slt_error_clear(&err);
	src->ops->list(src, collect, &nm, &err);
	for (size_t i = 0; i < nm.n; i++)
		find(src, nm.v[i]);

	char **sugg = NULL;
	slt_error_clear(&err);
	int ns = src->ops->suggest(src, "nod", 3, &sugg, &err);
	for (int i = 0; i < ns; i++)
		free(sugg[i]);
	free(sugg);
	src->ops->close(src);
	return 0;
}
