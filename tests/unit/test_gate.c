/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the gate checks and writers: group names and their
 * classes, the kernel marker groups of fixtures/layout/kernel_like.c's
 * struct grouped (gcc, DWARF 5), rules evaluated on its struct cgroup
 * (violations, sources, unknown members with a suggestion), and the text,
 * JSON and SARIF writers read back.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "structlint/gate.h"
#include "structlint/rules.h"

static struct slt_layout *load(const char *name)
{
	const char *dir = getenv("FIXTURES_DIR");
	char path[1024];
	struct slt_layout *l = NULL;
	struct slt_error err;
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/gcc-dwarf5/kernel_like.o", dir);
	slt_error_clear(&err);
	assert_int_equal(slt_layout_load(path, &name, 1, NULL, &l, &err), 0);
	return l;
}

static void test_group_class(void **state)
{
	(void)state;
	static const struct { const char *name; enum slt_group_class c; } t[] = {
		{ "read_mostly", SLT_GROUP_READ_MOSTLY }, { "read_write", SLT_GROUP_WRITTEN },
		{ "tcp_sock_read_txrx", SLT_GROUP_READ_MOSTLY },
		{ "tcp_sock_write_tx", SLT_GROUP_WRITTEN }, { "stats_rw", SLT_GROUP_WRITTEN },
		{ "cfg_ro", SLT_GROUP_READ_MOSTLY }, { "icmp", SLT_GROUP_UNKNOWN },
		{ "rowan", SLT_GROUP_UNKNOWN }, { "overwrite_x", SLT_GROUP_UNKNOWN },
		{ "hot_write", SLT_GROUP_WRITTEN }, { "reader", SLT_GROUP_UNKNOWN },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (slt_group_class_of(t[i].name) != t[i].c)
			fail_msg("%s: got %d want %d", t[i].name, slt_group_class_of(t[i].name), t[i].c);
	}
	assert_string_equal(slt_group_class_name(SLT_GROUP_WRITTEN), "written");
}

static void test_kernel_groups(void **state)
{
	(void)state;
	struct slt_layout *l = load("grouped");
	const struct slt_struct *s = &l->structs[0];
	struct slt_cl_group *g;
	size_t n;
	assert_int_equal(slt_groups_find(s, &g, &n, NULL), 0);
	assert_int_equal(n, 2);
	assert_string_equal(g[0].name, "read_mostly");
	assert_int_equal(g[0].offset, 0);
	assert_int_equal(g[0].end_offset, 16);
	assert_int_equal(g[0].cls, SLT_GROUP_READ_MOSTLY);
	assert_string_equal(g[1].name, "read_write");
	assert_int_equal(g[1].offset, 64);
	assert_int_equal(g[1].end_offset, 76);
	for (size_t i = 0; i < s->n_members; i++) {
		int in0 = !strcmp(s->members[i].name, "mss_cache") || !strcmp(s->members[i].name, "window_clamp") ||
			  !strcmp(s->members[i].name, "ops");
		int in1 = !strcmp(s->members[i].name, "bytes_acked") || !strcmp(s->members[i].name, "snd_cwnd");
		assert_int_equal(slt_group_has(s, &g[0], i), in0);
		assert_int_equal(slt_group_has(s, &g[1], i), in1);
	}
	free(g);
	struct slt_gate_result *r;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_gate_result_new(&r, &err), 0);
	struct slt_check_opts o = { .cacheline_size = 64 };
	assert_int_equal(slt_groups_check(s, &o, r, &err), 0);
	assert_int_equal(r->n_violations, 2);
	assert_int_equal(slt_gate_failures(r), 0);
	assert_string_equal(r->violations[0].message,
			    "cacheline group read_mostly: bytes 0..16 (16 bytes), cachelines 0..0 (1), read-mostly");
	assert_int_equal(r->n_checks, 1);
	/* 128-byte lines: both groups on line 0 -> sharing */
	o.cacheline_size = 128;
	assert_int_equal(slt_groups_check(s, &o, r, &err), 0);
	assert_int_equal(slt_gate_failures(r), 1);
	assert_string_equal(r->violations[4].rule, "cacheline-group-sharing");
	assert_string_equal(r->violations[4].message,
			    "read-mostly cacheline group read_mostly (bytes 0..16) shares cacheline 0 "
			    "with written group read_write (bytes 64..76)");
	slt_gate_result_free(r);
	/* a classed member outside every group of its class: an error when it
	 * shares a line with a member of the other kind, else a warning */
	enum slt_class *cls = calloc(s->n_members, sizeof(*cls));
	for (size_t i = 0; i < s->n_members; i++)
		if (!strcmp(s->members[i].name, "cold"))
			cls[i] = SLT_CLASS_READ_MOSTLY;
		else if (!strcmp(s->members[i].name, "bytes_acked"))
			cls[i] = SLT_CLASS_HOT_WRITE;
	struct slt_check_opts oc = { .cacheline_size = 64, .classes = cls };
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(slt_gate_result_new(&r, &err), 0);
		oc.cacheline_size = pass ? 4096 : 64;
		assert_int_equal(slt_groups_check(s, &oc, r, &err), 0);
		const struct slt_violation *v = &r->violations[r->n_violations - 1];
		assert_string_equal(v->rule, "cacheline-group-member");
		assert_string_equal(v->member, "cold");
		assert_int_equal(v->severity, pass ? SLT_SEV_ERROR : SLT_SEV_WARNING);
		assert_string_equal(v->message, pass ?
			"read-mostly member cold (offset 128, 4 bytes) is outside every read-mostly "
			"cacheline group and shares a cacheline with hot-write bytes_acked (offset 64)" :
			"read-mostly member cold (offset 128, 4 bytes) is outside every read-mostly "
			"cacheline group; no written member shares its cachelines");
		slt_gate_result_free(r);
	}
	free(cls);
	slt_layout_free(l);
}

