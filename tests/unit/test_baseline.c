/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of src/gate/baseline*.c and suppress.c: fixtures/baseline/
 * kinds.c compiled twice by gcc -g (before, and with -DAFTER), a baseline
 * recorded from the first with fixtures/baseline/kinds.classes, written
 * as JSON, read back and compared with the second: every struct's exact
 * violations (rule, severity, member, message).  Round trip: the baseline
 * compared with its own input gives nothing, and write -> read -> write
 * gives the same bytes.  The reader on broken documents: the error code,
 * line and the field named.  Suppressions in the baseline and from a file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "join/join_int.h"
#include "structlint/baseline.h"

#define FX "fixtures/baseline/"

static char tmpdir[] = "/tmp/slt_baseline_XXXXXX";
static char before_o[300], after_o[300];

static int compile(const char *out, const char *defs)
{
	char cmd[1200];
	const char *cc = getenv("CC_GCC") ? getenv("CC_GCC") : "gcc";
	snprintf(cmd, sizeof(cmd), "%s -g -c %s -o %s " FX "kinds.c", cc, defs, out);
	return system(cmd);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(before_o, sizeof(before_o), "%s/before.o", tmpdir);
	snprintf(after_o, sizeof(after_o), "%s/after.o", tmpdir);
	return compile(before_o, "") || compile(after_o, "-DAFTER") ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(before_o);
	unlink(after_o);
	rmdir(tmpdir);
	return 0;
}

static const char *const all_names[] = {
	"s_same", "s_grow_lines", "s_grow_size", "s_hole", "s_moved_line",
	"s_moved", "s_share", "s_hot_moved", "s_hot_grow", "s_removed", "s_renamed", "s_added",
	"s_added_note", "s_type", "s_missing",
};
#define N_NAMES (sizeof(all_names) / sizeof(all_names[0]))

static void die(const char *what, const struct slt_error *err)
{
	char b[1600];
	fail_msg("%s: %s", what, slt_error_format(err, b, sizeof(b)));
}

/* The baseline of the before build, classes from kinds.classes. */
static struct slt_baseline *record(const char *obj)
{
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_layout *l = NULL;
	struct slt_classes *cl = NULL;
	struct slt_baseline *b = NULL;
	if (slt_layout_load(obj, all_names, N_NAMES, NULL, &l, &err))
		die("load", &err);
	if (slt_classes_read(FX "kinds.classes", SLT_CLASSES_AUTO, NULL, &cl, &err))
		die("classes", &err);
	if (slt_baseline_new(64, obj, FX "kinds.classes", &b, &err))
		die("new", &err);
	for (size_t i = 0; i < l->n_structs; i++) {
		const struct slt_struct *s = &l->structs[i];
		enum slt_class cls[256] = { 0 };
		assert_true(s->n_members < 256);
		for (size_t k = 0; k < s->n_members; k++) {
			char path[256];
			cls[k] = slt_classes_lookup(cl, s->name,
						    slt_member_path(s, k, path, sizeof(path)),
						    SLT_PATH_ANY);
		}
		if (slt_baseline_add_struct(b, s, cls, &err))
			die("add", &err);
	}
	slt_layout_free(l);
	slt_classes_free(cl);
	return b;
}

/* JSON text of b (malloc'ed). */
static char *to_json(const struct slt_baseline *b, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct slt_error err;
	slt_error_clear(&err);
	assert_non_null(f);
	if (slt_baseline_write_json(f, b, true, &err))
		die("write", &err);
	fclose(f);
	return buf;
}

static struct slt_baseline *from_json(const char *text, size_t len)
{
	struct slt_baseline *b = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_baseline_read_mem(text, len, "B.json", &b, &err))
		die("read", &err);
	return b;
}

