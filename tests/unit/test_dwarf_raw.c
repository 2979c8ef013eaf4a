/* SPDX-License-Identifier: MIT */
/*
 * The direct DIE reader (src/load/dwarf_raw.h) against libdwarf: every DIE
 * of objects and executables compiled now by gcc and clang (CC_GCC,
 * CC_CLANG; clang skips when missing), DWARF 2 to 5, -O0 and -O2, is read
 * both ways and must agree on tag, children, the attributes in order, the
 * names, the constants and the references (made global); the next sibling
 * of each DIE too.  Then truncated and corrupted sections: every read
 * fails cleanly or stays inside its section (ASan checks the bytes).
 * And the view of .debug_info that a warm lookup translates through.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "load/dwarf_int.h"
#include "load/source.h"

static char dir[] = "/tmp/slt-dwraw-XXXXXX";

static const char src[] =
	"struct list { struct list *next, *prev; };\n"
	"struct peer;\n"
	"typedef struct { int a; short b; } anon_t;\n"
	"enum color { RED, GREEN = 7, BLUE = -1 };\n"
	"struct bits { unsigned a:3, b:5; int c:12; char d; unsigned long e:40; };\n"
	"struct S {\n"
	"  int i; const char *s; struct list l; anon_t at; struct peer *p;\n"
	"  int (*fp)(int, char *, ...); union { int u1; float u2; };\n"
	"  struct bits bf; enum color c; long arr[3][0x100]; char fl[];\n"
	"};\n"
	"struct S s; static int helper(int x) { int y = x * 3; return y + s.i; }\n"
	"int main(int argc, char **argv) { (void)argv; return helper(argc); }\n";

static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static const char *cc(int clang)
{
	const char *e = getenv(clang ? "CC_CLANG" : "CC_GCC");
	return e && *e ? e : clang ? "clang" : "gcc";
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	char p[600];
	snprintf(p, sizeof(p), "%s/t.c", dir);
	FILE *f = fopen(p, "w");
	if (!f)
		return -1;
	fputs(src, f);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf '%s'", dir);
	return 0;
}

static size_t n_dies;

/* One DIE both ways; then its children. */
static void check_die(struct dw *d, Dwarf_Die die, unsigned depth)
{
	Dwarf_Off off;
	Dwarf_Half tag;
	Dwarf_Error e = NULL;
	assert_int_equal(dwarf_dieoffset(die, &off, &e), DW_DLV_OK);
	assert_int_equal(dwarf_tag(die, &tag, &e), DW_DLV_OK);
	struct slt_raw_die *r = malloc(sizeof(*r));
	assert_non_null(r);
	assert_int_equal(slt_raw_die(&d->raw, off, r), 0);
	assert_int_equal(r->tag, tag);
	n_dies++;
	Dwarf_Attribute *list = NULL;
	Dwarf_Signed n = 0;
	int res = dwarf_attrlist(die, &list, &n, &e);
	assert_true(res == DW_DLV_OK || res == DW_DLV_NO_ENTRY);
	assert_int_equal(r->n, (uint32_t)n);
	for (Dwarf_Signed i = 0; i < n; i++) {
		const struct slt_raw_attr *a = &r->a[i];
		Dwarf_Half at, form;
		assert_int_equal(dwarf_whatattr(list[i], &at, &e), DW_DLV_OK);
		assert_int_equal(dwarf_whatform(list[i], &form, &e), DW_DLV_OK);
		assert_int_equal(a->at, at);
		char *s;
		Dwarf_Off ref;
		Dwarf_Unsigned u;
		Dwarf_Signed sv;
		switch (a->cls) {
		case SLT_RAW_STR: {
			const uint8_t *p;
			size_t len;
			assert_int_equal(dwarf_formstring(list[i], &s, &e), DW_DLV_OK);
			assert_true(slt_raw_str(&d->raw, a, &p, &len));
			assert_int_equal(strlen(s), len);
			assert_memory_equal(s, p, len);
			break;
		}
		case SLT_RAW_REF:
			assert_int_equal(dwarf_global_formref(list[i], &ref, &e),
					 DW_DLV_OK);
			assert_int_equal(ref, a->u);
			break;
		case SLT_RAW_CONST:
			if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
				assert_int_equal(dwarf_formsdata(list[i], &sv, &e),
						 DW_DLV_OK);
				assert_int_equal((uint64_t)sv, a->u);
			} else if (form >= DW_FORM_data1 && form <= DW_FORM_udata &&
				   form != DW_FORM_strp && form != DW_FORM_string &&
				   form != DW_FORM_flag && form != DW_FORM_block1) {
				assert_int_equal(dwarf_formudata(list[i], &u, &e),
						 DW_DLV_OK);
				assert_int_equal(u, a->u);
			}
			break;
		default:
			break;
		}
		dwarf_dealloc(d->dbg, list[i], DW_DLA_ATTR);
	}
	if (list)
		dwarf_dealloc(d->dbg, list, DW_DLA_LIST);
	/* the next sibling */
	Dwarf_Die sib = NULL;
	res = dwarf_siblingof_b(d->dbg, die, 1, &sib, &e);
	assert_int_not_equal(res, DW_DLV_ERROR);
	uint64_t rs = slt_raw_sibling(&d->raw, r);
	assert_int_not_equal(rs, 0);
	if (!depth) /* a unit's DIE: the unit ends there */
		assert_int_equal(rs, d->raw.cu[r->cu].end);
	if (res == DW_DLV_OK) {
		Dwarf_Off so;
		assert_int_equal(dwarf_dieoffset(sib, &so, &e), DW_DLV_OK);
		assert_int_equal(so, rs);
		dwarf_dealloc_die(sib);
	} else if (depth) { /* the last child: the null entry follows */
		struct slt_raw_die *z = malloc(sizeof(*z));
		assert_non_null(z);
		assert_int_equal(slt_raw_die(&d->raw, rs, z), 1);
		free(z);
	}
	free(r);
	Dwarf_Die c = NULL, next;
	res = dwarf_child(die, &c, &e);
	assert_int_not_equal(res, DW_DLV_ERROR);
	while (res == DW_DLV_OK && depth < 64) {
		check_die(d, c, depth + 1);
		res = dwarf_siblingof_b(d->dbg, c, 1, &next, &e);
		assert_int_not_equal(res, DW_DLV_ERROR);
		dwarf_dealloc_die(c);
		c = next;
	}
}

