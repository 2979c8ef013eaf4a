/* SPDX-License-Identifier: MIT */
/* The static classes rule (slt_access_rule, src/access/classify.c) at its
 * boundaries, and the access map cache payload (src/access/persist.c):
 * a map saved and loaded back is the same map; cut or altered payloads are
 * refused as corrupt, never read past. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "structlint/access.h"

static struct slt_access_evidence ev(uint32_t n, uint32_t ld, uint32_t st,
				     uint32_t up, uint32_t at, uint32_t wr)
{
	return (struct slt_access_evidence){.n_funcs = n, .loaders = ld,
		.storers = st, .updaters = up, .atomics = at, .writers = wr};
}

static void rule(void **state)
{
	(void)state;
	struct slt_access_evidence e;
	/* nothing: no class */
	e = ev(0, 0, 0, 0, 0, 0);
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_NONE);
	/* one function updating atomically (cmpxchg on an iterator) */
	e = ev(1, 1, 0, 1, 1, 1);
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_HOT_WRITE);
	/* in-place updates by 2 functions (a counter) */
	e = ev(2, 1, 0, 2, 0, 2);
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_HOT_WRITE);
	/* one plain updater: not enough */
	e = ev(2, 2, 0, 1, 0, 1);
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_NONE);
	/* plain stores alone never make hot-write (configuration) */
	e = ev(6, 5, 5, 0, 0, 5);
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_NONE);
	/* writers below half: not hot, whatever the atomics */
	e = ev(19, 17, 0, 9, 9, 9);
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_NONE);
	e = ev(18, 17, 0, 9, 9, 9);
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_HOT_WRITE);
	/* read-mostly: 4 loaders and writers at most 1 in 4 */
	e = ev(4, 4, 1, 0, 0, 1);
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_READ_MOSTLY);
	e = ev(4, 3, 1, 0, 0, 1);       /* 3 loaders: too few */
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_NONE);
	e = ev(7, 6, 2, 0, 0, 2);       /* 2 writers of 7 */
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_NONE);
	e = ev(8, 7, 2, 0, 0, 2);       /* 2 of 8 */
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_READ_MOSTLY);
	e = ev(9, 9, 0, 0, 0, 0);       /* never written */
	assert_int_equal(slt_access_rule(&e), SLT_CLASS_READ_MOSTLY);
}

static const char *const names[] = {"f0", "f1", "counters", "node", "list_head"};

static struct slt_access_map *make(void)
{
	/* a map as slt_access_load() returns it: built from bytes */
	struct slt_access_site sites[3] = {
		{.pc = 0x1000, .type = names[2], .type_size = 24, .offset = 16,
		 .width = 4, .kind = SLT_ACCESS_LOAD | SLT_ACCESS_STORE | SLT_ACCESS_ATOMIC,
		 .func = 0, .via = SLT_VIA_DWARF, .insn_len = 4},
		{.pc = 0x1010, .type = names[3], .type_size = 24, .offset = 8,
		 .width = 8, .kind = SLT_ACCESS_STORE, .func = 1, .via = SLT_VIA_CALL,
		 .insn_len = 5},
		{.pc = 0x1020, .type = names[3], .type_size = 24, .offset = 0,
		 .width = 8, .kind = SLT_ACCESS_LOAD, .func = 1, .via = SLT_VIA_TRACKED,
		 .insn_len = 3},
	};
	struct slt_access_func funcs[2] = {
		{.name = names[0], .low_pc = 0x1000, .size = 16, .cu = 0xb,
		 .n_insns = 4, .n_mem = 2, .reasons = {1, 1}},
		{.name = names[1], .low_pc = 0x1010, .size = 32, .cu = 0xb,
		 .n_insns = 9, .n_mem = 3, .reasons = {2, 0, 0, 0, 0, 1}},
	};
	struct slt_access_embed emb[1] = {{.type = names[4], .type_size = 16, .n_containers = 7}};
	struct slt_access_map m = {
		.path = "x", .sites = sites, .n_sites = 3, .funcs = funcs, .n_funcs = 2,
		.n_insns = 13, .n_mem = 5, .n_lea = 1, .reasons = {3, 1, 0, 0, 0, 1},
		.embeds = emb, .n_embeds = 1,
	};
	void *buf;
	size_t n;
	struct slt_error err;
	assert_int_equal(slt_access_save(&m, &buf, &n, &err), 0);
	struct slt_access_map *out = NULL;
	assert_int_equal(slt_access_load(buf, n, "/nonexistent", &out, &err), 0);
	free(buf);
	return out;
}