/* Baseline of before.o through JSON, compared with obj. */
static struct slt_gate_result *compare_with(const char *obj,
					    const struct slt_baseline_opts *o,
					    const char *patch_from,
					    const char *patch_to)
{
	struct slt_baseline *rec = record(before_o);
	size_t len;
	char *text = to_json(rec, &len);
	slt_baseline_free(rec);
	if (patch_from) {       /* an edit of the JSON text (suppressions) */
		char *at = strstr(text, patch_from);
		assert_non_null(at);
		size_t nlen = len - strlen(patch_from) + strlen(patch_to);
		char *n = malloc(nlen + 1);
		size_t pre = (size_t)(at - text);
		memcpy(n, text, pre);
		strcpy(n + pre, patch_to);
		strcat(n, at + strlen(patch_from));
		free(text);
		text = n;
		len = nlen;
	}
	struct slt_baseline *b = from_json(text, len);
	free(text);
	struct slt_gate_result *r = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_gate_result_new(&r, &err), 0);
	if (slt_baseline_compare_file(b, obj, NULL, o, r, &err))
		die("compare", &err);
	assert_int_equal(r->n_structs_checked, N_NAMES);
	/* the reasons are copied by slt_gate_add(): b may go */
	slt_baseline_free(b);
	return r;
}

struct want {
	const char *rule;
	enum slt_severity sev;
	const char *member;      /* NULL: whole struct */
	const char *message;     /* exact */
};

/* The violations of struct name, in order, must be exactly want[]. */
static void expect(const struct slt_gate_result *r, const char *name,
		   const struct want *want, size_t n)
{
	size_t got = 0;
	for (size_t i = 0; getenv("SLT_TEST_VERBOSE") && i < r->n_violations; i++)
		if (!strcmp(r->violations[i].struct_name, name))
			print_message("%s: %s %s %s: %s\n", name, r->violations[i].rule,
				      slt_severity_name(r->violations[i].severity),
				      r->violations[i].member ? r->violations[i].member : "-",
				      r->violations[i].message);
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct slt_violation *v = &r->violations[i];
		/* the warning that a struct has no recorded classes: test_no_classes */
		if (strcmp(v->struct_name, name) || !strcmp(v->rule, "baseline-no-classes"))
			continue;
		if (got == n)
			fail_msg("%s: extra violation %s %s: %s", name, v->rule,
				 v->member ? v->member : "-", v->message);
		const struct want *w = &want[got++];
		assert_string_equal(v->rule, w->rule);
		if (v->severity != w->sev)
			fail_msg("%s %s: severity %s, want %s", name, v->rule,
				 slt_severity_name(v->severity), slt_severity_name(w->sev));
		if (w->member)
			assert_string_equal(v->member, w->member);
		else
			assert_null(v->member);
		assert_string_equal(v->message, w->message);
		assert_string_equal(v->source, "B.json");
		assert_true(v->decl_line > 0);
	}
	if (got != n)
		fail_msg("%s: %zu violations, want %zu", name, got, n);
}

#define EXPECT(r, name, ...) do { \
	static const struct want w_[] = { __VA_ARGS__ }; \
	expect(r, name, w_, sizeof(w_) / sizeof(w_[0])); \
} while (0)