static void check_file(const char *path)
{
	struct slt_source *s;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf(path, NULL, &s, &err), 0);
	struct dw *d = (struct dw *)s;
	assert_true(slt_dw_raw_ready(d));
	Dwarf_Unsigned len, typeoff, next;
	Dwarf_Half ver, asz, lsz, esz, cut;
	Dwarf_Off abbr;
	Dwarf_Sig8 sig;
	Dwarf_Error e = NULL;
	size_t units = 0;
	n_dies = 0;
	while (dwarf_next_cu_header_d(d->dbg, 1, &len, &ver, &abbr, &asz, &lsz,
				      &esz, &sig, &typeoff, &next, &cut,
				      &e) == DW_DLV_OK) {
		Dwarf_Die cu = NULL;
		assert_int_equal(dwarf_siblingof_b(d->dbg, NULL, 1, &cu, &e),
				 DW_DLV_OK);
		check_die(d, cu, 0);
		dwarf_dealloc_die(cu);
		units++;
	}
	assert_int_equal(units, d->raw.n_cu);
	assert_true(n_dies > 50);
	s->ops->close(s);
}

static void build_and_check(int clang, int ver, const char *opt)
{
	char bin[700], obj[720];
	snprintf(bin, sizeof(bin), "%s/t-%d-%d%s", dir, clang, ver, opt);
	snprintf(obj, sizeof(obj), "%s.o", bin);
	if (sh("%s -g -gdwarf-%d %s -c %s/t.c -o %s 2>/dev/null && "
	       "%s -g -gdwarf-%d %s %s/t.c -o %s 2>/dev/null", cc(clang), ver,
	       opt, dir, obj, cc(clang), ver, opt, dir, bin) != 0) {
		if (clang)
			skip();
		fail_msg("cannot compile with %s", cc(clang));
	}
	check_file(obj);
	check_file(bin);
}

static void test_gcc(void **st)
{
	(void)st;
	for (int v = 2; v <= 5; v++) {
		build_and_check(0, v, "-O0");
		build_and_check(0, v, "-O2");
	}
}

static void test_clang(void **st)
{
	(void)st;
	for (int v = 4; v <= 5; v++) {
		build_and_check(1, v, "-O0");
		build_and_check(1, v, "-O2");
	}
}

/* Read everything reachable from every unit's first DIE. */
static size_t read_all(struct slt_raw *r)
{
	struct slt_raw_die *die = malloc(sizeof(*die));
	size_t n = 0;
	assert_non_null(die);
	for (size_t u = 0; u < r->n_cu; u++) {
		uint64_t at = r->cu[u].die;
		while (at < r->cu[u].end) {
			int rc = slt_raw_die(r, at, die);
			if (rc < 0)
				break;
			if (rc == 0 && slt_raw_sibling(r, die))
				n++;
			at = die->next; /* every DIE and null entry in turn */
		}
	}
	free(die);
	return n;
}

/* The sections of a real executable, each cut short and with bytes
 * flipped: no read leaves its section (ASan), the headers of a section
 * cut inside a unit are refused. */