static struct slt_rules *rules(const char *text)
{
	struct slt_rules *r = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_rules_read_mem(text, strlen(text), "c.rules", &r, &err), 0);
	return r;
}

static char *slurp(FILE *f)
{
	long n = ftell(f);
	char *buf = calloc(1, (size_t)n + 1);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	return buf;
}

static void test_rules_and_writers(void **state)
{
	(void)state;
	struct slt_layout *l = load("cgroup");
	const struct slt_struct *s = &l->structs[0];
	struct slt_rules *ru = rules("[struct cgroup]\ngroup ro = rstat_cpu rstat_css_list\n"
				     "group hot = last_bstat bstat\nseparate = ro hot\nmax-size = 512\n");
	struct slt_gate_result *r;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_gate_result_new(&r, &err), 0);
	struct slt_check_opts o = { .cacheline_size = 64 };
	assert_int_equal(slt_rules_check(&ru->structs[0], "c.rules", s, &o, r, &err), 0);
	assert_int_equal(r->n_violations, 1);
	assert_int_equal(r->n_checks, 2);
	const struct slt_violation *v = &r->violations[0];
	assert_string_equal(v->rule, "separate");
	assert_string_equal(v->source, "c.rules:4");
	assert_string_equal(v->member, "rstat_css_list");
	assert_int_equal(v->offset, 120);
	/* one violation per line, naming every member of each group on it */
	assert_string_equal(v->message, "groups ro and hot share cacheline 2: ro: rstat_css_list "
			    "(offset 120, 16 bytes); hot: last_bstat (offset 136, 24 bytes), bstat (offset "
			    "160, 24 bytes)");
	assert_true(strstr(v->decl_file, "kernel_like.c") != NULL);
	r->n_structs_checked = 1;

	/* writers */
	struct slt_gate_write_opts wo = { .input = "k.o", .version = "9.9" };
	FILE *f = tmpfile();
	assert_int_equal(slt_gate_write_text(f, r, &wo, &err), 0);
	char *text = slurp(f);
	char want[2048];
	snprintf(want, sizeof(want), "%s:%u: error: struct cgroup: %s [separate]\n"
		 "structlint: check: how violations count: a sharing rule gives one per cacheline "
		 "it fails on (separate: per pair of groups; no-hot-write-near: per line of its "
		 "member), finding-KIND one per line and kind as report lists them, other rules "
		 "one per member or struct; the rule is in [] at the end of each line\n"
		 "structlint: check: 1 struct, 2 checks: 1 error, 0 warnings, 0 notes (0 suppressed): FAILED\n",
		 v->decl_file, v->decl_line, v->message);
	assert_string_equal(text, want);
	free(text);
	fclose(f);
	f = tmpfile();
	assert_int_equal(slt_gate_write_json(f, r, &wo, &err), 0);
	text = slurp(f);
	json_error_t je;
	json_t *d = json_loads(text, 0, &je);
	assert_non_null(d);
	assert_string_equal(json_string_value(json_object_get(d, "schema")), "structlint.check/v1");
	assert_true(json_is_true(json_object_get(d, "failed")));
	json_t *jv = json_array_get(json_object_get(d, "violations"), 0);
	assert_string_equal(json_string_value(json_object_get(jv, "source")), "c.rules:4");
	assert_int_equal(json_integer_value(json_object_get(jv, "offset")), 120);
	json_decref(d);
	free(text);
	fclose(f);
	f = tmpfile();
	assert_int_equal(slt_gate_write_sarif(f, r, &wo, &err), 0);
	text = slurp(f);
	d = json_loads(text, 0, &je);
	assert_non_null(d);
	assert_string_equal(json_string_value(json_object_get(d, "version")), "2.1.0");
	json_t *run = json_array_get(json_object_get(d, "runs"), 0);
	json_t *drv = json_object_get(json_object_get(run, "tool"), "driver");
	assert_string_equal(json_string_value(json_object_get(drv, "version")), "9.9");
	json_t *res = json_array_get(json_object_get(run, "results"), 0);
	assert_string_equal(json_string_value(json_object_get(res, "ruleId")), "separate");
	json_t *reg = json_object_get(json_object_get(json_array_get(json_object_get(res, "locations"), 0),
						      "physicalLocation"), "region");
	assert_int_equal(json_integer_value(json_object_get(reg, "startLine")), v->decl_line);
	json_decref(d);
	free(text);
	fclose(f);

	/* an unknown member: the rule's place and a suggestion */
	struct slt_rules *bad = rules("[struct cgroup]\n\nfirst = rstat_cpus\n");
	slt_error_clear(&err);
	assert_int_equal(slt_rules_check(&bad->structs[0], "c.rules", s, &o, r, &err), SLT_EUSAGE);
	assert_int_equal(err.line, 3);
	assert_string_equal(err.message, "column 9: struct cgroup has no member 'rstat_cpus'");
	assert_string_equal(err.hint, "did you mean rstat_cpu?");
	slt_rules_free(bad);
	/* no-hot-write-near without classes */
	bad = rules("[struct cgroup]\nno-hot-write-near = level\n");
	slt_error_clear(&err);
	assert_int_equal(slt_rules_check(&bad->structs[0], "c.rules", s, &o, r, &err), SLT_EUSAGE);
	assert_string_equal(err.message, "column 1: no-hot-write-near needs member classes");
	/* with classes: flags and max_depth written on level's line 0, with
	 * read-mostly nr_descendants: one violation for the line, naming all */
	enum slt_class *cls = calloc(s->n_members, sizeof(*cls));
	for (size_t i = 0; i < s->n_members; i++)
		if (!strcmp(s->members[i].name, "flags"))
			cls[i] = SLT_CLASS_HOT_WRITE;
		else if (!strcmp(s->members[i].name, "max_depth"))
			cls[i] = SLT_CLASS_MIXED;
		else if (!strcmp(s->members[i].name, "nr_descendants"))
			cls[i] = SLT_CLASS_READ_MOSTLY;
	o.classes = cls;
	size_t before = r->n_violations;
	slt_error_clear(&err);
	assert_int_equal(slt_rules_check(&bad->structs[0], "c.rules", s, &o, r, &err), 0);
	assert_int_equal(r->n_violations, before + 1);
	assert_string_equal(r->violations[before].member, "flags");
	assert_string_equal(r->violations[before].message,
			    "cacheline 0 of level (offset 8, 4 bytes) holds written flags (hot-write, offset 0, 8 bytes), "
			    "max_depth (mixed, offset 12, 4 bytes); read-mostly on it: nr_descendants (offset 16, 4 bytes)");
	free(cls);
	slt_rules_free(bad);
	slt_rules_free(ru);
	slt_gate_result_free(r);
	slt_layout_free(l);
}