static void test_every_kind(void **state)
{
	(void)state;
	struct slt_gate_result *r = compare_with(after_o, NULL, NULL, NULL);
	expect(r, "s_same", NULL, 0);
	EXPECT(r, "s_grow_lines",
	       { "baseline-lines-grew", SLT_SEV_ERROR, NULL,
		 "s_grow_lines grew from 1 to 2 cachelines (64 to 72 bytes, 64-byte lines)" },
	       { "baseline-member-added", SLT_SEV_NOTE, "b",
		 "new unclassified member b (long int, offset 64, 8 bytes, cacheline 1)" });
	EXPECT(r, "s_grow_size",
	       { "baseline-size-grew", SLT_SEV_WARNING, NULL,
		 "s_grow_size grew from 16 to 24 bytes (+8), cachelines still 1" },
	       { "baseline-hole-new", SLT_SEV_WARNING, "b",
		 "new 4-byte hole at offset 12 (cacheline 0) after b" },
	       { "baseline-member-added", SLT_SEV_NOTE, "c",
		 "new unclassified member c (long int, offset 16, 8 bytes, cacheline 0)" });
	EXPECT(r, "s_hole",
	       { "baseline-size-grew", SLT_SEV_WARNING, NULL,
		 "s_hole grew from 16 to 24 bytes (+8), cachelines still 1" },
	       { "baseline-hole-new", SLT_SEV_WARNING, "a",
		 "new 4-byte hole at offset 4 (cacheline 0) after a" },
	       { "baseline-member-moved", SLT_SEV_NOTE, "b",
		 "b moved from offset 4 to 16, still on cacheline 0" });
	EXPECT(r, "s_moved_line",
	       { "baseline-member-moved-line", SLT_SEV_WARNING, "rm",
		 "read-mostly rm moved from offset 0 (cacheline 0) to offset 120 (cacheline 1); "
		 "no new sharing with it" },
	       { "baseline-member-moved-line", SLT_SEV_NOTE, "c",
		 "cold c moved from offset 8 (cacheline 0) to offset 112 (cacheline 1)" },
	       { "baseline-member-moved", SLT_SEV_NOTE, "pad",
		 "pad moved from offset 16 to 0, still on cachelines 0-1" });
	EXPECT(r, "s_moved",
	       { "baseline-member-moved", SLT_SEV_NOTE, "a",
		 "a moved from offset 0 to 4, still on cacheline 0" },
	       { "baseline-member-moved", SLT_SEV_NOTE, "b",
		 "b moved from offset 4 to 0, still on cacheline 0" });
	EXPECT(r, "s_share",
	       { "baseline-member-moved-line", SLT_SEV_NOTE, "pad",
		 "unclassified pad moved from offset 8 (cacheline 0) to offset 16 (cachelines 0-1)" },
	       { "baseline-member-moved-line", SLT_SEV_WARNING, "hw",
		 "hot-write hw moved from offset 64 (cacheline 1) to offset 8 (cacheline 0); it takes "
		 "part in a new sharing (baseline-hot-shares-read-mostly)" },
	       { "baseline-hot-shares-read-mostly", SLT_SEV_ERROR, "hw",
		 "cacheline 0 now holds written hw (hot-write, offset 8, 8 bytes) and read-mostly rm "
		 "(offset 0, 8 bytes); not shared in the baseline: hw was on cacheline 1, rm was on "
		 "cacheline 0" });
	/* a member that moved is a warning: the harm is the new sharing or
	 * the growth, errors of their own */
	EXPECT(r, "s_hot_moved",
	       { "baseline-member-moved-line", SLT_SEV_WARNING, "hw",
		 "hot-write hw moved from offset 0 (cacheline 0) to offset 120 (cacheline 1); no new "
		 "sharing with it" },
	       { "baseline-member-moved", SLT_SEV_NOTE, "a",
		 "a moved from offset 8 to 0, still on cacheline 0" },
	       { "baseline-member-moved", SLT_SEV_NOTE, "pad",
		 "pad moved from offset 16 to 8, still on cachelines 0-1" });
	/* ... also when the struct grew (that is the error) */
	EXPECT(r, "s_hot_grow",
	       { "baseline-lines-grew", SLT_SEV_ERROR, NULL,
		 "s_hot_grow grew from 1 to 2 cachelines (64 to 72 bytes, 64-byte lines)" },
	       { "baseline-member-type-changed", SLT_SEV_NOTE, "pad",
		 "pad changed type from char[56] (56 bytes) to char[64] (64 bytes)" },
	       { "baseline-member-moved-line", SLT_SEV_WARNING, "hw",
		 "hot-write hw moved from offset 56 (cacheline 0) to offset 64 (cacheline 1); no new "
		 "sharing with it" });
	EXPECT(r, "s_removed",
	       { "baseline-member-removed", SLT_SEV_NOTE, "gone",
		 "unclassified gone (long int, offset 8, 8 bytes, cacheline 0) is gone" },
	       { "baseline-member-removed", SLT_SEV_WARNING, "rmg",
		 "read-mostly rmg (long int, offset 16, 8 bytes, cacheline 0) is gone" });
	EXPECT(r, "s_renamed",
	       { "baseline-member-renamed", SLT_SEV_NOTE, "new_name",
		 "old_name was renamed new_name (same offset 8, 8 bytes, type long int)" });
	EXPECT(r, "s_added",
	       { "baseline-size-grew", SLT_SEV_WARNING, NULL,
		 "s_added grew from 16 to 24 bytes (+8), cachelines still 1" },
	       { "baseline-member-moved", SLT_SEV_NOTE, "x",
		 "x moved from offset 8 to 16, still on cacheline 0" },
	       { "baseline-member-added", SLT_SEV_ERROR, "newm",
		 "new member newm (long int, offset 8, 8 bytes) of unknown class is on "
		 "cacheline 0 with read-mostly rm (offset 0): give it a class or move it" });
	EXPECT(r, "s_added_note",
	       { "baseline-size-grew", SLT_SEV_WARNING, NULL,
		 "s_added_note grew from 8 to 16 bytes (+8), cachelines still 1" },
	       { "baseline-member-added", SLT_SEV_NOTE, "b",
		 "new unclassified member b (long int, offset 8, 8 bytes, cacheline 0)" });
	EXPECT(r, "s_type",
	       { "baseline-member-type-changed", SLT_SEV_NOTE, "p",
		 "p changed type from int * (8 bytes) to long int (8 bytes); "
		 "its recorded class still applies: check it" });
	EXPECT(r, "s_missing",
	       { "baseline-struct-missing", SLT_SEV_ERROR, NULL,
		 "struct s_missing (8 bytes in the baseline) is not in the input" });
	/* errors: lines-grew, hot-shares, lines-grew of s_hot_grow, added
	 * newm, struct-missing (a member that moved is never one) */
	assert_int_equal(slt_gate_failures(r), 5);
	slt_gate_result_free(r);
}