static void persist(void **state)
{
	(void)state;
	struct slt_access_map *m = make();
	assert_int_equal(m->n_sites, 3);
	assert_int_equal(m->n_funcs, 2);
	assert_string_equal(m->sites[1].type, "node");
	assert_int_equal(m->sites[1].via, SLT_VIA_CALL);
	assert_int_equal(m->sites[0].kind, SLT_ACCESS_LOAD | SLT_ACCESS_STORE | SLT_ACCESS_ATOMIC);
	assert_string_equal(m->funcs[1].name, "f1");
	assert_int_equal(m->funcs[1].reasons[5], 1);
	assert_int_equal(m->n_insns, 13);
	assert_int_equal(slt_access_containers(m, "list_head", 16), 7);
	assert_int_equal(slt_access_containers(m, "list_head", 8), 0);
	/* the binary is gone: no source line, no instruction, no crash */
	const char *file;
	uint32_t line;
	char insn[64];
	assert_int_not_equal(slt_access_site_source(m, &m->sites[0], &file, &line), 0);
	slt_access_site_insn(m, &m->sites[0], insn, sizeof(insn));
	assert_string_equal(insn, "");
	/* every cut and every one-byte change either loads or is refused */
	void *buf;
	size_t n;
	struct slt_error err;
	assert_int_equal(slt_access_save(m, &buf, &n, &err), 0);
	for (size_t cut = 0; cut < n; cut++) {
		struct slt_access_map *x = NULL;
		assert_int_equal(slt_access_load(buf, cut, "p", &x, &err), SLT_ECORRUPT);
		assert_null(x);
	}
	uint8_t *b = buf;
	for (size_t i = 0; i < n; i++) {
		b[i] ^= 0x80;
		struct slt_access_map *x = NULL;
		int rc = slt_access_load(b, n, "p", &x, &err);
		assert_true(rc == 0 || rc == SLT_ECORRUPT);
		slt_access_free(x);
		b[i] ^= 0x80;
	}
	free(buf);
	slt_access_free(m);
}

struct mem {
	uint8_t *p;
	size_t n;
	int reads;
};

static int mem_read(void *ctx, uint64_t off, void *buf, size_t n)
{
	struct mem *m = ctx;
	if (off > m->n || n > m->n - off)
		return SLT_ECORRUPT;
	memcpy(buf, m->p + off, n);
	m->reads++;
	return 0;
}

/* Reading some types: their sites alone, by pc, every function; a block
 * read is checked against its checksum, one not read is not read. */
static void load_types(void **state)
{
	(void)state;
	struct slt_access_map *m = make();
	void *buf;
	size_t n;
	struct slt_error err;
	assert_int_equal(slt_access_save(m, &buf, &n, &err), 0);
	size_t head = slt_access_head_size(buf, n);
	assert_true(head > 0 && head < n);
	/* blocks by type name: counters (1 site), node (2 sites) */
	assert_int_equal(n - head, 3 * 32);
	struct mem mm = {buf, n, 0};
	struct slt_access_reader r = {buf, head, n, mem_read, &mm};
	const char *want[] = {"node", "absent"};
	struct slt_access_map *x = NULL;
	assert_int_equal(slt_access_load_types(&r, want, 2, "p", &x, &err), 0);
	assert_int_equal(x->n_sites, 2);
	assert_int_equal(mm.reads, 1);
	assert_int_equal(x->sites[0].pc, 0x1010);
	assert_int_equal(x->sites[1].pc, 0x1020);
	assert_string_equal(x->sites[1].type, "node");
	assert_int_equal(x->n_funcs, 2);
	assert_int_equal(x->n_insns, 13);
	slt_access_free(x);
	uint8_t *b = buf;
	b[head + 32 + 3] ^= 1;   /* node's first site */
	slt_error_clear(&err);
	assert_int_equal(slt_access_load_types(&r, want, 1, "p", &x, &err), SLT_ECORRUPT);
	assert_null(x);
	assert_non_null(strstr(err.message, "checksum"));
	const char *cnt[] = {"counters"};
	assert_int_equal(slt_access_load_types(&r, cnt, 1, "p", &x, &err), 0);
	assert_int_equal(x->n_sites, 1);
	slt_access_free(x);
	/* all of them: every site, by pc */
	b[head + 32 + 3] ^= 1;
	assert_int_equal(slt_access_load_types(&r, NULL, 0, "p", &x, &err), 0);
	assert_int_equal(x->n_sites, 3);
	for (size_t i = 1; i < 3; i++)
		assert_true(x->sites[i - 1].pc < x->sites[i].pc);
	slt_access_free(x);
	free(buf);
	slt_access_free(m);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(rule),
		cmocka_unit_test(persist),
		cmocka_unit_test(load_types),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