/* separate with groups that overlap once class: groups are resolved: a
 * rules error naming the member, never a member sharing a line with
 * itself (the parser refuses a group named twice). */
static void test_separate_overlap(void **state)
{
	(void)state;
	struct slt_layout *l = load("cgroup");
	const struct slt_struct *s = &l->structs[0];
	enum slt_class *cls = calloc(s->n_members, sizeof(*cls));
	for (size_t i = 0; i < s->n_members; i++)
		if (!strcmp(s->members[i].name, "rstat_cpu") || !strcmp(s->members[i].name, "level"))
			cls[i] = SLT_CLASS_READ_MOSTLY;
	struct slt_check_opts o = { .cacheline_size = 64, .classes = cls };
	struct slt_gate_result *r;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_gate_result_new(&r, &err), 0);
	struct slt_rules *ru = rules("[struct cgroup]\ngroup rm = rstat_cpu flags\n"
				     "separate = rm class:read-mostly\n");
	assert_int_equal(slt_rules_check(&ru->structs[0], "c.rules", s, &o, r, &err), SLT_EUSAGE);
	assert_int_equal(err.line, 3);
	assert_string_equal(err.message, "column 15: groups 'rm' and 'class:read-mostly' overlap: "
			    "1 member is in both: rstat_cpu");
	assert_int_equal(r->n_violations, 0);
	slt_rules_free(ru);
	/* disjoint: checked, no error */
	ru = rules("[struct cgroup]\ngroup w = flags\nseparate = w class:read-mostly\n");
	slt_error_clear(&err);
	assert_int_equal(slt_rules_check(&ru->structs[0], "c.rules", s, &o, r, &err), 0);
	assert_int_equal(r->n_violations, 1);
	assert_string_equal(r->violations[0].message, "groups w and class:read-mostly share "
			    "cacheline 0: w: flags (offset 0, 8 bytes); class:read-mostly: level (offset 8, 4 bytes)");
	slt_rules_free(ru);
	/* offset 8 and cacheline-start: parsed (8-byte lines would allow it),
	 * refused for 64-byte lines, naming both lines */
	ru = rules("[struct cgroup]\noffset level = 8\n\ncacheline-start = level\n");
	slt_error_clear(&err);
	assert_int_equal(slt_rules_check(&ru->structs[0], "c.rules", s, &o, r, &err), SLT_EUSAGE);
	assert_int_equal(err.line, 4);
	assert_string_equal(err.message, "column 1: cacheline-start contradicts line 2: 'level' at "
			    "offset 8 can start no 64-byte cacheline");
	o.cacheline_size = 8;
	slt_error_clear(&err);
	assert_int_equal(slt_rules_check(&ru->structs[0], "c.rules", s, &o, r, &err), 0);
	slt_rules_free(ru);
	free(cls);
	slt_gate_result_free(r);
	slt_layout_free(l);
}