/* A class given for the current layout (check --classes) wins: newm
 * classed cold is a note; classed hot-write it is a new sharing. */
static void test_given_classes(void **state)
{
	(void)state;
	static const char text[] = "s_added.newm hot-write\n";
	struct slt_classes *cl = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_classes_read_mem(text, strlen(text), "c", SLT_CLASSES_AUTO,
					      NULL, &cl, &err), 0);
	struct slt_baseline_opts o = { .classes = cl };
	struct slt_gate_result *r = compare_with(after_o, &o, NULL, NULL);
	EXPECT(r, "s_added",
	       { "baseline-size-grew", SLT_SEV_WARNING, NULL,
		 "s_added grew from 16 to 24 bytes (+8), cachelines still 1" },
	       { "baseline-member-moved", SLT_SEV_NOTE, "x",
		 "x moved from offset 8 to 16, still on cacheline 0" },
	       { "baseline-member-added", SLT_SEV_NOTE, "newm",
		 "new hot-write member newm (long int, offset 8, 8 bytes, cacheline 0)" },
	       { "baseline-hot-shares-read-mostly", SLT_SEV_ERROR, "newm",
		 "cacheline 0 now holds written newm (hot-write, offset 8, 8 bytes) and read-mostly "
		 "rm (offset 0, 8 bytes); not shared in the baseline: newm is not in the baseline, rm was "
		 "on cacheline 0" });
	slt_gate_result_free(r);
	slt_classes_free(cl);
}

/* Round trip: recorded, written, read, compared with its own input:
 * nothing; and write(read(write(b))) == write(b). */
static void test_round_trip(void **state)
{
	(void)state;
	struct slt_gate_result *r = compare_with(before_o, NULL, NULL, NULL);
	for (size_t i = 0; i < r->n_violations; i++)
		if (strcmp(r->violations[i].rule, "baseline-no-classes"))
			fail_msg("unexpected %s %s: %s", r->violations[i].rule,
			 r->violations[i].struct_name, r->violations[i].message);
	assert_true(r->n_checks > N_NAMES);
	slt_gate_result_free(r);

	struct slt_baseline *b = record(before_o);
	size_t l1, l2;
	char *t1 = to_json(b, &l1);
	struct slt_baseline *b2 = from_json(t1, l1);
	char *t2 = to_json(b2, &l2);
	assert_int_equal(l1, l2);
	assert_memory_equal(t1, t2, l1);
	assert_int_equal(b2->n_structs, N_NAMES);
	assert_string_equal(b2->structs[4].name, "s_moved_line");
	assert_int_equal(b2->structs[4].members[0].cls, SLT_CLASS_READ_MOSTLY);
	assert_int_equal(b2->structs[4].members[3].offset, 128);
	/* recording twice gives the same bytes */
	struct slt_baseline *b3 = record(before_o);
	char *t3 = to_json(b3, &l2);
	assert_int_equal(l1, l2);
	assert_memory_equal(t1, t3, l1);
	free(t1);
	free(t2);
	free(t3);
	slt_baseline_free(b);
	slt_baseline_free(b2);
	slt_baseline_free(b3);
}

