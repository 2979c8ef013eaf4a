/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of src/advice/diff.c (slt_advice_diff): a header written at
 * test time (comments, a multi-line member, a nested anonymous union,
 * bitfields, a #define in the body) is compiled by gcc -g, its layout
 * loaded, a proposal made by hand (units reordered, CACHELINE_PADDING
 * inserted), the diff applied with `patch -p1` (no fuzz, no offset) and
 * `git apply` in temporary copies, the patched header compiled with
 * tests/cli/kcompat.h and read back: every member's offset and bits must
 * be the proposal's.  The same on a real system header
 * (/usr/include/linux/tcp.h, struct tcp_info).  Refusals: #ifdef inside,
 * renamed, extra and missing members, a moved definition, members declared
 * together that the proposal separates, no source file, no decl_file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/arena.h"
#include "structlint/advice.h"
#include "structlint/layout.h"

#define PAD_TYPE "struct cacheline_padding"  /* SLT_ADV_PAD_TYPE */

static char tmpdir[256];

static const char header_a[] =
	"/* SPDX-License-Identifier: MIT */\n"
	"#ifndef DIFF_A_H\n"
	"#define DIFF_A_H\n"
	"\n"
	"struct other { int x; };\n"
	"\n"
	"/*\n"
	" * struct diff_a: members with comments, a multi-line member,\n"
	" * a nested anonymous union and bitfields.\n"
	" */\n"
	"struct diff_a {\n"                                /* line 11 */
	"\t/* the first member */\n"
	"\tlong first;\n"
	"\tunsigned int f1:3,\t/* three bits */\n"
	"\t\t     f2:7;\n"
	"\tunsigned char f3:2;\n"
	"\n"
	"\tunion {\t\t\t/* nested anonymous union */\n"
	"\t\tint u_i;\n"
	"\t\tlong u_l;\n"
	"\t};\n"
	"\tvoid (*callback)(int a,\n"
	"\t\t\t char *b,\n"
	"\t\t\t long c);\t/* a multi-line\n"
	"\t\t\t\t\t * member */\n"
	"\tchar c; /* trailing */\n"
	"\tstruct other o;\n"
	"\tconst char *name;\n"
	"\t/*\n"
	"\t * a block comment before arr\n"
	"\t */\n"
	"\tlong arr[3][2];\n"
	"#define DIFF_A_FLAG 1\t/* a define stays with the next member */\n"
	"\tshort s;\n"                                    /* line 34 */
	"\tint x, y;\n"
	"\tunsigned :0;\n"
	"\tchar tail;\n"
	"\n"
	"\t/* tail comment */\n"
	"};\n"
	"\n"
	"struct after_a { int z; };\n"
	"#endif\n";

static int run(const char *cmd)
{
	return system(cmd);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static const char *src_root(void)
{
	return getenv("MESON_SOURCE_ROOT") ? getenv("MESON_SOURCE_ROOT") : ".";
}

/* Compile `#include <hdr>` + an instance of struct name with gcc -g and
 * load its layout.  pre: text before the include (kcompat.h). */
static struct slt_layout *compile_load(const char *dir, const char *incdir,
				       const char *pre, const char *hdr,
				       const char *name)
{
	char c[600], o[600], cmd[3000];
	const char *cc = getenv("CC_GCC") ? getenv("CC_GCC") : "gcc";
	const char *names[] = { name };
	struct slt_layout *l = NULL;
	struct slt_error err;
	FILE *f;

	snprintf(c, sizeof(c), "%s/use_%s.c", dir, name);
	snprintf(o, sizeof(o), "%s/use_%s.o", dir, name);
	f = fopen(c, "w");
	assert_non_null(f);
	fprintf(f, "%s#include <%s>\nstruct %s %s_inst;\n", pre, hdr, name, name);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s -std=gnu17 -g -c -Wall -Werror -I%s/tests/cli "
		 "-I%s -o %s %s", cc, src_root(), incdir, o, c);
	if (run(cmd) != 0)
		fail_msg("compile failed: %s", cmd);
	if (slt_layout_load(o, names, 1, NULL, &l, &err))
		fail_msg("load %s: %s", o, err.message);
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
 * A proposal by hand (as tests/unit/test_advice_emit.c makes them): the
 * top-level units of orig (members whose bytes overlap move together) in
 * the order ord[0..n_ord) of unit indices (NULL: reversed), a
 * CACHELINE_PADDING member `_pad1_` before position pad_before of the new
 * order (SIZE_MAX: none); offsets by C rules.  Returns the number of units.
 */
static size_t make_proposal(struct slt_arena *a, const struct slt_struct *orig,
			    const size_t *ord, size_t pad_before,
			    struct slt_proposal *p)
{
	size_t tops[128], n = 0, units[128][8], ulen[128], nu = 0, k = 0;
	struct slt_struct *s = &p->layout;
	uint64_t end = 0, align = orig->alignment;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < orig->n_members; i++)
		if (orig->members[i].parent == -1)
			tops[n++] = i;
	assert_true(n < 128);
	for (size_t i = 0; i < n; i++) {
		const struct slt_member *m = &orig->members[tops[i]];
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
		size_t u = ord ? ord[r] : nu - 1 - r;
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
			pm->type = PAD_TYPE;
			pm->decl_head = PAD_TYPE " ";
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
		off = (end + al - 1) / al * al;
		for (size_t j = 0; j < ulen[u]; j++) {
			size_t oi = units[u][j];
			const struct slt_member *om = &orig->members[oi];
			int64_t delta = (int64_t)off - (int64_t)first->offset;
			size_t pidx = k;

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
	return nu;
}

/* The patched struct read back has the proposal's members at its offsets. */
static void check_back(const struct slt_struct *b, const struct slt_struct *p,
		       const char *diff)
{
	assert_int_equal(b->size, p->size);
	assert_int_equal(b->n_members, p->n_members);
	for (size_t i = 0; i < b->n_members; i++) {
		const struct slt_member *x = &b->members[i], *y = &p->members[i];
		if (strcmp(x->name, y->name) || x->offset != y->offset ||
		    x->bit_offset != y->bit_offset || x->bit_size != y->bit_size)
			fail_msg("member %zu: compiled %s@%llu:%u, proposed %s@%llu:%u\n%s",
				 i, x->name, (unsigned long long)x->offset,
				 x->bit_offset, y->name,
				 (unsigned long long)y->offset, y->bit_offset, diff);
	}
}

/* Copy tree from (a directory) to to, apply diff there with patch -p1
 * (no fuzz; "offset" in its output fails) and check git apply too; the
 * diff must be byte for byte GNU diff -u's of the file rel before and
 * after. */
static void apply(const char *from, const char *to, const char *rel,
		  const char *diff)
{
	char dpath[600], cmd[3000], out[700];
	char *log;

	snprintf(dpath, sizeof(dpath), "%s.diff", to);
	write_file(dpath, diff);
	snprintf(out, sizeof(out), "%s.log", to);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s.git' && cp -r '%s' '%s' && "
		 "cp -r '%s' '%s.git' && cd '%s' && patch -p1 --fuzz=0 < '%s' > '%s' 2>&1",
		 to, to, from, to, from, to, to, dpath, out);
	if (run(cmd) != 0)
		fail_msg("patch failed: %s\n%s\n%s", cmd, read_text(out), diff);
	log = read_text(out);
	if (strstr(log, "offset") || strstr(log, "fuzz"))
		fail_msg("patch applied loosely: %s\n%s", log, diff);
	free(log);
	snprintf(cmd, sizeof(cmd), "command -v git >/dev/null || exit 0; cd '%s.git' && "
		 "git apply -p1 --check '%s' && git apply -p1 '%s'", to, dpath, dpath);
	if (run(cmd) != 0)
		fail_msg("git apply failed: %s\n%s", cmd, diff);
	snprintf(cmd, sizeof(cmd), "command -v diff >/dev/null || exit 0; "
		 "diff -u --label 'a/%s' --label 'b/%s' '%s/%s' '%s/%s' > '%s.gnu'; "
		 "[ $? = 1 ] && cmp -s '%s.gnu' '%s'", rel, rel, from, rel, to, rel,
		 to, to, dpath);
	if (run(cmd) != 0)
		fail_msg("not diff -u's output: %s\n%s", cmd, diff);
}

static void setup_a(char *root, size_t n, const char *name, const char *text)
{
	char p[600];

	snprintf(root, n, "%s/%s", tmpdir, name);
	snprintf(p, sizeof(p), "mkdir -p '%s/include'", root);
	assert_int_equal(run(p), 0);
	snprintf(p, sizeof(p), "%s/include/diff_a.h", root);
	write_file(p, text);
}

static void test_diff_apply(void **state)
{
	/* units: 0 first, 1 f1/f2/f3, 2 union, 3 callback, 4 c, 5 o, 6 name,
	 * 7 arr, 8 s, 9 x, 10 y, 11 tail */
	static const size_t ord1[] = { 11, 4, 1, 0, 2, 7, 3, 9, 10, 8, 5, 6 };
	static const size_t ord2[] = { 11, 9, 10, 8, 7, 6, 5, 4, 3, 2, 1, 0 };
	static const size_t *ords[] = { ord1, ord2 };
	char root[600], inc[800], to[700];
	struct slt_arena *a = slt_arena_new();
	struct slt_layout *orig;
	const struct slt_struct *o;

	(void)state;
	setup_a(root, sizeof(root), "a", header_a);
	snprintf(inc, sizeof(inc), "%s/include", root);
	orig = compile_load(tmpdir, inc, "", "diff_a.h", "diff_a");
	o = &orig->structs[0];
	assert_int_equal(o->decl_line, 11);
	for (size_t v = 0; v < 2; v++) {
		for (size_t pad = 0; pad < 12; pad += 5) {
			struct slt_proposal p;
			struct slt_error err;
			struct slt_layout *back;
			char *diff = NULL, sub[64];

			assert_int_equal(make_proposal(a, o, ords[v], pad, &p), 12);
			if (slt_advice_diff(&p, o, root, &diff, &err))
				fail_msg("diff: %s:%u: %s (%s)", err.file, err.line,
					 err.message, err.hint);
			assert_non_null(diff);
			assert_memory_equal(diff, "--- a/include/diff_a.h\n"
					    "+++ b/include/diff_a.h\n@@ -", 50);
			assert_non_null(strstr(diff, "\n+\tCACHELINE_PADDING(_pad1_);\n"));
			/* the multi-line member moves whole, with its comment */
			assert_non_null(strstr(diff, "\n+\tvoid (*callback)(int a,\n"
					       "+\t\t\t char *b,\n"));
			snprintf(sub, sizeof(sub), "p%zu_%zu", v, pad);
			snprintf(to, sizeof(to), "%s/%s", tmpdir, sub);
			apply(root, to, "include/diff_a.h", diff);
			snprintf(inc, sizeof(inc), "%s/include", to);
			back = compile_load(to, inc, "#include \"kcompat.h\"\n",
					    "diff_a.h", "diff_a");
			check_back(&back->structs[0], &p.layout, diff);
			slt_layout_free(back);
			free(diff);
		}
	}
	slt_layout_free(orig);
	slt_arena_free(a);
}

/* Kernel DWARF paths: leading components are stripped until the file is
 * under the root; the identity proposal gives an empty diff. */
static void test_diff_paths(void **state)
{
	static const char *const paths[] = {
		"debian/build/build_amd64_none_cloud-amd64/include/diff_a.h",
		"./include/diff_a.h", "/usr/src/linux/include/diff_a.h",
		"../../include/diff_a.h",
	};
	char root[600], inc[700];
	struct slt_arena *a = slt_arena_new();
	struct slt_layout *orig;
	struct slt_struct o;
	struct slt_proposal p;
	struct slt_error err;
	char *ref = NULL, *diff = NULL;

	(void)state;
	setup_a(root, sizeof(root), "paths", header_a);
	snprintf(inc, sizeof(inc), "%s/include", root);
	orig = compile_load(root, inc, "", "diff_a.h", "diff_a");
	o = orig->structs[0];
	{
		static const size_t ord[] = { 1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
		make_proposal(a, &o, ord, SIZE_MAX, &p);
	}
	assert_int_equal(slt_advice_diff(&p, &o, root, &ref, &err), 0);
	assert_non_null(strstr(ref, "--- a/include/diff_a.h\n"));
	for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++) {
		o.decl_file = paths[i];
		if (slt_advice_diff(&p, &o, root, &diff, &err))
			fail_msg("%s: %s", paths[i], err.message);
		assert_string_equal(diff, ref);
		free(diff);
	}
	/* identity: nothing to change */
	o = orig->structs[0];
	p.layout = o;
	assert_int_equal(slt_advice_diff(&p, &o, root, &diff, &err), 0);
	assert_string_equal(diff, "");
	free(diff);
	free(ref);
	slt_layout_free(orig);
	slt_arena_free(a);
}

/* Replace the first occurrence of from in text by to (one of two static
 * buffers, so edit(edit(...)) works). */
static const char *edit(const char *text, const char *from, const char *to)
{
	static char bufs[2][8192];
	static int k;
	char *buf = bufs[k ^= 1];
	const char *q = strstr(text, from);

	assert_non_null(q);
	snprintf(buf, sizeof(bufs[0]), "%.*s%s%s", (int)(q - text), text, to,
		 q + strlen(from));
	return buf;
}

static void refused(const struct slt_proposal *p, const struct slt_struct *o,
		    const char *root, int code, unsigned line, const char *what)
{
	struct slt_error err;
	char *diff = (char *)"x";
	int rc = slt_advice_diff(p, o, root, &diff, &err);

	if (rc != code || !strstr(err.message, what) || (line && err.line != line))
		fail_msg("want %d at line %u with \"%s\", got %d: %s:%u: %s", code,
			 line, what, rc, err.file, err.line, err.message);
	assert_null(diff);
}

static void test_diff_refusals(void **state)
{
	char root[600], inc[700];
	struct slt_arena *a = slt_arena_new();
	struct slt_layout *orig;
	struct slt_struct o;
	struct slt_proposal p, id;
	static const size_t ord[] = { 1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };

	(void)state;
	setup_a(root, sizeof(root), "r", header_a);
	snprintf(inc, sizeof(inc), "%s/include", root);
	orig = compile_load(root, inc, "", "diff_a.h", "diff_a");
	o = orig->structs[0];
	make_proposal(a, &o, ord, SIZE_MAX, &p);
	memset(&id, 0, sizeof(id));
	id.layout = o;

	/* members declared together that the proposal separates */
	{
		struct slt_proposal rev;
		make_proposal(a, &o, NULL, SIZE_MAX, &rev);
		refused(&rev, &o, root, SLT_EUSAGE, 35, "declared together");
	}
	/* #ifdef inside the body */
	setup_a(root, sizeof(root), "r_ifdef",
		edit(header_a, "\tshort s;\n", "#ifdef CONFIG_X\n\tint extra;\n#endif\n\tshort s;\n"));
	refused(&id, &o, root, SLT_EUSAGE, 34,
		"preprocessor conditionals inside the struct: apply the C declaration by hand");
	/* a renamed member */
	setup_a(root, sizeof(root), "r_rename", edit(header_a, "\tshort s;\n", "\tshort s2;\n"));
	refused(&p, &o, root, SLT_EUSAGE, 34, "`short s2` does not declare `s`");
	/* a member whose plain C type differs from the binary's: refused
	 * (long vs the DWARF's short int, unsigned vs long int, a pointer
	 * level); typedef'd or macro'd types are left alone */
	setup_a(root, sizeof(root), "r_type", edit(header_a, "\tshort s;\n", "\tlong s;\n"));
	refused(&p, &o, root, SLT_EUSAGE, 34,
		"`long s` declares `s` with another type than the binary's `short int`");
	setup_a(root, sizeof(root), "r_type2",
		edit(header_a, "\tlong first;\n", "\tunsigned long first;\n"));
	refused(&p, &o, root, SLT_EUSAGE, 13, "than the binary's `long int`");
	setup_a(root, sizeof(root), "r_type3", edit(header_a, "\tint x, y;\n", "\tint x, *y;\n"));
	refused(&p, &o, root, SLT_EUSAGE, 35, "declares `y` with another type than the binary's `int`");
	setup_a(root, sizeof(root), "r_type4",
		edit(header_a, "\tconst char *name;\n", "\tconst char name;\n"));
	refused(&p, &o, root, SLT_EUSAGE, 28, "than the binary's `const char  *`");
	{
		char *d = NULL;
		struct slt_error e = { 0 };
		setup_a(root, sizeof(root), "r_typedef",
			edit(header_a, "\tshort s;\n", "#define DIFF_T long\n\tDIFF_T s;\n"));
		assert_int_equal(slt_advice_diff(&p, &o, root, &d, &e), 0);
		free(d);
	}
	/* a renamed member inside the anonymous union */
	setup_a(root, sizeof(root), "r_rename2",
		edit(edit(header_a, "int u_i;", "int v_i;"), "long u_l;", "long v_l;"));
	refused(&p, &o, root, SLT_EUSAGE, 18, "does not declare the anonymous union holding `u_i`");
	/* an extra member at the end */
	setup_a(root, sizeof(root), "r_extra", edit(header_a, "\tchar tail;\n", "\tchar tail;\n\tint more;\n"));
	refused(&p, &o, root, SLT_EUSAGE, 38, "`int more` is not in the binary's layout");
	/* a member missing */
	setup_a(root, sizeof(root), "r_missing", edit(header_a, "\tchar tail;\n", ""));
	refused(&p, &o, root, SLT_EUSAGE, 0, "`tail` of the binary's diff_a is not declared");
	/* the definition moved: not on decl_line */
	setup_a(root, sizeof(root), "r_moved", edit(header_a, "\n/*\n", "\n\n/*\n"));
	refused(&p, &o, root, SLT_EUSAGE, 11, "no `struct diff_a {` on this line");
	/* no such file under the root */
	snprintf(root, sizeof(root), "%s/empty", tmpdir);
	mkdir(root, 0755);
	refused(&p, &o, root, SLT_EIO, 0, "source not found under");
	/* no decl_file (a BTF layout) */
	o.decl_file = "";
	refused(&p, &o, root, SLT_EUSAGE, 0, "no source file or line");
	slt_layout_free(orig);
	slt_arena_free(a);
}

/* A real header: struct tcp_info of /usr/include/linux/tcp.h (bitfield
 * pairs declared together, comments, a multi-line trailing comment),
 * reversed with a padding member, applied to a copy and compiled. */
static void test_diff_real_header(void **state)
{
	const char *hdr = "/usr/include/linux/tcp.h";
	char root[600], cmd[1500], to[700], inc[900];
	struct slt_arena *a = slt_arena_new();
	struct slt_layout *orig, *back;
	struct slt_proposal p;
	struct slt_error err;
	char *diff = NULL;
	size_t nu;

	(void)state;
	if (access(hdr, R_OK))
		skip();
	orig = compile_load(tmpdir, "/nonexistent", "", "linux/tcp.h", "tcp_info");
	assert_non_null(strstr(orig->structs[0].decl_file, "linux/tcp.h"));
	nu = make_proposal(a, &orig->structs[0], NULL, 7, &p);
	assert_true(nu > 50);
	/* the source root: a tree holding a copy of the header */
	snprintf(root, sizeof(root), "%s/sys", tmpdir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/usr/include/linux' && cp %s '%s/usr/include/linux/'",
		 root, hdr, root);
	assert_int_equal(run(cmd), 0);
	if (slt_advice_diff(&p, &orig->structs[0], root, &diff, &err))
		fail_msg("%s:%u: %s", err.file, err.line, err.message);
	assert_non_null(strstr(diff, "--- a/usr/include/linux/tcp.h\n"));
	assert_non_null(strstr(diff, "\n+\t__u8 :0;\n"));
	snprintf(to, sizeof(to), "%s/sys_patched", tmpdir);
	apply(root, to, "usr/include/linux/tcp.h", diff);
	snprintf(inc, sizeof(inc), "%s/usr/include", to);
	back = compile_load(to, inc, "#include \"kcompat.h\"\n", "linux/tcp.h", "tcp_info");
	assert_non_null(strstr(back->structs[0].decl_file, "sys_patched"));
	check_back(&back->structs[0], &p.layout, diff);
	slt_layout_free(back);
	slt_layout_free(orig);
	free(diff);
	slt_arena_free(a);
}

/* Bad input never crashes: the header cut at every byte, and with one
 * byte changed at every position of the struct, gives 0 or an error with
 * a message (run under ASan to check the reads). */
static void test_diff_truncated(void **state)
{
	char root[600], path[700];
	struct slt_arena *a = slt_arena_new();
	struct slt_layout *orig;
	struct slt_proposal p;
	static const size_t ord[] = { 1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	size_t n = strlen(header_a), errs = 0;
	char *buf = malloc(n + 1);

	(void)state;
	assert_non_null(buf);
	setup_a(root, sizeof(root), "cut", header_a);
	snprintf(path, sizeof(path), "%s/include", root);
	orig = compile_load(root, path, "", "diff_a.h", "diff_a");
	make_proposal(a, &orig->structs[0], ord, 4, &p);
	snprintf(path, sizeof(path), "%s/include/diff_a.h", root);
	for (size_t i = 0; i < 2 * n; i++) {
		struct slt_error err;
		char *diff = NULL;
		FILE *f = fopen(path, "wb");
		int rc;

		assert_non_null(f);
		memcpy(buf, header_a, n);
		if (i < n) {
			fwrite(buf, 1, i, f);      /* cut at i */
		} else {
			buf[i - n] = "{}();/*#\\\"'"[(i - n) % 12];
			fwrite(buf, 1, n, f);
		}
		fclose(f);
		rc = slt_advice_diff(&p, &orig->structs[0], root, &diff, &err);
		if (rc)
			assert_true(rc < 0 && err.message[0] && !diff);
		else
			assert_non_null(diff);
		errs += rc != 0;
		free(diff);
	}
	assert_true(errs > n / 2);
	free(buf);
	slt_layout_free(orig);
	slt_arena_free(a);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/slt-diff-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return run(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_apply),
		cmocka_unit_test(test_diff_paths),
		cmocka_unit_test(test_diff_refusals),
		cmocka_unit_test(test_diff_real_header),
		cmocka_unit_test(test_diff_truncated),
	};
	return cmocka_run_group_tests(tests, setup, getenv("KEEP_TMP") ? NULL : teardown);
}