/* SARIF locations (source root, cwd, relative kernel DWARF paths,
 * file:// with percent-encoding), partialFingerprints (FNV-1a of rule,
 * struct and member, then the occurrence) and notes left out unless asked. */
static json_t *sarif_of(const struct slt_gate_result *r, const struct slt_gate_write_opts *wo)
{
	struct slt_error err;
	slt_error_clear(&err);
	FILE *f = tmpfile();
	assert_int_equal(slt_gate_write_sarif(f, r, wo, &err), 0);
	char *text = slurp(f);
	fclose(f);
	json_error_t je;
	json_t *d = json_loads(text, 0, &je);
	free(text);
	assert_non_null(d);
	return d;
}

static const char *res_str(json_t *d, size_t i, const char *what)
{
	json_t *res = json_array_get(json_object_get(json_array_get(json_object_get(d, "runs"), 0),
						     "results"), i);
	if (!strcmp(what, "fingerprint"))
		return json_string_value(json_object_get(json_object_get(res, "partialFingerprints"),
							 "structlintViolation/v1"));
	json_t *al = json_object_get(json_object_get(json_array_get(json_object_get(res, "locations"), 0),
						     "physicalLocation"), "artifactLocation");
	return json_string_value(json_object_get(al, what));
}

static void test_sarif_locations(void **state)
{
	(void)state;
	struct slt_gate_result *r;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_gate_result_new(&r, &err), 0);
	static const char *const files[] = {
		"/src/proj/lib/conn.h",                                   /* under cwd */
		"/usr/include/my dir/x%.h",                               /* elsewhere */
		"debian/build/build_amd64/include/linux/tcp.h",           /* kernel DWARF */
		"./lib/a.c",
		"/src/proj/lib/conn.h",                                   /* again */
		"/src/proj/lib/conn.h",                                   /* a note */
	};
	for (size_t i = 0; i < 6; i++) {
		struct slt_violation v = { .rule = "separate", .severity = i == 5 ? SLT_SEV_NOTE :
					   SLT_SEV_ERROR, .struct_name = "conn", .member = "ops",
					   .message = "m", .decl_file = files[i], .decl_line = 3,
					   .offset = SLT_NO_OFFSET };
		assert_int_equal(slt_gate_add(r, &v), 0);
	}
	struct slt_gate_write_opts wo = { .input = "k.o", .cwd = "/src/proj" };
	json_t *d = sarif_of(r, &wo);
	json_t *run = json_array_get(json_object_get(d, "runs"), 0);
	assert_int_equal(json_array_size(json_object_get(run, "results")), 5);   /* no note */
	assert_string_equal(res_str(d, 0, "uri"), "lib/conn.h");
	assert_string_equal(res_str(d, 0, "uriBaseId"), "%SRCROOT%");
	assert_string_equal(res_str(d, 1, "uri"), "file:///usr/include/my%20dir/x%25.h");
	assert_null(res_str(d, 1, "uriBaseId"));
	/* relative references resolve against %SRCROOT% too (3.4.4) */
	assert_string_equal(res_str(d, 2, "uri"), "debian/build/build_amd64/include/linux/tcp.h");
	assert_string_equal(res_str(d, 2, "uriBaseId"), "%SRCROOT%");
	assert_string_equal(res_str(d, 3, "uri"), "lib/a.c");
	assert_string_equal(res_str(d, 3, "uriBaseId"), "%SRCROOT%");
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(
		run, "originalUriBaseIds"), "%SRCROOT%"), "uri")), "file:///src/proj/");
	/* FNV-1a 64 of "separate\0conn\0ops\0"; the same triple again: ":2" */
	uint64_t h = 0xcbf29ce484222325ULL;
	static const char key[] = "separate\0conn\0ops";
	for (size_t i = 0; i < sizeof(key); i++) {
		h ^= (unsigned char)key[i];
		h *= 0x100000001b3ULL;
	}
	char want[40];
	snprintf(want, sizeof(want), "%016" PRIx64 ":1", h);
	assert_string_equal(res_str(d, 0, "fingerprint"), want);
	snprintf(want, sizeof(want), "%016" PRIx64 ":5", h);
	assert_string_equal(res_str(d, 4, "fingerprint"), want);
	json_decref(d);

	/* a relative --source-root strips the kernel's build prefix; with
	 * --notes the note is there */
	wo.source_root = "debian/build/build_amd64/";
	wo.notes = true;
	d = sarif_of(r, &wo);
	run = json_array_get(json_object_get(d, "runs"), 0);
	assert_int_equal(json_array_size(json_object_get(run, "results")), 6);
	assert_string_equal(res_str(d, 0, "uri"), "lib/conn.h");   /* %SRCROOT% is the cwd */
	assert_string_equal(res_str(d, 2, "uri"), "include/linux/tcp.h");
	assert_string_equal(res_str(d, 2, "uriBaseId"), "%SRCROOT%");
	/* the prefix is no directory here: %SRCROOT% is the cwd */
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(
		run, "originalUriBaseIds"), "%SRCROOT%"), "uri")), "file:///src/proj/");
	json_decref(d);
	/* a relative root that exists under the cwd: the joined directory */
	wo.source_root = "tmp";
	wo.cwd = "/";
	d = sarif_of(r, &wo);
	run = json_array_get(json_object_get(d, "runs"), 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(
		run, "originalUriBaseIds"), "%SRCROOT%"), "uri")), "file:///tmp/");
	json_decref(d);
	wo.cwd = "/src/proj";
	/* an absolute root; no cwd: nothing else is relative */
	wo.source_root = "/usr/include/";
	wo.cwd = NULL;
	d = sarif_of(r, &wo);
	assert_string_equal(res_str(d, 0, "uri"), "file:///src/proj/lib/conn.h");
	assert_string_equal(res_str(d, 1, "uri"), "my%20dir/x%25.h");
	assert_string_equal(res_str(d, 1, "uriBaseId"), "%SRCROOT%");
	json_decref(d);
	slt_gate_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_class),
		cmocka_unit_test(test_kernel_groups),
		cmocka_unit_test(test_rules_and_writers),
		cmocka_unit_test(test_separate_overlap),
		cmocka_unit_test(test_sarif_locations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
