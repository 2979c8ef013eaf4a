/* SPDX-License-Identifier: MIT */
/* Writer tests: JSON schema structlint.layout/v1, colour and decl extras. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>

#include "graph_helpers.h"

/* struct js { char a; int b:3; long c; union { int u; char v; }; }; */
static struct slt_type *js_type(struct slt_arena *a)
{
	struct slt_type *c = G_INT(a, "char", 1), *i = G_INT(a, "int", 4),
			*l = G_INT(a, "long int", 8);
	struct slt_type *u = g_comp(a, SLT_T_UNION, NULL, 4, 2);
	struct slt_type *t = g_comp(a, SLT_T_STRUCT, "js", 24, 4);

	g_mem(u, "u", i, 0, 0, 0);
	g_mem(u, "v", c, 0, 0, 0);
	g_mem(t, "a", c, 0, 0, 0);
	g_mem(t, "b", i, 8, 3, 0);
	g_mem(t, "c", l, 64, 0, 0);
	g_mem(t, NULL, u, 128, 0, 0);
	t->decl_file = "js.c";
	t->decl_line = 7;
	return t;
}

static char *render(struct slt_layout *l, bool json,
		    const struct slt_report_opts *o)
{
	struct slt_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	assert_non_null(f);
	rc = json ? slt_report_layout_json(f, l, o, &err)
		  : slt_report_layout_text(f, l, o, &err);
	fclose(f);
	assert_int_equal(rc, 0);
	return buf;
}

static void test_json(void **state)
{
	struct slt_arena *a = slt_arena_new();
	struct slt_struct s;
	struct slt_layout l = { .structs = &s, .n_structs = 1 };
	struct slt_error err;
	struct slt_report_opts o = { .cacheline_size = 16 };
	json_error_t je;
	char *text;

	assert_int_equal(slt_build_struct(a, js_type(a), SLT_FORMAT_DWARF, false,
					  "js.o", &s, &err), 0);
	text = render(&l, true, &o);
	/* compact: a single line */
	assert_null(strchr(text, '\n') == text + strlen(text) - 1 ? NULL : "x");
	json_t *doc = json_loads(text, 0, &je);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")),
			    "structlint.layout/v1");
	assert_int_equal(json_integer_value(json_object_get(doc, "cacheline_size")), 16);
	json_t *st = json_array_get(json_object_get(doc, "structs"), 0);
	assert_string_equal(json_string_value(json_object_get(st, "kind")), "struct");
	assert_int_equal(json_integer_value(json_object_get(st, "size")), 24);
	assert_int_equal(json_integer_value(json_object_get(st, "cachelines")), 2);
	assert_string_equal(json_string_value(json_object_get(st, "decl_file")), "js.c");
	json_t *ms = json_object_get(st, "members");
	assert_int_equal(json_array_size(ms), 6);
	json_t *b = json_array_get(ms, 1);
	assert_int_equal(json_integer_value(json_object_get(b, "bit_offset")), 8);
	assert_int_equal(json_integer_value(json_object_get(b, "bit_size")), 3);
	/* non-bitfields have no bit keys, unforced members no alignment */
	assert_null(json_object_get(json_array_get(ms, 0), "bit_offset"));
	assert_null(json_object_get(json_array_get(ms, 0), "alignment"));
	json_t *anon = json_array_get(ms, 3);
	assert_string_equal(json_string_value(json_object_get(anon, "name")), "");
	json_t *v = json_array_get(ms, 5);
	assert_string_equal(json_string_value(json_object_get(v, "name")), "v");
	assert_int_equal(json_integer_value(json_object_get(v, "parent")), 3);
	assert_int_equal(json_integer_value(json_object_get(v, "depth")), 1);
	assert_int_equal(json_integer_value(json_object_get(v, "offset")), 16);
	/* c at 8..15 with 16-byte lines: line 0; v at 16: line 1 */
	assert_int_equal(json_integer_value(json_array_get(
		json_object_get(json_array_get(ms, 2), "cachelines"), 0)), 0);
	assert_int_equal(json_integer_value(json_array_get(
		json_object_get(v, "cachelines"), 0)), 1);
	json_t *holes = json_object_get(st, "holes");
	assert_int_equal(json_array_size(holes), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(holes, 0), "offset")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(holes, 0), "size")), 4);
	json_t *bh = json_array_get(json_object_get(st, "bit_holes"), 0);
	assert_int_equal(json_integer_value(json_object_get(bh, "size_bits")), 21);
	assert_int_equal(json_integer_value(json_object_get(st, "padding")), 4);
	json_t *sum = json_object_get(st, "summary");
	assert_int_equal(json_integer_value(json_object_get(sum, "members")), 4);
	assert_int_equal(json_integer_value(json_object_get(sum, "sum_members")), 13);
	json_decref(doc);
	free(text);

	o.pretty = true;
	text = render(&l, true, &o);
	assert_non_null(strstr(text, "\n  \"cacheline_size\""));
	free(text);
	slt_arena_free(a);
}