/* Suppressions in the baseline: still listed, marked, not failing. */
static void test_suppressions(void **state)
{
	(void)state;
	struct slt_gate_result *r = compare_with(after_o, NULL,
		"\"suppressions\": []",
		"\"suppressions\": [{\"rule\": \"baseline-*\", \"struct\": \"s_sha?e\","
		" \"member\": \"h*\", \"reason\": \"hw is read by the same CPU\"}]");
	size_t n = 0;
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct slt_violation *v = &r->violations[i];
		bool want = !strcmp(v->struct_name, "s_share") && v->member &&
			    !strcmp(v->member, "hw");
		assert_int_equal(v->suppressed, want);
		if (want) {
			assert_string_equal(v->suppress_reason, "hw is read by the same CPU");
			n++;
		}
	}
	assert_int_equal(n, 2);
	assert_int_equal(slt_gate_failures(r), 4);
	slt_gate_result_free(r);

	/* the same from a suppressions file, whole-struct form */
	static const char sup[] =
		"{\"schema\": \"structlint.suppressions/v1\", \"suppressions\": ["
		"{\"rule\": \"baseline-struct-missing\", \"struct\": \"s_missing\","
		" \"reason\": \"removed on purpose\"}]}";
	struct slt_suppressions *s = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_suppressions_read_mem(sup, strlen(sup), "S.json", &s, &err), 0);
	assert_int_equal(s->n, 1);
	assert_null(s->entries[0].member);
	struct slt_baseline_opts o = { .suppress = s };
	r = compare_with(after_o, &o, NULL, NULL);
	slt_suppressions_free(s);      /* the result keeps its own copies */
	assert_int_equal(slt_gate_failures(r), 4);
	for (size_t i = 0; i < r->n_violations; i++)
		if (!strcmp(r->violations[i].rule, "baseline-struct-missing"))
			assert_string_equal(r->violations[i].suppress_reason, "removed on purpose");
	slt_gate_result_free(r);
}

/* The reader on broken documents. */
static void expect_bad(const char *text, int code, unsigned line,
		       const char *frag)
{
	struct slt_baseline *b = (struct slt_baseline *)1;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_baseline_read_mem(text, strlen(text), "B.json", &b, &err);
	if (rc != code)
		fail_msg("%s: rc %d, want %d (%s)", text, rc, code, err.message);
	assert_null(b);
	assert_string_equal(err.file, "B.json");
	if (line)
		assert_int_equal(err.line, line);
	/* a position, except for an empty file (no "column 0", no "0x0") */
	assert_true(line ? err.offset >= 0 : err.offset == -1 && err.line == 0);
	if (!strstr(err.message, frag))
		fail_msg("message \"%s\" lacks \"%s\"", err.message, frag);
	assert_true(err.hint[0] != '\0');
}

#define HEAD "{\"schema\": \"structlint.baseline/v1\", \"cacheline_size\": 64,\n"
#define MEMBER(extra) "{\"path\": \"a\", \"type\": \"int\", \"offset\": 0, \"size\": 4, " \
		      "\"flags\": []" extra "}"