static void test_corrupt(void **st)
{
	(void)st;
	char bin[700];
	snprintf(bin, sizeof(bin), "%s/t-0-5-O0", dir);
	build_and_check(0, 5, "-O0");
	struct slt_source *s;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_dwarf(bin, NULL, &s, &err), 0);
	struct dw *d = (struct dw *)s;
	struct slt_raw r;
	size_t full = 0;
	assert_int_equal(slt_raw_init(&r, d->info, d->info_n, d->abbrev,
				      d->abbrev_n, d->str, d->str_n, d->lstr,
				      d->lstr_n, true), 0);
	full = read_all(&r);
	assert_true(full > 50);
	slt_raw_free(&r);
	/* cut .debug_info inside its last unit: refused */
	uint8_t *info = malloc(d->info_n);
	assert_non_null(info);
	memcpy(info, d->info, d->info_n);
	assert_int_equal(slt_raw_init(&r, info, d->info_n - 3, d->abbrev,
				      d->abbrev_n, d->str, d->str_n, d->lstr,
				      d->lstr_n, true), -1);
	/* cut .debug_abbrev and .debug_str, flip bytes of .debug_info */
	for (size_t cut = 0; cut < d->abbrev_n; cut += 1 + d->abbrev_n / 40) {
		uint8_t *ab = malloc(cut ? cut : 1);
		assert_non_null(ab);
		memcpy(ab, d->abbrev, cut);
		assert_int_equal(slt_raw_init(&r, info, d->info_n, ab, cut, d->str,
					      d->str_n / 2, NULL, 0, true), 0);
		read_all(&r);
		slt_raw_free(&r);
		free(ab);
	}
	for (size_t i = 12; i < d->info_n; i += 7) {
		uint8_t keep = info[i];
		info[i] ^= 0xa5;
		if (slt_raw_init(&r, info, d->info_n, d->abbrev, d->abbrev_n,
				 d->str, d->str_n, d->lstr, d->lstr_n, true) == 0) {
			read_all(&r);
			slt_raw_free(&r);
		}
		info[i] = keep;
	}
	free(info);
	s->ops->close(s);
}

/*
 * The view (src/load/dwarf.c slt_dw_view()): a struct defined in the second
 * unit only, looked up again through the name index, is translated by a
 * libdwarf instance whose .debug_info starts at that unit: the answer comes
 * from the index (not the walk it falls back to), with the right members.
 */
static void test_view(void **st)
{
	(void)st;
	char a[700], b[700], exe[700], cache[700];
	snprintf(a, sizeof(a), "%s/va.c", dir);
	snprintf(b, sizeof(b), "%s/vb.c", dir);
	snprintf(exe, sizeof(exe), "%s/view", dir);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	FILE *f = fopen(a, "w");
	assert_non_null(f);
	fputs("struct first { int a; };\nstruct first g_first;\n", f);
	fclose(f);
	f = fopen(b, "w");
	assert_non_null(f);
	fputs("typedef long wide_t;\nstruct later { char c; wide_t w; "
	      "struct later *next; };\nstruct later g_later;\n"
	      "int main(void) { return 0; }\n", f);
	fclose(f);
	assert_int_equal(sh("%s -g -Wl,--build-id=sha1 %s %s -o %s", cc(0), a, b,
			    exe), 0);
	setenv("STRUCTLINT_CACHE_DIR", cache, 1);
	const char *name = "later";
	for (int round = 0; round < 2; round++) {
		struct slt_source *s;
		struct slt_error err;
		slt_error_clear(&err);
		assert_int_equal(slt_source_open_dwarf(exe, NULL, &s, &err), 0);
		struct dw *d = (struct dw *)s;
		struct slt_dw_result res;
		d->err = &err;
		assert_int_equal(slt_dw_index_find(d, &name, 1, &res), 0);
		if (round == 0) {
			/* nothing indexed yet: walk, which fills the index */
			assert_false(res.from_index);
			struct slt_found fd;
			assert_int_equal(s->ops->find_many(s, &name, 1, &fd, &err), 0);
			free(fd.defs);
		} else {
			assert_true(res.from_index);
			assert_non_null(d->vdbg);
			assert_true(d->vbase > 0);
			assert_int_equal(res.n, 1);
			const struct slt_type *t = res.found[0].t;
			assert_string_equal(t->name, "later");
			assert_int_equal(t->n_members, 3);
			assert_int_equal(t->members[1].bit_offset, 64);
			assert_int_equal(slt_dw_strip(t->members[1].type)->size, 8);
			assert_int_equal(t->members[2].type->kind, SLT_T_PTR);
			assert_non_null(t->decl_file);
			assert_non_null(strstr(t->decl_file, "vb.c"));
		}
		free(res.found);
		d->err = NULL;
		s->ops->close(s);
	}
	unsetenv("STRUCTLINT_CACHE_DIR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcc),
		cmocka_unit_test(test_clang),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_view),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
