/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the BTF source (src/load/btf.c).
 *
 *  - hand-built BTF (libbpf's btf__new_empty()/btf__add_* writer): kflag
 *    bitfields, multi-dimensional and flexible arrays, function pointers
 *    (variadic), forward declarations, typedef -> anonymous struct, type
 *    tags, qualifiers, same-name structs; the translated graph is asserted
 *    node by node;
 *  - broken BTF: reference loops, a struct holding itself by value, type
 *    ids out of range, a VAR as member type, every truncation and many
 *    byte corruptions of a valid blob: each must fail cleanly or load.
 * Real BTF (gcc + pahole -J, the running kernel's): test_btf_fixtures.c.
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

#include "btf_helpers.h"

/* ---- hand-built model ---------------------------------------------- */

/*
 * struct bits { unsigned a:3, b:5; int c:7; int d; };          (kflag)
 * typedef struct { long x; int y; } anon_t;
 * struct far { int z; };
 * struct node {
 *	struct bits bf;                  0
 *	anon_t an;                       8
 *	int md[2][3];                   24
 *	int (*fp)(int, char *, ...);    48
 *	struct opaque *op;              56   (fwd only)
 *	struct node *next;              64
 *	struct bits __tag *tp;          72   (type tag)
 *	const volatile char *cvp;       80
 *	struct far *farp;               88   (pointer only: shallow)
 *	int flex[];                     96
 * };                                    size 96
 * plus: union U, two different `struct dup`, fwd union ounion, fwd struct
 * declonly with typedef td_fwd, typedef td_named -> struct bits.
 */
static struct blob build_model(void)
{
	struct btf *b = btf__new_empty();
	assert_non_null(b);
	int t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int t_char = btf__add_int(b, "char", 1, BTF_INT_SIGNED | BTF_INT_CHAR);
	int t_uint = btf__add_int(b, "unsigned int", 4, 0);
	int t_long = btf__add_int(b, "long int", 8, BTF_INT_SIGNED);
	int t_charp = btf__add_ptr(b, t_char);
	int t_proto = btf__add_func_proto(b, t_int);
	assert_int_equal(btf__add_func_param(b, "a", t_int), 0);
	assert_int_equal(btf__add_func_param(b, "s", t_charp), 0);
	assert_int_equal(btf__add_func_param(b, NULL, 0), 0); /* ... */
	int t_fptr = btf__add_ptr(b, t_proto);
	int t_arr3 = btf__add_array(b, t_int, t_int, 3);
	int t_arr23 = btf__add_array(b, t_int, t_arr3, 2);
	int t_opaque = btf__add_fwd(b, "opaque", BTF_FWD_STRUCT);
	int t_opaquep = btf__add_ptr(b, t_opaque);
	int t_anon = btf__add_struct(b, NULL, 16);
	btf__add_field(b, "x", t_long, 0, 0);
	btf__add_field(b, "y", t_int, 64, 0);
	int t_anon_t = btf__add_typedef(b, "anon_t", t_anon);
	int t_bits = btf__add_struct(b, "bits", 8);
	btf__add_field(b, "a", t_uint, 0, 3);
	btf__add_field(b, "b", t_uint, 3, 5);
	btf__add_field(b, "c", t_int, 8, 7);
	btf__add_field(b, "d", t_int, 32, 0);
	int t_far = btf__add_struct(b, "far", 4);
	btf__add_field(b, "z", t_int, 0, 0);
	int t_farp = btf__add_ptr(b, t_far);
	int t_tag = btf__add_type_tag(b, "rcu", t_bits);
	int t_tagp = btf__add_ptr(b, t_tag);
	int t_vol = btf__add_volatile(b, t_char);
	int t_cv = btf__add_const(b, t_vol);
	int t_cvp = btf__add_ptr(b, t_cv);
	int t_flex = btf__add_array(b, t_int, t_int, 0);
	int t_node = btf__add_struct(b, "node", 96);
	assert_int_equal(btf__add_field(b, "bf", t_bits, 0, 0), 0);
	btf__add_field(b, "an", t_anon_t, 64, 0);
	btf__add_field(b, "md", t_arr23, 192, 0);
	btf__add_field(b, "fp", t_fptr, 384, 0);
	btf__add_field(b, "op", t_opaquep, 448, 0);
	btf__add_field(b, "next", t_int, 512, 0); /* patched below */
	btf__add_field(b, "tp", t_tagp, 576, 0);
	btf__add_field(b, "cvp", t_cvp, 640, 0);
	btf__add_field(b, "farp", t_farp, 704, 0);
	assert_int_equal(btf__add_field(b, "flex", t_flex, 768, 0), 0);
	/* fields go to the last type added, so the self pointer comes after */
	int t_nodep = btf__add_ptr(b, t_node);
	btf_members((struct btf_type *)btf__type_by_id(b, t_node))[5].type = t_nodep;
	int t_u = btf__add_union(b, "U", 8);
	btf__add_field(b, "i", t_int, 0, 0);
	btf__add_field(b, "l", t_long, 0, 0);
	int t_dup1 = btf__add_struct(b, "dup", 4);
	btf__add_field(b, "a", t_int, 0, 0);
	int t_dup2 = btf__add_struct(b, "dup", 8);
	btf__add_field(b, "b", t_long, 0, 0);
	int t_ou = btf__add_fwd(b, "ounion", BTF_FWD_UNION);
	int t_decl = btf__add_fwd(b, "declonly", BTF_FWD_STRUCT);
	int t_tdf = btf__add_typedef(b, "td_fwd", t_decl);
	int t_tdn = btf__add_typedef(b, "td_named", t_bits);
	assert_true(t_u > 0 && t_dup1 > 0 && t_dup2 > 0 && t_ou > 0 &&
		    t_tdf > 0 && t_tdn > 0 && t_tag > 0);
	return to_blob(b);
}

static void test_model_graph(void **state)
{
	(void)state;
	struct blob b = build_model();
	struct slt_source *src = open_blob(b);
	struct slt_type *node = find_one(src, "node");

	assert_int_equal(node->kind, SLT_T_STRUCT);
	assert_string_equal(node->name, "node");
	assert_int_equal(node->size, 96);
	assert_false(node->flags & SLT_TF_SHALLOW);
	assert_int_equal(node->n_members, 10);
	assert_null(node->decl_file);
	assert_int_equal(node->decl_line, 0);
	assert_int_equal(node->alignment, 0);

	/* kflag bitfields */
	const struct slt_tmember *m = member(node, "bf");
	assert_int_equal(m->bit_offset, 0);
	const struct slt_type *bits = m->type;
	assert_int_equal(bits->kind, SLT_T_STRUCT);
	assert_false(bits->flags & SLT_TF_SHALLOW);
	assert_int_equal(bits->n_members, 4);
	assert_int_equal(member(bits, "a")->bit_offset, 0);
	assert_int_equal(member(bits, "a")->bit_size, 3);
	assert_int_equal(member(bits, "b")->bit_offset, 3);
	assert_int_equal(member(bits, "b")->bit_size, 5);
	assert_int_equal(member(bits, "c")->bit_offset, 8);
	assert_int_equal(member(bits, "c")->bit_size, 7);
	assert_true(member(bits, "c")->type->flags & SLT_TF_SIGNED);
	assert_false(member(bits, "a")->type->flags & SLT_TF_SIGNED);
	assert_int_equal(member(bits, "d")->bit_offset, 32);
	assert_int_equal(member(bits, "d")->bit_size, 0);

	/* typedef -> anonymous struct, by value: fully translated */
	m = member(node, "an");
	assert_int_equal(m->bit_offset, 64);
	assert_int_equal(m->type->kind, SLT_T_TYPEDEF);
	assert_string_equal(m->type->name, "anon_t");
	assert_int_equal(m->type->size, 16);
	const struct slt_type *anon = m->type->ref;
	assert_int_equal(anon->kind, SLT_T_STRUCT);
	assert_true(!anon->name || !anon->name[0]);
	assert_int_equal(anon->n_members, 2);
	assert_int_equal(member(anon, "y")->bit_offset, 64);

	/* int md[2][3]: array of arrays */
	m = member(node, "md");
	assert_int_equal(m->bit_offset, 192);
	assert_int_equal(m->type->kind, SLT_T_ARRAY);
	assert_int_equal(m->type->nelems, 2);
	assert_int_equal(m->type->size, 24);
	assert_int_equal(m->type->ref->kind, SLT_T_ARRAY);
	assert_int_equal(m->type->ref->nelems, 3);
	assert_int_equal(m->type->ref->size, 12);
	assert_int_equal(m->type->ref->ref->kind, SLT_T_INT);
	assert_string_equal(m->type->ref->ref->name, "int");

	/* int (*fp)(int, char *, ...) */
	m = member(node, "fp");
	assert_int_equal(m->type->kind, SLT_T_PTR);
	assert_int_equal(m->type->size, 8);
	const struct slt_type *fn = m->type->ref;
	assert_int_equal(fn->kind, SLT_T_FUNC);
	assert_true(fn->flags & SLT_TF_VARIADIC);
	assert_int_equal(fn->n_params, 2);
	assert_string_equal(fn->ref->name, "int");
	assert_int_equal(fn->params[0]->kind, SLT_T_INT);
	assert_int_equal(fn->params[1]->kind, SLT_T_PTR);
	assert_true(fn->params[1]->ref->flags & SLT_TF_CHAR);

	/* struct opaque *: forward declaration */
	m = member(node, "op");
	assert_int_equal(m->type->ref->kind, SLT_T_FWD);
	assert_int_equal(m->type->ref->fwd_kind, SLT_T_STRUCT);
	assert_string_equal(m->type->ref->name, "opaque");

	/* self pointer: the very same node */
	assert_ptr_equal(member(node, "next")->type->ref, node);

	/* type tag skipped: pointer straight to struct bits */
	assert_ptr_equal(member(node, "tp")->type->ref, bits);

	/* const volatile char * */
	m = member(node, "cvp");
	assert_int_equal(m->type->ref->kind, SLT_T_CONST);
	assert_int_equal(m->type->ref->ref->kind, SLT_T_VOLATILE);
	assert_string_equal(m->type->ref->ref->ref->name, "char");

	/* struct far reached through a pointer only: shallow */
	m = member(node, "farp");
	assert_int_equal(m->type->ref->kind, SLT_T_STRUCT);
	assert_true(m->type->ref->flags & SLT_TF_SHALLOW);
	assert_int_equal(m->type->ref->size, 4);
	assert_int_equal(m->type->ref->n_members, 0);

	/* int flex[] */
	m = member(node, "flex");
	assert_int_equal(m->bit_offset, 768);
	assert_int_equal(m->type->kind, SLT_T_ARRAY);
	assert_int_equal(m->type->nelems, 0);
	assert_int_equal(m->type->size, 0);

	/* finding far later upgrades the shared node in place */
	struct slt_type *far = find_one(src, "far");
	assert_ptr_equal(far, member(node, "farp")->type->ref);
	assert_false(far->flags & SLT_TF_SHALLOW);
	assert_int_equal(far->n_members, 1);

	src->ops->close(src);
	free(b.data);
}

static void test_model_find(void **state)
{
	(void)state;
	struct blob b = build_model();
	struct slt_source *src = open_blob(b);
	struct slt_error err;

	/* typedef of an anonymous struct: named by the typedef, and the
	 * shared anonymous node keeps no name */
	struct slt_type *a = find_one(src, "anon_t");
	assert_int_equal(a->kind, SLT_T_STRUCT);
	assert_string_equal(a->name, "anon_t");
	assert_int_equal(a->size, 16);
	assert_true(a->flags & SLT_TF_TYPEDEF_NAME);
	assert_int_equal(a->n_members, 2);
	struct slt_type *node = find_one(src, "node");
	const struct slt_type *an = member(node, "an")->type->ref;
	assert_true(!an->name || !an->name[0]);

	/* typedef of a named struct: the struct under its own name */
	struct slt_type *tn = find_one(src, "td_named");
	assert_string_equal(tn->name, "bits");
	assert_false(tn->flags & SLT_TF_TYPEDEF_NAME);
	assert_ptr_equal(tn, member(node, "bf")->type);

	struct slt_type *u = find_one(src, "U");
	assert_int_equal(u->kind, SLT_T_UNION);
	assert_int_equal(u->size, 8);
	assert_int_equal(member(u, "l")->bit_offset, 0);

	/* two different definitions of one name: both */
	struct slt_type **res = NULL;
	size_t n = 0;
	slt_error_clear(&err);
	assert_int_equal(src->ops->find(src, "dup", &res, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(res[0]->size + res[1]->size, 12);
	assert_ptr_not_equal(res[0], res[1]);
	free(res);

	assert_int_equal(find_rc(src, "declonly", &err), SLT_EDECLONLY);
	assert_int_equal(find_rc(src, "td_fwd", &err), SLT_EDECLONLY);
	assert_int_equal(find_rc(src, "opaque", &err), SLT_EDECLONLY);
	assert_int_equal(find_rc(src, "ounion", &err), SLT_EDECLONLY);
	assert_int_equal(find_rc(src, "nosuch", &err), SLT_ENOTFOUND);
	assert_string_equal(err.file, "blob");
	assert_non_null(strstr(err.message, "nosuch"));
	assert_int_equal(find_rc(src, "int", &err), SLT_ENOTFOUND);
	assert_int_equal(find_rc(src, "", &err), SLT_ENOTFOUND);

	src->ops->close(src);
	free(b.data);
}

struct listed {
	char names[16][32];
	int kinds[16];
	int shallow;
	size_t n;
	size_t stop_after;
};

static int list_cb(void *ctx, const struct slt_type *t)
{
	struct listed *l = ctx;
	assert_true(l->n < 16);
	snprintf(l->names[l->n], sizeof(l->names[0]), "%s", t->name);
	l->kinds[l->n] = t->kind;
	l->shallow += !!(t->flags & SLT_TF_SHALLOW);
	l->n++;
	return l->stop_after && l->n == l->stop_after ? 42 : 0;
}

static void test_model_list_suggest(void **state)
{
	(void)state;
	struct blob b = build_model();
	struct slt_source *src = open_blob(b);
	struct slt_error err;
	slt_error_clear(&err);

	struct listed l;
	memset(&l, 0, sizeof(l));
	assert_int_equal(src->ops->list(src, list_cb, &l, &err), 0);
	/* named definitions, in id order; anonymous struct and fwds not */
	const char *want[] = { "bits", "far", "node", "U", "dup", "dup" };
	assert_int_equal(l.n, 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(l.names[i], want[i]);
	assert_int_equal(l.kinds[3], SLT_T_UNION);
	assert_int_equal(l.shallow, 6); /* nothing found yet */

	memset(&l, 0, sizeof(l));
	l.stop_after = 2;
	assert_int_equal(src->ops->list(src, list_cb, &l, &err), 42);
	assert_int_equal(l.n, 2);

	char **names = NULL;
	int n = src->ops->suggest(src, "nod", 5, &names, &err);
	assert_true(n >= 1);
	assert_string_equal(names[0], "node");
	for (int i = 0; i < n; i++) {
		/* only struct/union names, never typedefs or fwds */
		assert_true(strcmp(names[i], "anon_t") && strcmp(names[i], "opaque"));
		free(names[i]);
	}
	free(names);

	n = src->ops->suggest(src, "bist", 1, &names, &err);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "bits");
	free(names[0]);
	free(names);

	n = src->ops->suggest(src, "zzzzzzzzzzzz", 5, &names, &err);
	assert_int_equal(n, 0);
	free(names);

	src->ops->close(src);
	free(b.data);
}

/* ---- broken graphs ------------------------------------------------- */

static struct btf_type *mut(struct btf *b, int id)
{
	return (struct btf_type *)btf__type_by_id(b, id);
}

/* A blob with one problem; find(name) must fail with SLT_ECORRUPT, the
 * error must name the blob and its message contain `what`. */
static void expect_corrupt(struct btf *b, const char *name, const char *what)
{
	struct blob bl = to_blob(b);
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_source_open_btf_mem(bl.data, bl.size, "bad", &src, &err);
	if (rc == 0) {
		rc = find_rc(src, name, &err);
		/* a second try must not find a half-built graph */
		if (rc)
			assert_int_equal(find_rc(src, name, &err), rc);
		src->ops->close(src);
	}
	assert_int_equal(rc, SLT_ECORRUPT);
	assert_string_equal(err.file, "bad");
	assert_true(err.hint[0] != '\0');
	/* a type record in a raw blob: the offset is inside the type
	 * section (after the 24-byte header); otherwise unknown (-1) */
	if (strstr(what, "by value") || strstr(what, "type of a member"))
		assert_true(err.offset >= 24);
	assert_true(err.offset == -1 || (err.offset >= 24 && (size_t)err.offset < bl.size));
	if (!strstr(err.message, what))
		fail_msg("%s: message '%s' lacks '%s'", name, err.message, what);
	free(bl.data);
}

static void test_broken_graphs(void **state)
{
	(void)state;
	struct btf *b;
	int t_int, s, td1, td2;

	/* struct selfy { struct selfy s; } */
	b = btf__new_empty();
	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(b, "selfy", 4);
	btf__add_field(b, "i", t_int, 0, 0);
	btf_members(mut(b, s))[0].type = s;
	expect_corrupt(b, "selfy", "contains itself by value");

	/* struct a { struct b x; }; struct b { struct a y; } through typedef */
	b = btf__new_empty();
	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(b, "sa", 4);
	btf__add_field(b, "x", t_int, 0, 0);
	int s2 = btf__add_struct(b, "sb", 4);
	btf__add_field(b, "y", s, 0, 0);
	td1 = btf__add_typedef(b, "sb_t", s2);
	btf_members(mut(b, s))[0].type = td1;
	expect_corrupt(b, "sa", "contains itself by value");

	/* typedef loop: loopA -> loopB -> loopA, used by value and via ptr */
	b = btf__new_empty();
	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	td1 = btf__add_typedef(b, "loopA", t_int);
	td2 = btf__add_typedef(b, "loopB", td1);
	mut(b, td1)->type = td2;
	s = btf__add_struct(b, "hasloop", 4);
	btf__add_field(b, "x", td1, 0, 0);
	expect_corrupt(b, "hasloop", "nest deeper than");

	b = btf__new_empty();
	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	td1 = btf__add_typedef(b, "loopA", t_int);
	int p = btf__add_ptr(b, td1);
	mut(b, td1)->type = p; /* typedef loopA *loopA */
	s = btf__add_struct(b, "ptrloop", 8);
	btf__add_field(b, "x", p, 0, 0);
	expect_corrupt(b, "ptrloop", "nest deeper than");

	/* member type id beyond the last type */
	b = btf__new_empty();
	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(b, "badid", 4);
	btf__add_field(b, "x", t_int, 0, 0);
	btf_members(mut(b, s))[0].type = 9999;
	expect_corrupt(b, "badid", "type id 9999");

	/* a VAR as a member type */
	b = btf__new_empty();
	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int v = btf__add_var(b, "v", BTF_VAR_GLOBAL_ALLOCATED, t_int);
	s = btf__add_struct(b, "hasvar", 4);
	btf__add_field(b, "x", v, 0, 0);
	expect_corrupt(b, "hasvar", "cannot be the type of a member");

	/* a void member */
	b = btf__new_empty();
	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(b, "hasvoid", 4);
	btf__add_field(b, "x", t_int, 0, 0);
	btf_members(mut(b, s))[0].type = 0;
	expect_corrupt(b, "hasvoid", "has type void");

	/* a qualifier chain deeper than any real one (300 consts) */
	b = btf__new_empty();
	int c = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	for (int i = 0; i < 300; i++)
		c = btf__add_const(b, c);
	s = btf__add_struct(b, "deep", 4);
	btf__add_field(b, "x", c, 0, 0);
	expect_corrupt(b, "deep", "nest deeper than");
}

/* A pointer back to the struct through a typedef and a function
 * signature is fine (no by-value cycle). */
static void test_legit_cycles(void **state)
{
	(void)state;
	/* struct ev { ev_t *next; cb_t cb; }: typedef struct ev ev_t;
	 * typedef int (*cb_t)(ev_t *); member types patched in once the
	 * later types exist. */
	struct btf *b = btf__new_empty();
	int t_int, s, td, tdp, proto, cb, cb_t;
	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(b, "ev", 16);
	btf__add_field(b, "next", t_int, 0, 0);
	btf__add_field(b, "cb", t_int, 64, 0);
	td = btf__add_typedef(b, "ev_t", s);
	tdp = btf__add_ptr(b, td);
	proto = btf__add_func_proto(b, t_int);
	btf__add_func_param(b, "e", tdp);
	cb = btf__add_ptr(b, proto);
	cb_t = btf__add_typedef(b, "cb_t", cb);
	btf_members(mut(b, s))[0].type = tdp;
	btf_members(mut(b, s))[1].type = cb_t;
	struct blob bl = to_blob(b);
	struct slt_source *src = open_blob(bl);
	struct slt_type *ev = find_one(src, "ev");
	const struct slt_type *next = member(ev, "next")->type;
	assert_int_equal(next->kind, SLT_T_PTR);
	assert_ptr_equal(next->ref->ref, ev);
	const struct slt_type *cbt = member(ev, "cb")->type;
	assert_int_equal(cbt->kind, SLT_T_TYPEDEF);
	assert_ptr_equal(cbt->ref->ref->params[0], next);
	/* and by the typedef name: the named struct itself */
	assert_ptr_equal(find_one(src, "ev_t"), ev);
	src->ops->close(src);
	free(bl.data);
}

/* Every proper prefix of a valid blob fails cleanly; byte corruptions
 * either fail cleanly or give a source whose find/list/suggest behave. */
static bool valid_code(int rc)
{
	return rc == 0 || rc == SLT_ECORRUPT || rc == SLT_ENOTFOUND ||
	       rc == SLT_EDECLONLY || rc == SLT_ENOTELF;
}

static void exercise(const void *data, size_t size)
{
	static const char *names[] = { "node", "bits", "anon_t", "dup", "U",
				       "far", "declonly", "td_fwd", "td_named",
				       "opaque", "nosuch" };
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	int rc = slt_source_open_btf_mem(data, size, "fz", &src, &err);
	assert_true(valid_code(rc));
	if (rc) {
		assert_null(src);
		assert_int_equal(err.code, rc);
		return;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_true(valid_code(find_rc(src, names[i], &err)));
	size_t n = 0;
	slt_error_clear(&err);
	assert_true(valid_code(src->ops->list(src, count_cb, &n, &err)));
	char **sugg = NULL;
	int ns = src->ops->suggest(src, "nod", 3, &sugg, &err);
	assert_true(ns >= 0 || valid_code(ns));
	for (int i = 0; i < ns; i++)
		free(sugg[i]);
	free(sugg);
	src->ops->close(src);
}

static void test_truncated_and_corrupted(void **state)
{
	(void)state;
	struct blob b = build_model();
	struct slt_error err;

	for (size_t len = 0; len < b.size; len++) {
		void *copy = malloc(len ? len : 1);
		memcpy(copy, b.data, len);
		struct slt_source *src = NULL;
		slt_error_clear(&err);
		int rc = slt_source_open_btf_mem(copy, len, "trunc", &src, &err);
		if (rc != SLT_ECORRUPT && rc != SLT_ENOTELF)
			fail_msg("truncated to %zu: rc %d", len, rc);
		assert_null(src);
		assert_string_equal(err.file, "trunc");
		free(copy);
	}

	/* a longer header (zero extension bytes are allowed) that leaves the
	 * type records off 4-byte alignment */
	struct btf_header hdr;
	memcpy(&hdr, b.data, sizeof(hdr));
	unsigned char *big = calloc(1, b.size + 2);
	memcpy(big, b.data, hdr.hdr_len);
	memcpy(big + hdr.hdr_len + 2, (char *)b.data + hdr.hdr_len, b.size - hdr.hdr_len);
	((struct btf_header *)big)->hdr_len = hdr.hdr_len + 2;
	struct slt_source *src = NULL;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_btf_mem(big, b.size + 2, "mis", &src, &err),
			 SLT_ECORRUPT);
	free(big);

	unsigned char *copy = malloc(b.size);
	size_t loaded = 0;
	for (size_t i = 0; i < b.size; i++) {
		const unsigned char *orig = b.data;
		const unsigned char vals[] = { 0x00, 0xff, (unsigned char)(orig[i] ^ 0x01),
					       (unsigned char)(orig[i] ^ 0x80),
					       (unsigned char)(orig[i] + 1) };
		for (size_t k = 0; k < sizeof(vals); k++) {
			memcpy(copy, b.data, b.size);
			copy[i] = vals[k];
			struct slt_source *cs = NULL;
			slt_error_clear(&err);
			if (slt_source_open_btf_mem(copy, b.size, "c", &cs, &err) == 0) {
				loaded++;
				cs->ops->close(cs);
			}
			exercise(copy, b.size);
		}
	}
	/* both branches were taken */
	assert_true(loaded > 0 && loaded < 5 * b.size);
	free(copy);
	free(b.data);
}

static void test_open_errors(void **state)
{
	(void)state;
	struct slt_source *src = (struct slt_source *)1;
	struct slt_error err;
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_btf("/nonexistent/x.btf", NULL, &src, &err),
			 SLT_EIO);
	assert_null(src);
	assert_string_equal(err.file, "/nonexistent/x.btf");

	slt_error_clear(&err);
	assert_int_equal(slt_source_open_btf_mem("hello", 5, "txt", &src, &err),
			 SLT_ENOTELF);
	slt_error_clear(&err);
	assert_int_equal(slt_source_open_btf_mem("", 0, "empty", &src, &err),
			 SLT_ENOTELF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_graph),
		cmocka_unit_test(test_model_find),
		cmocka_unit_test(test_model_list_suggest),
		cmocka_unit_test(test_broken_graphs),
		cmocka_unit_test(test_legit_cycles),
		cmocka_unit_test(test_truncated_and_corrupted),
		cmocka_unit_test(test_open_errors),
	};
	return cmocka_run_group_tests_name("btf", tests, NULL, NULL);
}