static void test_read_errors(void **state)
{
	(void)state;
	expect_bad("", SLT_ECORRUPT, 0, "the file is empty: want a baseline");
	expect_bad(" \n", SLT_ECORRUPT, 0, "the file is empty: want a baseline");
	expect_bad("{\"schema\": ", SLT_ECORRUPT, 1, "not valid JSON");
	expect_bad("[]", SLT_ECORRUPT, 1, "must be an object");
	expect_bad("{\"schema\": \"structlint.baseline/v2\"}", SLT_EUNSUPPORTED, 1,
		   "structlint.baseline/v2");
	expect_bad("{\"schema\": \"structlint.profile/v1\"}", SLT_ECORRUPT, 1, "not a baseline");
	expect_bad("{\"schema\": 1}", SLT_ECORRUPT, 1, "schema must be a string");
	expect_bad(HEAD "\"structs\": 3}", SLT_ECORRUPT, 2, "structs must be an array");
	expect_bad("{\"schema\": \"structlint.baseline/v1\", \"cacheline_size\": 48, \"structs\": []}",
		   SLT_ECORRUPT, 1, "cacheline_size 48");
	expect_bad(HEAD "\"structs\": [{\"size\": 8}]}", SLT_ECORRUPT, 2,
		   "structs[0].name is missing");
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"kind\": \"enum\", \"size\": 8}]}",
		   SLT_ECORRUPT, 2, "structs[0].kind: \"enum\"");
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"size\": 8}]}", SLT_ECORRUPT, 2,
		   "structs[0].members is missing");
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"size\": 8, \"members\": [\n"
		   MEMBER(", \"class\": \"hot\"") "]}]}", SLT_ECORRUPT, 3,
		   "structs[0].members[0].class: unknown class \"hot\"");
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"size\": 2, \"members\": [\n"
		   MEMBER("") "]}]}", SLT_ECORRUPT, 3, "structs[0].members[0].size = 4 is over 2");
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"size\": 8, \"members\": [\n"
		   "{\"path\": \"a\", \"type\": \"int\", \"offset\": -4, \"size\": 4, \"flags\": []}]}]}",
		   SLT_ECORRUPT, 3, "offset is negative");
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"size\": 8, \"members\": [\n"
		   MEMBER("") ",\n" "{\"path\": \"b\", \"type\": \"int\", \"offset\": 4, \"size\": 4,"
		   " \"flags\": [\"wide\"]}]}]}", SLT_ECORRUPT, 4, "members[1].flags[0]: unknown flag");
	/* alignments are powers of two (0: natural) */
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"size\": 8, \"members\": [\n"
		   MEMBER(", \"alignment\": 12") "]}]}", SLT_ECORRUPT, 3,
		   "structs[0].members[0].alignment = 12 is not a power of two");
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"size\": 8, \"members\": [\n"
		   MEMBER(", \"natural_alignment\": 3") "]}]}", SLT_ECORRUPT, 3,
		   "structs[0].members[0].natural_alignment = 3 is not a power of two");
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"size\": 8,\n\"alignment\": 6, "
		   "\"members\": []}]}", SLT_ECORRUPT, 3, "structs[0].alignment = 6 is not a power of two");
	expect_bad(HEAD "\"structs\": [], \"suppressions\": [{\"rule\": \"x\", \"struct\": \"s\"}]}",
		   SLT_ECORRUPT, 2, "suppressions[0].reason is missing");
	expect_bad(HEAD "\"structs\": [], \"structs\": []}", SLT_ECORRUPT, 2, "not valid JSON");
	/* the same definition twice (a different one of the same name is kept) */
	expect_bad(HEAD "\"structs\": [{\"name\": \"s\", \"size\": 8, \"members\": [" MEMBER("")
		   "]},\n{\"name\": \"t\", \"size\": 8, \"members\": []},\n"
		   "{\"name\": \"s\", \"size\": 8, \"members\": [" MEMBER("") "]}]}", SLT_ECORRUPT, 4,
		   "structs[2] repeats structs[0]: struct s, 8 bytes, is recorded twice");
	{
		static const char two[] = HEAD "\"structs\": [{\"name\": \"s\", \"size\": 8, "
			"\"members\": [" MEMBER("") "]},\n{\"name\": \"s\", \"size\": 4, \"members\": ["
			MEMBER("") "]}]}";
		struct slt_baseline *b2 = NULL;
		struct slt_error e2;
		slt_error_clear(&e2);
		assert_int_equal(slt_baseline_read_mem(two, strlen(two), "B.json", &b2, &e2), 0);
		assert_int_equal(b2->n_structs, 2);
		slt_baseline_free(b2);
	}

	/* the smallest valid document */
	struct slt_baseline *b = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	static const char ok[] = HEAD "\"structs\": [{\"name\": \"s\", \"size\": 4, \"members\": ["
		MEMBER("") "]}]}";
	assert_int_equal(slt_baseline_read_mem(ok, strlen(ok), "B.json", &b, &err), 0);
	assert_int_equal(b->structs[0].members[0].cls, SLT_CLASS_NONE);
	assert_int_equal(b->structs[0].cachelines, 1);
	slt_baseline_free(b);
	/* a missing file */
	assert_int_equal(slt_baseline_read("/nonexistent/B.json", &b, &err), SLT_EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_given_classes),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_suppressions),
		cmocka_unit_test(test_read_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
