/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of src/advice/slab.c (slt_slab_cost: hand-computed figures
 * and every cache of the running kernel's /sys/kernel/slab) and
 * src/advice/emit_c.c (compile-and-check: a hand-made proposal, a
 * reordered copy of a gcc-compiled struct with CACHELINE_PADDING inserted,
 * is emitted, compiled by gcc with tests/cli/kcompat.h, and its DWARF,
 * read back by structlint, has exactly the proposed offsets).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include "advice/advice_int.h"
#include "common/arena.h"
#include "structlint/advice.h"
#include "structlint/layout.h"

static void cost(uint64_t size, uint32_t align, unsigned cpus, unsigned rule,
		 uint64_t klass, unsigned order, unsigned objs, uint64_t waste)
{
	struct slt_advice_opts o = { .nr_cpus = cpus, .slub_rule = rule };
	struct slt_slab_cost c;

	assert_int_equal(slt_slab_cost(size, align, &o, &c), 0);
	assert_int_equal(c.kmalloc_class, klass);
	assert_int_equal(c.order, order);
	assert_int_equal(c.objects_per_slab, objs);
	assert_int_equal(c.waste_per_slab, waste);
}

/* Figures computed by hand from calculate_order() (see slab.c). */
static void test_slab_hand(void **state)
{
	(void)state;
	for (unsigned r = 0; r < 2; r++) {
		/* 2 CPUs: min_objects = 4 * (fls(2) + 1) = 12 */
		cost(96, 8, 2, r, 96, 0, 42, 64);       /* 4096 - 42 * 96 */
		cost(192, 8, 2, r, 192, 0, 21, 64);
		cost(65, 8, 2, r, 96, 0, 56, 4096 - 56 * 65); /* 72-byte objects */
		cost(129, 8, 2, r, 192, 0, 30, 4096 - 30 * 129); /* 136 bytes */
		cost(193, 8, 2, r, 256, 0, 20, 4096 - 20 * 193); /* 200 bytes */
		cost(1, 1, 2, r, 8, 0, 512, 4096 - 512);
		cost(1024, 1024, 2, r, 1024, 2, 16, 0); /* get_order(12K) = 2 */
		/* task_struct on this machine: 5888, 5 per order-3 slab,
		 * leftover 3328 > 1/16 but <= 1/8 of 32K */
		cost(5888, 64, 2, r, 8192, 3, 5, 32768 - 5 * 5888);
		/* mm_struct 1568 aligned to 64: 1600-byte objects */
		cost(1568, 64, 2, r, 2048, 3, 20, 32768 - 20 * 1568);
		/* over KMALLOC_MAX_CACHE_SIZE (8k): no kmalloc class, the
		 * page allocator at order get_order(8193) = 2 */
		cost(8193, 8, 2, r, 0, 3, 3, 32768 - 3 * 8193);
		/* 64 CPUs: min_objects = 32: 256 * 32 = 8K, order 1 */
		cost(256, 8, 64, r, 256, 1, 32, 0);
		/* 4 CPUs: min 16, 704-byte objects, order 2 leftover 192 */
		cost(700, 8, 4, r, 1024, 2, 23, 16384 - 23 * 700);
	}
	/* where the rules differ: 12000 bytes, 2 per order-3 slab wastes
	 * 8768 > 1/4: 6.1 backs off to one object (order 2), 6.8 accepts
	 * 1/2 waste at order 3 */
	cost(12000, 8, 2, SLT_SLUB_RULE_6_1, 0, 2, 1, 16384 - 12000);
	cost(12000, 8, 2, SLT_SLUB_RULE_6_8, 0, 3, 2, 32768 - 24000);

	struct slt_slab_cost c;
	struct slt_advice_opts o = { .nr_cpus = 2 };

	/* the cache's alignment (calculate_alignment()): a line-aligned
	 * instance's cache has SLAB_HWCACHE_ALIGN, the line halved while
	 * the object fits in half of it; an 8-aligned base's has none */
	bool hw;
	assert_int_equal(slt_slab_cache_align(1096, 8, 64, 0, &hw), 64);
	assert_true(hw);
	assert_int_equal(slt_slab_cache_align(24, 8, 64, 0, &hw), 32);
	assert_int_equal(slt_slab_cache_align(8, 8, 64, 0, &hw), 8);
	assert_int_equal(slt_slab_cache_align(8, 16, 64, 128, &hw), 16);
	assert_true(hw);
	assert_int_equal(slt_slab_cache_align(1096, 64, 64, 8, &hw), 8);
	assert_false(hw);
	/* 6.1 mm_struct (1096 bytes) and a 1080-byte proposal in that
	 * cache: 1152- and 1088-byte objects, each side's slab bytes per
	 * object comparable whatever the orders */
	assert_int_equal(slt_slab_cost(1096, 64, &o, &c), 0);
	assert_int_equal(c.object_size, 1152);
	assert_int_equal(c.cache_align, 64);
	assert_int_equal(c.slab_bytes, 4096u << c.order);
	assert_int_equal(c.objects_per_slab, c.slab_bytes / 1152);
	assert_int_equal(slt_slab_cost(1080, 64, &o, &c), 0);
	assert_int_equal(c.object_size, 1088);
	/* SLUB's kmalloc caches stop at kmalloc-8k (KMALLOC_SHIFT_HIGH =
	 * PAGE_SHIFT + 1): 8192 is the last class, 8193 and 12000 go to the
	 * page allocator at get_order() 2, 16385 at 3 */
	assert_int_equal(slt_slab_cost(8192, 8, &o, &c), 0);
	assert_false(c.page_allocator);
	assert_int_equal(c.kmalloc_class, 8192);
	assert_int_equal(c.kmalloc_bytes, 8192);
	assert_int_equal(slt_slab_cost(12000, 8, &o, &c), 0);
	assert_true(c.page_allocator);
	assert_int_equal(c.kmalloc_class, 0);
	assert_int_equal(c.page_order, 2);
	assert_int_equal(c.kmalloc_bytes, 16384);
	assert_int_equal(slt_slab_cost(16385, 8, &o, &c), 0);
	assert_int_equal(c.page_order, 3);
	/* slub_max_order=0 (the kernel accepts it): one-page slabs */
	o.slub_max_order = 0;
	o.slub_max_order_set = true;
	assert_int_equal(slt_slab_cost(700, 8, &o, &c), 0);
	assert_int_equal(c.order, 0);
	assert_int_equal(c.objects_per_slab, 5);
	o.slub_max_order_set = false; /* 0 = the default, 3: order 2 */
	assert_int_equal(slt_slab_cost(700, 8, &o, &c), 0);
	assert_int_equal(c.order, 2);
	assert_int_equal(slt_slab_cost(0, 8, &o, &c), SLT_EUSAGE);
	assert_int_equal(slt_slab_cost(64, 3, &o, &c), SLT_EUSAGE);
	o.slub_rule = 7;
	assert_int_equal(slt_slab_cost(64, 8, &o, &c), SLT_EUSAGE);
	o.slub_rule = 0;
	o.slub_max_order = 11;
	assert_int_equal(slt_slab_cost(64, 8, &o, &c), SLT_EUSAGE);
	/* NULL opts: defaults, this machine's CPUs */
	assert_int_equal(slt_slab_cost(64, 8, NULL, &c), 0);
	assert_int_equal(c.kmalloc_class, 64);
}

static long sysfs_long(const char *cache, const char *file)
{
	char p[512];
	long v = -1;
	FILE *f;

	snprintf(p, sizeof(p), "/sys/kernel/slab/%s/%s", cache, file);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Every cache of the running kernel: our order and objects per slab from
 * its slab_size and align must be the kernel's. */
static void test_slab_live(void **state)
{
	struct slt_advice_opts o = { 0 };
	struct utsname u;
	unsigned maj = 0, min = 0;
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir("/sys/kernel/slab");

	(void)state;
	if (!d || uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2) {
		if (d)
			closedir(d);
		skip();
	}
	o.slub_rule = maj > 6 || (maj == 6 && min >= 8) ? SLT_SLUB_RULE_6_8
							: SLT_SLUB_RULE_6_1;
	while ((de = readdir(d))) {
		char p[512];
		struct stat st;
		struct slt_slab_cost c;
		long size, align, order, objs;

		snprintf(p, sizeof(p), "/sys/kernel/slab/%s", de->d_name);
		if (de->d_name[0] == '.' || lstat(p, &st) || !S_ISDIR(st.st_mode))
			continue; /* aliases are symlinks */
		size = sysfs_long(de->d_name, "slab_size");
		align = sysfs_long(de->d_name, "align");
		order = sysfs_long(de->d_name, "order");
		objs = sysfs_long(de->d_name, "objs_per_slab");
		if (size <= 0 || align <= 0 || order < 0 || objs <= 0)
			continue;
		assert_int_equal(slt_slab_cost((uint64_t)size, (uint32_t)align,
					       &o, &c), 0);
		if (c.order != (unsigned)order || c.objects_per_slab != (unsigned)objs)
			fail_msg("%s: slab_size %ld align %ld: kernel order %ld "
				 "objs %ld, ours %u %u", de->d_name, size, align,
				 order, objs, c.order, c.objects_per_slab);
		n++;
	}
	closedir(d);
	if (!n)
		skip();
}

/* ---- compile-and-check ------------------------------------------- */

static const char fixture_src[] =
	"struct emit_a {\n"
	"\tchar c;\n"
	"\tunsigned int f1:3, f2:7;\n"
	"\tunsigned char f3:2;\n"
	"\tunion { int u_i; long u_l; };\n"
	"\tstruct { short s1; char s2; } named_anon;\n"
	"\tvoid (*fp)(int, char *);\n"
	"\tlong arr[3][2];\n"
	"\tint aligned_member __attribute__((__aligned__(16)));\n"
	"\tconst char *name;\n"
	"\tenum { EA_X = 1, EA_Y = 2 } kind;\n"
	"\tunsigned short g1:4;\n"
	"\tchar tail;\n"
	"};\n"
	"struct emit_a emit_a_inst;\n";

static char tmpdir[256];

static int run(const char *cmd)
{
	int rc = system(cmd);
	return rc;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct slt_layout *compile_load(const char *src_path, const char *name)
{
	char cmd[1024], obj[300];
	const char *cc = getenv("CC_GCC") ? getenv("CC_GCC") : "gcc";
	const char *names[] = { name };
	struct slt_layout *l = NULL;
	struct slt_error err;

	snprintf(obj, sizeof(obj), "%s.o", src_path);
	snprintf(cmd, sizeof(cmd), "%s -std=gnu17 -g -c -Wall -Werror -I%s/tests/cli "
		 "-o %s %s", cc, getenv("MESON_SOURCE_ROOT") ?
		 getenv("MESON_SOURCE_ROOT") : ".", obj, src_path);
	if (run(cmd) != 0)
		fail_msg("compile failed: %s", cmd);
	if (slt_layout_load(obj, names, 1, NULL, &l, &err))
		fail_msg("load %s: %s", obj, err.message);
	return l;
}

/* End of a top-level member as the next member's start is computed: the
 * last used byte for bitfields. */
static uint64_t top_end(const struct slt_member *m)
{
	if (m->flags & SLT_MEMBER_BITFIELD)
		return m->offset + (m->bit_offset + m->bit_size + 7) / 8;
	return m->offset + m->size;
}

/*
 * A proposal by hand: the top-level units of orig in reverse order
 * (a bitfield run moves whole), a CACHELINE_PADDING member before the
 * unit at index pad_before of the new order; offsets by C rules.
 */
static void make_proposal(struct slt_arena *a, const struct slt_struct *orig,
			  size_t pad_before, struct slt_proposal *p)
{
	size_t tops[64], n = 0, units[64][8], ulen[64], nu = 0;
	struct slt_struct *s = &p->layout;
	uint64_t end = 0, align = orig->alignment;
	size_t k = 0;

	for (size_t i = 0; i < orig->n_members; i++)
		if (orig->members[i].parent == -1)
			tops[n++] = i;
	/* units: a bitfield run sharing one storage offset stays together */
	for (size_t i = 0; i < n; i++) {
		const struct slt_member *m = &orig->members[tops[i]];
		/* units.c's rule: bytes overlapping the run's storage join */
		uint64_t uend = 0;
		for (size_t j = 0; i && j < ulen[nu - 1]; j++) {
			const struct slt_member *x = &orig->members[units[nu - 1][j]];
			if (x->offset + x->size > uend)
				uend = x->offset + x->size;
		}
		if (i && m->offset < uend) {
			units[nu - 1][ulen[nu - 1]++] = tops[i];
			continue;
		}
		units[nu][0] = tops[i];
		ulen[nu++] = 1;
	}
	*s = *orig;
	s->members = slt_arena_calloc(a, orig->n_members + 1, sizeof(*s->members));
	assert_non_null(s->members);
	s->holes = NULL;
	s->n_holes = 0;
	for (size_t r = 0; r < nu; r++) {
		size_t u = nu - 1 - r;
		const struct slt_member *first = &orig->members[units[u][0]];
		uint64_t al = 1, off;

		for (size_t j = 0; j < ulen[u]; j++) {
			const struct slt_member *x = &orig->members[units[u][j]];
			if (x->alignment > al)
				al = x->alignment;
			if (x->natural_alignment > al)
				al = x->natural_alignment;
		}

		if (r == pad_before) {
			struct slt_member *pm = &s->members[k++];
			memset(pm, 0, sizeof(*pm));
			pm->name = "_pad1_";
			pm->type = SLT_ADV_PAD_TYPE;
			pm->decl_head = SLT_ADV_PAD_TYPE " ";
			pm->decl_tail = "";
			pm->flags = SLT_MEMBER_ZERO_SIZE | SLT_MEMBER_COMPOSITE;
			pm->alignment = 64;
			pm->natural_alignment = 64;
			pm->parent = -1;
			end = (end + 63) / 64 * 64;
			pm->offset = end;
			if (align < 64)
				align = 64;
		}
		if (!al)
			al = 1;
		off = (end + al - 1) / al * al;
		for (size_t j = 0; j < ulen[u]; j++) {
			size_t oi = units[u][j];
			const struct slt_member *om = &orig->members[oi];
			int64_t delta = (int64_t)off - (int64_t)first->offset;
			size_t pidx = k;

			/* the member and its inline subtree */
			s->members[k] = *om;
			s->members[k].offset = om->offset + delta;
			k++;
			for (size_t c = oi + 1; c < orig->n_members &&
			     orig->members[c].depth > om->depth; c++) {
				s->members[k] = orig->members[c];
				s->members[k].offset = orig->members[c].offset + delta;
				s->members[k].parent = orig->members[c].parent -
						       (int32_t)oi + (int32_t)pidx;
				k++;
			}
			if (top_end(&s->members[pidx]) > end)
				end = top_end(&s->members[pidx]);
		}
	}
	s->n_members = k;
	s->size = (end + align - 1) / align * align;
	s->alignment = (uint32_t)align;
	p->kind = SLT_PROPOSAL_REGROUP;
}

static void compile_check(const char *src, const char *name, size_t pad_before)
{
	char path[512], out[512];
	struct slt_layout *orig, *back;
	struct slt_arena *a = slt_arena_new();
	struct slt_proposal p;
	const char *decl = NULL;
	char *text;
	size_t nb = 0;

	assert_non_null(a);
	snprintf(path, sizeof(path), "%s/orig_%s.c", tmpdir, name);
	write_file(path, src);
	orig = compile_load(path, name);
	memset(&p, 0, sizeof(p));
	make_proposal(a, &orig->structs[0], pad_before, &p);
	assert_int_equal(slt_advice_emit_c(&p, &orig->structs[0], false, a, &decl), 0);
	assert_non_null(decl);
	assert_non_null(strstr(decl, "CACHELINE_PADDING(_pad1_);"));
	assert_non_null(strstr(decl, "static_assert(offsetof("));

	text = slt_arena_printf(a, "#include \"kcompat.h\"\n%s\n%s %s *%s_inst;\n"
				"%s %s %s_obj;\n", decl,
				p.layout.kind == SLT_KIND_UNION ? "union" : "struct",
				name, name,
				p.layout.kind == SLT_KIND_UNION ? "union" : "struct",
				name, name);
	snprintf(out, sizeof(out), "%s/emit_%s.c", tmpdir, name);
	write_file(out, text);
	back = compile_load(out, name);
	{
		const struct slt_struct *b = &back->structs[0];
		assert_int_equal(b->size, p.layout.size);
		assert_int_equal(b->n_members, p.layout.n_members);
		for (size_t i = 0; i < b->n_members; i++) {
			const struct slt_member *x = &b->members[i], *y = &p.layout.members[i];
			if (strcmp(x->name, y->name) || x->offset != y->offset ||
			    x->bit_offset != y->bit_offset || x->bit_size != y->bit_size)
				fail_msg("member %zu: compiled %s@%llu:%u, proposed %s@%llu:%u\n%s",
					 i, x->name, (unsigned long long)x->offset,
					 x->bit_offset, y->name,
					 (unsigned long long)y->offset, y->bit_offset, decl);
			nb++;
		}
	}
	assert_true(nb > 10);
	slt_layout_free(back);
	slt_layout_free(orig);
	slt_arena_free(a);
}

static void test_emit_compile(void **state)
{
	(void)state;
	for (size_t pad = 1; pad < 5; pad++)
		compile_check(fixture_src, "emit_a", pad);
}

static const char group_src[] =
	"typedef unsigned char __u8;\n"
	"struct emit_g {\n"
	"\tlong first;\n"
	"\t__u8 __cacheline_group_begin__rx[0];\n"
	"\tint rx_a;\n"
	"\tvoid *rx_b;\n"
	"\t__u8 __cacheline_group_end__rx[0];\n"
	"\tint cold;\n"
	"\tchar c2;\n"
	"\tlong l2;\n"
	"\tshort s3;\n"
	"};\n"
	"struct emit_g emit_g_inst;\n";

/* group markers move with their run? no: here the whole struct reverses,
 * so the markers must be re-emitted as __cacheline_group_*() and the
 * group assertion (end before begin) must not be emitted for members
 * outside it; the compiled offsets still match. */
static void test_emit_groups(void **state)
{
	struct slt_layout *orig;
	struct slt_arena *a = slt_arena_new();
	struct slt_proposal p;
	const char *decl = NULL;
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/orig_emit_g.c", tmpdir);
	write_file(path, group_src);
	orig = compile_load(path, "emit_g");
	memset(&p, 0, sizeof(p));
	/* identity order is the interesting one for groups: emit orig */
	p.layout = orig->structs[0];
	assert_int_equal(slt_advice_emit_c(&p, &orig->structs[0], false, a, &decl), 0);
	assert_non_null(strstr(decl, "\t__cacheline_group_begin(rx);\n"));
	assert_non_null(strstr(decl, "\t__cacheline_group_end(rx);\n"));
	assert_non_null(strstr(decl, "CACHELINE_ASSERT_GROUP_MEMBER(struct emit_g, rx, rx_a);"));
	assert_non_null(strstr(decl, "CACHELINE_ASSERT_GROUP_MEMBER(struct emit_g, rx, rx_b);"));
	assert_null(strstr(decl, "CACHELINE_ASSERT_GROUP_MEMBER(struct emit_g, rx, cold);"));
	{
		char out[512];
		char *text = slt_arena_printf(a, "#include \"kcompat.h\"\n%s\n"
					      "struct emit_g emit_g_obj;\n", decl);
		struct slt_layout *back;
		snprintf(out, sizeof(out), "%s/emit_emit_g.c", tmpdir);
		write_file(out, text);
		back = compile_load(out, "emit_g");
		assert_int_equal(back->structs[0].size, orig->structs[0].size);
		for (size_t i = 0; i < back->structs[0].n_members; i++)
			assert_int_equal(back->structs[0].members[i].offset,
					 orig->structs[0].members[i].offset);
		slt_layout_free(back);
	}
	/* a wrong offset must not compile: the asserts lock the layout */
	{
		char out[512], cmd[2048];
		char *bad = slt_arena_strdup(a, decl);
		char *q = strstr(bad, "offsetof(struct emit_g, cold) == ");
		assert_non_null(q);
		q += strlen("offsetof(struct emit_g, cold) == ");
		*q = *q == '9' ? '1' : '9';
		snprintf(out, sizeof(out), "%s/bad_emit_g.c", tmpdir);
		write_file(out, slt_arena_printf(a, "#include \"kcompat.h\"\n%s\n", bad));
		snprintf(cmd, sizeof(cmd), "%s -std=gnu17 -c -I%s/tests/cli -o %s.o %s 2>/dev/null",
			 getenv("CC_GCC") ? getenv("CC_GCC") : "gcc",
			 getenv("MESON_SOURCE_ROOT") ? getenv("MESON_SOURCE_ROOT") : ".",
			 out, out);
		assert_int_not_equal(run(cmd), 0);
	}
	slt_layout_free(orig);
	slt_arena_free(a);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/slt-emit-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return run(cmd) == 0 ? 0 : -1;
}

/* The safety net (src/advice/safety.c): a proposal must keep every
 * member's name, type, size and depth; a zero-size non-flexible member
 * followed by more than alignment explains is suspect. */
static void test_safety(void **state)
{
	(void)state;
	struct slt_member om[3] = {
		{ .name = "a", .type = "int", .size = 4, .offset = 0,
		  .parent = -1, .natural_alignment = 4 },
		{ .name = "b", .type = "char[256]", .size = 256, .offset = 4,
		  .parent = -1, .natural_alignment = 1 },
		{ .name = "l", .type = "long int", .size = 8, .offset = 264,
		  .parent = -1, .natural_alignment = 8 },
	};
	struct slt_struct o = { .name = "s", .members = om, .n_members = 3,
				.n_top_members = 3, .size = 272, .alignment = 8 };
	struct slt_member pm[4] = { om[2], om[0], om[1], om[1] };
	pm[2] = (struct slt_member){ .name = "_pad1_", .type = slt_adv_pad_type,
				     .flags = SLT_MEMBER_ZERO_SIZE, .parent = -1 };
	struct slt_struct p = o;
	struct slt_error err;
	p.members = pm;
	p.n_members = 4;
	slt_error_clear(&err);
	assert_int_equal(slt_adv_check_proposal(&o, &p, "regroup", &err), 0);
	/* an original CACHELINE_PADDING member is a member to keep, not one
	 * the proposal inserted: the same type name, another string */
	struct slt_member om2[4] = { om[0], om[1], om[2], pm[2] };
	om2[3].type = "struct cacheline_padding";
	o.members = om2;
	o.n_members = 4;
	assert_int_equal(slt_adv_check_proposal(&o, &p, "size", &err), SLT_EUNSUPPORTED);
	pm[2].type = om2[3].type;
	assert_int_equal(slt_adv_check_proposal(&o, &p, "size", &err), 0);
	pm[2].type = slt_adv_pad_type;
	o.members = om;
	o.n_members = 3;
	slt_error_clear(&err);
	pm[3].type = "char[0]"; /* the member lost its bound */
	pm[3].size = 0;
	assert_int_equal(slt_adv_check_proposal(&o, &p, "regroup", &err),
			 SLT_EUNSUPPORTED);
	assert_non_null(strstr(err.message, "internal error: the regroup proposal"));
	assert_non_null(strstr(err.message, "member b (char[256], 256 bytes"));
	pm[3] = om[1];
	p.n_members = 3; /* b dropped */
	slt_error_clear(&err);
	assert_int_equal(slt_adv_check_proposal(&o, &p, "size", &err),
			 SLT_EUNSUPPORTED);
	pm[2] = om[1];
	pm[1].size = 8; /* a resized */
	assert_int_equal(slt_adv_check_proposal(&o, &p, "size", &err),
			 SLT_EUNSUPPORTED);

	struct slt_arena *ar = slt_arena_new();
	assert_null(slt_adv_suspect(&o, ar));
	om[1].type = "char[0]"; /* b256 misread as b256[0]: a 260-byte gap */
	om[1].size = 0;
	om[1].flags = SLT_MEMBER_ZERO_SIZE;
	const char *why = slt_adv_suspect(&o, ar);
	assert_non_null(why);
	assert_non_null(strstr(why, "member b (char[0]) at offset 4"));
	om[1].flags |= SLT_MEMBER_FLEX; /* flexible: not judged here */
	assert_null(slt_adv_suspect(&o, ar));
	om[1].flags = SLT_MEMBER_ZERO_SIZE;
	om[2].offset = 8; /* a 4-byte gap before a long: alignment */
	o.size = 16;
	assert_null(slt_adv_suspect(&o, ar));
	o.size = 80; /* zero-size last member, 72 bytes of tail: suspect */
	o.n_members = 2;
	assert_non_null(strstr(slt_adv_suspect(&o, ar), "the end of the struct"));
	o.kind = SLT_KIND_UNION; /* members of a union overlap */
	assert_null(slt_adv_suspect(&o, ar));
	slt_arena_free(ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slab_hand),
		cmocka_unit_test(test_slab_live),
		cmocka_unit_test(test_emit_compile),
		cmocka_unit_test(test_emit_groups),
		cmocka_unit_test(test_safety),
	};
	return cmocka_run_group_tests(tests, setup, getenv("KEEP_TMP") ? NULL : teardown);
}