/* Colour and decl add bytes but never change the plain characters. */
static void test_text_extras(void **state)
{
	struct slt_arena *a = slt_arena_new();
	struct slt_struct s;
	struct slt_layout l = { .structs = &s, .n_structs = 1 };
	struct slt_error err;
	struct slt_report_opts plain = { 0 }, extra = { .color = true, .decl = true };
	char *p, *c, *w, *r;

	assert_int_equal(slt_build_struct(a, js_type(a), SLT_FORMAT_DWARF, false,
					  "js.o", &s, &err), 0);
	p = render(&l, false, &plain);
	c = render(&l, false, &extra);
	assert_null(strstr(p, "\033["));
	assert_non_null(strstr(c, "\033["));
	assert_int_equal(strncmp(c, "\033[36m/* js.c:7 */\033[0m\n", 22), 0);
	/* strip the escapes and the decl line: must equal the plain text */
	w = r = strdup(strchr(c, '\n') + 1);
	for (const char *q = r; *q;) {
		if (*q == '\033') {
			q = strchr(q, 'm') + 1;
			continue;
		}
		*w++ = *q++;
	}
	*w = '\0';
	assert_string_equal(r, p);
	free(r);
	free(p);
	free(c);
	slt_arena_free(a);
}

/* JSON holes come in offset order although the inner level's hole (at 12)
 * is found before the outer one (at 1):
 * struct ho { char a; int b; struct { char x; long y; } n; }; */
static void test_json_hole_order(void **state)
{
	struct slt_arena *a = slt_arena_new();
	struct slt_type *c = G_INT(a, "char", 1), *i = G_INT(a, "int", 4),
			*l = G_INT(a, "long int", 8);
	struct slt_type *n = g_comp(a, SLT_T_STRUCT, NULL, 16, 2);
	struct slt_type *t = g_comp(a, SLT_T_STRUCT, "ho", 24, 3);
	struct slt_struct s;
	struct slt_layout lay = { .structs = &s, .n_structs = 1 };
	struct slt_error err;
	json_error_t je;
	char *text;

	g_mem(n, "x", c, 0, 0, 0);
	g_mem(n, "y", l, 64, 0, 0);
	g_mem(t, "a", c, 0, 0, 0);
	g_mem(t, "b", i, 32, 0, 0);
	g_mem(t, NULL, n, 64, 0, 0);
	assert_int_equal(slt_build_struct(a, t, SLT_FORMAT_DWARF, false, "ho.o",
					  &s, &err), 0);
	assert_int_equal(s.n_holes, 2);
	assert_int_equal(s.holes[0].offset, 1);
	assert_int_equal(s.holes[1].offset, 9);
	text = render(&lay, true, NULL);
	json_t *doc = json_loads(text, 0, &je);
	assert_non_null(doc);
	json_t *hs = json_object_get(json_array_get(json_object_get(doc, "structs"), 0),
				     "holes");
	assert_int_equal(json_array_size(hs), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(hs, 0), "offset")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(hs, 0), "size")), 3);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(hs, 1), "offset")), 9);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(hs, 1), "size")), 7);
	json_decref(doc);
	free(text);
	slt_arena_free(a);
}

static void test_type_list(void **state)
{
	struct slt_type_info ti[2] = {
		{ .name = "a", .kind = SLT_KIND_STRUCT, .size = 8, .decl_file = "" },
		{ .name = "b", .kind = SLT_KIND_UNION, .size = 4, .decl_file = "x.h",
		  .decl_line = 3 },
	};
	struct slt_type_list list = { .types = ti, .n_types = 2 };
	struct slt_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(slt_report_type_list(f, &list, false, NULL, &err), 0);
	fclose(f);
	assert_string_equal(buf, "8 struct a\n4 union b\n");
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(slt_report_type_list(f, &list, true, NULL, &err), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"schema\":\"structlint.types/v1\""));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text_extras),
		cmocka_unit_test(test_type_list),
		cmocka_unit_test(test_json_hole_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
