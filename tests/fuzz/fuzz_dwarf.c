/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the DWARF source: an ELF image in (relocatable
 * objects, executables, compressed sections, any DWARF version), then
 * every operation of the source: find on fixed names and on listed names,
 * list, suggest, close.  Any crash, leak, out-of-bounds read, UB report or
 * hang is a bug; a clean SLT_E* error is the expected answer to garbage.
 *
 * Seeds: tests/cli/fixtures.py writes small gcc/clang objects to
 * FIXTURES_DIR/seeds/dwarf (tests/fuzz/meson.build runs the target on them).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct names {
	const char *v[16];
	size_t n;
};

static int collect(void *ctx, const struct slt_type *t)
{
	struct names *nm = ctx;
	/* t (and t->name) are only valid during the call for DWARF: look the
	 * name up again only if it is one of the fixed ones below, by copy. */
	if (nm->n < sizeof(nm->v) / sizeof(nm->v[0]) && t->name) {
		char *c = strdup(t->name);
		if (!c)
			return 1;
		nm->v[nm->n++] = c;
	}
	(void)t->size;
	(void)(t->decl_file ? strlen(t->decl_file) : 0);
	return 0;
}

/* Walk a translated graph: members, their types, through refs. */
static uint64_t touch(const struct slt_type *t, unsigned depth)
{
	uint64_t s = 0;
	for (unsigned i = 0; t && i < 16; i++, t = t->ref) {
		s += t->size + t->nelems + t->kind;
		if (t->name)
			s += strlen(t->name);
		if (depth < 4)
			for (uint32_t k = 0; k < t->n_members; k++)
				s += t->members[k].bit_offset +
				     touch(t->members[k].type, depth + 1);
		for (uint32_t k = 0; k < t->n_params; k++)
			s += t->params[k] ? t->params[k]->kind : 0;
	}
	return s;
}

static void find(struct slt_source *src, const char *name)
{
	struct slt_type **res = NULL;
	size_t n = 0;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = src->ops->find(src, name, &res, &n, &err);
	if (rc == 0) {
		if (n == 0 || !res)
			abort();
		volatile uint64_t sink = 0;
		for (size_t i = 0; i < n; i++)
			sink += touch(res[i], 0);
		(void)sink;
		free(res);
	} else if (res || rc > 0 || err.code != rc) {
		abort(); /* failure leaves *out NULL and reports itself */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_source_open_dwarf_mem(data, size, "fuzz", &src, &err) != 0) {
		if (src || err.code == 0)
			abort();
		return 0;
	}
	/* names the seeds define (tests/fixtures/layout) */
	static const char *fixed[] = { "holes", "bits", "nest", "spelling",
				       "mem_cgroup_per_node", "anon_typedef_t",
				       "lruvec", "x", "" };
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		find(src, fixed[i]);

	struct names nm = { .n = 0 };
	slt_error_clear(&err);
	src->ops->list(src, collect, &nm, &err);
	for (size_t i = 0; i < nm.n; i++) {
		if (i < 4)
			find(src, nm.v[i]);
		free((void *)nm.v[i]);
	}

	char **sugg = NULL;
	slt_error_clear(&err);
	int ns = src->ops->suggest(src, "hole", 3, &sugg, &err);
	for (int i = 0; i < ns; i++)
		free(sugg[i]);
	free(sugg);
	src->ops->close(src);
	return 0;
}
